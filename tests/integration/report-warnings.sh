#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `vmdiskcmp compare` prints the warnings `vmdiskcmp report` prints (one
# function, vdc_report_warnings): on stderr, one line each, exactly; and
# carries them into what it writes (text, md, json) or, for csv, into the
# per-cell flags column of summary.csv.  One odd input per warning:
#   - a test file under twice the RAM (ram_mib raised in a copy);
#   - unequal test file sizes between the inputs compared;
#   - too few runs for a confidence interval (one run per target; and an
#     imported result, which gets the wording without --runs);
#   - too-fast cells (bonnie++ +++++);
#   - compare only: an input measured in emulation (EMULATED), also when it
#     is not the first input (regression: the merge kept the first input's
#     experiment, and the mark was lost);
#   - intervals cut at 0 (mean) and -100 % (delta): values are >= 0.
# Run time: about 6 s (each compare bootstraps 10000 resamples).
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"
need_cmd python3

g="$top_srcdir/tests/golden/report"
work=$(mktemp -d "${TMPDIR:-/tmp}/vdc-report-warn.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
SOURCE_DATE_EPOCH=1796000000
export SOURCE_DATE_EPOCH

W="vmdiskcmp: WARNING:"
FEW_RUNS="$W Fewer than 2 runs with a value for some target and test: there is no confidence interval and no significance test there, and a delta alone may be noise (use --runs 5 or more)."
FEW_VALUES="$W Fewer than 2 values for some target and test: there is no confidence interval and no significance test there, and a delta alone may be noise."
TOO_FAST="$W † k of n runs too fast to measure (bonnie++ +++++; the cell gives k and n): the value is the mean of the measured runs only and understates the speed; its deltas are not comparable (n/c, no verdict).  +++++ (too fast): every run was too fast to measure."
RAM_IMAGE="$W target image: test file 512 MiB is under twice the RAM (4096 MiB) in 5 of 5 runs: the page cache flatters the result (bonnie++ wants at least twice the RAM)."
SIZES_SEED003="$W test file sizes differ: image 2048 MiB, dom0 10048 MiB: deltas mix size effects with backend effects."

# has_line FILE LINE WHAT: FILE holds LINE as a whole line, exactly once
has_line() {
    n=$(grep -cxF -- "$2" "$1")
    [ "$n" = 1 ] || fail "$3: expected the line once, found $n times:
  $2
in $1:
$(cat "$1")"
}

# compare ARGS...: run compare in every format; stderr must be the same
# warning lines each time (out.FORMAT, err.FORMAT in $work/$case)
run_compare() {
    case=$1; shift
    mkdir -p "$work/$case"
    for f in text csv json md; do
        "$VMDISKCMP" compare "$@" --format "$f" >"$work/$case/out.$f" 2>"$work/$case/err.$f" ||
            fail "$case: compare --format $f failed: $(cat "$work/$case/err.$f")"
    done
    for f in csv json md; do
        cmp -s "$work/$case/err.text" "$work/$case/err.$f" ||
            fail "$case: stderr of --format $f differs from --format text"
    done
    "$VMDISKCMP" compare "$@" --quiet >/dev/null 2>"$work/$case/err.quiet" ||
        fail "$case: compare --quiet failed"
    [ -s "$work/$case/err.quiet" ] && fail "$case: --quiet printed: $(cat "$work/$case/err.quiet")"
    # stdout and stderr on one file (a terminal, 2>&1): each warning once,
    # in the output (text; md and json take the same path); csv carries
    # flags only: its warnings stay on stderr
    "$VMDISKCMP" compare "$@" --format text >"$work/$case/both.text" 2>&1 ||
        fail "$case: compare --format text 2>&1 failed"
    grep -q "^$W" "$work/$case/both.text" &&
        fail "$case: compare 2>&1: the warnings twice: $(grep "^$W" "$work/$case/both.text")"
    cmp -s "$work/$case/both.text" "$work/$case/out.text" || fail "$case: compare 2>&1: not the output alone"
    "$VMDISKCMP" compare "$@" --format csv >"$work/$case/both.csv" 2>&1 || fail "$case: compare --format csv 2>&1 failed"
    [ "$(grep -c "^$W" "$work/$case/both.csv")" = "$(grep -c "^$W" "$work/$case/err.text")" ] ||
        fail "$case: compare --format csv 2>&1: the warnings not on stderr"
    return 0
}

# the same lines in compare's output: text "WARNING: L", md "> **Warning:** L"
# (escaped), json statistics.warnings
# compare's text wraps its prose at 120 columns: a warning's continuation
# lines (indented under its text) joined again, blanks squeezed
unwrapped() {
    awk '/^WARNING: / { if (w != "") print w; w = $0; next }
         /^         [^ ]/ && w != "" { sub(/^ +/, ""); w = w " " $0; next }
         { if (w != "") print w; w = ""; print }
         END { if (w != "") print w }' "$1" | tr -s ' '
}

carried() {
    case=$1 line=$2
    plain=${line#"$W "}
    unwrapped "$work/$case/out.text" >"$work/$case/out.text.lines"
    has_line "$work/$case/out.text.lines" "$(printf '%s' "WARNING: $plain" | tr -s ' ')" \
        "$case: compare text output"
    if awk 'length($0) > 120 { bad = 1 } END { exit !bad }' "$work/$case/out.text"; then
        fail "$case: compare text output has a line over 120 characters"
    fi
    python3 - "$work/$case/out.json" "$plain" <<'PY' || fail "$case: warning not in compare --format json"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
sys.exit(0 if d.get("warnings", []).count(sys.argv[2]) == 1 else 1)
PY
    grep -q '^> \*\*Warning:\*\* ' "$work/$case/out.md" || fail "$case: no warning in compare --format md"
}

# has_flag CSV TARGET TEST KEYWORD: the flags field (last) of TARGET,TEST
# holds KEYWORD (status 0), or not (1); 2: no such line, or a short line
has_flag() {
    python3 - "$@" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], encoding="utf-8")))
if "flags" not in rows[0]:
    sys.exit(2)
col = rows[0].index("flags")
r = [x for x in rows[1:] if x[0] == sys.argv[2] and x[1] == sys.argv[3]]
if len(r) != 1 or len(r[0]) != len(rows[0]):
    sys.exit(2)
flags = r[0][col].split(";") if r[0][col] else []
sys.exit(0 if sys.argv[4] in flags else 1)
PY
}
flag() {
    has_flag "$@" || fail "flags of $2/$3 in $1: expected keyword $4: $(grep "^$2,$3," "$1")"
}
noflag() {
    rc=0
    has_flag "$@" || rc=$?
    [ "$rc" = 1 ] || fail "flags of $2/$3 in $1: keyword $4 unexpected (status $rc): $(grep "^$2,$3," "$1")"
}

# ---- a test file under twice the RAM: synthetic, ram_mib 256 -> 4096 ----------
sed 's/"ram_mib": 256/"ram_mib": 4096/' "$g/synthetic/result.json" >"$work/ram.json"
grep -q '"ram_mib": 4096' "$work/ram.json" || fail "fixture edit failed (ram)"
run_compare ram "$work/ram.json"
has_line "$work/ram/err.text" "$RAM_IMAGE" "under 2x RAM: stderr"
carried ram "$RAM_IMAGE"
flag "$work/ram/out.csv" image put_block under-2x-ram
noflag "$work/ram/out.csv" dom0 put_block under-2x-ram
# the unmodified fixture: no such warning, no such flag (the check can fail)
run_compare synthetic "$g/synthetic/result.json"
if grep -q 'under twice the RAM' "$work/synthetic/err.text"; then fail "synthetic: RAM warning without cause"; fi
noflag "$work/synthetic/out.csv" image put_block under-2x-ram

# ---- unequal test file sizes between two inputs ------------------------------
run_compare sizes "$g/seed003/image.json" "$g/seed003/dom0.json"
has_line "$work/sizes/err.text" "$SIZES_SEED003" "sizes differ: stderr"
carried sizes "$SIZES_SEED003"
flag "$work/sizes/out.csv" image putc sizes-differ
noflag "$work/sizes/out.csv" dom0 putc sizes-differ  # the baseline
run_compare samesize "$g/seed003/image.json" "$g/seed003/lvm.json"
if grep -q 'sizes differ' "$work/samesize/err.text"; then fail "equal sizes: size warning"; fi

# ---- too few runs: one run per target of a controller result ----------------
python3 - "$g/synthetic/result.json" "$work/one.json" <<'PY' || fail "fixture edit failed (one run)"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
d["runs"] = [r for r in d["runs"] if r["repetition"] == 0]
json.dump(d, open(sys.argv[2], "w", encoding="utf-8"), indent=1, ensure_ascii=False)
PY
run_compare one "$work/one.json"
has_line "$work/one/err.text" "$FEW_RUNS" "one run per target: stderr"
carried one "$FEW_RUNS"
flag "$work/one/out.csv" image putc few-runs
noflag "$work/synthetic/out.csv" image putc few-runs
# imported results: the wording without --runs
run_compare imported "$g/seed003/image.json" "$g/seed003/lvm.json"
has_line "$work/imported/err.text" "$FEW_VALUES" "imported, one run: stderr"

# ---- too-fast cells ----------------------------------------------------------
# the dagger's legend only where a dagger is printed: the fixture's too-fast
# cells are +++++ (every run) and n/c deltas, no dagger
if grep -q '†' "$work/synthetic/err.text" "$work/synthetic/out.text"; then
    fail "synthetic: the dagger's legend without a dagger: $(grep '†' "$work/synthetic/out.text")"
fi
tr '\n' ' ' <"$work/synthetic/out.text" | tr -s ' ' | grep -q '+++++: every run too fast, no value' ||
    fail "synthetic: compare text does not say what +++++ is"
# one run of a measured cell too fast: its mean carries the dagger, and the legend follows
python3 - "$g/synthetic/result.json" "$work/dagger.json" <<'PY' || fail "fixture edit failed (dagger)"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
r = [r for r in d["runs"] if r["target"] == "image" and r["repetition"] == 0][0]
s = [s for s in r["samples"] if s["test"] == "putc"][0]
s["value"], s["too_fast"] = None, True
json.dump(d, open(sys.argv[2], "w", encoding="utf-8"), indent=1, ensure_ascii=False)
PY
run_compare dagger "$work/dagger.json"
has_line "$work/dagger/err.text" "$TOO_FAST" "too fast: stderr"
carried dagger "$TOO_FAST"
grep -q '^Sequential output, per-char .*†' "$work/dagger/out.text" || fail "dagger: no dagger in the table"
flag "$work/synthetic/out.csv" dom0 seq_stat too-fast
flag "$work/synthetic/out.csv" image seq_stat not-comparable
noflag "$work/synthetic/out.csv" dom0 putc too-fast
flag "$work/synthetic/out.csv" image put_block outliers-flagged
"$VMDISKCMP" compare "$g/synthetic/result.json" --outliers drop --format csv >"$work/drop.csv" 2>/dev/null ||
    fail "compare --outliers drop failed"
flag "$work/drop.csv" image put_block outliers-dropped

# ---- an emulated input, second: the merged set stays emulated ----------------
EMULATED="$W EMULATED: some inputs were measured under software emulation (experiment.emulated); their numbers predict nothing about real hardware."
sed 's/"emulated": true/"emulated": false/' "$g/synthetic/result.json" >"$work/real.json"
grep -q '"emulated": false' "$work/real.json" || fail "fixture edit failed (emulated)"
run_compare emulated "$work/real.json" "$g/lab4/result.json" --baseline dom0
has_line "$work/emulated/err.text" "$EMULATED" "emulated input: stderr"
carried emulated "$EMULATED"
run_compare real "$work/real.json"
if grep -q 'EMULATED' "$work/real/err.text"; then fail "real: EMULATED warning without cause"; fi

# ---- the machine's memory counts, not only what the agent was told (-r) -----
# (the lab runs told the agent -r 16 in a 128 MiB domU and an 890 MiB dom0)
has_line "$work/emulated/err.text" "$W target image@result: test file 32 MiB is under twice the domU's memory (128 MiB; the agent was told -r 16) in 3 of 3 runs: the page cache flatters the result (bonnie++ wants at least twice the RAM)." "domU memory"
has_line "$work/emulated/err.text" "$W target dom0@result: test file 32 MiB is under twice dom0's memory (890 MiB; the agent was told -r 16) in 3 of 3 runs: the page cache flatters the result (bonnie++ wants at least twice the RAM)." "dom0 memory"
# the summary.csv flag follows the same rule as the warning (it had looked
# at the agent's -r only)
flag "$work/emulated/out.csv" image@result put_block under-2x-ram
flag "$work/emulated/out.csv" dom0@result put_block under-2x-ram

# ---- report prints the same lines (one function) ------------------------------
mkdir "$work/rep"
cp "$work/ram.json" "$work/rep/result.json"
"$VMDISKCMP" report "$work/rep" 2>"$work/rep.err" || fail "report failed: $(cat "$work/rep.err")"
grep '^vmdiskcmp: WARNING: ' "$work/rep.err" >"$work/rep.warn"
# (the fixture is emulated: compare adds its EMULATED line first; report
# has the banner in its files instead)
has_line "$work/ram/err.text" "$EMULATED" "emulated fixture: compare stderr"
grep -vxF -- "$EMULATED" "$work/ram/err.text" >"$work/ram.err.noemu"
cmp -s "$work/rep.warn" "$work/ram.err.noemu" ||
    fail "report and compare print different warnings: $(diff "$work/rep.warn" "$work/ram.err.noemu")"
flag "$work/rep/summary.csv" image put_block under-2x-ram
unfold "$work/rep/report.txt" | grep -qF "WARNING: ${RAM_IMAGE#"$W "}" || fail "report.txt lacks the RAM warning"
# ---- interval bounds: values are >= 0, so no interval may go below 0 % / -100 %
# (two runs, one of them 100x slower: Student t and Fieller reach far below)
python3 - "$g/synthetic/result.json" "$work/wide.json" <<'PY' || fail "fixture edit failed (wide)"
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
d["runs"] = [r for r in d["runs"] if r["repetition"] in (0, 1)]
for r in d["runs"]:
    if r["target"] == "image" and r["repetition"] == 1:
        for s in r["samples"]:
            if s["test"] == "put_block" and s.get("value"):
                s["value"] = s["value"] / 100
json.dump(d, open(sys.argv[2], "w", encoding="utf-8"), indent=1, ensure_ascii=False)
PY
"$VMDISKCMP" compare "$work/wide.json" --format csv >"$work/wide.csv" 2>/dev/null || fail "compare wide failed"
python3 - "$work/wide.csv" <<'PY' || fail "an interval below 0 (mean) or -100 % (delta): $(grep '^image,put_block,' "$work/wide.csv")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8")))
r = [x for x in rows if x["target"] == "image" and x["test"] == "put_block"][0]
assert r["ci95_mean_lo"] != "" and float(r["ci95_mean_lo"]) == 0.0, r["ci95_mean_lo"]
assert r["ci95_delta_lo"] == "" or float(r["ci95_delta_lo"]) >= -100.0, r["ci95_delta_lo"]
for x in rows:
    if x["ci95_mean_lo"]:
        assert float(x["ci95_mean_lo"]) >= 0, (x["target"], x["test"])
    if x["ci95_delta_lo"]:
        assert float(x["ci95_delta_lo"]) >= -100, (x["target"], x["test"])
PY
# the same cell cut in every table: report.txt's 95% CI row and report.md's
# cell print [0, x], never a half-width that implies a bound below 0
mkdir "$work/widerep" && cp "$work/wide.json" "$work/widerep/result.json"
"$VMDISKCMP" report "$work/widerep" --formats txt,md -q || fail "report (wide) failed"
sed -n '/^image /,/^[a-z]/p' "$work/widerep/report.txt" | grep '^  95% CI' | head -1 | grep -Eq ' \[0, [0-9]+\]( |$)' ||
    fail "report.txt: image's put_block interval not printed cut, [0, x]: $(grep -A2 '^image ' "$work/widerep/report.txt" | head -3)"
grep '^| Sequential output, block |' "$work/widerep/report.md" | grep -Eq '\| [0-9]+ \\\[0, [0-9]+\\\] \(n=2\) \|' ||
    fail "report.md: image's put_block cell not printed cut, [0, x]: $(grep '^| Sequential output, block |' "$work/widerep/report.md")"
tr '\n' ' ' <"$work/widerep/report.txt" | tr -s ' ' | grep -q '\[0, x\]: the 95 % interval reached below 0 and is cut there' ||
    fail "report.txt: no legend for an interval cut at 0"
# ---- a baseline too noisy to bound the delta: "[unbounded]", not a blank ----
python3 - "$g/synthetic/result.json" "$work/unb/result.json" <<'PY' || fail "fixture edit failed (unbounded)"
import json, os, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
d["runs"] = [r for r in d["runs"] if r["repetition"] in (0, 1)]
for r in d["runs"]:
    if r["target"] == "dom0" and r["repetition"] == 1:
        for s in r["samples"]:
            if s["test"] == "put_block" and s.get("value"):
                s["value"] = s["value"] / 100
os.makedirs(os.path.dirname(sys.argv[2]))
json.dump(d, open(sys.argv[2], "w", encoding="utf-8"), indent=1, ensure_ascii=False)
PY
"$VMDISKCMP" report "$work/unb" --formats txt,md,html -q || fail "report (unbounded) failed"
grep -q '\[unbounded\]' "$work/unb/report.txt" || fail "report.txt: no [unbounded] for a baseline too noisy to bound the delta"
grep -q '\[unbounded\]' "$work/unb/report.md" || fail "report.md: no [unbounded]"
grep -q '\[unbounded\]' "$work/unb/report.html" || fail "report.html: no [unbounded]"

# ---- Markdown: a target name is the user's text, escaped on every line ----
mkdir "$work/mdx"
sed 's/"image"/"im<b>x<\/b>"/g' "$g/synthetic/result.json" >"$work/mdx/result.json"
"$VMDISKCMP" report "$work/mdx" --formats md -q || fail "report on a target named with HTML failed"
if grep -n '<b>' "$work/mdx/report.md"; then fail "report.md carries a target name's raw HTML"; fi
grep -q 'im\\<b\\>x' "$work/mdx/report.md" || fail "report.md lost the escaped target name"
echo "ok: compare warnings and summary.csv flags"
exit 0
