# Storage, guest preparation, control disk (issue 4): src/storage, src/guest
src_libvdc_controller_a_SOURCES += src/cli/cmd_prepare.c
