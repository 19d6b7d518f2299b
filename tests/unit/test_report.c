/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/report: the analysis grid (counts, outlier policies,
 * baseline choice, comparisons) and the pure renderers' invariants
 * (bonnie++ CSV field positions, summary CSV, compare formats, SVG). */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <glib.h>

#include "model/result.h"
#include "report/analysis.h"
#include "report/render.h"
#include "report/render_chart.h"
#include "report/render_fmt.h"
#include "report/render_svg.h"
#include "report/render_json.h"
#include "report/render_warnings.h"

/* Add one run of @target with putc = @putc (NAN: too fast) and
 * seq_del = @del (NAN: failed). */
static void
add_run(vdc_result_set *rs, const char *target, double putc, double del)
{
    vdc_run *r = vdc_result_set_add_run(rs, target);
    vdc_sample *s = vdc_run_add_sample(r, "putc");

    s->value = putc;
    s->cpu_percent = 99;
    s->too_fast = isnan(putc);
    s = vdc_run_add_sample(r, "seq_del");
    s->value = del;
    s->failed = isnan(del);
    r->meta.file_size_mib = 512;
}

/* image: putc 100 102 98 101 99 (+ one too fast), seq_del with an
 * outlier (1000 1010 990 1005 400) and one failed;
 * dom0: putc 110 108 112 111 109, seq_del 1000 x5 +- 1. */
static void
build(vdc_result_set *rs)
{
    static const double ip[] = { 100, 102, 98, 101, 99 };
    static const double id[] = { 1000, 1010, 990, 1005, 400 };
    static const double dp[] = { 110, 108, 112, 111, 109 };
    static const double dd[] = { 1000, 1001, 999, 1000, 1000 };
    int i;

    vdc_result_set_init(rs);
    for (i = 0; i < 5; i++) {
        add_run(rs, "image", ip[i], id[i]);
        add_run(rs, "dom0", dp[i], dd[i]);
    }
    add_run(rs, "image", NAN, NAN);
}

static void
test_analysis_counts(void **state)
{
    vdc_result_set rs;
    struct vdc_analysis a;
    struct vdc_stats_options o;
    const struct vdc_cell *c;
    long kp, kd;

    build(&rs);
    vdc_analysis_init(&a);
    vdc_stats_options_init(&o);
    assert_int_equal(vdc_analysis_build(&a, &rs, NULL, &o), 0);
    /* dom0 is the default baseline when present */
    assert_string_equal(a.baseline, "dom0");
    assert_int_equal(a.n_targets, 2);
    kp = vdc_analysis_test_index(&a, "putc");
    kd = vdc_analysis_test_index(&a, "seq_del");
    assert_true(kp >= 0 && kd >= 0);
    assert_int_equal(vdc_analysis_test_index(&a, "seeks"), -1);
    c = vdc_analysis_cell(&a, 0, (size_t)kp);
    assert_string_equal(c->target, "image");
    assert_int_equal(c->n_samples, 6);
    assert_int_equal(c->n_too_fast, 1);
    assert_int_equal(c->n_failed, 0);
    assert_int_equal(c->sum.n, 5);
    assert_true(fabs(c->sum.mean - 100) < 1e-12);
    assert_true(fabs(c->cpu_mean - 99) < 1e-12);
    c = vdc_analysis_cell(&a, 0, (size_t)kd);
    assert_int_equal(c->n_failed, 1);
    assert_int_equal(c->n_too_fast, 0);
    /* flag: the outlier is named and kept in the statistics */
    assert_int_equal(c->n_outliers, 1);
    assert_int_equal(c->samples[4].outlier, 1);
    assert_int_equal(c->samples[4].repetition, 4);
    assert_int_equal(c->sum.n, 5);
    assert_true(fabs(c->sum.mean - 881) < 1e-9);
    /* the comparison of image against dom0 on putc: -10/110 */
    assert_null(vdc_analysis_cmp(&a, a.baseline_index, (size_t)kp));
    assert_true(fabs(vdc_analysis_cmp(&a, 0, (size_t)kp)->c.delta_percent - (100.0 / 110 - 1) * 100) < 1e-9);
    /* image has a too-fast putc run with no value: its mean understates,
     * so no "slower" verdict, a marked delta instead; Welch still ran */
    assert_int_equal(vdc_analysis_cmp(&a, 0, (size_t)kp)->c.verdict, VDC_VERDICT_NOT_COMPARABLE);
    assert_true(vdc_analysis_cmp(&a, 0, (size_t)kp)->c.has_test);
    assert_int_equal(vdc_analysis_cmp(&a, 0, (size_t)kp)->c.significant, 0);
    assert_string_equal(vdc_significance_mark(&vdc_analysis_cmp(&a, 0, (size_t)kp)->c), VDC_NOT_COMPARABLE_MARK);
    {
        g_autofree char *why = vdc_analysis_cmp_reason(&a, 0, (size_t)kp);

        assert_string_equal(why, "too-fast on image");
    }
    assert_int_equal(vdc_analysis_n_too_fast_cells(&a), 1);
    {
        char buf[64], **v;

        c = vdc_analysis_cell(&a, 0, (size_t)kp);
        assert_int_equal(c->n_too_fast_excluded, 1);
        vdc_fmt_cell_mean(buf, sizeof(buf), c);
        assert_string_equal(buf, "100.0" VDC_TOO_FAST_MARK);
        v = vdc_analysis_verdict_lines(&a);
        assert_non_null(strstr(v[0], ", 1 not comparable (of 2 tests)"));
        g_strfreev(v);
    }
    vdc_analysis_dispose(&a);
    vdc_analysis_dispose(&a);   /* safe twice */
    vdc_result_set_dispose(&rs);
}

/* Every run too fast: "+++++ (too fast)" in the cell, the legend in
 * text, Markdown and HTML, a dashed "too fast" label in the chart, and the
 * "1 target" grammar. */
static void
test_all_too_fast(void **state)
{
    vdc_result_set rs;
    struct vdc_analysis a;
    struct vdc_stats_options o;
    char buf[64], *s;
    int empty = 0, i;

    vdc_result_set_init(&rs);
    for (i = 0; i < 3; i++)
        add_run(&rs, "image", NAN, 1000 + i);
    vdc_analysis_init(&a);
    vdc_stats_options_init(&o);
    assert_int_equal(vdc_analysis_build(&a, &rs, NULL, &o), 0);
    vdc_fmt_cell_mean(buf, sizeof(buf), vdc_analysis_cell(&a, 0, (size_t)vdc_analysis_test_index(&a, "putc")));
    assert_string_equal(buf, "+++++ (too fast)");
    s = vdc_render_text(&rs, &a);
    assert_non_null(strstr(s, ": 1 target, baseline image"));
    /* legends only for marks that appear: no cell prints a dagger, +++++ is
     * said where the rows are explained */
    assert_null(strstr(s, VDC_TOO_FAST_LEGEND));
    assert_non_null(strstr(s, "+++++: every run too fast, no value."));
    g_free(s);
    s = vdc_render_markdown(&rs, &a);
    assert_non_null(strstr(s, "\\+\\+\\+\\+\\+ (too fast) (n=0)"));
    g_free(s);
    s = vdc_render_html(&rs, &a, NULL);
    assert_null(strstr(s, "id=\"too-fast\""));
    assert_non_null(strstr(s, "+++++ (too fast) <small>(n=0)</small>"));
    g_free(s);
    s = vdc_render_chart_svg(&a, "K/sec", "t", &empty);
    assert_non_null(s);
    g_free(s);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
}

/* Test file sizes: differing between targets, and under twice the RAM. */
static void
test_size_warnings(void **state)
{
    vdc_result_set rs;
    struct vdc_analysis a;
    struct vdc_stats_options o;
    char **w, *s;
    size_t i;

    build(&rs);
    vdc_analysis_init(&a);
    vdc_stats_options_init(&o);
    assert_int_equal(vdc_analysis_build(&a, &rs, NULL, &o), 0);
    w = vdc_warning_texts(&rs, &a, VDC_WARNINGS_SIZES);
    assert_null(w[0]);   /* all 512 MiB, no RAM known: nothing to say */
    g_strfreev(w);
    for (i = 0; i < rs.n_runs; i++) {
        if (!strcmp(rs.runs[i]->target, "dom0"))
            rs.runs[i]->meta.file_size_mib = 2048;
        rs.runs[i]->meta.ram_mib = 1024;
    }
    /* the analysis decides: analyse the changed set again */
    assert_int_equal(vdc_analysis_build(&a, &rs, NULL, &o), 0);
    w = vdc_warning_texts(&rs, &a, VDC_WARNINGS_SIZES);
    assert_string_equal(w[0], "test file sizes differ: image 512 MiB, dom0 2048 MiB: deltas mix size effects "
                              "with backend effects.");
    assert_string_equal(w[1], "target image: test file 512 MiB is under twice the RAM (1024 MiB) in 6 of 6 "
                              "runs: the page cache flatters the result (bonnie++ wants at least twice the RAM).");
    assert_null(w[2]);
    g_strfreev(w);
    assert_int_equal(a.n_warnings, 3);   /* the too-fast legend, then the two */
    assert_int_equal(a.warnings[0].kind, VDC_WARNING_TOO_FAST);
    assert_int_equal(a.warnings[1].kind, VDC_WARNING_SIZES_DIFFER);
    assert_int_equal(a.warnings[2].kind, VDC_WARNING_UNDER_2X_RAM);
    assert_string_equal(a.targets[a.warnings[2].target], "image");
    s = vdc_render_text(&rs, &a);
    assert_non_null(strstr(s, "WARNING: test file sizes differ: image 512 MiB, dom0 2048 MiB"));
    g_free(s);
    s = vdc_render_html(&rs, &a, NULL);
    assert_non_null(strstr(s, "id=\"size-warning-1\""));
    g_free(s);
    s = vdc_render_json(&rs, &a);
    assert_non_null(strstr(s, "\"warnings\""));
    g_free(s);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
}

/* The few-runs warning: --runs advice only for our own runs; all runs
 * failed: say so with their errors. */
static void
test_few_runs_warning(void **state)
{
    vdc_result_set rs;
    struct vdc_analysis a;
    struct vdc_stats_options o;
    vdc_run *r;
    char **w;

    vdc_result_set_init(&rs);
    add_run(&rs, "image", 100, 1000);
    vdc_analysis_init(&a);
    vdc_stats_options_init(&o);
    assert_int_equal(vdc_analysis_build(&a, &rs, NULL, &o), 0);
    w = vdc_warning_texts(&rs, &a, VDC_WARNINGS_FEW);
    assert_string_equal(w[0], VDC_FEW_RUNS_WARNING);
    assert_null(w[1]);
    assert_int_equal(a.warnings[0].kind, VDC_WARNING_FEW_RUNS);
    g_strfreev(w);
    vdc_set_str(&rs.runs[0]->meta.source.file, "seed.csv");
    assert_int_equal(vdc_analysis_build(&a, &rs, NULL, &o), 0);
    assert_int_equal(a.warnings[0].kind, VDC_WARNING_FEW_VALUES);
    w = vdc_warning_texts(&rs, &a, VDC_WARNINGS_FEW);
    assert_string_equal(w[0], VDC_FEW_VALUES_WARNING);
    assert_null(strstr(w[0], "--runs"));
    g_strfreev(w);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);

    vdc_result_set_init(&rs);
    r = vdc_result_set_add_run(&rs, "image");
    vdc_set_str(&r->status, "failed");
    vdc_set_str(&r->error, "agent: mkfs.ext4 exited 1");
    r = vdc_result_set_add_run(&rs, "image");
    vdc_set_str(&r->status, "failed");
    vdc_set_str(&r->error, "timeout after 600 s");
    assert_int_equal(vdc_analysis_build(&a, &rs, NULL, &o), 0);
    assert_int_equal(a.warnings[0].kind, VDC_WARNING_ALL_FAILED);
    w = vdc_warning_texts(&rs, &a, VDC_WARNINGS_FEW);
    assert_string_equal(w[0], "All 2 runs failed: there is nothing to compare: image #0: agent: mkfs.ext4 exited 1; "
                           "image #1: timeout after 600 s.");
    g_strfreev(w);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
}

static void
test_analysis_drop(void **state)
{
    vdc_result_set rs;
    struct vdc_analysis a;
    struct vdc_stats_options o;
    const struct vdc_cell *c;

    build(&rs);
    vdc_analysis_init(&a);
    vdc_stats_options_init(&o);
    o.policy = VDC_OUTLIERS_DROP;
    assert_int_equal(vdc_analysis_build(&a, &rs, "image", &o), 0);
    assert_string_equal(a.baseline, "image");
    c = vdc_analysis_cell(&a, 0, (size_t)vdc_analysis_test_index(&a, "seq_del"));
    /* still named, no longer in the statistics */
    assert_int_equal(c->n_outliers, 1);
    assert_int_equal(c->sum.n, 4);
    assert_true(fabs(c->sum.mean - 1001.25) < 1e-9);
    /* and the comparison uses the kept values: 1000/1001.25 */
    assert_true(fabs(vdc_analysis_cmp(&a, 1, (size_t)vdc_analysis_test_index(&a, "seq_del"))->c.ratio -
                     1000.0 / 1001.25) < 1e-12);
    /* a higher threshold flags nothing */
    o.outlier_threshold = 1000;
    assert_int_equal(vdc_analysis_build(&a, &rs, "image", &o), 0);
    c = vdc_analysis_cell(&a, 0, (size_t)vdc_analysis_test_index(&a, "seq_del"));
    assert_int_equal(c->n_outliers, 0);
    assert_int_equal(c->sum.n, 5);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
}

static void
test_analysis_errors(void **state)
{
    vdc_result_set rs;
    struct vdc_analysis a;
    struct vdc_stats_options o;

    build(&rs);
    vdc_analysis_init(&a);
    vdc_stats_options_init(&o);
    assert_int_equal(vdc_analysis_build(&a, &rs, "lvm", &o), -1);
    assert_null(a.cells);
    vdc_result_set_dispose(&rs);
    vdc_result_set_init(&rs);
    assert_int_equal(vdc_analysis_build(&a, &rs, NULL, &o), -1);
    vdc_result_set_dispose(&rs);
    vdc_analysis_dispose(&a);
}

static void
test_bonnie_csv_fields(void **state)
{
    vdc_result_set rs;
    char *csv, **lines, **f;

    build(&rs);
    csv = vdc_render_bonnie_csv(&rs);
    lines = g_strsplit(csv, "\n", -1);
    assert_int_equal(g_strv_length(lines), 12);   /* 11 runs + the empty tail */
    f = g_strsplit(lines[0], ",", -1);
    assert_int_equal(g_strv_length(f), 50);
    assert_string_equal(f[0], "1.98");
    assert_string_equal(f[2], "image");
    assert_string_equal(f[5], "512M");
    assert_string_equal(f[9], "100");     /* field 10: putc */
    assert_string_equal(f[10], "99");     /* field 11: putc %CP */
    assert_string_equal(f[30], "1000");   /* field 31: seq_del */
    g_strfreev(f);
    f = g_strsplit(lines[10], ",", -1);   /* the too-fast / failed run */
    assert_string_equal(f[9], "+++++");
    assert_string_equal(f[10], "+++");
    assert_string_equal(f[30], "");       /* failed: no value, not +++++ */
    g_strfreev(f);
    g_strfreev(lines);
    g_free(csv);
    vdc_result_set_dispose(&rs);
}

static void
test_compare_formats(void **state)
{
    vdc_result_set rs;
    struct vdc_analysis a;
    struct vdc_stats_options o;
    char *s;

    build(&rs);
    vdc_analysis_init(&a);
    vdc_stats_options_init(&o);
    assert_int_equal(vdc_analysis_build(&a, &rs, NULL, &o), 0);
    assert_null(vdc_render_compare(&rs, &a, "pdf"));
    s = vdc_render_compare(&rs, &a, "text");
    assert_non_null(strstr(s, "-9.1% n/c"));
    assert_non_null(strstr(s, "n/c: image relative to dom0: not comparable (too-fast on image): "));
    g_free(s);
    s = vdc_render_compare(&rs, &a, "csv");
    assert_true(g_str_has_prefix(s, "target,test,unit,n,"));
    assert_non_null(strstr(s, "image,putc,K/sec,5,1,0,100,"));
    g_free(s);
    s = vdc_render_compare(&rs, &a, "json");
    assert_non_null(strstr(s, "\"verdict\": \"not comparable\""));
    assert_non_null(strstr(s, "\"not_comparable\": \"too-fast on image\""));
    g_free(s);
    s = vdc_render_compare(&rs, &a, "md");
    assert_non_null(strstr(s, "| image vs dom0 |"));
    g_free(s);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
}

/* Flags of summary.csv and the warning list: fixed keywords in a fixed
 * order; the list of warnings in the order documented in render.h. */
static void
test_cell_flags_and_warnings(void **state)
{
    vdc_result_set rs;
    struct vdc_analysis a;
    struct vdc_stats_options o;
    char *f, **w;
    long kp, kd;
    size_t i;

    build(&rs);
    for (i = 0; i < rs.n_runs; i++)
        if (!strcmp(rs.runs[i]->target, "image"))
            rs.runs[i]->meta.ram_mib = 1024;   /* 512 MiB file: under 2x RAM */
    vdc_analysis_init(&a);
    vdc_stats_options_init(&o);
    o.policy = VDC_OUTLIERS_DROP;
    assert_int_equal(vdc_analysis_build(&a, &rs, NULL, &o), 0);
    kp = vdc_analysis_test_index(&a, "putc");
    kd = vdc_analysis_test_index(&a, "seq_del");
    f = vdc_cell_flags_text(vdc_analysis_cell(&a, 0, (size_t)kp)->flags);
    assert_string_equal(f, "too-fast;under-2x-ram;not-comparable");
    g_free(f);
    f = vdc_cell_flags_text(vdc_analysis_cell(&a, 0, (size_t)kd)->flags);
    assert_string_equal(f, "failed;outliers-dropped;under-2x-ram;not-comparable");
    g_free(f);
    f = vdc_cell_flags_text(vdc_analysis_cell(&a, a.baseline_index, (size_t)kp)->flags);
    assert_string_equal(f, "");
    g_free(f);
    w = vdc_report_warnings(&rs, &a);
    assert_non_null(w[0]);
    assert_string_equal(w[0], VDC_TOO_FAST_LEGEND);
    assert_non_null(w[1]);
    assert_true(g_str_has_prefix(w[1], "target image: test file 512 MiB is under twice the RAM (1024 MiB) in 6 of 6 runs"));
    assert_true(g_str_has_suffix(w[1], "RAM)."));
    assert_null(w[2]);
    g_strfreev(w);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
}

/* ---- the cell flags, one test per flag: each decided by the analysis --- */

/* dom0 (the baseline) and image, 5 runs each with putc 110.. and 100..,
 * a 512 MiB test file, no RAM recorded: no flag anywhere. */
static void
flag_set(vdc_result_set *rs)
{
    static const double ip[] = { 100, 102, 98, 101, 99 };
    static const double dp[] = { 110, 108, 112, 111, 109 };
    int i;

    vdc_result_set_init(rs);
    for (i = 0; i < 5; i++) {
        vdc_run *r = vdc_result_set_add_run(rs, "dom0");

        vdc_run_add_sample(r, "putc")->value = dp[i];
        r->meta.file_size_mib = 512;
        r = vdc_result_set_add_run(rs, "image");
        vdc_run_add_sample(r, "putc")->value = ip[i];
        r->meta.file_size_mib = 512;
    }
}

/* One more run of @target with putc = @v, too fast / failed as told. */
static vdc_sample *
flag_run(vdc_result_set *rs, const char *target, double v, int too_fast, int failed)
{
    vdc_run *r = vdc_result_set_add_run(rs, target);
    vdc_sample *s = vdc_run_add_sample(r, "putc");

    s->value = v;
    s->too_fast = too_fast;
    s->failed = failed;
    r->meta.file_size_mib = 512;
    return s;
}

/* The flags of (@target, putc), baseline dom0; @rs disposed. */
static unsigned
flags_of(vdc_result_set *rs, const char *target, enum vdc_outlier_policy policy)
{
    struct vdc_analysis a;
    struct vdc_stats_options o;
    unsigned f;
    size_t ti;

    vdc_analysis_init(&a);
    vdc_stats_options_init(&o);
    o.policy = policy;
    assert_int_equal(vdc_analysis_build(&a, rs, "dom0", &o), 0);
    for (ti = 0; ti < a.n_targets && strcmp(a.targets[ti], target); ti++)
        ;
    assert_true(ti < a.n_targets);
    f = vdc_analysis_cell(&a, ti, (size_t)vdc_analysis_test_index(&a, "putc"))->flags;
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(rs);
    return f;
}

static void
test_flag_none_and_names(void **state)
{
    vdc_result_set rs;
    unsigned i;

    flag_set(&rs);
    assert_int_equal(flags_of(&rs, "image", VDC_OUTLIERS_FLAG), 0);
    flag_set(&rs);
    assert_int_equal(flags_of(&rs, "dom0", VDC_OUTLIERS_FLAG), 0);
    /* the one keyword table, in bit order */
    assert_string_equal(vdc_cell_flag_name(VDC_CELL_TOO_FAST), "too-fast");
    assert_string_equal(vdc_cell_flag_name(VDC_CELL_NOT_COMPARABLE), "not-comparable");
    assert_null(vdc_cell_flag_name(0));
    assert_null(vdc_cell_flag_name(VDC_CELL_TOO_FAST | VDC_CELL_FAILED));
    for (i = 0; i < VDC_CELL_FLAG_COUNT; i++)
        assert_non_null(vdc_cell_flag_name(1u << i));
}

static void
test_flag_too_fast(void **state)
{
    vdc_result_set rs;

    /* too fast but with a value (an importer's estimate): in the mean,
     * still marked; as in the headline, the delta has no verdict */
    flag_set(&rs);
    flag_run(&rs, "image", 103, 1, 0);
    assert_int_equal(flags_of(&rs, "image", VDC_OUTLIERS_FLAG), VDC_CELL_TOO_FAST | VDC_CELL_NOT_COMPARABLE);
}

static void
test_flag_failed(void **state)
{
    vdc_result_set rs;

    flag_set(&rs);
    flag_run(&rs, "image", NAN, 0, 1);
    assert_int_equal(flags_of(&rs, "image", VDC_OUTLIERS_FLAG), VDC_CELL_FAILED);
}

static void
test_flag_few_runs(void **state)
{
    vdc_result_set rs;

    vdc_result_set_init(&rs);
    flag_run(&rs, "dom0", 110, 0, 0);
    flag_run(&rs, "dom0", 111, 0, 0);
    flag_run(&rs, "image", 100, 0, 0);
    assert_int_equal(flags_of(&rs, "image", VDC_OUTLIERS_FLAG), VDC_CELL_FEW_RUNS);
}

static void
test_flag_outliers_flagged(void **state)
{
    vdc_result_set rs;

    flag_set(&rs);
    flag_run(&rs, "image", 400, 0, 0);
    assert_int_equal(flags_of(&rs, "image", VDC_OUTLIERS_FLAG), VDC_CELL_OUTLIERS_FLAGGED);
}

static void
test_flag_outliers_dropped(void **state)
{
    vdc_result_set rs;

    flag_set(&rs);
    flag_run(&rs, "image", 400, 0, 0);
    assert_int_equal(flags_of(&rs, "image", VDC_OUTLIERS_DROP), VDC_CELL_OUTLIERS_DROPPED);
}

static void
test_flag_under_2x_ram(void **state)
{
    vdc_result_set rs;
    vdc_target *t;
    size_t i;

    /* the agent was told -r 1024 for a 512 MiB file */
    flag_set(&rs);
    for (i = 0; i < rs.n_runs; i++)
        if (!strcmp(rs.runs[i]->target, "image"))
            rs.runs[i]->meta.ram_mib = 1024;
    /* the page cache answered: the delta has no verdict either (one truth
     * with the headline) */
    assert_int_equal(flags_of(&rs, "image", VDC_OUTLIERS_FLAG), VDC_CELL_UNDER_2X_RAM | VDC_CELL_NOT_COMPARABLE);
    /* told nothing (or less), but the domU has 1024 MiB: the cache does
     * not care what the agent was told */
    flag_set(&rs);
    t = vdc_result_set_add_target(&rs, "image");
    vdc_set_str(&t->where, "domU");
    rs.has_experiment = 1;
    rs.experiment.guest.memory_mib = 1024;
    assert_int_equal(flags_of(&rs, "image", VDC_OUTLIERS_FLAG), VDC_CELL_UNDER_2X_RAM | VDC_CELL_NOT_COMPARABLE);
    /* a 4096 MiB file is at least twice 1024: no flag */
    flag_set(&rs);
    for (i = 0; i < rs.n_runs; i++) {
        rs.runs[i]->meta.file_size_mib = 4096;
        rs.runs[i]->meta.ram_mib = 1024;
    }
    assert_int_equal(flags_of(&rs, "image", VDC_OUTLIERS_FLAG), 0);
}

static void
test_flag_sizes_differ(void **state)
{
    vdc_result_set rs;
    size_t i;

    /* against the baseline's: on putc (the size matters) no verdict */
    flag_set(&rs);
    for (i = 0; i < rs.n_runs; i++)
        if (!strcmp(rs.runs[i]->target, "dom0"))
            rs.runs[i]->meta.file_size_mib = 2048;
    assert_int_equal(flags_of(&rs, "image", VDC_OUTLIERS_FLAG), VDC_CELL_SIZES_DIFFER | VDC_CELL_NOT_COMPARABLE);
    /* among the target's own runs; the baseline is not flagged against
     * itself */
    flag_set(&rs);
    flag_run(&rs, "image", 100, 0, 0);
    rs.runs[rs.n_runs - 1]->meta.file_size_mib = 1024;
    assert_int_equal(flags_of(&rs, "image", VDC_OUTLIERS_FLAG), VDC_CELL_SIZES_DIFFER | VDC_CELL_NOT_COMPARABLE);
    flag_set(&rs);
    for (i = 0; i < rs.n_runs; i++)
        if (!strcmp(rs.runs[i]->target, "image"))
            rs.runs[i]->meta.file_size_mib = 2048;
    assert_int_equal(flags_of(&rs, "dom0", VDC_OUTLIERS_FLAG), 0);
}

static void
test_flag_not_comparable(void **state)
{
    vdc_result_set rs;

    /* the baseline has a too-fast run left out of its mean: image's delta
     * has no verdict; the baseline itself is only too fast */
    flag_set(&rs);
    flag_run(&rs, "dom0", NAN, 1, 0);
    assert_int_equal(flags_of(&rs, "image", VDC_OUTLIERS_FLAG), VDC_CELL_NOT_COMPARABLE);
    flag_set(&rs);
    flag_run(&rs, "dom0", NAN, 1, 0);
    assert_int_equal(flags_of(&rs, "dom0", VDC_OUTLIERS_FLAG), VDC_CELL_TOO_FAST);
}

/* one dd read of @target: @sys s of system time over @ops records */
static void
dd_read(vdc_result_set *rs, const char *target, double sys, int64_t ops)
{
    vdc_sample *s = vdc_run_add_sample(vdc_result_set_add_run(rs, target), "dd_read");

    s->block_size = 512;
    s->value = 3.0;
    s->system_s = sys;
    s->ops = ops;
    s->system_us_per_op = sys * 1e6 / (double)ops;
}

/* The system time per operation is the analysis's: the mean over the
 * samples that record it, their sums, and the difference against the
 * baseline (seed 004: 3.780 s / 257040 on the partition, 12.390 s /
 * 253952 on the LV). */
static void
test_sys_per_op(void **state)
{
    vdc_result_set rs;
    struct vdc_analysis a;
    struct vdc_stats_options o;
    const struct vdc_cell *c;
    const struct vdc_cell_comparison *cc;
    long k;

    vdc_result_set_init(&rs);
    dd_read(&rs, "part", 3.780, 257040);
    dd_read(&rs, "lv", 12.390, 253952);
    dd_read(&rs, "lv2", 12.0, 250000);
    dd_read(&rs, "lv2", 13.0, 250000);
    vdc_run_add_sample(vdc_result_set_add_run(&rs, "lv2"), "dd_read")->block_size = 512;
    rs.runs[rs.n_runs - 1]->samples[0]->value = 3.0;      /* no system time: not counted */
    vdc_stats_options_init(&o);
    vdc_analysis_init(&a);
    assert_int_equal(vdc_analysis_build(&a, &rs, "part", &o), 0);
    k = vdc_analysis_test_index(&a, "dd_read@512");
    assert_true(k >= 0);
    c = vdc_analysis_cell(&a, 0, (size_t)k);
    assert_int_equal(c->n_sys_per_op, 1);
    assert_true(fabs(c->sys_us_per_op - 3.780e6 / 257040) < 1e-9);
    assert_true(fabs(c->sys_s - 3.780) < 1e-12);
    assert_int_equal(c->sys_ops, 257040);
    cc = vdc_analysis_cmp(&a, 1, (size_t)k);
    assert_true(cc->has_sys_per_op);
    assert_true(fabs(cc->sys_us_per_op_delta - (12.390e6 / 253952 - 3.780e6 / 257040)) < 1e-9);
    c = vdc_analysis_cell(&a, 2, (size_t)k);
    assert_int_equal(c->n_samples, 3);
    assert_int_equal(c->n_sys_per_op, 2);
    assert_true(fabs(c->sys_us_per_op - (48.0 + 52.0) / 2) < 1e-9);
    assert_int_equal(c->sys_ops, 500000);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
}

static void
test_chart_svg(void **state)
{
    vdc_result_set rs;
    struct vdc_analysis a;
    struct vdc_stats_options o;
    char *svg;
    int empty = -1;

    build(&rs);
    vdc_analysis_init(&a);
    vdc_stats_options_init(&o);
    assert_int_equal(vdc_analysis_build(&a, &rs, NULL, &o), 0);
    svg = vdc_render_chart_svg(&a, "K/sec", "Throughput", &empty);
    assert_non_null(svg);
    assert_int_equal(empty, 0);
    assert_true(g_str_has_prefix(svg, "<svg"));
    assert_non_null(strstr(svg, "</svg>"));
    g_free(svg);
    /* no test in MiB/s: no chart, and said so */
    assert_null(vdc_render_chart_svg(&a, "MiB/s", "Sweep", &empty));
    assert_int_equal(empty, 1);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
}

/* A dom0 other below 0 (a document written before the busy + steal rule,
 * or one the run marked inconsistent) is no figure, said so, never a
 * negative CPU time; a CPU interval reaching below 0 is cut at 0. */
#define HOST_SAMPLE(other, attr) \
    "{\"test\":\"put_block\",\"unit\":\"K/sec\",\"value\":1000,\"host\":{\"sliced\":true," \
    "\"interval_s\":37,\"bytes\":1073741824,\"cpu_s\":{\"blkback\":12.23,\"dom0_busy\":11.27," \
    "\"dom0_other\":" other "},\"cpu_s_per_gib\":{\"blkback\":12.23,\"dom0_busy\":11.27," \
    "\"dom0_other\":" other "}" attr "}}"
static void
test_host_cost_inconsistent(void **state)
{
    static const char doc[] =
        "{\"format\":\"vmdiskcmp-result\",\"format_version\":1,\"producer\":{\"name\":\"t\",\"version\":\"1\"},"
        "\"targets\":[{\"name\":\"lvm\"}],"
        "\"runs\":["
        "{\"target\":\"lvm\",\"repetition\":0,\"samples\":[" HOST_SAMPLE("-0.96", "") "]},"
        "{\"target\":\"lvm\",\"repetition\":1,\"samples\":[" HOST_SAMPLE("0.5", "") "]},"
        "{\"target\":\"lvm\",\"repetition\":2,\"samples\":[" HOST_SAMPLE("null",
            ",\"cpu_attribution\":{\"dom0_other\":{\"attribution\":\"inconsistent\","
            "\"reason\":\"dom0 busy + steal minus the exact servers: -0.960 s, below 0 by more than the "
            "counters' resolution (0.080 s): the counters disagree, not a measurement\"}}") "]}]}";
    struct vdc_stats_options o;
    struct vdc_analysis a;
    vdc_result_set rs;
    size_t i, found = 0;
    char *txt;

    (void)state;
    vdc_result_set_init(&rs);
    vdc_analysis_init(&a);
    vdc_stats_options_init(&o);
    assert_int_equal(vdc_result_set_load_data(&rs, doc, sizeof(doc) - 1, "t.json"), 0);
    assert_int_equal(vdc_analysis_build(&a, &rs, NULL, &o), 0);
    for (i = 0; i < a.n_host; i++) {
        const struct vdc_host_cost *c = &a.host[i];

        if (!strcmp(c->role, "dom0_other")) {
            found++;
            assert_string_equal(c->attribution, "inconsistent");
            assert_int_equal(c->per_gib.n, 0);
            /* the reason once, its common sentence in the table's note */
            assert_string_equal(c->reason, "below 0 in 2 of 3 runs (dom0 busy + steal minus the exact "
                                           "servers: -0.960 s)");
        }
        if (!strcmp(c->role, "blkback")) {
            assert_int_equal(c->per_gib.n, 3);    /* the servers' own figures stand */
            assert_true(c->per_gib.has_ci_mean && c->per_gib.ci_mean[0] >= 0);
        }
    }
    assert_int_equal(found, 1);
    txt = vdc_render_text(&rs, &a);
    assert_non_null(strstr(txt, "    dom0 other (busy + steal minus servers)  no figure (inconsistent): below 0"));
    assert_null(strstr(txt, "minus servers) -"));    /* never printed as a figure */
    {
        /* the counters' disagreement said once, under the table */
        const char *p = txt;
        size_t n = 0;

        while ((p = strstr(p, "disagree")))
            n++, p++;
        assert_int_equal(n, 1);
        assert_non_null(strstr(txt, "no figure (inconsistent): a difference of counters"));
    }
    g_free(txt);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
}

/* A thin LV's two passes: each x label and dot panel names its pass, the
 * labels of one figure differ, and a label that does not fit goes on two
 * lines split where vdc_svg_fit_plan says. */
#define PASS_RUN(rep, v1, v2) \
    "{\"target\":\"lvm-thin\",\"repetition\":" rep ",\"samples\":[" \
    "{\"test\":\"put_block\",\"unit\":\"K/sec\",\"value\":" v1 ",\"pass\":\"first-write\"}," \
    "{\"test\":\"put_block\",\"unit\":\"K/sec\",\"value\":" v2 ",\"pass\":\"overwrite\"}]}"
static void
test_chart_pass_labels(void **state)
{
    static const char doc[] =
        "{\"format\":\"vmdiskcmp-result\",\"format_version\":1,\"producer\":{\"name\":\"t\",\"version\":\"1\"},"
        "\"targets\":[{\"name\":\"lvm-thin\"}],\"runs\":["
        PASS_RUN("0", "5000", "6000") "," PASS_RUN("1", "5100", "6100") "]}";
    struct vdc_stats_options o;
    struct vdc_analysis a;
    vdc_result_set rs;
    struct vdc_svg_fit fit;
    char buf[VDC_TEST_LABEL_MAX];
    char *svg;
    size_t points = 0;
    int empty = -1;
    long fw, ow;

    (void)state;
    vdc_result_set_init(&rs);
    vdc_analysis_init(&a);
    vdc_stats_options_init(&o);
    assert_int_equal(vdc_result_set_load_data(&rs, doc, sizeof(doc) - 1, "t.json"), 0);
    assert_int_equal(vdc_analysis_build(&a, &rs, NULL, &o), 0);
    fw = vdc_analysis_test_index(&a, "put_block~first-write");
    ow = vdc_analysis_test_index(&a, "put_block~overwrite");
    assert_true(fw >= 0 && ow >= 0);
    assert_string_equal(vdc_chart_test_label(&a, (size_t)fw, buf, sizeof(buf)), "Write block (first write)");
    assert_string_equal(vdc_chart_test_label(&a, (size_t)ow, buf, sizeof(buf)), "Write block (overwrite)");
    svg = vdc_render_chart_svg(&a, "K/sec", "Throughput", &empty);
    assert_non_null(svg);
    assert_non_null(strstr(svg, ">Write block (first write)</text>"));
    assert_non_null(strstr(svg, ">Write block (overwrite)</text>"));
    assert_non_null(strstr(svg, "class=\"xlabel\""));
    assert_non_null(strstr(svg, "class=\"value\""));
    g_free(svg);
    svg = vdc_render_dots_svg(&a, "K/sec", "Runs", &empty, &points);
    assert_non_null(strstr(svg, ">Write block (first write), K/sec<"));
    assert_non_null(strstr(svg, ">Write block (overwrite), K/sec<"));
    assert_int_equal(points, 4);
    g_free(svg);
    /* fits: one line; too wide: two at the space nearest the middle */
    vdc_svg_fit_plan("Rewrite", 11.5, 200, 8.5, 0, &fit);
    assert_int_equal(fit.lines, 1);
    assert_true(fit.size == 11.5);
    vdc_svg_fit_plan("Write block (first write)", 11.5, vdc_svg_measure("(first write)", 11.5, 0) + 1, 8.5, 0, &fit);
    assert_int_equal(fit.lines, 2);
    assert_int_equal(fit.split, strlen("Write block"));
    assert_true(fit.size == 11.5);
    /* ticks in one style along an axis */
    vdc_chart_tick(buf, sizeof(buf), 5000, 15000);
    assert_string_equal(buf, "5k");
    vdc_chart_tick(buf, sizeof(buf), 500000, 2e6);
    assert_string_equal(buf, "0.5M");
    vdc_chart_tick(buf, sizeof(buf), 1, 2e6);
    assert_string_equal(buf, "1");
    vdc_chart_decade(buf, sizeof(buf), 5);
    assert_string_equal(buf, "100k");
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_analysis_counts),
        cmocka_unit_test(test_analysis_drop),
        cmocka_unit_test(test_all_too_fast),
        cmocka_unit_test(test_size_warnings),
        cmocka_unit_test(test_few_runs_warning),
        cmocka_unit_test(test_analysis_errors),
        cmocka_unit_test(test_bonnie_csv_fields),
        cmocka_unit_test(test_compare_formats),
        cmocka_unit_test(test_host_cost_inconsistent),
        cmocka_unit_test(test_chart_svg),
        cmocka_unit_test(test_chart_pass_labels),
        cmocka_unit_test(test_sys_per_op),
        cmocka_unit_test(test_cell_flags_and_warnings),
        cmocka_unit_test(test_flag_none_and_names),
        cmocka_unit_test(test_flag_too_fast),
        cmocka_unit_test(test_flag_failed),
        cmocka_unit_test(test_flag_few_runs),
        cmocka_unit_test(test_flag_outliers_flagged),
        cmocka_unit_test(test_flag_outliers_dropped),
        cmocka_unit_test(test_flag_under_2x_ram),
        cmocka_unit_test(test_flag_sizes_differ),
        cmocka_unit_test(test_flag_not_comparable),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
