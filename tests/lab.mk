# SPDX-License-Identifier: GPL-2.0-or-later
# Tests of the lab area.
# lab-e2e.sh: the emulated Xen lab end to end, one boot: the libxl main
# job, then the libvirt xen:///system job (root + QEMU; ~14 min with the
# lab cached, ~20 min on a fresh machine: doc/lab.md).
TESTS += tests/integration/lab-e2e.sh
EXTRA_DIST += tests/integration/lab-e2e.sh

if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_lab
TESTS += tests/unit/test_lab
tests_unit_test_lab_SOURCES = tests/unit/test_lab.c
tests_unit_test_lab_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_lab_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
endif
# the serial log the progress-line test reads (test_lab)
EXTRA_DIST += tests/golden/lab
# what lab run hands dom0 (template, prepare cache, helpers), with the boot stubbed
TESTS += tests/integration/lab-stage.sh
EXTRA_DIST += tests/integration/lab-stage.sh
# the lab's panic rule: Xen's and dom0's panics end a stage, a domU's does not
TESTS += tests/integration/lab-panic-rule.sh
EXTRA_DIST += tests/integration/lab-panic-rule.sh
# scripts/main-job.sh --plan-only: where the main job runs (the KVM probe
# with this machine's KVM, then under TCG for the KVM branch), ~1 min
TESTS += tests/integration/main-job-plan.sh
EXTRA_DIST += tests/integration/main-job-plan.sh
