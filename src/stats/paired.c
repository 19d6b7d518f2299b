/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Paired statistics (stats/paired.h): paired Fieller interval, paired
 * t-test, sign-flip permutation test, Holm's correction, effect classes
 * and the stopping rule of --runs auto.  GSL 2.7; doc/statistics.md. */
#include "config.h"
#include "stats/paired.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_statistics_double.h>

#include "common/util.h"

/* Two means closer than this share of their size are the same (sums of
 * the same values in another order differ in the last bits). */
#define PERM_TIE_EPS 1e-12

/* p of the sign-flip test: the share of sign patterns s whose
 * |sum s_i d_i| reaches the observed |sum d_i|. */
static double
sign_flip_p(const double *d, size_t n, unsigned resamples, unsigned long seed,
            int *exact, unsigned *drawn)
{
    double obs = 0, scale = 0, tol;
    size_t i;

    for (i = 0; i < n; i++) {
        obs += d[i];
        scale += fabs(d[i]);
    }
    obs = fabs(obs);
    tol = PERM_TIE_EPS * (scale > 0 ? scale : 1);
    if (n <= VDC_STATS_PERM_EXACT_MAX_N) {
        unsigned long patterns = 1UL << n, mask, hits = 0;

        for (mask = 0; mask < patterns; mask++) {
            double s = 0;

            for (i = 0; i < n; i++)
                s += (mask >> i & 1) ? -d[i] : d[i];
            if (fabs(s) >= obs - tol)
                hits++;
        }
        *exact = 1;
        *drawn = 0;
        return (double)hits / (double)patterns;
    } else {
        gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
        unsigned long hits = 0;
        unsigned k;

        if (!rng)
            return NAN;
        gsl_rng_set(rng, seed);
        for (k = 0; k < resamples; k++) {
            double s = 0;

            for (i = 0; i < n; i++)
                s += gsl_rng_uniform_int(rng, 2) ? -d[i] : d[i];
            if (fabs(s) >= obs - tol)
                hits++;
        }
        gsl_rng_free(rng);
        *exact = 0;
        *drawn = resamples;
        return (double)(hits + 1) / (double)(resamples + 1);
    }
}

void
vdc_stats_compare_paired(const double *t, const double *b, size_t n,
                         unsigned perm_resamples, unsigned long perm_seed,
                         struct vdc_stats_paired *out)
{
    double mt, mb, vt, vb, cov, q, a, bq, c, disc, r1, r2, lo, hi, md, sd;
    double *d;
    size_t i;

    memset(out, 0, sizeof(*out));
    out->mean_t = out->mean_b = out->ratio = out->delta_percent = NAN;
    out->ci_ratio[0] = out->ci_ratio[1] = NAN;
    out->ci_delta_percent[0] = out->ci_delta_percent[1] = NAN;
    out->half_width = out->t = out->df = out->p_value = out->p_perm = NAN;
    out->n = n;
    if (n == 0)
        return;
    mt = gsl_stats_mean(t, 1, n);
    mb = gsl_stats_mean(b, 1, n);
    out->mean_t = mt;
    out->mean_b = mb;
    if (mb != 0) {
        out->ratio = mt / mb;
        out->delta_percent = 100.0 * (out->ratio - 1.0);
        out->has_ratio = 1;
    }
    if (n < 2)
        return;
    if (!(d = malloc(n * sizeof(*d))))
        return;
    for (i = 0; i < n; i++)
        d[i] = t[i] - b[i];
    md = gsl_stats_mean(d, 1, n);
    sd = gsl_stats_sd_m(d, 1, n, md);
    out->df = (double)(n - 1);
    if (sd > 0) {
        out->t = md / (sd / sqrt((double)n));
        out->p_value = 2.0 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
        if (out->p_value > 1.0)
            out->p_value = 1.0;
        out->has_test = 1;
        if (perm_resamples > 0)
            out->p_perm = sign_flip_p(d, n, perm_resamples, perm_seed, &out->perm_exact,
                                  &out->perm_resamples);
    }
    free(d);
    if (!out->has_ratio)
        return;

    /* Fieller with the pairs' covariance: squared standard errors of the
     * means and their covariance, each over n */
    vt = gsl_stats_variance_m(t, 1, n, mt) / (double)n;
    vb = gsl_stats_variance_m(b, 1, n, mb) / (double)n;
    cov = gsl_stats_covariance_m(t, 1, b, 1, n, mt, mb) / (double)n;
    q = gsl_cdf_tdist_Pinv(1 - (1 - VDC_STATS_CONFIDENCE) / 2, out->df);
    a = mb * mb - q * q * vb;
    bq = -2.0 * (mt * mb - q * q * cov);
    c = mt * mt - q * q * vt;
    disc = bq * bq - 4.0 * a * c;
    if (a <= 0 || disc < 0)
        return;
    r1 = (-bq - sqrt(disc)) / (2.0 * a);
    r2 = (-bq + sqrt(disc)) / (2.0 * a);
    lo = fmin(r1, r2);
    out->ci_cut = vdc_stats_ci_floor(&lo, 0.0);   /* a ratio of rates: the floor rule */
    hi = fmax(r1, r2);
    out->ci_ratio[0] = lo;
    out->ci_ratio[1] = hi;
    out->ci_delta_percent[0] = 100.0 * (lo - 1.0);
    out->ci_delta_percent[1] = 100.0 * (hi - 1.0);
    out->half_width = out->ratio > 0
        ? fmax(hi - out->ratio, out->ratio - lo) / out->ratio : INFINITY;
    out->has_ci = 1;
}

struct holm_item {
    double p;
    size_t i;
};

static int
holm_cmp(const void *x, const void *y)
{
    const struct holm_item *a = x, *b = y;

    if (a->p < b->p)
        return -1;
    if (a->p > b->p)
        return 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

void
vdc_stats_holm(const double *p, size_t m, double *adj)
{
    struct holm_item *it;
    size_t i, k = 0;
    double run = 0;

    for (i = 0; i < m; i++)
        adj[i] = NAN;
    if (!(it = malloc((m ? m : 1) * sizeof(*it))))
        return;
    for (i = 0; i < m; i++)
        if (!isnan(p[i]))
            it[k++] = (struct holm_item){ .p = p[i], .i = i };
    qsort(it, k, sizeof(*it), holm_cmp);
    for (i = 0; i < k; i++) {
        double v = fmin(1.0, (double)(k - i) * it[i].p);

        run = fmax(run, v);
        adj[it[i].i] = run;
    }
    free(it);
}

enum vdc_effect_class
vdc_effect_classify(double delta_percent, double lo, double hi, int has_ci, int significant)
{
    double mag = fabs(delta_percent);

    if (!has_ci || isnan(delta_percent))
        return VDC_EFFECT_NOT_TESTED;
    /* negligible only when the whole interval lies inside the band,
     * significant or not: a point estimate under 5 % whose interval
     * reaches past it has not shown the difference to be small */
    if (lo > -VDC_EFFECT_NEGLIGIBLE_PERCENT && hi < VDC_EFFECT_NEGLIGIBLE_PERCENT)
        return VDC_EFFECT_NEGLIGIBLE;
    if (!significant || mag < VDC_EFFECT_NEGLIGIBLE_PERCENT)
        return VDC_EFFECT_UNDECIDED;
    if (mag < VDC_EFFECT_LARGE_PERCENT)
        return VDC_EFFECT_MODERATE;
    return VDC_EFFECT_LARGE;
}

const char *
vdc_effect_class_name(enum vdc_effect_class c)
{
    switch (c) {
    case VDC_EFFECT_UNDECIDED: return "undecided";
    case VDC_EFFECT_NEGLIGIBLE: return "negligible";
    case VDC_EFFECT_MODERATE: return "moderate";
    case VDC_EFFECT_LARGE: return "large";
    case VDC_EFFECT_NOT_TESTED: return "not tested";
    case VDC_EFFECT_UNBOUNDED: return "unbounded";
    }
    return "?";
}

const char *
vdc_stop_reason_name(enum vdc_stop_reason r)
{
    switch (r) {
    case VDC_STOP_CONTINUE: return "continue";
    case VDC_STOP_PRECISION: return "precision reached";
    case VDC_STOP_MAX_RUNS: return "max runs";
    case VDC_STOP_NOT_MEASURABLE: return "not measurable";
    case VDC_STOP_FIXED: return "fixed runs";
    }
    return "?";
}

enum vdc_stop_reason
vdc_stats_stop_rule(const struct vdc_stats_paired *p, unsigned runs, unsigned min_runs,
                    unsigned max_runs, double precision)
{
    if (runs >= min_runs && p->has_ci && p->half_width <= precision)
        return VDC_STOP_PRECISION;
    if (runs >= max_runs)
        return p->has_ci ? VDC_STOP_MAX_RUNS : VDC_STOP_NOT_MEASURABLE;
    return VDC_STOP_CONTINUE;
}

/* log of the ratio of means of @n pairs and its delta-method variance
 * (NAN below 2 pairs); -1 when there is no ratio. */
static int
log_ratio(const double *t, const double *b, size_t n, double *lr, double *var)
{
    double mt = 0, mb = 0, md = 0, ss = 0;
    size_t i;

    if (n < 1)
        return -1;
    for (i = 0; i < n; i++) {
        mt += t[i] / (double)n;
        mb += b[i] / (double)n;
    }
    if (!(mt > 0) || !(mb > 0))
        return -1;
    *lr = log(mt / mb);
    *var = NAN;
    if (n < 2)
        return 0;
    for (i = 0; i < n; i++)
        md += (t[i] / mt - b[i] / mb) / (double)n;
    for (i = 0; i < n; i++) {
        double e = t[i] / mt - b[i] / mb - md;

        ss += e * e;
    }
    *var = ss / (double)(n - 1) / (double)n;
    return 0;
}

/* paired.h */
void
vdc_stats_ratio_move(const double *t0, const double *b0, size_t n0, const double *t1, const double *b1,
                     size_t n1, struct vdc_stats_move *out)
{
    double lr0, lr1, v0, v1, lm, se, q;

    memset(out, 0, sizeof(*out));
    out->ratio0 = out->ratio1 = out->ratio = out->percent = NAN;
    out->ci_percent[0] = out->ci_percent[1] = NAN;
    out->t = out->df = out->p_value = NAN;
    if (log_ratio(t0, b0, n0, &lr0, &v0) < 0 || log_ratio(t1, b1, n1, &lr1, &v1) < 0)
        return;
    lm = lr1 - lr0;
    out->ratio0 = exp(lr0);
    out->ratio1 = exp(lr1);
    out->ratio = exp(lm);
    out->percent = 100.0 * (out->ratio - 1);
    out->has_ratio = 1;
    if (isnan(v0) || isnan(v1) || !(v0 + v1 > 0))
        return;
    se = sqrt(v0 + v1);
    out->df = (v0 + v1) * (v0 + v1) / (v0 * v0 / (double)(n0 - 1) + v1 * v1 / (double)(n1 - 1));
    q = gsl_cdf_tdist_Pinv(1 - (1 - VDC_STATS_CONFIDENCE) / 2, out->df);
    out->ci_percent[0] = 100.0 * (exp(lm - q * se) - 1);
    out->ci_percent[1] = 100.0 * (exp(lm + q * se) - 1);
    out->has_ci = 1;
    out->t = lm / se;
    out->p_value = 2.0 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
    out->has_test = 1;
}

/* paired.h */
double
vdc_stats_runs_needed(int64_t n, double half_width, double target)
{
    if (n < 1 || !(half_width > 0) || !isfinite(half_width) || !(target > 0))
        return NAN;
    return ceil((double)n * (half_width / target) * (half_width / target));
}
