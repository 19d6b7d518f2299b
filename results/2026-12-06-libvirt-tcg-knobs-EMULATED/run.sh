#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The 8-target QEMU knob matrix under libvirt + QEMU TCG on the 2-core build
# machine (no device-mapper here: the LV is stood in for by block devices,
# loop devices over sparse files in a scratch folder, one per variant).
# Run as root from the build folder (_build): sh ../results/THIS/run.sh
set -e
out=$(cd "$(dirname "$0")" && pwd)/result
scratch=$(mktemp -d /tmp/vdc-knobs.XXXXXX)
chmod 755 "$scratch"; mkdir -m 755 "$scratch/img"
blocks=
for i in 1 2 3 4; do
    truncate -s 48M "$scratch/blk$i.img"
    blocks="$blocks --block $(losetup -f --show "$scratch/blk$i.img")"
done
trap 'for b in $blocks; do case $b in /dev/*) losetup -d $b;; esac; done; rm -rf "$scratch"' EXIT
export LIBGUESTFS_BACKEND=direct LIBGUESTFS_BACKEND_SETTINGS=force_tcg
set -x
./src/vmdiskcmp --hypervisor libvirt --connect qemu:///system --accel tcg \
    --image $blocks --destroy-data \
    --disk-cache none,writeback --disk-io threads,io_uring \
    --runs 2 --seed 42 --size 8M --guest-memory 256 --agent-ram 4 \
    --agent-options "-n 0 --per-char=stdio" \
    --guest-image guest-template/guest.img --image-dir "$scratch/img" \
    --timeout 1800 --out "$out"
