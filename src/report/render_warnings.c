/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp renderers: warning sentences, verdict lines, notes
 * (render_warnings.h). */
#include "config.h"

#include "report/render_warnings.h"

#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "model/knobs.h"
#include "report/render_fmt.h"

/* "image 512 MiB, dom0 49152 MiB" (a target with several sizes: "a/b") */
static void
sizes_list(GString *s, const struct vdc_analysis *a)
{
    size_t ti, j;

    for (ti = 0; ti < a->n_targets; ti++) {
        const struct vdc_target_files *f = &a->files[ti];

        if (!f->n_sizes)
            continue;
        g_string_append_printf(s, "%s%s ", s->len ? ", " : "", a->targets[ti]);
        for (j = 0; j < f->n_sizes; j++)
            g_string_append_printf(s, "%s%" G_GINT64_FORMAT, j ? "/" : "", f->sizes[j]);
        g_string_append(s, " MiB");
    }
}

/* whose memory: the target's where, or the target's own memory_mib
 * (a merged target that says nowhere) */
static const char *
machine_name(const char *where)
{
    if (!where)
        return "the machine's";
    return !strcmp(where, "domU") ? "the domU's" : !strcmp(where, "dom0") ? "dom0's" : "the host's";
}

char *
vdc_warning_text(const vdc_result_set *rs, const struct vdc_analysis *a, const struct vdc_warning *w)
{
    const struct vdc_target_files *f;
    GString *s;
    size_t i;

    switch (w->kind) {
    case VDC_WARNING_EMULATED:
        return g_strdup(VDC_EMULATED_WARNING);
    case VDC_WARNING_ALL_FAILED:
        s = g_string_new(NULL);
        g_string_append_printf(s, "All %zu run%s failed: there is nothing to compare", rs->n_runs,
                               rs->n_runs == 1 ? "" : "s");
        for (i = 0; i < rs->n_runs; i++)
            g_string_append_printf(s, "%s %s #%" G_GINT64_FORMAT ": %s", i ? ";" : ":", rs->runs[i]->target,
                                   rs->runs[i]->repetition,
                                   rs->runs[i]->error ? rs->runs[i]->error : rs->runs[i]->status);
        g_string_append_c(s, '.');
        return g_string_free(s, FALSE);
    case VDC_WARNING_FEW_VALUES:
        return g_strdup(VDC_FEW_VALUES_WARNING);
    case VDC_WARNING_FEW_RUNS:
        return g_strdup(VDC_FEW_RUNS_WARNING);
    case VDC_WARNING_TOO_FAST:
        return g_strdup(VDC_TOO_FAST_LEGEND);
    case VDC_WARNING_SIZES_DIFFER:
        s = g_string_new(NULL);
        sizes_list(s, a);
        g_string_prepend(s, "test file sizes differ: ");
        g_string_append(s, ": deltas mix size effects with backend effects.");
        return g_string_free(s, FALSE);
    case VDC_WARNING_UNDER_2X_RAM:
        f = &a->files[w->target];
        if (f->small_ram > f->small_told && !f->small_told)
            /* nothing was told the tool (an import): the machine's memory alone */
            return g_strdup_printf("target %s: test file %" G_GINT64_FORMAT " MiB is under twice %s memory "
                                   "(%" G_GINT64_FORMAT " MiB) in %zu of %zu run%s: the page cache flatters the "
                                   "result (bonnie++ wants at least twice the RAM).", a->targets[w->target],
                                   f->small_size, machine_name(f->where), f->small_ram, f->n_small, f->n_runs,
                                   f->n_runs == 1 ? "" : "s");
        if (f->small_ram > f->small_told)
            return g_strdup_printf("target %s: test file %" G_GINT64_FORMAT " MiB is under twice %s memory "
                                   "(%" G_GINT64_FORMAT " MiB; the agent was told -r %" G_GINT64_FORMAT ") in "
                                   "%zu of %zu run%s: the page cache flatters the result (bonnie++ wants at "
                                   "least twice the RAM).", a->targets[w->target], f->small_size,
                                   machine_name(f->where), f->small_ram, f->small_told, f->n_small, f->n_runs,
                                   f->n_runs == 1 ? "" : "s");
        return g_strdup_printf("target %s: test file %" G_GINT64_FORMAT " MiB is under twice the RAM (%"
                               G_GINT64_FORMAT " MiB) in %zu of %zu run%s: the page cache flatters the result "
                               "(bonnie++ wants at least twice the RAM).", a->targets[w->target], f->small_size,
                               f->small_ram, f->n_small, f->n_runs, f->n_runs == 1 ? "" : "s");
    case VDC_WARNING_ARTEFACTS:
        return g_strdup(VDC_ARTEFACT_LEGEND);
    case VDC_WARNING_ARTEFACT: {
        const struct vdc_cell *c = vdc_analysis_cell(a, w->target, w->test);
        int b = vdc_cell_flag_index(w->flag);

        char label[VDC_TEST_LABEL_MAX];

        return g_strdup_printf(VDC_ARTEFACT_MARK " target %s on %s, %s: %s.", c->target,
                               vdc_analysis_test_label(a, w->test, label, sizeof(label)),
                               vdc_cell_flag_name(w->flag), b >= 0 && c->why[b] ? c->why[b] : "");
    }
    case VDC_WARNING_NOT_AS_ASKED: {
        const vdc_target *t = vdc_result_set_find_target(rs, a->targets[w->target]);
        g_autofree char *m = t ? vdc_knobs_mismatch(t) : NULL;

        return g_strdup_printf("target %s: its disk was not served as asked: %s.", a->targets[w->target],
                               m ? m : "?");
    }
    case VDC_WARNING_DIFFERENT_DISKS: {
        const vdc_target *t = vdc_result_set_find_target(rs, a->targets[w->target]);
        const vdc_target *r = vdc_result_set_find_target(rs, a->targets[w->reference]);
        int block = r && r->kind && !strcmp(r->kind, "block");

        return g_strdup_printf("%s and %s lie on different disks (%s, %s): their difference includes the "
                               "disks'; put --image-dir on %s to compare backends alone.",
                               a->targets[w->target], a->targets[w->reference],
                               t && t->placement.disk ? t->placement.disk : "?",
                               r && r->placement.disk ? r->placement.disk : "?",
                               block ? "the block device's disk" : "the VG's disk");
    }
    }
    return g_strdup("");
}

char **
vdc_warning_texts(const vdc_result_set *rs, const struct vdc_analysis *a, unsigned kinds)
{
    GPtrArray *v = g_ptr_array_new();
    size_t i;

    for (i = 0; i < a->n_warnings; i++)
        if (kinds & VDC_WARNING_BIT(a->warnings[i].kind))
            g_ptr_array_add(v, vdc_warning_text(rs, a, &a->warnings[i]));
    g_ptr_array_add(v, NULL);
    return (char **)g_ptr_array_free(v, FALSE);
}

/* render_warnings.h */
char **
vdc_report_warnings(const vdc_result_set *rs, const struct vdc_analysis *a)
{
    return vdc_warning_texts(rs, a, VDC_WARNINGS_REPORT);
}

/* render_warnings.h */
char **
vdc_compare_warnings(const vdc_result_set *rs, const struct vdc_analysis *a)
{
    return vdc_warning_texts(rs, a, VDC_WARNINGS_COMPARE);
}

/* render_warnings.h */
int
vdc_outlier_rule_applied(const struct vdc_analysis *a)
{
    size_t ti, ki;

    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++)
            if (vdc_analysis_cell(a, ti, ki)->n_values >= VDC_STATS_OUTLIER_MIN_N)
                return 1;
    return 0;
}

/* @s as is, or Markdown-escaped with @md (the user's names: targets). */
static char *
md_name(const char *s, int md)
{
    GString *g;

    if (!md)
        return g_strdup(s ? s : "");
    g = g_string_new(NULL);
    vdc_md_escape(g, s ? s : "");
    return g_string_free(g, FALSE);
}


/* render_warnings.h */
size_t
vdc_append_warnings(GString *out, const vdc_result_set *rs, const struct vdc_analysis *a, unsigned kinds,
                    const char *prefix, const char *suffix, vdc_escape_fn escape)
{
    char **w = vdc_warning_texts(rs, a, kinds);
    size_t n = g_strv_length(w);

    vdc_append_lines(out, w, prefix, suffix, escape);
    g_strfreev(w);
    return n;
}

/* render_warnings.h */
void
vdc_append_notes(GString *out, const struct vdc_analysis *a, const char *bullet, const char *sub, int md)
{
    size_t ti, ki, i;
    int any = 0;

    g_string_append_printf(out, "%sOutlier rule: modified z-score |0.6745 (x - median) / MAD| > %g "
                           "(Iglewicz-Hoaglin), applied to %d or more values, policy %s%s.\n", bullet, a->opt.outlier_threshold,
                           VDC_STATS_OUTLIER_MIN_N,
                           vdc_outlier_policy_name(a->opt.policy),
                           a->opt.policy == VDC_OUTLIERS_DROP ? " (flagged samples are left out of the statistics)"
                           : " (flagged samples stay in the statistics)");
    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);

            for (i = 0; i < c->n_values; i++)
                if (c->samples[i].outlier) {
                    char label[VDC_TEST_LABEL_MAX];
                    g_autofree char *tn = md_name(c->target, md);
                    g_autofree char *kn = md_name(vdc_analysis_test_label(a, ki, label, sizeof(label)), md);

                    g_string_append_printf(out, "%soutlier: target %s on %s, repetition %" G_GINT64_FORMAT
                                           ", value %s %s, modified z %.2f\n", sub, tn, kn,
                                           c->samples[i].repetition, vdc_fmt_num_s(c->samples[i].value),
                                           c->unit ? c->unit : "", c->samples[i].modified_z);
                    any = 1;
                }
        }
    if (!any)
        g_string_append_printf(out, "%s%s\n", sub, vdc_outlier_rule_applied(a) ? "no sample flagged."
                               : "rule not applied: no cell has enough values.");
    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);

            char label[VDC_TEST_LABEL_MAX];
            g_autofree char *tn = md_name(c->target, md);
            g_autofree char *kn = md_name(vdc_analysis_test_label(a, ki, label, sizeof(label)), md);

            if (c->n_no_value)
                g_string_append_printf(out, "%sExcluded: target %s on %s: %zu of %zu %s no value "
                                       "(%zu too fast, +++++; %zu failed).\n", bullet, tn, kn,
                                       c->n_no_value, c->n_samples, c->n_samples == 1 ? "sample has" : "samples have", c->n_too_fast, c->n_failed);
        }
}

/* render_warnings.h */
void
vdc_append_verdicts(GString *out, const struct vdc_analysis *a, const char *prefix, const char *suffix,
                    vdc_escape_fn escape)
{
    char **v = vdc_analysis_verdict_lines(a);

    if (v[0])
        g_string_append(out, VDC_TABLE_VERDICTS_NOTE "\n");
    vdc_append_lines(out, v, prefix, suffix, escape);
    if (v[0])
        g_string_append_c(out, '\n');
    g_strfreev(v);
}
