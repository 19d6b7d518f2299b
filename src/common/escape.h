/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text from outside vmdiskcmp (a guest's result frame, a result file, a
 * manifest) made safe to print on a terminal (stderr) and in the text and
 * Markdown reports: one escaping rule for all of them.
 *
 * What is escaped, as visible ASCII:
 *   newline, carriage return, tab     \n \r \t   (one line stays one line)
 *   other C0 controls and DEL         \xNN       (ESC is \x1b: no escape sequence
 *                                                 reaches the terminal)
 *   C1 controls U+0080..U+009F        \u00NN     (CSI U+009B among them)
 *   line/paragraph separators and     \u2028 \u2029 \u200e \u200f \u202a..\u202e
 *   bidirectional overrides                      \u2066..\u2069
 *   bytes that are not UTF-8          \xNN
 * Everything else (printable ASCII, other UTF-8 characters, the backslash
 * itself) is copied unchanged.  HTML has its own escaping
 * (g_markup_escape_text, which turns the same controls into character
 * references). */
#ifndef VDC_COMMON_ESCAPE_H
#define VDC_COMMON_ESCAPE_H

#include <stdarg.h>
#include <stdio.h>
#include <sys/types.h>

#include <glib.h>

/* The most one message on stderr carries, in bytes after escaping: a
 * longer one is cut (escape sequences are never split) and ends with
 * " ... (N more bytes)". */
#define VDC_MESSAGE_MAX 4096

/* Append @s (@len bytes; -1: up to its NUL; NULL: nothing) to @out
 * escaped as above.  At most @max bytes are appended (0: no limit); when
 * @s needs more, the output stops at a character boundary and
 * " ... (N more bytes)" follows (N counts bytes of @s left out; the
 * marker is outside @max). */
void vdc_escape_append(GString *out, const char *s, gssize len, size_t max);

/* @s escaped as vdc_escape_append does, as a new string (g_free). */
char *vdc_escape_text(const char *s, gssize len, size_t max);

/* The renderers' escape function shape (report/render_escape.h
 * vdc_escape_fn): @s escaped onto @out, no limit. */
void vdc_escape_line(GString *out, const char *s);

/* Format @fmt/@ap and write it to @fp escaped and cut to VDC_MESSAGE_MAX
 * bytes (no newline added): the one way vmdiskcmp's messages reach stderr
 * (vdc_error, vdc_progress, warnings). */
void vdc_escape_vprint(FILE *fp, const char *fmt, va_list ap);

/* The last message vdc_escape_vprint wrote, as written (escaped, without
 * the "vmdiskcmp: " prefix); "" before the first.  Valid until the next
 * message.  For a caller that records a failure it let a shared checker
 * report (the run's error names what the loader said). */
const char *vdc_escape_last_message(void);

#endif
