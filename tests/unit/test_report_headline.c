/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the headline (src/report/headline.c, render_headline.c),
 * the dot plots (render_html.c) and experiment.runs_policy in the result
 * model: which pairs are held
 * against each other (image variants x LV/block variants, every target
 * against dom0 as its ceiling, the baseline fallback and why), the paired
 * statistics by repetition with dropped pairs counted, Holm across the
 * tests of one pair, the effect classes, cells without a verdict (too
 * fast, under 2x RAM, different file sizes) kept out of Holm's family,
 * the stop reasons matched to their rows, and the terminal lines.  Data
 * are made here, with a drift per repetition that the pairs share. */
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
#include "report/headline.h"
#include "report/ranking.h"
#include "report/render.h"
#include "report/render_chart.h"
#include "report/render_json.h"
#include "stats/paired.h"
#include "test_stderr.h"

#define N_REPS 6

/* per repetition: a drift both targets of a pair share (the boot, the
 * host's load), and a small own noise of the image */
static const double drift[N_REPS] = { 1.00, 1.12, 0.91, 1.05, 0.97, 1.08 };
static const double own[N_REPS] = { 0.004, -0.003, 0.002, -0.004, 0.001, -0.002 };
/* dom0's own noise */
static const double own0[N_REPS] = { -0.002, 0.003, 0.001, -0.001, 0.002, -0.003 };
/* seeks: noise large enough that nothing is decided */
static const double wide[N_REPS] = { 0.06, -0.05, 0.02, -0.07, 0.08, -0.03 };
/* rewrite: +1.5 % on average, raw p about 0.04: significant alone, not
 * after Holm across five tests */
static const double rw[N_REPS] = { 0.030, 0.010, 0.020, -0.005, 0.025, 0.010 };

static void
add_target(vdc_result_set *rs, const char *name, const char *kind)
{
    vdc_set_str(&vdc_result_set_add_target(rs, name)->kind, kind);
}

static vdc_sample *
sample(vdc_run *r, const char *test, double value)
{
    vdc_sample *s = vdc_run_add_sample(r, test);

    s->value = value;
    return s;
}

/* One repetition of @target: each test at lvm's level times @scale (the
 * image's own ratios for putc, put_block, get_block, seeks, rewrite when
 * @image), 512 MiB test file. */
static vdc_run *
add_rep(vdc_result_set *rs, const char *target, int rep, double scale, int image)
{
    vdc_run *r = vdc_result_set_add_run(rs, target);
    double d = drift[rep] * scale * (scale > 1.2 ? 1 + own0[rep] : 1);

    r->meta.file_size_mib = 512;
    sample(r, "putc", 1000 * d * (image ? 1.10 * (1 + own[rep]) : 1));
    sample(r, "put_block", 50000 * d * (image ? 1.30 * (1 + own[rep]) : 1));
    sample(r, "rewrite", 20000 * d * (image ? 1 + rw[rep] : 1));
    sample(r, "get_block", 80000 * d * (image ? 1.01 * (1 + own[rep] / 4) : 1));
    sample(r, "seeks", 900 * d * (image ? 1 + wide[rep] : 1));
    sample(r, "seq_create", 5000 * d * (image ? 0.95 : 1));
    return r;
}

/* image (kind image) against lvm (kind lvm), and dom0 1.25 x lvm (with
 * a noise of its own);
 * lvm's seq_create is too fast in repetition 1, the image's get_block
 * failed in repetition 2. */
static void
build(vdc_result_set *rs, int with_dom0)
{
    int rep;

    vdc_result_set_init(rs);
    rs->has_experiment = 1;   /* vmdiskcmp's own run: its repetitions are pairs */
    add_target(rs, "image", "image");
    add_target(rs, "lvm", "lvm");
    if (with_dom0)
        add_target(rs, "dom0", "dom0");
    for (rep = 0; rep < N_REPS; rep++) {
        vdc_run *r = add_rep(rs, "image", rep, 1, 1);

        if (rep == 2) {
            r->samples[3]->value = NAN;
            r->samples[3]->failed = 1;
            vdc_set_str(&r->status, "failed");
        }
        r = add_rep(rs, "lvm", rep, 1, 0);
        if (rep == 1) {
            r->samples[5]->value = NAN;
            r->samples[5]->too_fast = 1;
        }
        if (with_dom0)
            add_rep(rs, "dom0", rep, 1.25, 0);
    }
}

/* @s contains @sub (the whole text in the message when not) */
#define assert_contains(s, sub) do { const char *s_ = (s), *sub_ = (sub); \
        if (!strstr(s_, sub_)) fail_msg("\"%s\" not in:\n%s", sub_, s_); } while (0)
#define assert_prefix(s, sub) do { const char *s_ = (s), *sub_ = (sub); \
        if (!g_str_has_prefix(s_, sub_)) fail_msg("\"%s\" does not start:\n%s", sub_, s_); } while (0)

static const struct vdc_headline_row *
row_for(const struct vdc_analysis *a, const struct vdc_headline_pair *p, const char *test)
{
    size_t i;

    for (i = 0; i < p->n_rows; i++)
        if (!strcmp(a->tests[p->rows[i].test], test))
            return &p->rows[i];
    fail_msg("no headline row for %s", test);
    return NULL;
}

static const struct vdc_headline_pair *
pair_for(const struct vdc_analysis *a, const char *t, const char *r)
{
    size_t i;

    for (i = 0; i < a->headline.n_pairs; i++)
        if (!strcmp(a->targets[a->headline.pairs[i].target], t) &&
            !strcmp(a->targets[a->headline.pairs[i].reference], r))
            return &a->headline.pairs[i];
    return NULL;
}

static void
analyse(struct vdc_analysis *a, const vdc_result_set *rs, const char *baseline)
{
    struct vdc_stats_options o;

    vdc_analysis_init(a);
    vdc_stats_options_init(&o);
    assert_int_equal(vdc_analysis_build(a, rs, baseline, &o), 0);
}

/* Which pairs: each image variant against each LV/block variant, every
 * other target against dom0 as its ceiling; --baseline changes nothing. */
static void
test_pairs(void **state)
{
    vdc_result_set rs;
    struct vdc_analysis a;
    int rep;

    (void)state;
    build(&rs, 1);
    add_target(&rs, "image-qdisk", "image");
    add_target(&rs, "block", "block");
    for (rep = 0; rep < N_REPS; rep++) {
        add_rep(&rs, "image-qdisk", rep, 0.5, 1);
        add_rep(&rs, "block", rep, 1.1, 0);
    }
    analyse(&a, &rs, "lvm");
    assert_int_equal(a.headline.absent, VDC_HEADLINE_PRESENT);
    /* 2 images x 2 LV/block, then 4 ceilings */
    assert_int_equal(a.headline.n_pairs, 8);
    assert_int_equal(pair_for(&a, "image", "lvm")->role, VDC_HEADLINE_CHOICE);
    assert_int_equal(pair_for(&a, "image", "block")->role, VDC_HEADLINE_CHOICE);
    assert_int_equal(pair_for(&a, "image-qdisk", "lvm")->role, VDC_HEADLINE_CHOICE);
    assert_int_equal(pair_for(&a, "image-qdisk", "block")->role, VDC_HEADLINE_CHOICE);
    assert_int_equal(a.headline.pairs[0].role, VDC_HEADLINE_CHOICE);
    assert_int_equal(a.headline.pairs[3].role, VDC_HEADLINE_CHOICE);
    assert_int_equal(pair_for(&a, "image", "dom0")->role, VDC_HEADLINE_CEILING);
    assert_int_equal(pair_for(&a, "lvm", "dom0")->role, VDC_HEADLINE_CEILING);
    assert_int_equal(pair_for(&a, "block", "dom0")->role, VDC_HEADLINE_CEILING);
    assert_int_equal(pair_for(&a, "image-qdisk", "dom0")->role, VDC_HEADLINE_CEILING);
    /* never the other way round, never LV against LV, never against the
     * --baseline as such */
    assert_null(pair_for(&a, "lvm", "image"));
    assert_null(pair_for(&a, "block", "lvm"));
    assert_null(pair_for(&a, "image", "image-qdisk"));
    assert_null(pair_for(&a, "dom0", "lvm"));
    /* the delta tables still use --baseline */
    assert_string_equal(a.baseline, "lvm");
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
}

/* Pairs by repetition, dropped pairs counted; classes; Holm; the
 * too-fast cell kept out of the verdicts and of Holm's family. */
static void
test_paired_holm_classes(void **state)
{
    vdc_result_set rs;
    struct vdc_analysis a;
    const struct vdc_headline_pair *p;
    const struct vdc_headline_row *row;
    double raw[16], adj[16];
    size_t i, m = 0;
    char *s;

    (void)state;
    build(&rs, 0);
    analyse(&a, &rs, NULL);
    p = pair_for(&a, "image", "lvm");
    assert_non_null(p);
    assert_int_equal(p->n_rows, 6);
    assert_int_equal(p->n_pairs_max, N_REPS);

    /* +10 %, the drift shared: significant, moderate; the image faster */
    row = row_for(&a, p, "putc");
    assert_int_equal(row->p.n, N_REPS);
    assert_int_equal(row->n_dropped, 0);
    assert_true(fabs(row->p.delta_percent - 10.0) < 0.2);
    assert_true(row->significant);
    assert_int_equal(row->verdict, VDC_VERDICT_FASTER);
    assert_int_equal(row->effect, VDC_EFFECT_MODERATE);
    s = vdc_headline_row_text(&a, p, row, 1);
    assert_contains(s, "image is 9.9 % faster than lvm [");
    assert_contains(s, "permutation p = 0.0312, moderate");
    g_free(s);
    /* +30 %: large */
    row = row_for(&a, p, "put_block");
    assert_int_equal(row->verdict, VDC_VERDICT_FASTER);
    assert_int_equal(row->effect, VDC_EFFECT_LARGE);
    /* +1 %, significant but under 5 %: negligible; the failed run's pair
     * is dropped and counted */
    row = row_for(&a, p, "get_block");
    assert_int_equal(row->p.n, N_REPS - 1);
    assert_int_equal(row->n_reps, N_REPS);
    assert_int_equal(row->n_dropped, 1);
    assert_true(row->significant);
    assert_int_equal(row->effect, VDC_EFFECT_NEGLIGIBLE);
    s = vdc_headline_row_text(&a, p, row, 1);
    assert_contains(s, "; 5 pairs, 1 dropped (no value on a side)");
    g_free(s);
    /* noisy: not significant, the interval reaches past 5 %: undecided */
    row = row_for(&a, p, "seeks");
    assert_int_equal(row->verdict, VDC_VERDICT_NO_DIFFERENCE);
    assert_int_equal(row->effect, VDC_EFFECT_UNDECIDED);
    /* Holm: rewrite is significant alone, not among five tests */
    row = row_for(&a, p, "rewrite");
    assert_true(row->p.has_test);
    assert_true(row->p.p_value < 0.05);
    assert_true(row->p_holm >= 0.05);
    assert_false(row->significant);
    assert_int_equal(row->verdict, VDC_VERDICT_NO_DIFFERENCE);
    /* ... and its whole interval is inside +-5 %: equal within 5 % */
    assert_int_equal(row->effect, VDC_EFFECT_NEGLIGIBLE);
    /* seq_create has a too-fast lvm run: no verdict, the reason named,
     * and not in Holm's family */
    row = row_for(&a, p, "seq_create");
    assert_int_equal(row->verdict, VDC_VERDICT_NOT_COMPARABLE);
    assert_int_equal(row->effect, VDC_EFFECT_NOT_TESTED);
    assert_true(isnan(row->p_holm));
    assert_false(row->significant);
    assert_int_equal(row->bar_reference, VDC_CELL_TOO_FAST);
    assert_int_equal(row->bar_target, 0);
    s = vdc_headline_reason(&a, p, row);
    assert_string_equal(s, "too-fast on lvm");
    g_free(s);
    s = vdc_headline_row_text(&a, p, row, 1);
    assert_prefix(s, "image relative to lvm: not comparable (too-fast on lvm): -5.0 %");
    assert_null(strstr(s, "p ="));
    g_free(s);
    assert_int_equal(p->n_family, 5);
    /* p_holm is Holm's adjustment of the raw p of the family, and never
     * below the raw p */
    for (i = 0; i < p->n_rows; i++)
        raw[i] = p->rows[i].verdict == VDC_VERDICT_NOT_COMPARABLE ? NAN : p->rows[i].p.p_value;
    vdc_stats_holm(raw, p->n_rows, adj);
    for (i = 0; i < p->n_rows; i++) {
        if (isnan(raw[i])) {
            assert_true(isnan(p->rows[i].p_holm));
            continue;
        }
        m++;
        assert_true(fabs(adj[i] - p->rows[i].p_holm) < 1e-15);
        assert_true(p->rows[i].p_holm >= p->rows[i].p.p_value);
    }
    assert_int_equal(m, 5);
    /* no dom0: no ceiling; one pair */
    assert_int_equal(a.headline.n_pairs, 1);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
}

/* dom0 is the ceiling of each target, from the same paired statistics,
 * not the reference of the image/LV verdicts. */
static void
test_ceiling(void **state)
{
    vdc_result_set rs;
    struct vdc_analysis a;
    const struct vdc_headline_pair *p;
    const struct vdc_headline_row *row;
    char *s, **lines;

    (void)state;
    build(&rs, 1);
    analyse(&a, &rs, NULL);
    assert_string_equal(a.baseline, "dom0");   /* the delta tables' default */
    assert_int_equal(a.headline.n_pairs, 3);
    assert_int_equal(a.headline.pairs[0].role, VDC_HEADLINE_CHOICE);
    assert_string_equal(a.targets[a.headline.pairs[0].reference], "lvm");
    p = pair_for(&a, "lvm", "dom0");
    row = row_for(&a, p, "putc");
    assert_true(fabs(row->p.ratio - 0.8) < 0.001);
    s = vdc_headline_row_text(&a, p, row, 1);
    assert_prefix(s, "lvm reaches 80.0 % [79.8 %, 80.2 %] of dom0, p < 0.001 (Holm, 5 tests), permutation p = 0.0312");
    g_free(s);
    p = pair_for(&a, "image", "dom0");
    row = row_for(&a, p, "putc");
    assert_true(fabs(row->p.ratio - 0.88) < 0.001);
    /* the terminal lines: the image/LV pair, then each ceiling */
    lines = vdc_analysis_headline_lines(&a);
    assert_int_equal(g_strv_length(lines), 3);
    assert_prefix(lines[0], "image relative to lvm: 6 pairs (fixed 6 runs), 6 tests: image faster in 2 "
                                           "(1 large, 1 moderate), negligible in 2, undecided in 1, "
                                           "not comparable in 1 (paired t-test, Holm)");
    assert_prefix(lines[1], "image reaches ");
    assert_contains(lines[1], "of bare dom0 over ");
    assert_prefix(lines[2], "lvm reaches 80.0 % (");
    g_strfreev(lines);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
}

/* Under twice the RAM on either side, an artefact flag, or test file sizes
 * that differ (sequential and seek tests only): no verdict, reason given. */
static void
test_no_verdict_flags(void **state)
{
    vdc_result_set rs;
    struct vdc_analysis a;
    const struct vdc_headline_pair *p;
    const struct vdc_headline_row *row;
    size_t i;
    char *s;

    (void)state;
    build(&rs, 0);
    for (i = 0; i < rs.n_runs; i++)
        if (!strcmp(rs.runs[i]->target, "lvm"))
            rs.runs[i]->meta.file_size_mib = 1024;
    analyse(&a, &rs, NULL);
    p = pair_for(&a, "image", "lvm");
    row = row_for(&a, p, "putc");
    assert_int_equal(row->verdict, VDC_VERDICT_NOT_COMPARABLE);
    assert_true(row->sizes_differ);
    s = vdc_headline_reason(&a, p, row);
    assert_string_equal(s, "test file sizes differ (image 512 MiB, lvm 1024 MiB)");
    g_free(s);
    /* the file-creation tests do not depend on the file size */
    assert_false(row_for(&a, p, "seq_create")->sizes_differ);
    vdc_analysis_dispose(&a);

    for (i = 0; i < rs.n_runs; i++) {
        rs.runs[i]->meta.file_size_mib = 512;
        rs.runs[i]->meta.ram_mib = 512;   /* 512 MiB file < 2 x 512 MiB */
    }
    analyse(&a, &rs, NULL);
    p = pair_for(&a, "image", "lvm");
    for (i = 0; i < p->n_rows; i++)
        assert_int_equal(p->rows[i].verdict, VDC_VERDICT_NOT_COMPARABLE);
    assert_int_equal(p->n_family, 0);
    s = vdc_headline_reason(&a, p, row_for(&a, p, "putc"));
    assert_string_equal(s, "under-2x-ram on image and lvm");
    g_free(s);
    s = vdc_headline_reason(&a, p, row_for(&a, p, "seq_create"));
    assert_string_equal(s, "too-fast on lvm; under-2x-ram on image and lvm");
    g_free(s);
    vdc_analysis_dispose(&a);

    /* an artefact flag of either cell: the same value in every run of the
     * image's seeks (a zero-width CI from rounding) */
    for (i = 0; i < rs.n_runs; i++) {
        rs.runs[i]->meta.ram_mib = VDC_INT_ABSENT;
        if (!strcmp(rs.runs[i]->target, "image"))
            rs.runs[i]->samples[4]->value = 900;
    }
    analyse(&a, &rs, NULL);
    p = pair_for(&a, "image", "lvm");
    row = row_for(&a, p, "seeks");
    assert_int_equal(row->verdict, VDC_VERDICT_NOT_COMPARABLE);
    assert_int_equal(row->bar_target, VDC_CELL_ROUNDED_IDENTICAL);
    s = vdc_headline_reason(&a, p, row);
    assert_string_equal(s, "rounded-identical on image");
    g_free(s);
    assert_int_equal(row_for(&a, p, "putc")->verdict, VDC_VERDICT_FASTER);
    assert_int_equal(p->n_family, 4);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
}

/* No image/LV pair: one target; no kinds (the baseline fallback); no LV
 * (dom0 ceilings only). */
static void
test_absent(void **state)
{
    vdc_result_set rs;
    struct vdc_analysis a;
    char *s, **lines;
    int rep;

    (void)state;
    vdc_result_set_init(&rs);
    for (rep = 0; rep < 3; rep++)
        add_rep(&rs, "only", rep, 1, 0);
    analyse(&a, &rs, NULL);
    assert_int_equal(a.headline.absent, VDC_HEADLINE_ONE_TARGET);
    assert_int_equal(a.headline.n_pairs, 0);
    s = vdc_headline_absent_text(&a);
    assert_string_equal(s, "No image/LV pair: one target (only), nothing to compare.");
    g_free(s);
    lines = vdc_analysis_headline_lines(&a);
    assert_int_equal(g_strv_length(lines), 1);
    g_strfreev(lines);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);

    /* imported results: their runs are not known to be pairs.  With kinds
     * the image/LV pair is kept, not paired: Welch's test on each side's
     * values, said in every sentence */
    vdc_result_set_init(&rs);
    add_target(&rs, "hda3", "imported");
    add_target(&rs, "lv-1", "imported");
    add_target(&rs, "md0", "imported");
    for (rep = 0; rep < 3; rep++) {
        add_rep(&rs, "hda3", rep, 1, 0);
        add_rep(&rs, "lv-1", rep, 1, 1);
        add_rep(&rs, "md0", rep, 2, 0);
    }
    vdc_set_str(&rs.targets[1]->kind, "lvm");
    vdc_set_str(&rs.targets[2]->kind, "image");
    analyse(&a, &rs, "lv-1");
    assert_int_equal(a.headline.absent, VDC_HEADLINE_PRESENT);
    assert_true(a.headline.unpaired);
    assert_int_equal(a.headline.n_pairs, 1);
    {
        const struct vdc_headline_pair *hp = pair_for(&a, "md0", "lv-1");
        size_t ki = (size_t)vdc_analysis_test_index(&a, "put_block");
        const struct vdc_headline_row *row = NULL;
        struct vdc_stats_comparison w;
        double tv[3], bv[3];
        size_t i;

        assert_non_null(hp);
        for (i = 0; i < hp->n_rows; i++)
            if (hp->rows[i].test == ki)
                row = &hp->rows[i];
        assert_non_null(row);
        for (i = 0; i < 3; i++) {
            tv[i] = vdc_analysis_cell(&a, 2, ki)->samples[i].value;
            bv[i] = vdc_analysis_cell(&a, 1, ki)->samples[i].value;
        }
        /* the row is Welch's comparison of the two sides' values */
        vdc_stats_compare(tv, 3, bv, 3, a.alpha, &w);
        assert_true(row->p.has_test && w.has_test);
        assert_true(fabs(row->p.p_value - w.p_value) < 1e-12);
        assert_true(fabs(row->p.delta_percent - w.delta_percent) < 1e-9);
        assert_int_equal(row->p.n, 3);
        assert_true(isnan(row->p.p_perm));
        s = vdc_headline_row_text(&a, hp, row, 1);
        assert_contains(s, "Welch, not paired");
        assert_null(strstr(s, "permutation p"));
        g_free(s);
        s = vdc_headline_pair_title(&a, hp);
        assert_string_equal(s, "md0 relative to lv-1 (not paired: 3 runs on the smaller side, Welch)");
        g_free(s);
    }
    lines = vdc_analysis_headline_lines(&a);
    assert_contains(lines[0], "md0 relative to lv-1: 3 runs on the smaller side, not paired, ");
    assert_contains(lines[0], "(Welch's t-test, not paired, Holm)");
    g_strfreev(lines);
    vdc_analysis_dispose(&a);
    /* without kinds: no pair at all, the Welch comparisons named instead */
    vdc_set_str(&rs.targets[1]->kind, "imported");
    vdc_set_str(&rs.targets[2]->kind, "imported");
    analyse(&a, &rs, "lv-1");
    assert_int_equal(a.headline.absent, VDC_HEADLINE_UNPAIRED);
    assert_int_equal(a.headline.n_pairs, 0);
    s = vdc_headline_absent_text(&a);
    assert_contains(s, "No paired comparison: these runs were not made by vmdiskcmp");
    assert_contains(s, "the comparisons against the baseline lv-1 below (Welch's test, unpaired) are all "
                       "there is.");
    g_free(s);
    assert_string_equal(vdc_headline_absent_key(a.headline.absent), "unpaired");
    /* no experiment: the run policy is unknown, nothing said */
    assert_int_equal(a.headline.runs_mode, VDC_RUNS_UNKNOWN);
    assert_null(vdc_headline_runs_text(&a.headline));
    vdc_analysis_dispose(&a);

    /* vmdiskcmp's own run (an experiment) without kinds: each target
     * against the baseline, paired */
    rs.has_experiment = 1;
    vdc_set_str(&rs.targets[1]->kind, "imported");
    vdc_set_str(&rs.targets[2]->kind, "imported");
    analyse(&a, &rs, "lv-1");
    assert_int_equal(a.headline.absent, VDC_HEADLINE_NO_KINDS);
    assert_int_equal(a.headline.n_pairs, 2);
    assert_int_equal(a.headline.pairs[0].role, VDC_HEADLINE_BASELINE);
    assert_non_null(pair_for(&a, "hda3", "lv-1"));
    assert_non_null(pair_for(&a, "md0", "lv-1"));
    s = vdc_headline_absent_text(&a);
    assert_contains(s, "each target relative to the baseline lv-1 instead.");
    g_free(s);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);

    /* an image and dom0, no LV: the ceiling only */
    vdc_result_set_init(&rs);
    rs.has_experiment = 1;
    add_target(&rs, "image", "image");
    add_target(&rs, "dom0", "dom0");
    for (rep = 0; rep < 3; rep++) {
        add_rep(&rs, "image", rep, 1, 1);
        add_rep(&rs, "dom0", rep, 1, 0);
    }
    analyse(&a, &rs, NULL);
    assert_int_equal(a.headline.absent, VDC_HEADLINE_NO_LV);
    assert_int_equal(a.headline.n_pairs, 1);
    assert_int_equal(a.headline.pairs[0].role, VDC_HEADLINE_CEILING);
    s = vdc_headline_absent_text(&a);
    assert_string_equal(s, "No image/LV pair: this run has no LV or block target; each target relative "
                           "to bare dom0 (its ceiling) only.");
    g_free(s);
    s = vdc_headline_perm_note(&a.headline.pairs[0]);
    assert_contains(s, "With 3 pairs the permutation test's smallest p is 0.25");
    g_free(s);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
}

/* experiment.runs_policy: fixed and auto, stop records matched to their
 * rows (exact pair first, then an open one), written and read back. */
static void
test_runs_policy(void **state)
{
    vdc_result_set rs, back;
    struct vdc_analysis a;
    const struct vdc_headline_pair *p;
    vdc_stop_record *st;
    char *s, *doc, *doc2;
    size_t len;

    (void)state;
    build(&rs, 0);
    rs.experiment.runs_per_target = N_REPS;
    analyse(&a, &rs, NULL);
    /* a document without runs_policy ran a fixed --runs N */
    assert_int_equal(a.headline.runs_mode, VDC_RUNS_FIXED);
    s = vdc_headline_runs_text(&a.headline);
    assert_string_equal(s, "fixed 6 runs (no stopping rule)");
    g_free(s);
    vdc_analysis_dispose(&a);

    vdc_set_str(&rs.experiment.runs_policy.mode, "auto");
    rs.experiment.runs_policy.min_runs = 3;
    rs.experiment.runs_policy.max_runs = 40;
    rs.experiment.runs_policy.precision_percent = 3;
    st = vdc_runs_policy_add_stop(&rs.experiment.runs_policy, "putc");
    vdc_set_str(&st->reason, vdc_stop_reason_name(VDC_STOP_MAX_RUNS));
    st = vdc_runs_policy_add_stop(&rs.experiment.runs_policy, "putc");
    vdc_set_str(&st->target, "image");
    vdc_set_str(&st->reference, "lvm");
    vdc_set_str(&st->reason, vdc_stop_reason_name(VDC_STOP_PRECISION));
    st->runs = 6;
    st->half_width_percent = 0.8;
    st = vdc_runs_policy_add_stop(&rs.experiment.runs_policy, "seeks");
    vdc_set_str(&st->reason, vdc_stop_reason_name(VDC_STOP_MAX_RUNS));
    st = vdc_runs_policy_add_stop(&rs.experiment.runs_policy, "get_block");
    vdc_set_str(&st->target, "other");
    vdc_set_str(&st->reason, "not measurable");

    /* written and read back unchanged */
    doc = vdc_result_set_to_string(&rs, &len);
    assert_contains(doc, "\"runs_policy\": {\n      \"mode\": \"auto\",\n      \"min_runs\": 3,");
    vdc_result_set_init(&back);
    assert_int_equal(vdc_result_set_load_data(&back, doc, len, "r.json"), 0);
    assert_int_equal(back.experiment.runs_policy.n_stop, 4);
    assert_string_equal(back.experiment.runs_policy.stop[1].reference, "lvm");
    assert_int_equal(back.experiment.runs_policy.stop[1].runs, 6);
    doc2 = vdc_result_set_to_string(&back, NULL);
    assert_string_equal(doc, doc2);
    g_free(doc2);
    /* a merge copies the records */
    {
        vdc_result_set m;

        vdc_result_set_init(&m);
        vdc_result_set_merge(&m, &back);
        doc2 = vdc_result_set_to_string(&m, NULL);
        assert_contains(doc2, "\"half_width_percent\": 0.8");
        g_free(doc2);
        vdc_result_set_dispose(&m);
    }

    analyse(&a, &back, NULL);
    assert_int_equal(a.headline.runs_mode, VDC_RUNS_AUTO);
    s = vdc_headline_runs_text(&a.headline);
    assert_string_equal(s, "6 runs (--runs auto stopped when the 95 % interval of every headline ratio "
                           "was within the precision; at least 3; at most 40).  The precision it runs for: "
                           "every headline ratio's 95 % interval within +-3 % (--precision), a target for "
                           "the runs; the +-5 % band below which a difference is negligible is another "
                           "thing, a class of the answer");
    g_free(s);
    p = pair_for(&a, "image", "lvm");
    /* the record naming the pair wins over the open one */
    s = vdc_headline_stop_text(row_for(&a, p, "putc"));
    assert_string_equal(s, "precision reached (half-width 0.8 % at 6 runs)");
    g_free(s);
    s = vdc_headline_stop_text(row_for(&a, p, "seeks"));
    assert_string_equal(s, "max runs");
    g_free(s);
    /* a record for another pair does not match */
    assert_null(row_for(&a, p, "get_block")->stop);
    assert_int_equal(a.headline.n_stop, 2);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&back);
    g_free(doc);
    vdc_result_set_dispose(&rs);
}

/* Bad stop records: one message naming the member, the load refused. */
static void
test_runs_policy_bad(void **state)
{
    static const char *const bad[][2] = {
        { "{\"reason\": \"max runs\"}", "experiment.runs_policy.stop[0].test: missing" },
        { "{\"test\": \"putc\", \"reason\": \"max\\nruns\"}",
          "experiment.runs_policy.stop[0].reason: expected a one-line string" },
        { "{\"test\": \"putc\", \"reason\": 3}", "experiment.runs_policy.stop[0].reason: expected a string" },
        { "{\"test\": \"putc\", \"reason\": \"max runs\", \"runs\": -1}",
          "experiment.runs_policy.stop[0].runs: expected an integer >= 0" },
    };
    size_t i;

    (void)state;
    for (i = 0; i < G_N_ELEMENTS(bad); i++) {
        vdc_result_set rs;
        char *doc = g_strdup_printf("{\"format\": \"vmdiskcmp-result\", \"format_version\": 1, "
                                    "\"producer\": {\"name\": \"vmdiskcmp\", \"version\": \"0.1.0\"}, "
                                    "\"experiment\": {\"runs_policy\": {\"mode\": \"auto\", \"stop\": [%s]}}, "
                                    "\"runs\": []}", bad[i][0]);
        char *err;
        int rc;

        vdc_result_set_init(&rs);
        capture_stderr_begin();
        rc = vdc_result_set_load_data(&rs, doc, strlen(doc), "r.json");
        err = capture_stderr_end();
        assert_int_equal(rc, -1);
        if (!strstr(err, bad[i][1]))
            fail_msg("case %zu: %s (want %s)", i, err, bad[i][1]);
        free(err);
        g_free(doc);
        vdc_result_set_dispose(&rs);
    }
    /* "stop" not an array */
    {
        vdc_result_set rs;
        const char *doc = "{\"format\": \"vmdiskcmp-result\", \"format_version\": 1, "
                          "\"producer\": {\"name\": \"vmdiskcmp\", \"version\": \"0.1.0\"}, "
                          "\"experiment\": {\"runs_policy\": {\"stop\": {}}}, \"runs\": []}";
        char *err;

        vdc_result_set_init(&rs);
        capture_stderr_begin();
        assert_int_equal(vdc_result_set_load_data(&rs, doc, strlen(doc), "r.json"), -1);
        err = capture_stderr_end();
        assert_contains(err, "experiment.runs_policy.stop: expected an array");
        free(err);
        vdc_result_set_dispose(&rs);
    }
}

/* The renderers open with the headline; JSON and CSV carry the numbers. */
static void
test_renderers(void **state)
{
    vdc_result_set rs;
    struct vdc_analysis a;
    char *s;
    JsonNode *n;
    JsonObject *o, *t0;
    JsonArray *pairs;

    (void)state;
    build(&rs, 1);
    analyse(&a, &rs, NULL);
    s = vdc_render_text(&rs, &a);
    assert_contains(s, "\n\nHeadline: image or LV?\n  Runs: fixed 6 runs (no stopping rule).\n"
                       "  image relative to lvm (6 pairs):\n"
                              "    Sequential output, per-char: image is 9.9 % faster than lvm [");
    assert_true(strstr(s, "Headline:") < strstr(s, "Version vmdiskcmp"));
    assert_contains(s, "  Ceiling: the share of bare dom0 each target reaches");
    g_free(s);
    s = vdc_render_markdown(&rs, &a);
    assert_contains(s, "## Headline: image or LV?\n\nRuns: fixed 6 runs (no stopping rule).\n\n"
                       "**image relative to lvm (6 pairs)**\n\n| test | answer |\n");
    assert_true(strstr(s, "## Headline") < strstr(s, "## Results"));
    g_free(s);
    s = vdc_render_html(&rs, &a, NULL);
    assert_contains(s, "<section id=\"headline\">");
    assert_true(strstr(s, "id=\"headline\"") < strstr(s, "id=\"chart-throughput\""));
    g_free(s);
    s = vdc_render_headline_csv(&a);
    assert_prefix(s, "role,target,reference,test,unit,n_pairs,n_dropped,ratio,");
    assert_contains(s, "\nchoice,image,lvm,get_block,K/sec,5,1,");
    assert_contains(s, ",false,not comparable,not tested,too-fast on lvm,\n");
    assert_contains(s, "\nceiling,lvm,dom0,putc,K/sec,6,0,");
    g_free(s);
    n = vdc_headline_to_json(&a);
    o = json_node_get_object(n);
    assert_true(json_object_get_null_member(o, "absent"));
    pairs = json_object_get_array_member(o, "pairs");
    assert_int_equal(json_array_get_length(pairs), 3);
    assert_string_equal(json_object_get_string_member(json_array_get_object_element(pairs, 0), "role"),
                        "choice");
    t0 = json_array_get_object_element(json_object_get_array_member(json_array_get_object_element(pairs, 0),
                                                                    "tests"), 0);
    assert_string_equal(json_object_get_string_member(t0, "test"), "putc");
    assert_string_equal(json_object_get_string_member(t0, "verdict"), "faster");
    assert_string_equal(json_object_get_string_member(t0, "class"), "moderate");
    assert_true(json_object_get_boolean_member(t0, "permutation_exact"));
    assert_true(fabs(json_object_get_double_member(t0, "p_permutation") - 0.03125) < 1e-12);
    json_node_unref(n);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
}

/* The dot plots: a marker per run of every target and test of the unit
 * (a dot, a too-fast triangle, a failed cross), each a path of its own. */
static void
test_dots_svg(void **state)
{
    vdc_result_set rs;
    struct vdc_analysis a;
    size_t points = 0, paths = 0;
    const char *p;
    char *svg;
    int empty = 0;

    (void)state;
    build(&rs, 0);
    analyse(&a, &rs, NULL);
    /* putc, put_block, rewrite, get_block x 2 targets x 6 runs (the failed
     * get_block a cross) */
    svg = vdc_render_dots_svg(&a, "K/sec", "Throughput", &empty, &points);
    assert_non_null(svg);
    assert_false(empty);
    assert_int_equal(points, 4 * 2 * N_REPS);
    assert_prefix(svg, "<svg");
    for (p = svg; (p = strstr(p, "<path")); p++)
        paths++;
    assert_true(paths >= points);
    g_free(svg);
    /* seeks, seq_create (one too fast) */
    svg = vdc_render_dots_svg(&a, "/sec", "Ops", &empty, &points);
    assert_int_equal(points, 2 * 2 * N_REPS);
    g_free(svg);
    assert_null(vdc_render_dots_svg(&a, "MiB/s", "Sweep", &empty, &points));
    assert_true(empty);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
}

/* A result of many targets, vmdiskcmp's own: @n_image images, @n_lv LVs and
 * @n_dom0 dom0 targets (one: named dom0), 3 repetitions of put_block and get_block each, a
 * drift per repetition and a spread of 0.02 % between targets. */
static void
build_many(vdc_result_set *rs, size_t n_image, size_t n_lv, size_t n_dom0)
{
    size_t i, n = n_image + n_lv + n_dom0;
    int rep;

    vdc_result_set_init(rs);
    rs->has_experiment = 1;
    for (i = 0; i < n; i++) {
        char name[32];

        if (i >= n_image + n_lv && n_dom0 == 1)
            snprintf(name, sizeof(name), "dom0");    /* the default baseline */
        else
            snprintf(name, sizeof(name), "%s%04zu", i < n_image ? "img" : i < n_image + n_lv ? "lv" : "dom0-", i);
        add_target(rs, name, i < n_image ? "image" : i < n_image + n_lv ? "lvm" : "dom0");
    }
    for (rep = 0; rep < 3; rep++)
        for (i = 0; i < n; i++) {
            vdc_run *r = vdc_result_set_add_run(rs, rs->targets[i]->name);
            double d = drift[rep] * (1.0 - 0.0002 * (double)i) * (1 + own[(rep + i) % N_REPS]);

            r->repetition = rep;
            r->meta.file_size_mib = 512;
            sample(r, "put_block", 50000 * d);
            sample(r, "get_block", 80000 * d);
        }
}

/* @a of @rs as analyse(), with 100 bootstrap resamples of each median's
 * interval, not 10000: the cells' own cost, which is not what is tested */
static void
analyse_quick(struct vdc_analysis *a, const vdc_result_set *rs)
{
    struct vdc_stats_options o;

    vdc_analysis_init(a);
    vdc_stats_options_init(&o);
    o.bootstrap_resamples = 100;
    assert_int_equal(vdc_analysis_build(a, rs, NULL, &o), 0);
}

/* A result of 1024 targets, the most one holds (512 images, 511 LVs, bare
 * dom0): 261632 image/LV pairs, each a paired test per test, were all
 * built (and the answer's and the title's loops over them were quadratic
 * in the pairs: the report ran for over 10 CPU minutes and was killed).
 * The headline builds each role up to VDC_HEADLINE_PAIRS_MAX pairs and
 * says in one sentence what it left out; everything else is complete: a
 * ceiling for each of the 1023 targets, the ranking per test of every
 * target, the answer.  At the bound (32 x 32) every pair is built. */
static void
test_many_targets_bounded(void **state)
{
    static const char *const left =
        "Not compared pair by pair: 261632 image/LV pairs (512 image x 511 LV or block targets), more than "
        "the 1024 of a kind the headline compares one by one (a paired test per test of each pair); the "
        "ranking per test places every target, the tables hold each target against the baseline dom0.";
    vdc_result_set rs;
    struct vdc_analysis a;
    const struct vdc_headline *h = &a.headline;
    char **lines;
    size_t i, n_left = 0;
    JsonNode *json;
    JsonObject *lo;
    g_autofree char *text = NULL;

    (void)state;
    build_many(&rs, 512, 511, 1);
    analyse_quick(&a, &rs);
    assert_int_equal(a.n_targets, 1024);
    assert_string_equal(a.baseline, "dom0");
    assert_int_equal(h->left_out[VDC_HEADLINE_CHOICE].n, 512 * 511);
    assert_int_equal(h->left_out[VDC_HEADLINE_CHOICE].sides[0], 512);
    assert_int_equal(h->left_out[VDC_HEADLINE_CHOICE].sides[1], 511);
    assert_int_equal(h->left_out[VDC_HEADLINE_CEILING].n, 0);
    assert_int_equal(h->absent, VDC_HEADLINE_PRESENT);
    /* every target but dom0 against dom0, both tests */
    assert_int_equal(h->n_pairs, 1023);
    for (i = 0; i < h->n_pairs; i++) {
        assert_int_equal(h->pairs[i].role, VDC_HEADLINE_CEILING);
        assert_int_equal(h->pairs[i].target, i);
        assert_int_equal(h->pairs[i].n_rows, 2);
        assert_int_equal(h->pairs[i].n_pairs_max, 3);
        assert_int_equal(h->pairs[i].rows[0].n_reps, 3);
    }
    /* the ranking per test of every target but dom0, best first, not
     * grouped (more than a letter display holds) */
    assert_int_equal(h->n_rankings, 2);
    for (i = 0; i < h->n_rankings; i++) {
        g_autofree char *title = vdc_ranking_title(&a, &h->rankings[i]);
        g_autofree char *groups = vdc_ranking_groups_text(&a, &h->rankings[i]);

        assert_int_equal(h->rankings[i].n_entries, 1023);
        assert_int_equal(h->rankings[i].n_groups, 0);
        assert_true(h->rankings[i].entries[0].mean >= h->rankings[i].entries[1022].mean);
        assert_contains(title, ": 1023 targets by mean, not grouped (more than 32 to rank)");
        assert_prefix(groups, "not grouped: 1023 targets to rank, more than the 32 a letter display holds; "
                              "highest mean ");
    }
    /* said once where the pairs would be: the headline's lines, the
     * answer, report.txt, report.json */
    lines = vdc_analysis_headline_lines(&a);
    for (i = 0; lines[i]; i++)
        n_left += !strcmp(lines[i], left);
    assert_int_equal(n_left, 1);
    g_strfreev(lines);
    for (i = n_left = 0; i < a.answer.n_lines; i++)
        n_left += !strcmp(a.answer.lines[i].text, left);
    assert_int_equal(n_left, 1);
    text = vdc_render_text(&rs, &a);
    assert_contains(text, "Not compared pair by pair: 261632 image/LV pairs");
    json = vdc_headline_to_json(&a);
    lo = json_object_get_object_member(json_node_get_object(json), "left_out");
    assert_non_null(lo);
    assert_int_equal(json_object_get_int_member(lo, "choice"), 512 * 511);
    assert_false(json_object_has_member(lo, "ceiling"));
    assert_int_equal(json_object_get_int_member(lo, "max_pairs"), VDC_HEADLINE_PAIRS_MAX);
    assert_string_equal(json_object_get_string_member(lo, "text"), left);
    json_node_unref(json);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);

    /* at the bound every pair is built, nothing said; one more image and
     * none is */
    build_many(&rs, 32, 32, 0);
    analyse_quick(&a, &rs);
    assert_int_equal(h->n_pairs, VDC_HEADLINE_PAIRS_MAX);
    assert_int_equal(h->left_out[VDC_HEADLINE_CHOICE].n, 0);
    assert_null(vdc_headline_left_out_text(&a));
    for (i = 0; i < h->n_pairs; i++)
        assert_int_equal(h->pairs[i].n_rows, 2);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
    build_many(&rs, 33, 32, 0);
    analyse_quick(&a, &rs);
    assert_int_equal(h->n_pairs, 0);
    assert_int_equal(h->left_out[VDC_HEADLINE_CHOICE].n, 33 * 32);
    assert_int_equal(h->absent, VDC_HEADLINE_PRESENT);
    g_free(text);
    text = vdc_headline_left_out_text(&a);
    assert_string_equal(text, "Not compared pair by pair: 1056 image/LV pairs (33 image x 32 LV or block "
                              "targets), more than the 1024 of a kind the headline compares one by one (a "
                              "paired test per test of each pair); the ranking per test places every target, "
                              "the tables hold each target against the baseline lv0033.");
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pairs),
        cmocka_unit_test(test_paired_holm_classes),
        cmocka_unit_test(test_ceiling),
        cmocka_unit_test(test_no_verdict_flags),
        cmocka_unit_test(test_absent),
        cmocka_unit_test(test_runs_policy),
        cmocka_unit_test(test_runs_policy_bad),
        cmocka_unit_test(test_renderers),
        cmocka_unit_test(test_dots_svg),
        cmocka_unit_test(test_many_targets_bounded),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
