/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run plan: what `vmdiskcmp run` will create and measure, as a pure
 * data structure.  Built from the options (src/plan/options.h), printed by
 * --dry-run, saved as DIR/plan.json, and walked by the run (src/run/).
 * Nothing here touches a device, a hypervisor or the file system. */
#ifndef VDC_PLAN_PLAN_H
#define VDC_PLAN_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "model/target.h"

typedef enum {
    VDC_ORDER_ROTATED,      /* interleaved, rotated per repetition against drift:
                               A B H, H B A, B A H, H A B ... (vdc_plan_schedule) */
    VDC_ORDER_INTERLEAVED,  /* A B C A B C ... */
    VDC_ORDER_GROUPED,      /* A A A B B B ... */
} vdc_order;

typedef enum {
    VDC_HV_NONE,     /* only dom0 targets: no domain is created */
    VDC_HV_LIBXL,
    VDC_HV_LIBVIRT,
    VDC_HV_MOCK,     /* tests only: src/hv/hv_mock.c */
} vdc_hv_kind;

/* The values a matrix dimension was given (--disk-cache none,writeback:
 * plan/dims.h), as values of its vdc_target_dim, in the order given; n 0:
 * not given. */
#define VDC_DIM_VALUES_MAX 24
typedef struct {
    int v[VDC_DIM_VALUES_MAX];
    size_t n;
} vdc_dim_list;

/* The most targets a plan makes unless --max-targets says otherwise. */
#define VDC_MAX_TARGETS_DEFAULT 16
/* A generated target name's most bytes (plan/dims.h). */
#define VDC_PLAN_TARGET_NAME_MAX 48

typedef struct {
    char *name;                 /* unique: image, image-qdisk, lvm, block, dom0, user's;
                                   a matrix's image-none-uring (plan/dims.h) */
    vdc_target_spec spec;       /* where and what backs it; image format, allocation,
                                   backend and cache (model/target.h) */
    char *vdev;                 /* domU device (xvdb, vdb); NULL for dom0 */
    char *path;                 /* image file, /dev/VG/LV, or the block device */
    uint64_t disk_bytes;        /* size of the disk we create (0: existing device) */
    uint64_t test_bytes;        /* agent -s: test file size in bytes */
    char *vg, *lv;              /* backing lvm */
    unsigned stripes;           /* backing lvm: 0 or 1 = linear */
    uint64_t stripe_size;       /* backing lvm: bytes, 0 = LVM default */
    char *thin_pool;            /* backing lvm, lv_type thin: its pool's LV name */
} vdc_plan_target;

/* One workload (`run --workload`): a fio job file the agent's job engine
 * runs, checked on the host by the agent's own parser
 * (guest-agent/jobfile.h) and carried to the domU as text on the control
 * disk (to dom0 as a file beside the results). */
typedef struct {
    char *name;                 /* the job's section name: result keys workload_read@NAME */
    char *source;               /* the file read (absolute path) */
    char *text;                 /* the file's text, as read and checked */
    char *rw;                   /* fio's rw= (read, randread, randrw, ...) */
    int reads, writes;          /* the samples it gives: workload_read, workload_write */
    uint64_t bytes;             /* what it lays out, bytes: its clones' files
                                   (agent_job_file_bytes) */
    uint64_t region;            /* the end of the region its last clone uses on a
                                   raw device, bytes (agent_job_region_end; no
                                   size=: the rest of the device, so offset + bs,
                                   its least) */
} vdc_plan_workload;

/* A value vmdiskcmp chose because no option named it (the hypervisor, the
 * VG, the guest template): the option it stands for, the value, and why
 * (the facts it was chosen from), stated by --dry-run and plan.json. */
typedef struct {
    char *option;               /* "--vg" */
    char *value;                /* "vg0" */
    char *why;                  /* "the VG with the most free space ..." */
} vdc_plan_choice;

/* One agent invocation: target @target, repetition @rep, seed @seed; at a
 * density level (--guests) guest @guest of the @level domUs booted together
 * (level 0: a plan without --guests, one guest, runs[].level absent). */
typedef struct {
    size_t target;
    unsigned rep;
    uint64_t seed;
    unsigned level;             /* N of the level, or 0 without --guests */
    unsigned guest;             /* 0 to level - 1 (0 without --guests) */
} vdc_plan_step;

/* Guest k's seed at a level is the repetition's seed + k x this (guest 0
 * replays what one guest alone replays; the others differ). */
#define VDC_GUEST_SEED_STRIDE 0x9e3779b97f4a7c15ull

/* One domain boot (or one local dom0 run): steps [first, first+n).  At a
 * density level (guests > 0) the n steps are the n guests of one target at
 * one repetition, each booted in a domain of its own, together. */
typedef struct {
    size_t first, n;
    int dom0;                   /* 1: local baseline step, no domain */
    unsigned guests;            /* a level's N domains booted together (n == guests);
                                 * 0: one domain holding the n steps' targets */
} vdc_plan_boot;

typedef struct {
    char *id;                   /* e.g. 2026-11-30T101500Z-host; names the domain */
    char *out_dir;
    char *command_line;

    vdc_hv_kind hv;
    char *uri;                  /* libvirt connection URI */
    char *domain_type;          /* libvirt: "xen", "qemu", "kvm"; libxl: "pv" */
    char *domain_name;          /* vmdiskcmp-ID */

    /* guest */
    char *guest_image;          /* the template (before prepare) */
    char *prepared_image;       /* --prepared-image: use it as is (no prepare step) */
    char *kernel, *initrd, *cmdline;
    unsigned memory_mib, vcpus;
    char *ctl_disk;             /* path of the per-boot control disk */
    char *ctl_vdev;             /* last vdev */
    char *root_vdev;

    /* what the agent gets */
    char *mkfs;                 /* "ext4" */
    char *agent_options;        /* extra agent options, space separated, or NULL */
    unsigned agent_ram_mib;     /* -r given to the agent in the domU */
    unsigned dom0_ram_mib;      /* -r given to the agent in dom0 */
    const char *dom0_ram_from;  /* where dom0_ram_mib comes from, static: "--dom0-ram",
                                 * "--dom0-memory-max" or "the host's MemTotal" */
    unsigned dom0_memory_max_mib; /* --dom0-memory-max: the dom0 agent runs in a memory cgroup
                                   * limited to this (host/memcg.h), MiB; 0: none */
    int blkback[2];             /* --blkback-max-ring-page-order, --blkback-max-queues: the
                                 * value the run writes to blkback's parameter
                                 * (host/blkback.h vdc_blkback_param order); -1 not given */
    int bonnie;                 /* the bonnie++ pass runs (--tests) */
    int workload_file;          /* the workload pass on a file in the fresh filesystem
                                   (--workload-on file, the default) */
    int workload_raw;           /* the workload pass on the target's block device
                                   itself, before mkfs (--workload-on raw) */
    vdc_plan_workload *workloads;   /* the workload pass, in --workload order */
    size_t n_workloads;

    vdc_order order;
    unsigned runs;              /* repetitions scheduled; with runs_auto the most
                                   the stopping rule may use (--max-runs) */
    int runs_auto;              /* --runs auto: stop once every headline test is
                                   precise (doc/statistics.md, "Runs until sure") */
    unsigned min_runs;          /* auto: repetitions before the rule may stop */
    double precision_percent;   /* auto: the ratio's 95 % CI half-width to reach, % */
    uint64_t seed;
    unsigned timeout_s;         /* per boot */
    unsigned agent_timeout_s;   /* per agent pass (--agent-timeout, else timeout_s) */
    unsigned heartbeat_timeout_s;   /* a runner that beat and stopped this long: the
                                     * boot fails (--heartbeat-timeout); 0: off */
    int keep;
    int drop_caches;            /* the agent's --drop-caches before each test, the
                                   runner's before each agent, dom0's before each
                                   boot (--no-drop-caches: 0) */
    int emulated;               /* --emulated, or a TCG (type qemu) domain */

    vdc_plan_choice *chosen;    /* what vmdiskcmp chose, in plan order */
    size_t n_chosen;

    vdc_dim_list dims[VDC_DIM_COUNT];   /* the matrix's dimensions as given, by
                                         * vdc_target_dim (n 0: not given) */
    vdc_dim_list guests;        /* --guests: the density levels as given (plan/levels.h);
                                 * n 0: one guest at a time */
    unsigned max_targets;       /* --max-targets */
    char **dropped;             /* the matrix's cells that are no target, "NAME: why"
                                   (a g_strv, NULL: none; plan/dims.h) */

    /* storage variants (doc/storage.md) and aging (doc/agent.md) */
    unsigned stripes;           /* --stripes: of a striped LV */
    uint64_t qcow2_cluster_size;    /* --qcow2-cluster-size, bytes; 0: QEMU's 64 KiB */
    uint64_t qcow2_l2_cache_size;   /* --qcow2-l2-cache-size, bytes; 0: QEMU's default */
    uint64_t thin_chunk_size;   /* --thin-chunk-size, bytes; 0: LVM's choice */
    int thin_zero;              /* --thin-zero: 1 yes, 0 no, -1 LVM's default */
    unsigned precondition_max_s;    /* --precondition-time MAX (seconds) */
    unsigned precondition_window_s; /* and its steady-state WINDOW (seconds) */

    vdc_plan_target *targets;
    size_t n_targets;
    vdc_plan_step *steps;
    size_t n_steps;
    vdc_plan_boot *boots;
    size_t n_boots;
} vdc_plan;

void vdc_plan_init(vdc_plan *p);
void vdc_plan_dispose(vdc_plan *p);   /* safe to call twice */
void vdc_plan_target_dispose(vdc_plan_target *t);
void vdc_plan_workload_dispose(vdc_plan_workload *w);

/* Append a copy of @t (takes ownership of its strings; @t is zeroed). */
void vdc_plan_add_target(vdc_plan *p, vdc_plan_target *t);

/* Record a choice (copies the strings; @why is printf-style). */
void vdc_plan_add_choice(vdc_plan *p, const char *option, const char *value, const char *why_fmt, ...)
    G_GNUC_PRINTF(4, 5);

/* Fill steps[] and boots[] from targets, runs, order and seed.  Repetition
 * r of every target gets seed + r (doc/result-format.md experiment.seed:
 * "run i" is repetition i), so all targets of a repetition replay the same
 * operation sequence and differ only in what serves the disk.
 * Interleaved: rep 0 of every target, then rep 1, ...  Grouped: every rep
 * of target 0, then target 1, ...  Rotated (the default): interleaved, but
 * in repetition r the domU targets start at (r + o1) mod n of their list
 * (each runs first equally often), and the dom0 targets run before them
 * when ((r / 2) + o2) is even, else after (o1, o2 from the seed: the
 * position of a target in its boot is balanced against which side of
 * dom0 it runs on, and neither follows the option order).  A boot is a maximal run of consecutive
 * domU steps of one repetition with no target twice; each dom0 step is its own "boot".
 * With density levels (--guests, plan/levels.h) every domU boot is one
 * level of one target: per repetition, each level (in the order given;
 * rotated, starting at (r + o3) mod the number of levels) of each domU
 * target (in the order above) is a boot of N steps, guests 0..N-1, guest k
 * seeded seed + r + k x VDC_GUEST_SEED_STRIDE; grouped: every level and
 * repetition of target 0, then target 1, ...; the dom0 steps as above
 * (interleaved: first in each repetition; grouped: last).
 * Returns 0, or -1 (vdc_error) when there is nothing to run. */
int vdc_plan_schedule(vdc_plan *p);

/* Indices of domU targets, in vdev order (what every domain boot attaches). */
size_t vdc_plan_domu_targets(const vdc_plan *p, size_t *idx, size_t max);

/* A rough duration of the plan in seconds, from its boots, steps, test
 * sizes and workloads at assumed rates (the model and its constants:
 * plan.c, doc/controller.md "The target matrix"): printed by --dry-run,
 * in plan.json and in the refusal of too many targets, never used to
 * decide anything. */
double vdc_plan_estimate_s(const vdc_plan *p);

/* Names for the plan's own enums (plan.json, result.json); a target's
 * are in model/target.h. */
const char *vdc_order_name(vdc_order o);
const char *vdc_hv_name(vdc_hv_kind h);

/* The plan as JSON (plan.json; keys documented in doc/controller.md)
 * through the one JSON writer (model/result.h vdc_json_write: "key" :
 * value, 2-space indent, no newline at the end).  Returns a newly
 * allocated string. */
char *vdc_plan_to_json(const vdc_plan *p);

/* A human-readable plan summary for --dry-run. */
char *vdc_plan_to_text(const vdc_plan *p);

/* The line `run` warns with before anything is made when the dom0
 * baseline's test file (--dom0-size) is under twice the RAM dom0's agent is
 * told (dom0_ram_mib): bonnie++'s rule, a test file of at least twice the
 * RAM, or the page cache answers part of the I/O and flatters the
 * baseline every target is held against.  "--dom0-size 64 MiB is under
 * twice dom0's RAM (24576 MiB, the host's MemTotal): expected at least
 * 49152 MiB, or dom0's page cache flatters the baseline (bonnie++'s rule;
 * the report marks it under-2x-ram)"; NULL when the plan has no dom0
 * target or its file is large enough.  g_free. */
char *vdc_plan_dom0_size_warning(const vdc_plan *p);

#endif
