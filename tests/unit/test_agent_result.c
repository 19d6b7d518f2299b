/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/run/agent_result.c: what the controller takes from a
 * guest's agent result and result frame, and what it refuses (the
 * loader's string limits, src/model/result_json.c, included). */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <glib.h>

#include "common/util.h"
#include "model/result.h"
#include "collect/agent_result.h"
#include "test_stderr.h"

#define HEAD "{\"format\":\"vmdiskcmp-result\",\"format_version\":1," \
             "\"producer\":{\"name\":\"vmdiskcmp-agent\",\"version\":\"0.1.0\"},\"runs\":["
#define RUN(target, rep, meta) \
    "{\"target\":\"" target "\",\"repetition\":" #rep ",\"metadata\":{" meta "}," \
    "\"samples\":[{\"test\":\"put_block\",\"value\":1000.0}]}"

/* check @json for (image, 1); returns the rc; *why and stderr kept */
static int
run_check(const char *json, size_t len, vdc_result_set *one, char **why, char **err)
{
    int rc;

    capture_stderr_begin();
    rc = vdc_agent_result_check(json, len, "image", 1, "control disk c.img, target image", one, why);
    *err = capture_stderr_end();
    return rc;
}

static void
expect_refused(const char *json, size_t len, const char *cause)
{
    vdc_result_set one;
    char *why = NULL, *err = NULL;

    vdc_result_set_init(&one);
    assert_int_equal(run_check(json, len, &one, &why, &err), -1);
    assert_int_equal(one.n_runs, 0);
    assert_non_null(why);
    if (!strstr(why, cause) || !strstr(err, cause))
        fail_msg("want \"%s\"; run error \"%s\"; stderr \"%s\"", cause, why, err);
    assert_non_null(strstr(err, "control disk c.img, target image"));
    assert_null(strchr(why, '\n'));
    assert_null(strchr(why, '\x1b'));
    assert_int_equal(strchr(err, '\n')[1], '\0');     /* one line */
    g_free(why);
    free(err);
    vdc_result_set_dispose(&one);
}

static void
test_one_run_taken(void **state)
{
    const char *json = HEAD RUN("image", 1, "\"hostname\":\"vdcguest\"") "]}";
    vdc_result_set one;
    char *why = NULL, *err = NULL;

    vdc_result_set_init(&one);
    assert_int_equal(run_check(json, strlen(json), &one, &why, &err), 0);
    assert_null(why);
    assert_string_equal(err, "");
    assert_int_equal(one.n_runs, 1);
    assert_string_equal(one.runs[0]->meta.hostname, "vdcguest");
    free(err);
    vdc_result_set_dispose(&one);
}

/* a guest injecting runs: every run is well formed, but the job asked for one */
static void
test_extra_runs_refused(void **state)
{
    GString *j = g_string_new(HEAD);
    int i;

    for (i = 0; i < 50; i++)
        g_string_append_printf(j, "%s{\"target\":\"image\",\"repetition\":%d,\"metadata\":{},\"samples\":[]}",
                               i ? "," : "", i);
    g_string_append(j, "]}");
    expect_refused(j->str, j->len, "agent result refused: 50 runs, expected exactly 1 (target image, "
                                   "repetition 1)");
    g_string_free(j, TRUE);
    expect_refused(HEAD "]}", strlen(HEAD "]}"), "0 runs, expected exactly 1");
}

/* the run of another target or repetition is not this step's */
static void
test_wrong_step_refused(void **state)
{
    const char *other = HEAD RUN("block", 1, "") "]}";
    const char *rep = HEAD RUN("image", 0, "") "]}";
    const char *esc = HEAD RUN("image\\u001b[2J", 1, "") "]}";

    expect_refused(other, strlen(other), "a run of target block repetition 1, expected target image "
                                         "repetition 1");
    expect_refused(rep, strlen(rep), "a run of target image repetition 0, expected");
    /* a target name with ESC: the loader's own rule (no control characters) */
    expect_refused(esc, strlen(esc), "runs[0].target: expected printable text");
}

/* sizes: strings (the loader's limit, with the field's path), samples, bytes */
static void
test_sizes_refused(void **state)
{
    g_autofree char *big = g_strnfill(VDC_RESULT_STRING_MAX + 1, 'h');
    g_autofree char *host = g_strdup_printf(HEAD RUN("image", 1, "\"hostname\":\"%s\"") "]}", big);
    g_autofree char *ok = g_strdup_printf(HEAD RUN("image", 1, "\"command_line\":\"%s\"") "]}", big);
    GString *samples = g_string_new(HEAD "{\"target\":\"image\",\"repetition\":1,\"samples\":[");
    GString *huge = g_string_new(HEAD RUN("image", 1, "") "]}");
    vdc_result_set one;
    char *why = NULL, *err = NULL;
    unsigned i;

    expect_refused(host, strlen(host), "runs[0].metadata.hostname: expected a string of at most 4096 "
                                       "bytes, found 4097 bytes");
    /* a command line may be longer (VDC_RESULT_LONG_STRING_MAX) */
    vdc_result_set_init(&one);
    assert_int_equal(run_check(ok, strlen(ok), &one, &why, &err), 0);
    free(err);
    vdc_result_set_dispose(&one);

    /* distinct sweep keys, so that only the count is wrong */
    for (i = 0; i <= VDC_AGENT_SAMPLES_MAX; i++)
        g_string_append_printf(samples, "%s{\"test\":\"sweep_read\",\"value\":1.0,\"block_size\":%u}",
                               i ? "," : "", 512 + i);
    g_string_append(samples, "]}]}");
    expect_refused(samples->str, samples->len, "257 samples, expected at most 256");
    g_string_free(samples, TRUE);

    while (huge->len <= VDC_AGENT_RESULT_MAX)
        g_string_append_c(huge, ' ');
    expect_refused(huge->str, huge->len, "bytes, expected at most 8388608");
    g_string_free(huge, TRUE);
}

/* not JSON at all, binary: refused, nothing raw in the message */
static void
test_garbage_refused(void **state)
{
    static const char bin[] = "\x1b[2J\xff\xfe{\"format\"";

    expect_refused(bin, sizeof(bin) - 1, "invalid JSON");
}

static void
test_frame_entries(void **state)
{
    struct vdc_ctl_result res;
    struct vdc_ctl_error e;
    const char *job[] = { "image", "block" };
    char *why = NULL, *err;

    vdc_ctl_result_init(&res);
    assert_non_null(vdc_ctl_result_add_target(&res, "image", "xvdb", &e));
    assert_non_null(vdc_ctl_result_add_target(&res, "ghost\x1b[2J", "xvdz", &e));
    assert_ptr_equal(vdc_agent_frame_target(&res, "image", "f", &why), &res.targets[0]);
    assert_null(why);
    assert_null(vdc_agent_frame_target(&res, "block", "f", &why));
    assert_null(why);                                  /* missing: the caller says so */
    capture_stderr_begin();
    assert_int_equal(vdc_agent_frame_extra(&res, job, 2, "control disk c.img"), 1);
    err = capture_stderr_end();
    assert_non_null(strstr(err, "target \"ghost\\x1b[2J\", which this boot did not run: ignored"));
    free(err);

    assert_non_null(vdc_ctl_result_add_target(&res, "image", "xvdb", &e));
    capture_stderr_begin();
    assert_null(vdc_agent_frame_target(&res, "image", "f", &why));
    err = capture_stderr_end();
    assert_non_null(why);
    assert_non_null(strstr(why, "answers 2 times for this target, expected once"));
    assert_non_null(strstr(err, why));
    g_free(why);
    free(err);
    vdc_ctl_result_dispose(&res);
}

/* ---- the passes: the samples each may hold ------------------------------------ */
#define WL_ON(test, job, on) "{\"test\":\"" test "\",\"value\":100.0,\"unit\":\"IO/sec\"," \
                             "\"workload\":{\"name\":\"" job "\",\"on\":\"" on "\"}}"
#define WL(test, job) WL_ON(test, job, "file")
#define PASS(status, samples) \
    "{\"format\":\"vmdiskcmp-result\",\"format_version\":2,\"producer\":{\"name\":\"x\"," \
    "\"version\":\"1\"},\"runs\":[{\"target\":\"image\",\"repetition\":1,\"status\":\"" status \
    "\",\"metadata\":{},\"samples\":[" samples "]}]}"

static const vdc_plan_workload jobs[] = {
    { .name = (char *)"rr", .rw = (char *)"randread", .reads = 1 },
    { .name = (char *)"mix", .rw = (char *)"randrw", .reads = 1, .writes = 1 },
};

/* load @json (a good document) and check its run as the pass of @w (@n)
 * on @on; NULL @cause: accepted, else refused naming @cause */
static void
expect_pass_on(const char *json, const vdc_plan_workload *w, size_t n, const char *on,
               const char *cause)
{
    vdc_result_set one;
    char *why = NULL, *err = NULL;
    int rc;

    vdc_result_set_init(&one);
    if (run_check(json, strlen(json), &one, &why, &err) != 0)
        fail_msg("not loaded: %s", err);
    free(err);
    capture_stderr_begin();
    rc = vdc_agent_result_check_pass(one.runs[0], w, n, on, "control disk c.img, target image", &why);
    err = capture_stderr_end();
    if (!cause) {
        if (rc != 0)
            fail_msg("refused: %s", why);
        assert_null(why);
    } else {
        assert_int_equal(rc, -1);
        if (!strstr(why, cause) || !strstr(err, cause))
            fail_msg("want \"%s\"; run error \"%s\"; stderr \"%s\"", cause, why, err);
    }
    g_free(why);
    free(err);
    vdc_result_set_dispose(&one);
}

/* a file pass (@w given) or the bonnie++ pass (@w NULL) */
static void
expect_pass(const char *json, const vdc_plan_workload *w, size_t n, const char *cause)
{
    expect_pass_on(json, w, n, w ? "file" : NULL, cause);
}

static void
test_pass_samples(void **state)
{
    /* every direction of every job */
    expect_pass(PASS("ok", WL("workload_read", "rr") "," WL("workload_read", "mix") ","
                     WL("workload_write", "mix")), jobs, 2, NULL);
    /* a pass that finished: each direction must be there */
    expect_pass(PASS("ok", WL("workload_read", "rr") "," WL("workload_read", "mix")), jobs, 2,
                "job mix: no workload_write sample (rw=randrw)");
    /* a stopped pass keeps what finished: the jobs after it are missing */
    expect_pass(PASS("failed", WL("workload_read", "rr")), jobs, 2, NULL);
    /* a job the plan did not run, a direction the job does not run (a
     * direction twice the loader refuses already) */
    expect_pass(PASS("failed", WL("workload_read", "other")), jobs, 2,
                "a workload_read sample of job other, which the job did not ask for");
    expect_pass(PASS("ok", WL("workload_write", "rr")), jobs, 2,
                "a workload_write sample of job rr, whose rw=randread does not write");
    /* a bonnie++ sample in the workload pass, a workload sample in the bonnie++ pass */
    expect_pass(PASS("ok", "{\"test\":\"put_block\",\"value\":1.0}"), jobs, 2,
                "the workload pass gave a put_block sample, expected workload samples only");
    expect_pass(PASS("ok", WL("workload_read", "rr")), NULL, 0,
                "a workload_read sample of job rr, expected no workload (the job asked for none)");
    expect_pass(PASS("ok", "{\"test\":\"put_block\",\"value\":1.0}"), NULL, 0, NULL);
    /* the raw pass: its samples say raw; a file sample there (or one that
     * says nothing) is refused, and a raw sample in the file pass */
    expect_pass_on(PASS("ok", WL_ON("workload_read", "rr", "raw") "," WL_ON("workload_read", "mix", "raw") ","
                                WL_ON("workload_write", "mix", "raw")), jobs, 2, "raw", NULL);
    expect_pass_on(PASS("ok", WL("workload_read", "rr")), jobs, 2, "raw",
                   "a workload_read sample of job rr says it ran on file, expected raw (the raw pass)");
    expect_pass(PASS("failed", WL_ON("workload_read", "rr", "raw")), jobs, 2,
                "a workload_read sample of job rr says it ran on raw, expected file (the file pass)");
    expect_pass_on(PASS("failed", "{\"test\":\"workload_read\",\"value\":1.0,\"unit\":\"IO/sec\","
                                  "\"workload\":{\"name\":\"rr\"}}"), jobs, 2, "raw",
                   "a workload_read sample of job rr says it ran on nothing, expected raw (the raw pass)");
}

/* joining the passes of one step: samples moved, the worse status and the
 * first error kept */
static void
test_join(void **state)
{
    vdc_run a, b;

    vdc_run_init(&a);
    vdc_run_init(&b);
    vdc_set_str(&a.status, "ok");
    vdc_run_add_sample(&a, "put_block");
    vdc_set_str(&b.status, "failed");
    vdc_set_str(&b.error, "interrupted");
    vdc_run_add_sample(&b, "workload_read");
    vdc_run_add_sample(&b, "workload_write");
    vdc_agent_result_join(&a, &b);
    assert_int_equal(a.n_samples, 3);
    assert_string_equal(a.samples[2]->test, "workload_write");
    assert_int_equal(b.n_samples, 0);
    assert_string_equal(a.status, "failed");
    assert_string_equal(a.error, "interrupted");
    vdc_run_dispose(&a);
    vdc_run_dispose(&b);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_run_taken),
        cmocka_unit_test(test_extra_runs_refused),
        cmocka_unit_test(test_wrong_step_refused),
        cmocka_unit_test(test_sizes_refused),
        cmocka_unit_test(test_garbage_refused),
        cmocka_unit_test(test_frame_entries),
        cmocka_unit_test(test_pass_samples),
        cmocka_unit_test(test_join),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
