/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/stats/paired.c on fixed vectors.
 *
 * Expected values computed independently with R 4.2.2 (Debian
 * r-base-core), script (Rscript calc.R):
 *   options(digits=15)
 *   t <- c(1052,1010,998,1075,1031); b <- c(1001,962,990,1020,985)
 *   t.test(t, b, paired=TRUE)                 # t, p.value
 *   n <- 5; mt <- mean(t); mb <- mean(b); q <- qt(0.975, n-1)
 *   vt <- var(t)/n; vb <- var(b)/n; cv <- cov(t,b)/n
 *   A <- mb^2 - q^2*vb; B <- -2*(mt*mb - q^2*cv); C <- mt^2 - q^2*vt
 *   mt/mb; sort(c((-B-sqrt(B^2-4*A*C))/(2*A), (-B+sqrt(B^2-4*A*C))/(2*A)))
 *   d <- t - b; obs <- abs(sum(d)); hits <- 0      # exact sign-flip test
 *   for (m in 0:31) { s <- sum(ifelse(bitwAnd(m, 2^(0:4)) > 0, -d, d))
 *                     if (abs(s) >= obs - 1e-9) hits <- hits + 1 }; hits/32
 *   p.adjust(c(0.01, 0.04, 0.03, 0.005, NA, 0.5), "holm")
 *   t2 <- c(900,1100,1000,1200,950,1050); b2 <- c(880,1070,985,1160,930,1020)
 *   t.test(t2, b2, paired=TRUE)$p.value; t.test(t2, b2)$p.value
 * vdc_stats_ratio_move's expected values: Python 3.11, the delta method
 * written out (d_i = t_i/mean_t - b_i/mean_b, var/n) and the t
 * distribution from the regularized incomplete beta by its continued
 * fraction (Numerical Recipes' betacf), not GSL:
 *   t0, b0 = the vector above; t1 = 1180 1150 1205 1169 1190 1160,
 *   b1 = 1003 990 1012 985 1001 994.
 */
#include "config.h"
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats/cld.h"
#include "stats/paired.h"

#define assert_close(a, b, rel) \
    assert_true(fabs((a) - (b)) <= (rel) * fmax(fabs(b), 1e-300))

/* the move of a ratio of means between two results, and its edges */
static void
test_ratio_move(void **state)
{
    const double t0[] = { 1052, 1010, 998, 1075, 1031 }, b0[] = { 1001, 962, 990, 1020, 985 };
    const double t1[] = { 1180, 1150, 1205, 1169, 1190, 1160 }, b1[] = { 1003, 990, 1012, 985, 1001, 994 };
    const double one[] = { 1000 };
    struct vdc_stats_move m;

    (void)state;
    vdc_stats_ratio_move(t0, b0, 5, t1, b1, 6, &m);
    assert_true(m.has_ratio && m.has_ci && m.has_test);
    assert_close(m.ratio0, 1.04195240016136, 1e-12);
    assert_close(m.ratio1, 1.17861319966583, 1e-12);
    assert_close(m.percent, 13.1158390232906, 1e-10);    /* = ratio1 / ratio0 - 1 */
    assert_close(m.ratio, m.ratio1 / m.ratio0, 1e-14);
    assert_close(m.df, 6.06464204372591, 1e-10);
    assert_close(m.t, 13.3630464110978, 1e-10);
    assert_close(m.p_value, 9.99243977332489e-06, 1e-6);
    assert_close(m.ci_percent[0], 10.5981841403571, 1e-8);
    assert_close(m.ci_percent[1], 15.6908057523346, 1e-8);
    /* one repetition a side: the move, no interval, no test */
    vdc_stats_ratio_move(one, one, 1, t1, b1, 6, &m);
    assert_true(m.has_ratio && !m.has_ci && !m.has_test);
    assert_true(isnan(m.p_value));
    /* no pairs: nothing */
    vdc_stats_ratio_move(one, one, 0, t1, b1, 6, &m);
    assert_false(m.has_ratio);
    /* repetitions that do not vary: no test */
    vdc_stats_ratio_move(b0, b0, 5, b1, b1, 6, &m);
    assert_true(m.has_ratio && !m.has_test);
    assert_close(m.percent, 0, 1e-12);
}

static void
test_paired_vector(void **state)
{
    const double t[] = { 1052, 1010, 998, 1075, 1031 };
    const double b[] = { 1001, 962, 990, 1020, 985 };
    struct vdc_stats_paired p;

    vdc_stats_compare_paired(t, b, 5, VDC_STATS_PERM_RESAMPLES, VDC_STATS_PERM_SEED, &p);
    assert_int_equal(p.n, 5);
    assert_true(p.has_ratio && p.has_test && p.has_ci);
    assert_close(p.t, 4.87358726899549, 1e-12);
    assert_close(p.p_value, 0.00819843716895289, 1e-9);
    assert_close(p.ratio, 1.04195240016136, 1e-12);
    assert_close(p.ci_ratio[0], 1.01813818857248, 1e-12);
    assert_close(p.ci_ratio[1], 1.06558776499251, 1e-12);
    assert_close(p.delta_percent, 4.195240016136, 1e-10);
    assert_close(p.half_width, fmax(1.06558776499251 - p.ratio, p.ratio - 1.01813818857248) / p.ratio,
                 1e-12);
    /* every d > 0: only all-plus and all-minus reach |sum|: 2 / 32 */
    assert_true(p.perm_exact);
    assert_int_equal(p.perm_resamples, 0);
    assert_close(p.p_perm, 0.0625, 1e-15);
}

/* a drift shared by both members of a pair: Welch sees noise, pairs do not */
static void
test_paired_removes_drift(void **state)
{
    const double t[] = { 900, 1100, 1000, 1200, 950, 1050 };
    const double b[] = { 880, 1070, 985, 1160, 930, 1020 };
    struct vdc_stats_paired p;
    struct vdc_stats_comparison w;

    vdc_stats_compare_paired(t, b, 6, VDC_STATS_PERM_RESAMPLES, VDC_STATS_PERM_SEED, &p);
    vdc_stats_compare(t, 6, b, 6, VDC_STATS_ALPHA, &w);
    assert_close(p.p_value, 0.000981121815407645, 1e-9);
    assert_close(w.p_value, 0.676563818153887, 1e-9);
    assert_true(p.ci_ratio[0] > 1.0);        /* the pairs' interval excludes 1 */
    assert_true(w.ci_delta_percent[0] < 0);  /* Welch's does not */
}

static void
test_paired_edges(void **state)
{
    const double t[] = { 10, 11, 12 }, b[] = { 9, 10, 11 }, z[] = { 0, 0, 0 };
    struct vdc_stats_paired p;

    vdc_stats_compare_paired(t, b, 0, 0, 1, &p);
    assert_false(p.has_ratio || p.has_test || p.has_ci);
    assert_true(isnan(p.ratio));
    vdc_stats_compare_paired(t, b, 1, 0, 1, &p);
    assert_true(p.has_ratio);
    assert_false(p.has_test || p.has_ci);
    /* every difference equal: no test (sd 0); the interval degenerates */
    vdc_stats_compare_paired(t, b, 3, 0, 1, &p);
    assert_false(p.has_test);
    assert_true(isnan(p.p_perm));
    /* a reference of zeros: no ratio, no interval */
    vdc_stats_compare_paired(t, z, 3, 0, 1, &p);
    assert_false(p.has_ratio || p.has_ci);
}

/* above VDC_STATS_PERM_EXACT_MAX_N pairs the test samples sign patterns,
 * seeded: the same p twice, within Monte Carlo error of the t-test's */
static void
test_paired_permutation_sampled(void **state)
{
    double t[20], b[20];
    struct vdc_stats_paired p1, p2;
    size_t i;

    for (i = 0; i < 20; i++) {
        b[i] = 1000 + 37 * (double)((i * 7) % 11);
        t[i] = b[i] + ((i % 3) ? 9.0 : -14.0) + (double)(i % 5);
    }
    vdc_stats_compare_paired(t, b, 20, 10000, 42, &p1);
    vdc_stats_compare_paired(t, b, 20, 10000, 42, &p2);
    assert_false(p1.perm_exact);
    assert_int_equal(p1.perm_resamples, 10000);
    assert_true(p1.p_perm == p2.p_perm);
    assert_true(p1.p_perm > 0 && p1.p_perm <= 1);
    assert_true(fabs(p1.p_perm - p1.p_value) < 0.05);
}

static void
test_holm(void **state)
{
    const double p[] = { 0.01, 0.04, 0.03, 0.005, NAN, 0.5 };
    const double want[] = { 0.040, 0.090, 0.090, 0.025, NAN, 0.500 };
    double adj[6];
    size_t i;

    vdc_stats_holm(p, 6, adj);
    for (i = 0; i < 6; i++) {
        if (isnan(want[i]))
            assert_true(isnan(adj[i]));
        else
            assert_close(adj[i], want[i], 1e-12);
    }
    vdc_stats_holm(p, 0, adj);   /* nothing to do, nothing touched */
}

static void
test_effect_classes(void **state)
{
    assert_int_equal(vdc_effect_classify(2.0, 1.0, 3.0, 1, 1), VDC_EFFECT_NEGLIGIBLE);
    assert_int_equal(vdc_effect_classify(-12.0, -15.0, -9.0, 1, 1), VDC_EFFECT_MODERATE);
    assert_int_equal(vdc_effect_classify(25.0, 20.5, 30.0, 1, 1), VDC_EFFECT_LARGE);
    assert_int_equal(vdc_effect_classify(20.0, 15.0, 25.0, 1, 1), VDC_EFFECT_LARGE);
    /* not significant: negligible only when the interval stays inside +-5 % */
    assert_int_equal(vdc_effect_classify(1.0, -3.0, 4.9, 1, 0), VDC_EFFECT_NEGLIGIBLE);
    assert_int_equal(vdc_effect_classify(1.0, -6.0, 8.0, 1, 0), VDC_EFFECT_UNDECIDED);
    assert_int_equal(vdc_effect_classify(1.0, NAN, NAN, 0, 0), VDC_EFFECT_NOT_TESTED);
    /* at the band's edge: negligible only when the whole interval lies
     * inside +-5 %, significant or not (-5.0 % [-7.5, -2.5] is not) */
    assert_int_equal(vdc_effect_classify(-4.99, -7.5, -2.5, 1, 1), VDC_EFFECT_UNDECIDED);
    assert_int_equal(vdc_effect_classify(-4.99, -5.0, -2.5, 1, 1), VDC_EFFECT_UNDECIDED);
    assert_int_equal(vdc_effect_classify(-4.99, -4.999, -2.5, 1, 1), VDC_EFFECT_NEGLIGIBLE);
    assert_int_equal(vdc_effect_classify(4.0, 3.0, 5.0, 1, 0), VDC_EFFECT_UNDECIDED);
    assert_int_equal(vdc_effect_classify(4.0, 3.0, 4.999, 1, 0), VDC_EFFECT_NEGLIGIBLE);
    assert_int_equal(vdc_effect_classify(-5.0, -7.5, -2.5, 1, 1), VDC_EFFECT_MODERATE);
    assert_string_equal(vdc_effect_class_name(VDC_EFFECT_MODERATE), "moderate");
}

static void
test_stop_rule(void **state)
{
    struct vdc_stats_paired p = { .n = 5, .has_ci = 1, .half_width = 0.02 };

    assert_int_equal(vdc_stats_stop_rule(&p, 2, 3, 30, 0.03), VDC_STOP_CONTINUE);
    assert_int_equal(vdc_stats_stop_rule(&p, 5, 3, 30, 0.03), VDC_STOP_PRECISION);
    p.half_width = 0.05;
    assert_int_equal(vdc_stats_stop_rule(&p, 5, 3, 30, 0.03), VDC_STOP_CONTINUE);
    assert_int_equal(vdc_stats_stop_rule(&p, 30, 3, 30, 0.03), VDC_STOP_MAX_RUNS);
    p.has_ci = 0;
    assert_int_equal(vdc_stats_stop_rule(&p, 30, 3, 30, 0.03), VDC_STOP_NOT_MEASURABLE);
    assert_string_equal(vdc_stop_reason_name(VDC_STOP_PRECISION), "precision reached");
}

/* compact letter display (stats/cld.h): Piepho's insert-absorb */
static void
test_cld(void **state)
{
    char letters[VDC_CLD_ITEMS_MAX + 1][VDC_CLD_LETTERS_MAX + 1];
    unsigned char none[9] = { 0 }, all[16] = { 0 }, chain[16] = { 0 }, one[9] = { 0 };
    static unsigned char big[27 * 27];
    size_t i, j;

    (void)state;
    /* nothing differs: one group */
    assert_int_equal(vdc_stats_cld(3, none, letters), 0);
    for (i = 0; i < 3; i++)
        assert_string_equal(letters[i], "a");
    /* only the ends differ: the middle belongs to both */
    one[0 * 3 + 2] = 1;
    assert_int_equal(vdc_stats_cld(3, one, letters), 0);
    assert_string_equal(letters[0], "a");
    assert_string_equal(letters[1], "ab");
    assert_string_equal(letters[2], "b");
    /* all differ: a letter each */
    for (i = 0; i < 4; i++)
        for (j = i + 1; j < 4; j++)
            all[i * 4 + j] = 1;
    assert_int_equal(vdc_stats_cld(4, all, letters), 0);
    assert_string_equal(letters[0], "a");
    assert_string_equal(letters[3], "d");
    /* a chain: 0-2, 0-3, 1-3 differ -> a, ab, bc, c */
    chain[0 * 4 + 2] = chain[0 * 4 + 3] = chain[1 * 4 + 3] = 1;
    assert_int_equal(vdc_stats_cld(4, chain, letters), 0);
    assert_string_equal(letters[0], "a");
    assert_string_equal(letters[1], "ab");
    assert_string_equal(letters[2], "bc");
    assert_string_equal(letters[3], "c");
    /* 27 items all different need 27 letters: refused; so are 0 and too
     * many items */
    assert_int_equal(vdc_stats_cld(0, none, letters), -1);
    for (i = 0; i < 27; i++)
        for (j = i + 1; j < 27; j++)
            big[i * 27 + j] = 1;
    assert_int_equal(vdc_stats_cld(27, big, letters), -1);
    assert_int_equal(vdc_stats_cld(VDC_CLD_ITEMS_MAX + 1, none, letters), -1);
}

/* the pairs an interval needs: n (hw/target)^2, rounded up; NAN for no
 * interval */
static void
test_runs_needed(void **state)
{
    (void)state;
    assert_float_equal(vdc_stats_runs_needed(3, 0.10, 0.05), 12.0, 1e-9);    /* halved: 4x */
    assert_float_equal(vdc_stats_runs_needed(3, 0.05, 0.05), 3.0, 1e-9);
    assert_float_equal(vdc_stats_runs_needed(4, 0.06, 0.05), 6.0, 1e-9);     /* 5.76 up */
    assert_float_equal(vdc_stats_runs_needed(3, 3.18, 0.05), 12135.0, 1e-9); /* ceil(3 * 63.6^2) */
    assert_true(isnan(vdc_stats_runs_needed(3, INFINITY, 0.05)));
    assert_true(isnan(vdc_stats_runs_needed(3, NAN, 0.05)));
    assert_true(isnan(vdc_stats_runs_needed(0, 0.1, 0.05)));
    assert_true(isnan(vdc_stats_runs_needed(3, 0.0, 0.05)));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_paired_vector),
        cmocka_unit_test(test_ratio_move),
        cmocka_unit_test(test_paired_removes_drift),
        cmocka_unit_test(test_paired_edges),
        cmocka_unit_test(test_paired_permutation_sampled),
        cmocka_unit_test(test_holm),
        cmocka_unit_test(test_effect_classes),
        cmocka_unit_test(test_stop_rule),
        cmocka_unit_test(test_cld),
        cmocka_unit_test(test_runs_needed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
