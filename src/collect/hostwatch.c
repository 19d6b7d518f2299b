/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host cost per test: snapshot sets at the guest's test boundaries, sliced
 * per target and test (hostwatch.h, doc/host-cost.md). */
#include "config.h"
#include "collect/hostwatch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "common/util.h"
#include "guest-agent/test_ids.h"
#include "host/blockstat.h"
#include "host/residency.h"
#include "host/workers.h"

/* ---- pure parts ------------------------------------------------------------ */

#define TEST_NAME(id, name, ...) name,
static const char *const test_names[] = { VDC_BONNIE_TESTS(TEST_NAME) };
#undef TEST_NAME

const char *
vdc_host_test_name(unsigned idx)
{
    return idx < G_N_ELEMENTS(test_names) ? test_names[idx] : NULL;
}

char *
vdc_host_event_text(const struct vdc_ctl_event *ev, const char *target_name)
{
    g_autofree char *t = NULL;
    const char *test;

    if (!ev)
        return g_strdup("none");
    t = target_name ? g_strdup(target_name) : g_strdup_printf("#%u", (unsigned)ev->target);
    test = vdc_host_test_name(ev->test);
    switch (ev->kind) {
    case VDC_CTL_EV_TEST_BEGIN:
    case VDC_CTL_EV_TEST_END:
        if (test)
            return g_strdup_printf("test %s of target %s %s", test, t,
                                   ev->kind == VDC_CTL_EV_TEST_BEGIN ? "began" : "ended");
        return g_strdup_printf("test #%u of target %s %s", (unsigned)ev->test, t,
                               ev->kind == VDC_CTL_EV_TEST_BEGIN ? "began" : "ended");
    case VDC_CTL_EV_TARGET_BEGIN:
        return g_strdup_printf("target %s began", t);
    case VDC_CTL_EV_TARGET_END:
        return g_strdup_printf("target %s ended", t);
    default:
        return g_strdup_printf("kind %u on target %s", (unsigned)ev->kind, t);
    }
}

void
vdc_host_per_unit(JsonObject *cpu_s, double bytes, double ios, JsonObject *per_gib,
                  JsonObject *per_kio)
{
    GList *members = json_object_get_members(cpu_s), *l;

    for (l = members; l; l = l->next) {
        JsonNode *n = json_object_get_member(cpu_s, l->data);
        double v;

        if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_DOUBLE)
            continue;
        v = json_node_get_double(n);
        if (vdc_has(bytes) && bytes > 0)
            json_object_set_double_member(per_gib, l->data, v / (bytes / 1073741824.0));
        if (vdc_has(ios) && ios > 0 && per_kio)
            json_object_set_double_member(per_kio, l->data, v / (ios / 1000.0));
    }
    g_list_free(members);
}

void
vdc_host_bytes_from_agent(JsonObject *h, double bytes)
{
    JsonObject *per_gib;

    if (json_object_has_member(h, "bytes") || !vdc_has(bytes) || bytes <= 0 ||
        !json_object_has_member(h, "cpu_s"))
        return;
    json_object_set_int_member(h, "bytes", (gint64)bytes);
    json_object_set_string_member(h, "source", VDC_HOST_AGENT_BYTES);
    per_gib = json_object_new();
    vdc_host_per_unit(json_object_get_object_member(h, "cpu_s"), bytes, NAN, per_gib, NULL);
    json_object_set_object_member(h, "cpu_s_per_gib", per_gib);
}

int
vdc_host_serves(const vdc_host_owner *o, size_t k)
{
    return o->target == -1 || (o->target >= 0 && (size_t)o->target == k);
}

/* Roles in @roles that have no figure in @cpu yet: null there, attribution
 * "ended" with @reason in @attr (the interval's CPU is not known). */
static void
unknown_roles(GHashTable *roles, JsonObject *cpu, JsonObject *attr, const char *reason)
{
    GHashTableIter it;
    gpointer key, val;

    g_hash_table_iter_init(&it, roles);
    while (g_hash_table_iter_next(&it, &key, &val))
        if (!json_object_has_member(cpu, key)) {
            JsonObject *at = json_object_new();

            json_object_set_null_member(cpu, key);
            json_object_set_string_member(at, "attribution", "ended");
            json_object_set_string_member(at, "reason", reason);
            json_object_set_object_member(attr, key, at);
        }
}

/* JSON role name of a server role ("loop-worker" -> "loop_worker") */
static char *
role_key(const char *role)
{
    char *k = g_strdup(role), *p;

    for (p = k; *p; p++)
        if (*p == '-')
            *p = '_';
    return k;
}

static void
pair_member(JsonObject *o, const char *name, double a, double b)
{
    JsonArray *arr;

    if (!vdc_has(a) || !vdc_has(b) || a < 0 || b < 0)
        return;
    arr = json_array_new();
    json_array_add_int_element(arr, (gint64)a);
    json_array_add_int_element(arr, (gint64)b);
    json_object_set_array_member(o, name, arr);
}

/* A role whose CPU seconds are the difference of two readings (@what),
 * into @cpu and @attr: @v as it is when >= 0; 0 when it is below 0 by no
 * more than @resolution (the counters' rounding: vdc_cpu_delta_unattributed_s);
 * further below, null with attribution "inconsistent" and the numbers in
 * the reason: not a measurement, never a negative CPU time. */
static void
difference_member(JsonObject *cpu, JsonObject *attr, const char *role, double v, double resolution,
                  const char *what)
{
    JsonObject *at = json_object_new();
    g_autofree char *reason = NULL;

    if (v >= -resolution) {
        json_object_set_double_member(cpu, role, v > 0 ? v : 0);
        json_object_set_string_member(at, "attribution", "exact");
        reason = v >= 0 ? g_strdup(what)
                        : g_strdup_printf("%s: %.3f s, within the counters' resolution (%.3f s): 0", what,
                                          v, resolution);
    } else {
        json_object_set_null_member(cpu, role);
        json_object_set_string_member(at, "attribution", "inconsistent");
        reason = g_strdup_printf("%s: %.3f s, below 0 by more than the counters' resolution (%.3f s): "
                                 "the counters disagree, not a measurement", what, v, resolution);
    }
    json_object_set_string_member(at, "reason", reason);
    json_object_set_object_member(attr, role, at);
}

JsonObject *
vdc_host_slice(const GPtrArray *servers, const vdc_host_owner *owners, size_t k,
               const vdc_host_snap *a, const vdc_host_snap *b, const vdc_host_event *begin,
               const vdc_host_event *end, const char *loop_reason, const char *io_source,
               double poll_s, long ticks_per_s)
{
    vdc_cpu_delta d;
    JsonObject *o, *cpu, *attr, *per_gib, *per_kio;
    GHashTable *sum, *ended, *late;
    GHashTableIter it;
    gpointer key, val;
    double other, resolution, bytes = NAN, ios = NAN;
    int complete = 1, loop_exact = 0;
    size_t i;

    memset(&d, 0, sizeof(d));
    if (vdc_cpu_delta_compute(&a->cpu, &b->cpu, ticks_per_s, &d) < 0) {
        vdc_cpu_delta_dispose(&d);
        return NULL;
    }
    o = json_object_new();
    cpu = json_object_new();
    attr = json_object_new();
    sum = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    ended = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    late = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

    json_object_set_double_member(o, "interval_s", d.interval_s);
    {
        JsonArray *t = json_array_new();

        json_array_add_double_element(t, a->cpu.t_s);
        json_array_add_double_element(t, b->cpu.t_s);
        json_object_set_array_member(o, "monotonic_s", t);
    }
    json_object_set_double_member(o, "guest_elapsed_s",
                                  (double)(end->ev.guest_ns - begin->ev.guest_ns) / 1e9);
    json_object_set_double_member(o, "boundary_error_s", poll_s);
    json_object_set_boolean_member(o, "sliced", !end->gap_before && begin->snap != end->snap);

    /* the exact servers of this target (or of all), summed per role */
    for (i = 0; i < servers->len; i++) {
        const vdc_server *s = g_ptr_array_index(servers, i);
        char *rk;
        double *acc;

        if (!vdc_host_serves(&owners[i], k))
            continue;
        if (s->attribution != VDC_ATTR_EXACT)
            continue;
        rk = role_key(s->role);
        if (!strcmp(rk, "loop_worker"))
            loop_exact = 1;
        if (d.srv[i].state != VDC_DELTA_OK) {
            /* absent at the begin: found (or started) inside the interval */
            g_hash_table_replace(d.srv[i].state == VDC_DELTA_ABSENT ? late : ended, rk,
                                 GINT_TO_POINTER(1));
            continue;
        }
        acc = g_hash_table_lookup(sum, rk);
        if (!acc) {
            acc = g_new0(double, 1);
            g_hash_table_insert(sum, rk, acc);
        } else {
            g_free(rk);
        }
        *acc += d.srv[i].user_s + d.srv[i].system_s;
    }
    g_hash_table_iter_init(&it, sum);
    while (g_hash_table_iter_next(&it, &key, &val)) {
        JsonObject *at = json_object_new();

        if (g_hash_table_contains(ended, key)) {
            json_object_set_null_member(cpu, key);
            json_object_set_string_member(at, "attribution", "ended");
            json_object_set_string_member(at, "reason", "a server of this role exited or its "
                                          "pid was reused inside the interval: unknown, not zero");
        } else if (g_hash_table_contains(late, key)) {
            json_object_set_null_member(cpu, key);
            json_object_set_string_member(at, "attribution", "ended");
            json_object_set_string_member(at, "reason", "a server of this role was not alive or "
                                          "not yet found when the interval began: unknown, not "
                                          "zero");
        } else {
            json_object_set_double_member(cpu, key, *(double *)val);
            json_object_set_string_member(at, "attribution", "exact");
        }
        json_object_set_object_member(attr, key, at);
    }
    unknown_roles(ended, cpu, attr, "every server of this role exited inside the interval: "
                  "unknown, not zero");
    unknown_roles(late, cpu, attr, "no server of this role was alive or found when the "
                  "interval began: unknown, not zero");
    /* QEMU's own work beside its vCPUs: the process minus its vCPU threads */
    if (json_object_has_member(cpu, "qemu") && json_object_has_member(cpu, "qemu_vcpu") &&
        !json_object_get_null_member(cpu, "qemu") && !json_object_get_null_member(cpu, "qemu_vcpu")) {
        /* the process and its threads, two columns each, under one tick off */
        difference_member(cpu, attr, "qemu_io", json_object_get_double_member(cpu, "qemu") -
                          json_object_get_double_member(cpu, "qemu_vcpu"), 4.0 * d.tick_s,
                          "QEMU's process minus its vCPU threads (I/O threads, the main loop, the "
                          "block layer)");
    }
    if (loop_reason && !loop_exact) {
        JsonObject *at = json_object_new();

        json_object_set_string_member(at, "attribution", "shared");
        json_object_set_string_member(at, "reason", loop_reason);
        json_object_set_object_member(attr, "loop_worker", at);
    }
    json_object_set_double_member(cpu, "dom0_busy", d.busy_s);
    json_object_set_double_member(cpu, "dom0_steal", d.steal_s);
    other = vdc_cpu_delta_unattributed_s(&d, servers, &complete, &resolution);
    if (complete)
        difference_member(cpu, attr, "dom0_other", other, resolution,
                          "dom0 busy + steal minus the exact servers");
    else
        json_object_set_null_member(cpu, "dom0_other");
    if (vdc_has(a->domu_cpu_s) && vdc_has(b->domu_cpu_s) && b->domu_cpu_s >= a->domu_cpu_s) {
        json_object_set_double_member(cpu, "domu", b->domu_cpu_s - a->domu_cpu_s);
    } else if (vdc_has(a->domu_cpu_s) && vdc_has(b->domu_cpu_s)) {
        /* a domain's CPU time never goes back: a smaller second reading is
         * another counter (the domain ending, or read through another
         * cgroup), so the interval's vCPU time is not known, not negative */
        JsonObject *at = json_object_new();
        g_autofree char *why = g_strdup_printf("the domain's CPU time went back (%.2f s, then %.2f s): "
                                               "unknown, not zero", a->domu_cpu_s, b->domu_cpu_s);

        json_object_set_null_member(cpu, "domu");
        json_object_set_string_member(at, "attribution", "ended");
        json_object_set_string_member(at, "reason", why);
        json_object_set_object_member(attr, "domu", at);
    }
    json_object_set_object_member(o, "cpu_s", cpu);
    json_object_set_object_member(o, "cpu_attribution", attr);

    if (a->io && b->io) {
        const vdc_hv_disk_io *x = &a->io[k], *y = &b->io[k];

        if (x->rd_bytes >= 0 && x->wr_bytes >= 0 && y->rd_bytes >= 0 && y->wr_bytes >= 0)
            bytes = (double)((y->rd_bytes - x->rd_bytes) + (y->wr_bytes - x->wr_bytes));
        if (x->rd_req >= 0 && x->wr_req >= 0 && y->rd_req >= 0 && y->wr_req >= 0)
            ios = (double)((y->rd_req - x->rd_req) + (y->wr_req - x->wr_req));
    }
    if (vdc_has(bytes))
        json_object_set_int_member(o, "bytes", (gint64)bytes);
    if (vdc_has(ios))
        json_object_set_int_member(o, "ios", (gint64)ios);
    if ((vdc_has(bytes) || vdc_has(ios)) && io_source)
        json_object_set_string_member(o, "source", io_source);
    per_gib = json_object_new();
    per_kio = json_object_new();
    vdc_host_per_unit(cpu, bytes, ios, per_gib, per_kio);
    json_object_set_object_member(o, "cpu_s_per_gib", per_gib);
    json_object_set_object_member(o, "cpu_s_per_1000_ios", per_kio);

    if (a->have_mem && b->have_mem) {
        pair_member(o, "dom0_dirty_bytes", (double)a->mem.dirty, (double)b->mem.dirty);
        pair_member(o, "dom0_writeback_bytes", (double)a->mem.writeback, (double)b->mem.writeback);
        pair_member(o, "dom0_cached_bytes", (double)a->mem.cached, (double)b->mem.cached);
    }
    if (a->resident && b->resident)
        pair_member(o, "image_resident_bytes", (double)a->resident[k], (double)b->resident[k]);
    if (a->disk_rd && b->disk_rd && a->disk_rd[k] >= 0 && b->disk_rd[k] >= 0)
        json_object_set_int_member(o, "disk_read_bytes", b->disk_rd[k] - a->disk_rd[k]);
    if (a->disk_wr && b->disk_wr && a->disk_wr[k] >= 0 && b->disk_wr[k] >= 0)
        json_object_set_int_member(o, "disk_write_bytes", b->disk_wr[k] - a->disk_wr[k]);

    g_hash_table_destroy(sum);
    g_hash_table_destroy(ended);
    g_hash_table_destroy(late);
    vdc_cpu_delta_dispose(&d);
    return o;
}

/* ---- the watch ---------------------------------------------------------------- */

struct vdc_hostwatch {
    vdc_host_target *t;
    size_t n;
    char **disk;                /* per target: the disk under its image ("sda"), or NULL */
    char **loop_reason;         /* per target: why its loop worker is shared, or NULL */
    int *blkback;               /* per target: 0 not served by blkback (or not
                                 * libxl), 1 its ring threads not found yet, 2 found */
    const char *io_source;
    GPtrArray *servers;         /* vdc_server* */
    GArray *owners;             /* vdc_host_owner, parallel to servers */
    GArray *snaps;              /* vdc_host_snap */
    GArray *events;             /* vdc_host_event */
    uint64_t last_seq;
    uint64_t beats;             /* the runner's heartbeat count, as last read */
    int have_newest;
    struct vdc_ctl_event newest;    /* the newest event read */
    int domid;
    /* domU polling */
    GThread *thread;
    GMutex lock;
    gint stop;
    char *ctl;
    uint64_t nonce;
    const vdc_hv_ops *hvops;
    vdc_hv *hv;
    char *domain;
    /* dom0 feed */
    GString *line;
    int agent_pid;
    uint64_t t0_ns;
};

static double
mono_s(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* the whole disk under @path's filesystem ("sda" for a file on sda2), or
 * NULL when it is not on a block device (tmpfs, overlay) */
static char *
disk_under(const char *path)
{
    g_autofree char *link = NULL, *sys = NULL, *parent = NULL;
    struct stat st;
    char *base;

    if (!path || stat(path, &st) < 0 || major(st.st_dev) == 0)
        return NULL;
    sys = g_strdup_printf("/sys/dev/block/%u:%u", major(st.st_dev), minor(st.st_dev));
    link = g_file_read_link(sys, NULL);
    if (!link)
        return NULL;
    /* a partition's directory sits in its disk's: ../../block/sda/sda2 */
    {
        g_autofree char *part = g_strdup_printf("%s/partition", sys);

        base = g_path_get_basename(link);
        if (g_file_test(part, G_FILE_TEST_EXISTS)) {
            g_autofree char *dir = g_path_get_dirname(link);

            g_free(base);
            base = g_path_get_basename(dir);
        }
    }
    return base;
}

vdc_hostwatch *
vdc_hostwatch_new(const vdc_host_target *t, size_t n)
{
    vdc_hostwatch *w = g_new0(vdc_hostwatch, 1);
    size_t i;

    w->n = n;
    w->t = g_new0(vdc_host_target, n);
    w->disk = g_new0(char *, n);
    w->loop_reason = g_new0(char *, n);
    w->blkback = g_new0(int, n);
    for (i = 0; i < n; i++) {
        w->t[i].name = g_strdup(t[i].name);
        w->t[i].vdev = g_strdup(t[i].vdev);
        w->t[i].image = g_strdup(t[i].image);
        w->t[i].loop_dev = g_strdup(t[i].loop_dev);
        w->t[i].backend = g_strdup(t[i].backend);
        w->disk[i] = disk_under(t[i].image);
    }
    w->servers = vdc_server_set_new();
    w->owners = g_array_new(FALSE, TRUE, sizeof(vdc_host_owner));
    w->snaps = g_array_new(FALSE, TRUE, sizeof(vdc_host_snap));
    w->events = g_array_new(FALSE, TRUE, sizeof(vdc_host_event));
    w->domid = -1;
    g_mutex_init(&w->lock);
    return w;
}

static void
snap_dispose(vdc_host_snap *s)
{
    vdc_cpu_snapshot_dispose(&s->cpu);
    g_free(s->resident);
    g_free(s->io);
    g_free(s->disk_rd);
    g_free(s->disk_wr);
    memset(s, 0, sizeof(*s));
}

void
vdc_hostwatch_free(vdc_hostwatch *w)
{
    size_t i;

    if (!w)
        return;
    vdc_hostwatch_stop(w);
    for (i = 0; i < w->n; i++) {
        g_free((char *)w->t[i].name);
        g_free((char *)w->t[i].vdev);
        g_free((char *)w->t[i].image);
        g_free((char *)w->t[i].loop_dev);
        g_free((char *)w->t[i].backend);
        g_free(w->disk[i]);
        g_free(w->loop_reason[i]);
    }
    g_free(w->t);
    g_free(w->disk);
    g_free(w->loop_reason);
    g_free(w->blkback);
    for (i = 0; i < w->snaps->len; i++)
        snap_dispose(&g_array_index(w->snaps, vdc_host_snap, i));
    g_array_free(w->snaps, TRUE);
    g_array_free(w->events, TRUE);
    g_array_free(w->owners, TRUE);
    g_ptr_array_unref(w->servers);
    g_mutex_clear(&w->lock);
    if (w->line)
        g_string_free(w->line, TRUE);
    g_free(w->ctl);
    g_free(w->domain);
    g_free(w);
}

static void
add_server(vdc_hostwatch *w, vdc_server *s, int target)
{
    vdc_host_owner o = { target, NULL };

    if (!s)
        return;
    g_ptr_array_add(w->servers, s);
    g_array_append_val(w->owners, o);
}

/* servers appended to @set (by the workers.c finders) after index @from
 * belong to @target */
static void
adopt_servers(vdc_hostwatch *w, GPtrArray *set, int target)
{
    while (set->len) {
        vdc_server *s = g_ptr_array_steal_index(set, 0);

        add_server(w, s, target);
    }
}

/* the loop device's workers: its own thread (exact) or the reason why not */
static void
find_loop_workers(vdc_hostwatch *w, size_t k, const GArray *kthreads)
{
    const char *dev = w->t[k].loop_dev;
    GPtrArray *set;
    unsigned nr;
    char *reason = NULL;

    if (!dev || !kthreads || sscanf(dev, "/dev/loop%u", &nr) != 1)
        return;
    set = vdc_server_set_new();
    vdc_loop_workers_find((const vdc_task_stat *)(void *)kthreads->data, kthreads->len, nr, set,
                          &reason);
    /* shared kworkers are listed (runs[].host.servers) but never summed */
    adopt_servers(w, set, (int)k);
    g_ptr_array_unref(set);
    w->loop_reason[k] = reason;
}

/* the ring threads of each target still waiting for them (blkback starts
 * them when the domU's frontend connects); @when: NULL at the start, else
 * the event seen, in words (kept as found_at) */
static void
find_blkback(vdc_hostwatch *w, const char *when)
{
    GArray *kthreads;
    size_t k;

    for (k = 0; k < w->n && w->blkback[k] != 1; k++)
        ;
    if (k == w->n || w->domid < 0)
        return;
    kthreads = vdc_kernel_threads_scan();
    if (!kthreads)
        return;
    for (k = 0; k < w->n; k++) {
        GPtrArray *set;

        if (w->blkback[k] != 1)
            continue;
        set = vdc_server_set_new();
        vdc_blkback_threads_find((const vdc_task_stat *)(void *)kthreads->data, kthreads->len,
                                 (unsigned)w->domid, w->t[k].vdev, NULL, 0, set);
        if (set->len) {
            size_t from = w->servers->len, i;

            w->blkback[k] = 2;
            adopt_servers(w, set, (int)k);
            for (i = from; i < w->owners->len; i++)
                g_array_index(w->owners, vdc_host_owner, i).found_at =
                    when ? g_intern_string(when) : NULL;
        }
        g_ptr_array_unref(set);
    }
    g_array_free(kthreads, TRUE);
}

/* QEMU and its vCPU threads ("CPU 0/TCG", "CPU 1/KVM": vdc_qemu_servers) */
static void
find_qemu(vdc_hostwatch *w, int pid)
{
    g_autoptr(GPtrArray) set = vdc_qemu_servers(pid, "qemu-vcpu");
    gsize n = 0, i;
    vdc_server **v = (vdc_server **)g_ptr_array_steal(set, &n);

    for (i = 0; i < n; i++)
        add_server(w, v[i], -1);
    g_free(v);
}

/* one snapshot set, appended; its index */
static size_t
take_snap(vdc_hostwatch *w)
{
    vdc_host_snap s;
    size_t i;

    memset(&s, 0, sizeof(s));
    s.domu_cpu_s = NAN;
    if (vdc_cpu_snapshot_take(w->servers, &s.cpu) < 0)
        s.cpu.t_s = mono_s();
    s.have_mem = vdc_meminfo_read(&s.mem) == 0;
    s.resident = g_new(int64_t, w->n);
    s.disk_rd = g_new(int64_t, w->n);
    s.disk_wr = g_new(int64_t, w->n);
    s.io = g_new(vdc_hv_disk_io, w->n);
    for (i = 0; i < w->n; i++) {
        vdc_residency r;
        vdc_disk_stat ds;

        s.resident[i] = s.disk_rd[i] = s.disk_wr[i] = -1;
        s.io[i] = (vdc_hv_disk_io){ -1, -1, -1, -1 };
        if (w->t[i].image && vdc_residency_read(w->t[i].image, &r) == 0)
            s.resident[i] = (int64_t)r.resident_bytes;
        if (w->disk[i] && vdc_disk_stat_read(w->disk[i], &ds) == 0) {
            s.disk_rd[i] = (int64_t)ds.read_sectors * 512;
            s.disk_wr[i] = (int64_t)ds.write_sectors * 512;
        }
        /* dom0: what the loop device moved is what the baseline's backend moved */
        if (!w->t[i].vdev && w->t[i].loop_dev) {
            g_autofree char *base = g_path_get_basename(w->t[i].loop_dev);

            if (vdc_disk_stat_read(base, &ds) == 0)
                s.io[i] = (vdc_hv_disk_io){ (int64_t)ds.read_ios, (int64_t)ds.write_ios,
                                            (int64_t)ds.read_sectors * 512,
                                            (int64_t)ds.write_sectors * 512 };
        }
    }
    if (w->hvops && w->hvops->domain_stats) {
        g_autofree const char **vdevs = g_new0(const char *, w->n + 1);
        vdc_hv_domain_stats ds;

        for (i = 0; i < w->n; i++)
            vdevs[i] = w->t[i].vdev ? w->t[i].vdev : "";
        if (w->hvops->domain_stats(w->hv, w->domain, vdevs, w->n, &ds, s.io) == 0)
            s.domu_cpu_s = ds.cpu_time_s;
    }
    g_array_append_val(w->snaps, s);
    return w->snaps->len - 1;
}

/* new events of @p (those after last_seq) with one snapshot set */
static void
take_events(vdc_hostwatch *w, const struct vdc_ctl_progress *p)
{
    size_t snap = (size_t)-1;
    int gap = 0;
    uint32_t i;

    if (p->beats > w->beats)
        w->beats = p->beats;
    if (p->n_events && p->newest_seq >= w->last_seq) {
        w->newest = p->ev[p->n_events - 1];
        w->have_newest = 1;
    }
    if (p->newest_seq <= w->last_seq || w->events->len >= VDC_HOST_MAX_EVENTS)
        return;
    if (p->n_events && p->ev[0].seq > w->last_seq + 1)
        gap = 1;
    for (i = 0; i < p->n_events; i++) {
        vdc_host_event e;

        if (p->ev[i].seq <= w->last_seq || w->events->len >= VDC_HOST_MAX_EVENTS)
            continue;
        if (snap == (size_t)-1) {
            g_autofree char *when = vdc_host_event_text(&p->ev[i], p->ev[i].target < w->n
                                                        ? w->t[p->ev[i].target].name : NULL);

            find_blkback(w, when);
            snap = take_snap(w);
        }
        e.ev = p->ev[i];
        e.snap = snap;
        e.gap_before = gap;
        g_array_append_val(w->events, e);
    }
    w->last_seq = p->newest_seq;
}

static gpointer
poll_thread(gpointer data)
{
    vdc_hostwatch *w = data;
    int fd = open(w->ctl, O_RDONLY | O_CLOEXEC);

    if (fd < 0)
        return NULL;
    while (!g_atomic_int_get(&w->stop)) {
        struct vdc_ctl_progress p;
        struct vdc_ctl_error err = { { 0 } };

        /* a torn or stale read is read again at the next poll */
        if (vdc_ctl_disk_read_progress(fd, w->nonce, &p, &err) == 0) {
            g_mutex_lock(&w->lock);
            take_events(w, &p);
            g_mutex_unlock(&w->lock);
        }
        g_usleep((gulong)(VDC_HOST_POLL_S * G_USEC_PER_SEC));
    }
    close(fd);
    return NULL;
}

int
vdc_hostwatch_start_domu(vdc_hostwatch *w, const char *ctl, uint64_t nonce,
                         const vdc_hv_ops *hvops, vdc_hv *hv, const char *domain)
{
    vdc_hv_domain_stats ds;
    g_autofree vdc_hv_disk_io *io = g_new(vdc_hv_disk_io, w->n + 1);
    g_autofree const char **vdevs = g_new0(const char *, w->n + 1);
    GArray *kthreads = NULL;
    size_t i;

    w->ctl = g_strdup(ctl);
    w->nonce = nonce;
    w->hvops = hvops;
    w->hv = hv;
    w->domain = g_strdup(domain);
    for (i = 0; i < w->n; i++)
        vdevs[i] = w->t[i].vdev ? w->t[i].vdev : "";
    vdc_hv_domain_stats_init(&ds, io, w->n);
    if (hvops->domain_stats && hvops->domain_stats(hv, domain, vdevs, w->n, &ds, io) == 0) {
        w->domid = ds.domid;
        if (ds.vmm_pid > 0)
            find_qemu(w, ds.vmm_pid);
        w->io_source = !strcmp(hvops->name, "libvirt") ? "virDomainBlockStats"
                       : "blkback statistics";
    }
    for (i = 0; i < w->n; i++)
        w->blkback[i] = !strcmp(hvops->name, "libxl") && w->t[i].vdev &&
                        (!w->t[i].backend || !strcmp(w->t[i].backend, "phy"));
    find_blkback(w, NULL);
    kthreads = vdc_kernel_threads_scan();
    for (i = 0; kthreads && i < w->n; i++)
        find_loop_workers(w, i, kthreads);
    if (kthreads)
        g_array_free(kthreads, TRUE);
    w->thread = g_thread_try_new("vdc-hostwatch", poll_thread, w, NULL);
    if (!w->thread) {
        vdc_error("host sampler for %s: cannot start its thread", domain);
        return -1;
    }
    return 0;
}

void
vdc_hostwatch_stop(vdc_hostwatch *w)
{
    if (!w || !w->thread)
        return;
    g_atomic_int_set(&w->stop, 1);
    g_thread_join(w->thread);
    w->thread = NULL;
    /* the last events (the end of the last test) written before power-off */
    if (w->ctl) {
        int fd = open(w->ctl, O_RDONLY | O_CLOEXEC);
        struct vdc_ctl_progress p;
        struct vdc_ctl_error err = { { 0 } };

        if (fd >= 0) {
            if (vdc_ctl_disk_read_progress(fd, w->nonce, &p, &err) == 0)
                take_events(w, &p);
            close(fd);
        }
    }
}

uint64_t
vdc_hostwatch_heartbeat(vdc_hostwatch *w, char **last)
{
    struct vdc_ctl_progress p;
    struct vdc_ctl_error err = { { 0 } };
    uint64_t beats;
    int fd = w->ctl ? open(w->ctl, O_RDONLY | O_CLOEXEC) : -1;

    if (fd >= 0) {
        if (vdc_ctl_disk_read_progress(fd, w->nonce, &p, &err) == 0) {
            g_mutex_lock(&w->lock);
            take_events(w, &p);
            g_mutex_unlock(&w->lock);
        }
        close(fd);
    }
    g_mutex_lock(&w->lock);
    beats = w->beats;
    if (last)
        *last = vdc_host_event_text(w->have_newest ? &w->newest : NULL,
                                    w->have_newest && w->newest.target < w->n
                                        ? w->t[w->newest.target].name : NULL);
    g_mutex_unlock(&w->lock);
    return beats;
}

void
vdc_hostwatch_dom0_agent(vdc_hostwatch *w, int pid)
{
    GArray *kthreads;

    w->agent_pid = pid;
    w->io_source = "loop device /sys/block stat";
    w->t0_ns = (uint64_t)(mono_s() * 1e9);
    kthreads = vdc_kernel_threads_scan();
    if (kthreads) {
        find_loop_workers(w, 0, kthreads);
        g_array_free(kthreads, TRUE);
    }
}

void
vdc_hostwatch_dom0_feed(vdc_hostwatch *w, const char *buf, size_t n)
{
    struct vdc_ctl_progress p;
    size_t i;

    if (!w->line)
        w->line = g_string_new(NULL);
    /* the agent as a server once it wrote: it has exec'd by then (its comm
     * is the agent's), and no snapshot was taken before */
    if (w->agent_pid > 0 && n) {
        add_server(w, vdc_server_for_task("agent", w->agent_pid, 0, VDC_ATTR_EXACT, NULL), -1);
        w->agent_pid = 0;
    }
    vdc_ctl_progress_init(&p, 0);
    p.newest_seq = w->last_seq;
    for (i = 0; i < n; i++) {
        const char *l, *name;
        uint8_t kind;
        unsigned t;

        if (buf[i] != '\n') {
            if (w->line->len < 128)
                g_string_append_c(w->line, buf[i]);
            continue;
        }
        l = w->line->str;
        kind = !strncmp(l, "begin ", 6) ? VDC_CTL_EV_TEST_BEGIN
               : !strncmp(l, "end ", 4) ? VDC_CTL_EV_TEST_END : 0;
        name = kind == VDC_CTL_EV_TEST_BEGIN ? l + 6 : l + 4;
        for (t = 0; kind && t < G_N_ELEMENTS(test_names); t++)
            if (!strcmp(name, test_names[t])) {
                vdc_ctl_progress_add(&p, (uint64_t)(mono_s() * 1e9) - w->t0_ns, 0, kind,
                                     (uint8_t)t);
                break;
            }
        g_string_truncate(w->line, 0);
        if (p.n_events == VDC_CTL_PROGRESS_RING) {
            take_events(w, &p);
            vdc_ctl_progress_init(&p, 0);
            p.newest_seq = w->last_seq;
        }
    }
    take_events(w, &p);
}

/* The owners as target @k sees them (g_free): a QEMU that serves every
 * target (-1) serves none of a libxl target that blkback serves (libxl's
 * QEMU there is qdisk's, idle for the other disks) */
static vdc_host_owner *
owners_for(const vdc_hostwatch *w, size_t k)
{
    vdc_host_owner *o = g_memdup2(w->owners->data, sizeof(vdc_host_owner) * (w->owners->len + 1));
    size_t i;

    for (i = 0; w->blkback[k] && i < w->servers->len; i++) {
        const vdc_server *s = g_ptr_array_index(w->servers, i);

        if (o[i].target == -1 && g_str_has_prefix(s->role, "qemu"))
            o[i].target = -2;
    }
    return o;
}

static JsonObject *
run_host_json(const vdc_hostwatch *w, size_t k)
{
    g_autofree vdc_host_owner *owners = owners_for(w, k);
    JsonObject *o = json_object_new();
    JsonArray *srv = json_array_new();
    size_t i;

    if (w->domid >= 0)
        json_object_set_int_member(o, "domid", w->domid);
    json_object_set_double_member(o, "poll_interval_s", VDC_HOST_POLL_S);
    for (i = 0; i < w->servers->len; i++) {
        const vdc_server *s = g_ptr_array_index(w->servers, i);
        JsonObject *so;
        g_autofree char *rk = NULL;

        if (!vdc_host_serves(&owners[i], k))
            continue;
        rk = role_key(s->role);
        so = json_object_new();
        json_object_set_string_member(so, "role", rk);
        if (s->name)
            json_object_set_string_member(so, "name", s->name);
        json_object_set_int_member(so, "pid", s->pid);
        if (s->tid)
            json_object_set_int_member(so, "tid", s->tid);
        json_object_set_int_member(so, "starttime", (gint64)s->starttime);
        json_object_set_string_member(so, "attribution", vdc_attribution_name(s->attribution));
        if (s->reason)
            json_object_set_string_member(so, "reason", s->reason);
        if (owners[i].found_at)
            json_object_set_string_member(so, "found_at", owners[i].found_at);
        json_array_add_object_element(srv, so);
    }
    json_object_set_array_member(o, "servers", srv);
    if (w->blkback[k] == 1)
        json_object_set_string_member(o, "blkback_reason", w->domid >= 0
            ? "no blkback ring thread of this VBD was found (looked for at the start and at "
              "each progress event until found)"
            : "the domU's id was not known: its blkback ring threads were not looked for");
    if (w->loop_reason[k])
        json_object_set_string_member(o, "loop_worker_reason", w->loop_reason[k]);
    return o;
}

size_t
vdc_hostwatch_attach(vdc_hostwatch *w, size_t k, vdc_run *run)
{
    long ticks = sysconf(_SC_CLK_TCK);
    const vdc_host_event *open[G_N_ELEMENTS(test_names)] = { NULL };
    guint8 *used = g_new0(guint8, run->n_samples + 1);
    g_autofree vdc_host_owner *owners = NULL;
    size_t i, j, given = 0;

    if (k >= w->n) {
        g_free(used);
        return 0;
    }
    g_mutex_lock(&w->lock);
    owners = owners_for(w, k);
    for (i = 0; i < w->events->len; i++) {
        const vdc_host_event *e = &g_array_index(w->events, vdc_host_event, i);
        const char *name;

        if (e->ev.target != k || e->ev.test >= G_N_ELEMENTS(test_names))
            continue;
        if (e->ev.kind == VDC_CTL_EV_TEST_BEGIN) {
            open[e->ev.test] = e;
            continue;
        }
        if (e->ev.kind != VDC_CTL_EV_TEST_END || !open[e->ev.test])
            continue;
        name = test_names[e->ev.test];
        for (j = 0; j < run->n_samples; j++) {
            vdc_sample *s = run->samples[j];
            JsonObject *h;

            if (used[j] || strcmp(s->test, name) != 0)
                continue;
            h = vdc_host_slice(w->servers, owners, k,
                               &g_array_index(w->snaps, vdc_host_snap, open[e->ev.test]->snap),
                               &g_array_index(w->snaps, vdc_host_snap, e->snap),
                               open[e->ev.test], e, w->loop_reason[k], w->io_source,
                               VDC_HOST_POLL_S, ticks > 0 ? ticks : 100);
            used[j] = 1;
            if (h)
                vdc_host_bytes_from_agent(h, vdc_run_test_bytes(run, vdc_test_lookup(s->test)));
            if (h) {
                g_clear_pointer(&s->host, json_object_unref);
                s->host = h;
                given++;
            }
            break;
        }
        open[e->ev.test] = NULL;
    }
    if (given || w->servers->len) {
        g_clear_pointer(&run->host, json_object_unref);
        run->host = run_host_json(w, k);
    }
    g_mutex_unlock(&w->lock);
    g_free(used);
    return given;
}
