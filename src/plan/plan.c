/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "plan/plan.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "common/util.h"
#include "model/result.h"
#include "plan/dims.h"
#include "plan/levels.h"

void
vdc_plan_init(vdc_plan *p)
{
    memset(p, 0, sizeof(*p));
    p->thin_zero = -1;
    p->blkback[0] = p->blkback[1] = -1;
}

void
vdc_plan_target_dispose(vdc_plan_target *t)
{
    g_clear_pointer(&t->name, g_free);
    g_clear_pointer(&t->vdev, g_free);
    g_clear_pointer(&t->path, g_free);
    g_clear_pointer(&t->vg, g_free);
    g_clear_pointer(&t->lv, g_free);
    g_clear_pointer(&t->thin_pool, g_free);
}

void
vdc_plan_workload_dispose(vdc_plan_workload *w)
{
    g_clear_pointer(&w->name, g_free);
    g_clear_pointer(&w->source, g_free);
    g_clear_pointer(&w->text, g_free);
    g_clear_pointer(&w->rw, g_free);
}

void
vdc_plan_dispose(vdc_plan *p)
{
    size_t i;

    for (i = 0; i < p->n_workloads; i++)
        vdc_plan_workload_dispose(&p->workloads[i]);
    g_clear_pointer(&p->workloads, g_free);
    p->n_workloads = 0;

    for (i = 0; i < p->n_targets; i++)
        vdc_plan_target_dispose(&p->targets[i]);
    g_clear_pointer(&p->targets, g_free);
    for (i = 0; i < p->n_chosen; i++) {
        g_free(p->chosen[i].option);
        g_free(p->chosen[i].value);
        g_free(p->chosen[i].why);
    }
    g_clear_pointer(&p->chosen, g_free);
    p->n_chosen = 0;
    g_clear_pointer(&p->dropped, g_strfreev);
    p->n_targets = 0;
    g_clear_pointer(&p->steps, g_free);
    p->n_steps = 0;
    g_clear_pointer(&p->boots, g_free);
    p->n_boots = 0;
    g_clear_pointer(&p->id, g_free);
    g_clear_pointer(&p->out_dir, g_free);
    g_clear_pointer(&p->command_line, g_free);
    g_clear_pointer(&p->uri, g_free);
    g_clear_pointer(&p->domain_type, g_free);
    g_clear_pointer(&p->domain_name, g_free);
    g_clear_pointer(&p->guest_image, g_free);
    g_clear_pointer(&p->prepared_image, g_free);
    g_clear_pointer(&p->kernel, g_free);
    g_clear_pointer(&p->initrd, g_free);
    g_clear_pointer(&p->cmdline, g_free);
    g_clear_pointer(&p->ctl_disk, g_free);
    g_clear_pointer(&p->ctl_vdev, g_free);
    g_clear_pointer(&p->root_vdev, g_free);
    g_clear_pointer(&p->mkfs, g_free);
    g_clear_pointer(&p->agent_options, g_free);
}

void
vdc_plan_add_target(vdc_plan *p, vdc_plan_target *t)
{
    p->targets = g_renew(vdc_plan_target, p->targets, p->n_targets + 1);
    p->targets[p->n_targets++] = *t;
    memset(t, 0, sizeof(*t));
}

static void
add_step(vdc_plan *p, size_t target, unsigned rep)
{
    p->steps = g_renew(vdc_plan_step, p->steps, p->n_steps + 1);
    p->steps[p->n_steps] = (vdc_plan_step){ .target = target, .rep = rep, .seed = p->seed + rep };
    p->n_steps++;
}

static void
add_boot(vdc_plan *p, size_t first, size_t n, int dom0)
{
    p->boots = g_renew(vdc_plan_boot, p->boots, p->n_boots + 1);
    p->boots[p->n_boots] = (vdc_plan_boot){ .first = first, .n = n, .dom0 = dom0 };
    p->n_boots++;
}

/* one level boot: guests 0..@n-1 of target @t at repetition @r */
static void
add_level(vdc_plan *p, size_t t, unsigned r, unsigned n)
{
    size_t first = p->n_steps;
    unsigned k;

    for (k = 0; k < n; k++) {
        add_step(p, t, r);
        p->steps[p->n_steps - 1].level = n;
        p->steps[p->n_steps - 1].guest = k;
        p->steps[p->n_steps - 1].seed += k * VDC_GUEST_SEED_STRIDE;
    }
    add_boot(p, first, n, 0);
    p->boots[p->n_boots - 1].guests = n;
}

/* a dom0 step and its boot */
static void
add_dom0(vdc_plan *p, size_t t, unsigned r)
{
    add_step(p, t, r);
    add_boot(p, p->n_steps - 1, 1, 1);
}

/* The schedule with density levels (vdc_plan_schedule): @domu the domU
 * targets (@nd), @h the seed's hash. */
static void
schedule_levels(vdc_plan *p, const size_t *domu, size_t nd, uint64_t h)
{
    size_t nl = p->guests.n, t, k, l;
    unsigned r;

    if (p->order == VDC_ORDER_GROUPED) {
        for (k = 0; k < nd; k++)
            for (l = 0; l < nl; l++)
                for (r = 0; r < p->runs; r++)
                    add_level(p, domu[k], r, (unsigned)p->guests.v[l]);
        for (t = 0; t < p->n_targets; t++)
            for (r = 0; r < p->runs && p->targets[t].spec.where == VDC_WHERE_DOM0; r++)
                add_dom0(p, t, r);
        return;
    }
    for (r = 0; r < p->runs; r++) {
        int rotated = p->order == VDC_ORDER_ROTATED;
        int dom0_first = !rotated || ((r / 2 + (h >> 32)) & 1) == 0;

        for (t = 0; dom0_first && t < p->n_targets; t++)
            if (p->targets[t].spec.where == VDC_WHERE_DOM0)
                add_dom0(p, t, r);
        for (l = 0; l < nl; l++) {
            size_t li = rotated ? (l + r + (h >> 16) % nl) % nl : l;

            for (k = 0; k < nd; k++)
                add_level(p, domu[rotated ? (k + r + h % nd) % nd : k], r,
                          (unsigned)p->guests.v[li]);
        }
        for (t = 0; !dom0_first && t < p->n_targets; t++)
            if (p->targets[t].spec.where == VDC_WHERE_DOM0)
                add_dom0(p, t, r);
    }
}

/* splitmix64's finaliser over the seed: the rotation's offsets */
static uint64_t
seed_hash(uint64_t seed)
{
    uint64_t h = seed * 0x9e3779b97f4a7c15ull;

    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull;
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    return h ^ (h >> 31);
}

int
vdc_plan_schedule(vdc_plan *p)
{
    size_t t, i;
    unsigned r;

    g_clear_pointer(&p->steps, g_free);
    g_clear_pointer(&p->boots, g_free);
    p->n_steps = p->n_boots = 0;
    if (p->n_targets == 0 || p->runs == 0) {
        vdc_input_error("nothing to run: give at least one of --image, --lvm, --block, --target, --dom0");
        return -1;
    }
    if (p->guests.n) {
        size_t nd = 0;
        g_autofree size_t *domu = g_new(size_t, p->n_targets);

        for (t = 0; t < p->n_targets; t++)
            if (p->targets[t].spec.where != VDC_WHERE_DOM0)
                domu[nd++] = t;
        schedule_levels(p, domu, nd, seed_hash(p->seed));
        return 0;
    }
    if (p->order == VDC_ORDER_ROTATED) {
        size_t nd = 0, *domu = g_new(size_t, p->n_targets);
        uint64_t h = seed_hash(p->seed);

        for (t = 0; t < p->n_targets; t++)
            if (p->targets[t].spec.where != VDC_WHERE_DOM0)
                domu[nd++] = t;
        for (r = 0; r < p->runs; r++) {
            int dom0_first = ((r / 2 + (h >> 32)) & 1) == 0;
            size_t k;

            for (t = 0; dom0_first && t < p->n_targets; t++)
                if (p->targets[t].spec.where == VDC_WHERE_DOM0)
                    add_step(p, t, r);
            for (k = 0; k < nd; k++)
                add_step(p, domu[(k + r + h % nd) % nd], r);
            for (t = 0; !dom0_first && t < p->n_targets; t++)
                if (p->targets[t].spec.where == VDC_WHERE_DOM0)
                    add_step(p, t, r);
        }
        g_free(domu);
    } else if (p->order == VDC_ORDER_INTERLEAVED) {
        for (r = 0; r < p->runs; r++)
            for (t = 0; t < p->n_targets; t++)
                add_step(p, t, r);
    } else {
        for (t = 0; t < p->n_targets; t++)
            for (r = 0; r < p->runs; r++)
                add_step(p, t, r);
    }

    for (i = 0; i < p->n_steps; ) {
        size_t j = i;
        if (p->targets[p->steps[i].target].spec.where == VDC_WHERE_DOM0) {
            add_boot(p, i, 1, 1);
            i++;
            continue;
        }
        /* extend while domU and no target repeats inside the boot */
        while (j < p->n_steps &&
               p->targets[p->steps[j].target].spec.where != VDC_WHERE_DOM0) {
            size_t k;
            int dup = 0;
            for (k = i; k < j; k++)
                if (p->steps[k].target == p->steps[j].target ||
                    p->steps[k].rep != p->steps[j].rep)
                    dup = 1;
            if (dup)
                break;
            j++;
        }
        add_boot(p, i, j - i, 0);
        i = j;
    }
    return 0;
}

void
vdc_plan_add_choice(vdc_plan *p, const char *option, const char *value, const char *why_fmt, ...)
{
    vdc_plan_choice *c;
    va_list ap;

    p->chosen = g_renew(vdc_plan_choice, p->chosen, p->n_chosen + 1);
    c = &p->chosen[p->n_chosen++];
    c->option = g_strdup(option);
    c->value = g_strdup(value);
    va_start(ap, why_fmt);
    c->why = g_strdup_vprintf(why_fmt, ap);
    va_end(ap);
}

size_t
vdc_plan_domu_targets(const vdc_plan *p, size_t *idx, size_t max)
{
    size_t i, n = 0;

    for (i = 0; i < p->n_targets && n < max; i++)
        if (p->targets[i].spec.where == VDC_WHERE_DOMU)
            idx[n++] = i;
    return n;
}

/* The estimate's model (vdc_plan_estimate_s): a domU boot costs a fixed
 * time (create, kernel, runner, destroy), every step a fixed time (mkfs,
 * the file tests, seeks) plus the bytes it moves at a rate: the bonnie++
 * pass about 4x its test file (block write, rewrite's read and write,
 * block read), each workload its bytes.  Emulated hosts (TCG, the lab)
 * are slower: constants from the lab's main job of 2026-12-02 (32 MiB
 * test files: ~80 s a step, ~100 s a boot besides). */
#define EST_BOOT_S 15.0
#define EST_STEP_S 20.0
#define EST_RATE (200.0 * 1048576.0)
#define EST_BOOT_EMULATED_S 100.0
#define EST_STEP_EMULATED_S 60.0
#define EST_RATE_EMULATED (20.0 * 1048576.0)

double
vdc_plan_estimate_s(const vdc_plan *p)
{
    double boot_s = p->emulated ? EST_BOOT_EMULATED_S : EST_BOOT_S;
    double step_s = p->emulated ? EST_STEP_EMULATED_S : EST_STEP_S;
    double rate = p->emulated ? EST_RATE_EMULATED : EST_RATE, total = 0;
    size_t i, k;

    for (i = 0; i < p->n_boots; i++) {
        if (!p->boots[i].dom0)
            total += boot_s;
        /* a level's guests run together: one step's time (contention aside) */
        for (k = 0; k < (p->boots[i].guests ? 1 : p->boots[i].n); k++) {
            const vdc_plan_target *t = &p->targets[p->steps[p->boots[i].first + k].target];
            double bytes = p->bonnie ? 4.0 * (double)t->test_bytes : 0;
            size_t w;

            for (w = 0; w < p->n_workloads; w++)
                bytes += (double)p->workloads[w].bytes * (p->workload_file + p->workload_raw);
            total += step_s + bytes / rate;
        }
    }
    return total;
}

/* "3 h 20 min", "12 min", "40 s" */
static char *
duration_text(double s)
{
    if (s >= 3600)
        return g_strdup_printf("%.0f h %.0f min", floor(s / 3600), floor(fmod(s, 3600) / 60));
    if (s >= 60)
        return g_strdup_printf("%.0f min", ceil(s / 60));
    return g_strdup_printf("%.0f s", ceil(s));
}

const char *
vdc_order_name(vdc_order o)
{
    return o == VDC_ORDER_GROUPED ? "grouped" : o == VDC_ORDER_ROTATED ? "rotated" : "interleaved";
}

const char *
vdc_hv_name(vdc_hv_kind h)
{
    switch (h) {
    case VDC_HV_NONE: return "none";
    case VDC_HV_LIBXL: return "libxl";
    case VDC_HV_LIBVIRT: return "libvirt";
    case VDC_HV_MOCK: return "mock";
    }
    return "?";
}

static void
member_str(JsonBuilder *b, const char *name, const char *v)
{
    json_builder_set_member_name(b, name);
    if (v)
        json_builder_add_string_value(b, v);
    else
        json_builder_add_null_value(b);
}

static void
member_int(JsonBuilder *b, const char *name, gint64 v)
{
    json_builder_set_member_name(b, name);
    json_builder_add_int_value(b, v);
}

/* plan.json and --dry-run "dom0_on" of a baseline: the backing's name, or
 * the block device's path */
static const char *
dom0_on(const vdc_plan_target *t)
{
    return t->spec.backing == VDC_BACKING_BLOCK ? t->path
                                                : vdc_target_name(VDC_DIM_BACKING, t->spec.backing);
}

/* targets[].variant (vdc_dim_variant_json), or nothing when none */
static void
variant_to_json(JsonBuilder *b, const vdc_plan *p, const vdc_plan_target *t)
{
    JsonNode *v = vdc_dim_variant_json(p, t);

    if (!v)
        return;
    json_builder_set_member_name(b, "variant");
    json_builder_add_value(b, v);   /* takes @v */
}

static void
target_to_json(JsonBuilder *b, const vdc_plan *p, const vdc_plan_target *t)
{
    const vdc_target_spec *sp = &t->spec;

    json_builder_begin_object(b);
    member_str(b, "name", t->name);
    member_str(b, "kind", vdc_target_spec_kind(sp));
    member_str(b, "where", vdc_target_name(VDC_DIM_WHERE, sp->where));
    if (vdc_target_spec_domu_image(sp)) {
        member_str(b, "image_backend", vdc_target_name(VDC_DIM_IMAGE_BACKEND, sp->backend));
        member_str(b, "format", vdc_target_name(VDC_DIM_IMAGE_FORMAT, sp->format));
        member_str(b, "alloc", vdc_target_name(VDC_DIM_IMAGE_ALLOC, sp->alloc));
        member_str(b, "image_cache", vdc_target_name(VDC_DIM_IMAGE_CACHE, sp->cache));
    }
    if (sp->where == VDC_WHERE_DOMU && sp->backing == VDC_BACKING_LVM) {
        member_str(b, "vg", t->vg);
        member_str(b, "lv", t->lv);
        member_int(b, "stripes", t->stripes);
        member_int(b, "stripe_size", (gint64)t->stripe_size);
        if (t->thin_pool)
            member_str(b, "thin_pool", t->thin_pool);
    }
    if (sp->where == VDC_WHERE_DOM0)
        member_str(b, "dom0_on", dom0_on(t));
    variant_to_json(b, p, t);
    member_str(b, "vdev", t->vdev);
    member_str(b, "path", t->path);
    member_int(b, "disk_bytes", (gint64)t->disk_bytes);
    member_int(b, "test_bytes", (gint64)t->test_bytes);
    json_builder_end_object(b);
}

/* plan.json "matrix": the dimensions given (option, values), the number of
 * targets against --max-targets, and the rough duration */
static void
matrix_to_json(JsonBuilder *b, const vdc_plan *p)
{
    size_t i, k;

    json_builder_set_member_name(b, "matrix");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "dimensions");
    json_builder_begin_array(b);
    for (i = 0; i < vdc_n_dimensions; i++) {
        const vdc_dimension *d = &vdc_dimensions[i];
        const vdc_dim_list *l = &p->dims[d->dim];

        if (!l->n)
            continue;
        json_builder_begin_object(b);
        member_str(b, "name", vdc_dim_key(d));
        member_str(b, "option", d->option);
        json_builder_set_member_name(b, "values");
        json_builder_begin_array(b);
        for (k = 0; k < l->n; k++)
            if (d->numeric)
                json_builder_add_int_value(b, l->v[k] - 1);
            else if (d->boolean)
                json_builder_add_boolean_value(b, l->v[k] != 0);
            else
                json_builder_add_string_value(b, vdc_target_name(d->dim, l->v[k]));
        json_builder_end_array(b);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    if (p->dropped) {
        json_builder_set_member_name(b, "dropped");
        json_builder_begin_array(b);
        for (k = 0; p->dropped[k]; k++)
            json_builder_add_string_value(b, p->dropped[k]);
        json_builder_end_array(b);
    }
    member_int(b, "targets", (gint64)p->n_targets);
    member_int(b, "max_targets", p->max_targets);
    json_builder_set_member_name(b, "estimate_s");
    json_builder_add_double_value(b, round(vdc_plan_estimate_s(p)));
    json_builder_end_object(b);
}

char *
vdc_plan_to_json(const vdc_plan *p)
{
    g_autoptr(JsonBuilder) b = json_builder_new();
    g_autoptr(JsonNode) root = NULL;
    char seed[32];
    size_t i;

    json_builder_begin_object(b);
    member_str(b, "format", "vmdiskcmp-plan");
    member_int(b, "format_version", 1);
    member_str(b, "id", p->id);
    member_str(b, "hypervisor", vdc_hv_name(p->hv));
    member_str(b, "uri", p->uri);
    member_str(b, "domain_type", p->domain_type);
    member_str(b, "domain_name", p->domain_name);
    member_str(b, "order", vdc_order_name(p->order));
    member_int(b, "runs", p->runs);
    if (p->runs_auto) {
        /* --runs auto: "runs" is the most repetitions the rule may use */
        json_builder_set_member_name(b, "runs_policy");
        json_builder_begin_object(b);
        member_str(b, "mode", "auto");
        member_int(b, "min_runs", p->min_runs);
        member_int(b, "max_runs", p->runs);
        json_builder_set_member_name(b, "precision_percent");
        json_builder_add_double_value(b, p->precision_percent);
        json_builder_end_object(b);
    }
    vdc_plan_levels_json(b, p);
    g_snprintf(seed, sizeof(seed), "%" G_GUINT64_FORMAT, (guint64)p->seed);
    member_str(b, "seed", seed);
    member_int(b, "timeout_s", p->timeout_s);
    member_int(b, "agent_timeout_s", p->agent_timeout_s);
    member_int(b, "heartbeat_timeout_s", p->heartbeat_timeout_s);
    json_builder_set_member_name(b, "emulated");
    json_builder_add_boolean_value(b, p->emulated);
    json_builder_set_member_name(b, "drop_caches");
    json_builder_add_boolean_value(b, p->drop_caches);
    member_str(b, "mkfs", p->mkfs);
    member_str(b, "agent_options", p->agent_options);
    member_int(b, "agent_ram_mib", p->agent_ram_mib);
    member_int(b, "dom0_ram_mib", p->dom0_ram_mib);
    if (p->dom0_memory_max_mib)
        member_int(b, "dom0_memory_max_mib", p->dom0_memory_max_mib);
    json_builder_set_member_name(b, "tests");
    json_builder_begin_array(b);
    if (p->bonnie)
        json_builder_add_string_value(b, "bonnie");
    if (p->n_workloads)
        json_builder_add_string_value(b, "workloads");
    json_builder_end_array(b);
    if (p->n_workloads) {
        /* the passes in the order they run on each target */
        json_builder_set_member_name(b, "workload_on");
        json_builder_begin_array(b);
        if (p->workload_raw)
            json_builder_add_string_value(b, "raw");
        if (p->workload_file)
            json_builder_add_string_value(b, "file");
        json_builder_end_array(b);
        json_builder_set_member_name(b, "workloads");
        json_builder_begin_array(b);
        for (i = 0; i < p->n_workloads; i++) {
            const vdc_plan_workload *w = &p->workloads[i];

            json_builder_begin_object(b);
            member_str(b, "name", w->name);
            member_str(b, "source", w->source);
            member_str(b, "rw", w->rw);
            member_int(b, "bytes", (gint64)w->bytes);
            json_builder_end_object(b);
        }
        json_builder_end_array(b);
    }

    if (p->n_chosen) {
        /* what no option named and vmdiskcmp chose (vdc_plan_choice) */
        json_builder_set_member_name(b, "chosen");
        json_builder_begin_array(b);
        for (i = 0; i < p->n_chosen; i++) {
            json_builder_begin_object(b);
            member_str(b, "option", p->chosen[i].option);
            member_str(b, "value", p->chosen[i].value);
            member_str(b, "why", p->chosen[i].why);
            json_builder_end_object(b);
        }
        json_builder_end_array(b);
    }

    matrix_to_json(b, p);

    json_builder_set_member_name(b, "guest");
    json_builder_begin_object(b);
    member_str(b, "template", p->guest_image);
    member_str(b, "prepared_image", p->prepared_image);
    member_str(b, "kernel", p->kernel);
    member_str(b, "initrd", p->initrd);
    member_str(b, "cmdline", p->cmdline);
    member_int(b, "memory_mib", p->memory_mib);
    member_int(b, "vcpus", p->vcpus);
    member_str(b, "root_vdev", p->root_vdev);
    member_str(b, "ctl_vdev", p->ctl_vdev);
    json_builder_end_object(b);

    json_builder_set_member_name(b, "targets");
    json_builder_begin_array(b);
    for (i = 0; i < p->n_targets; i++)
        target_to_json(b, p, &p->targets[i]);
    json_builder_end_array(b);

    json_builder_set_member_name(b, "steps");
    json_builder_begin_array(b);
    for (i = 0; i < p->n_steps; i++) {
        json_builder_begin_object(b);
        member_str(b, "target", p->targets[p->steps[i].target].name);
        member_int(b, "repetition", p->steps[i].rep);
        g_snprintf(seed, sizeof(seed), "%" G_GUINT64_FORMAT, (guint64)p->steps[i].seed);
        member_str(b, "seed", seed);
        if (p->steps[i].level) {
            member_int(b, "level", p->steps[i].level);
            member_int(b, "guest", p->steps[i].guest);
        }
        json_builder_end_object(b);
    }
    json_builder_end_array(b);

    json_builder_set_member_name(b, "boots");
    json_builder_begin_array(b);
    for (i = 0; i < p->n_boots; i++) {
        json_builder_begin_object(b);
        member_int(b, "first_step", (gint64)p->boots[i].first);
        member_int(b, "steps", (gint64)p->boots[i].n);
        member_str(b, "where", p->boots[i].dom0 ? "dom0" : "domU");
        if (p->boots[i].guests)
            member_int(b, "guests", p->boots[i].guests);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_end_object(b);

    root = json_builder_get_root(b);
    return vdc_json_write(root, " : ", 0, NULL);
}

/* the given dimensions of @t that the storage parenthetical does not show,
 * " [disk_cache none, iothreads 1]" */
static void
variant_to_text(GString *s, const vdc_plan *p, const vdc_plan_target *t)
{
    size_t i, n = 0;

    for (i = 0; i < vdc_n_dimensions; i++) {
        const vdc_dimension *d = &vdc_dimensions[i];

        if (t->spec.where != VDC_WHERE_DOMU || vdc_target_dim_storage(d->dim) ||
            !vdc_dim_in_variant(d, p, t->spec.backing))
            continue;
        g_string_append_printf(s, "%s%s %s", n++ ? ", " : " [", vdc_dim_key(d),
                               vdc_target_name(d->dim, vdc_target_spec_get(&t->spec, d->dim)));
    }
    if (n)
        g_string_append_c(s, ']');
}

static char *
human_size(uint64_t bytes)
{
    return g_format_size_full(bytes, G_FORMAT_SIZE_IEC_UNITS);
}

char *
vdc_plan_to_text(const vdc_plan *p)
{
    GString *s = g_string_new(NULL);
    int name_w = 12;
    size_t i;

    g_string_append_printf(s, "plan %s: hypervisor %s%s%s, %s%u run(s) per target, order %s, seed %" G_GUINT64_FORMAT "\n",
                           p->id ? p->id : "?", vdc_hv_name(p->hv),
                           p->uri ? " " : "", p->uri ? p->uri : "",
                           p->runs_auto ? "auto, at most " : "", p->runs, vdc_order_name(p->order),
                           (guint64)p->seed);
    if (p->runs_auto) {
        size_t domu = 0;

        for (i = 0; i < p->n_boots; i++)
            domu += !p->boots[i].dom0;
        g_string_append_printf(s, "runs auto: from repetition %u on, stop when every "
                               "headline ratio (image/LV, else against dom0) has a 95 %% CI within +-%g %%; "
                               "at most %u repetitions: %zu domU boot(s), %zu dom0 step(s) "
                               "(the sequence below is that upper bound)\n",
                               p->min_runs, p->precision_percent, p->runs, domu, p->n_boots - domu);
    }
    if (p->n_chosen) {
        g_string_append(s, "chosen (no option named them):\n");
        for (i = 0; i < p->n_chosen; i++)
            g_string_append_printf(s, "  %s %s: %s\n", p->chosen[i].option, p->chosen[i].value,
                                   p->chosen[i].why);
    }
    if (p->hv != VDC_HV_NONE)
        g_string_append_printf(s, "domU %s: %u MiB, %u vCPU, %s %s, kernel %s\n",
                               p->domain_name ? p->domain_name : "?", p->memory_mib, p->vcpus,
                               p->prepared_image ? "prepared image" : "template",
                               p->prepared_image ? p->prepared_image
                               : p->guest_image  ? p->guest_image
                                                 : "(none)",
                               p->kernel ? p->kernel : "(from template)");
    for (i = 0; p->dropped && p->dropped[i]; i++)
        g_string_append_printf(s, "not a target: %s\n", p->dropped[i]);
    g_string_append(s, "targets:\n");
    /* the name column fits the longest name (image-qdisk-nocache, a
     * --target NAME), 12 at least */
    for (i = 0; i < p->n_targets; i++)
        name_w = MAX(name_w, (int)strlen(p->targets[i].name));
    for (i = 0; i < p->n_targets; i++) {
        const vdc_plan_target *t = &p->targets[i];
        g_autofree char *test = human_size(t->test_bytes);
        g_autofree char *disk = human_size(t->disk_bytes);
        const vdc_target_spec *sp = &t->spec;

        g_string_append_printf(s, "  %-*s %-5s %-5s %-6s %s", name_w, t->name, vdc_target_spec_kind(sp),
                               vdc_target_name(VDC_DIM_WHERE, sp->where),
                               t->vdev ? t->vdev : "-", t->path ? t->path : "-");
        if (vdc_target_spec_domu_image(sp))   /* --disk-cache, when given, says the cache */
            g_string_append_printf(s, " (%s %s, backend %s%s%s)",
                                   vdc_target_name(VDC_DIM_IMAGE_FORMAT, sp->format),
                                   vdc_target_name(VDC_DIM_IMAGE_ALLOC, sp->alloc),
                                   vdc_target_name(VDC_DIM_IMAGE_BACKEND, sp->backend),
                                   sp->disk_cache ? "" : ", cache ",
                                   sp->disk_cache ? "" : vdc_target_name(VDC_DIM_IMAGE_CACHE, sp->cache));
        if (sp->where == VDC_WHERE_DOM0)
            g_string_append_printf(s, " (on %s)", dom0_on(t));
        if (sp->where == VDC_WHERE_DOM0 && p->dom0_memory_max_mib)
            g_string_append_printf(s, " (agent in a memory cgroup of %u MiB)", p->dom0_memory_max_mib);
        variant_to_text(s, p, t);
        g_string_append_printf(s, " disk %s, test file %s\n", t->disk_bytes ? disk : "existing", test);
    }
    g_string_append_printf(s, "tests:%s", p->bonnie ? " bonnie++" : "");
    for (i = 0; i < p->n_workloads; i++)
        g_string_append_printf(s, "%s workload %s (%s, %s)", i || p->bonnie ? "," : "",
                               p->workloads[i].name, p->workloads[i].rw, p->workloads[i].source);
    g_string_append(s, "\n");
    if (p->n_workloads)
        g_string_append_printf(s, "workloads on: %s%s%s\n",
                               p->workload_raw ? "raw (the target's block device, before mkfs)" : "",
                               p->workload_raw && p->workload_file ? ", then " : "",
                               p->workload_file ? "file (in the fresh filesystem)" : "");
    vdc_plan_levels_text(p, s);
    g_string_append(s, "sequence:");
    for (i = 0; i < p->n_boots; i++) {
        size_t k;
        g_string_append(s, p->boots[i].dom0 ? " [dom0:" : " [domU:");
        for (k = 0; k < p->boots[i].n; k++) {
            const vdc_plan_step *st = &p->steps[p->boots[i].first + k];
            g_string_append_printf(s, " %s#%u", p->targets[st->target].name, st->rep);
        }
        g_string_append(s, "]");
    }
    g_string_append(s, "\n");
    {
        g_autofree char *m = vdc_dim_matrix_text(p);
        g_autofree char *d = duration_text(vdc_plan_estimate_s(p));

        g_string_append_printf(s, "estimate: %zu target(s) (--max-targets %u%s%s), %zu boot(s) and "
                               "dom0 step(s), about %s (rough: %s)\n", p->n_targets, p->max_targets,
                               *m ? "; matrix " : "", m, p->n_boots, d,
                               p->emulated ? "an emulated host, 100 s a boot, 60 s a step, 20 MiB/s"
                                           : "15 s a boot, 20 s a step, 200 MiB/s");
    }
    return g_string_free(s, FALSE);
}

/* plan.h */
char *
vdc_plan_dom0_size_warning(const vdc_plan *p)
{
    size_t t;

    for (t = 0; t < p->n_targets; t++) {
        const vdc_plan_target *d = &p->targets[t];
        uint64_t mib = d->test_bytes >> 20;

        if (d->spec.where != VDC_WHERE_DOM0 || !p->dom0_ram_mib || mib >= 2ULL * p->dom0_ram_mib)
            continue;
        return g_strdup_printf("--dom0-size %" G_GUINT64_FORMAT " MiB is under twice dom0's RAM (%u MiB, %s): "
                               "expected at least %" G_GUINT64_FORMAT " MiB, or dom0's page cache flatters "
                               "the baseline (bonnie++'s rule; the report marks it under-2x-ram)",
                               (guint64)mib, p->dom0_ram_mib, p->dom0_ram_from ? p->dom0_ram_from : "?",
                               (guint64)(2ULL * p->dom0_ram_mib));
    }
    return NULL;
}
