/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run record: proof, kept where only root writes, that a journal is
 * the one a run wrote, and the registry of live runs.
 *
 * A run's journal sits in its result directory, which others may be able
 * to write or copy; `cleanup` must not act on a journal somebody made up
 * (it names a live run's domain, another run's controller, a directory
 * vmdiskcmp never made).  So when a run creates its journal it also
 * writes STATE/RUNID (STATE: $VDC_STATE_DIR, else /var/lib/vmdiskcmp/runs;
 * the directory mode 0700, the record 0600, both owned by the effective
 * user, neither nor STATE's parent writable by group or others):
 *
 *   vmdiskcmp-run 1
 *   id=RUNID           the run id (the journal's run line says the same)
 *   journal=PATH       the journal's absolute path (realpath of its directory)
 *   dir=DEV:INO        the identity of the result directory (lstat)
 *   file=DEV:INO       the identity of the journal file as created
 *   pid=PID            the controller's pid,
 *   start=TICKS        its start (field 22 of /proc/PID/stat, clock ticks after boot)
 *   boot=BOOT_ID       and the boot (/proc/sys/kernel/random/boot_id)
 *
 * (values URI-escaped).  The run holds flock(LOCK_EX) on the record for its
 * lifetime (taken before the record has its name); a record whose lock is
 * held is a live run's.  The record goes when everything the journal lists
 * is gone (vdc_journal_dispose); what --keep left keeps it for `cleanup`.
 *
 * A journal is proven the run's when the record of its run id exists, is
 * root's, names this journal's path, and the directory and the file there
 * now are the ones the run made (their inodes as recorded): only root can
 * write a file root created 0644, so its contents are the run's.  A
 * journal moved, copied, replaced or written by hand is not proven, and
 * nothing it names is touched. */
#ifndef VDC_RUN_RUNREC_H
#define VDC_RUN_RUNREC_H

#include <stdint.h>
#include <sys/types.h>

#include <glib.h>

/* A record as read, or the one this process holds. */
typedef struct {
    int fd;                     /* -1: none held (its lock is held while >= 0) */
    char *path;                 /* STATE/RUNID */
    char *id, *journal, *dir, *file, *boot;
    pid_t pid;                  /* 0 unknown */
    uint64_t start;
} vdc_runrec;

void vdc_runrec_init(vdc_runrec *r);
/* Closes (releasing the lock; the file stays).  Safe twice. */
void vdc_runrec_dispose(vdc_runrec *r);

/* The directory of records: $VDC_STATE_DIR, else /var/lib/vmdiskcmp/runs.
 * Static string. */
const char *vdc_runrec_dir(void);

/* Write and lock the record of run @run_id for the journal at @journal
 * (which exists: its identity and its directory's are recorded), naming
 * this process.  STATE is made when missing (its parents 0755, itself
 * 0700) and checked.  0 (the lock held until vdc_runrec_dispose), or -1
 * after vdc_error (a record of that id exists: the id is taken). */
int vdc_runrec_create(vdc_runrec *r, const char *run_id, const char *journal);

/* Unlink the record this process holds (still locked), then dispose.
 * 0 or -1 (vdc_error). */
int vdc_runrec_remove(vdc_runrec *r);

/* Prove that the journal at @journal, whose run line names @run_id, is the
 * one that run wrote (see above), and take the record's lock without
 * waiting.  0: proven, the lock is ours until vdc_runrec_dispose; 1: the
 * record's lock is held: a live run's (@r filled for messages); -1 after
 * one vdc_input_error naming the journal and what did not match. */
int vdc_runrec_prove(vdc_runrec *r, const char *run_id, const char *journal);

/* The records of live runs (lock held by another process) in STATE, as
 * vdc_runrec * (fd -1), into a new array.  Never NULL; a missing STATE is
 * an empty array. */
GPtrArray *vdc_runrec_live(void);

/* Whether process @pid belongs to a live run: it, or one of its ancestors
 * (parent chain from /proc/PID/stat), is the controller of a record in
 * @live (pid and start time), or holds a descriptor on a live record or
 * on a locked file named "journal" (a run of an older vmdiskcmp, a record
 * kept elsewhere).  1 it does, with *@which (g_malloc) naming the run
 * ("run R (pid P)") when not NULL; 0 it does not or is gone. */
int vdc_runrec_proc_live(pid_t pid, GPtrArray *live, char **which);

/* Whether run id @run_id is the id of a record in @live.  1 or 0. */
int vdc_runrec_id_live(const char *run_id, GPtrArray *live);

#endif
