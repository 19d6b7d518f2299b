/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of src/report/fleet.c: hosts' picks of a choice pair, the
 * same/not-the-same decision and the facts named, the spread, failed and
 * missing hosts, the shape check, the merged set's TARGET@HOST names.
 * Result sets are built in memory (image against lvm, 6 paired
 * repetitions, two tests). */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "report/fleet.h"
#include "tests/unit/test_stderr.h"

#define N_REPS 6
static const double drift[N_REPS] = { 1.00, 1.03, 0.98, 1.01, 0.97, 1.02 };
static const double own[N_REPS] = { 0.004, -0.003, 0.002, -0.004, 0.001, 0.000 };

/* Host @name's result: image at @ratio x lvm on put_block and get_block
 * (putc the same), 4096 MiB test files, kernel @kernel. */
static struct vdc_fleet_host *
add_host(struct vdc_fleet *f, const char *name, const char *kernel, double ratio, double level, int with_lvm)
{
    struct vdc_fleet_host *h = vdc_fleet_add_host(f, name, name);
    vdc_result_set *rs = &h->rs;
    int rep;

    rs->has_experiment = 1;
    vdc_set_str(&rs->experiment.host.kernel, kernel);
    vdc_set_str(&vdc_result_set_add_target(rs, "image")->kind, "image");
    if (with_lvm)
        vdc_set_str(&vdc_result_set_add_target(rs, "lvm")->kind, "lvm");
    for (rep = 0; rep < N_REPS; rep++) {
        const char *targets[] = { "image", "lvm" };
        int t;

        for (t = 0; t < 1 + with_lvm; t++) {
            vdc_run *r = vdc_result_set_add_run(rs, targets[t]);
            double k = t == 0 ? ratio * (1 + own[rep]) : 1;

            r->meta.file_size_mib = 4096;
            vdc_run_add_sample(r, "putc")->value = 1000 * level * drift[rep] * (1 + own[(rep + t) % N_REPS]);
            vdc_run_add_sample(r, "put_block")->value = 50000 * level * drift[rep] * k;
            vdc_run_add_sample(r, "get_block")->value = 80000 * level * drift[rep] * k;
        }
    }
    h->status = VDC_FLEET_OK;
    g_free(h->reason);
    h->reason = NULL;
    return h;
}

static void
test_choice_differs(void **state)
{
    struct vdc_fleet f;
    struct vdc_fleet_host *h;
    char *text;

    vdc_fleet_init(&f);
    add_host(&f, "a", "6.1.0-27-amd64", 0.80, 1.0, 1);
    add_host(&f, "b", "6.1.0-28-amd64", 1.20, 1.0, 1);
    h = vdc_fleet_add_host(&f, "c", "dir/c");
    h->status = VDC_FLEET_FAILED;
    vdc_set_str(&h->reason, "exit 2: VG vg0 not found");
    vdc_fleet_add_host(&f, "d", "dir/d");   /* missing */
    assert_int_equal(vdc_fleet_build(&f, NULL, NULL), 0);
    assert_int_equal(f.n_ok, 2);
    assert_int_equal(f.n_choices, 1);
    assert_string_equal(f.choices[0].target, "image");
    assert_string_equal(f.choices[0].reference, "lvm");
    assert_int_equal(f.choices[0].picks[0], VDC_FLEET_PICK_REFERENCE);
    assert_int_equal(f.choices[0].picks[1], VDC_FLEET_PICK_TARGET);
    assert_int_equal(f.choices[0].picks[2], VDC_FLEET_PICK_NONE);
    assert_int_equal(f.choices[0].picks[3], VDC_FLEET_PICK_NONE);
    assert_int_equal(f.choices[0].slower[0], 2);
    assert_int_equal(f.choices[0].faster[1], 2);
    assert_false(f.choices[0].same);
    assert_string_equal(vdc_fleet_pick_text(&f.choices[0], 0), "lvm");
    assert_string_equal(vdc_fleet_pick_text(&f.choices[0], 1), "image");
    assert_string_equal(vdc_fleet_pick_text(&f.choices[0], 2), "-");
    /* the kernel differs; the other facts are unknown on both: the same */
    assert_non_null(f.facts_differ);
    assert_string_equal(f.facts_differ[0], "kernel: a 6.1.0-27-amd64, b 6.1.0-28-amd64");
    assert_null(f.facts_differ[1]);
    text = vdc_fleet_render_text(&f);
    assert_non_null(strstr(text, "  c     FAILED    exit 2: VG vg0 not found (dir/c)\n"));
    assert_non_null(strstr(text, "  d     NO RESULT no result.json (dir/d)\n"));
    assert_non_null(strstr(text, "  image against lvm: NOT the same on every host\n"));
    assert_non_null(strstr(text, "      kernel: a 6.1.0-27-amd64, b 6.1.0-28-amd64\n"));
    g_free(text);
    vdc_fleet_dispose(&f);
    vdc_fleet_dispose(&f);    /* twice: safe */
}

static void
test_choice_same_and_spread(void **state)
{
    struct vdc_fleet f;
    size_t i;
    int seen = 0;

    vdc_fleet_init(&f);
    add_host(&f, "a", "6.1.0-27-amd64", 0.80, 1.0, 1);
    add_host(&f, "b", "6.1.0-28-amd64", 0.85, 1.5, 1);
    assert_int_equal(vdc_fleet_build(&f, NULL, NULL), 0);
    assert_int_equal(f.n_choices, 1);
    assert_true(f.choices[0].same);
    assert_int_equal(f.choices[0].picks[1], VDC_FLEET_PICK_REFERENCE);
    assert_int_equal(f.n_targets, 2);
    assert_int_equal(f.n_tests, 3);
    assert_int_equal(f.n_spread, 6);
    for (i = 0; i < f.n_spread; i++) {
        const struct vdc_fleet_spread *s = &f.spread[i];

        assert_int_equal(s->n_hosts, 2);
        assert_int_equal(s->lo_host, 0);   /* b is 1.5 x a everywhere */
        assert_int_equal(s->hi_host, 1);
        if (!strcmp(f.targets[s->target], "lvm") && !strcmp(f.tests[s->test], "put_block")) {
            assert_true(fabs(s->hi / s->lo - 1.5) < 1e-9);
            seen = 1;
        }
    }
    assert_true(seen);
    vdc_fleet_dispose(&f);
}

static void
test_shape_refused(void **state)
{
    struct vdc_fleet f;
    char *err;
    int rc;

    vdc_fleet_init(&f);
    add_host(&f, "a", "k", 0.8, 1.0, 1);
    add_host(&f, "b", "k", 0.8, 1.0, 0);    /* no lvm target */
    capture_stderr_begin();
    rc = vdc_fleet_build(&f, NULL, NULL);
    err = capture_stderr_end();
    assert_int_equal(rc, -1);
    assert_string_equal(err, "vmdiskcmp: merge: b: experiment shape differs from a: targets image(image) "
                             "against image(image),lvm(lvm): expected the same job on every host\n");
    free(err);
    vdc_fleet_dispose(&f);
}

static void
test_merged_names(void **state)
{
    struct vdc_fleet f;
    vdc_result_set m;
    char **names;

    vdc_fleet_init(&f);
    vdc_result_set_init(&m);
    add_host(&f, "a", "k", 0.8, 1.0, 1);
    vdc_fleet_add_host(&f, "gone", "gone");
    add_host(&f, "b", "k", 0.8, 1.0, 1);
    assert_int_equal(vdc_fleet_build(&f, NULL, NULL), 0);
    vdc_fleet_merged_set(&f, &m);
    names = vdc_result_set_target_names(&m);
    assert_int_equal(g_strv_length(names), 4);
    assert_string_equal(names[0], "image@a");
    assert_string_equal(names[3], "lvm@b");
    assert_false(m.has_experiment);
    assert_int_equal(m.n_runs, 4 * N_REPS);
    g_strfreev(names);
    vdc_result_set_dispose(&m);
    vdc_fleet_dispose(&f);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_choice_differs),
        cmocka_unit_test(test_choice_same_and_spread),
        cmocka_unit_test(test_shape_refused),
        cmocka_unit_test(test_merged_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
