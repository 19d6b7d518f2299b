/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host CPU accounting of what serves a disk: the "servers" of a VBD or a
 * libvirt disk (blkback kernel threads, the loop device's worker, a QEMU
 * process or one of its threads, the dom0 agent), snapshots of their CPU
 * time and of dom0's /proc/stat, and the delta between two snapshots.
 *
 * A server's identity is (pid, tid, starttime): a pid the kernel reused
 * for another task is noticed, never summed.  The delta is pure arithmetic
 * (unit-tested); taking a snapshot is the thin reader.  The run decides
 * when (at each test boundary the guest reports), the analysis what the
 * figures mean (per GiB, per 1,000 I/Os, flags). */
#ifndef VDC_HOST_CPUACCT_H
#define VDC_HOST_CPUACCT_H

#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "host/procfs.h"

/* Whether a server's CPU time is the disk's alone. */
typedef enum {
    VDC_ATTR_EXACT = 0,     /* dedicated to this disk (a blkback ring thread, a
                             * loop device's own kthread, this domU's QEMU) */
    VDC_ATTR_SHARED,        /* serves other work too (shared kworkers): its CPU
                             * time is not this disk's, never reported as such */
    VDC_ATTR_AMBIGUOUS,     /* the name could belong to another disk too
                             * (comm truncated to 15 characters) */
} vdc_attribution;

/* "exact", "shared", "ambiguous" */
const char *vdc_attribution_name(vdc_attribution a);

typedef struct {
    char *role;             /* "blkback", "loop-worker", "qemu", "agent", ... */
    char *name;             /* the comm when found, e.g. "5.xvdb-0" */
    int pid;
    int tid;                /* 0: the whole process (all its threads) */
    uint64_t starttime;     /* clock ticks after boot (stat field 22) */
    vdc_attribution attribution;
    char *reason;           /* why not exact, one line; NULL when exact */
} vdc_server;

/* A new server (strings copied; @reason may be NULL).  Free with
 * vdc_server_free (NULL-safe), or put it in vdc_server_set_new()'s array. */
vdc_server *vdc_server_new(const char *role, const char *name, int pid, int tid,
                           uint64_t starttime, vdc_attribution attribution,
                           const char *reason);
void vdc_server_free(vdc_server *s);
/* An empty GPtrArray of vdc_server* that frees its elements. */
GPtrArray *vdc_server_set_new(void);

/* A process (@tid 0) or one thread as a server, identity read now from
 * /proc.  NULL after vdc_error when it does not exist. */
vdc_server *vdc_server_for_task(const char *role, int pid, int tid, vdc_attribution attribution,
                                const char *reason);

/* A QEMU process @pid as servers: the process itself (role "qemu") and
 * each of its vCPU threads (comm "CPU N/KVM", "CPU N/TCG") as @vcpu_role,
 * identities read now from /proc, every one exact.  A GPtrArray of
 * vdc_server* (vdc_server_set_new); the process missing: empty, after
 * vdc_error; its task directory unreadable: the process alone. */
GPtrArray *vdc_qemu_servers(int pid, const char *vcpu_role);

/* One server's reading in a snapshot. */
typedef enum {
    VDC_SRV_OK = 0,         /* alive, same identity: utime/stime valid */
    VDC_SRV_GONE,           /* no such task any more */
    VDC_SRV_REPLACED,       /* the pid now names another task (starttime differs) */
} vdc_server_state;

typedef struct {
    vdc_server_state state;
    uint64_t utime, stime;  /* clock ticks, valid when state is OK */
} vdc_server_sample;

typedef struct {
    double t_s;                 /* CLOCK_MONOTONIC, seconds */
    vdc_proc_stat stat;         /* dom0's /proc/stat */
    vdc_server_sample *srv;     /* one per server, in set order; g_free */
    size_t n_srv;
} vdc_cpu_snapshot;

/* Pure: @s's reading from its stat line @st (NULL: the task is gone). */
void vdc_server_sample_from(const vdc_server *s, const vdc_task_stat *st, vdc_server_sample *out);

/* Read /proc/stat and every server of @servers (vdc_server*) now.  A gone
 * or replaced server is recorded as such, not an error.  0, or -1 after
 * vdc_error (/proc unreadable, malformed); dispose @out either way. */
int vdc_cpu_snapshot_take(const GPtrArray *servers, vdc_cpu_snapshot *out);
void vdc_cpu_snapshot_dispose(vdc_cpu_snapshot *snap);   /* safe twice */

/* A server's figure over an interval. */
typedef enum {
    VDC_DELTA_OK = 0,       /* alive at both ends with the same identity */
    VDC_DELTA_ENDED,        /* gone or replaced by the end: its CPU time in the
                             * interval is unknown (not zero) */
    VDC_DELTA_ABSENT,       /* not alive at the start, or not yet in the set */
} vdc_delta_state;

typedef struct {
    vdc_delta_state state;
    double user_s, system_s;    /* CPU seconds; 0 unless state is OK */
} vdc_server_delta;

typedef struct {
    double interval_s;          /* wall seconds between the snapshots */
    /* dom0, summed over its CPUs (CPU seconds; busy = user + nice + system
     * + irq + softirq, see vdc_cpu_times_busy) */
    double busy_s, all_s, idle_s, iowait_s, steal_s;
    double *cpu_busy_s;         /* per CPU, n_cpus entries; NULL when the set of
                                 * CPUs differs between the snapshots (hotplug) */
    size_t n_cpus;
    double tick_s;              /* one clock tick (1 / ticks_per_s): the unit every
                                 * counter above was read in */
    vdc_server_delta *srv;      /* per server, in set order */
    size_t n_srv;
} vdc_cpu_delta;

/* @b minus @a, converting ticks with @ticks_per_s (sysconf(_SC_CLK_TCK)).
 * Both snapshots must be of the same server set, or @b's of that set with
 * servers appended after @a was taken (found later: those are ABSENT in
 * @out, which has @b's servers); @b not before @a, and no counter may run
 * backwards (dom0's or an unchanged server's): else -1 after vdc_error
 * saying which.  Dispose @out either way. */
int vdc_cpu_delta_compute(const vdc_cpu_snapshot *a, const vdc_cpu_snapshot *b,
                          long ticks_per_s, vdc_cpu_delta *out);
void vdc_cpu_delta_dispose(vdc_cpu_delta *d);            /* safe twice */

/* The CPU seconds dom0 spent on something else than the exactly
 * attributed servers of @servers that were alive throughout (the same set
 * as the delta's), "dom0 other": what can be measured where a worker cannot
 * be attributed, e.g. the loop device's share inside "dom0 busy minus
 * blkback minus the agent".  A thread server whose process is also in the
 * set is counted once, in the process.  Sets *complete to 0 when an exact
 * server ended or was absent (the figure then includes its unknown share).
 *
 * Like is subtracted from like: a server's utime + stime (/proc/PID/stat)
 * is its scheduler run time (sum_exec_runtime), which on a kernel without
 * CONFIG_PARAVIRT_TIME_ACCOUNTING (Debian 12's) goes on while the vCPU
 * under it is preempted by the hypervisor, while /proc/stat gives each such
 * tick to steal, not to user or system.  So the servers are subtracted from
 * busy + steal, not from busy alone (which a Xen dom0 under load took below
 * them: "dom0 other -9.07 s").  A kernel that does take steal out of the
 * run time leaves steal inside dom0 other (never below 0 for it).
 *
 * *@resolution_s (may be NULL) gets how far below 0 the counters' rounding
 * alone can take the figure: every counter is read in whole clock ticks, so
 * the difference of each (six /proc/stat columns for busy + steal, a
 * server's utime and its stime) is off by less than one tick.  A figure below
 * -*@resolution_s is not a measurement (the accounting is inconsistent:
 * counters of another kind, a server counted twice); the caller says so,
 * never prints it as CPU time.  Seconds. */
double vdc_cpu_delta_unattributed_s(const vdc_cpu_delta *d, const GPtrArray *servers,
                                    int *complete, double *resolution_s);

#endif
