#!/bin/sh
# Start the daemons vmdiskcmp's integration tests and main job need, on a
# machine whose PID 1 is not systemd (containers, CI).  Idempotent.
set -eu
running() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
if command -v libvirtd >/dev/null 2>&1; then
    # what libvirt-daemon-system's systemd units would otherwise set up
    mkdir -p /var/log/libvirt/qemu /var/lib/libvirt /run/libvirt
    running /run/virtlogd.pid  || virtlogd -d
    running /run/virtlockd.pid || virtlockd -d
    running /run/libvirtd.pid  || libvirtd -d
    # wait for the socket (first qemu:///system connection probes capabilities)
    i=0
    while [ ! -S /run/libvirt/libvirt-sock ] && [ $i -lt 30 ]; do sleep 1; i=$((i+1)); done
fi
