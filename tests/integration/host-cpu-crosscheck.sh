#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Host samplers against independent readings, on a real loop device (no Xen
# needed; doc/host-cost.md).  A loop device is set up over a scratch image
# the way Xen's hotplug script does it (losetup, no direct I/O), then:
#   1. loop truth: the sampler's backing_file/dio equal sysfs and losetup's,
#      and the loop device is found from the image;
#   2. residency and placement: the sampler's page-cache pages equal
#      fincore's, its extents filefrag's;
#   3. CPU: while dd reads the loop device with O_DIRECT (every read goes
#      through the loop driver's worker), the sampler's CPU seconds for dd
#      (/proc/PID/stat) and dom0's busy seconds (/proc/stat) over an
#      interval agree within 10 % with this script's own reading of the same
#      files around it; the loop worker is attributed, or the sampler says
#      why it cannot (shared kworkers since Linux 5.13) and gives dom0 busy
#      minus dd's own instead;
#   4. control: LOOP_SET_DIRECT_IO on the bound device reads back from sysfs,
#      and with it on, reading through the loop device leaves the image out
#      of dom0's page cache (with it off, the same read puts it there).
# Root; holds a loop device: run under the heavy lock.  About 15 s.
# VDC_HOST_FIXTURES=DIR copies the loop device's sysfs files to DIR.
. "$top_srcdir/tests/integration/host-lib.sh"
host_test_setup vdc-hostcpu dd fincore filefrag
loop=
ddpid=
cleanup() {
    [ -n "$ddpid" ] && kill "$ddpid" 2>/dev/null && wait "$ddpid" 2>/dev/null
    [ -n "$loop" ] && losetup -d "$loop"
    rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
fstype=$(stat -f -c %T "$scratch")
case $fstype in
tmpfs|overlayfs|overlay) skip "$scratch is on $fstype: no O_DIRECT for the loop device's direct I/O" ;;
esac
img=$scratch/image.raw
hz=$(getconf CLK_TCK)

# 64 MiB written (placed on the disk), then sparse up to 4 GiB
dd if=/dev/zero of="$img" bs=1M count=64 conv=fsync status=none || fail "write $img"
truncate -s 4G "$img" || fail "truncate $img"
# as /etc/xen/scripts/block does it: no --direct-io
loop=$(losetup -f --show "$img") || fail "losetup -f --show $img"
n=${loop#/dev/loop}
echo "loop device $loop over $img ($fstype)"

# ---- 1. loop truth -----------------------------------------------------------------
out=$("$TOOL" loop-info "$loop") || fail "loop-info $loop"
echo "sampler: $out"
real=$(realpath "$img")
sys_dio=$(cat /sys/block/loop$n/loop/dio)
sys_back=$(cat /sys/block/loop$n/loop/backing_file)
ls_dio=$(losetup -n -O DIO "$loop" | tr -d ' ')
case $out in *" dio=$sys_dio "*) ;; *) fail "sampler dio differs from sysfs ($sys_dio)" ;; esac
[ "$sys_dio" = 0 ] && [ "$ls_dio" = 0 ] || fail "a loop device set up like Xen's hotplug script has dio=$sys_dio (losetup: $ls_dio), expected 0"
[ "${out##*backing_file=}" = "$real" ] && [ "$sys_back" = "$real" ] || fail "backing_file: sampler '${out##*backing_file=}', sysfs '$sys_back', expected $real"
"$TOOL" loop-find "$img" | grep -qx "$loop" || fail "loop-find $img did not find $loop"
if [ -n "${VDC_HOST_FIXTURES:-}" ]; then
    mkdir -p "$VDC_HOST_FIXTURES/sys-loop"
    cp /sys/block/loop$n/loop/backing_file /sys/block/loop$n/loop/dio \
       /sys/block/loop$n/loop/offset "$VDC_HOST_FIXTURES/sys-loop/"
fi

# ---- 2. residency and placement ---------------------------------------------------------
drop_image_cache() {   # posix_fadvise(DONTNEED) on the whole image (GNU dd)
    dd if=/dev/null of="$img" oflag=nocache conv=notrunc,fdatasync count=0 status=none
}
drop_image_cache || fail "dd oflag=nocache"
dd if="$img" of=/dev/null bs=1M count=24 status=none || fail "read $img"
# readahead may still be filling the cache after dd returns: compare the
# sampler with fincore only while fincore reads the same before and after it
for try in 1 2 3 4 5 6 7 8 9 10; do
    fc0=$(fincore -n -r -b -o PAGES "$img") || fail "fincore $img"
    res=$("$TOOL" residency "$img") || fail "residency $img"
    fc=$(fincore -n -r -b -o PAGES "$img") || fail "fincore $img"
    [ "$fc0" = "$fc" ] && break
    sleep 0.2
done
echo "sampler: $res; fincore: $fc pages (settled after $try look(s))"
[ "$fc0" = "$fc" ] || fail "the image's page cache did not settle in 10 looks ($fc0, then $fc pages)"
case $res in *" resident_pages=$fc "*) ;; *) fail "resident pages: sampler ($res) and fincore ($fc) differ" ;; esac
[ "$fc" -ge $((24 * 1048576 / $(getconf PAGESIZE))) ] || fail "after reading 24 MiB only $fc pages are resident"
pl=$("$TOOL" placement "$img") || fail "placement $img"
ff=$(filefrag -e "$img") || fail "filefrag -e $img"
ff_n=$(printf '%s\n' "$ff" | sed -n 's/.*: \([0-9]*\) extents\{0,1\} found$/\1/p')
# "File size of F is N (M blocks of B bytes)"
ff_bs=$(printf '%s\n' "$ff" | sed -n 's/.* blocks of \([0-9]*\) bytes).*/\1/p')
[ -n "$ff_bs" ] || fail "cannot read the block size from filefrag's output"
# the lowest physical start, in bytes (filefrag: "N: L..L: P..P: LEN: FLAGS")
ff_min=$(printf '%s\n' "$ff" | awk -F: -v bs="$ff_bs" '/^ *[0-9]+:/ { split($3, p, "."); v = p[1] + 0;
    if (min == "" || v < min) min = v } END { printf "%.0f", min * bs }')
dev_start=$(printf '%s\n' "$pl" | sed -n 's/.* device_start=\([0-9]*\) .*/\1/p')
echo "sampler: $(printf '%s\n' "$pl" | head -1); filefrag: $ff_n extents, lowest at $ff_min bytes of the filesystem's device"
case $pl in *" extents=$ff_n "*) ;; *) fail "extents: sampler ($pl) and filefrag ($ff_n) differ" ;; esac
# the sampler's ranges are sorted: the first is the lowest
pl_min=$(printf '%s\n' "$pl" | sed -n 's/^range start=\([0-9]*\) .*/\1/p' | head -1)
[ "$pl_min" = $((dev_start + ff_min)) ] || fail "lowest extent: sampler $pl_min, filefrag $ff_min + device start $dev_start"
case $pl in *" mapped_bytes=67108864 "*) ;; *) fail "expected the 64 MiB written to be mapped: $pl" ;; esac

# ---- 3. CPU: the sampler against this script's own /proc reading ---------------------
ticks_of() {   # utime + stime of process $1 (fields 14, 15 after the comm)
    sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}
busy_ticks() {  # dom0 busy: user nice system irq softirq of the cpu line
    awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8; exit }' /proc/stat
}
drop_image_cache
dd if="$loop" of=/dev/null bs=512 iflag=direct status=none &
ddpid=$!
sleep 1
kill -0 "$ddpid" 2>/dev/null || fail "dd on $loop ended early"
a_dd=$(ticks_of "$ddpid"); a_busy=$(busy_ticks)
cpu=$("$TOOL" cpu --pid "$ddpid" --loop "$n" --seconds 3) || fail "host-sampletool cpu"
b_dd=$(ticks_of "$ddpid"); b_busy=$(busy_ticks)
kill -0 "$ddpid" 2>/dev/null || fail "dd ended during the measurement: the interval is not comparable"
kill "$ddpid"; wait "$ddpid" 2>/dev/null; ddpid=
printf '%s\n' "$cpu" | sed 's/^/sampler: /'
s_dd=$(printf '%s\n' "$cpu" | awk '$1 == "server" && / role=process / {
    for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } print v["user_s"] + v["system_s"] }')
s_busy=$(printf '%s\n' "$cpu" | awk '$1 == "dom0" { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "busy_s") print kv[2] } }')
r_dd=$(awk -v a="$a_dd" -v b="$b_dd" -v hz="$hz" 'BEGIN { printf "%.2f", (b - a) / hz }')
r_busy=$(awk -v a="$a_busy" -v b="$b_busy" -v hz="$hz" 'BEGIN { printf "%.2f", (b - a) / hz }')
check() {   # NAME SAMPLER SCRIPT: within 10 % of the script's reading
    awk -v n="$1" -v s="$2" -v r="$3" 'BEGIN {
        d = r > 0 ? (s - r) / r * 100 : 1e9
        printf "crosscheck %s: sampler %.2f s, /proc read by the test %.2f s, difference %+.1f %%\n", n, s, r, d
        exit (r > 0 && d <= 10 && d >= -10) ? 0 : 1 }'
}
awk -v r="$r_dd" 'BEGIN { exit !(r >= 0.3) }' || fail "dd used $r_dd CPU seconds in the interval: too little to compare"
check "dd (utime+stime)" "$s_dd" "$r_dd" || fail "dd's CPU time: sampler and /proc differ by more than 10 %"
check "dom0 busy" "$s_busy" "$r_busy" || fail "dom0 busy: sampler and /proc/stat differ by more than 10 %"
loopline=$(printf '%s\n' "$cpu" | grep "^loop device=loop$n ") || fail "no attribution line for loop$n"
case $loopline in
*" attribution=exact "*)
    printf '%s\n' "$cpu" | awk '$1 == "server" && / role=loop-worker / && / attribution=exact / {
        for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } t += v["user_s"] + v["system_s"] }
        END { exit !(t > 0) }' || fail "loop$n has its own worker but the sampler gave it no CPU"
    echo "loop$n: served by its own kernel thread: attributed" ;;
*" attribution=shared reason="?*)
    seen=$(printf '%s\n' "$cpu" | grep -c ' role=loop-worker .* attribution=shared ')
    printf '%s\n' "$cpu" | grep -q '^unattributed busy_minus_exact_s=' || fail "no dom0-busy-minus-dd figure"
    echo "loop$n: not attributable (shared kworkers; $seen seen serving it): dom0 busy minus dd reported instead" ;;
*) fail "loop$n: neither attributed nor a reason: $loopline" ;;
esac

# ---- 4. LOOP_SET_DIRECT_IO and what it does to dom0's page cache ---------------------
"$TOOL" loop-dio "$loop" on || fail "loop-dio $loop on"
[ "$(cat /sys/block/loop$n/loop/dio)" = 1 ] && [ "$(losetup -n -O DIO "$loop" | tr -d ' ')" = 1 ] ||
    fail "after LOOP_SET_DIRECT_IO 1, sysfs/losetup do not read dio 1"
[ -n "${VDC_HOST_FIXTURES:-}" ] && cp /sys/block/loop$n/loop/dio "$VDC_HOST_FIXTURES/sys-loop/dio-after-set"
resident() { "$TOOL" residency "$img" | sed 's/.* resident_pages=\([0-9]*\) .*/\1/'; }
drop_image_cache
dd if="$loop" of=/dev/null bs=1M count=16 status=none || fail "read $loop"
with_dio=$(resident)
"$TOOL" loop-dio "$loop" off || fail "loop-dio $loop off"
[ "$(cat /sys/block/loop$n/loop/dio)" = 0 ] || fail "after LOOP_SET_DIRECT_IO 0, sysfs does not read dio 0"
drop_image_cache
# through the loop device's own cache too: iflag=direct, so only the
# backing file's pages can hold what was read
dd if="$loop" of=/dev/null bs=1M count=16 iflag=direct status=none || fail "read $loop"
without_dio=$(resident)
echo "image pages in dom0's page cache after reading 16 MiB through $loop: dio on $with_dio, dio off $without_dio"
pages16=$((16 * 1048576 / $(getconf PAGESIZE)))
[ "$with_dio" -lt $((pages16 / 10)) ] || fail "with direct I/O on, $with_dio image pages were cached (expected almost none)"
[ "$without_dio" -ge "$pages16" ] || fail "with direct I/O off, only $without_dio image pages were cached (expected $pages16)"
echo "PASS"
