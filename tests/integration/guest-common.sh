# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by tests/integration/guest-*.sh (sourced): the guest template and a
# prepared-image cache kept in the build tree across runs, built under a
# lock so tests running in parallel share them.
. "$top_srcdir/tests/lib.sh"
need_root
[ -n "${QEMU_SYSTEM:-}" ] && [ -x "$QEMU_SYSTEM" ] || skip "needs qemu-system-x86_64 (configure found none)"
need_cmd flock
need_cmd guestfish
[ -x "$VMDISKCMP" ] || fail "no vmdiskcmp binary at $VMDISKCMP"
[ -x "$VDC_AGENT" ] || fail "no agent at $VDC_AGENT"
VDC_RUNNER="$top_builddir/guest-agent/vmdiskcmp-runner"
CTLTOOL="$top_builddir/tests/guest-ctltool"
[ -x "$VDC_RUNNER" ] || fail "no runner at $VDC_RUNNER"
[ -x "$CTLTOOL" ] || fail "no guest-ctltool at $CTLTOOL"

# real libguestfs appliance, TCG forced by the test (never by vmdiskcmp)
export LIBGUESTFS_BACKEND=direct
export LIBGUESTFS_BACKEND_SETTINGS=force_tcg
export LIBGUESTFS_CACHEDIR="$top_builddir/guest-lgfs-cache"
mkdir -p "$LIBGUESTFS_CACHEDIR"

GUEST_TEMPLATE_DIR="$top_builddir/guest-template"
GUEST_TEMPLATE="$GUEST_TEMPLATE_DIR/guest.img"
build_template() {
    flock "$top_builddir/.guest-template.lock" \
        timeout 600 sh "$top_srcdir/templates/guest/build-template.sh" "$GUEST_TEMPLATE_DIR" \
        || fail "building the guest template failed"
    [ -f "$GUEST_TEMPLATE" ] && [ -f "$GUEST_TEMPLATE.manifest" ] || fail "template incomplete"
}

# value of KEY= in `vmdiskcmp prepare` output $1
field() { sed -n "s/^$2=//p" "$1"; }
