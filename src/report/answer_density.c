/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp answer (report/answer.h): many guests at once on the first
 * screen, from the density analysis (report/density.h): what produced its
 * numbers, one line per level and test (the aggregate, the p99 over all
 * guests' I/Os, the fairness), where each backend stops scaling, and what
 * may be an artefact. */
#include "config.h"

#include "report/answer.h"
#include "report/analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "report/render_fmt.h"

/* The cell of (level @level, target @ti, test @ki), or NULL */
static const struct vdc_density_cell *
cell_at(const struct vdc_density *d, int64_t level, size_t ti, size_t ki)
{
    size_t li;

    for (li = 0; li < d->n_levels; li++)
        if (d->levels[li] == level)
            return vdc_density_cell(d, li, ti, ki);
    return NULL;
}

/* What may be an artefact in cells @t and @r (either may be NULL) onto
 * @s: ". May be an artefact: the start skew of image was above 5 % ...;
 * lvm: 1 repetition left out (a guest failed: g0 in repetition 2)";
 * @name_t, @name_r their targets, @d their analysis */
static void
append_artefacts(GString *s, const struct vdc_density *d, const struct vdc_density_cell *t, const char *name_t,
                 const struct vdc_density_cell *r, const char *name_r)
{
    GString *flags = g_string_new(NULL);
    size_t i, left = (t ? t->n_incomplete : 0) + (r ? r->n_incomplete : 0);

    if ((t && t->skewed) || (r && r->skewed))
        g_string_append_printf(flags, "the start skew of %s was above %.0f %% of a guest's time (the guests "
                               "did not all run side by side)",
                               t && t->skewed && r && r->skewed ? "both" : t && t->skewed ? name_t : name_r,
                               100 * VDC_DENSITY_SKEW_SHARE);
    for (i = 0; left && i < 2; i++) {
        const struct vdc_density_cell *c = i ? r : t;
        GString *why;

        if (!c || !c->n_incomplete)
            continue;
        why = g_string_new(NULL);
        vdc_density_left_out_text(why, d, c);
        g_string_append_printf(flags, "%s%s: %s", flags->len ? "; " : "", i ? name_r : name_t, why->str);
        g_string_free(why, TRUE);
    }
    if (flags->len)
        g_string_append_printf(s, ". May be an artefact: %s", flags->str);
    g_string_free(flags, TRUE);
}

/* The line of one cell of a target in no pair: "at 2 guests, Sequential
 * output, block: image 198010 K/sec aggregate, 1 repetition (no
 * interval); fairness (Jain, 1 all equal) 0.997" */
static char *
cell_line(const struct vdc_analysis *a, const struct vdc_density_cell *c)
{
    const struct vdc_density *d = &a->density;
    GString *s = g_string_new(NULL);
    char label[VDC_TEST_LABEL_MAX];

    g_string_append_printf(s, "at %" G_GINT64_FORMAT " guest%s, %s: %s ", c->level, c->level == 1 ? "" : "s",
                           vdc_density_test_label(a, c->test, label, sizeof(label)), d->targets[c->target]);
    if (c->n_reps)
        g_string_append_printf(s, "%s %s aggregate", vdc_fmt_num_s(c->sum.mean), c->unit ? c->unit : "");
    else
        g_string_append(s, "no repetition with every guest valued");
    if (c->sum.has_ci_mean)
        g_string_append_printf(s, " [%s, %s]", vdc_fmt_num_s(c->sum.ci_mean[0]), vdc_fmt_num_s(c->sum.ci_mean[1]));
    g_string_append_printf(s, ", %zu repetition%s%s", c->n_reps, c->n_reps == 1 ? "" : "s",
                           c->n_reps && !c->sum.has_ci_mean ? " (no interval: under 2)" : "");
    if (vdc_has(c->p99_mean))
        g_string_append_printf(s, "; p99 over all guests' I/Os %s us", vdc_fmt_num_s(c->p99_mean));
    if (c->level > 1 && vdc_has(c->jain_mean))
        g_string_append_printf(s, "; fairness (Jain, 1 all equal) %.3f (min %.3f)", c->jain_mean, c->jain_min);
    append_artefacts(s, d, c, d->targets[c->target], NULL, NULL);
    return g_string_free(s, FALSE);
}

/* The line of one pair: "at 3 guests, rr4k (file), read IOPS: image gives
 * 16.7 % less aggregate IO/sec than lvm [-32.4, -1.0], p = 0.134 (Holm, 3
 * tests; ...), undecided; p99 over all guests' I/Os 34.2 % higher [...];
 * fairness (Jain, 1 all equal) image 0.987 (min 0.960), lvm 1.000 (min
 * 1.000); 3 paired repetitions" and what may be an artefact */
static char *
pair_line(const struct vdc_analysis *a, const struct vdc_density_pair *p)
{
    const struct vdc_density *d = &a->density;
    const struct vdc_density_cell *t = cell_at(d, p->level, p->target, p->test);
    const struct vdc_density_cell *r = cell_at(d, p->level, p->reference, p->test);
    GString *s = g_string_new(NULL);
    char label[VDC_TEST_LABEL_MAX];

    g_string_append_printf(s, "at %" G_GINT64_FORMAT " guest%s, %s: ", p->level, p->level == 1 ? "" : "s",
                           vdc_density_test_label(a, p->test, label, sizeof(label)));
    if (!p->agg.has_ratio) {
        g_string_append_printf(s, "no repetition with a value on both %s and %s", d->targets[p->target],
                               d->targets[p->reference]);
        return g_string_free(s, FALSE);
    }
    g_string_append_printf(s, "%s gives %.1f %% %s aggregate %s than %s", d->targets[p->target],
                           fabs(p->agg.delta_percent), p->agg.delta_percent >= 0 ? "more" : "less",
                           t && t->unit ? t->unit : "", d->targets[p->reference]);
    vdc_density_paired_means_text(s, d, p, 0, NULL);
    vdc_density_sure_text(s, p, 0, 0);
    if (p->p99.has_ratio) {
        g_string_append_printf(s, "; p99 over all guests' I/Os %.1f %% %s", fabs(p->p99.delta_percent),
                               p->p99.delta_percent >= 0 ? "higher" : "lower");
        vdc_density_paired_means_text(s, d, p, 1, "us");
        vdc_density_sure_text(s, p, 1, 0);
    }
    if (p->level > 1 && t && r && vdc_has(t->jain_mean) && vdc_has(r->jain_mean))
        g_string_append_printf(s, "; fairness (Jain, 1 all equal) %s %.3f (min %.3f), %s %.3f (min %.3f)",
                               d->targets[p->target], t->jain_mean, t->jain_min, d->targets[p->reference],
                               r->jain_mean, r->jain_min);
    g_string_append_printf(s, "; %zu paired repetition%s", p->agg.n, p->agg.n == 1 ? "" : "s");
    /* what may be an artefact: said here, never ranked silently */
    append_artefacts(s, d, t, d->targets[p->target], r, d->targets[p->reference]);
    return g_string_free(s, FALSE);
}

/* The levels of @d as "1, 3" (g_free) */
static char *
levels_text(const struct vdc_density *d)
{
    GString *s = g_string_new(NULL);
    size_t li;

    for (li = 0; li < d->n_levels; li++)
        g_string_append_printf(s, "%s%" G_GINT64_FORMAT, li ? ", " : "", d->levels[li]);
    return g_string_free(s, FALSE);
}

void
vdc_answer_density(struct vdc_answer_build *b)
{
    const struct vdc_analysis *a = b->a;
    const struct vdc_density *d = &a->density;
    g_autofree char *levels = NULL;
    GString *stops;
    size_t i, ti, ki, reps = 0;
    int emulated = b->rs->has_experiment && b->rs->experiment.emulated == 1;

    if (!d->n_levels)
        return;
    for (i = 0; i < d->n_levels * d->n_targets * d->n_tests; i++)
        reps = MAX(reps, d->cells[i].n_reps);
    levels = levels_text(d);
    vdc_answer_add_line(b, VDC_ANSWER_DENSITY, VDC_TONE_PLAIN, g_strdup("Many guests at once"),
                        g_strdup_printf("level%s %s (up to %zu repetition%s a level): at each, N domUs of one target "
                                        "at once, each on its own copy of its storage, released together; "
                                        "aggregate: the sum of the guests' rates%s%s",
                                        d->n_levels == 1 ? "" : "s", levels, reps, reps == 1 ? "" : "s",
                                        d->n_pairs ? "; each image against each LV or block target at the same "
                                                     "level, paired by repetition (same seeds), [95 % interval "
                                                     "of the delta], p: paired t-test, Holm within the level's "
                                                     "tests and quantities"
                                                   : "; no image beside an LV or block target: each target's "
                                                     "own figures, nothing compared",
                                        emulated ? "; EMULATED: relative only" : ""));
    /* the targets in no pair: their own figures, level by level */
    for (i = 0; i < d->n_levels * d->n_targets * d->n_tests; i++) {
        const struct vdc_density_cell *c = &d->cells[i];
        size_t j;

        for (j = 0; j < d->n_pairs; j++)
            if (d->pairs[j].target == c->target || d->pairs[j].reference == c->target)
                break;
        if (j == d->n_pairs && (c->n_reps || c->n_incomplete))
            vdc_answer_add_line(b, VDC_ANSWER_LEVEL, VDC_TONE_PLAIN, NULL, cell_line(a, c));
    }
    for (i = 0; i < d->n_pairs; i++) {
        const struct vdc_density_pair *p = &d->pairs[i];
        enum vdc_answer_tone tone = !p->agg_significant ? VDC_TONE_NONE
                                  : p->agg.delta_percent > 0 ? VDC_TONE_FASTER : VDC_TONE_SLOWER;

        vdc_answer_add_line(b, VDC_ANSWER_LEVEL, tone, NULL, pair_line(a, p));
    }
    /* where each backend stops scaling, or that it grows to the last level */
    stops = g_string_new(NULL);
    for (ti = 0; d->n_levels > 1 && ti < d->n_targets; ti++)
        for (ki = 0; ki < d->n_tests; ki++) {
            g_autofree char *why = vdc_density_stop_text(a, ti, ki);
            char label[VDC_TEST_LABEL_MAX];

            if (why)
                g_string_append_printf(stops, "%s%s on %s: %s", stops->len ? "; " : "", d->targets[ti],
                                       vdc_density_test_label(a, ki, label, sizeof(label)), why);
        }
    if (stops->len) {
        vdc_answer_add_line(b, VDC_ANSWER_LEVEL, VDC_TONE_PLAIN, g_strdup("Scaling"),
                            g_string_free(stops, FALSE));
        return;
    }
    g_string_free(stops, TRUE);
    if (d->n_levels > 1)
        vdc_answer_add_line(b, VDC_ANSWER_LEVEL, VDC_TONE_PLAIN, g_strdup("Scaling"),
                            g_strdup_printf("no target shown to stop scaling up to %" G_GINT64_FORMAT " guests: "
                                            "each next level's aggregate is larger with its interval, or a level "
                                            "has under 2 repetitions to tell", d->levels[d->n_levels - 1]));
}
