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
} vdc_import_format;

/* At most this many runs from one bonnie++ text file: a real file holds a
 * few (bonnie++ -x N); appending a run counts the target's runs, so a
 * 200 000-line file took 10 minutes and 6 GiB before this limit. */
#define VDC_IMPORT_MAX_RUNS 10000

/* Parse a --format argument: auto, json, text, csv, table.  Returns 0 or
 * -1 (no message). */
int vdc_import_format_parse(const char *s, vdc_import_format *out);

/* Import @len bytes named @file (used in messages and in each run's
 * metadata.source.file) and append its runs to @rs.
 * @target: the target every imported run is given (required for text
 * formats; for JSON, NULL keeps the runs' own target names).  A target
 * object of kind "imported" is added when @rs has none of that name.
 * On error @rs is unchanged.  Returns the number of runs imported (>= 1),
 * or -1 after one vdc_error message. */
int vdc_import_data(vdc_result_set *rs, const char *data, size_t len,
                    const char *file, const char *target, vdc_import_format fmt);

/* Same, reading @path ("-" = standard input, named "(stdin)"). */
int vdc_import_file(vdc_result_set *rs, const char *path, const char *target,
                    vdc_import_format fmt);

#endif
