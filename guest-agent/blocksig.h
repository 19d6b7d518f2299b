/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: does a block device carry data?  Pure detection of
 * well-known on-disk signatures in the device's first bytes, so that the
 * agent refuses to write over a filesystem, a partition table or an LVM PV
 * unless --destroy-data is given. */
#ifndef VDC_AGENT_BLOCKSIG_H
#define VDC_AGENT_BLOCKSIG_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of the device start that agent_blocksig_find examines. */
#define AGENT_BLOCKSIG_PROBE_LEN (68u * 1024u)
/* Bytes of the device end that agent_blocksig_find_end examines. */
#define AGENT_BLOCKSIG_TAIL_LEN (128u * 1024u)

/* Look for a signature in @buf, the first @len bytes of a device (short
 * devices give a short buffer).  Returns a static description such as
 * "ext2/3/4 filesystem (magic 0xEF53 at 1080)", or NULL when none is found.
 * Signatures and offsets (as libblkid's probes): LVM2 PV label
 * "LABELONE" + "LVM2 001" in sectors 0-3; GPT "EFI PART" at 512 or 4096;
 * MBR/DOS boot signature 0x55AA at 510 (partition table or FAT boot
 * sector); ext2/3/4 0xEF53 at 1080; XFS "XFSB" at 0; btrfs "_BHRfS_M" at
 * 65600; swap "SWAPSPACE2"/"SWAP-SPACE" at page size - 10 for pages of
 * 4-64 KiB; LUKS "LUKS\xba\xbe" at 0;
 * Linux MD RAID 1.x 0xa92b4efc at 0 or 4096 (1.1, 1.2); ISO 9660 "CD001"
 * at 32769; squashfs "hsqs" at 0. */
const char *agent_blocksig_find(const unsigned char *buf, size_t len);

/* Look for a signature kept at the end of a device of @dev_size bytes in
 * @tail, its last @len bytes (len <= dev_size).  The backup GPT header
 * ("EFI PART" in the last 512-byte or 4 KiB sector, as wipefs finds it
 * with the start wiped); Linux MD RAID superblock 0.90 (magic 0xa92b4efc
 * in either byte order at (size & ~65535) - 65536) and 1.0 (at
 * ((size / 512 - 16) & ~7) x 512), as libblkid's linux_raid_member probe.
 * Returns a static description, or NULL. */
const char *agent_blocksig_find_end(const unsigned char *tail, size_t len,
                                    uint64_t dev_size);

#endif
