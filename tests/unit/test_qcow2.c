/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the qcow2 read-back (src/storage/qcow2.c): qemu-img 7.2's
 * own `info --output=json` and `map --output=json` (captured here from
 * images made with each preallocation, a compat=0.10 image, a raw image
 * and a partly written one) parsed, malformed answers refused naming the
 * member, and the check of a preallocation against what was read. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <glib.h>

#include "storage/storage.h"
#include "test_stderr.h"

/* qemu-img create -f qcow2 -o cluster_size=65536,preallocation=metadata q.qcow2 64M */
static const char info_metadata[] =
    "{\n    \"virtual-size\": 67108864,\n    \"filename\": \"q-metadata.qcow2\",\n"
    "    \"cluster-size\": 65536,\n    \"format\": \"qcow2\",\n    \"actual-size\": 266240,\n"
    "    \"format-specific\": {\n        \"type\": \"qcow2\",\n        \"data\": {\n"
    "            \"compat\": \"1.1\",\n            \"compression-type\": \"zlib\",\n"
    "            \"lazy-refcounts\": false,\n            \"refcount-bits\": 16,\n"
    "            \"corrupt\": false,\n            \"extended-l2\": false\n        }\n    },\n"
    "    \"dirty-flag\": false\n}\n";
static const char map_metadata[] =
    "[{ \"start\": 0, \"length\": 67108864, \"depth\": 0, \"present\": true, \"zero\": true, "
    "\"data\": true, \"offset\": 327680}]\n";
static const char map_off[] =
    "[{ \"start\": 0, \"length\": 67108864, \"depth\": 0, \"present\": false, \"zero\": true, "
    "\"data\": false}]\n";
static const char map_full[] =
    "[{ \"start\": 0, \"length\": 67108864, \"depth\": 0, \"present\": true, \"zero\": false, "
    "\"data\": true, \"offset\": 327680}]\n";
/* 192 KiB written, then resized to 1 MiB */
static const char map_part[] =
    "[{ \"start\": 0, \"length\": 196608, \"depth\": 0, \"present\": true, \"zero\": false, "
    "\"data\": true, \"offset\": 327680},\n{ \"start\": 196608, \"length\": 851968, \"depth\": 0, "
    "\"present\": false, \"zero\": true, \"data\": false}]\n";
/* -o compat=0.10,cluster_size=4096: no lazy-refcounts, corrupt, extended-l2 */
static const char info_compat010[] =
    "{\n    \"virtual-size\": 1048576,\n    \"filename\": \"q2.qcow2\",\n    \"cluster-size\": 4096,\n"
    "    \"format\": \"qcow2\",\n    \"actual-size\": 16384,\n    \"format-specific\": {\n"
    "        \"type\": \"qcow2\",\n        \"data\": {\n            \"compat\": \"0.10\",\n"
    "            \"compression-type\": \"zlib\",\n            \"refcount-bits\": 16\n        }\n"
    "    },\n    \"dirty-flag\": false\n}\n";
static const char info_raw[] =
    "{\n    \"virtual-size\": 1048576,\n    \"filename\": \"r.raw\",\n    \"format\": \"raw\",\n"
    "    \"actual-size\": 4096,\n    \"dirty-flag\": false\n}\n";

static void
test_info(void **state)
{
    vdc_qcow2_info q = { 0 };

    assert_int_equal(vdc_qemu_img_info_parse(info_metadata, "info", &q), 0);
    assert_true(q.virtual_size == 64ull << 20);
    assert_true(q.actual_size == 266240);
    assert_true(q.cluster_size == 65536);
    assert_string_equal(q.compat, "1.1");
    assert_int_equal(q.lazy_refcounts, 0);
    assert_int_equal(q.extended_l2, 0);
    assert_int_equal(q.corrupt, 0);
    assert_int_equal(q.refcount_bits, 16);
    vdc_qcow2_info_dispose(&q);

    assert_int_equal(vdc_qemu_img_info_parse(info_compat010, "info", &q), 0);
    assert_true(q.cluster_size == 4096);
    assert_string_equal(q.compat, "0.10");
    assert_int_equal(q.lazy_refcounts, -1);     /* not said */
    assert_int_equal(q.extended_l2, -1);
    vdc_qcow2_info_dispose(&q);
}

static void
test_info_refused(void **state)
{
    vdc_qcow2_info q = { 0 };
    char *m;

    capture_stderr_begin();
    assert_int_equal(vdc_qemu_img_info_parse(info_raw, "qemu-img info r.raw", &q), -1);
    m = capture_stderr_end();
    assert_non_null(strstr(m, "qemu-img info r.raw: format: expected \"qcow2\", found \"raw\""));
    free(m);

    capture_stderr_begin();
    assert_int_equal(vdc_qemu_img_info_parse("{\"format\": \"qcow2\", \"virtual-size\": 1, "
                                             "\"actual-size\": -4, \"cluster-size\": 65536}",
                                             "info", &q), -1);
    m = capture_stderr_end();
    assert_non_null(strstr(m, "info: actual-size: expected a non-negative integer"));
    free(m);

    capture_stderr_begin();
    assert_int_equal(vdc_qemu_img_info_parse("{\"format\": \"qcow2\", \"virtual-size\": 1, "
                                             "\"actual-size\": 4, \"cluster-size\": 3000}",
                                             "info", &q), -1);
    m = capture_stderr_end();
    assert_non_null(strstr(m, "cluster-size 3000: expected a power of two"));
    free(m);

    capture_stderr_begin();
    assert_int_equal(vdc_qemu_img_info_parse("qemu-img: Could not open", "info", &q), -1);
    assert_int_equal(vdc_qemu_img_info_parse("[]", "info", &q), -1);
    free(capture_stderr_end());
    vdc_qcow2_info_dispose(&q);
}

static void
test_map(void **state)
{
    vdc_qcow2_info q = { 0 };
    char *m;

    assert_int_equal(vdc_qemu_img_map_parse(map_metadata, "map", &q), 0);
    assert_int_equal(q.mapped_read, 1);
    assert_true(q.mapped_bytes == 64ull << 20 && q.mapped_zero_bytes == 64ull << 20);
    assert_int_equal(vdc_qemu_img_map_parse(map_off, "map", &q), 0);
    assert_true(q.mapped_bytes == 0 && q.mapped_zero_bytes == 0);
    assert_int_equal(vdc_qemu_img_map_parse(map_full, "map", &q), 0);
    assert_true(q.mapped_bytes == 64ull << 20 && q.mapped_zero_bytes == 0);
    assert_int_equal(vdc_qemu_img_map_parse(map_part, "map", &q), 0);
    assert_true(q.mapped_bytes == 196608 && q.mapped_zero_bytes == 0);

    capture_stderr_begin();
    assert_int_equal(vdc_qemu_img_map_parse("[{\"start\": 0, \"length\": 1}]", "map", &q), -1);
    m = capture_stderr_end();
    assert_non_null(strstr(m, "map: [0]: expected the booleans data and zero"));
    free(m);
    capture_stderr_begin();
    assert_int_equal(vdc_qemu_img_map_parse("{}", "map", &q), -1);
    assert_int_equal(vdc_qemu_img_map_parse("[1]", "map", &q), -1);
    free(capture_stderr_end());
}

static void
test_alloc_check(void **state)
{
    vdc_qcow2_info q = { 0 };
    char *why;

    assert_int_equal(vdc_qemu_img_info_parse(info_metadata, "info", &q), 0);
    assert_int_equal(vdc_qemu_img_map_parse(map_metadata, "map", &q), 0);
    assert_null(vdc_qcow2_alloc_disagrees(VDC_IMAGE_METADATA, &q));
    why = vdc_qcow2_alloc_disagrees(VDC_IMAGE_SPARSE, &q);
    assert_non_null(strstr(why, "preallocation off, but qemu-img map finds 67108864 bytes"));
    g_free(why);
    why = vdc_qcow2_alloc_disagrees(VDC_IMAGE_FULL, &q);  /* zero clusters, a small file */
    assert_non_null(strstr(why, "preallocation full, but"));
    g_free(why);

    assert_int_equal(vdc_qemu_img_map_parse(map_off, "map", &q), 0);
    assert_null(vdc_qcow2_alloc_disagrees(VDC_IMAGE_SPARSE, &q));
    why = vdc_qcow2_alloc_disagrees(VDC_IMAGE_METADATA, &q);
    assert_non_null(strstr(why, "preallocation metadata, but qemu-img map finds 0 of 67108864"));
    g_free(why);

    assert_int_equal(vdc_qemu_img_map_parse(map_full, "map", &q), 0);
    q.actual_size = 67379200;
    assert_null(vdc_qcow2_alloc_disagrees(VDC_IMAGE_FULL, &q));
    assert_null(vdc_qcow2_alloc_disagrees(VDC_IMAGE_FALLOC, &q));
    q.actual_size = 266240;                                /* the file not that big */
    why = vdc_qcow2_alloc_disagrees(VDC_IMAGE_FALLOC, &q);
    assert_non_null(strstr(why, "266240 bytes in the file"));
    g_free(why);
    vdc_qcow2_info_dispose(&q);
}

static void
test_names(void **state)
{
    assert_string_equal(vdc_qcow2_preallocation(VDC_IMAGE_SPARSE), "off");
    assert_string_equal(vdc_qcow2_preallocation(VDC_IMAGE_METADATA), "metadata");
    assert_string_equal(vdc_qcow2_preallocation(VDC_IMAGE_FALLOC), "falloc");
    assert_string_equal(vdc_qcow2_preallocation(VDC_IMAGE_FULL), "full");
    assert_null(vdc_qcow2_preallocation((vdc_image_alloc)99));
    assert_true(vdc_qcow2_cluster_size_ok(512) && vdc_qcow2_cluster_size_ok(2u << 20));
    assert_false(vdc_qcow2_cluster_size_ok(256) || vdc_qcow2_cluster_size_ok(4u << 20) ||
                 vdc_qcow2_cluster_size_ok(65536 + 512) || vdc_qcow2_cluster_size_ok(0));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_info),
        cmocka_unit_test(test_info_refused),
        cmocka_unit_test(test_map),
        cmocka_unit_test(test_alloc_check),
        cmocka_unit_test(test_names),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
