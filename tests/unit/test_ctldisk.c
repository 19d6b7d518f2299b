/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Control disk codec (guest-agent/ctldisk*.c): CRC-32C test vectors, round
 * trips of job and result through a disk image in memory and a real file,
 * and every corruption rejected with a clear message; the runner's disk
 * lookup by serial (guest-agent/diskid.c) on a made-up /sys/block. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "guest-agent/ctldisk.h"
#include "guest-agent/diskid.h"

/* ---- CRC-32C: RFC 3720 appendix B.4 and the common check value ---------- */
static void
test_crc32c_vectors(void **state)
{
    uint8_t b[32];
    int i;

    assert_int_equal(vdc_ctl_crc32c("", 0), 0x00000000u);
    assert_int_equal(vdc_ctl_crc32c("123456789", 9), 0xE3069283u);
    memset(b, 0, sizeof(b));
    assert_int_equal(vdc_ctl_crc32c(b, 32), 0x8A9136AAu);
    memset(b, 0xFF, sizeof(b));
    assert_int_equal(vdc_ctl_crc32c(b, 32), 0x62A8AB43u);
    for (i = 0; i < 32; i++)
        b[i] = (uint8_t)i;
    assert_int_equal(vdc_ctl_crc32c(b, 32), 0x46DD794Eu);
    for (i = 0; i < 32; i++)
        b[i] = (uint8_t)(31 - i);
    assert_int_equal(vdc_ctl_crc32c(b, 32), 0x113FDB5Cu);
}

/* ---- helpers ------------------------------------------------------------- */
/* the size of the image make_image made last: vdc_ctl_disk_size of its job */
static size_t img_size;

static void
make_job(struct vdc_ctl_job *job)
{
    struct vdc_ctl_error err;

    vdc_ctl_job_init(job);
    job->nonce = 0x0123456789abcdefULL;
    job->run_index = 3;
    job->repetition = 1;
    job->seed = 18446744073709551557ULL;
    job->flags = VDC_CTL_JOB_DROP_CACHES;
    job->step_timeout_s = 60;
    job->agent_timeout_s = 900;
    assert_int_equal(vdc_ctl_job_add_arg(job, "-s", &err), 0);
    assert_int_equal(vdc_ctl_job_add_arg(job, "64", &err), 0);
    assert_int_equal(vdc_ctl_job_add_arg(job, "-f", &err), 0);
    assert_int_equal(vdc_ctl_job_add_target(job, "image", "xvdb", "ext4", "-E lazy_itable_init=0",
                                            NULL, &err), 0);
    assert_int_equal(vdc_ctl_job_add_target(job, "lvm", "xvdc", "ext4", NULL, "noatime", &err), 0);
    assert_int_equal(vdc_ctl_job_target_args(job, "--fill 50 --aging-seed 7",
                                             "--passes first-write,overwrite",
                                             "--precondition=600:30", &err), 0);
}

/* a disk image in memory holding the job, of the job's size (img_size) */
static uint8_t *
make_image(const struct vdc_ctl_job *job)
{
    char path[] = "/tmp/test_ctldisk.XXXXXX";
    struct vdc_ctl_error err;
    uint8_t *img;
    int fd = mkstemp(path);

    img_size = vdc_ctl_disk_size(job);
    img = calloc(1, img_size);
    assert_non_null(img);
    assert_true(fd >= 0);
    unlink(path);
    assert_int_equal(ftruncate(fd, img_size), 0);
    assert_int_equal(vdc_ctl_disk_format(fd, img_size, job, &err), 0);
    assert_int_equal(pread(fd, img, img_size, 0), img_size);
    close(fd);
    return img;
}

static void
put32(uint8_t *p, uint32_t v)
{
    p[0] = v & 0xFF; p[1] = (v >> 8) & 0xFF; p[2] = (v >> 16) & 0xFF; p[3] = v >> 24;
}

static void
put64(uint8_t *p, uint64_t v)
{
    put32(p, (uint32_t)v);
    put32(p + 4, (uint32_t)(v >> 32));
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

/* after editing a superblock field, make its checksum right again */
static void
reseal_sb(uint8_t *img)
{
    put32(img + VDC_CTL_SB_SIZE - 4, vdc_ctl_crc32c(img, VDC_CTL_SB_SIZE - 4));
}

/* after editing a frame header field, make its header checksum right again;
 * with @payload also the payload checksum */
static void
reseal_frame(uint8_t *f, int payload)
{
    uint64_t plen = (uint64_t)f[16] | ((uint64_t)f[17] << 8) | ((uint64_t)f[18] << 16) |
                    ((uint64_t)f[19] << 24);

    if (payload)
        put32(f + 24, vdc_ctl_crc32c(f + VDC_CTL_FRAME_HDR, plen));
    put32(f + 28, vdc_ctl_crc32c(f, 28));
}

static void
expect_job_error(const uint8_t *img, const char *needle)
{
    struct vdc_ctl_job job;
    struct vdc_ctl_error err = { { 0 } };

    vdc_ctl_job_init(&job);
    assert_int_equal(vdc_ctl_image_read_job(img, img_size, &job, &err), -1);
    if (!strstr(err.msg, needle))
        fail_msg("error '%s' does not mention '%s'", err.msg, needle);
    assert_int_equal(job.n_targets, 0);     /* left disposed */
    vdc_ctl_job_dispose(&job);
}

static void
make_result(struct vdc_ctl_result *res, uint64_t nonce)
{
    struct vdc_ctl_error err;
    struct vdc_ctl_target_result *t;
    static const char json[] = "{\"format\":\"vmdiskcmp-result\",\"runs\":[]}\n";

    vdc_ctl_result_init(res);
    res->nonce = nonce;
    res->status = VDC_CTL_STATUS_FAILED;
    res->runner_version = strdup("0.1.0");
    res->kernel = strdup("6.1.0-57-amd64");
    res->log = strdup("0.01 runner: start\n0.50 mkfs xvdb\n");
    res->log_len = strlen(res->log);
    t = vdc_ctl_result_add_target(res, "image", "xvdb", &err);
    assert_non_null(t);
    t->status = VDC_CTL_STATUS_OK;
    t->agent_exit = 0;
    t->elapsed_ms = 12345;
    t->agent_json = strdup(json);
    t->agent_json_len = strlen(json);
    t->stderr_tail = malloc(3);
    memcpy(t->stderr_tail, "a\0b", 3);      /* blobs may hold NUL bytes */
    t->stderr_tail_len = 3;
    t = vdc_ctl_result_add_target(res, "lvm", "xvdc", &err);
    assert_non_null(t);
    t->status = VDC_CTL_STATUS_TIMEOUT;
    t->agent_exit = 128 + 9;
    t->error = strdup("agent ran past 900 s: killed");
}

/* the byte offset of slot @i in @img (the superblock's slot_off and
 * slot_size) */
static size_t
slot_at(const uint8_t *img, size_t i)
{
    return (size_t)(get64(img + 80) + i * get64(img + 88));
}

/* the image of @job with @res written as the runner writes it: each target
 * into its slot, the summary into the result frame */
static uint8_t *
image_with_result(const struct vdc_ctl_job *job, const struct vdc_ctl_result *res)
{
    struct vdc_ctl_error err;
    uint8_t *img = make_image(job), *frame;
    size_t flen, i;

    for (i = 0; i < res->n_targets; i++) {
        assert_int_equal(vdc_ctl_target_result_encode(res->nonce, &res->targets[i], get64(img + 88),
                                                      &frame, &flen, &err), 0);
        memcpy(img + slot_at(img, i), frame, flen);
        free(frame);
    }
    assert_int_equal(vdc_ctl_result_encode(res, VDC_CTL_SLOT_OFF - VDC_CTL_RES_OFF, &frame, &flen, &err), 0);
    memcpy(img + VDC_CTL_RES_OFF, frame, flen);
    free(frame);
    return img;
}

static void
expect_result_error(const uint8_t *img, uint64_t nonce, const char *needle)
{
    struct vdc_ctl_result res;
    struct vdc_ctl_error err = { { 0 } };

    vdc_ctl_result_init(&res);
    assert_int_equal(vdc_ctl_image_read_result(img, img_size, nonce, &res, &err), -1);
    if (!strstr(err.msg, needle))
        fail_msg("error '%s' does not mention '%s'", err.msg, needle);
    assert_int_equal(res.n_targets, 0);
    vdc_ctl_result_dispose(&res);
}

/* ---- round trips ----------------------------------------------------------- */
static void
test_job_round_trip(void **state)
{
    struct vdc_ctl_job job, back;
    struct vdc_ctl_error err;
    uint8_t *img;

    make_job(&job);
    img = make_image(&job);
    vdc_ctl_job_init(&back);
    assert_int_equal(vdc_ctl_image_read_job(img, img_size, &back, &err), 0);
    assert_true(back.nonce == job.nonce);
    assert_int_equal(back.run_index, 3);
    assert_int_equal(back.repetition, 1);
    assert_true(back.seed == 18446744073709551557ULL);
    assert_int_equal(back.flags, VDC_CTL_JOB_DROP_CACHES);
    assert_int_equal(back.step_timeout_s, 60);
    assert_int_equal(back.agent_timeout_s, 900);
    assert_int_equal(back.n_agent_args, 3);
    assert_string_equal(back.agent_args[1], "64");
    assert_int_equal(back.n_targets, 2);
    assert_string_equal(back.targets[0].name, "image");
    assert_string_equal(back.targets[0].vdev, "xvdb");
    assert_string_equal(back.targets[0].mkfs_options, "-E lazy_itable_init=0");
    assert_null(back.targets[0].mount_options);
    assert_string_equal(back.targets[1].mount_options, "noatime");
    assert_null(back.targets[0].fs_args);
    assert_string_equal(back.targets[1].fs_args, "--fill 50 --aging-seed 7");
    assert_string_equal(back.targets[1].pass_args, "--passes first-write,overwrite");
    assert_string_equal(back.targets[1].raw_args, "--precondition=600:30");
    vdc_ctl_job_dispose(&back);
    vdc_ctl_job_dispose(&back);     /* safe twice */
    vdc_ctl_job_dispose(&job);
    free(img);
}

static void
test_result_round_trip(void **state)
{
    struct vdc_ctl_job job;
    struct vdc_ctl_result res, back;
    struct vdc_ctl_error err;
    uint8_t *img;

    make_job(&job);
    make_result(&res, job.nonce);
    img = image_with_result(&job, &res);
    vdc_ctl_result_init(&back);
    assert_int_equal(vdc_ctl_image_read_result(img, img_size, job.nonce, &back, &err), 0);
    assert_int_equal(back.status, VDC_CTL_STATUS_FAILED);
    assert_string_equal(back.kernel, "6.1.0-57-amd64");
    assert_int_equal(back.log_len, res.log_len);
    assert_int_equal(back.n_targets, 2);
    assert_string_equal(back.targets[0].agent_json, res.targets[0].agent_json);
    assert_int_equal(back.targets[0].stderr_tail_len, 3);
    assert_memory_equal(back.targets[0].stderr_tail, "a\0b", 3);
    assert_int_equal(back.targets[0].elapsed_ms, 12345);
    assert_int_equal(back.targets[1].status, VDC_CTL_STATUS_TIMEOUT);
    assert_int_equal(back.targets[1].agent_exit, 137);
    assert_null(back.targets[1].agent_json);
    assert_string_equal(back.targets[1].error, "agent ran past 900 s: killed");
    vdc_ctl_result_dispose(&back);
    vdc_ctl_result_dispose(&res);
    vdc_ctl_result_dispose(&res);
    vdc_ctl_job_dispose(&job);
    free(img);
}

/* the runner's path and the host's path over a real file */
static void
test_disk_file_round_trip(void **state)
{
    char path[] = "/tmp/test_ctldisk.XXXXXX";
    struct vdc_ctl_job job, back;
    struct vdc_ctl_result res, rback;
    struct vdc_ctl_error err = { { 0 } };
    int fd = mkstemp(path);

    assert_true(fd >= 0);
    unlink(path);
    make_job(&job);
    assert_int_equal(ftruncate(fd, (off_t)vdc_ctl_disk_size(&job)), 0);
    assert_int_equal(vdc_ctl_disk_probe(fd), 0);
    /* a disk smaller than the job's slots need: refused */
    assert_int_equal(vdc_ctl_disk_format(fd, vdc_ctl_disk_size(&job) - 4096, &job, &err), -1);
    assert_non_null(strstr(err.msg, "the job's 2 target slots need"));
    assert_int_equal(vdc_ctl_disk_format(fd, vdc_ctl_disk_size(&job), &job, &err), 0);
    assert_int_equal(vdc_ctl_disk_probe(fd), 1);
    /* before the runner wrote anything */
    vdc_ctl_result_init(&rback);
    assert_int_equal(vdc_ctl_disk_read_result(fd, job.nonce, &rback, &err), -1);
    assert_non_null(strstr(err.msg, "no result frame"));
    vdc_ctl_job_init(&back);
    assert_int_equal(vdc_ctl_disk_read_job(fd, &back, &err), 0);
    assert_int_equal(back.n_targets, 2);
    make_result(&res, back.nonce);
    assert_int_equal(vdc_ctl_disk_write_result(fd, &res, &err), 0);
    assert_int_equal(vdc_ctl_disk_read_result(fd, job.nonce, &rback, &err), 0);
    assert_int_equal(rback.n_targets, 2);
    assert_string_equal(rback.runner_version, "0.1.0");
    /* a different job's nonce: refused */
    vdc_ctl_result_dispose(&rback);
    assert_int_equal(vdc_ctl_disk_read_result(fd, job.nonce + 1, &rback, &err), -1);
    assert_non_null(strstr(err.msg, "nonce"));
    vdc_ctl_result_dispose(&res);
    vdc_ctl_job_dispose(&back);
    vdc_ctl_job_dispose(&job);
    close(fd);
}

/* ---- corruptions --------------------------------------------------------------- */
static void
test_bad_magic(void **state)
{
    struct vdc_ctl_job job;
    uint8_t *img;

    make_job(&job);
    img = make_image(&job);
    img[0] = 'X';
    expect_job_error(img, "bad magic");
    free(img);
    img = make_image(&job);
    img[VDC_CTL_JOB_OFF + 1] ^= 0x20;           /* job frame magic */
    expect_job_error(img, "job frame: bad magic");
    free(img);
    vdc_ctl_job_dispose(&job);
}

static void
test_bad_version(void **state)
{
    struct vdc_ctl_job job;
    uint8_t *img;

    make_job(&job);
    img = make_image(&job);
    put32(img + 8, 1);      /* a host of format 1: one result frame for every target */
    reseal_sb(img);
    expect_job_error(img, "format version 1, expected 2 (written by an older vmdiskcmp)");
    free(img);
    img = make_image(&job);
    put32(img + 8, 3);
    reseal_sb(img);
    expect_job_error(img, "format version 3, expected 2 (written by a newer vmdiskcmp: prepare the guest with it)");
    free(img);
    img = make_image(&job);
    put32(img + VDC_CTL_JOB_OFF + 8, 99);
    reseal_frame(img + VDC_CTL_JOB_OFF, 0);
    expect_job_error(img, "job frame: format version 99");
    free(img);
    vdc_ctl_job_dispose(&job);
}

static void
test_checksum_mismatch(void **state)
{
    struct vdc_ctl_job job;
    struct vdc_ctl_result res;
    uint8_t *img;

    make_job(&job);
    img = make_image(&job);
    img[100] ^= 1;                              /* reserved superblock byte */
    expect_job_error(img, "superblock checksum mismatch");
    free(img);
    img = make_image(&job);
    img[VDC_CTL_JOB_OFF + VDC_CTL_FRAME_HDR + 20] ^= 0x40;  /* payload */
    expect_job_error(img, "payload checksum mismatch");
    free(img);
    img = make_image(&job);
    img[VDC_CTL_JOB_OFF + 12] ^= 0x01;          /* frame header */
    expect_job_error(img, "header checksum mismatch");
    free(img);
    make_result(&res, job.nonce);
    img = image_with_result(&job, &res);
    img[VDC_CTL_RES_OFF + VDC_CTL_FRAME_HDR + 50] ^= 0x80;
    expect_result_error(img, job.nonce, "result frame: payload checksum mismatch");
    free(img);
    vdc_ctl_result_dispose(&res);
    vdc_ctl_job_dispose(&job);
}

static void
test_truncated(void **state)
{
    struct vdc_ctl_job job, back;
    struct vdc_ctl_result res, rback;
    struct vdc_ctl_error err = { { 0 } };
    uint8_t *img, *frame;
    size_t flen;

    make_job(&job);
    img = make_image(&job);
    vdc_ctl_job_init(&back);
    /* the disk shorter than its superblock says */
    assert_int_equal(vdc_ctl_image_read_job(img, img_size - 1, &back, &err), -1);
    assert_non_null(strstr(err.msg, "truncated"));
    assert_int_equal(vdc_ctl_image_read_job(img, 100, &back, &err), -1);
    assert_non_null(strstr(err.msg, "truncated"));
    /* a frame cut short */
    assert_int_equal(vdc_ctl_job_encode(&job, &frame, &flen, &err), 0);
    assert_int_equal(vdc_ctl_job_decode(frame, flen - 1, &back, &err), -1);
    assert_non_null(strstr(err.msg, "truncated"));
    assert_int_equal(vdc_ctl_job_decode(frame, 10, &back, &err), -1);
    assert_non_null(strstr(err.msg, "truncated"));
    free(frame);
    /* a result frame cut short */
    make_result(&res, job.nonce);
    assert_int_equal(vdc_ctl_result_encode(&res, 1 << 20, &frame, &flen, &err), 0);
    vdc_ctl_result_init(&rback);
    assert_int_equal(vdc_ctl_result_decode(frame, flen - 7, &rback, &err), -1);
    assert_non_null(strstr(err.msg, "truncated"));
    free(frame);
    vdc_ctl_result_dispose(&res);
    vdc_ctl_job_dispose(&job);
    free(img);
}

static void
test_oversize_length(void **state)
{
    struct vdc_ctl_job job;
    uint8_t *img;

    make_job(&job);
    /* frame payload length over the job area */
    img = make_image(&job);
    put64(img + VDC_CTL_JOB_OFF + 16, (uint64_t)VDC_CTL_JOB_MAX * 4);
    reseal_frame(img + VDC_CTL_JOB_OFF, 0);
    expect_job_error(img, "over the limit");
    free(img);
    /* a TLV record longer than its frame: rewrite the first record's length
     * and reseal so only the record check can catch it */
    img = make_image(&job);
    put32(img + VDC_CTL_JOB_OFF + VDC_CTL_FRAME_HDR + 4, 0x7FFFFFF0u);
    reseal_frame(img + VDC_CTL_JOB_OFF, 1);
    expect_job_error(img, "runs past the frame");
    free(img);
    /* superblock areas outside the disk */
    img = make_image(&job);
    put64(img + 48, (uint64_t)img_size);        /* res_max */
    reseal_sb(img);
    expect_job_error(img, "out of bounds");
    free(img);
    /* job_off + job_max wrapping past 2^64 (QA: read before the buffer) */
    img = make_image(&job);
    put64(img + 24, UINT64_MAX);                /* job_off */
    put64(img + 32, 32);                        /* job_max */
    reseal_sb(img);
    expect_job_error(img, "out of bounds");
    free(img);
    img = make_image(&job);
    put64(img + 16, (uint64_t)VDC_CTL_DISK_MAX * 2);  /* disk size */
    reseal_sb(img);
    expect_job_error(img, "recorded size");
    free(img);
    vdc_ctl_job_dispose(&job);
}

static void
test_stale_and_blank_result(void **state)
{
    struct vdc_ctl_job job;
    struct vdc_ctl_result res;
    uint8_t *img;

    make_job(&job);
    img = make_image(&job);
    expect_result_error(img, job.nonce, "no result frame");
    free(img);
    make_result(&res, job.nonce ^ 1);           /* a result for another job */
    img = image_with_result(&job, &res);
    expect_result_error(img, job.nonce, "stale result");
    expect_result_error(img, job.nonce ^ 1, "superblock nonce");
    free(img);
    vdc_ctl_result_dispose(&res);
    vdc_ctl_job_dispose(&job);
}

/* hand-made payloads: schema violations inside a correctly sealed frame */
static size_t
rec(uint8_t *p, uint16_t tag, const void *v, uint32_t len)
{
    p[0] = tag & 0xFF; p[1] = tag >> 8; p[2] = p[3] = 0;
    put32(p + 4, len);
    memcpy(p + 8, v, len);
    return 8 + len;
}

static void
decode_handmade(const uint8_t *payload, size_t plen, const char *needle)
{
    uint8_t f[1024] = { 0 };
    struct vdc_ctl_job job;
    struct vdc_ctl_error err = { { 0 } };

    memcpy(f, VDC_CTL_JOB_MAGIC, 8);
    put32(f + 8, VDC_CTL_FORMAT_VERSION);
    put32(f + 12, 1);
    put64(f + 16, plen);
    memcpy(f + VDC_CTL_FRAME_HDR, payload, plen);
    reseal_frame(f, 1);
    vdc_ctl_job_init(&job);
    assert_int_equal(vdc_ctl_job_decode(f, VDC_CTL_FRAME_HDR + plen, &job, &err), -1);
    if (!strstr(err.msg, needle))
        fail_msg("error '%s' does not mention '%s'", err.msg, needle);
    vdc_ctl_job_dispose(&job);
}

static void
test_schema(void **state)
{
    uint8_t p[512], t[256];
    uint8_t nonce[8] = { 1 }, four[4] = { 0 };
    size_t n, tn;

    /* no nonce */
    tn = rec(t, 0x0011, "a", 1);
    tn += rec(t + tn, 0x0012, "xvdb", 4);
    tn += rec(t + tn, 0x0013, "ext4", 4);
    n = rec(p, 0x0010, t, (uint32_t)tn);
    decode_handmade(p, n, "missing nonce");
    /* no targets */
    n = rec(p, 0x0001, nonce, 8);
    decode_handmade(p, n, "no targets");
    /* nonce twice */
    n = rec(p, 0x0001, nonce, 8);
    n += rec(p + n, 0x0001, nonce, 8);
    decode_handmade(p, n, "given twice");
    /* nonce of the wrong width */
    n = rec(p, 0x0001, four, 4);
    decode_handmade(p, n, "expected 8");
    /* vdev with a slash (the runner builds /dev/VDEV from it) */
    tn = rec(t, 0x0011, "a", 1);
    tn += rec(t + tn, 0x0012, "../sda", 6);
    tn += rec(t + tn, 0x0013, "ext4", 4);
    n = rec(p, 0x0001, nonce, 8);
    n += rec(p + n, 0x0010, t, (uint32_t)tn);
    decode_handmade(p, n, "vdev");
    /* NUL inside a string */
    tn = rec(t, 0x0011, "a\0b", 3);
    n = rec(p, 0x0001, nonce, 8);
    n += rec(p + n, 0x0010, t, (uint32_t)tn);
    decode_handmade(p, n, "NUL");
    /* target without vdev */
    tn = rec(t, 0x0011, "a", 1);
    tn += rec(t + tn, 0x0013, "ext4", 4);
    n = rec(p, 0x0001, nonce, 8);
    n += rec(p + n, 0x0010, t, (uint32_t)tn);
    decode_handmade(p, n, "missing vdev");
    /* nonzero reserved field */
    n = rec(p, 0x0001, nonce, 8);
    p[2] = 1;
    decode_handmade(p, n, "reserved");
}

/* The exact message of every TLV decoder failure (the table-driven decoder
 * must say what the per-frame switches said, word for word). */
/* @kind: 1 a job frame, 2 a result frame, 3 a target result frame */
static void
decode_exact(int kind, const uint8_t *payload, size_t plen, const char *msg)
{
    uint8_t *f = calloc(1, VDC_CTL_FRAME_HDR + plen);
    struct vdc_ctl_job job;
    struct vdc_ctl_result res;
    struct vdc_ctl_target_result t;
    struct vdc_ctl_error err = { { 0 } };
    uint64_t nonce = 0;
    int r;

    assert_non_null(f);
    memcpy(f, kind == 3 ? VDC_CTL_TRES_MAGIC : kind == 2 ? VDC_CTL_RES_MAGIC : VDC_CTL_JOB_MAGIC, 8);
    put32(f + 8, VDC_CTL_FORMAT_VERSION);
    put32(f + 12, (uint32_t)kind);
    put64(f + 16, plen);
    memcpy(f + VDC_CTL_FRAME_HDR, payload, plen);
    reseal_frame(f, 1);
    vdc_ctl_job_init(&job);
    vdc_ctl_result_init(&res);
    memset(&t, 0, sizeof(t));
    if (kind == 3)
        r = vdc_ctl_target_result_decode(f, VDC_CTL_FRAME_HDR + plen, &nonce, &t, &err);
    else if (kind == 2)
        r = vdc_ctl_result_decode(f, VDC_CTL_FRAME_HDR + plen, &res, &err);
    else
        r = vdc_ctl_job_decode(f, VDC_CTL_FRAME_HDR + plen, &job, &err);
    assert_int_equal(r, -1);
    assert_string_equal(err.msg, msg);
    assert_null(job.targets);       /* left disposed */
    assert_null(res.targets);
    assert_null(t.name);
    free(f);
}

static size_t
job_target(uint8_t *p, const char *name, const char *vdev, const char *mkfs)
{
    uint8_t t[256];
    size_t n = 0;

    if (name)
        n += rec(t + n, 0x0011, name, (uint32_t)strlen(name));
    if (vdev)
        n += rec(t + n, 0x0012, vdev, (uint32_t)strlen(vdev));
    if (mkfs)
        n += rec(t + n, 0x0013, mkfs, (uint32_t)strlen(mkfs));
    return rec(p, 0x0010, t, (uint32_t)n);
}

static void
test_exact_messages(void **state)
{
    static uint8_t p[8192];
    uint8_t nonce[8] = { 1 }, four[4] = { 0 }, st9[4] = { 9 }, st7[4] = { 7 };
    uint8_t t[512], big[300];
    size_t n, tn, i;

    memset(big, 'k', sizeof(big));
    /* record framing, top level and nested */
    n = rec(p, 0x0001, nonce, 8);
    p[2] = 1;
    decode_exact(1, p, n, "job: record 0x0001 at byte 0: reserved field not zero");
    decode_exact(1, p, 5, "job: truncated record header at byte 0");
    n = rec(p, 0x0001, nonce, 8);
    put32(p + 4, 100);
    decode_exact(2, p, n, "result: record 0x0001 at byte 0: length 100 runs past the frame");
    n = rec(p, 0x0001, nonce, 8);
    n += job_target(p + n, "a", "xvdb", "ext4");
    n += rec(p + n, 0x0010, "abc", 3);
    decode_exact(1, p, n, "job target 1: truncated record header at byte 0");
    /* numbers: width first, then once */
    n = rec(p, 0x0001, four, 4);
    decode_exact(1, p, n, "job nonce: 4 bytes, expected 8");
    n = rec(p, 0x0002, four, 4);
    n += rec(p + n, 0x0002, four, 4);
    decode_exact(1, p, n, "job run index: given twice: expected one");
    n = rec(p, 0x0007, nonce, 8);
    decode_exact(1, p, n, "job agent timeout: 8 bytes, expected 4");
    /* required tags */
    n = rec(p, 0x0002, four, 4);
    decode_exact(1, p, n, "job: missing nonce");
    n = rec(p, 0x0001, nonce, 8);
    decode_exact(1, p, n, "job: no targets");
    /* agent arguments */
    n = rec(p, 0x0001, nonce, 8);
    n += rec(p + n, 0x0008, "a\0", 2);
    decode_exact(1, p, n, "job agent argument: contains a NUL byte");
    n = rec(p, 0x0001, nonce, 8);
    for (i = 0; i < 65; i++)
        n += rec(p + n, 0x0008, "-f", 2);
    decode_exact(1, p, n, "job: more than 64 agent arguments");
    /* targets */
    n = rec(p, 0x0001, nonce, 8);
    for (i = 0; i < 17; i++)
        n += job_target(p + n, "a", "xvdb", "ext4");
    decode_exact(1, p, n, "job: more than 16 targets");
    n = rec(p, 0x0001, nonce, 8);
    tn = rec(t, 0x0011, big, 65);
    n += rec(p + n, 0x0010, t, (uint32_t)tn);
    decode_exact(1, p, n, "job target name: 65 bytes, more than the limit of 64");
    n = rec(p, 0x0001, nonce, 8);
    tn = rec(t, 0x0011, "a", 1);
    tn += rec(t + tn, 0x0011, "b", 1);
    n += rec(p + n, 0x0010, t, (uint32_t)tn);
    decode_exact(1, p, n, "job target name: given twice: expected one");
    n = rec(p, 0x0001, nonce, 8);
    n += job_target(p + n, "a", "xvdb", NULL);
    decode_exact(1, p, n, "job target 0: missing mkfs type");
    n = rec(p, 0x0001, nonce, 8);
    n += job_target(p + n, "a", "xvdb", "ext4");
    n += job_target(p + n, "b", "XVDC", "ext4");
    decode_exact(1, p, n, "job target 1 (b): vdev: expected 1-32 of [a-z0-9], e.g. xvdb");
    /* result */
    n = rec(p, 0x0020, four, 4);
    decode_exact(2, p, n, "result: missing nonce");
    n = rec(p, 0x0001, nonce, 8);
    decode_exact(2, p, n, "result: missing status");
    n = rec(p, 0x0001, nonce, 8);
    n += rec(p + n, 0x0020, st7, 4);
    decode_exact(2, p, n, "result: status 7, expected 0-3");
    n = rec(p, 0x0022, big, 257);
    decode_exact(2, p, n, "result kernel: 257 bytes, more than the limit of 256");
    n = rec(p, 0x0024, "x", 1);
    n += rec(p + n, 0x0024, "", 0);
    decode_exact(2, p, n, "result log: given twice: expected one");
    /* the summary carries no target: each is a frame in its slot */
    tn = rec(t, 0x0011, "a", 1);
    tn += rec(t + tn, 0x0031, four, 4);
    n = rec(p, 0x0001, nonce, 8);
    n += rec(p + n, 0x0020, four, 4);
    n += rec(p + n, 0x0030, t, (uint32_t)tn);
    decode_exact(2, p, n, "result: 1 target records: expected none (each target's result is in its slot)");
    /* target result frames */
    n = rec(p, 0x0030, t, (uint32_t)tn);
    decode_exact(3, p, n, "target result: missing nonce");
    n = rec(p, 0x0001, nonce, 8);
    decode_exact(3, p, n, "target result: 0 target records, expected 1");
    n = rec(p, 0x0001, nonce, 8);
    n += rec(p + n, 0x0030, t, (uint32_t)tn);
    n += rec(p + n, 0x0030, t, (uint32_t)tn);
    decode_exact(3, p, n, "target result: more than 1 targets");
    tn = rec(t, 0x0011, "a", 1);
    n = rec(p, 0x0001, nonce, 8);
    n += rec(p + n, 0x0030, t, (uint32_t)tn);
    decode_exact(3, p, n, "result target 0: missing status");
    tn = rec(t, 0x0011, "a", 1);
    tn += rec(t + tn, 0x0031, st9, 4);
    n = rec(p, 0x0001, nonce, 8);
    n += rec(p + n, 0x0030, t, (uint32_t)tn);
    decode_exact(3, p, n, "result target 0: status 9, expected 0-3");
    tn = rec(t, 0x0032, nonce, 8);
    n = rec(p, 0x0001, nonce, 8);
    n += rec(p + n, 0x0030, t, (uint32_t)tn);
    decode_exact(3, p, n, "result target agent exit: 8 bytes, expected 4");
    tn = rec(t, 0x0035, "{}", 2);
    tn += rec(t + tn, 0x0035, "{}", 2);
    n = rec(p, 0x0001, nonce, 8);
    n += rec(p + n, 0x0030, t, (uint32_t)tn);
    decode_exact(3, p, n, "result agent JSON: given twice: expected one");
    tn = rec(t, 0x0011, "a", 1);
    tn += rec(t + tn, 0x0031, four, 4);
    n = 0;
    for (i = 0; i < 17; i++)
        n += rec(p + n, 0x0030, t, (uint32_t)tn);
    decode_exact(2, p, n, "result: more than 16 targets");
}

static void
test_builder_refusals(void **state)
{
    struct vdc_ctl_job job;
    struct vdc_ctl_error err = { { 0 } };
    uint8_t *f;
    size_t fl;
    int i;

    vdc_ctl_job_init(&job);
    assert_int_equal(vdc_ctl_job_encode(&job, &f, &fl, &err), -1);
    assert_non_null(strstr(err.msg, "no targets"));
    assert_int_equal(vdc_ctl_job_add_target(&job, "x", "/dev/xvdb", "ext4", NULL, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "vdev"));
    assert_int_equal(vdc_ctl_job_add_target(&job, "x y", "xvdb", "ext4", NULL, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "name"));
    assert_int_equal(vdc_ctl_job_add_target(&job, "x", "xvdb", "ext4;rm", NULL, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "mkfs"));
    assert_int_equal(vdc_ctl_job_target_args(&job, "--fill 5", NULL, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "before any target"));
    assert_int_equal(vdc_ctl_job_add_target(&job, "a", "xvdb", NULL, NULL, NULL, &err), 0);
    assert_int_equal(vdc_ctl_job_target_args(&job, "--fill 5;rm", NULL, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "agent args: expected options"));
    assert_int_equal(vdc_ctl_job_target_args(&job, NULL, "--passes  a", NULL, &err), -1);
    assert_int_equal(vdc_ctl_job_target_args(&job, NULL, NULL, " --precondition", &err), -1);
    assert_int_equal(vdc_ctl_job_target_args(&job, NULL, NULL, "--precondition=60:3", &err), 0);
    vdc_ctl_job_dispose(&job);
    vdc_ctl_job_init(&job);
    for (i = 0; i < (int)VDC_CTL_MAX_TARGETS; i++)
        assert_int_equal(vdc_ctl_job_add_target(&job, "t", "xvdb", NULL, NULL, NULL, &err), 0);
    assert_int_equal(vdc_ctl_job_add_target(&job, "t", "xvdb", NULL, NULL, NULL, &err), -1);
    assert_non_null(strstr(err.msg, "more than"));
    vdc_ctl_job_dispose(&job);
}

static void
test_result_too_big(void **state)
{
    struct vdc_ctl_result res;
    struct vdc_ctl_error err = { { 0 } };
    uint8_t *f;
    size_t fl;

    make_result(&res, 1);
    assert_int_equal(vdc_ctl_result_encode(&res, 64, &f, &fl, &err), -1);
    assert_non_null(strstr(err.msg, "more than the 64-byte area"));
    vdc_ctl_result_dispose(&res);
}

/* ---- workloads (job tags 0x0040-0x0043, flag 0x8; result tags 0x0037-0x0039) ---- */
static const char job_text[] = "[randread-4k-qd32]\nrw=randread\nbs=4k\niodepth=32\nsize=16m\n";

static void
test_workload_round_trip(void **state)
{
    struct vdc_ctl_job job, back;
    struct vdc_ctl_result res, rback;
    struct vdc_ctl_target_result *t;
    struct vdc_ctl_error err = { { 0 } };
    uint8_t *img, *plain, *f;
    size_t fl, plain_len;

    make_job(&job);
    /* a job without workloads encodes as the format did before them */
    assert_int_equal(vdc_ctl_job_encode(&job, &plain, &plain_len, &err), 0);
    assert_int_equal(vdc_ctl_job_add_workload(&job, "randread-4k-qd32", job_text, &err), 0);
    assert_int_equal(vdc_ctl_job_add_workload(&job, "write-1m", "[write-1m]\nrw=write\n", &err), 0);
    assert_int_equal(vdc_ctl_job_add_workload_arg(&job, "-r", &err), 0);
    assert_int_equal(vdc_ctl_job_add_workload_arg(&job, "512", &err), 0);
    job.flags |= VDC_CTL_JOB_NO_BONNIE;
    assert_int_equal(vdc_ctl_job_encode(&job, &f, &fl, &err), 0);
    assert_true(fl > plain_len);
    free(f);
    free(plain);
    img = make_image(&job);
    vdc_ctl_job_init(&back);
    assert_int_equal(vdc_ctl_image_read_job(img, img_size, &back, &err), 0);
    assert_int_equal(back.flags, VDC_CTL_JOB_DROP_CACHES | VDC_CTL_JOB_NO_BONNIE);
    assert_int_equal(back.n_workloads, 2);
    assert_string_equal(back.workloads[0].name, "randread-4k-qd32");
    assert_string_equal(back.workloads[0].text, job_text);
    assert_string_equal(back.workloads[1].name, "write-1m");
    assert_int_equal(back.n_workload_args, 2);
    assert_string_equal(back.workload_args[1], "512");
    assert_int_equal(back.n_agent_args, 3);     /* the bonnie++ pass's, unchanged */
    vdc_ctl_job_dispose(&back);

    /* the result: a target with both passes, one with none */
    make_result(&res, job.nonce);
    assert_int_equal(res.targets[1].workload_exit, -1);
    t = &res.targets[0];
    t->workload_exit = 0;
    t->workload_elapsed_ms = 4321;
    t->workload_json = strdup("{\"runs\":[]}");
    t->workload_json_len = strlen(t->workload_json);
    free(img);
    img = image_with_result(&job, &res);
    vdc_ctl_result_init(&rback);
    assert_int_equal(vdc_ctl_image_read_result(img, img_size, job.nonce, &rback, &err), 0);
    assert_int_equal(rback.targets[0].workload_exit, 0);
    assert_int_equal(rback.targets[0].workload_elapsed_ms, 4321);
    assert_int_equal(rback.targets[0].workload_json_len, t->workload_json_len);
    assert_string_equal(rback.targets[0].workload_json, t->workload_json);
    assert_string_equal(rback.targets[0].agent_json, res.targets[0].agent_json);
    assert_int_equal(rback.targets[1].workload_exit, -1);    /* absent: not run */
    assert_null(rback.targets[1].workload_json);
    vdc_ctl_result_dispose(&rback);
    vdc_ctl_result_dispose(&res);
    vdc_ctl_job_dispose(&job);
    free(img);
}

/* the raw pass: flags 0x10 and 0x20, tag 0x0044 (its arguments), result
 * tags 0x003A-0x003C; a job without them encodes as before */
static void
test_raw_workload_round_trip(void **state)
{
    struct vdc_ctl_job job, back;
    struct vdc_ctl_result res, rback;
    struct vdc_ctl_target_result *t;
    struct vdc_ctl_error err = { { 0 } };
    uint8_t *img, *f;
    size_t fl;

    make_job(&job);
    assert_int_equal(vdc_ctl_job_add_workload(&job, "randread-4k-qd32", job_text, &err), 0);
    /* the flags that need workloads or each other */
    job.flags |= VDC_CTL_JOB_NO_FILE_WORKLOADS;
    assert_int_equal(vdc_ctl_job_encode(&job, &f, &fl, &err), -1);
    assert_non_null(strstr(err.msg, "no-file-workloads without raw-workloads"));
    job.flags |= VDC_CTL_JOB_RAW_WORKLOADS;
    assert_int_equal(vdc_ctl_job_add_raw_workload_arg(&job, "-q", &err), 0);
    assert_int_equal(vdc_ctl_job_add_raw_workload_arg(&job, "--destroy-data", &err), 0);
    img = make_image(&job);
    vdc_ctl_job_init(&back);
    assert_int_equal(vdc_ctl_image_read_job(img, img_size, &back, &err), 0);
    assert_int_equal(back.flags, VDC_CTL_JOB_DROP_CACHES | VDC_CTL_JOB_RAW_WORKLOADS |
                                 VDC_CTL_JOB_NO_FILE_WORKLOADS);
    assert_int_equal(back.n_raw_workload_args, 2);
    assert_string_equal(back.raw_workload_args[1], "--destroy-data");
    assert_int_equal(back.n_workload_args, 0);
    vdc_ctl_job_dispose(&back);

    make_result(&res, job.nonce);
    assert_int_equal(res.targets[0].raw_workload_exit, -1);
    t = &res.targets[0];
    t->raw_workload_exit = 1;
    t->raw_workload_elapsed_ms = 1234;
    t->raw_workload_json = strdup("{\"runs\":[1]}");
    t->raw_workload_json_len = strlen(t->raw_workload_json);
    free(img);
    img = image_with_result(&job, &res);
    vdc_ctl_result_init(&rback);
    assert_int_equal(vdc_ctl_image_read_result(img, img_size, job.nonce, &rback, &err), 0);
    assert_int_equal(rback.targets[0].raw_workload_exit, 1);
    assert_int_equal(rback.targets[0].raw_workload_elapsed_ms, 1234);
    assert_string_equal(rback.targets[0].raw_workload_json, t->raw_workload_json);
    assert_int_equal(rback.targets[0].workload_exit, -1);   /* the file pass did not run */
    assert_int_equal(rback.targets[1].raw_workload_exit, -1);
    assert_null(rback.targets[1].raw_workload_json);
    vdc_ctl_result_dispose(&rback);
    vdc_ctl_result_dispose(&res);
    vdc_ctl_job_dispose(&job);
    free(img);

    /* raw-workloads without workloads */
    make_job(&job);
    job.flags |= VDC_CTL_JOB_RAW_WORKLOADS;
    assert_int_equal(vdc_ctl_job_encode(&job, &f, &fl, &err), -1);
    assert_non_null(strstr(err.msg, "raw-workloads without workloads"));
    vdc_ctl_job_dispose(&job);
}

/* the guest filesystem's units and its disk's sizes: carried in the
 * target's slot when the runner read them, absent (0, NULL) otherwise */
static void
test_fs_facts_round_trip(void **state)
{
    struct vdc_ctl_job job;
    struct vdc_ctl_result res, back;
    struct vdc_ctl_error err = { { 0 } };
    struct vdc_ctl_target_result *t;
    uint8_t *img;

    make_job(&job);
    make_result(&res, job.nonce);
    t = &res.targets[0];
    t->fs_block = 2048;
    t->fs_stripe = 131072;
    t->fs_source = strdup("ext4 superblock");
    t->disk = strdup("sda");
    t->disk_physical_block_size = 4096;
    t->disk_minimum_io_size = 4096;
    t->disk_optimal_io_size = 1048576;
    t->disk_alignment_offset = 512;
    img = image_with_result(&job, &res);
    vdc_ctl_result_init(&back);
    assert_int_equal(vdc_ctl_image_read_result(img, img_size, job.nonce, &back, &err), 0);
    t = &back.targets[0];
    assert_true(t->fs_block == 2048 && t->fs_stripe == 131072);
    assert_string_equal(t->fs_source, "ext4 superblock");
    assert_string_equal(t->disk, "sda");
    assert_true(t->disk_physical_block_size == 4096 && t->disk_minimum_io_size == 4096 &&
                t->disk_optimal_io_size == 1048576 && t->disk_alignment_offset == 512);
    t = &back.targets[1];
    assert_true(t->fs_block == 0 && t->fs_stripe == 0 && !t->fs_source && !t->disk);
    assert_true(t->disk_physical_block_size == 0 && t->disk_optimal_io_size == 0);
    vdc_ctl_result_dispose(&back);
    vdc_ctl_result_dispose(&res);
    vdc_ctl_job_dispose(&job);
    free(img);
}

static void
test_workload_builder_refusals(void **state)
{
    struct vdc_ctl_job job;
    struct vdc_ctl_error err = { { 0 } };
    char *big = malloc(VDC_CTL_MAX_JOBFILE + 2), name[16];
    uint8_t *f;
    size_t fl;
    unsigned i;

    make_job(&job);
    job.flags |= VDC_CTL_JOB_NO_BONNIE;
    assert_int_equal(vdc_ctl_job_encode(&job, &f, &fl, &err), -1);
    assert_non_null(strstr(err.msg, "no-bonnie without workloads"));
    assert_int_equal(vdc_ctl_job_add_workload(&job, "../x", job_text, &err), -1);
    assert_non_null(strstr(err.msg, "name: expected 1-64 of [A-Za-z0-9._-]"));
    assert_int_equal(vdc_ctl_job_add_workload(&job, "", job_text, &err), -1);
    assert_int_equal(vdc_ctl_job_add_workload(&job, "x", NULL, &err), -1);
    assert_non_null(strstr(err.msg, "text: expected a job file"));
    memset(big, 'a', VDC_CTL_MAX_JOBFILE + 1);
    big[VDC_CTL_MAX_JOBFILE + 1] = 0;
    assert_int_equal(vdc_ctl_job_add_workload(&job, "x", big, &err), -1);
    assert_non_null(strstr(err.msg, "at most 16384 bytes"));
    big[VDC_CTL_MAX_JOBFILE] = 0;       /* exactly the limit: carried */
    assert_int_equal(vdc_ctl_job_add_workload(&job, "x", big, &err), 0);
    assert_int_equal(vdc_ctl_job_add_workload(&job, "x", job_text, &err), -1);
    assert_non_null(strstr(err.msg, "given twice"));
    for (i = 1; i < VDC_CTL_MAX_WORKLOADS; i++) {
        snprintf(name, sizeof(name), "w%u", i);
        assert_int_equal(vdc_ctl_job_add_workload(&job, name, job_text, &err), 0);
    }
    assert_int_equal(vdc_ctl_job_add_workload(&job, "one-more", job_text, &err), -1);
    assert_non_null(strstr(err.msg, "more than 16 workloads"));
    /* sixteen job files of the largest size fit the job area */
    assert_int_equal(vdc_ctl_job_encode(&job, &f, &fl, &err), 0);
    free(f);
    for (i = 0; i < VDC_CTL_MAX_ARGS; i++)
        assert_int_equal(vdc_ctl_job_add_workload_arg(&job, "-q", &err), 0);
    assert_int_equal(vdc_ctl_job_add_workload_arg(&job, "-q", &err), -1);
    assert_non_null(strstr(err.msg, "more than 64 workload arguments"));
    vdc_ctl_job_dispose(&job);
    free(big);
}

/* a TLV record into @p: returns the bytes written */
static size_t
tlv(uint8_t *p, uint16_t tag, const void *v, uint32_t len)
{
    p[0] = tag & 0xFF;
    p[1] = tag >> 8;
    p[2] = p[3] = 0;
    put32(p + 4, len);
    memcpy(p + 8, v, len);
    return 8 + len;
}

/* a job payload: nonce, one target, then @extra (@n bytes), framed; the
 * decoder's message must mention @needle */
static void
expect_payload_error(const uint8_t *extra, size_t n, const char *needle)
{
    uint8_t pay[512], tgt[64], frame[600], nonce[8] = { 1 };
    struct vdc_ctl_job job;
    struct vdc_ctl_error err = { { 0 } };
    size_t len = 0, tl = 0;

    tl += tlv(tgt + tl, 0x0011, "t", 1);
    tl += tlv(tgt + tl, 0x0012, "vdb", 3);
    tl += tlv(tgt + tl, 0x0013, "ext4", 4);
    len += tlv(pay + len, 0x0001, nonce, 8);
    len += tlv(pay + len, 0x0010, tgt, (uint32_t)tl);
    memcpy(pay + len, extra, n);
    len += n;
    memcpy(frame, VDC_CTL_JOB_MAGIC, 8);
    put32(frame + 8, VDC_CTL_FORMAT_VERSION);
    put32(frame + 12, 1);
    put64(frame + 16, len);
    memcpy(frame + VDC_CTL_FRAME_HDR, pay, len);
    reseal_frame(frame, 1);
    vdc_ctl_job_init(&job);
    assert_int_equal(vdc_ctl_job_decode(frame, VDC_CTL_FRAME_HDR + len, &job, &err), -1);
    if (!strstr(err.msg, needle))
        fail_msg("error '%s' does not mention '%s'", err.msg, needle);
    assert_int_equal(job.n_workloads, 0);   /* left disposed */
    vdc_ctl_job_dispose(&job);
}

static void
test_workload_corruption(void **state)
{
    uint8_t w[256], x[300];
    size_t n, m;
    uint32_t flags = VDC_CTL_JOB_NO_BONNIE;
    uint8_t fl[4];

    /* a workload without its text */
    n = tlv(w, 0x0041, "a", 1);
    m = tlv(x, 0x0040, w, (uint32_t)n);
    expect_payload_error(x, m, "job workload 0: missing text");
    /* a name a path could be made of */
    n = tlv(w, 0x0041, "../a", 4);
    n += tlv(w + n, 0x0042, "[a]\n", 4);
    m = tlv(x, 0x0040, w, (uint32_t)n);
    expect_payload_error(x, m, "job workload 0: name: expected 1-64 of [A-Za-z0-9._-]");
    /* a NUL byte in the text */
    n = tlv(w, 0x0041, "a", 1);
    n += tlv(w + n, 0x0042, "[a]\0x", 5);
    m = tlv(x, 0x0040, w, (uint32_t)n);
    expect_payload_error(x, m, "job workload text: contains a NUL byte");
    /* one name twice */
    n = tlv(w, 0x0041, "a", 1);
    n += tlv(w + n, 0x0042, "[a]\n", 4);
    m = tlv(x, 0x0040, w, (uint32_t)n);
    m += tlv(x + m, 0x0040, w, (uint32_t)n);
    expect_payload_error(x, m, "job workload 1 (a): name given twice: expected each workload name once");
    /* a name given twice inside one workload */
    n = tlv(w, 0x0041, "a", 1);
    n += tlv(w + n, 0x0041, "b", 1);
    m = tlv(x, 0x0040, w, (uint32_t)n);
    expect_payload_error(x, m, "job workload name: given twice");
    /* the no-bonnie flag with nothing to run instead */
    put32(fl, flags);
    m = tlv(x, 0x0005, fl, 4);
    expect_payload_error(x, m, "no-bonnie without workloads");
    /* a workload argument with a NUL byte */
    m = tlv(x, 0x0043, "-\0q", 3);
    expect_payload_error(x, m, "job workload argument: contains a NUL byte");
}

/* ---- target slots (format 2) ------------------------------------------------ */
/* a slot holds every answer the agent may legally give: each pass's JSON
 * at the full 8 MiB, beside the other targets' answers */
static void
test_slot_sizes(void **state)
{
    struct vdc_ctl_job job;
    struct vdc_ctl_error err = { { 0 } };
    uint64_t one, three;

    make_job(&job);
    one = vdc_ctl_slot_size(&job);
    assert_true(one >= (uint64_t)VDC_CTL_MAX_BLOB + VDC_CTL_TAIL_MAX + VDC_CTL_MAX_STRING);
    assert_true(one < (uint64_t)VDC_CTL_MAX_BLOB + 65536);
    assert_int_equal(one % 4096, 0);
    assert_true(vdc_ctl_disk_size(&job) == VDC_CTL_SLOT_OFF + 2 * one);
    assert_int_equal(vdc_ctl_job_add_workload(&job, "w", job_text, &err), 0);
    assert_true(vdc_ctl_slot_size(&job) >= one + VDC_CTL_MAX_BLOB);     /* + the workload pass */
    job.flags |= VDC_CTL_JOB_RAW_WORKLOADS;
    three = vdc_ctl_slot_size(&job);
    assert_true(three > 3ULL * VDC_CTL_MAX_BLOB && three <= VDC_CTL_SLOT_MAX);
    job.flags |= VDC_CTL_JOB_NO_BONNIE | VDC_CTL_JOB_NO_FILE_WORKLOADS;
    assert_true(vdc_ctl_slot_size(&job) == one);                       /* the raw pass only */
    vdc_ctl_job_dispose(&job);
}

/* an answer just under 8 MiB for one target and a small one for the other,
 * through the runner's and the host's paths on a file: both kept (format 1
 * put every target in one 7 MiB frame and lost both) */
static void
test_slot_full_answer(void **state)
{
    char path[] = "/tmp/test_ctldisk.XXXXXX";
    struct vdc_ctl_job job;
    struct vdc_ctl_result res, back;
    struct vdc_ctl_error err = { { 0 } };
    struct vdc_ctl_target_result *t;
    int fd = mkstemp(path);

    assert_true(fd >= 0);
    unlink(path);
    make_job(&job);
    assert_int_equal(ftruncate(fd, (off_t)vdc_ctl_disk_size(&job)), 0);
    assert_int_equal(vdc_ctl_disk_format(fd, vdc_ctl_disk_size(&job), &job, &err), 0);
    make_result(&res, job.nonce);
    t = &res.targets[0];
    free(t->agent_json);
    t->agent_json_len = VDC_CTL_MAX_BLOB;               /* the most a pass may answer */
    t->agent_json = malloc(t->agent_json_len + 1);
    assert_non_null(t->agent_json);
    memset(t->agent_json, ' ', t->agent_json_len);
    t->agent_json[0] = '{';
    t->agent_json[t->agent_json_len - 1] = '}';
    t->agent_json[t->agent_json_len] = 0;
    free(t->stderr_tail);
    t->stderr_tail = malloc(VDC_CTL_TAIL_MAX);
    assert_non_null(t->stderr_tail);
    memset(t->stderr_tail, 'e', VDC_CTL_TAIL_MAX);
    t->stderr_tail_len = VDC_CTL_TAIL_MAX;
    t->error = malloc(VDC_CTL_MAX_STRING + 1);
    memset(t->error, 'x', VDC_CTL_MAX_STRING);
    t->error[VDC_CTL_MAX_STRING] = 0;
    assert_int_equal(vdc_ctl_disk_write_target(fd, 1, job.nonce, &res.targets[1], &err), 0);
    assert_int_equal(vdc_ctl_disk_write_target(fd, 0, job.nonce, &res.targets[0], &err), 0);
    assert_int_equal(vdc_ctl_disk_write_target(fd, 2, job.nonce, &res.targets[0], &err), -1);
    assert_non_null(strstr(err.msg, "the disk has 2 slots"));
    assert_int_equal(vdc_ctl_disk_write_summary(fd, &res, &err), 0);
    vdc_ctl_result_init(&back);
    assert_int_equal(vdc_ctl_disk_read_result(fd, job.nonce, &back, &err), 0);
    assert_null(back.lost_slots);
    assert_int_equal(back.n_targets, 2);
    assert_string_equal(back.targets[0].name, "image");
    assert_int_equal(back.targets[0].agent_json_len, VDC_CTL_MAX_BLOB);
    assert_memory_equal(back.targets[0].agent_json, t->agent_json, VDC_CTL_MAX_BLOB);
    assert_string_equal(back.targets[1].name, "lvm");
    assert_string_equal(back.targets[1].error, "agent ran past 900 s: killed");
    assert_string_equal(back.kernel, "6.1.0-57-amd64");
    vdc_ctl_result_dispose(&back);
    vdc_ctl_result_dispose(&res);
    vdc_ctl_job_dispose(&job);
    close(fd);
}

/* a slot that does not hold this job's target result costs only its
 * target: the others are kept, the cause named */
static void
test_slot_isolation(void **state)
{
    struct vdc_ctl_job job;
    struct vdc_ctl_result res, back, other;
    struct vdc_ctl_error err = { { 0 } };
    uint8_t *img, *frame;
    size_t flen;

    make_job(&job);
    make_result(&res, job.nonce);
    /* a corrupt slot 0 */
    img = image_with_result(&job, &res);
    img[slot_at(img, 0) + VDC_CTL_FRAME_HDR + 40] ^= 0x10;
    vdc_ctl_result_init(&back);
    assert_int_equal(vdc_ctl_image_read_result(img, img_size, job.nonce, &back, &err), 0);
    assert_int_equal(back.n_targets, 1);
    assert_string_equal(back.targets[0].name, "lvm");
    assert_string_equal(back.lost_slots, "slot 0: target result frame: payload checksum mismatch");
    vdc_ctl_result_dispose(&back);
    /* a blank slot 1 (the runner never got there) and a stale slot 0 */
    free(img);
    img = image_with_result(&job, &res);
    memset(img + slot_at(img, 1), 0, VDC_CTL_FRAME_HDR);
    make_result(&other, job.nonce ^ 2);
    assert_int_equal(vdc_ctl_target_result_encode(other.nonce, &other.targets[0], 1 << 20, &frame,
                                                  &flen, &err), 0);
    memcpy(img + slot_at(img, 0), frame, flen);
    free(frame);
    assert_int_equal(vdc_ctl_image_read_result(img, img_size, job.nonce, &back, &err), 0);
    assert_int_equal(back.n_targets, 0);
    assert_non_null(strstr(back.lost_slots, "slot 0: target result nonce "));
    assert_non_null(strstr(back.lost_slots, "(stale result); slot 1: no target result frame (area is blank)"));
    vdc_ctl_result_dispose(&back);
    /* a summary frame in a slot: another magic */
    assert_int_equal(vdc_ctl_result_encode(&res, 1 << 20, &frame, &flen, &err), 0);
    memcpy(img + slot_at(img, 1), frame, flen);
    free(frame);
    assert_int_equal(vdc_ctl_image_read_result(img, img_size, job.nonce, &back, &err), 0);
    assert_non_null(strstr(back.lost_slots, "slot 1: target result frame: bad magic (expected VDCCTLTR)"));
    vdc_ctl_result_dispose(&back);
    vdc_ctl_result_dispose(&other);
    vdc_ctl_result_dispose(&res);
    vdc_ctl_job_dispose(&job);
    free(img);
}

/* the superblock's slots: inside the disk, aligned, after the result area,
 * as many as the job has targets and as large as they need */
static void
test_slot_geometry(void **state)
{
    static const struct { unsigned off; uint64_t v; int u32; const char *needle; } bad[] = {
        { 96, 0, 1, "target slots out of bounds (0 slots" },
        { 96, 17, 1, "target slots out of bounds (17 slots" },
        { 88, 4095, 0, "target slots out of bounds" },
        { 88, (uint64_t)VDC_CTL_SLOT_MAX + 4096, 0, "target slots out of bounds" },
        { 80, VDC_CTL_SLOT_OFF + 512, 0, "target slots out of bounds" },
        { 80, VDC_CTL_RES_OFF, 0, "target slots out of bounds" },
        { 80, UINT64_MAX & ~(uint64_t)4095, 0, "target slots out of bounds" },
        { 96, 3, 1, "target slots out of bounds (3 slots" },    /* past the disk */
        { 96, 1, 1, "1 target slots of" },                      /* the job has 2 */
        { 88, 4096, 0, "target slots of 4096 bytes for a job of 2 targets needing" },
    };
    struct vdc_ctl_job job;
    uint8_t *img;
    size_t i;

    make_job(&job);
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        img = make_image(&job);
        if (bad[i].u32)
            put32(img + bad[i].off, (uint32_t)bad[i].v);
        else
            put64(img + bad[i].off, bad[i].v);
        reseal_sb(img);
        expect_job_error(img, bad[i].needle);
        free(img);
    }
    vdc_ctl_job_dispose(&job);
}

/* ---- progress block -------------------------------------------------------- */
static void
add_events(struct vdc_ctl_progress *p, unsigned n)
{
    unsigned i;

    for (i = 0; i < n; i++)
        vdc_ctl_progress_add(p, 1000000000ULL + i, (uint16_t)(i / 24),
                             i % 2 ? VDC_CTL_EV_TEST_END : VDC_CTL_EV_TEST_BEGIN,
                             (uint8_t)((i / 2) % 12));
}

static void
test_progress_round_trip(void **state)
{
    struct vdc_ctl_job job;
    struct vdc_ctl_progress p, back;
    struct vdc_ctl_error err = { { 0 } };
    uint8_t *img;
    unsigned i;

    make_job(&job);
    img = make_image(&job);
    /* a freshly formatted disk announces the block at 4096 and it is blank */
    assert_int_equal(vdc_ctl_image_read_progress(img, img_size, job.nonce, &back, &err), 1);
    assert_int_equal(img[64], VDC_CTL_PROGRESS_OFF & 0xFF);
    assert_int_equal(img[65], VDC_CTL_PROGRESS_OFF >> 8);
    assert_int_equal(img[73], VDC_CTL_PROGRESS_SIZE >> 8);

    /* 70 events: the ring keeps the newest 64, oldest first */
    vdc_ctl_progress_init(&p, job.nonce);
    add_events(&p, 70);
    assert_int_equal(p.n_events, VDC_CTL_PROGRESS_RING);
    assert_int_equal(p.newest_seq, 70);
    vdc_ctl_progress_encode(&p, img + VDC_CTL_PROGRESS_OFF);
    assert_int_equal(vdc_ctl_image_read_progress(img, img_size, job.nonce, &back, &err), 0);
    assert_int_equal(back.n_events, 64);
    assert_int_equal(back.newest_seq, 70);
    for (i = 0; i < back.n_events; i++) {
        assert_int_equal(back.ev[i].seq, 7 + i);
        assert_int_equal(back.ev[i].guest_ns, 1000000000ULL + 6 + i);
        assert_int_equal(back.ev[i].kind, p.ev[i].kind);
        assert_int_equal(back.ev[i].test, p.ev[i].test);
        assert_int_equal(back.ev[i].target, p.ev[i].target);
    }
    /* no beat yet: the block reads as 'no heartbeat' */
    assert_int_equal(back.beats, 0);
    assert_int_equal(back.beat_ns, 0);
    /* two beats: the count and the last beat's time, at bytes 1312..1327 */
    assert_int_equal(vdc_ctl_progress_beat(&p, 5000000000ULL), 1);
    assert_int_equal(vdc_ctl_progress_beat(&p, 10000000007ULL), 2);
    vdc_ctl_progress_encode(&p, img + VDC_CTL_PROGRESS_OFF);
    assert_int_equal(get64(img + VDC_CTL_PROGRESS_OFF + 1312), 2);
    assert_int_equal(get64(img + VDC_CTL_PROGRESS_OFF + 1320), 10000000007ULL);
    assert_int_equal(vdc_ctl_image_read_progress(img, img_size, job.nonce, &back, &err), 0);
    assert_int_equal(back.beats, 2);
    assert_int_equal(back.beat_ns, 10000000007ULL);
    assert_int_equal(back.n_events, 64);
    assert_int_equal(back.newest_seq, 70);
    /* the job still reads at its new offset */
    vdc_ctl_job_dispose(&job);
    assert_int_equal(vdc_ctl_image_read_job(img, img_size, &job, &err), 0);
    assert_int_equal(job.n_targets, 2);
    vdc_ctl_job_dispose(&job);
    free(img);
}

static void
test_progress_file(void **state)
{
    char path[] = "/tmp/test_ctldisk.XXXXXX";
    struct vdc_ctl_job job;
    struct vdc_ctl_progress p, back;
    struct vdc_ctl_error err = { { 0 } };
    uint64_t off = 0;
    int fd = mkstemp(path);

    assert_true(fd >= 0);
    unlink(path);
    make_job(&job);
    assert_int_equal(ftruncate(fd, img_size), 0);
    assert_int_equal(vdc_ctl_disk_format(fd, img_size, &job, &err), 0);
    assert_int_equal(vdc_ctl_disk_read_progress(fd, job.nonce, &back, &err), 1);
    assert_int_equal(vdc_ctl_disk_progress_area(fd, &off, &err), 0);
    assert_int_equal(off, VDC_CTL_PROGRESS_OFF);
    vdc_ctl_progress_init(&p, job.nonce);
    add_events(&p, 3);
    assert_int_equal(vdc_ctl_disk_write_progress(fd, off, &p, &err), 0);
    assert_int_equal(vdc_ctl_disk_read_progress(fd, job.nonce, &back, &err), 0);
    assert_int_equal(back.n_events, 3);
    assert_int_equal(back.ev[2].seq, 3);
    assert_int_equal(back.ev[2].kind, VDC_CTL_EV_TEST_BEGIN);
    /* another job's block is stale */
    assert_int_equal(vdc_ctl_disk_read_progress(fd, job.nonce + 1, &back, &err), -1);
    assert_non_null(strstr(err.msg, "nonce"));
    close(fd);
    vdc_ctl_job_dispose(&job);
}

static void
expect_progress_error(const uint8_t *blk, const char *needle)
{
    struct vdc_ctl_progress back;
    struct vdc_ctl_error err = { { 0 } };

    assert_int_equal(vdc_ctl_progress_decode(blk, VDC_CTL_PROGRESS_SIZE, &back, &err), -1);
    if (!strstr(err.msg, needle))
        fail_msg("error '%s' does not mention '%s'", err.msg, needle);
}

static void
reseal_progress(uint8_t *blk)
{
    put32(blk + VDC_CTL_PROGRESS_SIZE - 4, vdc_ctl_crc32c(blk, VDC_CTL_PROGRESS_SIZE - 4));
}

static void
test_progress_corruption(void **state)
{
    struct vdc_ctl_progress p, back;
    struct vdc_ctl_error err = { { 0 } };
    struct vdc_ctl_job job;
    uint8_t good[VDC_CTL_PROGRESS_SIZE], blk[VDC_CTL_PROGRESS_SIZE], *img;

    vdc_ctl_progress_init(&p, 42);
    add_events(&p, 5);
    vdc_ctl_progress_encode(&p, good);

    memcpy(blk, good, sizeof(blk));
    blk[40] ^= 0x01;                            /* a torn read: the CRC catches it */
    expect_progress_error(blk, "checksum");
    memcpy(blk, good, sizeof(blk));
    blk[0] = 'X';
    expect_progress_error(blk, "magic");
    memcpy(blk, good, sizeof(blk));
    put32(blk + 8, 2);
    reseal_progress(blk);
    expect_progress_error(blk, "version 2");
    memcpy(blk, good, sizeof(blk));
    put32(blk + 12, 65);
    reseal_progress(blk);
    expect_progress_error(blk, "65 events");
    memcpy(blk, good, sizeof(blk));
    put64(blk + 24, 3);                         /* newest seq below the count */
    reseal_progress(blk);
    expect_progress_error(blk, "newest seq");
    memcpy(blk, good, sizeof(blk));
    put64(blk + 32 + 2 * 20, 9);                /* a gap in seq */
    reseal_progress(blk);
    expect_progress_error(blk, "event 2 has seq 9, expected 3");
    memcpy(blk, good, sizeof(blk));
    blk[32 + 20 + 18] = 5;                      /* kind */
    reseal_progress(blk);
    expect_progress_error(blk, "kind 5");
    /* the heartbeat is under the CRC: a torn beat is read again */
    vdc_ctl_progress_beat(&p, 77);
    vdc_ctl_progress_encode(&p, blk);
    blk[1312] ^= 0x02;
    expect_progress_error(blk, "checksum");
    vdc_ctl_progress_encode(&p, blk);
    blk[1327] ^= 0x80;
    expect_progress_error(blk, "checksum");
    /* any count and time are taken as written (the host only compares
     * counts); a block from a runner without the heartbeat reads 0 */
    put64(blk + 1312, UINT64_MAX);
    reseal_progress(blk);
    assert_int_equal(vdc_ctl_progress_decode(blk, sizeof(blk), &back, &err), 0);
    assert_true(back.beats == UINT64_MAX);
    assert_int_equal(vdc_ctl_progress_decode(good, sizeof(good), &back, &err), 0);
    assert_int_equal(back.beats, 0);
    assert_int_equal(vdc_ctl_progress_decode(good, 100, &back, &err), -1);
    assert_non_null(strstr(err.msg, "truncated"));
    assert_int_equal(vdc_ctl_progress_decode(good, sizeof(good), &back, &err), 0);

    /* superblock: the block must be 4 KiB-aligned and before the job */
    make_job(&job);
    img = make_image(&job);
    put64(img + 64, 4096 + 512);
    reseal_sb(img);
    expect_job_error(img, "progress block out of bounds");
    put64(img + 64, VDC_CTL_JOB_OFF);
    reseal_sb(img);
    expect_job_error(img, "progress block out of bounds");
    put64(img + 64, 4096);
    put64(img + 72, 8192);
    reseal_sb(img);
    expect_job_error(img, "progress block out of bounds");
    /* none announced (an older host): nothing to read, the job still reads */
    put64(img + 64, 0);
    put64(img + 72, 0);
    reseal_sb(img);
    assert_int_equal(vdc_ctl_image_read_progress(img, img_size, job.nonce, &back, &err), 1);
    vdc_ctl_job_dispose(&job);
    free(img);
}

/* The unit serial number VPD page as a SCSI disk returns it (QEMU's
 * scsi-hd with serial=): header, then the serial, padding dropped; other
 * pages, short buffers and a serial too long for the caller refused */
static void
test_vpd_pg80(void **state)
{
    static const unsigned char page[] = { 0x00, 0x80, 0x00, 0x0f, ' ', 'v', 'm', 'd', 'i', 's', 'k',
                                          'c', 'm', 'p', '-', 'v', 'd', 'b', ' ' };
    static const unsigned char other[] = { 0x00, 0x83, 0x00, 0x01, 'x' };
    char out[64], small[8];

    assert_int_equal(vdc_vpd_pg80_serial(page, sizeof(page), out, sizeof(out)), 0);
    assert_string_equal(out, "vmdiskcmp-vdb");
    assert_int_equal(vdc_vpd_pg80_serial(other, sizeof(other), out, sizeof(out)), -1);
    assert_int_equal(vdc_vpd_pg80_serial(page, 10, out, sizeof(out)), -1);     /* length past the end */
    assert_int_equal(vdc_vpd_pg80_serial(page, 3, out, sizeof(out)), -1);
    assert_int_equal(vdc_vpd_pg80_serial(page, sizeof(page), small, sizeof(small)), -1);
}

static void
put_file(const char *dir, const char *name, const void *data, size_t len)
{
    char path[512];
    FILE *f;

    snprintf(path, sizeof(path), "%s/%s", dir, name);
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

/* A guest with a virtio-scsi target: root vda and the control disk vdb
 * (virtio-blk, no serial), the target sda (SCSI, its serial in vpd_pg80)
 * and a virtio-blk target named vdc by the guest but vdd by the host: each
 * is found by its serial, never by the host's name */
static void
test_disk_by_serial(void **state)
{
    static const unsigned char page[] = { 0x00, 0x80, 0x00, 0x0d, 'v', 'm', 'd', 'i', 's', 'k',
                                          'c', 'm', 'p', '-', 'v', 'd', 'b' };
    char root[] = "/tmp/vdc-test-diskid-XXXXXX", dir[512], name[64], serial[64];
    const char *dirs[] = { "vda", "vdb", "vdc", "sda", "sda/device" };
    size_t i;

    assert_non_null(mkdtemp(root));
    for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        snprintf(dir, sizeof(dir), "%s/%s", root, dirs[i]);
        assert_int_equal(mkdir(dir, 0755), 0);
    }
    snprintf(dir, sizeof(dir), "%s/vdb", root);
    put_file(dir, "serial", "", 0);
    snprintf(dir, sizeof(dir), "%s/vdc", root);
    put_file(dir, "serial", "vmdiskcmp-vdd\n", 14);
    snprintf(dir, sizeof(dir), "%s/sda/device", root);
    put_file(dir, "vpd_pg80", page, sizeof(page));

    assert_int_equal(vdc_disk_by_serial(root, "vmdiskcmp-vdb", name, sizeof(name)), 1);
    assert_string_equal(name, "sda");
    assert_int_equal(vdc_disk_by_serial(root, "vmdiskcmp-vdd", name, sizeof(name)), 1);
    assert_string_equal(name, "vdc");
    assert_int_equal(vdc_disk_by_serial(root, "vmdiskcmp-vdc", name, sizeof(name)), 0);
    assert_int_equal(vdc_disk_serial(root, "vda", serial, sizeof(serial)), -1);
    assert_int_equal(vdc_disk_serial(root, "vdb", serial, sizeof(serial)), -1);
    assert_int_equal(vdc_disk_by_serial("/nonexistent-sys-block", "vmdiskcmp-vdb", name, sizeof(name)), 0);

    snprintf(dir, sizeof(dir), "rm -rf '%s'", root);
    assert_int_equal(system(dir), 0);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc32c_vectors),
        cmocka_unit_test(test_job_round_trip),
        cmocka_unit_test(test_result_round_trip),
        cmocka_unit_test(test_disk_file_round_trip),
        cmocka_unit_test(test_bad_magic),
        cmocka_unit_test(test_bad_version),
        cmocka_unit_test(test_checksum_mismatch),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_oversize_length),
        cmocka_unit_test(test_stale_and_blank_result),
        cmocka_unit_test(test_schema),
        cmocka_unit_test(test_exact_messages),
        cmocka_unit_test(test_builder_refusals),
        cmocka_unit_test(test_result_too_big),
        cmocka_unit_test(test_slot_sizes),
        cmocka_unit_test(test_slot_full_answer),
        cmocka_unit_test(test_slot_isolation),
        cmocka_unit_test(test_slot_geometry),
        cmocka_unit_test(test_workload_round_trip),
        cmocka_unit_test(test_raw_workload_round_trip),
        cmocka_unit_test(test_fs_facts_round_trip),
        cmocka_unit_test(test_workload_builder_refusals),
        cmocka_unit_test(test_workload_corruption),
        cmocka_unit_test(test_progress_round_trip),
        cmocka_unit_test(test_progress_file),
        cmocka_unit_test(test_progress_corruption),
        cmocka_unit_test(test_vpd_pg80),
        cmocka_unit_test(test_disk_by_serial),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
