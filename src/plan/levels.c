/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The density levels of a run (levels.h). */
#include "config.h"

#include <string.h>

#include <glib.h>

#include "common/opts.h"
#include "common/util.h"
#include "plan/levels.h"

int
vdc_guests_parse(const char *arg, vdc_dim_list *out)
{
    g_auto(GStrv) items = g_strsplit(arg, ",", -1);
    size_t i, k;

    memset(out, 0, sizeof(*out));
    if (g_strv_length(items) > VDC_DIM_VALUES_MAX) {
        vdc_input_error("--guests '%s': %u values: expected at most %d levels", arg,
                        g_strv_length(items), VDC_DIM_VALUES_MAX);
        return -1;
    }
    for (i = 0; items[i]; i++) {
        guint64 v;

        if (!g_ascii_string_to_unsigned(items[i], 10, 1, VDC_GUESTS_MAX, &v, NULL)) {
            vdc_input_error("--guests '%s': expected a comma list of integers from 1 to %d",
                            arg, VDC_GUESTS_MAX);
            memset(out, 0, sizeof(*out));
            return -1;
        }
        out->v[i] = (int)v;
    }
    if (i == 0) {
        vdc_input_error("--guests '%s': expected a comma list of integers from 1 to %d", arg,
                        VDC_GUESTS_MAX);
        return -1;
    }
    out->n = i;
    for (i = 0; i < out->n; i++)
        for (k = i + 1; k < out->n; k++)
            if (out->v[k] == out->v[i]) {
                vdc_input_error("--guests '%s': '%d' given twice: expected each level at most once",
                                arg, out->v[i]);
                memset(out, 0, sizeof(*out));
                return -1;
            }
    return 0;
}

/* the options table's hook (VDC_OPT_CALL) */
static int
opt_parse(void *opts, const vdc_opt *o, const char *arg)
{
    return vdc_guests_parse(arg, (vdc_dim_list *)((char *)opts + o->off));
}

void
vdc_guests_opt(size_t off, struct vdc_opt *out)
{
    *out = (vdc_opt){
        .name = "guests", .type = VDC_OPT_CALL, .off = off, .metavar = "N,...", .def = "1",
        .help = "density levels: at level N, N identical domUs of each domU target (each with its "
                "own image or LV) run together, released at one instant; 1 to "
                G_STRINGIFY(VDC_GUESTS_MAX),
        .parse = opt_parse,
    };
}

unsigned
vdc_plan_max_guests(const vdc_plan *p)
{
    unsigned m = 1;
    size_t i;

    for (i = 0; i < p->guests.n; i++)
        m = MAX(m, (unsigned)p->guests.v[i]);
    return m;
}

void
vdc_plan_level_need(const vdc_plan *p, unsigned guests, vdc_level_need *out)
{
    size_t i;

    memset(out, 0, sizeof(*out));
    out->guests = guests;
    out->ram_mib = (uint64_t)guests * ((uint64_t)p->memory_mib + VDC_GUEST_OVERHEAD_MIB);
    for (i = 0; i < p->n_targets; i++) {
        const vdc_plan_target *t = &p->targets[i];

        if (t->spec.where != VDC_WHERE_DOMU)
            continue;
        /* one target's guests boot at a time (the RAM above), but every
         * domU target's copies are there at once (made before the first
         * level, vdc_level_provision): the disks are summed over them */
        if (t->spec.backing == VDC_BACKING_IMAGE)
            out->image_bytes += (uint64_t)guests * t->disk_bytes;
        else if (t->spec.backing == VDC_BACKING_LVM)
            out->lv_bytes += (uint64_t)guests * t->disk_bytes;
    }
}

int
vdc_plan_check_levels(const vdc_plan *p, uint64_t avail_mib, const char *mem_source)
{
    uint64_t per = (uint64_t)p->memory_mib + VDC_GUEST_OVERHEAD_MIB;
    unsigned max = vdc_plan_max_guests(p);
    vdc_level_need n;

    if (!avail_mib || !p->guests.n || p->hv == VDC_HV_NONE)
        return 0;
    /* the largest level needs the most: if it fits, every level does */
    vdc_plan_level_need(p, max, &n);
    if (n.ram_mib <= avail_mib)
        return 0;
    if (avail_mib < per)
        vdc_input_error("--guests %u: level %u needs %" G_GUINT64_FORMAT " MiB of RAM "
                        "(%u domU%s x (%u MiB + %u MiB overhead)), the host has %" G_GUINT64_FORMAT
                        " MiB available (%s): expected less --guest-memory", max, max, n.ram_mib,
                        max, max == 1 ? "" : "s", p->memory_mib, VDC_GUEST_OVERHEAD_MIB, avail_mib,
                        mem_source ? mem_source : "?");
    else
        vdc_input_error("--guests %u: level %u needs %" G_GUINT64_FORMAT " MiB of RAM "
                        "(%u domUs x (%u MiB + %u MiB overhead)), the host has %" G_GUINT64_FORMAT
                        " MiB available (%s): expected --guests at most %" G_GUINT64_FORMAT
                        ", or less --guest-memory", max, max, n.ram_mib, max, p->memory_mib,
                        VDC_GUEST_OVERHEAD_MIB, avail_mib, mem_source ? mem_source : "?",
                        avail_mib / per);
    return -1;
}

char *
vdc_plan_guest_domain(const vdc_plan *p, unsigned k)
{
    return g_strdup_printf("%s-g%u", p->domain_name ? p->domain_name : "vmdiskcmp", k);
}

char *
vdc_plan_guest_path(const vdc_plan_target *t, unsigned k)
{
    const char *slash, *dot;

    if (!t->path)
        return NULL;
    if (k == 0)
        return g_strdup(t->path);
    slash = strrchr(t->path, '/');
    dot = strrchr(slash ? slash : t->path, '.');
    if (!dot || t->spec.backing != VDC_BACKING_IMAGE)
        return g_strdup_printf("%s-g%u", t->path, k);
    return g_strdup_printf("%.*s-g%u%s", (int)(dot - t->path), t->path, k, dot);
}

void
vdc_plan_levels_text(const vdc_plan *p, GString *s)
{
    size_t i, ti;
    unsigned k;

    if (!p->guests.n)
        return;
    g_string_append(s, "levels (--guests):");
    for (i = 0; i < p->guests.n; i++)
        g_string_append_printf(s, "%s %d", i ? "," : "", p->guests.v[i]);
    g_string_append_printf(s, "; each domU target's guests booted together, released at one "
                           "instant; the copies made once for level %u\n", vdc_plan_max_guests(p));
    for (i = 0; i < p->guests.n; i++) {
        unsigned n = (unsigned)p->guests.v[i];
        vdc_level_need need;
        g_autofree char *img = NULL, *lv = NULL;

        vdc_plan_level_need(p, n, &need);
        img = g_format_size_full(need.image_bytes, G_FORMAT_SIZE_IEC_UNITS);
        lv = g_format_size_full(need.lv_bytes, G_FORMAT_SIZE_IEC_UNITS);
        g_string_append_printf(s, "  level %u: RAM %" G_GUINT64_FORMAT " MiB (%u x (%u MiB + %u MiB "
                               "overhead)), images %s, LVs %s\n", n, need.ram_mib, n, p->memory_mib,
                               VDC_GUEST_OVERHEAD_MIB, img, lv);
        for (ti = 0; ti < p->n_targets; ti++) {
            const vdc_plan_target *t = &p->targets[ti];

            if (t->spec.where != VDC_WHERE_DOMU)
                continue;
            for (k = 0; k < n; k++) {
                g_autofree char *dom = vdc_plan_guest_domain(p, k);
                g_autofree char *path = vdc_plan_guest_path(t, k);

                g_string_append_printf(s, "    %s guest %u: domain %s, disk %s\n", t->name, k, dom,
                                       path ? path : "-");
            }
        }
    }
}

void
vdc_plan_levels_json(JsonBuilder *b, const vdc_plan *p)
{
    size_t i;
    unsigned k;

    if (!p->guests.n)
        return;
    json_builder_set_member_name(b, "guests");
    json_builder_begin_array(b);
    for (i = 0; i < p->guests.n; i++)
        json_builder_add_int_value(b, p->guests.v[i]);
    json_builder_end_array(b);
    json_builder_set_member_name(b, "levels");
    json_builder_begin_array(b);
    for (i = 0; i < p->guests.n; i++) {
        vdc_level_need need;

        vdc_plan_level_need(p, (unsigned)p->guests.v[i], &need);
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "guests");
        json_builder_add_int_value(b, need.guests);
        json_builder_set_member_name(b, "ram_mib");
        json_builder_add_int_value(b, (gint64)need.ram_mib);
        json_builder_set_member_name(b, "image_bytes");
        json_builder_add_int_value(b, (gint64)need.image_bytes);
        json_builder_set_member_name(b, "lv_bytes");
        json_builder_add_int_value(b, (gint64)need.lv_bytes);
        json_builder_set_member_name(b, "domains");
        json_builder_begin_array(b);
        for (k = 0; k < need.guests; k++) {
            g_autofree char *d = vdc_plan_guest_domain(p, k);

            json_builder_add_string_value(b, d);
        }
        json_builder_end_array(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
}
