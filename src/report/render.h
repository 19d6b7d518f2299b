/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp renderers: one analysis (report/analysis.h), several outputs.
 *
 * Every renderer returns a new NUL-terminated UTF-8 string (g_free) and
 * touches no file; the caller writes it (atomically) or prints it.  Output
 * is deterministic for a given result set and options (the bootstrap is
 * seeded; the HTML "generated" date is taken from the caller).
 * Formats and their sources are described in doc/report.md. */
#ifndef VDC_REPORT_RENDER_H
#define VDC_REPORT_RENDER_H

#include "model/result.h"
#include "report/analysis.h"

/* The texts of the warnings (struct vdc_warning, decided by the analysis):
 * VDC_WARNING_FEW_RUNS, VDC_WARNING_FEW_VALUES (imported results, where
 * --runs does not apply), VDC_WARNING_TOO_FAST (the legend of
 * VDC_TOO_FAST_MARK, printed by every renderer when some cell has too-fast
 * runs without value); the others are made by vdc_warning_text. */
#define VDC_FEW_RUNS_WARNING \
    "Fewer than 2 runs with a value for some target and test: there is no confidence " \
    "interval and no significance test there, and a delta alone may be noise (use --runs 5 or more)."
#define VDC_FEW_VALUES_WARNING \
    "Fewer than 2 values for some target and test: there is no confidence " \
    "interval and no significance test there, and a delta alone may be noise."
#define VDC_TOO_FAST_LEGEND \
    "\u2020 k of n runs too fast to measure (bonnie++ +++++; the cell gives k and n): the value is " \
    "the mean of the measured runs only and understates the speed; a delta marked \u2020 is not " \
    "comparable (no verdict).  +++++ (too fast): every run was too fast to measure."

/* The legend of VDC_ARTEFACT_MARK (VDC_WARNING_ARTEFACTS), printed by every
 * renderer when some cell has an artefact flag, before one line per flag
 * (VDC_WARNING_ARTEFACT, vdc_warning_text). */
#define VDC_ARTEFACT_LEGEND \
    "\u2021 may be an artefact of the measurement, not a property of the disk (the lines below name " \
    "the rule and its numbers: page-cache-write, dd-time-short, above-ceiling, cached-reread, " \
    "guest-faster, rounded-identical, dom0-page-cache): such a value is marked \u2021, and so is a " \
    "delta when either side is; its verdict is printed, but do not rank on it."

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
 * (failed, not run).  Latency columns are written as "NNNus". */
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

/* The flags of one cell (vdc_cell.flags, decided by the analysis) as
 * summary.csv's flags column: a ';'-separated list of the fixed keywords
 * of vdc_cell_flag_name, in bit order, "" when none (g_free); the
 * artefact keywords (page-cache-write ... baseline-artefact,
 * doc/report.md) follow these:
 *   too-fast          some or all runs too fast to measure (+++++)
 *   failed            some runs failed on this test
 *   few-runs          fewer than 2 values: no CI, no significance test
 *   outliers-flagged  the outlier rule flagged values (kept in the mean)
 *   outliers-dropped  ... and --outliers drop left them out
 *   under-2x-ram      a run's test file is under twice its RAM
 *   sizes-differ      the target's test file sizes differ from the
 *                     baseline's (or among its own runs)
 *   not-comparable    the delta has no verdict (too-fast runs, a dagger)
 * The cells the text, Markdown and HTML reports mark or warn about. */
char *vdc_cell_flags_text(unsigned flags);

/* One line of what target @t's cache state was read back as after boot
 * (targets[].cache): "requested none; /dev/loop3 dio 1 (backing /img,
 * offset 0); bypasses dom0's page cache (read from xenstore,sysfs)";
 * NULL when nothing was recorded (g_free). */
char *vdc_cache_text(const vdc_target *t);
/* One line of targets[].placement: "3 ranges, 256.0 MiB on vda
 * (rotational), centre at 12.5 % of the disk (fiemap)"; NULL when none
 * (g_free). */
char *vdc_placement_text(const vdc_target *t);

/* The text report's block "Backend, cache and placement, read back after
 * boot": per target, the backend found (type, physical device, where it
 * was read, the requested backend when another), the cache and the
 * placement lines it has (nothing when no target has any). */
void vdc_append_cache_text(GString *out, const vdc_result_set *rs);

/* Every warning of a report (the analysis's warnings but
 * VDC_WARNING_EMULATED: a report has its banner), one sentence each
 * (vdc_warning_text; NULL-terminated, g_strfreev; empty when none), in this
 * order: too few runs for a confidence interval (or every run failed), the
 * too-fast legend when some cell has too-fast runs, then the test file
 * sizes: sizes that differ between targets, a test file under twice the RAM
 * per target; then, when some cell may be an artefact, VDC_ARTEFACT_LEGEND
 * and one line per artefact flag of each cell (target, then test order).  The one source of the warnings `report` and `compare` print
 * on stderr ("vmdiskcmp: WARNING: LINE") and compare carries into its
 * output. */
char **vdc_report_warnings(const vdc_result_set *rs, const struct vdc_analysis *a);

/* The warnings of `compare`: VDC_EMULATED_WARNING first when any input
 * was measured in emulation (the merged result set is then emulated: a
 * compare table has no banner of its own; VDC_WARNING_EMULATED), then
 * vdc_report_warnings. */
char **vdc_compare_warnings(const vdc_result_set *rs, const struct vdc_analysis *a);
#define VDC_EMULATED_WARNING "EMULATED: some inputs were measured under software emulation " \
    "(experiment.emulated); their numbers predict nothing about real hardware."

/* The result document (doc/result-format.md) plus "statistics". */
char *vdc_render_json(const vdc_result_set *rs, const struct vdc_analysis *a);

/* Markdown (GitHub tables): metadata, per-test means with CI, deltas. */
char *vdc_render_markdown(const vdc_result_set *rs, const struct vdc_analysis *a);

/* One self-contained HTML page: inline SVG charts (cairo), tables,
 * metadata, the EMULATED banner.  @generated is an ISO 8601 date printed
 * as the report's date (NULL: omitted).  Returns NULL after vdc_error when
 * cairo fails. */
char *vdc_render_html(const vdc_result_set *rs, const struct vdc_analysis *a,
                      const char *generated);

/* An SVG chart (cairo_svg_surface to memory) of the tests whose unit is
 * @unit ("K/sec" or "/sec"): grouped bars, one group per test, one bar
 * per target (mean), 95 % CI whiskers, axis labels, legend.  Returns the
 * <svg> document without XML declaration, or NULL after vdc_error; NULL
 * with *empty = 1 when no test has that unit. */
char *vdc_render_chart_svg(const struct vdc_analysis *a, const char *unit,
                           const char *title, int *empty);

/* An SVG dot plot (cairo_svg_surface to memory) of the tests whose unit
 * is @unit: a panel per test, three to a row; in each, every run of every
 * target in run order (x: repetition, y: value on the panel's own scale),
 * one colour per target (the bar chart's), a thin line joining a target's
 * runs, flagged outliers ringed, too-fast samples (no value) as open
 * triangles on the top edge and failed ones as crosses at the bottom.
 * *n_points gets the markers drawn.  Returns the <svg> document, or NULL
 * after vdc_error; NULL with *empty = 1 when no test has that unit. */
char *vdc_render_dots_svg(const vdc_result_set *rs, const struct vdc_analysis *a, const char *unit,
                          const char *title, int *empty, size_t *n_points);

/* Side-by-side comparison table of `vmdiskcmp compare`: one row per test,
 * per target its mean (n), and for every target but the baseline its %
 * delta and significance mark.  @format: "text", "csv", "json", "md".
 * The warnings (vdc_compare_warnings) follow the table: text "WARNING:
 * LINE", md "> **Warning:** LINE", json statistics.warnings; csv has the
 * per-cell flags column instead.
 * Returns NULL (no message) for an unknown format. */
char *vdc_render_compare(const vdc_result_set *rs, const struct vdc_analysis *a, const char *format);

/* ---- Workloads (render_workload.c) ----------------------------------------------
 * The means over the runs of a workload cell's samples (those with a
 * value): completion latency p50 and p99 (us), CPU per I/O (us; the whole
 * process's, else the job threads' when that is all a sample has, e.g. an
 * imported fio run: cpu_thread = 1); NAN when no sample has it.  first:
 * the first sample's workload object (with or without a value), for the
 * job's parameters; NULL when there is none. */
struct vdc_workload_means {
    size_t n;
    double p50_us, p99_us, cpu_us_per_io;
    int cpu_thread;
    const vdc_workload *first;
};
void vdc_workload_means(const vdc_result_set *rs, const char *target, const char *key,
                        struct vdc_workload_means *m);

/* "rw=randread bs=4096 iodepth=32 numjobs=1 direct=1 engine=io_uring" (the batch options
 * after iodepth when they are not fio's defaults)
 * (members present only); g_free(). */
char *vdc_workload_job_line(const vdc_workload *w);

/* The workload block of report.txt / report.md: per job (in the order of
 * the analysis's keys) its parameters, then per direction and target the
 * IOPS mean with its 95 % CI, clat p50/p99 and CPU per I/O (us), and the
 * delta against the baseline with its mark.  Nothing without workloads. */
void vdc_append_workloads_text(GString *out, const vdc_result_set *rs, const struct vdc_analysis *a);
void vdc_append_workloads_md(GString *out, const vdc_result_set *rs, const struct vdc_analysis *a);

/* workloads.csv: a header, then a row per (workload key, target) with
 * samples: target, job, direction, test, n, iops_mean, iops_ci95_lo/hi,
 * clat_p50_us, clat_p99_us, cpu_us_per_io, cpu_threads_only, baseline,
 * delta_percent, ci95_delta_lo/hi, p_value, verdict (empty where not
 * computed).  NULL when the result has no workload samples. */
char *vdc_render_workloads_csv(const vdc_result_set *rs, const struct vdc_analysis *a);

/* An SVG chart of each target's completion-latency percentiles (p50, p90,
 * p99, p99.9, p99.99 on x; microseconds on a log-scale y), one line per
 * workload key, means over the runs.  Returns the <svg> document, or NULL
 * after vdc_error; NULL with *empty = 1 when the target has no workload
 * latency. */
char *vdc_render_latency_svg(const vdc_result_set *rs, const struct vdc_analysis *a, size_t target,
                             const char *title, int *empty);

/* Formats accepted by vdc_render_compare; for messages. */
#define VDC_COMPARE_FORMATS "text, csv, json, md"

#endif
