/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp HTML report: one self-contained page with inline SVG charts
 * drawn by cairo (cairo_svg_surface_create_for_stream into memory). */
#include "config.h"

#include "report/render.h"
#include "report/render_util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cairo.h>
#include <cairo-svg.h>
#include <glib.h>

#include "common/util.h"

/* Okabe-Ito palette (colour-blind safe), one colour per target. */
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
            cairo_set_source_rgb(cr, col[0], col[1], col[2]);
            cairo_rectangle(cr, x + 1, M_TOP + ph - h, bw - 2, h);
            cairo_fill(cr);
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

/* Prefix every id of a cairo SVG document so that two charts inlined in
 * one page do not share glyph and clip ids. */
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
    const vdc_result_set *rs;     /* the dot plots' no-value samples; NULL for the bars */
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
 * p90, p99, p99.9, p99.99, us; NAN where no sample has it). */
static void
latency_means(const vdc_result_set *rs, const char *target, const char *key, double out[5])
{
    size_t n = 0, i, k, cnt[5] = { 0 };
    vdc_sample_ref *refs = vdc_result_set_lookup(rs, target, key, &n);

    for (k = 0; k < 5; k++)
        out[k] = 0;
    for (i = 0; i < n; i++) {
        const vdc_workload *w = refs[i].sample->workload;
        const double p[5] = { w ? w->clat_us.p50 : NAN, w ? w->clat_us.p90 : NAN,
                              w ? w->clat_us.p99 : NAN, w ? w->clat_us.p99_9 : NAN,
                              w ? w->clat_us.p99_99 : NAN };

        if (!vdc_has(refs[i].sample->value))
            continue;
        for (k = 0; k < 5; k++)
            if (vdc_has(p[k]) && p[k] > 0) {
                out[k] += p[k];
                cnt[k]++;
            }
    }
    for (k = 0; k < 5; k++)
        out[k] = cnt[k] ? out[k] / (double)cnt[k] : NAN;
    g_free(refs);
}

struct latency_figure {
    const vdc_result_set *rs;
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

        latency_means(lf->rs, lf->a->targets[lf->target], lf->a->tests[lf->keys[i]], p);
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
vdc_render_latency_svg(const vdc_result_set *rs, const struct vdc_analysis *a, size_t target,
                       const char *title, int *empty)
{
    long *keys = g_new(long, a->n_tests + 1);
    struct latency_figure lf = { .rs = rs, .a = a, .target = target, .keys = keys, .title = title,
                                 .lo = INFINITY, .hi = -INFINITY };
    struct figure f = { .a = a, .title = title, .w = CHART_W, .h = CHART_H };
    size_t ki, k;
    char *out = NULL;

    for (ki = 0; ki < a->n_tests; ki++) {
        double p[5];
        int any = 0;

        if (!vdc_test_key_job(a->tests[ki]))
            continue;
        latency_means(rs, a->targets[target], a->tests[ki], p);
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

/* The samples of (@target, @key) without a value, by kind: the
 * repetitions of the too-fast ones into @fast, of the failed ones into
 * @failed (each n long); returns n. */
static size_t
no_value_reps(const vdc_result_set *rs, const char *target, const char *key, int64_t **fast,
              size_t *n_fast, int64_t **failed, size_t *n_failed)
{
    size_t n = 0, i;
    vdc_sample_ref *refs = vdc_result_set_lookup(rs, target, key, &n);

    *fast = g_new(int64_t, n + 1);
    *failed = g_new(int64_t, n + 1);
    *n_fast = *n_failed = 0;
    for (i = 0; i < n; i++) {
        if (vdc_has(refs[i].sample->value))
            continue;
        if (refs[i].sample->too_fast)
            (*fast)[(*n_fast)++] = refs[i].run->repetition;
        else
            (*failed)[(*n_failed)++] = refs[i].run->repetition;
    }
    g_free(refs);
    return n;
}

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
        int64_t *fast, *failed;
        size_t nf, nx;

        for (i = 0; i < c->n_values; i++) {
            lo = fmin(lo, c->samples[i].value);
            hi = fmax(hi, c->samples[i].value);
            max_rep = MAX(max_rep, c->samples[i].repetition);
        }
        no_value_reps(f->rs, c->target, c->test_key, &fast, &nf, &failed, &nx);
        for (i = 0; i < nf; i++)
            max_rep = MAX(max_rep, fast[i]);
        for (i = 0; i < nx; i++)
            max_rep = MAX(max_rep, failed[i]);
        g_free(fast);
        g_free(failed);
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
        int64_t *fast, *failed;
        size_t nf, nx;

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
        no_value_reps(f->rs, c->target, c->test_key, &fast, &nf, &failed, &nx);
        cairo_set_source_rgb(cr, col[0], col[1], col[2]);
        cairo_set_line_width(cr, 1.3);
        for (i = 0; i < nf; i++) {
            cairo_move_to(cr, DOT_X(fast[i]), py0 + 2);
            cairo_line_to(cr, DOT_X(fast[i]) - 4, py0 + 9);
            cairo_line_to(cr, DOT_X(fast[i]) + 4, py0 + 9);
            cairo_close_path(cr);
            cairo_stroke(cr);
            f->n_points++;
        }
        for (i = 0; i < nx; i++) {
            cairo_move_to(cr, DOT_X(failed[i]) - 3.5, py1 - 9.5);
            cairo_line_to(cr, DOT_X(failed[i]) + 3.5, py1 - 2.5);
            cairo_move_to(cr, DOT_X(failed[i]) + 3.5, py1 - 9.5);
            cairo_line_to(cr, DOT_X(failed[i]) - 3.5, py1 - 2.5);
            cairo_stroke(cr);
            f->n_points++;
        }
#undef DOT_X
#undef DOT_Y
        g_free(fast);
        g_free(failed);
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
vdc_render_dots_svg(const vdc_result_set *rs, const struct vdc_analysis *a, const char *unit,
                    const char *title, int *empty, size_t *n_points)
{
    long *keys = g_new(long, a->n_tests + 1);
    struct figure f = { .rs = rs, .a = a, .keys = keys, .unit = unit, .title = title, .w = CHART_W };
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

/* ---- the page -------------------------------------------------------------- */

static void
esc(GString *out, const char *s)
{
    char *e = g_markup_escape_text(s ? s : "", -1);

    g_string_append(out, e);
    g_free(e);
}

static const char css[] =
    "body{font-family:'DejaVu Serif',Georgia,serif;color:#1a1a1a;max-width:980px;margin:2em auto;"
    "padding:0 1em;line-height:1.45}"
    "h1{font-weight:normal;font-size:1.9em;margin-bottom:.2em}h2{font-weight:normal;font-size:1.35em;"
    "border-bottom:1px solid #bbb;padding-bottom:.15em;margin-top:1.8em}"
    ".banner{background:#b00020;color:#fff;font:bold 1.05em sans-serif;padding:.7em 1em;"
    "margin-bottom:1em;text-align:center;letter-spacing:.02em}"
    ".lead{color:#444}figure{margin:1.5em 0}figure svg{width:100%;height:auto;display:block}"
    "figcaption{font-size:.9em;color:#444;margin-top:.4em}"
    "table{border-collapse:collapse;font:13px/1.35 'DejaVu Sans',Arial,sans-serif;margin:.6em 0}"
    "th,td{padding:.3em .6em;border-bottom:1px solid #ddd;text-align:right;vertical-align:top;white-space:nowrap}"
    "th{border-bottom:2px solid #555;font-weight:600}td.l,th.l{text-align:left;white-space:normal}"
    "td.faster{color:#006d2c}td.slower{color:#b00020}td.same{color:#666}"
    "table.meta td{text-align:left;font-family:'DejaVu Sans Mono',monospace;font-size:12px;"
    "white-space:normal;overflow-wrap:anywhere;word-break:break-all}"
    "table.meta td.k{font-family:'DejaVu Sans',sans-serif;white-space:nowrap;"
    "color:#444;word-break:normal}"
    ".warn{background:#fff4d6;border-left:4px solid #e69f00;padding:.6em .9em;font-size:.95em}"
    "ul.verdicts{font-size:1.02em;margin:.4em 0 1em}"
    ".note{font-size:.9em;color:#444}ul.plain{font-size:.92em}"
    ".tablewrap{overflow-x:auto}table.results tbody{border-top:2px solid #999}"
    "table.results tbody th{text-align:left;font-weight:normal;border-bottom:1px solid #ddd}"
    "table.results td.test{font-weight:600;min-width:11em}"
    "#headline{border:1px solid #ccc;background:#fafafa;padding:0 1em .6em;margin:1em 0}"
    "#headline h2{margin-top:.6em}#headline h3{font-size:1.05em;margin:1em 0 .3em}"
    "table.headline td.l{white-space:normal}table.ceiling td{white-space:nowrap}";

/* The results table, one row per (target, test), the targets of a test
 * stacked under it (rowspan): test | target | mean +- CI (n) | %CP |
 * delta vs baseline [CI].  Five columns whatever the number of targets,
 * so it fits a 1200 px window with 4 or more targets (one column per
 * target scrolled sideways from 4 on), and the numbers to compare are
 * read down one column.  Wrapped in div.tablewrap (overflow-x:auto) for
 * narrow windows. */
static void
html_table(GString *out, const struct vdc_analysis *a)
{
    size_t ti, ki;

    g_string_append(out, "<div class=\"tablewrap\"><table class=\"results\" id=\"results\"><thead><tr>"
                         "<th class=\"l\">test</th><th class=\"l\">target</th>"
                         "<th>mean &plusmn; 95&nbsp;% CI</th><th>%CP</th><th>vs ");
    esc(out, a->baseline);
    g_string_append(out, " [95&nbsp;% CI]</th></tr></thead>\n");
    for (ki = 0; ki < a->n_tests; ki++) {
        const char *unit = NULL;
        size_t n_rows = 0;
        int first = 1;

        for (ti = 0; ti < a->n_targets; ti++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);

            if (!unit)
                unit = c->unit;
            n_rows += c->n_samples ? 1 : 0;
        }
        if (!n_rows)
            continue;
        g_string_append(out, "<tbody>\n");
        for (ti = 0; ti < a->n_targets; ti++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);
            char buf[64];

            if (!c->n_samples)
                continue;
            g_string_append(out, "<tr>");
            if (first) {
                g_string_append_printf(out, "<td class=\"l test\" rowspan=\"%zu\">", n_rows);
                esc(out, vdc_analysis_test_label(a, ki, (char[VDC_TEST_LABEL_MAX]){ 0 }, VDC_TEST_LABEL_MAX));
                if (unit) {
                    g_string_append(out, " <small>(");
                    esc(out, unit);
                    g_string_append(out, ")</small>");
                }
                g_string_append(out, "</td>");
                first = 0;
            }
            g_string_append(out, "<th>");
            esc(out, a->targets[ti]);
            g_string_append(out, "</th><td>");
            vdc_fmt_cell_mean(buf, sizeof(buf), c);
            esc(out, buf);
            if (c->sum.has_ci_mean)
                g_string_append_printf(out, " &plusmn; %s", vdc_fmt_num_s(c->sum.ci_mean[1] - c->sum.mean));
            if (c->sum.n && c->n_too_fast_excluded)
                g_string_append_printf(out, " <small>(n=%zu; %zu of %zu too fast)</small>", c->sum.n,
                                       c->n_too_fast_excluded, c->n_samples);
            else
                g_string_append_printf(out, " <small>(n=%zu)</small>", c->sum.n);
            g_string_append_printf(out, "</td><td>%s</td>", isfinite(c->cpu_mean) ? vdc_fmt_num_s(c->cpu_mean) : "");
            if (ti == a->baseline_index) {
                g_string_append(out, "<td class=\"same\">baseline</td>");
            } else {
                const struct vdc_stats_comparison *cm = &vdc_analysis_cmp(a, ti, ki)->c;
                const char *cls = cm->verdict == VDC_VERDICT_FASTER ? "faster" :
                                  cm->verdict == VDC_VERDICT_SLOWER ? "slower" :
                                  cm->verdict == VDC_VERDICT_NO_DIFFERENCE ? "same" : "";

                vdc_fmt_cell_delta(buf, sizeof(buf), vdc_analysis_cmp(a, ti, ki), 1);
                g_string_append_printf(out, "<td class=\"%s\" title=\"%s", cls, vdc_verdict_name(cm->verdict));
                if (cm->has_test)
                    g_string_append_printf(out, ", p = %.3g", cm->p_value);
                if (c->flags & VDC_CELL_ARTEFACT_MARKED)
                    g_string_append(out, "; may be an artefact");
                g_string_append(out, "\">");
                esc(out, buf);
                if (cm->has_ci)
                    g_string_append_printf(out, " <small>[%+.1f%%, %+.1f%%]</small>",
                                           cm->ci_delta_percent[0], cm->ci_delta_percent[1]);
                else if (vdc_stats_ci_unbounded(cm))
                    g_string_append(out, " <small title=\"the baseline mean is not significantly "
                                         "above 0: no bounded Fieller interval\">[unbounded]</small>");
                g_string_append(out, "</td>");
            }
            g_string_append(out, "</tr>\n");
        }
        g_string_append(out, "</tbody>\n");
    }
    g_string_append(out, "</table></div>\n");
}

static void
html_notes(GString *out, const struct vdc_analysis *a)
{
    size_t ti, ki, i;
    int any = 0;

    g_string_append_printf(out, "<p class=\"note\">Outlier rule: modified z-score |0.6745&nbsp;(x&nbsp;&minus;&nbsp;median)"
                           "&nbsp;/&nbsp;MAD| &gt; %g (Iglewicz&ndash;Hoaglin), applied to %d or more values; policy "
                           "<b>%s</b>.</p>\n<ul class=\"plain\">",
                           a->opt.outlier_threshold, VDC_STATS_OUTLIER_MIN_N, vdc_outlier_policy_name(a->opt.policy));
    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);

            for (i = 0; i < c->n_values; i++)
                if (c->samples[i].outlier) {
                    g_string_append(out, "<li>outlier: target ");
                    esc(out, c->target);
                    g_string_append(out, ", test ");
                    esc(out, c->test_key);
                    g_string_append_printf(out, ", repetition %" G_GINT64_FORMAT ", value %s ",
                                           c->samples[i].repetition, vdc_fmt_num_s(c->samples[i].value));
                    esc(out, c->unit);
                    g_string_append_printf(out, ", modified z %.2f%s</li>\n", c->samples[i].modified_z,
                                           a->opt.policy == VDC_OUTLIERS_DROP ? " (dropped)" : "");
                    any = 1;
                }
            if (c->n_no_value) {
                g_string_append(out, "<li>excluded: target ");
                esc(out, c->target);
                g_string_append(out, ", test ");
                esc(out, c->test_key);
                g_string_append_printf(out, ": %zu of %zu %s no value (%zu too fast, %zu failed)</li>\n",
                                       c->n_no_value, c->n_samples, c->n_samples == 1 ? "sample has" : "samples have", c->n_too_fast, c->n_failed);
                any = 1;
            }
        }
    if (!any)
        g_string_append(out, vdc_outlier_rule_applied(a) ? "<li>No sample flagged or excluded.</li>"
                        : "<li>Outlier rule not applied: no cell has enough values; "
                          "no sample excluded.</li>");
    g_string_append(out, "</ul>\n");
}

/* One figure: @svg (taken) with its ids prefixed by @id, and @caption;
 * @points > 0: a dot plot, its marker count as data-points (what the
 * Chromium test counts). */
static void
html_figure(GString *out, char *svg, const char *id, const char *cls, size_t points, const char *caption)
{
    char *fixed = vdc_svg_prefix_ids(svg, id);

    g_string_append_printf(out, "<figure id=\"%s\" class=\"%s\"", id, cls);
    if (points)
        g_string_append_printf(out, " data-points=\"%zu\"", points);
    g_string_append_printf(out, ">\n%s\n<figcaption>", fixed);
    esc(out, caption);
    g_string_append(out, "</figcaption></figure>\n");
    g_free(svg);
    g_free(fixed);
}

/* The bar chart of @unit (id chart-@name) and beside it, right after,
 * its dot plot (id dots-@name): every run of every test in run order. */
static int
html_chart(GString *out, const vdc_result_set *rs, const struct vdc_analysis *a, const char *name,
           const char *unit, const char *title, const char *caption, const char *dots_caption)
{
    int empty = 0;
    size_t points = 0;
    char *svg = vdc_render_chart_svg(a, unit, title, &empty), id[64], *dtitle;

    if (!svg)
        return empty ? 0 : -1;
    snprintf(id, sizeof(id), "chart-%s", name);
    html_figure(out, svg, id, "chart", 0, caption);
    dtitle = g_strdup_printf("%s: every run, in run order", title);
    svg = vdc_render_dots_svg(rs, a, unit, dtitle, &empty, &points);
    g_free(dtitle);
    if (!svg)
        return -1;
    snprintf(id, sizeof(id), "dots-%s", name);
    html_figure(out, svg, id, "chart dots", points, dots_caption);
    return 0;
}

/* A latency-percentile chart per target with workload samples (ids
 * chart-latency-N, N the target's index). */
static int
html_latency(GString *out, const vdc_result_set *rs, const struct vdc_analysis *a)
{
    size_t ti;

    for (ti = 0; ti < a->n_targets; ti++) {
        int empty = 0;
        char *title = g_strdup_printf("Completion latency percentiles: %s", a->targets[ti]);
        char *svg = vdc_render_latency_svg(rs, a, ti, title, &empty), id[48], *caption;

        g_free(title);
        if (!svg) {
            if (empty)
                continue;
            return -1;
        }
        snprintf(id, sizeof(id), "chart-latency-%zu", ti);
        caption = g_strdup_printf("Figure 5.%zu: target %s, each job's completion-latency percentiles "
                                  "(means of the runs), microseconds on a log scale (lower is better).",
                                  ti + 1, a->targets[ti]);
        html_figure(out, svg, id, "chart", 0, caption);
        g_free(caption);
    }
    return 0;
}

/* What the dot plots show (figure captions). */
#define DOTS_CAPTION \
    "each run's value in run order (x: repetition; y: the panel's own scale, not from 0), one colour per " \
    "target, so that drift across repetitions and single outliers show: a ring marks a value the outlier " \
    "rule flagged, an open triangle on the top edge a run too fast to measure, a cross at the bottom a " \
    "failed run."

/* How the charts draw too-fast cells (figure captions). */
#define TOO_FAST_CAPTION \
    "Too fast to measure (bonnie++ +++++): no bar but a dashed outline labelled \"too fast\" when " \
    "every run was; a hatched bar marked \u2020 when some were (its mean leaves them out and " \
    "understates the speed)."

/* The warnings of @kinds, one paragraph each: class "warn @cls", id
 * "@cls-N" (N from 0). */
static void
numbered_warnings(GString *out, const vdc_result_set *rs, const struct vdc_analysis *a, unsigned kinds,
                  const char *cls)
{
    char **w = vdc_warning_texts(rs, a, kinds);
    size_t i;

    for (i = 0; w[i]; i++) {
        g_string_append_printf(out, "<p class=\"warn %s\" id=\"%s-%zu\"><b>Warning.</b> ", cls, cls, i);
        esc(out, w[i]);
        g_string_append(out, "</p>\n");
    }
    g_strfreev(w);
}

char *
vdc_render_html(const vdc_result_set *rs, const struct vdc_analysis *a, const char *generated)
{
    GString *out = g_string_new(NULL);
    char **meta;
    size_t i;

    g_string_append(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                         "<title>vmdiskcmp report</title>\n<style>");
    g_string_append(out, css);
    g_string_append(out, "</style></head><body>\n");
    if (vdc_experiment_emulated(rs))
        g_string_append(out, "<div class=\"banner\" id=\"emulated\">EMULATED &mdash; numbers predict nothing "
                             "about real hardware</div>\n");
    g_string_append(out, "<h1>Guest disk backends compared</h1>\n<p class=\"lead\">");
    for (i = 0; i < a->n_targets; i++) {
        if (i)
            g_string_append(out, i + 1 == a->n_targets ? " and " : ", ");
        g_string_append(out, "<b>");
        esc(out, a->targets[i]);
        g_string_append(out, "</b>");
    }
    g_string_append(out, "; deltas against <b>");
    esc(out, a->baseline);
    g_string_append(out, "</b>.");
    if (rs->has_experiment && rs->experiment.date) {
        g_string_append(out, " Run started ");
        esc(out, rs->experiment.date);
        g_string_append(out, ".");
    }
    if (generated) {
        g_string_append(out, " Report generated ");
        esc(out, generated);
        g_string_append(out, ".");
    }
    g_string_append(out, "</p>\n");
    vdc_append_headline_html(out, a);
    vdc_append_warnings(out, rs, a, VDC_WARNINGS_FEW, "<p class=\"warn\" id=\"few-runs\"><b>Warning.</b> ",
                        "</p>\n", esc);
    vdc_append_warnings(out, rs, a, VDC_WARNING_BIT(VDC_WARNING_TOO_FAST), "<p class=\"warn\" id=\"too-fast\">",
                        "</p>\n", esc);
    {
        char **v = vdc_analysis_verdict_lines(a);

        if (v[0]) {
            g_string_append(out, "<ul class=\"verdicts\" id=\"verdicts\">\n");
            for (i = 0; v[i]; i++) {
                g_string_append(out, "<li>");
                esc(out, v[i]);
                g_string_append(out, "</li>\n");
            }
            g_string_append(out, "</ul>\n");
        }
        g_strfreev(v);
    }
    numbered_warnings(out, rs, a, VDC_WARNINGS_SIZES, "size-warning");
    vdc_append_warnings(out, rs, a, VDC_WARNING_BIT(VDC_WARNING_ARTEFACTS), "<p class=\"warn\" id=\"artefacts\">",
                        "</p>\n", esc);
    numbered_warnings(out, rs, a, VDC_WARNING_BIT(VDC_WARNING_ARTEFACT), "artefact");
    if (html_chart(out, rs, a, "throughput", "K/sec", "Sequential throughput (higher is better)",
                   "Figure 1: sequential output and input, K/sec (KiB/s as bonnie++ prints it). "
                   TOO_FAST_CAPTION, "Figure 1b: the runs behind Figure 1, " DOTS_CAPTION) < 0 ||
        html_chart(out, rs, a, "ops", "/sec", "Seeks and file operations (higher is better)",
                   "Figure 2: random seeks and the file create/read/delete tests, operations per second. "
                   TOO_FAST_CAPTION, "Figure 2b: the runs behind Figure 2, " DOTS_CAPTION) < 0 ||
        html_chart(out, rs, a, "sweep", "MiB/s", "Sequential I/O by block size (higher is better)",
                   "Figure 3: the block-size sweep (dd-like sequential read and write), MiB/s.",
                   "Figure 3b: the runs behind Figure 3, " DOTS_CAPTION) < 0 ||
        html_chart(out, rs, a, "workload", "IO/sec", "Workload IOPS (higher is better)",
                   "Figure 4: the fio-style jobs, I/O operations per second of each job and direction.",
                   "Figure 4b: the runs behind Figure 4, " DOTS_CAPTION) < 0 ||
        html_latency(out, rs, a) < 0 || vdc_host_cost_html(out, a) < 0)
        goto fail;
    g_string_append(out, "<h2>Results</h2>\n<p class=\"note\">Cells: mean &plusmn; half-width of the 95&nbsp;% "
                         "confidence interval of the mean (Student t); n: samples with a value. Deltas: % of the "
                         "baseline mean with the 95&nbsp;% Fieller interval; ** p&nbsp;&lt;&nbsp;0.01, "
                         "* p&nbsp;&lt;&nbsp;0.05, ~ no significant difference (Welch t-test); &dagger; not comparable "
                         "(too-fast runs left out of a mean); no mark: not tested (fewer than 2 samples).</p>\n");
    html_table(out, a);
    g_string_append(out, "<h2>Outliers and excluded samples</h2>\n");
    html_notes(out, a);
    g_string_append(out, "<h2>How to reproduce</h2>\n<table class=\"meta\" id=\"metadata\">\n");
    meta = vdc_metadata_lines(rs, a);
    vdc_append_pairs(out, meta, "<tr><td class=\"k\">", "</td><td>", "</td></tr>\n", esc);
    g_strfreev(meta);
    g_string_append(out, "</table>\n</body></html>\n");
    return g_string_free(out, FALSE);
 fail:
    g_string_free(out, TRUE);
    return NULL;
}
