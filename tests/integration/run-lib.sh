# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the tests that run vmdiskcmp for real through libvirtd + QEMU
# (TCG, qemu:///system) and libguestfs: run-libvirt-qemu.sh,
# run-hostile-guest.sh.  Sourced after tests/lib.sh.

# run_lib_setup NAME SIZE: skip (77) where the machine lacks what a real run
# needs; start libvirtd (scripts/start-services.sh, idempotent); build the
# guest template (cached in the build tree: $template_dir); make $work, a
# folder QEMU (user libvirt-qemu) can reach, with img/ and cache/; bind
# $loop to a sparse file of SIZE there (a --block target); point libguestfs
# at the direct backend with TCG (a setting the tests turn on) and a cache
# in the build tree.  Sets $runner.  run_lib_cleanup runs at exit.
run_lib_setup() {
    need_root
    need_cmd virsh
    need_cmd losetup
    need_cmd python3
    [ -x "$VMDISKCMP" ] || fail "no $VMDISKCMP"
    [ -x "$VDC_AGENT" ] || fail "no agent at $VDC_AGENT"
    runner="$top_builddir/guest-agent/vmdiskcmp-runner"
    [ -x "$runner" ] || fail "no runner at $runner (make all builds it)"
    [ -e /dev/loop-control ] || skip "no loop devices on this machine"

    mkdir -p /var/log/libvirt
    sh "$top_srcdir/scripts/start-services.sh" || fail "scripts/start-services.sh failed"
    timeout 60 virsh -c qemu:///system version >/dev/null 2>&1 ||
        fail "libvirtd does not answer on qemu:///system (see /var/log/libvirt/libvirtd.log)"

    template_dir="$top_builddir/guest-template"
    timeout 600 sh "$top_srcdir/templates/guest/build-template.sh" "$template_dir" >/dev/null ||
        fail "building the guest template failed"

    work=$(mktemp -d "$top_builddir/$1.XXXXXX")
    chmod 755 "$work"
    mkdir -p "$work/img" "$work/cache"
    chmod 755 "$work/img"
    loop=
    trap run_lib_cleanup EXIT
    trap 'exit 1' INT TERM
    truncate -s "$2" "$work/block.img"
    loop=$(losetup -f --show "$work/block.img") || fail "losetup failed"

    export LIBGUESTFS_BACKEND=direct
    export LIBGUESTFS_BACKEND_SETTINGS=force_tcg
    export LIBGUESTFS_CACHEDIR="$top_builddir/guestfs-cache"
    mkdir -p "$LIBGUESTFS_CACHEDIR"
}

# what the runs under $work/out* left (their domains, their journals), the
# loop device, $work
run_lib_cleanup() {
    for d in $(virsh -c qemu:///system list --all --name 2>/dev/null | grep "^vmdiskcmp-" ); do
        if grep -qs "\"$d\"" "$work"/out*/plan.json; then
            virsh -c qemu:///system destroy "$d" >/dev/null 2>&1
        fi
    done
    for o in "$work"/out*; do
        [ -f "$o/journal" ] && "$VMDISKCMP" cleanup "$o" >/dev/null 2>&1
    done
    [ -n "$loop" ] && losetup -d "$loop"
    rm -rf "$work"
}

# nothing_left OUT: nothing of the run OUT left: no domain, no image, no
# loop device over an image, no mount under $work, every journaled object
# undone or kept
nothing_left() {
    name=$(sed -n 's/.*"domain_name" : "\([^"]*\)".*/\1/p' "$1/plan.json")
    [ -n "$name" ] || fail "$1/plan.json: no domain_name"
    virsh -c qemu:///system list --all --name | grep -qx "$name" && fail "domain $name left behind"
    ls "$work/img" | grep -q . && fail "images left behind: $(ls "$work/img")"
    losetup -a | grep -F "$work/img" && fail "loop device left behind"
    grep -F " $work" /proc/self/mountinfo && fail "mount left behind"
    python3 - "$1/journal" <<'PY' || fail "$1/journal: objects not undone"
import sys
pending = {}
for line in open(sys.argv[1]).read().splitlines()[1:]:
    f = line.split(" ")
    if f[0] == "add":
        pending[f[1]] = line
    elif f[0] in ("undone", "kept"):
        pending.pop(f[1], None)
for l in pending.values():
    print("pending:", l)
sys.exit(1 if pending else 0)
PY
}
