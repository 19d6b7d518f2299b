/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp plain reading: what single imported runs show where the
 * statistics cannot speak (one value a cell: no interval, no test), worded
 * as what the numbers allow, never as a verdict.  Part of the analysis
 * (vdc_analysis.reading, decided once by vdc_analysis_build; renderers only
 * print it).  Made for a result without an experiment (imported write-ups,
 * agent output) whose every cell holds at most one value, with two targets
 * or more:
 *
 *   shares    each target's mean as a share of the reference's, per test:
 *             the one dom0 target (kind dom0: its ceiling), else the
 *             analysis's baseline;
 *   odd       a test where two targets swap their order against the other
 *             tests of their group (bonnie++'s sequential and seek tests,
 *             dd's, the sweep's): between an image and an LV target (the
 *             headline's pairs), or the two targets beside the reference,
 *             by 10 points or more, the others agreeing by 2 or more ("Test
 *             1 - disk image reaches 95 % of dom0 on block write, Test 2 -
 *             LVM 69 %; elsewhere the LV leads by 14 to 74 points");
 *   cache     on such a write test, the target ahead an image (a domU's file
 *             under dom0) whose test file fits in dom0's RAM
 *             (targets[].dom0_memory_mib, else the dom0 target's memory):
 *             the suspicion that dom0's page cache absorbed its writes, as a
 *             suspicion (a write-up has no host evidence, the
 *             dom0-page-cache rule cannot decide); dom0's RAM unknown: said;
 *   files     a target whose test file size differs from the reference's
 *             or is under twice its RAM: named, with its shares;
 *   above     a target above 100 % of dom0 on a sequential or seek test;
 *   per op    dd's system time per operation against the reference's.
 *
 * Methods and wording: doc/report.md ("Plain reading"). */
#ifndef VDC_REPORT_READING_H
#define VDC_REPORT_READING_H

#include <stddef.h>
#include <stdint.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "model/result.h"

struct vdc_analysis;

/* A test on which two targets swap their usual order. */
struct vdc_reading_odd {
    size_t test;              /* index into vdc_analysis.tests */
    size_t ahead, behind;     /* targets: @ahead leads on @test, @behind elsewhere */
    double share_ahead, share_behind;   /* their shares of the reference on @test */
    size_t n_others, n_agree; /* the group's other tests both have; those where
                               * @behind leads by 2 points or more */
    double gap_lo, gap_hi;    /* by how many points @behind leads on those */
    int cache;                /* 1: dom0's page cache may have absorbed @ahead's
                               * writes (a write test, @ahead an image whose test
                               * file fits dom0's RAM); -1: it is an image on a
                               * write test but dom0's RAM is not known; 0: no */
    int64_t file_mib, dom0_mib;   /* @ahead's test file, dom0's RAM (cache != 0) */
};

struct vdc_reading {
    int present;              /* a reading was made */
    size_t reference;         /* the target shares are of */
    int reference_dom0;       /* ... the dom0 target (its ceiling), not only the baseline */
    double *share;            /* n_targets x n_tests: mean / the reference's mean, NAN none */
    struct vdc_reading_odd *odd;
    size_t n_odd;
    char **lines;             /* the sentences, in order (NULL-terminated): odd tests,
                               * test files, above the ceiling, dd per op */
};

void vdc_reading_init(struct vdc_reading *r);
void vdc_reading_dispose(struct vdc_reading *r);

/* Decide @a's reading (called by vdc_analysis_build after the headline).
 * Never fails; r->present 0 when no reading applies. */
void vdc_reading_build(struct vdc_analysis *a, const vdc_result_set *rs);

/* The reading as text: a title line, the shares (a column per target but
 * the reference, named by @names: a->targets or layout aliases), the
 * sentences, wrapped at @width after @indent.  Nothing when absent. */
void vdc_append_reading_text(GString *out, const struct vdc_analysis *a, char **names, const char *indent,
                             int width);
/* The same in Markdown (full names). */
void vdc_append_reading_md(GString *out, const struct vdc_analysis *a);
/* The same in HTML (a section with id "reading"; full names, escaped). */
void vdc_append_reading_html(GString *out, const struct vdc_analysis *a);
/* The same as a JSON object {reference, reference_is_dom0, shares: [{test,
 * target, share}], lines: [...]}; NULL when absent. */
JsonObject *vdc_reading_json(const struct vdc_analysis *a);

#endif
