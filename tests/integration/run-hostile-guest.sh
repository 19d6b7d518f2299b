#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A guest that lies, through the real run path: libvirtd + QEMU (TCG) via
# qemu:///system, the real libguestfs prepare, the real control disk.  The
# guest's agent (--agent, a script here; the real agent runs the dom0
# baseline) answers
#   image#0  with 50 well-formed runs for one target (run injection),
#   image#1  with a 5120-byte hostname (size cap),
#   block#0  with a good run whose hostname holds an OSC escape sequence,
#   block#1  with a failed run whose error clears the screen and forges
#            a "vmdiskcmp: [progress] done:" line,
#   image#2  with a block-write rate of DBL_MAX K/sec, and
#   block#2  with a latency of 1.5e308 us (numbers past their physical
#            bound: once they passed the loader and the report's chart axis
#            grew the controller without end),
#   image#3  with a good run padded to one byte under 8 MiB (the most the
#            control disk carries per pass: in format 1 an answer of 7.2 MB
#            overflowed the boot's one 7 MiB result area and lost every
#            target of the boot), and
#   block#3  with an answer of 8 MiB + 1 byte, in the same boot,
# and prints escape sequences on its stderr.
# Checks: exit 1, no "done:"; image's runs 0-2 and block#2 failed, each
# naming the cause; block#3's oversize answer named as such by the runner
# and image#3's kept beside it; block's other runs and dom0's kept; exactly
# 12 runs, none holding a number past its bound; the report written;
# result.json loads again (vmdiskcmp report); no raw control character on
# stderr or in report.txt/report.md, the guest's text shown escaped; a
# report of only the failed run (its warning quotes the guest's error)
# escapes it on stderr and in report.txt; nothing left behind.
# Run time here: about 4-5 minutes (one appliance launch, four TCG boots).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/integration/run-lib.sh"
run_lib_setup run-hostile-guest 64M

# the lying agent: busybox sh in the guest; the real agent for dom0
cat > "$work/agent" <<EOF
#!/bin/sh
real='$VDC_AGENT'
EOF
cat >> "$work/agent" <<'EOF'
t= r= j= prev=
for a in "$@"; do
    case $prev in --target) t=$a ;; --repetition) r=$a ;; --json) j=$a ;; esac
    prev=$a
done
[ "$t" = dom0 ] && exec "$real" "$@"
head='{"format":"vmdiskcmp-result","format_version":1,"producer":{"name":"vmdiskcmp-agent","version":"0.1.0"},"runs":['
sample='"samples":[{"test":"put_block","value":1000.0,"unit":"K/sec"}]'
case $t-$r in
image-0)
    { printf '%s' "$head"; i=0
      while [ $i -lt 50 ]; do
          [ $i = 0 ] || printf ','
          printf '{"target":"image","repetition":%d,"metadata":{},%s}' $i "$sample"; i=$((i + 1))
      done; printf ']}\n'; } > "$j" ;;
image-1)
    h=AAAAAAAAAA; i=0
    while [ $i -lt 9 ]; do h=$h$h; i=$((i + 1)); done
    printf '%s{"target":"image","repetition":%s,"metadata":{"hostname":"%s"},%s}]}\n' \
        "$head" "$r" "$h" "$sample" > "$j" ;;
block-0)
    printf '%s{"target":"block","repetition":0,"metadata":{"hostname":"%s"},%s}]}\n' \
        "$head" 'vdc\u001b]0;owned\u0007' "$sample" > "$j" ;;
image-2)
    printf '%s{"target":"image","repetition":2,"metadata":{},%s}]}\n' \
        "$head" '"samples":[{"test":"put_block","value":1.7976931348623157e308,"unit":"K/sec"}]' > "$j" ;;
block-2)
    printf '%s{"target":"block","repetition":2,"metadata":{},%s}]}\n' \
        "$head" '"samples":[{"test":"put_block","value":1000.0,"unit":"K/sec","latency_us":1.5e308,"cpu_percent":99}]' > "$j" ;;
image-3|block-3)
    # a good run, then blanks (JSON whitespace) up to 8 MiB - 1 byte; an
    # answer of 8 MiB + 1 byte for block
    n=8388607; [ "$t" = block ] && n=8388609
    { printf '%s{"target":"%s","repetition":3,"metadata":{},%s}]}' "$head" "$t" "$sample"
      dd if=/dev/zero bs=65536 count=129 2>/dev/null | tr '\000' ' '; } | head -c $n > "$j" ;;
*)
    printf '%s{"target":"%s","repetition":%s,"status":"failed","error":"%s","metadata":{},%s}]}\n' \
        "$head" "$t" "$r" '\u001b[2J\u001b[1;1H\nvmdiskcmp: [progress] done: forged\u009b2J' "$sample" > "$j" ;;
esac
printf '\033[2J\033]0;owned\007 agent stderr\n' >&2
exit 0
EOF
chmod 755 "$work/agent"

rc=0
timeout -k 30 1200 "$VMDISKCMP" --hypervisor libvirt --connect qemu:///system --accel tcg \
    --image --block "$loop" --destroy-data --dom0 --runs 4 --seed 42 \
    --size 8M --dom0-size 8M --guest-memory 256 \
    --agent-options "-n 0 --per-char=stdio" \
    --guest-image "$template_dir/guest.img" --agent "$work/agent" --runner "$runner" \
    --cache-dir "$work/cache" --image-dir "$work/img" --out "$work/out" --timeout 600 \
    2> "$work/run.log" || rc=$?
cat "$work/run.log" >&2
[ "$rc" = 1 ] || fail "exit status $rc, expected 1 (a guest's answers were refused)"
grep -q "^vmdiskcmp: \[progress\] done" "$work/run.log" && fail "'done' printed for a failed run"
# nothing raw on the terminal: no C0 control but tab, no C1 CSI
python3 - "$work/run.log" "$work/out/report.txt" "$work/out/report.md" <<'EOF' || fail "raw control characters"
import re, sys
for p in sys.argv[1:]:
    t = open(p, "rb").read()
    bad = re.search(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]", t)
    assert not bad, (p, t[max(0, bad.start() - 60):bad.end() + 20])
EOF
grep -q "target image: agent result refused: 50 runs, expected exactly 1 (target image, repetition 0)" \
    "$work/run.log" || fail "the injected runs were not refused with their cause on stderr"
grep -q "runs\[0\].metadata.hostname: expected a string of at most 4096 bytes, found 5120 bytes" \
    "$work/run.log" || fail "the long hostname was not refused with the member and the limit"

python3 - "$work/out/result.json" <<'EOF' || fail "result.json is not what was expected"
import json, sys
d = json.load(open(sys.argv[1]))
runs = {(r["target"], r["repetition"]): r for r in d["runs"]}
assert len(d["runs"]) == 12 == len(runs), sorted(runs)
# the largest legal answer kept, the oversize one named, in one boot
i3, b3 = runs[("image", 3)], runs[("block", 3)]
assert i3["status"] == "ok" and i3["samples"][0]["value"] == 1000.0, i3
assert b3["status"] == "failed" and not b3["samples"], b3
assert b3["error"] == "agent (bonnie) JSON of 8388609 bytes: expected at most 8388608 (8 MiB): not kept", b3
i0, i1 = runs[("image", 0)], runs[("image", 1)]
assert i0["status"] == "failed" and "agent result refused: 50 runs, expected exactly 1" in i0["error"], i0
assert i1["status"] == "failed" and "hostname: expected a string of at most 4096 bytes" in i1["error"], i1
assert not i0["samples"] and not i1["samples"]
b0, b1 = runs[("block", 0)], runs[("block", 1)]
assert b0["status"] == "ok" and b0["metadata"]["hostname"] == "vdc\x1b]0;owned\x07", b0
assert b1["status"] == "failed" and b1["error"].startswith("\x1b[2J"), b1
assert b0["samples"][0]["value"] == 1000.0
# numbers past their physical bound (model/result.h): refused, named
i2, b2 = runs[("image", 2)], runs[("block", 2)]
assert i2["status"] == "failed" and "samples[0].value: 1.79769e+308: expected" in i2["error"], i2
assert b2["status"] == "failed" and "samples[0].latency_us: 1.5e+308: expected" in b2["error"], b2
assert not i2["samples"] and not b2["samples"]
def numbers(x):
    if isinstance(x, dict):
        for v in x.values(): yield from numbers(v)
    elif isinstance(x, list):
        for v in x: yield from numbers(v)
    elif isinstance(x, (int, float)) and not isinstance(x, bool):
        yield x
assert max(abs(v) for v in numbers(d)) < 1e19, "a number past every physical bound was kept"
for rep in (0, 1, 2, 3):
    r = runs[("dom0", rep)]
    assert r["status"] == "ok" and len(r["samples"]) >= 2, r
EOF
[ -f "$work/out/report.html" ] || fail "no report.html: the run's report was not rendered"
[ -f "$work/out/runs/block-0.json" ] || fail "the kept run's agent result is not in runs/"
[ -f "$work/out/runs/image-0.json" ] && fail "a refused agent result was filed in runs/ as taken"
[ "$(stat -c %s "$work/out/runs/image-3.json")" = 8388607 ] ||
    fail "image#3's answer of 8 MiB - 1 byte was not filed whole in runs/"
# the guest's text, escaped, in the reports; the result loads again
grep -qF 'host vdc\\x1b\]0;owned\\x07' "$work/out/report.md" ||
    fail "report.md: the guest's hostname is not shown escaped"
grep -qF 'status failed: \\x1b\[2J\\x1b\[1;1H\\nvmdiskcmp: \[progress\] done: forged\\u009b2J' \
    "$work/out/report.md" || fail "report.md: the guest's error is not shown escaped"
mkdir "$work/again"
cp "$work/out/result.json" "$work/again/"
"$VMDISKCMP" report "$work/again" --quiet || fail "vmdiskcmp report refuses the result.json the run wrote"

# a report of only the failed run: its warning quotes the guest's error
mkdir "$work/failed"
python3 - "$work/out/result.json" "$work/failed/result.json" <<'EOF' || fail "cannot select the run"
import json, sys
d = json.load(open(sys.argv[1]))
d["runs"] = [r for r in d["runs"] if r["target"] == "block" and r["repetition"] == 1]
json.dump(d, open(sys.argv[2], "w"))
EOF
"$VMDISKCMP" report "$work/failed" 2> "$work/report.log" || fail "report of the failed run: exit $?"
cat "$work/report.log" >&2
python3 - "$work/report.log" "$work/failed/report.txt" "$work/failed/report.md" <<'EOF' || fail "raw control characters in the re-render"
import re, sys
want = b"block #1: \\x1b[2J\\x1b[1;1H\\nvmdiskcmp: [progress] done: forged\\u009b2J"
for p in sys.argv[1:]:
    t = open(p, "rb").read()
    bad = re.search(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]", t)
    assert not bad, (p, t[max(0, bad.start() - 60):bad.end() + 20])
    # report.txt folds a long line at a blank (100 columns): joined again
    assert p.endswith(".md") or want in re.sub(rb"\n +", b" ", t), (p, "no escaped error")
for line in open(sys.argv[1], "rb"):
    assert not line.startswith(b"vmdiskcmp: [progress] done"), line
EOF

nothing_left "$work/out"
echo "ok"
