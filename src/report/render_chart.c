/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp charts (render_chart.h): the SVG figures of report.html, drawn
 * by cairo on an SVG canvas (render_svg.h, text as SVG text) from the
 * analysis: the bar charts, the dot plots of every run, the latency
 * percentiles of each workload test. */
#include "config.h"

#include "report/render_chart.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cairo.h>
#include <glib.h>

#include "common/util.h"
#include "report/render_svg.h"

/* One colour per target: the Okabe-Ito palette (colour-blind safe) for
 * the first eight, then eight of Paul Tol's (indigo, wine, green, purple,
 * teal, olive, brown, steel blue) so that up to 16 targets are told apart;
 * the same target has the same colour in every figure. */
static const double palette[][3] = {
    { 0x00 / 255.0, 0x72 / 255.0, 0xB2 / 255.0 },
    { 0xE6 / 255.0, 0x9F / 255.0, 0x00 / 255.0 },
    { 0x00 / 255.0, 0x9E / 255.0, 0x73 / 255.0 },
    { 0xCC / 255.0, 0x79 / 255.0, 0xA7 / 255.0 },
    { 0x56 / 255.0, 0xB4 / 255.0, 0xE9 / 255.0 },
    { 0xD5 / 255.0, 0x5E / 255.0, 0x00 / 255.0 },
    { 0xF0 / 255.0, 0xE4 / 255.0, 0x42 / 255.0 },
    { 0.2, 0.2, 0.2 },
    { 0x33 / 255.0, 0x22 / 255.0, 0x88 / 255.0 },
    { 0x88 / 255.0, 0x22 / 255.0, 0x55 / 255.0 },
    { 0x11 / 255.0, 0x77 / 255.0, 0x33 / 255.0 },
    { 0xAA / 255.0, 0x44 / 255.0, 0x99 / 255.0 },
    { 0x44 / 255.0, 0xAA / 255.0, 0x99 / 255.0 },
    { 0x99 / 255.0, 0x99 / 255.0, 0x33 / 255.0 },
    { 0x66 / 255.0, 0x11 / 255.0, 0x00 / 255.0 },
    { 0x66 / 255.0, 0x99 / 255.0, 0xCC / 255.0 },
};
#define N_PALETTE (sizeof(palette) / sizeof(palette[0]))

const double *
vdc_chart_rgb(size_t ti)
{
    return palette[ti % N_PALETTE];
}

/* Set @cr's source to @col darkened to 60 %: the edge of a pale bar or
 * of a dot, so that a light colour (yellow, sky blue) still shows on white. */
static void
set_edge(cairo_t *cr, const double *col)
{
    cairo_set_source_rgb(cr, col[0] * 0.6, col[1] * 0.6, col[2] * 0.6);
}

/* A figure's width (the page's column scales it) and its margins. */
#define CHART_W 900.0
#define M_LEFT 86.0
#define M_RIGHT 20.0
#define M_TOP 46.0
#define PLOT_H 280.0             /* the plot's height */
#define LEGEND_SIZE 12.0         /* the legend's font */
#define LEGEND_LINE 18.0         /* ... and its rows */

const char *
vdc_chart_test_label(const struct vdc_analysis *a, size_t ki, char *buf, size_t size)
{
    const char *key = a->tests[ki], *pass = vdc_test_key_pass(key);
    int64_t bs = 0;
    const vdc_test_info *info = vdc_test_key_parse(key, &bs);

    if (info && info->workload) {
        char job[VDC_TEST_LABEL_MAX];

        /* the job's label has its pass already */
        snprintf(buf, size, "%s %s", vdc_analysis_job_label(a, ki, job, sizeof(job)),
                 info->id == VDC_TEST_WORKLOAD_WRITE ? "write" : "read");
        return buf;
    }
    if (info && !info->sweep)
        snprintf(buf, size, "%s", info->chart_label);
    else if (info && info->sweep && bs > 0) {
        const char *what = info->short_label;   /* "Read 4 KiB", "dd read 64 KiB" */

        if (bs % 1048576 == 0)
            snprintf(buf, size, "%s %" G_GINT64_FORMAT " MiB", what, bs / 1048576);
        else if (bs % 1024 == 0)
            snprintf(buf, size, "%s %" G_GINT64_FORMAT " KiB", what, bs / 1024);
        else
            snprintf(buf, size, "%s %" G_GINT64_FORMAT " B", what, bs);
    } else {
        snprintf(buf, size, "%s", key);
        return buf;
    }
    if (pass) {
        /* "Write block (first write)": a thin LV's two passes apart */
        size_t n = strlen(buf), i;

        snprintf(buf + n, size > n ? size - n : 0, " (%s)", pass);
        for (i = n; buf[i]; i++)
            if (buf[i] == '-')
                buf[i] = ' ';
    }
    return buf;
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

void
vdc_chart_tick(char *buf, size_t size, double v, double top)
{
    if (fabs(v) >= 1e5 && top >= 1e6)
        snprintf(buf, size, "%gM", v / 1e6);
    else if (fabs(v) >= 1e3 && top >= 1e4 && fmod(v, 1e2) == 0)
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


/* The legend keys of @a's targets (g_free). */
static struct vdc_svg_key *
target_keys(const struct vdc_analysis *a)
{
    struct vdc_svg_key *k = g_new0(struct vdc_svg_key, a->n_targets + 1);
    size_t ti;

    for (ti = 0; ti < a->n_targets; ti++) {
        k[ti].label = a->targets[ti];
        memcpy(k[ti].rgb, palette[ti % N_PALETTE], sizeof(k[ti].rgb));
    }
    return k;
}

/* A chart's bold title; leaves the normal font selected. */
static void
chart_title(cairo_t *cr, double w, const char *title)
{
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 15);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    vdc_svg_set_class(cr, "title");
    vdc_svg_text_fit(cr, w / 2, 24, title, 0.5, w - 20, 11, 17);
    vdc_svg_set_class(cr, NULL);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
}

/* The x and y axis lines of a @pw x @ph plot and the rotated y label. */
static void
chart_axes(cairo_t *cr, double pw, double ph, const char *ylabel)
{
    cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, M_LEFT + 0.5, M_TOP);
    cairo_line_to(cr, M_LEFT + 0.5, M_TOP + ph + 0.5);
    cairo_line_to(cr, M_LEFT + pw, M_TOP + ph + 0.5);
    cairo_stroke(cr);
    cairo_save(cr);
    cairo_set_font_size(cr, 12);
    cairo_translate(cr, 20, M_TOP + ph / 2);
    cairo_rotate(cr, -M_PI / 2);
    vdc_svg_set_class(cr, "axis");
    vdc_svg_text(cr, 0, 0, ylabel, 0.5);
    vdc_svg_set_class(cr, NULL);
    cairo_restore(cr);
}

/* What a drawing function is given. */
struct figure {
    const struct vdc_analysis *a;
    const long *keys;
    size_t nk;
    const char *unit, *title;
    double w, h;
    int label_lines;              /* bars: the x labels' lines (1 or 2) */
    size_t legend_rows;
    size_t n_points;              /* dot plots: markers drawn */
    const void *data;             /* the latency charts' struct latency_figure */
};

/* Draw @f with @draw on an SVG canvas: the <svg> element without XML
 * declaration, or NULL after vdc_error. */
static char *
svg_of(struct figure *f, void (*draw)(cairo_t *, struct figure *))
{
    cairo_t *cr = vdc_svg_begin(f->w, f->h);

    draw(cr, f);
    return vdc_svg_finish(cr, f->title);
}

/* ---- bar charts ---------------------------------------------------------------- */

/* A cell drawn in a bar chart: a mean, or every run too fast (a dashed
 * outline). */
static int
has_bar(const struct vdc_cell *c)
{
    return c->sum.n || c->n_too_fast;
}

/* render_chart.h */
unsigned
vdc_chart_marks(const struct vdc_analysis *a, const char *unit, long *only)
{
    long *keys = g_new(long, a->n_tests + 1);
    size_t nk = keys_of_unit(a, unit, keys), k, ti;
    unsigned m = 0;

    for (k = 0; k < nk; k++)
        for (ti = 0; ti < a->n_targets; ti++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, (size_t)keys[k]);

            if (!has_bar(c))
                continue;
            if (!c->sum.n)
                m |= VDC_CHART_TOO_FAST;
            if (c->sum.n && (c->flags & VDC_HEADLINE_NO_VERDICT_FLAGS))
                m |= VDC_CHART_PALE;
            if (c->sum.n && c->n_too_fast_excluded)
                m |= VDC_CHART_HATCHED;
        }
    *only = nk == 1 ? keys[0] : -1;
    g_free(keys);
    return m;
}

/* Value labels of bars: the font from BAR_LABEL_MAX down to BAR_LABEL_MIN
 * so that a label stays over its own bar; when even the smallest is wider
 * than the bar, the label runs upwards (it then needs the bar to be
 * BAR_LABEL_MIN_W wide: narrower bars carry no label, the results table
 * has every mean). */
#define BAR_LABEL_MAX 9.5
#define BAR_LABEL_MIN 7.5
#define BAR_LABEL_MIN_W 9.0

/* How the mean of one bar is labelled. */
struct bar_label {
    char text[40];
    double size;                 /* points; 0: no label */
    int upright;                 /* 1: runs upwards from above the whisker */
    double len;                  /* its length along the way it runs */
};

/* The label of cell @c over a bar @bw wide. */
static void
bar_label_of(const struct vdc_cell *c, double bw, struct bar_label *l)
{
    memset(l, 0, sizeof(*l));
    if (!c->sum.n)
        return;
    fmt_compact(l->text, sizeof(l->text), c->sum.mean);
    if (c->n_too_fast_excluded)
        g_strlcat(l->text, VDC_TOO_FAST_MARK, sizeof(l->text));
    if (c->flags & VDC_CELL_ARTEFACTS)
        g_strlcat(l->text, VDC_ARTEFACT_MARK, sizeof(l->text));
    for (l->size = BAR_LABEL_MAX; l->size >= BAR_LABEL_MIN; l->size -= 0.5)
        if ((l->len = vdc_svg_measure(l->text, l->size, 0)) <= bw - 1)
            return;
    if (bw < BAR_LABEL_MIN_W) {
        l->size = 0;
        return;
    }
    l->upright = 1;
    l->size = fmin(BAR_LABEL_MAX, bw * 0.85);
    l->len = vdc_svg_measure(l->text, l->size, 0);
}

/* The layout of a bar chart: its groups (a test each) and, in each, the
 * targets with a bar, side by side and centred; a target keeps its colour
 * whatever its place. */
struct bar_layout {
    double gw, bw;               /* a group's and a bar's width */
    size_t *slot;                /* [k * n_targets + ti]: the bar's place in group k, (size_t)-1 none */
    size_t *n_in;                /* [k]: bars in group k */
    struct bar_label *label;     /* [k * n_targets + ti] */
    double max, step;            /* the y axis: 0 to max */
};

/* The top of cell @c's bar and whisker, in its unit */
static double
bar_top(const struct vdc_cell *c)
{
    return c->sum.has_ci_mean ? fmax(c->sum.ci_mean[1], c->sum.mean) : c->sum.mean;
}

static void
bar_layout(const struct vdc_analysis *a, const long *keys, size_t nk, struct bar_layout *l)
{
    double pw = CHART_W - M_LEFT - M_RIGHT, ph = PLOT_H, max = 0, need = 0, raw;
    size_t k, ti, most = 1;

    l->slot = g_new(size_t, nk * a->n_targets + 1);
    l->n_in = g_new0(size_t, nk + 1);
    l->label = g_new0(struct bar_label, nk * a->n_targets + 1);
    for (k = 0; k < nk; k++) {
        for (ti = 0; ti < a->n_targets; ti++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, (size_t)keys[k]);

            l->slot[k * a->n_targets + ti] = has_bar(c) ? l->n_in[k]++ : (size_t)-1;
            if (c->sum.n)
                max = fmax(max, bar_top(c));
        }
        most = MAX(most, l->n_in[k]);
    }
    l->gw = pw / (double)nk;
    l->bw = fmin(l->gw * 0.8 / (double)most, 48);
    /* the y axis: 8 % over the highest whisker, and room over every bar
     * for its label when the label runs upwards */
    if (!isfinite(max) || max <= 0 || !isfinite(max * 1.08))
        max = 1;
    for (k = 0; k < nk; k++)
        for (ti = 0; ti < a->n_targets; ti++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, (size_t)keys[k]);
            struct bar_label *bl = &l->label[k * a->n_targets + ti];

            bar_label_of(c, l->bw, bl);
            if (bl->size > 0 && bl->upright && bl->len + 8 < ph * 0.5 && isfinite(bar_top(c)))
                need = fmax(need, bar_top(c) / (1 - (bl->len + 8) / ph));
        }
    raw = fmax(max * 1.08, need);
    l->step = nice_step(raw, 6);
    l->max = ceil(raw / l->step) * l->step;
}

static void
bar_layout_dispose(struct bar_layout *l)
{
    g_free(l->slot);
    g_free(l->n_in);
    g_free(l->label);
}

static void
draw_bars(cairo_t *cr, struct figure *f)
{
    const struct vdc_analysis *a = f->a;
    const long *keys = f->keys;
    size_t nk = f->nk;
    double pw = CHART_W - M_LEFT - M_RIGHT, ph = PLOT_H;
    double max, step, gw, bw, y;
    struct vdc_svg_key *legend = target_keys(a);
    struct bar_layout l;
    size_t ti, k;
    int g, n_grid;
    char buf[64];

    bar_layout(a, keys, nk, &l);
    max = l.max;
    step = l.step;
    gw = l.gw;
    bw = l.bw;
    n_grid = axis_lines(0, max, step);

    chart_title(cr, f->w, f->title);

    /* grid and y axis */
    vdc_svg_set_class(cr, "tick");
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
        vdc_chart_tick(buf, sizeof(buf), y, max);
        vdc_svg_text(cr, M_LEFT - 6, py + 4, buf, 1.0);
    }
    snprintf(buf, sizeof(buf), "%s (mean, 95%% CI)", f->unit);
    chart_axes(cr, pw, ph, buf);

    /* bars: in each group the targets that have one, centred */
    for (k = 0; k < nk; k++) {
        double gx = M_LEFT + gw * (double)k + (gw - bw * (double)l.n_in[k]) / 2;
        char label[VDC_TEST_LABEL_MAX];

        for (ti = 0; ti < a->n_targets; ti++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, (size_t)keys[k]);
            const struct bar_label *bl = &l.label[k * a->n_targets + ti];
            const double *col = palette[ti % N_PALETTE];
            double x, h;

            if (l.slot[k * a->n_targets + ti] == (size_t)-1)
                continue;
            x = gx + bw * (double)l.slot[k * a->n_targets + ti];
            if (!c->sum.n) {
                /* every run too fast: no bar (a zero-height bar would
                 * read as the slowest), a dashed outline to the top of
                 * the plot (unbounded) and "too fast" written upwards */
                static const double dash[] = { 3, 2 };

                set_edge(cr, col);
                cairo_set_line_width(cr, 1);
                cairo_set_dash(cr, dash, 2, 0);
                cairo_rectangle(cr, x + 1.5, M_TOP + 0.5, bw - 3, ph - 1);
                cairo_stroke(cr);
                cairo_set_dash(cr, NULL, 0, 0);
                cairo_save(cr);
                vdc_svg_set_class(cr, "value");
                cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
                cairo_set_font_size(cr, bw >= 20 ? 10 : 8);
                cairo_translate(cr, x + bw / 2 + 3.5, M_TOP + ph / 2);
                cairo_rotate(cr, -M_PI / 2);
                vdc_svg_text(cr, 0, 0, "too fast (+++++)", 0.5);
                cairo_restore(cr);
                continue;
            }
            h = c->sum.mean / max * ph;
            if (c->flags & VDC_HEADLINE_NO_VERDICT_FLAGS) {
                /* no verdict can rest on this bar (too fast, under twice
                 * the RAM, an artefact): pale, outlined */
                cairo_set_source_rgba(cr, col[0], col[1], col[2], 0.3);
                cairo_rectangle(cr, x + 1, M_TOP + ph - h, bw - 2, h);
                cairo_fill_preserve(cr);
                set_edge(cr, col);
                cairo_set_line_width(cr, 1);
                cairo_stroke(cr);
            } else {
                cairo_set_source_rgb(cr, col[0], col[1], col[2]);
                cairo_rectangle(cr, x + 1, M_TOP + ph - h, bw - 2, h);
                cairo_fill(cr);
            }
            if (c->n_too_fast_excluded) {
                /* some runs too fast: the mean understates; hatch the bar */
                double yy;

                cairo_save(cr);
                cairo_rectangle(cr, x + 1, M_TOP + ph - h, bw - 2, h);
                cairo_clip(cr);
                cairo_set_source_rgb(cr, 1, 1, 1);
                cairo_set_line_width(cr, 1.5);
                for (yy = M_TOP + ph - h - bw; yy < M_TOP + ph + bw; yy += 6) {
                    cairo_move_to(cr, x, yy + bw);
                    cairo_line_to(cr, x + bw, yy);
                }
                cairo_stroke(cr);
                cairo_restore(cr);
            }
            if (bl->size > 0) {
                /* the mean above the bar and its whisker, so that small
                 * bars beside large ones can still be read; over its own
                 * bar only (bar_label_of), so labels never meet */
                double top = M_TOP + ph - bar_top(c) / max * ph;

                cairo_save(cr);
                vdc_svg_set_class(cr, "value");
                cairo_set_source_rgb(cr, 0.2, 0.2, 0.2);
                cairo_set_font_size(cr, bl->size);
                if (bl->upright) {
                    cairo_translate(cr, x + bw / 2 + bl->size * 0.35, top - 4);
                    cairo_rotate(cr, -M_PI / 2);
                    vdc_svg_text(cr, 0, 0, bl->text, 0);
                } else {
                    vdc_svg_text(cr, x + bw / 2, top - 4, bl->text, 0.5);
                }
                cairo_restore(cr);
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
        vdc_svg_set_class(cr, "xlabel");
        cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
        cairo_set_font_size(cr, 11.5);
        vdc_svg_text_fit(cr, M_LEFT + gw * ((double)k + 0.5), M_TOP + ph + 18,
                         vdc_chart_test_label(a, (size_t)keys[k], label, sizeof(label)), 0.5, gw - 6, 8.5, 13);
    }
    /* legend, under the x labels */
    vdc_svg_legend(cr, legend, a->n_targets, M_LEFT, pw, M_TOP + ph + 18 + 13.0 * f->label_lines + 22,
                   LEGEND_SIZE, LEGEND_LINE, VDC_SVG_SQUARE);
    bar_layout_dispose(&l);
    g_free(legend);
}

/* The lines the x labels of @f take (2 when one does not fit its group
 * in one line, vdc_svg_fit_plan). */
static int
x_label_lines(const struct vdc_analysis *a, const long *keys, size_t nk, double gw)
{
    char label[VDC_TEST_LABEL_MAX];
    struct vdc_svg_fit fit;
    size_t k;

    for (k = 0; k < nk; k++) {
        vdc_svg_fit_plan(vdc_chart_test_label(a, (size_t)keys[k], label, sizeof(label)), 11.5, gw - 6, 8.5, 0,
                         &fit);
        if (fit.lines > 1)
            return 2;
    }
    return 1;
}

char *
vdc_render_chart_svg(const struct vdc_analysis *a, const char *unit, const char *title, int *empty)
{
    long *keys = g_new(long, a->n_tests + 1);
    struct figure f = { .a = a, .keys = keys, .unit = unit, .title = title, .w = CHART_W };
    struct vdc_svg_key *legend = target_keys(a);
    char *out = NULL;

    f.nk = keys_of_unit(a, unit, keys);
    *empty = !f.nk;
    if (f.nk) {
        f.label_lines = x_label_lines(a, keys, f.nk, (CHART_W - M_LEFT - M_RIGHT) / (double)f.nk);
        f.legend_rows = vdc_svg_legend_rows(legend, a->n_targets, CHART_W - M_LEFT - M_RIGHT, LEGEND_SIZE);
        f.h = M_TOP + PLOT_H + 18 + 13.0 * f.label_lines + 22 + LEGEND_LINE * (double)f.legend_rows;
        out = svg_of(&f, draw_bars);
    }
    g_free(legend);
    g_free(keys);
    return out;
}

/* ---- workload latency percentiles: one chart per test, every target -------------- */

static const char *const percentiles[VDC_CLAT_N] = { "p50", "p90", "p99", "p99.9", "p99.99" };

void
vdc_chart_decade(char *buf, size_t size, double d)
{
    double v = pow(10, d);

    if (v >= 1e6)
        snprintf(buf, size, "%gM", v / 1e6);
    else if (v >= 1e4)
        snprintf(buf, size, "%gk", v / 1e3);
    else
        snprintf(buf, size, "%g", v);
}

struct latency_figure {
    size_t test;
    double lo, hi;               /* log10 of the y range, whole decades */
};

/* y of latency @v (us) on the log axis of @lf in a plot from @top, @ph high */
static double
latency_y(const struct latency_figure *lf, double v, double top, double ph)
{
    return top + ph - (fmin(fmax(log10(v), lf->lo), lf->hi) - lf->lo) / (lf->hi - lf->lo) * ph;
}

static void
draw_latency(cairo_t *cr, struct figure *f)
{
    const struct vdc_analysis *a = f->a;
    const struct latency_figure *lf = f->data;
    double pw = CHART_W - M_LEFT - M_RIGHT, ph = PLOT_H, d;
    struct vdc_svg_key *legend = g_new0(struct vdc_svg_key, a->n_targets + 1);
    size_t k, ti, nl = 0;
    char buf[48];

    chart_title(cr, f->w, f->title);
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
        vdc_chart_decade(buf, sizeof(buf), d);
        vdc_svg_text(cr, M_LEFT - 6, py + 4, buf, 1.0);
    }
    cairo_set_source_rgb(cr, 0.25, 0.25, 0.25);
    for (k = 0; k < VDC_CLAT_N; k++)
        vdc_svg_text(cr, M_LEFT + pw * ((double)k + 0.5) / VDC_CLAT_N, M_TOP + ph + 18, percentiles[k], 0.5);
    chart_axes(cr, pw, ph, "completion latency, us (log scale)");
    /* one line per target, in its colour: every target on one axis */
    for (ti = 0; ti < a->n_targets; ti++) {
        const struct vdc_cell *c = vdc_analysis_cell(a, ti, lf->test);
        const double *col = palette[ti % N_PALETTE];
        int started = 0;

        for (k = 0; k < VDC_CLAT_N; k++)
            started |= vdc_has(c->wl.clat_us[k]) && c->wl.clat_us[k] > 0;
        if (!started)
            continue;
        legend[nl].label = a->targets[ti];
        memcpy(legend[nl++].rgb, col, sizeof(legend[0].rgb));
        started = 0;
        cairo_set_source_rgb(cr, col[0], col[1], col[2]);
        cairo_set_line_width(cr, 2);
        for (k = 0; k < VDC_CLAT_N; k++) {
            double px = M_LEFT + pw * ((double)k + 0.5) / VDC_CLAT_N, v = c->wl.clat_us[k];

            if (!vdc_has(v) || v <= 0)   /* a log axis */
                continue;
            if (started)
                cairo_line_to(cr, px, latency_y(lf, v, M_TOP, ph));
            else
                cairo_move_to(cr, px, latency_y(lf, v, M_TOP, ph));
            started = 1;
        }
        cairo_stroke(cr);
        for (k = 0; k < VDC_CLAT_N; k++) {
            double v = c->wl.clat_us[k];

            if (vdc_has(v) && v > 0) {
                cairo_arc(cr, M_LEFT + pw * ((double)k + 0.5) / VDC_CLAT_N, latency_y(lf, v, M_TOP, ph), 3.5, 0,
                          2 * M_PI);
                cairo_fill(cr);
                f->n_points++;
            }
        }
    }
    vdc_svg_legend(cr, legend, nl, M_LEFT, pw, M_TOP + ph + 18 + 26, LEGEND_SIZE, LEGEND_LINE, VDC_SVG_LINE);
    g_free(legend);
}

char *
vdc_render_latency_svg(const struct vdc_analysis *a, size_t ki, const char *title, int *empty, size_t *n_points)
{
    struct latency_figure lf = { .test = ki, .lo = INFINITY, .hi = -INFINITY };
    struct figure f = { .a = a, .title = title, .w = CHART_W };
    struct vdc_svg_key *legend = target_keys(a);
    size_t ti, k, nl = 0;
    char *out = NULL;

    *n_points = 0;
    for (ti = 0; vdc_test_key_job(a->tests[ki]) && ti < a->n_targets; ti++) {
        const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);
        int any = 0;

        for (k = 0; k < VDC_CLAT_N; k++)
            if (vdc_has(c->wl.clat_us[k]) && c->wl.clat_us[k] > 0) {   /* a log axis */
                lf.lo = MIN(lf.lo, floor(log10(c->wl.clat_us[k])));
                lf.hi = MAX(lf.hi, ceil(log10(c->wl.clat_us[k])));
                any = 1;
            }
        if (any)
            legend[nl++] = legend[ti];
    }
    *empty = !nl;
    if (nl) {
        if (lf.hi <= lf.lo)
            lf.hi = lf.lo + 1;
        if (lf.hi - lf.lo > AXIS_TICKS_MAX / 4)     /* decades: a readable axis, a bounded loop */
            lf.lo = lf.hi - AXIS_TICKS_MAX / 4;
        f.h = M_TOP + PLOT_H + 18 + 26 + LEGEND_LINE *
              (double)vdc_svg_legend_rows(legend, nl, CHART_W - M_LEFT - M_RIGHT, LEGEND_SIZE);
        f.data = &lf;
        out = svg_of(&f, draw_latency);
        *n_points = f.n_points;
    }
    g_free(legend);
    return out;
}

/* ---- dot plots: every run in run order ------------------------------------ */

#define DOTS_COLS 3
#define DOTS_PANEL_H 168.0
#define DOTS_TOP 44.0
#define DOTS_PAD_L 58.0          /* in a panel: room for the y ticks */
#define DOTS_PAD_R 10.0
#define DOTS_PAD_T 24.0          /* the panel's title */
#define DOTS_TITLE_LINE 12.0     /* ... and its second line */
#define DOTS_PAD_B 26.0          /* the repetition ticks */
#define DOTS_INSET 12.0          /* the first and last repetition from the frame */
/* a panel's title: centred over the frame of a panel @pw wide, within it */
#define DOTS_TITLE_W(pw) ((pw) - DOTS_PAD_L + DOTS_PAD_R)

/* A panel's title: its test and unit ("Write block (first write), K/sec"). */
static const char *
dot_panel_title(const struct vdc_analysis *a, size_t ki, const char *unit, char *buf, size_t size)
{
    char label[VDC_TEST_LABEL_MAX];

    snprintf(buf, size, "%s, %s", vdc_chart_test_label(a, ki, label, sizeof(label)), unit);
    return buf;
}

/* The height of a dot panel whose title takes @lines lines. */
static double
dot_panel_h(int lines)
{
    return DOTS_PANEL_H + DOTS_TITLE_LINE * (double)(lines - 1);
}

/* One panel: test @ki at (@x0, @y0), @pw x @ph. */
static void
draw_dot_panel(cairo_t *cr, struct figure *f, size_t ki, double x0, double y0, double pw, double ph)
{
    const struct vdc_analysis *a = f->a;
    double lo = INFINITY, hi = -INFINITY, step, y, px0 = x0 + DOTS_PAD_L, px1 = x0 + pw - DOTS_PAD_R;
    double py0 = y0 + DOTS_PAD_T + DOTS_TITLE_LINE * (double)(f->label_lines - 1), py1 = y0 + ph - DOTS_PAD_B;
    double xs, jitter, inset;
    int64_t max_rep = 0, r, every;
    size_t ti, i;
    int g, n_grid;
    char buf[VDC_TEST_LABEL_MAX + 32];

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
    vdc_svg_set_class(cr, "panel");
    vdc_svg_text_fit(cr, (px0 + px1) / 2, y0 + 14, dot_panel_title(a, ki, f->unit, buf, sizeof(buf)), 0.5,
                     DOTS_TITLE_W(pw), 8.5, DOTS_TITLE_LINE);
    vdc_svg_set_class(cr, "tick");
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
        vdc_chart_tick(buf, sizeof(buf), y, hi);
        vdc_svg_text(cr, px0 - 4, py + 3, buf, 1.0);
    }
    cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
    cairo_rectangle(cr, floor(px0) + 0.5, floor(py0) + 0.5, floor(px1 - px0), floor(py1 - py0));
    cairo_stroke(cr);
    /* x: repetitions, in run order; the targets side by side at each
     * (jitter at most 4 apart), all of them inside the frame */
    inset = DOTS_INSET + 2.0 * (double)(a->n_targets - 1);
    xs = max_rep > 0 ? (px1 - px0 - 2 * inset) / (double)max_rep : 0;
    every = max_rep > 12 ? (max_rep + 11) / 12 : 1;
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    for (r = 0; r <= max_rep; r += every) {
        snprintf(buf, sizeof(buf), "%" G_GINT64_FORMAT, (gint64)r);
        vdc_svg_text(cr, px0 + inset + xs * (double)r + (max_rep ? 0 : (px1 - px0 - 2 * inset) / 2), py1 + 12,
                     buf, 0.5);
    }
    vdc_svg_set_class(cr, NULL);
    jitter = fmin(4.0, a->n_targets > 1 ? (xs > 0 ? xs : 40) * 0.5 / (double)a->n_targets : 0);

    /* one series per target: a thin line in run order, a dot per value;
     * a flagged outlier ringed; too fast: an open triangle on the top
     * edge; failed: a cross on the bottom edge */
    for (ti = 0; ti < a->n_targets; ti++) {
        const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);
        const double *col = palette[ti % N_PALETTE];
        double dx = ((double)ti - ((double)a->n_targets - 1) / 2) * jitter;

#define DOT_X(rep) (px0 + inset + xs * (double)(rep) + (max_rep ? 0 : (px1 - px0 - 2 * inset) / 2) + dx)
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
            cairo_fill_preserve(cr);
            set_edge(cr, col);
            cairo_set_line_width(cr, 0.6);
            cairo_stroke(cr);
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
    double pw = (f->w - 20) / DOTS_COLS, ph = dot_panel_h(f->label_lines);
    struct vdc_svg_key *legend = target_keys(a);
    size_t k, rows = (f->nk + DOTS_COLS - 1) / DOTS_COLS;

    chart_title(cr, f->w, f->title);
    for (k = 0; k < f->nk; k++)
        draw_dot_panel(cr, f, (size_t)f->keys[k], 10 + pw * (double)(k % DOTS_COLS),
                       DOTS_TOP + ph * (double)(k / DOTS_COLS), pw, ph);
    vdc_svg_legend(cr, legend, a->n_targets, 10, f->w - 20, DOTS_TOP + ph * (double)rows + 14, LEGEND_SIZE,
                   LEGEND_LINE, VDC_SVG_DOT);
    g_free(legend);
}

char *
vdc_render_dots_svg(const struct vdc_analysis *a, const char *unit, const char *title, int *empty,
                    size_t *n_points)
{
    long *keys = g_new(long, a->n_tests + 1);
    struct figure f = { .a = a, .keys = keys, .unit = unit, .title = title, .w = CHART_W };
    struct vdc_svg_key *legend = target_keys(a);
    char *out = NULL, buf[VDC_TEST_LABEL_MAX + 32];
    struct vdc_svg_fit fit;
    size_t k;

    f.nk = keys_of_unit(a, unit, keys);
    /* the panels' titles: all in one line, or all given two */
    f.label_lines = 1;
    for (k = 0; k < f.nk; k++) {
        vdc_svg_fit_plan(dot_panel_title(a, (size_t)keys[k], unit, buf, sizeof(buf)), 11.5,
                         DOTS_TITLE_W((CHART_W - 20) / DOTS_COLS), 8.5, 0, &fit);
        f.label_lines = MAX(f.label_lines, fit.lines);
    }
    f.h = DOTS_TOP + dot_panel_h(f.label_lines) * (double)((f.nk + DOTS_COLS - 1) / DOTS_COLS) + 14 + 8 +
          LEGEND_LINE * (double)vdc_svg_legend_rows(legend, a->n_targets, CHART_W - 20, LEGEND_SIZE);
    *empty = !f.nk;
    if (f.nk)
        out = svg_of(&f, draw_dots);
    *n_points = f.n_points;
    g_free(legend);
    g_free(keys);
    return out;
}
