# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the agent's integration tests (sourced after tests/lib.sh).
# Every scratch thing (directory, loop device, mount) is registered and torn
# down in reverse order on exit, even on failure or SIGINT.

# Mount in a private mount namespace: a namespace someone else creates
# meanwhile (libvirt starts each QEMU in one) would otherwise copy our mount
# and keep the loop device busy after we unmount it.
if [ -z "${VDC_PRIVATE_MOUNTS:-}" ] && command -v unshare >/dev/null 2>&1; then
    VDC_PRIVATE_MOUNTS=1 exec unshare -m --propagation private sh "$0" "$@"
fi
[ -n "${VDC_AGENT:-}" ] || fail "VDC_AGENT is not set (run through make check)"
[ -x "$VDC_AGENT" ] || fail "$VDC_AGENT is not built"

agent_undo=""
agent_cleanup() {
    trap - EXIT INT TERM
    eval "$agent_undo"
}
trap agent_cleanup EXIT
trap 'agent_cleanup; exit 1' INT TERM
# push COMMAND: run COMMAND at exit, before what was pushed earlier
push_undo() { agent_undo="$1 2>/dev/null || true; $agent_undo"; }

SCRATCH=$(mktemp -d /tmp/vdc-agent-test.XXXXXX)
push_undo "rm -rf '$SCRATCH'"

# detach_if_ours DEV IMG: loop devices are shared; detach DEV only while
# it still backs our IMG
detach_if_ours() {
    [ "$(losetup -n -O BACK-FILE "$1" 2>/dev/null)" = "$2" ] && losetup -d "$1"
}

# make_loop SIZE [--direct-io=on]: a sparse image on a new loop device -> $LOOPDEV
make_loop() {
    img=$SCRATCH/disk$$.$(date +%s%N).img
    truncate -s "$1" "$img" || fail "truncate $img"
    shift
    LOOPDEV=$(losetup -f --show "$@" "$img") || fail "losetup -f --show $img"
    push_undo "detach_if_ours '$LOOPDEV' '$img'"
}

# make_ext4 SIZE: ext4 on a loop device, mounted -> $MNT (and $LOOPDEV)
make_ext4() {
    make_loop "$1" --direct-io=on
    mkfs.ext4 -q -F "$LOOPDEV" || fail "mkfs.ext4 $LOOPDEV"
    MNT=$(mktemp -d "$SCRATCH/mnt.XXXXXX")
    mount "$LOOPDEV" "$MNT" || fail "mount $LOOPDEV"
    push_undo "umount '$MNT'"
}

# make_tmpfs SIZE [ro]: a tmpfs -> $MNT
make_tmpfs() {
    MNT=$(mktemp -d "$SCRATCH/tmpfs.XXXXXX")
    mount -t tmpfs -o "size=$1${2:+,$2}" vdc-agent-test "$MNT" || fail "mount tmpfs"
    push_undo "umount '$MNT'"
}

# json_value FILE TEST MEMBER: a sample member from the agent's JSON (the
# agent writes one sample per two lines, test id first)
json_value() {
    grep -A1 "\"test\": \"$2\"" "$1" | tr ',' '\n' \
        | sed -n "s/^ *\"$3\": *//p" | head -n1 | tr -d '"'
}

# run_agent EXPECTED_STATUS ARGS...: run the agent with a timeout, stdout in
# $SCRATCH/out, stderr in $SCRATCH/err; fail on another exit status.
run_agent() {
    want=$1
    shift
    set +e
    timeout 300 "$VDC_AGENT" "$@" >"$SCRATCH/out" 2>"$SCRATCH/err"
    got=$?
    set -e
    if [ "$got" != "$want" ]; then
        cat "$SCRATCH/err" >&2
        fail "vmdiskcmp-agent $*: exit status $got, expected $want"
    fi
}
