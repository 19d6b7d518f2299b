/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp export: NDJSON samples and OpenMetrics text (export.h). */
#include "config.h"

#include "store/export.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "common/util.h"
#include "model/result.h"
#include "report/analysis.h"
#include "store/history.h"
#include "store/store_priv.h"

double
vdc_export_timestamp(const char *date)
{
    g_autoptr(GTimeZone) utc = g_time_zone_new_utc();
    g_autoptr(GDateTime) dt = NULL;

    if (!date || !*date)
        return NAN;
    dt = g_date_time_new_from_iso8601(date, utc);
    if (!dt)
        return NAN;
    return (double)g_date_time_to_unix(dt) + g_date_time_get_microsecond(dt) / 1e6;
}

void
vdc_openmetrics_escape(GString *out, const char *v)
{
    for (const char *p = v ? v : ""; *p; p++) {
        if (*p == '\\')
            g_string_append(out, "\\\\");
        else if (*p == '"')
            g_string_append(out, "\\\"");
        else if (*p == '\n')
            g_string_append(out, "\\n");
        else
            g_string_append_c(out, *p);
    }
}

char *
vdc_pkb_label_value(const char *v)
{
    char *s = g_strdup(v ? v : "");

    for (char *p = s; *p; p++)
        if (*p == '|')
            *p = '/';
        else if (*p == ',')
            *p = ';';
    return s;
}

/* ---- What is read: one row per valued sample, with its result's facts ----- */

/* The facts that label every exported value (name in the store, label). */
static const struct {
    const char *fact, *label;
} label_facts[] = {
    { "host.kernel", "kernel" },
    { "hypervisor.driver", "hypervisor" },
    { "xen.version", "xen_version" },
    { "qemu.version", "qemu_version" },
    { "libvirt.version", "libvirt_version" },
    { "disk.model", "disk_model" },
    { "vmdiskcmp.version", "vmdiskcmp_version" },
};

#define FACT_COLS \
    " (SELECT value FROM facts WHERE result = r.id AND name = 'host.kernel')," \
    " (SELECT value FROM facts WHERE result = r.id AND name = 'hypervisor.driver')," \
    " (SELECT value FROM facts WHERE result = r.id AND name = 'xen.version')," \
    " (SELECT value FROM facts WHERE result = r.id AND name = 'qemu.version')," \
    " (SELECT value FROM facts WHERE result = r.id AND name = 'libvirt.version')," \
    " (SELECT value FROM facts WHERE result = r.id AND name = 'disk.model')," \
    " (SELECT value FROM facts WHERE result = r.id AND name = 'vmdiskcmp.version')"
#define N_FACT_COLS 7
G_STATIC_ASSERT(G_N_ELEMENTS(label_facts) == N_FACT_COLS);

#define FILTER \
    " (?1 IS NULL OR r.host = ?1 OR EXISTS (SELECT 1 FROM merges m WHERE m.member = r.id AND m.host = ?1))" \
    " AND (?2 IS NULL OR r.date >= ?2)"

/* columns 0..8 then the facts from 9 */
static const char samples_sql[] =
    "SELECT r.sha256, r.run_id, coalesce(r.host, 'unknown'), r.kind, r.emulated, coalesce(s.date, r.date),"
    " s.target, t.kind, t.backend_type, t.bypasses_dom0_page_cache, s.repetition, s.test_key, s.unit, s.value,"
    FACT_COLS
    " FROM samples s JOIN results r ON r.id = s.result"
    " LEFT JOIN targets t ON t.result = s.result AND t.name = s.target"
    " WHERE s.value IS NOT NULL AND" FILTER
    " ORDER BY r.date, r.id, s.target, s.test_key, s.repetition";
enum { S_SHA, S_RUN, S_HOST, S_KIND, S_EMU, S_DATE, S_TARGET, S_TKIND, S_BACKEND, S_BYPASS, S_REP, S_KEY,
       S_UNIT, S_VALUE, S_FACTS };

static const char headline_sql[] =
    "SELECT r.sha256, r.run_id, coalesce(r.host, 'unknown'), r.kind, r.emulated, r.date,"
    " h.role, h.target, h.reference, h.test_key, h.ratio, h.ci_lo, h.ci_hi, h.p_holm, h.verdict, h.effect,"
    " h.n_pairs,"
    FACT_COLS
    " FROM headline h JOIN results r ON r.id = h.result"
    " WHERE h.ratio IS NOT NULL AND" FILTER
    " ORDER BY r.date, r.id, h.role, h.target, h.reference, h.test_key";
enum { H_SHA, H_RUN, H_HOST, H_KIND, H_EMU, H_DATE, H_ROLE, H_TARGET, H_REF, H_KEY, H_RATIO, H_LO, H_HI,
       H_PHOLM, H_VERDICT, H_EFFECT, H_NPAIRS, H_FACTS };

static const char info_sql[] =
    "SELECT r.sha256, r.run_id, coalesce(r.host, 'unknown'), r.kind, r.emulated, r.date," FACT_COLS
    " FROM results r WHERE" FILTER " ORDER BY r.date, r.id";
enum { I_SHA, I_RUN, I_HOST, I_KIND, I_EMU, I_DATE, I_FACTS };

static sqlite3_stmt *
prepare(vdc_store *s, const char *sql, const struct vdc_export_options *o)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(vdc_store_db(s), sql, -1, &st, NULL);

    if (rc != SQLITE_OK) {
        vdc_store_sql_error(vdc_store_path(s), vdc_store_db(s), rc, "prepare the export");
        return NULL;
    }
    if (o->host)
        sqlite3_bind_text(st, 1, o->host, -1, SQLITE_TRANSIENT);
    if (o->since)
        sqlite3_bind_text(st, 2, o->since, vdc_history_date_bound_len(o->since), SQLITE_TRANSIENT);
    return st;
}

static const char *
col(sqlite3_stmt *st, int i)
{
    return vdc_store_col_text(st, i);
}

static const char *
emulated_text(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NULL : sqlite3_column_int(st, i) ? "true" : "false";
}

/* ---- NDJSON (PerfKit Benchmarker's sample shape) -------------------------------- */

struct ndjson {
    GString *out;
    int metadata_object;
    size_t seq;
};

/* labels: name/value pairs, NULL-terminated; NULL values skipped */
static void
ndjson_line(struct ndjson *nd, const char *metric, double value, const char *unit, double ts,
            const char *sha, const char *const *labels)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonNode) root = NULL;
    g_autofree char *run_uri = g_strndup(sha ? sha : "", 16), *sample_uri = NULL, *text = NULL;

    sample_uri = g_strdup_printf("%s-%zu", run_uri, nd->seq++);
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "metric");
    json_builder_add_string_value(b, metric);
    json_builder_set_member_name(b, "value");
    json_builder_add_double_value(b, value);
    json_builder_set_member_name(b, "unit");
    json_builder_add_string_value(b, unit ? unit : "");
    json_builder_set_member_name(b, "timestamp");
    json_builder_add_double_value(b, ts);
    json_builder_set_member_name(b, "test");
    json_builder_add_string_value(b, "vmdiskcmp");
    json_builder_set_member_name(b, "product_name");
    json_builder_add_string_value(b, "vmdiskcmp");
    json_builder_set_member_name(b, "official");
    json_builder_add_boolean_value(b, FALSE);
    json_builder_set_member_name(b, "owner");
    json_builder_add_string_value(b, "vmdiskcmp");
    json_builder_set_member_name(b, "run_uri");
    json_builder_add_string_value(b, run_uri);
    json_builder_set_member_name(b, "sample_uri");
    json_builder_add_string_value(b, sample_uri);
    if (nd->metadata_object) {
        json_builder_set_member_name(b, "metadata");
        json_builder_begin_object(b);
        for (size_t i = 0; labels[i]; i += 2)
            if (labels[i + 1]) {
                json_builder_set_member_name(b, labels[i]);
                json_builder_add_string_value(b, labels[i + 1]);
            }
        json_builder_end_object(b);
    } else {
        GString *l = g_string_new(NULL);

        for (size_t i = 0; labels[i]; i += 2)
            if (labels[i + 1]) {
                g_autofree char *v = vdc_pkb_label_value(labels[i + 1]);

                g_string_append_printf(l, "%s|%s:%s|", l->len ? "," : "", labels[i], v);
            }
        json_builder_set_member_name(b, "labels");
        json_builder_add_string_value(b, l->str);
        g_string_free(l, TRUE);
    }
    json_builder_end_object(b);
    root = json_builder_get_root(b);
    /* the model's writer (shortest doubles), its indentation taken out: a
     * string holds no raw newline, so every newline is layout */
    text = vdc_json_to_string(root, NULL);
    for (const char *p = text; *p; p++) {
        if (*p == '\n') {
            while (p[1] == ' ')
                p++;
            continue;
        }
        g_string_append_c(nd->out, *p);
    }
    g_string_append_c(nd->out, '\n');
}

#define MAX_LABELS 64

/* the fact labels of a row whose facts start at column @first */
static size_t
fact_labels(sqlite3_stmt *st, int first, const char **l, size_t n)
{
    for (size_t i = 0; i < N_FACT_COLS; i++) {
        l[n++] = label_facts[i].label;
        l[n++] = col(st, first + (int)i);
    }
    return n;
}

static int
export_ndjson(vdc_store *s, const struct vdc_export_options *o, GString *out, size_t *skipped)
{
    struct ndjson nd = { .out = out, .metadata_object = o->metadata_object };
    sqlite3_stmt *st = prepare(s, samples_sql, o);
    int rc;

    if (!st)
        return -1;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *l[MAX_LABELS];
        double ts = vdc_export_timestamp(col(st, S_DATE));
        char rep[32], label[VDC_TEST_LABEL_MAX];
        const char *bypass = sqlite3_column_type(st, S_BYPASS) == SQLITE_NULL ? NULL :
                             sqlite3_column_int(st, S_BYPASS) ? "bypassed" : "used";
        size_t n = 0;

        if (!isfinite(ts)) {
            (*skipped)++;
            continue;
        }
        snprintf(rep, sizeof(rep), "%d", sqlite3_column_int(st, S_REP));
        vdc_test_key_label(col(st, S_KEY), label, sizeof(label));
        l[n++] = "host", l[n++] = col(st, S_HOST);
        l[n++] = "run_id", l[n++] = col(st, S_RUN);
        l[n++] = "result_sha256", l[n++] = col(st, S_SHA);
        l[n++] = "result_kind", l[n++] = col(st, S_KIND);
        l[n++] = "emulated", l[n++] = emulated_text(st, S_EMU);
        l[n++] = "target", l[n++] = col(st, S_TARGET);
        l[n++] = "target_kind", l[n++] = col(st, S_TKIND);
        l[n++] = "backend", l[n++] = col(st, S_BACKEND);
        l[n++] = "dom0_page_cache", l[n++] = bypass;
        l[n++] = "repetition", l[n++] = rep;
        l[n++] = "test_label", l[n++] = label;
        n = fact_labels(st, S_FACTS, l, n);
        l[n] = NULL;
        ndjson_line(&nd, col(st, S_KEY), sqlite3_column_double(st, S_VALUE), col(st, S_UNIT), ts, col(st, S_SHA), l);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        vdc_store_sql_error(vdc_store_path(s), vdc_store_db(s), rc, "read the samples");
        return -1;
    }
    if (!(st = prepare(s, headline_sql, o)))
        return -1;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *l[MAX_LABELS];
        double ts = vdc_export_timestamp(col(st, H_DATE));
        char lo[32], hi[32], ph[32], np[32];
        size_t n = 0;

        if (!isfinite(ts)) {
            (*skipped)++;
            continue;
        }
        snprintf(lo, sizeof(lo), "%.6g", sqlite3_column_double(st, H_LO));
        snprintf(hi, sizeof(hi), "%.6g", sqlite3_column_double(st, H_HI));
        snprintf(ph, sizeof(ph), "%.6g", sqlite3_column_double(st, H_PHOLM));
        snprintf(np, sizeof(np), "%d", sqlite3_column_int(st, H_NPAIRS));
        l[n++] = "host", l[n++] = col(st, H_HOST);
        l[n++] = "run_id", l[n++] = col(st, H_RUN);
        l[n++] = "result_sha256", l[n++] = col(st, H_SHA);
        l[n++] = "result_kind", l[n++] = col(st, H_KIND);
        l[n++] = "emulated", l[n++] = emulated_text(st, H_EMU);
        l[n++] = "role", l[n++] = col(st, H_ROLE);
        l[n++] = "target", l[n++] = col(st, H_TARGET);
        l[n++] = "reference", l[n++] = col(st, H_REF);
        l[n++] = "test_key", l[n++] = col(st, H_KEY);
        l[n++] = "ci95_lo", l[n++] = sqlite3_column_type(st, H_LO) == SQLITE_NULL ? NULL : lo;
        l[n++] = "ci95_hi", l[n++] = sqlite3_column_type(st, H_HI) == SQLITE_NULL ? NULL : hi;
        l[n++] = "p_holm", l[n++] = sqlite3_column_type(st, H_PHOLM) == SQLITE_NULL ? NULL : ph;
        l[n++] = "n_pairs", l[n++] = np;
        l[n++] = "verdict", l[n++] = col(st, H_VERDICT);
        l[n++] = "effect", l[n++] = col(st, H_EFFECT);
        n = fact_labels(st, H_FACTS, l, n);
        l[n] = NULL;
        ndjson_line(&nd, "headline_ratio", sqlite3_column_double(st, H_RATIO), "ratio", ts, col(st, H_SHA), l);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        vdc_store_sql_error(vdc_store_path(s), vdc_store_db(s), rc, "read the headline rows");
        return -1;
    }
    return 0;
}

/* ---- OpenMetrics ------------------------------------------------------------------- */

/* A MetricFamily of the export. */
struct om_family {
    const char *name, *type, *unit, *help;
};

static const struct om_family om_families[] = {
    { "vmdiskcmp_result", "info", NULL, "A result recorded in the vmdiskcmp store, with its facts." },
    { "vmdiskcmp_throughput_bytes_per_second", "gauge", "bytes_per_second",
      "A sequential or block-size sweep test's rate (K/sec and MiB/s converted to bytes per second)." },
    { "vmdiskcmp_operations_per_second", "gauge", "operations_per_second",
      "Seeks, file operations and workload I/Os per second." },
    { "vmdiskcmp_headline_ratio", "gauge", "ratio",
      "A headline pair's ratio of means target/reference (vmdiskcmp report's headline)." },
    { "vmdiskcmp_headline_ci95_lower_ratio", "gauge", "ratio", "Lower end of the paired 95 % interval of the ratio." },
    { "vmdiskcmp_headline_ci95_upper_ratio", "gauge", "ratio", "Upper end of the paired 95 % interval of the ratio." },
};
enum { F_INFO, F_BYTES, F_OPS, F_RATIO, F_LO, F_HI, F_COUNT };

/* The points of one family: series (labels text) -> array of points */
struct om_point {
    double ts, value;
};

/* family @f's value of @unit: the factor to its base unit, 0 for none */
static int
family_of_unit(const char *unit, double *factor)
{
    if (!unit)
        return -1;
    if (!strcmp(unit, "K/sec")) {
        *factor = 1024;
        return F_BYTES;
    }
    if (!strcmp(unit, "MiB/s")) {
        *factor = 1048576;
        return F_BYTES;
    }
    if (!strcmp(unit, "/sec") || !strcmp(unit, "IO/sec")) {
        *factor = 1;
        return F_OPS;
    }
    return -1;
}

static void
om_label(GString *l, const char *name, const char *v)
{
    if (!v)
        return;
    g_string_append_printf(l, "%s%s=\"", l->len ? "," : "", name);
    vdc_openmetrics_escape(l, v);
    g_string_append_c(l, '"');
}

static void
om_add(GHashTable *fam, const char *labels, double ts, double v)
{
    GArray *a = g_hash_table_lookup(fam, labels);
    struct om_point p = { ts, v };

    if (!a) {
        a = g_array_new(FALSE, FALSE, sizeof(struct om_point));
        g_hash_table_insert(fam, g_strdup(labels), a);
    }
    g_array_append_val(a, p);
}

static gint
om_point_cmp(gconstpointer a, gconstpointer b)
{
    double x = ((const struct om_point *)a)->ts, y = ((const struct om_point *)b)->ts;

    return (x > y) - (x < y);
}

static int
str_ptr_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void
om_write_family(GString *out, const struct om_family *f, GHashTable *fam, size_t *skipped)
{
    g_autofree gpointer *keys = NULL;
    guint n;

    g_string_append_printf(out, "# TYPE %s %s\n", f->name, f->type);
    if (f->unit)
        g_string_append_printf(out, "# UNIT %s %s\n", f->name, f->unit);
    g_string_append_printf(out, "# HELP %s %s\n", f->name, f->help);
    keys = g_hash_table_get_keys_as_array(fam, &n);
    qsort(keys, n, sizeof(gpointer), str_ptr_cmp);
    for (guint i = 0; i < n; i++) {
        GArray *a = g_hash_table_lookup(fam, keys[i]);

        g_array_sort(a, om_point_cmp);
        for (guint k = 0; k < a->len; k++) {
            const struct om_point *p = &g_array_index(a, struct om_point, k);

            /* a series has one value per timestamp */
            if (k && p->ts == g_array_index(a, struct om_point, k - 1).ts) {
                (*skipped)++;
                continue;
            }
            g_string_append_printf(out, "%s%s{%s} ", f->name, !strcmp(f->type, "info") ? "_info" : "",
                                   (const char *)keys[i]);
            vdc_append_double(out, p->value);
            g_string_append_c(out, ' ');
            {
                char buf[64];

                snprintf(buf, sizeof(buf), "%.3f", p->ts);
                g_string_append(out, buf);
            }
            g_string_append_c(out, '\n');
        }
    }
}

static void
om_fact_labels(GString *l, sqlite3_stmt *st, int first)
{
    for (size_t i = 0; i < N_FACT_COLS; i++)
        om_label(l, label_facts[i].label, col(st, first + (int)i));
}

static int
export_openmetrics(vdc_store *s, const struct vdc_export_options *o, GString *out, size_t *skipped)
{
    GHashTable *fam[F_COUNT];
    sqlite3_stmt *st = NULL;
    int rc, ret = -1;

    for (int f = 0; f < F_COUNT; f++)
        fam[f] = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, (GDestroyNotify)g_array_unref);
    if (!(st = prepare(s, info_sql, o)))
        goto out;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        g_autoptr(GString) l = g_string_new(NULL);
        double ts = vdc_export_timestamp(col(st, I_DATE));

        if (!isfinite(ts)) {
            (*skipped)++;
            continue;
        }
        om_label(l, "host", col(st, I_HOST));
        om_label(l, "result_sha256", col(st, I_SHA));
        om_label(l, "run_id", col(st, I_RUN));
        om_label(l, "kind", col(st, I_KIND));
        om_label(l, "emulated", emulated_text(st, I_EMU));
        om_fact_labels(l, st, I_FACTS);
        om_add(fam[F_INFO], l->str, ts, 1);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE || !(st = prepare(s, samples_sql, o)))
        goto sql_error;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        g_autoptr(GString) l = g_string_new(NULL);
        double ts = vdc_export_timestamp(col(st, S_DATE)), factor = 1;
        int f = family_of_unit(col(st, S_UNIT), &factor);

        if (!isfinite(ts) || f < 0) {
            (*skipped)++;
            continue;
        }
        om_label(l, "host", col(st, S_HOST));
        om_label(l, "target", col(st, S_TARGET));
        om_label(l, "target_kind", col(st, S_TKIND));
        om_label(l, "test", col(st, S_KEY));
        om_label(l, "emulated", emulated_text(st, S_EMU));
        om_add(fam[f], l->str, ts, sqlite3_column_double(st, S_VALUE) * factor);
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE || !(st = prepare(s, headline_sql, o)))
        goto sql_error;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        g_autoptr(GString) l = g_string_new(NULL);
        double ts = vdc_export_timestamp(col(st, H_DATE));

        if (!isfinite(ts)) {
            (*skipped)++;
            continue;
        }
        om_label(l, "host", col(st, H_HOST));
        om_label(l, "role", col(st, H_ROLE));
        om_label(l, "target", col(st, H_TARGET));
        om_label(l, "reference", col(st, H_REF));
        om_label(l, "test", col(st, H_KEY));
        om_label(l, "emulated", emulated_text(st, H_EMU));
        om_add(fam[F_RATIO], l->str, ts, sqlite3_column_double(st, H_RATIO));
        if (sqlite3_column_type(st, H_LO) != SQLITE_NULL && sqlite3_column_type(st, H_HI) != SQLITE_NULL) {
            om_add(fam[F_LO], l->str, ts, sqlite3_column_double(st, H_LO));
            om_add(fam[F_HI], l->str, ts, sqlite3_column_double(st, H_HI));
        }
    }
    sqlite3_finalize(st);
    st = NULL;
    if (rc != SQLITE_DONE)
        goto sql_error;
    for (int f = 0; f < F_COUNT; f++)
        if (g_hash_table_size(fam[f]))
            om_write_family(out, &om_families[f], fam[f], skipped);
    g_string_append(out, "# EOF\n");
    ret = 0;
    goto out;
 sql_error:
    if (st)
        sqlite3_finalize(st);
    vdc_store_sql_error(vdc_store_path(s), vdc_store_db(s), sqlite3_errcode(vdc_store_db(s)), "read for the export");
 out:
    for (int f = 0; f < F_COUNT; f++)
        g_hash_table_unref(fam[f]);
    return ret;
}

int
vdc_export(vdc_store *s, const struct vdc_export_options *o, GString *out, size_t *skipped)
{
    size_t dummy = 0;

    if (!skipped)
        skipped = &dummy;
    *skipped = 0;
    return o->format == VDC_EXPORT_OPENMETRICS ? export_openmetrics(s, o, out, skipped) :
                                                 export_ndjson(s, o, out, skipped);
}
