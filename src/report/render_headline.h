/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp renderers: the headline section (vdc_analysis.headline,
 * report/headline.h) of report.txt, report.md and report.html.  Its JSON
 * is render_json.h's, headline.csv render.h's. */
#ifndef VDC_REPORT_RENDER_HEADLINE_H
#define VDC_REPORT_RENDER_HEADLINE_H

#include <glib.h>

#include "report/analysis.h"

/* The headline section of report.txt, report.md and report.html, each
 * opening its report: the runs line, why there is no image/LV pair (when
 * there is none), per choice (or baseline) pair one line per test with its
 * answer (vdc_headline_row_text) and recorded stop reason, the tests not
 * tested for want of pairs named together, the permutation note below 6
 * pairs; then the ceiling table (a row per test, a column per target:
 * "62.0 % [55.1, 70.4]" of dom0) with the reasons of its cells without a
 * verdict; then the method paragraph with the thresholds. */
void vdc_append_headline_text(GString *out, const struct vdc_analysis *a);
void vdc_append_headline_md(GString *out, const struct vdc_analysis *a);
void vdc_append_headline_html(GString *out, const struct vdc_analysis *a);

#endif
