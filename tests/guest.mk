# SPDX-License-Identifier: GPL-2.0-or-later
# Tests of the guest area: control disk codec, storage, prepare.
if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_ctldisk
TESTS += tests/unit/test_ctldisk
tests_unit_test_ctldisk_SOURCES = tests/unit/test_ctldisk.c
tests_unit_test_ctldisk_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_ctldisk_LDADD = guest-agent/libvdc-agentcore.a $(CMOCKA_LIBS)
check_PROGRAMS += tests/unit/test_startgate
TESTS += tests/unit/test_startgate
tests_unit_test_startgate_SOURCES = tests/unit/test_startgate.c tests/unit/test_stderr.h
tests_unit_test_startgate_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_startgate_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)

check_PROGRAMS += tests/unit/test_storage tests/unit/test_prepare tests/unit/test_qcow2
TESTS += tests/unit/test_storage tests/unit/test_prepare tests/unit/test_qcow2
tests_unit_test_qcow2_SOURCES = tests/unit/test_qcow2.c tests/unit/test_stderr.h
tests_unit_test_qcow2_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_qcow2_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
tests_unit_test_storage_SOURCES = tests/unit/test_storage.c
tests_unit_test_storage_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_storage_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
tests_unit_test_prepare_SOURCES = tests/unit/test_prepare.c tests/unit/test_stderr.h
tests_unit_test_prepare_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_prepare_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
endif

# helper of the guest integration tests: make / read control disks
check_PROGRAMS += tests/guest-ctltool
tests_guest_ctltool_SOURCES = tests/guest-ctltool.c
tests_guest_ctltool_LDADD = $(VDC_LIBS) $(VDC_EXTERNAL_LIBS)
check_PROGRAMS += tests/guest-storagetool
tests_guest_storagetool_SOURCES = tests/guest-storagetool.c
tests_guest_storagetool_LDADD = $(VDC_LIBS) $(VDC_EXTERNAL_LIBS)

# integration (root; real libguestfs appliance and QEMU under TCG)
TESTS += tests/integration/guest-storage.sh tests/integration/guest-prepare.sh \
	tests/integration/guest-prepare-init.sh tests/integration/guest-boot.sh \
	tests/integration/guest-prepare-badinput.sh tests/integration/prepare-interrupt.sh \
	tests/integration/startgate-runner.sh
EXTRA_DIST += tests/integration/prepare-interrupt.sh tests/integration/startgate-runner.sh
EXTRA_DIST += tests/integration/guest-common.sh tests/integration/guest-prepare.sh \
	tests/integration/guest-prepare-init.sh tests/integration/guest-boot.sh \
	tests/integration/guest-storage.sh tests/integration/guest-prepare-badinput.sh

# libFuzzer target for the control disk decoders (tests/fuzz-guest/), built
# with $(CLANG) from the codec's source so it carries the fuzzer's coverage
# and ASan/UBSan; make check runs it for 15 s.  (The test's log depends on
# the binary, so it is built by make check without touching check_DATA.)
EXTRA_DIST += tests/fuzz-guest/fuzz_ctldisk.c tests/fuzz-guest/fuzz-ctldisk.sh
if HAVE_LIBFUZZER
CLEANFILES += tests/fuzz-guest/fuzz_ctldisk
TESTS += tests/fuzz-guest/fuzz-ctldisk.sh
tests/fuzz-guest/fuzz-ctldisk.log: tests/fuzz-guest/fuzz_ctldisk
tests/fuzz-guest/fuzz_ctldisk: $(top_srcdir)/tests/fuzz-guest/fuzz_ctldisk.c \
		$(vdc_ctldisk_src:%=$(top_srcdir)/%) $(vdc_ctldisk_hdr:%=$(top_srcdir)/%) config.h
	$(AM_V_at)$(MKDIR_P) tests/fuzz-guest
	$(AM_V_GEN)$(CLANG) -g -O1 -std=c11 -D_GNU_SOURCE \
		-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-I$(top_srcdir) -I$(top_builddir) -o $@ \
		$(top_srcdir)/tests/fuzz-guest/fuzz_ctldisk.c $(vdc_ctldisk_src:%=$(top_srcdir)/%)
endif
