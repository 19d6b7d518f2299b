# SPDX-License-Identifier: GPL-2.0-or-later
# src/guest: guest preparation with libguestfs and the control disk (its
# libc-only codec is guest-agent/ctldisk.[ch]).
src_libvdc_controller_a_SOURCES += \
	src/guest/prepare.h src/guest/prepare.c \
	src/guest/manifest.h src/guest/manifest.c \
	src/guest/appliance.h src/guest/appliance.c \
	src/guest/tmpdir.h src/guest/tmpdir.c \
	src/guest/control.h src/guest/control.c src/guest/startgate.h src/guest/startgate.c
