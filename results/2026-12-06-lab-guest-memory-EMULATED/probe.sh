#!/bin/sh
# probe: guest min memory in PV, dom0 memory 384
cd /work/wt/verdict-job/_build
ao="-n 0 -f --per-char-size 0"
cl="console=hvc0 root=/dev/xvda ro loglevel=7"
exec flock /work/locks/lab.lock src/vmdiskcmp lab run --out /tmp/vj/probe-out --prepared probe/guest.img --timeout 3000 --dom0-memory 384 -- \
  --image --lvm --runs 1 --seed 1 --guest-memory 64 --cmdline "$cl swiotlb=noforce" --size 16M --agent-options "$ao" --timeout 300 \
  --then --image --lvm --runs 1 --seed 1 --guest-memory 80 --cmdline "$cl swiotlb=noforce" --size 16M --agent-options "$ao" --timeout 300 \
  --then --image --lvm --runs 1 --seed 1 --guest-memory 96 --cmdline "$cl" --size 16M --agent-options "$ao" --timeout 300 \
  --then --image --image-cache host,none --lvm --runs 1 --seed 1 --guest-memory 96 --cmdline "$cl swiotlb=noforce" --size 192M --agent-options "-n 0 --per-char-size 0" --timeout 1200 \
  --then --dom0 --runs 1 --seed 1 --dom0-size 256M --agent-options "-n 0 -f --per-char-size 0" --timeout 1200
