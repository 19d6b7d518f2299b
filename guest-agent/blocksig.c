/* vmdiskcmp-agent: on-disk signature detection (see blocksig.h). */
#include "config.h"

#include <string.h>

#include "blocksig.h"

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
    static const unsigned char md_magic[4] = { 0xfc, 0x4e, 0x2b, 0xa9 };
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
    if (has(buf, len, 4086, "SWAPSPACE2", 10)
        || has(buf, len, 4086, "SWAP-SPACE", 10))
        return "Linux swap space (SWAPSPACE2 at 4086)";
    if (has(buf, len, 32769, "CD001", 5))
        return "ISO 9660 filesystem (CD001 at 32769)";
    if (has(buf, len, 512, "EFI PART", 8) || has(buf, len, 4096, "EFI PART", 8))
        return "GPT partition table (EFI PART header)";
    if (has(buf, len, 510, mbr_magic, 2))
        return "DOS/MBR partition table or FAT boot sector (0x55AA at 510)";
    return NULL;
}
