#!/bin/sh
# storage variants lab run at a valid size (issue 29), which also reads back each VBD's negotiated
# ring (issue 30): from /work/lab2 (a clone of main), as root, under the lab lock
set -e
cd /work/lab2
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
    --prepared $b/lab-guest/guest.img --dom0-memory 384 --timeout 7000 -- \
    --lvm --lv-type linear,thin --image --image-alloc sparse,full --runs 2 \
    --guest-memory 128 --size 256M --agent-options "-n 0 --per-char-size 0" --timeout 6000
date -u +"end %FT%TZ"
