/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp result store: results that accumulate (doc/store.md).
 *
 * One SQLite database (libsqlite3) records every result.json it is given:
 * the experiment's facts (host, hypervisor and versions, kernel, disk, the
 * backend and cache read back per target, placement, settings), every
 * sample, and the headline rows the analysis decides for it
 * (report/analysis.h, computed once when the result is recorded).
 * result.json stays the source of truth: the store is written after it, in
 * one transaction, and `vmdiskcmp store add DIR...` rebuilds it from the
 * directories at any time.
 *
 *   results    one row per distinct result.json, keyed by the SHA-256 of its
 *              bytes: recording the same file twice adds nothing
 *   facts      (result, name, value): what a history step compares
 *   targets    per result and target: kind, backend and cache read back
 *   samples    per result, target, repetition and test key: the values
 *   headline   per result, headline pair and test: ratio, paired 95 %
 *              interval, p, Holm, verdict, effect class
 *   merges     a merge's member results with their host labels
 *
 * The file is marked as vmdiskcmp's (PRAGMA application_id
 * VDC_STORE_APPLICATION_ID) and versioned (PRAGMA user_version, migrated
 * by a table of steps in store.c).  A file that is not SQLite, a SQLite
 * database of another application, a store of a newer schema or a
 * damaged one (PRAGMA quick_check) is refused with one line naming it,
 * as bad input; vmdiskcmp never writes into a file it did not create.  A
 * new store is built under a temporary name beside it and linked into
 * place, so the name never holds a half-made store.
 *
 * Concurrency: writers take the write lock up front (BEGIN IMMEDIATE) and
 * wait up to VDC_STORE_BUSY_MS for another writer; two runs finishing
 * together both land.  The rollback journal is kept (no WAL: the store may
 * live on a shared filesystem beside the results).
 *
 * Errors: functions returning int give 0 or -1, pointers NULL, after one
 * message (common/util.h): vdc_input_error for a store that is refused,
 * vdc_error for a failure to read or write it. */
#ifndef VDC_STORE_STORE_H
#define VDC_STORE_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "model/result.h"

/* The store's file name beside the results ("results/vmdiskcmp.sqlite"). */
#define VDC_STORE_FILE "vmdiskcmp.sqlite"
/* PRAGMA application_id of a vmdiskcmp store: "VDCS" */
#define VDC_STORE_APPLICATION_ID 0x56444353
/* The schema this build writes (PRAGMA user_version); older stores are
 * migrated when opened, newer ones refused. */
#define VDC_STORE_SCHEMA_VERSION 2
/* How long a writer waits for another writer's transaction, ms. */
#define VDC_STORE_BUSY_MS 60000

typedef struct vdc_store vdc_store;

/* Open the store at @path.  With @create, a missing store is made (its
 * directory must exist); without, a missing store is bad input.  An
 * existing file must be a vmdiskcmp store (above); an older schema is
 * migrated.  NULL after one message. */
vdc_store *vdc_store_open(const char *path, int create);

/* Open or create the store at @path with the schema steps up to version
 * @upto only (tests of the migrations; 1 <= @upto <=
 * VDC_STORE_SCHEMA_VERSION).  An existing store is not migrated. */
vdc_store *vdc_store_open_version(const char *path, int upto);

void vdc_store_close(vdc_store *s);     /* NULL allowed */

/* PRAGMA user_version of the open store. */
int vdc_store_schema_version(vdc_store *s);

/* The path the store was opened with (borrowed). */
const char *vdc_store_path(const vdc_store *s);

/* Check, without writing anything, that @path can be the store: missing
 * with an existing directory to hold it, or an existing vmdiskcmp store
 * this build reads.  For a command that will record into it later (run,
 * merge, import) and must refuse a bad --store before it starts.  0, or
 * -1 after one vdc_input_error. */
int vdc_store_check_path(const char *path);

/* The default store of result directory (or result file) @result_path:
 * VDC_STORE_FILE in the directory that holds it ("results/ID" gives
 * "results/vmdiskcmp.sqlite").  g_free. */
char *vdc_store_default_path(const char *result_path);

/* What recorded a result. */
enum vdc_store_kind {
    VDC_STORE_KIND_RUN = 0,  /* vmdiskcmp's own run (the result has an experiment) */
    VDC_STORE_KIND_IMPORT,   /* imported numbers (no experiment) */
    VDC_STORE_KIND_MERGE,    /* a fleet merge (vmdiskcmp merge's result.json) */
};
/* "run", "import", "merge" */
const char *vdc_store_kind_name(enum vdc_store_kind k);

/* One result to record. */
struct vdc_store_item {
    const vdc_result_set *rs;    /* loaded by the model's loader */
    const char *sha256;          /* hex SHA-256 of the result.json bytes */
    const char *source;          /* the directory or file it came from */
    const char *host;            /* the host label (a fleet's host directory
                                  * name); NULL: experiment.host.hostname, else
                                  * the first run's metadata.hostname */
    enum vdc_store_kind kind;
};

/* Record @items (n of them) and, when @merge is not NULL, the merge they
 * belong to (its members: @items with their host labels), in one
 * transaction: all or nothing.  A result already there (same SHA-256) is
 * not added again; its merge membership is.  Each new result gets its
 * facts, targets, samples and its headline rows (the analysis with the
 * report's defaults).  *@added (may be NULL) gets the number of new
 * results.  0, or -1 after one message (the store unchanged). */
int vdc_store_add(vdc_store *s, const struct vdc_store_item *items, size_t n,
                  const struct vdc_store_item *merge, size_t *added);

/* Load @path (a result directory, its result.json, or a result JSON file)
 * into @rs (freshly _init'ed) and its bytes' SHA-256 into *@sha256
 * (g_free).  *@is_merge (may be NULL) is 1 when the directory holds a
 * merge's fleet.json.  Loader errors are bad input.  0 or -1. */
int vdc_store_load_result(const char *path, vdc_result_set *rs, char **sha256, int *is_merge);

/* Record result directory @dir (its result.json), or the result file @dir
 * (what import writes), as @kind into the store
 * at @store_path (created when missing): the one call a command makes
 * after its result.json is complete.  On failure the store is unchanged
 * and a warning says that result.json is complete and how to record it
 * later; the command's own result stands.  0 or -1. */
int vdc_store_record(const char *store_path, const char *dir, enum vdc_store_kind kind);

/* ---- Reading ------------------------------------------------------------- */

/* One recorded result, as `vmdiskcmp store list` prints it. */
struct vdc_store_entry {
    int64_t id;
    char *sha256, *kind, *run_id, *host, *date, *source, *added;
    int emulated;                /* tri-state */
    int64_t n_samples, n_headline;
};

/* Every recorded result, oldest date first, into *@out (*@n of them;
 * free with vdc_store_entries_free).  0 or -1. */
int vdc_store_list(vdc_store *s, struct vdc_store_entry **out, size_t *n);
void vdc_store_entries_free(struct vdc_store_entry *e, size_t n);

/* The raw sqlite3 handle (for the history and export queries of this
 * folder; never for callers outside src/store). */
struct sqlite3 *vdc_store_db(vdc_store *s);

#endif
