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
 * The tables are read by bonnie_table.c, a CSV line claiming a table by
 * bonnie_claim.c, dd transcripts by dd.c; this file reads the lines, the
 * prose and the label lines (groups) between them.
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

/* Append a run (target named later by import.c) with the label in force. */
vdc_run *
vdc_text_add_run(vdc_text_ctx *c)
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

/* A sentence, not a heading: a greeting ("Hi list, here are my numbers on
 * the Dell, LV first", "Hello:", "Regards,"), or at least 8 words outside
 * parentheses with a comma or a full stop among them. */
static int
sentence_line(const char *line, char **tok, guint n)
{
    static const char *const greetings[] = {
        "hi", "hello", "hey", "dear", "thanks", "thank", "regards", "cheers", "greetings", NULL,
    };
    g_autofree char *first = n ? g_ascii_strdown(tok[0], -1) : NULL;
    size_t fl = first ? strlen(first) : 0;
    int depth = 0, punct = 0, words = 0;
    const char *p;
    guint i;

    while (fl && strchr(",:!.", first[fl - 1]))
        first[--fl] = '\0';
    if (first && g_strv_contains(greetings, first))
        return 1;
    for (p = line; *p; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')' && depth)
            depth--;
        else if (!depth && (*p == ',' || *p == '.') && (p[1] == ' ' || !p[1]))
            punct = 1;
    }
    for (i = 0, depth = 0; i < n; i++) {
        if (!depth && tok[i][0] != '(')
            words++;
        depth += (int)(strchr(tok[i], '(') != NULL) - (int)(strchr(tok[i], ')') != NULL);
        if (depth < 0)
            depth = 0;
    }
    return punct && words >= 8;
}

/* A line of a shell script as pasted ("for bs in 8K 1M; do", "done",
 * "echo \"--- bs=$bs ---\"", "f=/var/tmp/f", "rm -f $f"): never a heading. */
static int
shell_line(const char *line, char **tok, guint n)
{
    static const char *const words[] = {
        "for", "while", "until", "if", "then", "else", "elif", "fi", "do", "done", "case", "esac",
        "echo", "printf", "cd", "rm", "sync", "mkdir", "mount", "umount", "export", "sleep",
        "cat", "sudo", "time", "#!/bin/sh", "#!/bin/bash", "}", NULL,
    };
    const char *eq = n ? strchr(tok[0], '=') : NULL;

    if (!n)
        return 0;
    return g_strv_contains(words, tok[0]) || strstr(line, "$(") || strstr(line, "${") ||
           g_str_has_suffix(line, "; do") || g_str_has_suffix(line, "; then") ||
           g_str_has_suffix(line, "{") ||
           (eq && eq > tok[0] && n == 1);    /* "f=/var/tmp/f": an assignment */
}

/* A line that is neither a table line nor a CSV line nor dd output: prose
 * or a label.  Consecutive prose lines make a block.  A block of at most 3
 * lines of at most 80 characters whose first line has a letter, is not
 * mostly numbers (a df line) and is not a sentence (sentence_line) is a
 * heading: its first line names the
 * groups below it, until the next heading ("host 2 (ext2 defaults)";
 * "/dev/hda3 (ext2 with 4-KB block size)" above "cd /mnt; bonnie -s 256";
 * "Test 1 - disk image" above a paragraph and the table).  Paragraphs,
 * shell prompts and a command's output (the lines after a prompt) are
 * never headings and leave the label in force. */
static void
prose_line(vdc_text_ctx *c, const char *line, int in_paragraph)
{
    size_t n = strlen(line);
    const char *p;
    char **tok;
    guint nt;
    int letter = 0, prompt;

    c->prev_prose = 1;
    if (c->ram) {
        /* "128 MB RAM", `memory = "512"` (also in a command's output) */
        vdc_ram_statement st = { .line = c->pos.line };

        if (vdc_import_ram_statement(line, &st.mib, &st.scope, &st.text))
            g_ptr_array_add(c->ram, g_memdup2(&st, sizeof(st)));
    }
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
        c->block_ok = n <= 80 && letter && !prompt && 2 * vdc_table_n_value_like(tok, nt) < nt &&
                      !sentence_line(line, tok, nt) && !shell_line(line, tok, nt);
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

/* A short row waits (c->wrap_raw): does @line (@tok, @n) finish it?  A
 * mailer wraps a long row at a blank: the first part ends in a value, the
 * second is values only, and together they are one row of [machine] size
 * and 12 value/%CP columns.  Returns 1 joined and imported, 0 @line is not a
 * continuation (the short row is then a row with blank columns), -1 error. */
static int
join_wrapped(vdc_text_ctx *c, char **tok, guint n)
{
    guint n1, i;
    char **t1 = vdc_import_tokens(c->wrap_raw, &n1), **all;
    long here = c->pos.line;
    int rc;

    if (n >= 13 || vdc_table_n_value_like(tok, n) != n) {
        g_strfreev(t1);
        return 0;
    }
    if (n1 + n == 13 || (n1 + n == 14 && !vdc_table_value_like(t1[0]))) {
        all = g_new0(char *, n1 + n + 1);
        for (i = 0; i < n1; i++)
            all[i] = t1[i];
        for (i = 0; i < n; i++)
            all[n1 + i] = tok[i];
        c->pos.line = c->wrap_line;
        c->raw = "";
        rc = vdc_table_data_row(c, all, n1 + n);
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
settle_wrapped(vdc_text_ctx *c)
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
    rc = vdc_table_data_row(c, tok, n);
    c->pos.line = here;
    c->raw = raw;
    g_strfreev(tok);
    g_clear_pointer(&c->wrap_raw, g_free);
    return rc;
}

static int
text_line(vdc_text_ctx *c, const char *line)
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
            if (r == 1)
                c->after_prompt = 0;    /* dd's output; a loop's command is a script's line */
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
        return vdc_text_csv_line(c, line);
    }
    tok = vdc_import_tokens(line, &n);
    if (!n)
        goto out;
    /* progress on stderr, captured with 2>&1: bonnie++ ("Using uid:0,
     * gid:0.", "Writing intelligently...done") and bonnie 1.x ("File
     * './Bonnie.1234', size: 268435456", "Seeker 1...Seeker 2...start 'em...") */
    if (strstr(line, "...done") || g_str_has_prefix(line, "Using uid:") ||
        (g_str_has_prefix(line, "File '") && strstr(line, "', size: ")) ||
        (g_str_has_prefix(line, "Seeker 1...") && strstr(line, "start 'em")))
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
    if (vdc_table_header_line(c, line, tok, n)) {
        if (!c->pending_header)
            c->pending_header = c->pos.line;
        goto out;
    }
    if (!strcmp(tok[0], "Latency")) {
        rc = vdc_table_latency_row(c, tok, n);
        goto out;
    }
    if (c->rows == ROWS_NONE && n >= 13 && 2 * vdc_table_n_value_like(tok, n) >= n) {
        rc = vdc_import_fail(&c->pos, "this looks like a table row, but no column header "
                             "(Machine ... K/sec %%CP ...) is above it: expected a bonnie++ CSV "
                             "line, a whole bonnie/bonnie++ table or a dd transcript");
        goto out;
    }
    if (c->rows == ROWS_NONE || 2 * vdc_table_n_value_like(tok, n) < n) {
        /* prose or a label line (also between the rows of a table) */
        prose_line(c, line, para);
        goto out;
    }
    c->pending_header = 0;
    if (n < 13 && c->rows != ROWS_FILE) {
        const char *slots[12];
        guint size_idx;

        if (c->rows == ROWS_IO && vdc_table_place_row(c, tok, n, slots, &size_idx) == 0) {
            rc = vdc_table_io_row_values(c, tok, size_idx, slots, 0);
            goto out;
        }
        /* perhaps wrapped by a mailer: decide on the next line */
        c->wrap_raw = g_strdup(c->raw);
        c->wrap_line = c->pos.line;
        goto out;
    }
    rc = vdc_table_data_row(c, tok, n);
 out:
    g_strfreev(tok);
    return rc;
}

int
vdc_import_text(vdc_result_set *rs, const char *data, size_t len,
                const char *file, int only, GPtrArray *labels, GPtrArray *ram)
{
    vdc_text_ctx c = { .pos = { .file = file, .line = 0 }, .rs = rs,
                   .only = only, .rows = ROWS_NONE, .labels = labels, .ram = ram };
    const char *p = data, *end = data + len;
    int rc = -1;

    c.tables = g_ptr_array_new_with_free_func(vdc_table_run_free);
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
    if (vdc_text_settle_tables(&c) < 0)
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
