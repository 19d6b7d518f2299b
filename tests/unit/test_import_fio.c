/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the fio JSON importer (src/import/fio_json.c) on
 * hand-made documents in the layout of fio 3.x's stat.c
 * show_thread_status_json (jobs[].{jobname, error, job options, read,
 * write, usr_cpu, sys_cpu, job_runtime}; per direction io_bytes, bw_bytes,
 * iops, runtime (ms), total_ios, {slat,clat,lat}_ns {min, max, mean, N,
 * percentile {"50.000000": ns}}): every expected value is worked out here
 * from the input's numbers.  Real fio 3.33 output is pinned by
 * tests/integration/import-golden.sh. */
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

#include "import/import.h"
#include "test_stderr.h"

/* a read direction of 3000 I/Os and a write direction of 1000 */
#define DIR_READ \
    "{\"io_bytes\": 12288000, \"bw_bytes\": 4096000, \"iops\": 1500.0, \"runtime\": 2000," \
    " \"total_ios\": 3000," \
    " \"slat_ns\": {\"min\": 500, \"max\": 9000, \"mean\": 1500.5, \"N\": 3000}," \
    " \"clat_ns\": {\"min\": 20000, \"max\": 900000, \"mean\": 61234.5, \"N\": 3000," \
    "  \"percentile\": {\"1.000000\": 21000, \"50.000000\": 50176, \"90.000000\": 90112," \
    "   \"99.000000\": 403456, \"99.900000\": 856064, \"99.950000\": 880000, \"99.990000\": 897000}}," \
    " \"lat_ns\": {\"min\": 21000, \"max\": 905000, \"mean\": 62735.0, \"N\": 3000}}"
#define DIR_WRITE \
    "{\"io_bytes\": 16384000, \"bw_bytes\": 8192000, \"iops\": 500.0, \"runtime\": 2000," \
    " \"total_ios\": 1000," \
    " \"clat_ns\": {\"min\": 30000, \"max\": 400000, \"mean\": 80000, \"N\": 1000}," \
    " \"lat_ns\": {\"min\": 31000, \"max\": 401000, \"mean\": 81000, \"N\": 1000}}"
#define DIR_NONE "{\"io_bytes\": 0, \"iops\": 0.0, \"runtime\": 0, \"total_ios\": 0}"

#define DOC(global, jobs) \
    "{\n  \"fio version\" : \"fio-3.33\",\n  \"timestamp\" : 1796169315,\n" \
    "  \"global options\" : {" global "},\n  \"jobs\" : [" jobs "]\n}\n"
#define JOB(name, options, rd, wr) \
    "{\"jobname\": \"" name "\", \"groupid\": 0, \"error\": 0, \"job options\": {" options "}," \
    " \"read\": " rd ", \"write\": " wr ", \"trim\": " DIR_NONE "," \
    " \"job_runtime\": 2000, \"usr_cpu\": 25.0, \"sys_cpu\": 50.0}"

static int
import(vdc_result_set *rs, const char *doc, const char *target, vdc_group_by g)
{
    vdc_result_set_init(rs);
    return vdc_import_data_grouped(rs, doc, strlen(doc), "f.json", target, VDC_IMPORT_AUTO, g);
}

static const vdc_sample *
sample(const vdc_run *r, size_t i)
{
    assert_true(i < r->n_samples);
    return r->samples[i];
}

static void
test_mixed_job(void **state)
{
    static const char doc[] = DOC("\"bs\": \"8k\", \"filename\": \"/dev/xvdb\", \"direct\": \"1\","
                                  " \"ioengine\": \"libaio\"",
                                  JOB("mix", "\"rw\": \"readwrite\", \"rwmixwrite\": \"25\","
                                      " \"bs\": \"4k,16k\", \"iodepth\": \"16\", \"runtime\": \"2s\","
                                      " \"ramp_time\": \"500ms\", \"size\": \"1g\"",
                                      DIR_READ, DIR_WRITE));
    vdc_result_set rs;
    const vdc_sample *s;
    const vdc_workload *w;

    assert_int_equal(import(&rs, doc, "lvm", VDC_GROUP_MACHINE), 1);
    assert_int_equal(rs.n_runs, 1);
    /* one group (the filename): --target names it */
    assert_string_equal(rs.runs[0]->target, "lvm");
    assert_string_equal(rs.runs[0]->meta.tool, "fio-3.33");
    assert_string_equal(rs.runs[0]->meta.date, "2026-12-01T23:55:15Z");
    assert_string_equal(rs.runs[0]->meta.source.format, "fio-json");
    assert_int_equal(rs.runs[0]->n_samples, 2);
    s = sample(rs.runs[0], 0);
    w = s->workload;
    assert_string_equal(s->test, "workload_read");
    assert_string_equal(s->unit, "IO/sec");
    assert_true(s->value == 1500.0);
    assert_true(s->elapsed_s == 2.0);            /* runtime 2000 ms */
    assert_true(s->cpu_percent == 75.0);         /* usr_cpu + sys_cpu */
    assert_true(s->latency_us == 905.0);         /* lat_ns.max / 1000 */
    assert_false(s->too_fast);
    assert_string_equal(w->name, "mix");
    assert_string_equal(w->source, "f.json");
    assert_string_equal(w->job.rw, "rw");        /* readwrite is rw */
    assert_int_equal(w->job.rwmixread, 75);      /* 100 - rwmixwrite */
    assert_int_equal(w->job.bs, 4096);           /* bs=4k,16k: the read size; job over global */
    assert_int_equal(w->job.iodepth, 16);
    assert_int_equal(w->job.numjobs, 1);         /* fio's default */
    assert_int_equal(w->job.direct, 1);          /* from the global options */
    assert_int_equal(w->job.size, 1LL << 30);
    assert_true(w->job.runtime_s == 2.0);
    assert_true(w->job.ramp_time_s == 0.5);
    assert_string_equal(w->job.ioengine, "libaio");
    assert_string_equal(w->engine, "libaio");
    assert_int_equal(w->ios, 3000);
    assert_int_equal(w->bytes, 12288000);
    assert_true(w->bandwidth_kib_s == 4000.0);   /* bw_bytes / 1024 */
    assert_int_equal(w->clat_us.n, 3000);
    assert_true(w->clat_us.min == 20.0);
    assert_true(w->clat_us.mean == 61.2345);
    assert_true(w->clat_us.p50 == 50.176);
    assert_true(w->clat_us.p90 == 90.112);
    assert_true(w->clat_us.p99 == 403.456);
    assert_true(w->clat_us.p99_9 == 856.064);
    assert_true(w->clat_us.p99_99 == 897.0);
    assert_true(w->clat_us.max == 900.0);
    assert_true(w->percentile_relative_error == 1.0 / 128);
    assert_int_equal(w->slat_us.n, 3000);
    assert_true(w->slat_us.mean == 1.5005);
    assert_false(vdc_has(w->slat_us.p50));      /* fio prints no slat percentiles by default */
    /* 25 % and 50 % of 2 s over 3000 + 1000 I/Os: 0.5 + 1.0 s, 375 us per I/O */
    assert_true(w->cpu.thread_user_s == 0.5);
    assert_true(w->cpu.thread_system_s == 1.0);
    assert_true(w->cpu.thread_us_per_io == 375.0);
    assert_false(vdc_has(w->cpu.us_per_io));
    assert_int_equal(w->n_iops_values, 0);      /* fio's JSON has no per-second series */
    s = sample(rs.runs[0], 1);
    w = s->workload;
    assert_string_equal(s->test, "workload_write");
    assert_true(s->value == 500.0);
    assert_int_equal(w->job.bs, 16384);          /* the write size of bs=4k,16k */
    assert_int_equal(w->clat_us.n, 1000);
    assert_false(vdc_has(w->clat_us.p50));
    assert_int_equal(w->slat_us.n, VDC_INT_ABSENT);
    assert_true(w->cpu.thread_us_per_io == 375.0);   /* the same for both directions */
    vdc_result_set_dispose(&rs);
}

static void
test_groups(void **state)
{
    static const char doc[] = DOC("\"rw\": \"randread\", \"iodepth\": \"32\"",
                                  JOB("image", "\"filename\": \"/dev/xvdb\"", DIR_READ, DIR_NONE) ","
                                  JOB("lvm", "\"filename\": \"/dev/xvdc\"", DIR_READ, DIR_NONE));
    vdc_result_set rs;
    char **keys;

    /* machine: by filename, TARGET/FILENAME with --target */
    assert_int_equal(import(&rs, doc, "t", VDC_GROUP_MACHINE), 2);
    assert_string_equal(rs.runs[0]->target, "t//dev/xvdb");
    assert_string_equal(rs.runs[1]->target, "t//dev/xvdc");
    assert_int_equal(rs.runs[0]->repetition, 0);
    assert_string_equal(rs.runs[0]->samples[0]->workload->name, "image");
    vdc_result_set_dispose(&rs);
    /* label: a target per job, the workload named by its parameters, so
     * that the two compare */
    assert_int_equal(import(&rs, doc, NULL, VDC_GROUP_LABEL), 2);
    assert_string_equal(rs.runs[0]->target, "image");
    assert_string_equal(rs.runs[1]->target, "lvm");
    assert_string_equal(rs.runs[0]->samples[0]->workload->name, "randread-4k-qd32");
    assert_string_equal(rs.runs[0]->samples[0]->workload->job.name, "image");
    keys = vdc_result_set_test_keys(&rs, "lvm");
    assert_string_equal(keys[0], "workload_read@randread-4k-qd32");
    g_strfreev(keys);
    vdc_result_set_dispose(&rs);
    /* none: one run of --target holding both jobs */
    assert_int_equal(import(&rs, doc, "all", VDC_GROUP_NONE), 1);
    assert_int_equal(rs.runs[0]->n_samples, 2);
    vdc_result_set_dispose(&rs);
    /* a second file is the next repetition */
    vdc_result_set_init(&rs);
    assert_int_equal(vdc_import_data_grouped(&rs, doc, strlen(doc), "1.json", NULL, VDC_IMPORT_FIO,
                                             VDC_GROUP_LABEL), 2);
    assert_int_equal(vdc_import_data_grouped(&rs, doc, strlen(doc), "2.json", NULL, VDC_IMPORT_FIO,
                                             VDC_GROUP_LABEL), 2);
    assert_int_equal(rs.n_runs, 4);
    assert_string_equal(rs.runs[3]->target, "lvm");
    assert_int_equal(rs.runs[3]->repetition, 1);
    vdc_result_set_dispose(&rs);
}

/* A job fio reports failed (error 5) that moved no I/O: one failed sample
 * in the direction its rw asks for (randread: read), none in the other. */
static void
test_failed_job(void **state)
{
    static const char doc[] = DOC("\"rw\": \"randread\"",
        "{\"jobname\": \"bad\", \"groupid\": 0, \"error\": 5, \"job options\": {},"
        " \"read\": " DIR_NONE ", \"write\": " DIR_NONE ", \"trim\": " DIR_NONE ","
        " \"job_runtime\": 0, \"usr_cpu\": 0.0, \"sys_cpu\": 0.0}");
    vdc_result_set rs;

    assert_int_equal(import(&rs, doc, "t", VDC_GROUP_MACHINE), 1);
    assert_int_equal(rs.n_runs, 1);
    assert_int_equal(rs.runs[0]->n_samples, 1);
    assert_string_equal(sample(rs.runs[0], 0)->test, "workload_read");
    assert_string_equal(sample(rs.runs[0], 0)->workload->name, "bad");
    assert_true(sample(rs.runs[0], 0)->failed);
    vdc_result_set_dispose(&rs);
}

static void expect_error(const char *doc, const char *target, vdc_group_by g, const char *msg);

/* integers as fio reads them: a leading 0 is decimal, 0x is hex (fio
 * ran the job: its JSON is not refused for the spelling) */
static void
test_numbers(void **state)
{
    static const char doc[] = DOC("\"filename\": \"/dev/xvdb\"",
                                  JOB("n", "\"iodepth\": \"0x10\", \"iodepth_batch\": \"010\","
                                      " \"iodepth_batch_complete_min\": \"0X4\", \"numjobs\": \"0x1\"",
                                      DIR_READ, DIR_NONE));
    vdc_result_set rs;
    const vdc_workload *w;

    assert_int_equal(import(&rs, doc, "lvm", VDC_GROUP_MACHINE), 1);
    w = sample(rs.runs[0], 0)->workload;
    assert_int_equal(w->job.iodepth, 16);
    assert_int_equal(w->job.iodepth_batch_submit, 10);
    assert_int_equal(w->job.iodepth_batch_complete_min, 4);
    assert_int_equal(w->job.numjobs, 1);
    vdc_result_set_dispose(&rs);
    /* completion counts as fio's loop uses them: at most iodepth */
    {
        static const char big[] = DOC("\"filename\": \"/dev/xvdb\"",
                                      JOB("b", "\"iodepth\": \"8\", \"iodepth_batch_complete_min\": \"16\"",
                                          DIR_READ, DIR_NONE));

        assert_int_equal(import(&rs, big, "lvm", VDC_GROUP_MACHINE), 1);
        w = sample(rs.runs[0], 0)->workload;
        assert_int_equal(w->job.iodepth_batch_complete_min, 8);
        assert_int_equal(w->job.iodepth_batch_complete_max, 8);
        vdc_result_set_dispose(&rs);
    }
    expect_error(DOC("\"filename\": \"/dev/xvdb\"", JOB("n", "\"iodepth\": \"0x\"", DIR_READ, DIR_NONE)),
                 "t", VDC_GROUP_MACHINE, "vmdiskcmp: f.json: jobs[0].job options: iodepth=0x: expected a whole number\n");
}

static void
expect_error(const char *doc, const char *target, vdc_group_by g, const char *msg)
{
    vdc_result_set rs;
    char *err;

    capture_stderr_begin();
    assert_int_equal(import(&rs, doc, target, g), -1);
    err = capture_stderr_end();
    assert_string_equal(err, msg);
    assert_int_equal(rs.n_runs, 0);
    vdc_result_set_dispose(&rs);
    free(err);
}

static void
test_errors(void **state)
{
    expect_error(DOC("", JOB("j", "", DIR_READ, DIR_NONE)), NULL, VDC_GROUP_MACHINE,
                 "vmdiskcmp: f.json: jobs[0]: job 'j' names no filename (the device or file it "
                 "measured): expected --target NAME\n");
    expect_error(DOC("", JOB("j", "", DIR_NONE, DIR_NONE)), "t", VDC_GROUP_MACHINE,
                 "vmdiskcmp: f.json: jobs[0]: job 'j' did no read or write I/O (total_ios 0): "
                 "expected a read, write or mixed job\n");
    expect_error(DOC("", ""), "t", VDC_GROUP_MACHINE,
                 "vmdiskcmp: f.json: jobs: expected a non-empty array of jobs\n");
}

static void
test_error_types(void **state)
{
    expect_error(DOC("\"iodepth\": 4", JOB("j", "", DIR_READ, DIR_NONE)), "t", VDC_GROUP_MACHINE,
                 "vmdiskcmp: f.json: global options.iodepth: expected a string\n");
    expect_error(DOC("", JOB("j", "\"rw\": \"trim\"", DIR_READ, DIR_NONE)), "t", VDC_GROUP_MACHINE,
                 "vmdiskcmp: f.json: jobs[0].job options: rw=trim: expected read, write, randread, "
                 "randwrite, rw, readwrite or randrw\n");
    expect_error(DOC("", JOB("j", "\"runtime\": \"2x\"", DIR_READ, DIR_NONE)), "t", VDC_GROUP_MACHINE,
                 "vmdiskcmp: f.json: jobs[0].job options: runtime=2x: expected a time (15, 15s, "
                 "500ms, 1m)\n");
    expect_error(DOC("", JOB("j", "\"iodepth\": \"0\"", DIR_READ, DIR_NONE)), "t", VDC_GROUP_MACHINE,
                 "vmdiskcmp: f.json: jobs[0]: expected an integer from 1 to 65536, found 0 (the "
                 "workload's job.iodepth)\n");
    expect_error("{\"fio version\": \"fio-3.33\", \"jobs\": [{\"jobname\": \"j\", \"read\": "
                 "{\"total_ios\": -1}}]}", "t", VDC_GROUP_MACHINE,
                 "vmdiskcmp: f.json: jobs[0].read.total_ios: expected a number >= 0\n");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mixed_job),
        cmocka_unit_test(test_groups),
        cmocka_unit_test(test_failed_job),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_error_types),
        cmocka_unit_test(test_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
