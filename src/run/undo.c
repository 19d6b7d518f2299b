/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Undo handlers for journal entries and `vmdiskcmp cleanup` (undo.h). */
#include "config.h"
#include "run/undo.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"
#include "host/loopdev.h"
#include "host/memcg.h"
#include "host/mounts.h"
#include "host/procfs.h"
#include "host/blkback.h"
#include "host/procgroup.h"

/* @ops: the driver to use (tests' mock), or NULL: the one named in @e;
 * @run_id: the run the domain must carry (vdc_hv_destroy_own), or NULL */
static int
undo_domain(const vdc_journal_entry *e, const vdc_hv_ops *ops, const char *run_id)
{
    const char *driver = e->driver, *uri = e->uri, *name = e->name;
    vdc_hv *hv;
    int rc;

    if (!driver || !name || !g_str_has_prefix(name, "vmdiskcmp-")) {
        vdc_error("journal: domain entry %u lacks a driver or a vmdiskcmp- name: not touched", e->seq);
        return -1;
    }
    if (!ops)
        ops = vdc_hv_ops_by_name(driver);
    if (!ops)
        return -1;
    hv = ops->open(uri && *uri ? uri : NULL);
    if (!hv)
        return -1;
    rc = vdc_hv_destroy_own(ops, hv, name, e->uuid, run_id);
    ops->close(hv);
    return rc;
}

static int
undo_mount(const vdc_journal_entry *e)
{
    const char *dir = e->dir, *source = e->source;
    int m;

    if (!dir)
        return -1;
    m = vdc_is_mounted(dir, source);
    if (m <= 0)
        return m;   /* not mounted (0) or error (-1) */
    /* never through a symlink put in place of our mount point; never
     * lazily: a filesystem still in use stays mounted and is reported (a
     * detached one would keep its loop device and image busy unseen) */
    if (umount2(dir, UMOUNT_NOFOLLOW) < 0) {
        vdc_error("mount %s: cannot unmount: %s%s", dir, g_strerror(errno),
                  errno == EBUSY ? " (still in use: fuser -m shows by whom)" : "");
        return -1;
    }
    return 0;
}

/* 1 when @e's object may be removed: its path still names what the
 * journal recorded (ino); 0 when it is gone or not ours (one line says
 * which, unless simply gone).  A directory with no recorded identity was
 * never made by the run (it existed, or the run died before mkdir): 0. */
static int
still_ours(const vdc_journal_entry *e, const char *what)
{
    int r;

    if (!e->ino) {
        if (e->kind != VDC_JOURNAL_DIR)
            return 1;       /* a version 1 journal: its name was checked */
        if (e->done && g_file_test(e->path, G_FILE_TEST_EXISTS))
            vdc_error_kind(VDC_ERR_NONE, "directory %s: the journal records no identity for it: "
                           "not made by this run, left alone", e->path);
        return 0;
    }
    r = vdc_journal_ino_check(e->ino, e->path);
    if (r == 0)
        vdc_error_kind(VDC_ERR_NONE, "%s %s: not the one this run made (inode %s): left alone",
                       what, e->path, e->ino);
    return r > 0;
}

/* A journaled process group's values: pid > 1, start a number, exe an
 * absolute path.  0, or -1 (malformed). */
static int
proc_values(const vdc_journal_entry *e, pid_t *pid, guint64 *start)
{
    guint64 p = 0;

    if (!e->pid || !e->start || !e->exe || !g_path_is_absolute(e->exe) ||
        !g_ascii_string_to_unsigned(e->pid, 10, 2, G_MAXINT32, &p, NULL) ||
        !g_ascii_string_to_unsigned(e->start, 10, 0, G_MAXUINT64, start, NULL))
        return -1;
    *pid = (pid_t)p;
    return 0;
}

/* Whether a proc entry's start (@start clock ticks after the boot @boot)
 * is not before its run's start (the journal's run line, to the second:
 * 2 s of slack).  An entry of an earlier boot cannot be placed: 1 (its
 * undo leaves it alone). */
static int
proc_after_run(const vdc_journal *j, const char *boot, guint64 start)
{
    g_autofree char *now = vdc_boot_id();
    g_autoptr(GDateTime) run = g_date_time_new_from_iso8601(j->owner_started, NULL);
    int64_t btime = vdc_boot_time();
    long hz = sysconf(_SC_CLK_TCK);

    if (!now || strcmp(now, boot) != 0)
        return 1;
    if (!run || btime < 0 || hz <= 0)
        return 0;
    return btime + (int64_t)(start / (guint64)hz) + 2 >= g_date_time_to_unix(run);
}

/* Before a mount is unmounted and a loop device detached: whatever a
 * crashed run's child left running in its group is killed (only when the
 * group's leader is still the process the journal names) */
static int
undo_proc(const vdc_journal_entry *e)
{
    pid_t pid;
    guint64 start;

    g_autofree char *boot = vdc_boot_id();

    if (proc_values(e, &pid, &start) < 0 || !e->boot) {
        vdc_error("journal: proc entry %u: expected pid, start, exe and boot: not touched", e->seq);
        return -1;
    }
    if (!boot || strcmp(boot, e->boot) != 0)
        return 0;       /* journaled in an earlier boot: the group ended with it */
    return vdc_proc_group_stop(pid, start, e->exe);
}

static int
undo_path(const vdc_journal_entry *e, int is_dir)
{
    const char *path = e->path;

    if (!path)
        return -1;
    if (!still_ours(e, is_dir ? "directory" : "file"))
        return 0;
    if ((is_dir ? rmdir(path) : unlink(path)) < 0 && errno != ENOENT) {
        vdc_error("%s %s: cannot remove: %s", is_dir ? "directory" : "file", path, g_strerror(errno));
        return -1;
    }
    return 0;
}

/* @path resolved (symlinks, "..") when it exists (a mount point replaced
 * by a symlink to /proc resolves to /proc), else its directory when that
 * exists, else lexically: the file itself may be gone.  Newly allocated. */
static char *
resolve_path(const char *path)
{
    g_autofree char *dir = g_path_get_dirname(path);
    g_autofree char *base = g_path_get_basename(path);
    char real[PATH_MAX];

    if (realpath(path, real))
        return g_strdup(real);
    if (realpath(dir, real))
        return g_build_filename(real, base, NULL);
    return g_canonicalize_filename(path, "/");
}

/* 1 when @path is @root itself or below it (both already resolved). */
static int
path_within(const char *path, const char *root)
{
    size_t n = strlen(root);

    return !strncmp(path, root, n) && (path[n] == '/' || path[n] == '\0' || !strcmp(root, "/"));
}

/* @p, the value of @e's key @key, when it is an absolute path, else NULL
 * after one line (bad input). */
static const char *
entry_abs_path(const char *journal, const vdc_journal_entry *e, const char *key, const char *p)
{
    if (!p || !g_path_is_absolute(p)) {
        vdc_input_error("journal %s: entry %u (%s): %s '%s': expected an absolute path", journal,
                        e->seq, vdc_journal_kind_name(e->kind), key, p ? p : "");
        return NULL;
    }
    return p;
}

static int
is_journal_image(const vdc_journal *j, const char *path)
{
    for (guint k = 0; k < j->entries->len; k++) {
        const vdc_journal_entry *o = g_ptr_array_index(j->entries, k);

        if (o->kind == VDC_JOURNAL_IMAGE && o->path && !strcmp(o->path, path))
            return 1;
    }
    return 0;
}

/* 1 when @dir is the directory of an image entry of @j or one of its
 * parents (made by the run for --image-dir) */
static int
is_image_dir(const vdc_journal *j, const char *dir)
{
    g_autofree char *d = g_canonicalize_filename(dir, "/");

    for (guint k = 0; k < j->entries->len; k++) {
        const vdc_journal_entry *o = g_ptr_array_index(j->entries, k);
        g_autofree char *ip = NULL;

        if (o->kind != VDC_JOURNAL_IMAGE || !o->path || !g_path_is_absolute(o->path))
            continue;
        ip = g_canonicalize_filename(o->path, "/");
        if (strcmp(ip, d) && path_within(ip, d))
            return 1;
    }
    return 0;
}

int
vdc_run_journal_check(const vdc_journal *j, const char *run_dir)
{
    char root[PATH_MAX];

    if (!realpath(run_dir, root)) {
        vdc_input_error("%s: %s: expected a result directory", run_dir, g_strerror(errno));
        return -1;
    }
    for (guint k = 0; k < j->entries->len; k++) {
        const vdc_journal_entry *e = g_ptr_array_index(j->entries, k);
        const char *p = NULL, *why = NULL;
        g_autofree char *r = NULL;

        switch (e->kind) {
        case VDC_JOURNAL_DOMAIN:
            p = e->name;
            if (!p || !g_str_has_prefix(p, "vmdiskcmp-") || !e->driver)
                why = "expected a driver and a domain named vmdiskcmp-*";
            break;
        case VDC_JOURNAL_LV:
            p = e->lv;
            if (!p || !g_str_has_prefix(p, "vmdiskcmp-") || !e->vg)
                why = "expected a VG and an LV named vmdiskcmp-*";
            break;
        case VDC_JOURNAL_IMAGE: {
            g_autofree char *base = NULL;

            if (!(p = entry_abs_path(j->path, e, "path", e->path)))
                return -1;
            base = g_path_get_basename(p);
            if (!g_str_has_prefix(base, "vmdiskcmp-") ||
                !(g_str_has_suffix(base, ".raw") || g_str_has_suffix(base, ".qcow2")))
                why = "expected an image named vmdiskcmp-*.raw or vmdiskcmp-*.qcow2";
            break;
        }
        case VDC_JOURNAL_PROC: {
            pid_t pid;
            guint64 start;
            g_autofree char *base = e->exe ? g_path_get_basename(e->exe) : NULL;

            p = e->pid;
            /* the group's leader is a fork of vmdiskcmp (common/child.h) */
            if (proc_values(e, &pid, &start) < 0 || !g_str_has_prefix(base, "vmdiskcmp"))
                why = "expected a pid, a start time and a vmdiskcmp executable";
            else if (!e->boot || !j->owner_started)
                why = "expected the boot it was started in and the journal's run line";
            else if (!proc_after_run(j, e->boot, start))
                why = "expected a process started after its run did";
            break;
        }
        case VDC_JOURNAL_CGROUP: {
            g_autofree char *base = e->path ? g_path_get_basename(e->path) : NULL;

            p = e->path;
            /* a cgroup file system is checked again when it is removed */
            if (!p || !g_path_is_absolute(p) || !g_str_has_prefix(base, "vmdiskcmp-") ||
                strstr(p, "/../") || g_str_has_suffix(p, "/.."))
                why = "expected an absolute path of a cgroup named vmdiskcmp-*";
            break;
        }
        case VDC_JOURNAL_PARAM:
            p = e->path;
            /* only blkback's parameters, only a number back */
            if (vdc_blkback_param_of_path(p) < 0 || !e->value)
                why = "expected .../module/xen_blkback/parameters/{max_ring_page_order,max_queues} "
                      "and a value";
            break;
        case VDC_JOURNAL_LOOP:
            p = e->file;
            if (!p || !is_journal_image(j, p))
                why = "expected the backing file to be an image of this journal";
            break;
        case VDC_JOURNAL_MOUNT:
        case VDC_JOURNAL_FILE:
        case VDC_JOURNAL_DIR: {
            int mount = e->kind == VDC_JOURNAL_MOUNT, dir = e->kind == VDC_JOURNAL_DIR;

            if (!(p = entry_abs_path(j->path, e, mount ? "dir" : "path", mount ? e->dir : e->path)))
                return -1;
            r = resolve_path(p);
            if (!path_within(r, root) && !(dir && is_image_dir(j, p)))
                why = dir ? "expected a directory inside the result directory or of an image"
                          : "expected a path inside the result directory";
            else if (!strcmp(r, root))
                why = "expected a path inside the result directory, not the directory itself";
            break;
        }
        }
        if (why) {
            vdc_input_error("journal %s: entry %u (%s %s): not created by vmdiskcmp: %s; nothing touched",
                            j->path, e->seq, vdc_journal_kind_name(e->kind), p ? p : "", why);
            return -1;
        }
    }
    return 0;
}

/* An image is removed only once no loop device is bound to it (found by
 * the image's identity): unlinked under a bound device, its space would
 * stay taken, unseen */
static int
undo_image(const vdc_journal_entry *e, const vdc_run_env *env)
{
    g_auto(GStrv) loops = NULL;
    vdc_file_id id;

    if (e->path && vdc_file_id_of(e->path, &id) == 0) {
        if (vdc_loop_find(&id, NULL, &loops) < 0)
            return -1;
        if (loops[0]) {
            vdc_error("image %s: still the backing file of %s: not removed (its space would not be "
                      "freed)", e->path, loops[0]);
            return -1;
        }
    }
    return env->storage_destroy_journaled(VDC_BACKING_IMAGE, e->path, NULL, NULL, NULL);
}

/* A module parameter written back to what it held before the run, and
 * read back: a value that does not stick is an error (the entry stays) */
static int
undo_param(const vdc_journal_entry *e)
{
    int64_t want = (int64_t)g_ascii_strtoll(e->value ? e->value : "", NULL, 10), now;

    if (!e->value || vdc_blkback_param_of_path(e->path) < 0) {
        vdc_error("journal: param entry %u: expected a blkback parameter and a value: not touched",
                  e->seq);
        return -1;
    }
    if (vdc_blkback_write(e->path, want, &now) < 0)
        return -1;
    if (now != want) {
        vdc_error("%s: wrote %" G_GINT64_FORMAT " back, reads %" G_GINT64_FORMAT, e->path,
                  (gint64)want, (gint64)now);
        return -1;
    }
    vdc_progress("%s restored to %" G_GINT64_FORMAT, e->path, (gint64)want);
    return 0;
}

int
vdc_run_undo(const vdc_journal_entry *e, void *opaque)
{
    const vdc_run_env *env = opaque;

    switch (e->kind) {
    case VDC_JOURNAL_DOMAIN:
        return undo_domain(e, env->hv, NULL);
    case VDC_JOURNAL_IMAGE:
        if (e->path && !still_ours(e, "image"))
            return 0;
        return undo_image(e, env);
    case VDC_JOURNAL_LV:
        return env->storage_destroy_journaled(VDC_BACKING_LVM, NULL, e->vg, e->lv, e->tag);
    case VDC_JOURNAL_LOOP:
        return env->loop_detach(e->file, e->ino);
    case VDC_JOURNAL_MOUNT:
        return undo_mount(e);
    case VDC_JOURNAL_DIR:
        return undo_path(e, 1);
    case VDC_JOURNAL_FILE:
        return undo_path(e, 0);
    case VDC_JOURNAL_PROC:
        return undo_proc(e);
    case VDC_JOURNAL_CGROUP:
        return vdc_memcg_remove(e->path);
    case VDC_JOURNAL_PARAM:
        return undo_param(e);
    }
    vdc_error("journal: entry %u has unknown kind %d: not touched", e->seq, (int)e->kind);
    return -1;
}

/* ---- `vmdiskcmp cleanup DIR` ------------------------------------------------ */

/* What cleanup checks beyond the run's own teardown, since the run that
 * journaled is gone and others may be alive: a domain must carry the
 * journal's run id (its metadata), a process must belong to no live run. */
typedef struct {
    const vdc_run_env *env;
    const vdc_journal *j;       /* proven its run's (vdc_journal_prove) */
    GPtrArray *live;            /* vdc_runrec_live(), the journal's own run left out */
} cleanup_ctx;

static int
undo_cleanup(const vdc_journal_entry *e, void *opaque)
{
    const cleanup_ctx *c = opaque;
    pid_t pid;
    guint64 start;

    if (e->kind == VDC_JOURNAL_DOMAIN)
        return undo_domain(e, c->env->hv, c->j->run_id);
    if (e->kind == VDC_JOURNAL_PROC && proc_values(e, &pid, &start) == 0) {
        g_autofree char *which = NULL;

        if (vdc_runrec_proc_live(pid, c->live, &which)) {
            vdc_error("journal %s: proc entry %u: process %d belongs to %s: not touched", c->j->path,
                      e->seq, (int)pid, which);
            return -1;
        }
    }
    return vdc_run_undo(e, (void *)c->env);
}

/* "run ID (pid P, started T)" for messages about @j's owner. */
static char *
owner_text(const vdc_journal *j)
{
    if (!j->run_id)
        return g_strdup("a run");
    return g_strdup_printf("run %s (pid %s, started %s)", *j->run_id ? j->run_id : "?",
                           j->owner_pid ? j->owner_pid : "?",
                           j->owner_started ? j->owner_started : "?");
}

/* undo.h */
int
vdc_run_cleanup_dir(const char *dir, const vdc_run_env *env, int all, GPtrArray *live_ids)
{
    g_autofree char *path = g_build_filename(dir, "journal", NULL);
    g_autofree char *owner = NULL;
    vdc_journal j;
    vdc_err_kind scope;
    cleanup_ctx c = { .env = env, .j = &j };
    size_t before;
    int rc;

    vdc_journal_init(&j);
    /* the journal is input like any file: a missing, malformed or foreign
     * one is bad input (exit 2), and nothing is touched */
    scope = vdc_error_scope(VDC_ERR_INPUT);
    rc = vdc_journal_load(&j, path);
    if (rc == 0 && vdc_run_journal_check(&j, dir) < 0)
        rc = -1;
    vdc_error_scope(scope);
    owner = owner_text(&j);
    if (rc == 1) {
        /* its lock is held: the run is alive, and everything it made is its own */
        if (all)
            printf("%s: %s is still running (its journal is locked): skipped, nothing touched\n",
                   dir, owner);
        else
            vdc_error("%s: %s is still running (its journal is locked): nothing touched", dir, owner);
        if (live_ids && j.run_id && *j.run_id)
            g_ptr_array_add(live_ids, g_strdup(j.run_id));
        vdc_journal_dispose(&j);
        return all ? 0 : -1;
    }
    if (rc < 0) {
        vdc_journal_dispose(&j);
        return -1;
    }
    /* what --keep left is removed now: that is what cleanup is for */
    for (guint k = 0; k < j.entries->len; k++)
        ((vdc_journal_entry *)g_ptr_array_index(j.entries, k))->kept = 0;
    before = vdc_journal_pending(&j);
    if (before) {
        /* something would be touched: only on the word of the run that
         * wrote the journal (its record, runrec.h), never of a copy, a
         * replacement or a journal written by hand */
        scope = vdc_error_scope(VDC_ERR_INPUT);
        rc = vdc_journal_prove(&j);
        vdc_error_scope(scope);
        if (rc != 0) {
            if (rc == 1)
                vdc_error("%s: %s is still running (its run record is locked): nothing touched", dir,
                          owner);
            vdc_journal_dispose(&j);
            return rc == 1 && all ? 0 : -1;
        }
        printf("%s: %s is not running (its journal is not locked): removing what it left\n", dir,
               owner);
    }
    c.live = vdc_runrec_live();
    for (guint k = c.live->len; j.run_id && k > 0; k--)
        if (!strcmp(((vdc_runrec *)g_ptr_array_index(c.live, k - 1))->id, j.run_id))
            g_ptr_array_remove_index(c.live, k - 1);
    rc = vdc_journal_teardown(&j, undo_cleanup, &c, 0);
    printf("%s: %zu object(s) pending, %zu left\n", dir, before, vdc_journal_pending(&j));
    g_ptr_array_unref(c.live);
    vdc_journal_dispose(&j);
    return rc;
}
