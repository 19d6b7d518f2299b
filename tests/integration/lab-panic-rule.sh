#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The lab's panic rule (templates/lab/boot-lab.sh, LAB_PANIC_RE): a panic
# of Xen or of dom0's kernel on the serial console ends the lab stage at
# once; a domU's panic, which reaches the serial log too (each guest console
# line prefixed "[guest-NAME.log] ") or quoted in the job's output, does not:
# vmdiskcmp fails that domU's boot and names it, and the lab goes on.
# The lines are as the lab's serial logs hold them (the domU's from a
# 96 MiB guest killed for memory).  No boot; well under a second.
. "$top_srcdir/tests/lib.sh"
line=$(grep "^LAB_PANIC_RE=" "$top_srcdir/templates/lab/boot-lab.sh") || fail "no LAB_PANIC_RE in boot-lab.sh"
eval "$line"
ends() { printf '%s\n' "$1" | grep -a -q -E "$LAB_PANIC_RE"; }
for l in \
    '(XEN) Panic on CPU 0:' \
    '[  301.969796] Kernel panic - not syncing: VFS: Unable to mount root fs on unknown-block(0,0)' \
    'Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000009'; do
    ends "$l" || fail "a Xen or dom0 panic not taken as one: '$l'"
done
for l in \
    '[guest-vmdiskcmp-2026-12-06T031926.251Z-vdclab-d31db2.log] [  301.969796] Kernel panic - not syncing: System is deadlocked on memory' \
    '[guest-vmdiskcmp-x.log] Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000009' \
    'vmdiskcmp: domain vmdiskcmp-2026-12-06T031926.251Z-vdclab-d31db2: crashed or rebooted' \
    '  console: [    3.1] Kernel panic - not syncing: Out of memory' \
    '[  186.290245] vdc-lab-job[307]: VDC-LAB: dom0-ready 183.26s'; do
    ends "$l" && fail "a domU's panic or the job's output taken as the lab's: '$l'"
done
echo "PASS: the lab ends on Xen's and dom0's panics only"
