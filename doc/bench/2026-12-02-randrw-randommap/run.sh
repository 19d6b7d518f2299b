set -eu
out=/work/notes/rwexp2; mkdir -p $out
img=/dev/shm/rwexp.img
dd if=/dev/urandom of=$img bs=1M count=1024 status=none
dev=$(losetup --find --show --direct-io=on $img)
trap 'losetup -d $dev; rm -f $img' EXIT
job=/work/main/templates/workloads/randrw-70-30-8k-qd16.fio
for r in 1 2 3 4; do
  taskset -c 1 fio --filename=$dev --output-format=json --output=$out/fio-def-$r.json $job
  taskset -c 1 /tmp/agent-new -d $dev --job $job --seed $r -q --json $out/agentnew-$r.json > /dev/null 2>&1
  taskset -c 1 fio --filename=$dev --norandommap --output-format=json --output=$out/fio-norm-$r.json $job
  taskset -c 1 /tmp/agent-old -d $dev --job $job --seed $r -q --json $out/agentold-$r.json > /dev/null 2>&1
  echo round $r done
done
