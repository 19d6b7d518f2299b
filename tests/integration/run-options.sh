#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `vmdiskcmp run` (and cleanup) bad input: one line on stderr naming the option and what
# was expected, exit status 2, and nothing created (no result directory,
# no image).  Also --dry-run creates nothing and prints the plan, the
# domain XML or xl disk specs (--image-cache included).  Runs in well under
# a second.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "no $VMDISKCMP"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

bad() {
    want=$1; shift
    rc=0
    "$VMDISKCMP" "$@" --out "$work/out" --image-dir "$work" >"$work/stdout" 2>"$work/stderr" || rc=$?
    [ "$rc" = 2 ] || fail "'$*': exit status $rc, expected 2"
    [ "$(wc -l < "$work/stderr")" = 1 ] || fail "'$*': expected one line on stderr, got: $(cat "$work/stderr")"
    grep -qF -- "$want" "$work/stderr" || fail "'$*': stderr '$(cat "$work/stderr")' lacks '$want'"
    [ ! -e "$work/out" ] || fail "'$*': created $work/out"
    [ -z "$(ls "$work" | grep -v '^std')" ] || fail "'$*': created $(ls "$work")"
}

bad "--bogus" --image --bogus
bad "--runs 'zero': expected an integer from 1 to 1000" --image --runs zero
bad "--size '5X': expected a size" --image --size 5X
bad "--image-backend 'auto,floppy'" --image --image-backend auto,floppy
bad "--image-cache 'host,writeback'" --image --image-cache host,writeback
bad "--image-cache 'none,none': 'none' given twice: expected each of host|none at most once" \
    --image --image-cache none,none --guest-image /g.img
bad "--image-cache 'host,host': 'host' given twice: expected each of host|none at most once" \
    --image --image-cache host,host --guest-image /g.img
# an option that means something only with a target the command lacks:
# refused, never ignored
bad "--image-cache none: expected --image as well" --dom0 --image-cache none
bad "--image-backend qdisk: expected --image as well" --dom0 --image-backend qdisk
bad "--image-format qcow2: expected --image as well (the dom0 baseline's image is always raw)" --dom0 --image-format qcow2
bad "--image-alloc full: expected an image target as well" --dom0 --vg vg0 --image-alloc full
bad "--vg vg0: expected an LV target as well" --image --vg vg0 --guest-image /g.img
bad "--size 1 GiB: expected a domU target as well" --dom0 --size 1G
# an --out the results could not name (the dom0 agent's job files are
# under it): refused before anything is made
rc=0
"$VMDISKCMP" --dom0 --dry-run --out "$work/o$(printf '\t')x" --image-dir "$work" >"$work/stdout" 2>"$work/stderr" || rc=$?
[ "$rc" = 2 ] && [ "$(wc -l < "$work/stderr")" = 1 ] &&
    grep -qF -- "--out $work/o\tx: expected a path of UTF-8 text without control characters" "$work/stderr" ||
    fail "--out with a tab: exit status $rc, stderr: $(cat "$work/stderr")"
[ -z "$(ls "$work" | grep -v '^std')" ] || fail "--out with a tab: created $(ls "$work")"
# a path option written into domain XML, an xl.cfg or an xl disk spec: no
# control characters (a newline would start a line of its own there), and
# with libxl none of an xl disk spec's own characters (a ',' ends the
# target, a quote ends xl.cfg's string)
nl='
'
path_bad() {
    want=$1; shift
    rc=0
    "$VMDISKCMP" run --dry-run --image --guest-image /g.img "$@" >"$work/stdout" 2>"$work/stderr" || rc=$?
    [ "$rc" = 2 ] && [ "$(wc -l < "$work/stderr")" = 1 ] && grep -qF -- "$want" "$work/stderr" ||
        fail "'$*': exit status $rc, stderr '$(cat "$work/stderr")', expected one line with '$want'"
    [ -z "$(ls "$work" | grep -v '^std')" ] || fail "'$*': created $(ls "$work")"
}
xl_want="or any of , : = \" ' \\ (an xl disk spec's or xl.cfg's own characters"
path_bad "--image-dir $work/a,b: expected a path of UTF-8 text without control characters $xl_want" \
    --hypervisor libxl --image-dir "$work/a,b" --out "$work/out"
path_bad "--image-dir $work/a'b: expected" --hypervisor libxl --image-dir "$work/a'b" --out "$work/out"
path_bad "--image-dir $work/a\nb: expected a path of UTF-8 text without control characters" \
    --hypervisor libxl --image-dir "$work/a${nl}b" --out "$work/out"
path_bad "--image-dir $work/a\nb: expected" --hypervisor libvirt --image-dir "$work/a${nl}b" --out "$work/out"
path_bad "--cache-dir $work/c\nd: expected" --image-dir "$work" --cache-dir "$work/c${nl}d" --out "$work/out"
path_bad "--cache-dir $work/c=d: expected" --hypervisor libxl --image-dir "$work" --cache-dir "$work/c=d" \
    --out "$work/out"
path_bad "--out $work/o:x: expected" --hypervisor libxl --image-dir "$work" --out "$work/o:x"
path_bad "--kernel /k\tx: expected" --image-dir "$work" --kernel "/k$(printf '\t')x" --out "$work/out"
path_bad '--kernel /k\"x: expected a path of UTF-8 text without control characters or any of " '"'"' \ (xl.cfg' --hypervisor libxl --image-dir "$work" --kernel '/k"x' --out "$work/out"
path_bad "--block /dev/a,b: expected" --hypervisor libxl --block /dev/a,b --destroy-data --out "$work/out"
# with libvirt a ',' is only a character of a file name
"$VMDISKCMP" run --dry-run --image --guest-image /g.img --hypervisor libvirt --image-dir "$work/a,b" \
    --out "$work/out" >"$work/stdout" 2>"$work/stderr" ||
    fail "--hypervisor libvirt --image-dir with a ',': refused: $(cat "$work/stderr")"
grep -qF "$work/a,b/" "$work/stdout" || fail "--image-dir with a ',': not in the domain XML"
[ -z "$(ls "$work" | grep -v '^std')" ] || fail "--dry-run created $(ls "$work")"
# --lv-size's help says what it needs (an image-only plan refuses it)
"$VMDISKCMP" run --help | tr '\n' ' ' | tr -s ' ' | grep -qF -- "size of each LV we create (needs --lvm, or --dom0 on lvm)" ||
    fail "run --help: --lv-size does not say it needs an LV"
# a single-valued option given twice: refused, never the last taken
bad "--runs given twice ('2', then '3'): expected one value" --image --runs 2 --runs 3
bad "--order 'random': expected one of rotated|interleaved|grouped" --image --order random
bad "--runs 'autox': expected an integer from 1 to 1000 or auto" --image --runs autox
bad "--precision: expected --runs auto as well" --image --precision 2
bad "--precision '0': expected a percentage from 0.1 to 50" --image --runs auto --precision 0
bad "--max-runs '2': expected an integer from 3 to 1000" --image --runs auto --max-runs 2
bad "--runs auto: expected --order rotated or interleaved" --image --runs auto --order grouped
bad "--runs auto: expected two targets or more" --image --runs auto --guest-image /g.img
bad "--precision '0x5': expected a percentage from 0.1 to 50" --image --dom0 --runs auto --precision 0x5
bad "--image-backend tap: expected --hypervisor libxl" --image --hypervisor libvirt --connect xen:///system --image-backend tap --guest-image /g.img
bad "the matrix has no image target left: image-meta: metadata is qcow2's preallocation" --image --image-format raw --image-alloc metadata --dry-run
bad "--lvm: expected --vg VG" --lvm
bad "--block/--target: expected --destroy-data" --block /dev/sdz
# a --target name the control disk cannot carry (65 bytes): refused when
# given, before --out exists (it was found after --out and a report existed)
bad "--target '$(printf 'n%.0s' $(seq 65))=/dev/sdz': expected NAME=/dev/DEVICE with NAME of 1-64 of [a-z0-9_-]" \
    --target "$(printf 'n%.0s' $(seq 65))=/dev/sdz" --destroy-data
bad "--stripe-size 64 KiB: expected --stripes N" --lvm --vg vg0 --stripe-size 64K
# no guest option and no template to take: a copy of vmdiskcmp outside its
# build tree finds none (unless one is installed on this machine: its dry
# run then names it, and the refusal cannot be seen here)
lonetop=$(mktemp -d)
lone=$lonetop/bin
mkdir "$lone"
cp "$VMDISKCMP" "$lone/vmdiskcmp"
"$lone/vmdiskcmp" --image --hypervisor libvirt --connect test:///default --dry-run --out "$work/out" \
    >"$lone/plan" 2>&1 || fail "no template: the dry run failed: $(cat "$lone/plan")"
if grep -q "^  --guest-image (none): no guest template is installed (looked for $lonetop/guest-template/guest.img, " "$lone/plan"; then
    rc=0
    "$lone/vmdiskcmp" --image --hypervisor libvirt --connect test:///default --out "$work/out" \
        >"$lone/stdout" 2>"$lone/stderr" || rc=$?
    [ "$rc" = 2 ] && [ "$(wc -l < "$lone/stderr")" = 1 ] &&
        grep -q -e "--guest-image: expected a guest template (or --prepared-image) for the domU targets: none is installed" "$lone/stderr" ||
        { msg=$(cat "$lone/stderr"); rm -rf "$lonetop"; fail "no template: exit $rc: $msg"; }
    [ ! -e "$work/out" ] || { rm -rf "$lonetop"; fail "no template: created $work/out"; }
else
    echo "note: a guest template is installed here: $(grep -e '--guest-image' "$lone/plan")"
fi
rm -rf "$lonetop"
bad "--image-backend qdisk: expected auto with a QEMU/KVM domain" --image --image-backend qdisk \
    --hypervisor libvirt --connect qemu:///system --guest-image /nonexistent
bad "nothing to run" --runs 2
bad "unexpected argument 'now'" --image now
# bug run-sub-mib-size: --size/--dom0-size below or between MiB became the
# agent's `-s 0` in dom0 (no sequential tests, silently); absurd sizes
# overflowed nothing only by luck
bad "--size '1k': expected a whole number of MiB" --image --size 1k
bad "--dom0-size '1536k': expected a whole number of MiB" --dom0 --dom0-size 1536k
bad "--size '8388607T': expected a whole number of MiB from 1M to 1024T" --image --size 8388607T
# bug run-accel-with-xen: --accel tcg with a Xen domain was silently ignored
bad "--accel tcg: expected only with a QEMU/KVM domain" --image --hypervisor libvirt \
    --connect xen:///system --accel tcg --guest-image /nonexistent
bad "--accel kvm: expected only with a QEMU/KVM domain" --image --hypervisor libxl --accel kvm \
    --guest-image /nonexistent
# bug run-vg-name-unchecked: any --vg was accepted until LVM refused it mid-run
bad "--vg 'bad vg': expected a VG name" --lvm --vg "bad vg"
bad "--vg '-x': expected a VG name" --lvm --vg -x
bad "--heartbeat-timeout 'soon': expected an integer from 0 to 604800" --image --heartbeat-timeout soon
bad "--heartbeat-timeout '-5': expected an integer from 0 to 604800" --image --heartbeat-timeout -5
bad "--heartbeat-timeout '10': expected 0 (off) or 30 to 604800 seconds" --image --heartbeat-timeout 10
# --agent-options: read by the agent's own parser before anything is made,
# --dry-run included: an option vmdiskcmp sets itself is refused naming
# what sets it (-d made the dom0 baseline benchmark /, --json wrote outside
# the result directory), the others' values are checked
g="--guest-image /g.img --hypervisor libvirt --connect test:///default"
bad "--agent-options '-d /': -d: vmdiskcmp gives each target its own directory or device (expected options vmdiskcmp does not set: -n, " \
    --dom0 --agent-options "-d /"
bad "--agent-options '-n 0 --json /tmp/x.json': --json: vmdiskcmp chooses where the agent writes" \
    --image $g --agent-options "-n 0 --json /tmp/x.json" --dry-run
bad "--agent-options '--csv-file=/x': --csv-file: vmdiskcmp chooses where the agent writes" --dom0 --agent-options --csv-file=/x
bad "--agent-options '-s abc': -s: vmdiskcmp sets it from --size" --image $g --agent-options "-s abc" --dry-run
bad "--agent-options '-z': -z: expected an argument" --image $g --agent-options "-z" --dry-run
bad "--agent-options '-z 5': -z: vmdiskcmp sets it from --seed" --dom0 --agent-options "-z 5"
bad "--agent-options '--target x': --target: vmdiskcmp names each target" --dom0 --agent-options "--target x"
bad "--agent-options '-x 3': -x: vmdiskcmp runs one repetition per boot" --dom0 --agent-options "-x 3"
bad "--agent-options '--destroy-data': --destroy-data: vmdiskcmp gives it to the raw workload pass only" \
    --dom0 --agent-options --destroy-data
bad "--agent-options '--workload randread-4k-qd1': --workload: vmdiskcmp runs the jobs of --workload" \
    --dom0 --agent-options "--workload randread-4k-qd1"
bad "--agent-options '--help': --help: the agent would print and exit without testing" --dom0 --agent-options --help
bad "--agent-options '-qd/tmp': -d: vmdiskcmp gives each target" --dom0 --agent-options -qd/tmp
bad "--agent-options '-n x': -n x: expected NUM[:MAX[:MIN[:DIRS[:CHUNK]]]]" --dom0 --agent-options "-n x"
bad "--agent-options '--per-char=putc': --per-char=putc: expected syscall or stdio" --dom0 --agent-options --per-char=putc
bad "--agent-options '-n 0 now': now: unexpected argument" --dom0 --agent-options "-n 0 now" --dry-run
bad "--agent-options '--bogus': --bogus: unknown option" --dom0 --agent-options --bogus
bad "--agent-options: 58 words: expected at most 57" --dom0 --agent-options "$(printf -- '-q %.0s' $(seq 58))"
# what the runs here pass is taken, with and without --dry-run's plan
"$VMDISKCMP" --dry-run --image $g --size 64M --agent-options "-n 0 -f --per-char-size 0 -b -D --per-char=stdio -m m1" \
    --out "$work/out" --image-dir "$work" > "$work/plan" 2>"$work/stderr" ||
    fail "--agent-options: good options refused: $(cat "$work/stderr")"
grep -q '"agent_options" : "-n 0 -f --per-char-size 0 -b -D --per-char=stdio -m m1"' "$work/plan" ||
    fail "--agent-options: not in plan.json"
[ ! -e "$work/out" ] || fail "--dry-run created $work/out"
rm -f "$work/plan"

# --workload: the job files are read and checked by the agent's parser
# before anything is created: FILE:LINE and the option named, exit 2
jobs=$(mktemp -d)
trap 'rm -rf "$work" "$jobs"' EXIT INT TERM
export VDC_WORKLOAD_DIR="$top_srcdir/templates/workloads"
printf '[j]\nrw=randread\nsize=16m\nbogus_opt=1\n' > "$jobs/unknown.fio"
printf '[j]\nrw=randread\nsize=16m\nverify=crc32c\n' > "$jobs/unsupported.fio"
printf '[j]\nrw=randread\nsize=16m\niodepth=0\n' > "$jobs/depth0.fio"
printf '[j]\nrw=randread\nsize=4k\noffset=18446744073709547520\n' > "$jobs/wrap.fio"
printf '[j]\nrw=randread\n' > "$jobs/nosize.fio"
printf '[randread-4k-qd32]\nrw=randread\nsize=16m\n' > "$jobs/dup.fio"
bad "--workload: $jobs/unknown.fio:4: bogus_opt" --dom0 --workload "$jobs/unknown.fio"
bad "--workload: $jobs/unsupported.fio:4: verify" --dom0 --workload "$jobs/unsupported.fio"
bad "--workload: $jobs/depth0.fio:4: iodepth" --dom0 --workload "$jobs/depth0.fio" --dry-run
# offset + size past 2^63 (here past 2^64, where it wrapped to a small disk)
bad "--workload: $jobs/wrap.fio:1: [j]: offset=18446744073709547520 + size=4096 (x numjobs=1): expected at most" \
    --image --workload "$jobs/wrap.fio" --workload-on raw --guest-image /g.img --dry-run
bad "[j]: no size=: expected size=" --dom0 --workload "$jobs/nosize.fio"
bad "--workload ./missing.fio: no such job file" --dom0 --workload ./missing.fio
bad "--workload nosuchprofile: no profile" --dom0 --workload nosuchprofile
bad "\$VDC_WORKLOAD_DIR names another directory" --dom0 --workload nosuchprofile
# not a regular file: named as what it is, never read (a FIFO would block,
# /dev/zero never end); a large file refused by its size, unread
mkfifo "$jobs/fifo.fio"
bad "--workload $jobs/fifo.fio: a FIFO: expected a readable fio job file" --dom0 --workload "$jobs/fifo.fio"
bad "--workload /dev/zero: a character device" --dom0 --workload /dev/zero
bad "--workload $jobs: a directory" --dom0 --workload "$jobs"
truncate -s 1G "$jobs/big.fio"
bad "--workload $jobs/big.fio: 1073741824 bytes: expected a job file of at most" --dom0 --workload "$jobs/big.fio"
rm -f "$jobs/fifo.fio" "$jobs/big.fio"
bad "--workload $jobs/dup.fio: job [randread-4k-qd32] given twice" --dom0 \
    --workload randread-4k-qd32 --workload "$jobs/dup.fio"
bad "--workload 'randread-4k-qd1,': expected a profile name or a job file" --dom0 --workload randread-4k-qd1,
bad "--tests workloads: expected --workload" --dom0 --tests workloads
bad "--tests 'bonnie,fio': expected a comma list of bonnie|workloads" --dom0 --tests bonnie,fio
bad "--workload randread-4k-qd1: expected --tests with workloads" --dom0 --workload randread-4k-qd1 --tests bonnie
bad "--workload-on 'file,disk': expected a comma list of file|raw" --dom0 --workload randread-4k-qd1 --workload-on file,disk
bad "--workload-on 'raw,raw': 'raw' given twice: expected each of file|raw at most once" --dom0 --workload randread-4k-qd1 --workload-on raw,raw
bad "--workload-on raw: expected --workload NAME|FILE as well" --dom0 --workload-on raw
# --blkback-*: refused before anything is created on a host that is not a
# Xen dom0 (a scratch sysfs, never the real one: the refusal reads only)
mkdir -p "$work.sys"
trap 'rm -rf "$work" "$work.sys"' EXIT INT TERM
VDC_TEST_SYSFS_ROOT="$work.sys"
export VDC_TEST_SYSFS_ROOT
bad "--blkback-max-queues 1: expected a Xen dom0" \
    --hypervisor mock --image --guest-image /g.img --blkback-max-queues 1
bad "--blkback-max-ring-page-order 'x': expected a decimal number" \
    --hypervisor mock --image --guest-image /g.img --blkback-max-ring-page-order x
unset VDC_TEST_SYSFS_ROOT
bad "--lv-size 64 MiB: expected at least 1216 MiB" --lvm --vg vg0 --lv-size 64M --workload randread-4k-qd1 --dry-run
# --dry-run shows them: the plan's tests line and plan.json
"$VMDISKCMP" --dry-run --hypervisor libxl --image --dom0 --dom0-size 1G --size 64M \
    --workload randread-4k-qd32,"$jobs/dup.fio" --tests workloads --guest-image /g.img --seed 3 \
    --out "$work/out" --image-dir "$work" > "$work/plan" 2> "$work/err" && false
grep -q "given twice" "$work/err" || fail "--dry-run --workload: duplicate job name not refused"
"$VMDISKCMP" --dry-run --hypervisor libxl --image --dom0 --dom0-size 1G --size 64M \
    --workload randread-4k-qd32,randrw-70-30-8k-qd16 --tests workloads --guest-image /g.img --seed 3 \
    --out "$work/out" --image-dir "$work" > "$work/plan" || fail "--dry-run --workload failed"
grep -q "^tests: workload randread-4k-qd32 (randread, /.*/templates/workloads/randread-4k-qd32.fio), workload randrw-70-30-8k-qd16 (randrw" \
    "$work/plan" || fail "--dry-run --workload: no tests line: $(grep tests "$work/plan")"
grep -q '"name" : "randrw-70-30-8k-qd16"' "$work/plan" || fail "--dry-run --workload: not in plan.json"
grep -q "^workloads on: file (in the fresh filesystem)$" "$work/plan" || fail "--dry-run --workload: no workloads-on line"
"$VMDISKCMP" --dry-run --hypervisor libxl --image --dom0 --dom0-size 1G --size 64M \
    --workload randread-4k-qd32 --workload-on file,raw --guest-image /g.img --seed 3 \
    --out "$work/out" --image-dir "$work" > "$work/plan" || fail "--dry-run --workload-on failed"
grep -q "^workloads on: raw (the target's block device, before mkfs), then file (in the fresh filesystem)$" \
    "$work/plan" || fail "--dry-run --workload-on: no workloads-on line: $(grep 'workloads on' "$work/plan")"
tr -d ' \n' < "$work/plan" | grep -q '"workload_on":\["raw","file"\]' ||
    fail "--dry-run --workload-on: not in plan.json"
# the images grow to hold the 1 GiB jobs: 1 GiB + 1/8 + 64 MiB
grep -q '"disk_bytes" : 1275068416' "$work/plan" || fail "--dry-run --workload: disks not sized for the jobs"
[ ! -e "$work/out" ] || fail "--dry-run created $work/out"
unset VDC_WORKLOAD_DIR

# run --help comes from the same table
"$VMDISKCMP" run --help > "$work/help" || fail "run --help failed"
for o in --image --lvm --dom0 --block --target --vg --lv-size --stripes --stripe-size --image-dir \
         --image-format --image-alloc --image-backend --size --runs --seed --order --hypervisor \
         --connect --guest-image --guest-memory --timeout --heartbeat-timeout --out --keep --dry-run --workload --tests \
         --workload-on; do
    grep -q -- "^  $o" "$work/help" || fail "run --help lacks $o"
done

# --dry-run: prints, creates nothing
# (--dom0-size: the default, 2x this host's RAM on an image, may not fit
# the disk here, which the image room check refuses; tested below)
"$VMDISKCMP" --dry-run --hypervisor libxl --image --image-backend phy,qdisk,tap --dom0 \
    --dom0-size 1G --guest-image /g.img --seed 3 --out "$work/out" --image-dir "$work" > "$work/plan" ||
    fail "--dry-run failed"
grep -q "backendtype=qdisk" "$work/plan" || fail "--dry-run: no qdisk disk spec"
grep -q "^tap:aio:\|'tap:aio:" "$work/plan" || fail "--dry-run: no tap:aio: disk spec"
grep -q '"format" : "vmdiskcmp-plan"' "$work/plan" || fail "--dry-run: no plan.json"
[ ! -e "$work/out" ] || fail "--dry-run created $work/out"
grep -q '"heartbeat_timeout_s" : 120,' "$work/plan" || fail "--dry-run: plan.json lacks the default heartbeat_timeout_s 120"
# a dom0 test file under twice dom0's RAM: one warning line naming
# --dom0-size, the RAM and what is expected, before anything is made; none
# at twice the RAM (--dom0-ram says what the RAM is)
"$VMDISKCMP" --dry-run --hypervisor libxl --image --dom0 --dom0-size 64M --dom0-ram 512 --size 64M \
    --guest-image /g.img --seed 3 --out "$work/out" --image-dir "$work" >"$work/plan" 2>"$work/warn" ||
    fail "--dry-run --dom0-size 64M failed: $(cat "$work/warn")"
[ "$(grep -c . "$work/warn")" = 1 ] &&
    grep -qxF "vmdiskcmp: WARNING: --dom0-size 64 MiB is under twice dom0's RAM (512 MiB, --dom0-ram): expected at least 1024 MiB, or dom0's page cache flatters the baseline (bonnie++'s rule; the report marks it under-2x-ram)" "$work/warn" ||
    fail "--dom0-size 64M with 512 MiB of dom0 RAM: not the one warning line: $(cat "$work/warn")"
"$VMDISKCMP" --dry-run --hypervisor libxl --image --dom0 --dom0-size 1G --dom0-ram 512 --size 64M \
    --guest-image /g.img --seed 3 --out "$work/out" --image-dir "$work" >"$work/plan" 2>"$work/warn" ||
    fail "--dry-run --dom0-size 1G failed: $(cat "$work/warn")"
if grep -q 'WARNING' "$work/warn"; then fail "--dom0-size at twice dom0's RAM warned: $(cat "$work/warn")"; fi
[ ! -e "$work/out" ] || fail "--dry-run created $work/out"
# --heartbeat-timeout 0: the watch off, in plan.json
"$VMDISKCMP" --dry-run --hypervisor libxl --image --heartbeat-timeout 0 --size 64M \
    --guest-image /g.img --seed 3 --out "$work/out" --image-dir "$work" > "$work/plan" ||
    fail "--dry-run --heartbeat-timeout 0 failed"
grep -q '"heartbeat_timeout_s" : 0,' "$work/plan" || fail "--heartbeat-timeout 0: not in plan.json"
[ ! -e "$work/out" ] || fail "--dry-run created $work/out"
# --image-cache: one image target per mode, in the plan text, the disk
# specs and plan.json
"$VMDISKCMP" --dry-run --hypervisor libxl --image --image-cache host,none --size 64M \
    --guest-image /g.img --seed 3 --out "$work/out" --image-dir "$work" > "$work/plan" ||
    fail "--dry-run --image-cache failed"
grep -q "^  image-nocache .*(raw sparse, backend tap, cache none)" "$work/plan" ||
    fail "--dry-run --image-cache: no image-nocache target in the plan"
grep -q "vmdiskcmp-.*-image-nocache.raw" "$work/plan" || fail "--dry-run --image-cache: no disk spec"
grep -q '"image_cache" : "none"' "$work/plan" || fail "--dry-run --image-cache: not in plan.json"
[ ! -e "$work/out" ] || fail "--dry-run created $work/out"
# --image-cache none on a libxl qdisk image: libxl's QEMU is asked whether
# it has Linux native AIO (src/host/qemuprobe.c); Debian 12's
# qemu-system-xen (scripts/packages.d/run.txt) has not, so the run is
# refused before anything is made; tap with none is planned as before
if [ -x /usr/libexec/xen-qemu-system-i386 ]; then
    rc=0
    "$VMDISKCMP" --dry-run --hypervisor libxl --image --image-backend tap,qdisk --image-cache host,none \
        --size 64M --guest-image /g.img --out "$work/out" --image-dir "$work/qd" \
        > "$work/plan" 2> "$work/err" || rc=$?
    [ "$rc" = 2 ] || fail "qdisk + none: exit $rc, expected 2: $(cat "$work/err")"
    [ "$(wc -l < "$work/err")" = 1 ] || fail "qdisk + none: expected one line: $(cat "$work/err")"
    grep -qF -- '--image-cache none (target image-qdisk-nocache, served by qdisk): /usr/libexec/xen-qemu-system-i386 says "aio=native was specified, but is not supported in this build."' "$work/err" ||
        fail "qdisk + none: message does not name the target, the QEMU and its words: $(cat "$work/err")"
    [ ! -e "$work/out" ] && [ ! -e "$work/qd" ] || fail "qdisk + none: created $work/out or $work/qd"
    "$VMDISKCMP" --dry-run --hypervisor libxl --image --image-backend tap,qdisk --image-cache host \
        --size 64M --guest-image /g.img --out "$work/out" --image-dir "$work" > "$work/plan" ||
        fail "--dry-run --image-backend tap,qdisk --image-cache host refused"
else
    echo "run-options: /usr/libexec/xen-qemu-system-i386 missing (qemu-system-xen): the qdisk probe's refusal not checked" >&2
fi
# images that cannot fit their filesystem: refused up front, --dry-run too
# (100 TiB: no machine here has it), naming the directory; nothing created
rc=0
"$VMDISKCMP" --dry-run --hypervisor libxl --image --size 100T --guest-image /g.img \
    --out "$work/out" --image-dir "$work/big/img" > "$work/plan" 2> "$work/err" || rc=$?
[ "$rc" = 2 ] || fail "--size 100T: exit $rc, expected 2: $(cat "$work/err")"
[ "$(wc -l < "$work/err")" = 1 ] || fail "--size 100T: expected one line: $(cat "$work/err")"
grep -q -- "--image-dir $work/big/img (not made yet: on the filesystem of $work): [0-9.]* [KMGT]iB free, the images need 125.0 TiB (image 125.0 TiB), [0-9.]* TiB more: expected --image-dir on a filesystem with room, or smaller images (--size for the domU's)$" "$work/err" ||
    fail "--size 100T: message does not name the directory, the sizes in GiB/TiB and the options: $(cat "$work/err")"
[ ! -s "$work/plan" ] && [ ! -e "$work/big" ] && [ ! -e "$work/out" ] || fail "--size 100T: printed a plan or created something"
"$VMDISKCMP" --dry-run --hypervisor libvirt --connect qemu:///system --accel tcg --image \
    --guest-image /g.img --out "$work/out" > "$work/plan" || fail "--dry-run (libvirt) failed"
grep -q "<domain type='qemu'>" "$work/plan" || fail "--dry-run --accel tcg: expected a qemu (TCG) domain"
[ ! -e "$work/out" ] || fail "--dry-run created $work/out"
# --prepared-image: the dry run's domain XML and xl.cfg boot what the run
# would, the kernel, initrd and command line of its manifest
mkdir "$work/prep"
: > "$work/prep/p.img"; : > "$work/prep/vmlinuz"; : > "$work/prep/initrd.img"
printf '[boot]\nkernel=vmlinuz\ninitrd=initrd.img\ncmdline_xen=root=/dev/xvda\ncmdline_kvm=root=/dev/vda console=ttyS0\n[prepared]\nkey=k\ntemplate_sha256=a\nagent_sha256=b\nrunner_sha256=c\ninit_system=busybox\n' \
    > "$work/prep/p.img.manifest"
"$VMDISKCMP" --dry-run --hypervisor libvirt --connect qemu:///system --accel tcg --image \
    --prepared-image "$work/prep/p.img" --out "$work/out" --image-dir "$work" > "$work/plan" ||
    fail "--dry-run --prepared-image (libvirt) failed"
grep -q "^    <kernel>$work/prep/vmlinuz</kernel>" "$work/plan" &&
    grep -q "^    <initrd>$work/prep/initrd.img</initrd>" "$work/plan" &&
    grep -q "^    <cmdline>root=/dev/vda console=ttyS0</cmdline>" "$work/plan" ||
    fail "--dry-run --prepared-image: the domain XML lacks the manifest's boot files: $(sed -n '/<os>/,/<\/os>/p' "$work/plan")"
"$VMDISKCMP" --dry-run --hypervisor libxl --image --prepared-image "$work/prep/p.img" \
    --out "$work/out" --image-dir "$work" > "$work/plan" || fail "--dry-run --prepared-image (libxl) failed"
grep -q "^kernel = \"$work/prep/vmlinuz\"" "$work/plan" && grep -q "^ramdisk = \"$work/prep/initrd.img\"" "$work/plan" ||
    fail "--dry-run --prepared-image: xl.cfg lacks the manifest's boot files: $(grep -e kernel -e ramdisk "$work/plan")"
[ ! -e "$work/out" ] || fail "--dry-run created $work/out"
# bug dryrun-missing-prepared: a --prepared-image that does not exist passed
# the dry run (its domain then booted no kernel); refused there too, one line
for hv in libxl libvirt; do
    rc=0
    "$VMDISKCMP" --dry-run --hypervisor $hv --image --prepared-image "$work/prep/none.img" \
        --out "$work/out" --image-dir "$work" > "$work/plan" 2> "$work/stderr" || rc=$?
    [ "$rc" = 2 ] && [ "$(wc -l < "$work/stderr")" = 1 ] &&
        grep -qF -- "--prepared-image $work/prep/none.img: no such file: expected a readable file" "$work/stderr" ||
        fail "--dry-run --hypervisor $hv, a missing --prepared-image: exit $rc, $(cat "$work/stderr")"
    [ ! -s "$work/plan" ] && [ ! -e "$work/out" ] || fail "--dry-run, a missing --prepared-image: printed a plan or made --out"
    [ "$hv" = libxl ] && [ "$(id -u)" != 0 ] && break
done
# the guest's least memory (its manifest's min_memory_mib): less is refused
# by the plan in one line, exit 2, before anything is made; as much is planned
sed -i 's/^cmdline_kvm=.*/&\nmin_memory_mib=96/' "$work/prep/p.img.manifest"
# refused WANT ARGS...: one line naming WANT, exit 2, no --out, no image
refused() {
    want=$1; shift
    rc=0
    "$VMDISKCMP" "$@" --out "$work/mm-out" --image-dir "$work/mm-img" >/dev/null 2>"$work/mm-err" || rc=$?
    [ "$rc" = 2 ] && [ "$(wc -l < "$work/mm-err")" = 1 ] && grep -qF -- "$want" "$work/mm-err" ||
        fail "'$*': exit $rc, stderr '$(cat "$work/mm-err")', expected exit 2 and one line with '$want'"
    [ ! -e "$work/mm-out" ] && [ ! -e "$work/mm-img" ] || fail "'$*': created something"
}
refused "--guest-memory 80: the guest $work/prep/p.img needs at least 96 MiB (its manifest's [boot] min_memory_mib): expected --guest-memory 96 or more" \
    --hypervisor libxl --image --guest-memory 80 --prepared-image "$work/prep/p.img"
refused "--guest-memory 80: the guest $work/prep/p.img needs at least 96 MiB" \
    --hypervisor libvirt --connect qemu:///system --accel tcg --image --dom0 --guest-memory 80 \
    --prepared-image "$work/prep/p.img" --dry-run
"$VMDISKCMP" --dry-run --hypervisor libxl --image --guest-memory 96 --prepared-image "$work/prep/p.img" \
    --out "$work/out" --image-dir "$work" > "$work/plan" || fail "--guest-memory 96 at a minimum of 96: refused"
grep -q "^memory = 96$" "$work/plan" || fail "--guest-memory 96: not in xl.cfg: $(grep memory "$work/plan")"
sed -i 's/^min_memory_mib=96$/min_memory_mib=9x/' "$work/prep/p.img.manifest"
refused "p.img.manifest: [boot] min_memory_mib '9x': expected MiB, a whole number 1..1048576" \
    --hypervisor libxl --image --guest-memory 96 --prepared-image "$work/prep/p.img"
rm -f "$work/mm-err"
rm -r "$work/prep"

# bug run-late-input-errors: an existing --out and a --prepared-image
# without its manifest were found only after storage was provisioned
# (exit 1); now bad input, exit 2, nothing created (mock driver, no VM)
mkdir "$work/exists"
: > "$work/prep.img"
rc=0
"$VMDISKCMP" --hypervisor mock --image --size 1M --runs 1 --prepared-image "$work/prep.img" \
    --image-dir "$work/img" --out "$work/exists" > /dev/null 2> "$work/stderr" || rc=$?
[ "$rc" = 2 ] || fail "existing --out: exit status $rc, expected 2"
grep -q -- "--out $work/exists: exists: expected a new directory" "$work/stderr" || fail "existing --out: $(cat "$work/stderr")"
rc=0
"$VMDISKCMP" --hypervisor mock --image --size 1M --runs 1 --prepared-image "$work/prep.img" \
    --image-dir "$work/img" --out "$work/new" > /dev/null 2> "$work/stderr" || rc=$?
[ "$rc" = 2 ] || fail "prepared image without manifest: exit status $rc, expected 2"
[ "$(wc -l < "$work/stderr")" = 1 ] || fail "prepared image without manifest: not one line: $(cat "$work/stderr")"
grep -q "prep.img.manifest: no such file" "$work/stderr" || fail "prepared image without manifest: $(cat "$work/stderr")"
[ ! -e "$work/new" ] && [ ! -e "$work/img" ] || fail "prepared image without manifest: created something"
rmdir "$work/exists"; rm -f "$work/prep.img"
# a --prepared-image QEMU cannot reach: the first directory above it
# without search permission for others is named (a 0711 one is fine);
# the mock run itself then fails (a stub image), which is not checked
agent=$(dirname "$VMDISKCMP")/../guest-agent
mkdir -p "$work/priv/p"
echo prepared > "$work/priv/p/g.img"
: > "$work/priv/p/g.img.vmlinuz"; : > "$work/priv/p/g.img.initrd"
printf '[prepared]\nkey=k\ntemplate=/t.img\ntemplate_sha256=0\nagent_sha256=%s\nrunner_sha256=%s\ninit_system=busybox\n[boot]\nkernel=g.img.vmlinuz\ninitrd=g.img.initrd\ncmdline_xen=root=/dev/xvda\ncmdline_kvm=root=/dev/vda\nroot_mode=ro\n' \
    "$(sha256sum < "$agent/vmdiskcmp-agent" | cut -c1-64)" "$(sha256sum < "$agent/vmdiskcmp-runner" | cut -c1-64)" \
    > "$work/priv/p/g.img.manifest"
chmod 711 "$work"
for mode in 700 711; do
    chmod "$mode" "$work/priv"
    "$VMDISKCMP" --hypervisor mock --image --size 1 --runs 1 --no-report --prepared-image "$work/priv/p/g.img" \
        --image-dir "$work/priv-img" --out "$work/priv-out-$mode" > /dev/null 2> "$work/stderr" || true
    if [ "$mode" = 700 ]; then
        grep -qF "warning: $work/priv is not searchable by other users (chmod o+x)" "$work/stderr" ||
            fail "--prepared-image under a 0700 directory: no warning naming it: $(cat "$work/stderr")"
    elif grep -q "not searchable" "$work/stderr"; then
        fail "--prepared-image under a 0711 directory: warned: $(grep "not searchable" "$work/stderr")"
    fi
done
# the dry run's plan names the prepared image, not "template (none)"
"$VMDISKCMP" --dry-run --hypervisor libvirt --connect qemu:///system --accel tcg --image --size 1 \
    --prepared-image "$work/priv/p/g.img" --image-dir "$work/priv-img" --out "$work/priv-out" > "$work/plan" ||
    fail "--dry-run --prepared-image failed"
grep -q "^domU .*, prepared image $work/priv/p/g.img, kernel " "$work/plan" ||
    fail "--dry-run --prepared-image: the plan does not name it: $(grep '^domU' "$work/plan")"
chmod 700 "$work"
rm -rf "$work/priv" "$work/priv-img" "$work/priv-out-700" "$work/priv-out-711"

# bug run-relative-paths: relative --out, --image-dir and --guest-image
# went into the journal and the domain as given, so `vmdiskcmp cleanup`
# from another directory (and libvirtd, in its own) looked elsewhere.
# They are made absolute against the current directory.
(cd "$work" && "$VMDISKCMP" --dry-run --hypervisor libvirt --connect qemu:///system --accel tcg \
    --image --dom0 --dom0-size 1G --guest-image g.img --out rel-out --image-dir rel-img) > "$work/plan" ||
    fail "--dry-run with relative paths failed"
grep -q "\"path\" : \"$work/rel-img/vmdiskcmp-" "$work/plan" || fail "--image-dir not made absolute"
grep -q "<source file='$work/g.img'/>" "$work/plan" || fail "--guest-image not made absolute"
grep -q "$work/rel-out/control-N.img" "$work/plan" || fail "--out not made absolute"
[ ! -e "$work/rel-out" ] && [ ! -e "$work/rel-img" ] || fail "--dry-run created a directory"
# bug run-agent-not-found: from a build tree, the default agent path was
# the installed one; each run then failed with exit 127 and an empty report.
# Now the agent is found beside the build tree's vmdiskcmp, and a vmdiskcmp
# with no agent anywhere is bad input (exit 2) before anything is created.
cp "$VMDISKCMP" "$work/vmdiskcmp-alone"
"$work/vmdiskcmp-alone" --dom0 --dom0-size 16 --runs 1 --out "$work/noagent" \
    --image-dir "$work" 2>"$work/err"
rc=$?
[ $rc -eq 2 ] || fail "no agent anywhere: exit $rc, expected 2"
[ "$(wc -l < "$work/err")" -eq 1 ] && grep -q -- "--agent .*vmdiskcmp-agent: no such file" "$work/err" ||
    fail "no agent anywhere: expected one line naming --agent: $(cat "$work/err")"
[ ! -e "$work/noagent" ] || fail "no agent anywhere: created the result directory"
rm -f "$work/vmdiskcmp-alone"

# bug run-late-bad-input: input found wrong only after --out was made
# (exit 1, an --out left behind).  Each is refused before anything exists,
# --dry-run included: exit 2, one line naming the option, no --out.
early() {
    want=$1; shift
    for dry in "" --dry-run; do
        rc=0
        "$VMDISKCMP" $dry "$@" > "$work/stdout" 2> "$work/stderr" || rc=$?
        [ "$rc" = 2 ] || fail "'$dry $*': exit status $rc, expected 2: $(cat "$work/stderr")"
        [ "$(wc -l < "$work/stderr")" = 1 ] || fail "'$dry $*': expected one line: $(cat "$work/stderr")"
        grep -qF -- "$want" "$work/stderr" || fail "'$dry $*': stderr '$(cat "$work/stderr")' lacks '$want'"
        [ ! -e "$work/late/out" ] && [ ! -e "$work/late/img" ] || fail "'$dry $*': created the --out or image directory"
    done
}
mkdir -p "$work/late"
: > "$work/late/file"
: > "$work/late/g.img"
printf '[boot]\nkernel=vmlinuz\ninitrd=initrd.img\ncmdline_xen=x\ncmdline_kvm=y\n' > "$work/late/g.img.manifest"
: > "$work/late/initrd.img"
m="--hypervisor mock --size 1 --runs 1 --out $work/late/out"
early "--block/--target $work/late/file (target block): not a block device (a regular file)" \
    $m --block "$work/late/file" --destroy-data --guest-image "$work/late/file"
early "--block/--target $work/late/missing (target block): No such file or directory" \
    $m --block "$work/late/missing" --destroy-data --guest-image "$work/late/file"
early "--dom0-on $work/late/file (target dom0): not a block device" \
    --dom0 --dom0-on "$work/late/file" --destroy-data --runs 1 --out "$work/late/out"
early "--image-dir $work/late/file: $work/late/file is not a directory" \
    $m --image --guest-image "$work/late/file" --image-dir "$work/late/file"
early "--image-dir $work/late/file/img: $work/late/file is not a directory" \
    $m --image --guest-image "$work/late/file" --image-dir "$work/late/file/img"
early "--out $work/late/file/out: $work/late/file is not a directory" \
    --hypervisor mock --size 1 --runs 1 --image --guest-image "$work/late/file" \
    --image-dir "$work/late/img" --out "$work/late/file/out"
early "--connect 'bogus:///x': expected a libvirt URI of the xen, qemu or test driver" \
    --hypervisor libvirt --connect bogus:///x --image --size 1 --guest-image "$work/late/file" \
    --image-dir "$work/late/img" --out "$work/late/out"
# a driver's path libvirt refuses when connecting (exit 1 after the run had
# begun): bad input, with and without --dry-run
for u in qemu:///nosuch xen:///foo test:///; do
    early "--connect '$u': expected a libvirt URI of the xen, qemu or test driver" \
        --hypervisor libvirt --connect $u --image --size 1 --guest-image "$work/late/file" \
        --image-dir "$work/late/img" --out "$work/late/out"
done
early "manifest $work/late/g.img.manifest: [boot] kernel $work/late/vmlinuz: no such file" \
    $m --image --guest-image "$work/late/g.img" --image-dir "$work/late/img"
: > "$work/late/vmlinuz"
early "guest image $work/late/g.img: its manifest has no [prepared] section" \
    $m --image --prepared-image "$work/late/g.img" --image-dir "$work/late/img"
# a read-only filesystem (root only: a tmpfs mounted read-only in a mount
# namespace of our own) for --out and --image-dir
if [ "$(id -u)" = 0 ] && command -v unshare > /dev/null && unshare -m true 2> /dev/null; then
    mkdir -p "$work/late/ro"
    VMDISKCMP="$VMDISKCMP" work="$work" m="$m" unshare -m sh -c '
        mount -t tmpfs -o ro,size=1m vdc-run-options-ro "$work/late/ro" || exit 9
        for dir in --out --image-dir; do
            for dry in "" --dry-run; do
                if [ $dir = --out ]; then a="--out $work/late/ro/out --image-dir $work/late/img"
                else a="--out $work/late/out --image-dir $work/late/ro/img"; fi
                rc=0
                "$VMDISKCMP" $dry --hypervisor mock --size 1 --runs 1 --image \
                    --guest-image "$work/late/file" $a > /dev/null 2> "$work/stderr" || rc=$?
                [ "$rc" = 2 ] || { echo "$dir read-only $dry: exit $rc: $(cat "$work/stderr")"; exit 1; }
                [ "$(wc -l < "$work/stderr")" = 1 ] &&
                    grep -qF -- "$dir $work/late/ro/" "$work/stderr" &&
                    grep -qF "read-only filesystem" "$work/stderr" ||
                    { echo "$dir read-only $dry: $(cat "$work/stderr")"; exit 1; }
                [ ! -e "$work/late/out" ] && [ ! -e "$work/late/img" ] || { echo "$dir read-only: created"; exit 1; }
            done
        done' || fail "read-only --out/--image-dir"
else
    echo "not root or no unshare -m: read-only --out/--image-dir not checked"
fi
# a --block device that holds a signature: refused at plan time (--dry-run
# too) naming a remedy that exists, not an option that does not; root only
if [ "$(id -u)" = 0 ] && [ -e /dev/loop-control ] && command -v mkfs.ext4 > /dev/null; then
    truncate -s 8M "$work/late/sig.img"
    mkfs.ext4 -q -F "$work/late/sig.img"
    sigloop=$(losetup -f --show "$work/late/sig.img") || fail "losetup failed"
    rc=0
    early "$sigloop holds a signature (ext4): refusing to destroy it even with --destroy-data: expected a blank device (wipefs -a $sigloop" \
        $m --block "$sigloop" --destroy-data --guest-image "$work/late/file" || rc=$?
    losetup -d "$sigloop"
    grep -q "force" "$work/stderr" && fail "the signature refusal names an option that does not exist"
    # a GPT disk whose start was wiped: its backup header in the last
    # sector is a partition table still (libblkid with FORCE_GPT, as wipefs)
    truncate -s 0 "$work/late/sig.img"
    truncate -s 8M "$work/late/sig.img"
    printf 'label: gpt\nstart=2048, size=4096\n' | sfdisk -q "$work/late/sig.img" > /dev/null ||
        fail "sfdisk"
    dd if=/dev/zero of="$work/late/sig.img" bs=512 count=34 conv=notrunc status=none
    sigloop=$(losetup -f --show "$work/late/sig.img") || fail "losetup failed"
    ( early "$sigloop holds a signature (partition table gpt): refusing to destroy it even with --destroy-data" \
        $m --block "$sigloop" --destroy-data --guest-image "$work/late/file" ) ||
        { losetup -d "$sigloop"; fail "a backup GPT header only: not refused"; }
    losetup -d "$sigloop"
else
    echo "not root or no loop devices: --block with a signature not checked"
fi
# cleanup DIR of no run: one line naming the path, exit 2, nothing touched
# (bug cleanup-glib-error: GLib's "Failed to open file ..." came through)
cleanup_bad() {
    want=$1; shift
    rc=0
    "$VMDISKCMP" cleanup "$@" > "$work/stdout" 2> "$work/stderr" || rc=$?
    [ "$rc" = 2 ] && [ "$(wc -l < "$work/stderr")" = 1 ] && grep -qF -- "$want" "$work/stderr" ||
        fail "cleanup $*: exit $rc, '$(cat "$work/stderr")', expected one line with '$want'"
    grep -q "Failed to open\|cannot open" "$work/stderr" && fail "cleanup $*: a library's error: $(cat "$work/stderr")"
}
mkdir "$work/norun"
cleanup_bad "cleanup: $work/norun/journal: no journal: expected the result directory of a run" "$work/norun"
cleanup_bad "cleanup: $work/nodir: no such directory: expected the result directory of a run" "$work/nodir"
: > "$work/afile"
cleanup_bad "cleanup: $work/afile: not a directory" "$work/afile"
[ -z "$(ls -A "$work/norun")" ] && [ ! -e "$work/nodir" ] && [ ! -s "$work/afile" ] || fail "cleanup of no run: touched something"
echo "ok"
