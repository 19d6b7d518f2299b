#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The lab's stand-in hotplug script (templates/lab/xen-block-lab) keeps the
# stock Xen block script's loop semantics: a file gets a loop device with
# no direct I/O (stock: `losetup $roflag $loopdev $file`, Debian
# xen-utils-common 4.17.7), read-only for mode r, and `remove` detaches it.
# So `--image-cache host` in the lab means what it means on a stock dom0.
#
# Runs the script for real (real losetup, this kernel) with xenstore-read
# and xenstore-write replaced by a directory of files (no Xen here); the
# script's lock path is moved into the scratch directory, nothing else is
# changed.  Root; uses a loop device: heavy lock.  About 2 s.
. "$top_srcdir/tests/integration/host-lib.sh"
host_test_setup vdc-hotplug
made=
cleanup() {
    for d in $made; do losetup "$d" >/dev/null 2>&1 && losetup -d "$d"; done
    rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
xs=$scratch/xs
mkdir -p "$xs" "$scratch/bin" "$scratch/run"
cat > "$scratch/bin/xenstore-read" <<EOF
#!/bin/sh
for k; do cat "$xs/\$k" 2>/dev/null || exit 1; echo; done
EOF
cat > "$scratch/bin/xenstore-write" <<EOF
#!/bin/sh
while [ \$# -ge 2 ]; do mkdir -p "$xs/\$(dirname "\$1")"; printf %s "\$2" > "$xs/\$1"; shift 2; done
EOF
chmod +x "$scratch/bin/xenstore-read" "$scratch/bin/xenstore-write"
sed "s|/run/xen-hotplug|$scratch/run|g" "$top_srcdir/templates/lab/xen-block-lab" > "$scratch/block"
grep -q "losetup" "$scratch/block" || fail "no losetup line in xen-block-lab"

truncate -s 64M "$scratch/image.raw"
run_case() {   # MODE BACKEND-PATH
    bp=/local/domain/0/backend/vbd/$2
    mkdir -p "$xs$bp"
    printf %s "$scratch/image.raw" > "$xs$bp/params"
    printf %s "$1" > "$xs$bp/mode"
    PATH=$scratch/bin:$PATH XENBUS_PATH=$bp sh "$scratch/block" add || fail "xen-block-lab add (mode $1) failed"
    node=$(cat "$xs$bp/node") || fail "no node written (mode $1)"
    made="$made $node"
    [ "$(cat "$xs$bp/hotplug-status")" = connected ] || fail "hotplug-status not connected (mode $1)"
    [ "$(cat "$xs$bp/physical-device-path")" = "$node" ] || fail "physical-device-path is not $node"
    n=${node#/dev/loop}
    info=$("$TOOL" loop-info "$node") || fail "loop-info $node"
    echo "mode $1: $node: $info; ro=$(cat /sys/block/loop$n/ro)"
    case $info in *" dio=0 "*) ;; *) fail "xen-block-lab made $node with direct I/O: the stock script does not" ;; esac
    [ "$(cat /sys/block/loop$n/loop/dio)" = 0 ] || fail "sysfs says $node has dio on"
    [ "$(cat "$xs$bp/physical-device")" = "$(printf '%x:%x' 7 "$n")" ] || fail "physical-device is not 7:$n in hex"
    want_ro=0; [ "$1" = r ] && want_ro=1
    [ "$(cat /sys/block/loop$n/ro)" = "$want_ro" ] || fail "mode $1: $node ro=$(cat /sys/block/loop$n/ro), expected $want_ro"
    PATH=$scratch/bin:$PATH XENBUS_PATH=$bp sh "$scratch/block" remove || fail "xen-block-lab remove failed"
    losetup "$node" >/dev/null 2>&1 && fail "remove left $node attached"
    return 0
}
run_case w 1/51728
run_case r 1/51744
echo PASS
