/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp renderers: the sentences of the analysis's warnings (struct
 * vdc_warning), the verdict lines and the notes on outliers and excluded
 * samples, the same words in every format; each renderer adds its prefix,
 * escaping and layout. */
#ifndef VDC_REPORT_RENDER_WARNINGS_H
#define VDC_REPORT_RENDER_WARNINGS_H

#include <stddef.h>

#include <glib.h>

#include "model/result.h"
#include "report/analysis.h"
#include "report/render_escape.h"

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
    "the mean of the measured runs only and understates the speed; its deltas are not comparable " \
    "(n/c, no verdict).  +++++ (too fast): every run was too fast to measure."

/* The legend of VDC_ARTEFACT_MARK (VDC_WARNING_ARTEFACTS), printed by every
 * renderer when some cell has an artefact flag, before one line per flag
 * (VDC_WARNING_ARTEFACT, vdc_warning_text). */
/* The line above the delta table's verdict lines: how they are decided,
 * apart from the answer's and the headline's paired, Holm-corrected ones. */
#define VDC_TABLE_VERDICTS_NOTE \
    "The delta table's verdicts (Welch's t-test, not paired, each test alone, no Holm;\n" \
    "  the answer and the headline decide on the paired, Holm-corrected tests):"

#define VDC_ARTEFACT_LEGEND \
    "\u2021 may be an artefact of the measurement, not a property of the disk (the lines below name " \
    "the rule and its numbers: page-cache-write, dd-time-short, above-ceiling, cached-reread, " \
    "guest-faster, rounded-identical, dom0-page-cache, misaligned, no-io-in-window, thin-pool-full): such a value is marked \u2021, and so is a " \
    "delta when either side is; its verdict is printed, but do not rank on it."

#define VDC_EMULATED_WARNING "EMULATED: some inputs were measured under software emulation " \
    "(experiment.emulated); their numbers predict nothing about real hardware."

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
 *   page-cache-write: " and the cell's explanation (vdc_cell.why);
 * - VDC_WARNING_NOT_AS_ASKED: "target image-none-native: its disk was not
 *   served as asked: cache: asked none, QEMU has writeback (query-block).";
 * - VDC_WARNING_DIFFERENT_DISKS: "image and lvm lie on different disks
 *   (vda, vdb): their difference includes the disks'; put --image-dir on
 *   the VG's disk to compare backends alone." ("the block device's disk"
 *   when the reference is a block target). */
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
#define VDC_WARNINGS_DISKS VDC_WARNING_BIT(VDC_WARNING_DIFFERENT_DISKS)
#define VDC_WARNINGS_REPORT (VDC_WARNINGS_FEW | VDC_WARNING_BIT(VDC_WARNING_TOO_FAST) | VDC_WARNINGS_SIZES | \
                             VDC_WARNINGS_ARTEFACTS | VDC_WARNING_BIT(VDC_WARNING_NOT_AS_ASKED) | \
                             VDC_WARNINGS_DISKS)
#define VDC_WARNINGS_COMPARE (VDC_WARNING_BIT(VDC_WARNING_EMULATED) | VDC_WARNINGS_REPORT)

/* The sentences of the analysis's warnings whose kind is in @kinds, in
 * their order (NULL-terminated, g_strfreev; empty when none). */
char **vdc_warning_texts(const vdc_result_set *rs, const struct vdc_analysis *a, unsigned kinds);

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

/* 1 when some cell has VDC_STATS_OUTLIER_MIN_N or more values, so the
 * outlier rule was applied somewhere; 0: "no sample flagged" would
 * mislead. */
int vdc_outlier_rule_applied(const struct vdc_analysis *a);

#endif
