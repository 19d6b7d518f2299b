#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Renderers only print: every number a report shows is computed once, by
# the analysis (src/report/analysis.c, hostcost.c, headline.c, the stats
# layer), and the renderers (src/report/render_*.c, src/store/render_*.c)
# format or draw it.  Static, from the source text: no renderer calls the
# stats layer's computations (its predicates, vdc_stats_ci_unbounded,
# excepted) or builds an analysis; no line that reads a sample's value
# accumulates it (+=, -=, *=, /=); no local sum or mean is assigned.  A
# planted renderer that averages its samples must fail the same check, so
# the check cannot pass by finding nothing.  Well under a second.
set -u
. "$top_srcdir/tests/lib.sh"
need_cmd python3
cd "$top_srcdir" || exit 1

check() {
    python3 - "$@" <<'PY'
import re, sys
PRED = {"vdc_stats_ci_unbounded"}
BUILD = re.compile(r'\b(vdc_analysis_build|vdc_host_cost_build|vdc_headline_build)\s*\(')
STATS = re.compile(r'\b(vdc_stats_\w+)\s*\(')
SAMPLE = re.compile(r'samples\s*\[|->samples\b|\bvdc_sample\b|->value\b|\.value\b')
ACC = re.compile(r'(\+=|-=|\*=|/=)')
LOCAL = re.compile(r'(?<![.>])\b(sum|mean|avg|average)(_\w+)?\s*(\+|-|\*|\/)?=(?!=)')
bad = []
for f in sys.argv[1:]:
    for n, line in enumerate(open(f, encoding="utf-8", errors="replace"), 1):
        code = re.sub(r'"(\\.|[^"\\])*"', '""', line.split("//")[0])
        if code.lstrip().startswith(("*", "/*")):
            continue
        for m in STATS.finditer(code):
            if m.group(1) not in PRED:
                bad.append("%s:%d: calls the stats layer (%s): compute it in the analysis" % (f, n, m.group(1)))
        if BUILD.search(code):
            bad.append("%s:%d: builds an analysis: a renderer is handed one" % (f, n))
        if SAMPLE.search(code) and ACC.search(code):
            bad.append("%s:%d: accumulates a sample's value: %s" % (f, n, code.strip()))
        if LOCAL.search(code):
            bad.append("%s:%d: computes a sum or a mean: %s" % (f, n, code.strip()))
for b in bad:
    print("FAIL: " + b, file=sys.stderr)
print("%d renderer files: %s" % (len(sys.argv) - 1, "%d findings" % len(bad) if bad else "no arithmetic on samples"))
sys.exit(1 if bad else 0)
PY
}

files=$(ls src/report/render_*.c src/store/render_*.c)
[ -n "$files" ] || fail "no renderer files found"
# shellcheck disable=SC2086
check $files || fail "a renderer computes (see above)"

# the control: a renderer that averages its samples is caught
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/render_planted.c" <<'C'
static double
planted(const struct vdc_cell *c)
{
    double sum = 0;
    size_t i;

    for (i = 0; i < c->n_samples; i++)
        sum += c->samples[i].value;
    return vdc_stats_mean(&sum, 1);
}
C
check "$tmp/render_planted.c" 2>"$tmp/err" && fail "the planted renderer passed"
grep -q "accumulates a sample's value" "$tmp/err" || fail "planted: no accumulation found: $(cat "$tmp/err")"
grep -q "calls the stats layer (vdc_stats_mean)" "$tmp/err" || fail "planted: stats call not found"
echo PASS
