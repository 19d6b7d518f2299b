/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host CPU per backend and dom0's page cache (hostcost.h), rendered:
 * the sections of report.txt, report.md and report.html (a cairo chart
 * per target and the tables), host-cost.csv and page-cache.csv
 * (render_hostcost.h).  Only printing: every figure is the analysis's. */
#include "config.h"

#include "report/render_hostcost.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cairo.h>
#include <glib.h>

#include "common/escape.h"
#include "common/util.h"
#include "report/layout.h"
#include "report/render_chart.h"
#include "report/render_svg.h"
#include "report/layout.h"
#include "report/render_escape.h"

static void host_cache_text(GString *out, const struct vdc_analysis *a);
static void host_cache_markdown(GString *out, const struct vdc_analysis *a);

/* A role of a cell that has no figure, only its attribution and reason. */
static int
no_figure(const struct vdc_host_cost *c)
{
    return strcmp(c->attribution, "exact") && !c->per_gib.n && !c->per_kio.n;
}

/* What a table prints instead of the figure (no_figure): "not
 * attributable (shared): REASON; see dom0 other", "no figure
 * (inconsistent): REASON"; g_free. */
static char *
no_figure_text(const struct vdc_host_cost *c)
{
    const char *why = c->reason ? c->reason : "no reason recorded";

    if (!strcmp(c->attribution, "inconsistent"))
        return g_strdup_printf("no figure (inconsistent): %s", why);
    return g_strdup_printf("not attributable (%s): %s; see dom0 other", c->attribution, why);
}

/* 1 when a row of the host CPU table has no figure because the counters
 * disagreed */
static int
any_inconsistent(const struct vdc_analysis *a)
{
    size_t i;

    for (i = 0; i < a->n_host; i++)
        if (no_figure(&a->host[i]) && !strcmp(a->host[i].attribution, "inconsistent"))
            return 1;
    return 0;
}

/* 1 when a row of the host CPU table prints an interval cut at 0 */
static int
any_cut(const struct vdc_analysis *a)
{
    size_t i;

    for (i = 0; i < a->n_host; i++)
        if (!no_figure(&a->host[i]) && vdc_host_cost_cut(&a->host[i]))
            return 1;
    return 0;
}

const char vdc_host_cost_note[] =
    "CPU seconds of what served each test in dom0 per GiB the backend moved and per 1,000 of its "
    "I/Os (virDomainBlockStats, blkback statistics, or the dom0 loop device's counters), mean "
    "[95 % CI of the mean] over the runs; dom0 other = dom0 busy + steal minus the exactly attributed "
    "servers (it holds shared kworkers' work, writeback and anything else dom0 ran; a server's own "
    "CPU time counts the steal /proc/stat leaves out of busy).";

/* report.txt's host tables and their notes: at most this wide */
#define HC_TEXT_WIDTH 100

/* A row's lead in report.txt's host tables: 4 blanks, @s padded to @w
 * columns, 2 blanks (g_free). */
static char *
text_lead(const char *s, int w)
{
    GString *l = g_string_new("    ");

    vdc_layout_pad(l, s, w, 0);
    g_string_append(l, "  ");
    return g_string_free(l, FALSE);
}

/* @n blanks (g_free) */
static char *
blanks(int n)
{
    char *b = g_malloc((size_t)MAX(n, 0) + 1);

    memset(b, ' ', (size_t)MAX(n, 0));
    b[MAX(n, 0)] = '\0';
    return b;
}

void
vdc_host_cost_text(GString *out, const struct vdc_analysis *a)
{
    static const char head_g[] = "CPU s per GiB", head_k[] = "CPU s per 1,000 I/Os";
    int rw = 4, gw = (int)strlen(head_g), kw = (int)strlen(head_k), nw = 1;
    GString **g, **k;
    size_t i;

    host_cache_text(out, a);
    if (!a->n_host)
        return;
    /* the columns as wide as their widest cell: role, the two figures
     * right-aligned, n; a row per role under its target and test */
    g = g_new0(GString *, a->n_host);
    k = g_new0(GString *, a->n_host);
    for (i = 0; i < a->n_host; i++) {
        const struct vdc_host_cost *c = &a->host[i];

        rw = MAX(rw, vdc_layout_width(vdc_host_role_label(c->role)));
        if (no_figure(c))
            continue;
        g[i] = g_string_new(NULL);
        k[i] = g_string_new(NULL);
        vdc_host_cost_fmt(g[i], &c->per_gib);
        vdc_host_cost_fmt(k[i], &c->per_kio);
        if (!g[i]->len)
            g_string_assign(g[i], "-");
        if (!k[i]->len)
            g_string_assign(k[i], "-");
        gw = MAX(gw, vdc_layout_width(g[i]->str));
        kw = MAX(kw, vdc_layout_width(k[i]->str));
        nw = MAX(nw, snprintf(NULL, 0, "%zu", MAX(c->per_gib.n, c->per_kio.n)));
    }
    g_string_append(out, "\nHost CPU per backend\n");
    vdc_layout_wrap(out, "  ", "  ", vdc_host_cost_note, HC_TEXT_WIDTH);
    g_string_append(out, "  Target, test\n");
    {
        g_autofree char *lead = text_lead("Role", rw);

        g_string_append(out, lead);
        vdc_layout_pad(out, head_g, gw, 1);
        g_string_append(out, "  ");
        vdc_layout_pad(out, head_k, kw, 1);
        g_string_append(out, "  ");
        vdc_layout_pad(out, "n", nw, 1);
        g_string_append_c(out, '\n');
    }
    for (i = 0; i < a->n_host; i++) {
        const struct vdc_host_cost *c = &a->host[i];
        g_autofree char *lead = text_lead(vdc_host_role_label(c->role), rw);

        if (!i || c->target != a->host[i - 1].target || c->test != a->host[i - 1].test) {
            char label[VDC_TEST_LABEL_MAX];
            g_autofree char *head = g_strdup_printf("%s, %s", a->targets[c->target],
                                                    vdc_analysis_test_label(a, c->test, label, sizeof(label)));
            g_autofree char *t = vdc_escape_text(head, -1, 0);

            vdc_layout_wrap(out, "  ", "    ", t, HC_TEXT_WIDTH);
        }
        if (no_figure(c)) {
            g_autofree char *text = no_figure_text(c);
            g_autofree char *why = vdc_escape_text(text, -1, 0);
            g_autofree char *rest = blanks(vdc_layout_width(lead));

            vdc_layout_wrap(out, lead, rest, why, HC_TEXT_WIDTH);
            continue;
        }
        g_string_append(out, lead);
        vdc_layout_pad(out, g[i]->str, gw, 1);
        g_string_append(out, "  ");
        vdc_layout_pad(out, k[i]->str, kw, 1);
        g_string_append_printf(out, "  %*zu\n", nw, MAX(c->per_gib.n, c->per_kio.n));
    }
    for (i = 0; i < a->n_host; i++) {
        if (g[i])
            g_string_free(g[i], TRUE);
        if (k[i])
            g_string_free(k[i], TRUE);
    }
    g_free(g);
    g_free(k);
    if (any_cut(a))
        g_string_append_printf(out, "  %s\n", vdc_host_cost_cut_note);
    if (any_inconsistent(a))
        vdc_layout_wrap(out, "  ", "  ", vdc_host_cost_inconsistent_note, HC_TEXT_WIDTH);
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
        char label[VDC_TEST_LABEL_MAX];

        g_string_append(out, "| ");
        vdc_md_escape(out, a->targets[c->target]);
        g_string_append(out, " | ");
        vdc_md_escape(out, vdc_analysis_test_label(a, c->test, label, sizeof(label)));
        g_string_append(out, " | ");
        vdc_md_escape(out, vdc_host_role_label(c->role));
        if (no_figure(c)) {
            g_autofree char *text = no_figure_text(c);

            g_string_append(out, " | ");
            vdc_md_escape(out, text);
            g_string_append(out, " | | |\n");
        } else {
            vdc_host_cost_fmt(g, &c->per_gib);
            vdc_host_cost_fmt(k, &c->per_kio);
            g_string_append_printf(out, " | %s | %s | %zu |\n", g->len ? g->str : "",
                                   k->len ? k->str : "", MAX(c->per_gib.n, c->per_kio.n));
        }
        g_string_free(g, TRUE);
        g_string_free(k, TRUE);
    }
    if (any_cut(a)) {
        g_string_append(out, "\n");
        vdc_md_escape(out, vdc_host_cost_cut_note);
        g_string_append(out, "\n");
    }
    if (any_inconsistent(a)) {
        g_string_append(out, "\n");
        vdc_md_escape(out, vdc_host_cost_inconsistent_note);
        g_string_append(out, "\n");
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
    GString **cells;
    int w[7], kw = 4, figures;
    size_t i, j;
    char label[VDC_TEST_LABEL_MAX];

    if (!a->n_cache)
        return;
    /* a row per test under its target, the test as the report names it;
     * the figures right-aligned in columns as wide as their widest cell or
     * the heading's words, the headings on two lines ("disk" over "read");
     * a test's name too wide for its row to fit HC_TEXT_WIDTH stands on a
     * line of its own above the row's figures */
    cells = g_new0(GString *, a->n_cache * 6);
    for (j = 0; j < 6; j++) {
        const char *sp = strchr(cache_heads[j], ' ');

        w[j] = sp ? MAX((int)(sp - cache_heads[j]), (int)strlen(sp + 1)) : (int)strlen(cache_heads[j]);
    }
    w[6] = 1;
    for (i = 0; i < a->n_cache; i++) {
        for (j = 0; j < 6; j++)
            cells[i * 6 + j] = g_string_new(NULL);
        cache_cells(&a->cache[i], &cells[i * 6]);
        for (j = 0; j < 6; j++)
            w[j] = MAX(w[j], vdc_layout_width(cells[i * 6 + j]->str));
        w[6] = MAX(w[6], snprintf(NULL, 0, "%zu", cache_runs(&a->cache[i])));
        kw = MAX(kw, vdc_layout_width(vdc_analysis_test_label(a, a->cache[i].test, label, sizeof(label))));
    }
    for (figures = w[6], j = 0; j < 6; j++)
        figures += w[j] + 2;
    kw = MIN(kw, MAX(4, HC_TEXT_WIDTH - 6 - figures));
    g_string_append(out, "\ndom0 page cache around each test\n");
    vdc_layout_wrap(out, "  ", "  ", vdc_host_cache_note, HC_TEXT_WIDTH);
    g_string_append(out, "  Target\n");
    for (i = 0; i < 2; i++) {
        g_autofree char *lead = text_lead(i ? "Test" : "", kw);

        g_string_append(out, lead);
        for (j = 0; j < 6; j++) {
            const char *h = cache_heads[j], *sp = strchr(h, ' ');
            g_autofree char *word = sp && !i ? g_strndup(h, (gsize)(sp - h)) : g_strdup(sp ? sp + 1 : i ? h : "");

            vdc_layout_pad(out, word, w[j], 1);
            g_string_append(out, "  ");
        }
        vdc_layout_pad(out, i ? "n" : "", w[6], 1);
        /* no blanks at the end of a line */
        while (out->len && out->str[out->len - 1] == ' ')
            g_string_truncate(out, out->len - 1);
        g_string_append_c(out, '\n');
    }
    for (i = 0; i < a->n_cache; i++) {
        const struct vdc_host_cache *c = &a->cache[i];
        const char *name = vdc_analysis_test_label(a, c->test, label, sizeof(label));
        g_autofree char *lead = NULL;

        if (!i || c->target != a->cache[i - 1].target) {
            g_autofree char *t = vdc_escape_text(a->targets[c->target], -1, 0);

            vdc_layout_wrap(out, "  ", "    ", t, HC_TEXT_WIDTH);
        }
        if (vdc_layout_width(name) > kw) {
            g_string_append_printf(out, "    %s\n", name);
            name = "";
        }
        lead = text_lead(name, kw);
        g_string_append(out, lead);
        for (j = 0; j < 6; j++) {
            vdc_layout_pad(out, cells[i * 6 + j]->str, w[j], 1);
            g_string_append(out, "  ");
        }
        g_string_append_printf(out, "%*zu\n", w[6], cache_runs(c));
    }
    for (i = 0; i < a->n_cache * 6; i++)
        g_string_free(cells[i], TRUE);
    g_free(cells);
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
        char label[VDC_TEST_LABEL_MAX];

        cache_cells(c, cell);
        g_string_append(out, "| ");
        vdc_md_escape(out, a->targets[c->target]);
        g_string_append(out, " | ");
        vdc_md_escape(out, vdc_analysis_test_label(a, c->test, label, sizeof(label)));
        for (k = 0; k < 6; k++)
            g_string_append_printf(out, " | %s", cell[k]->str);
        g_string_append_printf(out, " | %zu |\n", cache_runs(c));
    }
    g_string_append_c(out, '\n');
    for (k = 0; k < 6; k++)
        g_string_free(cell[k], TRUE);
}

/* the page-cache table as HTML */
static void
host_cache_html(GString *out, const struct vdc_analysis *a)
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
        char label[VDC_TEST_LABEL_MAX];

        cache_cells(c, cell);
        e = g_markup_escape_text(a->targets[c->target], -1);
        g_string_append_printf(out, "<tr><td>%s</td>", e);
        g_free(e);
        e = g_markup_escape_text(vdc_analysis_test_label(a, c->test, label, sizeof(label)), -1);
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

/* ---- HTML ------------------------------------------------------------------ */

#define HC_W 900.0
#define HC_PH 250.0              /* the plot's height */
#define HC_LEFT 80.0
#define HC_RIGHT 20.0
#define HC_TOP 44.0
#define HC_LEGEND 12.0           /* the legend's font */

static const double role_rgb[VDC_HOST_N_ROLES][3] = {
    { 0.12, 0.47, 0.71 }, { 0.55, 0.34, 0.29 }, { 1.00, 0.50, 0.05 }, { 0.84, 0.15, 0.16 },
    { 0.58, 0.40, 0.74 }, { 0.17, 0.63, 0.17 }, { 0.89, 0.47, 0.76 }, { 0.50, 0.50, 0.50 },
    { 0.30, 0.55, 0.65 }, { 0.74, 0.74, 0.13 },
};

static int
role_index(const char *role)
{
    int r;

    for (r = 0; r < VDC_HOST_N_ROLES; r++)
        if (!strcmp(vdc_host_roles[r], role))
            return r;
    return 0;
}

/* 1 when target @ti's chart draws its domU's vCPU time (role "domu"),
 * which is the guest's time, not dom0's */
static int
charts_vcpus(const struct vdc_analysis *a, size_t ti)
{
    size_t i;

    for (i = 0; i < a->n_host; i++)
        if (a->host[i].target == ti && !strcmp(a->host[i].role, "domu") && a->host[i].per_gib.n)
            return 1;
    return 0;
}

/* height of @v on a log10 axis from decade @dlo to @dhi over @ph points */
static double
log_h(double v, double dlo, double dhi, double ph)
{
    if (v <= 0)
        return 0;
    v = log10(v);
    return ph * (MIN(MAX(v, dlo), dhi) - dlo) / (dhi - dlo);
}

/* A role of target @ti drawn in its chart: a figure per GiB (dom0 busy
 * and steal left out: busy is the sum the others come from, steal is
 * inside dom0 other), or no figure because the counters disagreed. */
static int
charted(const struct vdc_host_cost *c, size_t ti)
{
    return c->target == ti && strcmp(c->role, "dom0_busy") && strcmp(c->role, "dom0_steal") &&
           (c->per_gib.n || !strcmp(c->attribution, "inconsistent"));
}

/* The layout of one target's chart. */
/* from the plot's bottom to the legend's first baseline */
#define HC_LABELS(l) (40.0 + 12.0 * (double)((l)->label_lines - 1))
struct hc_layout {
    size_t *slot;                /* per test: its group on x, (size_t)-1 none */
    size_t nk, nr;               /* groups, roles drawn */
    int ri[VDC_HOST_N_ROLES];    /* per role: its place in a group, -1 none */
    struct vdc_svg_key keys[VDC_HOST_N_ROLES];
    char *flagged;               /* "dom0 other: no figure in seeks, rewrite ..." or NULL */
    size_t legend_rows;
    int label_lines;             /* the x labels' lines (1 or 2) */
    double h;
};

static void
hc_layout(const struct vdc_analysis *a, size_t ti, struct hc_layout *l)
{
    int used[VDC_HOST_N_ROLES] = { 0 }, r;
    GString *flagged[VDC_HOST_N_ROLES] = { NULL };
    GString *note = g_string_new(NULL);
    size_t i;

    memset(l, 0, sizeof(*l));
    l->slot = g_new(size_t, a->n_tests + 1);
    for (i = 0; i < a->n_tests; i++)
        l->slot[i] = (size_t)-1;
    for (i = 0; i < a->n_host; i++) {
        const struct vdc_host_cost *c = &a->host[i];

        if (!charted(c, ti))
            continue;
        used[role_index(c->role)] = 1;
        if (l->slot[c->test] == (size_t)-1)
            l->slot[c->test] = l->nk++;
        if (!c->per_gib.n) {
            GString **f = &flagged[role_index(c->role)];
            char label[VDC_TEST_LABEL_MAX];

            if (!*f)
                *f = g_string_new(NULL);
            g_string_append_printf(*f, "%s%s", (*f)->len ? ", " : "",
                                   vdc_chart_test_label(a, c->test, label, sizeof(label)));
        }
    }
    for (r = 0; r < VDC_HOST_N_ROLES; r++) {
        l->ri[r] = used[r] ? (int)l->nr : -1;
        if (used[r]) {
            l->keys[l->nr].label = vdc_host_role_label(vdc_host_roles[r]);
            memcpy(l->keys[l->nr++].rgb, role_rgb[r], sizeof(role_rgb[r]));
        }
        if (flagged[r]) {
            g_string_append_printf(note, "%s%s: no figure in %s (the counters disagree: the table says why)",
                                   note->len ? "; " : "", vdc_host_role_label(vdc_host_roles[r]),
                                   flagged[r]->str);
            g_string_free(flagged[r], TRUE);
        }
    }
    l->flagged = note->len ? g_string_free(note, FALSE) : (g_string_free(note, TRUE), NULL);
    l->legend_rows = vdc_svg_legend_rows(l->keys, l->nr, HC_W - HC_LEFT - HC_RIGHT, HC_LEGEND);
    l->label_lines = 1;
    for (i = 0; i < a->n_tests; i++)
        if (l->slot[i] != (size_t)-1) {
            char label[VDC_TEST_LABEL_MAX];
            struct vdc_svg_fit fit;

            vdc_svg_fit_plan(vdc_chart_test_label(a, i, label, sizeof(label)), 11,
                             (HC_W - HC_LEFT - HC_RIGHT) / (double)l->nk - 6, 8.5, 0, &fit);
            l->label_lines = MAX(l->label_lines, fit.lines);
        }
    l->h = HC_TOP + HC_PH + HC_LABELS(l) + 18.0 * (double)l->legend_rows + (l->flagged ? 34 : 4);
}

/* one target's chart: tests on x, a bar per role with a figure (dom0 busy
 * and steal left out, charted()), its CI as a whisker, "n/a" where the
 * counters gave no figure; a log scale, since a per-char test moves a
 * thousandth of a block test's bytes and costs per GiB that much more;
 * the legend of the roles under the plot, then the flagged roles */
static char *
target_chart(const struct vdc_analysis *a, size_t ti, size_t *bars, size_t *flagged)
{
    struct hc_layout l;
    cairo_t *cr;
    double pw = HC_W - HC_LEFT - HC_RIGHT, ph = HC_PH, max = 0, min = 0, gw, bw;
    double dlo, dhi;
    char buf[64], *out;
    size_t i;

    *bars = *flagged = 0;
    hc_layout(a, ti, &l);
    for (i = 0; i < a->n_host; i++) {
        const struct vdc_host_cost *c = &a->host[i];

        if (!charted(c, ti) || !c->per_gib.n)
            continue;
        max = MAX(max, c->per_gib.has_ci_mean ? c->per_gib.ci_mean[1] : c->per_gib.mean);
        if (c->per_gib.mean > 0 && (min == 0 || c->per_gib.mean < min))
            min = c->per_gib.mean;
    }
    if (max <= 0 || min <= 0)
        min = max = 1;
    /* the smallest bar at least log10(2) of a decade tall: a 10.2 on an
     * axis from 10 would draw no bar at all */
    dlo = floor(log10(min / 2));
    dhi = ceil(log10(max));
    if (!isfinite(dlo) || !isfinite(dhi))
        dlo = 0, dhi = 1;
    if (dhi <= dlo)
        dhi = dlo + 1;
    if (dhi - dlo > 16)          /* decades: a readable axis, a bounded loop */
        dlo = dhi - 16;
    cr = vdc_svg_begin(HC_W, l.h);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 14);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    {
        /* titled for what its bars sum: a domU's vCPUs are no dom0 time */
        g_autofree char *title = g_strdup_printf("%s: %s CPU seconds per GiB moved (log scale; lower is better)",
                                                 a->targets[ti], charts_vcpus(a, ti) ? "dom0's and the domU's "
                                                 "vCPUs'" : "dom0's");
        vdc_svg_set_class(cr, "title");
        vdc_svg_text_fit(cr, HC_W / 2, 24, title, 0.5, HC_W - 20, 10, 16);
        vdc_svg_set_class(cr, NULL);
    }
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 11);
    /* axes and y ticks */
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, HC_LEFT, HC_TOP);
    cairo_line_to(cr, HC_LEFT, HC_TOP + ph);
    cairo_line_to(cr, HC_LEFT + pw, HC_TOP + ph);
    cairo_stroke(cr);
    for (i = 0; i <= (size_t)(dhi - dlo); i++) {
        double y = HC_TOP + ph - ph * (double)i / (dhi - dlo);

        vdc_chart_decade(buf, sizeof(buf), dlo + (double)i);
        cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
        vdc_svg_text(cr, HC_LEFT - 6, y + 4, buf, 1.0);
        cairo_set_source_rgba(cr, 0, 0, 0, 0.15);
        cairo_move_to(cr, HC_LEFT, y);
        cairo_line_to(cr, HC_LEFT + pw, y);
        cairo_stroke(cr);
    }
    gw = l.nk ? pw / (double)l.nk : pw;
    bw = l.nr ? gw * 0.8 / (double)l.nr : gw;
    cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
    vdc_svg_set_class(cr, "xlabel");
    for (i = 0; i < a->n_tests; i++)
        if (l.slot[i] != (size_t)-1) {
            char label[VDC_TEST_LABEL_MAX];

            vdc_svg_text_fit(cr, HC_LEFT + gw * ((double)l.slot[i] + 0.5), HC_TOP + ph + 18,
                             vdc_chart_test_label(a, i, label, sizeof(label)), 0.5, gw - 6, 8.5, 12);
        }
    vdc_svg_set_class(cr, NULL);
    for (i = 0; i < a->n_host; i++) {
        const struct vdc_host_cost *c = &a->host[i];
        int r = role_index(c->role);
        double x, h;

        if (!charted(c, ti))
            continue;
        x = HC_LEFT + gw * (double)l.slot[c->test] + gw * 0.1 + bw * l.ri[r];
        if (!c->per_gib.n) {
            /* no figure: said where the bar would be, never left out */
            cairo_save(cr);
            cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
            cairo_set_font_size(cr, fmin(10, bw * 0.8));
            cairo_translate(cr, x + bw * 0.45 + 3, HC_TOP + ph - 4);
            cairo_rotate(cr, -M_PI / 2);
            vdc_svg_text(cr, 0, 0, "n/a", 0);
            cairo_restore(cr);
            (*flagged)++;
            continue;
        }
        h = log_h(c->per_gib.mean, dlo, dhi, ph);
        cairo_set_source_rgb(cr, role_rgb[r][0], role_rgb[r][1], role_rgb[r][2]);
        cairo_rectangle(cr, x, HC_TOP + ph - h, bw * 0.9, h);
        cairo_fill(cr);
        if (c->per_gib.has_ci_mean) {
            double y0 = HC_TOP + ph - log_h(c->per_gib.ci_mean[0], dlo, dhi, ph);
            double y1 = HC_TOP + ph - log_h(c->per_gib.ci_mean[1], dlo, dhi, ph);

            cairo_set_source_rgb(cr, 0, 0, 0);
            cairo_move_to(cr, x + bw * 0.45, y0);
            cairo_line_to(cr, x + bw * 0.45, y1);
            cairo_stroke(cr);
        }
        (*bars)++;
    }
    vdc_svg_legend(cr, l.keys, l.nr, HC_LEFT, pw, HC_TOP + ph + HC_LABELS(&l), HC_LEGEND, 18, VDC_SVG_SQUARE);
    if (l.flagged) {
        cairo_set_font_size(cr, 11);
        cairo_set_source_rgb(cr, 0.45, 0.1, 0.1);
        vdc_svg_text_fit(cr, HC_W / 2, HC_TOP + ph + HC_LABELS(&l) + 18.0 * (double)l.legend_rows + 4, l.flagged, 0.5,
                         HC_W - 20, 8, 13);
    }
    g_free(l.slot);
    g_free(l.flagged);
    out = vdc_svg_finish(cr, a->targets[ti]);
    return out;
}

int
vdc_host_cost_html(GString *out, const struct vdc_analysis *a, int *fig)
{
    size_t ti, i;

    host_cache_html(out, a);
    if (!a->n_host)
        return 0;
    g_string_append(out, "<section id=\"host-cost\">\n<h2>Host CPU per backend</h2>\n<p class=\"note\">");
    vdc_html_escape(out, vdc_host_cost_note);
    g_string_append(out, "</p>\n");
    for (ti = 0; ti < a->n_targets; ti++) {
        size_t bars = 0, flagged = 0;
        char *svg = target_chart(a, ti, &bars, &flagged), *fixed;
        g_autofree char *id = g_strdup_printf("chart-host-%zu", ti);

        if (!svg)
            return -1;
        if (!bars && !flagged) {
            g_free(svg);
            continue;
        }
        fixed = vdc_svg_prefix_ids(svg, id);
        ++*fig;
        g_string_append_printf(out, "<figure id=\"%s\" class=\"chart\" data-figure=\"%d\" data-points=\"%zu\" "
                                    "data-flagged=\"%zu\">\n%s\n<figcaption><b>Figure %d</b>: ", id, *fig, bars,
                               flagged, fixed, *fig);
        {
            int vcpus = charts_vcpus(a, ti);
            g_autofree char *cap = NULL;

            /* what the bars sum: dom0's roles, and the domU's vCPUs where drawn */
            cap = g_strdup_printf("CPU seconds per GiB the backend moved, by role, for %s: %s; whiskers: 95 %% CI "
                                  "of the mean%s", a->targets[ti],
                                  vcpus ? "dom0's servers and dom0 other, and the domU's vCPUs as the hypervisor "
                                  "counts them (the guest's time, not dom0's)" : "dom0's roles",
                                  flagged ? "; n/a: no figure (the counters disagreed, the table below says "
                                  "why)." : ".");
            vdc_html_escape(out, cap);
        }
        g_string_append(out, "</figcaption></figure>\n");
        g_free(svg);
        g_free(fixed);
    }
    g_string_append_printf(out, "<details class=\"long\" id=\"host-cost-details\"><summary><h3>The table: every "
                                "target, test and role (%zu rows)</h3></summary>\n<div class=\"tablewrap\">\n",
                           a->n_host);
    g_string_append(out, "<table class=\"host\" id=\"host-cost-table\">\n<tr><th>Target</th><th>Test</th>"
                         "<th>Role</th><th>CPU s per GiB</th><th>CPU s per 1,000 I/Os</th><th>n</th></tr>\n");
    for (i = 0; i < a->n_host; i++) {
        const struct vdc_host_cost *c = &a->host[i];
        GString *g = g_string_new(NULL), *k = g_string_new(NULL);
        char *t = g_markup_escape_text(a->targets[c->target], -1);
        char label[VDC_TEST_LABEL_MAX];
        char *ks = g_markup_escape_text(vdc_analysis_test_label(a, c->test, label, sizeof(label)), -1);

        g_string_append_printf(out, "<tr><td>%s</td><td>%s</td><td>%s</td>", t, ks,
                               vdc_host_role_label(c->role));
        if (no_figure(c)) {
            g_autofree char *text = no_figure_text(c);

            g_string_append(out, "<td colspan=\"3\" class=\"l\">");
            vdc_html_escape(out, text);
            g_string_append(out, "</td>");
        } else {
            vdc_host_cost_fmt(g, &c->per_gib);
            vdc_host_cost_fmt(k, &c->per_kio);
            g_string_append_printf(out, "<td>%s</td><td>%s</td><td>%zu</td>", g->str, k->str,
                                   MAX(c->per_gib.n, c->per_kio.n));
        }
        g_string_append(out, "</tr>\n");
        g_string_free(g, TRUE);
        g_string_free(k, TRUE);
        g_free(t);
        g_free(ks);
    }
    g_string_append(out, "</table>\n</div>\n");
    if (any_cut(a)) {
        g_string_append(out, "<p class=\"note\" id=\"host-cost-cut\">");
        vdc_html_escape(out, vdc_host_cost_cut_note);
        g_string_append(out, "</p>\n");
    }
    if (any_inconsistent(a)) {
        g_string_append(out, "<p class=\"note\" id=\"host-cost-inconsistent\">");
        vdc_html_escape(out, vdc_host_cost_inconsistent_note);
        g_string_append(out, "</p>\n");
    }
    g_string_append(out, "</details>\n</section>\n");
    return 0;
}
