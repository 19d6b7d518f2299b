/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Writing the result model (result.h): the document as a JSON tree driven
 * by the member tables of result_fields.h, and as text through the one
 * JSON writer (json_writer.c), read back by the loader before it is
 * saved. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "common/util.h"
#include "model/result.h"
#include "model/result_fields.h"

/* ---- Writing ------------------------------------------------------------------ */

static JsonObject *
save_fields(const vdc_field *fields, const void *obj)
{
    JsonObject *o = json_object_new();
    const vdc_field *f;
    const char *p;

    for (f = fields; f->name; f++) {
        p = (const char *)obj + f->off;
        switch (f->type) {
        case VDC_F_STR: {
            const char *s = *(char *const *)p;

            if (s)
                json_object_set_string_member(o, f->name, s);
            else if (f->flags & VDC_FF_WRITE_NULL)
                json_object_set_null_member(o, f->name);
            break;
        }
        case VDC_F_INT:
            if (*(const int64_t *)p != VDC_INT_ABSENT)
                json_object_set_int_member(o, f->name, *(const int64_t *)p);
            break;
        case VDC_F_NUM: {
            double d = *(const double *)p;

            if (!vdc_has(d)) {
                if (f->flags & VDC_FF_WRITE_NULL)
                    json_object_set_null_member(o, f->name);
            } else if (d == floor(d) && fabs(d) < 9007199254740992.0) {
                /* integral values print as integers: 6065, not 6065.0 */
                json_object_set_int_member(o, f->name, (gint64)d);
            } else {
                json_object_set_double_member(o, f->name, d);
            }
            break;
        }
        case VDC_F_BOOL:
            if (*(const int *)p != VDC_BOOL_ABSENT)
                json_object_set_boolean_member(o, f->name, *(const int *)p != 0);
            break;
        case VDC_F_FLAG:
            json_object_set_boolean_member(o, f->name, *(const int *)p != 0);
            break;
        case VDC_F_OBJ: {
            JsonObject *sub = save_fields(f->sub, p);

            if (json_object_get_size(sub))
                json_object_set_object_member(o, f->name, sub);
            else
                json_object_unref(sub);
            break;
        }
        }
    }
    return o;
}

/* Member @name of @o as an object: the one the field table wrote, or a
 * new empty one set there.  Borrowed. */
static JsonObject *
member_object(JsonObject *o, const char *name)
{
    JsonObject *m;

    if (json_object_has_member(o, name))
        return json_object_get_object_member(o, name);
    m = json_object_new();
    json_object_set_object_member(o, name, m);
    return m;
}

/* The experiment object, with runs_policy.stop and levels from their
 * records. */
static JsonObject *
experiment_json(const vdc_experiment *e)
{
    JsonObject *o = save_fields(vdc_experiment_fields, e), *rp;
    JsonArray *stop;
    size_t i;

    if (e->n_levels) {
        JsonArray *levels = json_array_new();

        for (i = 0; i < e->n_levels; i++) {
            JsonObject *l = save_fields(vdc_level_record_fields, &e->levels[i]);

            if (e->levels[i].host)
                json_object_set_object_member(l, "host", json_object_ref(e->levels[i].host));
            json_array_add_object_element(levels, l);
        }
        json_object_set_array_member(o, "levels", levels);
    }
    if (!e->runs_policy.n_stop)
        return o;
    rp = member_object(o, "runs_policy");
    stop = json_array_new();
    for (i = 0; i < e->runs_policy.n_stop; i++)
        json_array_add_object_element(stop, save_fields(vdc_stop_record_fields, &e->runs_policy.stop[i]));
    json_object_set_array_member(rp, "stop", stop);
    return o;
}

/* A sample's object, with its workload (iops_series.values by hand). */
static JsonObject *
sample_json(const vdc_sample *s)
{
    JsonObject *o = save_fields(vdc_sample_fields, s), *w, *series;
    JsonArray *values;
    size_t i;

    if (s->host)
        json_object_set_object_member(o, "host", json_object_ref(s->host));
    if (!s->workload)
        return o;
    w = save_fields(vdc_workload_fields, s->workload);
    if (s->workload->iops_values) {
        series = member_object(w, "iops_series");
        values = json_array_new();
        for (i = 0; i < s->workload->n_iops_values; i++)
            json_array_add_double_element(values, s->workload->iops_values[i]);
        json_object_set_array_member(series, "values", values);
    }
    json_object_set_object_member(o, "workload", w);
    return o;
}

/* [before, after] of a thin pool's use (%), null when unknown */
static JsonArray *
percent_pair(const double pct[2])
{
    JsonArray *a = json_array_new();
    size_t i;

    for (i = 0; i < 2; i++)
        if (isnan(pct[i]))
            json_array_add_null_element(a);
        else
            json_array_add_double_element(a, pct[i]);
    return a;
}

/* storage.thin.data_percent and metadata_percent, and alignment's layers
 * and misaligned of @t into its object @o */
static void
target_arrays_json(JsonObject *o, const vdc_target *t)
{
    size_t i;

    if (t->storage.thin.pool) {
        JsonObject *st = member_object(o, "storage"), *th = member_object(st, "thin");

        json_object_set_array_member(th, "data_percent", percent_pair(t->storage.thin.data_percent));
        /* absent where no use of the metadata was ever read (results
         * written before it was recorded read back the same) */
        if (!isnan(t->storage.thin.metadata_percent[0]) || !isnan(t->storage.thin.metadata_percent[1]))
            json_object_set_array_member(th, "metadata_percent",
                                         percent_pair(t->storage.thin.metadata_percent));
    }
    if (t->alignment.n_layers) {
        JsonObject *al = member_object(o, "alignment");
        JsonArray *layers = json_array_new(), *mis = json_array_new();

        for (i = 0; i < t->alignment.n_layers; i++) {
            const vdc_target_align_layer *l = &t->alignment.layers[i];
            JsonObject *lo = json_object_new();

            json_object_set_string_member(lo, "layer", l->layer);
            if (l->offset != VDC_INT_ABSENT)
                json_object_set_int_member(lo, "offset", l->offset);
            if (l->size != VDC_INT_ABSENT)
                json_object_set_int_member(lo, "size", l->size);
            if (l->why) {
                json_object_set_string_member(lo, "why", l->why);
                json_array_add_string_element(mis, l->layer);
            }
            json_array_add_object_element(layers, lo);
        }
        json_object_set_array_member(al, "layers", layers);
        json_object_set_array_member(al, "misaligned", mis);
    }
}

/* A target's object, with placement.ranges from its pairs. */
static JsonObject *
target_json(const vdc_target *t)
{
    JsonObject *o = save_fields(vdc_target_fields, t), *pl;
    JsonArray *ranges;
    size_t i;

    target_arrays_json(o, t);
    if (!t->placement.n_ranges)
        return o;
    pl = member_object(o, "placement");
    ranges = json_array_new();
    for (i = 0; i < t->placement.n_ranges; i++) {
        JsonArray *r = json_array_new();

        json_array_add_int_element(r, t->placement.ranges[2 * i]);
        json_array_add_int_element(r, t->placement.ranges[2 * i + 1]);
        json_array_add_array_element(ranges, r);
    }
    json_object_set_array_member(pl, "ranges", ranges);
    return o;
}

int
vdc_result_set_format_version(const vdc_result_set *rs)
{
    size_t i, j;

    for (i = 0; i < rs->n_runs; i++)
        for (j = 0; j < rs->runs[i]->n_samples; j++) {
            const vdc_test_info *ti = vdc_test_lookup(rs->runs[i]->samples[j]->test);

            if (ti && ti->workload)
                return 2;
        }
    return 1;
}

JsonNode *
vdc_result_set_to_json(const vdc_result_set *rs)
{
    JsonObject *top = json_object_new();
    JsonObject *prod = json_object_new();
    JsonArray *targets, *runs;
    JsonNode *root;
    size_t i, j;

    json_object_set_string_member(top, "format", VDC_RESULT_FORMAT);
    json_object_set_int_member(top, "format_version", vdc_result_set_format_version(rs));
    json_object_set_string_member(prod, "name", rs->producer_name ? rs->producer_name : "vmdiskcmp");
    json_object_set_string_member(prod, "version",
                                  rs->producer_version ? rs->producer_version : PACKAGE_VERSION);
    json_object_set_object_member(top, "producer", prod);
    if (rs->has_experiment)
        json_object_set_object_member(top, "experiment", experiment_json(&rs->experiment));
    if (rs->n_targets) {
        /* a document with targets[] declares every run's target (the
         * loader refuses a run naming an undeclared one): a run's target
         * without a record (e.g. a step that failed before its target was
         * described) is written by name only */
        GHashTable *named = g_hash_table_new(g_str_hash, g_str_equal);

        targets = json_array_new();
        for (i = 0; i < rs->n_targets; i++) {
            json_array_add_object_element(targets, target_json(rs->targets[i]));
            g_hash_table_add(named, rs->targets[i]->name);
        }
        for (i = 0; i < rs->n_runs; i++) {
            char *name = rs->runs[i]->target;
            JsonObject *o;

            if (!name || g_hash_table_contains(named, name))
                continue;
            g_hash_table_add(named, name);
            o = json_object_new();
            json_object_set_string_member(o, "name", name);
            json_array_add_object_element(targets, o);
        }
        g_hash_table_destroy(named);
        json_object_set_array_member(top, "targets", targets);
    }
    runs = json_array_new();
    for (i = 0; i < rs->n_runs; i++) {
        JsonObject *ro = save_fields(vdc_run_fields, rs->runs[i]);
        JsonArray *samples = json_array_new();

        if (!json_object_has_member(ro, "metadata"))
            json_object_set_object_member(ro, "metadata", json_object_new());
        for (j = 0; j < rs->runs[i]->n_samples; j++)
            json_array_add_object_element(samples, sample_json(rs->runs[i]->samples[j]));
        if (rs->runs[i]->host)
            json_object_set_object_member(ro, "host", json_object_ref(rs->runs[i]->host));
        json_object_set_array_member(ro, "samples", samples);
        json_array_add_object_element(runs, ro);
    }
    json_object_set_array_member(top, "runs", runs);
    root = json_node_new(JSON_NODE_OBJECT);
    json_node_take_object(root, top);
    return root;
}

char *
vdc_result_set_to_string(const vdc_result_set *rs, size_t *len)
{
    JsonNode *root = vdc_result_set_to_json(rs);
    char *out = vdc_json_to_string(root, len);

    json_node_unref(root);
    return out;
}

int
vdc_result_set_save(const vdc_result_set *rs, const char *path)
{
    size_t len;
    char *s = vdc_result_set_to_string(rs, &len);
    int rc = 0;

    /* one rule: what we write is what we read */
    {
        g_autofree char *name = g_strdup_printf("%s (as it would be written)", path);
        vdc_result_set back;

        vdc_result_set_init(&back);
        rc = vdc_result_set_load_data(&back, s, len, name);
        vdc_result_set_dispose(&back);
        if (rc < 0) {
            vdc_error("result %s: not written: vmdiskcmp would refuse to read it back "
                      "(the message above)", path);
            g_free(s);
            return -1;
        }
    }
    if (!strcmp(path, "-")) {
        if (fwrite(s, 1, len, stdout) != len || fflush(stdout) != 0) {
            vdc_error("cannot write the result to standard output");
            rc = -1;
        }
    } else {
        rc = vdc_write_file_atomic(path, s, len);
    }
    g_free(s);
    return rc;
}
