# SPDX-License-Identifier: GPL-2.0-or-later
# Tests of the import area (result model and importers).
#   unit:        tests/unit/test_model, tests/unit/test_import (cmocka)
#   integration: tests/integration/import-*.sh (the real vmdiskcmp binary,
#                golden files in tests/golden/import/, bonnie++ 2.00a)
#   fuzz:        tests/fuzz/ (libFuzzer, only with clang: HAVE_LIBFUZZER)
IMPORT_TEST_LIBS = src/libvdc-results.a src/libvdc-common.a \
	$(CMOCKA_LIBS) $(JSON_LIBS) $(GLIB_LIBS) -lm

EXTRA_DIST += tests/unit/test_stderr.h tests/golden/import

TESTS += tests/integration/import-golden.sh tests/integration/import-errors.sh \
	tests/integration/import-bonnie.sh tests/integration/import-agent.sh \
	tests/integration/import-dd.sh tests/integration/import-pages.sh \
	tests/integration/import-seeds-read.sh
EXTRA_DIST += tests/integration/import-golden.sh tests/integration/import-errors.sh \
	tests/integration/import-bonnie.sh tests/integration/import-agent.sh \
	tests/integration/import-dd.sh tests/integration/import-pages.sh \
	tests/integration/import-seeds-read.sh

if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_model tests/unit/test_import tests/unit/test_import_pages \
	tests/unit/test_model_workload tests/unit/test_import_fio tests/unit/test_import_shapes \
	tests/unit/test_model_limits
TESTS += tests/unit/test_model tests/unit/test_import tests/unit/test_import_pages \
	tests/unit/test_model_workload tests/unit/test_import_fio tests/unit/test_import_shapes \
	tests/unit/test_model_limits
tests_unit_test_import_shapes_SOURCES = tests/unit/test_import_shapes.c tests/unit/test_stderr.h
tests_unit_test_import_shapes_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_import_shapes_LDADD = $(IMPORT_TEST_LIBS)
tests_unit_test_import_fio_SOURCES = tests/unit/test_import_fio.c tests/unit/test_stderr.h
tests_unit_test_import_fio_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_import_fio_LDADD = $(IMPORT_TEST_LIBS)
tests_unit_test_model_limits_SOURCES = tests/unit/test_model_limits.c tests/unit/test_stderr.h
tests_unit_test_model_limits_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_model_limits_LDADD = $(IMPORT_TEST_LIBS)
tests_unit_test_model_workload_SOURCES = tests/unit/test_model_workload.c tests/unit/test_stderr.h
tests_unit_test_model_workload_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_model_workload_LDADD = $(IMPORT_TEST_LIBS)
tests_unit_test_model_SOURCES = tests/unit/test_model.c tests/unit/test_stderr.h
tests_unit_test_model_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
# guest-agent/libvdc-agentcore.a: the agent's side of the one test-id table
tests_unit_test_model_LDADD = src/libvdc-results.a guest-agent/libvdc-agentcore.a \
	src/libvdc-common.a $(CMOCKA_LIBS) $(JSON_LIBS) $(GLIB_LIBS) -lm
tests_unit_test_import_SOURCES = tests/unit/test_import.c tests/unit/test_stderr.h
tests_unit_test_import_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) \
	-DVDC_GOLDEN_DIR='"$(abs_top_srcdir)/tests/golden/import"'
tests_unit_test_import_LDADD = $(IMPORT_TEST_LIBS)
tests_unit_test_import_pages_SOURCES = tests/unit/test_import_pages.c tests/unit/test_stderr.h
tests_unit_test_import_pages_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) \
	-DVDC_GOLDEN_DIR='"$(abs_top_srcdir)/tests/golden/import"'
tests_unit_test_import_pages_LDADD = $(IMPORT_TEST_LIBS)
# the artefact rules (src/report/artefacts.c) as the analysis applies them,
# on imported and built result sets
check_PROGRAMS += tests/unit/test_artefacts
TESTS += tests/unit/test_artefacts
tests_unit_test_artefacts_SOURCES = tests/unit/test_artefacts.c
tests_unit_test_artefacts_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_artefacts_LDADD = $(IMPORT_TEST_LIBS) $(GSL_LIBS)
endif

# ---- libFuzzer targets (tests/fuzz/, doc/fuzzing.md) -------------------------
# Built with $(CLANG) through explicit rules (automake compiles with $(CC)),
# from the sources themselves so that they carry the fuzzer's coverage and
# ASan/UBSan instrumentation.  make check runs each for 15 s.
EXTRA_DIST += tests/fuzz/fuzz_import.c tests/fuzz/bonnie.dict tests/fuzz/result-json.dict \
	tests/fuzz/run-fuzzer.sh \
	tests/fuzz/fuzz-import-json.sh tests/fuzz/fuzz-import-csv.sh \
	tests/fuzz/fuzz-import-table.sh tests/fuzz/fuzz-import-auto.sh \
	tests/fuzz/fuzz-import-dd.sh tests/fuzz/dd.dict \
	tests/fuzz/fuzz-import-fio.sh tests/fuzz/fio.dict \
	tests/fuzz/fuzz_numbers.c tests/fuzz/fuzz-numbers.sh tests/fuzz/lsan-render.supp
if HAVE_LIBFUZZER
FUZZ_IMPORT_SRCS = $(top_srcdir)/tests/fuzz/fuzz_import.c \
	$(addprefix $(top_srcdir)/,$(filter src/model/%.c,$(src_libvdc_results_a_SOURCES))) \
	$(top_srcdir)/src/import/import.c $(top_srcdir)/src/import/bonnie_csv.c \
	$(top_srcdir)/src/import/text.c $(top_srcdir)/src/import/bonnie_table.c \
	$(top_srcdir)/src/import/bonnie_claim.c $(top_srcdir)/src/import/dd.c \
	$(top_srcdir)/src/import/dd_command.c $(top_srcdir)/src/import/dd_output.c \
	$(top_srcdir)/src/import/describe.c \
	$(top_srcdir)/src/import/fio_json.c $(top_srcdir)/src/common/util.c \
	$(top_srcdir)/src/common/escape.c
FUZZ_IMPORT_DEPS = $(FUZZ_IMPORT_SRCS) $(top_srcdir)/src/model/result.h $(top_srcdir)/src/model/target.h \
	$(top_srcdir)/guest-agent/test_ids.h \
	$(top_srcdir)/src/model/result_fields.h $(top_srcdir)/src/import/import.h \
	$(top_srcdir)/src/import/import_priv.h $(top_srcdir)/src/common/util.h \
	$(top_srcdir)/src/common/escape.h config.h
FUZZ_CFLAGS = -g -O1 -std=c11 -D_GNU_SOURCE \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I$(top_srcdir)/src -I$(top_srcdir) -I$(top_builddir) $(GLIB_CFLAGS) $(JSON_CFLAGS)
FUZZ_LIBS = $(JSON_LIBS) $(GLIB_LIBS) -lm
FUZZ_IMPORT_TARGETS = tests/fuzz/fuzz_import_json tests/fuzz/fuzz_import_csv \
	tests/fuzz/fuzz_import_table tests/fuzz/fuzz_import_auto tests/fuzz/fuzz_import_dd \
	tests/fuzz/fuzz_import_fio
# fuzz_numbers: the numbers of a result, from the loader through the
# analysis to every renderer (the whole results library, so the rule
# follows its file list)
FUZZ_NUMBERS_SRCS = $(top_srcdir)/tests/fuzz/fuzz_numbers.c \
	$(addprefix $(top_srcdir)/,$(filter %.c,$(src_libvdc_results_a_SOURCES) $(src_libvdc_common_a_SOURCES)))
FUZZ_NUMBERS_HDRS = $(addprefix $(top_srcdir)/,$(filter %.h,$(src_libvdc_results_a_SOURCES) \
	$(src_libvdc_common_a_SOURCES)))
check_DATA = $(FUZZ_IMPORT_TARGETS) tests/fuzz/fuzz_numbers
CLEANFILES += $(FUZZ_IMPORT_TARGETS) tests/fuzz/fuzz_numbers
TESTS += tests/fuzz/fuzz-numbers.sh
tests/fuzz/fuzz_numbers: $(FUZZ_NUMBERS_SRCS) $(FUZZ_NUMBERS_HDRS) config.h
	$(AM_V_at)$(MKDIR_P) tests/fuzz
	$(AM_V_GEN)$(CLANG) $(FUZZ_CFLAGS) $(GSL_CFLAGS) $(CAIRO_CFLAGS) $(SQLITE_CFLAGS) -DVDC_DATADIR='"$(pkgdatadir)"' \
		-DVDC_LIBEXECDIR='"$(pkglibexecdir)"' -o $@ $(FUZZ_NUMBERS_SRCS) \
		$(SQLITE_LIBS) $(CAIRO_LIBS) $(GSL_LIBS) $(FUZZ_LIBS)
TESTS += tests/fuzz/fuzz-import-json.sh tests/fuzz/fuzz-import-csv.sh \
	tests/fuzz/fuzz-import-table.sh tests/fuzz/fuzz-import-auto.sh tests/fuzz/fuzz-import-dd.sh \
	tests/fuzz/fuzz-import-fio.sh

tests/fuzz/fuzz_import_json: $(FUZZ_IMPORT_DEPS)
	$(AM_V_at)$(MKDIR_P) tests/fuzz
	$(AM_V_GEN)$(CLANG) $(FUZZ_CFLAGS) -DFUZZ_FORMAT=VDC_IMPORT_JSON -o $@ $(FUZZ_IMPORT_SRCS) $(FUZZ_LIBS)
tests/fuzz/fuzz_import_csv: $(FUZZ_IMPORT_DEPS)
	$(AM_V_at)$(MKDIR_P) tests/fuzz
	$(AM_V_GEN)$(CLANG) $(FUZZ_CFLAGS) -DFUZZ_FORMAT=VDC_IMPORT_CSV -o $@ $(FUZZ_IMPORT_SRCS) $(FUZZ_LIBS)
tests/fuzz/fuzz_import_table: $(FUZZ_IMPORT_DEPS)
	$(AM_V_at)$(MKDIR_P) tests/fuzz
	$(AM_V_GEN)$(CLANG) $(FUZZ_CFLAGS) -DFUZZ_FORMAT=VDC_IMPORT_TABLE -o $@ $(FUZZ_IMPORT_SRCS) $(FUZZ_LIBS)
tests/fuzz/fuzz_import_auto: $(FUZZ_IMPORT_DEPS)
	$(AM_V_at)$(MKDIR_P) tests/fuzz
	$(AM_V_GEN)$(CLANG) $(FUZZ_CFLAGS) -DFUZZ_FORMAT=VDC_IMPORT_AUTO -o $@ $(FUZZ_IMPORT_SRCS) $(FUZZ_LIBS)
tests/fuzz/fuzz_import_dd: $(FUZZ_IMPORT_DEPS)
	$(AM_V_at)$(MKDIR_P) tests/fuzz
	$(AM_V_GEN)$(CLANG) $(FUZZ_CFLAGS) -DFUZZ_FORMAT=VDC_IMPORT_DD -o $@ $(FUZZ_IMPORT_SRCS) $(FUZZ_LIBS)
tests/fuzz/fuzz_import_fio: $(FUZZ_IMPORT_DEPS)
	$(AM_V_at)$(MKDIR_P) tests/fuzz
	$(AM_V_GEN)$(CLANG) $(FUZZ_CFLAGS) -DFUZZ_FORMAT=VDC_IMPORT_FIO -o $@ $(FUZZ_IMPORT_SRCS) $(FUZZ_LIBS)
endif
