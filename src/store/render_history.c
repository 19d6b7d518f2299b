/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp history as text and as an HTML page with cairo SVG charts
 * (history.h; doc/store.md "History").  Renders only what
 * vdc_history_load and vdc_history_decide decided. */
#include "config.h"

#include "store/history.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cairo.h>
#include <cairo-svg.h>

#include "common/util.h"
#include "report/analysis.h"
#include "report/render_svg.h"
#include "store/facts.h"

/* One (host, target, reference): its series [first, first + n) in
 * h->series and the results any of them has, by date: #1, #2, ... */
struct group {
    size_t first, n;
    GArray *results;             /* const struct vdc_history_point *, one per result */
    GPtrArray *changes;          /* per result: what changed from the one before (NULL for #1) */
};

static gint
point_cmp(gconstpointer a, gconstpointer b)
{
    const struct vdc_history_point *x = *(const struct vdc_history_point *const *)a;
    const struct vdc_history_point *y = *(const struct vdc_history_point *const *)b;
    int c = g_strcmp0(x->date, y->date);

    return c ? c : (x->result > y->result) - (x->result < y->result);
}

static GArray *
make_groups(const struct vdc_history *h)
{
    GArray *groups = g_array_new(FALSE, TRUE, sizeof(struct group));

    for (size_t i = 0; i < h->n_series;) {
        const struct vdc_history_series *s = &h->series[i];
        struct group g = { .first = i };

        g.results = g_array_new(FALSE, FALSE, sizeof(const struct vdc_history_point *));
        g.changes = g_ptr_array_new_with_free_func(g_free);
        for (; i < h->n_series && !strcmp(h->series[i].host, s->host) && !strcmp(h->series[i].target, s->target) &&
               !strcmp(h->series[i].reference, s->reference); i++, g.n++)
            for (size_t k = 0; k < h->series[i].n_points; k++) {
                const struct vdc_history_point *p = &h->series[i].points[k];
                guint j;

                for (j = 0; j < g.results->len; j++)
                    if (g_array_index(g.results, const struct vdc_history_point *, j)->result == p->result)
                        break;
                if (j == g.results->len)
                    g_array_append_val(g.results, p);
            }
        g_array_sort(g.results, point_cmp);
        for (guint j = 0; j < g.results->len; j++) {
            const struct vdc_history_point *p = g_array_index(g.results, const struct vdc_history_point *, j);
            const struct vdc_history_point *q = j ? g_array_index(g.results, const struct vdc_history_point *, j - 1)
                                                  : NULL;

            g_ptr_array_add(g.changes, q && q->facts && p->facts ?
                            vdc_facts_changes(q->facts, p->facts, s->target, s->reference, NULL) : NULL);
        }
        g_array_append_val(groups, g);
    }
    return groups;
}

static void
groups_free(GArray *groups)
{
    for (guint i = 0; i < groups->len; i++) {
        struct group *g = &g_array_index(groups, struct group, i);

        g_array_unref(g->results);
        g_ptr_array_unref(g->changes);
    }
    g_array_unref(groups);
}

/* #k of @p's result in @g (1-based) */
static unsigned
result_no(const struct group *g, const struct vdc_history_point *p)
{
    for (guint j = 0; j < g->results->len; j++)
        if (g_array_index(g->results, const struct vdc_history_point *, j)->result == p->result)
            return j + 1;
    return 0;
}

static const char *
fmt_ratio(char *buf, size_t size, double v)
{
    if (isfinite(v))
        snprintf(buf, size, "%.3f", v);
    else
        snprintf(buf, size, "-");
    return buf;
}

/* "0.934 [0.851, 1.025]" */
static char *
ratio_text(const struct vdc_history_point *p)
{
    char r[32], lo[32], hi[32];

    fmt_ratio(r, sizeof(r), p->ratio);
    if (!isfinite(p->lo) || !isfinite(p->hi))
        return g_strdup_printf("%s [no interval]", r);
    return g_strdup_printf("%s [%s, %s]", r, fmt_ratio(lo, sizeof(lo), p->lo), fmt_ratio(hi, sizeof(hi), p->hi));
}

/* the step of point @k of @s against the one before it, "" for the first */
static char *
step_text(const struct group *g, const struct vdc_history_series *s, size_t k)
{
    const struct vdc_history_point *p = &s->points[k], *prev;
    GString *out = g_string_new(NULL);

    if (k == 0)
        return g_string_free(out, FALSE);
    prev = &s->points[k - 1];
    g_string_append_printf(out, "against #%u: ", result_no(g, prev));
    if (p->verdict_changed)
        g_string_append_printf(out, "verdict %s (was %s), ", p->move_significant ? "CHANGED" : "changed",
                               prev->verdict);
    if (!p->move.has_ratio) {
        g_string_append(out, "no repetitions to compare");
        return g_string_free(out, FALSE);
    }
    g_string_append_printf(out, "ratio of means moved %+.1f %%", p->move.percent);
    if (p->move.has_ci)
        g_string_append_printf(out, " [%+.1f, %+.1f]", p->move.ci_percent[0], p->move.ci_percent[1]);
    if (p->step_not_comparable) {
        /* a rule says a side may measure something else than the disk */
        if (prev->not_comparable && p->not_comparable)
            g_string_append_printf(out, "; not comparable (#%u and #%u are): not tested", result_no(g, prev),
                                   result_no(g, p));
        else
            g_string_append_printf(out, "; not comparable (#%u is): not tested",
                                   result_no(g, prev->not_comparable ? prev : p));
    } else if (p->move.has_test)
        g_string_append_printf(out, ", p = %.3g%s", p->move.p_value, p->move_significant ? " (significant)" : "");
    else
        g_string_append(out, ", not tested (fewer than 2 repetitions on a side, or none varied)");
    return g_string_free(out, FALSE);
}

static int
any_emulated(const struct vdc_history *h)
{
    for (size_t i = 0; i < h->n_series; i++)
        for (size_t k = 0; k < h->series[i].n_points; k++)
            if (h->series[i].points[k].emulated == 1)
                return 1;
    return 0;
}

static size_t
n_hosts(const struct vdc_history *h)
{
    size_t n = 0;

    for (size_t i = 0; i < h->n_series; i++)
        if (!i || strcmp(h->series[i].host, h->series[i - 1].host))
            n++;
    return n;
}

#define METHOD_TEXT \
    "Each result's ratio and paired 95 %% interval are its report's headline (paired Fieller, the same " \
    "repetition of both targets a pair).  A step is the move of that ratio of means from the result before " \
    "(this ratio / that ratio - 1), with its 95 %% interval and p from the two results' repetitions (log " \
    "scale, delta method, Welch-Satterthwaite df: the results share no pairing).  A step where either " \
    "result is not comparable (a rule such as under-2x-ram) is not tested.  A verdict CHANGED when both " \
    "results tested it, the verdicts differ and the ratio moved significantly (p < %.2g); \"changed\" " \
    "without capitals: the verdicts differ but the move is not significant."

char *
vdc_history_render_text(const struct vdc_history *h)
{
    GString *out = g_string_new(NULL);
    GArray *groups = make_groups(h);

    g_string_append_printf(out, "vmdiskcmp history: store %s (%zu result%s); %zu host%s, %u pair%s, %zu series\n",
                           h->store ? h->store : "-", h->n_results, h->n_results == 1 ? "" : "s", n_hosts(h),
                           n_hosts(h) == 1 ? "" : "s", groups->len, groups->len == 1 ? "" : "s", h->n_series);
    if (any_emulated(h))
        g_string_append(out, "EMULATED: results marked emulated ran under emulation (the lab): their numbers "
                              "predict nothing about real hardware\n");
    if (!h->n_series)
        g_string_append(out, "\nNo image/LV headline row matches: nothing to show (vmdiskcmp store add DIR... "
                             "records result directories).\n");
    for (guint gi = 0; gi < groups->len; gi++) {
        const struct group *g = &g_array_index(groups, struct group, gi);
        const struct vdc_history_series *s0 = &h->series[g->first];

        g_string_append_printf(out, "\n== %s: %s against %s (ratio of means %s / %s with its paired 95 %% "
                               "interval; above 1: %s faster) ==\n", s0->host, s0->target, s0->reference,
                               s0->target, s0->reference, s0->target);
        g_string_append(out, "Results (each with what changed from the result before):\n");
        for (guint j = 0; j < g->results->len; j++) {
            const struct vdc_history_point *p = g_array_index(g->results, const struct vdc_history_point *, j);
            const char *ch = g->changes->pdata[j];

            g_string_append_printf(out, "  #%u %s  %s%s  %s\n", j + 1, p->date ? p->date : "(no date)",
                                   p->run_id ? p->run_id : "(no id)", p->emulated == 1 ? " EMULATED" : "",
                                   p->source ? p->source : "");
            if (ch)
                g_string_append_printf(out, "      changed: %s\n", *ch ? ch : "nothing recorded");
        }
        for (size_t i = g->first; i < g->first + g->n; i++) {
            const struct vdc_history_series *s = &h->series[i];
            char label[VDC_TEST_LABEL_MAX];

            vdc_test_key_label(s->test_key, label, sizeof(label));
            g_string_append_printf(out, "%s (%s, %s):\n", label, s->test_key, s->unit ? s->unit : "");
            for (size_t k = 0; k < s->n_points; k++) {
                const struct vdc_history_point *p = &s->points[k];
                g_autofree char *r = ratio_text(p), *step = step_text(g, s, k);

                g_string_append_printf(out, "  #%-2u %-24s %s", result_no(g, p), r, p->verdict);
                if (p->effect && strcmp(p->effect, "not tested"))
                    g_string_append_printf(out, ", %s", p->effect);
                g_string_append_printf(out, " (%zu pair%s)", p->n_pairs, p->n_pairs == 1 ? "" : "s");
                if (p->not_comparable)
                    g_string_append_printf(out, " (%s)", p->not_comparable);
                if (*step)
                    g_string_append_printf(out, "; %s", step);
                g_string_append(out, "\n");
            }
        }
    }
    g_string_append(out, "\n");
    g_string_append_printf(out, METHOD_TEXT, h->alpha);
    g_string_append(out, "\n");
    groups_free(groups);
    return g_string_free(out, FALSE);
}

/* ---- HTML -------------------------------------------------------------------- */

#define CH_W 960.0
#define CH_H 440.0
#define CH_LEFT 70.0
#define CH_RIGHT 250.0
#define CH_TOP 50.0
#define CH_BOTTOM 70.0

static const double palette[10][3] = {
    { 0.12, 0.47, 0.71 }, { 1.00, 0.50, 0.05 }, { 0.17, 0.63, 0.17 }, { 0.84, 0.15, 0.16 },
    { 0.58, 0.40, 0.74 }, { 0.55, 0.34, 0.29 }, { 0.89, 0.47, 0.76 }, { 0.50, 0.50, 0.50 },
    { 0.74, 0.74, 0.13 }, { 0.09, 0.75, 0.81 },
};

static cairo_status_t
svg_append(void *closure, const unsigned char *data, unsigned int length)
{
    g_string_append_len(closure, (const char *)data, length);
    return CAIRO_STATUS_SUCCESS;
}

static int
point_tested(const struct vdc_history_point *p)
{
    return p->verdict && (!strcmp(p->verdict, "faster") || !strcmp(p->verdict, "slower") ||
                          !strcmp(p->verdict, "no significant difference"));
}

/* The chart of group @g: x the results #1..#N, y the ratio (linear), a
 * dot per test with its interval as a whisker (hollow: no verdict), the
 * line y = 1, a dashed line before each result whose facts changed. */
static void
draw_group(cairo_t *cr, const struct vdc_history *h, const struct group *g)
{
    const struct vdc_history_series *s0 = &h->series[g->first];
    double pw = CH_W - CH_LEFT - CH_RIGHT, ph = CH_H - CH_TOP - CH_BOTTOM;
    double lo = 1, hi = 1, slot, step;
    guint nr = g->results->len;
    char buf[160];

    for (size_t i = g->first; i < g->first + g->n; i++)
        for (size_t k = 0; k < h->series[i].n_points; k++) {
            const struct vdc_history_point *p = &h->series[i].points[k];
            double v[3] = { p->ratio, p->lo, p->hi };

            for (int j = 0; j < 3; j++)
                if (isfinite(v[j]) && fabs(v[j]) < 1e6) {
                    lo = MIN(lo, v[j]);
                    hi = MAX(hi, v[j]);
                }
        }
    lo = MAX(0, lo - 0.05 * (hi - lo + 0.1));
    hi = hi + 0.05 * (hi - lo + 0.1);
    slot = pw / MAX(nr, 1);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    cairo_set_font_size(cr, 14);
    cairo_set_source_rgb(cr, 0, 0, 0);
    snprintf(buf, sizeof(buf), "%s: %s / %s over time (ratio of means, paired 95 %% interval)", s0->host,
             s0->target, s0->reference);
    cairo_move_to(cr, CH_LEFT, 24);
    cairo_show_text(cr, buf);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, 11);
    /* axes and y grid: about 6 ticks at a round step */
    cairo_set_line_width(cr, 1);
    cairo_move_to(cr, CH_LEFT, CH_TOP);
    cairo_line_to(cr, CH_LEFT, CH_TOP + ph);
    cairo_line_to(cr, CH_LEFT + pw, CH_TOP + ph);
    cairo_stroke(cr);
    step = pow(10, floor(log10((hi - lo) / 6)));
    if ((hi - lo) / step > 12)
        step *= 5;
    else if ((hi - lo) / step > 6)
        step *= 2;
    for (int t = 0; t < 40; t++) {
        double v = ceil(lo / step) * step + t * step, y = CH_TOP + ph - ph * (v - lo) / (hi - lo);

        if (v > hi + 1e-12)
            break;
        snprintf(buf, sizeof(buf), "%.2f", v);
        cairo_move_to(cr, 8, y + 4);
        cairo_show_text(cr, buf);
        cairo_set_source_rgba(cr, 0, 0, 0, 0.12);
        cairo_move_to(cr, CH_LEFT, y);
        cairo_line_to(cr, CH_LEFT + pw, y);
        cairo_stroke(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
    }
    {   /* parity: the line y = 1 */
        double y = CH_TOP + ph - ph * (1 - lo) / (hi - lo);
        static const double dash[] = { 6, 3 };

        cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
        cairo_set_dash(cr, dash, 2, 0);
        cairo_move_to(cr, CH_LEFT, y);
        cairo_line_to(cr, CH_LEFT + pw, y);
        cairo_stroke(cr);
        cairo_set_dash(cr, NULL, 0, 0);
        cairo_move_to(cr, CH_LEFT + pw + 4, y + 4);
        cairo_show_text(cr, "1 = equal");
    }
    /* the results on x, a dashed line where the facts changed */
    for (guint j = 0; j < nr; j++) {
        const struct vdc_history_point *p = g_array_index(g->results, const struct vdc_history_point *, j);
        const char *ch = g->changes->pdata[j];
        double x = CH_LEFT + slot * (j + 0.5);

        cairo_set_source_rgb(cr, 0, 0, 0);
        snprintf(buf, sizeof(buf), "#%u", j + 1);
        cairo_move_to(cr, x - 8, CH_TOP + ph + 16);
        cairo_show_text(cr, buf);
        snprintf(buf, sizeof(buf), "%.10s", p->date ? p->date : "");
        cairo_move_to(cr, x - 28, CH_TOP + ph + 30);
        cairo_show_text(cr, buf);
        if (p->date && strlen(p->date) >= 16) {
            snprintf(buf, sizeof(buf), "%.5s", p->date + 11);
            cairo_move_to(cr, x - 14, CH_TOP + ph + 44);
            cairo_show_text(cr, buf);
        }
        if (ch && *ch) {
            static const double dash[] = { 3, 3 };
            double xl = CH_LEFT + slot * j;

            cairo_set_source_rgb(cr, 0.8, 0.1, 0.1);
            cairo_set_dash(cr, dash, 2, 0);
            cairo_move_to(cr, xl, CH_TOP);
            cairo_line_to(cr, xl, CH_TOP + ph);
            cairo_stroke(cr);
            cairo_set_dash(cr, NULL, 0, 0);
            snprintf(buf, sizeof(buf), "change %u", j + 1);
            cairo_move_to(cr, xl + 3, CH_TOP - 6);
            cairo_show_text(cr, buf);
        }
    }
    /* the points, a test a colour, offset within the result's slot */
    for (size_t i = g->first; i < g->first + g->n; i++) {
        const struct vdc_history_series *s = &h->series[i];
        const double *c = palette[(i - g->first) % G_N_ELEMENTS(palette)];
        double off = (MIN(slot * 0.6, 12.0 * (double)g->n) / (double)MAX(g->n, 1)) *
                     ((double)(i - g->first) - ((double)g->n - 1) / 2);
        char label[VDC_TEST_LABEL_MAX];
        double px = NAN, py = NAN;

        cairo_set_source_rgb(cr, c[0], c[1], c[2]);
        for (size_t k = 0; k < s->n_points; k++) {
            const struct vdc_history_point *p = &s->points[k];
            double x = CH_LEFT + slot * (result_no(g, p) - 0.5) + off, y;

            if (!isfinite(p->ratio))
                continue;
            y = CH_TOP + ph - ph * (MIN(MAX(p->ratio, lo), hi) - lo) / (hi - lo);
            if (isfinite(p->lo) && isfinite(p->hi)) {
                double y0 = CH_TOP + ph - ph * (MIN(MAX(p->lo, lo), hi) - lo) / (hi - lo);
                double y1 = CH_TOP + ph - ph * (MIN(MAX(p->hi, lo), hi) - lo) / (hi - lo);

                cairo_move_to(cr, x, y0);
                cairo_line_to(cr, x, y1);
                cairo_move_to(cr, x - 3, y0);
                cairo_line_to(cr, x + 3, y0);
                cairo_move_to(cr, x - 3, y1);
                cairo_line_to(cr, x + 3, y1);
                cairo_stroke(cr);
            }
            if (isfinite(px)) {
                cairo_set_source_rgba(cr, c[0], c[1], c[2], 0.35);
                cairo_move_to(cr, px, py);
                cairo_line_to(cr, x, y);
                cairo_stroke(cr);
                cairo_set_source_rgb(cr, c[0], c[1], c[2]);
            }
            cairo_new_path(cr);     /* no line from where the last text ended */
            cairo_arc(cr, x, y, 4, 0, 2 * G_PI);
            if (point_tested(p))
                cairo_fill(cr);
            else {
                cairo_set_source_rgb(cr, 1, 1, 1);
                cairo_fill_preserve(cr);
                cairo_set_source_rgb(cr, c[0], c[1], c[2]);
                cairo_stroke(cr);
            }
            if (p->verdict_changed && p->move_significant) {
                cairo_new_path(cr);
                cairo_arc(cr, x, y, 8, 0, 2 * G_PI);
                cairo_stroke(cr);
            }
            px = x;
            py = y;
        }
        /* legend */
        vdc_test_key_label(s->test_key, label, sizeof(label));
        if (g_utf8_strlen(label, -1) > 34) {
            g_autofree char *cut = g_utf8_substring(label, 0, 33);

            snprintf(label, sizeof(label), "%s\u2026", cut);
        }
        cairo_new_path(cr);
        cairo_arc(cr, CH_LEFT + pw + 18, CH_TOP + 30 + 18.0 * (double)(i - g->first), 4, 0, 2 * G_PI);
        cairo_fill(cr);
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_move_to(cr, CH_LEFT + pw + 28, CH_TOP + 34 + 18.0 * (double)(i - g->first));
        cairo_show_text(cr, label);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_move_to(cr, CH_LEFT + pw + 12, CH_TOP + 52 + 18.0 * (double)g->n);
    cairo_show_text(cr, "hollow: no verdict; ring: verdict");
    cairo_move_to(cr, CH_LEFT + pw + 12, CH_TOP + 66 + 18.0 * (double)g->n);
    cairo_show_text(cr, "changed significantly");
}

static char *
group_svg(const struct vdc_history *h, const struct group *g, guint gi)
{
    GString *svg = g_string_new(NULL);
    cairo_surface_t *sf = cairo_svg_surface_create_for_stream(svg_append, svg, CH_W, CH_H);
    cairo_t *cr = cairo_create(sf);
    cairo_status_t st;
    char *start, *out, *prefix;

    draw_group(cr, h, g);
    cairo_destroy(cr);
    cairo_surface_finish(sf);
    st = cairo_surface_status(sf);
    cairo_surface_destroy(sf);
    if (st != CAIRO_STATUS_SUCCESS) {
        vdc_error("history chart: cairo SVG surface: %s", cairo_status_to_string(st));
        g_string_free(svg, TRUE);
        return NULL;
    }
    /* the ids of two charts on one page must differ: prefix them */
    start = strstr(svg->str, "<svg");
    prefix = g_strdup_printf("history-%u", gi);
    out = vdc_svg_prefix_ids(start ? start : svg->str, prefix);
    g_free(prefix);
    g_string_free(svg, TRUE);
    return out;
}

static void
esc(GString *out, const char *s)
{
    g_autofree char *e = g_markup_escape_text(s ? s : "", -1);

    g_string_append(out, e);
}

char *
vdc_history_render_html(const struct vdc_history *h)
{
    GString *out = g_string_new(NULL);
    GArray *groups = make_groups(h);
    g_autofree char *method = g_strdup_printf(METHOD_TEXT, h->alpha);

    g_string_append(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                         "<meta name=\"generator\" content=\"vmdiskcmp history\"><title>vmdiskcmp history</title><style>"
                         "body{font-family:sans-serif;max-width:1000px;margin:1em auto;color:#111}"
                         "table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;"
                         "padding:2px 6px;font-size:13px;vertical-align:top}th{background:#f3f3f3}"
                         ".banner{background:#fde2e2;border:1px solid #d33;padding:.5em;font-weight:bold}"
                         ".changed{color:#b00;font-weight:bold}figure{margin:1em 0}"
                         "figure svg{width:100%;height:auto;display:block}.num{text-align:right}"
                         "</style></head><body>\n<h1>vmdiskcmp history</h1>\n<p>Store ");
    esc(out, h->store);
    g_string_append_printf(out, ": %zu results; %zu host(s), %u pair(s), %zu series.</p>\n", h->n_results,
                           n_hosts(h), groups->len, h->n_series);
    if (any_emulated(h))
        g_string_append(out, "<p class=\"banner\">EMULATED: results marked emulated ran under emulation "
                             "(the lab): their numbers predict nothing about real hardware.</p>\n");
    if (!h->n_series)
        g_string_append(out, "<p>No image/LV headline row matches: nothing to show.</p>\n");
    for (guint gi = 0; gi < groups->len; gi++) {
        const struct group *g = &g_array_index(groups, struct group, gi);
        const struct vdc_history_series *s0 = &h->series[g->first];
        char *svg = group_svg(h, g, gi);

        if (!svg) {
            groups_free(groups);
            g_string_free(out, TRUE);
            return NULL;
        }
        g_string_append(out, "<h2>");
        esc(out, s0->host);
        g_string_append(out, ": ");
        esc(out, s0->target);
        g_string_append(out, " against ");
        esc(out, s0->reference);
        g_string_append(out, "</h2>\n<figure>");
        g_string_append(out, svg);
        g_free(svg);
        g_string_append(out, "<figcaption>Ratio of means ");
        esc(out, s0->target);
        g_string_append(out, " / ");
        esc(out, s0->reference);
        g_string_append(out, " per result and test (above 1: ");
        esc(out, s0->target);
        g_string_append(out, " faster), whiskers the paired 95 % interval; a dashed red line before a "
                             "result whose recorded facts changed.</figcaption></figure>\n");
        g_string_append(out, "<table><tr><th>#</th><th>date</th><th>run</th><th>what changed from the result "
                             "before</th></tr>\n");
        for (guint j = 0; j < g->results->len; j++) {
            const struct vdc_history_point *p = g_array_index(g->results, const struct vdc_history_point *, j);
            const char *ch = g->changes->pdata[j];

            g_string_append_printf(out, "<tr><td>#%u</td><td>", j + 1);
            esc(out, p->date);
            g_string_append(out, "</td><td>");
            esc(out, p->run_id);
            if (p->emulated == 1)
                g_string_append(out, " (EMULATED)");
            g_string_append(out, "<br><small>");
            esc(out, p->source);
            g_string_append(out, "</small></td><td>");
            esc(out, !ch ? "(first)" : *ch ? ch : "nothing recorded");
            g_string_append(out, "</td></tr>\n");
        }
        g_string_append(out, "</table>\n");
        for (size_t i = g->first; i < g->first + g->n; i++) {
            const struct vdc_history_series *s = &h->series[i];
            char label[VDC_TEST_LABEL_MAX];

            vdc_test_key_label(s->test_key, label, sizeof(label));
            g_string_append(out, "<h3>");
            esc(out, label);
            g_string_append(out, " <small>(");
            esc(out, s->test_key);
            g_string_append(out, ")</small></h3>\n<table><tr><th>#</th><th>ratio [95 % interval]</th>"
                                 "<th>verdict</th><th>pairs</th><th>step</th></tr>\n");
            for (size_t k = 0; k < s->n_points; k++) {
                const struct vdc_history_point *p = &s->points[k];
                g_autofree char *r = ratio_text(p), *stp = step_text(g, s, k);

                g_string_append_printf(out, "<tr><td>#%u</td><td class=\"num\">", result_no(g, p));
                esc(out, r);
                g_string_append(out, "</td><td>");
                esc(out, p->verdict);
                if (p->effect && strcmp(p->effect, "not tested")) {
                    g_string_append(out, ", ");
                    esc(out, p->effect);
                }
                if (p->not_comparable) {
                    g_string_append(out, " (");
                    esc(out, p->not_comparable);
                    g_string_append(out, ")");
                }
                g_string_append_printf(out, "</td><td class=\"num\">%zu</td><td%s>", p->n_pairs,
                                       p->verdict_changed && p->move_significant ? " class=\"changed\"" : "");
                esc(out, stp);
                g_string_append(out, "</td></tr>\n");
            }
            g_string_append(out, "</table>\n");
        }
    }
    g_string_append(out, "<p><small>");
    esc(out, method);
    g_string_append(out, "</small></p>\n</body></html>\n");
    groups_free(groups);
    return g_string_free(out, FALSE);
}
