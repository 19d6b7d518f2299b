/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading targets[] of the result model (result.h) from untrusted JSON:
 * the member table, placement ranges, thin pool use, alignment layers;
 * and the target facts the controller fills from its drivers' JSON
 * (backend, storage, cache, hypervisor).  Format: doc/result-format.md. */
#include "config.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "common/util.h"
#include "model/result.h"
#include "model/result_fields.h"
#include "model/result_load.h"
#include "model/target.h"

static int load_thin_percent(vdc_load_ctx *c, JsonObject *storage, const char *name, double pct[2]);

/* One object by its member table, outside a document: messages name
 * WHAT.member. */
static int
load_object(const vdc_field *fields, JsonObject *o, void *obj, const char *what)
{
    vdc_load_ctx c = { .name = what, .path = g_string_new(NULL) };
    int rc = vdc_load_fields(&c, fields, o, obj);

    g_string_free(c.path, TRUE);
    return rc;
}

int
vdc_target_backend_from_json(vdc_target_backend *b, JsonObject *o, const char *what)
{
    return load_object(vdc_backend_fields, o, b, what);
}

/* Member @name of @o when it is an object, else NULL.  Borrowed. */
JsonObject *
vdc_load_object_member(JsonObject *o, const char *name)
{
    JsonNode *n = json_object_get_member(o, name);

    return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

int
vdc_target_storage_from_json(vdc_target_storage *s, JsonObject *o, const char *what)
{
    vdc_load_ctx c = { .name = what, .path = g_string_new(NULL) };
    int rc = vdc_load_fields(&c, vdc_storage_fields, o, s);

    if (rc == 0)
        rc = load_thin_percent(&c, o, "data_percent", s->thin.data_percent);
    if (rc == 0)
        rc = load_thin_percent(&c, o, "metadata_percent", s->thin.metadata_percent);
    g_string_free(c.path, TRUE);
    return rc;
}

int
vdc_target_variant_from_json(vdc_target_variant *v, JsonObject *o, const char *what)
{
    return load_object(vdc_variant_fields, o, v, what);
}

int
vdc_target_cache_from_json(vdc_target_cache *c, JsonObject *o, const char *what)
{
    return load_object(vdc_cache_fields, o, c, what);
}

int
vdc_hypervisor_info_from_json(vdc_hypervisor_info *h, JsonObject *o, const char *what)
{
    return load_object(vdc_hypervisor_fields, o, h, what);
}

/* An integer member's bounds: the int64_t at @off of its struct is
 * VDC_INT_ABSENT or from @lo to @hi */
typedef struct {
    const char *member;      /* its JSON name */
    size_t off;
    int64_t lo, hi;
} int_range;

/* The first of the @n bounds @r that @obj's member breaks (present and
 * outside them; its value in *@v), or NULL when all hold */
static const int_range *
out_of_range(const void *obj, const int_range *r, size_t n, int64_t *v)
{
    size_t i;

    for (i = 0; i < n; i++) {
        *v = *(const int64_t *)(const void *)((const char *)obj + r[i].off);
        if (*v != VDC_INT_ABSENT && (*v < r[i].lo || *v > r[i].hi))
            return &r[i];
    }
    return NULL;
}

/* "targets[i].backend": Xen ring orders within what a ring can be (the
 * ring's grant references in one page: order at most 16, as the report
 * computes 2^order pages), queue counts 1 to 4096 (blkback caps them at
 * dom0's CPUs, virtio-blk at 1024), and a
 * XenbusState a state (0-8, xen/io/xenbus.h) */
static int
check_rings(vdc_load_ctx *c, const vdc_target_backend *b)
{
    static const int_range r[] = {
        { "ring_page_order", offsetof(vdc_target_backend, ring_page_order), 0, 16 },
        { "max_ring_page_order", offsetof(vdc_target_backend, max_ring_page_order), 0, 16 },
        { "queues", offsetof(vdc_target_backend, queues), 1, 4096 },
        { "max_queues", offsetof(vdc_target_backend, max_queues), 1, 4096 },
        { "frontend_state", offsetof(vdc_target_backend, frontend_state), 0, 8 },
    };
    const int_range *bad;
    int64_t v;

    if ((bad = out_of_range(b, r, G_N_ELEMENTS(r), &v)))
        return vdc_load_fail(c, "backend.%s: expected %" G_GINT64_FORMAT " to %" G_GINT64_FORMAT
                             ", found %" G_GINT64_FORMAT, bad->member, (gint64)bad->lo,
                             (gint64)bad->hi, (gint64)v);
    return 0;
}

/* "targets[i].placement.ranges": at most VDC_PLACEMENT_RANGES_MAX pairs
 * [start, length] of integers >= 0 */
static int
load_placement_ranges(vdc_load_ctx *c, JsonObject *target, vdc_target_placement *pl)
{
    JsonNode *n = json_object_get_member(target, "placement");
    JsonArray *a;
    gsize saved, s2;
    guint i, len;

    if (!n || !JSON_NODE_HOLDS_OBJECT(n) ||
        !(n = json_object_get_member(json_node_get_object(n), "ranges")))
        return 0;
    vdc_load_path_push(c, "placement.ranges", &saved);
    if (!JSON_NODE_HOLDS_ARRAY(n))
        return vdc_load_fail(c, "expected an array of [start, length]");
    a = json_node_get_array(n);
    len = json_array_get_length(a);
    if (len > VDC_PLACEMENT_RANGES_MAX)
        return vdc_load_fail(c, "expected at most %d ranges, found %u", VDC_PLACEMENT_RANGES_MAX, len);
    pl->ranges = g_new0(int64_t, 2 * (size_t)len + 1);
    for (i = 0; i < len; i++) {
        JsonNode *e = json_array_get_element(a, i);
        JsonArray *p;
        guint k;

        vdc_load_path_push_index(c, i, &s2);
        if (!JSON_NODE_HOLDS_ARRAY(e) || json_array_get_length(p = json_node_get_array(e)) != 2)
            return vdc_load_fail(c, "expected [start, length]");
        for (k = 0; k < 2; k++) {
            JsonNode *v = json_array_get_element(p, k);

            if (!vdc_load_is_number(v) || json_node_get_value_type(v) != G_TYPE_INT64 ||
                json_node_get_int(v) < 0)
                return vdc_load_fail(c, "expected [start, length] as integers >= 0 (bytes)");
            pl->ranges[2 * i + k] = json_node_get_int(v);
        }
        vdc_load_path_pop(c, s2);
    }
    pl->n_ranges = len;
    vdc_load_path_pop(c, saved);
    return 0;
}

/* "targets[i].storage.thin.@name" (data_percent, metadata_percent):
 * [before, after], each a number from 0 to 100 (%) or null, into @pct;
 * absent: left unknown */
static int
load_thin_percent(vdc_load_ctx *c, JsonObject *storage, const char *name, double pct[2])
{
    JsonNode *n = storage ? json_object_get_member(storage, "thin") : NULL;
    g_autofree char *path = g_strdup_printf("storage.thin.%s", name);
    JsonArray *a;
    gsize saved;
    guint i;

    if (!n || !JSON_NODE_HOLDS_OBJECT(n) || !(n = json_object_get_member(json_node_get_object(n), name)))
        return 0;
    vdc_load_path_push(c, path, &saved);
    if (!JSON_NODE_HOLDS_ARRAY(n) || json_array_get_length(a = json_node_get_array(n)) != 2)
        return vdc_load_fail(c, "expected [before, after]");
    for (i = 0; i < 2; i++) {
        JsonNode *v = json_array_get_element(a, i);
        double d;

        if (JSON_NODE_HOLDS_NULL(v))
            continue;
        if (!vdc_load_is_number(v) || !isfinite(d = json_node_get_double(v)) || d < 0 || d > 100)
            return vdc_load_fail(c, "expected [before, after] as numbers from 0 to 100 (%%) or null");
        pct[i] = d;
    }
    vdc_load_path_pop(c, saved);
    return 0;
}

/* 1 when @name is one of VDC_ALIGN_LAYER_NAMES */
static int
align_layer_known(const char *name)
{
    g_auto(GStrv) names = g_strsplit(VDC_ALIGN_LAYER_NAMES, "|", -1);

    return g_strv_contains((const char *const *)names, name);
}

/* "targets[i].alignment.layers" (at most VDC_TARGET_ALIGN_LAYERS_MAX of
 * {layer, offset, size, why}) and "misaligned" (names of layers that
 * have a why) */
static int
load_alignment_layers(vdc_load_ctx *c, JsonObject *target, vdc_target_alignment *al)
{
    static const vdc_field layer_fields[] = {
        F(VDC_F_STR, vdc_target_align_layer, layer, "layer", VDC_FF_REQUIRED),
        F(VDC_F_INT, vdc_target_align_layer, offset, "offset", NN | VDC_FF_NULLABLE),
        F(VDC_F_INT, vdc_target_align_layer, size, "size", NN),
        F(VDC_F_STR, vdc_target_align_layer, why, "why", 0),
        END
    };
    JsonNode *n = json_object_get_member(target, "alignment"), *m;
    JsonObject *o;
    JsonArray *a;
    gsize saved, s2;
    guint i, len;

    if (!n || !JSON_NODE_HOLDS_OBJECT(n))
        return 0;
    o = json_node_get_object(n);
    if ((m = json_object_get_member(o, "layers"))) {
        vdc_load_path_push(c, "alignment.layers", &saved);
        if (!JSON_NODE_HOLDS_ARRAY(m))
            return vdc_load_fail(c, "expected an array of {layer, offset, size}");
        a = json_node_get_array(m);
        if ((len = json_array_get_length(a)) > VDC_TARGET_ALIGN_LAYERS_MAX)
            return vdc_load_fail(c, "expected at most %d layers, found %u", VDC_TARGET_ALIGN_LAYERS_MAX, len);
        for (i = 0; i < len; i++) {
            JsonNode *e = json_array_get_element(a, i);
            vdc_target_align_layer *l = &al->layers[al->n_layers];

            vdc_load_path_push_index(c, i, &s2);
            if (!JSON_NODE_HOLDS_OBJECT(e))
                return vdc_load_fail(c, "expected an object {layer, offset, size}");
            l->offset = l->size = VDC_INT_ABSENT;
            al->n_layers++;
            if (vdc_load_fields(c, layer_fields, json_node_get_object(e), l) < 0)
                return -1;
            if (!align_layer_known(l->layer))
                return vdc_load_fail(c, "layer: expected one of %s", VDC_ALIGN_LAYER_NAMES);
            vdc_load_path_pop(c, s2);
        }
        vdc_load_path_pop(c, saved);
    }
    if ((m = json_object_get_member(o, "misaligned"))) {
        vdc_load_path_push(c, "alignment.misaligned", &saved);
        if (!JSON_NODE_HOLDS_ARRAY(m))
            return vdc_load_fail(c, "expected an array of layer names");
        a = json_node_get_array(m);
        for (i = 0, len = json_array_get_length(a); i < len; i++) {
            JsonNode *e = json_array_get_element(a, i);
            const char *name = JSON_NODE_HOLDS_VALUE(e) && json_node_get_value_type(e) == G_TYPE_STRING
                               ? json_node_get_string(e) : NULL;
            size_t k;

            for (k = 0; name && k < al->n_layers && strcmp(al->layers[k].layer, name); k++)
                ;
            if (!name || k == al->n_layers)
                return vdc_load_fail(c, "[%u]: expected the name of one of alignment.layers", i);
            if (!al->layers[k].why)
                al->layers[k].why = g_strdup_printf("%s misaligned (no numbers recorded)", name);
        }
        vdc_load_path_pop(c, saved);
    }
    return 0;
}

/* "targets[i].variant": each name one of its dimension's (model/target.c,
 * the table the plan's options take), iothreads and fill_percent in their
 * dimension's range, lv_type only on an LV and image_format only on an
 * image (by targets[i].kind) */
static int
check_variant(vdc_load_ctx *c, const vdc_target *t)
{
    static const struct { vdc_target_dim dim; size_t off; const char *member; } names[] = {
        { VDC_DIM_IMAGE_FORMAT, offsetof(vdc_target_variant, image_format), "image_format" },
        { VDC_DIM_IMAGE_ALLOC, offsetof(vdc_target_variant, image_alloc), "image_alloc" },
        { VDC_DIM_IMAGE_BACKEND, offsetof(vdc_target_variant, image_backend), "image_backend" },
        { VDC_DIM_IMAGE_CACHE, offsetof(vdc_target_variant, image_cache), "image_cache" },
        { VDC_DIM_DISK_CACHE, offsetof(vdc_target_variant, disk_cache), "disk_cache" },
        { VDC_DIM_DISK_IO, offsetof(vdc_target_variant, disk_io), "disk_io" },
        { VDC_DIM_DISK_BUS, offsetof(vdc_target_variant, disk_bus), "disk_bus" },
        { VDC_DIM_LV_TYPE, offsetof(vdc_target_variant, lv_type), "lv_type" },
    };
    /* the numeric dimensions' numbers, 0 to their maximum (model/target.h) */
    static const int_range counts[] = {
        { "iothreads", offsetof(vdc_target_variant, iothreads), 0, VDC_IOTHREADS_MAX },
        { "fill_percent", offsetof(vdc_target_variant, fill_percent), 0, VDC_FILL_PERCENT_MAX },
    };
    const vdc_target_variant *v = &t->variant;
    const int_range *bad;
    vdc_target_spec spec = { 0 };
    gsize saved;
    size_t i;
    int64_t k;

    vdc_load_path_push(c, "variant", &saved);
    for (i = 0; i < G_N_ELEMENTS(names); i++) {
        const char *name = *(char *const *)((const char *)v + names[i].off);
        g_autofree char *choices = NULL;

        if (!name || vdc_target_parse(names[i].dim, name) >= 0)
            continue;
        choices = vdc_target_choices(names[i].dim, ", ");
        return vdc_load_fail(c, "%s: \"%s\": expected one of %s", names[i].member, name, choices);
    }
    if ((bad = out_of_range(v, counts, G_N_ELEMENTS(counts), &k)))
        return vdc_load_fail(c, "%s: %" G_GINT64_FORMAT ": expected an integer from %" G_GINT64_FORMAT
                             " to %" G_GINT64_FORMAT, bad->member, (gint64)k, (gint64)bad->lo,
                             (gint64)bad->hi);
    if (vdc_target_kind_parse(t->kind, &spec) == 0 && spec.where == VDC_WHERE_DOMU) {
        if (v->lv_type && spec.backing != VDC_BACKING_LVM)
            return vdc_load_fail(c, "lv_type: expected only on an LV target (kind lvm), not kind %s", t->kind);
        if (v->image_format && spec.backing != VDC_BACKING_IMAGE)
            return vdc_load_fail(c, "image_format: expected only on an image target (kind image), not kind %s",
                                 t->kind);
    }
    vdc_load_path_pop(c, saved);
    return 0;
}

int
vdc_load_target(vdc_load_ctx *c, JsonNode *n, vdc_result_set *rs)
{
    vdc_target tmp;
    vdc_target *t;
    int rc = -1;

    if (!JSON_NODE_HOLDS_OBJECT(n))
        return vdc_load_fail(c, "expected an object");
    vdc_target_init(&tmp);
    if (vdc_load_fields(c, vdc_target_fields, json_node_get_object(n), &tmp) < 0 ||
        load_placement_ranges(c, json_node_get_object(n), &tmp.placement) < 0 ||
        load_thin_percent(c, vdc_load_object_member(json_node_get_object(n), "storage"), "data_percent",
                          tmp.storage.thin.data_percent) < 0 ||
        load_thin_percent(c, vdc_load_object_member(json_node_get_object(n), "storage"),
                          "metadata_percent", tmp.storage.thin.metadata_percent) < 0 ||
        load_alignment_layers(c, json_node_get_object(n), &tmp.alignment) < 0 ||
        check_variant(c, &tmp) < 0 || check_rings(c, &tmp.backend) < 0)
        goto out;
    if (!*tmp.name) {
        vdc_load_fail(c, "name: expected a non-empty string");
        goto out;
    }
    if (!vdc_target_name_ok(tmp.name)) {
        vdc_load_fail(c, "name: expected printable text of at most %d bytes (no control characters)",
                  VDC_TARGET_NAME_MAX);
        goto out;
    }
    if (vdc_result_set_find_target(rs, tmp.name)) {
        vdc_load_fail(c, "name: duplicate target \"%s\"", tmp.name);
        goto out;
    }
    t = vdc_result_set_add_target(rs, tmp.name);
    vdc_target_copy(t, &tmp);
    rc = 0;
 out:
    vdc_target_dispose(&tmp);
    return rc;
}

