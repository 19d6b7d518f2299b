/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The hypervisor's knobs of a target as asked (targets[].requested:
 * disk_cache, disk_io, iothreads, queues, disk_bus) against what was read
 * back after boot (targets[].backend: the live domain XML and QEMU's own
 * qemu object; targets[].cache: the page cache; doc/result-format.md),
 * and the words for what served a target's disk, the one description the
 * answer's "Served by" and the report's "Backend, cache and placement"
 * both print.  Pure: reads a vdc_target, writes text. */
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

/* What served target @t's disk, as read back after boot, in one phrase:
 * the backend (xl's phy and vbd as "blkback (phy)", else its type:
 * "qdisk", "file", "block"), its physical device ("/dev/loop3 (a loop
 * device over the image)", "/dev/vg0/lv"), the cache mode (QEMU's flags
 * when QEMU answered, else the live XML's), whether @host's page cache sat
 * in the path (targets[].cache's verdict), and every source it was read
 * from once:
 *   "blkback (phy) /dev/loop3 (a loop device over the image), through
 *    dom0's page cache (read from xenstore, sysfs)"
 *   "block /dev/vg0/lv, cache none, bypasses the host's page cache (read
 *    from libvirt-live-xml)"
 * The parts not read back are left out.  @host: whose page cache, "dom0"
 * (Xen) or "the host" (QEMU/KVM).  NULL when the backend's type was not
 * read back (imports, agent output); no other error.  New string. */
char *vdc_knobs_served_text(const vdc_target *t, const char *host);

/* The facts behind target @t's page-cache verdict (targets[].cache) and
 * the verdict in vdc_knobs_served_text's words, one line: "requested
 * none; /dev/loop3 dio 1 (backing /img, offset 0); bypasses dom0's page
 * cache (read from xenstore, sysfs)", "not decided" for no verdict, the
 * recorded error after "; ".  @host as there.  NULL when neither a
 * verdict, a loop device nor an error was recorded.  New string. */
char *vdc_knobs_cache_text(const vdc_target *t, const char *host);

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
