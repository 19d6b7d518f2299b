/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp HTML report: one self-contained page, its tables and the
 * inline SVG figures of render_chart.c and render_hostcost.c. */
#include "config.h"

#include "report/render.h"
#include "report/reading.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "report/render_chart.h"
#include "report/render_svg.h"
#include "report/render_escape.h"
#include "report/render_fmt.h"
#include "report/render_answer.h"
#include "report/render_headline.h"
#include "report/render_density.h"
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
    "body{font-family:'DejaVu Serif',Georgia,serif;color:#1a1a1a;max-width:1000px;margin:1.2em auto;"
    "padding:0 1em;line-height:1.45}"
    "h1{font-weight:normal;font-size:1.6em;margin:.2em 0 .1em}h2{font-weight:normal;font-size:1.3em;"
    "border-bottom:1px solid #bbb;padding-bottom:.15em;margin-top:1.6em}h3{font-size:1.05em}"
    ".banner{background:#b00020;color:#fff;font:bold 1.05em sans-serif;padding:.5em 1em;"
    "margin-bottom:.6em;text-align:center;letter-spacing:.02em}"
    ".lead{color:#444;margin:.1em 0 .6em;font-size:.95em}"
    "#answer{border:2px solid #333;padding:.1em 1em .5em;margin:.5em 0 1em;"
    "font:14.5px/1.45 'DejaVu Sans',Arial,sans-serif}"
    "#answer h2{font-size:1.12em;font-weight:bold;border:0;margin:.5em 0 0}"
    "#answer p.legend{font-size:.85em;color:#555;margin:0 0 .3em}"
    "#answer p{margin:.45em 0 .15em}#answer ul{margin:.1em 0 .3em;padding-left:1.1em;list-style:none}"
    "#answer li{margin:.15em 0;padding-left:.5em;border-left:4px solid #ccc}"
    "#answer li.faster{border-color:#009e73}#answer li.slower{border-color:#d55e00}"
    "#answer li.mixed{border-color:#e69f00}#answer li.none{border-color:#999;color:#555}"
    "#answer ul.fixes li{border-color:#e69f00;background:#fff8e6}"
    "figure{margin:1.4em 0}figure svg{width:100%;height:auto;display:block}"
    "figcaption{font-size:.9em;color:#444;margin-top:.4em}"
    "table{border-collapse:collapse;font:13px/1.35 'DejaVu Sans',Arial,sans-serif;margin:.6em 0}"
    "th,td{padding:.3em .6em;border-bottom:1px solid #ddd;text-align:right;vertical-align:top}"
    "th{border-bottom:2px solid #555;font-weight:600}td.l,th.l{text-align:left}td small{white-space:nowrap}"
    "td.faster{color:#006d2c}td.slower{color:#b00020}td.same,td.nc{color:#666}"
    "table.meta td{text-align:left;font-family:'DejaVu Sans Mono',monospace;font-size:12px;"
    "overflow-wrap:anywhere;word-break:break-all}"
    "table.meta td.k{font-family:'DejaVu Sans',sans-serif;white-space:nowrap;"
    "color:#444;word-break:normal}"
    ".warn{background:#fff4d6;border-left:4px solid #e69f00;padding:.6em .9em;font-size:.95em;"
    "overflow-wrap:anywhere}"
    "ul.verdicts{font-size:1.02em;margin:.4em 0 1em}"
    ".note{font-size:.9em;color:#444}ul.plain{font-size:.92em;overflow-wrap:anywhere}"
    ".tablewrap{overflow-x:auto;max-width:100%}table.results tbody{border-top:2px solid #999}"
    "table.results tbody th{text-align:left;font-weight:normal;border-bottom:1px solid #ddd;"
    "white-space:nowrap}"
    "table.results td.test{font-weight:600;min-width:9em}"
    "#headline{border:1px solid #ccc;background:#fafafa;padding:0 1em .6em;margin:1em 0}"
    "#headline h2{margin-top:.6em}#headline h3{font-size:1.05em;margin:1em 0 .3em}"
    "table.ceiling td{white-space:nowrap}"
    /* names and notes read from the left, figures from the right; a
     * target's or test's name never broken at its hyphen */
    "table.ceiling td:nth-child(2),table.ceiling th:nth-child(2),table.ceiling td:nth-child(4)"
    "{text-align:left}"
    "#page-cache td:nth-child(-n+2),#page-cache th:nth-child(-n+2),table.host td:nth-child(-n+2),"
    "table.host th:nth-child(-n+2){text-align:left;white-space:nowrap}"
    "table.host td:nth-child(3),table.host th:nth-child(3),table.host td[colspan]{text-align:left}"
    "details.long>summary{cursor:pointer;margin-top:1.2em}details.long>summary h2,details.long>summary h3"
    "{display:inline}details.long>summary h2{border:0}";

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
            if (c->sum.has_ci_mean) {
                vdc_fmt_cell_ci(buf, sizeof(buf), c, "\u00b1 ");
                g_string_append_c(out, ' ');
                esc(out, buf);
            }
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
                if (!buf[0]) {  /* no delta: why, never an empty cell */
                    g_string_append(out, "<small>");
                    esc(out, vdc_fmt_no_delta(vdc_analysis_cmp(a, ti, ki)));
                    g_string_append(out, "</small>");
                }
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

/* The outliers the rule flagged and the samples without a value, one
 * item each; open when there are few, else collapsed (id outliers). */
static void
html_notes(GString *out, const struct vdc_analysis *a)
{
    GString *items = g_string_new(NULL);
    size_t ti, ki, i, n = 0;

    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);

            for (i = 0; i < c->n_values; i++)
                if (c->samples[i].outlier) {
                    g_string_append(items, "<li>outlier: target ");
                    esc(items, c->target);
                    g_string_append(items, ", test ");
                    esc(items, c->test_key);
                    g_string_append_printf(items, ", repetition %" G_GINT64_FORMAT ", value %s ",
                                           c->samples[i].repetition, vdc_fmt_num_s(c->samples[i].value));
                    esc(items, c->unit);
                    g_string_append_printf(items, ", modified z %.2f%s</li>\n", c->samples[i].modified_z,
                                           a->opt.policy == VDC_OUTLIERS_DROP ? " (dropped)" : "");
                    n++;
                }
            if (c->n_no_value) {
                g_string_append(items, "<li>excluded: target ");
                esc(items, c->target);
                g_string_append(items, ", test ");
                esc(items, c->test_key);
                g_string_append_printf(items, ": %zu of %zu %s no value (%zu too fast, %zu failed)</li>\n",
                                       c->n_no_value, c->n_samples,
                                       c->n_samples == 1 ? "sample has" : "samples have", c->n_too_fast,
                                       c->n_failed);
                n++;
            }
        }
    g_string_append_printf(out, "<details class=\"long\" id=\"outliers\"%s><summary><h2>Outliers and excluded "
                                "samples (%zu)</h2></summary>\n", n <= 8 ? " open" : "", n);
    g_string_append_printf(out, "<p class=\"note\">Outlier rule: modified z-score |0.6745&nbsp;(x&nbsp;&minus;"
                           "&nbsp;median)&nbsp;/&nbsp;MAD| &gt; %g (Iglewicz&ndash;Hoaglin), applied to %d or more "
                           "values; policy <b>%s</b>.</p>\n<ul class=\"plain\">", a->opt.outlier_threshold,
                           VDC_STATS_OUTLIER_MIN_N, vdc_outlier_policy_name(a->opt.policy));
    if (n)
        g_string_append(out, items->str);
    else
        g_string_append(out, vdc_outlier_rule_applied(a) ? "<li>No sample flagged or excluded.</li>"
                        : "<li>Outlier rule not applied: no cell has enough values; "
                          "no sample excluded.</li>");
    g_string_append(out, "</ul>\n</details>\n");
    g_string_free(items, TRUE);
}

/* One figure: @svg (taken) with its ids prefixed by @id, numbered (the
 * next of *@fig, in page order) and captioned "Figure N: @caption";
 * @points > 0: its marker count as data-points, @targets (or NULL) the
 * targets it draws as data-targets (what the Chromium test checks).
 * Returns the figure's number. */
static int
html_figure(GString *out, char *svg, const char *id, const char *cls, size_t points, int *fig,
            const char *caption, const char *targets)
{
    char *fixed = vdc_svg_prefix_ids(svg, id);

    g_string_append_printf(out, "<figure id=\"%s\" class=\"%s\" data-figure=\"%d\"", id, cls, ++*fig);
    if (points)
        g_string_append_printf(out, " data-points=\"%zu\"", points);
    if (targets) {
        g_string_append(out, " data-targets=\"");
        esc(out, targets);
        g_string_append_c(out, '"');
    }
    g_string_append_printf(out, ">\n%s\n<figcaption><b>Figure %d</b>: ", fixed, *fig);
    esc(out, caption);
    g_string_append(out, "</figcaption></figure>\n");
    g_free(svg);
    g_free(fixed);
    return *fig;
}

/* The bar chart of @unit (id chart-@name) and right after it its dot plot
 * (id dots-@name): every run of every test in run order; nothing when no
 * test has that unit.  0, or -1 after vdc_error. */
static int
html_chart(GString *out, const struct vdc_analysis *a, int *fig, const char *name, const char *unit,
           const char *title, const char *caption, const char *dots_caption)
{
    int empty = 0, bars;
    size_t points = 0;
    char *svg = vdc_render_chart_svg(a, unit, title, &empty), id[64], *dtitle, *cap;

    if (!svg)
        return empty ? 0 : -1;
    snprintf(id, sizeof(id), "chart-%s", name);
    bars = html_figure(out, svg, id, "chart", 0, fig, caption, NULL);
    dtitle = g_strdup_printf("%s: every run, in run order", title);
    svg = vdc_render_dots_svg(a, unit, dtitle, &empty, &points);
    g_free(dtitle);
    if (!svg)
        return -1;
    snprintf(id, sizeof(id), "dots-%s", name);
    cap = g_strdup_printf("the runs behind Figure %d, %s", bars, dots_caption);
    html_figure(out, svg, id, "chart dots", points, fig, cap, NULL);
    g_free(cap);
    return 0;
}

/* A latency-percentile chart per workload test (job and direction), every
 * target on one axis in its colour (ids chart-latency-N, N the test's
 * index).  0, or -1 after vdc_error. */
static int
html_latency(GString *out, const struct vdc_analysis *a, int *fig)
{
    size_t ki;

    for (ki = 0; ki < a->n_tests; ki++) {
        int empty = 0;
        size_t points = 0;
        char label[VDC_TEST_LABEL_MAX], id[48], *title, *svg, *caption;

        if (!vdc_test_key_job(a->tests[ki]))
            continue;
        /* "randread-4k (file), read": the job and the direction, not its IOPS */
        vdc_analysis_job_label(a, ki, label, sizeof(label));
        g_strlcat(label, vdc_analysis_cell(a, 0, ki)->info && vdc_analysis_cell(a, 0, ki)->info->id ==
                         VDC_TEST_WORKLOAD_WRITE ? ", write" : ", read", sizeof(label));
        title = g_strdup_printf("Completion latency: %s", label);
        svg = vdc_render_latency_svg(a, ki, title, &empty, &points);
        g_free(title);
        if (!svg) {
            if (empty)
                continue;
            return -1;
        }
        snprintf(id, sizeof(id), "chart-latency-%zu", ki);
        caption = g_strdup_printf("%s: the completion-latency percentiles p50 to p99.99 of every target "
                                  "(means of the runs), microseconds on one log scale, a line per target in "
                                  "its colour (lower is better).", label);
        {
            GString *t = g_string_new(NULL);
            size_t ti, k;

            for (ti = 0; ti < a->n_targets; ti++)
                for (k = 0; k < VDC_CLAT_N; k++)
                    if (vdc_has(vdc_analysis_cell(a, ti, ki)->wl.clat_us[k])) {
                        g_string_append_printf(t, "%s%s", t->len ? "," : "", a->targets[ti]);
                        break;
                    }
            html_figure(out, svg, id, "chart latency", points, fig, caption, t->str);
            g_string_free(t, TRUE);
        }
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

/* The caption of the bar chart of @unit: @what, then how it draws what
 * it draws beyond plain bars (vdc_chart_marks), nothing it does not draw
 * (g_free). */
static char *
bar_caption(const struct vdc_analysis *a, const char *unit, const char *what)
{
    long only;
    unsigned m = vdc_chart_marks(a, unit, &only);
    GString *s = g_string_new(what);

    if (m & VDC_CHART_PALE)
        g_string_append(s, "  Pale bars: no verdict rests on them (too-fast runs, a test file under twice the "
                           "RAM, an artefact: the headline and the n/c lines say which).");
    if (m & VDC_CHART_TOO_FAST)
        g_string_append(s, "  Too fast to measure (bonnie++ +++++) in every run: no bar but a dashed outline "
                           "labelled \"too fast\".");
    if (m & VDC_CHART_HATCHED)
        g_string_append(s, "  A hatched bar marked \u2020: some runs were too fast to measure (its mean leaves "
                           "them out and understates the speed).");
    return g_string_free(s, FALSE);
}

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

/* "How to reproduce", collapsed: every fact but the runs' (the metadata
 * table, id metadata, "Run time" with them), then the runs' own facts and command lines in a
 * table of their own, collapsed too (id runs). */
static void
html_metadata(GString *out, const vdc_result_set *rs, const struct vdc_analysis *a)
{
    char **meta = vdc_metadata_lines(rs, a);
    GString *runs = g_string_new(NULL);
    size_t i, n_facts = 0, n_runs = 0;

    g_string_append(out, "<details class=\"long\" id=\"reproduce\"><summary><h2>How to reproduce</h2></summary>\n"
                         "<table class=\"meta\" id=\"metadata\">\n");
    for (i = 0; meta[i] && meta[i + 1]; i += 2) {
        /* a run's own row is "Run TARGET #N"; "Run time" is a fact of the whole */
        GString *t = g_str_has_prefix(meta[i], "Run ") && strstr(meta[i], " #") ? runs : out;

        if (t == runs)
            n_runs++;
        else
            n_facts++;
        g_string_append(t, "<tr><td class=\"k\">");
        esc(t, meta[i]);
        g_string_append(t, "</td><td>");
        esc(t, meta[i + 1]);
        g_string_append(t, "</td></tr>\n");
    }
    g_string_append(out, "</table>\n</details>\n");
    if (n_runs) {
        g_string_append_printf(out, "<details class=\"long\" id=\"runs\"><summary><h2>Each run: its facts and "
                                    "command line (%zu)</h2></summary>\n<table class=\"meta\" id=\"run-facts\">\n",
                               n_runs);
        g_string_append(out, runs->str);
        g_string_append(out, "</table>\n</details>\n");
    }
    (void)n_facts;
    g_string_free(runs, TRUE);
    g_strfreev(meta);
}

char *
vdc_render_html(const vdc_result_set *rs, const struct vdc_analysis *a, const char *generated)
{
    GString *out = g_string_new(NULL);
    size_t i;
    int fig = 0;
    g_autofree char *ops_title = NULL, *ops_what = NULL, *ops_cap = NULL, *tp_cap = NULL;

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
    {
        g_autofree char *dir = vdc_headline_direction_text(a);

        g_string_append(out, "; ");
        esc(out, dir);
        g_string_append(out, ".");
    }
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
    numbered_warnings(out, rs, a, VDC_WARNINGS_DISKS, "different-disks");
    vdc_append_headline_html(out, a);
    vdc_append_reading_html(out, a);
    vdc_append_warnings(out, rs, a, VDC_WARNINGS_FEW, "<p class=\"warn\" id=\"few-runs\"><b>Warning.</b> ",
                        "</p>\n", esc);
    vdc_append_warnings(out, rs, a, VDC_WARNING_BIT(VDC_WARNING_TOO_FAST), "<p class=\"warn\" id=\"too-fast\">",
                        "</p>\n", esc);
    {
        char **v = vdc_analysis_verdict_lines(a);

        if (v[0]) {
            g_string_append(out, "<p class=\"note\">" VDC_TABLE_VERDICTS_NOTE "</p>\n"
                                 "<ul class=\"verdicts\" id=\"verdicts\">\n");
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
    {
        long only;

        vdc_chart_marks(a, "/sec", &only);
        if (only >= 0) {
            /* one test per second: titled for it, not for file operations that did not run */
            char label[VDC_TEST_LABEL_MAX];

            vdc_analysis_test_label(a, (size_t)only, label, sizeof(label));
            ops_title = g_strdup_printf("%s (higher is better)", label);
            ops_what = g_strdup_printf("%s, operations per second.", label);
        } else {
            ops_title = g_strdup("Seeks and file operations (higher is better)");
            ops_what = g_strdup("random seeks and the file create/read/delete tests, operations per second.");
        }
        ops_cap = bar_caption(a, "/sec", ops_what);
        tp_cap = bar_caption(a, "K/sec", "sequential output and input, K/sec (KiB/s as bonnie++ prints it).");
    }
    if (html_chart(out, a, &fig, "throughput", "K/sec", "Sequential throughput (higher is better)", tp_cap,
                   DOTS_CAPTION) < 0 ||
        html_chart(out, a, &fig, "ops", "/sec", ops_title, ops_cap, DOTS_CAPTION) < 0 ||
        html_chart(out, a, &fig, "sweep", "MiB/s", "Sequential I/O by block size (higher is better)",
                   "the block-size sweep (dd-like sequential read and write), MiB/s.", DOTS_CAPTION) < 0 ||
        html_chart(out, a, &fig, "workload", "IO/sec", "Workload IOPS (higher is better)",
                   "the fio-style jobs, I/O operations per second of each job and direction.",
                   DOTS_CAPTION) < 0 ||
        html_latency(out, a, &fig) < 0 || vdc_host_cost_html(out, a, &fig) < 0 ||
        vdc_density_html(out, a, &fig) < 0)
        goto fail;
    g_string_append(out, "<h2 id=\"results-title\">Results</h2>\n<p class=\"note\">Cells: mean &plusmn; "
                         "half-width of the 95&nbsp;% confidence interval of the mean (Student t); n: samples "
                         "with a value. Deltas: % of the baseline mean with the 95&nbsp;% Fieller interval; ** "
                         "p&nbsp;&lt;&nbsp;0.01, * p&nbsp;&lt;&nbsp;0.05, ~ no significant difference (Welch "
                         "t-test); n/c not comparable (no verdict: why, under the table); no mark: not tested "
                         "(fewer than 2 samples). " VDC_DELTA_CI_NOTE " " VDC_CI_FLOOR_NOTE "</p>\n");
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
    html_notes(out, a);
    html_metadata(out, rs, a);
    g_string_append(out, "</body></html>\n");
    return g_string_free(out, FALSE);
 fail:
    g_string_free(out, TRUE);
    return NULL;
}
