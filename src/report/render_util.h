/* Internal to src/report: number formatting and metadata shared by the
 * renderers. */
#ifndef VDC_REPORT_RENDER_UTIL_H
#define VDC_REPORT_RENDER_UTIL_H

#include <stddef.h>

#include <json-glib/json-glib.h>

#include "model/result.h"
#include "report/analysis.h"

/* A rate as bonnie++ prints it: no decimals from 1000 up, one below,
 * two below 10.
 * Returns one of 8 rotating static buffers (use within one statement). */
const char *vdc_fmt_num_s(double v);

/* The mean of a cell: number, number + VDC_TOO_FAST_MARK (some runs too
 * fast without value), "+++++ (too fast)" (every run too fast), "failed"
 * (no value, failed) or "" (not run). */
void vdc_fmt_cell_mean(char *buf, size_t size, const struct vdc_cell *c);

/* "+474.2%**": % delta of a comparison with its significance mark
 * (@with_mark); "" when there is no ratio. */
void vdc_fmt_delta(char *buf, size_t size, const struct vdc_stats_comparison *c, int with_mark);

/* Warnings about the test file sizes of the runs, one line each
 * (NULL-terminated, g_strfreev; empty when none):
 * - the targets' runs.metadata.file_size_mib differ: "test file sizes
 *   differ: dom0 49152 MiB, image 4096 MiB: deltas mix size effects with
 *   backend effects" (a target with several sizes lists them "a/b");
 * - per target, runs whose file size is under twice their ram_mib:
 *   "target image: test file 512 MiB is under twice the RAM (1024 MiB) in
 *   5 of 5 runs: the page cache flatters the result (bonnie++ wants at
 *   least twice the RAM)".
 * Runs without file_size_mib (or ram_mib) are left out of the check. */
char **vdc_size_warnings(const vdc_result_set *rs, const struct vdc_analysis *a);

/* The "too few values" warning, or NULL when every cell with values has
 * 2 or more (g_free):
 * - every run failed (status other than "ok"): "All N runs failed: image
 *   #0: ERROR; ..." with each run's error string;
 * - imported results (a target of kind "imported", or a run with
 *   metadata.source): VDC_FEW_RUNS_WARNING without the --runs advice
 *   ("fewer than 2 values");
 * - otherwise VDC_FEW_RUNS_WARNING ("use --runs 5 or more"). */
char *vdc_few_runs_warning(const vdc_result_set *rs, const struct vdc_analysis *a);

/* experiment.emulated is true */
int vdc_experiment_emulated(const vdc_result_set *rs);

/* 1 when some cell has VDC_STATS_OUTLIER_MIN_N or more values, so the
 * outlier rule was applied somewhere; 0: "no sample flagged" would
 * mislead. */
int vdc_outlier_rule_applied(const struct vdc_analysis *a);

/* What is needed to rerun the experiment, as label/value pairs in one
 * NULL-terminated vector (g_strfreev): experiment, host, hypervisor,
 * guest, per-target backend and storage, per-run tool and sizes, the
 * statistics settings.  Absent members are left out. */
char **vdc_metadata_lines(const vdc_result_set *rs, const struct vdc_analysis *a);

/* The "statistics" object of doc/result-format.md (new node). */
JsonNode *vdc_statistics_to_json(const struct vdc_analysis *a);

/* The statistics object alone with its "warnings", pretty-printed
 * (compare --format json). */
char *vdc_render_statistics_json(const vdc_result_set *rs, const struct vdc_analysis *a);

#endif
