/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp answer (report/answer.h): the first screen of every report, in
 * words, from the headline, the cells and the host figures: its lines and
 * fixes, the words for what the result holds, and the order of the answer
 * (its parts: answer_groups.c, answer_fixes.c, answer_dom0.c,
 * answer_variants.c). */
#include "config.h"

#include "report/answer.h"
#include "report/analysis.h"
#include "report/ranking.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "model/knobs.h"

void
vdc_answer_init(struct vdc_answer *ans)
{
    memset(ans, 0, sizeof(*ans));
}

void
vdc_answer_dispose(struct vdc_answer *ans)
{
    size_t i;

    for (i = 0; i < ans->n_lines; i++) {
        g_free(ans->lines[i].label);
        g_free(ans->lines[i].text);
    }
    for (i = 0; i < ans->n_fixes; i++) {
        g_free(ans->fixes[i].option);
        g_free(ans->fixes[i].why);
        g_free(ans->fixes[i].targets);
    }
    g_free(ans->lines);
    g_free(ans->fixes);
    g_free(ans->title);
    g_free(ans->legend);
    vdc_answer_init(ans);
}

const char *
vdc_answer_kind_name(enum vdc_answer_kind k)
{
    switch (k) {
    case VDC_ANSWER_NOTE: return "note";
    case VDC_ANSWER_PAIR: return "pair";
    case VDC_ANSWER_GROUP: return "group";
    case VDC_ANSWER_CACHE: return "cache";
    case VDC_ANSWER_COST: return "cost";
    case VDC_ANSWER_FIX: return "fix";
    case VDC_ANSWER_DENSITY: return "density";
    case VDC_ANSWER_LEVEL: return "level";
    }
    return "note";
}

/* A line; @label and @text taken. */
void
vdc_answer_add_line(struct vdc_answer_build *b, enum vdc_answer_kind kind, enum vdc_answer_tone tone, char *label, char *text)
{
    struct vdc_answer_line l = { kind, tone, label, text };

    g_array_append_val(b->lines, l);
}

/* ---- words from what the result holds --------------------------------- */

/* 1 when the result ran under Xen (libxl, or libvirt's xen:// driver):
 * the host is dom0; otherwise (QEMU/KVM, TCG) it is "the host" */
int
vdc_answer_on_xen(const vdc_result_set *rs)
{
    const vdc_hypervisor_info *h = &rs->experiment.hypervisor;

    if (!rs->has_experiment || !h->driver)
        return 1;               /* imported: dom0, as the field says */
    return !strcmp(h->driver, "libxl") || (h->uri && g_str_has_prefix(h->uri, "xen"));
}

/* "dom0" or "the host" (on_xen) */
const char *
vdc_answer_host_word(const vdc_result_set *rs)
{
    return vdc_answer_on_xen(rs) ? "dom0" : "the host";
}

/* What stands for the LV in this run: "LV" when a target is of kind lvm,
 * "block device" when only block targets stand in for it, "LV" when
 * there is neither (the question the tool asks) */
static const char *
lv_word(const vdc_result_set *rs)
{
    size_t i;
    int block = 0;

    for (i = 0; i < rs->n_targets; i++) {
        const char *k = rs->targets[i]->kind;

        if (k && !strcmp(k, "lvm"))
            return "LV";
        block |= k && !strcmp(k, "block");
    }
    return block ? "block device" : "LV";
}

/* ---- the answer --------------------------------------------------------------- */

/* "Storage variants": answer_variants.c */
static void
variants_line(struct vdc_answer_build *b)
{
    enum vdc_answer_tone tone = VDC_TONE_PLAIN;
    char *text = vdc_answer_variants_text(b->a, b->rs, &tone);

    if (text)
        vdc_answer_add_line(b, VDC_ANSWER_NOTE, tone, g_strdup("Storage variants"), text);
}

/* "Served by": what served each target of the answer's pairs, as the run
 * read it back, in the words of the report's "Backend, cache and
 * placement" (vdc_knobs_served_text), so the answer's numbers say what
 * produced them.  No line when no target has a backend read back
 * (imports, agent output). */
static void
served_line(struct vdc_answer_build *b)
{
    const struct vdc_headline *h = &b->a->headline;
    GString *s = g_string_new(NULL);
    gboolean *seen = g_new0(gboolean, b->a->n_targets + 1);
    size_t i, k, n_read = 0;

    for (i = 0; i < h->n_pairs; i++) {
        const struct vdc_headline_pair *hp = &h->pairs[i];
        size_t two[2] = { hp->target, hp->reference };

        if (hp->role != VDC_HEADLINE_CHOICE && hp->role != VDC_HEADLINE_BASELINE)
            continue;
        for (k = 0; k < 2; k++) {
            const vdc_target *t = vdc_result_set_find_target(b->rs, b->a->targets[two[k]]);
            g_autofree char *served = NULL;

            if (seen[two[k]] || !t)
                continue;
            seen[two[k]] = TRUE;
            served = vdc_knobs_served_text(t, vdc_answer_host_word(b->rs));
            n_read += served != NULL;
            g_string_append_printf(s, "%s%s: %s", s->len ? "; " : "", t->name,
                                   served ? served : "not read back");
        }
    }
    g_free(seen);
    if (n_read)
        vdc_answer_add_line(b, VDC_ANSWER_NOTE, VDC_TONE_PLAIN, g_strdup("Served by"),
                            g_string_free(s, FALSE));
    else
        g_string_free(s, TRUE);
}

void
vdc_answer_build(struct vdc_analysis *a, const vdc_result_set *rs)
{
    const struct vdc_headline *h = &a->headline;
    struct vdc_answer *ans = &a->answer;
    struct vdc_answer_build b = { a, rs, g_array_new(FALSE, TRUE, sizeof(struct vdc_answer_line)),
                       g_array_new(FALSE, TRUE, sizeof(struct vdc_answer_fix)),
                       g_ptr_array_new(), g_ptr_array_new(), NULL, 0, 0, 0, 0, 0 };
    char *absent = vdc_headline_absent_text(a), *left_out = vdc_headline_left_out_text(a);
    size_t i, j, n_cache = 0;

    vdc_answer_dispose(ans);
    ans->lv_word = lv_word(rs);
    ans->title = g_strdup_printf("The answer: image or %s on this host%s", ans->lv_word,
                                 rs->has_experiment && rs->experiment.emulated == 1 ? " (EMULATED: relative only)" : "");
    ans->legend = g_strdup(h->unpaired ? "[95 % interval of the delta, each test alone]; p: Welch's t-test, not "
                                         "paired, Holm-corrected across a pair's tests"
                                       : "[95 % interval of the delta, each test alone]; p: paired t-test, "
                                         "Holm-corrected across a pair's tests");
    if (absent)
        vdc_answer_add_line(&b, VDC_ANSWER_NOTE, VDC_TONE_PLAIN, NULL, absent);
    if (left_out)
        vdc_answer_add_line(&b, VDC_ANSWER_NOTE, VDC_TONE_PLAIN, NULL, left_out);
    if (a->reading.present)
        vdc_answer_add_line(&b, VDC_ANSWER_NOTE, VDC_TONE_PLAIN, NULL,
                 g_strdup("One run a cell (imported): no statistics can speak; the plain reading after the "
                          "headline says what the numbers show (each target's share of the reference, the odd one out)."));
    /* a matrix: per test its targets in groups, not every pair */
    for (i = j = 0; i < h->n_rankings; i++)
        j += h->rankings[i].n_ranked;
    if (h->n_rankings && j)
        vdc_answer_add_line(&b, VDC_ANSWER_NOTE, VDC_TONE_PLAIN, NULL, vdc_ranking_method_text(a));
    for (i = j = 0; i < h->n_rankings; i++)
        j += h->rankings[i].n_ranked;
    if (h->n_rankings && !j)        /* nothing ranked: the flags are the blockers below */
        vdc_answer_add_line(&b, VDC_ANSWER_NOTE, VDC_TONE_NONE, NULL,
                 g_strdup_printf("No target is ranked in any of the %zu test%s: each has a flag that withholds "
                                 "its verdict (the headline's tables name them; below, what removes them).",
                                 h->n_rankings, h->n_rankings == 1 ? "" : "s"));
    for (i = 0; j && i < h->n_rankings; i++) {
        char label[VDC_TEST_LABEL_MAX];

        vdc_analysis_test_label(a, h->rankings[i].test, label, sizeof(label));
        vdc_answer_add_line(&b, VDC_ANSWER_PAIR, VDC_TONE_PLAIN, g_strdup(label),
                 vdc_ranking_groups_text(a, &h->rankings[i]));
    }
    for (i = 0; i < h->n_pairs; i++) {
        const struct vdc_headline_pair *hp = &h->pairs[i];

        if (hp->role != VDC_HEADLINE_CHOICE && hp->role != VDC_HEADLINE_BASELINE)
            continue;
        if (h->n_rankings && hp->role == VDC_HEADLINE_CHOICE)
            continue;
        vdc_answer_add_line(&b, VDC_ANSWER_PAIR, VDC_TONE_PLAIN,
                 g_strdup_printf("%s relative to %s%s", a->targets[hp->target],
                                 hp->role == VDC_HEADLINE_BASELINE ? "the baseline " : "",
                                 a->targets[hp->reference]), vdc_answer_pair_text(a, hp));
        vdc_answer_pair_groups(&b, hp);
    }
    for (i = 0; i < h->n_pairs; i++) {
        const struct vdc_headline_pair *hp = &h->pairs[i];

        if (hp->role != VDC_HEADLINE_CACHE)
            continue;
        n_cache++;
        vdc_answer_add_line(&b, VDC_ANSWER_CACHE, VDC_TONE_PLAIN, g_strdup("dom0's page cache"),
                 g_strdup_printf("%s (through it) against %s (without it): %s", a->targets[hp->target],
                                 a->targets[hp->reference], vdc_answer_pair_text(a, hp)));
        vdc_answer_pair_groups(&b, hp);
    }
    served_line(&b);
    variants_line(&b);
    if (!n_cache && rs->has_experiment)
        vdc_answer_cache_note(&b);
    vdc_answer_cost_line(&b);
    vdc_answer_density(&b);
    for (i = 0; i < h->n_pairs; i++)
        for (j = 0; j < h->pairs[i].n_rows; j++) {
            b.row = &h->pairs[i].rows[j];
            b.n_rows++;
            /* a ceiling row (a target against bare dom0) is a share, never
             * a verdict: undecided is counted among the others */
            if (h->pairs[i].role != VDC_HEADLINE_CEILING)
                b.n_verdict_rows++;
            vdc_answer_row_fixes(&b, &h->pairs[i], &h->pairs[i].rows[j]);
        }
    vdc_answer_merge_sizes(&b);
    for (i = 0; i < b.fixes->len; i++) {
        struct vdc_answer_fix *f = &g_array_index(b.fixes, struct vdc_answer_fix, i);
        GString *t = b.fix_targets->pdata[i];
        int verdicts = !strcmp(f->state, "undecided") || !strcmp(f->state, "unbounded");
        size_t n_unbounded = 0;
        GHashTableIter it;
        gpointer row;
        char *of_them;

        vdc_answer_fix_words(&b, f);
        f->targets = g_string_free(t, FALSE);
        f->n_tests = g_hash_table_size(b.fix_rows->pdata[i]);
        /* the undecided rows whose interval has no bound, said apart */
        g_hash_table_iter_init(&it, b.fix_rows->pdata[i]);
        while (g_hash_table_iter_next(&it, &row, NULL))
            n_unbounded += ((const struct vdc_headline_row *)row)->effect == VDC_EFFECT_UNBOUNDED;
        of_them = !strcmp(f->state, "undecided") && n_unbounded
                  ? g_strdup_printf(", %zu of them unbounded", n_unbounded) : g_strdup("");
        /* undecided and unbounded come of verdict rows only: counted
         * among the verdicts, the ceiling's shares apart */
        f->n_total = verdicts ? b.n_verdict_rows : b.n_rows;
        g_hash_table_destroy(b.fix_rows->pdata[i]);
        /* what was counted, said once: a comparison is a pair of targets in one test */
        vdc_answer_add_line(&b, VDC_ANSWER_FIX, VDC_TONE_PLAIN, NULL,
                 g_strdup_printf("%c%s in %zu of the %zu %s%s%s%s%s%s: %s%s%s%s.",
                                 g_ascii_toupper(f->state[0]), f->state + 1, f->n_tests, f->n_total,
                                 verdicts ? "verdict" : "comparison", f->n_total == 1 ? "" : "s",
                                 i ? "" : " (pair of targets x test)", of_them,
                                 *f->targets ? " of " : "", f->targets,
                                 f->option ? "rerun with " : "", f->option ? f->option : "",
                                 f->option ? ": " : "", f->why));
        g_free(of_them);
    }
    if (!b.lines->len)
        vdc_answer_add_line(&b, VDC_ANSWER_NOTE, VDC_TONE_PLAIN, NULL, g_strdup("Nothing to compare: no pair of targets."));
    g_ptr_array_free(b.fix_targets, TRUE);
    g_ptr_array_free(b.fix_rows, TRUE);
    ans->n_lines = b.lines->len;
    ans->lines = (struct vdc_answer_line *)(void *)g_array_free(b.lines, FALSE);
    ans->n_fixes = b.fixes->len;
    ans->fixes = (struct vdc_answer_fix *)(void *)g_array_free(b.fixes, FALSE);
}
