/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp statistics on benchmark samples (GSL).
 *
 * Pure functions on plain arrays of doubles: no result model, no I/O.  Every
 * value is a rate (K/sec, /sec, MiB/s: higher is better); samples with no
 * value (bonnie++ "+++++", failed tests) are removed by the caller, who
 * counts them.  Methods, constants and their sources are in
 * doc/statistics.md. */
#ifndef VDC_STATS_STATS_H
#define VDC_STATS_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Defaults (doc/statistics.md). */
#define VDC_STATS_CONFIDENCE 0.95
#define VDC_STATS_ALPHA 0.05
#define VDC_STATS_OUTLIER_THRESHOLD 3.5   /* Iglewicz and Hoaglin (1993) */
#define VDC_STATS_BOOTSTRAP_RESAMPLES 10000u
#define VDC_STATS_BOOTSTRAP_SEED 20261130u /* gsl_rng_mt19937 seed */

/* What to do with the samples the outlier rule flags: keep them silently
 * in the statistics (still listed), flag them (listed, kept in the
 * statistics; the default), or drop them from the statistics (listed). */
enum vdc_outlier_policy {
    VDC_OUTLIERS_KEEP = 0,
    VDC_OUTLIERS_FLAG,
    VDC_OUTLIERS_DROP,
};

/* "keep" | "flag" | "drop" -> policy; returns 0, or -1 (no message) on an
 * unknown name. */
int vdc_outlier_policy_parse(const char *name, enum vdc_outlier_policy *out);
const char *vdc_outlier_policy_name(enum vdc_outlier_policy p);

struct vdc_stats_options {
    double outlier_threshold;          /* modified z above which a sample is an outlier */
    enum vdc_outlier_policy policy;
    unsigned bootstrap_resamples;      /* B: resamples for the median CI */
    unsigned long bootstrap_seed;      /* gsl_rng_mt19937 seed */
};

/* Fill with the defaults above.  Safe to call twice. */
void vdc_stats_options_init(struct vdc_stats_options *o);

/* Summary of one (target, test) cell.  Fields not computable are flagged
 * by has_* = 0: has_stddev needs n >= 2, has_ci_mean needs n >= 2,
 * has_ci_median needs n >= 2 (for n = 2 the percentile bootstrap interval
 * is [min, max]).  cv_percent needs has_stddev and mean != 0. */
struct vdc_stats_summary {
    size_t n;                 /* values used (after a "drop" policy) */
    size_t n_outliers;        /* values flagged by the outlier rule */
    double mean, median, stddev, cv_percent, min, max;
    int has_stddev, has_cv;
    double ci_mean[2];        /* Student t, 95 % */
    int has_ci_mean;
    int ci_mean_cut;          /* ci_mean[0] was cut at 0 (vdc_stats_summary_floor) */
    double ci_median[2];      /* percentile bootstrap, 95 % */
    int has_ci_median;
    unsigned bootstrap_resamples;
    unsigned long bootstrap_seed;
};

/* Compute the summary of @x[0..n-1] (n may be 0: then only n is set).
 * @x is not modified.  The outlier policy is not applied here: call
 * vdc_stats_outliers first and pass the kept values.  Returns 0, or -1
 * after vdc_error on allocation failure. */
int vdc_stats_summarize(const double *x, size_t n, const struct vdc_stats_options *opt,
                        struct vdc_stats_summary *out);

/* Modified z-score of each value (Iglewicz and Hoaglin 1993):
 *   z_i = 0.6745 * (x_i - median) / MAD,  MAD = median(|x_i - median|).
 * When MAD = 0 (more than half of the values are equal) the fallback is
 *   z_i = (x_i - median) / (1.253314 * MeanAD),  MeanAD = mean(|x_i - median|)
 * and when MeanAD is also 0 every z_i is 0.  Writes @z[0..n-1]; sets
 * *flagged[i] = |z_i| > threshold.  Returns the number flagged, or -1
 * after vdc_error on allocation failure.  With fewer than
 * VDC_STATS_OUTLIER_MIN_N values the rule does not apply: every z_i is 0
 * and nothing is flagged (with 3 values the MAD is the smaller of two
 * deviations, and a 14 % deviation can score z = 158). */
#define VDC_STATS_OUTLIER_MIN_N 5
int vdc_stats_outliers(const double *x, size_t n, double threshold, double *z, int *flagged);

/* Median of @x (copies, does not modify).  NaN when n = 0. */
double vdc_stats_median(const double *x, size_t n);

enum vdc_verdict {
    VDC_VERDICT_NOT_TESTED = 0,   /* fewer than 2 values on a side, or zero variance on both */
    VDC_VERDICT_NO_DIFFERENCE,    /* p >= alpha */
    VDC_VERDICT_FASTER,           /* p < alpha, target mean > baseline mean */
    VDC_VERDICT_SLOWER,
    VDC_VERDICT_NOT_COMPARABLE,   /* set by the caller: a side has too-fast runs with no value */
    VDC_VERDICT_UNDECIDED,        /* set by the caller: p < alpha but the ratio's interval has
                                   * no bound, so neither faster nor slower is shown */
};
/* "faster", "slower", "no significant difference", "not tested",
 * "not comparable (too fast)", "undecided" */
const char *vdc_verdict_name(enum vdc_verdict v);

/* A target against the baseline, from their summaries' inputs. */
struct vdc_stats_comparison {
    double ratio;             /* mean(target) / mean(baseline) */
    double delta_percent;     /* 100 * (ratio - 1) */
    int has_ratio;            /* baseline mean != 0 and both n >= 1 */
    double ci_delta_percent[2];   /* Fieller 95 % interval of the ratio, as % */
    int has_ci;               /* both n >= 2 and the Fieller interval is bounded */
    int ci_cut;               /* ci_delta_percent[0] was cut at -100 (vdc_stats_comparison_floor) */
    double welch_t, welch_df, p_value;   /* two-sided Welch t-test */
    int has_test;
    int significant;          /* has_test and p_value < alpha */
    enum vdc_verdict verdict;
};

/* Compare target values @t (n_t) with baseline values @b (n_b): ratio of
 * the means, % delta, its Fieller confidence interval (unequal variances,
 * Welch-Satterthwaite df), Welch's t-test (two-sided p from
 * gsl_cdf_tdist_Q) and the verdict at @alpha.  Never fails; what cannot
 * be computed has its has_* flag at 0. */
void vdc_stats_compare(const double *t, size_t n_t, const double *b, size_t n_b,
                       double alpha, struct vdc_stats_comparison *out);

/* The floor rule of every 95 % interval a report prints (doc/statistics.md,
 * "Intervals at a floor"): what vmdiskcmp bounds -- rates, times, bytes,
 * CPU seconds, and ratios of them -- is never below a floor: 0 for a mean or
 * a ratio, VDC_STATS_DELTA_FLOOR (-100 %) for a delta.  A lower bound below
 * it is set to it, once, where the interval is computed, so every table and
 * format prints the same bound: the interval keeps its coverage (the true
 * value is never below the floor) and prints nothing impossible, and the
 * flag it sets lets a renderer say the bound was cut (the runs did not bound
 * the quantity from below).  Returns 1 when *@lo was below @floor (and is
 * now @floor), else 0 (NaN stays as it is). */
#define VDC_STATS_DELTA_FLOOR (-100.0)
int vdc_stats_ci_floor(double *lo, double floor);

/* vdc_stats_ci_floor on @s's interval of the mean at 0, its ci_mean_cut
 * set (safe to call twice); a summary of what can be negative (a growth)
 * is not passed here. */
void vdc_stats_summary_floor(struct vdc_stats_summary *s);

/* vdc_stats_ci_floor on @c's interval at VDC_STATS_DELTA_FLOOR (a ratio of
 * means of values >= 0 is >= 0), its ci_cut set (safe to call twice). */
void vdc_stats_comparison_floor(struct vdc_stats_comparison *c);

/* A delta that was tested (n >= 2 on both sides) but has no Fieller
 * interval: the baseline mean is not significantly away from 0, and the
 * set of ratios the data allow is unbounded.  Reports print "unbounded". */
static inline int
vdc_stats_ci_unbounded(const struct vdc_stats_comparison *c)
{
    return c->has_ratio && c->has_test && !c->has_ci;
}

#endif
