#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The HTML report in a real browser: Debian's headless Chromium loads
# report.html (rendered from tests/golden/report/synthetic) with no console
# message and no failed resource, both charts and their dot plots (every
# run in run order, right after each chart) are present and laid out with
# a size, the headline section comes first and fits, and a screenshot is
# kept as a test artifact:
#   $top_builddir/tests/artifacts/report-chromium/report.png
# A control page with a deliberate error proves the console check can fail.
# A 4-target result (tests/golden/report/lab4) must fit a 1200 px window:
# the results table does not scroll sideways (a control page with a forced
# 1400 px table proves the check can fail); screenshot lab4/report.png.
# Run time: about 15-30 s (eight Chromium starts).
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

cp "$top_srcdir/tests/golden/report/synthetic/result.json" "$art/"
"$VMDISKCMP" report "$art" --quiet || fail "vmdiskcmp report failed"
[ -s "$art/report.html" ] || fail "no report.html"

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

# ---- control: the check sees a console error ---------------------------------
printf '<!DOCTYPE html><html><body><script>console.error("vdc-control");</script></body></html>\n' \
    >"$art/control.html"
chromium "$art/control.out" "$art/control.err" "file://$art/control.html" --dump-dom
console_lines "$art/control.err" | grep -q vdc-control ||
    fail "control page: the console error was not seen: the console check cannot work here"

# ---- the report: no console message ------------------------------------------
chromium "$art/dom.html" "$art/console.log" "file://$art/report.html" --dump-dom
if console_lines "$art/console.log" >"$art/console-messages.txt"; then
    cat "$art/console-messages.txt" >&2
    fail "report.html logged console messages"
fi
grep -q 'id="chart-throughput"' "$art/dom.html" || fail "DOM has no throughput chart"
grep -q 'id="chart-ops"' "$art/dom.html" || fail "DOM has no seeks/file-ops chart"

# ---- the same page with a probe: failed resources, chart layout ---------------
# (a copy, so the report itself stays script-free)
# dots: each dot plot (dots-throughput, dots-ops) right after its bar chart,
# laid out with a size, with at least as many drawn paths as the markers
# its figure says it holds (data-points: one a run of a target and test);
# headline: the headline section comes before the first chart and fits
# the page
probe='<script>var vdcErr=0;addEventListener("error",function(){vdcErr++},true);
addEventListener("load",function(){var ids=["chart-throughput","chart-ops"],ok=0,dots=0;
ids.forEach(function(i){var s=document.querySelector("#"+i+" svg");
if(s){var r=s.getBoundingClientRect();if(r.width>300&&r.height>100&&s.querySelectorAll("path,rect,use").length>20)ok++;}});
ids.forEach(function(i){var f=document.getElementById(i.replace("chart-","dots-")),s=f&&f.querySelector("svg");
if(!s)return;var r=s.getBoundingClientRect(),n=+f.getAttribute("data-points");
if(r.width>300&&r.height>150&&n>0&&s.querySelectorAll("path").length>=n&&f.previousElementSibling&&
f.previousElementSibling.id==i)dots++;});
var m=document.getElementById("metadata"),d=document.documentElement,h=document.getElementById("headline");
var c=document.getElementById("chart-throughput");
var fit=m&&m.getBoundingClientRect().right<=document.body.getBoundingClientRect().right+1&&d.scrollWidth<=d.clientWidth?1:0;
var hl=h&&c&&h.getBoundingClientRect().bottom<=c.getBoundingClientRect().top&&
h.getBoundingClientRect().right<=document.body.getBoundingClientRect().right+1?1:0;
var p=document.createElement("pre");p.id="vdc-probe";p.textContent="charts="+ok+" dots="+dots+" headline="+hl+
" errors="+vdcErr+" meta_fits="+fit;
document.body.appendChild(p);});</script>'
awk -v p="$probe" '{ print } /<head>/ && !done { print p; done = 1 }' "$art/report.html" >"$art/probe.html"
grep -q vdcErr "$art/probe.html" || fail "probe not inserted"
# at 1200 px the "How to reproduce" table (long command lines) must wrap
# inside the page: without `white-space:normal` on it, it is 3293 px wide
want='charts=2 dots=2 headline=1 errors=0 meta_fits=1'
chromium "$art/probe-dom.html" "$art/probe.err" "file://$art/probe.html" --dump-dom --window-size=1200,900
grep -q "<pre id=\"vdc-probe\">$want</pre>" "$art/probe-dom.html" ||
    fail "probe: $(grep -o '<pre id="vdc-probe">[^<]*' "$art/probe-dom.html" || echo 'no result') (want $want)"
# control: a dot plot claiming more markers than it draws is seen (the
# path count is checked, not assumed)
sed 's/\(<figure id="dots-ops" class="chart dots" data-points="\)[0-9]*/\1100000/' "$art/probe.html" >"$art/dots-control.html"
grep -q 'data-points="100000"' "$art/dots-control.html" || fail "dots control: data-points not rewritten"
chromium "$art/dots-control-dom.html" "$art/dots-control.err" "file://$art/dots-control.html" --dump-dom \
    --window-size=1200,900
grep -q '<pre id="vdc-probe">charts=2 dots=1 ' "$art/dots-control-dom.html" ||
    fail "dots control: $(grep -o '<pre id="vdc-probe">[^<]*' "$art/dots-control-dom.html") (want dots=1)"

# ---- four targets: the results table fits a 1200 px window --------------------
# tests/golden/report/lab4: the main job of the emulated lab (image,
# image-qdisk, lvm, dom0; results/2026-11-30-lab-main-job-EMULATED).  With
# one column per target the table ran past the page from 4 targets on.
# The probe: the table's box ends inside the body, the table and its
# div.tablewrap do not scroll (scrollWidth <= clientWidth), the page does
# not scroll sideways; and each target has a row (rows = 4 x tests).
mkdir -p "$art/lab4"
cp "$top_srcdir/tests/golden/report/lab4/result.json" "$art/lab4/"
"$VMDISKCMP" report "$art/lab4" --quiet || fail "vmdiskcmp report failed on the 4-target result"
tprobe='<script>addEventListener("load",function(){var t=document.querySelector("table.results"),
b=document.body.getBoundingClientRect(),d=document.documentElement,w=t&&t.parentElement;
var fit=t&&t.getBoundingClientRect().right<=b.right+1&&t.scrollWidth<=t.clientWidth&&
w.scrollWidth<=w.clientWidth&&d.scrollWidth<=d.clientWidth?1:0;
var p=document.createElement("pre");p.id="vdc-probe";
p.textContent="table_fits="+fit+" rows="+(t?t.querySelectorAll("tbody tr").length:0)+
" tests="+(t?t.querySelectorAll("tbody").length:0);document.body.appendChild(p);});</script>'
awk -v p="$tprobe" '{ print } /<head>/ && !done { print p; done = 1 }' "$art/lab4/report.html" >"$art/lab4/probe.html"
# control: the same page with the table forced wider than the window
awk -v p="$tprobe<style>table.results{min-width:1400px}</style>" '{ print } /<head>/ && !done { print p; done = 1 }' \
    "$art/lab4/report.html" >"$art/lab4/control.html"
chromium "$art/lab4/control-dom.html" "$art/lab4/control.err" "file://$art/lab4/control.html" --dump-dom \
    --window-size=1200,900
grep -q '<pre id="vdc-probe">table_fits=0 ' "$art/lab4/control-dom.html" ||
    fail "control: a 1400 px table was not seen as too wide: the table check cannot work here"
for width in 1200 800; do
    chromium "$art/lab4/probe-$width.html" "$art/lab4/probe-$width.err" "file://$art/lab4/probe.html" --dump-dom \
        --window-size=$width,900
    got=$(grep -o '<pre id="vdc-probe">[^<]*' "$art/lab4/probe-$width.html" | sed 's/.*>//')
    echo "4 targets at $width px: $got"
    case "$got" in
    *" rows=16 tests=4") ;;
    *) fail "4 targets at $width px: $got (want rows=16 tests=4: 4 bonnie++ tests x 4 targets)" ;;
    esac
done
# at 1200 px it must fit; at 800 px it may scroll inside div.tablewrap
case "$(grep -o '<pre id="vdc-probe">[^<]*' "$art/lab4/probe-1200.html")" in
*table_fits=1*) ;;
*) fail "4 targets at 1200 px: the results table scrolls sideways" ;;
esac
chromium "$art/lab4/shot.out" "$art/lab4/shot.err" "file://$art/lab4/report.html" \
    --window-size=1200,4000 --screenshot="$art/lab4/report.png"
[ -s "$art/lab4/report.png" ] || fail "no 4-target screenshot written"

# ---- screenshot (the test artifact) ------------------------------------------
chromium "$art/shot.out" "$art/shot.err" "file://$art/report.html" \
    --window-size=1100,2600 --screenshot="$art/report.png"
[ -s "$art/report.png" ] || fail "no screenshot written"
size=$(wc -c <"$art/report.png")
[ "$size" -gt 50000 ] || fail "screenshot is $size bytes: blank page?"
head -c 8 "$art/report.png" | od -An -c | grep -q 'P   N   G' || fail "screenshot is not a PNG"
echo "screenshot: $art/report.png ($size bytes)"
exit 0
