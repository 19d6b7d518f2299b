/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: log-linear latency histogram (the scheme of fio's
 * stat.c io_u_plat and of HdrHistogram: every power of two split into
 * 2^AGENT_HIST_SUB_BITS equal buckets).  Never stores samples: memory is
 * fixed (AGENT_HIST_BUCKETS counters), adding a sample is O(1), and
 * percentiles are derived at output time.
 *
 * Values are unsigned 64-bit integers (the agent records nanoseconds).
 * A value below 2^(SUB_BITS+1) has a bucket of its own (exact); above, a
 * bucket [lo, lo + w) has w = 2^k and lo >= w * 2^SUB_BITS, so the bucket
 * midpoint that agent_hist_percentile() returns is within
 * AGENT_HIST_REL_ERROR (1/256 for SUB_BITS 7) of every value in the bucket,
 * and in particular of the exact order statistic.  libc only, pure. */
#ifndef VDC_AGENT_HIST_H
#define VDC_AGENT_HIST_H

#include <stdint.h>

#define AGENT_HIST_SUB_BITS 7
#define AGENT_HIST_SUB (1u << AGENT_HIST_SUB_BITS)
/* groups 0 and 1 exact (values 0 .. 2*SUB-1), then one per power of two
 * 2^(SUB_BITS+1) .. 2^63 */
#define AGENT_HIST_GROUPS (64 - AGENT_HIST_SUB_BITS + 1)
#define AGENT_HIST_BUCKETS (AGENT_HIST_GROUPS * AGENT_HIST_SUB)
/* upper bound of |reported - exact| / exact for a percentile */
#define AGENT_HIST_REL_ERROR (1.0 / (double)(2u * AGENT_HIST_SUB))

struct agent_hist {
    uint64_t n;         /* samples added */
    uint64_t min, max;  /* exact extremes (min valid when n > 0) */
    double sum;         /* for the mean */
    uint64_t bucket[AGENT_HIST_BUCKETS];
};

void agent_hist_init(struct agent_hist *h);
/* Bucket index of @v (0 .. AGENT_HIST_BUCKETS-1). */
unsigned agent_hist_index(uint64_t v);
/* Smallest value of bucket @idx and its width (values lo .. lo+width-1). */
uint64_t agent_hist_bucket_low(unsigned idx, uint64_t *width);
void agent_hist_add(struct agent_hist *h, uint64_t v);
/* Add every sample of @src to @dst. */
void agent_hist_merge(struct agent_hist *dst, const struct agent_hist *src);
/* The @p-th percentile (0 < p <= 100) as fio's stat.c defines it: the
 * value of the sample of rank ceil(p/100 * n) (1-based, at least 1) in
 * sorted order, reported as its bucket's midpoint clamped to [min, max]
 * (p = 100 gives max exactly).  0 when the histogram is empty. */
uint64_t agent_hist_percentile(const struct agent_hist *h, double p);
double agent_hist_mean(const struct agent_hist *h);

#endif
