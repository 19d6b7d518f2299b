/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Many guests at once in the result model (result.h): a run's level and
 * guest, experiment.levels[] (its records are in no member table's array:
 * added, freed and copied here). */
#include "config.h"

#include <glib.h>

#include "model/result.h"
#include "model/result_fields.h"

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
