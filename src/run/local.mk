# SPDX-License-Identifier: GPL-2.0-or-later
# src/run: the run (provision, prepare the guest, boot, baseline, in the
# plan's order), its undo journal and cleanup, the checks before anything is
# made.
src_libvdc_controller_a_SOURCES += \
	src/run/journal.h src/run/journal.c \
	src/run/runrec.h src/run/runrec.c \
	src/run/run.h src/run/run.c src/run/state.h \
	src/run/provision.h src/run/provision.c \
	src/run/guestimg.h src/run/guestimg.c \
	src/run/domu.h src/run/domu.c \
	src/run/level.h src/run/level.c \
	src/run/undo.h src/run/undo.c \
	src/run/dom0.h src/run/dom0.c \
	src/run/preflight.h src/run/preflight.c \
	src/run/env.h src/run/env.c
