#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# doc/vmdiskcmp.1 formats without a groff warning, and documents every long
# option that the --help of run, cleanup, prepare, lab, report, compare, merge and
# import prints, and every exit status of src/common/util.h; no line of
# their --help is wider than 100 columns; README and it
# name the installed guest template where `make install` puts it.
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
    # a terminal's help: no line wider than 100 characters (UTF-8)
    wide=$(LC_ALL=C sed 's/[\x80-\xBF]//g' "${TMPDIR:-/tmp}/vdc-man.$$" |     # characters, not bytes
        awk 'length($0) > 100 { print NR ": " length($0) " wide: " substr($0, 1, 60); exit }')
    [ -z "$wide" ] || fail "$cmd --help has a line over 100 columns: $wide"
    opts=$(grep -o -- '--[a-z][a-z-]*' "${TMPDIR:-/tmp}/vdc-man.$$" | sort -u)
    rm -f "${TMPDIR:-/tmp}/vdc-man.$$"
    [ -n "$opts" ] || fail "$cmd --help lists no option"
    for o in $opts; do
        [ "$o" = --help ] && continue
        printf '%s\n' "$text" | grep -q -e "$o" || fail "$cmd --help has $o, the man page does not"
    done
    printf '%s\n' "$text" | grep -Eq "^ {3,}$cmd " || fail "no section for $cmd in the man page"
done
# the installed guest template: README and man page name it where `make
# install` puts it with configure's default prefix (/usr/local), as this
# build's --help does when configured so
helpdir=$("$VMDISKCMP" run --help | tr '\n' ' ' | tr -s ' ' | sed -n 's|.*the installed template (\([^;]*\)/guest/guest.img;.*|\1|p')
[ -n "$helpdir" ] || fail "run --help names no installed template"
for doc in "$top_srcdir/README.md" "$man"; do
    paths=$(grep -o '/usr/[a-z/]*share/vmdiskcmp/guest/guest\.img' "$doc" | sort -u)
    [ -n "$paths" ] || fail "$doc names no installed guest template"
    for p in $paths; do
        [ "$p" = /usr/local/share/vmdiskcmp/guest/guest.img ] ||
            fail "$doc: $p: expected /usr/local/share/vmdiskcmp/guest/guest.img (make install, configure's default prefix)"
    done
    grep -q 'PREFIX.*/share/vmdiskcmp/guest/guest.img' "$doc" || fail "$doc does not say the path follows configure's --prefix"
done
case $helpdir in
/usr/local/share/vmdiskcmp) ;;
*/share/vmdiskcmp) echo "note: this build's prefix is not /usr/local ($helpdir): the documented default path is not this build's" ;;
*) fail "run --help: the installed template in $helpdir, not PREFIX/share/vmdiskcmp" ;;
esac
for code in $(sed -n 's/^ *VDC_EXIT_[A-Z]* = \([0-9]\).*/\1/p' "$top_srcdir/src/common/util.h"); do
    printf '%s\n' "$text" | sed -n '/^EXIT STATUS/,/^FILES/p' | grep -Eq "^ +$code( |$)" ||
        fail "exit status $code (src/common/util.h) not in EXIT STATUS"
done
exit 0
