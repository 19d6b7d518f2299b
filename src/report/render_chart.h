/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp charts: the SVG figures of report.html, drawn by cairo into
 * memory from the analysis (report/analysis.h) only.  Each returns an
 * <svg> document without XML declaration (g_free). */
#ifndef VDC_REPORT_RENDER_CHART_H
#define VDC_REPORT_RENDER_CHART_H

#include <stddef.h>

#include "report/analysis.h"

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
char *vdc_render_dots_svg(const struct vdc_analysis *a, const char *unit, const char *title, int *empty,
                          size_t *n_points);

/* An SVG chart of each target's completion-latency percentiles (p50, p90,
 * p99, p99.9, p99.99 on x; microseconds on a log-scale y), one line per
 * workload key, means over the runs.  Returns the <svg> document, or NULL
 * after vdc_error; NULL with *empty = 1 when the target has no workload
 * latency. */
char *vdc_render_latency_svg(const struct vdc_analysis *a, size_t target, const char *title, int *empty);

/* @svg with every id (id="X", href="#X", url(#X)) prefixed "@prefix-", so
 * that two SVG documents inlined in one page never share an id (cairo
 * names its glyphs and clips alike in every document).  g_free. */
char *vdc_svg_prefix_ids(const char *svg, const char *prefix);

#endif
