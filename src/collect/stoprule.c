/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The stopping rule of --runs auto over the headline's pairs (stoprule.h). */
#include "config.h"
#include "collect/stoprule.h"

#include <string.h>

#include <glib.h>

#include "model/target.h"

/* @t an image through dom0's page cache (--image-cache host) and @r the
 * same requested image backend past it (none): the headline's cache pair */
static int
is_cache_pair(const vdc_result_set *rs, const char *t, const char *r)
{
    const vdc_target *a = vdc_result_set_find_target(rs, t), *b = vdc_result_set_find_target(rs, r);

    return a && b && vdc_result_set_target_role(rs, t) == VDC_ROLE_IMAGE &&
           vdc_result_set_target_role(rs, r) == VDC_ROLE_IMAGE && a->requested.image_cache &&
           b->requested.image_cache && !strcmp(a->requested.image_cache, "host") &&
           !strcmp(b->requested.image_cache, "none") &&
           !g_strcmp0(a->requested.image_backend, b->requested.image_backend);
}

typedef struct {
    size_t target, reference;
} pair;

/* The pairs the rule decides, in the headline's order. */
static GArray *
headline_pairs(const vdc_result_set *rs, char **names, size_t n)
{
    GArray *pairs = g_array_new(FALSE, FALSE, sizeof(pair));
    size_t ti, tj, base = 0;

    if (!rs->has_experiment && n > 1)
        return pairs;   /* not vmdiskcmp's own runs: not known to be pairs */
    for (ti = 0; ti < n; ti++)
        if (vdc_result_set_target_role(rs, names[ti]) == VDC_ROLE_IMAGE)
            for (tj = 0; tj < n; tj++)
                if (vdc_result_set_target_role(rs, names[tj]) == VDC_ROLE_LV)
                    g_array_append_val(pairs, ((pair){ ti, tj }));
    if (pairs->len)
        return pairs;
    for (ti = 0; ti < n; ti++)
        for (tj = 0; tj < n; tj++)
            if (is_cache_pair(rs, names[ti], names[tj]))
                g_array_append_val(pairs, ((pair){ ti, tj }));
    for (tj = 0; tj < n; tj++)
        if (vdc_result_set_target_role(rs, names[tj]) == VDC_ROLE_DOM0)
            for (ti = 0; ti < n; ti++)
                if (vdc_result_set_target_role(rs, names[ti]) != VDC_ROLE_DOM0)
                    g_array_append_val(pairs, ((pair){ ti, tj }));
    if (pairs->len)
        return pairs;
    for (ti = 0; ti < n; ti++)
        if (!strcmp(names[ti], "dom0"))
            base = ti;
    for (ti = 0; ti < n; ti++)
        if (ti != base)
            g_array_append_val(pairs, ((pair){ ti, base }));
    return pairs;
}

/* The values of @refs[0..n) that have one, with their repetitions. */
static size_t
valued(const vdc_sample_ref *refs, size_t n, double *v, int64_t *rep)
{
    size_t i, k = 0;

    for (i = 0; i < n; i++)
        if (vdc_has(refs[i].sample->value)) {
            v[k] = refs[i].sample->value;
            rep[k++] = refs[i].run->repetition;
        }
    return k;
}

/* The row of (@pr, test @key), or 0 when a side has no sample of it. */
static int
decide_row(const vdc_result_set *rs, char **names, const pair *pr, const char *key, vdc_stop_row *row)
{
    size_t nt = 0, nb = 0, vt, vb, i, j, n = 0;
    g_autofree vdc_sample_ref *t = vdc_result_set_lookup(rs, names[pr->target], key, &nt);
    g_autofree vdc_sample_ref *b = vdc_result_set_lookup(rs, names[pr->reference], key, &nb);
    g_autofree double *tv = NULL, *bv = NULL, *pt = NULL, *pb = NULL;
    g_autofree int64_t *tr = NULL, *br = NULL;

    if (!nt || !nb)
        return 0;
    tv = g_new(double, nt);
    tr = g_new(int64_t, nt);
    bv = g_new(double, nb);
    br = g_new(int64_t, nb);
    pt = g_new(double, nt);
    pb = g_new(double, nt);
    vt = valued(t, nt, tv, tr);
    vb = valued(b, nb, bv, br);
    /* pair i: the same repetition of both (the first of the reference's) */
    for (i = 0; i < vt; i++)
        for (j = 0; j < vb; j++)
            if (br[j] == tr[i]) {
                pt[n] = tv[i];
                pb[n++] = bv[j];
                break;
            }
    vdc_stats_compare_paired(pt, pb, n, 0, 0, &row->p);
    row->target = pr->target;
    row->reference = pr->reference;
    return 1;
}

int
vdc_stop_decide(const vdc_result_set *rs, unsigned runs, unsigned min_runs, unsigned max_runs,
                double precision, vdc_stop_decision *d)
{
    GArray *rows = g_array_new(FALSE, TRUE, sizeof(vdc_stop_row));
    GArray *pairs;
    size_t n, k, i;

    memset(d, 0, sizeof(*d));
    d->targets = vdc_result_set_target_names(rs);
    d->tests = vdc_result_set_test_keys(rs, NULL);
    n = g_strv_length(d->targets);
    if (!n) {
        g_array_free(rows, TRUE);
        vdc_stop_decision_dispose(d);
        return -1;
    }
    pairs = headline_pairs(rs, d->targets, n);
    for (i = 0; i < pairs->len; i++)
        for (k = 0; d->tests[k]; k++) {
            vdc_stop_row row = { .test = k };

            if (!decide_row(rs, d->targets, &g_array_index(pairs, pair, i), d->tests[k], &row))
                continue;
            row.reason = vdc_stats_stop_rule(&row.p, runs, min_runs, max_runs, precision);
            d->n_open += row.reason == VDC_STOP_CONTINUE;
            g_array_append_val(rows, row);
        }
    g_array_free(pairs, TRUE);
    d->n_rows = rows->len;
    d->rows = (vdc_stop_row *)(void *)g_array_free(rows, FALSE);
    return 0;
}

void
vdc_stop_decision_dispose(vdc_stop_decision *d)
{
    g_strfreev(d->targets);
    g_strfreev(d->tests);
    g_free(d->rows);
    memset(d, 0, sizeof(*d));
}
