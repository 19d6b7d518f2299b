#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGINT during `vmdiskcmp prepare` with a real libguestfs appliance (TCG):
# the signal is sent while QEMU runs (the appliance is launching or
# working), and vmdiskcmp must exit 3 promptly (well before the launch
# would have finished), with no QEMU or other process of the libguestfs
# session left, libguestfs's socket folder (read from QEMU's command line)
# and temporary folders removed, and the cache exactly as before (no entry,
# no .tmp-* folder; an unrelated entry untouched).  Then SIGTERM the same
# way.  Then SIGINT to `vmdiskcmp run` (mock hypervisor: the prepare step
# is real) during its prepare step: exit 3, the scratch image it had
# provisioned torn down, the cache unchanged.  A stop must not depend on
# the appliance answering.
# Run time here: about 40-70 s (three appliance starts, each cut short).
set -eu
. "$top_srcdir/tests/integration/guest-common.sh"

tmp=$(mktemp -d /tmp/vdc-prepare-int.XXXXXX)
pid= child=
cleanup() {
    [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null || :
    [ -n "$child" ] && kill -KILL -- "-$child" 2>/dev/null || :
    rm -rf "$tmp"
}
trap cleanup EXIT INT TERM
build_template

# the cache holds one unrelated entry: it must come out byte for byte the same
mkdir -p "$tmp/cache/0000-unrelated"
echo keep > "$tmp/cache/0000-unrelated/guest.img"
snapshot() { (cd "$tmp/cache" && find . | sort && cat 0000-unrelated/guest.img); }
snapshot > "$tmp/cache.before"

# the session's temporary folders go under vmdiskcmp's TMPDIR: $tmp/t
mkdir "$tmp/t"

# interrupt SIG: start prepare, wait for the appliance's QEMU, send SIG
interrupt() {
    sig=$1
    if [ "$sig" = RUN ]; then
        sig=INT
        mkdir "$tmp/img"
        TMPDIR="$tmp/t" "$VMDISKCMP" run --hypervisor mock --image --size 16M \
            --guest-image "$GUEST_TEMPLATE" --agent "$VDC_AGENT" --runner "$VDC_RUNNER" \
            --cache-dir "$tmp/cache" --image-dir "$tmp/img" --out "$tmp/run" \
            > /dev/null 2> "$tmp/err.$sig" &
        : > "$tmp/out.$sig"
    else
        TMPDIR="$tmp/t" "$VMDISKCMP" prepare --guest-image "$GUEST_TEMPLATE" --agent "$VDC_AGENT" \
            --runner "$VDC_RUNNER" --cache-dir "$tmp/cache" --timeout 600 \
            > "$tmp/out.$sig" 2> "$tmp/err.$sig" &
    fi
    pid=$!
    child= qpid= i=0
    # the libguestfs session runs in a child process group; QEMU is in it
    while [ $i -lt 1200 ]; do
        kill -0 "$pid" 2>/dev/null || { cat "$tmp/err.$sig"; fail "$sig: prepare ended before QEMU started"; }
        child=$(pgrep -P "$pid" | head -n 1 || :)
        if [ -n "$child" ]; then
            # the appliance (-kernel), not libguestfs's capability probes
            # (qemu -device ?, -help: a cold cache runs those first)
            qpid=$(pgrep -g "$child" -f 'qemu-system.* -kernel ' | head -n 1 || :)
            [ -n "$qpid" ] && break
        fi
        sleep 0.1
        i=$((i + 1))
    done
    [ -n "$qpid" ] || fail "$sig: no appliance QEMU within 120 s"
    tr '\0' ' ' < "/proc/$qpid/cmdline" > "$tmp/qemu.cmdline" || :
    sleep 2                      # a few seconds into the launch
    kill -"$sig" "$pid"
    # prompt: the launch under TCG takes ~13 s more; give 20 s before
    # calling it a hang (a bound against hanging, not a speed target)
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
    if kill -0 "$pid" 2>/dev/null; then
        kill -KILL "$pid"
        fail "$sig: vmdiskcmp prepare still running 20 s after SIG$sig"
    fi
    set +e
    wait "$pid"; rc=$?
    set -e
    pid=
    [ "$rc" = 3 ] || { cat "$tmp/err.$sig"; fail "$sig: exit status $rc, expected 3"; }
    grep -q "interrupted" "$tmp/err.$sig" || fail "$sig: no 'interrupted' message: $(cat "$tmp/err.$sig")"
    [ ! -s "$tmp/out.$sig" ] || fail "$sig: printed a result: $(cat "$tmp/out.$sig")"
    # nothing of the session is left running
    ! kill -0 "$qpid" 2>/dev/null || fail "$sig: QEMU $qpid still running"
    [ -z "$(pgrep -g "$child" || :)" ] || fail "$sig: processes left in the session's group: $(pgrep -g "$child" -a)"
    # libguestfs's folders: the socket folder named on QEMU's command line
    # (/tmp/libguestfsXXXXXX when root) and everything under our TMPDIR
    dirs=$(grep -o '/[^ ,=]*/libguestfs[^/ ,]*/' "$tmp/qemu.cmdline" | sort -u)
    [ -n "$dirs" ] || fail "$sig: no libguestfs folder on QEMU's command line: $(cat "$tmp/qemu.cmdline")"
    for d in $dirs; do
        [ ! -e "$d" ] || fail "$sig: libguestfs folder $d left behind"
    done
    [ -z "$(ls -A "$tmp/t")" ] || fail "$sig: temporary files left: $(ls -A "$tmp/t")"
    # the cache exactly as before: no entry, no .tmp-* folder
    snapshot > "$tmp/cache.after"
    cmp -s "$tmp/cache.before" "$tmp/cache.after" ||
        fail "$sig: cache changed: $(diff "$tmp/cache.before" "$tmp/cache.after")"
    echo "SIG$sig: libguestfs folders gone: $(echo $dirs)"
    echo "SIG$sig: exit 3 in $((i / 10)).$((i % 10)) s, nothing left behind"
}

interrupt INT
interrupt TERM
interrupt RUN
# the run had provisioned its scratch image before the prepare step
grep -q "interrupted: tearing down" "$tmp/err.INT" || fail "run: no teardown: $(cat "$tmp/err.INT")"
[ -z "$(ls -A "$tmp/img")" ] || fail "run: scratch image left: $(ls -A "$tmp/img")"
