#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The source tree's layers, from its #include lines (doc/architecture.md):
# no folder of src/ includes one that includes it back (the flow's folders
# point down: run -> collect -> host, never back), no header or source file
# is reached again through the headers it includes, and no source file of
# src/ or guest-agent/ is over 1,000 lines.  Static: reads the files only;
# well under a second.
set -u
. "$top_srcdir/tests/lib.sh"
need_cmd python3
cd "$top_srcdir" || exit 1

python3 - <<'PY' || fail "layers: see above"
import glob, os, re, sys

MAX_LINES = 1000
inc = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
files = sorted(glob.glob("src/**/*.[ch]", recursive=True) + glob.glob("guest-agent/*.[ch]"))
bad = []

def resolve(name):
    for p in ("src/" + name, name):
        if os.path.isfile(p):
            return p
    return None

graph = {}
for f in files:
    with open(f, encoding="utf-8", errors="replace") as h:
        text = h.read()
    graph[f] = [r for r in (resolve(n) for n in inc.findall(text)) if r and r != f]
    n = text.count("\n")
    if n > MAX_LINES:
        bad.append("%s: %d lines, expected at most %d (split it by job)" % (f, n, MAX_LINES))

def cycle(nodes, edges):
    """one cycle of the graph as a list of nodes, or None"""
    state, stack = {}, []
    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in edges.get(n, ()):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                c = visit(m)
                if c:
                    return c
        stack.pop()
        state[n] = 2
        return None
    for n in nodes:
        if n not in state:
            c = visit(n)
            if c:
                return c
    return None

def folder(f):
    p = f.split("/")
    return p[1] if p[0] == "src" and len(p) > 2 else p[0]

c = cycle(files, graph)
if c:
    bad.append("include cycle between files: " + " -> ".join(c))
folders = {}
for f, deps in graph.items():
    for d in deps:
        if folder(d) != folder(f):
            folders.setdefault(folder(f), set()).add(folder(d))
c = cycle(sorted(folders), {k: sorted(v) for k, v in folders.items()})
if c:
    why = []
    for a, b in zip(c, c[1:]):
        who = next(f for f in files if folder(f) == a and any(folder(d) == b for d in graph[f]))
        why.append("%s (%s)" % (b, who))
    bad.append("include cycle between folders: %s -> %s" % (c[0], " -> ".join(why)))
for b in bad:
    print("FAIL: " + b, file=sys.stderr)
if not bad:
    print("%d files, %d folders: no include cycle, no file over %d lines in src/ and guest-agent/"
          % (len(files), len(set(map(folder, files))), MAX_LINES))
sys.exit(1 if bad else 0)
PY
echo PASS
