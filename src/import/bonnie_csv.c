/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bonnie++ CSV lines, and the number/size tokens shared with the table
 * importer.  The three layouts (doc/importers.md has the field lists):
 *
 *   1.03  bonnie++ 1.0x, 27 fields, no version field (bon_time.cpp of 1.0x:
 *         name,file_size[:chunk],putc,putc_cpu,...,seeks,seeks_cpu,
 *         num_files[:max:min][/dirs],seq_create,...,ran_del_cpu)
 *   1.96  bonnie++ 1.96/1.97, 48 fields: format_version,bonnie_version,name,
 *         concurrency,seed,file_size,io_chunk_size, 12 IO fields, num_files,
 *         max_size,min_size,num_dirs,file_chunk_size, 12 file fields,
 *         12 latencies
 *   1.98  bonnie++ 1.98..2.00a, 50 fields: as 1.96 with seeks and
 *         seek_proc_count after io_chunk_size (checked against a real
 *         /usr/sbin/bonnie++ 2.00a run and Debian's bon_csv2txt)
 *
 * Field numbers come from the one test table (vdc_tests[].csv_field, the
 * 1.98 numbers) shifted per layout: no per-format magic indexes. */
#include "config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "import/import_priv.h"

int
vdc_import_fail(const vdc_import_pos *pos, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    vdc_input_error("%s:%ld: %s", pos->file, pos->line, msg);
    g_free(msg);
    return -1;
}

int
vdc_import_number(const char *tok, double *out)
{
    const char *p = tok;
    int digits = 0;
    char *end = NULL;
    double d;

    if (!tok || !*tok || strlen(tok) > 32)
        return -1;
    while (g_ascii_isdigit(*p)) {
        p++;
        digits++;
    }
    if (*p == '.') {
        p++;
        while (g_ascii_isdigit(*p)) {
            p++;
            digits++;
        }
    }
    if (*p || !digits)
        return -1;
    d = g_ascii_strtod(tok, &end);
    if (*end || !isfinite(d) || d < 0)
        return -1;
    *out = d;
    return 0;
}

int
vdc_import_size_mib(const char *tok, int64_t *mib)
{
    uint64_t bytes;

    if (vdc_parse_size(tok, 1ULL << 20, &bytes) < 0 || bytes % (1ULL << 20) ||
        bytes == 0 || bytes > (1ULL << 62))
        return -1;
    *mib = (int64_t)(bytes >> 20);
    return 0;
}

int
vdc_import_chunk(const char *tok, int64_t *bytes)
{
    uint64_t b;

    if (vdc_parse_size(tok, 1, &b) < 0 || b == 0 || b > (1ULL << 40))
        return -1;
    *bytes = (int64_t)b;
    return 0;
}

int
vdc_import_latency(const char *tok, double *us)
{
    char *num;
    size_t n = strlen(tok), unit_len;
    double mult, v;
    int rc;

    if (n > 2 && !strcmp(tok + n - 2, "us")) {
        unit_len = 2;
        mult = 1.0;
    } else if (n > 2 && !strcmp(tok + n - 2, "ms")) {
        unit_len = 2;
        mult = 1000.0;
    } else if (n > 1 && tok[n - 1] == 's') {
        unit_len = 1;
        mult = 1e6;
    } else {
        return -1;
    }
    num = g_strndup(tok, n - unit_len);
    rc = vdc_import_number(num, &v);
    g_free(num);
    if (rc < 0)
        return -1;
    *us = v * mult;
    return 0;
}

int
vdc_import_count(const char *s, size_t n, int64_t *out)
{
    size_t i;

    if (!n || n > 18)
        return -1;
    for (i = 0; i < n; i++)
        if (!g_ascii_isdigit(s[i]))
            return -1;
    *out = g_ascii_strtoll(s, NULL, 10);
    return 0;
}

/* a non-negative integer token of at most 18 digits */
static int
parse_count(const char *s, int64_t *out)
{
    return vdc_import_count(s, strlen(s), out);
}

int
vdc_import_files_spec(const char *tok, vdc_files_info *files)
{
    char *copy = g_strdup(tok), *slash, **parts = NULL;
    vdc_files_info f = { VDC_INT_ABSENT, VDC_INT_ABSENT, VDC_INT_ABSENT,
                         VDC_INT_ABSENT, VDC_INT_ABSENT };
    guint n;
    int rc = -1;

    slash = strchr(copy, '/');
    if (slash) {
        *slash = '\0';
        if (parse_count(slash + 1, &f.dirs) < 0)
            goto out;
    }
    parts = g_strsplit(copy, ":", -1);
    n = g_strv_length(parts);
    if (n < 1 || n > 3 || parse_count(parts[0], &f.number) < 0)
        goto out;
    if (n >= 2 && strcmp(parts[1], "link") && strcmp(parts[1], "symlink")) {
        if (parse_count(parts[1], &f.max_size) < 0)
            goto out;
    } else if (n == 3) {
        goto out;   /* "16:link:5" */
    }
    if (n == 3 && parse_count(parts[2], &f.min_size) < 0)
        goto out;
    *files = f;
    rc = 0;
 out:
    g_strfreev(parts);
    g_free(copy);
    return rc;
}

int
vdc_import_is_csv_line(const char *line)
{
    int commas = 0, blanks = 0;

    for (; *line; line++) {
        if (*line == ',')
            commas++;
        else if (*line == ' ' || *line == '\t')
            blanks++;
    }
    /* a truncated line without blanks is still a (bad) CSV line */
    return commas >= 20 || (commas >= 3 && !blanks);
}

int
vdc_import_is_csv_header(const char *line)
{
    return g_str_has_prefix(line, "name,file_size,") ||
           g_str_has_prefix(line, "format_version,bonnie_version,");
}

/* ---- The layouts ------------------------------------------------------------ */

typedef struct {
    const char *format;        /* source.format */
    int n_fields;
    int versioned;             /* fields 1-2 are format and bonnie++ versions */
    int f_name, f_concurrency, f_seed, f_size, f_chunk, f_seeks, f_seek_procs;
    int f_files;               /* num_files (1.03: whole spec) */
    int f_max, f_min, f_dirs, f_file_chunk;  /* 0 = not in this layout */
    int io_shift, file_shift;  /* field = vdc_tests[].csv_field - shift */
    int lat_shift;             /* latency field = csv_latency_field - shift; -1 = none */
} csv_layout;

static const csv_layout layout_103 = {
    .format = "bonnie++-csv-1.03", .n_fields = 27, .versioned = 0,
    .f_name = 1, .f_size = 2, .f_files = 15,
    .io_shift = 7, .file_shift = 11, .lat_shift = -1,
};

static const csv_layout layout_196 = {
    .format = "bonnie++-csv-1.96", .n_fields = 48, .versioned = 1,
    .f_name = 3, .f_concurrency = 4, .f_seed = 5, .f_size = 6, .f_chunk = 7,
    .f_files = 20, .f_max = 21, .f_min = 22, .f_dirs = 23, .f_file_chunk = 24,
    .io_shift = 2, .file_shift = 2, .lat_shift = 2,
};

/* bonnie++ 1.96 with -s 0 (no IO tests) wrote one IO field too few
 * (DoReportIO's "%s,%d,%s,,,...": 13 commas for 14 fields; fixed in 1.97,
 * debian/changelog "Fix a CSV column alignment bug in the case where -s0
 * is used"): 47 fields, the file part one field early. */
static const csv_layout layout_196_s0 = {
    .format = "bonnie++-csv-1.96", .n_fields = 47, .versioned = 1,
    .f_name = 3, .f_concurrency = 4, .f_seed = 5, .f_size = 6,
    .f_files = 19, .f_max = 20, .f_min = 21, .f_dirs = 22, .f_file_chunk = 23,
    .io_shift = 3, .file_shift = 3, .lat_shift = 3,
};

static const csv_layout layout_198 = {
    .format = "bonnie++-csv-1.98", .n_fields = 50, .versioned = 1,
    .f_name = 3, .f_concurrency = 4, .f_seed = 5, .f_size = 6, .f_chunk = 7,
    .f_seeks = 8, .f_seek_procs = 9,
    .f_files = 22, .f_max = 23, .f_min = 24, .f_dirs = 25, .f_file_chunk = 26,
    .io_shift = 0, .file_shift = 0, .lat_shift = 0,
};

/* "1.96", "2.00a": a version-looking first field */
static int
looks_like_version(const char *s)
{
    const char *p = s;

    if (!g_ascii_isdigit(*p))
        return 0;
    while (g_ascii_isdigit(*p))
        p++;
    if (*p++ != '.' || !g_ascii_isdigit(*p))
        return 0;
    while (g_ascii_isdigit(*p))
        p++;
    if (g_ascii_isalpha(*p))
        p++;
    return *p == '\0';
}

/* "vmdiskcmp-agent-0.1.0": letters, digits, '.', '_', '+', '-'; 1..40 chars,
 * starting with a letter */
static int
tool_token(const char *s)
{
    size_t i, n = strlen(s);

    if (!n || n > 40 || !g_ascii_isalpha(s[0]))
        return 0;
    for (i = 0; i < n; i++)
        if (!g_ascii_isalnum(s[i]) && !strchr("._+-", s[i]))
            return 0;
    return 1;
}

/* 1-based field @i of @f, "" when absent */
#define FIELD(f, i) ((f)[(i) - 1])

static int
csv_int_field(char **f, int i, const char *what, const vdc_import_pos *pos, int64_t *out)
{
    if (!*FIELD(f, i))
        return 0;
    if (parse_count(FIELD(f, i), out) < 0)
        return vdc_import_fail(pos, "CSV field %d (%s): expected a whole number, found '%s'",
                               i, what, FIELD(f, i));
    return 0;
}

/* value field @fv and %CP field @fc of test @ti */
static int
csv_sample(char **f, const vdc_test_info *ti, int fv, int fc, int fl,
           const vdc_import_pos *pos, vdc_run *run)
{
    const char *v = FIELD(f, fv), *c = FIELD(f, fc);
    const char *l = fl ? FIELD(f, fl) : "";
    vdc_sample *s;
    double d;

    if (!*v) {
        if (*c && strcmp(c, "+++"))
            return vdc_import_fail(pos, "CSV field %d (%s): empty value but %%CP '%s' in field %d",
                                   fv, ti->name, c, fc);
        return 0;   /* test not run (e.g. bonnie++ -f): no sample */
    }
    s = vdc_run_add_sample(run, ti->name);
    if (!strcmp(v, "+++++")) {
        s->too_fast = 1;
    } else if (vdc_import_number(v, &d) == 0) {
        s->value = d;
    } else {
        return vdc_import_fail(pos, "CSV field %d (%s): expected a number or '+++++', found '%s'",
                               fv, ti->name, v);
    }
    if (*c && strcmp(c, "+++")) {
        if (vdc_import_number(c, &d) < 0)
            return vdc_import_fail(pos, "CSV field %d (%s %%CP): expected a number or '+++', found '%s'",
                                   fc, ti->name, c);
        s->cpu_percent = d;
    }
    if (*l && vdc_import_latency(l, &s->latency_us) < 0)
        return vdc_import_fail(pos, "CSV field %d (%s latency): expected a number with "
                               "unit us, ms or s, found '%s'", fl, ti->name, l);
    return 0;
}

int
vdc_import_csv_line(const char *line, const vdc_import_pos *pos, vdc_run *run)
{
    char **f = g_strsplit(line, ",", -1);
    guint n = g_strv_length(f);
    const csv_layout *L = NULL;
    int t, rc = -1;

    if (n == 27) {
        L = &layout_103;
    } else if (looks_like_version(f[0])) {
        if (!strcmp(f[0], "1.96") && n == 47) {
            int k;

            for (k = 6; k <= 18; k++)
                if (*FIELD(f, k))
                    break;
            if (k <= 18) {
                vdc_import_fail(pos, "bonnie++ CSV format 1.96: expected 48 fields, found 47 "
                                "with IO values (bonnie++ 1.96 writes 47 only with -s 0, its "
                                "fields 6-18 empty)");
                goto out;
            }
            L = &layout_196_s0;
        } else if (!strcmp(f[0], "1.96") || !strcmp(f[0], "1.97"))
            L = &layout_196;
        else if (!strcmp(f[0], "1.98"))
            L = &layout_198;
        else {
            vdc_import_fail(pos, "unknown bonnie++ CSV format version '%.20s': expected 1.96, "
                            "1.97 or 1.98 in field 1, or a 27-field bonnie++ 1.0x line", f[0]);
            goto out;
        }
        if ((int)n != L->n_fields) {
            vdc_import_fail(pos, "bonnie++ CSV format %s: expected %d fields, found %u",
                            f[0], L->n_fields, n);
            goto out;
        }
    } else {
        vdc_import_fail(pos, "expected a bonnie++ CSV line with 27 fields (1.03), 48 (1.96/1.97) "
                        "or 50 (1.98), found %u fields", n);
        goto out;
    }
    vdc_set_str(&run->meta.source.format, L->format);
    if (L->versioned) {
        char *tool;

        if (looks_like_version(f[1])) {
            tool = g_strdup_printf("bonnie++ %s", f[1]);
            /* per-char became one read(2)/write(2) per byte in 1.92 (README-2.00) */
            vdc_set_str(&run->meta.per_char, "syscall");
        } else if (tool_token(f[1])) {
            /* a bonnie++-compatible writer naming itself, e.g. our agent's
             * "vmdiskcmp-agent-0.1.0": "vmdiskcmp-agent 0.1.0"; its per-char
             * mode is not in the line */
            const char *dash = strrchr(f[1], '-');

            tool = dash && g_ascii_isdigit(dash[1])
                ? g_strdup_printf("%.*s %s", (int)(dash - f[1]), f[1], dash + 1)
                : g_strdup(f[1]);
        } else {
            vdc_import_fail(pos, "CSV field 2 (bonnie_version): expected a version such as "
                            "2.00a or a tool name such as vmdiskcmp-agent-0.1.0, found '%.20s'",
                            f[1]);
            goto out;
        }
        vdc_set_str(&run->meta.tool, tool);
        g_free(tool);
    } else {
        vdc_set_str(&run->meta.tool, "bonnie++ 1.0x");
        vdc_set_str(&run->meta.per_char, "stdio");
        /* bonnie.h of 1.00f..1.04: Seeks 8192, SeekProcCount 3 (not options) */
        run->meta.seeks = 8192;
        run->meta.seek_processes = 3;
    }
    if (!*FIELD(f, L->f_name)) {
        vdc_import_fail(pos, "CSV field %d (name): expected the machine name, found nothing",
                        L->f_name);
        goto out;
    }
    if (!g_utf8_validate(FIELD(f, L->f_name), -1, NULL)) {
        vdc_import_fail(pos, "CSV field %d (name): expected UTF-8 text", L->f_name);
        goto out;
    }
    vdc_set_str(&run->meta.hostname, FIELD(f, L->f_name));
    if (L->f_concurrency && csv_int_field(f, L->f_concurrency, "concurrency", pos,
                                          &run->meta.concurrency) < 0)
        goto out;
    if (L->f_seed && *FIELD(f, L->f_seed)) {
        const char *sd = FIELD(f, L->f_seed);
        size_t k, len = strlen(sd);

        for (k = 0; k < len && g_ascii_isdigit(sd[k]); k++)
            ;
        if (k != len || len > 20) {
            vdc_import_fail(pos, "CSV field %d (seed): expected a decimal number, found '%.30s'",
                            L->f_seed, sd);
            goto out;
        }
        vdc_set_str(&run->meta.seed, sd);
    }
    if (*FIELD(f, L->f_size)) {
        char *size = g_strdup(FIELD(f, L->f_size));
        char *colon = L->versioned ? NULL : strchr(size, ':');
        int bad = 0;

        if (colon) {   /* 1.0x: "2G:16k" */
            *colon = '\0';
            bad = vdc_import_chunk(colon + 1, &run->meta.chunk_size) < 0;
        }
        bad = bad || vdc_import_size_mib(size, &run->meta.file_size_mib) < 0;
        g_free(size);
        if (bad) {
            vdc_import_fail(pos, "CSV field %d (file_size): expected a size such as 2G, "
                            "10048M or 2G:16k, found '%.30s'", L->f_size, FIELD(f, L->f_size));
            goto out;
        }
        /* an absent chunk means DefaultChunkSize (8192) in 1.0x and 1.96;
         * 1.98..2.00a never write field 7 (DoReportIO appends only the
         * separator), so there the chunk size is unknown */
        if (run->meta.chunk_size == VDC_INT_ABSENT && L != &layout_198)
            run->meta.chunk_size = 8192;
    }
    if (L->f_chunk && *FIELD(f, L->f_chunk) &&
        vdc_import_chunk(FIELD(f, L->f_chunk), &run->meta.chunk_size) < 0) {
        vdc_import_fail(pos, "CSV field %d (io_chunk_size): expected a size such as 8192 or "
                        "16k, found '%.30s'", L->f_chunk, FIELD(f, L->f_chunk));
        goto out;
    }
    if (L->f_seeks && (csv_int_field(f, L->f_seeks, "seeks", pos, &run->meta.seeks) < 0 ||
                       csv_int_field(f, L->f_seek_procs, "seek_proc_count", pos,
                                     &run->meta.seek_processes) < 0))
        goto out;
    if (*FIELD(f, L->f_files)) {
        if (!L->versioned) {
            if (vdc_import_files_spec(FIELD(f, L->f_files), &run->meta.files) < 0) {
                vdc_import_fail(pos, "CSV field %d (num_files): expected N[:MAX:MIN][/DIRS], "
                                "found '%.30s'", L->f_files, FIELD(f, L->f_files));
                goto out;
            }
        } else {
            const char *mx = FIELD(f, L->f_max);

            if (csv_int_field(f, L->f_files, "num_files", pos, &run->meta.files.number) < 0 ||
                csv_int_field(f, L->f_min, "min_size", pos, &run->meta.files.min_size) < 0)
                goto out;
            if (strcmp(mx, "link") && strcmp(mx, "symlink") &&
                csv_int_field(f, L->f_max, "max_size", pos, &run->meta.files.max_size) < 0)
                goto out;
            /* bonnie++ 1.96..2.00a (DoReportFile) never fill num_dirs: they
             * write the directory count one field later, in the
             * file_chunk_size slot, and never write the file chunk size
             * (measured with 2.00a: "-n 1:4096:1024:2" gives "1,4096,1024,,2").
             * A line with num_dirs filled follows the header literally. */
            if (!*FIELD(f, L->f_dirs)) {
                if (csv_int_field(f, L->f_file_chunk, "num_dirs (in the file_chunk_size field, "
                                  "as bonnie++ writes it)", pos, &run->meta.files.dirs) < 0)
                    goto out;
            } else if (csv_int_field(f, L->f_dirs, "num_dirs", pos, &run->meta.files.dirs) < 0) {
                goto out;
            } else if (*FIELD(f, L->f_file_chunk) &&
                vdc_import_chunk(FIELD(f, L->f_file_chunk), &run->meta.files.chunk_size) < 0) {
                vdc_import_fail(pos, "CSV field %d (file_chunk_size): expected a size such as "
                                "4k, found '%.30s'", L->f_file_chunk, FIELD(f, L->f_file_chunk));
                goto out;
            }
        }
    }
    for (t = 0; t < VDC_TEST_COUNT; t++) {
        const vdc_test_info *ti = &vdc_tests[t];
        int shift, fv;

        if (!ti->csv_field)
            continue;
        shift = t <= VDC_TEST_SEEKS ? L->io_shift : L->file_shift;
        fv = ti->csv_field - shift;
        if (csv_sample(f, ti, fv, ti->csv_cpu_field - shift,
                       L->lat_shift < 0 ? 0 : ti->csv_latency_field - L->lat_shift,
                       pos, run) < 0)
            goto out;
    }
    if (!run->n_samples) {
        vdc_import_fail(pos, "bonnie++ CSV line without any result: expected at least one test value");
        goto out;
    }
    rc = 0;
 out:
    g_strfreev(f);
    return rc;
}
