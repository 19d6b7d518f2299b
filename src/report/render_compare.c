/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp compare renderer: the side-by-side table of `vmdiskcmp
 * compare` in text and Markdown; csv and json are summary.csv and the
 * statistics object. */
#include "config.h"

#include "report/render.h"
#include "report/render_escape.h"
#include "report/render_fmt.h"
#include "report/render_json.h"
#include "report/render_warnings.h"
#include "report/layout.h"
#include "report/reading.h"

#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "common/escape.h"
#include "report/formats.h"

/* One column of the compare table: a target's means, or its deltas. */
struct column {
    size_t target;
    int delta;                /* 0: mean (n); 1: % against the baseline */
    int width;
};

/* Prose of the compare text: escaped, wrapped at VDC_LAYOUT_WIDTH. */
static void
put_wrapped(GString *out, const char *first, const char *rest, const char *text)
{
    vdc_layout_wrap_escaped(out, first, rest, text, VDC_LAYOUT_WIDTH);
}

/* "+++++ (too fast)" takes 16 columns: in the table a cell whose every run
 * was too fast is "+++++" (the legend says it) */
static void
mean_cell(char *cell, size_t size, const struct vdc_cell *c)
{
    char buf[64];

    if (!c->n_samples) {
        snprintf(cell, size, "-");
        return;
    }
    vdc_fmt_cell_mean(buf, sizeof(buf), c);
    if (!c->sum.n && c->n_too_fast)
        snprintf(buf, sizeof(buf), "+++++");
    snprintf(cell, size, "%s (%zu)", buf, c->sum.n);
}

static void
column_cell(char *buf, size_t size, const struct vdc_analysis *a, const struct column *col, size_t ki)
{
    if (!col->delta) {
        mean_cell(buf, size, vdc_analysis_cell(a, col->target, ki));
        return;
    }
    vdc_fmt_cell_delta(buf, size, vdc_analysis_cmp(a, col->target, ki), 1);
    if (!buf[0])   /* no delta: why, never an empty verdict */
        snprintf(buf, size, "%s", vdc_fmt_no_delta(vdc_analysis_cmp(a, col->target, ki)));
}

/* The dd system time per operation of @col on test @ki ("14.7", "+34.1"),
 * "" when there is none */
static void
column_sys(char *buf, size_t size, const struct vdc_analysis *a, const struct column *col, size_t ki)
{
    const struct vdc_cell *c = vdc_analysis_cell(a, col->target, ki);
    const struct vdc_cell_comparison *cc = vdc_analysis_cmp(a, col->target, ki);

    buf[0] = '\0';
    if (!col->delta && c->n_sys_per_op)
        snprintf(buf, size, "%.1f", c->sys_us_per_op);
    else if (col->delta && cc && cc->has_sys_per_op)
        snprintf(buf, size, "%+.1f", cc->sys_us_per_op_delta);
}

static int
has_sys(const struct vdc_analysis *a, size_t ki)
{
    size_t ti;

    for (ti = 0; ti < a->n_targets; ti++)
        if (vdc_analysis_cell(a, ti, ki)->n_sys_per_op)
            return 1;
    return 0;
}

#define SYS_LABEL "  system time per op"

/* The legend of the marks the table prints, only those. */
static void
put_legend(GString *out, const struct vdc_analysis *a)
{
    int tested[4] = { 0 }, nc = 0, none = 0, too_fast = 0, sys = 0;
    size_t ti, ki;
    GString *s = g_string_new(NULL);

    for (ki = 0; ki < a->n_tests; ki++) {
        sys |= has_sys(a, ki);
        for (ti = 0; ti < a->n_targets; ti++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);
            const struct vdc_cell_comparison *cc = vdc_analysis_cmp(a, ti, ki);
            const char *m;

            too_fast |= c->n_samples && !c->sum.n && c->n_too_fast;
            if (!cc || !cc->c.has_ratio)
                continue;
            m = vdc_significance_mark(&cc->c);
            if (!strcmp(m, VDC_NOT_COMPARABLE_MARK))
                nc = 1;
            else if (!*m)
                none = 1;
            else
                tested[!strcmp(m, "**") ? 0 : !strcmp(m, "*") ? 1 : 2] = 1;
        }
    }
    if (tested[0])
        g_string_append(s, "** p<0.01, ");
    if (tested[1])
        g_string_append(s, "* p<0.05, ");
    if (tested[2])
        g_string_append(s, "~ no significant difference, ");
    if (tested[0] || tested[1] || tested[2]) {
        g_string_truncate(s, s->len - 2);
        g_string_append(s, " (Welch t-test); ");
    }
    if (nc)
        g_string_append(s, "n/c not comparable (no verdict: why, below); ");
    if (none)
        g_string_append(s, "no mark: not tested (n<2); ");
    if (too_fast)
        g_string_append(s, "+++++: every run too fast, no value; ");
    if (sys)
        g_string_append(s, "system time per op: dd's sys / records, us, and its difference against the "
                           "baseline; ");
    if (s->len) {
        g_string_truncate(s, s->len - 2);
        g_string_append_c(out, '\n');
        vdc_layout_wrap(out, "", "  ", s->str, VDC_LAYOUT_WIDTH);
    }
    g_string_free(s, TRUE);
}

/* render.h */
char *
vdc_render_compare_text(const vdc_result_set *rs, const struct vdc_analysis *a)
{
    GString *out = g_string_new(NULL);
    GArray *cols = g_array_new(FALSE, TRUE, sizeof(struct column));
    char **names = NULL, **lines;
    size_t ki, first, i;
    int lw = 30, uw = 6, keyed = 0, pass, total;
    char buf[96];

    for (ki = 0; ki < a->n_tests; ki++)
        lw = MAX(lw, vdc_layout_width(vdc_analysis_test_label(a, ki, (char[VDC_TEST_LABEL_MAX]){ 0 },
                                                                 VDC_TEST_LABEL_MAX)));
    /* full names when the whole table fits the width, else T1, T2... with a key */
    for (pass = 0; pass < 2; pass++) {
        g_strfreev(names);
        names = pass ? vdc_layout_aliases(a, 0, &keyed) : vdc_layout_aliases(a, G_MAXINT, &keyed);
        g_array_set_size(cols, 0);
        total = lw + 1 + uw;
        for (i = 0; i < 2 * a->n_targets; i++) {
            struct column col = { .target = i % a->n_targets, .delta = i >= a->n_targets };
            g_autofree char *vs = g_strdup_printf("vs %s", names[a->baseline_index]);

            if (col.delta && col.target == a->baseline_index)
                continue;
            col.width = MAX(vdc_layout_width(names[col.target]),
                            vdc_layout_width(col.delta ? vs : "mean (n)"));
            for (ki = 0; ki < a->n_tests; ki++) {
                column_cell(buf, sizeof(buf), a, &col, ki);
                col.width = MAX(col.width, vdc_layout_width(buf));
            }
            g_array_append_val(cols, col);
            total += 1 + col.width;
        }
        if (total <= VDC_LAYOUT_WIDTH)
            break;
    }
    /* the answer first: the headline in short */
    lines = vdc_analysis_headline_lines(a);
    for (i = 0; lines[i]; i++)
        put_wrapped(out, i ? "          " : "Headline: ", "          ", lines[i]);
    if (i)
        g_string_append_c(out, '\n');
    g_strfreev(lines);
    if (keyed) {
        g_string_append(out, "Targets:\n");
        vdc_layout_append_key(out, rs, a, names, keyed, "  ", VDC_LAYOUT_WIDTH);
        g_string_append_c(out, '\n');
    }
    /* the columns in blocks that fit the width, the test and unit repeated */
    for (first = 0; first < cols->len;) {
        size_t last = first;
        int used = lw + 1 + uw;

        while (last < cols->len && (last == first ||
                                    used + 1 + g_array_index(cols, struct column, last).width <= VDC_LAYOUT_WIDTH))
            used += 1 + g_array_index(cols, struct column, last++).width;
        if (first)
            g_string_append_c(out, '\n');
        for (pass = 0; pass < 2; pass++) {
            vdc_layout_pad(out, pass ? "" : "test", lw, 0);
            g_string_append_c(out, ' ');
            vdc_layout_pad(out, pass ? "" : "unit", uw, 0);
            for (i = first; i < last; i++) {
                const struct column *col = &g_array_index(cols, struct column, i);
                g_autofree char *vs = g_strdup_printf("vs %s", names[a->baseline_index]);

                g_string_append_c(out, ' ');
                vdc_layout_pad(out, pass ? (col->delta ? vs : "mean (n)") : names[col->target], col->width, 1);
            }
            g_string_truncate(out, strlen(g_strchomp(out->str)));
            g_string_append_c(out, '\n');
        }
        for (ki = 0; ki < a->n_tests; ki++) {
            const struct vdc_cell *c0 = vdc_analysis_cell(a, 0, ki);
            char label[VDC_TEST_LABEL_MAX];

            vdc_layout_pad(out, vdc_analysis_test_label(a, ki, label, sizeof(label)), lw, 0);
            g_string_append_c(out, ' ');
            vdc_layout_pad(out, c0->unit ? c0->unit : "", uw, 0);
            for (i = first; i < last; i++) {
                column_cell(buf, sizeof(buf), a, &g_array_index(cols, struct column, i), ki);
                g_string_append_c(out, ' ');
                vdc_layout_pad(out, buf, g_array_index(cols, struct column, i).width, 1);
            }
            g_string_append_c(out, '\n');
            if (!has_sys(a, ki))
                continue;
            /* dd's system time per operation, as report.txt prints it */
            vdc_layout_pad(out, SYS_LABEL, lw, 0);
            g_string_append_c(out, ' ');
            vdc_layout_pad(out, "us", uw, 0);
            for (i = first; i < last; i++) {
                column_sys(buf, sizeof(buf), a, &g_array_index(cols, struct column, i), ki);
                g_string_append_c(out, ' ');
                vdc_layout_pad(out, buf, g_array_index(cols, struct column, i).width, 1);
            }
            g_string_truncate(out, strlen(g_strchomp(out->str)));
            g_string_append_c(out, '\n');
        }
        first = last;
    }
    put_legend(out, a);
    lines = vdc_analysis_not_comparable_lines(a);
    for (i = 0; lines[i]; i++)
        put_wrapped(out, "n/c: ", "     ", lines[i]);
    g_strfreev(lines);
    /* the too-fast legend is one of the warnings */
    lines = vdc_warning_texts(rs, a, VDC_WARNINGS_COMPARE);
    for (i = 0; lines[i]; i++)
        put_wrapped(out, "WARNING: ", "         ", lines[i]);
    g_strfreev(lines);
    if (a->reading.present) {
        g_string_append_c(out, '\n');
        vdc_append_reading_text(out, a, names, "", VDC_LAYOUT_WIDTH);
    }
    g_strfreev(names);
    g_array_free(cols, TRUE);
    return g_string_free(out, FALSE);
}

/* render.h */
char *
vdc_render_compare_md(const vdc_result_set *rs, const struct vdc_analysis *a)
{
    GString *out = g_string_new(NULL);

    g_string_append(out, "Baseline: **");
    vdc_md_escape(out, a->baseline);
    g_string_append(out, "**.  \\*\\* p < 0.01, \\* p < 0.05, ~ no significant "
                         "difference (Welch t-test); n/c not comparable (no verdict: why, below); no mark: not tested (n < 2).\n\n");
    vdc_md_table(out, a, 1);
    g_string_append_c(out, '\n');
    vdc_append_not_comparable_md(out, a);
    vdc_append_warnings(out, rs, a, VDC_WARNINGS_COMPARE, "> **Warning:** ", "\n\n", vdc_md_escape);
    vdc_append_reading_md(out, a);
    return g_string_free(out, FALSE);
}

/* render.h */
char *
vdc_render_compare(const vdc_result_set *rs, const struct vdc_analysis *a, const char *format)
{
    const struct vdc_format *f = vdc_format_find(format);

    return f && f->compare ? f->compare(rs, a) : NULL;
}
