/* Building the plan: `vmdiskcmp run`'s options (plan/options.h) and the
 * host's facts -> a plan (plan/plan.h).  Pure: nothing is created, nothing
 * is read from the machine (the caller gathers the facts). */
#ifndef VDC_PLAN_BUILD_H
#define VDC_PLAN_BUILD_H

#include "plan/options.h"
#include "plan/plan.h"

/* Facts of the host that defaults depend on (filled by src/run/facts.c, or
 * by tests). */
typedef struct {
    const char *hostname;
    unsigned ram_mib;           /* dom0 MemTotal */
    int xen_control_d;          /* /proc/xen/capabilities says control_d */
    const char *date_id;        /* UTC, e.g. 2026-11-30T101500.123Z */
    const char *suffix;         /* random hex, e.g. "3fa9c2", ending the run id
                                   (unique per host), or NULL: none */
} vdc_host_defaults;

/* Build the plan: the run id DATE-HOST[-SUFFIX] (every object the run
 * creates carries it: domain vmdiskcmp-ID, images vmdiskcmp-ID-TARGET.FMT,
 * LVs vmdiskcmp-DATE[-SUFFIX]-lvm|dom0), targets (image targets one per --image-backend and
 * --image-cache entry: image, image-BACKEND, image[-BACKEND]-nocache;
 * vdevs xvdb.. for Xen or vdb.. for qemu/kvm, sizes), defaults (--size 2x
 * guest RAM, dom0 size 2x dom0 RAM, --out results/ID, hypervisor
 * libxl when control_d else libvirt), seeds and schedule.  Pure.  Returns 0,
 * or -1 after one vdc_input_error naming the option (exit 2). */
int vdc_plan_build(const vdc_run_opts *o, const vdc_host_defaults *h,
                   const char *command_line, vdc_plan *p);

#endif
