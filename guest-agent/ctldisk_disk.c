/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp control disk codec: the superblock, reading and writing the
 * frames on the whole disk (or an image in memory), and the progress block
 * (doc/control-disk.md).  libc only. */
#include "config.h"
#include "ctldisk_codec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- superblock -------------------------------------------------------------- */
struct sb {
    uint64_t disk_size, job_off, job_max, res_off, res_max, nonce;
    uint64_t progress_off, progress_max;    /* 0, 0: no progress block */
    uint64_t slot_off, slot_size;           /* the target slots (format 2) */
    uint32_t n_slots;                       /* one per job target */
};

static void
sb_encode(uint8_t *p, const struct sb *s)
{
    memset(p, 0, VDC_CTL_SB_SIZE);
    memcpy(p, VDC_CTL_SB_MAGIC, 8);
    put_u32(p + 8, VDC_CTL_FORMAT_VERSION);
    put_u32(p + 12, VDC_CTL_SB_SIZE);
    put_u64(p + 16, s->disk_size);
    put_u64(p + 24, s->job_off);
    put_u64(p + 32, s->job_max);
    put_u64(p + 40, s->res_off);
    put_u64(p + 48, s->res_max);
    put_u64(p + 56, s->nonce);
    put_u64(p + 64, s->progress_off);
    put_u64(p + 72, s->progress_max);
    put_u64(p + 80, s->slot_off);
    put_u64(p + 88, s->slot_size);
    put_u32(p + 96, s->n_slots);
    put_u32(p + VDC_CTL_SB_SIZE - 4, vdc_ctl_crc32c(p, VDC_CTL_SB_SIZE - 4));
}

/* validate a superblock against the real size @len of the disk */
static int
sb_decode(const uint8_t *p, size_t len, uint64_t real_size, struct sb *s,
          struct vdc_ctl_error *err)
{
    uint32_t v;

    if (len < VDC_CTL_SB_SIZE)
        return vdc_ctl_seterr(err, "control disk: truncated: %zu bytes, superblock needs %u", len,
                      VDC_CTL_SB_SIZE);
    if (memcmp(p, VDC_CTL_SB_MAGIC, 8) != 0)
        return vdc_ctl_seterr(err, "control disk: bad magic (expected %s)", VDC_CTL_SB_MAGIC);
    if (get_u32(p + VDC_CTL_SB_SIZE - 4) != vdc_ctl_crc32c(p, VDC_CTL_SB_SIZE - 4))
        return vdc_ctl_seterr(err, "control disk: superblock checksum mismatch");
    v = get_u32(p + 8);
    if (v != VDC_CTL_FORMAT_VERSION)
        return vdc_ctl_seterr(err, "control disk: format version %u, expected %u%s", v,
                      VDC_CTL_FORMAT_VERSION,
                      v < VDC_CTL_FORMAT_VERSION ? " (written by an older vmdiskcmp)"
                                                 : " (written by a newer vmdiskcmp: prepare the guest with it)");
    if (get_u32(p + 12) != VDC_CTL_SB_SIZE)
        return vdc_ctl_seterr(err, "control disk: superblock size %u, expected %u", get_u32(p + 12),
                      VDC_CTL_SB_SIZE);
    s->disk_size = get_u64(p + 16);
    s->job_off = get_u64(p + 24);
    s->job_max = get_u64(p + 32);
    s->res_off = get_u64(p + 40);
    s->res_max = get_u64(p + 48);
    s->nonce = get_u64(p + 56);
    s->progress_off = get_u64(p + 64);
    s->progress_max = get_u64(p + 72);
    s->slot_off = get_u64(p + 80);
    s->slot_size = get_u64(p + 88);
    s->n_slots = get_u32(p + 96);
    if (s->disk_size < VDC_CTL_DISK_MIN || s->disk_size > VDC_CTL_DISK_MAX)
        return vdc_ctl_seterr(err, "control disk: recorded size %llu outside %u-%u bytes",
                      (unsigned long long)s->disk_size, VDC_CTL_DISK_MIN, VDC_CTL_DISK_MAX);
    if (s->disk_size > real_size)
        return vdc_ctl_seterr(err, "control disk: truncated: %llu bytes recorded, %llu present",
                      (unsigned long long)s->disk_size, (unsigned long long)real_size);
    if (s->job_off < VDC_CTL_SB_SIZE || s->job_max < VDC_CTL_FRAME_HDR ||
        s->job_max > VDC_CTL_JOB_MAX || s->job_off > s->res_off ||
        s->job_max > s->res_off - s->job_off ||     /* no wrap: job_off may be 2^64-1 */
        s->res_max < VDC_CTL_FRAME_HDR || s->res_off > s->disk_size ||
        s->res_max > s->disk_size - s->res_off)
        return vdc_ctl_seterr(err, "control disk: frame areas out of bounds (job %llu+%llu, result %llu+%llu, disk %llu)",
                      (unsigned long long)s->job_off, (unsigned long long)s->job_max,
                      (unsigned long long)s->res_off, (unsigned long long)s->res_max,
                      (unsigned long long)s->disk_size);
    /* the progress block: 4 KiB-aligned (O_DIRECT), after the superblock,
     * before the job frame (an older disk has none: 0) */
    if (s->progress_off &&
        (s->progress_off % VDC_CTL_PROGRESS_SIZE || s->progress_max != VDC_CTL_PROGRESS_SIZE ||
         s->progress_off > s->job_off || s->progress_max > s->job_off - s->progress_off))
        return vdc_ctl_seterr(err, "control disk: progress block out of bounds (%llu+%llu, job at %llu)",
                      (unsigned long long)s->progress_off, (unsigned long long)s->progress_max,
                      (unsigned long long)s->job_off);
    /* the slots: 4 KiB-aligned, after the result frame's area, inside the
     * disk (every term is bounded, so nothing wraps) */
    if (s->n_slots < 1 || s->n_slots > VDC_CTL_MAX_TARGETS || s->slot_off % 4096 ||
        s->slot_size % 4096 || s->slot_size < 4096 || s->slot_size > VDC_CTL_SLOT_MAX ||
        s->slot_off < s->res_off + s->res_max || s->slot_off > s->disk_size ||
        s->n_slots * s->slot_size > s->disk_size - s->slot_off)
        return vdc_ctl_seterr(err, "control disk: target slots out of bounds (%u slots of %llu bytes at %llu, disk %llu)",
                      s->n_slots, (unsigned long long)s->slot_size,
                      (unsigned long long)s->slot_off, (unsigned long long)s->disk_size);
    return 0;
}

/* the job read back belongs to this superblock: its nonce, and a slot of
 * the size it needs per target; else @job is disposed */
static int
job_matches(const struct sb *s, struct vdc_ctl_job *job, struct vdc_ctl_error *err)
{
    if (job->nonce != s->nonce) {
        vdc_ctl_job_dispose(job);
        return vdc_ctl_seterr(err, "control disk: job nonce does not match the superblock");
    }
    if (job->n_targets != s->n_slots || vdc_ctl_slot_size(job) > s->slot_size) {
        uint64_t need = vdc_ctl_slot_size(job);
        size_t n = job->n_targets;

        vdc_ctl_job_dispose(job);
        return vdc_ctl_seterr(err, "control disk: %u target slots of %llu bytes for a job of %zu targets needing %llu each",
                      s->n_slots, (unsigned long long)s->slot_size, n, (unsigned long long)need);
    }
    return 0;
}

/* Slot @i's frame (@buf, @len bytes) into @res->targets, or its cause
 * appended to @res->lost_slots.  -1 only when out of memory. */
static int
take_slot(struct vdc_ctl_result *res, size_t i, const uint8_t *buf, size_t len, uint64_t nonce,
          const char *read_error)
{
    struct vdc_ctl_error err = { { 0 } };
    struct vdc_ctl_target_result t, *n;
    uint64_t got = 0;
    char *lost;
    size_t old;

    memset(&t, 0, sizeof(t));
    if (read_error)
        snprintf(err.msg, sizeof(err.msg), "%s", read_error);
    else if (vdc_ctl_target_result_decode(buf, len, &got, &t, &err) == 0) {
        if (got == nonce) {
            n = realloc(res->targets, (res->n_targets + 1) * sizeof(*n));
            if (!n) {
                vdc_ctl_dispose_record(&t, &vdc_ctl_tresult_schema);
                return -1;
            }
            res->targets = n;
            res->targets[res->n_targets++] = t;
            return 0;
        }
        vdc_ctl_dispose_record(&t, &vdc_ctl_tresult_schema);
        snprintf(err.msg, sizeof(err.msg), "target result nonce %016llx, expected %016llx (stale result)",
                 (unsigned long long)got, (unsigned long long)nonce);
    }
    old = res->lost_slots ? strlen(res->lost_slots) : 0;
    lost = realloc(res->lost_slots, old + strlen(err.msg) + 32);
    if (!lost)
        return -1;
    sprintf(lost + old, "%sslot %zu: %s", old ? "; " : "", i, err.msg);
    res->lost_slots = lost;
    return 0;
}

int
vdc_ctl_image_read_job(const uint8_t *img, size_t len, struct vdc_ctl_job *job,
                       struct vdc_ctl_error *err)
{
    struct sb s;

    if (sb_decode(img, len, len, &s, err) < 0)
        return -1;
    if (vdc_ctl_job_decode(img + s.job_off, (size_t)s.job_max, job, err) < 0)
        return -1;
    return job_matches(&s, job, err);
}

int
vdc_ctl_image_read_result(const uint8_t *img, size_t len, uint64_t nonce,
                          struct vdc_ctl_result *res, struct vdc_ctl_error *err)
{
    struct sb s;

    if (sb_decode(img, len, len, &s, err) < 0)
        return -1;
    if (s.nonce != nonce)
        return vdc_ctl_seterr(err, "control disk: superblock nonce %016llx, expected %016llx",
                      (unsigned long long)s.nonce, (unsigned long long)nonce);
    if (vdc_ctl_result_decode(img + s.res_off, (size_t)s.res_max, res, err) < 0)
        return -1;
    if (res->nonce != nonce) {
        vdc_ctl_result_dispose(res);
        return vdc_ctl_seterr(err, "control disk: result nonce %016llx, expected %016llx (stale result)",
                      (unsigned long long)res->nonce, (unsigned long long)nonce);
    }
    for (size_t i = 0; i < s.n_slots; i++)
        if (take_slot(res, i, img + s.slot_off + i * s.slot_size, (size_t)s.slot_size, nonce,
                      NULL) < 0) {
            vdc_ctl_result_dispose(res);
            return vdc_ctl_seterr(err, "control disk: target results: out of memory");
        }
    return 0;
}

/* ---- whole-disk I/O ------------------------------------------------------------ */
int
vdc_ctl_pwrite_all(int fd, const void *buf, size_t len, off_t off)
{
    const uint8_t *p = buf;
    ssize_t r;

    while (len) {
        r = pwrite(fd, p, len, off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r == 0)
            errno = EIO;        /* no progress: not an error the kernel named */
        if (r <= 0)
            return -1;
        p += r;
        len -= (size_t)r;
        off += r;
    }
    return 0;
}

int
vdc_ctl_pread_all(int fd, void *buf, size_t len, off_t off)
{
    uint8_t *p = buf;
    ssize_t r;

    while (len) {
        r = pread(fd, p, len, off);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0) {
            errno = 0;
            return -1;   /* short */
        }
        p += r;
        len -= (size_t)r;
        off += r;
    }
    return 0;
}

static int
disk_size(int fd, uint64_t *out, struct vdc_ctl_error *err)
{
    off_t end = lseek(fd, 0, SEEK_END);

    if (end < 0)
        return vdc_ctl_seterr(err, "control disk: cannot find its size: %s", strerror(errno));
    *out = (uint64_t)end;
    return 0;
}

int
vdc_ctl_disk_format(int fd, uint64_t size, const struct vdc_ctl_job *job,
                    struct vdc_ctl_error *err)
{
    uint8_t sbuf[VDC_CTL_SB_SIZE], zero[VDC_CTL_FRAME_HDR] = { 0 };
    uint8_t *frame = NULL;
    size_t flen, i;
    struct sb s;

    if (size < VDC_CTL_DISK_MIN || size > VDC_CTL_DISK_MAX)
        return vdc_ctl_seterr(err, "control disk: size %llu outside %u-%u bytes",
                      (unsigned long long)size, VDC_CTL_DISK_MIN, VDC_CTL_DISK_MAX);
    if (vdc_ctl_job_encode(job, &frame, &flen, err) < 0)
        return -1;
    if (size < vdc_ctl_disk_size(job)) {
        free(frame);
        return vdc_ctl_seterr(err, "control disk: size %llu: the job's %zu target slots need %llu bytes",
                      (unsigned long long)size, job->n_targets,
                      (unsigned long long)vdc_ctl_disk_size(job));
    }
    s.disk_size = size;
    s.progress_off = VDC_CTL_PROGRESS_OFF;
    s.progress_max = VDC_CTL_PROGRESS_SIZE;
    s.job_off = VDC_CTL_JOB_OFF;
    s.job_max = VDC_CTL_RES_OFF - VDC_CTL_JOB_OFF;
    if (s.job_max > VDC_CTL_JOB_MAX)
        s.job_max = VDC_CTL_JOB_MAX;
    s.res_off = VDC_CTL_RES_OFF;
    s.res_max = VDC_CTL_SLOT_OFF - VDC_CTL_RES_OFF;
    s.slot_off = VDC_CTL_SLOT_OFF;
    s.slot_size = vdc_ctl_slot_size(job);
    s.n_slots = (uint32_t)job->n_targets;
    s.nonce = job->nonce;
    if (flen > s.job_max) {
        free(frame);
        return vdc_ctl_seterr(err, "job: %zu bytes, more than the %llu the control disk reserves", flen,
                      (unsigned long long)s.job_max);
    }
    sb_encode(sbuf, &s);
    for (i = 0; i < s.n_slots; i++)
        if (vdc_ctl_pwrite_all(fd, zero, sizeof(zero), (off_t)(s.slot_off + i * s.slot_size)) < 0) {
            free(frame);
            return vdc_ctl_seterr(err, "control disk: write: %s", strerror(errno));
        }
    if (vdc_ctl_pwrite_all(fd, zero, sizeof(zero), (off_t)s.res_off) < 0 ||
        vdc_ctl_pwrite_all(fd, zero, sizeof(zero), (off_t)s.progress_off) < 0 ||
        vdc_ctl_pwrite_all(fd, frame, flen, (off_t)s.job_off) < 0 ||
        vdc_ctl_pwrite_all(fd, sbuf, sizeof(sbuf), 0) < 0) {
        free(frame);
        return vdc_ctl_seterr(err, "control disk: write: %s", strerror(errno));
    }
    free(frame);
    return 0;
}

static int
read_sb(int fd, struct sb *s, struct vdc_ctl_error *err)
{
    uint8_t sbuf[VDC_CTL_SB_SIZE];
    uint64_t size = 0;

    if (disk_size(fd, &size, err) < 0)
        return -1;
    if (size < VDC_CTL_SB_SIZE)
        return vdc_ctl_seterr(err, "control disk: truncated: %llu bytes", (unsigned long long)size);
    if (vdc_ctl_pread_all(fd, sbuf, sizeof(sbuf), 0) < 0)
        return vdc_ctl_seterr(err, "control disk: read superblock: %s",
                      errno ? strerror(errno) : "short read");
    return sb_decode(sbuf, sizeof(sbuf), size, s, err);
}

/* read a frame of at most @max bytes at @off: the header first, then only
 * the payload it announces (bounded by @max) */
static int
read_frame(int fd, uint64_t off, uint64_t max, uint8_t **out, size_t *out_len,
           const char *what, struct vdc_ctl_error *err)
{
    uint8_t hdr[VDC_CTL_FRAME_HDR];
    uint64_t plen;
    uint8_t *buf;

    if (vdc_ctl_pread_all(fd, hdr, sizeof(hdr), (off_t)off) < 0)
        return vdc_ctl_seterr(err, "control disk: read %s frame: %s", what,
                      errno ? strerror(errno) : "short read");
    plen = get_u64(hdr + 16);
    if (plen > max - VDC_CTL_FRAME_HDR)
        plen = max - VDC_CTL_FRAME_HDR;  /* the decoder reports the oversize */
    buf = malloc(VDC_CTL_FRAME_HDR + plen);
    if (!buf)
        return vdc_ctl_seterr(err, "control disk: %s frame: out of memory", what);
    memcpy(buf, hdr, sizeof(hdr));
    if (plen && vdc_ctl_pread_all(fd, buf + VDC_CTL_FRAME_HDR, plen, (off_t)(off + VDC_CTL_FRAME_HDR)) < 0) {
        free(buf);
        return vdc_ctl_seterr(err, "control disk: read %s frame: %s", what,
                      errno ? strerror(errno) : "short read");
    }
    *out = buf;
    *out_len = VDC_CTL_FRAME_HDR + plen;
    return 0;
}

int
vdc_ctl_disk_read_job(int fd, struct vdc_ctl_job *job, struct vdc_ctl_error *err)
{
    struct sb s;
    uint8_t *buf;
    size_t len;
    int r;

    if (read_sb(fd, &s, err) < 0)
        return -1;
    if (read_frame(fd, s.job_off, s.job_max, &buf, &len, "job", err) < 0)
        return -1;
    r = vdc_ctl_job_decode(buf, len, job, err);
    free(buf);
    if (r == 0)
        r = job_matches(&s, job, err);
    return r;
}

/* @frame (@flen bytes) at @off: payload first, header last, each fsynced,
 * so a crash leaves no valid frame, never a half one */
static int
write_frame(int fd, const uint8_t *frame, size_t flen, uint64_t off, const char *what,
            struct vdc_ctl_error *err)
{
    if (vdc_ctl_pwrite_all(fd, frame + VDC_CTL_FRAME_HDR, flen - VDC_CTL_FRAME_HDR,
                   (off_t)(off + VDC_CTL_FRAME_HDR)) < 0 || fsync(fd) < 0 ||
        vdc_ctl_pwrite_all(fd, frame, VDC_CTL_FRAME_HDR, (off_t)off) < 0 || fsync(fd) < 0)
        return vdc_ctl_seterr(err, "control disk: write %s: %s", what, strerror(errno));
    return 0;
}

int
vdc_ctl_disk_write_target(int fd, size_t idx, uint64_t nonce,
                          const struct vdc_ctl_target_result *t, struct vdc_ctl_error *err)
{
    struct sb s;
    uint8_t *frame;
    size_t flen;
    int r;

    if (read_sb(fd, &s, err) < 0)
        return -1;
    if (idx >= s.n_slots)
        return vdc_ctl_seterr(err, "control disk: target %zu: the disk has %u slots", idx, s.n_slots);
    if (vdc_ctl_target_result_encode(nonce, t, (size_t)s.slot_size, &frame, &flen, err) < 0)
        return -1;
    r = write_frame(fd, frame, flen, s.slot_off + idx * s.slot_size, "target result", err);
    free(frame);
    return r;
}

int
vdc_ctl_disk_write_summary(int fd, const struct vdc_ctl_result *res, struct vdc_ctl_error *err)
{
    struct sb s;
    uint8_t *frame;
    size_t flen;
    int r;

    if (read_sb(fd, &s, err) < 0)
        return -1;
    if (vdc_ctl_result_encode(res, (size_t)s.res_max, &frame, &flen, err) < 0)
        return -1;
    r = write_frame(fd, frame, flen, s.res_off, "result", err);
    free(frame);
    return r;
}

int
vdc_ctl_disk_write_result(int fd, const struct vdc_ctl_result *res, struct vdc_ctl_error *err)
{
    size_t i;

    for (i = 0; i < res->n_targets; i++)
        if (vdc_ctl_disk_write_target(fd, i, res->nonce, &res->targets[i], err) < 0)
            return -1;
    return vdc_ctl_disk_write_summary(fd, res, err);
}

int
vdc_ctl_disk_read_result(int fd, uint64_t nonce, struct vdc_ctl_result *res,
                         struct vdc_ctl_error *err)
{
    struct sb s;
    uint8_t *buf;
    size_t len;
    int r;

    if (read_sb(fd, &s, err) < 0)
        return -1;
    if (s.nonce != nonce)
        return vdc_ctl_seterr(err, "control disk: superblock nonce %016llx, expected %016llx",
                      (unsigned long long)s.nonce, (unsigned long long)nonce);
    if (read_frame(fd, s.res_off, s.res_max, &buf, &len, "result", err) < 0)
        return -1;
    r = vdc_ctl_result_decode(buf, len, res, err);
    free(buf);
    if (r == 0 && res->nonce != nonce) {
        vdc_ctl_result_dispose(res);
        return vdc_ctl_seterr(err, "control disk: result nonce %016llx, expected %016llx (stale result)",
                      (unsigned long long)res->nonce, (unsigned long long)nonce);
    }
    for (size_t i = 0; r == 0 && i < s.n_slots; i++) {
        struct vdc_ctl_error rerr = { { 0 } };
        uint64_t off = s.slot_off + i * s.slot_size;

        buf = NULL;
        len = 0;
        if (read_frame(fd, off, s.slot_size, &buf, &len, "target result", &rerr) < 0)
            buf = NULL;
        r = take_slot(res, i, buf, len, nonce, buf ? NULL : rerr.msg);
        free(buf);
        if (r < 0) {
            vdc_ctl_result_dispose(res);
            return vdc_ctl_seterr(err, "control disk: target results: out of memory");
        }
    }
    return r;
}

int
vdc_ctl_disk_probe(int fd)
{
    uint8_t m[8];

    if (vdc_ctl_pread_all(fd, m, sizeof(m), 0) < 0)
        return errno ? -1 : 0;
    return memcmp(m, VDC_CTL_SB_MAGIC, 8) == 0;
}

/* ---- progress block ---------------------------------------------------------- */
#define PG_HDR 32u
#define PG_EV 20u
#define PG_BEAT (PG_HDR + VDC_CTL_PROGRESS_RING * PG_EV)   /* 1312: u64 beats, u64 ns */
#define PG_GATE (PG_BEAT + 16)    /* 1328: u64 ready_ns, go_ns, started_ns */
_Static_assert(PG_GATE + 24 <= VDC_CTL_PROGRESS_SIZE - 4, "the gate times fit before the CRC");

void
vdc_ctl_progress_init(struct vdc_ctl_progress *p, uint64_t nonce)
{
    memset(p, 0, sizeof(*p));
    p->nonce = nonce;
}

uint64_t
vdc_ctl_progress_add(struct vdc_ctl_progress *p, uint64_t guest_ns, uint16_t target,
                     uint8_t kind, uint8_t test)
{
    struct vdc_ctl_event *e;

    if (p->n_events == VDC_CTL_PROGRESS_RING) {
        memmove(p->ev, p->ev + 1, (VDC_CTL_PROGRESS_RING - 1) * sizeof(p->ev[0]));
        p->n_events--;
    }
    e = &p->ev[p->n_events++];
    e->seq = ++p->newest_seq;
    e->guest_ns = guest_ns;
    e->target = target;
    e->kind = kind;
    e->test = test;
    return e->seq;
}

uint64_t
vdc_ctl_progress_beat(struct vdc_ctl_progress *p, uint64_t guest_ns)
{
    p->beat_ns = guest_ns;
    return ++p->beats;
}

void
vdc_ctl_progress_encode(const struct vdc_ctl_progress *p, uint8_t *out)
{
    uint32_t i, n = p->n_events > VDC_CTL_PROGRESS_RING ? VDC_CTL_PROGRESS_RING : p->n_events;

    memset(out, 0, VDC_CTL_PROGRESS_SIZE);
    memcpy(out, VDC_CTL_PROGRESS_MAGIC, 8);
    put_u32(out + 8, VDC_CTL_PROGRESS_VERSION);
    put_u32(out + 12, n);
    put_u64(out + 16, p->nonce);
    put_u64(out + 24, p->newest_seq);
    for (i = 0; i < n; i++) {
        uint8_t *e = out + PG_HDR + i * PG_EV;

        put_u64(e, p->ev[i].seq);
        put_u64(e + 8, p->ev[i].guest_ns);
        put_u16(e + 16, p->ev[i].target);
        e[18] = p->ev[i].kind;
        e[19] = p->ev[i].test;
    }
    put_u64(out + PG_BEAT, p->beats);
    put_u64(out + PG_BEAT + 8, p->beat_ns);
    put_u64(out + PG_GATE, p->ready_ns);
    put_u64(out + PG_GATE + 8, p->go_ns);
    put_u64(out + PG_GATE + 16, p->started_ns);
    put_u32(out + VDC_CTL_PROGRESS_SIZE - 4, vdc_ctl_crc32c(out, VDC_CTL_PROGRESS_SIZE - 4));
}

int
vdc_ctl_progress_decode(const uint8_t *buf, size_t len, struct vdc_ctl_progress *p,
                        struct vdc_ctl_error *err)
{
    static const uint8_t blank[8];
    uint32_t i, n, v;

    if (len < VDC_CTL_PROGRESS_SIZE)
        return vdc_ctl_seterr(err, "progress block: truncated: %zu bytes, expected %u", len,
                      VDC_CTL_PROGRESS_SIZE);
    if (memcmp(buf, blank, 8) == 0)
        return 1;
    if (memcmp(buf, VDC_CTL_PROGRESS_MAGIC, 8) != 0)
        return vdc_ctl_seterr(err, "progress block: bad magic (expected %s)", VDC_CTL_PROGRESS_MAGIC);
    if (get_u32(buf + VDC_CTL_PROGRESS_SIZE - 4) != vdc_ctl_crc32c(buf, VDC_CTL_PROGRESS_SIZE - 4))
        return vdc_ctl_seterr(err, "progress block: checksum mismatch");
    v = get_u32(buf + 8);
    if (v != VDC_CTL_PROGRESS_VERSION)
        return vdc_ctl_seterr(err, "progress block: version %u, expected %u", v, VDC_CTL_PROGRESS_VERSION);
    n = get_u32(buf + 12);
    if (n > VDC_CTL_PROGRESS_RING)
        return vdc_ctl_seterr(err, "progress block: %u events, at most %u", n, VDC_CTL_PROGRESS_RING);
    memset(p, 0, sizeof(*p));
    p->n_events = n;
    p->nonce = get_u64(buf + 16);
    p->newest_seq = get_u64(buf + 24);
    p->beats = get_u64(buf + PG_BEAT);
    p->beat_ns = get_u64(buf + PG_BEAT + 8);
    p->ready_ns = get_u64(buf + PG_GATE);
    p->go_ns = get_u64(buf + PG_GATE + 8);
    p->started_ns = get_u64(buf + PG_GATE + 16);
    if (n > p->newest_seq)
        return vdc_ctl_seterr(err, "progress block: %u events but newest seq %llu", n,
                      (unsigned long long)p->newest_seq);
    for (i = 0; i < n; i++) {
        const uint8_t *e = buf + PG_HDR + i * PG_EV;

        p->ev[i].seq = get_u64(e);
        p->ev[i].guest_ns = get_u64(e + 8);
        p->ev[i].target = get_u16(e + 16);
        p->ev[i].kind = e[18];
        p->ev[i].test = e[19];
        if (p->ev[i].seq != p->newest_seq - n + 1 + i)
            return vdc_ctl_seterr(err, "progress block: event %u has seq %llu, expected %llu", i,
                          (unsigned long long)p->ev[i].seq,
                          (unsigned long long)(p->newest_seq - n + 1 + i));
        if (p->ev[i].kind < VDC_CTL_EV_TEST_BEGIN || p->ev[i].kind > VDC_CTL_EV_TARGET_END)
            return vdc_ctl_seterr(err, "progress block: event %u: kind %u, expected 1-4", i,
                          p->ev[i].kind);
    }
    return 0;
}

int
vdc_ctl_disk_progress_area(int fd, uint64_t *off, struct vdc_ctl_error *err)
{
    struct sb s;

    if (read_sb(fd, &s, err) < 0)
        return -1;
    *off = s.progress_off;
    return 0;
}

int
vdc_ctl_disk_write_progress(int fd, uint64_t off, const struct vdc_ctl_progress *p,
                            struct vdc_ctl_error *err)
{
    void *buf = NULL;
    int r;

    if (posix_memalign(&buf, VDC_CTL_PROGRESS_SIZE, VDC_CTL_PROGRESS_SIZE) != 0)
        return vdc_ctl_seterr(err, "progress block: out of memory");
    vdc_ctl_progress_encode(p, buf);
    r = vdc_ctl_pwrite_all(fd, buf, VDC_CTL_PROGRESS_SIZE, (off_t)off);
    free(buf);
    if (r < 0)
        return vdc_ctl_seterr(err, "control disk: write progress block: %s", strerror(errno));
    return 0;
}

static int
progress_check(const uint8_t *buf, size_t len, uint64_t nonce, struct vdc_ctl_progress *p,
               struct vdc_ctl_error *err)
{
    int r = vdc_ctl_progress_decode(buf, len, p, err);

    if (r == 0 && p->nonce != nonce)
        return vdc_ctl_seterr(err, "progress block: nonce %016llx, expected %016llx",
                      (unsigned long long)p->nonce, (unsigned long long)nonce);
    return r;
}

int
vdc_ctl_disk_read_progress(int fd, uint64_t nonce, struct vdc_ctl_progress *p,
                           struct vdc_ctl_error *err)
{
    uint8_t buf[VDC_CTL_PROGRESS_SIZE];
    struct sb s;

    if (read_sb(fd, &s, err) < 0)
        return -1;
    if (!s.progress_off)
        return 1;
    if (vdc_ctl_pread_all(fd, buf, sizeof(buf), (off_t)s.progress_off) < 0)
        return vdc_ctl_seterr(err, "control disk: read progress block: %s",
                      errno ? strerror(errno) : "short read");
    return progress_check(buf, sizeof(buf), nonce, p, err);
}

int
vdc_ctl_image_read_progress(const uint8_t *img, size_t len, uint64_t nonce,
                            struct vdc_ctl_progress *p, struct vdc_ctl_error *err)
{
    struct sb s;

    if (sb_decode(img, len, len, &s, err) < 0)
        return -1;
    if (!s.progress_off)
        return 1;
    return progress_check(img + s.progress_off, VDC_CTL_PROGRESS_SIZE, nonce, p, err);
}
