# Tests of the import area (issue 3: result model and importers).
#   unit:        tests/unit/test_model, tests/unit/test_import (cmocka)
#   integration: tests/integration/import-*.sh (the real vmdiskcmp binary,
#                golden files in tests/golden/import/, bonnie++ 2.00a)
#   fuzz:        tests/fuzz/ (libFuzzer, only with clang: HAVE_LIBFUZZER)
IMPORT_TEST_LIBS = src/libvdc-results.a src/libvdc-common.a \
	$(CMOCKA_LIBS) $(JSON_LIBS) $(GLIB_LIBS) -lm

EXTRA_DIST += tests/unit/test_stderr.h tests/golden/import

if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_model tests/unit/test_import
TESTS += tests/unit/test_model tests/unit/test_import
tests_unit_test_model_SOURCES = tests/unit/test_model.c tests/unit/test_stderr.h
tests_unit_test_model_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_model_LDADD = $(IMPORT_TEST_LIBS)
tests_unit_test_import_SOURCES = tests/unit/test_import.c tests/unit/test_stderr.h
tests_unit_test_import_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) \
	-DVDC_GOLDEN_DIR='"$(abs_top_srcdir)/tests/golden/import"'
tests_unit_test_import_LDADD = $(IMPORT_TEST_LIBS)
endif
