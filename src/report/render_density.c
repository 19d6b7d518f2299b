/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Many guests at once, rendered (render_density.h). */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "model/result.h"
#include "report/render_density.h"
#include "report/render_escape.h"
#include "report/render_fmt.h"
#include "report/layout.h"
#include "common/escape.h"

const char vdc_density_note[] =
    "N domUs of one target run together, each with its own copy of its storage, released at one instant. "
    "Aggregate: the sum of the guests' rates (means over the repetitions where every guest has a value); "
    "Jain: fairness of the guests' rates, 1 all equal, 1/N one guest got it all; p99: completion latency "
    "over all the guests' I/Os (the I/O-weighted mixture of their summaries, linear between their "
    "percentiles: doc/statistics.md); pairs: the same repetition of both targets at a level "
    "(paired Fieller interval, paired t-test; p Holm-corrected within a level's tests and quantities, "
    "the unadjusted p beside it).";

/* "12.3 %" of a ratio's delta, or "n/a" */
static const char *
pct(double ratio, char *buf, size_t size)
{
    if (!vdc_has(ratio))
        return "n/a";
    g_snprintf(buf, size, "%.1f %%", fabs(100.0 * (ratio - 1.0)));
    return buf;
}

char *
vdc_density_pair_text(const struct vdc_analysis *a, const struct vdc_density_pair *p)
{
    const struct vdc_density *d = &a->density;
    const struct vdc_stats_paired *g = &p->agg, *t = &p->p99;
    const struct vdc_density_cell *c = NULL;
    GString *s = g_string_new(NULL);
    char b1[32], label[VDC_TEST_LABEL_MAX];
    size_t li;

    for (li = 0; li < d->n_levels; li++)
        if (d->levels[li] == p->level)
            c = vdc_density_cell(d, li, p->target, p->test);
    g_string_append_printf(s, "at %" G_GINT64_FORMAT " guest%s, %s (%s): ", p->level, p->level == 1 ? "" : "s",
                           vdc_density_test_label(a, p->test, label, sizeof(label)), c && c->unit ? c->unit : "?");
    if (!g->has_ratio) {
        g_string_append_printf(s, "%s against %s: no pair with a value", d->targets[p->target],
                               d->targets[p->reference]);
        return g_string_free(s, FALSE);
    }
    g_string_append_printf(s, "%s gives %s %s aggregate than %s", d->targets[p->target],
                           pct(g->ratio, b1, sizeof(b1)), g->ratio >= 1 ? "more" : "less",
                           d->targets[p->reference]);
    vdc_density_paired_means_text(s, d, p, 0, NULL);
    vdc_density_sure_text(s, p, 0, 1);
    g_string_append_printf(s, "; %zu pair%s", g->n, g->n == 1 ? "" : "s");
    if (t->has_ratio) {
        g_string_append_printf(s, "; p99 over all guests' I/Os %s %s", pct(t->ratio, b1, sizeof(b1)),
                               t->ratio >= 1 ? "higher" : "lower");
        vdc_density_paired_means_text(s, d, p, 1, "us");
        vdc_density_sure_text(s, p, 1, 1);
    }
    return g_string_free(s, FALSE);
}

/* ---- the fairness table: one row per level, target and test ------------------- */

const char *const vdc_density_cols[VDC_DENSITY_COLS] = {
    "level", "target", "test", "n", "aggregate", "Jain (min)", "slowest guest", "fastest guest",
    "p99 us", "skew s", "notes",
};

void
vdc_density_row(const struct vdc_analysis *a, const struct vdc_density_cell *c, char **v)
{
    const struct vdc_density *d = &a->density;
    GString *notes = g_string_new(NULL);
    char label[VDC_TEST_LABEL_MAX];

    v[0] = g_strdup_printf("%" G_GINT64_FORMAT, c->level);
    v[1] = g_strdup(d->targets[c->target]);
    v[2] = g_strdup(vdc_density_test_label(a, c->test, label, sizeof(label)));
    v[3] = g_strdup_printf("%zu", c->n_reps);
    v[4] = c->n_reps ? g_strdup_printf("%s %s", vdc_fmt_num_s(c->sum.mean), c->unit ? c->unit : "")
                     : g_strdup("-");
    v[5] = vdc_has(c->jain_mean) ? g_strdup_printf("%.3f (%.3f)", c->jain_mean, c->jain_min) : g_strdup("-");
    v[6] = c->n_reps ? g_strdup_printf("g%zu %s", c->slowest, vdc_fmt_num_s(c->guest[c->slowest]))
                     : g_strdup("-");
    v[7] = c->n_reps ? g_strdup_printf("g%zu %s", c->fastest, vdc_fmt_num_s(c->guest[c->fastest]))
                     : g_strdup("-");
    v[8] = vdc_has(c->p99_mean) ? g_strdup(vdc_fmt_num_s(c->p99_mean)) : g_strdup("-");
    v[9] = vdc_has(c->skew_max_s) ? g_strdup_printf("%.3g", c->skew_max_s) : g_strdup("-");
    if (c->skewed)
        g_string_append_printf(notes, "start skew above %.0f %% of a guest's time",
                               100 * VDC_DENSITY_SKEW_SHARE);
    vdc_density_left_out_text(notes, d, c);
    if (vdc_density_stops(d, c->target, c->test) == c->level) {
        g_string_append_printf(notes, "%s%s", notes->len ? "; " : "",
                               !vdc_density_stop_shown(d, c->target, c->test)
                               ? "not shown to scale past here (the next level's interval reaches this mean)"
                               : "stops scaling here (the next level's aggregate is not larger, its "
                                 "interval included)");
    }
    v[10] = g_string_free(notes, FALSE);
}

void
vdc_density_row_free(char **v)
{
    size_t k;

    for (k = 0; k < VDC_DENSITY_COLS; k++)
        g_free(v[k]);
}

/* ---- text and Markdown ---------------------------------------------------------- */

/* per test, each target's aggregate and p99 at each level: the scaling
 * curve as lines */
static void
scaling_lines(GString *out, const struct vdc_analysis *a, const char *prefix)
{
    const struct vdc_density *d = &a->density;
    size_t ki, ti, li;

    for (ki = 0; ki < d->n_tests; ki++)
        for (ti = 0; ti < d->n_targets; ti++) {
            GString *l = g_string_new(NULL);
            int64_t stop = vdc_density_stops(d, ti, ki);

            for (li = 0; li < d->n_levels; li++) {
                const struct vdc_density_cell *c = vdc_density_cell(d, li, ti, ki);

                if (!c->n_reps)
                    continue;
                g_string_append_printf(l, "%s N=%" G_GINT64_FORMAT " %s", l->len ? "," : "", c->level,
                                       vdc_fmt_num_s(c->sum.mean));
                if (vdc_has(c->p99_mean))
                    g_string_append_printf(l, " (p99 %s us)", vdc_fmt_num_s(c->p99_mean));
            }
            if (l->len) {
                char label[VDC_TEST_LABEL_MAX];

                g_string_append_printf(out, "%s%s on %s:%s", prefix, d->targets[ti],
                                       vdc_density_test_label(a, ki, label, sizeof(label)), l->str);
                if (stop) {
                    g_autofree char *why = vdc_density_stop_text(a, ti, ki);

                    g_string_append_printf(out, "; %s", why);
                }
                g_string_append_c(out, '\n');
            }
            g_string_free(l, TRUE);
        }
}

/* render_density.h */
void
vdc_density_wrap(GString *out, const char *s, const char *indent, size_t width)
{
    g_auto(GStrv) words = g_strsplit(s, " ", -1);
    size_t i, col = 0;

    for (i = 0; words[i]; i++) {
        size_t w = strlen(words[i]);

        if (col && col + 1 + w > width) {
            g_string_append_c(out, '\n');
            col = 0;
        }
        if (!col) {
            g_string_append(out, indent);
            col = strlen(indent);
        } else {
            g_string_append_c(out, ' ');
            col++;
        }
        g_string_append(out, words[i]);
        col += w;
    }
    g_string_append_c(out, '\n');
}

/* @s wrapped at report.txt's width, after @first, then @rest */
static void
text_wrap(GString *out, const char *first, const char *rest, const char *s)
{
    vdc_layout_wrap_escaped(out, first, rest, s, VDC_LAYOUT_TEXT_WIDTH);
}

/* The fairness table of report.txt: a block per test under its label, a
 * row per level and target (every column but the test's and the notes),
 * a row's notes wrapped under it, so that it fits report.txt's width. */
static void
fairness_text(GString *out, const struct vdc_analysis *a)
{
    const struct vdc_density *d = &a->density;
    const struct vdc_density_cell *c;
    size_t k, ki, w[VDC_DENSITY_COLS];

    for (k = 0; k < VDC_DENSITY_COLS; k++)
        w[k] = strlen(vdc_density_cols[k]);
    VDC_DENSITY_FOR_CELLS(d, c) {
        char *v[VDC_DENSITY_COLS];

        vdc_density_row(a, c, v);
        for (k = 0; k < VDC_DENSITY_COLS; k++)
            w[k] = MAX(w[k], (size_t)g_utf8_strlen(v[k], -1));
        vdc_density_row_free(v);
    }
    g_string_append(out, "   ");
    for (k = 0; k < VDC_DENSITY_COLS - 1; k++)
        if (k != 2)
            g_string_append_printf(out, " %-*s", (int)w[k], vdc_density_cols[k]);
    while (out->str[out->len - 1] == ' ')
        g_string_truncate(out, out->len - 1);
    g_string_append_c(out, '\n');
    for (ki = 0; ki < d->n_tests; ki++) {
        int head = 0;

        VDC_DENSITY_FOR_CELLS(d, c) {
            char *v[VDC_DENSITY_COLS];

            if (c->test != ki)
                continue;
            vdc_density_row(a, c, v);
            if (!head++)
                text_wrap(out, "    ", "      ", v[2]);
            g_string_append(out, "   ");
            for (k = 0; k < VDC_DENSITY_COLS - 1; k++)
                if (k != 2)
                    g_string_append_printf(out, " %-*s", (int)w[k] + (int)(strlen(v[k]) -
                                                      (size_t)g_utf8_strlen(v[k], -1)), v[k]);
            while (out->len && out->str[out->len - 1] == ' ')
                g_string_truncate(out, out->len - 1);
            g_string_append_c(out, '\n');
            if (*v[VDC_DENSITY_COLS - 1]) {
                g_autofree char *note = g_strdup_printf("notes: %s", v[VDC_DENSITY_COLS - 1]);

                text_wrap(out, "      ", "        ", note);
            }
            vdc_density_row_free(v);
        }
    }
}

void
vdc_density_text(GString *out, const struct vdc_analysis *a)
{
    const struct vdc_density *d = &a->density;
    size_t i;

    if (!d->n_levels)
        return;
    g_string_append(out, "Many guests at once\n");
    vdc_density_wrap(out, vdc_density_note, "  ", VDC_LAYOUT_TEXT_WIDTH);
    for (i = 0; i < d->n_pairs; i++) {
        g_autofree char *t = vdc_density_pair_text(a, &d->pairs[i]);

        text_wrap(out, "  ", "    ", t);
    }
    if (d->n_failures)
        text_wrap(out, "  ", "    ", "Failed guests (their repetitions are left out, apart from a guest that ran "
                                     "but gave no value):");
    for (i = 0; i < d->n_failures; i++) {
        g_autofree char *t = vdc_density_failure_text(a, &d->failures[i]);

        text_wrap(out, "    ", "      ", t);
    }
    g_string_append(out, "  Scaling (aggregate against the number of guests N):\n");
    {
        GString *l = g_string_new(NULL);
        char **lines;

        scaling_lines(l, a, "");
        lines = g_strsplit(l->str, "\n", -1);
        for (i = 0; lines[i]; i++)
            if (*lines[i])
                text_wrap(out, "    ", "      ", lines[i]);
        g_strfreev(lines);
        g_string_free(l, TRUE);
    }
    g_string_append(out, "  Fairness:\n");
    fairness_text(out, a);
    vdc_density_host_text(out, a);
    g_string_append_c(out, '\n');
}

void
vdc_density_markdown(GString *out, const struct vdc_analysis *a)
{
    const struct vdc_density *d = &a->density;
    size_t i, k;

    if (!d->n_levels)
        return;
    g_string_append(out, "## Many guests at once\n\n");
    vdc_md_escape(out, vdc_density_note);
    g_string_append(out, "\n\n");
    for (i = 0; i < d->n_pairs; i++) {
        g_autofree char *t = vdc_density_pair_text(a, &d->pairs[i]);

        g_string_append(out, "- ");
        vdc_md_escape(out, t);
        g_string_append_c(out, '\n');
    }
    if (d->n_failures)
        g_string_append(out, "\n### Failed guests\n\nTheir repetitions are left out, apart from a guest that "
                             "ran but gave no value.\n\n");
    for (i = 0; i < d->n_failures; i++) {
        g_autofree char *t = vdc_density_failure_text(a, &d->failures[i]);

        g_string_append(out, "- ");
        vdc_md_escape(out, t);
        g_string_append_c(out, '\n');
    }
    g_string_append(out, "\n### Scaling\n\n");
    {
        GString *l = g_string_new(NULL);
        char **lines;

        scaling_lines(l, a, "");
        lines = g_strsplit(l->str, "\n", -1);
        for (i = 0; lines[i]; i++)
            if (*lines[i]) {
                g_string_append(out, "- ");
                vdc_md_escape(out, lines[i]);
                g_string_append_c(out, '\n');
            }
        g_strfreev(lines);
        g_string_free(l, TRUE);
    }
    g_string_append(out, "\n### Fairness\n\n|");
    for (k = 0; k < VDC_DENSITY_COLS; k++)
        g_string_append_printf(out, " %s |", vdc_density_cols[k]);
    g_string_append(out, "\n|");
    for (k = 0; k < VDC_DENSITY_COLS; k++)
        g_string_append(out, k == 0 || k == 3 ? "---:|" : "---|");
    g_string_append_c(out, '\n');
    vdc_density_rows(out, a, "|", " ", " |", "\n", vdc_md_escape);
    g_string_append_c(out, '\n');
    vdc_density_host_markup(out, a, 0);
}

void
vdc_density_rows(GString *out, const struct vdc_analysis *a, const char *row_open, const char *cell_open,
                 const char *cell_close, const char *row_close, vdc_escape_fn esc)
{
    const struct vdc_density *d = &a->density;
    const struct vdc_density_cell *c;
    size_t k;

    VDC_DENSITY_FOR_CELLS(d, c) {
        char *v[VDC_DENSITY_COLS];

        vdc_density_row(a, c, v);
        g_string_append(out, row_open);
        for (k = 0; k < VDC_DENSITY_COLS; k++) {
            g_string_append(out, cell_open);
            esc(out, v[k]);
            g_string_append(out, cell_close);
        }
        g_string_append(out, row_close);
        vdc_density_row_free(v);
    }
}

/* ---- CSV and JSON ----------------------------------------------------------------- */

/* render_density.h */
void
vdc_density_csv_num(GString *out, double v)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];

    g_string_append_c(out, ',');
    if (vdc_has(v) && isfinite(v))
        g_string_append(out, g_ascii_formatd(buf, sizeof(buf), "%.6g", v));
}

char *
vdc_density_csv(const struct vdc_analysis *a)
{
    const struct vdc_density *d = &a->density;
    const struct vdc_density_cell *c;
    GString *out;
    size_t g;

    if (!d->n_levels)
        return NULL;
    out = g_string_new("level,target,test,unit,guest,n,value_mean,ci95_lo,ci95_hi,kib_s_mean,jain_mean,"
                       "jain_min,slowest_guest,fastest_guest,clat_p50_us,clat_p99_us,clat_p99_9_us,"
                       "start_skew_max_s,skewed,incomplete_failed,incomplete_no_value,stops_scaling_at\n");
    VDC_DENSITY_FOR_CELLS(d, c) {
        int64_t stop = vdc_density_stops(d, c->target, c->test);

        g_string_append_printf(out, "%" G_GINT64_FORMAT ",", c->level);
        vdc_csv_field(out, d->targets[c->target]);
        g_string_append_c(out, ',');
        vdc_csv_field(out, d->tests[c->test]);
        g_string_append_printf(out, ",%s,,%zu", c->unit ? c->unit : "", c->n_reps);
        vdc_density_csv_num(out, c->n_reps ? c->sum.mean : NAN);
        vdc_density_csv_num(out, c->sum.has_ci_mean ? c->sum.ci_mean[0] : NAN);
        vdc_density_csv_num(out, c->sum.has_ci_mean ? c->sum.ci_mean[1] : NAN);
        vdc_density_csv_num(out, c->kib_s_mean);
        vdc_density_csv_num(out, c->jain_mean);
        vdc_density_csv_num(out, c->jain_min);
        if (c->n_reps)
            g_string_append_printf(out, ",%zu,%zu", c->slowest, c->fastest);
        else
            g_string_append(out, ",,");
        vdc_density_csv_num(out, c->p50_mean);
        vdc_density_csv_num(out, c->p99_mean);
        vdc_density_csv_num(out, c->p99_9_mean);
        vdc_density_csv_num(out, c->skew_max_s);
        g_string_append_printf(out, ",%s,%zu,%zu,", c->skewed ? "true" : "false", c->n_failed, c->n_no_value);
        if (stop)
            g_string_append_printf(out, "%" G_GINT64_FORMAT, stop);
        g_string_append_c(out, '\n');
        for (g = 0; c->n_reps && g < (size_t)c->level; g++) {
            g_string_append_printf(out, "%" G_GINT64_FORMAT ",", c->level);
            vdc_csv_field(out, d->targets[c->target]);
            g_string_append_c(out, ',');
            vdc_csv_field(out, d->tests[c->test]);
            g_string_append_printf(out, ",%s,%zu,%zu", c->unit ? c->unit : "", g, c->n_reps);
            vdc_density_csv_num(out, c->guest[g]);
            g_string_append(out, ",,,,,,,,,,,,,,,\n");
        }
    }
    return g_string_free(out, FALSE);
}

static void
json_num(JsonObject *o, const char *name, double v)
{
    if (vdc_has(v) && isfinite(v))
        json_object_set_double_member(o, name, v);
    else
        json_object_set_null_member(o, name);
}

static JsonArray *
json_nums(const double *v, size_t n)
{
    JsonArray *arr = json_array_new();
    size_t i;

    for (i = 0; i < n; i++) {
        if (vdc_has(v[i]) && isfinite(v[i]))
            json_array_add_double_element(arr, v[i]);
        else
            json_array_add_null_element(arr);
    }
    return arr;
}

static JsonObject *
paired_json(const struct vdc_stats_paired *p)
{
    JsonObject *o = json_object_new();

    json_object_set_int_member(o, "n", (gint64)p->n);
    json_num(o, "mean_target", p->n ? p->mean_t : NAN);
    json_num(o, "mean_reference", p->n ? p->mean_b : NAN);
    json_num(o, "ratio", p->has_ratio ? p->ratio : NAN);
    json_num(o, "ci95_delta_lo", p->has_ci ? p->ci_delta_percent[0] : NAN);
    json_num(o, "ci95_delta_hi", p->has_ci ? p->ci_delta_percent[1] : NAN);
    json_num(o, "p_value", p->has_test ? p->p_value : NAN);
    return o;
}

JsonNode *
vdc_density_to_json(const struct vdc_analysis *a)
{
    const struct vdc_density *d = &a->density;
    const struct vdc_density_cell *c;
    JsonObject *o;
    JsonArray *cells, *pairs, *levels, *failures;
    JsonNode *n;
    size_t i;

    if (!d->n_levels)
        return NULL;
    o = json_object_new();
    levels = json_array_new();
    for (i = 0; i < d->n_levels; i++)
        json_array_add_int_element(levels, d->levels[i]);
    json_object_set_array_member(o, "levels", levels);
    cells = json_array_new();
    VDC_DENSITY_FOR_CELLS(d, c) {
        JsonObject *co = json_object_new();
        int64_t stop = vdc_density_stops(d, c->target, c->test);

        json_object_set_int_member(co, "level", c->level);
        json_object_set_string_member(co, "target", d->targets[c->target]);
        json_object_set_string_member(co, "test", d->tests[c->test]);
        if (c->unit)
            json_object_set_string_member(co, "unit", c->unit);
        json_object_set_int_member(co, "n", (gint64)c->n_reps);
        json_object_set_int_member(co, "incomplete", (gint64)c->n_incomplete);
        json_object_set_int_member(co, "incomplete_failed", (gint64)c->n_failed);
        json_num(co, "aggregate_mean", c->n_reps ? c->sum.mean : NAN);
        json_object_set_array_member(co, "aggregate", json_nums(c->aggregate, c->n_reps));
        json_num(co, "kib_s_mean", c->kib_s_mean);
        json_object_set_array_member(co, "guests", json_nums(c->guest, c->n_reps ? (size_t)c->level : 0));
        json_num(co, "jain_mean", c->jain_mean);
        json_num(co, "jain_min", c->jain_min);
        if (c->n_reps) {
            json_object_set_int_member(co, "slowest_guest", (gint64)c->slowest);
            json_object_set_int_member(co, "fastest_guest", (gint64)c->fastest);
        }
        json_num(co, "clat_p50_us", c->p50_mean);
        json_num(co, "clat_p99_us", c->p99_mean);
        json_num(co, "clat_p99_9_us", c->p99_9_mean);
        json_num(co, "start_skew_max_s", c->skew_max_s);
        json_object_set_boolean_member(co, "skewed", c->skewed);
        if (stop)
            json_object_set_int_member(co, "stops_scaling_at", stop);
        json_array_add_object_element(cells, co);
    }
    json_object_set_array_member(o, "cells", cells);
    pairs = json_array_new();
    for (i = 0; i < d->n_pairs; i++) {
        const struct vdc_density_pair *p = &d->pairs[i];
        JsonObject *po = json_object_new();

        json_object_set_int_member(po, "level", p->level);
        json_object_set_string_member(po, "test", d->tests[p->test]);
        json_object_set_string_member(po, "target", d->targets[p->target]);
        json_object_set_string_member(po, "reference", d->targets[p->reference]);
        json_object_set_object_member(po, "aggregate", paired_json(&p->agg));
        json_object_set_object_member(po, "clat_p99", paired_json(&p->p99));
        json_object_set_boolean_member(po, "fewer_pairs_than_repetitions", p->agg_short);
        {
            g_autofree char *t = vdc_density_pair_text(a, p);

            json_object_set_string_member(po, "text", t);
        }
        json_array_add_object_element(pairs, po);
    }
    json_object_set_array_member(o, "pairs", pairs);
    failures = json_array_new();
    for (i = 0; i < d->n_failures; i++) {
        const struct vdc_density_failure *f = &d->failures[i];
        JsonObject *fo = json_object_new();
        g_autofree char *t = vdc_density_failure_text(a, f);

        json_object_set_int_member(fo, "level", f->level);
        json_object_set_string_member(fo, "target", d->targets[f->target]);
        json_object_set_int_member(fo, "repetition", f->rep);
        json_object_set_int_member(fo, "guest", f->guest);
        if (f->test >= 0)
            json_object_set_string_member(fo, "test", d->tests[f->test]);
        else
            json_object_set_null_member(fo, "test");
        json_object_set_string_member(fo, "status", f->status);
        if (f->error)
            json_object_set_string_member(fo, "error", f->error);
        else
            json_object_set_null_member(fo, "error");
        json_object_set_string_member(fo, "text", t);
        json_array_add_object_element(failures, fo);
    }
    json_object_set_array_member(o, "failed_guests", failures);
    if (d->host)
        json_object_set_array_member(o, "host", vdc_density_host_json(a));
    n = json_node_new(JSON_NODE_OBJECT);
    json_node_take_object(n, o);
    return n;
}

