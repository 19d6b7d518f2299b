/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for four more shapes of published output, built here from
 * the tools' own formats, each expected value worked out from the numbers
 * put in: bonnie++ 1.96 with -f (a Latency row of four values, blank
 * per-char columns; bon_time.cpp " %5d", " %3d", " %9s"), a dd sweep from
 * a shell loop (bs=$bs count=$count, a separator line naming the values
 * before each run), dd inside a tool's log (sections READ/WRITE/LATENCY,
 * dd's error lines, no command), dd and bash's time in ru_RU (coreutils'
 * Russian words, comma decimals); and prose lines that are sentences, not
 * headings.  The whole documents are pinned by the goldens of
 * tests/golden/import/ (import-golden.sh). */
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
#include "import/import_priv.h"
#include "model/result.h"
#include "test_stderr.h"

#define MIB 1048576.0

/* Import @text into a fresh set; expect @n runs; stderr empty unless
 * @warning (then it must hold it). */
static vdc_result_set
import_text(const char *text, const char *target, int n, const char *warning)
{
    vdc_result_set rs;
    char *err;
    int rc;

    vdc_result_set_init(&rs);
    capture_stderr_begin();
    rc = vdc_import_data_grouped(&rs, text, strlen(text), "page.txt", target, VDC_IMPORT_AUTO,
                                 VDC_GROUP_MACHINE);
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

static void
refuse(const char *text, const char *msg)
{
    vdc_result_set rs;
    char *err;

    vdc_result_set_init(&rs);
    capture_stderr_begin();
    assert_int_equal(vdc_import_data_grouped(&rs, text, strlen(text), "page.txt", "t",
                                             VDC_IMPORT_AUTO, VDC_GROUP_MACHINE), -1);
    err = capture_stderr_end();
    assert_string_equal(err, msg);
    assert_int_equal(rs.n_runs, 0);
    free(err);
    vdc_result_set_dispose(&rs);
}

static const vdc_sample *
sample_of(const vdc_run *r, const char *test)
{
    size_t i;

    for (i = 0; i < r->n_samples; i++)
        if (!strcmp(r->samples[i]->test, test))
            return r->samples[i];
    fail_msg("no %s sample", test);
    return NULL;
}

/* ---- bonnie++ 1.96 -f --------------------------------------------------- */

/* bonnie++ 1.96's IO block for one machine with -f: per-char blank */
static char *
bonnie196_f(int keep_spacing, const char *latency_row)
{
    GString *s = g_string_new(NULL);

    g_string_append(s, "Version  1.96       ------Sequential Output------ --Sequential Input- --Random-\n"
                       "Concurrency   1     -Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
                       "Machine        Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP  /sec %CP\n");
    /* machine and size in 19 columns, then " %5d %3d" or 10 blanks per test */
    g_string_append_printf(s, "%-16s %s%10s %5d %3d %5d %3d%10s %5d %3d %5.1f %3d\n", "xen-lvtest", "2G",
                           "", 89741, 12, 40683, 6, "", 73452, 7, 177.3, 3);
    /* "Latency" and ten blanks, then " %9s" per test, blank when not run */
    g_string_append_printf(s, "%s\n", latency_row);
    if (!keep_spacing) {
        GRegex *blanks = g_regex_new(" +", 0, 0, NULL);
        char *t = g_regex_replace_literal(blanks, s->str, -1, 0, " ", 0, NULL);

        g_string_assign(s, t);
        g_free(t);
        g_regex_unref(blanks);
    }
    return g_string_free(s, FALSE);
}

static void
test_bonnie196_f_latency(void **state)
{
    char lat[128];
    char *t, *page;
    vdc_result_set rs;
    const vdc_run *r;

    (void)state;
    snprintf(lat, sizeof(lat), "Latency          %10s %9s %9s%10s %9s %9s", "", "1036ms", "738ms", "",
             "251ms", "388ms");
    /* as printed: the four latencies placed by their columns */
    t = bonnie196_f(1, lat);
    rs = import_text(t, NULL, 1, NULL);
    r = rs.runs[0];
    assert_int_equal(r->n_samples, 4);
    assert_true(sample_of(r, "put_block")->latency_us == 1036000);
    assert_true(sample_of(r, "rewrite")->latency_us == 738000);
    assert_true(sample_of(r, "get_block")->latency_us == 251000);
    assert_true(sample_of(r, "seeks")->latency_us == 388000);
    assert_true(sample_of(r, "get_block")->value == 73452);
    vdc_result_set_dispose(&rs);
    g_free(t);
    /* a test that ran with a blank latency: placed by column, not by order */
    snprintf(lat, sizeof(lat), "Latency          %10s %9s %9s%10s %9s %9s", "", "1036ms", "", "",
             "251ms", "388ms");
    t = bonnie196_f(1, lat);
    rs = import_text(t, NULL, 1, NULL);
    r = rs.runs[0];
    assert_true(isnan(sample_of(r, "rewrite")->latency_us));
    assert_true(sample_of(r, "get_block")->latency_us == 251000);
    vdc_result_set_dispose(&rs);
    g_free(t);
    /* collapsed (a web page): four latencies for the row's four tests, and
     * the CSV line that places the row */
    snprintf(lat, sizeof(lat), "Latency 1036ms 738ms 251ms 388ms");
    t = bonnie196_f(0, lat);
    page = g_strconcat(t, "1.96,1.96,xen-lvtest,1,1289471205,2G,,,,89741,12,40683,6,,,73452,7,177.3,3"
                       ",,,,,,,,,,,,,,,,,,,1036ms,738ms,,251ms,388ms,,,,,,\n", NULL);
    rs = import_text(page, NULL, 1, NULL);
    r = rs.runs[0];
    assert_string_equal(r->meta.source.format, "bonnie++-csv-1.96");
    assert_true(sample_of(r, "seeks")->latency_us == 388000);
    vdc_result_set_dispose(&rs);
    g_free(page);
    g_free(t);
    /* five latencies for four tests */
    snprintf(lat, sizeof(lat), "Latency 1036ms 738ms 251ms 388ms 12ms");
    t = bonnie196_f(0, lat);
    refuse(t, "vmdiskcmp: page.txt:5: expected 'Latency' and one latency per test of the row at "
              "line 4 (4), found 5 latencies\n");
    g_free(t);
}

/* ---- a dd sweep from a shell loop ----------------------------------------------------- */

static void
test_dd_loop(void **state)
{
    /* bs x count: 8K x 8K = 64 MiB in 1.21484 s; 1M x 64 = 64 MiB in 0.109578 s */
    static const char page[] =
        "$ cat sweep.sh\n"
        "for bs in 8K 1M; do\n"
        "  echo \"--- bs=$bs / count=$count / 1 ---\"\n"
        "  time sh -c \"dd if=/dev/zero of=/var/tmp/f bs=$bs count=$count conv=fdatasync && sync\"\n"
        "done\n"
        "\n"
        "--- bs=8K / count=8K / 1 ---\n"
        "8192+0 records in\n"
        "8192+0 records out\n"
        "67108864 bytes (67 MB, 64 MiB) copied, 1.21484 s, 55.2 MB/s\n"
        "\n"
        "real\t0m1.252s\n"
        "user\t0m0.004s\n"
        "sys\t0m0.052s\n"
        "--- bs=1M / count=64 / 1 ---\n"
        "64+0 records in\n"
        "64+0 records out\n"
        "67108864 bytes (67 MB, 64 MiB) copied, 0.109578 s, 612 MB/s\n";
    vdc_result_set rs = import_text(page, NULL, 2, NULL);
    const vdc_sample *s;

    (void)state;
    assert_string_equal(rs.runs[0]->target, "/var/tmp/f");
    assert_string_equal(rs.runs[0]->meta.command_line,
                        "time sh -c dd if=/dev/zero of=/var/tmp/f bs=$bs count=$count "
                        "conv=fdatasync && sync");
    assert_string_equal(rs.runs[0]->meta.source.section, "--- bs=8K / count=8K / 1 ---");
    assert_int_equal(rs.runs[0]->meta.source.line, 8);
    assert_string_equal(rs.runs[0]->meta.dd_conv, "fdatasync");
    s = sample_of(rs.runs[0], "dd_write");
    assert_int_equal(s->block_size, 8192);
    assert_true(fabs(s->value - 67108864 / 1.21484 / MIB) < 1e-9);
    assert_true(fabs(s->system_us_per_op - 0.052e6 / 8192) < 1e-9);
    s = sample_of(rs.runs[1], "dd_write");
    assert_int_equal(s->block_size, 1048576);
    assert_true(fabs(s->value - 67108864 / 0.109578 / MIB) < 1e-9);
    vdc_result_set_dispose(&rs);
    /* a one-line loop at a prompt, no separator naming bs */
    refuse("$ for bs in 4k 64k; do dd if=/dev/zero of=/var/tmp/f bs=$bs count=1000; done\n"
           "1000+0 records in\n1000+0 records out\n"
           "4096000 bytes (4.1 MB, 3.9 MiB) copied, 0.0100641 s, 407 MB/s\n",
           "vmdiskcmp: page.txt:2: the dd command at line 1 gives its block size as a shell "
           "variable and no separator line above this output names it: expected a line such as "
           "'--- bs=8K ---' before each run\n");
    /* a separator naming another count than dd read */
    refuse("$ time dd if=/dev/zero of=/var/tmp/f bs=$bs count=$count\n"
           "--- bs=8K / count=4K ---\n"
           "8192+0 records in\n8192+0 records out\n"
           "67108864 bytes (67 MB, 64 MiB) copied, 1.21484 s, 55.2 MB/s\n",
           "vmdiskcmp: page.txt:3: dd read 8192 records where count=4096: expected the output of "
           "the command at line 1 with the values its separator line names\n");
}

/* ---- dd inside a tool's log ------------------------------------------------------------ */

static void
test_dd_tool_log(void **state)
{
    static const char page[] =
        "----------------------------------------\n"
        "WRITE (no cache bs=1M):\n"
        "256+0 records in\n256+0 records out\n"
        "268435456 bytes (268 MB, 256 MiB) copied, 0.259034 s, 1.0 GB/s\n"
        "----------------------------------------\n"
        "READ (no cache bs=1M):\n"
        "256+0 records in\n256+0 records out\n"
        "268435456 bytes (268 MB, 256 MiB) copied, 0.281108 s, 955 MB/s\n"
        "----------------------------------------\n"
        "dd: failed to open '/var/tmp/x/f': No such file or directory\n"
        "----------------------------------------\n"
        "LATENCY\n"
        "1000+0 records in\n1000+0 records out\n"
        "512000 bytes (512 kB, 500 KiB) copied, 8.99753 s, 56.9 kB/s\n"
        "----------------------------------------\n"
        "dd: error writing '/var/tmp/f': No space left on device\n"
        "3+0 records in\n2+0 records out\n"
        "2097152 bytes (2.1 MB, 2.0 MiB) copied, 0.00303 s, 692 MB/s\n";
    vdc_result_set rs = import_text(page, "vps", 4, "vmdiskcmp: warning: page.txt:12: dd printed an "
                                    "error and no records after it: no run imported (dd: failed "
                                    "to open '/var/tmp/x/f': No such file or directory)\n");
    const vdc_sample *s;

    (void)state;
    s = sample_of(rs.runs[0], "dd_write");
    assert_int_equal(s->block_size, 1048576);
    assert_string_equal(rs.runs[0]->meta.source.section, "WRITE (no cache bs=1M):");
    assert_null(rs.runs[0]->meta.command_line);
    s = sample_of(rs.runs[1], "dd_read");
    assert_true(fabs(s->value - 268435456 / 0.281108 / MIB) < 1e-9);
    /* LATENCY names no block size: 512000 bytes / 1000 records */
    s = sample_of(rs.runs[2], "dd_copy");
    assert_int_equal(s->block_size, 512);
    assert_string_equal(rs.runs[2]->meta.source.section, "LATENCY");
    /* dd stopped on an error: a failed sample, the error kept */
    s = sample_of(rs.runs[3], "dd_copy");
    assert_true(s->failed);
    assert_true(isnan(s->value));
    assert_int_equal(s->bytes, 2097152);
    assert_string_equal(rs.runs[3]->status, "failed");
    assert_string_equal(rs.runs[3]->error, "dd: error writing '/var/tmp/f': No space left on device");
    vdc_result_set_dispose(&rs);
    /* a section's block size that the records and bytes contradict */
    refuse("READ (no cache bs=1M):\n1000+0 records in\n1000+0 records out\n"
           "512000 bytes (512 kB, 500 KiB) copied, 8.99753 s, 56.9 kB/s\n",
           "vmdiskcmp: page.txt:2: dd's 512000 bytes disagree with its 1000 full records of "
           "1048576 bytes: expected the transcript of one dd run\n");
}

/* ---- dd and bash's time in ru_RU ------------------------------------------------------ */

static void
test_dd_ru(void **state)
{
    /* coreutils' Russian words as dd prints them in three eras (records
     * "считано/написано", then "получено/отправлено"; the summary "скопировано
     * N байт (S), T секунд, R" (5.3-6.0), "скопировано N байт (S), T c, R/c"
     * (6.1-8.24), "N байт (S, S) скопирован, T s, R" (8.25 on)) */
    static const char page[] =
        "Тест диска на VPS (Xen, LVM), Debian 12:\n"
        "\n"
        "root@vps:/var/tmp# time dd if=/dev/zero of=/var/tmp/ddtest bs=1M count=1000 conv=fdatasync\n"
        "1000+0 записей получено\n"
        "1000+0 записей отправлено\n"
        "1048576000 байт (1,0 GB, 1000 MiB) скопирован, 54,5651 s, 19,2 MB/s\n"
        "\n"
        "real\t0m54,775s\n"
        "user\t0m0,004s\n"
        "sys\t0m1,769s\n"
        "root@vps:/var/tmp# dd if=/var/tmp/ddtest of=/dev/null bs=1M\n"
        "1000+0 записей получено\n"
        "1000+0 записей отправлено\n"
        " скопировано 1048576000 байт (1,0 GB), 4,17328 c, 251 MB/c\n"
        "root@vps:/var/tmp# dd if=/var/tmp/ddtest of=/dev/null bs=4k\n"
        "256000+0 записей считано\n"
        "256000+0 записей написано\n"
        "скопировано 1048576000 байт (1,0 GB), 2,5 секунд, 419 MB/s\n";
    vdc_result_set rs = import_text(page, NULL, 3, NULL);
    const vdc_sample *s;

    (void)state;
    assert_string_equal(rs.runs[0]->target, "Тест диска на VPS (Xen, LVM), Debian 12");
    s = sample_of(rs.runs[0], "dd_write");
    assert_true(fabs(s->value - 1048576000 / 54.5651 / MIB) < 1e-9);
    assert_true(s->real_s == 54.775 && s->user_s == 0.004 && s->system_s == 1.769);
    assert_true(fabs(s->cpu_percent - 100 * (0.004 + 1.769) / 54.775) < 1e-9);
    s = sample_of(rs.runs[1], "dd_read");
    assert_true(fabs(s->value - 1048576000 / 4.17328 / MIB) < 1e-9);
    s = sample_of(rs.runs[2], "dd_read");
    assert_int_equal(s->block_size, 4096);
    assert_int_equal(s->ops, 256000);
    assert_true(fabs(s->value - 1048576000 / 2.5 / MIB) < 1e-9);
    vdc_result_set_dispose(&rs);
    refuse("# time dd if=/dev/zero of=/var/tmp/ddtest bs=1M count=1000\n"
           "1000+0 записей получено\n1000+0 записей отправлено\n"
           "1048576000 байт (1,0 GB, 1000 MiB) скопирован, 1,26069 s, 732 MB/s\n",
           "vmdiskcmp: page.txt:4: dd's rate 732 MB/s disagrees with 1048576000 bytes in 1.26069 s "
           "(8.317e+08 B/s): expected the summary line as dd printed it\n");
}

/* ---- prose that is not a heading ------------------------------------------------------ */

static void
test_sentences_not_labels(void **state)
{
    static const char header[] =
        "Version 1.03 ------Sequential Output------ --Sequential Input- --Random-\n"
        "-Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
        "Machine Size K/sec %CP K/sec %CP K/sec %CP K/sec %CP K/sec %CP /sec %CP\n";
    static const char row[] = " 2G 6065 15 70595 37 20649 2 26878 53 57270 0 135.8 0\n";
    g_autofree char *a = g_strconcat(header, "dell-lv", row, NULL);
    g_autofree char *b = g_strconcat(header, "dell-part", row, NULL);
    g_autofree char *page = g_strconcat("Hi list, here are my numbers on the Dell, LV first\n\n", a,
                                        "\nThen the same disk as a plain partition, which took a "
                                        "little longer to set up:\n\n", b, "\nRegards,\nTom\n", NULL);
    g_autofree char *headed = g_strconcat("LV (dom0, 2 stripes), first run:\n\n", a, NULL);
    vdc_result_set rs = import_text(page, NULL, 2, NULL);

    (void)state;
    assert_string_equal(rs.runs[0]->target, "dell-lv");
    assert_string_equal(rs.runs[1]->target, "dell-part");
    vdc_result_set_dispose(&rs);
    /* a short heading with a comma is still one */
    rs = import_text(headed, NULL, 1, NULL);
    assert_string_equal(rs.runs[0]->target, "LV (dom0, 2 stripes), first run");
    vdc_result_set_dispose(&rs);
}

/* ---- what the targets are: kinds, where, RAM ---------------------------------------- */

static void
test_kind_of_name(void **state)
{
    static const struct { const char *name, *kind, *why; } cases[] = {
        { "Test 1 - disk image", "image", "its name says 'disk image'" },
        { "Test 2 - LVM", "lvm", "its name says 'lvm'" },
        { "Test 3 - Dom0 - LVM", "dom0", "its name says 'dom0'" },
        { "/dev/md0 (software RAID-0, 4 KB chunk size, /dev/hda3 + /dev/hdc1)", "block",
          "its name says 'raid'" },
        { "/dev/VG00/LV00 (LVM 1.0, stripes=1, /dev/hda3)", "lvm", "its name says 'lvm'" },
        { "/dev/hda3 (ext2 with 4-KB block size)", "block",
          "its name is a disk's or partition's device path" },
        { "/dev/vg1/test", "lvm", "its name is an LV's device path (/dev/VG/LV)" },
        { "/dev/mapper/vg0-web", "lvm", "its name is an LV's device path (/dev/VG/LV)" },
        { "/srv/xen/centtest.img", "image", "its name says 'img'" },
        { "/var/lib/xen/web.qcow2", "image", "its name says 'qcow2'" },
        { "the partition", "block", "its name says 'partition'" },
        { "file-backed domU", "image", "its name says 'file'" },
        { "xen-lvtest", NULL, NULL },           /* "lv" inside a word */
        { "disk check on vm, 2026-12-06", NULL, NULL },
        { "host 2 (ext2 defaults)", NULL, NULL },
    };
    size_t i;

    (void)state;
    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        char *why = NULL;
        const char *k = vdc_import_kind_of_name(cases[i].name, &why);

        if (g_strcmp0(k, cases[i].kind) || g_strcmp0(why, cases[i].why))
            fail_msg("%s: %s (%s), expected %s (%s)", cases[i].name, k, why, cases[i].kind,
                     cases[i].why);
        g_free(why);
    }
}

/* seed 003's shape: the domU's xm config, three headings, dom0's RAM in a
 * paragraph naming Dom0 */
static const char xen_page[] =
    "name = \"centtest\"\n"
    "memory = \"512\"\n"
    "\n"
    "Test 1 - disk image\n\n%s\n"
    "Test 2 - LVM\n\n%s\n"
    "Test 3 - Dom0 - LVM\n\n%s\n"
    "The last test was done in Dom0 because I have 5 GB of ram available.\n";

static char *
bonnie103(const char *machine, const char *size)
{
    return g_strdup_printf("Version 1.03 ------Sequential Output------ --Sequential Input- --Random-\n"
                           "-Per Chr- --Block-- -Rewrite- -Per Chr- --Block-- --Seeks--\n"
                           "Machine Size K/sec %%CP K/sec %%CP K/sec %%CP K/sec %%CP K/sec %%CP /sec %%CP\n"
                           "%s %s 6065 15 70595 37 20649 2 26878 53 57270 0 135.8 0\n", machine, size);
}

static void
test_described(void **state)
{
    g_autofree char *a = bonnie103("localhost.locald", "2G"), *b = bonnie103("localhost.locald", "2G");
    g_autofree char *c = bonnie103("dom0-host", "10048M");
    g_autofree char *page = g_strdup_printf(xen_page, a, b, c);
    vdc_import_options o;
    vdc_kind_map_entry map = { (char *)"test 2", (char *)"block" };
    vdc_result_set rs;
    const vdc_target *t;
    char *err;

    (void)state;
    vdc_set_quiet(0);
    vdc_result_set_init(&rs);
    capture_stderr_begin();
    assert_int_equal(vdc_import_data(&rs, page, strlen(page), "page.txt", NULL, VDC_IMPORT_AUTO), 3);
    err = capture_stderr_end();
    assert_string_equal(err,
        "vmdiskcmp: [progress] page.txt: target 'Test 1 - disk image': kind image (its name says "
        "'disk image'; --kind-map 'TEXT=KIND' to change), domU; RAM 512 MiB (page.txt:2: memory = "
        "\"512\"); dom0's RAM 5120 MiB (page.txt:25: ...done in Dom0 because I have 5 GB of ram "
        "available.)\n"
        "vmdiskcmp: [progress] page.txt: target 'Test 2 - LVM': kind lvm (its name says 'lvm'; "
        "--kind-map 'TEXT=KIND' to change), domU; RAM 512 MiB (page.txt:2: memory = \"512\"); "
        "dom0's RAM 5120 MiB (page.txt:25: ...done in Dom0 because I have 5 GB of ram available.)\n"
        "vmdiskcmp: [progress] page.txt: target 'Test 3 - Dom0 - LVM': kind dom0 (its name says "
        "'dom0'; --kind-map 'TEXT=KIND' to change), dom0; RAM 5120 MiB (page.txt:25: ...done in "
        "Dom0 because I have 5 GB of ram available.)\n");
    free(err);
    vdc_set_quiet(1);
    t = vdc_result_set_find_target(&rs, "Test 1 - disk image");
    assert_string_equal(t->where, "domU");
    assert_int_equal(t->memory_mib, 512);
    assert_int_equal(t->dom0_memory_mib, 5120);
    assert_string_equal(t->provenance.memory_mib, "page.txt:2: memory = \"512\"");
    t = vdc_result_set_find_target(&rs, "Test 3 - Dom0 - LVM");
    assert_string_equal(t->kind, "dom0");
    assert_int_equal(t->memory_mib, 5120);
    assert_int_equal(t->dom0_memory_mib, VDC_INT_ABSENT);
    vdc_result_set_dispose(&rs);

    /* the options win over the page: --kind-map, --ram, --dom0-ram */
    vdc_import_options_init(&o);
    o.kind_map = &map;
    o.n_kind_map = 1;
    o.ram_mib = 1024;
    o.dom0_ram_mib = 4096;
    vdc_result_set_init(&rs);
    assert_int_equal(vdc_import_data_with(&rs, page, strlen(page), "page.txt", NULL, VDC_IMPORT_AUTO,
                                          &o), 3);
    t = vdc_result_set_find_target(&rs, "Test 2 - LVM");
    assert_string_equal(t->kind, "block");
    assert_string_equal(t->provenance.kind, "--kind-map 'test 2=block'");
    assert_int_equal(t->memory_mib, 1024);
    assert_string_equal(t->provenance.memory_mib, "--ram 1024");
    assert_int_equal(t->dom0_memory_mib, 4096);
    t = vdc_result_set_find_target(&rs, "Test 3 - Dom0 - LVM");
    assert_int_equal(t->memory_mib, 4096);
    assert_string_equal(t->provenance.memory_mib, "--dom0-ram 4096");
    vdc_result_set_dispose(&rs);
}

static void
test_ram_statements(void **state)
{
    static const struct { const char *line; int64_t mib; vdc_ram_scope scope; } found[] = {
        { "128 MB RAM (don't know if 100 MHz or 133 MHz, sorry)", 128, VDC_RAM_MACHINE },
        { "Installed RAM was 128 MB", 128, VDC_RAM_MACHINE },
        { "memory = \"512\"", 512, VDC_RAM_DOMU },
        { "memory=2048", 2048, VDC_RAM_DOMU },
        { "  <memory unit='KiB'>524288</memory>", 512, VDC_RAM_DOMU },
        { "kernel /xen.gz dom0_mem=1024M,max:1024M", 1024, VDC_RAM_DOM0 },
        { "because I have 5 GB of ram available in Dom0", 5120, VDC_RAM_DOM0 },
        { "the guest has 1,5 GB of memory", 1536, VDC_RAM_DOMU },
        { "RAM: 4 GiB", 4096, VDC_RAM_MACHINE },
    };
    static const char *const none[] = {
        "hda: 39102336 sectors (20020 MB) w/512KiB Cache, CHS=2434/255/63, UDMA(66)",
        "with a test size double the size of installed RAM (command line is: bonnie -s 256)",
        "Filesystem used was ext2 with 4-KB block size.",
    };
    size_t i;

    (void)state;
    for (i = 0; i < G_N_ELEMENTS(found); i++) {
        int64_t mib = 0;
        vdc_ram_scope scope = VDC_RAM_MACHINE;
        char *text = NULL;

        if (!vdc_import_ram_statement(found[i].line, &mib, &scope, &text) || mib != found[i].mib ||
            scope != found[i].scope)
            fail_msg("%s: %d %" G_GINT64_FORMAT " MiB scope %d", found[i].line,
                     vdc_import_ram_statement(found[i].line, &mib, &scope, NULL), (gint64)mib, scope);
        assert_non_null(text);
        g_free(text);
    }
    for (i = 0; i < G_N_ELEMENTS(none); i++) {
        int64_t mib = 0;
        vdc_ram_scope scope;

        if (vdc_import_ram_statement(none[i], &mib, &scope, NULL))
            fail_msg("%s: read as %" G_GINT64_FORMAT " MiB of RAM", none[i], (gint64)mib);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bonnie196_f_latency),
        cmocka_unit_test(test_dd_loop),
        cmocka_unit_test(test_dd_tool_log),
        cmocka_unit_test(test_dd_ru),
        cmocka_unit_test(test_sentences_not_labels),
        cmocka_unit_test(test_kind_of_name),
        cmocka_unit_test(test_described),
        cmocka_unit_test(test_ram_statements),
    };

    /* the progress lines saying what each target is are checked by
     * test_described (test_import_shapes.c); here stderr holds the
     * messages and warnings only */
    vdc_set_quiet(1);
    return cmocka_run_group_tests(tests, NULL, NULL);
}
