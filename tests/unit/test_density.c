/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for many guests at once: the model's level members
 * (runs[].level, guest, release; experiment.levels[]) loaded, written and
 * refused; Jain's index and the pooled latency quantile (stats/pooled.c)
 * on fixed vectors worked by hand; the density analysis
 * (report/density.c) on a synthetic set of two backends at levels 1 and 3. */
#include "config.h"
#include <math.h>
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
#include "model/result.h"
#include "report/analysis.h"
#include "report/density.h"
#include "report/render_density.h"
#include "stats/pooled.h"
#include "test_stderr.h"

#define assert_close(a, b, rel) \
    assert_true(fabs((double)(a) - (double)(b)) <= (rel) * fmax(fabs((double)(b)), 1e-300))

/* ---- Jain's index --------------------------------------------------------- */

static void
test_jain(void **state)
{
    const double equal[] = { 5, 5, 5, 5 }, one[] = { 1, 0, 0, 0 }, three[] = { 1, 2, 3 };
    const double zero[] = { 0, 0 }, neg[] = { -1, 1 }, inf[] = { 1, INFINITY };

    assert_close(vdc_stats_jain(equal, 4), 1.0, 1e-15);
    assert_close(vdc_stats_jain(one, 4), 0.25, 1e-15);             /* 1/n */
    assert_close(vdc_stats_jain(three, 3), 36.0 / 42.0, 1e-15);    /* 6^2 / (3 x 14) */
    assert_true(isnan(vdc_stats_jain(zero, 2)));
    assert_true(isnan(vdc_stats_jain(neg, 2)));
    assert_true(isnan(vdc_stats_jain(inf, 2)));
    assert_true(isnan(vdc_stats_jain(equal, 0)));
}

/* ---- The pooled quantile ---------------------------------------------------- */

/* min, p50, p90, p99, p99.9, p99.99, max */
static struct vdc_latency_knots
knots(double w, double min, double p50, double p90, double p99, double p999, double p9999, double max)
{
    struct vdc_latency_knots k = { .q = { 0, 0.5, 0.9, 0.99, 0.999, 0.9999, 1 },
                                   .x = { min, p50, p90, p99, p999, p9999, max },
                                   .n_knots = 7, .weight = w };
    return k;
}

static void
test_mixture_quantile(void **state)
{
    struct vdc_latency_knots g[2];

    /* the same distribution twice, any weights: the guest's own quantiles,
     * interpolated linearly between knots */
    g[0] = knots(3, 100, 150, 180, 190, 195, 199, 200);
    g[1] = knots(7, 100, 150, 180, 190, 195, 199, 200);
    assert_close(vdc_stats_mixture_quantile(g, 2, 0.5), 150, 1e-12);
    assert_close(vdc_stats_mixture_quantile(g, 2, 0.99), 190, 1e-12);
    assert_close(vdc_stats_mixture_quantile(g, 2, 0.95), 180 + 10 * (0.05 / 0.09), 1e-12);

    /* two disjoint guests, equal weights: the median is the fast guest's
     * maximum (F reaches 0.5 there and stays flat to 1000); p99 needs the
     * slow guest's F = 0.98: 1800 + 100 x 0.08 / 0.09 */
    g[0] = knots(1000, 100, 150, 180, 190, 195, 199, 200);
    g[1] = knots(1000, 1000, 1500, 1800, 1900, 1950, 1990, 2000);
    assert_close(vdc_stats_mixture_quantile(g, 2, 0.5), 200, 1e-12);
    assert_close(vdc_stats_mixture_quantile(g, 2, 0.99), 1800 + 100 * (0.08 / 0.09), 1e-12);
    /* p99.9: F_B = 0.998, between p99 (0.99) and p99.9 (0.999) of B */
    assert_close(vdc_stats_mixture_quantile(g, 2, 0.999), 1900 + 50 * (0.008 / 0.009), 1e-12);

    /* weights count I/Os: 3 of 4 I/Os from the fast guest, the median
     * needs F_A = 2/3: 150 + 30 x (2/3 - 0.5) / 0.4 */
    g[0].weight = 3;
    g[1].weight = 1;
    assert_close(vdc_stats_mixture_quantile(g, 2, 0.5), 150 + 30 * ((2.0 / 3.0 - 0.5) / 0.4), 1e-12);
    /* between the guests' own quantiles */
    assert_true(vdc_stats_mixture_quantile(g, 2, 0.9) >= 180);
    assert_true(vdc_stats_mixture_quantile(g, 2, 0.9) <= 1800);

    /* a guest whose every I/O took 500 us (a point mass) beside the fast
     * one: the mixture jumps from 0.5 to 1 at 500 */
    g[0] = knots(1, 100, 150, 180, 190, 195, 199, 200);
    g[1] = knots(1, 500, 500, 500, 500, 500, 500, 500);
    assert_close(vdc_stats_mixture_quantile(g, 2, 0.5), 200, 1e-12);
    assert_close(vdc_stats_mixture_quantile(g, 2, 0.75), 500, 1e-12);
    assert_close(vdc_stats_mixture_quantile(g, 2, 0.25), 150, 1e-12);   /* F_A = 0.5 */

    /* what cannot be pooled */
    g[1].weight = 0;
    assert_true(isnan(vdc_stats_mixture_quantile(g, 2, 0.5)));
    g[1] = knots(1, 1000, 1500, 1800, 1900, 1950, 1990, 2000);
    g[1].q[0] = 0.1;            /* no minimum */
    assert_true(isnan(vdc_stats_mixture_quantile(g, 2, 0.5)));
    g[1] = knots(1, 1000, 900, 1800, 1900, 1950, 1990, 2000);   /* p50 below the minimum */
    assert_true(isnan(vdc_stats_mixture_quantile(g, 2, 0.5)));
    assert_true(isnan(vdc_stats_mixture_quantile(g, 1, 1.0)));
    assert_true(isnan(vdc_stats_mixture_quantile(g, 0, 0.5)));
}

/* ---- The model ---------------------------------------------------------------- */

#define HEAD "{\"format\":\"vmdiskcmp-result\",\"format_version\":1," \
             "\"producer\":{\"name\":\"vmdiskcmp\",\"version\":\"0.1.0\"},"
#define SAMPLE "\"samples\":[{\"test\":\"put_block\",\"value\":100}]"

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
    if (msg[strlen(msg) - 1] == '*')   /* the host check's own words after the path */
        assert_memory_equal(err, msg, strlen(msg) - 1);
    else
        assert_string_equal(err, msg);
    assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);   /* one line */
    free(err);
    vdc_result_set_dispose(&rs);
}

/* level, guest, release and experiment.levels[] with its host: loaded,
 * written, loaded again the same; the one-guest lookup leaves level 3 out */
static void
test_model_levels(void **state)
{
    static const char doc[] = HEAD
        "\"experiment\":{\"id\":\"x\",\"levels\":[{\"guests\":3,\"repetition\":0,\"target\":\"image\","
        "\"start_skew_s\":0.25,\"status\":\"failed\",\"error\":\"guest 2 hung\","
        "\"host\":{\"cpu_s\":{\"blkback\":1.5,\"qemu\":null},\"dom0_memory_bytes\":[1,2]}}]},"
        "\"runs\":["
        "{\"target\":\"image\",\"repetition\":0," SAMPLE "},"
        "{\"target\":\"image\",\"repetition\":0,\"level\":3,\"guest\":0,"
        "\"release\":{\"ready_s\":10.5,\"released_s\":11,\"started_s\":11.25}," SAMPLE "},"
        "{\"target\":\"image\",\"repetition\":0,\"level\":3,\"guest\":1," SAMPLE "}]}";
    vdc_result_set rs, back;
    vdc_sample_ref *refs;
    char *text;
    size_t len, n;

    vdc_result_set_init(&rs);
    vdc_result_set_init(&back);
    assert_int_equal(vdc_result_set_load_data(&rs, doc, strlen(doc), "t.json"), 0);
    text = vdc_result_set_to_string(&rs, &len);
    assert_int_equal(vdc_result_set_load_data(&back, text, len, "back.json"), 0);
    g_free(text);
    assert_int_equal(back.n_runs, 3);
    assert_int_equal(back.runs[0]->level, VDC_INT_ABSENT);     /* absent stays absent */
    assert_int_equal(vdc_run_level(back.runs[0]), 1);
    assert_int_equal(vdc_run_guest(back.runs[0]), 0);
    assert_int_equal(back.runs[1]->level, 3);
    assert_int_equal(back.runs[2]->guest, 1);
    assert_close(back.runs[1]->release.ready_s, 10.5, 1e-15);
    assert_close(back.runs[1]->release.released_s, 11, 1e-15);
    assert_close(back.runs[1]->release.started_s, 11.25, 1e-15);
    assert_true(isnan(back.runs[2]->release.started_s));
    assert_int_equal(back.experiment.n_levels, 1);
    assert_int_equal(back.experiment.levels[0].guests, 3);
    assert_int_equal(back.experiment.levels[0].repetition, 0);
    assert_string_equal(back.experiment.levels[0].target, "image");
    assert_close(back.experiment.levels[0].start_skew_s, 0.25, 1e-15);
    assert_string_equal(back.experiment.levels[0].status, "failed");
    assert_string_equal(back.experiment.levels[0].error, "guest 2 hung");
    assert_non_null(back.experiment.levels[0].host);
    assert_true(json_object_has_member(back.experiment.levels[0].host, "dom0_memory_bytes"));
    /* the one-guest analysis sees the level-1 run only */
    refs = vdc_result_set_lookup(&back, "image", "put_block", &n);
    assert_int_equal(n, 1);
    assert_ptr_equal(refs[0].run, back.runs[0]);
    g_free(refs);
    /* a copy of the experiment keeps the levels */
    {
        vdc_experiment e;

        vdc_experiment_init(&e);
        vdc_experiment_copy(&e, &back.experiment);
        assert_int_equal(e.n_levels, 1);
        assert_string_equal(e.levels[0].error, "guest 2 hung");
        assert_ptr_equal(e.levels[0].host, back.experiment.levels[0].host);
        vdc_experiment_dispose(&e);
        vdc_experiment_dispose(&e);   /* twice: safe */
    }
    vdc_result_set_dispose(&rs);
    vdc_result_set_dispose(&back);
}

static void
test_model_levels_refused(void **state)
{
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"level\":2,\"guest\":2," SAMPLE "}]}",
                      "vmdiskcmp: t.json: runs[0].guest: expected an integer from 0 to 1 "
                      "(level - 1)\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"guest\":1," SAMPLE "}]}",
                      "vmdiskcmp: t.json: runs[0].guest: expected an integer from 0 to 0 "
                      "(level - 1)\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"level\":0," SAMPLE "}]}",
                      "vmdiskcmp: t.json: runs[0].level: expected an integer from 1 to 1024\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"level\":1025," SAMPLE "}]}",
                      "vmdiskcmp: t.json: runs[0].level: expected an integer from 1 to 1024\n");
    /* the duplicate check keys on target, repetition, level and guest */
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"repetition\":0,\"level\":2,\"guest\":1," SAMPLE "},"
                      "{\"target\":\"a\",\"repetition\":0,\"level\":2,\"guest\":1," SAMPLE "}]}",
                      "vmdiskcmp: t.json: runs[1]: duplicate run: target \"a\" repetition 0 "
                      "level 2 guest 1 already seen in runs[0]\n");
    expect_load_error(HEAD "\"runs\":[{\"target\":\"a\",\"release\":{\"started_s\":-1}," SAMPLE "}]}",
                      "vmdiskcmp: t.json: runs[0].release.started_s: expected a finite number >= 0\n");
    expect_load_error(HEAD "\"experiment\":{\"levels\":[{\"repetition\":0}]},\"runs\":[]}",
                      "vmdiskcmp: t.json: experiment.levels[0].guests: missing\n");
    expect_load_error(HEAD "\"experiment\":{\"levels\":[{\"guests\":0}]},\"runs\":[]}",
                      "vmdiskcmp: t.json: experiment.levels[0].guests: expected an integer "
                      "from 1 to 1024\n");
    expect_load_error(HEAD "\"experiment\":{\"levels\":[{\"guests\":2,\"error\":\"a\\nb\"}]},\"runs\":[]}",
                      "vmdiskcmp: t.json: experiment.levels[0].error: expected one line\n");
    expect_load_error(HEAD "\"experiment\":{\"levels\":[{\"guests\":2,\"status\":\"maybe\"}]},\"runs\":[]}",
                      "vmdiskcmp: t.json: experiment.levels[0].status: expected \"ok\", "
                      "\"failed\" or \"timeout\"\n");
    expect_load_error(HEAD "\"experiment\":{\"levels\":[{\"guests\":2,\"host\":{\"cpu_s\":{\"qemu\":-5}}}]},"
                      "\"runs\":[]}",
                      "vmdiskcmp: t.json: experiment.levels[0].host: *");
}

static void
test_model_same_rep_other_guests(void **state)
{
    static const char doc[] = HEAD "\"runs\":["
        "{\"target\":\"a\",\"level\":2,\"guest\":0," SAMPLE "},"
        "{\"target\":\"a\",\"level\":2,\"guest\":1," SAMPLE "},"
        "{\"target\":\"a\",\"level\":2,\"guest\":0," SAMPLE "},"
        "{\"target\":\"a\"," SAMPLE "}]}";
    vdc_result_set rs, merged;

    /* a repetition left out is counted per (target, level, guest) */
    vdc_result_set_init(&rs);
    assert_int_equal(vdc_result_set_load_data(&rs, doc, strlen(doc), "t.json"), 0);
    assert_int_equal(rs.runs[0]->repetition, 0);
    assert_int_equal(rs.runs[1]->repetition, 0);
    assert_int_equal(rs.runs[2]->repetition, 1);
    assert_int_equal(rs.runs[3]->repetition, 0);
    /* merging renumbers each guest's runs among that guest's */
    vdc_result_set_init(&merged);
    assert_int_equal(vdc_result_set_merge(&merged, &rs), 0);
    assert_int_equal(vdc_result_set_merge(&merged, &rs), 0);
    assert_int_equal(merged.n_runs, 8);
    assert_int_equal(merged.runs[4]->repetition, 2);   /* guest 0's third */
    assert_int_equal(merged.runs[5]->repetition, 1);   /* guest 1's second */
    assert_int_equal(merged.runs[6]->repetition, 3);
    assert_int_equal(merged.runs[7]->repetition, 1);
    vdc_result_set_dispose(&merged);
    vdc_result_set_dispose(&rs);
}

/* ---- The density analysis -------------------------------------------------- */

/* A run of @target at @level (0: no level member), guest @g, repetition
 * @rep, one put_block value and, when @clat_p50 > 0, a workload sample
 * whose latency is @clat_p50 x (1, 1, 1.2, 1.5, 2, 2.5, 3) at its
 * knots (min = p50: a spike of half the I/Os) over 1000 I/Os */
static vdc_run *
add_run(vdc_result_set *rs, const char *target, int64_t level, int64_t g, int64_t rep,
        double value, double started_s, double clat_p50)
{
    vdc_run *r = vdc_result_set_add_run(rs, target);
    vdc_sample *s;

    r->repetition = rep;
    if (level) {
        r->level = level;
        r->guest = g;
    }
    r->release.started_s = started_s;
    s = vdc_run_add_sample(r, "put_block");
    s->value = value;
    s->elapsed_s = 10;
    if (clat_p50 > 0) {
        s = vdc_run_add_sample(r, "workload_read");
        s->value = value;
        s->workload = vdc_workload_new();
        vdc_set_str(&s->workload->name, "randread");
        s->workload->bandwidth_kib_s = value * 4;
        s->workload->clat_us.n = 1000;
        s->workload->clat_us.min = clat_p50;
        s->workload->clat_us.p50 = clat_p50;
        s->workload->clat_us.p90 = clat_p50 * 1.2;
        s->workload->clat_us.p99 = clat_p50 * 1.5;
        s->workload->clat_us.p99_9 = clat_p50 * 2;
        s->workload->clat_us.p99_99 = clat_p50 * 2.5;
        s->workload->clat_us.max = clat_p50 * 3;
    }
    return r;
}

static void
density_set(vdc_result_set *rs)
{
    /* the image's level-3 values by repetition and guest; the LV's */
    static const double img[3][3] = { { 300, 300, 300 }, { 310, 290, 300 }, { 100, 400, 400 } };
    static const double lv[3][3] = { { 400, 400, 400 }, { 410, 390, 400 }, { 400, 400, 410 } };
    static const double start[3] = { 10.0, 10.2, 10.1 };
    int rep, g;

    vdc_result_set_init(rs);
    rs->has_experiment = 1;
    vdc_set_str(&vdc_result_set_add_target(rs, "image")->kind, "image");
    vdc_set_str(&vdc_result_set_find_target(rs, "image")->where, "domU");
    vdc_set_str(&vdc_result_set_add_target(rs, "lvm")->kind, "lvm");
    vdc_set_str(&vdc_result_set_find_target(rs, "lvm")->where, "domU");
    for (rep = 0; rep < 3; rep++) {
        add_run(rs, "image", 1, 0, rep, 1000 + 10 * rep, NAN, 100);
        add_run(rs, "lvm", 1, 0, rep, 1200 + 10 * rep, NAN, 80);
        for (g = 0; g < 3; g++) {
            add_run(rs, "image", 3, g, rep, img[rep][g], start[g], g == 2 ? 300 : 100);
            add_run(rs, "lvm", 3, g, rep, lv[rep][g], rep == 0 ? NAN : start[g] / 2, 80);
        }
    }
    /* repetition 3 of the image at level 3: guest 2 never answered */
    add_run(rs, "image", 3, 0, 3, 300, NAN, 100);
    add_run(rs, "image", 3, 1, 3, 300, NAN, 100);
    /* the level record gives the LV's repetition 0 skew (no release there) */
    {
        vdc_level_record *l = vdc_experiment_add_level(&rs->experiment);

        l->guests = 3;
        l->repetition = 0;
        vdc_set_str(&l->target, "lvm");
        l->start_skew_s = 0.75;
    }
}

static void
test_density_cells(void **state)
{
    struct vdc_stats_options opt;
    struct vdc_density d;
    const struct vdc_density_cell *c;
    vdc_result_set rs;
    long put = -1, wl = -1;
    size_t k;

    density_set(&rs);
    vdc_stats_options_init(&opt);
    vdc_density_init(&d);
    assert_int_equal(vdc_density_build(&d, &rs, &opt), 0);
    assert_int_equal(d.n_levels, 2);
    assert_int_equal(d.levels[0], 1);
    assert_int_equal(d.levels[1], 3);
    assert_int_equal(d.n_targets, 2);
    assert_string_equal(d.targets[0], "image");
    assert_string_equal(d.targets[1], "lvm");
    for (k = 0; k < d.n_tests; k++) {
        if (!strcmp(d.tests[k], "put_block"))
            put = (long)k;
        if (!strcmp(d.tests[k], "workload_read@randread"))
            wl = (long)k;
    }
    assert_true(put >= 0 && wl >= 0);

    /* image at level 3: three complete repetitions, one left out */
    c = vdc_density_cell(&d, 1, 0, (size_t)put);
    assert_int_equal(c->level, 3);
    assert_int_equal(c->n_reps, 3);
    assert_int_equal(c->n_incomplete, 1);
    assert_close(c->aggregate[0], 900, 1e-15);
    assert_close(c->aggregate[2], 900, 1e-15);
    assert_close(c->sum.mean, 900, 1e-15);
    assert_close(c->jain[0], 1.0, 1e-15);
    assert_close(c->jain[2], 810000.0 / (3 * 330000.0), 1e-15);   /* 900^2 / (3 (100^2 + 2 x 400^2)) */
    assert_close(c->jain_min, c->jain[2], 1e-15);
    assert_close(c->guest[0], 710.0 / 3, 1e-12);
    assert_close(c->guest[1], 330, 1e-12);
    assert_close(c->guest[2], 1000.0 / 3, 1e-12);
    assert_int_equal(c->slowest, 0);
    assert_int_equal(c->fastest, 2);
    assert_close(c->skew_s[0], 0.2, 1e-12);
    assert_close(c->skew_max_s, 0.2, 1e-12);
    assert_false(c->skewed);              /* 0.2 s of 10 s: within 5 % */
    assert_true(isnan(c->p99_mean));      /* put_block has no latency summary */
    assert_true(isnan(c->kib_s_mean));

    /* the LV: the level record's skew where the runs have no release */
    c = vdc_density_cell(&d, 1, 1, (size_t)put);
    assert_int_equal(c->n_reps, 3);
    assert_int_equal(c->n_incomplete, 0);
    assert_close(c->skew_s[0], 0.75, 1e-15);
    assert_close(c->skew_s[1], 0.1, 1e-12);
    assert_true(c->skewed);               /* 0.75 s of 10 s */

    /* the workload: latency pooled over the three guests' I/Os: two
     * guests at 100 us (half their I/Os exactly 100), one at 300 us; p50:
     * 2/3 of the I/Os at or below 120 us, so within the fast guests' mass
     * F(100) = 1/3, then linear to F(120) = 0.6: 100 + 20 x (0.5 - 1/3) / (0.6 - 1/3) */
    c = vdc_density_cell(&d, 1, 0, (size_t)wl);
    assert_int_equal(c->n_reps, 3);
    assert_close(c->p50[0], 100 + 20 * ((0.5 - 1.0 / 3) / (0.6 - 1.0 / 3)), 1e-12);
    /* p99: the fast guests are done by 300 us (F = 2/3 x 1 + 1/3 x F_slow(300)
     * with F_slow(300) = 0.5): 5/6 there; the slow guest's F must reach
     * 0.97: between its p90 (360 us) and p99 (450 us) */
    assert_close(c->p99[0], 360 + 90 * ((0.97 - 0.9) / 0.09), 1e-12);
    assert_close(c->p99_mean, c->p99[0], 1e-12);
    assert_close(c->kib_s_mean, 3600, 1e-12);   /* 900 IO/sec x 4 KiB */
    /* level 1 of the image: one guest, its own percentiles */
    c = vdc_density_cell(&d, 0, 0, (size_t)wl);
    assert_close(c->p99_mean, 150, 1e-12);
    assert_close(c->jain_mean, 1.0, 1e-15);

    /* where scaling stops: the next level's 95 % interval of the mean
     * aggregate reaches down to the level's mean: the image's level 3
     * adds nothing (900 against 1010 alone), nor does the LV's (1203
     * against 1210) */
    assert_int_equal(vdc_density_stops(&d, 0, (size_t)put), 1);
    assert_int_equal(vdc_density_stops(&d, 1, (size_t)put), 1);
    /* the image stops: its level 3 lies wholly below level 1's mean (900
     * [900, 900] against 1010); the LV is only not shown to scale: its
     * level 3 (1203.3 [1189.0, 1217.7]) reaches level 1's 1210 */
    assert_int_equal(vdc_density_stop_shown(&d, 0, (size_t)put), 1);
    assert_int_equal(vdc_density_stop_shown(&d, 1, (size_t)put), 0);

    /* pairs: image against the LV per level and test, by repetition */
    assert_int_equal(d.n_pairs, 4);
    for (k = 0; k < d.n_pairs; k++) {
        const struct vdc_density_pair *p = &d.pairs[k];

        assert_int_equal(p->target, 0);
        assert_int_equal(p->reference, 1);
        if (p->level == 3 && p->test == (size_t)put) {
            assert_int_equal(p->agg.n, 3);
            assert_close(p->agg.ratio, 2700.0 / 3610.0, 1e-12);
            assert_true(p->agg.has_ci);
            assert_int_equal(p->p99.n, 0);     /* no latency summaries */
        }
        if (p->level == 3 && p->test == (size_t)wl) {
            assert_int_equal(p->p99.n, 3);
            assert_close(p->p99.mean_b, 120, 1e-12);   /* the LV's guests all alike: 80 x 1.5 */
        }
        if (p->level == 1 && p->test == (size_t)put)
            assert_close(p->agg.ratio, 3030.0 / 3630.0, 1e-12);
        /* level 1's p99: 150 us against 120 us in every repetition, the
         * same difference each time: no interval, no class */
        if (p->level == 1 && p->test == (size_t)wl) {
            assert_int_equal(p->p99.n, 3);
            assert_true(p->p99_flat);
            assert_int_equal(p->p99_effect, VDC_EFFECT_NOT_TESTED);
        }
    }
    /* Holm within each level's family (every test's aggregate and p99):
     * the same adjusted p as vdc_stats_holm over that family alone */
    for (k = 0; k < d.n_levels; k++) {
        double pv[8], adj[8];
        size_t m = 0, j, tested = 0;

        for (j = 0; j < d.n_pairs; j++)
            if (d.pairs[j].level == d.levels[k]) {
                pv[m++] = d.pairs[j].agg.has_test ? d.pairs[j].agg.p_value : NAN;
                pv[m++] = d.pairs[j].p99.has_test ? d.pairs[j].p99.p_value : NAN;
            }
        assert_true(m >= 4);
        vdc_stats_holm(pv, m, adj);
        for (j = 0; j < m; j++)
            tested += !isnan(pv[j]);
        for (m = 0, j = 0; j < d.n_pairs; j++)
            if (d.pairs[j].level == d.levels[k]) {
                const struct vdc_density_pair *p = &d.pairs[j];

                assert_int_equal(p->n_family, tested);
                if (isnan(adj[m]))
                    assert_true(isnan(p->agg_p_holm));
                else
                    assert_close(p->agg_p_holm, adj[m], 1e-15);
                m++;
                if (isnan(adj[m]))
                    assert_true(isnan(p->p99_p_holm));
                else
                    assert_close(p->p99_p_holm, adj[m], 1e-15);
                m++;
                assert_int_equal(p->agg_significant, !isnan(p->agg_p_holm) && p->agg_p_holm < VDC_STATS_ALPHA);
            }
        if (d.levels[k] == 3)
            assert_int_equal(tested, 2);   /* both aggregates (each p99 the same every repetition):
                                            * corrected as one family */
    }
    vdc_density_dispose(&d);
    vdc_density_dispose(&d);   /* twice: safe */
    vdc_result_set_dispose(&rs);
}

/* a set without level members has no density analysis */
static void
test_density_none(void **state)
{
    struct vdc_stats_options opt;
    struct vdc_density d;
    vdc_result_set rs;

    vdc_result_set_init(&rs);
    add_run(&rs, "image", 0, 0, 0, 100, NAN, 0);
    add_run(&rs, "image", 0, 0, 1, 110, NAN, 0);
    vdc_stats_options_init(&opt);
    vdc_density_init(&d);
    assert_int_equal(vdc_density_build(&d, &rs, &opt), 0);
    assert_int_equal(d.n_levels, 0);
    assert_int_equal(d.n_targets, 0);
    assert_int_equal(d.n_pairs, 0);
    vdc_density_dispose(&d);
    vdc_result_set_dispose(&rs);
}

/* A guest that failed (its run's status, or its sample) is told apart
 * from one that ran without a value, named with its level, repetition and
 * one-line error; a pair over fewer repetitions than a cell's says the
 * means it compares */
static void
test_density_failed(void **state)
{
    struct vdc_stats_options opt;
    struct vdc_analysis a;
    struct vdc_density *d = &a.density;
    const struct vdc_density_cell *c;
    vdc_result_set rs;
    vdc_run *r;
    GString *s;
    char *t;
    long put = -1, wl = -1;
    size_t k, seen = 0;

    density_set(&rs);
    /* the image's repetition 3 complete: 4 repetitions against the LV's 3 */
    add_run(&rs, "image", 3, 2, 3, 300, NAN, 100);
    /* the LV's repetition 3: guest 0 failed before it wrote a sample */
    r = vdc_result_set_add_run(&rs, "lvm");
    r->repetition = 3;
    r->level = 3;
    r->guest = 0;
    vdc_set_str(&r->status, "failed");
    vdc_set_str(&r->error, "agent result refused:\nexpected a number, not null");
    add_run(&rs, "lvm", 3, 1, 3, 400, NAN, 80);
    add_run(&rs, "lvm", 3, 2, 3, 400, NAN, 80);
    /* repetition 4: guest 0 ran, without a value */
    add_run(&rs, "lvm", 3, 0, 4, NAN, NAN, 80);
    add_run(&rs, "lvm", 3, 1, 4, 400, NAN, 80);
    add_run(&rs, "lvm", 3, 2, 4, 400, NAN, 80);
    /* repetition 5: guest 0's put_block failed (its workload has a value) */
    r = add_run(&rs, "lvm", 3, 0, 5, 400, NAN, 80);
    r->samples[0]->failed = 1;
    r->samples[0]->value = NAN;
    vdc_set_str(&r->samples[0]->error, "short write");
    add_run(&rs, "lvm", 3, 1, 5, 400, NAN, 80);
    add_run(&rs, "lvm", 3, 2, 5, 400, NAN, 80);

    memset(&a, 0, sizeof(a));
    vdc_stats_options_init(&opt);
    vdc_density_init(d);
    assert_int_equal(vdc_density_build(d, &rs, &opt), 0);
    for (k = 0; k < d->n_tests; k++) {
        if (!strcmp(d->tests[k], "put_block"))
            put = (long)k;
        if (!strcmp(d->tests[k], "workload_read@randread"))
            wl = (long)k;
    }
    assert_true(put >= 0 && wl >= 0);

    /* the failures, in order: the run (every test), the sample (its test) */
    assert_int_equal(d->n_failures, 2);
    assert_int_equal(d->failures[0].level, 3);
    assert_string_equal(d->targets[d->failures[0].target], "lvm");
    assert_int_equal(d->failures[0].rep, 3);
    assert_int_equal(d->failures[0].guest, 0);
    assert_int_equal(d->failures[0].test, -1);
    assert_string_equal(d->failures[0].status, "failed");
    assert_string_equal(d->failures[0].error, "agent result refused: expected a number, not null");
    assert_int_equal(d->failures[1].rep, 5);
    assert_int_equal(d->failures[1].test, put);
    assert_string_equal(d->failures[1].error, "short write");
    t = vdc_density_failure_text(&a, &d->failures[0]);
    assert_string_equal(t, "lvm at 3 guests, repetition 3: guest g0 failed: agent result refused: expected a "
                           "number, not null; that repetition is left out of every test at this level");
    g_free(t);

    /* the LV's put_block at 3 guests: 2 left out by a failure, 1 without a value */
    c = vdc_density_cell(d, 1, 1, (size_t)put);
    assert_int_equal(c->n_reps, 3);
    assert_int_equal(c->n_incomplete, 3);
    assert_int_equal(c->n_failed, 2);
    assert_int_equal(c->n_no_value, 1);
    s = g_string_new(NULL);
    vdc_density_left_out_text(s, d, c);
    assert_string_equal(s->str, "2 repetitions left out (a guest failed: g0 in repetition 3, g0 in repetition "
                                "5); 1 repetition left out (a guest ran but gave no value)");
    /* its workload: only the failed run (the sample failure is put_block's) */
    c = vdc_density_cell(d, 1, 1, (size_t)wl);
    assert_int_equal(c->n_reps, 4);
    assert_int_equal(c->n_failed, 1);
    assert_int_equal(c->n_no_value, 1);
    g_string_truncate(s, 0);
    vdc_density_left_out_text(s, d, c);
    assert_string_equal(s->str, "1 repetition left out (a guest failed: g0 in repetition 3); 1 repetition left "
                                "out (a guest ran but gave no value)");
    /* the image: nothing left out now, nothing said */
    c = vdc_density_cell(d, 1, 0, (size_t)put);
    assert_int_equal(c->n_reps, 4);
    assert_int_equal(c->n_incomplete, 0);
    g_string_truncate(s, 0);
    vdc_density_left_out_text(s, d, c);
    assert_string_equal(s->str, "");

    /* the pair at 3 guests on put_block: 3 pairs of the image's 4
     * repetitions: the paired means (900, (1200 + 1200 + 1210) / 3) said */
    for (k = 0; k < d->n_pairs; k++) {
        const struct vdc_density_pair *p = &d->pairs[k];

        g_string_truncate(s, 0);
        vdc_density_paired_means_text(s, d, p, 0, NULL);
        if (p->level == 3 && p->test == (size_t)put) {
            assert_int_equal(p->agg.n, 3);
            assert_true(p->agg_short);
            assert_close(p->agg.mean_t, 900, 1e-12);
            assert_close(p->agg.mean_b, 3610.0 / 3, 1e-12);
            assert_string_equal(s->str, " (paired means over the 3 repetitions both completed: image 900.0 against lvm 1203)");
            seen++;
        }
        if (p->level == 1) {   /* every repetition paired: the cells' means are the compared ones */
            assert_false(p->agg_short);
            assert_string_equal(s->str, "");
        }
    }
    assert_int_equal(seen, 1);
    g_string_free(s, TRUE);

    /* density.csv: the failed and the valueless repetitions in columns of
     * their own, by the header's names */
    {
        g_autofree char *csv = vdc_density_csv(&a);
        g_auto(GStrv) lines = g_strsplit(csv, "\n", -1);
        g_auto(GStrv) head = g_strsplit(lines[0], ",", -1);
        int col_failed = -1, col_none = -1, col_stop = -1, n_rows = 0;

        for (k = 0; head[k]; k++) {
            col_failed = !strcmp(head[k], "incomplete_failed") ? (int)k : col_failed;
            col_none = !strcmp(head[k], "incomplete_no_value") ? (int)k : col_none;
            col_stop = !strcmp(head[k], "stops_scaling_at") ? (int)k : col_stop;
            assert_string_not_equal(head[k], "incomplete");
        }
        assert_true(col_failed >= 0 && col_none == col_failed + 1 && col_stop == col_none + 1);
        for (k = 1; lines[k] && *lines[k]; k++) {
            g_auto(GStrv) f = g_strsplit(lines[k], ",", -1);

            assert_int_equal(g_strv_length(f), g_strv_length(head));   /* every line as wide */
            if (strcmp(f[0], "3") || strcmp(f[4], ""))   /* the level rows at 3 guests */
                continue;
            if (!strcmp(f[1], "lvm") && !strcmp(f[2], "put_block")) {
                assert_string_equal(f[col_failed], "2");
                assert_string_equal(f[col_none], "1");
                n_rows++;
            } else if (!strcmp(f[1], "lvm") && !strcmp(f[2], "workload_read@randread")) {
                assert_string_equal(f[col_failed], "1");
                assert_string_equal(f[col_none], "1");
                n_rows++;
            } else if (!strcmp(f[1], "image")) {
                assert_string_equal(f[col_failed], "0");
                assert_string_equal(f[col_none], "0");
            }
        }
        assert_int_equal(n_rows, 2);
    }
    vdc_density_dispose(d);
    vdc_result_set_dispose(&rs);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_jain),
        cmocka_unit_test(test_mixture_quantile),
        cmocka_unit_test(test_model_levels),
        cmocka_unit_test(test_model_levels_refused),
        cmocka_unit_test(test_model_same_rep_other_guests),
        cmocka_unit_test(test_density_cells),
        cmocka_unit_test(test_density_none),
        cmocka_unit_test(test_density_failed),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
