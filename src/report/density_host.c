/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A density level's host cost in the analysis (density.h
 * vdc_density_host): experiment.levels[].host of each (level, target),
 * averaged over its ok repetitions. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "common/util.h"
#include "report/density.h"

const char *const vdc_density_host_roles[VDC_DENSITY_HOST_ROLES] = {
    "blkback", "qemu", "qemu_io", "dom0_busy", "dom0_other",
};

/* @o.@member as a number, else NAN */
static double
number(JsonObject *o, const char *member)
{
    JsonNode *n = o ? json_object_get_member(o, member) : NULL;

    if (!n || !JSON_NODE_HOLDS_VALUE(n))
        return NAN;
    return json_node_get_value_type(n) == G_TYPE_INT64 ? (double)json_node_get_int(n)
           : json_node_get_value_type(n) == G_TYPE_DOUBLE ? json_node_get_double(n) : NAN;
}

static JsonObject *
object(JsonObject *o, const char *member)
{
    JsonNode *n = json_object_get_member(o, member);

    return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

/* @acc += @v, counted in *@n, where @v is a number */
static void
add(double *acc, size_t *n, double v)
{
    if (!vdc_has(v))
        return;
    *acc = *n ? *acc + v : v;
    (*n)++;
}

/* [begin, end] of @o.@member into the sums @acc (counted in @n) */
static void
add_pair(JsonObject *o, const char *member, double acc[2], size_t n[2])
{
    JsonNode *node = json_object_get_member(o, member);
    JsonArray *a;
    size_t i;

    if (!node || !JSON_NODE_HOLDS_ARRAY(node) || json_array_get_length(a = json_node_get_array(node)) != 2)
        return;
    for (i = 0; i < 2; i++) {
        JsonNode *e = json_array_get_element(a, (guint)i);

        add(&acc[i], &n[i], JSON_NODE_HOLDS_VALUE(e) ? json_node_get_double(e) : NAN);
    }
}

static double
mean(double sum, size_t n)
{
    return n ? sum / (double)n : NAN;
}

/* the sums of one (level, target) made means */
typedef struct {
    size_t n_cpu[VDC_DENSITY_HOST_ROLES], n_kio[VDC_DENSITY_HOST_ROLES], n_gib[VDC_DENSITY_HOST_ROLES];
    size_t n_ios, n_bytes, n_mem[2], n_cached[2], n_dirty[2];
} counts;

void
vdc_density_host_build(struct vdc_density *d, const vdc_result_set *rs)
{
    const vdc_experiment *e = &rs->experiment;
    counts *cn;
    size_t i, li, ti, r, any = 0;

    if (!d->n_levels || !d->n_targets)
        return;
    d->host = g_new0(struct vdc_density_host, d->n_levels * d->n_targets);
    cn = g_new0(counts, d->n_levels * d->n_targets);
    for (i = 0; i < e->n_levels; i++) {
        const vdc_level_record *l = &e->levels[i];
        struct vdc_density_host *h;
        counts *c;
        JsonObject *cpu, *kio, *gib;

        if (!l->host || !l->status || strcmp(l->status, "ok") || !l->target)
            continue;
        for (li = 0; li < d->n_levels && d->levels[li] != l->guests; li++)
            ;
        for (ti = 0; ti < d->n_targets && strcmp(d->targets[ti], l->target); ti++)
            ;
        if (li == d->n_levels || ti == d->n_targets)
            continue;
        h = &d->host[li * d->n_targets + ti];
        c = &cn[li * d->n_targets + ti];
        cpu = object(l->host, "cpu_s");
        kio = object(l->host, "cpu_s_per_1000_ios");
        gib = object(l->host, "cpu_s_per_gib");
        h->n++;
        any = 1;
        for (r = 0; r < VDC_DENSITY_HOST_ROLES; r++) {
            add(&h->cpu_s[r], &c->n_cpu[r], number(cpu, vdc_density_host_roles[r]));
            add(&h->per_kio[r], &c->n_kio[r], number(kio, vdc_density_host_roles[r]));
            add(&h->per_gib[r], &c->n_gib[r], number(gib, vdc_density_host_roles[r]));
        }
        if (cpu && json_object_has_member(cpu, "loop"))
            h->loop_shared = 1;
        add(&h->ios, &c->n_ios, number(l->host, "ios"));
        add(&h->bytes, &c->n_bytes, number(l->host, "bytes"));
        add_pair(l->host, "dom0_memory_bytes", h->memory_bytes, c->n_mem);
        add_pair(l->host, "dom0_cached_bytes", h->cached_bytes, c->n_cached);
        add_pair(l->host, "dom0_dirty_bytes", h->dirty_bytes, c->n_dirty);
    }
    for (i = 0; i < d->n_levels * d->n_targets; i++) {
        struct vdc_density_host *h = &d->host[i];
        const counts *c = &cn[i];

        for (r = 0; r < VDC_DENSITY_HOST_ROLES; r++) {
            h->n_role[r] = c->n_cpu[r];
            h->cpu_s[r] = mean(h->cpu_s[r], c->n_cpu[r]);
            h->per_kio[r] = mean(h->per_kio[r], c->n_kio[r]);
            h->per_gib[r] = mean(h->per_gib[r], c->n_gib[r]);
        }
        h->ios = mean(h->ios, c->n_ios);
        h->bytes = mean(h->bytes, c->n_bytes);
        for (r = 0; r < 2; r++) {
            h->memory_bytes[r] = mean(h->memory_bytes[r], c->n_mem[r]);
            h->cached_bytes[r] = mean(h->cached_bytes[r], c->n_cached[r]);
            h->dirty_bytes[r] = mean(h->dirty_bytes[r], c->n_dirty[r]);
        }
    }
    g_free(cn);
    if (!any)
        g_clear_pointer(&d->host, g_free);
}

const struct vdc_density_host *
vdc_density_host_at(const struct vdc_density *d, size_t li, size_t ti)
{
    const struct vdc_density_host *h;

    if (!d->host || li >= d->n_levels || ti >= d->n_targets)
        return NULL;
    h = &d->host[li * d->n_targets + ti];
    return h->n ? h : NULL;
}
