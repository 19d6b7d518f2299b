#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Seed 004 end to end with the real binary: its four `time dd` transcripts
# on the LV (bs 512, 8k, 16k, 32k) and the one on the raw partition import
# as a sweep (tests dd_read@BLOCK), and the report compares them with the
# partition: the system time per 512-byte block, 3.780 s / 257,040 = 14.7 us
# against 12.390 s / 253,952 = 48.8 us, the ~34 us the author worked out
# ("34ms").  Every expected number is computed here from the transcript
# itself (awk), not typed.  Input: tests/golden/import/seed004-dd.txt, a
# copy of the seed.  Run time: < 1 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP ($VMDISKCMP) not built"
seed="$top_srcdir/tests/golden/import/seed004-dd.txt"
work=$(mktemp -d /tmp/vdc-import-dd-XXXXXX) || fail mktemp
trap 'rm -rf "$work"' EXIT INT TERM

"$VMDISKCMP" import -q "$seed" -o "$work/result.json" 2> "$work/err" ||
    fail "import of seed 004: $(cat "$work/err")"
[ ! -s "$work/err" ] || fail "import of seed 004 printed: $(cat "$work/err")"

# the transcripts, read independently: device, bs (512 when none), records
# out, real, user, sys of each `time dd`
awk '/time dd if=/ { dev = $0; sub(/.*if=/, "", dev); sub(/ .*/, "", dev)
                     bs = 512; if (match($0, /bs=[0-9]+k/)) bs = substr($0, RSTART + 3, RLENGTH - 4) * 1024 }
     /records out/ { split($1, r, "+"); rec = r[1] }
     $1 == "real" { t = $2; sub(/s$/, "", t); split(t, m, "m"); real = m[1] * 60 + m[2] }
     $1 == "user" { t = $2; sub(/s$/, "", t); split(t, m, "m"); user = m[1] * 60 + m[2] }
     $1 == "sys"  { t = $2; sub(/s$/, "", t); split(t, m, "m"); sys = m[1] * 60 + m[2]
                    printf "%s %d %d %.3f %.3f %.3f\n", dev, bs, rec, real, user, sys }' \
    "$seed" > "$work/transcripts"
[ "$(wc -l < "$work/transcripts")" = 5 ] || fail "expected 5 transcripts in the seed, found $(wc -l < "$work/transcripts")"

# every run as imported: target, test key, value (MiB/s = rec x bs / real
# / 2^20), system_us_per_op (= 1e6 sys / rec), ops, real_s
python3 - "$work/result.json" "$work/transcripts" <<'PY' || fail "imported seed 004 runs differ from the transcripts"
import json, sys
d = json.load(open(sys.argv[1]))
want = [l.split() for l in open(sys.argv[2])]
runs = d["runs"]
assert len(runs) == len(want), (len(runs), len(want))
assert [t["name"] for t in d["targets"]] == ["/dev/sdc4", "/dev/vg1/test"], d["targets"]
for r, (dev, bs, rec, real, user, sys_) in zip(runs, want):
    bs, rec, real, user, sys_ = int(bs), int(rec), float(real), float(user), float(sys_)
    assert r["target"] == dev and r["metadata"]["device"] == dev, r
    (s,) = r["samples"]
    assert s["test"] == "dd_read" and s["block_size"] == bs, s
    assert s["ops"] == rec and s["bytes"] == rec * bs, s
    assert abs(s["value"] - rec * bs / real / 2**20) < 1e-9, (s["value"], rec * bs / real / 2**20)
    assert abs(s["system_us_per_op"] - 1e6 * sys_ / rec) < 1e-9, s
    assert abs(s["real_s"] - real) < 1e-9 and abs(s["user_s"] - user) < 1e-9, s
    assert s["elapsed_s"] is None, s          # fileutils' dd printed no time
PY

# the report against the raw partition
mkdir "$work/rep" && cp "$work/result.json" "$work/rep/result.json"
"$VMDISKCMP" report -q "$work/rep" --baseline /dev/sdc4 2> "$work/err" || fail "report: $(cat "$work/err")"
read -r _ _ rec0 _ _ sys0 <<EOT
$(sed -n 1p "$work/transcripts")
EOT
read -r _ _ rec1 _ _ sys1 <<EOT
$(sed -n 2p "$work/transcripts")
EOT
us0=$(awk -v s="$sys0" -v r="$rec0" 'BEGIN { printf "%.1f", 1e6 * s / r }')
us1=$(awk -v s="$sys1" -v r="$rec1" 'BEGIN { printf "%.1f", 1e6 * s / r }')
diff_us=$(awk -v a="$sys0" -v b="$rec0" -v c="$sys1" -v d="$rec1" 'BEGIN { printf "%+.1f", 1e6 * c / d - 1e6 * a / b }')
echo "seed 004: sys per 512-byte block $us0 us (partition) vs $us1 us (LV), $diff_us us"
[ "$us0" = 14.7 ] && [ "$us1" = 48.8 ] && [ "$diff_us" = +34.1 ] || fail "the seed's own figures: $us0 $us1 $diff_us"
sed -n '/^dd read (of=\/dev\/null) at block size 512 B$/,/^dd read (of=\/dev\/null) at block size 8 KiB$/p' \
    "$work/rep/report.txt" > "$work/block"
cat "$work/block"
grep -qF "system time $us0 us per op ($sys0 s / $rec0)" "$work/block" ||
    fail "report.txt: no '$us0 us per op' line for the partition"
grep -qF "system time $us1 us per op ($sys1 s / $rec1), $diff_us us per op against /dev/sdc4" "$work/block" ||
    fail "report.txt: no '$us1 us per op ... $diff_us us against /dev/sdc4' line for the LV"
# the rate itself: 253952 x 512 / 172.368 s against 257040 x 512 / 37.205 s
awk -F, '$1 == "/dev/vg1/test" && $2 == "dd_read@512" { exit !($18 > 0.2132 && $18 < 0.2134) }' \
    "$work/rep/summary.csv" || fail "summary.csv: the LV's dd_read@512 ratio is not 0.2133"
# dd results are their own tests: no bonnie++ or sweep test in the document
! grep -q '"test": "\(putc\|sweep_read\)' "$work/result.json" || fail "dd runs mixed into other tests"
echo "ok: seed 004 imports as a dd sweep; the report shows 14.7 vs 48.8 us per block, +34.1 us"
