/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for what people publish, as they paste it: dd transcripts in
 * every coreutils wording (built here with dd's own printf formats, from
 * coreutils src/dd.c and its po/ translations), the shell's time output,
 * groups of machines and label lines, bonnie++ -f tables with blank
 * columns, mailer-wrapped rows, table/CSV conflicts, bonnie++ 1.96's -s 0
 * CSV and 2.00a's misprinted file block.  Every expected value is worked
 * out here from the numbers put into the input; seed 004 is read from
 * tests/golden/import/seed004-dd.txt (VDC_GOLDEN_DIR). */
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

#define MIB 1048576.0

/* Import @text; expect @n runs; stderr must be empty unless @warning
 * (then it must contain it). */
static vdc_result_set
import_text(const char *text, const char *target, vdc_import_format fmt, vdc_group_by g,
            int n, const char *warning)
{
    vdc_result_set rs;
    char *err;
    int rc;

    vdc_result_set_init(&rs);
    capture_stderr_begin();
    rc = vdc_import_data_grouped(&rs, text, strlen(text), "page.txt", target, fmt, g);
    err = capture_stderr_end();
    if (rc != n)
        print_message("import gave %d, stderr: %s\n", rc, err);
    assert_int_equal(rc, n);
    if (warning)
        assert_non_null(strstr(err, warning));
    else
        assert_string_equal(err, "");
    free(err);
    return rs;
}

/* Import @text: must fail with exactly @msg and import nothing. */
static void
refuse(const char *text, const char *target, vdc_import_format fmt, const char *msg)
{
    vdc_result_set rs;
    char *err;

    vdc_result_set_init(&rs);
    capture_stderr_begin();
    assert_int_equal(vdc_import_data_grouped(&rs, text, strlen(text), "page.txt", target, fmt,
                                             VDC_GROUP_MACHINE), -1);
    err = capture_stderr_end();
    assert_string_equal(err, msg);
    assert_int_equal(rs.n_runs, 0);
    assert_int_equal(rs.n_targets, 0);
    free(err);
    vdc_result_set_dispose(&rs);
}

static const vdc_sample *
only_sample(const vdc_run *r, const char *test)
{
    assert_int_equal(r->n_samples, 1);
    assert_string_equal(r->samples[0]->test, test);
    return r->samples[0];
}

/* ---- dd ------------------------------------------------------------------------ */

/* seed 004: fileutils' dd (records only) under bash's time, on the raw
 * partition and the LV, bs 512 (dd's default), 8k, 16k, 32k */
static void
test_seed004(void **state)
{
    static const struct { const char *target; int64_t bs, records; double real, user, sys; } w[] = {
        { "/dev/sdc4", 512, 257040, 37.205, 0.840, 3.780 },
        { "/dev/vg1/test", 512, 253952, 2 * 60 + 52.368, 1.330, 12.390 },
        { "/dev/vg1/test", 8192, 15872, 43.501, 0.050, 4.600 },
        { "/dev/vg1/test", 16384, 7936, 40.806, 0.070, 4.290 },
        { "/dev/vg1/test", 32768, 3968, 38.777, 0.030, 4.290 },
    };
    vdc_result_set rs;
    char *path = g_build_filename(VDC_GOLDEN_DIR, "seed004-dd.txt", NULL);
    size_t i;

    vdc_result_set_init(&rs);
    assert_int_equal(vdc_import_file(&rs, path, NULL, VDC_IMPORT_AUTO), 5);
    assert_int_equal(rs.n_targets, 2);
    for (i = 0; i < G_N_ELEMENTS(w); i++) {
        const vdc_run *r = rs.runs[i];
        const vdc_sample *s = only_sample(r, "dd_read");
        double bytes = (double)(w[i].records * w[i].bs);

        assert_string_equal(r->target, w[i].target);
        assert_string_equal(r->meta.device, w[i].target);
        assert_string_equal(r->meta.tool, "dd");
        assert_string_equal(r->meta.source.format, "dd-records");
        assert_int_equal(s->block_size, w[i].bs);
        assert_int_equal(s->ops, w[i].records);
        assert_int_equal(s->bytes, w[i].records * w[i].bs);
        /* no dd time (fileutils printed none): the rate is over real */
        assert_false(vdc_has(s->elapsed_s));
        assert_float_equal(s->real_s, w[i].real, 1e-9);
        assert_float_equal(s->user_s, w[i].user, 1e-9);
        assert_float_equal(s->system_s, w[i].sys, 1e-9);
        assert_float_equal(s->value, bytes / w[i].real / MIB, 1e-9);
        assert_float_equal(s->system_us_per_op, w[i].sys * 1e6 / (double)w[i].records, 1e-9);
        assert_float_equal(s->cpu_percent, 100 * (w[i].user + w[i].sys) / w[i].real, 1e-9);
        assert_int_equal(r->meta.direct_io, 0);
    }
    /* the author's comparison: 3.780 s / 257,040 = 14.7 us against
     * 12.390 s / 253,952 = 48.8 us per 512-byte block, 34.1 us more */
    assert_float_equal(rs.runs[0]->samples[0]->system_us_per_op, 14.706, 0.001);
    assert_float_equal(rs.runs[1]->samples[0]->system_us_per_op, 48.789, 0.001);
    assert_float_equal(rs.runs[1]->samples[0]->system_us_per_op -
                       rs.runs[0]->samples[0]->system_us_per_op, 34.08, 0.01);
    assert_int_equal(rs.runs[1]->repetition, 0);
    assert_int_equal(rs.runs[4]->repetition, 3);
    g_free(path);
    vdc_result_set_dispose(&rs);
}

/* human_readable (coreutils, human_autoscale | human_round_to_nearest |
 * human_SI | human_B, human_space_before_unit): one decimal below 10, none
 * from 10 on; @dp is the locale's decimal point */
static void
human(char *buf, size_t n, double x, double base, char dp)
{
    static const char *const si[] = { "B", "kB", "MB", "GB", "TB" };
    static const char *const iec[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    int k = 0;
    char *p;

    while (k < 4 && x >= base) {
        x /= base;
        k++;
    }
    if (k && x < 10)
        snprintf(buf, n, "%.1f %s", x, base == 1000 ? si[k] : iec[k]);
    else
        snprintf(buf, n, "%.0f %s", x, base == 1000 ? si[k] : iec[k]);
    if ((p = strchr(buf, '.')))
        *p = dp;
}

/* %g with the locale's decimal point */
static void
g_fmt(char *buf, size_t n, double x, char dp)
{
    char *p;

    snprintf(buf, n, "%g", x);
    if ((p = strchr(buf, '.')))
        *p = dp;
}

/* One dd run written in each wording, then imported: value = bytes / dd's
 * seconds, the block size from bs=, the sizes and rate checked. */
static void
test_dd_wordings(void **state)
{
    static const struct {
        const char *records_in, *records_out;   /* "%ju+%ju WORDS" */
        const char *bytes_fmt;                  /* %jd, SI, [IEC] */
        int with_iec;
        const char *time_fmt;                   /* ", %s UNIT, %s/s" */
        const char *rate_per;                   /* "s", or Hungarian "mp" */
        char dp;
        const char *format;
    } w[] = {
        /* 5.3 - 6.0: ", %g seconds, %s/s" */
        { "records in", "records out", "%jd bytes (%s) copied", 0, ", %s seconds, %s/%s", "s",
          '.', "dd-coreutils-5.3" },
        /* 6.1 - 8.24: ", %g s, %s/s" */
        { "records in", "records out", "%jd bytes (%s) copied", 0, ", %s s, %s/%s", "s", '.',
          "dd-coreutils-5.3" },
        /* 8.25 on: "%jd bytes (%s, %s) copied, %s, %s" */
        { "records in", "records out", "%jd bytes (%s, %s) copied", 1, ", %s s, %s/%s", "s", '.',
          "dd-coreutils-8.25" },
        /* po/de.po: "Datensätze ein/aus", "Bytes (%s) kopiert", ", %g Sekunde, %s/s" */
        { "Datensätze ein", "Datensätze aus", "%jd Bytes (%s) kopiert", 0,
          ", %s Sekunde, %s/%s", "s", ',', "dd-coreutils-5.3" },
        /* po/fr.po: "enregistrements lus/écrits", "octets (%s) copiés", "seconde" */
        { "enregistrements lus", "enregistrements écrits", "%jd octets (%s) copiés", 0,
          ", %s seconde, %s/%s", "s", ',', "dd-coreutils-5.3" },
        /* po/ru.po: "записей считано/написано", " скопировано %ju байт (%s)", "секунда" */
        { "записей считано", "записей написано", " скопировано %jd байт (%s)", 0,
          ", %s секунда, %s/%s", "s", ',', "dd-coreutils-5.3" },
        /* po/sv.po: "poster in/ut", "byte (%s) kopierade", "sekund" */
        { "poster in", "poster ut", "%jd byte (%s) kopierade", 0, ", %s sekund, %s/%s", "s",
          ',', "dd-coreutils-5.3" },
        /* po/hu.po: "beolvasott/kiírt rekord", "bájt (%s) másolva", "másodperc", "/mp" */
        { "beolvasott rekord", "kiírt rekord", "%jd bájt (%s) másolva", 0,
          ", %s másodperc, %s/%s", "mp", ',', "dd-coreutils-5.3" },
        /* 8.25 wording with a decimal comma (a translation keeping the
         * English words, e.g. nl: "records in") */
        { "records in", "records out", "%jd bytes (%s, %s) gekopieerd", 1, ", %s s, %s/%s", "s",
          ',', "dd-coreutils-8.25" },
    };
    /* bs=1M count=1000: 1048576000 bytes, "1.0 GB", "1000 MiB" */
    const int64_t bytes = 1048576000, records = 1000;
    const double secs[] = { 1.92275, 21.2264, 0.518263 };
    size_t i, k;

    for (i = 0; i < G_N_ELEMENTS(w); i++)
        for (k = 0; k < G_N_ELEMENTS(secs); k++) {
            char si[32], iec[32], t[32], rate[32], sizes[80], first[160], line[512], text[1024];
            vdc_result_set rs;
            const vdc_sample *s;

            human(si, sizeof(si), (double)bytes, 1000, w[i].dp);
            human(iec, sizeof(iec), (double)bytes, 1024, w[i].dp);
            human(rate, sizeof(rate), (double)bytes / secs[k], 1000, w[i].dp);
            g_fmt(t, sizeof(t), secs[k], w[i].dp);
            snprintf(sizes, sizeof(sizes), "%s", si);
            if (w[i].with_iec)
                snprintf(first, sizeof(first), w[i].bytes_fmt, (intmax_t)bytes, si, iec);
            else
                snprintf(first, sizeof(first), w[i].bytes_fmt, (intmax_t)bytes, sizes);
            snprintf(line, sizeof(line), "%s", first);
            snprintf(line + strlen(line), sizeof(line) - strlen(line), w[i].time_fmt, t, rate,
                     w[i].rate_per);
            snprintf(text, sizeof(text),
                     "$ dd if=/dev/zero of=/mnt/test bs=1M count=1000 conv=fdatasync\n"
                     "%jd+0 %s\n%jd+0 %s\n%s\n", (intmax_t)records, w[i].records_in,
                     (intmax_t)records, w[i].records_out, line);
            rs = import_text(text, NULL, VDC_IMPORT_AUTO, VDC_GROUP_MACHINE, 1, NULL);
            s = only_sample(rs.runs[0], "dd_write");
            assert_string_equal(rs.runs[0]->target, "/mnt/test");
            assert_string_equal(rs.runs[0]->meta.path, "/mnt/test");
            assert_string_equal(rs.runs[0]->meta.source.format, w[i].format);
            assert_string_equal(rs.runs[0]->meta.dd_conv, "fdatasync");
            assert_int_equal(rs.runs[0]->meta.direct_io, 0);
            assert_int_equal(s->block_size, 1048576);
            assert_int_equal(s->bytes, bytes);
            assert_int_equal(s->ops, records);
            assert_float_equal(s->elapsed_s, secs[k], 1e-9);
            assert_float_equal(s->value, (double)bytes / secs[k] / MIB, 1e-9);
            assert_false(vdc_has(s->real_s));      /* no time(1): absent, not 0 */
            assert_false(vdc_has(s->system_us_per_op));
            vdc_result_set_dispose(&rs);
        }
}

/* The forms of 8.25 for small counts, status=progress, and the shell's
 * time in its four layouts (and a decimal comma from bash) */
static void
test_dd_forms(void **state)
{
    vdc_result_set rs;
    const vdc_sample *s;

    /* under 1 kB: "%jd bytes copied, %s, %s"; dd's block size 512 */
    rs = import_text("# dd if=/dev/sda of=/dev/null count=1\n1+0 records in\n1+0 records out\n"
                     "512 bytes copied, 0.000123 s, 4.2 MB/s\n",
                     NULL, VDC_IMPORT_AUTO, VDC_GROUP_MACHINE, 1, NULL);
    s = only_sample(rs.runs[0], "dd_read");
    assert_int_equal(s->block_size, 512);
    assert_float_equal(s->value, 512 / 0.000123 / MIB, 1e-9);
    assert_string_equal(rs.runs[0]->meta.source.format, "dd-coreutils-8.25");
    vdc_result_set_dispose(&rs);
    /* the "(11 GB, 10 GiB)" form: sizes of 10 and more print no decimal */
    rs = import_text("dd if=/dev/zero of=/data/f bs=1G count=10\n10+0 records in\n10+0 records out\n"
                     "10737418240 bytes (11 GB, 10 GiB) copied, 21.2264 s, 506 MB/s\n",
                     NULL, VDC_IMPORT_AUTO, VDC_GROUP_MACHINE, 1, NULL);
    s = only_sample(rs.runs[0], "dd_write");
    assert_int_equal(s->block_size, 1073741824);
    assert_float_equal(s->value, 10737418240.0 / 21.2264 / MIB, 1e-9);
    vdc_result_set_dispose(&rs);
    /* "Infinity B/s": a zero time, too fast to measure */
    rs = import_text("dd if=/dev/zero of=f bs=1 count=1\n1+0 records in\n1+0 records out\n"
                     "1 byte copied, 0 s, Infinity B/s\n",
                     NULL, VDC_IMPORT_AUTO, VDC_GROUP_MACHINE, 1, NULL);
    s = only_sample(rs.runs[0], "dd_write");
    assert_true(s->too_fast);
    assert_false(vdc_has(s->value));
    vdc_result_set_dispose(&rs);
    /* status=progress lines before the records lines are not the result;
     * iflag=direct on a read is O_DIRECT; time -p */
    rs = import_text("$ time -p dd if=/dev/vdb of=/dev/null bs=4M iflag=direct status=progress\n"
                     "4194304000 bytes (4.2 GB, 3.9 GiB) copied, 3 s, 1.4 GB/s\n"
                     "1000+0 records in\n1000+0 records out\n"
                     "4194304000 bytes (4.2 GB, 3.9 GiB) copied, 3.05 s, 1.4 GB/s\n"
                     "real 3.12\nuser 0.00\nsys 0.61\n",
                     NULL, VDC_IMPORT_AUTO, VDC_GROUP_MACHINE, 1, NULL);
    s = only_sample(rs.runs[0], "dd_read");
    assert_int_equal(rs.runs[0]->meta.direct_io, 1);
    assert_string_equal(rs.runs[0]->meta.dd_iflag, "direct");
    assert_float_equal(s->value, 4194304000.0 / 3.05 / MIB, 1e-9);
    assert_float_equal(s->elapsed_s, 3.05, 1e-9);
    assert_float_equal(s->real_s, 3.12, 1e-9);
    assert_float_equal(s->system_us_per_op, 0.61e6 / 1000, 1e-9);
    vdc_result_set_dispose(&rs);
    /* GNU time's default output; oflag=direct,dsync on a write */
    rs = import_text("/usr/bin/time dd if=/dev/zero of=/dev/vdc bs=64k count=100 oflag=direct,dsync\n"
                     "100+0 records in\n100+0 records out\n"
                     "6553600 bytes (6.6 MB, 6.2 MiB) copied, 0.5 s, 13.1 MB/s\n"
                     "0.00user 0.04system 0:00.51elapsed 8%CPU (0avgtext+0avgdata 2140maxresident)k\n"
                     "0inputs+12800outputs (0major+94minor)pagefaults 0swaps\n",
                     NULL, VDC_IMPORT_AUTO, VDC_GROUP_MACHINE, 1, NULL);
    s = only_sample(rs.runs[0], "dd_write");
    assert_int_equal(rs.runs[0]->meta.direct_io, 1);
    assert_int_equal(rs.runs[0]->meta.fsync_every_write, 1);
    assert_float_equal(s->real_s, 0.51, 1e-9);
    assert_float_equal(s->system_s, 0.04, 1e-9);
    assert_float_equal(s->user_s, 0, 1e-9);
    vdc_result_set_dispose(&rs);
    /* zsh's time line; bash's with a decimal comma (de_DE) */
    rs = import_text("% time dd if=/dev/zero of=/tmp/x bs=8k count=1000\n"
                     "1000+0 records in\n1000+0 records out\n"
                     "8192000 bytes (8.2 MB, 7.8 MiB) copied, 0.0123 s, 666 MB/s\n"
                     "dd if=/dev/zero of=/tmp/x bs=8k count=1000  0.00s user 0.01s system 80% cpu 0.013 total\n"
                     "\n"
                     "# time dd if=/dev/zero of=/tmp/y bs=8k count=1000\n"
                     "1000+0 Datensätze ein\n1000+0 Datensätze aus\n"
                     "8192000 Bytes (8,2 MB, 7,8 MiB) kopiert, 0,0123 s, 666 MB/s\n"
                     "\nreal\t0m0,014s\nuser\t0m0,000s\nsys\t0m0,011s\n",
                     NULL, VDC_IMPORT_AUTO, VDC_GROUP_MACHINE, 2, NULL);
    assert_float_equal(rs.runs[0]->samples[0]->real_s, 0.013, 1e-9);
    assert_float_equal(rs.runs[0]->samples[0]->system_s, 0.01, 1e-9);
    assert_float_equal(rs.runs[1]->samples[0]->real_s, 0.014, 1e-9);
    assert_float_equal(rs.runs[1]->samples[0]->system_s, 0.011, 1e-9);
    assert_string_equal(rs.runs[0]->target, "/tmp/x");
    assert_string_equal(rs.runs[1]->target, "/tmp/y");
    vdc_result_set_dispose(&rs);
}

/* A sweep pasted as summary lines under separator lines: the block size
 * from the separators, repeats of one block size in one cell */
static void
test_dd_sweep_separators(void **state)
{
    static const char page[] =
        "Results on the VPS (each twice):\n"
        "\n"
        "=== bs=4k ===\n"
        "1048576000 bytes (1.0 GB, 1000 MiB) copied, 5.2 s, 202 MB/s\n"
        "1048576000 bytes (1.0 GB, 1000 MiB) copied, 4.8 s, 218 MB/s\n"
        "=== bs=1M ===\n"
        "1048576000 bytes (1.0 GB, 1000 MiB) copied, 2 s, 524 MB/s\n"
        "1048576000 bytes (1.0 GB, 1000 MiB) copied, 2.5 s, 419 MB/s\n";
    vdc_result_set rs = import_text(page, "vps", VDC_IMPORT_AUTO, VDC_GROUP_MACHINE, 4, NULL);
    static const int64_t bs[] = { 4096, 4096, 1048576, 1048576 };
    static const double secs[] = { 5.2, 4.8, 2, 2.5 };
    size_t i, n = 0;
    vdc_sample_ref *refs;

    for (i = 0; i < 4; i++) {
        const vdc_sample *s = only_sample(rs.runs[i], "dd_copy");

        /* the label line names the group; --target prefixes it (one group) */
        assert_string_equal(rs.runs[i]->target, "vps");
        assert_int_equal(s->block_size, bs[i]);
        assert_float_equal(s->value, 1048576000.0 / secs[i] / MIB, 1e-9);
        assert_int_equal(rs.runs[i]->repetition, (int64_t)i);
    }
    refs = vdc_result_set_lookup(&rs, "vps", "dd_copy@4096", &n);
    assert_int_equal(n, 2);
    g_free(refs);
    vdc_result_set_dispose(&rs);
}

static void
test_dd_refusals(void **state)
{
    /* the rate disagrees with bytes / time (a mangled paste) */
    refuse("dd if=/dev/zero of=f bs=1M count=1000\n1000+0 records in\n1000+0 records out\n"
           "1048576000 bytes (1.0 GB) copied, 1.92275 s, 945 MB/s\n", NULL, VDC_IMPORT_AUTO,
           "vmdiskcmp: page.txt:4: dd's rate 945 MB/s disagrees with 1048576000 bytes in "
           "1.92275 s (5.454e+08 B/s): expected the summary line as dd printed it\n");
    /* records in without records out */
    refuse("# time dd if=/dev/sda of=/dev/null\n100+0 records in\n\nreal 0m1.000s\n", NULL,
           VDC_IMPORT_AUTO, "vmdiskcmp: page.txt:1: dd's 'records in' line has no 'records "
           "out' line after it: expected both\n");
    /* a prompted dd command without output */
    refuse("# time dd if=/dev/sda of=/dev/null bs=1M\n\nhost 2\n", NULL, VDC_IMPORT_AUTO,
           "vmdiskcmp: page.txt:1: the dd command has no output: expected its 'records in' and "
           "'records out' lines\n");
    /* bytes and records do not agree with bs= */
    refuse("dd if=/dev/zero of=f bs=64k count=100\n100+0 records in\n100+0 records out\n"
           "104857600 bytes (105 MB, 100 MiB) copied, 1 s, 105 MB/s\n", NULL, VDC_IMPORT_AUTO,
           "vmdiskcmp: page.txt:1: dd's 104857600 bytes disagree with its 100 full records of "
           "65536 bytes: expected the transcript of one dd run\n");
    /* an operand dd does not have */
    refuse("$ dd if=/dev/zero of=f bsize=1M\n", NULL, VDC_IMPORT_AUTO,
           "vmdiskcmp: page.txt:1: dd operand 'bsize=': expected one of if, of, bs, ibs, obs, "
           "cbs, count, skip, seek, conv, iflag, oflag, status\n");
    /* no time at all */
    refuse("dd if=/dev/sda of=/dev/null\n10+0 records in\n10+0 records out\n", NULL,
           VDC_IMPORT_AUTO, "vmdiskcmp: page.txt:1: no time for this dd run: expected dd's "
           "'bytes ... copied' line or the shell's time output (real ...)\n");
    /* records without the command: the block size is not known */
    refuse("10+0 records in\n10+0 records out\n\nreal 0m1.000s\n", "t", VDC_IMPORT_AUTO,
           "vmdiskcmp: page.txt:1: dd's block size is not known: expected the dd command (bs=) "
           "or a separator line such as 'bs=8k' before its output\n");
    /* counts that overflow: refused, never wrapped round */
    refuse("# time dd if=/dev/zero of=f bs=1M\n999999999999999999+0 records in\n"
           "999999999999999999+0 records out\n\nreal\t0m1.000s\n", NULL, VDC_IMPORT_AUTO,
           "vmdiskcmp: page.txt:1: dd's 999999999999999999 records of 1048576 bytes are more "
           "than an exabyte: expected the records lines as dd printed them\n");
    /* --format dd takes no bonnie table */
    refuse("Machine MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU\n"
           "       256 14009 99.3 27171 11.8  5919  3.6  8902 57.9 26205 10.4 124.3  0.4\n",
           "t", VDC_IMPORT_DD, "vmdiskcmp: page.txt:2: no results found: expected bonnie++ CSV "
           "lines, a bonnie/bonnie++ table or a dd transcript\n");
}

/* ---- groups -------------------------------------------------------------------- */

#define B1_HEAD \
    "              -------Sequential Output-------- ---Sequential Input-- --Random--\n" \
    "              -Per Char- --Block--- -Rewrite-- -Per Char- --Block--- --Seeks---\n" \
    "Machine    MB K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU K/sec %CPU  /sec %CPU\n"

static void
test_groups(void **state)
{
    vdc_result_set rs;

    /* bonnie 1.x rows labelled by machine name: one target each */
    rs = import_text(B1_HEAD
                     "alpha     256 14009 99.3 27171 11.8  5919  3.6  8902 57.9 26205 10.4 124.3  0.4\n"
                     "beta      256 13977 99.0 31341 13.9  6020  3.8  8790 57.1 25002 10.0 201.2  0.9\n",
                     NULL, VDC_IMPORT_AUTO, VDC_GROUP_MACHINE, 2, NULL);
    assert_string_equal(rs.runs[0]->target, "alpha");
    assert_string_equal(rs.runs[1]->target, "beta");
    assert_float_equal(rs.runs[1]->samples[1]->value, 31341, 1e-9);
    assert_int_equal(rs.n_targets, 2);
    vdc_result_set_dispose(&rs);
    /* with --target: TARGET/MACHINE, never one target for two machines */
    rs = import_text(B1_HEAD
                     "alpha     256 14009 99.3 27171 11.8  5919  3.6  8902 57.9 26205 10.4 124.3  0.4\n"
                     "beta      256 13977 99.0 31341 13.9  6020  3.8  8790 57.1 25002 10.0 201.2  0.9\n",
                     "lab", VDC_IMPORT_AUTO, VDC_GROUP_MACHINE, 2, NULL);
    assert_string_equal(rs.runs[0]->target, "lab/alpha");
    assert_string_equal(rs.runs[1]->target, "lab/beta");
    vdc_result_set_dispose(&rs);
    /* --group-by none: one target, and a warning names the machines */
    rs = import_text(B1_HEAD
                     "alpha     256 14009 99.3 27171 11.8  5919  3.6  8902 57.9 26205 10.4 124.3  0.4\n"
                     "beta      256 13977 99.0 31341 13.9  6020  3.8  8790 57.1 25002 10.0 201.2  0.9\n",
                     "lab", VDC_IMPORT_AUTO, VDC_GROUP_NONE, 2,
                     "vmdiskcmp: warning: page.txt: --group-by none puts 2 machines or "
                     "configurations ('alpha', 'beta') into the one target lab\n");
    assert_string_equal(rs.runs[0]->target, "lab");
    assert_string_equal(rs.runs[1]->target, "lab");
    assert_int_equal(rs.runs[1]->repetition, 1);
    vdc_result_set_dispose(&rs);
    /* free-text label lines between groups (and between the rows of one
     * table) name the groups; paragraphs of prose do not */
    rs = import_text("I ran bonnie -s 256 on both disks of the box, three times each, and\n"
                     "here is what came out:\n"
                     "\n"
                     "host 1 (ext2 defaults)\n"
                     "\n" B1_HEAD
                     "          256 14009 99.3 27171 11.8  5919  3.6  8902 57.9 26205 10.4 124.3  0.4\n"
                     "          256 14011 99.1 27002 11.7  5930  3.6  8899 57.7 26190 10.4 125.0  0.4\n"
                     "host 2 (ext3 data=ordered):\n"
                     "          256 13977 99.0 31341 13.9  6020  3.8  8790 57.1 25002 10.0 201.2  0.9\n"
                     "\nThe second one is faster at writing.\n",
                     NULL, VDC_IMPORT_AUTO, VDC_GROUP_MACHINE, 3, NULL);
    assert_string_equal(rs.runs[0]->target, "host 1 (ext2 defaults)");
    assert_string_equal(rs.runs[1]->target, "host 1 (ext2 defaults)");
    assert_int_equal(rs.runs[1]->repetition, 1);
    assert_string_equal(rs.runs[2]->target, "host 2 (ext3 data=ordered)");
    assert_float_equal(rs.runs[2]->samples[5]->value, 201.2, 1e-9);
    vdc_result_set_dispose(&rs);
}

/* bonnie++ tables of several machines, and labels for --group-by label */
static void
test_groups_bonniepp(void **state)
{
    static const char page[] =
        "Version 1.03       ------Sequential Output------ --Sequential Input- --Random-\n"
        "                   -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
        "Machine       Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"
        "web1            2G  6065  15 70595  37 20649   2 26878  53 57270   0 135.8   0\n"
        "db1             2G 34825  88 50898  27 24833   3 35920  71 77594   7 196.4   0\n";
    vdc_result_set rs = import_text(page, NULL, VDC_IMPORT_AUTO, VDC_GROUP_MACHINE, 2, NULL);
    vdc_result_set rs2;
    char *err;

    assert_string_equal(rs.runs[0]->target, "web1");
    assert_string_equal(rs.runs[1]->target, "db1");
    assert_string_equal(rs.runs[1]->meta.tool, "bonnie++ 1.03");
    vdc_result_set_dispose(&rs);
    vdc_result_set_init(&rs2);
    capture_stderr_begin();
    assert_int_equal(vdc_import_data_grouped(&rs2, page, strlen(page), "page.txt", NULL,
                                             VDC_IMPORT_AUTO, VDC_GROUP_LABEL), -1);
    err = capture_stderr_end();
    assert_string_equal(err, "vmdiskcmp: page.txt:4: this run names no label line above it: "
                        "expected --target NAME or a label line above it\n");
    free(err);
    vdc_result_set_dispose(&rs2);
}

/* ---- pages as pasted ---------------------------------------------------------------- */

/* A bonnie++ 1.03 IO row as bon_time.cpp prints it: machine and size in
 * 19 columns, then " %5d" and " %3d" per test, blanks for a test not run
 * (-f skips per-char: "      " and "    "). */
static void
row103(char *buf, size_t n, const char *machine, const char *size, const int *v, const int *cp,
       double seeks, int skip_perchar)
{
    char name[20];
    int i;
    size_t len;

    snprintf(name, sizeof(name), "%-19s", machine);
    name[19] = '\0';
    memcpy(name + 19 - strlen(size) - 1, " ", 1);
    memcpy(name + 19 - strlen(size), size, strlen(size));
    snprintf(buf, n, "%s", name);
    for (i = 0; i < 5; i++) {
        len = strlen(buf);
        if (skip_perchar && (i == 0 || i == 3))
            snprintf(buf + len, n - len, "          ");
        else
            snprintf(buf + len, n - len, " %5d %3d", v[i], cp[i]);
    }
    len = strlen(buf);
    snprintf(buf + len, n - len, " %5.1f %3d", seeks, 0);
}

#define HEAD103_Q \
    "Version 1.03       ------Sequential Output------ --Sequential Input- --Random-\n" \
    ">                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n" \
    "> Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"

#define HEAD103 \
    "Version 1.03       ------Sequential Output------ --Sequential Input- --Random-\n" \
    "                   -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n" \
    "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n"

static void
test_blank_columns(void **state)
{
    static const int v[] = { 0, 70595, 20649, 0, 57270 }, cp[] = { 0, 37, 2, 0, 0 };
    char row[256], text[2048], collapsed[256];
    vdc_result_set rs;
    const vdc_run *r;
    char **w;

    /* the original spacing: placed by the header's columns */
    row103(row, sizeof(row), "localhost.locald", "2G", v, cp, 135.8, 1);
    snprintf(text, sizeof(text), "%s%s\n", HEAD103, row);
    rs = import_text(text, "t", VDC_IMPORT_AUTO, VDC_GROUP_MACHINE, 1, NULL);
    r = rs.runs[0];
    assert_int_equal(r->n_samples, 4);      /* putc and getc not run: no sample */
    assert_string_equal(r->samples[0]->test, "put_block");
    assert_float_equal(r->samples[0]->value, 70595, 1e-9);
    assert_string_equal(r->samples[1]->test, "rewrite");
    assert_string_equal(r->samples[2]->test, "get_block");
    assert_float_equal(r->samples[2]->value, 57270, 1e-9);
    assert_string_equal(r->samples[3]->test, "seeks");
    assert_float_equal(r->samples[3]->value, 135.8, 1e-9);
    assert_float_equal(r->samples[3]->cpu_percent, 0, 1e-9);
    vdc_result_set_dispose(&rs);
    /* blanks collapsed (a web page): the CSV line on the page places them */
    w = g_strsplit_set(row, " ", -1);
    collapsed[0] = '\0';
    for (char **p = w; *p; p++)
        if (**p)
            g_strlcat(collapsed, *p, sizeof(collapsed)), g_strlcat(collapsed, " ", sizeof(collapsed));
    g_strfreev(w);
    snprintf(text, sizeof(text), "%s%s\n"
             "localhost.localdomain,2G,,,70595,37,20649,2,,,57270,0,135.8,0,,,,,,,,,,,,,\n",
             HEAD103, collapsed);
    rs = import_text(text, "t", VDC_IMPORT_AUTO, VDC_GROUP_MACHINE, 1, NULL);
    r = rs.runs[0];
    assert_string_equal(r->meta.source.format, "bonnie++-csv-1.03");
    assert_int_equal(r->n_samples, 4);
    assert_float_equal(r->samples[2]->value, 57270, 1e-9);
    vdc_result_set_dispose(&rs);
    /* ... and a CSV that does not fit the row is a conflict */
    snprintf(text, sizeof(text), "%s%s\n"
             "localhost.localdomain,2G,,,70595,37,20649,2,,,57271,0,135.8,0,,,,,,,,,,,,,\n",
             HEAD103, collapsed);
    refuse(text, "t", VDC_IMPORT_AUTO, "vmdiskcmp: page.txt:5: this CSV line disagrees with the "
           "table row at line 4 on get_block (57270 0%CP vs 57271 0%CP): expected the CSV line "
           "of that row\n");
    /* collapsed, no CSV line: refused, naming the row */
    snprintf(text, sizeof(text), "%s%s\n", HEAD103, collapsed);
    refuse(text, "t", VDC_IMPORT_AUTO, "vmdiskcmp: page.txt:4: this row has 8 value columns "
           "where 12 are expected: a blank column (bonnie++ -f) cannot be placed once blanks "
           "are collapsed: expected the row as bonnie++ printed it, or the CSV line bonnie++ "
           "prints after the table\n");
}

/* A table and the CSV of the same run: counted once, conflicts both ways */
static void
test_table_csv_conflicts(void **state)
{
    static const int v[] = { 0, 70595, 20649, 0, 57270 }, cp[] = { 0, 37, 2, 0, 0 };
    char row[256], text[2048];
    vdc_result_set rs;

    row103(row, sizeof(row), "localhost.locald", "2G", v, cp, 135.8, 1);
    /* the table has no per-char value, the CSV says 793 K/sec: conflict */
    snprintf(text, sizeof(text), "%s%s\n"
             "localhost.localdomain,2G,793,99,70595,37,20649,2,,,57270,0,135.8,0,,,,,,,,,,,,,\n",
             HEAD103, row);
    refuse(text, "t", VDC_IMPORT_AUTO, "vmdiskcmp: page.txt:5: this CSV line has a putc value "
           "(793) but the table at line 4 has none: expected the CSV line of that table\n");
    /* the table says 0, the CSV 793 */
    snprintf(text, sizeof(text), "%s%s", HEAD103,
             "localhost.locald 2G     0  99 70595  37 20649   2     0   0 57270   0 135.8   0\n"
             "localhost.localdomain,2G,793,99,70595,37,20649,2,0,0,57270,0,135.8,0,,,,,,,,,,,,,\n");
    refuse(text, "t", VDC_IMPORT_AUTO, "vmdiskcmp: page.txt:5: this CSV line disagrees with the "
           "table at line 4 on putc (0 99%CP vs 793 99%CP): expected the CSV line of that "
           "table\n");
    /* agreeing: one run, from the CSV */
    snprintf(text, sizeof(text), "%s%s\n"
             "localhost.localdomain,2G,,,70595,37,20649,2,,,57270,0,135.8,0,,,,,,,,,,,,,\n",
             HEAD103, row);
    rs = import_text(text, NULL, VDC_IMPORT_AUTO, VDC_GROUP_MACHINE, 1, NULL);
    assert_string_equal(rs.runs[0]->target, "localhost.localdomain");
    vdc_result_set_dispose(&rs);
}

/* A row wrapped by a mailer at a blank */
static void
test_wrapped_rows(void **state)
{
    vdc_result_set rs;

    rs = import_text(HEAD103
                     "localhost.locald 2G  6065  15 70595  37 20649   2 26878\n"
                     "53 57270   0 135.8   0\n",
                     "t", VDC_IMPORT_AUTO, VDC_GROUP_MACHINE, 1, NULL);
    assert_int_equal(rs.runs[0]->n_samples, 6);
    assert_float_equal(rs.runs[0]->samples[3]->value, 26878, 1e-9);
    assert_float_equal(rs.runs[0]->samples[3]->cpu_percent, 53, 1e-9);
    assert_float_equal(rs.runs[0]->samples[5]->value, 135.8, 1e-9);
    assert_int_equal(rs.runs[0]->meta.source.line, 4);
    vdc_result_set_dispose(&rs);
    /* quoted in a reply ("> "), and wrapped */
    rs = import_text("> Here are mine:\n>\n> " HEAD103_Q
                     "> localhost.locald 2G  6065  15 70595  37 20649   2 26878\n"
                     "> 53 57270   0 135.8   0\n", "t", VDC_IMPORT_AUTO, VDC_GROUP_MACHINE, 1, NULL);
    assert_float_equal(rs.runs[0]->samples[3]->value, 26878, 1e-9);
    vdc_result_set_dispose(&rs);
    /* bonnie 1.x, no machine name */
    rs = import_text(B1_HEAD
                     "          256 14009 99.3 27171 11.8  5919  3.6  8902 57.9\n"
                     "26205 10.4 124.3  0.4\n", "t", VDC_IMPORT_AUTO, VDC_GROUP_MACHINE, 1, NULL);
    assert_float_equal(rs.runs[0]->samples[5]->value, 124.3, 1e-9);
    vdc_result_set_dispose(&rs);
    /* two halves that do not make one row: refused, naming both lines */
    refuse(HEAD103 "localhost.locald 2G  6065  15 70595  37 20649   2 26878\n"
           "53 57270   0 135.8   0 12\n", "t", VDC_IMPORT_AUTO,
           "vmdiskcmp: page.txt:5: this line (6 columns) does not complete the row at line 4 "
           "(9 columns): expected one row of [machine] size and 12 value/%CP columns, or a row "
           "wrapped once onto this line\n");
    /* a bonnie 1.x row cut short: no CSV advice (bonnie 1.x has none) */
    refuse(B1_HEAD "          256 14009 99.3 27171 11.8\n", "t", VDC_IMPORT_AUTO,
           "vmdiskcmp: page.txt:4: expected [machine] size and 12 value/%CPU columns, found 5 "
           "columns in all\n");
}

/* bonnie++ 1.96 -s 0: 47 fields, the file part one field early */
static void
test_csv196_s0(void **state)
{
    vdc_result_set rs = import_text(
        "1.96,1.96,db1,1,1313585486,,,,,,,,,,,,,,16,,,,,2345,50,+++++,+++,3456,45,2222,48,"
        "+++++,+++,1999,41,,,,,,,99us,3s,1ms,2ms,3ms,4ms\n",
        NULL, VDC_IMPORT_CSV, VDC_GROUP_MACHINE, 1, NULL);
    const vdc_run *r = rs.runs[0];

    assert_string_equal(r->target, "db1");
    assert_int_equal(r->meta.files.number, 16);
    assert_int_equal(r->n_samples, 6);
    assert_string_equal(r->samples[0]->test, "seq_create");
    assert_float_equal(r->samples[0]->value, 2345, 1e-9);
    assert_float_equal(r->samples[0]->latency_us, 99, 1e-9);
    assert_true(r->samples[1]->too_fast);
    assert_string_equal(r->samples[5]->test, "ran_del");
    assert_float_equal(r->samples[5]->value, 1999, 1e-9);
    assert_float_equal(r->samples[5]->latency_us, 4000, 1e-9);
    vdc_result_set_dispose(&rs);
    refuse("1.96,1.96,db1,1,1,4G,,1,2,,,,,,,,,,16,,,,,2345,50,+++++,+++,3456,45,2222,48,"
           "+++++,+++,1999,41,,,,,,,99us,3s,1ms,2ms,3ms,4ms\n", NULL, VDC_IMPORT_AUTO,
           "vmdiskcmp: page.txt:1: bonnie++ CSV format 1.96: expected 48 fields, found 47 with "
           "IO values (bonnie++ 1.96 writes 47 only with -s 0, its fields 6-18 empty)\n");
}

/* bonnie++ 2.00a's own table without its CSV line: the file block is
 * misprinted (printf %d of a double) and dropped, the IO row kept */
static void
test_200a_misprint(void **state)
{
    static const char page[] =
        "Version 2.00a       ------Sequential Output------ --Sequential Input- --Random-\n"
        "                    -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
        "Name:Size etc        /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
        "testhost        16M 1878k  99 1.4g  70 +++++ +++ 2991k  99 +++++ +++ +++++ +++\n"
        "Latency              5662us     205us     118us    3657us      60us    8136us\n"
        "Version 2.00a       ------Sequential Create------ --------Random Create--------\n"
        "testhost            -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n"
        "              files  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP  /sec %CP\n"
        "                  1  1024  13 +++++ +++ +++++ +++  1024  13 +++++ +++ +++++ +++\n";
    vdc_result_set rs = import_text(page, NULL, VDC_IMPORT_AUTO, VDC_GROUP_MACHINE, 1,
                                    "vmdiskcmp: warning: page.txt:9: bonnie++ 2.00a misprints "
                                    "file-test rates in its table (printf %d of a double): the "
                                    "file tests of this row are not imported");
    const vdc_run *r = rs.runs[0];

    assert_string_equal(r->target, "testhost");
    assert_int_equal(r->n_samples, 6);
    assert_float_equal(r->samples[0]->value, 1878, 1e-9);
    assert_float_equal(r->samples[1]->value, 1.4 * 1048576, 1e-6);    /* 1.4g K/sec */
    assert_false(r->meta.files.number != VDC_INT_ABSENT);
    vdc_result_set_dispose(&rs);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed004),
        cmocka_unit_test(test_dd_wordings),
        cmocka_unit_test(test_dd_forms),
        cmocka_unit_test(test_dd_sweep_separators),
        cmocka_unit_test(test_dd_refusals),
        cmocka_unit_test(test_groups),
        cmocka_unit_test(test_groups_bonniepp),
        cmocka_unit_test(test_blank_columns),
        cmocka_unit_test(test_table_csv_conflicts),
        cmocka_unit_test(test_wrapped_rows),
        cmocka_unit_test(test_csv196_s0),
        cmocka_unit_test(test_200a_misprint),
    };
    /* the progress lines saying what each target is are checked by
     * test_described (test_import_shapes.c); here stderr holds the
     * messages and warnings only */
    vdc_set_quiet(1);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
