/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Alignment: where each layer of a target's storage starts and what unit
 * it writes in, checked against the I/O sizes of the disk under it, so a
 * slow target that is only misaligned (every write a read-modify-write of
 * the disk's physical blocks) is flagged, never ranked.
 *
 * Layers (doc/result-format.md, targets[].alignment), offsets in bytes
 * from the first byte of the whole disk the data is on:
 *   partition      the start of the partition (or of a loop device's data
 *                  on the block device under it: losetup --offset)
 *   pv_data        an LV's PV: where its data area (first PE) starts
 *   lv_extent      an LV's first extent (size: the extent size; a thin
 *                  LV: the pool's data LV, size the pool's chunk size)
 *   image_cluster  an image's data on the disk (its file's extents, the
 *                  first misaligned one if any; size: qcow2's cluster
 *                  size, or the host filesystem's block size for raw)
 *   fs_block       the guest filesystem's block size (no offset)
 *   fs_stripe      its stripe width (ext4 stripe_width, XFS swidth; no
 *                  offset)
 * The filesystem's layers are the guest's: its runner reads them from the
 * filesystem it made (guest-agent/fsunits.h) with the I/O sizes of the
 * disk as the guest sees it, and they are checked against those
 * (vdc_alignment_guest_fs). The disk's sizes come from sysfs: queue/physical_block_size,
 * queue/minimum_io_size, queue/optimal_io_size and the device's
 * alignment_offset (Documentation/ABI/stable/sysfs-block).
 *
 * The rule (vdc_alignment_check): the physical unit is the larger of the
 * physical block size and the minimum I/O size; a layer's offset, less
 * the disk's alignment offset, must be a multiple of it, and so must its
 * size (fs_stripe excepted); with an optimal I/O size, the offsets must be
 * multiples of it too, and so must a stripe width.  A layer failing either
 * is misaligned. */
#ifndef VDC_HOST_ALIGNMENT_H
#define VDC_HOST_ALIGNMENT_H

#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "host/placement.h"

typedef enum {
    VDC_ALIGN_PARTITION,
    VDC_ALIGN_PV_DATA,
    VDC_ALIGN_LV_EXTENT,
    VDC_ALIGN_IMAGE_CLUSTER,
    VDC_ALIGN_FS_BLOCK,
    VDC_ALIGN_FS_STRIPE,
    VDC_ALIGN_LAYER_COUNT
} vdc_align_layer_kind;

/* "partition", "pv_data", "lv_extent", "image_cluster", "fs_block",
 * "fs_stripe"; NULL out of range.  vdc_align_layer_parse: the inverse, -1
 * when @name is none of them. */
const char *vdc_align_layer_name(vdc_align_layer_kind k);
int vdc_align_layer_parse(const char *name);

/* The I/O sizes of a whole disk, bytes (0: not reported). */
typedef struct {
    uint64_t logical_block_size;
    uint64_t physical_block_size;
    uint64_t minimum_io_size;
    uint64_t optimal_io_size;
    uint64_t alignment_offset;
} vdc_queue_limits;

typedef struct {
    vdc_align_layer_kind layer;
    int has_offset;             /* fs_block, fs_stripe: a unit only */
    uint64_t offset;            /* bytes from the disk's first byte */
    uint64_t size;              /* the layer's unit, bytes; 0 none */
    /* the verdicts (vdc_alignment_check) */
    uint64_t offset_over;       /* offset past the last multiple of the unit */
    uint64_t size_over;         /* size past the last multiple of the unit */
    int optimal_ok;             /* -1: no optimal I/O size, else 0/1 */
    int misaligned;
} vdc_align_layer;

#define VDC_ALIGN_LAYERS_MAX 8

typedef struct {
    vdc_align_layer layers[VDC_ALIGN_LAYERS_MAX];
    size_t n;
    vdc_queue_limits q;
    char *disk;                 /* the whole disk the sizes are of: "vda", "sdb" */
    char *source;               /* the facts read: "sysfs,lvs,fiemap,superblock" */
} vdc_alignment;

void vdc_alignment_dispose(vdc_alignment *a);   /* safe twice */

/* Append a layer (ignored beyond VDC_ALIGN_LAYERS_MAX). */
void vdc_alignment_add(vdc_alignment *a, vdc_align_layer_kind k, int has_offset, uint64_t offset,
                       uint64_t size);

/* Pure: the verdict of every layer of @a against @a->q (the rule above).
 * Returns the number of misaligned layers.  A disk whose physical block
 * size is unknown (0) makes no layer misaligned. */
size_t vdc_alignment_check(vdc_alignment *a);

/* Pure: one line naming why layer @l of @a is misaligned, with the
 * numbers ("pv_data at 1536 bytes is 1536 bytes past a multiple of the
 * physical block size 4096"), or NULL when it is not (g_free). */
char *vdc_alignment_why(const vdc_alignment *a, const vdc_align_layer *l);

/* Pure: the guest filesystem's layers as a guest reported them: fs_block
 * (size @block) and, when @stripe is not 0, fs_stripe (size @stripe), on
 * the guest's disk @disk (its name in the guest: "sdb") of I/O sizes @q,
 * source @source ("ext4 superblock"); checked (vdc_alignment_check).
 * Returns the number of misaligned layers. */
size_t vdc_alignment_guest_fs(const char *disk, const vdc_queue_limits *q, uint64_t block,
                              uint64_t stripe, const char *source, vdc_alignment *out);

/* Reader: the I/O sizes of whole disk @disk (its name in /sys/block) and
 * the alignment offset of block device @major:@minor on it (0:0: the
 * disk's own).  0, or -1 after vdc_error. */
int vdc_queue_limits_read(const char *disk, unsigned major, unsigned minor, vdc_queue_limits *out);

/* Reader: the alignment of block device @dev as a whole target (a --block
 * device): its partition start on its disk, or for a loop device over a
 * block device (a losetup --offset) its data's start on that device's
 * disk; the disk's I/O sizes.  0, or -1 after vdc_error. */
int vdc_blockdev_alignment_read(const char *dev, vdc_alignment *out);

/* Pure: the layers of an image or an LV from its placement @pl (ranges on
 * pl->pos.disk; pl->pos.start the partition's start when there is one):
 * an LV (@pe_start set, bytes, 0 unknown) gets pv_data and lv_extent
 * (size @unit: the extent size, or a thin pool's chunk size), an image
 * (@pe_start 0) image_cluster (size @unit: the cluster or the host
 * filesystem's block size), offset the first range not a multiple of
 * the disk's physical unit, else the first range.  A partition layer
 * when pl->pos.start > 0.  @q the disk's sizes. */
void vdc_alignment_from_placement(const vdc_placement *pl, int lv, uint64_t pe_start,
                                  uint64_t unit, const vdc_queue_limits *q, vdc_alignment *out);

#endif
