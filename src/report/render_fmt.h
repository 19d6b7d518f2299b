/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp renderers: how a number of the analysis is printed, the same
 * in every format (a rate as bonnie++ prints it, a cell's mean with its
 * marks, a delta with its significance mark, the flags keywords). */
#ifndef VDC_REPORT_RENDER_FMT_H
#define VDC_REPORT_RENDER_FMT_H

#include <stddef.h>

#include "report/analysis.h"

/* How the delta tables' interval is made, and why the headline's ceiling
 * table gives another for the same ratio (one sentence, plain text). */
#define VDC_DELTA_CI_NOTE "The tables' intervals are unpaired: each target's runs and the baseline's as two " \
    "independent samples (Fieller, unequal variances); the headline's ceiling table pairs repetition r of " \
    "both (same seed, same boot), so its interval for the same ratio differs."

/* The legend of an interval cut at its floor (stats.h, vdc_stats_ci_floor),
 * one sentence, plain text: the same words in every format. */
#define VDC_CI_FLOOR_NOTE "[0, x]: the 95 % interval reached below 0 and is cut there, as every " \
    "interval of this report is cut at what its quantity can be (a rate, a time, bytes: 0; a delta: " \
    "-100 %): the runs do not bound it from below."

/* A cell's 95 % interval of the mean as the results tables print it: "+-"
 * (text: @pm) and the half-width when the interval is whole, "[0, 119644]"
 * when it was cut at 0 (vdc_stats_summary.ci_mean_cut: a half-width would
 * imply a negative bound); "" when there is none. */
void vdc_fmt_cell_ci(char *buf, size_t size, const struct vdc_cell *c, const char *pm);

/* A rate as bonnie++ prints it: no decimals from 1000 up, one below,
 * two below 10.
 * Returns one of 8 rotating static buffers (use within one statement). */
const char *vdc_fmt_num_s(double v);

/* @v with the decimals vdc_fmt_num_s gives @like: an interval's bounds
 * printed as its mean is ("973.6 [700.7, 1246.0]", not "[700.7, 1246]").
 * The same rotating buffers. */
const char *vdc_fmt_num_like(double v, double like);

/* The mean of a cell: number, number + VDC_TOO_FAST_MARK (some runs too
 * fast without value), "+++++ (too fast)" (every run too fast), "failed"
 * (no value, failed) or "" (not run); a number + VDC_ARTEFACT_MARK when the
 * cell has an artefact flag (VDC_CELL_ARTEFACTS). */
void vdc_fmt_cell_mean(char *buf, size_t size, const struct vdc_cell *c);

/* "+474.2%**": % delta of a comparison with its significance mark
 * (@with_mark); "" when there is no ratio. */
void vdc_fmt_delta(char *buf, size_t size, const struct vdc_stats_comparison *c, int with_mark);

/* Why @cc has no delta, in a table's cell, the same words in every format:
 * "neither ran it", "not run" (the target lacks the test), "baseline not
 * run", "too fast" / "failed" (the target's every run), "baseline too fast"
 * / "baseline failed", "baseline mean 0"; NULL when it has one (a ratio). */
const char *vdc_fmt_no_delta(const struct vdc_cell_comparison *cc);

/* vdc_fmt_delta of @cc, then VDC_ARTEFACT_MARK when either side may be an
 * artefact (the target cell's VDC_CELL_ARTEFACT_MARKED): "+120.3%**‡". */
void vdc_fmt_cell_delta(char *buf, size_t size, const struct vdc_cell_comparison *cc, int with_mark);

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
 *   not-comparable    the delta has no verdict (n/c: vdc_analysis_cmp_reason)
 * The cells the text, Markdown and HTML reports mark or warn about. */
char *vdc_cell_flags_text(unsigned flags);

#endif
