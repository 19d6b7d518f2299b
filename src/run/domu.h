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

#include "collect/hostwatch.h"
#include "run/state.h"

/* What the looks at one running domU remember between them. */
typedef struct {
    unsigned full;          /* looks in a row that saw an image directory full */
    uint64_t beats;         /* the runner's heartbeat count at the last look */
    unsigned since_beat;    /* seconds waited since the look that saw it change */
} vdc_domu_watch;

/* One look at running domU @name after @period_s seconds of waiting (its
 * state in @ws, zeroed before the first): a cause to end its wait at once,
 * g_malloc'd, or NULL.  Paused by the hypervisor on an I/O error (drivers
 * with a stalled slot): "the domU stalled: ..."; an image directory's
 * filesystem full (below 1 MiB free) at two looks in a row, or full and
 * paused: "image directory FS full (/var/lib/vmdiskcmp: 0 bytes free);
 * paused on an I/O error (disk vdb: no space left)"; a runner that has
 * beaten at least once (@hw reads its heartbeat from the control disk) and
 * then not for --heartbeat-timeout seconds: "the runner's heartbeat
 * stopped 120 s ago (last event: test rewrite of target img began)".  The
 * seconds count the periods waited since the look that saw the last beat
 * (so the mock driver's instant waits count as real ones); before the
 * first beat only --timeout applies (boot time varies). */
char *vdc_domu_look(vdc_run_state *st, const char *name, vdc_hostwatch *hw, unsigned period_s,
                    vdc_domu_watch *ws);

/* After create: read domU @name's disk facts, apply `none` on loop
 * devices while it is paused, hand each target of @p's cache truth to the
 * recorder (collect/cache.h; a target that must fail this boot's runs:
 * vdc_recorder_boot_fail says why); then resume a paused domU.  @p is the
 * run's plan, or a view of it whose targets carry a guest's own copies
 * (run/level.c).  0, or -1 when the domU could not be resumed (message
 * printed). */
int vdc_domu_cache_step(vdc_run_state *st, const vdc_plan *p, const char *name,
                        const vdc_hv_domain *dom);

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
