/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Alignment of a target's layers against its disk (alignment.h). */
#include "config.h"
#include "host/alignment.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "common/util.h"
#include "host/text.h"

static const char *const layer_names[VDC_ALIGN_LAYER_COUNT] = {
    [VDC_ALIGN_PARTITION] = "partition",
    [VDC_ALIGN_PV_DATA] = "pv_data",
    [VDC_ALIGN_LV_EXTENT] = "lv_extent",
    [VDC_ALIGN_IMAGE_CLUSTER] = "image_cluster",
    [VDC_ALIGN_FS_BLOCK] = "fs_block",
    [VDC_ALIGN_FS_STRIPE] = "fs_stripe",
};

const char *
vdc_align_layer_name(vdc_align_layer_kind k)
{
    return (unsigned)k < VDC_ALIGN_LAYER_COUNT ? layer_names[k] : NULL;
}

int
vdc_align_layer_parse(const char *name)
{
    int k;

    for (k = 0; name && k < VDC_ALIGN_LAYER_COUNT; k++)
        if (!strcmp(layer_names[k], name))
            return k;
    return -1;
}

void
vdc_alignment_dispose(vdc_alignment *a)
{
    if (!a)
        return;
    g_free(a->disk);
    g_free(a->source);
    memset(a, 0, sizeof(*a));
}

void
vdc_alignment_add(vdc_alignment *a, vdc_align_layer_kind k, int has_offset, uint64_t offset,
                  uint64_t size)
{
    vdc_align_layer *l;

    if (a->n >= VDC_ALIGN_LAYERS_MAX)
        return;
    l = &a->layers[a->n++];
    memset(l, 0, sizeof(*l));
    l->layer = k;
    l->has_offset = has_offset;
    l->offset = offset;
    l->size = size;
    l->optimal_ok = -1;
}

/* the smallest write that is not a read-modify-write of the disk */
static uint64_t
physical_unit(const vdc_queue_limits *q)
{
    return MAX(q->physical_block_size, q->minimum_io_size);
}

/* the optimal I/O size when it is a sane one (a multiple of the physical
 * unit: a disk reporting e.g. 65535 says nothing usable), else 0 */
static uint64_t
optimal_unit(const vdc_queue_limits *q)
{
    uint64_t u = physical_unit(q);

    return q->optimal_io_size && u && q->optimal_io_size % u == 0 ? q->optimal_io_size : 0;
}

size_t
vdc_alignment_check(vdc_alignment *a)
{
    uint64_t unit = physical_unit(&a->q), opt = optimal_unit(&a->q);
    size_t i, bad = 0;

    for (i = 0; i < a->n; i++) {
        vdc_align_layer *l = &a->layers[i];
        uint64_t off = l->offset >= a->q.alignment_offset ? l->offset - a->q.alignment_offset
                                                            : l->offset;

        l->offset_over = l->size_over = 0;
        l->optimal_ok = -1;
        l->misaligned = 0;
        if (!unit)
            continue;
        if (l->has_offset)
            l->offset_over = off % unit;
        if (l->layer != VDC_ALIGN_FS_STRIPE && l->size)
            l->size_over = l->size % unit;
        if (opt) {
            if (l->layer == VDC_ALIGN_FS_STRIPE)
                l->optimal_ok = !l->size || l->size % opt == 0;
            else if (l->has_offset)
                l->optimal_ok = off % opt == 0;
        }
        l->misaligned = l->offset_over || l->size_over || l->optimal_ok == 0;
        bad += (size_t)l->misaligned;
    }
    return bad;
}

char *
vdc_alignment_why(const vdc_alignment *a, const vdc_align_layer *l)
{
    const char *name = vdc_align_layer_name(l->layer);
    uint64_t unit = physical_unit(&a->q), opt = optimal_unit(&a->q);
    const char *what = a->q.minimum_io_size > a->q.physical_block_size ? "minimum I/O size"
                                                                       : "physical block size";

    if (!l->misaligned)
        return NULL;
    if (l->offset_over)
        return g_strdup_printf("%s at %" G_GUINT64_FORMAT " bytes is %" G_GUINT64_FORMAT
                               " bytes past a multiple of the %s %" G_GUINT64_FORMAT "%s",
                               name, (guint64)l->offset, (guint64)l->offset_over, what,
                               (guint64)unit, a->q.alignment_offset ? " (less the disk's alignment offset)" : "");
    if (l->size_over)
        return g_strdup_printf("%s of %" G_GUINT64_FORMAT " bytes is not a multiple of the %s %"
                               G_GUINT64_FORMAT, name, (guint64)l->size, what, (guint64)unit);
    if (l->layer == VDC_ALIGN_FS_STRIPE)
        return g_strdup_printf("%s of %" G_GUINT64_FORMAT " bytes is not a multiple of the optimal "
                               "I/O size %" G_GUINT64_FORMAT, name, (guint64)l->size, (guint64)opt);
    return g_strdup_printf("%s at %" G_GUINT64_FORMAT " bytes is not a multiple of the optimal I/O "
                           "size %" G_GUINT64_FORMAT, name, (guint64)l->offset, (guint64)opt);
}

/* alignment.h */
size_t
vdc_alignment_guest_fs(const char *disk, const vdc_queue_limits *q, uint64_t block,
                       uint64_t stripe, const char *source, vdc_alignment *out)
{
    memset(out, 0, sizeof(*out));
    out->q = *q;
    out->disk = g_strdup(disk);
    out->source = g_strdup(source);
    vdc_alignment_add(out, VDC_ALIGN_FS_BLOCK, 0, 0, block);
    if (stripe)
        vdc_alignment_add(out, VDC_ALIGN_FS_STRIPE, 0, 0, stripe);
    return vdc_alignment_check(out);
}

/* ---- readers ------------------------------------------------------------------- */

/* the number in sysfs file @dir/@name, 0 when absent or not a number */
static uint64_t
sysfs_u64(const char *dir, const char *name)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    g_autofree char *text = NULL;
    uint64_t v = 0;

    if (!g_file_get_contents(path, &text, NULL, NULL) || vdc_parse_u64_text(text, &v) < 0)
        return 0;
    return v;
}

int
vdc_queue_limits_read(const char *disk, unsigned major, unsigned minor, vdc_queue_limits *out)
{
    g_autofree char *queue = g_strdup_printf("/sys/block/%s/queue", disk);
    g_autofree char *dev = major || minor ? g_strdup_printf("/sys/dev/block/%u:%u", major, minor)
                                          : g_strdup_printf("/sys/block/%s", disk);

    memset(out, 0, sizeof(*out));
    if (!g_file_test(queue, G_FILE_TEST_IS_DIR)) {
        vdc_error("disk %s: %s: no such directory", disk, queue);
        return -1;
    }
    out->logical_block_size = sysfs_u64(queue, "logical_block_size");
    out->physical_block_size = sysfs_u64(queue, "physical_block_size");
    out->minimum_io_size = sysfs_u64(queue, "minimum_io_size");
    out->optimal_io_size = sysfs_u64(queue, "optimal_io_size");
    out->alignment_offset = sysfs_u64(dev, "alignment_offset");
    return 0;
}

int
vdc_blockdev_alignment_read(const char *dev, vdc_alignment *out)
{
    g_autofree char *name = NULL, *loopdir = NULL, *backing = NULL;
    vdc_blockdev_pos pos;
    struct stat sb;
    uint64_t offset = 0;
    int depth;

    memset(out, 0, sizeof(*out));
    /* a loop device over a block device: its data sits @offset into that
     * device (at most a few levels: a loop over a loop over a disk) */
    for (depth = 0;; depth++) {
        if (stat(dev, &sb) < 0 || !S_ISBLK(sb.st_mode)) {
            vdc_error("alignment of %s: expected a block device", dev);
            return -1;
        }
        if (vdc_blockdev_pos_read(major(sb.st_rdev), minor(sb.st_rdev), &pos) < 0)
            return -1;
        loopdir = g_strdup_printf("/sys/block/%s/loop", pos.device);
        if (depth < 4 && g_file_test(loopdir, G_FILE_TEST_IS_DIR)) {
            g_autofree char *bf = g_build_filename(loopdir, "backing_file", NULL);
            g_autofree char *text = NULL;
            struct stat bs;

            if (g_file_get_contents(bf, &text, NULL, NULL) && stat(g_strchomp(text), &bs) == 0 &&
                S_ISBLK(bs.st_mode)) {
                offset += sysfs_u64(loopdir, "offset");
                g_free(backing);
                backing = g_strdup(text);
                dev = backing;
                vdc_blockdev_pos_dispose(&pos);
                g_clear_pointer(&loopdir, g_free);
                continue;
            }
        }
        break;
    }
    offset += pos.start;
    if (vdc_queue_limits_read(pos.disk, major(sb.st_rdev), minor(sb.st_rdev), &out->q) < 0) {
        vdc_blockdev_pos_dispose(&pos);
        return -1;
    }
    out->disk = g_strdup(pos.disk);
    out->source = g_strdup("sysfs");
    if (offset)
        vdc_alignment_add(out, VDC_ALIGN_PARTITION, 1, offset, 0);
    vdc_blockdev_pos_dispose(&pos);
    vdc_alignment_check(out);
    return 0;
}

void
vdc_alignment_from_placement(const vdc_placement *pl, int lv, uint64_t pe_start, uint64_t unit,
                             const vdc_queue_limits *q, vdc_alignment *out)
{
    uint64_t phys = physical_unit(q), first = 0;
    guint i;

    memset(out, 0, sizeof(*out));
    out->q = *q;
    out->disk = g_strdup(pl->pos.disk);
    out->source = g_strdup(lv ? "sysfs,lvs" : "sysfs,fiemap");
    if (pl->pos.start)
        vdc_alignment_add(out, VDC_ALIGN_PARTITION, 1, pl->pos.start, 0);
    if (lv && pe_start)
        vdc_alignment_add(out, VDC_ALIGN_PV_DATA, 1, pl->pos.start + pe_start, 0);
    for (i = 0; pl->ranges && i < pl->ranges->len; i++) {
        const vdc_byte_range *r = &g_array_index(pl->ranges, vdc_byte_range, i);

        if (i == 0)
            first = r->start;
        if (phys && r->start % phys) {
            first = r->start;       /* the first one that is off */
            break;
        }
    }
    if (pl->ranges && pl->ranges->len)
        vdc_alignment_add(out, lv ? VDC_ALIGN_LV_EXTENT : VDC_ALIGN_IMAGE_CLUSTER, 1, first, unit);
    vdc_alignment_check(out);
}
