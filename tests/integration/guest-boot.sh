#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The runner end to end, without libvirt: boots the prepared guest with
# plain qemu-system-x86_64 -accel tcg (direct kernel boot, root read-only on
# vda) with a scratch data disk (vdb) and a control disk (vdc, last) whose
# job names two targets: "data" on vdb and "ghost" on vdz, a disk that does
# not exist.  Checks the result frame comes back (read as a plain file,
# validated: checksums, version, nonce) with status failed overall, "data"
# ok with valid agent JSON (format vmdiskcmp-result, its target, the job's
# seed, samples), "ghost" failed naming the missing disk, the runner log,
# the runner's heartbeat in the progress block (beats beyond its events:
# it beat while waiting for vdz), and that a wrong nonce is refused.  Run time here: about 1-2 minutes
# (prepare is a cache hit after the first run; one TCG boot).
set -eu
. "$top_srcdir/tests/integration/guest-common.sh"

tmp=$(mktemp -d /tmp/vdc-guest-boot.XXXXXX)
qpid=
cleanup() {
    [ -n "$qpid" ] && kill "$qpid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
build_template

flock "$top_builddir/.guest-cache.lock" timeout 900 "$VMDISKCMP" prepare -q \
    --guest-image "$GUEST_TEMPLATE" --agent "$VDC_AGENT" --runner "$VDC_RUNNER" \
    --cache-dir "$top_builddir/guest-cache" --timeout 600 > "$tmp/prep" || fail "prepare failed"
img=$(field "$tmp/prep" cache_image)
kernel=$(field "$tmp/prep" kernel)
initrd=$(field "$tmp/prep" initrd)
cmdline=$(field "$tmp/prep" cmdline_kvm)

truncate -s 256M "$tmp/data.img"
nonce=0x5eed0001cafe
"$CTLTOOL" make "$tmp/ctl.img" --nonce $nonce --seed 4242 --repetition 1 --drop-caches \
    --step-timeout 20 --agent-timeout 600 --target data:vdb:ext4 --target ghost:vdz:ext4 \
    -- -s 16 -r 8 -f -n 1 --per-char-size 0 -q || fail "could not make the control disk"
# before the guest ran: no result frame
"$CTLTOOL" read "$tmp/ctl.img" --nonce $nonce --out-dir "$tmp/out" 2>"$tmp/err" && fail "result before boot"
grep -q 'no result frame' "$tmp/err" || fail "blank control disk: $(cat "$tmp/err")"

timeout 600 "$QEMU_SYSTEM" -accel tcg -m 256 -nographic -no-reboot -display none -monitor none \
    -kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
    -drive "file=$img,if=virtio,format=raw,readonly=on" \
    -drive "file=$tmp/data.img,if=virtio,format=raw" \
    -drive "file=$tmp/ctl.img,if=virtio,format=raw" \
    -serial "file:$tmp/console.log" &
qpid=$!
wait $qpid || { rc=$?; qpid=; tail -30 "$tmp/console.log" >&2; fail "QEMU exit $rc (124: the guest did not power off within 600 s)"; }
qpid=
grep -a 'vmdiskcmp' "$tmp/console.log" || true

"$CTLTOOL" read "$tmp/ctl.img" --nonce $nonce --out-dir "$tmp/out" > "$tmp/res" || fail "result frame invalid"
cat "$tmp/res"
grep -qx 'status=failed' "$tmp/res" || fail "overall status should be failed (ghost target)"
grep -q '^target data status=ok exit=0 json_bytes=[1-9][0-9]* .* json=valid runs=1 samples=[1-9][0-9]* seed=4242 ' "$tmp/res" \
    || fail "data target: no valid agent JSON with the job's seed"
grep -q '^target ghost status=failed .*json=none.*/dev/vdz did not appear' "$tmp/res" \
    || fail "ghost target: expected a failure naming /dev/vdz"
grep -q '"repetition": 1' "$tmp/out/data.json" || fail "agent JSON lacks the job's repetition"
grep -q 'done: failed' "$tmp/out/runner.log" || fail "runner log missing or without its verdict"
# the runner's heartbeat: one beat at the start and one per event, and
# more while it waited 20 s for the ghost's /dev/vdz (every 5 s, no event)
beats=$(sed -n 's/^progress events=\([0-9]*\) newest_seq=\([0-9]*\) beats=\([0-9]*\)$/\2 \3/p' "$tmp/res")
[ -n "$beats" ] || fail "no progress line: $(cat "$tmp/res")"
set -- $beats
[ "$2" -ge $(($1 + 1 + 3)) ] || fail "progress block: $2 heartbeats for $1 events, expected at least $(($1 + 4))"
grep -q 'mkfs.ext4 on /dev/vdb' "$tmp/out/runner.log" || fail "runner log lacks the mkfs step"
# the data disk now holds the ext4 the runner made (the root stayed read-only)
blkid -p -o value -s TYPE "$tmp/data.img" | grep -qx ext4 || fail "no ext4 on the data disk"

# another job's nonce: refused as stale
"$CTLTOOL" read "$tmp/ctl.img" --nonce 0x1 --out-dir "$tmp/out2" 2>"$tmp/err" && fail "wrong nonce accepted"
grep -q 'nonce' "$tmp/err" || fail "wrong nonce: $(cat "$tmp/err")"
echo "PASS: guest-boot"
