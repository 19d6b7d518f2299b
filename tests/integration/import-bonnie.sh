#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `vmdiskcmp import` against the real bonnie++ 2.00a (Debian's
# /usr/sbin/bonnie++): run it twice in one invocation (-x 2) on a tiny file
# set, import its output (tables followed by CSV lines), and check every
# imported value against the CSV fields read independently with awk, and
# that each run was imported once.  Also: bonnie++ -q (CSV only on stdout)
# and bon_csv2txt's rendering of the same CSV (a table whose "+++++" became
# "0k": still too fast, never 0).
# Run time: ~5-15 s (bonnie++ -s 16 -n 1, twice).
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP ($VMDISKCMP) not built"
[ -n "$BONNIE" ] && [ -x "$BONNIE" ] || fail "bonnie++ not found (scripts/packages.d/build.txt installs it)"
need_cmd python3
work=$(mktemp -d /tmp/vdc-import-bonnie-XXXXXX) || fail mktemp
trap 'rm -rf "$work"' EXIT INT TERM
mkdir "$work/dir"

# -r 8 lets a 16 MiB file pass bonnie++'s 2x RAM check; -z fixes the seed
timeout 300 "$BONNIE" -d "$work/dir" -s 16 -r 8 -n 1 -x 2 -z 4242 -m vdctest -u root \
    > "$work/out.txt" 2> "$work/err.txt" || { cat "$work/err.txt" >&2; fail "bonnie++ failed"; }
grep -c '^1\.98,' "$work/out.txt" | grep -qx 2 || { cat "$work/out.txt"; fail "expected 2 CSV lines"; }
"$VMDISKCMP" import -q "$work/out.txt" --target real -o "$work/r.json" || fail "import of bonnie++ output"

# independent check: each CSV field against the imported document
grep '^1\.98,' "$work/out.txt" > "$work/csv"
python3 - "$work/csv" "$work/r.json" <<'PY' || fail "imported values differ from bonnie++'s CSV"
import json, sys
lines = [l.rstrip("\n").split(",") for l in open(sys.argv[1])]
doc = json.load(open(sys.argv[2]))
runs = doc["runs"]
assert len(runs) == len(lines) == 2, "one run per bonnie++ run (table + CSV counted once)"
# field numbers of bonnie++ 2.00a's CSV (1-based), written out here
tests = {"putc": (10, 11, 39), "put_block": (12, 13, 40), "rewrite": (14, 15, 41),
         "getc": (16, 17, 42), "get_block": (18, 19, 43), "seeks": (20, 21, 44),
         "seq_create": (27, 28, 45), "seq_stat": (29, 30, 46), "seq_del": (31, 32, 47),
         "ran_create": (33, 34, 48), "ran_stat": (35, 36, 49), "ran_del": (37, 38, 50)}
def lat(s):
    for u, m in (("us", 1), ("ms", 1000), ("s", 1000000)):
        if s.endswith(u):
            return float(s[:-len(u)]) * m
for rep, (f, run) in enumerate(zip(lines, runs)):
    assert run["repetition"] == rep and run["target"] == "real"
    m = run["metadata"]
    assert m["tool"] == "bonnie++ " + f[1] and m["hostname"] == f[2] == "vdctest"
    assert m["seed"] == f[4] and m["file_size_mib"] == 16
    assert m["seeks"] == int(f[7]) and m["seek_processes"] == int(f[8])
    assert m["source"]["format"] == "bonnie++-csv-1.98"
    got = {s["test"]: s for s in run["samples"]}
    assert set(got) == set(tests), sorted(got)
    for t, (fv, fc, fl) in tests.items():
        s, v, c = got[t], f[fv - 1], f[fc - 1]
        if v == "+++++":
            assert s["too_fast"] is True and s["value"] is None, (t, s)
        else:
            assert s["too_fast"] is False and s["value"] == float(v), (t, s, v)
        assert s["cpu_percent"] == (None if c == "+++" else float(c)), (t, s, c)
        assert s["latency_us"] == lat(f[fl - 1]), (t, s, f[fl - 1])
        assert s["unit"] == ("K/sec" if fv <= 18 else "/sec")
print("ok: %d runs, every field equal to bonnie++'s CSV" % len(runs))
PY

# bonnie++ -q: only the CSV on stdout
timeout 300 "$BONNIE" -q -d "$work/dir" -s 16 -r 8 -n 1 -z 7 -m vdctest -u root \
    > "$work/q.csv" 2>/dev/null || fail "bonnie++ -q failed"
"$VMDISKCMP" import -q "$work/q.csv" --format csv --target q -o "$work/q.json" || fail "import of bonnie++ -q"
grep -q '"seed": "7"' "$work/q.json" || fail "seed of the -q run not imported"

# bon_csv2txt renders the CSV as a table (and "+++++" as "0k" beside a
# "+++" %CP): importing that table gives the CSV's values again
[ -n "$BON_CSV2TXT" ] && [ -x "$BON_CSV2TXT" ] || fail "bon_csv2txt not found"
"$BON_CSV2TXT" < "$work/q.csv" > "$work/q.txt" || fail "bon_csv2txt failed"
"$VMDISKCMP" import -q "$work/q.txt" --format table --target q -o "$work/t.json" \
    || fail "import of bon_csv2txt output"
python3 - "$work/q.json" "$work/t.json" <<'PY' || fail "bon_csv2txt table and CSV import differ"
import json, sys
a, b = (json.load(open(f))["runs"][0]["samples"] for f in sys.argv[1:3])
assert len(a) == len(b) == 12
for x, y in zip(a, b):
    for k in ("test", "too_fast", "cpu_percent", "latency_us"):
        assert x[k] == y[k], (k, x, y)
    # the table prints K/sec below 10000 exactly, above in MiB/s to 0.1
    if x["value"] is None or x["value"] < 10000:
        assert x["value"] == y["value"], (x, y)
    else:
        assert abs(x["value"] - y["value"]) <= 0.05 * 1024 + 1e-6, (x, y)
print("ok: bon_csv2txt's table imports to the CSV's values")
PY
echo "ok: real bonnie++ 2.00a output imported exactly"
