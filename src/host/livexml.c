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
    g_free(d);
}

typedef struct {
    GPtrArray *disks;
    vdc_lv_disk *cur;       /* inside <devices><disk> */
    int depth;              /* element depth; the disk's is cur_depth */
    int cur_depth;
    long pid;               /* <domstatus pid>, -1 malformed */
} parse_state;

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
        st->cur_depth = st->depth;
        set(&st->cur->disk_type, attr(an, av, "type"));
        set(&st->cur->device, attr(an, av, "device"));
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
on_end(GMarkupParseContext *ctx, const char *el, gpointer data, GError **err)
{
    parse_state *st = data;

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
    GMarkupParser p = { .start_element = on_start, .end_element = on_end };
    parse_state st = { .disks = g_ptr_array_new_with_free_func((GDestroyNotify)vdc_lv_disk_free) };
    GMarkupParseContext *ctx = g_markup_parse_context_new(&p, 0, &st, NULL);
    g_autoptr(GError) err = NULL;
    int ok;

    ok = g_markup_parse_context_parse(ctx, xml ? xml : "", -1, &err) &&
         g_markup_parse_context_end_parse(ctx, &err);
    g_markup_parse_context_free(ctx);
    vdc_lv_disk_free(st.cur);
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
