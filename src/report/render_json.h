/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp renderers: report.json and compare --format json, the
 * "statistics" member of doc/result-format.md. */
#ifndef VDC_REPORT_RENDER_JSON_H
#define VDC_REPORT_RENDER_JSON_H

#include <json-glib/json-glib.h>

#include "model/result.h"
#include "report/analysis.h"

/* The result document (doc/result-format.md) plus "statistics". */
char *vdc_render_json(const vdc_result_set *rs, const struct vdc_analysis *a);

/* The "statistics" object of doc/result-format.md (new node): per_target
 * cells (with host_cpu and dom0_page_cache where the analysis has host
 * figures), comparisons, flags. */
JsonNode *vdc_statistics_to_json(const struct vdc_analysis *a);

/* The statistics object alone with its "warnings", pretty-printed
 * (compare --format json). */
char *vdc_render_statistics_json(const vdc_result_set *rs, const struct vdc_analysis *a);

/* report.json's statistics.headline (doc/result-format.md; new node). */
JsonNode *vdc_headline_to_json(const struct vdc_analysis *a);

#endif
