/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The target description's one table of names (src/model/target.h): every
 * value of every dimension has a name that parses back to it, names are
 * unique within a dimension, unknown names (and other dimensions' names)
 * are refused, every dimension has a key and can be read and written by
 * dimension, and a zeroed description is the documented default. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "model/result.h"
#include "model/target.h"

/* every dimension with its number of values (the enums' members) */
static const struct {
    vdc_target_dim dim;
    int n;
    const char *choices;
} dims[] = {
    { VDC_DIM_WHERE, 2, "domU|dom0" },
    { VDC_DIM_BACKING, 3, "image|lvm|block" },
    { VDC_DIM_IMAGE_FORMAT, 2, "raw|qcow2" },
    { VDC_DIM_IMAGE_ALLOC, 4, "sparse|falloc|full|metadata" },
    { VDC_DIM_IMAGE_BACKEND, 4, "auto|phy|qdisk|tap" },
    { VDC_DIM_IMAGE_CACHE, 2, "host|none" },
    { VDC_DIM_DISK_CACHE, 5, "default|none|writeback|directsync|writethrough" },
    { VDC_DIM_DISK_IO, 4, "default|native|io_uring|threads" },
    { VDC_DIM_IOTHREADS, VDC_IOTHREADS_MAX + 2,
      "default|0|1|2|3|4|5|6|7|8|9|10|11|12|13|14|15|16" },
    { VDC_DIM_DISK_BUS, 3, "default|virtio-blk|virtio-scsi" },
    { VDC_DIM_LV_TYPE, 3, "linear|striped|thin" },
    { VDC_DIM_FILL, VDC_FILL_PERCENT_MAX + 2,
      "default|0|1|2|3|4|5|6|7|8|9|10|11|12|13|14|15|16|17|18|19|20|21|22|23|24|25|26|27|28|29|30|"
      "31|32|33|34|35|36|37|38|39|40|41|42|43|44|45|46|47|48|49|50|51|52|53|54|55|56|57|58|59|60|61|"
      "62|63|64|65|66|67|68|69|70|71|72|73|74|75|76|77|78|79|80|81|82|83|84|85|86|87|88|89|90|91|92|"
      "93|94|95" },
    { VDC_DIM_PRECONDITION, 2, "off|on" },
};

static void
test_round_trip(void **state)
{
    size_t d;
    int v;

    for (d = 0; d < G_N_ELEMENTS(dims); d++) {
        g_autofree char *choices = vdc_target_choices(dims[d].dim, "|");

        assert_string_equal(choices, dims[d].choices);
        for (v = 0; v < dims[d].n; v++) {
            const char *name = vdc_target_name(dims[d].dim, v);

            assert_non_null(name);
            assert_int_equal(vdc_target_parse(dims[d].dim, name), v);
        }
        /* one past the last value has no name */
        assert_null(vdc_target_name(dims[d].dim, dims[d].n));
        assert_null(vdc_target_name(dims[d].dim, -1));
    }
    /* the names plan.json, the journal and result.json have always used */
    assert_string_equal(vdc_target_name(VDC_DIM_BACKING, VDC_BACKING_LVM), "lvm");
    assert_string_equal(vdc_target_name(VDC_DIM_WHERE, VDC_WHERE_DOMU), "domU");
    assert_string_equal(vdc_target_name(VDC_DIM_IMAGE_BACKEND, VDC_BACKEND_QDISK), "qdisk");
    assert_string_equal(vdc_target_name(VDC_DIM_IMAGE_ALLOC, VDC_IMAGE_FALLOC), "falloc");
    assert_string_equal(vdc_target_name(VDC_DIM_IMAGE_CACHE, VDC_IMAGE_CACHE_NONE), "none");
    /* numbers: the value is the count + 1, 0 "not given"; no leading
     * zero, nothing past the maximum */
    assert_int_equal(vdc_target_parse(VDC_DIM_IOTHREADS, "0"), 1);
    assert_int_equal(vdc_target_parse(VDC_DIM_IOTHREADS, "16"), 17);
    assert_int_equal(vdc_target_parse(VDC_DIM_IOTHREADS, "17"), -1);
    assert_int_equal(vdc_target_parse(VDC_DIM_IOTHREADS, "01"), -1);
    assert_int_equal(vdc_target_parse(VDC_DIM_IOTHREADS, "-1"), -1);
    assert_int_equal(vdc_target_parse(VDC_DIM_IOTHREADS, ""), -1);
    assert_int_equal(vdc_target_iothreads(&(vdc_target_spec){ .iothreads = 3 }), 2);
    assert_int_equal(vdc_target_iothreads(&(vdc_target_spec){ 0 }), -1);
    /* every dimension is in the table above */
    assert_int_equal(G_N_ELEMENTS(dims), VDC_DIM_COUNT);
}

/* Each dimension has a key of its own, and is a member of the description
 * that can be read and written by dimension (what the journal walks). */
static void
test_dims(void **state)
{
    size_t d, e;
    int v;

    for (d = 0; d < G_N_ELEMENTS(dims); d++) {
        assert_non_null(vdc_target_dim_key(dims[d].dim));
        for (e = 0; e < d; e++)
            assert_string_not_equal(vdc_target_dim_key(dims[d].dim), vdc_target_dim_key(dims[e].dim));
        for (v = 0; v < dims[d].n; v++) {
            vdc_target_spec s = { 0 };

            vdc_target_spec_set(&s, dims[d].dim, v);
            assert_int_equal(vdc_target_spec_get(&s, dims[d].dim), v);
            for (e = 0; e < G_N_ELEMENTS(dims); e++)     /* nothing else changed */
                if (e != d)
                    assert_int_equal(vdc_target_spec_get(&s, dims[e].dim), 0);
        }
    }
    assert_string_equal(vdc_target_dim_key(VDC_DIM_IMAGE_CACHE), "image_cache");
    assert_null(vdc_target_dim_key(VDC_DIM_COUNT));
    assert_int_equal(vdc_target_spec_get(&(vdc_target_spec){ 0 }, VDC_DIM_COUNT), -1);
}

static void
test_unknown_refused(void **state)
{
    static const struct {
        vdc_target_dim dim;
        const char *name;
    } bad[] = {
        { VDC_DIM_BACKING, "LVM" },             /* names are exact */
        { VDC_DIM_BACKING, "lv" },              /* the journal's kind, not a backing */
        { VDC_DIM_BACKING, "dom0" },            /* a where, not a backing */
        { VDC_DIM_WHERE, "domu" },
        { VDC_DIM_WHERE, "host" },
        { VDC_DIM_IMAGE_FORMAT, "vmdk" },
        { VDC_DIM_IMAGE_FORMAT, "raw " },
        { VDC_DIM_IMAGE_ALLOC, "thick" },
        { VDC_DIM_IMAGE_BACKEND, "vhd" },
        { VDC_DIM_IMAGE_BACKEND, "raw" },       /* another dimension's name */
        { VDC_DIM_IMAGE_BACKEND, "" },
        { VDC_DIM_IMAGE_CACHE, "writeback" },
        { VDC_DIM_IMAGE_CACHE, "None" },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(bad); i++)
        if (vdc_target_parse(bad[i].dim, bad[i].name) != -1) {
            print_error("'%s' was accepted\n", bad[i].name);
            fail();
        }
    assert_int_equal(vdc_target_parse(VDC_DIM_BACKING, NULL), -1);
    assert_null(vdc_target_name((vdc_target_dim)99, 0));
}

static void
test_spec(void **state)
{
    vdc_target_spec zero = { 0 };
    vdc_target_spec lv0 = { .where = VDC_WHERE_DOM0, .backing = VDC_BACKING_LVM };
    vdc_target_spec blk = { .backing = VDC_BACKING_BLOCK };

    /* zeroed: a domU raw sparse image, backend auto */
    assert_int_equal(zero.where, VDC_WHERE_DOMU);
    assert_int_equal(zero.backing, VDC_BACKING_IMAGE);
    assert_int_equal(zero.format, VDC_IMAGE_RAW);
    assert_int_equal(zero.alloc, VDC_IMAGE_SPARSE);
    assert_int_equal(zero.backend, VDC_BACKEND_AUTO);
    assert_int_equal(zero.cache, VDC_IMAGE_CACHE_HOST);
    assert_true(vdc_target_spec_domu_image(&zero));
    assert_string_equal(vdc_target_spec_kind(&zero), "image");
    /* the baseline's kind is dom0, whatever backs it */
    assert_string_equal(vdc_target_spec_kind(&lv0), "dom0");
    assert_false(vdc_target_spec_domu_image(&lv0));
    assert_string_equal(vdc_target_spec_kind(&blk), "block");
    assert_false(vdc_target_spec_domu_image(&blk));
    /* QEMU's defaults: nothing given is what the run has always given */
    assert_int_equal(zero.disk_cache, VDC_DISK_CACHE_DEFAULT);
    assert_int_equal(zero.disk_io, VDC_DISK_IO_DEFAULT);
    assert_int_equal(zero.disk_bus, VDC_DISK_BUS_DEFAULT);
    assert_int_equal(vdc_target_qemu_cache(&zero), VDC_DISK_CACHE_WRITEBACK);
    assert_int_equal(vdc_target_qemu_io(&zero), VDC_DISK_IO_DEFAULT);
    assert_int_equal(vdc_target_qemu_cache(&blk), VDC_DISK_CACHE_NONE);
    assert_int_equal(vdc_target_qemu_io(&blk), VDC_DISK_IO_NATIVE);
    {
        vdc_target_spec nocache = { .cache = VDC_IMAGE_CACHE_NONE };
        vdc_target_spec wb = { .backing = VDC_BACKING_LVM, .disk_cache = VDC_DISK_CACHE_WRITEBACK };
        vdc_target_spec uring = { .backing = VDC_BACKING_LVM, .disk_io = VDC_DISK_IO_IO_URING };

        assert_int_equal(vdc_target_qemu_cache(&nocache), VDC_DISK_CACHE_NONE);
        assert_int_equal(vdc_target_qemu_io(&nocache), VDC_DISK_IO_NATIVE);
        /* a cache given alone: QEMU's default I/O, not native */
        assert_int_equal(vdc_target_qemu_cache(&wb), VDC_DISK_CACHE_WRITEBACK);
        assert_int_equal(vdc_target_qemu_io(&wb), VDC_DISK_IO_DEFAULT);
        assert_int_equal(vdc_target_qemu_cache(&uring), VDC_DISK_CACHE_NONE);
        assert_int_equal(vdc_target_qemu_io(&uring), VDC_DISK_IO_IO_URING);
    }
    /* what the journal records with an image: its storage dimensions */
    assert_true(vdc_target_dim_storage(VDC_DIM_IMAGE_CACHE));
    assert_true(vdc_target_dim_storage(VDC_DIM_IMAGE_FORMAT));
    assert_false(vdc_target_dim_storage(VDC_DIM_DISK_CACHE));
    assert_false(vdc_target_dim_storage(VDC_DIM_BACKING));
}

/* targets[].kind read back: every kind a description gives parses to its
 * where and backing; dom0 keeps the backing it had; others are refused */
static void
test_kind_parse(void **state)
{
    const vdc_target_spec specs[] = {
        { .backing = VDC_BACKING_IMAGE }, { .backing = VDC_BACKING_LVM },
        { .backing = VDC_BACKING_BLOCK }, { .where = VDC_WHERE_DOM0, .backing = VDC_BACKING_LVM },
    };
    vdc_target_spec s;
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(specs); i++) {
        s = (vdc_target_spec){ .backing = specs[i].backing };
        assert_int_equal(vdc_target_kind_parse(vdc_target_spec_kind(&specs[i]), &s), 0);
        assert_int_equal(s.where, specs[i].where);
        assert_int_equal(s.backing, specs[i].backing);
    }
    s = (vdc_target_spec){ .where = VDC_WHERE_DOM0, .backing = VDC_BACKING_BLOCK };
    assert_int_equal(vdc_target_kind_parse("imported", &s), -1);
    assert_int_equal(vdc_target_kind_parse("domU", &s), -1);
    assert_int_equal(vdc_target_kind_parse("qcow2", &s), -1);
    assert_int_equal(vdc_target_kind_parse(NULL, &s), -1);
    assert_int_equal(s.where, VDC_WHERE_DOM0);
    assert_int_equal(s.backing, VDC_BACKING_BLOCK);
}

/* the role by kind, as the headline, the stopping rule, the ranking and
 * the reading pair targets: image, an LV or a block device ("LV"), dom0
 * whatever backs it; a kind no run's target has (an import's "imported"),
 * or no record, is other */
static void
test_role(void **state)
{
    static const struct {
        const char *kind;
        vdc_target_role role;
    } cases[] = {
        { "image", VDC_ROLE_IMAGE }, { "lvm", VDC_ROLE_LV }, { "block", VDC_ROLE_LV },
        { "dom0", VDC_ROLE_DOM0 }, { "imported", VDC_ROLE_OTHER }, { NULL, VDC_ROLE_OTHER },
    };
    vdc_target_spec s = { .where = VDC_WHERE_DOM0, .backing = VDC_BACKING_LVM };
    vdc_result_set rs;
    size_t i;

    (void)state;
    assert_int_equal(vdc_target_spec_role(&s), VDC_ROLE_DOM0);
    s.where = VDC_WHERE_DOMU;
    assert_int_equal(vdc_target_spec_role(&s), VDC_ROLE_LV);
    s.backing = VDC_BACKING_IMAGE;
    assert_int_equal(vdc_target_spec_role(&s), VDC_ROLE_IMAGE);
    vdc_result_set_init(&rs);
    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        char name[16];
        vdc_target *t;

        g_snprintf(name, sizeof(name), "t%zu", i);
        t = vdc_result_set_add_target(&rs, name);
        vdc_set_str(&t->kind, cases[i].kind);
        assert_int_equal(vdc_result_set_target_role(&rs, name), cases[i].role);
    }
    assert_int_equal(vdc_result_set_target_role(&rs, "absent"), VDC_ROLE_OTHER);
    vdc_result_set_dispose(&rs);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_unknown_refused),
        cmocka_unit_test(test_dims),
        cmocka_unit_test(test_spec),
        cmocka_unit_test(test_kind_parse),
        cmocka_unit_test(test_role),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
