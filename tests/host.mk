# Tests of the host samplers (src/host/): parsers on fixture copies of
# /proc, /sys, xenstore, libvirt and lvm2 texts (tests/golden/host/), the
# CPU delta arithmetic.
EXTRA_DIST += tests/golden/host
if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_host tests/unit/test_host_cpu
TESTS += tests/unit/test_host tests/unit/test_host_cpu
tests_unit_test_host_SOURCES = tests/unit/test_host.c tests/unit/test_host.h tests/unit/test_stderr.h
tests_unit_test_host_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) \
	-DVDC_GOLDEN_DIR='"$(abs_top_srcdir)/tests/golden/host"'
tests_unit_test_host_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
tests_unit_test_host_cpu_SOURCES = tests/unit/test_host_cpu.c tests/unit/test_host.h tests/unit/test_stderr.h
tests_unit_test_host_cpu_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) \
	-DVDC_GOLDEN_DIR='"$(abs_top_srcdir)/tests/golden/host"'
tests_unit_test_host_cpu_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
endif
