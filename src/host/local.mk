# SPDX-License-Identifier: GPL-2.0-or-later
# dom0's own mechanics and samplers (src/host): /proc and /sys accounting,
# loop devices (attach, find by identity, detach), mounts, process groups,
# this boot's id, page-cache residency and dropping it, placement, xenstore
# backend facts, libvirt live XML, CPU accounting of a disk's servers
# (doc/host-cost.md).
src_libvdc_controller_a_SOURCES += \
	src/host/text.h src/host/text.c \
	src/host/procfs.h src/host/procfs.c \
	src/host/cpuacct.h src/host/cpuacct.c \
	src/host/workers.h src/host/workers.c \
	src/host/loopdev.h src/host/loopdev.c \
	src/host/mounts.h src/host/mounts.c \
	src/host/procgroup.h src/host/procgroup.c \
	src/host/residency.h src/host/residency.c \
	src/host/placement.h src/host/placement.c \
	src/host/alignment.h src/host/alignment.c \
	src/host/blockstat.h src/host/blockstat.c \
	src/host/xsbackend.h src/host/xsbackend.c \
	src/host/blkback.h src/host/blkback.c \
	src/host/qemuprobe.h src/host/qemuprobe.c \
	src/host/qemucaps.h src/host/qemucaps.c \
	src/host/qemudisk.h src/host/qemudisk.c \
	src/host/livexml.h src/host/livexml.c \
	src/host/memcg.h src/host/memcg.c
