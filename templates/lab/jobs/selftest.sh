#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vmdiskcmp emulated Xen lab self-test, run as the lab job inside dom0 (no
# vmdiskcmp needed): proves Xen, dom0, the VG, and PV domUs with both disk
# kinds, reading the backend each disk really got from xenstore.
#
# Input ($LAB_IN): mini/vmlinuz, mini/initrd.img (mini-domu.sh).
# For each case: a 256 MiB sparse image file and a 256 MiB LV in $LAB_VG are
# attached to a PV domU whose init writes and reads back a pattern on each
# xvd disk; then the backend facts are read from
# /local/domain/0/backend/{vbd,qdisk}/DOMID/DEVID.  Cases:
#   xl-tap      xl  'tap:aio:IMG,xvdb,w'  'phy:/dev/VG/LV,xvdc,w'
#   xl-qdisk    xl  'format=raw,vdev=xvdb,access=w,backendtype=qdisk,target=IMG' + LV
#   virsh-file  libvirt xen:///system: file disk (no driver) + block disk
#               (only with LAB_SELFTEST_LIBVIRT=1)
# Output ($LAB_OUT/selftest/): results.txt, one line per fact:
#   case=C disk=xvdb backend=vbd|qdisk type=phy|qdisk params=... node=...
#   case=C disk=xvdb domu=write=ok read=ok
#   case=C create_seconds=N domu_seconds=N
# plus the raw xenstore dumps.  Exit 0 only if every domU saw every disk
# read back and every backend was found.
set -u
out=$LAB_OUT/selftest
mkdir -p "$out"
res=$out/results.txt
: >"$res"
status=0
note() { echo "$*" | tee -a "$res"; }
bad() { note "FAIL $*"; status=1; }

# libxl times hotplug scripts out after 40 s: see xen-block-lab
if [ -f "$LAB_IN/xen-block-lab" ]; then
    cp /etc/xen/scripts/block /etc/xen/scripts/block.xen
    install -m 755 "$LAB_IN/xen-block-lab" /etc/xen/scripts/block
fi
kernel=$LAB_IN/mini/vmlinuz
ramdisk=$LAB_IN/mini/initrd.img
img=/var/lib/vdclab-selftest.img
lv=/dev/$LAB_VG/selftest
truncate -s 256M "$img"
lvcreate -q -y -L 256M -n selftest "$LAB_VG" >"$out/lvcreate.log" 2>&1 || bad "lvcreate in $LAB_VG"

# backends NAME DOMID: record what xenstore says each vdev of DOMID got
backends() {
    c=$1 domid=$2
    xenstore-ls -f "/local/domain/0/backend" >"$out/$c-xenstore.txt" 2>&1
    for kind in vbd qdisk; do
        for dev in $(xenstore-list "/local/domain/0/backend/$kind/$domid" 2>/dev/null); do
            b=/local/domain/0/backend/$kind/$domid/$dev
            vdev=$(xenstore-read "$b/dev" 2>/dev/null)
            note "case=$c disk=$vdev backend=$kind type=$(xenstore-read "$b/type" 2>/dev/null)" \
                 "params=$(xenstore-read "$b/params" 2>/dev/null)" \
                 "physical-device-path=$(xenstore-read "$b/physical-device-path" 2>/dev/null)" \
                 "node=$(xenstore-read "$b/node" 2>/dev/null)" \
                 "mode=$(xenstore-read "$b/mode" 2>/dev/null)"
        done
    done
}

# wait_gone NAME: the domU powers itself off; give it 300 s
wait_gone() {
    i=0
    while xl domid "$1" >/dev/null 2>&1; do
        i=$((i+1)); [ $i -gt 300 ] && { xl destroy "$1"; return 1; }
        sleep 1
    done
}

# domu_lines CASE NAME: the domU's verdicts from its console log
domu_lines() {
    log=/var/log/xen/console/guest-$2.log
    for d in xvdb xvdc; do
        l=$(grep -a "VDC-DOMU: $d " "$log" 2>/dev/null | tail -n1)
        case "$l" in
            *write=ok\ read=ok*) note "case=$1 disk=$d domu=write=ok read=ok size=$(echo "$l" | cut -d' ' -f3)" ;;
            *) bad "case=$1 disk=$d domu='${l:-no line in $log}'" ;;
        esac
    done
}

xl_case() {
    c=$1 spec=$2 name=vdc-$1
    cat >"$out/$c.cfg" <<EOF
name = "$name"
type = "pv"
kernel = "$kernel"
ramdisk = "$ramdisk"
extra = "console=hvc0 quiet"
memory = 256
vcpus = 1
on_poweroff = "destroy"
on_crash = "destroy"
disk = [ '$spec', 'phy:$lv,xvdc,w' ]
EOF
    t0=$(date +%s)
    if ! timeout 180 xl create "$out/$c.cfg" >"$out/$c-create.log" 2>&1; then
        bad "case=$c xl create failed: $(tail -n 3 "$out/$c-create.log" | tr '\n' ' ')"
        xl destroy "$name" 2>/dev/null
        return
    fi
    t1=$(date +%s)
    backends "$c" "$(xl domid "$name")"
    wait_gone "$name" || bad "case=$c domU did not power off in 300 s"
    t2=$(date +%s)
    note "case=$c create_seconds=$((t1 - t0)) domu_seconds=$((t2 - t1))"
    domu_lines "$c" "$name"
}

xl_case xl-tap "tap:aio:$img,xvdb,w"
xl_case xl-qdisk "format=raw,vdev=xvdb,access=w,backendtype=qdisk,target=$img"

if [ "${LAB_SELFTEST_LIBVIRT:-0}" = 1 ]; then
    c=virsh-file name=vdc-virsh-file
    t0=$(date +%s)
    # the monolithic daemon, as on the host (no libvirt-daemon-system unit);
    # its QEMU driver also wants the group libvirt-qemu (qemu.conf default)
    getent group libvirt-qemu >/dev/null || groupadd -r libvirt-qemu
    pgrep -x virtlogd >/dev/null || virtlogd -d
    pgrep -x libvirtd >/dev/null || libvirtd -d
    i=0; until [ -S /run/libvirt/libvirt-sock ]; do
        i=$((i+1)); [ $i -gt 120 ] && break; sleep 1; done
    timeout 180 virsh -c xen:///system version >"$out/$c-version.txt" 2>&1
    virsh -c xen:///system capabilities >"$out/$c-capabilities.xml" 2>&1 ||
        bad "case=$c libvirt xen:///system not usable: $(head -c 300 "$out/$c-capabilities.xml")"
    note "case=$c libvirtd_seconds=$(( $(date +%s) - t0 ))"
    cat >"$out/$c.xml" <<EOF
<domain type='xen'>
  <name>$name</name>
  <memory unit='MiB'>256</memory>
  <vcpu>1</vcpu>
  <os><type arch='x86_64' machine='xenpv'>linux</type>
    <kernel>$kernel</kernel><initrd>$ramdisk</initrd><cmdline>console=hvc0 quiet</cmdline></os>
  <on_poweroff>destroy</on_poweroff>
  <devices>
    <disk type='file' device='disk'><source file='$img'/><target dev='xvdb' bus='xen'/></disk>
    <disk type='block' device='disk'><driver name='phy'/><source dev='$lv'/><target dev='xvdc' bus='xen'/></disk>
    <console type='pty'/>
  </devices>
</domain>
EOF
    t0=$(date +%s)
    if timeout 240 virsh -c xen:///system create "$out/$c.xml" >"$out/$c-create.log" 2>&1; then
        t1=$(date +%s)
        virsh -c xen:///system dumpxml "$name" >"$out/$c-live.xml" 2>&1
        backends "$c" "$(xl domid "$name")"
        wait_gone "$name" || bad "case=$c domU did not power off in 300 s"
        note "case=$c create_seconds=$((t1 - t0)) domu_seconds=$(( $(date +%s) - t1 ))"
        domu_lines "$c" "$name"
    else
        bad "case=$c virsh create failed: $(tail -n 3 "$out/$c-create.log" | tr '\n' ' ')"
    fi
fi

lvremove -q -y "$lv" >>"$out/lvcreate.log" 2>&1 || bad "lvremove $lv"
rm -f "$img"
note "selftest status=$status"
exit $status
