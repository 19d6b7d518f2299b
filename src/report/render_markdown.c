/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp Markdown renderer: report.md (GitHub tables), and the results
 * table that `compare --format md` prints too. */
#include "config.h"

#include "report/render.h"
#include "report/reading.h"
#include "report/render_escape.h"
#include "report/render_fmt.h"
#include "report/render_answer.h"
#include "report/render_headline.h"
#include "report/render_density.h"
#include "report/render_hostcost.h"
#include "report/render_meta.h"
#include "report/render_warnings.h"

#include <stdio.h>
#include <string.h>

#include <glib.h>

/* render_util.h */
void
vdc_md_table(GString *out, const struct vdc_analysis *a, int with_ci)
{
    size_t ti, ki;

    g_string_append(out, "| test | unit |");
    for (ti = 0; ti < a->n_targets; ti++) {
        g_string_append_c(out, ' ');
        vdc_md_escape(out, a->targets[ti]);
        g_string_append(out, " |");
    }
    for (ti = 0; ti < a->n_targets; ti++)
        if (ti != a->baseline_index) {
            g_string_append(out, " ");
            vdc_md_escape(out, a->targets[ti]);
            g_string_append(out, " vs ");
            vdc_md_escape(out, a->baseline);
            g_string_append(out, " |");
        }
    g_string_append(out, "\n|---|---|");
    for (ti = 0; ti < a->n_targets; ti++)
        g_string_append(out, "---:|");
    for (ti = 1; ti < a->n_targets; ti++)
        g_string_append(out, "---:|");
    g_string_append_c(out, '\n');
    for (ki = 0; ki < a->n_tests; ki++) {
        const struct vdc_cell *c0 = vdc_analysis_cell(a, 0, ki);

        g_string_append(out, "| ");
        vdc_md_escape(out, vdc_analysis_test_label(a, ki, (char[VDC_TEST_LABEL_MAX]){ 0 }, VDC_TEST_LABEL_MAX));
        g_string_append_printf(out, " | %s |", c0->unit ? c0->unit : "");
        for (ti = 0; ti < a->n_targets; ti++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);
            char buf[64];

            vdc_fmt_cell_mean(buf, sizeof(buf), c);
            if (!c->n_samples)
                snprintf(buf, sizeof(buf), "not run");
            if (g_str_has_prefix(buf, "+++++"))
                g_string_append_printf(out, " \\+\\+\\+\\+\\+%s", buf + 5);
            else
                g_string_append_printf(out, " %s", buf);
            if (with_ci && c->sum.has_ci_mean) {
                vdc_fmt_cell_ci(buf, sizeof(buf), c, "± ");
                g_string_append(out, " ");
                vdc_md_escape(out, buf);
            }
            if (c->sum.n && c->n_too_fast_excluded)
                g_string_append_printf(out, " (n=%zu; %zu of %zu too fast)", c->sum.n, c->n_too_fast_excluded,
                                       c->n_samples);
            else if (c->n_samples)
                g_string_append_printf(out, " (n=%zu)", c->sum.n);
            g_string_append(out, " |");
        }
        for (ti = 0; ti < a->n_targets; ti++)
            if (ti != a->baseline_index) {
                char buf[96];

                vdc_fmt_cell_delta(buf, sizeof(buf), vdc_analysis_cmp(a, ti, ki), 1);
                if (!buf[0])   /* no delta: why, never an empty cell */
                    snprintf(buf, sizeof(buf), "%s", vdc_fmt_no_delta(vdc_analysis_cmp(a, ti, ki)));
                g_string_append_printf(out, " %s", buf);
                if (vdc_analysis_cmp(a, ti, ki)->c.has_ci)
                    g_string_append_printf(out, " [%+.1f%%, %+.1f%%]",
                                           vdc_analysis_cmp(a, ti, ki)->c.ci_delta_percent[0],
                                           vdc_analysis_cmp(a, ti, ki)->c.ci_delta_percent[1]);
                else if (vdc_stats_ci_unbounded(&vdc_analysis_cmp(a, ti, ki)->c))
                    g_string_append(out, " [unbounded]");
                g_string_append(out, " |");
            }
        g_string_append_c(out, '\n');
    }
}

/* render.h */
void
vdc_append_not_comparable_md(GString *out, const struct vdc_analysis *a)
{
    char **nc = vdc_analysis_not_comparable_lines(a);

    vdc_append_lines(out, nc, "- n/c: ", "\n", vdc_md_escape);
    if (nc[0])
        g_string_append_c(out, '\n');
    g_strfreev(nc);
}

char *
vdc_render_markdown(const vdc_result_set *rs, const struct vdc_analysis *a)
{
    GString *out = g_string_new(NULL);
    char **meta;

    g_string_append(out, "# vmdiskcmp report\n\n");
    if (vdc_experiment_emulated(rs))
        g_string_append(out, "> **EMULATED — numbers predict nothing about real hardware.**\n\n");
    vdc_append_answer_md(out, a);
    vdc_append_warnings(out, rs, a, VDC_WARNINGS_DISKS, "> **Warning:** ", "\n\n", vdc_md_escape);
    vdc_append_headline_md(out, a);
    vdc_append_reading_md(out, a);
    g_string_append(out, "Baseline: **");
    vdc_md_escape(out, a->baseline);
    {
        g_autofree char *dir = vdc_headline_direction_text(a);

        g_string_append(out, "** (");
        vdc_md_escape(out, dir);
    }
    g_string_append(out, ").  Cells: mean ± half-width of the 95 % CI (Student t), "
                         "(n = samples with a value); ");
    vdc_md_escape(out, VDC_CI_FLOOR_NOTE);
    g_string_append_printf(out, "  Deltas: %% of the baseline mean, [95 %% CI, Fieller; "
                           "unbounded: the baseline too noisy to bound it]; "
                           "\\*\\* p < 0.01, \\* p < 0.05, ~ no significant difference (Welch t-test); "
                           "n/c not comparable (no verdict: why, below the table); no mark: not tested (n < 2).  \\+\\+\\+\\+\\+: too fast, no value.  "
                           VDC_DELTA_CI_NOTE "\n\n");
    vdc_append_warnings(out, rs, a, VDC_WARNINGS_FEW, "> **Warning:** ", "\n\n", vdc_md_escape);
    vdc_append_warnings(out, rs, a, VDC_WARNING_BIT(VDC_WARNING_TOO_FAST), "> ", "\n\n", vdc_md_escape);
    vdc_append_verdicts(out, a, "- ", "\n", vdc_md_escape);
    vdc_append_warnings(out, rs, a, VDC_WARNINGS_SIZES, "> **Warning:** ", "\n\n", vdc_md_escape);
    vdc_append_warnings(out, rs, a, VDC_WARNING_BIT(VDC_WARNING_ARTEFACTS), "> ", "\n\n", vdc_md_escape);
    vdc_append_warnings(out, rs, a, VDC_WARNING_BIT(VDC_WARNING_ARTEFACT), "> **Warning:** ", "\n\n",
                        vdc_md_escape);
    g_string_append(out, "## Results\n\n");
    vdc_md_table(out, a, 1);
    g_string_append_c(out, '\n');
    vdc_append_not_comparable_md(out, a);
    vdc_append_workloads_md(out, a);
    vdc_host_cost_markdown(out, a);
    vdc_density_markdown(out, a);
    g_string_append(out, "## Outliers and excluded samples\n\n");
    vdc_append_notes(out, a, "- ", "  - ", 1);
    g_string_append(out, "\n## How to reproduce\n\n");
    meta = vdc_metadata_lines(rs, a);
    vdc_append_pairs(out, meta, "- ", ": ", "\n", vdc_md_escape);
    g_strfreev(meta);
    return g_string_free(out, FALSE);
}
