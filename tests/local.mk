# SPDX-License-Identifier: GPL-2.0-or-later
# Test harness setup shared by every area.  Tests are cmocka programs
# (tests/unit/) and shell scripts (tests/integration/, *.sh); a test that
# cannot run on this machine exits 77 after printing why.
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; top_builddir='$(abs_top_builddir)'; \
	VMDISKCMP='$(abs_top_builddir)/src/vmdiskcmp'; \
	VDC_AGENT='$(abs_top_builddir)/guest-agent/vmdiskcmp-agent'; \
	BONNIE='$(BONNIE)'; BON_CSV2TXT='$(BON_CSV2TXT)'; FIO='$(FIO)'; \
	CHROMIUM='$(CHROMIUM)'; QEMU_SYSTEM='$(QEMU_SYSTEM)'; \
	export top_srcdir top_builddir VMDISKCMP VDC_AGENT BONNIE BON_CSV2TXT FIO CHROMIUM QEMU_SYSTEM;
EXTRA_DIST += tests/lib.sh

# src/common; test_escape: the one escaping of outside text
if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_common tests/unit/test_escape
TESTS += tests/unit/test_common tests/unit/test_escape
tests_unit_test_common_SOURCES = tests/unit/test_common.c
tests_unit_test_common_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_common_LDADD = src/libvdc-common.a $(CMOCKA_LIBS) $(GLIB_LIBS)
tests_unit_test_escape_SOURCES = tests/unit/test_escape.c tests/unit/test_stderr.h
tests_unit_test_escape_CFLAGS = $(tests_unit_test_common_CFLAGS)
tests_unit_test_escape_LDADD = $(tests_unit_test_common_LDADD)
endif

# QA regressions (breaker2): bugs found with bad input; QA2_XFAIL are
# expected to fail until fixed (an XPASS then tells to move one out)
QA2_XFAIL =
QA2_TESTS = tests/integration/qa2-run-options.sh tests/integration/qa2-report-symlink.sh tests/integration/qa2-bench-summary.sh \
	tests/integration/qa2-lab-then.sh \
	tests/integration/qa2-ctl-fifo.sh $(QA2_XFAIL)
TESTS += $(QA2_TESTS)
XFAIL_TESTS += $(QA2_XFAIL)
EXTRA_DIST += $(QA2_TESTS)

# Reproduction facts (src/run/facts.c): sysfs scheduler and mountinfo parsers
if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_facts
TESTS += tests/unit/test_facts
tests_unit_test_facts_SOURCES = tests/unit/test_facts.c
tests_unit_test_facts_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_facts_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
endif

# the license: SPDX lines, debian/copyright, COPYING, --version
TESTS += tests/integration/license-spdx.sh
# the source tree's layers (no include cycle, no file over 1,000 lines)
# and renderers that only print (static, well under a second each)
TESTS += tests/integration/src-layers.sh tests/integration/render-no-arith.sh
EXTRA_DIST += tests/integration/src-layers.sh tests/integration/render-no-arith.sh
EXTRA_DIST += tests/integration/license-spdx.sh COPYING
