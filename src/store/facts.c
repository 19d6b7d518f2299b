/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The facts of a result and the changes between two results (facts.h). */
#include "config.h"

#include "store/facts.h"

#include <stdio.h>
#include <string.h>

static void
fact_clear(gpointer p)
{
    struct vdc_fact *f = p;

    g_free(f->name);
    g_free(f->value);
}

GArray *
vdc_facts_new(void)
{
    GArray *a = g_array_new(FALSE, TRUE, sizeof(struct vdc_fact));

    g_array_set_clear_func(a, fact_clear);
    return a;
}

void
vdc_facts_add(GArray *facts, const char *name, const char *value)
{
    struct vdc_fact f;

    if (!value || !*value)
        return;
    f.name = g_strdup(name);
    f.value = g_strdup(value);
    g_array_append_val(facts, f);
}

static gint
fact_cmp(gconstpointer a, gconstpointer b)
{
    return strcmp(((const struct vdc_fact *)a)->name, ((const struct vdc_fact *)b)->name);
}

void
vdc_facts_sort(GArray *facts)
{
    g_array_sort(facts, fact_cmp);
}

static void
add_int(GArray *f, const char *name, int64_t v)
{
    char buf[32];

    if (v == VDC_INT_ABSENT)
        return;
    snprintf(buf, sizeof(buf), "%lld", (long long)v);
    vdc_facts_add(f, name, buf);
}

static void
add_bool(GArray *f, const char *name, int v)
{
    if (v != VDC_BOOL_ABSENT)
        vdc_facts_add(f, name, v ? "yes" : "no");
}

static void
add_target_str(GArray *f, const char *target, const char *field, const char *value)
{
    g_autofree char *name = g_strdup_printf("target.%s.%s", target, field);

    vdc_facts_add(f, name, value);
}

/* The test file sizes of @target's runs, MiB, distinct, in run order:
 * "256" or "256/512" */
static char *
file_sizes(const vdc_result_set *rs, const char *target)
{
    GString *s = g_string_new(NULL);
    GArray *seen = g_array_new(FALSE, FALSE, sizeof(int64_t));

    for (size_t i = 0; i < rs->n_runs; i++) {
        const vdc_run *r = rs->runs[i];
        int64_t v = r->meta.file_size_mib;
        guint k;

        if (!r->target || strcmp(r->target, target) || v == VDC_INT_ABSENT)
            continue;
        for (k = 0; k < seen->len && g_array_index(seen, int64_t, k) != v; k++)
            ;
        if (k < seen->len)
            continue;
        g_array_append_val(seen, v);
        g_string_append_printf(s, "%s%lld", s->len ? "/" : "", (long long)v);
    }
    g_array_unref(seen);
    return g_string_free(s, FALSE);
}

static void
target_facts(GArray *f, const vdc_result_set *rs, const char *name)
{
    const vdc_target *t = vdc_result_set_find_target(rs, name);
    g_autofree char *sizes = file_sizes(rs, name);

    add_target_str(f, name, "file_size_mib", sizes);
    if (!t)
        return;
    add_target_str(f, name, "kind", t->kind);
    add_target_str(f, name, "where", t->where);
    add_target_str(f, name, "backend", t->backend.type);
    add_target_str(f, name, "backend_driver", t->backend.driver_name);
    add_target_str(f, name, "backend_cache", t->backend.cache);
    add_target_str(f, name, "backend_io", t->backend.io);
    add_target_str(f, name, "requested_backend", t->requested.image_backend);
    add_target_str(f, name, "requested_cache", t->requested.image_cache);
    if (t->cache.bypasses_dom0_page_cache != VDC_BOOL_ABSENT)
        add_target_str(f, name, "dom0_page_cache", t->cache.bypasses_dom0_page_cache ? "bypassed" : "used");
    add_target_str(f, name, "format", t->storage.format);
    add_target_str(f, name, "alloc", t->storage.alloc);
    if (t->storage.stripes != VDC_INT_ABSENT) {
        g_autofree char *v = g_strdup_printf("%lld", (long long)t->storage.stripes);

        add_target_str(f, name, "stripes", v);
    }
    if (t->filesystem.type) {
        g_autofree char *v = g_strdup_printf("%s%s%s", t->filesystem.type,
                                             t->filesystem.mkfs_options ? " " : "",
                                             t->filesystem.mkfs_options ? t->filesystem.mkfs_options : "");

        add_target_str(f, name, "filesystem", v);
    }
    add_target_str(f, name, "placement_disk", t->placement.disk);
}

GArray *
vdc_facts_of(const vdc_result_set *rs)
{
    GArray *f = vdc_facts_new();
    char **names = vdc_result_set_target_names(rs);

    if (rs->has_experiment) {
        const vdc_experiment *e = &rs->experiment;
        const vdc_host_info *h = &e->host;
        const vdc_image_dir_info *d = &h->image_dir;
        const vdc_hypervisor_info *hv = &e->hypervisor;
        const vdc_guest_info *g = &e->guest;

        vdc_facts_add(f, "host.hostname", h->hostname);
        vdc_facts_add(f, "host.kernel", h->kernel);
        vdc_facts_add(f, "host.cmdline", h->cmdline);
        vdc_facts_add(f, "host.cpu_model", h->cpu_model);
        add_int(f, "host.cpu_count", h->cpu_count);
        add_int(f, "host.ram_mib", h->ram_mib);
        vdc_facts_add(f, "host.cpu_governor", h->cpu_governor);
        vdc_facts_add(f, "host.mkfs_version", h->mkfs_version);
        vdc_facts_add(f, "disk.fs_type", d->fs_type);
        vdc_facts_add(f, "disk.device", d->device);
        vdc_facts_add(f, "disk.model", d->model);
        vdc_facts_add(f, "disk.scheduler", d->scheduler);
        add_bool(f, "disk.rotational", d->rotational);
        add_int(f, "disk.logical_block_size", d->logical_block_size);
        vdc_facts_add(f, "hypervisor.driver", hv->driver);
        vdc_facts_add(f, "hypervisor.uri", hv->uri);
        vdc_facts_add(f, "xen.version", hv->xen_version);
        vdc_facts_add(f, "xen.libxl_version", hv->libxl_version);
        vdc_facts_add(f, "xen.commandline", hv->xen_commandline);
        vdc_facts_add(f, "qemu.version", hv->qemu_version);
        vdc_facts_add(f, "libvirt.version", hv->libvirt_version);
        add_int(f, "guest.memory_mib", g->memory_mib);
        add_int(f, "guest.vcpus", g->vcpus);
        vdc_facts_add(f, "guest.kernel_sha256", g->kernel_sha256);
        vdc_facts_add(f, "guest.initrd_sha256", g->initrd_sha256);
        vdc_facts_add(f, "guest.cmdline", g->cmdline);
        vdc_facts_add(f, "guest.agent_sha256", g->agent_sha256);
        vdc_facts_add(f, "guest.template_sha256", g->template_sha256);
        add_int(f, "settings.runs", e->runs_per_target);
        vdc_facts_add(f, "settings.runs_mode", e->runs_policy.mode);
        vdc_facts_add(f, "settings.order", e->order);
        add_bool(f, "settings.emulated", e->emulated);
        vdc_facts_add(f, "vmdiskcmp.build", e->build);
    } else if (rs->n_runs) {
        const vdc_run_meta *m = &rs->runs[0]->meta;

        vdc_facts_add(f, "host.hostname", m->hostname);
        vdc_facts_add(f, "host.kernel", m->kernel);
        vdc_facts_add(f, "host.cpu_model", m->cpu_model);
        vdc_facts_add(f, "settings.tool", m->tool);
    }
    vdc_facts_add(f, "vmdiskcmp.version", rs->producer_version);
    for (size_t i = 0; names[i]; i++)
        target_facts(f, rs, names[i]);
    g_strfreev(names);
    vdc_facts_sort(f);
    return f;
}

/* ---- Groups and labels ------------------------------------------------------ */

static const struct {
    const char *prefix;      /* a fact name, or a prefix ending in '.' */
    const char *group;
    const char *label;       /* how a step's label names it; NULL: the name */
} fact_groups[] = {
    { "host.kernel", "kernel", "kernel" },
    { "host.cmdline", "kernel", "dom0 command line" },
    { "xen.version", "Xen", "Xen" },
    { "xen.libxl_version", "Xen", "libxl" },
    { "xen.commandline", "Xen", "Xen command line" },
    { "qemu.version", "QEMU", "QEMU" },
    { "libvirt.version", "libvirt", "libvirt" },
    { "hypervisor.driver", "hypervisor", "driver" },
    { "hypervisor.uri", "hypervisor", "URI" },
    { "disk.", "disk", NULL },
    { "host.", "host", NULL },
    { "guest.", "guest", NULL },
    { "target.*.backend", "backend", NULL },
    { "target.*.dom0_page_cache", "backend", NULL },
    { "target.", "settings", NULL },
    { "settings.", "settings", NULL },
    { "vmdiskcmp.", "vmdiskcmp", NULL },
};

static const char *const group_order[] = {
    "kernel", "Xen", "QEMU", "libvirt", "hypervisor", "disk", "host", "guest", "backend", "settings",
    "vmdiskcmp",
};

/* 1 when @name is a target fact whose last part is @field
 * ("target.image.backend" and "backend") */
static int
target_field_is(const char *name, const char *field)
{
    const char *dot = strrchr(name, '.');

    return g_str_has_prefix(name, "target.") && dot && !strcmp(dot + 1, field);
}

static int
group_index_of(const char *name)
{
    for (size_t i = 0; i < G_N_ELEMENTS(fact_groups); i++) {
        const char *p = fact_groups[i].prefix;

        if (g_str_has_prefix(p, "target.*.") ? target_field_is(name, p + 9) :
            p[strlen(p) - 1] == '.' ? g_str_has_prefix(name, p) : !strcmp(name, p))
            return (int)i;
    }
    return -1;
}

const char *
vdc_fact_group(const char *name)
{
    int i = group_index_of(name);

    return i < 0 ? "settings" : fact_groups[i].group;
}

/* "image backend" of "target.image.backend", "disk model" of
 * "disk.model", the table's label where it has one */
static char *
fact_label(const char *name)
{
    int i = group_index_of(name);

    if (i >= 0 && fact_groups[i].label)
        return g_strdup(fact_groups[i].label);
    if (g_str_has_prefix(name, "target.")) {
        const char *t = name + 7, *dot = strrchr(t, '.');
        g_autofree char *target = g_strndup(t, dot ? (size_t)(dot - t) : strlen(t));
        g_autofree char *field = g_strdelimit(g_strdup(dot ? dot + 1 : ""), "_", ' ');

        return g_strdup_printf("%s %s", target, field);
    }
    return g_strdelimit(g_strdup(name), "._", ' ');
}

/* @v cut for a label: at most 40 characters, a hash shown by its first 12 */
static char *
short_value(const char *name, const char *v)
{
    if (!v)
        return g_strdup("-");
    if (g_str_has_suffix(name, "_sha256") && strlen(v) > 12)
        return g_strndup(v, 12);
    if (g_utf8_strlen(v, -1) > 40) {
        g_autofree char *head = g_utf8_substring(v, 0, 39);

        return g_strconcat(head, "\u2026", NULL);
    }
    return g_strdup(v);
}

/* the fact @name of sorted @facts, or NULL */
static const char *
fact_value(const GArray *facts, const char *name)
{
    guint lo = 0, hi = facts->len;

    while (lo < hi) {
        guint mid = (lo + hi) / 2;
        const struct vdc_fact *f = &g_array_index(facts, struct vdc_fact, mid);
        int c = strcmp(f->name, name);

        if (!c)
            return f->value;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* 1 when target fact @name is about @target or @reference (or both are
 * NULL), or is no target fact */
static int
concerns(const char *name, const char *target, const char *reference)
{
    if (!g_str_has_prefix(name, "target.") || (!target && !reference))
        return 1;
    for (int k = 0; k < 2; k++) {
        const char *t = k ? reference : target;
        size_t n = t ? strlen(t) : 0;

        if (t && !strncmp(name + 7, t, n) && name[7 + n] == '.' && !strchr(name + 8 + n, '.'))
            return 1;
    }
    return 0;
}

static gint
str_ptr_cmp(gconstpointer a, gconstpointer b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

char *
vdc_facts_changes(const GArray *before, const GArray *after, const char *target, const char *reference,
                  char **groups)
{
    GString *out = g_string_new(NULL), *gs = g_string_new(NULL);
    GPtrArray *names = g_ptr_array_new();

    for (int side = 0; side < 2; side++) {
        const GArray *a = side ? after : before;

        for (guint i = 0; i < a->len; i++) {
            const char *n = g_array_index(a, struct vdc_fact, i).name;

            if (!g_ptr_array_find_with_equal_func(names, n, g_str_equal, NULL))
                g_ptr_array_add(names, (gpointer)n);
        }
    }
    g_ptr_array_sort(names, str_ptr_cmp);
    for (size_t g = 0; g < G_N_ELEMENTS(group_order); g++) {
        int any = 0;

        for (guint i = 0; i < names->len; i++) {
            const char *n = names->pdata[i];
            const char *a = fact_value(before, n), *b = fact_value(after, n);
            g_autofree char *label = NULL, *va = NULL, *vb = NULL;

            if (strcmp(vdc_fact_group(n), group_order[g]) || !concerns(n, target, reference) ||
                g_strcmp0(a, b) == 0 || !strcmp(n, "host.hostname"))
                continue;
            label = fact_label(n);
            va = short_value(n, a);
            vb = short_value(n, b);
            g_string_append_printf(out, "%s%s %s \u2192 %s", out->len ? "; " : "", label, va, vb);
            any = 1;
        }
        if (any)
            g_string_append_printf(gs, "%s%s", gs->len ? "," : "", group_order[g]);
    }
    g_ptr_array_free(names, TRUE);
    if (groups)
        *groups = g_string_free(gs, FALSE);
    else
        g_string_free(gs, TRUE);
    return g_string_free(out, FALSE);
}
