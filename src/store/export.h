/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp export: the store's samples and headline rows for the tools
 * people already run (doc/store.md "Export").
 *
 *   ndjson       newline-delimited JSON, one sample an object in the shape
 *                PerfKit Benchmarker's NewlineDelimitedJSONPublisher
 *                writes (perfkitbenchmarker/publisher.py, sample.py):
 *                metric, value, unit, timestamp (Unix seconds, float),
 *                test, product_name, official, owner, run_uri, sample_uri
 *                and labels "|key:value|,|key:value|" (its collapse_labels
 *                default; with @metadata_object a "metadata" object
 *                instead, its --nocollapse_labels), loadable with
 *                `bq load --source_format=NEWLINE_DELIMITED_JSON`
 *   openmetrics  OpenMetrics 1.0 text (application/openmetrics-text;
 *                version=1.0.0): gauges in base units with # UNIT
 *                (bytes_per_second, operations_per_second, ratio), an
 *                info family per recorded result, every point with its
 *                timestamp (Unix seconds), ending in # EOF; loadable by
 *                Prometheus without vmdiskcmp (promtool tsdb
 *                create-blocks-from openmetrics)
 *
 * A sample's timestamp is its run's metadata.date (each repetition ran at
 * its own time), else the result's date; a sample with neither is left
 * out and counted. */
#ifndef VDC_STORE_EXPORT_H
#define VDC_STORE_EXPORT_H

#include <stddef.h>

#include <glib.h>

#include "store/store.h"

enum vdc_export_format {
    VDC_EXPORT_NDJSON = 0,
    VDC_EXPORT_OPENMETRICS,
};

struct vdc_export_options {
    enum vdc_export_format format;
    int metadata_object;         /* ndjson: "metadata": {...} instead of "labels" */
    const char *host;            /* only this host (results.host or a merge's label); NULL: all */
    const char *since;           /* only results of this date or later (vdc_history_date_ok); NULL: all */
};

/* The export of @s by @o appended to @out.  *@skipped (may be NULL) gets
 * the samples left out (no date; a unit with no OpenMetrics family; a
 * second point of one series at one timestamp).  0 or -1 (one message). */
int vdc_export(vdc_store *s, const struct vdc_export_options *o, GString *out, size_t *skipped);

/* An OpenMetrics label value: \ " and newline escaped (appended to @out). */
void vdc_openmetrics_escape(GString *out, const char *v);

/* A PerfKit Benchmarker label part: '|' and ',' of @v replaced by '/' and
 * ';' and a ':' in a key by '_', since the collapsed labels have no
 * escape (g_free). */
char *vdc_pkb_label_value(const char *v);

/* Seconds since the epoch of ISO 8601 @date ("2026-11-30T02:18:24Z",
 * "2026-11-30T02:18:24.123+01:00"; no zone: UTC), NAN when it is none. */
double vdc_export_timestamp(const char *date);

#endif
