/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Undoing what a run made, entry by entry of its journal (run/journal.h),
 * shared by the run's own teardown and `vmdiskcmp cleanup`; and cleanup
 * itself.  Each handler is idempotent (a thing already gone is success)
 * and checks the thing is still ours before removing it (loop: the backing
 * file's identity; mount: the same source; LV: our tags, checked by the
 * storage code; domain: its UUID; image, file, directory: the inode
 * recorded when it was made; proc: the group leader's pid, start time and
 * executable). */
#ifndef VDC_RUN_UNDO_H
#define VDC_RUN_UNDO_H

#include <glib.h>

#include "run/env.h"
#include "run/journal.h"

/* Undo one journal entry with @env's handlers (a vdc_run_env *): domain
 * (via the hypervisor driver named in the entry, or @env's), image/lv
 * (storage), loop, mount, dir, file, proc.  0 when the thing is gone, -1
 * after vdc_error.  A vdc_undo_fn. */
int vdc_run_undo(const vdc_journal_entry *e, void *env);

/* `vmdiskcmp cleanup DIR`: replay @dir/journal through @env's handlers
 * (vdc_run_undo), after taking the journal's lock without waiting.  A
 * journal whose lock is held belongs to a live run: nothing is touched, a
 * line names the run (id, pid, start time); with @all that is a skip
 * (0, on stdout), else an error (-1, vdc_error), and the run id is added
 * to @live_ids when not NULL.  A journal left by a dead run (its lock
 * free) is torn down, what --keep left included; a line on stdout gives
 * the objects pending before and left after.  0 when everything is gone,
 * else -1: something could not be removed (runtime), or the journal is
 * missing, malformed or names what vmdiskcmp does not create (bad input,
 * vdc_run_journal_check: nothing touched). */
int vdc_run_cleanup_dir(const char *dir, const vdc_run_env *env, int all, GPtrArray *live_ids);

/* `vmdiskcmp cleanup`: refuse a journal (read from @run_dir/journal, not
 * written by this process) any of whose entries names something
 * vmdiskcmp does not create: files, mounts and directories outside
 * @run_dir (directories of an image excepted), images not named
 * vmdiskcmp-*.raw|.qcow2, loop devices over anything but such an image of
 * the same journal, domains and LVs not named vmdiskcmp-*, relative paths.
 * 0, or -1 after one vdc_error naming the entry (bad input: nothing may
 * be touched). */
int vdc_run_journal_check(const vdc_journal *j, const char *run_dir);

#endif
