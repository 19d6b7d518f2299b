/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What this libvirt and QEMU can do for a disk (qemucaps.h). */
#include "config.h"
#include "host/qemucaps.h"

#include <string.h>

#include "common/child.h"
#include "common/util.h"

void
vdc_domcaps_init(vdc_domcaps *c)
{
    memset(c, 0, sizeof(*c));
    c->iothreads = -1;
}

void
vdc_domcaps_dispose(vdc_domcaps *c)
{
    g_clear_pointer(&c->emulator, g_free);
    g_clear_pointer(&c->domain, g_free);
    g_clear_pointer(&c->disk_buses, g_strfreev);
    c->iothreads = -1;
}

typedef struct {
    vdc_domcaps *c;
    GPtrArray *buses;
    int in_bus_enum;            /* inside <devices><disk><enum name='bus'> */
    int in_value;
    const char *text_for;       /* "path", "domain": the element whose text we want */
} domcaps_walk;

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
dc_start(GMarkupParseContext *ctx, const char *el, const char **an, const char **av,
         gpointer data, GError **err)
{
    domcaps_walk *w = data;
    const GSList *stack = g_markup_parse_context_get_element_stack(ctx);
    guint depth = g_slist_length((GSList *)stack);
    const char *parent = stack && stack->next ? stack->next->data : NULL;
    const char *grand = stack && stack->next && stack->next->next ? stack->next->next->data : NULL;

    if (depth == 2 && (!strcmp(el, "path") || !strcmp(el, "domain")))
        w->text_for = el;
    else if (depth == 2 && !strcmp(el, "iothreads")) {
        const char *s = attr(an, av, "supported");

        w->c->iothreads = s ? !strcmp(s, "yes") : -1;
    } else if (!strcmp(el, "enum") && parent && !strcmp(parent, "disk") && grand &&
               !strcmp(grand, "devices") && g_strcmp0(attr(an, av, "name"), "bus") == 0) {
        w->in_bus_enum = 1;
        w->buses = g_ptr_array_new();
    } else if (w->in_bus_enum && !strcmp(el, "value")) {
        w->in_value = 1;
    }
}

static void
dc_end(GMarkupParseContext *ctx, const char *el, gpointer data, GError **err)
{
    domcaps_walk *w = data;

    if (w->in_bus_enum && !strcmp(el, "enum")) {
        g_ptr_array_add(w->buses, NULL);
        g_strfreev(w->c->disk_buses);
        w->c->disk_buses = (char **)g_ptr_array_free(w->buses, FALSE);
        w->buses = NULL;
        w->in_bus_enum = 0;
    }
    w->in_value = 0;
    w->text_for = NULL;
}

static void
dc_text(GMarkupParseContext *ctx, const char *text, gsize len, gpointer data, GError **err)
{
    domcaps_walk *w = data;
    g_autofree char *t = g_strstrip(g_strndup(text, len));

    if (w->in_value && *t)
        g_ptr_array_add(w->buses, g_strdup(t));
    else if (w->text_for && *t) {
        char **dst = !strcmp(w->text_for, "path") ? &w->c->emulator : &w->c->domain;

        g_free(*dst);
        *dst = g_steal_pointer(&t);
    }
}

int
vdc_domcaps_parse(const char *xml, const char *source, vdc_domcaps *out)
{
    GMarkupParser p = { .start_element = dc_start, .end_element = dc_end, .text = dc_text };
    domcaps_walk w = { .c = out };
    GMarkupParseContext *ctx = g_markup_parse_context_new(&p, 0, &w, NULL);
    g_autoptr(GError) err = NULL;
    int ok = g_markup_parse_context_parse(ctx, xml ? xml : "", -1, &err) &&
             g_markup_parse_context_end_parse(ctx, &err);

    g_markup_parse_context_free(ctx);
    if (w.buses)
        g_ptr_array_free(w.buses, TRUE);
    if (!ok) {
        vdc_error("%s: not well-formed domain capabilities XML: %s", source, err->message);
        vdc_domcaps_dispose(out);
        return -1;
    }
    return 0;
}

int
vdc_domcaps_has_bus(const vdc_domcaps *c, const char *bus)
{
    if (!c->disk_buses)
        return -1;
    return g_strv_contains((const char *const *)c->disk_buses, bus);
}

void
vdc_qemu_build_init(vdc_qemu_build *b)
{
    memset(b, 0, sizeof(*b));
    b->aio_native = VDC_QEMU_AIO_UNKNOWN;
    b->io_uring = b->vq_mapping = b->virtio_scsi = VDC_QEMU_CAN_UNKNOWN;
}

void
vdc_qemu_build_dispose(vdc_qemu_build *b)
{
    g_free(b->binary);
    g_free(b->aio_native_said);
    g_free(b->io_uring_said);
    vdc_qemu_build_init(b);
}

/* the line of @text holding @needle, newly allocated, or NULL */
static char *
line_with(const char *text, const char *needle)
{
    const char *at = strstr(text, needle), *start, *end;

    if (!at)
        return NULL;
    for (start = at; start > text && start[-1] != '\n'; start--)
        ;
    end = strchr(at, '\n');
    return g_strndup(start, end ? (size_t)(end - start) : strlen(start));
}

vdc_qemu_can
vdc_qemu_io_uring_verdict(const char *text, char **said)
{
    static const char *const missing[] = {
        "does not accept value 'io_uring'",     /* a build without it (QAPI enum) */
        "Unable to use io_uring",               /* the kernel refused the ring */
        "io_uring was specified, but",          /* older builds' words */
    };
    size_t i;

    if (said)
        *said = NULL;
    if (!text)
        return VDC_QEMU_CAN_UNKNOWN;
    for (i = 0; i < G_N_ELEMENTS(missing); i++)
        if (strstr(text, missing[i])) {
            if (said)
                *said = line_with(text, missing[i]);
            return VDC_QEMU_CAN_NOT;
        }
    /* the -blockdev was opened: QEMU went on to the accelerator */
    if (strstr(text, "invalid accelerator"))
        return VDC_QEMU_CAN;
    return VDC_QEMU_CAN_UNKNOWN;
}

vdc_qemu_can
vdc_qemu_device_has_property(const char *text, const char *prop)
{
    g_autofree char *needle = g_strdup_printf("\n  %s=", prop);

    if (!text || !strstr(text, " options:"))
        return VDC_QEMU_CAN_UNKNOWN;
    return strstr(text, needle) ? VDC_QEMU_CAN : VDC_QEMU_CAN_NOT;
}

vdc_qemu_can
vdc_qemu_has_device(const char *text, const char *name)
{
    g_autofree char *needle = g_strdup_printf("name \"%s\"", name);

    if (!text || !strstr(text, "name \""))
        return VDC_QEMU_CAN_UNKNOWN;
    return strstr(text, needle) ? VDC_QEMU_CAN : VDC_QEMU_CAN_NOT;
}

/* run @binary with @args (stdout and stderr captured together, 20 s) and
 * return its output, or NULL when it could not be run */
static char *
run_probe(const char *binary, const char *const *args)
{
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    vdc_child_opts o = { .what = binary, .timeout_ms = 20000, .out = VDC_CHILD_CAPTURE,
                         .err = VDC_CHILD_CAPTURE };
    vdc_child_result r = { 0 };
    char *out = NULL;
    size_t i;

    g_ptr_array_add(argv, (char *)binary);
    for (i = 0; args[i]; i++)
        g_ptr_array_add(argv, (char *)args[i]);
    g_ptr_array_add(argv, NULL);
    o.argv = (char *const *)argv->pdata;
    if (vdc_child_run(&o, &r) < 0)
        return NULL;
    if (!r.timed_out)
        out = g_strdup(r.out ? r.out : "");
    vdc_child_result_dispose(&r);
    return out;
}

void
vdc_qemu_build_probe(const char *binary, vdc_qemu_build *out)
{
    g_autofree char *blockdev = g_strdup_printf("driver=file,node-name=vdc-probe,filename=%s,"
                                                "read-only=on,aio=io_uring", binary);
    const char *const uring[] = { "-machine", "none", "-nodefaults", "-display", "none",
                                  "-accel", "vdc-probe-none", "-blockdev", blockdev, NULL };
    const char *const blk[] = { "-device", "virtio-blk-pci,help", NULL };
    const char *const devices[] = { "-device", "help", NULL };
    g_autofree char *t1 = NULL, *t2 = NULL, *t3 = NULL;

    g_free(out->binary);
    out->binary = g_strdup(binary);
    /* a comma in the path would be read as QEMU's option separator */
    if (!strchr(binary, ',')) {
        t1 = run_probe(binary, uring);
        out->io_uring = vdc_qemu_io_uring_verdict(t1, &out->io_uring_said);
    }
    out->aio_native = vdc_qemu_aio_native(binary, &out->aio_native_said);
    t2 = run_probe(binary, blk);
    out->vq_mapping = vdc_qemu_device_has_property(t2, "iothread-vq-mapping");
    t3 = run_probe(binary, devices);
    out->virtio_scsi = vdc_qemu_has_device(t3, "virtio-scsi-pci");
}

void
vdc_hv_build_init(vdc_hv_build *b)
{
    memset(b, 0, sizeof(*b));
    vdc_domcaps_init(&b->caps);
    vdc_qemu_build_init(&b->qemu);
}

void
vdc_hv_build_dispose(vdc_hv_build *b)
{
    g_free(b->qemu_version);
    vdc_domcaps_dispose(&b->caps);
    vdc_qemu_build_dispose(&b->qemu);
    vdc_hv_build_init(b);
}
