/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host CPU per backend and dom0's page cache (report/hostcost.h, doc/report.md
 * "Host cost" and "dom0 page cache"), rendered: a section of report.txt,
 * report.md and report.html (there a chart per target of CPU seconds per
 * GiB by role and the tables), host-cost.csv and page-cache.csv; with no
 * host figures they add nothing.  (report.json's members: render_json.c.) */
#ifndef VDC_REPORT_RENDER_HOSTCOST_H
#define VDC_REPORT_RENDER_HOSTCOST_H

#include <glib.h>

#include "report/analysis.h"
#include "report/hostcost.h"

/* The notes every renderer prints above the host CPU figures and above
 * the page-cache figures. */
extern const char vdc_host_cost_note[];
extern const char vdc_host_cache_note[];

/* The sections of text and Markdown: dom0's page cache (nothing when
 * a->n_cache is 0), then host CPU (nothing when a->n_host is 0). */
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

/* The HTML sections: dom0's page cache (id page-cache: a table) and host
 * CPU (id host-cost: one chart per target, ids chart-host-N, numbered from
 * *@fig on, then the table id host-cost-table, collapsed); 0, or -1 after
 * vdc_error when cairo failed. */
int vdc_host_cost_html(GString *out, const struct vdc_analysis *a, int *fig);

#endif
