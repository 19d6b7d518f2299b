/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp history: the image-vs-LV ratio of each host over time, from
 * the result store (store/store.h; doc/store.md "History").
 *
 *   vdc_history
 *     series[]     one per (host, image variant, LV/block variant, test key)
 *       points[]   one per recorded result that has that headline row, by
 *                  date: the ratio of means and its paired 95 % Fieller
 *                  interval, verdict and effect class, exactly as the
 *                  result's report decided them (stored headline rows,
 *                  report/headline.h); the repetitions' values of both
 *                  targets; the result's facts
 *
 * Each step (a point against the one before it in its series) carries
 * what changed between the two results (store/facts.h: kernel, Xen, QEMU,
 * disk, backend read back, settings) and how far the ratio of means moved:
 * the quotient of the two results' ratios of means, with its 95 % interval
 * and a t-test from the repetitions (vdc_stats_ratio_move, stats/paired.h:
 * each result's repetitions are pairs, the two results share none).  A
 * step where either result's row is not comparable (report/headline.h: a
 * rule such as under-2x-ram or dom0-page-cache) is not tested: its move is
 * shown, never called significant, and never fails --fail-if.  A step's
 * verdict changed when both verdicts were tested (faster, slower, no
 * significant difference) and differ; it changed significantly when, in
 * addition, the ratio moved significantly (p < alpha). */
#ifndef VDC_STORE_HISTORY_H
#define VDC_STORE_HISTORY_H

#include <stddef.h>
#include <stdint.h>

#include <glib.h>

#include "stats/paired.h"
#include "stats/stats.h"
#include "store/store.h"

struct vdc_history_point {
    int64_t result;              /* results.id */
    char *sha256, *run_id, *date, *source;
    int emulated;                /* tri-state */
    size_t n_pairs;
    double ratio, lo, hi;        /* NAN when not computable */
    char *verdict, *effect;      /* report/headline.h names */
    char *not_comparable;        /* the reason, or NULL */
    double *rep_target, *rep_reference;  /* repetition i of both (values > 0), n_rep each */
    size_t n_rep;
    GArray *facts;               /* struct vdc_fact (store/facts.h), sorted; a reference */
    /* against the point before it in its series (vdc_history_decide) */
    char *changes;               /* vdc_facts_changes: "" nothing recorded changed; NULL first point */
    char *change_groups;         /* "kernel,Xen" */
    int verdict_changed;         /* both tested, verdicts differ */
    struct vdc_stats_move move;  /* the ratio of means from the previous point's to this one's */
    int step_not_comparable;     /* either point's row is not comparable: the move is not tested */
    int move_significant;        /* move.has_test, p < alpha and comparable */
};

struct vdc_history_series {
    char *host, *target, *reference, *test_key, *unit;
    struct vdc_history_point *points;
    size_t n_points;
};

struct vdc_history {
    char *store;                 /* the store's path */
    size_t n_results;            /* results in the store */
    double alpha;
    struct vdc_history_series *series;
    size_t n_series;
};

/* What to read: NULL members select everything. */
struct vdc_history_query {
    const char *host;            /* results.host, or a merge's host label */
    const char *test;            /* a test key ("put_block", "sweep_read@4096") or a test id */
    const char *since;           /* ISO 8601 date or date-time, UTC: results of that date or later */
};

void vdc_history_init(struct vdc_history *h);
void vdc_history_dispose(struct vdc_history *h);

/* 1 when @s is a date the query takes: YYYY-MM-DD, optionally followed
 * by THH:MM or THH:MM:SS, then optionally Z (UTC either way: so are the
 * store's dates), naming a day that exists (2026-02-30 does not) and a
 * time of a day (hours 0-23, minutes and seconds 0-59); else 0. */
int vdc_history_date_ok(const char *s);

/* How much of a date @s that vdc_history_date_ok took a --since bound
 * compares with the store's dates (text, "2026-12-06T10:00:30Z"): all but
 * its Z, so that "2026-12-06Z" and "2026-12-06T10:00Z" sort before every
 * time of that day and minute, as "2026-12-06" and "2026-12-06T10:00" do. */
int vdc_history_date_bound_len(const char *s);

/* Read the series of @q from @s into @h (freshly _init'ed) and decide
 * its steps at @alpha (vdc_history_decide).  0 or -1 (one message). */
int vdc_history_load(struct vdc_history *h, vdc_store *s, const struct vdc_history_query *q, double alpha);

/* Decide every step of @h (pure): changes, verdict_changed, move,
 * step_not_comparable, move_significant.
 * Called by vdc_history_load; tests call it on series they build. */
void vdc_history_decide(struct vdc_history *h);

/* Append a point to @series (every member absent; the caller fills it).
 * Returns it (valid until the next append). */
struct vdc_history_point *vdc_history_add_point(struct vdc_history_series *series);
/* Append a series (strings copied).  Returns it (valid until the next append). */
struct vdc_history_series *vdc_history_add_series(struct vdc_history *h, const char *host, const char *target,
                                                  const char *reference, const char *test_key,
                                                  const char *unit);

/* --fail-if: what makes `vmdiskcmp history` exit 1.  Only the newest step
 * of each series counts (the result just added against the one before). */
struct vdc_history_fail {
    int verdict;                 /* "verdict": its verdict changed significantly */
    double ratio_percent;        /* "ratio>P%": its ratio moved significantly by more than P %;
                                  * 0: not asked */
};

/* Parse one --fail-if value ("verdict" or "ratio>P%", P above 0 and at
 * most 1000) into @f.  0, or -1 after one vdc_input_error. */
int vdc_history_fail_parse(const char *arg, struct vdc_history_fail *f);

/* One line per newest step of @h that @f fails, naming the host, pair,
 * test, both verdicts, the move and what changed.  NULL-terminated,
 * empty when none fails (g_strfreev). */
char **vdc_history_failures(const struct vdc_history *h, const struct vdc_history_fail *f);

/* The history as text (doc/store.md "History"), g_free. */
char *vdc_history_render_text(const struct vdc_history *h);

/* The history as one self-contained HTML page: per host and pair a cairo
 * SVG chart (ratio and interval per test over the results, the changes
 * marked), the results with what changed, and a table per test.  g_free;
 * NULL after one message when cairo fails. */
char *vdc_history_render_html(const struct vdc_history *h);

#endif
