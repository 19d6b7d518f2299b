/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The density analysis (density.h): many guests at once, per level. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "model/target.h"
#include "report/analysis.h"
#include "report/density.h"
#include "report/render_fmt.h"
#include "stats/pooled.h"

void
vdc_density_init(struct vdc_density *d)
{
    memset(d, 0, sizeof(*d));
}

static void
cell_dispose(struct vdc_density_cell *c)
{
    g_free(c->rep);
    g_free(c->aggregate);
    g_free(c->kib_s);
    g_free(c->jain);
    g_free(c->p50);
    g_free(c->p99);
    g_free(c->p99_9);
    g_free(c->skew_s);
    g_free(c->guest);
}

void
vdc_density_dispose(struct vdc_density *d)
{
    size_t i, n = d->n_levels * d->n_targets * d->n_tests;

    for (i = 0; d->cells && i < n; i++)
        cell_dispose(&d->cells[i]);
    g_free(d->cells);
    g_free(d->levels);
    g_strfreev(d->targets);
    g_strfreev(d->tests);
    g_free(d->pairs);
    for (i = 0; i < d->n_failures; i++) {
        g_free(d->failures[i].status);
        g_free(d->failures[i].error);
    }
    g_free(d->failures);
    g_free(d->stops);
    g_free(d->host);
    vdc_density_init(d);
}

const struct vdc_density_cell *
vdc_density_cell(const struct vdc_density *d, size_t li, size_t ti, size_t ki)
{
    return &d->cells[(li * d->n_targets + ti) * d->n_tests + ki];
}

/* One run's samples by test key, computed once */
typedef struct {
    const vdc_run *run;
    char **keys;             /* n_samples keys of run->samples */
} keyed_run;

/* The guests of one repetition of a cell: sample and run per guest */
typedef struct {
    int64_t rep;
    const vdc_sample **s;    /* level entries, NULL: no sample */
    const vdc_run **r;
} rep_guests;

static int
cmp_int64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

    return x < y ? -1 : x > y;
}

static int
cmp_rep(const void *a, const void *b)
{
    const rep_guests *x = *(rep_guests *const *)a, *y = *(rep_guests *const *)b;

    return cmp_int64(&x->rep, &y->rep);
}

/* The knots of a workload sample's completion latency, weighted by its
 * count; 0 when it has none that can be pooled */
static int
latency_knots(const vdc_sample *s, struct vdc_latency_knots *k)
{
    const vdc_latency_us *l;
    const double q[] = { 0, 0.5, 0.9, 0.99, 0.999, 0.9999, 1 };
    double x[7];
    size_t j;

    if (!s->workload)
        return 0;
    l = &s->workload->clat_us;
    x[0] = l->min; x[1] = l->p50; x[2] = l->p90; x[3] = l->p99;
    x[4] = l->p99_9; x[5] = l->p99_99; x[6] = l->max;
    k->n_knots = 0;
    k->weight = l->n != VDC_INT_ABSENT ? (double)l->n
              : s->workload->ios != VDC_INT_ABSENT ? (double)s->workload->ios : NAN;
    for (j = 0; j < G_N_ELEMENTS(q); j++) {
        if (!vdc_has(x[j]))
            continue;
        k->q[k->n_knots] = q[j];
        k->x[k->n_knots++] = x[j];
    }
    return k->n_knots >= 2;
}

/* The start skew of a level's repetition: from the guests' release, else
 * the level record's */
static double
rep_skew(const vdc_result_set *rs, const rep_guests *g, int64_t level, const char *target)
{
    double lo = INFINITY, hi = -INFINITY;
    size_t i;

    for (i = 0; i < (size_t)level; i++) {
        double t = g->r[i]->release.started_s;

        if (!vdc_has(t))
            break;
        lo = fmin(lo, t);
        hi = fmax(hi, t);
    }
    if (i == (size_t)level)
        return hi - lo;
    for (i = 0; rs->has_experiment && i < rs->experiment.n_levels; i++) {
        const vdc_level_record *l = &rs->experiment.levels[i];

        if (l->guests == level && l->repetition == g->rep && !g_strcmp0(l->target, target))
            return l->start_skew_s;
    }
    return NAN;
}

static double
mean_of(const double *x, size_t n)
{
    double s = 0;
    size_t i, m = 0;

    for (i = 0; i < n; i++) {
        if (vdc_has(x[i])) {
            s += x[i];
            m++;
        }
    }
    return m ? s / (double)m : NAN;
}

/* Fill cell @c from the complete repetitions @reps (@n of them) */
static int
cell_fill(struct vdc_density_cell *c, const vdc_result_set *rs, const char *target,
          rep_guests **reps, size_t n, const struct vdc_stats_options *opt)
{
    size_t L = (size_t)c->level, i, g;
    struct vdc_latency_knots *k = g_new(struct vdc_latency_knots, L);
    double *v = g_new(double, L);
    int rc;

    c->rep = g_new(int64_t, n);
    c->aggregate = g_new(double, n);
    c->kib_s = g_new(double, n);
    c->jain = g_new(double, n);
    c->p50 = g_new(double, n);
    c->p99 = g_new(double, n);
    c->p99_9 = g_new(double, n);
    c->skew_s = g_new(double, n);
    c->guest = g_new0(double, L);
    c->n_reps = n;
    for (i = 0; i < n; i++) {
        double sum = 0, kib = 0, shortest = INFINITY;
        int pooled = 1;

        for (g = 0; g < L; g++) {
            const vdc_sample *s = reps[i]->s[g];

            v[g] = s->value;
            sum += s->value;
            c->guest[g] += s->value / (double)n;
            kib = s->workload && vdc_has(kib) ? kib + s->workload->bandwidth_kib_s : NAN;
            if (vdc_has(s->elapsed_s))
                shortest = fmin(shortest, s->elapsed_s);
            if (pooled && !latency_knots(s, &k[g]))
                pooled = 0;
        }
        c->rep[i] = reps[i]->rep;
        c->aggregate[i] = sum;
        c->kib_s[i] = kib;
        c->jain[i] = vdc_stats_jain(v, L);
        c->p50[i] = pooled ? vdc_stats_mixture_quantile(k, L, 0.5) : NAN;
        c->p99[i] = pooled ? vdc_stats_mixture_quantile(k, L, 0.99) : NAN;
        c->p99_9[i] = pooled ? vdc_stats_mixture_quantile(k, L, 0.999) : NAN;
        c->skew_s[i] = rep_skew(rs, reps[i], c->level, target);
        if (vdc_has(c->skew_s[i]) && isfinite(shortest) &&
            c->skew_s[i] > VDC_DENSITY_SKEW_SHARE * shortest)
            c->skewed = 1;
    }
    for (g = 1, c->slowest = c->fastest = 0; n && g < L; g++) {
        if (c->guest[g] < c->guest[c->slowest])
            c->slowest = g;
        if (c->guest[g] > c->guest[c->fastest])
            c->fastest = g;
    }
    rc = vdc_stats_summarize(c->aggregate, n, opt, &c->sum);
    vdc_stats_summary_floor(&c->sum);   /* a sum of rates: the floor rule (stats.h) */
    c->kib_s_mean = mean_of(c->kib_s, n);
    c->jain_mean = mean_of(c->jain, n);
    c->jain_min = NAN;
    for (i = 0; i < n; i++)
        if (vdc_has(c->jain[i]) && !(c->jain_min <= c->jain[i]))
            c->jain_min = c->jain[i];
    c->p50_mean = mean_of(c->p50, n);
    c->p99_mean = mean_of(c->p99, n);
    c->p99_9_mean = mean_of(c->p99_9, n);
    c->skew_max_s = NAN;
    for (i = 0; i < n; i++)
        if (vdc_has(c->skew_s[i]) && !(c->skew_max_s >= c->skew_s[i]))
            c->skew_max_s = c->skew_s[i];
    g_free(k);
    g_free(v);
    return rc;
}

/* Append a failure of guest @guest of (@level, @target, @rep) to @fail */
static void
failure_add(GArray *fail, int64_t level, size_t target, int64_t rep, int64_t guest, long test,
            const char *status, const char *error)
{
    struct vdc_density_failure f = { .level = level, .target = target, .rep = rep, .guest = guest,
                                     .test = test, .status = g_strdup(status), .error = g_strdup(error) };

    if (f.error)
        g_strdelimit(f.error, "\n\r\t", ' ');
    g_array_append_val(fail, f);
}

/* 1 when @fail holds a failed run of (@level, @target, @rep) */
static int
run_failed(const GArray *fail, int64_t level, size_t target, int64_t rep)
{
    size_t i;

    for (i = 0; i < fail->len; i++) {
        const struct vdc_density_failure *f = &g_array_index(fail, struct vdc_density_failure, i);

        if (f->test < 0 && f->level == level && f->target == target && f->rep == rep)
            return 1;
    }
    return 0;
}

/* 1 when repetition @g of cell @c was left out because a guest failed:
 * its run failed (in @fail), or its sample did (appended to @fail) */
static int
rep_failed(const struct vdc_density_cell *c, const rep_guests *g, GArray *fail)
{
    int failed = run_failed(fail, c->level, c->target, g->rep);
    size_t j;

    for (j = 0; j < (size_t)c->level; j++) {
        if (g->s[j] && g->s[j]->failed) {
            failure_add(fail, c->level, c->target, g->rep, (int64_t)j, (long)c->test, "failed",
                        g->s[j]->error);
            failed = 1;
        }
    }
    return failed;
}

/* Build the cell (level, target, test key) from the keyed runs; a
 * failure of one of its guests onto @fail */
static int
cell_build(struct vdc_density_cell *c, const vdc_result_set *rs, const keyed_run *kr, size_t n_kr,
           const char *target, const char *key, GArray *fail, const struct vdc_stats_options *opt)
{
    GHashTable *by_rep = g_hash_table_new_full(g_int64_hash, g_int64_equal, NULL, NULL);
    GPtrArray *all = g_ptr_array_new(), *complete = g_ptr_array_new();
    size_t i, j, L = (size_t)c->level;
    const vdc_test_info *ti;
    int64_t bs;
    int rc = 0;

    ti = vdc_test_key_parse(key, &bs);
    c->unit = ti ? ti->unit : NULL;
    for (i = 0; i < n_kr; i++) {
        const vdc_run *r = kr[i].run;
        rep_guests *g;

        if (vdc_run_level(r) != c->level || g_strcmp0(r->target, target))
            continue;
        for (j = 0; j < r->n_samples; j++)
            if (!strcmp(kr[i].keys[j], key))
                break;
        if (j == r->n_samples)
            continue;
        if (vdc_run_guest(r) >= c->level)
            continue;   /* the loader refuses it; a set built in code may not */
        g = g_hash_table_lookup(by_rep, &r->repetition);
        if (!g) {
            g = g_new0(rep_guests, 1);
            g->rep = r->repetition;
            g->s = g_new0(const vdc_sample *, L);
            g->r = g_new0(const vdc_run *, L);
            g_hash_table_insert(by_rep, &g->rep, g);
            g_ptr_array_add(all, g);
        }
        g->s[vdc_run_guest(r)] = r->samples[j];
        g->r[vdc_run_guest(r)] = r;
    }
    g_ptr_array_sort(all, cmp_rep);
    for (i = 0; i < all->len; i++) {
        rep_guests *g = all->pdata[i];

        for (j = 0; j < L; j++)
            if (!g->s[j] || !vdc_has(g->s[j]->value) || g->s[j]->failed)
                break;
        if (j == L) {
            g_ptr_array_add(complete, g);
        } else {
            c->n_incomplete++;
            if (rep_failed(c, g, fail))
                c->n_failed++;
            else
                c->n_no_value++;
        }
    }
    if (all->len)
        rc = cell_fill(c, rs, target, (rep_guests **)complete->pdata, complete->len, opt);
    for (i = 0; i < all->len; i++) {
        rep_guests *g = all->pdata[i];

        g_free(g->s);
        g_free(g->r);
        g_free(g);
    }
    g_ptr_array_free(all, TRUE);
    g_ptr_array_free(complete, TRUE);
    g_hash_table_destroy(by_rep);
    return rc;
}

/* Pair values of @t and @b by repetition number into @x, @y; the count */
static size_t
pair_values(const struct vdc_density_cell *t, const struct vdc_density_cell *b,
            const double *tv, const double *bv, double *x, double *y)
{
    size_t i = 0, j = 0, n = 0;

    while (i < t->n_reps && j < b->n_reps) {
        if (t->rep[i] < b->rep[j]) {
            i++;
        } else if (t->rep[i] > b->rep[j]) {
            j++;
        } else {
            if (vdc_has(tv[i]) && vdc_has(bv[j])) {
                x[n] = tv[i];
                y[n++] = bv[j];
            }
            i++;
            j++;
        }
    }
    return n;
}

/* 1 when target @name of @rs has the backing kind @k (image, lvm, block) */
static int
target_backing(const vdc_result_set *rs, const char *name, vdc_backing k)
{
    const vdc_target *t = vdc_result_set_find_target(rs, name);
    vdc_target_spec s = { 0 };

    return t && vdc_target_kind_parse(t->kind, &s) == 0 && s.where == VDC_WHERE_DOMU && s.backing == k;
}

/* 1 when the paired values @x, @y (@n) differ by the same amount in
 * every pair: a Fieller interval of no width, no spread to bound */
static int
flat_differences(const double *x, const double *y, size_t n)
{
    size_t i;

    for (i = 1; i < n; i++)
        if (x[i] - y[i] != x[0] - y[0])
            return 0;
    return n >= 1;
}

/* Holm within each family of pairs, one (level, target, reference): the
 * p of every test's aggregate and p99; then each one's class */
static void
holm_families(struct vdc_density *d)
{
    gboolean *done = g_new0(gboolean, d->n_pairs + 1);
    size_t i, j;

    for (i = 0; i < d->n_pairs; i++) {
        struct vdc_density_pair *p = &d->pairs[i];
        size_t m = 0, k;
        double *pv, *adj;

        if (done[i])
            continue;   /* its family is done */
        pv = g_new(double, 2 * d->n_pairs);
        adj = g_new(double, 2 * d->n_pairs);
        for (j = i; j < d->n_pairs; j++) {
            const struct vdc_density_pair *q = &d->pairs[j];

            if (q->level != p->level || q->target != p->target || q->reference != p->reference)
                continue;
            pv[m++] = q->agg.has_test ? q->agg.p_value : NAN;
            pv[m++] = q->p99.has_test ? q->p99.p_value : NAN;
        }
        vdc_stats_holm(pv, m, adj);
        for (k = j = 0; j < m; j++)
            k += !isnan(pv[j]);
        for (m = 0, j = i; j < d->n_pairs; j++) {
            struct vdc_density_pair *q = &d->pairs[j];

            if (q->level != p->level || q->target != p->target || q->reference != p->reference)
                continue;
            done[j] = TRUE;
            q->agg_p_holm = adj[m++];
            q->p99_p_holm = adj[m++];
            q->n_family = k;
            q->agg_significant = !isnan(q->agg_p_holm) && q->agg_p_holm < VDC_STATS_ALPHA;
            q->p99_significant = !isnan(q->p99_p_holm) && q->p99_p_holm < VDC_STATS_ALPHA;
            /* a test with an interval of no bound: unbounded (undecided),
             * as the headline's rows (headline.c, decide_pair) */
            q->agg_effect = q->agg.has_test && !q->agg.has_ci ? VDC_EFFECT_UNBOUNDED
                          : vdc_effect_classify(q->agg.delta_percent, q->agg.ci_delta_percent[0],
                                                q->agg.ci_delta_percent[1], q->agg.has_ci, q->agg_significant);
            q->p99_effect = q->p99_flat ? VDC_EFFECT_NOT_TESTED
                          : q->p99.has_test && !q->p99.has_ci ? VDC_EFFECT_UNBOUNDED
                          : vdc_effect_classify(q->p99.delta_percent, q->p99.ci_delta_percent[0],
                                                q->p99.ci_delta_percent[1], q->p99.has_ci, q->p99_significant);
        }
        g_free(pv);
        g_free(adj);
    }
    g_free(done);
}

static void
build_pairs(struct vdc_density *d, const vdc_result_set *rs)
{
    GArray *a = g_array_new(FALSE, TRUE, sizeof(struct vdc_density_pair));
    size_t li, ti, bi, ki;

    for (li = 0; li < d->n_levels; li++)
        for (ki = 0; ki < d->n_tests; ki++)
            for (ti = 0; ti < d->n_targets; ti++) {
                if (!target_backing(rs, d->targets[ti], VDC_BACKING_IMAGE))
                    continue;
                for (bi = 0; bi < d->n_targets; bi++) {
                    const struct vdc_density_cell *t = vdc_density_cell(d, li, ti, ki);
                    const struct vdc_density_cell *b = vdc_density_cell(d, li, bi, ki);
                    struct vdc_density_pair p = { .level = d->levels[li], .test = ki,
                                                  .target = ti, .reference = bi };
                    size_t m = MIN(t->n_reps, b->n_reps), n;
                    double *x, *y;

                    if (!(target_backing(rs, d->targets[bi], VDC_BACKING_LVM) ||
                          target_backing(rs, d->targets[bi], VDC_BACKING_BLOCK)) || !m)
                        continue;
                    x = g_new(double, m);
                    y = g_new(double, m);
                    n = pair_values(t, b, t->aggregate, b->aggregate, x, y);
                    vdc_stats_compare_paired(x, y, n, VDC_STATS_PERM_RESAMPLES,
                                             VDC_STATS_PERM_SEED, &p.agg);
                    n = pair_values(t, b, t->p99, b->p99, x, y);
                    vdc_stats_compare_paired(x, y, n, VDC_STATS_PERM_RESAMPLES,
                                             VDC_STATS_PERM_SEED, &p.p99);
                    p.p99_flat = n >= 2 && flat_differences(x, y, n);
                    p.agg_short = p.agg.n < t->n_reps || p.agg.n < b->n_reps;
                    p.p99_short = p.p99.has_ratio && (p.p99.n < t->n_reps || p.p99.n < b->n_reps);
                    g_free(x);
                    g_free(y);
                    g_array_append_val(a, p);
                }
            }
    d->n_pairs = a->len;
    d->pairs = (struct vdc_density_pair *)g_array_free(a, FALSE);
    holm_families(d);
}

/* Where each target stops scaling: the first level N whose next level
 * (with values) is not larger with its interval: that level's 95 % CI of
 * the mean aggregate reaches down to N's mean.  A level without an
 * interval (under 2 repetitions) decides nothing: the search ends there. */
static void
build_stops(struct vdc_density *d)
{
    size_t ti, ki, li;

    d->stops = g_new0(int64_t, d->n_targets * d->n_tests + 1);
    for (ti = 0; ti < d->n_targets; ti++)
        for (ki = 0; ki < d->n_tests; ki++) {
            const struct vdc_density_cell *prev = NULL;

            for (li = 0; li < d->n_levels; li++) {
                const struct vdc_density_cell *c = vdc_density_cell(d, li, ti, ki);

                if (!c->n_reps)
                    continue;
                if (prev && !c->sum.has_ci_mean)
                    break;
                if (prev && c->sum.ci_mean[0] <= prev->sum.mean) {
                    d->stops[ti * d->n_tests + ki] = prev->level;
                    break;
                }
                prev = c;
            }
        }
}

static int
cmp_failure(const void *a, const void *b)
{
    const struct vdc_density_failure *x = a, *y = b;

    if (x->level != y->level)
        return x->level < y->level ? -1 : 1;
    if (x->target != y->target)
        return x->target < y->target ? -1 : 1;
    if (x->rep != y->rep)
        return x->rep < y->rep ? -1 : 1;
    if (x->guest != y->guest)
        return x->guest < y->guest ? -1 : 1;
    return x->test < y->test ? -1 : x->test > y->test;
}

int
vdc_density_build(struct vdc_density *d, const vdc_result_set *rs,
                  const struct vdc_stats_options *opt)
{
    GArray *levels = g_array_new(FALSE, FALSE, sizeof(int64_t));
    GArray *fail = g_array_new(FALSE, TRUE, sizeof(struct vdc_density_failure));
    GPtrArray *targets = g_ptr_array_new(), *tests = g_ptr_array_new();
    keyed_run *kr = g_new0(keyed_run, rs->n_runs);
    char **all_keys = NULL;
    size_t i, j, n_kr = 0, li, ti, ki;
    int rc = 0;

    vdc_density_dispose(d);
    /* the targets that ran at a level */
    for (i = 0; i < rs->n_runs; i++) {
        const vdc_run *r = rs->runs[i];

        if (r->level == VDC_INT_ABSENT || !r->target)
            continue;
        for (j = 0; j < targets->len; j++)
            if (!strcmp(targets->pdata[j], r->target))
                break;
        if (j == targets->len)
            g_ptr_array_add(targets, g_strdup(r->target));
    }
    /* their runs, keyed once; the levels they ran at */
    for (i = 0; i < rs->n_runs; i++) {
        const vdc_run *r = rs->runs[i];
        int64_t lv = vdc_run_level(r);

        for (j = 0; j < targets->len; j++)
            if (!g_strcmp0(targets->pdata[j], r->target))
                break;
        if (j == targets->len)
            continue;
        if (r->status && strcmp(r->status, "ok"))
            failure_add(fail, lv, j, r->repetition, vdc_run_guest(r), -1, r->status, r->error);
        kr[n_kr].run = r;
        kr[n_kr].keys = g_new0(char *, r->n_samples + 1);
        for (j = 0; j < r->n_samples; j++)
            kr[n_kr].keys[j] = vdc_sample_key(r->samples[j]);
        n_kr++;
        for (j = 0; j < levels->len; j++)
            if (g_array_index(levels, int64_t, j) == lv)
                break;
        if (j == levels->len)
            g_array_append_val(levels, lv);
    }
    g_array_sort(levels, cmp_int64);
    /* the test keys they measured, in the set's key order */
    all_keys = vdc_result_set_test_keys(rs, NULL);
    for (i = 0; all_keys[i]; i++) {
        for (j = 0; j < n_kr; j++) {
            size_t s;

            for (s = 0; s < kr[j].run->n_samples; s++)
                if (!strcmp(kr[j].keys[s], all_keys[i]))
                    break;
            if (s < kr[j].run->n_samples)
                break;
        }
        if (j < n_kr)
            g_ptr_array_add(tests, g_strdup(all_keys[i]));
    }
    g_strfreev(all_keys);
    d->n_levels = levels->len;
    d->levels = (int64_t *)g_array_free(levels, FALSE);
    d->n_targets = targets->len;
    g_ptr_array_add(targets, NULL);
    d->targets = (char **)g_ptr_array_free(targets, FALSE);
    d->n_tests = tests->len;
    g_ptr_array_add(tests, NULL);
    d->tests = (char **)g_ptr_array_free(tests, FALSE);
    d->cells = g_new0(struct vdc_density_cell, d->n_levels * d->n_targets * d->n_tests);
    for (li = 0; li < d->n_levels && rc == 0; li++)
        for (ti = 0; ti < d->n_targets && rc == 0; ti++)
            for (ki = 0; ki < d->n_tests && rc == 0; ki++) {
                struct vdc_density_cell *c =
                    (struct vdc_density_cell *)vdc_density_cell(d, li, ti, ki);

                c->level = d->levels[li];
                c->target = ti;
                c->test = ki;
                rc = cell_build(c, rs, kr, n_kr, d->targets[ti], d->tests[ki], fail, opt);
            }
    g_array_sort(fail, cmp_failure);
    d->n_failures = fail->len;
    d->failures = (struct vdc_density_failure *)g_array_free(fail, FALSE);
    for (i = 0; i < n_kr; i++)
        g_strfreev(kr[i].keys);
    g_free(kr);
    if (rc == 0) {
        build_pairs(d, rs);
        build_stops(d);
        vdc_density_host_build(d, rs);
    }
    return rc;
}

int64_t
vdc_density_stops(const struct vdc_density *d, size_t ti, size_t ki)
{
    return d->stops ? d->stops[ti * d->n_tests + ki] : 0;
}

const char *
vdc_density_test_label(const struct vdc_analysis *a, size_t ki, char *buf, size_t size)
{
    long ai = vdc_analysis_test_index(a, a->density.tests[ki]);

    return ai >= 0 ? vdc_analysis_test_label(a, (size_t)ai, buf, size)
                   : vdc_test_key_label(a->density.tests[ki], buf, size);
}

/* The cells of target @ti on test @ki at the level where it stops
 * scaling (*@c) and at the next level with values (*@n); 0 when none */
static int
stop_cells(const struct vdc_density *d, size_t ti, size_t ki, const struct vdc_density_cell **c,
           const struct vdc_density_cell **n)
{
    int64_t stop = vdc_density_stops(d, ti, ki);
    size_t li;

    *c = *n = NULL;
    for (li = 0; stop && li < d->n_levels; li++) {
        const struct vdc_density_cell *x = vdc_density_cell(d, li, ti, ki);

        if (x->level == stop)
            *c = x;
        else if (*c && !*n && x->n_reps)
            *n = x;
    }
    return *c && *n;
}

int
vdc_density_stop_shown(const struct vdc_density *d, size_t ti, size_t ki)
{
    const struct vdc_density_cell *c, *n;

    return stop_cells(d, ti, ki, &c, &n) && n->sum.has_ci_mean && n->sum.ci_mean[1] <= c->sum.mean;
}

char *
vdc_density_stop_text(const struct vdc_analysis *a, size_t ti, size_t ki)
{
    const struct vdc_density *d = &a->density;
    int64_t stop = vdc_density_stops(d, ti, ki);
    const struct vdc_density_cell *c, *n;

    if (!stop_cells(d, ti, ki, &c, &n))
        return NULL;
    /* the next level's interval reaching N's mean: not shown to scale,
     * which is not the same as stopping, whichever way its mean went */
    if (!vdc_density_stop_shown(d, ti, ki))
        return g_strdup_printf("not shown to scale past %" G_GINT64_FORMAT " guest%s: the aggregate at %"
                               G_GINT64_FORMAT " (mean over its %zu repetitions: %s [%s, %s]) is %s on average than at %"
                               G_GINT64_FORMAT " (%s) but its interval reaches %s it: more repetitions tell",
                               stop, stop == 1 ? "" : "s", n->level, n->n_reps, vdc_fmt_num_s(n->sum.mean),
                               vdc_fmt_num_s(n->sum.ci_mean[0]), vdc_fmt_num_s(n->sum.ci_mean[1]),
                               n->sum.mean > c->sum.mean ? "larger" : "smaller", stop,
                               vdc_fmt_num_s(c->sum.mean),
                               n->sum.mean > c->sum.mean ? "down to" : "up past");
    return g_strdup_printf("stops scaling at %" G_GINT64_FORMAT " guest%s: the aggregate at %" G_GINT64_FORMAT
                           " (mean over its %zu repetitions: %s [%s, %s]) is not larger than at %" G_GINT64_FORMAT
                           " (%s), its interval included",
                           stop, stop == 1 ? "" : "s", n->level, n->n_reps, vdc_fmt_num_s(n->sum.mean),
                           vdc_fmt_num_s(n->sum.ci_mean[0]), vdc_fmt_num_s(n->sum.ci_mean[1]), stop,
                           vdc_fmt_num_s(c->sum.mean));
}

void
vdc_density_sure_text(GString *s, const struct vdc_density_pair *p, int p99, int with_pct)
{
    const struct vdc_stats_paired *g = p99 ? &p->p99 : &p->agg;
    enum vdc_effect_class effect = p99 ? p->p99_effect : p->agg_effect;
    int flat = p99 && p->p99_flat, significant = p99 ? p->p99_significant : p->agg_significant;
    char buf[96];

    if (flat) {
        g_string_append(s, ", no interval (the difference was the same in every repetition: no spread to "
                           "bound, so how sure is not known)");
        return;
    }
    if (g->has_ci)
        g_string_append_printf(s, with_pct ? " [%+.1f %%, %+.1f %%]" : " [%+.1f, %+.1f]", g->ci_delta_percent[0],
                               g->ci_delta_percent[1]);
    else if (effect == VDC_EFFECT_UNBOUNDED)
        g_string_append(s, " [unbounded]");
    else
        g_string_append(s, g->n < 2 ? ", no interval (under 2 pairs)"
                                    : ", no interval (the reference's mean is not clear of 0)");
    if (g->has_test)
        g_string_append_printf(s, ", %s", vdc_p_holm_text(buf, sizeof(buf), p99 ? p->p99_p_holm : p->agg_p_holm,
                                                          g->p_value, p->n_family));
    if (effect == VDC_EFFECT_UNBOUNDED)
        g_string_append(s, ", undecided, unbounded: the interval has no bound (the reference's mean is not "
                           "clear of 0 in the pairs)");
    else if (effect != VDC_EFFECT_NOT_TESTED)
        g_string_append_printf(s, ", %s", effect == VDC_EFFECT_UNDECIDED && significant ? "size undecided"
                                          : vdc_effect_class_name(effect));
}

void
vdc_density_paired_means_text(GString *s, const struct vdc_density *d, const struct vdc_density_pair *p,
                              int p99, const char *unit)
{
    const struct vdc_stats_paired *g = p99 ? &p->p99 : &p->agg;

    if (!(p99 ? p->p99_short : p->agg_short) || !g->has_ratio)
        return;
    /* paired means: over the repetitions both completed, not each
     * target's own mean over all its repetitions (the Scaling line's) */
    g_string_append_printf(s, " (paired means over the %zu repetition%s both completed: %s %s%s%s against %s %s%s%s)",
                           g->n, g->n == 1 ? "" : "s",
                           d->targets[p->target], vdc_fmt_num_s(g->mean_t), unit ? " " : "", unit ? unit : "",
                           d->targets[p->reference], vdc_fmt_num_s(g->mean_b), unit ? " " : "",
                           unit ? unit : "");
}

void
vdc_density_left_out_text(GString *s, const struct vdc_density *d, const struct vdc_density_cell *c)
{
    size_t i;
    GString *who = g_string_new(NULL);

    for (i = 0; i < d->n_failures; i++) {
        const struct vdc_density_failure *f = &d->failures[i];

        if (f->level != c->level || f->target != c->target || (f->test >= 0 && (size_t)f->test != c->test))
            continue;
        g_string_append_printf(who, "%sg%" G_GINT64_FORMAT " in repetition %" G_GINT64_FORMAT,
                               who->len ? ", " : "", f->guest, f->rep);
    }
    if (c->n_failed)
        g_string_append_printf(s, "%s%zu repetition%s left out (a guest failed: %s)", s->len ? "; " : "",
                               c->n_failed, c->n_failed == 1 ? "" : "s", who->str);
    if (c->n_no_value)
        g_string_append_printf(s, "%s%zu repetition%s left out (a guest ran but gave no value)",
                               s->len ? "; " : "", c->n_no_value, c->n_no_value == 1 ? "" : "s");
    g_string_free(who, TRUE);
}

char *
vdc_density_failure_text(const struct vdc_analysis *a, const struct vdc_density_failure *f)
{
    const struct vdc_density *d = &a->density;
    char label[VDC_TEST_LABEL_MAX];
    GString *s = g_string_new(NULL);

    g_string_append_printf(s, "%s at %" G_GINT64_FORMAT " guest%s, repetition %" G_GINT64_FORMAT ": guest g%"
                           G_GINT64_FORMAT, d->targets[f->target], f->level, f->level == 1 ? "" : "s", f->rep,
                           f->guest);
    if (f->test >= 0)
        g_string_append_printf(s, "'s %s", vdc_density_test_label(a, (size_t)f->test, label, sizeof(label)));
    if (!g_strcmp0(f->status, "failed"))
        g_string_append(s, " failed");
    else
        g_string_append_printf(s, " ended with status %s", f->status);
    g_string_append_printf(s, ": %s; that repetition is left out of %s at this level",
                           f->error && *f->error ? f->error : "no error recorded",
                           f->test >= 0 ? "this test" : "every test");
    return g_string_free(s, FALSE);
}
