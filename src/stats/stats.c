/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp statistics: summaries, outliers, comparisons (GSL).
 * Methods and their sources: doc/statistics.md. */
#include "config.h"

#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "common/util.h"

/* Consistency constants of the modified z-score (Iglewicz and Hoaglin
 * 1993; IBM SPSS for the MeanAD fallback): 0.6745 = Phi^-1(0.75), and
 * 1.253314 = sqrt(pi/2). */
#define MODZ_MAD_K 0.6745
#define MODZ_MEANAD_K 1.253314

int
vdc_outlier_policy_parse(const char *name, enum vdc_outlier_policy *out)
{
    if (!strcmp(name, "keep"))
        *out = VDC_OUTLIERS_KEEP;
    else if (!strcmp(name, "flag"))
        *out = VDC_OUTLIERS_FLAG;
    else if (!strcmp(name, "drop"))
        *out = VDC_OUTLIERS_DROP;
    else
        return -1;
    return 0;
}

const char *
vdc_outlier_policy_name(enum vdc_outlier_policy p)
{
    switch (p) {
    case VDC_OUTLIERS_KEEP: return "keep";
    case VDC_OUTLIERS_DROP: return "drop";
    case VDC_OUTLIERS_FLAG: break;
    }
    return "flag";
}

const char *
vdc_verdict_name(enum vdc_verdict v)
{
    switch (v) {
    case VDC_VERDICT_FASTER: return "faster";
    case VDC_VERDICT_SLOWER: return "slower";
    case VDC_VERDICT_NO_DIFFERENCE: return "no significant difference";
    case VDC_VERDICT_NOT_COMPARABLE: return "not comparable (too fast)";
    case VDC_VERDICT_UNDECIDED: return "undecided";
    case VDC_VERDICT_NOT_TESTED: break;
    }
    return "not tested";
}

void
vdc_stats_options_init(struct vdc_stats_options *o)
{
    o->outlier_threshold = VDC_STATS_OUTLIER_THRESHOLD;
    o->policy = VDC_OUTLIERS_FLAG;
    o->bootstrap_resamples = VDC_STATS_BOOTSTRAP_RESAMPLES;
    o->bootstrap_seed = VDC_STATS_BOOTSTRAP_SEED;
}

static double *
sorted_copy(const double *x, size_t n)
{
    double *s = malloc((n ? n : 1) * sizeof(*s));

    if (!s) {
        vdc_error("statistics: out of memory for %zu samples", n);
        return NULL;
    }
    if (n)
        memcpy(s, x, n * sizeof(*s));
    gsl_sort(s, 1, n);
    return s;
}

double
vdc_stats_median(const double *x, size_t n)
{
    double *s, m;

    if (n == 0)
        return NAN;
    if (!(s = sorted_copy(x, n)))
        return NAN;
    m = gsl_stats_median_from_sorted_data(s, 1, n);
    free(s);
    return m;
}

/* Percentile bootstrap of the median: @B resamples of size n drawn with
 * replacement by gsl_rng_uniform_int on gsl_rng_mt19937 seeded with @seed;
 * the interval is the (alpha/2, 1-alpha/2) quantiles of the B medians
 * (gsl_stats_quantile_from_sorted_data, linear interpolation). */
static int
bootstrap_median_ci(const double *x, size_t n, unsigned B, unsigned long seed,
                    double lo_hi[2])
{
    gsl_rng *rng = NULL;
    double *medians = NULL, *res = NULL;
    unsigned b;
    size_t i;
    int rc = -1;

    if (B == 0)
        return -1;
    medians = malloc(B * sizeof(*medians));
    res = malloc(n * sizeof(*res));
    rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!medians || !res || !rng) {
        vdc_error("statistics: out of memory for %u bootstrap resamples", B);
        goto out;
    }
    gsl_rng_set(rng, seed);
    for (b = 0; b < B; b++) {
        for (i = 0; i < n; i++)
            res[i] = x[gsl_rng_uniform_int(rng, n)];
        gsl_sort(res, 1, n);
        medians[b] = gsl_stats_median_from_sorted_data(res, 1, n);
    }
    gsl_sort(medians, 1, B);
    lo_hi[0] = gsl_stats_quantile_from_sorted_data(medians, 1, B, (1 - VDC_STATS_CONFIDENCE) / 2);
    lo_hi[1] = gsl_stats_quantile_from_sorted_data(medians, 1, B, 1 - (1 - VDC_STATS_CONFIDENCE) / 2);
    rc = 0;
 out:
    if (rng)
        gsl_rng_free(rng);
    free(res);
    free(medians);
    return rc;
}

int
vdc_stats_summarize(const double *x, size_t n, const struct vdc_stats_options *opt,
                    struct vdc_stats_summary *out)
{
    double *s;

    memset(out, 0, sizeof(*out));
    out->n = n;
    out->bootstrap_resamples = opt->bootstrap_resamples;
    out->bootstrap_seed = opt->bootstrap_seed;
    out->mean = out->median = out->stddev = out->cv_percent = NAN;
    out->min = out->max = NAN;
    if (n == 0)
        return 0;
    if (!(s = sorted_copy(x, n)))
        return -1;
    out->min = s[0];
    out->max = s[n - 1];
    out->mean = gsl_stats_mean(s, 1, n);
    out->median = gsl_stats_median_from_sorted_data(s, 1, n);
    if (n >= 2) {
        double t = gsl_cdf_tdist_Pinv(1 - (1 - VDC_STATS_CONFIDENCE) / 2, (double)(n - 1));
        double half;

        out->stddev = gsl_stats_sd_m(s, 1, n, out->mean);
        out->has_stddev = 1;
        if (out->mean != 0) {
            out->cv_percent = 100.0 * out->stddev / fabs(out->mean);
            out->has_cv = 1;
        }
        half = t * out->stddev / sqrt((double)n);
        out->ci_mean[0] = out->mean - half;
        out->ci_mean[1] = out->mean + half;
        out->has_ci_mean = 1;
        if (bootstrap_median_ci(x, n, opt->bootstrap_resamples, opt->bootstrap_seed,
                                out->ci_median) == 0)
            out->has_ci_median = 1;
        else if (opt->bootstrap_resamples) {
            free(s);
            return -1;
        }
    }
    free(s);
    return 0;
}

int
vdc_stats_outliers(const double *x, size_t n, double threshold, double *z, int *flagged)
{
    double *dev = NULL, med, mad, meanad = 0;
    size_t i;
    int count = 0;

    for (i = 0; i < n; i++) {
        z[i] = 0;
        flagged[i] = 0;
    }
    if (n < VDC_STATS_OUTLIER_MIN_N)
        return 0;
    med = vdc_stats_median(x, n);
    if (!(dev = malloc(n * sizeof(*dev)))) {
        vdc_error("statistics: out of memory for %zu samples", n);
        return -1;
    }
    for (i = 0; i < n; i++) {
        dev[i] = fabs(x[i] - med);
        meanad += dev[i];
    }
    meanad /= (double)n;
    mad = vdc_stats_median(dev, n);
    free(dev);
    for (i = 0; i < n; i++) {
        if (mad > 0)
            z[i] = MODZ_MAD_K * (x[i] - med) / mad;
        else if (meanad > 0)
            z[i] = (x[i] - med) / (MODZ_MEANAD_K * meanad);
        else
            z[i] = 0;
        if (fabs(z[i]) > threshold) {
            flagged[i] = 1;
            count++;
        }
    }
    return count;
}

void
vdc_stats_compare(const double *t, size_t n_t, const double *b, size_t n_b,
                  double alpha, struct vdc_stats_comparison *out)
{
    double mt, mb, vt, vb, se2, tq, a, bq, c, disc, r1, r2;

    memset(out, 0, sizeof(*out));
    out->ratio = out->delta_percent = out->welch_t = out->welch_df = out->p_value = NAN;
    out->ci_delta_percent[0] = out->ci_delta_percent[1] = NAN;
    out->verdict = VDC_VERDICT_NOT_TESTED;
    if (n_t == 0 || n_b == 0)
        return;
    mt = gsl_stats_mean(t, 1, n_t);
    mb = gsl_stats_mean(b, 1, n_b);
    if (mb != 0) {
        out->ratio = mt / mb;
        out->delta_percent = 100.0 * (out->ratio - 1.0);
        out->has_ratio = 1;
    }
    if (n_t < 2 || n_b < 2)
        return;
    /* squared standard errors of the two means */
    vt = gsl_stats_variance_m(t, 1, n_t, mt) / (double)n_t;
    vb = gsl_stats_variance_m(b, 1, n_b, mb) / (double)n_b;
    se2 = vt + vb;
    if (se2 <= 0)
        return;   /* zero variance on both sides: the t statistic is undefined */
    out->welch_t = (mt - mb) / sqrt(se2);
    out->welch_df = se2 * se2 / (vt * vt / (double)(n_t - 1) + vb * vb / (double)(n_b - 1));
    /* Welch-Satterthwaite's df lies in [min(n_t, n_b) - 1, n_t + n_b - 2];
     * outside it only by rounding (vt^2 underflowing to 0 when one side's
     * variance is tiny makes it huge or infinite, where GSL's t quantile
     * fails): keep it in its range */
    out->welch_df = fmin(fmax(out->welch_df, (double)((n_t < n_b ? n_t : n_b) - 1)), (double)(n_t + n_b - 2));
    out->p_value = 2.0 * gsl_cdf_tdist_Q(fabs(out->welch_t), out->welch_df);
    if (out->p_value > 1.0)
        out->p_value = 1.0;
    out->has_test = 1;
    out->significant = out->p_value < alpha;
    if (!out->significant)
        out->verdict = VDC_VERDICT_NO_DIFFERENCE;
    else
        out->verdict = mt > mb ? VDC_VERDICT_FASTER : VDC_VERDICT_SLOWER;

    /* Fieller's interval for rho = mu_t / mu_b with unequal variances:
     * the rho where (mt - rho mb)^2 = tq^2 (vt + rho^2 vb), tq the
     * 1 - alpha/2 Student quantile at the Welch df.  Bounded only when the
     * baseline mean is itself significantly away from 0 (a > 0). */
    tq = gsl_cdf_tdist_Pinv(1 - (1 - VDC_STATS_CONFIDENCE) / 2, out->welch_df);
    a = mb * mb - tq * tq * vb;
    bq = -2.0 * mt * mb;
    c = mt * mt - tq * tq * vt;
    disc = bq * bq - 4.0 * a * c;
    if (a <= 0 || disc < 0)
        return;
    r1 = (-bq - sqrt(disc)) / (2.0 * a);
    r2 = (-bq + sqrt(disc)) / (2.0 * a);
    out->ci_delta_percent[0] = 100.0 * (fmin(r1, r2) - 1.0);
    out->ci_delta_percent[1] = 100.0 * (fmax(r1, r2) - 1.0);
    out->has_ci = 1;
}

/* stats.h */
int
vdc_stats_ci_floor(double *lo, double floor)
{
    if (!(*lo < floor))
        return 0;
    *lo = floor;
    return 1;
}

/* stats.h */
void
vdc_stats_summary_floor(struct vdc_stats_summary *s)
{
    /* |=: a second call finds the bound at the floor and keeps the flag */
    s->ci_mean_cut |= s->has_ci_mean && vdc_stats_ci_floor(&s->ci_mean[0], 0.0);
}

/* stats.h */
void
vdc_stats_comparison_floor(struct vdc_stats_comparison *c)
{
    c->ci_cut |= c->has_ci && vdc_stats_ci_floor(&c->ci_delta_percent[0], VDC_STATS_DELTA_FLOOR);
}
