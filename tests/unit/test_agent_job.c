/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the job engine's pure parts: the log-linear histogram
 * (guest-agent/hist.c) against exact sorted values, the fio job-file
 * parser (guest-agent/jobfile.c) against goldens (tests/golden/agent/jobs/
 * *.fio -> *.json and the shipped templates/workloads/NAME.fio;
 * VDC_REGENERATE=1 rewrites the expected files) and every bad option, and
 * fio's steady-state slope (guest-agent/jobstat.c). */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "hist.h"
#include "jobfile.h"
#include "jobstat.h"
#include "prng.h"

static int
cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

/* exact order statistic of rank ceil(p/100 n), as fio defines it */
static uint64_t
exact(const uint64_t *sorted, size_t n, double p)
{
    size_t rank = (size_t)ceil(p / 100.0 * (double)n);

    if (rank < 1)
        rank = 1;
    return sorted[rank - 1];
}

static void
check_percentiles(const uint64_t *v, size_t n)
{
    static const double ps[] = { 0.1, 1, 10, 25, 50, 75, 90, 95, 99, 99.5,
                                 99.9, 99.99, 99.999, 100 };
    struct agent_hist *h = malloc(sizeof(*h));
    uint64_t *s = malloc(n * sizeof(*s));

    assert_non_null(h);
    assert_non_null(s);
    agent_hist_init(h);
    for (size_t i = 0; i < n; i++)
        agent_hist_add(h, v[i]);
    memcpy(s, v, n * sizeof(*s));
    qsort(s, n, sizeof(*s), cmp_u64);
    assert_true(h->n == n);
    assert_true(h->min == s[0]);
    assert_true(h->max == s[n - 1]);
    for (size_t i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
        double want = (double)exact(s, n, ps[i]);
        double got = (double)agent_hist_percentile(h, ps[i]);

        if (fabs(got - want) > want * AGENT_HIST_REL_ERROR) {
            fprintf(stderr, "p%g: histogram %.0f, exact %.0f\n", ps[i], got,
                    want);
            fail();
        }
    }
    free(s);
    free(h);
}

/* Latency-like data: a log-uniform spread from 1 us to 100 ms (ns), a
 * tail, and small exact values. */
static void
test_hist_percentiles(void **state)
{
    size_t n = 200000;
    uint64_t *v = malloc(n * sizeof(*v));
    struct agent_prng r;

    agent_prng_seed(&r, 42);
    for (size_t i = 0; i < n; i++) {
        double u = (double)(agent_prng_next(&r) >> 11) / 9007199254740992.0;

        v[i] = (uint64_t)(1000.0 * pow(1e5, u));
        if (i % 997 == 0)
            v[i] *= 50;     /* a tail */
    }
    check_percentiles(v, n);
    for (size_t i = 0; i < 1000; i++)
        v[i] = i % 300;     /* values under 256 are exact */
    check_percentiles(v, 1000);
    v[0] = 7;
    check_percentiles(v, 1);
    v[0] = UINT64_MAX;
    v[1] = 1ull << 63;
    check_percentiles(v, 2);
    free(v);
}

static void
test_hist_buckets(void **state)
{
    struct agent_hist *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
    uint64_t w, prev_end = 0;

    /* buckets tile the value range without gaps or overlaps */
    for (unsigned i = 0; i < AGENT_HIST_BUCKETS; i++) {
        uint64_t lo = agent_hist_bucket_low(i, &w);

        assert_true(lo == prev_end);
        assert_int_equal(agent_hist_index(lo), i);
        assert_int_equal(agent_hist_index(lo + w - 1), i);
        assert_true(i == 0 || w <= 1 || (double)(w / 2) <= (double)lo * AGENT_HIST_REL_ERROR);
        prev_end = lo + w;
    }
    assert_true(prev_end == 0);     /* the last bucket ends at 2^64 */
    assert_int_equal(agent_hist_percentile(a, 50), 0);  /* empty */
    for (uint64_t x = 1; x <= 1000; x++)
        agent_hist_add(x % 2 ? a : b, x * 1000);
    agent_hist_merge(a, b);
    assert_true(a->n == 1000 && a->min == 1000 && a->max == 1000000);
    assert_true(fabs(agent_hist_mean(a) - 500500.0) < 1e-6);
    uint64_t p50 = agent_hist_percentile(a, 50);
    assert_true(fabs((double)p50 - 500000.0) <= 500000.0 * AGENT_HIST_REL_ERROR);
    free(a);
    free(b);
}

static char *
slurp(const char *path)
{
    FILE *fp = fopen(path, "r");
    char *buf;
    long len;

    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    len = ftell(fp);
    rewind(fp);
    buf = calloc(1, (size_t)len + 1);
    if (fread(buf, 1, (size_t)len, fp) != (size_t)len) {
        free(buf);
        buf = NULL;
    }
    fclose(fp);
    return buf;
}

static void
golden(const char *dir, const char *name, const char *expected_dir)
{
    char in[1024], exp[1024], err[512], *out = NULL, *want;
    size_t len = 0;
    struct agent_job job;
    FILE *fp;

    snprintf(in, sizeof(in), "%s/%s.fio", dir, name);
    snprintf(exp, sizeof(exp), "%s/%s.json", expected_dir, name);
    if (agent_jobfile_load(in, &job, err, sizeof(err)) < 0) {
        fprintf(stderr, "%s\n", err);
        fail();
    }
    /* the source is the path given: keep goldens independent of it */
    snprintf(job.source, sizeof(job.source), "%s.fio", name);
    fp = open_memstream(&out, &len);
    agent_job_format_json(fp, &job);
    fputc('\n', fp);
    fclose(fp);
    if (getenv("VDC_REGENERATE")) {
        fp = fopen(exp, "w");
        assert_non_null(fp);
        fputs(out, fp);
        fclose(fp);
    }
    want = slurp(exp);
    if (!want)
        fprintf(stderr, "missing %s (VDC_REGENERATE=1 writes it)\n", exp);
    assert_non_null(want);
    assert_string_equal(out, want);
    free(want);
    free(out);
}

static void
test_jobfile_goldens(void **state)
{
    static const char *const mine[] = { "all-options", "batch-fixup", "defaults", "seq-write" };
    static const char *const shipped[] = {
        "randread-4k-qd1", "randread-4k-qd32", "randwrite-4k-qd32",
        "randrw-70-30-8k-qd16", "read-1m-qd8", "write-1m-qd8",
    };
    const char *top = getenv("top_srcdir");
    char d[1024], t[1024];

    snprintf(d, sizeof(d), "%s/tests/golden/agent/jobs", top ? top : ".");
    snprintf(t, sizeof(t), "%s/templates/workloads", top ? top : ".");
    for (size_t i = 0; i < sizeof(mine) / sizeof(mine[0]); i++)
        golden(d, mine[i], d);
    for (size_t i = 0; i < sizeof(shipped) / sizeof(shipped[0]); i++)
        golden(t, shipped[i], d);
}

/* Each bad job file and the start of the one line it must give. */
static void
test_jobfile_errors(void **state)
{
    static const struct { const char *text, *want; } bad[] = {
        { "[j]\nrefill_buffers\n", "f.fio:2: refill_buffers: a fio option the agent does not run" },
        { "[j]\nbogus=1\n", "f.fio:2: bogus: unknown option" },
        { "[j]\niodepth=0\n", "f.fio:2: iodepth=0: expected a whole number from 1 to 1024" },
        { "[j]\niodepth=1025\n", "f.fio:2: iodepth=1025: expected a whole number from 1 to 1024" },
        { "[j]\niodepth_batch=1025\n", "f.fio:2: iodepth_batch=1025: expected a whole number from 0 to 1024" },
        { "[j]\niodepth_batch_complete_max=-1\n", "f.fio:2: iodepth_batch_complete_max=-1: expected a whole number from 0 to 1024" },
        { "[j]\nnumjobs=65\n", "f.fio:2: numjobs=65: expected a whole number from 1 to 64" },
        { "[j]\nrw=trim\n", "f.fio:2: rw=trim: expected read, write, randread" },
        { "[j]\nrw=randread:8\n", "f.fio:2: rw=randread:8: expected read" },
        { "[j]\nbs=4k,8k\n", "f.fio:2: bs=4k,8k: expected one block size" },
        { "[j]\nbs=0\n", "f.fio:2: bs=0: expected a size" },
        { "[j]\nbs=4x\n", "f.fio:2: bs=4x: expected a size" },
        { "[j]\nsize=50%\n", "f.fio:2: size=50%: expected a size in bytes (with k, m, g, t); percentages" },
        { "[j]\nrwmixread=101\n", "f.fio:2: rwmixread=101: expected a whole number from 0 to 100" },
        { "[j]\ndirect=2\n", "f.fio:2: direct=2: expected 0 or 1" },
        { "[j]\nruntime=10x\n", "f.fio:2: runtime=10x: expected a time" },
        { "[j]\nruntime=0\n", "f.fio:2: runtime=0: expected a time" },
        { "[j]\nioengine=libaio\n", "f.fio:2: ioengine=libaio: expected io_uring, psync or null" },
        { "[j]\nrandseed=-1\n", "f.fio:2: randseed=-1: expected an unsigned" },
        { "[j]\nss=bw:5%\nss_dur=10\n", "f.fio:2: ss=bw:5%: expected iops_slope:LIMIT" },
        { "[j]\nss=iops_slope:1%\n", "f.fio:1: [j]: ss without ss_dur" },
        { "[j]\ntime_based\n", "f.fio:1: [j]: time_based without runtime" },
        { "[j]\nsize\n", "f.fio:2: size: expected size=VALUE" },
        { "[j]\nbs=8k\nsize=4k\n", "f.fio:1: [j]: size=4096 is smaller than bs=8192" },
        { "rw=read\n", "f.fio:1: rw=read: an option before any section" },
        { "[a]\n[b]\n", "f.fio:2: [b]: a second job section" },
        { "[a]\n[global]\n", "f.fio:2: [global] after the job section" },
        { "[global]\nbs=4k\n", "f.fio: no job section" },
        { "", "f.fio: no job section" },
        { "[j\n", "f.fio:1: [j: expected [SECTION]" },
        { "[a b]\n", "f.fio:1: [a b]: expected a job name" },
        { "[j]\nrw\n", "f.fio:2: rw: expected rw=VALUE" },
        { "[j]\nsize=4k\noffset=9223372036854771712\n", "f.fio:1: [j]: offset=9223372036854771712 + size=4096 (x numjobs=1): expected at most 9223372036854775807 bytes" },
        { "[j]\nsize=4k\noffset=18446744073709547520\n", "f.fio:1: [j]: offset=18446744073709547520 + size=4096 (x numjobs=1): expected at most" },
        { "[j]\noffset=9223372036854775808\n", "f.fio:1: [j]: offset=9223372036854775808 + size=0 (x numjobs=1): expected at most" },
        { "[j]\nsize=4611686018427387904\nnumjobs=2\n", "f.fio:1: [j]: offset=0 + size=4611686018427387904 (x numjobs=2): expected at most" },
        { "[j]\nsize=4k\nnumjobs=3\noffset_increment=4611686018427387904\n", "f.fio:1: [j]: offset=0 + (numjobs=3 - 1) x offset_increment=4611686018427387904 + size=4096 (and the clones' files together): expected at most 9223372036854775807 bytes" },
        { "[j]\nsize=4611686018427387904\nnumjobs=2\noffset_increment=4k\n", "f.fio:1: [j]: offset=0 + (numjobs=2 - 1) x offset_increment=4096 + size=4611686018427387904 (and" },
        { "[j]\noffset_increment=10%\n", "f.fio:2: offset_increment=10%: expected a size in bytes (with k, m, g, t); percentages are not supported" },
        { "[j]\nfilename=/dev/sda\n", "f.fio:2: filename=/dev/sda: expected one file name of 1 to 63 characters without '/' or ':'" },
        { "[j]\nfilename=a:b\n", "f.fio:2: filename=a:b: expected one file name" },
        { "[j]\nfilename=..\n", "f.fio:2: filename=..: expected one file name" },
        { "[j]\nthread=2\n", "f.fio:2: thread=2: expected 0 or 1" },
        { "[j]\nrandrepeat=yes\n", "f.fio:2: randrepeat=yes: expected 0 or 1" },
        { "[j]\ndirectory=/mnt\n", "f.fio:2: directory: a fio option the agent does not run" },
        { "[j]\niodepth=0x\n", "f.fio:2: iodepth=0x: expected a whole number" },
        { "[j]\niodepth=0x-4\n", "f.fio:2: iodepth=0x-4: expected a whole number" },
        { "[j]\niodepth=1e1\n", "f.fio:2: iodepth=1e1: expected a whole number" },
        /* the result model refuses such text: refused before the run */
        { "[j]\ndescription=a\tb\n", "f.fio:2: description: expected UTF-8 text without control characters" },
        { "[j]\ndescription=a\001b\n", "f.fio:2: description: expected UTF-8 text" },
        { "[j]\ndescription=caf\351\n", "f.fio:2: description: expected UTF-8 text" },
        { "[j]\ndescription=\300\257\n", "f.fio:2: description: expected UTF-8 text" },
        { "[j]\ndescription=\355\240\200\n", "f.fio:2: description: expected UTF-8 text" },
    };
    struct agent_job job;
    char err[512];

    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        err[0] = '\0';
        if (agent_jobfile_parse(bad[i].text, "f.fio", &job, err,
                                sizeof(err)) != -1
            || strncmp(err, bad[i].want, strlen(bad[i].want)) != 0
            || strchr(err, '\n')) {
            fprintf(stderr, "case %zu: got '%s', want '%s...'\n", i, err,
                    bad[i].want);
            fail();
        }
    }
    assert_int_equal(agent_jobfile_load("/tmp/a\tb.fio", &job, err, sizeof(err)), -1);
    assert_string_equal(err, "--job: a path with a control character or not UTF-8: "
                        "expected a path of UTF-8 text without control characters "
                        "(the results name it)");
    assert_int_equal(agent_jobfile_load("/nonexistent/x.fio", &job, err,
                                         sizeof(err)), -1);
    assert_string_equal(err, "--job /nonexistent/x.fio: No such file or "
                        "directory: expected a readable fio job file");
}

/* Numbers as fio reads them: a leading 0 is decimal, 0x is hex; the
 * largest offset + size a file can hold is taken. */
static void
test_jobfile_numbers(void **state)
{
    struct agent_job job;
    char err[512] = "";

    assert_int_equal(agent_jobfile_parse("[j]\niodepth=010\niodepth_batch=0x8\n"
                                         "iodepth_batch_complete_min=09\n"
                                         "rwmixread=070\nrandseed=010\n",
                                         "f.fio", &job, err, sizeof(err)), 0);
    assert_int_equal(job.iodepth, 10);
    assert_int_equal(job.iodepth_batch_submit, 8);
    assert_int_equal(job.iodepth_batch_complete_min, 9);
    assert_int_equal(job.rwmixread, 70);
    assert_true(job.randseed == 10);
    assert_int_equal(agent_jobfile_parse("[j]\nsize=4k\noffset=9223372036854767616\n",
                                         "f.fio", &job, err, sizeof(err)), 0);
    assert_true(job.offset + job.size == (uint64_t)INT64_MAX - 4095);
    assert_int_equal(agent_jobfile_parse("[j]\ndescription=4k r\303\251ads, \316\274s, \360\237\222\276\n",
                                         "f.fio", &job, err, sizeof(err)), 0);
    assert_string_equal(job.description, "4k r\303\251ads, \316\274s, \360\237\222\276");
}

/* fio's slope: a flat series is steady, a ramp is not; the percentage is
 * relative to the window's mean. */
static void
test_steady_state(void **state)
{
    double flat[10], ramp[10], slope = 0, crit = 0;

    for (int i = 0; i < 10; i++) {
        flat[i] = 1000.0 + (i % 2 ? 2 : -2);
        ramp[i] = 1000.0 + 50.0 * i;
    }
    assert_int_equal(agent_ss_slope(flat, 10, 1, 1.0, &slope, &crit), 1);
    assert_true(fabs(crit) < 0.1);
    assert_int_equal(agent_ss_slope(ramp, 10, 1, 1.0, &slope, &crit), 0);
    assert_true(fabs(slope - 50.0) < 1e-9);
    assert_true(fabs(crit - 100.0 * 50.0 / 1225.0) < 1e-9);
    assert_int_equal(agent_ss_slope(ramp, 10, 0, 60.0, &slope, &crit), 1);
    assert_int_equal(agent_ss_slope(ramp, 1, 1, 1.0, &slope, &crit), -1);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hist_percentiles),
        cmocka_unit_test(test_hist_buckets),
        cmocka_unit_test(test_jobfile_goldens),
        cmocka_unit_test(test_jobfile_errors),
        cmocka_unit_test(test_jobfile_numbers),
        cmocka_unit_test(test_steady_state),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
