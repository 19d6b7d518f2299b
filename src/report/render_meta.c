/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp renderers: metadata, backend, cache and placement text
 * (render_meta.h). */
#include "config.h"

#include "report/render_meta.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "common/escape.h"
#include "common/util.h"
#include "model/knobs.h"

int
vdc_experiment_emulated(const vdc_result_set *rs)
{
    return rs->has_experiment && rs->experiment.emulated == 1;
}

static void
add(GPtrArray *v, const char *label, const char *value)
{
    if (!value || !*value)
        return;
    g_ptr_array_add(v, g_strdup(label));
    g_ptr_array_add(v, g_strdup(value));
}

static void
add_int(GPtrArray *v, const char *label, int64_t value, const char *unit)
{
    char buf[64];

    if (value == VDC_INT_ABSENT)
        return;
    snprintf(buf, sizeof(buf), "%" G_GINT64_FORMAT "%s%s", value, unit ? " " : "", unit ? unit : "");
    add(v, label, buf);
}

static void
add_bool(GPtrArray *v, const char *label, int value)
{
    if (value != VDC_BOOL_ABSENT)
        add(v, label, value ? "yes" : "no");
}

static void
add_fmt(GPtrArray *v, const char *label, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static void
add_fmt(GPtrArray *v, const char *label, const char *fmt, ...)
{
    va_list ap;
    char *s;

    va_start(ap, fmt);
    s = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    add(v, label, s);
    g_free(s);
}

/* The filesystem of the image directory and the disk behind it (facts.c) */
static void
image_dir_lines(GPtrArray *v, const vdc_image_dir_info *d)
{
    add(v, "Image directory", d->path);
    add(v, "Image directory filesystem", d->fs_type);
    add(v, "Image directory device", d->device);
    add(v, "Image device model", d->model);
    add_bool(v, "Image device rotational", d->rotational);
    add(v, "Image device I/O scheduler", d->scheduler);
    add_int(v, "Image device logical block size", d->logical_block_size, "bytes");
    add_int(v, "Image device physical block size", d->physical_block_size, "bytes");
}

/* What the run set in blkback's module parameter @pi and wrote back:
 * "set 1 (was 2, read back 1), restored 2 (/sys/module/...)", or NULL
 * when it set nothing.  New string. */
static char *
blkback_text(const vdc_blkback_param_info *pi, const char *source)
{
    GString *s;

    if (pi->set == VDC_INT_ABSENT)
        return NULL;
    s = g_string_new(NULL);
    g_string_append_printf(s, "set %" G_GINT64_FORMAT, (gint64)pi->set);
    if (pi->was != VDC_INT_ABSENT)
        g_string_append_printf(s, " (was %" G_GINT64_FORMAT, (gint64)pi->was);
    if (pi->read_back != VDC_INT_ABSENT)
        g_string_append_printf(s, "%sread back %" G_GINT64_FORMAT,
                               pi->was != VDC_INT_ABSENT ? ", " : " (", (gint64)pi->read_back);
    if (pi->was != VDC_INT_ABSENT || pi->read_back != VDC_INT_ABSENT)
        g_string_append_c(s, ')');
    if (pi->restored != VDC_INT_ABSENT)
        g_string_append_printf(s, ", restored %" G_GINT64_FORMAT, (gint64)pi->restored);
    else
        g_string_append(s, ", NOT restored (run 'vmdiskcmp cleanup DIR')");
    if (source)
        g_string_append_printf(s, " (%s)", source);
    return g_string_free(s, FALSE);
}

static void
blkback_lines(GPtrArray *v, const vdc_blkback_info *b)
{
    g_autofree char *order = blkback_text(&b->max_ring_page_order, b->source);
    g_autofree char *queues = blkback_text(&b->max_queues, b->source);

    add(v, "blkback max_ring_page_order", order);
    add(v, "blkback max_queues", queues);
}

/* "Run time": where the run's wall time went (experiment.time):
 * "1h02m03s: domU boots 80 % (the agent 71 %), dom0 baseline 12 %, guest
 * image 3 %, storage 1 %, teardown 1 %" */
static void
time_line(GPtrArray *v, const vdc_time_info *t)
{
    const struct { const char *what; double s; } part[] = {
        { "domU boots", t->domu_s }, { "dom0 baseline", t->dom0_s },
        { "guest image", t->prepare_s }, { "storage", t->provision_s }, { "teardown", t->teardown_s },
    };
    GString *s;
    char d[32];
    size_t i;
    int first = 1;

    if (!vdc_has(t->total_s) || t->total_s <= 0)
        return;
    s = g_string_new(vdc_fmt_duration(d, sizeof(d), t->total_s));
    for (i = 0; i < G_N_ELEMENTS(part); i++) {
        if (!vdc_has(part[i].s))
            continue;
        g_string_append_printf(s, "%s %s %.0f %%", first ? ":" : ",", part[i].what,
                               100.0 * part[i].s / t->total_s);
        first = 0;
        if (i == 0 && vdc_has(t->domu_agent_s))
            g_string_append_printf(s, " (the agent %.0f %%)", 100.0 * t->domu_agent_s / t->total_s);
    }
    add(v, "Run time", s->str);
    g_string_free(s, TRUE);
}

static void
experiment_lines(GPtrArray *v, const vdc_experiment *e)
{
    add(v, "Experiment", e->id);
    add(v, "Date", e->date);
    add(v, "vmdiskcmp build", e->build);
    add(v, "Command line", e->command_line);
    add(v, "Seed", e->seed);
    add_int(v, "Runs per target", e->runs_per_target, NULL);
    add(v, "Order", e->order);
    time_line(v, &e->time);
    add_bool(v, "Emulated", e->emulated);
    add(v, "Host", e->host.hostname);
    add(v, "Host kernel", e->host.kernel);
    add(v, "Host kernel command line", e->host.cmdline);
    add(v, "Host CPU", e->host.cpu_model);
    add_int(v, "Host CPUs", e->host.cpu_count, NULL);
    add_int(v, "Host RAM", e->host.ram_mib, "MiB");
    add(v, "CPU governor", e->host.cpu_governor);
    image_dir_lines(v, &e->host.image_dir);
    blkback_lines(v, &e->host.blkback);
    add(v, "mkfs (dom0)", e->host.mkfs_version);
    add(v, "Hypervisor driver", e->hypervisor.driver);
    add(v, "Hypervisor URI", e->hypervisor.uri);
    add(v, "Xen version", e->hypervisor.xen_version);
    add(v, "Xen command line", e->hypervisor.xen_commandline);
    add(v, "libxl version", e->hypervisor.libxl_version);
    add(v, "libvirt version", e->hypervisor.libvirt_version);
    add(v, "QEMU version", e->hypervisor.qemu_version);
    add(v, "Guest template", e->guest.template_path);
    add(v, "Guest template SHA-256", e->guest.template_sha256);
    add(v, "Agent SHA-256", e->guest.agent_sha256);
    add(v, "Prepared image", e->guest.prepared_image);
    add_int(v, "Guest memory", e->guest.memory_mib, "MiB");
    add_int(v, "Guest vCPUs", e->guest.vcpus, NULL);
    add(v, "Guest kernel", e->guest.kernel);
    add(v, "Guest kernel SHA-256", e->guest.kernel_sha256);
    add(v, "Guest initrd", e->guest.initrd);
    add(v, "Guest initrd SHA-256", e->guest.initrd_sha256);
    add(v, "Guest kernel command line", e->guest.cmdline);
}

/* render_meta.h */
char *
vdc_placement_text(const vdc_target *t)
{
    const vdc_target_placement *pl = &t->placement;
    GString *s;

    if (!pl->disk)
        return NULL;
    s = g_string_new(NULL);
    g_string_append_printf(s, "%" G_GINT64_FORMAT " range%s, %.1f MiB on %s", (gint64)pl->n_ranges
                           + (pl->ranges_omitted != VDC_INT_ABSENT ? pl->ranges_omitted : 0),
                           pl->n_ranges == 1 ? "" : "s",
                           pl->mapped_bytes != VDC_INT_ABSENT ? (double)pl->mapped_bytes / 1048576.0 : 0.0,
                           pl->disk);
    if (pl->rotational != VDC_BOOL_ABSENT)
        g_string_append(s, pl->rotational ? " (rotational)" : " (not rotational)");
    if (vdc_has(pl->center_bytes) && pl->disk_bytes != VDC_INT_ABSENT && pl->disk_bytes > 0)
        g_string_append_printf(s, ", centre at %.1f %% of the disk", 100.0 * pl->center_bytes /
                               (double)pl->disk_bytes);
    if (pl->source)
        g_string_append_printf(s, " (%s)", pl->source);
    if (pl->reason)
        g_string_append_printf(s, "; %s", pl->reason);
    return g_string_free(s, FALSE);
}

/* @b bytes as "64 KiB", "1.5 MiB", "512 B" into @buf */
static const char *
size_text(int64_t b, char *buf, size_t n)
{
    if (b >= 1073741824 && b % 1073741824 == 0)
        snprintf(buf, n, "%" G_GINT64_FORMAT " GiB", (gint64)(b / 1073741824));
    else if (b >= 1048576 && b % 1048576 == 0)
        snprintf(buf, n, "%" G_GINT64_FORMAT " MiB", (gint64)(b / 1048576));
    else if (b >= 1048576)
        snprintf(buf, n, "%.1f MiB", (double)b / 1048576.0);
    else if (b >= 1024 && b % 1024 == 0)
        snprintf(buf, n, "%" G_GINT64_FORMAT " KiB", (gint64)(b / 1024));
    else
        snprintf(buf, n, "%" G_GINT64_FORMAT " B", (gint64)b);
    return buf;
}

/* ", NAME B % before -> A % after" of a thin pool's use (? unknown) */
static void
percent_pair_text(GString *s, const char *name, const double pct[2])
{
    g_string_append_printf(s, ", %s ", name);
    if (isnan(pct[0]))
        g_string_append(s, "?");
    else
        g_string_append_printf(s, "%.2f %%", pct[0]);
    g_string_append(s, " before -> ");
    if (isnan(pct[1]))
        g_string_append(s, "?");
    else
        g_string_append_printf(s, "%.2f %%", pct[1]);
    g_string_append(s, " after");
}

/* render_meta.h */
char *
vdc_storage_text(const vdc_target *t)
{
    const vdc_target_storage *st = &t->storage;
    const vdc_target_qcow2 *q = &st->qcow2;
    const vdc_target_thin *th = &st->thin;
    const char *what = NULL;
    char a[32], b[32];
    double full;
    GString *s;

    if (!st->format && !st->lv_type)
        return NULL;
    s = g_string_new(NULL);
    if (st->format) {
        g_string_append_printf(s, "%s %s", st->format, st->alloc ? st->alloc : "(allocation unknown)");
        if (q->preallocation || q->cluster_size != VDC_INT_ABSENT) {
            g_string_append_printf(s, ": preallocation %s, cluster %s, L2 cache %s",
                                   q->preallocation ? q->preallocation : "?",
                                   q->cluster_size != VDC_INT_ABSENT ? size_text(q->cluster_size, a, sizeof(a)) : "?",
                                   q->l2_cache_size != VDC_INT_ABSENT ? size_text(q->l2_cache_size, b, sizeof(b))
                                                                      : "QEMU's default");
            if (q->mapped_bytes != VDC_INT_ABSENT && q->virtual_size != VDC_INT_ABSENT)
                g_string_append_printf(s, ", %.1f of %.1f MiB mapped at creation", (double)q->mapped_bytes / 1048576.0,
                                       (double)q->virtual_size / 1048576.0);
            if (q->actual_size != VDC_INT_ABSENT)
                g_string_append_printf(s, ", %.1f MiB on the host", (double)q->actual_size / 1048576.0);
            g_string_append_printf(s, " (read from %s)", q->source ? q->source : "?");
        }
    } else {
        g_string_append_printf(s, "%s LV %s/%s", st->lv_type, st->vg ? st->vg : "?", st->lv ? st->lv : "?");
        if (st->stripes != VDC_INT_ABSENT && st->stripes > 1)
            g_string_append_printf(s, ", %" G_GINT64_FORMAT " stripes of %s", (gint64)st->stripes,
                                   size_text(st->stripe_size, a, sizeof(a)));
        if (st->pe_start != VDC_INT_ABSENT)
            g_string_append_printf(s, ", PE start %s", size_text(st->pe_start, a, sizeof(a)));
        if (th->pool) {
            g_string_append_printf(s, "; pool %s", th->pool);
            if (th->chunk_size != VDC_INT_ABSENT)
                g_string_append_printf(s, ", chunk %s", size_text(th->chunk_size, a, sizeof(a)));
            if (th->zeroing != VDC_BOOL_ABSENT)
                g_string_append_printf(s, ", zeroing %s", th->zeroing ? "on" : "off");
            if (th->discards)
                g_string_append_printf(s, ", discards %s", th->discards);
            percent_pair_text(s, "data", th->data_percent);
            if (!isnan(th->metadata_percent[0]) || !isnan(th->metadata_percent[1]))
                percent_pair_text(s, "metadata", th->metadata_percent);
            full = vdc_target_thin_pool_full(t, &what);
            if (!isnan(full))
                g_string_append_printf(s, "; OVER %.0f %% FULL after the runs (%s %.2f %%)",
                                       VDC_THIN_POOL_FULL_PERCENT, what, full);
            g_string_append_printf(s, " (read from %s)", th->source ? th->source : "nothing: unknown");
        }
    }
    return g_string_free(s, FALSE);
}

/* a guest filesystem's layer (checked against alignment.guest) */
static int
guest_layer(const vdc_target_alignment *al, const vdc_target_align_layer *l)
{
    return al->guest.disk && g_str_has_prefix(l->layer, "fs_");
}

/* "on DISK (physical block P, minimum I/O M, optimal I/O O bytes):" and
 * the layers of @al that are (@guest) or are not the guest's */
static void
align_layers_text(GString *s, const vdc_target_alignment *al, int guest)
{
    const char *disk = guest ? al->guest.disk : al->disk;
    int64_t pbs = guest ? al->guest.physical_block_size : al->physical_block_size;
    int64_t min = guest ? al->guest.minimum_io_size : al->minimum_io_size;
    int64_t opt = guest ? al->guest.optimal_io_size : al->optimal_io_size;
    size_t i, n = 0;

    g_string_append_printf(s, "on %s (physical block %" G_GINT64_FORMAT ", minimum I/O %" G_GINT64_FORMAT
                              ", optimal I/O %" G_GINT64_FORMAT " bytes):",
                           disk ? disk : "?", pbs != VDC_INT_ABSENT ? pbs : 0,
                           min != VDC_INT_ABSENT ? min : 0, opt != VDC_INT_ABSENT ? opt : 0);
    for (i = 0; i < al->n_layers; i++) {
        const vdc_target_align_layer *l = &al->layers[i];

        if (guest_layer(al, l) != guest)
            continue;
        g_string_append_printf(s, "%s %s", n++ ? "," : "", l->layer);
        if (l->offset != VDC_INT_ABSENT)
            g_string_append_printf(s, " at %" G_GINT64_FORMAT, (gint64)l->offset);
        if (l->size != VDC_INT_ABSENT)
            g_string_append_printf(s, " unit %" G_GINT64_FORMAT, (gint64)l->size);
    }
}

/* render_meta.h */
char *
vdc_alignment_text(const vdc_target *t)
{
    const vdc_target_alignment *al = &t->alignment;
    GString *s;
    size_t i, host = 0;

    if (!al->n_layers)
        return NULL;
    for (i = 0; i < al->n_layers; i++)
        host += !guest_layer(al, &al->layers[i]);
    s = g_string_new(NULL);
    if (host)
        align_layers_text(s, al, 0);
    if (host < al->n_layers) {
        g_string_append(s, host ? "; in the guest " : "in the guest ");
        align_layers_text(s, al, 1);
    }
    if (vdc_target_misaligned(t)) {
        g_string_append(s, "; MISALIGNED: ");
        for (i = 0; i < al->n_layers; i++)
            if (al->layers[i].why)
                g_string_append_printf(s, "%s%s", s->str[s->len - 2] == ':' ? "" : "; ", al->layers[i].why);
    } else {
        g_string_append(s, "; all aligned");
    }
    if (al->source && al->guest.source)
        g_string_append_printf(s, " (read from %s; in the guest from %s)", al->source, al->guest.source);
    else if (al->source || al->guest.source)
        g_string_append_printf(s, " (read from %s)", al->source ? al->source : al->guest.source);
    return g_string_free(s, FALSE);
}

/* What served target @t's disk, as read back (vdc_knobs_served_text, the
 * answer's words) and the backend requested when it differs: "blkback
 * (phy) /dev/loop0 (a loop device over the image) (read from xenstore);
 * requested tap", or NULL when nothing was read back.  Newly allocated. */
static char *
backend_text(const vdc_target *t, const char *host)
{
    char *served = vdc_knobs_served_text(t, host);
    char *s;

    if (!served || !t->requested.image_backend || !strcmp(t->requested.image_backend, t->backend.type))
        return served;
    s = g_strdup_printf("%s; requested %s", served, t->requested.image_backend);
    g_free(served);
    return s;
}

/* render_meta.h */
void
vdc_append_cache_text(GString *out, const vdc_result_set *rs)
{
    const char *host = vdc_answer_host_word(rs);
    size_t i;
    int any = 0;

    {
        const vdc_blkback_info *bb = &rs->experiment.host.blkback;
        g_autofree char *order = blkback_text(&bb->max_ring_page_order, NULL);
        g_autofree char *queues = blkback_text(&bb->max_queues, NULL);

        if (order || queues) {
            any++;
            g_string_append(out, "Backend, cache and placement, read back after boot:\n");
            if (order)
                g_string_append_printf(out, "  dom0: blkback max_ring_page_order %s\n", order);
            if (queues)
                g_string_append_printf(out, "  dom0: blkback max_queues %s\n", queues);
        }
    }
    for (i = 0; i < rs->n_targets; i++) {
        const vdc_target *t = rs->targets[i];
        /* a target's lines, in this order: its variant as planned, then
         * what was read back */
        struct { const char *label, *after; char *text; } line[] = {
            { "variant", " (as planned)", vdc_target_variant_text(t) },
            { "backend", "", backend_text(t, host) },
            { "disk", "", vdc_knobs_text(t) },
            { "NOT AS ASKED", "", vdc_knobs_mismatch(t) },
            { "cache", "", vdc_knobs_cache_text(t, host) },
            { "storage", "", vdc_storage_text(t) },
            { "placement", "", vdc_placement_text(t) },
            { "alignment", "", vdc_alignment_text(t) },
        };
        g_autofree char *name = vdc_escape_text(t->name, -1, 0);
        size_t k;

        for (k = 0; k < G_N_ELEMENTS(line); k++) {
            g_autofree char *e = line[k].text ? vdc_escape_text(line[k].text, -1, 0) : NULL;

            g_free(line[k].text);
            if (!e)
                continue;
            if (!any++)
                g_string_append(out, "Backend, cache and placement, read back after boot:\n");
            g_string_append_printf(out, "  %s: %s: %s%s\n", name, line[k].label, e, line[k].after);
        }
    }
    if (any)
        g_string_append_c(out, '\n');
}

/* @host: whose page cache (vdc_answer_host_word) */
static void
target_lines(GPtrArray *v, const vdc_target *t, const char *host)
{
    char *p = g_strdup_printf("Target %s", t->name);
    char *l;

#define T(label, val) do { l = g_strdup_printf("%s: %s", p, label); add(v, l, val); g_free(l); } while (0)
#define TI(label, val, unit) do { l = g_strdup_printf("%s: %s", p, label); add_int(v, l, val, unit); g_free(l); } while (0)
    T("kind", t->kind);
    T("benchmarked in", t->where);
    {
        g_autofree char *variant = vdc_target_variant_text(t);

        T("variant", variant);
    }
    T("requested disk spec", t->requested.disk_spec);
    T("requested domain XML disk", t->requested.domain_xml_disk);
    T("requested image backend", t->requested.image_backend);
    T("requested image cache", t->requested.image_cache);
    T("backend found", t->backend.type);
    T("backend read from", t->backend.source);
    T("xenstore path", t->backend.xenstore_path);
    T("physical device", t->backend.physical_device);
    T("backend params", t->backend.params);
    T("vdev", t->backend.vdev);
    T("driver", t->backend.driver_name);
    T("cache", t->backend.cache);
    T("io", t->backend.io);
    T("requested disk cache", t->requested.disk_cache);
    T("requested disk io", t->requested.disk_io);
    TI("requested I/O threads", t->requested.iothreads, NULL);
    TI("requested queues", t->requested.queues, NULL);
    T("requested disk bus", t->requested.disk_bus);
    {
        g_autofree char *knobs = vdc_knobs_text(t), *mismatch = vdc_knobs_mismatch(t);

        T("disk read back", knobs);
        T("not as asked", mismatch);
    }
    T("storage path", t->storage.path);
    TI("storage size", t->storage.size_bytes, "bytes");
    T("storage format", t->storage.format);
    T("allocation", t->storage.alloc);
    T("VG", t->storage.vg);
    T("LV", t->storage.lv);
    TI("stripes", t->storage.stripes, NULL);
    TI("stripe size", t->storage.stripe_size, "bytes");
    TI("PE start", t->storage.pe_start, "bytes");
    T("device", t->storage.device);
    T("filesystem", t->filesystem.type);
    T("mkfs options", t->filesystem.mkfs_options);
    {
        g_autofree char *cache = vdc_knobs_cache_text(t, host), *place = vdc_placement_text(t);
        g_autofree char *storage = vdc_storage_text(t), *align = vdc_alignment_text(t);

        T("storage read back", storage);
        T("cache read back", cache);
        T("placement", place);
        T("alignment", align);
    }
#undef T
#undef TI
    g_free(p);
}

/* Per run: the facts of the tool run (first run of each target in full,
 * then only what differs would be ideal; all runs are listed, they are
 * few). */
static void
run_lines(GPtrArray *v, const vdc_run *r)
{
    const vdc_run_meta *m = &r->meta;
    GString *s = g_string_new(NULL);
    char *label = r->level != VDC_INT_ABSENT
                ? g_strdup_printf("Run %s #%" G_GINT64_FORMAT " (%" G_GINT64_FORMAT " guest%s, g%" G_GINT64_FORMAT ")",
                                  r->target, r->repetition, r->level, r->level == 1 ? "" : "s", vdc_run_guest(r))
                : g_strdup_printf("Run %s #%" G_GINT64_FORMAT, r->target, r->repetition);

#define S(fmt, val) do { if (val) g_string_append_printf(s, fmt, val); } while (0)
#define I(fmt, val) do { if ((val) != VDC_INT_ABSENT) g_string_append_printf(s, fmt, (val)); } while (0)
    S("%s", m->tool);
    S("; host %s", m->hostname);
    S("; kernel %s", m->kernel);
    S("; CPU %s", m->cpu_model);
    I("; RAM %" G_GINT64_FORMAT " MiB", m->ram_mib);
    S("; date %s", m->date);
    S("; seed %s", m->seed);
    I("; file size %" G_GINT64_FORMAT " MiB", m->file_size_mib);
    I("; chunk %" G_GINT64_FORMAT " bytes", m->chunk_size);
    I("; seeks %" G_GINT64_FORMAT, m->seeks);
    I("; seek processes %" G_GINT64_FORMAT, m->seek_processes);
    if (m->files.number != VDC_INT_ABSENT && m->files.number > 0)   /* -n 0: no file tests */
        g_string_append_printf(s, "; files %" G_GINT64_FORMAT "x1024", m->files.number);
    S("; path %s", m->path);
    S("; fs %s", m->fs_type);
    S("; device %s", m->device);
    if (m->direct_io != VDC_BOOL_ABSENT)
        g_string_append_printf(s, "; O_DIRECT %s", m->direct_io ? "yes" : "no");
    S("; per-char %s", m->per_char);
    S("; trace digest %s", m->trace_digest);
    S("; command: %s", m->command_line);
    if (m->source.file) {
        g_string_append_printf(s, "; imported from %s", m->source.file);
        I(":%" G_GINT64_FORMAT, m->source.line);
        S(" (%s)", m->source.format);
    }
    if (r->status && strcmp(r->status, "ok"))
        g_string_append_printf(s, "; status %s", r->status);
    S(": %s", r->error);
#undef S
#undef I
    /* a run without metadata (one that failed before its agent wrote
     * any) starts with its status: no empty first field */
    add(v, label, g_str_has_prefix(s->str, "; ") ? s->str + 2 : s->str);
    g_string_free(s, TRUE);
    g_free(label);
}

char **
vdc_metadata_lines(const vdc_result_set *rs, const struct vdc_analysis *a)
{
    GPtrArray *v = g_ptr_array_new();
    size_t i;

    add_fmt(v, "Report", "vmdiskcmp %s", PACKAGE_VERSION);
    if (rs->producer_name)
        add_fmt(v, "Result producer", "%s %s", rs->producer_name,
                rs->producer_version ? rs->producer_version : "");
    if (rs->has_experiment)
        experiment_lines(v, &rs->experiment);
    for (i = 0; i < rs->n_targets; i++)
        target_lines(v, rs->targets[i], vdc_answer_host_word(rs));
    for (i = 0; i < rs->n_runs; i++)
        run_lines(v, rs->runs[i]);
    add_fmt(v, "Statistics",
            "baseline %s; 95 %% CI of the mean: Student t; 95 %% CI of the median: percentile bootstrap, "
            "%u resamples, gsl_rng_mt19937 seed %lu; outliers: modified z-score > %g (%s); "
            "comparisons: Welch t-test (alpha %g), Fieller 95 %% CI of the ratio of means",
            a->baseline, a->opt.bootstrap_resamples, a->opt.bootstrap_seed, a->opt.outlier_threshold,
            vdc_outlier_policy_name(a->opt.policy), a->alpha);
    g_ptr_array_add(v, NULL);
    return (char **)g_ptr_array_free(v, FALSE);
}
