# SPDX-License-Identifier: GPL-2.0-or-later
# Shared setup of the host samplers' integration tests (sourced): root,
# loop devices, the sampler tool in $TOOL, a scratch directory $scratch
# under /var/tmp (a disk filesystem: loop direct I/O needs O_DIRECT) made
# with the prefix given.  Each test sets its own cleanup trap after this.
. "$top_srcdir/tests/lib.sh"
host_test_setup() {   # PREFIX [COMMAND...]
    prefix=$1
    shift
    need_root
    need_cmd losetup
    for c; do need_cmd "$c"; done
    [ -e /dev/loop-control ] || skip "no /dev/loop-control: no loop devices on this machine"
    TOOL=$top_builddir/tests/host-sampletool
    [ -x "$TOOL" ] || fail "$TOOL is not built"
    scratch=$(mktemp -d "/var/tmp/$prefix.XXXXXX") || fail "mktemp"
}
