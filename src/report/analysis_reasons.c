/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp analysis: why a comparison has no verdict, in words (the
 * flags that bar it on either side, test file sizes that differ), for a
 * cell and for a target's not-comparable lines (analysis.h). */
#include "config.h"

#include "report/analysis.h"

#include <string.h>

#include <glib.h>

/* analysis.h */
char *
vdc_no_verdict_reason(const struct vdc_analysis *a, size_t ti, size_t ri, unsigned bar_t, unsigned bar_r,
                      int sizes_differ)
{
    GString *s;
    unsigned i;

    if (!bar_t && !bar_r && !sizes_differ)
        return NULL;
    s = g_string_new(NULL);
    for (i = 0; i < VDC_CELL_FLAG_COUNT; i++) {
        unsigned bit = 1u << i;

        if (!((bar_t | bar_r) & bit))
            continue;
        g_string_append_printf(s, "%s%s on ", s->len ? "; " : "", vdc_cell_flag_name(bit));
        if (bar_t & bit)
            g_string_append(s, a->targets[ti]);
        if ((bar_t & bit) && (bar_r & bit))
            g_string_append(s, " and ");
        if (bar_r & bit)
            g_string_append(s, a->targets[ri]);
    }
    if (sizes_differ) {
        const struct vdc_target_files *f = &a->files[ti], *g = &a->files[ri];

        g_string_append_printf(s, "%stest file sizes differ (%s %" G_GINT64_FORMAT, s->len ? "; " : "",
                               a->targets[ti], f->lo);
        if (f->hi != f->lo)
            g_string_append_printf(s, "-%" G_GINT64_FORMAT, f->hi);
        g_string_append_printf(s, " MiB, %s %" G_GINT64_FORMAT, a->targets[ri], g->lo);
        if (g->hi != g->lo)
            g_string_append_printf(s, "-%" G_GINT64_FORMAT, g->hi);
        g_string_append(s, " MiB)");
    }
    return g_string_free(s, FALSE);
}

/* analysis.h */
char *
vdc_analysis_cmp_reason(const struct vdc_analysis *a, size_t ti, size_t ki)
{
    const struct vdc_cell_comparison *cc = vdc_analysis_cmp(a, ti, ki);

    if (!cc || cc->c.verdict != VDC_VERDICT_NOT_COMPARABLE)
        return NULL;
    return vdc_no_verdict_reason(a, ti, a->baseline_index, cc->bar_target, cc->bar_baseline, cc->sizes_differ);
}

/* analysis.h */
char **
vdc_analysis_not_comparable_lines(const struct vdc_analysis *a)
{
    GPtrArray *v = g_ptr_array_new();
    size_t ti, ki, k;

    for (ti = 0; ti < a->n_targets; ti++) {
        GPtrArray *why = g_ptr_array_new_with_free_func(g_free);
        GPtrArray *tests = g_ptr_array_new();

        for (ki = 0; ki < a->n_tests; ki++) {
            char *w = vdc_analysis_cmp_reason(a, ti, ki), label[VDC_TEST_LABEL_MAX];

            if (!w)
                continue;
            vdc_reason_group_add(why, tests, w, vdc_analysis_test_label(a, ki, label, sizeof(label)));
        }
        for (k = 0; k < why->len; k++) {
            g_ptr_array_add(v, g_strdup_printf("%s relative to %s: not comparable (%s): %s", a->targets[ti],
                                               a->baseline, (char *)why->pdata[k],
                                               ((GString *)tests->pdata[k])->str));
            g_string_free(tests->pdata[k], TRUE);
        }
        g_ptr_array_free(why, TRUE);
        g_ptr_array_free(tests, TRUE);
    }
    g_ptr_array_add(v, NULL);
    return (char **)g_ptr_array_free(v, FALSE);
}

/* analysis.h */
void
vdc_reason_group_add(GPtrArray *why, GPtrArray *tests, char *reason, const char *label)
{
    guint k;

    for (k = 0; k < why->len && strcmp(why->pdata[k], reason); k++)
        ;
    if (k == why->len) {
        g_ptr_array_add(why, reason);
        g_ptr_array_add(tests, g_string_new(label));
    } else {
        g_string_append_printf(tests->pdata[k], "; %s", label);
        g_free(reason);
    }
}
