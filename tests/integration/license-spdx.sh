#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every source, script and build file the project wrote names its license
# in an SPDX line near its top; every other file (goldens, fixtures,
# committed results, documentation) is covered by a Files: paragraph of
# debian/copyright (machine-readable format 1.0), so the whole tree states
# a license.  The file list is git's when the tree is a clone, else find's.
set -u
. "$top_srcdir/tests/lib.sh"
cd "$top_srcdir" || exit 1

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    list() { git ls-files -- "$@"; }
else
    list() { find "$@" -type f 2>/dev/null | sed 's|^\./||'; }
fi

# a source file: by name, or a script by its #! line
is_source() {
    case "$1" in
    tests/golden/*.py) return 0 ;;
    tests/golden/*|results/*|doc/bench/*|*.md|debian/changelog|debian/source/format|\
    debian/control|debian/copyright|*.lintian-overrides|m4/.keep|COPYING|.gitignore|*/.gitignore) return 1 ;;
    *.c|*.h|*.sh|*.mk|*.am|*.ac|*.py|*.awk|*.yml|*.j2|*.fio|*.dict|*.1|*.service|*.conf|*.cfg|*.xml) return 0 ;;
    scripts/packages.d/*.txt) return 0 ;;
    esac
    head -c 2 "$1" 2>/dev/null | grep -q '^#!' && return 0
    case "$1" in
    templates/*) return 0 ;;   # inittab and the like: read by our scripts
    esac
    return 1
}

missing=0 checked=0
for f in $(list src guest-agent tests scripts templates contrib debian .ci \
        Makefile.am configure.ac autogen.sh doc); do
    [ -f "$f" ] || continue
    is_source "$f" || continue
    checked=$((checked + 1))
    if ! head -n 5 "$f" | grep -q 'SPDX-License-Identifier: GPL-2.0-or-later'; then
        echo "FAIL: $f: no 'SPDX-License-Identifier: GPL-2.0-or-later' line in its first 5 lines" >&2
        missing=$((missing + 1))
    fi
done
[ "$checked" -gt 200 ] || fail "only $checked source files found: the file list is wrong"

# debian/copyright: machine-readable, the project's paragraph names the
# license, and its text is in COPYING
grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' debian/copyright ||
    fail "debian/copyright: not in the machine-readable format 1.0"
awk '/^Files: \*$/ { f = 1; next } f && /^License:/ { print $2; exit }' debian/copyright |
    grep -qx 'GPL-2.0-or-later' || fail "debian/copyright: 'Files: *' does not name GPL-2.0-or-later"
grep -q 'GNU GENERAL PUBLIC LICENSE' COPYING && grep -q 'Version 2, June 1991' COPYING ||
    fail "COPYING: not the GPL version 2 text"

# the programs say it
"$VMDISKCMP" --version | grep -q 'GPL-2.0-or-later' || fail "vmdiskcmp --version does not name the license"
"$VDC_AGENT" --version | grep -q 'GPL-2.0-or-later' || fail "vmdiskcmp-agent --version does not name the license"
"$top_builddir/guest-agent/vmdiskcmp-runner" --version | grep -q 'GPL-2.0-or-later' ||
    fail "vmdiskcmp-runner --version does not name the license"

[ "$missing" -eq 0 ] || fail "$missing source files without the SPDX line"
echo "PASS: $checked source files carry the SPDX line; copyright and --version name GPL-2.0-or-later"
