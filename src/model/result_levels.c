/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Many guests at once in the result model (result.h): a run's level and
 * guest, experiment.levels[] (its records are in no member table's array:
 * added, freed and copied here). */
#include "config.h"

#include <glib.h>

#include "model/result.h"
#include "model/result_fields.h"
#include "model/result_load.h"

int64_t
vdc_run_level(const vdc_run *r)
{
    return r->level == VDC_INT_ABSENT ? 1 : r->level;
}

int64_t
vdc_run_guest(const vdc_run *r)
{
    return r->guest == VDC_INT_ABSENT ? 0 : r->guest;
}

char *
vdc_run_who(const vdc_run *r)
{
    return g_strdup_printf("%s\n%" G_GINT64_FORMAT "\n%" G_GINT64_FORMAT, r->target ? r->target : "",
                           (gint64)vdc_run_level(r), (gint64)vdc_run_guest(r));
}

vdc_level_record *
vdc_experiment_add_level(vdc_experiment *e)
{
    vdc_level_record *l;

    e->levels = g_renew(vdc_level_record, e->levels, e->n_levels + 1);
    l = &e->levels[e->n_levels++];
    vdc_fields_init(vdc_level_record_fields, l);
    l->host = NULL;
    return l;
}

void
vdc_experiment_levels_dispose(vdc_experiment *e)
{
    size_t i;

    for (i = 0; i < e->n_levels; i++) {
        vdc_fields_dispose(vdc_level_record_fields, &e->levels[i]);
        g_clear_pointer(&e->levels[i].host, json_object_unref);
    }
    g_free(e->levels);
    e->levels = NULL;
    e->n_levels = 0;
}

void
vdc_experiment_levels_copy(vdc_experiment *dst, const vdc_experiment *src)
{
    size_t i;

    for (i = 0; i < src->n_levels; i++) {
        vdc_level_record *l = vdc_experiment_add_level(dst);

        vdc_fields_copy(vdc_level_record_fields, l, &src->levels[i]);
        if (src->levels[i].host)
            l->host = json_object_ref(src->levels[i].host);     /* never changed once loaded */
    }
}

/* result_load.h */
int
vdc_load_levels_check(vdc_load_ctx *c, const vdc_result_set *rs)
{
    const vdc_experiment *e = &rs->experiment;
    GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    GHashTable *named = g_hash_table_new(g_str_hash, g_str_equal);
    gsize s0, s1, s2, s3;
    size_t i;
    int rc = -1;

    /* the targets a level may name: targets[], else (a document without
     * it) the runs' own */
    for (i = 0; i < rs->n_targets; i++)
        g_hash_table_add(named, rs->targets[i]->name);
    for (i = 0; !c->has_targets && i < rs->n_runs; i++)
        g_hash_table_add(named, rs->runs[i]->target);
    vdc_load_path_push(c, "experiment", &s0);
    vdc_load_path_push(c, "levels", &s1);
    for (i = 0; i < e->n_levels; i++) {
        const vdc_level_record *l = &e->levels[i];
        JsonNode *hg = l->host ? json_object_get_member(l->host, "guests") : NULL;
        char *key;
        size_t prev;

        vdc_load_path_push_index(c, (guint)i, &s2);
        if (l->target && !g_hash_table_contains(named, l->target)) {
            vdc_load_path_push(c, "target", &s3);
            vdc_load_fail(c, "\"%s\": expected one of the %s", l->target,
                          c->has_targets ? "targets[] names" : "runs' targets (the document has no targets[])");
            goto out;
        }
        /* loaded and checked by load_host: an integer from 1 to VDC_LEVEL_MAX */
        if (hg && json_node_get_int(hg) != l->guests) {
            vdc_load_path_push(c, "host", &s3);
            vdc_load_path_push(c, "guests", &s3);
            vdc_load_fail(c, "%" G_GINT64_FORMAT ": expected the level's guests, %" G_GINT64_FORMAT
                          " (the host cost of a level sums over each of its guests)",
                          (gint64)json_node_get_int(hg), (gint64)l->guests);
            goto out;
        }
        key = g_strdup_printf("%s\n%" G_GINT64_FORMAT "\n%" G_GINT64_FORMAT, l->target ? l->target : "",
                              (gint64)l->repetition, (gint64)l->guests);
        prev = GPOINTER_TO_SIZE(g_hash_table_lookup(seen, key));
        if (prev) {
            g_free(key);
            vdc_load_fail(c, "duplicate level: target \"%s\" repetition %" G_GINT64_FORMAT " at %"
                          G_GINT64_FORMAT " guests already recorded in experiment.levels[%zu]: expected "
                          "one record per target, repetition and level", l->target ? l->target : "",
                          (gint64)l->repetition, (gint64)l->guests, prev - 1);
            goto out;
        }
        g_hash_table_insert(seen, key, GSIZE_TO_POINTER(i + 1));
        vdc_load_path_pop(c, s2);
    }
    vdc_load_path_pop(c, s0);
    rc = 0;
 out:
    g_hash_table_destroy(seen);
    g_hash_table_destroy(named);
    return rc;
}
