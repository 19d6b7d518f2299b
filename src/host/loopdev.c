/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Loop device facts and direct I/O control (loopdev.h). */
#include "config.h"
#include "host/loopdev.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"
#include "host/text.h"

#ifndef LOOP_SET_DIRECT_IO
#define LOOP_SET_DIRECT_IO 0x4C08
#endif

#define DELETED_SUFFIX " (deleted)"

/* "loopN" from "loopN" or "/dev/loopN"; NULL when it is neither */
static const char *
loop_name(const char *dev, unsigned *number)
{
    const char *n = g_str_has_prefix(dev, "/dev/") ? dev + 5 : dev;
    uint64_t v;
    const char *p = n + 4;

    if (strncmp(n, "loop", 4) || vdc_parse_u64_word(&p, &v) < 0 || *p || v > UINT_MAX)
        return NULL;
    *number = (unsigned)v;
    return n;
}

void
vdc_loop_info_dispose(vdc_loop_info *li)
{
    if (!li)
        return;
    g_clear_pointer(&li->name, g_free);
    g_clear_pointer(&li->backing_file, g_free);
}

int
vdc_loop_sysfs_parse(const char *name, const char *backing_text, const char *dio_text,
                     const char *offset_text, vdc_loop_info *out)
{
    const char *n;
    unsigned number = 0;
    uint64_t dio;
    size_t len;

    memset(out, 0, sizeof(*out));
    n = name ? loop_name(name, &number) : NULL;
    if (!n) {
        vdc_error("loop device '%s': expected loopN or /dev/loopN", name ? name : "");
        return -1;
    }
    len = backing_text ? strlen(backing_text) : 0;
    if (len && backing_text[len - 1] == '\n')
        len--;
    if (!len || backing_text[0] != '/' || memchr(backing_text, '\n', len)) {
        vdc_error("/sys/block/%s/loop/backing_file: expected an absolute path on one line", n);
        return -1;
    }
    if (vdc_parse_u64_text(dio_text, &dio) < 0 || dio > 1) {
        vdc_error("/sys/block/%s/loop/dio: expected 0 or 1, got '%.*s'", n,
                  vdc_line_len(dio_text, 20), dio_text ? dio_text : "");
        return -1;
    }
    if (vdc_parse_u64_text(offset_text, &out->offset) < 0) {
        vdc_error("/sys/block/%s/loop/offset: expected a byte count, got '%.*s'", n,
                  vdc_line_len(offset_text, 20), offset_text ? offset_text : "");
        return -1;
    }
    out->name = g_strdup(n);
    out->number = number;
    out->dio = (int)dio;
    if (len > strlen(DELETED_SUFFIX) &&
        !memcmp(backing_text + len - strlen(DELETED_SUFFIX), DELETED_SUFFIX,
                strlen(DELETED_SUFFIX))) {
        out->backing_deleted = 1;
        len -= strlen(DELETED_SUFFIX);
    }
    out->backing_file = g_strndup(backing_text, len);
    return 0;
}

int
vdc_loop_info_read(const char *dev, vdc_loop_info *out)
{
    unsigned number;
    const char *n = loop_name(dev, &number);
    g_autofree char *dir = NULL, *bf = NULL, *dio = NULL, *off = NULL;
    g_autofree char *b = NULL, *d = NULL, *o = NULL;
    int gone = 0;

    memset(out, 0, sizeof(*out));
    if (!n) {
        vdc_error("loop device '%s': expected loopN or /dev/loopN", dev);
        return -1;
    }
    dir = g_strdup_printf("/sys/block/%s/loop", n);
    bf = g_strdup_printf("%s/backing_file", dir);
    dio = g_strdup_printf("%s/dio", dir);
    off = g_strdup_printf("%s/offset", dir);
    b = vdc_read_proc_file(bf, &gone);
    if (!b)
        return gone ? 1 : -1;
    d = vdc_read_proc_file(dio, &gone);
    o = d ? vdc_read_proc_file(off, &gone) : NULL;
    if (!d || !o)
        return gone ? 1 : -1;   /* detached between the reads */
    return vdc_loop_sysfs_parse(n, b, d, o, out);
}

int
vdc_file_id_of(const char *path, vdc_file_id *id)
{
    struct stat sb;

    if (stat(path, &sb) < 0)
        return -1;
    id->dev = (uint64_t)sb.st_dev;
    id->ino = (uint64_t)sb.st_ino;
    return 0;
}

int
vdc_file_id_parse(const char *text, vdc_file_id *id)
{
    const char *p = text;

    if (!p || vdc_parse_u64_word(&p, &id->dev) < 0 || *p++ != ':' ||
        vdc_parse_u64_word(&p, &id->ino) < 0 || *p)
        return -1;
    return 0;
}

/* The identity of the file loop device @node holds (LOOP_GET_STATUS64):
 * 0; 1 when the device is not bound (ENXIO); -1 when it cannot be asked
 * (no node, no permission). */
static int
loop_backing_id(const char *node, vdc_file_id *id)
{
    struct loop_info64 li;
    int fd = open(node, O_RDONLY | O_CLOEXEC);
    int r, e;

    if (fd < 0)
        return -1;
    r = ioctl(fd, LOOP_GET_STATUS64, &li);
    e = errno;
    close(fd);
    if (r < 0)
        return e == ENXIO ? 1 : -1;
    id->dev = li.lo_device;
    id->ino = li.lo_inode;
    return 0;
}

int
vdc_loop_find(const vdc_file_id *id, const char *path, char ***devs)
{
    g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func(g_free);
    DIR *d;
    struct dirent *e;

    *devs = NULL;
    d = opendir("/sys/block");
    if (!d) {
        vdc_error("/sys/block: %s", g_strerror(errno));
        return -1;
    }
    while ((e = readdir(d))) {
        vdc_loop_info li;
        vdc_file_id held;
        unsigned number;
        g_autofree char *node = NULL;
        int r;

        if (!loop_name(e->d_name, &number))
            continue;
        r = vdc_loop_info_read(e->d_name, &li);
        if (r < 0) {
            closedir(d);
            return -1;
        }
        if (r == 1)
            continue;       /* not bound */
        node = g_strdup_printf("/dev/%s", li.name);
        r = loop_backing_id(node, &held);
        if ((r == 0 && held.dev == id->dev && held.ino == id->ino) ||
            (r < 0 && path && !li.backing_deleted && !strcmp(li.backing_file, path)))
            g_ptr_array_add(found, g_steal_pointer(&node));
        vdc_loop_info_dispose(&li);
    }
    closedir(d);
    g_ptr_array_add(found, NULL);
    *devs = (char **)g_ptr_array_free(g_steal_pointer(&found), FALSE);
    return 0;
}

int
vdc_loop_find_by_backing(const char *file, char ***devs)
{
    char real[PATH_MAX];
    vdc_file_id id;

    *devs = NULL;
    /* the kernel prints a backing file's path with symlinks resolved */
    if (!realpath(file, real) || vdc_file_id_of(real, &id) < 0) {
        vdc_error("image %s: %s", file, g_strerror(errno));
        return -1;
    }
    return vdc_loop_find(&id, real, devs);
}

char *
vdc_loop_attach(const char *file)
{
    int ctl = -1, ffd = -1, lfd = -1, attempt;
    char *dev = NULL;

    ffd = open(file, O_RDWR | O_CLOEXEC);
    if (ffd < 0) {
        vdc_error("loop device for %s: cannot open the file: %s", file, g_strerror(errno));
        return NULL;
    }
    ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
    if (ctl < 0) {
        vdc_error("loop device for %s: /dev/loop-control: %s", file, g_strerror(errno));
        goto out;
    }
    for (attempt = 0; attempt < 10 && !dev; attempt++) {
        struct loop_config cfg;
        int n = ioctl(ctl, LOOP_CTL_GET_FREE);
        g_autofree char *path = NULL;

        if (n < 0) {
            vdc_error("loop device for %s: no free loop device: %s", file, g_strerror(errno));
            goto out;
        }
        path = g_strdup_printf("/dev/loop%d", n);
        lfd = open(path, O_RDWR | O_CLOEXEC);
        if (lfd < 0) {
            vdc_error("loop device %s: %s", path, g_strerror(errno));
            goto out;
        }
        memset(&cfg, 0, sizeof(cfg));
        cfg.fd = (unsigned)ffd;
        /* O_DIRECT on the backing file: dom0's page cache must not serve
         * the baseline twice (filesystem on loop on file) */
        cfg.info.lo_flags = LO_FLAGS_DIRECT_IO;
        g_strlcpy((char *)cfg.info.lo_file_name, file, sizeof(cfg.info.lo_file_name));
        if (ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0 ||
            (errno == EINVAL && (cfg.info.lo_flags = 0, ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0))) {
            dev = g_steal_pointer(&path);
        } else if (errno != EBUSY) {
            vdc_error("loop device %s for %s: LOOP_CONFIGURE: %s", path, file, g_strerror(errno));
            close(lfd);
            lfd = -1;
            goto out;
        }
        close(lfd);
        lfd = -1;
    }
    if (!dev)
        vdc_error("loop device for %s: every free device was taken by someone else", file);
out:
    if (ctl >= 0)
        close(ctl);
    if (ffd >= 0)
        close(ffd);
    return dev;
}

/* Wait up to 2 s for loop device @name ("loopN") to be unbound (its sysfs
 * loop/ directory gone).  0 when it is, -1 when it is still bound. */
static int
loop_wait_unbound(const char *name)
{
    g_autofree char *bound = g_strdup_printf("/sys/block/%s/loop/backing_file", name);
    int i;

    for (i = 0; i < 40; i++) {
        if (!g_file_test(bound, G_FILE_TEST_EXISTS))
            return 0;
        g_usleep(50000);
    }
    return -1;
}

int
vdc_loop_detach(const vdc_file_id *id, const char *path)
{
    g_auto(GStrv) devs = NULL;
    vdc_file_id now;
    size_t i;
    int rc = 0;

    if (!id) {
        if (!path || vdc_file_id_of(path, &now) < 0)
            return 0;       /* gone, and nothing else to know it by */
        id = &now;
    }
    if (!path)
        path = "its backing file";
    if (vdc_loop_find(id, NULL, &devs) < 0)
        return -1;
    for (i = 0; devs[i]; i++) {
        int fd = open(devs[i], O_RDONLY | O_CLOEXEC);

        if (fd < 0 || (ioctl(fd, LOOP_CLR_FD, 0) < 0 && errno != ENXIO)) {
            vdc_error("loop device %s (%s): cannot detach: %s", devs[i], path, g_strerror(errno));
            if (fd >= 0)
                close(fd);
            rc = -1;
            continue;
        }
        close(fd);
        /* LOOP_CLR_FD on a device in use only marks it to detach when its
         * last user goes: detached means it is unbound */
        if (loop_wait_unbound(devs[i] + 5) < 0) {
            vdc_error("loop device %s: still bound to %s: in use (mounted, or held open): the "
                      "image's space is not freed", devs[i], path);
            rc = -1;
        }
    }
    return rc;
}

int
vdc_loop_set_direct_io(const char *dev, int on)
{
    unsigned number;
    const char *n = loop_name(dev, &number);
    g_autofree char *node = NULL;
    vdc_loop_info li;
    int fd, r, e;

    if (!n) {
        vdc_error("loop device '%s': expected loopN or /dev/loopN", dev);
        return -1;
    }
    node = g_strdup_printf("/dev/%s", n);
    fd = open(node, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        vdc_error("loop device %s: %s", node, g_strerror(errno));
        return -1;
    }
    r = ioctl(fd, LOOP_SET_DIRECT_IO, (unsigned long)(on ? 1 : 0));
    e = errno;
    close(fd);
    if (r < 0) {
        vdc_error("loop device %s: cannot turn direct I/O %s (LOOP_SET_DIRECT_IO): %s%s", node,
                  on ? "on" : "off", g_strerror(e),
                  e == EINVAL && on ? " (the backing file's filesystem has no O_DIRECT, or the "
                                      "loop device's block size is below the backing "
                                      "device's logical block size)" : "");
        return -1;
    }
    r = vdc_loop_info_read(n, &li);
    if (r == 1)
        vdc_error("loop device %s: detached while turning direct I/O %s", node, on ? "on" : "off");
    if (r != 0)
        return -1;
    r = li.dio == (on ? 1 : 0) ? 0 : -1;
    if (r < 0)
        vdc_error("loop device %s: LOOP_SET_DIRECT_IO %d succeeded but /sys/block/%s/loop/dio "
                  "reads %d", node, on ? 1 : 0, n, li.dio);
    vdc_loop_info_dispose(&li);
    return r;
}
