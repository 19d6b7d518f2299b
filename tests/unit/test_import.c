/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/import: the seeds' published numbers, written here by
 * hand from /work/shared/seeds (003: bonnie++ 1.03 tables with their CSV
 * lines; 002: bonnie 1.x tables), real bonnie++ 2.00a output, 1.96/1.97 CSV
 * lines, agent JSON, and every kind of bad input with its one-line
 * message.  Inputs: tests/golden/import/ (VDC_GOLDEN_DIR). */
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

#include "common/util.h"
#include "import/import.h"
#include "model/result.h"
#include "test_stderr.h"

#define TOO_FAST (-1.0)   /* "+++++" in the published table */
#define NO_CPU (-1.0)     /* "+++" */

/* One expected sample: value (or TOO_FAST) and %CP (or NO_CPU). */
typedef struct {
    const char *test;
    double value;
    double cpu;
} want_sample;

static vdc_result_set
import_ok(const char *file, const char *target, vdc_import_format fmt, int n_runs)
{
    vdc_result_set rs;
    char *path = g_build_filename(VDC_GOLDEN_DIR, file, NULL);

    vdc_result_set_init(&rs);
    assert_int_equal(vdc_import_file(&rs, path, target, fmt), n_runs);
    assert_int_equal(rs.n_runs, (size_t)n_runs);
    g_free(path);
    return rs;
}

static void
check_samples(const vdc_run *r, const want_sample *w, size_t n)
{
    size_t i;

    assert_int_equal(r->n_samples, n);
    for (i = 0; i < n; i++) {
        const vdc_sample *s = r->samples[i];

        assert_string_equal(s->test, w[i].test);
        assert_string_equal(s->unit, vdc_test_lookup(w[i].test)->unit);
        if (w[i].value == TOO_FAST) {
            /* never 0, never dropped: a sample without value, flagged */
            assert_true(s->too_fast);
            assert_false(vdc_has(s->value));
        } else {
            assert_false(s->too_fast);
            assert_true(vdc_has(s->value));
            assert_float_equal(s->value, w[i].value, 1e-9);
        }
        if (w[i].cpu == NO_CPU)
            assert_false(vdc_has(s->cpu_percent));
        else
            assert_float_equal(s->cpu_percent, w[i].cpu, 1e-9);
        assert_false(s->failed);
    }
}

/* seed 003, test 1: disk image, bonnie++ 1.03, table followed by CSV */
static void
test_seed003_image(void **state)
{
    static const want_sample w[] = {
        { "putc", 6065, 15 }, { "put_block", 70595, 37 }, { "rewrite", 20649, 2 },
        { "getc", 26878, 53 }, { "get_block", 57270, 0 }, { "seeks", 135.8, 0 },
        { "seq_create", 17008, 99 }, { "seq_stat", TOO_FAST, NO_CPU },
        { "seq_del", 26079, 90 }, { "ran_create", 16002, 94 },
        { "ran_stat", TOO_FAST, NO_CPU }, { "ran_del", 29094, 99 },
    };
    vdc_result_set rs = import_ok("seed003-image.txt", "image", VDC_IMPORT_AUTO, 1);
    const vdc_run *r = rs.runs[0];

    /* one run: the CSV line after the table is the same run, not a second */
    assert_string_equal(r->target, "image");
    assert_int_equal(r->repetition, 0);
    assert_string_equal(r->meta.hostname, "localhost.localdomain");   /* CSV: untruncated */
    assert_string_equal(r->meta.tool, "bonnie++ 1.03");               /* from the table */
    assert_int_equal(r->meta.file_size_mib, 2048);                   /* "2G" */
    assert_int_equal(r->meta.chunk_size, 8192);
    assert_int_equal(r->meta.files.number, 16);
    assert_string_equal(r->meta.per_char, "stdio");
    assert_string_equal(r->meta.source.format, "bonnie++-csv-1.03");
    assert_int_equal(r->meta.source.line, 9);
    assert_non_null(strstr(r->meta.source.file, "seed003-image.txt"));
    check_samples(r, w, G_N_ELEMENTS(w));
    assert_string_equal(rs.targets[0]->name, "image");
    /* the target's name says what it is (doc/importers.md, "Kinds and RAM") */
    assert_string_equal(rs.targets[0]->kind, "image");
    assert_string_equal(rs.targets[0]->provenance.kind, "its name says 'image'");
    vdc_result_set_dispose(&rs);
}

/* seed 003, test 2: LVM LV; and the worked example of the result model: per-char
 * output LV 34825 K/sec against image 6065 K/sec is a ratio of 5.74 */
static void
test_seed003_lvm(void **state)
{
    static const want_sample w[] = {
        { "putc", 34825, 92 }, { "put_block", 50898, 26 }, { "rewrite", 24833, 4 },
        { "getc", 35920, 69 }, { "get_block", 77594, 1 }, { "seeks", 137.9, 0 },
        { "seq_create", 15556, 92 }, { "seq_stat", TOO_FAST, NO_CPU },
        { "seq_del", 26198, 96 }, { "ran_create", 16281, 98 },
        { "ran_stat", TOO_FAST, NO_CPU }, { "ran_del", 28508, 100 },
    };
    vdc_result_set rs;
    char *path = g_build_filename(VDC_GOLDEN_DIR, "seed003-lvm.txt", NULL);
    char *path2 = g_build_filename(VDC_GOLDEN_DIR, "seed003-image.txt", NULL);
    vdc_sample_ref *lv, *img;
    size_t n1, n2;

    vdc_result_set_init(&rs);
    assert_int_equal(vdc_import_file(&rs, path, "lvm", VDC_IMPORT_AUTO), 1);
    assert_int_equal(vdc_import_file(&rs, path2, "image", VDC_IMPORT_AUTO), 1);
    check_samples(rs.runs[0], w, G_N_ELEMENTS(w));
    lv = vdc_result_set_lookup(&rs, "lvm", "putc", &n1);
    img = vdc_result_set_lookup(&rs, "image", "putc", &n2);
    assert_int_equal(n1, 1);
    assert_int_equal(n2, 1);
    assert_float_equal(lv[0].sample->value / img[0].sample->value, 5.74, 0.005);
    g_free(lv);
    g_free(img);
    g_free(path);
    g_free(path2);
    vdc_result_set_dispose(&rs);
}

/* seed 003, test 3: dom0, 10048M file */
static void
test_seed003_dom0(void **state)
{
    static const want_sample w[] = {
        { "putc", 38679, 94 }, { "put_block", 74047, 42 }, { "rewrite", 30272, 6 },
        { "getc", 40389, 84 }, { "get_block", 75538, 2 }, { "seeks", 138.7, 0 },
        { "seq_create", 13678, 88 }, { "seq_stat", TOO_FAST, NO_CPU },
        { "seq_del", 28937, 97 }, { "ran_create", 12704, 84 },
        { "ran_stat", TOO_FAST, NO_CPU }, { "ran_del", 26902, 94 },
    };
    vdc_result_set rs = import_ok("seed003-dom0.txt", "dom0", VDC_IMPORT_AUTO, 1);

    assert_string_equal(rs.runs[0]->meta.hostname, "dom0-host");
    assert_int_equal(rs.runs[0]->meta.file_size_mib, 10048);
    check_samples(rs.runs[0], w, G_N_ELEMENTS(w));
    vdc_result_set_dispose(&rs);
}

/* seed 002: the seven bonnie 1.x tables, "bonnie -s 256" (MB), %CPU with
 * one decimal, no file tests, no machine name */
static void
test_seed002(void **state)
{
    static const struct {
        const char *file;
        int mb;
        double v[12];   /* putc, %CPU, put_block, %CPU, ..., seeks, %CPU */
    } t[] = {
        { "seed002-hda3.txt", 256,
          { 14009, 99.3, 27171, 11.8, 5919, 3.6, 8902, 57.9, 26205, 10.4, 124.3, 0.4 } },
        { "seed002-hdc1.txt", 256,
          { 13992, 99.3, 22165, 10.1, 4543, 2.5, 12602, 82.9, 16431, 6.0, 160.1, 0.8 } },
        { "seed002-md0-chunk4k.txt", 256,
          { 13901, 98.9, 32703, 15.2, 13347, 9.1, 13180, 86.0, 39043, 17.0, 182.6, 1.1 } },
        { "seed002-md0-chunk32k.txt", 256,
          { 13905, 98.8, 32874, 14.8, 12834, 8.5, 13169, 86.7, 39357, 17.0, 230.6, 0.7 } },
        { "seed002-lv-stripes2-4k.txt", 256,
          { 13890, 98.5, 31386, 14.2, 6445, 3.7, 9758, 63.2, 17441, 7.5, 180.3, 0.7 } },
        { "seed002-lv-stripes2-32k.txt", 256,
          { 13891, 98.7, 32693, 15.2, 6503, 4.5, 10165, 65.9, 19506, 7.4, 247.9, 0.7 } },
        /* published as "56": imported as written (the post says 256) */
        { "seed002-lv-stripes1.txt", 56,
          { 13977, 99.1, 31341, 13.9, 7397, 4.5, 8848, 57.8, 26182, 14.3, 201.2, 1.2 } },
    };
    static const char *tests[] = { "putc", "put_block", "rewrite", "getc", "get_block", "seeks" };
    size_t i, j;

    for (i = 0; i < G_N_ELEMENTS(t); i++) {
        vdc_result_set rs = import_ok(t[i].file, "x", VDC_IMPORT_AUTO, 1);
        const vdc_run *r = rs.runs[0];
        want_sample w[6];

        for (j = 0; j < 6; j++) {
            w[j].test = tests[j];
            w[j].value = t[i].v[2 * j];
            w[j].cpu = t[i].v[2 * j + 1];
        }
        check_samples(r, w, 6);
        assert_int_equal(r->meta.file_size_mib, t[i].mb);
        assert_null(r->meta.hostname);
        if (i == 0) {
            /* the same run captured with bonnie's progress lines (2>&1)
             * and a machine name */
            vdc_result_set rs2 = import_ok("bonnie1.x-progress.txt", "x", VDC_IMPORT_AUTO, 1);

            check_samples(rs2.runs[0], w, 6);
            assert_string_equal(rs2.runs[0]->meta.hostname, "mandrake");
            assert_int_equal(rs2.runs[0]->meta.file_size_mib, 256);
            vdc_result_set_dispose(&rs2);
        }
        assert_string_equal(r->meta.tool, "bonnie 1.x");
        assert_string_equal(r->meta.per_char, "stdio");
        assert_string_equal(r->meta.source.format, "bonnie-1.x-table");
        assert_int_equal(r->meta.source.line, 4);
        vdc_result_set_dispose(&rs);
    }
}

/* real /usr/sbin/bonnie++ 2.00a output (-s 16 -r 8 -n 1): table with k
 * suffixes and latencies, then the 1.98 CSV line */
static void
test_bonnie200a(void **state)
{
    static const want_sample w[] = {
        { "putc", 1878, 99 }, { "put_block", TOO_FAST, NO_CPU }, { "rewrite", TOO_FAST, NO_CPU },
        { "getc", 2991, 99 }, { "get_block", TOO_FAST, NO_CPU }, { "seeks", TOO_FAST, NO_CPU },
        { "seq_create", TOO_FAST, NO_CPU }, { "seq_stat", TOO_FAST, NO_CPU },
        { "seq_del", TOO_FAST, NO_CPU }, { "ran_create", TOO_FAST, NO_CPU },
        { "ran_stat", TOO_FAST, NO_CPU }, { "ran_del", TOO_FAST, NO_CPU },
    };
    static const double lat[] = { 5662, 205, 118, 3657, 60, 8136, 404, 70, 288, 195, 48, 169 };
    vdc_result_set rs = import_ok("bonnie2.00a.txt", "host", VDC_IMPORT_AUTO, 1);
    const vdc_run *r = rs.runs[0];
    size_t i;

    check_samples(r, w, G_N_ELEMENTS(w));
    for (i = 0; i < 12; i++)
        assert_float_equal(r->samples[i]->latency_us, lat[i], 1e-9);
    assert_string_equal(r->meta.tool, "bonnie++ 2.00a");
    assert_string_equal(r->meta.source.format, "bonnie++-csv-1.98");
    assert_string_equal(r->meta.seed, "1796012906");
    assert_string_equal(r->meta.per_char, "syscall");
    assert_int_equal(r->meta.concurrency, 1);
    assert_int_equal(r->meta.file_size_mib, 16);
    assert_int_equal(r->meta.seeks, 8192);
    assert_int_equal(r->meta.seek_processes, 5);
    /* 2.00a's CSV never says; its table omits a default chunk: 8192 */
    assert_int_equal(r->meta.chunk_size, 8192);
    assert_int_equal(r->meta.files.number, 1);
    vdc_result_set_dispose(&rs);

    /* -s 16:4096 -n 1:4096:1024:2 -z 42: the table's file-test rates are
     * misprinted by 2.00a (1024 for 2034): the CSV values are kept */
    rs = import_ok("bonnie2.00a-n-dirs.txt", "host", VDC_IMPORT_AUTO, 1);
    r = rs.runs[0];
    assert_int_equal(r->meta.chunk_size, 4096);     /* from the table "16M:4k" */
    assert_int_equal(r->meta.files.max_size, 4096);
    assert_int_equal(r->meta.files.min_size, 1024);
    assert_int_equal(r->meta.files.dirs, 2);        /* one field late in 2.00a's CSV */
    assert_string_equal(r->meta.seed, "42");
    assert_float_equal(r->samples[9]->value, 2034, 1e-9);
    assert_float_equal(r->samples[11]->value, 1109, 1e-9);
    assert_float_equal(r->samples[11]->cpu_percent, 3, 1e-9);
    vdc_result_set_dispose(&rs);
}

/* bon_csv2txt 2.00a prints "+++++" as "0k" beside "+++": too fast, not 0 */
static void
test_bon_csv2txt(void **state)
{
    static const want_sample w[] = {
        { "putc", 981, 37 }, { "put_block", TOO_FAST, NO_CPU }, { "rewrite", TOO_FAST, NO_CPU },
        { "getc", 1506, 40 }, { "get_block", TOO_FAST, NO_CPU }, { "seeks", TOO_FAST, NO_CPU },
        { "seq_create", TOO_FAST, NO_CPU }, { "seq_stat", TOO_FAST, NO_CPU },
        { "seq_del", TOO_FAST, NO_CPU }, { "ran_create", TOO_FAST, NO_CPU },
        { "ran_stat", TOO_FAST, NO_CPU }, { "ran_del", TOO_FAST, NO_CPU },
    };
    vdc_result_set rs = import_ok("bon_csv2txt-2.00a.txt", "q", VDC_IMPORT_TABLE, 1);

    check_samples(rs.runs[0], w, G_N_ELEMENTS(w));
    assert_float_equal(rs.runs[0]->samples[0]->latency_us, 143000, 1e-9);   /* 143ms */
    assert_string_equal(rs.runs[0]->meta.hostname, "vdctest");
    assert_string_equal(rs.runs[0]->meta.source.format, "bonnie++-table");
    vdc_result_set_dispose(&rs);
    /* the CSV it was made from: the same values */
    rs = import_ok("bonnie2.00a-q.csv", "q", VDC_IMPORT_CSV, 1);
    check_samples(rs.runs[0], w, G_N_ELEMENTS(w));
    vdc_result_set_dispose(&rs);
}

static void
test_csv196(void **state)
{
    vdc_result_set rs = import_ok("bonnie1.96.csv", "t", VDC_IMPORT_CSV, 2);
    const vdc_run *a = rs.runs[0], *b = rs.runs[1];

    assert_string_equal(a->meta.source.format, "bonnie++-csv-1.96");
    assert_string_equal(a->meta.tool, "bonnie++ 1.96");
    assert_string_equal(a->meta.hostname, "db1");
    assert_int_equal(a->meta.file_size_mib, 4096);
    assert_int_equal(a->meta.chunk_size, 8192);
    assert_int_equal(a->meta.files.number, 16);
    assert_int_equal(a->n_samples, 12);
    assert_float_equal(a->samples[0]->value, 65687, 1e-9);
    assert_float_equal(a->samples[5]->value, 396.7, 1e-9);
    assert_float_equal(a->samples[5]->cpu_percent, 11, 1e-9);
    assert_float_equal(a->samples[2]->latency_us, 190000, 1e-9);   /* 190ms */
    assert_true(a->samples[6]->too_fast);
    /* two machines: two targets (--target t is their prefix), never one */
    assert_string_equal(a->target, "t/db1");
    assert_string_equal(b->target, "t/db2");
    assert_int_equal(a->repetition, 0);
    assert_int_equal(b->repetition, 0);
    assert_string_equal(b->meta.tool, "bonnie++ 1.97");
    assert_int_equal(b->meta.concurrency, 2);
    assert_int_equal(b->meta.chunk_size, 16384);
    assert_int_equal(b->meta.files.max_size, 65536);
    assert_int_equal(b->meta.files.dirs, 8);
    assert_float_equal(b->samples[0]->latency_us, 2e6, 1e-9);       /* 2s */
    assert_float_equal(b->samples[2]->latency_us, 1.2e6, 1e-9);     /* 1200ms */
    assert_int_equal(b->meta.source.line, 4);
    vdc_result_set_dispose(&rs);
}

/* a 1.96 report (Concurrency line, K/sec header, latencies) claimed by its
 * CSV line; a 1.03 report of two runs (-x 2) with -n 16:102400:0:1024 and
 * no CSV lines: each file row belongs to the IO row above it */
static void
test_tables_196_103(void **state)
{
    vdc_result_set rs = import_ok("bonnie1.96-table.txt", "db", VDC_IMPORT_AUTO, 1);
    const vdc_run *r = rs.runs[0];

    assert_string_equal(r->meta.source.format, "bonnie++-csv-1.96");
    assert_int_equal(r->meta.source.line, 13);
    assert_int_equal(r->n_samples, 12);
    assert_float_equal(r->samples[1]->value, 233829, 1e-9);
    assert_float_equal(r->samples[5]->latency_us, 154000, 1e-9);
    vdc_result_set_dispose(&rs);

    rs = import_ok("bonnie1.03-files.txt", "u", VDC_IMPORT_TABLE, 2);
    r = rs.runs[1];
    assert_string_equal(r->meta.source.format, "bonnie++-table");
    assert_string_equal(r->meta.tool, "bonnie++ 1.03");
    assert_int_equal(r->meta.source.line, 15);
    assert_int_equal(r->repetition, 1);
    assert_int_equal(r->meta.files.number, 16);
    assert_int_equal(r->meta.files.max_size, 102400);
    assert_int_equal(r->meta.files.min_size, 0);
    assert_int_equal(r->meta.files.dirs, 1024);
    assert_int_equal(r->meta.file_size_mib, 1024);
    assert_int_equal(r->n_samples, 12);
    assert_float_equal(r->samples[0]->value, 30987, 1e-9);   /* second run's putc */
    assert_float_equal(r->samples[8]->value, 1888, 1e-9);    /* its seq_del */
    assert_float_equal(rs.runs[0]->samples[8]->value, 2210, 1e-9);
    vdc_result_set_dispose(&rs);
}

/* our agent's CSV names itself in field 2; its table says "Version 0.1.0"
 * under 1.98's layout: neither is called bonnie++ */
static void
test_agent_text(void **state)
{
    vdc_result_set rs = import_ok("agent-0.1.0.csv", "vm", VDC_IMPORT_AUTO, 1);

    assert_string_equal(rs.runs[0]->meta.tool, "vmdiskcmp-agent 0.1.0");
    assert_null(rs.runs[0]->meta.per_char);
    assert_string_equal(rs.runs[0]->meta.seed, "42");
    assert_float_equal(rs.runs[0]->samples[0]->value, 1115, 1e-9);
    assert_float_equal(rs.runs[0]->samples[6]->value, 617, 1e-9);     /* seq_create */
    vdc_result_set_dispose(&rs);
    rs = import_ok("agent-0.1.0-table.txt", "vm", VDC_IMPORT_AUTO, 1);
    assert_string_equal(rs.runs[0]->meta.tool, "bonnie++-compatible (Version 0.1.0)");
    assert_float_equal(rs.runs[0]->samples[6]->value, 1360, 1e-9);    /* not misprinted */
    vdc_result_set_dispose(&rs);
}

static void
test_agent_json(void **state)
{
    vdc_result_set rs = import_ok("agent-example.json", NULL, VDC_IMPORT_AUTO, 1);

    assert_string_equal(rs.runs[0]->target, "xvdb");   /* kept without --target */
    assert_string_equal(rs.runs[0]->meta.source.format, "vmdiskcmp-agent-json");
    assert_true(rs.runs[0]->samples[1]->too_fast);
    assert_float_equal(rs.runs[0]->samples[1]->value, 2345.6, 1e-9);
    vdc_result_set_dispose(&rs);
    rs = import_ok("agent-example.json", "image", VDC_IMPORT_JSON, 1);
    assert_string_equal(rs.runs[0]->target, "image");
    assert_string_equal(rs.targets[0]->name, "image");
    vdc_result_set_dispose(&rs);
}

/* several files into one set: repetitions numbered per target */
static void
test_accumulate(void **state)
{
    vdc_result_set rs;
    char *a = g_build_filename(VDC_GOLDEN_DIR, "seed003-image.txt", NULL);
    char *b = g_build_filename(VDC_GOLDEN_DIR, "bonnie2.00a.txt", NULL);

    vdc_result_set_init(&rs);
    assert_int_equal(vdc_import_file(&rs, a, "image", VDC_IMPORT_AUTO), 1);
    assert_int_equal(vdc_import_file(&rs, b, "image", VDC_IMPORT_AUTO), 1);
    assert_int_equal(vdc_import_file(&rs, a, "lvm", VDC_IMPORT_TEXT), 1);
    assert_int_equal(rs.n_runs, 3);
    assert_int_equal(rs.runs[1]->repetition, 1);
    assert_int_equal(rs.runs[2]->repetition, 0);
    assert_int_equal(rs.n_targets, 2);
    g_free(a);
    g_free(b);
    vdc_result_set_dispose(&rs);
}

/* Bad input: -1, exactly @msg (one line), and @rs unchanged. */
static void
expect_bad(const char *data, size_t len, vdc_import_format fmt, const char *msg)
{
    vdc_result_set rs;
    char *err;
    int rc;

    vdc_result_set_init(&rs);
    vdc_result_set_add_run(&rs, "before");
    capture_stderr_begin();
    rc = vdc_import_data(&rs, data, len, "bad.txt", "t", fmt);
    err = capture_stderr_end();
    if (rc != -1)
        print_message("accepted, expected: %s", msg);
    assert_int_equal(rc, -1);
    if (msg[strlen(msg) - 1] == '*')
        assert_memory_equal(err, msg, strlen(msg) - 1);
    else
        assert_string_equal(err, msg);
    assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);
    assert_int_equal(rs.n_runs, 1);      /* nothing imported from that file */
    assert_int_equal(rs.n_targets, 0);
    free(err);
    vdc_result_set_dispose(&rs);
}

#define BAD(s, fmt, msg) expect_bad(s, sizeof(s) - 1, fmt, msg)

#define CSV103 "localhost.localdomain,2G,6065,15,70595,37,20649,2,26878,53,57270,0,135.8,0," \
               "16,17008,99,+++++,+++,26079,90,16002,94,+++++,+++,29094,99"
#define TABLE103 \
    "Version 1.03 ------Sequential Output------ --Sequential Input- --Random-\n" \
    "-Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n" \
    "Machine Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP /sec %CP\n" \
    "localhost.locald 2G 6065 15 70595 37 20649 2 26878 53 57270 0 135.8 0\n"

static void
test_bad_inputs(void **state)
{
    static const char nul[] = "1.98,2.00a\0junk\n";

    /* empty, blank */
    BAD("", VDC_IMPORT_AUTO, "vmdiskcmp: bad.txt:1: empty file: expected agent JSON, "
        "bonnie++ CSV lines, a bonnie/bonnie++ table or a dd transcript\n");
    BAD("\n\n", VDC_IMPORT_AUTO, "vmdiskcmp: bad.txt:2: no results found: expected bonnie++ "
        "CSV lines, a bonnie/bonnie++ table or a dd transcript\n");
    /* wrong field count */
    BAD("a,2G,1,2,3,4,5,6,7,8,9,10,11,12,16,1,2,3,4,5,6,7,8,9,10,11\n", VDC_IMPORT_AUTO,
        "vmdiskcmp: bad.txt:1: expected a bonnie++ CSV line with 27 fields (1.03), 48 "
        "(1.96/1.97) or 50 (1.98), found 26 fields\n");
    BAD("1.98,2.00a,h,1,42,16M,,8192,5,1,2,3,4,5,6,7,8,9,10,11,12,1,,,,,1,2\n", VDC_IMPORT_AUTO,
        "vmdiskcmp: bad.txt:1: bonnie++ CSV format 1.98: expected 50 fields, found 28\n");
    /* unknown format version */
    BAD("1.99,2.01,h,1,42,16M,,8192,5,1,2,3,4,5,6,7,8,9,10,11,12,1,,,,,1,2\n", VDC_IMPORT_AUTO,
        "vmdiskcmp: bad.txt:1: unknown bonnie++ CSV format version '1.99': expected 1.96, "
        "1.97 or 1.98 in field 1, or a 27-field bonnie++ 1.0x line\n");
    /* non-numeric value, %CP, size, latency */
    BAD("h,2G,6065,15,70595,37,2o649,2,26878,53,57270,0,135.8,0,16,1,1,1,1,1,1,1,1,1,1,1,1\n",
        VDC_IMPORT_AUTO, "vmdiskcmp: bad.txt:1: CSV field 7 (rewrite): expected a number or "
        "'+++++', found '2o649'\n");
    BAD("h,2G,6065,15,70595,x,1,2,26878,53,57270,0,135.8,0,16,1,1,1,1,1,1,1,1,1,1,1,1\n",
        VDC_IMPORT_AUTO, "vmdiskcmp: bad.txt:1: CSV field 6 (put_block %CP): expected a "
        "number or '+++', found 'x'\n");
    BAD("h,-2G,6065,15,70595,3,1,2,26878,53,57270,0,135.8,0,16,1,1,1,1,1,1,1,1,1,1,1,1\n",
        VDC_IMPORT_AUTO, "vmdiskcmp: bad.txt:1: CSV field 2 (file_size): expected a size such "
        "as 2G, 10048M or 2G:16k, found '-2G'\n");
    BAD("h,2G,-6065,15,70595,3,1,2,26878,53,57270,0,135.8,0,16,1,1,1,1,1,1,1,1,1,1,1,1\n",
        VDC_IMPORT_AUTO, "vmdiskcmp: bad.txt:1: CSV field 3 (putc): expected a number or "
        "'+++++', found '-6065'\n");
    BAD("1.98,2.00a,h,1,42,16M,,8192,5,1878,99,+++++,+++,+++++,+++,2991,99,+++++,+++,+++++,+++,"
        "1,,,,,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,+++++,+++,"
        "5662xs,205us,118us,3657us,60us,8136us,404us,70us,288us,195us,48us,169us\n",
        VDC_IMPORT_AUTO, "vmdiskcmp: bad.txt:1: CSV field 39 (putc latency): expected a number "
        "with unit us, ms or s, found '5662xs'\n");
    BAD("h,2G,nan,15,70595,3,1,2,26878,53,57270,0,135.8,0,16,1,1,1,1,1,1,1,1,1,1,1,1\n",
        VDC_IMPORT_AUTO, "vmdiskcmp: bad.txt:1: CSV field 3 (putc): expected a number or "
        "'+++++', found 'nan'\n");
    BAD("h,2G,1e9,15,70595,3,1,2,26878,53,57270,0,135.8,0,16,1,1,1,1,1,1,1,1,1,1,1,1\n",
        VDC_IMPORT_AUTO, "vmdiskcmp: bad.txt:1: CSV field 3 (putc): expected a number or "
        "'+++++', found '1e9'\n");
    /* truncated: a CSV line cut short, a table without its data row,
     * a table row cut short */
    BAD(CSV103 "\n" "localhost.localdomain,2G,6065,15,70595,37,20649,2,26878,53,57270,0,135",
        VDC_IMPORT_AUTO, "vmdiskcmp: bad.txt:2: expected a bonnie++ CSV line with 27 fields "
        "(1.03), 48 (1.96/1.97) or 50 (1.98), found 13 fields\n");
    BAD("Version 1.03 ------Sequential Output------ --Sequential Input- --Random-\n"
        "-Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
        "Machine Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP /sec %CP\n",
        VDC_IMPORT_AUTO, "vmdiskcmp: bad.txt:3: the table header at line 1 has no data row: "
        "expected the results line (file truncated?)\n");
    BAD("Version 1.03 ------Sequential Output------ --Sequential Input- --Random-\n"
        "-Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
        "Machine Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP /sec %CP\n"
        "localhost.locald 2G 6065 15 70595 37 20649 2\n",
        VDC_IMPORT_AUTO, "vmdiskcmp: bad.txt:4: this row has 6 value columns where 12 are "
        "expected: a blank column (bonnie++ -f) cannot be placed once blanks are collapsed: "
        "expected the row as bonnie++ printed it, or the CSV line bonnie++ prints after the "
        "table\n");
    BAD("  256 14009 99.3 27171 11.8  5919  3.6  8902 57.9 26205 10.4 124.3  0.4\n",
        VDC_IMPORT_AUTO, "vmdiskcmp: bad.txt:1: this looks like a table row, but no column "
        "header (Machine ... K/sec %CP ...) is above it: expected a bonnie++ CSV line, a whole "
        "bonnie/bonnie++ table or a dd transcript\n");
    /* a table and the CSV line that follows it disagree */
    BAD(TABLE103 "localhost.localdomain,2G,6066,15,70595,37,20649,2,26878,53,57270,0,135.8,0"
        ",,,,,,,,,,,,,\n", VDC_IMPORT_AUTO,
        "vmdiskcmp: bad.txt:5: this CSV line disagrees with the table at line 4 on putc "
        "(6065 15%CP vs 6066 15%CP): expected the CSV line of that table\n");
    /* binary junk, invalid UTF-8 */
    expect_bad(nul, sizeof(nul) - 1, VDC_IMPORT_AUTO,
               "vmdiskcmp: bad.txt:1: expected text, found binary data (byte 0x00)\n");
    BAD("\x7f" "ELF\x02\x01\x01", VDC_IMPORT_AUTO,
        "vmdiskcmp: bad.txt:1: expected text, found binary data (byte 0x7f)\n");
    BAD("h\xff\xfe,2G\n", VDC_IMPORT_AUTO,
        "vmdiskcmp: bad.txt:1: expected UTF-8 text, found invalid bytes\n");
    /* prose alone is skipped, and is no result */
    BAD("I ran bonnie and it was fast.\n", VDC_IMPORT_AUTO,
        "vmdiskcmp: bad.txt:1: no results found: expected bonnie++ CSV lines, a "
        "bonnie/bonnie++ table or a dd transcript\n");
    /* format restrictions */
    BAD(TABLE103, VDC_IMPORT_CSV, "vmdiskcmp: bad.txt:1: expected a bonnie++ CSV line (27, "
        "47, 48 or 50 fields) or a blank line (--format csv)\n");
    BAD(CSV103 "\n", VDC_IMPORT_TABLE, "vmdiskcmp: bad.txt:1: expected a bonnie/bonnie++ "
        "table line, found a CSV line (--format table)\n");
    /* JSON with wrong types, paths named */
    BAD("{\"format\":\"vmdiskcmp-result\",\"format_version\":1,\"producer\":{\"name\":\"a\","
        "\"version\":\"1\"},\"runs\":[{\"target\":\"x\",\"samples\":[{\"test\":\"putc\","
        "\"value\":1,\"cpu_percent\":\"99\"}]}]}", VDC_IMPORT_AUTO,
        "vmdiskcmp: bad.txt: runs[0].samples[0].cpu_percent: expected a number or null\n");
    BAD("{\"format\":\"vmdiskcmp-result\",\"format_version\":1,\"producer\":{\"name\":\"a\","
        "\"version\":\"1\"},\"runs\":[{\"target\":7,\"samples\":[]}]}", VDC_IMPORT_AUTO,
        "vmdiskcmp: bad.txt: runs[0].target: expected a string\n");
    BAD("{\"format\":\"vmdiskcmp-result\",\"format_version\":1,\"producer\":{\"name\":\"a\","
        "\"version\":\"1\"},\"runs\":[]}", VDC_IMPORT_AUTO,
        "vmdiskcmp: bad.txt: runs: expected at least one run, found none\n");
    BAD("{\"format\":\"vmdiskcmp-result\",", VDC_IMPORT_AUTO,
        "vmdiskcmp: bad.txt:1:*");
    BAD(CSV103, VDC_IMPORT_JSON, "vmdiskcmp: bad.txt:1:*");
}

/* a text run is named by its machine; without one (bonnie 1.x prints
 * none) and without a label line, --target is needed */
static void
test_needs_target(void **state)
{
    static const char b1[] =
        "Machine MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU\n"
        "       256 14009 99.3 27171 11.8  5919  3.6  8902 57.9 26205 10.4 124.3  0.4\n";
    vdc_result_set rs;
    char *err;

    vdc_result_set_init(&rs);
    assert_int_equal(vdc_import_data(&rs, CSV103, strlen(CSV103), "a.csv", NULL,
                                     VDC_IMPORT_AUTO), 1);
    assert_string_equal(rs.runs[0]->target, "localhost.localdomain");
    capture_stderr_begin();
    assert_int_equal(vdc_import_data(&rs, b1, strlen(b1), "b.txt", NULL, VDC_IMPORT_AUTO), -1);
    err = capture_stderr_end();
    assert_string_equal(err, "vmdiskcmp: b.txt:2: this run names no machine and no label line "
                        "precedes it: expected --target NAME or a label line above it\n");
    free(err);
    assert_int_equal(rs.n_runs, 1);
    vdc_result_set_dispose(&rs);
}

/* A result with level records imported with --target: its runs all
 * become the target's, its level records (each of a target and a
 * repetition of the document) are dropped, and the set is one the loader
 * reads back (a level naming a target no run has is refused); without
 * --target they are kept. */
static void
test_json_levels_retargeted(void **state)
{
    g_autofree char *path = g_build_filename(VDC_GOLDEN_DIR, "..", "report", "density", "result.json", NULL);
    g_autofree char *out = NULL;
    vdc_result_set rs, back;
    size_t len, i;

    (void)state;
    vdc_result_set_init(&rs);
    assert_true(vdc_import_file(&rs, path, NULL, VDC_IMPORT_JSON) > 0);
    assert_true(rs.experiment.n_levels > 0);
    vdc_result_set_dispose(&rs);
    vdc_result_set_init(&rs);
    assert_true(vdc_import_file(&rs, path, "all", VDC_IMPORT_JSON) > 0);
    assert_int_equal(rs.experiment.n_levels, 0);
    for (i = 0; i < rs.n_runs; i++)
        assert_string_equal(rs.runs[i]->target, "all");
    out = vdc_result_set_to_string(&rs, &len);
    vdc_result_set_init(&back);
    assert_int_equal(vdc_result_set_load_data(&back, out, len, "out.json"), 0);
    assert_int_equal(back.n_runs, rs.n_runs);
    vdc_result_set_dispose(&back);
    vdc_result_set_dispose(&rs);
}

/* What `import -o OUT` may replace: only an earlier import's output (every
 * run with its metadata.source), whatever its experiment; never measured
 * data (a run's result, the agent's, a merge of runs without sources), a
 * report.json, a run half imported, or anything else. */
static void
test_output_refusal(void **state)
{
#define DOC(prod, extra, runs) "{\"format\":\"vmdiskcmp-result\",\"format_version\":1,\"producer\":" \
        "{\"name\":\"" prod "\",\"version\":\"0.1.0\"}," extra "\"runs\":[" runs "]}"
#define SRC "{\"target\":\"t\",\"metadata\":{\"source\":{\"file\":\"a.txt\",\"line\":4,\"format\":\"dd\"}}," \
        "\"samples\":[]}"
#define BARE "{\"target\":\"t\",\"metadata\":{},\"samples\":[]}"
    static const struct {
        const char *doc, *why;     /* why NULL: may be replaced */
    } cases[] = {
        { DOC("vmdiskcmp", "", SRC "," SRC), NULL },
        { DOC("vmdiskcmp", "\"experiment\":{\"id\":\"e1\"},", SRC), NULL },
        { DOC("vmdiskcmp", "\"experiment\":{\"id\":\"e1\"},", BARE "," BARE),
          "the result of a vmdiskcmp run (experiment e1): measured data, not an import's output" },
        { DOC("vmdiskcmp", "\"experiment\":{\"id\":\"e1\"},", SRC "," BARE),
          "the result of a vmdiskcmp run (experiment e1): measured data, not an import's output" },
        { DOC("vmdiskcmp", "", SRC "," BARE),
          "a result whose runs[1] was not imported (it has no metadata.source): not an import's output" },
        { DOC("vmdiskcmp", "", ""), "a result without runs, not an import's output" },
        { DOC("vmdiskcmp-agent", "", SRC), "a result written by vmdiskcmp-agent, not by an import: measured data" },
        { DOC("vmdiskcmp", "\"statistics\":{},", SRC),
          "a report's report.json (it has \"statistics\"), not an import's output" },
        { "{\"format\":\"vmdiskcmp-result\",\"producer\":[],\"runs\":[" SRC "]}",
          "a result written by an unnamed producer, not by an import: measured data" },
        { "{\"format\":{},\"runs\":[]}", "not a vmdiskcmp result document" },
        { "my notes\n", "not a vmdiskcmp result document" },
        { "", "not a vmdiskcmp result document" },
    };
    size_t i;

    (void)state;
    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *why = vdc_import_output_refusal(cases[i].doc, strlen(cases[i].doc));

        if (!cases[i].why && why)
            fail_msg("case %zu: refused: %s", i, why);
        if (cases[i].why && (!why || strcmp(why, cases[i].why)))
            fail_msg("case %zu: expected \"%s\", got \"%s\"", i, cases[i].why, why ? why : "(replaced)");
    }
    {
        /* nested deeper than json-glib should recurse: never parsed */
        g_autofree char *lb = g_strnfill(100000, '['), *rb = g_strnfill(100000, ']');
        g_autofree char *deep = g_strconcat(lb, rb, NULL);
        g_autofree char *why = vdc_import_output_refusal(deep, strlen(deep));

        assert_string_equal(why, "not a vmdiskcmp result document");
    }
#undef DOC
#undef SRC
#undef BARE
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed003_image),
        cmocka_unit_test(test_seed003_lvm),
        cmocka_unit_test(test_seed003_dom0),
        cmocka_unit_test(test_seed002),
        cmocka_unit_test(test_bonnie200a),
        cmocka_unit_test(test_bon_csv2txt),
        cmocka_unit_test(test_csv196),
        cmocka_unit_test(test_tables_196_103),
        cmocka_unit_test(test_agent_text),
        cmocka_unit_test(test_agent_json),
        cmocka_unit_test(test_accumulate),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_needs_target),
        cmocka_unit_test(test_json_levels_retargeted),
        cmocka_unit_test(test_output_refusal),
    };
    /* the progress lines saying what each target is are checked by
     * test_described (test_import_shapes.c); here stderr holds the
     * messages and warnings only */
    vdc_set_quiet(1);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
