#!/bin/sh
# make check: fuzz the fio JSON importer for a bounded time (doc/fuzzing.md)
exec sh "$top_srcdir/tests/fuzz/run-fuzzer.sh" fuzz_import_fio 15
