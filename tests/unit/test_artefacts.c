/* Unit tests for src/report/artefacts.c: each rule fires on the case it is
 * for and stays quiet on the case next to it.  Result sets are built here
 * (model API) or imported from dd transcripts written here. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <glib.h>

#include "import/import.h"
#include "model/result.h"
#include "report/artefacts.h"

/* The flags of (@target, @key) in @rs, 0 when not flagged; *reason (may
 * be NULL) gets a copy of the reason of @which. */
static unsigned
flags_of(const vdc_result_set *rs, const vdc_artefact_options *o, const char *target,
         const char *key, vdc_artefact which, char **reason)
{
    size_t n = 0, i;
    vdc_artefact_cell *c = vdc_artefacts_find(rs, o, &n);
    unsigned f = 0;
    int b;

    if (reason)
        *reason = NULL;
    for (i = 0; i < n; i++)
        if (!strcmp(c[i].target, target) && !strcmp(c[i].test_key, key)) {
            f = c[i].flags;
            for (b = 0; b < VDC_ARTEFACT_COUNT; b++)
                if (reason && which == (1u << b) && c[i].reason[b])
                    *reason = g_strdup(c[i].reason[b]);
        }
    vdc_artefacts_free(c, n);
    return f;
}

/* (@target, @key) is flagged exactly @which, for @reason. */
static void
expect_flag(const vdc_result_set *rs, const vdc_artefact_options *o, const char *target,
            const char *key, vdc_artefact which, const char *reason)
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
                              VDC_ARTEFACT_PAGE_CACHE_WRITE, &why),
                     VDC_ARTEFACT_PAGE_CACHE_WRITE);
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

    assert_true(flags_of(&rs, NULL, "/root/t", "dd_write@65536", VDC_ARTEFACT_DD_TIME_SHORT,
                         &why) & VDC_ARTEFACT_DD_TIME_SHORT);
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
    expect_flag(&rs, &o, "nfs", "get_block", VDC_ARTEFACT_ABOVE_CEILING,
                "1 of 1 runs above the stated ceiling of nfs, 119.2 MiB/s (highest "
                "200.0 MiB/s): the number cannot be the device's or the link's; a cache "
                "answered");
    assert_int_equal(flags_of(&rs, &o, "nfs", "put_block", 0, NULL), 0);
    assert_int_equal(flags_of(&rs, &o, "remote", "dd_read@1048576", 0, NULL),
                     VDC_ARTEFACT_ABOVE_CEILING);
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
    expect_flag(&rs, NULL, "small", "get_block", VDC_ARTEFACT_CACHED_REREAD,
                "the 512 MiB file is smaller than the 2048 MiB of RAM and was read "
                "right after it was written (1 of 1 runs): served from the page cache, "
                "not the disk");
    assert_int_equal(flags_of(&rs, NULL, "small", "put_block", 0, NULL), 0);
    assert_int_equal(flags_of(&rs, NULL, "big", "get_block", 0, NULL), 0);
    assert_int_equal(flags_of(&rs, NULL, "dropped", "get_block", 0, NULL), 0);
    vdc_result_set_dispose(&rs);
    /* dd: write 1 GiB, read it back, on a 4 GiB machine */
    rs = dd(GIB_WRITE("# dd if=/dev/zero of=/root/t bs=64k count=16k conv=fdatasync", "4.0", "268 MB")
            "# dd if=/root/t of=/dev/null bs=64k\n16384+0 records in\n16384+0 records out\n"
            "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 0.4 s, 2.7 GB/s\n"
            "# dd if=/root/t of=/dev/null bs=1M iflag=direct\n1024+0 records in\n1024+0 records out\n"
            "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 2.0 s, 537 MB/s\n");
    t = vdc_result_set_find_target(&rs, "/root/t");
    t->memory_mib = 4096;
    assert_int_equal(flags_of(&rs, NULL, "/root/t", "dd_read@65536", VDC_ARTEFACT_CACHED_REREAD,
                              &why), VDC_ARTEFACT_CACHED_REREAD);
    assert_non_null(strstr(why, "dd read /root/t (1024.0 MiB) right after a dd write of it, "
                                "less than the 4096 MiB of RAM, without iflag=direct"));
    g_free(why);
    assert_int_equal(flags_of(&rs, NULL, "/root/t", "dd_read@1048576", 0, NULL), 0);
    /* RAM not recorded: no decision */
    t->memory_mib = VDC_INT_ABSENT;
    assert_int_equal(flags_of(&rs, NULL, "/root/t", "dd_read@65536", 0, NULL), 0);
    vdc_result_set_dispose(&rs);
}

static void
test_guest_faster(void **state)
{
    vdc_result_set rs;
    vdc_target *t;

    vdc_result_set_init(&rs);
    t = vdc_result_set_add_target(&rs, "lvm");
    vdc_set_str(&t->where, "domU");
    t = vdc_result_set_add_target(&rs, "dom0");
    vdc_set_str(&t->where, "dom0");
    run1(&rs, "lvm", "get_block", 80000);
    run1(&rs, "lvm", "get_block", 82000);
    run1(&rs, "dom0", "get_block", 75000);
    run1(&rs, "lvm", "put_block", 77594);     /* +2.7 %: within the margin */
    run1(&rs, "dom0", "put_block", 75538);
    expect_flag(&rs, NULL, "lvm", "get_block", VDC_ARTEFACT_GUEST_FASTER,
                "the guest's mean 81000 is +8.0% above the host's dom0 (75000): a "
                "guest cannot outrun the disk beneath it; the host's page cache or the "
                "backend's cache answered");
    assert_int_equal(flags_of(&rs, NULL, "lvm", "put_block", 0, NULL), 0);
    assert_int_equal(flags_of(&rs, NULL, "dom0", "get_block", 0, NULL), 0);
    vdc_result_set_dispose(&rs);
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
    expect_flag(&rs, NULL, "h", "put_block", VDC_ARTEFACT_ROUNDED_IDENTICAL,
                "all 3 runs give exactly 1.46801e+06 K/sec: the 95% CI is zero-width "
                "from the printed rounding (bonnie++ 2.00a prints 1.4g), not from a "
                "steady disk");
    assert_int_equal(flags_of(&rs, NULL, "h", "get_block", 0, NULL), 0);
    assert_int_equal(flags_of(&rs, NULL, "h", "rewrite", 0, NULL), 0);   /* one run */
    vdc_result_set_dispose(&rs);
}

static void
test_keywords(void **state)
{
    assert_string_equal(vdc_artefact_keyword(VDC_ARTEFACT_PAGE_CACHE_WRITE), "page-cache-write");
    assert_string_equal(vdc_artefact_keyword(VDC_ARTEFACT_DD_TIME_SHORT), "dd-time-short");
    assert_string_equal(vdc_artefact_keyword(VDC_ARTEFACT_ABOVE_CEILING), "above-ceiling");
    assert_string_equal(vdc_artefact_keyword(VDC_ARTEFACT_CACHED_REREAD), "cached-reread");
    assert_string_equal(vdc_artefact_keyword(VDC_ARTEFACT_GUEST_FASTER), "guest-faster");
    assert_string_equal(vdc_artefact_keyword(VDC_ARTEFACT_ROUNDED_IDENTICAL), "rounded-identical");
    assert_null(vdc_artefact_keyword(3));
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
        cmocka_unit_test(test_rounded_identical),
        cmocka_unit_test(test_keywords),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
