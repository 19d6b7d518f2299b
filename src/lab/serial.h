/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The lab's serial log, followed while the lab runs: the inner vmdiskcmp's
 * progress lines ("vmdiskcmp: [progress] ..." at the start of a line, as
 * vdc_progress writes them in dom0 and the lab's job tees them to the
 * console) picked out of QEMU's serial output (OUT/lab/serial.log, written
 * by boot-lab.sh) as they appear, so `lab run` can show them on the host's
 * stderr.  Everything else on the console (Xen, the kernel, systemd, the
 * domUs' consoles, each prefixed "[guest-NAME.log] ") is left alone. */
#ifndef VDC_LAB_SERIAL_H
#define VDC_LAB_SERIAL_H

#include <stddef.h>
#include <stdint.h>

#include <glib.h>

/* The longest console line kept, in bytes: the rest of a longer line is
 * dropped up to its newline (it is never a progress line of ours). */
#define VDC_SERIAL_LINE_MAX 8192

/* Called with each progress line found: the text after "[progress] ",
 * without the line's CR/LF, escaped (common/escape.h: a hostile guest or a
 * garbled console reaches the terminal as visible text). */
typedef void (*vdc_serial_progress_fn)(const char *text, void *arg);

/* A line splitter over a byte stream fed in arbitrary pieces. */
typedef struct {
    GString *partial;            /* the current line so far */
    int dropping;                /* the current line is over VDC_SERIAL_LINE_MAX */
} vdc_serial_lines;

void vdc_serial_lines_init(vdc_serial_lines *s);
void vdc_serial_lines_dispose(vdc_serial_lines *s);   /* safe twice */

/* Feed @len bytes of serial output.  For each complete line (ended by
 * '\n'; trailing '\r's removed, as the serial console writes "\r\r\n")
 * that starts with "vmdiskcmp: [progress] ", @fn gets its text.  Returns
 * the number of lines given to @fn.  Pure. */
size_t vdc_serial_progress_feed(vdc_serial_lines *s, const char *buf, size_t len,
                                vdc_serial_progress_fn fn, void *arg);

/* Following a growing file (the serial log): read what was appended since
 * the last call and feed it.  The file may not exist yet (QEMU has not
 * started) and may be truncated (boot-lab.sh empties it before the boot):
 * then it is read again from its start. */
typedef struct {
    char *path;
    int fd;                      /* -1 until the file exists */
    uint64_t offset;             /* bytes read so far */
    vdc_serial_lines lines;
} vdc_serial_tail;

void vdc_serial_tail_init(vdc_serial_tail *t, const char *path);
void vdc_serial_tail_dispose(vdc_serial_tail *t);   /* safe twice */

/* Read what is new in t->path (at most a few MiB a call) and feed it.
 * Returns the number of progress lines given to @fn; errors (the file
 * missing or unreadable) are no lines, never a message: the lab's own
 * stages report a serial log that does not come. */
size_t vdc_serial_tail_poll(vdc_serial_tail *t, vdc_serial_progress_fn fn, void *arg);

#endif
