/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp renderers: the answer (vdc_analysis.answer, report/answer.h),
 * the first screen of report.txt, report.md and report.html.  Its JSON is
 * render_json.h's (statistics.answer). */
#ifndef VDC_REPORT_RENDER_ANSWER_H
#define VDC_REPORT_RENDER_ANSWER_H

#include <glib.h>

#include "report/analysis.h"

/* The answer section: its title, then each line of a->answer (a pair's or
 * the cache's heading, its test groups indented under it, the cost per
 * backend, the blockers with the option that removes each).  Text: wrapped
 * at 100 columns; Markdown: headings in bold and lists; HTML: <section
 * id="answer"> with the groups coloured by their tone. */
void vdc_append_answer_text(GString *out, const struct vdc_analysis *a);
void vdc_append_answer_md(GString *out, const struct vdc_analysis *a);
void vdc_append_answer_html(GString *out, const struct vdc_analysis *a);

#endif
