/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the result loader's limits on whole arrays and on what
 * targets[] declares: at most VDC_RESULT_TARGETS_MAX targets and
 * VDC_RESULT_RUNS_MAX runs, runs naming only declared targets; each refused with one line naming the member
 * and the limit, the set left empty. */
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

#include "model/result.h"
#include "test_stderr.h"

#define HEAD "{\"format\":\"vmdiskcmp-result\",\"format_version\":1," \
             "\"producer\":{\"name\":\"vmdiskcmp-agent\",\"version\":\"0.1.0\"},"

/* load @json; expect failure with exactly @msg (one line) on stderr and
 * the set left empty */
static void
expect_load_error(const char *json, const char *msg)
{
    vdc_result_set rs;
    char *err;
    int rc;

    vdc_result_set_init(&rs);
    capture_stderr_begin();
    rc = vdc_result_set_load_data(&rs, json, strlen(json), "t.json");
    err = capture_stderr_end();
    assert_int_equal(rc, -1);
    assert_string_equal(err, msg);
    assert_int_equal(rs.n_runs, 0);
    assert_int_equal(rs.n_targets, 0);
    free(err);
    vdc_result_set_dispose(&rs);
}

/* load @json; expect success */
static void
expect_load_ok(const char *json, size_t n_targets, size_t n_runs)
{
    vdc_result_set rs;

    vdc_result_set_init(&rs);
    assert_int_equal(vdc_result_set_load_data(&rs, json, strlen(json), "t.json"), 0);
    assert_int_equal(rs.n_targets, n_targets);
    assert_int_equal(rs.n_runs, n_runs);
    vdc_result_set_dispose(&rs);
}

/* a document of @n_targets targets t0.. and @n_runs runs spread over them */
static char *
doc_of(unsigned n_targets, unsigned n_runs)
{
    GString *s = g_string_new(HEAD "\"targets\":[");
    unsigned i;

    for (i = 0; i < n_targets; i++)
        g_string_append_printf(s, "%s{\"name\":\"t%u\",\"kind\":\"image\",\"where\":\"domU\"}",
                               i ? "," : "", i);
    g_string_append(s, "],\"runs\":[");
    for (i = 0; i < n_runs; i++)
        g_string_append_printf(s, "%s{\"target\":\"t%u\",\"repetition\":%u,\"samples\":[]}",
                               i ? "," : "", i % n_targets, i / n_targets);
    g_string_append(s, "]}");
    return g_string_free(s, FALSE);
}

static void
test_array_limits(void **state)
{
    g_autofree char *at = doc_of(VDC_RESULT_TARGETS_MAX, VDC_RESULT_TARGETS_MAX);
    g_autofree char *over_t = doc_of(VDC_RESULT_TARGETS_MAX + 1, 1);
    g_autofree char *at_r = doc_of(4, VDC_RESULT_RUNS_MAX);
    g_autofree char *over_r = doc_of(4, VDC_RESULT_RUNS_MAX + 1);
    g_autofree char *want_t = g_strdup_printf("vmdiskcmp: t.json: targets: %d: expected at most %d\n",
                                              VDC_RESULT_TARGETS_MAX + 1, VDC_RESULT_TARGETS_MAX);
    g_autofree char *want_r = g_strdup_printf("vmdiskcmp: t.json: runs: %d: expected at most %d\n",
                                              VDC_RESULT_RUNS_MAX + 1, VDC_RESULT_RUNS_MAX);

    (void)state;
    expect_load_ok(at, VDC_RESULT_TARGETS_MAX, VDC_RESULT_TARGETS_MAX);
    expect_load_ok(at_r, 4, VDC_RESULT_RUNS_MAX);
    expect_load_error(over_t, want_t);
    expect_load_error(over_r, want_r);
}

/* with targets[], a run naming an undeclared target is refused (no
 * phantom target); without targets[] (agent answers, older documents) a
 * run's target needs no declaration */
static void
test_run_target_declared(void **state)
{
    (void)state;
    expect_load_error(HEAD "\"targets\":[{\"name\":\"image\",\"kind\":\"image\",\"where\":\"domU\"}],"
                      "\"runs\":[{\"target\":\"image\",\"samples\":[]},"
                      "{\"target\":\"ghost\",\"samples\":[]}]}",
                      "vmdiskcmp: t.json: runs[1].target: \"ghost\": expected one of the targets[] names\n");
    expect_load_error(HEAD "\"targets\":[],\"runs\":[{\"target\":\"ghost\",\"samples\":[]}]}",
                      "vmdiskcmp: t.json: runs[0].target: \"ghost\": expected one of the targets[] names\n");
    expect_load_ok(HEAD "\"runs\":[{\"target\":\"image\",\"samples\":[]},"
                   "{\"target\":\"lvm\",\"samples\":[]}]}", 0, 2);
    expect_load_ok(HEAD "\"targets\":[{\"name\":\"image\",\"kind\":\"image\",\"where\":\"domU\"}],"
                   "\"runs\":[{\"target\":\"image\",\"samples\":[]}]}", 1, 1);
    {
        /* what vmdiskcmp writes reads back: a run's target without a
         * record is declared by name */
        vdc_result_set rs;
        char *text;
        size_t len;

        vdc_result_set_init(&rs);
        assert_non_null(vdc_result_set_add_target(&rs, "image"));
        assert_non_null(vdc_result_set_add_run(&rs, "image"));
        assert_non_null(vdc_result_set_add_run(&rs, "lvm"));
        text = vdc_result_set_to_string(&rs, &len);
        vdc_result_set_dispose(&rs);
        expect_load_ok(text, 2, 2);
        g_free(text);
    }
}

/* targets[].variant: names of the plan's dimensions, counts in range,
 * lv_type only on an LV, image_format only on an image */
static void
test_variant_ranges(void **state)
{
    static const char *const bad[][3] = {
        { "image", "\"fill_percent\":96", "fill_percent: 96: expected an integer from 0 to 95" },
        { "image", "\"iothreads\":17", "iothreads: 17: expected an integer from 0 to 16" },
        { "image", "\"image_format\":\"vmdk\"", "image_format: \"vmdk\": expected one of raw, qcow2" },
        { "lvm", "\"lv_type\":\"mirror\"", "lv_type: \"mirror\": expected one of linear, striped, thin" },
        { "image", "\"disk_bus\":\"ide\"", "disk_bus: \"ide\": expected one of *" },
        { "image", "\"lv_type\":\"thin\"", "lv_type: expected only on an LV target (kind lvm), not kind image" },
        { "lvm", "\"image_format\":\"qcow2\"",
          "image_format: expected only on an image target (kind image), not kind lvm" },
    };
    size_t k;

    (void)state;
    for (k = 0; k < G_N_ELEMENTS(bad); k++) {
        g_autofree char *d = g_strdup_printf(HEAD "\"targets\":[{\"name\":\"t\",\"kind\":\"%s\","
                                             "\"where\":\"domU\",\"variant\":{%s}}],\"runs\":[]}",
                                             bad[k][0], bad[k][1]);
        g_autofree char *want = g_strdup_printf("vmdiskcmp: t.json: targets[0].variant: %s", bad[k][2]);
        size_t wl = strlen(want);
        int prefix = want[wl - 1] == '*';
        vdc_result_set rs;
        char *err;

        vdc_result_set_init(&rs);
        capture_stderr_begin();
        assert_int_equal(vdc_result_set_load_data(&rs, d, strlen(d), "t.json"), -1);
        err = capture_stderr_end();
        vdc_result_set_dispose(&rs);
        /* one line: WANT, or starting with WANT before its '*' */
        if (prefix ? strncmp(err, want, wl - 1)
                   : strncmp(err, want, wl) || strcmp(err + wl, "\n"))
            fail_msg("case %zu: got '%s', wanted '%s'", k, err, want);
        free(err);
    }
    expect_load_ok(HEAD "\"targets\":[{\"name\":\"i\",\"kind\":\"image\",\"where\":\"domU\",\"variant\":"
                   "{\"image_format\":\"qcow2\",\"disk_cache\":\"none\",\"disk_io\":\"native\","
                   "\"iothreads\":16,\"disk_bus\":\"virtio-scsi\",\"fill_percent\":95}},"
                   "{\"name\":\"l\",\"kind\":\"lvm\",\"where\":\"domU\",\"variant\":"
                   "{\"lv_type\":\"thin\",\"iothreads\":0,\"fill_percent\":0}}],\"runs\":[]}", 2, 0);
}

/* a merged set is held to the loader's limits: targets counted by name
 * (declared or named by a run, the same name once), runs summed; the
 * number of inputs to VDC_MERGE_INPUTS_MAX */
static void
test_merge_limits(void **state)
{
    g_autofree char *half = doc_of(VDC_RESULT_TARGETS_MAX / 2, VDC_RESULT_TARGETS_MAX / 2);
    g_autofree char *runs = doc_of(4, VDC_RESULT_RUNS_MAX / 2);
    g_autofree char *why = NULL;
    vdc_result_set a, b;
    vdc_run *r;

    (void)state;
    vdc_result_set_init(&a);
    vdc_result_set_init(&b);
    assert_int_equal(vdc_result_set_load_data(&a, half, strlen(half), "a.json"), 0);
    assert_int_equal(vdc_result_set_load_data(&b, half, strlen(half), "b.json"), 0);
    /* the same names: 512 targets, 1024 runs */
    assert_null(vdc_result_set_merge_refusal(&a, &b));
    assert_int_equal(vdc_result_set_target_count(&a), VDC_RESULT_TARGETS_MAX / 2);
    /* 512 new names: 1024, at the limit */
    for (size_t i = 0; i < b.n_targets; i++) {
        char name[32];

        g_snprintf(name, sizeof(name), "u%zu", i);
        vdc_set_str(&b.targets[i]->name, name);
    }
    for (size_t i = 0; i < b.n_runs; i++)
        vdc_set_str(&b.runs[i]->target, b.targets[i % b.n_targets]->name);
    assert_null(vdc_result_set_merge_refusal(&a, &b));
    /* one more, named only by a run: 1025 */
    r = vdc_result_set_add_run(&b, "v0");
    assert_non_null(r);
    why = vdc_result_set_merge_refusal(&a, &b);
    assert_string_equal(why, "would make 1025 targets: expected at most 1024 in one result set");
    vdc_result_set_dispose(&a);
    vdc_result_set_dispose(&b);

    vdc_result_set_init(&a);
    vdc_result_set_init(&b);
    assert_int_equal(vdc_result_set_load_data(&a, runs, strlen(runs), "a.json"), 0);
    assert_int_equal(vdc_result_set_load_data(&b, runs, strlen(runs), "b.json"), 0);
    assert_null(vdc_result_set_merge_refusal(&a, &b));          /* 100000 */
    vdc_result_set_add_run(&b, "t0");
    g_free(why);
    why = vdc_result_set_merge_refusal(&a, &b);
    assert_string_equal(why, "would make 100001 runs: expected at most 100000 in one result set");
    vdc_result_set_dispose(&a);
    vdc_result_set_dispose(&b);

    assert_null(vdc_merge_inputs_refusal(VDC_MERGE_INPUTS_MAX));
    g_free(why);
    why = vdc_merge_inputs_refusal(VDC_MERGE_INPUTS_MAX + 1);
    assert_string_equal(why, "257 inputs: expected at most 256 in one result set");
    g_free(why);
    why = vdc_merge_totals_refusal(VDC_RESULT_TARGETS_MAX, VDC_RESULT_RUNS_MAX);
    assert_null(why);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_array_limits),
        cmocka_unit_test(test_merge_limits),
        cmocka_unit_test(test_run_target_declared),
        cmocka_unit_test(test_variant_ranges),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
