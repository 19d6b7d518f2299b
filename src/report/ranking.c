/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The headline's ranking per test (ranking.h). */
#include "config.h"
#include "report/ranking.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/target.h"
#include "report/analysis.h"
#include "report/headline.h"
#include "stats/cld.h"
#include "stats/paired.h"

/* the kept values of cell @c: into @v (by repetition @rep), their count */
static size_t
kept_values(const struct vdc_analysis *a, const struct vdc_cell *c, double *v, int64_t *rep)
{
    size_t i, n = 0;

    for (i = 0; i < c->n_values; i++) {
        if (a->opt.policy == VDC_OUTLIERS_DROP && c->samples[i].outlier)
            continue;
        v[n] = c->samples[i].value;
        rep[n++] = c->samples[i].repetition;
    }
    return n;
}

static int
by_rank(const void *x, const void *y)
{
    const struct vdc_rank_entry *p = x, *q = y;

    if (!(p->bar || p->provisioning) != !(q->bar || q->provisioning))
        return p->bar || p->provisioning ? 1 : -1;
    if (p->mean != q->mean)
        return p->mean > q->mean ? -1 : 1;
    return p->target < q->target ? -1 : p->target > q->target;
}

/* The paired t-test's p of entries @x and @y over the repetitions both
 * have, or NAN when it has no test. */
static double
pair_p(const struct vdc_analysis *a, const struct vdc_rank_entry *x, const struct vdc_rank_entry *y)
{
    const struct vdc_cell *cx = vdc_analysis_cell(a, x->target, x->test), *cy = vdc_analysis_cell(a, y->target, y->test);
    double *vx = g_new(double, cx->n_values + 1), *vy = g_new(double, cy->n_values + 1);
    double *px = g_new(double, cx->n_values + 1), *py = g_new(double, cx->n_values + 1);
    int64_t *rx = g_new(int64_t, cx->n_values + 1), *ry = g_new(int64_t, cy->n_values + 1);
    size_t nx = kept_values(a, cx, vx, rx), ny = kept_values(a, cy, vy, ry), i, j, n = 0;
    struct vdc_stats_paired p;

    for (i = 0; i < nx; i++)
        for (j = 0; j < ny; j++)
            if (rx[i] == ry[j]) {
                px[n] = vx[i];
                py[n++] = vy[j];
                break;
            }
    vdc_stats_compare_paired(px, py, n, 0, 0, &p);
    g_free(vx);
    g_free(vy);
    g_free(px);
    g_free(py);
    g_free(rx);
    g_free(ry);
    return p.has_test ? p.p_value : NAN;
}

/* A pass that measures provisioning, not steady state: a thin LV's
 * first write allocates the pool's chunks as it goes */
static int
provisioning_pass(const char *pass)
{
    return pass && !strcmp(pass, "first-write");
}

/* Target @ti's entry of cell (@ti, @kc) into @e; 0, or -1 when the cell
 * has no sample or the target is bare dom0 */
static int
fill_entry(const struct vdc_analysis *a, const vdc_result_set *rs, size_t ti, size_t kc,
           struct vdc_rank_entry *e)
{
    const struct vdc_cell *c = vdc_analysis_cell(a, ti, kc);
    double *v, sum = 0;
    int64_t *rep;
    size_t i;

    if (!c->n_samples || vdc_result_set_target_role(rs, a->targets[ti]) == VDC_ROLE_DOM0)
        return -1;
    v = g_new(double, c->n_values + 1);
    rep = g_new(int64_t, c->n_values + 1);
    e->target = ti;
    e->test = kc;
    e->provisioning = provisioning_pass(vdc_test_key_pass(a->tests[kc]));
    e->n = kept_values(a, c, v, rep);
    for (i = 0; i < e->n; i++)
        sum += v[i];
    e->mean = e->n ? sum / (double)e->n : NAN;
    e->bar = c->flags & VDC_HEADLINE_NO_VERDICT_FLAGS;
    if (!e->n && !e->bar)
        e->bar = VDC_CELL_TOO_FAST & c->flags ? VDC_CELL_TOO_FAST : 0;
    g_free(v);
    g_free(rep);
    return 0;
}

static void
rank_test(struct vdc_analysis *a, const vdc_result_set *rs, size_t ki, struct vdc_ranking *r)
{
    size_t ti, i, j, k, m = 0, kp;
    double *p, *adj;
    unsigned char *differ;
    char (*letters)[VDC_CLD_LETTERS_MAX + 1];

    r->test = ki;
    r->entries = g_new0(struct vdc_rank_entry, a->n_targets * a->n_tests + 1);
    for (ti = 0; ti < a->n_targets; ti++) {
        if (fill_entry(a, rs, ti, ki, &r->entries[r->n_entries]) == 0) {
            r->n_entries++;
            continue;
        }
        /* a target that ran the test in passes: each pass its entry (a
         * thin LV's overwrite ranked, its first write shown apart) */
        for (kp = 0; kp < a->n_tests; kp++)
            if (vdc_analysis_bare_key(a, kp) == (long)ki &&
                fill_entry(a, rs, ti, kp, &r->entries[r->n_entries]) == 0)
                r->n_entries++;
    }
    qsort(r->entries, r->n_entries, sizeof(*r->entries), by_rank);
    for (i = 0; i < r->n_entries && !r->entries[i].bar && !r->entries[i].provisioning && r->entries[i].n; i++)
        ;
    r->n_ranked = i;
    k = r->n_ranked;
    if (k < 1 || k > VDC_CLD_ITEMS_MAX)
        return;
    p = g_new(double, k * k + 1);
    adj = g_new(double, k * k + 1);
    differ = g_new0(unsigned char, k * k + 1);
    letters = g_malloc0(k * sizeof(*letters));
    for (i = 0; i < k; i++)
        for (j = i + 1; j < k; j++) {
            p[m] = pair_p(a, &r->entries[i], &r->entries[j]);
            r->n_family += isnan(p[m]) ? 0 : 1;
            m++;
        }
    vdc_stats_holm(p, m, adj);
    for (i = 0, m = 0; i < k; i++)
        for (j = i + 1; j < k; j++, m++)
            if (!isnan(adj[m]) && adj[m] < a->alpha) {
                differ[i * k + j] = 1;
                r->n_differ++;
            }
    if (vdc_stats_cld(k, differ, letters) == 0)
        for (i = 0; i < k; i++) {
            g_strlcpy(r->entries[i].letters, letters[i], sizeof(r->entries[i].letters));
            for (j = 0; letters[i][j]; j++)
                r->n_groups = MAX(r->n_groups, (size_t)(letters[i][j] - 'a' + 1));
        }
    g_free(p);
    g_free(adj);
    g_free(differ);
    g_free(letters);
}

void
vdc_rankings_build(struct vdc_analysis *a, const vdc_result_set *rs)
{
    struct vdc_headline *h = &a->headline;
    size_t ki;

    h->rankings = g_new0(struct vdc_ranking, a->n_tests + 1);
    for (ki = 0; ki < a->n_tests; ki++) {
        struct vdc_ranking *r = &h->rankings[h->n_rankings];

        if (vdc_analysis_bare_key(a, ki) >= 0)
            continue;           /* a pass: ranked in its test's ranking */
        rank_test(a, rs, ki, r);
        if (r->n_entries >= 2)
            h->n_rankings++;
        else
            g_clear_pointer(&r->entries, g_free);
    }
}

char *
vdc_ranking_title(const struct vdc_analysis *a, const struct vdc_ranking *r)
{
    const struct vdc_cell *c = vdc_analysis_cell(a, r->entries[0].target, r->entries[0].test);
    char label[VDC_TEST_LABEL_MAX];

    vdc_analysis_test_label(a, r->test, label, sizeof(label));
    if (r->n_ranked > VDC_CLD_ITEMS_MAX)
        return g_strdup_printf("%s%s%s%s: %zu targets by mean, not grouped (more than %d to rank)", label,
                               c->unit ? " (" : "", c->unit ? c->unit : "", c->unit ? ")" : "", r->n_entries,
                               VDC_CLD_ITEMS_MAX);
    if (!r->n_ranked)
        return g_strdup_printf("%s%s%s%s: none of %zu targets ranked", label, c->unit ? " (" : "",
                               c->unit ? c->unit : "", c->unit ? ")" : "", r->n_entries);
    return g_strdup_printf("%s%s%s%s: %zu group%s among %zu ranked target%s of %zu", label,
                           c->unit ? " (" : "", c->unit ? c->unit : "", c->unit ? ")" : "",
                           r->n_groups, r->n_groups == 1 ? "" : "s", r->n_ranked,
                           r->n_ranked == 1 ? "" : "s", r->n_entries);
}

void
vdc_ranking_cells(const struct vdc_ranking *r, size_t i, char *letters, char *mean, char *note, size_t size)
{
    const struct vdc_rank_entry *e = &r->entries[i];
    unsigned b;
    size_t len;

    snprintf(letters, size, "%s", e->letters[0] ? e->letters : e->bar ? "‡" : e->provisioning ? "apart" : "-");
    if (e->n)
        snprintf(mean, size, "%.1f (%zu run%s)", e->mean, e->n, e->n == 1 ? "" : "s");
    else
        snprintf(mean, size, "no value");
    note[0] = '\0';
    if (e->provisioning && !e->bar) {
        snprintf(note, size, "%s", VDC_RANK_PROVISIONING);
        return;
    }
    if (!e->bar)
        return;
    snprintf(note, size, "not ranked:");
    for (b = 0; b < VDC_CELL_FLAG_COUNT; b++)
        if (e->bar & (1u << b)) {
            len = strlen(note);
            snprintf(note + len, size - len, "%s %s", note[len - 1] == ':' ? "" : ",",
                     vdc_cell_flag_name(1u << b));
        }
}

char *
vdc_ranking_groups_text(const struct vdc_analysis *a, const struct vdc_ranking *r)
{
    GString *s = g_string_new(NULL);
    size_t g, i;
    const char *sep = "";

    /* too many to letter (the compact letter display holds
     * VDC_CLD_ITEMS_MAX): the ends of the order, the count between */
    if (r->n_ranked > VDC_CLD_ITEMS_MAX) {
        g_autofree char *hi = vdc_rank_entry_name(a, &r->entries[0]);
        g_autofree char *lo = vdc_rank_entry_name(a, &r->entries[r->n_ranked - 1]);

        g_string_append_printf(s, "not grouped: %zu targets to rank, more than the %d a letter display holds; "
                               "highest mean %s %.1f, lowest %s %.1f", r->n_ranked, VDC_CLD_ITEMS_MAX, hi,
                               r->entries[0].mean, lo, r->entries[r->n_ranked - 1].mean);
    }
    for (g = 0; g < r->n_groups; g++) {
        g_string_append_printf(s, "%s%c ", g ? "; " : "", (char)('a' + g));
        for (i = 0, sep = ""; i < r->n_ranked; i++)
            if (strchr(r->entries[i].letters, 'a' + (int)g)) {
                g_autofree char *name = vdc_rank_entry_name(a, &r->entries[i]);

                g_string_append_printf(s, "%s%s %.1f", sep, name, r->entries[i].mean);
                sep = ", ";
            }
    }
    for (i = r->n_ranked; i < r->n_entries; i++)
        if (r->entries[i].provisioning && !r->entries[i].bar) {
            g_autofree char *name = vdc_rank_entry_name(a, &r->entries[i]);

            g_string_append_printf(s, "%s%s %.1f apart", s->len ? "; " : "", name, r->entries[i].mean);
        }
    for (i = r->n_ranked, sep = s->len ? "; not ranked: " : "not ranked: "; i < r->n_entries; i++) {
        unsigned b;
        const char *fsep = " (";
        g_autofree char *name = vdc_rank_entry_name(a, &r->entries[i]);

        if (r->entries[i].provisioning && !r->entries[i].bar)
            continue;
        g_string_append_printf(s, "%s%s", sep, name);
        for (b = 0; b < VDC_CELL_FLAG_COUNT; b++)
            if (r->entries[i].bar & (1u << b)) {
                g_string_append_printf(s, "%s%s", fsep, vdc_cell_flag_name(1u << b));
                fsep = ", ";
            }
        if (r->entries[i].bar)
            g_string_append_c(s, ')');
        sep = ", ";
    }
    return g_string_free(s, FALSE);
}

/* ranking.h */
char *
vdc_rank_entry_name(const struct vdc_analysis *a, const struct vdc_rank_entry *e)
{
    const char *pass = vdc_test_key_pass(a->tests[e->test]);

    return pass ? g_strdup_printf("%s (%s)", a->targets[e->target], pass) : g_strdup(a->targets[e->target]);
}

char *
vdc_ranking_method_text(const struct vdc_analysis *a)
{
    const struct vdc_headline *h = &a->headline;
    GString *s = g_string_new(NULL);
    size_t i, e, n_ranked = 0, n_apart = 0;

    for (i = 0; i < h->n_rankings; i++) {
        n_ranked += h->rankings[i].n_ranked;
        for (e = 0; e < h->rankings[i].n_entries; e++)
            n_apart += h->rankings[i].entries[e].provisioning && !h->rankings[i].entries[e].bar;
    }
    if (n_ranked)
        g_string_append(s, "Per test, best mean first: targets sharing a letter cannot be told apart (paired "
                           "t-test between every two, Holm within the test); ‡ not ranked (a flag withholds "
                           "its verdict).");
    else
        g_string_append(s, "Per test, the targets by mean, none ranked: a flag on every one withholds its "
                           "verdict (‡, the flags named).");
    if (n_apart)
        g_string_append(s, " A thin LV's first-write pass is shown apart, never ranked: it measures the pool's "
                           "provisioning, not steady state; its overwrite pass is ranked.");
    return g_string_free(s, FALSE);
}

void
vdc_ranking_lines(const struct vdc_analysis *a, GPtrArray *v)
{
    const struct vdc_headline *h = &a->headline;
    size_t i, e;
    char letters[64], mean[64], note[64];

    g_ptr_array_add(v, g_strdup_printf("ranking of %zu targets (%s %" G_GINT64_FORMAT " run%s): targets sharing "
                                       "a letter cannot be told apart", h->rankings[0].n_entries,
                                       h->runs_mode == VDC_RUNS_AUTO ? "auto," : "fixed", (gint64)h->runs,
                                       h->runs == 1 ? "" : "s"));
    g_ptr_array_add(v, g_strdup("  (paired t-test between every two, Holm within the test; ‡ not ranked: "
                                "a flag withholds its verdict)"));
    for (i = 0; i < h->n_rankings; i++) {
        const struct vdc_ranking *r = &h->rankings[i];
        int width = 0;

        for (e = 0; e < r->n_entries; e++) {
            g_autofree char *name = vdc_rank_entry_name(a, &r->entries[e]);

            width = MAX(width, (int)g_utf8_strlen(name, -1));
        }
        g_ptr_array_add(v, vdc_ranking_title(a, r));
        for (e = 0; e < r->n_entries; e++) {
            g_autofree char *name = vdc_rank_entry_name(a, &r->entries[e]);

            vdc_ranking_cells(r, e, letters, mean, note, sizeof(mean));
            /* padded by characters, not bytes: the letters may be "‡" */
            g_ptr_array_add(v, g_strdup_printf("  %s%*s %s%*s %s%s%s", letters,
                                               (int)(4 - MIN(4, g_utf8_strlen(letters, -1))), "", name,
                                               (int)(width - g_utf8_strlen(name, -1)), "", mean,
                                               note[0] ? "; " : "", note));
        }
    }
}
