/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Kernel threads that serve a disk, found by comm (workers.h). */
#include "config.h"
#include "host/workers.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/util.h"

static int
all_digits(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

vdc_comm_match
vdc_blkback_comm_match(const char *comm, unsigned domid, const char *vdev, int *ring)
{
    const char *dev = vdev ? strstr(vdev, "/dev/") : NULL;
    g_autofree char *base = NULL, *mq = NULL, *old = NULL;
    size_t len = comm ? strlen(comm) : 0;
    int shared;

    if (ring)
        *ring = -1;
    if (!comm || !vdev)
        return VDC_COMM_NO;
    dev = dev ? dev + 5 : vdev;
    if (!*dev)
        return VDC_COMM_NO;
    /* Linux >= 4.6: "DOMID.DEV" cut to 15 characters, then "-RING" */
    base = g_strdup_printf("%u.%s", domid, dev);
    if (strlen(base) > VDC_COMM_MAX)
        base[VDC_COMM_MAX] = '\0';
    /* a 15-character "DOMID.DEV" is also what a longer one is cut to */
    shared = strlen(base) == VDC_COMM_MAX;
    mq = g_strconcat(base, "-", NULL);
    if (g_str_has_prefix(comm, mq)) {
        const char *r = comm + strlen(mq);

        if (*r && !all_digits(r))
            return VDC_COMM_NO;
        /* the ring index only when the name was not cut (it may have lost
         * digits) */
        if (ring && *r && len != VDC_COMM_MAX && len != VDC_COMM_FULL_MAX)
            *ring = atoi(r);
        return shared ? VDC_COMM_MAYBE : VDC_COMM_YES;
    }
    /* cut to 15 before the '-' */
    if (len == VDC_COMM_MAX && g_str_has_prefix(mq, comm))
        return VDC_COMM_MAYBE;
    /* older kernels: "blkback.DOMID.DEV", no delimiter after DEV */
    old = g_strdup_printf("blkback.%u.%s", domid, dev);
    if (len < VDC_COMM_MAX)
        return strcmp(comm, old) ? VDC_COMM_NO : VDC_COMM_YES;
    return len == VDC_COMM_MAX && g_str_has_prefix(old, comm) ? VDC_COMM_MAYBE : VDC_COMM_NO;
}

int
vdc_blkback_comm_owner(const char *comm, const vdc_vbd_name *vbds, size_t n)
{
    int owner = -1;
    size_t i;

    for (i = 0; i < n; i++) {
        if (vdc_blkback_comm_match(comm, vbds[i].domid, vbds[i].vdev, NULL) == VDC_COMM_NO)
            continue;
        if (owner >= 0)
            return -2;
        owner = (int)i;
    }
    return owner;
}

const char *
vdc_kworker_workqueue(const char *comm, int *running)
{
    const char *p;

    if (!comm || !g_str_has_prefix(comm, "kworker/"))
        return NULL;
    p = comm + 8;
    /* pool: "u" + pool id for unbound pools, else the CPU; ":" worker id;
     * "H" for a high-priority pool */
    if (*p == 'u')
        p++;
    if (!isdigit((unsigned char)*p))
        return NULL;      /* "kworker/R-name": a rescuer */
    while (isdigit((unsigned char)*p))
        p++;
    if (*p++ != ':' || !isdigit((unsigned char)*p))
        return NULL;
    while (isdigit((unsigned char)*p))
        p++;
    if (*p == 'H')
        p++;
    if ((*p != '+' && *p != '-') || !p[1])
        return NULL;
    if (running)
        *running = *p == '+';
    return p + 1;
}

vdc_attribution
vdc_loop_workers_find(const vdc_task_stat *tasks, size_t n, unsigned loop_nr,
                      GPtrArray *servers, char **reason)
{
    g_autofree char *wq = g_strdup_printf("loop%u", loop_nr);
    g_autofree char *rescuer = g_strdup_printf("kworker/R-%s", wq);
    int dedicated = 0;
    size_t i;

    *reason = NULL;
    for (i = 0; i < n; i++) {
        const vdc_task_stat *t = &tasks[i];

        if (!(t->flags & VDC_PF_KTHREAD))
            continue;
        if (!strcmp(t->comm, wq) && !(t->flags & VDC_PF_WQ_WORKER)) {
            /* Linux < 5.13: the loop device's own kthread */
            g_ptr_array_add(servers, vdc_server_new("loop-worker", t->comm, t->pid, 0,
                                                    t->starttime, VDC_ATTR_EXACT, NULL));
            dedicated = 1;
        }
    }
    if (dedicated)
        return VDC_ATTR_EXACT;
    *reason = g_strdup_printf("%s's work runs on the workqueue %s, executed by the kernel's "
                              "shared unbound kworkers (Linux >= 5.13), whose CPU time includes "
                              "other workqueues' work", wq, wq);
    for (i = 0; i < n; i++) {
        const vdc_task_stat *t = &tasks[i];
        const char *last;

        if (!(t->flags & VDC_PF_KTHREAD) || !(t->flags & VDC_PF_WQ_WORKER))
            continue;
        if (!strcmp(t->comm, wq) || !strcmp(t->comm, rescuer)) {
            /* the workqueue's rescuer: only this workqueue's work, and only
             * what the pool could not start for lack of memory */
            g_ptr_array_add(servers, vdc_server_new("loop-rescuer", t->comm, t->pid, 0,
                                                    t->starttime, VDC_ATTR_EXACT, NULL));
            continue;
        }
        last = vdc_kworker_workqueue(t->comm, NULL);
        if (last && !strcmp(last, wq))
            g_ptr_array_add(servers, vdc_server_new("loop-worker", t->comm, t->pid, 0,
                                                    t->starttime, VDC_ATTR_SHARED, *reason));
    }
    return VDC_ATTR_SHARED;
}

size_t
vdc_blkback_threads_find(const vdc_task_stat *tasks, size_t n, unsigned domid, const char *vdev,
                         const vdc_vbd_name *vbds, size_t n_vbds, GPtrArray *servers)
{
    size_t i, exact = 0;

    for (i = 0; i < n; i++) {
        const vdc_task_stat *t = &tasks[i];
        vdc_comm_match m;
        int mine;

        if (!(t->flags & VDC_PF_KTHREAD) || (t->flags & VDC_PF_WQ_WORKER))
            continue;
        m = vdc_blkback_comm_match(t->comm, domid, vdev, NULL);
        if (m == VDC_COMM_NO)
            continue;
        /* 1 mine, 0 another VBD's, -1 cannot tell */
        mine = m == VDC_COMM_YES ? 1 : -1;
        if (vbds && n_vbds) {
            int owner = vdc_blkback_comm_owner(t->comm, vbds, n_vbds);

            if (owner >= 0)
                mine = vbds[owner].domid == domid && !strcmp(vbds[owner].vdev, vdev);
            else if (owner == -2)
                mine = -1;
            /* owner -1: this VBD is missing from the list: the name alone decides */
        }
        if (mine == 0)
            continue;
        if (mine == 1) {
            g_ptr_array_add(servers, vdc_server_new("blkback", t->comm, t->pid, 0, t->starttime,
                                                    VDC_ATTR_EXACT, NULL));
            exact++;
        } else {
            g_autofree char *why = g_strdup_printf(
                "the kernel cut the VBD's part of the thread name (\"DOMID.DEV\") to %d "
                "characters: '%s' may be another VBD's ring thread than domain %u's %s",
                VDC_COMM_MAX, t->comm, domid, vdev);
            g_ptr_array_add(servers, vdc_server_new("blkback", t->comm, t->pid, 0, t->starttime,
                                                    VDC_ATTR_AMBIGUOUS, why));
        }
    }
    return exact;
}

GArray *
vdc_kernel_threads_scan(void)
{
    GArray *out;
    DIR *d = opendir("/proc");
    struct dirent *e;

    if (!d) {
        vdc_error("/proc: %s", g_strerror(errno));
        return NULL;
    }
    out = g_array_new(FALSE, TRUE, sizeof(vdc_task_stat));
    while ((e = readdir(d))) {
        vdc_task_stat st;
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        int r;

        if (*end || pid <= 0)
            continue;
        r = vdc_task_stat_read((int)pid, 0, &st);
        if (r == 1)
            continue;   /* exited meanwhile */
        if (r < 0) {
            g_array_free(out, TRUE);
            closedir(d);
            return NULL;
        }
        if (st.flags & VDC_PF_KTHREAD)
            g_array_append_val(out, st);
    }
    closedir(d);
    return out;
}
