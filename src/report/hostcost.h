/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host CPU per backend, per target and test (doc/report.md "Host cost"):
 * the statistics of the runs' samples[].host figures (src/run/hostwatch.c)
 * and their renderings.  The analysis (vdc_host_cost_build, called by
 * vdc_analysis_build) keeps, per (target, test, role), the mean and 95 %
 * CI of the CPU seconds per GiB moved and per 1,000 I/Os over the sliced
 * samples that have the figure, and for a role no run could attribute
 * (the loop device's shared kworkers) the reason.  The renderers add a
 * section to the text, Markdown and HTML (a cairo chart per target of CPU
 * seconds per GiB by role) reports, a member to report.json's per_target
 * cells and the file host-cost.csv; with no host figures they add nothing. */
#ifndef VDC_REPORT_HOSTCOST_H
#define VDC_REPORT_HOSTCOST_H

#include <glib.h>
#include <json-glib/json-glib.h>

#include "model/result.h"
#include "stats/stats.h"

struct vdc_analysis;

/* The roles, in report order (samples[].host.cpu_s members). */
extern const char *const vdc_host_roles[];
#define VDC_HOST_N_ROLES 9

/* One (target, test, role). */
struct vdc_host_cost {
    size_t target, test;            /* indices into vdc_analysis.targets, .tests */
    const char *role;               /* one of vdc_host_roles */
    size_t n_runs;                  /* runs whose sample has a host object */
    struct vdc_stats_summary per_gib;   /* CPU s per GiB moved (n: the values) */
    struct vdc_stats_summary per_kio;   /* CPU s per 1,000 I/Os */
    const char *attribution;        /* "exact", or the first other one seen:
                                     * "shared", "ambiguous", "ended" (static) */
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

/* The note every renderer prints above the page-cache figures. */
extern const char vdc_host_cache_note[];

/* The label of a role ("blkback ring threads", "dom0 other (busy minus the
 * servers)").  Never NULL. */
const char *vdc_host_role_label(const char *role);

/* The note every renderer prints above the figures. */
extern const char vdc_host_cost_note[];

/* "0.512 [0.401, 0.623]" (mean [95 % CI]), "0.512" (n = 1), "" (n = 0),
 * appended to @out. */
void vdc_host_cost_fmt(GString *out, const struct vdc_stats_summary *s);

/* Fill a->host and a->cache from @rs (a->targets, a->tests set).  0 or -1
 * after vdc_error (allocation). */
int vdc_host_cost_build(struct vdc_analysis *a, const vdc_result_set *rs);
void vdc_host_cost_dispose(struct vdc_analysis *a);

/* The sections of each renderer: host CPU (nothing when a->n_host is 0)
 * and dom0's page cache (nothing when a->n_cache is 0). */
void vdc_host_cost_text(GString *out, const struct vdc_analysis *a);
void vdc_host_cost_markdown(GString *out, const struct vdc_analysis *a);
/* page-cache.csv (RFC 4180, header line, one line per target x test, MiB):
 * target,test,n,moved_mib,disk_read_mib,disk_write_mib,
 * image_resident_start_mib,image_resident_end_mib,dom0_dirty_wb_start_mib,
 * dom0_dirty_wb_end_mib,dom0_cached_growth_mib (means; empty: not
 * measured).  NULL when there are no such figures. */
char *vdc_host_cache_csv(const struct vdc_analysis *a);
/* host-cost.csv (RFC 4180, header line, one line per target x test x
 * role): target,test,role,n_runs,n,cpu_s_per_gib,ci95_lo,ci95_hi,
 * n_ios,cpu_s_per_1000_ios,ci95_ios_lo,ci95_ios_hi,attribution,reason.
 * NULL when there are no host figures. */
char *vdc_host_cost_csv(const struct vdc_analysis *a);
/* report.json: the cell (@ti, @ki)'s "host_cpu" member {role: {...}}
 * (doc/result-format.md), when it has figures. */
void vdc_host_cost_json(JsonBuilder *b, const struct vdc_analysis *a, size_t ti, size_t ki);
/* The HTML section (id host-cost: a table and one chart per target, ids
 * chart-host-N); 0, or -1 after vdc_error when cairo failed. */
int vdc_host_cost_html(GString *out, const struct vdc_analysis *a);
/* The page-cache table (hostcost.c), for vdc_host_cost_html; nothing when
 * a->n_cache is 0. */
void vdc_host_cache_html(GString *out, const struct vdc_analysis *a);

#endif
