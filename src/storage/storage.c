/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp storage: the kind table, describe(), and the generic entry
 * points (the names are the target description's, model/target.c).  Kinds: image.c, lvm.c, block.c (doc/storage.md). */
#include "config.h"
#include "storage/storage.h"

#include <math.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "storage/storage_kinds.h"

static const struct vdc_storage_ops *const vdc_storage_kinds[] = {
    [VDC_BACKING_IMAGE] = &vdc_storage_image_ops,
    [VDC_BACKING_LVM] = &vdc_storage_lvm_ops,
    [VDC_BACKING_BLOCK] = &vdc_storage_block_ops,
};

void
vdc_storage_init(struct vdc_storage *st)
{
    memset(st, 0, sizeof(*st));
    st->data_percent[0] = st->data_percent[1] = NAN;
    st->metadata_percent[0] = st->metadata_percent[1] = NAN;
    st->thin.zero = -1;
    st->thin.data_percent = st->thin.metadata_percent = NAN;
}

void
vdc_storage_dispose(struct vdc_storage *st)
{
    if (!st)
        return;
    g_free(st->name);
    g_free(st->path);
    g_free(st->device);
    g_free(st->vg);
    g_free(st->lv);
    g_free(st->signature);
    g_free(st->run_tag);
    g_free(st->thin_pool);
    vdc_thin_facts_dispose(&st->thin);
    vdc_qcow2_info_dispose(&st->qcow2);
    memset(st, 0, sizeof(*st));
}

const struct vdc_storage_ops *
vdc_storage_ops_get(vdc_backing backing)
{
    if ((unsigned)backing >= G_N_ELEMENTS(vdc_storage_kinds))
        return NULL;
    return vdc_storage_kinds[backing];
}

/* The ops of @backing for the object named @name, or NULL after one line. */
static const struct vdc_storage_ops *
ops_of(vdc_backing backing, const char *name)
{
    const struct vdc_storage_ops *ops = vdc_storage_ops_get(backing);

    if (!ops)
        vdc_error("storage %s: unknown backing %d", name ? name : "?", (int)backing);
    return ops;
}

int
vdc_storage_check(const struct vdc_storage_spec *spec)
{
    const struct vdc_storage_ops *ops = ops_of(spec->target.backing, spec->name);

    return ops ? ops->check(spec) : -1;
}

int
vdc_storage_create(const struct vdc_storage_spec *spec, struct vdc_storage *out)
{
    const struct vdc_storage_ops *ops = ops_of(spec->target.backing, spec->name);

    return ops ? ops->create(spec, out) : -1;
}

int
vdc_storage_destroy(struct vdc_storage *st)
{
    const struct vdc_storage_ops *ops = ops_of(st->target.backing, st->name);

    return ops ? ops->destroy(st) : -1;
}

/* targets[].storage.qcow2: what was asked (cluster size, preallocation)
 * and what qemu-img read back from the image */
static JsonObject *
qcow2_describe(const struct vdc_storage *st)
{
    const vdc_qcow2_info *q = &st->qcow2;
    JsonObject *o = json_object_new();

    json_object_set_int_member(o, "cluster_size",
                               (gint64)(q->read ? q->cluster_size : st->cluster_size));
    json_object_set_null_member(o, "l2_cache_size");
    json_object_set_string_member(o, "preallocation", vdc_qcow2_preallocation(st->target.alloc));
    if (q->read) {
        json_object_set_int_member(o, "virtual_size", (gint64)q->virtual_size);
        json_object_set_int_member(o, "actual_size", (gint64)q->actual_size);
        if (q->compat)
            json_object_set_string_member(o, "compat", q->compat);
        if (q->lazy_refcounts >= 0)
            json_object_set_boolean_member(o, "lazy_refcounts", q->lazy_refcounts);
        if (q->extended_l2 >= 0)
            json_object_set_boolean_member(o, "extended_l2", q->extended_l2);
        if (q->mapped_read) {
            json_object_set_int_member(o, "mapped_bytes", (gint64)q->mapped_bytes);
            json_object_set_int_member(o, "mapped_zero_bytes", (gint64)q->mapped_zero_bytes);
        }
        json_object_set_string_member(o, "source", "qemu-img info");
    }
    return o;
}

static void
set_percent(JsonArray *a, double v)
{
    if (isfinite(v))
        json_array_add_double_element(a, v);
    else
        json_array_add_null_element(a);
}

/* targets[].storage.thin: the pool as lvm2 reports it (chunk size and
 * zeroing read back; what was asked when it could not be read is not
 * taken for a fact) */
static JsonObject *
thin_describe(const struct vdc_storage *st)
{
    JsonObject *o = json_object_new();
    JsonArray *pct = json_array_new(), *mpct = json_array_new();

    json_object_set_string_member(o, "pool", st->thin_pool);
    if (st->thin_read) {
        json_object_set_int_member(o, "chunk_size", (gint64)st->thin.chunk_size);
        if (st->thin.zero >= 0)
            json_object_set_boolean_member(o, "zeroing", st->thin.zero);
        else
            json_object_set_null_member(o, "zeroing");
        if (st->thin.discards)
            json_object_set_string_member(o, "discards", st->thin.discards);
        json_object_set_int_member(o, "pool_size", (gint64)st->thin.pool_size);
        json_object_set_int_member(o, "metadata_size", (gint64)st->thin.metadata_size);
        json_object_set_string_member(o, "source", "lvs");
    } else {
        json_object_set_null_member(o, "chunk_size");
        json_object_set_null_member(o, "zeroing");
    }
    set_percent(pct, st->data_percent[0]);
    set_percent(pct, st->data_percent[1]);
    json_object_set_array_member(o, "data_percent", pct);
    set_percent(mpct, st->metadata_percent[0]);
    set_percent(mpct, st->metadata_percent[1]);
    json_object_set_array_member(o, "metadata_percent", mpct);
    return o;
}

JsonObject *
vdc_storage_describe(const struct vdc_storage *st)
{
    JsonObject *o = json_object_new();

    if (st->path)
        json_object_set_string_member(o, "path", st->path);
    json_object_set_int_member(o, "size_bytes", (gint64)st->size_bytes);
    switch (st->target.backing) {
    case VDC_BACKING_IMAGE:
        json_object_set_string_member(o, "format",
                                      vdc_target_name(VDC_DIM_IMAGE_FORMAT, st->target.format));
        json_object_set_string_member(o, "alloc", vdc_target_name(VDC_DIM_IMAGE_ALLOC,
                                                                  st->target.alloc));
        if (st->target.format == VDC_IMAGE_QCOW2)
            json_object_set_object_member(o, "qcow2", qcow2_describe(st));
        break;
    case VDC_BACKING_LVM:
        if (st->vg)
            json_object_set_string_member(o, "vg", st->vg);
        if (st->lv)
            json_object_set_string_member(o, "lv", st->lv);
        json_object_set_int_member(o, "stripes", st->stripes ? st->stripes : 1);
        json_object_set_int_member(o, "stripe_size", (gint64)st->stripe_size);
        if (st->pe_start)
            json_object_set_int_member(o, "pe_start", (gint64)st->pe_start);
        else
            json_object_set_null_member(o, "pe_start");
        if (st->device)
            json_object_set_string_member(o, "device", st->device);
        json_object_set_string_member(o, "lv_type", st->thin_pool ? "thin"
                                                    : st->stripes > 1 ? "striped" : "linear");
        if (st->thin_pool)
            json_object_set_object_member(o, "thin", thin_describe(st));
        break;
    case VDC_BACKING_BLOCK:
        if (st->device)
            json_object_set_string_member(o, "device", st->device);
        if (st->signature)
            json_object_set_string_member(o, "signature", st->signature);
        else
            json_object_set_null_member(o, "signature");
        break;
    default:
        break;
    }
    return o;
}

int
vdc_storage_from_journal(vdc_backing backing, const char *path, const char *vg,
                         const char *lv, struct vdc_storage *out)
{
    const char *name = vdc_target_name(VDC_DIM_BACKING, backing);

    vdc_storage_init(out);
    out->target.backing = backing;
    switch (backing) {
    case VDC_BACKING_IMAGE:
        if (!path || path[0] != '/') {
            vdc_error("journal: image entry without an absolute path");
            return -1;
        }
        out->path = g_strdup(path);
        out->name = g_strdup(name);
        out->created = 1;
        return 0;
    case VDC_BACKING_LVM:
        if (vdc_lvm_name_check("VG", vg) < 0 || vdc_lvm_name_check("LV", lv) < 0)
            return -1;
        out->vg = g_strdup(vg);
        out->lv = g_strdup(lv);
        out->path = g_strdup_printf("/dev/%s/%s", vg, lv);
        out->device = g_strdup(out->path);
        out->name = g_strdup(name);
        out->created = 1;
        return 0;
    default:
        vdc_error("journal: storage backing %s is never created, so never destroyed",
                  name ? name : "unknown");
        return -1;
    }
}
