/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The hypervisor's knobs asked against read back (knobs.h). */
#include "config.h"
#include "model/knobs.h"

#include <stdarg.h>
#include <string.h>

#include <glib.h>

/* QEMU's cache modes (block/block-backend: bdrv_parse_cache_mode, and the
 * device's write-cache) */
static const struct {
    const char *mode;
    int direct, no_flush, writeback;
} cache_modes[] = {
    { "none", 1, 0, 1 },
    { "writeback", 0, 0, 1 },
    { "directsync", 1, 0, 0 },
    { "writethrough", 0, 0, 0 },
    { "unsafe", 0, 1, 1 },
};

int
vdc_knob_cache_flags(const char *mode, int *direct, int *no_flush, int *writeback)
{
    size_t i;

    if (mode && !strcmp(mode, "default"))
        mode = "writeback";
    for (i = 0; mode && i < G_N_ELEMENTS(cache_modes); i++) {
        if (strcmp(mode, cache_modes[i].mode))
            continue;
        *direct = cache_modes[i].direct;
        *no_flush = cache_modes[i].no_flush;
        *writeback = cache_modes[i].writeback;
        return 0;
    }
    return -1;
}

const char *
vdc_knob_cache_mode(int direct, int no_flush, int writeback)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(cache_modes); i++)
        if (cache_modes[i].direct == direct && cache_modes[i].no_flush == no_flush &&
            cache_modes[i].writeback == writeback)
            return cache_modes[i].mode;
    return NULL;
}

static int
qemu_cache_known(const vdc_target_backend_qemu *q)
{
    return q->cache_direct >= 0 && q->cache_no_flush >= 0 && q->cache_writeback >= 0;
}

/* The cache mode @b's disk was served with, as read back: QEMU's own
 * flags when QEMU answered (*@qemu 1; "?" for a mix with no name), else
 * the live XML's <driver cache=> (*@qemu 0); NULL when neither was read */
static const char *
cache_read_back(const vdc_target_backend *b, int *qemu)
{
    const vdc_target_backend_qemu *q = &b->qemu;
    const char *mode;

    *qemu = qemu_cache_known(q);
    if (!*qemu)
        return b->cache;
    mode = vdc_knob_cache_mode(q->cache_direct, q->cache_no_flush, q->cache_writeback);
    return mode ? mode : "?";
}

/* "bypasses" or "through" (@host's page cache) for the tri-state verdict
 * targets[].cache.bypasses_dom0_page_cache, NULL when it was not decided */
static const char *
page_cache_word(int bypasses)
{
    return bypasses == 1 ? "bypasses" : bypasses == 0 ? "through" : NULL;
}

/* Each item of the comma-separated list @list ("xenstore,sysfs") onto
 * @seen once, in order */
static void
sources_add(GPtrArray *seen, const char *list)
{
    g_auto(GStrv) items = list ? g_strsplit(list, ",", -1) : NULL;
    size_t i, k;

    for (i = 0; items && items[i]; i++) {
        const char *item = g_strstrip(items[i]);

        for (k = 0; k < seen->len && strcmp(seen->pdata[k], item); k++)
            ;
        if (*item && k == seen->len)
            g_ptr_array_add(seen, g_strdup(item));
    }
}

/* " (read from A, B)" of the sources @seen onto @s; nothing when none */
static void
sources_text(GString *s, GPtrArray *seen)
{
    size_t i;

    for (i = 0; i < seen->len; i++)
        g_string_append_printf(s, "%s%s", i ? ", " : " (read from ", (const char *)seen->pdata[i]);
    if (seen->len)
        g_string_append_c(s, ')');
}

char *
vdc_knobs_served_text(const vdc_target *t, const char *host)
{
    const vdc_target_backend *b = &t->backend;
    const char *pc = page_cache_word(t->cache.bypasses_dom0_page_cache);
    g_autoptr(GPtrArray) src = g_ptr_array_new_with_free_func(g_free);
    const char *mode;
    GString *s;
    int qemu;

    if (!b->type)
        return NULL;
    s = g_string_new(NULL);
    /* xl's phy and vbd are blkback's; qdisk, tap, libvirt's file and
     * block are named as they are */
    if (!strcmp(b->type, "phy") || !strcmp(b->type, "vbd"))
        g_string_append_printf(s, "blkback (%s)", b->type);
    else
        g_string_append(s, b->type);
    if (b->physical_device)
        g_string_append_printf(s, " %s%s", b->physical_device,
                               g_str_has_prefix(b->physical_device, "/dev/loop")
                               ? " (a loop device over the image)" : "");
    sources_add(src, b->source);
    if ((mode = cache_read_back(b, &qemu))) {
        g_string_append_printf(s, ", cache %s", mode);
        /* QEMU's cache flags are query-block's (host/qemudisk.h) */
        if (qemu)
            sources_add(src, "qmp query-block");
    }
    if (pc) {
        g_string_append_printf(s, ", %s %s's page cache", pc, host);
        sources_add(src, t->cache.source);
    }
    sources_text(s, src);
    return g_string_free(s, FALSE);
}

char *
vdc_knobs_cache_text(const vdc_target *t, const char *host)
{
    const vdc_target_cache *c = &t->cache;
    const char *pc = page_cache_word(c->bypasses_dom0_page_cache);
    g_autoptr(GPtrArray) src = g_ptr_array_new_with_free_func(g_free);
    GString *s;

    if (!pc && !c->loop_device && !c->error)
        return NULL;
    s = g_string_new(NULL);
    if (c->requested)
        g_string_append_printf(s, "requested %s; ", c->requested);
    if (c->loop_device)
        g_string_append_printf(s, "%s dio %s (backing %s, offset %" G_GINT64_FORMAT "); ",
                               c->loop_device, c->loop_dio == 1 ? "1" : c->loop_dio == 0 ? "0" : "?",
                               c->loop_backing_file ? c->loop_backing_file : "?",
                               c->loop_offset != VDC_INT_ABSENT ? c->loop_offset : 0);
    if (c->direct_io_safe != VDC_BOOL_ABSENT)
        g_string_append_printf(s, "direct-io-safe %d; ", c->direct_io_safe);
    if (c->libvirt_cache || c->libvirt_io)
        g_string_append_printf(s, "libvirt cache=%s io=%s; ", c->libvirt_cache ? c->libvirt_cache : "(default)",
                               c->libvirt_io ? c->libvirt_io : "(default)");
    if (c->qemu_pid != VDC_INT_ABSENT)
        g_string_append_printf(s, "QEMU pid %" G_GINT64_FORMAT "%s; ", c->qemu_pid,
                               c->qemu_o_direct == 1 ? " holds it with O_DIRECT"
                               : c->qemu_o_direct == 0 ? " holds it without O_DIRECT" : "");
    if (pc)
        g_string_append_printf(s, "%s %s's page cache", pc, host);
    else
        g_string_append(s, "not decided");
    sources_add(src, c->source);
    sources_text(s, src);
    if (c->error)
        g_string_append_printf(s, "; %s", c->error);
    return g_string_free(s, FALSE);
}

/* QEMU answered qom-get for the device: its I/O thread is known (none
 * when absent) */
static int
qemu_iothread_known(const vdc_target_backend_qemu *q)
{
    return q->source && strstr(q->source, "qom-get");
}

/* XenbusState (xen/include/public/io/xenbus.h) */
static const char *const xenbus_states[] = {
    "Unknown", "Initialising", "InitWait", "Initialised", "Connected", "Closing", "Closed",
    "Reconfiguring", "Reconfigured",
};

int64_t
vdc_knob_blkif_ring_size(int64_t order)
{
    /* xen/include/public/io/ring.h __CONST_RING_SIZE(blkif, 4096 << order):
     * the shared page(s) less the ring's 64-byte header, over the size of
     * one slot (union blkif_sring_entry: a request of the x86_64 ABI, 112
     * bytes, io/blkif.h), rounded down to a power of two */
    int64_t slots, size = 1;

    if (order < 0 || order > 16)
        return -1;
    slots = ((INT64_C(4096) << order) - 64) / 112;
    while (size * 2 <= slots)
        size *= 2;
    return size;
}

/* a Xen VBD's ring group: "negotiated ring order 0 (1 page, 32 requests in
 * flight), 1 queue; blkback offers order 4, 1 queue", or NULL when @b
 * holds nothing of a Xen ring */
static char *
ring_text(const vdc_target_backend *b)
{
    GString *s;

    if (b->ring_page_order == VDC_INT_ABSENT && b->frontend_state == VDC_INT_ABSENT &&
        b->max_ring_page_order == VDC_INT_ABSENT && b->max_queues == VDC_INT_ABSENT)
        return NULL;
    s = g_string_new(NULL);
    if (b->ring_page_order != VDC_INT_ABSENT) {
        int64_t order = b->ring_page_order, slots = vdc_knob_blkif_ring_size(order);

        g_string_append_printf(s, "negotiated ring order %" G_GINT64_FORMAT, (gint64)order);
        if (slots > 0)
            g_string_append_printf(s, " (%" G_GINT64_FORMAT " page%s, %" G_GINT64_FORMAT
                                   " requests in flight)", (gint64)(INT64_C(1) << order),
                                   order ? "s" : "", (gint64)slots);
        if (b->queues != VDC_INT_ABSENT)
            g_string_append_printf(s, ", %" G_GINT64_FORMAT " queue%s", (gint64)b->queues,
                                   b->queues == 1 ? "" : "s");
    } else if (b->frontend_state != VDC_INT_ABSENT) {
        int64_t st = b->frontend_state;

        g_string_append_printf(s, "ring not negotiated: the frontend was never seen Connected "
                               "(XenbusState %" G_GINT64_FORMAT " %s when last read)", (gint64)st,
                               st >= 0 && st < (int64_t)G_N_ELEMENTS(xenbus_states)
                               ? xenbus_states[st] : "?");
    } else {
        g_string_append(s, "negotiated ring not read back");
    }
    if (b->max_ring_page_order != VDC_INT_ABSENT || b->max_queues != VDC_INT_ABSENT) {
        g_string_append_printf(s, "; %s offers", b->type && !strcmp(b->type, "qdisk") ? "qdisk"
                                                                                : "blkback");
        if (b->max_ring_page_order != VDC_INT_ABSENT)
            g_string_append_printf(s, " order %" G_GINT64_FORMAT, (gint64)b->max_ring_page_order);
        if (b->max_queues != VDC_INT_ABSENT)
            g_string_append_printf(s, "%s %" G_GINT64_FORMAT " queue%s",
                                   b->max_ring_page_order != VDC_INT_ABSENT ? "," : "",
                                   (gint64)b->max_queues, b->max_queues == 1 ? "" : "s");
    }
    return g_string_free(s, FALSE);
}

char *
vdc_knobs_text(const vdc_target *t)
{
    const vdc_target_backend *b = &t->backend;
    const vdc_target_backend_qemu *q = &b->qemu;
    GString *s = g_string_new(NULL);
    int64_t queues = b->queues != VDC_INT_ABSENT ? b->queues : q->queues;
    g_autofree char *ring = ring_text(b);
    int from_qemu;
    const char *mode = cache_read_back(b, &from_qemu);

#define SEP() (s->len ? ", " : "")
    if (mode && from_qemu)
        g_string_append_printf(s, "cache %s (QEMU: %s, write cache %s%s)", mode,
                               q->cache_direct ? "O_DIRECT" : "page cache",
                               q->cache_writeback ? "on" : "off", q->cache_no_flush ? ", flushes ignored" : "");
    else if (mode)
        g_string_append_printf(s, "cache %s", mode);
    if (q->aio)
        g_string_append_printf(s, "%saio %s", SEP(), q->aio);
    else if (b->io)
        g_string_append_printf(s, "%saio %s", SEP(), b->io);
    if (q->iothread)
        g_string_append_printf(s, "%sI/O thread %s", SEP(), q->iothread);
    else if (qemu_iothread_known(q))
        g_string_append_printf(s, "%sno I/O thread", SEP());
    else if (b->iothread != VDC_INT_ABSENT)
        g_string_append_printf(s, "%sI/O thread %" G_GINT64_FORMAT, SEP(), (gint64)b->iothread);
    /* a Xen VBD's queues are the ring's: said with it */
    if (queues != VDC_INT_ABSENT && !ring)
        g_string_append_printf(s, "%s%" G_GINT64_FORMAT " queue%s", SEP(), (gint64)queues,
                               queues == 1 ? "" : "s");
    /* the ring says Xen; another bus is named */
    if (s->len && b->bus && !(ring && !strcmp(b->bus, "xen")))
        g_string_append_printf(s, ", %s", b->bus);
    if (ring)
        g_string_append_printf(s, "%s%s", s->len ? "; " : "", ring);
#undef SEP
    if (!s->len) {
        g_string_free(s, TRUE);
        return NULL;
    }
    return g_string_free(s, FALSE);
}

static void
add(GString *s, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void
add(GString *s, const char *fmt, ...)
{
    va_list ap;

    if (s->len)
        g_string_append(s, "; ");
    va_start(ap, fmt);
    g_string_append_vprintf(s, fmt, ap);
    va_end(ap);
}

char *
vdc_knobs_mismatch(const vdc_target *t)
{
    const vdc_target_requested *r = &t->requested;
    const vdc_target_backend *b = &t->backend;
    const vdc_target_backend_qemu *q = &b->qemu;
    GString *s = g_string_new(NULL);
    int d, nf, wb;

    if (r->disk_cache && vdc_knob_cache_flags(r->disk_cache, &d, &nf, &wb) == 0) {
        if (qemu_cache_known(q)) {
            if (q->cache_direct != d || q->cache_no_flush != nf || q->cache_writeback != wb) {
                const char *m = vdc_knob_cache_mode(q->cache_direct, q->cache_no_flush, q->cache_writeback);

                add(s, "cache: asked %s, QEMU has %s (query-block)", r->disk_cache, m ? m : "another mix");
            }
        } else if (b->cache) {
            if (strcmp(b->cache, r->disk_cache))
                add(s, "cache: asked %s, the live XML has %s", r->disk_cache, b->cache);
        } else {
            add(s, "cache: asked %s, not read back", r->disk_cache);
        }
    }
    if (r->disk_io) {
        const char *want = strcmp(r->disk_io, "default") ? r->disk_io : "threads";

        if (q->aio) {
            if (strcmp(q->aio, want))
                add(s, "aio: asked %s, QEMU has %s (command line)", r->disk_io, q->aio);
        } else if (b->io) {
            if (strcmp(b->io, want))
                add(s, "aio: asked %s, the live XML has %s", r->disk_io, b->io);
        } else if (strcmp(r->disk_io, "default")) {
            add(s, "aio: asked %s, not read back", r->disk_io);
        }
    }
    if (r->iothreads != VDC_INT_ABSENT) {
        if (qemu_iothread_known(q)) {
            if ((r->iothreads > 0) != (q->iothread != NULL))
                add(s, "I/O threads: asked %" G_GINT64_FORMAT ", QEMU's device has %s (qom-get)",
                    (gint64)r->iothreads, q->iothread ? q->iothread : "none");
        } else if (r->iothreads > 0 && b->iothread == VDC_INT_ABSENT) {
            add(s, "I/O threads: asked %" G_GINT64_FORMAT ", not read back", (gint64)r->iothreads);
        }
    }
    if (r->queues != VDC_INT_ABSENT) {
        int64_t got = q->queues != VDC_INT_ABSENT ? q->queues : b->queues;

        if (got == VDC_INT_ABSENT)
            add(s, "queues: asked %" G_GINT64_FORMAT ", not read back", (gint64)r->queues);
        else if (got != r->queues)
            add(s, "queues: asked %" G_GINT64_FORMAT ", read back %" G_GINT64_FORMAT,
                (gint64)r->queues, (gint64)got);
    }
    if (r->disk_bus) {
        if (!b->bus)
            add(s, "bus: asked %s, not read back", r->disk_bus);
        else if (strcmp(b->bus, r->disk_bus))
            add(s, "bus: asked %s, the live XML has %s", r->disk_bus, b->bus);
    }
    if (!s->len) {
        g_string_free(s, TRUE);
        return NULL;
    }
    return g_string_free(s, FALSE);
}
