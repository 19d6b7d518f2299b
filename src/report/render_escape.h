/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp renderers: escaping what users, guests and result files
 * supplied, per format (Markdown, HTML, RFC 4180 CSV), and the helpers
 * that lay lines and label/value pairs out through an escape function. */
#ifndef VDC_REPORT_RENDER_ESCAPE_H
#define VDC_REPORT_RENDER_ESCAPE_H

#include <glib.h>

/* Append @s to @out as one RFC 4180 CSV field: as is, or in double quotes
 * with quotes doubled when it holds a comma, a quote, CR or LF.  A field
 * that begins with = + - @ TAB or CR, which a spreadsheet would run as a
 * formula (target names like =HYPERLINK(...)), is quoted with a ' first
 * so it is read as text (OWASP "CSV Injection").  NULL is the empty
 * field. */
void vdc_csv_field(GString *out, const char *s);

/* 1 when a spreadsheet would take a CSV cell holding @s for a formula: it
 * begins with = + - @ TAB or CR (OWASP "CSV Injection"); the CSV writers
 * then put a ' before it. */
int vdc_csv_is_formula(const char *s);

/* Markdown-escape @s onto @out: control characters and newlines first
 * become visible escapes (common/escape.h: \x1b, \n), then
 * | \ ` * _ [ ] < > get a backslash: the user's names and texts, and
 * what guests and result files supplied, in report.md. */
void vdc_md_escape(GString *out, const char *s);

/* HTML-escape @s onto @out (g_markup_escape_text: & < > " '); NULL is
 * the empty string. */
void vdc_html_escape(GString *out, const char *s);

/* How a renderer escapes the text it is given (vdc_md_escape,
 * vdc_html_escape); NULL: as it is. */
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

#endif
