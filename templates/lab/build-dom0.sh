#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# vmdiskcmp emulated Xen lab: build (or find in the cache) the dom0 of the lab.
#
# usage: build-dom0.sh CACHE_DIR
#   prints the directory of the built lab on stdout (last line), e.g.
#   CACHE_DIR/dom0-<key>/ holding:
#     xen           the Xen 4.17 hypervisor (gunzipped, a multiboot kernel)
#     vmlinuz       dom0 kernel (the host's Debian kernel)
#     initrd.img    its initramfs (the host's, with virtio_blk)
#     dom0.img      dom0 root filesystem, ext4, raw (made with mke2fs -d, never mounted)
#     versions.txt  package versions installed in dom0 (dpkg-query)
#     sonames.txt   shared-library file names present in dom0 (checked per run)
#     build.log     debootstrap / apt output
# The key is a hash of the recipe (this script, dom0/*, and the lab.conf
# settings that shape dom0: suite, packages, root size), the mirror, the host
# kernel and the candidate versions of the recipe's packages, so a build
# happens only when one of them changed (not when a timeout or the outer
# QEMU settings change).  The freshly built vmdiskcmp binaries
# and the prepared guest image are NOT part of dom0: run-lab.sh hands them in
# per run on an input disk, so changing them never reruns debootstrap.
#
# Needs root, debootstrap, apt-get, mke2fs (e2fsprogs >= 1.43 for -d), gzip.
# Exit status: 0 built or found; 1 a build stage failed (one line names it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lab.conf"

die() { echo "vmdiskcmp lab: build: $*" >&2; exit 1; }
[ $# -eq 1 ] || { echo "usage: build-dom0.sh CACHE_DIR" >&2; exit 2; }
cache=$1
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, chroot)"
for c in debootstrap apt-get apt-cache dpkg-deb mke2fs gzip sha256sum; do
    command -v "$c" >/dev/null || die "missing tool: $c"
done

# ---- the mirror: the host's configured Debian mirror (no other network) ----
# apt's lists are needed (mirror URIs, candidate versions, apt-get download)
if ! ls /var/lib/apt/lists/*_dists_"${LAB_SUITE}"_*Packages* >/dev/null 2>&1; then
    apt-get -o DPkg::Lock::Timeout=600 -q update >&2 || die "apt-get update failed"
fi
mirror=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null |
         awk -v s="$LAB_SUITE" '$2 == s && $1 !~ /security/ { print $1; exit }')
[ -n "$mirror" ] || die "no apt source for suite $LAB_SUITE in /etc/apt/sources.list*"
security=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null |
           awk -v s="$LAB_SUITE-security" '$2 == s { print $1; exit }')

# the dom0 kernel: Debian's installed kernel (linux-image-amd64), newest
# first, not necessarily the running one; LAB_KERNEL=VERSION picks one
kver=${LAB_KERNEL:-$(ls /boot/vmlinuz-* 2>/dev/null | sed 's#^/boot/vmlinuz-##' | sort -V | tail -n1)}
vmlinuz=/boot/vmlinuz-$kver
initrd=/boot/initrd.img-$kver
[ -r "$vmlinuz" ] && [ -r "$initrd" ] && [ -d "/lib/modules/$kver" ] ||
    die "host kernel $kver: need $vmlinuz, $initrd and /lib/modules/$kver (linux-image-amd64)"

# ---- cache key ---------------------------------------------------------------
pkgs=$(echo $LAB_PACKAGES | tr ' ' '\n' | sort -u)
key=$( {
    (cd "$here" && sha256sum build-dom0.sh dom0/*)
    echo "packages=$pkgs root_mib=$LAB_ROOT_MIB"
    echo "suite=$LAB_SUITE mirror=$mirror security=$security kernel=$kver"
    sha256sum "$vmlinuz" "$initrd"
    for p in $pkgs xen-hypervisor-4.17-amd64; do
        echo "$p $(apt-cache policy "$p" 2>/dev/null | awk '/Candidate:/ { print $2 }')"
    done
} | sha256sum | cut -c1-16)
out=$cache/dom0-$key
if [ -f "$out/complete" ]; then
    echo "vmdiskcmp lab: build: cache hit $out" >&2
    echo "$out"
    exit 0
fi

mkdir -p "$cache"
work=$(mktemp -d "$cache/.build-XXXXXX")
root=$work/root
log=$work/build.log
stage=start
cleanup() {
    # debootstrap mounts proc/sys inside the target during its second stage;
    # unmount only those, only if still mounted, then remove the work dir
    for m in "$root/proc" "$root/sys" "$root/dev/pts" "$root/dev"; do
        if mountpoint -q "$m" 2>/dev/null; then umount -l "$m" || true; fi
    done
    rm -rf --one-file-system "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
fail_stage() {
    # keep the logs of a failed build beside the cache for a post-mortem
    cp "$log" "$cache/build-failed.log" 2>/dev/null
    cp "$root/debootstrap/debootstrap.log" "$cache/build-failed-debootstrap.log" 2>/dev/null
    echo "vmdiskcmp lab: build: stage '$stage' failed (logs: $cache/build-failed*.log; tail follows)" >&2
    tail -n 25 "$log" >&2
    exit 1
}
t0=$(date +%s)
step() { stage=$1; echo "vmdiskcmp lab: build: $1 ($(( $(date +%s) - t0 )) s)" >&2; }

# ---- 1. debootstrap, two stages so no package starts a daemon on the host ---
step "debootstrap $LAB_SUITE from $mirror"
timeout 1200 debootstrap --foreign --variant=minbase --arch=amd64 \
    --include="$(echo $pkgs | tr ' ' ',')" \
    "$LAB_SUITE" "$root" "$mirror" >>"$log" 2>&1 || fail_stage
mkdir -p "$root/usr/sbin"
printf '#!/bin/sh\n# vmdiskcmp lab build: start no service in the chroot\nexit 101\n' \
    >"$root/usr/sbin/policy-rc.d"
chmod 755 "$root/usr/sbin/policy-rc.d"
step "debootstrap second stage"
timeout 1200 chroot "$root" /debootstrap/debootstrap --second-stage >>"$log" 2>&1 || fail_stage

# ---- 2. security updates, so dom0's Xen matches the host's libxen ------------
if [ -n "$security" ]; then
    step "apt upgrade from $security"
    cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror $LAB_SUITE main
deb $mirror $LAB_SUITE-updates main
deb $security $LAB_SUITE-security main
EOF
    timeout 900 chroot "$root" apt-get -q update >>"$log" 2>&1 || fail_stage
    DEBIAN_FRONTEND=noninteractive timeout 1200 chroot "$root" \
        apt-get -q -y -o Dpkg::Options::=--force-confold dist-upgrade >>"$log" 2>&1 || fail_stage
    chroot "$root" apt-get clean
fi
rm -f "$root/usr/sbin/policy-rc.d"
for m in "$root/proc" "$root/sys"; do
    if mountpoint -q "$m"; then umount "$m"; fi
done

# ---- 3. the hypervisor, pinned to the xen-utils version now in dom0 ----------
step "hypervisor"
xver=$(chroot "$root" dpkg-query -W -f '${Version}' xen-utils-4.17) || fail_stage
mkdir -p "$work/hv"
(cd "$work/hv" && timeout 600 apt-get download "xen-hypervisor-4.17-amd64=$xver") >>"$log" 2>&1 || fail_stage
dpkg-deb -x "$work"/hv/xen-hypervisor-4.17-amd64_*.deb "$work/hv/x" >>"$log" 2>&1 || fail_stage
xgz=$(ls "$work"/hv/x/boot/xen-4.17*-amd64.gz 2>/dev/null | head -n1)
[ -n "$xgz" ] || { echo "no boot/xen-*.gz in the hypervisor package" >>"$log"; fail_stage; }
gzip -dc "$xgz" >"$work/xen"

# ---- 4. kernel, modules and the lab's own files ------------------------------
step "dom0 configuration"
cp "$vmlinuz" "$work/vmlinuz"
cp "$initrd" "$work/initrd.img"
mkdir -p "$root/lib/modules"
cp -a "/lib/modules/$kver" "$root/lib/modules/"
echo vdclab >"$root/etc/hostname"
printf '127.0.0.1 localhost\n127.0.1.1 vdclab\n' >"$root/etc/hosts"
printf '/dev/vda / ext4 rw,errors=remount-ro 0 1\n' >"$root/etc/fstab"
chroot "$root" passwd -d root >>"$log" 2>&1 || fail_stage
# libvirtd's QEMU driver (a dependency of libvirt-daemon) refuses to start,
# and takes the whole daemon down, without the user libvirt-daemon-system
# would create; that package drags in polkit and D-Bus, so create it here
chroot "$root" sh -c 'getent group kvm >/dev/null || groupadd -r kvm
    getent passwd libvirt-qemu >/dev/null ||
    useradd -r -g kvm -d /var/lib/libvirt -s /usr/sbin/nologin libvirt-qemu' >>"$log" 2>&1 || fail_stage
# guest consoles go to files (xl console wants a TTY): the job collects them
sed -i '/^XENCONSOLED_ARGS=/d' "$root/etc/default/xen" 2>/dev/null || true
echo 'XENCONSOLED_ARGS="--log=guest --log-dir=/var/log/xen/console"' >>"$root/etc/default/xen"
mkdir -p "$root/var/log/xen/console"   # xenconsoled does not create it
install -m 755 "$here/dom0/vdc-lab-job" "$root/usr/local/sbin/vdc-lab-job"
install -m 644 "$here/dom0/vdc-lab-job.service" "$root/etc/systemd/system/vdc-lab-job.service"
mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
ln -sf /etc/systemd/system/vdc-lab-job.service \
    "$root/etc/systemd/system/multi-user.target.wants/vdc-lab-job.service"
# nothing waits for a network or a login on the emulated console
for u in getty@tty1.service serial-getty@hvc0.service apt-daily.timer \
         apt-daily-upgrade.timer e2scrub_all.timer e2scrub_reap.service \
         fstrim.timer systemd-binfmt.service getty-static.service; do
    ln -sf /dev/null "$root/etc/systemd/system/$u"
done
chroot "$root" dpkg-query -W -f '${Package} ${Version}\n' >"$work/versions.txt"
(cd "$root" && find usr/lib lib -name '*.so*' 2>/dev/null | sed 's#.*/##' | sort -u) >"$work/sonames.txt"

# ---- 5. the image, without mounting -------------------------------------------
step "mke2fs -d dom0.img"
rm -rf "$root/var/cache/apt/archives"/*.deb "$root/debootstrap"
mke2fs -q -F -t ext4 -L vdclab-root -d "$root" "$work/dom0.img" "${LAB_ROOT_MIB}M" >>"$log" 2>&1 || fail_stage
rm -rf --one-file-system "$root" "$work/hv"
echo "key=$key built=$(date -u +%FT%TZ) seconds=$(( $(date +%s) - t0 )) xen=$xver kernel=$kver mirror=$mirror" \
    >"$work/complete"
trap - EXIT
rm -rf "$out"
mv "$work" "$out"
# older builds (other keys) only take space: ~1 GiB each
for old in "$cache"/dom0-*; do
    [ "$old" = "$out" ] || rm -rf --one-file-system "$old"
done
step "done: $out"
echo "$out"
