/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A memory cgroup for the dom0 baseline's agent (memcg.h). */
#include "config.h"
#include "host/memcg.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"

#ifndef CGROUP2_SUPER_MAGIC
#define CGROUP2_SUPER_MAGIC 0x63677270
#endif
#ifndef CGROUP_SUPER_MAGIC
#define CGROUP_SUPER_MAGIC 0x27e0eb
#endif

void
vdc_memcg_where_init(vdc_memcg_where *w)
{
    memset(w, 0, sizeof(*w));
}

void
vdc_memcg_where_dispose(vdc_memcg_where *w)
{
    g_clear_pointer(&w->mount, g_free);
    g_clear_pointer(&w->self, g_free);
    w->version = 0;
}

void
vdc_memcg_init(vdc_memcg *cg)
{
    memset(cg, 0, sizeof(*cg));
}

void
vdc_memcg_dispose(vdc_memcg *cg)
{
    g_clear_pointer(&cg->path, g_free);
    cg->version = 0;
    cg->limit_bytes = 0;
}

int
vdc_memcg_list_has(const char *list, const char *word)
{
    g_auto(GStrv) w = g_strsplit_set(list ? list : "", " \t\n,", -1);
    size_t i;

    for (i = 0; w[i]; i++)
        if (!strcmp(w[i], word))
            return 1;
    return 0;
}

/* The mount of the hierarchy @fstype ("cgroup2", or "cgroup" with the
 * super option @opt) in mountinfo @text: its mount point and its root in
 * the hierarchy (NULL, NULL: none). */
static void
find_mount(const char *text, const char *fstype, const char *opt, char **mnt, char **root)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    size_t i;

    *mnt = *root = NULL;
    for (i = 0; lines[i] && !*mnt; i++) {
        g_auto(GStrv) f = g_strsplit(lines[i], " ", -1);
        guint n = g_strv_length(f), k;

        /* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTS */
        if (n < 10)
            continue;
        for (k = 6; k < n && strcmp(f[k], "-"); k++)
            ;
        if (k + 3 >= n || strcmp(f[k + 1], fstype) != 0)
            continue;
        if (opt && !vdc_memcg_list_has(f[k + 3], opt))
            continue;
        *mnt = g_strcompress(f[4]);     /* mountinfo escapes blanks as \040 */
        *root = g_strcompress(f[3]);
    }
}

/* Our path in the hierarchy, made relative to the mount's @root (a
 * container sees its own cgroup as the mount's root). */
static char *
below_root(const char *self, const char *root)
{
    size_t n = strlen(root);

    if (!strcmp(root, "/") || strncmp(self, root, n) != 0 || (self[n] && self[n] != '/'))
        return g_strdup(self);
    return g_strdup(self[n] ? self + n : "/");
}

int
vdc_memcg_where_parse(const char *cgroup, const char *mountinfo, vdc_memcg_where *w)
{
    g_auto(GStrv) lines = g_strsplit(cgroup ? cgroup : "", "\n", -1);
    const char *v1 = NULL, *v2 = NULL;
    g_autofree char *mnt = NULL, *root = NULL;
    size_t i;

    vdc_memcg_where_dispose(w);
    /* HIERARCHY-ID:CONTROLLERS:PATH; v2 is "0::PATH" */
    for (i = 0; lines[i]; i++) {
        char *c1 = strchr(lines[i], ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        g_autofree char *ctl = NULL;

        if (!c2 || c2[1] != '/')
            continue;
        ctl = g_strndup(c1 + 1, (gsize)(c2 - c1 - 1));
        if (!*ctl && !strncmp(lines[i], "0:", 2))
            v2 = c2 + 1;
        else if (vdc_memcg_list_has(ctl, "memory"))
            v1 = c2 + 1;
    }
    if (v1) {
        find_mount(mountinfo ? mountinfo : "", "cgroup", "memory", &mnt, &root);
        if (mnt) {
            w->version = 1;
            w->mount = g_steal_pointer(&mnt);
            w->self = below_root(v1, root);
            return 0;
        }
        g_clear_pointer(&root, g_free);
    }
    if (v2) {
        find_mount(mountinfo ? mountinfo : "", "cgroup2", NULL, &mnt, &root);
        if (mnt) {
            w->version = 2;
            w->mount = g_steal_pointer(&mnt);
            w->self = below_root(v2, root);
            return 0;
        }
    }
    vdc_error("memory cgroup: /proc/self/cgroup and /proc/self/mountinfo name no mounted memory "
              "controller (cgroup v1 'memory' or a cgroup2 hierarchy): expected one");
    return -1;
}

int
vdc_memcg_value_parse(const char *text, const char *source, uint64_t *bytes)
{
    g_autofree char *t = g_strstrip(g_strdup(text ? text : ""));
    guint64 v;

    if (!strcmp(t, "max")) {
        *bytes = UINT64_MAX;
        return 0;
    }
    if (!*t || !g_ascii_string_to_unsigned(t, 10, 0, G_MAXUINT64, &v, NULL)) {
        vdc_error("%s: '%.40s': expected a number of bytes or 'max'", source, t);
        return -1;
    }
    *bytes = v;
    return 0;
}

/* @dir/@file's text (g_free), or NULL after vdc_error */
static char *
read_file(const char *dir, const char *file)
{
    g_autofree char *p = g_build_filename(dir, file, NULL);
    g_autoptr(GError) e = NULL;
    char *text = NULL;

    if (!g_file_get_contents(p, &text, NULL, &e)) {
        vdc_error("%s: cannot read: %s", p, e->message);
        return NULL;
    }
    return text;
}

/* Write @text to @dir/@file (no create, no truncation: a cgroup file
 * takes one write).  0, or -1 with errno set (no message). */
static int
write_file(const char *dir, const char *file, const char *text)
{
    g_autofree char *p = g_build_filename(dir, file, NULL);
    size_t n = strlen(text);
    int fd = open(p, O_WRONLY | O_CLOEXEC);
    ssize_t w;
    int e;

    if (fd < 0)
        return -1;
    w = write(fd, text, n);
    e = errno;
    close(fd);
    errno = e;
    return w == (ssize_t)n ? 0 : -1;
}

char *
vdc_memcg_path_for(const char *name, int *version)
{
    vdc_memcg_where w;
    g_autofree char *cg = NULL, *mi = NULL, *parent = NULL;
    char *path = NULL;

    vdc_memcg_where_init(&w);
    if (!g_file_get_contents("/proc/self/cgroup", &cg, NULL, NULL) ||
        !g_file_get_contents("/proc/self/mountinfo", &mi, NULL, NULL)) {
        vdc_error("memory cgroup: cannot read /proc/self/cgroup or /proc/self/mountinfo");
        return NULL;
    }
    if (vdc_memcg_where_parse(cg, mi, &w) < 0)
        return NULL;
    parent = g_build_filename(w.mount, w.self, NULL);
    if (w.version == 2) {
        g_autofree char *ctl = read_file(w.mount, "cgroup.controllers");

        if (!ctl || !vdc_memcg_list_has(ctl, "memory")) {
            if (ctl)
                vdc_error("memory cgroup: %s/cgroup.controllers: no 'memory' (the memory controller is "
                          "bound elsewhere or disabled): expected it", w.mount);
            goto out;
        }
        /* up from ours to the first cgroup that gives its children memory
         * (the root always may: it is exempt from the no-internal-process
         * rule, and systemd enables memory there) */
        for (;;) {
            g_autofree char *sub = NULL, *p = NULL;

            if (!strcmp(parent, w.mount))
                break;
            p = g_build_filename(parent, "cgroup.subtree_control", NULL);
            if (g_file_get_contents(p, &sub, NULL, NULL) && vdc_memcg_list_has(sub, "memory"))
                break;
            {
                char *up = g_path_get_dirname(parent);

                g_free(parent);
                parent = up;
            }
        }
        {
            g_autofree char *sub = NULL;

            if (!strcmp(parent, w.mount) &&
                (!(sub = read_file(w.mount, "cgroup.subtree_control")) || !vdc_memcg_list_has(sub, "memory"))) {
                if (sub)
                    vdc_error("memory cgroup: %s/cgroup.subtree_control: no 'memory': the root gives its "
                              "children no memory controller (expected it enabled, as systemd does)",
                              w.mount);
                goto out;
            }
        }
    }
    path = g_build_filename(parent, name, NULL);
    *version = w.version;
out:
    vdc_memcg_where_dispose(&w);
    return path;
}

int
vdc_memcg_create(const char *path, int version, uint64_t limit_bytes, vdc_memcg *cg)
{
    const char *limit_file = version == 2 ? "memory.max" : "memory.limit_in_bytes";
    g_autofree char *lim = g_strdup_printf("%" G_GUINT64_FORMAT "\n", (guint64)limit_bytes);
    g_autofree char *back = NULL;
    uint64_t v;

    vdc_memcg_dispose(cg);
    if (mkdir(path, 0755) < 0) {
        vdc_error("memory cgroup %s: cannot create: %s", path, g_strerror(errno));
        return -1;
    }
    if (write_file(path, limit_file, lim) < 0) {
        vdc_error("memory cgroup %s: %s: cannot write %" G_GUINT64_FORMAT ": %s", path, limit_file,
                  (guint64)limit_bytes, g_strerror(errno));
        goto fail;
    }
    /* swap is no way out of the limit for the agent's own pages (v2 with
     * swap accounting; without it the file is absent and there is nothing
     * to bound) */
    if (version == 2 && write_file(path, "memory.swap.max", "0\n") < 0 && errno != ENOENT) {
        vdc_error("memory cgroup %s: memory.swap.max: cannot write 0: %s", path, g_strerror(errno));
        goto fail;
    }
    if (!(back = read_file(path, limit_file)))
        goto fail;
    {
        g_autofree char *src = g_build_filename(path, limit_file, NULL);

        if (vdc_memcg_value_parse(back, src, &v) < 0)
            goto fail;
    }
    if (v > limit_bytes || v == 0) {
        vdc_error("memory cgroup %s: %s reads %" G_GUINT64_FORMAT " after %" G_GUINT64_FORMAT
                  " was written: expected at most that", path, limit_file, (guint64)v, (guint64)limit_bytes);
        goto fail;
    }
    cg->version = version;
    cg->path = g_strdup(path);
    cg->limit_bytes = v;
    return 0;
fail:
    (void)rmdir(path);
    return -1;
}

int
vdc_memcg_enter(const vdc_memcg *cg, pid_t pid)
{
    g_autofree char *t = g_strdup_printf("%d\n", (int)pid);

    if (write_file(cg->path, "cgroup.procs", t) < 0) {
        vdc_error("memory cgroup %s: cgroup.procs: cannot move process %d in: %s", cg->path, (int)pid,
                  g_strerror(errno));
        return -1;
    }
    return 0;
}

int
vdc_memcg_peak(const vdc_memcg *cg, uint64_t *bytes)
{
    const char *f = cg->version == 2 ? "memory.peak" : "memory.max_usage_in_bytes";
    g_autofree char *p = g_build_filename(cg->path, f, NULL);
    g_autofree char *text = NULL;

    if (!g_file_test(p, G_FILE_TEST_EXISTS))
        return 1;
    if (!(text = read_file(cg->path, f)))
        return -1;
    return vdc_memcg_value_parse(text, p, bytes);
}

int
vdc_memcg_remove(const char *path)
{
    g_autofree char *base = g_path_get_basename(path);
    struct statfs sf;
    int i;

    if (!g_str_has_prefix(base, "vmdiskcmp-")) {
        vdc_error("memory cgroup %s: expected a cgroup named vmdiskcmp-*: not touched", path);
        return -1;
    }
    if (statfs(path, &sf) < 0) {
        if (errno == ENOENT)
            return 0;
        vdc_error("memory cgroup %s: %s", path, g_strerror(errno));
        return -1;
    }
    if (sf.f_type != CGROUP2_SUPER_MAGIC && sf.f_type != CGROUP_SUPER_MAGIC) {
        vdc_error("memory cgroup %s: not on a cgroup file system: not touched", path);
        return -1;
    }
    for (i = 0; i < 100; i++) {
        if (rmdir(path) == 0 || errno == ENOENT)
            return 0;
        if (errno != EBUSY)
            break;
        g_usleep(50000);
    }
    vdc_error("memory cgroup %s: cannot remove: %s", path, g_strerror(errno));
    return -1;
}
