#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `vmdiskcmp compare --fail-if slower>P%` as a CI gate, and `report --out`.
# Inputs are made here: two targets, put_block, five runs each (K/sec),
# the baseline lvm at 1000 +- 10.  Exit status per case:
#   slower by 20 %, significant (Welch p ~ 1e-10)   -> 1, the target named
#   slower by 3 %, significant, threshold 5 %        -> 0
#   20 % apart in the means but noise of +-50 %: p > 0.05 -> 0
#   faster by 20 %                                   -> 0
#   one run per target (not tested)                  -> 0
#   --fail-if 'faster>5%' / 'slower>' / 'slower>0'   -> 2, one line
# report --out OUT renders into OUT and leaves the result directory as it
# was.  Run time: about 1 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"
work=$(mktemp -d "${TMPDIR:-/tmp}/vdc-fail-if.XXXXXX")
trap 'rm -rf "$work"' EXIT

# make NAME IMAGE-VALUES...: lvm's five values are fixed
make() {
    name=$1; shift
    python3 - "$work/$name.json" "$@" <<'PY'
import json, sys
lvm = [1000, 1010, 990, 1005, 995]
image = [float(v) for v in sys.argv[2:]]
runs = []
for t, vs in (("lvm", lvm[:len(image)]), ("image", image)):
    for i, v in enumerate(vs):
        runs.append({"target": t, "repetition": i, "status": "ok", "error": None,
                     "metadata": {"seed": str(i)},
                     "samples": [{"test": "put_block", "value": v, "unit": "K/sec",
                                  "cpu_percent": 10.0, "latency_us": None, "elapsed_s": 10.0,
                                  "too_fast": False, "failed": False, "error": None}]})
json.dump({"format": "vmdiskcmp-result", "format_version": 1,
           "producer": {"name": "vmdiskcmp-agent", "version": "0.1.0"}, "runs": runs},
          open(sys.argv[1], "w"))
PY
}
make slower 800 810 790 805 795
make slightly 970 975 965 972 968
make noisy 400 1200 300 1300 800
make faster 1200 1210 1190 1205 1195
make one 800

gate() { # expected-exit name [threshold]
    want=$1 name=$2 thr=${3:-slower>5%}
    rc=0
    "$VMDISKCMP" compare "$work/$name.json" --baseline lvm --fail-if "$thr" -q \
        >"$work/out" 2>"$work/err" || rc=$?
    [ "$rc" = "$want" ] || fail "$name --fail-if $thr: exit $rc, expected $want: $(cat "$work/err")"
    [ -s "$work/out" ] || fail "$name: the table was not printed before the verdict"
}
gate 1 slower
grep -qx "vmdiskcmp: compare --fail-if slower>5%: image is 20.0 % slower than lvm on put_block (p = .*)" \
    "$work/err" || fail "slower: message: $(cat "$work/err")"
gate 0 slightly
gate 1 slightly "slower>2%"
gate 0 noisy
gate 0 faster
gate 0 one
for bad in "faster>5%" "slower>" "slower>0" "slower>5%%" "slower>-1"; do
    rc=0
    "$VMDISKCMP" compare "$work/slower.json" --fail-if "$bad" >/dev/null 2>"$work/err" || rc=$?
    [ "$rc" = 2 ] || fail "--fail-if '$bad': exit $rc, expected 2"
    [ "$(wc -l < "$work/err")" = 1 ] && grep -qF -- "--fail-if '$bad': expected slower>P%" "$work/err" ||
        fail "--fail-if '$bad': $(cat "$work/err")"
done

# report --out: rendered elsewhere, the result directory untouched
mkdir "$work/res"
cp "$work/slower.json" "$work/res/result.json"
chmod 555 "$work/res"
"$VMDISKCMP" report "$work/res" --out "$work/rep" -q || fail "report --out failed"
[ -f "$work/rep/report.txt" ] && [ -f "$work/rep/report.html" ] || fail "report --out: no report in OUT"
[ "$(ls "$work/res")" = "result.json" ] || fail "report --out wrote into the result directory: $(ls "$work/res")"
"$VMDISKCMP" report "$work/res" --out "$work/rep" -q || fail "report --out twice into its own report failed"
touch "$work/other.txt"
rc=0; "$VMDISKCMP" report "$work/res" --out "$work/other.txt" -q 2>"$work/err" || rc=$?
[ "$rc" = 2 ] || fail "report --out FILE: exit $rc, expected 2"
chmod 755 "$work/res"
echo "fail-if: 6 gates and 5 refusals as expected; report --out leaves the result directory alone"
