#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vmdiskcmp store and history on the real binary, over the committed lab
# results (results/*/result*): add (idempotent by content), list, history as
# text (golden, paths made relative) and HTML, --fail-if, both exports
# (NDJSON read back as JSON; OpenMetrics by its grammar), merge recording
# its hosts into the store, a store that cannot be written leaving the
# merge whole, and the refusals: a text file, a foreign SQLite database, a
# damaged store, a newer schema; one line, exit 2, the file unchanged;
# import recording its OUT like run and merge (default beside OUT, --store,
# --no-store, standard output records nothing, a bad default store a warning).
# Run time: about 15 s (each add analyses the results as report does).
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"
need_cmd python3
need_cmd sqlite3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || fail "cd $work"
top=$(cd "$top_srcdir" && pwd -P)
lab="$top/results"
# The results the golden was made from (tests/golden/store/results.list), so a
# result committed later does not change it.
dirs=
for d in $(sed 's/#.*//' "$top_srcdir/tests/golden/store/results.list"); do
    [ -d "$top/$d" ] || fail "tests/golden/store/results.list: $d: no such directory"
    dirs="$dirs${dirs:+
}$top/$d"
done
[ -n "$dirs" ] || fail "no committed lab results listed in tests/golden/store/results.list"
n=$(echo "$dirs" | wc -l)

# ---- add, twice -------------------------------------------------------------------
# shellcheck disable=SC2086
"$VMDISKCMP" store add --store s.sqlite $dirs >add1.out 2>add1.err || fail "store add: $(cat add1.err)"
grep -q "$n results added, 0 already there" add1.out || fail "store add: $(cat add1.out)"
# shellcheck disable=SC2086
"$VMDISKCMP" store add --store s.sqlite $dirs >add2.out 2>&1 || fail "store add again: $(cat add2.out)"
grep -q "0 results added, $n already there" add2.out || fail "store add again added: $(cat add2.out)"
[ "$(sqlite3 s.sqlite 'SELECT count(*) FROM results')" = "$n" ] || fail "results duplicated"
[ "$(sqlite3 s.sqlite 'PRAGMA user_version')" = 2 ] || fail "schema version not 2"
[ "$(sqlite3 s.sqlite 'PRAGMA application_id')" = "$(printf '%d' 0x56444353)" ] || fail "not marked"
samples=$(python3 - $dirs <<'EOF'
import json, sys
print(sum(len(r["samples"]) for d in sys.argv[1:] for r in json.load(open(d + "/result.json"))["runs"]))
EOF
)
[ "$(sqlite3 s.sqlite 'SELECT count(*) FROM samples')" = "$samples" ] || fail "samples: not the $samples of the files"
"$VMDISKCMP" store list --store s.sqlite >list.out || fail "store list"
grep -q "schema version 2, $n results" list.out || fail "store list: $(head -1 list.out)"

# ---- history: text (golden), HTML, --fail-if ------------------------------------------
"$VMDISKCMP" history --store s.sqlite --html h.html >h.txt 2>h.err || fail "history: $(cat h.err)"
sed "s|$top/||g; s|store s.sqlite|store STORE|" h.txt >history.txt
golden_check "history over the lab results" "$top_srcdir/tests/golden/store" . history.txt
grep -q '<meta name="generator" content="vmdiskcmp history">' h.html || fail "history --html: no page"
[ "$(grep -c '<svg' h.html)" = 3 ] || fail "history --html: expected a chart per pair (3)"
"$VMDISKCMP" history --store s.sqlite --html h.html -q || fail "history --html over its own page"
"$VMDISKCMP" history --store s.sqlite --host vdclab --test put_block --since 2026-12-02 >f.txt ||
    fail "history with filters"
grep -q "^Sequential output, block (put_block" f.txt || fail "history --test put_block: $(cat f.txt)"
grep -q "^Sequential input" f.txt && fail "history --test put_block shows other tests"
grep -q "2026-11-30" f.txt && fail "history --since 2026-12-02 shows 2026-11-30"
"$VMDISKCMP" history --store s.sqlite --host nosuchhost | grep -q "nothing to show" || fail "unknown host"
# the lab's newest steps change no verdict significantly: exit 0
"$VMDISKCMP" history --store s.sqlite --fail-if verdict -q 2>fi.err || fail "--fail-if verdict: $(cat fi.err)"
# a result whose ratio moved: image's put_block doubled in a copy of the newest run
mkdir moved && python3 - "$lab/2026-12-02-lab-cache-hostcost-EMULATED/result/result.json" moved/result.json <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
d["experiment"]["date"] = "2026-12-03T00:00:00Z"
d["experiment"]["host"]["kernel"] = "6.1.0-58-amd64"
for r in d["runs"]:
    for s in r["samples"]:
        if r["target"] == "image" and s["test"] == "put_block" and s["value"] is not None:
            s["value"] *= 3
json.dump(d, open(sys.argv[2], "w"))
EOF
"$VMDISKCMP" store add --store s.sqlite moved -q || fail "store add moved"
# its own store: the result it was copied from, then the copy (the newest step)
"$VMDISKCMP" store add --store moved.sqlite "$lab/2026-12-02-lab-cache-hostcost-EMULATED/result" moved -q ||
    fail "store add to moved.sqlite"
rc=0
"$VMDISKCMP" history --store moved.sqlite --test put_block --fail-if 'ratio>50%' -q 2>fi.err || rc=$?
[ "$rc" = 1 ] || fail "--fail-if ratio>50%: exit $rc, expected 1 ($(cat fi.err))"
grep -q "host vdclab, image against lvm, put_block: .*kernel 6.1.0-57-amd64 → 6.1.0-58-amd64" fi.err ||
    fail "--fail-if line: $(cat fi.err)"
# --since with the grammar's trailing Z (UTC, as the store's dates are): the
# copy dated 2026-12-03T00:00:00Z is of that day and of that minute
for since in 2026-12-03Z 2026-12-03T00:00Z 2026-12-03T00:00:00Z 2026-12-03; do
    "$VMDISKCMP" history --store moved.sqlite --test put_block --since "$since" >since.txt 2>since.err ||
        fail "history --since $since: $(cat since.err)"
    grep -q "^  #1 2026-12-03T00:00:00Z " since.txt ||
        fail "history --since $since: the result of 2026-12-03 missing: $(cat since.txt)"
    grep -q "^  #[0-9]* 2026-12-02" since.txt && fail "history --since $since: shows a result of 2026-12-02"
    [ -n "$("$VMDISKCMP" store export --store moved.sqlite --format ndjson --since "$since")" ] ||
        fail "store export --since $since: nothing"
done

# ---- exports ----------------------------------------------------------------------------
"$VMDISKCMP" store export --store s.sqlite --format ndjson -o s.ndjson || fail "export ndjson"
"$VMDISKCMP" store export --store s.sqlite --format ndjson -o s.ndjson || fail "export ndjson over its own file"
python3 - s.ndjson "$((samples + $(sqlite3 s.sqlite "SELECT count(*) FROM samples WHERE result = (SELECT max(id) FROM results)")))" <<'EOF' || fail "ndjson export"
import json, sys
lines = open(sys.argv[1]).read().splitlines()
rows = [json.loads(l) for l in lines]
need = {"metric", "value", "unit", "timestamp", "test", "product_name", "official", "owner", "run_uri",
        "sample_uri", "labels"}
for r in rows:
    assert need <= set(r), r
    assert isinstance(r["value"], float) and isinstance(r["timestamp"], float), r
    assert r["labels"].startswith("|") and r["labels"].endswith("|"), r
    labels = dict(f.split(":", 1) for f in r["labels"][1:-1].split("|,|"))
    assert labels["host"] == "vdclab", labels
samples = [r for r in rows if r["metric"] != "headline_ratio"]
valued = int(sys.argv[2])
assert 0 < len(samples) <= valued, (len(samples), valued)
assert any(r["metric"] == "headline_ratio" and r["unit"] == "ratio" for r in rows)
assert len({r["sample_uri"] for r in rows}) == len(rows)
EOF
"$VMDISKCMP" store export --store s.sqlite --format ndjson --metadata-object | head -1 |
    python3 -c 'import json,sys; r=json.load(sys.stdin); assert r["metadata"]["target"]' || fail "--metadata-object"
"$VMDISKCMP" store export --store s.sqlite --format openmetrics -o s.om || fail "export openmetrics"
python3 "$top_srcdir/tests/integration/openmetrics-check.py" s.om || fail "OpenMetrics grammar: s.om"

# ---- merge records its hosts, the host a dimension ------------------------------------------
mkdir fleet && cp -r "$lab/2026-12-02-lab-main-job-readme-EMULATED/result-2" fleet/xen01 &&
    cp -r "$lab/2026-12-02-lab-cache-hostcost-EMULATED/result" fleet/xen02 || fail "fleet copy"
"$VMDISKCMP" merge fleet/xen01 fleet/xen02 -o fleet.merged -q 2>merge.err || fail "merge: $(cat merge.err)"
[ "$(sqlite3 vmdiskcmp.sqlite "SELECT group_concat(host, ',') FROM (SELECT host FROM merges ORDER BY host)")" = xen01,xen02 ] ||
    fail "merge: hosts not recorded in ./vmdiskcmp.sqlite"
[ "$(sqlite3 vmdiskcmp.sqlite "SELECT count(*) FROM results WHERE kind = 'merge'")" = 1 ] || fail "merge: no merge row"
"$VMDISKCMP" history --store vmdiskcmp.sqlite --host xen02 | grep -q "^== xen02: image against lvm" ||
    fail "history --host xen02 (a fleet label)"
# a store that cannot be written: a warning, the merge whole, exit 0
printf 'not a store\n' >notes.sqlite
"$VMDISKCMP" merge fleet/xen01 fleet/xen02 -o fleet.m2 -q 2>m2.err || fail "merge beside a bad default store failed"
mkdir m3 && printf 'not a store\n' >m3/vmdiskcmp.sqlite
"$VMDISKCMP" merge fleet/xen01 fleet/xen02 -o m3/out -q 2>m3.err || fail "merge, default store unusable: exit $?"
[ -s m3/out/result.json ] && [ -s m3/out/fleet.json ] || fail "merge: OUT not whole when the store failed"
grep -q "warning: the merge was not recorded in the store m3/vmdiskcmp.sqlite" m3.err || fail "no warning: $(cat m3.err)"
[ "$(cat m3/vmdiskcmp.sqlite)" = "not a store" ] || fail "merge wrote into a file it did not create"

# ---- refusals: one line, exit 2, the file unchanged ---------------------------------------------
refused() {   # WHAT PATTERN FILE ARGS...
    what=$1 pat=$2 file=$3
    shift 3
    before=$(cksum <"$file")
    rc=0
    "$VMDISKCMP" "$@" >bad.out 2>bad.err || rc=$?
    [ "$rc" = 2 ] || fail "$what: exit $rc, expected 2 ($(cat bad.err))"
    [ "$(wc -l <bad.err)" = 1 ] || fail "$what: expected one line: $(cat bad.err)"
    grep -q -- "$pat" bad.err || fail "$what: message lacks '$pat': $(cat bad.err)"
    [ "$(cksum <"$file")" = "$before" ] || fail "$what: $file changed"
}
refused "a text file" "notes.sqlite: not a SQLite database" notes.sqlite store add --store notes.sqlite moved
refused "history of a text file" "not a SQLite database" notes.sqlite history --store notes.sqlite
refused "merge --store a text file" "notes.sqlite: not a SQLite database" notes.sqlite \
    merge fleet/xen01 -o never --store notes.sqlite
[ -e never ] && fail "merge --store refused but OUT was written"
sqlite3 other.sqlite 'CREATE TABLE t (x); INSERT INTO t VALUES (1);'
refused "a foreign database" "a SQLite database of another application" other.sqlite \
    store add --store other.sqlite moved
cp s.sqlite newer.sqlite && sqlite3 newer.sqlite 'PRAGMA user_version = 9'
refused "a newer schema" "schema version 9, written by a newer vmdiskcmp" newer.sqlite history --store newer.sqlite
# damage: a page of the samples table overwritten
cp s.sqlite damaged.sqlite
page=$(sqlite3 damaged.sqlite "SELECT rootpage FROM sqlite_master WHERE name = 'samples'")
psize=$(sqlite3 damaged.sqlite 'PRAGMA page_size')
printf '\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377\377' |
    dd of=damaged.sqlite bs=1 seek=$(( (page - 1) * psize )) conv=notrunc 2>/dev/null
refused "a damaged store" "damaged\|malformed" damaged.sqlite store add --store damaged.sqlite moved
refused "history of a damaged store" "damaged\|malformed" damaged.sqlite history --store damaged.sqlite
refused "a missing store" "none.sqlite: no such file" notes.sqlite history --store none.sqlite
[ -e none.sqlite ] && fail "history created a store"
refused "export over a file it did not write" "add1.out: exists and was not written by vmdiskcmp" add1.out \
    store export --store s.sqlite --format ndjson -o add1.out
refused "history --html over a file it did not write" "add1.out: exists and was not written by vmdiskcmp" add1.out \
    history --store s.sqlite --html add1.out
refused "history --html with a newline" "--html h\\\\nx.html: expected a path of UTF-8 text without control characters" \
    s.sqlite history --store s.sqlite --html "h
x.html"
[ -e "h
x.html" ] && fail "history --html with a newline: written"
refused "run --dry-run --store a text file" "notes.sqlite: not a SQLite database" notes.sqlite \
    run --hypervisor mock --image --dry-run --out dry --store notes.sqlite
[ -e dry ] && fail "run --dry-run --store refused but OUT was made"
refused "bad --since" "--since 'last week'" s.sqlite history --store s.sqlite --since 'last week'
refused "bad --fail-if" "--fail-if 'slower>5%'" s.sqlite history --store s.sqlite --fail-if 'slower>5%'

# ---- import records like run and merge ---------------------------------------------------------
seed="$top/tests/golden/import/seed003-page.txt"
mkdir imp && "$VMDISKCMP" import "$seed" -o imp/seed.json -q || fail "import -o imp/seed.json"
[ "$(sqlite3 imp/vmdiskcmp.sqlite "SELECT kind, source FROM results")" = "import|$work/imp/seed.json" ] ||
    fail "import: not recorded in OUT's directory's store: $(sqlite3 imp/vmdiskcmp.sqlite 'SELECT * FROM results')"
[ "$(sqlite3 imp/vmdiskcmp.sqlite "SELECT count(*) FROM samples")" -gt 0 ] || fail "import: no samples recorded"
"$VMDISKCMP" import "$seed" -o imp/seed.json -q || fail "import again over its own OUT"
[ "$(sqlite3 imp/vmdiskcmp.sqlite "SELECT count(*) FROM results")" = 1 ] || fail "import again: recorded twice"
"$VMDISKCMP" import "$seed" -o imp/named.json --store s.sqlite -q || fail "import --store s.sqlite"
[ "$(sqlite3 s.sqlite "SELECT count(*) FROM results WHERE kind = 'import'")" = 1 ] || fail "import --store: not there"
mkdir imp2 && "$VMDISKCMP" import "$seed" -o imp2/seed.json --no-store -q || fail "import --no-store"
[ -e imp2/vmdiskcmp.sqlite ] && fail "import --no-store made a store"
"$VMDISKCMP" import "$seed" -q >stdout.json || fail "import to standard output"
[ -e vmdiskcmp.sqlite ] && [ "$(sqlite3 vmdiskcmp.sqlite "SELECT count(*) FROM results WHERE kind = 'import'")" != 0 ] &&
    fail "import to standard output recorded something"
mkdir imp3 && printf 'not a store\n' >imp3/vmdiskcmp.sqlite
"$VMDISKCMP" import "$seed" -o imp3/seed.json 2>imp3.err || fail "import, default store unusable: exit $?"
[ -s imp3/seed.json ] || fail "import: OUT not whole when the store failed"
grep -q "warning: the result was not recorded in the store imp3/vmdiskcmp.sqlite; imp3/seed.json is complete" imp3.err ||
    fail "import: no warning: $(cat imp3.err)"
[ "$(cat imp3/vmdiskcmp.sqlite)" = "not a store" ] || fail "import wrote into a file it did not create"
refused "import --store a text file" "notes.sqlite: not a SQLite database" notes.sqlite \
    import "$seed" -o imp/never.json --store notes.sqlite
[ -e imp/never.json ] && fail "import --store refused but OUT was written"
refused "import --store to standard output" "expected -o OUT too" notes.sqlite import "$seed" --store s2.sqlite
refused "import --store and --no-store" "expected one of them" notes.sqlite \
    import "$seed" -o imp/never.json --store s2.sqlite --no-store
[ -e imp/never.json ] || [ -e s2.sqlite ] && fail "a refused import wrote something"
exit 0
