/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The target description's one table of names (target.h). */
#include "config.h"
#include "model/target.h"

#include <stdlib.h>
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
    { VDC_DIM_IMAGE_ALLOC, VDC_IMAGE_METADATA, "metadata" },
    { VDC_DIM_IMAGE_BACKEND, VDC_BACKEND_AUTO, "auto" },
    { VDC_DIM_IMAGE_BACKEND, VDC_BACKEND_PHY, "phy" },
    { VDC_DIM_IMAGE_BACKEND, VDC_BACKEND_QDISK, "qdisk" },
    { VDC_DIM_IMAGE_BACKEND, VDC_BACKEND_TAP, "tap" },
    { VDC_DIM_IMAGE_CACHE, VDC_IMAGE_CACHE_HOST, "host" },
    { VDC_DIM_IMAGE_CACHE, VDC_IMAGE_CACHE_NONE, "none" },
    { VDC_DIM_DISK_CACHE, VDC_DISK_CACHE_DEFAULT, "default" },
    { VDC_DIM_DISK_CACHE, VDC_DISK_CACHE_NONE, "none" },
    { VDC_DIM_DISK_CACHE, VDC_DISK_CACHE_WRITEBACK, "writeback" },
    { VDC_DIM_DISK_CACHE, VDC_DISK_CACHE_DIRECTSYNC, "directsync" },
    { VDC_DIM_DISK_CACHE, VDC_DISK_CACHE_WRITETHROUGH, "writethrough" },
    { VDC_DIM_DISK_IO, VDC_DISK_IO_DEFAULT, "default" },
    { VDC_DIM_DISK_IO, VDC_DISK_IO_NATIVE, "native" },
    { VDC_DIM_DISK_IO, VDC_DISK_IO_IO_URING, "io_uring" },
    { VDC_DIM_DISK_IO, VDC_DISK_IO_THREADS, "threads" },
    { VDC_DIM_IOTHREADS, 0, "default" },   /* the numbers: numeric[] below */
    { VDC_DIM_DISK_BUS, VDC_DISK_BUS_DEFAULT, "default" },
    { VDC_DIM_DISK_BUS, VDC_DISK_BUS_VIRTIO_BLK, "virtio-blk" },
    { VDC_DIM_DISK_BUS, VDC_DISK_BUS_VIRTIO_SCSI, "virtio-scsi" },
    { VDC_DIM_LV_TYPE, VDC_LV_LINEAR, "linear" },
    { VDC_DIM_LV_TYPE, VDC_LV_STRIPED, "striped" },
    { VDC_DIM_LV_TYPE, VDC_LV_THIN, "thin" },
    { VDC_DIM_FILL, 0, "default" },        /* the numbers: numeric[] below */
    { VDC_DIM_PRECONDITION, VDC_PRECONDITION_OFF, "off" },
    { VDC_DIM_PRECONDITION, VDC_PRECONDITION_ON, "on" },
};

/* Numeric dimensions: value 0 is "not given" (named above), value v in
 * 1..max+1 is the number v - 1, named in decimal. */
static const struct {
    vdc_target_dim dim;
    int max;
} numeric[] = {
    { VDC_DIM_IOTHREADS, VDC_IOTHREADS_MAX },
    { VDC_DIM_FILL, VDC_FILL_PERCENT_MAX },
};

static const char *const decimal[] = {
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
    "10", "11", "12", "13", "14", "15", "16", "17", "18", "19",
    "20", "21", "22", "23", "24", "25", "26", "27", "28", "29",
    "30", "31", "32", "33", "34", "35", "36", "37", "38", "39",
    "40", "41", "42", "43", "44", "45", "46", "47", "48", "49",
    "50", "51", "52", "53", "54", "55", "56", "57", "58", "59",
    "60", "61", "62", "63", "64", "65", "66", "67", "68", "69",
    "70", "71", "72", "73", "74", "75", "76", "77", "78", "79",
    "80", "81", "82", "83", "84", "85", "86", "87", "88", "89",
    "90", "91", "92", "93", "94", "95", "96", "97", "98", "99",
    "100",
};

/* @dim's largest number, or -1 when @dim is not numeric */
static int
numeric_max(vdc_target_dim dim)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(numeric); i++)
        if (numeric[i].dim == dim)
            return numeric[i].max;
    return -1;
}

const char *
vdc_target_name(vdc_target_dim dim, int value)
{
    int max = numeric_max(dim);
    size_t i;

    if (max >= 0 && value >= 1 && value <= max + 1 && (size_t)value <= G_N_ELEMENTS(decimal))
        return decimal[value - 1];
    for (i = 0; i < G_N_ELEMENTS(names); i++)
        if (names[i].dim == dim && names[i].value == value)
            return names[i].name;
    return NULL;
}

int
vdc_target_parse(vdc_target_dim dim, const char *name)
{
    int max = numeric_max(dim);
    size_t i;

    if (max >= 0 && name && g_ascii_isdigit(name[0]) && (name[0] != '0' || !name[1]) &&
        strspn(name, "0123456789") == strlen(name) && strlen(name) <= 3 && atoi(name) <= max)
        return atoi(name) + 1;
    for (i = 0; name && i < G_N_ELEMENTS(names); i++)
        if (names[i].dim == dim && !strcmp(names[i].name, name))
            return names[i].value;
    return -1;
}

char *
vdc_target_choices(vdc_target_dim dim, const char *sep)
{
    GString *s = g_string_new(NULL);
    int max = numeric_max(dim), v;
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(names); i++)
        if (names[i].dim == dim)
            g_string_append_printf(s, "%s%s", s->len ? sep : "", names[i].name);
    for (v = 1; v <= max + 1; v++)
        g_string_append_printf(s, "%s%s", s->len ? sep : "", vdc_target_name(dim, v));
    return g_string_free(s, FALSE);
}

static const char *const dim_keys[VDC_DIM_COUNT] = {
    [VDC_DIM_WHERE] = "where",
    [VDC_DIM_BACKING] = "backing",
    [VDC_DIM_IMAGE_FORMAT] = "format",
    [VDC_DIM_IMAGE_ALLOC] = "alloc",
    [VDC_DIM_IMAGE_BACKEND] = "image_backend",
    [VDC_DIM_IMAGE_CACHE] = "image_cache",
    [VDC_DIM_DISK_CACHE] = "disk_cache",
    [VDC_DIM_DISK_IO] = "disk_io",
    [VDC_DIM_IOTHREADS] = "iothreads",
    [VDC_DIM_DISK_BUS] = "disk_bus",
    [VDC_DIM_LV_TYPE] = "lv_type",
    [VDC_DIM_FILL] = "fill_percent",
    [VDC_DIM_PRECONDITION] = "precondition",
};

int
vdc_target_dim_storage(vdc_target_dim dim)
{
    switch (dim) {
    case VDC_DIM_IMAGE_FORMAT:
    case VDC_DIM_IMAGE_ALLOC:
    case VDC_DIM_IMAGE_BACKEND:
    case VDC_DIM_IMAGE_CACHE:
        return 1;
    default:
        return 0;
    }
}

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
    case VDC_DIM_DISK_CACHE: return s->disk_cache;
    case VDC_DIM_DISK_IO: return s->disk_io;
    case VDC_DIM_IOTHREADS: return s->iothreads;
    case VDC_DIM_DISK_BUS: return s->disk_bus;
    case VDC_DIM_LV_TYPE: return s->lv_type;
    case VDC_DIM_FILL: return s->fill;
    case VDC_DIM_PRECONDITION: return s->precondition;
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
    case VDC_DIM_DISK_CACHE: s->disk_cache = value; break;
    case VDC_DIM_DISK_IO: s->disk_io = value; break;
    case VDC_DIM_IOTHREADS: s->iothreads = value; break;
    case VDC_DIM_DISK_BUS: s->disk_bus = value; break;
    case VDC_DIM_LV_TYPE: s->lv_type = value; break;
    case VDC_DIM_FILL: s->fill = value; break;
    case VDC_DIM_PRECONDITION: s->precondition = value; break;
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

vdc_target_role
vdc_target_spec_role(const vdc_target_spec *s)
{
    if (s->where == VDC_WHERE_DOM0)
        return VDC_ROLE_DOM0;
    return s->backing == VDC_BACKING_IMAGE ? VDC_ROLE_IMAGE : VDC_ROLE_LV;
}

int
vdc_target_iothreads(const vdc_target_spec *s)
{
    return s->iothreads > 0 ? s->iothreads - 1 : -1;
}

vdc_disk_cache
vdc_target_qemu_cache(const vdc_target_spec *s)
{
    if (s->disk_cache != VDC_DISK_CACHE_DEFAULT)
        return s->disk_cache;
    if (s->backing == VDC_BACKING_IMAGE && s->cache == VDC_IMAGE_CACHE_HOST)
        return VDC_DISK_CACHE_WRITEBACK;
    return VDC_DISK_CACHE_NONE;
}

vdc_disk_io
vdc_target_qemu_io(const vdc_target_spec *s)
{
    if (s->disk_io != VDC_DISK_IO_DEFAULT || s->disk_cache != VDC_DISK_CACHE_DEFAULT)
        return s->disk_io;
    if (s->backing == VDC_BACKING_IMAGE && s->cache == VDC_IMAGE_CACHE_HOST)
        return VDC_DISK_IO_DEFAULT;
    return VDC_DISK_IO_NATIVE;
}

int
vdc_target_fill_percent(const vdc_target_spec *s)
{
    return s->fill > 0 ? s->fill - 1 : 0;
}
