/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Helpers shared by the host samplers (src/host/): strict number parsing
 * over kernel text, and reading a /proc or /sys file whole. */
#ifndef VDC_HOST_TEXT_H
#define VDC_HOST_TEXT_H

#include <stdint.h>

/* Skip spaces and tabs. */
const char *vdc_skip_blanks(const char *p);

/* Parse the decimal digits at *p (at least one, no sign, no overflow) into
 * *v and advance *p past them.  0, or -1 (no message, *p unchanged). */
int vdc_parse_u64_word(const char **p, uint64_t *v);

/* Parse @text as one decimal number, optionally followed by blanks and
 * one newline (a sysfs attribute).  0, or -1 (no message). */
int vdc_parse_u64_text(const char *text, uint64_t *v);

/* The length of @s's first line, at most @max: for quoting untrusted text
 * in a one-line message with "%.*s". */
int vdc_line_len(const char *s, int max);

/* Read @path whole (procfs and sysfs files report size 0; read to EOF).
 * Returns a NUL-terminated buffer (g_free), or NULL: when @gone is given
 * and the file does not exist (ENOENT, ESRCH: an exited task, an unbound
 * device) *gone is set to 1 and nothing is printed; otherwise after
 * vdc_error naming the path. */
char *vdc_read_proc_file(const char *path, int *gone);

#endif
