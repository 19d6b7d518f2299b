/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Placement: where an image file's blocks and an LV's extents lie on the
 * physical disk under them, as byte ranges of the same whole disk where
 * both share one, so an outer-vs-inner-zone difference on a rotating disk
 * (or an image scattered in fragments) is visible beside the numbers.
 *
 * Sources: the file's extents from FIEMAP (linux/fiemap.h, as `filefrag
 * -e` prints them; physical offsets on the filesystem's block device), an
 * LV's segments from `lvs --reportformat json -o seg_pe_ranges` with each
 * PV's pe_start from `pvs` (lvm2 2.03: libblockdev 2.28's BDLVMLVdata has
 * no segment data), and a partition's start on its disk from
 * /sys/dev/block/MAJ:MIN/start (512-byte sectors). */
#ifndef VDC_HOST_PLACEMENT_H
#define VDC_HOST_PLACEMENT_H

#include <stddef.h>
#include <stdint.h>

#include <glib.h>

/* One FIEMAP extent (struct fiemap_extent), bytes. */
typedef struct {
    uint64_t logical;       /* offset in the file */
    uint64_t physical;      /* offset on the filesystem's block device */
    uint64_t length;
    uint32_t flags;         /* FIEMAP_EXTENT_* */
} vdc_extent;

/* A byte range [start, start + length) on a block device. */
typedef struct {
    uint64_t start, length;
} vdc_byte_range;

/* Where a block device sits: the whole disk (in /sys/block) and the byte
 * offset of the device on it. */
typedef struct {
    char *device;           /* as sysfs names it: "vda2", "loop3", "dm-0" */
    char *disk;             /* its whole disk: "vda"; the device itself when
                             * it is a whole disk or a device-mapper device */
    uint64_t start;         /* bytes from the disk's first byte */
    uint64_t disk_bytes;    /* the disk's size */
    int rotational;         /* queue/rotational of the disk: 1, 0, -1 unknown */
    int is_dm;              /* a device-mapper device: what lies below is not
                             * resolved here */
} vdc_blockdev_pos;

/* The placement of one target's storage. */
typedef struct {
    vdc_blockdev_pos pos;   /* the disk the ranges are on */
    GArray *ranges;         /* vdc_byte_range on pos.disk, sorted, merged */
    uint64_t mapped_bytes;  /* sum of the ranges */
    uint64_t unmapped_bytes;/* file bytes with no known place: holes are not
                             * counted; delayed allocation, inline, unknown are */
    size_t extents;         /* FIEMAP extents or LV segment ranges read */
    uint64_t pe_start;      /* LV: its first segment's PV's pe_start, bytes; 0 image */
    uint64_t extent_size;   /* LV: the VG's extent size, bytes; 0 image */
} vdc_placement;

void vdc_blockdev_pos_dispose(vdc_blockdev_pos *p);
void vdc_placement_dispose(vdc_placement *p);   /* both safe twice */

/* Pure: @n FIEMAP extents on a device that starts @dev_start bytes into its
 * disk -> merged, sorted byte ranges on the disk appended to @ranges
 * (vdc_byte_range).  Extents without a usable physical offset (UNKNOWN,
 * DELALLOC, DATA_INLINE, NOT_ALIGNED with ENCODED) add to *unmapped.
 * Returns the bytes mapped. */
uint64_t vdc_extents_to_ranges(const vdc_extent *ext, size_t n, uint64_t dev_start,
                               GArray *ranges, uint64_t *unmapped);

/* Pure: lvm2's seg_pe_ranges text for one segment, e.g. "/dev/vdb:0-63" or
 * for stripes "/dev/vdb:0-31 /dev/vdc:0-31": appends (pv, first, last)
 * triples (PE numbers, inclusive) to the arrays.  0, or -1 after vdc_error
 * naming @source. */
int vdc_pe_ranges_parse(const char *text, const char *source, GPtrArray *pvs,
                        GArray *first, GArray *last);

/* Pure: LV @vg/@lv's segment PE ranges and the VG's extent size (bytes)
 * from `lvs --reportformat json --units b --nosuffix -o
 * vg_name,lv_name,seg_pe_ranges,vg_extent_size` output; rows of other
 * LVs are ignored.  Appends to @pvs/@first/@last as vdc_pe_ranges_parse.
 * 0, or -1 after vdc_error naming @source (not JSON, no such LV,
 * malformed field). */
int vdc_lvs_segments_parse(const char *json, const char *source, const char *vg, const char *lv,
                           GPtrArray *pvs, GArray *first, GArray *last, uint64_t *extent_size);

/* Pure: @pv's pe_start (bytes: where its first PE begins) from `pvs
 * --reportformat json --units b --nosuffix -o pv_name,pe_start` output.
 * 0, or -1 after vdc_error naming @source. */
int vdc_pvs_pe_start_parse(const char *json, const char *source, const char *pv,
                           uint64_t *pe_start);

/* A thin pool's facts as lvm2 reports them (`lvs --reportformat json
 * --units b --nosuffix --binary -o
 * lv_name,segtype,chunk_size,zero,discards,data_percent,metadata_percent,
 * lv_size,lv_metadata_size VG/POOL`; lvm2 2.03). */
typedef struct {
    uint64_t chunk_size;        /* bytes: the unit the pool allocates */
    int zero;                   /* new chunks zeroed before use: 1, 0, -1 unknown */
    char *discards;             /* "passdown", "nopassdown", "ignore"; NULL unknown */
    double data_percent;        /* % of the pool's data space in use; NAN unknown */
    double metadata_percent;    /* % of its metadata in use; NAN unknown */
    uint64_t pool_size;         /* bytes of data space */
    uint64_t metadata_size;     /* bytes of metadata space */
} vdc_thin_facts;

void vdc_thin_facts_dispose(vdc_thin_facts *f);   /* safe twice */

/* Pure: thin pool @vg/@pool's facts from the report above (rows of other
 * LVs ignored; the row's segtype must be thin-pool).  0, or -1 after
 * vdc_error naming @source. */
int vdc_lvs_thin_parse(const char *json, const char *source, const char *vg, const char *pool,
                       vdc_thin_facts *out);

/* Reader: that report of thin pool @vg/@pool, run with @lvm_args (NULL:
 * none), parsed.  0, or -1 after vdc_error. */
int vdc_thin_facts_read(const char *vg, const char *pool, const char *const *lvm_args,
                        vdc_thin_facts *out);

/* Pure: the byte-weighted middle of @ranges (bytes from the disk's start):
 * where "on average" the data lies; 0 for no ranges. */
double vdc_ranges_center(const GArray *ranges);

/* Reader: where block device @major:@minor sits (/sys/dev/block/M:m: a
 * partition's parent disk and start, the disk's size and rotational).
 * 0, or -1 after vdc_error. */
int vdc_blockdev_pos_read(unsigned major, unsigned minor, vdc_blockdev_pos *out);

/* Reader: the placement of image @path: its FIEMAP extents (without
 * FIEMAP_FLAG_SYNC: dirty data is not flushed, its delayed extents count
 * as unmapped) as ranges on the disk under its filesystem.  0, or -1
 * after vdc_error (e.g. the filesystem has no FIEMAP: tmpfs). */
int vdc_image_placement_read(const char *path, vdc_placement *out);

/* Reader: the placement of LV @vg/@lv: lvs and pvs (run with @lvm_args
 * extra arguments, NULL for none, e.g. {"--devices", "/dev/loop3", NULL})
 * and each PV's position; every segment must be on PVs of one disk
 * (else -1: the ranges would not be comparable).  0, or -1 after
 * vdc_error. */
int vdc_lv_placement_read(const char *vg, const char *lv, const char *const *lvm_args,
                          vdc_placement *out);

#endif
