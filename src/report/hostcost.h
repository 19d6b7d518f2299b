/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host CPU per backend, per target and test (doc/report.md "Host cost"):
 * the statistics of the runs' samples[].host figures (src/run/hostwatch.c).
 * The analysis (vdc_host_cost_build, called by vdc_analysis_build) keeps,
 * per (target, test, role), the mean and 95 % CI of the CPU seconds per
 * GiB moved and per 1,000 I/Os over the sliced samples that have the
 * figure, and for a role no run could attribute (the loop device's shared
 * kworkers) the reason; and per (target, test) dom0's page cache around
 * it.  The renderings are render_hostcost.h's. */
#ifndef VDC_REPORT_HOSTCOST_H
#define VDC_REPORT_HOSTCOST_H

#include <glib.h>

#include "model/result.h"
#include "stats/stats.h"

struct vdc_analysis;

/* The roles, in report order (samples[].host.cpu_s members). */
extern const char *const vdc_host_roles[];
#define VDC_HOST_N_ROLES 10

/* One (target, test, role). */
struct vdc_host_cost {
    size_t target, test;            /* indices into vdc_analysis.targets, .tests */
    const char *role;               /* one of vdc_host_roles */
    size_t n_runs;                  /* runs whose sample has a host object */
    struct vdc_stats_summary per_gib;   /* CPU s per GiB moved (n: the values) */
    struct vdc_stats_summary per_kio;   /* CPU s per 1,000 I/Os */
    int per_gib_cut, per_kio_cut;   /* 1: that 95 % CI's low end reached below 0
                                     * and was cut at 0 (CPU time is never
                                     * negative); the renderers say so
                                     * (vdc_host_cost_cut_note) */
    const char *attribution;        /* "exact", or the first other one seen:
                                     * "shared", "ambiguous", "ended" (static);
                                     * "inconsistent" when a run's difference was
                                     * below 0 (then no figure at all) */
    char *reason;                   /* its reason, or NULL (g_free) */
};

/* dom0's page cache around one (target, test) (doc/report.md "dom0 page
 * cache"): each figure's mean and 95 % CI over the runs whose sample has
 * it (n: those runs), in bytes, from samples[].host: what the
 * backend moved (bytes), what reached the disk under the image
 * (disk_read_bytes, disk_write_bytes), the image's pages in dom0's page
 * cache at the test's start and end (image_resident_bytes), dom0's
 * Dirty + Writeback at start and end (dom0_dirty_bytes +
 * dom0_writeback_bytes) and the growth of dom0's Cached
 * (dom0_cached_bytes, end minus start). */
struct vdc_host_cache {
    size_t target, test;
    struct vdc_stats_summary moved;
    struct vdc_stats_summary disk_read, disk_write;
    struct vdc_stats_summary resident[2];       /* start, end */
    struct vdc_stats_summary dirty[2];          /* start, end */
    struct vdc_stats_summary cached_growth;
};

/* The label of a role ("blkback ring threads", "dom0 other (busy + steal
 * minus servers)"): the one name every table a reader sees gives a role
 * (host CPU per test here, density's host cost per level in
 * render_density_host.c); the CSV and JSON files keep the key.  A key it
 * does not know comes back as it is.  Never NULL. */
const char *vdc_host_role_label(const char *role);

/* "0.512 [0.401, 0.623]" (mean [95 % CI]), "0.512" (n = 1), "" (n = 0),
 * appended to @out: three significant digits, never an exponent. */
void vdc_host_cost_fmt(GString *out, const struct vdc_stats_summary *s);

/* The legend of a role with no figure because the counters disagreed
 * (attribution "inconsistent"): every table holding one prints it once. */
extern const char vdc_host_cost_inconsistent_note[];

/* The legend of an interval cut at 0 (vdc_host_cost.per_gib_cut): every
 * place that prints such an interval prints it once beside it. */
extern const char vdc_host_cost_cut_note[];

/* 1 when a figure of @c printed by vdc_host_cost_fmt is an interval cut at 0 */
int vdc_host_cost_cut(const struct vdc_host_cost *c);

/* Fill a->host and a->cache from @rs (a->targets, a->tests set).  0 or -1
 * after vdc_error (allocation). */
int vdc_host_cost_build(struct vdc_analysis *a, const vdc_result_set *rs);
void vdc_host_cost_dispose(struct vdc_analysis *a);

#endif
