/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp renderers: one analysis (report/analysis.h), several outputs.
 * The entry point of each format (text, CSV, Markdown, HTML, compare's
 * table, the workload blocks); the parts they share have their own
 * headers: render_fmt.h (numbers), render_escape.h (escaping),
 * render_warnings.h (warning sentences, verdict lines, notes),
 * render_meta.h (metadata), render_json.h (report.json), render_chart.h
 * (SVG charts), render_headline.h and render_hostcost.h (sections).
 *
 * Every renderer returns a new NUL-terminated UTF-8 string (g_free) and
 * touches no file; the caller writes it (atomically) or prints it.  Output
 * is deterministic for a given result set and options (the bootstrap is
 * seeded; the HTML "generated" date is taken from the caller).  Renderers
 * print the analysis's numbers; they compute none from the samples.
 * Formats and their sources are described in doc/report.md. */
#ifndef VDC_REPORT_RENDER_H
#define VDC_REPORT_RENDER_H

#include <glib.h>

#include "model/result.h"
#include "report/analysis.h"

/* Text in the bonnie++ layout (bon_csv2txt's two blocks, "Sequential
 * Output / Input / Random" then "Sequential / Random Create"), one row per
 * target with the mean and %CP, a row with the 95 % CI half-width, then
 * the % deltas against the baseline with their significance marks, the
 * other tests (sweep), the outliers and the counts of samples with no
 * value. */
char *vdc_render_text(const vdc_result_set *rs, const struct vdc_analysis *a);

/* bonnie++ 2.00a CSV, format 1.98, 50 fields: one line per run that has
 * at least one bonnie++ test (sweep tests have no column), so Debian's
 * bon_csv2txt and bon_csv2html render it.  Field 3 ("name") is the target
 * name; values without a value are "+++++"/"+++" (too fast) or empty
 * (failed, not run).  Latency columns are written as "NNNus".  Each run's
 * own values, as measured: the one renderer that prints samples. */
char *vdc_render_bonnie_csv(const vdc_result_set *rs);

/* Summary CSV (RFC 4180, header line, one line per target x test):
 * target,test,unit,n,n_too_fast,n_failed,mean,median,stddev,cv_percent,
 * ci95_mean_lo,ci95_mean_hi,ci95_median_lo,ci95_median_hi,cpu_mean,
 * n_outliers,baseline,ratio,delta_percent,ci95_delta_lo,ci95_delta_hi,
 * p_value,verdict,flags.  Empty fields: not computable.  flags (last, so
 * older readers keep their column numbers): vdc_cell_flags_text. */
char *vdc_render_summary_csv(const vdc_result_set *rs, const struct vdc_analysis *a);

/* headline.csv (RFC 4180, header line, one line per headline pair and
 * test, vdc_analysis.headline): role,target,reference,test,unit,n_pairs,
 * n_dropped,ratio,delta_percent,ci95_delta_lo,ci95_delta_hi,p_value,
 * p_holm,p_permutation,significant,verdict,class,not_comparable,
 * stop_reason.  Numbers %.6g; empty: not computable (doc/report.md). */
char *vdc_render_headline_csv(const struct vdc_analysis *a);

/* Markdown (GitHub tables): metadata, per-test means with CI, deltas. */
char *vdc_render_markdown(const vdc_result_set *rs, const struct vdc_analysis *a);

/* One Markdown table (report.md, compare --format md): a row per test,
 * per target "mean ± CI half-width (n=...)" (@with_ci), then per target but
 * the baseline the delta with its mark and Fieller interval. */
void vdc_md_table(GString *out, const struct vdc_analysis *a, int with_ci);

/* Under that table: why the n/c deltas have no verdict, a list item per
 * target and reason (vdc_analysis_not_comparable_lines), then a blank line;
 * nothing when every delta has its verdict. */
void vdc_append_not_comparable_md(GString *out, const struct vdc_analysis *a);

/* One self-contained HTML page: inline SVG charts (cairo), tables,
 * metadata, the EMULATED banner.  @generated is an ISO 8601 date printed
 * as the report's date (NULL: omitted).  Returns NULL after vdc_error when
 * cairo fails. */
char *vdc_render_html(const vdc_result_set *rs, const struct vdc_analysis *a,
                      const char *generated);

/* Side-by-side comparison table of `vmdiskcmp compare`: one row per test,
 * per target its mean (n), and for every target but the baseline its %
 * delta and significance mark, then the warnings (vdc_compare_warnings):
 * text "WARNING: LINE" (vdc_render_compare_text), Markdown "> **Warning:**
 * LINE" (vdc_render_compare_md). */
char *vdc_render_compare_text(const vdc_result_set *rs, const struct vdc_analysis *a);
char *vdc_render_compare_md(const vdc_result_set *rs, const struct vdc_analysis *a);

/* `compare --format @format` (a name or alias of report/formats.h's table:
 * text, csv = summary.csv, json = the statistics object with its warnings,
 * md); NULL (no message) for a format compare does not print. */
char *vdc_render_compare(const vdc_result_set *rs, const struct vdc_analysis *a, const char *format);

/* ---- Workloads (render_workload.c) ------------------------------------------ */

/* "rw=randread bs=4096 iodepth=32 numjobs=1 direct=1 engine=io_uring" (the batch options
 * after iodepth when they are not fio's defaults)
 * (members present only); g_free(). */
char *vdc_workload_job_line(const vdc_workload *w);

/* The workload block of report.txt / report.md: per job (in the order of
 * the analysis's keys) its parameters, then per direction and target the
 * IOPS mean with its 95 % CI, clat p50/p99 and CPU per I/O (us), and the
 * delta against the baseline with its mark.  Nothing without workloads. */
void vdc_append_workloads_text(GString *out, const struct vdc_analysis *a);
void vdc_append_workloads_md(GString *out, const struct vdc_analysis *a);

/* workloads.csv: a header, then a row per (workload key, target) with
 * samples: target, job, direction, test, n, iops_mean, iops_ci95_lo/hi,
 * clat_p50_us, clat_p99_us, cpu_us_per_io, cpu_threads_only, baseline,
 * delta_percent, ci95_delta_lo/hi, p_value, verdict (empty where not
 * computed).  NULL when the result has no workload samples. */
char *vdc_render_workloads_csv(const struct vdc_analysis *a);

#endif
