/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text importer: bonnie++ human tables (1.0x, 1.9x, 2.00a), Tim
 * Bray's bonnie 1.x table, and bonnie++ CSV lines, in any mix, read line by
 * line.  Tables are read by whitespace-separated columns, so both the
 * original fixed-width layout and a layout whose spaces were collapsed (as
 * on web pages, seed 003) are accepted; a skipped test leaves a gap that
 * cannot be placed, so such rows are refused (import the CSV instead).
 *
 * A CSV line claims the oldest table run not yet claimed (bonnie++ prints
 * the table, then the CSV line of the same run): values must agree within
 * the table's printing precision, and the run is kept once, from the CSV.
 *
 * Grammar, line by line (after removing a trailing CR):
 *   blank | "#..." comment | bonnie++ progress ("...done", "Using uid:")
 *   CSV header ("name,file_size,...", "format_version,...")
 *   CSV line (20 or more commas)
 *   table header lines: "[Version V] ---Sequential Output---...",
 *     "[Concurrency N] -Per Chr- ...", "[Version V] ---Sequential Create---",
 *     "[MACHINE] -Create-- ...", column headers ("Machine Size K/sec %CP..",
 *     "Name:Size etc /sec %CP..", "files /sec %CP..", bonnie 1.x
 *     "Machine MB K/sec %CPU..")
 *   data rows under a column header; "Latency ..." rows after a data row
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "import/import.h"
#include "import/import_priv.h"

typedef enum {
    ROWS_NONE,      /* no column header seen: data rows are an error */
    ROWS_IO,        /* bonnie++ sequential/seek table */
    ROWS_FILE,      /* bonnie++ file create table */
    ROWS_BONNIE1,   /* bonnie 1.x table */
} rows_kind;

/* A run read from a table, until a CSV line claims it. */
typedef struct {
    vdc_run *run;                 /* in the scratch set */
    long line;                    /* its first data row */
    double tol[VDC_TEST_COUNT];   /* half the printed precision of each value */
    int claimed;
    int bad_file_rates;           /* bonnie++ >= 1.98 table: file rates misprinted */
    long file_line;               /* its file-test row, 0 none */
    char **unplaced;              /* an IO row with blank columns whose spacing is
                                     lost: its value tokens, placed by the CSV line */
} table_run;

typedef struct {
    vdc_import_pos pos;
    vdc_result_set *rs;
    int only;                     /* 0 all, 1 CSV only, 2 tables only, 3 dd only */
    rows_kind rows;
    char *version;                /* "1.03", "2.00a"; NULL = bonnie 1.x/unknown */
    char *file_host;              /* 2.00a: machine on the "-Create--" line */
    int io_header_new;            /* the IO column header was 1.98's "Name:Size etc" */
    int file_table_own;           /* the file table began with "Version V" (bonnie++
                                     itself, not bon_csv2txt) */
    GPtrArray *tables;            /* table_run *, in order */
    GQueue awaiting_files;        /* table_run * whose file row may follow */
    table_run *last_row;          /* for a "Latency" line */
    int last_row_file;            /* the last row was a file row */
    long pending_header;           /* a table header waits for its data row */
    int n_runs;
    GPtrArray *labels;            /* label of each run of rs, in order */
    char *label;                  /* the label line in force, NULL none */
    int after_prompt;             /* lines after a '#' or '$' line are its output */
    int prev_prose;               /* the line before was prose: a paragraph goes on */
    char *block_first;            /* the first line of the prose block in progress */
    int block_ok;                 /* ... and it is a heading so far */
    int block_lines;
    char *block_label;            /* the label before that block */
    vdc_dd_ctx *dd;
    const char *raw;              /* the current line before stripping */
    int hdr_end[32];              /* end columns of the IO column header's tokens */
    guint hdr_n;
    char *wrap_raw;               /* a short row that may go on on the next line */
    long wrap_line;
} text_ctx;

static void
table_run_free(gpointer p)
{
    table_run *tr = p;

    g_strfreev(tr->unplaced);
    g_free(tr);
}

/* Append a run (target named later by import.c) with the label in force. */
static vdc_run *
add_run(text_ctx *c)
{
    g_ptr_array_add(c->labels, g_strdup(c->label));
    return vdc_result_set_add_run(c->rs, "");
}

char **
vdc_import_tokens(const char *line, guint *n)
{
    char **raw = g_strsplit_set(line, " \t", -1);
    GPtrArray *a = g_ptr_array_new();
    guint i;

    for (i = 0; raw[i]; i++)
        if (*raw[i])
            g_ptr_array_add(a, g_strdup(raw[i]));
    g_strfreev(raw);
    *n = a->len;
    g_ptr_array_add(a, NULL);
    return (char **)g_ptr_array_free(a, FALSE);
}

static char *
join_tokens(char **tok, guint from, guint to)
{
    GString *s = g_string_new(NULL);
    guint i;

    for (i = from; i < to; i++) {
        if (s->len)
            g_string_append_c(s, ' ');
        g_string_append(s, tok[i]);
    }
    return g_string_free(s, FALSE);
}

/* bonnie++ >= 1.92 does per-char with one read(2)/write(2) per byte */
static const char *
per_char_of(const char *version)
{
    if (!version)
        return "stdio";
    if (g_str_has_prefix(version, "1.0") || g_str_has_prefix(version, "0.") ||
        g_str_has_prefix(version, "1.90") || g_str_has_prefix(version, "1.91"))
        return "stdio";
    return "syscall";
}

/* Is bonnie++ @version ("2.00a", "1.98") at least @major.@minor? */
static int
version_at_least(const char *version, int major, int minor)
{
    unsigned a = 0, b = 0;

    if (!version || sscanf(version, "%u.%u", &a, &b) != 2)
        return 0;
    return a > (unsigned)major || (a == (unsigned)major && b >= (unsigned)minor);
}

static table_run *
new_table_run(text_ctx *c, const char *format)
{
    table_run *tr = g_new0(table_run, 1);
    char *tool;

    tr->run = add_run(c);
    tr->line = c->pos.line;
    vdc_set_str(&tr->run->meta.source.file, c->pos.file);
    tr->run->meta.source.line = c->pos.line;
    vdc_set_str(&tr->run->meta.source.format, format);
    if (!strcmp(format, "bonnie-1.x-table")) {
        vdc_set_str(&tr->run->meta.tool, "bonnie 1.x");
        vdc_set_str(&tr->run->meta.per_char, "stdio");
    } else if (c->version && c->io_header_new && !version_at_least(c->version, 1, 98)) {
        /* 1.98's layout under an older or foreign version: a bonnie++
         * compatible tool (our agent prints "Version 0.1.0"); its per-char
         * mode is not in the table */
        tool = g_strdup_printf("bonnie++-compatible (Version %s)", c->version);
        vdc_set_str(&tr->run->meta.tool, tool);
        g_free(tool);
    } else {
        tool = c->version ? g_strdup_printf("bonnie++ %s", c->version) : g_strdup("bonnie++");
        vdc_set_str(&tr->run->meta.tool, tool);
        g_free(tool);
        vdc_set_str(&tr->run->meta.per_char, per_char_of(c->version));
        if (c->version && g_str_has_prefix(c->version, "1.0")) {
            /* bonnie.h of 1.00f..1.04: Seeks 8192, SeekProcCount 3 */
            tr->run->meta.seeks = 8192;
            tr->run->meta.seek_processes = 3;
        }
    }
    g_ptr_array_add(c->tables, tr);
    c->n_runs++;
    return tr;
}

/* A table value: "+++++", a number, and in bonnie++ >= 1.97 IO columns a
 * number with a k/m/g suffix (K/sec, x1024, x1024^2).  Sets the sample. */
static int
table_value(text_ctx *c, const char *tok, const vdc_test_info *ti, int allow_suffix,
            vdc_sample *s, double *tol)
{
    char *num = NULL;
    double d, mult = 1.0;
    const char *dot;
    size_t n = strlen(tok);
    int rc;

    if (!strcmp(tok, "+++++")) {
        s->too_fast = 1;
        *tol = 0;
        return 0;
    }
    if (allow_suffix && n > 1 && strchr("kmg", tok[n - 1])) {
        mult = tok[n - 1] == 'k' ? 1.0 : tok[n - 1] == 'm' ? 1024.0 : 1048576.0;
        num = g_strndup(tok, n - 1);
    } else {
        num = g_strdup(tok);
    }
    rc = vdc_import_number(num, &d);
    if (rc < 0) {
        g_free(num);
        return vdc_import_fail(&c->pos, "%s: expected a number%s or '+++++', found '%.30s'",
                               ti->name, allow_suffix ? " (optionally with k, m or g)" : "",
                               tok);
    }
    /* half a unit of the last printed digit: bonnie++ prints the table and
     * the CSV from the same number (int() or %.1f), so an exact integer
     * must match exactly; "12.3m" only to +-0.05 MiB/s */
    dot = strchr(num, '.');
    *tol = 0.5 * (dot ? pow(10.0, -(double)strlen(dot + 1)) : 1.0) * mult + 1e-6;
    g_free(num);
    s->value = d * mult;
    return 0;
}

static int
table_cpu(text_ctx *c, const char *tok, const vdc_test_info *ti, vdc_sample *s)
{
    double d;

    if (!strcmp(tok, "+++")) {
        /* bonnie++ prints "+++" %CP exactly when the test took under 0.5 s,
         * beside "+++++"; bon_csv2txt 2.00a turns that "+++++" into "0k"
         * (convSpd of a non-number).  Either way: too fast, no value. */
        s->too_fast = 1;
        s->value = NAN;
        return 0;
    }
    if (vdc_import_number(tok, &d) < 0)
        return vdc_import_fail(&c->pos, "%s %%CP: expected a number or '+++', found '%.30s'",
                               ti->name, tok);
    s->cpu_percent = d;
    return 0;
}

/* The 12 value/%CP columns of a row for tests @first..@first+5. */
static int
table_values(text_ctx *c, char **tok, vdc_test_id first, int allow_suffix, table_run *tr)
{
    int i;

    for (i = 0; i < 6; i++) {
        const vdc_test_info *ti = &vdc_tests[first + i];
        vdc_sample *s;

        if (!*tok[2 * i] && !*tok[2 * i + 1])
            continue;    /* a blank column pair: the test was not run (bonnie++ -f) */
        if (!*tok[2 * i])
            return vdc_import_fail(&c->pos, "%s: expected a value in the column above "
                                   "'%%CP', found it blank beside %%CP '%.10s'", ti->name,
                                   tok[2 * i + 1]);
        if (!*tok[2 * i + 1])
            return vdc_import_fail(&c->pos, "%s %%CP: expected a number or '+++' beside the "
                                   "value '%.20s', found it blank", ti->name, tok[2 * i]);
        s = vdc_run_add_sample(tr->run, ti->name);
        if (table_value(c, tok[2 * i], ti, allow_suffix && ti->id != VDC_TEST_SEEKS, s,
                        &tr->tol[ti->id]) < 0 ||
            table_cpu(c, tok[2 * i + 1], ti, s) < 0)
            return -1;
    }
    return 0;
}

/* "2G", "16M:8k:...": size[:chunk[:...]] (the rest differs between
 * bonnie++ and bon_csv2txt and is not read) */
static int
table_size(text_ctx *c, const char *tok, int bare_mb, vdc_run_meta *m)
{
    char **p = g_strsplit(tok, ":", -1);
    int rc = 0;

    if (bare_mb) {
        double d;

        if (vdc_import_number(tok, &d) < 0 || strchr(tok, '.') || d < 1 || d > 1e12)
            rc = -1;
        else
            m->file_size_mib = (int64_t)d;
    } else {
        rc = vdc_import_size_mib(p[0], &m->file_size_mib);
        if (rc == 0 && p[1] && *p[1])
            rc = vdc_import_chunk(p[1], &m->chunk_size);
        else if (rc == 0)
            m->chunk_size = 8192;
    }
    g_strfreev(p);
    if (rc < 0)
        return vdc_import_fail(&c->pos, "expected the file size (%s), found '%.30s'",
                               bare_mb ? "MB, e.g. 256" : "e.g. 2G, 10048M or 2G:16k", tok);
    return 0;
}

/* Is @tok printed like a table value: a number (with k, m or g), "+++++"
 * or "+++"? */
static int
value_like(const char *tok)
{
    double d;
    size_t n = strlen(tok);
    char *num;
    int ok;

    if (!strcmp(tok, "+++++") || !strcmp(tok, "+++"))
        return 1;
    num = n > 1 && strchr("kmg", tok[n - 1]) ? g_strndup(tok, n - 1) : g_strdup(tok);
    ok = vdc_import_number(num, &d) == 0;
    g_free(num);
    return ok;
}

/* End columns (0-based, of the last character) of the blank-separated
 * tokens of @raw, at most @max. */
static guint
token_ends(const char *raw, int *ends, guint max)
{
    guint n = 0;
    int i;

    for (i = 0; raw[i]; i++)
        if (raw[i] != ' ' && raw[i] != '\t' && (raw[i + 1] == ' ' || raw[i + 1] == '\t' ||
                                                !raw[i + 1])) {
            if (n == max)
                return max + 1;
            ends[n++] = i;
        }
    return n;
}

/* Place the tokens of a row with blank columns (bonnie++ -f) under the
 * column header by their end columns: bonnie++ right-aligns each value
 * and %CP under its header word.  Fills @slots (12 strings, "" = blank) and
 * *size_idx (index of the size token in @tok).  Returns 0, or -1 when the
 * row's spacing does not fit the header (collapsed blanks, another layout). */
static int
place_row(const text_ctx *c, char **tok, guint n, const char **slots, guint *size_idx)
{
    int ends[64];
    guint ne = token_ends(c->raw, ends, G_N_ELEMENTS(ends)), i, k, first;
    int size_end;

    if (c->hdr_n < 13 || ne != n || n < 2)
        return -1;
    first = c->hdr_n - 12;
    /* the machine and size end before the first value column begins (a
     * value is at most 6 wide: " %5d") */
    size_end = c->hdr_end[first] - 6;
    for (k = 0; k < 12; k++)
        slots[k] = "";
    *size_idx = G_MAXUINT;
    for (i = 0; i < n; i++) {
        for (k = 0; k < 12; k++)
            if (abs(ends[i] - c->hdr_end[first + k]) <= 1)
                break;
        if (k == 12 && ends[i] <= size_end && (*size_idx == G_MAXUINT || *size_idx + 1 == i)) {
            *size_idx = i;
            continue;
        }
        if (k == 12 || *slots[k] || *size_idx == G_MAXUINT)
            return -1;
        slots[k] = tok[i];
    }
    return *size_idx == G_MAXUINT || !*slots[11] ? -1 : 0;
}

/* A row of [machine] size and 12 value/%CP columns (@vals: 12 strings). */
static int
io_row_values(text_ctx *c, char **tok, guint size_idx, const char *const *vals, int bonnie1)
{
    table_run *tr;
    char *host;

    tr = new_table_run(c, bonnie1 ? "bonnie-1.x-table" : "bonnie++-table");
    host = join_tokens(tok, 0, size_idx);
    if (*host)
        vdc_set_str(&tr->run->meta.hostname, host);
    g_free(host);
    if (table_size(c, tok[size_idx], bonnie1, &tr->run->meta) < 0)
        return -1;
    if (table_values(c, (char **)vals, VDC_TEST_PUTC, !bonnie1, tr) < 0)
        return -1;
    if (!bonnie1)
        g_queue_push_tail(&c->awaiting_files, tr);
    c->last_row = tr;
    c->last_row_file = 0;
    return 0;
}

/* A bonnie++ IO row whose blank columns cannot be placed (its spacing was
 * collapsed): kept until the CSV line of the same run places its values. */
static int
io_row_unplaced(text_ctx *c, char **tok, guint n)
{
    table_run *tr = new_table_run(c, "bonnie++-table");
    guint i, first = 0;

    /* the machine name and the size come first: the size is the first
     * token that reads as one */
    for (i = 0; i < n && !first; i++) {
        char **sz = g_strsplit(tok[i], ":", 2);
        int64_t mib;

        if (vdc_import_size_mib(sz[0], &mib) == 0)
            first = i + 1;
        g_strfreev(sz);
    }
    if (!first)
        return vdc_import_fail(&c->pos, "expected [machine] size and 12 value/%%CP columns, "
                               "found no size among %u columns", n);
    if (first > 1) {
        char *host = join_tokens(tok, 0, first - 1);

        vdc_set_str(&tr->run->meta.hostname, host);
        g_free(host);
    }
    if (table_size(c, tok[first - 1], 0, &tr->run->meta) < 0)
        return -1;
    tr->unplaced = g_strdupv(tok + first);
    g_queue_push_tail(&c->awaiting_files, tr);
    c->last_row = NULL;
    return 0;
}

static int
io_row(text_ctx *c, char **tok, guint n, int bonnie1)
{
    const char *slots[12];
    guint size_idx;

    if (n >= 13)
        return io_row_values(c, tok, n - 13, (const char *const *)tok + n - 12, bonnie1);
    if (place_row(c, tok, n, slots, &size_idx) == 0)
        return io_row_values(c, tok, size_idx, slots, bonnie1);
    if (bonnie1)
        return vdc_import_fail(&c->pos, "expected [machine] size and 12 value/%%CPU columns, "
                               "found %u columns in all", n);
    return io_row_unplaced(c, tok, n);
}

static int
file_row(text_ctx *c, char **tok, guint n)
{
    table_run *tr = NULL;
    vdc_files_info files;
    char *host;
    size_t i;

    if (n < 13)
        return vdc_import_fail(&c->pos, "expected the file count and 12 value/%%CP columns, "
                               "found %u columns in all (a blank column cannot be placed "
                               "once blanks are collapsed: expected the table as bonnie++ "
                               "printed it, or its CSV line)", n);
    if (vdc_import_files_spec(tok[n - 13], &files) < 0)
        return vdc_import_fail(&c->pos, "expected the file count N[:MAX:MIN][/DIRS], found '%.30s'",
                               tok[n - 13]);
    /* the IO row of the same report, if one waits (in order, as bonnie++
     * and bon_csv2txt print them) */
    while (!g_queue_is_empty(&c->awaiting_files)) {
        tr = g_queue_pop_head(&c->awaiting_files);
        for (i = 0; i < tr->run->n_samples; i++)
            if (vdc_test_lookup(tr->run->samples[i]->test)->id >= VDC_TEST_SEQ_CREATE)
                break;
        if (!tr->claimed && i == tr->run->n_samples)
            break;
        tr = NULL;
    }
    if (!tr) {
        tr = new_table_run(c, "bonnie++-table");
        host = n > 13 ? join_tokens(tok, 0, n - 13) : g_strdup(c->file_host);
        if (host && *host)
            vdc_set_str(&tr->run->meta.hostname, host);
        g_free(host);
    }
    tr->run->meta.files = files;
    tr->file_line = c->pos.line;
    if (table_values(c, tok + n - 12, VDC_TEST_SEQ_CREATE, 0, tr) < 0)
        return -1;
    if (c->file_table_own && version_at_least(c->version, 1, 98)) {
        /* bonnie++ 1.98..2.00a print file-test rates in the table with
         * printf("%5d", double) (bon_time.cpp print_stat): the numbers are
         * garbage (measured: 1024 for a CSV rate of 2034).  Only the CSV
         * line that follows can give them.  bon_csv2txt's tables (no
         * "Version" line above the file table) copy the CSV text: fine. */
        tr->bad_file_rates = 1;
        for (i = VDC_TEST_SEQ_CREATE; i <= VDC_TEST_RAN_DEL; i++)
            tr->tol[i] = INFINITY;
    }
    c->last_row = tr;
    c->last_row_file = 1;
    return 0;
}

static int
latency_row(text_ctx *c, char **tok, guint n)
{
    vdc_test_id first = c->last_row_file ? VDC_TEST_SEQ_CREATE : VDC_TEST_PUTC;
    guint i;
    size_t j;

    if (!c->last_row)
        return vdc_import_fail(&c->pos, "expected a table data row before this 'Latency' line");
    if (n != 7)
        return vdc_import_fail(&c->pos, "expected 'Latency' and 6 latencies, found %u "
                               "latencies (import the CSV line instead)", n - 1);
    for (i = 0; i < 6; i++) {
        const vdc_test_info *ti = &vdc_tests[first + i];
        double us;

        if (vdc_import_latency(tok[i + 1], &us) < 0)
            return vdc_import_fail(&c->pos, "%s latency: expected a number with unit us, ms "
                                   "or s, found '%.30s'", ti->name, tok[i + 1]);
        for (j = 0; j < c->last_row->run->n_samples; j++)
            if (!strcmp(c->last_row->run->samples[j]->test, ti->name))
                c->last_row->run->samples[j]->latency_us = us;
    }
    c->last_row = NULL;
    return 0;
}

/* An IO row whose blank columns could not be placed: its value tokens, in
 * order, must be the CSV line's non-empty IO values and %CP. */
static int
check_unplaced(text_ctx *c, table_run *tr, const vdc_run *csv)
{
    guint k = 0, n = g_strv_length(tr->unplaced);
    int t;
    size_t j;

    for (t = VDC_TEST_PUTC; t <= VDC_TEST_SEEKS; t++) {
        const vdc_test_info *ti = &vdc_tests[t];
        const vdc_sample *s = NULL;
        vdc_sample v;
        double tol;
        int bad;

        for (j = 0; j < csv->n_samples; j++)
            if (!strcmp(csv->samples[j]->test, ti->name))
                s = csv->samples[j];
        if (!s)
            continue;
        if (k + 2 > n)
            return vdc_import_fail(&c->pos, "this CSV line has more IO values than the table "
                                   "row at line %ld (%u columns): expected the CSV line of that "
                                   "row", tr->line, n);
        vdc_sample_init(&v);
        bad = table_value(c, tr->unplaced[k], ti, t != VDC_TEST_SEEKS, &v, &tol) < 0 ||
              table_cpu(c, tr->unplaced[k + 1], ti, &v) < 0;
        if (!bad && (v.too_fast != s->too_fast ||
                     (vdc_has(v.value) && fabs(v.value - s->value) > tol) ||
                     (vdc_has(v.cpu_percent) && fabs(v.cpu_percent - s->cpu_percent) > 1.0))) {
            vdc_import_fail(&c->pos, "this CSV line disagrees with the table row at line %ld on "
                            "%s (%s %s%%CP vs %g %g%%CP): expected the CSV line of that row",
                            tr->line, ti->name, tr->unplaced[k], tr->unplaced[k + 1], s->value,
                            s->cpu_percent);
            bad = 1;
        }
        vdc_sample_dispose(&v);
        if (bad)
            return -1;
        k += 2;
    }
    if (k != n)
        return vdc_import_fail(&c->pos, "the table row at line %ld has %u value columns, this "
                               "CSV line %u IO values and %%CP: expected the CSV line of that row",
                               tr->line, n, k);
    return 0;
}

/* Does the table run agree with the CSV run?  Both ways: a test the table
 * has and the CSV not, and a test the CSV has and the table not (a blank
 * or a misplaced column), are conflicts. */
static int
check_claim(text_ctx *c, table_run *tr, const vdc_run *csv)
{
    size_t i, j;

    if (tr->unplaced && check_unplaced(c, tr, csv) < 0)
        return -1;
    for (i = 0; i < tr->run->n_samples; i++) {
        const vdc_sample *t = tr->run->samples[i];
        const vdc_sample *s = NULL;
        const vdc_test_info *ti = vdc_test_lookup(t->test);

        for (j = 0; j < csv->n_samples; j++)
            if (!strcmp(csv->samples[j]->test, t->test))
                s = csv->samples[j];
        if (!s)
            return vdc_import_fail(&c->pos, "this CSV line has no %s value but the table at "
                                   "line %ld has one: expected the CSV line of that table",
                                   t->test, tr->line);
        if (t->too_fast != s->too_fast ||
            (vdc_has(t->value) && fabs(t->value - s->value) > tr->tol[ti->id]) ||
            vdc_has(t->cpu_percent) != vdc_has(s->cpu_percent) ||
            (vdc_has(t->cpu_percent) && fabs(t->cpu_percent - s->cpu_percent) > 1.0))
            return vdc_import_fail(&c->pos, "this CSV line disagrees with the table at line "
                                   "%ld on %s (%s%g %g%%CP vs %s%g %g%%CP): expected the CSV line "
                                   "of that table", tr->line, t->test,
                                   t->too_fast ? "+++++ " : "", t->value, t->cpu_percent,
                                   s->too_fast ? "+++++ " : "", s->value, s->cpu_percent);
    }
    for (j = 0; j < csv->n_samples; j++) {
        const vdc_test_info *ti = vdc_test_lookup(csv->samples[j]->test);

        if (tr->unplaced && ti->id <= VDC_TEST_SEEKS)
            continue;
        if (ti->id >= VDC_TEST_SEQ_CREATE && !tr->file_line)
            continue;    /* the table's file block was not pasted */
        for (i = 0; i < tr->run->n_samples; i++)
            if (!strcmp(tr->run->samples[i]->test, csv->samples[j]->test))
                break;
        if (i == tr->run->n_samples)
            return vdc_import_fail(&c->pos, "this CSV line has a %s value (%g) but the table at "
                                   "line %ld has none: expected the CSV line of that table",
                                   csv->samples[j]->test, csv->samples[j]->value, tr->line);
    }
    return 0;
}

static int
csv_line(text_ctx *c, const char *line)
{
    vdc_run tmp;
    vdc_run *slot;
    table_run *tr = NULL;
    int64_t rep;
    guint i;
    int rc = -1;

    vdc_run_init(&tmp);
    if (vdc_import_csv_line(line, &c->pos, &tmp) < 0)
        goto out;
    for (i = 0; i < c->tables->len && !tr; i++) {
        tr = g_ptr_array_index(c->tables, i);
        if (tr->claimed)
            tr = NULL;
    }
    if (tr) {
        /* the oldest unclaimed table is this line's own run: it must agree,
         * then the CSV run takes its place (imported once) */
        if (check_claim(c, tr, &tmp) < 0)
            goto out;
        /* what only the table says: the version behind "1.0x", and the
         * chunk size that 2.00a's CSV loses */
        if (!strcmp(tmp.meta.source.format, "bonnie++-csv-1.03") && tr->run->meta.tool &&
            strcmp(tr->run->meta.tool, "bonnie++"))
            vdc_set_str(&tmp.meta.tool, tr->run->meta.tool);
        if (tmp.meta.chunk_size == VDC_INT_ABSENT)
            tmp.meta.chunk_size = tr->run->meta.chunk_size;
        tr->claimed = 1;
        g_queue_remove(&c->awaiting_files, tr);
        if (c->last_row == tr)
            c->last_row = NULL;
        slot = tr->run;
    } else {
        slot = add_run(c);
        c->n_runs++;
    }
    rep = slot->repetition;
    vdc_run_dispose(slot);
    *slot = tmp;                 /* move: the set's slot takes the CSV run */
    vdc_run_init(&tmp);
    slot->repetition = rep;
    vdc_set_str(&slot->target, "");
    vdc_set_str(&slot->status, "ok");
    vdc_set_str(&slot->meta.source.file, c->pos.file);
    slot->meta.source.line = c->pos.line;
    rc = 0;
 out:
    vdc_run_dispose(&tmp);
    return rc;
}

static int
contains(const char *hay, const char *needle)
{
    return strstr(hay, needle) != NULL;
}

/* Header lines; returns 1 if @line was one. */
static int
header_line(text_ctx *c, const char *line, char **tok, guint n)
{
    /* the dashes belong to the header: prose that names "Sequential
     * Output" is not one */
    if (contains(line, "-Sequential Output-") || contains(line, "-Sequential Create-")) {
        if (contains(line, "Sequential Create"))
            c->file_table_own = n >= 2 && !strcmp(tok[0], "Version");
        if (n >= 2 && !strcmp(tok[0], "Version")) {
            g_free(c->version);
            c->version = g_strdup(tok[1]);
        } else if (contains(line, "Sequential Output") && !contains(line, "Sequential Create")) {
            /* bonnie 1.x prints no Version line; bonnie++ 1.0x prints it
             * before the IO table only */
            g_clear_pointer(&c->version, g_free);
        }
        if (contains(line, "Sequential Output"))
            g_queue_clear(&c->awaiting_files);
        c->rows = ROWS_NONE;
        c->last_row = NULL;
        return 1;
    }
    if (contains(line, "-Per Chr-") || contains(line, "-Per Char-")) {
        c->rows = ROWS_NONE;
        return 1;
    }
    if (contains(line, "-Create--")) {
        guint i;

        g_clear_pointer(&c->file_host, g_free);
        for (i = 0; i < n && strcmp(tok[i], "-Create--"); i++)
            ;
        if (i > 0)
            c->file_host = join_tokens(tok, 0, i);
        c->rows = ROWS_NONE;
        return 1;
    }
    if (contains(line, "%CPU") && contains(line, "K/sec")) {
        c->rows = ROWS_BONNIE1;
        return 1;
    }
    if (contains(line, "%CP") && contains(line, "/sec")) {
        if (n && (g_str_has_prefix(tok[0], "files")))
            c->rows = ROWS_FILE;
        else if (n && (!strcmp(tok[0], "Machine") || g_str_has_prefix(tok[0], "Name:Size"))) {
            c->rows = ROWS_IO;
            c->io_header_new = g_str_has_prefix(tok[0], "Name:Size");
            /* the columns, to place the values of a row with blanks (-f) */
            c->hdr_n = token_ends(c->raw, c->hdr_end, G_N_ELEMENTS(c->hdr_end));
            if (c->hdr_n > G_N_ELEMENTS(c->hdr_end))
                c->hdr_n = 0;
        }
        else
            return 0;
        return 1;
    }
    return 0;
}

/* Count the tokens of @tok that are printed like table values. */
static guint n_value_like(char **tok, guint n);

/* A shell prompt line: "# cmd", "$ cmd", "[root@host ~]# cmd",
 * "user@host:~$ cmd". */
static int
prompt_line(const char *line, char **tok, guint n)
{
    size_t l;

    if (line[0] == '#' || line[0] == '$')
        return 1;
    if (!n)
        return 0;
    l = strlen(tok[0]);
    if ((tok[0][l - 1] == '#' || tok[0][l - 1] == '$') && (strchr(tok[0], '@') || l == 1))
        return 1;
    return n >= 2 && (g_str_has_suffix(tok[1], "]#") || g_str_has_suffix(tok[1], "]$")) &&
           tok[0][0] == '[';
}

/* A line that is neither a table line nor a CSV line nor dd output: prose
 * or a label.  Consecutive prose lines make a block.  A block of at most 3
 * lines of at most 80 characters whose first line has a letter and is not
 * mostly numbers (a df line) is a heading: its first line names the
 * groups below it, until the next heading ("host 2 (ext2 defaults)";
 * "/dev/hda3 (ext2 with 4-KB block size)" above "cd /mnt; bonnie -s 256";
 * "Test 1 - disk image" above a paragraph and the table).  Paragraphs,
 * shell prompts and a command's output (the lines after a prompt) are
 * never headings and leave the label in force. */
static void
prose_line(text_ctx *c, const char *line, int in_paragraph)
{
    size_t n = strlen(line);
    const char *p;
    char **tok;
    guint nt;
    int letter = 0, prompt;

    c->prev_prose = 1;
    if (c->after_prompt)
        return;
    tok = vdc_import_tokens(line, &nt);
    prompt = prompt_line(line, tok, nt);
    if (!in_paragraph) {
        for (p = line; *p; p++)
            if (g_ascii_isalpha(*p))
                letter = 1;
        g_free(c->block_first);
        c->block_first = g_strdup(line);
        c->block_ok = n <= 80 && letter && !prompt && 2 * n_value_like(tok, nt) < nt;
        c->block_lines = 1;
        if (c->block_ok) {
            g_free(c->block_label);
            c->block_label = g_strdup(c->label);   /* what a longer block restores */
        }
    } else if (c->block_ok && (n > 80 || prompt || ++c->block_lines > 3)) {
        /* a paragraph after all: the label before it stays */
        c->block_ok = 0;
        g_free(c->label);
        c->label = g_strdup(c->block_label);
    }
    if (prompt)
        c->after_prompt = 1;
    g_strfreev(tok);
    if (c->block_ok && !in_paragraph) {
        g_free(c->label);
        c->label = g_strdup(c->block_first);
        n = strlen(c->label);
        while (n && (c->label[n - 1] == ':' || c->label[n - 1] == ' '))
            c->label[--n] = '\0';
    }
}

/* Count the tokens of @tok that are printed like table values. */
static guint
n_value_like(char **tok, guint n)
{
    guint i, k = 0;

    for (i = 0; i < n; i++)
        k += value_like(tok[i]);
    return k;
}

/* A data row under the current column header (@tok, @n). */
static int
data_row(text_ctx *c, char **tok, guint n)
{
    switch (c->rows) {
    case ROWS_IO: return io_row(c, tok, n, 0);
    case ROWS_BONNIE1: return io_row(c, tok, n, 1);
    case ROWS_FILE: return file_row(c, tok, n);
    default: return 0;
    }
}

/* A short row waits (c->wrap_raw): does @line (@tok, @n) finish it?  A
 * mailer wraps a long row at a blank: the first part ends in a value, the
 * second is values only, and together they are one row of [machine] size
 * and 12 value/%CP columns.  Returns 1 joined and imported, 0 @line is not a
 * continuation (the short row is then a row with blank columns), -1 error. */
static int
join_wrapped(text_ctx *c, char **tok, guint n)
{
    guint n1, i;
    char **t1 = vdc_import_tokens(c->wrap_raw, &n1), **all;
    long here = c->pos.line;
    int rc;

    if (n >= 13 || n_value_like(tok, n) != n) {
        g_strfreev(t1);
        return 0;
    }
    if (n1 + n == 13 || (n1 + n == 14 && !value_like(t1[0]))) {
        all = g_new0(char *, n1 + n + 1);
        for (i = 0; i < n1; i++)
            all[i] = t1[i];
        for (i = 0; i < n; i++)
            all[n1 + i] = tok[i];
        c->pos.line = c->wrap_line;
        c->raw = "";
        rc = data_row(c, all, n1 + n);
        c->pos.line = here;
        g_free(all);
        g_strfreev(t1);
        g_clear_pointer(&c->wrap_raw, g_free);
        return rc < 0 ? -1 : 1;
    }
    rc = vdc_import_fail(&c->pos, "this line (%u columns) does not complete the row at line %ld "
                         "(%u columns): expected one row of [machine] size and 12 value/%%CP "
                         "columns, or a row wrapped once onto this line", n, c->wrap_line, n1);
    g_strfreev(t1);
    return rc;
}

/* The waiting short row is not wrapped: import it as it is (blank columns). */
static int
settle_wrapped(text_ctx *c)
{
    char **tok;
    guint n;
    long here = c->pos.line;
    const char *raw = c->raw;
    int rc;

    if (!c->wrap_raw)
        return 0;
    tok = vdc_import_tokens(c->wrap_raw, &n);
    c->pos.line = c->wrap_line;
    c->raw = c->wrap_raw;
    rc = data_row(c, tok, n);
    c->pos.line = here;
    c->raw = raw;
    g_strfreev(tok);
    g_clear_pointer(&c->wrap_raw, g_free);
    return rc;
}

static int
text_line(text_ctx *c, const char *line)
{
    char **tok = NULL;
    guint n;
    int rc = 0, r, para;

    if (!*line) {
        c->after_prompt = 0;
        c->prev_prose = 0;
        return 0;
    }
    para = c->prev_prose;
    c->prev_prose = 0;
    /* dd transcripts first: a root prompt "# time dd ..." starts with '#' */
    if (c->only == 0 || c->only == 3) {
        r = vdc_dd_line(c->dd, &c->pos, line, c->label);
        if (r < 0)
            return -1;
        if (r > 0) {
            c->after_prompt = 0;
            return settle_wrapped(c);
        }
    }
    if (line[0] == '#' || line[0] == '$') {
        c->after_prompt = 1;   /* a comment, or a shell prompt: its output follows */
        return 0;
    }
    if (c->only == 3) {
        prose_line(c, line, para);   /* --format dd: everything else is prose */
        return 0;
    }
    if (vdc_import_is_csv_header(line))
        return 0;
    if (vdc_import_is_csv_line(line)) {
        if (c->only == 2)
            return vdc_import_fail(&c->pos, "expected a bonnie/bonnie++ table line, found a "
                                   "CSV line (--format table)");
        if (settle_wrapped(c) < 0)
            return -1;
        c->rows = ROWS_NONE;
        return csv_line(c, line);
    }
    tok = vdc_import_tokens(line, &n);
    if (!n)
        goto out;
    /* progress on stderr, captured with 2>&1: bonnie++ ("Using uid:0,
     * gid:0.", "Writing intelligently...done") and bonnie 1.x ("File
     * './Bonnie.1234', size: 268435456", "Seeker 1...Seeker 2...start 'em...") */
    if (contains(line, "...done") || g_str_has_prefix(line, "Using uid:") ||
        (g_str_has_prefix(line, "File '") && contains(line, "', size: ")) ||
        (g_str_has_prefix(line, "Seeker 1...") && contains(line, "start 'em")))
        goto out;
    if (c->only == 1) {
        rc = vdc_import_fail(&c->pos, "expected a bonnie++ CSV line (27, 47, 48 or 50 fields) "
                             "or a blank line (--format csv)");
        goto out;
    }
    if (c->wrap_raw) {
        r = join_wrapped(c, tok, n);
        if (r != 0) {
            rc = r < 0 ? -1 : 0;
            goto out;
        }
        if ((rc = settle_wrapped(c)) < 0)
            goto out;
    }
    if (header_line(c, line, tok, n)) {
        if (!c->pending_header)
            c->pending_header = c->pos.line;
        goto out;
    }
    if (!strcmp(tok[0], "Latency")) {
        rc = latency_row(c, tok, n);
        goto out;
    }
    if (c->rows == ROWS_NONE && n >= 13 && 2 * n_value_like(tok, n) >= n) {
        rc = vdc_import_fail(&c->pos, "this looks like a table row, but no column header "
                             "(Machine ... K/sec %%CP ...) is above it: expected a bonnie++ CSV "
                             "line, a whole bonnie/bonnie++ table or a dd transcript");
        goto out;
    }
    if (c->rows == ROWS_NONE || 2 * n_value_like(tok, n) < n) {
        /* prose or a label line (also between the rows of a table) */
        prose_line(c, line, para);
        goto out;
    }
    c->pending_header = 0;
    if (n < 13 && c->rows != ROWS_FILE) {
        const char *slots[12];
        guint size_idx;

        if (c->rows == ROWS_IO && place_row(c, tok, n, slots, &size_idx) == 0) {
            rc = io_row_values(c, tok, size_idx, slots, 0);
            goto out;
        }
        /* perhaps wrapped by a mailer: decide on the next line */
        c->wrap_raw = g_strdup(c->raw);
        c->wrap_line = c->pos.line;
        goto out;
    }
    rc = data_row(c, tok, n);
 out:
    g_strfreev(tok);
    return rc;
}

/* Table runs after the whole file: an IO row with unplaced blank columns
 * that no CSV line placed is refused; the file tests of a bonnie++ 1.98+
 * table that no CSV line corrected are dropped (the IO rows are kept) with
 * a warning naming the file row. */
static int
settle_tables(text_ctx *c)
{
    guint i;
    size_t j, k;

    for (i = 0; i < c->tables->len; i++) {
        table_run *tr = g_ptr_array_index(c->tables, i);

        if (tr->claimed)
            continue;
        if (tr->unplaced) {
            c->pos.line = tr->line;
            return vdc_import_fail(&c->pos, "this row has %u value columns where 12 are "
                                   "expected: a blank column (bonnie++ -f) cannot be placed once "
                                   "blanks are collapsed: expected the row as bonnie++ printed "
                                   "it, or the CSV line bonnie++ prints after the table",
                                   g_strv_length(tr->unplaced));
        }
        if (tr->bad_file_rates) {
            vdc_error_kind(VDC_ERR_NONE, "warning: %s:%ld: bonnie++ %s misprints file-test rates "
                           "in its table (printf %%d of a double): the file tests of this row "
                           "are not imported (the CSV line bonnie++ prints after the table has "
                           "them); its IO tests are", c->pos.file, tr->file_line,
                           c->version ? c->version : ">= 1.98");
            for (j = k = 0; j < tr->run->n_samples; j++) {
                vdc_sample *s = tr->run->samples[j];

                if (vdc_test_lookup(s->test)->id >= VDC_TEST_SEQ_CREATE) {
                    vdc_sample_dispose(s);
                    g_free(s);
                } else {
                    tr->run->samples[k++] = s;
                }
            }
            tr->run->n_samples = k;
            tr->run->meta.files = (vdc_files_info){ VDC_INT_ABSENT, VDC_INT_ABSENT,
                                                    VDC_INT_ABSENT, VDC_INT_ABSENT,
                                                    VDC_INT_ABSENT };
            if (!k) {
                c->pos.line = tr->file_line;
                return vdc_import_fail(&c->pos, "bonnie++ %s misprints file-test rates in its "
                                       "table (printf %%d of a double) and this row has no IO "
                                       "test: expected the CSV line bonnie++ prints after the "
                                       "table", c->version ? c->version : ">= 1.98");
            }
        }
    }
    return 0;
}

int
vdc_import_text(vdc_result_set *rs, const char *data, size_t len,
                const char *file, int only, GPtrArray *labels)
{
    text_ctx c = { .pos = { .file = file, .line = 0 }, .rs = rs,
                   .only = only, .rows = ROWS_NONE, .labels = labels };
    const char *p = data, *end = data + len;
    int rc = -1;

    c.tables = g_ptr_array_new_with_free_func(table_run_free);
    c.dd = vdc_dd_new(rs, labels);
    g_queue_init(&c.awaiting_files);
    if (!len) {
        c.pos.line = 1;
        vdc_import_fail(&c.pos, "empty file: expected agent JSON, bonnie++ CSV lines, a "
                        "bonnie/bonnie++ table or a dd transcript");
        goto out;
    }
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t l = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char *line, *raw;
        size_t i;

        c.pos.line++;
        if (l && p[l - 1] == '\r')
            l--;
        for (i = 0; i < l; i++) {
            unsigned char ch = (unsigned char)p[i];

            if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
                vdc_import_fail(&c.pos, "expected text, found binary data (byte 0x%02x)", ch);
                goto out;
            }
        }
        if (!g_utf8_validate(p, (gssize)l, NULL)) {
            vdc_import_fail(&c.pos, "expected UTF-8 text, found invalid bytes");
            goto out;
        }
        raw = g_strndup(p, l);
        {
            /* a web page's no-break spaces (U+00A0) are blanks */
            char *nb;

            while ((nb = strstr(raw, "\xc2\xa0"))) {
                *nb = ' ';
                memmove(nb + 1, nb + 2, strlen(nb + 2) + 1);
            }
        }
        if (raw[0] == '>') {
            /* a mail quote ("> ", ">> ", "> > "): the text behind it, its
             * columns kept (every line of a quoted table loses the same) */
            size_t q = 0;

            while (raw[q] == '>') {
                q++;
                if (raw[q] == ' ' && raw[q + 1] == '>')
                    q++;
            }
            if (raw[q] == ' ')
                q++;
            memmove(raw, raw + q, strlen(raw + q) + 1);
        }
        line = g_strstrip(g_strdup(raw));
        c.raw = raw;
        rc = text_line(&c, line);
        c.raw = NULL;
        g_free(line);
        g_free(raw);
        if (rc < 0)
            goto out;
        rc = -1;
        if (c.rs->n_runs > VDC_IMPORT_MAX_RUNS) {
            vdc_import_fail(&c.pos, "more than %d runs: expected at most %d runs per file",
                            VDC_IMPORT_MAX_RUNS, VDC_IMPORT_MAX_RUNS);
            goto out;
        }
        p = nl ? nl + 1 : end;
    }
    if (vdc_dd_flush(c.dd, &c.pos) < 0 || settle_wrapped(&c) < 0)
        goto out;
    if (c.pending_header) {
        vdc_import_fail(&c.pos, "the table header at line %ld has no data row: expected the "
                        "results line (file truncated?)", c.pending_header);
        goto out;
    }
    if (settle_tables(&c) < 0)
        goto out;
    if (!c.n_runs && !vdc_dd_n_runs(c.dd)) {
        vdc_import_fail(&c.pos, "no results found: expected bonnie++ CSV lines, a "
                        "bonnie/bonnie++ table or a dd transcript");
        goto out;
    }
    rc = c.n_runs + vdc_dd_n_runs(c.dd);
 out:
    g_free(c.version);
    g_free(c.file_host);
    g_free(c.label);
    g_free(c.block_first);
    g_free(c.block_label);
    g_free(c.wrap_raw);
    vdc_dd_free(c.dd);
    g_queue_clear(&c.awaiting_files);
    g_ptr_array_free(c.tables, TRUE);
    return rc;
}
