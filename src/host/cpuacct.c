/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host CPU accounting of a disk's servers: snapshots and deltas (cpuacct.h). */
#include "config.h"
#include "host/cpuacct.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/util.h"

const char *
vdc_attribution_name(vdc_attribution a)
{
    switch (a) {
    case VDC_ATTR_EXACT:
        return "exact";
    case VDC_ATTR_SHARED:
        return "shared";
    case VDC_ATTR_AMBIGUOUS:
        return "ambiguous";
    }
    return "unknown";
}

vdc_server *
vdc_server_new(const char *role, const char *name, int pid, int tid, uint64_t starttime,
               vdc_attribution attribution, const char *reason)
{
    vdc_server *s = g_new0(vdc_server, 1);

    s->role = g_strdup(role);
    s->name = g_strdup(name);
    s->pid = pid;
    s->tid = tid;
    s->starttime = starttime;
    s->attribution = attribution;
    s->reason = g_strdup(reason);
    return s;
}

void
vdc_server_free(vdc_server *s)
{
    if (!s)
        return;
    g_free(s->role);
    g_free(s->name);
    g_free(s->reason);
    g_free(s);
}

GPtrArray *
vdc_server_set_new(void)
{
    return g_ptr_array_new_with_free_func((GDestroyNotify)vdc_server_free);
}

vdc_server *
vdc_server_for_task(const char *role, int pid, int tid, vdc_attribution attribution,
                    const char *reason)
{
    vdc_task_stat st;
    int r = vdc_task_stat_read(pid, tid, &st);

    if (r == 1) {
        if (tid)
            vdc_error("%s server: thread %d of process %d does not exist", role, tid, pid);
        else
            vdc_error("%s server: process %d does not exist", role, pid);
    }
    if (r != 0)
        return NULL;
    return vdc_server_new(role, st.comm, pid, tid, st.starttime, attribution, reason);
}

void
vdc_server_sample_from(const vdc_server *s, const vdc_task_stat *st, vdc_server_sample *out)
{
    memset(out, 0, sizeof(*out));
    if (!st) {
        out->state = VDC_SRV_GONE;
        return;
    }
    if (st->starttime != s->starttime) {
        out->state = VDC_SRV_REPLACED;
        return;
    }
    out->state = VDC_SRV_OK;
    out->utime = st->utime;
    out->stime = st->stime;
}

void
vdc_cpu_snapshot_dispose(vdc_cpu_snapshot *snap)
{
    if (!snap)
        return;
    vdc_proc_stat_dispose(&snap->stat);
    g_clear_pointer(&snap->srv, g_free);
    snap->n_srv = 0;
}

int
vdc_cpu_snapshot_take(const GPtrArray *servers, vdc_cpu_snapshot *out)
{
    struct timespec ts;
    size_t i, n = servers ? servers->len : 0;

    memset(out, 0, sizeof(*out));
    out->srv = g_new0(vdc_server_sample, n ? n : 1);
    out->n_srv = n;
    /* the servers first, /proc/stat last, the clock in between: the three
     * readings are a few microseconds apart */
    for (i = 0; i < n; i++) {
        const vdc_server *s = g_ptr_array_index((GPtrArray *)servers, i);
        vdc_task_stat st;
        int r = vdc_task_stat_read(s->pid, s->tid, &st);

        if (r < 0)
            return -1;
        vdc_server_sample_from(s, r == 0 ? &st : NULL, &out->srv[i]);
    }
    clock_gettime(CLOCK_MONOTONIC, &ts);
    out->t_s = (double)ts.tv_sec + ts.tv_nsec / 1e9;
    return vdc_proc_stat_read(&out->stat);
}

void
vdc_cpu_delta_dispose(vdc_cpu_delta *d)
{
    if (!d)
        return;
    g_clear_pointer(&d->cpu_busy_s, g_free);
    g_clear_pointer(&d->srv, g_free);
    d->n_cpus = d->n_srv = 0;
}

/* b - a for one /proc/stat line, every column; -1 when one runs backwards */
static int
times_delta(const vdc_cpu_times *a, const vdc_cpu_times *b, vdc_cpu_times *d)
{
    size_t i;

    for (i = 0; i < VDC_CPU_NFIELDS; i++) {
        if (b->t[i] < a->t[i])
            return -1;
        d->t[i] = b->t[i] - a->t[i];
    }
    d->cpu = a->cpu;
    return 0;
}

static int
same_cpus(const vdc_proc_stat *a, const vdc_proc_stat *b)
{
    size_t i;

    if (a->n_cpus != b->n_cpus)
        return 0;
    for (i = 0; i < a->n_cpus; i++)
        if (a->cpus[i].cpu != b->cpus[i].cpu)
            return 0;
    return 1;
}

int
vdc_cpu_delta_compute(const vdc_cpu_snapshot *a, const vdc_cpu_snapshot *b, long ticks_per_s,
                      vdc_cpu_delta *out)
{
    vdc_cpu_times t;
    double hz = (double)ticks_per_s;
    size_t i;

    memset(out, 0, sizeof(*out));
    if (ticks_per_s <= 0) {
        vdc_error("CPU delta: clock ticks per second %ld: expected a positive number", ticks_per_s);
        return -1;
    }
    if (b->t_s < a->t_s) {
        vdc_error("CPU delta: the second snapshot (%.6f s) is older than the first (%.6f s)",
                  b->t_s, a->t_s);
        return -1;
    }
    if (a->n_srv > b->n_srv) {
        vdc_error("CPU delta: the second snapshot has fewer servers (%zu) than the first (%zu)",
                  b->n_srv, a->n_srv);
        return -1;
    }
    if (times_delta(&a->stat.total, &b->stat.total, &t) < 0) {
        vdc_error("CPU delta: dom0's /proc/stat total ran backwards between the snapshots");
        return -1;
    }
    out->interval_s = b->t_s - a->t_s;
    out->tick_s = 1.0 / hz;
    out->busy_s = (double)vdc_cpu_times_busy(&t) / hz;
    out->all_s = (double)vdc_cpu_times_all(&t) / hz;
    out->idle_s = (double)t.t[VDC_CPU_IDLE] / hz;
    out->iowait_s = (double)t.t[VDC_CPU_IOWAIT] / hz;
    out->steal_s = (double)t.t[VDC_CPU_STEAL] / hz;
    if (same_cpus(&a->stat, &b->stat)) {
        out->n_cpus = a->stat.n_cpus;
        out->cpu_busy_s = g_new0(double, out->n_cpus ? out->n_cpus : 1);
        for (i = 0; i < out->n_cpus; i++) {
            if (times_delta(&a->stat.cpus[i], &b->stat.cpus[i], &t) < 0) {
                vdc_error("CPU delta: cpu%d's /proc/stat line ran backwards", a->stat.cpus[i].cpu);
                return -1;
            }
            out->cpu_busy_s[i] = (double)vdc_cpu_times_busy(&t) / hz;
        }
    }
    out->n_srv = b->n_srv;
    out->srv = g_new0(vdc_server_delta, out->n_srv ? out->n_srv : 1);
    for (i = 0; i < out->n_srv; i++) {
        const vdc_server_sample *sa = i < a->n_srv ? &a->srv[i] : NULL, *sb = &b->srv[i];
        vdc_server_delta *d = &out->srv[i];

        /* a server added to the set after @a was taken */
        if (!sa || sa->state != VDC_SRV_OK) {
            d->state = VDC_DELTA_ABSENT;
            continue;
        }
        if (sb->state != VDC_SRV_OK) {
            d->state = VDC_DELTA_ENDED;
            continue;
        }
        if (sb->utime < sa->utime || sb->stime < sa->stime) {
            vdc_error("CPU delta: server %zu: its CPU time ran backwards with the same identity", i);
            return -1;
        }
        d->state = VDC_DELTA_OK;
        d->user_s = (double)(sb->utime - sa->utime) / hz;
        d->system_s = (double)(sb->stime - sa->stime) / hz;
    }
    return 0;
}

/* 1 when @servers holds a whole-process server of @pid */
static int
has_process(const GPtrArray *servers, int pid)
{
    size_t i;

    for (i = 0; i < servers->len; i++) {
        const vdc_server *s = g_ptr_array_index((GPtrArray *)servers, i);

        if (s->tid == 0 && s->pid == pid)
            return 1;
    }
    return 0;
}

double
vdc_cpu_delta_unattributed_s(const vdc_cpu_delta *d, const GPtrArray *servers, int *complete,
                             double *resolution_s)
{
    /* busy + steal: the servers' run time counts stolen ticks too (cpuacct.h) */
    double left = d->busy_s + d->steal_s;
    size_t i, n = 0;

    *complete = 1;
    for (i = 0; i < d->n_srv && i < servers->len; i++) {
        const vdc_server *s = g_ptr_array_index((GPtrArray *)servers, i);

        if (s->attribution != VDC_ATTR_EXACT)
            continue;
        if (s->tid != 0 && has_process(servers, s->pid))
            continue;
        if (d->srv[i].state != VDC_DELTA_OK) {
            *complete = 0;
            continue;
        }
        left -= d->srv[i].user_s + d->srv[i].system_s;
        n++;
    }
    /* six /proc/stat columns and two per server, each difference under
     * one tick off */
    if (resolution_s)
        *resolution_s = (6.0 + 2.0 * (double)n) * d->tick_s;
    return left;
}

/* cpuacct.h */
GPtrArray *
vdc_qemu_servers(int pid, const char *vcpu_role)
{
    GPtrArray *set = vdc_server_set_new();
    g_autofree char *dir = g_strdup_printf("/proc/%d/task", pid);
    vdc_server *qemu = vdc_server_for_task("qemu", pid, 0, VDC_ATTR_EXACT, NULL);
    struct dirent *de;
    DIR *d;

    if (!qemu)
        return set;
    g_ptr_array_add(set, qemu);
    if (!(d = opendir(dir)))
        return set;
    while ((de = readdir(d))) {
        vdc_task_stat st;
        int tid = atoi(de->d_name);

        if (tid > 0 && vdc_task_stat_read(pid, tid, &st) == 0 && !strncmp(st.comm, "CPU ", 4))
            g_ptr_array_add(set, vdc_server_new(vcpu_role, st.comm, pid, tid, st.starttime,
                                                VDC_ATTR_EXACT, NULL));
    }
    closedir(d);
    return set;
}
