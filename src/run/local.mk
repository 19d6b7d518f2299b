# Plan, hypervisor drivers, run, cleanup (issue 4): src/plan, src/hv, src/run
src_libvdc_controller_a_SOURCES += src/cli/cmd_run.c
