#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad input and runtime failures: each bad input gives
# exit status 2 and exactly one line naming the input; a full filesystem
# mid-test gives exit status 1, names the failed test, and still writes
# the finished results (JSON and CSV) atomically.  ~10 s.
set -eu
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd losetup
need_cmd mkfs.ext4
need_cmd strace
need_cmd mkswap
. "$top_srcdir/tests/integration/agent-lib.sh"

make_tmpfs 64m
ok=$MNT

# bad_input WORD ARGS...: exit 2, one line on stderr containing WORD, and
# nothing on stdout
bad_input() {
    word=$1
    shift
    run_agent 2 "$@"
    [ "$(wc -l < "$SCRATCH/err")" = 1 ] \
        || fail "'$*': expected one line on stderr, got: $(cat "$SCRATCH/err")"
    grep -q -- "$word" "$SCRATCH/err" \
        || fail "'$*': message does not name '$word': $(cat "$SCRATCH/err")"
    [ ! -s "$SCRATCH/out" ] || fail "'$*': wrote to stdout: $(cat "$SCRATCH/out")"
}

bad_input --bogus -d "$ok" --bogus
bad_input "-Y" -d "$ok" -Y
bad_input "-s 12x" -d "$ok" -s 12x
bad_input "-s 1q:8k" -d "$ok" -s 1q:8k
bad_input "CHUNK 3000" -d "$ok" -s 16:3000
bad_input "-n 4:x" -d "$ok" -n 4:x
bad_input "--sweep=4k,lots" -d "$ok" --sweep=4k,lots
bad_input "missing target" -s 16
bad_input "/nonexistent/dir" -d /nonexistent/dir -s 16 -r 8
bad_input "/dev/null" -d /dev/null -s 16 -r 8
# under twice the RAM without -f
bad_input "twice the RAM" -d "$ok" -s 16 -r 64
# output files: checked before any test runs; an existing file or device
# node is never replaced (regression: --csv-file /dev/null turned /dev/null
# into a regular file; --json over a user's file overwrote it)
echo "user data" > "$SCRATCH/mine.txt"
bad_input "mine.txt: exists" -d "$ok" -s 1 -f -n 0 -q --json "$SCRATCH/mine.txt"
[ "$(cat "$SCRATCH/mine.txt")" = "user data" ] || fail "--json overwrote a user's file"
bad_input "/dev/null: exists" -d "$ok" -s 1 -f -n 0 -q --csv-file /dev/null
[ -c /dev/null ] || fail "/dev/null is no longer a character device"
bad_input "/nonexistent-vdc" -d "$ok" -s 1 -f -n 0 -q --json /nonexistent-vdc/x.json
bad_input "expected a file name" -d "$ok" -s 1 -f -n 0 -q --json ''

# unwritable: a read-only filesystem (root ignores permission bits)
make_tmpfs 8m ro
bad_input "not writable" -d "$MNT" -s 16 -r 8

# a block device carrying a filesystem is refused without --destroy-data...
make_loop 64M
mkfs.ext4 -q -F "$LOOPDEV" || fail "mkfs.ext4 $LOOPDEV"
bad_input "destroy-data" -d "$LOOPDEV" -s 16 -r 8 --sweep=64k
bad_input "ext2/3/4" -d "$LOOPDEV" -s 16 -r 8
# ...and accepted with it (the filesystem is then overwritten)
run_agent 0 -d "$LOOPDEV" -s 16 -r 8 --sweep=64k --destroy-data -q
grep -q "overwriting" "$SCRATCH/err" || fail "no warning when destroying data"
# a device whose first or last blocks cannot be read: no signature can be
# ruled out, so refused, even with --destroy-data (strace makes the
# agent's Nth pread(2) fail with EIO, or end the device early)
eio() { # WHEN INJECTION
    printf '#!/bin/sh\nexec strace -o /dev/null -e trace=pread64 -e inject=pread64:%s:when=%s "%s" "$@"\n' \
        "$2" "$1" "$VDC_AGENT_REAL" > "$SCRATCH/agent-eio"
    chmod +x "$SCRATCH/agent-eio"
}
make_loop 32M
VDC_AGENT_REAL=$VDC_AGENT
VDC_AGENT="$SCRATCH/agent-eio"
eio 1 error=EIO
bad_input "cannot read its first 69632 bytes for a signature: I/O error" \
    -d "$LOOPDEV" -s 16 -r 8 --destroy-data
eio 2 error=EIO
bad_input "cannot read its last 131072 bytes for a signature: I/O error" \
    -d "$LOOPDEV" -s 16 -r 8 --destroy-data
eio 1 retval=0
bad_input "cannot read its first 69632 bytes for a signature: the device ended early" \
    -d "$LOOPDEV" -s 16 -r 8 --destroy-data
VDC_AGENT=$VDC_AGENT_REAL
# swap with 64 KiB pages (signature at 65526), an MD RAID 1.0 superblock
# at the device's end (mdadm's offset: ((sectors - 16) & ~7) sectors):
# refused without --destroy-data
make_loop 32M
mkswap -q -p 65536 "$LOOPDEV" >/dev/null 2>&1 || mkswap -p 65536 "$LOOPDEV" >/dev/null || fail "mkswap -p 65536"
bad_input "Linux swap space" -d "$LOOPDEV" -s 16 -r 8
make_loop 32M
printf '\374\116\053\251' | dd of="$LOOPDEV" bs=512 seek=$((65536 - 16)) conv=notrunc status=none \
    || fail "MD 1.0 magic"
bad_input "MD RAID member (superblock 1.0 at the end)" -d "$LOOPDEV" -s 16 -r 8
# a GPT disk whose start was wiped (the protective MBR, the primary header
# and its table: the first 34 sectors): its backup header in the last
# sector is a partition table still (wipefs finds it), refused
need_cmd sfdisk
need_cmd wipefs
make_loop 32M
printf 'label: gpt\nstart=2048, size=16384\n' | sfdisk -q "$LOOPDEV" >/dev/null || fail "sfdisk"
dd if=/dev/zero of="$LOOPDEV" bs=512 count=34 conv=notrunc status=none || fail "wipe the GPT's start"
wipefs "$LOOPDEV" | grep -q gpt || fail "wipefs does not see the backup GPT header"
bad_input "GPT partition table (backup header in the last sector)" -d "$LOOPDEV" -s 16 -r 8
# a blank device needs no --destroy-data
make_loop 32M
run_agent 0 -d "$LOOPDEV" -s 16 -r 8 -q --seed 1 --json "$SCRATCH/blk.json"
grep -q '"fs_type": "block"' "$SCRATCH/blk.json" || fail "block device not recorded"

# full filesystem: 12 MiB of tmpfs, a 64 MiB test file.  putc (3 MiB)
# finishes, put_block hits ENOSPC: exit 1 naming put_block; putc kept.
make_tmpfs 12m
full=$MNT
run_agent 1 -d "$full" -s 64 -r 8 -n 1 --seed 5 --json "$full/r.json" \
    --csv-file "$full/r.csv"
grep -q "^vmdiskcmp-agent: put_block: write .*No space left on device" "$SCRATCH/err" \
    || fail "ENOSPC not reported naming put_block: $(cat "$SCRATCH/err")"
j=$full/r.json
[ -s "$j" ] || fail "no JSON written after the failure"
grep -q '"status": "failed", "error": "put_block: write' "$j" || fail "run not marked failed"
[ "$(json_value "$j" putc failed)" = false ] || fail "finished putc sample lost"
v=$(json_value "$j" putc value)
case $v in ''|null) fail "putc value missing: $v" ;; esac
[ "$(json_value "$j" put_block failed)" = true ] || fail "put_block not marked failed"
grep -q '"test": "rewrite"' "$j" && fail "a test after the failure was reported"
[ "$(awk -F, '{print NF}' "$full/r.csv")" = 50 ] || fail "CSV not written after the failure"
[ "$(cut -d, -f10 "$full/r.csv")" != "" ] || fail "CSV lacks the finished putc"
ls "$full" | grep -q '\.tmp\.' && fail "temporary output file left behind"
ls "$full" | grep -q '^Bonnie' && fail "test file left behind"
echo "PASS: bad inputs exit 2 with one line; ENOSPC exits 1 with finished results written"
