/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One domU boot of a run (domu.h). */
#include "config.h"
#include "run/domu.h"

#include <string.h>
#include <sys/statvfs.h>

#include <glib.h>

#include "collect/cache.h"
#include "collect/hostwatch.h"
#include "common/util.h"
#include "hv/translate.h"
#include "plan/step.h"
#include "run/provision.h"

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
full_image_dir(vdc_run_state *st)
{
    size_t i;

    for (i = 0; i < st->p->n_targets; i++) {
        const vdc_plan_target *t = &st->p->targets[i];
        g_autofree char *dir = NULL;
        uint64_t bytes;

        if (t->spec.backing != VDC_BACKING_IMAGE || !t->path)
            continue;
        dir = g_path_get_dirname(t->path);
        if (fs_free(st->env, dir, &bytes) == 0 && bytes < WATCH_FULL_BYTES)
            return g_strdup_printf("%s: %" G_GUINT64_FORMAT " bytes free", dir, (guint64)bytes);
    }
    return NULL;
}

/* The Xen VBDs' negotiated rings, read again while the domU @name runs:
 * blkfront connects when the guest's kernel loads it, after create, so
 * the read right after create finds no ring.  Read at each look of the
 * watch until every target's frontend was read Connected
 * (vdc_recorder_wants_rings), so at most once per WATCH_S while the domU
 * lives; a driver that cannot read its backends is not asked again this
 * boot (*@ask 0; it said why). */
static void
read_rings(vdc_run_state *st, const char *name, int *ask)
{
    JsonObject *bk;

    if (!*ask || !vdc_recorder_wants_rings(st->rec))
        return;
    bk = json_object_new();
    if (st->hvops->backends(st->hv, name, bk) == 0)
        vdc_recorder_rings(st->rec, bk);
    else
        *ask = 0;
    json_object_unref(bk);
}

/* domu.h */
char *
vdc_domu_look(vdc_run_state *st, const char *name, vdc_hostwatch *hw, unsigned period_s,
              vdc_domu_watch *ws)
{
    g_autofree char *dir = full_image_dir(st), *why = NULL;
    int paused = 0;

    ws->full = dir ? ws->full + 1 : 0;
    if (st->hvops->stalled)
        paused = st->hvops->stalled(st->hv, name, &why) == 1;
    if (dir && (paused || ws->full >= 2))
        return g_strdup_printf("image directory FS full (%s)%s%s", dir, paused ? "; " : "",
                               paused ? why : "");
    if (paused)
        return g_strdup_printf("the domU stalled: %s", why);
    if (hw && st->p->heartbeat_timeout_s) {
        g_autofree char *last = NULL;
        uint64_t now = vdc_hostwatch_heartbeat(hw, &last);

        if (now != ws->beats) {
            ws->beats = now;
            ws->since_beat = 0;
        } else if (ws->beats) {
            ws->since_beat += period_s;
        }
        if (ws->beats && ws->since_beat >= st->p->heartbeat_timeout_s)
            return g_strdup_printf("the runner's heartbeat stopped %u s ago (last event: %s)",
                                   ws->since_beat, last);
    }
    return NULL;
}

/* Wait for the domU as the driver's wait does, up to --timeout, in
 * periods of WATCH_S seconds, looking at it between them
 * (vdc_domu_look): a cause found ends the wait at once with *@stall
 * (g_malloc) naming it.  A guest writing its test file into a full
 * filesystem makes no progress, and would otherwise be waited for the
 * whole --timeout.  At each look the Xen VBDs' rings are read until
 * negotiated (read_rings). */
static vdc_hv_wait_result
watch_domu(vdc_run_state *st, vdc_hostwatch *hw, char **stall)
{
    const vdc_plan *p = st->p;
    unsigned left = p->timeout_s;
    vdc_domu_watch ws = { 0 };
    int ask_rings = 1;

    *stall = NULL;
    for (;;) {
        unsigned period = MIN(left, WATCH_S);
        vdc_hv_wait_result w = st->hvops->wait(st->hv, p->domain_name, period, st->env->stop);

        left -= period;
        if (w != VDC_HV_WAIT_TIMEOUT || left == 0)
            return w;
        read_rings(st, p->domain_name, &ask_rings);
        if ((*stall = vdc_domu_look(st, p->domain_name, hw, period, &ws)))
            return w;
    }
}

/* The host sampler of the boot's steps [@first, @first + @n) (in job
 * order: the progress block's target index), their targets' images and,
 * for blkback over a loop device, the loop device the backend facts name. */
static vdc_hostwatch *
domu_hostwatch(vdc_run_state *st, size_t first, size_t n)
{
    g_autofree vdc_host_target *t = g_new0(vdc_host_target, n + 1);
    size_t k;

    for (k = 0; k < n; k++) {
        size_t i = st->p->steps[first + k].target;
        const vdc_plan_target *pt = &st->p->targets[i];
        const vdc_target *rt = vdc_recorder_target_record(st->rec, i);
        const char *pd = rt && pt->vdev ? rt->backend.physical_device : NULL;

        t[k].name = pt->name;
        t[k].vdev = pt->vdev;
        if (pt->spec.backing == VDC_BACKING_IMAGE)
            t[k].image = st->st[i].path;
        if (rt && pt->vdev)
            t[k].backend = rt->backend.type;
        if (pd && g_str_has_prefix(pd, "/dev/loop"))
            t[k].loop_dev = pd;
    }
    return vdc_hostwatch_new(t, n);
}

/* domu.h */
int
vdc_domu_cache_step(vdc_run_state *st, const vdc_plan *p, const char *name,
                    const vdc_hv_domain *dom)
{
    vdc_hv_disk_facts facts;
    g_autofree vdc_target_cache *now = g_new0(vdc_target_cache, p->n_targets + 1);
    g_autofree int *read = g_new0(int, p->n_targets + 1);
    g_auto(GStrv) fail = g_new0(char *, p->n_targets + 1);
    size_t i;

    for (i = 0; i < p->n_targets; i++)
        vdc_target_cache_init(&now[i]);
    vdc_hv_disk_facts_init(&facts);
    if (st->hvops->disk_facts(st->hv, name, &facts) == 0) {
        vdc_cache_boot(p, dom, &facts, &st->env->cache, now, read, fail);
    } else {
        /* the message is printed; `none` cannot be verified without facts */
        for (i = 0; i < p->n_targets; i++)
            if (vdc_target_spec_domu_image(&p->targets[i].spec) &&
                p->targets[i].spec.cache == VDC_IMAGE_CACHE_NONE)
                fail[i] = g_strdup("--image-cache none refused: the domU's backends could not be "
                                   "read back");
    }
    vdc_hv_disk_facts_dispose(&facts);
    for (i = 0; i < p->n_targets; i++) {
        vdc_recorder_cache(st->rec, i, read[i] ? &now[i] : NULL, fail[i]);
        vdc_target_cache_dispose(&now[i]);
    }
    if (dom->start_paused && st->hvops->resume(st->hv, name) < 0)
        return -1;
    return 0;
}

/* What the end of a domU's wait (@w) means for the steps of boot @bi:
 * what the runner wrote on the control disk @ctl (job @nonce), with the
 * host's samples of @hw, or each step failed with the cause. */
static void
wait_ended(vdc_run_state *st, const vdc_plan_boot *b, vdc_hv_wait_result w, const char *ctl,
           uint64_t nonce, size_t bi, vdc_hostwatch *hw)
{
    const vdc_plan *p = st->p;

    switch (w) {
    case VDC_HV_WAIT_SHUTOFF: {
        struct vdc_ctl_result res;

        vdc_ctl_result_init(&res);
        if (st->env->ctl_read(ctl, nonce, &res) < 0) {
            vdc_recorder_steps_failed(st->rec, b->first, b->n, "failed",
                                      "no valid result on the control disk (see the message above)");
        } else {
            g_autofree char *what = g_strdup_printf("control disk %s", ctl);
            g_autofree char *log = g_strdup_printf("%s/logs/runner-%zu.log", p->out_dir, bi);

            vdc_recorder_ctl_answer(st->rec, b->first, b->n, what, &res, log);
        }
        vdc_ctl_result_dispose(&res);
        vdc_recorder_host_samples(st->rec, b->first, b->n, hw);
        break;
    }
    case VDC_HV_WAIT_TIMEOUT: {
        g_autofree char *why = g_strdup_printf("the domU did not power off within %u s: destroyed",
                                               p->timeout_s);
        vdc_error("domain %s: %s", p->domain_name, why);
        vdc_recorder_steps_failed(st->rec, b->first, b->n, "timeout", why);
        break;
    }
    case VDC_HV_WAIT_CRASHED:
        vdc_error("domain %s: crashed or rebooted", p->domain_name);
        vdc_recorder_steps_failed(st->rec, b->first, b->n, "failed", "the domU crashed or rebooted");
        break;
    case VDC_HV_WAIT_INTERRUPTED:
        st->interrupted = 1;
        vdc_recorder_steps_failed(st->rec, b->first, b->n, "failed", "interrupted");
        break;
    case VDC_HV_WAIT_ERROR:
        vdc_recorder_steps_failed(st->rec, b->first, b->n, "failed",
                                  "lost track of the domU (see the message above)");
        break;
    }
}

/* The domain of the boot destroyed (by the UUID its journal entry @seq
 * holds) and its entry undone when it is gone. */
static void
destroy_domu(vdc_run_state *st, unsigned seq)
{
    if (vdc_hv_destroy_own(st->hvops, st->hv, st->p->domain_name,
                           vdc_journal_find(&st->journal, seq)->uuid, st->p->id) == 0)
        (void)vdc_journal_undone(&st->journal, seq);
}

/* domu.h */
void
vdc_domu_boot(vdc_run_state *st, size_t bi)
{
    vdc_plan *p = st->p;
    const vdc_plan_boot *b = &p->boots[bi];
    struct vdc_ctl_job job;
    vdc_hv_domain dom;
    g_autofree char *ctl = g_strdup_printf("%s/control-%zu.img", p->out_dir, bi);
    g_autofree char *console = g_strdup_printf("%s/logs/console-%zu.log", p->out_dir, bi);
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
    if (vdc_step_job(p, b, st->env->nonce(), &job) < 0) {
        vdc_recorder_steps_failed(st->rec, b->first, b->n, "failed", "cannot build the control disk job");
        goto out;
    }
    nonce = job.nonce;
    if (p->drop_caches && st->env->drop_caches && st->env->drop_caches() < 0)
        vdc_progress("warning: could not drop dom0's page cache before boot %zu", bi);
    ctl_seq = vdc_journal_add(&st->journal,
                              &(vdc_journal_entry){ .kind = VDC_JOURNAL_FILE, .path = ctl });
    if (!ctl_seq || st->env->ctl_create(ctl, 0, &job) < 0) {
        vdc_recorder_steps_failed(st->rec, b->first, b->n, "failed", "cannot create the control disk");
        goto out;
    }
    (void)vdc_journal_done_ino(&st->journal, ctl_seq, ctl);

    /* the domain is created with a UUID of ours, journaled first: teardown
     * and cleanup destroy by that UUID, never by name */
    vdc_hv_domain_from_plan(p, st->prep.image, ctl, console, &dom);
    uuid = g_uuid_string_random();
    dom.uuid = uuid;
    dom_seq = vdc_journal_add(&st->journal, &(vdc_journal_entry){
        .kind = VDC_JOURNAL_DOMAIN, .driver = st->hvops->name, .uri = p->uri ? p->uri : "",
        .name = p->domain_name, .uuid = uuid });
    if (!dom_seq) {
        vdc_recorder_steps_failed(st->rec, b->first, b->n, "failed", "cannot journal the domain");
        goto out;
    }
    vdc_progress("step %zu/%zu: boot domU %s with %zu disk(s), %zu target(s) to run",
                 bi + 1, p->n_boots, p->domain_name, dom.n_disks, b->n);
    t0_us = g_get_monotonic_time();
    if (st->hvops->create(st->hv, &dom, &repeats) < 0) {
        if (repeats) {
            /* the next boot is the same domain: it would fail the same way */
            st->repeats = g_strdup_printf("the domU could not be created, and every boot "
                                           "would fail the same way: %s", repeats);
            vdc_recorder_steps_failed(st->rec, b->first, b->n, "failed", st->repeats);
        } else {
            vdc_recorder_steps_failed(st->rec, b->first, b->n, "failed", "the domU could not be created (see the message above)");
        }
        goto out;
    }
    /* the UUID read back: a hypervisor that chose its own is recorded */
    if (st->hvops->uuid(st->hv, p->domain_name, got) == 1 && g_ascii_strcasecmp(got, uuid))
        (void)vdc_journal_done_ident(&st->journal, dom_seq, "uuid", got);
    else
        (void)vdc_journal_done(&st->journal, dom_seq);
    if (vdc_domu_cache_step(st, p, p->domain_name, &dom) < 0) {
        destroy_domu(st, dom_seq);
        vdc_recorder_steps_failed(st->rec, b->first, b->n, "failed", "the paused domU could not be resumed (see the message above)");
        goto out;
    }
    if (!vdc_recorder_has_backends(st->rec)) {
        JsonObject *bk = json_object_new();

        if (st->hvops->backends(st->hv, p->domain_name, bk) == 0)
            vdc_recorder_attached(st->rec, &dom, bk);
        json_object_unref(bk);
    }
    hw = domu_hostwatch(st, b->first, b->n);
    if (vdc_hostwatch_start_domu(hw, ctl, nonce, st->hvops, st->hv, p->domain_name) < 0)
        vdc_progress("warning: boot %zu: no host CPU figures (see the message above)", bi);
    w = watch_domu(st, hw, &stall);
    vdc_hostwatch_stop(hw);
    if (vdc_recorder_wants_rings(st->rec))
        vdc_progress("warning: boot %zu: a Xen VBD's frontend was never seen Connected while "
                     "the domU ran: its negotiated ring is not known", bi);
    vdc_recorder_time(st->rec, VDC_TIME_DOMU, (double)(g_get_monotonic_time() - t0_us) / 1e6);
    destroy_domu(st, dom_seq);
    if (stall) {
        g_autofree char *why = g_strdup_printf("%s, %.0f s after boot: destroyed", stall,
                                               (double)(g_get_monotonic_time() - t0_us) / 1e6);

        vdc_error("domain %s: %s", p->domain_name, why);
        vdc_recorder_steps_failed(st->rec, b->first, b->n, "failed", why);
    } else {
        wait_ended(st, b, w, ctl, nonce, bi, hw);
    }
    /* --inspect-on-failure: the guest's own logs, read-only (the per-run
     * runner log travels in the result frame, which a hung guest never
     * wrote) */
    if ((w == VDC_HV_WAIT_TIMEOUT || w == VDC_HV_WAIT_CRASHED) && st->s->inspect &&
        st->env->collect_logs && !vdc_run_stopped(st)) {
        g_autofree char *dir = g_strdup_printf("%s/logs/inspect-%zu", p->out_dir, bi);
        vdc_progress("inspecting %s read-only for the guest's logs (libguestfs)", st->prep.image);
        (void)st->env->collect_logs(st->prep.image, dir, st->s->launch_timeout_s);
    }
    for (k = 0; k < b->n; k++)
        vdc_provision_placement(st, p->steps[b->first + k].target);
out:
    vdc_hostwatch_free(hw);
    vdc_ctl_job_dispose(&job);
}

/* domu.h */
void
vdc_domu_files(vdc_run_state *st)
{
    vdc_plan *p = st->p;
    vdc_hv_domain dom;
    g_autofree char *ctl = g_strdup_printf("%s/control-N.img", p->out_dir);

    vdc_hv_domain_from_plan(p, st->prep.image, ctl, NULL, &dom);
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
