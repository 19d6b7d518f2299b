/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the alignment rule (src/host/alignment.c): offsets and
 * sizes against the physical block size, the minimum and the optimal I/O
 * size and the alignment offset, each verdict's one line with its numbers,
 * the layers built from a placement, and the filesystem superblock parser
 * (a real mke2fs 1.47 superblock: 2 KiB blocks, stripe_width=64; an XFS
 * superblock built by hand after xfs_format.h). */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "guest-agent/fsunits.h"
#include "host/alignment.h"

static vdc_alignment
disk(uint64_t pbs, uint64_t min, uint64_t opt, uint64_t ao)
{
    vdc_alignment a;

    memset(&a, 0, sizeof(a));
    a.q.logical_block_size = 512;
    a.q.physical_block_size = pbs;
    a.q.minimum_io_size = min;
    a.q.optimal_io_size = opt;
    a.q.alignment_offset = ao;
    return a;
}

static void
test_physical(void **state)
{
    vdc_alignment a = disk(4096, 4096, 0, 0);
    char *why;

    vdc_alignment_add(&a, VDC_ALIGN_PARTITION, 1, 63 * 512, 0);        /* the DOS default */
    vdc_alignment_add(&a, VDC_ALIGN_PV_DATA, 1, 1 << 20, 0);
    vdc_alignment_add(&a, VDC_ALIGN_LV_EXTENT, 1, (1 << 20) + (4 << 20), 4 << 20);
    vdc_alignment_add(&a, VDC_ALIGN_FS_BLOCK, 0, 0, 1024);              /* 1 KiB blocks */
    assert_int_equal(vdc_alignment_check(&a), 2);
    assert_true(a.layers[0].misaligned && a.layers[0].offset_over == 63 * 512 % 4096);
    assert_false(a.layers[1].misaligned || a.layers[2].misaligned);
    assert_true(a.layers[3].misaligned && a.layers[3].size_over == 1024);
    why = vdc_alignment_why(&a, &a.layers[0]);
    assert_string_equal(why, "partition at 32256 bytes is 3584 bytes past a multiple of the "
                             "physical block size 4096");
    g_free(why);
    why = vdc_alignment_why(&a, &a.layers[3]);
    assert_string_equal(why, "fs_block of 1024 bytes is not a multiple of the physical block "
                             "size 4096");
    g_free(why);
    assert_null(vdc_alignment_why(&a, &a.layers[1]));
    /* on a 512-byte disk the same layers are all aligned */
    a.q.physical_block_size = a.q.minimum_io_size = 512;
    assert_int_equal(vdc_alignment_check(&a), 0);
    /* a disk that says nothing makes nothing misaligned */
    a.q.physical_block_size = a.q.minimum_io_size = 0;
    assert_int_equal(vdc_alignment_check(&a), 0);
}

static void
test_minimum_and_offset(void **state)
{
    /* a RAID's minimum I/O size (its chunk) larger than the blocks */
    vdc_alignment a = disk(512, 65536, 0, 0);
    char *why;

    vdc_alignment_add(&a, VDC_ALIGN_PV_DATA, 1, 1 << 20, 0);
    vdc_alignment_add(&a, VDC_ALIGN_PARTITION, 1, 32768, 0);
    assert_int_equal(vdc_alignment_check(&a), 1);
    why = vdc_alignment_why(&a, &a.layers[1]);
    assert_string_equal(why, "partition at 32768 bytes is 32768 bytes past a multiple of the "
                             "minimum I/O size 65536");
    g_free(why);
    /* a disk whose first aligned byte is 3584 (alignment_offset: a 512e
     * disk with 4 KiB blocks offset for DOS partitions) */
    a = disk(4096, 4096, 0, 3584);
    vdc_alignment_add(&a, VDC_ALIGN_PARTITION, 1, 63 * 512, 0);
    assert_int_equal(vdc_alignment_check(&a), 0);
}

static void
test_optimal(void **state)
{
    vdc_alignment a = disk(4096, 65536, 262144, 0);
    char *why;

    vdc_alignment_add(&a, VDC_ALIGN_PV_DATA, 1, 1 << 20, 0);            /* a multiple of 256 KiB */
    vdc_alignment_add(&a, VDC_ALIGN_LV_EXTENT, 1, (1 << 20) + 65536, 4 << 20);
    vdc_alignment_add(&a, VDC_ALIGN_FS_STRIPE, 0, 0, 196608);           /* 3 x 64 KiB */
    vdc_alignment_add(&a, VDC_ALIGN_FS_STRIPE, 0, 0, 524288);
    assert_int_equal(vdc_alignment_check(&a), 2);
    assert_int_equal(a.layers[0].optimal_ok, 1);
    assert_int_equal(a.layers[1].optimal_ok, 0);
    assert_int_equal(a.layers[1].offset_over, 0);                        /* on the 64 KiB unit */
    why = vdc_alignment_why(&a, &a.layers[1]);
    assert_string_equal(why, "lv_extent at 1114112 bytes is not a multiple of the optimal I/O size 262144");
    g_free(why);
    why = vdc_alignment_why(&a, &a.layers[2]);
    assert_string_equal(why, "fs_stripe of 196608 bytes is not a multiple of the optimal I/O size 262144");
    g_free(why);
    assert_false(a.layers[3].misaligned);
    /* an optimal size that is no multiple of the physical unit is ignored */
    a = disk(4096, 4096, 65535, 0);
    vdc_alignment_add(&a, VDC_ALIGN_PV_DATA, 1, 1 << 20, 0);
    assert_int_equal(vdc_alignment_check(&a), 0);
    assert_int_equal(a.layers[0].optimal_ok, -1);
}

static void
test_from_placement(void **state)
{
    vdc_queue_limits q = { .logical_block_size = 512, .physical_block_size = 4096,
                           .minimum_io_size = 4096 };
    vdc_byte_range r[] = { { 1052160, 4 << 20 }, { 9 << 20, 1 << 20 } };
    vdc_placement pl;
    vdc_alignment a;

    memset(&pl, 0, sizeof(pl));
    pl.pos.disk = (char *)"sdb";
    pl.ranges = g_array_new(FALSE, FALSE, sizeof(vdc_byte_range));
    g_array_append_vals(pl.ranges, r, 2);
    /* an LV: pv_data at pe_start, its first extent */
    vdc_alignment_from_placement(&pl, 1, 1052160, 4 << 20, &q, &a);
    assert_int_equal(a.n, 2);
    assert_int_equal(a.layers[0].layer, VDC_ALIGN_PV_DATA);
    assert_true(a.layers[0].misaligned && a.layers[0].offset_over == 3584);
    assert_int_equal(a.layers[1].layer, VDC_ALIGN_LV_EXTENT);
    assert_true(a.layers[1].offset == 1052160 && a.layers[1].size == 4 << 20);
    assert_string_equal(a.disk, "sdb");
    assert_string_equal(a.source, "sysfs,lvs");
    vdc_alignment_dispose(&a);
    /* an image on a partition at 1 MiB: the first misaligned range is the one named */
    g_array_index(pl.ranges, vdc_byte_range, 0).start = 1 << 20;
    g_array_index(pl.ranges, vdc_byte_range, 1).start = (9 << 20) + 512;
    pl.pos.start = 1 << 20;
    vdc_alignment_from_placement(&pl, 0, 0, 65536, &q, &a);
    assert_int_equal(a.n, 2);
    assert_int_equal(a.layers[0].layer, VDC_ALIGN_PARTITION);
    assert_false(a.layers[0].misaligned);
    assert_int_equal(a.layers[1].layer, VDC_ALIGN_IMAGE_CLUSTER);
    assert_true(a.layers[1].offset == (9 << 20) + 512 && a.layers[1].misaligned);
    assert_string_equal(a.source, "sysfs,fiemap");
    vdc_alignment_dispose(&a);
    g_array_unref(pl.ranges);
}

static void
test_fs_units(void **state)
{
    g_autofree char *path = g_build_filename(VDC_GOLDEN_DIR, "ext4-2k-stripe64.sb", NULL);
    g_autofree char *sb = NULL;
    unsigned char xfs[512];
    gsize len = 0;
    uint64_t block = 0, stripe = 0;

    assert_true(g_file_get_contents(path, &sb, &len, NULL));
    assert_int_equal(len, 4096);
    assert_int_equal(vdc_fs_units_parse((unsigned char *)sb, len, &block, &stripe), VDC_FS_EXT);
    assert_true(block == 2048 && stripe == 64 * 2048);
    /* mke2fs -E stride=16 without stripe_width: the stride is the stripe */
    memset(sb + 1024 + 0x170, 0, 4);
    assert_int_equal(vdc_fs_units_parse((unsigned char *)sb, len, &block, &stripe), VDC_FS_EXT);
    assert_true(block == 2048 && stripe == 16 * 2048);
    /* neither: the stripe is 0 */
    memset(sb + 1024 + 0x164, 0, 2);
    assert_int_equal(vdc_fs_units_parse((unsigned char *)sb, len, &block, &stripe), VDC_FS_EXT);
    assert_true(block == 2048 && stripe == 0);
    /* s_log_block_size 7 (128 KiB): beyond ext4's largest */
    sb[1024 + 0x18] = 7;
    block = 1;
    assert_int_equal(vdc_fs_units_parse((unsigned char *)sb, len, &block, &stripe), VDC_FS_NONE);
    assert_true(block == 1);
    /* too short for the superblock */
    assert_int_equal(vdc_fs_units_parse((unsigned char *)sb, 1024 + 0x100, &block, &stripe), VDC_FS_NONE);
    /* XFS, 4 KiB blocks, sunit 16 and swidth 64 blocks */
    memset(xfs, 0, sizeof(xfs));
    memcpy(xfs, "XFSB", 4);
    xfs[6] = 0x10;                      /* 4096, big-endian */
    xfs[187] = 16;
    xfs[191] = 64;
    assert_int_equal(vdc_fs_units_parse(xfs, sizeof(xfs), &block, &stripe), VDC_FS_XFS);
    assert_true(block == 4096 && stripe == 64 * 4096);
    xfs[191] = 0;                       /* no swidth: sunit */
    assert_int_equal(vdc_fs_units_parse(xfs, sizeof(xfs), &block, &stripe), VDC_FS_XFS);
    assert_true(block == 4096 && stripe == 16 * 4096);
    xfs[6] = 0x11;                      /* 4352: not a power of two */
    assert_int_equal(vdc_fs_units_parse(xfs, sizeof(xfs), &block, &stripe), VDC_FS_NONE);
    memset(xfs, 0, sizeof(xfs));
    assert_int_equal(vdc_fs_units_parse(xfs, sizeof(xfs), &block, &stripe), VDC_FS_NONE);
}

/* the readers on files: a superblock in an image file; a file that is no
 * filesystem, with and without a directory for statfs; a fake
 * /sys/block */
static void
test_fs_units_read(void **state)
{
    g_autofree char *path = g_build_filename(VDC_GOLDEN_DIR, "ext4-2k-stripe64.sb", NULL);
    g_autofree char *dir = g_dir_make_tmp("vdc-fsunits-XXXXXX", NULL);
    g_autofree char *blank = g_build_filename(dir, "blank", NULL);
    g_autofree char *queue = g_build_filename(dir, "sdb", "queue", NULL);
    g_autofree char *f = NULL;
    struct vdc_fs_units u;
    struct vdc_disk_limits q;
    static const char *const files[][2] = {
        { "sdb/queue/physical_block_size", "4096\n" }, { "sdb/queue/minimum_io_size", "4096\n" },
        { "sdb/queue/optimal_io_size", "0\n" }, { "sdb/alignment_offset", "512\n" },
    };
    size_t i;

    assert_non_null(dir);
    assert_int_equal(vdc_fs_units_read(path, NULL, &u), 0);
    assert_true(u.block == 2048 && u.stripe == 64 * 2048);
    assert_string_equal(u.source, "ext4 superblock");
    assert_true(g_file_set_contents(blank, "", 0, NULL));
    assert_int_equal(vdc_fs_units_read(blank, NULL, &u), -1);
    assert_true(u.block == 0 && u.source == NULL);
    assert_int_equal(vdc_fs_units_read(blank, dir, &u), 0);
    assert_true(u.block > 0 && u.stripe == 0);
    assert_string_equal(u.source, "statfs");

    assert_int_equal(g_mkdir_with_parents(queue, 0700), 0);
    for (i = 0; i < G_N_ELEMENTS(files); i++) {
        g_free(f);
        f = g_build_filename(dir, files[i][0], NULL);
        assert_true(g_file_set_contents(f, files[i][1], -1, NULL));
    }
    assert_int_equal(vdc_disk_limits_read(dir, "sdb", &q), 0);
    assert_true(q.physical_block_size == 4096 && q.minimum_io_size == 4096 &&
                q.optimal_io_size == 0 && q.alignment_offset == 512);
    assert_int_equal(vdc_disk_limits_read(dir, "sdc", &q), -1);
    assert_int_equal(vdc_disk_limits_read(dir, "../sdb", &q), -1);
    for (i = 0; i < G_N_ELEMENTS(files); i++) {
        g_free(f);
        f = g_build_filename(dir, files[i][0], NULL);
        g_unlink(f);
    }
    g_rmdir(queue);
    g_free(f);
    f = g_build_filename(dir, "sdb", NULL);
    g_rmdir(f);
    g_unlink(blank);
    g_rmdir(dir);
}

/* the guest filesystem's layers against the guest's disk */
static void
test_guest_fs(void **state)
{
    vdc_queue_limits q = { .logical_block_size = 512, .physical_block_size = 4096,
                           .minimum_io_size = 4096, .optimal_io_size = 262144 };
    vdc_alignment a;
    g_autofree char *why = NULL;

    /* 4 KiB blocks, a 1 MiB stripe: aligned */
    assert_int_equal(vdc_alignment_guest_fs("sdb", &q, 4096, 1 << 20, "ext4 superblock", &a), 0);
    assert_int_equal(a.n, 2);
    assert_int_equal(a.layers[0].layer, VDC_ALIGN_FS_BLOCK);
    assert_false(a.layers[0].has_offset);
    assert_int_equal(a.layers[1].layer, VDC_ALIGN_FS_STRIPE);
    assert_string_equal(a.disk, "sdb");
    assert_string_equal(a.source, "ext4 superblock");
    vdc_alignment_dispose(&a);
    /* 2 KiB blocks, a stripe of 3 x 64 KiB: both misaligned */
    assert_int_equal(vdc_alignment_guest_fs("sdb", &q, 2048, 196608, "ext4 superblock", &a), 2);
    why = vdc_alignment_why(&a, &a.layers[0]);
    assert_string_equal(why, "fs_block of 2048 bytes is not a multiple of the physical block size 4096");
    vdc_alignment_dispose(&a);
    /* no stripe: fs_block only; a disk of unknown sizes misaligns nothing */
    memset(&q, 0, sizeof(q));
    assert_int_equal(vdc_alignment_guest_fs("vdb", &q, 1024, 0, "statfs", &a), 0);
    assert_int_equal(a.n, 1);
    vdc_alignment_dispose(&a);
}

static void
test_names(void **state)
{
    int k;

    for (k = 0; k < VDC_ALIGN_LAYER_COUNT; k++)
        assert_int_equal(vdc_align_layer_parse(vdc_align_layer_name(k)), k);
    assert_string_equal(vdc_align_layer_name(VDC_ALIGN_PV_DATA), "pv_data");
    assert_null(vdc_align_layer_name(VDC_ALIGN_LAYER_COUNT));
    assert_int_equal(vdc_align_layer_parse("pv-data"), -1);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_physical),
        cmocka_unit_test(test_minimum_and_offset),
        cmocka_unit_test(test_optimal),
        cmocka_unit_test(test_from_placement),
        cmocka_unit_test(test_fs_units),
        cmocka_unit_test(test_fs_units_read),
        cmocka_unit_test(test_guest_fs),
        cmocka_unit_test(test_names),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
