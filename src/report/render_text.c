/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp text renderer: report.txt, the bonnie++ layout report
 * (bon_csv2txt's two blocks, deltas, other tests, notes).  Markdown is in
 * render_markdown.c, the `compare` table in render_compare.c. */
#include "config.h"

#include "report/render.h"
#include "report/render_fmt.h"
#include "report/render_answer.h"
#include "report/render_headline.h"
#include "report/layout.h"
#include "report/reading.h"
#include "report/render_density.h"
#include "report/render_hostcost.h"
#include "report/render_meta.h"
#include "report/render_warnings.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "common/escape.h"

/* The two blocks of the bonnie++ table (bon_csv2txt, bonnie++ 2.00a): the
 * tests of one group of the test-id table (vdc_tests[].group), in table
 * order; six each, the columns of bonnie++'s layout. */
#define N_BLOCK 6

struct block {
    const char *tests[N_BLOCK];
};

static struct block
block_of(enum vdc_test_group group)
{
    struct block b = { { NULL } };
    size_t t, n = 0;

    for (t = 0; t < VDC_TEST_COUNT && n < N_BLOCK; t++)
        if (vdc_tests[t].group == group)
            b.tests[n++] = vdc_tests[t].name;
    return b;
}

/* A key shown in one of the two blocks (not a sweep or an unknown id). */
static int
in_block(const char *key)
{
    int64_t bs = 0;
    const vdc_test_info *info = vdc_test_key_parse(key, &bs);

    return info && info->group != VDC_TEST_GROUP_SWEEP && info->group != VDC_TEST_GROUP_WORKLOAD;
}

static int
block_present(const struct vdc_analysis *a, const char *const *tests)
{
    size_t i;

    for (i = 0; i < N_BLOCK; i++)
        if (vdc_analysis_test_index(a, tests[i]) >= 0)
            return 1;
    return 0;
}

/* The value column of one cell, 8 wide: mean, "+++++" (too fast, no
 * value), "failed", or blank (not run). */
static void
cell_value(GString *out, const struct vdc_cell *c, int width)
{
    char buf[64];

    if (!c->sum.n && c->n_too_fast)
        snprintf(buf, sizeof(buf), "+++++");   /* the column is bonnie++'s 8 wide */
    else
        vdc_fmt_cell_mean(buf, sizeof(buf), c);
    /* pad by characters, not bytes (the mark is 3 bytes of UTF-8) */
    width += (int)(strlen(buf) - (size_t)g_utf8_strlen(buf, -1));
    g_string_append_printf(out, " %*s", width, buf);
}

/* The n row of a target: values used per cell, "k/n" when k of the n
 * runs gave no value (too fast or failed). */
static void
cell_n(GString *out, const struct vdc_cell *c, int width)
{
    char buf[64] = "";

    if (c->n_samples && c->sum.n != c->n_samples)
        snprintf(buf, sizeof(buf), "%zu/%zu", c->sum.n, c->n_samples);
    else if (c->n_samples)
        snprintf(buf, sizeof(buf), "%zu", c->sum.n);
    g_string_append_printf(out, " %*s    ", width, buf);
}

static void
cell_cpu(GString *out, const struct vdc_cell *c)
{
    if (c->n_values && vdc_has(c->cpu_mean))
        g_string_append_printf(out, " %3.0f", c->cpu_mean);
    else if (!c->n_values && c->n_too_fast)
        g_string_append(out, " +++");
    else
        g_string_append(out, "    ");
}

static void
cell_ci(GString *out, const struct vdc_cell *c, int width)
{
    char buf[64] = "";
    int pad;

    vdc_fmt_cell_ci(buf, sizeof(buf), c, "+-");
    /* a cut interval ("[0, 119644]") reaches into the 4 blanks after it */
    pad = MAX(0, 4 - MAX(0, (int)strlen(buf) - width));
    g_string_append_printf(out, " %*s%*s", width, buf, pad, "");
}

/* A row under target @ti's row: @label, then @cell of each column of the
 * block (@idx: test index per column, -1 when not measured), 8 wide. */
static void
sub_row(GString *out, const struct vdc_analysis *a, size_t ti, const long *idx, const char *label,
        void (*cell)(GString *, const struct vdc_cell *, int))
{
    size_t k;

    g_string_append_printf(out, "%-16s    ", label);
    for (k = 0; k < N_BLOCK; k++) {
        if (idx[k] < 0) {
            g_string_append(out, "             ");
            continue;
        }
        cell(out, vdc_analysis_cell(a, ti, (size_t)idx[k]), 8);
    }
    g_string_truncate(out, strlen(g_strchomp(out->str)));
    g_string_append_c(out, '\n');
}

/* The passes of @a's test keys (samples[].pass: "put_block~first-write"),
 * in order of first appearance; g_strfreev */
static char **
key_passes(const struct vdc_analysis *a)
{
    GPtrArray *v = g_ptr_array_new();
    size_t ki, i;

    for (ki = 0; ki < a->n_tests; ki++) {
        const char *p = vdc_test_key_pass(a->tests[ki]);

        for (i = 0; p && i < v->len && strcmp(v->pdata[i], p); i++)
            ;
        if (p && i == v->len)
            g_ptr_array_add(v, g_strdup(p));
    }
    g_ptr_array_add(v, NULL);
    return (char **)g_ptr_array_free(v, FALSE);
}

/* 1 when target @ti has a sample in one of the columns @idx */
static int
row_has_samples(const struct vdc_analysis *a, size_t ti, const long *idx)
{
    size_t k;

    for (k = 0; k < N_BLOCK; k++)
        if (idx[k] >= 0 && vdc_analysis_cell(a, ti, (size_t)idx[k])->n_samples)
            return 1;
    return 0;
}

static void block_row(GString *out, const struct vdc_analysis *a, size_t ti, const long *idx,
                      const char *label);

/* Target @ti's rows of one block, columns @tests: its row, or, when it
 * has something (@has) in a pass of the tests (a thin LV's first-write and
 * overwrite), its name, then one row per pass beside each other; each row
 * printed by @row. */
static void
pass_rows(GString *out, const struct vdc_analysis *a, size_t ti, const char *const *tests, const char *name,
          int (*has)(const struct vdc_analysis *, size_t, const long *),
          void (*row)(GString *, const struct vdc_analysis *, size_t, const long *, const char *))
{
    g_auto(GStrv) passes = key_passes(a);
    size_t k, q;
    long idx[N_BLOCK];
    int header = 0;

    for (k = 0; k < N_BLOCK; k++)
        idx[k] = vdc_analysis_test_index(a, tests[k]);
    for (q = 0; passes[q]; q++) {
        long pidx[N_BLOCK];
        g_autofree char *label = g_strdup_printf("  %s", passes[q]);

        for (k = 0; k < N_BLOCK; k++) {
            g_autofree char *key = g_strdup_printf("%s%c%s", tests[k], VDC_PASS_SEP, passes[q]);

            pidx[k] = vdc_analysis_test_index(a, key);
        }
        if (!has(a, ti, pidx))
            continue;
        if (!header++ && !has(a, ti, idx))
            g_string_append_printf(out, "%s\n", name);
        else if (header == 1)
            row(out, a, ti, idx, name);
        row(out, a, ti, pidx, label);
    }
    if (!header)
        row(out, a, ti, idx, name);
}

/* One row per target (pass_rows) */
static void
block_rows(GString *out, const struct vdc_analysis *a, const char *const *tests, char **names)
{
    size_t ti;

    for (ti = 0; ti < a->n_targets; ti++)
        pass_rows(out, a, ti, tests, names[ti], row_has_samples, block_row);
}

static void
block_row(GString *out, const struct vdc_analysis *a, size_t ti, const long *idx, const char *label)
{
    size_t k;

    {
        size_t n = 0;
        int any_ci = 0, uneven = 0;

        for (k = 0; k < N_BLOCK; k++)
            if (idx[k] >= 0) {
                const struct vdc_cell *c = vdc_analysis_cell(a, ti, (size_t)idx[k]);
                n = MAX(n, c->n_samples);
                any_ci |= c->sum.has_ci_mean;
            }
        /* n column: values used when every cell has the same count, else
         * the runs, with a row giving each cell's values/runs */
        for (k = 0; k < N_BLOCK; k++)
            if (idx[k] >= 0) {
                const struct vdc_cell *c = vdc_analysis_cell(a, ti, (size_t)idx[k]);
                if (c->n_samples && c->sum.n != n)
                    uneven = 1;
            }
        vdc_layout_pad(out, label, 16, 0);      /* 16 wide: never a cut name (layout.h) */
        g_string_append_printf(out, " %3zu", n);
        for (k = 0; k < N_BLOCK; k++) {
            if (idx[k] < 0) {
                g_string_append(out, "             ");
                continue;
            }
            cell_value(out, vdc_analysis_cell(a, ti, (size_t)idx[k]), 8);
            cell_cpu(out, vdc_analysis_cell(a, ti, (size_t)idx[k]));
        }
        g_string_append_c(out, '\n');
        if (uneven)
            sub_row(out, a, ti, idx, "  n values/runs", cell_n);
        if (any_ci)
            sub_row(out, a, ti, idx, "  95% CI", cell_ci);
    }
}

static int
any_delta_ci(const struct vdc_analysis *a, size_t ti, const long *idx)
{
    size_t k;

    for (k = 0; k < N_BLOCK; k++)
        if (idx[k] >= 0 && (vdc_analysis_cmp(a, ti, (size_t)idx[k])->c.has_ci ||
                            vdc_stats_ci_unbounded(&vdc_analysis_cmp(a, ti, (size_t)idx[k])->c)))
            return 1;
    return 0;
}

/* 1 when target @ti has a comparison in one of the columns @idx */
static int
row_has_delta(const struct vdc_analysis *a, size_t ti, const long *idx)
{
    size_t k;

    for (k = 0; k < N_BLOCK; k++)
        if (idx[k] >= 0 && vdc_analysis_cmp(a, ti, (size_t)idx[k])->target->n_samples &&
            vdc_analysis_cmp(a, ti, (size_t)idx[k])->baseline->n_samples)
            return 1;
    return 0;
}

/* One delta row of target @ti, columns @idx, and its 95 % CI row */
static void
delta_row(GString *out, const struct vdc_analysis *a, size_t ti, const long *idx, const char *label)
{
    size_t k;

    vdc_layout_pad(out, label, 16, 0);
    g_string_append(out, "    ");
    for (k = 0; k < N_BLOCK; k++) {
        char buf[64] = "";

        if (idx[k] >= 0)
            vdc_fmt_cell_delta(buf, sizeof(buf), vdc_analysis_cmp(a, ti, (size_t)idx[k]), 1);
        g_string_append_printf(out, " %*s", 12 + (int)(strlen(buf) - (size_t)g_utf8_strlen(buf, -1)), buf);
    }
    g_string_truncate(out, strlen(g_strchomp(out->str)));
    g_string_append_c(out, '\n');
    if (!any_delta_ci(a, ti, idx))
        return;
    g_string_append_printf(out, "%-16s    ", "  95% CI");
    for (k = 0; k < N_BLOCK; k++) {
        const struct vdc_stats_comparison *c = idx[k] >= 0 ? &vdc_analysis_cmp(a, ti, (size_t)idx[k])->c : NULL;
        char buf[64] = "";

        if (c && c->has_ci)
            snprintf(buf, sizeof(buf), "[%+.0f,%+.0f]", c->ci_delta_percent[0], c->ci_delta_percent[1]);
        else if (c && vdc_stats_ci_unbounded(c))
            snprintf(buf, sizeof(buf), "[unbounded]");
        g_string_append_printf(out, " %12s", buf);
    }
    g_string_truncate(out, strlen(g_strchomp(out->str)));
    g_string_append_c(out, '\n');
}

/* One row per target but the baseline; a target held against it in
 * passes (a thin LV's, each against the other side's one run) gets a row
 * per pass (pass_rows) */
static void
delta_rows(GString *out, const struct vdc_analysis *a, const char *const *tests, char **names)
{
    size_t ti;

    for (ti = 0; ti < a->n_targets; ti++)
        if (ti != a->baseline_index)
            pass_rows(out, a, ti, tests, names[ti], row_has_delta, delta_row);
}

/* Why the n/c deltas have no verdict, one paragraph per target and
 * reason (vdc_analysis_not_comparable_lines), wrapped at 100 columns. */
static void
not_comparable_lines(GString *out, const struct vdc_analysis *a)
{
    char **nc = vdc_analysis_not_comparable_lines(a);
    size_t i;

    for (i = 0; nc[i]; i++) {
        GString *line = g_string_new(NULL);

        vdc_escape_line(line, nc[i]);
        vdc_layout_wrap(out, "n/c: ", "  ", line->str, 100);
        g_string_free(line, TRUE);
    }
    g_strfreev(nc);
}

/* The two blocks of report.txt: the test group, bonnie++'s three header
 * lines, the header of its delta rows. */
static const struct text_block {
    enum vdc_test_group group;
    const char *head;
    const char *delta_head;
} text_blocks[] = {
    { VDC_TEST_GROUP_IO,
      "Version vmdiskcmp    ----------Sequential Output----------- -----Sequential Input---- ---Random---\n"
      "                     --Per Chr--- ---Block---- --Rewrite--- --Per Chr--- ---Block---- ---Seeks----\n"
      "Target             n    K/sec %CP    K/sec %CP    K/sec %CP    K/sec %CP    K/sec %CP     /sec %CP\n",
      "Target                    Per Chr        Block      Rewrite      Per Chr        Block        Seeks\n" },
    { VDC_TEST_GROUP_FILES,
      "                     ----------Sequential Create----------- ------------Random Create-------------\n"
      "                     ---Create--- ----Read---- ---Delete--- ---Create--- ----Read---- ---Delete---\n"
      "Target             n     /sec %CP     /sec %CP     /sec %CP     /sec %CP     /sec %CP     /sec %CP\n",
      "Target                 Seq Create     Seq Read   Seq Delete   Ran Create     Ran Read   Ran Delete\n" },
};

/* Under a dd test's row: its system time per operation and, against the
 * baseline's, the difference in us (a cost per block: the difference is
 * what it adds, e.g. the LV's mapping per 512-byte block); both from the
 * analysis (vdc_cell.sys_us_per_op, vdc_cell_comparison). */
static void
text_sys_per_op(GString *out, const struct vdc_analysis *a, size_t ti, size_t ki)
{
    const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);
    const struct vdc_cell_comparison *cc = vdc_analysis_cmp(a, ti, ki);

    if (!c->n_sys_per_op)
        return;
    g_string_append_printf(out, "  %-16s system time %.1f us per op", "", c->sys_us_per_op);
    if (c->n_sys_per_op == 1 && c->sys_ops > 0)
        g_string_append_printf(out, " (%.3f s / %" G_GINT64_FORMAT ")", c->sys_s, (gint64)c->sys_ops);
    else if (c->n_sys_per_op > 1)
        g_string_append_printf(out, " (mean of %zu runs)", c->n_sys_per_op);
    if (cc && cc->has_sys_per_op)
        g_string_append_printf(out, ", %+.1f us per op against %s", cc->sys_us_per_op_delta, a->baseline);
    g_string_append_c(out, '\n');
}

static void
text_other_tests(GString *out, const struct vdc_analysis *a, char **names)
{
    size_t ti, ki;
    int header = 0;

    for (ki = 0; ki < a->n_tests; ki++) {
        if (in_block(a->tests[ki]) || vdc_test_key_job(a->tests[ki]))
            continue;   /* workloads: their own block */
        if (!header) {
            g_string_append_printf(out, "%sOther tests (n, mean, [95%% CI of the mean], %% delta relative to %s)\n",
                                   g_str_has_suffix(out->str, "\n\n") ? "" : "\n", a->baseline);
            header = 1;
        }
        {
            char label[VDC_TEST_LABEL_MAX];

            vdc_layout_wrap_escaped(out, "", "  ", vdc_analysis_test_label(a, ki, label, sizeof(label)),
                                    VDC_LAYOUT_TEXT_WIDTH);
        }
        for (ti = 0; ti < a->n_targets; ti++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);
            char mean[64], ci[96] = "", delta[64] = "", *line;

            vdc_fmt_cell_mean(mean, sizeof(mean), c);
            if (c->sum.has_ci_mean)
                snprintf(ci, sizeof(ci), "[%s, %s]", vdc_fmt_num_s(c->sum.ci_mean[0]),
                         vdc_fmt_num_s(c->sum.ci_mean[1]));
            if (ti != a->baseline_index)
                vdc_fmt_cell_delta(delta, sizeof(delta), vdc_analysis_cmp(a, ti, ki), 1);
            if (!c->n_samples)
                snprintf(mean, sizeof(mean), "not run");
            /* 10 characters wide, not bytes: a mark is 3 bytes of UTF-8 */
            GString *name = g_string_new("  ");

            vdc_layout_pad(name, names[ti], 16, 0);
            line = g_strdup_printf("%s n=%-3zu %*s %s %-8s %s", name->str, c->sum.n,
                                   10 + (int)(strlen(mean) - (size_t)g_utf8_strlen(mean, -1)), mean,
                                   c->n_samples && c->unit ? c->unit : "", ci, delta);
            g_string_append_printf(out, "%s\n", g_strchomp(line));
            g_free(line);
            g_string_free(name, TRUE);
            text_sys_per_op(out, a, ti, ki);
        }
    }
}

char *
vdc_render_text(const vdc_result_set *rs, const struct vdc_analysis *a)
{
    GString *out = g_string_new(NULL);
    struct block blocks[G_N_ELEMENTS(text_blocks)];
    int present[G_N_ELEMENTS(text_blocks)], any = 0;
    size_t b;
    const char *em = vdc_experiment_emulated(rs) ? "EMULATED: numbers predict nothing about real hardware\n\n" : "";
    int keyed = 0;
    char **names = vdc_layout_aliases(a, 16, &keyed);

    g_string_append_printf(out, "%s", em);
    {
        /* the answer says its own direction ("image relative to lvm") */
        g_autofree char *title = g_strdup_printf("vmdiskcmp %s report: %zu target%s, baseline %s (the "
                                                 "tables: each target relative to %s)", PACKAGE_VERSION,
                                                 a->n_targets, a->n_targets == 1 ? "" : "s", a->baseline,
                                                 a->baseline);

        vdc_layout_wrap(out, "", "  ", title, VDC_LAYOUT_TEXT_WIDTH);
        g_string_append_c(out, '\n');
    }
    vdc_append_answer_text(out, a);
    /* beside the answer: its pairs' delta holds the disks' difference */
    if (vdc_append_warnings(out, rs, a, VDC_WARNINGS_DISKS, "WARNING: ", "\n", vdc_escape_line))
        g_string_append_c(out, '\n');
    vdc_append_headline_text(out, a);
    if (a->reading.present) {
        vdc_append_reading_text(out, a, names, "  ", VDC_LAYOUT_TEXT_WIDTH);
        g_string_append_c(out, '\n');
    }
    if (keyed) {
        /* the tables' 16 columns would cut the names: short ones, and their key */
        g_string_append(out, "Targets, as the tables below name them:\n");
        vdc_layout_append_key(out, rs, a, names, keyed, "  ", VDC_LAYOUT_TEXT_WIDTH);
        g_string_append_c(out, '\n');
    }
    vdc_layout_wrap(out, "", "", "Rows: mean of the samples with a value, mean %CP; 95% CI: Student t half-width. "
                    VDC_CI_FLOOR_NOTE, VDC_LAYOUT_TEXT_WIDTH);
    g_string_append(out, "n: values used in every cell of the row; where cells differ, n is the runs and the\n"
                         "\"n values/runs\" row gives each cell's count.  +++++: every run too fast, no value.\n\n");
    vdc_append_warnings(out, rs, a, VDC_WARNING_BIT(VDC_WARNING_TOO_FAST), "", "\n\n", vdc_escape_line);
    vdc_append_warnings(out, rs, a, VDC_WARNINGS_FEW, "WARNING: ", "\n\n", vdc_escape_line);
    vdc_append_verdicts(out, a, "Verdict: ", "\n", vdc_escape_line);
    if (vdc_append_warnings(out, rs, a, VDC_WARNINGS_SIZES, "WARNING: ", "\n", vdc_escape_line))
        g_string_append_c(out, '\n');
    vdc_append_warnings(out, rs, a, VDC_WARNING_BIT(VDC_WARNING_ARTEFACTS), "", "\n", vdc_escape_line);
    if (vdc_append_warnings(out, rs, a, VDC_WARNING_BIT(VDC_WARNING_ARTEFACT), "WARNING: ", "\n", vdc_escape_line))
        g_string_append_c(out, '\n');
    for (b = 0; b < G_N_ELEMENTS(text_blocks); b++) {
        blocks[b] = block_of(text_blocks[b].group);
        present[b] = block_present(a, blocks[b].tests);
        any |= present[b];
        if (present[b]) {
            g_string_append(out, text_blocks[b].head);
            block_rows(out, a, blocks[b].tests, names);
            g_string_append_c(out, '\n');
        }
    }
    if (a->n_targets > 1 && any) {
        g_autofree char *legend = g_strdup_printf("Delta relative to %s: %% of the baseline mean, [95%% CI, Fieller; "
                                                  "unbounded: the baseline too noisy to bound it]; "
                                                  "** p<0.01, * p<0.05, ~ no significant difference (Welch "
                                                  "t-test); n/c not comparable (no verdict: why, below); no mark: "
                                                  "not tested (n<2).  %s", a->baseline, VDC_DELTA_CI_NOTE);

        vdc_layout_wrap(out, "", "  ", legend, 100);
        for (b = 0; b < G_N_ELEMENTS(text_blocks); b++)
            if (present[b]) {
                g_string_append(out, text_blocks[b].delta_head);
                delta_rows(out, a, blocks[b].tests, names);
            }
        not_comparable_lines(out, a);
    }
    text_other_tests(out, a, names);
    g_string_append_c(out, '\n');
    vdc_append_cache_text(out, rs);
    vdc_append_workloads_text(out, a);
    vdc_host_cost_text(out, a);
    vdc_density_text(out, a);
    vdc_append_notes(out, a, "", "  ", 0);
    g_strfreev(names);
    {
        /* no line wider than VDC_LAYOUT_TEXT_WIDTH: the tables are laid
         * out to fit, the prose printed as one line (a warning, an excluded
         * cell, a path read back) folds here */
        GString *folded = g_string_sized_new(out->len + out->len / 16);

        vdc_layout_fold(folded, out->str, VDC_LAYOUT_TEXT_WIDTH);
        g_string_free(out, TRUE);
        return g_string_free(folded, FALSE);
    }
}
