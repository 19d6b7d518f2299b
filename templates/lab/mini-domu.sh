#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# vmdiskcmp emulated Xen lab: a tiny PV domU for the lab's self-test (no
# vmdiskcmp involved): the Debian kernel plus a ~1 MB busybox initramfs that
# loads xen-blkfront, writes and reads back a pattern on every xvd disk,
# prints one line per disk on hvc0 and powers off.  Lines: "VDC-DOMU: DISK SIZE_BYTES write=ok|fail read=ok|fail".
#
# usage: mini-domu.sh OUT_DIR   -> OUT_DIR/{vmlinuz,initrd.img}
# Needs apt-get (busybox-static is downloaded, not installed, so the host's
# busybox stays), dpkg-deb, cpio, gzip, the Debian kernel in /boot.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: mini-domu.sh OUT_DIR" >&2; exit 2; }
out=$1
kver=${LAB_KERNEL:-$(ls /boot/vmlinuz-* | sed 's#^/boot/vmlinuz-##' | sort -V | tail -n1)}
mod=/lib/modules/$kver/kernel/drivers/block/xen-blkfront.ko
[ -r "$mod" ] || { echo "mini-domu: $mod missing" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get download -q busybox-static >/dev/null) ||
    { echo "mini-domu: apt-get download busybox-static failed" >&2; exit 1; }
dpkg-deb -x "$work"/busybox-static_*.deb "$work/bb"
r=$work/root
mkdir -p "$r/bin" "$r/dev" "$r/proc" "$r/sys" "$r/lib/modules"
cp "$work/bb/bin/busybox" "$r/bin/busybox"
cp "$mod" "$r/lib/modules/"
cat >"$r/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
insmod /lib/modules/xen-blkfront.ko
sleep 2
for d in /sys/block/xvd*; do
    n=${d##*/}; sz=$(( $(cat $d/size) * 512 ))
    w=fail; r=fail
    pat="vmdiskcmp-lab-$n-$$"
    echo "$pat" | dd of=/dev/$n bs=512 seek=2048 conv=fsync 2>/dev/null && w=ok
    echo 3 > /proc/sys/vm/drop_caches
    [ "$(dd if=/dev/$n bs=512 skip=2048 count=1 2>/dev/null | head -n1)" = "$pat" ] && r=ok
    echo "VDC-DOMU: $n $sz write=$w read=$r" > /dev/hvc0
done
echo "VDC-DOMU: done uptime=$(cut -d' ' -f1 /proc/uptime)" > /dev/hvc0
sync
poweroff -f
EOF
chmod 755 "$r/init"
mkdir -p "$out"
(cd "$r" && find . | cpio -o -H newc --quiet | gzip -9) >"$out/initrd.img"
cp "/boot/vmlinuz-$kver" "$out/vmlinuz"
echo "$out"
