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
 * virtio-blk"; a Xen VBD's ring after "; ": "negotiated ring order 0 (1
 * page, 32 requests in flight), 1 queue; blkback offers order 4, 1 queue",
 * "ring not negotiated: the frontend was never seen Connected (XenbusState
 * 1 Initialising when last read)", or "negotiated ring not read back" (a
 * result from before the frontend was read).  NULL when nothing of it was
 * read back.  New string. */
char *vdc_knobs_text(const vdc_target *t);

/* The requests a Xen blkif ring of 2^@order 4 KiB pages holds at once (per
 * queue): __CONST_RING_SIZE(blkif, 4096 << order) of Xen's
 * public/io/ring.h with the x86_64 ABI's 112-byte request: 32 at order 0,
 * 512 at order 4.  -1 when @order is not 0..16. */
int64_t vdc_knob_blkif_ring_size(int64_t order);

/* Each knob of target @t that was asked (requested.disk_cache ...) and
 * read back otherwise, one phrase each joined with "; ": "cache: asked
 * none, QEMU has writeback (query-block)"; a knob asked and not read back
 * at all is named too ("aio: asked native, not read back").  NULL when
 * nothing was asked or all agree.  New string. */
char *vdc_knobs_mismatch(const vdc_target *t);

#endif
