/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libvirt live domain XML: each disk's cache= and io= (livexml.h). */
#include "config.h"
#include "host/livexml.h"

#include <limits.h>
#include <string.h>

#include "common/util.h"
#include "host/text.h"

void
vdc_lv_disk_free(vdc_lv_disk *d)
{
    if (!d)
        return;
    g_free(d->vdev);
    g_free(d->bus);
    g_free(d->disk_type);
    g_free(d->device);
    g_free(d->source);
    g_free(d->driver_name);
    g_free(d->driver_type);
    g_free(d->cache);
    g_free(d->io);
    g_free(d->alias);
    g_free(d->serial);
    g_free(d->controller_model);
    g_free(d->controller_alias);
    g_free(d);
}

/* a SCSI controller of the domain */
typedef struct {
    long index;
    char *model, *alias;
    int iothread, queues;
} scsi_controller;

static void
scsi_controller_free(scsi_controller *c)
{
    g_free(c->model);
    g_free(c->alias);
    g_free(c);
}

typedef struct {
    GPtrArray *disks;
    vdc_lv_disk *cur;       /* inside <devices><disk> */
    int depth;              /* element depth; the disk's is cur_depth */
    int cur_depth;
    long pid;               /* <domstatus pid>, -1 malformed */
    GPtrArray *controllers; /* scsi_controller* */
    scsi_controller *ctl;   /* inside <devices><controller type='scsi'> */
    int ctl_depth;
    int in_serial;          /* inside the disk's <serial> */
    int in_iothreads;       /* inside the disk's <driver><iothreads> */
} parse_state;

/* a positive decimal attribute, or 0 */
static int
positive(const char *v)
{
    uint64_t n;

    return v && vdc_parse_u64_text(v, &n) == 0 && n <= INT_MAX ? (int)n : 0;
}

/* the value of attribute @name, or NULL */
static const char *
attr(const char **names, const char **values, const char *name)
{
    size_t i;

    for (i = 0; names[i]; i++)
        if (!strcmp(names[i], name))
            return values[i];
    return NULL;
}

static void
set(char **dst, const char *v)
{
    if (!v)
        return;
    g_free(*dst);
    *dst = g_strdup(v);
}

static void
on_start(GMarkupParseContext *ctx, const char *el, const char **an, const char **av,
         gpointer data, GError **err)
{
    parse_state *st = data;
    const GSList *stack = g_markup_parse_context_get_element_stack(ctx);
    const char *parent = stack && stack->next ? stack->next->data : NULL;

    st->depth++;
    if (!strcmp(el, "domstatus") && st->depth == 1) {
        const char *p = attr(an, av, "pid");
        uint64_t v;

        if (p)
            st->pid = vdc_parse_u64_text(p, &v) == 0 && v > 0 && v <= INT_MAX ? (long)v : -1;
        return;
    }
    if (!strcmp(el, "disk") && parent && !strcmp(parent, "devices") && !st->cur) {
        st->cur = g_new0(vdc_lv_disk, 1);
        st->cur->controller = -1;
        st->cur_depth = st->depth;
        set(&st->cur->disk_type, attr(an, av, "type"));
        set(&st->cur->device, attr(an, av, "device"));
        return;
    }
    if (!strcmp(el, "controller") && parent && !strcmp(parent, "devices") && !st->ctl &&
        !g_strcmp0(attr(an, av, "type"), "scsi")) {
        uint64_t idx;

        st->ctl = g_new0(scsi_controller, 1);
        st->ctl_depth = st->depth;
        st->ctl->index = vdc_parse_u64_text(attr(an, av, "index") ? attr(an, av, "index") : "", &idx) == 0 &&
                         idx <= INT_MAX ? (long)idx : -1;
        set(&st->ctl->model, attr(an, av, "model"));
        return;
    }
    if (st->ctl && st->depth == st->ctl_depth + 1) {
        if (!strcmp(el, "driver")) {
            st->ctl->iothread = positive(attr(an, av, "iothread"));
            st->ctl->queues = positive(attr(an, av, "queues"));
        } else if (!strcmp(el, "alias")) {
            set(&st->ctl->alias, attr(an, av, "name"));
        }
        return;
    }
    /* the first I/O thread of a virtqueue mapping (<driver><iothreads>) */
    if (st->cur && st->in_iothreads && !strcmp(el, "iothread") && !st->cur->iothread) {
        st->cur->iothread = positive(attr(an, av, "id"));
        return;
    }
    if (st->cur && st->depth == st->cur_depth + 2 && !strcmp(el, "iothreads") && parent &&
        !strcmp(parent, "driver")) {
        st->in_iothreads = 1;
        return;
    }
    /* only the disk's own children: not <backingStore><source> and the like */
    if (!st->cur || st->depth != st->cur_depth + 1)
        return;
    if (!strcmp(el, "driver")) {
        set(&st->cur->driver_name, attr(an, av, "name"));
        set(&st->cur->driver_type, attr(an, av, "type"));
        set(&st->cur->cache, attr(an, av, "cache"));
        set(&st->cur->io, attr(an, av, "io"));
        st->cur->iothread = positive(attr(an, av, "iothread"));
        st->cur->queues = positive(attr(an, av, "queues"));
    } else if (!strcmp(el, "alias")) {
        set(&st->cur->alias, attr(an, av, "name"));
    } else if (!strcmp(el, "serial")) {
        st->in_serial = 1;
    } else if (!strcmp(el, "address") && !g_strcmp0(attr(an, av, "type"), "drive")) {
        int c = attr(an, av, "controller") ? positive(attr(an, av, "controller")) : 0;

        st->cur->controller = c;
    } else if (!strcmp(el, "source")) {
        const char *f = attr(an, av, "file");

        set(&st->cur->source, f ? f : attr(an, av, "dev"));
    } else if (!strcmp(el, "target")) {
        set(&st->cur->vdev, attr(an, av, "dev"));
        set(&st->cur->bus, attr(an, av, "bus"));
    } else if (!strcmp(el, "readonly")) {
        st->cur->readonly = 1;
    }
}

static void
on_text(GMarkupParseContext *ctx, const char *text, gsize len, gpointer data, GError **err)
{
    parse_state *st = data;

    if (st->cur && st->in_serial) {
        g_autofree char *t = g_strndup(text, len);

        set(&st->cur->serial, g_strstrip(t));
    }
}

static void
on_end(GMarkupParseContext *ctx, const char *el, gpointer data, GError **err)
{
    parse_state *st = data;

    st->in_serial = 0;
    if (!strcmp(el, "iothreads"))
        st->in_iothreads = 0;
    if (st->ctl && st->depth == st->ctl_depth) {
        g_ptr_array_add(st->controllers, st->ctl);
        st->ctl = NULL;
    }
    if (st->cur && st->depth == st->cur_depth) {
        if (st->cur->vdev)
            g_ptr_array_add(st->disks, st->cur);
        else
            vdc_lv_disk_free(st->cur);
        st->cur = NULL;
    }
    st->depth--;
}

GPtrArray *
vdc_livexml_disks_parse(const char *xml, const char *source, int *qemu_pid)
{
    GMarkupParser p = { .start_element = on_start, .end_element = on_end, .text = on_text };
    parse_state st = { .disks = g_ptr_array_new_with_free_func((GDestroyNotify)vdc_lv_disk_free),
                       .controllers = g_ptr_array_new_with_free_func((GDestroyNotify)scsi_controller_free) };
    guint i, k;
    GMarkupParseContext *ctx = g_markup_parse_context_new(&p, 0, &st, NULL);
    g_autoptr(GError) err = NULL;
    int ok;

    ok = g_markup_parse_context_parse(ctx, xml ? xml : "", -1, &err) &&
         g_markup_parse_context_end_parse(ctx, &err);
    g_markup_parse_context_free(ctx);
    vdc_lv_disk_free(st.cur);
    if (st.ctl)
        scsi_controller_free(st.ctl);
    /* a SCSI disk's controller: its model, QEMU id, thread and queues */
    for (i = 0; ok && i < st.disks->len; i++) {
        vdc_lv_disk *d = g_ptr_array_index(st.disks, i);

        for (k = 0; d->controller >= 0 && !g_strcmp0(d->bus, "scsi") && k < st.controllers->len; k++) {
            scsi_controller *c = g_ptr_array_index(st.controllers, k);

            if (c->index != d->controller)
                continue;
            set(&d->controller_model, c->model);
            set(&d->controller_alias, c->alias);
            d->iothread = c->iothread;
            d->queues = c->queues;
        }
    }
    g_ptr_array_unref(st.controllers);
    if (!ok) {
        vdc_error("%s: not well-formed domain XML: %s", source, err->message);
        g_ptr_array_unref(st.disks);
        return NULL;
    }
    if (st.pid < 0) {
        vdc_error("%s: <domstatus pid>: expected a process id", source);
        g_ptr_array_unref(st.disks);
        return NULL;
    }
    if (qemu_pid)
        *qemu_pid = (int)st.pid;
    return st.disks;
}
