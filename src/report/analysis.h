/* vmdiskcmp analysis: the statistics of a result set, ready to render.
 *
 * A result set (model/result.h) is turned into a grid of cells, one per
 * (target, test key), each with its valued samples, the samples the outlier
 * rule flagged, and a summary (stats/stats.h); plus one comparison per
 * (non-baseline target, test key) against the baseline target.  Every
 * renderer (text, CSV, JSON, Markdown, HTML, compare) reads only this and
 * the result set: measure once, render later. */
#ifndef VDC_REPORT_ANALYSIS_H
#define VDC_REPORT_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "model/result.h"
#include "stats/stats.h"

/* One valued sample of a cell. */
struct vdc_cell_sample {
    int64_t repetition;      /* runs[].repetition */
    double value;            /* in the cell's unit */
    double cpu_percent;      /* NAN when absent */
    double modified_z;       /* 0 when the rule does not apply (n < 3) */
    int outlier;             /* |modified_z| > threshold */
};

/* One (target, test key). */
struct vdc_cell {
    const char *target;      /* borrowed from vdc_analysis.targets */
    const char *test_key;    /* borrowed from vdc_analysis.tests */
    const vdc_test_info *info;   /* NULL for an unknown test id */
    const char *unit;        /* from the samples, else the test table; may be NULL */
    size_t n_samples;        /* samples seen (valued + too fast + failed) */
    size_t n_too_fast;       /* value null because too fast (bonnie++ +++++) */
    size_t n_failed;         /* value null because the test failed */
    size_t n_no_value;       /* all samples whose value is null */
    size_t n_too_fast_excluded;  /* too fast with value null: left out of the mean,
                                  * which then understates the speed */
    struct vdc_cell_sample *samples;   /* valued samples, run order */
    size_t n_values;
    size_t n_outliers;
    double cpu_mean;         /* mean %CP over valued samples; NAN when none */
    struct vdc_stats_summary sum;      /* over the values kept by the policy */
};

struct vdc_cell_comparison {
    const struct vdc_cell *target;
    const struct vdc_cell *baseline;
    struct vdc_stats_comparison c;
};

struct vdc_analysis {
    char **targets;          /* NULL-terminated (g_strfreev) */
    size_t n_targets;
    char **tests;            /* test keys, NULL-terminated */
    size_t n_tests;
    struct vdc_cell *cells;  /* n_targets x n_tests, row = target */
    char *baseline;          /* baseline target name */
    size_t baseline_index;
    struct vdc_cell_comparison *cmp;   /* n_targets x n_tests; the baseline row unused */
    struct vdc_stats_options opt;
    double alpha;
};

void vdc_analysis_init(struct vdc_analysis *a);
void vdc_analysis_dispose(struct vdc_analysis *a);

/* Analyse @rs with @opt, comparing every target with @baseline (NULL:
 * the first target; "dom0" when a target of that name exists, since the
 * bare host is the reference of vmdiskcmp).  @rs must outlive @a.
 * Returns 0, or -1 after vdc_error: unknown baseline (the message lists
 * the targets; the caller exits 2), no targets, no memory. */
int vdc_analysis_build(struct vdc_analysis *a, const vdc_result_set *rs,
                       const char *baseline, const struct vdc_stats_options *opt);

/* The cell of (@target_index, @test_index). */
const struct vdc_cell *vdc_analysis_cell(const struct vdc_analysis *a, size_t ti, size_t ki);
/* The comparison of target @ti against the baseline on test @ki; NULL for
 * the baseline itself. */
const struct vdc_cell_comparison *vdc_analysis_cmp(const struct vdc_analysis *a, size_t ti, size_t ki);

/* Index of test key @key in a->tests, or -1. */
long vdc_analysis_test_index(const struct vdc_analysis *a, const char *key);

/* One line per non-baseline target: "lvm against dom0: 2 faster, 3 slower,
 * 5 no significant difference, 2 not tested (of 12 tests)", counting the
 * tests where both have samples.  NULL-terminated; g_strfreev(). */
char **vdc_analysis_verdict_lines(const struct vdc_analysis *a);

/* Smallest n (values used) over the cells that have samples; 0 when no
 * cell has a value.  Below 2, the report warns that there is no interval
 * and no test for some cells. */
size_t vdc_analysis_min_n(const struct vdc_analysis *a);

/* The warning printed by every renderer when vdc_analysis_min_n < 2. */
#define VDC_FEW_RUNS_WARNING \
    "Fewer than 2 runs with a value for some target and test: there is no confidence " \
    "interval and no significance test there, and a delta alone may be noise (use --runs 5 or more)."

/* The same for imported results, where --runs does not apply. */
#define VDC_FEW_VALUES_WARNING \
    "Fewer than 2 values for some target and test: there is no confidence " \
    "interval and no significance test there, and a delta alone may be noise."

/* Significance mark of a comparison: "**" p < 0.01, "*" p < 0.05,
 * "~" no significant difference, "" not tested, "†" not comparable (a
 * side has too-fast runs without value; VDC_TOO_FAST_MARK). */
#define VDC_TOO_FAST_MARK "\u2020"
/* Legend of VDC_TOO_FAST_MARK, printed by every renderer when some cell
 * has too-fast runs without value. */
#define VDC_TOO_FAST_LEGEND \
    "\u2020 k of n runs too fast to measure (bonnie++ +++++; the cell gives k and n): the value is " \
    "the mean of the measured runs only and understates the speed; a delta marked \u2020 is not " \
    "comparable (no verdict).  +++++ (too fast): every run was too fast to measure."
/* Number of cells with too-fast runs without value (VDC_TOO_FAST_MARK). */
size_t vdc_analysis_n_too_fast_cells(const struct vdc_analysis *a);
const char *vdc_significance_mark(const struct vdc_stats_comparison *c);

/* Human label of a test key: "Sequential output, per-char" or the key. */
const char *vdc_test_key_label(const char *key);

#endif
