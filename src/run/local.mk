# SPDX-License-Identifier: GPL-2.0-or-later
# src/run: the run (provision, boot, collect, baseline), its undo journal,
# the dom0 baseline and the host's reproduction facts.
src_libvdc_controller_a_SOURCES += \
	src/run/journal.h src/run/journal.c src/run/runrec.h src/run/runrec.c \
	src/run/run.h src/run/run.c src/run/undo.c src/run/dom0.c src/run/preflight.c \
	src/run/facts.c src/run/facts.h src/run/env.c \
	src/run/step.c src/run/step.h \
	src/run/agent_result.c src/run/agent_result.h \
	src/run/hostwatch.c src/run/hostwatch.h \
	src/run/cache.c src/run/cache.h
