# randrw 8k QD16 on a RAM-backed direct-I/O loop device, tools pinned to
# CPU 1, unbound workqueues (the loop worker) confined to CPU 0; restored
set -eu
out=/work/notes/wqexp; mkdir -p $out
mask=/sys/devices/virtual/workqueue/cpumask
old=$(cat $mask)
img=/dev/shm/wqexp.img
dd if=/dev/urandom of=$img bs=1M count=1024 status=none
dev=$(losetup --find --show --direct-io=on $img)
trap 'echo $old > $mask; losetup -d $dev; rm -f $img' EXIT
echo 1 > $mask
echo "cpumask $(cat $mask) (was $old)"
job=/work/main/templates/workloads/randrw-70-30-8k-qd16.fio
for r in 1 2 3 4; do
  if [ $((r % 2)) = 1 ]; then
    taskset -c 1 fio --filename=$dev --output-format=json --output=$out/fio-$r.json $job
    taskset -c 1 /tmp/agent-new -d $dev --job $job --seed $r -q --json $out/agent-$r.json > /dev/null 2>&1
  else
    taskset -c 1 /tmp/agent-new -d $dev --job $job --seed $r -q --json $out/agent-$r.json > /dev/null 2>&1
    taskset -c 1 fio --filename=$dev --output-format=json --output=$out/fio-$r.json $job
  fi
  echo round $r done
done
