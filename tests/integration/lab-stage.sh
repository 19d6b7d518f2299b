#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What `vmdiskcmp lab run --prepared IMG` hands dom0, without a boot: the
# real vmdiskcmp and templates/lab/lab.sh, with the two stages that build
# and boot the lab replaced by stubs (build-dom0.sh names a fake lab,
# boot-lab.sh keeps the input tar).  The tar must hold the binaries as a
# build tree holds them (bin/vmdiskcmp, guest-agent/), the template IMG was
# prepared from as guest-template/ and IMG as prepare-cache/KEY/; job.sh
# must seed the prepare cache from it and run the job with nothing added
# but what it typed (a dry run: no --out).  Then the handed-in vmdiskcmp,
# run from the extracted tree against the seeded cache, must take the
# template by itself and find it prepared (the path dom0 takes; libguestfs
# never runs).  The template and the prepared image are small fakes whose
# digests are real.  Run time here: about 1-2 s.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "VMDISKCMP not built: $VMDISKCMP"
need_cmd bash
need_cmd tar
agent=$(dirname "$VMDISKCMP")/../guest-agent/vmdiskcmp-agent
runner=$(dirname "$VMDISKCMP")/../guest-agent/vmdiskcmp-runner
[ -f "$agent" ] && [ -f "$runner" ] || skip "needs the agent and runner built beside $VMDISKCMP"

top=$(mktemp -d "${TMPDIR:-/tmp}/vdc-lab-stage.XXXXXX")
trap 'rm -rf "$top"' EXIT INT TERM
cp -r "$top_srcdir/templates/lab" "$top/tpl"
mkdir -p "$top/labd"
: >"$top/labd/complete"
: >"$top/labd/sonames.txt"
cat >"$top/tpl/build-dom0.sh" <<STUB
#!/bin/bash
echo "$top/labd"
STUB
cat >"$top/tpl/boot-lab.sh" <<STUB
#!/bin/bash
# LAB_DIR IN_TAR OUT_DIR TIMEOUT: keep the input, boot nothing
cp "\$2" "$top/in.tar" && mkdir -p "\$3/lab"
echo "\${LAB_BOOT_DOM0_MEM_MIB:-unset}" >"$top/dom0-mem"
STUB
VDC_LAB_DIR=$top/tpl VDC_LAB_CACHE=$top/cache
export VDC_LAB_DIR VDC_LAB_CACHE
mkdir -p "$top/cache"

# a template and the image "prepared" from it with these helpers
mkdir -p "$top/t" "$top/p"
echo template >"$top/t/guest.img"
printf '[template]\nformat=1\n[boot]\nkernel=vmlinuz\ninitrd=initrd.img\ncmdline_xen=root=/dev/xvda\ncmdline_kvm=root=/dev/vda\n' \
    >"$top/t/guest.img.manifest"
echo kernel >"$top/t/vmlinuz"
echo initrd >"$top/t/initrd.img"
ts=$(sha256sum <"$top/t/guest.img" | cut -c1-64)
as=$(sha256sum <"$agent" | cut -c1-64)
rs=$(sha256sum <"$runner" | cut -c1-64)
key=$(printf 'vmdiskcmp-prepare-v1\n%s\n%s\n%s\n' "$ts" "$as" "$rs" | sha256sum | cut -c1-64)
echo prepared >"$top/p/g.img"
echo kernel >"$top/p/g.img.vmlinuz"
echo initrd >"$top/p/g.img.initrd"
printf '[prepared]\nkey=%s\ntemplate=%s\ntemplate_sha256=%s\nagent_sha256=%s\nrunner_sha256=%s\ninit_system=busybox\n[boot]\nkernel=g.img.vmlinuz\ninitrd=g.img.initrd\ncmdline_xen=root=/dev/xvda\ncmdline_kvm=root=/dev/vda\nroot_mode=ro\n' \
    "$key" "$top/t/guest.img" "$ts" "$as" "$rs" >"$top/p/g.img.manifest"

# dom0's memory: checked before the boot, handed to the boot as asked
rc=0
"$VMDISKCMP" lab run --out "$top/out" --dom0-memory 100 --prepared "$top/p/g.img" -- --image --dry-run \
    >"$top/stdout" 2>"$top/stderr" || rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <"$top/stderr")" = 1 ] && grep -q -- "--dom0-memory" "$top/stderr" ||
    fail "lab run --dom0-memory 100: exit $rc, expected 2 and one line: $(cat "$top/stderr")"
[ ! -e "$top/in.tar" ] && [ ! -e "$top/out" ] || fail "lab run --dom0-memory 100: went on to the boot"
"$VMDISKCMP" lab run --out "$top/out" --dom0-memory 320 --prepared "$top/p/g.img" -- --image --lvm --dom0 --dry-run \
    >"$top/stdout" 2>"$top/stderr" || fail "lab run (stubbed boot) failed: $(cat "$top/stderr")"
[ -f "$top/in.tar" ] || fail "no input tar reached the boot stage"
[ "$(cat "$top/dom0-mem")" = 320 ] || fail "--dom0-memory 320: the boot got LAB_BOOT_DOM0_MEM_MIB=$(cat "$top/dom0-mem")"
grep -qx "LAB_BOOT_DOM0_MEM_MIB=320" "$top/out/lab/request" || fail "--dom0-memory 320: not in the request"
mkdir "$top/in"
tar -xf "$top/in.tar" -C "$top/in" || fail "the input tar does not extract"
for f in bin/vmdiskcmp guest-agent/vmdiskcmp-agent guest-agent/vmdiskcmp-runner \
         guest-template/guest.img guest-template/guest.img.manifest guest-template/vmlinuz \
         guest-template/initrd.img "prepare-cache/$key/guest.img" "prepare-cache/$key/guest.img.manifest" \
         "prepare-cache/$key/g.img.vmlinuz" "prepare-cache/$key/g.img.initrd" job.sh; do
    [ -f "$top/in/$f" ] || fail "not handed in: $f ($(cd "$top/in" && find . -type f | sort | xargs))"
done
cmp -s "$top/in/guest-template/guest.img" "$top/t/guest.img" || fail "the template was not handed in as it is"
cmp -s "$top/in/prepare-cache/$key/guest.img" "$top/p/g.img" || fail "the prepared image was not handed in as it is"
grep -qx "( set -x; exec vmdiskcmp '--image' '--lvm' '--dom0' '--dry-run' ); r=\$?" "$top/in/job.sh" ||
    fail "the job got more than it typed: $(grep 'exec vmdiskcmp' "$top/in/job.sh")"

# job.sh's seeding of the prepare cache, into a cache of this test's
sed -n '/^# the guest prepared on the host/,/; fi$/p' "$top/in/job.sh" >"$top/seed.sh"
grep -q "^pc='/var/cache/vmdiskcmp'$" "$top/seed.sh" || fail "job.sh does not seed the default prepare cache: $(cat "$top/seed.sh")"
sed -i "s|^pc=.*|pc='$top/seeded'|" "$top/seed.sh"
LAB_IN=$top/in sh "$top/seed.sh" || fail "seeding the prepare cache failed"
cmp -s "$top/seeded/$key/guest.img" "$top/p/g.img" || fail "the prepare cache was not seeded with the prepared image"

# dom0's view: the handed-in vmdiskcmp, given no guest, agent or runner
"$top/in/bin/vmdiskcmp" --image --dom0 --dry-run --hypervisor libvirt --connect qemu:///system \
    --cache-dir "$top/seeded" --size 64M --dom0-size 64M --out "$top/never" >"$top/plan" 2>"$top/stderr" ||
    fail "the handed-in vmdiskcmp's dry run failed: $(cat "$top/stderr")"
grep -qx "  --guest-image $top/in/guest-template/guest.img: the installed guest template: .*" "$top/plan" ||
    fail "the handed-in template was not taken by default: $(grep -e '--guest-image' "$top/plan")"
grep -qx "guest: $top/in/guest-template/guest.img prepared with this agent and runner: cached, $top/seeded/$key/guest.img (no appliance launch)" \
    "$top/plan" || fail "the seeded prepare cache was not found: $(grep '^guest:' "$top/plan")"
[ ! -e "$top/never" ] || fail "a dry run created its --out"
# a job that would boot the handed-in guest in less than its least memory
# (the prepared manifest's min_memory_mib): refused before the boot, one
# line, exit 2; a job with its own kernel or with dom0 alone is not checked
echo "min_memory_mib=128" >>"$top/p/g.img.manifest"
rm -f "$top/in.tar"
rc=0
"$VMDISKCMP" lab run --out "$top/out-mem" --prepared "$top/p/g.img" -- --dom0 --dry-run \
    --then --image --guest-memory 96 --dry-run >"$top/stdout" 2>"$top/stderr" || rc=$?
[ "$rc" = 2 ] && [ "$(wc -l <"$top/stderr")" = 1 ] &&
    grep -qF "lab run: job 2: --guest-memory 96: the guest --prepared $top/p/g.img hands in needs at least 128 MiB (its manifest's [boot] min_memory_mib): expected --guest-memory 128 or more" "$top/stderr" ||
    fail "a job under the guest's least memory: exit $rc, expected 2 and one line: $(cat "$top/stderr")"
[ ! -e "$top/in.tar" ] && [ ! -e "$top/out-mem" ] || fail "a job under the guest's least memory went on to the boot"
"$VMDISKCMP" lab run --out "$top/out-mem" --prepared "$top/p/g.img" -- --image --guest-memory 128 --dry-run \
    >"$top/stdout" 2>"$top/stderr" || fail "a job at the guest's least memory refused: $(cat "$top/stderr")"
echo "lab staging: ok (template, prepare cache entry $key, helpers beside vmdiskcmp, the guest's least memory)"
