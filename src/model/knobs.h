/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The hypervisor's knobs of a target as asked (targets[].requested:
 * disk_cache, disk_io, iothreads, queues, disk_bus) against what was read
 * back after boot (targets[].backend: the live domain XML and QEMU's own
 * qemu object; doc/result-format.md).  Pure: reads a vdc_target, writes
 * text. */
#ifndef VDC_MODEL_KNOBS_H
#define VDC_MODEL_KNOBS_H

#include "model/result.h"

/* QEMU's cache flags of cache mode @mode (QEMU's and libvirt's names:
 * none, writeback, directsync, writethrough, unsafe; "default" is
 * writeback, QEMU's default): *direct (O_DIRECT), *no_flush, *writeback
 * (the device's write cache).  0, or -1 when @mode is none of these. */
int vdc_knob_cache_flags(const char *mode, int *direct, int *no_flush, int *writeback);

/* The cache mode QEMU's flags make ("none", "writeback", "directsync",
 * "writethrough", "unsafe"), or NULL when a flag is unknown (-1) or the
 * mix has no name.  Static. */
const char *vdc_knob_cache_mode(int direct, int no_flush, int writeback);

/* What target @t's disk was served with, as read back: "cache none (QEMU:
 * O_DIRECT, write cache on), aio native, I/O thread iothread1, 1 queue,
 * virtio-blk", or NULL when nothing of it was read back.  New string. */
char *vdc_knobs_text(const vdc_target *t);

/* Each knob of target @t that was asked (requested.disk_cache ...) and
 * read back otherwise, one phrase each joined with "; ": "cache: asked
 * none, QEMU has writeback (query-block)"; a knob asked and not read back
 * at all is named too ("aio: asked native, not read back").  NULL when
 * nothing was asked or all agree.  New string. */
char *vdc_knobs_mismatch(const vdc_target *t);

#endif
