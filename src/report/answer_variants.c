/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp answer (report/answer.h): whether the storage variants change
 * the verdict, the answer's "Storage variants" line. */
#include "config.h"

#include "report/answer.h"
#include "report/analysis.h"

#include <string.h>

#include <glib.h>

/* A row's verdict as a word when it has one: "faster", "slower", "the
 * same" (within the negligible band); NULL when it has none (no verdict,
 * not tested, undecided) */
static const char *
decided(const struct vdc_analysis *a, const struct vdc_headline_pair *hp, const struct vdc_headline_row *row)
{
    g_autofree char *why = vdc_headline_reason(a, hp, row);

    if (why || row->verdict == VDC_VERDICT_NOT_TESTED || row->verdict == VDC_VERDICT_NOT_COMPARABLE ||
        !row->p.has_ratio)
        return NULL;
    if (row->verdict == VDC_VERDICT_FASTER || row->verdict == VDC_VERDICT_SLOWER)
        return row->verdict == VDC_VERDICT_FASTER ? "faster" : "slower";
    return row->effect == VDC_EFFECT_NEGLIGIBLE ? "the same" : NULL;
}

/* The row of @hp for test key @key, or NULL */
static const struct vdc_headline_row *
row_of(const struct vdc_analysis *a, const struct vdc_headline_pair *hp, const char *key)
{
    size_t i;

    for (i = 0; i < hp->n_rows; i++)
        if (!strcmp(a->tests[hp->rows[i].test], key))
            return &hp->rows[i];
    return NULL;
}

/* Two rows answering the same question for two storage variants: counted
 * when both have a verdict, named in @changes when the verdicts differ */
static void
contrast(const struct vdc_analysis *a, const struct vdc_headline_pair *p, const struct vdc_headline_row *rp,
         const struct vdc_headline_pair *q, const struct vdc_headline_row *rq, size_t *n_both, GString *changes,
         size_t *n_changes)
{
    const char *vp = decided(a, p, rp), *vq = decided(a, q, rq);
    char lp[VDC_TEST_LABEL_MAX], lq[VDC_TEST_LABEL_MAX];

    if (!vp || !vq)
        return;
    (*n_both)++;
    if (!strcmp(vp, vq))
        return;
    if ((*n_changes)++ < 3) {
        vdc_analysis_test_label(a, rp->test, lp, sizeof(lp));
        vdc_analysis_test_label(a, rq->test, lq, sizeof(lq));
        g_string_append_printf(changes, "%s%s: %s %s against %s, %s%s%s %s against %s", changes->len ? "; " : "",
                               lp, vp, a->targets[p->target], a->targets[p->reference],
                               strcmp(lp, lq) ? lq : "", strcmp(lp, lq) ? ": " : "", vq,
                               a->targets[q->target], a->targets[q->reference]);
    }
}

/* 1 when targets @ti and @tj differ in their storage as read back (an
 * image's format or allocation, an LV's type): a storage variant, not a
 * backend's or a cache's */
static int
storage_variants(const vdc_target *const *rec, size_t ti, size_t tj)
{
    const vdc_target *t = rec[ti], *u = rec[tj];

    if (!t || !u || g_strcmp0(t->kind, u->kind))
        return 0;
    return (t->storage.format && u->storage.format && strcmp(t->storage.format, u->storage.format)) ||
           (t->storage.alloc && u->storage.alloc && strcmp(t->storage.alloc, u->storage.alloc)) ||
           (t->storage.lv_type && u->storage.lv_type && strcmp(t->storage.lv_type, u->storage.lv_type));
}

/* Whether the storage variants of the run (an image's format and
 * allocation, an LV's type, aging: targets of one kind side by side; a
 * thin LV's first-write and overwrite passes) change the verdict: every
 * two choice pairs that share a side, and every two passes of one pair,
 * compared test by test where both have a verdict (answer.h). */
char *
vdc_answer_variants_text(const struct vdc_analysis *a, const vdc_result_set *rs, enum vdc_answer_tone *tone)
{
    const struct vdc_headline *h = &a->headline;
    GString *changes = g_string_new(NULL);
    size_t i, j, k, n_both = 0, n_changes = 0, n_contrasts = 0;
    /* each target's record, looked up once (a lookup scans the targets) */
    g_autofree const vdc_target **rec = g_new0(const vdc_target *, a->n_targets + 1);
    char *text;

    for (i = 0; i < a->n_targets; i++)
        rec[i] = vdc_result_set_find_target(rs, a->targets[i]);

    for (i = 0; i < h->n_pairs; i++) {
        const struct vdc_headline_pair *p = &h->pairs[i];

        if (p->role != VDC_HEADLINE_CHOICE && p->role != VDC_HEADLINE_BASELINE)
            continue;
        /* two variants on one side of the same pair's other side */
        for (j = i + 1; j < h->n_pairs; j++) {
            const struct vdc_headline_pair *q = &h->pairs[j];

            if (q->role != p->role || p->role == VDC_HEADLINE_BASELINE ||
                (q->target == p->target ? !storage_variants(rec, p->reference, q->reference)
                 : q->reference != p->reference || !storage_variants(rec, p->target, q->target)))
                continue;
            n_contrasts++;
            for (k = 0; k < p->n_rows; k++) {
                const char *key = a->tests[p->rows[k].test];
                const struct vdc_headline_row *rq = row_of(a, q, key);

                if (!rq && vdc_test_key_pass(key)) {
                    /* a pass against the other pair's one pass */
                    g_autofree char *bare = g_strndup(key, (gsize)(strchr(key, VDC_PASS_SEP) - key));

                    rq = row_of(a, q, bare);
                }
                if (rq)
                    contrast(a, p, &p->rows[k], q, rq, &n_both, changes, &n_changes);
            }
        }
        /* the passes of one pair: each against the first pass of its test */
        for (k = 0; k < p->n_rows; k++) {
            const char *key = a->tests[p->rows[k].test], *sep = strchr(key, VDC_PASS_SEP);

            for (j = k + 1; sep && j < p->n_rows; j++) {
                const char *other = a->tests[p->rows[j].test];

                if (!strncmp(other, key, (size_t)(sep - key) + 1) && strcmp(other, key)) {
                    n_contrasts++;
                    contrast(a, p, &p->rows[k], p, &p->rows[j], &n_both, changes, &n_changes);
                }
            }
        }
    }
    if (!n_contrasts) {
        g_string_free(changes, TRUE);
        return NULL;
    }
    *tone = n_changes ? VDC_TONE_MIXED : VDC_TONE_PLAIN;
    if (n_changes)
        text = (g_strdup_printf("the verdict changes with the storage variant (format, allocation, LV type, "
                                 "aging or a thin LV's pass) in %zu of %zu comparisons decided on both sides: "
                                 "%s%s", n_changes, n_both, changes->str, n_changes > 3 ? "; ..." : ""));
    else if (n_both)
        text = (g_strdup_printf("the verdict does not change with the storage variant (format, allocation, "
                                 "LV type, aging or a thin LV's pass): the same in all %zu comparisons decided "
                                 "on both sides", n_both));
    else
        text = (g_strdup("whether the storage variant (format, allocation, LV type, aging or a thin LV's pass) "
                          "changes the verdict is not known yet: no test has a verdict for two variants "
                          "(more runs narrow the intervals)"));
    g_string_free(changes, TRUE);
    return text;
}
