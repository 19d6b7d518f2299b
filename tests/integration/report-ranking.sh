#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A matrix of 12 targets (tests/golden/report/matrix12: image and block x
# three cache modes x two aio modes, four clusters of three, one target too
# fast in putc; 12 tests) reads in text: the headline and the answer rank the targets
# per test in groups that cannot be told apart (compact letter display,
# paired t-tests, Holm within the test), not 36 image/LV pairs; the
# clusters get their letters in order, the too-fast target is listed and
# never ranked; `compare` prints the same ranking on the terminal; no line
# of report.txt, report.md's ranking or the terminal's headline is over 120
# characters (two legends of the whole report, the delta table's and the
# outlier rule's, are known to be longer and are named here); report.json
# carries the same ranking (statistics.headline.rankings).  The HTML
# layout at 12 targets is report-chromium.sh's (matrix12).  About 2 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"
need_cmd python3
work=$(mktemp -d "${TMPDIR:-/tmp}/vdc-report-ranking.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
SOURCE_DATE_EPOCH=1796000000
export SOURCE_DATE_EPOCH

cp "$top_srcdir/tests/golden/report/matrix12/result.json" "$work/result.json"
"$VMDISKCMP" report "$work" --quiet 2>"$work/err" || fail "report failed: $(cat "$work/err")"
"$VMDISKCMP" compare "$work/result.json" >"$work/compare.txt" 2>"$work/compare.err" ||
    fail "compare failed: $(cat "$work/compare.err")"

python3 - "$work" <<'PY' || fail "the 12-target report is not what was expected"
import sys, re
d = sys.argv[1]
txt = open(d + "/report.txt", encoding="utf-8").read().splitlines()
ok = True
def bad(msg):
    global ok
    print("FAIL:", msg)
    ok = False

# the headline section: a ranking per test, no image/LV pair
start = txt.index("Headline: image or block device?")
end = next(i for i in range(start + 1, len(txt)) if txt[i] and not txt[i].startswith(" "))
head = txt[start:end]
titles = [l for l in head if re.match(r"^  \S.*: \d+ groups? among \d+ ranked targets? of 12$", l)]
if len(titles) != 12:
    bad("expected 12 ranking titles, found %d: %s" % (len(titles), titles))
if any(" against " in l for l in head):
    bad("the headline still lists pairs: %s" % [l for l in head if " against " in l][:2])
rows = {}
test = None
for l in head:
    m = re.match(r"^  (\S.*?) \(", l)
    if l in titles:
        test = l.split(" (")[0].strip()
        rows[test] = []
    elif test and re.match(r"^    \S+\s+\S+\s+\d", l):
        group, name = l.split()[:2]
        rows[test].append((group, name, l))
putc = rows.get("Sequential output, per-char", [])
if len(putc) != 12:
    bad("putc: expected 12 rows, got %d" % len(putc))
else:
    letters = {name: group for group, name, _ in putc}
    # the best cluster shares a, the worst ranked cluster has no a
    for n in ("image-none-threads", "image-none-uring", "image-wb-threads"):
        if "a" not in letters[n]:
            bad("putc: %s is not in group a: %s" % (n, letters[n]))
    for n in ("block-wb-uring", "block-ds-threads"):
        if "a" in letters[n] or letters[n] == "‡":
            bad("putc: %s should be ranked below a: %s" % (n, letters[n]))
    if set(letters["image-none-threads"]) & set(letters["block-wb-uring"]):
        bad("putc: the first and the last cluster share a letter")
    last = putc[-1]
    if last[0] != "‡" or last[1] != "block-ds-uring" or "not ranked: too-fast" not in last[2]:
        bad("putc: the too-fast target is not listed last, unranked: %s" % (last,))
for t, r in rows.items():
    if t != "Sequential output, per-char" and any(g == "‡" for g, _, _ in r):
        bad("%s: a target not ranked without a flag" % t)

# the answer: a line per test with its groups, no pair
ans = txt[:start]
if sum(1 for l in ans if re.match(r"^  Sequential output, per-char: a image-none-threads ", l)) != 1:
    bad("the answer has no ranking line for putc")
if any(" against " in l for l in ans):
    bad("the answer still lists pairs")

# readable: no line over 120 characters but the two known legends
known = ("Outlier rule: ",)
for i, l in enumerate(txt):
    if len(l) > 120 and not l.startswith(known):
        bad("report.txt:%d is %d characters: %s" % (i + 1, len(l), l[:80]))
md = open(d + "/report.md", encoding="utf-8").read().splitlines()
mstart = md.index("## Headline: image or block device?")
for l in md[mstart:mstart + 120]:
    if l.startswith("|") and len(l) > 120:
        bad("report.md ranking row over 120: %s" % l[:80])
cmp = open(d + "/compare.txt", encoding="utf-8").read().splitlines()
h = [l for l in cmp if l.startswith("Headline: ranking of 12 targets")]
if len(h) != 1:
    bad("compare: no ranking headline")
for l in cmp:
    if len(l) > 120 and not l.lstrip().startswith(known) and not l.startswith("WARNING"):
        bad("compare: a line of %d characters: %s" % (len(l), l[:80]))
html = open(d + "/report.html", encoding="utf-8").read()
if html.count('<th class="l">group</th>') != 12:
    bad("report.html: expected 12 ranking tables")
import json
rj = json.load(open(d + "/report.json", encoding="utf-8"))
rk = rj["statistics"]["headline"].get("rankings", [])
if len(rk) != 12:
    bad("report.json: expected 12 rankings, got %d" % len(rk))
else:
    p = [r for r in rk if r["test"] == "putc"][0]
    if p["targets"][0]["letters"] != "a" or p["targets"][-1]["not_ranked"] != ["too-fast"]:
        bad("report.json: putc's ranking is not the text's: %s" % p["targets"][:1])
sys.exit(0 if ok else 1)
PY
echo "PASS: report-ranking"
