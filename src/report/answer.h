/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp answer: the first screen of every report, the answer in words.
 *
 * Part of the analysis (vdc_analysis.answer, decided by vdc_analysis_build
 * once the headline and the host figures are there; renderers only lay it
 * out: render_answer.c).  In this order:
 *
 *   - image against LV on this host (the headline's choice pairs, or its
 *     baseline pairs when the run has no image/LV pair), per test group
 *     ("Sequential output", "Sequential input", "Random seeks", the file
 *     tests, the block-size sweep, each workload job): each test's
 *     verdict with its class, interval and p, tests without a verdict
 *     named together with the reason;
 *   - what dom0's page cache did: each cache pair of the headline (an
 *     image with the requested image cache "host" against one with "none")
 *     the same way; when an image went through dom0's page cache and none
 *     ran without it, a line saying so and what to run;
 *   - what each backend costs dom0: dom0 busy, CPU seconds per GiB moved,
 *     per domU target on the sequential block tests;
 *   - many guests at once, when the result has levels: per level and test
 *     the image against the LV on the aggregate and the p99 over all
 *     guests' I/Os (interval, Holm p, class), the fairness, what may be an
 *     artefact; where each backend stops scaling;
 *   - where there is no verdict, each blocker once with the option that
 *     removes it, its value worked out from the data ("rerun with --size
 *     256M: the 32 MiB test file is under twice the guest's 128 MiB");
 *     undecided and untested rows get the runs they need.
 *
 * Every sentence is made here, the same in every format. */
#ifndef VDC_REPORT_ANSWER_H
#define VDC_REPORT_ANSWER_H

#include <stddef.h>

#include <glib.h>

#include "model/result.h"

struct vdc_analysis;

/* What a line of the answer is (the renderers' layout and colour). */
enum vdc_answer_kind {
    VDC_ANSWER_NOTE = 0,      /* a sentence of its own (why no pair; nothing to say) */
    VDC_ANSWER_PAIR,          /* a pair's heading: label "image against lvm", text the
                               * pairs and how sure their verdicts can be */
    VDC_ANSWER_GROUP,         /* label a test group, text its tests' answers */
    VDC_ANSWER_CACHE,         /* dom0's page cache: a cache pair's heading, or the note */
    VDC_ANSWER_COST,          /* what each backend costs dom0 */
    VDC_ANSWER_FIX,           /* a blocker and the option that removes it */
    VDC_ANSWER_DENSITY,       /* many guests at once: label "Many guests at once", text
                               * what produced the numbers (levels, pairs, test) */
    VDC_ANSWER_LEVEL,         /* one level and test of it (image against LV: aggregate,
                               * p99, fairness, what may be an artefact), or where each
                               * backend stops scaling or is not shown to scale (label "Scaling") */
};

/* The tone of a line (HTML colour): the answer it gives. */
enum vdc_answer_tone {
    VDC_TONE_PLAIN = 0,
    VDC_TONE_FASTER,          /* the pair's target faster in every test with a verdict */
    VDC_TONE_SLOWER,          /* ... slower */
    VDC_TONE_MIXED,           /* faster in some, slower in others */
    VDC_TONE_NONE,            /* no verdict in the group */
};

struct vdc_answer_line {
    enum vdc_answer_kind kind;
    enum vdc_answer_tone tone;
    char *label;              /* "Sequential output", "image against lvm"; NULL: none */
    char *text;               /* the sentence(s); never NULL */
};

/* One way to a verdict: an option to rerun with and why (the blocker). */
struct vdc_answer_fix {
    const char *state;        /* the rows it concerns: "no verdict", "undecided", "not tested" */
    char *option;             /* "--size 256M", "--image-cache host,none", "--runs auto";
                               * NULL when no option removes it (an artefact: the
                               * warnings say what it is) */
    char *why;                /* "the 32 MiB test file is under twice the guest's
                               * 128 MiB" */
    char *targets;            /* the targets it concerns, "image, lvm", or "" */
    size_t n_tests;           /* the comparisons it concerns: headline rows (a pair
                               * of targets in one test), each counted once */
    size_t n_total;           /* the comparisons of the answer: rows over every pair */
};

struct vdc_answer {
    char *title;              /* "The answer: image or LV on this host" (+ emulated) */
    const char *lv_word;      /* what stands for the LV: "LV", or "block device" when
                               * only block targets do (static; NULL before build) */
    char *legend;             /* how to read its numbers: "[95 % interval of the
                               * delta]; p: paired t-test, Holm" */
    struct vdc_answer_line *lines;
    size_t n_lines;
    struct vdc_answer_fix *fixes;
    size_t n_fixes;
};

void vdc_answer_init(struct vdc_answer *ans);
void vdc_answer_dispose(struct vdc_answer *ans);   /* safe twice */

/* Decide @a's answer (a->answer) from its headline, cells, files and host
 * figures and @rs (targets' requests and cache read back, experiment).
 * Never fails. */
void vdc_answer_build(struct vdc_analysis *a, const vdc_result_set *rs);

/* Whether the storage variants of @a (an image's format and allocation, an
 * LV's type, aging: targets of one kind side by side; a thin LV's
 * first-write and overwrite passes) change the verdict: every two choice
 * pairs that share a side, and every two passes of one pair, compared test
 * by test where both have a verdict.  The "Storage variants" sentence and
 * its tone into *@tone, or NULL when the run has no such contrast
 * (g_free).  answer_variants.c. */
char *vdc_answer_variants_text(const struct vdc_analysis *a, const vdc_result_set *rs, enum vdc_answer_tone *tone);

/* "answer", the kind's JSON name: "note", "pair", "group", "cache", "cost",
 * "fix", "density", "level" */
const char *vdc_answer_kind_name(enum vdc_answer_kind k);

/* ---- shared by the parts of the answer (answer*.c), not by renderers ---- */

struct vdc_headline_pair;
struct vdc_headline_row;

/* What is being built (vdc_answer_build's state). */
struct vdc_answer_build {
    struct vdc_analysis *a;
    const vdc_result_set *rs;
    GArray *lines;               /* struct vdc_answer_line */
    GArray *fixes;               /* struct vdc_answer_fix */
    GPtrArray *fix_targets;      /* per fix: GString of the targets it concerns */
    GPtrArray *fix_rows;         /* per fix: GHashTable, the set of rows it concerns */
    const struct vdc_headline_row *row;  /* the row vdc_answer_row_fixes is at */
    size_t n_rows;               /* the comparisons: rows over every pair */
    size_t n_verdict_rows;       /* those that give a verdict (not a ceiling's share) */
    double runs_need, runs_hw;   /* undecided at --max-runs: most runs needed, widest half-width */
    int64_t runs_max;            /* the --max-runs they ran to */
};

/* answer.c: a line onto @b (@label, @text taken); 1 when the result ran
 * under Xen (libxl, or libvirt's xen:// driver; imported: dom0, as the
 * field says); "dom0" or "the host" by the same test */
void vdc_answer_add_line(struct vdc_answer_build *b, enum vdc_answer_kind kind, enum vdc_answer_tone tone,
                         char *label, char *text);
int vdc_answer_on_xen(const vdc_result_set *rs);
const char *vdc_answer_host_word(const vdc_result_set *rs);

/* answer_groups.c: the rows of @hp as one line per test group, the tests
 * that answer alike together ("Sequential output, block: image 6.2 %
 * slower [-6.6, -5.8], moderate, p < 0.001; ..."); the pairs of @hp in
 * words ("5 pairs (fixed 5 runs)", g_free). */
void vdc_answer_pair_groups(struct vdc_answer_build *b, const struct vdc_headline_pair *hp);
char *vdc_answer_pair_text(const struct vdc_analysis *a, const struct vdc_headline_pair *hp);

/* answer_fixes.c: the fixes of one row (@b->row, of @hp): its blockers, or
 * the runs it needs; the fixes that rerun with a size of one option made
 * one, at the largest size; the words of fix @f once every row is in
 * (the runs the widest undecided interval needs). */
void vdc_answer_row_fixes(struct vdc_answer_build *b, const struct vdc_headline_pair *hp,
                          const struct vdc_headline_row *row);
void vdc_answer_merge_sizes(struct vdc_answer_build *b);
void vdc_answer_fix_words(const struct vdc_answer_build *b, struct vdc_answer_fix *f);

/* answer_dom0.c: what was read back about dom0's page cache when no cache
 * pair ran; dom0 busy CPU s per GiB moved of each domU target on the
 * block write and read (else the first two tests with the figure). */
void vdc_answer_cache_note(struct vdc_answer_build *b);
void vdc_answer_cost_line(struct vdc_answer_build *b);

/* answer_density.c: many guests at once (a->density), when the result has
 * levels: a VDC_ANSWER_DENSITY line, then a VDC_ANSWER_LEVEL line per
 * level and test of each image/LV pair and one for where the backends stop
 * scaling. */
void vdc_answer_density(struct vdc_answer_build *b);

#endif
