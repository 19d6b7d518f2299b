# Controller area (issue 4): plan, storage, hypervisor drivers, guest
# preparation, control disk, run, cleanup.
noinst_LIBRARIES += src/libvdc-controller.a
src_libvdc_controller_a_SOURCES = \
	src/cli/cmd_run.c
