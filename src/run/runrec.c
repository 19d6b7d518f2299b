/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run record (runrec.h). */
#include "config.h"
#include "run/runrec.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/child.h"
#include "common/util.h"
#include "host/procfs.h"
#include "run/run.h"

#define RUNREC_HEADER "vmdiskcmp-run 1\n"
#define RUNREC_MAX_BYTES 65536
#define RUNREC_DEFAULT_DIR "/var/lib/vmdiskcmp/runs"
#define JOURNAL_MAGIC "vmdiskcmp-journal "
/* ancestors walked from a process to init: a chain longer than this is
 * not a chain (a loop of reused pids) */
#define CHAIN_MAX 256

void
vdc_runrec_init(vdc_runrec *r)
{
    memset(r, 0, sizeof(*r));
    r->fd = -1;
}

void
vdc_runrec_dispose(vdc_runrec *r)
{
    if (r->fd >= 0) {
        vdc_child_forget_fd(r->fd);
        close(r->fd);
    }
    g_free(r->path);
    g_free(r->id);
    g_free(r->journal);
    g_free(r->dir);
    g_free(r->file);
    g_free(r->boot);
    vdc_runrec_init(r);
}

const char *
vdc_runrec_dir(void)
{
    const char *d = g_getenv("VDC_STATE_DIR");

    return d && *d ? d : RUNREC_DEFAULT_DIR;
}

static char *
ident_of(const struct stat *sb)
{
    return g_strdup_printf("%ju:%ju", (uintmax_t)sb->st_dev, (uintmax_t)sb->st_ino);
}

/* Only the effective user (root) may write @sb: owned by it (or by root),
 * not writable by group or others. */
static int
root_only(const struct stat *sb)
{
    return (sb->st_uid == geteuid() || sb->st_uid == 0) && !(sb->st_mode & (S_IWGRP | S_IWOTH));
}

/* STATE exists (made when @make), is a directory that only we write, and
 * so is its parent.  0, or -1 after vdc_error; with @why (no message) -1
 * with *@why saying what is wrong, 1 when STATE does not exist. */
static int
state_dir_ok(int make, const char **why)
{
    const char *dir = vdc_runrec_dir();
    g_autofree char *parent = g_path_get_dirname(dir);
    struct stat sb;

    if (!g_path_is_absolute(dir)) {
        vdc_input_error("VDC_STATE_DIR %s: expected an absolute path", dir);
        if (why)
            *why = "VDC_STATE_DIR is not an absolute path";
        return -1;
    }
    if (make && lstat(dir, &sb) < 0 && errno == ENOENT) {
        if (g_mkdir_with_parents(parent, 0755) < 0 || (mkdir(dir, 0700) < 0 && errno != EEXIST)) {
            vdc_error("run records %s: cannot create: %s", dir, g_strerror(errno));
            return -1;
        }
    }
    if (lstat(dir, &sb) < 0) {
        if (why) {
            *why = errno == ENOENT ? "no record of that run (no run records at all)"
                                   : "the run records cannot be read";
            return errno == ENOENT ? 1 : -1;
        }
        vdc_error("run records %s: %s", dir, g_strerror(errno));
        return -1;
    }
    if (!S_ISDIR(sb.st_mode) || !root_only(&sb) || (sb.st_mode & 077)) {
        if (why) {
            *why = "the run records' directory is not of mode 0700 owned by root";
            return -1;
        }
        vdc_error("run records %s: expected a directory of mode 0700 owned by uid %u, not a link",
                  dir, (unsigned)geteuid());
        return -1;
    }
    if (lstat(parent, &sb) < 0 || !S_ISDIR(sb.st_mode) || !root_only(&sb)) {
        if (why) {
            *why = "the run records' parent directory may be written by others than root";
            return -1;
        }
        vdc_error("run records %s: its directory %s: expected a directory that only uid %u writes",
                  dir, parent, (unsigned)geteuid());
        return -1;
    }
    return 0;
}

/* A run id as a file name: printable, no '/', not starting with '.'. */
static int
id_ok(const char *id)
{
    const char *c;

    if (!id || !*id || *id == '.' || strlen(id) > 200)
        return 0;
    for (c = id; *c; c++)
        if (*c == '/' || !g_ascii_isgraph(*c))
            return 0;
    return 1;
}

static void
add_pair(GString *s, const char *key, const char *value)
{
    g_autofree char *ev = g_uri_escape_string(value ? value : "", "/:", FALSE);

    g_string_append_printf(s, "%s=%s\n", key, ev);
}

int
vdc_runrec_create(vdc_runrec *r, const char *run_id, const char *journal)
{
    g_autofree char *jdir = g_path_get_dirname(journal);
    g_autofree char *jbase = g_path_get_basename(journal);
    g_autofree char *tmp = NULL;
    g_autoptr(GString) s = g_string_new(RUNREC_HEADER);
    char real[PATH_MAX];
    struct stat dsb, fsb;
    vdc_task_stat ts;
    size_t off = 0;
    int rc = -1;

    vdc_runrec_init(r);
    if (!id_ok(run_id)) {
        vdc_error("run %s: its id is not a file name: no run record", run_id ? run_id : "");
        return -1;
    }
    if (state_dir_ok(1, NULL) < 0)
        return -1;
    if (!realpath(jdir, real) || lstat(real, &dsb) < 0) {
        vdc_error("journal %s: its directory: %s", journal, g_strerror(errno));
        return -1;
    }
    r->journal = g_build_filename(real, jbase, NULL);
    if (lstat(r->journal, &fsb) < 0) {
        vdc_error("journal %s: %s", r->journal, g_strerror(errno));
        return -1;
    }
    r->id = g_strdup(run_id);
    r->dir = ident_of(&dsb);
    r->file = ident_of(&fsb);
    r->pid = getpid();
    r->boot = vdc_boot_id();
    if (vdc_task_stat_read(r->pid, 0, &ts) == 0)
        r->start = ts.starttime;
    r->path = g_build_filename(vdc_runrec_dir(), run_id, NULL);
    add_pair(s, "id", r->id);
    add_pair(s, "journal", r->journal);
    add_pair(s, "dir", r->dir);
    add_pair(s, "file", r->file);
    g_string_append_printf(s, "pid=%ld\nstart=%" G_GUINT64_FORMAT "\n", (long)r->pid, r->start);
    add_pair(s, "boot", r->boot);

    /* written and locked under a temporary name, then linked: a record
     * never has its name unlocked while its run lives */
    tmp = g_strconcat(r->path, ".new", NULL);
    r->fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (r->fd < 0) {
        vdc_error("run record %s: cannot create: %s", tmp, g_strerror(errno));
        return -1;
    }
    if (flock(r->fd, LOCK_EX) < 0) {
        vdc_error("run record %s: cannot lock: %s", r->path, g_strerror(errno));
        goto out;
    }
    vdc_child_close_in_forks(r->fd);
    while (off < s->len) {
        ssize_t w = write(r->fd, s->str + off, s->len - off);

        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            vdc_error("run record %s: write failed: %s", r->path, g_strerror(errno));
            goto out;
        }
        off += (size_t)w;
    }
    if (fsync(r->fd) < 0 || link(tmp, r->path) < 0) {
        vdc_error("run record %s: cannot create: %s%s", r->path, g_strerror(errno),
                  errno == EEXIST ? " (a run of that id exists)" : "");
        goto out;
    }
    rc = 0;
out:
    (void)unlink(tmp);
    if (rc < 0)
        vdc_runrec_dispose(r);
    return rc;
}

int
vdc_runrec_remove(vdc_runrec *r)
{
    int rc = 0;

    if (r->fd >= 0 && r->path && unlink(r->path) < 0 && errno != ENOENT) {
        vdc_error("run record %s: cannot remove: %s", r->path, g_strerror(errno));
        rc = -1;
    }
    vdc_runrec_dispose(r);
    return rc;
}

/* Parse @text (a record) into @r.  0, or -1 (not a record). */
static int
parse(vdc_runrec *r, const char *text)
{
    g_auto(GStrv) lines = NULL;
    guint64 n;
    guint i;

    if (!g_str_has_prefix(text, RUNREC_HEADER))
        return -1;
    lines = g_strsplit(text + strlen(RUNREC_HEADER), "\n", -1);
    for (i = 0; lines[i]; i++) {
        const char *eq = strchr(lines[i], '=');
        g_autofree char *k = NULL;
        char *v, **slot = NULL;

        if (!*lines[i])
            continue;
        if (!eq || !(v = g_uri_unescape_string(eq + 1, NULL)))
            return -1;
        k = g_strndup(lines[i], (gsize)(eq - lines[i]));
        if (!strcmp(k, "pid") || !strcmp(k, "start")) {
            if (!g_ascii_string_to_unsigned(v, 10, 0, G_MAXUINT64, &n, NULL) ||
                (!strcmp(k, "pid") && n > G_MAXINT32)) {
                g_free(v);
                return -1;
            }
            if (!strcmp(k, "pid"))
                r->pid = (pid_t)n;
            else
                r->start = n;
            g_free(v);
            continue;
        }
        slot = !strcmp(k, "id") ? &r->id : !strcmp(k, "journal") ? &r->journal :
               !strcmp(k, "dir") ? &r->dir : !strcmp(k, "file") ? &r->file :
               !strcmp(k, "boot") ? &r->boot : NULL;
        if (slot) {
            g_free(*slot);
            *slot = v;
        } else {
            g_free(v);
        }
    }
    return r->id && r->journal && r->dir && r->file ? 0 : -1;
}

/* Open and read the record at @path into @r (fd kept open, not locked).
 * 0; 1 no such record; -1 not a record only root writes (@why set). */
static int
open_record(vdc_runrec *r, const char *path, const char **why)
{
    char buf[RUNREC_MAX_BYTES + 1];
    struct stat sb;
    ssize_t n;

    r->path = g_strdup(path);
    r->fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    if (r->fd < 0) {
        *why = errno == ENOENT ? "no record of that run" : "the record cannot be opened";
        return errno == ENOENT ? 1 : -1;
    }
    if (fstat(r->fd, &sb) < 0 || !S_ISREG(sb.st_mode) || !root_only(&sb) || sb.st_nlink != 1 ||
        (sb.st_mode & 077)) {
        *why = "the record is not a file of mode 0600 that only root writes";
        return -1;
    }
    n = read(r->fd, buf, RUNREC_MAX_BYTES);
    if (n < 0 || n == RUNREC_MAX_BYTES) {
        *why = "the record cannot be read";
        return -1;
    }
    buf[n] = '\0';
    if (parse(r, buf) < 0) {
        *why = "the record is malformed";
        return -1;
    }
    return 0;
}

int
vdc_runrec_prove(vdc_runrec *r, const char *run_id, const char *journal)
{
    g_autofree char *jdir = g_path_get_dirname(journal);
    g_autofree char *jbase = g_path_get_basename(journal);
    g_autofree char *path = NULL, *jpath = NULL, *dir_now = NULL, *file_now = NULL;
    const char *why = NULL;
    char real[PATH_MAX];
    struct stat sb;
    int r0;

    vdc_runrec_init(r);
    if (!id_ok(run_id)) {
        why = "its run line names no run id (a journal of an older vmdiskcmp, or not a run's)";
        goto refused;
    }
    if (state_dir_ok(0, &why) != 0)
        goto refused;
    path = g_build_filename(vdc_runrec_dir(), run_id, NULL);
    r0 = open_record(r, path, &why);
    if (r0 != 0)
        goto refused;
    if (flock(r->fd, LOCK_EX | LOCK_NB) < 0) {
        if (errno == EWOULDBLOCK)
            return 1;
        why = "the record cannot be locked";
        goto refused;
    }
    vdc_child_close_in_forks(r->fd);
    if (strcmp(r->id, run_id)) {
        why = "the record names another run id";
        goto refused;
    }
    if (!realpath(jdir, real)) {
        why = "its directory cannot be resolved";
        goto refused;
    }
    jpath = g_build_filename(real, jbase, NULL);
    if (strcmp(jpath, r->journal)) {
        why = "the run wrote its journal elsewhere (moved or copied?)";
        goto refused;
    }
    if (lstat(real, &sb) < 0 || strcmp((dir_now = ident_of(&sb)), r->dir)) {
        why = "the directory is not the one the run made (replaced?)";
        goto refused;
    }
    if (lstat(jpath, &sb) < 0 || !S_ISREG(sb.st_mode) || strcmp((file_now = ident_of(&sb)), r->file)) {
        why = "the file is not the one the run created (replaced?)";
        goto refused;
    }
    if (!root_only(&sb)) {
        why = "the file is writable by others than root";
        goto refused;
    }
    return 0;
refused:
    vdc_input_error("journal %s: not proven the one run %s wrote (%s/%s): %s; nothing touched",
                    journal, run_id && *run_id ? run_id : "?", vdc_runrec_dir(),
                    run_id && id_ok(run_id) ? run_id : "?", why);
    vdc_runrec_dispose(r);
    return -1;
}

static void
runrec_free(gpointer p)
{
    vdc_runrec_dispose(p);
    g_free(p);
}

GPtrArray *
vdc_runrec_live(void)
{
    GPtrArray *live = g_ptr_array_new_with_free_func(runrec_free);
    g_autoptr(GDir) d = NULL;
    const char *name;

    d = g_dir_open(vdc_runrec_dir(), 0, NULL);
    while (d && (name = g_dir_read_name(d))) {
        g_autofree char *path = g_build_filename(vdc_runrec_dir(), name, NULL);
        vdc_runrec *r = g_new(vdc_runrec, 1);
        const char *why;

        vdc_runrec_init(r);
        if (g_str_has_suffix(name, ".new") || open_record(r, path, &why) != 0 ||
            flock(r->fd, LOCK_SH | LOCK_NB) == 0 || errno != EWOULDBLOCK) {
            vdc_runrec_dispose(r);
            g_free(r);
            continue;
        }
        close(r->fd);
        r->fd = -1;
        g_ptr_array_add(live, r);
    }
    return live;
}

int
vdc_runrec_id_live(const char *run_id, GPtrArray *live)
{
    for (guint i = 0; run_id && i < live->len; i++)
        if (!strcmp(((vdc_runrec *)g_ptr_array_index(live, i))->id, run_id))
            return 1;
    return 0;
}

/* Whether @pid holds a descriptor on a live record or on a locked
 * vmdiskcmp journal: into *@which (g_malloc) when it does. */
static int
holds_live_lock(pid_t pid, char **which)
{
    g_autofree char *fddir = g_strdup_printf("/proc/%d/fd", (int)pid);
    g_autoptr(GDir) d = g_dir_open(fddir, 0, NULL);
    const char *name;

    while (d && (name = g_dir_read_name(d))) {
        g_autofree char *link = g_build_filename(fddir, name, NULL);
        g_autofree char *target = g_file_read_link(link, NULL);
        g_autofree char *base = target ? g_path_get_basename(target) : NULL;
        g_autofree char *dir = target ? g_path_get_dirname(target) : NULL;
        char head[sizeof(JOURNAL_MAGIC)] = "";
        int is_rec, fd, locked = 0;
        ssize_t n;

        if (!target || !g_path_is_absolute(target))
            continue;
        is_rec = !strcmp(dir, vdc_runrec_dir()) && !g_str_has_suffix(base, ".new");
        if (!is_rec && strcmp(base, "journal") && !g_str_has_suffix(base, "journal.new"))
            continue;
        fd = open(target, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        if (fd < 0)
            continue;
        n = read(fd, head, sizeof(head) - 1);
        if (is_rec || (n == (ssize_t)sizeof(head) - 1 && !memcmp(head, JOURNAL_MAGIC, sizeof(head) - 1)))
            locked = flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK;
        close(fd);
        if (locked) {
            if (which)
                *which = g_strdup_printf("a live run's %s %s (held by pid %d)",
                                         is_rec ? "record" : "journal", target, (int)pid);
            return 1;
        }
    }
    return 0;
}

int
vdc_runrec_proc_live(pid_t pid, GPtrArray *live, char **which)
{
    pid_t p = pid;
    int n;

    for (n = 0; p > 1 && n < CHAIN_MAX; n++) {
        vdc_task_stat ts;

        if (vdc_task_stat_read(p, 0, &ts) != 0)
            return 0;
        for (guint i = 0; i < live->len; i++) {
            const vdc_runrec *r = g_ptr_array_index(live, i);

            if (r->pid == p && r->start == ts.starttime) {
                if (which)
                    *which = g_strdup_printf("run %s (controller pid %d)", r->id, (int)p);
                return 1;
            }
        }
        if (holds_live_lock(p, which))
            return 1;
        p = ts.ppid;
    }
    return 0;
}
