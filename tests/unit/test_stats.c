/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/stats on fixed vectors.
 *
 * Every expected value was computed independently of GSL and of this code:
 *
 *  - means, medians, sd, t CIs, Welch tests, modified z-scores and Fieller
 *    intervals with R 4.2.2 (Debian r-base-core), script:
 *      options(digits=15)
 *      a <- c(100,102,98,101,99); b <- c(110,108,112,111,109)
 *      o <- c(10.1,10.3,9.9,10.0,10.2,14.8)
 *      mean(a); median(a); sd(a); 100*sd(a)/mean(a); t.test(a)$conf.int
 *      t.test(b, a, var.equal=FALSE)            # t, df, p.value
 *      mean(o); median(o); sd(o); t.test(o)$conf.int
 *      m <- median(o); 0.6745*(o-m)/median(abs(o-m))
 *      z <- c(5,5,5,5,9); m <- median(z); (z-m)/(1.253314*mean(abs(z-m)))
 *      c1 <- c(100,104,97,103,96); c2 <- c(101,99,105,98,102); t.test(c2, c1)
 *      d1 <- c(6065,5900,6300); d2 <- c(34825,33000,36100,35500); t.test(d2, d1)
 *      fieller <- function(t, b) { mt <- mean(t); mb <- mean(b)
 *        vt <- var(t)/length(t); vb <- var(b)/length(b)
 *        df <- (vt+vb)^2/(vt^2/(length(t)-1) + vb^2/(length(b)-1)); q <- qt(0.975, df)
 *        A <- mb^2 - q^2*vb; B <- -2*mt*mb; C <- mt^2 - q^2*vt
 *        100*(sort(c((-B-sqrt(B^2-4*A*C))/(2*A), (-B+sqrt(B^2-4*A*C))/(2*A)))-1) }
 *      fieller(b, a); fieller(d2, d1); fieller(a, b)
 *      z <- c(-1,1,2,-2,0.5); mean(z)^2 - qt(0.975, 4)^2 * var(z)/5   # < 0
 *    (run as `Rscript calc.R`).
 *
 *  - the bootstrap intervals of the median with a separate Python 3.11
 *    implementation: MT19937 seeded as GSL seeds it (init_genrand) and
 *    loaded into random.Random via setstate, GSL's gsl_rng_uniform_int
 *    rejection rule (k = u32 / (0xffffffff // n), redraw while k >= n),
 *    statistics.median, type-7 quantiles.  Command:
 *      python3 boot.py B SEED VALUES...   e.g.
 *      python3 boot.py 10000 20261130 10.1 10.3 9.9 10.0 10.2 14.8  -> 9.95 12.55
 *      python3 boot.py 10000 20261130 100 102 98 101 99             -> 98.0 102.0
 *      python3 boot.py 10000 1 1 2 ... 19 100                       -> 6.5 14.5
 *    (boot.py is reproduced in doc/statistics.md).
 */
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

#include "stats/stats.h"

#define EPS 1e-9

static void
assert_close(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol * (1.0 + fabs(want)))) {
        fail_msg("got %.15g, want %.15g", got, want);
    }
}

static const double A[] = { 100, 102, 98, 101, 99 };
static const double B[] = { 110, 108, 112, 111, 109 };
static const double O[] = { 10.1, 10.3, 9.9, 10.0, 10.2, 14.8 };

static void
test_summary_basic(void **state)
{
    struct vdc_stats_options opt;
    struct vdc_stats_summary s;

    vdc_stats_options_init(&opt);
    assert_int_equal(vdc_stats_summarize(A, 5, &opt, &s), 0);
    assert_int_equal(s.n, 5);
    assert_close(s.mean, 100, EPS);
    assert_close(s.median, 100, EPS);
    assert_true(s.has_stddev);
    assert_close(s.stddev, 1.58113883008419, 1e-12);
    assert_true(s.has_cv);
    assert_close(s.cv_percent, 1.58113883008419, 1e-12);
    assert_true(s.has_ci_mean);
    assert_close(s.ci_mean[0], 98.0367568385224, 1e-12);
    assert_close(s.ci_mean[1], 101.963243161478, 1e-12);
    assert_true(s.has_ci_median);
    assert_close(s.ci_median[0], 98.0, EPS);
    assert_close(s.ci_median[1], 102.0, EPS);
    assert_int_equal(s.bootstrap_resamples, VDC_STATS_BOOTSTRAP_RESAMPLES);
    assert_int_equal(s.bootstrap_seed, VDC_STATS_BOOTSTRAP_SEED);
    assert_close(s.min, 98, EPS);
    assert_close(s.max, 102, EPS);
}

static void
test_summary_outlier_vector(void **state)
{
    struct vdc_stats_options opt;
    struct vdc_stats_summary s;

    vdc_stats_options_init(&opt);
    assert_int_equal(vdc_stats_summarize(O, 6, &opt, &s), 0);
    assert_close(s.mean, 10.8833333333333, 1e-12);
    assert_close(s.median, 10.15, 1e-12);
    assert_close(s.stddev, 1.92397158676179, 1e-12);
    assert_close(s.ci_mean[0], 8.86424898003829, 1e-12);
    assert_close(s.ci_mean[1], 12.9024176866284, 1e-12);
    assert_close(s.ci_median[0], 9.95, 1e-12);
    assert_close(s.ci_median[1], 12.55, 1e-12);
}

static void
test_bootstrap_seed_and_resamples(void **state)
{
    double x[20];
    struct vdc_stats_options opt;
    struct vdc_stats_summary s1, s2;
    int i;

    for (i = 0; i < 19; i++)
        x[i] = i + 1;
    x[19] = 100;
    vdc_stats_options_init(&opt);
    opt.bootstrap_seed = 1;
    assert_int_equal(vdc_stats_summarize(x, 20, &opt, &s1), 0);
    assert_close(s1.ci_median[0], 6.5, EPS);
    assert_close(s1.ci_median[1], 14.5, EPS);
    /* reproducible: same seed, same interval */
    assert_int_equal(vdc_stats_summarize(x, 20, &opt, &s2), 0);
    assert_true(s1.ci_median[0] == s2.ci_median[0] && s1.ci_median[1] == s2.ci_median[1]);
    /* no resamples: no interval, no failure */
    opt.bootstrap_resamples = 0;
    assert_int_equal(vdc_stats_summarize(x, 20, &opt, &s2), 0);
    assert_false(s2.has_ci_median);
    assert_true(s2.has_ci_mean);
}

static void
test_summary_edge_cases(void **state)
{
    static const double one[] = { 42 };
    static const double same[] = { 7, 7, 7 };
    static const double zero[] = { 0, 0 };
    struct vdc_stats_options opt;
    struct vdc_stats_summary s;

    vdc_stats_options_init(&opt);
    /* n = 0 */
    assert_int_equal(vdc_stats_summarize(NULL, 0, &opt, &s), 0);
    assert_int_equal(s.n, 0);
    assert_true(isnan(s.mean));
    assert_false(s.has_ci_mean);
    /* n = 1: a mean and a median, no spread, no interval */
    assert_int_equal(vdc_stats_summarize(one, 1, &opt, &s), 0);
    assert_close(s.mean, 42, EPS);
    assert_close(s.median, 42, EPS);
    assert_false(s.has_stddev);
    assert_false(s.has_cv);
    assert_false(s.has_ci_mean);
    assert_false(s.has_ci_median);
    /* zero variance: degenerate interval at the mean */
    assert_int_equal(vdc_stats_summarize(same, 3, &opt, &s), 0);
    assert_close(s.stddev, 0, EPS);
    assert_close(s.cv_percent, 0, EPS);
    assert_close(s.ci_mean[0], 7, EPS);
    assert_close(s.ci_mean[1], 7, EPS);
    assert_close(s.ci_median[0], 7, EPS);
    assert_close(s.ci_median[1], 7, EPS);
    /* mean 0: no CV */
    assert_int_equal(vdc_stats_summarize(zero, 2, &opt, &s), 0);
    assert_true(s.has_stddev);
    assert_false(s.has_cv);
}

static void
test_outliers_mad(void **state)
{
    static const double want[] = { -0.224833333333328, 0.674500000000008, -1.12416666666666,
                                   -0.674499999999992, 0.224833333333336, 20.9095 };
    double z[6];
    int f[6], i;

    assert_int_equal(vdc_stats_outliers(O, 6, 3.5, z, f), 1);
    for (i = 0; i < 6; i++)
        assert_close(z[i], want[i], 1e-9);
    assert_int_equal(f[5], 1);
    assert_int_equal(f[0] + f[1] + f[2] + f[3] + f[4], 0);
    /* a threshold above the largest z flags nothing */
    assert_int_equal(vdc_stats_outliers(O, 6, 21.0, z, f), 0);
    /* a low threshold flags more */
    assert_int_equal(vdc_stats_outliers(O, 6, 0.5, z, f), 4);
}

static void
test_outliers_mad_zero(void **state)
{
    static const double x[] = { 5, 5, 5, 5, 9 };
    static const double same[] = { 3, 3, 3, 3 };
    static const double two[] = { 1, 1000 };
    static const double three[] = { 1868, 1633, 1634 };
    double z[5];
    int f[5];

    /* MAD = 0: MeanAD fallback */
    assert_int_equal(vdc_stats_outliers(x, 5, 3.5, z, f), 1);
    assert_close(z[4], 3.98942324110319, 1e-9);
    assert_close(z[0], 0, EPS);
    assert_int_equal(f[4], 1);
    /* all equal: nothing flagged */
    assert_int_equal(vdc_stats_outliers(same, 4, 3.5, z, f), 0);
    assert_close(z[0], 0, EPS);
    /* fewer than 5 values: the rule does not apply (with these 3 values
     * MAD = 1 and 1868 would score 0.6745 * 234 / 1 = 157.8) */
    assert_int_equal(vdc_stats_outliers(two, 2, 3.5, z, f), 0);
    assert_int_equal(vdc_stats_outliers(three, 3, 3.5, z, f), 0);
    assert_close(z[0], 0, EPS);
    assert_int_equal(f[0], 0);
    assert_int_equal(vdc_stats_outliers(x, 4, 3.5, z, f), 0);
}

static void
test_compare_significant(void **state)
{
    struct vdc_stats_comparison c;

    vdc_stats_compare(B, 5, A, 5, VDC_STATS_ALPHA, &c);
    assert_true(c.has_ratio);
    assert_close(c.ratio, 1.1, 1e-12);
    assert_close(c.delta_percent, 10, 1e-10);
    assert_true(c.has_test);
    assert_close(c.welch_t, 10, 1e-12);
    assert_close(c.welch_df, 8, 1e-12);
    assert_close(c.p_value, 8.4881815276285e-06, 1e-9);
    assert_true(c.significant);
    assert_int_equal(c.verdict, VDC_VERDICT_FASTER);
    assert_string_equal(vdc_verdict_name(c.verdict), "faster");
    assert_true(c.has_ci);
    assert_close(c.ci_delta_percent[0], 7.60470802729232, 1e-9);
    assert_close(c.ci_delta_percent[1], 12.4538017352319, 1e-9);
    /* the other way round: fieller(a, b) */
    vdc_stats_compare(A, 5, B, 5, VDC_STATS_ALPHA, &c);
    assert_int_equal(c.verdict, VDC_VERDICT_SLOWER);
    assert_close(c.welch_t, -10, 1e-12);
    assert_close(c.delta_percent, -9.09090909090909, 1e-10);
    assert_true(c.has_ci);
    assert_close(c.ci_delta_percent[0], -11.0745937825685, 1e-9);
    assert_close(c.ci_delta_percent[1], -7.06726328866901, 1e-9);
}

static void
test_compare_fieller_unbounded(void **state)
{
    /* baseline mean 0.1, not significantly away from 0: R gives
     * mb^2 - qt(0.975, df)^2 vb < 0 (-3.92 with the baseline's own df 4;
     * any Welch df gives the same sign: see the header), so no bounded interval */
    static const double z[] = { -1, 1, 2, -2, 0.5 };
    struct vdc_stats_comparison c;

    vdc_stats_compare(A, 5, z, 5, VDC_STATS_ALPHA, &c);
    assert_true(c.has_ratio);
    assert_close(c.ratio, 1000, 1e-9);
    assert_true(c.has_test);
    assert_false(c.has_ci);
    assert_true(isnan(c.ci_delta_percent[0]));
}

static void
test_compare_unequal(void **state)
{
    static const double d1[] = { 6065, 5900, 6300 };
    static const double d2[] = { 34825, 33000, 36100, 35500 };
    struct vdc_stats_comparison c;

    vdc_stats_compare(d2, 4, d1, 3, VDC_STATS_ALPHA, &c);
    assert_close(c.ratio, 5.72508896797153, 1e-12);
    assert_close(c.delta_percent, 472.508896797153, 1e-10);
    assert_close(c.welch_t, 42.2266813351529, 1e-10);
    assert_close(c.welch_df, 3.17774984729935, 1e-10);
    assert_close(c.p_value, 1.77145157886385e-05, 1e-7);
    assert_close(c.ci_delta_percent[0], 426.524595175963, 1e-8);
    assert_close(c.ci_delta_percent[1], 522.464364052214, 1e-8);
}

static void
test_compare_no_difference(void **state)
{
    static const double c1[] = { 100, 104, 97, 103, 96 };
    static const double c2[] = { 101, 99, 105, 98, 102 };
    struct vdc_stats_comparison c;

    vdc_stats_compare(c2, 5, c1, 5, VDC_STATS_ALPHA, &c);
    assert_close(c.welch_t, 0.5, 1e-12);
    assert_close(c.welch_df, 7.52941176470588, 1e-10);
    assert_close(c.p_value, 0.631356372261846, 1e-9);
    assert_false(c.significant);
    assert_int_equal(c.verdict, VDC_VERDICT_NO_DIFFERENCE);
    assert_string_equal(vdc_verdict_name(c.verdict), "no significant difference");
}

static void
test_compare_edge_cases(void **state)
{
    static const double one_a[] = { 6065 };
    static const double one_b[] = { 34825 };
    static const double s1[] = { 5, 5, 5 };
    static const double s2[] = { 6, 6, 6 };
    static const double z[] = { 0, 0 };
    struct vdc_stats_comparison c;

    /* n = 1 on both sides (seed 003): a ratio, no test, no interval */
    vdc_stats_compare(one_b, 1, one_a, 1, VDC_STATS_ALPHA, &c);
    assert_true(c.has_ratio);
    assert_close(c.ratio, 34825.0 / 6065.0, 1e-12);
    assert_false(c.has_test);
    assert_false(c.has_ci);
    assert_int_equal(c.verdict, VDC_VERDICT_NOT_TESTED);
    assert_string_equal(vdc_verdict_name(c.verdict), "not tested");
    /* zero variance on both sides: no t statistic */
    vdc_stats_compare(s2, 3, s1, 3, VDC_STATS_ALPHA, &c);
    assert_close(c.ratio, 1.2, 1e-12);
    assert_false(c.has_test);
    assert_int_equal(c.verdict, VDC_VERDICT_NOT_TESTED);
    /* baseline mean 0: no ratio */
    vdc_stats_compare(s1, 3, z, 2, VDC_STATS_ALPHA, &c);
    assert_false(c.has_ratio);
    /* empty side */
    vdc_stats_compare(s1, 3, NULL, 0, VDC_STATS_ALPHA, &c);
    assert_false(c.has_ratio);
    assert_false(c.has_test);
}

static void
test_policy_names(void **state)
{
    enum vdc_outlier_policy p;

    assert_int_equal(vdc_outlier_policy_parse("keep", &p), 0);
    assert_int_equal(p, VDC_OUTLIERS_KEEP);
    assert_int_equal(vdc_outlier_policy_parse("drop", &p), 0);
    assert_string_equal(vdc_outlier_policy_name(p), "drop");
    assert_int_equal(vdc_outlier_policy_parse("flag", &p), 0);
    assert_int_equal(vdc_outlier_policy_parse("Flag", &p), -1);
    assert_int_equal(vdc_outlier_policy_parse("", &p), -1);
}

/* The floor rule: a lower bound below the floor is the floor, flagged;
 * one at or above it, or NaN, is left as it is */
static void
test_ci_floor(void **state)
{
    double v[] = { 100, 1 }, lo;
    struct vdc_stats_options o;
    struct vdc_stats_summary s;
    struct vdc_stats_comparison c;

    (void)state;
    lo = -3.5;
    assert_int_equal(vdc_stats_ci_floor(&lo, 0), 1);
    assert_true(lo == 0);
    lo = 0;
    assert_int_equal(vdc_stats_ci_floor(&lo, 0), 0);
    lo = NAN;
    assert_int_equal(vdc_stats_ci_floor(&lo, 0), 0);
    assert_true(isnan(lo));
    /* two values far apart: Student t reaches below 0, cut there */
    vdc_stats_options_init(&o);
    assert_int_equal(vdc_stats_summarize(v, 2, &o, &s), 0);
    assert_true(s.ci_mean[0] < 0);
    vdc_stats_summary_floor(&s);
    assert_true(s.ci_mean_cut);
    assert_true(s.ci_mean[0] == 0 && s.ci_mean[1] > s.mean);
    vdc_stats_summary_floor(&s);      /* twice: the same */
    assert_true(s.ci_mean_cut && s.ci_mean[0] == 0);
    /* a delta below -100 %: cut at the floor of a ratio of rates */
    memset(&c, 0, sizeof(c));
    c.has_ci = 1;
    c.ci_delta_percent[0] = -140;
    c.ci_delta_percent[1] = 20;
    vdc_stats_comparison_floor(&c);
    assert_true(c.ci_cut && c.ci_delta_percent[0] == VDC_STATS_DELTA_FLOOR && c.ci_delta_percent[1] == 20);
    c.ci_delta_percent[0] = -40;
    c.ci_cut = 0;
    vdc_stats_comparison_floor(&c);
    assert_true(!c.ci_cut && c.ci_delta_percent[0] == -40);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summary_basic),
        cmocka_unit_test(test_ci_floor),
        cmocka_unit_test(test_summary_outlier_vector),
        cmocka_unit_test(test_bootstrap_seed_and_resamples),
        cmocka_unit_test(test_summary_edge_cases),
        cmocka_unit_test(test_outliers_mad),
        cmocka_unit_test(test_outliers_mad_zero),
        cmocka_unit_test(test_compare_significant),
        cmocka_unit_test(test_compare_unequal),
        cmocka_unit_test(test_compare_fieller_unbounded),
        cmocka_unit_test(test_compare_no_difference),
        cmocka_unit_test(test_compare_edge_cases),
        cmocka_unit_test(test_policy_names),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
