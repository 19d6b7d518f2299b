#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The HTML report in a real browser, Debian's headless Chromium: the page
# reads without scrolling sideways at 1400 and 900 px, its figures hold
# their text (SVG text, none clipped), are numbered in order, the answer is
# above the fold, the long sections are collapsed, each workload test has
# one latency figure with every target (report-layout.js says exactly what
# is checked).  Nine reports are probed at both widths in one browser run,
# each in an iframe of that width (the probe page reads them through
# --allow-file-access-from-files):
#   synthetic  too-fast cells, an outlier, a failed run (3 targets)
#   workload   the fio-style jobs: IOPS and a latency figure per job
#   lab4       the lab's first main job, 4 targets: the results table
#   hostlab    results/2026-12-02-lab-cache-hostcost-EMULATED/result-2: host
#              CPU charts with roles the counters gave no figure (n/a)
#   matrix12   12 targets (tests/golden/report/matrix12): the headline's
#              ranking tables, the results table and figures of a matrix
#              (bars too narrow for their labels: labels run upwards)
#   storvar    storage variants (tests/golden/report/storvar): a thin LV's
#              two passes, each an x label and a dot panel of its own
#   density    many guests at once: a scaling figure per test, its panels
#              titled with the test
#   thinlab    a real result: the lab's storage variants (a thin LV's
#              passes beside image, full image and linear LV; host charts)
#   knobs      a real result: libvirt TCG's 8 knob targets, 2 runs (crowded
#              bar groups, wide whiskers: labels written upwards)
# A control frame (a legend clipped by its figure, an element wider than the
# page, a figure numbered out of order) proves the probe can fail, and a
# control page with a console error that the console check can.  The
# report itself (no script) logs nothing.  Screenshots are kept as test
# artifacts: $top_builddir/tests/artifacts/report-chromium/report-1400.png
# and report-900.png (hostlab, the first screen).
# Run time: about 20 s (four Chromium starts; 24 s at a load of 13).
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"
browser=${CHROMIUM:-}
[ -n "$browser" ] || browser=$(command -v chromium 2>/dev/null)
[ -n "$browser" ] && [ -x "$browser" ] || skip "chromium not installed (scripts/packages.d/run.txt installs it)"

art="$top_builddir/tests/artifacts/report-chromium"
rm -rf "$art"
mkdir -p "$art"
profile=$(mktemp -d "${TMPDIR:-/tmp}/vdc-chromium.XXXXXX")
trap 'rm -rf "$profile"' EXIT INT TERM
SOURCE_DATE_EPOCH=1796000000
export SOURCE_DATE_EPOCH

pages="synthetic workload lab4 hostlab matrix12 storvar density thinlab knobs"
for p in $pages; do
    mkdir -p "$art/$p"
    cp "$top_srcdir/tests/golden/report/$p/result.json" "$art/$p/"
    "$VMDISKCMP" report "$art/$p" --quiet || fail "vmdiskcmp report failed on $p"
    [ -s "$art/$p/report.html" ] || fail "$p: no report.html"
    if grep -q '<script' "$art/$p/report.html"; then fail "$p: report.html carries a script"; fi
done

# chromium OUT ERR URL [ARGS...]: one headless run with a fresh profile
chromium() {
    out=$1 err=$2 url=$3
    shift 3
    rm -rf "$profile/p"
    timeout 90 "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --user-data-dir="$profile/p" \
        --enable-logging=stderr --v=0 --hide-scrollbars "$@" "$url" >"$out" 2>"$err"
    rc=$?
    [ "$rc" -eq 124 ] && fail "chromium timed out on $url"
    [ "$rc" -eq 0 ] || fail "chromium exited $rc on $url: $(tail -n 3 "$err")"
}

# Console messages (errors, warnings, logs) appear as INFO:CONSOLE lines.
console_lines() { grep -E 'INFO:CONSOLE|Uncaught' "$1"; }

# ---- control: the console check sees a console error -------------------------
printf '<!DOCTYPE html><html><body><script>console.error("vdc-control");</script></body></html>\n' \
    >"$art/control.html"
chromium "$art/control.out" "$art/control.err" "file://$art/control.html" --dump-dom
console_lines "$art/control.err" | grep -q vdc-control ||
    fail "control page: the console error was not seen: the console check cannot work here"

# ---- the probe: every report at 1400 and 900 px, and a control ---------------
cp "$top_srcdir/tests/integration/report-layout.js" "$art/"
# the control: a legend text outside its figure, a block wider than the
# page, a figure numbered 2 in the first place, no answer; two bar labels
# on each other, an x label twice, a figure title twice
cat >"$art/layout-control.html" <<'HTML'
<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>
<figure id="chart-x" data-figure="2"><svg viewBox="0 0 100 50" width="100" height="50"><text x="80" y="20" font-size="12">clipped legend</text></svg><figcaption>Figure 2: x</figcaption></figure>
<figure id="chart-y" data-figure="2"><svg viewBox="0 0 300 80" width="300" height="80"><text class="title" x="10" y="12" font-size="10">T</text><text class="value" x="100" y="30" font-size="10">4088</text><text class="value" x="112" y="30" font-size="10">3855</text><text class="xlabel" x="40" y="70" font-size="10">Write block</text><text class="xlabel" x="200" y="70" font-size="10">Write block</text></svg><figcaption>Figure 2: y</figcaption></figure>
<figure id="chart-z" data-figure="3"><svg viewBox="0 0 100 50" width="100" height="50"><text class="title" x="10" y="12" font-size="10">T</text></svg><figcaption>Figure 3: z</figcaption></figure>
<div style="width:3000px">wide</div>
</body></html>
HTML
{
    printf '<!DOCTYPE html><html><head><meta charset="utf-8"><script src="report-layout.js"></script></head><body>\n'
    for p in $pages; do
        for w in 1400 900; do
            printf '<iframe data-name="%s" width="%s" height="900" src="%s/report.html"></iframe>\n' "$p" "$w" "$p"
        done
    done
    printf '<iframe data-name="control" width="900" height="900" src="layout-control.html"></iframe>\n'
    printf '</body></html>\n'
} >"$art/probe.html"
chromium "$art/probe-dom.html" "$art/probe.err" "file://$art/probe.html" --dump-dom \
    --allow-file-access-from-files --window-size=3200,2000
sed -n '/<pre id="vdc-probe">/,/<\/pre>/p' "$art/probe-dom.html" | sed 's/<[^>]*>//g' >"$art/probe.txt"
cat "$art/probe.txt"
[ "$(grep -c . "$art/probe.txt")" -eq 19 ] || fail "probe: expected 19 lines (9 reports x 2 widths, the control)"
grep -q '^control 900 FAIL: .*wider than its column: div' "$art/probe.txt" &&
    grep -q '^control 900 FAIL: .*chart-x: text clipped' "$art/probe.txt" &&
    grep -q '^control 900 FAIL: .*figure chart-x is numbered 2, its place is 1' "$art/probe.txt" &&
    grep -q '^control 900 FAIL: .*no answer section' "$art/probe.txt" &&
    grep -q "^control 900 FAIL: .*chart-y: texts overlap: '4088' and '3855'" "$art/probe.txt" &&
    grep -q "^control 900 FAIL: .*chart-y: xlabel 'Write block' twice" "$art/probe.txt" &&
    grep -q "^control 900 FAIL: .*figure or panel title 'T' twice" "$art/probe.txt" ||
    fail "control: the probe did not see a clipped legend, a wide block, a misnumbered figure, the missing" \
        "answer, overlapping labels, an x label or a figure title twice"
for p in $pages; do
    for w in 1400 900; do
        grep -q "^$p $w ok " "$art/probe.txt" || fail "$p at $w px: $(grep "^$p $w " "$art/probe.txt")"
    done
done
# what each report must hold: the workload's four tests (rr4k on a file and
# on the raw device, mix8k read and write) a latency figure each; lab4's
# table a row per target and test (4 x 4); hostlab's charts their n/a
grep -q '^workload 1400 ok .* latency=4 ' "$art/probe.txt" || fail "workload: not one latency figure per test"
grep -q '^lab4 900 ok .* rows=16 tests=4 ' "$art/probe.txt" || fail "lab4: the results table lost rows"
grep -Eq '^hostlab 1400 ok .* flagged=[1-9]' "$art/probe.txt" || fail "hostlab: no role said to have no figure"
grep -q '^matrix12 900 ok .* rows=144 tests=12 ' "$art/probe.txt" || fail "matrix12: the results table lost rows"


# ---- screenshots (the test artifacts); the report logs nothing ---------------
for w in 1400 900; do
    chromium "$art/shot-$w.out" "$art/shot-$w.err" "file://$art/hostlab/report.html" \
        --window-size=$w,900 --screenshot="$art/report-$w.png"
    if console_lines "$art/shot-$w.err" >"$art/console-$w.txt"; then
        cat "$art/console-$w.txt" >&2
        fail "report.html logged console messages"
    fi
    [ -s "$art/report-$w.png" ] || fail "no screenshot at $w px"
    head -c 8 "$art/report-$w.png" | od -An -c | grep -q 'P   N   G' || fail "screenshot at $w px is not a PNG"
    size=$(wc -c <"$art/report-$w.png")
    [ "$size" -gt 30000 ] || fail "screenshot at $w px is $size bytes: blank page?"
    echo "screenshot: $art/report-$w.png ($size bytes)"
done
exit 0
