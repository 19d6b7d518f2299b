/* The undo journal: DIR/journal, one line per event, appended and fsynced
 * BEFORE each thing is created and marked done after, so a crash at any
 * point leaves a record of everything that may exist.  Teardown walks it in
 * reverse order; `vmdiskcmp cleanup DIR` replays it after a crash.
 *
 * Format (text, version 1; values URI-escaped, so no spaces inside):
 *   vmdiskcmp-journal 1
 *   add SEQ KIND KEY=VALUE ...      before creating (SEQ from 1)
 *   done SEQ                        after it was created
 *   undone SEQ                      after it was removed (or found gone)
 *   kept SEQ                        left on purpose (--keep)
 * Kinds and keys: domain (driver, uri, name), image (path), lv (vg, lv),
 * loop (dev, file), mount (dir, source), dir (path), file (path). */
#ifndef VDC_RUN_JOURNAL_H
#define VDC_RUN_JOURNAL_H

#include <glib.h>

typedef struct {
    unsigned seq;
    char *kind;
    GHashTable *kv;             /* key -> value (owned) */
    int done, undone, kept;
} vdc_journal_entry;

typedef struct {
    int fd;                     /* -1 when closed or read-only */
    char *path;
    GPtrArray *entries;         /* vdc_journal_entry *, in seq order */
} vdc_journal;

void vdc_journal_init(vdc_journal *j);
void vdc_journal_dispose(vdc_journal *j);    /* closes; safe twice */

/* Create @path (must not exist) and write the header.  0 or -1 (vdc_error). */
int vdc_journal_create(vdc_journal *j, const char *path);

/* Load an existing journal (for cleanup) and open it for appending.
 * Malformed lines are refused with the line number (untrusted input).
 * 0 or -1 (vdc_error). */
int vdc_journal_load(vdc_journal *j, const char *path);

/* Append "add": KEY, VALUE pairs, NULL-terminated.  fsync before return.
 * Returns the entry's seq (> 0), or 0 after vdc_error. */
unsigned vdc_journal_add(vdc_journal *j, const char *kind, ...) G_GNUC_NULL_TERMINATED;

/* Mark entry @seq done / undone / kept (fsynced).  0 or -1. */
int vdc_journal_done(vdc_journal *j, unsigned seq);
int vdc_journal_undone(vdc_journal *j, unsigned seq);
int vdc_journal_kept(vdc_journal *j, unsigned seq);

vdc_journal_entry *vdc_journal_find(vdc_journal *j, unsigned seq);
const char *vdc_journal_get(const vdc_journal_entry *e, const char *key);

/* Undo one entry: return 0 when the thing is gone (removed now, or not
 * there), -1 after vdc_error when it could not be removed. */
typedef int (*vdc_undo_fn)(const vdc_journal_entry *e, void *opaque);

/* Tear down: every entry neither undone nor kept, newest first, through
 * @fn; entries @fn removed are marked undone.  Entries of kinds in
 * @keep_kinds (NULL-terminated, or NULL) are marked kept instead (--keep).
 * Goes on after a failure; returns 0 when everything is gone, else -1.
 * Idempotent: a second call finds nothing left to do. */
int vdc_journal_teardown(vdc_journal *j, vdc_undo_fn fn, void *opaque,
                         const char *const *keep_kinds);

/* Number of entries neither undone nor kept. */
size_t vdc_journal_pending(const vdc_journal *j);

#endif
