/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp renderers: shared formatting, metadata and statistics JSON. */
#include "config.h"

#include "report/render_util.h"
#include "report/render.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "common/escape.h"
#include "common/util.h"

const char *
vdc_fmt_num_s(double v)
{
    static char ring[8][48];
    static unsigned next;
    char *b = ring[next++ % 8];

    if (!vdc_has(v))
        b[0] = '\0';
    else if (fabs(v) >= 1000)
        snprintf(b, sizeof(ring[0]), "%.0f", v);
    else if (fabs(v) < 10)
        snprintf(b, sizeof(ring[0]), "%.2f", v);
    else
        snprintf(b, sizeof(ring[0]), "%.1f", v);
    return b;
}

void
vdc_fmt_cell_mean(char *buf, size_t size, const struct vdc_cell *c)
{
    if (c->sum.n && c->n_too_fast_excluded)
        snprintf(buf, size, "%s" VDC_TOO_FAST_MARK, vdc_fmt_num_s(c->sum.mean));
    else if (c->sum.n)
        snprintf(buf, size, "%s", vdc_fmt_num_s(c->sum.mean));
    else if (c->n_too_fast)
        snprintf(buf, size, "+++++ (too fast)");
    else if (c->n_failed)
        snprintf(buf, size, "failed");
    else
        buf[0] = '\0';
    if (c->sum.n && (c->flags & VDC_CELL_ARTEFACTS))
        g_strlcat(buf, VDC_ARTEFACT_MARK, size);
}

void
vdc_fmt_delta(char *buf, size_t size, const struct vdc_stats_comparison *c, int with_mark)
{
    if (!c->has_ratio) {
        buf[0] = '\0';
        return;
    }
    snprintf(buf, size, "%+.1f%%%s", c->delta_percent, with_mark ? vdc_significance_mark(c) : "");
}

void
vdc_fmt_cell_delta(char *buf, size_t size, const struct vdc_cell_comparison *cc, int with_mark)
{
    vdc_fmt_delta(buf, size, &cc->c, with_mark);
    if (buf[0] && (cc->target->flags & VDC_CELL_ARTEFACT_MARKED))
        g_strlcat(buf, VDC_ARTEFACT_MARK, size);
}

/* "image 512 MiB, dom0 49152 MiB" (a target with several sizes: "a/b") */
static void
sizes_list(GString *s, const struct vdc_analysis *a)
{
    size_t ti, j;

    for (ti = 0; ti < a->n_targets; ti++) {
        const struct vdc_target_files *f = &a->files[ti];

        if (!f->n_sizes)
            continue;
        g_string_append_printf(s, "%s%s ", s->len ? ", " : "", a->targets[ti]);
        for (j = 0; j < f->n_sizes; j++)
            g_string_append_printf(s, "%s%" G_GINT64_FORMAT, j ? "/" : "", f->sizes[j]);
        g_string_append(s, " MiB");
    }
}

/* whose memory: the target's where, or the target's own memory_mib
 * (a merged target that says nowhere) */
static const char *
machine_name(const char *where)
{
    if (!where)
        return "the machine's";
    return !strcmp(where, "domU") ? "the domU's" : !strcmp(where, "dom0") ? "dom0's" : "the host's";
}

char *
vdc_warning_text(const vdc_result_set *rs, const struct vdc_analysis *a, const struct vdc_warning *w)
{
    const struct vdc_target_files *f;
    GString *s;
    size_t i;

    switch (w->kind) {
    case VDC_WARNING_EMULATED:
        return g_strdup(VDC_EMULATED_WARNING);
    case VDC_WARNING_ALL_FAILED:
        s = g_string_new(NULL);
        g_string_append_printf(s, "All %zu run%s failed: there is nothing to compare", rs->n_runs,
                               rs->n_runs == 1 ? "" : "s");
        for (i = 0; i < rs->n_runs; i++)
            g_string_append_printf(s, "%s %s #%" G_GINT64_FORMAT ": %s", i ? ";" : ":", rs->runs[i]->target,
                                   rs->runs[i]->repetition,
                                   rs->runs[i]->error ? rs->runs[i]->error : rs->runs[i]->status);
        g_string_append_c(s, '.');
        return g_string_free(s, FALSE);
    case VDC_WARNING_FEW_VALUES:
        return g_strdup(VDC_FEW_VALUES_WARNING);
    case VDC_WARNING_FEW_RUNS:
        return g_strdup(VDC_FEW_RUNS_WARNING);
    case VDC_WARNING_TOO_FAST:
        return g_strdup(VDC_TOO_FAST_LEGEND);
    case VDC_WARNING_SIZES_DIFFER:
        s = g_string_new(NULL);
        sizes_list(s, a);
        g_string_prepend(s, "test file sizes differ: ");
        g_string_append(s, ": deltas mix size effects with backend effects.");
        return g_string_free(s, FALSE);
    case VDC_WARNING_UNDER_2X_RAM:
        f = &a->files[w->target];
        if (f->small_ram > f->small_told)
            return g_strdup_printf("target %s: test file %" G_GINT64_FORMAT " MiB is under twice %s memory "
                                   "(%" G_GINT64_FORMAT " MiB; the agent was told -r %" G_GINT64_FORMAT ") in "
                                   "%zu of %zu run%s: the page cache flatters the result (bonnie++ wants at "
                                   "least twice the RAM).", a->targets[w->target], f->small_size,
                                   machine_name(f->where), f->small_ram, f->small_told, f->n_small, f->n_runs,
                                   f->n_runs == 1 ? "" : "s");
        return g_strdup_printf("target %s: test file %" G_GINT64_FORMAT " MiB is under twice the RAM (%"
                               G_GINT64_FORMAT " MiB) in %zu of %zu run%s: the page cache flatters the result "
                               "(bonnie++ wants at least twice the RAM).", a->targets[w->target], f->small_size,
                               f->small_ram, f->n_small, f->n_runs, f->n_runs == 1 ? "" : "s");
    case VDC_WARNING_ARTEFACTS:
        return g_strdup(VDC_ARTEFACT_LEGEND);
    case VDC_WARNING_ARTEFACT: {
        const struct vdc_cell *c = vdc_analysis_cell(a, w->target, w->test);
        int b = vdc_cell_flag_index(w->flag);

        return g_strdup_printf(VDC_ARTEFACT_MARK " target %s, test %s, %s: %s.", c->target, c->test_key,
                               vdc_cell_flag_name(w->flag), b >= 0 && c->why[b] ? c->why[b] : "");
    }
    }
    return g_strdup("");
}

char **
vdc_warning_texts(const vdc_result_set *rs, const struct vdc_analysis *a, unsigned kinds)
{
    GPtrArray *v = g_ptr_array_new();
    size_t i;

    for (i = 0; i < a->n_warnings; i++)
        if (kinds & VDC_WARNING_BIT(a->warnings[i].kind))
            g_ptr_array_add(v, vdc_warning_text(rs, a, &a->warnings[i]));
    g_ptr_array_add(v, NULL);
    return (char **)g_ptr_array_free(v, FALSE);
}

/* render.h */
char **
vdc_report_warnings(const vdc_result_set *rs, const struct vdc_analysis *a)
{
    return vdc_warning_texts(rs, a, VDC_WARNINGS_REPORT);
}

/* render.h */
char **
vdc_compare_warnings(const vdc_result_set *rs, const struct vdc_analysis *a)
{
    return vdc_warning_texts(rs, a, VDC_WARNINGS_COMPARE);
}

/* render_util.h */
int
vdc_outlier_rule_applied(const struct vdc_analysis *a)
{
    size_t ti, ki;

    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++)
            if (vdc_analysis_cell(a, ti, ki)->n_values >= VDC_STATS_OUTLIER_MIN_N)
                return 1;
    return 0;
}

/* render.h */
char *
vdc_cell_flags_text(unsigned flags)
{
    GString *s = g_string_new(NULL);
    unsigned i;

    for (i = 0; i < VDC_CELL_FLAG_COUNT; i++)
        if (flags & (1u << i))
            g_string_append_printf(s, "%s%s", s->len ? ";" : "", vdc_cell_flag_name(1u << i));
    return g_string_free(s, FALSE);
}

/* ---- text shared by text, Markdown and compare ------------------------------- */

/* render_util.h */
void
vdc_md_escape(GString *out, const char *s)
{
    /* controls first (common/escape.h), then Markdown's own characters:
     * the backslash of "\x1b" is doubled so it shows */
    char *e = vdc_escape_text(s, -1, 0);
    const char *p;

    for (p = e; *p; p++) {
        if (strchr("|\\`*_[]<>", *p))
            g_string_append_c(out, '\\');
        g_string_append_c(out, *p);
    }
    g_free(e);
}

/* @s as is, or Markdown-escaped with @md (the user's names: targets). */
static char *
md_name(const char *s, int md)
{
    GString *g;

    if (!md)
        return g_strdup(s ? s : "");
    g = g_string_new(NULL);
    vdc_md_escape(g, s ? s : "");
    return g_string_free(g, FALSE);
}

/* render_util.h */
void
vdc_append_lines(GString *out, char *const *lines, const char *prefix, const char *suffix,
                 vdc_escape_fn escape)
{
    size_t i;

    for (i = 0; lines[i]; i++) {
        g_string_append(out, prefix);
        if (escape)
            escape(out, lines[i]);
        else
            g_string_append(out, lines[i]);
        g_string_append(out, suffix);
    }
}

/* render_util.h */
void
vdc_append_pairs(GString *out, char *const *pairs, const char *before, const char *between,
                 const char *after, vdc_escape_fn escape)
{
    size_t i;

    for (i = 0; pairs[i] && pairs[i + 1]; i += 2) {
        g_string_append(out, before);
        escape(out, pairs[i]);
        g_string_append(out, between);
        escape(out, pairs[i + 1]);
        g_string_append(out, after);
    }
}

/* render_util.h */
size_t
vdc_append_warnings(GString *out, const vdc_result_set *rs, const struct vdc_analysis *a, unsigned kinds,
                    const char *prefix, const char *suffix, vdc_escape_fn escape)
{
    char **w = vdc_warning_texts(rs, a, kinds);
    size_t n = g_strv_length(w);

    vdc_append_lines(out, w, prefix, suffix, escape);
    g_strfreev(w);
    return n;
}

/* render_util.h */
void
vdc_append_notes(GString *out, const struct vdc_analysis *a, const char *bullet, const char *sub, int md)
{
    size_t ti, ki, i;
    int any = 0;

    g_string_append_printf(out, "%sOutlier rule: modified z-score |0.6745 (x - median) / MAD| > %g "
                           "(Iglewicz-Hoaglin), applied to %d or more values, policy %s%s.\n", bullet, a->opt.outlier_threshold,
                           VDC_STATS_OUTLIER_MIN_N,
                           vdc_outlier_policy_name(a->opt.policy),
                           a->opt.policy == VDC_OUTLIERS_DROP ? " (flagged samples are left out of the statistics)"
                           : " (flagged samples stay in the statistics)");
    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);

            for (i = 0; i < c->n_values; i++)
                if (c->samples[i].outlier) {
                    g_autofree char *tn = md_name(c->target, md);
                    g_autofree char *kn = md_name(c->test_key, md);

                    g_string_append_printf(out, "%soutlier: target %s, test %s, repetition %" G_GINT64_FORMAT
                                           ", value %s %s, modified z %.2f\n", sub, tn, kn,
                                           c->samples[i].repetition, vdc_fmt_num_s(c->samples[i].value),
                                           c->unit ? c->unit : "", c->samples[i].modified_z);
                    any = 1;
                }
        }
    if (!any)
        g_string_append_printf(out, "%s%s\n", sub, vdc_outlier_rule_applied(a) ? "no sample flagged."
                               : "rule not applied: no cell has enough values.");
    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);

            g_autofree char *tn = md_name(c->target, md);
            g_autofree char *kn = md_name(c->test_key, md);

            if (c->n_no_value)
                g_string_append_printf(out, "%sExcluded: target %s, test %s: %zu of %zu %s no value "
                                       "(%zu too fast, +++++; %zu failed).\n", bullet, tn, kn,
                                       c->n_no_value, c->n_samples, c->n_samples == 1 ? "sample has" : "samples have", c->n_too_fast, c->n_failed);
        }
}

/* render_util.h */
void
vdc_append_verdicts(GString *out, const struct vdc_analysis *a, const char *prefix, const char *suffix,
                    vdc_escape_fn escape)
{
    char **v = vdc_analysis_verdict_lines(a);

    vdc_append_lines(out, v, prefix, suffix, escape);
    if (v[0])
        g_string_append_c(out, '\n');
    g_strfreev(v);
}

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

/* render.h */
char *
vdc_cache_text(const vdc_target *t)
{
    const vdc_target_cache *c = &t->cache;
    GString *s;

    if (c->bypasses_dom0_page_cache == VDC_BOOL_ABSENT && !c->loop_device && !c->error)
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
    g_string_append(s, c->bypasses_dom0_page_cache == 1 ? "bypasses dom0's page cache"
                       : c->bypasses_dom0_page_cache == 0 ? "through dom0's page cache"
                       : "not decided");
    if (c->source)
        g_string_append_printf(s, " (read from %s)", c->source);
    if (c->error)
        g_string_append_printf(s, "; %s", c->error);
    return g_string_free(s, FALSE);
}

/* render.h */
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

/* What served target @t's disk, as read back: "phy, physical device
 * /dev/loop0 (read from xenstore); requested tap", or NULL when nothing was
 * read back.  Newly allocated. */
static char *
backend_text(const vdc_target *t)
{
    GString *s;

    if (!t->backend.type)
        return NULL;
    s = g_string_new(t->backend.type);
    if (t->backend.physical_device)
        g_string_append_printf(s, ", physical device %s", t->backend.physical_device);
    if (t->backend.source)
        g_string_append_printf(s, " (read from %s)", t->backend.source);
    if (t->requested.image_backend && strcmp(t->requested.image_backend, t->backend.type))
        g_string_append_printf(s, "; requested %s", t->requested.image_backend);
    return g_string_free(s, FALSE);
}

/* render.h */
void
vdc_append_cache_text(GString *out, const vdc_result_set *rs)
{
    size_t i;
    int any = 0;

    for (i = 0; i < rs->n_targets; i++) {
        g_autofree char *backend = backend_text(rs->targets[i]);
        g_autofree char *cache = vdc_cache_text(rs->targets[i]);
        g_autofree char *place = vdc_placement_text(rs->targets[i]);
        g_autofree char *name = vdc_escape_text(rs->targets[i]->name, -1, 0);

        if (!backend && !cache && !place)
            continue;
        if (!any++)
            g_string_append(out, "Backend, cache and placement, read back after boot:\n");
        if (backend) {
            g_autofree char *e = vdc_escape_text(backend, -1, 0);
            g_string_append_printf(out, "  %s: backend: %s\n", name, e);
        }
        if (cache) {
            g_autofree char *e = vdc_escape_text(cache, -1, 0);
            g_string_append_printf(out, "  %s: cache: %s\n", name, e);
        }
        if (place) {
            g_autofree char *e = vdc_escape_text(place, -1, 0);
            g_string_append_printf(out, "  %s: placement: %s\n", name, e);
        }
    }
    if (any)
        g_string_append_c(out, '\n');
}

static void
target_lines(GPtrArray *v, const vdc_target *t)
{
    char *p = g_strdup_printf("Target %s", t->name);
    char *l;

#define T(label, val) do { l = g_strdup_printf("%s: %s", p, label); add(v, l, val); g_free(l); } while (0)
#define TI(label, val, unit) do { l = g_strdup_printf("%s: %s", p, label); add_int(v, l, val, unit); g_free(l); } while (0)
    T("kind", t->kind);
    T("benchmarked in", t->where);
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
        g_autofree char *cache = vdc_cache_text(t), *place = vdc_placement_text(t);

        T("cache read back", cache);
        T("placement", place);
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
    char *label = g_strdup_printf("Run %s #%" G_GINT64_FORMAT, r->target, r->repetition);

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
    add(v, label, s->str);
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
        target_lines(v, rs->targets[i]);
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

/* ---- statistics JSON ------------------------------------------------------ */

static void
num(JsonBuilder *b, const char *name, double v, int has)
{
    json_builder_set_member_name(b, name);
    if (has && isfinite(v))
        json_builder_add_double_value(b, v);
    else
        json_builder_add_null_value(b);
}

static void
pair(JsonBuilder *b, const char *name, const double v[2], int has)
{
    json_builder_set_member_name(b, name);
    if (!has || !isfinite(v[0]) || !isfinite(v[1])) {
        json_builder_add_null_value(b);
        return;
    }
    json_builder_begin_array(b);
    json_builder_add_double_value(b, v[0]);
    json_builder_add_double_value(b, v[1]);
    json_builder_end_array(b);
}

static void
cell_json(JsonBuilder *b, const struct vdc_analysis *a, const struct vdc_cell *c)
{
    const struct vdc_stats_summary *s = &c->sum;
    char seed[32];
    size_t i;

    json_builder_begin_object(b);
    json_builder_set_member_name(b, "target");
    json_builder_add_string_value(b, c->target);
    json_builder_set_member_name(b, "test");
    json_builder_add_string_value(b, c->test_key);
    json_builder_set_member_name(b, "unit");
    if (c->unit)
        json_builder_add_string_value(b, c->unit);
    else
        json_builder_add_null_value(b);
    json_builder_set_member_name(b, "n");
    json_builder_add_int_value(b, (gint64)s->n);
    json_builder_set_member_name(b, "n_samples");
    json_builder_add_int_value(b, (gint64)c->n_samples);
    json_builder_set_member_name(b, "n_too_fast");
    json_builder_add_int_value(b, (gint64)c->n_too_fast);
    json_builder_set_member_name(b, "n_failed");
    json_builder_add_int_value(b, (gint64)c->n_failed);
    num(b, "mean", s->mean, s->n > 0);
    num(b, "median", s->median, s->n > 0);
    num(b, "stddev", s->stddev, s->has_stddev);
    num(b, "cv_percent", s->cv_percent, s->has_cv);
    num(b, "cpu_percent_mean", c->cpu_mean, 1);
    pair(b, "ci95_mean", s->ci_mean, s->has_ci_mean);
    pair(b, "ci95_median_bootstrap", s->ci_median, s->has_ci_median);
    json_builder_set_member_name(b, "bootstrap_resamples");
    json_builder_add_int_value(b, a->opt.bootstrap_resamples);
    json_builder_set_member_name(b, "bootstrap_seed");
    snprintf(seed, sizeof(seed), "%lu", a->opt.bootstrap_seed);
    json_builder_add_string_value(b, seed);
    json_builder_set_member_name(b, "outliers");
    json_builder_begin_array(b);
    for (i = 0; i < c->n_values; i++) {
        if (!c->samples[i].outlier)
            continue;
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "repetition");
        json_builder_add_int_value(b, c->samples[i].repetition);
        num(b, "value", c->samples[i].value, 1);
        num(b, "modified_z", c->samples[i].modified_z, 1);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "outlier_rule");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "method");
    json_builder_add_string_value(b, "modified-z-mad");
    num(b, "threshold", a->opt.outlier_threshold, 1);
    json_builder_set_member_name(b, "min_n");
    json_builder_add_int_value(b, VDC_STATS_OUTLIER_MIN_N);
    json_builder_set_member_name(b, "policy");
    json_builder_add_string_value(b, vdc_outlier_policy_name(a->opt.policy));
    json_builder_end_object(b);
    if (c->flags & VDC_CELL_ARTEFACTS) {
        unsigned k;

        json_builder_set_member_name(b, "artefacts");
        json_builder_begin_array(b);
        for (k = 0; k < VDC_CELL_FLAG_COUNT; k++)
            if (c->flags & VDC_CELL_ARTEFACTS & (1u << k)) {
                json_builder_begin_object(b);
                json_builder_set_member_name(b, "flag");
                json_builder_add_string_value(b, vdc_cell_flag_name(1u << k));
                json_builder_set_member_name(b, "reason");
                json_builder_add_string_value(b, c->why[k] ? c->why[k] : "");
                json_builder_end_object(b);
            }
        json_builder_end_array(b);
    }
    vdc_host_cost_json(b, a, (size_t)(c - a->cells) / a->n_tests, (size_t)(c - a->cells) % a->n_tests);
    json_builder_end_object(b);
}

static void
cmp_json(JsonBuilder *b, const struct vdc_analysis *a, const struct vdc_cell_comparison *cc)
{
    const struct vdc_stats_comparison *c = &cc->c;

    json_builder_begin_object(b);
    json_builder_set_member_name(b, "baseline");
    json_builder_add_string_value(b, a->baseline);
    json_builder_set_member_name(b, "target");
    json_builder_add_string_value(b, cc->target->target);
    json_builder_set_member_name(b, "test");
    json_builder_add_string_value(b, cc->target->test_key);
    num(b, "ratio", c->ratio, c->has_ratio);
    num(b, "delta_percent", c->delta_percent, c->has_ratio);
    pair(b, "ci95_delta_percent", c->ci_delta_percent, c->has_ci);
    json_builder_set_member_name(b, "ci_method");
    json_builder_add_string_value(b, "fieller-welch");
    num(b, "welch_t", c->welch_t, c->has_test);
    num(b, "welch_df", c->welch_df, c->has_test);
    num(b, "p_value", c->p_value, c->has_test);
    json_builder_set_member_name(b, "significant");
    json_builder_add_boolean_value(b, c->significant);
    json_builder_set_member_name(b, "verdict");
    json_builder_add_string_value(b, vdc_verdict_name(c->verdict));
    if (cc->target->flags & VDC_CELL_ARTEFACT_MARKED) {
        unsigned k;

        json_builder_set_member_name(b, "artefacts");
        json_builder_begin_array(b);
        for (k = 0; k < VDC_CELL_FLAG_COUNT; k++)
            if (cc->target->flags & VDC_CELL_ARTEFACT_MARKED & (1u << k))
                json_builder_add_string_value(b, vdc_cell_flag_name(1u << k));
        json_builder_end_array(b);
    }
    json_builder_end_object(b);
}

/* The flags a cell's runs rest on (doc/host-cost.md): dom0-page-cache and
 * guest-faster, one object each, in cell order. */
#define VDC_RUN_FLAGS (VDC_CELL_DOM0_PAGE_CACHE | VDC_CELL_GUEST_FASTER)

/* statistics.flags: {target, test, flag, runs_flagged, runs, evidence}
 * per flagged cell, only when there is one (additive). */
static void
flags_json(JsonBuilder *b, const struct vdc_analysis *a)
{
    size_t ti, ki;
    unsigned k;
    int any = 0;

    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);

            for (k = 0; k < VDC_CELL_FLAG_COUNT; k++) {
                if (!(c->flags & VDC_RUN_FLAGS & (1u << k)))
                    continue;
                if (!any++) {
                    json_builder_set_member_name(b, "flags");
                    json_builder_begin_array(b);
                }
                json_builder_begin_object(b);
                json_builder_set_member_name(b, "target");
                json_builder_add_string_value(b, c->target);
                json_builder_set_member_name(b, "test");
                json_builder_add_string_value(b, c->test_key);
                json_builder_set_member_name(b, "flag");
                json_builder_add_string_value(b, vdc_cell_flag_name(1u << k));
                json_builder_set_member_name(b, "runs_flagged");
                json_builder_add_int_value(b, (gint64)c->runs_flagged[k]);
                json_builder_set_member_name(b, "runs");
                json_builder_add_int_value(b, (gint64)c->runs_judged[k]);
                json_builder_set_member_name(b, "evidence");
                json_builder_add_string_value(b, c->why[k] ? c->why[k] : "");
                json_builder_end_object(b);
            }
        }
    if (any)
        json_builder_end_array(b);
}

JsonNode *
vdc_statistics_to_json(const struct vdc_analysis *a)
{
    JsonBuilder *b = json_builder_new();
    JsonNode *root;
    size_t ti, ki;

    json_builder_begin_object(b);
    json_builder_set_member_name(b, "baseline");
    json_builder_add_string_value(b, a->baseline);
    json_builder_set_member_name(b, "alpha");
    json_builder_add_double_value(b, a->alpha);
    json_builder_set_member_name(b, "per_target");
    json_builder_begin_array(b);
    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++)
            if (vdc_analysis_cell(a, ti, ki)->n_samples)
                cell_json(b, a, vdc_analysis_cell(a, ti, ki));
    json_builder_end_array(b);
    json_builder_set_member_name(b, "comparisons");
    json_builder_begin_array(b);
    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++) {
            const struct vdc_cell_comparison *cc = vdc_analysis_cmp(a, ti, ki);

            if (cc && cc->target->n_samples && cc->baseline->n_samples)
                cmp_json(b, a, cc);
        }
    json_builder_end_array(b);
    flags_json(b, a);
    json_builder_end_object(b);
    root = json_builder_get_root(b);
    g_object_unref(b);
    return root;
}

/* statistics.warnings: every warning line of @w (taken: freed here), only
 * when there is one (additive). */
static void
add_warnings(JsonNode *st, char **w)
{
    if (w[0]) {
        JsonArray *arr = json_array_new();
        size_t i;

        for (i = 0; w[i]; i++)
            json_array_add_string_element(arr, w[i]);
        json_object_set_array_member(json_node_get_object(st), "warnings", arr);
    }
    g_strfreev(w);
}

char *
vdc_render_statistics_json(const vdc_result_set *rs, const struct vdc_analysis *a)
{
    JsonNode *n = vdc_statistics_to_json(a);
    char *s;

    add_warnings(n, vdc_compare_warnings(rs, a));   /* compare's JSON */
    s = vdc_json_to_string(n, NULL);
    json_node_unref(n);
    return s;
}

char *
vdc_render_json(const vdc_result_set *rs, const struct vdc_analysis *a)
{
    JsonNode *root = vdc_result_set_to_json(rs);
    JsonNode *st = vdc_statistics_to_json(a);
    char *s;

    add_warnings(st, vdc_report_warnings(rs, a));
    json_object_set_member(json_node_get_object(st), "headline", vdc_headline_to_json(a));
    json_object_set_member(json_node_get_object(root), "statistics", st);
    s = vdc_json_to_string(root, NULL);
    json_node_unref(root);
    return s;
}

void
vdc_csv_field(GString *out, const char *s)
{
    if (!s)
        return;
    if (!strpbrk(s, ",\"\r\n")) {
        g_string_append(out, s);
        return;
    }
    g_string_append_c(out, '"');
    for (; *s; s++) {
        if (*s == '"')
            g_string_append_c(out, '"');
        g_string_append_c(out, *s);
    }
    g_string_append_c(out, '"');
}
