/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The headline's rows when the runs are not paired (report/headline.h,
 * vdc_headline.unpaired: imported results, agent output): Welch's test and
 * Fieller's interval over each side's values, in the members the paired
 * rows use, so that every renderer prints them as it prints paired rows,
 * with the words "not paired". */
#include "config.h"

#include "report/analysis.h"
#include "report/headline.h"

#include <math.h>
#include <string.h>

#include <glib.h>

/* @c's values the outlier policy keeps, into @out (n_values long) */
static size_t
kept_values(const struct vdc_analysis *a, const struct vdc_cell *c, double *out)
{
    size_t i, n = 0;

    for (i = 0; i < c->n_values; i++)
        if (!(a->opt.policy == VDC_OUTLIERS_DROP && c->samples[i].outlier))
            out[n++] = c->samples[i].value;
    return n;
}

/* headline.h */
void
vdc_headline_welch_row(const struct vdc_analysis *a, const struct vdc_cell *t, const struct vdc_cell *b,
                       struct vdc_stats_paired *p)
{
    double *tv = g_new(double, t->n_values + 1), *bv = g_new(double, b->n_values + 1);
    size_t nt = kept_values(a, t, tv), nb = kept_values(a, b, bv), i;
    struct vdc_stats_comparison c;

    memset(p, 0, sizeof(*p));
    p->mean_t = p->mean_b = p->ratio = p->delta_percent = p->half_width = NAN;
    p->t = p->df = p->p_value = p->p_perm = NAN;
    p->ci_ratio[0] = p->ci_ratio[1] = p->ci_delta_percent[0] = p->ci_delta_percent[1] = NAN;
    p->n = MIN(nt, nb);
    if (nt && nb) {
        p->mean_t = p->mean_b = 0;
        for (i = 0; i < nt; i++)
            p->mean_t += tv[i] / (double)nt;
        for (i = 0; i < nb; i++)
            p->mean_b += bv[i] / (double)nb;
    }
    vdc_stats_compare(tv, nt, bv, nb, a->alpha, &c);
    p->has_ratio = c.has_ratio;
    if (c.has_ratio) {
        p->ratio = c.ratio;
        p->delta_percent = c.delta_percent;
    }
    /* a ratio of rates is never negative: the floor rule (stats.h) */
    vdc_stats_comparison_floor(&c);
    if (c.has_ci) {
        p->has_ci = 1;
        p->ci_cut = c.ci_cut;
        p->ci_delta_percent[0] = c.ci_delta_percent[0];
        p->ci_delta_percent[1] = c.ci_delta_percent[1];
        p->ci_ratio[0] = 1 + p->ci_delta_percent[0] / 100;
        p->ci_ratio[1] = 1 + p->ci_delta_percent[1] / 100;
        p->half_width = p->ratio > 0 ? MAX(p->ci_ratio[1] - p->ratio, p->ratio - p->ci_ratio[0]) / p->ratio
                        : NAN;
    }
    if (c.has_test) {
        p->has_test = 1;
        p->t = c.welch_t;
        p->df = c.welch_df;
        p->p_value = c.p_value;
    }
    g_free(tv);
    g_free(bv);
}
