/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Statistics over many guests at once (pooled.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include <glib.h>

#include "stats/pooled.h"

double
vdc_stats_jain(const double *x, size_t n)
{
    double sum = 0, sum2 = 0;
    size_t i;

    if (!n)
        return NAN;
    for (i = 0; i < n; i++) {
        if (!isfinite(x[i]) || x[i] < 0)
            return NAN;
        sum += x[i];
        sum2 += x[i] * x[i];
    }
    if (sum2 <= 0)
        return NAN;
    return sum * sum / ((double)n * sum2);
}

/* 1 when @g can be pooled: a positive weight, 2 or more knots from q = 0
 * to q = 1, q strictly and x weakly ascending, all finite */
static int
knots_ok(const struct vdc_latency_knots *g)
{
    size_t j;

    if (!(g->weight > 0) || !isfinite(g->weight) || g->n_knots < 2 ||
        g->n_knots > VDC_STATS_KNOTS_MAX || g->q[0] != 0 || g->q[g->n_knots - 1] != 1)
        return 0;
    for (j = 0; j < g->n_knots; j++) {
        if (!isfinite(g->x[j]) || !isfinite(g->q[j]))
            return 0;
        if (j && (g->q[j] <= g->q[j - 1] || g->x[j] < g->x[j - 1]))
            return 0;
    }
    return 1;
}

/* F(x) of one guest: 0 below its minimum, 1 from its maximum, linear
 * between knots; at a latency several knots share, the highest q (the
 * CDF is right-continuous) */
static double
knots_cdf(const struct vdc_latency_knots *g, double x)
{
    size_t j;

    if (x < g->x[0])
        return 0;
    if (x >= g->x[g->n_knots - 1])
        return 1;
    for (j = 1; j < g->n_knots; j++) {
        if (x < g->x[j]) {
            /* g->x[j - 1] <= x < g->x[j]: a segment of positive length */
            return g->q[j - 1] + (g->q[j] - g->q[j - 1]) * (x - g->x[j - 1]) / (g->x[j] - g->x[j - 1]);
        }
    }
    return 1;
}

/* F(x-), the limit from the left: below x, where a latency several knots
 * share (a point mass) has not been counted yet */
static double
knots_cdf_left(const struct vdc_latency_knots *g, double x)
{
    size_t j;

    if (x <= g->x[0])
        return 0;
    for (j = 1; j < g->n_knots; j++) {
        if (x <= g->x[j]) {
            /* g->x[j - 1] < x <= g->x[j] */
            return g->q[j - 1] + (g->q[j] - g->q[j - 1]) * (x - g->x[j - 1]) / (g->x[j] - g->x[j - 1]);
        }
    }
    return 1;
}

static int
cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;

    return x < y ? -1 : x > y;
}

double
vdc_stats_mixture_quantile(const struct vdc_latency_knots *g, size_t n, double q)
{
    double wsum = 0, *xs, prev_x = NAN, prev_f = 0, result = NAN;
    size_t i, j, k, nx = 0;

    if (!n || !(q > 0 && q < 1))
        return NAN;
    for (i = 0; i < n; i++) {
        if (!knots_ok(&g[i]))
            return NAN;
        wsum += g[i].weight;
        nx += g[i].n_knots;
    }
    if (!(wsum > 0) || !isfinite(wsum))
        return NAN;
    /* the mixture's CDF is linear between consecutive points of the union
     * of the knots: find the first point where it reaches q */
    xs = g_new(double, nx);
    for (i = 0, k = 0; i < n; i++)
        for (j = 0; j < g[i].n_knots; j++)
            xs[k++] = g[i].x[j];
    qsort(xs, nx, sizeof(*xs), cmp_double);
    for (k = 0; k < nx; k++) {
        double f = 0, left = 0;

        if (k && xs[k] == xs[k - 1])
            continue;
        for (i = 0; i < n; i++) {
            f += g[i].weight * knots_cdf(&g[i], xs[k]);
            left += g[i].weight * knots_cdf_left(&g[i], xs[k]);
        }
        f /= wsum;
        left /= wsum;
        if (f >= q) {
            /* linear from (prev_x, prev_f) to (xs[k], left), then a jump
             * to f when guests hold a point mass at xs[k] */
            if (isnan(prev_x) || left < q || left <= prev_f)
                result = xs[k];
            else
                result = prev_x + (xs[k] - prev_x) * (q - prev_f) / (left - prev_f);
            break;
        }
        prev_x = xs[k];
        prev_f = f;
    }
    g_free(xs);
    return result;
}
