/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The undo journal: DIR/journal, one line per event, appended and fsynced
 * BEFORE each thing is created and marked done after, so a crash at any
 * point leaves a record of everything that may exist.  Teardown walks it in
 * reverse order; `vmdiskcmp cleanup DIR` replays it after a crash.
 *
 * Format (text, version 2; values URI-escaped, so no spaces inside):
 *   vmdiskcmp-journal 2
 *   run KEY=VALUE ...               the owner: id (the run id), pid, started
 *                                   (UTC, ISO 8601); once, before any add
 *   add SEQ KIND KEY=VALUE ...      before creating (SEQ from 1)
 *   done SEQ [KEY=VALUE ...]        after it was created, with the identity
 *                                   learnt then (its kind's keys)
 *   undone SEQ                      after it was removed (or found gone)
 *   kept SEQ                        left on purpose (--keep)
 * Kinds and keys: domain (driver, uri, name, uuid), image (path, ino; the
 * target description's where, format, alloc, image_backend: model/target.h
 * names), lv (vg, lv, tag), loop (file, dev, ino: the backing file's, by
 * which the device is found again, host/loopdev.h), mount (dir, source), dir
 * (path, ino), file (path, ino), proc (pid, start, exe, boot: a child's
 * process group, see common/child.h; undone once the group is gone), cgroup
 * (path: a memory cgroup's directory, vmdiskcmp-*, removed once empty), param
 * (path: blkback's parameter file, .../module/xen_blkback/parameters/NAME;
 * value: what it held before, written back).  ino is
 * "DEV:INO" (st_dev, st_ino of what was made, decimal); uuid the domain's
 * UUID; tag the LV's run tag.  A key may be absent (an image's description:
 * the defaults; an identity not known) or empty; unknown keys are ignored.
 * Version 1 journals (no run line, no identities, no pairs after done) load
 * too.
 *
 * Lock: the run holds flock(LOCK_EX) on the journal for its lifetime (taken
 * before the file has its name, so no reader ever sees it unlocked while
 * its run lives); cleanup takes it without waiting, so a journal whose lock
 * is held belongs to a live run and is left alone.  A lock dies with its
 * process: a journal left by a crash is free.  In memory every entry is
 * typed (vdc_journal_entry). */
#ifndef VDC_RUN_JOURNAL_H
#define VDC_RUN_JOURNAL_H

#include <sys/types.h>

#include <glib.h>

#include "model/target.h"
#include "run/runrec.h"

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
    VDC_JOURNAL_CGROUP,         /* "cgroup": a memory cgroup we make (host/memcg.h) */
    VDC_JOURNAL_PARAM,          /* "param": a module parameter we write (host/blkback.h):
                                 * @path, and @value, the one to write back */
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
    const char *uuid;                   /* domain: its UUID (given at create) */
    const char *path;                   /* image, dir, file, cgroup */
    const char *ino;                    /* image, dir, file: "DEV:INO" once made;
                                         * loop: its backing file's once attached */
    vdc_target_spec image;              /* image: its description (backing image) */
    const char *vg, *lv;                /* lv */
    const char *tag;                    /* lv: the run's tag on it */
    const char *file, *dev;             /* loop: backing file; device (when known) */
    const char *dir, *source;           /* mount */
    /* proc: the group's id (its leader's pid, decimal), the leader's start
     * (field 22 of /proc/PID/stat, clock ticks after boot, decimal) and
     * executable (readlink /proc/PID/exe): pid and start say it is the same
     * process, exe that it is ours */
    const char *pid, *start, *exe;
    const char *boot;                   /* proc: the kernel's boot id when it was
                                         * journaled (/proc/sys/kernel/random/boot_id) */
    const char *value;                  /* param: the value to restore (decimal) */
    int done, undone, kept;
} vdc_journal_entry;

typedef struct {
    int fd;                     /* -1 when closed or read-only */
    char *path;
    GPtrArray *entries;         /* vdc_journal_entry *, in seq order */
    /* the run line (NULL: a version 1 journal, or a live run's journal
     * read without its lock before the line was complete) */
    char *run_id, *owner_pid, *owner_started;
    /* the run record (runrec.h) this process holds: the run's own, made
     * by vdc_journal_create, or the one vdc_journal_prove checked */
    vdc_runrec rec;
} vdc_journal;

/* "domain", "image", "lv", "loop", "mount", "dir", "file", "proc", "cgroup",
 * "param"; NULL when @k is
 * none of them. */
const char *vdc_journal_kind_name(vdc_journal_kind k);

void vdc_journal_init(vdc_journal *j);
/* Closes; safe twice.  The run record held (@j->rec) is removed when every
 * entry is undone (nothing left that cleanup would need it for), else
 * kept, its lock released. */
void vdc_journal_dispose(vdc_journal *j);

/* Create @path (must not exist) locked (flock LOCK_EX, held until
 * vdc_journal_dispose), with the header and the run line naming @run_id
 * (NULL: none, tests), this process's pid and the time now.  The file is
 * written as PATH.new, locked, then linked to @path (refused when @path
 * exists), so it never has its name unlocked.  With @run_id, the run
 * record (runrec.h) is written and locked too: the proof `cleanup` asks
 * for.  0 or -1 (vdc_error). */
int vdc_journal_create(vdc_journal *j, const char *path, const char *run_id);

/* Load an existing journal (for cleanup) and open it for appending, after
 * taking its lock without waiting.  Malformed lines are refused with the
 * line number (untrusted input).  Returns 0 (loaded; the lock is ours
 * until vdc_journal_dispose), 1 when another process holds the lock: a live
 * run (only the run line is read, for messages: run_id, owner_pid,
 * owner_started; nothing else is loaded), or -1 (vdc_error). */
int vdc_journal_load(vdc_journal *j, const char *path);

/* Prove a loaded journal (vdc_journal_load returned 0) is the one its run
 * wrote, by the run record (vdc_runrec_prove), whose lock is then held in
 * @j->rec.  0 proven; 1 the record's lock is held (a live run); -1 after
 * one vdc_input_error (not proven: nothing it names may be touched). */
int vdc_journal_prove(vdc_journal *j);

/* Append "add" for @e (its kind and that kind's members; seq, done,
 * undone and kept are ignored): the line is written and fsynced, and a
 * copy of @e joins the journal.  Returns the entry's seq (> 0), or 0 after
 * vdc_error. */
unsigned vdc_journal_add(vdc_journal *j, const vdc_journal_entry *e);

/* Mark entry @seq done with the identity ("ino") of the file or directory
 * @path it made, or plainly done when @path cannot be read.  0 or -1. */
int vdc_journal_done_ino(vdc_journal *j, unsigned seq, const char *path);

/* mkdir @dir (@mode) for entry @seq (a "dir" entry added just before):
 * done with the directory's identity when this call made it; when it
 * exists already (made by someone else meanwhile) the entry is marked
 * undone, since it is not ours to remove.  0, or -1 after vdc_error. */
int vdc_journal_mkdir(vdc_journal *j, unsigned seq, const char *dir, mode_t mode);

/* Mark entry @seq done / undone / kept (fsynced).  0 or -1. */
int vdc_journal_done(vdc_journal *j, unsigned seq);
/* Mark entry @seq done recording one identity @key=@value learnt at
 * creation (a key of the entry's kind: "ino", "uuid"; the value replaces
 * what the add line said).  0 or -1. */
int vdc_journal_done_ident(vdc_journal *j, unsigned seq, const char *key, const char *value);
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

/* The "ino" identity of @path as it is now ("DEV:INO", lstat: a symlink
 * is itself), or NULL when it cannot be read.  Newly allocated. */
char *vdc_journal_ino_of(const char *path);

/* Whether @path is still the object an entry recorded as @ino: 1 it is,
 * 0 something else has that name now, -1 nothing has (ENOENT). */
int vdc_journal_ino_check(const char *ino, const char *path);

/* Number of entries neither undone nor kept. */
size_t vdc_journal_pending(const vdc_journal *j);

#endif
