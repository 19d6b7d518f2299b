/* vmdiskcmp analysis: result set -> cells with statistics -> comparisons. */
#include "config.h"

#include "report/analysis.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"

void
vdc_analysis_init(struct vdc_analysis *a)
{
    memset(a, 0, sizeof(*a));
    vdc_stats_options_init(&a->opt);
    a->alpha = VDC_STATS_ALPHA;
}

void
vdc_analysis_dispose(struct vdc_analysis *a)
{
    size_t i;

    if (a->cells) {
        for (i = 0; i < a->n_targets * a->n_tests; i++)
            g_free(a->cells[i].samples);
    }
    g_free(a->cells);
    g_free(a->cmp);
    g_strfreev(a->targets);
    g_strfreev(a->tests);
    g_free(a->baseline);
    vdc_analysis_init(a);
}

const struct vdc_cell *
vdc_analysis_cell(const struct vdc_analysis *a, size_t ti, size_t ki)
{
    return &a->cells[ti * a->n_tests + ki];
}

const struct vdc_cell_comparison *
vdc_analysis_cmp(const struct vdc_analysis *a, size_t ti, size_t ki)
{
    if (ti == a->baseline_index)
        return NULL;
    return &a->cmp[ti * a->n_tests + ki];
}

long
vdc_analysis_test_index(const struct vdc_analysis *a, const char *key)
{
    size_t i;

    for (i = 0; key && i < a->n_tests; i++)
        if (!strcmp(a->tests[i], key))
            return (long)i;
    return -1;
}

char **
vdc_analysis_verdict_lines(const struct vdc_analysis *a)
{
    GPtrArray *v = g_ptr_array_new();
    size_t ti, ki;

    for (ti = 0; ti < a->n_targets; ti++) {
        size_t count[5] = { 0 }, total = 0;
        char extra[96] = "";

        if (ti == a->baseline_index)
            continue;
        for (ki = 0; ki < a->n_tests; ki++) {
            const struct vdc_cell_comparison *cc = vdc_analysis_cmp(a, ti, ki);

            if (!cc->target->n_samples || !cc->baseline->n_samples)
                continue;
            count[cc->c.verdict]++;
            total++;
        }
        if (count[VDC_VERDICT_NOT_COMPARABLE])
            snprintf(extra, sizeof(extra), ", %zu not comparable (too fast)", count[VDC_VERDICT_NOT_COMPARABLE]);
        g_ptr_array_add(v, g_strdup_printf("%s against %s: %zu faster, %zu slower, %zu no significant "
                                           "difference, %zu not tested%s (of %zu test%s)", a->targets[ti],
                                           a->baseline, count[VDC_VERDICT_FASTER], count[VDC_VERDICT_SLOWER],
                                           count[VDC_VERDICT_NO_DIFFERENCE], count[VDC_VERDICT_NOT_TESTED],
                                           extra, total, total == 1 ? "" : "s"));
    }
    g_ptr_array_add(v, NULL);
    return (char **)g_ptr_array_free(v, FALSE);
}

size_t
vdc_analysis_min_n(const struct vdc_analysis *a)
{
    size_t i, m = SIZE_MAX;

    for (i = 0; i < a->n_targets * a->n_tests; i++)
        if (a->cells[i].n_values && a->cells[i].sum.n < m)
            m = a->cells[i].sum.n;
    return m == SIZE_MAX ? 0 : m;
}

size_t
vdc_analysis_n_too_fast_cells(const struct vdc_analysis *a)
{
    size_t i, n = 0;

    for (i = 0; i < a->n_targets * a->n_tests; i++)
        if (a->cells[i].n_too_fast_excluded)
            n++;
    return n;
}

const char *
vdc_significance_mark(const struct vdc_stats_comparison *c)
{
    if (c->verdict == VDC_VERDICT_NOT_COMPARABLE)
        return VDC_TOO_FAST_MARK;
    if (!c->has_test)
        return "";
    if (c->p_value < 0.01)
        return "**";
    if (c->p_value < 0.05)
        return "*";
    return "~";
}

const char *
vdc_test_key_label(const char *key)
{
    int64_t bs = 0;
    const vdc_test_info *info = vdc_test_key_parse(key, &bs);

    return info ? info->label : key;
}

/* Values of @cell kept by the policy, into @out (n_values long). */
static size_t
kept_values(const struct vdc_cell *cell, enum vdc_outlier_policy policy, double *out)
{
    size_t i, n = 0;

    for (i = 0; i < cell->n_values; i++) {
        if (policy == VDC_OUTLIERS_DROP && cell->samples[i].outlier)
            continue;
        out[n++] = cell->samples[i].value;
    }
    return n;
}

static int
fill_cell(struct vdc_cell *cell, const vdc_result_set *rs, const struct vdc_stats_options *opt)
{
    vdc_sample_ref *refs;
    double *v = NULL, *z = NULL, cpu = 0;
    int *flag = NULL;
    size_t n, i, nv = 0, ncpu = 0;
    int64_t bs = 0;
    int rc = -1;

    cell->info = vdc_test_key_parse(cell->test_key, &bs);
    cell->unit = cell->info ? cell->info->unit : NULL;
    cell->cpu_mean = NAN;
    refs = vdc_result_set_lookup(rs, cell->target, cell->test_key, &n);
    cell->n_samples = n;
    cell->samples = g_new0(struct vdc_cell_sample, n ? n : 1);
    for (i = 0; i < n; i++) {
        const vdc_sample *s = refs[i].sample;

        if (s->unit)
            cell->unit = s->unit;
        if (!vdc_has(s->value)) {
            cell->n_no_value++;
            if (s->failed)
                cell->n_failed++;
            else if (s->too_fast) {
                cell->n_too_fast++;
                cell->n_too_fast_excluded++;
            }
            continue;
        }
        /* a too-fast sample with a value counts as valued but is still
         * reported as too fast (doc/result-format.md) */
        if (s->too_fast)
            cell->n_too_fast++;
        cell->samples[nv].repetition = refs[i].run->repetition;
        cell->samples[nv].value = s->value;
        cell->samples[nv].cpu_percent = s->cpu_percent;
        if (vdc_has(s->cpu_percent)) {
            cpu += s->cpu_percent;
            ncpu++;
        }
        nv++;
    }
    g_free(refs);
    cell->n_values = nv;
    if (ncpu)
        cell->cpu_mean = cpu / (double)ncpu;
    v = g_new(double, nv ? nv : 1);
    z = g_new(double, nv ? nv : 1);
    flag = g_new(int, nv ? nv : 1);
    for (i = 0; i < nv; i++)
        v[i] = cell->samples[i].value;
    if (vdc_stats_outliers(v, nv, opt->outlier_threshold, z, flag) < 0)
        goto out;
    for (i = 0; i < nv; i++) {
        cell->samples[i].modified_z = z[i];
        cell->samples[i].outlier = flag[i];
        cell->n_outliers += flag[i] ? 1 : 0;
    }
    n = kept_values(cell, opt->policy, v);
    if (vdc_stats_summarize(v, n, opt, &cell->sum) < 0)
        goto out;
    /* sample values are >= 0 (the loader refuses others): a Student t
     * interval reaching below 0 is cut there (doc/statistics.md); the
     * renderers print the half-width as ci_mean[1] - mean, uncut */
    if (cell->sum.has_ci_mean && cell->sum.ci_mean[0] < 0)
        cell->sum.ci_mean[0] = 0;
    cell->sum.n_outliers = cell->n_outliers;
    rc = 0;
 out:
    g_free(v);
    g_free(z);
    g_free(flag);
    return rc;
}

static char *
default_baseline(char **targets)
{
    size_t i;

    for (i = 0; targets[i]; i++)
        if (!strcmp(targets[i], "dom0"))
            return g_strdup("dom0");
    return g_strdup(targets[0]);
}

int
vdc_analysis_build(struct vdc_analysis *a, const vdc_result_set *rs,
                   const char *baseline, const struct vdc_stats_options *opt)
{
    size_t ti, ki;
    double *tv = NULL, *bv = NULL;

    vdc_analysis_dispose(a);
    a->opt = *opt;
    a->targets = vdc_result_set_target_names(rs);
    a->tests = vdc_result_set_test_keys(rs, NULL);
    a->n_targets = g_strv_length(a->targets);
    a->n_tests = g_strv_length(a->tests);
    if (a->n_targets == 0) {
        vdc_error("result set has no targets: no runs to report");
        goto fail;
    }
    if (baseline) {
        if (!g_strv_contains((const char *const *)a->targets, baseline)) {
            char *list = g_strjoinv(", ", a->targets);

            vdc_error("--baseline %s: no such target (targets: %s)", baseline, list);
            g_free(list);
            goto fail;
        }
        a->baseline = g_strdup(baseline);
    } else {
        a->baseline = default_baseline(a->targets);
    }
    for (ti = 0; ti < a->n_targets; ti++)
        if (!strcmp(a->targets[ti], a->baseline))
            a->baseline_index = ti;

    a->cells = g_new0(struct vdc_cell, a->n_targets * a->n_tests + 1);
    a->cmp = g_new0(struct vdc_cell_comparison, a->n_targets * a->n_tests + 1);
    for (ti = 0; ti < a->n_targets; ti++) {
        for (ki = 0; ki < a->n_tests; ki++) {
            struct vdc_cell *c = &a->cells[ti * a->n_tests + ki];

            c->target = a->targets[ti];
            c->test_key = a->tests[ki];
            if (fill_cell(c, rs, opt) < 0)
                goto fail;
        }
    }
    for (ki = 0; ki < a->n_tests; ki++) {
        const struct vdc_cell *b = vdc_analysis_cell(a, a->baseline_index, ki);
        size_t nb;

        bv = g_new(double, b->n_values + 1);
        nb = kept_values(b, opt->policy, bv);
        for (ti = 0; ti < a->n_targets; ti++) {
            struct vdc_cell_comparison *cc = &a->cmp[ti * a->n_tests + ki];
            const struct vdc_cell *t = vdc_analysis_cell(a, ti, ki);
            size_t nt;

            if (ti == a->baseline_index)
                continue;
            cc->target = t;
            cc->baseline = b;
            tv = g_new(double, t->n_values + 1);
            nt = kept_values(t, opt->policy, tv);
            vdc_stats_compare(tv, nt, bv, nb, a->alpha, &cc->c);
            /* a ratio of means of values >= 0 is >= 0: the Fieller
             * interval is cut at -100 % (doc/statistics.md) */
            if (cc->c.has_ci && cc->c.ci_delta_percent[0] < -100.0)
                cc->c.ci_delta_percent[0] = -100.0;
            /* a mean without its too-fast runs understates the speed:
             * no verdict on it (the delta is printed, marked) */
            if (t->n_too_fast_excluded || b->n_too_fast_excluded) {
                cc->c.verdict = VDC_VERDICT_NOT_COMPARABLE;
                cc->c.significant = 0;
            }
            g_free(tv);
            tv = NULL;
        }
        g_free(bv);
        bv = NULL;
    }
    return 0;
 fail:
    g_free(tv);
    g_free(bv);
    vdc_analysis_dispose(a);
    return -1;
}
