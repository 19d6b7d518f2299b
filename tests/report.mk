# SPDX-License-Identifier: GPL-2.0-or-later
# Tests of the report area: statistics (cmocka, fixed vectors), renderers
# (golden files), the report directory library, compare/report command
# lines, headless Chromium.
if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_stats
TESTS += tests/unit/test_stats
tests_unit_test_stats_SOURCES = tests/unit/test_stats.c
tests_unit_test_stats_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_stats_LDADD = src/libvdc-results.a src/libvdc-common.a \
	$(CMOCKA_LIBS) $(GSL_LIBS) $(GLIB_LIBS) -lm
check_PROGRAMS += tests/unit/test_report
TESTS += tests/unit/test_report
tests_unit_test_report_SOURCES = tests/unit/test_report.c
tests_unit_test_report_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_report_LDADD = src/libvdc-results.a src/libvdc-common.a \
	$(CMOCKA_LIBS) $(CAIRO_LIBS) $(GSL_LIBS) $(JSON_LIBS) $(GLIB_LIBS) -lm
# renderers print the analysis: every output unchanged when only the
# samples change (test_report_pure.c)
check_PROGRAMS += tests/unit/test_report_pure
TESTS += tests/unit/test_report_pure
tests_unit_test_report_pure_SOURCES = tests/unit/test_report_pure.c
tests_unit_test_report_pure_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_report_pure_LDADD = src/libvdc-results.a src/libvdc-common.a \
	$(CMOCKA_LIBS) $(CAIRO_LIBS) $(GSL_LIBS) $(JSON_LIBS) $(GLIB_LIBS) -lm
check_PROGRAMS += tests/unit/test_report_dir
TESTS += tests/unit/test_report_dir
tests_unit_test_report_dir_SOURCES = tests/unit/test_report_dir.c tests/unit/test_stderr.h
tests_unit_test_report_dir_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_report_dir_LDADD = src/libvdc-results.a src/libvdc-common.a \
	$(CMOCKA_LIBS) $(CAIRO_LIBS) $(GSL_LIBS) $(JSON_LIBS) $(GLIB_LIBS) -lm
endif

# Shell tests: golden renderers, seed comparisons, bad input, Chromium.
TESTS += tests/integration/report-golden.sh tests/integration/report-seeds.sh \
	tests/integration/report-ranking.sh \
	tests/integration/report-badinput.sh tests/integration/report-chromium.sh \
	tests/integration/report-manpage.sh tests/integration/report-warnings.sh \
	tests/integration/report-lab-rerender.sh tests/integration/report-artefacts.sh \
	tests/integration/report-fail-if.sh tests/integration/report-merge.sh \
	tests/integration/report-answer.sh tests/integration/merge-limits.sh
EXTRA_DIST += tests/integration/report-golden.sh tests/integration/report-seeds.sh \
	tests/integration/report-ranking.sh \
	tests/integration/report-badinput.sh tests/integration/report-chromium.sh \
	tests/integration/report-manpage.sh tests/integration/report-warnings.sh \
	tests/integration/report-lab-rerender.sh tests/integration/report-artefacts.sh \
	tests/integration/report-fail-if.sh tests/integration/report-merge.sh \
	tests/integration/report-answer.sh tests/integration/merge-limits.sh \
	tests/integration/report-layout.js \
	tests/golden/report tests/golden/seeds
if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_stats_paired tests/unit/test_stats_sim
TESTS += tests/unit/test_stats_paired tests/unit/test_stats_sim
tests_unit_test_stats_paired_SOURCES = tests/unit/test_stats_paired.c
tests_unit_test_stats_paired_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_stats_paired_LDADD = src/libvdc-results.a src/libvdc-common.a \
	$(CMOCKA_LIBS) $(GSL_LIBS) $(GLIB_LIBS) -lm
tests_unit_test_stats_sim_SOURCES = tests/unit/test_stats_sim.c
tests_unit_test_stats_sim_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_stats_sim_LDADD = src/libvdc-results.a src/libvdc-common.a \
	$(CMOCKA_LIBS) $(GSL_LIBS) $(GLIB_LIBS) -lm
endif
if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_report_headline
TESTS += tests/unit/test_report_headline
tests_unit_test_report_headline_SOURCES = tests/unit/test_report_headline.c tests/unit/test_stderr.h
tests_unit_test_report_headline_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_report_headline_LDADD = src/libvdc-results.a src/libvdc-common.a \
	$(CMOCKA_LIBS) $(CAIRO_LIBS) $(GSL_LIBS) $(JSON_LIBS) $(GLIB_LIBS) -lm
endif
# the fleet report of `vmdiskcmp merge` (src/report/fleet.c)
if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_fleet
TESTS += tests/unit/test_fleet
tests_unit_test_fleet_SOURCES = tests/unit/test_fleet.c tests/unit/test_stderr.h
tests_unit_test_fleet_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_fleet_LDADD = src/libvdc-results.a src/libvdc-common.a \
	$(CMOCKA_LIBS) $(CAIRO_LIBS) $(GSL_LIBS) $(JSON_LIBS) $(GLIB_LIBS) -lm
endif
# many guests at once: the model's level members, Jain's index, pooled
# latency, the density analysis (report/density.c)
if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_density
TESTS += tests/unit/test_density
tests_unit_test_density_SOURCES = tests/unit/test_density.c tests/unit/test_stderr.h
tests_unit_test_density_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_density_LDADD = src/libvdc-results.a src/libvdc-common.a \
	$(CMOCKA_LIBS) $(CAIRO_LIBS) $(GSL_LIBS) $(JSON_LIBS) $(GLIB_LIBS) -lm
endif
