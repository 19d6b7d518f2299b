/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of a job clone's op sequence (guest-agent/jobgen.c) against
 * fio 3.33 itself: each tests/golden/agent/fio-seq/NAME.fio was run by
 * fio with --write_iolog (make-seq.sh there, ioengine=null), and NAME.seq
 * holds, clone by clone, the directions and offsets fio issued; the
 * agent's generator must yield exactly those (seeds per clone, randseed
 * with and without randrepeat, offset_increment, the random map and its
 * passes, norandommap, the rwmix direction runs, sequential wrap, the
 * position carried on at the ramp's end where fio logged it).  Then
 * invariants fio's own tests check: a size-based job issues size/bs I/Os
 * per clone and (with the map) every block once; clone k starts at offset
 * + k x offset_increment; the digest follows the seeds.  No timings. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "jobgen.h"

static const char *const golden_jobs[] = {
    "randrw-nj3", "randwrite-nj2-seed", "randread-nj4-norepeat",
    "randrw-norandommap", "read-nj4", "write-offset", "tb-randrw", "tb-read",
    "tb-read-ramp-nj2",
};

static void
load(const char *text, struct agent_job *job)
{
    char err[512];

    if (agent_jobfile_parse(text, "t.fio", job, err, sizeof(err)) < 0) {
        fprintf(stderr, "%s\n", err);
        fail();
    }
    job->size -= job->size % job->bs;       /* as agent_jobs_check does */
}

/* The agent's sequence of every clone of NAME.fio equals fio's NAME.seq;
 * a line "K ramp" (make-seq.sh: after the I/O whose completion ended
 * fio's ramp) ends the clone's ramp there (agent_jobgen_ramp_end, as
 * jobclone.c's may_issue does).  A golden with ramps must have one per
 * clone and one at least mid-pass, or it could not tell a position
 * carried on from one put back at the region's start. */
static void
check_golden(const char *dir, const char *name)
{
    char path[512], line[128], err[512];
    struct agent_job job;
    struct agent_jobgen g;
    unsigned cur = ~0u, k, lineno = 0, n = 0, ramps = 0, ramps_mid = 0;
    int after_ramp = 0;
    FILE *fp;

    snprintf(path, sizeof(path), "%s/%s.fio", dir, name);
    if (agent_jobfile_load(path, &job, err, sizeof(err)) < 0) {
        fprintf(stderr, "%s\n", err);
        fail();
    }
    job.size -= job.size % job.bs;
    snprintf(path, sizeof(path), "%s/%s.seq", dir, name);
    fp = fopen(path, "r");
    assert_non_null(fp);
    while (fgets(line, sizeof(line), fp)) {
        char dname[8];
        unsigned long long off, got_off;
        int d;

        lineno++;
        if (sscanf(line, "%u %7s", &k, dname) == 2 && !strcmp(dname, "ramp")) {
            assert_int_equal(k, cur);
            agent_jobgen_ramp_end(&g);
            ramps++;
            after_ramp = 1;
            continue;
        }
        assert_int_equal(sscanf(line, "%u %7s %llu", &k, dname, &off), 3);
        if (k != cur) {
            if (cur != ~0u)
                agent_jobgen_free(&g);
            assert_true(k < job.numjobs);
            assert_int_equal(agent_jobgen_init(&g, &job, k, 12345), 0);
            cur = k;
        }
        assert_int_equal(agent_jobgen_next(&g, &d, (uint64_t *)&got_off), 0);
        if (d != !strcmp(dname, "write") || got_off != off) {
            fprintf(stderr, "%s line %u (clone %u): fio %s %llu, agent %s %llu\n",
                    path, lineno, k, dname, off, d ? "write" : "read", got_off);
            fail();
        }
        if (after_ramp && off != job.offset + (uint64_t)k * job.offset_increment)
            ramps_mid++;
        after_ramp = 0;
        n++;
    }
    fclose(fp);
    agent_jobgen_free(&g);
    if (job.ramp_ms) {
        assert_int_equal(ramps, job.numjobs);
        assert_true(ramps_mid > 0);
    }
    /* every clone present, and the size-based ones complete */
    assert_int_equal(cur, job.numjobs - 1);
    if (!job.time_based)
        assert_int_equal(n, job.numjobs * (job.size / job.bs));
}

static void
test_fio_sequences(void **state)
{
    const char *top = getenv("top_srcdir");
    char dir[400];

    snprintf(dir, sizeof(dir), "%s/tests/golden/agent/fio-seq", top ? top : ".");
    for (size_t i = 0; i < sizeof(golden_jobs) / sizeof(golden_jobs[0]); i++)
        check_golden(dir, golden_jobs[i]);
}

/* fio's thread_number of subjob k: the job itself 1, its clones created
 * last first (init.c add_job) */
static void
test_thread_numbers(void **state)
{
    assert_int_equal(agent_jobgen_thread_number(0, 4), 1);
    assert_int_equal(agent_jobgen_thread_number(3, 4), 2);
    assert_int_equal(agent_jobgen_thread_number(2, 4), 3);
    assert_int_equal(agent_jobgen_thread_number(1, 4), 4);
    assert_int_equal(agent_jobgen_thread_number(0, 1), 1);
}

/* A size-based random job with the map: size/bs I/Os per clone, each
 * block of the clone's region once, then the region is done; sequential:
 * contiguous from offset + k x offset_increment. */
static void
test_region_invariants(void **state)
{
    struct agent_job job;
    struct agent_jobgen g;
    int d;
    uint64_t off;

    load("[r]\nrw=randrw\nbs=4k\nsize=1m\nnumjobs=3\noffset=8k\n"
         "offset_increment=2m\n", &job);
    for (unsigned k = 0; k < 3; k++) {
        unsigned char seen[256] = { 0 };
        uint64_t start = 8192 + k * (2u << 20), n = 0, ios[2] = { 0, 0 };

        assert_int_equal(agent_jobgen_init(&g, &job, k, 1), 0);
        while (agent_jobgen_next(&g, &d, &off) == 0) {
            assert_true(off >= start && off < start + (1u << 20));
            assert_int_equal((off - start) % 4096, 0);
            assert_int_equal(seen[(off - start) / 4096]++, 0);
            ios[d]++;
            n++;
        }
        assert_int_equal(n, 256);
        assert_true(ios[0] > 0 && ios[1] > 0);     /* 50/50 by default */
        agent_jobgen_free(&g);
    }
    load("[s]\nrw=write\nbs=64k\nsize=256k\nnumjobs=2\noffset_increment=1m\n", &job);
    for (unsigned k = 0; k < 2; k++) {
        assert_int_equal(agent_jobgen_init(&g, &job, k, 1), 0);
        for (uint64_t i = 0; i < 4; i++) {
            assert_int_equal(agent_jobgen_next(&g, &d, &off), 0);
            assert_int_equal(d, 1);
            assert_true(off == k * (1u << 20) + i * 65536);
        }
        assert_int_equal(agent_jobgen_next(&g, &d, &off), -1);
        agent_jobgen_free(&g);
    }
}

/* Time-based with the map: each pass of nblocks I/Os covers every block
 * once, passes follow without end; the ramp's end keeps the offsets. */
static void
test_time_based_passes(void **state)
{
    struct agent_job job;
    struct agent_jobgen g;
    int d;
    uint64_t off;

    load("[t]\nrw=randread\nbs=4k\nsize=200k\ntime_based\nruntime=1\n", &job);
    assert_int_equal(agent_jobgen_init(&g, &job, 0, 1), 0);
    for (int pass = 0; pass < 3; pass++) {
        unsigned char seen[50] = { 0 };

        for (int i = 0; i < 50; i++) {
            assert_int_equal(agent_jobgen_next(&g, &d, &off), 0);
            assert_int_equal(seen[off / 4096]++, 0);
        }
        if (pass == 1)
            agent_jobgen_ramp_end(&g);
    }
    agent_jobgen_free(&g);
}

/* fio 3.33's seeds: randseed moves the clones' offsets but, while
 * randrepeat holds for it, not the first clone's; with randrepeat=0 and
 * no randseed the run's seed stands for fio's system seeds. */
static void
test_digest_seeds(void **state)
{
    struct agent_job job;
    uint64_t a, b;

    load("[d]\nrw=randread\nbs=4k\nsize=1m\n", &job);
    assert_int_equal(agent_job_digest(&job, 1, &a), 0);
    assert_int_equal(agent_job_digest(&job, 2, &b), 0);
    assert_true(a == b);                /* fio's default randseed, 0x89 */
    load("[d]\nrw=randread\nbs=4k\nsize=1m\nrandrepeat=0\n", &job);
    assert_int_equal(agent_job_digest(&job, 1, &a), 0);
    assert_int_equal(agent_job_digest(&job, 2, &b), 0);
    assert_true(a != b);
    load("[d]\nrw=randread\nbs=4k\nsize=1m\nnorandommap\n", &job);
    assert_int_equal(agent_job_digest(&job, 1, &b), 0);
    load("[d]\nrw=randread\nbs=4k\nsize=1m\n", &job);
    assert_int_equal(agent_job_digest(&job, 1, &a), 0);
    assert_true(a != b);                /* the map changes the offsets */
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fio_sequences),
        cmocka_unit_test(test_thread_numbers),
        cmocka_unit_test(test_region_invariants),
        cmocka_unit_test(test_time_based_passes),
        cmocka_unit_test(test_digest_seeds),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
