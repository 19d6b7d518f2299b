/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host CPU per backend and dom0's page cache: the statistics of the
 * samples' host figures (hostcost.h); their renderings are in
 * render_hostcost.c. */
#include "config.h"
#include "report/hostcost.h"

#include <math.h>
#include <string.h>

#include "common/util.h"
#include "report/analysis.h"

const char *const vdc_host_roles[VDC_HOST_N_ROLES] = {
    "blkback", "loop_worker", "qemu", "qemu_io", "qemu_vcpu", "agent", "domu",
    "dom0_busy", "dom0_steal", "dom0_other",
};

const char *
vdc_host_role_label(const char *role)
{
    static const struct { const char *role, *label; } labels[] = {
        { "blkback", "blkback ring threads" },
        { "loop_worker", "loop device worker" },
        { "qemu", "QEMU process" },
        { "qemu_io", "QEMU minus its vCPUs" },
        { "qemu_vcpu", "QEMU vCPU threads" },
        { "agent", "dom0 agent" },
        { "domu", "domU vCPUs (hypervisor)" },
        { "dom0_busy", "dom0 busy (all)" },
        { "dom0_steal", "dom0 steal (vCPUs waiting)" },
        { "dom0_other", "dom0 other (busy + steal minus servers)" },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(labels); i++)
        if (!strcmp(labels[i].role, role))
            return labels[i].label;
    return role;
}

/* a sample's host object if its test was sliced, else NULL */
static JsonObject *
sliced_host(const vdc_sample *s)
{
    JsonNode *n;

    if (!s->host)
        return NULL;
    n = json_object_get_member(s->host, "sliced");
    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_BOOLEAN ||
        !json_node_get_boolean(n))
        return NULL;
    return s->host;
}

/* the role's attribution in @h ("exact" when the role has a figure and no
 * attribution entry), and its reason */
static const char *
role_attribution(JsonObject *h, const char *role, const char **reason)
{
    static const char *const known[] = { "exact", "shared", "ambiguous", "ended", "inconsistent" };
    JsonObject *at, *r;
    const char *v;
    size_t i;

    *reason = NULL;
    if (!json_object_has_member(h, "cpu_attribution"))
        return NULL;
    at = json_object_get_object_member(h, "cpu_attribution");
    if (!at || !json_object_has_member(at, role))
        return NULL;
    r = json_object_get_object_member(at, role);
    if (!r)
        return NULL;
    v = json_object_get_string_member_with_default(r, "attribution", NULL);
    *reason = json_object_get_string_member_with_default(r, "reason", NULL);
    for (i = 0; v && i < G_N_ELEMENTS(known); i++)
        if (!strcmp(v, known[i]))
            return known[i];
    return NULL;
}

static int host_cache_build(struct vdc_analysis *a, const vdc_result_set *rs);

/* The reason of a role with no figure because @n_bad of @n_runs runs had
 * a difference below 0: "below 0 in 2 of 3 runs (dom0 busy + steal minus
 * the exact servers: -7.180 s)", the recorded reason @why without the
 * sentence every such reason ends with (vdc_host_cost_inconsistent_note
 * says it once per table); g_free. */
static char *
inconsistent_reason(size_t n_bad, size_t n_runs, const char *why)
{
    const char *tail = why ? strstr(why, ", below 0 by more than") : NULL;

    if (!why)
        return g_strdup_printf("below 0 in %zu of %zu runs", n_bad, n_runs);
    return g_strdup_printf("below 0 in %zu of %zu runs (%.*s)", n_bad, n_runs,
                           (int)(tail ? (size_t)(tail - why) : strlen(why)), why);
}

int
vdc_host_cost_build(struct vdc_analysis *a, const vdc_result_set *rs)
{
    GArray *out = g_array_new(FALSE, TRUE, sizeof(struct vdc_host_cost));
    double *gib = g_new(double, rs->n_runs + 1), *kio = g_new(double, rs->n_runs + 1);
    size_t ti, ki, ri, j, r;
    int rc = 0;

    for (ti = 0; ti < a->n_targets && rc == 0; ti++)
        for (ki = 0; ki < a->n_tests && rc == 0; ki++)
            for (r = 0; r < VDC_HOST_N_ROLES && rc == 0; r++) {
                struct vdc_host_cost c;
                size_t ng = 0, nk = 0, n_bad = 0;
                const char *bad_why = NULL;
                /* a difference (dom0 other, QEMU minus its vCPUs) below 0:
                 * the counters disagree (doc/host-cost.md) */
                int difference = !strcmp(vdc_host_roles[r], "dom0_other") || !strcmp(vdc_host_roles[r], "qemu_io");

                memset(&c, 0, sizeof(c));
                c.target = ti;
                c.test = ki;
                c.role = vdc_host_roles[r];
                for (ri = 0; ri < rs->n_runs; ri++) {
                    const vdc_run *run = rs->runs[ri];

                    if (strcmp(run->target, a->targets[ti]) != 0)
                        continue;
                    for (j = 0; j < run->n_samples; j++) {
                        const vdc_sample *s = run->samples[j];
                        g_autofree char *key = vdc_sample_key(s);
                        JsonObject *h = sliced_host(s);
                        const char *at, *why;
                        double v;

                        if (!h || strcmp(key, a->tests[ki]) != 0)
                            continue;
                        c.n_runs++;
                        at = role_attribution(h, c.role, &why);
                        if (at && !strcmp(at, "inconsistent")) {
                            n_bad++;
                            bad_why = bad_why ? bad_why : why;
                            continue;
                        }
                        if (at && strcmp(at, "exact") && !c.reason) {
                            c.attribution = at;
                            c.reason = g_strdup(why);
                        }
                        if (difference && vdc_has(vdc_sample_host_figure(s, "cpu_s", c.role)) &&
                            vdc_sample_host_figure(s, "cpu_s", c.role) < 0) {
                            n_bad++;   /* a document written before the rule */
                            continue;
                        }
                        v = vdc_sample_host_figure(s, "cpu_s_per_gib", c.role);
                        if (vdc_has(v))
                            gib[ng++] = v;
                        v = vdc_sample_host_figure(s, "cpu_s_per_1000_ios", c.role);
                        if (vdc_has(v))
                            kio[nk++] = v;
                    }
                }
                if (n_bad) {
                    /* no figure: the runs left would not be the runs */
                    g_free(c.reason);
                    c.attribution = "inconsistent";
                    c.reason = inconsistent_reason(n_bad, c.n_runs, bad_why);
                    ng = nk = 0;
                }
                if (!ng && !nk && !c.attribution) {
                    g_free(c.reason);
                    continue;
                }
                if (!c.attribution)
                    c.attribution = "exact";
                if (vdc_stats_summarize(gib, ng, &a->opt, &c.per_gib) < 0 ||
                    vdc_stats_summarize(kio, nk, &a->opt, &c.per_kio) < 0)
                    rc = -1;
                /* CPU time is never below 0: the floor rule, as a cell's
                 * (stats.h, doc/statistics.md) */
                vdc_stats_summary_floor(&c.per_gib);
                vdc_stats_summary_floor(&c.per_kio);
                c.per_gib_cut = c.per_gib.ci_mean_cut;
                c.per_kio_cut = c.per_kio.ci_mean_cut;
                g_array_append_val(out, c);
            }
    g_free(gib);
    g_free(kio);
    a->n_host = out->len;
    a->host = (struct vdc_host_cost *)(void *)g_array_free(out, FALSE);
    if (rc == 0)
        rc = host_cache_build(a, rs);
    return rc;
}

enum { C_MOVED, C_READ, C_WRITE, C_RES0, C_RES1, C_DIRTY0, C_DIRTY1, C_CACHED, C_N };

/* a pair's element @i, NAN when the pair is absent */
static double
pair_at(const vdc_sample *s, const char *member, int i)
{
    double v[2];

    return vdc_sample_host_pair(s, member, v) ? v[i] : NAN;
}

/* the page-cache figures of one sample, NAN where absent */
static void
cache_figures(const vdc_sample *s, double v[C_N])
{
    int i;

    v[C_MOVED] = vdc_sample_host_scalar(s, "bytes");
    v[C_READ] = vdc_sample_host_scalar(s, "disk_read_bytes");
    v[C_WRITE] = vdc_sample_host_scalar(s, "disk_write_bytes");
    for (i = 0; i < 2; i++) {
        v[C_RES0 + i] = pair_at(s, "image_resident_bytes", i);
        v[C_DIRTY0 + i] = pair_at(s, "dom0_dirty_bytes", i) + pair_at(s, "dom0_writeback_bytes", i);
    }
    v[C_CACHED] = pair_at(s, "dom0_cached_bytes", 1) - pair_at(s, "dom0_cached_bytes", 0);
}

/* Fill a->cache (hostcost.h); 0 or -1 */
static int
host_cache_build(struct vdc_analysis *a, const vdc_result_set *rs)
{
    GArray *out = g_array_new(FALSE, TRUE, sizeof(struct vdc_host_cache));
    double *x[C_N];
    size_t ti, ki, ri, j, f, n[C_N];
    int rc = 0;

    for (f = 0; f < C_N; f++)
        x[f] = g_new(double, rs->n_runs + 1);
    for (ti = 0; ti < a->n_targets && rc == 0; ti++)
        for (ki = 0; ki < a->n_tests && rc == 0; ki++) {
            struct vdc_host_cache c;
            struct vdc_stats_summary *sum[C_N];
            size_t any = 0;

            memset(&c, 0, sizeof(c));
            memset(n, 0, sizeof(n));
            c.target = ti;
            c.test = ki;
            sum[C_MOVED] = &c.moved;
            sum[C_READ] = &c.disk_read;
            sum[C_WRITE] = &c.disk_write;
            sum[C_RES0] = &c.resident[0];
            sum[C_RES1] = &c.resident[1];
            sum[C_DIRTY0] = &c.dirty[0];
            sum[C_DIRTY1] = &c.dirty[1];
            sum[C_CACHED] = &c.cached_growth;
            for (ri = 0; ri < rs->n_runs; ri++) {
                const vdc_run *run = rs->runs[ri];

                if (strcmp(run->target, a->targets[ti]) != 0)
                    continue;
                for (j = 0; j < run->n_samples; j++) {
                    const vdc_sample *s = run->samples[j];
                    g_autofree char *key = vdc_sample_key(s);
                    double v[C_N];

                    /* sliced or not: the figures are the test's own either way */
                    if (!s->host || strcmp(key, a->tests[ki]) != 0)
                        continue;
                    cache_figures(s, v);
                    for (f = 0; f < C_N; f++)
                        if (vdc_has(v[f]))
                            x[f][n[f]++] = v[f];
                }
            }
            /* the page-cache figures proper: bytes moved alone say nothing */
            for (f = C_READ; f < C_N; f++)
                any += n[f];
            if (!any)
                continue;
            for (f = 0; f < C_N && rc == 0; f++)
                if (vdc_stats_summarize(x[f], n[f], &a->opt, sum[f]) < 0)
                    rc = -1;
                else if (f != C_CACHED)
                    vdc_stats_summary_floor(sum[f]);   /* bytes: the floor rule; a growth may be < 0 */
            g_array_append_val(out, c);
        }
    for (f = 0; f < C_N; f++)
        g_free(x[f]);
    a->n_cache = out->len;
    a->cache = (struct vdc_host_cache *)(void *)g_array_free(out, FALSE);
    return rc;
}

void
vdc_host_cost_dispose(struct vdc_analysis *a)
{
    size_t i;

    for (i = 0; a->host && i < a->n_host; i++)
        g_free(a->host[i].reason);
    g_free(a->host);
    a->host = NULL;
    a->n_host = 0;
    g_free(a->cache);
    a->cache = NULL;
    a->n_cache = 0;
}

/* three significant digits, never an exponent: 0.0123, 4.56, 789, 3810 */
static void
fmt_num(GString *out, double v)
{
    if (fabs(v) >= 1000)
        g_string_append_printf(out, "%.0f", v);
    else
        g_string_append_printf(out, "%.3g", v);
}

/* hostcost.h */
const char vdc_host_cost_inconsistent_note[] =
    "no figure (inconsistent): a difference of counters (dom0 busy + steal minus the servers, or QEMU "
    "minus its vCPUs) came out below 0 by more than the counters' resolution in a run: the counters "
    "disagree, and a figure from them would measure nothing (doc/host-cost.md)";

const char vdc_host_cost_cut_note[] =
    "[0, x]: the 95 % interval reached below 0 and is cut at 0 (CPU time is never negative)";

/* hostcost.h */
int
vdc_host_cost_cut(const struct vdc_host_cost *c)
{
    return (c->per_gib.n && c->per_gib_cut) || (c->per_kio.n && c->per_kio_cut);
}

/* hostcost.h */
void
vdc_host_cost_fmt(GString *out, const struct vdc_stats_summary *s)
{
    if (!s->n)
        return;
    fmt_num(out, s->mean);
    if (s->has_ci_mean) {
        g_string_append(out, " [");
        fmt_num(out, s->ci_mean[0]);
        g_string_append(out, ", ");
        fmt_num(out, s->ci_mean[1]);
        g_string_append(out, "]");
    }
}
