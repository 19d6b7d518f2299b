/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The dom0 baseline: the same agent, run on the host on a fresh filesystem
 * we make (on the LV, on a block device given with consent, or on an image
 * in --image-dir through a loop device we attach and detach).  Also the
 * host-side helpers the run needs: loop devices, mount checks, dropping
 * the page cache. */
#include "config.h"
#include "run/run.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "common/child.h"
#include "common/util.h"
#include "guest-agent/jobcmd.h"
#include "host/memcg.h"
#include "host/procfs.h"
#include "run/hostwatch.h"
#include "run/step.h"

int
vdc_drop_caches(void)
{
    int fd;

    sync();
    fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, "3\n", 2) != 2) {
        vdc_error("/proc/sys/vm/drop_caches: %s", g_strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    return 0;
}

/* ---- loop devices ------------------------------------------------------------ */

char *
vdc_loop_attach(const char *file)
{
    int ctl = -1, ffd = -1, lfd = -1, attempt;
    char *dev = NULL;

    ffd = open(file, O_RDWR | O_CLOEXEC);
    if (ffd < 0) {
        vdc_error("loop device for %s: cannot open the file: %s", file, g_strerror(errno));
        return NULL;
    }
    ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
    if (ctl < 0) {
        vdc_error("loop device for %s: /dev/loop-control: %s", file, g_strerror(errno));
        goto out;
    }
    for (attempt = 0; attempt < 10 && !dev; attempt++) {
        struct loop_config cfg;
        int n = ioctl(ctl, LOOP_CTL_GET_FREE);
        g_autofree char *path = NULL;

        if (n < 0) {
            vdc_error("loop device for %s: no free loop device: %s", file, g_strerror(errno));
            goto out;
        }
        path = g_strdup_printf("/dev/loop%d", n);
        lfd = open(path, O_RDWR | O_CLOEXEC);
        if (lfd < 0) {
            vdc_error("loop device %s: %s", path, g_strerror(errno));
            goto out;
        }
        memset(&cfg, 0, sizeof(cfg));
        cfg.fd = (unsigned)ffd;
        /* O_DIRECT on the backing file: dom0's page cache must not serve
         * the baseline twice (filesystem on loop on file) */
        cfg.info.lo_flags = LO_FLAGS_DIRECT_IO;
        g_strlcpy((char *)cfg.info.lo_file_name, file, sizeof(cfg.info.lo_file_name));
        if (ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0 ||
            (errno == EINVAL && (cfg.info.lo_flags = 0, ioctl(lfd, LOOP_CONFIGURE, &cfg) == 0))) {
            dev = g_steal_pointer(&path);
        } else if (errno != EBUSY) {
            vdc_error("loop device %s for %s: LOOP_CONFIGURE: %s", path, file, g_strerror(errno));
            close(lfd);
            lfd = -1;
            goto out;
        }
        close(lfd);
        lfd = -1;
    }
    if (!dev)
        vdc_error("loop device for %s: every free device was taken by someone else", file);
out:
    if (ctl >= 0)
        close(ctl);
    if (ffd >= 0)
        close(ffd);
    return dev;
}

/* Wait up to 2 s for the loop device whose sysfs backing_file is @bpath
 * to lose it.  0 when gone, -1 when still bound. */
static int
loop_wait_unbound(const char *bpath)
{
    int i;

    for (i = 0; i < 40; i++) {
        if (!g_file_test(bpath, G_FILE_TEST_EXISTS))
            return 0;
        g_usleep(50000);
    }
    return -1;
}

/* Is the sysfs backing_file text @bf the file @file (resolved: @real)?
 * An unlinked file shows as "PATH (deleted)". */
static int
backing_is(const char *bf, const char *real, const char *file)
{
    const char *names[] = { real, file };
    size_t i, n;

    for (i = 0; i < G_N_ELEMENTS(names); i++) {
        if (!names[i] || !*names[i])
            continue;
        n = strlen(names[i]);
        if (!strncmp(bf, names[i], n) && (!bf[n] || !strcmp(bf + n, " (deleted)")))
            return 1;
    }
    return 0;
}

char *
vdc_loop_find(const char *file)
{
    char real[PATH_MAX];
    g_autoptr(GDir) d = g_dir_open("/sys/block", 0, NULL);
    const char *name;

    if (!realpath(file, real))
        g_strlcpy(real, file, sizeof(real));
    while (d && (name = g_dir_read_name(d))) {
        g_autofree char *bf = NULL;
        g_autofree char *bpath = g_strdup_printf("/sys/block/%s/loop/backing_file", name);

        if (g_str_has_prefix(name, "loop") && g_file_get_contents(bpath, &bf, NULL, NULL) &&
            backing_is(g_strchomp(bf), real, file))
            return g_strdup_printf("/dev/%s", name);
    }
    return NULL;
}

int
vdc_loop_detach(const char *dev, const char *file)
{
    char real[PATH_MAX];
    DIR *d;
    struct dirent *de;
    int rc = 0;

    if (!file || !realpath(file, real))
        g_strlcpy(real, file ? file : "", sizeof(real));
    d = opendir("/sys/block");
    if (!d) {
        vdc_error("loop devices: /sys/block: %s", g_strerror(errno));
        return -1;
    }
    /* find our loop devices by backing file: the journal recorded the file
     * before the device number was known */
    while ((de = readdir(d))) {
        g_autofree char *bf = NULL, *bpath = NULL, *node = NULL;
        int fd;

        if (strncmp(de->d_name, "loop", 4) != 0)
            continue;
        bpath = g_strdup_printf("/sys/block/%s/loop/backing_file", de->d_name);
        if (!g_file_get_contents(bpath, &bf, NULL, NULL))
            continue;
        g_strchomp(bf);
        if (!backing_is(bf, real, file))
            continue;
        node = g_strdup_printf("/dev/%s", de->d_name);
        fd = open(node, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || (ioctl(fd, LOOP_CLR_FD, 0) < 0 && errno != ENXIO)) {
            vdc_error("loop device %s (%s): cannot detach: %s", node, real, g_strerror(errno));
            if (fd >= 0)
                close(fd);
            rc = -1;
            continue;
        }
        close(fd);
        /* LOOP_CLR_FD on a device in use only marks it to detach when its
         * last user goes: detached means its backing file is gone */
        if (loop_wait_unbound(bpath) < 0) {
            vdc_error("loop device %s: still bound to %s: in use (mounted, or held open): the "
                      "image's space is not freed", node, real);
            rc = -1;
        }
    }
    closedir(d);
    return rc;
}

int
vdc_is_mounted(const char *dir, const char *source)
{
    g_autofree char *data = NULL;
    char real[PATH_MAX];
    g_auto(GStrv) lines = NULL;
    size_t i;

    if (!realpath(dir, real))
        return 0;   /* gone: not mounted */
    if (!g_file_get_contents("/proc/self/mountinfo", &data, NULL, NULL)) {
        vdc_error("/proc/self/mountinfo: cannot read");
        return -1;
    }
    lines = g_strsplit(data, "\n", -1);
    for (i = 0; lines[i]; i++) {
        g_auto(GStrv) f = g_strsplit(lines[i], " ", -1);
        guint n = g_strv_length(f), k;
        if (n < 10 || strcmp(f[4], real) != 0)
            continue;
        for (k = 6; k < n && strcmp(f[k], "-"); k++)
            ;
        if (source && *source && k + 2 < n && strcmp(f[k + 2], source) != 0) {
            vdc_error("mount %s: mounted from %s, not %s as journaled: not touched", real, f[k + 2],
                      source);
            return -1;
        }
        return 1;
    }
    return 0;
}

/* ---- process groups ------------------------------------------------------------ */

/* /proc/@pid/exe, or NULL (gone, a zombie, a kernel thread) */
static char *
proc_exe(pid_t pid)
{
    g_autofree char *link = g_strdup_printf("/proc/%d/exe", (int)pid);

    return g_file_read_link(link, NULL);
}

/* The members of process group @pgrp that are still running (not
 * zombies), counted from /proc. */
static unsigned
group_running(pid_t pgrp)
{
    g_autoptr(GDir) d = g_dir_open("/proc", 0, NULL);
    const char *name;
    unsigned n = 0;

    while (d && (name = g_dir_read_name(d))) {
        vdc_task_stat ts;
        int pid = atoi(name);

        if (pid <= 0 || vdc_task_stat_read(pid, 0, &ts) != 0)
            continue;
        n += ts.pgrp == pgrp && ts.state != 'Z' && ts.state != 'X';
    }
    return n;
}

/* A running member of group @pgrp that started before @start (clock ticks
 * after boot), or 0: none */
static pid_t
group_member_before(pid_t pgrp, uint64_t start)
{
    g_autoptr(GDir) d = g_dir_open("/proc", 0, NULL);
    const char *name;

    while (d && (name = g_dir_read_name(d))) {
        vdc_task_stat ts;
        int pid = atoi(name);

        if (pid > 0 && vdc_task_stat_read(pid, 0, &ts) == 0 && ts.pgrp == pgrp &&
            ts.state != 'Z' && ts.state != 'X' && ts.starttime < start)
            return pid;
    }
    return 0;
}

char *
vdc_boot_id(void)
{
    char *id = NULL;

    if (!g_file_get_contents("/proc/sys/kernel/random/boot_id", &id, NULL, NULL))
        return NULL;
    return g_strstrip(id);
}

int64_t
vdc_boot_time(void)
{
    g_autofree char *stat = NULL;
    const char *p;

    if (!g_file_get_contents("/proc/stat", &stat, NULL, NULL) ||
        !(p = strstr(stat, "\nbtime ")))
        return -1;
    return g_ascii_strtoll(p + 7, NULL, 10);
}

int
vdc_proc_group_stop(pid_t pgrp, uint64_t start, const char *exe)
{
    vdc_task_stat ts;
    int r, i;

    r = vdc_task_stat_read(pgrp, 0, &ts);
    if (r < 0)
        return -1;
    if (r == 0 && ts.starttime != start)
        return 0;       /* the pid is another process's now: ours ended */
    if (r == 0 && ts.state != 'Z') {
        g_autofree char *now = proc_exe(pgrp);

        if (!now || strcmp(now, exe) != 0) {
            vdc_error("process %d: started when the journal says, but runs %s, not %s: not touched",
                      (int)pgrp, now ? now : "(unknown)", exe);
            return -1;
        }
        if (ts.pgrp != pgrp) {
            vdc_error("process %d (%s): leads no process group of its own: not touched", (int)pgrp, exe);
            return -1;
        }
    }
    /* the leader is ours, or gone (a group id is not reused while a
     * member lives): what runs in the group is ours when it started after
     * the leader did */
    if (!group_running(pgrp))
        return 0;
    if (r != 0 || ts.state == 'Z') {
        pid_t early = group_member_before(pgrp, start);

        if (early > 0) {
            vdc_error("process group %d: its leader is gone and member %d started before the "
                      "journaled leader: not ours, not touched", (int)pgrp, (int)early);
            return -1;
        }
    }
    vdc_progress("process group %d (%s) outlived its run: killing it", (int)pgrp, exe);
    for (i = 0; i < 100; i++) {
        if (kill(-pgrp, SIGKILL) < 0 && errno != ESRCH) {
            vdc_error("process group %d: kill: %s", (int)pgrp, g_strerror(errno));
            return -1;
        }
        if (!group_running(pgrp))
            return 0;
        g_usleep(50000);
    }
    vdc_error("process group %d (%s): still running 5 s after SIGKILL", (int)pgrp, exe);
    return -1;
}

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
    g_autofree char *exe = proc_exe(group);
    g_autofree char *pid = g_strdup_printf("%d", (int)group);
    g_autofree char *start = NULL;
    g_autofree char *boot = vdc_boot_id();
    vdc_task_stat ts;

    if (!exe || !boot || vdc_task_stat_read(group, 0, &ts) != 0) {
        vdc_error("process %d: cannot read its identity from /proc", (int)group);
        return -1;
    }
    start = g_strdup_printf("%" G_GUINT64_FORMAT, (guint64)ts.starttime);
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

/* A workload pass of dom0 target @t: the agent on @on (the mount point
 * @mnt, or the block device itself with @raw, before mkfs) with
 * vdc_workload_agent_options (@raw: vdc_raw_workload_agent_options) and
 * the plan's job files, writing @json, in @cg.  Returns run_child's
 * status, or -1. */
static int
workload_pass(vdc_run_ctx *ctx, const vdc_plan_target *t, const char *agent, const char *on, int raw,
              unsigned rep, uint64_t seed, const char *json, const char *log, const vdc_memcg *cg)
{
    const vdc_plan *p = vdc_run_ctx_plan(ctx);
    g_auto(GStrv) opts = raw ? vdc_raw_workload_agent_options(p, t) : vdc_workload_agent_options(p, t);
    g_auto(GStrv) files = g_new0(char *, p->n_workloads + 1);
    struct vdc_ctl_error err = { { 0 } };
    struct vdc_jobcmd cmd;
    size_t i;

    for (i = 0; i < p->n_workloads; i++)
        files[i] = vdc_run_workload_file(p, i);
    if (vdc_jobcmd_workloads(&cmd, agent, on, t->name, seed, rep, json, opts, g_strv_length(opts),
                             files, p->n_workloads, &err) < 0) {
        vdc_error("dom0 agent: %s", err.msg);
        return -1;
    }
    if (p->drop_caches && vdc_drop_caches() < 0)
        vdc_progress("warning: could not drop dom0's page cache");
    vdc_progress("dom0: %zu workload(s) on %s (%s)", p->n_workloads, t->name,
                 raw ? "the raw device" : "a file");
    return run_child(vdc_run_ctx_journal(ctx), cmd.argv, log, p->agent_timeout_s, vdc_run_ctx_stop(ctx),
                     cg);
}

/* The passes of a dom0 step (vdc_dom0_step), their agents in @cg (NULL:
 * none). */
static int
dom0_passes(vdc_run_ctx *ctx, const char *dev, const char *mnt, unsigned rep,
            uint64_t seed, const char *json_out, const char *workloads_json,
            const char *raw_json, const vdc_memcg *cg)
{
    const vdc_plan *p = vdc_run_ctx_plan(ctx);
    const vdc_run_settings *s = vdc_run_ctx_settings(ctx);
    vdc_journal *j = vdc_run_ctx_journal(ctx);
    const vdc_plan_target *t = NULL;
    const char *agent;
    volatile sig_atomic_t *stop = vdc_run_ctx_stop(ctx);
    g_autofree char *log = NULL;
    g_auto(GStrv) opts = NULL;
    struct vdc_jobcmd cmd;
    struct vdc_ctl_error err = { { 0 } };
    unsigned dir_seq, mnt_seq;
    size_t i;
    int r, rr = 0;

    for (i = 0; i < p->n_targets; i++)
        if (p->targets[i].spec.where == VDC_WHERE_DOM0)
            t = &p->targets[i];
    if (!t)
        return -1;
    agent = s && s->agent ? s->agent : VDC_LIBEXECDIR "/vmdiskcmp-agent";
    log = g_strdup_printf("%s/logs/%s-%u.stderr", p->out_dir, t->name, rep);

    /* the raw pass first, on the device itself (as in the domU) */
    if (raw_json) {
        rr = workload_pass(ctx, t, agent, dev, 1, rep, seed, raw_json, log, cg);
        if (rr > 0)
            vdc_error("dom0 agent (raw workloads): exit status %d (see %s)", rr, log);
        if (!json_out && !workloads_json)
            return rr == 0 ? 0 : -1;
        if (stop && *stop)
            return -1;
    }

    if (!g_file_test(mnt, G_FILE_TEST_IS_DIR)) {     /* made by an earlier step: reuse */
        dir_seq = vdc_journal_add(j, &(vdc_journal_entry){ .kind = VDC_JOURNAL_DIR, .path = mnt });
        if (!dir_seq)
            return -1;
        if (vdc_run_mkdir_journaled(j, dir_seq, mnt, 0755) < 0)
            return -1;
    }

    vdc_progress("dom0: mkfs.%s %s", p->mkfs, dev);
    if (mkfs(j, p->mkfs, dev, log, vdc_run_ctx_stop(ctx)) < 0)
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
    if (json_out) {
        opts = vdc_agent_options(p, t);
        if (vdc_jobcmd_agent(&cmd, agent, mnt, t->name, seed, rep, json_out, opts,
                             g_strv_length(opts), &err) < 0) {
            vdc_error("dom0 agent: %s", err.msg);
            r = -1;
        } else {
            /* the host sampler reads this pass's --progress-fd lines */
            struct vdc_hostwatch *hw = vdc_run_ctx_hostwatch(ctx);

            if (cmd.argc + 2 > VDC_JOBCMD_MAX_WORDS)
                hw = NULL;
            r = run_agent(j, cmd.argv, cmd.argc, log, p->agent_timeout_s, vdc_run_ctx_stop(ctx), hw, cg);
        }
        if (r > 0)
            vdc_error("dom0 agent: exit status %d (see %s)", r, log);
    }
    if (workloads_json && !(stop && *stop)) {
        int wr = workload_pass(ctx, t, agent, mnt, 0, rep, seed, workloads_json, log, cg);

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

/* targets[].memory_mib of dom0 target @name: the limit of @cg read back,
 * and where it came from (provenance.memory_mib), with the most the
 * cgroup used in step @rep (page cache included) */
static void
record_memcg(vdc_run_ctx *ctx, const char *name, const vdc_memcg *cg, unsigned rep)
{
    const vdc_plan *p = vdc_run_ctx_plan(ctx);
    vdc_target *t = vdc_result_set_find_target(vdc_run_ctx_result(ctx), name);
    g_autofree char *peak_text = NULL;
    uint64_t peak = 0;
    int pr = vdc_memcg_peak(cg, &peak);

    if (!t)
        return;
    if (pr == 0)
        peak_text = g_strdup_printf("; at most %.1f MiB used in run %u", (double)peak / 1048576.0, rep);
    t->memory_mib = (int64_t)(cg->limit_bytes >> 20);
    g_free(t->provenance.memory_mib);
    t->provenance.memory_mib =
        g_strdup_printf("--dom0-memory-max %u: memory cgroup v%d %s, %s %" G_GUINT64_FORMAT " bytes read "
                        "back; the agent ran in it and the page cache it fills is charged to it%s",
                        p->dom0_memory_max_mib, cg->version, cg->path,
                        cg->version == 2 ? "memory.max" : "memory.limit_in_bytes",
                        (guint64)cg->limit_bytes, peak_text ? peak_text : "");
}

int
vdc_dom0_step(vdc_run_ctx *ctx, const char *dev, const char *mnt, unsigned rep,
              uint64_t seed, const char *json_out, const char *workloads_json,
              const char *raw_json)
{
    const vdc_plan *p = vdc_run_ctx_plan(ctx);
    vdc_journal *j = vdc_run_ctx_journal(ctx);
    const vdc_plan_target *t = NULL;
    g_autofree char *name = NULL, *path = NULL;
    vdc_memcg cg;
    unsigned seq;
    size_t i;
    int version = 0, rc;

    if (!p->dom0_memory_max_mib)
        return dom0_passes(ctx, dev, mnt, rep, seed, json_out, workloads_json, raw_json, NULL);
    for (i = 0; i < p->n_targets; i++)
        if (p->targets[i].spec.where == VDC_WHERE_DOM0)
            t = &p->targets[i];
    if (!t)
        return -1;
    /* one cgroup a step, made before the agent starts and removed after */
    name = g_strdup_printf("vmdiskcmp-%s-%s-%u", p->id, t->name, rep);
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
    rc = dom0_passes(ctx, dev, mnt, rep, seed, json_out, workloads_json, raw_json, &cg);
    record_memcg(ctx, t->name, &cg, rep);
    /* the agent's groups are reaped: the cgroup is empty */
    if (vdc_memcg_remove(cg.path) == 0)
        (void)vdc_journal_undone(j, seq);
    else
        rc = -1;
    vdc_memcg_dispose(&cg);
    return rc;
}
