#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The agent makes the system calls bonnie++ 2.00a makes in the seek and
# file tests (strace -f -c of both, same sizes, same directory):
#  - directories are read with glibc's buffer (32 KiB on ext4 and tmpfs:
#    bonnie++'s readdir), not musl's 2 KiB: as many getdents64 calls as
#    bonnie++ (musl's readdir makes ten times as many, and the worst stat
#    sample a quarter of bonnie++'s);
#  - no fcntl(F_SETFD) per created file (musl's open adds one when
#    O_CLOEXEC is passed);
#  - as many fsync calls: the seek test's parent fsyncs its descriptor
#    after its last ticket, as bonnie++'s seek_test does (bon_io.cpp:127);
#  - as many sync, unlink and stat calls, up to the tools' start-up.
# Per-char tests are skipped (one write/read per byte in both: the
# counts would only add time).  No mount: a scratch directory under
# $TMPDIR.  ~30 s (strace, and bonnie++'s 3 s sleep before its seeks).
set -eu
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd strace
# a container or seccomp policy may refuse ptrace
strace -f -o /dev/null true 2>/dev/null || skip "strace cannot trace here (ptrace refused)"
[ -n "${BONNIE:-}" ] || BONNIE=$(command -v bonnie++ || echo /usr/sbin/bonnie++)
[ -x "$BONNIE" ] || skip "needs bonnie++ (Debian package bonnie++)"
[ -n "${VDC_AGENT:-}" ] || fail "VDC_AGENT is not set (run through make check)"
[ -x "$VDC_AGENT" ] || fail "$VDC_AGENT is not built"
dir=$(mktemp -d "${TMPDIR:-/tmp}/vdc-agent-syscalls.XXXXXX")
trap 'rm -rf "$dir"' EXIT
trap 'rm -rf "$dir"; exit 1' INT TERM
mkdir "$dir/a" "$dir/b"

timeout 300 strace -f -c -o "$dir/agent.sc" "$VDC_AGENT" -d "$dir/a" -s 16 -r 8 \
    -n 2 --per-char-size 0 -q --seed 1 --csv >"$dir/agent.out" 2>"$dir/agent.err" \
    || fail "agent under strace: $(tail -3 "$dir/agent.err")"
timeout 300 strace -f -c -o "$dir/bonnie.sc" "$BONNIE" -d "$dir/b" -s 16 -r 8 \
    -n 2 -f -u root -q -z 1 >"$dir/bonnie.out" 2>"$dir/bonnie.err" \
    || fail "bonnie++ under strace: $(tail -3 "$dir/bonnie.err")"

# calls FILE NAME...: the summed call count of the named system calls
calls() {
    f=$1; shift
    awk -v names=" $* " '
        # "% time seconds usecs/call calls [errors] syscall"
        $1 ~ /^[0-9.]+$/ && index(names, " " $NF " ") { s += $4 }
        END { print s + 0 }' "$f"
}
# near WHAT A B TOL: |A - B| <= TOL
near() {
    d=$(($2 - $3))
    [ "${d#-}" -le "$4" ] || fail "$1: agent $2, bonnie++ $3 (expected within $4)"
}

a=$(calls "$dir/agent.sc" getdents64); b=$(calls "$dir/bonnie.sc" getdents64)
[ "$b" -gt 0 ] || fail "bonnie++ made no getdents64 call: $(cat "$dir/bonnie.sc")"
near "getdents64 calls (2048 files, two readdir walks)" "$a" "$b" 2
# bonnie++ -f still opens the file for the per-char write it skips and
# then closes it, fsync included, before the block write's clock starts
# (bonnie++.cpp:559,593, bon_io.cpp:272,315): one untimed fsync more
a=$(calls "$dir/agent.sc" fsync); b=$(calls "$dir/bonnie.sc" fsync)
[ "$((a + 1))" = "$b" ] || fail "fsync calls: agent $a, bonnie++ $b (expected one more)"
a=$(calls "$dir/agent.sc" sync); b=$(calls "$dir/bonnie.sc" sync)
[ "$a" = "$b" ] || fail "sync calls: agent $a, bonnie++ $b"
a=$(calls "$dir/agent.sc" fcntl)
[ "$a" -lt 100 ] || fail "fcntl calls: $a for 4096 created files (one per open?)"
a=$(calls "$dir/agent.sc" unlink unlinkat); b=$(calls "$dir/bonnie.sc" unlink unlinkat)
near "unlink calls" "$a" "$b" 8
a=$(calls "$dir/agent.sc" stat newfstatat fstat lstat statx)
b=$(calls "$dir/bonnie.sc" stat newfstatat fstat lstat statx)
near "stat calls" "$a" "$b" 32
a=$(calls "$dir/agent.sc" open openat); b=$(calls "$dir/bonnie.sc" open openat)
near "open calls" "$a" "$b" 32
echo "PASS: agent and bonnie++ make the same seek and file-test system calls" \
     "(getdents64 $(calls "$dir/agent.sc" getdents64)/$(calls "$dir/bonnie.sc" getdents64)," \
     "fsync $(calls "$dir/agent.sc" fsync), fcntl $(calls "$dir/agent.sc" fcntl))"
