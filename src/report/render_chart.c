/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp charts (render_chart.h): the SVG figures of report.html drawn
 * by cairo (cairo_svg_surface_create_for_stream into memory): the bar
 * charts, the dot plots of every run, the latency percentiles. */
#include "config.h"

#include "report/render_chart.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cairo.h>
#include <cairo-svg.h>
#include <glib.h>

#include "common/util.h"

static const double palette[][3] = {
    { 0x00 / 255.0, 0x72 / 255.0, 0xB2 / 255.0 },
    { 0xE6 / 255.0, 0x9F / 255.0, 0x00 / 255.0 },
    { 0x00 / 255.0, 0x9E / 255.0, 0x73 / 255.0 },
    { 0xCC / 255.0, 0x79 / 255.0, 0xA7 / 255.0 },
    { 0x56 / 255.0, 0xB4 / 255.0, 0xE9 / 255.0 },
    { 0xD5 / 255.0, 0x5E / 255.0, 0x00 / 255.0 },
    { 0xF0 / 255.0, 0xE4 / 255.0, 0x42 / 255.0 },
    { 0.2, 0.2, 0.2 },
};
#define N_PALETTE (sizeof(palette) / sizeof(palette[0]))

#define CHART_W 900.0
#define CHART_H 430.0
#define M_LEFT 86.0
#define M_RIGHT 20.0
#define M_TOP 46.0
#define M_BOTTOM 104.0

static cairo_status_t
svg_write(void *closure, const unsigned char *data, unsigned int length)
{
    g_string_append_len(closure, (const char *)data, length);
    return CAIRO_STATUS_SUCCESS;
}

/* Chart label of test @ki of @a: the test table's chart_label ("Write
 * per-char"), for a sweep key its short_label and block size ("Read 4
 * KiB"), for a workload its job as vdc_analysis_job_label names it and
 * the direction ("randread-4k-qd32 (raw) read"); an unknown key as it
 * is. */
static const char *
short_label(const struct vdc_analysis *a, size_t ki)
{
    static char sweep[VDC_TEST_LABEL_MAX];
    const char *key = a->tests[ki];
    int64_t bs = 0;
    const vdc_test_info *info = vdc_test_key_parse(key, &bs);

    if (info && info->workload) {
        char job[VDC_TEST_LABEL_MAX];

        snprintf(sweep, sizeof(sweep), "%s %s", vdc_analysis_job_label(a, ki, job, sizeof(job)),
                 info->id == VDC_TEST_WORKLOAD_WRITE ? "write" : "read");
        return sweep;
    }
    if (info && !info->sweep)
        return info->chart_label;
    if (info && info->sweep && bs > 0) {
        const char *what = info->short_label;   /* "Read 4 KiB", "dd read 64 KiB" */

        if (bs % 1048576 == 0)
            snprintf(sweep, sizeof(sweep), "%s %" G_GINT64_FORMAT " MiB", what, bs / 1048576);
        else if (bs % 1024 == 0)
            snprintf(sweep, sizeof(sweep), "%s %" G_GINT64_FORMAT " KiB", what, bs / 1024);
        else
            snprintf(sweep, sizeof(sweep), "%s %" G_GINT64_FORMAT " B", what, bs);
        return sweep;
    }
    return key;
}

/* Most grid lines or ticks an axis draws: a bound on every axis loop,
 * whatever the data (the loader bounds values physically: result.h). */
#define AXIS_TICKS_MAX 64

/* A "nice" axis step (1, 2, 5 x 10^k) for about @ticks ticks up to @max;
 * 1 for a @max that is not a finite number > 0. */
static double
nice_step(double max, int ticks)
{
    double raw, mag, f;

    if (!isfinite(max) || max <= 0)
        return 1;
    raw = max / ticks;
    mag = pow(10, floor(log10(raw)));
    f = raw / mag;

    if (f <= 1)
        return mag;
    if (f <= 2)
        return 2 * mag;
    if (f <= 5)
        return 5 * mag;
    return 10 * mag;
}

/* The grid lines above the first from @lo to @hi in steps of @step, at
 * most AXIS_TICKS_MAX (0 when the range is not finite). */
static int
axis_lines(double lo, double hi, double step)
{
    double n = (hi - lo) / step;

    if (!isfinite(n) || n < 0)
        return 0;
    return n > AXIS_TICKS_MAX ? AXIS_TICKS_MAX : (int)floor(n + 0.5);
}

static void
fmt_tick(char *buf, size_t size, double v)
{
    if (v >= 1e6)
        snprintf(buf, size, "%gM", v / 1e6);
    else if (v >= 1e4 && fmod(v, 1e3) == 0)
        snprintf(buf, size, "%gk", v / 1e3);
    else
        snprintf(buf, size, "%g", v);
}

/* 1.45M, 738k, 3084, 809.3: a bar label */
static void
fmt_compact(char *buf, size_t size, double v)
{
    if (fabs(v) >= 1e6)
        snprintf(buf, size, "%.2fM", v / 1e6);
    else if (fabs(v) >= 1e5)
        snprintf(buf, size, "%.0fk", v / 1e3);
    else if (fabs(v) >= 1e3)
        snprintf(buf, size, "%.0f", v);
    else
        snprintf(buf, size, "%.1f", v);
}

static void
text_at(cairo_t *cr, double x, double y, const char *s, double align)
{
    cairo_text_extents_t e;

    cairo_text_extents(cr, s, &e);
    cairo_move_to(cr, x - e.x_advance * align, y);
    cairo_show_text(cr, s);
}

/* A chart's white page and bold title; leaves the normal font selected. */
static void
chart_title(cairo_t *cr, const char *title)
{
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 15);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    text_at(cr, CHART_W / 2, 24, title, 0.5);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
}

/* The x and y axis lines of a @pw x @ph plot and the rotated y label. */
static void
chart_axes(cairo_t *cr, double pw, double ph, const char *ylabel)
{
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    cairo_move_to(cr, M_LEFT + 0.5, M_TOP);
    cairo_line_to(cr, M_LEFT + 0.5, M_TOP + ph + 0.5);
    cairo_line_to(cr, M_LEFT + pw, M_TOP + ph + 0.5);
    cairo_stroke(cr);
    cairo_save(cr);
    cairo_set_font_size(cr, 12);
    cairo_translate(cr, 20, M_TOP + ph / 2);
    cairo_rotate(cr, -M_PI / 2);
    text_at(cr, 0, 0, ylabel, 0.5);
    cairo_restore(cr);
}

static void
draw_chart(cairo_t *cr, const struct vdc_analysis *a, const long *keys, size_t nk,
           const char *unit, const char *title)
{
    double pw = CHART_W - M_LEFT - M_RIGHT, ph = CHART_H - M_TOP - M_BOTTOM;
    double max = 0, step, gw, bw, y, lx;
    size_t ti, k;
    int g, n_grid;
    char buf[64];

    for (k = 0; k < nk; k++)
        for (ti = 0; ti < a->n_targets; ti++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, (size_t)keys[k]);

            if (c->sum.n)
                max = fmax(max, c->sum.has_ci_mean ? c->sum.ci_mean[1] : c->sum.mean);
        }
    if (!isfinite(max) || max <= 0 || !isfinite(max * 1.08))
        max = 1;
    step = nice_step(max * 1.08, 6);
    max = ceil(max * 1.08 / step) * step;
    n_grid = axis_lines(0, max, step);

    chart_title(cr, title);

    /* grid and y axis */
    cairo_set_font_size(cr, 11);
    cairo_set_line_width(cr, 1);
    for (g = 0; g <= n_grid; g++) {
        double py;

        y = (double)g * step;
        py = M_TOP + ph - y / max * ph;

        cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
        cairo_move_to(cr, M_LEFT, floor(py) + 0.5);
        cairo_line_to(cr, M_LEFT + pw, floor(py) + 0.5);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
        fmt_tick(buf, sizeof(buf), y);
        text_at(cr, M_LEFT - 6, py + 4, buf, 1.0);
    }
    snprintf(buf, sizeof(buf), "%s (mean, 95%% CI)", unit);
    chart_axes(cr, pw, ph, buf);

    /* bars */
    gw = pw / (double)nk;
    bw = fmin(gw * 0.8 / (double)a->n_targets, 48);
    for (k = 0; k < nk; k++) {
        double gx = M_LEFT + gw * (double)k + (gw - bw * (double)a->n_targets) / 2;

        for (ti = 0; ti < a->n_targets; ti++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, (size_t)keys[k]);
            const double *col = palette[ti % N_PALETTE];
            double x = gx + bw * (double)ti, h;

            if (!c->sum.n) {
                if (c->n_too_fast) {
                    /* every run too fast: no bar (a zero-height bar would
                     * read as the slowest), a dashed outline to the top of
                     * the plot (unbounded) and "too fast" written upwards */
                    static const double dash[] = { 3, 2 };

                    cairo_set_source_rgb(cr, col[0], col[1], col[2]);
                    cairo_set_line_width(cr, 1);
                    cairo_set_dash(cr, dash, 2, 0);
                    cairo_rectangle(cr, x + 1.5, M_TOP + 0.5, bw - 3, ph - 1);
                    cairo_stroke(cr);
                    cairo_set_dash(cr, NULL, 0, 0);
                    cairo_save(cr);
                    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
                    cairo_set_font_size(cr, bw >= 20 ? 10 : 8);
                    cairo_translate(cr, x + bw / 2 + 3.5, M_TOP + ph / 2);
                    cairo_rotate(cr, -M_PI / 2);
                    text_at(cr, 0, 0, "too fast (+++++)", 0.5);
                    cairo_restore(cr);
                }
                continue;
            }
            h = c->sum.mean / max * ph;
            if (c->flags & VDC_HEADLINE_NO_VERDICT_FLAGS) {
                /* no verdict can rest on this bar (too fast, under twice
                 * the RAM, an artefact): pale, outlined */
                cairo_set_source_rgba(cr, col[0], col[1], col[2], 0.3);
                cairo_rectangle(cr, x + 1, M_TOP + ph - h, bw - 2, h);
                cairo_fill_preserve(cr);
                cairo_set_source_rgb(cr, col[0], col[1], col[2]);
                cairo_set_line_width(cr, 1);
                cairo_stroke(cr);
            } else {
                cairo_set_source_rgb(cr, col[0], col[1], col[2]);
                cairo_rectangle(cr, x + 1, M_TOP + ph - h, bw - 2, h);
                cairo_fill(cr);
            }
            if (c->n_too_fast_excluded) {
                /* some runs too fast: the mean understates; hatch the bar */
                double y;

                cairo_save(cr);
                cairo_rectangle(cr, x + 1, M_TOP + ph - h, bw - 2, h);
                cairo_clip(cr);
                cairo_set_source_rgb(cr, 1, 1, 1);
                cairo_set_line_width(cr, 1.5);
                for (y = M_TOP + ph - h - bw; y < M_TOP + ph + bw; y += 6) {
                    cairo_move_to(cr, x, y + bw);
                    cairo_line_to(cr, x + bw, y);
                }
                cairo_stroke(cr);
                cairo_restore(cr);
            }
            {
                /* the mean above the bar (and its whisker), so that small
                 * bars beside large ones can still be read */
                double top = M_TOP + ph - (c->sum.has_ci_mean ? c->sum.ci_mean[1] : c->sum.mean) / max * ph;
                char lab[32];

                fmt_compact(lab, sizeof(lab), c->sum.mean);
                if (c->n_too_fast_excluded)
                    g_strlcat(lab, VDC_TOO_FAST_MARK, sizeof(lab));
                if (c->flags & VDC_CELL_ARTEFACTS)
                    g_strlcat(lab, VDC_ARTEFACT_MARK, sizeof(lab));
                cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
                cairo_set_font_size(cr, bw >= 34 ? 9.5 : 8);
                text_at(cr, x + bw / 2, top - 4, lab, 0.5);
            }
            if (c->sum.has_ci_mean) {
                double lo = M_TOP + ph - fmax(c->sum.ci_mean[0], 0) / max * ph;
                double hi = M_TOP + ph - c->sum.ci_mean[1] / max * ph;
                double cx = x + bw / 2;

                cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
                cairo_set_line_width(cr, 1.2);
                cairo_move_to(cr, cx, lo);
                cairo_line_to(cr, cx, hi);
                cairo_move_to(cr, cx - bw / 5, lo);
                cairo_line_to(cr, cx + bw / 5, lo);
                cairo_move_to(cr, cx - bw / 5, hi);
                cairo_line_to(cr, cx + bw / 5, hi);
                cairo_stroke(cr);
            }
        }
        cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
        cairo_set_font_size(cr, 11.5);
        text_at(cr, M_LEFT + gw * ((double)k + 0.5), M_TOP + ph + 18, short_label(a, (size_t)keys[k]), 0.5);
    }

    /* legend, centred under the x labels */
    cairo_set_font_size(cr, 12);
    lx = 0;
    for (ti = 0; ti < a->n_targets; ti++) {
        cairo_text_extents_t e;

        cairo_text_extents(cr, a->targets[ti], &e);
        lx += 18 + e.x_advance + 22;
    }
    lx = M_LEFT + (pw - lx) / 2;
    for (ti = 0; ti < a->n_targets; ti++) {
        const double *col = palette[ti % N_PALETTE];
        cairo_text_extents_t e;

        cairo_set_source_rgb(cr, col[0], col[1], col[2]);
        cairo_rectangle(cr, lx, CHART_H - 52, 13, 13);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        cairo_move_to(cr, lx + 18, CHART_H - 41);
        cairo_show_text(cr, a->targets[ti]);
        cairo_text_extents(cr, a->targets[ti], &e);
        lx += 18 + e.x_advance + 22;
    }
    cairo_set_font_size(cr, 10.5);
    cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
    text_at(cr, CHART_W / 2, CHART_H - 14,
            "Bars: mean; whiskers: 95% CI of the mean (Student t); dashed outline \"too fast\": every run too "
            "fast to measure (no bar); hatched " VDC_TOO_FAST_MARK ": some runs too fast, mean understates.", 0.5);
}

/* render_chart.h */
char *
vdc_svg_prefix_ids(const char *svg, const char *prefix)
{
    char *t1, *t2, *t3, *pat;
    char **parts;

    pat = g_strdup_printf("id=\"%s-", prefix);
    parts = g_strsplit(svg, "id=\"", -1);
    t1 = g_strjoinv(pat, parts);
    g_strfreev(parts);
    g_free(pat);
    pat = g_strdup_printf("href=\"#%s-", prefix);
    parts = g_strsplit(t1, "href=\"#", -1);
    t2 = g_strjoinv(pat, parts);
    g_strfreev(parts);
    g_free(pat);
    pat = g_strdup_printf("url(#%s-", prefix);
    parts = g_strsplit(t2, "url(#", -1);
    t3 = g_strjoinv(pat, parts);
    g_strfreev(parts);
    g_free(pat);
    g_free(t1);
    g_free(t2);
    return t3;
}

/* The tests whose unit is @unit, in test order, into @keys (n_tests
 * long); returns how many. */
static size_t
keys_of_unit(const struct vdc_analysis *a, const char *unit, long *keys)
{
    size_t nk = 0, ki, ti;

    for (ki = 0; ki < a->n_tests; ki++) {
        const char *u = NULL;

        for (ti = 0; ti < a->n_targets && !u; ti++)
            u = vdc_analysis_cell(a, ti, ki)->unit;
        if (u && !strcmp(u, unit))
            keys[nk++] = (long)ki;
    }
    return nk;
}

/* What a drawing function is given. */
struct figure {
    const struct vdc_analysis *a;
    const long *keys;
    size_t nk;
    const char *unit, *title;
    double w, h;
    size_t n_points;              /* dot plots: markers drawn */
    const void *data;             /* the latency charts' struct latency_figure */
};

/* Draw @f with @draw into an SVG document in memory: the <svg> element
 * without XML declaration, or NULL after vdc_error. */
static char *
svg_of(struct figure *f, void (*draw)(cairo_t *, struct figure *))
{
    GString *svg = g_string_new(NULL);
    cairo_surface_t *s = cairo_svg_surface_create_for_stream(svg_write, svg, f->w, f->h);
    cairo_t *cr = cairo_create(s);
    cairo_status_t st;
    char *start, *out;

    draw(cr, f);
    cairo_destroy(cr);
    cairo_surface_finish(s);
    st = cairo_surface_status(s);
    cairo_surface_destroy(s);
    if (st != CAIRO_STATUS_SUCCESS) {
        vdc_error("chart '%s': cairo SVG surface: %s", f->title, cairo_status_to_string(st));
        g_string_free(svg, TRUE);
        return NULL;
    }
    start = strstr(svg->str, "<svg");
    out = g_strdup(start ? start : svg->str);
    g_string_free(svg, TRUE);
    return out;
}

static void
draw_bars(cairo_t *cr, struct figure *f)
{
    draw_chart(cr, f->a, f->keys, f->nk, f->unit, f->title);
}

char *
vdc_render_chart_svg(const struct vdc_analysis *a, const char *unit, const char *title, int *empty)
{
    long *keys = g_new(long, a->n_tests + 1);
    struct figure f = { .a = a, .keys = keys, .unit = unit, .title = title, .w = CHART_W, .h = CHART_H };
    char *out = NULL;

    f.nk = keys_of_unit(a, unit, keys);
    *empty = !f.nk;
    if (f.nk)
        out = svg_of(&f, draw_bars);
    g_free(keys);
    return out;
}

/* ---- workload latency percentiles: one chart per target ------------------- */

/* The means over the runs of one workload key's clat percentiles (p50,
 * p90, p99, p99.9, p99.99, us; NAN where no sample has it): the
 * analysis's (vdc_cell_workload.clat_us). */
static void
latency_means(const struct vdc_analysis *a, size_t ti, size_t ki, double out[5])
{
    size_t k;

    for (k = 0; k < 5; k++)
        out[k] = vdc_analysis_cell(a, ti, ki)->wl.clat_us[k];
}

struct latency_figure {
    const struct vdc_analysis *a;
    size_t target;
    const long *keys;
    size_t nk;
    const char *title;
    double lo, hi;               /* log10 of the y range, whole decades */
};

static void
draw_latency(cairo_t *cr, struct figure *f)
{
    static const char *const pct[] = { "p50", "p90", "p99", "p99.9", "p99.99" };
    const struct latency_figure *lf = f->data;
    double pw = CHART_W - M_LEFT - M_RIGHT, ph = CHART_H - M_TOP - M_BOTTOM, d;
    size_t k, i;
    char buf[48];

    chart_title(cr, lf->title);
    cairo_set_font_size(cr, 11);
    cairo_set_line_width(cr, 1);
    /* decades on a log scale */
    for (d = lf->lo; d <= lf->hi + 1e-9; d += 1) {
        double py = M_TOP + ph - (d - lf->lo) / (lf->hi - lf->lo) * ph;

        cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
        cairo_move_to(cr, M_LEFT, floor(py) + 0.5);
        cairo_line_to(cr, M_LEFT + pw, floor(py) + 0.5);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
        fmt_compact(buf, sizeof(buf), pow(10, d));
        text_at(cr, M_LEFT - 6, py + 4, buf, 1.0);
    }
    for (k = 0; k < 5; k++) {
        double px = M_LEFT + pw * ((double)k + 0.5) / 5;

        cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
        text_at(cr, px, M_TOP + ph + 18, pct[k], 0.5);
    }
    chart_axes(cr, pw, ph, "completion latency, us (log scale)");
    /* one line per workload key, the legend under the axis */
    for (i = 0; i < lf->nk; i++) {
        const double *col = palette[i % N_PALETTE];
        double p[5], lx = M_LEFT + (double)(i % 3) * pw / 3, ly = M_TOP + ph + 40 + (double)(i / 3) * 16;
        int started = 0;
        char label[VDC_TEST_LABEL_MAX];

        latency_means(lf->a, lf->target, (size_t)lf->keys[i], p);
        cairo_set_source_rgb(cr, col[0], col[1], col[2]);
        cairo_set_line_width(cr, 2);
        for (k = 0; k < 5; k++) {
            double px = M_LEFT + pw * ((double)k + 0.5) / 5, py;

            if (!vdc_has(p[k]) || p[k] <= 0)   /* a log axis */
                continue;
            py = M_TOP + ph - (fmin(fmax(log10(p[k]), lf->lo), lf->hi) - lf->lo) / (lf->hi - lf->lo) * ph;
            if (started)
                cairo_line_to(cr, px, py);
            else
                cairo_move_to(cr, px, py);
            started = 1;
        }
        cairo_stroke(cr);
        for (k = 0; k < 5; k++)
            if (vdc_has(p[k]) && p[k] > 0) {   /* a log axis */
                double px = M_LEFT + pw * ((double)k + 0.5) / 5;

                cairo_arc(cr, px, M_TOP + ph - (fmin(fmax(log10(p[k]), lf->lo), lf->hi) - lf->lo) /
                                      (lf->hi - lf->lo) * ph, 3, 0,
                          2 * M_PI);
                cairo_fill(cr);
            }
        cairo_rectangle(cr, lx, ly - 9, 10, 10);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        text_at(cr, lx + 14, ly, vdc_analysis_test_label(lf->a, (size_t)lf->keys[i], label, sizeof(label)), 0);
    }
}

char *
vdc_render_latency_svg(const struct vdc_analysis *a, size_t target, const char *title, int *empty)
{
    long *keys = g_new(long, a->n_tests + 1);
    struct latency_figure lf = { .a = a, .target = target, .keys = keys, .title = title,
                                 .lo = INFINITY, .hi = -INFINITY };
    struct figure f = { .a = a, .title = title, .w = CHART_W, .h = CHART_H };
    size_t ki, k;
    char *out = NULL;

    for (ki = 0; ki < a->n_tests; ki++) {
        double p[5];
        int any = 0;

        if (!vdc_test_key_job(a->tests[ki]))
            continue;
        latency_means(a, target, ki, p);
        for (k = 0; k < 5; k++)
            if (vdc_has(p[k]) && p[k] > 0) {   /* a log axis */
                lf.lo = MIN(lf.lo, floor(log10(p[k])));
                lf.hi = MAX(lf.hi, ceil(log10(p[k])));
                any = 1;
            }
        if (any)
            keys[lf.nk++] = (long)ki;
    }
    *empty = !lf.nk;
    if (lf.nk) {
        if (lf.hi <= lf.lo)
            lf.hi = lf.lo + 1;
        if (lf.hi - lf.lo > AXIS_TICKS_MAX / 4)     /* decades: a readable axis, a bounded loop */
            lf.lo = lf.hi - AXIS_TICKS_MAX / 4;
        f.h = CHART_H + 16.0 * (double)((lf.nk - 1) / 3);
        f.data = &lf;
        out = svg_of(&f, draw_latency);
    }
    g_free(keys);
    return out;
}

/* ---- dot plots: every run in run order ------------------------------------ */

#define DOTS_COLS 3
#define DOTS_PANEL_H 168.0
#define DOTS_TOP 44.0
#define DOTS_BOTTOM 64.0
#define DOTS_PAD_L 58.0          /* in a panel: room for the y ticks */
#define DOTS_PAD_R 10.0
#define DOTS_PAD_T 24.0          /* the panel's title */
#define DOTS_PAD_B 26.0          /* the repetition ticks */

/* One panel: test @ki at (@x0, @y0), @pw x @ph. */
static void
draw_dot_panel(cairo_t *cr, struct figure *f, size_t ki, double x0, double y0, double pw, double ph)
{
    const struct vdc_analysis *a = f->a;
    double lo = INFINITY, hi = -INFINITY, step, y, px0 = x0 + DOTS_PAD_L, px1 = x0 + pw - DOTS_PAD_R;
    double py0 = y0 + DOTS_PAD_T, py1 = y0 + ph - DOTS_PAD_B, xs, jitter;
    int64_t max_rep = 0, r, every;
    size_t ti, i;
    int g, n_grid;
    char buf[64];

    for (ti = 0; ti < a->n_targets; ti++) {
        const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);

        for (i = 0; i < c->n_values; i++) {
            lo = fmin(lo, c->samples[i].value);
            hi = fmax(hi, c->samples[i].value);
            max_rep = MAX(max_rep, c->samples[i].repetition);
        }
        for (i = 0; i < c->n_no_value; i++)
            max_rep = MAX(max_rep, c->gaps[i].repetition);
    }
    if (!isfinite(lo)) {
        lo = 0;
        hi = 1;
    } else if (hi - lo < 1e-9 * fmax(fabs(hi), 1)) {
        lo -= fmax(fabs(lo) * 0.05, 0.5);
        hi += fmax(fabs(hi) * 0.05, 0.5);
    }
    step = nice_step(hi - lo, 3);
    lo = floor(lo / step) * step;
    hi = ceil(hi / step) * step;
    if (hi <= lo)
        hi = lo + step;
    n_grid = axis_lines(lo, hi, step);

    /* frame, title, y grid */
    cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
    cairo_set_font_size(cr, 11.5);
    text_at(cr, (px0 + px1) / 2, y0 + 14, short_label(a, ki), 0.5);
    cairo_set_font_size(cr, 9.5);
    cairo_set_line_width(cr, 1);
    for (g = 0; g <= n_grid; g++) {
        double py;

        y = lo + (double)g * step;
        py = py1 - (y - lo) / (hi - lo) * (py1 - py0);

        cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
        cairo_move_to(cr, px0, floor(py) + 0.5);
        cairo_line_to(cr, px1, floor(py) + 0.5);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
        fmt_tick(buf, sizeof(buf), y);
        text_at(cr, px0 - 4, py + 3, buf, 1.0);
    }
    cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
    cairo_rectangle(cr, floor(px0) + 0.5, floor(py0) + 0.5, floor(px1 - px0), floor(py1 - py0));
    cairo_stroke(cr);
    /* x: repetitions, in run order */
    xs = max_rep > 0 ? (px1 - px0 - 16) / (double)max_rep : 0;
    every = max_rep > 12 ? (max_rep + 11) / 12 : 1;
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    for (r = 0; r <= max_rep; r += every) {
        snprintf(buf, sizeof(buf), "%" G_GINT64_FORMAT, (gint64)r);
        text_at(cr, px0 + 8 + xs * (double)r + (max_rep ? 0 : (px1 - px0 - 16) / 2), py1 + 12, buf, 0.5);
    }
    jitter = fmin(4.0, a->n_targets > 1 ? (xs > 0 ? xs : 40) * 0.5 / (double)a->n_targets : 0);

    /* one series per target: a thin line in run order, a dot per value;
     * a flagged outlier ringed; too fast: an open triangle on the top
     * edge; failed: a cross on the bottom edge */
    for (ti = 0; ti < a->n_targets; ti++) {
        const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);
        const double *col = palette[ti % N_PALETTE];
        double dx = ((double)ti - ((double)a->n_targets - 1) / 2) * jitter;

#define DOT_X(rep) (px0 + 8 + xs * (double)(rep) + (max_rep ? 0 : (px1 - px0 - 16) / 2) + dx)
#define DOT_Y(v) (py1 - ((v) - lo) / (hi - lo) * (py1 - py0))
        cairo_set_source_rgba(cr, col[0], col[1], col[2], 0.45);
        cairo_set_line_width(cr, 1);
        for (i = 0; i < c->n_values; i++) {
            if (i)
                cairo_line_to(cr, DOT_X(c->samples[i].repetition), DOT_Y(c->samples[i].value));
            else
                cairo_move_to(cr, DOT_X(c->samples[i].repetition), DOT_Y(c->samples[i].value));
        }
        if (c->n_values > 1)
            cairo_stroke(cr);
        cairo_new_path(cr);
        for (i = 0; i < c->n_values; i++) {
            cairo_set_source_rgb(cr, col[0], col[1], col[2]);
            cairo_arc(cr, DOT_X(c->samples[i].repetition), DOT_Y(c->samples[i].value), 3.2, 0, 2 * M_PI);
            cairo_fill(cr);
            f->n_points++;
            if (c->samples[i].outlier) {
                cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
                cairo_set_line_width(cr, 1.3);
                cairo_arc(cr, DOT_X(c->samples[i].repetition), DOT_Y(c->samples[i].value), 6, 0, 2 * M_PI);
                cairo_stroke(cr);
            }
        }
        cairo_set_source_rgb(cr, col[0], col[1], col[2]);
        cairo_set_line_width(cr, 1.3);
        for (i = 0; i < c->n_no_value; i++) {
            int64_t rep = c->gaps[i].repetition;

            if (!c->gaps[i].too_fast)
                continue;
            cairo_move_to(cr, DOT_X(rep), py0 + 2);
            cairo_line_to(cr, DOT_X(rep) - 4, py0 + 9);
            cairo_line_to(cr, DOT_X(rep) + 4, py0 + 9);
            cairo_close_path(cr);
            cairo_stroke(cr);
            f->n_points++;
        }
        for (i = 0; i < c->n_no_value; i++) {
            int64_t rep = c->gaps[i].repetition;

            if (c->gaps[i].too_fast)
                continue;
            cairo_move_to(cr, DOT_X(rep) - 3.5, py1 - 9.5);
            cairo_line_to(cr, DOT_X(rep) + 3.5, py1 - 2.5);
            cairo_move_to(cr, DOT_X(rep) + 3.5, py1 - 9.5);
            cairo_line_to(cr, DOT_X(rep) - 3.5, py1 - 2.5);
            cairo_stroke(cr);
            f->n_points++;
        }
#undef DOT_X
#undef DOT_Y
    }
}

/* Small multiples: a panel per test, DOTS_COLS to a row, a legend. */
static void
draw_dots(cairo_t *cr, struct figure *f)
{
    const struct vdc_analysis *a = f->a;
    double pw = (f->w - 20) / DOTS_COLS, lx = 0;
    size_t k, ti;

    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 15);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    text_at(cr, f->w / 2, 24, f->title, 0.5);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    for (k = 0; k < f->nk; k++)
        draw_dot_panel(cr, f, (size_t)f->keys[k], 10 + pw * (double)(k % DOTS_COLS),
                       DOTS_TOP + DOTS_PANEL_H * (double)(k / DOTS_COLS), pw, DOTS_PANEL_H);
    /* legend */
    cairo_set_font_size(cr, 12);
    for (ti = 0; ti < a->n_targets; ti++) {
        cairo_text_extents_t e;

        cairo_text_extents(cr, a->targets[ti], &e);
        lx += 18 + e.x_advance + 22;
    }
    lx = (f->w - lx) / 2;
    for (ti = 0; ti < a->n_targets; ti++) {
        const double *col = palette[ti % N_PALETTE];
        cairo_text_extents_t e;

        cairo_set_source_rgb(cr, col[0], col[1], col[2]);
        cairo_arc(cr, lx + 6, f->h - 46, 4.5, 0, 2 * M_PI);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
        cairo_move_to(cr, lx + 18, f->h - 42);
        cairo_show_text(cr, a->targets[ti]);
        cairo_text_extents(cr, a->targets[ti], &e);
        lx += 18 + e.x_advance + 22;
    }
    cairo_set_font_size(cr, 10.5);
    cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
    text_at(cr, f->w / 2, f->h - 16,
            "x: repetition, in run order; y: each run's value (each panel its own scale, not from 0); ringed: "
            "flagged outlier; open triangle on top: too fast (no value); cross at the bottom: failed.", 0.5);
}

char *
vdc_render_dots_svg(const struct vdc_analysis *a, const char *unit, const char *title, int *empty,
                    size_t *n_points)
{
    long *keys = g_new(long, a->n_tests + 1);
    struct figure f = { .a = a, .keys = keys, .unit = unit, .title = title, .w = CHART_W };
    char *out = NULL;

    f.nk = keys_of_unit(a, unit, keys);
    f.h = DOTS_TOP + DOTS_PANEL_H * (double)((f.nk + DOTS_COLS - 1) / DOTS_COLS) + DOTS_BOTTOM;
    *empty = !f.nk;
    if (f.nk)
        out = svg_of(&f, draw_dots);
    *n_points = f.n_points;
    g_free(keys);
    return out;
}
