/* SPDX-License-Identifier: GPL-2.0-or-later */
/* When `--runs auto` may stop (doc/statistics.md, "Runs until sure"): the
 * stopping rule of stats/paired.h (vdc_stats_stop_rule) over the pairs the
 * report's headline will hold (report/headline.h), computed here from the
 * result set and the statistics layer alone:
 *
 *   the image/LV pairs: each domU image target against each domU LV or
 *     block target (targets[].kind image against lvm, block); where the
 *     run has none, each image through dom0's page cache against the same
 *     requested backend past it (--image-cache host against none: the
 *     cache pairs), then each target against bare dom0 (kind dom0); where
 *     it has none of them, each target against the baseline (the target
 *     named "dom0", else the first);
 *   per pair, each test key both targets have samples of (the set's test
 *     key order), over the repetitions both have a value of: the paired
 *     Fieller interval of the ratio of the means.
 *
 * Only vmdiskcmp's own runs are pairs (a set without an experiment and
 * with more than one target has none).  The pairs, tests and numbers are
 * those of the headline (tests/unit/test_stoprule.c holds them against
 * vdc_analysis_build's), which the report prints beside each stop reason. */
#ifndef VDC_COLLECT_STOPRULE_H
#define VDC_COLLECT_STOPRULE_H

#include <stddef.h>

#include "model/result.h"
#include "stats/paired.h"

/* One headline test and what the rule says of it. */
typedef struct {
    size_t target, reference;      /* indexes into vdc_result_set_target_names(rs) */
    size_t test;                   /* index into vdc_result_set_test_keys(rs, NULL) */
    struct vdc_stats_paired p;     /* the pairs' statistics (no permutation test) */
    enum vdc_stop_reason reason;   /* vdc_stats_stop_rule after @runs repetitions */
} vdc_stop_row;

typedef struct {
    char **targets;                /* vdc_result_set_target_names */
    char **tests;                  /* vdc_result_set_test_keys(rs, NULL) */
    vdc_stop_row *rows;            /* in pair order, then test order */
    size_t n_rows;
    size_t n_open;                 /* rows whose reason is VDC_STOP_CONTINUE */
} vdc_stop_decision;

/* Decide every headline test of @rs after @runs complete repetitions with
 * the rule's @min_runs, @max_runs and @precision (a fraction: 0.03 for
 * 3 %).  Fills @d (dispose it).  -1 when @rs has no target (nothing to
 * decide on yet; no message), else 0. */
int vdc_stop_decide(const vdc_result_set *rs, unsigned runs, unsigned min_runs, unsigned max_runs,
                    double precision, vdc_stop_decision *d);
void vdc_stop_decision_dispose(vdc_stop_decision *d);   /* safe twice, on a zeroed one */

#endif
