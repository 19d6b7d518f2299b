#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The agent's job engine end to end on a tmpfs directory (no loop device,
# no mount: no heavy lock needed; ~5 s): --workload and --job run, the
# result JSON is format_version 2 with workload samples; bad input gives
# one line and exit 2 before anything is created (an unsupported option
# named by FILE:LINE, a missing device, an unknown profile, --job with -s).
set -eu
agent=${VDC_AGENT:-./guest-agent/vmdiskcmp-agent}
[ -x "$agent" ] || { echo "agent-job: $agent not built" >&2; exit 99; }
command -v jq >/dev/null || { echo "agent-job: SKIP: jq not installed"; exit 77; }
work=$(mktemp -d /dev/shm/vdc-agent-job.XXXXXX 2>/dev/null || mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
fail() { echo "agent-job: FAIL: $*" >&2; exit 1; }
mkdir "$work/t"

# a short job through --workload's directory lookup
mkdir "$work/wl"
printf '[quick]\nrw=randrw\nrwmixread=70\nbs=4k\niodepth=4\nsize=8m\ntime_based\nruntime=1\n' \
    > "$work/wl/quick.fio"
VDC_WORKLOAD_DIR=$work/wl "$agent" -d "$work/t" --workload quick --seed 3 -q \
    --json "$work/r.json" > "$work/out.txt" 2> "$work/err.txt" || fail "run: $(cat "$work/err.txt")"
jq -e '.format_version == 2 and (.runs[0].samples | length) == 2
       and .runs[0].samples[0].test == "workload_read"
       and .runs[0].samples[1].test == "workload_write"
       and .runs[0].samples[0].value > 0
       and .runs[0].samples[0].workload.clat_us.p99 >= .runs[0].samples[0].workload.clat_us.p50
       and (.runs[0].samples[0].workload.iops_series.values | length) >= 1
       and .runs[0].samples[0].workload.steady_state.reached != null
       and .runs[0].samples[0].workload.buffers.bytes == 4 * 4096
       and (.runs[0].samples[0].workload.buffers.huge_kib | . == 0 or . == 2048)' "$work/r.json" >/dev/null \
    || fail "result JSON: $(cat "$work/r.json")"
[ -z "$(ls "$work/t")" ] || fail "job files left in the target: $(ls "$work/t")"
grep -q '^quick: rw=randrw' "$work/out.txt" || fail "table: $(cat "$work/out.txt")"
# a bonnie++ run stays format_version 1
"$agent" -d "$work/t" -s 1m -n 0 -f --per-char-size 0 -q --json "$work/b.json" >/dev/null 2>&1
jq -e '.format_version == 1' "$work/b.json" >/dev/null || fail "bonnie++ run is not format_version 1"

# bad input: one line, exit 2, nothing created
bad() { # expected-substring agent-args...
    want=$1; shift
    rc=0
    "$agent" "$@" > "$work/bad.out" 2> "$work/bad.err" || rc=$?
    [ "$rc" = 2 ] || fail "$*: exit $rc, expected 2"
    [ "$(wc -l < "$work/bad.err")" = 1 ] || fail "$*: expected one line: $(cat "$work/bad.err")"
    grep -qF -- "$want" "$work/bad.err" || fail "$*: got '$(cat "$work/bad.err")', expected '$want'"
    [ -z "$(ls "$work/t")" ] || fail "$*: created $(ls "$work/t")"
    [ ! -e "$work/x.json" ] || fail "$*: wrote the JSON"
}
printf '[j]\nrw=randread\nrefill_buffers\n' > "$work/fioonly.fio"
bad "$work/fioonly.fio:3: refill_buffers: a fio option the agent does not run" \
    -d "$work/t" --job "$work/fioonly.fio" --json "$work/x.json"
printf '[j]\nrw=randread\nnorandommap=2\n' > "$work/nrm.fio"
bad "$work/nrm.fio:3: norandommap=2: expected 0 or 1" \
    -d "$work/t" --job "$work/nrm.fio" --json "$work/x.json"
printf '[j]\nrw=randread\nsoftrandommap\n' > "$work/soft.fio"
bad "$work/soft.fio:3: softrandommap: a fio option the agent does not run" \
    -d "$work/t" --job "$work/soft.fio" --json "$work/x.json"
printf '[j]\niodepth=0\n' > "$work/qd0.fio"
bad "$work/qd0.fio:2: iodepth=0: expected a whole number from 1 to 1024" \
    -d "$work/t" --job "$work/qd0.fio"
bad "-d /dev/vdc-no-such-device: No such file or directory" \
    -d /dev/vdc-no-such-device --job "$work/wl/quick.fio"
VDC_WORKLOAD_DIR=$work/wl bad "--job $work/wl/nope.fio: No such file or directory" \
    -d "$work/t" --workload nope
bad "-s: not with --job/--workload" -d "$work/t" -s 8m --job "$work/wl/quick.fio"
printf '[j]\nrw=read\n' > "$work/nosize.fio"
bad "[j]: no size=: expected the size of the job's file on $work/t" \
    -d "$work/t" --job "$work/nosize.fio"
echo "agent-job: ok"
