/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp control disk codec: the start gate of many guests at once, the
 * host's go record in the superblock's block (doc/control-disk.md "Start
 * gate"; the runner's ready, go and start times are in the progress block,
 * ctldisk_disk.c).  libc only. */
#include "config.h"
#include "ctldisk_codec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

_Static_assert(VDC_CTL_GATE_OFF >= VDC_CTL_SB_SIZE &&
               VDC_CTL_GATE_OFF + VDC_CTL_GATE_SIZE <= VDC_CTL_GATE_BLOCK &&
               VDC_CTL_GATE_BLOCK <= VDC_CTL_PROGRESS_OFF,
               "the gate record sits after the superblock, in its block, before the progress block");

void
vdc_ctl_gate_encode(const struct vdc_ctl_gate *g, uint8_t *out)
{
    memset(out, 0, VDC_CTL_GATE_SIZE);
    memcpy(out, VDC_CTL_GATE_MAGIC, 8);
    put_u32(out + 8, VDC_CTL_GATE_VERSION);
    put_u64(out + 16, g->nonce);
    put_u64(out + 24, g->host_ns);
    put_u32(out + VDC_CTL_GATE_SIZE - 4, vdc_ctl_crc32c(out, VDC_CTL_GATE_SIZE - 4));
}

int
vdc_ctl_gate_decode(const uint8_t *buf, size_t len, uint64_t nonce, struct vdc_ctl_gate *g,
                    struct vdc_ctl_error *err)
{
    static const uint8_t blank[8];
    uint32_t v;

    if (len < VDC_CTL_GATE_SIZE)
        return vdc_ctl_seterr(err, "gate record: truncated: %zu bytes, expected %u", len,
                              VDC_CTL_GATE_SIZE);
    if (memcmp(buf, blank, 8) == 0)
        return 1;
    if (memcmp(buf, VDC_CTL_GATE_MAGIC, 8) != 0)
        return vdc_ctl_seterr(err, "gate record: bad magic (expected %s)", VDC_CTL_GATE_MAGIC);
    if (get_u32(buf + VDC_CTL_GATE_SIZE - 4) != vdc_ctl_crc32c(buf, VDC_CTL_GATE_SIZE - 4))
        return vdc_ctl_seterr(err, "gate record: checksum mismatch");
    v = get_u32(buf + 8);
    if (v != VDC_CTL_GATE_VERSION)
        return vdc_ctl_seterr(err, "gate record: version %u, expected %u", v,
                              VDC_CTL_GATE_VERSION);
    if (get_u32(buf + 12) != 0)
        return vdc_ctl_seterr(err, "gate record: reserved field not zero");
    if (get_u64(buf + 16) != nonce)
        return vdc_ctl_seterr(err, "gate record: nonce %016llx, expected %016llx",
                              (unsigned long long)get_u64(buf + 16), (unsigned long long)nonce);
    g->nonce = nonce;
    g->host_ns = get_u64(buf + 24);
    return 0;
}

/* the gate's block into an aligned buffer (*@out, freed by the caller) */
static int
read_block(int fd, uint8_t **out, struct vdc_ctl_error *err)
{
    void *buf = NULL;

    if (posix_memalign(&buf, VDC_CTL_GATE_BLOCK, VDC_CTL_GATE_BLOCK) != 0)
        return vdc_ctl_seterr(err, "gate record: out of memory");
    if (vdc_ctl_pread_all(fd, buf, VDC_CTL_GATE_BLOCK, 0) < 0) {
        int e = errno;

        free(buf);
        return vdc_ctl_seterr(err, "control disk: read the gate's block: %s",
                              e ? strerror(e) : "short read");
    }
    *out = buf;
    return 0;
}

int
vdc_ctl_disk_write_gate(int fd, const struct vdc_ctl_gate *g, struct vdc_ctl_error *err)
{
    uint8_t *buf = NULL;

    if (read_block(fd, &buf, err) < 0)
        return -1;
    if (memcmp(buf, VDC_CTL_SB_MAGIC, 8) != 0) {
        free(buf);
        return vdc_ctl_seterr(err, "control disk: no superblock: the gate is not written");
    }
    vdc_ctl_gate_encode(g, buf + VDC_CTL_GATE_OFF);
    if (vdc_ctl_pwrite_all(fd, buf, VDC_CTL_GATE_BLOCK, 0) < 0) {
        int e = errno;

        free(buf);
        return vdc_ctl_seterr(err, "control disk: write the gate record: %s", strerror(e));
    }
    free(buf);
    return 0;
}

int
vdc_ctl_disk_read_gate(int fd, uint64_t nonce, struct vdc_ctl_gate *g, struct vdc_ctl_error *err)
{
    uint8_t *buf = NULL;
    int r;

    if (read_block(fd, &buf, err) < 0)
        return -1;
    r = vdc_ctl_gate_decode(buf + VDC_CTL_GATE_OFF, VDC_CTL_GATE_SIZE, nonce, g, err);
    free(buf);
    return r;
}
