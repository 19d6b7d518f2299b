/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal to src/import: the text importer's shared pieces (bonnie++ CSV
 * lines, number and size tokens).  See import.h for the formats. */
#ifndef VDC_IMPORT_PRIV_H
#define VDC_IMPORT_PRIV_H

#include <stddef.h>

#include <glib.h>

#include "import/import.h"
#include "model/result.h"

/* Where we are, for "FILE:LINE: what was expected" messages. */
typedef struct {
    const char *file;
    long line;
} vdc_import_pos;

/* Print "vmdiskcmp: FILE:LINE: MESSAGE" once (bad input); returns -1. */
int vdc_import_fail(const vdc_import_pos *pos, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A number as bonnie prints it: digits with an optional fraction, no sign
 * and no exponent ("135.8", "6065").  Returns 0 or -1 (no message). */
int vdc_import_number(const char *tok, double *out);

/* The @n characters at @s as a count: 1 to 18 digits, nothing else.
 * Returns 0 or -1 (no message). */
int vdc_import_count(const char *s, size_t n, int64_t *out);

/* A file size as bonnie/bonnie++ print it: "2G", "10048M", "16M" or a bare
 * number of MiB ("256", bonnie 1.x and bonnie++ < 1.00).  Stores MiB. */
int vdc_import_size_mib(const char *tok, int64_t *mib);

/* A chunk size: "8192", "16k", "1m" (bytes, bonnie++ print_size units). */
int vdc_import_chunk(const char *tok, int64_t *bytes);

/* A bonnie++ latency: "5662us", "25ms", "3s"; stores microseconds. */
int vdc_import_latency(const char *tok, double *us);

/* A file-test spec of a 1.0x CSV line or any table: "16", "16:102400:0",
 * "16:102400:0/1024", "16:link", "16/64" into @files. */
int vdc_import_files_spec(const char *tok, vdc_files_info *files);

/* Does @line look like a CSV line (20 or more commas, or 3 or more and no
 * blanks)? */
int vdc_import_is_csv_line(const char *line);

/* Is @line a bonnie++ CSV header ("name,file_size,..." or
 * "format_version,bonnie_version,...")? */
int vdc_import_is_csv_header(const char *line);

/* Parse one bonnie++ CSV line (27, 48 or 50 fields, detected from the
 * line itself) into @run (freshly _init'ed), setting samples and metadata
 * (tool, hostname, sizes, seed, source.format; source.file/line are set by
 * the caller).  Returns 0, or -1 after vdc_import_fail. */
int vdc_import_csv_line(const char *line, const vdc_import_pos *pos, vdc_run *run);

/* Split @line on blanks (spaces, tabs) into a NULL-terminated vector
 * (g_strfreev) of *n tokens. */
char **vdc_import_tokens(const char *line, guint *n);

/* What RAM a page states, and for whom (describe.c). */
typedef enum {
    VDC_RAM_MACHINE,          /* "128 MB RAM": the machine's */
    VDC_RAM_DOMU,             /* a guest's config (memory = 512), "guest", "domU" */
    VDC_RAM_DOM0,             /* "dom0", "Dom0", dom0_mem= */
} vdc_ram_scope;

typedef struct {
    long line;
    int64_t mib;
    vdc_ram_scope scope;
    char *text;               /* the words around the statement */
} vdc_ram_statement;

void vdc_ram_statement_free(gpointer p);

/* Does @line state a RAM size ("128 MB RAM", "RAM was 128 MB", "5 GB of ram
 * available", `memory = "512"` of an xm config, libvirt's <memory>,
 * dom0_mem=1024M)?  1 with *@mib and *@scope (dom0 when the line names
 * dom0, a guest's for a config or a line naming a guest/domU/VM, else the
 * machine's) and *@text (g_free: the words around the statement, "...I
 * have 5 GB of ram available..."; @text may be NULL), else 0. */
int vdc_import_ram_statement(const char *line, int64_t *mib, vdc_ram_scope *scope, char **text);

/* Describe the targets of @tmp (one file's import, to be merged into @rs)
 * that @rs does not have yet: kind by --kind-map and the words of its name,
 * where (dom0; domU when @rs or @tmp has a dom0 or an image target; else
 * host), RAM from --ram/--dom0-ram or the one value @ram (vdc_ram_statement
 * *) states per scope; each with its provenance, each target said as a
 * progress line.  Returns 0. */
int vdc_import_describe(vdc_result_set *tmp, const vdc_result_set *rs, const char *file,
                        GPtrArray *ram, const vdc_import_options *o);

/* The text importer (tables, CSV lines, dd transcripts); @only: 0 = all,
 * 1 = CSV lines only, 2 = tables only, 3 = dd transcripts only.  Appends
 * runs to @rs (a scratch set) with an empty target: the caller names them
 * (import.c, by --group-by).  @labels gets one entry per run appended, in
 * order: the label line above it (g_strdup) or NULL; @ram (may be NULL)
 * one vdc_ram_statement per prose line that states a RAM size.  Returns the
 * number of runs, or -1. */
int vdc_import_text(vdc_result_set *rs, const char *data, size_t len,
                    const char *file, int only, GPtrArray *labels, GPtrArray *ram);

/* ---- dd transcripts (dd.c, dd_command.c, dd_output.c) ------------------------------ */
typedef struct vdc_dd_ctx vdc_dd_ctx;

/* One transcript being read (dd.c): the command, dd's output, the shell's
 * time. */
typedef struct {
    long line;                   /* its first line */
    int has_command;
    long command_line;
    char *command;               /* as typed, prompt removed */
    int timed;                   /* `time` before dd */
    int prompted;                /* a shell prompt before the command */
    char *in_file, *out_file;    /* if=, of= */
    int64_t bs, ibs, obs, count; /* -1 absent */
    char *conv, *iflag, *oflag, *status;
    int n_records;               /* records lines seen: 0, 1 (in), 2 (out) */
    int64_t in_full, in_part, out_full, out_part;
    int64_t truncated;
    int has_summary;
    long summary_line;
    int64_t bytes;
    double secs;                 /* NAN: not printed */
    const char *wording;         /* source.format */
    double real_s, user_s, sys_s;
    char *label;
    unsigned vars;               /* operands given as shell expansions ("bs=$bs", a
                                  * loop's command): VDC_DD_VAR_* bits */
    int is_template;             /* a command with such operands: the command of the
                                  * runs that follow it, not a run of its own */
    char *section;               /* the section or separator line in force when the
                                  * output began ("--- bs=8K / count=8K / 1 ---",
                                  * "READ (no cache bs=1M):"), NULL none */
    long section_line;
    vdc_test_id section_test;    /* what that section says was measured (READ,
                                  * WRITE), else VDC_TEST_UNKNOWN */
    char *error;                 /* dd's error line before or in the output ("dd:
                                  * error writing ...: No space left on device") */
    long error_line;
} vdc_dd_transcript;

/* vdc_dd_transcript.vars */
enum {
    VDC_DD_VAR_IF = 1u << 0, VDC_DD_VAR_OF = 1u << 1, VDC_DD_VAR_BS = 1u << 2,
    VDC_DD_VAR_IBS = 1u << 3, VDC_DD_VAR_OBS = 1u << 4, VDC_DD_VAR_COUNT = 1u << 5,
};

/* Is @line a dd command (dd_command.c)?  Returns 1 and fills @t's command
 * members (command, command_line, timed, prompted, if/of, sizes, flags), 0
 * when it is not one (prose naming dd), -1 after vdc_import_fail (a dd
 * command with an operand dd does not have, a size it cannot read). */
int vdc_dd_parse_command(const vdc_import_pos *pos, const char *line, vdc_dd_transcript *t);

/* dd's output (dd_output.c).  "N+M records in" in any language: 1 and the
 * counts, else 0. */
int vdc_dd_records_line(const char *line, int64_t *full, int64_t *part);
/* "N truncated records" after the records lines: 1 and @n, else 0. */
int vdc_dd_truncated_line(const char *line, int64_t *n);
/* The summary line, any wording ("BYTES bytes (SIZE[, SIZE]) copied, TIME
 * s, RATE"): 1 and @t's has_summary, summary_line, bytes, secs, wording; 0
 * not one; -1 after vdc_import_fail.  @strict: a transcript is in
 * progress, so a line of the right shape whose numbers disagree is an
 * error, not prose. */
int vdc_dd_summary_line(const vdc_import_pos *pos, const char *line, vdc_dd_transcript *t,
                        int strict);
/* The shell's time output (bash, time -p, GNU time, zsh): 1 and @t's
 * real_s, user_s, sys_s as printed; else 0. */
int vdc_dd_time_line(const char *line, vdc_dd_transcript *t);

/* A dd reader appending runs to @rs and one label per run to @labels. */
vdc_dd_ctx *vdc_dd_new(vdc_result_set *rs, GPtrArray *labels);
void vdc_dd_free(vdc_dd_ctx *d);

/* Offer one line (blanks stripped; not an empty one) to the dd reader, with
 * the label line in force (@label, may be NULL).  Returns 1 when the line
 * belongs to a dd transcript (a dd command, records, summary, the shell's
 * time output, dd's error line, a sweep separator such as "bs=8k", a
 * tool's section title such as "READ (no cache bs=1M):"), 2 for a loop's
 * dd command (operands such as bs=$bs: a line of a script, whose runs
 * follow), 0 when it does not (a transcript in progress is then complete
 * and its run appended), -1 after vdc_import_fail. */
int vdc_dd_line(vdc_dd_ctx *d, const vdc_import_pos *pos, const char *line, const char *label);

/* End of input: append the run of a transcript in progress.  0 or -1. */
int vdc_dd_flush(vdc_dd_ctx *d, const vdc_import_pos *pos);

/* Runs appended so far. */
int vdc_dd_n_runs(const vdc_dd_ctx *d);

/* A number as %g and human_readable print it in any locale ("1.92275",
 * "1,1", "2e-05"); 0 or -1. */
int vdc_import_dd_number(const char *s, double *out);

/* A dd size operand ("512", "8k", "1M", "1MB", "2x512"), bytes; 0 or -1. */
int vdc_import_dd_size(const char *s, int64_t *out);

/* ---- The text importer (text.c, bonnie_table.c, bonnie_claim.c) ------------------------ */

/* What the data rows under the current column header are. */
typedef enum {
    ROWS_NONE,      /* no column header seen: data rows are an error */
    ROWS_IO,        /* bonnie++ sequential/seek table */
    ROWS_FILE,      /* bonnie++ file create table */
    ROWS_BONNIE1,   /* bonnie 1.x table */
} vdc_rows_kind;

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
} vdc_table_run;

/* The text importer's state (text.c), shared with the table and claim
 * readers. */
typedef struct {
    vdc_import_pos pos;
    vdc_result_set *rs;
    int only;                     /* 0 all, 1 CSV only, 2 tables only, 3 dd only */
    vdc_rows_kind rows;
    char *version;                /* "1.03", "2.00a"; NULL = bonnie 1.x/unknown */
    char *file_host;              /* 2.00a: machine on the "-Create--" line */
    int io_header_new;            /* the IO column header was 1.98's "Name:Size etc" */
    int file_table_own;           /* the file table began with "Version V" (bonnie++
                                     itself, not bon_csv2txt) */
    GPtrArray *tables;            /* vdc_table_run *, in order */
    GQueue awaiting_files;        /* vdc_table_run * whose file row may follow */
    vdc_table_run *last_row;      /* for a "Latency" line */
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
    GPtrArray *ram;               /* vdc_ram_statement *: what prose lines state */
} vdc_text_ctx;

/* text.c: append a run (its target named later by import.c) with the
 * label in force. */
vdc_run *vdc_text_add_run(vdc_text_ctx *c);

/* bonnie_table.c: the table lines.  Each returns 0 or -1 after
 * vdc_import_fail unless said otherwise. */
void vdc_table_run_free(gpointer p);
/* A table value: "+++++", a number, and (@allow_suffix) a number with k, m
 * or g (K/sec x1, x1024, x1024^2) into @s; *@tol gets half its printed
 * precision. */
int vdc_table_value(vdc_text_ctx *c, const char *tok, const vdc_test_info *ti, int allow_suffix,
                    vdc_sample *s, double *tol);
/* A %CP: a number or "+++" (too fast) into @s. */
int vdc_table_cpu(vdc_text_ctx *c, const char *tok, const vdc_test_info *ti, vdc_sample *s);
/* Is @tok printed like a table value (a number with k, m or g, "+++++",
 * "+++")?  And how many of @tok's @n are. */
int vdc_table_value_like(const char *tok);
guint vdc_table_n_value_like(char **tok, guint n);
/* Place a row with blank columns under the IO column header by end
 * columns: @slots (12, "" = blank) and *@size_idx; 0, or -1 when it does
 * not fit (no message). */
int vdc_table_place_row(const vdc_text_ctx *c, char **tok, guint n, const char **slots,
                        guint *size_idx);
/* A row of [machine] size and the 12 value/%CP columns @vals. */
int vdc_table_io_row_values(vdc_text_ctx *c, char **tok, guint size_idx, const char *const *vals,
                            int bonnie1);
/* A data row under the current column header. */
int vdc_table_data_row(vdc_text_ctx *c, char **tok, guint n);
/* A "Latency" row: the latencies of the row above. */
int vdc_table_latency_row(vdc_text_ctx *c, char **tok, guint n);
/* A table header line: 1 if @line was one (and the state it sets), else 0. */
int vdc_table_header_line(vdc_text_ctx *c, const char *line, char **tok, guint n);

/* bonnie_claim.c: a CSV line, claiming the oldest unclaimed table run (or
 * a run of its own); and after the file, the table runs no CSV line
 * claimed (refused, or their misprinted file tests dropped with a warning). */
int vdc_text_csv_line(vdc_text_ctx *c, const char *line);
int vdc_text_settle_tables(vdc_text_ctx *c);

/* ---- fio JSON (fio_json.c) --------------------------------------------------------- */

/* Does @data start like fio's JSON output ('{' then the member "fio
 * version")?  1 or 0. */
int vdc_import_fio_detect(const char *data, size_t len);

/* fio 3.x `--output-format=json` / `json+` output: append one run per
 * target (by @group_by: machine = the job's filename, label = the job's
 * name, none = @target) to @rs (a scratch set), with workload samples.
 * Returns the number of runs, or -1 after one message naming the JSON path. */
int vdc_import_fio(vdc_result_set *rs, const char *data, size_t len, const char *file,
                   const char *target, vdc_group_by group_by);

#endif
