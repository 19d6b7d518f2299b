/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp text layout for terminals: short names for the targets of a
 * table when their own do not fit (T1, T2, ... with a key that gives each
 * full name, its kind and where it ran), and prose wrapped to a width, so
 * that no line of `compare`'s text is wider than VDC_LAYOUT_WIDTH and
 * report.txt's fixed columns never cut a name silently.  Markdown, HTML,
 * CSV and JSON always print the full names. */
#ifndef VDC_REPORT_LAYOUT_H
#define VDC_REPORT_LAYOUT_H

#include <glib.h>

#include "model/result.h"
#include "report/analysis.h"

/* The widest text line `compare` prints (UTF-8 characters). */
#define VDC_LAYOUT_WIDTH 120
/* The widest line of report.txt (UTF-8 characters). */
#define VDC_LAYOUT_TEXT_WIDTH 100

/* The names a text table prints for @a's targets: their own when every
 * one fits @max columns, else "T1", "T2", ... in target order; *@keyed is 1
 * then (the key must be printed).  NULL-terminated, g_strfreev. */
char **vdc_layout_aliases(const struct vdc_analysis *a, int max, int *keyed);

/* The key of @aliases: "T1  Test 1 - disk image (image, domU: its name says
 * 'disk image')", one target a line after @indent, wrapped at @width;
 * the kind and where from @rs's target descriptions (and the provenance of
 * the kind when an import recorded one).  Nothing when not @keyed. */
void vdc_layout_append_key(GString *out, const vdc_result_set *rs, const struct vdc_analysis *a,
                           char **aliases, int keyed, const char *indent, int width);

/* @text as lines of at most @width characters (UTF-8), broken at blanks
 * (a word longer than a line is cut at the line's end): the first after
 * @first, the others after @rest; each line ends in '\n'. */
void vdc_layout_wrap(GString *out, const char *first, const char *rest, const char *text, int width);

/* @text made one safe line first (common/escape.h vdc_escape_line: a
 * control character or a line break shown, never sent to the terminal),
 * then wrapped as vdc_layout_wrap: for prose that holds strings read
 * back from a host, a guest or a file. */
void vdc_layout_wrap_escaped(GString *out, const char *first, const char *rest, const char *text, int width);

/* Each line of @text as it is when it is at most @width characters wide,
 * else wrapped at blanks by vdc_layout_wrap, its continuation lines indented
 * two blanks past its own leading blanks; a word wider than the room is cut.
 * For a document with a width limit (report.txt: VDC_LAYOUT_TEXT_WIDTH)
 * after its sections laid out their tables to fit: the prose a section
 * printed as one line (a warning, an excluded cell, a read-back line with a
 * path) folds, and no line is wider than @width unless its own blanks
 * leave less than 20 columns. */
void vdc_layout_fold(GString *out, const char *text, int width);

/* The display width of @s (UTF-8 characters). */
int vdc_layout_width(const char *s);

/* @s right-aligned (@right) or left-aligned in @width display columns. */
void vdc_layout_pad(GString *out, const char *s, int width, int right);

#endif
