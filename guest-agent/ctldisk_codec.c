/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp control disk codec: the TLV frames of the job and the result
 * (doc/control-disk.md), their encoder, decoder and record schemas.
 * libc only. */
#include "config.h"
#include "ctldisk_codec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- TLV tags (doc/control-disk.md lists them) ---------------------------- */
enum {
    T_NONCE = 0x0001,          /* u64, job and result */
    T_RUN_INDEX = 0x0002,      /* u32 */
    T_REPETITION = 0x0003,     /* u32 */
    T_SEED = 0x0004,           /* u64 */
    T_FLAGS = 0x0005,          /* u32 */
    T_STEP_TIMEOUT = 0x0006,   /* u32 seconds */
    T_AGENT_TIMEOUT = 0x0007,  /* u32 seconds */
    T_AGENT_ARG = 0x0008,      /* string, repeated, in order */
    T_GATE_TIMEOUT = 0x0009,   /* u32 seconds: the start gate (absent: none) */
    T_TARGET = 0x0010,         /* nested TLV: one job target */
    T_NAME = 0x0011,           /* string (in T_TARGET and T_TRESULT) */
    T_VDEV = 0x0012,           /* string */
    T_MKFS_TYPE = 0x0013,      /* string */
    T_MKFS_OPTIONS = 0x0014,   /* string */
    T_MOUNT_OPTIONS = 0x0015,  /* string */
    T_FS_ARGS = 0x0016,        /* string: the target's agent args, first filesystem pass */
    T_PASS_ARGS = 0x0017,      /* string: every pass */
    T_RAW_ARGS = 0x0018,       /* string: the raw pass */
    T_STATUS = 0x0020,         /* u32 */
    T_RUNNER_VERSION = 0x0021, /* string */
    T_KERNEL = 0x0022,         /* string */
    T_ERROR = 0x0023,          /* string */
    T_LOG = 0x0024,            /* blob */
    T_TRESULT = 0x0030,        /* nested TLV: one target result */
    T_TSTATUS = 0x0031,        /* u32 */
    T_AGENT_EXIT = 0x0032,     /* i32 */
    T_ELAPSED_MS = 0x0033,     /* u32 */
    T_TERROR = 0x0034,         /* string */
    T_AGENT_JSON = 0x0035,     /* blob */
    T_STDERR_TAIL = 0x0036,    /* blob */
    T_WORKLOAD_EXIT = 0x0037,  /* i32: the workload pass's agent exit */
    T_WORKLOAD_MS = 0x0038,    /* u32: its wall time */
    T_WORKLOAD_JSON = 0x0039,  /* blob: its --json output */
    T_WORKLOAD = 0x0040,       /* nested TLV: one job file */
    T_WL_NAME = 0x0041,        /* string (in T_WORKLOAD) */
    T_WL_TEXT = 0x0042,        /* string (in T_WORKLOAD) */
    T_WORKLOAD_ARG = 0x0043,   /* string, repeated, in order */
    T_RAW_WORKLOAD_ARG = 0x0044,   /* string, repeated: the raw pass's arguments */
    T_RAW_WORKLOAD_EXIT = 0x003A,  /* i32: the raw workload pass's agent exit */
    T_RAW_WORKLOAD_MS = 0x003B,    /* u32: its wall time */
    T_RAW_WORKLOAD_JSON = 0x003C,  /* blob: its --json output */
    T_FS_BLOCK = 0x0050,       /* u64 bytes: the guest filesystem's block size */
    T_FS_STRIPE = 0x0051,      /* u64 bytes: its stripe width (0 none) */
    T_FS_SOURCE = 0x0052,      /* string: what the runner read them from */
    T_DISK = 0x0053,           /* string: the guest's name of the target disk */
    T_DISK_PBS = 0x0054,       /* u64 bytes: its physical block size */
    T_DISK_MIN_IO = 0x0055,    /* u64 bytes: its minimum I/O size */
    T_DISK_OPT_IO = 0x0056,    /* u64 bytes: its optimal I/O size */
    T_DISK_ALIGN_OFF = 0x0057, /* u64 bytes: its alignment offset */
};

enum { KIND_JOB = 1, KIND_RESULT = 2, KIND_TRESULT = 3 };
#define TLV_HDR 8u

/* ---- encoder ---------------------------------------------------------------- */
struct buf {
    uint8_t *p;
    size_t len, cap;
    int oom;
};

static uint8_t *
buf_reserve(struct buf *b, size_t n)
{
    uint8_t *np;
    size_t cap;

    if (b->oom)
        return NULL;
    if (b->len + n > b->cap) {
        cap = b->cap ? b->cap : 256;
        while (cap < b->len + n)
            cap *= 2;
        np = realloc(b->p, cap);
        if (!np) {
            b->oom = 1;
            return NULL;
        }
        b->p = np;
        b->cap = cap;
    }
    b->len += n;
    return b->p + b->len - n;
}

static void
tlv_bytes(struct buf *b, uint16_t tag, const void *v, size_t len)
{
    uint8_t *p = buf_reserve(b, TLV_HDR + len);

    if (!p)
        return;
    put_u16(p, tag);
    put_u16(p + 2, 0);
    put_u32(p + 4, (uint32_t)len);
    if (len)
        memcpy(p + TLV_HDR, v, len);
}

static void
tlv_str(struct buf *b, uint16_t tag, const char *s)
{
    if (s)
        tlv_bytes(b, tag, s, strlen(s));
}

static void
tlv_u32(struct buf *b, uint16_t tag, uint32_t v)
{
    uint8_t x[4];

    put_u32(x, v);
    tlv_bytes(b, tag, x, 4);
}

static void
tlv_u64(struct buf *b, uint16_t tag, uint64_t v)
{
    uint8_t x[8];

    put_u64(x, v);
    tlv_bytes(b, tag, x, 8);
}

/* open a nested TLV; returns the offset of its header for tlv_end */
static size_t
tlv_begin(struct buf *b, uint16_t tag)
{
    size_t off = b->len;

    tlv_bytes(b, tag, NULL, 0);
    return off;
}

static void
tlv_end(struct buf *b, size_t off)
{
    if (!b->oom)
        put_u32(b->p + off + 4, (uint32_t)(b->len - off - TLV_HDR));
}

/* wrap payload @b (which starts with VDC_CTL_FRAME_HDR reserved bytes) */
static void
frame_seal(struct buf *b, const char *magic, uint32_t kind)
{
    uint8_t *h = b->p;
    uint64_t plen = b->len - VDC_CTL_FRAME_HDR;

    memcpy(h, magic, 8);
    put_u32(h + 8, VDC_CTL_FORMAT_VERSION);
    put_u32(h + 12, kind);
    put_u64(h + 16, plen);
    put_u32(h + 24, vdc_ctl_crc32c(h + VDC_CTL_FRAME_HDR, plen));
    put_u32(h + 28, vdc_ctl_crc32c(h, 28));
}

int
vdc_ctl_job_encode(const struct vdc_ctl_job *job, uint8_t **out, size_t *out_len,
                   struct vdc_ctl_error *err)
{
    struct buf b = { 0 };
    size_t i, off;

    *out = NULL;
    *out_len = 0;
    if (job->n_targets == 0)
        return vdc_ctl_seterr(err, "job: no targets");
    if (job->n_targets > VDC_CTL_MAX_TARGETS || job->n_agent_args > VDC_CTL_MAX_ARGS)
        return vdc_ctl_seterr(err, "job: too many targets or agent arguments");
    if (job->n_workloads > VDC_CTL_MAX_WORKLOADS || job->n_workload_args > VDC_CTL_MAX_ARGS ||
        job->n_raw_workload_args > VDC_CTL_MAX_ARGS)
        return vdc_ctl_seterr(err, "job: too many workloads or workload arguments");
    if (vdc_ctl_check_flags(job, err) < 0)
        return -1;
    for (i = 0; i < job->n_targets; i++)
        if (vdc_ctl_check_target(&job->targets[i], i, err) < 0)
            return -1;
    for (i = 0; i < job->n_workloads; i++)
        if (vdc_ctl_check_workload(&job->workloads[i], i, err) < 0)
            return -1;
    buf_reserve(&b, VDC_CTL_FRAME_HDR);
    tlv_u64(&b, T_NONCE, job->nonce);
    tlv_u32(&b, T_RUN_INDEX, job->run_index);
    tlv_u32(&b, T_REPETITION, job->repetition);
    tlv_u64(&b, T_SEED, job->seed);
    tlv_u32(&b, T_FLAGS, job->flags);
    tlv_u32(&b, T_STEP_TIMEOUT, job->step_timeout_s);
    tlv_u32(&b, T_AGENT_TIMEOUT, job->agent_timeout_s);
    /* only with a gate: a job without one encodes as before it existed */
    if (job->gate_timeout_s)
        tlv_u32(&b, T_GATE_TIMEOUT, job->gate_timeout_s);
    for (i = 0; i < job->n_agent_args; i++)
        tlv_str(&b, T_AGENT_ARG, job->agent_args[i]);
    for (i = 0; i < job->n_targets; i++) {
        const struct vdc_ctl_target *t = &job->targets[i];

        off = tlv_begin(&b, T_TARGET);
        tlv_str(&b, T_NAME, t->name);
        tlv_str(&b, T_VDEV, t->vdev);
        tlv_str(&b, T_MKFS_TYPE, t->mkfs_type);
        tlv_str(&b, T_MKFS_OPTIONS, t->mkfs_options);
        tlv_str(&b, T_MOUNT_OPTIONS, t->mount_options);
        tlv_str(&b, T_FS_ARGS, t->fs_args);
        tlv_str(&b, T_PASS_ARGS, t->pass_args);
        tlv_str(&b, T_RAW_ARGS, t->raw_args);
        tlv_end(&b, off);
    }
    /* the workload records only when there are workloads: a job without
     * them encodes as before they existed */
    for (i = 0; i < job->n_workloads; i++) {
        off = tlv_begin(&b, T_WORKLOAD);
        tlv_str(&b, T_WL_NAME, job->workloads[i].name);
        tlv_str(&b, T_WL_TEXT, job->workloads[i].text);
        tlv_end(&b, off);
    }
    for (i = 0; i < job->n_workload_args; i++)
        tlv_str(&b, T_WORKLOAD_ARG, job->workload_args[i]);
    for (i = 0; i < job->n_raw_workload_args; i++)
        tlv_str(&b, T_RAW_WORKLOAD_ARG, job->raw_workload_args[i]);
    if (b.oom) {
        free(b.p);
        return vdc_ctl_seterr(err, "job: out of memory");
    }
    if (b.len > VDC_CTL_JOB_MAX) {
        free(b.p);
        return vdc_ctl_seterr(err, "job: %zu bytes, more than the %u-byte job area", b.len,
                      VDC_CTL_JOB_MAX);
    }
    frame_seal(&b, VDC_CTL_JOB_MAGIC, KIND_JOB);
    *out = b.p;
    *out_len = b.len;
    return 0;
}

/* one target result as a T_TRESULT record */
static void
encode_tresult(struct buf *b, const struct vdc_ctl_target_result *t)
{
    size_t off = tlv_begin(b, T_TRESULT);

    tlv_str(b, T_NAME, t->name);
    tlv_str(b, T_VDEV, t->vdev);
    tlv_u32(b, T_TSTATUS, t->status);
    tlv_u32(b, T_AGENT_EXIT, (uint32_t)t->agent_exit);
    tlv_u32(b, T_ELAPSED_MS, t->elapsed_ms);
    tlv_str(b, T_TERROR, t->error);
    if (t->agent_json)
        tlv_bytes(b, T_AGENT_JSON, t->agent_json, t->agent_json_len);
    if (t->stderr_tail)
        tlv_bytes(b, T_STDERR_TAIL, t->stderr_tail, t->stderr_tail_len);
    if (t->workload_exit != -1 || t->workload_elapsed_ms) {
        tlv_u32(b, T_WORKLOAD_EXIT, (uint32_t)t->workload_exit);
        tlv_u32(b, T_WORKLOAD_MS, t->workload_elapsed_ms);
    }
    if (t->workload_json)
        tlv_bytes(b, T_WORKLOAD_JSON, t->workload_json, t->workload_json_len);
    if (t->raw_workload_exit != -1 || t->raw_workload_elapsed_ms) {
        tlv_u32(b, T_RAW_WORKLOAD_EXIT, (uint32_t)t->raw_workload_exit);
        tlv_u32(b, T_RAW_WORKLOAD_MS, t->raw_workload_elapsed_ms);
    }
    if (t->raw_workload_json)
        tlv_bytes(b, T_RAW_WORKLOAD_JSON, t->raw_workload_json, t->raw_workload_json_len);
    if (t->fs_block) {
        tlv_u64(b, T_FS_BLOCK, t->fs_block);
        tlv_u64(b, T_FS_STRIPE, t->fs_stripe);
        tlv_str(b, T_FS_SOURCE, t->fs_source);
    }
    if (t->disk) {
        tlv_str(b, T_DISK, t->disk);
        tlv_u64(b, T_DISK_PBS, t->disk_physical_block_size);
        tlv_u64(b, T_DISK_MIN_IO, t->disk_minimum_io_size);
        tlv_u64(b, T_DISK_OPT_IO, t->disk_optimal_io_size);
        tlv_u64(b, T_DISK_ALIGN_OFF, t->disk_alignment_offset);
    }
    tlv_end(b, off);
}

/* seal @b as a frame of at most @max bytes into *@out, or fail naming
 * @what; @b is freed on failure */
static int
frame_finish(struct buf *b, const char *magic, uint32_t kind, size_t max, const char *what,
             uint8_t **out, size_t *out_len, struct vdc_ctl_error *err)
{
    if (b->oom) {
        free(b->p);
        return vdc_ctl_seterr(err, "%s: out of memory", what);
    }
    if (b->len > max) {
        free(b->p);
        return vdc_ctl_seterr(err, "%s: %zu bytes, more than the %zu-byte area", what, b->len, max);
    }
    frame_seal(b, magic, kind);
    *out = b->p;
    *out_len = b->len;
    return 0;
}

int
vdc_ctl_result_encode(const struct vdc_ctl_result *res, size_t max, uint8_t **out,
                      size_t *out_len, struct vdc_ctl_error *err)
{
    struct buf b = { 0 };

    *out = NULL;
    *out_len = 0;
    buf_reserve(&b, VDC_CTL_FRAME_HDR);
    tlv_u64(&b, T_NONCE, res->nonce);
    tlv_u32(&b, T_STATUS, res->status);
    tlv_str(&b, T_RUNNER_VERSION, res->runner_version);
    tlv_str(&b, T_KERNEL, res->kernel);
    tlv_str(&b, T_ERROR, res->error);
    if (res->log)
        tlv_bytes(&b, T_LOG, res->log, res->log_len);
    return frame_finish(&b, VDC_CTL_RES_MAGIC, KIND_RESULT, max, "result", out, out_len, err);
}

int
vdc_ctl_target_result_encode(uint64_t nonce, const struct vdc_ctl_target_result *t, size_t max,
                             uint8_t **out, size_t *out_len, struct vdc_ctl_error *err)
{
    struct buf b = { 0 };
    char what[96];

    *out = NULL;
    *out_len = 0;
    snprintf(what, sizeof(what), "target result %.64s", t->name ? t->name : "");
    buf_reserve(&b, VDC_CTL_FRAME_HDR);
    tlv_u64(&b, T_NONCE, nonce);
    encode_tresult(&b, t);
    return frame_finish(&b, VDC_CTL_TRES_MAGIC, KIND_TRESULT, max, what, out, out_len, err);
}

/* What a slot's frame holds besides the blobs, at the decoder's limits:
 * the frame header, the nonce, the target record's header, name (64),
 * vdev (32), three numbers, the error (VDC_CTL_MAX_STRING), the stderr
 * tail (VDC_CTL_TAIL_MAX), the two passes' exit and time, and the
 * guest filesystem and disk: six numbers, its source (64) and the disk's
 * name (32). */
#define SLOT_FIXED (VDC_CTL_FRAME_HDR + (TLV_HDR + 8) + TLV_HDR + (TLV_HDR + 64) + \
                    (TLV_HDR + 32) + 3 * (TLV_HDR + 4) + (TLV_HDR + VDC_CTL_MAX_STRING) + \
                    (TLV_HDR + VDC_CTL_TAIL_MAX) + 4 * (TLV_HDR + 4) + 6 * (TLV_HDR + 8) + \
                    (TLV_HDR + 64) + (TLV_HDR + 32))
_Static_assert(SLOT_FIXED + 3 * (TLV_HDR + (uint64_t)VDC_CTL_MAX_BLOB) + 4095 <= VDC_CTL_SLOT_MAX,
               "three passes fit the largest slot");

uint64_t
vdc_ctl_slot_size(const struct vdc_ctl_job *job)
{
    unsigned passes = !(job->flags & VDC_CTL_JOB_NO_BONNIE) +
                      (job->n_workloads && !(job->flags & VDC_CTL_JOB_NO_FILE_WORKLOADS)) +
                      !!(job->flags & VDC_CTL_JOB_RAW_WORKLOADS);
    uint64_t n = SLOT_FIXED + (uint64_t)passes * (TLV_HDR + VDC_CTL_MAX_BLOB);

    return (n + 4095) & ~(uint64_t)4095;
}

uint64_t
vdc_ctl_disk_size(const struct vdc_ctl_job *job)
{
    size_t n = job->n_targets ? job->n_targets : 1;

    return VDC_CTL_SLOT_OFF + n * vdc_ctl_slot_size(job);
}

/* ---- decoder ---------------------------------------------------------------- */
/* iterate TLV records in [p, p+len): *tag, *val, *vlen; returns 1 while
 * records remain, 0 at the end, -1 on a malformed record */
struct tlv_iter {
    const uint8_t *p;
    size_t len, pos;
};

static int
tlv_next(struct tlv_iter *it, uint16_t *tag, const uint8_t **val, uint32_t *vlen,
         const char *where, struct vdc_ctl_error *err)
{
    uint32_t l;

    if (it->pos == it->len)
        return 0;
    if (it->len - it->pos < TLV_HDR)
        return vdc_ctl_seterr(err, "%s: truncated record header at byte %zu", where, it->pos);
    *tag = get_u16(it->p + it->pos);
    if (get_u16(it->p + it->pos + 2) != 0)
        return vdc_ctl_seterr(err, "%s: record 0x%04x at byte %zu: reserved field not zero", where,
                      *tag, it->pos);
    l = get_u32(it->p + it->pos + 4);
    if (l > it->len - it->pos - TLV_HDR)
        return vdc_ctl_seterr(err, "%s: record 0x%04x at byte %zu: length %u runs past the frame",
                      where, *tag, it->pos, l);
    *val = it->p + it->pos + TLV_HDR;
    *vlen = l;
    it->pos += TLV_HDR + l;
    return 1;
}

static int
get_str(const uint8_t *v, uint32_t len, size_t max, char **dst, const char *what,
        struct vdc_ctl_error *err)
{
    if (*dst)
        return vdc_ctl_seterr(err, "%s: given twice: expected one", what);
    if (len > max)
        return vdc_ctl_seterr(err, "%s: %u bytes, more than the limit of %zu", what, len, max);
    if (memchr(v, 0, len))
        return vdc_ctl_seterr(err, "%s: contains a NUL byte", what);
    *dst = malloc(len + 1);
    if (!*dst)
        return vdc_ctl_seterr(err, "%s: out of memory", what);
    memcpy(*dst, v, len);
    (*dst)[len] = 0;
    return 0;
}

/* blobs may hold any byte but are NUL-terminated for convenience */
static int
get_blob(const uint8_t *v, uint32_t len, char **dst, size_t *dlen, const char *what,
         struct vdc_ctl_error *err)
{
    if (*dst)
        return vdc_ctl_seterr(err, "%s: given twice: expected one", what);
    if (len > VDC_CTL_MAX_BLOB)
        return vdc_ctl_seterr(err, "%s: %u bytes, more than the limit of %u", what, len,
                      VDC_CTL_MAX_BLOB);
    *dst = malloc(len + 1);
    if (!*dst)
        return vdc_ctl_seterr(err, "%s: out of memory", what);
    memcpy(*dst, v, len);
    (*dst)[len] = 0;
    *dlen = len;
    return 0;
}

static int
get_num(const uint8_t *v, uint32_t len, uint32_t want, unsigned *seen, unsigned bit,
        uint64_t *out, const char *what, struct vdc_ctl_error *err)
{
    if (len != want)
        return vdc_ctl_seterr(err, "%s: %u bytes, expected %u", what, len, want);
    if (*seen & bit)
        return vdc_ctl_seterr(err, "%s: given twice: expected one", what);
    *seen |= bit;
    *out = want == 8 ? get_u64(v) : get_u32(v);
    return 0;
}

/* validate the frame header at @buf; on success *payload, *plen */
static int
frame_open(const uint8_t *buf, size_t len, const char *magic, uint32_t kind, size_t max,
           const char *what, const uint8_t **payload, size_t *plen, struct vdc_ctl_error *err)
{
    uint32_t v, k;
    uint64_t l;

    if (len < VDC_CTL_FRAME_HDR)
        return vdc_ctl_seterr(err, "%s frame: truncated: %zu bytes, header needs %u", what, len,
                      VDC_CTL_FRAME_HDR);
    if (memcmp(buf, magic, 8) != 0) {
        static const uint8_t zero[8];

        if (!memcmp(buf, zero, 8))
            return vdc_ctl_seterr(err, "no %s frame (area is blank)", what);
        return vdc_ctl_seterr(err, "%s frame: bad magic (expected %.8s)", what, magic);
    }
    if (get_u32(buf + 28) != vdc_ctl_crc32c(buf, 28))
        return vdc_ctl_seterr(err, "%s frame: header checksum mismatch", what);
    v = get_u32(buf + 8);
    if (v != VDC_CTL_FORMAT_VERSION)
        return vdc_ctl_seterr(err, "%s frame: format version %u, expected %u", what, v,
                      VDC_CTL_FORMAT_VERSION);
    k = get_u32(buf + 12);
    if (k != kind)
        return vdc_ctl_seterr(err, "%s frame: kind %u, expected %u", what, k, kind);
    l = get_u64(buf + 16);
    if (l > max - VDC_CTL_FRAME_HDR)
        return vdc_ctl_seterr(err, "%s frame: payload length %llu over the limit of %zu", what,
                      (unsigned long long)l, max - VDC_CTL_FRAME_HDR);
    if (l > len - VDC_CTL_FRAME_HDR)
        return vdc_ctl_seterr(err, "%s frame: truncated: payload length %llu, %zu bytes present",
                      what, (unsigned long long)l, len - VDC_CTL_FRAME_HDR);
    if (get_u32(buf + 24) != vdc_ctl_crc32c(buf + VDC_CTL_FRAME_HDR, l))
        return vdc_ctl_seterr(err, "%s frame: payload checksum mismatch", what);
    *payload = buf + VDC_CTL_FRAME_HDR;
    *plen = (size_t)l;
    return 0;
}

static int decode_record(const uint8_t *p, size_t len, void *rec, const struct tlv_schema *s,
                         size_t idx, const char *where, struct vdc_ctl_error *err);

/* append one zeroed element of @size bytes to the array member at @arr_off
 * (count at @n_off); NULL on ENOMEM */
static void *
array_grow(char *base, size_t arr_off, size_t n_off, size_t size)
{
    char *arr;
    size_t *n = (size_t *)(void *)(base + n_off);

    memcpy(&arr, base + arr_off, sizeof(arr));
    arr = realloc(arr, (*n + 1) * size);
    if (!arr)
        return NULL;
    memcpy(base + arr_off, &arr, sizeof(arr));
    memset(arr + *n * size, 0, size);
    return arr + (*n)++ * size;
}

/* one record of field @f with value @v (@vl bytes) into @rec */
static int
decode_field(const struct tlv_field *f, const uint8_t *v, uint32_t vl, char *rec,
             unsigned *seen, const char *where, struct vdc_ctl_error *err)
{
    size_t *n = (size_t *)(void *)(rec + f->off_n);
    char **s;
    void *elem;
    uint64_t x = 0;

    switch (f->kind) {
    case F_U32:
    case F_I32:
    case F_U64:
        if (get_num(v, vl, f->kind == F_U64 ? 8 : 4, seen, f->bit, &x, f->what, err) < 0)
            return -1;
        if (f->kind == F_U64)
            *(uint64_t *)(void *)(rec + f->off) = x;
        else if (f->kind == F_I32)
            *(int32_t *)(void *)(rec + f->off) = (int32_t)(uint32_t)x;
        else
            *(uint32_t *)(void *)(rec + f->off) = (uint32_t)x;
        return 0;
    case F_STR:
        return get_str(v, vl, f->max, (char **)(void *)(rec + f->off), f->what, err);
    case F_BLOB:
        return get_blob(v, vl, (char **)(void *)(rec + f->off), n, f->what, err);
    case F_STRS: {
        char *str = NULL;

        if (*n >= f->max)
            return vdc_ctl_seterr(err, "%s: more than %zu %s", where, f->max, f->many);
        if (get_str(v, vl, VDC_CTL_MAX_STRING, &str, f->what, err) < 0)
            return -1;
        if (!(s = array_grow(rec, f->off, f->off_n, sizeof(*s)))) {
            free(str);
            return vdc_ctl_seterr(err, "%s: out of memory", where);
        }
        *s = str;
        return 0;
    }
    case F_LIST:
        if (*n >= f->max)
            return vdc_ctl_seterr(err, "%s: more than %zu %s", where, f->max, f->many);
        if (!(elem = array_grow(rec, f->off, f->off_n, f->sub->size)))
            return vdc_ctl_seterr(err, "%s: out of memory", where);
        return decode_record(v, vl, elem, f->sub, *n - 1, NULL, err);
    }
    return 0;
}

/* walk the TLV records in [p, p+len) into @rec by schema @s: @where names
 * the record in messages, NULL for "<s->where> <idx>" (list elements) */
static int
decode_record(const uint8_t *p, size_t len, void *rec, const struct tlv_schema *s,
              size_t idx, const char *where, struct vdc_ctl_error *err)
{
    struct tlv_iter it = { p, len, 0 };
    const uint8_t *v = NULL;
    uint32_t vl = 0;
    uint16_t tag = 0;
    unsigned seen = 0;
    size_t i;
    int r;
    char name[40];

    if (!where) {
        snprintf(name, sizeof(name), "%s %zu", s->where, idx);
        where = name;
    }
    if (s->start)
        s->start(rec);
    while ((r = tlv_next(&it, &tag, &v, &vl, where, err)) > 0) {
        for (i = 0; i < s->n_fields; i++)
            if (s->fields[i].tag == tag)
                break;
        if (i < s->n_fields && decode_field(&s->fields[i], v, vl, rec, &seen, where, err) < 0)
            return -1;
    }
    if (r < 0)
        return -1;
    return s->finish(rec, seen, idx, err);
}

#define FIELD_NUM(tag, kind, bit, type, member, what) \
    { tag, kind, bit, 0, offsetof(type, member), 0, what, NULL, NULL }
#define FIELD_STR(tag, max, type, member, what) \
    { tag, F_STR, 0, max, offsetof(type, member), 0, what, NULL, NULL }
#define FIELD_BLOB(tag, type, member, what) \
    { tag, F_BLOB, 0, VDC_CTL_MAX_BLOB, offsetof(type, member), offsetof(type, member##_len), \
      what, NULL, NULL }

static int
target_finish(void *rec, unsigned seen, size_t idx, struct vdc_ctl_error *err)
{
    struct vdc_ctl_target *t = rec;

    if (!t->name || !t->vdev || !t->mkfs_type)
        return vdc_ctl_seterr(err, "job target %zu: missing %s", idx,
                      !t->name ? "name" : !t->vdev ? "vdev" : "mkfs type");
    return vdc_ctl_check_target(t, idx, err);
}

static const struct tlv_field target_fields[] = {
    FIELD_STR(T_NAME, 64, struct vdc_ctl_target, name, "job target name"),
    FIELD_STR(T_VDEV, 32, struct vdc_ctl_target, vdev, "job target vdev"),
    FIELD_STR(T_MKFS_TYPE, 16, struct vdc_ctl_target, mkfs_type, "job target mkfs type"),
    FIELD_STR(T_MKFS_OPTIONS, VDC_CTL_MAX_STRING, struct vdc_ctl_target, mkfs_options,
              "job target mkfs options"),
    FIELD_STR(T_MOUNT_OPTIONS, VDC_CTL_MAX_STRING, struct vdc_ctl_target, mount_options,
              "job target mount options"),
    FIELD_STR(T_FS_ARGS, VDC_CTL_MAX_STRING, struct vdc_ctl_target, fs_args,
              "job target fs args"),
    FIELD_STR(T_PASS_ARGS, VDC_CTL_MAX_STRING, struct vdc_ctl_target, pass_args,
              "job target pass args"),
    FIELD_STR(T_RAW_ARGS, VDC_CTL_MAX_STRING, struct vdc_ctl_target, raw_args,
              "job target raw args"),
};

const struct tlv_schema vdc_ctl_target_schema = {
    "job target", sizeof(struct vdc_ctl_target), target_fields,
    sizeof(target_fields) / sizeof(target_fields[0]), NULL, target_finish,
};

static int
workload_finish(void *rec, unsigned seen, size_t idx, struct vdc_ctl_error *err)
{
    const struct vdc_ctl_workload *w = rec;

    if (!w->name || !w->text)
        return vdc_ctl_seterr(err, "job workload %zu: missing %s", idx, !w->name ? "name" : "text");
    return vdc_ctl_check_workload(w, idx, err);
}

static const struct tlv_field workload_fields[] = {
    FIELD_STR(T_WL_NAME, 64, struct vdc_ctl_workload, name, "job workload name"),
    FIELD_STR(T_WL_TEXT, VDC_CTL_MAX_JOBFILE, struct vdc_ctl_workload, text, "job workload text"),
};

const struct tlv_schema vdc_ctl_workload_schema = {
    "job workload", sizeof(struct vdc_ctl_workload), workload_fields,
    sizeof(workload_fields) / sizeof(workload_fields[0]), NULL, workload_finish,
};

static int
job_finish(void *rec, unsigned seen, size_t idx, struct vdc_ctl_error *err)
{
    const struct vdc_ctl_job *job = rec;
    size_t i, k;

    if (!(seen & 1))
        return vdc_ctl_seterr(err, "job: missing nonce");
    if (job->n_targets == 0)
        return vdc_ctl_seterr(err, "job: no targets");
    for (i = 0; i < job->n_workloads; i++)
        for (k = 0; k < i; k++)
            if (!strcmp(job->workloads[i].name, job->workloads[k].name))
                return vdc_ctl_seterr(err, "job workload %zu (%s): name given twice: expected each workload name once", i,
                              job->workloads[i].name);
    return vdc_ctl_check_flags(job, err);
}

static const struct tlv_field job_fields[] = {
    FIELD_NUM(T_NONCE, F_U64, 1, struct vdc_ctl_job, nonce, "job nonce"),
    FIELD_NUM(T_RUN_INDEX, F_U32, 2, struct vdc_ctl_job, run_index, "job run index"),
    FIELD_NUM(T_REPETITION, F_U32, 4, struct vdc_ctl_job, repetition, "job repetition"),
    FIELD_NUM(T_SEED, F_U64, 8, struct vdc_ctl_job, seed, "job seed"),
    FIELD_NUM(T_FLAGS, F_U32, 16, struct vdc_ctl_job, flags, "job flags"),
    FIELD_NUM(T_STEP_TIMEOUT, F_U32, 32, struct vdc_ctl_job, step_timeout_s, "job step timeout"),
    FIELD_NUM(T_AGENT_TIMEOUT, F_U32, 64, struct vdc_ctl_job, agent_timeout_s,
              "job agent timeout"),
    FIELD_NUM(T_GATE_TIMEOUT, F_U32, 128, struct vdc_ctl_job, gate_timeout_s,
              "job start gate timeout"),
    { T_AGENT_ARG, F_STRS, 0, VDC_CTL_MAX_ARGS, offsetof(struct vdc_ctl_job, agent_args),
      offsetof(struct vdc_ctl_job, n_agent_args), "job agent argument", "agent arguments",
      NULL },
    { T_TARGET, F_LIST, 0, VDC_CTL_MAX_TARGETS, offsetof(struct vdc_ctl_job, targets),
      offsetof(struct vdc_ctl_job, n_targets), NULL, "targets", &vdc_ctl_target_schema },
    { T_WORKLOAD, F_LIST, 0, VDC_CTL_MAX_WORKLOADS, offsetof(struct vdc_ctl_job, workloads),
      offsetof(struct vdc_ctl_job, n_workloads), NULL, "workloads", &vdc_ctl_workload_schema },
    { T_WORKLOAD_ARG, F_STRS, 0, VDC_CTL_MAX_ARGS, offsetof(struct vdc_ctl_job, workload_args),
      offsetof(struct vdc_ctl_job, n_workload_args), "job workload argument",
      "workload arguments", NULL },
    { T_RAW_WORKLOAD_ARG, F_STRS, 0, VDC_CTL_MAX_ARGS,
      offsetof(struct vdc_ctl_job, raw_workload_args),
      offsetof(struct vdc_ctl_job, n_raw_workload_args), "job raw workload argument",
      "raw workload arguments", NULL },
};

const struct tlv_schema vdc_ctl_job_schema = {
    "job", sizeof(struct vdc_ctl_job), job_fields, sizeof(job_fields) / sizeof(job_fields[0]),
    NULL, job_finish,
};

static void
tresult_start(void *rec)
{
    ((struct vdc_ctl_target_result *)rec)->agent_exit = -1;
    ((struct vdc_ctl_target_result *)rec)->workload_exit = -1;
    ((struct vdc_ctl_target_result *)rec)->raw_workload_exit = -1;
}

static int
tresult_finish(void *rec, unsigned seen, size_t idx, struct vdc_ctl_error *err)
{
    const struct vdc_ctl_target_result *t = rec;

    if (!t->name || !(seen & 1))
        return vdc_ctl_seterr(err, "result target %zu: missing %s", idx, !t->name ? "name" : "status");
    if (t->status > VDC_CTL_STATUS_SKIPPED)
        return vdc_ctl_seterr(err, "result target %zu: status %u, expected 0-3", idx, t->status);
    return 0;
}

static const struct tlv_field tresult_fields[] = {
    FIELD_STR(T_NAME, 64, struct vdc_ctl_target_result, name, "result target name"),
    FIELD_STR(T_VDEV, 32, struct vdc_ctl_target_result, vdev, "result target vdev"),
    FIELD_NUM(T_TSTATUS, F_U32, 1, struct vdc_ctl_target_result, status,
              "result target status"),
    FIELD_NUM(T_AGENT_EXIT, F_I32, 2, struct vdc_ctl_target_result, agent_exit,
              "result target agent exit"),
    FIELD_NUM(T_ELAPSED_MS, F_U32, 4, struct vdc_ctl_target_result, elapsed_ms,
              "result target elapsed"),
    FIELD_STR(T_TERROR, VDC_CTL_MAX_STRING, struct vdc_ctl_target_result, error,
              "result target error"),
    FIELD_BLOB(T_AGENT_JSON, struct vdc_ctl_target_result, agent_json, "result agent JSON"),
    FIELD_BLOB(T_STDERR_TAIL, struct vdc_ctl_target_result, stderr_tail, "result stderr tail"),
    FIELD_NUM(T_WORKLOAD_EXIT, F_I32, 8, struct vdc_ctl_target_result, workload_exit,
              "result target workload exit"),
    FIELD_NUM(T_WORKLOAD_MS, F_U32, 16, struct vdc_ctl_target_result, workload_elapsed_ms,
              "result target workload elapsed"),
    FIELD_BLOB(T_WORKLOAD_JSON, struct vdc_ctl_target_result, workload_json,
               "result workload JSON"),
    FIELD_NUM(T_RAW_WORKLOAD_EXIT, F_I32, 32, struct vdc_ctl_target_result, raw_workload_exit,
              "result target raw workload exit"),
    FIELD_NUM(T_RAW_WORKLOAD_MS, F_U32, 64, struct vdc_ctl_target_result,
              raw_workload_elapsed_ms, "result target raw workload elapsed"),
    FIELD_BLOB(T_RAW_WORKLOAD_JSON, struct vdc_ctl_target_result, raw_workload_json,
               "result raw workload JSON"),
    FIELD_NUM(T_FS_BLOCK, F_U64, 128, struct vdc_ctl_target_result, fs_block,
              "result target fs block"),
    FIELD_NUM(T_FS_STRIPE, F_U64, 256, struct vdc_ctl_target_result, fs_stripe,
              "result target fs stripe"),
    FIELD_STR(T_FS_SOURCE, 64, struct vdc_ctl_target_result, fs_source, "result target fs source"),
    FIELD_STR(T_DISK, 32, struct vdc_ctl_target_result, disk, "result target disk"),
    FIELD_NUM(T_DISK_PBS, F_U64, 512, struct vdc_ctl_target_result, disk_physical_block_size,
              "result target disk physical block size"),
    FIELD_NUM(T_DISK_MIN_IO, F_U64, 1024, struct vdc_ctl_target_result, disk_minimum_io_size,
              "result target disk minimum I/O size"),
    FIELD_NUM(T_DISK_OPT_IO, F_U64, 2048, struct vdc_ctl_target_result, disk_optimal_io_size,
              "result target disk optimal I/O size"),
    FIELD_NUM(T_DISK_ALIGN_OFF, F_U64, 4096, struct vdc_ctl_target_result, disk_alignment_offset,
              "result target disk alignment offset"),
};

const struct tlv_schema vdc_ctl_tresult_schema = {
    "result target", sizeof(struct vdc_ctl_target_result), tresult_fields,
    sizeof(tresult_fields) / sizeof(tresult_fields[0]), tresult_start, tresult_finish,
};

static int
result_finish(void *rec, unsigned seen, size_t idx, struct vdc_ctl_error *err)
{
    const struct vdc_ctl_result *res = rec;

    if ((seen & 3) != 3)
        return vdc_ctl_seterr(err, "result: missing %s", !(seen & 1) ? "nonce" : "status");
    if (res->status > VDC_CTL_STATUS_SKIPPED)
        return vdc_ctl_seterr(err, "result: status %u, expected 0-3", res->status);
    if (res->n_targets)
        return vdc_ctl_seterr(err, "result: %zu target records: expected none (each target's result is in its slot)",
                              res->n_targets);
    return 0;
}

static const struct tlv_field result_fields[] = {
    FIELD_NUM(T_NONCE, F_U64, 1, struct vdc_ctl_result, nonce, "result nonce"),
    FIELD_NUM(T_STATUS, F_U32, 2, struct vdc_ctl_result, status, "result status"),
    FIELD_STR(T_RUNNER_VERSION, 64, struct vdc_ctl_result, runner_version,
              "result runner version"),
    FIELD_STR(T_KERNEL, 256, struct vdc_ctl_result, kernel, "result kernel"),
    FIELD_STR(T_ERROR, VDC_CTL_MAX_STRING, struct vdc_ctl_result, error, "result error"),
    FIELD_BLOB(T_LOG, struct vdc_ctl_result, log, "result log"),
    { T_TRESULT, F_LIST, 0, VDC_CTL_MAX_TARGETS, offsetof(struct vdc_ctl_result, targets),
      offsetof(struct vdc_ctl_result, n_targets), NULL, "targets", &vdc_ctl_tresult_schema },
};

const struct tlv_schema vdc_ctl_result_schema = {
    "result", sizeof(struct vdc_ctl_result), result_fields,
    sizeof(result_fields) / sizeof(result_fields[0]), NULL, result_finish,
};

/* a target result frame, read into a struct vdc_ctl_result: the nonce and
 * exactly one target */
static int
slot_finish(void *rec, unsigned seen, size_t idx, struct vdc_ctl_error *err)
{
    const struct vdc_ctl_result *res = rec;

    if (!(seen & 1))
        return vdc_ctl_seterr(err, "target result: missing nonce");
    if (res->n_targets != 1)
        return vdc_ctl_seterr(err, "target result: %zu target records, expected 1", res->n_targets);
    return 0;
}

static const struct tlv_field slot_fields[] = {
    FIELD_NUM(T_NONCE, F_U64, 1, struct vdc_ctl_result, nonce, "target result nonce"),
    { T_TRESULT, F_LIST, 0, 1, offsetof(struct vdc_ctl_result, targets),
      offsetof(struct vdc_ctl_result, n_targets), NULL, "targets", &vdc_ctl_tresult_schema },
};

static const struct tlv_schema slot_schema = {
    "target result", sizeof(struct vdc_ctl_result), slot_fields,
    sizeof(slot_fields) / sizeof(slot_fields[0]), NULL, slot_finish,
};

/* open the frame at @buf and decode its payload into @rec by @s (the
 * frame's name in messages is s->where); @rec is disposed first and on
 * failure */
static int
decode_frame(const uint8_t *buf, size_t len, void *rec, const struct tlv_schema *s,
             const char *magic, uint32_t kind, size_t max, struct vdc_ctl_error *err)
{
    const uint8_t *payload = NULL;
    size_t plen = 0;

    vdc_ctl_dispose_record(rec, s);
    if (frame_open(buf, len, magic, kind, max, s->where, &payload, &plen, err) < 0)
        return -1;
    if (decode_record(payload, plen, rec, s, 0, s->where, err) < 0) {
        vdc_ctl_dispose_record(rec, s);
        return -1;
    }
    return 0;
}

int
vdc_ctl_job_decode(const uint8_t *buf, size_t len, struct vdc_ctl_job *job,
                   struct vdc_ctl_error *err)
{
    return decode_frame(buf, len, job, &vdc_ctl_job_schema, VDC_CTL_JOB_MAGIC, KIND_JOB,
                        VDC_CTL_JOB_MAX, err);
}

int
vdc_ctl_result_decode(const uint8_t *buf, size_t len, struct vdc_ctl_result *res,
                      struct vdc_ctl_error *err)
{
    return decode_frame(buf, len, res, &vdc_ctl_result_schema, VDC_CTL_RES_MAGIC, KIND_RESULT,
                        VDC_CTL_DISK_MAX, err);
}

int
vdc_ctl_target_result_decode(const uint8_t *buf, size_t len, uint64_t *nonce,
                             struct vdc_ctl_target_result *t, struct vdc_ctl_error *err)
{
    struct vdc_ctl_result one;

    memset(&one, 0, sizeof(one));
    vdc_ctl_dispose_record(t, &vdc_ctl_tresult_schema);
    if (decode_frame(buf, len, &one, &slot_schema, VDC_CTL_TRES_MAGIC, KIND_TRESULT,
                     VDC_CTL_SLOT_MAX, err) < 0)
        return -1;
    *nonce = one.nonce;
    *t = one.targets[0];
    free(one.targets);
    return 0;
}
