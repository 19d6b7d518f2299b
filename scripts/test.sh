#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's test command: from a fresh Debian 12 machine (as root),
# install dependencies, start services, build, and run `make check`.
# Build directory: ./_build (out of tree).  Exit status is make check's.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
sh scripts/install-deps.sh
sh scripts/start-services.sh
[ -x configure ] || ./autogen.sh
mkdir -p _build
cd _build
[ -f Makefile ] || ../configure
make -j"$(nproc)"
make check "$@"
