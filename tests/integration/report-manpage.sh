#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# doc/vmdiskcmp.1 formats without a groff warning, and documents every long
# option that the --help of run, cleanup, prepare, lab, report, compare, merge and
# import prints, and every exit status of src/common/util.h.
# Run time: < 1 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"
need_cmd groff

man="$top_srcdir/doc/vmdiskcmp.1"
[ -f "$man" ] || fail "no $man"
warn=$(groff -man -Tutf8 -ww -z "$man" 2>&1)
[ -z "$warn" ] || fail "groff warnings in $man: $warn"
text=$(groff -man -Tascii -P-c -P-b -P-u "$man" 2>/dev/null | sed 's/‐//g') || fail "groff failed"
for cmd in run cleanup prepare lab report compare merge import; do
    "$VMDISKCMP" "$cmd" --help >"${TMPDIR:-/tmp}/vdc-man.$$" 2>&1 || fail "$cmd --help failed"
    opts=$(grep -o -- '--[a-z][a-z-]*' "${TMPDIR:-/tmp}/vdc-man.$$" | sort -u)
    rm -f "${TMPDIR:-/tmp}/vdc-man.$$"
    [ -n "$opts" ] || fail "$cmd --help lists no option"
    for o in $opts; do
        [ "$o" = --help ] && continue
        printf '%s\n' "$text" | grep -q -e "$o" || fail "$cmd --help has $o, the man page does not"
    done
    printf '%s\n' "$text" | grep -Eq "^ {3,}$cmd " || fail "no section for $cmd in the man page"
done
for code in $(sed -n 's/^ *VDC_EXIT_[A-Z]* = \([0-9]\).*/\1/p' "$top_srcdir/src/common/util.h"); do
    printf '%s\n' "$text" | sed -n '/^EXIT STATUS/,/^FILES/p' | grep -Eq "^ +$code( |$)" ||
        fail "exit status $code (src/common/util.h) not in EXIT STATUS"
done
exit 0
