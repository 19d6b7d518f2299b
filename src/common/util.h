/* vmdiskcmp common helpers: error and progress reporting, size parsing,
 * atomic file writes.  Used by every host-side module; the guest agent is
 * libc-only and does not use this file. */
#ifndef VDC_COMMON_UTIL_H
#define VDC_COMMON_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* Exit statuses of the vmdiskcmp command (documented in doc/vmdiskcmp.1):
 *   0 success, 1 runtime failure (a run, a domain, a device failed),
 *   2 bad input (options, files, specs), 3 interrupted (SIGINT/SIGTERM). */
enum {
    VDC_EXIT_OK = 0,
    VDC_EXIT_FAILURE = 1,
    VDC_EXIT_USAGE = 2,
    VDC_EXIT_INTERRUPTED = 3,
};

/* Print one line "vmdiskcmp: MESSAGE" on stderr.  Call it once, at the
 * failure site, naming the object and the cause; callers just return -1. */
void vdc_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print a progress line "vmdiskcmp: [progress] MESSAGE" on stderr unless
 * quiet mode is on (vdc_set_quiet). */
void vdc_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vdc_set_quiet(int quiet);

/* Parse a size "N[K|M|G|T][i][B]" (binary multiples, case-insensitive;
 * a bare number is in units of @default_unit bytes, e.g. 1 or 1048576).
 * Stores bytes in *out.  Returns 0, or -1 on malformed input or overflow
 * (no message printed: the caller names the option). */
int vdc_parse_size(const char *s, uint64_t default_unit, uint64_t *out);

/* Read all of @path ("-" = standard input) into a new buffer *data
 * (NUL-terminated, g_free it) of *len bytes.  Returns 0, or -1 after
 * vdc_error naming the path. */
int vdc_read_input(const char *path, char **data, size_t *len);

/* Write @len bytes to @path atomically (temporary file in the same
 * directory, fsync, rename; GLib g_file_set_contents_full).  Never leaves a
 * partial file.  Returns 0, or -1 after vdc_error naming the path. */
int vdc_write_file_atomic(const char *path, const void *buf, size_t len);

/* Install @handler (no SA_RESTART, empty mask) for SIGINT, SIGTERM and
 * SIGHUP: the signals that ask vmdiskcmp to stop, tear down and exit 3. */
void vdc_on_stop_signals(void (*handler)(int));

#endif
