/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp storage kind "block": an existing block device the user names
 * (a partition, an md RAID, a striped LV, a loop device).  Its data will be
 * destroyed by mkfs, so it is used only when
 *   1. the user gave explicit consent for this device (spec->consent),
 *   2. it is a block device not in use (O_EXCL open succeeds: not mounted,
 *      not held by device-mapper, md or another exclusive opener), and
 *   3. libblkid finds no partition table, filesystem, RAID member or LVM PV
 *      signature on it, unless the user forces (spec->force).
 * destroy() never touches a block device: it is not ours. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>
#ifdef WITH_BLKID
#include <blkid.h>
#endif

#include "common/util.h"
#include "storage/storage_kinds.h"

#ifdef WITH_BLKID
static int
blkid_probe_signature(const char *dev, char **what)
{
    blkid_probe pr = blkid_new_probe_from_filename(dev);
    const char *v = NULL;
    int r;

    *what = NULL;
    if (!pr) {
        *what = g_strdup_printf("libblkid cannot open it: %s", g_strerror(errno));
        return -1;
    }
    blkid_probe_enable_superblocks(pr, 1);
    blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
    blkid_probe_enable_partitions(pr, 1);
    /* FORCE_GPT: a GPT is found by its backup header too, when the start
     * of the disk (protective MBR, primary header) was wiped, as wipefs
     * finds it */
    blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC | BLKID_PARTS_FORCE_GPT);
    r = blkid_do_safeprobe(pr);
    if (r == 0) {
        if (blkid_probe_lookup_value(pr, "TYPE", &v, NULL) == 0 && v)
            *what = g_strdup(v);
        else if (blkid_probe_lookup_value(pr, "PTTYPE", &v, NULL) == 0 && v)
            *what = g_strdup_printf("partition table %s", v);
        else
            *what = g_strdup("unknown signature");
        r = 1;
    } else if (r == 1) {
        r = 0;
    } else if (r == -2) {
        *what = g_strdup("several conflicting signatures");
        r = 1;
    } else {
        *what = g_strdup("libblkid probe failed");
        r = -1;
    }
    blkid_free_probe(pr);
    return r;
}
#else
static int
blkid_probe_signature(const char *dev, char **what)
{
    *what = g_strdup("built without libblkid: cannot check for signatures");
    return -1;
}
#endif

static vdc_block_probe_fn block_probe = blkid_probe_signature;

void
vdc_storage_block_set_probe(vdc_block_probe_fn fn)
{
    block_probe = fn ? fn : blkid_probe_signature;
}

/* checks 1-3; on success *sig is the signature found (forced) or NULL */
static int
block_inspect(const struct vdc_storage_spec *spec, uint64_t *size, char **sig)
{
    const char *name = spec->name ? spec->name : "block";
    struct stat st;
    char *what = NULL;
    int fd, r, e;

    *sig = NULL;
    if (!spec->path || spec->path[0] != '/') {
        vdc_error("storage %s: device '%s': expected an absolute path such as /dev/sdb1",
                  name, spec->path ? spec->path : "");
        return -1;
    }
    if (!spec->consent) {
        vdc_error("storage %s: %s: its data would be destroyed; refusing without explicit consent",
                  name, spec->path);
        return -1;
    }
    r = stat(spec->path, &st);
    if (r < 0) {
        vdc_error("storage %s: %s: %s: expected a block device", name, spec->path, g_strerror(errno));
        return -1;
    }
    if (!S_ISBLK(st.st_mode)) {
        vdc_error("storage %s: %s: not a block device: expected a block device", name, spec->path);
        return -1;
    }
    fd = open(spec->path, O_RDONLY | O_EXCL | O_CLOEXEC);
    if (fd < 0) {
        vdc_error("storage %s: %s: %s", name, spec->path,
                  errno == EBUSY ? "in use (mounted, or held by another device or program)"
                                 : g_strerror(errno));
        return -1;
    }
    r = ioctl(fd, BLKGETSIZE64, size);
    e = errno;
    close(fd);
    if (r < 0) {
        vdc_error("storage %s: %s: cannot read its size: %s", name, spec->path, g_strerror(e));
        return -1;
    }
    if (*size == 0) {
        vdc_error("storage %s: %s: size 0 (a loop device with nothing attached?)", name, spec->path);
        return -1;
    }
    r = block_probe(spec->path, &what);
    if (r < 0) {
        vdc_error("storage %s: %s: signature check: %s", name, spec->path,
                  what ? what : "failed");
        g_free(what);
        return -1;
    }
    if (r == 1 && !spec->force) {
        vdc_error("storage %s: %s holds a signature (%s): refusing to destroy it even with "
                  "--destroy-data: expected a blank device (wipefs -a %s, if its data may go)",
                  name, spec->path, what ? what : "unknown", spec->path);
        g_free(what);
        return -1;
    }
    *sig = what;
    return 0;
}

static int
block_check(const struct vdc_storage_spec *spec)
{
    uint64_t size;
    char *sig = NULL;

    if (block_inspect(spec, &size, &sig) < 0)
        return -1;
    g_free(sig);
    return 0;
}

static int
block_create(const struct vdc_storage_spec *spec, struct vdc_storage *out)
{
    uint64_t size = 0;
    char *sig = NULL;

    if (block_inspect(spec, &size, &sig) < 0)
        return -1;
    vdc_storage_init(out);
    out->target = spec->target;
    out->name = g_strdup(spec->name ? spec->name : "block");
    out->path = g_strdup(spec->path);
    out->device = g_strdup(spec->path);
    out->size_bytes = size;
    out->signature = sig;
    out->created = 0;       /* not ours: destroy() leaves it */
    return 0;
}

static int
block_destroy(struct vdc_storage *st)
{
    return 0;
}

const struct vdc_storage_ops vdc_storage_block_ops = {
    .name = "block",
    .check = block_check,
    .create = block_create,
    .destroy = block_destroy,
};
