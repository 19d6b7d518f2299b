/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp answer (report/answer.h): what dom0's page cache did when no
 * cache pair ran, and what each backend costs dom0 per GiB moved. */
#include "config.h"

#include "report/answer.h"
#include "report/analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"

/* ---- dom0's page cache and the cost per backend ------------------------------- */

/* What was read back about dom0's page cache when no cache pair ran. */
void
vdc_answer_cache_note(struct vdc_answer_build *b)
{
    const struct vdc_analysis *a = b->a;
    GString *through = g_string_new(NULL), *bypass = g_string_new(NULL);
    size_t ti;

    for (ti = 0; ti < a->n_targets; ti++) {
        const vdc_target *t = vdc_result_set_find_target(b->rs, a->targets[ti]);

        if (!t || !t->kind || strcmp(t->kind, "image") || !t->where || strcmp(t->where, "domU"))
            continue;
        if (t->cache.bypasses_dom0_page_cache == 0)
            g_string_append_printf(through, "%s%s", through->len ? ", " : "", t->name);
        else if (t->cache.bypasses_dom0_page_cache == 1)
            g_string_append_printf(bypass, "%s%s", bypass->len ? ", " : "", t->name);
    }
    if (through->len && !bypass->len) {
        vdc_answer_add_line(b, VDC_ANSWER_CACHE, VDC_TONE_PLAIN, g_strdup("dom0's page cache"),
                 g_strdup_printf("%s went through it (read back after boot) and no image ran without it, so "
                                 "what it does is not measured (--image-cache host,none measures it)",
                                 through->str));
    } else if (bypass->len && !through->len) {
        vdc_answer_add_line(b, VDC_ANSWER_CACHE, VDC_TONE_PLAIN, g_strdup("dom0's page cache"),
                 g_strdup_printf("%s bypassed it (read back after boot): the image numbers are the disk's",
                                 bypass->str));
    }
    g_string_free(through, TRUE);
    g_string_free(bypass, TRUE);
}

/* The dom0 busy figure of (@ti, @ki), or NULL. */
static const struct vdc_host_cost *
busy_of(const struct vdc_analysis *a, size_t ti, size_t ki)
{
    size_t i;

    for (i = 0; i < a->n_host; i++)
        if (a->host[i].target == ti && a->host[i].test == ki && !strcmp(a->host[i].role, "dom0_busy") &&
            a->host[i].per_gib.n)
            return &a->host[i];
    return NULL;
}

/* The passes target @ti has a dom0 busy figure of in one of the tests
 * @keys (@nk of them) when it has none of the tests themselves: a thin
 * LV's "first-write", "overwrite", in the order of the test keys; an empty
 * list otherwise (g_strfreev). */
static char **
cost_passes(const struct vdc_analysis *a, size_t ti, const long *keys, size_t nk)
{
    GPtrArray *v = g_ptr_array_new();
    size_t k, ki, i;

    for (k = 0; k < nk; k++)
        if (busy_of(a, ti, (size_t)keys[k]))
            nk = 0;             /* it ran the tests themselves */
    for (ki = 0; ki < a->n_tests; ki++) {
        long kb = vdc_analysis_bare_key(a, ki);
        const char *p = vdc_test_key_pass(a->tests[ki]);

        for (k = 0; kb >= 0 && k < nk && keys[k] != kb; k++)
            ;
        if (kb < 0 || k == nk || !busy_of(a, ti, ki))
            continue;
        for (i = 0; i < v->len && strcmp(v->pdata[i], p); i++)
            ;
        if (i == v->len)
            g_ptr_array_add(v, g_strdup(p));
    }
    g_ptr_array_add(v, NULL);
    return (char **)g_ptr_array_free(v, FALSE);
}

/* "What each backend costs dom0": dom0 busy per GiB of each domU target
 * on the block write and read (else the first two tests with it). */
void
vdc_answer_cost_line(struct vdc_answer_build *b)
{
    const struct vdc_analysis *a = b->a;
    long keys[2] = { vdc_analysis_test_index(a, "put_block"), vdc_analysis_test_index(a, "get_block") };
    GString *s;
    size_t ti, ki, k, nk = 0;
    int any = 0, cut = 0;

    if (!a->n_host)
        return;
    /* the tests: block write and read when some domU has them, else the
     * first two that have the figure */
    for (k = 0; k < 2; k++) {
        int have = 0;

        for (ti = 0; keys[k] >= 0 && ti < a->n_targets; ti++)
            have |= a->files[ti].where && !strcmp(a->files[ti].where, "domU") && busy_of(a, ti, (size_t)keys[k]);
        if (have)
            keys[nk++] = keys[k];
    }
    for (ki = 0; !nk && ki < a->n_tests; ki++)
        for (ti = 0; ti < a->n_targets; ti++)
            if (a->files[ti].where && !strcmp(a->files[ti].where, "domU") && busy_of(a, ti, ki)) {
                keys[nk++] = (long)ki;
                break;
            }
    if (!nk)
        return;
    s = g_string_new(NULL);
    g_string_append_printf(s, "%s busy CPU s per GiB moved (", vdc_answer_on_xen(b->rs) ? "dom0" : "host");
    for (k = 0; k < nk; k++) {
        char label[VDC_TEST_LABEL_MAX];
        const char *key = a->tests[keys[k]];

        g_string_append_printf(s, "%s%s", k ? " / " : "",
                               !strcmp(key, "put_block") ? "block write" : !strcmp(key, "get_block") ? "block read"
                               : vdc_analysis_test_label(a, (size_t)keys[k], label, sizeof(label)));
    }
    g_string_append(s, "), mean [95 % CI]:");
    for (ti = 0; ti < a->n_targets; ti++) {
        g_auto(GStrv) passes = NULL;
        size_t q;

        if (!a->files[ti].where || strcmp(a->files[ti].where, "domU"))
            continue;
        /* a target measured in passes (a thin LV's first-write and
         * overwrite): each pass's figures beside the other */
        passes = cost_passes(a, ti, keys, nk);
        g_string_append_printf(s, "%s %s", any++ ? ";" : "", a->targets[ti]);
        for (q = 0; q == 0 || passes[q]; q++) {
            if (passes[0])
                g_string_append_printf(s, "%s %s", q ? "," : "", passes[q]);
            g_string_append_c(s, ' ');
            for (k = 0; k < nk; k++) {
                g_autofree char *pk = passes[0] ? g_strdup_printf("%s%c%s", a->tests[keys[k]], VDC_PASS_SEP,
                                                                  passes[q]) : NULL;
                long kk = pk ? vdc_analysis_test_index(a, pk) : keys[k];
                const struct vdc_host_cost *c = kk >= 0 ? busy_of(a, ti, (size_t)kk) : NULL;

                if (k)
                    g_string_append(s, " / ");
                if (c)
                    vdc_host_cost_fmt(s, &c->per_gib);
                else
                    g_string_append(s, "-");
                cut |= c && c->per_gib.n && c->per_gib_cut;
            }
        }
    }
    if (cut)
        g_string_append_printf(s, ". %s", vdc_host_cost_cut_note);
    if (any)
        vdc_answer_add_line(b, VDC_ANSWER_COST, VDC_TONE_PLAIN, g_strdup_printf("What each backend costs %s", vdc_answer_host_word(b->rs)),
                 g_string_free(s, FALSE));
    else
        g_string_free(s, TRUE);
}
