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

#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "common/escape.h"
#include "report/formats.h"

/* render.h */
char *
vdc_render_compare_text(const vdc_result_set *rs, const struct vdc_analysis *a)
{
    GString *out = g_string_new(NULL);
    size_t ti, ki;
    char vs[64];
    int w = 14, lw = 30;    /* value and label columns: grow, never cut */

    snprintf(vs, sizeof(vs), "vs %s", a->baseline);
    w = MAX(w, (int)strlen(vs));
    for (ti = 0; ti < a->n_targets; ti++)
        w = MAX(w, (int)strlen(a->targets[ti]));
    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);
            char buf[64];

            vdc_fmt_cell_mean(buf, sizeof(buf), c);   /* "+++++ (too fast)" is wide */
            w = MAX(w, (int)g_utf8_strlen(buf, -1) + 4);
        }
    for (ki = 0; ki < a->n_tests; ki++)
        lw = MAX(lw, (int)g_utf8_strlen(vdc_analysis_test_label(a, ki, (char[VDC_TEST_LABEL_MAX]){ 0 },
                                                                 VDC_TEST_LABEL_MAX), -1));
    g_string_append_printf(out, "%-*s %-6s", lw, "test", "unit");
    for (ti = 0; ti < a->n_targets; ti++)
        g_string_append_printf(out, " %*s", w, a->targets[ti]);
    for (ti = 0; ti < a->n_targets; ti++)
        if (ti != a->baseline_index)
            g_string_append_printf(out, " %*s", w, a->targets[ti]);
    g_string_append_printf(out, "\n%-*s %-6s", lw, "", "");
    for (ti = 0; ti < a->n_targets; ti++)
        g_string_append_printf(out, " %*s", w, "mean (n)");
    for (ti = 0; ti < a->n_targets; ti++)
        if (ti != a->baseline_index)
            g_string_append_printf(out, " %*s", w, vs);
    g_string_append_c(out, '\n');
    for (ki = 0; ki < a->n_tests; ki++) {
        const struct vdc_cell *c0 = vdc_analysis_cell(a, 0, ki);
        char label[VDC_TEST_LABEL_MAX];

        vdc_analysis_test_label(a, ki, label, sizeof(label));
        g_string_append_printf(out, "%-*s %-6s", lw + (int)(strlen(label) - (size_t)g_utf8_strlen(label, -1)),
                               label, c0->unit ? c0->unit : "");
        for (ti = 0; ti < a->n_targets; ti++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);
            char buf[64], cell[96];

            vdc_fmt_cell_mean(buf, sizeof(buf), c);
            if (c->n_samples)
                snprintf(cell, sizeof(cell), "%s (%zu)", buf, c->sum.n);
            else
                snprintf(cell, sizeof(cell), "-");
            g_string_append_printf(out, " %*s", w + (int)(strlen(cell) - (size_t)g_utf8_strlen(cell, -1)), cell);
        }
        for (ti = 0; ti < a->n_targets; ti++)
            if (ti != a->baseline_index) {
                char buf[64];

                vdc_fmt_cell_delta(buf, sizeof(buf), vdc_analysis_cmp(a, ti, ki), 1);
                g_string_append_printf(out, " %*s", w + (int)(strlen(buf) - (size_t)g_utf8_strlen(buf, -1)),
                                       buf[0] ? buf : "-");
            }
        g_string_append_c(out, '\n');
    }
    g_string_append(out, "\n** p<0.01, * p<0.05, ~ no significant difference (Welch t-test); "
                         "n/c not comparable (no verdict: why, below); no mark: not tested (n<2); +++++: too fast, no value\n");
    {
        char **nc = vdc_analysis_not_comparable_lines(a);

        vdc_append_lines(out, nc, "n/c: ", "\n", vdc_escape_line);
        g_strfreev(nc);
    }
    /* the too-fast legend is one of the warnings */
    vdc_append_warnings(out, rs, a, VDC_WARNINGS_COMPARE, "WARNING: ", "\n", vdc_escape_line);
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
    return g_string_free(out, FALSE);
}

/* render.h */
char *
vdc_render_compare(const vdc_result_set *rs, const struct vdc_analysis *a, const char *format)
{
    const struct vdc_format *f = vdc_format_find(format);

    return f && f->compare ? f->compare(rs, a) : NULL;
}
