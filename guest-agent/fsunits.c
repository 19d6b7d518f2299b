/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The guest filesystem's units and its disk's I/O sizes (fsunits.h). */
#include "config.h"
#include "guest-agent/fsunits.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

static uint32_t
le16(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t
le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint32_t
be32(const unsigned char *p)
{
    return (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24;
}

/* fsunits.h */
enum vdc_fs_kind
vdc_fs_units_parse(const unsigned char *buf, size_t len, uint64_t *block, uint64_t *stripe)
{
    const unsigned char *sb = buf + 1024;

    if (len >= 1024 + 0x174 && sb[0x38] == 0x53 && sb[0x39] == 0xEF) {
        uint32_t log = le32(sb + 0x18), width = le32(sb + 0x170);

        if (log > 6)
            return VDC_FS_NONE;
        *block = 1024ull << log;
        *stripe = (uint64_t)(width ? width : le16(sb + 0x164)) * *block;
        return VDC_FS_EXT;
    }
    if (len >= 192 && !memcmp(buf, "XFSB", 4)) {
        uint32_t bs = be32(buf + 4), width = be32(buf + 188);

        if (bs < 512 || bs > 65536 || (bs & (bs - 1)))
            return VDC_FS_NONE;
        *block = bs;
        *stripe = (uint64_t)(width ? width : be32(buf + 184)) * bs;
        return VDC_FS_XFS;
    }
    return VDC_FS_NONE;
}

/* fsunits.h */
int
vdc_fs_units_read(const char *dev, const char *dir, struct vdc_fs_units *out)
{
    unsigned char buf[4096];
    ssize_t n = -1;
    struct statfs sf;
    int fd;

    memset(out, 0, sizeof(*out));
    fd = open(dev, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        n = pread(fd, buf, sizeof(buf), 0);
        close(fd);
    }
    if (n > 0) {
        switch (vdc_fs_units_parse(buf, (size_t)n, &out->block, &out->stripe)) {
        case VDC_FS_EXT:
            out->source = "ext4 superblock";
            return 0;
        case VDC_FS_XFS:
            out->source = "xfs superblock";
            return 0;
        case VDC_FS_NONE:
            break;
        }
    }
    if (dir && statfs(dir, &sf) == 0 && sf.f_bsize > 0) {
        out->block = (uint64_t)sf.f_bsize;
        out->source = "statfs";
        return 0;
    }
    return -1;
}

/* the number in @dir/@file, 0 when absent or not a number */
static uint64_t
sysfs_u64(const char *dir, const char *file)
{
    char path[512], text[32], *end;
    unsigned long long v;
    size_t n;
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, file);
    f = fopen(path, "re");
    if (!f)
        return 0;
    n = fread(text, 1, sizeof(text) - 1, f);
    fclose(f);
    text[n] = 0;
    v = strtoull(text, &end, 10);
    return end != text && (*end == '\n' || !*end) ? (uint64_t)v : 0;
}

/* fsunits.h */
int
vdc_disk_limits_read(const char *sysblock, const char *name, struct vdc_disk_limits *out)
{
    char disk[300], queue[320];

    memset(out, 0, sizeof(*out));
    if (!name[0] || strchr(name, '/'))
        return -1;
    snprintf(disk, sizeof(disk), "%s/%s", sysblock, name);
    snprintf(queue, sizeof(queue), "%s/queue", disk);
    if (access(queue, F_OK) < 0)
        return -1;
    out->physical_block_size = sysfs_u64(queue, "physical_block_size");
    out->minimum_io_size = sysfs_u64(queue, "minimum_io_size");
    out->optimal_io_size = sysfs_u64(queue, "optimal_io_size");
    out->alignment_offset = sysfs_u64(disk, "alignment_offset");
    return 0;
}
