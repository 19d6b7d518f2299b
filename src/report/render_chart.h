/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp charts: the SVG figures of report.html, drawn by cairo into
 * memory from the analysis (report/analysis.h) only, their text as SVG
 * text (render_svg.h).  Each returns an <svg> document without XML
 * declaration (g_free). */
#ifndef VDC_REPORT_RENDER_CHART_H
#define VDC_REPORT_RENDER_CHART_H

#include <stddef.h>

#include "report/analysis.h"

/* The label a figure gives test @ki of @a, into @buf (returned): the test
 * table's chart_label ("Write per-char"), for a sweep key its short_label
 * and block size ("Read 4 KiB"), for a workload its job as
 * vdc_analysis_job_label names it and the direction ("randread-4k-qd32
 * (raw) read"); a pass after a bonnie++ or sweep label ("Write block
 * (first write)": a thin LV's passes apart); an unknown key as it is.
 * VDC_TEST_LABEL_MAX bytes hold every label. */
const char *vdc_chart_test_label(const struct vdc_analysis *a, size_t ki, char *buf, size_t size);

/* The colour of target @ti (its index in the analysis) in every figure,
 * {r, g, b} in 0..1: Okabe-Ito's eight, then eight of Paul Tol's, then
 * again from the first. */
const double *vdc_chart_rgb(size_t ti);

/* Tick @v of an axis from 0 (or a floor) up to @top, into @buf: one style
 * along an axis ("0, 5k, 10k", never "5000, 10k"; "0.5M, 1M"). */
void vdc_chart_tick(char *buf, size_t size, double v, double top);

/* The tick of decade @d (10^@d) of a log axis, into @buf: "0.1", "1",
 * "1000", "10k", "1M". */
void vdc_chart_decade(char *buf, size_t size, double d);

/* An SVG chart (cairo_svg_surface to memory) of the tests whose unit is
 * @unit ("K/sec" or "/sec"): grouped bars, one group per test, one bar
 * per target that has one there (mean; the group's bars centred, a target
 * in its colour), 95 % CI whiskers, each mean labelled over its own bar
 * (upwards when the bar is narrower than the number; none on bars under
 * 9 points), axis labels, legend.  Returns the
 * <svg> document without XML declaration, or NULL after vdc_error; NULL
 * with *empty = 1 when no test has that unit. */
char *vdc_render_chart_svg(const struct vdc_analysis *a, const char *unit,
                           const char *title, int *empty);

/* What vdc_render_chart_svg draws for @unit beyond plain bars, so that a
 * caption describes only that: a pale, outlined bar (a cell no verdict
 * rests on: VDC_HEADLINE_NO_VERDICT_FLAGS), a hatched bar (some runs too
 * fast), a dashed outline (every run too fast).  *@only: the test when the
 * chart holds one test, else -1. */
#define VDC_CHART_PALE 1u
#define VDC_CHART_HATCHED 2u
#define VDC_CHART_TOO_FAST 4u
unsigned vdc_chart_marks(const struct vdc_analysis *a, const char *unit, long *only);

/* An SVG dot plot (cairo_svg_surface to memory) of the tests whose unit
 * is @unit: a panel per test, three to a row, titled
 * with its test and unit ("Write block (first write), K/sec"); in each, every run of every
 * target in run order (x: repetition, y: value on the panel's own scale),
 * one colour per target (the bar chart's), a thin line joining a target's
 * runs, flagged outliers ringed, too-fast samples (no value) as open
 * triangles on the top edge and failed ones as crosses at the bottom.
 * *n_points gets the markers drawn.  Returns the <svg> document, or NULL
 * after vdc_error; NULL with *empty = 1 when no test has that unit. */
char *vdc_render_dots_svg(const struct vdc_analysis *a, const char *unit, const char *title, int *empty,
                          size_t *n_points);

/* An SVG chart of the completion-latency percentiles of workload test @ki
 * (p50, p90, p99, p99.9, p99.99 on x; microseconds on one log-scale y
 * axis), a line per target in its colour (the bar charts'), means over the
 * runs (vdc_cell_workload.clat_us), a legend of the targets.  *n_points
 * gets the markers drawn.  Returns the <svg> document, or NULL after
 * vdc_error; NULL with *empty = 1 when no target has a latency there. */
char *vdc_render_latency_svg(const struct vdc_analysis *a, size_t ki, const char *title, int *empty,
                             size_t *n_points);

#endif
