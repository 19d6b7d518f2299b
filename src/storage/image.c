/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp storage kind "image": a scratch disk image file.
 *   raw sparse  ftruncate (no blocks allocated: the guest's first writes
 *               allocate, as a thin image would)
 *   raw falloc  posix_fallocate (blocks reserved as unwritten extents)
 *   raw full    every block written with zeros, as `dd if=/dev/zero` did in
 *               the 2008 write-up (seed 003)
 *   qcow2       qemu-img create with preallocation off (sparse), metadata,
 *               falloc or full and a cluster size (qcow2.c), read back
 *               with qemu-img info and map
 * The file is claimed with O_CREAT|O_EXCL first, so an existing file is
 * never overwritten, and removed again when anything later fails. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"
#include "storage/storage_kinds.h"

#define IMAGE_ALIGN 512u
#define ZERO_CHUNK (1u << 20)

static int
image_check(const struct vdc_storage_spec *spec)
{
    const char *name = spec->name ? spec->name : "image";
    struct stat st;
    struct statvfs vfs;
    char *dir;
    int r;

    if (!spec->path || spec->path[0] != '/') {
        vdc_error("storage %s: image path '%s': expected an absolute path", name,
                  spec->path ? spec->path : "");
        return -1;
    }
    if (spec->size_bytes == 0 || spec->size_bytes % IMAGE_ALIGN) {
        vdc_error("storage %s: image size %llu bytes: expected a positive multiple of %u",
                  name, (unsigned long long)spec->size_bytes, IMAGE_ALIGN);
        return -1;
    }
    if (!vdc_target_name(VDC_DIM_IMAGE_FORMAT, spec->target.format) ||
        !vdc_target_name(VDC_DIM_IMAGE_ALLOC, spec->target.alloc)) {
        vdc_error("storage %s: image format or allocation out of range", name);
        return -1;
    }
    if (spec->target.format == VDC_IMAGE_RAW && spec->target.alloc == VDC_IMAGE_METADATA) {
        vdc_error("storage %s: allocation metadata is qcow2's: expected sparse, falloc or full "
                  "for a raw image", name);
        return -1;
    }
    if (spec->cluster_size && (spec->target.format != VDC_IMAGE_QCOW2 ||
                               !vdc_qcow2_cluster_size_ok(spec->cluster_size))) {
        vdc_error("storage %s: cluster size %" G_GUINT64_FORMAT ": expected a qcow2 image and a "
                  "power of two from 512 to 2097152 bytes", name, (guint64)spec->cluster_size);
        return -1;
    }
    r = lstat(spec->path, &st);
    if (r == 0 || errno != ENOENT) {
        vdc_error("storage %s: %s: %s", name, spec->path,
                  r == 0 ? "already exists: refusing to overwrite it" : g_strerror(errno));
        return -1;
    }
    dir = g_path_get_dirname(spec->path);
    r = statvfs(dir, &vfs);
    if (r < 0) {
        vdc_error("storage %s: image folder %s: %s", name, dir, g_strerror(errno));
        g_free(dir);
        return -1;
    }
    /* the benchmark fills the image, whatever its allocation: the room must
     * be there from the start */
    if ((uint64_t)vfs.f_bavail * vfs.f_frsize < spec->size_bytes) {
        uint64_t avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
        char f[32], n[32], d[32];

        vdc_error("storage %s: image folder %s has %s free, the image needs %s (%s more)", name, dir,
                  vdc_fmt_bytes(f, sizeof(f), avail), vdc_fmt_bytes(n, sizeof(n), spec->size_bytes),
                  vdc_fmt_bytes(d, sizeof(d), spec->size_bytes - avail));
        g_free(dir);
        return -1;
    }
    g_free(dir);
    return 0;
}

static int
write_zeros(int fd, uint64_t size, const char *name, const char *path)
{
    char *buf = g_malloc0(ZERO_CHUNK);
    uint64_t done = 0;
    ssize_t r;

    while (done < size) {
        size_t n = size - done < ZERO_CHUNK ? (size_t)(size - done) : ZERO_CHUNK;

        r = pwrite(fd, buf, n, (off_t)done);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            vdc_error("storage %s: write zeros to %s at %llu: %s", name, path,
                      (unsigned long long)done, r < 0 ? g_strerror(errno) : "short write");
            g_free(buf);
            return -1;
        }
        done += (uint64_t)r;
    }
    g_free(buf);
    return 0;
}

static int
image_create(const struct vdc_storage_spec *spec, struct vdc_storage *out)
{
    const char *name = spec->name ? spec->name : "image";
    int fd = -1;
    int r;

    if (image_check(spec) < 0)
        return -1;
    fd = open(spec->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        vdc_error("storage %s: create %s: %s", name, spec->path, g_strerror(errno));
        return -1;
    }
    vdc_storage_init(out);
    if (spec->target.format == VDC_IMAGE_QCOW2) {
        g_autofree char *why = NULL;

        close(fd);
        fd = -1;
        if (vdc_qcow2_create(spec->path, spec->size_bytes, spec->target.alloc,
                             spec->cluster_size, name) < 0 ||
            vdc_qcow2_read(spec->path, &out->qcow2) < 0)
            goto fail;
        why = vdc_qcow2_alloc_disagrees(spec->target.alloc, &out->qcow2);
        if (why) {
            vdc_error("storage %s: %s: %s", name, spec->path, why);
            goto fail;
        }
    } else {
        r = ftruncate(fd, (off_t)spec->size_bytes);
        if (r < 0) {
            vdc_error("storage %s: set size of %s: %s", name, spec->path, g_strerror(errno));
            goto fail;
        }
        if (spec->target.alloc == VDC_IMAGE_FALLOC) {
            r = posix_fallocate(fd, 0, (off_t)spec->size_bytes);
            if (r != 0) {
                vdc_error("storage %s: fallocate %s: %s", name, spec->path, g_strerror(r));
                goto fail;
            }
        } else if (spec->target.alloc == VDC_IMAGE_FULL) {
            if (write_zeros(fd, spec->size_bytes, name, spec->path) < 0)
                goto fail;
        }
        r = fsync(fd);
        if (r < 0) {
            vdc_error("storage %s: fsync %s: %s", name, spec->path, g_strerror(errno));
            goto fail;
        }
        close(fd);
        fd = -1;
    }
    out->target = spec->target;
    out->cluster_size = spec->target.format == VDC_IMAGE_QCOW2
                        ? (spec->cluster_size ? spec->cluster_size : VDC_QCOW2_CLUSTER_DEFAULT) : 0;
    out->name = g_strdup(name);
    out->path = g_strdup(spec->path);
    out->size_bytes = spec->size_bytes;
    out->created = 1;
    return 0;
 fail:
    if (fd >= 0)
        close(fd);
    unlink(spec->path);
    vdc_qcow2_info_dispose(&out->qcow2);
    return -1;
}

static int
image_destroy(struct vdc_storage *st)
{
    int r;

    if (!st->created || !st->path)
        return 0;
    r = unlink(st->path);
    if (r < 0 && errno != ENOENT) {
        vdc_error("storage %s: remove %s: %s", st->name ? st->name : "image", st->path,
                  g_strerror(errno));
        return -1;
    }
    st->created = 0;
    return 0;
}

const struct vdc_storage_ops vdc_storage_image_ops = {
    .name = "image",
    .check = image_check,
    .create = image_create,
    .destroy = image_destroy,
};
