/* SPDX-License-Identifier: GPL-2.0-or-later */
/* bonnie/bonnie++ tables: the header lines, the IO and file rows (a row
 * with blank columns placed by the column header's end columns), the
 * "Latency" rows, and the runs they make, until a CSV line claims them
 * (bonnie_claim.c).  Read line by line by text.c; layouts and sources in
 * doc/importers.md ("bonnie++ tables", "bonnie 1.x tables"). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "import/import.h"
#include "import/import_priv.h"

void
vdc_table_run_free(gpointer p)
{
    vdc_table_run *tr = p;

    g_strfreev(tr->unplaced);
    g_free(tr);
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

static vdc_table_run *
table_new_run(vdc_text_ctx *c, const char *format)
{
    vdc_table_run *tr = g_new0(vdc_table_run, 1);
    char *tool;

    tr->run = vdc_text_add_run(c);
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
int
vdc_table_value(vdc_text_ctx *c, const char *tok, const vdc_test_info *ti, int allow_suffix,
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

int
vdc_table_cpu(vdc_text_ctx *c, const char *tok, const vdc_test_info *ti, vdc_sample *s)
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
table_values(vdc_text_ctx *c, char **tok, vdc_test_id first, int allow_suffix, vdc_table_run *tr)
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
        if (vdc_table_value(c, tok[2 * i], ti, allow_suffix && ti->id != VDC_TEST_SEEKS, s,
                        &tr->tol[ti->id]) < 0 ||
            vdc_table_cpu(c, tok[2 * i + 1], ti, s) < 0)
            return -1;
    }
    return 0;
}

/* "2G", "16M:8k:...": size[:chunk[:...]] (the rest differs between
 * bonnie++ and bon_csv2txt and is not read) */
static int
table_size(vdc_text_ctx *c, const char *tok, int bare_mb, vdc_run_meta *m)
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
int
vdc_table_value_like(const char *tok)
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
int
vdc_table_place_row(const vdc_text_ctx *c, char **tok, guint n, const char **slots, guint *size_idx)
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
int
vdc_table_io_row_values(vdc_text_ctx *c, char **tok, guint size_idx, const char *const *vals, int bonnie1)
{
    vdc_table_run *tr;
    char *host;

    tr = table_new_run(c, bonnie1 ? "bonnie-1.x-table" : "bonnie++-table");
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
io_row_unplaced(vdc_text_ctx *c, char **tok, guint n)
{
    vdc_table_run *tr = table_new_run(c, "bonnie++-table");
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
    c->last_row = tr;           /* for its "Latency" line */
    c->last_row_file = 0;
    return 0;
}

static int
io_row(vdc_text_ctx *c, char **tok, guint n, int bonnie1)
{
    const char *slots[12];
    guint size_idx;

    if (n >= 13)
        return vdc_table_io_row_values(c, tok, n - 13, (const char *const *)tok + n - 12, bonnie1);
    if (vdc_table_place_row(c, tok, n, slots, &size_idx) == 0)
        return vdc_table_io_row_values(c, tok, size_idx, slots, bonnie1);
    if (bonnie1)
        return vdc_import_fail(&c->pos, "expected [machine] size and 12 value/%%CPU columns, "
                               "found %u columns in all", n);
    return io_row_unplaced(c, tok, n);
}

static int
file_row(vdc_text_ctx *c, char **tok, guint n)
{
    vdc_table_run *tr = NULL;
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
        tr = table_new_run(c, "bonnie++-table");
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

/* The latency slot (0-5) of each value of a "Latency" row that keeps
 * bonnie++'s spacing ("Latency" then " %9s" per test, blank for a test not
 * run: the value of slot k ends 26 + 10 k columns after the start of
 * "Latency"), into @slot; 0, or -1 when the spacing does not fit. */
static int
latency_slots(const vdc_text_ctx *c, guint n, int *slot)
{
    int ends[16];
    guint ne = c->raw ? token_ends(c->raw, ends, G_N_ELEMENTS(ends)) : 0, i;
    int start;

    if (ne != n || n < 2)
        return -1;
    start = ends[0] - 6;
    for (i = 1; i < n; i++) {
        int k = (ends[i] - start - 26 + 5) / 10;

        if (k < 0 || k > 5 || abs(ends[i] - (start + 26 + 10 * k)) > 1 ||
            (i > 1 && k <= slot[i - 2]))
            return -1;
        slot[i - 1] = k;
    }
    return 0;
}

/* The latencies of the row above: six, or one per test that row has
 * (bonnie++ prints a blank for a test not run, e.g. per-char with -f): by
 * their columns when the spacing is kept, else in the order of the row's
 * tests.  For a row whose blank columns wait for the CSV line (collapsed),
 * the count is checked and the CSV line gives them. */
int
vdc_table_latency_row(vdc_text_ctx *c, char **tok, guint n)
{
    vdc_test_id first = c->last_row_file ? VDC_TEST_SEQ_CREATE : VDC_TEST_PUTC;
    vdc_table_run *tr = c->last_row;
    int slot[6], has[6] = { 0 };
    guint i, n_tests = 0;
    size_t j;

    if (!tr)
        return vdc_import_fail(&c->pos, "expected a table data row before this 'Latency' line");
    c->last_row = NULL;
    for (i = 0; i < 6; i++) {
        for (j = 0; j < tr->run->n_samples; j++)
            if (!strcmp(tr->run->samples[j]->test, vdc_tests[first + i].name))
                has[i] = 1;
        n_tests += has[i];
    }
    if (tr->unplaced) {
        n_tests = g_strv_length(tr->unplaced) / 2;
        if (n - 1 != n_tests && n != 7)
            return vdc_import_fail(&c->pos, "expected 'Latency' and one latency per test of the "
                                   "row at line %ld (%u), found %u latencies", tr->line, n_tests,
                                   n - 1);
        return 0;        /* the CSV line that places the row has them */
    }
    if (n == 7) {
        for (i = 0; i < 6; i++)
            slot[i] = (int)i;
    } else if (latency_slots(c, n, slot) < 0) {
        if (n - 1 != n_tests)
            return vdc_import_fail(&c->pos, "expected 'Latency' and 6 latencies, or one per test "
                                   "of the row above (%u), found %u latencies: expected the "
                                   "row as bonnie++ printed it, or import its CSV line", n_tests,
                                   n - 1);
        for (i = 0, j = 0; i < 6; i++)
            if (has[i])
                slot[j++] = (int)i;
    }
    for (i = 0; i + 1 < n; i++) {
        const vdc_test_info *ti = &vdc_tests[first + slot[i]];
        double us;

        if (vdc_import_latency(tok[i + 1], &us) < 0)
            return vdc_import_fail(&c->pos, "%s latency: expected a number with unit us, ms "
                                   "or s, found '%.30s'", ti->name, tok[i + 1]);
        for (j = 0; j < tr->run->n_samples; j++)
            if (!strcmp(tr->run->samples[j]->test, ti->name))
                tr->run->samples[j]->latency_us = us;
    }
    return 0;
}

static int
contains(const char *hay, const char *needle)
{
    return strstr(hay, needle) != NULL;
}

/* Header lines; returns 1 if @line was one. */
int
vdc_table_header_line(vdc_text_ctx *c, const char *line, char **tok, guint n)
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
guint
vdc_table_n_value_like(char **tok, guint n)
{
    guint i, k = 0;

    for (i = 0; i < n; i++)
        k += vdc_table_value_like(tok[i]);
    return k;
}

/* A data row under the current column header (@tok, @n). */
int
vdc_table_data_row(vdc_text_ctx *c, char **tok, guint n)
{
    switch (c->rows) {
    case ROWS_IO: return io_row(c, tok, n, 0);
    case ROWS_BONNIE1: return io_row(c, tok, n, 1);
    case ROWS_FILE: return file_row(c, tok, n);
    default: return 0;
    }
}
