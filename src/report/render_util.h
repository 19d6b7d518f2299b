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

/* The sentence of one warning of the analysis (a->warnings[]), the same
 * in every format (renderers add their prefix, escaping and layout), ending
 * with a period (g_free):
 * - VDC_WARNING_EMULATED: VDC_EMULATED_WARNING;
 * - VDC_WARNING_ALL_FAILED: "All N runs failed: there is nothing to
 *   compare: image #0: ERROR; ..." with each run's error string;
 * - VDC_WARNING_FEW_VALUES / _FEW_RUNS: VDC_FEW_VALUES_WARNING /
 *   VDC_FEW_RUNS_WARNING; VDC_WARNING_TOO_FAST: VDC_TOO_FAST_LEGEND;
 * - VDC_WARNING_SIZES_DIFFER: "test file sizes differ: dom0 49152 MiB,
 *   image 4096 MiB: deltas mix size effects with backend effects." (a
 *   target with several sizes lists them "a/b");
 * - VDC_WARNING_UNDER_2X_RAM: "target image: test file 512 MiB is under
 *   twice the RAM (1024 MiB) in 5 of 5 runs: the page cache flatters the
 *   result (bonnie++ wants at least twice the RAM)." -- "under twice the
 *   domU's memory (128 MiB; the agent was told -r 16)" when the machine
 *   has more than the agent was told. */
char *vdc_warning_text(const vdc_result_set *rs, const struct vdc_analysis *a,
                       const struct vdc_warning *w);

/* Sets of warning kinds for vdc_warning_texts/vdc_warning_first. */
#define VDC_WARNING_BIT(kind) (1u << (kind))
#define VDC_WARNINGS_FEW (VDC_WARNING_BIT(VDC_WARNING_ALL_FAILED) | \
                          VDC_WARNING_BIT(VDC_WARNING_FEW_VALUES) | VDC_WARNING_BIT(VDC_WARNING_FEW_RUNS))
#define VDC_WARNINGS_SIZES (VDC_WARNING_BIT(VDC_WARNING_SIZES_DIFFER) | \
                            VDC_WARNING_BIT(VDC_WARNING_UNDER_2X_RAM))
#define VDC_WARNINGS_REPORT (VDC_WARNINGS_FEW | VDC_WARNING_BIT(VDC_WARNING_TOO_FAST) | VDC_WARNINGS_SIZES)

/* The sentences of the analysis's warnings whose kind is in @kinds, in
 * their order (NULL-terminated, g_strfreev; empty when none). */
char **vdc_warning_texts(const vdc_result_set *rs, const struct vdc_analysis *a, unsigned kinds);

/* The sentence of the first warning whose kind is in @kinds, or NULL
 * (g_free). */
char *vdc_warning_first(const vdc_result_set *rs, const struct vdc_analysis *a, unsigned kinds);

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
