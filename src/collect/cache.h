/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Cache truth and placement of a run's targets (doc/host-cost.md): after
 * each domU boot, what serves each target's disk is read back (xenstore's
 * backend and its loop device, libvirt's live XML, QEMU's open flags on the
 * image) and decided into targets[].cache (doc/result-format.md);
 * `--image-cache none` is applied where it is the loop device's
 * (LOOP_SET_DIRECT_IO while the domU is paused) and verified from the same
 * facts.  The first boot's record stands; a later boot whose record differs
 * fails that boot's runs of the target (the recorder keeps and compares
 * them).  Placement (targets[].placement) is read once per target, after
 * its first boot.
 *
 * vdc_cache_decide, vdc_cache_changed and vdc_placement_record are pure
 * (tests/unit/test_cache.c); vdc_cache_boot and vdc_cache_dom0 read
 * through the run environment's hooks. */
#ifndef VDC_COLLECT_CACHE_H
#define VDC_COLLECT_CACHE_H

#include <stddef.h>

#include "host/livexml.h"
#include "host/loopdev.h"
#include "host/placement.h"
#include "host/xsbackend.h"
#include "hv/hv.h"
#include "model/result.h"
#include "model/target.h"
#include "plan/plan.h"

/* The facts of one target's disk after boot (all borrowed; NULL: not
 * known). */
typedef struct {
    const vdc_target_spec *spec;
    const char *image;              /* the image file (backing image), for messages */
    const vdc_xs_vbd *vbd;          /* its xenstore backend (Xen) */
    const vdc_lv_disk *disk;        /* its live XML <disk> (libvirt) */
    const vdc_loop_info *loop;      /* the loop device serving it */
    int qemu;                       /* 1: QEMU serves it (libvirt qemu/kvm, Xen qdisk) */
    int qemu_pid;                   /* that QEMU; 0 not known */
    int qemu_flags_read;            /* 1: qemu_flags hold what QEMU holds on the image */
    const unsigned *qemu_flags;     /* open(2) flags of QEMU's descriptors on the image */
    size_t n_qemu_flags;
} vdc_cache_facts;

/* Pure: the cache record of a target from @f into @out (a disposed or
 * fresh vdc_target_cache; members not known stay absent): requested (for
 * an image), the loop device and its state, direct-io-safe, libvirt's
 * cache= and io=, QEMU and whether every descriptor it holds on the image
 * is O_DIRECT, source (the facts used), and the verdict
 * bypasses_dom0_page_cache:
 *   loop device           its dio
 *   QEMU (qdisk, libvirt) O_DIRECT on every descriptor it holds on the
 *                         image; not read: direct-io-safe = 1 (qdisk) or
 *                         cache none/directsync (libvirt)
 *   blkback on a device   yes (bios go to the device, not the page cache)
 * With `none` requested, returns -1 and sets out->error to one line naming
 * the fact that disagrees (no loop device and no QEMU found, dio 0 or a
 * backing file that is not the image, direct-io-safe not 1, cache= not
 * none, QEMU not holding the image with O_DIRECT); else 0.  No message. */
int vdc_cache_decide(const vdc_cache_facts *f, vdc_target_cache *out);

/* Pure: NULL when @now says what @first says about the cache (the verdict,
 * dio, offset, direct-io-safe, cache=, io=, O_DIRECT; not the loop
 * device's or QEMU's number, which each boot may change), else a new
 * one-line description of the first difference (g_free). */
char *vdc_cache_changed(const vdc_target_cache *first, const vdc_target_cache *now);

/* Pure: @pl into @out (a disposed or fresh record), at most
 * VDC_PLACEMENT_RANGES_MAX ranges (the rest counted in ranges_omitted),
 * @source "fiemap" or "lvs seg_pe_ranges". */
void vdc_placement_record(const vdc_placement *pl, const char *source, vdc_target_placement *out);

/* How the cache step reads and changes dom0 (run/env.h's vdc_run_env
 * carries them; NULL members: that fact is not read). */
typedef struct {
    int (*loop_info)(const char *dev, vdc_loop_info *out);      /* vdc_loop_info_read */
    int (*loop_find)(const char *file, char ***devs);           /* vdc_loop_find_by_backing */
    int (*loop_set_dio)(const char *dev, int on);               /* vdc_loop_set_direct_io */
    int (*file_flags)(int pid, const char *path, unsigned **flags, size_t *n);
                                                                /* vdc_proc_file_flags */
} vdc_cache_io;

/* One domU boot's cache step, after create (the domU paused when
 * dom->start_paused) and before resume: for each domU target of @p (index
 * i, its disk found in @dom by target name), the facts from @facts (the
 * driver's) and @io; `none` applied on the target's loop device when the
 * domU is paused and its dio is 0 (@io->loop_set_dio, then read again);
 * the record decided (vdc_cache_decide) into @now[i] (initialised by the
 * caller) and @read[i] set to 1; @fail[i] gets a new one-line reason when
 * the target's runs of this boot must fail (`none` refused: a vdc_error
 * says so).  Without facts (the mock without a hook) nothing is read and
 * `none` is refused.  The recorder keeps the first boot's record and
 * compares the later ones with it (collect/recorder.h vdc_recorder_cache). */
void vdc_cache_boot(const vdc_plan *p, const vdc_hv_domain *dom,
                    const vdc_hv_disk_facts *facts, const vdc_cache_io *io,
                    vdc_target_cache *now, int *read, char **fail);

/* The dom0 baseline's cache record: its own loop device @dev (direct I/O,
 * made by vdc_loop_attach) over the image of target @t, read back through
 * @io into @out (initialised by the caller).  0 when decided, -1 when not
 * read (no loop device, no reader: no message). */
int vdc_cache_dom0(const vdc_plan_target *t, const char *dev, const vdc_cache_io *io,
                   vdc_target_cache *out);

#endif
