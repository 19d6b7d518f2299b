/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Many guests at once in report.html (render_density.h): the scaling
 * figures on the SVG canvas (cairo) and the table; apart from
 * render_density.c so that the text, CSV and JSON need no cairo. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <cairo.h>
#include <glib.h>

#include "common/util.h"
#include "model/result.h"
#include "report/render_density.h"
#include "report/render_escape.h"
#include "report/render_chart.h"
#include "report/render_fmt.h"
#include "report/render_svg.h"

#define SC_W 760.0
#define SC_PANEL_W 330.0
#define SC_PANEL_H 200.0
#define SC_TOP 40.0
#define SC_LEFT 62.0

/* The colour of density target @ti: its target's in every other figure
 * (vdc_chart_rgb, by name in the analysis). */
static const double *
target_rgb(const struct vdc_analysis *a, const struct vdc_density *d, size_t ti)
{
    size_t i;

    for (i = 0; i < a->n_targets; i++)
        if (!strcmp(a->targets[i], d->targets[ti]))
            return vdc_chart_rgb(i);
    return vdc_chart_rgb(ti);
}

/* The top of an axis from 0 over @v: 4 steps of 1, 2, 2.5 or 5 x 10^k */
static double
nice_top(double v)
{
    static const double m[] = { 1, 2, 2.5, 5, 10 };
    double step = v / 4, p = pow(10, floor(log10(step)));
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(m); i++)
        if (m[i] * p >= step)
            return 4 * m[i] * p;
    return 4 * 10 * p;
}

/* One panel at x0: @what of test @ki (0 aggregate, 1 p99) against N */
static void
scaling_panel(cairo_t *cr, const struct vdc_analysis *a, size_t ki, int what, double x0, const char *title)
{
    const struct vdc_density *d = &a->density;
    double lo = INFINITY, hi = -INFINITY, nmax = (double)d->levels[d->n_levels - 1];
    double nmin = (double)d->levels[0], px0 = x0 + SC_LEFT, px1 = x0 + SC_PANEL_W, py0 = SC_TOP, py1 = SC_TOP + SC_PANEL_H;
    size_t ti, li;
    char buf[64];
    int g;

    for (ti = 0; ti < d->n_targets; ti++)
        for (li = 0; li < d->n_levels; li++) {
            const struct vdc_density_cell *c = vdc_density_cell(d, li, ti, ki);
            double v = what ? c->p99_mean : c->n_reps ? c->sum.mean : NAN;

            if (vdc_has(v)) {
                lo = fmin(lo, v);
                hi = fmax(hi, v);
            }
        }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_font_size(cr, 12);
    vdc_svg_set_class(cr, "panel");
    vdc_svg_text_fit(cr, (px0 + px1) / 2, SC_TOP - 14, title, 0.5, SC_PANEL_W, 9, 12);
    vdc_svg_set_class(cr, NULL);
    if (!isfinite(lo))
        return;
    lo = 0;
    hi = hi > 0 ? nice_top(hi * 1.05) : 1;
    if (nmax <= nmin)
        nmax = nmin + 1;
    cairo_set_line_width(cr, 1);
    cairo_set_font_size(cr, 10);
    for (g = 0; g <= 4; g++) {
        double y = py1 - (py1 - py0) * g / 4.0;

        cairo_set_source_rgb(cr, 0.85, 0.85, 0.85);
        cairo_move_to(cr, px0, y);
        cairo_line_to(cr, px1, y);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        vdc_chart_tick(buf, sizeof(buf), lo + (hi - lo) * g / 4.0, hi);
        vdc_svg_text(cr, px0 - 4, y + 3, buf, 1);
    }
    for (li = 0; li < d->n_levels; li++) {
        double x = px0 + (px1 - px0) * ((double)d->levels[li] - nmin) / (nmax - nmin);

        g_snprintf(buf, sizeof(buf), "%" G_GINT64_FORMAT, d->levels[li]);
        vdc_svg_text(cr, x, py1 + 14, buf, 0.5);
    }
    vdc_svg_text(cr, (px0 + px1) / 2, py1 + 28, "guests N", 0.5);
    for (ti = 0; ti < d->n_targets; ti++) {
        const double *rgb = target_rgb(a, d, ti);
        int started = 0;

        cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
        cairo_set_line_width(cr, 2);
        for (li = 0; li < d->n_levels; li++) {
            const struct vdc_density_cell *c = vdc_density_cell(d, li, ti, ki);
            double v = what ? c->p99_mean : c->n_reps ? c->sum.mean : NAN;
            double x = px0 + (px1 - px0) * ((double)d->levels[li] - nmin) / (nmax - nmin);
            double y = py1 - (py1 - py0) * (v - lo) / (hi - lo);

            if (!vdc_has(v))
                continue;
            if (started)
                cairo_line_to(cr, x, y);
            else
                cairo_move_to(cr, x, y);
            started = 1;
        }
        cairo_stroke(cr);
        for (li = 0; li < d->n_levels; li++) {
            const struct vdc_density_cell *c = vdc_density_cell(d, li, ti, ki);
            double v = what ? c->p99_mean : c->n_reps ? c->sum.mean : NAN;
            double x = px0 + (px1 - px0) * ((double)d->levels[li] - nmin) / (nmax - nmin);

            if (!vdc_has(v))
                continue;
            cairo_arc(cr, x, py1 - (py1 - py0) * (v - lo) / (hi - lo), 3, 0, 2 * M_PI);
            cairo_fill(cr);
        }
    }
}

/* 1 when a cell of test @ki has a pooled p99 (the figure's second panel) */
static int
any_p99(const struct vdc_density *d, size_t ki)
{
    size_t ti, li;

    for (ti = 0; ti < d->n_targets; ti++)
        for (li = 0; li < d->n_levels; li++)
            if (vdc_has(vdc_density_cell(d, li, ti, ki)->p99_mean))
                return 1;
    return 0;
}

/* The scaling figure of test @ki: aggregate and (when known) pooled p99
 * against N, a line per target */
static char *
scaling_svg(const struct vdc_analysis *a, size_t ki)
{
    const struct vdc_density *d = &a->density;
    char label[VDC_TEST_LABEL_MAX];
    long ai = vdc_analysis_test_index(a, d->tests[ki]);
    struct vdc_svg_key *keys = g_new0(struct vdc_svg_key, d->n_targets + 1);
    const struct vdc_density_cell *c0 = NULL;
    double h;
    size_t ti, li, rows;
    int any_p99 = 0;
    cairo_t *cr;
    g_autofree char *t1 = NULL, *t2 = NULL;
    char *svg;

    for (ti = 0; ti < d->n_targets; ti++) {
        keys[ti].label = d->targets[ti];
        memcpy(keys[ti].rgb, target_rgb(a, d, ti), sizeof(keys[ti].rgb));
        for (li = 0; li < d->n_levels; li++) {
            const struct vdc_density_cell *c = vdc_density_cell(d, li, ti, ki);

            any_p99 |= vdc_has(c->p99_mean);
            if (!c0 && c->unit)
                c0 = c;
        }
    }
    rows = vdc_svg_legend_rows(keys, d->n_targets, SC_W - 40, 11);
    h = SC_TOP + SC_PANEL_H + 40 + 16 * (double)rows;
    cr = vdc_svg_begin(SC_W, h);
    /* each panel names its test: no two figures' titles alike */
    if (ai >= 0)
        vdc_chart_test_label(a, (size_t)ai, label, sizeof(label));
    else
        g_strlcpy(label, d->tests[ki], sizeof(label));
    t1 = g_strdup_printf("%s: aggregate, %s (higher is better)", label, c0 && c0->unit ? c0->unit : "");
    t2 = g_strdup_printf("%s: p99 over all guests' I/Os, us (lower is better)", label);
    scaling_panel(cr, a, ki, 0, 0, t1);
    if (any_p99)
        scaling_panel(cr, a, ki, 1, SC_W / 2, t2);
    cairo_set_font_size(cr, 11);
    vdc_svg_legend(cr, keys, d->n_targets, 20, SC_W - 40, SC_TOP + SC_PANEL_H + 48, 11, 16, VDC_SVG_LINE);
    svg = vdc_svg_finish(cr, "the scaling figure");
    g_free(keys);
    return svg;
}

int
vdc_density_html(GString *out, const struct vdc_analysis *a, int *fig)
{
    const struct vdc_density *d = &a->density;
    size_t i, k, ki;

    if (!d->n_levels)
        return 0;
    g_string_append(out, "<h2 id=\"density\">Many guests at once</h2>\n<p class=\"note\">");
    vdc_html_escape(out, vdc_density_note);
    g_string_append(out, "</p>\n<ul>\n");
    for (i = 0; i < d->n_pairs; i++) {
        g_autofree char *t = vdc_density_pair_text(a, &d->pairs[i]);

        g_string_append(out, "<li>");
        vdc_html_escape(out, t);
        g_string_append(out, "</li>\n");
    }
    g_string_append(out, "</ul>\n");
    if (d->n_failures)
        g_string_append(out, "<h3 id=\"density-failed\">Failed guests</h3>\n<p>Their repetitions are left out, "
                             "apart from a guest that ran but gave no value.</p>\n<ul>\n");
    for (i = 0; i < d->n_failures; i++) {
        g_autofree char *t = vdc_density_failure_text(a, &d->failures[i]);

        g_string_append(out, "<li>");
        vdc_html_escape(out, t);
        g_string_append(out, "</li>\n");
    }
    if (d->n_failures)
        g_string_append(out, "</ul>\n");
    for (ki = 0; ki < d->n_tests; ki++) {
        g_autofree char *svg = scaling_svg(a, ki);
        g_autofree char *prefix = NULL, *fixed = NULL;
        char label[VDC_TEST_LABEL_MAX];

        if (!svg)
            return -1;
        (*fig)++;
        prefix = g_strdup_printf("density-%zu", ki);
        fixed = vdc_svg_prefix_ids(svg, prefix);
        g_string_append_printf(out, "<figure id=\"chart-density-%zu\" class=\"chart\" data-figure=\"%d\">\n%s\n"
                               "<figcaption><b>Figure %d</b>: ", ki, *fig, fixed, *fig);
        vdc_html_escape(out, vdc_density_test_label(a, ki, label, sizeof(label)));
        /* the caption says what is drawn: the p99 panel only for a test
         * with completion latencies (a workload job) */
        g_string_append(out, any_p99(d, ki)
                        ? ", the aggregate (left) and the p99 over all guests' I/Os (right) against the number "
                          "of guests N, a line per target.</figcaption>\n</figure>\n"
                        : ", the aggregate against the number of guests N, a line per target (no p99 panel: "
                          "this test records no completion latencies).</figcaption>\n</figure>\n");
    }
    g_string_append(out, "<table id=\"density-table\">\n<tr>");
    for (k = 0; k < VDC_DENSITY_COLS; k++)
        g_string_append_printf(out, "<th>%s</th>", vdc_density_cols[k]);
    g_string_append(out, "</tr>\n");
    vdc_density_rows(out, a, "<tr>", "<td>", "</td>", "</tr>\n", vdc_html_escape);
    g_string_append(out, "</table>\n");
    vdc_density_host_markup(out, a, 1);
    return 0;
}
