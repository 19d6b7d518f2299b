# SPDX-License-Identifier: GPL-2.0-or-later
# src/plan: run's options table, the plan (targets, schedule, plan.json),
# its builder (options + host facts -> plan), and what each step runs (the
# agent's and mkfs's options, the control disk job).
src_libvdc_controller_a_SOURCES += \
	src/plan/plan.c src/plan/plan.h src/plan/options.c src/plan/options.h \
	src/plan/build.c src/plan/build.h src/plan/dims.c src/plan/dims.h \
	src/plan/workloads.c src/plan/workloads.h src/plan/step.c src/plan/step.h \
	src/plan/levels.c src/plan/levels.h
