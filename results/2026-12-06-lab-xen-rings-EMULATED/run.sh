#!/bin/sh
# Xen rings and blkback parameters in the lab (issue 30): from /work/lab3 (a clone of main), as root,
# under the lab lock. Job 1: image through blkback and through qdisk, and an LV: each VBD's
# negotiated ring read back. Job 2 (xen-blkback is loaded by job 1's first VBD): --blkback-max-queues
# set, read back and restored.
set -e
cd /work/lab3
b=_build
export LIBGUESTFS_BACKEND=direct LIBGUESTFS_BACKEND_SETTINGS=force_tcg
mkdir -p $b/lab-guest
rm -f $b/lab-guest/guest.img*
timeout 1200 $b/src/vmdiskcmp prepare -q --guest-image /work/ci-final/_build/guest-template/guest.img \
    --agent $b/guest-agent/vmdiskcmp-agent --runner $b/guest-agent/vmdiskcmp-runner \
    --cache-dir $b/prepare-cache --out $b/lab-guest/guest.img >/dev/null
date -u +"start %FT%TZ"
VDC_LAB_DIR=templates/lab flock -w 3600 /work/locks/lab.lock \
  /usr/bin/time -v $b/src/vmdiskcmp lab run --cache-dir /work/ci-final/_build/lab-cache --out "$1" \
    --prepared $b/lab-guest/guest.img --dom0-memory 384 --timeout 3600 \
    --file templates/lab/randread-4k-qd32.fio -- \
    --image --image-backend auto,qdisk --lvm --runs 1 --seed 42 --guest-memory 128 \
    --tests workloads --workload /lab/in/files/randread-4k-qd32.fio --timeout 1200 \
  --then --image --lvm --runs 1 --seed 43 --guest-memory 128 \
    --tests workloads --workload /lab/in/files/randread-4k-qd32.fio --blkback-max-queues 1 --timeout 1200
date -u +"end %FT%TZ"
