/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp analysis: the statistics of a result set, ready to render.
 *
 * A result set (model/result.h) is turned into a grid of cells, one per
 * (target, test key), each with its valued samples, the samples the outlier
 * rule flagged, and a summary (stats/stats.h); plus one comparison per
 * (non-baseline target, test key) against the baseline target.  The
 * analysis also decides what the reports mark and warn about: a bitmask of
 * flags per cell (enum vdc_cell_flag) and a list of warnings with their
 * kinds (struct vdc_warning), from the test file sizes per target (struct
 * vdc_target_files).  Every renderer (text, CSV, JSON, Markdown, HTML,
 * compare) reads only this and the result set and maps these to text:
 * measure once, decide once, render later (fio's stat.c and its normal,
 * terse and json outputs). */
#ifndef VDC_REPORT_ANALYSIS_H
#define VDC_REPORT_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "model/result.h"
#include "report/answer.h"
#include "report/artefacts.h"
#include "report/density.h"
#include "report/headline.h"
#include "report/hostcost.h"
#include "report/reading.h"
#include "stats/stats.h"

/* One valued sample of a cell. */
struct vdc_cell_sample {
    int64_t repetition;      /* runs[].repetition */
    double value;            /* in the cell's unit */
    double cpu_percent;      /* NAN when absent */
    double modified_z;       /* 0 when the rule does not apply (n < 3) */
    int outlier;             /* |modified_z| > threshold */
};

/* The marks of one cell (vdc_cell.flags), decided by vdc_analysis_build.
 * Bit order is the order of the keywords in summary.csv's flags column
 * (vdc_cell_flag_name: the one keyword table). */
enum vdc_cell_flag {
    VDC_CELL_TOO_FAST = 1u << 0,          /* too-fast: some or all runs too fast (+++++) */
    VDC_CELL_FAILED = 1u << 1,            /* failed: some runs failed this test */
    VDC_CELL_FEW_RUNS = 1u << 2,          /* few-runs: samples, but fewer than 2 values used */
    VDC_CELL_OUTLIERS_FLAGGED = 1u << 3,  /* outliers-flagged: the rule flagged values, kept */
    VDC_CELL_OUTLIERS_DROPPED = 1u << 4,  /* outliers-dropped: ... and --outliers drop left them out */
    VDC_CELL_UNDER_2X_RAM = 1u << 5,      /* under-2x-ram: a run's test file under twice the RAM
                                           * that can cache it (vdc_target_files.n_small) */
    VDC_CELL_SIZES_DIFFER = 1u << 6,      /* sizes-differ: the target's test file sizes differ
                                           * from the baseline's, or among its own runs */
    VDC_CELL_NOT_COMPARABLE = 1u << 7,    /* not-comparable: the delta has no verdict
                                           * (too-fast runs on either side, a dagger) */
    /* artefacts: the number may say more about the measurement than about
     * the disk (report/artefacts.h; the rules exactly: doc/report.md);
     * each has its explanation in vdc_cell.why */
    VDC_CELL_PAGE_CACHE_WRITE = 1u << 8,  /* page-cache-write: a buffered dd write timed the
                                           * page cache */
    VDC_CELL_DD_TIME_SHORT = 1u << 9,     /* dd-time-short: dd's own time far below real */
    VDC_CELL_ABOVE_CEILING = 1u << 10,    /* above-ceiling: above the stated ceiling of the
                                           * device or link */
    VDC_CELL_CACHED_REREAD = 1u << 11,    /* cached-reread: read back from the page cache */
    VDC_CELL_GUEST_FASTER = 1u << 12,     /* guest-faster: a domU faster than its host
                                           * (vdc_guest_faster_than_host) */
    VDC_CELL_ROUNDED_IDENTICAL = 1u << 13,  /* rounded-identical: every run the same value */
    VDC_CELL_BASELINE_ARTEFACT = 1u << 14,  /* baseline-artefact: the baseline's cell of this
                                             * test has one of the artefacts */
    VDC_CELL_DOM0_PAGE_CACHE = 1u << 15,    /* dom0-page-cache: served from dom0's page cache
                                             * (samples[].host evidence; an artefact) */
    VDC_CELL_MISALIGNED = 1u << 16,         /* misaligned: a layer of the target's storage is
                                             * misaligned on its disk (targets[].alignment;
                                             * an artefact) */
    VDC_CELL_NO_IO_IN_WINDOW = 1u << 17,    /* no-io-in-window: a job run completed no I/O in
                                             * its measured window (an artefact) */
    VDC_CELL_THIN_POOL_FULL = 1u << 18,     /* thin-pool-full: the target's thin pool was more
                                             * than 90 % full after the runs
                                             * (targets[].storage.thin; an artefact) */
};
#define VDC_CELL_FLAG_COUNT 19
/* The ten artefact bits, and what marks a value or a delta with
 * VDC_ARTEFACT_MARK (a delta: either side flagged). */
#define VDC_CELL_ARTEFACTS (VDC_CELL_PAGE_CACHE_WRITE | VDC_CELL_DD_TIME_SHORT | \
                            VDC_CELL_ABOVE_CEILING | VDC_CELL_CACHED_REREAD | \
                            VDC_CELL_GUEST_FASTER | VDC_CELL_ROUNDED_IDENTICAL | \
                            VDC_CELL_DOM0_PAGE_CACHE | VDC_CELL_MISALIGNED | \
                            VDC_CELL_NO_IO_IN_WINDOW | VDC_CELL_THIN_POOL_FULL)
#define VDC_CELL_ARTEFACT_MARKED (VDC_CELL_ARTEFACTS | VDC_CELL_BASELINE_ARTEFACT)

/* The flags that withhold a verdict from a headline test (report/headline.h)
 * when either side's cell has one: too-fast (a value missing or imprecise:
 * the pairs left would be the slower runs), under-2x-ram (the page cache
 * answered, not the disk), and the artefacts of the cell itself (the
 * number may say more about the measurement than about the disk;
 * baseline-artefact is about the delta tables' baseline, not the pair). */
#define VDC_HEADLINE_NO_VERDICT_FLAGS (VDC_CELL_TOO_FAST | VDC_CELL_UNDER_2X_RAM | VDC_CELL_ARTEFACTS)

/* The keyword of one flag bit ("too-fast", ... "not-comparable",
 * "page-cache-write", ... "baseline-artefact"); NULL for anything but a
 * single bit of enum vdc_cell_flag. */
const char *vdc_cell_flag_name(unsigned flag);

/* The index of a single flag bit (its place in vdc_cell.why), or -1. */
int vdc_cell_flag_index(unsigned flag);

/* The mark of a value or delta that may be an artefact (flags &
 * VDC_CELL_ARTEFACT_MARKED), beside VDC_TOO_FAST_MARK: a double dagger. */
#define VDC_ARTEFACT_MARK "\u2021"

/* The test file sizes of one target's runs (runs[].metadata.file_size_mib;
 * runs without it are left out), and those under twice the RAM that can
 * cache them: the larger of what the agent was told (metadata.ram_mib, its
 * -r) and the memory of the machine it ran in (vdc_target_machine_memory). */
struct vdc_target_files {
    size_t n_runs;           /* runs with a file size */
    int64_t *sizes;          /* distinct sizes, MiB, in run order (g_free) */
    size_t n_sizes;
    int64_t lo, hi;          /* smallest and largest size, MiB; 0 when n_runs == 0 */
    size_t n_small;          /* runs whose file is under twice the cache RAM */
    int64_t small_size;      /* the first such run: file size, MiB */
    int64_t small_ram;       /* ... the RAM that can cache it, MiB */
    int64_t small_told;      /* ... the agent's -r (metadata.ram_mib; 0 when absent) */
    const char *where;       /* the target's "where" (domU, dom0, host; borrowed), or NULL */
};

/* What a report warns about, in the order of vdc_analysis.warnings. */
enum vdc_warning_kind {
    VDC_WARNING_EMULATED,     /* experiment.emulated: said by compare (a report has a banner) */
    VDC_WARNING_ALL_FAILED,   /* every run failed: nothing to compare */
    VDC_WARNING_FEW_VALUES,   /* some cell has fewer than 2 values; imported results */
    VDC_WARNING_FEW_RUNS,     /* some cell has fewer than 2 values; our own runs (--runs) */
    VDC_WARNING_TOO_FAST,     /* some cell has too-fast runs left out of its mean */
    VDC_WARNING_SIZES_DIFFER, /* the targets' test file sizes differ */
    VDC_WARNING_UNDER_2X_RAM, /* a target's test file is under twice its RAM (.target) */
    VDC_WARNING_ARTEFACTS,    /* some cell has an artefact flag: the legend of VDC_ARTEFACT_MARK */
    VDC_WARNING_ARTEFACT,     /* one artefact flag (.flag) of one cell (.target, .test) */
    VDC_WARNING_NOT_AS_ASKED, /* a target's disk read back otherwise than asked (.target;
                                 model/knobs.h vdc_knobs_mismatch) */
    VDC_WARNING_DIFFERENT_DISKS, /* an image/LV pair of the headline (.target the image,
                                    .reference the LV or block device) whose
                                    targets[].placement.disk differ: the pair's
                                    delta includes the disks' difference */
};

struct vdc_warning {
    enum vdc_warning_kind kind;
    size_t target;           /* VDC_WARNING_UNDER_2X_RAM, _ARTEFACT, _NOT_AS_ASKED,
                              * _DIFFERENT_DISKS: index into targets
                              * (and files) */
    size_t reference;        /* VDC_WARNING_DIFFERENT_DISKS: the LV's index into targets */
    size_t test;             /* VDC_WARNING_ARTEFACT: index into tests */
    unsigned flag;           /* VDC_WARNING_ARTEFACT: the one VDC_CELL_* artefact bit */
};

/* A sample of a cell without a value (value null), in run order. */
struct vdc_cell_gap {
    int64_t repetition;      /* runs[].repetition */
    int too_fast;            /* 1: too fast to measure (+++++); 0: failed or no value */
};

/* The completion-latency percentiles of a workload sample, in the order of
 * vdc_cell_workload.clat_us. */
enum { VDC_CLAT_P50, VDC_CLAT_P90, VDC_CLAT_P99, VDC_CLAT_P99_9, VDC_CLAT_P99_99, VDC_CLAT_N };

/* What the workload objects of a cell's samples (samples[].workload) say,
 * over the samples with a value (doc/report.md, "Workloads"). */
struct vdc_cell_workload {
    size_t n;                /* samples with a value and a workload object */
    double clat_us[VDC_CLAT_N];  /* each percentile's mean over the samples that have
                                  * it, microseconds; NAN when none has */
    double cpu_us_per_io;    /* mean CPU per I/O, us: the whole process's, else the
                              * job threads' (an imported fio run); NAN when none */
    int cpu_thread;          /* some sample had only the job threads' figure */
    const vdc_workload *first;   /* the first sample's workload object (with or
                                  * without a value): the job's parameters; NULL when
                                  * none (borrowed from the result set) */
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
    unsigned flags;          /* enum vdc_cell_flag bits */
    char *why[VDC_CELL_FLAG_COUNT];    /* by bit index: the explanation of each artefact
                                        * flag set, with its numbers; NULL otherwise */
    size_t runs_flagged[VDC_CELL_FLAG_COUNT];  /* by bit index, for dom0-page-cache and
                                                * guest-faster: the runs the flag rests on */
    size_t runs_judged[VDC_CELL_FLAG_COUNT];   /* ... of the runs that could be judged */
    /* system time per operation (dd: sys / records; the agent's sweep: per
     * read/write call), over the samples that record it
     * (samples[].system_us_per_op) */
    size_t n_sys_per_op;     /* samples with it; 0: none (the rest is 0) */
    double sys_us_per_op;    /* their mean, microseconds */
    double sys_s;            /* their system_s summed, seconds */
    int64_t sys_ops;         /* their ops summed */
    struct vdc_cell_gap *gaps;   /* the samples without a value, run order (n_no_value) */
    struct vdc_cell_workload wl; /* workload keys: latency and CPU per I/O */
};

/* One target against the baseline on one test (Welch, the delta tables).
 * Its verdict is withheld (VDC_VERDICT_NOT_COMPARABLE, not significant)
 * on exactly the grounds the headline withholds one (one truth across
 * the report): a flag of VDC_HEADLINE_NO_VERDICT_FLAGS on either cell, or
 * test file sizes that differ on a test where the size matters
 * (vdc_no_verdict_reason says which). */
/* A target's test against the baseline's, kept at (target, test key).  A
 * pass key ("put_block~first-write": a thin LV's passes) is held against
 * the other side's bare key ("put_block") when only one side ran passes:
 * @target or @baseline is then the cell of the bare key, as in the
 * headline (vdc_headline_row.t_test, r_test). */
struct vdc_cell_comparison {
    const struct vdc_cell *target;
    const struct vdc_cell *baseline;
    struct vdc_stats_comparison c;
    unsigned bar_target;     /* VDC_HEADLINE_NO_VERDICT_FLAGS on the target's cell */
    unsigned bar_baseline;   /* ... on the baseline's */
    int sizes_differ;        /* the two targets' test file sizes differ (bonnie++'s
                              * sequential and seek tests only) */
    int has_sys_per_op;      /* both cells have n_sys_per_op */
    double sys_us_per_op_delta;   /* target's sys_us_per_op - the baseline's, us */
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
    struct vdc_target_files *files;    /* n_targets: test file sizes per target */
    struct vdc_warning *warnings;      /* in enum vdc_warning_kind order; per target */
    size_t n_warnings;
    struct vdc_headline headline;      /* image or LV? (report/headline.h) */
    struct vdc_answer answer;          /* the first screen, in words (report/answer.h) */
    struct vdc_reading reading;        /* single imported runs read plainly
                                        * (report/reading.h) */
    struct vdc_host_cost *host;        /* host CPU per backend (report/hostcost.h), by
                                        * target, test, role; n_host entries */
    size_t n_host;
    struct vdc_host_cache *cache;      /* dom0's page cache around each test
                                        * (report/hostcost.h), by target, test */
    size_t n_cache;
    unsigned char *on_file;            /* n_tests: 1 for a workload key whose samples
                                        * say they ran on a file (workload.on) */
    struct vdc_density density;        /* many guests at once, per level
                                        * (report/density.h); n_levels 0: none */
};

void vdc_analysis_init(struct vdc_analysis *a);
void vdc_analysis_dispose(struct vdc_analysis *a);

/* Analyse @rs with @opt, comparing every target with @baseline (NULL:
 * the first target; "dom0" when a target of that name exists, since the
 * bare host is the reference of vmdiskcmp), and decide the cells' flags
 * and the warnings.  @rs must outlive @a.
 * Returns 0, or -1 after vdc_input_error (bad input, exit 2): an unknown
 * baseline (the message lists the targets), a set without targets. */
int vdc_analysis_build(struct vdc_analysis *a, const vdc_result_set *rs,
                       const char *baseline, const struct vdc_stats_options *opt);

/* vdc_analysis_build with the artefact rules' settings @art (the stated
 * ceilings, the guest-faster margin; NULL: vdc_artefact_options_init's,
 * no ceiling).  @art is read during the call only. */
int vdc_analysis_build_with(struct vdc_analysis *a, const vdc_result_set *rs, const char *baseline,
                            const struct vdc_stats_options *opt, const vdc_artefact_options *art);

/* The guest-faster rule, the one place that decides whether a guest's
 * result beats its host's (doc/report.md, "Artefacts"): target @ti must be
 * a domU (targets[].where) and @hi its host baseline
 * (vdc_artefact_host_target), on the same test @ki.  The guest's values
 * are compared with the host's (the values the outlier policy keeps;
 * vdc_stats_compare at a->alpha, the Fieller interval cut at -100 %, into
 * *@c, which may be NULL); the rule holds when the guest's mean is more
 * than @margin (a fraction: 0.05) above the host's AND the 95 % Fieller
 * interval of the delta lies wholly above 0 (outside the CI: noise cannot
 * explain it).  No interval (fewer than 2 values on a side, or unbounded)
 * or too-fast runs without a value on the host's side (its mean understates
 * it): 0.  Returns 1 when the rule holds, else 0. */
int vdc_guest_faster_than_host(const struct vdc_analysis *a, const vdc_result_set *rs, size_t ti,
                               size_t hi, size_t ki, double margin, struct vdc_stats_comparison *c);

/* The cell of (@target_index, @test_index). */
const struct vdc_cell *vdc_analysis_cell(const struct vdc_analysis *a, size_t ti, size_t ki);
/* The comparison of target @ti against the baseline on test @ki; NULL for
 * the baseline itself. */
const struct vdc_cell_comparison *vdc_analysis_cmp(const struct vdc_analysis *a, size_t ti, size_t ki);

/* The index of the test key a pass key @ki ("put_block~first-write")
 * pairs with on a side that ran no passes: its bare key ("put_block"), or
 * -1 when @ki has no pass or the bare key is not in @a. */
long vdc_analysis_bare_key(const struct vdc_analysis *a, size_t ki);

/* Index of test key @key in a->tests, or -1. */
long vdc_analysis_test_index(const struct vdc_analysis *a, const char *key);

/* One line per non-baseline target: "lvm against dom0: 2 faster, 3 slower,
 * 5 no significant difference, 2 not tested, 1 not comparable (of 13
 * tests)", counting the tests where both have samples, each count only
 * when it is not 0 ("image against dom0: 5 not comparable (of 5 tests)");
 * "(of 12 tests; 2 marked ‡, may be artefacts)" when some of those deltas
 * are marked (a flag of VDC_CELL_ARTEFACT_MARKED).  NULL-terminated;
 * g_strfreev(). */
char **vdc_analysis_verdict_lines(const struct vdc_analysis *a);

/* Why target @ti against @ri has no verdict, one line (g_free): each flag
 * of @bar_t | @bar_r with the side(s) it is on, then the sizes: "too-fast
 * on image and lvm; test file sizes differ (image 512 MiB, lvm 2048 MiB)";
 * NULL when there is nothing (comparable).  The one wording of the
 * headline (vdc_headline_reason) and the delta tables
 * (vdc_analysis_cmp_reason). */
char *vdc_no_verdict_reason(const struct vdc_analysis *a, size_t ti, size_t ri, unsigned bar_t,
                            unsigned bar_r, int sizes_differ);

/* Why the comparison of target @ti with the baseline on test @ki has no
 * verdict (vdc_no_verdict_reason), or NULL when it is comparable or there
 * is no comparison (g_free). */
char *vdc_analysis_cmp_reason(const struct vdc_analysis *a, size_t ti, size_t ki);

/* The tests grouped by target and reason where a comparison against the
 * baseline has no verdict: "image against dom0: not comparable
 * (under-2x-ram on image and dom0): Sequential output, block; Random
 * seeks", one line each, in target then first-test order; the same words
 * in every format.  NULL-terminated (empty when every comparison has its
 * verdict); g_strfreev. */
char **vdc_analysis_not_comparable_lines(const struct vdc_analysis *a);

/* Groups tests by the reason they have no verdict: @why holds the reasons
 * (char *), @tests beside it one GString per reason of its test labels
 * joined by "; ".  @reason (owned: kept as a new reason, else freed)
 * gets @label appended under it, in first-seen order. */
void vdc_reason_group_add(GPtrArray *why, GPtrArray *tests, char *reason, const char *label);

/* Whether targets @t and @r ran test files of different sizes (their
 * smallest or largest, vdc_target_files) on test @ki where the size
 * matters (bonnie++'s sequential and seek tests, VDC_TEST_GROUP_IO). */
int vdc_analysis_sizes_differ(const struct vdc_analysis *a, size_t t, size_t r, size_t ki);

/* The headline in short, for a terminal (the run prints it at its end):
 * one line per pair of vdc_analysis.headline, preceded by why there is no
 * image/LV pair when there is none:
 *   "image against lvm: 5 pairs (fixed 5 runs), 12 tests: image faster in
 *    2 (1 large, 1 moderate), image slower in 1 (moderate), negligible in
 *    3, undecided in 4, not comparable in 2 (paired t-test, Holm)"
 *   "image reaches 40.1 % (Sequential output, block) to 95.3 %
 *    (Sequential input, block) of bare dom0 over 10 comparable tests of 12"
 * NULL-terminated; g_strfreev(). */
char **vdc_analysis_headline_lines(const struct vdc_analysis *a);

/* Smallest n (values used) over the cells that have samples; 0 when no
 * cell has a value.  Below 2, the report warns that there is no interval
 * and no test for some cells. */
size_t vdc_analysis_min_n(const struct vdc_analysis *a);

/* Significance mark of a comparison: "**" p < 0.01, "*" p < 0.05,
 * "~" no significant difference, "" not tested, VDC_NOT_COMPARABLE_MARK
 * not comparable (no verdict: vdc_analysis_cmp_reason). */
#define VDC_NOT_COMPARABLE_MARK "n/c"
/* The mark of a mean that leaves out too-fast runs (a dagger). */
#define VDC_TOO_FAST_MARK "\u2020"
/* Number of cells with an artefact flag (VDC_CELL_ARTEFACTS). */
size_t vdc_analysis_n_artefact_cells(const struct vdc_analysis *a);
/* Number of cells printed with VDC_TOO_FAST_MARK: some runs too fast
 * (no value), the mean of the others (a cell whose every run was too fast
 * prints +++++, explained where it is printed). */
size_t vdc_analysis_n_too_fast_cells(const struct vdc_analysis *a);
const char *vdc_significance_mark(const struct vdc_stats_comparison *c);

/* Human label of test key @key, into @buf (returned): the test table's
 * label ("Sequential output, per-char"), with the block size for sweep and
 * dd keys ("Sequential read at block size 32 KiB"); an unknown key as it
 * is.  VDC_TEST_LABEL_MAX bytes hold every label. */
#define VDC_TEST_LABEL_MAX 128
const char *vdc_test_key_label(const char *key, char *buf, size_t size);

/* The job of workload test @ki of @a as a report names it, into @buf
 * (returned): "JOB (raw)" for a job on the raw block device, "JOB (file)"
 * for one whose samples say it ran on a file, "JOB" when they do not say;
 * NULL for a key that is not a workload key. */
const char *vdc_analysis_job_label(const struct vdc_analysis *a, size_t ki, char *buf, size_t size);

/* The first workload object of workload test @ki over the targets in
 * order (vdc_cell_workload.first: the job's parameters), or NULL. */
const vdc_workload *vdc_analysis_key_workload(const struct vdc_analysis *a, size_t ki);

/* Human label of test @ki of @a: vdc_test_key_label, with a workload job
 * named by vdc_analysis_job_label ("randread-4k-qd32 (file), read IOPS"),
 * so that no row leaves open what a job ran on. */
const char *vdc_analysis_test_label(const struct vdc_analysis *a, size_t ki, char *buf, size_t size);

#endif
