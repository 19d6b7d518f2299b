/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp importers: turn benchmark output into result sets (the model
 * of src/model/result.h, doc/result-format.md).  Formats (doc/importers.md
 * gives their sources and field lists):
 *
 *   vmdiskcmp-agent-json  a result document (the agent's --json output, or
 *                         any vmdiskcmp result file)
 *   bonnie++-csv-1.03     bonnie++ 1.0x CSV, 27 fields, no version field
 *   bonnie++-csv-1.96     bonnie++ 1.96/1.97 CSV, 48 fields, field 1 = "1.96"/"1.97"
 *   bonnie++-csv-1.98     bonnie++ 1.98..2.00a CSV, 50 fields, field 1 = "1.98"
 *   bonnie++-table        bonnie++ human-readable report (1.0x, 1.9x, 2.00a)
 *   bonnie-1.x-table      Tim Bray's classic bonnie 1.x report ("Machine MB ...")
 *   dd-records, dd-coreutils-5.3, dd-coreutils-8.25
 *                         `time dd ...` transcripts and dd summary lines (dd.c),
 *                         tests dd_read / dd_write / dd_copy keyed by block size
 *   fio-json, fio-json+   fio 3.x --output-format=json / json+ (fio_json.c):
 *                         workload_read / workload_write samples keyed by job
 *
 * Groups: a page that tables several machines or configurations gives one
 * target per group (vdc_group_by): by the label line above a table or
 * transcript ("host 2 (ext2 defaults)"), else by the machine name (bonnie
 * rows and CSV lines; a dd run's device, if= of a read, of= of a write).
 *
 * Text files may mix tables and CSV lines; CSV lines are recognised line by
 * line whatever their format.  A CSV line that follows a table claims that
 * table: the two must agree, and the run is imported once (from the CSV,
 * which has full precision and the untruncated machine name).
 *
 * "+++++" (the test ran under 0.5 s) becomes a sample with value null and
 * too_fast true: never 0, never dropped.  An empty field (test skipped,
 * e.g. bonnie++ -f) gives no sample.
 *
 * Errors: a file is imported whole or not at all; the first problem is
 * reported once as "FILE:LINE: what was expected" (JSON documents:
 * "FILE: JSON.PATH: what was expected") and the call returns -1.
 */
#ifndef VDC_IMPORT_IMPORT_H
#define VDC_IMPORT_IMPORT_H

#include <stddef.h>

#include "model/result.h"

typedef enum {
    VDC_IMPORT_AUTO,          /* JSON if the text starts with '{', else text */
    VDC_IMPORT_JSON,          /* result document only */
    VDC_IMPORT_TEXT,          /* bonnie++ CSV lines and bonnie/bonnie++ tables */
    VDC_IMPORT_CSV,           /* bonnie++ CSV lines only (any of the 3 formats) */
    VDC_IMPORT_TABLE,         /* bonnie++ / bonnie 1.x tables only */
    VDC_IMPORT_DD,            /* dd transcripts only (other lines are prose) */
    VDC_IMPORT_FIO,           /* fio 3.x --output-format=json / json+ (auto-detected
                               * as JSON whose first member is "fio version") */
} vdc_import_format;

/* How the runs of one text file become targets (--group-by). */
typedef enum {
    VDC_GROUP_MACHINE,        /* the label line above, else the machine name (default) */
    VDC_GROUP_LABEL,          /* the label line above only */
    VDC_GROUP_NONE,           /* everything into --target; a warning names the
                               * machines when there are several */
} vdc_group_by;

/* At most this many runs from one bonnie++ text file: a real file holds a
 * few (bonnie++ -x N); appending a run counts the target's runs, so a
 * 200 000-line file took 10 minutes and 6 GiB before this limit. */
#define VDC_IMPORT_MAX_RUNS 10000

/* --kind-map TEXT=KIND: a target whose name holds TEXT (case-insensitive)
 * is of KIND (image, lvm, block, dom0, imported). */
typedef struct {
    char *text;
    char *kind;
} vdc_kind_map_entry;

/* How text is imported, beyond the format and the target name. */
typedef struct {
    vdc_group_by group_by;                /* VDC_GROUP_MACHINE */
    const vdc_kind_map_entry *kind_map;   /* tried before the words of a name; borrowed */
    size_t n_kind_map;
    unsigned *kind_map_used;  /* NULL, or n_kind_map counters: the targets whose kind
                               * each entry decided (added to; borrowed) */
    int64_t ram_mib;         /* --ram: RAM of the machine a run ran in (a domU's, or a
                              * host's own), MiB; VDC_INT_ABSENT: what the page states */
    int64_t dom0_ram_mib;    /* --dom0-ram: dom0's RAM (a dom0 target's memory, and what
                              * can cache a domU image's blocks); VDC_INT_ABSENT: stated */
} vdc_import_options;

void vdc_import_options_init(vdc_import_options *o);

/* "TEXT=KIND" into @out (g_free its members); 0, or -1 (no message) when
 * there is no '=' or more than one, TEXT is empty or KIND is not one of
 * image, lvm, block, dom0, imported. */
int vdc_import_kind_map_parse(const char *arg, vdc_kind_map_entry *out);

/* 1 when target name @name holds @e's TEXT (any case), else 0. */
int vdc_import_kind_map_matches(const vdc_kind_map_entry *e, const char *name);

/* The kind the words of @name say (doc/importers.md, "Kinds and RAM"):
 * "dom0", "image", "lvm", "block", or NULL; *@why (g_free) gets what
 * decided it ("its name says 'disk image'", "its name is an LV's device
 * path (/dev/VG/LV)"), NULL with NULL. */
const char *vdc_import_kind_of_name(const char *name, char **why);

/* Parse a --format argument: auto, json, text, csv, table, dd, fio.  Returns 0
 * or -1 (no message). */
int vdc_import_format_parse(const char *s, vdc_import_format *out);

/* Parse a --group-by argument: machine, label, none.  0 or -1 (no message). */
int vdc_import_group_by_parse(const char *s, vdc_group_by *out);

/* Import @len bytes named @file (used in messages and in each run's
 * metadata.source.file) and append its runs to @rs.
 * @target: for JSON, the target every run is moved to (NULL keeps the
 * runs' own); for text, the name of a file with one group, the prefix
 * "TARGET/GROUP" of a file with several, and the name of runs that belong
 * to no group (NULL: such runs are an error).  @group_by: see
 * vdc_group_by (text only).  A target object of kind "imported" is added
 * when @rs has none of that name.  On error @rs is unchanged.  Returns the
 * number of runs imported (>= 1), or -1 after one message (bad input). */
int vdc_import_data_grouped(vdc_result_set *rs, const char *data, size_t len,
                            const char *file, const char *target, vdc_import_format fmt,
                            vdc_group_by group_by);

/* vdc_import_data_grouped with VDC_GROUP_MACHINE. */
int vdc_import_data(vdc_result_set *rs, const char *data, size_t len,
                    const char *file, const char *target, vdc_import_format fmt);

/* vdc_import_data_grouped with the options @o (NULL: vdc_import_options_init's).
 * The text formats also describe the targets they create (kind from their
 * names and --kind-map, where they ran, their RAM from --ram, --dom0-ram or
 * what the page states), recorded in targets[].provenance and said as
 * progress lines. */
int vdc_import_data_with(vdc_result_set *rs, const char *data, size_t len, const char *file,
                         const char *target, vdc_import_format fmt, const vdc_import_options *o);
int vdc_import_file_with(vdc_result_set *rs, const char *path, const char *target,
                         vdc_import_format fmt, const vdc_import_options *o);

/* After every file: a target described as a machine's own disk (where
 * host) is a domU's when the whole set has a dom0 or an image target (its
 * file had none); --dom0-ram then applies to it. */
void vdc_import_settle_where(vdc_result_set *rs, const vdc_import_options *o);

/* Same, reading @path ("-" = standard input, named "(stdin)"). */
int vdc_import_file_grouped(vdc_result_set *rs, const char *path, const char *target,
                            vdc_import_format fmt, vdc_group_by group_by);
int vdc_import_file(vdc_result_set *rs, const char *path, const char *target,
                    vdc_import_format fmt);

/* Whether `import -o OUT` may replace OUT, whose @len bytes are @data: only
 * an earlier import's output (doc/importers.md, "Output"), never measured
 * data or another command's file.  An import's output is a result document
 * (format "vmdiskcmp-result") of producer "vmdiskcmp", without the
 * "statistics" a report adds (report.json), whose runs all say which file
 * and format they were imported from (runs[].metadata.source, which every
 * importer writes and nothing else does: a run's result.json, the agent's
 * answer, a merge of runs hold none).  NULL when OUT may be replaced; else
 * what OUT is, a phrase for the refusal ("the result of a vmdiskcmp run
 * (experiment 2026-...): measured data"; g_free).  Pure: no message. */
char *vdc_import_output_refusal(const char *data, size_t len);

#endif
