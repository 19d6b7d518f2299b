/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The target description's one table of names (target.h). */
#include "config.h"
#include "model/target.h"

#include <string.h>

#include <glib.h>

/* Every name a target's enums have, wherever they are written: plan.json,
 * the undo journal, result.json, --dry-run and messages.  Rows of a
 * dimension are in the enum's order (choices print in it). */
static const struct {
    vdc_target_dim dim;
    int value;
    const char *name;
} names[] = {
    { VDC_DIM_WHERE, VDC_WHERE_DOMU, "domU" },
    { VDC_DIM_WHERE, VDC_WHERE_DOM0, "dom0" },
    { VDC_DIM_BACKING, VDC_BACKING_IMAGE, "image" },
    { VDC_DIM_BACKING, VDC_BACKING_LVM, "lvm" },
    { VDC_DIM_BACKING, VDC_BACKING_BLOCK, "block" },
    { VDC_DIM_IMAGE_FORMAT, VDC_IMAGE_RAW, "raw" },
    { VDC_DIM_IMAGE_FORMAT, VDC_IMAGE_QCOW2, "qcow2" },
    { VDC_DIM_IMAGE_ALLOC, VDC_IMAGE_SPARSE, "sparse" },
    { VDC_DIM_IMAGE_ALLOC, VDC_IMAGE_FALLOC, "falloc" },
    { VDC_DIM_IMAGE_ALLOC, VDC_IMAGE_FULL, "full" },
    { VDC_DIM_IMAGE_BACKEND, VDC_BACKEND_AUTO, "auto" },
    { VDC_DIM_IMAGE_BACKEND, VDC_BACKEND_PHY, "phy" },
    { VDC_DIM_IMAGE_BACKEND, VDC_BACKEND_QDISK, "qdisk" },
    { VDC_DIM_IMAGE_BACKEND, VDC_BACKEND_TAP, "tap" },
    { VDC_DIM_IMAGE_CACHE, VDC_IMAGE_CACHE_HOST, "host" },
    { VDC_DIM_IMAGE_CACHE, VDC_IMAGE_CACHE_NONE, "none" },
};

const char *
vdc_target_name(vdc_target_dim dim, int value)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(names); i++)
        if (names[i].dim == dim && names[i].value == value)
            return names[i].name;
    return NULL;
}

int
vdc_target_parse(vdc_target_dim dim, const char *name)
{
    size_t i;

    for (i = 0; name && i < G_N_ELEMENTS(names); i++)
        if (names[i].dim == dim && !strcmp(names[i].name, name))
            return names[i].value;
    return -1;
}

char *
vdc_target_choices(vdc_target_dim dim, const char *sep)
{
    GString *s = g_string_new(NULL);
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(names); i++)
        if (names[i].dim == dim)
            g_string_append_printf(s, "%s%s", s->len ? sep : "", names[i].name);
    return g_string_free(s, FALSE);
}

static const char *const dim_keys[VDC_DIM_COUNT] = {
    [VDC_DIM_WHERE] = "where",
    [VDC_DIM_BACKING] = "backing",
    [VDC_DIM_IMAGE_FORMAT] = "format",
    [VDC_DIM_IMAGE_ALLOC] = "alloc",
    [VDC_DIM_IMAGE_BACKEND] = "image_backend",
    [VDC_DIM_IMAGE_CACHE] = "image_cache",
};

const char *
vdc_target_dim_key(vdc_target_dim dim)
{
    return (unsigned)dim < VDC_DIM_COUNT ? dim_keys[dim] : NULL;
}

int
vdc_target_spec_get(const vdc_target_spec *s, vdc_target_dim dim)
{
    switch (dim) {
    case VDC_DIM_WHERE: return s->where;
    case VDC_DIM_BACKING: return s->backing;
    case VDC_DIM_IMAGE_FORMAT: return s->format;
    case VDC_DIM_IMAGE_ALLOC: return s->alloc;
    case VDC_DIM_IMAGE_BACKEND: return s->backend;
    case VDC_DIM_IMAGE_CACHE: return s->cache;
    case VDC_DIM_COUNT: break;
    }
    return -1;
}

void
vdc_target_spec_set(vdc_target_spec *s, vdc_target_dim dim, int value)
{
    switch (dim) {
    case VDC_DIM_WHERE: s->where = value; break;
    case VDC_DIM_BACKING: s->backing = value; break;
    case VDC_DIM_IMAGE_FORMAT: s->format = value; break;
    case VDC_DIM_IMAGE_ALLOC: s->alloc = value; break;
    case VDC_DIM_IMAGE_BACKEND: s->backend = value; break;
    case VDC_DIM_IMAGE_CACHE: s->cache = value; break;
    case VDC_DIM_COUNT: break;
    }
}

const char *
vdc_target_spec_kind(const vdc_target_spec *s)
{
    return s->where == VDC_WHERE_DOM0 ? vdc_target_name(VDC_DIM_WHERE, VDC_WHERE_DOM0)
                                      : vdc_target_name(VDC_DIM_BACKING, s->backing);
}

int
vdc_target_kind_parse(const char *kind, vdc_target_spec *s)
{
    int backing;

    if (vdc_target_parse(VDC_DIM_WHERE, kind) == VDC_WHERE_DOM0) {
        s->where = VDC_WHERE_DOM0;
        return 0;
    }
    backing = vdc_target_parse(VDC_DIM_BACKING, kind);
    if (backing < 0)
        return -1;
    s->where = VDC_WHERE_DOMU;
    s->backing = backing;
    return 0;
}

int
vdc_target_spec_domu_image(const vdc_target_spec *s)
{
    return s->where == VDC_WHERE_DOMU && s->backing == VDC_BACKING_IMAGE;
}
