#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The OpenMetrics export loads into Prometheus without vmdiskcmp: Debian's
# promtool (package prometheus, downloaded with apt-get download and
# unpacked into a cache, never installed: the package would start a
# Prometheus server) backfills it into TSDB blocks (promtool tsdb
# create-blocks-from openmetrics), and the points read back (promtool tsdb
# dump) are the export's: as many, the headline ratios with their values.
# promtool from PATH when there is one.  Run time: about 4 s (the first
# time also the 19 MB download).
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"
need_cmd python3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cache=${VDC_TOOL_CACHE:-/var/cache/vmdiskcmp-tests}/prometheus
promtool=$(command -v promtool 2>/dev/null || true)
if [ -z "$promtool" ]; then
    promtool=$cache/promtool
    if [ ! -x "$promtool" ]; then
        mkdir -p "$cache" 2>/dev/null || skip "cannot make $cache for promtool"
        (cd "$work" && apt-get download -q prometheus >/dev/null 2>&1) ||
            skip "promtool: not on PATH and 'apt-get download prometheus' failed"
        dpkg-deb -x "$work"/prometheus_*.deb "$work/x" && cp "$work/x/usr/bin/promtool" "$promtool.tmp" &&
            mv "$promtool.tmp" "$promtool" || fail "promtool: cannot unpack the prometheus package"
        rm -rf "$work/x" "$work"/prometheus_*.deb
    fi
fi
cd "$work" || fail "cd $work"
lab=$(cd "$top_srcdir/results" && pwd -P)
"$VMDISKCMP" store add --store s.sqlite "$lab"/*/result "$lab"/*/result-2 -q || fail "store add"
"$VMDISKCMP" store export --store s.sqlite --format openmetrics -o s.om || fail "export"
points=$(grep -vc '^#' s.om)
"$promtool" tsdb create-blocks-from openmetrics s.om tsdb >backfill.out 2>&1 ||
    fail "promtool refused the export: $(tail -5 backfill.out)"
mkdir -p tsdb/wal
"$promtool" tsdb dump tsdb >dump.txt 2>dump.err || fail "promtool tsdb dump: $(cat dump.err)"
[ "$(wc -l <dump.txt)" = "$points" ] || fail "promtool holds $(wc -l <dump.txt) points, the export $points"
python3 - s.om dump.txt <<'EOF2' || fail "the points read back are not the export's"
import re, sys
om = [l for l in open(sys.argv[1]) if l.startswith("vmdiskcmp_headline_ratio{")]
dump = [l for l in open(sys.argv[2]) if l.startswith('{__name__="vmdiskcmp_headline_ratio"')]
assert om and len(om) == len(dump), (len(om), len(dump))
def key(labels, ts):
    return (tuple(sorted(re.findall(r'(\w+)="([^"]*)"', labels))), round(float(ts) * 1000))
want = {}
for l in om:
    m = re.match(r'vmdiskcmp_headline_ratio\{(.*)\} (\S+) (\S+)$', l.strip())
    want[key(m.group(1), m.group(3))] = float(m.group(2))
for l in dump:
    m = re.match(r'\{__name__="vmdiskcmp_headline_ratio", (.*)\} (\S+) (\S+)$', l.strip())
    k = (tuple(sorted(re.findall(r'(\w+)="([^"]*)"', m.group(1)))), int(m.group(3)))
    assert k in want and abs(want[k] - float(m.group(2))) < 1e-12 * abs(want[k]), l
EOF2
exit 0
