#!/bin/sh
# The README's first command, interim version (issue 2): until the main job
# (`vmdiskcmp --image --lvm --dom0` in the emulated Xen lab) exists, this
# installs the dependencies, builds, and runs the guest agent once on a
# scratch ext4 filesystem, printing its bonnie++-style table.
#
# Measurement set-up (doc/performance.md, MACHINE-NOTES "Measuring disks
# here"): a 2 GiB sparse image on a loop device with --direct-io=on, ext4,
# mounted; the agent sized for 256 MiB of RAM (-r 256: 512 MiB test file)
# inside a memory cgroup limited to 256 MiB, page cache dropped before each
# test.  Everything is torn down on exit, even on SIGINT.
# Result JSON: results/agent-DATE.json.  Run as root.  Takes ~1 minute.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
[ "$(id -u)" = 0 ] || { echo "main-job.sh: run as root" >&2; exit 2; }
# Mount in a private mount namespace: a namespace someone else creates
# meanwhile (libvirt starts each QEMU in one) would otherwise copy our mount
# and keep the loop device busy after we unmount it.
if [ -z "${VDC_PRIVATE_MOUNTS:-}" ] && command -v unshare >/dev/null 2>&1; then
    VDC_PRIVATE_MOUNTS=1 exec unshare -m --propagation private sh "$top/scripts/main-job.sh" "$@"
fi

sh scripts/install-deps.sh
[ -x configure ] || ./autogen.sh
mkdir -p _build
(cd _build && { [ -f Makefile ] || ../configure; } && make -j"$(nproc)")
agent=$top/_build/guest-agent/vmdiskcmp-agent

work=$(mktemp -d /tmp/vdc-main.XXXXXX)
img=$work/disk.img
dev= mnt= cg=
cleanup() {
    trap - EXIT INT TERM
    [ -n "$mnt" ] && umount "$mnt" 2>/dev/null || true
    # detach only if the (shared) loop device still backs our image
    [ -n "$dev" ] && [ "$(losetup -n -O BACK-FILE "$dev" 2>/dev/null)" = "$img" ] \
        && losetup -d "$dev" 2>/dev/null || true
    [ -n "$cg" ] && rmdir "$cg" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT
trap 'cleanup; exit 130' INT TERM

truncate -s 2G "$img"
dev=$(losetup -f --show --direct-io=on "$img")
mkfs.ext4 -q -F "$dev"
mkdir "$work/mnt"
mount "$dev" "$work/mnt"
mnt=$work/mnt

# memory cgroup (v1 here, v2 elsewhere) so the page cache cannot hold the file
limit=$((256 * 1024 * 1024))
v1=/sys/fs/cgroup/memory$(sed -n 's/^[0-9]*:memory:\(.*\)$/\1/p' /proc/self/cgroup)
if [ -w "$v1" ] && mkdir "$v1/vdc-main-$$" 2>/dev/null; then
    cg=$v1/vdc-main-$$
    echo "$limit" > "$cg/memory.limit_in_bytes"
elif [ -f /sys/fs/cgroup/cgroup.controllers ] && mkdir "/sys/fs/cgroup/vdc-main-$$" 2>/dev/null; then
    cg=/sys/fs/cgroup/vdc-main-$$
    echo "$limit" > "$cg/memory.max"
else
    echo "main-job.sh: no memory cgroup: the page cache may inflate the numbers" >&2
fi

mkdir -p results
json=$top/results/agent-$(date -u +%Y%m%dT%H%M%SZ).json
sh -c '[ -z "$1" ] || echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$cg" \
    "$agent" -d "$mnt" -r 256 -n 4 --drop-caches --target scratch-ext4 \
    --json "$json"
echo "main-job.sh: result JSON in $json"
