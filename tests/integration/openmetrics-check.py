#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Check a file against the OpenMetrics 1.0 text grammar (the ABNF of the
# OpenMetrics specification, "Text format"), for what vmdiskcmp writes:
# metric descriptors (# TYPE, # UNIT, # HELP) before their family's samples,
# a family's samples together, metric and label names, escaped label
# values, numbers, timestamps increasing within a series, the UNIT a suffix
# of the family name, info samples NAME_info with value 1, "# EOF" last.
# Exit 0, or 1 naming the first line that breaks a rule.
import re
import sys

NAME = r"[a-zA-Z_:][a-zA-Z0-9_:]*"
LABEL = r"[a-zA-Z_][a-zA-Z0-9_]*"
VALUE = r'"(?:[^"\\\n]|\\\\|\\"|\\n)*"'
NUMBER = r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|[-+]?Inf|NaN"
SAMPLE = re.compile(r"^(%s)(?:\{((?:%s=%s)(?:,%s=%s)*)?\})? (%s)(?: (%s))?$"
                    % (NAME, LABEL, VALUE, LABEL, VALUE, NUMBER, NUMBER))
TYPES = {"counter", "gauge", "histogram", "gaugehistogram", "stateset", "info", "summary", "unknown"}


def fail(n, line, why):
    sys.exit("%s:%d: %s: %s" % (sys.argv[1], n, why, line))


text = open(sys.argv[1], encoding="utf-8").read()
if not text.endswith("# EOF\n"):
    sys.exit("%s: does not end with '# EOF' and a newline" % sys.argv[1])
lines = text[:-1].split("\n")
families = {}
current = None
done = set()
last_ts = {}
for n, line in enumerate(lines, 1):
    if line == "# EOF":
        if n != len(lines):
            fail(n, line, "# EOF before the end")
        break
    if line.startswith("#"):
        m = re.match(r"^# (TYPE|UNIT|HELP) (%s) (.*)$" % NAME, line)
        if not m:
            fail(n, line, "a comment that is no TYPE, UNIT or HELP")
        kind, name, rest = m.groups()
        if name != current:
            if name in done or name in families:
                fail(n, line, "family %s described twice or interleaved" % name)
            if current:
                done.add(current)
            current = name
            families[name] = {}
        if kind in families[name]:
            fail(n, line, "a second %s" % kind)
        if kind == "TYPE" and rest not in TYPES:
            fail(n, line, "unknown type")
        if kind == "UNIT" and not name.endswith("_" + rest):
            fail(n, line, "the unit is not a suffix of the family name")
        families[name][kind] = rest
        continue
    m = SAMPLE.match(line)
    if not m:
        fail(n, line, "not a sample line")
    name, labels, value, ts = m.groups()
    if current is None:
        fail(n, line, "a sample before any family")
    typ = families[current].get("TYPE", "unknown")
    want = current + "_info" if typ == "info" else current
    if name != want:
        fail(n, line, "sample %s in family %s (expected %s)" % (name, current, want))
    if typ == "info" and float(value) != 1:
        fail(n, line, "an info sample's value is not 1")
    names = re.findall(r"(%s)=%s" % (LABEL, VALUE), labels or "")
    if len(names) != len(set(names)):
        fail(n, line, "a label given twice")
    key = (name, labels)
    if ts is not None:
        t = float(ts)
        if key in last_ts and t <= last_ts[key]:
            fail(n, line, "timestamps of a series not increasing")
        last_ts[key] = t
else:
    sys.exit("%s: no '# EOF' line" % sys.argv[1])
print("%s: OpenMetrics text, %d families, %d series" % (sys.argv[1], len(families), len(last_ts)))
