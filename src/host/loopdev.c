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

/* 1 when loop device @dev's LOOP_GET_STATUS64 names @sb's device and inode,
 * 0 when it names another file, -1 when it cannot be asked (no node, no
 * permission: the path match stands) */
static int
same_inode(const char *dev, const struct stat *sb)
{
    struct loop_info64 li;
    int fd = open(dev, O_RDONLY | O_CLOEXEC);
    int r, e;

    if (fd < 0)
        return -1;
    r = ioctl(fd, LOOP_GET_STATUS64, &li);
    e = errno;
    close(fd);
    if (r < 0)
        return e == ENXIO ? 0 : -1;   /* ENXIO: unbound meanwhile */
    return li.lo_inode == sb->st_ino && li.lo_device == sb->st_dev;
}

int
vdc_loop_find_by_backing(const char *file, char ***devs)
{
    g_autoptr(GPtrArray) found = g_ptr_array_new_with_free_func(g_free);
    char real[PATH_MAX];
    struct stat sb;
    DIR *d;
    struct dirent *e;

    *devs = NULL;
    if (!realpath(file, real) || stat(real, &sb) < 0) {
        vdc_error("image %s: %s", file, g_strerror(errno));
        return -1;
    }
    d = opendir("/sys/block");
    if (!d) {
        vdc_error("/sys/block: %s", g_strerror(errno));
        return -1;
    }
    while ((e = readdir(d))) {
        vdc_loop_info li;
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
            continue;
        node = g_strdup_printf("/dev/%s", li.name);
        if (!li.backing_deleted && !strcmp(li.backing_file, real) && same_inode(node, &sb) != 0)
            g_ptr_array_add(found, g_steal_pointer(&node));
        vdc_loop_info_dispose(&li);
    }
    closedir(d);
    g_ptr_array_add(found, NULL);
    *devs = (char **)g_ptr_array_free(g_steal_pointer(&found), FALSE);
    return 0;
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
