/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp answer (report/answer.h): what each test group answers, a
 * pair's rows in words, the tests that answer alike together. */
#include "config.h"

#include "report/answer.h"
#include "report/analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"

/* ---- the groups of tests ------------------------------------------------------ */

/* The group of test @ki ("Sequential output") and the test's name inside
 * it ("block"; "" for a group of one test), into @group and @item. */
static void
group_of(const struct vdc_analysis *a, size_t ki, char *group, size_t gsize, char *item, size_t isize)
{
    const struct vdc_cell *c = vdc_analysis_cell(a, 0, ki);
    int64_t bs = 0;
    const vdc_test_info *info = c->info ? vdc_test_key_parse(a->tests[ki], &bs) : NULL;
    static const struct { int id; const char *group, *item; } bonnie[] = {
        { VDC_TEST_PUTC, "Sequential output", "per-char" },
        { VDC_TEST_PUT_BLOCK, "Sequential output", "block" },
        { VDC_TEST_REWRITE, "Sequential output", "rewrite" },
        { VDC_TEST_GETC, "Sequential input", "per-char" },
        { VDC_TEST_GET_BLOCK, "Sequential input", "block" },
        { VDC_TEST_SEEKS, "Random seeks", "" },
        { VDC_TEST_SEQ_CREATE, "Sequential files", "create" },
        { VDC_TEST_SEQ_STAT, "Sequential files", "stat/read" },
        { VDC_TEST_SEQ_DEL, "Sequential files", "delete" },
        { VDC_TEST_RAN_CREATE, "Random files", "create" },
        { VDC_TEST_RAN_STAT, "Random files", "stat/read" },
        { VDC_TEST_RAN_DEL, "Random files", "delete" },
    };
    size_t i;

    if (!info) {
        snprintf(group, gsize, "%s", a->tests[ki]);
        item[0] = '\0';
        return;
    }
    for (i = 0; i < G_N_ELEMENTS(bonnie); i++)
        if ((int)info->id == bonnie[i].id) {
            const char *pass = vdc_test_key_pass(a->tests[ki]);

            snprintf(group, gsize, "%s", bonnie[i].group);
            /* a pass's key: the pass named beside the item ("block
             * first-write", "first-write" for seeks) */
            snprintf(item, isize, "%s%s%s", bonnie[i].item, pass && *bonnie[i].item ? " " : "",
                     pass ? pass : "");
            return;
        }
    if (info->workload) {
        char job[VDC_TEST_LABEL_MAX];

        snprintf(group, gsize, "Job %s", vdc_analysis_job_label(a, ki, job, sizeof(job)));
        snprintf(item, isize, "%s IOPS", info->id == VDC_TEST_WORKLOAD_WRITE ? "write" : "read");
        return;
    }
    /* the sweep and dd: by operation, the block size as the item */
    snprintf(group, gsize, "%s", info->short_label);
    if (bs % 1048576 == 0 && bs > 0)
        snprintf(item, isize, "%" G_GINT64_FORMAT " MiB", (gint64)(bs / 1048576));
    else if (bs % 1024 == 0 && bs > 0)
        snprintf(item, isize, "%" G_GINT64_FORMAT " KiB", (gint64)(bs / 1024));
    else
        snprintf(item, isize, "%" G_GINT64_FORMAT " B", (gint64)bs);
}

/* " [+13.1, +23.2]" (the delta's 95 % interval, %), " [unbounded]", "" */
static void
append_ci(GString *s, const struct vdc_stats_paired *p)
{
    if (p->has_ci)
        g_string_append_printf(s, " [%+.1f, %+.1f]", p->ci_delta_percent[0], p->ci_delta_percent[1]);
    else if (p->has_test)
        g_string_append(s, " [unbounded]");
}

/* The class of a row with a verdict: its effect class's name, "size
 * undecided" when the direction is shown but the interval reaches past
 * +-5 % with |delta| under it (vdc_effect_classify) */
static const char *
verdict_class(const struct vdc_headline_row *row)
{
    return row->effect == VDC_EFFECT_UNDECIDED ? "size undecided" : vdc_effect_class_name(row->effect);
}

/* How a row answers, the key its group merges rows by: the verdict (and
 * class) for a verdict, "same" (negligible), "undecided", "no verdict" with
 * its reason, "not tested" with its pairs; g_free. */
static char *
row_key(const struct vdc_analysis *a, const struct vdc_headline_pair *hp, const struct vdc_headline_row *row)
{
    char *why = vdc_headline_reason(a, hp, row), *k;

    if (why)
        k = g_strdup_printf("no verdict (%s)", why);
    else if ((row->verdict == VDC_VERDICT_NOT_TESTED || !row->p.has_ratio) && a->headline.unpaired)
        k = g_strdup_printf("not tested (%zu run%s a side, not paired)", row->p.n, row->p.n == 1 ? "" : "s");
    else if (row->verdict == VDC_VERDICT_NOT_TESTED || !row->p.has_ratio)
        k = g_strdup_printf("not tested (%zu pair%s)", row->p.n, row->p.n == 1 ? "" : "s");
    else if (row->verdict == VDC_VERDICT_FASTER || row->verdict == VDC_VERDICT_SLOWER)
        k = g_strdup_printf("%s %s", row->verdict == VDC_VERDICT_FASTER ? "faster" : "slower",
                            verdict_class(row));
    else if (row->effect == VDC_EFFECT_NEGLIGIBLE)
        k = g_strdup_printf("the same within %g %%", VDC_EFFECT_NEGLIGIBLE_PERCENT);
    else
        k = g_strdup("undecided");
    g_free(why);
    return k;
}

/* A row's numbers: "-6.2 % [-6.6, -5.8]" */
static void
append_numbers(GString *s, const struct vdc_headline_row *row)
{
    g_string_append_printf(s, "%+.1f %%", row->p.delta_percent);
    append_ci(s, &row->p);
}

/* One answer of a group, the rows @rows (@n of them, @items their names
 * in the group) sharing @key (row_key), onto @s:
 *   a verdict:   "block: image 6.2 % slower [-6.6, -5.8], moderate, p < 0.001",
 *                "image-qdisk slower in per-char (-45.3 % [-46.5, -44.1]),
 *                 block (...): large, p < 0.001"
 *   otherwise:   "block: undecided (-3.4 % [-10.1, +3.5])", "undecided in
 *                 block (...), rewrite (...)", "per-char, block: no
 *                 verdict (under-2x-ram on image and lvm)" */
static void
append_answer(GString *s, const struct vdc_analysis *a, const struct vdc_headline_pair *hp,
              const struct vdc_headline_row *const *rows, char *const *items, size_t n, const char *key)
{
    const struct vdc_headline_row *r0 = rows[0];
    int verdict = r0->verdict == VDC_VERDICT_FASTER || r0->verdict == VDC_VERDICT_SLOWER;
    int numbers = verdict || (!g_str_has_prefix(key, "no verdict") && !g_str_has_prefix(key, "not tested"));
    double p = 0;
    size_t i;

    for (i = 0; i < n; i++)
        p = fmax(p, rows[i]->p_holm);
    if (n == 1 && verdict) {
        g_string_append_printf(s, "%s%s%s %.1f %% %s", items[0], *items[0] ? ": " : "", a->targets[hp->target],
                               fabs(r0->p.delta_percent), r0->verdict == VDC_VERDICT_FASTER ? "faster" : "slower");
        append_ci(s, &r0->p);
        g_string_append_printf(s, ", %s", verdict_class(r0));
    } else if (n == 1 && numbers) {
        g_string_append_printf(s, "%s%s%s (", items[0], *items[0] ? ": " : "", key);
        append_numbers(s, r0);
        g_string_append_c(s, ')');
    } else if (!numbers) {
        for (i = 0; i < n; i++)
            g_string_append_printf(s, "%s%s", i ? ", " : "", items[i]);
        g_string_append_printf(s, "%s%s", *items[0] ? ": " : "", key);
    } else {
        if (verdict)
            g_string_append_printf(s, "%s %s in ", a->targets[hp->target],
                                   r0->verdict == VDC_VERDICT_FASTER ? "faster" : "slower");
        else
            g_string_append_printf(s, "%s in ", key);
        for (i = 0; i < n; i++) {
            g_string_append_printf(s, "%s%s (", i ? ", " : "", items[i]);
            append_numbers(s, rows[i]);
            g_string_append_c(s, ')');
        }
        if (verdict)
            g_string_append_printf(s, ": %s", verdict_class(r0));
    }
    if (verdict)
        g_string_append_printf(s, ", p %s %.2g", p < 0.001 ? "<" : n > 1 ? "<=" : "=", p < 0.001 ? 0.001 : p);
}

/* The rows of @hp as group lines: per group (in test order) its tests'
 * answers, the tests that answer alike (row_key) together:
 * "Sequential output, block: image 6.2 % slower [-6.6, -5.8], moderate,
 * p < 0.001; the same within 5 % in per-char (...), rewrite (...)". */
void
vdc_answer_pair_groups(struct vdc_answer_build *b, const struct vdc_headline_pair *hp)
{
    const struct vdc_analysis *a = b->a;
    GPtrArray *groups = g_ptr_array_new_with_free_func(g_free);
    size_t g, i, j;

    for (i = 0; i < hp->n_rows; i++) {
        char group[VDC_TEST_LABEL_MAX + 8], item[VDC_TEST_LABEL_MAX];

        group_of(a, hp->rows[i].test, group, sizeof(group), item, sizeof(item));
        for (g = 0; g < groups->len && strcmp(groups->pdata[g], group); g++)
            ;
        if (g == groups->len)
            g_ptr_array_add(groups, g_strdup(group));
    }
    for (g = 0; g < groups->len; g++) {
        GPtrArray *keys = g_ptr_array_new_with_free_func(g_free);
        GPtrArray *sets = g_ptr_array_new();       /* per key: GPtrArray of rows */
        GPtrArray *names = g_ptr_array_new();      /* per key: GPtrArray of item names (g_free) */
        GString *text = g_string_new(groups->pdata[g]);
        size_t n_faster = 0, n_slower = 0, n_verdict = 0;
        enum vdc_answer_tone tone;

        for (i = 0; i < hp->n_rows; i++) {
            const struct vdc_headline_row *row = &hp->rows[i];
            char group[VDC_TEST_LABEL_MAX + 8], item[VDC_TEST_LABEL_MAX];
            char *k;

            group_of(a, row->test, group, sizeof(group), item, sizeof(item));
            if (strcmp(group, groups->pdata[g]))
                continue;
            n_faster += row->verdict == VDC_VERDICT_FASTER;
            n_slower += row->verdict == VDC_VERDICT_SLOWER;
            n_verdict += row->verdict != VDC_VERDICT_NOT_COMPARABLE;
            k = row_key(a, hp, row);
            for (j = 0; j < keys->len && strcmp(keys->pdata[j], k); j++)
                ;
            if (j == keys->len) {
                g_ptr_array_add(keys, k);
                g_ptr_array_add(sets, g_ptr_array_new());
                g_ptr_array_add(names, g_ptr_array_new_with_free_func(g_free));
            } else {
                g_free(k);
            }
            g_ptr_array_add(sets->pdata[j], (gpointer)row);
            g_ptr_array_add(names->pdata[j], g_strdup(item));
        }
        for (j = 0; j < keys->len; j++) {
            GPtrArray *rows = sets->pdata[j], *items = names->pdata[j];

            /* "Sequential output, block: ...; ...", "Random seeks: ..." */
            const char *k = keys->pdata[j];
            int named = *(char *)items->pdata[0] &&
                        (rows->len == 1 || g_str_has_prefix(k, "no verdict") || g_str_has_prefix(k, "not tested"));

            g_string_append(text, j ? "; " : named ? ", " : ": ");
            append_answer(text, a, hp, (const struct vdc_headline_row *const *)rows->pdata,
                          (char *const *)items->pdata, rows->len, keys->pdata[j]);
            g_ptr_array_free(rows, TRUE);
            g_ptr_array_free(items, TRUE);
        }
        tone = !n_verdict ? VDC_TONE_NONE : n_faster && n_slower ? VDC_TONE_MIXED
               : n_faster ? VDC_TONE_FASTER : n_slower ? VDC_TONE_SLOWER : VDC_TONE_PLAIN;
        vdc_answer_add_line(b, VDC_ANSWER_GROUP, tone, NULL, g_string_free(text, FALSE));
        g_ptr_array_free(keys, TRUE);
        g_ptr_array_free(sets, TRUE);
        g_ptr_array_free(names, TRUE);
    }
    g_ptr_array_free(groups, TRUE);
}

/* The pairs of @hp: "5 pairs (fixed 5 runs)". */
char *
vdc_answer_pair_text(const struct vdc_analysis *a, const struct vdc_headline_pair *hp)
{
    const struct vdc_headline *h = &a->headline;
    GString *s = g_string_new(NULL);
    size_t n = hp->n_pairs_max;

    if (h->unpaired)            /* imported runs: not paired (report/headline.h) */
        g_string_append_printf(s, "%zu run%s on the smaller side, not paired", n, n == 1 ? "" : "s");
    else
        g_string_append_printf(s, "%zu pair%s", n, n == 1 ? "" : "s");
    if (h->runs_mode == VDC_RUNS_FIXED)
        g_string_append_printf(s, " (fixed %" G_GINT64_FORMAT " run%s)", (gint64)h->runs, h->runs == 1 ? "" : "s");
    else if (h->runs_mode == VDC_RUNS_AUTO)
        g_string_append_printf(s, " (runs auto: %" G_GINT64_FORMAT ")", (gint64)h->runs);
    return g_string_free(s, FALSE);
}
