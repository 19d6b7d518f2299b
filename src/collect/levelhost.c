/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A density level's host cost over its measured window (levelhost.h). */
#include "config.h"
#include "collect/levelhost.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "collect/hostwatch.h"
#include "common/util.h"
#include "host/cpuacct.h"
#include "host/workers.h"

/* ---- pure part ----------------------------------------------------------- */

static void
attribution(JsonObject *attr, const char *role, const char *how, const char *reason)
{
    JsonObject *at = json_object_new();

    json_object_set_string_member(at, "attribution", how);
    if (reason)
        json_object_set_string_member(at, "reason", reason);
    json_object_set_object_member(attr, role, at);
}

static void
mem_pair(JsonObject *o, const char *name, uint64_t a, uint64_t b)
{
    JsonArray *arr = json_array_new();

    json_array_add_int_element(arr, (gint64)a);
    json_array_add_int_element(arr, (gint64)b);
    json_object_set_array_member(o, name, arr);
}

/* MemTotal - MemAvailable: what dom0's memory holds that it cannot give
 * away without swapping (0 when MemAvailable is absent: not known) */
static uint64_t
mem_used(const vdc_meminfo *m)
{
    return m->mem_available && m->mem_available <= m->mem_total ? m->mem_total - m->mem_available
                                                                 : 0;
}

/* @win->missing names a server of @role's kind (a guest's QEMU, a VBD's
 * ring threads): the role's sum over the level is not known */
static int
role_missing(const vdc_level_window *win, const char *role)
{
    return win->missing && ((g_str_has_prefix(role, "qemu") && strstr(win->missing, "qemu")) ||
                            (!strcmp(role, "blkback") && strstr(win->missing, "blkback")));
}

JsonObject *
vdc_level_host_json(const vdc_level_server_cpu *srv, size_t n, const vdc_level_window *win)
{
    JsonObject *o = json_object_new(), *cpu = json_object_new(), *attr = json_object_new();
    JsonObject *per_gib, *per_kio;
    JsonArray *t = json_array_new();
    GHashTable *sum = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
    GHashTable *uncounted = g_hash_table_new(g_str_hash, g_str_equal);
    GList *roles, *l;
    double servers_s = 0, interval_s = win->t_s[1] - win->t_s[0];
    int complete = !win->missing;
    size_t i, counted = 0;

    json_object_set_int_member(o, "guests", win->guests);
    json_object_set_double_member(o, "interval_s", interval_s > 0 ? interval_s : 0);
    json_array_add_double_element(t, win->t_s[0]);
    json_array_add_double_element(t, win->t_s[1]);
    json_object_set_array_member(o, "monotonic_s", t);

    /* each role summed over its servers (every guest's) */
    for (i = 0; i < n; i++) {
        double *acc = g_hash_table_lookup(sum, srv[i].role);

        if (!acc) {
            acc = g_new0(double, 1);
            g_hash_table_insert(sum, (gpointer)srv[i].role, acc);
        }
        if (!srv[i].counted) {
            g_hash_table_add(uncounted, (gpointer)srv[i].role);
            complete = 0;
            continue;
        }
        *acc += srv[i].cpu_s;
        counted++;
        if (!srv[i].in_process)
            servers_s += srv[i].cpu_s;
    }
    roles = g_hash_table_get_keys(sum);
    roles = g_list_sort(roles, (GCompareFunc)strcmp);
    for (l = roles; l; l = l->next) {
        const char *role = l->data;

        if (g_hash_table_contains(uncounted, role) || role_missing(win, role)) {
            json_object_set_null_member(cpu, role);
            attribution(attr, role, "ended",
                        role_missing(win, role)
                            ? win->missing
                            : "a server of this role was not alive at the release or was not read "
                              "again while it lived: unknown, not zero");
        } else {
            json_object_set_double_member(cpu, role, *(double *)g_hash_table_lookup(sum, role));
            attribution(attr, role, "exact", NULL);
        }
    }
    g_list_free(roles);
    /* a role expected but with no server at all: named by @win->missing */
    for (i = 0; i < 2; i++) {
        const char *role = i ? "qemu" : "blkback";

        if (!g_hash_table_contains(sum, role) && role_missing(win, role)) {
            json_object_set_null_member(cpu, role);
            attribution(attr, role, "ended", win->missing);
        }
    }
    if (json_object_has_member(cpu, "qemu") && json_object_has_member(cpu, "qemu_vcpu") &&
        !json_object_get_null_member(cpu, "qemu") && !json_object_get_null_member(cpu, "qemu_vcpu")) {
        double v = json_object_get_double_member(cpu, "qemu") -
                   json_object_get_double_member(cpu, "qemu_vcpu");

        /* the process and its threads, read one after the other: two
         * columns each, under one tick off per server */
        if (v >= -2.0 * (double)counted * win->tick_s) {
            json_object_set_double_member(cpu, "qemu_io", v > 0 ? v : 0);
            attribution(attr, "qemu_io", "exact", "QEMU's processes minus their vCPU threads");
        }
    }
    if (win->loop_reason) {
        json_object_set_null_member(cpu, "loop");
        attribution(attr, "loop", "shared", win->loop_reason);
    }
    if (vdc_has(win->busy_s) && vdc_has(win->steal_s)) {
        json_object_set_double_member(cpu, "dom0_busy", win->busy_s);
        json_object_set_double_member(cpu, "dom0_steal", win->steal_s);
        if (complete) {
            double other = win->busy_s + win->steal_s - servers_s;
            double resolution = (6.0 + 2.0 * (double)counted) * win->tick_s;

            if (other >= -resolution) {
                json_object_set_double_member(cpu, "dom0_other", other > 0 ? other : 0);
                attribution(attr, "dom0_other", "exact",
                            "dom0 busy + steal minus the level's servers (the loop devices' "
                            "kworkers, the controller, xenstored among it)");
            } else {
                g_autofree char *why = g_strdup_printf(
                    "dom0 busy + steal minus the level's servers: %.3f s, below 0 by more than "
                    "the counters' resolution (%.3f s): not a measurement", other, resolution);

                json_object_set_null_member(cpu, "dom0_other");
                attribution(attr, "dom0_other", "inconsistent", why);
            }
        } else {
            json_object_set_null_member(cpu, "dom0_other");
        }
    }
    json_object_set_object_member(o, "cpu_s", cpu);
    json_object_set_object_member(o, "cpu_attribution", attr);
    if (vdc_has(win->bytes) && win->bytes >= 0)
        json_object_set_int_member(o, "bytes", (gint64)win->bytes);
    if (vdc_has(win->ios) && win->ios >= 0)
        json_object_set_int_member(o, "ios", (gint64)win->ios);
    if ((json_object_has_member(o, "bytes") || json_object_has_member(o, "ios")) && win->io_source)
        json_object_set_string_member(o, "source", win->io_source);
    per_gib = json_object_new();
    per_kio = json_object_new();
    vdc_host_per_unit(cpu, win->bytes, win->ios, per_gib, per_kio);
    json_object_set_object_member(o, "cpu_s_per_gib", per_gib);
    json_object_set_object_member(o, "cpu_s_per_1000_ios", per_kio);
    if (win->have_mem) {
        if (mem_used(&win->mem[0]) && mem_used(&win->mem[1]))
            mem_pair(o, "dom0_memory_bytes", mem_used(&win->mem[0]), mem_used(&win->mem[1]));
        mem_pair(o, "dom0_cached_bytes", win->mem[0].cached, win->mem[1].cached);
        mem_pair(o, "dom0_dirty_bytes", win->mem[0].dirty, win->mem[1].dirty);
    }
    g_hash_table_destroy(sum);
    g_hash_table_destroy(uncounted);
    return o;
}

/* ---- the watch ------------------------------------------------------------- */

/* one server's readings */
typedef struct {
    unsigned guest;
    int begin_ok, last_ok;
    int later;              /* read again after the release */
    uint64_t begin, last;   /* utime + stime, clock ticks */
} reading;

/* one guest's backend counters */
typedef struct {
    int have_begin, have_last, ended;
    vdc_hv_disk_io begin, last;
} guest_io;

struct vdc_levelhost {
    const vdc_hv_ops *hvops;
    vdc_hv *hv;
    char **domains;
    size_t n;
    char *vdev;
    int blkback;
    char *loop_reason;
    GPtrArray *servers;         /* vdc_server* */
    GArray *readings;           /* reading, parallel to servers */
    guest_io *io;
    GString *missing;
    vdc_cpu_snapshot first;
    int begun;
    vdc_meminfo mem[2];
    int have_mem[2];
};

vdc_levelhost *
vdc_levelhost_new(const vdc_hv_ops *hvops, vdc_hv *hv, const char *const *domains, size_t n,
                  const char *vdev, int blkback, const char *loop_reason)
{
    vdc_levelhost *lh = g_new0(vdc_levelhost, 1);
    size_t k;

    lh->hvops = hvops;
    lh->hv = hv;
    lh->n = n;
    lh->domains = g_new0(char *, n + 1);
    for (k = 0; k < n; k++)
        lh->domains[k] = g_strdup(domains[k]);
    lh->vdev = g_strdup(vdev);
    lh->blkback = blkback;
    lh->loop_reason = g_strdup(loop_reason);
    lh->servers = vdc_server_set_new();
    lh->readings = g_array_new(FALSE, TRUE, sizeof(reading));
    lh->io = g_new0(guest_io, n + 1);
    lh->missing = g_string_new(NULL);
    return lh;
}

void
vdc_levelhost_free(vdc_levelhost *lh)
{
    if (!lh)
        return;
    g_strfreev(lh->domains);
    g_free(lh->vdev);
    g_free(lh->loop_reason);
    g_ptr_array_unref(lh->servers);
    g_array_free(lh->readings, TRUE);
    g_free(lh->io);
    g_string_free(lh->missing, TRUE);
    vdc_cpu_snapshot_dispose(&lh->first);
    g_free(lh);
}

static void
add_server(vdc_levelhost *lh, vdc_server *s, unsigned guest)
{
    reading r = { .guest = guest };

    if (!s)
        return;
    g_ptr_array_add(lh->servers, s);
    g_array_append_val(lh->readings, r);
}

static void
missing(vdc_levelhost *lh, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void
missing(vdc_levelhost *lh, const char *fmt, ...)
{
    va_list ap;

    if (lh->missing->len)
        g_string_append(lh->missing, "; ");
    va_start(ap, fmt);
    g_string_append_vprintf(lh->missing, fmt, ap);
    va_end(ap);
}

/* guest @k's QEMU (pid @pid) and its vCPU threads (vdc_qemu_servers) */
static void
find_qemu(vdc_levelhost *lh, unsigned k, int pid)
{
    g_autoptr(GPtrArray) set = vdc_qemu_servers(pid, "qemu_vcpu");
    gsize n = 0, i;
    vdc_server **v = (vdc_server **)g_ptr_array_steal(set, &n);

    for (i = 0; i < n; i++)
        add_server(lh, v[i], k);
    g_free(v);
}

/* the guests' backend counters now, where the hypervisor gives them
 * (@begin: as the window's first) */
static void
read_io(vdc_levelhost *lh, int begin, long *domids, int *pids)
{
    const char *vdevs[1] = { lh->vdev ? lh->vdev : "" };
    size_t k;

    if (!lh->hvops->domain_stats)
        return;
    for (k = 0; k < lh->n; k++) {
        vdc_hv_domain_stats ds;
        vdc_hv_disk_io io;

        vdc_hv_domain_stats_init(&ds, &io, 1);
        if (lh->io[k].ended || (!begin && !lh->io[k].have_begin) ||
            lh->hvops->domain_stats(lh->hv, lh->domains[k], vdevs, 1, &ds, &io) < 0)
            continue;
        if (domids)
            domids[k] = ds.domid;
        if (pids)
            pids[k] = ds.vmm_pid;
        if (io.rd_bytes < 0 || io.wr_bytes < 0 || io.rd_req < 0 || io.wr_req < 0)
            continue;
        if (begin) {
            lh->io[k].begin = io;
            lh->io[k].have_begin = 1;
        }
        lh->io[k].last = io;
        lh->io[k].have_last = 1;
    }
}

/* every server read now: its last reading while it lived */
static int
read_servers(vdc_levelhost *lh, vdc_cpu_snapshot *snap)
{
    size_t i;

    if (vdc_cpu_snapshot_take(lh->servers, snap) < 0)
        return -1;
    for (i = 0; i < lh->servers->len && i < snap->n_srv; i++) {
        reading *r = &g_array_index(lh->readings, reading, i);

        if (snap->srv[i].state != VDC_SRV_OK)
            continue;
        r->last = snap->srv[i].utime + snap->srv[i].stime;
        r->last_ok = 1;
        r->later = lh->begun;
    }
    return 0;
}

int
vdc_levelhost_begin(vdc_levelhost *lh)
{
    g_autofree long *domids = g_new(long, lh->n + 1);
    g_autofree int *pids = g_new0(int, lh->n + 1);
    GArray *kthreads = NULL;
    size_t k, i;

    for (k = 0; k < lh->n; k++)
        domids[k] = -1;
    read_io(lh, 1, domids, pids);
    if (lh->blkback)
        kthreads = vdc_kernel_threads_scan();
    for (k = 0; k < lh->n; k++) {
        if (!lh->blkback) {
            if (pids[k] > 0)
                find_qemu(lh, (unsigned)k, pids[k]);
            else if (lh->hvops->domain_stats)
                missing(lh, "guest %zu: its qemu was not found", k);
            continue;
        }
        if (kthreads && domids[k] >= 0) {
            GPtrArray *set = vdc_server_set_new();

            vdc_blkback_threads_find((const vdc_task_stat *)(void *)kthreads->data, kthreads->len,
                                     (unsigned)domids[k], lh->vdev, NULL, 0, set);
            while (set->len) {
                vdc_server *s = g_ptr_array_steal_index(set, 0);

                if (s->attribution == VDC_ATTR_EXACT)
                    add_server(lh, s, (unsigned)k);
                else
                    vdc_server_free(s);
            }
            if (!lh->readings->len || g_array_index(lh->readings, reading,
                                                    lh->readings->len - 1).guest != k)
                missing(lh, "guest %zu: no blkback ring thread of %s was found at the release", k,
                        lh->vdev);
            g_ptr_array_unref(set);
        } else {
            missing(lh, "guest %zu: its blkback ring threads were not looked for (%s)", k,
                    kthreads ? "its domid was not known" : "the kernel threads were not read");
        }
    }
    if (kthreads)
        g_array_free(kthreads, TRUE);
    if (read_servers(lh, &lh->first) < 0)
        return -1;
    for (i = 0; i < lh->servers->len && i < lh->first.n_srv; i++) {
        reading *r = &g_array_index(lh->readings, reading, i);

        r->begin_ok = r->last_ok;
        r->begin = r->last;
    }
    lh->have_mem[0] = vdc_meminfo_read(&lh->mem[0]) == 0;
    lh->begun = 1;
    return 0;
}

void
vdc_levelhost_look(vdc_levelhost *lh)
{
    vdc_cpu_snapshot snap;

    if (!lh || !lh->begun)
        return;
    memset(&snap, 0, sizeof(snap));
    read_io(lh, 0, NULL, NULL);
    (void)read_servers(lh, &snap);
    vdc_cpu_snapshot_dispose(&snap);
}

void
vdc_levelhost_ended(vdc_levelhost *lh, size_t k)
{
    if (lh && k < lh->n)
        lh->io[k].ended = 1;
}

JsonObject *
vdc_levelhost_end(vdc_levelhost *lh)
{
    long ticks = sysconf(_SC_CLK_TCK);
    vdc_cpu_snapshot end;
    vdc_cpu_delta d;
    vdc_level_window win = { 0 };
    g_autofree vdc_level_server_cpu *srv = NULL;
    JsonObject *o = NULL;
    double bytes = 0, ios = 0;
    size_t i, k;

    if (!lh || !lh->begun)
        return NULL;
    if (ticks <= 0)
        ticks = 100;
    memset(&end, 0, sizeof(end));
    memset(&d, 0, sizeof(d));
    read_io(lh, 0, NULL, NULL);
    if (read_servers(lh, &end) < 0 || vdc_cpu_delta_compute(&lh->first, &end, ticks, &d) < 0)
        goto out;
    srv = g_new0(vdc_level_server_cpu, lh->servers->len + 1);
    for (i = 0; i < lh->servers->len; i++) {
        const vdc_server *s = g_ptr_array_index(lh->servers, i);
        const reading *r = &g_array_index(lh->readings, reading, i);

        srv[i].role = s->role;
        srv[i].guest = r->guest;
        srv[i].counted = r->begin_ok && r->later && r->last >= r->begin;
        srv[i].cpu_s = srv[i].counted ? (double)(r->last - r->begin) / (double)ticks : 0;
        srv[i].in_process = s->tid != 0 && !strcmp(s->role, "qemu_vcpu");
    }
    win.guests = (unsigned)lh->n;
    win.t_s[0] = lh->first.t_s;
    win.t_s[1] = end.t_s;
    win.busy_s = d.busy_s;
    win.steal_s = d.steal_s;
    win.tick_s = 1.0 / (double)ticks;
    lh->have_mem[1] = vdc_meminfo_read(&lh->mem[1]) == 0;
    win.have_mem = lh->have_mem[0] && lh->have_mem[1];
    win.mem[0] = lh->mem[0];
    win.mem[1] = lh->mem[1];
    for (k = 0; k < lh->n; k++) {
        const guest_io *g = &lh->io[k];

        if (!g->have_begin || !g->have_last) {
            bytes = ios = NAN;
            break;
        }
        bytes += (double)((g->last.rd_bytes - g->begin.rd_bytes) + (g->last.wr_bytes - g->begin.wr_bytes));
        ios += (double)((g->last.rd_req - g->begin.rd_req) + (g->last.wr_req - g->begin.wr_req));
    }
    win.bytes = bytes;
    win.ios = ios;
    win.io_source = !strcmp(lh->hvops->name, "libvirt") ? "virDomainBlockStats"
                    : !strcmp(lh->hvops->name, "libxl") ? "blkback statistics"
                    : lh->hvops->name;
    win.loop_reason = lh->loop_reason;
    win.missing = lh->missing->len ? lh->missing->str : NULL;
    o = vdc_level_host_json(srv, lh->servers->len, &win);
out:
    vdc_cpu_snapshot_dispose(&end);
    vdc_cpu_delta_dispose(&d);
    return o;
}
