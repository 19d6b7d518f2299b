/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The stopping rule of --runs auto as the recorder decides it
 * (src/collect/stoprule.c, from the result set and the statistics layer
 * alone) held against the report's headline (vdc_analysis_build: the
 * pairs and rows the report prints the stop reasons beside): the same
 * pairs in the same order, the same tests, the same pairs of values and
 * so the same interval and reason, for image/LV pairs, ceilings against
 * dom0 only, the baseline fallback, values missing on either side (too
 * fast, failed, a repetition not run), sweep and workload keys, and sets
 * with no pairs (not vmdiskcmp's own runs). */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <math.h>
#include <string.h>
#include <cmocka.h>

#include <glib.h>

#include "collect/stoprule.h"
#include "model/result.h"
#include "report/analysis.h"
#include "stats/paired.h"

/* a drift per repetition both sides of a pair share, and noises of their own */
static const double drift[] = { 1.00, 1.12, 0.91, 1.05, 0.97, 1.08, 0.95, 1.02 };
static const double own[] = { 0.004, -0.003, 0.002, -0.004, 0.001, -0.002, 0.003, -0.001 };

static void
add_target(vdc_result_set *rs, const char *name, const char *kind)
{
    vdc_set_str(&vdc_result_set_add_target(rs, name)->kind, kind);
}

/* repetition @rep of @target at level @scale; @hole: the sample of
 * put_block has no value (too fast); @skip_sweep: no sweep sample */
static void
add_rep(vdc_result_set *rs, const char *target, unsigned rep, double scale, int hole)
{
    vdc_run *r = vdc_result_set_add_run(rs, target);
    double d = drift[rep] * scale * (1 + own[(rep + strlen(target)) % G_N_ELEMENTS(own)]);
    vdc_sample *s;

    r->repetition = rep;
    s = vdc_run_add_sample(r, "put_block");
    s->value = hole ? NAN : 50000 * d;
    s->too_fast = hole;
    vdc_run_add_sample(r, "get_block")->value = 80000 * d * (1 + own[rep] * 5);
    s = vdc_run_add_sample(r, "sweep_read");
    s->block_size = 4096;
    s->value = 300 * d;
    if (rep % 3 == 2) {
        s = vdc_run_add_sample(r, "seeks");
        s->value = NAN;
        s->failed = 1;
    }
}

/* the reasons check_same saw (bits of enum vdc_stop_reason) */
static unsigned reasons;

/* What auto_stop held: the headline's rows of its choice pairs, else of
 * every pair, each decided by vdc_stats_stop_rule; compared one by one
 * with vdc_stop_decide's. */
static void
check_same(const vdc_result_set *rs, unsigned runs, unsigned min_runs, unsigned max_runs,
           double precision, size_t want_rows)
{
    struct vdc_stats_options so;
    struct vdc_analysis a;
    vdc_stop_decision d;
    size_t i, k, n = 0, open = 0;
    int choice = 0;

    vdc_stats_options_init(&so);
    vdc_analysis_init(&a);
    assert_int_equal(vdc_analysis_build(&a, rs, NULL, &so), 0);
    assert_int_equal(vdc_stop_decide(rs, runs, min_runs, max_runs, precision, &d), 0);
    for (i = 0; i < a.headline.n_pairs; i++)
        choice |= a.headline.pairs[i].role == VDC_HEADLINE_CHOICE;
    /* runs not known to be pairs (no experiment): the headline compares
     * them unpaired (Welch), the rule has no pair to wait for */
    for (i = 0; !a.headline.unpaired && i < a.headline.n_pairs; i++) {
        const struct vdc_headline_pair *hp = &a.headline.pairs[i];

        if (choice && hp->role != VDC_HEADLINE_CHOICE)
            continue;
        for (k = 0; k < hp->n_rows; k++, n++) {
            const struct vdc_headline_row *row = &hp->rows[k];
            const vdc_stop_row *s;
            enum vdc_stop_reason why = vdc_stats_stop_rule(&row->p, runs, min_runs, max_runs, precision);

            assert_true(n < d.n_rows);
            s = &d.rows[n];
            assert_string_equal(d.targets[s->target], a.targets[hp->target]);
            assert_string_equal(d.targets[s->reference], a.targets[hp->reference]);
            assert_string_equal(d.tests[s->test], a.tests[row->test]);
            assert_int_equal(s->p.n, row->p.n);
            assert_int_equal(s->p.has_ci, row->p.has_ci);
            if (row->p.has_ci)
                assert_true(s->p.half_width == row->p.half_width);
            assert_int_equal(s->reason, why);
            open += why == VDC_STOP_CONTINUE;
        }
    }
    assert_int_equal(d.n_rows, n);
    assert_int_equal(d.n_rows, want_rows);
    assert_int_equal(d.n_open, open);
    for (i = 0; i < d.n_rows; i++)
        reasons |= 1u << d.rows[i].reason;
    vdc_stop_decision_dispose(&d);
    vdc_stop_decision_dispose(&d);      /* twice: safe */
    vdc_analysis_dispose(&a);
}

/* image variants against LV and block variants (the choice pairs), dom0
 * there too (its ceilings are not what the rule waits for) */
static void
test_choice_pairs(void **state)
{
    vdc_result_set rs;
    unsigned r;

    vdc_result_set_init(&rs);
    rs.has_experiment = 1;
    add_target(&rs, "image", "image");
    add_target(&rs, "image-qdisk", "image");
    add_target(&rs, "lvm", "lvm");
    add_target(&rs, "block", "block");
    add_target(&rs, "dom0", "dom0");
    for (r = 0; r < 5; r++) {
        add_rep(&rs, "image", r, 1.1, r == 1);
        add_rep(&rs, "image-qdisk", r, 0.4, 0);
        add_rep(&rs, "lvm", r, 1.0, r == 3);
        if (r != 2)
            add_rep(&rs, "block", r, 1.2, 0);       /* a repetition not run */
        add_rep(&rs, "dom0", r, 1.5, 0);
    }
    /* 4 pairs x (put_block, get_block, sweep_read@4096, seeks), less
     * seeks against block, whose only seeks repetition was not run */
    reasons = 0;
    check_same(&rs, 5, 3, 40, 0.03, 14);
    assert_true(reasons & (1u << VDC_STOP_PRECISION));
    assert_true(reasons & (1u << VDC_STOP_CONTINUE));
    reasons = 0;
    check_same(&rs, 5, 3, 5, 0.001, 14);   /* at max runs */
    assert_true(reasons & (1u << VDC_STOP_MAX_RUNS));
    assert_true(reasons & (1u << VDC_STOP_NOT_MEASURABLE));
    reasons = 0;
    check_same(&rs, 2, 3, 40, 0.5, 14);    /* below min runs */
    assert_int_equal(reasons, 1u << VDC_STOP_CONTINUE);
    vdc_result_set_dispose(&rs);
}

/* no LV: every target against bare dom0 */
static void
test_ceilings(void **state)
{
    vdc_result_set rs;
    unsigned r;

    vdc_result_set_init(&rs);
    rs.has_experiment = 1;
    add_target(&rs, "image", "image");
    add_target(&rs, "dom0", "dom0");
    for (r = 0; r < 4; r++) {
        add_rep(&rs, "dom0", r, 1.5, 0);
        add_rep(&rs, "image", r, 1.1, 0);
    }
    check_same(&rs, 4, 3, 40, 0.05, 4);
    vdc_result_set_dispose(&rs);
}

/* no LV: the image through dom0's page cache against the same backend
 * past it (the cache pairs), then the ceilings against dom0 */
static void
test_cache_pairs(void **state)
{
    static const struct { const char *name, *backend, *cache; } img[] = {
        { "image", "tap", "host" }, { "image-nocache", "tap", "none" },
        { "image-qdisk", "qdisk", "host" }, { "image-qdisk-nocache", "qdisk", "none" },
    };
    vdc_result_set rs;
    unsigned r;
    size_t i;

    vdc_result_set_init(&rs);
    rs.has_experiment = 1;
    for (i = 0; i < G_N_ELEMENTS(img); i++) {
        add_target(&rs, img[i].name, "image");
        vdc_set_str(&rs.targets[i]->requested.image_backend, img[i].backend);
        vdc_set_str(&rs.targets[i]->requested.image_cache, img[i].cache);
    }
    add_target(&rs, "dom0", "dom0");
    for (r = 0; r < 4; r++) {
        for (i = 0; i < G_N_ELEMENTS(img); i++)
            add_rep(&rs, img[i].name, r, i % 2 ? 1.0 : 1.3, 0);
        add_rep(&rs, "dom0", r, 1.5, 0);
    }
    /* (image, image-nocache), (image-qdisk, image-qdisk-nocache), then four
     * ceilings: 6 pairs x 4 tests (seeks at repetition 2 on each) */
    check_same(&rs, 4, 3, 40, 0.03, 24);
    vdc_result_set_dispose(&rs);
}

/* neither: every target against the baseline, the one named dom0 first
 * (a target whose kind is not known), else the first */
static void
test_baseline(void **state)
{
    vdc_result_set rs;
    unsigned r;

    vdc_result_set_init(&rs);
    rs.has_experiment = 1;
    add_target(&rs, "a", "imported");
    add_target(&rs, "dom0", "imported");
    add_target(&rs, "c", NULL);
    for (r = 0; r < 3; r++) {
        add_rep(&rs, "a", r, 1.0, 0);
        add_rep(&rs, "dom0", r, 0.8, 0);
        add_rep(&rs, "c", r, 1.3, r == 0);
    }
    check_same(&rs, 3, 3, 40, 0.03, 8);
    /* the runs of "dom0" without a target record: still the baseline, as
     * the analysis names targets (records first, then names in runs) */
    vdc_set_str(&rs.targets[1]->name, "b");
    check_same(&rs, 3, 3, 40, 0.03, 8);
    vdc_result_set_dispose(&rs);
}

/* runs vmdiskcmp did not make (no experiment): not known to be pairs */
static void
test_unpaired(void **state)
{
    vdc_result_set rs;
    vdc_stop_decision d;
    unsigned r;

    vdc_result_set_init(&rs);
    add_target(&rs, "image", "image");
    add_target(&rs, "lvm", "lvm");
    for (r = 0; r < 3; r++) {
        add_rep(&rs, "image", r, 1.1, 0);
        add_rep(&rs, "lvm", r, 1.0, 0);
    }
    check_same(&rs, 3, 3, 40, 0.03, 0);
    /* the headline has its unpaired rows all the same */
    {
        struct vdc_stats_options so;
        struct vdc_analysis a;

        vdc_stats_options_init(&so);
        vdc_analysis_init(&a);
        assert_int_equal(vdc_analysis_build(&a, &rs, NULL, &so), 0);
        assert_true(a.headline.unpaired);
        assert_true(a.headline.n_pairs > 0);
        vdc_analysis_dispose(&a);
    }
    vdc_result_set_dispose(&rs);
    /* nothing to decide on: no target */
    vdc_result_set_init(&rs);
    assert_int_equal(vdc_stop_decide(&rs, 1, 3, 40, 0.03, &d), -1);
    vdc_result_set_dispose(&rs);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_choice_pairs),
        cmocka_unit_test(test_ceilings),
        cmocka_unit_test(test_cache_pairs),
        cmocka_unit_test(test_baseline),
        cmocka_unit_test(test_unpaired),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
