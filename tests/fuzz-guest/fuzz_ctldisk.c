/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target for the control disk decoders (guest-agent/ctldisk_codec.c, ctldisk_disk.c):
 * the host reads result frames written by a guest it does not trust, the
 * runner reads job frames.  The first input byte picks a mode:
 *   0  the rest is a job frame, as is
 *   1  the rest is a result frame, as is
 *   2  the rest is a job payload: wrapped in a frame with correct CRCs so
 *      the fuzzer gets past the checksums into the TLV parser
 *   3  the same for a result payload
 *   4  the rest is a whole disk image (superblock, frames, progress block)
 *   5  the rest is a progress block, as is
 *   6  the same with a correct CRC
 *   7  the rest builds a job through the API: workloads (name, text) and
 *      workload arguments cut from it at NUL bytes, which the builders must
 *      refuse or keep exactly through an encode and a decode
 *   8  the rest is a progress block from byte 12 on (count, nonce, newest
 *      seq, ring, heartbeat) under a valid magic and version, with a
 *      correct CRC: straight into the ring and heartbeat checks
 *   9  the rest is a target result frame (a slot's), as is
 *  10  the same for a target result payload, wrapped with correct CRCs
 * Whatever decodes must encode again and decode to the same fields; a
 * decoded progress block's heartbeat is the bytes at 1312 and 1320. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "guest-agent/ctldisk.h"

static void
put32(uint8_t *p, uint32_t v)
{
    p[0] = v & 0xFF; p[1] = (v >> 8) & 0xFF; p[2] = (v >> 16) & 0xFF; p[3] = v >> 24;
}

static uint8_t *
wrap(const uint8_t *payload, size_t n, const char *magic, uint32_t kind)
{
    uint8_t *f = malloc(VDC_CTL_FRAME_HDR + n);

    memcpy(f, magic, 8);
    put32(f + 8, VDC_CTL_FORMAT_VERSION);
    put32(f + 12, kind);
    put32(f + 16, (uint32_t)n);
    put32(f + 20, 0);
    put32(f + 24, vdc_ctl_crc32c(payload, n));
    put32(f + 28, vdc_ctl_crc32c(f, 28));
    if (n)
        memcpy(f + VDC_CTL_FRAME_HDR, payload, n);
    return f;
}

static void
check_job(const uint8_t *buf, size_t len)
{
    struct vdc_ctl_job job, back;
    struct vdc_ctl_error err;
    uint8_t *enc;
    size_t elen, i;

    vdc_ctl_job_init(&job);
    vdc_ctl_job_init(&back);
    if (vdc_ctl_job_decode(buf, len, &job, &err) == 0) {
        if (vdc_ctl_job_encode(&job, &enc, &elen, &err) != 0)
            abort();
        if (vdc_ctl_job_decode(enc, elen, &back, &err) != 0)
            abort();
        if (back.nonce != job.nonce || back.seed != job.seed || back.n_targets != job.n_targets ||
            back.n_agent_args != job.n_agent_args || back.flags != job.flags ||
            back.n_workloads != job.n_workloads || back.n_workload_args != job.n_workload_args ||
            back.n_raw_workload_args != job.n_raw_workload_args)
            abort();
        for (i = 0; i < job.n_targets; i++)
            if (strcmp(back.targets[i].vdev, job.targets[i].vdev))
                abort();
        for (i = 0; i < job.n_workloads; i++)
            if (strcmp(back.workloads[i].name, job.workloads[i].name) ||
                strcmp(back.workloads[i].text, job.workloads[i].text))
                abort();
        for (i = 0; i < job.n_workload_args; i++)
            if (strcmp(back.workload_args[i], job.workload_args[i]))
                abort();
        for (i = 0; i < job.n_raw_workload_args; i++)
            if (strcmp(back.raw_workload_args[i], job.raw_workload_args[i]))
                abort();
        free(enc);
    }
    vdc_ctl_job_dispose(&job);
    vdc_ctl_job_dispose(&back);
}

static void
check_result(const uint8_t *buf, size_t len)
{
    struct vdc_ctl_result res, back;
    struct vdc_ctl_error err;
    uint8_t *enc;
    size_t elen;

    vdc_ctl_result_init(&res);
    vdc_ctl_result_init(&back);
    if (vdc_ctl_result_decode(buf, len, &res, &err) == 0) {
        if (vdc_ctl_result_encode(&res, VDC_CTL_DISK_MAX, &enc, &elen, &err) != 0)
            abort();
        if (vdc_ctl_result_decode(enc, elen, &back, &err) != 0)
            abort();
        /* the summary: a result frame never carries targets (slots do) */
        if (back.nonce != res.nonce || back.status != res.status || res.n_targets ||
            back.n_targets || back.log_len != res.log_len)
            abort();
        free(enc);
    }
    vdc_ctl_result_dispose(&res);
    vdc_ctl_result_dispose(&back);
}

static void
check_tresult(const uint8_t *buf, size_t len)
{
    struct vdc_ctl_target_result t, back;
    struct vdc_ctl_result owner;
    struct vdc_ctl_error err;
    uint64_t nonce = 0, bnonce = 0;
    uint8_t *enc;
    size_t elen;

    memset(&t, 0, sizeof(t));
    memset(&back, 0, sizeof(back));
    if (vdc_ctl_target_result_decode(buf, len, &nonce, &t, &err) == 0) {
        if (vdc_ctl_target_result_encode(nonce, &t, VDC_CTL_SLOT_MAX, &enc, &elen, &err) != 0)
            abort();
        if (vdc_ctl_target_result_decode(enc, elen, &bnonce, &back, &err) != 0)
            abort();
        if (bnonce != nonce || back.agent_json_len != t.agent_json_len || strcmp(back.name, t.name) ||
            back.status != t.status || back.agent_exit != t.agent_exit ||
            back.workload_exit != t.workload_exit ||
            back.workload_elapsed_ms != t.workload_elapsed_ms ||
            back.workload_json_len != t.workload_json_len ||
            (t.workload_json && memcmp(back.workload_json, t.workload_json, t.workload_json_len)) ||
            back.raw_workload_exit != t.raw_workload_exit ||
            back.raw_workload_elapsed_ms != t.raw_workload_elapsed_ms ||
            back.raw_workload_json_len != t.raw_workload_json_len ||
            (t.raw_workload_json &&
             memcmp(back.raw_workload_json, t.raw_workload_json, t.raw_workload_json_len)))
            abort();
        free(enc);
        /* disposed through a result that owns them */
        vdc_ctl_result_init(&owner);
        owner.targets = malloc(2 * sizeof(t));
        owner.targets[0] = t;
        owner.targets[1] = back;
        owner.n_targets = 2;
        vdc_ctl_result_dispose(&owner);
    }
}

static uint64_t
get64(const uint8_t *p)
{
    uint64_t v = 0;
    int i;

    for (i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* @header: the block's magic and version are set, @buf goes from byte 12 */
static void
check_progress(const uint8_t *buf, size_t len, int seal, int header)
{
    struct vdc_ctl_progress p, back;
    struct vdc_ctl_error err;
    uint8_t blk[VDC_CTL_PROGRESS_SIZE], enc[VDC_CTL_PROGRESS_SIZE];
    size_t at = header ? 12 : 0;

    memset(blk, 0, sizeof(blk));
    memcpy(blk + at, buf, len < sizeof(blk) - at ? len : sizeof(blk) - at);
    if (header) {
        memcpy(blk, VDC_CTL_PROGRESS_MAGIC, 8);
        put32(blk + 8, VDC_CTL_PROGRESS_VERSION);
    }
    if (seal)
        put32(blk + VDC_CTL_PROGRESS_SIZE - 4, vdc_ctl_crc32c(blk, VDC_CTL_PROGRESS_SIZE - 4));
    if (vdc_ctl_progress_decode(blk, sizeof(blk), &p, &err) == 0) {
        if (p.beats != get64(blk + 1312) || p.beat_ns != get64(blk + 1320))
            abort();
        vdc_ctl_progress_encode(&p, enc);
        if (vdc_ctl_progress_decode(enc, sizeof(enc), &back, &err) != 0 ||
            memcmp(&back, &p, sizeof(p)) != 0)
            abort();
    }
}

/* mode 7: a job built from @len bytes of @data (fields cut at NUL bytes:
 * name, text, name, text, ..., then arguments after an empty field) */
static void
check_builders(const uint8_t *data, size_t len)
{
    struct vdc_ctl_job job;
    struct vdc_ctl_error err;
    uint8_t *enc = NULL;
    size_t elen, n = 0;
    char *copy = malloc(len + 1), *p, *end, *field[64];
    int args = 0;

    memcpy(copy, data, len);
    copy[len] = 0;
    end = copy + len;
    for (p = copy; p <= end && n < 64; p += strlen(p) + 1)
        field[n++] = p;
    vdc_ctl_job_init(&job);
    job.nonce = 1;
    if (vdc_ctl_job_add_target(&job, "t", "vdb", "ext4", NULL, NULL, &err) != 0)
        abort();
    for (size_t i = 0; i < n; i++) {
        if (!*field[i] && !args) {
            args = 1;
            continue;
        }
        if (args)
            (void)vdc_ctl_job_add_workload_arg(&job, field[i], &err);
        else if (i + 1 < n) {
            (void)vdc_ctl_job_add_workload(&job, field[i], field[i + 1], &err);
            i++;
        }
    }
    if (field[0][0] & 1)
        job.flags |= VDC_CTL_JOB_NO_BONNIE;
    if (vdc_ctl_job_encode(&job, &enc, &elen, &err) == 0) {
        check_job(enc, elen);
        free(enc);
    }
    vdc_ctl_job_dispose(&job);
    free(copy);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct vdc_ctl_job job;
    struct vdc_ctl_result res;
    struct vdc_ctl_progress pg;
    struct vdc_ctl_error err;
    uint8_t *f;

    if (size < 1)
        return 0;

    switch (data[0] % 11) {
    case 0:
        check_job(data + 1, size - 1);
        break;
    case 1:
        check_result(data + 1, size - 1);
        break;
    case 2:
        f = wrap(data + 1, size - 1, VDC_CTL_JOB_MAGIC, 1);
        check_job(f, VDC_CTL_FRAME_HDR + size - 1);
        free(f);
        break;
    case 3:
        f = wrap(data + 1, size - 1, VDC_CTL_RES_MAGIC, 2);
        check_result(f, VDC_CTL_FRAME_HDR + size - 1);
        free(f);
        break;
    case 5:
    case 6:
        check_progress(data + 1, size - 1, data[0] % 11 == 6, 0);
        break;
    case 8:
        check_progress(data + 1, size - 1, 1, 1);
        break;
    case 7:
        check_builders(data + 1, size - 1);
        break;
    case 9:
        check_tresult(data + 1, size - 1);
        break;
    case 10:
        f = wrap(data + 1, size - 1, VDC_CTL_TRES_MAGIC, 3);
        check_tresult(f, VDC_CTL_FRAME_HDR + size - 1);
        free(f);
        break;
    default:
        vdc_ctl_image_read_progress(data + 1, size - 1, 0, &pg, &err);
        vdc_ctl_job_init(&job);
        vdc_ctl_result_init(&res);
        vdc_ctl_image_read_job(data + 1, size - 1, &job, &err);
        vdc_ctl_image_read_result(data + 1, size - 1, 0, &res, &err);
        vdc_ctl_job_dispose(&job);
        vdc_ctl_result_dispose(&res);
        break;
    }
    return 0;
}
