/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the job engine (guest-agent/jobrun.c, jobclone.c,
 * jobcheck.c, engine_uring.c, engine_psync.c, engine_null.c) on a tmpfs
 * file: the io_uring ring set up, used and torn down (no file descriptor
 * or mapping left), clones as processes (fio's default) and as threads
 * (thread=1); the psync fallback forced and the kernel refusing io_uring
 * (a seccomp filter makes io_uring_setup fail with EPERM in a child: the
 * job runs psync and records why); the null engine (no file, fio's busy
 * rule); per-clone files with offset_increment and a shared filename=;
 * the target checks (bs not a multiple of the logical block size with
 * direct=1, size past the device, no size on a directory, filename= on a
 * device, offset_increment without size=).  Invariants, never timings:
 * I/O counts, bytes, histogram counts, file sizes. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include <sys/stat.h>

#include "job.h"
#include "randmap.h"

static char dir[256];

static int
setup_dir(void **state)
{
    snprintf(dir, sizeof(dir), "/dev/shm/vdc-test-job.XXXXXX");
    if (!mkdtemp(dir)) {
        snprintf(dir, sizeof(dir), "/tmp/vdc-test-job.XXXXXX");
        if (!mkdtemp(dir))
            return -1;
    }
    return 0;
}

static int
teardown_dir(void **state)
{
    return rmdir(dir);
}

static int
count_entries(const char *path)
{
    DIR *d = opendir(path);
    struct dirent *e;
    int n = 0;

    if (!d)
        return -1;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

static int
count_fds(void)
{
    return count_entries("/proc/self/fd");
}

/* mappings of io_uring rings ("anon_inode:[io_uring]" in /proc/self/maps) */
static int
count_ring_maps(void)
{
    FILE *fp = fopen("/proc/self/maps", "r");
    char line[512];
    int n = 0;

    if (!fp)
        return -1;
    while (fgets(line, sizeof(line), fp))
        if (strstr(line, "io_uring"))
            n++;
    fclose(fp);
    return n;
}

static void
parse(const char *text, struct agent_job *job)
{
    char err[512];

    if (agent_jobfile_parse(text, "t.fio", job, err, sizeof(err)) < 0) {
        fprintf(stderr, "%s\n", err);
        fail();
    }
}

/* Run @text on the test directory; returns the result (caller frees). */
static struct agent_job_result *
run_job(const char *text)
{
    struct agent_job job;
    struct agent_job_target t = { .path = dir, .ram_mib = 1 };
    struct agent_job_result *r;
    char err[512];

    parse(text, &job);
    if (agent_jobs_check(&job, 1, &t, err, sizeof(err)) < 0) {
        fprintf(stderr, "%s\n", err);
        fail();
    }
    r = agent_job_result_new(&job);
    assert_non_null(r);
    agent_job_run(&job, &t, 7, 1, r);
    return r;
}

/* a size-based job: exactly size/bs counted I/Os, split by direction */
static void
check_counts(const struct agent_job_result *r, uint64_t nios, uint32_t bs)
{
    uint64_t n = r->d[0].ios + r->d[1].ios;

    assert_int_equal(r->state, AGENT_DONE);
    assert_true(n == nios);
    for (int d = 0; d < 2; d++) {
        assert_true(r->d[d].bytes == r->d[d].ios * bs);
        assert_true(r->d[d].clat.n == r->d[d].ios);
    }
    assert_true(r->elapsed_s > 0);
    assert_int_equal(count_entries(dir), 0);    /* job files removed */
}

static void
uring_tmpfs(const char *text)
{
    int fds = count_fds(), maps = count_ring_maps();
    struct agent_job_result *r = run_job(text);

    if (r->fallback[0]) {
        /* a kernel without io_uring: the fallback is tested below */
        fprintf(stderr, "io_uring refused here: %s\n", r->fallback);
        agent_job_result_free(r);
        skip();
    }
    check_counts(r, 2 * 512, 4096);
    assert_int_equal(r->engine, AGENT_ENGINE_IO_URING);
    assert_int_equal(r->iodepth_effective, 8);
    assert_true(r->d[0].ios > 0 && r->d[1].ios > 0);
    assert_true(r->d[0].slat.n == r->d[0].ios);   /* async: slat recorded */
    assert_int_equal(count_fds(), fds);            /* ring and files closed */
    assert_int_equal(count_ring_maps(), maps);     /* rings unmapped */
    /* fio's default batching: one I/O per submission, one per wait but
     * each clone's last, which drains up to iodepth - 1 at once */
    assert_true(r->submitted == 2 * 512 && r->submit_calls == r->submitted);
    assert_true(r->reaped == r->submitted && r->reap_calls <= r->reaped);
    assert_true(r->reaped - r->reap_calls <= 2 * (8 - 1));
    /* each clone's iodepth x bs buffers, in one 2 MiB mapping read back
     * from /proc/self/smaps: in huge pages or not, as the kernel had them */
    assert_int_equal(r->buffer_bytes, 2 * 8 * 4096);
    assert_true(r->buffer_huge_kib >= 0 && r->buffer_huge_kib <= 2 * 2048);
    assert_int_equal(r->buffer_huge_kib % 2048, 0);
    /* the same seed gives the same op sequence */
    struct agent_job_result *r2 = run_job(text);
    assert_true(r2->digest == r->digest);
    agent_job_result_free(r2);
    agent_job_result_free(r);
}

/* clones as processes (fio's default: their rings and buffers live and
 * die in the children) and as threads of the agent (thread=1) */
static void
test_uring_tmpfs(void **state)
{
    uring_tmpfs("[uring]\nrw=randrw\nrwmixread=70\nbs=4k\niodepth=8\nnumjobs=2\n"
                "size=2m\n");
    uring_tmpfs("[uring]\nrw=randrw\nrwmixread=70\nbs=4k\niodepth=8\nnumjobs=2\n"
                "size=2m\nthread\n");
}

/* iodepth_batch_submit=0 (iodepth) and complete_max=iodepth: the ring is
 * filled and submitted in one call, waits reap what has completed */
static void
test_uring_batched(void **state)
{
    struct agent_job_result *r = run_job(
        "[batch]\nrw=randread\nbs=4k\niodepth=16\niodepth_batch_submit=0\n"
        "iodepth_batch_complete_max=16\nsize=4m\n");

    if (r->fallback[0]) {
        agent_job_result_free(r);
        skip();
    }
    check_counts(r, 1024, 4096);
    assert_int_equal(r->job.iodepth_batch_submit, 16);
    assert_true(r->submitted == 1024 && r->reaped == 1024);
    /* the first submission takes the whole queue */
    assert_true(r->submit_calls < r->submitted);
    agent_job_result_free(r);
}

/* every 512-byte block of a write carries its offset and the start time */
static void
test_scramble(void **state)
{
    static uint64_t buf[8192 / 8] __attribute__((aligned(4096)));
    struct agent_io io = { .offset = 1u << 20, .len = 8192, .ddir = AGENT_DDIR_WRITE,
                           .buf = buf, .start_ns = 5 * 1000000000ull + 123 };
    unsigned line = (unsigned)((123 ^ (1u << 20)) & 7);

    memset(buf, 0xa5, sizeof(buf));
    agent_job_scramble(&io);
    for (unsigned b = 0; b < 16; b++) {
        const uint64_t *blk = buf + b * 64;

        assert_true(blk[line * 8] == (1u << 20) + 512u * b);
        assert_true(blk[6] == 5 && blk[7] == 123);
        assert_true(blk[8 * ((line + 1) % 8) + 1] == 0xa5a5a5a5a5a5a5a5ull);  /* untouched */
    }
}

static void
test_psync_forced(void **state)
{
    struct agent_job_result *r;

    agent_job_force_psync = 1;
    r = run_job("[forced]\nrw=read\nbs=64k\niodepth=16\nsize=1m\n");
    agent_job_force_psync = 0;
    check_counts(r, 16, 65536);
    assert_int_equal(r->engine, AGENT_ENGINE_PSYNC);
    assert_int_equal(r->iodepth_effective, 1);
    assert_string_equal(r->fallback,
                        "io_uring_setup: Function not implemented (forced)");
    assert_true(r->d[0].slat.n == 0);              /* sync: no slat */
    agent_job_result_free(r);

    r = run_job("[psync]\nrw=randwrite\nbs=4k\nnumjobs=3\nsize=256k\n"
                "ioengine=psync\n");
    check_counts(r, 3 * 64, 4096);
    assert_string_equal(r->fallback, "");          /* asked for, not a fallback */
    agent_job_result_free(r);
}

/* io_uring_setup refused by the kernel (EPERM through seccomp, as where
 * io_uring is disabled): the job still runs, on psync, and says why. */
static void
test_uring_refused(void **state)
{
    pid_t pid = fork();
    int status;

    assert_true(pid >= 0);
    if (pid == 0) {
        struct sock_filter f[] = {
            BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
            BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 0, 1),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
            BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        };
        struct sock_fprog prog = { .len = 4, .filter = f };
        struct agent_job_result *r;

        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0
            || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
            _exit(3);
        r = run_job("[refused]\nrw=randread\nbs=4k\niodepth=4\nsize=128k\n");
        _exit(r->state == AGENT_DONE && r->engine == AGENT_ENGINE_PSYNC
              && r->iodepth_effective == 1 && r->d[0].ios == 32
              && !strcmp(r->fallback, "io_uring_setup(4): Operation not "
                         "permitted") ? 0 : 1);
    }
    assert_true(waitpid(pid, &status, 0) == pid);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
        fprintf(stderr, "seccomp unavailable here\n");
        skip();
    }
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
}

static void
check_refused(const char *text, struct agent_job_target *t, const char *want)
{
    struct agent_job job;
    char err[512] = "";

    parse(text, &job);
    assert_int_equal(agent_jobs_check(&job, 1, t, err, sizeof(err)), -1);
    if (strcmp(err, want)) {
        fprintf(stderr, "got  '%s'\nwant '%s'\n", err, want);
        fail();
    }
}

static void
test_target_checks(void **state)
{
    struct agent_job_target dev = { .path = "/nonexistent-dev",
                                    .is_blockdev = 1, .dev_size = 1 << 20 };
    struct agent_job_target file = { .path = "/nonexistent-dir",
                                     .ram_mib = 1024 };
    struct agent_job job;
    char err[512];

    check_refused("[a]\nbs=1000\n", &dev, "t.fio: [a]: bs=1000: expected a "
                  "multiple of the logical block size of /nonexistent-dev "
                  "(512 bytes) with direct=1");
    check_refused("[a]\nsize=2m\n", &dev, "t.fio: [a]: offset=0 + size=2097152 "
                  "is past the end of /nonexistent-dev (1048576 bytes): "
                  "expected at most its size");
    check_refused("[a]\noffset=1m\n", &dev, "t.fio: [a]: offset=1048576: "
                  "expected less than the size of /nonexistent-dev (1048576 "
                  "bytes)");
    check_refused("[a]\niodepth=1024\nbs=2m\n", &dev, "t.fio: [a]: bs x "
                  "iodepth x numjobs = 2048 MiB of buffers (each clone's "
                  "rounded up to 2 MiB): expected at most "
                  "1024 MiB");
    check_refused("[a]\n", &file, "t.fio: [a]: no size=: expected the size of "
                  "the job's file on /nonexistent-dir");
    check_refused("[a]\nsize=512k\nfilename=x\n", &dev, "t.fio: [a]: "
                  "filename=x on the block device /nonexistent-dev: expected no "
                  "filename= (the device is the clones' file; filename= names a "
                  "file they share in a directory target)");
    check_refused("[a]\nnumjobs=2\noffset_increment=4k\n", &dev, "t.fio: [a]: "
                  "offset_increment without size= on the device /nonexistent-dev: "
                  "expected size= (each clone's region)");
    check_refused("[a]\nnumjobs=3\nsize=768k\noffset_increment=256k\n", &dev,
                  "t.fio: [a]: offset=0 + (numjobs - 1) x offset_increment=262144 "
                  "+ size=786432 = 1310720 is past the end of /nonexistent-dev "
                  "(1048576 bytes): expected at most its size");
    check_refused("[a]\nsize=1m\ndirect=0\n", &file, "t.fio: [a]: direct=0 "
                  "with size=1 MiB x numjobs=1 under twice the RAM (1024 MiB): "
                  "the page cache would be measured; expected direct=1, a "
                  "larger size, or -f");
    /* the default size is the device less the offset, whole blocks */
    parse("[a]\noffset=4096\nbs=64k\n", &job);
    assert_int_equal(agent_jobs_check(&job, 1, &dev, err, sizeof(err)), 0);
    assert_true(job.size == (1 << 20) - 65536);
}

static void
test_randmap_next_free(void **state)
{
    (void)state;
    struct agent_randmap m;
    const uint64_t n = 200;

    assert_int_equal(agent_randmap_init(&m, n), 0);
    /* within a word, across words, past the end back to 0 */
    agent_randmap_set(&m, 10);
    assert_int_equal(agent_randmap_next_free(&m, 10), 11);
    for (uint64_t b = 60; b < 130; b++)
        agent_randmap_set(&m, b);
    assert_int_equal(agent_randmap_next_free(&m, 60), 130);
    assert_int_equal(agent_randmap_next_free(&m, 64), 130);
    agent_randmap_set(&m, 130);
    assert_int_equal(agent_randmap_next_free(&m, n - 1), 0);
    for (uint64_t b = 0; b < 60; b++)
        agent_randmap_set(&m, b);
    for (uint64_t b = 131; b < n; b++)
        agent_randmap_set(&m, b);
    /* with 130 taken above, every block is used now */
    assert_int_equal(m.used, n);
    assert_int_equal(agent_randmap_next_free(&m, 5), AGENT_RANDMAP_NONE);
    agent_randmap_reset(&m);
    assert_int_equal(m.used, 0);
    assert_false(agent_randmap_isset(&m, 130));
    /* the last block of a partial word, from a used block before it */
    agent_randmap_set(&m, n - 2);
    assert_int_equal(agent_randmap_next_free(&m, n - 2), n - 1);
    agent_randmap_free(&m);
}

/* The null engine: no file made, every I/O completed at once; at iodepth
 * 1 synchronous, deeper through fio's busy rule (one completion waiting
 * at a time: as many waits as I/Os). */
static void
test_null_engine(void **state)
{
    struct agent_job_result *r = run_job("[n]\nioengine=null\nrw=randwrite\nbs=4k\n"
                                         "size=4m\nnumjobs=2\n");

    check_counts(r, 2 * 1024, 4096);
    assert_int_equal(r->engine, AGENT_ENGINE_NULL);
    assert_true(r->d[1].slat.n == 0);              /* sync at iodepth 1 */
    agent_job_result_free(r);
    r = run_job("[n]\nioengine=null\nrw=randread\nbs=4k\niodepth=8\nsize=1m\n"
                "thread\n");
    check_counts(r, 256, 4096);
    assert_true(r->d[0].slat.n == 256);
    assert_true(r->submitted == 256 && r->reaped == 256);
    assert_true(r->reap_calls == 256);             /* busy: one at a time */
    agent_job_result_free(r);
}

/* Files in a directory: clone k's JOB.k.0 holds offset + k x
 * offset_increment + size (what fio lays out); with filename= the clones
 * share one file of the largest end.  Watched from inside the run by
 * failing it: the job's files must be gone afterwards either way. */
static void
test_job_files(void **state)
{
    struct agent_job job;
    struct agent_job_target t = { .path = dir, .ram_mib = 1 };
    char err[512];

    parse("[f]\nrw=read\nbs=64k\nsize=256k\nnumjobs=3\noffset=64k\n"
          "offset_increment=128k\n", &job);
    assert_int_equal(agent_jobs_check(&job, 1, &t, err, sizeof(err)), 0);
    assert_true(agent_job_file_bytes(&job) == 3 * (65536 + 262144) + 131072 * 3);
    assert_true(agent_job_region_end(&job) == 65536 + 2 * 131072 + 262144);
    struct agent_job_result *r = run_job("[f]\nrw=read\nbs=64k\nsize=256k\nnumjobs=3\n"
                                         "offset=64k\noffset_increment=128k\n");
    check_counts(r, 3 * 4, 65536);
    agent_job_result_free(r);
    parse("[s]\nrw=randwrite\nbs=4k\nsize=256k\nnumjobs=4\n"
          "offset_increment=256k\nfilename=shared.dat\n", &job);
    assert_true(agent_job_file_bytes(&job) == 1u << 20);   /* 3 x 256k + 256k */
    r = run_job("[s]\nrw=randwrite\nbs=4k\nsize=256k\nnumjobs=4\n"
                "offset_increment=256k\nfilename=shared.dat\n");
    check_counts(r, 4 * 64, 4096);
    agent_job_result_free(r);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_uring_tmpfs),
        cmocka_unit_test(test_uring_batched),
        cmocka_unit_test(test_scramble),
        cmocka_unit_test(test_psync_forced),
        cmocka_unit_test(test_uring_refused),
        cmocka_unit_test(test_target_checks),
        cmocka_unit_test(test_randmap_next_free),
        cmocka_unit_test(test_null_engine),
        cmocka_unit_test(test_job_files),
    };

    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
