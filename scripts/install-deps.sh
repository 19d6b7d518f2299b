#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Install every Debian 12 package vmdiskcmp needs to build, test and run.
# Package lists live in scripts/packages.d/*.txt (one package a line, '#'
# comments), one file per area.  Idempotent; run as root.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
pkgs=$(cat "$here"/packages.d/*.txt | sed 's/#.*//' | tr -s ' \t' '\n\n' | grep -v '^$' | sort -u)
export DEBIAN_FRONTEND=noninteractive
missing=$(for p in $pkgs; do dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'install ok installed' || echo "$p"; done)
if [ -n "$missing" ]; then
    apt-get -o DPkg::Lock::Timeout=600 update
    # shellcheck disable=SC2086
    apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends $missing
fi
