#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The merged result set is held to the loader's limits (1024 targets,
# 100000 runs: src/model/result.h) and to 256 inputs, in every command that
# merges: compare of many results, merge of many hosts, import of many
# files.  Inputs generated here (each within the loader's limits, together
# over them): a refusal is one line naming the input and the limit, exit
# 2, nothing written (merge's -o OUT, import's -o FILE, compare's
# standard output).  About 2 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"
need_cmd python3

work=$(mktemp -d "${TMPDIR:-/tmp}/vdc-merge-limits.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work" || fail "cd $work"

# a.json, b.json: 600 targets each (t0..t599: within the loader's 1024),
# one run each with one sample; h1/, h2/: host directories holding them; agent answers c.json,
# d.json of 600 runs on 600 targets each (a0.., b0..) for import
python3 - <<'PY' || fail "generating the inputs"
import json, os
def sample(t):
    return {"test": "put_block", "unit": "K/sec", "value": 1000.0 + t}
def doc(prefix, n, declared):
    d = {"format": "vmdiskcmp-result", "format_version": 1,
         "producer": {"name": "vmdiskcmp-agent", "version": "0.1.0"},
         "runs": [{"target": "%s%d" % (prefix, i), "repetition": 0, "samples": [sample(i)]}
                  for i in range(n)]}
    if declared:
        d["targets"] = [{"name": "%s%d" % (prefix, i), "kind": "image", "where": "domU"} for i in range(n)]
    return d
for name, prefix, declared in (("a.json", "t", True), ("b.json", "t", True),
                               ("c.json", "a", False), ("d.json", "b", False)):
    json.dump(doc(prefix, 600, declared), open(name, "w"))
for h in ("h1", "h2"):
    os.mkdir(h)
    json.dump(doc("t", 600, True), open(os.path.join(h, "result.json"), "w"))
PY

# expect_refusal WHAT MESSAGE CMD...: exit 2, exactly MESSAGE on stderr,
# nothing on stdout
expect_refusal() {
    what=$1 msg=$2
    shift 2
    rc=0
    "$@" > out.txt 2> err.txt || rc=$?
    [ "$rc" = 2 ] || fail "$what: exit status $rc, expected 2: $(cat err.txt)"
    [ "$(cat err.txt)" = "$msg" ] || fail "$what: stderr '$(cat err.txt)', expected '$msg'"
    [ -s out.txt ] && fail "$what: wrote on standard output: $(head -c 200 out.txt)"
    return 0
}

# ---- compare: the second input's targets (renamed NAME@INPUT) make 1200 ----
expect_refusal "compare a b" \
    "vmdiskcmp: compare: b.json: would make 1200 targets: expected at most 1024 in one result set" \
    "$VMDISKCMP" compare a.json b.json

# ---- merge: the second host makes 1200 targets (TARGET@HOST) ----
expect_refusal "merge h1 h2" \
    "vmdiskcmp: merge: h2/result.json: would make 1200 targets: expected at most 1024 in one result set" \
    "$VMDISKCMP" merge h1 h2 -o merged --no-store
[ -e merged ] && fail "merge wrote -o merged after refusing"

# ---- import: the second file's 600 targets make 1200 ----
expect_refusal "import c d" \
    "vmdiskcmp: d.json: would make 1200 targets: expected at most 1024 in one result set" \
    "$VMDISKCMP" import -q c.json d.json -o imported.json --no-store
[ -e imported.json ] && fail "import wrote -o imported.json after refusing"

# ---- 257 inputs, refused before any is read (they do not exist) ----
set --
i=0
while [ $i -lt 257 ]; do set -- "$@" "in$i"; i=$((i + 1)); done
expect_refusal "compare of 257" \
    "vmdiskcmp: compare: 257 inputs: expected at most 256 in one result set" "$VMDISKCMP" compare "$@"
expect_refusal "merge of 257" \
    "vmdiskcmp: merge: 257 inputs: expected at most 256 in one result set" \
    "$VMDISKCMP" merge -o merged --no-store "$@"
expect_refusal "import of 257" \
    "vmdiskcmp: import: 257 inputs: expected at most 256 in one result set" \
    "$VMDISKCMP" import -q -o imported.json --no-store "$@"
[ -e merged ] || [ -e imported.json ] && fail "an output was written after a refusal"
echo "ok"
