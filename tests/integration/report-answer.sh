#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The answer reads right where a user meets it (report.txt's first screen,
# report.md, report.json), rendered with the default baseline as `vmdiskcmp
# run` renders it, on two real results kept as inputs:
#   thinlab: the emulated Xen lab's storage variants (image, image-full,
#     lvm, a thin LV with first-write and overwrite passes; 1 run, every
#     row under-2x-ram): results/2026-12-06-lab-storage-variants-EMULATED;
#   knobs: 8 QEMU knob targets under libvirt TCG, block devices standing in
#     for LVs (2 runs, 8 MiB files: too fast and under-2x-ram):
#     results/2026-12-06-libvirt-tcg-knobs-EMULATED;
# on tests/golden/report/hostcost (host CPU intervals cut at 0) and the
# README's lab main job (results/2026-12-06-lab-main-job-readme-EMULATED:
# an interval that excludes 0 beside a Holm p above 0.05).
# Checked: one direction per pair (the default baseline is the LV beside
# an image); a thin LV's passes paired with the other target's test in the
# Verdict lines, the delta table, report.json and the answer's host cost;
# the plural of every count; a blocker counted once per
# comparison, the counts saying of how many and (once) what a comparison
# is; a Holm p labelled beside the unadjusted one; one --size advice; the
# words of a block-device run on QEMU/KVM (host, not dom0); an
# interval cut at 0 says so where it is printed; on the main job with dom0
# (results/2026-12-06-lab-main-job-dom0-EMULATED), the headline in the
# answer's words and width, unbounded intervals said so with the reason,
# the runs line; its image/LV pairs on different disks (vda, vdb) warned
# of in every format, and cachetruth's on one disk not; on the 256M storage variants
# (results/2026-12-06-lab-storage-variants-256M-EMULATED), a significant
# test whose interval has no bound is undecided and unbounded, with no
# direction, alike in the answer, the headline, its summary counts and
# report.json, and the answer's undecided count is the rows it calls so; on
# the density lab run (results/2026-12-06-lab-density-EMULATED), a level's
# number with an unbounded interval is labelled undecided, and the paired
# means are told from a target's own mean.  About 3 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"
need_cmd python3
golden="$top_srcdir/tests/golden/report"
work=$(mktemp -d "${TMPDIR:-/tmp}/vdc-report-answer.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
SOURCE_DATE_EPOCH=1796000000
export SOURCE_DATE_EPOCH

readme="$top_srcdir/results/2026-12-06-lab-main-job-readme-EMULATED/result/result.json"
mainjob="$top_srcdir/results/2026-12-06-lab-main-job-dom0-EMULATED/result/result.json"
storvar256="$top_srcdir/results/2026-12-06-lab-storage-variants-256M-EMULATED/result/result.json"
densitylab="$top_srcdir/results/2026-12-06-lab-density-EMULATED/result/result.json"
for f in thinlab knobs hostcost readme mainjob cachetruth storvar256 densitylab; do
    mkdir -p "$work/$f"
    case $f in
    readme) cp "$readme" "$work/$f/result.json" ;;
    mainjob) cp "$mainjob" "$work/$f/result.json" ;;
    storvar256) cp "$storvar256" "$work/$f/result.json" ;;
    densitylab) cp "$densitylab" "$work/$f/result.json" ;;
    *) cp "$golden/$f/result.json" "$work/$f/result.json" ;;
    esac
    "$VMDISKCMP" report "$work/$f" --quiet --formats txt,md,json,html 2>"$work/$f.err" ||
        fail "$f: report failed: $(cat "$work/$f.err")"
done

python3 - "$work" <<'PY' || fail "the answer does not read right"
import json, re, sys
d = sys.argv[1]
bad = []
def check(ok, what):
    if not ok:
        bad.append(what)

def answer(name):
    """report.txt's answer block: from 'The answer' to the blank line"""
    txt = open(f"{d}/{name}/report.txt", encoding="utf-8").read()
    m = re.search(r"^The answer: .*?\n\n", txt, re.S | re.M)
    return txt, (m.group(0) if m else "")

for name in ("thinlab", "knobs", "hostcost"):
    txt, ans = answer(name)
    check(ans, f"{name}: no answer block")
    flat = re.sub(r"\s+", " ", ans)
    # plurals: "1 runs", "1 pairs", "1 comparisons", "1 tests"
    for m in re.finditer(r"\b1 (runs|pairs|comparisons|tests|targets)\b", flat):
        check(False, f"{name}: plural after 1 in the answer: {m.group(0)!r}")
    # every count of comparisons says what a comparison is and of how many
    counts = list(re.finditer(r"(No verdict|Undecided|Not tested) in (\d+) (of the (\d+) )?comparisons?( \(pair of targets x test\))?", flat))
    # said once, at the first count
    check(not counts or counts[0].group(5), f"{name}: the first count does not say what a comparison is")
    for m in counts:
        check(m.group(3), f"{name}: a count that does not say of how many: {m.group(0)!r}")
        if m.group(3):
            check(int(m.group(2)) <= int(m.group(4)), f"{name}: more blocked than compared: {m.group(0)!r}")

# thinlab: 4 pairs, 24 rows, every one under-2x-ram on both sides: counted once
_, ans = answer("thinlab")
flat = re.sub(r"\s+", " ", ans)
check("No verdict in 24 of the 24 comparisons (pair of targets x test)" in flat,
      "thinlab: the under-2x-ram rows are not counted once per comparison")
check("(fixed 1 run)" in flat, "thinlab: '(fixed 1 run)' missing")

# thinlab: a thin LV's passes paired with the other side's one run of the
# test wherever two targets meet (the headline has them)
txt, ans = answer("thinlab")
flat = re.sub(r"\s+", " ", ans)
check("no test both ran" not in txt, "thinlab: a Verdict line lost the thin LV's passes ('no test both ran')")
check(re.search(r"^Verdict: lvm-thin relative to \S+: \d+ .*\(of 8: 4 tests, each pass apart\)$", txt, re.M),
      "thinlab: no Verdict line of lvm-thin's 8 passes")
delta = txt[txt.find("\nDelta relative to"):]
delta = delta[:delta.find("\nn/c")]
rows = re.findall(r"^  (first-write|overwrite) +(.*)$", delta, re.M)
check(len(rows) == 2 and all(len(re.findall(r"[+-]\d+\.\d%", r[1])) == 4 for r in rows),
      f"thinlab: the delta table has no row per thin pass with its 4 deltas: {rows}")
check(re.search(r"lvm-thin first-write \d[\d.]* / \d[\d.]*, overwrite \d[\d.]* / \d[\d.]*", flat),
      "thinlab: the answer's host cost has no figure per thin pass")
j = json.load(open(f"{d}/thinlab/report.json", encoding="utf-8"))["statistics"]["comparisons"]
thin = [c for c in j if "~" in c["test"] or "~" in c.get("baseline_test", "")]
check(len(thin) == 8 and all(c.get("baseline_test", c["test"]).split("~")[0] == c["test"].split("~")[0] for c in thin),
      f"thinlab: report.json's comparisons do not pair the 8 thin passes: {len(thin)}")

# thinlab: one direction for a pair on the first screen: image relative to
# lvm in the title's baseline, the answer, the Verdict line and the delta
# table, the same delta in the headline and the table
txt, ans = answer("thinlab")
flat = re.sub(r"\s+", " ", ans)
check(re.search(r"report: 4 targets, baseline lvm \(", txt, re.M), "thinlab: the default baseline is not lvm")
check("image relative to lvm: 1 pair" in flat, "thinlab: the answer does not say 'image relative to lvm' once")
check(re.search(r"^Verdict: image relative to lvm: ", txt, re.M), "thinlab: the Verdict line runs the other way")
m = re.search(r"^    Sequential output, block: not comparable \([^)]*\): ([+-]\d+\.\d) %",
              re.sub(r"\n      (?=\S)", " ", txt), re.M)
t = re.search(r"^image +([+-]\d+\.\d)% n/c", txt[txt.find("\nDelta relative to lvm"):], re.M)
check(m and t and m.group(1) == t.group(1),
      f"thinlab: image's block write delta differs between the headline and the table: {m and m.group(1)} {t and t.group(1)}")

# knobs: one --size advice, the largest (under-2x-ram's 512M removes too-fast's too)
_, ans = answer("knobs")
flat = re.sub(r"\s+", " ", ans)
sizes = re.findall(r"--size \d+M", flat)
check(sizes == ["--size 512M"], f"knobs: --size advice {sizes}, expected one --size 512M")

# knobs: worded from what the result holds: block devices stand in for the
# LV, QEMU/KVM's host is not dom0, no --image-cache for a QEMU cache mode,
# no "best mean first" where nothing is ranked
txt, ans = answer("knobs")
flat = re.sub(r"\s+", " ", ans)
check(flat.startswith("The answer: image or block device on this host"), f"knobs: the title: {flat[:60]!r}")
check("dom0" not in flat, "knobs: the answer speaks of dom0 on a QEMU/KVM host")
check("costs the host" in flat, "knobs: no 'What each backend costs the host'")
check("--image-cache" not in flat, "knobs: --image-cache advised for QEMU's cache=writeback")
check("cache=none targets answer for the disk" in flat, "knobs: the cache=none twins are not named")
check("best mean first" not in txt[:txt.find("\nRows: ")], "knobs: 'best mean first' where nothing is ranked")
check("\nHeadline: image or block device?\n" in txt, "knobs: the headline's title asks 'image or LV?'")

# an interval cut at 0 says so where it is printed: the answer's cost line
# and the host CPU tables of report.txt, report.md, report.html; report.json
# flags it
for name in ("knobs", "hostcost"):
    txt, ans = answer(name)
    flat = re.sub(r"\s+", " ", ans)
    cost = re.search(r"costs [^:]*:.*?(?= No verdict| Undecided| Not tested|$)", flat)
    cut = cost and re.search(r"\[0, [0-9.]*[1-9]", cost.group(0))
    if cut:
        check("is cut at 0" in cost.group(0), f"{name}: the answer's cost line prints [0, x] without saying it is cut")
    table = txt[txt.find("\nHost CPU per backend"):]
    if re.search(r"\[0, [0-9.]*[1-9]", table):
        check("is cut at 0" in table, f"{name}: report.txt's host CPU table prints [0, x] without the legend")
        md = open(f"{d}/{name}/report.md", encoding="utf-8").read()
        check("is cut at 0" in md[md.find("## Host CPU per backend"):], f"{name}: report.md's host CPU table lacks the legend")
        html = open(f"{d}/{name}/report.html", encoding="utf-8").read()
        check('id="host-cost-cut"' in html, f"{name}: report.html's host CPU table lacks the legend")
        j = json.load(open(f"{d}/{name}/report.json", encoding="utf-8"))
        check('"cpu_s_per_gib_ci95_cut_at_0": true' in json.dumps(j),
              f"{name}: report.json does not flag an interval cut at 0")
check(any("is cut at 0" in open(f"{d}/{n}/report.txt", encoding="utf-8").read() for n in ("knobs", "hostcost")),
      "no fixture prints an interval cut at 0: the check above checked nothing")

# readme (the README's lab main job, 3 pairs, 5 tests a pair): a Holm p
# above alpha beside an interval that excludes 0 says which p it is and
# gives the unadjusted one; the legend says the interval is of each test alone
txt = open(f"{d}/readme/report.txt", encoding="utf-8").read()
txt = re.sub(r"\n      (?=\S)", " ", txt)    # a headline row wrapped at 100 columns, as one line
rows = [l for l in txt.splitlines() if re.search(r"\[[+-]\d+\.\d %, [+-]\d+\.\d %\], p = ", l)]
check(rows, "readme: no headline row with an interval and a p")
for l in rows:
    check(re.search(r", p = [0-9.]+ \(Holm, 5 tests; unadjusted = [0-9.]+\)", l),
          f"readme: a Holm p not labelled with its family and the unadjusted p: {l.strip()[:120]}")
excl = [l for l in rows if re.search(r"\[\+\d+\.\d %, \+", l) and "no significant difference" in l]
check(excl, "readme: the interval-excludes-0 row is not there: the check above checked nothing")
check("of each test alone" in re.sub(r"\s+", " ", txt), "readme: the legend does not say the interval is of each test alone")

# mainjob (the main job with dom0, 3 pairs): the headline says what the
# answer says, in its words and direction; an unbounded interval is
# "unbounded" with its reason, in the rows and the ceiling table; the
# headline's lines fit 100 columns; the runs line says where auto stopped
# and tells the stop rule's precision from the negligible band; the page
# cache pair, which has no stop rule, has no stop column
raw = open(f"{d}/mainjob/report.txt", encoding="utf-8").read()
head = raw[raw.find("\nHeadline"):raw.find("\n  Ceiling")]
check(head and all(len(l) <= 100 for l in head.splitlines()), "mainjob: a headline line over 100 columns")
flat = re.sub(r"\n      (?=\S)", " ", head)    # a row's continuation lines
check("image relative to lvm (3 pairs):" in flat and " against lvm" not in flat,
      "mainjob: the headline does not say 'image relative to lvm' as the answer does")
sp = re.sub(r"\s+", " ", head)
check("Runs: 3 runs (--runs auto stopped at --max-runs 3)." in sp, "mainjob: the runs line")
check("+-3 % (--precision)" in sp and "+-5 % band below which a difference is negligible" in sp,
      "mainjob: the runs line does not tell the stop rule's +-3 % from the +-5 % band")
unb = [l for l in flat.split("\n") if "[unbounded]" in l]
check(len(unb) == 2 and all("undecided, unbounded: the ratio's interval has no bound (the reference's mean "
                            "is not clear of 0 in the pairs)" in l and "not tested" not in l for l in unb),
      f"mainjob: an unbounded row is not worded as the answer words it: {unb}")
ceil = raw[raw.find("\n  Ceiling"):]
ceil = re.sub(r"\s+", " ", ceil[:ceil.find("\n  Pairs:")])
# (blocks of two targets, the test repeated: report.txt's 100 columns)
check(re.search(r"Random seeks +12\.9 % \[unbounded\] +18\.2 % \[unbounded\] .*Random seeks +13\.0 % \[unbounded\]", ceil)
      and "[unbounded] (Random seeks): dom0's mean is not clear of 0 in the pairs" in ceil,
      "mainjob: the ceiling's seeks share has no interval and no reason")
ans = re.sub(r"\s+", " ", raw[raw.find("The answer"):raw.find("\nHeadline")])
check("Served by: image: blkback (phy) /dev/loop1 (a loop device over the image), through dom0's page cache "
      "(read from xenstore, sysfs); lvm: blkback (phy) /dev/dm-0, bypasses dom0's page cache (read from xenstore)"
      in ans, "mainjob: the answer does not say which backend served each target, read back")
# the answer and the block "Backend, cache and placement" say it in the same words
# (its lines joined again as tests/lib.sh's unfold does: a continuation is
# indented two blanks past its line, after a line of 60 or more characters)
rows = []
for line in raw.split("\n"):
    lead = len(line) - len(line.lstrip(" "))
    if rows and rows[-1][2] >= 60 and lead == rows[-1][1] + 2:
        rows[-1] = (rows[-1][0] + " " + line[lead:], rows[-1][1], len(line))
    else:
        rows.append((line, lead, len(line)))
unfolded = "\n".join(r[0] for r in rows)
served = re.search(r"Served by: (.*?) What each backend costs", ans)
check(served is not None, "mainjob: no Served by line in the answer")
for part in (served.group(1).split("; ") if served else []):
    name, what = part.split(": ", 1)
    check(re.search(r"^  %s: backend: %s(; requested \S+)?$" % (re.escape(name), re.escape(what)), unfolded,
                    re.M), f"mainjob: the answer says {name} was served by '{what}', the backend block otherwise")
check("the delta tables below hold each side's runs as independent samples" in ceil,
      "mainjob: the ceiling table does not say how its interval differs from the delta tables'")
# dom0's "dom0 other" has no figure in 3 tests: the reason in each row,
# the counters' disagreement once under the table
check(raw.count("disagree") == 1 and raw.count("no figure (inconsistent): below 0 in") == 3,
      f"mainjob: the host CPU table says 'the counters disagree' {raw.count('disagree')} times, expected once")
html = open(f"{d}/mainjob/report.html", encoding="utf-8").read()
hl = html[html.find('<section id="headline">'):html.find("</section>", html.find('<section id="headline">'))]
tables = re.findall(r"<h3>([^<]*)</h3>\n(<div class=\"tablewrap\"><table class=\"headline\">.*?</table>)", hl, re.S)
check(len(tables) == 3, f"mainjob: {len(tables)} headline tables in the HTML, expected 3")
for title, t in tables:
    check(("<th class=\"l\">stop</th>" in t) == (not title.startswith("dom0&apos;s page cache")
                                                 and not title.startswith("dom0's page cache")),
          f"mainjob: the stop column of '{title}'")
check("Each run: its facts and command line (12)</h2>" in html,
      "mainjob: 'Each run' does not count the 12 runs (4 targets x 3)")
caps = re.findall(r"<figcaption>(.*?)</figcaption>", html, re.S)
check(caps and not any("Pale bars" in c or "hatched" in c or "dashed outline" in c for c in caps),
      "mainjob: a caption describes pale, hatched or outlined bars the charts do not draw")
check(">Random seeks (higher is better)<" in html and "file operations" not in html,
      "mainjob: the seeks chart is titled for file operations that did not run")
check(">dom0: dom0&apos;s CPU seconds per GiB" in html and
      ">lvm: dom0&apos;s and the domU&apos;s vCPUs&apos; CPU seconds per GiB" in html,
      "mainjob: the host CPU charts are not titled for what they sum")
check("deltas against" not in html and "relative to <b>" not in html and
      "the answer: image and image-nocache relative to lvm; the tables: each target relative to dom0" in html,
      "mainjob: the HTML subtitle does not give the answer's and the tables' direction")

# placement: the main job's image and image-nocache lie on vda, lvm on vdb:
# one warning per image/LV pair, in every format and in report.json (no
# other pair: image/image-nocache share vda, the ceilings are not the
# answer's); cachetruth's image and lvm both lie on vdb: none
def disks(a, b):
    return (f"{a} and {b} lie on different disks (vda, vdb): their difference includes the disks'; "
            "put --image-dir on the VG's disk to compare backends alone.")
want = [disks("image", "lvm"), disks("image-nocache", "lvm")]
txt = open(f"{d}/mainjob/report.txt", encoding="utf-8").read()
# report.txt wraps a warning at 100 columns, its continuation lines indented
txt = re.sub(r"\n  (?=\S)", " ", txt)
md = open(f"{d}/mainjob/report.md", encoding="utf-8").read()
rj = json.load(open(f"{d}/mainjob/report.json", encoding="utf-8"))
for w in want:
    check(txt.count("WARNING: " + w + "\n") == 1, f"mainjob: report.txt lacks the line 'WARNING: {w}'")
    check(md.count("> **Warning:** " + w + "\n") == 1, f"mainjob: report.md lacks the warning '{w}'")
    check(html.count(w.replace("'", "&apos;") + "</p>") == 1, f"mainjob: report.html lacks the warning '{w}'")
    check(rj["statistics"].get("warnings", []).count(w) == 1,
          f"mainjob: report.json's statistics.warnings lacks '{w}'")
check(txt.count("lie on different disks") == 2 and len(re.findall(r'id="different-disks-\d+"', html)) == 2,
      "mainjob: the different-disks warning is not printed once per image/LV pair")
# below the answer, before the headline
check(re.search(r"^The answer: .*?\n\nWARNING: image and lvm lie on different disks .*\n"
                r"WARNING: image-nocache and lvm lie .*\n\nHeadline: ", txt, re.S | re.M),
      "mainjob: the different-disks warnings are not right below the answer")
check("62.2 % slower" in txt, "mainjob: the image/LV verdict was withheld beside the disks warning")
for f in ("report.txt", "report.md", "report.html", "report.json"):
    check("different disks" not in open(f"{d}/cachetruth/{f}", encoding="utf-8").read(),
          f"cachetruth: {f} warns of different disks, but image and lvm both lie on vdb")
# storvar256: image against lvm-thin, Random seeks (overwrite): Holm p 0.013
# but the ratio's interval has no bound: undecided, unbounded, no direction
raw = open(f"{d}/storvar256/report.txt", encoding="utf-8").read()
ans = re.sub(r"\s+", " ", raw[raw.find("The answer"):raw.find("\nHeadline")])
head = re.sub(r"\s+", " ", raw[raw.find("\nHeadline"):])
check("overwrite (-34.3 % [unbounded])" in ans and "slower" not in ans and "not tested" not in ans,
      "storvar256: the answer gives the unbounded seeks overwrite row a direction or 'not tested'")
check("Random seeks (overwrite): undecided, -34.3 % [unbounded], p = 0.0134" in head
      and "slower than" not in head,
      "storvar256: the headline gives the unbounded seeks overwrite row a direction")
m = re.search(r"Undecided in (\d+) of the (\d+) verdicts \(pair of targets x test\), (\d+) of them unbounded", ans)
rows = [t for p in json.load(open(f"{d}/storvar256/report.json"))["statistics"]["headline"]["pairs"]
        for t in p["tests"]]
unbounded = [t for t in rows if t["p_value"] is not None and t["ci95_ratio"] is None]
check(unbounded and all(t["class"] == "unbounded" and t["verdict"] in ("undecided", "no significant difference")
                        for t in unbounded),
      f"storvar256: report.json's unbounded rows: {[(t['verdict'], t['class']) for t in unbounded]}")
check(m and int(m.group(1)) == sum(t["class"] in ("undecided", "unbounded") for t in rows)
      and int(m.group(2)) == len(rows) and int(m.group(3)) == len(unbounded),
      f"storvar256: the answer's undecided count does not count its undecided rows: {m and m.group(0)}")
summ = json.load(open(f"{d}/storvar256/report.json"))["statistics"]["headline"]["summary"]
nu = sum(int(x) for l in summ for x in re.findall(r"undecided in (\d+)", l))
nb = sum(int(x) for l in summ for x in re.findall(r"(\d+) of them unbounded", l))
check(nu == int(m.group(1)) if m else False, f"storvar256: the summary counts {nu} undecided")
check(nb == len(unbounded) and not any("unbounded in" in l or "not tested" in l for l in summ),
      f"storvar256: the summary counts unbounded apart from undecided: {summ}")

# densitylab: at 3 guests the aggregate's interval has no bound: undecided
raw = open(f"{d}/densitylab/report.txt", encoding="utf-8").read()
ans = re.sub(r"\s+", " ", raw[raw.find("The answer"):raw.find("\nHeadline")])
three = ans[ans.find("at 3 guests"):ans.find("Scaling")]
check("(paired means over the 2 repetitions both completed: image 735.7 against lvm 398.6) [unbounded], "
      "p = 0.3 (Holm, 2 tests; unadjusted = 0.15), undecided, unbounded" in three,
      f"densitylab: the 3-guest aggregate is not labelled undecided with its interval: {three}")
check("the aggregate at 3 (mean over its 3 repetitions: 572.3" in ans,
      "densitylab: the Scaling line does not say its aggregate is the target's own mean")

for b in bad:
    print("FAIL:", b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
echo "report-answer: ok"
