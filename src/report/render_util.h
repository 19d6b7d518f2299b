/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal to src/report: number formatting and metadata shared by the
 * renderers. */
#ifndef VDC_REPORT_RENDER_UTIL_H
#define VDC_REPORT_RENDER_UTIL_H

#include <stddef.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "model/result.h"
#include "report/analysis.h"

/* A rate as bonnie++ prints it: no decimals from 1000 up, one below,
 * two below 10.
 * Returns one of 8 rotating static buffers (use within one statement). */
const char *vdc_fmt_num_s(double v);

/* Append @s to @out as one RFC 4180 CSV field: as is, or in double quotes
 * with quotes doubled when it holds a comma, a quote, CR or LF.  NULL is
 * the empty field. */
void vdc_csv_field(GString *out, const char *s);

/* The mean of a cell: number, number + VDC_TOO_FAST_MARK (some runs too
 * fast without value), "+++++ (too fast)" (every run too fast), "failed"
 * (no value, failed) or "" (not run); a number + VDC_ARTEFACT_MARK when the
 * cell has an artefact flag (VDC_CELL_ARTEFACTS). */
void vdc_fmt_cell_mean(char *buf, size_t size, const struct vdc_cell *c);

/* "+474.2%**": % delta of a comparison with its significance mark
 * (@with_mark); "" when there is no ratio. */
void vdc_fmt_delta(char *buf, size_t size, const struct vdc_stats_comparison *c, int with_mark);

/* vdc_fmt_delta of @cc, then VDC_ARTEFACT_MARK when either side may be an
 * artefact (the target cell's VDC_CELL_ARTEFACT_MARKED): "+120.3%**‡". */
void vdc_fmt_cell_delta(char *buf, size_t size, const struct vdc_cell_comparison *cc, int with_mark);

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
 *   has more than the agent was told;
 * - VDC_WARNING_ARTEFACTS: VDC_ARTEFACT_LEGEND;
 * - VDC_WARNING_ARTEFACT: "‡ target /dev/xvdb, test dd_write@65536,
 *   page-cache-write: " and the cell's explanation (vdc_cell.why). */
char *vdc_warning_text(const vdc_result_set *rs, const struct vdc_analysis *a,
                       const struct vdc_warning *w);

/* Sets of warning kinds for vdc_warning_texts and vdc_append_warnings. */
#define VDC_WARNING_BIT(kind) (1u << (kind))
#define VDC_WARNINGS_FEW (VDC_WARNING_BIT(VDC_WARNING_ALL_FAILED) | \
                          VDC_WARNING_BIT(VDC_WARNING_FEW_VALUES) | VDC_WARNING_BIT(VDC_WARNING_FEW_RUNS))
#define VDC_WARNINGS_SIZES (VDC_WARNING_BIT(VDC_WARNING_SIZES_DIFFER) | \
                            VDC_WARNING_BIT(VDC_WARNING_UNDER_2X_RAM))
#define VDC_WARNINGS_ARTEFACTS (VDC_WARNING_BIT(VDC_WARNING_ARTEFACTS) | \
                                VDC_WARNING_BIT(VDC_WARNING_ARTEFACT))
#define VDC_WARNINGS_REPORT (VDC_WARNINGS_FEW | VDC_WARNING_BIT(VDC_WARNING_TOO_FAST) | VDC_WARNINGS_SIZES | \
                             VDC_WARNINGS_ARTEFACTS)
#define VDC_WARNINGS_COMPARE (VDC_WARNING_BIT(VDC_WARNING_EMULATED) | VDC_WARNINGS_REPORT)

/* The sentences of the analysis's warnings whose kind is in @kinds, in
 * their order (NULL-terminated, g_strfreev; empty when none). */
char **vdc_warning_texts(const vdc_result_set *rs, const struct vdc_analysis *a, unsigned kinds);

/* Markdown-escape @s onto @out: control characters and newlines first
 * become visible escapes (common/escape.h: \x1b, \n), then
 * | \ ` * _ [ ] < > get a backslash: the user's names and texts, and
 * what guests and result files supplied, in report.md. */
void vdc_md_escape(GString *out, const char *s);

/* How a renderer escapes the text it is given (vdc_md_escape, HTML's);
 * NULL: as it is. */
typedef void (*vdc_escape_fn)(GString *out, const char *s);

/* Each of @lines (NULL-terminated) as @prefix LINE @suffix, LINE escaped
 * with @escape. */
void vdc_append_lines(GString *out, char *const *lines, const char *prefix, const char *suffix,
                      vdc_escape_fn escape);

/* Label/value pairs (vdc_metadata_lines: NULL-terminated, label then
 * value) as @before LABEL @between VALUE @after, both escaped with @escape
 * (not NULL). */
void vdc_append_pairs(GString *out, char *const *pairs, const char *before, const char *between,
                      const char *after, vdc_escape_fn escape);

/* The warnings of @kinds (vdc_warning_texts) as vdc_append_lines; returns
 * how many. */
size_t vdc_append_warnings(GString *out, const vdc_result_set *rs, const struct vdc_analysis *a,
                           unsigned kinds, const char *prefix, const char *suffix, vdc_escape_fn escape);

/* The verdict lines (vdc_analysis_verdict_lines) as vdc_append_lines,
 * then a blank line when there is one. */
void vdc_append_verdicts(GString *out, const struct vdc_analysis *a, const char *prefix,
                         const char *suffix, vdc_escape_fn escape);

/* The notes of text and Markdown (@md: names escaped): the outlier rule,
 * each flagged sample (or that none was, or that the rule did not apply),
 * then each cell with samples without a value.  @bullet starts the rule
 * and exclusion lines, @sub the outlier lines. */
void vdc_append_notes(GString *out, const struct vdc_analysis *a, const char *bullet, const char *sub, int md);

/* One Markdown table (report.md, compare --format md): a row per test,
 * per target "mean ± CI half-width (n=...)" (@with_ci), then per target but
 * the baseline the delta with its mark and Fieller interval. */
void vdc_md_table(GString *out, const struct vdc_analysis *a, int with_ci);

/* @svg (a cairo SVG document) with every id and every reference to one
 * (href="#", url(#)) prefixed by "@prefix-", so that several charts
 * inlined in one HTML page do not share glyph and clip ids (g_free). */
char *vdc_svg_prefix_ids(const char *svg, const char *prefix);

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

/* The headline section (vdc_analysis.headline, report/headline.h) of
 * report.txt, report.md and report.html, each opening its report: the runs
 * line, why there is no image/LV pair (when there is none), per choice (or
 * baseline) pair one line per test with its answer (vdc_headline_row_text)
 * and recorded stop reason, the tests not tested for want of pairs named
 * together, the permutation note below 6 pairs; then the ceiling table (a
 * row per test, a column per target: "62.0 % [55.1, 70.4]" of dom0) with
 * the reasons of its cells without a verdict; then the method paragraph
 * with the thresholds. */
void vdc_append_headline_text(GString *out, const struct vdc_analysis *a);
void vdc_append_headline_md(GString *out, const struct vdc_analysis *a);
void vdc_append_headline_html(GString *out, const struct vdc_analysis *a);

/* report.json's statistics.headline (doc/result-format.md; new node). */
JsonNode *vdc_headline_to_json(const struct vdc_analysis *a);

/* The "statistics" object of doc/result-format.md (new node). */
JsonNode *vdc_statistics_to_json(const struct vdc_analysis *a);

/* The statistics object alone with its "warnings", pretty-printed
 * (compare --format json). */
char *vdc_render_statistics_json(const vdc_result_set *rs, const struct vdc_analysis *a);

#endif
