/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading the result model from JSON (result.h): untrusted input, every
 * error names its JSON path; driven by the member tables of
 * result_fields.h.  Format: doc/result-format.md, version 2 (version 1
 * plus workload samples, whose object's table is result_workload.c). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "common/util.h"
#include "model/result.h"
#include "model/result_fields.h"
#include "model/result_load.h"

/* ---- Loading ---------------------------------------------------------------- */

int
vdc_load_fail(vdc_load_ctx *c, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    vdc_error("%s: %s: %s", c->name, c->path->len ? c->path->str : "(top level)", msg);
    g_free(msg);
    return -1;
}

void
vdc_load_path_push(vdc_load_ctx *c, const char *member, gsize *saved)
{
    *saved = c->path->len;
    if (c->path->len)
        g_string_append_c(c->path, '.');
    g_string_append(c->path, member);
}

void
vdc_load_path_push_index(vdc_load_ctx *c, guint i, gsize *saved)
{
    *saved = c->path->len;
    g_string_append_printf(c->path, "[%u]", i);
}

void
vdc_load_path_pop(vdc_load_ctx *c, gsize saved)
{
    g_string_truncate(c->path, saved);
}

int
vdc_load_is_number(JsonNode *n)
{
    GType t;

    if (!JSON_NODE_HOLDS_VALUE(n))
        return 0;
    t = json_node_get_value_type(n);
    return t == G_TYPE_INT64 || t == G_TYPE_DOUBLE;
}


/* A string member: at most @max bytes (a 100 MB hostname would be copied
 * into every report), stored in *@dst. */
int
vdc_load_string(vdc_load_ctx *c, const char *s, size_t max, char **dst)
{
    size_t len = strlen(s);

    if (len > max)
        return vdc_load_fail(c, "expected a string of at most %zu bytes, found %zu bytes", max, len);
    vdc_set_str(dst, s);
    return 0;
}

static int
load_field(vdc_load_ctx *c, const vdc_field *f, JsonNode *n, void *obj)
{
    char *p = (char *)obj + f->off;

    if (JSON_NODE_HOLDS_NULL(n)) {
        if (f->flags & VDC_FF_NULLABLE)
            return 0;
        return vdc_load_fail(c, "expected %s, not null",
                         f->type == VDC_F_STR ? "a string" :
                         f->type == VDC_F_OBJ ? "an object" :
                         f->type == VDC_F_BOOL || f->type == VDC_F_FLAG ? "a boolean" :
                         f->type == VDC_F_INT ? "an integer" : "a number");
    }
    switch (f->type) {
    case VDC_F_STR:
        if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING)
            return vdc_load_fail(c, "expected a string%s",
                             f->flags & VDC_FF_NULLABLE ? " or null" : "");
        return vdc_load_string(c, json_node_get_string(n),
                           f->flags & VDC_FF_LONG ? VDC_RESULT_LONG_STRING_MAX : VDC_RESULT_STRING_MAX,
                           (char **)p);
    case VDC_F_INT: {
        double d;

        if (!vdc_load_is_number(n))
            return vdc_load_fail(c, "expected an integer");
        if (json_node_get_value_type(n) == G_TYPE_INT64) {
            *(int64_t *)p = json_node_get_int(n);
        } else {
            d = json_node_get_double(n);
            /* 512.0 is fine; 2^63 and above, and fractions, are not */
            if (d != floor(d) || d < -9.2e18 || d > 9.2e18)
                return vdc_load_fail(c, "expected an integer");
            *(int64_t *)p = (int64_t)d;
        }
        if ((f->flags & VDC_FF_NONNEG) && *(int64_t *)p < 0)
            return vdc_load_fail(c, "expected an integer >= 0");
        /* an integer with a physical bound (FMAX: bytes) */
        if (f->max > 0 && ((double)*(int64_t *)p > f->max || (double)*(int64_t *)p < -f->max))
            return vdc_load_fail(c, "expected an integer of magnitude at most %g", f->max);
        return 0;
    }
    case VDC_F_NUM: {
        double d;

        if (!vdc_load_is_number(n))
            return vdc_load_fail(c, "expected a number%s",
                             f->flags & VDC_FF_NULLABLE ? " or null" : "");
        d = json_node_get_value_type(n) == G_TYPE_INT64 ? (double)json_node_get_int(n)
                                                         : json_node_get_double(n);
        if (!isfinite(d) || ((f->flags & VDC_FF_NONNEG) && d < 0))
            return vdc_load_fail(c, "expected a finite number >= 0");
        /* a physical bound: no quantity of the model is near DBL_MAX, and
         * a value there would overflow every sum and chart axis */
        if (fabs(d) > (f->max > 0 ? f->max : VDC_NUMBER_MAX))
            return vdc_load_fail(c, "%g: expected a number of magnitude at most %g", d,
                             f->max > 0 ? f->max : VDC_NUMBER_MAX);
        *(double *)p = d;
        return 0;
    }
    case VDC_F_BOOL:
    case VDC_F_FLAG:
        if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_BOOLEAN)
            return vdc_load_fail(c, "expected a boolean");
        *(int *)p = json_node_get_boolean(n) ? 1 : 0;
        return 0;
    case VDC_F_OBJ:
        if (!JSON_NODE_HOLDS_OBJECT(n))
            return vdc_load_fail(c, "expected an object");
        return vdc_load_fields(c, f->sub, json_node_get_object(n), p);
    }
    return vdc_load_fail(c, "internal: unknown member type");
}

int
vdc_load_fields(vdc_load_ctx *c, const vdc_field *fields, JsonObject *o, void *obj)
{
    const vdc_field *f;

    for (f = fields; f->name; f++) {
        JsonNode *n = json_object_get_member(o, f->name);
        gsize saved;
        int rc;

        vdc_load_path_push(c, f->name, &saved);
        if (!n) {
            rc = (f->flags & VDC_FF_REQUIRED) ? vdc_load_fail(c, "missing") : 0;
        } else {
            rc = load_field(c, f, n, obj);
        }
        vdc_load_path_pop(c, saved);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* "runs[i].samples[j].workload" of a workload sample @s: the member
 * table, iops_series.values by hand, then the limits */
static int
load_workload(vdc_load_ctx *c, JsonObject *sample, vdc_sample *s)
{
    JsonNode *n = json_object_get_member(sample, "workload"), *v;
    const char *member = NULL;
    char *why = NULL;
    gsize saved, s2;
    int rc;

    vdc_load_path_push(c, "workload", &saved);
    if (c->version < 2)
        return vdc_load_fail(c, "%s samples need format_version 2, found %" G_GINT64_FORMAT,
                         s->test, (gint64)c->version);
    if (!n)
        return vdc_load_fail(c, "missing (required for %s)", s->test);
    if (!JSON_NODE_HOLDS_OBJECT(n))
        return vdc_load_fail(c, "expected an object");
    s->workload = vdc_workload_new();
    if (vdc_load_fields(c, vdc_workload_fields, json_node_get_object(n), s->workload) < 0)
        return -1;
    v = json_object_get_member(json_node_get_object(n), "iops_series");
    if (v && JSON_NODE_HOLDS_OBJECT(v) && (v = json_object_get_member(json_node_get_object(v), "values"))) {
        JsonArray *a;
        guint i, len;

        vdc_load_path_push(c, "iops_series.values", &s2);
        if (!JSON_NODE_HOLDS_ARRAY(v))
            return vdc_load_fail(c, "expected an array of numbers");
        a = json_node_get_array(v);
        len = json_array_get_length(a);
        if (len > VDC_WORKLOAD_SERIES_MAX)
            return vdc_load_fail(c, "expected at most %d values, found %u", VDC_WORKLOAD_SERIES_MAX, len);
        s->workload->iops_values = g_new(double, len ? len : 1);
        for (i = 0; i < len; i++) {
            JsonNode *e = json_array_get_element(a, i);
            double d;

            if (!vdc_load_is_number(e)) {
                vdc_load_path_push_index(c, i, &s2);
                return vdc_load_fail(c, "expected a number");
            }
            d = json_node_get_value_type(e) == G_TYPE_INT64 ? (double)json_node_get_int(e)
                                                             : json_node_get_double(e);
            s->workload->iops_values[s->workload->n_iops_values++] = d;
        }
        vdc_load_path_pop(c, s2);
    }
    if (vdc_workload_check(s->workload, &member, &why) < 0) {
        vdc_load_path_push(c, member, &s2);
        rc = vdc_load_fail(c, "%s", why);
        g_free(why);
        return rc;
    }
    vdc_load_path_pop(c, saved);
    return 0;
}

/* "runs[i].samples[j]": fields, then the test id and its block size */
/* the optional "host" member of a run (@sample 0) or sample: an object,
 * kept as it is; a sample's checked by vdc_host_check */
static int
load_host(vdc_load_ctx *c, JsonObject *o, JsonObject **dst, int sample)
{
    JsonNode *h = json_object_get_member(o, "host");
    g_autofree char *why = NULL;
    gsize saved;

    if (!h)
        return 0;
    vdc_load_path_push(c, "host", &saved);
    if (!JSON_NODE_HOLDS_OBJECT(h))
        return vdc_load_fail(c, "expected an object");
    if (sample && (why = vdc_host_check(json_node_get_object(h))))
        return vdc_load_fail(c, "%s", why);
    vdc_load_path_pop(c, saved);
    *dst = json_object_ref(json_node_get_object(h));
    return 0;
}

static int
load_sample(vdc_load_ctx *c, JsonNode *n, vdc_run *r)
{
    const vdc_test_info *ti;
    vdc_sample *s;
    gsize saved;

    if (!JSON_NODE_HOLDS_OBJECT(n))
        return vdc_load_fail(c, "expected an object");
    s = vdc_run_add_sample(r, "");
    if (vdc_load_fields(c, vdc_sample_fields, json_node_get_object(n), s) < 0)
        return -1;
    if (s->pass && (!*s->pass || strlen(s->pass) > 31 ||
                    strspn(s->pass, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(s->pass))) {
        vdc_load_path_push(c, "pass", &saved);
        return vdc_load_fail(c, "expected 1-31 of [a-z0-9-] (e.g. first-write)");
    }
    ti = vdc_test_lookup(s->test);
    vdc_load_path_push(c, "test", &saved);
    if (!ti) {
        char *q = g_strescape(s->test, NULL);
        GString *ids = g_string_new(NULL);
        int i, rc;

        /* "putc, put_block, ... or dd_copy": the ids of the test table */
        for (i = 0; i < VDC_TEST_COUNT; i++)
            g_string_append_printf(ids, "%s%s", i == 0 ? "" : i + 1 == VDC_TEST_COUNT ? " or " : ", ",
                                   vdc_tests[i].name);
        rc = vdc_load_fail(c, "unknown test id \"%s\": expected %s", q, ids->str);
        g_string_free(ids, TRUE);
        g_free(q);
        return rc;
    }
    vdc_load_path_pop(c, saved);
    if (ti->sweep && (s->block_size == VDC_INT_ABSENT || s->block_size <= 0)) {
        vdc_load_path_push(c, "block_size", &saved);
        return vdc_load_fail(c, "expected an integer > 0 (required for %s)", ti->name);
    }
    if (ti->workload && load_workload(c, json_node_get_object(n), s) < 0)
        return -1;
    if (load_host(c, json_node_get_object(n), &s->host, 1) < 0)
        return -1;
    if (!s->unit) {
        vdc_set_str(&s->unit, ti->unit);
    } else if (strcmp(s->unit, ti->unit)) {
        /* every producer writes the test table's unit: another one would
         * be pooled and compared with it as if it were the same */
        char *q = g_strescape(s->unit, NULL);
        int rc;

        vdc_load_path_push(c, "unit", &saved);
        rc = vdc_load_fail(c, "\"%s\": expected \"%s\", the unit of %s", q, ti->unit, ti->name);
        g_free(q);
        return rc;
    }
    {
        g_autofree char *why = vdc_sample_bounds_check(s);

        if (why)
            return vdc_load_fail(c, "%s", why);
    }
    return 0;
}

/* runs[i].level and guest: a level of 1 to VDC_LEVEL_MAX guests, a guest
 * below its level (absent: level 1, guest 0) */
static int
load_run_level(vdc_load_ctx *c, vdc_run *r)
{
    gsize saved;

    if (r->level != VDC_INT_ABSENT && (r->level < 1 || r->level > VDC_LEVEL_MAX)) {
        vdc_load_path_push(c, "level", &saved);
        return vdc_load_fail(c, "expected an integer from 1 to %d", VDC_LEVEL_MAX);
    }
    if (vdc_run_guest(r) >= vdc_run_level(r)) {
        vdc_load_path_push(c, "guest", &saved);
        return vdc_load_fail(c, "expected an integer from 0 to %" G_GINT64_FORMAT " (level - 1)",
                         (gint64)vdc_run_level(r) - 1);
    }
    return 0;
}

static int
load_run(vdc_load_ctx *c, JsonNode *n, vdc_result_set *rs)
{
    JsonObject *o;
    JsonNode *samples;
    JsonArray *a;
    vdc_run *r;
    gsize saved;
    guint i;
    size_t k;

    if (!JSON_NODE_HOLDS_OBJECT(n))
        return vdc_load_fail(c, "expected an object");
    o = json_node_get_object(n);
    r = vdc_result_set_append_run(rs);
    if (vdc_load_fields(c, vdc_run_fields, o, r) < 0)
        return -1;
    if (!*r->target) {
        vdc_load_path_push(c, "target", &saved);
        return vdc_load_fail(c, "expected a non-empty string");
    }
    if (!vdc_target_name_ok(r->target)) {
        vdc_load_path_push(c, "target", &saved);
        return vdc_load_fail(c, "expected printable text of at most %d bytes (no control characters)",
                         VDC_TARGET_NAME_MAX);
    }
    /* a document that declares its targets declares them all; without
     * targets[] (agent answers, older documents) a run's name is its own */
    if (c->has_targets && !vdc_result_set_find_target(rs, r->target)) {
        vdc_load_path_push(c, "target", &saved);
        return vdc_load_fail(c, "\"%s\": expected one of the targets[] names", r->target);
    }
    if (!r->status) {
        vdc_set_str(&r->status, "ok");
    } else if (strcmp(r->status, "ok") && strcmp(r->status, "failed") &&
               strcmp(r->status, "timeout")) {
        vdc_load_path_push(c, "status", &saved);
        return vdc_load_fail(c, "expected \"ok\", \"failed\" or \"timeout\"");
    }
    if (load_run_level(c, r) < 0)
        return -1;
    /* hash tables, not scans: a hostile document may hold many runs */
    {
        char *who = vdc_run_who(r);

        k = GPOINTER_TO_SIZE(g_hash_table_lookup(c->reps, who));
        if (r->repetition == VDC_INT_ABSENT)
            r->repetition = (int64_t)k;   /* its index among the runs of its target (level, guest) */
        g_hash_table_replace(c->reps, who, GSIZE_TO_POINTER(k + 1));
    }
    {
        char *key = g_strdup_printf("%s\n%" G_GINT64_FORMAT "\n%" G_GINT64_FORMAT "\n%" G_GINT64_FORMAT,
                                    r->target, (gint64)r->repetition, (gint64)vdc_run_level(r),
                                    (gint64)vdc_run_guest(r));
        size_t prev = GPOINTER_TO_SIZE(g_hash_table_lookup(c->seen, key));

        if (prev) {
            g_free(key);
            if (r->level == VDC_INT_ABSENT && r->guest == VDC_INT_ABSENT)
                return vdc_load_fail(c, "duplicate run: target \"%s\" repetition %" G_GINT64_FORMAT
                                 " already seen in runs[%zu]", r->target,
                                 (gint64)r->repetition, prev - 1);
            return vdc_load_fail(c, "duplicate run: target \"%s\" repetition %" G_GINT64_FORMAT
                             " level %" G_GINT64_FORMAT " guest %" G_GINT64_FORMAT
                             " already seen in runs[%zu]", r->target, (gint64)r->repetition,
                             (gint64)vdc_run_level(r), (gint64)vdc_run_guest(r), prev - 1);
        }
        g_hash_table_insert(c->seen, key, GSIZE_TO_POINTER(rs->n_runs));
    }
    if (load_host(c, o, &r->host, 0) < 0)
        return -1;
    samples = json_object_get_member(o, "samples");
    vdc_load_path_push(c, "samples", &saved);
    if (!samples)
        return vdc_load_fail(c, "missing");
    if (!JSON_NODE_HOLDS_ARRAY(samples))
        return vdc_load_fail(c, "expected an array");
    a = json_node_get_array(samples);
    {
        /* one sample per test (and block size) per run: a second one
         * would count as one more run in the statistics */
        GHashTable *tests = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        int rc = 0;

        for (i = 0; i < json_array_get_length(a) && rc == 0; i++) {
            gsize s2;
            const vdc_sample *sm;
            char *key;

            vdc_load_path_push_index(c, i, &s2);
            if (load_sample(c, json_array_get_element(a, i), r) < 0) {
                rc = -1;
                break;
            }
            sm = r->samples[r->n_samples - 1];
            key = sm->workload ? vdc_sample_key(sm)
                  : g_strdup_printf("%s\n%" G_GINT64_FORMAT "\n%s", sm->test,
                                    (gint64)sm->block_size, sm->pass ? sm->pass : "");
            if (g_hash_table_contains(tests, key)) {
                char bs[48] = "";

                if (sm->workload)
                    snprintf(bs, sizeof(bs), " (job %.30s)", sm->workload->name);
                else if (sm->block_size != VDC_INT_ABSENT)
                    snprintf(bs, sizeof(bs), " (block size %" G_GINT64_FORMAT ")", (gint64)sm->block_size);
                rc = vdc_load_fail(c, "duplicate sample: test %s%s%s%s already measured in this run",
                               sm->test, bs, sm->pass ? " pass " : "", sm->pass ? sm->pass : "");
                g_free(key);
                break;
            }
            g_hash_table_add(tests, key);
            vdc_load_path_pop(c, s2);
        }
        g_hash_table_destroy(tests);
        if (rc < 0)
            return -1;
    }
    vdc_load_path_pop(c, saved);
    return 0;
}

/* Member @member of @top, an array of at most @max entries (0: no limit),
 * each loaded by @fn */
static int
load_array(vdc_load_ctx *c, JsonObject *top, const char *member, int required, guint max,
           int (*fn)(vdc_load_ctx *, JsonNode *, vdc_result_set *), vdc_result_set *rs)
{
    JsonNode *n = json_object_get_member(top, member);
    JsonArray *a;
    gsize saved, s2;
    guint i;

    vdc_load_path_push(c, member, &saved);
    if (!n) {
        if (required)
            return vdc_load_fail(c, "missing");
        vdc_load_path_pop(c, saved);
        return 0;
    }
    if (!JSON_NODE_HOLDS_ARRAY(n))
        return vdc_load_fail(c, "expected an array");
    a = json_node_get_array(n);
    if (max && json_array_get_length(a) > max)
        return vdc_load_fail(c, "%u: expected at most %u", json_array_get_length(a), max);
    for (i = 0; i < json_array_get_length(a); i++) {
        vdc_load_path_push_index(c, i, &s2);
        if (fn(c, json_array_get_element(a, i), rs) < 0)
            return -1;
        vdc_load_path_pop(c, s2);
    }
    vdc_load_path_pop(c, saved);
    return 0;
}

/* "experiment.runs_policy.stop[i]": one stop record; its strings are
 * printed in every report, so they must be one line each */
static int
load_stop(vdc_load_ctx *c, JsonNode *n, vdc_result_set *rs)
{
    vdc_stop_record *r;
    const char *const *strs[4];
    static const char *const names[] = { "test", "target", "reference", "reason" };
    gsize saved;
    size_t i;

    if (!JSON_NODE_HOLDS_OBJECT(n))
        return vdc_load_fail(c, "expected an object");
    r = vdc_runs_policy_add_stop(&rs->experiment.runs_policy, NULL);
    if (vdc_load_fields(c, vdc_stop_record_fields, json_node_get_object(n), r) < 0)
        return -1;
    strs[0] = (const char *const *)&r->test;
    strs[1] = (const char *const *)&r->target;
    strs[2] = (const char *const *)&r->reference;
    strs[3] = (const char *const *)&r->reason;
    for (i = 0; i < G_N_ELEMENTS(names); i++) {
        if (!*strs[i] || vdc_target_name_ok(*strs[i]))
            continue;
        vdc_load_path_push(c, names[i], &saved);
        return vdc_load_fail(c, "expected a one-line string of 1 to %d bytes (no control characters)",
                         VDC_TARGET_NAME_MAX);
    }
    return 0;
}

/* "experiment.levels[i]": one level of many guests for one target and
 * repetition; its strings are printed in reports, one line each */
static int
load_level(vdc_load_ctx *c, JsonNode *n, vdc_result_set *rs)
{
    vdc_level_record *l;
    JsonObject *o;
    gsize saved;

    if (!JSON_NODE_HOLDS_OBJECT(n))
        return vdc_load_fail(c, "expected an object");
    o = json_node_get_object(n);
    l = vdc_experiment_add_level(&rs->experiment);
    if (vdc_load_fields(c, vdc_level_record_fields, o, l) < 0)
        return -1;
    if (l->guests < 1 || l->guests > VDC_LEVEL_MAX) {
        vdc_load_path_push(c, "guests", &saved);
        return vdc_load_fail(c, "expected an integer from 1 to %d", VDC_LEVEL_MAX);
    }
    if (l->target && !vdc_target_name_ok(l->target)) {
        vdc_load_path_push(c, "target", &saved);
        return vdc_load_fail(c, "expected printable text of at most %d bytes (no control characters)",
                         VDC_TARGET_NAME_MAX);
    }
    if (l->status && strcmp(l->status, "ok") && strcmp(l->status, "failed") &&
        strcmp(l->status, "timeout")) {
        vdc_load_path_push(c, "status", &saved);
        return vdc_load_fail(c, "expected \"ok\", \"failed\" or \"timeout\"");
    }
    if (l->error && strpbrk(l->error, "\n\r")) {
        vdc_load_path_push(c, "error", &saved);
        return vdc_load_fail(c, "expected one line");
    }
    return load_host(c, o, &l->host, 1);
}

/* experiment.runs_policy.stop, when @exp (the experiment object) has one */
static int
load_runs_policy_stop(vdc_load_ctx *c, JsonObject *exp, vdc_result_set *rs)
{
    JsonNode *n = json_object_get_member(exp, "runs_policy");
    gsize saved;
    int rc;

    if (!n || !JSON_NODE_HOLDS_OBJECT(n))
        return 0;   /* absent; a wrong type was refused with the other members */
    vdc_load_path_push(c, "runs_policy", &saved);
    rc = load_array(c, json_node_get_object(n), "stop", 0, 0, load_stop, rs);
    vdc_load_path_pop(c, saved);
    return rc;
}

static int
load_top(vdc_load_ctx *c, JsonNode *root, vdc_result_set *rs)
{
    JsonObject *top;
    JsonNode *n;
    gsize saved;
    int64_t version;

    if (!JSON_NODE_HOLDS_OBJECT(root))
        return vdc_load_fail(c, "expected an object");
    top = json_node_get_object(root);

    n = json_object_get_member(top, "format");
    vdc_load_path_push(c, "format", &saved);
    if (!n)
        return vdc_load_fail(c, "missing");
    if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING ||
        strcmp(json_node_get_string(n), VDC_RESULT_FORMAT))
        return vdc_load_fail(c, "expected \"%s\"", VDC_RESULT_FORMAT);
    vdc_load_path_pop(c, saved);

    n = json_object_get_member(top, "format_version");
    vdc_load_path_push(c, "format_version", &saved);
    if (!n)
        return vdc_load_fail(c, "missing");
    if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64)
        return vdc_load_fail(c, "expected an integer");
    version = json_node_get_int(n);
    if (version < 1)
        return vdc_load_fail(c, "expected an integer >= 1");
    if (version > VDC_RESULT_FORMAT_VERSION)
        return vdc_load_fail(c, "expected %d or lower, found %" G_GINT64_FORMAT
                         " (written by a newer vmdiskcmp)",
                         VDC_RESULT_FORMAT_VERSION, (gint64)version);
    c->version = version;
    vdc_load_path_pop(c, saved);

    n = json_object_get_member(top, "producer");
    vdc_load_path_push(c, "producer", &saved);
    if (!n)
        return vdc_load_fail(c, "missing");
    if (!JSON_NODE_HOLDS_OBJECT(n))
        return vdc_load_fail(c, "expected an object");
    {
        JsonObject *p = json_node_get_object(n);
        const char *names[] = { "name", "version" };
        char **dst[] = { &rs->producer_name, &rs->producer_version };
        int i;

        for (i = 0; i < 2; i++) {
            JsonNode *m = json_object_get_member(p, names[i]);
            gsize s2;

            vdc_load_path_push(c, names[i], &s2);
            if (!m)
                return vdc_load_fail(c, "missing");
            if (!JSON_NODE_HOLDS_VALUE(m) || json_node_get_value_type(m) != G_TYPE_STRING)
                return vdc_load_fail(c, "expected a string");
            if (vdc_load_string(c, json_node_get_string(m), VDC_RESULT_STRING_MAX, dst[i]) < 0)
                return -1;
            vdc_load_path_pop(c, s2);
        }
    }
    vdc_load_path_pop(c, saved);

    n = json_object_get_member(top, "experiment");
    if (n) {
        vdc_load_path_push(c, "experiment", &saved);
        if (!JSON_NODE_HOLDS_OBJECT(n))
            return vdc_load_fail(c, "expected an object");
        if (vdc_load_fields(c, vdc_experiment_fields, json_node_get_object(n), &rs->experiment) < 0 ||
            load_runs_policy_stop(c, json_node_get_object(n), rs) < 0 ||
            load_array(c, json_node_get_object(n), "levels", 0, 0, load_level, rs) < 0)
            return -1;
        rs->has_experiment = 1;
        vdc_load_path_pop(c, saved);
    }
    c->has_targets = json_object_has_member(top, "targets");
    if (load_array(c, top, "targets", 0, VDC_RESULT_TARGETS_MAX, vdc_load_target, rs) < 0)
        return -1;
    if (load_array(c, top, "runs", 1, VDC_RESULT_RUNS_MAX, load_run, rs) < 0)
        return -1;
    return vdc_load_levels_check(c, rs);
}


/* json-glib's parser recurses once per nesting level: a document of
 * 200 000 '[' overflowed the stack (segfault).  A result document is about
 * 6 levels deep; refuse more than VDC_JSON_MAX_DEPTH before parsing.
 * And a string whose JSON text is longer than VDC_JSON_MAX_STRING_TEXT
 * bytes decodes to more than VDC_RESULT_LONG_STRING_MAX bytes (an escape
 * of 6 bytes gives at least 1): refused before the parser copies it (a
 * 100 MB hostname cost 640 MB), whatever member holds it.  And text
 * after the document's closing bracket is refused: json-glib keeps the
 * first of two concatenated documents and drops the second silently; and
 * a string holding \u0000, which would end the C string there.
 * 0, or -1 after vdc_error naming the line. */
#define VDC_JSON_MAX_DEPTH 64
#define VDC_JSON_MAX_STRING_TEXT (6u * VDC_RESULT_LONG_STRING_MAX)

static int
json_too_deep(const char *data, size_t len, const vdc_load_ctx *c)
{
    size_t i, depth = 0, start = 0;
    unsigned line = 1;
    int in_string = 0, closed = 0;

    for (i = 0; i < len; i++) {
        char ch = data[i];

        if (ch == '\n')
            line++;
        if (closed && !g_ascii_isspace(ch)) {
            vdc_error("%s:%u: text after the JSON document: expected one document and the end of "
                      "the file", c->name, line);
            return -1;
        }
        if (in_string) {
            if (ch == '\\' && i + 5 < len && !memcmp(data + i + 1, "u0000", 5)) {
                /* json-glib decodes it and the C string ends there: a name
                 * "rand\u0000read" would be read as "rand" */
                vdc_error("%s:%u: a JSON string holding \\u0000: expected text without NUL",
                          c->name, line);
                return -1;
            }
            if (ch == '\\')
                i++;
            else if (ch == '"')
                in_string = 0;
            if (in_string && i - start > VDC_JSON_MAX_STRING_TEXT) {
                vdc_error("%s:%u: a JSON string of more than %u bytes: expected strings of at "
                          "most %d bytes (%d for command lines)", c->name, line,
                          VDC_JSON_MAX_STRING_TEXT, VDC_RESULT_STRING_MAX,
                          VDC_RESULT_LONG_STRING_MAX);
                return -1;
            }
        } else if (ch == '"') {
            in_string = 1;
            start = i;
        } else if (ch == '[' || ch == '{') {
            if (++depth > VDC_JSON_MAX_DEPTH) {
                vdc_error("%s:%u: JSON nested deeper than %d levels: expected a result document",
                          c->name, line, VDC_JSON_MAX_DEPTH);
                return -1;
            }
        } else if ((ch == ']' || ch == '}') && depth) {
            closed = --depth == 0;
        }
    }
    return 0;
}

/* result.h */
char *
vdc_json_error_text(const GError *err, unsigned *line, unsigned *col)
{
    const char *m = err->message, *q;
    GString *out = g_string_new(NULL);
    int off = 0;

    *line = *col = 0;
    /* json-glib says "<data>:LINE:COL: Parse error: ..." */
    if (sscanf(m, "<data>:%u:%u: %n", line, col, &off) == 2 && off > 0)
        m += off;
    else
        *line = *col = 0;
    /* its tokens are quoted `like this': leave them out, and the blank
     * before them */
    while ((q = strchr(m, '`'))) {
        const char *end = strchr(q + 1, '\'');

        if (!end)
            break;
        g_string_append_len(out, m, q - m);
        while (out->len && out->str[out->len - 1] == ' ')
            g_string_truncate(out, out->len - 1);
        m = end + 1;
    }
    g_string_append(out, m);
    return g_string_free(out, FALSE);
}

int
vdc_json_depth_ok(const char *data, size_t len, const char *name)
{
    vdc_load_ctx c = { .name = name };

    return json_too_deep(data, len, &c) == 0;
}

int
vdc_result_set_load_data(vdc_result_set *rs, const char *data, size_t len,
                         const char *name)
{
    JsonParser *parser = json_parser_new_immutable();
    GError *err = NULL;
    vdc_load_ctx c = { .name = name ? name : "(buffer)", .path = g_string_new(NULL),
                   .reps = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL),
                   .seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL) };
    int rc = -1;

    if (len > G_MAXSSIZE) {
        vdc_error("%s: input too large", c.name);
        goto out;
    }
    if (memchr(data, '\0', len)) {
        vdc_error("%s: expected a JSON document, found a NUL byte (binary data?)", c.name);
        goto out;
    }
    if (json_too_deep(data, len, &c) < 0)
        goto out;
    if (!json_parser_load_from_data(parser, data, (gssize)len, &err)) {
        unsigned line = 0, col = 0;
        g_autofree char *why = vdc_json_error_text(err, &line, &col);

        if (line)
            vdc_error("%s:%u:%u: invalid JSON: %s", c.name, line, col, why);
        else
            vdc_error("%s: invalid JSON: %s", c.name, why);
        g_error_free(err);
        goto out;
    }
    if (!json_parser_get_root(parser)) {
        vdc_error("%s: empty: expected a JSON result document", c.name);
        goto out;
    }
    rc = load_top(&c, json_parser_get_root(parser), rs);
 out:
    if (rc < 0) {
        vdc_result_set_dispose(rs);
        vdc_result_set_init(rs);
    }
    g_string_free(c.path, TRUE);
    g_hash_table_destroy(c.reps);
    g_hash_table_destroy(c.seen);
    g_object_unref(parser);
    return rc;
}

int
vdc_result_set_load_file(vdc_result_set *rs, const char *path)
{
    char *data = NULL;
    size_t len = 0;
    int rc;

    if (vdc_read_input(path, &data, &len) < 0)
        return -1;
    if (!strcmp(path, "-"))
        path = "(stdin)";
    rc = vdc_result_set_load_data(rs, data, len, path);
    g_free(data);
    return rc;
}
