/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The start gate of many guests at once: the codec's parts (the job's gate
 * timeout, the gate record, the progress block's ready, go and start
 * times; guest-agent/ctldisk_gate.c, ctldisk_disk.c) and the host's gate
 * over real control disk files (src/guest/startgate.c): released only when
 * every guest is ready, the guests not ready named, a gone guest named, an
 * interruption, the start mapped onto the controller's clock, the skew. */
#include "config.h"

#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "common/util.h"
#include "guest-agent/ctldisk.h"
#include "guest/control.h"
#include "guest/startgate.h"
#include "test_stderr.h"

static void
make_job(struct vdc_ctl_job *job, uint64_t nonce, uint32_t gate_s)
{
    struct vdc_ctl_error err;

    vdc_ctl_job_init(job);
    job->nonce = nonce;
    job->gate_timeout_s = gate_s;
    assert_int_equal(vdc_ctl_job_add_target(job, "image", "vdb", "ext4", NULL, NULL, &err), 0);
}

/* ---- codec ---------------------------------------------------------------- */
static void
test_job_gate_timeout(void **state)
{
    struct vdc_ctl_job job, back;
    struct vdc_ctl_error err = { { 0 } };
    uint8_t *with = NULL, *without = NULL;
    size_t with_len, without_len;

    (void)state;
    make_job(&job, 7, 0);
    assert_int_equal(vdc_ctl_job_encode(&job, &without, &without_len, &err), 0);
    job.gate_timeout_s = 300;
    assert_int_equal(vdc_ctl_job_encode(&job, &with, &with_len, &err), 0);
    /* the tag only with a gate: a job without one encodes as before */
    assert_int_equal(with_len, without_len + 12);
    vdc_ctl_job_init(&back);
    assert_int_equal(vdc_ctl_job_decode(with, with_len, &back, &err), 0);
    assert_int_equal(back.gate_timeout_s, 300);
    vdc_ctl_job_dispose(&back);
    assert_int_equal(vdc_ctl_job_decode(without, without_len, &back, &err), 0);
    assert_int_equal(back.gate_timeout_s, 0);
    vdc_ctl_job_dispose(&back);
    free(with);
    with = NULL;
    job.gate_timeout_s = VDC_CTL_GATE_MAX_S + 1;
    assert_int_equal(vdc_ctl_job_encode(&job, &with, &with_len, &err), -1);
    assert_string_equal(err.msg, "job: start gate timeout 86401 s: expected at most 86400 s");
    free(with);
    free(without);
    vdc_ctl_job_dispose(&job);
}

static void
test_gate_record(void **state)
{
    struct vdc_ctl_gate g = { .nonce = 0x1122334455667788ULL, .host_ns = 42 }, back;
    struct vdc_ctl_error err = { { 0 } };
    uint8_t rec[VDC_CTL_GATE_SIZE];

    (void)state;
    memset(rec, 0, sizeof(rec));
    assert_int_equal(vdc_ctl_gate_decode(rec, sizeof(rec), g.nonce, &back, &err), 1);
    vdc_ctl_gate_encode(&g, rec);
    memset(&back, 0, sizeof(back));
    assert_int_equal(vdc_ctl_gate_decode(rec, sizeof(rec), g.nonce, &back, &err), 0);
    assert_int_equal(back.host_ns, 42);
    assert_int_equal(vdc_ctl_gate_decode(rec, sizeof(rec), 9, &back, &err), -1);
    assert_string_equal(err.msg, "gate record: nonce 1122334455667788, expected 0000000000000009");
    assert_int_equal(vdc_ctl_gate_decode(rec, 100, g.nonce, &back, &err), -1);
    assert_string_equal(err.msg, "gate record: truncated: 100 bytes, expected 512");
    rec[30] ^= 1;
    assert_int_equal(vdc_ctl_gate_decode(rec, sizeof(rec), g.nonce, &back, &err), -1);
    assert_string_equal(err.msg, "gate record: checksum mismatch");
    rec[30] ^= 1;
    rec[0] = 'X';
    assert_int_equal(vdc_ctl_gate_decode(rec, sizeof(rec), g.nonce, &back, &err), -1);
    assert_string_equal(err.msg, "gate record: bad magic (expected VDCCTLGO)");
    vdc_ctl_gate_encode(&g, rec);
    rec[8] = 2;     /* version 2, CRC made right */
    rec[508] = rec[509] = rec[510] = rec[511] = 0;
    {
        uint32_t c = vdc_ctl_crc32c(rec, 508);

        rec[508] = c & 0xFF;
        rec[509] = (c >> 8) & 0xFF;
        rec[510] = (c >> 16) & 0xFF;
        rec[511] = c >> 24;
    }
    assert_int_equal(vdc_ctl_gate_decode(rec, sizeof(rec), g.nonce, &back, &err), -1);
    assert_string_equal(err.msg, "gate record: version 2, expected 1");
}

static void
test_progress_gate_times(void **state)
{
    struct vdc_ctl_progress p, back;
    struct vdc_ctl_error err = { { 0 } };
    uint8_t blk[VDC_CTL_PROGRESS_SIZE];

    (void)state;
    vdc_ctl_progress_init(&p, 5);
    vdc_ctl_progress_add(&p, 100, 0, VDC_CTL_EV_TARGET_BEGIN, 0);
    p.ready_ns = 1000;
    p.go_ns = 2500;
    p.started_ns = 2600;
    vdc_ctl_progress_encode(&p, blk);
    assert_int_equal(vdc_ctl_progress_decode(blk, sizeof(blk), &back, &err), 0);
    assert_int_equal(back.ready_ns, 1000);
    assert_int_equal(back.go_ns, 2500);
    assert_int_equal(back.started_ns, 2600);
    assert_int_equal(back.n_events, 1);
    /* where doc/control-disk.md puts them */
    assert_int_equal(blk[1328], 1000 & 0xFF);
    assert_int_equal(blk[1329], 1000 >> 8);
    assert_int_equal(blk[1336], 2500 & 0xFF);
    assert_int_equal(blk[1344], 2600 & 0xFF);
}

/* ---- host gate over files ----------------------------------------------- */
struct fixture {
    char *dir;
    char *path[3];
    char name[3][32];
    uint64_t nonce[3];
    vdc_gate_guest g[3];
};

static int
setup(void **state)
{
    struct fixture *f = calloc(1, sizeof(*f));
    size_t i;

    f->dir = g_dir_make_tmp("test_startgate.XXXXXX", NULL);
    assert_non_null(f->dir);
    for (i = 0; i < 3; i++) {
        struct vdc_ctl_job job;

        f->nonce[i] = 0xabc0 + i;
        make_job(&job, f->nonce[i], 60);
        f->path[i] = g_strdup_printf("%s/ctl-g%zu.img", f->dir, i);
        assert_int_equal(vdc_control_disk_create(f->path[i], 0, &job), 0);
        vdc_ctl_job_dispose(&job);
        snprintf(f->name[i], sizeof(f->name[i]), "vmdiskcmp-t-g%zu", i);
        f->g[i] = (vdc_gate_guest){ .ctl_path = f->path[i], .nonce = f->nonce[i],
                                    .name = f->name[i] };
    }
    *state = f;
    return 0;
}

static int
teardown(void **state)
{
    struct fixture *f = *state;
    size_t i;

    for (i = 0; i < 3; i++) {
        unlink(f->path[i]);
        g_free(f->path[i]);
    }
    rmdir(f->dir);
    g_free(f->dir);
    free(f);
    return 0;
}

/* what the runner writes: its progress block with the gate times */
static void
runner_says(const struct fixture *f, size_t i, uint64_t ready, uint64_t go, uint64_t started)
{
    struct vdc_ctl_progress p;
    struct vdc_ctl_error err = { { 0 } };
    uint64_t off;
    int fd = open(f->path[i], O_RDWR);

    assert_true(fd >= 0);
    assert_int_equal(vdc_ctl_disk_progress_area(fd, &off, &err), 0);
    vdc_ctl_progress_init(&p, f->nonce[i]);
    p.ready_ns = ready;
    p.go_ns = go;
    p.started_ns = started;
    assert_int_equal(vdc_ctl_disk_write_progress(fd, off, &p, &err), 0);
    close(fd);
}

/* the gate record the runner would read: 0 go, 1 none */
static int
gate_of(const struct fixture *f, size_t i)
{
    struct vdc_ctl_gate g;
    struct vdc_ctl_error err = { { 0 } };
    int fd = open(f->path[i], O_RDONLY), r;

    assert_true(fd >= 0);
    r = vdc_ctl_disk_read_gate(fd, f->nonce[i], &g, &err);
    close(fd);
    assert_true(r >= 0);
    return r;
}

static void
test_release_all(void **state)
{
    struct fixture *f = *state;
    struct vdc_ctl_job job;
    struct vdc_ctl_error err = { { 0 } };
    int fd;
    size_t i;

    for (i = 0; i < 3; i++) {
        runner_says(f, i, 1000 + i, 0, 0);
        assert_int_equal(gate_of(f, i), 1);
    }
    assert_int_equal(vdc_start_gate(f->g, 3, 5, NULL, NULL, NULL, NULL), 0);
    for (i = 0; i < 3; i++) {
        assert_int_equal(gate_of(f, i), 0);
        assert_false(isnan(f->g[i].ready_s));
        assert_true(f->g[i].released_s >= f->g[i].ready_s);
        if (i)
            assert_true(f->g[i].released_s >= f->g[i - 1].released_s);
    }
    /* the superblock and job are untouched by the gate's write */
    fd = open(f->path[0], O_RDONLY);
    vdc_ctl_job_init(&job);
    assert_int_equal(vdc_ctl_disk_read_job(fd, &job, &err), 0);
    assert_int_equal(job.gate_timeout_s, 60);
    vdc_ctl_job_dispose(&job);
    close(fd);
    /* each guest's start mapped through its own go: 2 ms, 5 ms, 1 ms after */
    runner_says(f, 0, 1000, 50000000, 52000000);
    runner_says(f, 1, 1001, 90000000, 95000000);
    runner_says(f, 2, 1002, 10000000, 11000000);
    for (i = 0; i < 3; i++)
        assert_int_equal(vdc_start_gate_started(&f->g[i]), 0);
    assert_true(fabs(f->g[0].started_s - (f->g[0].released_s + 0.002)) < 1e-9);
    assert_true(fabs(f->g[1].started_s - (f->g[1].released_s + 0.005)) < 1e-9);
    assert_true(fabs(f->g[2].started_s - (f->g[2].released_s + 0.001)) < 1e-9);
    assert_true(fabs(vdc_start_gate_skew(f->g, 3) -
                     (fmax(fmax(f->g[0].started_s, f->g[1].started_s), f->g[2].started_s) -
                      fmin(fmin(f->g[0].started_s, f->g[1].started_s), f->g[2].started_s))) < 1e-12);
}

static void
test_not_ready_named(void **state)
{
    struct fixture *f = *state;
    char *msg, *why = NULL;
    size_t i;

    runner_says(f, 0, 1000, 0, 0);
    runner_says(f, 2, 1000, 0, 0);
    capture_stderr_begin();
    assert_int_equal(vdc_start_gate(f->g, 3, 0, NULL, NULL, NULL, &why), -1);
    msg = capture_stderr_end();
    assert_non_null(strstr(msg, "start gate: not ready within 0 s: guest 1 (vmdiskcmp-t-g1)\n"));
    assert_string_equal(why, "start gate: not ready within 0 s: guest 1 (vmdiskcmp-t-g1)");
    free(msg);
    g_free(why);
    for (i = 0; i < 3; i++)
        assert_int_equal(gate_of(f, i), 1);     /* none released */
    capture_stderr_begin();
    assert_int_equal(vdc_start_gate_started(&f->g[0]), -1);
    msg = capture_stderr_end();
    assert_non_null(strstr(msg, "start gate: vmdiskcmp-t-g0 was not released: no start time"));
    free(msg);
    assert_true(isnan(vdc_start_gate_skew(f->g, 3)));
    vdc_error_reset();
}

static int
gone_1(void *arg, size_t i)
{
    (void)arg;
    return i != 1;
}

static void
test_gone_and_stop(void **state)
{
    struct fixture *f = *state;
    volatile sig_atomic_t stop = 1;
    char *msg;

    runner_says(f, 0, 1000, 0, 0);
    capture_stderr_begin();
    assert_int_equal(vdc_start_gate(f->g, 3, 60, gone_1, NULL, NULL, NULL), -1);
    msg = capture_stderr_end();
    assert_non_null(strstr(msg, "start gate: guest 1 (vmdiskcmp-t-g1) is gone before it was ready"));
    free(msg);
    /* an interruption: no message, nothing released */
    capture_stderr_begin();
    assert_int_equal(vdc_start_gate(f->g, 3, 60, NULL, NULL, &stop, NULL), -1);
    msg = capture_stderr_end();
    assert_string_equal(msg, "");
    free(msg);
    assert_int_equal(gate_of(f, 0), 1);
    vdc_error_reset();
}

static void
test_start_not_reported(void **state)
{
    struct fixture *f = *state;
    char *msg;
    size_t i;

    for (i = 0; i < 3; i++)
        runner_says(f, i, 1000, 0, 0);
    assert_int_equal(vdc_start_gate(f->g, 3, 5, NULL, NULL, NULL, NULL), 0);
    runner_says(f, 0, 1000, 2000, 0);     /* go seen, no agent started */
    capture_stderr_begin();
    assert_int_equal(vdc_start_gate_started(&f->g[0]), -1);
    msg = capture_stderr_end();
    assert_non_null(strstr(msg, "the runner started no agent after the go"));
    free(msg);
    /* guest 1 never saw it */
    capture_stderr_begin();
    assert_int_equal(vdc_start_gate_started(&f->g[1]), -1);
    msg = capture_stderr_end();
    assert_non_null(strstr(msg, "the runner did not see the go"));
    free(msg);
    vdc_error_reset();
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_job_gate_timeout),
        cmocka_unit_test(test_gate_record),
        cmocka_unit_test(test_progress_gate_times),
        cmocka_unit_test_setup_teardown(test_release_all, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_ready_named, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gone_and_stop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_start_not_reported, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
