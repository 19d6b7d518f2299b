# SPDX-License-Identifier: GPL-2.0-or-later
# Tests of the run area: plan and options, translators (golden
# files in tests/golden/hv/, VDC_REGENERATE=1 rewrites), mock-driver flow,
# and the real libvirtd + QEMU (TCG) + libguestfs integration test.
EXTRA_DIST += tests/golden/hv tests/golden/run
if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_translate tests/unit/test_plan tests/unit/test_dims
TESTS += tests/unit/test_translate tests/unit/test_plan tests/unit/test_dims
tests_unit_test_dims_SOURCES = tests/unit/test_dims.c
tests_unit_test_dims_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_dims_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
tests_unit_test_translate_SOURCES = tests/unit/test_translate.c
tests_unit_test_translate_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_translate_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
tests_unit_test_plan_SOURCES = tests/unit/test_plan.c
tests_unit_test_plan_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_plan_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
# --guests: the density levels of the plan (src/plan/levels.c)
check_PROGRAMS += tests/unit/test_levels
TESTS += tests/unit/test_levels
tests_unit_test_levels_SOURCES = tests/unit/test_levels.c tests/unit/test_stderr.h
tests_unit_test_levels_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_levels_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
check_PROGRAMS += tests/unit/test_level_record
TESTS += tests/unit/test_level_record
tests_unit_test_level_record_SOURCES = tests/unit/test_level_record.c
tests_unit_test_level_record_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_level_record_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
endif
# the flow with the mock driver; what the controller takes from a guest
# (src/collect/agent_result.c)
if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_flow tests/unit/test_agent_result
TESTS += tests/unit/test_flow tests/unit/test_agent_result
tests_unit_test_flow_SOURCES = tests/unit/test_flow.c
tests_unit_test_flow_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_flow_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
tests_unit_test_agent_result_SOURCES = tests/unit/test_agent_result.c tests/unit/test_stderr.h
tests_unit_test_agent_result_CFLAGS = $(tests_unit_test_flow_CFLAGS)
tests_unit_test_agent_result_LDADD = $(tests_unit_test_flow_LDADD)
endif
# the cache truth of a target (src/collect/cache.c): verdicts, none
# verified, one boot's step through fake readers into the recorder; the
# recorder's stopping rule of --runs auto against the report's headline
if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_cache tests/unit/test_stoprule
TESTS += tests/unit/test_cache tests/unit/test_stoprule
tests_unit_test_cache_SOURCES = tests/unit/test_cache.c
tests_unit_test_cache_CFLAGS = $(tests_unit_test_flow_CFLAGS)
tests_unit_test_cache_LDADD = $(tests_unit_test_flow_LDADD)
tests_unit_test_stoprule_SOURCES = tests/unit/test_stoprule.c
tests_unit_test_stoprule_CFLAGS = $(tests_unit_test_flow_CFLAGS)
tests_unit_test_stoprule_LDADD = $(tests_unit_test_flow_LDADD)
endif
TESTS += tests/integration/run-options.sh tests/integration/run-guests.sh
EXTRA_DIST += tests/integration/run-options.sh tests/integration/run-guests.sh
# the target matrix's refusals on this machine's libvirt and QEMU (~10 s)
TESTS += tests/integration/run-matrix-refusals.sh
EXTRA_DIST += tests/integration/run-matrix-refusals.sh
# real libvirtd + QEMU (TCG) + libguestfs runs; a guest that lies
TESTS += tests/integration/run-libvirt-qemu.sh tests/integration/run-hostile-guest.sh
EXTRA_DIST += tests/integration/run-libvirt-qemu.sh tests/integration/run-hostile-guest.sh \
	tests/integration/run-lib.sh
# two guests at once, for real (TCG), and SIGINT with both running (~2-3 min)
TESTS += tests/integration/run-levels-libvirt.sh
EXTRA_DIST += tests/integration/run-levels-libvirt.sh
# --disk-bus virtio-scsi: one small TCG boot, the targets found by serial (~2 min)
TESTS += tests/integration/run-virtio-scsi.sh
EXTRA_DIST += tests/integration/run-virtio-scsi.sh
TESTS += tests/integration/run-cleanup.sh
EXTRA_DIST += tests/integration/run-cleanup.sh
# forged journals against a live run's agent and libvirt domain (~30 s)
TESTS += tests/integration/run-cleanup-forged.sh
EXTRA_DIST += tests/integration/run-cleanup-forged.sh
# two real runs started in the same second; cleanup --all while they live
TESTS += tests/integration/run-concurrent-same-second.sh
EXTRA_DIST += tests/integration/run-concurrent-same-second.sh
# the controller killed during the dom0 agent, then cleanup (real loop
# device, ext4 and agent; ~6 s)
TESTS += tests/integration/run-dom0-kill.sh
EXTRA_DIST += tests/integration/run-dom0-kill.sh
tests/integration/run-dom0-kill.log: guest-agent/vmdiskcmp-agent
# a misaligned target made on purpose (a loop device 1536 bytes into a
# disk of 4 KiB blocks) through a real dom0 run, flagged by the report (~10 s)
TESTS += tests/integration/run-misaligned.sh
EXTRA_DIST += tests/integration/run-misaligned.sh
tests/integration/run-misaligned.log: guest-agent/vmdiskcmp-agent
TESTS += tests/integration/run-dryrun-vg.sh
EXTRA_DIST += tests/integration/run-dryrun-vg.sh
if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_plan_vgroom
TESTS += tests/unit/test_plan_vgroom
tests_unit_test_plan_vgroom_SOURCES = tests/unit/test_plan_vgroom.c
tests_unit_test_plan_vgroom_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_plan_vgroom_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
endif
if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_hv
TESTS += tests/unit/test_hv
tests_unit_test_hv_SOURCES = tests/unit/test_hv.c
tests_unit_test_hv_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_hv_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
endif
# the target description's names; what a step runs (mkfs, agent options)
if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_target tests/unit/test_step
TESTS += tests/unit/test_target tests/unit/test_step
tests_unit_test_target_SOURCES = tests/unit/test_target.c
tests_unit_test_target_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_target_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
tests_unit_test_step_SOURCES = tests/unit/test_step.c
tests_unit_test_step_CFLAGS = $(tests_unit_test_target_CFLAGS)
tests_unit_test_step_LDADD = $(tests_unit_test_target_LDADD)
endif
# what the plan chooses when no option names it (the VG, the guest template,
# the hypervisor) and the choices it refuses
if WITH_CMOCKA
check_PROGRAMS += tests/unit/test_plan_choose
TESTS += tests/unit/test_plan_choose
tests_unit_test_plan_choose_SOURCES = tests/unit/test_plan_choose.c
tests_unit_test_plan_choose_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
tests_unit_test_plan_choose_LDADD = $(VDC_LIBS) $(CMOCKA_LIBS) $(VDC_EXTERNAL_LIBS)
endif
