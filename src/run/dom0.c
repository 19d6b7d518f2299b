/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The dom0 baseline step (dom0.h). */
#include "config.h"
#include "run/dom0.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "common/child.h"
#include "common/util.h"
#include "guest-agent/jobcmd.h"
#include "host/memcg.h"
#include "host/procfs.h"
#include "host/procgroup.h"
#include "host/residency.h"
#include "collect/cache.h"
#include "collect/hostwatch.h"
#include "plan/step.h"
#include "run/provision.h"
#include "run/state.h"

/* ---- child processes ------------------------------------------------------------ */

/* A child of a dom0 step: its group, journaled, and moved into @cg */
struct journaled_child {
    vdc_journal *j;
    unsigned seq;
    const vdc_memcg *cg;        /* NULL: none */
};

/* vdc_child_opts.started: journal the group (pid, start, exe of its
 * leader, the supervisor: a fork of ours) before the child runs */
static int
journal_child(pid_t group, void *arg)
{
    struct journaled_child *c = arg;
    g_autofree char *exe = NULL;
    g_autofree char *pid = g_strdup_printf("%d", (int)group);
    g_autofree char *start = NULL;
    g_autofree char *boot = vdc_boot_id();
    uint64_t started;

    if (vdc_proc_identity(group, &exe, &started) < 0 || !boot) {
        vdc_error("process %d: cannot read its identity from /proc", (int)group);
        return -1;
    }
    start = g_strdup_printf("%" G_GUINT64_FORMAT, (guint64)started);
    c->seq = vdc_journal_add(c->j, &(vdc_journal_entry){
        .kind = VDC_JOURNAL_PROC, .pid = pid, .start = start, .exe = exe, .boot = boot });
    if (!c->seq)
        return -1;
    if (vdc_journal_done(c->j, c->seq) < 0)
        return -1;
    /* the supervisor, before it forks the child proper: what it forks is
     * in the cgroup from its first page on */
    return c->cg ? vdc_memcg_enter(c->cg, group) : 0;
}

/* Run the child @o describes (its output to a log, a timeout, the stop
 * flag: common/child.h: its own process group, SIGTERM, the grace,
 * SIGKILL; it dies with us), its group journaled in @j while it runs and
 * in the memory cgroup @cg (NULL: none).  Returns the exit status (128 +
 * signal when killed), or -1 after vdc_error. */
static int
run_journaled(vdc_journal *j, vdc_child_opts *o, const vdc_memcg *cg)
{
    struct journaled_child c = { .j = j, .cg = cg };
    vdc_child_result r;
    int rc;

    o->started = journal_child;
    o->started_arg = &c;
    rc = vdc_child_run(o, &r);
    /* the group was killed and reaped */
    if (c.seq)
        (void)vdc_journal_undone(j, c.seq);
    if (rc < 0)
        return -1;
    if (r.stopped || r.timed_out) {
        vdc_error_kind(r.stopped ? VDC_ERR_INTERRUPTED : VDC_ERR_RUNTIME, "%s: %s", o->argv[0],
                       r.stopped ? "interrupted" : "timed out: stopped (SIGTERM, then SIGKILL)");
        return -1;
    }
    return vdc_child_code(&r);
}

/* Run @argv, stdout+stderr appended to @log, at most @timeout_s seconds,
 * watching *@stop, journaled in @j, in @cg (run_journaled). */
static int
run_child(vdc_journal *j, char **argv, const char *log, unsigned timeout_s,
          volatile sig_atomic_t *stop, const vdc_memcg *cg)
{
    vdc_child_opts o = { .argv = argv, .timeout_ms = timeout_s * 1000u, .stop = stop,
                         .out = VDC_CHILD_LOG, .err = VDC_CHILD_LOG, .log_path = log,
                         .death_signal = SIGKILL };

    return run_journaled(j, &o, cg);
}

/* the agent's --progress-fd pipe, read at each look of the child loop */
struct agent_watch {
    struct vdc_hostwatch *hw;
    int rd;
    int pid;                    /* the agent's, set by vdc_child_run */
    int started;
};

static void
agent_tick(void *arg)
{
    struct agent_watch *a = arg;
    char buf[4096];
    ssize_t n;

    if (!a->started && a->pid > 0) {
        vdc_hostwatch_dom0_agent(a->hw, a->pid);
        a->started = 1;
    }
    while ((n = read(a->rd, buf, sizeof(buf))) > 0)
        vdc_hostwatch_dom0_feed(a->hw, buf, (size_t)n);
}

/* The agent (@argv has room for two more words), as run_child (its group
 * journaled in @j while it runs, in @cg), with --progress-fd 3 on a pipe
 * the host sampler @hw reads (at each look of the child loop and once
 * after the agent ended). */
static int
run_agent(vdc_journal *j, char **argv, size_t argc, const char *log, unsigned timeout_s,
          volatile sig_atomic_t *stop, struct vdc_hostwatch *hw, const vdc_memcg *cg)
{
    struct agent_watch a = { .hw = hw, .rd = -1 };
    vdc_child_opts o = { .argv = argv, .timeout_ms = timeout_s * 1000u, .stop = stop,
                         .out = VDC_CHILD_LOG, .err = VDC_CHILD_LOG, .log_path = log,
                         .death_signal = SIGKILL };
    int pfd[2], rc;

    if (!hw || pipe2(pfd, O_CLOEXEC) < 0)
        return run_child(j, argv, log, timeout_s, stop, cg);
    fcntl(pfd[0], F_SETFL, O_NONBLOCK);     /* the agent's end blocks as a pipe does */
    argv[argc] = (char *)"--progress-fd";
    argv[argc + 1] = (char *)"3";
    argv[argc + 2] = NULL;
    a.rd = pfd[0];
    o.pass_fd = pfd[1];
    o.pid_out = &a.pid;
    o.tick = agent_tick;
    o.tick_arg = &a;
    rc = run_journaled(j, &o, cg);
    close(pfd[1]);
    close(pfd[0]);
    return rc;
}

/* mkfs.TYPE with the options a domU's job gets (step.h), on @dev */
static int
mkfs(vdc_journal *j, const char *type, const char *dev, const char *log, volatile sig_atomic_t *stop)
{
    struct vdc_jobcmd cmd;
    struct vdc_ctl_error err = { { 0 } };
    int r;

    if (vdc_jobcmd_mkfs(&cmd, type, vdc_mkfs_options(type), dev, &err) < 0) {
        vdc_error("dom0 baseline: %s", err.msg);
        return -1;
    }
    r = run_child(j, cmd.argv, log, 3600, stop, NULL);
    if (r != 0) {
        if (r > 0)
            vdc_error("%s %s: exit status %d (see %s)", cmd.argv[0], dev, r, log);
        return -1;
    }
    return 0;
}

/* A workload pass of @job: the agent on @on (the mount point, or with
 * @raw the block device itself, before mkfs) with
 * vdc_workload_agent_options (@raw: vdc_raw_workload_agent_options) and
 * the plan's job files, writing @json, in @cg.  Returns run_child's
 * status, or -1. */
static int
workload_pass(const vdc_dom0_job *job, const char *agent, const char *on, int raw, const char *json,
              const char *log, const vdc_memcg *cg)
{
    const vdc_plan *p = job->plan;
    const vdc_plan_target *t = job->target;
    g_auto(GStrv) opts = raw ? vdc_raw_workload_agent_options(p, t) : vdc_workload_agent_options(p, t);
    g_auto(GStrv) files = g_new0(char *, p->n_workloads + 1);
    struct vdc_ctl_error err = { { 0 } };
    struct vdc_jobcmd cmd;
    size_t i;

    for (i = 0; i < p->n_workloads; i++)
        files[i] = vdc_run_workload_file(p, i);
    if (vdc_jobcmd_workloads(&cmd, agent, on, t->name, job->seed, job->rep, json, opts,
                             g_strv_length(opts), files, p->n_workloads, &err) < 0) {
        vdc_error("dom0 agent: %s", err.msg);
        return -1;
    }
    if (p->drop_caches && vdc_drop_caches() < 0)
        vdc_progress("warning: could not drop dom0's page cache");
    vdc_progress("dom0: %zu workload(s) on %s (%s)", p->n_workloads, t->name,
                 raw ? "the raw device" : "a file");
    return run_child(job->journal, cmd.argv, log, p->agent_timeout_s, job->stop, cg);
}

/* The passes of a dom0 step (vdc_dom0_step), their agents in @cg (NULL:
 * none). */
static int
dom0_passes(const vdc_dom0_job *job, const vdc_memcg *cg)
{
    const vdc_plan *p = job->plan;
    const vdc_plan_target *t = job->target;
    const char *agent = job->agent ? job->agent : VDC_LIBEXECDIR "/vmdiskcmp-agent";
    const char *dev = job->dev, *mnt = job->mnt;
    vdc_journal *j = job->journal;
    volatile sig_atomic_t *stop = job->stop;
    g_autofree char *log = g_strdup_printf("%s/logs/%s-%u.stderr", p->out_dir, t->name, job->rep);
    g_auto(GStrv) opts = NULL;
    struct vdc_jobcmd cmd;
    struct vdc_ctl_error err = { { 0 } };
    unsigned dir_seq, mnt_seq;
    int r, rr = 0;

    /* the raw pass first, on the device itself (as in the domU) */
    if (job->raw_json) {
        rr = workload_pass(job, agent, dev, 1, job->raw_json, log, cg);
        if (rr > 0)
            vdc_error("dom0 agent (raw workloads): exit status %d (see %s)", rr, log);
        if (!job->json_out && !job->workloads_json)
            return rr == 0 ? 0 : -1;
        if (stop && *stop)
            return -1;
    }

    if (!g_file_test(mnt, G_FILE_TEST_IS_DIR)) {     /* made by an earlier step: reuse */
        dir_seq = vdc_journal_add(j, &(vdc_journal_entry){ .kind = VDC_JOURNAL_DIR, .path = mnt });
        if (!dir_seq)
            return -1;
        if (vdc_journal_mkdir(j, dir_seq, mnt, 0755) < 0)
            return -1;
    }

    vdc_progress("dom0: mkfs.%s %s", p->mkfs, dev);
    if (mkfs(j, p->mkfs, dev, log, stop) < 0)
        return -1;
    mnt_seq = vdc_journal_add(j, &(vdc_journal_entry){
        .kind = VDC_JOURNAL_MOUNT, .dir = mnt, .source = dev });
    if (!mnt_seq)
        return -1;
    if (mount(dev, mnt, p->mkfs, 0, NULL) < 0) {
        vdc_error("mount %s on %s: %s", dev, mnt, g_strerror(errno));
        (void)vdc_journal_undone(j, mnt_seq);
        return -1;
    }
    (void)vdc_journal_done(j, mnt_seq);
    if (p->drop_caches && vdc_drop_caches() < 0)
        vdc_progress("warning: could not drop dom0's page cache");

    /* the command lines the runner builds in a domU, with this target's
     * options: the bonnie++ pass, then the workload pass (each runs even
     * when the other failed, as in the domU; an interruption stops both) */
    r = 0;
    if (job->json_out) {
        opts = vdc_agent_options(p, t);
        if (vdc_jobcmd_agent(&cmd, agent, mnt, t->name, job->seed, job->rep, job->json_out, opts,
                             g_strv_length(opts), &err) < 0) {
            vdc_error("dom0 agent: %s", err.msg);
            r = -1;
        } else {
            /* the host sampler reads this pass's --progress-fd lines */
            struct vdc_hostwatch *hw = job->hw;

            if (cmd.argc + 2 > VDC_JOBCMD_MAX_WORDS)
                hw = NULL;
            r = run_agent(j, cmd.argv, cmd.argc, log, p->agent_timeout_s, stop, hw, cg);
        }
        if (r > 0)
            vdc_error("dom0 agent: exit status %d (see %s)", r, log);
    }
    if (job->workloads_json && !(stop && *stop)) {
        int wr = workload_pass(job, agent, mnt, 0, job->workloads_json, log, cg);

        if (wr > 0)
            vdc_error("dom0 agent (workloads): exit status %d (see %s)", wr, log);
        if (r == 0)
            r = wr;
    }

    if (umount2(mnt, 0) < 0) {
        vdc_error("umount %s: %s", mnt, g_strerror(errno));
        return -1;
    }
    (void)vdc_journal_undone(j, mnt_seq);
    return r == 0 && rr == 0 ? 0 : -1;
}

/* @job->memory: the limit of @cg read back, and where it came from, with
 * the most the cgroup used in the step (page cache included) */
static void
memory_read_back(const vdc_dom0_job *job, const vdc_memcg *cg)
{
    g_autofree char *peak_text = NULL;
    uint64_t peak = 0;

    if (!job->memory)
        return;
    if (vdc_memcg_peak(cg, &peak) == 0)
        peak_text = g_strdup_printf("; at most %.1f MiB used in run %u", (double)peak / 1048576.0,
                                    job->rep);
    job->memory->limit_mib = (int64_t)(cg->limit_bytes >> 20);
    g_free(job->memory->provenance);
    job->memory->provenance =
        g_strdup_printf("--dom0-memory-max %u: memory cgroup v%d %s, %s %" G_GUINT64_FORMAT " bytes read "
                        "back; the agent ran in it and the page cache it fills is charged to it%s",
                        job->plan->dom0_memory_max_mib, cg->version, cg->path,
                        cg->version == 2 ? "memory.max" : "memory.limit_in_bytes",
                        (guint64)cg->limit_bytes, peak_text ? peak_text : "");
}

/* dom0.h */
int
vdc_dom0_step(const vdc_dom0_job *job)
{
    const vdc_plan *p = job->plan;
    vdc_journal *j = job->journal;
    g_autofree char *name = NULL, *path = NULL;
    vdc_memcg cg;
    unsigned seq;
    int version = 0, rc;

    if (!p->dom0_memory_max_mib)
        return dom0_passes(job, NULL);
    /* one cgroup a step, made before the agent starts and removed after */
    name = g_strdup_printf("vmdiskcmp-%s-%s-%u", p->id, job->target->name, job->rep);
    if (!(path = vdc_memcg_path_for(name, &version)))
        return -1;
    seq = vdc_journal_add(j, &(vdc_journal_entry){ .kind = VDC_JOURNAL_CGROUP, .path = path });
    if (!seq)
        return -1;
    vdc_memcg_init(&cg);
    if (vdc_memcg_create(path, version, (uint64_t)p->dom0_memory_max_mib << 20, &cg) < 0) {
        (void)vdc_journal_undone(j, seq);
        return -1;
    }
    (void)vdc_journal_done(j, seq);
    vdc_progress("dom0: the agent in memory cgroup %s (limit %" G_GUINT64_FORMAT " MiB read back)", cg.path,
                 (guint64)(cg.limit_bytes >> 20));
    rc = dom0_passes(job, &cg);
    memory_read_back(job, &cg);
    /* the agent's groups are reaped: the cgroup is empty */
    if (vdc_memcg_remove(cg.path) == 0)
        (void)vdc_journal_undone(j, seq);
    else
        rc = -1;
    vdc_memcg_dispose(&cg);
    return rc;
}

/* dom0.h */
void
vdc_dom0_boot(vdc_run_state *st, size_t bi)
{
    const vdc_plan *p = st->p;
    const vdc_plan_boot *b = &p->boots[bi];
    const vdc_plan_step *step = &p->steps[b->first];
    const vdc_plan_target *t = &p->targets[step->target];
    const char *dev = st->dev[step->target];
    g_autofree char *json = p->bonnie ? g_strdup_printf("%s/logs/%s-%u.agent.json", p->out_dir,
                                                        t->name, step->rep) : NULL;
    g_autofree char *wjson = p->n_workloads && p->workload_file
                             ? g_strdup_printf("%s/logs/%s-%u.workloads.json", p->out_dir, t->name, step->rep)
                             : NULL;
    g_autofree char *rjson = p->n_workloads && p->workload_raw
                             ? g_strdup_printf("%s/logs/%s-%u.raw-workloads.json", p->out_dir, t->name,
                                               step->rep)
                             : NULL;
    g_autofree char *mnt = g_strdup_printf("%s/mnt-%s", p->out_dir, t->name);
    vdc_host_target ht = {
        .name = t->name,
        .image = t->spec.backing == VDC_BACKING_IMAGE ? st->st[step->target].path : NULL,
        .loop_dev = g_str_has_prefix(dev, "/dev/loop") ? dev : NULL,
    };
    vdc_hostwatch *hw = vdc_hostwatch_new(&ht, 1);
    vdc_dom0_memory memory = { .limit_mib = VDC_INT_ABSENT };
    vdc_dom0_job job = {
        .plan = p, .target = t, .agent = st->s->agent, .journal = &st->journal,
        .stop = st->env->stop, .hw = hw, .dev = dev, .mnt = mnt,
        .rep = step->rep, .seed = step->seed, .json_out = json, .workloads_json = wjson,
        .raw_json = rjson, .memory = &memory,
    };
    const char *why = NULL;
    gint64 t0_us;

    if (p->bonnie)
        vdc_progress("step %zu/%zu: dom0 baseline %s#%u on %s (%" G_GUINT64_FORMAT " MiB test file%s)",
                     bi + 1, p->n_boots, t->name, step->rep, dev, (guint64)(t->test_bytes >> 20),
                     p->n_workloads ? ", then the workloads" : "");
    else
        vdc_progress("step %zu/%zu: dom0 baseline %s#%u on %s (%zu workload(s))", bi + 1, p->n_boots,
                     t->name, step->rep, dev, p->n_workloads);
    if (!vdc_recorder_has_cache(st->rec, step->target)) {
        vdc_target_cache c;

        vdc_target_cache_init(&c);
        if (vdc_cache_dom0(t, dev, &st->env->cache, &c) == 0)
            vdc_recorder_cache(st->rec, step->target, &c, NULL);
        vdc_target_cache_dispose(&c);
    }
    t0_us = g_get_monotonic_time();
    if (st->env->dom0_step(&job) < 0)
        why = vdc_run_stopped(st) ? "interrupted" : "the dom0 agent run failed (see the message above)";
    vdc_recorder_time(st->rec, VDC_TIME_DOM0, (double)(g_get_monotonic_time() - t0_us) / 1e6);
    if (memory.provenance)
        vdc_recorder_memory(st->rec, step->target, memory.limit_mib, memory.provenance);
    g_free(memory.provenance);
    vdc_provision_placement(st, step->target);
    if (vdc_recorder_dom0_answer(st->rec, b->first, json, wjson, rjson, why) && !why)
        vdc_recorder_host_samples(st->rec, b->first, 1, hw);
    vdc_hostwatch_free(hw);
}

/* dom0.h */
char *
vdc_run_workload_file(const vdc_plan *p, size_t i)
{
    return g_strdup_printf("%s/workloads/%s.fio", p->out_dir, p->workloads[i].name);
}
