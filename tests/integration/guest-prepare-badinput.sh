#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vmdiskcmp prepare: every bad input is one line naming it, exit 2, and
# nothing written; no libguestfs appliance is launched (the checks come
# first).  Regressions: getopt's own message made `prepare --bogus` two
# lines; a template without its manifest and `--out ''` failed late with
# exit 1.  Run time: < 1 s.
set -u
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"
agent="$top_builddir/guest-agent/vmdiskcmp-agent"
runner="$top_builddir/guest-agent/vmdiskcmp-runner"
[ -x "$agent" ] && [ -x "$runner" ] || fail "agent or runner not built"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/t.img"
# no appliance may start: a launch would fail loudly
export LIBGUESTFS_HV=/bin/false

bad() { # WORD ARGS...
    word=$1; shift
    "$VMDISKCMP" prepare --cache-dir "$tmp/cache" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc -eq 2 ] || fail "prepare $*: exit $rc, expected 2: $(cat "$tmp/err")"
    [ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "prepare $*: expected one line: $(cat "$tmp/err")"
    grep -q -- "$word" "$tmp/err" || fail "prepare $*: message does not name '$word': $(cat "$tmp/err")"
    [ ! -s "$tmp/out" ] || fail "prepare $*: wrote to stdout"
    [ ! -e "$tmp/cache" ] || fail "prepare $*: created the cache dir"
}

bad "'--bogus'" --bogus
bad "--out: expected a value" --guest-image "$tmp/t.img" --out
bad "--guest-image" --agent "$agent"
bad "t.img.manifest" --guest-image "$tmp/t.img" --agent "$agent" --runner "$runner"
: > "$tmp/t.img.manifest"
bad "--agent" --guest-image "$tmp/t.img" --agent "$tmp/none" --runner "$runner"
bad "--out ''" --guest-image "$tmp/t.img" --agent "$agent" --runner "$runner" --out ''
bad "/nonexistent-vdc" --guest-image "$tmp/t.img" --agent "$agent" --runner "$runner" --out /nonexistent-vdc/p.img
: > "$tmp/exists.img"
bad "already exists" --guest-image "$tmp/t.img" --agent "$agent" --runner "$runner" --out "$tmp/exists.img"
[ ! -s "$tmp/exists.img" ] || fail "--out overwrote an existing file"
# without --agent/--runner a build tree's own are found (as run does): the
# check gets past them to --out (regression: prepare only looked in the
# install directory, so the README's command failed from a build tree)
bad "already exists" --guest-image "$tmp/t.img" --out "$tmp/exists.img"
bad "--timeout" --guest-image "$tmp/t.img" --timeout 0
exit 0
