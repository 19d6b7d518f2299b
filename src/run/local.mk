# Plan, hypervisor drivers, run, cleanup (issue 4): src/plan, src/hv, src/run
src_libvdc_controller_a_SOURCES += src/cli/cmd_run.c \
	src/plan/plan.c src/plan/plan.h src/plan/options.c src/plan/options.h \
	src/plan/build.c src/plan/build.h \
	src/hv/translate.c src/hv/translate.h src/hv/translate_libxl.c \
	src/hv/hv.h src/hv/hv.c src/hv/hv_mock.c src/hv/hv_libvirt.c src/hv/hv_libxl.c \
	src/run/journal.h src/run/journal.c \
	src/run/run.h src/run/run.c src/run/undo.c src/run/dom0.c src/run/facts.c \
	src/run/env.c src/run/step.c src/run/step.h
