/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The dom0 baseline step: the same agent as in a domU, run on the host on
 * a fresh filesystem the step makes (on the LV, on a block device given
 * with consent, or on an image through a loop device the run attached),
 * with the same command lines the runner builds in a domU (run/step.h,
 * guest-agent/jobcmd.h).  Every child runs through common/child.h in a
 * process group journaled while it runs ("proc"); the mount point and the
 * mount are journaled too ("dir", "mount"). */
#ifndef VDC_RUN_DOM0_H
#define VDC_RUN_DOM0_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "plan/plan.h"
#include "run/journal.h"

struct vdc_hostwatch;
struct vdc_run_state;

/* What a dom0 step read back of the memory cgroup its agent ran in
 * (--dom0-memory-max): the limit, MiB, and a sentence saying where it came
 * from (g_malloc'd; NULL: no cgroup). */
typedef struct {
    int64_t limit_mib;
    char *provenance;
} vdc_dom0_memory;

/* One dom0 baseline step: everything it needs, nothing it calls back. */
typedef struct {
    const vdc_plan *plan;
    const vdc_plan_target *target;  /* the dom0 target */
    const char *agent;              /* the static agent; NULL: the installed one */
    vdc_journal *journal;           /* where mounts, directories and child groups go */
    volatile sig_atomic_t *stop;    /* SIGINT/SIGTERM; NULL: none */
    struct vdc_hostwatch *hw;       /* the host sampler fed the agent's pid and its
                                     * --progress-fd lines, or NULL */
    const char *dev;                /* the block device (LV, block, loop over the image) */
    const char *mnt;                /* the mount point to make (journaled) */
    unsigned rep;
    uint64_t seed;
    /* what each pass writes; NULL: the pass does not run */
    const char *json_out;           /* the bonnie++ pass (not with --tests leaving it out) */
    const char *workloads_json;     /* the workload pass on a file (--workload-on file) */
    const char *raw_json;           /* the workload pass on @dev itself (--workload-on raw) */
    vdc_dom0_memory *memory;        /* out: with --dom0-memory-max, the cgroup read back; NULL:
                                     * not wanted */
} vdc_dom0_job;

/* Run @job (with --dom0-memory-max, its agents in a memory cgroup of the
 * step's own, journaled ("cgroup"), made before and removed after, its
 * limit read back into @job->memory): the raw workload pass on @dev first (over the plan's job files,
 * vdc_run_workload_file), then mkfs, mount on @mnt, drop caches, the
 * bonnie++ pass, the workload pass on a file, umount (mkfs and mount only
 * when a pass on the filesystem runs).  Each pass runs even when another
 * failed; an interruption stops them.  0, or -1 after vdc_error (what each
 * pass wrote is kept). */
int vdc_dom0_step(const vdc_dom0_job *job);

/* Boot @bi of the run (a dom0 baseline boot: one step): the step through
 * the run's env (vdc_dom0_step, or a test's) with the host sampler fed
 * its agent, the target's cache record (its loop device, once) and
 * placement read back, and the files each pass wrote handed to the
 * recorder (its host samples too, when the step succeeded).  The agent
 * writes OUT/logs/TARGET-REP.agent.json, .workloads.json and
 * .raw-workloads.json; the mount point is OUT/mnt-TARGET. */
void vdc_dom0_boot(struct vdc_run_state *st, size_t bi);

/* OUT/workloads/NAME.fio of the plan's workload @i (g_free): the run
 * writes every job file there before the first step. */
char *vdc_run_workload_file(const vdc_plan *p, size_t i);

#endif
