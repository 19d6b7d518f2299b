/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host CPU per backend: statistics and renderings (hostcost.h). */
#include "config.h"
#include "report/hostcost.h"

#include <math.h>
#include <string.h>

#include "common/util.h"
#include "common/escape.h"
#include "report/analysis.h"
#include "report/render_util.h"

const char *const vdc_host_roles[VDC_HOST_N_ROLES] = {
    "blkback", "loop_worker", "qemu", "qemu_io", "qemu_vcpu", "agent", "domu",
    "dom0_busy", "dom0_other",
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
        { "dom0_other", "dom0 other (busy minus servers)" },
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
    static const char *const known[] = { "exact", "shared", "ambiguous", "ended" };
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
static void host_cache_text(GString *out, const struct vdc_analysis *a);
static void host_cache_markdown(GString *out, const struct vdc_analysis *a);

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
                size_t ng = 0, nk = 0;

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
                        if (at && strcmp(at, "exact") && !c.reason) {
                            c.attribution = at;
                            c.reason = g_strdup(why);
                        }
                        v = vdc_sample_host_figure(s, "cpu_s_per_gib", c.role);
                        if (vdc_has(v))
                            gib[ng++] = v;
                        v = vdc_sample_host_figure(s, "cpu_s_per_1000_ios", c.role);
                        if (vdc_has(v))
                            kio[nk++] = v;
                    }
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

const char vdc_host_cost_note[] =
    "CPU seconds of what served each test in dom0 per GiB the backend moved and per 1,000 of its "
    "I/Os (virDomainBlockStats, blkback statistics, or the dom0 loop device's counters), mean "
    "[95 % CI of the mean] over the runs; dom0 other = dom0 busy minus the exactly attributed "
    "servers (it holds shared kworkers' work, writeback and anything else dom0 ran).";

void
vdc_host_cost_text(GString *out, const struct vdc_analysis *a)
{
    size_t i, tw = 6, kw = 4;

    host_cache_text(out, a);
    if (!a->n_host)
        return;
    for (i = 0; i < a->n_host; i++) {
        g_autofree char *t = vdc_escape_text(a->targets[a->host[i].target], -1, 0);

        tw = MAX(tw, strlen(t));
        kw = MAX(kw, strlen(a->tests[a->host[i].test]));
    }
    g_string_append(out, "\nHost CPU per backend\n");
    g_string_append_printf(out, "  %s\n", vdc_host_cost_note);
    g_string_append_printf(out, "  %-*s %-*s %-32s %-30s %-30s %s\n", (int)tw, "Target", (int)kw, "Test",
                           "Role", "CPU s per GiB", "CPU s per 1,000 I/Os", "n");
    for (i = 0; i < a->n_host; i++) {
        const struct vdc_host_cost *c = &a->host[i];
        GString *g = g_string_new(NULL), *k = g_string_new(NULL);
        g_autofree char *t = vdc_escape_text(a->targets[c->target], -1, 0);

        if (strcmp(c->attribution, "exact") && !c->per_gib.n && !c->per_kio.n) {
            g_autofree char *why = vdc_escape_text(c->reason ? c->reason : "no reason recorded", -1, 0);

            g_string_append_printf(out, "  %-*s %-*s %-32s not attributable (%s): %s; see dom0 other\n",
                                   (int)tw, t, (int)kw, a->tests[c->test],
                                   vdc_host_role_label(c->role), c->attribution, why);
        } else {
            vdc_host_cost_fmt(g, &c->per_gib);
            vdc_host_cost_fmt(k, &c->per_kio);
            g_string_append_printf(out, "  %-*s %-*s %-32s %-30s %-30s %zu\n", (int)tw,
                                   t, (int)kw, a->tests[c->test],
                                   vdc_host_role_label(c->role), g->len ? g->str : "-",
                                   k->len ? k->str : "-", MAX(c->per_gib.n, c->per_kio.n));
        }
        g_string_free(g, TRUE);
        g_string_free(k, TRUE);
    }
}

void
vdc_host_cost_markdown(GString *out, const struct vdc_analysis *a)
{
    size_t i;

    host_cache_markdown(out, a);
    if (!a->n_host)
        return;
    g_string_append(out, "\n## Host CPU per backend\n\n");
    vdc_md_escape(out, vdc_host_cost_note);
    g_string_append(out, "\n\n| Target | Test | Role | CPU s per GiB | CPU s per 1,000 I/Os | n |\n"
                         "|---|---|---|---:|---:|---:|\n");
    for (i = 0; i < a->n_host; i++) {
        const struct vdc_host_cost *c = &a->host[i];
        GString *g = g_string_new(NULL), *k = g_string_new(NULL);

        g_string_append(out, "| ");
        vdc_md_escape(out, a->targets[c->target]);
        g_string_append(out, " | ");
        vdc_md_escape(out, a->tests[c->test]);
        g_string_append(out, " | ");
        vdc_md_escape(out, vdc_host_role_label(c->role));
        if (strcmp(c->attribution, "exact") && !c->per_gib.n && !c->per_kio.n) {
            g_string_append_printf(out, " | not attributable (%s): ", c->attribution);
            vdc_md_escape(out, c->reason ? c->reason : "no reason recorded");
            g_string_append(out, "; see dom0 other | | |\n");
        } else {
            vdc_host_cost_fmt(g, &c->per_gib);
            vdc_host_cost_fmt(k, &c->per_kio);
            g_string_append_printf(out, " | %s | %s | %zu |\n", g->len ? g->str : "",
                                   k->len ? k->str : "", MAX(c->per_gib.n, c->per_kio.n));
        }
        g_string_free(g, TRUE);
        g_string_free(k, TRUE);
    }
}

const char vdc_host_cache_note[] =
    "dom0's page cache around each test, mean over the runs (MiB): what the backend moved; what "
    "reached the disk under the image (its block device's counters); the image's pages in dom0's "
    "page cache at the test's start -> end (mincore); dom0's Dirty + Writeback at start -> end and "
    "the growth of its Cached (/proc/meminfo).  Reads served without reaching the disk, or writes "
    "that stayed in Dirty, were absorbed by dom0's RAM.";

/* a mean in MiB, one decimal (n = 0: "-") */
static void
fmt_mib(GString *out, const struct vdc_stats_summary *s)
{
    if (!s->n)
        g_string_append_c(out, '-');
    else
        g_string_append_printf(out, "%.1f", s->mean / 1048576.0);
}

/* "A -> B" of two means in MiB */
static void
fmt_mib_pair(GString *out, const struct vdc_stats_summary *s)
{
    if (!s[0].n && !s[1].n) {
        g_string_append_c(out, '-');
        return;
    }
    fmt_mib(out, &s[0]);
    g_string_append(out, " -> ");
    fmt_mib(out, &s[1]);
}

/* the cells of one line, in column order */
static void
cache_cells(const struct vdc_host_cache *c, GString *cell[6])
{
    size_t i;

    for (i = 0; i < 6; i++)
        g_string_truncate(cell[i], 0);
    fmt_mib(cell[0], &c->moved);
    fmt_mib(cell[1], &c->disk_read);
    fmt_mib(cell[2], &c->disk_write);
    fmt_mib_pair(cell[3], c->resident);
    fmt_mib_pair(cell[4], c->dirty);
    if (c->cached_growth.n && fabs(c->cached_growth.mean) < 0.05 * 1048576.0)
        g_string_append(cell[5], "0.0");   /* never "-0.0" */
    else if (c->cached_growth.n)
        g_string_append_printf(cell[5], "%+.1f", c->cached_growth.mean / 1048576.0);
    else
        g_string_append_c(cell[5], '-');
}

static const char *const cache_heads[] = {
    "moved", "disk read", "disk written", "image resident", "Dirty+Writeback", "Cached growth",
};

/* runs behind a line: the most any figure had */
static size_t
cache_runs(const struct vdc_host_cache *c)
{
    size_t n = MAX(c->moved.n, MAX(c->disk_read.n, c->disk_write.n));

    n = MAX(n, MAX(c->resident[0].n, c->dirty[0].n));
    return MAX(n, c->cached_growth.n);
}

static void
host_cache_text(GString *out, const struct vdc_analysis *a)
{
    GString *cell[6];
    size_t i, k, tw = 6, kw = 4;

    if (!a->n_cache)
        return;
    for (k = 0; k < 6; k++)
        cell[k] = g_string_new(NULL);
    for (i = 0; i < a->n_cache; i++) {
        g_autofree char *t = vdc_escape_text(a->targets[a->cache[i].target], -1, 0);

        tw = MAX(tw, strlen(t));
        kw = MAX(kw, strlen(a->tests[a->cache[i].test]));
    }
    g_string_append(out, "\ndom0 page cache around each test\n");
    g_string_append_printf(out, "  %s\n", vdc_host_cache_note);
    g_string_append_printf(out, "  %-*s %-*s", (int)tw, "Target", (int)kw, "Test");
    for (k = 0; k < 6; k++)
        g_string_append_printf(out, " %*s", k >= 3 ? 17 : 9, cache_heads[k]);
    g_string_append(out, "  n\n");
    for (i = 0; i < a->n_cache; i++) {
        const struct vdc_host_cache *c = &a->cache[i];
        g_autofree char *t = vdc_escape_text(a->targets[c->target], -1, 0);

        cache_cells(c, cell);
        g_string_append_printf(out, "  %-*s %-*s", (int)tw, t, (int)kw, a->tests[c->test]);
        for (k = 0; k < 6; k++)
            g_string_append_printf(out, " %*s", k >= 3 ? 17 : 9, cell[k]->str);
        g_string_append_printf(out, "  %zu\n", cache_runs(c));
    }
    for (k = 0; k < 6; k++)
        g_string_free(cell[k], TRUE);
}

static void
host_cache_markdown(GString *out, const struct vdc_analysis *a)
{
    GString *cell[6];
    size_t i, k;

    if (!a->n_cache)
        return;
    for (k = 0; k < 6; k++)
        cell[k] = g_string_new(NULL);
    g_string_append(out, "\n## dom0 page cache around each test\n\n");
    vdc_md_escape(out, vdc_host_cache_note);
    g_string_append(out, "\n\n| Target | Test |");
    for (k = 0; k < 6; k++)
        g_string_append_printf(out, " %s |", cache_heads[k]);
    g_string_append(out, " n |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (i = 0; i < a->n_cache; i++) {
        const struct vdc_host_cache *c = &a->cache[i];

        cache_cells(c, cell);
        g_string_append(out, "| ");
        vdc_md_escape(out, a->targets[c->target]);
        g_string_append(out, " | ");
        vdc_md_escape(out, a->tests[c->test]);
        for (k = 0; k < 6; k++)
            g_string_append_printf(out, " | %s", cell[k]->str);
        g_string_append_printf(out, " | %zu |\n", cache_runs(c));
    }
    g_string_append_c(out, '\n');
    for (k = 0; k < 6; k++)
        g_string_free(cell[k], TRUE);
}

/* hostcost.h: the page-cache table as HTML */
void
vdc_host_cache_html(GString *out, const struct vdc_analysis *a)
{
    GString *cell[6];
    size_t i, k;
    char *e;

    if (!a->n_cache)
        return;
    for (k = 0; k < 6; k++)
        cell[k] = g_string_new(NULL);
    g_string_append(out, "<section id=\"page-cache\">\n<h2>dom0 page cache around each test</h2>\n"
                         "<p class=\"note\">");
    e = g_markup_escape_text(vdc_host_cache_note, -1);
    g_string_append(out, e);
    g_free(e);
    g_string_append(out, "</p>\n<table>\n<tr><th>Target</th><th>Test</th>");
    for (k = 0; k < 6; k++)
        g_string_append_printf(out, "<th>%s (MiB)</th>", cache_heads[k]);
    g_string_append(out, "<th>n</th></tr>\n");
    for (i = 0; i < a->n_cache; i++) {
        const struct vdc_host_cache *c = &a->cache[i];

        cache_cells(c, cell);
        e = g_markup_escape_text(a->targets[c->target], -1);
        g_string_append_printf(out, "<tr><td>%s</td>", e);
        g_free(e);
        e = g_markup_escape_text(a->tests[c->test], -1);
        g_string_append_printf(out, "<td>%s</td>", e);
        g_free(e);
        for (k = 0; k < 6; k++) {
            e = g_markup_escape_text(cell[k]->str, -1);
            g_string_append_printf(out, "<td class=\"num\">%s</td>", e);
            g_free(e);
        }
        g_string_append_printf(out, "<td class=\"num\">%zu</td></tr>\n", cache_runs(c));
    }
    g_string_append(out, "</table>\n</section>\n");
    for (k = 0; k < 6; k++)
        g_string_free(cell[k], TRUE);
}

/* a CSV field of a mean in MiB, empty when not measured */
static void
csv_mib(GString *out, const struct vdc_stats_summary *s)
{
    g_string_append_c(out, ',');
    if (s->n)
        g_string_append_printf(out, "%.6g", s->mean / 1048576.0);
}

char *
vdc_host_cache_csv(const struct vdc_analysis *a)
{
    GString *out;
    size_t i;

    if (!a->n_cache)
        return NULL;
    out = g_string_new("target,test,n,moved_mib,disk_read_mib,disk_write_mib,image_resident_start_mib,"
                       "image_resident_end_mib,dom0_dirty_wb_start_mib,dom0_dirty_wb_end_mib,"
                       "dom0_cached_growth_mib\r\n");
    for (i = 0; i < a->n_cache; i++) {
        const struct vdc_host_cache *c = &a->cache[i];

        vdc_csv_field(out, a->targets[c->target]);
        g_string_append_c(out, ',');
        vdc_csv_field(out, a->tests[c->test]);
        g_string_append_printf(out, ",%zu", cache_runs(c));
        csv_mib(out, &c->moved);
        csv_mib(out, &c->disk_read);
        csv_mib(out, &c->disk_write);
        csv_mib(out, &c->resident[0]);
        csv_mib(out, &c->resident[1]);
        csv_mib(out, &c->dirty[0]);
        csv_mib(out, &c->dirty[1]);
        csv_mib(out, &c->cached_growth);
        g_string_append(out, "\r\n");
    }
    return g_string_free(out, FALSE);
}

static void
csv_summary(GString *out, const struct vdc_stats_summary *s)
{
    g_string_append_printf(out, ",%zu,", s->n);
    if (s->n)
        g_string_append_printf(out, "%.6g", s->mean);
    g_string_append_c(out, ',');
    if (s->has_ci_mean)
        g_string_append_printf(out, "%.6g,%.6g", s->ci_mean[0], s->ci_mean[1]);
    else
        g_string_append_c(out, ',');
}

char *
vdc_host_cost_csv(const struct vdc_analysis *a)
{
    GString *out;
    size_t i;

    if (!a->n_host)
        return NULL;
    out = g_string_new("target,test,role,n_runs,n,cpu_s_per_gib,ci95_lo,ci95_hi,"
                       "n_ios,cpu_s_per_1000_ios,ci95_ios_lo,ci95_ios_hi,attribution,reason\r\n");
    for (i = 0; i < a->n_host; i++) {
        const struct vdc_host_cost *c = &a->host[i];

        vdc_csv_field(out, a->targets[c->target]);
        g_string_append_c(out, ',');
        vdc_csv_field(out, a->tests[c->test]);
        g_string_append_printf(out, ",%s,%zu", c->role, c->n_runs);
        csv_summary(out, &c->per_gib);
        csv_summary(out, &c->per_kio);
        g_string_append_printf(out, ",%s,", c->attribution);
        vdc_csv_field(out, c->reason);
        g_string_append(out, "\r\n");
    }
    return g_string_free(out, FALSE);
}

static void
json_summary(JsonBuilder *b, const char *name, const struct vdc_stats_summary *s)
{
    if (!s->n)
        return;
    json_builder_set_member_name(b, name);
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "n");
    json_builder_add_int_value(b, (gint64)s->n);
    json_builder_set_member_name(b, "mean");
    json_builder_add_double_value(b, s->mean);
    if (s->has_ci_mean) {
        json_builder_set_member_name(b, "ci95_mean");
        json_builder_begin_array(b);
        json_builder_add_double_value(b, s->ci_mean[0]);
        json_builder_add_double_value(b, s->ci_mean[1]);
        json_builder_end_array(b);
    }
    json_builder_end_object(b);
}

void
vdc_host_cost_json(JsonBuilder *b, const struct vdc_analysis *a, size_t ti, size_t ki)
{
    size_t i;
    int open = 0;

    for (i = 0; i < a->n_host; i++) {
        const struct vdc_host_cost *c = &a->host[i];

        if (c->target != ti || c->test != ki)
            continue;
        if (!open) {
            json_builder_set_member_name(b, "host_cpu");
            json_builder_begin_object(b);
            open = 1;
        }
        json_builder_set_member_name(b, c->role);
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "runs");
        json_builder_add_int_value(b, (gint64)c->n_runs);
        json_builder_set_member_name(b, "attribution");
        json_builder_add_string_value(b, c->attribution);
        if (c->reason) {
            json_builder_set_member_name(b, "reason");
            json_builder_add_string_value(b, c->reason);
        }
        json_summary(b, "cpu_s_per_gib", &c->per_gib);
        json_summary(b, "cpu_s_per_1000_ios", &c->per_kio);
        json_builder_end_object(b);
    }
    if (open)
        json_builder_end_object(b);
    for (i = 0; i < a->n_cache; i++) {
        const struct vdc_host_cache *c = &a->cache[i];

        if (c->target != ti || c->test != ki)
            continue;
        json_builder_set_member_name(b, "dom0_page_cache");
        json_builder_begin_object(b);
        json_summary(b, "moved_bytes", &c->moved);
        json_summary(b, "disk_read_bytes", &c->disk_read);
        json_summary(b, "disk_write_bytes", &c->disk_write);
        json_summary(b, "image_resident_start_bytes", &c->resident[0]);
        json_summary(b, "image_resident_end_bytes", &c->resident[1]);
        json_summary(b, "dom0_dirty_writeback_start_bytes", &c->dirty[0]);
        json_summary(b, "dom0_dirty_writeback_end_bytes", &c->dirty[1]);
        json_summary(b, "dom0_cached_growth_bytes", &c->cached_growth);
        json_builder_end_object(b);
    }
}
