/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Provisioning a run's targets and reading where they lie: each image
 * (and the directories above it), LV or loop device is journaled before it
 * is made (run/journal.h) and done with its identity after; the storage
 * code makes it (storage/storage.h, through the run's env). */
#ifndef VDC_RUN_PROVISION_H
#define VDC_RUN_PROVISION_H

#include <stddef.h>

#include "run/state.h"

/* Make target @i of the run: its image directory (each missing directory
 * journaled), the image or LV (journaled first: a crash leaves a record),
 * and for a dom0 baseline on an image a loop device over it (journaled by
 * the image's identity).  st->st[i] and st->dev[i] (the device or file
 * the agent uses) are set.  0, or -1 after vdc_error (what it made is on
 * the journal). */
int vdc_provision_target(vdc_run_state *st, size_t i);

/* Make guest @k's copy (k >= 1) of domU target @i for the density levels
 * (plan/levels.h): an image at vdc_plan_guest_path, an LV named LV-gK (a
 * thin LV in its own pool POOL-gK), journaled as the target's own are, into
 * @out (initialised; the caller disposes it).  0, or -1 after vdc_error. */
int vdc_provision_guest_copy(vdc_run_state *st, size_t i, unsigned k, struct vdc_storage *out);

/* Read target @i's placement once (after its first boot, when its image
 * or LV holds the test file: FIEMAP, or lvs seg_pe_ranges) and its
 * alignment once (host/alignment.h: an image's or an LV's layers from that
 * placement against its disk's I/O sizes; a block device's start on its
 * disk) through the env's readers, and hand them to the recorder.  A
 * reader that fails has said why; the run goes on without it. */
void vdc_provision_placement(vdc_run_state *st, size_t i);

/* After the last boot: read target @i's thin pool again (a thin LV's; a
 * density run's guests' pools too, each guest's copy has its own) through
 * the env's thin_read and hand the recorder the highest data and the
 * highest metadata use of them (vdc_recorder_thin_after; NULL when none
 * could be read).  A pool more than VDC_THIN_POOL_FULL_PERCENT full gets
 * one warning line naming it.  Anything else: nothing. */
void vdc_provision_thin_after(vdc_run_state *st, size_t i);

#endif
