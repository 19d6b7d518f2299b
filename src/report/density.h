/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp density analysis: what N domUs of one target did together, at
 * each level of --guests (runs[].level, runs[].guest, runs[].release,
 * experiment.levels[]; doc/result-format.md).
 *
 * Part of the analysis (report/analysis.h: vdc_analysis.density, built
 * once by vdc_analysis_build; renderers only print it).  A cell is one
 * (level N, target, test key); its repetition r holds N values, one per
 * guest, and counts only when every guest has a value (a level with a
 * guest missing is counted in n_incomplete, never summed short).  Per
 * repetition:
 *   aggregate     the sum of the N guests' rates in the test's unit (each
 *                 guest's rate over its own window; the windows overlap to
 *                 within the start skew, which is why a skew above
 *                 VDC_DENSITY_SKEW_SHARE of the shortest window flags it);
 *   jain          Jain's fairness index of the N rates (stats/pooled.h);
 *   p50/p99/p99_9 workload keys: completion latency over all N guests'
 *                 I/Os, the I/O-weighted mixture of the guests' summaries
 *                 (vdc_stats_mixture_quantile: each guest's clat_us min,
 *                 p50, p90, p99, p99.9, p99.99, max, linear between them,
 *                 weighted by clat_us.n);
 *   skew_s        max - min of the guests' release.started_s (else the
 *                 level record's start_skew_s).
 * Pairs: each image target (targets[].kind "image") against each LV or
 * block target at the same level and test, paired by repetition number
 * (the same seeds), on the aggregate and on the pooled p99
 * (stats/paired.h), their p values Holm-corrected within the family of
 * one pair of targets at one level (every test's aggregate and p99).  Methods: doc/statistics.md "Many guests at once". */
#ifndef VDC_REPORT_DENSITY_H
#define VDC_REPORT_DENSITY_H

#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "model/result.h"
#include "stats/paired.h"
#include "stats/stats.h"

/* A start skew above this share of the shortest guest's elapsed time
 * flags the cell: the guests did not run side by side for all of it. */
#define VDC_DENSITY_SKEW_SHARE 0.05

struct vdc_density_cell {
    int64_t level;           /* N, the guests booted together */
    size_t target;           /* index into vdc_density.targets */
    size_t test;             /* index into vdc_density.tests */
    const char *unit;        /* the test's unit ("IO/sec", "K/sec"), static */
    size_t n_reps;           /* repetitions with every guest valued */
    size_t n_incomplete;     /* repetitions left out: a guest without a value,
                              * n_failed + n_no_value */
    size_t n_failed;         /* of those, the ones where a guest failed (its run's
                              * status not "ok", or its sample failed): each one in
                              * vdc_density.failures */
    size_t n_no_value;       /* the rest: no guest failed, one gave no number (its
                              * sample of the test missing, or null: e.g. no I/O
                              * in its window) */
    int64_t *rep;            /* n_reps repetition numbers, ascending */
    double *aggregate;       /* n_reps: sum of the guests' values, unit */
    double *kib_s;           /* n_reps: workload keys, sum of bandwidth_kib_s; NAN */
    double *jain;            /* n_reps */
    double *p50, *p99, *p99_9;   /* n_reps: pooled completion latency, us; NAN */
    double *skew_s;          /* n_reps: start skew, s; NAN not recorded */
    double *guest;           /* level entries: guest g's mean value over the n_reps */
    size_t slowest, fastest; /* guests with the lowest and highest mean (n_reps > 0) */
    struct vdc_stats_summary sum;    /* of aggregate */
    double kib_s_mean;       /* NAN */
    double jain_mean, jain_min;      /* NAN when n_reps is 0 */
    double p50_mean, p99_mean, p99_9_mean;  /* means over the repetitions; NAN */
    double skew_max_s;       /* NAN */
    int skewed;              /* a repetition's skew above VDC_DENSITY_SKEW_SHARE of
                              * its shortest guest's elapsed_s */
};

struct vdc_density_pair {
    int64_t level;
    size_t test;                     /* index into vdc_density.tests */
    size_t target, reference;        /* indexes into vdc_density.targets: image, LV/block */
    struct vdc_stats_paired agg;     /* aggregate, target against reference */
    struct vdc_stats_paired p99;     /* pooled p99 (lower is better: ratio < 1 the
                                      * target's tail is shorter); p99.n 0: none */
    /* Holm within the family: every p of one (level, target, reference),
     * the aggregate of each test and the p99 of each test that has one;
     * NAN when not tested */
    double agg_p_holm, p99_p_holm;
    size_t n_family;                 /* the p values of that family (Holm's k) */
    int agg_significant, p99_significant;   /* Holm p under VDC_STATS_ALPHA */
    enum vdc_effect_class agg_effect, p99_effect;  /* vdc_effect_classify */
    int p99_flat;                    /* the paired p99 differences did not vary: the
                                      * interval has no width, so none is given */
    /* the pairs are fewer than a cell's repetitions (one side has a
     * repetition the other lacks): agg.mean_t and agg.mean_b (p99.mean_t,
     * p99.mean_b) then differ from the cells' means, and are printed */
    int agg_short, p99_short;
};

/* A guest that failed at a level (a run with a level whose status is not
 * "ok", or a failed sample of an ok run): its repetition is left out of
 * the level's cells (of every test for a run, of the sample's test for a
 * sample) */
struct vdc_density_failure {
    int64_t level;
    size_t target;           /* index into vdc_density.targets */
    int64_t rep;             /* runs[].repetition */
    int64_t guest;           /* runs[].guest */
    long test;               /* index into vdc_density.tests; -1: the whole run */
    char *status;            /* "failed", "timeout" (the sample's: "failed") */
    char *error;             /* one line (newlines made spaces); NULL none recorded */
};

/* Roles of a level's host cost the report shows, in order (levels[].host
 * cpu_s members). */
#define VDC_DENSITY_HOST_ROLES 5
extern const char *const vdc_density_host_roles[VDC_DENSITY_HOST_ROLES];

/* A level's host cost for one target (experiment.levels[].host of its ok
 * records, doc/result-format.md): means over the repetitions that have a
 * figure, each role's n apart (a role unknown in one repetition is left
 * out of that one, never taken as 0). */
struct vdc_density_host {
    size_t n;                /* ok level records with a host object */
    size_t n_role[VDC_DENSITY_HOST_ROLES];
    double cpu_s[VDC_DENSITY_HOST_ROLES];       /* CPU s over the level's window */
    double per_kio[VDC_DENSITY_HOST_ROLES];     /* CPU s per 1,000 I/Os; NAN */
    double per_gib[VDC_DENSITY_HOST_ROLES];     /* CPU s per GiB; NAN */
    double ios, bytes;       /* what the backends moved, mean; NAN */
    int loop_shared;         /* an image's loop work: inside dom0_other */
    double memory_bytes[2], cached_bytes[2], dirty_bytes[2];   /* [release, end] means; NAN */
};

struct vdc_density {
    int64_t *levels;         /* ascending; n_levels 0: no run has a level */
    size_t n_levels;
    char **targets;          /* targets with runs at a level, in the set's order */
    size_t n_targets;
    char **tests;            /* test keys measured at a level */
    size_t n_tests;
    struct vdc_density_cell *cells;  /* n_levels x n_targets x n_tests */
    struct vdc_density_pair *pairs;
    size_t n_pairs;
    int64_t *stops;          /* n_targets x n_tests: the level N at which the target
                              * stops scaling: the next level's aggregate is not
                              * larger than at N with its interval (the next level's
                              * 95 % CI of the mean reaches down to N's mean); 0 when
                              * every next level is larger, or it has fewer than two
                              * levels with an interval */
    struct vdc_density_failure *failures;   /* by level, target, repetition, guest */
    size_t n_failures;
    struct vdc_density_host *host;   /* n_levels x n_targets (vdc_density_host_at),
                                      * NULL when no level record has a host object */
};

void vdc_density_init(struct vdc_density *d);
void vdc_density_dispose(struct vdc_density *d);

/* Build @d from @rs (summaries with @opt, no outlier policy: a slow guest
 * is the finding, not an outlier).  Runs without a level member make no
 * density analysis (n_levels 0) unless the target has runs with one.
 * 0, or -1 after vdc_error. */
int vdc_density_build(struct vdc_density *d, const vdc_result_set *rs,
                      const struct vdc_stats_options *opt);

/* The level at which target @ti stops scaling on test @ki, 0 none. */
int64_t vdc_density_stops(const struct vdc_density *d, size_t ti, size_t ki);

/* d->host from @rs's experiment.levels[] (report/density_host.c): the
 * ok records of each (level, target) with a host object. */
void vdc_density_host_build(struct vdc_density *d, const vdc_result_set *rs);
/* The host cost of (level index @li, target @ti), or NULL when none. */
const struct vdc_density_host *vdc_density_host_at(const struct vdc_density *d, size_t li,
                                                   size_t ti);

/* 1 when target @ti stops scaling on test @ki and the next level's 95 %
 * interval of the mean aggregate lies at or below that level's mean (it
 * stops, not only "not shown to scale": an interval reaching that mean
 * from either side, whichever way the next mean went). */
int vdc_density_stop_shown(const struct vdc_density *d, size_t ti, size_t ki);

/* The cell of (level index @li, target @ti, test @ki). */
const struct vdc_density_cell *vdc_density_cell(const struct vdc_density *d, size_t li,
                                                size_t ti, size_t ki);

struct vdc_analysis;

/* The name of density test @ki of @a as the field says it (the
 * analysis's test label: "Sequential output, block", "rr4k (file), read
 * IOPS", "Sequential output, block (first-write)"), into @buf. */
const char *vdc_density_test_label(const struct vdc_analysis *a, size_t ki, char *buf, size_t size);

/* Where target @ti stops scaling on test @ki in words, or NULL when it
 * does not: "stops scaling at 1 guest: the aggregate at 3 (8743 [7100,
 * 10387], 3 repetitions) is not larger than at 1 (9000)"; when the next
 * level is larger on average but its interval reaches down to N's mean,
 * "not shown to scale past 1 guest: the aggregate at 3 (...) is larger on
 * average than at 1 (...) but its interval reaches down to it: more
 * repetitions tell" (g_free). */
char *vdc_density_stop_text(const struct vdc_analysis *a, size_t ti, size_t ki);

/* How sure one quantity of pair @p is, onto @s (the aggregate, or the
 * p99 when @p99): " [-7.5 %, -2.5 %], p = 0.011 (Holm, 4 tests;
 * unadjusted = 0.0028), moderate" (without the % signs unless @with_pct),
 * ", no interval (why)" when there is none (a p99 whose paired differences
 * never varied, under 2 pairs, an unbounded ratio); "size undecided" for a
 * significant delta whose class is undecided.  The same words in the
 * section and the answer. */
void vdc_density_sure_text(GString *s, const struct vdc_density_pair *p, int p99, int with_pct);

/* The means pair @p compares, onto @s, when the pairs are fewer than a
 * cell's repetitions (agg_short, or p99_short when @p99): " (image 735.7
 * against lvm 398.6 over the 2 repetitions both completed)", @unit after
 * each number when not NULL; nothing otherwise (the cells' means are the
 * compared ones). */
void vdc_density_paired_means_text(GString *s, const struct vdc_density *d, const struct vdc_density_pair *p,
                                   int p99, const char *unit);

/* Why cell @c left repetitions out, onto @s (nothing when none): "1
 * repetition left out (a guest failed: g0 in repetition 2)", "2
 * repetitions left out (a guest ran but gave no value)", or both joined by
 * "; ". */
void vdc_density_left_out_text(GString *s, const struct vdc_density *d, const struct vdc_density_cell *c);

/* Failure @f in words (one line, unescaped): "lvm at 3 guests, repetition
 * 2: guest g0 failed: agent result refused: ...; that repetition is left
 * out of every test at this level" (the test's label instead when the
 * failure is one sample's) (g_free). */
char *vdc_density_failure_text(const struct vdc_analysis *a, const struct vdc_density_failure *f);

#endif
