#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Benchmark (not a test): the requests the device sees.  bonnie++ 2.00a and
# vmdiskcmp-agent, alternating, each on a fresh ext4 over a direct-I/O loop
# device (an image in /tmp: the machine's disk) in a memory cgroup of
# SIZE/8, caches dropped, block tests only (-n 0, no per-char); per run the
# loop device's /sys/block/loopN/stat deltas (read and write requests,
# merges, sectors, ticks) beside the CSV's block rates: the same requests
# mean the two tools ask the device for the same I/O, whatever their
# rates.
# Usage (root): tests/bench/block-requests.sh [SIZE_MIB] [ROUNDS]
#   (defaults 2048 and 2); env VDC_AGENT (default
#   ./guest-agent/vmdiskcmp-agent), BONNIE.
set -eu
A=${VDC_AGENT:-./guest-agent/vmdiskcmp-agent}
B=${BONNIE:-$(command -v bonnie++ || echo /usr/sbin/bonnie++)}
size=${1:-2048}; rounds=${2:-2}
for v in "SIZE_MIB $size" "ROUNDS $rounds"; do
    case ${v#* } in ''|*[!0-9]*|0*) echo "bench: ${v% *} '${v#* }': expected a whole number > 0" >&2; exit 2 ;; esac
done
[ "$(id -u)" = 0 ] || { echo "bench: run as root" >&2; exit 2; }
if [ -z "${VDC_PRIVATE_MOUNTS:-}" ] && command -v unshare >/dev/null 2>&1; then
    VDC_PRIVATE_MOUNTS=1 exec unshare -m --propagation private sh "$0" "$@"
fi
work=$(mktemp -d /tmp/vdc-bench-blkreq.XXXXXX); img=$work/disk.img
truncate -s $((size + 1024))M $img
dev=$(losetup -f --show --direct-io=on $img); exec 9<$dev
n=${dev#/dev/}
mkdir $work/mnt
cg=/sys/fs/cgroup/memory$(sed -n 's/^[0-9]*:memory:\(.*\)$/\1/p' /proc/self/cgroup)/vdc-bench-blkreq-$$
mkdir $cg; echo $((size / 8 * 1048576)) > $cg/memory.limit_in_bytes
cleanup() { umount $work/mnt 2>/dev/null || true; exec 9<&-; losetup -d $dev || true; rmdir $cg || true; rm -rf $work; }
trap cleanup EXIT
inc() { sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh $cg "$@"; }
for r in $(seq 1 $rounds); do
  for tool in bonnie agent; do
    umount $work/mnt 2>/dev/null || true
    mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 $dev; mount $dev $work/mnt
    sync; echo 3 > /proc/sys/vm/drop_caches
    s0=$(cat /sys/block/$n/stat)
    if [ $tool = bonnie ]; then inc "$B" -d $work/mnt -s $size -r $((size/2)) -n 0 -f -u root -q -z 1 2>/dev/null | tail -1 > $work/csv
    else inc $A -d $work/mnt -s $size -r $((size/2)) -n 0 --per-char-size 0 -q --seed 1 --csv 2>/dev/null > $work/csv; fi
    s1=$(cat /sys/block/$n/stat)
    echo "$tool r$r $(echo $s0 $s1 | awk '{n=NF/2; printf "reads %d rmerge %d rsect %d rticks %d writes %d wmerge %d wsect %d", $(n+1)-$1, $(n+2)-$2, $(n+3)-$3, $(n+4)-$4, $(n+5)-$5, $(n+6)-$6, $(n+7)-$7}') csv $(cut -d, -f12-19 $work/csv)"
  done
done
