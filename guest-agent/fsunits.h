/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest filesystem's units and the I/O sizes of the disk it is on, as
 * the guest sees them (libc only: the static runner, and the host's unit
 * tests through libvdc-agentcore.a).  The runner reads both for each target
 * after mkfs and reports them in the target's result frame
 * (doc/control-disk.md, tags 0x0050-0x0058); the host checks the
 * filesystem's layers (fs_block, fs_stripe) against the disk's sizes by the
 * rule of src/host/alignment.h and records them in targets[].alignment. */
#ifndef VDC_GUEST_AGENT_FSUNITS_H
#define VDC_GUEST_AGENT_FSUNITS_H

#include <stddef.h>
#include <stdint.h>

/* What vdc_fs_units_parse recognised. */
enum vdc_fs_kind {
    VDC_FS_NONE = 0,
    VDC_FS_EXT = 1,     /* ext2/3/4 */
    VDC_FS_XFS = 2,
};

/* The filesystem's block size and stripe, bytes (0: none). */
struct vdc_fs_units {
    uint64_t block;
    uint64_t stripe;
    const char *source;     /* "ext4 superblock", "xfs superblock", "statfs"; NULL none */
};

/* The I/O sizes of a whole disk, bytes (0: not reported), from
 * /sys/block/NAME/queue/{physical_block_size,minimum_io_size,
 * optimal_io_size} and /sys/block/NAME/alignment_offset
 * (Documentation/ABI/stable/sysfs-block). */
struct vdc_disk_limits {
    uint64_t physical_block_size;
    uint64_t minimum_io_size;
    uint64_t optimal_io_size;
    uint64_t alignment_offset;
};

/* Pure: the block size and stripe width (bytes; stripe 0 when not set)
 * of the filesystem whose first bytes are @buf (@len; 4096 are enough):
 *   ext2/3/4  struct ext4_super_block at 1024 (fs/ext4/ext4.h): s_magic
 *             0xEF53 (le16 at 0x38), block size 1024 << s_log_block_size
 *             (le32 at 0x18, at most 6: 64 KiB), stripe s_raid_stripe_width
 *             (le32 at 0x170, blocks), else s_raid_stride (le16 at 0x164,
 *             blocks: mke2fs -E stride without stripe_width)
 *   XFS       struct xfs_dsb at 0 (fs/xfs/libxfs/xfs_format.h): "XFSB",
 *             sb_blocksize (be32 at 4, a power of 2 in 512..65536), stripe
 *             sb_width (be32 at 188, blocks), else sb_unit (be32 at 184)
 * Returns the kind; VDC_FS_NONE (and *@block, *@stripe untouched) when
 * @buf is neither or its block size is out of range. */
enum vdc_fs_kind vdc_fs_units_parse(const unsigned char *buf, size_t len, uint64_t *block,
                                    uint64_t *stripe);

/* Reader: the units of the filesystem on device (or image file) @dev from
 * its superblock; when it is none of the above and @dir (its mount point,
 * or NULL) is given, the block size statfs(2) reports there (f_bsize, no
 * stripe).  0 filled, -1 neither said anything (out zeroed). */
int vdc_fs_units_read(const char *dev, const char *dir, struct vdc_fs_units *out);

/* Reader: the I/O sizes of whole disk @name ("vdb", "sda", "xvdb") under
 * @sysblock ("/sys/block").  0 filled (a size the disk does not report is
 * 0), -1 when @name has no queue directory there (out zeroed). */
int vdc_disk_limits_read(const char *sysblock, const char *name, struct vdc_disk_limits *out);

#endif
