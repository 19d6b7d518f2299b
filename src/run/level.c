/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One density level of a run (level.h). */
#include "config.h"
#include "run/level.h"

#include <math.h>
#include <string.h>

#include <glib.h>

#include "collect/levelhost.h"
#include "common/util.h"
#include "guest/startgate.h"
#include "hv/translate.h"
#include "plan/levels.h"
#include "plan/step.h"
#include "run/domu.h"
#include "run/provision.h"

/* The period of the wait for a level's domains, per domain (s). */
#define LEVEL_WAIT_S 1

/* level.h */
int
vdc_level_provision(vdc_run_state *st)
{
    const vdc_plan *p = st->p;
    size_t i;
    unsigned k;

    st->n_guests = vdc_plan_max_guests(p);
    if (!p->guests.n || st->n_guests < 2)
        return 0;
    st->copies = g_new0(struct vdc_storage, p->n_targets * st->n_guests);
    for (i = 0; i < p->n_targets * st->n_guests; i++)
        vdc_storage_init(&st->copies[i]);
    for (i = 0; i < p->n_targets; i++) {
        if (p->targets[i].spec.where != VDC_WHERE_DOMU)
            continue;
        for (k = 1; k < st->n_guests; k++)
            if (vdc_run_stopped(st) ||
                vdc_provision_guest_copy(st, i, k, &st->copies[i * st->n_guests + k]) < 0)
                return -1;
    }
    return 0;
}

/* level.h */
void
vdc_level_dispose(vdc_run_state *st)
{
    size_t i;

    if (!st->copies)
        return;
    for (i = 0; i < st->p->n_targets * st->n_guests; i++)
        vdc_storage_dispose(&st->copies[i]);
    g_clear_pointer(&st->copies, g_free);
}

/* One guest of a level while it lives. */
typedef struct {
    char *name;                 /* its domain, vdc_plan_guest_domain */
    char *ctl;                  /* its control disk */
    char *console;
    char *disk;                 /* its copy of the target */
    char *uuid;
    uint64_t nonce;
    unsigned ctl_seq, dom_seq;  /* journal entries; 0: none */
    int created;                /* its domain was created */
    int ended;                  /* the wait for it ended, with w */
    vdc_hv_wait_result w;
    char *why;                  /* why it failed, or NULL */
    vdc_hostwatch *hw;          /* its host samples and heartbeat, after the release */
    vdc_domu_watch watch;       /* the looks at it while it runs (run/domu.h) */
} level_guest;

static void
guest_failed(level_guest *g, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void
guest_failed(level_guest *g, const char *fmt, ...)
{
    va_list ap;

    if (g->why)
        return;         /* the first cause names the failure */
    va_start(ap, fmt);
    g->why = g_strdup_vprintf(fmt, ap);
    va_end(ap);
}

/* @dom (from the plan) made guest @g's domain: its name, and the disks
 * root, its copy of target @t at the target's vdev, control. */
static void
guest_domain(vdc_hv_domain *dom, const level_guest *g, const vdc_plan_target *t)
{
    vdc_hv_disk root = dom->disks[0], ctl = dom->disks[dom->n_disks - 1], disk = { 0 };
    size_t i;

    for (i = 1; i + 1 < dom->n_disks; i++)
        if (!strcmp(dom->disks[i].target, t->name))
            disk = dom->disks[i];
    disk.path = g->disk;
    dom->name = g->name;
    dom->n_disks = 0;
    dom->disks[dom->n_disks++] = root;
    dom->disks[dom->n_disks++] = disk;
    dom->disks[dom->n_disks++] = ctl;
}

/* Guest @k's control disk, journaled before it exists, holding its job
 * (its target, its seed, the start gate). */
static void
guest_control(vdc_run_state *st, size_t bi, unsigned k, level_guest *g)
{
    const vdc_plan *p = st->p;
    struct vdc_ctl_job job;

    vdc_ctl_job_init(&job);
    g->nonce = st->env->nonce();
    if (vdc_step_guest_job(p, &p->boots[bi], k, g->nonce, p->timeout_s, &job) < 0) {
        guest_failed(g, "cannot build its control disk job");
        goto out;
    }
    g->ctl_seq = vdc_journal_add(&st->journal,
                                 &(vdc_journal_entry){ .kind = VDC_JOURNAL_FILE, .path = g->ctl });
    if (!g->ctl_seq || st->env->ctl_create(g->ctl, 0, &job) < 0) {
        guest_failed(g, "cannot create its control disk");
        goto out;
    }
    (void)vdc_journal_done_ino(&st->journal, g->ctl_seq, g->ctl);
out:
    vdc_ctl_job_dispose(&job);
}

/* Guest @g's cache step as one domU's (run/domu.h vdc_domu_cache_step),
 * on a view of the plan whose target @ti is its copy: its backends read
 * back, `none` applied on its loop device while it is paused and
 * verified, the truth handed to the recorder (the first guest's record
 * stands, a later guest's that differs fails it); then resumed.  A guest
 * whose cache is refused or differs fails, named with the cause. */
static void
guest_cache(vdc_run_state *st, size_t ti, level_guest *g, const vdc_hv_domain *dom)
{
    vdc_plan view = *st->p;
    g_autofree vdc_plan_target *targets = g_memdup2(st->p->targets,
                                                    sizeof(*targets) * st->p->n_targets);
    const char *fail;

    targets[ti].path = g->disk;
    view.targets = targets;
    if (vdc_domu_cache_step(st, &view, g->name, dom) < 0)
        guest_failed(g, "the paused domU could not be resumed (see the message above)");
    else if ((fail = vdc_recorder_boot_fail(st->rec, ti)))
        guest_failed(g, "%s", fail);
}

/* Guest @g's domain, journaled (by a UUID of ours) before it exists; its
 * cache step. */
static void
guest_create(vdc_run_state *st, size_t bi, level_guest *g)
{
    const vdc_plan *p = st->p;
    size_t ti = p->steps[p->boots[bi].first].target;
    const vdc_plan_target *t = &p->targets[ti];
    vdc_hv_domain dom;
    char got[VDC_HV_UUID_LEN];
    g_autofree char *repeats = NULL;

    vdc_hv_domain_from_plan(p, st->prep.image, g->ctl, g->console, &dom);
    guest_domain(&dom, g, t);
    dom.start_paused = vdc_hv_domain_needs_pause(&dom);
    g->uuid = g_uuid_string_random();
    dom.uuid = g->uuid;
    g->dom_seq = vdc_journal_add(&st->journal, &(vdc_journal_entry){
        .kind = VDC_JOURNAL_DOMAIN, .driver = st->hvops->name, .uri = p->uri ? p->uri : "",
        .name = g->name, .uuid = g->uuid });
    if (!g->dom_seq) {
        guest_failed(g, "cannot journal its domain");
        return;
    }
    if (st->hvops->create(st->hv, &dom, &repeats) < 0) {
        guest_failed(g, "the domU could not be created%s%s", repeats ? ": " : " (see the message above)",
                     repeats ? repeats : "");
        return;
    }
    g->created = 1;
    if (st->hvops->uuid(st->hv, g->name, got) == 1 && g_ascii_strcasecmp(got, g->uuid))
        (void)vdc_journal_done_ident(&st->journal, g->dom_seq, "uuid", got);
    else
        (void)vdc_journal_done(&st->journal, g->dom_seq);
    guest_cache(st, ti, g, &dom);
}

/* the gate's look at whether guest @i's domain still runs */
typedef struct {
    vdc_run_state *st;
    level_guest *g;
} alive_arg;

static int
guest_alive(void *arg, size_t i)
{
    alive_arg *a = arg;

    return a->st->hvops->wait(a->st->hv, a->g[i].name, 0, NULL) == VDC_HV_WAIT_TIMEOUT;
}

/* The level's target as its guest @g (guest 0, whose disk is the target
 * itself, not a copy) has it attached, read once the start gate released
 * the level (every guest's runner up, so its blkfront Connected): the
 * backend when none was recorded before, a Xen VBD's negotiated ring when
 * still wanted (vdc_recorder_rings).  A driver that cannot read its
 * backends said why; the level goes on. */
static void
level_backends(vdc_run_state *st, size_t ti, const level_guest *g)
{
    const vdc_target *t = vdc_recorder_target_record(st->rec, ti);
    JsonObject *bk;

    if (!t || (t->backend.type && !vdc_recorder_wants_rings(st->rec)))
        return;
    bk = json_object_new();
    if (st->hvops->backends(st->hv, g->name, bk) == 0)
        vdc_recorder_rings(st->rec, bk);
    json_object_unref(bk);
}

/* Guest @k's domain destroyed now (a stalled guest: it would load the
 * host under the others), its journal entry undone. */
static void
guest_destroy(vdc_run_state *st, level_guest *g)
{
    if (g->dom_seq && vdc_hv_destroy_own(st->hvops, st->hv, g->name, g->uuid, st->p->id) == 0) {
        (void)vdc_journal_undone(&st->journal, g->dom_seq);
        g->dom_seq = 0;
    }
}

/* Wait for every created guest's domain to end, at most --timeout from
 * now, in turn by LEVEL_WAIT_S; a domain still running then is past its
 * time.  After each wait that found a guest running @lh looks at the host
 * (at most every LEVEL_WAIT_S), and after each round each
 * guest still running is looked at as one domU is (vdc_domu_look, the
 * round's seconds as its period): a guest found stalled (paused on an I/O
 * error, the image directory full, its runner's heartbeat stopped) fails
 * naming the cause and is destroyed at once; the others go on.  Stops at
 * an interruption. */
static void
wait_all(vdc_run_state *st, level_guest *g, unsigned n, vdc_levelhost *lh)
{
    gint64 t0 = g_get_monotonic_time();
    gint64 deadline = t0 + (gint64)st->p->timeout_s * G_USEC_PER_SEC;
    unsigned k, left;

    do {
        left = 0;
        for (k = 0; k < n; k++) {
            vdc_hv_wait_result w;

            if (!g[k].created || g[k].ended)
                continue;
            w = st->hvops->wait(st->hv, g[k].name, LEVEL_WAIT_S, st->env->stop);
            if (w == VDC_HV_WAIT_TIMEOUT && g_get_monotonic_time() < deadline) {
                left++;
                /* the host looked at every LEVEL_WAIT_S, not once a round:
                 * a level whose guests end within one round is still read
                 * while its servers live */
                if (k + 1 < n)
                    vdc_levelhost_look(lh);
                continue;
            }
            g[k].ended = 1;
            g[k].w = w;
            vdc_levelhost_ended(lh, k);
        }
        if (vdc_run_stopped(st))
            return;
        if (!left)
            break;
        vdc_levelhost_look(lh);
        for (k = 0; k < n; k++) {
            g_autofree char *stall = NULL;

            if (!g[k].created || g[k].ended ||
                !(stall = vdc_domu_look(st, g[k].name, g[k].hw, LEVEL_WAIT_S * left, &g[k].watch)))
                continue;
            guest_failed(&g[k], "%s, %.0f s after the release: destroyed", stall,
                         (double)(g_get_monotonic_time() - t0) / G_USEC_PER_SEC);
            vdc_error("domain %s: %s", g[k].name, g[k].why);
            vdc_hostwatch_stop(g[k].hw);
            guest_destroy(st, &g[k]);
            g[k].ended = 1;
            g[k].w = VDC_HV_WAIT_ERROR;     /* its cause is in why: a failure, not a timeout */
            vdc_levelhost_ended(lh, k);
        }
    } while (1);
}

/* Guest @g's host sampler (collect/hostwatch.h) over its one target @ti,
 * its copy @g->disk, started on its control disk; NULL when it could not
 * start (said once: the guest goes on without host samples). */
static vdc_hostwatch *
guest_hostwatch(vdc_run_state *st, size_t ti, level_guest *g)
{
    const vdc_plan_target *pt = &st->p->targets[ti];
    const vdc_target *rt = vdc_recorder_target_record(st->rec, ti);
    vdc_host_target t = { .name = pt->name, .vdev = pt->vdev };
    vdc_hostwatch *hw;

    if (pt->spec.backing == VDC_BACKING_IMAGE)
        t.image = g->disk;
    if (rt)
        t.backend = rt->backend.type;
    hw = vdc_hostwatch_new(&t, 1);
    if (vdc_hostwatch_start_domu(hw, g->ctl, g->nonce, st->hvops, st->hv, g->name) < 0) {
        vdc_progress("warning: %s: no host samples, no heartbeat watch (see the message above)",
                     g->name);
        vdc_hostwatch_free(hw);
        return NULL;
    }
    return hw;
}

/* Guest @k's run: its answer from its control disk, or its failure. */
static void
guest_record(vdc_run_state *st, size_t bi, unsigned k, level_guest *g)
{
    const vdc_plan *p = st->p;
    size_t step = p->boots[bi].first + k;
    struct vdc_ctl_result res;

    if (g->why || !g->created) {
        vdc_recorder_steps_failed(st->rec, step, 1, "failed", g->why ? g->why : "not created");
        return;
    }
    switch (g->w) {
    case VDC_HV_WAIT_SHUTOFF:
        vdc_ctl_result_init(&res);
        if (st->env->ctl_read(g->ctl, g->nonce, &res) < 0) {
            guest_failed(g, "no valid result on its control disk");
            vdc_recorder_steps_failed(st->rec, step, 1, "failed",
                                      "no valid result on the control disk (see the message above)");
        } else {
            g_autofree char *what = g_strdup_printf("control disk %s", g->ctl);
            g_autofree char *log = g_strdup_printf("%s/logs/runner-%zu-g%u.log", p->out_dir, bi, k);

            vdc_recorder_ctl_answer(st->rec, step, 1, what, &res, log);
            if (g->hw)
                vdc_recorder_host_samples(st->rec, step, 1, g->hw);
            if (res.status != VDC_CTL_STATUS_OK)
                guest_failed(g, "its runner reported %s: %s", vdc_ctl_status_name(res.status),
                             res.n_targets && res.targets[0].error ? res.targets[0].error
                             : res.error ? res.error : "no cause given");
        }
        vdc_ctl_result_dispose(&res);
        break;
    case VDC_HV_WAIT_TIMEOUT:
        guest_failed(g, "the domU did not power off within %u s: destroyed", p->timeout_s);
        vdc_recorder_steps_failed(st->rec, step, 1, "timeout", g->why);
        break;
    case VDC_HV_WAIT_CRASHED:
        guest_failed(g, "the domU crashed or rebooted");
        vdc_recorder_steps_failed(st->rec, step, 1, "failed", g->why);
        break;
    case VDC_HV_WAIT_INTERRUPTED:
        guest_failed(g, "interrupted");
        vdc_recorder_steps_failed(st->rec, step, 1, "failed", "interrupted");
        break;
    case VDC_HV_WAIT_ERROR:
        guest_failed(g, "lost track of the domU (see the message above)");
        vdc_recorder_steps_failed(st->rec, step, 1, "failed", g->why);
        break;
    }
}

/* The host watch of level boot @bi's @n guests @g (collect/levelhost.h):
 * blkback's ring threads serve a libxl target whose backend is "phy" or
 * not known, else each guest's QEMU; an image under blkback goes through
 * a loop device, whose work the kernel does not attribute. */
static vdc_levelhost *
level_hostwatch(vdc_run_state *st, size_t ti, level_guest *g, unsigned n)
{
    const vdc_plan_target *t = &st->p->targets[ti];
    const vdc_target *rt = vdc_recorder_target_record(st->rec, ti);
    const char *type = rt ? rt->backend.type : NULL;
    int blkback = !strcmp(st->hvops->name, "libxl") && (!type || !strcmp(type, "phy"));
    g_autofree const char **names = g_new0(const char *, n + 1);
    unsigned k;

    for (k = 0; k < n; k++)
        names[k] = g[k].name;
    return vdc_levelhost_new(st->hvops, st->hv, names, n, t->vdev, blkback,
                             blkback && t->spec.backing == VDC_BACKING_IMAGE
                                 ? "the images' loop devices: their work runs on the kernel's "
                                   "shared unbound kworkers (Linux >= 5.13), not attributable to "
                                   "one device; it is inside dom0_other"
                                 : NULL);
}

/* level.h */
void
vdc_level_boot(vdc_run_state *st, size_t bi)
{
    const vdc_plan *p = st->p;
    const vdc_plan_boot *b = &p->boots[bi];
    size_t ti = p->steps[b->first].target;
    const vdc_plan_target *t = &p->targets[ti];
    unsigned n = b->guests, k, ready = 1;
    g_autofree level_guest *g = g_new0(level_guest, n);
    g_autofree vdc_gate_guest *gate = g_new0(vdc_gate_guest, n);
    g_autofree vdc_run_release *rel = g_new0(vdc_run_release, n);
    g_autofree char *gate_why = NULL, *level_error = NULL;
    const char *status = "ok";
    int released = 0, culprit = -1;     /* the guest that stopped the level's boot */
    vdc_levelhost *lh = NULL;
    JsonObject *host = NULL;

    vdc_progress("step %zu/%zu: level %u of %s, repetition %u: %u domU(s) booted together",
                 bi + 1, p->n_boots, n, t->name, p->steps[b->first].rep, n);
    for (k = 0; k < n; k++) {
        g[k].name = vdc_plan_guest_domain(p, k);
        g[k].ctl = g_strdup_printf("%s/control-%zu-g%u.img", p->out_dir, bi, k);
        g[k].console = g_strdup_printf("%s/logs/console-%zu-g%u.log", p->out_dir, bi, k);
        g[k].disk = k ? g_strdup(st->copies[ti * st->n_guests + k].path
                                 ? st->copies[ti * st->n_guests + k].path
                                 : st->copies[ti * st->n_guests + k].device)
                      : g_strdup(st->st[ti].path ? st->st[ti].path : st->st[ti].device);
    }
    /* the control disks, then the domains (journaled in that order, torn
     * down in the reverse); a guest that fails stops the level's boot */
    for (k = 0; k < n && ready && !vdc_run_stopped(st); k++) {
        guest_control(st, bi, k, &g[k]);
        if (g[k].why)
            culprit = (int)k;
        ready = !g[k].why;
    }
    for (k = 0; k < n && ready && !vdc_run_stopped(st); k++) {
        guest_create(st, bi, &g[k]);
        if (g[k].why)
            culprit = (int)k;
        ready = !g[k].why;
    }
    if (ready && !vdc_run_stopped(st)) {
        alive_arg a = { st, g };

        for (k = 0; k < n; k++)
            gate[k] = (vdc_gate_guest){ .ctl_path = g[k].ctl, .nonce = g[k].nonce,
                                        .name = g[k].name };
        released = vdc_start_gate(gate, n, p->timeout_s, guest_alive, &a, st->env->stop,
                                  &gate_why) == 0;
        if (released) {
            level_backends(st, ti, &g[0]);
            for (k = 0; k < n; k++)
                g[k].hw = guest_hostwatch(st, ti, &g[k]);
            lh = level_hostwatch(st, ti, g, n);
            if (vdc_levelhost_begin(lh) < 0)
                vdc_progress("warning: level %u of %s: no host figures (see the message above)",
                             n, t->name);
            wait_all(st, g, n, lh);
            if (!vdc_run_stopped(st))
                host = vdc_levelhost_end(lh);
            vdc_levelhost_free(lh);
        }
    }
    /* every domain destroyed, whatever happened, newest first (one whose
     * create failed too: by its UUID, whatever the hypervisor left) */
    for (k = n; k-- > 0;) {
        vdc_hostwatch_stop(g[k].hw);
        guest_destroy(st, &g[k]);
    }
    if (vdc_run_stopped(st))
        for (k = 0; k < n; k++)
            guest_failed(&g[k], "interrupted");
    /* not released: no guest measured anything, whatever it wrote */
    for (k = 0; k < n && !released; k++)
        guest_failed(&g[k], "%s", gate_why ? gate_why
                                 : "not started: another guest of the level failed first");
    for (k = 0; k < n; k++) {
        guest_record(st, bi, k, &g[k]);
        rel[k] = (vdc_run_release){ gate[k].ready_s, gate[k].released_s, NAN };
        if (released && !g[k].why && vdc_start_gate_started(&gate[k]) == 0)
            rel[k].started_s = gate[k].started_s;
        if (!released)
            rel[k] = (vdc_run_release){ NAN, NAN, NAN };
    }
    /* the level's error names the guest that failed it: the one that
     * stopped its boot, the gate's (which names its guests), else the
     * first that failed after the release */
    if (culprit >= 0)
        level_error = g_strdup_printf("guest %d (%s): %s", culprit, g[culprit].name,
                                      g[culprit].why);
    else if (gate_why)
        level_error = g_strdup(gate_why);
    for (k = 0; k < n && !level_error; k++)
        if (g[k].why) {
            level_error = g_strdup_printf("guest %u (%s): %s", k, g[k].name, g[k].why);
            if (g[k].ended && g[k].w == VDC_HV_WAIT_TIMEOUT)
                status = "timeout";
        }
    if (level_error) {
        if (!strcmp(status, "ok"))
            status = "failed";
        vdc_error("level %u of %s, repetition %u: %s", n, t->name, p->steps[b->first].rep,
                  level_error);
    }
    vdc_recorder_level(st->rec, b->first, n, released ? rel : NULL, status, level_error);
    vdc_recorder_level_host(st->rec, host);
    for (k = 0; k < n; k++) {
        g_free(g[k].name);
        g_free(g[k].ctl);
        g_free(g[k].console);
        g_free(g[k].disk);
        g_free(g[k].uuid);
        g_free(g[k].why);
        vdc_hostwatch_free(g[k].hw);
    }
}
