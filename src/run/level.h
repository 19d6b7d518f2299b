/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One density level of a run (--guests, plan/levels.h): N domUs of one
 * target booted together, each with its own copy of the target and its
 * own control disk, their runners released at one instant through the
 * start gate (guest/startgate.h), each guest's answer recorded as its run
 * (level, guest, release times) and the level in experiment.levels[]. */
#ifndef VDC_RUN_LEVEL_H
#define VDC_RUN_LEVEL_H

#include <stddef.h>

#include "run/state.h"

/* Make every domU target's copies for guests 1 to st->n_guests - 1
 * (run/provision.h vdc_provision_guest_copy), journaled.  0, or -1 (after
 * vdc_error, or stopped). */
int vdc_level_provision(vdc_run_state *st);

/* Level boot @bi of the plan (p->boots[bi].guests > 0): for each guest its
 * control disk and domain (vdc_plan_guest_domain, its copy of the target
 * at the target's vdev), each journaled before it exists, created in
 * turn; the start gate (every guest ready within --timeout, then released
 * together); then every domain waited for (--timeout from the release),
 * destroyed, and its control disk read.  A guest that fails (not created,
 * not ready, crashed, past its time, no valid answer) fails the level,
 * named with its cause in experiment.levels[].error; the other guests are
 * still torn down and their answers kept.  SIGINT/SIGTERM: every domain
 * destroyed, nothing recorded as measured. */
void vdc_level_boot(vdc_run_state *st, size_t bi);

/* Dispose what vdc_level_provision made in the state (not the storage
 * itself: the journal tears it down). */
void vdc_level_dispose(vdc_run_state *st);

#endif
