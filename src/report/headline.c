/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp headline (report/headline.h): which pairs, their paired
 * statistics, Holm, classes, what has no verdict and why; and the
 * sentences every renderer prints. */
#include "config.h"

#include "report/headline.h"
#include "report/ranking.h"
#include "report/analysis.h"
#include "model/target.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

void
vdc_headline_init(struct vdc_headline *h)
{
    memset(h, 0, sizeof(*h));
    h->min_runs = h->max_runs = VDC_INT_ABSENT;
    h->precision_percent = NAN;
}

void
vdc_headline_dispose(struct vdc_headline *h)
{
    size_t i;

    for (i = 0; i < h->n_pairs; i++)
        g_free(h->pairs[i].rows);
    g_free(h->pairs);
    for (i = 0; i < h->n_rankings; i++)
        g_free(h->rankings[i].entries);
    g_free(h->rankings);
    vdc_headline_init(h);
}

const char *
vdc_headline_role_name(enum vdc_headline_role r)
{
    switch (r) {
    case VDC_HEADLINE_CHOICE: return "choice";
    case VDC_HEADLINE_CEILING: return "ceiling";
    case VDC_HEADLINE_BASELINE: return "baseline";
    case VDC_HEADLINE_CACHE: return "cache";
    }
    return "?";
}

const char *
vdc_headline_absent_key(enum vdc_headline_absent r)
{
    switch (r) {
    case VDC_HEADLINE_PRESENT: return NULL;
    case VDC_HEADLINE_ONE_TARGET: return "one-target";
    case VDC_HEADLINE_NO_KINDS: return "no-kinds";
    case VDC_HEADLINE_NO_IMAGE: return "no-image";
    case VDC_HEADLINE_NO_LV: return "no-lv";
    case VDC_HEADLINE_UNPAIRED: return "unpaired";
    }
    return NULL;
}

const char *
vdc_headline_verdict_name(enum vdc_verdict v)
{
    return v == VDC_VERDICT_NOT_COMPARABLE ? "not comparable" : vdc_verdict_name(v);
}

/* ---- deciding ---------------------------------------------------------- */

/* What the pairs are decided from, per target of the analysis, read once
 * (a lookup by name scans the result set's targets). */
struct pair_facts {
    vdc_target_role role;
    const char *cache;       /* an image variant's requested image cache ("host",
                              * "none"), else NULL */
    const char *backend;     /* its requested image backend, or NULL */
};

static struct pair_facts *
pair_facts(const struct vdc_analysis *a, const vdc_result_set *rs)
{
    struct pair_facts *f = g_new0(struct pair_facts, a->n_targets + 1);
    size_t i;

    for (i = 0; i < a->n_targets; i++) {
        const vdc_target *t = vdc_result_set_find_target(rs, a->targets[i]);

        f[i].role = vdc_result_set_target_role(rs, a->targets[i]);
        f[i].backend = t ? t->requested.image_backend : NULL;
        f[i].cache = t && f[i].role == VDC_ROLE_IMAGE ? t->requested.image_cache : NULL;
    }
    return f;
}

/* @t through dom0's page cache and @r not, with the same requested backend:
 * a cache pair */
static int
is_cache_pair(const struct pair_facts *f, size_t t, size_t r)
{
    return f[t].cache && f[r].cache && !strcmp(f[t].cache, "host") && !strcmp(f[r].cache, "none") &&
           !g_strcmp0(f[t].backend, f[r].backend);
}

static void
add_pair(GArray *pairs, enum vdc_headline_role role, size_t target, size_t reference)
{
    struct vdc_headline_pair p = { .role = role, .target = target, .reference = reference };

    g_array_append_val(pairs, p);
}

static int
kept(const struct vdc_analysis *a, const struct vdc_cell_sample *s)
{
    return !(a->opt.policy == VDC_OUTLIERS_DROP && s->outlier);
}

static int
cmp_int64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

    return a < b ? -1 : a > b;
}

/* Repetitions either cell has a sample of (valued or not: the cells hold
 * every sample of their target and test, the valued ones and the gaps). */
static size_t
count_reps(const struct vdc_cell *t, const struct vdc_cell *r)
{
    const struct vdc_cell *two[2] = { t, r };
    int64_t *reps = g_new(int64_t, t->n_samples + r->n_samples + 1);
    size_t i, k, n = 0, distinct = 0;

    for (k = 0; k < 2; k++) {
        for (i = 0; i < two[k]->n_values; i++)
            reps[n++] = two[k]->samples[i].repetition;
        for (i = 0; i < two[k]->n_no_value; i++)
            reps[n++] = two[k]->gaps[i].repetition;
    }
    qsort(reps, n, sizeof(*reps), cmp_int64);
    for (i = 0; i < n; i++)
        if (!i || reps[i] != reps[i - 1])
            distinct++;
    g_free(reps);
    return distinct;
}

/* The stop record of (@pair, test @key): one naming both targets first,
 * else one that leaves them open. */
static const vdc_stop_record *
find_stop(const vdc_result_set *rs, const char *t, const char *r, const char *key)
{
    const vdc_runs_policy *p = &rs->experiment.runs_policy;
    const vdc_stop_record *open = NULL;
    size_t i;

    if (!rs->has_experiment)
        return NULL;
    for (i = 0; i < p->n_stop; i++) {
        const vdc_stop_record *s = &p->stop[i];

        if (!s->test || strcmp(s->test, key))
            continue;
        if ((s->target && strcmp(s->target, t)) || (s->reference && strcmp(s->reference, r)))
            continue;
        if (s->target && s->reference)
            return s;
        if (!open)
            open = s;
    }
    return open;
}

static void
fill_row(struct vdc_analysis *a, const vdc_result_set *rs, const struct vdc_headline_pair *hp,
         struct vdc_headline_row *row, size_t ki, size_t kt, size_t kr)
{
    const struct vdc_cell *t = vdc_analysis_cell(a, hp->target, kt);
    const struct vdc_cell *b = vdc_analysis_cell(a, hp->reference, kr);
    double *tv = g_new(double, t->n_values + 1), *bv = g_new(double, t->n_values + 1);
    /* a cache pair measures what dom0's page cache does: its flags are the
     * effect, not a reason for no verdict */
    unsigned bars = VDC_HEADLINE_NO_VERDICT_FLAGS &
                    (hp->role == VDC_HEADLINE_CACHE ? ~(unsigned)(VDC_CELL_DOM0_PAGE_CACHE | VDC_CELL_GUEST_FASTER) : ~0u);
    size_t i, j, n = 0;

    row->test = ki;
    row->t_test = kt;
    row->r_test = kr;
    for (i = 0; i < t->n_values; i++) {
        if (!kept(a, &t->samples[i]))
            continue;
        for (j = 0; j < b->n_values; j++)
            if (b->samples[j].repetition == t->samples[i].repetition && kept(a, &b->samples[j])) {
                tv[n] = t->samples[i].value;
                bv[n++] = b->samples[j].value;
                break;
            }
    }
    if (a->headline.unpaired)
        vdc_headline_welch_row(a, t, b, &row->p);   /* not paired: each side's values */
    else
        vdc_stats_compare_paired(tv, bv, n, VDC_STATS_PERM_RESAMPLES, VDC_STATS_PERM_SEED, &row->p);
    /* a ratio of rates is never negative (paired.c cuts the interval at 0) */
    row->n_reps = count_reps(t, b);
    row->n_dropped = a->headline.unpaired ? 0 : row->n_reps > n ? row->n_reps - n : 0;
    row->p_holm = NAN;
    row->bar_target = t->flags & bars;
    row->bar_reference = b->flags & bars;
    row->sizes_differ = vdc_analysis_sizes_differ(a, hp->target, hp->reference, kt);
    row->stop = find_stop(rs, t->target, b->target, a->tests[ki]);
    g_free(tv);
    g_free(bv);
}

static int
row_comparable(const struct vdc_headline_row *row)
{
    return !row->bar_target && !row->bar_reference && !row->sizes_differ;
}

/* Holm across the pair's tests that can have a verdict, then each row's
 * verdict and class. */
static void
decide_pair(struct vdc_headline_pair *hp, double alpha)
{
    double *p = g_new(double, hp->n_rows + 1), *adj = g_new(double, hp->n_rows + 1);
    size_t i;

    for (i = 0; i < hp->n_rows; i++) {
        const struct vdc_headline_row *row = &hp->rows[i];

        p[i] = row_comparable(row) && row->p.has_test ? row->p.p_value : NAN;
    }
    vdc_stats_holm(p, hp->n_rows, adj);
    for (i = 0; i < hp->n_rows; i++) {
        struct vdc_headline_row *row = &hp->rows[i];

        row->p_holm = adj[i];
        hp->n_family += isnan(adj[i]) ? 0 : 1;
        hp->n_pairs_max = MAX(hp->n_pairs_max, row->p.n);
        row->significant = !isnan(adj[i]) && adj[i] < alpha;
        /* the one place a row's verdict and class are decided: an
         * interval with no bound supports no direction, so a significant
         * test there is undecided, and every such row's class is
         * unbounded (an undecided class, the renderers say why) */
        if (!row_comparable(row))
            row->verdict = VDC_VERDICT_NOT_COMPARABLE;
        else if (!row->p.has_test)
            row->verdict = VDC_VERDICT_NOT_TESTED;
        else if (row->significant && !row->p.has_ci)
            row->verdict = VDC_VERDICT_UNDECIDED;
        else if (row->significant)
            row->verdict = row->p.delta_percent > 0 ? VDC_VERDICT_FASTER : VDC_VERDICT_SLOWER;
        else
            row->verdict = VDC_VERDICT_NO_DIFFERENCE;
        if (!row_comparable(row))
            row->effect = VDC_EFFECT_NOT_TESTED;
        else if (row->p.has_test && !row->p.has_ci)
            row->effect = VDC_EFFECT_UNBOUNDED;
        else
            row->effect = vdc_effect_classify(row->p.delta_percent, row->p.ci_delta_percent[0],
                                              row->p.ci_delta_percent[1], row->p.has_ci, row->significant);
    }
    g_free(p);
    g_free(adj);
}

static void
runs_policy(struct vdc_headline *h, const struct vdc_analysis *a, const vdc_result_set *rs)
{
    const vdc_experiment *e = &rs->experiment;
    size_t i, most = 0;

    for (i = 0; i < a->n_targets * a->n_tests; i++)
        most = MAX(most, a->cells[i].n_samples);
    if (!rs->has_experiment)
        return;
    h->runs = e->runs_per_target != VDC_INT_ABSENT ? e->runs_per_target : (int64_t)most;
    if (e->runs_policy.mode && !strcmp(e->runs_policy.mode, "auto")) {
        h->runs_mode = VDC_RUNS_AUTO;
        h->min_runs = e->runs_policy.min_runs;
        h->max_runs = e->runs_policy.max_runs;
        h->precision_percent = e->runs_policy.precision_percent;
    } else {
        h->runs_mode = VDC_RUNS_FIXED;
    }
}

/* Pairs of @role (@n of them: @sides[0] x @sides[1]) are built only up to
 * VDC_HEADLINE_PAIRS_MAX; else they are recorded as left out.  1: build
 * them. */
static int
within_bound(struct vdc_headline *h, enum vdc_headline_role role, size_t n, size_t side0, size_t side1)
{
    if (n <= VDC_HEADLINE_PAIRS_MAX)
        return 1;
    h->left_out[role].n = n;
    h->left_out[role].sides[0] = side0;
    h->left_out[role].sides[1] = side1;
    return 0;
}

void
vdc_headline_build(struct vdc_analysis *a, const vdc_result_set *rs)
{
    struct vdc_headline *h = &a->headline;
    GArray *pairs = g_array_new(FALSE, TRUE, sizeof(struct vdc_headline_pair));
    struct pair_facts *f = pair_facts(a, rs);
    size_t ti, tj, ki, n_image = 0, n_lv = 0, n_dom0 = 0, n_cache = 0, n_choice, n_host = 0, n_none = 0;
    int left_out = 0;

    vdc_headline_dispose(h);
    for (ti = 0; ti < a->n_targets; ti++) {
        n_image += f[ti].role == VDC_ROLE_IMAGE;
        n_lv += f[ti].role == VDC_ROLE_LV;
        n_dom0 += f[ti].role == VDC_ROLE_DOM0;
        n_host += f[ti].cache && !strcmp(f[ti].cache, "host");
        n_none += f[ti].cache && !strcmp(f[ti].cache, "none");
    }
    /* every pair of a role, or none of it when they are more than the
     * bound (n_image x n_lv of a result of 1024 targets: 262144 pairs) */
    n_choice = n_image * n_lv;
    if (within_bound(h, VDC_HEADLINE_CHOICE, n_choice, n_image, n_lv)) {
        for (ti = 0; ti < a->n_targets; ti++)
            if (f[ti].role == VDC_ROLE_IMAGE)
                for (tj = 0; tj < a->n_targets; tj++)
                    if (f[tj].role == VDC_ROLE_LV)
                        add_pair(pairs, VDC_HEADLINE_CHOICE, ti, tj);
    }
    if (n_host && n_none)
        for (ti = 0; ti < a->n_targets; ti++)
            for (tj = 0; f[ti].cache && tj < a->n_targets; tj++)
                n_cache += is_cache_pair(f, ti, tj);
    if (within_bound(h, VDC_HEADLINE_CACHE, n_cache, n_host, n_none)) {
        for (ti = 0; n_cache && ti < a->n_targets; ti++)
            for (tj = 0; f[ti].cache && tj < a->n_targets; tj++)
                if (is_cache_pair(f, ti, tj))
                    add_pair(pairs, VDC_HEADLINE_CACHE, ti, tj);
    }
    if (!n_choice)
        h->absent = a->n_targets < 2 ? VDC_HEADLINE_ONE_TARGET : !n_image && !n_lv ? VDC_HEADLINE_NO_KINDS
                    : !n_image ? VDC_HEADLINE_NO_IMAGE : VDC_HEADLINE_NO_LV;
    if (within_bound(h, VDC_HEADLINE_CEILING, n_dom0 * (a->n_targets - n_dom0), n_dom0, a->n_targets - n_dom0)) {
        for (tj = 0; tj < a->n_targets; tj++)
            if (f[tj].role == VDC_ROLE_DOM0)
                for (ti = 0; ti < a->n_targets; ti++)
                    if (f[ti].role != VDC_ROLE_DOM0)
                        add_pair(pairs, VDC_HEADLINE_CEILING, ti, tj);
    }
    for (ki = 0; ki < G_N_ELEMENTS(h->left_out); ki++)
        left_out |= h->left_out[ki].n > 0;
    /* the baseline instead only when the run has no pair of any kind (not
     * when it has more than the bound) */
    if (!pairs->len && !left_out)
        for (ti = 0; ti < a->n_targets; ti++)
            if (ti != a->baseline_index)
                add_pair(pairs, VDC_HEADLINE_BASELINE, ti, a->baseline_index);
    /* pairs only in vmdiskcmp's own runs, whose repetition r of every
     * target shares the seed and the boot: runs it did not make (imported,
     * agent output: no experiment) are not known to be pairs, nor are the
     * runs of different experiments merged (compare of two results) */
    if ((!rs->has_experiment || rs->mixed_experiments) && a->n_targets > 1) {
        h->unpaired = 1;            /* kinds known: the pairs, not paired (Welch) */
        if (!n_choice && !(pairs->len && g_array_index(pairs, struct vdc_headline_pair,
                                                       pairs->len - 1).role == VDC_HEADLINE_CEILING)) {
            /* no image/LV pair and no dom0: why (the kinds), else that they are not paired */
            if (!n_image && !n_lv)
                h->absent = VDC_HEADLINE_UNPAIRED;
            g_array_set_size(pairs, 0);
        }
    }
    g_free(f);
    h->n_pairs = pairs->len;
    h->pairs = (struct vdc_headline_pair *)(void *)g_array_free(pairs, FALSE);
    for (ti = 0; ti < h->n_pairs; ti++) {
        struct vdc_headline_pair *hp = &h->pairs[ti];

        hp->rows = g_new0(struct vdc_headline_row, a->n_tests + 1);
        for (ki = 0; ki < a->n_tests; ki++) {
            long kb = vdc_analysis_bare_key(a, ki);
            int t_has = vdc_analysis_cell(a, hp->target, ki)->n_samples > 0;
            int r_has = vdc_analysis_cell(a, hp->reference, ki)->n_samples > 0;

            if (t_has && r_has)
                fill_row(a, rs, hp, &hp->rows[hp->n_rows++], ki, ki, ki);
            /* one side ran passes, the other the test once: each pass
             * against the one */
            else if (t_has && kb >= 0 && vdc_analysis_cell(a, hp->reference, (size_t)kb)->n_samples)
                fill_row(a, rs, hp, &hp->rows[hp->n_rows++], ki, ki, (size_t)kb);
            else if (r_has && kb >= 0 && vdc_analysis_cell(a, hp->target, (size_t)kb)->n_samples)
                fill_row(a, rs, hp, &hp->rows[hp->n_rows++], ki, (size_t)kb, ki);
        }
        decide_pair(hp, a->alpha);
        for (ki = 0; ki < hp->n_rows; ki++)
            h->n_stop += hp->rows[ki].stop ? 1 : 0;
    }
    runs_policy(h, a, rs);
    /* a matrix: ranked per test, every target (bounded: one entry a
     * target, the paired tests only up to VDC_CLD_ITEMS_MAX ranked) */
    if (!h->unpaired && n_choice > VDC_HEADLINE_RANK_ABOVE_PAIRS)
        vdc_rankings_build(a, rs);
}

/* ---- sentences --------------------------------------------------------- */

/* "p = 0.0123", "p < 0.001", "p n/a" into @buf */
static const char *
fmt_p(char *buf, size_t size, const char *what, double p)
{
    if (isnan(p))
        snprintf(buf, size, "%s n/a", what);
    else if (p < 0.001)
        snprintf(buf, size, "%s < 0.001", what);
    else
        snprintf(buf, size, "%s = %.3g", what, p);
    return buf;
}

const char *
vdc_p_holm_text(char *buf, size_t size, double p_holm, double p_raw, size_t k)
{
    char adj[48], raw[48];

    if (isnan(p_holm) || k < 2 || isnan(p_raw))
        return fmt_p(buf, size, "p", p_holm);
    fmt_p(adj, sizeof(adj), "p", p_holm);
    fmt_p(raw, sizeof(raw), "unadjusted", p_raw);
    if (p_holm < 0.001)        /* the unadjusted p is smaller still */
        snprintf(buf, size, "%s (Holm, %zu tests)", adj, k);
    else
        snprintf(buf, size, "%s (Holm, %zu tests; %s)", adj, k, raw);
    return buf;
}

/* The row's p as the verdict reads it (vdc_p_holm_text over the pair's
 * tests) */
static const char *
fmt_p_holm(char *buf, size_t size, const struct vdc_headline_pair *hp, const struct vdc_headline_row *row)
{
    return vdc_p_holm_text(buf, size, row->p_holm, row->p.has_test ? row->p.p_value : NAN, hp->n_family);
}

/* "permutation p = 0.0625", or "Welch, not paired" (vdc_headline.unpaired) */
static const char *
perm_p(char *buf, size_t size, const struct vdc_analysis *a, const struct vdc_stats_paired *p)
{
    if (a->headline.unpaired) {
        snprintf(buf, size, "Welch, not paired");
        return buf;
    }
    return fmt_p(buf, size, "permutation p", p->p_perm);
}

/* "[+1.1 %, +5.3 %]", "[unbounded]" or "" (fewer than 2 pairs) */
static void
append_ci(GString *s, const struct vdc_stats_paired *p, int ceiling)
{
    if (p->has_ci && ceiling)
        g_string_append_printf(s, " [%.1f %%, %.1f %%]", 100 * p->ci_ratio[0], 100 * p->ci_ratio[1]);
    else if (p->has_ci)
        g_string_append_printf(s, " [%+.1f %%, %+.1f %%]", p->ci_delta_percent[0], p->ci_delta_percent[1]);
    else if (p->has_test)
        g_string_append(s, " [unbounded]");
}

char *
vdc_headline_reason(const struct vdc_analysis *a, const struct vdc_headline_pair *pair,
                    const struct vdc_headline_row *row)
{
    return vdc_no_verdict_reason(a, pair->target, pair->reference, row->bar_target, row->bar_reference,
                                 row->sizes_differ);
}

/* A row with a test whose ratio's interval has no bound (the reference's
 * mean not clear of 0): class unbounded (decide_pair), undecided, worded
 * as the answer words it. */
static int
row_unbounded(const struct vdc_headline_row *row)
{
    return row->effect == VDC_EFFECT_UNBOUNDED;
}

#define UNBOUNDED_WHY "the ratio's interval has no bound (the reference's mean is not clear of 0 in the pairs)"

/* The class a row's text ends with */
static const char *
class_text(const struct vdc_headline_row *row)
{
    if (!row_unbounded(row))
        return vdc_effect_class_name(row->effect);
    /* "undecided" said once: first for a significant test, whose
     * direction the unbounded interval withholds */
    return row->verdict == VDC_VERDICT_UNDECIDED ? "unbounded: " UNBOUNDED_WHY
           : "undecided, unbounded: " UNBOUNDED_WHY;
}

char *
vdc_headline_row_text(const struct vdc_analysis *a, const struct vdc_headline_pair *pair,
                      const struct vdc_headline_row *row, int standalone)
{
    const char *t = a->targets[pair->target], *r = a->targets[pair->reference];
    const struct vdc_stats_paired *p = &row->p;
    int ceiling = pair->role == VDC_HEADLINE_CEILING;
    GString *s = g_string_new(NULL);
    char *reason = vdc_headline_reason(a, pair, row), pb[128], qb[48];

    if (reason || row->verdict == VDC_VERDICT_NOT_TESTED || !p->has_ratio) {
        if (standalone)
            g_string_append_printf(s, "%s relative to %s: ", t, r);
        if (reason)
            g_string_append_printf(s, "not comparable (%s)", reason);
        else if (a->headline.unpaired)
            g_string_append_printf(s, "not tested (%zu run%s on a side, not paired%s)", p->n,
                                   p->n == 1 ? "" : "s", p->n >= 2 ? ", no spread" : "");
        else
            g_string_append_printf(s, "not tested (%zu pair%s%s)", p->n, p->n == 1 ? "" : "s",
                                   p->n >= 2 ? ", all differences equal" : "");
        if (p->has_ratio && ceiling)
            g_string_append_printf(s, ": %.1f %% of %s", 100 * p->ratio, r);
        else if (p->has_ratio)
            g_string_append_printf(s, ": %+.1f %%", p->delta_percent);
        if (p->has_ratio)
            append_ci(s, p, ceiling);
    } else if (ceiling) {
        g_string_append_printf(s, "%s reaches %.1f %%", t, 100 * p->ratio);
        append_ci(s, p, 1);
        g_string_append_printf(s, " of %s, %s, %s", r, fmt_p_holm(pb, sizeof(pb), pair, row),
                               perm_p(qb, sizeof(qb), a, p));
    } else if (row->verdict == VDC_VERDICT_FASTER || row->verdict == VDC_VERDICT_SLOWER) {
        g_string_append_printf(s, "%s is %.1f %% %s than %s", t, fabs(p->delta_percent),
                               row->verdict == VDC_VERDICT_FASTER ? "faster" : "slower", r);
        append_ci(s, p, 0);
        g_string_append_printf(s, ", %s, %s, %s", fmt_p_holm(pb, sizeof(pb), pair, row),
                               perm_p(qb, sizeof(qb), a, p), class_text(row));
    } else {
        if (standalone)
            g_string_append_printf(s, "%s relative to %s: ", t, r);
        g_string_append_printf(s, "%s, %+.1f %%", row->verdict == VDC_VERDICT_UNDECIDED
                               ? "undecided" : "no significant difference",
                               p->delta_percent);
        append_ci(s, p, 0);
        g_string_append_printf(s, ", %s, %s, %s", fmt_p_holm(pb, sizeof(pb), pair, row),
                               perm_p(qb, sizeof(qb), a, p),
                               class_text(row));
    }
    if (row->n_dropped)
        g_string_append_printf(s, "; %zu pair%s, %zu dropped (no value on a side)", p->n, p->n == 1 ? "" : "s",
                               row->n_dropped);
    g_free(reason);
    return g_string_free(s, FALSE);
}

char *
vdc_headline_stop_text(const struct vdc_headline_row *row)
{
    GString *s;

    if (!row->stop || !row->stop->reason)
        return NULL;
    s = g_string_new(row->stop->reason);
    if (vdc_has(row->stop->half_width_percent) && row->stop->runs != VDC_INT_ABSENT)
        g_string_append_printf(s, " (half-width %.1f %% at %" G_GINT64_FORMAT " runs)",
                               row->stop->half_width_percent, (gint64)row->stop->runs);
    else if (vdc_has(row->stop->half_width_percent))
        g_string_append_printf(s, " (half-width %.1f %%)", row->stop->half_width_percent);
    else if (row->stop->runs != VDC_INT_ABSENT)
        g_string_append_printf(s, " (at %" G_GINT64_FORMAT " runs)", (gint64)row->stop->runs);
    return g_string_free(s, FALSE);
}

char *
vdc_headline_runs_text(const struct vdc_headline *h)
{
    GString *s;
    int at_max = h->max_runs != VDC_INT_ABSENT && h->runs >= h->max_runs;

    if (h->runs_mode == VDC_RUNS_FIXED)
        return g_strdup_printf("fixed %" G_GINT64_FORMAT " run%s (no stopping rule)", (gint64)h->runs,
                               h->runs == 1 ? "" : "s");
    if (h->runs_mode != VDC_RUNS_AUTO)
        return NULL;
    s = g_string_new(NULL);
    g_string_append_printf(s, "%" G_GINT64_FORMAT " run%s (--runs auto ", (gint64)h->runs,
                           h->runs == 1 ? "" : "s");
    if (at_max)
        g_string_append_printf(s, "stopped at --max-runs %" G_GINT64_FORMAT, (gint64)h->max_runs);
    else
        g_string_append(s, "stopped when the 95 % interval of every headline ratio was within the precision");
    if (h->min_runs != VDC_INT_ABSENT && h->min_runs != h->runs)
        g_string_append_printf(s, "; at least %" G_GINT64_FORMAT, (gint64)h->min_runs);
    if (h->max_runs != VDC_INT_ABSENT && !at_max)
        g_string_append_printf(s, "; at most %" G_GINT64_FORMAT, (gint64)h->max_runs);
    g_string_append(s, ").  The precision it runs for: every headline ratio's 95 % interval within ");
    if (vdc_has(h->precision_percent))
        g_string_append_printf(s, "+-%g %%", h->precision_percent);
    else
        g_string_append(s, "the --precision asked for");
    g_string_append_printf(s, " (--precision), a target for the runs; the +-%g %% band below which a "
                           "difference is negligible is another thing, a class of the answer",
                           VDC_EFFECT_NEGLIGIBLE_PERCENT);
    return g_string_free(s, FALSE);
}

char *
vdc_headline_method_text(void)
{
    return g_strdup_printf("Pairs: the same repetition of both targets (same seed, same boot); a pair "
                           "without a value on a side is dropped and counted.  [95 %% CI]: paired Fieller "
                           "interval of the ratio of the means, of each test alone (not adjusted for the pair's "
                           "other tests).  p: paired t-test, Holm-corrected across the tests of each pair "
                           "(alpha %g), which decides the verdict; the unadjusted p beside it, so an interval "
                           "that excludes 0 beside a Holm p above alpha is no contradiction; permutation p: "
                           "sign-flip test, unadjusted.  "
                           "Classes: negligible: the whole interval inside +-%g %%; moderate %g-%g %%, large >= %g %% "
                           "(significant after Holm); undecided: the interval reaches past +-%g %% and the test is "
                           "not significant or |delta| is under it (the size not known).  Not "
                           "comparable (no verdict): too-fast, under-2x-ram or artefact-flagged runs on a side, "
                           "or different test file sizes.", VDC_STATS_ALPHA, VDC_EFFECT_NEGLIGIBLE_PERCENT,
                           VDC_EFFECT_NEGLIGIBLE_PERCENT, VDC_EFFECT_LARGE_PERCENT, VDC_EFFECT_LARGE_PERCENT,
                           VDC_EFFECT_NEGLIGIBLE_PERCENT);
}

char *
vdc_headline_method_text_unpaired(void)
{
    return g_strdup_printf("Not paired: these runs were not made by vmdiskcmp (imported results, agent "
                           "output), so repetition r of one target is not known to share its seed and its "
                           "boot with repetition r of another.  Each row compares the two targets' values as "
                           "two independent samples: [95 %% CI]: Fieller's interval of the ratio of the means "
                           "(unequal variances); p: Welch's t-test, Holm-corrected across the tests of each "
                           "pair (alpha %g); no permutation test.  With one run a side nothing is tested: the "
                           "delta is what the write-up's numbers say, no more.  Classes and \"not comparable\" "
                           "as for paired runs.", VDC_STATS_ALPHA);
}

char *
vdc_headline_absent_text(const struct vdc_analysis *a)
{
    const struct vdc_headline *h = &a->headline;
    const char *why = NULL, *tail = ".";
    size_t i;
    int ceiling = 0, baseline = 0;

    for (i = 0; i < h->n_pairs; i++) {
        ceiling |= h->pairs[i].role == VDC_HEADLINE_CEILING;
        baseline |= h->pairs[i].role == VDC_HEADLINE_BASELINE;
    }
    switch (h->absent) {
    case VDC_HEADLINE_PRESENT:
        return NULL;
    case VDC_HEADLINE_ONE_TARGET:
        return g_strdup_printf("No image/LV pair: one target (%s), nothing to compare.", a->targets[0]);
    case VDC_HEADLINE_UNPAIRED:
        return g_strdup_printf("No paired comparison: these runs were not made by vmdiskcmp (the result has "
                               "no experiment: imported results, agent output), so repetition r of one target "
                               "is not known to share its seed and its boot with repetition r of another; the "
                               "comparisons against the baseline %s below (Welch's test, unpaired) are all "
                               "there is.", a->baseline);
    case VDC_HEADLINE_NO_KINDS:
        why = "no target's kind (targets[].kind) is image, lvm or block";
        break;
    case VDC_HEADLINE_NO_IMAGE:
        why = "this run has no image target";
        break;
    case VDC_HEADLINE_NO_LV:
        why = "this run has no LV or block target";
        break;
    }
    if (ceiling)
        tail = "; each target relative to bare dom0 (its ceiling) only.";
    if (h->unpaired && !h->n_pairs)
        return g_strdup_printf("No image/LV pair: %s; and these runs were not made by vmdiskcmp (imported "
                               "results, agent output): the comparisons against the baseline %s below are "
                               "Welch's test, not paired.", why, a->baseline);
    if (baseline)
        return g_strdup_printf("No image/LV pair: %s; each target relative to the baseline %s instead.", why,
                               a->baseline);
    return g_strdup_printf("No image/LV pair: %s%s", why, tail);
}

char *
vdc_headline_left_out_text(const struct vdc_analysis *a)
{
    const struct vdc_headline *h = &a->headline;
    const struct vdc_headline_left_out *c = &h->left_out[VDC_HEADLINE_CHOICE];
    const struct vdc_headline_left_out *k = &h->left_out[VDC_HEADLINE_CACHE];
    const struct vdc_headline_left_out *d = &h->left_out[VDC_HEADLINE_CEILING];
    GString *s;
    int parts = (c->n > 0) + (k->n > 0) + (d->n > 0), i = 0;

    if (!parts)
        return NULL;
    s = g_string_new("Not compared pair by pair: ");
#define SEP() (i++ ? (i == parts ? " and " : ", ") : "")
    if (c->n)
        g_string_append_printf(s, "%s%zu image/LV pairs (%zu image x %zu LV or block targets)", SEP(), c->n,
                               c->sides[0], c->sides[1]);
    if (k->n)
        g_string_append_printf(s, "%s%zu dom0's page cache pairs (of %zu images through it and %zu "
                               "without)", SEP(), k->n, k->sides[0], k->sides[1]);
    if (d->n)
        g_string_append_printf(s, "%s%zu ceilings (%zu dom0 x %zu other targets)", SEP(), d->n, d->sides[0],
                               d->sides[1]);
#undef SEP
    g_string_append_printf(s, ", more than the %d of a kind the headline compares one by one (a paired test "
                           "per test of each pair); %sthe tables hold each target against the baseline %s.",
                           VDC_HEADLINE_PAIRS_MAX, h->n_rankings ? "the ranking per test places every target, " : "",
                           a->baseline);
    return g_string_free(s, FALSE);
}

char *
vdc_headline_pair_title(const struct vdc_analysis *a, const struct vdc_headline_pair *pair)
{
    if (pair->role == VDC_HEADLINE_CACHE)
        return g_strdup_printf("dom0's page cache: %s (through it) against %s (without it) (%zu pair%s)",
                               a->targets[pair->target], a->targets[pair->reference], pair->n_pairs_max,
                               pair->n_pairs_max == 1 ? "" : "s");
    if (a->headline.unpaired)
        return g_strdup_printf("%s relative to %s%s (not paired: %zu run%s on the smaller side, Welch)",
                               a->targets[pair->target],
                               pair->role == VDC_HEADLINE_CEILING ? "bare " : "",
                               a->targets[pair->reference], pair->n_pairs_max,
                               pair->n_pairs_max == 1 ? "" : "s");
    return g_strdup_printf("%s relative to %s%s (%zu pair%s)", a->targets[pair->target],
                           pair->role == VDC_HEADLINE_CEILING ? "bare " :
                           pair->role == VDC_HEADLINE_BASELINE ? "the baseline " : "",
                           a->targets[pair->reference], pair->n_pairs_max, pair->n_pairs_max == 1 ? "" : "s");
}

char *
vdc_headline_direction_text(const struct vdc_analysis *a)
{
    const struct vdc_headline *h = &a->headline;
    GString *s = g_string_new(NULL);
    g_autofree unsigned char *named = g_new0(unsigned char, a->n_targets + 1);
    size_t i, j, k, n;

    for (i = 0; i < h->n_pairs; i++) {
        size_t ref = h->pairs[i].reference;

        /* a reference is named once, with all its targets */
        if (h->pairs[i].role != VDC_HEADLINE_CHOICE || named[ref])
            continue;
        named[ref] = 1;
        for (j = i, n = 0; j < h->n_pairs; j++)
            n += h->pairs[j].role == VDC_HEADLINE_CHOICE && h->pairs[j].reference == ref;
        g_string_append(s, s->len ? ", " : "the answer: ");
        for (j = i, k = 0; j < h->n_pairs; j++) {
            if (h->pairs[j].role != VDC_HEADLINE_CHOICE || h->pairs[j].reference != ref)
                continue;
            g_string_append_printf(s, "%s%s", k ? (k + 1 == n ? " and " : ", ") : "",
                                   a->targets[h->pairs[j].target]);
            k++;
        }
        g_string_append_printf(s, " relative to %s", a->targets[ref]);
    }
    g_string_append_printf(s, "%sthe tables: each target relative to %s, the baseline", s->len ? "; " : "",
                           a->baseline);
    return g_string_free(s, FALSE);
}

char *
vdc_headline_perm_note(const struct vdc_headline_pair *pair)
{
    size_t i, n = 0;

    for (i = 0; i < pair->n_rows; i++)
        if (pair->rows[i].p.has_test && !isnan(pair->rows[i].p.p_perm))   /* not paired: none */
            n = MAX(n, pair->rows[i].p.n);
    if (n < 2 || n >= 6)
        return NULL;
    return g_strdup_printf("With %zu pairs the permutation test's smallest p is %.3g: it cannot reach 0.05 "
                           "whatever the data; only the paired t-test can.", n, 2.0 / (double)(1u << n));
}

/* ---- the terminal lines -------------------------------------------------- */

/* "2 (1 large, 1 moderate)", "1 (moderate)", "2 (1 moderate, 1 size
 * undecided)": @n[0] moderate, @n[1] large, @n[2] significant but the
 * interval past +-5 % with |delta| under it (size undecided) */
static void
append_count(GString *s, const size_t n[3])
{
    static const char *const what[3] = { "moderate", "large", "size undecided" };
    static const int order[3] = { 1, 0, 2 };
    size_t k, parts = 0, total = n[0] + n[1] + n[2];
    int several;

    for (k = 0; k < 3; k++)
        parts += n[k] > 0;
    several = parts > 1;
    g_string_append_printf(s, "%zu (", total);
    for (k = 0; k < 3; k++) {
        size_t m = n[order[k]];

        if (!m)
            continue;
        if (several)
            g_string_append_printf(s, "%zu ", m);
        g_string_append(s, what[order[k]]);
        g_string_append(s, --parts ? ", " : ")");
    }
}

/* The tests target @ti ran (a sample, with a value or not) */
static size_t
tests_run(const struct vdc_analysis *a, size_t ti)
{
    size_t ki, n = 0;

    for (ki = 0; ki < a->n_tests; ki++)
        n += vdc_analysis_cell(a, ti, ki)->n_samples > 0;
    return n;
}

/* Why a pair has no row: the two ran no test in common (results of
 * different benchmarks merged, a bonnie++ run beside a dd sweep); what each
 * ran, so that the line is never an empty verdict (g_free). */
static char *
no_common_test(const struct vdc_analysis *a, const struct vdc_headline_pair *hp, const char *relation)
{
    size_t nt = tests_run(a, hp->target), nr = tests_run(a, hp->reference);

    return g_strdup_printf("%s %s %s: no test both ran, nothing to compare (%s ran %zu test%s, %s %zu, none "
                           "of them the same)", a->targets[hp->target], relation, a->targets[hp->reference],
                           a->targets[hp->target], nt, nt == 1 ? "" : "s", a->targets[hp->reference], nr);
}

/* One line for a choice or baseline pair: the rows counted by verdict and
 * class. */
static char *
pair_line(const struct vdc_analysis *a, const struct vdc_headline_pair *hp)
{
    const struct vdc_headline *h = &a->headline;
    size_t faster[3] = { 0 }, slower[3] = { 0 }, negligible = 0, undecided = 0, unbounded = 0, nc = 0, nt = 0;
    size_t i;
    GString *s = g_string_new(NULL);
    const char *t = a->targets[hp->target];
    const char *sep = "";

    if (!hp->n_rows) {
        g_string_free(s, TRUE);
        return no_common_test(a, hp, hp->role == VDC_HEADLINE_CACHE ? "against"
                              : hp->role == VDC_HEADLINE_BASELINE ? "relative to the baseline" : "relative to");
    }
    for (i = 0; i < hp->n_rows; i++) {
        const struct vdc_headline_row *row = &hp->rows[i];
        int large = row->effect == VDC_EFFECT_LARGE ? 1 : row->effect == VDC_EFFECT_UNDECIDED ? 2 : 0;

        if (row->verdict == VDC_VERDICT_NOT_COMPARABLE)
            nc++;
        else if (row->effect == VDC_EFFECT_NEGLIGIBLE)
            negligible++;
        else if (row->verdict == VDC_VERDICT_FASTER && row->effect != VDC_EFFECT_NOT_TESTED)
            faster[large]++;
        else if (row->verdict == VDC_VERDICT_SLOWER && row->effect != VDC_EFFECT_NOT_TESTED)
            slower[large]++;
        else if (row->effect == VDC_EFFECT_UNDECIDED)
            undecided++;
        else if (row_unbounded(row))
            unbounded++;
        else
            nt++;
    }
    g_string_append_printf(s, "%s%s %s %s%s: %zu %s%s",
                           hp->role == VDC_HEADLINE_CACHE ? "dom0's page cache: " : "", t,
                           hp->role == VDC_HEADLINE_CACHE ? "against" : "relative to",
                           hp->role == VDC_HEADLINE_BASELINE ? "the baseline " : "",
                           a->targets[hp->reference], hp->n_pairs_max, h->unpaired ? "run" : "pair",
                           hp->n_pairs_max == 1 ? "" : "s");
    if (h->unpaired)
        g_string_append(s, " on the smaller side, not paired");
    if (h->runs_mode == VDC_RUNS_FIXED || h->runs_mode == VDC_RUNS_AUTO)
        g_string_append_printf(s, " (%s %" G_GINT64_FORMAT " run%s)",
                               h->runs_mode == VDC_RUNS_AUTO ? "auto," : "fixed", (gint64)h->runs,
                               h->runs == 1 ? "" : "s");
    g_string_append_printf(s, ", %zu test%s: ", hp->n_rows, hp->n_rows == 1 ? "" : "s");
    if (faster[0] + faster[1] + faster[2]) {
        g_string_append_printf(s, "%s faster in ", t);
        append_count(s, faster);
        sep = ", ";
    }
    if (slower[0] + slower[1] + slower[2]) {
        g_string_append_printf(s, "%s%s slower in ", sep, t);
        append_count(s, slower);
        sep = ", ";
    }
#define PART(n, what) \
    do { if (n) { g_string_append_printf(s, "%s" what " in %zu", sep, n); sep = ", "; } } while (0)
    PART(negligible, "negligible");
    /* unbounded is a kind of undecided, counted with it as the answer does */
    if (undecided + unbounded) {
        g_string_append_printf(s, "%sundecided in %zu", sep, undecided + unbounded);
        if (unbounded)
            g_string_append_printf(s, ", %zu of them unbounded", unbounded);
        sep = ", ";
    }
    PART(nc, "not comparable");
    PART(nt, "not tested");
#undef PART
    g_string_append(s, h->unpaired ? " (Welch's t-test, not paired, Holm)" : " (paired t-test, Holm)");
    return g_string_free(s, FALSE);
}

/* One line for a ceiling pair: the lowest and highest share of dom0 over
 * the tests with a verdict. */
static char *
ceiling_line(const struct vdc_analysis *a, const struct vdc_headline_pair *hp)
{
    const struct vdc_headline_row *lo = NULL, *hi = NULL;
    size_t i, n = 0;
    const char *t = a->targets[hp->target], *r = a->targets[hp->reference];
    char ll[VDC_TEST_LABEL_MAX], hl[VDC_TEST_LABEL_MAX];

    for (i = 0; i < hp->n_rows; i++) {
        const struct vdc_headline_row *row = &hp->rows[i];

        if (row->verdict == VDC_VERDICT_NOT_COMPARABLE || !row->p.has_ratio || row->p.n < 2)
            continue;
        n++;
        if (!lo || row->p.ratio < lo->p.ratio)
            lo = row;
        if (!hi || row->p.ratio > hi->p.ratio)
            hi = row;
    }
    if (!hp->n_rows)
        return no_common_test(a, hp, "relative to bare");
    if (!n)
        return g_strdup_printf("%s relative to bare %s: no test with 2 or more comparable %s (of %zu)", t, r,
                               a->headline.unpaired ? "runs a side, not paired" : "pairs",
                               hp->n_rows);
    vdc_analysis_test_label(a, lo->test, ll, sizeof(ll));
    vdc_analysis_test_label(a, hi->test, hl, sizeof(hl));
    if (n == 1)
        return g_strdup_printf("%s reaches %.1f %% of bare %s (%s; 1 comparable test of %zu)", t,
                               100 * lo->p.ratio, r, ll, hp->n_rows);
    return g_strdup_printf("%s reaches %.1f %% (%s) to %.1f %% (%s) of bare %s over %zu comparable "
                           "tests of %zu", t, 100 * lo->p.ratio, ll, 100 * hi->p.ratio, hl, r, n, hp->n_rows);
}

char **
vdc_analysis_headline_lines(const struct vdc_analysis *a)
{
    const struct vdc_headline *h = &a->headline;
    GPtrArray *v = g_ptr_array_new();
    char *absent = vdc_headline_absent_text(a), *left_out = vdc_headline_left_out_text(a);
    size_t i;

    if (absent)
        g_ptr_array_add(v, absent);
    if (left_out)
        g_ptr_array_add(v, left_out);
    if (h->n_rankings)
        vdc_ranking_lines(a, v);
    for (i = 0; i < h->n_pairs; i++) {
        if (h->n_rankings && h->pairs[i].role == VDC_HEADLINE_CHOICE)
            continue;
        g_ptr_array_add(v, h->pairs[i].role == VDC_HEADLINE_CEILING ? ceiling_line(a, &h->pairs[i])
                        : pair_line(a, &h->pairs[i]));
    }
    g_ptr_array_add(v, NULL);
    return (char **)g_ptr_array_free(v, FALSE);
}
