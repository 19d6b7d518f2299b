#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The agent and the importers agree: run the real vmdiskcmp-agent once on a
# tiny file set, writing its JSON (--json), its bonnie++ 1.98 CSV
# (--csv-file) and its bonnie++-style table (stdout), import all three and
# check that they describe the same run: same tests, same too-fast flags,
# CSV/table values equal to the JSON's to the precision bonnie++ prints.
# Run time: ~5-20 s (agent -s 8 -n 1).
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP ($VMDISKCMP) not built"
[ -x "$VDC_AGENT" ] || fail "VDC_AGENT ($VDC_AGENT) not built"
need_cmd python3
work=$(mktemp -d /tmp/vdc-import-agent-XXXXXX) || fail mktemp
trap 'rm -rf "$work"' EXIT INT TERM
mkdir "$work/d"
timeout 300 "$VDC_AGENT" -d "$work/d" -s 8 -r 4 -n 1 --seed 42 -q \
    --json "$work/r.json" --csv-file "$work/r.csv" > "$work/table.txt" 2> "$work/err" \
    || { cat "$work/err" >&2; fail "agent failed"; }
"$VMDISKCMP" import -q "$work/r.json" -o "$work/j.json" || fail "import of the agent's JSON"
"$VMDISKCMP" import -q "$work/r.csv" --format csv --target a -o "$work/c.json" || fail "import of the agent's CSV"
"$VMDISKCMP" import -q "$work/table.txt" --format table --target a -o "$work/t.json" || fail "import of the agent's table"
python3 - "$work/j.json" "$work/c.json" "$work/t.json" <<'PY' || fail "agent JSON, CSV and table disagree"
import json, sys
j, c, t = (json.load(open(f))["runs"] for f in sys.argv[1:4])
assert len(j) == len(c) == len(t) == 1, (len(j), len(c), len(t))
assert c[0]["metadata"]["tool"] == j[0]["metadata"]["tool"], (c[0]["metadata"]["tool"], j[0]["metadata"]["tool"])
assert c[0]["metadata"]["seed"] == j[0]["metadata"]["seed"] == "42"
js = {s["test"]: s for s in j[0]["samples"] if s.get("block_size") is None}
for other, name in ((c, "CSV"), (t, "table")):
    os_ = {s["test"]: s for s in other[0]["samples"]}
    assert set(os_) == set(js), (name, sorted(os_), sorted(js))
    for k, s in js.items():
        o = os_[k]
        assert o["too_fast"] == s["too_fast"], (name, k, o, s)
        if s["too_fast"]:
            assert o["value"] is None, (name, k, o)   # +++++: no value, never 0
            continue
        # bonnie++ prints int() of K/sec and file rates, %.1f/%.0f of seeks;
        # the table prints >= 10000 K/sec in MiB/s to 0.1
        tol = 1.0 if k != "seeks" else 0.51
        if name == "table" and s["value"] >= 10000 and k in ("putc", "put_block", "rewrite", "getc", "get_block"):
            tol = 0.05 * 1024 + 1
        assert abs(o["value"] - s["value"]) <= tol, (name, k, o["value"], s["value"])
print("ok: agent JSON, CSV and table agree (%d tests)" % len(js))
PY
