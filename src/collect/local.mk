# SPDX-License-Identifier: GPL-2.0-or-later
# src/collect: what a run gathers and the recorder that owns its result:
# the agent's answers checked, the cache truth and placement read back, the
# host's samples, the host and guest facts, and when repetitions may stop.
src_libvdc_controller_a_SOURCES += \
	src/collect/agent_result.h src/collect/agent_result.c \
	src/collect/cache.h src/collect/cache.c \
	src/collect/facts.h src/collect/facts.c \
	src/collect/hostwatch.h src/collect/hostwatch.c \
	src/collect/levelhost.h src/collect/levelhost.c \
	src/collect/recorder.h src/collect/recorder.c \
	src/collect/stoprule.h src/collect/stoprule.c
