/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/plan/levels.c: --guests parsed as a comma list, the
 * plan's levels built from the options, what each level needs, the
 * refusal of a level the host's memory cannot hold (one line), the guests'
 * domain names and storage copies, the dry-run lines and plan.json. */
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

#include "plan/build.h"
#include "plan/levels.h"
#include "plan/options.h"
#include "hv/hv.h"
#include "plan/plan.h"
#include "run/preflight.h"
#include "test_stderr.h"

static const vdc_host_defaults host = {
    .hostname = "host1", .ram_mib = 4096, .xen_control_d = 0, .date_id = "2026-12-06T070000Z",
};

/* Parse and build @line; 0/-1, what was printed on stderr into *err */
static int
build(const char *line, vdc_plan *p, char **err)
{
    g_auto(GStrv) argv = NULL;
    int argc = 0, rc;
    vdc_run_opts o;

    assert_true(g_shell_parse_argv(line, &argc, &argv, NULL));
    vdc_run_opts_init(&o);
    capture_stderr_begin();
    rc = vdc_run_opts_parse(&o, argc, argv);
    if (rc == 0)
        rc = vdc_plan_build(&o, &host, line, p);
    *err = capture_stderr_end();
    vdc_run_opts_dispose(&o);
    return rc;
}

static void
test_parse(void **state)
{
    static const struct {
        const char *arg, *err;   /* err NULL: accepted */
    } cases[] = {
        { "1,3", NULL },
        { "8", NULL },
        { "64,1", NULL },
        { "0", "vmdiskcmp: --guests '0': expected a comma list of integers from 1 to 64\n" },
        { "65", "vmdiskcmp: --guests '65': expected a comma list of integers from 1 to 64\n" },
        { "1,,3", "vmdiskcmp: --guests '1,,3': expected a comma list of integers from 1 to 64\n" },
        { "2x", "vmdiskcmp: --guests '2x': expected a comma list of integers from 1 to 64\n" },
        { "-1", "vmdiskcmp: --guests '-1': expected a comma list of integers from 1 to 64\n" },
        { "", "vmdiskcmp: --guests '': expected a comma list of integers from 1 to 64\n" },
        { "3,1,3", "vmdiskcmp: --guests '3,1,3': '3' given twice: expected each level at most once\n" },
        { "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25",
          "vmdiskcmp: --guests '1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25': "
          "25 values: expected at most 24 levels\n" },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        vdc_dim_list l;
        char *err;
        int rc;

        capture_stderr_begin();
        rc = vdc_guests_parse(cases[i].arg, &l);
        err = capture_stderr_end();
        if (!cases[i].err) {
            assert_int_equal(rc, 0);
            assert_string_equal(err, "");
        } else {
            assert_int_equal(rc, -1);
            assert_string_equal(err, cases[i].err);
            assert_int_equal(l.n, 0);
        }
        free(err);
    }
    {
        vdc_dim_list l;

        assert_int_equal(vdc_guests_parse("3,1", &l), 0);
        assert_int_equal(l.n, 2);
        assert_int_equal(l.v[0], 3);     /* in the order given */
        assert_int_equal(l.v[1], 1);
    }
}

static void
test_plan_levels(void **state)
{
    vdc_plan p;
    vdc_level_need n;
    char *err;
    g_autofree char *text = NULL, *json = NULL, *path = NULL, *dom = NULL;

    vdc_plan_init(&p);
    assert_int_equal(build("run --image --lvm --vg vg0 --guest-image /g.img --guests 1,3 "
                           "--size 1G --lv-size 2G --image-dir /images", &p, &err), 0);
    free(err);
    assert_int_equal(p.guests.n, 2);
    assert_int_equal(vdc_plan_max_guests(&p), 3);
    /* 3 guests of 512 MiB + the overhead; the LV target's 3 copies of
     * 2 GiB, the image's 3 of its disk */
    vdc_plan_level_need(&p, 3, &n);
    assert_int_equal(n.guests, 3);
    assert_int_equal(n.ram_mib, 3 * (512 + VDC_GUEST_OVERHEAD_MIB));
    assert_int_equal(n.lv_bytes, 3 * (2ULL << 30));
    assert_int_equal(n.image_bytes, 3 * p.targets[0].disk_bytes);
    assert_true(p.targets[0].disk_bytes >= (1ULL << 30));

    /* the host: 1728 MiB fits level 3; 1727 does not, one line */
    assert_int_equal(vdc_plan_check_levels(&p, 1728, "MemAvailable"), 0);
    assert_int_equal(vdc_plan_check_levels(&p, 0, "unknown"), 0);   /* not known: not checked */
    capture_stderr_begin();
    assert_int_equal(vdc_plan_check_levels(&p, 1727, "MemAvailable"), -1);
    err = capture_stderr_end();
    assert_string_equal(err, "vmdiskcmp: --guests 3: level 3 needs 1728 MiB of RAM (3 domUs x "
                        "(512 MiB + 64 MiB overhead)), the host has 1727 MiB available "
                        "(MemAvailable): expected --guests at most 2, or less --guest-memory\n");
    free(err);

    /* the guests' domains and copies */
    dom = vdc_plan_guest_domain(&p, 2);
    assert_string_equal(dom, "vmdiskcmp-2026-12-06T070000Z-host1-g2");
    path = vdc_plan_guest_path(&p.targets[0], 0);
    assert_string_equal(path, p.targets[0].path);
    g_free(path);
    path = vdc_plan_guest_path(&p.targets[0], 2);
    assert_string_equal(path, "/images/vmdiskcmp-2026-12-06T070000Z-host1-image-g2.raw");
    g_free(path);
    path = vdc_plan_guest_path(&p.targets[1], 1);
    assert_string_equal(path, "/dev/vg0/vmdiskcmp-2026-12-06T070000Z-lvm-g1");

    /* --dry-run: every domain of every level, and what the level needs */
    text = vdc_plan_to_text(&p);
    assert_non_null(strstr(text, "levels (--guests): 1, 3; "));
    assert_non_null(strstr(text, "  level 3: RAM 1728 MiB (3 x (512 MiB + 64 MiB overhead)), "));
    assert_non_null(strstr(text, "    image guest 2: domain vmdiskcmp-2026-12-06T070000Z-host1-g2, "
                                 "disk /images/vmdiskcmp-2026-12-06T070000Z-host1-image-g2.raw\n"));
    assert_non_null(strstr(text, "    lvm guest 1: domain vmdiskcmp-2026-12-06T070000Z-host1-g1, "
                                 "disk /dev/vg0/vmdiskcmp-2026-12-06T070000Z-lvm-g1\n"));
    assert_null(strstr(text, "lvm guest 3"));
    /* plan.json */
    json = vdc_plan_to_json(&p);
    assert_non_null(strstr(json, "\"guests\" : [\n    1,\n    3\n  ]"));
    assert_non_null(strstr(json, "\"ram_mib\" : 1728"));
    assert_non_null(strstr(json, "\"vmdiskcmp-2026-12-06T070000Z-host1-g2\""));
    vdc_plan_dispose(&p);
}

/* Several image targets (and several LVs): a level needs every target's
 * copies at once, so its images and LVs are summed over the targets, in
 * the struct, the --dry-run line and plan.json; its RAM stays one
 * target's guests (one target boots at a time). */
static void
test_level_need_every_target(void **state)
{
    vdc_plan p;
    vdc_level_need n;
    char *err;
    size_t i, n_image = 0, n_lv = 0;
    uint64_t image = 0, lv = 0;
    g_autofree char *text = NULL, *json = NULL, *line = NULL, *img = NULL, *lvs = NULL, *want = NULL;

    (void)state;
    vdc_plan_init(&p);
    assert_int_equal(build("run --image --image-alloc sparse,full --lvm --vg vg0 --lv-size 2G "
                           "--guest-image /g.img --guests 1,3 --size 1G --image-dir /images "
                           "--image-backend phy,qdisk --hypervisor libxl", &p, &err), 0);
    free(err);
    for (i = 0; i < p.n_targets; i++) {
        if (p.targets[i].spec.where != VDC_WHERE_DOMU)
            continue;
        if (p.targets[i].spec.backing == VDC_BACKING_IMAGE) {
            n_image++;
            image += p.targets[i].disk_bytes;
        } else if (p.targets[i].spec.backing == VDC_BACKING_LVM) {
            n_lv++;
            lv += p.targets[i].disk_bytes;
        }
    }
    assert_int_equal(n_image, 4);     /* sparse, full x phy, qdisk */
    assert_int_equal(n_lv, 1);
    vdc_plan_level_need(&p, 3, &n);
    assert_int_equal(n.ram_mib, 3 * (512 + VDC_GUEST_OVERHEAD_MIB));
    assert_int_equal(n.image_bytes, 3 * image);
    assert_int_equal(n.lv_bytes, 3 * (2ULL << 30));
    assert_int_equal(n.lv_bytes, 3 * lv);
    /* the dry run says the sum */
    img = g_format_size_full(3 * image, G_FORMAT_SIZE_IEC_UNITS);
    lvs = g_format_size_full(3 * lv, G_FORMAT_SIZE_IEC_UNITS);
    want = g_strdup_printf("  level 3: RAM 1728 MiB (3 x (512 MiB + 64 MiB overhead)), images %s, LVs %s\n",
                           img, lvs);
    text = vdc_plan_to_text(&p);
    if (!strstr(text, want))
        fail_msg("\"%s\" not in:\n%s", want, text);
    json = vdc_plan_to_json(&p);
    line = g_strdup_printf("\"image_bytes\" : %" G_GUINT64_FORMAT, 3 * image);
    if (!strstr(json, line))
        fail_msg("\"%s\" not in:\n%s", line, json);
    vdc_plan_dispose(&p);
}

/* the schedule with levels: per repetition each level of each domU target
 * one boot of N steps (guests 0..N-1, their own seeds), levels and targets
 * rotated per repetition; grouped: target by target */
static void
test_schedule_levels(void **state)
{
    vdc_plan p;
    char *err;
    size_t i, k;
    unsigned r;
    int seen[2][2][4];      /* [rep][target][level] boots */
    g_autofree char *json = NULL;

    vdc_plan_init(&p);
    assert_int_equal(build("run --image --lvm --vg vg0 --guest-image /g.img --guests 1,3 "
                           "--runs 2 --seed 5 --size 1G --lv-size 2G --image-dir /images",
                           &p, &err), 0);
    free(err);
    assert_int_equal(p.n_boots, 2 * 2 * 2);
    assert_int_equal(p.n_steps, 2 * 2 * (1 + 3));
    memset(seen, 0, sizeof(seen));
    for (i = 0; i < p.n_boots; i++) {
        const vdc_plan_boot *b = &p.boots[i];
        const vdc_plan_step *s0 = &p.steps[b->first];

        assert_false(b->dom0);
        assert_int_equal(b->guests, b->n);
        assert_true(b->n == 1 || b->n == 3);
        for (k = 0; k < b->n; k++) {
            const vdc_plan_step *s = &p.steps[b->first + k];

            assert_int_equal(s->target, s0->target);
            assert_int_equal(s->rep, s0->rep);
            assert_int_equal(s->level, b->n);
            assert_int_equal(s->guest, k);
            assert_true(s->seed == 5 + s->rep + k * VDC_GUEST_SEED_STRIDE);
        }
        seen[s0->rep][s0->target][b->n]++;
        /* repetitions in order: a boot of rep 1 only after rep 0's */
        assert_true(i < 4 ? s0->rep == 0 : s0->rep == 1);
    }
    for (r = 0; r < 2; r++)
        for (k = 0; k < 2; k++) {
            assert_int_equal(seen[r][k][1], 1);
            assert_int_equal(seen[r][k][3], 1);
        }
    /* rotated: the first level and the first target change between the
     * repetitions */
    assert_int_not_equal(p.boots[0].n, p.boots[4].n);
    assert_int_not_equal(p.steps[p.boots[0].first].target, p.steps[p.boots[4].first].target);
    json = vdc_plan_to_json(&p);
    assert_non_null(strstr(json, "\"level\" : 3,\n      \"guest\" : 2"));
    assert_non_null(strstr(json, "\"guests\" : 3"));
    vdc_plan_dispose(&p);

    /* grouped: every level and repetition of one target, then the next */
    vdc_plan_init(&p);
    assert_int_equal(build("run --image --lvm --vg vg0 --guest-image /g.img --guests 3,1 "
                           "--runs 2 --order grouped --size 1G --lv-size 2G --image-dir /images",
                           &p, &err), 0);
    free(err);
    assert_int_equal(p.n_boots, 8);
    for (i = 0; i < p.n_boots; i++) {
        const vdc_plan_step *s0 = &p.steps[p.boots[i].first];

        assert_int_equal(s0->target, i / 4);
        assert_int_equal(p.boots[i].n, i % 4 < 2 ? 3 : 1);
        assert_int_equal(s0->rep, i % 2);
    }
    vdc_plan_dispose(&p);
}

/* without --guests nothing changes: no levels in the text or plan.json */
static void
test_plan_no_levels(void **state)
{
    vdc_plan p;
    char *err;
    g_autofree char *text = NULL, *json = NULL;

    vdc_plan_init(&p);
    assert_int_equal(build("run --image --guest-image /g.img", &p, &err), 0);
    free(err);
    assert_int_equal(vdc_plan_max_guests(&p), 1);
    assert_int_equal(vdc_plan_check_levels(&p, 1, "MemAvailable"), 0);
    text = vdc_plan_to_text(&p);
    json = vdc_plan_to_json(&p);
    assert_null(strstr(text, "levels"));
    assert_null(strstr(json, "guests"));
    assert_null(strstr(json, "\"level\""));
    assert_int_equal(p.steps[0].level, 0);
    assert_int_equal(p.boots[0].guests, 0);
    vdc_plan_dispose(&p);
}

static void
test_plan_refused(void **state)
{
    static const struct {
        const char *line, *err;
    } cases[] = {
        { "run --dom0 --guests 2", "vmdiskcmp: --guests: expected a domU target as well (--image, --lvm)\n" },
        { "run --image --lvm --vg vg0 --guest-image /g.img --guests 2 --runs auto",
          "vmdiskcmp: --guests: expected a fixed --runs N (--runs auto decides on one guest's runs)\n" },
        { "run --block /dev/sdz --destroy-data --guest-image /g.img --guests 1,2",
          "vmdiskcmp: --guests 2: target block is one block device (/dev/sdz): expected --image "
          "or --lvm targets (each guest gets its own copy)\n" },
        { "run --image --guest-image /g.img --guests 3,3",
          "vmdiskcmp: --guests '3,3': '3' given twice: expected each level at most once\n" },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        vdc_plan p;
        char *err;

        vdc_plan_init(&p);
        assert_int_equal(build(cases[i].line, &p, &err), -1);
        assert_string_equal(err, cases[i].err);
        free(err);
        vdc_plan_dispose(&p);
    }
    /* one block device at level 1 only is fine: no copy is needed */
    {
        vdc_plan p;
        char *err;

        vdc_plan_init(&p);
        assert_int_equal(build("run --block /dev/sdz --destroy-data --guest-image /g.img --guests 1",
                               &p, &err), 0);
        free(err);
        vdc_plan_dispose(&p);
    }
}

/* Under a hypervisor that says its free memory (libxl_get_free_memory;
 * here the mock's), the largest level is held against it before anything
 * is made: refused in one line naming the level, the need and the free
 * memory; a figure not known is not checked; a driver that cannot answer
 * fails the check.  Under libxl off a Xen dom0 nothing is asked. */
static void
test_level_memory_hv(void **state)
{
    vdc_plan p;
    char *err;

    vdc_plan_init(&p);
    assert_int_equal(build("run --hypervisor mock --image --guest-image /g.img --guests 1,4 "
                           "--size 1G --guest-memory 512 --image-dir /images", &p, &err), 0);
    free(err);
    vdc_hv_mock_reset();
    vdc_hv_mock()->free_memory_bytes = 2304ULL << 20;      /* 4 x (512 + 64) MiB */
    assert_int_equal(vdc_run_check_level_memory(&p, 0), 0);
    vdc_hv_mock()->free_memory_bytes = 0;                  /* not known */
    assert_int_equal(vdc_run_check_level_memory(&p, 0), 0);
    vdc_hv_mock()->free_memory_bytes = 1200ULL << 20;
    capture_stderr_begin();
    assert_int_equal(vdc_run_check_level_memory(&p, 0), -1);
    err = capture_stderr_end();
    assert_string_equal(err, "vmdiskcmp: --guests 4: level 4 needs 2304 MiB of RAM (4 domUs x "
                        "(512 MiB + 64 MiB overhead)), the host has 1200 MiB available (the mock "
                        "hypervisor's free memory): expected --guests at most 2, or less "
                        "--guest-memory\n");
    free(err);
    /* nothing was created: only the connection and the question */
    assert_int_equal(vdc_hv_mock()->n_create, 0);
    vdc_hv_mock()->fail_free_memory = 1;
    capture_stderr_begin();
    assert_int_equal(vdc_run_check_level_memory(&p, 0), -1);
    err = capture_stderr_end();
    assert_non_null(strstr(err, "cannot read the free memory"));
    free(err);
    vdc_plan_dispose(&p);

    /* libxl off a Xen dom0: the driver is not opened */
    vdc_plan_init(&p);
    assert_int_equal(build("run --hypervisor libxl --image --guest-image /g.img --guests 1,64 "
                           "--size 1G --image-dir /images", &p, &err), 0);
    free(err);
    assert_int_equal(vdc_run_check_level_memory(&p, 0), 0);
    vdc_plan_dispose(&p);
    vdc_hv_mock_reset();
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_plan_levels),
        cmocka_unit_test(test_level_need_every_target),
        cmocka_unit_test(test_level_memory_hv),
        cmocka_unit_test(test_schedule_levels),
        cmocka_unit_test(test_plan_no_levels),
        cmocka_unit_test(test_plan_refused),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
