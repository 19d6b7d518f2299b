/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A libvirt disk's backend facts as JSON (backend_json.h). */
#include "config.h"
#include "hv/backend_json.h"

#include <string.h>

#include <glib.h>

static void
set_str(JsonObject *o, const char *name, const char *v)
{
    if (v)
        json_object_set_string_member(o, name, v);
}

static int
scsi(const vdc_lv_disk *d)
{
    return !g_strcmp0(d->bus, "scsi");
}

/* the bus in the result's terms */
static const char *
bus_name(const vdc_lv_disk *d)
{
    if (!g_strcmp0(d->bus, "virtio"))
        return "virtio-blk";
    if (scsi(d) && !g_strcmp0(d->controller_model, "virtio-scsi"))
        return "virtio-scsi";
    return d->bus;
}

static void
set_tri(JsonObject *o, const char *name, int v)
{
    if (v >= 0)
        json_object_set_boolean_member(o, name, v);
}

static JsonObject *
qemu_json(const vdc_qemu_disk_view *q)
{
    JsonObject *o = json_object_new();
    GString *source = g_string_new(NULL);

    if (q->block) {
        set_tri(o, "cache_direct", q->block->cache_direct);
        set_tri(o, "cache_no_flush", q->block->cache_no_flush);
        set_tri(o, "cache_writeback", q->block->cache_writeback);
        g_string_append(source, "qmp query-block");
    }
    if (q->aio) {
        set_str(o, "aio", q->aio);
        g_string_append_printf(source, "%sqemu command line", source->len ? ", " : "");
    }
    if (q->qom_read) {
        /* "iothread" is a link: "" when none; kept when QEMU runs it */
        if (q->iothread && *q->iothread) {
            const char *id = g_str_has_prefix(q->iothread, "/objects/") ? q->iothread + 9 : q->iothread;

            if (!q->iothreads_read || (q->running && g_strv_contains(q->running, id)))
                set_str(o, "iothread", id);
        }
        if (q->queues >= 0)
            json_object_set_int_member(o, "queues", q->queues);
        g_string_append_printf(source, "%sqmp qom-get", source->len ? ", " : "");
    }
    if (q->iothreads_read)
        g_string_append_printf(source, "%sqmp query-iothreads", source->len ? ", " : "");
    if (source->len)
        set_str(o, "source", source->str);
    g_string_free(source, TRUE);
    return o;
}

JsonObject *
vdc_lv_backend_json(const vdc_lv_disk *d, const vdc_qemu_disk_view *q)
{
    JsonObject *o = json_object_new();

    set_str(o, "source", "libvirt-live-xml");
    set_str(o, "type", d->disk_type);
    set_str(o, "driver_name", d->driver_name);
    set_str(o, "format", d->driver_type);
    set_str(o, "cache", d->cache);
    set_str(o, "io", d->io);
    set_str(o, "physical_device", d->source);
    set_str(o, "vdev", d->vdev);
    set_str(o, "mode", d->readonly ? "r" : "w");
    set_str(o, "bus", bus_name(d));
    if (d->iothread > 0)
        json_object_set_int_member(o, "iothread", d->iothread);
    if (d->queues > 0)
        json_object_set_int_member(o, "queues", d->queues);
    else if (q && q->qom_read && q->queues > 0)
        json_object_set_int_member(o, "queues", q->queues);
    if (q) {
        JsonObject *qo = qemu_json(q);

        if (json_object_get_size(qo))
            json_object_set_object_member(o, "qemu", qo);
        else
            json_object_unref(qo);
    }
    return o;
}

char *
vdc_lv_disk_qom_path(const vdc_lv_disk *d, const char **queues_prop)
{
    if (scsi(d)) {
        *queues_prop = "num_queues";
        return d->controller_alias ? g_strdup_printf("/machine/peripheral/%s", d->controller_alias) : NULL;
    }
    *queues_prop = "num-queues";
    return d->alias ? g_strdup_printf("/machine/peripheral/%s", d->alias) : NULL;
}

JsonObject *
vdc_xs_backend_json(const vdc_xs_vbd *v)
{
    JsonObject *o = json_object_new();
    int qdisk = !g_strcmp0(v->kind, "qdisk");

    /* blkback writes type "phy" or "file"; QEMU's qdisk writes none */
    set_str(o, "type", qdisk ? "qdisk" : v->type ? v->type : v->kind);
    set_str(o, "backend_kind", v->kind);
    set_str(o, "source", "xenstore");
    set_str(o, "xenstore_path", v->path);
    if (v->physical_device_path)
        set_str(o, "physical_device", v->physical_device_path);
    else if (v->params && g_str_has_prefix(v->params, "/dev/") && !qdisk)
        set_str(o, "physical_device", v->params);   /* an LV, a partition */
    if (v->have_physical_device) {
        g_autofree char *mm = g_strdup_printf("%x:%x", v->pd_major, v->pd_minor);

        set_str(o, "physical_device_major_minor", mm);
    }
    set_str(o, "params", v->params);
    if (v->direct_io_safe >= 0)
        json_object_set_boolean_member(o, "direct_io_safe", v->direct_io_safe);
    set_str(o, "mode", v->mode);
    set_str(o, "vdev", v->dev);
    set_str(o, "bus", "xen");
    if (v->max_ring_page_order >= 0)
        json_object_set_int_member(o, "max_ring_page_order", v->max_ring_page_order);
    if (v->max_queues >= 0)
        json_object_set_int_member(o, "max_queues", v->max_queues);
    if (v->ring_page_order >= 0)
        json_object_set_int_member(o, "ring_page_order", v->ring_page_order);
    if (v->num_queues >= 0)
        json_object_set_int_member(o, "queues", v->num_queues);
    if (v->frontend_state >= 0)
        json_object_set_int_member(o, "frontend_state", v->frontend_state);
    return o;
}
