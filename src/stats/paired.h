/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp paired statistics: a target against a reference when their
 * runs come in pairs.
 *
 * Repetition r of every target of a run shares the seed (the same operation
 * sequence) and, for domU targets, the boot: what drifts between
 * repetitions (the host's load, the boot, the filesystem's history) moves
 * both members of a pair together.  Comparing pairs removes that from the
 * noise, where Welch's test (stats.h) counts it twice.  Pure functions on
 * plain arrays of rates (higher is better); methods and their assumptions
 * are in doc/statistics.md ("Paired comparison", "Multiple tests",
 * "Effect classes", "Runs until sure"). */
#ifndef VDC_STATS_PAIRED_H
#define VDC_STATS_PAIRED_H

#include <stddef.h>

#include "stats/stats.h"

/* Sign-flip permutation test: exact enumeration of the 2^n sign patterns
 * up to this many pairs, a seeded Monte Carlo sample above. */
#define VDC_STATS_PERM_EXACT_MAX_N 16
#define VDC_STATS_PERM_RESAMPLES 10000u
#define VDC_STATS_PERM_SEED 20261201u      /* gsl_rng_mt19937 seed */

struct vdc_stats_paired {
    size_t n;                 /* pairs used */
    double mean_t, mean_b;    /* means of the target's and the reference's values */
    double ratio;             /* mean_t / mean_b */
    double delta_percent;     /* 100 * (ratio - 1): > 0 the target is faster */
    int has_ratio;            /* n >= 1 and mean_b != 0 */
    double ci_ratio[2];       /* paired Fieller 95 % interval of the ratio */
    double ci_delta_percent[2];   /* the same as % deltas */
    int has_ci;               /* n >= 2 and the interval is bounded */
    int ci_cut;               /* ci_ratio[0] was cut at 0 (vdc_stats_ci_floor): the
                               * pairs did not bound the ratio from below */
    double half_width;        /* relative precision: max(hi - ratio, ratio - lo) / ratio */
    double t, df, p_value;    /* paired t-test on the differences, two-sided, df = n - 1 */
    int has_test;             /* n >= 2 and the differences are not all equal */
    double p_perm;            /* sign-flip permutation test on the mean difference */
    int perm_exact;           /* 1: all 2^n patterns; 0: Monte Carlo */
    unsigned perm_resamples;  /* Monte Carlo patterns drawn (0 when exact) */
};

/* Compare target values @t with reference values @b, pair i being
 * repetition i of both (@n pairs; a caller drops a pair where either side
 * has no value).  Fills @out; never fails (what cannot be computed has its
 * has_* at 0 and NAN values):
 *  - ratio of means and its paired Fieller interval: the rho with
 *    (m_t - rho m_b)^2 <= q^2 (s_t^2 - 2 rho s_tb + rho^2 s_b^2) / n,
 *    q = t(0.975, n - 1), s_tb the sample covariance (unbounded when the
 *    reference mean is not significantly away from 0: has_ci = 0);
 *  - the paired t-test on d_i = t_i - b_i (equivalent: the interval
 *    excludes 1 exactly when p < 0.05);
 *  - the sign-flip permutation test of mean(d) = 0 (Firecracker's ab_test
 *    permutes too; for pairs the exchangeable unit is the sign of d_i):
 *    p = share of sign patterns whose |mean| >= the observed one, exact
 *    for n <= VDC_STATS_PERM_EXACT_MAX_N, else (k + 1) / (B + 1) over
 *    B = @perm_resamples patterns from gsl_rng_mt19937 seeded @perm_seed;
 *    @perm_resamples 0 skips it (p_perm NAN: the stopping rule of --runs
 *    auto needs only the interval).  With n pairs the smallest exact p is
 *    2 / 2^n (0.25 at n = 3, 0.0625 at n = 5): below 6 pairs the
 *    permutation test cannot reach p < 0.05, whatever the data.
 * The verdict is the paired t-test's (Holm-corrected across the tests of
 * one comparison); the permutation p is given beside it as the check that
 * needs no normality. */
void vdc_stats_compare_paired(const double *t, const double *b, size_t n,
                              unsigned perm_resamples, unsigned long perm_seed,
                              struct vdc_stats_paired *out);

/* How far a ratio of means moved between two results of paired runs. */
struct vdc_stats_move {
    double ratio0, ratio1;    /* each result's ratio of means, mean_t / mean_b */
    double ratio;             /* ratio1 / ratio0 */
    double percent;           /* 100 * (ratio - 1) */
    int has_ratio;            /* both results have a ratio (n >= 1, both means > 0) */
    double ci_percent[2];     /* 95 % interval of the move, as % */
    int has_ci;               /* both n >= 2 and the repetitions vary */
    double t, df, p_value;    /* two-sided t-test of log(ratio) = 0 */
    int has_test;             /* the same condition as has_ci */
};

/* The move of the ratio of means from result 0 (@t0, @b0: @n0 pairs of
 * target and reference values, repetition i of both) to result 1 (@t1,
 * @b1, @n1), values > 0 (rates).  The two results share no pairing
 * (different runs), so on the log scale their errors add:
 *   log R = log(mean_t / mean_b), var(log R) ~ var(d) / n with
 *   d_i = t_i / mean_t - b_i / mean_b (the delta method, paired: the
 *   covariance of a repetition's two values counts), sample variance;
 *   log(R1 / R0) +- q se, se^2 = var1 + var0, q = t(0.975, df), df by
 *   Welch-Satterthwaite from n1 - 1 and n0 - 1;
 *   p = 2 Q_t(|log(R1 / R0)| / se, df).
 * The interval is back on the ratio scale (exp), so it is not symmetric
 * around the move.  Never fails: what cannot be computed has its has_*
 * at 0 and NAN values (doc/store.md "History"). */
void vdc_stats_ratio_move(const double *t0, const double *b0, size_t n0,
                          const double *t1, const double *b1, size_t n1,
                          struct vdc_stats_move *out);

/* Holm's step-down correction of @m p-values (one comparison's tests):
 * sorted ascending p_(1) <= ... <= p_(m), adjusted
 * p'_(i) = max over j <= i of min(1, (m - j + 1) p_(j)).  Writes @adj in
 * the order of @p.  NAN inputs (not tested) stay NAN and do not count in
 * m.  Controls the family-wise error rate at alpha with no assumption on
 * how the tests depend on each other. */
void vdc_stats_holm(const double *p, size_t m, double *adj);

/* Effect classes of a % delta (perf-insight's negligible / moderate /
 * dramatic, with stated thresholds). */
#define VDC_EFFECT_NEGLIGIBLE_PERCENT 5.0    /* the whole interval inside +-this: negligible */
#define VDC_EFFECT_LARGE_PERCENT 20.0        /* |delta| at or above: large */

enum vdc_effect_class {
    VDC_EFFECT_UNDECIDED = 0, /* the interval reaches past +-5 % and either the test is not
                               * significant or |delta| < 5 % (the size is not known) */
    VDC_EFFECT_NEGLIGIBLE,    /* the whole interval inside +-5 % (open band), significant or not */
    VDC_EFFECT_MODERATE,      /* significant, 5 % <= |delta| < 20 %, the interval past +-5 % */
    VDC_EFFECT_LARGE,         /* significant, |delta| >= 20 % */
    VDC_EFFECT_NOT_TESTED,    /* fewer than 2 pairs, or no interval */
    VDC_EFFECT_UNBOUNDED,     /* set by the caller: tested, but the ratio's interval has no
                               * bound (the reference's mean not clear of 0); undecided */
};

/* The class of @delta_percent with its interval [@lo, @hi] (% deltas) and
 * whether the (Holm-adjusted) test was significant. */
enum vdc_effect_class vdc_effect_classify(double delta_percent, double lo, double hi,
                                          int has_ci, int significant);
/* "undecided", "negligible", "moderate", "large", "not tested", "unbounded" */
const char *vdc_effect_class_name(enum vdc_effect_class c);

/* The defaults of `--runs auto`: repetitions before the rule may stop,
 * --max-runs, --precision (% half-width of the ratio's 95 % CI); the
 * simulation in tests/unit/test_stats_sim.c measures them
 * (doc/statistics.md, "Simulation"). */
#define VDC_RUNS_AUTO_MIN 3
#define VDC_RUNS_AUTO_MAX_DEFAULT 40
#define VDC_RUNS_AUTO_PRECISION_DEFAULT 3.0

/* Why `--runs auto` stopped (or would stop) for one test. */
enum vdc_stop_reason {
    VDC_STOP_CONTINUE = 0,    /* not yet: below min runs, or not precise enough */
    VDC_STOP_PRECISION,       /* the ratio's relative half-width is within the precision */
    VDC_STOP_MAX_RUNS,        /* max runs reached before the precision */
    VDC_STOP_NOT_MEASURABLE,  /* no interval can come: too few valued pairs by max runs
                                 (too fast, failed) or an unbounded interval at max runs */
    VDC_STOP_FIXED,           /* a fixed --runs N: no stopping rule */
};
/* "continue", "precision reached", "max runs", "not measurable", "fixed runs" */
const char *vdc_stop_reason_name(enum vdc_stop_reason r);

/* The stopping rule of `--runs auto`, after @runs repetitions of which
 * @p->n gave a valued pair: stop with VDC_STOP_PRECISION when runs >=
 * @min_runs and p->has_ci and p->half_width <= @precision (a fraction:
 * 0.03 for 3 %); else VDC_STOP_MAX_RUNS / VDC_STOP_NOT_MEASURABLE when
 * runs >= @max_runs; else VDC_STOP_CONTINUE.  The rule looks at the
 * interval's width only, never at the effect or its p-value, so stopping
 * does not bias the verdict (doc/statistics.md, "Runs until sure"). */
enum vdc_stop_reason vdc_stats_stop_rule(const struct vdc_stats_paired *p, unsigned runs,
                                         unsigned min_runs, unsigned max_runs,
                                         double precision);

/* The pairs a paired interval of relative half-width @half_width at @n
 * pairs needs to come within @target (both fractions, 0.05 for 5 %), as a
 * half-width falls with 1/sqrt(n): an estimate (the t quantile falls too,
 * so it errs high at small n).  NAN when @n < 1 or @half_width is not a
 * positive finite number. */
double vdc_stats_runs_needed(int64_t n, double half_width, double target);

#endif
