/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: log-linear latency histogram (see hist.h). */
#include "config.h"

#include <math.h>
#include <string.h>

#include "hist.h"

void
agent_hist_init(struct agent_hist *h)
{
    memset(h, 0, sizeof(*h));
}

unsigned
agent_hist_index(uint64_t v)
{
    unsigned msb, shift;

    if (v < 2u * AGENT_HIST_SUB)
        return (unsigned)v;     /* groups 0 and 1: exact */
    msb = 63u - (unsigned)__builtin_clzll(v);
    shift = msb - AGENT_HIST_SUB_BITS;
    /* group g = shift + 1 holds [2^msb, 2^(msb+1)) in SUB buckets */
    return (shift + 1u) * AGENT_HIST_SUB
           + (unsigned)((v >> shift) & (AGENT_HIST_SUB - 1u));
}

uint64_t
agent_hist_bucket_low(unsigned idx, uint64_t *width)
{
    unsigned group = idx / AGENT_HIST_SUB, off = idx % AGENT_HIST_SUB;

    if (group <= 1) {
        *width = 1;
        return idx;
    }
    *width = 1ull << (group - 1);
    return ((uint64_t)AGENT_HIST_SUB + off) << (group - 1);
}

void
agent_hist_add(struct agent_hist *h, uint64_t v)
{
    if (!h->n || v < h->min)
        h->min = v;
    if (v > h->max)
        h->max = v;
    h->n++;
    h->sum += (double)v;
    h->bucket[agent_hist_index(v)]++;
}

void
agent_hist_merge(struct agent_hist *dst, const struct agent_hist *src)
{
    if (!src->n)
        return;
    if (!dst->n || src->min < dst->min)
        dst->min = src->min;
    if (src->max > dst->max)
        dst->max = src->max;
    dst->n += src->n;
    dst->sum += src->sum;
    for (unsigned i = 0; i < AGENT_HIST_BUCKETS; i++)
        dst->bucket[i] += src->bucket[i];
}

uint64_t
agent_hist_percentile(const struct agent_hist *h, double p)
{
    uint64_t rank, seen = 0, width, v;

    if (!h->n)
        return 0;
    if (p >= 100.0)
        return h->max;
    rank = (uint64_t)ceil(p / 100.0 * (double)h->n);
    if (rank < 1)
        rank = 1;
    for (unsigned i = 0; i < AGENT_HIST_BUCKETS; i++) {
        seen += h->bucket[i];
        if (seen >= rank) {
            v = agent_hist_bucket_low(i, &width);
            v += width / 2;
            if (v < h->min)
                v = h->min;
            if (v > h->max)
                v = h->max;
            return v;
        }
    }
    return h->max;
}

double
agent_hist_mean(const struct agent_hist *h)
{
    return h->n ? h->sum / (double)h->n : 0.0;
}
