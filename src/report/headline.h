/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp headline: the answer a run exists for, "image or LV?".
 *
 * Part of the analysis (report/analysis.h: vdc_analysis.headline, decided
 * once by vdc_analysis_build; renderers only format it).  Each storage
 * choice of the run is held against each other one by the paired
 * statistics of stats/paired.h (pair = the same repetition number):
 *
 *   choice    each image variant (targets[].kind "image": image,
 *             image-qdisk, ...) against each LV/block variant (kind "lvm"
 *             or "block"): "image is 3.2 % faster than lvm [+1.1 %, +5.3 %],
 *             p = 0.012, permutation p = 0.0625, moderate";
 *   cache     an image variant whose requested image cache is "host" (dom0's
 *             page cache may serve it) against one with "none" and the same
 *             requested backend: what dom0's page cache did ("image is
 *             11.0 % faster than image-nocache [...]"); the dom0-page-cache
 *             and guest-faster flags are what it measures, so they do not
 *             withhold its verdict;
 *   ceiling   every other target against bare dom0 (kind "dom0"), as the
 *             ceiling it can reach: "image reaches 62.0 % [55.1 %, 70.4 %]
 *             of dom0";
 *   baseline  only when the run has neither (no kinds, or no image and no
 *             dom0...): each target against the analysis's baseline.
 * Only vmdiskcmp's own runs (the result has an experiment: repetition r of
 * every target shares the seed and the boot) are paired.  Runs it did not
 * make (imported results, agent output) whose kinds give image/LV or dom0
 * pairs keep them, not paired (vdc_headline.unpaired): each row is Welch's
 * test and Fieller's interval over each side's values (headline_welch.c),
 * Holm across the pair's tests, no permutation test, and every sentence says
 * "not paired"; without such kinds they get no pair.  vdc_headline.absent
 * says why there is no image/LV pair.
 *
 * Per pair and test: the paired Fieller interval of the ratio, the paired
 * t-test, Holm's correction across the tests of that pair, the sign-flip
 * permutation p beside it, and the effect class with its thresholds
 * (VDC_EFFECT_NEGLIGIBLE_PERCENT, VDC_EFFECT_LARGE_PERCENT).  A test whose
 * cells carry a flag of VDC_HEADLINE_NO_VERDICT_FLAGS on either side, or
 * whose two targets used different test file sizes, gets no verdict: "not
 * comparable" with the reason (vdc_headline_reason).  Methods:
 * doc/statistics.md ("Paired comparison", "Multiple tests", "Effect
 * classes", "The headline"); formats: doc/report.md. */
#ifndef VDC_REPORT_HEADLINE_H
#define VDC_REPORT_HEADLINE_H

#include <stddef.h>
#include <stdint.h>

#include "model/result.h"
#include "stats/paired.h"
#include "stats/stats.h"

struct vdc_analysis;
struct vdc_cell;

/* What a headline pair is (the list at the top of this file). */
enum vdc_headline_role {
    VDC_HEADLINE_CHOICE = 0,  /* an image variant against an LV/block variant */
    VDC_HEADLINE_CEILING,     /* a target against bare dom0 */
    VDC_HEADLINE_BASELINE,    /* no storage choices known: a target against the baseline */
    VDC_HEADLINE_CACHE,       /* an image through dom0's page cache against one without */
};

/* Why the run has no image/LV pair (vdc_headline.absent). */
enum vdc_headline_absent {
    VDC_HEADLINE_PRESENT = 0,     /* at least one image/LV pair */
    VDC_HEADLINE_ONE_TARGET,      /* one target: nothing to compare */
    VDC_HEADLINE_NO_KINDS,        /* no target of kind image, lvm or block (imported results) */
    VDC_HEADLINE_NO_IMAGE,        /* LV/block targets, no image */
    VDC_HEADLINE_NO_LV,           /* image targets, no LV or block */
    VDC_HEADLINE_UNPAIRED,        /* not vmdiskcmp's own runs (no experiment): no pairs */
};

/* One test of one pair. */
struct vdc_headline_row {
    size_t test;                  /* index into vdc_analysis.tests: the row's test (a
                                   * pass key "T~PASS" when either side ran passes) */
    size_t t_test, r_test;        /* the target's and the reference's test: @test, or
                                   * for the side without passes, the bare key "T" a
                                   * pass key pairs with (a thin LV's first-write and
                                   * overwrite each against a linear LV's one pass) */
    size_t n_reps;                /* repetitions either side has a sample of */
    size_t n_dropped;             /* of those, left out: no kept value on a side
                                   * (too fast, failed, not run, a dropped outlier) */
    struct vdc_stats_paired p;    /* over the p.n = n_reps - n_dropped pairs */
    double p_holm;                /* p.p_value Holm-adjusted across the pair's tests
                                   * that have a verdict; NAN when not in the family */
    int significant;              /* p_holm < alpha */
    enum vdc_verdict verdict;     /* FASTER / SLOWER (significant, by the sign of the
                                   * delta), NO_DIFFERENCE, NOT_TESTED (fewer than 2
                                   * pairs, or no differences), NOT_COMPARABLE */
    enum vdc_effect_class effect; /* vdc_effect_classify; NOT_TESTED when not comparable */
    unsigned bar_target;          /* VDC_HEADLINE_NO_VERDICT_FLAGS set on the target's cell
                                   * (a cache pair: but dom0-page-cache, guest-faster) */
    unsigned bar_reference;       /* ... on the reference's cell */
    int sizes_differ;             /* the two targets' test file sizes differ */
    const vdc_stop_record *stop;  /* experiment.runs_policy.stop's record for this
                                   * (pair, test), or NULL; borrowed from the result set */
};

struct vdc_headline_pair {
    enum vdc_headline_role role;
    size_t target, reference;     /* indexes into vdc_analysis.targets */
    struct vdc_headline_row *rows;    /* one per test both targets have samples of,
                                       * in test order */
    size_t n_rows;
    size_t n_family;              /* Holm's m: rows with a p-value and a verdict */
    size_t n_pairs_max;           /* largest p.n over the rows */
};

/* How the run chose its repetitions (experiment.runs_policy). */
enum vdc_runs_mode {
    VDC_RUNS_UNKNOWN = 0,         /* no experiment (imported results, agent output) */
    VDC_RUNS_FIXED,               /* --runs N, or a document older than runs_policy */
    VDC_RUNS_AUTO,                /* --runs auto */
};

/* With more image/LV pairs than this, the headline ranks the targets per
 * test instead of listing every pair (report/ranking.h). */
#define VDC_HEADLINE_RANK_ABOVE_PAIRS 4

/* The most pairs of one role (image/LV, cache, ceiling) the headline
 * compares one by one, each test of each pair a paired test.  A role with
 * more (a result of 1024 targets, 512 images and 512 LVs: 262144 image/LV
 * pairs) has none built: vdc_headline.left_out records how many and of
 * what, and vdc_headline_left_out_text says so where the pairs would be.
 * The ranking per test still places every target, the delta tables hold
 * each against the baseline.  A run plans a few dozen targets: 1024 pairs
 * are 32 images x 32 LVs. */
#define VDC_HEADLINE_PAIRS_MAX 1024

/* The pairs of one role not built (more than VDC_HEADLINE_PAIRS_MAX). */
struct vdc_headline_left_out {
    size_t n;                     /* pairs of the role; 0: none left out */
    size_t sides[2];              /* n = sides[0] x sides[1] for choice (images, LVs)
                                   * and ceiling (dom0 targets, the others); cache:
                                   * images through dom0's page cache, without (n is
                                   * those with the same backend) */
};

/* One target in a test's ranking (report/ranking.h). */
struct vdc_rank_entry {
    size_t target;                /* index into vdc_analysis.targets */
    size_t test;                  /* its cell's test: the ranking's, or a pass of it
                                   * ("put_block~overwrite") for a target that ran
                                   * the test in passes (a thin LV) */
    int provisioning;             /* a thin LV's first-write pass: it measures the
                                   * pool's allocation, not steady state; shown apart,
                                   * never ranked */
    double mean;                  /* mean of its kept values */
    size_t n;                     /* its kept values */
    char letters[27];             /* its groups, "a", "ab"; "" when not ranked */
    unsigned bar;                 /* VDC_HEADLINE_NO_VERDICT_FLAGS on its cell: not ranked */
};

/* One test's ranking: its targets, best mean first (the ranked, then those
 * not ranked), lettered by the compact letter display of the paired
 * t-tests between every two ranked targets, Holm within the test. */
struct vdc_ranking {
    size_t test;                  /* index into vdc_analysis.tests */
    struct vdc_rank_entry *entries;
    size_t n_entries;
    size_t n_ranked;              /* entries with letters (the first n_ranked) */
    size_t n_family;              /* Holm's m: pairs with a test */
    size_t n_differ;              /* pairs that differ (Holm-adjusted p < alpha) */
    size_t n_groups;              /* letters used */
};

struct vdc_headline {
    enum vdc_headline_absent absent;
    struct vdc_ranking *rankings; /* per test, when the image/LV pairs are more than
                                   * VDC_HEADLINE_RANK_ABOVE_PAIRS (vmdiskcmp's own
                                   * runs); the renderers show them instead of
                                   * those pairs */
    size_t n_rankings;
    int unpaired;                 /* runs vmdiskcmp did not make (no experiment): the
                                   * pairs' rows, when there are pairs, are Welch's test
                                   * on each side's values, not paired (row.p.n: the
                                   * fewer values of the two sides, p_perm NAN) */
    struct vdc_headline_pair *pairs;  /* choice (or baseline) pairs, cache pairs, then
                                       * ceilings */
    size_t n_pairs;
    enum vdc_runs_mode runs_mode;
    int64_t runs;                 /* repetitions: runs_per_target, else the most any
                                   * cell has; 0 when unknown */
    int64_t min_runs, max_runs;   /* auto: VDC_INT_ABSENT when not recorded */
    double precision_percent;     /* auto: NAN when not recorded */
    size_t n_stop;                /* rows with a recorded stop reason */
    struct vdc_headline_left_out left_out[VDC_HEADLINE_CACHE + 1];
                                  /* by enum vdc_headline_role: pairs not built */
};

void vdc_headline_init(struct vdc_headline *h);
void vdc_headline_dispose(struct vdc_headline *h);

/* Decide @a's headline from @rs (called by vdc_analysis_build once the
 * cells, comparisons, files and flags are there).  Never fails. */
void vdc_headline_build(struct vdc_analysis *a, const vdc_result_set *rs);

/* Fill @p for an unpaired row (vdc_headline.unpaired, headline_welch.c):
 * Welch's test and Fieller's interval of @t's kept values against @b's (the
 * outlier policy of @a), the ratio cut at 0; n = the fewer values of the
 * two, permutation p NAN, has_test when both sides have 2 or more. */
void vdc_headline_welch_row(const struct vdc_analysis *a, const struct vdc_cell *t,
                            const struct vdc_cell *b, struct vdc_stats_paired *p);

/* "choice", "ceiling", "baseline", "cache" */
const char *vdc_headline_role_name(enum vdc_headline_role r);
/* NULL (present), "one-target", "no-kinds", "no-image", "no-lv",
 * "unpaired" */
const char *vdc_headline_absent_key(enum vdc_headline_absent r);
/* The verdict of a headline row: "faster", "slower", "no significant
 * difference", "not tested", "not comparable" */
const char *vdc_headline_verdict_name(enum vdc_verdict v);

/* Why @row has no verdict, one line (g_free): "too-fast on image and
 * lvm; test file sizes differ (image 512 MiB, lvm 2048 MiB)"; NULL when it
 * is comparable. */
char *vdc_headline_reason(const struct vdc_analysis *a, const struct vdc_headline_pair *pair,
                          const struct vdc_headline_row *row);

/* The answer of one row as a sentence, the same in every format (g_free):
 *   choice/baseline, significant:  "image is 3.2 % faster than lvm
 *     [+1.1 %, +5.3 %], p = 0.012, permutation p = 0.0625, moderate"
 *   not significant:  "image against lvm: no significant difference,
 *     +1.0 % [-2.0 %, +4.0 %], p = 0.41, permutation p = 0.5, negligible"
 *   ceiling:  "image reaches 62.0 % [55.1 %, 70.4 %] of dom0, p = ..."
 *   not comparable:  "image against lvm: not comparable (too-fast on
 *     lvm): +3.0 % [-1.0 %, +7.0 %]"
 *   not tested:  "image against lvm: not tested (1 pair): +474.2 %"
 * then "; 4 pairs, 1 dropped (no value on a side)" when pairs were
 * dropped.  p is Holm-adjusted; "p < 0.001" below that.  Without
 * @standalone (under a heading naming the pair) the "image against lvm: "
 * opening is left out.  The stop reason is not in it
 * (vdc_headline_stop_text). */
char *vdc_headline_row_text(const struct vdc_analysis *a, const struct vdc_headline_pair *pair,
                            const struct vdc_headline_row *row, int standalone);

/* The recorded stop reason of @row: "precision reached (half-width 2.7 %
 * at 12 runs)"; NULL when none is recorded (g_free). */
char *vdc_headline_stop_text(const struct vdc_headline_row *row);

/* The runs line: "fixed 5 runs (no stopping rule)", "17 runs (--runs auto
 * stopped when the 95 % interval of every headline ratio was within the
 * precision; at least 3; at most 40).  The precision it runs for: ..."
 * (the stop rule's precision said apart from the negligible band); NULL
 * when unknown (g_free). */
char *vdc_headline_runs_text(const struct vdc_headline *h);

/* The method paragraph, thresholds stated (g_free). */
char *vdc_headline_method_text(void);
/* The same for an unpaired headline (vdc_headline.unpaired). */
char *vdc_headline_method_text_unpaired(void);

/* Why there is no image/LV pair, one sentence (g_free); NULL when there
 * is one. */
char *vdc_headline_absent_text(const struct vdc_analysis *a);

/* The pairs the headline left out, one sentence (g_free); NULL when none
 * was:  "Not compared pair by pair: 261632 image/LV pairs (512 image x 511
 * LV or block targets), more than the 1024 of a kind the headline compares
 * one by one (a paired test per test of each pair); the ranking per test
 * places every target, the tables hold each against the baseline dom0." */
char *vdc_headline_left_out_text(const struct vdc_analysis *a);

/* Header of a pair: "image relative to lvm (5 pairs)", "dom0's page
 * cache: image (through it) against image-nocache (without it) (3 pairs)"
 * ... (g_free). */
char *vdc_headline_pair_title(const struct vdc_analysis *a, const struct vdc_headline_pair *pair);

/* The direction of the report's comparisons, for its title: "the answer:
 * image and image-nocache relative to lvm; the tables: each target
 * relative to dom0, the baseline" (the choice pairs, each reference with
 * its targets; without any, only the tables' part) (g_free). */
char *vdc_headline_direction_text(const struct vdc_analysis *a);

/* With fewer than 6 pairs the sign-flip test cannot reach p < 0.05: the
 * note saying so for @pair (g_free), or NULL. */
char *vdc_headline_perm_note(const struct vdc_headline_pair *pair);

/* A p Holm-adjusted within a family of @k tests as every report part
 * prints it, the unadjusted @p_raw beside it so that an interval that
 * excludes 0 (each test alone) and a Holm p above alpha do not read as a
 * contradiction: "p = 0.158 (Holm, 5 tests; unadjusted = 0.032)",
 * "p < 0.001 (Holm, 5 tests)"; a family of one test or no unadjusted p
 * (NAN): "p = 0.032"; NAN @p_holm: "p n/a".  Into @buf (64 bytes do). */
const char *vdc_p_holm_text(char *buf, size_t size, double p_holm, double p_raw, size_t k);

#endif
