#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# make check: fuzz the fio JSON importer for a bounded time (doc/fuzzing.md)
exec sh "$top_srcdir/tests/fuzz/run-fuzzer.sh" fuzz_import_fio 15
