#!/bin/sh
# thin pool use after the runs, then a density level's host cost (blkback found by domid and
# vdev): one lab boot, two jobs; from /work/wt/h4 (branch h4), as root, under the lab lock.
# usage: run.sh OUT_DIR LAB_TIMEOUT_S
set -e
cd /work/wt/h4
b=_build
export LIBGUESTFS_BACKEND=direct LIBGUESTFS_BACKEND_SETTINGS=force_tcg LIBGUESTFS_CACHEDIR=$PWD/$b/lab-guestfs-cache
mkdir -p $b/lab-guestfs-cache $b/lab-guest
sh templates/guest/build-template.sh $b/guest-template >/dev/null
rm -f $b/lab-guest/guest.img*
timeout 1200 $b/src/vmdiskcmp prepare -q --guest-image $b/guest-template/guest.img \
    --agent $b/guest-agent/vmdiskcmp-agent --runner $b/guest-agent/vmdiskcmp-runner \
    --cache-dir $b/prepare-cache --out $b/lab-guest/guest.img >/dev/null
VDC_LAB_DIR=templates/lab timeout 2400 $b/src/vmdiskcmp lab build --cache-dir $b/lab-cache
date -u +"start %FT%TZ"
VDC_LAB_DIR=templates/lab flock -w 300 /work/locks/lab.lock \
  /usr/bin/time -v $b/src/vmdiskcmp lab run --cache-dir $b/lab-cache --out "$1" \
    --prepared $b/lab-guest/guest.img --dom0-memory 384 --timeout "$2" \
    --file templates/lab/randread-4k-qd32.fio -- \
    --lvm --lv-type thin --runs 2 --guest-memory 128 --size 32M \
    --agent-options "-n 0 --per-char-size 0" --timeout 1200 \
    --then --guests 2 --image --lvm --runs 1 --guest-memory 128 --tests workloads \
    --workload /lab/in/files/randread-4k-qd32.fio --timeout 1800
date -u +"end %FT%TZ"
