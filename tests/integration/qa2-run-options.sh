#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# QA regression (breaker2): bad option shapes of `vmdiskcmp run` get one
# line naming the option the user typed, exit 2, nothing on stdout.
#  - a value given to a flag (--dry-run=1, --image=yes): the message said
#    "--dry-run: expected a value ((null))" (a NULL printed through %s, and
#    the opposite of the problem: the flag takes no value);
#  - an unknown letter inside a short cluster (-q=1, -zq): the message named
#    the PREVIOUS argument ("unknown option '--image'") since -q exists.
# (Fixed in src/plan/options.c; was XFAIL.)
# --dry-run only: nothing is created.  Run time: < 1 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"

top=$(mktemp -d "${TMPDIR:-/tmp}/vdc-qa2-opt.XXXXXX")
trap 'rm -rf "$top"' EXIT INT TERM
rc_all=0
# bad WHAT PATTERN ARGS...: exit 2, one stderr line matching PATTERN and
# not containing "(null)", nothing on stdout
bad() {
    what=$1 pat=$2
    shift 2
    "$VMDISKCMP" "$@" >"$top/stdout" 2>"$top/stderr"
    rc=$?
    err=$(cat "$top/stderr")
    n=$(wc -l <"$top/stderr")
    if [ "$rc" -ne 2 ] || [ -s "$top/stdout" ] || [ "$n" -ne 1 ]; then
        echo "FAIL: $what: exit $rc (want 2), $n stderr lines (want 1), stdout $(wc -c <"$top/stdout") bytes: $err" >&2
        rc_all=1
    elif printf '%s' "$err" | grep -q '(null)'; then
        echo "FAIL: $what: message prints a NULL: $err" >&2
        rc_all=1
    elif ! printf '%s' "$err" | grep -Eq -e "$pat"; then
        echo "FAIL: $what: message '$err' does not match /$pat/" >&2
        rc_all=1
    else
        echo "ok: $what: $err"
    fi
}
bad "value given to --dry-run" "--dry-run" --image --dry-run=1
bad "value given to --image" "--image" --dry-run --image=yes
bad "-q=1" "-q=1|'='|-=" --dry-run --image -q=1
bad "-zq" "-zq|'z'|-z" --dry-run --image -zq
# control: the good shapes work (so the checks above can pass)
"$VMDISKCMP" --dry-run --image -q >/dev/null 2>"$top/stderr" ||
    fail "control: --dry-run --image -q failed: $(cat "$top/stderr")"
exit $rc_all
