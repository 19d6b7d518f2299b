#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# QA regression (breaker2): `vmdiskcmp lab run` with a bad --then shape
# (`-- --then`, `-- ARGS --then`, `-- ARGS --then --then ARGS`) must be
# refused as bad input (exit 2, one line naming --then) BEFORE the dom0
# build step (bash build-dom0.sh: debootstrap, long, when the cache is cold)
# and must leave no --out directory behind.  The lab recipe is a copy of
# templates/lab whose build-dom0.sh is a stub that only records it was
# reached: nothing is built or booted.  (Fixed: vmdiskcmp lab checks every
# input in C, before lab.sh runs; was XFAIL.)  Run time: < 1 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"
need_cmd bash

top=$(mktemp -d "${TMPDIR:-/tmp}/vdc-qa2-lab.XXXXXX")
trap 'rm -rf "$top"' EXIT INT TERM
cp -r "$top_srcdir/templates/lab" "$top/tpl"
cat >"$top/tpl/build-dom0.sh" <<'STUB'
#!/bin/bash
echo reached >>"$QA_LAB_LOG"
exit 1
STUB
QA_LAB_LOG=$top/build.log VDC_LAB_DIR=$top/tpl
export QA_LAB_LOG VDC_LAB_DIR

rc_all=0
# shape WHAT ARGS...: lab run --cache-dir C --out O -- ARGS
shape() {
    what=$1
    shift
    rm -f "$top/build.log" && rm -rf "$top/out"
    "$VMDISKCMP" lab run --cache-dir "$top/cache" --out "$top/out" -- "$@" \
        >"$top/stdout" 2>"$top/stderr"
    rc=$?
    err=$(cat "$top/stderr")
    if [ -e "$top/build.log" ]; then
        echo "FAIL: $what: the dom0 build step ran before the --then check (exit $rc: $err)" >&2
        rc_all=1
    elif [ "$rc" -ne 2 ]; then
        echo "FAIL: $what: exit status $rc, want 2 ($err)" >&2
        rc_all=1
    elif ! printf '%s\n' "$err" | grep -q -e '--then'; then
        echo "FAIL: $what: message does not name --then: $err" >&2
        rc_all=1
    else
        echo "ok: $what: $err"
    fi
    if [ -e "$top/out" ]; then
        echo "FAIL: $what: --out directory left behind" >&2
        rc_all=1
    fi
}
# control: a good shape reaches the (stubbed) build step, so the checks
# above can tell "refused early" from "never ran"
rm -f "$top/build.log"
"$VMDISKCMP" lab run --cache-dir "$top/cache" --out "$top/ctl" -- --image --dry-run \
    --then --dom0 --dry-run >/dev/null 2>&1
[ -e "$top/build.log" ] || fail "control: a good --then shape did not reach the stubbed build step"
shape "--then alone" --then
shape "--then first" --then --image --dry-run
shape "--then last" --image --dry-run --then
shape "--then --then" --image --dry-run --then --then --lvm --vg lab
exit $rc_all
