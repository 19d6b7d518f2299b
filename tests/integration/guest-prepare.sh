#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vmdiskcmp prepare with the real libguestfs appliance (TCG): builds the
# guest template (twice: the recipe must be reproducible), prepares it into
# a fresh cache, checks the agent and the runner are inside (byte for byte)
# and started by the template's init, collects the failure logs read-only,
# then proves a second prepare is a cache hit that launches no appliance
# (LIBGUESTFS_HV=/bin/false would make any launch fail), that a changed
# runner misses the cache, that a hung appliance is killed at --timeout with
# all its processes, and exports with --out and reuses the exported image
# without an appliance.  Bad input exits 2.  Run time here: about 1.5-2.5
# minutes (three appliance launches: prepare, guestfish, log collection).
set -eu
. "$top_srcdir/tests/integration/guest-common.sh"

tmp=$(mktemp -d /tmp/vdc-guest-prepare.XXXXXX)
trap 'rm -rf "$tmp"' EXIT INT TERM
build_template

# the recipe is reproducible: a second build elsewhere gives the same bytes
timeout 600 sh "$top_srcdir/templates/guest/build-template.sh" "$tmp/tpl2" > /dev/null \
    || fail "second template build failed"
for f in guest.img initrd.img vmlinuz guest.img.manifest; do
    cmp -s "$GUEST_TEMPLATE_DIR/$f" "$tmp/tpl2/$f" || fail "template $f not reproducible"
done
rm -rf "$tmp/tpl2"

# ---- bad input: one line, exit 2 -------------------------------------------
set +e
"$VMDISKCMP" prepare --agent "$VDC_AGENT" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q -- '--guest-image' "$tmp/err" || fail "missing --guest-image: rc $rc: $(cat "$tmp/err")"
"$VMDISKCMP" prepare --guest-image "$tmp/nope.img" --agent "$VDC_AGENT" --runner "$VDC_RUNNER" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q 'nope.img' "$tmp/err" || fail "missing template: rc $rc: $(cat "$tmp/err")"
touch "$tmp/exists.img"
"$VMDISKCMP" prepare --guest-image "$GUEST_TEMPLATE" --agent "$VDC_AGENT" --runner "$VDC_RUNNER" \
    --out "$tmp/exists.img" 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q 'already exists' "$tmp/err" || fail "--out over a file: rc $rc: $(cat "$tmp/err")"
"$VMDISKCMP" prepare --guest-image "$GUEST_TEMPLATE" --timeout 0 2>"$tmp/err"; rc=$?
[ $rc = 2 ] && grep -q -- '--timeout' "$tmp/err" || fail "--timeout 0: rc $rc: $(cat "$tmp/err")"
set -e

# ---- first prepare: cache miss, appliance launched ------------------------------
timeout 900 "$VMDISKCMP" prepare --guest-image "$GUEST_TEMPLATE" --agent "$VDC_AGENT" \
    --runner "$VDC_RUNNER" --cache-dir "$tmp/cache" --timeout 600 > "$tmp/p1" \
    || fail "first prepare failed"
cat "$tmp/p1"
[ "$(field "$tmp/p1" cache_hit)" = no ] || fail "first prepare claims a cache hit"
img=$(field "$tmp/p1" cache_image)
[ -f "$img" ] && [ -f "$img.manifest" ] || fail "no prepared image $img"
# QEMU may run as another user (libvirt-qemu): the entry must be reachable
[ "$(stat -c %a "$(dirname "$img")")" = 755 ] || fail "cache entry not mode 755"
[ "$(field "$tmp/p1" init_system)" = busybox ] || fail "init system not detected as busybox"
[ "$(field "$tmp/p1" agent_sha256)" = "$(sha256sum "$VDC_AGENT" | cut -c1-64)" ] || fail "agent digest"
[ "$(field "$tmp/p1" template_sha256)" = "$(sha256sum "$GUEST_TEMPLATE" | cut -c1-64)" ] || fail "template digest"
# the template itself is untouched
cmp -s "$GUEST_TEMPLATE" "$img" && fail "prepared image equals the template: nothing installed"

# ---- inside: agent and runner byte for byte, inittab line -------------------------
timeout 600 guestfish --ro -a "$img" -m /dev/sda <<'GF' > "$tmp/inside" || fail "guestfish inspection failed"
checksum sha256 /usr/lib/vmdiskcmp/vmdiskcmp-agent
checksum sha256 /usr/lib/vmdiskcmp/vmdiskcmp-runner
stat /usr/lib/vmdiskcmp/vmdiskcmp-runner | grep '^mode:'
cat /etc/inittab
GF
cat "$tmp/inside"
grep -qx "$(sha256sum "$VDC_AGENT" | cut -c1-64)" "$tmp/inside" || fail "agent in the image differs from $VDC_AGENT"
grep -qx "$(sha256sum "$VDC_RUNNER" | cut -c1-64)" "$tmp/inside" || fail "runner in the image differs from $VDC_RUNNER"
grep -qx '::once:/usr/lib/vmdiskcmp/vmdiskcmp-runner' "$tmp/inside" || fail "inittab does not start the runner"
[ "$(grep -c '^::once:/usr/lib/vmdiskcmp/vmdiskcmp-runner' "$tmp/inside")" = 1 ] || fail "runner line twice"
grep -q 'mode: 33261' "$tmp/inside" || fail "runner not mode 0755"   # 0100755

# ---- failure-log collection: read-only inspection ----------------------------------
sum_before=$(sha256sum "$img" | cut -c1-64)
timeout 600 "$CTLTOOL" logs "$img" "$tmp/logs" || fail "collecting logs failed"
grep -q "agent sha256 $(sha256sum "$VDC_AGENT" | cut -c1-64)" "$tmp/logs/vmdiskcmp/prepared.txt" \
    || fail "collected logs lack the preparation note: $(ls -R "$tmp/logs")"
[ "$(sha256sum "$img" | cut -c1-64)" = "$sum_before" ] || fail "log collection modified the image"

# ---- second prepare: cache hit, no appliance ---------------------------------------
before=$(stat -c %Y "$img")
LIBGUESTFS_HV=/bin/false timeout 120 "$VMDISKCMP" prepare --guest-image "$GUEST_TEMPLATE" \
    --agent "$VDC_AGENT" --runner "$VDC_RUNNER" --cache-dir "$tmp/cache" > "$tmp/p2" 2>"$tmp/p2.err" \
    || fail "second prepare failed: $(cat "$tmp/p2.err")"
[ "$(field "$tmp/p2" cache_hit)" = yes ] || fail "second prepare was not a cache hit"
[ "$(field "$tmp/p2" cache_image)" = "$img" ] || fail "second prepare gave another image"
[ "$(stat -c %Y "$img")" = "$before" ] || fail "cache hit modified the prepared image"
[ "$(ls "$tmp/cache" | wc -l)" = 1 ] || fail "cache holds other than one entry: $(ls -a "$tmp/cache")"

# a different runner build is a different key (and here an appliance launch
# that LIBGUESTFS_HV=/bin/false makes fail: proof the key covers the runner)
cp "$VDC_RUNNER" "$tmp/runner2" && printf 'x' >> "$tmp/runner2"
set +e
LIBGUESTFS_HV=/bin/false timeout 300 "$VMDISKCMP" prepare -q --guest-image "$GUEST_TEMPLATE" \
    --agent "$VDC_AGENT" --runner "$tmp/runner2" --cache-dir "$tmp/cache" --timeout 120 \
    > /dev/null 2>"$tmp/p3.err"; rc=$?
set -e
[ $rc = 1 ] || fail "a changed runner hit the cache (rc $rc)"
[ "$(ls "$tmp/cache" | wc -l)" = 1 ] || fail "a failed prepare left a cache entry: $(ls -a "$tmp/cache")"

# a hung appliance (a "QEMU" that never answers) is killed at --timeout,
# with everything it started, and leaves no cache entry
hang=987$$
printf '#!/bin/sh\nexec sleep %s\n' "$hang" > "$tmp/hang-qemu"
chmod +x "$tmp/hang-qemu"
set +e
LIBGUESTFS_HV="$tmp/hang-qemu" timeout 120 "$VMDISKCMP" prepare -q --guest-image "$GUEST_TEMPLATE" \
    --agent "$VDC_AGENT" --runner "$tmp/runner2" --cache-dir "$tmp/cache" --timeout 5 \
    > /dev/null 2>"$tmp/p6.err"; rc=$?
set -e
[ $rc = 1 ] || fail "hung appliance: rc $rc (124: vmdiskcmp itself hung)"
grep -q 'no answer within 5 s: killed' "$tmp/p6.err" || fail "hung appliance: $(cat "$tmp/p6.err")"
sleep 1
pgrep -f "sleep $hang" >/dev/null && fail "the hung appliance's processes survived"
[ "$(ls "$tmp/cache" | wc -l)" = 1 ] || fail "a killed prepare left a cache entry: $(ls -a "$tmp/cache")"

# ---- export with --out, then reuse the exported image with no appliance ------------
LIBGUESTFS_HV=/bin/false timeout 120 "$VMDISKCMP" prepare -q --guest-image "$GUEST_TEMPLATE" \
    --agent "$VDC_AGENT" --runner "$VDC_RUNNER" --cache-dir "$tmp/cache" --out "$tmp/out.img" \
    > "$tmp/p4" || fail "prepare --out failed"
for f in out.img out.img.manifest out.img.vmlinuz out.img.initrd; do
    [ -f "$tmp/$f" ] || fail "--out did not write $f"
done
cmp -s "$img" "$tmp/out.img" || fail "--out copy differs from the cache image"
LIBGUESTFS_HV=/bin/false timeout 120 "$VMDISKCMP" prepare -q --guest-image "$tmp/out.img" \
    --agent "$VDC_AGENT" --runner "$VDC_RUNNER" --cache-dir "$tmp/cache2" > "$tmp/p5" \
    || fail "reusing the exported prepared image failed"
[ "$(field "$tmp/p5" cache_hit)" = yes ] || fail "exported image not recognised as prepared"
[ "$(field "$tmp/p5" cache_image)" = "$tmp/out.img" ] || fail "exported image not used as is"
[ "$(field "$tmp/p5" kernel)" = "$tmp/out.img.vmlinuz" ] || fail "exported kernel path"
[ ! -e "$tmp/cache2" ] || fail "reuse created a cache"
echo "PASS: guest-prepare"
