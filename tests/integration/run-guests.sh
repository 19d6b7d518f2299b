#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `vmdiskcmp run --guests`: the density levels before anything is created.
# --dry-run prints every domain of every level and what each level needs;
# a level whose guests do not fit the host's memory, or whose copies do
# not fit the image directory, is refused in one line with exit 2;
# nothing is created.  Against libvirt's test:///default driver (no
# domain is made); well under a second.
. "$top_srcdir/tests/lib.sh"
[ -x "$VMDISKCMP" ] || fail "no $VMDISKCMP"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
conn="--hypervisor libvirt --connect test:///default --guest-image $work/g.img"

bad() {
    want=$1; shift
    rc=0
    # shellcheck disable=SC2086
    "$VMDISKCMP" $conn "$@" --out "$work/out" --image-dir "$work" >"$work/stdout" 2>"$work/stderr" || rc=$?
    [ "$rc" = 2 ] || fail "'$*': exit status $rc, expected 2 ($(cat "$work/stderr"))"
    [ "$(wc -l < "$work/stderr")" = 1 ] || fail "'$*': expected one line on stderr, got: $(cat "$work/stderr")"
    grep -qF -- "$want" "$work/stderr" || fail "'$*': stderr '$(cat "$work/stderr")' lacks '$want'"
    [ ! -e "$work/out" ] || fail "'$*': created $work/out"
    [ -z "$(ls "$work" | grep -v '^std')" ] || fail "'$*': created $(ls "$work")"
}

bad "--guests '0,2': expected a comma list of integers from 1 to 64" --image --guests 0,2
bad "--guests '2,2': '2' given twice: expected each level at most once" --image --guests 2,2
bad "--guests: expected a domU target as well (--image, --lvm)" --dom0 --guests 2
# the memory: 64 guests of 1 TiB each fit no host (the largest level is
# named); 64 of 64 GiB fit none here either
bad "--guests 64: level 64 needs 67112960 MiB of RAM (64 domUs x (1048576 MiB + 64 MiB overhead)), the host has " \
    --image --guests 1,64 --guest-memory 1048576 --size 64M
bad "expected less --guest-memory" --image --guests 1,64 --guest-memory 1048576 --size 64M
bad "--guests 64: level 64 needs 4198400 MiB of RAM (64 domUs x (65536 MiB + 64 MiB overhead)), the host has " \
    --image --guests 64,2 --guest-memory 65536 --size 64M
# the copies: 64 images of 1 PiB fit no filesystem here; the message
# names the copies
bad "free, the images need 80.0 PiB (image 64 x 1.3 PiB), " --image --guests 64 --size 1024T
bad "more: expected --image-dir on a filesystem with room, or smaller images (--size for the domU's, fewer --guests)" \
    --image --guests 64 --size 1024T
bad "(image 64 x " --image --guests 64 --size 1024T

# --dry-run: every domain of every level, what the level needs
rc=0
# shellcheck disable=SC2086
"$VMDISKCMP" $conn --image --guests 1,3 --size 64M --dry-run --out "$work/out" --image-dir "$work" \
    >"$work/stdout" 2>"$work/stderr" || rc=$?
[ "$rc" = 0 ] || fail "dry run: exit $rc: $(cat "$work/stderr")"
grep -q "^levels (--guests): 1, 3; " "$work/stdout" || fail "dry run: no levels line: $(cat "$work/stdout")"
grep -q "^  level 3: RAM 1728 MiB (3 x (512 MiB + 64 MiB overhead)), images " "$work/stdout" ||
    fail "dry run: no level 3 needs"
[ "$(grep -c "^    image guest [0-2]: domain vmdiskcmp-.*-g[0-2], disk $work/vmdiskcmp-.*-image\(-g[12]\)\?\.raw$" \
      "$work/stdout")" = 4 ] || fail "dry run: expected 1 + 3 guest lines: $(grep guest "$work/stdout")"
grep -q "^    image guest 2: domain vmdiskcmp-.*-g2, disk $work/vmdiskcmp-.*-image-g2\.raw$" "$work/stdout" ||
    fail "dry run: no guest 2 of level 3"
[ ! -e "$work/out" ] || fail "dry run: created $work/out"
[ -z "$(ls "$work" | grep -v '^std')" ] || fail "dry run: created $(ls "$work")"
# an image with --image-cache none at a level: planned (each guest's is
# applied and verified at its boot), not refused
rc=0
# shellcheck disable=SC2086
"$VMDISKCMP" $conn --image --image-cache host,none --guests 2 --size 64M --dry-run --out "$work/out" \
    --image-dir "$work" >"$work/stdout" 2>"$work/stderr" || rc=$?
[ "$rc" = 0 ] || fail "--image-cache none at a level: exit $rc: $(cat "$work/stderr")"
grep -q "^    image-nocache guest 1: domain vmdiskcmp-.*-g1, disk $work/vmdiskcmp-.*-image-nocache-g1\.raw$" \
    "$work/stdout" || fail "--image-cache none at a level: no guest 1 of image-nocache: $(cat "$work/stdout")"
echo "ok: --guests refused and planned"
