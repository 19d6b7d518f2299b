#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Start the daemons vmdiskcmp's integration tests and main job need.  With
# systemd as PID 1, through its units (libvirt-daemon-system's); elsewhere
# (containers, CI) by hand.  Idempotent.
set -eu
running() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
if command -v libvirtd >/dev/null 2>&1; then
    if [ "$(cat /proc/1/comm 2>/dev/null)" = systemd ] && command -v systemctl >/dev/null 2>&1; then
        systemctl start virtlogd.socket virtlockd.socket libvirtd.service
    else
        # what libvirt-daemon-system's systemd units would otherwise set up;
        # descriptors 3-9 closed: a daemon must not keep a caller's lock
        # (flock FILE sh scripts/start-services.sh) for its lifetime
        mkdir -p /var/log/libvirt/qemu /var/lib/libvirt /run/libvirt
        running /run/virtlogd.pid  || virtlogd -d 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
        running /run/virtlockd.pid || virtlockd -d 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
        running /run/libvirtd.pid  || libvirtd -d 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
    fi
    # wait for the socket (first qemu:///system connection probes capabilities)
    i=0
    while [ ! -S /run/libvirt/libvirt-sock ] && [ $i -lt 30 ]; do sleep 1; i=$((i+1)); done
fi
