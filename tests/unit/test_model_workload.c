/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the result model's workload samples (format_version 2):
 * the agent's workload object loads into typed members, saves back to the
 * same document, keys ID@JOB order and look up like other tests, version-1
 * documents keep loading and saving as version 1, and every limit of the
 * loader is refused with the member's JSON path. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <glib.h>

#include "model/result.h"
#include "test_stderr.h"

/* One randrw job of the agent (its member layout, values shortened), as
 * two samples, then a randread job: @PATCH replaces the text "@@" inside
 * the first sample's workload object. */
#define DOC_HEAD(version) \
    "{\"format\": \"vmdiskcmp-result\", \"format_version\": " #version ",\n" \
    " \"producer\": {\"name\": \"vmdiskcmp-agent\", \"version\": \"0.1.0\"},\n" \
    " \"runs\": [{\"target\": \"image\", \"repetition\": 0, \"status\": \"ok\", \"error\": null,\n" \
    "  \"metadata\": {\"tool\": \"vmdiskcmp-agent 0.1.0\", \"seed\": \"7\"},\n" \
    "  \"samples\": [\n"
#define MIX_WORKLOAD(dir_ios, patch) \
    "{\"name\": \"mix8k\", \"source\": \"mix8k.fio\",\n" \
    " \"job\": {\"name\": \"mix8k\", \"rw\": \"randrw\", \"rwmixread\": 70, \"bs\": 8192, \"iodepth\": 4,\n" \
    "  \"numjobs\": 1, \"direct\": true, \"size\": 16777216, \"offset\": 0, \"runtime_s\": 1.000,\n" \
    "  \"time_based\": true, \"ramp_time_s\": 0.000, \"randseed\": null, \"ioengine\": \"io_uring\",\n" \
    "  \"ss\": null, \"description\": \"\"},\n" \
    " \"engine\": \"io_uring\", \"engine_fallback\": null, \"iodepth_effective\": 4,\n" \
    " \"io_uring\": {\"setup_flags\": 12552, \"nonvectored\": true},\n" \
    " \"buffers\": {\"bytes\": 32768, \"huge_kib\": 2048}, \"logical_block_size\": 512,\n" \
    " \"ios\": " #dir_ios ", \"bytes\": 207773696, \"bandwidth_kib_s\": 202855.062,\n" \
    " \"percentile_relative_error\": 0.00390625,\n" \
    " \"clat_us\": {\"n\": 25362, \"min\": 4.2, \"mean\": 110.5, \"p50\": 61.44, \"p90\": 180.2,\n" \
    "  \"p99\": 1003.52, \"p99.9\": 4014.08, \"p99.99\": 9961.472, \"max\": 10261.3},\n" \
    " \"slat_us\": {\"n\": 25362, \"min\": 0.9, \"mean\": 3.1, \"p50\": 2.9, \"p90\": 4.2, \"p99\": 7.9,\n" \
    "  \"p99.9\": 14.4, \"p99.99\": 33.8, \"max\": 120.2},\n" \
    " \"cpu\": {\"user_s\": 0.019201, \"system_s\": 0.374927, \"us_per_io\": 10.889,\n" \
    "  \"thread_user_s\": 0.0195, \"thread_system_s\": 0.157098, \"thread_us_per_io\": 4.876},\n" \
    " \"iops_series\": {\"interval_s\": 1, \"values\": [25362.0]},\n" \
    " \"steady_state\": {\"metric\": \"iops_slope\", \"limit\": 1, \"percent\": true, \"dur_s\": 10,\n" \
    "  \"ramp_s\": 0, \"from_job\": false, \"reached\": false, \"at_s\": null, \"slope\": null,\n" \
    "  \"criterion\": null},\n" \
    patch \
    " \"trace_digest\": \"5c41fa3c013d90e1\"}"
#define SAMPLE(test, value, workload) \
    "{\"test\": \"" test "\", \"value\": " #value ", \"unit\": \"IO/sec\", \"cpu_percent\": 42.0,\n" \
    " \"latency_us\": 10261, \"elapsed_s\": 1.000043, \"too_fast\": false, \"failed\": false,\n" \
    " \"error\": null, \"workload\": " workload "}"
#define RR_WORKLOAD \
    "{\"name\": \"rr4k\", \"job\": {\"rw\": \"randread\", \"bs\": 4096, \"iodepth\": 8},\n" \
    " \"engine\": \"psync\", \"iodepth_effective\": 1, \"ios\": 100, \"bytes\": 409600,\n" \
    " \"clat_us\": {\"n\": 100, \"min\": 1, \"p50\": 2, \"max\": 9}}"
#define DOC_TAIL "]}]}\n"

#define DOC(version, patch) \
    DOC_HEAD(version) \
    SAMPLE("workload_read", 25360.906, MIX_WORKLOAD(25362, patch)) ",\n" \
    SAMPLE("workload_write", 10871.5, MIX_WORKLOAD(10872, "")) ",\n" \
    SAMPLE("workload_read", 100.0, RR_WORKLOAD) DOC_TAIL

static void
load_ok(vdc_result_set *rs, const char *json)
{
    vdc_result_set_init(rs);
    assert_int_equal(vdc_result_set_load_data(rs, json, strlen(json), "w.json"), 0);
}

static void
test_load_typed(void **state)
{
    vdc_result_set rs;
    const vdc_workload *w;

    load_ok(&rs, DOC(2, ""));
    assert_int_equal(rs.runs[0]->n_samples, 3);
    w = rs.runs[0]->samples[0]->workload;
    assert_non_null(w);
    assert_string_equal(w->name, "mix8k");
    assert_string_equal(w->source, "mix8k.fio");
    assert_string_equal(w->job.rw, "randrw");
    assert_int_equal(w->job.rwmixread, 70);
    assert_int_equal(w->job.bs, 8192);
    assert_int_equal(w->job.iodepth, 4);
    assert_int_equal(w->job.direct, 1);
    assert_int_equal(w->job.size, 16777216);
    assert_true(w->job.runtime_s == 1.0);
    assert_null(w->job.randseed);
    assert_null(w->job.ss.metric);              /* "ss": null */
    assert_string_equal(w->job.description, "");
    assert_string_equal(w->engine, "io_uring");
    assert_null(w->engine_fallback);
    assert_int_equal(w->iodepth_effective, 4);
    assert_int_equal(w->io_uring.setup_flags, 12552);
    assert_int_equal(w->io_uring.nonvectored, 1);
    assert_int_equal(w->buffers.bytes, 32768);
    assert_int_equal(w->buffers.huge_kib, 2048);
    assert_int_equal(w->ios, 25362);
    assert_int_equal(w->bytes, 207773696);
    assert_true(w->bandwidth_kib_s == 202855.062);
    assert_true(w->percentile_relative_error == 0.00390625);
    assert_int_equal(w->clat_us.n, 25362);
    assert_true(w->clat_us.p99_9 == 4014.08);
    assert_true(w->clat_us.p99_99 == 9961.472);
    assert_true(w->slat_us.max == 120.2);
    assert_true(w->cpu.thread_us_per_io == 4.876);
    assert_true(w->iops_interval_s == 1);
    assert_int_equal(w->n_iops_values, 1);
    assert_true(w->iops_values[0] == 25362.0);
    assert_string_equal(w->steady_state.metric, "iops_slope");
    assert_int_equal(w->steady_state.reached, 0);
    assert_false(vdc_has(w->steady_state.at_s));
    assert_string_equal(w->trace_digest, "5c41fa3c013d90e1");
    /* the second job: psync, no slat, no io_uring, no series */
    w = rs.runs[0]->samples[2]->workload;
    assert_string_equal(w->name, "rr4k");
    assert_int_equal(w->slat_us.n, VDC_INT_ABSENT);
    assert_int_equal(w->io_uring.setup_flags, VDC_INT_ABSENT);
    assert_int_equal(w->buffers.bytes, VDC_INT_ABSENT);  /* not recorded */
    assert_int_equal(w->n_iops_values, 0);
    assert_null(w->iops_values);
    assert_string_equal(rs.runs[0]->samples[2]->unit, "IO/sec");
    vdc_result_set_dispose(&rs);
}

static void
test_keys_lookup(void **state)
{
    vdc_result_set rs;
    vdc_sample_ref *refs;
    char **keys;
    int64_t bs = -1;
    size_t n;

    load_ok(&rs, DOC(2, ""));
    /* by job in order of first appearance, each job's read then write */
    keys = vdc_result_set_test_keys(&rs, NULL);
    assert_int_equal(g_strv_length(keys), 3);
    assert_string_equal(keys[0], "workload_read@mix8k");
    assert_string_equal(keys[1], "workload_write@mix8k");
    assert_string_equal(keys[2], "workload_read@rr4k");
    g_strfreev(keys);
    refs = vdc_result_set_lookup(&rs, "image", "workload_write@mix8k", &n);
    assert_int_equal(n, 1);
    assert_true(refs[0].sample->value == 10871.5);
    g_free(refs);
    assert_null(vdc_result_set_lookup(&rs, "image", "workload_write@rr4k", &n));
    /* a workload key parses to its test; its job name is the rest */
    assert_ptr_equal(vdc_test_key_parse("workload_read@a@b", &bs), &vdc_tests[VDC_TEST_WORKLOAD_READ]);
    assert_int_equal(bs, 0);
    assert_string_equal(vdc_test_key_job("workload_read@a@b"), "a@b");
    assert_null(vdc_test_key_parse("workload_read@", &bs));
    assert_null(vdc_test_key_job("sweep_read@4096"));
    assert_null(vdc_test_key_job("putc"));
    assert_null(vdc_test_key_parse("putc@x", &bs));
    vdc_result_set_dispose(&rs);
}

/* workload.on: a job on the raw device keys apart (ID@JOB@raw) from the
 * same job on a file (ID@JOB, as a sample that does not say), after it;
 * the member round-trips; the labels name the raw one */
static void
test_on_raw(void **state)
{
    vdc_result_set rs;
    vdc_sample_ref *refs;
    char **keys, buf[64], *out;
    size_t n;

    load_ok(&rs, DOC_HEAD(2)
            SAMPLE("workload_read", 25360.906, MIX_WORKLOAD(25362, "\"on\": \"raw\",")) ",\n"
            SAMPLE("workload_read", 20000.5, MIX_WORKLOAD(20000, "\"on\": \"file\",")) ",\n"
            SAMPLE("workload_write", 10871.5, MIX_WORKLOAD(10872, "\"on\": \"raw\",")) DOC_TAIL);
    keys = vdc_result_set_test_keys(&rs, NULL);
    assert_int_equal(g_strv_length(keys), 3);
    assert_string_equal(keys[0], "workload_read@mix8k");
    assert_string_equal(keys[1], "workload_read@mix8k@raw");
    assert_string_equal(keys[2], "workload_write@mix8k@raw");
    g_strfreev(keys);
    refs = vdc_result_set_lookup(&rs, "image", "workload_read@mix8k@raw", &n);
    assert_int_equal(n, 1);
    assert_true(refs[0].sample->value == 25360.906);
    assert_string_equal(refs[0].sample->workload->on, "raw");
    g_free(refs);
    refs = vdc_result_set_lookup(&rs, "image", "workload_read@mix8k", &n);
    assert_int_equal(n, 1);
    assert_true(refs[0].sample->value == 20000.5);
    g_free(refs);
    assert_true(vdc_test_key_raw("workload_read@mix8k@raw"));
    assert_false(vdc_test_key_raw("workload_read@mix8k"));
    assert_false(vdc_test_key_raw("workload_read@@raw"));
    assert_false(vdc_test_key_raw("putc"));
    assert_string_equal(vdc_test_key_job_label("workload_write@mix8k@raw", buf, sizeof(buf)), "mix8k (raw)");
    assert_string_equal(vdc_test_key_job_label("workload_write@mix8k", buf, sizeof(buf)), "mix8k");
    out = vdc_result_set_to_string(&rs, NULL);
    assert_non_null(strstr(out, "\"on\": \"raw\""));
    assert_non_null(strstr(out, "\"on\": \"file\""));
    g_free(out);
    vdc_result_set_dispose(&rs);
}

static void
test_roundtrip(void **state)
{
    vdc_result_set rs, back, merged;
    char *a, *b, *c;

    load_ok(&rs, DOC(2, ""));
    a = vdc_result_set_to_string(&rs, NULL);
    assert_non_null(strstr(a, "\"format_version\": 2,"));
    assert_non_null(strstr(a, "\"p99.99\": 9961.472"));
    assert_non_null(strstr(a, "\"values\": [\n"));
    load_ok(&back, a);
    b = vdc_result_set_to_string(&back, NULL);
    assert_string_equal(a, b);
    /* a merge deep-copies the workload objects */
    vdc_result_set_init(&merged);
    vdc_set_str(&merged.producer_name, back.producer_name);
    vdc_result_set_merge(&merged, &back);
    vdc_result_set_dispose(&back);
    c = vdc_result_set_to_string(&merged, NULL);
    assert_string_equal(a, c);
    assert_int_equal(vdc_result_set_format_version(&merged), 2);
    g_free(a);
    g_free(b);
    g_free(c);
    vdc_result_set_dispose(&merged);
    vdc_result_set_dispose(&rs);
    /* huge pages not known: null in, left out on the way out */
    load_ok(&rs, DOC(2, "\"buffers\": {\"bytes\": 32768, \"huge_kib\": null},"));
    assert_int_equal(rs.runs[0]->samples[0]->workload->buffers.huge_kib, VDC_INT_ABSENT);
    a = vdc_result_set_to_string(&rs, NULL);
    /* the second sample keeps its 2048, the first has none */
    assert_non_null(strstr(a, "\"huge_kib\": 2048"));
    assert_null(strstr(strstr(a, "\"huge_kib\"") + 1, "\"huge_kib\""));
    g_free(a);
    vdc_result_set_dispose(&rs);
}

static void
test_version1(void **state)
{
    static const char v1[] =
        "{\"format\": \"vmdiskcmp-result\", \"format_version\": 1,"
        " \"producer\": {\"name\": \"vmdiskcmp\", \"version\": \"0.1.0\"},"
        " \"runs\": [{\"target\": \"a\", \"samples\": [{\"test\": \"putc\", \"value\": 1}]}]}";
    vdc_result_set rs;
    char *out;

    /* a version-1 document loads, and without workload samples is written
     * as version 1 (readers of version 1 go on reading it) */
    load_ok(&rs, v1);
    assert_int_equal(vdc_result_set_format_version(&rs), 1);
    out = vdc_result_set_to_string(&rs, NULL);
    assert_non_null(strstr(out, "\"format_version\": 1,"));
    g_free(out);
    vdc_result_set_dispose(&rs);
}

static void
expect_error(const char *json, const char *msg)
{
    vdc_result_set rs;
    char *err;

    vdc_result_set_init(&rs);
    capture_stderr_begin();
    assert_int_equal(vdc_result_set_load_data(&rs, json, strlen(json), "w.json"), -1);
    err = capture_stderr_end();
    assert_string_equal(err, msg);
    assert_int_equal(rs.n_runs, 0);
    free(err);
}

#define AT "vmdiskcmp: w.json: runs[0].samples[0].workload"

static void
test_limits(void **state)
{
    expect_error(DOC(1, ""), AT ": workload_read samples need format_version 2, found 1\n");
    expect_error(DOC_HEAD(2) "{\"test\": \"workload_write\", \"value\": 1}" DOC_TAIL,
                 AT ": missing (required for workload_write)\n");
    expect_error(DOC_HEAD(2) "{\"test\": \"workload_write\", \"value\": 1, \"workload\": []}" DOC_TAIL,
                 AT ": expected an object\n");
    expect_error(DOC_HEAD(2) "{\"test\": \"workload_write\", \"value\": 1, \"workload\": {}}" DOC_TAIL,
                 AT ".name: missing\n");
    expect_error(DOC_HEAD(2) "{\"test\": \"workload_write\", \"value\": 1, \"workload\": "
                 "{\"name\": \"a\\nb\"}}" DOC_TAIL,
                 AT ".name: expected a one-line job name of 1 to 256 bytes (no control characters)\n");
    /* JSON members override: the last of two equal members wins in json-glib */
    expect_error(DOC(2, "\"job\": {\"rw\": \"trim\"},"), AT ".job.rw: expected read, write, "
                 "randread, randwrite, rw or randrw\n");
    expect_error(DOC(2, "\"job\": {\"iodepth\": 0},"),
                 AT ".job.iodepth: expected an integer from 1 to 65536, found 0\n");
    expect_error(DOC(2, "\"job\": {\"rwmixread\": 101},"),
                 AT ".job.rwmixread: expected an integer from 0 to 100, found 101\n");
    expect_error(DOC(2, "\"job\": {\"bs\": -4096},"), AT ".job.bs: expected an integer >= 0\n");
    expect_error(DOC(2, "\"job\": {\"direct\": 1},"), AT ".job.direct: expected a boolean\n");
    expect_error(DOC(2, "\"iodepth_effective\": 70000,"),
                 AT ".iodepth_effective: expected an integer from 1 to 65536, found 70000\n");
    expect_error(DOC(2, "\"ios\": 1.5,"), AT ".ios: expected an integer\n");
    expect_error(DOC(2, "\"buffers\": {\"bytes\": -1},"), AT ".buffers.bytes: expected an integer >= 0\n");
    expect_error(DOC(2, "\"buffers\": {\"huge_kib\": \"2048\"},"), AT ".buffers.huge_kib: expected an integer\n");
    expect_error(DOC(2, "\"percentile_relative_error\": 2,"),
                 AT ".percentile_relative_error: expected a number from 0 to 1, found 2\n");
    expect_error(DOC(2, "\"clat_us\": {\"p50\": 10, \"p90\": 9},"),
                 AT ".clat_us.p90: expected a number >= the lower percentile (10), found 9\n");
    expect_error(DOC(2, "\"slat_us\": {\"min\": 10, \"max\": 9},"),
                 AT ".slat_us.min: expected a number <= max (9), found 10\n");
    expect_error(DOC(2, "\"clat_us\": {\"p99.9\": \"1\"},"),
                 AT ".clat_us.p99.9: expected a number\n");
    expect_error(DOC(2, "\"iops_series\": {\"values\": {}},"),
                 AT ".iops_series.values: expected an array of numbers\n");
    expect_error(DOC(2, "\"iops_series\": {\"values\": [1, \"2\"]},"),
                 AT ".iops_series.values[1]: expected a number\n");
    expect_error(DOC(2, "\"iops_series\": {\"values\": [1, -2]},"),
                 AT ".iops_series.values: expected numbers from 0 to 1e+09 IOPS (value 1 is -2)\n");
    /* the physical bounds (model/result.h): no job runs 2e9 IOPS, no
     * latency lasts more than a day, no job moves 1e11 KiB/s */
    expect_error(DOC(2, "\"iops_series\": {\"values\": [1, 2e9]},"),
                 AT ".iops_series.values: expected numbers from 0 to 1e+09 IOPS (value 1 is 2e+09)\n");
    expect_error(DOC(2, "\"clat_us\": {\"p99\": 1e11},"),
                 AT ".clat_us.p99: expected at most 8.64e+10 us (a day), found 1e+11\n");
    expect_error(DOC(2, "\"bandwidth_kib_s\": 1e11,"),
                 AT ".bandwidth_kib_s: expected at most 1e+10 (the physical bound of the unit), found 1e+11\n");
    expect_error(DOC(2, "\"iops_series\": {\"interval_s\": 0},"),
                 AT ".iops_series.interval_s: expected a number > 0\n");
    expect_error(DOC(2, "\"engine\": \"io\\u0001uring\","),
                 AT ".engine: expected a one-line string of at most 64 bytes (no control characters)\n");
    /* batch values no fixup leaves, and more I/Os per io_uring_enter than
     * the ring holds */
    expect_error(DOC(2, "\"job\": {\"iodepth\": 4, \"iodepth_batch_submit\": 5},"),
                 AT ".job.iodepth_batch_submit: expected at most job.iodepth (4), found 5\n");
    expect_error(DOC(2, "\"job\": {\"iodepth_batch_complete_min\": 3, \"iodepth_batch_complete_max\": 2},"),
                 AT ".job.iodepth_batch_complete_min: expected at most job.iodepth_batch_complete_max (2), found 3\n");
    expect_error(DOC(2, "\"io_uring\": {\"ios_per_submit\": 5},"),
                 AT ".io_uring.ios_per_submit: expected at most iodepth_effective (4, the ring's depth), found 5\n");
    expect_error(DOC(2, "\"io_uring\": {\"ios_per_submit\": 1e308},"),
                 AT ".io_uring.ios_per_submit: 1e+308: expected a number of magnitude at most 1e+15\n");
    expect_error(DOC(2, "\"io_uring\": {\"ios_per_reap\": 4.5},"),
                 AT ".io_uring.ios_per_reap: expected at most iodepth_effective (4, the ring's depth), found 4.5\n");
    expect_error(DOC(2, "\"on\": \"disk\","), AT ".on: expected file or raw\n");
    expect_error(DOC(2, "\"on\": 1,"), AT ".on: expected a string\n");
    expect_error(DOC(2, "\"steady_state\": {\"reached\": null},"),
                 AT ".steady_state.reached: expected a boolean, not null\n");
    /* one sample per job and direction in a run */
    expect_error(DOC_HEAD(2) SAMPLE("workload_read", 1, RR_WORKLOAD) ",\n"
                 SAMPLE("workload_read", 2, RR_WORKLOAD) DOC_TAIL,
                 "vmdiskcmp: w.json: runs[0].samples[1]: duplicate sample: test workload_read "
                 "(job rr4k) already measured in this run\n");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_typed),
        cmocka_unit_test(test_keys_lookup),
        cmocka_unit_test(test_on_raw),
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_version1),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
