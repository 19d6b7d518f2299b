/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp statistics over many guests at once: Jain's fairness index of
 * the guests' rates and latency percentiles over all the guests' I/Os.
 * Pure functions on plain arrays; methods in doc/statistics.md ("Many
 * guests at once"). */
#ifndef VDC_STATS_POOLED_H
#define VDC_STATS_POOLED_H

#include <stddef.h>

/* Jain's fairness index of @n rates @x (Jain, Chiu, Hawe 1984):
 * (sum x)^2 / (n sum x^2), from 1/n (one guest got everything) to 1 (all
 * equal).  NAN when n is 0, a value is not finite or negative, or every
 * value is 0. */
double vdc_stats_jain(const double *x, size_t n);

/* One guest's latency distribution as the agent summarised it: the
 * latency (us) at quantile q[j] for j < n_knots, q ascending from 0 (the
 * minimum) to 1 (the maximum), e.g. min, p50, p90, p99, p99.9, p99.99,
 * max; @weight its I/O count.  Between two knots the distribution is
 * taken as uniform (its CDF linear), the one assumption the pooling adds
 * to the summaries. */
#define VDC_STATS_KNOTS_MAX 16
struct vdc_latency_knots {
    double q[VDC_STATS_KNOTS_MAX];
    double x[VDC_STATS_KNOTS_MAX];
    size_t n_knots;
    double weight;
};

/* The quantile @q (0 < q < 1) of the I/O-weighted mixture of @n guests'
 * distributions @g: the smallest x with sum_i w_i F_i(x) / sum_i w_i >= q,
 * F_i linear between guest i's knots (the mixture is then linear between
 * the union of all knots, so the answer is exact under that assumption,
 * found by one scan and one interpolation).  It lies between the lowest
 * and the highest guest's own q-quantile; it equals theirs when the
 * guests' distributions are equal.  A guest whose weight is 0 or NAN, or
 * whose knots are not ascending in q and x or do not start at q = 0 and
 * end at q = 1, makes the result NAN (the summaries cannot be pooled).
 * NAN when n is 0 or the weights sum to 0. */
double vdc_stats_mixture_quantile(const struct vdc_latency_knots *g, size_t n, double q);

#endif
