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
 * Kinds and keys: domain (driver, uri, name), image (path; the target
 * description's where, format, alloc, image_backend: model/target.h names),
 * lv (vg, lv), loop (file, dev), mount (dir, source), dir (path), file
 * (path), proc (pid, start, exe: a child's process group, see
 * common/child.h; undone once the group is gone).  A key may be absent (an image's description: the defaults) or
 * empty; unknown keys are ignored, so every version 1 journal, from any
 * build, loads.  In memory every entry is typed (vdc_journal_entry). */
#ifndef VDC_RUN_JOURNAL_H
#define VDC_RUN_JOURNAL_H

#include <glib.h>

#include "model/target.h"

/* What an entry records; its name in the file is the word after "add SEQ". */
typedef enum {
    VDC_JOURNAL_DOMAIN,         /* "domain": a domU we create */
    VDC_JOURNAL_IMAGE,          /* "image": an image file we create */
    VDC_JOURNAL_LV,             /* "lv": an LV we create */
    VDC_JOURNAL_LOOP,           /* "loop": a loop device we attach over @file */
    VDC_JOURNAL_MOUNT,          /* "mount": a filesystem we mount on @dir */
    VDC_JOURNAL_DIR,            /* "dir": a directory we make */
    VDC_JOURNAL_FILE,           /* "file": a file we write (a control disk) */
    VDC_JOURNAL_PROC,           /* "proc": a child's process group we start */
} vdc_journal_kind;

/* A set of kinds (vdc_journal_teardown's @keep). */
#define VDC_JOURNAL_KIND_BIT(k) (1u << (k))

/* One entry.  The members of its kind are set (NULL when the line lacked
 * the key); the others are NULL.  Strings of entries in a journal are the
 * journal's own copies. */
typedef struct {
    unsigned seq;
    vdc_journal_kind kind;
    const char *driver, *uri, *name;    /* domain */
    const char *path;                   /* image, dir, file */
    vdc_target_spec image;              /* image: its description (backing image) */
    const char *vg, *lv;                /* lv */
    const char *file, *dev;             /* loop: backing file; device (when known) */
    const char *dir, *source;           /* mount */
    /* proc: the group's id (its leader's pid, decimal), the leader's start
     * (field 22 of /proc/PID/stat, clock ticks after boot, decimal) and
     * executable (readlink /proc/PID/exe): pid and start say it is the same
     * process, exe that it is ours */
    const char *pid, *start, *exe;
    int done, undone, kept;
} vdc_journal_entry;

typedef struct {
    int fd;                     /* -1 when closed or read-only */
    char *path;
    GPtrArray *entries;         /* vdc_journal_entry *, in seq order */
} vdc_journal;

/* "domain", "image", "lv", "loop", "mount", "dir", "file", "proc"; NULL when @k is
 * none of them. */
const char *vdc_journal_kind_name(vdc_journal_kind k);

void vdc_journal_init(vdc_journal *j);
void vdc_journal_dispose(vdc_journal *j);    /* closes; safe twice */

/* Create @path (must not exist) and write the header.  0 or -1 (vdc_error). */
int vdc_journal_create(vdc_journal *j, const char *path);

/* Load an existing journal (for cleanup) and open it for appending.
 * Malformed lines are refused with the line number (untrusted input).
 * 0 or -1 (vdc_error). */
int vdc_journal_load(vdc_journal *j, const char *path);

/* Append "add" for @e (its kind and that kind's members; seq, done,
 * undone and kept are ignored): the line is written and fsynced, and a
 * copy of @e joins the journal.  Returns the entry's seq (> 0), or 0 after
 * vdc_error. */
unsigned vdc_journal_add(vdc_journal *j, const vdc_journal_entry *e);

/* Mark entry @seq done / undone / kept (fsynced).  0 or -1. */
int vdc_journal_done(vdc_journal *j, unsigned seq);
int vdc_journal_undone(vdc_journal *j, unsigned seq);
int vdc_journal_kept(vdc_journal *j, unsigned seq);

vdc_journal_entry *vdc_journal_find(vdc_journal *j, unsigned seq);

/* Undo one entry: return 0 when the thing is gone (removed now, or not
 * there), -1 after vdc_error when it could not be removed. */
typedef int (*vdc_undo_fn)(const vdc_journal_entry *e, void *opaque);

/* Tear down: every entry neither undone nor kept, newest first, through
 * @fn; entries @fn removed are marked undone.  Done entries of the kinds
 * in @keep (VDC_JOURNAL_KIND_BIT()s, or 0) are marked kept instead
 * (--keep).  Goes on after a failure; returns 0 when everything is gone,
 * else -1.  Idempotent: a second call finds nothing left to do. */
int vdc_journal_teardown(vdc_journal *j, vdc_undo_fn fn, void *opaque, unsigned keep);

/* Number of entries neither undone nor kept. */
size_t vdc_journal_pending(const vdc_journal *j);

#endif
