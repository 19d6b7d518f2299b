/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Temporary directories of the prepare step (tmpdir.h). */
#include "config.h"
#include "guest/tmpdir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "common/child.h"
#include "common/util.h"

void
vdc_tmpdir_init(vdc_tmpdir *t)
{
    t->path = NULL;
    t->fd = -1;
}

int
vdc_tmpdir_make(vdc_tmpdir *t, const char *parent, const char *prefix, mode_t mode,
                const char *what)
{
    int pfd, rc = -1;

    vdc_tmpdir_init(t);
    pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (pfd < 0 || flock(pfd, LOCK_SH) < 0) {
        vdc_error("%s: temporary folder in %s: %s", what, parent, g_strerror(errno));
        goto out;
    }
    t->path = g_strdup_printf("%s/%sXXXXXX", parent, prefix);
    if (!g_mkdtemp(t->path)) {
        vdc_error("%s: temporary folder in %s: %s", what, parent, g_strerror(errno));
        g_clear_pointer(&t->path, g_free);
        goto out;
    }
    t->fd = open(t->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
    if (t->fd < 0 || flock(t->fd, LOCK_EX) < 0 || g_chmod(t->path, mode) < 0) {
        vdc_error("%s: temporary folder %s: %s", what, t->path, g_strerror(errno));
        vdc_tmpdir_dispose(t);
        goto out;
    }
    vdc_child_close_in_forks(t->fd);   /* the lock is ours, not a child's */
    rc = 0;
out:
    if (pfd >= 0)
        close(pfd);
    return rc;
}

void
vdc_tmpdir_dispose(vdc_tmpdir *t)
{
    struct stat held, now;

    if (t->path && t->fd >= 0 && fstat(t->fd, &held) == 0 && lstat(t->path, &now) == 0 &&
        held.st_dev == now.st_dev && held.st_ino == now.st_ino)
        (void)vdc_remove_tree(t->path);
    if (t->fd >= 0) {
        vdc_child_forget_fd(t->fd);
        close(t->fd);
    }
    g_free(t->path);
    vdc_tmpdir_init(t);
}

int
vdc_tmpdir_sweep(const char *parent, const char *prefix)
{
    g_autoptr(GDir) d = NULL;
    const char *name;
    int pfd, n = 0;

    pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (pfd < 0)
        return 0;
    if (flock(pfd, LOCK_EX | LOCK_NB) < 0 || !(d = g_dir_open(parent, 0, NULL))) {
        close(pfd);
        return 0;
    }
    while ((name = g_dir_read_name(d))) {
        g_autofree char *path = NULL;
        struct stat sb;
        int fd;

        if (!g_str_has_prefix(name, prefix))
            continue;
        path = g_build_filename(parent, name, NULL);
        if (lstat(path, &sb) < 0 || !S_ISDIR(sb.st_mode) || sb.st_uid != geteuid())
            continue;
        fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
        if (fd < 0)
            continue;
        if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
            /* nobody holds it: its prepare died */
            if (vdc_remove_tree(path) == 0) {
                printf("%s: left by a prepare that did not finish: removed\n", path);
                n++;
            }
        }
        close(fd);
    }
    close(pfd);
    return n;
}
