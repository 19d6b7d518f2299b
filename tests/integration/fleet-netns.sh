#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The fleet end to end on one machine: contrib/ansible/fleet.yml drives
# three "hosts", each a network namespace of its own (a veth pair to the
# controller's namespace, addresses this test makes, an OpenSSH sshd with a
# host key this test generates, in a mount namespace of its own), from a
# fourth namespace, the controller: no traffic leaves the namespaces made
# here.  The playbook installs the Debian package (make deb; the hosts share
# this machine's root filesystem, so it is installed once, by whichever
# host's apt-get comes first, the others find the version there) and runs a
# real job on each host: the dom0 baseline on an image file (loop device,
# ext4, the packaged agent), 2 runs.  h3's job names a VG that does not
# exist: it fails.  Three more inventory entries are bad input: h4 has a
# variable the role does not know (vdc_vgg), h5 is unreachable, h6 logs in
# to h2 as a user who is not root (known only in h2's mount namespace).  Checks:
# h1 and h2's results fetched and merged (fleet.txt: headline and spread),
# the other four's rows name their failures, the playbook exits 2; run again
# on h1 alone, the install is skipped and the merge redone; on the
# hosts nothing left but the package (scratch directories gone, nothing
# mounted in any host's mount namespace, no loop device on our files, no
# process left in any namespace); the namespaces removed; the package
# removed again when this test installed it.
# Run time here: about 100 s (the playbook 55-80 s, again on h1 25 s), plus
# `make deb` (70-135 s) when $top_builddir/deb holds no package newer than
# the program, debian/, contrib/ and the man page.
. "$top_srcdir/tests/lib.sh"
need_root
need_cmd ip
need_cmd ansible-playbook
need_cmd ssh-keygen
need_cmd ssh
need_cmd losetup
need_cmd unshare
need_cmd python3
need_cmd dpkg-buildpackage
[ -x /usr/sbin/sshd ] || skip "needs OpenSSH's sshd (openssh-server)"
ip netns add "vdc-probe-$$" 2>/dev/null || skip "cannot make a network namespace (ip netns add)"
ip netns del "vdc-probe-$$"

# ---- the package: make deb, unless one newer than the program and the packaging is there ----
deb=$(ls -t "$top_builddir"/deb/vmdiskcmp_*.deb 2>/dev/null | head -n1)
if [ -z "$deb" ] || [ -n "$(find "$top_builddir/src/vmdiskcmp" "$top_srcdir/debian" "$top_srcdir/contrib" \
                                 "$top_srcdir/doc/vmdiskcmp.1" -newer "$deb" 2>/dev/null | head -n1)" ]; then
    t0=$(date +%s)
    make -C "$top_builddir" deb >"${TMPDIR:-/tmp}/vdc-fleet-deb.$$.log" 2>&1 || {
        tail -30 "${TMPDIR:-/tmp}/vdc-fleet-deb.$$.log" >&2
        rm -f "${TMPDIR:-/tmp}/vdc-fleet-deb.$$.log"
        fail "make deb failed"
    }
    rm -f "${TMPDIR:-/tmp}/vdc-fleet-deb.$$.log"
    echo "make deb: $(( $(date +%s) - t0 )) s"
    deb=$(ls -t "$top_builddir"/deb/vmdiskcmp_*.deb | head -n1)
fi
version=$(dpkg-deb --field "$deb" Version) || fail "$deb: not a package"
had=$(dpkg-query --showformat='${Status}:${Version}' --show vmdiskcmp 2>/dev/null || true)

work=$(mktemp -d "${TMPDIR:-/tmp}/vdc-fleet.XXXXXX")
chmod 755 "$work"
tag=$$
ctl=vdcf-ctl-$tag
hosts="h1 h2 h3"
sshd_pids=

cleanup() {
    st=$?
    if [ "$st" != 0 ] && [ -s "$work/playbook.log" ]; then
        echo "---- the playbook's output (last 80 lines) ----" >&2
        tail -80 "$work/playbook.log" >&2
    fi
    for p in $sshd_pids; do kill "$p" 2>/dev/null; done
    for n in $ctl vdcf-h1-$tag vdcf-h2-$tag vdcf-h3-$tag; do
        for p in $(ip netns pids "$n" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
        ip netns del "$n" 2>/dev/null
    done
    for l in $(losetup -n -O NAME,BACK-FILE 2>/dev/null | awk -v w="$work" 'index($2, w) == 1 { print $1 }'); do
        losetup -d "$l"
    done
    case "$had" in
        "install ok installed:"*) ;;
        *) dpkg -r vmdiskcmp >/dev/null 2>&1 ;;
    esac
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# ---- namespaces: the controller, one per host, a veth pair each -------------------
ip netns add "$ctl" || fail "ip netns add $ctl"
ip -n "$ctl" link set lo up
k=0
for h in $hosts; do
    k=$((k + 1))
    ns=vdcf-$h-$tag
    ip netns add "$ns" || fail "ip netns add $ns"
    ip -n "$ns" link set lo up
    ip link add "vfc$k-$tag" netns "$ctl" type veth peer name "vfh$k-$tag" netns "$ns" ||
        fail "cannot make the veth pair of $h"
    ip -n "$ctl" addr add "10.231.$k.1/30" dev "vfc$k-$tag"
    ip -n "$ns" addr add "10.231.$k.2/30" dev "vfh$k-$tag"
    ip -n "$ctl" link set "vfc$k-$tag" up
    ip -n "$ns" link set "vfh$k-$tag" up
done

# ---- keys and one sshd per host (its own mount namespace) ------------------------
ssh-keygen -q -t ed25519 -N '' -C vdc-fleet-test -f "$work/id" || fail "ssh-keygen"
cp "$work/id.pub" "$work/authorized_keys"
: >"$work/known_hosts"
# sshd wants its privilege separation directory (the openssh-server package
# makes it when its own service starts, which no test does)
[ -d /run/sshd ] || { mkdir -p /run/sshd && chmod 755 /run/sshd; }
k=0
for h in $hosts; do
    k=$((k + 1))
    d=$work/$h
    mkdir -p "$d/img" "$d/tmp"
    ssh-keygen -q -t ed25519 -N '' -f "$d/hostkey" || fail "ssh-keygen $h"
    echo "10.231.$k.2 $(cut -d' ' -f1,2 "$d/hostkey.pub")" >>"$work/known_hosts"
    cat >"$d/sshd_config" <<EOF
ListenAddress 10.231.$k.2
Port 22
HostKey $d/hostkey
PidFile $d/sshd.pid
AuthorizedKeysFile $work/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
X11Forwarding no
Subsystem sftp internal-sftp
EOF
    # a mount and a UTS namespace of its own: its mounts stay its own, its
    # hostname is its name (vmdiskcmp names its domains after it)
    # h2's namespace also knows a user who is not root (its own /etc/passwd,
    # bound over the shared one there only): h6 logs in as that user
    extra=
    if [ "$h" = h2 ]; then
        mkdir -p "$work/h6"
        chown 64123:64123 "$work/h6"
        { cat /etc/passwd; echo "vdcfleet:x:64123:64123:fleet test:$work/h6:/bin/sh"; } >"$d/passwd"
        extra="mount --bind '$d/passwd' /etc/passwd &&"
    fi
    ip netns exec "vdcf-$h-$tag" unshare -m -u --propagation private \
        sh -c "hostname vdcf-$h && $extra exec /usr/sbin/sshd -D -e -f '$d/sshd_config'" 2>"$d/sshd.log" &
    sshd_pids="$sshd_pids $!"
done
for h in $hosts; do
    i=0
    while ! grep -q "Server listening" "$work/$h/sshd.log"; do
        i=$((i + 1))
        [ $i -lt 100 ] || fail "sshd of $h did not start: $(cat "$work/$h/sshd.log")"
        sleep 0.1
    done
done

# ---- the job: the dom0 baseline; with VDC_FLEET_LIBVIRT=1 also a domU image
# through libvirt qemu:///system under TCG (a prepared guest image copied to
# each host and checked by its sha256; about 2 minutes more)
job="vdc_targets: [dom0]
        vdc_runs: 2"
if [ "${VDC_FLEET_LIBVIRT:-0}" = 1 ]; then
    need_cmd virsh
    sh "$top_srcdir/scripts/start-services.sh" || fail "scripts/start-services.sh failed"
    timeout 60 virsh -c qemu:///system version >/dev/null 2>&1 || fail "libvirtd does not answer on qemu:///system"
    timeout 600 sh "$top_srcdir/templates/guest/build-template.sh" "$top_builddir/guest-template" >/dev/null ||
        fail "building the guest template failed"
    # the package's own agent and runner go into the guest image
    dpkg-deb -x "$deb" "$work/pkg" || fail "dpkg-deb -x $deb"
    LIBGUESTFS_BACKEND=direct LIBGUESTFS_BACKEND_SETTINGS=force_tcg \
        LIBGUESTFS_CACHEDIR="${LIBGUESTFS_CACHEDIR:-$top_builddir/guestfs-cache}" \
        "$VMDISKCMP" prepare --guest-image "$top_builddir/guest-template/guest.img" --quiet \
        --agent "$work/pkg/usr/libexec/vmdiskcmp/vmdiskcmp-agent" \
        --runner "$work/pkg/usr/libexec/vmdiskcmp/vmdiskcmp-runner" \
        --cache-dir "$work/prepare-cache" --out "$work/prepared.img" >/dev/null ||
        fail "vmdiskcmp prepare failed"
    job="vdc_targets: [image, dom0]
        vdc_runs: 1
        vdc_size: 8M
        vdc_hypervisor: libvirt
        vdc_connect: qemu:///system
        vdc_accel: tcg
        vdc_timeout: 600
        vdc_prepared_image: $work/prepared.img"
else
    echo "the libvirt variant is not run (VDC_FLEET_LIBVIRT=1 runs it)"
fi

# ---- the inventory and ansible's settings --------------------------------------------
mkdir -p "$work/results" "$work/ctl-home" "$work/ansible-local"
cat >"$work/inventory.yml" <<EOF
all:
  children:
    vmdiskcmp_hosts:
      vars:
        ansible_user: root
        ansible_ssh_private_key_file: $work/id
        ansible_python_interpreter: /usr/bin/python3
        vdc_deb: $deb
        vdc_results_dir: $work/results
        vdc_fleet_date: test
        $job
        vdc_seed: "42"
        vdc_dom0_on: image
        vdc_dom0_size: 8M
        vdc_install_recommends: false
        vdc_extra_args: [--guest-memory, "256",
                         --agent-options, "-n 0 --per-char=stdio", --quiet]
      hosts:
        h1:
          ansible_host: 10.231.1.2
          ansible_remote_tmp: $work/h1/tmp
          vdc_work_dir: $work/h1/work
          vdc_image_dir: $work/h1/img
        h2:
          ansible_host: 10.231.2.2
          ansible_remote_tmp: $work/h2/tmp
          vdc_work_dir: $work/h2/work
          vdc_image_dir: $work/h2/img
          vdc_dom0_size: 12M
        h3:
          ansible_host: 10.231.3.2
          ansible_remote_tmp: $work/h3/tmp
          vdc_work_dir: $work/h3/work
          vdc_image_dir: $work/h3/img
          vdc_dom0_on: lvm
          vdc_vg: vdc-missing-$tag
        h4:
          ansible_host: 10.231.1.2
          ansible_remote_tmp: $work/h1/tmp
          vdc_work_dir: $work/h1/work4
          vdc_image_dir: $work/h1/img
          vdc_vgg: vg0
        h5:
          ansible_host: 10.231.9.2
          vdc_work_dir: $work/h5/work
        h6:
          ansible_host: 10.231.2.2
          ansible_user: vdcfleet
          ansible_remote_tmp: $work/h6/tmp
          vdc_work_dir: $work/h6/work
EOF
cat >"$work/ansible.cfg" <<EOF
[defaults]
forks = 6
local_tmp = $work/ansible-local
retry_files_enabled = False
interpreter_python = /usr/bin/python3
[ssh_connection]
pipelining = True
ssh_args = -o ControlMaster=no -o UserKnownHostsFile=$work/known_hosts -o StrictHostKeyChecking=yes -o IdentitiesOnly=yes -o ConnectTimeout=5
EOF

# ---- the playbook, from the controller's namespace ---------------------------------
start=$(date +%s)
rc=0
( cd "$work" && HOME=$work/ctl-home ANSIBLE_CONFIG=$work/ansible.cfg \
    ip netns exec "$ctl" ansible-playbook -i "$work/inventory.yml" \
    "$top_srcdir/contrib/ansible/fleet.yml" -e vdc_install_throttle=1 ) \
    >"$work/playbook.log" 2>&1 || rc=$?
echo "playbook: exit $rc in $(( $(date +%s) - start )) s"
[ "$rc" = 2 ] || { tail -60 "$work/playbook.log" >&2; fail "ansible-playbook: exit $rc, expected 2 (failed hosts)"; }

# the package is installed (once: the hosts share this root filesystem)
[ "$(dpkg-query --showformat='${Status}:${Version}' --show vmdiskcmp)" = "install ok installed:$version" ] ||
    fail "the playbook did not install vmdiskcmp $version"
man -w vmdiskcmp >/dev/null 2>&1 || [ -f /usr/share/man/man1/vmdiskcmp.1.gz ] ||
    fail "the package's man page is not installed"

# each host's error, per host, in the playbook's output
grep -q "host h3: vmdiskcmp run exit 2: vmdiskcmp: storage dom0: VG vdc-missing-$tag" "$work/playbook.log" ||
    fail "h3's failure is not reported: $(grep -n 'h3' "$work/playbook.log" | tail -5)"
grep -q "host h4: unknown host variable vdc_vgg" "$work/playbook.log" || fail "h4's unknown variable is not reported"
grep -q "host h5: unreachable" "$work/playbook.log" || fail "h5's unreachability is not reported"
grep -q "host h6: not root (connected as vdcfleet)" "$work/playbook.log" || fail "h6's login as non-root is not reported"

# ---- what came back, and the merge -----------------------------------------------------
r=$work/results/fleet-test
for h in h1 h2; do
    [ -s "$r/$h/result.json" ] || fail "$h: no result.json fetched"
    [ -e "$r/$h/fleet-failed.txt" ] && fail "$h: marked failed: $(cat "$r/$h/fleet-failed.txt")"
done
for h in h3 h4 h5 h6; do
    [ -s "$r/$h/fleet-failed.txt" ] || fail "$h: no fleet-failed.txt"
done
m=$r.merged/fleet.txt
[ -s "$m" ] || fail "the playbook did not merge: no $m"
grep -q "^vmdiskcmp fleet report: 6 hosts, 2 with results, 4 without (named below)" "$m" ||
    fail "fleet.txt: $(head -3 "$m")"
grep -q "^  h1    ok  " "$m" && grep -q "^  h2    ok  " "$m" || fail "fleet.txt: h1 and h2 not ok"
grep -q "^  h3    FAILED    vmdiskcmp run exit 2: vmdiskcmp: storage dom0: VG vdc-missing-$tag" "$m" ||
    fail "fleet.txt does not name h3's failure: $(grep '^  h3' "$m")"
grep -q "^  h4    FAILED    unknown host variable vdc_vgg" "$m" || fail "fleet.txt: h4's row: $(grep '^  h4' "$m")"
grep -q "^  h5    FAILED    unreachable: " "$m" || fail "fleet.txt: h5's row: $(grep '^  h5' "$m")"
grep -q "^  h6    FAILED    not root (connected as vdcfleet)" "$m" || fail "fleet.txt: h6's row: $(grep '^  h6' "$m")"
grep -q "^  dom0, Sequential output, block  *K/sec  lowest .* 2 hosts$" "$m" || fail "fleet.txt: no spread of dom0"
python3 - "$r.merged/result.json" "${VDC_FLEET_LIBVIRT:-0}" <<'EOF' || fail "the merged result.json is not h1's and h2's runs"
import json, sys
d = json.load(open(sys.argv[1]))
targets = ["dom0", "image"] if sys.argv[2] == "1" else ["dom0"]
names = sorted(t["name"] for t in d["targets"])
assert names == sorted(f"{t}@{h}" for t in targets for h in ("h1", "h2")), names
runs = [r for r in d["runs"] if r["status"] == "ok"]
assert len(runs) == 4, len(runs)
for r in runs:
    assert any(s["test"] == "put_block" for s in r["samples"]), r["target"]
EOF
if [ "${VDC_FLEET_LIBVIRT:-0}" = 1 ]; then
    for h in h1 h2; do
        name=$(sed -n 's/.*"domain_name" : "\([^"]*\)".*/\1/p' "$r/$h/plan.json")
        [ -n "$name" ] || fail "$h: plan.json names no domain"
        virsh -c qemu:///system list --all --name | grep -qx "$name" && fail "$h: domain $name left"
    done
fi

# ---- again on h1 alone: the install is skipped (the version is there), the
# result is replaced, the merge redone ---------------------------------------------------
start=$(date +%s)
rc=0
( cd "$work" && HOME=$work/ctl-home ANSIBLE_CONFIG=$work/ansible.cfg \
    ip netns exec "$ctl" ansible-playbook -i "$work/inventory.yml" --limit h1,localhost \
    "$top_srcdir/contrib/ansible/fleet.yml" ) >"$work/playbook2.log" 2>&1 || rc=$?
echo "playbook again on h1: exit $rc in $(( $(date +%s) - start )) s"
[ "$rc" = 0 ] || { tail -40 "$work/playbook2.log" >&2; fail "the second playbook run on h1: exit $rc"; }
awk '/^TASK \[vmdiskcmp_fleet : Install it with its dependencies\]/ { getline; print; exit }' \
    "$work/playbook2.log" | grep -q "^skipping: \[h1\]" || fail "the second run installed the package again"
[ -s "$r/h1/result.json" ] && [ -s "$m" ] || fail "the second run left no result or no merge"
grep -q "^  h1    ok  " "$m" || fail "after the second run, h1 is not ok in fleet.txt"

# ---- nothing left on the hosts but the package ------------------------------------------
for h in $hosts; do
    [ -e "$work/$h/work" ] && fail "$h: its scratch directory $work/$h/work was left"
    left=$(find "$work/$h/img" "$work/$h/tmp" -mindepth 1 2>/dev/null | head -3)
    [ -z "$left" ] || fail "$h: left on the host: $left"
done
[ -e "$work/h1/work4" ] && fail "h4: its scratch directory was left"
for p in $sshd_pids; do
    left=$(awk -v w="$work" 'index($5, w) == 1 { print $5 }' "/proc/$p/mountinfo" 2>/dev/null)
    [ -z "$left" ] || fail "a mount under $work is left in sshd $p's mount namespace: $left"
done
[ -e "$work/h6/work" ] && fail "h6: its scratch directory was left"
losetup -n -O BACK-FILE 2>/dev/null | grep -q "^$work" && fail "a loop device on $work is left"
for p in $sshd_pids; do kill "$p"; wait "$p" 2>/dev/null; done
sshd_pids=
for n in $ctl vdcf-h1-$tag vdcf-h2-$tag vdcf-h3-$tag; do
    left=$(ip netns pids "$n")
    [ -z "$left" ] || fail "processes left in namespace $n: $(ps -o pid,args -p "$(echo $left | tr ' ' ,)")"
    ip netns del "$n" || fail "ip netns del $n"
done
for n in $ctl vdcf-h1-$tag vdcf-h2-$tag vdcf-h3-$tag; do
    ip netns list | grep -q "^$n\b" && fail "namespace $n is still there"
done
cat "$m"
echo "ok"
