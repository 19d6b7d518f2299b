# SPDX-License-Identifier: GPL-2.0-or-later
# Tests of the host samplers (src/host/): parsers on fixture copies of
# /proc, /sys, xenstore, libvirt and lvm2 texts (tests/golden/host/), the
# CPU delta arithmetic, and the loop-device cross-check against an
# independent reading of /proc (root; heavy lock: uses a loop device).
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
# the alignment rule (src/host/alignment.c) and the guest filesystem's units and
# disk sizes as the runner reads them (guest-agent/fsunits.c)
check_PROGRAMS += tests/unit/test_alignment
TESTS += tests/unit/test_alignment
tests_unit_test_alignment_SOURCES = tests/unit/test_alignment.c
tests_unit_test_alignment_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) \
	-DVDC_GOLDEN_DIR='"$(abs_top_srcdir)/tests/golden/host"'
tests_unit_test_alignment_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
# what this libvirt and QEMU can do for a disk, and the refusals of the
# matrix's QEMU knobs it decides (fixtures, a stand-in QEMU script; < 1 s)
check_PROGRAMS += tests/unit/test_qemucaps
TESTS += tests/unit/test_qemucaps
tests_unit_test_qemucaps_SOURCES = tests/unit/test_qemucaps.c tests/unit/test_stderr.h
tests_unit_test_qemucaps_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) \
	-DVDC_GOLDEN_DIR='"$(abs_top_srcdir)/tests/golden/host"'
tests_unit_test_qemucaps_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
# the memory cgroup parsers (src/host/memcg.c: v1, v2, a container's root)
check_PROGRAMS += tests/unit/test_memcg
TESTS += tests/unit/test_memcg
tests_unit_test_memcg_SOURCES = tests/unit/test_memcg.c
tests_unit_test_memcg_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_memcg_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
# the hypervisor's half of a disk read back: live XML, QMP, QEMU's command
# line, blkback's ring in xenstore, the backend objects (fixtures; < 1 s)
check_PROGRAMS += tests/unit/test_readback
TESTS += tests/unit/test_readback
tests_unit_test_readback_SOURCES = tests/unit/test_readback.c
tests_unit_test_readback_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS) \
	-DVDC_GOLDEN_DIR='"$(abs_top_srcdir)/tests/golden/host"'
tests_unit_test_readback_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
# the run's host cost per test: slicing and per-GiB arithmetic (src/run/hostwatch.c)
check_PROGRAMS += tests/unit/test_hostwatch
TESTS += tests/unit/test_hostwatch
tests_unit_test_hostwatch_SOURCES = tests/unit/test_hostwatch.c
tests_unit_test_hostwatch_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_hostwatch_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
# a density level's host cost object (src/collect/levelhost.c; < 1 s)
check_PROGRAMS += tests/unit/test_levelhost
TESTS += tests/unit/test_levelhost
tests_unit_test_levelhost_SOURCES = tests/unit/test_levelhost.c
tests_unit_test_levelhost_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_levelhost_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
endif

# helper of the integration test: the samplers from the command line
check_PROGRAMS += tests/host-sampletool
tests_host_sampletool_SOURCES = tests/host-sampletool.c
tests_host_sampletool_LDADD = $(VDC_LIBS) $(VDC_EXTERNAL_LIBS)

# root, heavy lock (loop devices): the cross-check against /proc, the lab's
# stand-in hotplug script's loop semantics, an LV's placement against
# lvm2's report, a dom0 baseline run's host CPU figures against /proc,
# targets misaligned on purpose, the dom0 baseline in a memory cgroup
# (about 15 s, 2 s, 3 s, 15 s, 3 s, 20 s)
HOST_IT = tests/integration/host-cpu-crosscheck.sh tests/integration/host-lab-hotplug.sh \
	tests/integration/host-lv-placement.sh tests/integration/host-run-crosscheck.sh \
	tests/integration/host-alignment.sh tests/integration/host-dom0-memcg.sh
TESTS += $(HOST_IT)
EXTRA_DIST += $(HOST_IT) tests/integration/host-lib.sh
