#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The target matrix's refusals on this machine's real libvirt and QEMU,
# before anything is created (--dry-run and a run alike): --iothreads 2
# (a disk's virtqueues on two I/O threads need QEMU 9.0 and libvirt 10.0;
# Debian 12 has QEMU 7.2 and libvirt 9.0: the probe of the build says so
# in one line), too many targets (--max-targets), --disk-io native with
# --disk-cache writeback; each exit 2, one line naming the value and why,
# and nothing made: no --out (so no journal: a run makes nothing before
# its journal, doc/controller.md), no image.  What this build can
# do (--disk-io io_uring,native,threads with --disk-cache none,
# --iothreads 0,1) is accepted by the same probe.  The guest is a stand-in
# (a manifest and empty files: nothing boots).
# Run time: about 10 s (the first qemu:///system connection probes QEMU).
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd virsh
[ -x "$VMDISKCMP" ] || fail "no $VMDISKCMP"
mkdir -p /var/log/libvirt
sh "$top_srcdir/scripts/start-services.sh" || fail "scripts/start-services.sh failed"
timeout 60 virsh -c qemu:///system version >/dev/null 2>&1 ||
    fail "libvirtd does not answer on qemu:///system (see /var/log/libvirt/libvirtd.log)"

work=$(mktemp -d "${TMPDIR:-/tmp}/vdc-matrix-refusals.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/img"
: >"$work/guest.img"
: >"$work/vmlinuz"
: >"$work/initrd.img"
printf '[template]\nformat=1\n[boot]\nkernel=vmlinuz\ninitrd=initrd.img\ncmdline_kvm=console=ttyS0\ncmdline_xen=console=hvc0\nmin_memory_mib=128\n' \
    >"$work/guest.img.manifest"

# refused ARGS... WANT: exit 2, one line holding WANT, nothing made
refused() {
    want=$1
    shift
    for dry in --dry-run ""; do
        rc=0
        "$VMDISKCMP" $dry --hypervisor libvirt --connect qemu:///system --accel tcg --guest-image "$work/guest.img" \
            --image-dir "$work/img" --out "$work/out" --size 64M --no-store "$@" >"$work/stdout" 2>"$work/err" || rc=$?
        [ "$rc" = 2 ] || fail "$* ${dry:-(a run)}: exit $rc, wanted 2: $(cat "$work/err")"
        [ "$(wc -l <"$work/err")" = 1 ] || fail "$*: not one line: $(cat "$work/err")"
        grep -qF -- "$want" "$work/err" || fail "$*: wanted '$want', got: $(cat "$work/err")"
        [ ! -e "$work/out" ] || fail "$*: --out was made"
        [ -z "$(ls "$work/img")" ] || fail "$*: images made: $(ls "$work/img")"
    done
}

refused "--iothreads 2: expected 0 or 1 with this build: a disk's virtqueues on 2 I/O threads need QEMU 9.0's iothread-vq-mapping" \
    --image --iothreads 0,2
grep -qF "has no iothread-vq-mapping (-device virtio-blk-pci,help)" "$work/err" ||
    fail "--iothreads 2: the QEMU probe's reason missing: $(cat "$work/err")"
refused "the plan makes 13 targets (12 image, 0 LV, 0 block, 1 dom0; the matrix --disk-cache 2 x --disk-io 3 x --iothreads 2): expected at most --max-targets 8" \
    --image --dom0 --disk-cache none,directsync --disk-io native,io_uring,threads --iothreads 0,1 --max-targets 8
refused "--disk-io native with --disk-cache writeback: expected --disk-cache none or directsync" \
    --image --disk-cache none,writeback --disk-io native,io_uring

# what this build can do passes the same probe (a dry run: nothing made)
"$VMDISKCMP" --dry-run --hypervisor libvirt --connect qemu:///system --accel tcg --guest-image "$work/guest.img" \
    --image-dir "$work/img" --size 64M --image --disk-cache none --disk-io native,io_uring,threads --iothreads 0,1 \
    >"$work/stdout" 2>"$work/err" || fail "a matrix this build can run was refused: $(cat "$work/err")"
grep -q "^  image-none-uring-it1 " "$work/stdout" || fail "the dry run does not list image-none-uring-it1"
grep -q "^estimate: 6 target(s)" "$work/stdout" || fail "the dry run gives no estimate line"
[ -z "$(ls "$work/img")" ] || fail "the dry run made images"
exit 0
