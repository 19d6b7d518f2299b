#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make check: fuzz the numbers of a result through the loader, the
# analysis and every renderer for a bounded time (doc/fuzzing.md)
exec sh "$top_srcdir/tests/fuzz/run-fuzzer.sh" fuzz_numbers 20
