#!/bin/sh
# density lab run (issue 28): from /work/ci-final (main), as root, under the lab lock
set -e
cd /work/ci-final
b=_build
export LIBGUESTFS_BACKEND=direct LIBGUESTFS_BACKEND_SETTINGS=force_tcg
mkdir -p $b/density-guest
rm -f $b/density-guest/guest.img*
timeout 1200 $b/src/vmdiskcmp prepare -q --guest-image $b/guest-template/guest.img \
    --agent $b/guest-agent/vmdiskcmp-agent --runner $b/guest-agent/vmdiskcmp-runner \
    --cache-dir $b/prepare-cache --out $b/density-guest/guest.img >/dev/null
date -u +"start %FT%TZ"
VDC_LAB_DIR=templates/lab flock -w 3600 /work/locks/lab.lock \
  /usr/bin/time -v $b/src/vmdiskcmp lab run --cache-dir $b/lab-cache --out "$1" \
    --prepared $b/density-guest/guest.img --dom0-memory 384 --timeout 5400 \
    --file templates/lab/randread-4k-qd32.fio -- \
    --guests 1,3 --image --lvm --runs 3 --guest-memory 128 --tests workloads \
    --workload /lab/in/files/randread-4k-qd32.fio --timeout 3600
date -u +"end %FT%TZ"
