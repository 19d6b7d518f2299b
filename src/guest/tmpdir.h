/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Temporary directories of the prepare step, found again after a crash.
 *
 * prepare copies the template into CACHE/.tmp-KEY-XXXXXX before it renames
 * it into the cache, and gives its libguestfs session a private TMPDIR,
 * TMPDIR/vmdiskcmp-guestfs-XXXXXX; a prepare killed with SIGKILL leaves
 * either behind (an image copy of the template's size).  Each is therefore
 * made locked: its maker holds flock(LOCK_EX) on the directory while it
 * lives (taken under a shared lock on the parent, so a sweeper, which
 * takes the parent's lock exclusively, never sees one unlocked while its
 * prepare lives).  A directory of our prefix whose lock is free was left
 * by a prepare that died: the next prepare and `vmdiskcmp cleanup --all`
 * remove it (vdc_tmpdir_sweep).  Only directories (never a symlink) owned
 * by the effective user whose names begin with the prefix are touched. */
#ifndef VDC_GUEST_TMPDIR_H
#define VDC_GUEST_TMPDIR_H

#include <sys/types.h>

typedef struct {
    char *path;     /* NULL: none made */
    int fd;         /* the directory, locked; -1 none */
} vdc_tmpdir;

void vdc_tmpdir_init(vdc_tmpdir *t);

/* Make PARENT/PREFIXXXXXXX (mkdtemp), of @mode, locked.  0, or -1 after
 * vdc_error naming @what. */
int vdc_tmpdir_make(vdc_tmpdir *t, const char *parent, const char *prefix, mode_t mode,
                    const char *what);

/* Remove the directory (when its path still names the one made: a
 * directory renamed into place stays) and everything below it, then
 * release the lock.  Safe twice. */
void vdc_tmpdir_dispose(vdc_tmpdir *t);

/* Remove the directories PARENT/PREFIX* whose lock is free (left by
 * a prepare that died), one line each on stdout.  When a prepare is
 * making one right now (the parent's lock is taken) nothing is swept.
 * Returns how many were removed; a missing @parent is 0. */
int vdc_tmpdir_sweep(const char *parent, const char *prefix);

/* The prefixes prepare uses, in the cache and under TMPDIR. */
#define VDC_TMPDIR_CACHE_PREFIX ".tmp-"
#define VDC_TMPDIR_GUESTFS_PREFIX "vmdiskcmp-guestfs-"

#endif
