#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Build the default vmdiskcmp guest template (doc/guest-template.md):
#   OUT/guest.img           raw ext4 root filesystem (whole disk, label vdcroot),
#                           made without mounting (mke2fs -d): static busybox,
#                           mke2fs + its shared libraries, busybox init
#   OUT/vmlinuz             the host's Debian kernel (direct kernel boot)
#   OUT/initrd.img          a small initramfs: busybox, the block and ext4
#                           modules (xen-blkfront, virtio_blk, virtio_scsi,
#                           sd_mod, virtio_pci, ext4 and their dependencies);
#                           mounts the root read-only
#   OUT/guest.img.manifest  what the controller needs to boot it (INI), with the
#                           least memory the guest runs in (min_memory_mib)
# It boots as a Xen PV domU (root xvda, console hvc0) and under KVM/QEMU
# (root vda, console ttyS0).  Reproducible: the same inputs give the same
# bytes (fixed timestamps, UUID and hash seed).  Cached: rerunning with the same inputs (this
# script, kernel, busybox-static and e2fsprogs versions) does nothing.
#
# usage: build-template.sh OUT_DIR      env: KVER (default: newest /boot/vmlinuz-*)
set -eu

out=${1:?usage: build-template.sh OUT_DIR}
here=$(cd "$(dirname "$0")" && pwd)
kver=${KVER:-$(ls /boot/vmlinuz-* 2>/dev/null | sed 's|/boot/vmlinuz-||' | sort -V | tail -1)}
[ -n "$kver" ] && [ -f "/boot/vmlinuz-$kver" ] || { echo "build-template: no kernel in /boot (install linux-image-amd64)" >&2; exit 1; }
[ -d "/lib/modules/$kver" ] || { echo "build-template: /lib/modules/$kver missing" >&2; exit 1; }
for c in mke2fs debugfs cpio gzip dpkg-deb apt-get modprobe flock; do
    command -v "$c" >/dev/null 2>&1 || [ -x "/sbin/$c" ] || [ -x "/usr/sbin/$c" ] ||
        { echo "build-template: needs $c" >&2; exit 1; }
done
export PATH="$PATH:/sbin:/usr/sbin"

# one builder at a time per OUT (tests and the controller's test share it)
mkdir -p "$out"
exec 9>"$out/.lock"
flock 9

bb_version=$(apt-cache policy busybox-static 2>/dev/null | sed -n 's/ *Candidate: //p')
e2_version=$(dpkg-query -W -f='${Version}' e2fsprogs)
stamp="script=$(sha256sum "$0" | cut -c1-64) kernel=$kver busybox-static=$bb_version e2fsprogs=$e2_version"
if [ -f "$out/guest.img.manifest" ] && [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$stamp" ]; then
    echo "build-template: $out is up to date ($kver)"
    exit 0
fi

mkdir -p "$out"
work=$(mktemp -d "$out/.work.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# ---- static busybox: downloaded and extracted, never installed --------------
(cd "$work" && apt-get download busybox-static >/dev/null 2>&1) ||
    { apt-get -o DPkg::Lock::Timeout=600 update >/dev/null && (cd "$work" && apt-get download busybox-static >/dev/null 2>&1); } ||
    { echo "build-template: apt-get download busybox-static failed" >&2; exit 1; }
dpkg-deb -x "$work"/busybox-static_*.deb "$work/bb"
bb="$work/bb/bin/busybox"
[ -x "$bb" ] || { echo "build-template: no busybox in the busybox-static package" >&2; exit 1; }

# ---- initramfs ---------------------------------------------------------------
ird="$work/initrd"
mkdir -p "$ird/bin" "$ird/dev" "$ird/proc" "$ird/sys" "$ird/newroot" "$ird/lib/modules"
cp "$bb" "$ird/bin/busybox"
ln -s busybox "$ird/bin/sh"
: > "$ird/modules.order"
for m in crc32c_generic crc32c-intel ext4 virtio_pci virtio_blk virtio_scsi sd_mod xen-blkfront; do
    modprobe -S "$kver" --show-depends "$m" 2>/dev/null | sed -n 's/^insmod \([^ ]*\).*/\1/p'
done | awk '!seen[$0]++' | while read -r ko; do
    name=$(basename "$ko")
    case "$ko" in
    *.xz) xz -dc "$ko" > "$ird/lib/modules/${name%.xz}"; name=${name%.xz} ;;
    *.zst) zstd -qdc "$ko" > "$ird/lib/modules/${name%.zst}"; name=${name%.zst} ;;
    *) cp "$ko" "$ird/lib/modules/$name" ;;
    esac
    echo "$name" >> "$ird/modules.order"
done
cp "$here/initramfs-init" "$ird/init"
chmod 755 "$ird/init"
find "$ird" -exec touch -h -d @0 {} +
(cd "$ird" && find . | LC_ALL=C sort | cpio --quiet -o -H newc -R 0:0 --reproducible | gzip -9n) > "$work/initrd.img"

# ---- root filesystem -------------------------------------------------------------
root="$work/root"
mkdir -p "$root/bin" "$root/sbin" "$root/etc/init.d" "$root/proc" "$root/sys" "$root/dev" \
         "$root/tmp" "$root/run" "$root/mnt" "$root/root" "$root/usr/lib/vmdiskcmp" \
         "$root/var/log/vmdiskcmp" "$root/lib64" "$root/lib/x86_64-linux-gnu"
cp "$bb" "$root/bin/busybox"
for a in $("$bb" --list); do
    case "$a" in busybox) ;; init|halt|poweroff|reboot|switch_root|mdev|modprobe|insmod) ln -sf ../bin/busybox "$root/sbin/$a" ;; *) ln -sf busybox "$root/bin/$a" ;; esac
done
# mke2fs and its shared libraries (mkfs.ext4/ext3/ext2 are mke2fs by argv[0])
mke2fs=$(command -v mke2fs)
cp "$mke2fs" "$root/sbin/mke2fs"
for t in ext2 ext3 ext4; do ln -sf mke2fs "$root/sbin/mkfs.$t"; done
ldd "$mke2fs" | awk '/=> \//{print $3} /^\t\/lib64/{print $1}' | while read -r lib; do
    case "$lib" in
    /lib64/*) cp -L "$lib" "$root/lib64/" ;;
    *) cp -L "$lib" "$root/lib/x86_64-linux-gnu/" ;;
    esac
done
[ -f /etc/mke2fs.conf ] && cp /etc/mke2fs.conf "$root/etc/"
cp "$here/inittab" "$root/etc/inittab"
cp "$here/rcS" "$root/etc/init.d/rcS"
chmod 755 "$root/etc/init.d/rcS"
echo vdcguest > "$root/etc/hostname"
printf 'root:x:0:0:root:/root:/bin/sh\n' > "$root/etc/passwd"
printf 'root:x:0:\n' > "$root/etc/group"
# The least memory this guest boots and runs the agent in as a Xen PV domU
# with the main job's five disks (root, three targets, control), measured
# in the emulated lab (doc/guest-template.md, "Memory"): Debian's kernel
# loads as a 58 MiB image (libxc: "segment kernel too large" at 64 MiB; at
# 80 MiB the initramfs no longer fits beside it), and at 96 MiB the kernel
# leaves 36 MiB, in which blkfront's rings (persistent grants, a bounce
# buffer per disk) did not finish connecting the disks: xenbus "Waiting for
# devices" for 270 s, then the OOM killer took the initramfs's insmod and
# the kernel panicked ("System is deadlocked on memory"); 128 MiB boots to
# userspace in 12-18 s.  The plan refuses a --guest-memory under it (the
# manifest's min_memory_mib).
min_memory=128
# the boot facts the manifest states, in the image too: a change of them
# changes the image's bytes, so a guest prepared before is not taken for it
# (the prepare cache is keyed by the image)
cmdline_xen="console=hvc0 root=/dev/xvda ro quiet"
cmdline_kvm="console=ttyS0 root=/dev/vda ro quiet"
{ printf 'vmdiskcmp guest template (templates/guest/build-template.sh), kernel %s\n' "$kver"
  printf 'cmdline_xen=%s\ncmdline_kvm=%s\nmin_memory_mib=%s\n' "$cmdline_xen" "$cmdline_kvm" "$min_memory"
} > "$root/etc/vmdiskcmp-template"

# reproducible: fixed timestamps, UUID and hash seed derived from the inputs,
# so the same inputs give the same image (and the same prepare cache key)
find "$root" -exec touch -h -d @0 {} +
uuid=$(printf '%s' "$stamp" | sha256sum | sed 's/^\(.\{8\}\)\(.\{4\}\)\(.\{4\}\)\(.\{4\}\)\(.\{12\}\).*/\1-\2-\3-\4-\5/')
rm -f "$work/guest.img"
E2FSPROGS_FAKE_TIME=1 mke2fs -q -t ext4 -L vdcroot -U "$uuid" \
    -E root_owner=0:0,hash_seed="$uuid" -O ^has_journal -d "$root" "$work/guest.img" 64M >/dev/null
# mke2fs -d copies each file's ctime, which touch cannot set: zero them
(cd "$root" && find . | sed 's|^\.||; s|^$|/|' | while read -r f; do echo "sif \"$f\" ctime 0"; done) \
    > "$work/ctime.debugfs"
E2FSPROGS_FAKE_TIME=1 debugfs -w -f "$work/ctime.debugfs" "$work/guest.img" >/dev/null 2>&1 ||
    { echo "build-template: debugfs could not reset timestamps" >&2; exit 1; }

cp "/boot/vmlinuz-$kver" "$work/vmlinuz"
cat > "$work/guest.img.manifest" <<EOF
# vmdiskcmp guest template manifest (doc/guest-template.md)
[template]
format=1
builder=templates/guest/build-template.sh
kernel_version=$kver
busybox_static=$bb_version
e2fsprogs=$e2_version
init=busybox

[boot]
kernel=vmlinuz
initrd=initrd.img
cmdline_xen=$cmdline_xen
cmdline_kvm=$cmdline_kvm
root_mode=ro
min_memory_mib=$min_memory
EOF
for f in guest.img vmlinuz initrd.img guest.img.manifest; do mv -f "$work/$f" "$out/$f"; done
echo "$stamp" > "$out/.stamp"
echo "build-template: built $out (kernel $kver, busybox-static $bb_version)"
