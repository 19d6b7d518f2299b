/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp answer (report/answer.h): the first screen of every report, in
 * words, from the headline, the cells and the host figures. */
#include "config.h"

#include "report/answer.h"
#include "report/analysis.h"
#include "report/ranking.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"

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
    }
    return "note";
}

/* What is being built. */
struct build {
    struct vdc_analysis *a;
    const vdc_result_set *rs;
    GArray *lines;               /* struct vdc_answer_line */
    GArray *fixes;               /* struct vdc_answer_fix */
    GPtrArray *fix_targets;      /* per fix: GString of the targets it concerns */
    GPtrArray *fix_rows;         /* per fix: GHashTable, the set of rows it concerns */
    const struct vdc_headline_row *row;  /* the row row_fixes is at */
    size_t n_rows;               /* the comparisons: rows over every pair */
    size_t n_verdict_rows;       /* those that give a verdict (not a ceiling's share) */
    double runs_need, runs_hw;   /* undecided at --max-runs: most runs needed, widest half-width */
    int64_t runs_max;            /* the --max-runs they ran to */
};

/* The why of the "undecided at --max-runs" fix until runs_fix_words */
static const char runs_fix_mark[] = "\001runs";

/* A line; @label and @text taken. */
static void
add_line(struct build *b, enum vdc_answer_kind kind, enum vdc_answer_tone tone, char *label, char *text)
{
    struct vdc_answer_line l = { kind, tone, label, text };

    g_array_append_val(b->lines, l);
}

/* ---- words from what the result holds --------------------------------- */

/* 1 when the result ran under Xen (libxl, or libvirt's xen:// driver):
 * the host is dom0; otherwise (QEMU/KVM, TCG) it is "the host" */
static int
on_xen(const vdc_result_set *rs)
{
    const vdc_hypervisor_info *h = &rs->experiment.hypervisor;

    if (!rs->has_experiment || !h->driver)
        return 1;               /* imported: dom0, as the field says */
    return !strcmp(h->driver, "libxl") || (h->uri && g_str_has_prefix(h->uri, "xen"));
}

/* "dom0" or "the host" (on_xen) */
static const char *
host_word(const vdc_result_set *rs)
{
    return on_xen(rs) ? "dom0" : "the host";
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
                            vdc_effect_class_name(row->effect));
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
        g_string_append_printf(s, ", %s", vdc_effect_class_name(r0->effect));
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
            g_string_append_printf(s, ": %s", vdc_effect_class_name(r0->effect));
    }
    if (verdict)
        g_string_append_printf(s, ", p %s %.2g", p < 0.001 ? "<" : n > 1 ? "<=" : "=", p < 0.001 ? 0.001 : p);
}

/* The rows of @hp as group lines: per group (in test order) its tests'
 * answers, the tests that answer alike (row_key) together:
 * "Sequential output, block: image 6.2 % slower [-6.6, -5.8], moderate,
 * p < 0.001; the same within 5 % in per-char (...), rewrite (...)". */
static void
pair_groups(struct build *b, const struct vdc_headline_pair *hp)
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
        add_line(b, VDC_ANSWER_GROUP, tone, NULL, g_string_free(text, FALSE));
        g_ptr_array_free(keys, TRUE);
        g_ptr_array_free(sets, TRUE);
        g_ptr_array_free(names, TRUE);
    }
    g_ptr_array_free(groups, TRUE);
}

/* The pairs of @hp: "5 pairs (fixed 5 runs)". */
static char *
pair_text(const struct vdc_analysis *a, const struct vdc_headline_pair *hp)
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

/* ---- the blockers and their options --------------------------------------------- */

/* A fix of rows in @state ("no verdict", "undecided", "not tested"),
 * counted once per row it concerns; @option, @why taken; @target (may be
 * NULL) added to the targets it names. */
static void
add_fix_in(struct build *b, const char *state, char *option, char *why, const char *target)
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
add_fix(struct build *b, char *option, char *why, const char *target)
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
flag_fix(struct build *b, const struct vdc_headline_pair *hp, size_t ti, size_t ki, unsigned bit)
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
                                             host_word(b->rs), a->targets[h->pairs[i].reference]), name);
        else if (dc && strcmp(dc, "none") && strcmp(dc, "directsync") && strcmp(dc, "default") &&
                 disk_cache_none_ran(b->rs))
            /* the run holds the same disks with cache=none: they answer for the disk */
            add_fix(b, NULL, g_strdup_printf("QEMU's cache=%s served it from %s's page cache, not the disk: the "
                                             "cache=none targets answer for the disk", dc, host_word(b->rs)),
                    name);
        else if (dc && strcmp(dc, "none") && strcmp(dc, "directsync") && strcmp(dc, "default"))
            /* QEMU's cache mode put it there, an image's or a block device's alike */
            add_fix(b, g_strdup("--disk-cache none"),
                    g_strdup_printf("QEMU's cache=%s served it from %s's page cache, not the disk; none opens "
                                    "the disk with O_DIRECT", dc, host_word(b->rs)), name);
        else if (t && t->kind && !strcmp(t->kind, "image"))
            add_fix(b, g_strdup("--image-cache host,none"),
                    g_strdup_printf("it was served from %s's page cache, not the disk; host,none also runs it "
                                    "without that cache", host_word(b->rs)), name);
        else
            add_fix(b, NULL, g_strdup_printf("it was served from %s's page cache, not the disk (its warning says "
                                             "which numbers)", host_word(b->rs)), name);
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
sizes_fix(struct build *b, const struct vdc_headline_pair *hp)
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
static void
merge_sizes(struct build *b)
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
max_runs_fix(struct build *b, const struct vdc_headline_row *row, int64_t max_runs)
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
runs_fix_words(const struct build *b, struct vdc_answer_fix *f)
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
static void
row_fixes(struct build *b, const struct vdc_headline_pair *hp, const struct vdc_headline_row *row)
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
        add_fix_in(b, "undecided", g_strdup("--runs auto"),
                g_strdup_printf("more pairs narrow intervals wider than +-%g %% (or unbounded)",
                                VDC_EFFECT_NEGLIGIBLE_PERCENT),
                NULL);
}

/* ---- dom0's page cache and the cost per backend ------------------------------- */

/* What was read back about dom0's page cache when no cache pair ran. */
static void
cache_note(struct build *b)
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
        add_line(b, VDC_ANSWER_CACHE, VDC_TONE_PLAIN, g_strdup("dom0's page cache"),
                 g_strdup_printf("%s went through it (read back after boot) and no image ran without it, so "
                                 "what it does is not measured (--image-cache host,none measures it)",
                                 through->str));
    } else if (bypass->len && !through->len) {
        add_line(b, VDC_ANSWER_CACHE, VDC_TONE_PLAIN, g_strdup("dom0's page cache"),
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
static void
cost_line(struct build *b)
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
    g_string_append_printf(s, "%s busy CPU s per GiB moved (", on_xen(b->rs) ? "dom0" : "host");
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
        add_line(b, VDC_ANSWER_COST, VDC_TONE_PLAIN, g_strdup_printf("What each backend costs %s", host_word(b->rs)),
                 g_string_free(s, FALSE));
    else
        g_string_free(s, TRUE);
}

/* ---- the answer --------------------------------------------------------------- */

/* "Storage variants": answer_variants.c */
static void
variants_line(struct build *b)
{
    enum vdc_answer_tone tone = VDC_TONE_PLAIN;
    char *text = vdc_answer_variants_text(b->a, b->rs, &tone);

    if (text)
        add_line(b, VDC_ANSWER_NOTE, tone, g_strdup("Storage variants"), text);
}

void
vdc_answer_build(struct vdc_analysis *a, const vdc_result_set *rs)
{
    const struct vdc_headline *h = &a->headline;
    struct vdc_answer *ans = &a->answer;
    struct build b = { a, rs, g_array_new(FALSE, TRUE, sizeof(struct vdc_answer_line)),
                       g_array_new(FALSE, TRUE, sizeof(struct vdc_answer_fix)),
                       g_ptr_array_new(), g_ptr_array_new(), NULL, 0, 0, 0, 0, 0 };
    char *absent = vdc_headline_absent_text(a);
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
        add_line(&b, VDC_ANSWER_NOTE, VDC_TONE_PLAIN, NULL, absent);
    if (a->reading.present)
        add_line(&b, VDC_ANSWER_NOTE, VDC_TONE_PLAIN, NULL,
                 g_strdup("One run a cell (imported): no statistics can speak; the plain reading after the "
                          "headline says what the numbers show (each target's share of the reference, the odd one out)."));
    /* a matrix: per test its targets in groups, not every pair */
    for (i = j = 0; i < h->n_rankings; i++)
        j += h->rankings[i].n_ranked;
    if (h->n_rankings && j)
        add_line(&b, VDC_ANSWER_NOTE, VDC_TONE_PLAIN, NULL, vdc_ranking_method_text(a));
    for (i = j = 0; i < h->n_rankings; i++)
        j += h->rankings[i].n_ranked;
    if (h->n_rankings && !j)        /* nothing ranked: the flags are the blockers below */
        add_line(&b, VDC_ANSWER_NOTE, VDC_TONE_NONE, NULL,
                 g_strdup_printf("No target is ranked in any of the %zu test%s: each has a flag that withholds "
                                 "its verdict (the headline's tables name them; below, what removes them).",
                                 h->n_rankings, h->n_rankings == 1 ? "" : "s"));
    for (i = 0; j && i < h->n_rankings; i++) {
        char label[VDC_TEST_LABEL_MAX];

        vdc_analysis_test_label(a, h->rankings[i].test, label, sizeof(label));
        add_line(&b, VDC_ANSWER_PAIR, VDC_TONE_PLAIN, g_strdup(label),
                 vdc_ranking_groups_text(a, &h->rankings[i]));
    }
    for (i = 0; i < h->n_pairs; i++) {
        const struct vdc_headline_pair *hp = &h->pairs[i];

        if (hp->role != VDC_HEADLINE_CHOICE && hp->role != VDC_HEADLINE_BASELINE)
            continue;
        if (h->n_rankings && hp->role == VDC_HEADLINE_CHOICE)
            continue;
        add_line(&b, VDC_ANSWER_PAIR, VDC_TONE_PLAIN,
                 g_strdup_printf("%s relative to %s%s", a->targets[hp->target],
                                 hp->role == VDC_HEADLINE_BASELINE ? "the baseline " : "",
                                 a->targets[hp->reference]), pair_text(a, hp));
        pair_groups(&b, hp);
    }
    for (i = 0; i < h->n_pairs; i++) {
        const struct vdc_headline_pair *hp = &h->pairs[i];

        if (hp->role != VDC_HEADLINE_CACHE)
            continue;
        n_cache++;
        add_line(&b, VDC_ANSWER_CACHE, VDC_TONE_PLAIN, g_strdup("dom0's page cache"),
                 g_strdup_printf("%s (through it) against %s (without it): %s", a->targets[hp->target],
                                 a->targets[hp->reference], pair_text(a, hp)));
        pair_groups(&b, hp);
    }
    variants_line(&b);
    if (!n_cache && rs->has_experiment)
        cache_note(&b);
    cost_line(&b);
    for (i = 0; i < h->n_pairs; i++)
        for (j = 0; j < h->pairs[i].n_rows; j++) {
            b.row = &h->pairs[i].rows[j];
            b.n_rows++;
            /* a ceiling row (a target against bare dom0) is a share, never
             * a verdict: undecided is counted among the others */
            if (h->pairs[i].role != VDC_HEADLINE_CEILING)
                b.n_verdict_rows++;
            row_fixes(&b, &h->pairs[i], &h->pairs[i].rows[j]);
        }
    merge_sizes(&b);
    for (i = 0; i < b.fixes->len; i++) {
        struct vdc_answer_fix *f = &g_array_index(b.fixes, struct vdc_answer_fix, i);
        GString *t = b.fix_targets->pdata[i];
        int verdicts = !strcmp(f->state, "undecided") || !strcmp(f->state, "unbounded");

        if (!strcmp(f->why, runs_fix_mark))
            runs_fix_words(&b, f);
        f->targets = g_string_free(t, FALSE);
        f->n_tests = g_hash_table_size(b.fix_rows->pdata[i]);
        /* undecided and unbounded come of verdict rows only: counted
         * among the verdicts, the ceiling's shares apart */
        f->n_total = verdicts ? b.n_verdict_rows : b.n_rows;
        g_hash_table_destroy(b.fix_rows->pdata[i]);
        /* what was counted, said once: a comparison is a pair of targets in one test */
        add_line(&b, VDC_ANSWER_FIX, VDC_TONE_PLAIN, NULL,
                 g_strdup_printf("%c%s in %zu of the %zu %s%s%s%s%s: %s%s%s%s.",
                                 g_ascii_toupper(f->state[0]), f->state + 1, f->n_tests, f->n_total,
                                 verdicts ? "verdict" : "comparison", f->n_total == 1 ? "" : "s",
                                 i ? "" : " (pair of targets x test)",
                                 *f->targets ? " of " : "", f->targets,
                                 f->option ? "rerun with " : "", f->option ? f->option : "",
                                 f->option ? ": " : "", f->why));
    }
    if (!b.lines->len)
        add_line(&b, VDC_ANSWER_NOTE, VDC_TONE_PLAIN, NULL, g_strdup("Nothing to compare: no pair of targets."));
    g_ptr_array_free(b.fix_targets, TRUE);
    g_ptr_array_free(b.fix_rows, TRUE);
    ans->n_lines = b.lines->len;
    ans->lines = (struct vdc_answer_line *)(void *)g_array_free(b.lines, FALSE);
    ans->n_fixes = b.fixes->len;
    ans->fixes = (struct vdc_answer_fix *)(void *)g_array_free(b.fixes, FALSE);
}
