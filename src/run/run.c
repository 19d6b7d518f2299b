/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run loop (run.h).  One context, one journal; every step checks the
 * stop flag; teardown always happens before vdc_run returns. */
#include "config.h"
#include "run/run.h"
#include "run/facts.h"
#include "run/step.h"
#include "run/agent_result.h"
#include "run/hostwatch.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"
#include "plan/levels.h"
#include "report/analysis.h"
#include "report/report_dir.h"

struct vdc_run_ctx {
    vdc_plan *p;
    const vdc_run_settings *s;
    const vdc_run_env *env;
    vdc_journal journal;
    const vdc_hv_ops *hvops;
    vdc_hv *hv;
    struct vdc_storage *st;     /* per target */
    char **dev;                 /* per target: device or file the agent uses */
    vdc_result_set rs;
    JsonObject *backends;       /* vdev -> backend facts (first good boot) */
    char **cache_fail;          /* per target: why this boot's runs of it fail (cache.h) */
    struct vdc_prepared prep;
    int failed;
    int interrupted;
    char *repeats;              /* why every further boot would fail as the last did: the
                                 * run stops (domu_boot), or NULL */
    size_t boots_done, boots_failed;    /* boots with at least one ok run; the others */
    char *run_tag;              /* VDC_STORAGE_RUN_TAG_PREFIX + the run id: on every LV */
    struct vdc_hostwatch *hw;   /* the dom0 step's host sampler, or NULL */
};

vdc_journal *vdc_run_ctx_journal(vdc_run_ctx *ctx) { return &ctx->journal; }
const vdc_plan *vdc_run_ctx_plan(vdc_run_ctx *ctx) { return ctx->p; }
const vdc_run_settings *vdc_run_ctx_settings(vdc_run_ctx *ctx) { return ctx->s; }
volatile sig_atomic_t *vdc_run_ctx_stop(vdc_run_ctx *ctx) { return ctx->env->stop; }
struct vdc_hostwatch *vdc_run_ctx_hostwatch(vdc_run_ctx *ctx) { return ctx->hw; }
vdc_result_set *vdc_run_ctx_result(vdc_run_ctx *ctx) { return &ctx->rs; }

static int
stopped(vdc_run_ctx *ctx)
{
    if (ctx->env->stop && *ctx->env->stop)
        ctx->interrupted = 1;
    return ctx->interrupted;
}

/* ---- results ------------------------------------------------------------ */

static vdc_run *
add_run(vdc_run_ctx *ctx, const char *target, unsigned rep, const char *status, const char *error)
{
    vdc_run *r = vdc_result_set_add_run(&ctx->rs, target);

    r->repetition = rep;
    vdc_set_str(&r->status, status);
    vdc_set_str(&r->error, error);
    if (strcmp(status, "ok") != 0)
        ctx->failed = 1;
    return r;
}

/* Merge the agent's results of step (@target, @rep) as one run: @bonnie
 * (@blen bytes) from the bonnie++ pass, @wl (@wlen) from the workload
 * pass on a file, @raw_wl (@rlen) from the workload pass on the raw
 * device, each NULL when its pass wrote nothing.  Each is untrusted:
 * bounded and checked against the job (vdc_agent_result_check, then
 * vdc_agent_result_check_pass: the workload samples the job asked for,
 * on what the pass ran on), kept verbatim in runs/TARGET-REP.json,
 * runs/TARGET-REP.workloads.json and runs/TARGET-REP.raw-workloads.json,
 * and joined into the run (vdc_agent_result_join).  A pass the plan asks
 * for that gave nothing or was refused fails the run, with @runner_error
 * (the runner's or the dom0 step's own account, may be NULL) or the
 * refusal as its error; what the other pass gave stays.  Returns the run,
 * or NULL with a failed run added when no pass gave a result. */
static vdc_run *
merge_agent_json(vdc_run_ctx *ctx, const char *target, unsigned rep, const char *bonnie,
                 size_t blen, const char *wl, size_t wlen, const char *raw_wl, size_t rlen,
                 const char *what, const char *runner_error)
{
    const vdc_plan *p = ctx->p;
    const struct { const char *json; size_t len; int wanted; const char *suffix, *name, *on; } pass[] = {
        { bonnie, blen, p->bonnie, "", "bonnie++", NULL },
        { wl, wlen, p->n_workloads > 0 && p->workload_file, ".workloads", "workload", "file" },
        { raw_wl, rlen, p->n_workloads > 0 && p->workload_raw, ".raw-workloads", "raw workload", "raw" },
    };
    g_autofree char *why = NULL;
    vdc_run *merged = NULL;
    size_t k;

    for (k = 0; k < G_N_ELEMENTS(pass); k++) {
        g_autofree char *raw = NULL, *refused = NULL;
        vdc_result_set one;

        if (!pass[k].wanted)
            continue;
        if (!pass[k].json) {
            if (!why)
                why = runner_error ? g_strdup(runner_error)
                                   : g_strdup_printf("the agent's %s pass wrote no result", pass[k].name);
            continue;
        }
        vdc_result_set_init(&one);
        if (vdc_agent_result_check(pass[k].json, pass[k].len, target, rep, what, &one, &refused) < 0 ||
            vdc_agent_result_check_pass(one.runs[0], k ? p->workloads : NULL, k ? p->n_workloads : 0,
                                        pass[k].on, what, &refused) < 0) {
            if (!why)
                why = g_steal_pointer(&refused);
            vdc_result_set_dispose(&one);
            continue;
        }
        raw = g_strdup_printf("%s/runs/%s-%u%s.json", p->out_dir, target, rep, pass[k].suffix);
        (void)vdc_write_file_atomic(raw, pass[k].json, pass[k].len);
        if (!merged) {
            merged = vdc_result_set_add_run(&ctx->rs, target);
            vdc_run_dispose(merged);
            vdc_run_copy(merged, one.runs[0]);
            vdc_set_str(&merged->target, target);
            merged->repetition = rep;
        } else {
            vdc_agent_result_join(merged, one.runs[0]);
        }
        vdc_result_set_dispose(&one);
    }
    if (!merged) {
        add_run(ctx, target, rep, "failed", why ? why : "the agent wrote no result");
        return NULL;
    }
    /* host figures are the host's to measure, never the guest's to say */
    g_clear_pointer(&merged->host, json_object_unref);
    for (k = 0; k < merged->n_samples; k++)
        g_clear_pointer(&merged->samples[k]->host, json_object_unref);
    if (why) {
        if (!merged->status || !strcmp(merged->status, "ok"))
            vdc_set_str(&merged->status, "failed");
        if (!merged->error)
            vdc_set_str(&merged->error, why);
    }
    if (!merged->status || strcmp(merged->status, "ok") != 0)
        ctx->failed = 1;
    return merged;
}

/* ---- provisioning --------------------------------------------------------- */

/* Make @dir and any missing parents, each journaled ("dir": removed at
 * teardown when empty), outermost first.  0 or -1 (vdc_error). */
static int
ensure_dir(vdc_run_ctx *ctx, const char *dir)
{
    g_autofree char *parent = NULL;
    unsigned seq;

    if (g_file_test(dir, G_FILE_TEST_IS_DIR))
        return 0;
    parent = g_path_get_dirname(dir);
    if (strcmp(parent, dir) != 0 && ensure_dir(ctx, parent) < 0)
        return -1;
    seq = vdc_journal_add(&ctx->journal, &(vdc_journal_entry){ .kind = VDC_JOURNAL_DIR, .path = dir });
    if (!seq)
        return -1;
    return vdc_run_mkdir_journaled(&ctx->journal, seq, dir, 0755);
}

/* run.h */
int
vdc_run_mkdir_journaled(vdc_journal *j, unsigned seq, const char *dir, mode_t mode)
{
    g_autofree char *ino = NULL;

    if (mkdir(dir, mode) < 0) {
        int e = errno;  /* g_file_test's stat may change errno */

        if (e == EEXIST && g_file_test(dir, G_FILE_TEST_IS_DIR))
            return vdc_journal_undone(j, seq);  /* made by someone else meanwhile: not ours */
        vdc_error("directory %s: cannot create: %s", dir, g_strerror(e));
        return -1;
    }
    ino = vdc_journal_ino_of(dir);
    return ino ? vdc_journal_done_ident(j, seq, "ino", ino) : vdc_journal_done(j, seq);
}

/* Mark @seq done with the identity of the file @path it made. */
static int
done_with_ino(vdc_journal *j, unsigned seq, const char *path)
{
    g_autofree char *ino = vdc_journal_ino_of(path);

    return ino ? vdc_journal_done_ident(j, seq, "ino", ino) : vdc_journal_done(j, seq);
}

/* What provisioning asks the storage code for, and what the room checks
 * check: the target's description and where it lives. */
static struct vdc_storage_spec
storage_spec(const vdc_plan *p, const vdc_plan_target *t, int consent)
{
    int qcow2 = t->spec.backing == VDC_BACKING_IMAGE && t->spec.format == VDC_IMAGE_QCOW2;

    return (struct vdc_storage_spec){
        .target = t->spec, .name = t->name, .size_bytes = t->disk_bytes, .path = t->path,
        .vg = t->vg, .lv = t->lv, .stripes = t->stripes, .stripe_size = t->stripe_size,
        .consent = consent, .thin = t->thin_pool != NULL, .thin_pool = t->thin_pool,
        .thin_chunk_size = t->thin_pool ? p->thin_chunk_size : 0,
        .thin_zero = t->thin_pool ? p->thin_zero : -1,
        .cluster_size = qcow2 ? p->qcow2_cluster_size : 0,
    };
}

static int
provision_target(vdc_run_ctx *ctx, size_t i)
{
    vdc_plan_target *t = &ctx->p->targets[i];
    struct vdc_storage_spec spec = storage_spec(ctx->p, t, ctx->s->consent);
    unsigned seq = 0, pool_seq = 0;
    int r;

    spec.run_tag = ctx->run_tag;     /* an LV carries the run id */
    /* what we create (an image, an LV) is journaled before it exists */
    if (t->spec.backing == VDC_BACKING_IMAGE) {
        g_autofree char *dir = g_path_get_dirname(t->path);

        if (ensure_dir(ctx, dir) < 0)
            return -1;
        seq = vdc_journal_add(&ctx->journal, &(vdc_journal_entry){
            .kind = VDC_JOURNAL_IMAGE, .path = t->path, .image = t->spec });
    } else if (t->spec.backing == VDC_BACKING_LVM) {
        /* a thin LV's pool first: the teardown, newest first, removes the
         * LV before its pool */
        if (t->thin_pool) {
            pool_seq = vdc_journal_add(&ctx->journal, &(vdc_journal_entry){
                .kind = VDC_JOURNAL_LV, .vg = t->vg, .lv = t->thin_pool, .tag = spec.run_tag });
            if (!pool_seq)
                return -1;
        }
        seq = vdc_journal_add(&ctx->journal, &(vdc_journal_entry){
            .kind = VDC_JOURNAL_LV, .vg = t->vg, .lv = t->lv, .tag = spec.run_tag });
    }
    if (t->spec.backing != VDC_BACKING_BLOCK && !seq)
        return -1;
    vdc_progress("provisioning %s: %s %s", t->name,
                 vdc_target_name(VDC_DIM_BACKING, t->spec.backing), t->path);
    r = ctx->env->storage_create(&spec, &ctx->st[i]);
    if (r < 0) {
        if (seq)
            (void)vdc_journal_undone(&ctx->journal, seq);   /* create leaves nothing */
        if (pool_seq)
            (void)vdc_journal_undone(&ctx->journal, pool_seq);
        return -1;
    }
    if (pool_seq && vdc_journal_done(&ctx->journal, pool_seq) < 0)
        return -1;
    if (seq && (t->spec.backing == VDC_BACKING_IMAGE ? done_with_ino(&ctx->journal, seq, t->path)
                                                      : vdc_journal_done(&ctx->journal, seq)) < 0)
        return -1;
    ctx->dev[i] = g_strdup(ctx->st[i].device ? ctx->st[i].device : ctx->st[i].path);

    /* the dom0 baseline on an image: a loop device over it */
    if (t->spec.where == VDC_WHERE_DOM0 && t->spec.backing == VDC_BACKING_IMAGE) {
        char *loop;
        seq = vdc_journal_add(&ctx->journal,
                              &(vdc_journal_entry){ .kind = VDC_JOURNAL_LOOP, .file = t->path });
        if (!seq)
            return -1;
        loop = ctx->env->loop_attach(t->path);
        if (!loop)
            return -1;
        g_free(ctx->dev[i]);
        ctx->dev[i] = loop;
        if (vdc_journal_done(&ctx->journal, seq) < 0)
            return -1;
    }
    return 0;
}

int
vdc_run_check_lvm_room(const vdc_plan *p)
{
    unsigned copies = vdc_plan_max_guests(p), k;
    struct vdc_storage_spec *specs = g_new0(struct vdc_storage_spec,
                                            p->n_targets ? p->n_targets * copies : 1);
    size_t i, n = 0;
    int rc;

    /* the specs provision_target() gives storage_create(); a domU target's
     * once per guest of the largest level (--guests) */
    for (i = 0; i < p->n_targets; i++) {
        const vdc_plan_target *t = &p->targets[i];

        if (t->spec.backing != VDC_BACKING_LVM)
            continue;
        for (k = 0; k < (t->spec.where == VDC_WHERE_DOMU ? copies : 1); k++)
            specs[n++] = storage_spec(p, t, 0);
    }
    rc = n ? vdc_storage_lvm_check_all(specs, n) : 0;
    g_free(specs);
    return rc;
}

/* run.h */
int
vdc_run_id_taken(const vdc_plan *p, const vdc_run_env *env, int check_out)
{
    const vdc_hv_ops *ops;
    size_t i;

    if (check_out && g_file_test(p->out_dir, G_FILE_TEST_EXISTS)) {
        vdc_progress("run id %s: %s exists: choosing another id", p->id, p->out_dir);
        return 1;
    }
    {
        g_autofree char *rec = g_build_filename(vdc_runrec_dir(), p->id, NULL);
        struct stat sb;

        if (lstat(rec, &sb) == 0) {
            vdc_progress("run id %s: its run record %s exists: choosing another id", p->id, rec);
            return 1;
        }
    }
    for (i = 0; i < p->n_targets; i++) {
        const vdc_plan_target *t = &p->targets[i];
        struct stat sb;

        if (t->spec.backing == VDC_BACKING_IMAGE && t->path && lstat(t->path, &sb) == 0) {
            vdc_progress("run id %s: image %s exists: choosing another id", p->id, t->path);
            return 1;
        }
        if (t->spec.backing == VDC_BACKING_LVM && t->vg && t->lv &&
            vdc_storage_lvm_probe(t->vg, t->lv) == 1) {
            vdc_progress("run id %s: LV %s/%s exists: choosing another id", p->id, t->vg, t->lv);
            return 1;
        }
    }
    if (p->hv == VDC_HV_NONE)
        return 0;
    ops = env && env->hv ? env->hv : vdc_hv_ops_for(p->hv);
    if (!ops)
        return -1;
    {
        vdc_hv *hv = ops->open(p->uri);
        char uuid[VDC_HV_UUID_LEN];
        int r;

        if (!hv)
            return -1;
        r = ops->uuid(hv, p->domain_name, uuid);
        ops->close(hv);
        if (r == 1)
            vdc_progress("run id %s: domain %s exists (UUID %s): choosing another id", p->id,
                         p->domain_name, uuid);
        return r;
    }
}

/* The nearest existing directory at or above @path's directory (the image
 * directory may not exist yet: run creates it). */
static char *
existing_dir(const char *path)
{
    char *d = g_path_get_dirname(path);

    while (!g_file_test(d, G_FILE_TEST_IS_DIR) && strcmp(d, "/") && strcmp(d, ".")) {
        char *up = g_path_get_dirname(d);

        g_free(d);
        d = up;
    }
    return d;
}

/* run.h */
int
vdc_run_check_image_room(const vdc_plan *p)
{
    /* per filesystem (st_dev): bytes the plan's images will take, full
     * size each (a sparse image fills up as the agent writes its file) */
    struct fsneed { dev_t dev; char *dir; uint64_t need; GString *what; };
    GArray *fs = g_array_new(FALSE, TRUE, sizeof(struct fsneed));
    unsigned copies;
    size_t i, j;
    int rc = 0;

    for (i = 0; i < p->n_targets; i++) {
        const vdc_plan_target *t = &p->targets[i];
        struct fsneed *f;
        struct stat st;
        char *dir;

        if (!t->path || !t->disk_bytes || t->spec.backing != VDC_BACKING_IMAGE)
            continue;
        dir = existing_dir(t->path);
        if (stat(dir, &st) < 0) {
            g_free(dir);
            continue;           /* the create names what is wrong */
        }
        for (j = 0; j < fs->len && g_array_index(fs, struct fsneed, j).dev != st.st_dev; j++)
            ;
        if (j == fs->len) {
            struct fsneed n = { st.st_dev, dir, 0, g_string_new(NULL) };

            g_array_append_val(fs, n);
        } else {
            g_free(dir);
        }
        f = &g_array_index(fs, struct fsneed, j);
        /* a domU target once per guest of the largest level (--guests) */
        copies = t->spec.where == VDC_WHERE_DOMU ? vdc_plan_max_guests(p) : 1;
        f->need += copies * t->disk_bytes;
        if (copies > 1)
            g_string_append_printf(f->what, "%s%s %u x %" G_GUINT64_FORMAT, f->what->len ? ", " : "",
                                   t->name, copies, t->disk_bytes);
        else
            g_string_append_printf(f->what, "%s%s %" G_GUINT64_FORMAT, f->what->len ? ", " : "",
                                   t->name, t->disk_bytes);
    }
    for (j = 0; j < fs->len; j++) {
        struct fsneed *f = &g_array_index(fs, struct fsneed, j);
        struct statvfs v;

        if (rc == 0 && statvfs(f->dir, &v) == 0 && (uint64_t)v.f_bavail * v.f_frsize < f->need) {
            vdc_error("--image-dir: %s has %" G_GUINT64_FORMAT " bytes free, the images need %"
                      G_GUINT64_FORMAT " (%s): expected a filesystem with room, or smaller --size",
                      f->dir, (uint64_t)v.f_bavail * v.f_frsize, f->need, f->what->str);
            rc = -1;
        }
        g_free(f->dir);
        g_string_free(f->what, TRUE);
    }
    g_array_free(fs, TRUE);
    return rc;
}

/* ---- result.json targets -------------------------------------------------- */

/* the QEMU knobs a domU disk of @s was given (the translator's
 * <driver>, hv/translate.c) into @r */
static void
describe_knobs(vdc_target_requested *r, const vdc_target_spec *s)
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

static void
describe_targets(vdc_run_ctx *ctx, const vdc_hv_domain *dom)
{
    vdc_plan *p = ctx->p;
    size_t i, k;

    for (i = 0; i < p->n_targets; i++) {
        vdc_plan_target *pt = &p->targets[i];
        vdc_target *t = vdc_result_set_find_target(&ctx->rs, pt->name);
        JsonObject *st = NULL;

        if (!t)
            t = vdc_result_set_add_target(&ctx->rs, pt->name);
        if (!t)
            continue;
        vdc_set_str(&t->kind, vdc_target_spec_kind(&pt->spec));
        vdc_set_str(&t->where, vdc_target_name(VDC_DIM_WHERE, pt->spec.where));
        vdc_set_str(&t->filesystem.type, p->mkfs);
        vdc_set_str(&t->filesystem.mkfs_options, vdc_target_mkfs_options(p->mkfs, pt));
        if (vdc_target_spec_domu_image(&pt->spec)) {
            vdc_set_str(&t->requested.image_backend,
                        vdc_target_name(VDC_DIM_IMAGE_BACKEND, pt->spec.backend));
            vdc_set_str(&t->requested.image_cache,
                        vdc_target_name(VDC_DIM_IMAGE_CACHE, pt->spec.cache));
        }
        if (p->hv == VDC_HV_LIBVIRT && vdc_hv_disk_qemu_knobs(&pt->spec) &&
            !(p->domain_type && !strcmp(p->domain_type, "xen")))
            describe_knobs(&t->requested, &pt->spec);
        for (k = 0; dom && k < dom->n_disks; k++) {
            if (strcmp(dom->disks[k].target, pt->name) != 0)
                continue;
            if (p->hv == VDC_HV_LIBXL || (p->domain_type && !strcmp(p->domain_type, "xen"))) {
                g_autofree char *spec = vdc_xl_disk_spec(&dom->disks[k]);
                vdc_set_str(&t->requested.disk_spec, spec);
            }
            if (p->hv == VDC_HV_LIBVIRT) {
                g_autofree char *x = vdc_domain_xml_disk(dom, k);
                vdc_set_str(&t->requested.domain_xml_disk, x);
            }
        }
        /* backend truth: what the hypervisor reported, never what we asked */
        if (pt->vdev && ctx->backends && json_object_has_member(ctx->backends, pt->vdev)) {
            JsonObject *b = json_object_get_object_member(ctx->backends, pt->vdev);
            g_autofree char *what = g_strdup_printf("%s backend", pt->vdev);

            /* a driver's malformed member is named and left out, the run goes on */
            (void)vdc_target_backend_from_json(&t->backend, b, what);
        } else if (pt->spec.where == VDC_WHERE_DOM0 && ctx->dev[i]) {
            vdc_set_str(&t->backend.type, "block");
            vdc_set_str(&t->backend.source, "local");
            vdc_set_str(&t->backend.physical_device, ctx->dev[i]);
        }
        if (ctx->st[i].path || ctx->st[i].name)
            st = ctx->env->storage_describe(&ctx->st[i]);
        if (st) {
            g_autofree char *what = g_strdup_printf("%s storage", pt->name);

            (void)vdc_target_storage_from_json(&t->storage, st, what);
            json_object_unref(st);
        }
    }
}

/* @s seconds added to *@acc (NAN, not measured yet: 0). */
static void
add_seconds(double *acc, double s)
{
    *acc = vdc_has(*acc) ? *acc + s : s;
}

/* Seconds since @t0_us (g_get_monotonic_time), added to *@acc. */
static void
add_time(double *acc, gint64 t0_us)
{
    add_seconds(acc, (double)(g_get_monotonic_time() - t0_us) / 1e6);
}

/* ---- cache truth and placement (run/cache.h) ------------------------------- */

/* After create: read the domU's disk facts, apply `none` on loop devices
 * while it is paused, record and verify targets[].cache; then resume a
 * paused domU.  0, or -1 when the domU could not be resumed (message
 * printed). */
static int
cache_step(vdc_run_ctx *ctx, const vdc_hv_domain *dom)
{
    vdc_plan *p = ctx->p;
    vdc_hv_disk_facts facts;
    size_t i;

    vdc_hv_disk_facts_init(&facts);
    if (ctx->hvops->disk_facts(ctx->hv, p->domain_name, &facts) == 0) {
        vdc_cache_boot(p, dom, &facts, &ctx->env->cache, &ctx->rs, ctx->cache_fail);
    } else {
        /* the message is printed; `none` cannot be verified without facts */
        for (i = 0; i < p->n_targets; i++)
            if (vdc_target_spec_domu_image(&p->targets[i].spec) &&
                p->targets[i].spec.cache == VDC_IMAGE_CACHE_NONE && !ctx->cache_fail[i])
                ctx->cache_fail[i] = g_strdup("--image-cache none refused: the domU's backends "
                                              "could not be read back");
    }
    vdc_hv_disk_facts_dispose(&facts);
    if (dom->start_paused && ctx->hvops->resume(ctx->hv, p->domain_name) < 0)
        return -1;
    return 0;
}

/* The dom0 baseline's cache record: its own loop device (direct I/O, made
 * by vdc_loop_attach), read back once. */
static void
dom0_cache(vdc_run_ctx *ctx, size_t i)
{
    const vdc_plan_target *pt = &ctx->p->targets[i];
    vdc_target *t = vdc_result_set_find_target(&ctx->rs, pt->name);
    vdc_loop_info li = { 0 };

    if (!t || pt->spec.backing != VDC_BACKING_IMAGE || !ctx->env->cache.loop_info ||
        t->cache.bypasses_dom0_page_cache != VDC_BOOL_ABSENT || !ctx->dev[i])
        return;
    if (ctx->env->cache.loop_info(ctx->dev[i], &li) == 0) {
        vdc_cache_facts f = { .spec = &pt->spec, .image = pt->path, .loop = &li };

        (void)vdc_cache_decide(&f, &t->cache);
    }
    vdc_loop_info_dispose(&li);
}

/* targets[].placement of target @i, once (after its first boot, when its
 * image holds the test file's blocks).  A reader that fails has said why;
 * the run goes on without it. */
static void
read_placement(vdc_run_ctx *ctx, size_t i)
{
    const vdc_plan_target *pt = &ctx->p->targets[i];
    vdc_target *t = vdc_result_set_find_target(&ctx->rs, pt->name);
    vdc_placement pl;
    const char *source;
    int r;

    if (!t || t->placement.source)
        return;
    memset(&pl, 0, sizeof(pl));
    if (pt->spec.backing == VDC_BACKING_IMAGE && ctx->env->image_placement) {
        source = "fiemap";
        r = ctx->env->image_placement(pt->path, &pl);
    } else if (pt->spec.backing == VDC_BACKING_LVM && ctx->env->lv_placement) {
        source = "lvs seg_pe_ranges";
        r = ctx->env->lv_placement(pt->vg, pt->lv, NULL, &pl);
    } else {
        return;
    }
    if (r == 0) {
        vdc_placement_record(&pl, source, &t->placement);
    } else {
        /* tried once, not again each boot; the reader's message said why */
        vdc_set_str(&t->placement.source, source);
        vdc_set_str(&t->placement.reason, "could not be read (the run's messages say why)");
    }
    vdc_placement_dispose(&pl);
}

/* ---- one domU boot ------------------------------------------------------- */

/* The watchdog's period: a running domU is looked at this often (s). */
#define WATCH_S 5
/* An image directory's filesystem with fewer free bytes is full. */
#define WATCH_FULL_BYTES (1u << 20)

static int
fs_free(const vdc_run_env *env, const char *dir, uint64_t *bytes)
{
    struct statvfs v;

    if (env->fs_free)
        return env->fs_free(dir, bytes);
    if (statvfs(dir, &v) < 0)
        return -1;
    *bytes = (uint64_t)v.f_bavail * v.f_frsize;
    return 0;
}

/* "DIR: N bytes free" for the first image directory of the plan whose
 * filesystem is full (below WATCH_FULL_BYTES), or NULL. */
static char *
full_image_dir(vdc_run_ctx *ctx)
{
    size_t i;

    for (i = 0; i < ctx->p->n_targets; i++) {
        const vdc_plan_target *t = &ctx->p->targets[i];
        g_autofree char *dir = NULL;
        uint64_t bytes;

        if (t->spec.backing != VDC_BACKING_IMAGE || !t->path)
            continue;
        dir = g_path_get_dirname(t->path);
        if (fs_free(ctx->env, dir, &bytes) == 0 && bytes < WATCH_FULL_BYTES)
            return g_strdup_printf("%s: %" G_GUINT64_FORMAT " bytes free", dir, (guint64)bytes);
    }
    return NULL;
}

/* Wait for the domU as the driver's wait does, up to --timeout, in
 * periods of WATCH_S seconds; between them the domU is watched: paused by
 * the hypervisor on an I/O error (drivers with a stalled slot), or an
 * image directory's filesystem full at two looks in a row, ends the wait
 * at once with *@stall (g_malloc) naming the cause, e.g. "image directory
 * FS full (/var/lib/vmdiskcmp: 0 bytes free); paused on an I/O error
 * (disk vdb: no space left)".  A guest writing its test file into a full
 * filesystem makes no progress, and would otherwise be waited for the
 * whole --timeout.  On every driver, a runner that has beaten at least
 * once (@hw reads its heartbeat from the control disk at each look) and
 * then not for --heartbeat-timeout seconds ends the wait too: "the
 * runner's heartbeat stopped 120 s ago (last event: test rewrite of target
 * img began)".  The seconds count the periods waited since the look that
 * saw the last beat (so the mock driver's instant waits count as real
 * ones); before the first beat only --timeout applies (boot time varies). */
static vdc_hv_wait_result
watch_domu(vdc_run_ctx *ctx, vdc_hostwatch *hw, char **stall)
{
    const vdc_plan *p = ctx->p;
    unsigned left = p->timeout_s, full = 0, since_beat = 0;
    uint64_t beats = 0;

    *stall = NULL;
    for (;;) {
        unsigned period = MIN(left, WATCH_S);
        g_autofree char *dir = NULL, *why = NULL;
        vdc_hv_wait_result w = ctx->hvops->wait(ctx->hv, p->domain_name, period, ctx->env->stop);
        int paused = 0;

        left -= period;
        if (w != VDC_HV_WAIT_TIMEOUT || left == 0)
            return w;
        dir = full_image_dir(ctx);
        full = dir ? full + 1 : 0;
        if (ctx->hvops->stalled)
            paused = ctx->hvops->stalled(ctx->hv, p->domain_name, &why) == 1;
        if (dir && (paused || full >= 2)) {
            *stall = g_strdup_printf("image directory FS full (%s)%s%s", dir, paused ? "; " : "",
                                     paused ? why : "");
            return w;
        }
        if (paused) {
            *stall = g_strdup_printf("the domU stalled: %s", why);
            return w;
        }
        if (hw && p->heartbeat_timeout_s) {
            g_autofree char *last = NULL;
            uint64_t now = vdc_hostwatch_heartbeat(hw, &last);

            if (now != beats) {
                beats = now;
                since_beat = 0;
            } else if (beats) {
                since_beat += period;
            }
            if (beats && since_beat >= p->heartbeat_timeout_s) {
                *stall = g_strdup_printf("the runner's heartbeat stopped %u s ago (last event: %s)",
                                         since_beat, last);
                return w;
            }
        }
    }
}

static void
fail_boot(vdc_run_ctx *ctx, const vdc_plan_boot *b, const char *status, const char *why)
{
    size_t k;

    for (k = 0; k < b->n; k++) {
        const vdc_plan_step *st = &ctx->p->steps[b->first + k];
        add_run(ctx, ctx->p->targets[st->target].name, st->rep, status, why);
    }
}

static void
collect(vdc_run_ctx *ctx, const vdc_plan_boot *b, const char *ctl, uint64_t nonce, unsigned bi)
{
    struct vdc_ctl_result res;
    size_t k;

    vdc_ctl_result_init(&res);
    if (ctx->env->ctl_read(ctl, nonce, &res) < 0) {
        fail_boot(ctx, b, "failed", "no valid result on the control disk (see the message above)");
        vdc_ctl_result_dispose(&res);
        return;
    }
    if (res.log) {
        g_autofree char *log = g_strdup_printf("%s/logs/runner-%u.log", ctx->p->out_dir, bi);
        (void)vdc_write_file_atomic(log, res.log, res.log_len);
    }
    {
        g_autofree const char **names = g_new0(const char *, b->n);
        g_autofree char *what = g_strdup_printf("control disk %s", ctl);

        for (k = 0; k < b->n; k++)
            names[k] = ctx->p->targets[ctx->p->steps[b->first + k].target].name;
        (void)vdc_agent_frame_extra(&res, names, b->n, what);
    }
    for (k = 0; k < b->n; k++) {
        const vdc_plan_step *st = &ctx->p->steps[b->first + k];
        const char *name = ctx->p->targets[st->target].name;
        const struct vdc_ctl_target_result *tr = NULL;
        vdc_run *r;
        g_autofree char *what = g_strdup_printf("control disk %s, target %s", ctl, name);
        g_autofree char *why = NULL;

        if (ctx->cache_fail[st->target]) {
            /* --image-cache none refused, or the cache state changed: no numbers */
            add_run(ctx, name, st->rep, "failed", ctx->cache_fail[st->target]);
            continue;
        }
        tr = vdc_agent_frame_target(&res, name, what, &why);
        if (why) {
            add_run(ctx, name, st->rep, "failed", why);
            continue;
        }
        if (!tr) {
            vdc_error("%s: missing from the result frame", what);
            add_run(ctx, name, st->rep, "failed", "target missing from the control disk's result");
            continue;
        }
        if (tr->elapsed_ms)
            add_seconds(&ctx->rs.experiment.time.domu_agent_s, tr->elapsed_ms / 1000.0);
        if (tr->workload_elapsed_ms)
            add_seconds(&ctx->rs.experiment.time.domu_agent_s, tr->workload_elapsed_ms / 1000.0);
        if (tr->raw_workload_elapsed_ms)
            add_seconds(&ctx->rs.experiment.time.domu_agent_s, tr->raw_workload_elapsed_ms / 1000.0);
        if (tr->stderr_tail) {
            g_autofree char *log = g_strdup_printf("%s/logs/%s-%u.stderr", ctx->p->out_dir,
                                                   name, st->rep);
            (void)vdc_write_file_atomic(log, tr->stderr_tail, tr->stderr_tail_len);
        }
        if (!tr->agent_json && !tr->workload_json && !tr->raw_workload_json) {
            add_run(ctx, name, st->rep,
                    tr->status == VDC_CTL_STATUS_TIMEOUT ? "timeout" : "failed",
                    tr->error ? tr->error : "the agent wrote no result");
            continue;
        }
        r = merge_agent_json(ctx, name, st->rep, tr->agent_json, tr->agent_json_len,
                             tr->workload_json, tr->workload_json_len, tr->raw_workload_json,
                             tr->raw_workload_json_len, what, tr->error);
        if (r && tr->status != VDC_CTL_STATUS_OK) {
            vdc_set_str(&r->status, tr->status == VDC_CTL_STATUS_TIMEOUT ? "timeout" : "failed");
            /* a pass stopped at its timeout: the runner's account says which
             * and when (the agent's own error only says "interrupted") */
            if (!r->error || (tr->status == VDC_CTL_STATUS_TIMEOUT && tr->error))
                vdc_set_str(&r->error, tr->error ? tr->error : "the runner reported a failure");
            ctx->failed = 1;
        }
    }
    vdc_ctl_result_dispose(&res);
}

/* The host sampler of a boot's targets (in job order: the progress
 * block's target index), NULL when there is nothing to watch. */
static vdc_hostwatch *
domu_hostwatch(vdc_run_ctx *ctx, const vdc_plan_boot *b)
{
    g_autofree vdc_host_target *t = g_new0(vdc_host_target, b->n + 1);
    size_t k;

    for (k = 0; k < b->n; k++) {
        size_t i = ctx->p->steps[b->first + k].target;
        const vdc_plan_target *pt = &ctx->p->targets[i];
        const char *pd = NULL;

        t[k].name = pt->name;
        t[k].vdev = pt->vdev;
        if (pt->spec.backing == VDC_BACKING_IMAGE)
            t[k].image = ctx->st[i].path;
        /* blkback over a loop device: the backend facts name it */
        if (pt->vdev && ctx->backends && json_object_has_member(ctx->backends, pt->vdev)) {
            JsonObject *bo = json_object_get_object_member(ctx->backends, pt->vdev);

            if (bo && json_object_has_member(bo, "physical_device"))
                pd = json_object_get_string_member(bo, "physical_device");
            if (bo)
                t[k].backend = json_object_get_string_member_with_default(bo, "type", NULL);
        }
        if (pd && g_str_has_prefix(pd, "/dev/loop"))
            t[k].loop_dev = pd;
    }
    return vdc_hostwatch_new(t, b->n);
}

/* each run of the boot gets its host figures (after collect added them) */
static void
attach_host(vdc_run_ctx *ctx, const vdc_plan_boot *b, vdc_hostwatch *w)
{
    size_t k, r;

    for (k = 0; k < b->n; k++) {
        const vdc_plan_step *st = &ctx->p->steps[b->first + k];
        const char *name = ctx->p->targets[st->target].name;

        for (r = ctx->rs.n_runs; r-- > 0;) {
            vdc_run *run = ctx->rs.runs[r];

            if (!strcmp(run->target, name) && run->repetition == (int64_t)st->rep) {
                (void)vdc_hostwatch_attach(w, k, run);
                break;
            }
        }
    }
}

/* What the end of a domU's wait (@w) means for the runs of boot @b: the
 * results from the control disk @ctl (with the host figures of @hw), or
 * each run failed with the cause. */
static void
wait_ended(vdc_run_ctx *ctx, const vdc_plan_boot *b, vdc_hv_wait_result w, const char *ctl,
           uint64_t nonce, unsigned bi, vdc_hostwatch *hw)
{
    const vdc_plan *p = ctx->p;

    switch (w) {
    case VDC_HV_WAIT_SHUTOFF:
        collect(ctx, b, ctl, nonce, bi);
        attach_host(ctx, b, hw);
        break;
    case VDC_HV_WAIT_TIMEOUT: {
        g_autofree char *why = g_strdup_printf("the domU did not power off within %u s: destroyed",
                                               p->timeout_s);
        vdc_error("domain %s: %s", p->domain_name, why);
        fail_boot(ctx, b, "timeout", why);
        break;
    }
    case VDC_HV_WAIT_CRASHED:
        vdc_error("domain %s: crashed or rebooted", p->domain_name);
        fail_boot(ctx, b, "failed", "the domU crashed or rebooted");
        break;
    case VDC_HV_WAIT_INTERRUPTED:
        ctx->interrupted = 1;
        fail_boot(ctx, b, "failed", "interrupted");
        break;
    case VDC_HV_WAIT_ERROR:
        fail_boot(ctx, b, "failed", "lost track of the domU (see the message above)");
        break;
    }
}

static void
domu_boot(vdc_run_ctx *ctx, const vdc_plan_boot *b, unsigned bi)
{
    vdc_plan *p = ctx->p;
    struct vdc_ctl_job job;
    vdc_hv_domain dom;
    g_autofree char *ctl = g_strdup_printf("%s/control-%u.img", p->out_dir, bi);
    g_autofree char *console = g_strdup_printf("%s/logs/console-%u.log", p->out_dir, bi);
    unsigned ctl_seq, dom_seq;
    g_autofree char *uuid = NULL;
    char got[VDC_HV_UUID_LEN];
    vdc_hv_wait_result w;
    g_autofree char *stall = NULL, *repeats = NULL;
    vdc_hostwatch *hw = NULL;
    uint64_t nonce;
    gint64 t0_us;
    size_t k;

    vdc_ctl_job_init(&job);
    if (vdc_step_job(p, b, ctx->env->nonce(), &job) < 0) {
        fail_boot(ctx, b, "failed", "cannot build the control disk job");
        goto out;
    }
    nonce = job.nonce;
    if (p->drop_caches && ctx->env->drop_caches && ctx->env->drop_caches() < 0)
        vdc_progress("warning: could not drop dom0's page cache before boot %u", bi);
    ctl_seq = vdc_journal_add(&ctx->journal,
                              &(vdc_journal_entry){ .kind = VDC_JOURNAL_FILE, .path = ctl });
    if (!ctl_seq || ctx->env->ctl_create(ctl, 0, &job) < 0) {
        fail_boot(ctx, b, "failed", "cannot create the control disk");
        goto out;
    }
    (void)done_with_ino(&ctx->journal, ctl_seq, ctl);

    /* the domain is created with a UUID of ours, journaled first: teardown
     * and cleanup destroy by that UUID, never by name */
    vdc_hv_domain_from_plan(p, ctx->prep.image, ctl, console, &dom);
    uuid = g_uuid_string_random();
    dom.uuid = uuid;
    dom_seq = vdc_journal_add(&ctx->journal, &(vdc_journal_entry){
        .kind = VDC_JOURNAL_DOMAIN, .driver = ctx->hvops->name, .uri = p->uri ? p->uri : "",
        .name = p->domain_name, .uuid = uuid });
    if (!dom_seq) {
        fail_boot(ctx, b, "failed", "cannot journal the domain");
        goto out;
    }
    vdc_progress("step %u/%zu: boot domU %s with %zu disk(s), %zu target(s) to run",
                 bi + 1, p->n_boots, p->domain_name, dom.n_disks, b->n);
    t0_us = g_get_monotonic_time();
    if (ctx->hvops->create(ctx->hv, &dom, &repeats) < 0) {
        if (repeats) {
            /* the next boot is the same domain: it would fail the same way */
            ctx->repeats = g_strdup_printf("the domU could not be created, and every boot "
                                           "would fail the same way: %s", repeats);
            fail_boot(ctx, b, "failed", ctx->repeats);
        } else {
            fail_boot(ctx, b, "failed", "the domU could not be created (see the message above)");
        }
        goto out;
    }
    /* the UUID read back: a hypervisor that chose its own is recorded */
    if (ctx->hvops->uuid(ctx->hv, p->domain_name, got) == 1 && g_ascii_strcasecmp(got, uuid))
        (void)vdc_journal_done_ident(&ctx->journal, dom_seq, "uuid", got);
    else
        (void)vdc_journal_done(&ctx->journal, dom_seq);
    if (cache_step(ctx, &dom) < 0) {
        if (vdc_hv_destroy_own(ctx->hvops, ctx->hv, p->domain_name,
                               vdc_journal_find(&ctx->journal, dom_seq)->uuid, p->id) == 0)
            (void)vdc_journal_undone(&ctx->journal, dom_seq);
        fail_boot(ctx, b, "failed", "the paused domU could not be resumed (see the message above)");
        goto out;
    }
    if (!ctx->backends) {
        JsonObject *bk = json_object_new();
        if (ctx->hvops->backends(ctx->hv, p->domain_name, bk) == 0) {
            ctx->backends = bk;
            describe_targets(ctx, &dom);
        } else {
            json_object_unref(bk);
        }
    }
    hw = domu_hostwatch(ctx, b);
    if (vdc_hostwatch_start_domu(hw, ctl, nonce, ctx->hvops, ctx->hv, p->domain_name) < 0)
        vdc_progress("warning: boot %u: no host CPU figures (see the message above)", bi);
    w = watch_domu(ctx, hw, &stall);
    vdc_hostwatch_stop(hw);
    add_time(&ctx->rs.experiment.time.domu_s, t0_us);
    if (vdc_hv_destroy_own(ctx->hvops, ctx->hv, p->domain_name,
                           vdc_journal_find(&ctx->journal, dom_seq)->uuid, p->id) == 0)
        (void)vdc_journal_undone(&ctx->journal, dom_seq);
    if (stall) {
        g_autofree char *why = g_strdup_printf("%s, %.0f s after boot: destroyed", stall,
                                               (double)(g_get_monotonic_time() - t0_us) / 1e6);

        vdc_error("domain %s: %s", p->domain_name, why);
        fail_boot(ctx, b, "failed", why);
    } else {
        wait_ended(ctx, b, w, ctl, nonce, bi, hw);
    }
    /* --inspect-on-failure: the guest's own logs, read-only (the per-run
     * runner log travels in the result frame, which a hung guest never
     * wrote) */
    if ((w == VDC_HV_WAIT_TIMEOUT || w == VDC_HV_WAIT_CRASHED) && ctx->s->inspect &&
        ctx->env->collect_logs && !stopped(ctx)) {
        g_autofree char *dir = g_strdup_printf("%s/logs/inspect-%u", p->out_dir, bi);
        vdc_progress("inspecting %s read-only for the guest's logs (libguestfs)", ctx->prep.image);
        (void)ctx->env->collect_logs(ctx->prep.image, dir, ctx->s->launch_timeout_s);
    }
    for (k = 0; k < b->n; k++)
        read_placement(ctx, p->steps[b->first + k].target);
out:
    vdc_hostwatch_free(hw);
    for (k = 0; k < p->n_targets; k++)
        g_clear_pointer(&ctx->cache_fail[k], g_free);
    vdc_ctl_job_dispose(&job);
}

/* ---- one dom0 step --------------------------------------------------------- */

static void
dom0_boot(vdc_run_ctx *ctx, const vdc_plan_boot *b, unsigned bi)
{
    const vdc_plan_step *st = &ctx->p->steps[b->first];
    const vdc_plan_target *t = &ctx->p->targets[st->target];
    g_autofree char *json = ctx->p->bonnie ? g_strdup_printf("%s/logs/%s-%u.agent.json", ctx->p->out_dir,
                                                             t->name, st->rep) : NULL;
    g_autofree char *wjson = ctx->p->n_workloads && ctx->p->workload_file
                             ? g_strdup_printf("%s/logs/%s-%u.workloads.json", ctx->p->out_dir, t->name, st->rep)
                             : NULL;
    g_autofree char *rjson = ctx->p->n_workloads && ctx->p->workload_raw
                             ? g_strdup_printf("%s/logs/%s-%u.raw-workloads.json", ctx->p->out_dir, t->name,
                                               st->rep)
                             : NULL;
    g_autofree char *mnt = g_strdup_printf("%s/mnt-%s", ctx->p->out_dir, t->name);
    g_autofree char *data = NULL, *wdata = NULL, *rdata = NULL;
    gsize len = 0, wlen = 0, rlen = 0;
    vdc_run *r;

    vdc_host_target ht = {
        .name = t->name,
        .image = t->spec.backing == VDC_BACKING_IMAGE ? ctx->st[st->target].path : NULL,
        .loop_dev = g_str_has_prefix(ctx->dev[st->target], "/dev/loop") ? ctx->dev[st->target] : NULL,
    };

    if (ctx->p->bonnie)
        vdc_progress("step %u/%zu: dom0 baseline %s#%u on %s (%" G_GUINT64_FORMAT " MiB test file%s)",
                     bi + 1, ctx->p->n_boots, t->name, st->rep, ctx->dev[st->target],
                     (guint64)(t->test_bytes >> 20), ctx->p->n_workloads ? ", then the workloads" : "");
    else
        vdc_progress("step %u/%zu: dom0 baseline %s#%u on %s (%zu workload(s))", bi + 1, ctx->p->n_boots,
                     t->name, st->rep, ctx->dev[st->target], ctx->p->n_workloads);
    ctx->hw = vdc_hostwatch_new(&ht, 1);
    dom0_cache(ctx, st->target);
    gint64 t0_us = g_get_monotonic_time();
    int step_rc = ctx->env->dom0_step(ctx, ctx->dev[st->target], mnt, st->rep, st->seed, json, wjson,
                                      rjson);
    const char *why = step_rc < 0 ? (stopped(ctx) ? "interrupted"
                                     : "the dom0 agent run failed (see the message above)") : NULL;

    add_time(&ctx->rs.experiment.time.dom0_s, t0_us);
    read_placement(ctx, st->target);
    /* what each pass wrote is kept, also after a failure or an
     * interruption (the agent writes the jobs that finished) */
    if (json && !g_file_get_contents(json, &data, &len, NULL))
        g_clear_pointer(&data, g_free);
    if (wjson && !g_file_get_contents(wjson, &wdata, &wlen, NULL))
        g_clear_pointer(&wdata, g_free);
    if (rjson && !g_file_get_contents(rjson, &rdata, &rlen, NULL))
        g_clear_pointer(&rdata, g_free);
    if (!data && !wdata && !rdata) {
        if (step_rc == 0)
            vdc_error("dom0 baseline: %s: the agent wrote no result", json ? json : wjson ? wjson : rjson);
        add_run(ctx, t->name, st->rep, "failed", why ? why : "the agent wrote no result");
        g_clear_pointer(&ctx->hw, vdc_hostwatch_free);
        return;
    }
    r = merge_agent_json(ctx, t->name, st->rep, data, len, wdata, wlen, rdata, rlen,
                         json ? json : wjson ? wjson : rjson, why);
    if (r && why) {
        if (!r->status || !strcmp(r->status, "ok"))
            vdc_set_str(&r->status, "failed");
        if (!r->error)
            vdc_set_str(&r->error, why);
    }
    if (step_rc < 0)
        ctx->failed = 1;
    else if (r)
        (void)vdc_hostwatch_attach(ctx->hw, 0, r);
    g_clear_pointer(&ctx->hw, vdc_hostwatch_free);
}

/* ---- the whole run ---------------------------------------------------------- */

/* The plan's job files as OUT/workloads/NAME.fio: what the dom0 agent is
 * given and a record of what ran.  0 or -1 after vdc_error. */
static int
write_workloads(const vdc_plan *p)
{
    g_autofree char *dir = g_build_filename(p->out_dir, "workloads", NULL);
    size_t i;

    if (!p->n_workloads)
        return 0;
    if (mkdir(dir, 0755) < 0) {
        vdc_error("result directory %s: cannot create workloads/: %s", p->out_dir, g_strerror(errno));
        return -1;
    }
    for (i = 0; i < p->n_workloads; i++) {
        g_autofree char *f = vdc_run_workload_file(p, i);

        if (vdc_write_file_atomic(f, p->workloads[i].text, strlen(p->workloads[i].text)) < 0)
            return -1;
    }
    return 0;
}

char *
vdc_run_workload_file(const vdc_plan *p, size_t i)
{
    return g_strdup_printf("%s/workloads/%s.fio", p->out_dir, p->workloads[i].name);
}

static int
make_out_dir(const char *dir)
{
    g_autofree char *parent = g_path_get_dirname(dir);
    g_autofree char *runs = g_build_filename(dir, "runs", NULL);
    g_autofree char *logs = g_build_filename(dir, "logs", NULL);

    if (g_mkdir_with_parents(parent, 0755) < 0) {
        vdc_error("result directory %s: cannot create %s: %s", dir, parent, g_strerror(errno));
        return -1;
    }
    if (mkdir(dir, 0755) < 0) {
        vdc_error("result directory %s: %s%s", dir, g_strerror(errno),
                  errno == EEXIST ? " (refusing to reuse it: give a new --out)" : "");
        return -1;
    }
    if (mkdir(runs, 0755) < 0 || mkdir(logs, 0755) < 0) {
        vdc_error("result directory %s: cannot create runs/ and logs/: %s", dir, g_strerror(errno));
        return -1;
    }
    return 0;
}

/* The image directory: the nearest existing directory of the first image
 * file of the plan (run creates missing ones later), or NULL. */
static char *
plan_image_dir(const vdc_plan *p)
{
    size_t i;

    for (i = 0; i < p->n_targets; i++) {
        const vdc_plan_target *t = &p->targets[i];

        if (t->spec.backing == VDC_BACKING_IMAGE && t->path)
            return existing_dir(t->path);
    }
    return NULL;
}

static void
experiment_facts(vdc_run_ctx *ctx)
{
    vdc_plan *p = ctx->p;
    vdc_experiment *e = &ctx->rs.experiment;
    char seed[32];
    g_autoptr(GDateTime) now = g_date_time_new_now_utc();
    g_autofree char *date = g_date_time_format(now, "%Y-%m-%dT%H:%M:%SZ");

    ctx->rs.has_experiment = 1;
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
    {
        g_autofree char *image_dir = plan_image_dir(p);
        vdc_host_repro_facts(&e->host, image_dir, p->mkfs);
    }
    vdc_set_str(&e->build, vdc_build_id());
    e->emulated = p->emulated ? 1 : 0;
    vdc_set_str(&e->hypervisor.driver, vdc_hv_name(p->hv));
    vdc_set_str(&e->hypervisor.uri, p->uri);
    e->guest.memory_mib = p->memory_mib;
    e->guest.vcpus = p->vcpus;
    vdc_set_str(&e->guest.template_path, p->guest_image);
}

static void
hv_versions(vdc_run_ctx *ctx)
{
    JsonObject *v = json_object_new();
    vdc_hypervisor_info *h = &ctx->rs.experiment.hypervisor;

    ctx->hvops->versions(ctx->hv, v);
    (void)vdc_hypervisor_info_from_json(h, v, "hypervisor versions");
    json_object_unref(v);
}

static int
prepare_guest(vdc_run_ctx *ctx)
{
    vdc_plan *p = ctx->p;
    struct vdc_prepare_opts o = {
        .template_path = p->guest_image,
        .agent_path = ctx->s->agent,
        .runner_path = ctx->s->runner,
        .cache_dir = ctx->s->cache_dir,
        .launch_timeout_s = ctx->s->launch_timeout_s,
        .stop = ctx->env->stop,   /* SIGINT stops the appliance at once */
    };
    int xen = p->hv == VDC_HV_LIBXL || !strcmp(p->domain_type, "xen");

    if (p->prepared_image) {
        vdc_progress("guest image %s (prepared elsewhere: no appliance launched)", p->prepared_image);
        vdc_prepared_dispose(&ctx->prep);
        if (ctx->env->prepared_load(p->prepared_image, &ctx->prep) < 0)
            return -1;
    } else {
        vdc_progress("preparing the guest image from %s (libguestfs, cached)", p->guest_image);
        if (ctx->env->prepare(&o, &ctx->prep) < 0)
            return -1;
        vdc_progress("guest image %s (%s)", ctx->prep.image,
                     ctx->prep.cache_hit ? "cache hit: no appliance launched" : "prepared now");
    }
    /* QEMU under qemu:///system runs as an unprivileged user (libvirt-qemu)
     * and must be able to reach the prepared image, kernel and initrd: a
     * cache entry made 0700 (mkdtemp) is opened up to 0755 (it holds only
     * what prepare wrote; nothing secret) */
    if (ctx->prep.image) {
        g_autofree char *dir = g_path_get_dirname(ctx->prep.image);
        struct stat sb;

        /* only our own cache entry: a --prepared-image is the user's, in a
         * directory of theirs (/root, say), which we never change; QEMU
         * needs search (x) permission on every directory above the image,
         * so the first one without it is named */
        if (p->prepared_image) {
            g_autofree char *d = g_strdup(dir);

            for (;;) {
                char *up;

                if (stat(d, &sb) == 0 && !(sb.st_mode & 0001)) {
                    vdc_progress("warning: %s is not searchable by other users (chmod o+x): a "
                                 "hypervisor running QEMU unprivileged (libvirt-qemu) may fail to "
                                 "open %s", d, ctx->prep.image);
                    break;
                }
                up = g_path_get_dirname(d);
                if (!strcmp(up, d)) {
                    g_free(up);
                    break;
                }
                g_free(d);
                d = up;
            }
        } else if (stat(dir, &sb) == 0 && (sb.st_mode & 0005) != 0005 && chmod(dir, 0755) < 0) {
            vdc_progress("warning: %s: cannot make it searchable for the hypervisor: %s", dir,
                         g_strerror(errno));
        }
    }
    if (!p->kernel)
        p->kernel = g_strdup(ctx->prep.kernel);
    if (!p->initrd)
        p->initrd = g_strdup(ctx->prep.initrd);
    if (!p->cmdline)
        p->cmdline = g_strdup(xen ? ctx->prep.cmdline_xen : ctx->prep.cmdline_kvm);
    vdc_set_str(&ctx->rs.experiment.guest.template_sha256, ctx->prep.template_sha256);
    vdc_set_str(&ctx->rs.experiment.guest.agent_sha256, ctx->prep.agent_sha256);
    vdc_set_str(&ctx->rs.experiment.guest.prepared_image, ctx->prep.image);
    vdc_guest_boot_facts(&ctx->rs.experiment.guest, p->kernel, p->initrd, p->cmdline);
    return 0;
}

static void
write_hv_files(vdc_run_ctx *ctx)
{
    vdc_plan *p = ctx->p;
    vdc_hv_domain dom;
    g_autofree char *ctl = g_strdup_printf("%s/control-N.img", p->out_dir);

    vdc_hv_domain_from_plan(p, ctx->prep.image, ctl, NULL, &dom);
    if (p->hv == VDC_HV_LIBVIRT) {
        g_autofree char *xml = vdc_domain_xml(&dom);
        g_autofree char *path = g_build_filename(p->out_dir, "domain.xml", NULL);
        if (xml)
            (void)vdc_write_file_atomic(path, xml, strlen(xml));
    }
    if (p->hv == VDC_HV_LIBXL || (p->domain_type && !strcmp(p->domain_type, "xen"))) {
        g_autofree char *cfg = vdc_xl_cfg(&dom);
        g_autofree char *path = g_build_filename(p->out_dir, "xl.cfg", NULL);
        if (cfg)
            (void)vdc_write_file_atomic(path, cfg, strlen(cfg));
    }
    if (p->hv == VDC_HV_LIBXL) {
        g_autofree char *json = vdc_libxl_config_json(&dom);
        g_autofree char *path = g_build_filename(p->out_dir, "libxl-config.json", NULL);
        if (json)
            (void)vdc_write_file_atomic(path, json, strlen(json));
    }
}

/* A progress line before boot @bi: how many boots are done (a boot with
 * at least one ok run) and how many failed, the time since the first boot
 * and, at the mean time per boot so far, an estimate of the rest (with
 * --runs auto an upper bound: the rule may stop earlier). */
static void
progress_eta(const vdc_run_ctx *ctx, size_t bi, gint64 t0_us)
{
    const vdc_plan *p = ctx->p;
    double elapsed = (double)(g_get_monotonic_time() - t0_us) / 1e6;
    char e[32], r[32], f[48] = "";

    if (bi == 0)
        return;
    if (ctx->boots_failed)
        g_snprintf(f, sizeof(f), ", %zu failed", ctx->boots_failed);
    vdc_progress("%zu of %zu boot(s) done%s in %s; %s%s left at %s per boot", ctx->boots_done,
                 p->n_boots, f, vdc_fmt_duration(e, sizeof(e), elapsed),
                 p->runs_auto ? "at most " : "about ",
                 vdc_fmt_duration(r, sizeof(r), elapsed / (double)bi * (double)(p->n_boots - bi)),
                 vdc_fmt_duration((char[32]){ 0 }, 32, elapsed / (double)bi));
}

/* Count the boot just ended as done (one of the runs added since the
 * result set held @n_runs_before runs is ok) or as failed. */
static void
count_boot(vdc_run_ctx *ctx, size_t n_runs_before)
{
    size_t k;

    for (k = n_runs_before; k < ctx->rs.n_runs; k++)
        if (ctx->rs.runs[k]->status && !strcmp(ctx->rs.runs[k]->status, "ok")) {
            ctx->boots_done++;
            return;
        }
    ctx->boots_failed++;
}

/* ---- --runs auto ---------------------------------------------------------- */

/* The repetition boot @bi completes, or -1 when the next boot continues it
 * (interleaved order: the boots of a repetition are consecutive). */
static int
repetition_done(const vdc_plan *p, size_t bi)
{
    const vdc_plan_boot *b = &p->boots[bi];
    unsigned rep = p->steps[b->first + b->n - 1].rep;

    if (bi + 1 < p->n_boots && p->steps[p->boots[bi + 1].first].rep == rep)
        return -1;
    return (int)rep;
}

/* The stopping rule of --runs auto after @reps complete repetitions, on the
 * headline the report will print: the image/LV pairs, or where the run has
 * none every headline pair (ceilings against dom0, else the baseline).  Each
 * test of those pairs is decided by vdc_stats_stop_rule; the run stops when
 * none says continue.  At the stop the reasons go into
 * experiment.runs_policy.stop (one record per pair and test).  Returns 1 to
 * stop, 0 to run the next repetition. */
static int
auto_stop(vdc_run_ctx *ctx, unsigned reps)
{
    const vdc_plan *p = ctx->p;
    vdc_runs_policy *rp = &ctx->rs.experiment.runs_policy;
    struct vdc_stats_options so;
    struct vdc_analysis a;
    size_t i, k, n_rows = 0, n_open = 0;
    int choice = 0, stop;

    vdc_stats_options_init(&so);
    vdc_analysis_init(&a);
    if (vdc_analysis_build(&a, &ctx->rs, NULL, &so) < 0) {
        /* nothing to analyse yet (every run failed): the next repetition */
        vdc_error_reset();
        vdc_analysis_dispose(&a);
        return reps >= p->runs;
    }
    struct decided {
        const struct vdc_headline_pair *pair;
        const struct vdc_headline_row *row;
        enum vdc_stop_reason reason;
    };
    GArray *d = g_array_new(FALSE, FALSE, sizeof(struct decided));

    for (i = 0; i < a.headline.n_pairs; i++)
        choice |= a.headline.pairs[i].role == VDC_HEADLINE_CHOICE;
    for (i = 0; i < a.headline.n_pairs; i++) {
        const struct vdc_headline_pair *hp = &a.headline.pairs[i];

        if (choice && hp->role != VDC_HEADLINE_CHOICE)
            continue;
        for (k = 0; k < hp->n_rows; k++) {
            struct decided e = { hp, &hp->rows[k],
                                 vdc_stats_stop_rule(&hp->rows[k].p, reps, p->min_runs, p->runs,
                                                     p->precision_percent / 100.0) };

            n_open += e.reason == VDC_STOP_CONTINUE;
            g_array_append_val(d, e);
        }
    }
    n_rows = d->len;
    stop = reps >= p->runs || (n_rows > 0 && n_open == 0);
    if (!stop) {
        vdc_progress("repetition %u: %zu of %zu headline test(s) within +-%g %%: next repetition",
                     reps, n_rows - n_open, n_rows, p->precision_percent);
        g_array_free(d, TRUE);
        vdc_analysis_dispose(&a);
        return 0;
    }
    for (i = 0; i < d->len; i++) {
        const struct decided *e = &g_array_index(d, struct decided, i);
        vdc_stop_record *sr = vdc_runs_policy_add_stop(rp, a.tests[e->row->test]);

        vdc_set_str(&sr->target, a.targets[e->pair->target]);
        vdc_set_str(&sr->reference, a.targets[e->pair->reference]);
        /* a test still open when another bound stopped the run: max runs */
        vdc_set_str(&sr->reason, vdc_stop_reason_name(e->reason == VDC_STOP_CONTINUE ? VDC_STOP_MAX_RUNS
                                                                                     : e->reason));
        sr->runs = reps;
        sr->half_width_percent = e->row->p.has_ci ? 100.0 * e->row->p.half_width : NAN;
    }
    g_array_free(d, TRUE);
    vdc_progress("repetition %u: %s (%zu headline test(s))", reps,
                 n_rows && n_open == 0 ? "every headline test decided: stopping" :
                                         "the most repetitions --max-runs allows: stopping", n_rows);
    vdc_analysis_dispose(&a);
    return 1;
}

static int
undo_with_ctx(const vdc_journal_entry *e, void *opaque)
{
    vdc_run_ctx *ctx = opaque;

    /* the open connection serves domains of this run */
    if (e->kind == VDC_JOURNAL_DOMAIN && ctx->hv && e->driver &&
        !strcmp(e->driver, ctx->hvops->name))
        return vdc_hv_destroy_own(ctx->hvops, ctx->hv, e->name, e->uuid, ctx->p->id);
    return vdc_run_undo(e, (void *)ctx->env);
}

int
vdc_run_plan(vdc_plan *p, const vdc_run_settings *s, const vdc_run_env *env)
{
    /* --keep: images and LVs stay, and the directories holding them */
    static const unsigned keep_kinds = VDC_JOURNAL_KIND_BIT(VDC_JOURNAL_IMAGE) |
        VDC_JOURNAL_KIND_BIT(VDC_JOURNAL_LV) | VDC_JOURNAL_KIND_BIT(VDC_JOURNAL_DIR);
    vdc_run_ctx ctx = { .p = p, .s = s, .env = env };
    g_autofree char *jpath = g_build_filename(p->out_dir, "journal", NULL);
    g_autofree char *plan_path = g_build_filename(p->out_dir, "plan.json", NULL);
    g_autofree char *result_path = g_build_filename(p->out_dir, "result.json", NULL);
    g_autofree char *plan_json = NULL;
    size_t i;
    int rc = VDC_EXIT_FAILURE, setup_ok = 0;
    gint64 t0_us = 0, start_us;

    vdc_journal_init(&ctx.journal);
    ctx.run_tag = g_strconcat(VDC_STORAGE_RUN_TAG_PREFIX, p->id, NULL);
    vdc_result_set_init(&ctx.rs);
    vdc_prepared_init(&ctx.prep);
    ctx.st = g_new0(struct vdc_storage, p->n_targets);
    ctx.dev = g_new0(char *, p->n_targets + 1);
    ctx.cache_fail = g_new0(char *, p->n_targets + 1);
    for (i = 0; i < p->n_targets; i++)
        vdc_storage_init(&ctx.st[i]);

    start_us = g_get_monotonic_time();
    if (make_out_dir(p->out_dir) < 0) {
        rc = VDC_EXIT_FAILURE;
        goto free_all;
    }
    if (vdc_journal_create(&ctx.journal, jpath, p->id) < 0)
        goto free_all;
    plan_json = vdc_plan_to_json(p);
    if (vdc_write_file_atomic(plan_path, plan_json, strlen(plan_json)) < 0 || write_workloads(p) < 0)
        goto teardown;
    experiment_facts(&ctx);

    if (p->hv != VDC_HV_NONE) {
        ctx.hvops = env->hv ? env->hv : vdc_hv_ops_for(p->hv);
        if (!ctx.hvops)
            goto teardown;
        ctx.hv = ctx.hvops->open(p->uri);
        if (!ctx.hv)
            goto teardown;
        hv_versions(&ctx);
    }
    t0_us = g_get_monotonic_time();
    for (i = 0; i < p->n_targets; i++) {
        if (stopped(&ctx) || provision_target(&ctx, i) < 0)
            goto teardown;
    }
    add_time(&ctx.rs.experiment.time.provision_s, t0_us);
    if (p->hv != VDC_HV_NONE) {
        t0_us = g_get_monotonic_time();
        if (stopped(&ctx) || prepare_guest(&ctx) < 0)
            goto teardown;
        add_time(&ctx.rs.experiment.time.prepare_s, t0_us);
        write_hv_files(&ctx);
    }
    describe_targets(&ctx, NULL);
    setup_ok = 1;

    t0_us = g_get_monotonic_time();
    for (i = 0; i < p->n_boots && !stopped(&ctx); i++) {
        size_t n_runs_before = ctx.rs.n_runs;
        int rep;

        progress_eta(&ctx, i, t0_us);
        if (p->boots[i].dom0)
            dom0_boot(&ctx, &p->boots[i], (unsigned)i);
        else
            domu_boot(&ctx, &p->boots[i], (unsigned)i);
        count_boot(&ctx, n_runs_before);
        if (ctx.repeats) {
            vdc_error("run %s stopped after boot %zu of %zu: %s; %zu boot(s) not run", p->id,
                      i + 1, p->n_boots, ctx.repeats, p->n_boots - i - 1);
            break;
        }
        rep = p->runs_auto ? repetition_done(p, i) : -1;
        if (rep >= 0 && !stopped(&ctx) && auto_stop(&ctx, (unsigned)rep + 1)) {
            ctx.rs.experiment.runs_per_target = rep + 1;
            break;
        }
    }

teardown:
    if (stopped(&ctx))
        vdc_progress("interrupted: tearing down what this run created");
    else
        vdc_progress("tearing down (%zu object(s) in the journal)", vdc_journal_pending(&ctx.journal));
    t0_us = g_get_monotonic_time();
    if (ctx.journal.entries &&
        vdc_journal_teardown(&ctx.journal, undo_with_ctx, &ctx, p->keep ? keep_kinds : 0) < 0) {
        vdc_error("teardown incomplete: run 'vmdiskcmp cleanup %s' after fixing the cause", p->out_dir);
        ctx.failed = 1;
    }
    add_time(&ctx.rs.experiment.time.teardown_s, t0_us);
    add_time(&ctx.rs.experiment.time.total_s, start_us);
    if (ctx.journal.entries) {
        if (ctx.hvops && !ctx.backends) {
            vdc_hv_domain dom;
            vdc_hv_domain_from_plan(p, ctx.prep.image, "", NULL, &dom);
            describe_targets(&ctx, &dom);
        }
        if (vdc_result_set_save(&ctx.rs, result_path) < 0)
            ctx.failed = 1;
        else if (setup_ok && !s->no_report && ctx.rs.n_runs > 0) {
            struct vdc_report_options ro;

            vdc_report_options_init(&ro);
            ro.headline = 1;
            vdc_progress("writing the report in %s", p->out_dir);
            /* in a child bounded in memory, CPU and wall time: whatever
             * the guests handed back, the controller stays as it is */
            if (vdc_report_result_dir_bounded(p->out_dir, &ro, ctx.env->stop) < 0)
                vdc_progress("warning: the report could not be rendered; result.json is complete");
        }
    }
    if (stopped(&ctx))
        rc = VDC_EXIT_INTERRUPTED;
    else if (setup_ok && !ctx.failed)
        rc = VDC_EXIT_OK;
    else
        rc = VDC_EXIT_FAILURE;

free_all:
    if (ctx.hvops && ctx.hv)
        ctx.hvops->close(ctx.hv);
    if (ctx.backends)
        json_object_unref(ctx.backends);
    for (i = 0; i < p->n_targets; i++)
        vdc_storage_dispose(&ctx.st[i]);
    g_free(ctx.st);
    g_strfreev(ctx.dev);
    g_strfreev(ctx.cache_fail);
    vdc_prepared_dispose(&ctx.prep);
    vdc_result_set_dispose(&ctx.rs);
    vdc_journal_dispose(&ctx.journal);
    g_free(ctx.run_tag);
    g_free(ctx.repeats);
    return rc;
}
