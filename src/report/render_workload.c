/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp renderers: the workload blocks (fio-style jobs, test keys
 * workload_read@JOB / workload_write@JOB) of report.txt and report.md, and
 * workloads.csv.  The IOPS statistics are the analysis's cells (mean, 95 %
 * CI, Welch against the baseline), as for every other test; the latency
 * percentiles and CPU per I/O are the analysis's too (vdc_cell_workload:
 * means over the runs of the samples' workload objects, doc/report.md,
 * "Workloads"). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "report/render.h"
#include "report/render_escape.h"
#include "report/render_fmt.h"
#include "report/layout.h"

/* render.h */
char *
vdc_workload_job_line(const vdc_workload *w)
{
    GString *s = g_string_new(NULL);
    const vdc_job_params *j = &w->job;

    if (j->rw)
        g_string_append_printf(s, "rw=%s", j->rw);
    if (j->rwmixread != VDC_INT_ABSENT && j->rw && strstr(j->rw, "rw"))
        g_string_append_printf(s, " rwmixread=%" G_GINT64_FORMAT, (gint64)j->rwmixread);
    if (j->bs != VDC_INT_ABSENT)
        g_string_append_printf(s, " bs=%" G_GINT64_FORMAT, (gint64)j->bs);
    if (j->iodepth != VDC_INT_ABSENT)
        g_string_append_printf(s, " iodepth=%" G_GINT64_FORMAT, (gint64)j->iodepth);
    /* fio's batching: said when it is known and not fio's default (1, 1, 1) */
    if (j->iodepth_batch_submit != VDC_INT_ABSENT &&
        j->iodepth_batch_complete_min != VDC_INT_ABSENT &&
        j->iodepth_batch_complete_max != VDC_INT_ABSENT &&
        (j->iodepth_batch_submit != 1 || j->iodepth_batch_complete_min != 1 ||
         j->iodepth_batch_complete_max != 1))
        g_string_append_printf(s, " iodepth_batch_submit=%" G_GINT64_FORMAT
                               " iodepth_batch_complete=%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT,
                               (gint64)j->iodepth_batch_submit,
                               (gint64)j->iodepth_batch_complete_min,
                               (gint64)j->iodepth_batch_complete_max);
    if (j->scramble_buffers == 0)
        g_string_append(s, " scramble_buffers=0");
    if (j->norandommap == 1)
        g_string_append(s, " norandommap");
    if (j->numjobs != VDC_INT_ABSENT)
        g_string_append_printf(s, " numjobs=%" G_GINT64_FORMAT, (gint64)j->numjobs);
    if (j->direct != VDC_BOOL_ABSENT)
        g_string_append_printf(s, " direct=%d", j->direct);
    if (w->engine)
        g_string_append_printf(s, " engine=%s", w->engine);
    if (w->iodepth_effective != VDC_INT_ABSENT && j->iodepth != VDC_INT_ABSENT &&
        w->iodepth_effective != j->iodepth)
        g_string_append_printf(s, " (iodepth_effective=%" G_GINT64_FORMAT ")",
                               (gint64)w->iodepth_effective);
    return g_string_free(s, FALSE);
}

/* a number or "-" */
static const char *
num_or_dash(char *buf, size_t size, double v, const char *fmt)
{
    if (vdc_has(v))
        snprintf(buf, size, fmt, v);
    else
        snprintf(buf, size, "-");
    return buf;
}

/* One row's cells as strings: n, IOPS, CI, p50, p99, CPU, delta. */
struct row {
    char n[16], iops[32], ci[64], p50[32], p99[32], cpu[32], delta[64];
};

static void
row_of(const struct vdc_analysis *a, size_t ti, size_t ki, struct row *r)
{
    const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);
    const struct vdc_cell_workload *m = &c->wl;

    snprintf(r->n, sizeof(r->n), "%zu", c->sum.n);
    if (c->n_samples)
        vdc_fmt_cell_mean(r->iops, sizeof(r->iops), c);
    else
        snprintf(r->iops, sizeof(r->iops), "not run");
    r->ci[0] = '\0';
    if (c->sum.has_ci_mean) {
        char lo[32];

        /* the bounds as the mean is printed: one format in a cell */
        snprintf(lo, sizeof(lo), "%s", vdc_fmt_num_like(c->sum.ci_mean[0], c->sum.mean));
        snprintf(r->ci, sizeof(r->ci), "[%s, %s]", lo, vdc_fmt_num_like(c->sum.ci_mean[1], c->sum.mean));
    }
    num_or_dash(r->p50, sizeof(r->p50), m->clat_us[VDC_CLAT_P50], "%.1f");
    num_or_dash(r->p99, sizeof(r->p99), m->clat_us[VDC_CLAT_P99], "%.1f");
    num_or_dash(r->cpu, sizeof(r->cpu), m->cpu_us_per_io, m->cpu_thread ? "%.2f (threads)" : "%.2f");
    r->delta[0] = '\0';
    if (ti != a->baseline_index && c->n_samples)
        vdc_fmt_cell_delta(r->delta, sizeof(r->delta), vdc_analysis_cmp(a, ti, ki), 1);
}

static int
is_workload(const char *key)
{
    return vdc_test_key_job(key) != NULL;
}

/* What a job ran on, as a heading says it: "on a file", "on the raw
 * device", or "" when the samples do not say (older documents, imports). */
static const char *
on_words(const vdc_workload *w)
{
    if (!w || !w->on)
        return "";
    return !strcmp(w->on, "raw") ? "on the raw device" : "on a file";
}

/* How one renderer prints the workload block: its introduction (once),
 * a job's heading (its name, what it ran on: on_words) with its parameter
 * line, a row. */
struct workload_fmt {
    void (*intro)(GString *out, const struct vdc_analysis *a);
    void (*job)(GString *out, const char *job, const char *on, const char *params);
    void (*row)(GString *out, const struct vdc_analysis *a, const char *dir, const char *target,
                const struct row *r);
};

/* Every workload key of @a in order: the job's heading when the job
 * changes, then a row per target; a blank line after the block. */
static void
walk_workloads(GString *out, const struct vdc_analysis *a, const struct workload_fmt *fmt)
{
    const char *job = NULL;
    size_t ki, ti;

    for (ki = 0; ki < a->n_tests; ki++) {
        const char *j = vdc_test_key_job(a->tests[ki]);
        int64_t bs;
        const vdc_test_info *info = vdc_test_key_parse(a->tests[ki], &bs);

        if (!j)
            continue;
        if (!job)
            fmt->intro(out, a);
        if (!job || strcmp(job, j)) {
            const vdc_workload *w = vdc_analysis_key_workload(a, ki);
            char *line = w ? vdc_workload_job_line(w) : g_strdup("");
            char name[320];

            /* the name without the raw key's suffix: on_words says it */
            snprintf(name, sizeof(name), "%.*s", (int)(strlen(j) - (vdc_test_key_raw(a->tests[ki])
                                                                  ? strlen(VDC_WORKLOAD_RAW_SUFFIX) : 0)), j);
            fmt->job(out, name, w && w->on ? on_words(w) : vdc_test_key_raw(a->tests[ki])
                                                           ? "on the raw device" : "", line);
            g_free(line);
            job = j;
        }
        for (ti = 0; ti < a->n_targets; ti++) {
            struct row r;

            row_of(a, ti, ki, &r);
            fmt->row(out, a, info->short_label, a->targets[ti], &r);
        }
    }
    if (job)
        g_string_append_c(out, '\n');
}

static void
text_intro(GString *out, const struct vdc_analysis *a)
{
    g_autofree char *intro = g_strdup_printf("Workloads: IOPS mean [95%% CI of the mean], completion latency "
                                             "p50 and p99 in us and CPU us per I/O (means of the runs), %% delta "
                                             "relative to %s", a->baseline);

    vdc_layout_wrap(out, "", "  ", intro, VDC_LAYOUT_TEXT_WIDTH);
}

static void
text_job(GString *out, const char *job, const char *on, const char *params)
{
    g_string_append_printf(out, "Job %s%s%s: %s\n", job, *on ? " " : "", on, params);
}

/* The widths of report.txt's workload columns: target (the longest
 * name, at least 16, the bonnie++ layout's width: names are never cut, fio
 * imports name targets by file path), n, IOPS, CI, p50, p99, CPU, each as
 * wide as its widest cell over every workload row of @a, so that a row
 * holds no padding its table does not need. */
enum { W_TARGET, W_N, W_IOPS, W_CI, W_P50, W_P99, W_CPU, W_N_COLS };

static void
text_widths(const struct vdc_analysis *a, int *w)
{
    size_t ti, ki;

    memset(w, 0, sizeof(int) * W_N_COLS);
    w[W_TARGET] = 16;
    for (ti = 0; ti < a->n_targets; ti++)
        w[W_TARGET] = MAX(w[W_TARGET], vdc_layout_width(a->targets[ti]));
    for (ki = 0; ki < a->n_tests; ki++) {
        if (!is_workload(a->tests[ki]))
            continue;
        for (ti = 0; ti < a->n_targets; ti++) {
            struct row r;

            row_of(a, ti, ki, &r);
            w[W_N] = MAX(w[W_N], vdc_layout_width(r.n));
            w[W_IOPS] = MAX(w[W_IOPS], vdc_layout_width(r.iops));
            w[W_CI] = MAX(w[W_CI], vdc_layout_width(r.ci));
            w[W_P50] = MAX(w[W_P50], vdc_layout_width(r.p50));
            w[W_P99] = MAX(w[W_P99], vdc_layout_width(r.p99));
            w[W_CPU] = MAX(w[W_CPU], vdc_layout_width(r.cpu));
        }
    }
}

static void
text_row(GString *out, const struct vdc_analysis *a, const char *dir, const char *target,
         const struct row *r)
{
    int w[W_N_COLS];
    GString *line = g_string_new(NULL);

    text_widths(a, w);
    g_string_append_printf(line, "  %-5s ", dir);
    vdc_layout_pad(line, target, w[W_TARGET], 0);
    g_string_append(line, " n=");
    vdc_layout_pad(line, r->n, w[W_N], 0);
    g_string_append_c(line, ' ');
    vdc_layout_pad(line, r->iops, w[W_IOPS], 1);
    g_string_append(line, " IO/sec ");
    vdc_layout_pad(line, r->ci, w[W_CI], 0);
    g_string_append(line, " p50 ");
    vdc_layout_pad(line, r->p50, w[W_P50], 0);
    g_string_append(line, " p99 ");
    vdc_layout_pad(line, r->p99, w[W_P99], 0);
    g_string_append(line, " CPU ");
    vdc_layout_pad(line, r->cpu, w[W_CPU], 0);
    g_string_append_printf(line, " %s", r->delta);
    g_string_append_printf(out, "%s\n", g_strchomp(line->str));
    g_string_free(line, TRUE);
}

/* render.h */
void
vdc_append_workloads_text(GString *out, const struct vdc_analysis *a)
{
    static const struct workload_fmt fmt = { text_intro, text_job, text_row };

    walk_workloads(out, a, &fmt);
}

static void
md_intro(GString *out, const struct vdc_analysis *a)
{
    (void)a;
    g_string_append(out, "## Workloads\n\nIOPS: mean and 95 % CI of the mean; clat p50/p99 and CPU per "
                         "I/O: means of the runs (\"threads\": the job threads' CPU only, as fio "
                         "measures it); delta relative to the baseline as in the results table.\n");
}

static void
md_job(GString *out, const char *job, const char *on, const char *params)
{
    g_string_append(out, "\n### ");
    vdc_md_escape(out, job);
    if (*on)
        g_string_append_printf(out, " %s", on);
    g_string_append(out, "\n\n`");
    g_string_append(out, params);
    g_string_append(out, "`\n\n| target | dir | n | IOPS | 95 % CI | clat p50 us | clat p99 us | "
                         "CPU us/IO | delta |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
}

static void
md_row(GString *out, const struct vdc_analysis *a, const char *dir, const char *target,
       const struct row *r)
{
    (void)a;
    g_string_append(out, "| ");
    vdc_md_escape(out, target);
    g_string_append_printf(out, " | %s | %s | ", dir, r->n);
    vdc_md_escape(out, r->iops);
    g_string_append_printf(out, " | %s | %s | %s | %s | ", r->ci, r->p50, r->p99, r->cpu);
    vdc_md_escape(out, r->delta);
    g_string_append(out, " |\n");
}

/* render.h */
void
vdc_append_workloads_md(GString *out, const struct vdc_analysis *a)
{
    static const struct workload_fmt fmt = { md_intro, md_job, md_row };

    walk_workloads(out, a, &fmt);
}


static void
csv_number(GString *out, double v, int have)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];

    g_string_append_c(out, ',');
    if (have && vdc_has(v))
        g_string_append(out, g_ascii_formatd(buf, sizeof(buf), "%.6g", v));
}

/* render.h */
char *
vdc_render_workloads_csv(const struct vdc_analysis *a)
{
    GString *out;
    size_t ki, ti;
    int any = 0;

    for (ki = 0; ki < a->n_tests; ki++)
        any |= is_workload(a->tests[ki]);
    if (!any)
        return NULL;
    out = g_string_new("target,job,on,direction,test,n,iops_mean,iops_ci95_lo,iops_ci95_hi,clat_p50_us,"
                       "clat_p99_us,cpu_us_per_io,cpu_threads_only,baseline,delta_percent,ci95_delta_lo,"
                       "ci95_delta_hi,p_value,verdict,not_comparable\n");
    for (ki = 0; ki < a->n_tests; ki++) {
        const char *j = vdc_test_key_job(a->tests[ki]);
        int64_t bs;
        const vdc_test_info *info = vdc_test_key_parse(a->tests[ki], &bs);
        int raw = vdc_test_key_raw(a->tests[ki]);

        if (!j)
            continue;
        for (ti = 0; ti < a->n_targets; ti++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);
            const struct vdc_cell_comparison *cc = vdc_analysis_cmp(a, ti, ki);
            const struct vdc_cell_workload *m = &c->wl;

            if (!c->n_samples)
                continue;
            vdc_csv_field(out, a->targets[ti]);
            g_string_append_c(out, ',');
            {
                g_autofree char *name = g_strndup(j, strlen(j) - (raw ? strlen(VDC_WORKLOAD_RAW_SUFFIX) : 0));

                vdc_csv_field(out, name);
            }
            /* file, raw, or empty when the samples do not say */
            g_string_append_printf(out, ",%s", raw ? "raw" : m->first && m->first->on ? m->first->on : "");
            g_string_append_printf(out, ",%s,%s,%zu", info->workload && info->id == VDC_TEST_WORKLOAD_WRITE
                                   ? "write" : "read", info->name, c->sum.n);
            csv_number(out, c->sum.mean, c->sum.n > 0);
            csv_number(out, c->sum.ci_mean[0], c->sum.has_ci_mean);
            csv_number(out, c->sum.ci_mean[1], c->sum.has_ci_mean);
            csv_number(out, m->clat_us[VDC_CLAT_P50], 1);
            csv_number(out, m->clat_us[VDC_CLAT_P99], 1);
            csv_number(out, m->cpu_us_per_io, 1);
            g_string_append_printf(out, ",%s,", vdc_has(m->cpu_us_per_io) ? (m->cpu_thread ? "true" : "false")
                                   : "");
            vdc_csv_field(out, a->baseline);
            if (ti != a->baseline_index && cc && cc->baseline->n_samples) {
                csv_number(out, cc->c.delta_percent, cc->c.has_ratio);
                csv_number(out, cc->c.ci_delta_percent[0], cc->c.has_ci);
                csv_number(out, cc->c.ci_delta_percent[1], cc->c.has_ci);
                csv_number(out, cc->c.p_value, cc->c.has_test);
                g_string_append_printf(out, ",%s,", vdc_headline_verdict_name(cc->c.verdict));
                {
                    g_autofree char *why = vdc_analysis_cmp_reason(a, ti, ki);

                    vdc_csv_field(out, why);
                }
                g_string_append_c(out, '\n');
            } else {
                g_string_append(out, ",,,,,,\n");
            }
        }
    }
    return g_string_free(out, FALSE);
}
