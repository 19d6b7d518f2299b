/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp HTML report: one self-contained page, its tables and the
 * inline SVG figures of render_chart.c and render_hostcost.c. */
#include "config.h"

#include "report/render.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "report/render_chart.h"
#include "report/render_escape.h"
#include "report/render_fmt.h"
#include "report/render_answer.h"
#include "report/render_headline.h"
#include "report/render_hostcost.h"
#include "report/render_meta.h"
#include "report/render_warnings.h"

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
    "td.faster{color:#006d2c}td.slower{color:#b00020}td.same,td.nc{color:#666}"
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
                                  cm->verdict == VDC_VERDICT_NO_DIFFERENCE ? "same" :
                                  cm->verdict == VDC_VERDICT_NOT_COMPARABLE ? "nc" : "";
                g_autofree char *why = vdc_analysis_cmp_reason(a, ti, ki);

                vdc_fmt_cell_delta(buf, sizeof(buf), vdc_analysis_cmp(a, ti, ki), 1);
                g_string_append_printf(out, "<td class=\"%s\" title=\"%s", cls,
                                       vdc_headline_verdict_name(cm->verdict));
                if (why) {
                    g_string_append(out, " (");
                    esc(out, why);
                    g_string_append(out, ")");
                }
                if (cm->has_test && !why)    /* no verdict: no p to read one into */
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
html_chart(GString *out, const struct vdc_analysis *a, const char *name,
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
    svg = vdc_render_dots_svg(a, unit, dtitle, &empty, &points);
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
html_latency(GString *out, const struct vdc_analysis *a)
{
    size_t ti;

    for (ti = 0; ti < a->n_targets; ti++) {
        int empty = 0;
        char *title = g_strdup_printf("Completion latency percentiles: %s", a->targets[ti]);
        char *svg = vdc_render_latency_svg(a, ti, title, &empty), id[48], *caption;

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
    "Pale bars: no verdict rests on them (too-fast runs, a test file under twice the RAM, an artefact: " \
    "the headline and the n/c lines say which).  Too fast to measure (bonnie++ +++++): no bar but a " \
    "dashed outline labelled \"too fast\" when every run was; a hatched bar marked \u2020 when some were " \
    "(its mean leaves them out and understates the speed)."

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
    vdc_append_answer_html(out, a);
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
    if (html_chart(out, a, "throughput", "K/sec", "Sequential throughput (higher is better)",
                   "Figure 1: sequential output and input, K/sec (KiB/s as bonnie++ prints it). "
                   TOO_FAST_CAPTION, "Figure 1b: the runs behind Figure 1, " DOTS_CAPTION) < 0 ||
        html_chart(out, a, "ops", "/sec", "Seeks and file operations (higher is better)",
                   "Figure 2: random seeks and the file create/read/delete tests, operations per second. "
                   TOO_FAST_CAPTION, "Figure 2b: the runs behind Figure 2, " DOTS_CAPTION) < 0 ||
        html_chart(out, a, "sweep", "MiB/s", "Sequential I/O by block size (higher is better)",
                   "Figure 3: the block-size sweep (dd-like sequential read and write), MiB/s.",
                   "Figure 3b: the runs behind Figure 3, " DOTS_CAPTION) < 0 ||
        html_chart(out, a, "workload", "IO/sec", "Workload IOPS (higher is better)",
                   "Figure 4: the fio-style jobs, I/O operations per second of each job and direction.",
                   "Figure 4b: the runs behind Figure 4, " DOTS_CAPTION) < 0 ||
        html_latency(out, a) < 0 || vdc_host_cost_html(out, a) < 0)
        goto fail;
    g_string_append(out, "<h2>Results</h2>\n<p class=\"note\">Cells: mean &plusmn; half-width of the 95&nbsp;% "
                         "confidence interval of the mean (Student t); n: samples with a value. Deltas: % of the "
                         "baseline mean with the 95&nbsp;% Fieller interval; ** p&nbsp;&lt;&nbsp;0.01, "
                         "* p&nbsp;&lt;&nbsp;0.05, ~ no significant difference (Welch t-test); n/c not comparable "
                         "(no verdict: why, under the table); no mark: not tested (fewer than 2 samples).</p>\n");
    html_table(out, a);
    {
        char **nc = vdc_analysis_not_comparable_lines(a);

        if (nc[0]) {
            g_string_append(out, "<ul class=\"plain\" id=\"not-comparable\">\n");
            vdc_append_lines(out, nc, "<li>", "</li>\n", esc);
            g_string_append(out, "</ul>\n");
        }
        g_strfreev(nc);
    }
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
