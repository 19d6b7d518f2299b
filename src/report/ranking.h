/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The headline's ranking per test, when a run holds more image/LV pairs
 * than VDC_HEADLINE_RANK_ABOVE_PAIRS (a matrix of targets): every target
 * but bare dom0, best mean first, in groups that cannot be told apart (a
 * compact letter display, stats/cld.h).  Two ranked targets differ when
 * the paired t-test of their repetitions (stats/paired.h: repetition r of
 * both shares the seed and the boot), Holm-adjusted over every pair of the
 * test's ranked targets, is below the analysis's alpha.  A target whose
 * cell has a flag of VDC_HEADLINE_NO_VERDICT_FLAGS (too fast, under twice
 * the RAM, an artefact) is listed after the ranked ones with its flags and
 * no letter: never ranked.  A target that ran the test in passes (a thin
 * LV: "put_block~first-write", "put_block~overwrite") is in the test's
 * ranking with each pass: the overwrite ranked as any target, the first
 * write shown apart (it measures the pool's provisioning, not steady
 * state), never ranked.  Part of the analysis (decided once); the
 * renderers only print it.  Method: doc/statistics.md ("The ranking"). */
#ifndef VDC_REPORT_RANKING_H
#define VDC_REPORT_RANKING_H

#include <glib.h>

#include "model/result.h"

struct vdc_analysis;
struct vdc_ranking;
struct vdc_rank_entry;

/* Fill @a->headline.rankings (one per test with 2 or more targets) from
 * @a's cells.  Never fails. */
void vdc_rankings_build(struct vdc_analysis *a, const vdc_result_set *rs);

/* The title of ranking @r: "put_block (K/sec): 3 groups among 6 ranked
 * targets of 8" (g_free). */
char *vdc_ranking_title(const struct vdc_analysis *a, const struct vdc_ranking *r);

/* Entry @i of @r as cells: its letters ("" when not ranked), mean and
 * values ("12345.6 (5 runs)"), and why it is not ranked ("not ranked:
 * too-fast, under-2x-ram"; "" when ranked), each into a buffer of @size. */
void vdc_ranking_cells(const struct vdc_ranking *r, size_t i, char *letters, char *mean, char *note,
                       size_t size);

/* Ranking @r's groups in one sentence, best first (g_free): "a
 * image-none, image-wb (3025.9, 2980.9); b image-wb (2980.9), block
 * (2437.5); not ranked: block-ds (too-fast)" -- a target in two groups is
 * named in both. */
char *vdc_ranking_groups_text(const struct vdc_analysis *a, const struct vdc_ranking *r);

/* Why a thin LV's first-write pass is shown apart from a ranking */
#define VDC_RANK_PROVISIONING "first write, fresh thin pool: provisioning, not steady state"

/* Entry @e's name: its target, with the pass it ran the test in
 * ("lvm-thin (overwrite)"); g_free */
char *vdc_rank_entry_name(const struct vdc_analysis *a, const struct vdc_rank_entry *e);

/* The method in a sentence or two, as @a's rankings need it: "best mean
 * first" only when a ranking ranks a target, a thin LV's first-write pass
 * apart only when one is (g_free). */
char *vdc_ranking_method_text(const struct vdc_analysis *a);

/* The terminal's lines of the rankings, appended to @v (new strings): the
 * method, then per test its title and a line per target, indented. */
void vdc_ranking_lines(const struct vdc_analysis *a, GPtrArray *v);

#endif
