#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vmdiskcmp prepare installs the runner for the template's init system:
# two minimal templates made here with mke2fs -d (no mount), one systemd
# (/sbin/init -> /lib/systemd/systemd) and one sysvinit (/sbin/init a file,
# /etc/inittab), prepared with the real appliance (TCG) and inspected
# read-only with guestfish: the systemd unit and its multi-user.target.wants
# link, the sysvinit inittab line (added once, after the template's lines).
# The busybox case is guest-prepare.sh.  Run time here: about 1.5-2 minutes
# (three appliance launches).
set -eu
. "$top_srcdir/tests/integration/guest-common.sh"
need_cmd mke2fs

tmp=$(mktemp -d /tmp/vdc-guest-init.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM

make_template() {  # NAME: root in $tmp/NAME.root -> $tmp/NAME.img + manifest
    mke2fs -q -t ext4 -d "$tmp/$1.root" "$tmp/$1.img" 16M >/dev/null 2>&1 || fail "mke2fs $1"
    echo kernel > "$tmp/$1.vmlinuz"
    echo initrd > "$tmp/$1.initrd"
    printf '[boot]\nkernel=%s.vmlinuz\ninitrd=%s.initrd\ncmdline_xen=root=/dev/xvda ro\ncmdline_kvm=root=/dev/vda ro\n' \
        "$1" "$1" > "$tmp/$1.img.manifest"
}

r="$tmp/sd.root"
mkdir -p "$r/etc/systemd/system" "$r/lib/systemd" "$r/sbin" "$r/usr/lib"
echo 'not really systemd' > "$r/lib/systemd/systemd"
ln -s /lib/systemd/systemd "$r/sbin/init"
make_template sd

r="$tmp/sv.root"
mkdir -p "$r/etc" "$r/sbin"
echo 'not really init' > "$r/sbin/init"
printf 'id:2:initdefault:\n# a comment naming /usr/lib/vmdiskcmp/vmdiskcmp-runner\n1:2345:respawn:/sbin/getty 38400 tty1\n' > "$r/etc/inittab"
make_template sv

for t in sd sv; do
    timeout 900 "$VMDISKCMP" prepare -q --guest-image "$tmp/$t.img" --agent "$VDC_AGENT" \
        --runner "$VDC_RUNNER" --cache-dir "$tmp/cache" --timeout 600 > "$tmp/$t.out" \
        || fail "prepare of the $t template failed"
done
[ "$(field "$tmp/sd.out" init_system)" = systemd ] || fail "systemd template detected as $(field "$tmp/sd.out" init_system)"
[ "$(field "$tmp/sv.out" init_system)" = sysvinit ] || fail "sysvinit template detected as $(field "$tmp/sv.out" init_system)"

timeout 600 guestfish --ro -a "$(field "$tmp/sd.out" cache_image)" -a "$(field "$tmp/sv.out" cache_image)" <<'GF' > "$tmp/inside" || fail "guestfish failed"
run
mount-ro /dev/sda /
echo ==sd-unit
cat /etc/systemd/system/vmdiskcmp-runner.service
echo ==sd-link
readlink /etc/systemd/system/multi-user.target.wants/vmdiskcmp-runner.service
echo ==sd-files
is-file /usr/lib/vmdiskcmp/vmdiskcmp-runner
is-file /usr/lib/vmdiskcmp/vmdiskcmp-agent
umount /
mount-ro /dev/sdb /
echo ==sv-inittab
cat /etc/inittab
echo ==sv-files
is-file /usr/lib/vmdiskcmp/vmdiskcmp-runner
GF
cat "$tmp/inside"
sect() { sed -n "/^==$1\$/,/^==/p" "$tmp/inside"; }
sect sd-unit | grep -qx 'ExecStart=/usr/lib/vmdiskcmp/vmdiskcmp-runner' || fail "systemd unit lacks ExecStart"
sect sd-unit | grep -qx 'WantedBy=multi-user.target' || fail "systemd unit lacks WantedBy"
sect sd-link | grep -qx '/etc/systemd/system/vmdiskcmp-runner.service' || fail "unit not enabled"
[ "$(sect sd-files | grep -c '^true$')" = 2 ] || fail "agent/runner missing in the systemd template"
sect sv-inittab | grep -qx 'vdcr:2345:once:/usr/lib/vmdiskcmp/vmdiskcmp-runner' || fail "sysvinit inittab line missing"
[ "$(sect sv-inittab | grep -c '^vdcr:')" = 1 ] || fail "sysvinit line added twice"
sect sv-inittab | grep -qx '1:2345:respawn:/sbin/getty 38400 tty1' || fail "template inittab lines lost"
sect sv-files | grep -qx true || fail "runner missing in the sysvinit template"
echo "PASS: guest-prepare-init"
