/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One domU boot of a run: a fresh control disk with the boot's job, the
 * domain created through the hypervisor driver (hv/hv.h) with every
 * target attached (journaled first, by a UUID of ours), the cache truth
 * read back while it may still be paused, the run watched until it powers
 * off (--timeout, a stalled domU, a full image directory, a silent
 * runner), destroyed, and what the runner answered handed to the
 * recorder with the host's samples. */
#ifndef VDC_RUN_DOMU_H
#define VDC_RUN_DOMU_H

#include <stddef.h>

#include "run/state.h"

/* Boot @bi of the plan (a domU boot: its steps' targets on one domain).
 * Every step of it is recorded: answered, or failed with the cause.  When
 * every further boot would fail the same way (the domain cannot be
 * created, and the driver says why it would not be next time), st->repeats
 * says why.  An interruption sets st->interrupted. */
void vdc_domu_boot(vdc_run_state *st, size_t bi);

/* The domain as the hypervisor is asked for it, for the record (the
 * control disk named control-N.img): domain.xml (libvirt), xl.cfg (libxl,
 * or a Xen domain through libvirt), libxl-config.json (libxl), in
 * p->out_dir; a file that cannot be written is skipped. */
void vdc_domu_files(vdc_run_state *st);

#endif
