/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The HTML section of the host cost (hostcost.h): a cairo chart per
 * target and a table.  Apart from hostcost.c so that the analysis links
 * without cairo. */
#include "config.h"
#include "report/hostcost.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cairo.h>
#include <cairo-svg.h>

#include "common/util.h"
#include "report/analysis.h"

/* ---- HTML ------------------------------------------------------------------ */

#define HC_W 900.0
#define HC_H 380.0
#define HC_LEFT 80.0
#define HC_RIGHT 200.0
#define HC_TOP 40.0
#define HC_BOTTOM 70.0

static cairo_status_t
svg_append(void *closure, const unsigned char *data, unsigned int length)
{
    g_string_append_len(closure, (const char *)data, length);
    return CAIRO_STATUS_SUCCESS;
}

static const double role_rgb[VDC_HOST_N_ROLES][3] = {
    { 0.12, 0.47, 0.71 }, { 0.55, 0.34, 0.29 }, { 1.00, 0.50, 0.05 }, { 0.84, 0.15, 0.16 },
    { 0.58, 0.40, 0.74 }, { 0.17, 0.63, 0.17 }, { 0.89, 0.47, 0.76 }, { 0.50, 0.50, 0.50 },
    { 0.74, 0.74, 0.13 },
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

/* height of @v on a log10 axis from decade @dlo to @dhi over @ph points */
static double
log_h(double v, double dlo, double dhi, double ph)
{
    if (v <= 0)
        return 0;
    v = log10(v);
    return ph * (MIN(MAX(v, dlo), dhi) - dlo) / (dhi - dlo);
}

/* one target's chart: tests on x, a bar per role with a figure (dom0 busy
 * left out: it is the sum the others come from), its CI as a whisker; a
 * log scale, since a per-char test moves a thousandth of a block test's
 * bytes and costs per GiB that much more */
static char *
target_chart(const struct vdc_analysis *a, size_t ti, size_t *bars)
{
    GString *svg = g_string_new(NULL);
    cairo_surface_t *sf = cairo_svg_surface_create_for_stream(svg_append, svg, HC_W, HC_H);
    cairo_t *cr = cairo_create(sf);
    size_t i, nk = 0, nr = 0, *slot = g_new0(size_t, a->n_tests + 1);
    int used[VDC_HOST_N_ROLES] = { 0 }, ri[VDC_HOST_N_ROLES], r;
    double pw = HC_W - HC_LEFT - HC_RIGHT, ph = HC_H - HC_TOP - HC_BOTTOM, max = 0, min = 0, gw, bw;
    double dlo, dhi;
    char buf[64];
    int status;

    *bars = 0;
    for (i = 0; i < a->n_tests; i++)
        slot[i] = (size_t)-1;
    for (i = 0; i < a->n_host; i++) {
        const struct vdc_host_cost *c = &a->host[i];

        if (c->target != ti || !c->per_gib.n || !strcmp(c->role, "dom0_busy"))
            continue;
        used[role_index(c->role)] = 1;
        if (slot[c->test] == (size_t)-1)
            slot[c->test] = nk++;
        max = MAX(max, c->per_gib.has_ci_mean ? c->per_gib.ci_mean[1] : c->per_gib.mean);
        if (c->per_gib.mean > 0 && (min == 0 || c->per_gib.mean < min))
            min = c->per_gib.mean;
    }
    for (r = 0; r < VDC_HOST_N_ROLES; r++)
        ri[r] = used[r] ? (int)nr++ : -1;
    if (max <= 0 || min <= 0)
        min = max = 1;
    dlo = floor(log10(min));
    dhi = ceil(log10(max));
    if (!isfinite(dlo) || !isfinite(dhi))
        dlo = 0, dhi = 1;
    if (dhi <= dlo)
        dhi = dlo + 1;
    if (dhi - dlo > 16)          /* decades: a readable axis, a bounded loop */
        dlo = dhi - 16;
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 14);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_move_to(cr, HC_LEFT, 24);
    {
        g_autofree char *title = g_strdup_printf("%s: host CPU seconds per GiB moved (log scale; lower is better)",
                                                 a->targets[ti]);
        cairo_show_text(cr, title);
    }
    cairo_set_font_size(cr, 11);
    /* axes and y ticks */
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, HC_LEFT, HC_TOP);
    cairo_line_to(cr, HC_LEFT, HC_TOP + ph);
    cairo_line_to(cr, HC_LEFT + pw, HC_TOP + ph);
    cairo_stroke(cr);
    for (i = 0; i <= (size_t)(dhi - dlo); i++) {
        double v = pow(10, dlo + (double)i), y = HC_TOP + ph - ph * (double)i / (dhi - dlo);

        snprintf(buf, sizeof(buf), v >= 1 ? "%.0f" : "%g", v);
        cairo_move_to(cr, 8, y + 4);
        cairo_show_text(cr, buf);
        cairo_set_source_rgba(cr, 0, 0, 0, 0.15);
        cairo_move_to(cr, HC_LEFT, y);
        cairo_line_to(cr, HC_LEFT + pw, y);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
    }
    gw = nk ? pw / (double)nk : pw;
    bw = nr ? gw * 0.8 / (double)nr : gw;
    for (i = 0; i < a->n_tests; i++)
        if (slot[i] != (size_t)-1) {
            cairo_move_to(cr, HC_LEFT + gw * (double)slot[i] + 4, HC_TOP + ph + 18);
            cairo_show_text(cr, a->tests[i]);
        }
    for (i = 0; i < a->n_host; i++) {
        const struct vdc_host_cost *c = &a->host[i];
        int k;
        double x, h;

        if (c->target != ti || !c->per_gib.n || !strcmp(c->role, "dom0_busy"))
            continue;
        k = ri[role_index(c->role)];
        x = HC_LEFT + gw * (double)slot[c->test] + gw * 0.1 + bw * k;
        h = log_h(c->per_gib.mean, dlo, dhi, ph);
        cairo_set_source_rgb(cr, role_rgb[role_index(c->role)][0], role_rgb[role_index(c->role)][1],
                             role_rgb[role_index(c->role)][2]);
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
    /* legend */
    for (r = 0; r < VDC_HOST_N_ROLES; r++)
        if (ri[r] >= 0) {
            double y = HC_TOP + 18.0 * ri[r];

            cairo_set_source_rgb(cr, role_rgb[r][0], role_rgb[r][1], role_rgb[r][2]);
            cairo_rectangle(cr, HC_LEFT + pw + 12, y, 10, 10);
            cairo_fill(cr);
            cairo_set_source_rgb(cr, 0, 0, 0);
            cairo_move_to(cr, HC_LEFT + pw + 26, y + 9);
            cairo_show_text(cr, vdc_host_role_label(vdc_host_roles[r]));
        }
    cairo_destroy(cr);
    cairo_surface_finish(sf);
    status = cairo_surface_status(sf);
    cairo_surface_destroy(sf);
    g_free(slot);
    if (status != CAIRO_STATUS_SUCCESS) {
        vdc_error("host cost chart of %s: cairo: %s", a->targets[ti],
                  cairo_status_to_string((cairo_status_t)status));
        g_string_free(svg, TRUE);
        return NULL;
    }
    return g_string_free(svg, FALSE);
}

/* every id of a cairo SVG document prefixed, so that two charts inlined
 * in one page do not share glyph and clip ids (as render_html.c does) */
static char *
prefixed(const char *svg, const char *prefix)
{
    static const char *const refs[] = { "id=\"", "href=\"#", "url(#" };
    char *cur = g_strdup(svg);
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(refs); i++) {
        g_autofree char *pat = g_strdup_printf("%s%s-", refs[i], prefix);
        char **parts = g_strsplit(cur, refs[i], -1);

        g_free(cur);
        cur = g_strjoinv(pat, parts);
        g_strfreev(parts);
    }
    return cur;
}

int
vdc_host_cost_html(GString *out, const struct vdc_analysis *a)
{
    size_t ti, i;

    vdc_host_cache_html(out, a);
    if (!a->n_host)
        return 0;
    g_string_append(out, "<section id=\"host-cost\">\n<h2>Host CPU per backend</h2>\n<p class=\"note\">");
    {
        char *e = g_markup_escape_text(vdc_host_cost_note, -1);

        g_string_append(out, e);
        g_free(e);
    }
    g_string_append(out, "</p>\n");
    for (ti = 0; ti < a->n_targets; ti++) {
        size_t bars = 0;
        char *svg = target_chart(a, ti, &bars), *fixed;
        g_autofree char *id = g_strdup_printf("chart-host-%zu", ti);

        if (!svg)
            return -1;
        if (!bars) {
            g_free(svg);
            continue;
        }
        fixed = prefixed(svg, id);
        g_string_append_printf(out, "<figure id=\"%s\" class=\"chart\" data-points=\"%zu\">\n%s\n"
                                    "<figcaption>", id, bars, fixed);
        {
            g_autofree char *cap = g_strdup_printf("Host CPU seconds per GiB the backend moved, by role, "
                                                   "for %s; whiskers: 95 %% CI of the mean.",
                                                   a->targets[ti]);
            char *e = g_markup_escape_text(cap, -1);

            g_string_append(out, e);
            g_free(e);
        }
        g_string_append(out, "</figcaption></figure>\n");
        g_free(svg);
        g_free(fixed);
    }
    g_string_append(out, "<table class=\"host\" id=\"host-cost-table\">\n<tr><th>Target</th><th>Test</th>"
                         "<th>Role</th><th>CPU s per GiB</th><th>CPU s per 1,000 I/Os</th><th>n</th></tr>\n");
    for (i = 0; i < a->n_host; i++) {
        const struct vdc_host_cost *c = &a->host[i];
        GString *g = g_string_new(NULL), *k = g_string_new(NULL);
        char *t = g_markup_escape_text(a->targets[c->target], -1);
        char *ks = g_markup_escape_text(a->tests[c->test], -1);

        g_string_append_printf(out, "<tr><td>%s</td><td>%s</td><td>%s</td>", t, ks,
                               vdc_host_role_label(c->role));
        if (strcmp(c->attribution, "exact") && !c->per_gib.n && !c->per_kio.n) {
            char *why = g_markup_escape_text(c->reason ? c->reason : "no reason recorded", -1);

            g_string_append_printf(out, "<td colspan=\"3\">not attributable (%s): %s; see dom0 other</td>",
                                   c->attribution, why);
            g_free(why);
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
    g_string_append(out, "</table>\n</section>\n");
    return 0;
}
