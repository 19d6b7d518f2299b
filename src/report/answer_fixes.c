/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp answer (report/answer.h): the blockers of the rows without a
 * verdict and the option that removes each, the runs undecided rows need. */
#include "config.h"

#include "report/answer.h"
#include "report/analysis.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"


/* The why of the "undecided at --max-runs" fix until runs_fix_words */
static const char runs_fix_mark[] = "\001runs";

/* ---- the blockers and their options --------------------------------------------- */

/* A fix of rows in @state ("no verdict", "undecided", "not tested"),
 * counted once per row it concerns; @option, @why taken; @target (may be
 * NULL) added to the targets it names. */
static void
add_fix_in(struct vdc_answer_build *b, const char *state, char *option, char *why, const char *target)
{
    size_t i;
    GString *t;

    for (i = 0; i < b->fixes->len; i++) {
        struct vdc_answer_fix *f = &g_array_index(b->fixes, struct vdc_answer_fix, i);

        if (!strcmp(f->state, state) && !g_strcmp0(f->option, option) && !strcmp(f->why, why)) {
            g_free(option);
            g_free(why);
            break;
        }
    }
    if (i == b->fixes->len) {
        struct vdc_answer_fix f = { state, option, why, NULL, 0, 0 };

        g_array_append_val(b->fixes, f);
        g_ptr_array_add(b->fix_targets, g_string_new(NULL));
        g_ptr_array_add(b->fix_rows, g_hash_table_new(NULL, NULL));
    }
    /* a comparison counts once however many blockers of it this fix removes */
    g_hash_table_add(b->fix_rows->pdata[i], (gpointer)b->row);
    t = b->fix_targets->pdata[i];
    if (target) {
        char **names = g_strsplit(t->str, ", ", -1);

        if (!g_strv_contains((const char *const *)names, target))
            g_string_append_printf(t, "%s%s", t->len ? ", " : "", target);
        g_strfreev(names);
    }
}

/* a blocker: the row has no verdict */
static void
add_fix(struct vdc_answer_build *b, char *option, char *why, const char *target)
{
    add_fix_in(b, "no verdict", option, why, target);
}

/* whose memory caches the file of target @ti: "the guest's", "dom0's",
 * "the host's", "the machine's" */
static const char *
whose(const struct vdc_analysis *a, size_t ti)
{
    const char *w = a->files[ti].where;

    return !w ? "the machine's" : !strcmp(w, "domU") ? "the guest's" : !strcmp(w, "dom0") ? "dom0's"
                                                                                           : "the host's";
}

/* the option that sets target @ti's test file size */
static const char *
size_option(const struct vdc_analysis *a, size_t ti)
{
    const char *w = a->files[ti].where;

    return w && !strcmp(w, "dom0") ? "--dom0-size" : "--size";
}

/* 1 when a target of @rs asked QEMU for cache=none */
static int
disk_cache_none_ran(const vdc_result_set *rs)
{
    size_t i;

    for (i = 0; i < rs->n_targets; i++)
        if (rs->targets[i]->requested.disk_cache && !strcmp(rs->targets[i]->requested.disk_cache, "none"))
            return 1;
    return 0;
}

/* The fixes of one flag @bit of target @ti's cell (row of @hp). */
static void
flag_fix(struct vdc_answer_build *b, const struct vdc_headline_pair *hp, size_t ti, size_t ki, unsigned bit)
{
    const struct vdc_analysis *a = b->a;
    const struct vdc_target_files *f = &a->files[ti];
    const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);
    const char *name = a->targets[ti];

    if (bit == VDC_CELL_UNDER_2X_RAM && f->n_small) {
        GString *why = g_string_new(NULL);

        g_string_append_printf(why, "the %" G_GINT64_FORMAT " MiB test file is under twice %s %" G_GINT64_FORMAT
                               " MiB", f->small_size, whose(a, ti), f->small_ram);
        add_fix(b, g_strdup_printf("%s %" G_GINT64_FORMAT "M", size_option(a, ti), 2 * f->small_ram),
                g_string_free(why, FALSE), name);
    } else if (bit == VDC_CELL_TOO_FAST) {
        int id = c->info ? (int)c->info->id : -1;

        if (c->info && c->info->group == VDC_TEST_GROUP_FILES)
            add_fix(b, NULL, g_strdup("file tests too fast to measure (bonnie++ +++++: under 0.5 s): more "
                                      "files per test (bonnie++'s -n, through --agent-options) measure them"),
                    name);
        else if (f->n_runs && (id == VDC_TEST_PUTC || id == VDC_TEST_PUT_BLOCK || id == VDC_TEST_REWRITE ||
                               id == VDC_TEST_GETC || id == VDC_TEST_GET_BLOCK))
            add_fix(b, g_strdup_printf("%s %" G_GINT64_FORMAT "M", size_option(a, ti), 2 * f->hi),
                    g_strdup_printf("tests too fast to measure (bonnie++ +++++: under 0.5 s) on the %"
                                    G_GINT64_FORMAT " MiB file: twice the file takes twice the time", f->hi),
                    name);
        else
            add_fix(b, NULL, g_strdup("tests too fast to measure (bonnie++ +++++: under 0.5 s)"), name);
    } else if (bit == VDC_CELL_DOM0_PAGE_CACHE && hp->role != VDC_HEADLINE_CACHE) {
        const struct vdc_headline *h = &a->headline;
        size_t i;

        /* its twin without dom0's page cache ran: it answers for the disk */
        for (i = 0; i < h->n_pairs; i++)
            if (h->pairs[i].role == VDC_HEADLINE_CACHE && h->pairs[i].target == ti)
                break;
        const vdc_target *t = vdc_result_set_find_target(b->rs, name);
        const char *dc = t ? t->requested.disk_cache : NULL;

        if (i < h->n_pairs)
            add_fix(b, NULL, g_strdup_printf("it was served from %s's page cache, not the disk: %s, the same "
                                             "image without that cache, answers for the disk",
                                             vdc_answer_host_word(b->rs), a->targets[h->pairs[i].reference]), name);
        else if (dc && strcmp(dc, "none") && strcmp(dc, "directsync") && strcmp(dc, "default") &&
                 disk_cache_none_ran(b->rs))
            /* the run holds the same disks with cache=none: they answer for the disk */
            add_fix(b, NULL, g_strdup_printf("QEMU's cache=%s served it from %s's page cache, not the disk: the "
                                             "cache=none targets answer for the disk", dc, vdc_answer_host_word(b->rs)),
                    name);
        else if (dc && strcmp(dc, "none") && strcmp(dc, "directsync") && strcmp(dc, "default"))
            /* QEMU's cache mode put it there, an image's or a block device's alike */
            add_fix(b, g_strdup("--disk-cache none"),
                    g_strdup_printf("QEMU's cache=%s served it from %s's page cache, not the disk; none opens "
                                    "the disk with O_DIRECT", dc, vdc_answer_host_word(b->rs)), name);
        else if (t && t->kind && !strcmp(t->kind, "image"))
            add_fix(b, g_strdup("--image-cache host,none"),
                    g_strdup_printf("it was served from %s's page cache, not the disk; host,none also runs it "
                                    "without that cache", vdc_answer_host_word(b->rs)), name);
        else
            add_fix(b, NULL, g_strdup_printf("it was served from %s's page cache, not the disk (its warning says "
                                             "which numbers)", vdc_answer_host_word(b->rs)), name);
    } else if (bit & VDC_CELL_ARTEFACTS) {
        add_fix(b, NULL, g_strdup_printf("%s: may be an artefact of the measurement (its warning says which "
                                         "numbers)", vdc_cell_flag_name(bit)), name);
    }
}

/* The most RAM that can cache target @ti's test file over its runs (the
 * under-2x-ram rule's, vdc_cache_ram_mib), MiB; 0 when not known. */
static int64_t
cache_ram(const struct vdc_analysis *a, const vdc_result_set *rs, size_t ti)
{
    int64_t most = 0;
    size_t i;

    for (i = 0; i < rs->n_runs; i++)
        if (rs->runs[i]->target && !strcmp(rs->runs[i]->target, a->targets[ti]))
            most = MAX(most, vdc_cache_ram_mib(rs, rs->runs[i]));
    return most;
}

/* Test file sizes that differ between @hp's targets: one size for both,
 * at least twice the RAM of each (the larger of the two sizes or of twice
 * each RAM), given to the option of each side that does not have it yet:
 * "--size 2048M" for a domU that ran 512 MiB beside dom0's 2048 MiB. */
static void
sizes_fix(struct vdc_answer_build *b, const struct vdc_headline_pair *hp)
{
    const struct vdc_analysis *a = b->a;
    const struct vdc_target_files *f = &a->files[hp->target], *g = &a->files[hp->reference];
    int64_t size = MAX(MAX(f->hi, g->hi), 2 * MAX(cache_ram(a, b->rs, hp->target), cache_ram(a, b->rs, hp->reference)));
    GString *opt = g_string_new(NULL);
    const char *ot = size_option(a, hp->target), *orf = size_option(a, hp->reference);

    if (f->lo != size || f->hi != size)
        g_string_append_printf(opt, "%s %" G_GINT64_FORMAT "M", ot, size);
    if ((g->lo != size || g->hi != size) && (strcmp(ot, orf) || !opt->len))
        g_string_append_printf(opt, "%s%s %" G_GINT64_FORMAT "M", opt->len ? " " : "", orf, size);
    add_fix(b, g_string_free(opt, FALSE),
            g_strdup_printf("the test file sizes differ (%" G_GINT64_FORMAT " against %" G_GINT64_FORMAT
                            " MiB): one size, at least twice each RAM", f->lo, g->lo),
            a->targets[hp->target]);
}

/* "--size 512M" -> its option ("--size", into @name) and MiB; 0 when
 * @option is not one size option */
static int64_t
size_of_option(const char *option, char *name, size_t size)
{
    const char *sp = option ? strchr(option, ' ') : NULL;
    char *end = NULL;
    int64_t v;

    if (!sp || strchr(sp + 1, ' ') || (strncmp(option, "--size ", 7) && strncmp(option, "--dom0-size ", 12)))
        return 0;
    v = g_ascii_strtoll(sp + 1, &end, 10);
    if (!end || strcmp(end, "M") || v <= 0)
        return 0;
    snprintf(name, size, "%.*s", (int)(sp - option), option);
    return v;
}

/* One --size per option: the fixes that each rerun with a size of the same
 * option (a file under twice the RAM, tests too fast on it) become one, at
 * the largest size, which removes every one of their blockers, with each
 * reason; their rows and targets joined. */
void
vdc_answer_merge_sizes(struct vdc_answer_build *b)
{
    size_t i, j;

    for (i = 0; i < b->fixes->len; i++) {
        struct vdc_answer_fix *f = &g_array_index(b->fixes, struct vdc_answer_fix, i);
        char fname[32], gname[32];
        int64_t fs = size_of_option(f->option, fname, sizeof(fname));

        for (j = i + 1; fs && j < b->fixes->len;) {
            struct vdc_answer_fix *g = &g_array_index(b->fixes, struct vdc_answer_fix, j);
            int64_t gs = size_of_option(g->option, gname, sizeof(gname));
            GHashTableIter it;
            gpointer row;
            char *why;
            char **names;
            size_t k;

            if (strcmp(f->state, g->state) || !gs || strcmp(fname, gname)) {
                j++;
                continue;
            }
            /* the larger size's reason first */
            why = gs > fs ? g_strdup_printf("%s; %s", g->why, f->why) : g_strdup_printf("%s; %s", f->why, g->why);
            g_free(f->why);
            f->why = why;
            if (gs > fs) {
                g_free(f->option);
                f->option = g->option;
                g->option = NULL;
                fs = gs;
            }
            g_hash_table_iter_init(&it, b->fix_rows->pdata[j]);
            while (g_hash_table_iter_next(&it, &row, NULL))
                g_hash_table_add(b->fix_rows->pdata[i], row);
            names = g_strsplit(((GString *)b->fix_targets->pdata[j])->str, ", ", -1);
            for (k = 0; names[k]; k++) {
                GString *t = b->fix_targets->pdata[i];
                char **have = g_strsplit(t->str, ", ", -1);

                if (*names[k] && !g_strv_contains((const char *const *)have, names[k]))
                    g_string_append_printf(t, "%s%s", t->len ? ", " : "", names[k]);
                g_strfreev(have);
            }
            g_strfreev(names);
            g_free(g->option);
            g_free(g->why);
            g_hash_table_destroy(b->fix_rows->pdata[j]);
            g_string_free(b->fix_targets->pdata[j], TRUE);
            g_ptr_array_remove_index(b->fix_rows, j);
            g_ptr_array_remove_index(b->fix_targets, j);
            g_array_remove_index(b->fixes, j);
            f = &g_array_index(b->fixes, struct vdc_answer_fix, i);
        }
    }
}

/* An undecided row at the most runs --max-runs allowed: the runs its
 * interval needs (vdc_stats_runs_needed); the rows join one fix, worded
 * from the widest (runs_fix_words). */
static void
max_runs_fix(struct vdc_answer_build *b, const struct vdc_headline_row *row, int64_t max_runs)
{
    double need = row->p.has_ci ? vdc_stats_runs_needed(row->p.n, row->p.half_width,
                                                         VDC_EFFECT_NEGLIGIBLE_PERCENT / 100.0) : NAN;

    if (isnan(need)) {
        add_fix_in(b, "unbounded", NULL,
                   g_strdup_printf("the ratio's interval has no bound at the %" G_GINT64_FORMAT " runs "
                                   "allowed (the reference's mean is not clear of 0 in the pairs)",
                                   (gint64)max_runs), NULL);
        return;
    }
    b->runs_need = MAX(b->runs_need, need);
    b->runs_hw = MAX(b->runs_hw, row->p.half_width);
    b->runs_max = max_runs;
    add_fix_in(b, "undecided", NULL, g_strdup(runs_fix_mark), NULL);
}

/* The "undecided at --max-runs" fix's words: the runs the widest
 * interval needs, or above 200 that repetition will not decide it here. */
static void
runs_fix_words(const struct vdc_answer_build *b, struct vdc_answer_fix *f)
{
    g_free(f->why);
    if (b->runs_need > 200.0) {
        f->why = g_strdup_printf("at the %" G_GINT64_FORMAT " runs allowed the widest interval is +-%.0f %%; "
                                 "within +-%g %% it would take some %.0f runs (as 1/sqrt(n)): here the "
                                 "repetitions differ more than the backends, and a quieter host decides "
                                 "it, not more runs", (gint64)b->runs_max, 100.0 * b->runs_hw,
                                 VDC_EFFECT_NEGLIGIBLE_PERCENT, b->runs_need);
        return;
    }
    f->option = g_strdup_printf("--max-runs %.0f", MAX(b->runs_need, (double)b->runs_max + 1));
    f->why = g_strdup_printf("the interval still reaches past +-%g %% at the %" G_GINT64_FORMAT " runs "
                             "allowed; about %.0f runs would narrow the widest to that (as 1/sqrt(n))",
                             VDC_EFFECT_NEGLIGIBLE_PERCENT, (gint64)b->runs_max, b->runs_need);
}

/* The fixes of one row of @hp: its blockers, or the runs it needs. */
void
vdc_answer_row_fixes(struct vdc_answer_build *b, const struct vdc_headline_pair *hp, const struct vdc_headline_row *row)
{
    const struct vdc_analysis *a = b->a;
    const struct vdc_headline *h = &a->headline;
    unsigned i;

    for (i = 0; i < VDC_CELL_FLAG_COUNT; i++) {
        if (row->bar_target & (1u << i))
            flag_fix(b, hp, hp->target, row->t_test, 1u << i);
        if (row->bar_reference & (1u << i))
            flag_fix(b, hp, hp->reference, row->r_test, 1u << i);
    }
    if (row->sizes_differ)
        sizes_fix(b, hp);
    if (row->verdict == VDC_VERDICT_NOT_COMPARABLE || hp->role == VDC_HEADLINE_CEILING)
        return;
    if (row->verdict == VDC_VERDICT_NOT_TESTED && row->p.n < 2)
        add_fix_in(b, "not tested", g_strdup("--runs 5"),
                   g_strdup(h->unpaired ? "one run a side, imported and not paired: no interval, no test "
                            "(a run of vmdiskcmp measures it)"
                            : "fewer than 2 pairs with a value: no interval, no test"), NULL);
    else if ((row->effect == VDC_EFFECT_UNDECIDED || (row->p.has_test && !row->p.has_ci)) &&
             h->runs_mode == VDC_RUNS_AUTO && h->max_runs != VDC_INT_ABSENT && h->runs >= h->max_runs)
        max_runs_fix(b, row, h->max_runs);
    else if (row->effect == VDC_EFFECT_UNDECIDED || (row->p.has_test && !row->p.has_ci))
        /* density levels take a fixed count (--guests refuses --runs auto) */
        add_fix_in(b, "undecided",
                   b->rs->has_experiment && b->rs->experiment.n_levels
                   ? g_strdup_printf("--runs %" G_GINT64_FORMAT, MAX(h->runs, (int64_t)2) * 2)
                   : g_strdup("--runs auto"),
                   g_strdup_printf("more pairs narrow intervals wider than +-%g %% (or unbounded)",
                                   VDC_EFFECT_NEGLIGIBLE_PERCENT),
                   NULL);
}

void
vdc_answer_fix_words(const struct vdc_answer_build *b, struct vdc_answer_fix *f)
{
    if (!strcmp(f->why, runs_fix_mark))
        runs_fix_words(b, f);
}
