/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The recorder: a run's result set, fact by fact (recorder.h). */
#include "config.h"
#include "collect/recorder.h"

#include <math.h>
#include <string.h>

#include <glib.h>

#include "collect/agent_result.h"
#include "collect/cache.h"
#include "collect/facts.h"
#include "collect/stoprule.h"
#include "common/util.h"
#include "hv/translate.h"
#include "model/target.h"
#include "plan/dims.h"
#include "plan/step.h"

struct vdc_recorder {
    const vdc_plan *p;
    vdc_result_set rs;
    vdc_run **step_run;         /* per plan step: its run once recorded (owned by rs) */
    char **fail;                /* per target: why its runs of this boot fail, or NULL */
    size_t boot_first_run;      /* rs.n_runs when the boot began */
    int backends;               /* backends were recorded */
    gboolean *aligned;          /* per target: its alignment was read (or tried) */
    gboolean *fs_aligned;       /* per target: its guest filesystem's layers recorded */
};

vdc_recorder *
vdc_recorder_new(const vdc_plan *p)
{
    vdc_recorder *rec = g_new0(vdc_recorder, 1);

    rec->p = p;
    vdc_result_set_init(&rec->rs);
    rec->step_run = g_new0(vdc_run *, p->n_steps + 1);
    rec->fail = g_new0(char *, p->n_targets + 1);
    rec->aligned = g_new0(gboolean, p->n_targets + 1);
    rec->fs_aligned = g_new0(gboolean, p->n_targets + 1);
    return rec;
}

void
vdc_recorder_free(vdc_recorder *rec)
{
    if (!rec)
        return;
    vdc_result_set_dispose(&rec->rs);
    g_free(rec->step_run);
    g_strfreev(rec->fail);
    g_free(rec->aligned);
    g_free(rec->fs_aligned);
    g_free(rec);
}

const vdc_result_set *
vdc_recorder_result(const vdc_recorder *rec)
{
    return &rec->rs;
}

/* ---- the experiment ---------------------------------------------------- */

/* The image directory: the nearest existing directory of the first image
 * file of the plan (the run makes missing ones later), or NULL. */
static char *
plan_image_dir(const vdc_plan *p)
{
    size_t i;

    for (i = 0; i < p->n_targets; i++)
        if (p->targets[i].spec.backing == VDC_BACKING_IMAGE && p->targets[i].path)
            return vdc_existing_dir(p->targets[i].path);
    return NULL;
}

void
vdc_recorder_experiment(vdc_recorder *rec)
{
    const vdc_plan *p = rec->p;
    vdc_experiment *e = &rec->rs.experiment;
    g_autoptr(GDateTime) now = g_date_time_new_now_utc();
    g_autofree char *date = g_date_time_format(now, "%Y-%m-%dT%H:%M:%SZ");
    g_autofree char *image_dir = plan_image_dir(p);
    char seed[32];

    rec->rs.has_experiment = 1;
    /* the plan's id (DATE-HOST, the domain is vmdiskcmp-ID), not the
     * directory's name: a lab's result directory is always "result" */
    vdc_set_str(&e->id, p->id);
    vdc_set_str(&e->date, date);
    vdc_set_str(&e->command_line, p->command_line);
    g_snprintf(seed, sizeof(seed), "%" G_GUINT64_FORMAT, (guint64)p->seed);
    vdc_set_str(&e->seed, seed);
    e->runs_per_target = p->runs;
    vdc_set_str(&e->runs_policy.mode, p->runs_auto ? "auto" : "fixed");
    if (p->runs_auto) {
        e->runs_policy.min_runs = p->min_runs;
        e->runs_policy.max_runs = p->runs;
        e->runs_policy.precision_percent = p->precision_percent;
    }
    vdc_set_str(&e->order, vdc_order_name(p->order));
    vdc_host_facts(&e->host);
    vdc_host_repro_facts(&e->host, image_dir, p->mkfs);
    vdc_set_str(&e->build, vdc_build_id());
    e->emulated = p->emulated ? 1 : 0;
    vdc_set_str(&e->hypervisor.driver, vdc_hv_name(p->hv));
    vdc_set_str(&e->hypervisor.uri, p->uri);
    e->guest.memory_mib = p->memory_mib;
    e->guest.vcpus = p->vcpus;
    vdc_set_str(&e->guest.template_path, p->guest_image);
}

static vdc_blkback_param_info *
blkback_param(vdc_recorder *rec, int k)
{
    vdc_blkback_info *b = &rec->rs.experiment.host.blkback;

    return k == 0 ? &b->max_ring_page_order : &b->max_queues;
}

void
vdc_recorder_blkback_set(vdc_recorder *rec, int k, const char *dir, int64_t was, int64_t set,
                         int64_t read_back)
{
    vdc_blkback_param_info *pi = blkback_param(rec, k);

    vdc_set_str(&rec->rs.experiment.host.blkback.source, dir);
    pi->was = was;
    pi->set = set;
    pi->read_back = read_back;
}

void
vdc_recorder_blkback_restored(vdc_recorder *rec, int k, int64_t restored)
{
    blkback_param(rec, k)->restored = restored;
}

void
vdc_recorder_hypervisor(vdc_recorder *rec, JsonObject *versions)
{
    (void)vdc_hypervisor_info_from_json(&rec->rs.experiment.hypervisor, versions,
                                        "hypervisor versions");
}

void
vdc_recorder_guest(vdc_recorder *rec, const struct vdc_prepared *prep, const char *kernel,
                   const char *initrd, const char *cmdline)
{
    vdc_guest_info *g = &rec->rs.experiment.guest;

    vdc_set_str(&g->template_sha256, prep->template_sha256);
    vdc_set_str(&g->agent_sha256, prep->agent_sha256);
    vdc_set_str(&g->prepared_image, prep->image);
    vdc_guest_boot_facts(g, kernel, initrd, cmdline);
}

/* @s seconds added to *@acc (NAN, not measured yet: 0). */
static void
add_seconds(double *acc, double s)
{
    *acc = vdc_has(*acc) ? *acc + s : s;
}

void
vdc_recorder_time(vdc_recorder *rec, vdc_time_part part, double seconds)
{
    vdc_time_info *t = &rec->rs.experiment.time;
    double *acc[] = {
        [VDC_TIME_TOTAL] = &t->total_s, [VDC_TIME_PREPARE] = &t->prepare_s,
        [VDC_TIME_PROVISION] = &t->provision_s, [VDC_TIME_DOMU] = &t->domu_s,
        [VDC_TIME_DOM0] = &t->dom0_s, [VDC_TIME_TEARDOWN] = &t->teardown_s,
    };

    if ((size_t)part < G_N_ELEMENTS(acc))
        add_seconds(acc[part], seconds);
}

/* ---- targets ----------------------------------------------------------- */

/* The record of plan target @i, added (name only) the first time. */
static vdc_target *
target_of(vdc_recorder *rec, size_t i)
{
    const char *name = rec->p->targets[i].name;
    vdc_target *t = vdc_result_set_find_target(&rec->rs, name);

    return t ? t : vdc_result_set_add_target(&rec->rs, name);
}

/* the QEMU knobs a domU disk of @s was given (the translator's
 * <driver>, hv/translate.c) into @r */
static void
requested_knobs(vdc_target_requested *r, const vdc_target_spec *s)
{
    int threads = vdc_target_iothreads(s);

    vdc_set_str(&r->disk_cache, vdc_target_name(VDC_DIM_DISK_CACHE, vdc_target_qemu_cache(s)));
    vdc_set_str(&r->disk_io, vdc_target_name(VDC_DIM_DISK_IO, vdc_target_qemu_io(s)));
    r->iothreads = threads > 0 ? threads : 0;
    if (threads >= 1)
        r->queues = threads;
    vdc_set_str(&r->disk_bus, vdc_target_name(VDC_DIM_DISK_BUS, s->disk_bus ? s->disk_bus
                                                                      : VDC_DISK_BUS_VIRTIO_BLK));
}

void
vdc_recorder_target(vdc_recorder *rec, size_t i, JsonObject *storage, const char *dev)
{
    const vdc_plan *p = rec->p;
    const vdc_plan_target *pt = &p->targets[i];
    vdc_target *t = target_of(rec, i);
    g_autoptr(JsonNode) variant = NULL;

    if (!t)
        return;
    variant = vdc_dim_variant_json(p, pt);
    vdc_set_str(&t->kind, vdc_target_spec_kind(&pt->spec));
    vdc_set_str(&t->where, vdc_target_name(VDC_DIM_WHERE, pt->spec.where));
    vdc_set_str(&t->filesystem.type, p->mkfs);
    vdc_set_str(&t->filesystem.mkfs_options, vdc_target_mkfs_options(p->mkfs, pt));
    if (vdc_target_spec_domu_image(&pt->spec)) {
        vdc_set_str(&t->requested.image_backend,
                    vdc_target_name(VDC_DIM_IMAGE_BACKEND, pt->spec.backend));
        vdc_set_str(&t->requested.image_cache, vdc_target_name(VDC_DIM_IMAGE_CACHE, pt->spec.cache));
    }
    if (p->hv == VDC_HV_LIBVIRT && vdc_hv_disk_qemu_knobs(&pt->spec) &&
        !(p->domain_type && !strcmp(p->domain_type, "xen")))
        requested_knobs(&t->requested, &pt->spec);
    if (pt->spec.where == VDC_WHERE_DOM0 && dev) {
        vdc_set_str(&t->backend.type, "block");
        vdc_set_str(&t->backend.source, "local");
        vdc_set_str(&t->backend.physical_device, dev);
    }
    if (storage) {
        g_autofree char *what = g_strdup_printf("%s storage", pt->name);

        (void)vdc_target_storage_from_json(&t->storage, storage, what);
    }
    if (variant) {
        g_autofree char *what = g_strdup_printf("%s variant", pt->name);

        (void)vdc_target_variant_from_json(&t->variant, json_node_get_object(variant), what);
    }
}

void
vdc_recorder_attached(vdc_recorder *rec, const vdc_hv_domain *dom, JsonObject *backends)
{
    const vdc_plan *p = rec->p;
    int xen = p->hv == VDC_HV_LIBXL || (p->domain_type && !strcmp(p->domain_type, "xen"));
    size_t i, k;

    for (i = 0; i < p->n_targets; i++) {
        const vdc_plan_target *pt = &p->targets[i];
        vdc_target *t = target_of(rec, i);

        if (!t)
            continue;
        for (k = 0; dom && k < dom->n_disks; k++) {
            if (strcmp(dom->disks[k].target, pt->name) != 0)
                continue;
            if (xen) {
                g_autofree char *spec = vdc_xl_disk_spec(&dom->disks[k]);
                vdc_set_str(&t->requested.disk_spec, spec);
            }
            if (p->hv == VDC_HV_LIBVIRT) {
                g_autofree char *x = vdc_domain_xml_disk(dom, k);
                vdc_set_str(&t->requested.domain_xml_disk, x);
            }
        }
        /* backend truth: what the hypervisor reported, never what we asked */
        if (pt->vdev && backends && json_object_has_member(backends, pt->vdev)) {
            JsonObject *b = json_object_get_object_member(backends, pt->vdev);
            g_autofree char *what = g_strdup_printf("%s backend", pt->vdev);

            /* a driver's malformed member is named and left out, the run goes on */
            (void)vdc_target_backend_from_json(&t->backend, b, what);
        }
    }
    if (backends)
        rec->backends = 1;
}

/* a Xen VBD read from xenstore (libxl's backends, or libvirt's with
 * xenstore's ring facts) whose negotiated ring is still to be read; a
 * Xen disk known only from libvirt's XML has no ring to wait for */
static int
ring_wanted(const vdc_target *t)
{
    const vdc_target_backend *b = &t->backend;

    return (b->xenstore_path || b->frontend_state != VDC_INT_ABSENT ||
            b->max_ring_page_order != VDC_INT_ABSENT) && b->ring_page_order == VDC_INT_ABSENT;
}

int
vdc_recorder_wants_rings(const vdc_recorder *rec)
{
    size_t i;

    for (i = 0; i < rec->p->n_targets; i++) {
        const vdc_target *t = vdc_recorder_target_record(rec, i);

        if (rec->p->targets[i].vdev && t && ring_wanted(t))
            return 1;
    }
    return 0;
}

void
vdc_recorder_rings(vdc_recorder *rec, JsonObject *backends)
{
    const vdc_plan *p = rec->p;
    size_t i;

    for (i = 0; i < p->n_targets; i++) {
        const vdc_plan_target *pt = &p->targets[i];
        vdc_target *t = target_of(rec, i);
        g_autofree char *what = NULL;
        vdc_target now;

        if (!t || !pt->vdev || !backends || !json_object_has_member(backends, pt->vdev))
            continue;
        what = g_strdup_printf("%s backend", pt->vdev);
        if (!t->backend.type) {
            /* nothing read back before (a density level's guest): all of it */
            (void)vdc_target_backend_from_json(&t->backend,
                                               json_object_get_object_member(backends, pt->vdev),
                                               what);
            continue;
        }
        if (!ring_wanted(t))
            continue;
        vdc_target_init(&now);
        if (vdc_target_backend_from_json(&now.backend,
                                         json_object_get_object_member(backends, pt->vdev),
                                         what) == 0) {
            const vdc_target_backend *b = &now.backend;

            if (b->frontend_state != VDC_INT_ABSENT)
                t->backend.frontend_state = b->frontend_state;
            if (b->ring_page_order != VDC_INT_ABSENT) {
                t->backend.ring_page_order = b->ring_page_order;
                t->backend.queues = b->queues;
                t->backend.max_ring_page_order = b->max_ring_page_order;
                t->backend.max_queues = b->max_queues;
            }
        }
        vdc_target_dispose(&now);
    }
}

int
vdc_recorder_has_backends(const vdc_recorder *rec)
{
    return rec->backends;
}

const vdc_target *
vdc_recorder_target_record(const vdc_recorder *rec, size_t i)
{
    return vdc_result_set_find_target(&rec->rs, rec->p->targets[i].name);
}

void
vdc_recorder_memory(vdc_recorder *rec, size_t i, int64_t limit_mib, const char *provenance)
{
    vdc_target *t = vdc_result_set_find_target(&rec->rs, rec->p->targets[i].name);

    if (!t)
        return;
    t->memory_mib = limit_mib;
    vdc_set_str(&t->provenance.memory_mib, provenance);
}

void
vdc_recorder_cache(vdc_recorder *rec, size_t i, const vdc_target_cache *now, const char *fail)
{
    vdc_target *t = vdc_result_set_find_target(&rec->rs, rec->p->targets[i].name);

    if (fail) {
        g_free(rec->fail[i]);
        rec->fail[i] = g_strdup(fail);
    }
    if (!now || !t)
        return;
    if (t->cache.bypasses_dom0_page_cache == VDC_BOOL_ABSENT && !t->cache.error) {
        vdc_target_cache_copy(&t->cache, now);
    } else if (!rec->fail[i]) {
        g_autofree char *why = vdc_cache_changed(&t->cache, now);

        if (why) {
            vdc_error("target %s: the cache state changed: %s: this boot's runs of it fail",
                      t->name, why);
            rec->fail[i] = g_strdup_printf("the cache state changed: %s", why);
        }
    }
}

int
vdc_recorder_has_cache(const vdc_recorder *rec, size_t i)
{
    const vdc_target *t = vdc_recorder_target_record(rec, i);

    return t && t->cache.bypasses_dom0_page_cache != VDC_BOOL_ABSENT;
}

int
vdc_recorder_wants_placement(const vdc_recorder *rec, size_t i)
{
    const vdc_target *t = vdc_recorder_target_record(rec, i);

    return t && !t->placement.source;
}

void
vdc_recorder_placement(vdc_recorder *rec, size_t i, const vdc_placement *pl, const char *source)
{
    vdc_target *t = vdc_result_set_find_target(&rec->rs, rec->p->targets[i].name);

    if (!t)
        return;
    if (pl) {
        vdc_placement_record(pl, source, &t->placement);
    } else {
        /* tried once, not again each boot; the reader's message said why */
        vdc_set_str(&t->placement.source, source);
        vdc_set_str(&t->placement.reason, "could not be read (the run's messages say why)");
    }
}

/* a use (%) as lvm2 reported it, NAN when it is none (0-100) */
static double
use_percent(double v)
{
    return isfinite(v) && v >= 0 && v <= 100 ? v : NAN;
}

void
vdc_recorder_thin_after(vdc_recorder *rec, size_t i, const vdc_thin_facts *f)
{
    vdc_target *t = i < rec->p->n_targets ? vdc_result_set_find_target(&rec->rs, rec->p->targets[i].name)
                                          : NULL;

    if (!t || !t->storage.thin.pool)
        return;
    t->storage.thin.data_percent[1] = f ? use_percent(f->data_percent) : NAN;
    t->storage.thin.metadata_percent[1] = f ? use_percent(f->metadata_percent) : NAN;
}

int
vdc_recorder_wants_alignment(const vdc_recorder *rec, size_t i)
{
    return i < rec->p->n_targets && !rec->aligned[i] && vdc_recorder_target_record(rec, i);
}

/* a size from sysfs (0: not reported) as the model's (absent) */
static int64_t
size_or_absent(uint64_t v)
{
    return v ? (int64_t)v : VDC_INT_ABSENT;
}

void
vdc_recorder_alignment(vdc_recorder *rec, size_t i, const vdc_alignment *a)
{
    vdc_target *t = vdc_result_set_find_target(&rec->rs, rec->p->targets[i].name);
    vdc_target_alignment *al;
    vdc_alignment checked;
    size_t k;

    if (!t || !vdc_recorder_wants_alignment(rec, i))
        return;
    rec->aligned[i] = TRUE;     /* once: a reader that failed said why */
    if (!a)
        return;
    checked = *a;               /* the verdicts are the recorder's, by the one rule */
    vdc_alignment_check(&checked);
    al = &t->alignment;
    vdc_set_str(&al->disk, a->disk);
    vdc_set_str(&al->source, a->source);
    al->physical_block_size = size_or_absent(a->q.physical_block_size);
    al->minimum_io_size = size_or_absent(a->q.minimum_io_size);
    al->optimal_io_size = size_or_absent(a->q.optimal_io_size);
    al->alignment_offset = (int64_t)a->q.alignment_offset;
    for (k = 0; k < checked.n && al->n_layers < VDC_TARGET_ALIGN_LAYERS_MAX; k++) {
        const vdc_align_layer *l = &checked.layers[k];
        vdc_target_align_layer *m = &al->layers[al->n_layers++];

        m->layer = g_strdup(vdc_align_layer_name(l->layer));
        m->offset = l->has_offset ? (int64_t)l->offset : VDC_INT_ABSENT;
        m->size = size_or_absent(l->size);
        m->why = vdc_alignment_why(&checked, l);
    }
}

/* The guest filesystem's layers of target @i as its runner reported them
 * in @tr (fs_block, fs_stripe and the guest's disk), checked against the
 * guest's disk, onto targets[].alignment beside the host's layers: once,
 * from the first answer that has them. */
static void
guest_fs_alignment(vdc_recorder *rec, size_t i, const struct vdc_ctl_target_result *tr)
{
    vdc_target *t = vdc_result_set_find_target(&rec->rs, rec->p->targets[i].name);
    vdc_queue_limits q = {
        .physical_block_size = tr->disk_physical_block_size,
        .minimum_io_size = tr->disk_minimum_io_size,
        .optimal_io_size = tr->disk_optimal_io_size,
        .alignment_offset = tr->disk_alignment_offset,
    };
    vdc_target_alignment *al;
    vdc_alignment g;
    size_t k;

    if (!t || rec->fs_aligned[i] || !tr->fs_block || !tr->disk)
        return;
    rec->fs_aligned[i] = TRUE;
    vdc_alignment_guest_fs(tr->disk, &q, tr->fs_block, tr->fs_stripe, tr->fs_source, &g);
    al = &t->alignment;
    vdc_set_str(&al->guest.disk, g.disk);
    vdc_set_str(&al->guest.source, g.source);
    al->guest.physical_block_size = size_or_absent(q.physical_block_size);
    al->guest.minimum_io_size = size_or_absent(q.minimum_io_size);
    al->guest.optimal_io_size = size_or_absent(q.optimal_io_size);
    al->guest.alignment_offset = (int64_t)q.alignment_offset;
    for (k = 0; k < g.n && al->n_layers < VDC_TARGET_ALIGN_LAYERS_MAX; k++) {
        vdc_target_align_layer *m = &al->layers[al->n_layers++];
        g_autofree char *why = vdc_alignment_why(&g, &g.layers[k]);

        m->layer = g_strdup(vdc_align_layer_name(g.layers[k].layer));
        m->offset = VDC_INT_ABSENT;
        m->size = size_or_absent(g.layers[k].size);
        m->why = why ? g_strdup_printf("%s of the guest's disk %s", why, g.disk) : NULL;
    }
    vdc_alignment_dispose(&g);
}

/* ---- steps ------------------------------------------------------------- */

void
vdc_recorder_boot_begin(vdc_recorder *rec)
{
    size_t i;

    for (i = 0; i < rec->p->n_targets; i++)
        g_clear_pointer(&rec->fail[i], g_free);
    rec->boot_first_run = rec->rs.n_runs;
}

/* Step @step recorded as a run with @status and @error (no answer). */
static vdc_run *
step_run(vdc_recorder *rec, size_t step, const char *status, const char *error)
{
    const vdc_plan_step *st = &rec->p->steps[step];
    vdc_run *r = vdc_result_set_add_run(&rec->rs, rec->p->targets[st->target].name);

    r->repetition = st->rep;
    if (st->level) {
        r->level = st->level;
        r->guest = st->guest;
    }
    vdc_set_str(&r->status, status);
    vdc_set_str(&r->error, error);
    rec->step_run[step] = r;
    return r;
}

void
vdc_recorder_steps_failed(vdc_recorder *rec, size_t first, size_t n, const char *status,
                          const char *why)
{
    size_t k;

    for (k = 0; k < n; k++)
        (void)step_run(rec, first + k, status, why);
}

/* The passes of step @step merged into its run (vdc_agent_result_merge),
 * or, when none gave a result, a failed run with the first reason, else
 * @fallback.  Returns the merged run, or NULL. */
static vdc_run *
merge_step(vdc_recorder *rec, size_t step, const vdc_agent_pass pass[VDC_PASS_COUNT],
           const char *what, const char *runner_error, const char *fallback)
{
    g_autofree char *why = NULL;
    vdc_run *r = vdc_agent_result_merge(&rec->rs, rec->p, step, pass, what, runner_error, &why);

    if (r)
        rec->step_run[step] = r;
    else
        (void)step_run(rec, step, "failed", why ? why : fallback);
    return r;
}

/* One step's entry @tr of a control disk's result frame (@what names the
 * entry in messages). */
static void
ctl_step(vdc_recorder *rec, size_t step, const struct vdc_ctl_target_result *tr, const char *what)
{
    vdc_time_info *time = &rec->rs.experiment.time;
    const vdc_agent_pass pass[VDC_PASS_COUNT] = {
        [VDC_PASS_BONNIE] = { tr->agent_json, tr->agent_json_len },
        [VDC_PASS_FILE] = { tr->workload_json, tr->workload_json_len },
        [VDC_PASS_RAW] = { tr->raw_workload_json, tr->raw_workload_json_len },
    };
    vdc_run *r;

    guest_fs_alignment(rec, rec->p->steps[step].target, tr);
    if (tr->elapsed_ms)
        add_seconds(&time->domu_agent_s, tr->elapsed_ms / 1000.0);
    if (tr->workload_elapsed_ms)
        add_seconds(&time->domu_agent_s, tr->workload_elapsed_ms / 1000.0);
    if (tr->raw_workload_elapsed_ms)
        add_seconds(&time->domu_agent_s, tr->raw_workload_elapsed_ms / 1000.0);
    if (tr->stderr_tail) {
        g_autofree char *stem = vdc_step_stem(rec->p, step);
        g_autofree char *log = g_strdup_printf("%s/logs/%s.stderr", rec->p->out_dir, stem);

        (void)vdc_write_file_atomic(log, tr->stderr_tail, tr->stderr_tail_len);
    }
    if (!tr->agent_json && !tr->workload_json && !tr->raw_workload_json) {
        (void)step_run(rec, step, tr->status == VDC_CTL_STATUS_TIMEOUT ? "timeout" : "failed",
                       tr->error ? tr->error : "the agent wrote no result");
        return;
    }
    r = merge_step(rec, step, pass, what, tr->error, "the agent wrote no result");
    if (r && tr->status != VDC_CTL_STATUS_OK) {
        vdc_set_str(&r->status, tr->status == VDC_CTL_STATUS_TIMEOUT ? "timeout" : "failed");
        /* a pass stopped at its timeout: the runner's account says which
         * and when (the agent's own error only says "interrupted") */
        if (!r->error || (tr->status == VDC_CTL_STATUS_TIMEOUT && tr->error))
            vdc_set_str(&r->error, tr->error ? tr->error : "the runner reported a failure");
    }
}

void
vdc_recorder_ctl_answer(vdc_recorder *rec, size_t first, size_t n, const char *what,
                        const struct vdc_ctl_result *res, const char *runner_log)
{
    const vdc_plan *p = rec->p;
    g_autofree const char **names = g_new0(const char *, n + 1);
    size_t k;

    if (res->log && runner_log)
        (void)vdc_write_file_atomic(runner_log, res->log, res->log_len);
    for (k = 0; k < n; k++)
        names[k] = p->targets[p->steps[first + k].target].name;
    (void)vdc_agent_frame_extra(res, names, n, what);
    for (k = 0; k < n; k++) {
        size_t step = first + k, i = p->steps[step].target;
        const struct vdc_ctl_target_result *tr;
        g_autofree char *entry = g_strdup_printf("%s, target %s", what, names[k]);
        g_autofree char *why = NULL;

        if (rec->fail[i]) {
            /* --image-cache none refused, or the cache state changed: no numbers */
            (void)step_run(rec, step, "failed", rec->fail[i]);
            continue;
        }
        tr = vdc_agent_frame_target(res, names[k], entry, &why);
        if (why) {
            (void)step_run(rec, step, "failed", why);
            continue;
        }
        if (!tr) {
            vdc_error("%s: missing from the result frame", entry);
            (void)step_run(rec, step, "failed", "target missing from the control disk's result");
            continue;
        }
        ctl_step(rec, step, tr, entry);
    }
}

void
vdc_recorder_level(vdc_recorder *rec, size_t first, size_t n, const vdc_run_release *rel,
                   const char *status, const char *error)
{
    const vdc_plan_step *st = &rec->p->steps[first];
    vdc_level_record *l = vdc_experiment_add_level(&rec->rs.experiment);
    double lo = INFINITY, hi = -INFINITY;
    size_t k, started = 0;

    for (k = 0; rel && k < n; k++) {
        vdc_run *r = rec->step_run[first + k];

        if (r)
            r->release = rel[k];
        if (!isnan(rel[k].started_s)) {
            lo = fmin(lo, rel[k].started_s);
            hi = fmax(hi, rel[k].started_s);
            started++;
        }
    }
    l->guests = (int64_t)n;
    l->repetition = st->rep;
    vdc_set_str(&l->target, rec->p->targets[st->target].name);
    /* the skew of the whole level: only when every guest started */
    l->start_skew_s = n && started == n ? hi - lo : NAN;
    vdc_set_str(&l->status, status);
    vdc_set_str(&l->error, error);
}

void
vdc_recorder_level_host(vdc_recorder *rec, JsonObject *host)
{
    vdc_experiment *e = &rec->rs.experiment;
    vdc_level_record *l = e->n_levels ? &e->levels[e->n_levels - 1] : NULL;
    g_autofree char *why = NULL;

    if (!host)
        return;
    if (!l || (why = vdc_host_check(host))) {
        if (why)
            vdc_error("level %" G_GINT64_FORMAT " of %s: its host cost is not recorded: %s",
                      (gint64)l->guests, l->target, why);
        json_object_unref(host);
        return;
    }
    g_clear_pointer(&l->host, json_object_unref);
    l->host = host;
}

/* @path's contents, or NULL (not run, or not written) */
static char *
read_answer(const char *path, gsize *len)
{
    char *data = NULL;

    *len = 0;
    if (path && !g_file_get_contents(path, &data, len, NULL))
        return NULL;
    return data;
}

int
vdc_recorder_dom0_answer(vdc_recorder *rec, size_t step, const char *json, const char *wjson,
                         const char *rjson, const char *why)
{
    const char *first = json ? json : wjson ? wjson : rjson;
    gsize len, wlen, rlen;
    /* what each pass wrote is kept, also after a failure or an
     * interruption (the agent writes the jobs that finished) */
    g_autofree char *data = read_answer(json, &len);
    g_autofree char *wdata = read_answer(wjson, &wlen);
    g_autofree char *rdata = read_answer(rjson, &rlen);
    const vdc_agent_pass pass[VDC_PASS_COUNT] = {
        [VDC_PASS_BONNIE] = { data, len },
        [VDC_PASS_FILE] = { wdata, wlen },
        [VDC_PASS_RAW] = { rdata, rlen },
    };
    vdc_run *r;

    if (!data && !wdata && !rdata) {
        if (!why)
            vdc_error("dom0 baseline: %s: the agent wrote no result", first);
        (void)step_run(rec, step, "failed", why ? why : "the agent wrote no result");
        return 0;
    }
    r = merge_step(rec, step, pass, first, why, "the agent wrote no result");
    if (r && why) {
        if (!r->status || !strcmp(r->status, "ok"))
            vdc_set_str(&r->status, "failed");
        if (!r->error)
            vdc_set_str(&r->error, why);
    }
    return r != NULL;
}

void
vdc_recorder_host_samples(vdc_recorder *rec, size_t first, size_t n, vdc_hostwatch *hw)
{
    size_t k;

    for (k = 0; k < n; k++)
        if (rec->step_run[first + k])
            (void)vdc_hostwatch_attach(hw, k, rec->step_run[first + k]);
}

const char *
vdc_recorder_boot_fail(const vdc_recorder *rec, size_t i)
{
    return rec->fail[i];
}

/* 1 when @r is ok */
static int
run_ok(const vdc_run *r)
{
    return r->status && !strcmp(r->status, "ok");
}

int
vdc_recorder_boot_ok(const vdc_recorder *rec)
{
    size_t k;

    for (k = rec->boot_first_run; k < rec->rs.n_runs; k++)
        if (run_ok(rec->rs.runs[k]))
            return 1;
    return 0;
}

int
vdc_recorder_failed(const vdc_recorder *rec)
{
    size_t k;

    for (k = 0; k < rec->rs.n_runs; k++)
        if (!run_ok(rec->rs.runs[k]))
            return 1;
    return 0;
}

size_t
vdc_recorder_n_runs(const vdc_recorder *rec)
{
    return rec->rs.n_runs;
}

/* ---- when to stop ------------------------------------------------------ */

int
vdc_recorder_precise_enough(vdc_recorder *rec, unsigned reps)
{
    const vdc_plan *p = rec->p;
    vdc_runs_policy *rp = &rec->rs.experiment.runs_policy;
    vdc_stop_decision d;
    size_t i;
    int stop;

    if (vdc_stop_decide(&rec->rs, reps, p->min_runs, p->runs, p->precision_percent / 100.0, &d) < 0) {
        /* nothing to decide on yet: the next repetition, if any */
        if (reps < p->runs)
            return 0;
        rec->rs.experiment.runs_per_target = reps;
        return 1;
    }
    stop = reps >= p->runs || (d.n_rows > 0 && d.n_open == 0);
    if (!stop) {
        vdc_progress("repetition %u: %zu of %zu headline test(s) within +-%g %%: next repetition",
                     reps, d.n_rows - d.n_open, d.n_rows, p->precision_percent);
        vdc_stop_decision_dispose(&d);
        return 0;
    }
    for (i = 0; i < d.n_rows; i++) {
        const vdc_stop_row *row = &d.rows[i];
        vdc_stop_record *sr = vdc_runs_policy_add_stop(rp, d.tests[row->test]);

        vdc_set_str(&sr->target, d.targets[row->target]);
        vdc_set_str(&sr->reference, d.targets[row->reference]);
        /* a test still open when another bound stopped the run: max runs */
        vdc_set_str(&sr->reason, vdc_stop_reason_name(row->reason == VDC_STOP_CONTINUE ? VDC_STOP_MAX_RUNS
                                                                                       : row->reason));
        sr->runs = reps;
        sr->half_width_percent = row->p.has_ci ? 100.0 * row->p.half_width : NAN;
    }
    {
        size_t precise = 0;

        for (i = 0; i < d.n_rows; i++)
            precise += d.rows[i].reason == VDC_STOP_PRECISION;
        if (d.n_rows && precise == d.n_rows)
            vdc_progress("repetition %u: every headline test within +-%g %%: stopping (%zu headline "
                         "test(s))", reps, p->precision_percent, d.n_rows);
        else
            vdc_progress("repetition %u: the most repetitions --max-runs allows: stopping, %zu of %zu "
                         "headline test(s) within +-%g %%", reps, precise, d.n_rows, p->precision_percent);
    }
    rec->rs.experiment.runs_per_target = reps;
    vdc_stop_decision_dispose(&d);
    return 1;
}

/* ---- the record -------------------------------------------------------- */

int
vdc_recorder_save(const vdc_recorder *rec, const char *path)
{
    return vdc_result_set_save(&rec->rs, path);
}
