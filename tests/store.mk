# SPDX-License-Identifier: GPL-2.0-or-later
# Tests of the store area: the result store, history and exports
# (src/store/, vmdiskcmp store and history).
if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_store
TESTS += tests/unit/test_store
tests_unit_test_store_SOURCES = tests/unit/test_store.c tests/unit/test_stderr.h
tests_unit_test_store_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_store_LDADD = src/libvdc-results.a src/libvdc-common.a \
	$(CMOCKA_LIBS) $(SQLITE_LIBS) $(CAIRO_LIBS) $(GSL_LIBS) $(JSON_LIBS) $(GLIB_LIBS) -lm
endif
TESTS += tests/integration/store-cli.sh tests/integration/store-race.sh tests/integration/store-openmetrics.sh
EXTRA_DIST += tests/integration/store-cli.sh tests/integration/store-race.sh tests/integration/store-openmetrics.sh tests/integration/openmetrics-check.py tests/golden/store
