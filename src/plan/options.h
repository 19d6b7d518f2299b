/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Options of `vmdiskcmp run`: one table drives parsing, validation and
 * --help (fio's options.c as the model).  Parsing is pure: it fills a
 * vdc_run_opts and creates nothing.  vdc_plan_build() (plan/build.h) then
 * turns options and host facts into a plan (plan.h). */
#ifndef VDC_PLAN_OPTIONS_H
#define VDC_PLAN_OPTIONS_H

#include <stdint.h>
#include <stdio.h>

#include "common/opts.h"
#include "plan/plan.h"

typedef struct {
    int image, lvm, dom0;
    char **blocks;              /* --block DEV (repeatable), NULL-terminated */
    char **custom;              /* --target NAME=DEV (repeatable) */
    int consent;                /* --destroy-data: may overwrite --block devices */
    char *vg;
    uint64_t lv_size;           /* bytes; 0 = test size + margin */
    unsigned stripes;
    uint64_t stripe_size;
    char *image_dir;
    uint64_t qcow2_cluster_size;    /* bytes; 0: QEMU's */
    uint64_t qcow2_l2_cache_size;   /* bytes; 0: QEMU's */
    uint64_t thin_chunk_size;   /* bytes; 0: LVM's */
    char *thin_zero;            /* yes | no; NULL: LVM's */
    char *precondition_time;    /* MAX[:WINDOW] seconds; NULL: 1800:30 */
    vdc_dim_list dims[VDC_DIM_COUNT];   /* the matrix's dimensions (plan/dims.h:
                                         * --image-backend, --image-cache,
                                         * --disk-cache, ...), by vdc_target_dim */
    vdc_dim_list guests;        /* --guests: density levels (plan/levels.h); n 0: not given */
    unsigned max_targets;       /* --max-targets; 0 = VDC_MAX_TARGETS_DEFAULT */
    uint64_t size;              /* agent test file size in the domU, bytes; 0 = 2x guest RAM */
    uint64_t dom0_size;         /* in dom0; 0 = 2x dom0 RAM */
    char *dom0_on;              /* lvm | image | DEV; default lvm when --vg, else image */
    unsigned runs;              /* VDC_OPT_WORD: --runs auto */
    unsigned max_runs;          /* --runs auto; 0 = VDC_RUNS_AUTO_MAX_DEFAULT */
    char *precision;            /* --runs auto: percent; NULL = VDC_RUNS_AUTO_PRECISION_DEFAULT */
    char *seed;                 /* decimal; NULL = random */
    char *order;
    char *hypervisor;           /* libxl | libvirt | mock; NULL = auto */
    char *connect;
    char *accel;                /* libvirt qemu:///system domain type: kvm | qemu(tcg) */
    char *guest_image;
    char *prepared_image;       /* an image `vmdiskcmp prepare --out` made: no appliance */
    char *kernel, *initrd, *cmdline;
    unsigned guest_memory;      /* MiB */
    unsigned guest_vcpus;
    unsigned timeout;           /* seconds per domain boot */
    unsigned agent_timeout;     /* seconds per agent pass; 0 = timeout */
    unsigned heartbeat_timeout; /* seconds without a runner heartbeat; 0 = off
                                 * (vdc_run_opts_init: VDC_HEARTBEAT_TIMEOUT_DEFAULT) */
    char *out;
    char *store;                /* --store FILE: the result store; NULL: beside out */
    char *cache_dir;
    char *agent;                /* path of the static agent (dom0 and prepare) */
    char *runner;               /* path of the static in-guest runner */
    char *mkfs;
    char *agent_options;
    char **workloads;           /* --workload NAME|FILE (repeatable, comma lists) */
    char *tests;                /* --tests: comma list of bonnie|workloads */
    char *workload_on;          /* --workload-on: comma list of file|raw; NULL = file */
    unsigned agent_ram;         /* -r for the agent in the domU; 0 = --guest-memory */
    unsigned dom0_ram;          /* -r for the agent in dom0; 0 = MemTotal */
    unsigned dom0_memory_max;   /* --dom0-memory-max: the dom0 agent's memory cgroup limit,
                                 * MiB; 0 = none */
    char *blkback_max_ring_page_order;  /* --blkback-max-ring-page-order N; NULL: not given */
    char *blkback_max_queues;           /* --blkback-max-queues N; NULL: not given */
    int keep, dry_run, quiet, no_report;
    int no_store;               /* --no-store: record nothing in a result store */
    int no_drop_caches;         /* --no-drop-caches */
    int emulated;               /* the hypervisor itself runs under emulation (the lab) */
    int inspect;                /* --inspect-on-failure */
} vdc_run_opts;

#define VDC_HEARTBEAT_TIMEOUT_DEFAULT 120u   /* seconds (--heartbeat-timeout) */
/* The shortest --heartbeat-timeout other than 0: a few of the runner's
 * 5 s beats and of the host's 5 s looks, so that a late beat is not taken
 * for a stop. */
#define VDC_HEARTBEAT_TIMEOUT_MIN 30u

/* Zero @o, with the defaults that are not 0 (--heartbeat-timeout). */
void vdc_run_opts_init(vdc_run_opts *o);
void vdc_run_opts_dispose(vdc_run_opts *o);   /* safe to call twice */

/* Parse argv (argv[0] is the command name).  Returns VDC_OPTS_OK (0),
 * VDC_OPTS_HELP (1: --help, print vdc_run_opts_help) or, on bad input,
 * VDC_OPTS_ERROR (-1) after one vdc_input_error line naming the option and
 * what was expected (exit status 2).  Unknown options, missing values,
 * malformed sizes/numbers/enums and contradictions (e.g. --stripe-size
 * without --stripes) are all refused here, before anything is created. */
int vdc_run_opts_parse(vdc_run_opts *o, int argc, char **argv);

/* The path options that end up in domain XML, an xl.cfg or an xl disk
 * spec (--image-dir, --cache-dir, --prepared-image, --out, --guest-image,
 * --kernel, --initrd, --dom0-on, --block, --target's device): refused if
 * one holds a control character, and with @xl (the plan boots with libxl)
 * if a disk's path holds one of xl's disk-spec characters , : = " ' \.
 * vdc_run_opts_parse calls it for --hypervisor libxl, the plan builder for
 * libxl chosen by default.  0, or -1 after one vdc_input_error. */
int vdc_run_opts_check_paths(const vdc_run_opts *o, int xl);

/* --help text, generated from the table. */
void vdc_run_opts_help(FILE *f);

#endif
