/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: on-disk signature detection (see blocksig.h). */
#include "config.h"

#include <string.h>

#include "blocksig.h"

/* Linux MD RAID's superblock magic 0xa92b4efc, little-endian (1.x, and
 * 0.90 written by a little-endian host) and big-endian (0.90) */
static const unsigned char md_magic[4] = { 0xfc, 0x4e, 0x2b, 0xa9 };
static const unsigned char md_magic_be[4] = { 0xa9, 0x2b, 0x4e, 0xfc };

static int
has(const unsigned char *buf, size_t len, size_t off, const void *magic,
    size_t mlen)
{
    return off + mlen <= len && memcmp(buf + off, magic, mlen) == 0;
}

const char *
agent_blocksig_find(const unsigned char *buf, size_t len)
{
    static const unsigned char ext_magic[2] = { 0x53, 0xef };
    static const unsigned char mbr_magic[2] = { 0x55, 0xaa };

    for (size_t sector = 0; sector < 4; sector++)
        if (has(buf, len, sector * 512, "LABELONE", 8)
            && has(buf, len, sector * 512 + 24, "LVM2 001", 8))
            return "LVM2 physical volume (LABELONE/LVM2 001 label)";
    if (has(buf, len, 0, "LUKS\xba\xbe", 6))
        return "LUKS encrypted volume (magic at 0)";
    if (has(buf, len, 0, "XFSB", 4))
        return "XFS filesystem (XFSB at 0)";
    if (has(buf, len, 0, "hsqs", 4))
        return "squashfs filesystem (hsqs at 0)";
    if (has(buf, len, 65600, "_BHRfS_M", 8))
        return "btrfs filesystem (_BHRfS_M at 65600)";
    if (has(buf, len, 1080, ext_magic, 2))
        return "ext2/3/4 filesystem (magic 0xEF53 at 1080)";
    if (has(buf, len, 0, md_magic, 4) || has(buf, len, 4096, md_magic, 4))
        return "Linux MD RAID member (superblock 1.x)";
    /* mkswap -p: the signature ends the first page, of 4 to 64 KiB */
    for (size_t page = 4096; page <= 65536; page *= 2)
        if (has(buf, len, page - 10, "SWAPSPACE2", 10)
            || has(buf, len, page - 10, "SWAP-SPACE", 10))
            return page == 4096 ? "Linux swap space (SWAPSPACE2 at 4086)"
                                : "Linux swap space (SWAPSPACE2 at the end of "
                                  "a page of 8-64 KiB)";
    if (has(buf, len, 32769, "CD001", 5))
        return "ISO 9660 filesystem (CD001 at 32769)";
    if (has(buf, len, 512, "EFI PART", 8) || has(buf, len, 4096, "EFI PART", 8))
        return "GPT partition table (EFI PART header)";
    if (has(buf, len, 510, mbr_magic, 2))
        return "DOS/MBR partition table or FAT boot sector (0x55AA at 510)";
    return NULL;
}

/* @mlen bytes of @magic at @off, an offset on the device, inside @tail
 * (the last @len bytes of @dev_size) */
static int
has_end(const unsigned char *tail, size_t len, uint64_t dev_size,
        uint64_t off, const void *magic, size_t mlen)
{
    return off >= dev_size - len
           && has(tail, len, (size_t)(off - (dev_size - len)), magic, mlen);
}

const char *
agent_blocksig_find_end(const unsigned char *tail, size_t len,
                        uint64_t dev_size)
{
    if (len > dev_size)
        return NULL;
    /* the backup GPT header in the last logical block (512-byte or 4 KiB
     * sectors): a disk whose start was wiped keeps its partition table
     * there, as wipefs and libblkid's BLKID_PARTS_FORCE_GPT find */
    if ((dev_size >= 512 && has_end(tail, len, dev_size, dev_size - 512, "EFI PART", 8))
        || (dev_size >= 4096 && has_end(tail, len, dev_size, dev_size - 4096, "EFI PART", 8)))
        return "GPT partition table (backup header in the last sector)";
    if (dev_size >= 2 * 65536) {
        uint64_t off = (dev_size & ~(uint64_t)65535) - 65536;

        if (has_end(tail, len, dev_size, off, md_magic, 4)
            || has_end(tail, len, dev_size, off, md_magic_be, 4))
            return "Linux MD RAID member (superblock 0.90 at the end)";
    }
    if (dev_size >= 8 * 1024 + 4096) {
        uint64_t off = ((dev_size / 512 - 16) & ~(uint64_t)7) * 512;

        if (has_end(tail, len, dev_size, off, md_magic, 4))
            return "Linux MD RAID member (superblock 1.0 at the end)";
    }
    return NULL;
}
