/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the artefact rules (src/report/artefacts.c) as the
 * analysis applies them (vdc_analysis_build_with: the cells' flag bits and
 * their explanations): each rule fires on the case it is for and stays
 * quiet on the case next to it.  Result sets are built here (model API) or
 * imported from dd transcripts written here. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <glib.h>

#include "import/import.h"
#include "model/result.h"
#include "report/analysis.h"
#include "report/artefacts.h"
#include "report/render_json.h"
#include "report/render_meta.h"

/* @rs analysed with @o (NULL: the defaults), dom0 the baseline when
 * present */
static void
analyse(struct vdc_analysis *a, const vdc_result_set *rs, const vdc_artefact_options *o)
{
    struct vdc_stats_options so;

    vdc_stats_options_init(&so);
    so.bootstrap_resamples = 200;   /* the rules do not read the median's interval */
    vdc_analysis_init(a);
    assert_int_equal(vdc_analysis_build_with(a, rs, NULL, &so, o), 0);
}

/* The artefact flags (VDC_CELL_ARTEFACT_MARKED bits) of (@target, @key) in
 * @rs, 0 when not flagged or not there; *reason (may be NULL) gets a copy
 * of the explanation of @which. */
static unsigned
flags_of(const vdc_result_set *rs, const vdc_artefact_options *o, const char *target,
         const char *key, unsigned which, char **reason)
{
    struct vdc_analysis a;
    unsigned f = 0;
    long ki;
    size_t ti;

    if (reason)
        *reason = NULL;
    analyse(&a, rs, o);
    ki = vdc_analysis_test_index(&a, key);
    for (ti = 0; ki >= 0 && ti < a.n_targets; ti++)
        if (!strcmp(a.targets[ti], target)) {
            const struct vdc_cell *c = vdc_analysis_cell(&a, ti, (size_t)ki);
            int b = vdc_cell_flag_index(which);

            f = c->flags & VDC_CELL_ARTEFACT_MARKED;
            if (reason && b >= 0 && c->why[b])
                *reason = g_strdup(c->why[b]);
        }
    vdc_analysis_dispose(&a);
    return f;
}

/* (@target, @key) is flagged exactly @which, for @reason. */
static void
expect_flag(const vdc_result_set *rs, const vdc_artefact_options *o, const char *target,
            const char *key, unsigned which, const char *reason)
{
    char *why;

    assert_int_equal(flags_of(rs, o, target, key, which, &why), which);
    assert_string_equal(why, reason);
    g_free(why);
}

static vdc_result_set
dd(const char *text)
{
    vdc_result_set rs;

    vdc_result_set_init(&rs);
    assert_true(vdc_import_data(&rs, text, strlen(text), "t.txt", NULL, VDC_IMPORT_AUTO) > 0);
    return rs;
}

#define GIB_WRITE(cmd, secs, rate) \
    cmd "\n16384+0 records in\n16384+0 records out\n" \
    "1073741824 bytes (1.1 GB, 1.0 GiB) copied, " secs " s, " rate "/s\n"

static void
test_page_cache_write(void **state)
{
    vdc_result_set rs = dd(GIB_WRITE("$ dd if=/dev/zero of=/root/t bs=64k count=16k", "0.5",
                                     "2.1 GB"));
    char *why;

    assert_int_equal(flags_of(&rs, NULL, "/root/t", "dd_write@65536",
                              VDC_CELL_PAGE_CACHE_WRITE, &why),
                     VDC_CELL_PAGE_CACHE_WRITE);
    assert_non_null(strstr(why, "1 of 1 dd writes without conv=fdatasync"));
    assert_non_null(strstr(why, "timed the page cache"));
    g_free(why);
    vdc_result_set_dispose(&rs);
    rs = dd(GIB_WRITE("$ dd if=/dev/zero of=/root/t bs=64k count=16k conv=fdatasync", "4.0",
                      "268 MB"));
    assert_int_equal(flags_of(&rs, NULL, "/root/t", "dd_write@65536", 0, NULL), 0);
    vdc_result_set_dispose(&rs);
    rs = dd(GIB_WRITE("$ dd if=/dev/zero of=/root/t bs=64k count=16k oflag=direct", "4.0",
                      "268 MB"));
    assert_int_equal(flags_of(&rs, NULL, "/root/t", "dd_write@65536", 0, NULL), 0);
    vdc_result_set_dispose(&rs);
    /* summary lines alone: dd's operands unknown, no decision */
    rs = dd("vps\n\n=== bs=64k ===\n1073741824 bytes (1.1 GB, 1.0 GiB) copied, 0.5 s, 2.1 GB/s\n");
    assert_int_equal(flags_of(&rs, NULL, "vps", "dd_copy@65536", 0, NULL), 0);
    vdc_result_set_dispose(&rs);
}

static void
test_dd_time_short(void **state)
{
    /* time sh -c "dd ... && sync": dd's 0.5 s against 4.2 s real */
    vdc_result_set rs = dd(GIB_WRITE("$ time sh -c \"dd if=/dev/zero of=/root/t bs=64k count=16k && sync\"",
                                     "0.5", "2.1 GB") "\nreal\t0m4.200s\nuser\t0m0.010s\nsys\t0m0.900s\n");
    char *why;

    assert_true(flags_of(&rs, NULL, "/root/t", "dd_write@65536", VDC_CELL_DD_TIME_SHORT,
                         &why) & VDC_CELL_DD_TIME_SHORT);
    assert_string_equal(why, "dd's own time 0.5 s against 4.2 s real (1 of 1 runs): the command "
                "went on after dd stopped its clock (writeback, sync, close), so dd's "
                "rate is not the disk's");
    g_free(why);
    vdc_result_set_dispose(&rs);
    rs = dd(GIB_WRITE("$ time dd if=/dev/zero of=/root/t bs=64k count=16k conv=fdatasync", "4.0",
                      "268 MB") "\nreal\t0m4.010s\nuser\t0m0.010s\nsys\t0m0.900s\n");
    assert_int_equal(flags_of(&rs, NULL, "/root/t", "dd_write@65536", 0, NULL), 0);
    vdc_result_set_dispose(&rs);
}

/* one run of @target with one sample */
static vdc_run *
run1(vdc_result_set *rs, const char *target, const char *test, double value)
{
    vdc_run *r = vdc_result_set_add_run(rs, target);

    vdc_run_add_sample(r, test)->value = value;
    return r;
}

static void
test_above_ceiling(void **state)
{
    static const vdc_artefact_ceiling link[] = { { "/dev/nbd0", 119.2 }, { "nfs", 119.2 } };
    vdc_artefact_options o;
    vdc_result_set rs;
    vdc_run *r;

    vdc_artefact_options_init(&o);
    o.ceilings = link;
    o.n_ceilings = 2;
    vdc_result_set_init(&rs);
    /* a block read of 200 MiB/s (204800 K/sec) over a 1 Gbit/s link */
    run1(&rs, "nfs", "get_block", 204800);
    run1(&rs, "nfs", "put_block", 102400);       /* 100 MiB/s: possible */
    r = run1(&rs, "remote", "dd_read", 450);
    r->samples[0]->block_size = 1048576;
    vdc_set_str(&r->meta.device, "/dev/nbd0");
    expect_flag(&rs, &o, "nfs", "get_block", VDC_CELL_ABOVE_CEILING,
                "1 of 1 runs above the stated ceiling of nfs, 119.2 MiB/s (highest "
                "200.0 MiB/s): the number cannot be the device's or the link's; a cache "
                "answered");
    assert_int_equal(flags_of(&rs, &o, "nfs", "put_block", 0, NULL), 0);
    assert_int_equal(flags_of(&rs, &o, "remote", "dd_read@1048576", 0, NULL),
                     VDC_CELL_ABOVE_CEILING);
    /* no ceiling stated: nothing to decide */
    assert_int_equal(flags_of(&rs, NULL, "nfs", "get_block", 0, NULL), 0);
    vdc_result_set_dispose(&rs);
}

static void
test_cached_reread(void **state)
{
    vdc_result_set rs;
    vdc_run *r;
    vdc_target *t;
    char *why;

    vdc_result_set_init(&rs);
    r = run1(&rs, "small", "get_block", 900000);
    vdc_run_add_sample(r, "put_block")->value = 70000;
    r->meta.file_size_mib = 512;
    r->meta.ram_mib = 2048;
    r = run1(&rs, "big", "get_block", 90000);
    r->meta.file_size_mib = 4096;
    r->meta.ram_mib = 2048;
    r = run1(&rs, "dropped", "get_block", 90000);
    r->meta.file_size_mib = 512;
    r->meta.ram_mib = 2048;
    r->meta.drop_caches = 1;
    expect_flag(&rs, NULL, "small", "get_block", VDC_CELL_CACHED_REREAD,
                "the 512 MiB file is smaller than the 2048 MiB of RAM and was read "
                "right after it was written (1 of 1 runs): served from the page cache, "
                "not the disk");
    assert_int_equal(flags_of(&rs, NULL, "small", "put_block", 0, NULL), 0);
    /* not cached themselves; their deltas against "small", the baseline
     * (the first target), are marked */
    assert_int_equal(flags_of(&rs, NULL, "big", "get_block", 0, NULL), VDC_CELL_BASELINE_ARTEFACT);
    assert_int_equal(flags_of(&rs, NULL, "dropped", "get_block", 0, NULL), VDC_CELL_BASELINE_ARTEFACT);
    vdc_result_set_dispose(&rs);
    /* dd: write 1 GiB, read it back, on a 4 GiB machine */
    rs = dd(GIB_WRITE("# dd if=/dev/zero of=/root/t bs=64k count=16k conv=fdatasync", "4.0", "268 MB")
            "# dd if=/root/t of=/dev/null bs=64k\n16384+0 records in\n16384+0 records out\n"
            "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 0.4 s, 2.7 GB/s\n"
            "# dd if=/root/t of=/dev/null bs=1M iflag=direct\n1024+0 records in\n1024+0 records out\n"
            "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 2.0 s, 537 MB/s\n");
    t = vdc_result_set_find_target(&rs, "/root/t");
    t->memory_mib = 4096;
    assert_int_equal(flags_of(&rs, NULL, "/root/t", "dd_read@65536", VDC_CELL_CACHED_REREAD,
                              &why), VDC_CELL_CACHED_REREAD);
    assert_non_null(strstr(why, "dd read /root/t (1024.0 MiB) right after a dd write of it, "
                                "less than the 4096 MiB of RAM, without iflag=direct"));
    g_free(why);
    assert_int_equal(flags_of(&rs, NULL, "/root/t", "dd_read@1048576", 0, NULL), 0);
    /* RAM not recorded: no decision */
    t->memory_mib = VDC_INT_ABSENT;
    assert_int_equal(flags_of(&rs, NULL, "/root/t", "dd_read@65536", 0, NULL), 0);
    vdc_result_set_dispose(&rs);
}

/* @n runs of @target, test @test, values @first, @first + @step, ... */
static void
runs(vdc_result_set *rs, const char *target, const char *test, int n, double first, double step)
{
    int i;

    for (i = 0; i < n; i++)
        run1(rs, target, test, first + step * i);
}

static void
test_guest_faster(void **state)
{
    vdc_result_set rs;
    vdc_target *t;
    struct vdc_analysis a;
    struct vdc_stats_comparison c;
    char *want, *why;
    long ki;

    vdc_result_set_init(&rs);
    t = vdc_result_set_add_target(&rs, "lvm");
    vdc_set_str(&t->where, "domU");
    t = vdc_result_set_add_target(&rs, "dom0");
    vdc_set_str(&t->where, "dom0");
    /* get_block: guest mean 81000 against the host's 75500, +7.3 % (more
     * than the 5 % margin), five runs each with a spread of 2000 and 1000:
     * the interval of the delta stays above 0 */
    runs(&rs, "lvm", "get_block", 5, 80000, 500);
    runs(&rs, "dom0", "get_block", 5, 75000, 250);
    /* put_block: +2.7 %, within the margin */
    runs(&rs, "lvm", "put_block", 5, 77094, 250);
    runs(&rs, "dom0", "put_block", 5, 75038, 250);
    /* rewrite: +7.3 % but two runs a side, far apart: the interval reaches
     * below 0, noise can explain it */
    runs(&rs, "lvm", "rewrite", 2, 76000, 10000);
    runs(&rs, "dom0", "rewrite", 2, 75500, 1000);
    /* getc: +50 % from one run each: no interval, no decision */
    run1(&rs, "lvm", "getc", 60000);
    run1(&rs, "dom0", "getc", 40000);

    analyse(&a, &rs, NULL);
    ki = vdc_analysis_test_index(&a, "get_block");
    assert_true(ki >= 0);
    /* targets in order of first appearance: lvm 0, dom0 1 */
    assert_int_equal(vdc_guest_faster_than_host(&a, &rs, 0, 1, (size_t)ki, 0.05, &c), 1);
    assert_true(c.has_ci && c.ci_delta_percent[0] > 0);
    assert_true(fabs(c.delta_percent - 100.0 * (81000.0 / 75500.0 - 1)) < 1e-9);
    /* the host against itself, and the host against the guest, never */
    assert_int_equal(vdc_guest_faster_than_host(&a, &rs, 1, 1, (size_t)ki, 0.05, NULL), 0);
    assert_int_equal(vdc_guest_faster_than_host(&a, &rs, 1, 0, (size_t)ki, 0.05, NULL), 0);
    /* a margin above the +7.3 %: no */
    assert_int_equal(vdc_guest_faster_than_host(&a, &rs, 0, 1, (size_t)ki, 0.08, NULL), 0);
    vdc_analysis_dispose(&a);

    want = g_strdup_printf("the guest's mean 81000 is +7.3%% [95%% CI %+.1f%%, %+.1f%%] above its "
                           "host dom0 (75500), more than the 5%% margin: a guest cannot outrun the "
                           "disk beneath it; the host's page cache or the backend's cache answered "
                           "(a read faster than the host's means a cache is involved)",
                           c.ci_delta_percent[0], c.ci_delta_percent[1]);
    expect_flag(&rs, NULL, "lvm", "get_block", VDC_CELL_GUEST_FASTER, want);
    g_free(want);
    assert_int_equal(flags_of(&rs, NULL, "lvm", "put_block", 0, NULL), 0);
    assert_int_equal(flags_of(&rs, NULL, "lvm", "rewrite", 0, NULL), 0);
    assert_int_equal(flags_of(&rs, NULL, "lvm", "getc", 0, NULL), 0);
    assert_int_equal(flags_of(&rs, NULL, "dom0", "get_block", 0, NULL), 0);
    /* a tighter margin catches put_block's +2.7 % */
    {
        vdc_artefact_options o;

        vdc_artefact_options_init(&o);
        o.guest_margin = 0.01;
        assert_int_equal(flags_of(&rs, &o, "lvm", "put_block", VDC_CELL_GUEST_FASTER, &why),
                         VDC_CELL_GUEST_FASTER);
        assert_non_null(strstr(why, "more than the 1% margin"));
        g_free(why);
    }
    /* two hosts: no single baseline, no decision */
    t = vdc_result_set_add_target(&rs, "host");
    vdc_set_str(&t->where, "dom0");
    run1(&rs, "host", "get_block", 1000);
    assert_int_equal(flags_of(&rs, NULL, "lvm", "get_block", 0, NULL), 0);
    vdc_result_set_dispose(&rs);
}

/* A delta against a flagged baseline cell is marked too
 * (baseline-artefact); the baseline's own cell keeps its flag. */
static void
test_baseline_artefact(void **state)
{
    vdc_result_set rs = dd(GIB_WRITE("$ dd if=/dev/zero of=/dev/sda bs=64k count=16k", "0.5", "2.1 GB")
                           GIB_WRITE("$ dd if=/dev/zero of=/dev/sdb bs=64k count=16k conv=fdatasync",
                                     "4.0", "268 MB"));
    vdc_result_set other = dd("$ dd if=/dev/zero of=/dev/sdb bs=1M count=1k conv=fdatasync\n"
                              "1024+0 records in\n1024+0 records out\n"
                              "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 4.0 s, 268 MB/s\n");

    /* the baseline is the first target, /dev/sda */
    assert_int_equal(flags_of(&rs, NULL, "/dev/sda", "dd_write@65536", 0, NULL),
                     VDC_CELL_PAGE_CACHE_WRITE);
    assert_int_equal(flags_of(&rs, NULL, "/dev/sdb", "dd_write@65536", 0, NULL),
                     VDC_CELL_BASELINE_ARTEFACT);
    assert_int_equal(flags_of(&other, NULL, "/dev/sdb", "dd_write@1048576", 0, NULL), 0);
    vdc_result_set_dispose(&rs);
    vdc_result_set_dispose(&other);
}

static void
test_rounded_identical(void **state)
{
    vdc_result_set rs;
    int i;

    vdc_result_set_init(&rs);
    for (i = 0; i < 3; i++)
        run1(&rs, "h", "put_block", 1.4 * 1048576);      /* 2.00a's "1.4g" three times */
    run1(&rs, "h", "get_block", 1.4 * 1048576);
    run1(&rs, "h", "get_block", 1.5 * 1048576);
    run1(&rs, "h", "rewrite", 700000);
    expect_flag(&rs, NULL, "h", "put_block", VDC_CELL_ROUNDED_IDENTICAL,
                "all 3 runs give exactly 1.46801e+06 K/sec: the 95% CI is zero-width "
                "from the printed rounding (dd's %g seconds, bonnie++ 2.00a's 1.4g), "
                "not from a steady disk");
    assert_int_equal(flags_of(&rs, NULL, "h", "get_block", 0, NULL), 0);
    assert_int_equal(flags_of(&rs, NULL, "h", "rewrite", 0, NULL), 0);   /* one run */
    vdc_result_set_dispose(&rs);
}

/* A hand-made result.json: a domU image read back as going through dom0's
 * page cache, its runs carrying samples[].host as the run writes it
 * (doc/result-format.md), 256 MiB test file, 1 MiB per-char. */
#define HOST_DOC_HEAD \
    "{\"format\":\"vmdiskcmp-result\",\"format_version\":1,\"producer\":{\"name\":\"t\",\"version\":\"1\"}," \
    "\"targets\":[{\"name\":\"image\",\"kind\":\"image\",\"where\":\"domU\"," \
    "\"cache\":{\"requested\":\"host\",\"bypasses_dom0_page_cache\":%s,\"loop_device\":\"/dev/loop3\"," \
    "\"loop_dio\":false,\"source\":\"xenstore,sysfs\"}}," \
    "{\"name\":\"dom0\",\"kind\":\"dom0\",\"where\":\"dom0\"}],\"runs\":["
#define HOST_RUN(rep, put_host, get_host) \
    "{\"target\":\"image\",\"repetition\":" #rep ",\"status\":\"ok\"," \
    "\"metadata\":{\"file_size_bytes\":268435456,\"file_size_mib\":256,\"per_char_size\":1048576}," \
    "\"samples\":[{\"test\":\"put_block\",\"value\":90000" #rep ",\"host\":" put_host "}," \
    "{\"test\":\"get_block\",\"value\":95000" #rep ",\"host\":" get_host "}," \
    "{\"test\":\"seeks\",\"value\":90" #rep ",\"host\":{\"disk_read_bytes\":0}}]}"

static vdc_result_set
host_doc(const char *bypass, const char *runs)
{
    g_autofree char *head = g_strdup_printf(HOST_DOC_HEAD, bypass);
    g_autofree char *doc = g_strconcat(head, runs, "]}", NULL);
    vdc_result_set rs;

    vdc_result_set_init(&rs);
    assert_int_equal(vdc_result_set_load_data(&rs, doc, strlen(doc), "host.json"), 0);
    return rs;
}

/* served from dom0's page cache: by what reached the disk, or without disk
 * counters by dom0's Dirty + Writeback (writes) and the image's residency
 * (reads); the cell when at least half of the judged runs say so */
static void
test_dom0_page_cache(void **state)
{
    struct vdc_analysis a;
    vdc_result_set rs;
    char *why;
    long ki;

    /* run 0: 10 MiB of 256 reached the disk on write, 0 on read; run 1:
     * 250 MiB written through, 200 MiB read from the disk */
    rs = host_doc("false",
                  HOST_RUN(0, "{\"disk_write_bytes\":10485760}", "{\"disk_read_bytes\":0}") ","
                  HOST_RUN(1, "{\"disk_write_bytes\":262144000}", "{\"disk_read_bytes\":209715200}"));
    assert_int_equal(flags_of(&rs, NULL, "image", "put_block", VDC_CELL_DOM0_PAGE_CACHE, &why),
                     VDC_CELL_DOM0_PAGE_CACHE);
    assert_string_equal(why, "served from dom0's page cache in 1 of 2 runs (10.0 MiB reached the disk "
                             "under the image while the test wrote 256.0 MiB): the backend was read "
                             "back as going through dom0's page cache");
    g_free(why);
    assert_int_equal(flags_of(&rs, NULL, "image", "get_block", VDC_CELL_DOM0_PAGE_CACHE, NULL),
                     VDC_CELL_DOM0_PAGE_CACHE);
    assert_int_equal(flags_of(&rs, NULL, "image", "seeks", 0, NULL), 0);   /* not judged */
    /* the counts behind statistics.flags */
    analyse(&a, &rs, NULL);
    ki = vdc_analysis_test_index(&a, "put_block");
    assert_int_equal(vdc_analysis_cell(&a, 0, (size_t)ki)->runs_flagged[15], 1);
    assert_int_equal(vdc_analysis_cell(&a, 0, (size_t)ki)->runs_judged[15], 2);
    {
        JsonNode *st = vdc_statistics_to_json(&a);
        JsonArray *flags = json_object_get_array_member(json_node_get_object(st), "flags");
        JsonObject *f0;

        assert_non_null(flags);
        f0 = json_array_get_object_element(flags, 0);
        assert_string_equal(json_object_get_string_member(f0, "target"), "image");
        assert_string_equal(json_object_get_string_member(f0, "flag"), "dom0-page-cache");
        assert_int_equal(json_object_get_int_member(f0, "runs_flagged"), 1);
        assert_int_equal(json_object_get_int_member(f0, "runs"), 2);
        assert_non_null(strstr(json_object_get_string_member(f0, "evidence"), "reached the disk"));
        json_node_unref(st);
    }
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);

    /* no disk counters: Dirty + Writeback grew by 200 MiB of 256 written;
     * 100 MiB of the image resident before a 256 MiB read: not half */
    rs = host_doc("false",
                  HOST_RUN(0, "{\"dom0_dirty_bytes\":[1048576,157286400],\"dom0_writeback_bytes\":[0,53477376]}",
                           "{\"image_resident_bytes\":[104857600,268435456]}"));
    assert_int_equal(flags_of(&rs, NULL, "image", "put_block", VDC_CELL_DOM0_PAGE_CACHE, &why),
                     VDC_CELL_DOM0_PAGE_CACHE);
    assert_non_null(strstr(why, "dom0's Dirty + Writeback grew by 200.0 MiB while the test wrote 256.0 MiB"));
    g_free(why);
    assert_int_equal(flags_of(&rs, NULL, "image", "get_block", 0, NULL), 0);
    vdc_result_set_dispose(&rs);

    /* read back as bypassing dom0's page cache: never flagged */
    rs = host_doc("true", HOST_RUN(0, "{\"disk_write_bytes\":0}", "{\"disk_read_bytes\":0}"));
    assert_int_equal(flags_of(&rs, NULL, "image", "put_block", 0, NULL), 0);
    vdc_result_set_dispose(&rs);

    /* no host evidence at all (an older document): nothing */
    rs = host_doc("false", HOST_RUN(0, "{}", "{}"));
    assert_int_equal(flags_of(&rs, NULL, "image", "put_block", 0, NULL), 0);
    vdc_result_set_dispose(&rs);
}

/* The artefact keywords are in the one keyword table, after the others
 * (summary.csv's column keeps its order). */
/* misaligned: every test of a target whose alignment names a misaligned
 * layer, with the layer's numbers; an aligned one, and one without
 * alignment, are not flagged; the document keeps the layers */
static void
test_misaligned(void **state)
{
    static const char doc[] =
        "{\"format\":\"vmdiskcmp-result\",\"format_version\":1,\"producer\":{\"name\":\"t\",\"version\":\"1\"},"
        "\"targets\":[{\"name\":\"block\",\"kind\":\"block\",\"where\":\"domU\",\"alignment\":{\"disk\":\"loop4\","
        "\"physical_block_size\":4096,\"minimum_io_size\":4096,\"optimal_io_size\":0,\"layers\":["
        "{\"layer\":\"partition\",\"offset\":1536,\"size\":512,\"why\":\"partition at 1536 bytes is 1536 bytes "
        "past a multiple of the physical unit 4096\"},{\"layer\":\"fs_block\",\"size\":4096}],"
        "\"misaligned\":[\"partition\"],\"source\":\"sysfs,superblock\"}},"
        "{\"name\":\"lvm\",\"kind\":\"lvm\",\"where\":\"domU\",\"alignment\":{\"disk\":\"sda\","
        "\"physical_block_size\":4096,\"layers\":[{\"layer\":\"pv_data\",\"offset\":1048576,\"size\":1048576}],"
        "\"misaligned\":[]}},{\"name\":\"image\",\"kind\":\"image\",\"where\":\"domU\"}],\"runs\":["
        "{\"target\":\"block\",\"repetition\":0,\"samples\":[{\"test\":\"put_block\",\"value\":100},{\"test\":\"seeks\",\"value\":10}]},"
        "{\"target\":\"lvm\",\"repetition\":0,\"samples\":[{\"test\":\"put_block\",\"value\":100}]},"
        "{\"target\":\"image\",\"repetition\":0,\"samples\":[{\"test\":\"put_block\",\"value\":100}]}]}";
    vdc_result_set rs;
    char *why = NULL;
    const vdc_target *t;

    vdc_result_set_init(&rs);
    assert_int_equal(vdc_result_set_load_data(&rs, doc, strlen(doc), "al.json"), 0);
    t = vdc_result_set_find_target(&rs, "block");
    assert_int_equal(t->alignment.n_layers, 2);
    assert_int_equal(vdc_target_misaligned(t), 1);
    assert_int_equal(t->alignment.layers[0].offset, 1536);
    assert_int_equal(flags_of(&rs, NULL, "block", "put_block", VDC_CELL_MISALIGNED, &why), VDC_CELL_MISALIGNED);
    assert_string_equal(why, "the target's storage is misaligned on loop4 (partition at 1536 bytes is 1536 "
                             "bytes past a multiple of the physical unit 4096): every write may be a "
                             "read-modify-write of the disk's physical blocks");
    g_free(why);
    assert_int_equal(flags_of(&rs, NULL, "block", "seeks", VDC_CELL_MISALIGNED, NULL), VDC_CELL_MISALIGNED);
    /* (their baseline, block, is: baseline-artefact, not misaligned) */
    assert_int_equal(flags_of(&rs, NULL, "lvm", "put_block", VDC_CELL_MISALIGNED, NULL) & VDC_CELL_MISALIGNED, 0);
    assert_int_equal(flags_of(&rs, NULL, "image", "put_block", VDC_CELL_MISALIGNED, NULL) & VDC_CELL_MISALIGNED, 0);
    vdc_result_set_dispose(&rs);
}

/* A job run that completed no I/O in its window, as the agent writes it
 * (value, elapsed and latencies null, ios 0, io_uring's per-call ratios
 * null: no call counted): loaded, and its cell flagged no-io-in-window with
 * the job's runtime; the run beside it that completed I/Os is not. */
#define NO_IO_SAMPLE(value, ios, per_submit, clat) \
    "{\"test\":\"workload_read\",\"value\":" value ",\"unit\":\"IO/sec\",\"workload\":{" \
    "\"name\":\"rr\",\"on\":\"file\",\"job\":{\"name\":\"rr\",\"rw\":\"randread\",\"bs\":4096," \
    "\"iodepth\":32,\"numjobs\":1,\"direct\":true,\"size\":16777216,\"runtime_s\":3.0," \
    "\"time_based\":true,\"ioengine\":\"io_uring\"},\"engine\":\"io_uring\",\"iodepth_effective\":32," \
    "\"io_uring\":{\"setup_flags\":0,\"nonvectored\":true,\"ios_per_submit\":" per_submit "," \
    "\"ios_per_reap\":" per_submit "},\"ios\":" ios ",\"bytes\":0,\"clat_us\":" clat "," \
    "\"slat_us\":null}}"

static void
test_no_io_in_window(void **state)
{
    static const char doc[] =
        "{\"format\":\"vmdiskcmp-result\",\"format_version\":2,\"producer\":{\"name\":\"t\",\"version\":\"1\"},"
        "\"runs\":["
        "{\"target\":\"lvm\",\"repetition\":0,\"samples\":[" NO_IO_SAMPLE("null", "0", "null", "null") "]},"
        "{\"target\":\"lvm\",\"repetition\":1,\"samples\":[" NO_IO_SAMPLE("29.3", "127", "1.0",
            "{\"n\":127,\"min\":21036,\"mean\":1080903,\"p50\":1287651,\"p90\":2491416,\"p99\":2793406,"
            "\"p99.9\":2805715,\"p99.99\":2805715,\"max\":2805715}") "]},"
        "{\"target\":\"image\",\"repetition\":0,\"samples\":[" NO_IO_SAMPLE("30.1", "130", "1.0", "null") "]},"
        "{\"target\":\"image\",\"repetition\":1,\"samples\":[" NO_IO_SAMPLE("31.0", "131", "1.0", "null") "]}]}";
    vdc_result_set rs;

    (void)state;
    vdc_result_set_init(&rs);
    assert_int_equal(vdc_result_set_load_data(&rs, doc, strlen(doc), "noio.json"), 0);
    expect_flag(&rs, NULL, "lvm", "workload_read@rr", VDC_CELL_NO_IO_IN_WINDOW,
                "1 of 2 runs completed no I/O in the job's measured window (runtime=3 s): its I/Os "
                "took longer than the window, so their rate of 0 is the window's, not the disk's; "
                "a longer runtime= measures it");
    assert_int_equal(flags_of(&rs, NULL, "image", "workload_read@rr", VDC_CELL_NO_IO_IN_WINDOW, NULL)
                     & VDC_CELL_NO_IO_IN_WINDOW, 0);
    vdc_result_set_dispose(&rs);
}

/* thin-pool-full: every test of a target whose thin pool was more than
 * 90 % full after the runs (its data, or its metadata), with the pool and
 * the number; a pool at 90 % exactly, one full only before the runs, one
 * whose use after is unknown, and a linear LV are not flagged */
#define THIN_TARGET(name, data, meta) \
    "{\"name\":\"" name "\",\"kind\":\"lvm\",\"where\":\"domU\",\"storage\":{\"lv_type\":\"thin\"," \
    "\"thin\":{\"pool\":\"" name "-pool\",\"chunk_size\":65536,\"data_percent\":" data "," \
    "\"metadata_percent\":" meta ",\"source\":\"lvs\"}}}"
#define ONE_RUN(name) \
    "{\"target\":\"" name "\",\"repetition\":0,\"samples\":[{\"test\":\"put_block\",\"value\":100}," \
    "{\"test\":\"seeks\",\"value\":10}]}"

static void
test_thin_pool_full(void **state)
{
    static const char doc[] =
        "{\"format\":\"vmdiskcmp-result\",\"format_version\":1,\"producer\":{\"name\":\"t\",\"version\":\"1\"},"
        "\"targets\":[" THIN_TARGET("full", "[0.0,96.5]", "[10.94,12.0]") ","
        THIN_TARGET("meta", "[0.0,40.0]", "[10.94,91.25]") ","
        THIN_TARGET("at90", "[0.0,90.0]", "[10.94,90.0]") ","
        THIN_TARGET("before", "[99.0,null]", "[95.0,null]") ","
        "{\"name\":\"lvm\",\"kind\":\"lvm\",\"where\":\"domU\",\"storage\":{\"lv_type\":\"linear\"}}],"
        "\"runs\":[" ONE_RUN("full") "," ONE_RUN("meta") "," ONE_RUN("at90") "," ONE_RUN("before") ","
        ONE_RUN("lvm") "]}";
    vdc_result_set rs;
    static const char *const calm[] = { "at90", "before", "lvm" };
    char *why = NULL, *text;
    size_t i;

    (void)state;
    vdc_result_set_init(&rs);
    assert_int_equal(vdc_result_set_load_data(&rs, doc, strlen(doc), "thin.json"), 0);
    expect_flag(&rs, NULL, "full", "put_block", VDC_CELL_THIN_POOL_FULL,
                "the target's thin pool full-pool was 96.50 % full (data) after the runs, over 90 %: "
                "a write that needs a new chunk may have waited for room or failed");
    assert_int_equal(flags_of(&rs, NULL, "full", "seeks", VDC_CELL_THIN_POOL_FULL, NULL) &
                     VDC_CELL_THIN_POOL_FULL, VDC_CELL_THIN_POOL_FULL);
    /* (its baseline, full, is flagged: it is baseline-artefact as well) */
    assert_int_equal(flags_of(&rs, NULL, "meta", "put_block", VDC_CELL_THIN_POOL_FULL, &why),
                     VDC_CELL_THIN_POOL_FULL | VDC_CELL_BASELINE_ARTEFACT);
    assert_string_equal(why, "the target's thin pool meta-pool was 91.25 % full (metadata) after the runs, "
                             "over 90 %: a write that needs a new chunk may have waited for room or failed");
    g_free(why);
    for (i = 0; i < G_N_ELEMENTS(calm); i++)
        assert_int_equal(flags_of(&rs, NULL, calm[i], "put_block", VDC_CELL_THIN_POOL_FULL, NULL) &
                         VDC_CELL_THIN_POOL_FULL, 0);
    /* the report's storage line: the use before and after, and why it is flagged */
    text = vdc_storage_text(vdc_result_set_find_target(&rs, "full"));
    assert_string_equal(text, "thin LV ?/?; pool full-pool, chunk 64 KiB, data 0.00 % before -> 96.50 % "
                              "after, metadata 10.94 % before -> 12.00 % after; OVER 90 % FULL after the "
                              "runs (data 96.50 %) (read from lvs)");
    g_free(text);
    text = vdc_storage_text(vdc_result_set_find_target(&rs, "before"));
    assert_string_equal(text, "thin LV ?/?; pool before-pool, chunk 64 KiB, data 99.00 % before -> ? after, "
                              "metadata 95.00 % before -> ? after (read from lvs)");
    g_free(text);
    vdc_result_set_dispose(&rs);
}

static void
test_keywords(void **state)
{
    assert_string_equal(vdc_cell_flag_name(VDC_CELL_NOT_COMPARABLE), "not-comparable");
    assert_int_equal(VDC_CELL_PAGE_CACHE_WRITE, VDC_CELL_NOT_COMPARABLE << 1);
    assert_string_equal(vdc_cell_flag_name(VDC_CELL_PAGE_CACHE_WRITE), "page-cache-write");
    assert_string_equal(vdc_cell_flag_name(VDC_CELL_DD_TIME_SHORT), "dd-time-short");
    assert_string_equal(vdc_cell_flag_name(VDC_CELL_ABOVE_CEILING), "above-ceiling");
    assert_string_equal(vdc_cell_flag_name(VDC_CELL_CACHED_REREAD), "cached-reread");
    assert_string_equal(vdc_cell_flag_name(VDC_CELL_GUEST_FASTER), "guest-faster");
    assert_string_equal(vdc_cell_flag_name(VDC_CELL_ROUNDED_IDENTICAL), "rounded-identical");
    assert_string_equal(vdc_cell_flag_name(VDC_CELL_BASELINE_ARTEFACT), "baseline-artefact");
    assert_string_equal(vdc_cell_flag_name(VDC_CELL_DOM0_PAGE_CACHE), "dom0-page-cache");
    assert_int_equal(VDC_CELL_DOM0_PAGE_CACHE, VDC_CELL_BASELINE_ARTEFACT << 1);
    assert_true(VDC_CELL_ARTEFACTS & VDC_CELL_DOM0_PAGE_CACHE);
    assert_string_equal(vdc_cell_flag_name(VDC_CELL_MISALIGNED), "misaligned");
    assert_string_equal(vdc_cell_flag_name(VDC_CELL_NO_IO_IN_WINDOW), "no-io-in-window");
    assert_int_equal(VDC_CELL_MISALIGNED, VDC_CELL_DOM0_PAGE_CACHE << 1);
    assert_string_equal(vdc_cell_flag_name(VDC_CELL_THIN_POOL_FULL), "thin-pool-full");
    assert_int_equal(VDC_CELL_THIN_POOL_FULL, VDC_CELL_NO_IO_IN_WINDOW << 1);
    assert_int_equal(1u << (VDC_CELL_FLAG_COUNT - 1), VDC_CELL_THIN_POOL_FULL);
    assert_true(VDC_CELL_ARTEFACTS & VDC_CELL_THIN_POOL_FULL);
    assert_true(VDC_CELL_ARTEFACTS & VDC_CELL_MISALIGNED);
    assert_null(vdc_cell_flag_name(3));
    assert_null(vdc_cell_flag_name(1u << VDC_CELL_FLAG_COUNT));
    assert_int_equal(vdc_cell_flag_index(VDC_CELL_GUEST_FASTER), 12);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_page_cache_write),
        cmocka_unit_test(test_dd_time_short),
        cmocka_unit_test(test_above_ceiling),
        cmocka_unit_test(test_cached_reread),
        cmocka_unit_test(test_guest_faster),
        cmocka_unit_test(test_baseline_artefact),
        cmocka_unit_test(test_rounded_identical),
        cmocka_unit_test(test_misaligned),
        cmocka_unit_test(test_no_io_in_window),
        cmocka_unit_test(test_thin_pool_full),
        cmocka_unit_test(test_keywords),
        cmocka_unit_test(test_dom0_page_cache),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
