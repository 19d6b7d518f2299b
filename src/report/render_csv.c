/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp CSV renderers: bonnie++ 2.00a CSV (format 1.98, 50 fields)
 * per run, the summary CSV of the statistics and headline.csv. */
#include "config.h"

#include "report/render.h"
#include "report/render_escape.h"
#include "report/render_fmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#define BONNIE_CSV_FIELDS 50

/* A bonnie++ CSV field must not hold a comma or a line break. */
static char *
bonnie_field_str(const char *s)
{
    /* bonnie++'s CSV has no quoting: a cell a spreadsheet would run as a
     * formula gets a ' before it */
    char *r = g_strconcat(vdc_csv_is_formula(s) ? "'" : "", s ? s : "", NULL);

    g_strdelimit(r, ",\r\n", ';');
    return r;
}

static void
set_sample_fields(char **f, const vdc_test_info *info, const vdc_sample *s)
{
    int vi = info->csv_field - 1, ci = info->csv_cpu_field - 1, li = info->csv_latency_field - 1;

    if (vdc_has(s->value)) {
        /* bonnie++ prints K/sec and the file tests as integers, seeks with
         * one decimal */
        f[vi] = g_strdup_printf(info->id == VDC_TEST_SEEKS ? "%.1f" : "%.0f", s->value);
        if (vdc_has(s->cpu_percent))
            f[ci] = g_strdup_printf("%.0f", s->cpu_percent);
    } else if (s->too_fast && !s->failed) {
        f[vi] = g_strdup("+++++");
        f[ci] = g_strdup("+++");
    }
    if (vdc_has(s->latency_us))
        f[li] = g_strdup_printf("%.0fus", s->latency_us);
}

static int
run_line(GString *out, const vdc_run *r)
{
    char *f[BONNIE_CSV_FIELDS] = { 0 };
    const vdc_run_meta *m = &r->meta;
    size_t i;
    int any = 0;

    for (i = 0; i < r->n_samples; i++) {
        const vdc_test_info *info = vdc_test_lookup(r->samples[i]->test);

        if (!info || info->sweep || info->csv_field <= 0)
            continue;
        set_sample_fields(f, info, r->samples[i]);
        any = 1;
    }
    if (!any)
        return 0;
    f[0] = g_strdup("1.98");
    f[1] = g_strdup_printf("vmdiskcmp-%s", PACKAGE_VERSION);
    f[2] = bonnie_field_str(r->target);
    f[3] = g_strdup("1");
    f[4] = bonnie_field_str(m->seed);
    if (m->file_size_mib != VDC_INT_ABSENT)
        f[5] = g_strdup_printf("%" G_GINT64_FORMAT "M", m->file_size_mib);
    if (m->chunk_size != VDC_INT_ABSENT && m->chunk_size != 8192)
        f[6] = g_strdup_printf("%" G_GINT64_FORMAT, m->chunk_size);
    if (m->seeks != VDC_INT_ABSENT)
        f[7] = g_strdup_printf("%" G_GINT64_FORMAT, m->seeks);
    if (m->seek_processes != VDC_INT_ABSENT)
        f[8] = g_strdup_printf("%" G_GINT64_FORMAT, m->seek_processes);
    if (m->files.number != VDC_INT_ABSENT)
        f[21] = g_strdup_printf("%" G_GINT64_FORMAT, m->files.number);
    if (m->files.max_size != VDC_INT_ABSENT)
        f[22] = g_strdup_printf("%" G_GINT64_FORMAT, m->files.max_size);
    if (m->files.min_size != VDC_INT_ABSENT)
        f[23] = g_strdup_printf("%" G_GINT64_FORMAT, m->files.min_size);
    if (m->files.dirs != VDC_INT_ABSENT)
        f[24] = g_strdup_printf("%" G_GINT64_FORMAT, m->files.dirs);
    if (m->files.chunk_size != VDC_INT_ABSENT)
        f[25] = g_strdup_printf("%" G_GINT64_FORMAT, m->files.chunk_size);
    for (i = 0; i < BONNIE_CSV_FIELDS; i++) {
        if (i)
            g_string_append_c(out, ',');
        if (f[i])
            g_string_append(out, f[i]);
        g_free(f[i]);
    }
    g_string_append_c(out, '\n');
    return 1;
}

char *
vdc_render_bonnie_csv(const vdc_result_set *rs)
{
    GString *out = g_string_new(NULL);
    size_t i;

    for (i = 0; i < rs->n_runs; i++)
        run_line(out, rs->runs[i]);
    return g_string_free(out, FALSE);
}

/* ---- summary CSV ----------------------------------------------------------- */


static void
csv_num(GString *out, double v, int has)
{
    g_string_append_c(out, ',');
    if (has && isfinite(v))
        g_string_append_printf(out, "%.6g", v);
}

char *
vdc_render_summary_csv(const vdc_result_set *rs, const struct vdc_analysis *a)
{
    GString *out = g_string_new("target,test,unit,n,n_too_fast,n_failed,mean,median,stddev,cv_percent,"
                                "ci95_mean_lo,ci95_mean_hi,ci95_median_lo,ci95_median_hi,cpu_mean,"
                                "n_outliers,baseline,ratio,delta_percent,ci95_delta_lo,ci95_delta_hi,"
                                "p_value,verdict,flags,not_comparable\n");
    size_t ti, ki;

    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);
            const struct vdc_cell_comparison *cc = vdc_analysis_cmp(a, ti, ki);
            const struct vdc_stats_summary *s = &c->sum;
            char *flags;

            if (!c->n_samples)
                continue;
            vdc_csv_field(out, c->target);
            g_string_append_c(out, ',');
            vdc_csv_field(out, c->test_key);
            g_string_append_c(out, ',');
            vdc_csv_field(out, c->unit);
            g_string_append_printf(out, ",%zu,%zu,%zu", s->n, c->n_too_fast, c->n_failed);
            csv_num(out, s->mean, s->n > 0);
            csv_num(out, s->median, s->n > 0);
            csv_num(out, s->stddev, s->has_stddev);
            csv_num(out, s->cv_percent, s->has_cv);
            csv_num(out, s->ci_mean[0], s->has_ci_mean);
            csv_num(out, s->ci_mean[1], s->has_ci_mean);
            csv_num(out, s->ci_median[0], s->has_ci_median);
            csv_num(out, s->ci_median[1], s->has_ci_median);
            csv_num(out, c->cpu_mean, 1);
            g_string_append_printf(out, ",%zu,", c->n_outliers);
            vdc_csv_field(out, a->baseline);
            if (cc && cc->baseline->n_samples) {
                csv_num(out, cc->c.ratio, cc->c.has_ratio);
                csv_num(out, cc->c.delta_percent, cc->c.has_ratio);
                csv_num(out, cc->c.ci_delta_percent[0], cc->c.has_ci);
                csv_num(out, cc->c.ci_delta_percent[1], cc->c.has_ci);
                csv_num(out, cc->c.p_value, cc->c.has_test);
                g_string_append_c(out, ',');
                vdc_csv_field(out, vdc_headline_verdict_name(cc->c.verdict));
            } else {
                g_string_append(out, ",,,,,,");
            }
            g_string_append_c(out, ',');
            flags = vdc_cell_flags_text(c->flags);
            vdc_csv_field(out, flags);
            g_free(flags);
            g_string_append_c(out, ',');
            {
                g_autofree char *why = vdc_analysis_cmp_reason(a, ti, ki);

                vdc_csv_field(out, why);
            }
            g_string_append_c(out, '\n');
        }
    return g_string_free(out, FALSE);
}

/* ---- headline.csv ------------------------------------------------------------ */

/* ",FIELD" */
static void
csv_field(GString *out, const char *s)
{
    g_string_append_c(out, ',');
    vdc_csv_field(out, s);
}

char *
vdc_render_headline_csv(const struct vdc_analysis *a)
{
    const struct vdc_headline *h = &a->headline;
    GString *out = g_string_new("role,target,reference,test,unit,n_pairs,n_dropped,ratio,delta_percent,"
                                "ci95_delta_lo,ci95_delta_hi,p_value,p_holm,p_permutation,significant,"
                                "verdict,class,not_comparable,stop_reason\n");
    size_t i, j;

    for (i = 0; i < h->n_pairs; i++) {
        const struct vdc_headline_pair *hp = &h->pairs[i];

        for (j = 0; j < hp->n_rows; j++) {
            const struct vdc_headline_row *row = &hp->rows[j];
            const struct vdc_stats_paired *p = &row->p;
            char *reason = vdc_headline_reason(a, hp, row);

            g_string_append(out, vdc_headline_role_name(hp->role));
            csv_field(out, a->targets[hp->target]);
            csv_field(out, a->targets[hp->reference]);
            csv_field(out, a->tests[row->test]);
            csv_field(out, vdc_analysis_cell(a, hp->target, row->t_test)->unit);
            g_string_append_printf(out, ",%zu,%zu", p->n, row->n_dropped);
            csv_num(out, p->ratio, p->has_ratio);
            csv_num(out, p->delta_percent, p->has_ratio);
            csv_num(out, p->ci_delta_percent[0], p->has_ci);
            csv_num(out, p->ci_delta_percent[1], p->has_ci);
            csv_num(out, p->p_value, p->has_test);
            csv_num(out, row->p_holm, 1);
            csv_num(out, p->p_perm, p->has_test);
            csv_field(out, row->significant ? "true" : "false");
            csv_field(out, vdc_headline_verdict_name(row->verdict));
            csv_field(out, vdc_effect_class_name(row->effect));
            csv_field(out, reason);
            csv_field(out, row->stop ? row->stop->reason : NULL);
            g_string_append_c(out, '\n');
            g_free(reason);
        }
    }
    return g_string_free(out, FALSE);
}
