#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A raw block device (a zeroed loop device): the seek test over the device
# and the block-size sweep, buffered and O_DIRECT; and the sweep on a
# directory, which removes its file.  ~15 s.
set -eu
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd losetup
. "$top_srcdir/tests/integration/agent-lib.sh"

make_loop 64M
# seeks only on a block device (file tests and sequential tests need a file)
run_agent 0 -d "$LOOPDEV" -r 16 -s 32:4k:2000:3 --seed 3 --json "$SCRATCH/s.json"
j=$SCRATCH/s.json
[ "$(grep -c '"test": ' "$j")" = 1 ] || fail "expected only the seek sample"
[ "$(json_value "$j" seeks failed)" = false ] || fail "seek test failed"
grep -q '"seeks": 2000, "seek_processes": 3' "$j" || fail "seek parameters not recorded"
grep -q '"file_size_mib": 32, "file_size_bytes": 33554432, "chunk_size": 4096' "$j" \
    || fail "size not recorded"
# 10 % of the seeks wrote back a dirtied chunk: the zeroed device changed
[ "$(head -c 33554432 "$LOOPDEV" | tr -d '\0' | wc -c)" -gt 0 ] \
    || fail "no seek update reached the device"

# sweep on the device, buffered then O_DIRECT
for mode in "" --direct; do
    rm -f "$SCRATCH/w.json"     # the agent never overwrites an existing file
    run_agent 0 -d "$LOOPDEV" -s 16 -r 8 --sweep=4k,64k,1m $mode --destroy-data \
        --json "$SCRATCH/w.json"
    n=$(grep -c '"test": "sweep_' "$SCRATCH/w.json")
    [ "$n" = 6 ] || fail "sweep $mode: $n samples, expected 6"
    grep -q '"test": "sweep_read", "block_size": 65536, "value": [0-9]' "$SCRATCH/w.json" \
        || fail "sweep $mode: no 64k read rate"
    grep -q '"bytes": 16777216, "ops": 4096,' "$SCRATCH/w.json" \
        || fail "sweep $mode: 4k pass did not move 16 MiB in 4096 calls"
    grep -q "^ *4k  write " "$SCRATCH/out" || fail "sweep table lacks the 4k row"
done
grep -q '"sweep_direct_io": true' "$SCRATCH/w.json" || fail "--direct not recorded"

# sweep on a directory: the file is removed afterwards
make_tmpfs 32m
run_agent 0 -d "$MNT" -s 8 -r 4 --sweep=512,8k -q --json "$SCRATCH/d.json"
[ "$(grep -c '"failed": false' "$SCRATCH/d.json")" = 4 ] || fail "directory sweep failed"
[ -z "$(ls "$MNT")" ] || fail "sweep left $(ls "$MNT")"
echo "PASS: seeks and sweep on a block device, sweep on a directory"
