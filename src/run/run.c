/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run (run.h): the order of the steps.  One state, one journal, one
 * recorder; every step checks the stop flag; teardown always happens
 * before vdc_run_plan returns.  What each step does is in provision.c,
 * guestimg.c, domu.c and dom0.c; what it learns goes to the recorder. */
#include "config.h"
#include "run/run.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include <glib.h>

#include "common/util.h"
#include "host/blkback.h"
#include "report/report_dir.h"
#include "run/dom0.h"
#include "run/domu.h"
#include "run/guestimg.h"
#include "run/level.h"
#include "run/provision.h"
#include "run/undo.h"

/* Seconds since @t0_us (g_get_monotonic_time). */
static double
since(gint64 t0_us)
{
    return (double)(g_get_monotonic_time() - t0_us) / 1e6;
}

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

/* OUT (which must not exist, its parents made as needed), OUT/runs and
 * OUT/logs.  0 or -1 after vdc_error. */
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

/* Every target of the plan as planned and provisioned (with what the
 * storage code made of it), and with @dom as the hypervisor was asked for
 * it (NULL: not yet). */
static void
describe_targets(vdc_run_state *st, const vdc_hv_domain *dom)
{
    size_t i;

    for (i = 0; i < st->p->n_targets; i++) {
        JsonObject *storage = st->st[i].path || st->st[i].name ? st->env->storage_describe(&st->st[i])
                                                               : NULL;

        vdc_recorder_target(st->rec, i, storage, st->dev[i]);
        if (storage)
            json_object_unref(storage);
    }
    if (dom)
        vdc_recorder_attached(st->rec, dom, NULL);
}

/* The hypervisor of a run with domUs: its driver's connection, its
 * versions recorded.  0, or -1 after vdc_error. */
static int
open_hypervisor(vdc_run_state *st)
{
    vdc_plan *p = st->p;
    JsonObject *v;

    st->hvops = st->env->hv ? st->env->hv : vdc_hv_ops_for(p->hv);
    if (!st->hvops)
        return -1;
    st->hv = st->hvops->open(p->uri);
    if (!st->hv)
        return -1;
    v = json_object_new();
    st->hvops->versions(st->hv, v);
    vdc_recorder_hypervisor(st->rec, v);
    json_object_unref(v);
    return 0;
}

/* A progress line before boot @bi: how many boots are done (@done: with
 * at least one ok run) and how many failed, the time since the first boot
 * and, at the mean time per boot so far, an estimate of the rest (with
 * --runs auto an upper bound: the rule may stop earlier). */
static void
progress_eta(const vdc_plan *p, size_t bi, size_t done, size_t failed, gint64 t0_us)
{
    double elapsed = since(t0_us);
    char e[32], r[32], f[48] = "";

    if (bi == 0)
        return;
    if (failed)
        g_snprintf(f, sizeof(f), ", %zu failed", failed);
    vdc_progress("%zu of %zu boot(s) done%s in %s; %s%s left at %s per boot", done,
                 p->n_boots, f, vdc_fmt_duration(e, sizeof(e), elapsed),
                 p->runs_auto ? "at most " : "about ",
                 vdc_fmt_duration(r, sizeof(r), elapsed / (double)bi * (double)(p->n_boots - bi)),
                 vdc_fmt_duration((char[32]){ 0 }, 32, elapsed / (double)bi));
}

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

/* Every boot of the plan in its order, until the last, an interruption, a
 * failure every further boot would repeat, or --runs auto's rule. */
static void
run_boots(vdc_run_state *st)
{
    const vdc_plan *p = st->p;
    gint64 t0_us = g_get_monotonic_time();
    size_t i, done = 0, failed = 0;

    for (i = 0; i < p->n_boots && !vdc_run_stopped(st); i++) {
        int rep;

        progress_eta(p, i, done, failed, t0_us);
        vdc_recorder_boot_begin(st->rec);
        if (p->boots[i].dom0)
            vdc_dom0_boot(st, i);
        else if (p->boots[i].guests)
            vdc_level_boot(st, i);
        else
            vdc_domu_boot(st, i);
        if (vdc_recorder_boot_ok(st->rec))
            done++;
        else
            failed++;
        if (st->repeats) {
            vdc_error("run %s stopped after boot %zu of %zu: %s; %zu boot(s) not run", p->id,
                      i + 1, p->n_boots, st->repeats, p->n_boots - i - 1);
            return;
        }
        rep = p->runs_auto ? repetition_done(p, i) : -1;
        if (rep >= 0 && !vdc_run_stopped(st) && vdc_recorder_precise_enough(st->rec, (unsigned)rep + 1))
            return;
    }
}

/* The journal's undo (vdc_run_undo), a domain of this run through the
 * run's open connection. */
static int
undo_with_state(const vdc_journal_entry *e, void *opaque)
{
    vdc_run_state *st = opaque;

    int k = e->kind == VDC_JOURNAL_PARAM ? vdc_blkback_param_of_path(e->path) : -1;
    int64_t now;

    if (e->kind == VDC_JOURNAL_DOMAIN && st->hv && e->driver && !strcmp(e->driver, st->hvops->name))
        return vdc_hv_destroy_own(st->hvops, st->hv, e->name, e->uuid, st->p->id);
    if (vdc_run_undo(e, (void *)st->env) < 0)
        return -1;
    /* a module parameter written back: what it reads now is recorded */
    if (k >= 0 && vdc_blkback_read(e->path, &now) == 0)
        vdc_recorder_blkback_restored(st->rec, k, now);
    return 0;
}

/* Everything journaled torn down (--keep: images, LVs and their
 * directories stay).  0, or -1 (what is left is named). */
static int
teardown(vdc_run_state *st)
{
    static const unsigned keep_kinds = VDC_JOURNAL_KIND_BIT(VDC_JOURNAL_IMAGE) |
        VDC_JOURNAL_KIND_BIT(VDC_JOURNAL_LV) | VDC_JOURNAL_KIND_BIT(VDC_JOURNAL_DIR);
    gint64 t0_us = g_get_monotonic_time();
    int rc = 0;

    if (vdc_run_stopped(st))
        vdc_progress("interrupted: tearing down what this run created");
    else
        vdc_progress("tearing down (%zu object(s) in the journal)", vdc_journal_pending(&st->journal));
    if (st->journal.entries &&
        vdc_journal_teardown(&st->journal, undo_with_state, st, st->p->keep ? keep_kinds : 0) < 0) {
        vdc_error("teardown incomplete: run 'vmdiskcmp cleanup %s' after fixing the cause", st->p->out_dir);
        rc = -1;
    }
    vdc_recorder_time(st->rec, VDC_TIME_TEARDOWN, since(t0_us));
    return rc;
}

/* result.json, and (after a setup that went through, with runs) the report
 * in a child bounded in memory, CPU and wall time: whatever the guests
 * handed back, the controller stays as it is.  0, or -1 when result.json
 * could not be written. */
static int
write_result(vdc_run_state *st, int setup_ok)
{
    vdc_plan *p = st->p;
    g_autofree char *path = g_build_filename(p->out_dir, "result.json", NULL);
    struct vdc_report_options ro;

    if (st->hvops && !vdc_recorder_has_backends(st->rec)) {
        vdc_hv_domain dom;

        vdc_hv_domain_from_plan(p, st->prep.image, "", NULL, &dom);
        describe_targets(st, &dom);
    }
    if (vdc_recorder_save(st->rec, path) < 0)
        return -1;
    if (!setup_ok || st->s->no_report || !vdc_recorder_n_runs(st->rec))
        return 0;
    vdc_report_options_init(&ro);
    ro.headline = 1;
    vdc_progress("writing the report in %s", p->out_dir);
    if (vdc_report_result_dir_bounded(p->out_dir, &ro, st->env->stop) < 0)
        vdc_progress("warning: the report could not be rendered; result.json is complete");
    return 0;
}

/* --blkback-*: each parameter's value read, journaled (to be written
 * back at teardown, on SIGINT and by cleanup), written and read back,
 * before any domU is created (blkback reads it when a backend connects).
 * 0, or -1 after vdc_error. */
static int
set_blkback(vdc_run_state *st)
{
    int k;

    for (k = 0; k < VDC_BLKBACK_N; k++) {
        g_autofree char *path = NULL, *old = NULL, *dir = NULL;
        int64_t was, now;
        unsigned seq;

        if (st->p->blkback[k] < 0)
            continue;
        path = vdc_blkback_path(k);
        if (vdc_blkback_read(path, &was) < 0)
            return -1;
        old = g_strdup_printf("%" G_GINT64_FORMAT, (gint64)was);
        seq = vdc_journal_add(&st->journal, &(vdc_journal_entry){
            .kind = VDC_JOURNAL_PARAM, .path = path, .value = old });
        if (!seq || vdc_blkback_write(path, st->p->blkback[k], &now) < 0)
            return -1;
        (void)vdc_journal_done(&st->journal, seq);
        dir = g_path_get_dirname(path);
        vdc_recorder_blkback_set(st->rec, k, dir, was, st->p->blkback[k], now);
        vdc_progress("%s: %" G_GINT64_FORMAT " -> %d (read back %" G_GINT64_FORMAT "; restored "
                     "after the run)", path, (gint64)was, st->p->blkback[k], (gint64)now);
        if (now != st->p->blkback[k]) {
            vdc_error("%s: wrote %d, reads %" G_GINT64_FORMAT, path, st->p->blkback[k], (gint64)now);
            return -1;
        }
    }
    return 0;
}

/* Make, prepare and describe everything the boots need: the hypervisor's
 * connection, the targets, the guest image.  0, or -1 (after vdc_error,
 * or stopped). */
static int
setup(vdc_run_state *st)
{
    vdc_plan *p = st->p;
    gint64 t0_us;
    size_t i;

    if (p->hv != VDC_HV_NONE && open_hypervisor(st) < 0)
        return -1;
    if (vdc_run_stopped(st) || set_blkback(st) < 0)
        return -1;
    t0_us = g_get_monotonic_time();
    for (i = 0; i < p->n_targets; i++)
        if (vdc_run_stopped(st) || vdc_provision_target(st, i) < 0)
            return -1;
    if (vdc_level_provision(st) < 0)
        return -1;
    vdc_recorder_time(st->rec, VDC_TIME_PROVISION, since(t0_us));
    if (p->hv != VDC_HV_NONE) {
        t0_us = g_get_monotonic_time();
        if (vdc_run_stopped(st) || vdc_guest_image(st) < 0)
            return -1;
        vdc_recorder_time(st->rec, VDC_TIME_PREPARE, since(t0_us));
        vdc_domu_files(st);
    }
    describe_targets(st, NULL);
    return 0;
}

int
vdc_run_plan(vdc_plan *p, const vdc_run_settings *s, const vdc_run_env *env)
{
    vdc_run_state st = { .p = p, .s = s, .env = env };
    g_autofree char *jpath = g_build_filename(p->out_dir, "journal", NULL);
    g_autofree char *plan_path = g_build_filename(p->out_dir, "plan.json", NULL);
    g_autofree char *plan_json = NULL;
    gint64 start_us = g_get_monotonic_time();
    int rc = VDC_EXIT_FAILURE, setup_ok = 0, failed = 0;
    size_t i;

    vdc_journal_init(&st.journal);
    st.run_tag = g_strconcat(VDC_STORAGE_RUN_TAG_PREFIX, p->id, NULL);
    st.rec = vdc_recorder_new(p);
    vdc_prepared_init(&st.prep);
    st.st = g_new0(struct vdc_storage, p->n_targets);
    st.dev = g_new0(char *, p->n_targets + 1);
    for (i = 0; i < p->n_targets; i++)
        vdc_storage_init(&st.st[i]);

    if (make_out_dir(p->out_dir) < 0 || vdc_journal_create(&st.journal, jpath, p->id) < 0)
        goto free_all;
    plan_json = vdc_plan_to_json(p);
    if (vdc_write_file_atomic(plan_path, plan_json, strlen(plan_json)) == 0 && write_workloads(p) == 0) {
        vdc_recorder_experiment(st.rec);
        setup_ok = setup(&st) == 0;
        if (setup_ok)
            run_boots(&st);
        /* how full each thin pool ran, before the teardown takes it */
        for (i = 0; setup_ok && i < p->n_targets && !vdc_run_stopped(&st); i++)
            vdc_provision_thin_after(&st, i);
    }
    failed = teardown(&st) < 0;
    vdc_recorder_time(st.rec, VDC_TIME_TOTAL, since(start_us));
    if (st.journal.entries && write_result(&st, setup_ok) < 0)
        failed = 1;
    if (vdc_run_stopped(&st))
        rc = VDC_EXIT_INTERRUPTED;
    else if (setup_ok && !failed && !vdc_recorder_failed(st.rec))
        rc = VDC_EXIT_OK;

free_all:
    if (st.hvops && st.hv)
        st.hvops->close(st.hv);
    for (i = 0; i < p->n_targets; i++)
        vdc_storage_dispose(&st.st[i]);
    vdc_level_dispose(&st);
    g_free(st.st);
    g_strfreev(st.dev);
    vdc_prepared_dispose(&st.prep);
    vdc_recorder_free(st.rec);
    vdc_journal_dispose(&st.journal);
    g_free(st.run_tag);
    g_free(st.repeats);
    return rc;
}
