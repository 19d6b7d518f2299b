/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Many guests at once (report/density.h, doc/report.md "Many guests at
 * once"), rendered: a section of report.txt, report.md and report.html
 * (the headline per level, the fairness table, the scaling figures:
 * aggregate and pooled p99 against the number of guests per target),
 * density.csv and report.json's statistics.density (render_density.c;
 * the HTML with its figures: render_density_html.c, on cairo).  Nothing when the
 * result has no level (vdc_density.n_levels 0).  Renderers only print the
 * analysis. */
#ifndef VDC_REPORT_RENDER_DENSITY_H
#define VDC_REPORT_RENDER_DENSITY_H

#include <glib.h>
#include <json-glib/json-glib.h>

#include "report/analysis.h"
#include "report/render_escape.h"

/* The note every renderer prints above the section. */
extern const char vdc_density_note[];

/* The fairness table's columns and one row of it: cell @c's texts into
 * @v (VDC_DENSITY_COLS strings, each g_free: vdc_density_row_free). */
#define VDC_DENSITY_COLS 11
extern const char *const vdc_density_cols[VDC_DENSITY_COLS];
void vdc_density_row(const struct vdc_analysis *a, const struct vdc_density_cell *c, char **v);
void vdc_density_row_free(char **v);
/* Every row of the table onto @out: @row_open, then each cell between
 * @cell_open and @cell_close escaped by @esc, then @row_close. */
void vdc_density_rows(GString *out, const struct vdc_analysis *a, const char *row_open, const char *cell_open,
                      const char *cell_close, const char *row_close, vdc_escape_fn esc);

/* Every cell of @d with runs (or repetitions left out), level by level,
 * target, test: @c the cell */
#define VDC_DENSITY_FOR_CELLS(d, c)                                                              \
    for (size_t li_ = 0; li_ < (d)->n_levels; li_++)                                 \
        for (size_t ti_ = 0; ti_ < (d)->n_targets; ti_++)                            \
            for (size_t ki_ = 0; ki_ < (d)->n_tests; ki_++)                          \
                if (((c) = vdc_density_cell((d), li_, ti_, ki_))->n_reps ||          \
                    (c)->n_incomplete)

/* The headline of one pair (@p of @a's density) as a sentence: "at 3
 * guests, Sequential output, block (K/sec): image gives 25.2 % less
 * aggregate than lvm [-27.1 %, -23.0 %], p = 0.0084 (Holm, 4 tests;
 * unadjusted = 0.0021), large; 3 pairs; p99 over all guests' I/Os 12.0 %
 * higher [...]", the p values Holm within the family (level, target,
 * reference), an interval of no width said to be none (g_free). */
char *vdc_density_pair_text(const struct vdc_analysis *a, const struct vdc_density_pair *p);

/* @s onto @out in lines of at most @width columns after @indent, broken
 * at spaces (a word longer than the line stands alone). */
void vdc_density_wrap(GString *out, const char *s, const char *indent, size_t width);

/* The sections of text and Markdown. */
void vdc_density_text(GString *out, const struct vdc_analysis *a);
void vdc_density_markdown(GString *out, const struct vdc_analysis *a);

/* density.csv (RFC 4180, header line): one line per level x target x test
 * with guest empty (the level's figures: n, aggregate mean and its 95 %
 * CI, KiB/s, Jain mean and min, slowest and fastest guest, pooled p50,
 * p99, p99.9 in us, the largest start skew in s, skewed, the repetitions
 * left out in two columns: incomplete_failed (a guest failed,
 * vdc_density_cell.n_failed) and incomplete_no_value (none failed, one
 * gave no number, .n_no_value), where the target stops scaling), then one
 * per guest (its mean value).  NULL without levels.  Columns:
 * doc/report.md. */
char *vdc_density_csv(const struct vdc_analysis *a);

/* One CSV cell of @out: a comma, then @v in %.6g (C locale), nothing when
 * @v is absent or not finite. */
void vdc_density_csv_num(GString *out, double v);

/* statistics.density of report.json: {levels, targets, tests, cells:
 * [...], pairs: [...]}, or NULL without levels. */
JsonNode *vdc_density_to_json(const struct vdc_analysis *a);

/* The HTML section (id density): the headline lines, one scaling figure
 * per test (ids chart-density-N, numbered from *@fig on) and the fairness
 * table (id density-table).  0, or -1 after vdc_error when cairo failed. */
int vdc_density_html(GString *out, const struct vdc_analysis *a, int *fig);

/* The host cost of each level (render_density_host.c; nothing when no
 * level record has a host object, vdc_density.host NULL): its note, the
 * CPU table (N, target, role, n, CPU s, per 1,000 I/Os, per GiB: means of
 * experiment.levels[].host over the ok repetitions) and dom0's memory
 * table (N, target, n, memory, page cache, dirty [release -> end], I/Os
 * and bytes moved). */
extern const char vdc_density_host_note[];
#define VDC_DENSITY_HOST_COLS 7
extern const char *const vdc_density_host_cols[VDC_DENSITY_HOST_COLS];
#define VDC_DENSITY_MEM_COLS 8
extern const char *const vdc_density_mem_cols[VDC_DENSITY_MEM_COLS];
/* inside the text section */
void vdc_density_host_text(GString *out, const struct vdc_analysis *a);
/* Markdown (@html 0) or HTML (tables density-host, density-host-memory) */
void vdc_density_host_markup(GString *out, const struct vdc_analysis *a, int html);
/* density-host.csv (RFC 4180, header line): one line per level, target
 * and role with a figure; NULL without host figures. */
char *vdc_density_host_csv(const struct vdc_analysis *a);
/* statistics.density.host: [{level, target, n, roles: {ROLE: {n, cpu_s,
 * cpu_s_per_1000_ios, cpu_s_per_gib}}, loop_shared, ios, bytes,
 * dom0_memory_bytes, dom0_cached_bytes, dom0_dirty_bytes}], or NULL. */
JsonArray *vdc_density_host_json(const struct vdc_analysis *a);

#endif
