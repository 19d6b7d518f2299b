/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp common helpers: error and progress reporting, size parsing,
 * atomic file writes.  Used by every host-side module; the guest agent is
 * libc-only and does not use this file. */
#ifndef VDC_COMMON_UTIL_H
#define VDC_COMMON_UTIL_H

#include <signal.h>
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

/* The error model.  A failure is reported once, where it happens, with its
 * kind; callers only return -1/NULL, and the kind travels with the error to
 * main, where vdc_exit_status() turns it into the exit status.  Kinds:
 *   VDC_ERR_RUNTIME      a run, a domain, a device, a library failed (exit 1)
 *   VDC_ERR_INPUT        bad input: options, files, specs, journals (exit 2)
 *   VDC_ERR_INTERRUPTED  SIGINT/SIGTERM/SIGHUP asked us to stop (exit 3)
 * The first error reported since vdc_error_reset() decides the kind, except
 * that an interruption always wins (what follows it is its consequence). */
typedef enum {
    VDC_ERR_NONE = 0,
    VDC_ERR_RUNTIME,
    VDC_ERR_INPUT,
    VDC_ERR_INTERRUPTED,
} vdc_err_kind;

/* Print one line "vmdiskcmp: MESSAGE" on stderr and record a runtime
 * failure.  Call it once, at the failure site, naming the object and the
 * cause; callers just return -1.  MESSAGE is escaped (common/escape.h:
 * control characters, newlines and bytes that are not UTF-8 shown as
 * visible escapes) and cut at VDC_MESSAGE_MAX bytes, so text from a guest
 * or a file can be quoted in it as it is; so is vdc_progress's. */
void vdc_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same, recording bad input (exit 2): name the input and what was
 * expected, e.g. "--runs: expected a whole number 1-1000, got 'x'". */
void vdc_input_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same with an explicit kind (VDC_ERR_NONE prints without recording). */
void vdc_error_kind(vdc_err_kind kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Record an interruption without printing (the signal handler's flag is
 * seen by the code that stops; it calls this once). */
void vdc_note_interrupted(void);
/* Record a failure of @kind whose message was printed elsewhere: by a child
 * process on its own stderr (its exit status tells the kind). */
void vdc_note_error(vdc_err_kind kind);
/* From now on, errors reported as runtime or bad input count as @kind,
 * whatever their site said, until the setting returned is put back
 * (VDC_ERR_NONE: each as its site says).  For a caller that knows where the
 * data came from: everything that fails while loading a file the user named
 * is bad input, even when the loader is shared with runtime data (the
 * agent's output, a journal we wrote).  Interruptions stay interruptions. */
vdc_err_kind vdc_error_scope(vdc_err_kind kind);
/* From now on, messages read "vmdiskcmp: CONTEXT: MESSAGE", until the
 * setting returned is put back (NULL: none).  For a caller that has shared
 * code check input on someone else's behalf: the lab checks each job's
 * options with run's parser ("lab run: job 2: --runs '0': ..."). */
const char *vdc_error_context(const char *context);
/* The kind that decides the exit status now (VDC_ERR_NONE: nothing reported). */
vdc_err_kind vdc_error_last_kind(void);
/* Forget what was reported (tests; a subcommand that retries). */
void vdc_error_reset(void);
/* The exit status of a command that returned @rc (0 success, else failure):
 * 0 when rc == 0 and nothing was interrupted; else 3 after an interruption,
 * 2 when the first error was bad input, 1 otherwise (also when rc != 0 and
 * no error was reported).  The one place exit statuses come from. */
int vdc_exit_status(int rc);

/* Print a progress line "vmdiskcmp: [progress] MESSAGE" on stderr unless
 * quiet mode is on (vdc_set_quiet). */
void vdc_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vdc_set_quiet(int quiet);

/* Parse a size "N[K|M|G|T][i][B]" (binary multiples, case-insensitive;
 * a bare number is in units of @default_unit bytes, e.g. 1 or 1048576).
 * Stores bytes in *out.  Returns 0, or -1 on malformed input or overflow
 * (no message printed: the caller names the option). */
int vdc_parse_size(const char *s, uint64_t default_unit, uint64_t *out);

/* 1 when @a and @b both exist and are one file (same device and inode,
 * whatever the names or links); else 0.  "-" (standard input) is never a
 * file here. */
int vdc_same_file(const char *a, const char *b);

/* The largest input vdc_read_input takes, bytes. */
#define VDC_INPUT_MAX (64u << 20)

/* Read all of @path ("-" = standard input) into a new buffer *data
 * (NUL-terminated, g_free it) of *len bytes.  Returns 0, or -1 after one
 * message naming the path: bad input (vdc_input_error) when @path is not a
 * regular file or holds more than VDC_INPUT_MAX bytes, runtime (vdc_error)
 * when it cannot be read. */
int vdc_read_input(const char *path, char **data, size_t *len);

/* Write @len bytes to @path atomically (temporary file in the same
 * directory, fsync, rename; GLib g_file_set_contents_full).  Never leaves a
 * partial file.  Returns 0, or -1 after vdc_error naming the path. */
int vdc_write_file_atomic(const char *path, const void *buf, size_t len);

/* The nearest existing directory at or above @path's directory (a
 * directory a run has yet to make: the nearest that holds it), "/" or "."
 * at the most.  Newly allocated (g_free). */
char *vdc_existing_dir(const char *path);

/* Remove @dir and everything below it (symlinks removed, never followed).
 * 0, or -1 when @dir itself could not be removed (no message). */
int vdc_remove_tree(const char *dir);

/* @s seconds as "1h02m03s", "4m05s" or "6s" (rounded to the second) into
 * @buf (returned). */
const char *vdc_fmt_duration(char *buf, size_t size, double s);

/* @b bytes for a message, in the largest binary unit it reaches: "100
 * bytes", "3 KiB", "512 MiB", "3.7 GiB" (one decimal when not whole),
 * into @buf (returned; 32 bytes hold any). */
const char *vdc_fmt_bytes(char *buf, size_t size, uint64_t b);

/* A path the user named with option @opt that vmdiskcmp writes into text
 * (results, reports, domain XML, xl.cfg, xl disk specs): refused unless
 * it is UTF-8 without control characters, nor any byte of @also (NULL:
 * none; @also_why then says why, e.g. " or any of , : (xl)").  0, or -1
 * after one vdc_input_error "OPT PATH: expected a path of UTF-8 text
 * without control characters[ALSO_WHY]" with PATH escaped. */
int vdc_check_path_text(const char *opt, const char *path, const char *also, const char *also_why);

/* Install @handler (no SA_RESTART, empty mask) for SIGINT, SIGTERM and
 * SIGHUP: the signals that ask vmdiskcmp to stop, tear down and exit 3. */
void vdc_on_stop_signals(void (*handler)(int));

/* Hold SIGINT, SIGTERM and SIGHUP (blocked, delivered when released) while
 * files are written or renamed into place, so an interrupt never leaves a
 * partial or temporary file; the previous mask is saved in @old and put
 * back by sigprocmask(SIG_SETMASK, @old, NULL). */
void vdc_hold_stop_signals(sigset_t *old);

#endif
