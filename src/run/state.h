/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The state of one run while it lives: src/run/run.c makes it and keeps
 * the order of the steps; provision.c, guestimg.c, domu.c and dom0.c carry
 * the steps out on it; what the steps learn goes to its recorder
 * (collect/recorder.h), what they make onto its journal (run/journal.h). */
#ifndef VDC_RUN_STATE_H
#define VDC_RUN_STATE_H

#include "collect/recorder.h"
#include "guest/prepare.h"
#include "hv/hv.h"
#include "plan/plan.h"
#include "run/env.h"
#include "run/journal.h"
#include "storage/storage.h"

/* Settings of one run that are not part of the plan (paths of our own
 * programs, cache). */
typedef struct {
    const char *agent;          /* static vmdiskcmp-agent */
    const char *runner;         /* static vmdiskcmp-runner */
    const char *cache_dir;
    int consent;                /* --destroy-data */
    int no_report;
    int launch_timeout_s;       /* libguestfs */
    int inspect;                /* --inspect-on-failure */
} vdc_run_settings;

typedef struct vdc_run_state {
    vdc_plan *p;
    const vdc_run_settings *s;
    const vdc_run_env *env;
    vdc_journal journal;
    const vdc_hv_ops *hvops;    /* NULL: no hypervisor (dom0 only) */
    vdc_hv *hv;
    struct vdc_storage *st;     /* per target: what provisioning made */
    /* the density levels (--guests): guest k's copy of target i, k >= 1,
     * at copies[i * n_guests + k] (k 0 is st[i]); NULL without levels */
    struct vdc_storage *copies;
    unsigned n_guests;          /* the largest level (vdc_plan_max_guests) */
    char **dev;                 /* per target: the device or file its agent uses */
    struct vdc_prepared prep;   /* the guest image the domUs boot */
    vdc_recorder *rec;
    char *run_tag;              /* VDC_STORAGE_RUN_TAG_PREFIX + the run id: on every LV */
    int interrupted;
    char *repeats;              /* why every further boot would fail as the last did
                                 * (the run stops), or NULL */
} vdc_run_state;

/* 1 once the run was asked to stop (SIGINT/SIGTERM: env->stop), which it
 * remembers. */
static inline int
vdc_run_stopped(vdc_run_state *st)
{
    if (st->env->stop && *st->env->stop)
        st->interrupted = 1;
    return st->interrupted;
}

#endif
