# Tests of the guest area (issue 4): control disk codec, storage, prepare.
if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_ctldisk
TESTS += tests/unit/test_ctldisk
tests_unit_test_ctldisk_SOURCES = tests/unit/test_ctldisk.c
tests_unit_test_ctldisk_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_ctldisk_LDADD = guest-agent/libvdc-agentcore.a $(CMOCKA_LIBS)

check_PROGRAMS += tests/unit/test_storage tests/unit/test_prepare
TESTS += tests/unit/test_storage tests/unit/test_prepare
tests_unit_test_storage_SOURCES = tests/unit/test_storage.c
tests_unit_test_storage_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_storage_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
tests_unit_test_prepare_SOURCES = tests/unit/test_prepare.c
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
	tests/integration/guest-boot.sh
EXTRA_DIST += tests/integration/guest-common.sh tests/integration/guest-prepare.sh \
	tests/integration/guest-boot.sh tests/integration/guest-storage.sh
