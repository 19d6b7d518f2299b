/* vmdiskcmp storage: the kind table, names, describe(), and the generic
 * entry points.  Kinds: image.c, lvm.c, block.c (doc/storage.md). */
#include "config.h"
#include "storage/storage.h"

#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "storage/storage_kinds.h"

static const struct vdc_storage_ops *const vdc_storage_kinds[VDC_STORAGE_KIND_LAST] = {
    [VDC_STORAGE_IMAGE] = &vdc_storage_image_ops,
    [VDC_STORAGE_LVM] = &vdc_storage_lvm_ops,
    [VDC_STORAGE_BLOCK] = &vdc_storage_block_ops,
};

static const char *const kind_names[VDC_STORAGE_KIND_LAST] = {
    [VDC_STORAGE_IMAGE] = "image",
    [VDC_STORAGE_LVM] = "lvm",
    [VDC_STORAGE_BLOCK] = "block",
};
static const char *const format_names[] = {
    [VDC_IMAGE_RAW] = "raw",
    [VDC_IMAGE_QCOW2] = "qcow2",
};
static const char *const alloc_names[] = {
    [VDC_IMAGE_SPARSE] = "sparse",
    [VDC_IMAGE_FALLOC] = "falloc",
    [VDC_IMAGE_FULL] = "full",
};

void
vdc_storage_init(struct vdc_storage *st)
{
    memset(st, 0, sizeof(*st));
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
    memset(st, 0, sizeof(*st));
}

const struct vdc_storage_ops *
vdc_storage_ops_get(enum vdc_storage_kind kind)
{
    if ((unsigned)kind >= VDC_STORAGE_KIND_LAST)
        return NULL;
    return vdc_storage_kinds[kind];
}

static int
lookup(const char *const *names, size_t n, const char *s, int *out)
{
    size_t i;

    if (!s)
        return -1;
    for (i = 0; i < n; i++)
        if (names[i] && !strcmp(names[i], s)) {
            *out = (int)i;
            return 0;
        }
    return -1;
}

const char *
vdc_storage_kind_name(enum vdc_storage_kind kind)
{
    return (unsigned)kind < VDC_STORAGE_KIND_LAST ? kind_names[kind] : "unknown";
}

const char *
vdc_image_format_name(enum vdc_image_format f)
{
    return (unsigned)f < G_N_ELEMENTS(format_names) ? format_names[f] : "unknown";
}

const char *
vdc_image_alloc_name(enum vdc_image_alloc a)
{
    return (unsigned)a < G_N_ELEMENTS(alloc_names) ? alloc_names[a] : "unknown";
}

int
vdc_storage_kind_from_name(const char *s, enum vdc_storage_kind *out)
{
    int i;

    if (lookup(kind_names, G_N_ELEMENTS(kind_names), s, &i) < 0)
        return -1;
    *out = (enum vdc_storage_kind)i;
    return 0;
}

int
vdc_image_format_from_name(const char *s, enum vdc_image_format *out)
{
    int i;

    if (lookup(format_names, G_N_ELEMENTS(format_names), s, &i) < 0)
        return -1;
    *out = (enum vdc_image_format)i;
    return 0;
}

int
vdc_image_alloc_from_name(const char *s, enum vdc_image_alloc *out)
{
    int i;

    if (lookup(alloc_names, G_N_ELEMENTS(alloc_names), s, &i) < 0)
        return -1;
    *out = (enum vdc_image_alloc)i;
    return 0;
}

int
vdc_storage_check(const struct vdc_storage_spec *spec)
{
    const struct vdc_storage_ops *ops = vdc_storage_ops_get(spec->kind);

    if (!ops) {
        vdc_error("storage %s: unknown kind %d", spec->name ? spec->name : "?", (int)spec->kind);
        return -1;
    }
    return ops->check(spec);
}

int
vdc_storage_create(const struct vdc_storage_spec *spec, struct vdc_storage *out)
{
    const struct vdc_storage_ops *ops = vdc_storage_ops_get(spec->kind);

    if (!ops) {
        vdc_error("storage %s: unknown kind %d", spec->name ? spec->name : "?", (int)spec->kind);
        return -1;
    }
    return ops->create(spec, out);
}

int
vdc_storage_destroy(struct vdc_storage *st)
{
    const struct vdc_storage_ops *ops = vdc_storage_ops_get(st->kind);

    if (!ops) {
        vdc_error("storage %s: unknown kind %d", st->name ? st->name : "?", (int)st->kind);
        return -1;
    }
    return ops->destroy(st);
}

JsonObject *
vdc_storage_describe(const struct vdc_storage *st)
{
    JsonObject *o = json_object_new();

    if (st->path)
        json_object_set_string_member(o, "path", st->path);
    json_object_set_int_member(o, "size_bytes", (gint64)st->size_bytes);
    switch (st->kind) {
    case VDC_STORAGE_IMAGE:
        json_object_set_string_member(o, "format", vdc_image_format_name(st->format));
        json_object_set_string_member(o, "alloc", st->format == VDC_IMAGE_QCOW2 ? "sparse" :
                                      vdc_image_alloc_name(st->alloc));
        break;
    case VDC_STORAGE_LVM:
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
        break;
    case VDC_STORAGE_BLOCK:
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
vdc_storage_from_journal(enum vdc_storage_kind kind, const char *path, const char *vg,
                         const char *lv, struct vdc_storage *out)
{
    vdc_storage_init(out);
    out->kind = kind;
    switch (kind) {
    case VDC_STORAGE_IMAGE:
        if (!path || path[0] != '/') {
            vdc_error("journal: image entry without an absolute path");
            return -1;
        }
        out->path = g_strdup(path);
        out->name = g_strdup("image");
        out->created = 1;
        return 0;
    case VDC_STORAGE_LVM:
        if (vdc_lvm_name_check("VG", vg) < 0 || vdc_lvm_name_check("LV", lv) < 0)
            return -1;
        out->vg = g_strdup(vg);
        out->lv = g_strdup(lv);
        out->path = g_strdup_printf("/dev/%s/%s", vg, lv);
        out->device = g_strdup(out->path);
        out->name = g_strdup("lvm");
        out->created = 1;
        return 0;
    default:
        vdc_error("journal: storage kind %s is never created, so never destroyed",
                  vdc_storage_kind_name(kind));
        return -1;
    }
}
