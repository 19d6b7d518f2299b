#!/bin/sh
# make check: fuzz the table importer for a bounded time (doc/fuzzing.md)
exec sh "$top_srcdir/tests/fuzz/run-fuzzer.sh" fuzz_import_table 15
