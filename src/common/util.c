/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "common/util.h"
#include "common/escape.h"

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <glib.h>
#include <glib/gstdio.h>

static int vdc_quiet;

void
vdc_set_quiet(int quiet)
{
    vdc_quiet = quiet;
}

static vdc_err_kind vdc_first_kind;
static vdc_err_kind vdc_scope_kind;
static int vdc_was_interrupted;

static void
record_kind(vdc_err_kind kind)
{
    if (vdc_scope_kind != VDC_ERR_NONE && (kind == VDC_ERR_RUNTIME || kind == VDC_ERR_INPUT))
        kind = vdc_scope_kind;
    if (kind == VDC_ERR_INTERRUPTED)
        vdc_was_interrupted = 1;
    else if (kind != VDC_ERR_NONE && vdc_first_kind == VDC_ERR_NONE)
        vdc_first_kind = kind;
}

static const char *vdc_context;

const char *
vdc_error_context(const char *context)
{
    const char *prev = vdc_context;

    vdc_context = context;
    return prev;
}

static void
print_error(const char *fmt, va_list ap)
{
    fputs("vmdiskcmp: ", stderr);
    if (vdc_context) {
        char *context = vdc_escape_text(vdc_context, -1, VDC_MESSAGE_MAX);

        fprintf(stderr, "%s: ", context);
        g_free(context);
    }
    vdc_escape_vprint(stderr, fmt, ap);   /* guest or file text: never raw */
    fputc('\n', stderr);
}

void
vdc_error(const char *fmt, ...)
{
    va_list ap;

    record_kind(VDC_ERR_RUNTIME);
    va_start(ap, fmt);
    print_error(fmt, ap);
    va_end(ap);
}

void
vdc_input_error(const char *fmt, ...)
{
    va_list ap;

    record_kind(VDC_ERR_INPUT);
    va_start(ap, fmt);
    print_error(fmt, ap);
    va_end(ap);
}

void
vdc_error_kind(vdc_err_kind kind, const char *fmt, ...)
{
    va_list ap;

    record_kind(kind);
    va_start(ap, fmt);
    print_error(fmt, ap);
    va_end(ap);
}

void
vdc_note_interrupted(void)
{
    record_kind(VDC_ERR_INTERRUPTED);
}

void
vdc_note_error(vdc_err_kind kind)
{
    record_kind(kind);
}

vdc_err_kind
vdc_error_scope(vdc_err_kind kind)
{
    vdc_err_kind prev = vdc_scope_kind;

    vdc_scope_kind = kind;
    return prev;
}

vdc_err_kind
vdc_error_last_kind(void)
{
    return vdc_was_interrupted ? VDC_ERR_INTERRUPTED : vdc_first_kind;
}

void
vdc_error_reset(void)
{
    vdc_first_kind = VDC_ERR_NONE;
    vdc_scope_kind = VDC_ERR_NONE;
    vdc_was_interrupted = 0;
}

int
vdc_exit_status(int rc)
{
    if (vdc_was_interrupted)
        return VDC_EXIT_INTERRUPTED;
    if (rc == 0)
        return VDC_EXIT_OK;
    return vdc_first_kind == VDC_ERR_INPUT ? VDC_EXIT_USAGE : VDC_EXIT_FAILURE;
}

void
vdc_progress(const char *fmt, ...)
{
    va_list ap;

    if (vdc_quiet)
        return;
    fputs("vmdiskcmp: [progress] ", stderr);
    va_start(ap, fmt);
    vdc_escape_vprint(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int
vdc_parse_size(const char *s, uint64_t default_unit, uint64_t *out)
{
    char *end = NULL;
    unsigned long long n;
    uint64_t mult = default_unit;

    if (!s || !isdigit((unsigned char)*s))
        return -1;
    errno = 0;
    n = strtoull(s, &end, 10);
    if (errno)
        return -1;
    if (*end) {
        switch (toupper((unsigned char)*end)) {
        case 'B': mult = 1; break;
        case 'K': mult = 1ULL << 10; break;
        case 'M': mult = 1ULL << 20; break;
        case 'G': mult = 1ULL << 30; break;
        case 'T': mult = 1ULL << 40; break;
        default: return -1;
        }
        if (mult != 1) {
            end++;
            if (*end == 'i' || *end == 'I')
                end++;
            if (*end == 'B' || *end == 'b')
                end++;
        } else {
            end++;
        }
        if (*end)
            return -1;
    }
    if (mult && n > UINT64_MAX / mult)
        return -1;
    *out = n * mult;
    return 0;
}

char *
vdc_existing_dir(const char *path)
{
    char *d = g_path_get_dirname(path);

    while (!g_file_test(d, G_FILE_TEST_IS_DIR) && strcmp(d, "/") && strcmp(d, ".")) {
        char *up = g_path_get_dirname(d);

        g_free(d);
        d = up;
    }
    return d;
}

int
vdc_remove_tree(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    const char *n;

    if (!d)
        return g_rmdir(dir);
    while ((n = g_dir_read_name(d))) {
        char *p = g_build_filename(dir, n, NULL);

        if (g_file_test(p, G_FILE_TEST_IS_DIR) && !g_file_test(p, G_FILE_TEST_IS_SYMLINK))
            vdc_remove_tree(p);
        else
            g_unlink(p);
        g_free(p);
    }
    g_dir_close(d);
    return g_rmdir(dir);
}

int
vdc_write_file_atomic(const char *path, const void *buf, size_t len)
{
    GError *err = NULL;

    if (!g_file_set_contents_full(path, buf, (gssize)len,
                                  G_FILE_SET_CONTENTS_CONSISTENT |
                                  G_FILE_SET_CONTENTS_DURABLE,
                                  0644, &err)) {
        vdc_error("cannot write %s: %s", path, err->message);
        g_error_free(err);
        return -1;
    }
    return 0;
}

int
vdc_same_file(const char *a, const char *b)
{
    struct stat sa, sb;

    if (!strcmp(a, "-") || !strcmp(b, "-") || stat(a, &sa) < 0 || stat(b, &sb) < 0)
        return 0;
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Read @f to its end into *data, refusing more than VDC_INPUT_MAX bytes. */
static int
read_stream(FILE *f, const char *what, char **data, size_t *len)
{
    GString *s = g_string_new(NULL);
    char buf[65536];
    size_t r;

    while ((r = fread(buf, 1, sizeof(buf), f)) > 0) {
        if (s->len + r > VDC_INPUT_MAX) {
            vdc_input_error("%s: larger than %u MiB: expected a result, a benchmark's output or a "
                            "pasted page", what, VDC_INPUT_MAX >> 20);
            g_string_free(s, TRUE);
            return -1;
        }
        g_string_append_len(s, buf, (gssize)r);
    }
    if (ferror(f)) {
        vdc_error("cannot read %s", what);
        g_string_free(s, TRUE);
        return -1;
    }
    *len = s->len;
    *data = g_string_free(s, FALSE);
    return 0;
}

int
vdc_read_input(const char *path, char **data, size_t *len)
{
    struct stat st;
    FILE *f;
    int rc;

    if (!strcmp(path, "-"))
        return read_stream(stdin, "standard input", data, len);
    /* a FIFO, a device or a directory is never an input: /dev/zero would
     * be read until memory runs out, a FIFO without a writer blocks */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        vdc_input_error("%s: not a regular file: expected a file (or - for standard input)", path);
        return -1;
    }
    if (stat(path, &st) == 0 && (uint64_t)st.st_size > VDC_INPUT_MAX) {
        vdc_input_error("%s: %" G_GUINT64_FORMAT " bytes, larger than %u MiB: expected a result, a "
                        "benchmark's output or a pasted page", path, (guint64)st.st_size, VDC_INPUT_MAX >> 20);
        return -1;
    }
    f = fopen(path, "rb");
    if (!f) {
        vdc_error("cannot read %s: %s", path, g_strerror(errno));
        return -1;
    }
    rc = read_stream(f, path, data, len);
    fclose(f);
    return rc;
}

void
vdc_on_stop_signals(void (*handler)(int))
{
    struct sigaction sa;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = handler;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

void
vdc_hold_stop_signals(sigset_t *old)
{
    sigset_t block;

    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGHUP);
    sigprocmask(SIG_BLOCK, &block, old);
}

const char *
vdc_fmt_bytes(char *buf, size_t size, uint64_t b)
{
    static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    uint64_t u = 1024;
    size_t i;

    if (b < u) {
        g_snprintf(buf, size, "%" G_GUINT64_FORMAT " byte%s", (guint64)b, b == 1 ? "" : "s");
        return buf;
    }
    for (i = 0; i + 1 < G_N_ELEMENTS(units) && b / u >= 1024; i++)
        u *= 1024;
    if (b % u == 0)
        g_snprintf(buf, size, "%" G_GUINT64_FORMAT " %s", (guint64)(b / u), units[i]);
    else
        g_snprintf(buf, size, "%.1f %s", (double)b / (double)u, units[i]);
    return buf;
}

const char *
vdc_fmt_duration(char *buf, size_t size, double s)
{
    unsigned long t = s > 0 ? (unsigned long)(s + 0.5) : 0;

    if (t >= 3600)
        g_snprintf(buf, size, "%luh%02lum%02lus", t / 3600, t / 60 % 60, t % 60);
    else if (t >= 60)
        g_snprintf(buf, size, "%lum%02lus", t / 60, t % 60);
    else
        g_snprintf(buf, size, "%lus", t);
    return buf;
}

/* util.h */
int
vdc_check_path_text(const char *opt, const char *path, const char *also, const char *also_why)
{
    const char *c;

    for (c = path; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f || (also && strchr(also, *c)))
            break;
    if (*c || !g_utf8_validate(path, -1, NULL)) {
        g_autofree char *shown = g_strescape(path, NULL);

        vdc_input_error("%s %s: expected a path of UTF-8 text without control characters%s", opt, shown,
                        also && also_why ? also_why : "");
        return -1;
    }
    return 0;
}
