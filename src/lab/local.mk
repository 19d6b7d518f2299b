# Emulated Xen lab (issue 5): src/lab, templates/lab
src_libvdc_controller_a_SOURCES += src/cli/cmd_lab.c
