/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Building the plan: `vmdiskcmp run`'s options (plan/options.h) and the
 * host's facts -> a plan (plan/plan.h).  Pure: nothing is created, nothing
 * is read from the machine (the caller gathers the facts). */
#ifndef VDC_PLAN_BUILD_H
#define VDC_PLAN_BUILD_H

#include "plan/options.h"
#include "plan/plan.h"

#include <stddef.h>
#include <stdint.h>

/* One LVM volume group of the host (bd_lvm_vgs: storage/storage.h
 * vdc_storage_lvm_vgs). */
typedef struct {
    const char *name;
    uint64_t free;              /* bytes */
    uint64_t extent_size;       /* bytes; 0: unknown (no rounding) */
    unsigned pv_count;
} vdc_vg_fact;

/* Facts of the host that defaults depend on (filled by cmd_run from
 * src/run/facts.c, storage and common/helper.c, or by tests). */
typedef struct {
    const char *hostname;
    unsigned ram_mib;           /* dom0 MemTotal */
    int xen_control_d;          /* /proc/xen/capabilities says control_d */
    const char *date_id;        /* UTC, e.g. 2026-11-30T101500.123Z */
    const char *suffix;         /* random hex, e.g. "3fa9c2", ending the run id
                                   (unique per host), or NULL: none */
    /* the host's VGs, for --lvm (or --dom0-on lvm) without --vg: listed
     * only then (vgs_listed 1; n_vgs may be 0: no VG at all); vgs_error:
     * why they could not be listed (the listing's message), else NULL */
    const vdc_vg_fact *vgs;
    size_t n_vgs;
    int vgs_listed;
    const char *vgs_error;
    /* the guest template used when no --guest-image or --prepared-image is
     * given: the one found (a build tree's guest-template/guest.img beside
     * this vmdiskcmp, else the installed one), or NULL; guest_template_where
     * names where it was looked for, for the refusal */
    const char *guest_template;
    const char *guest_template_where;
} vdc_host_defaults;

/* Build the plan: the run id DATE-HOST[-SUFFIX] (every object the run
 * creates carries it: domain vmdiskcmp-ID, images vmdiskcmp-ID-TARGET.FMT,
 * LVs vmdiskcmp-DATE[-SUFFIX]-lvm|dom0), targets (image targets one per --image-backend and
 * --image-cache entry: image, image-BACKEND, image[-BACKEND]-nocache;
 * vdevs xvdb.. for Xen or vdb.. for qemu/kvm, sizes), defaults (--size 2x
 * guest RAM, dom0 size 2x dom0 RAM, the bonnie++ pass unless --tests
 * leaves it out, --out results/ID, hypervisor
 * libxl when control_d else libvirt), seeds and schedule.  Pure.
 *
 * What no option names and the host decides is recorded in p->chosen:
 * the hypervisor (no --hypervisor/--connect); the VG (--lvm, or
 * --dom0-on lvm, without --vg: the VG of @h->vgs with the most free space
 * among those that hold every LV of the plan, each rounded up to whole
 * extents, with as many PVs as --stripes; the dom0 baseline then goes on
 * it too); the guest template (no --guest-image/--prepared-image:
 * @h->guest_template, prepared by the run on first use and cached).  A
 * choice that cannot be made safely is refused: a VG off a Xen dom0
 * without --hypervisor, no VG, no VG with room, two VGs with the most
 * room tied, no guest template (a run; --dry-run states it).
 *
 * Returns 0, or -1 after one vdc_input_error naming the option (exit 2). */
int vdc_plan_build(const vdc_run_opts *o, const vdc_host_defaults *h,
                   const char *command_line, vdc_plan *p);

#endif
