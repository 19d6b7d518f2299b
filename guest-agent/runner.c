/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-runner: the in-guest job runner (static, libc only).
 *
 * Started once by the guest's init (busybox/sysvinit inittab line or a
 * systemd unit, installed by `vmdiskcmp prepare`).  It
 *   1. finds the control disk: scans the entries of /sys/block for the superblock magic
 *      (doc/control-disk.md), waiting for late disks (xen-blkfront probes
 *      asynchronously);
 *   2. reads the job;
 *   3. writes the job's workloads (fio job files) to WORKDIR/jobs/NAME.fio;
 *      for each target: waits for its disk (the one whose serial is
 *      vmdiskcmp-VDEV, a Xen PV one by its name /dev/VDEV: diskid.h), runs
 *      the workloads on the raw device when the job asks (the raw pass),
 *      mkfs.TYPE -F, mount, reads the filesystem's block size and stripe
 *      and the disk's I/O sizes as the guest sees them (fsunits.h), sync
 *      and drop caches, runs /usr/lib/vmdiskcmp/vmdiskcmp-agent with the job's
 *      options and --json (the bonnie++ pass, unless the job says no), then
 *      with the workload options and one --job per workload (the workload
 *      pass, when there are workloads), keeps each JSON (at most 8 MiB:
 *      a larger one is named, not kept) and the stderr tail, unmounts, and
 *      writes the target's result into its slot of the control disk;
 *   4. writes the result frame (the summary), syncs, and powers off
 *      (reboot(RB_POWER_OFF)).
 * A job with a start gate (many guests at once) holds its first agent pass
 * until the host's go: the runner writes ready into its progress block,
 * polls the gate record, and records when it saw the go and started its
 * first pass (doc/control-disk.md "Start gate").
 * While an agent runs, its --progress-fd lines ("begin ID", "end ID", on
 * a pipe at descriptor 3) become events of the control disk's progress
 * block, rewritten whole after each (doc/control-disk.md "Progress block"):
 * the host reads it to slice its samples per test.  The block also carries
 * the runner's heartbeat, beaten when it opens the block, at each event and
 * every VDC_CTL_BEAT_S seconds from the loops that wait on a step: a host
 * that sees it stop destroys the domU long before its --timeout.
 * Every step that can hang runs in a child with a timeout and is stopped
 * when it overruns (SIGTERM to its process group, SIGKILL TERM_GRACE_S
 * later: an agent writes what finished, e.g. the jobs before the one it was
 * running); the runner itself never waits without a bound.  It logs to
 * stderr (the console) and into the result frame.
 *
 * Options (for debugging; init passes none): --no-poweroff, --control DEV. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "guest-agent/ctldisk.h"
#include "guest-agent/diskid.h"
#include "guest-agent/fsunits.h"
#include "guest-agent/jobcmd.h"
#include "guest-agent/runner_progress.h"

#ifndef VDC_RUNNER_VERSION
#define VDC_RUNNER_VERSION PACKAGE_VERSION
#endif
#define AGENT "/usr/lib/vmdiskcmp/vmdiskcmp-agent"
#define WORKDIR "/tmp/vmdiskcmp"
#define TAIL_MAX VDC_CTL_TAIL_MAX
#define LOG_MAX (64u * 1024u)
#define FIND_CONTROL_S 60
#define DEFAULT_STEP_S 300
#define DEFAULT_AGENT_S 3600
#define TERM_GRACE_S 10

static struct timespec t0;
static char logbuf[LOG_MAX];
static size_t loglen;

static double
since_start(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9;
}

/* runner_progress.h */
void
logmsg(const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    int n;

    n = snprintf(line, sizeof(line), "%8.2f ", since_start());
    va_start(ap, fmt);
    vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
    va_end(ap);
    fprintf(stderr, "vmdiskcmp-runner: %s\n", line);
    n = (int)strlen(line);
    if (loglen + (size_t)n + 1 < sizeof(logbuf)) {
        memcpy(logbuf + loglen, line, (size_t)n);
        loglen += (size_t)n;
        logbuf[loglen++] = '\n';
    }
}

static char *
xstrdup(const char *s)
{
    char *d = s ? strdup(s) : NULL;

    if (s && !d) {
        logmsg("out of memory");
        _exit(1);
    }
    return d;
}

/* keep the last TAIL_MAX bytes of a stream */
struct tail {
    char buf[TAIL_MAX];
    size_t len;
};

static void
tail_add(struct tail *t, const char *p, size_t n)
{
    if (n >= TAIL_MAX) {
        memcpy(t->buf, p + n - TAIL_MAX, TAIL_MAX);
        t->len = TAIL_MAX;
        return;
    }
    if (t->len + n > TAIL_MAX) {
        size_t drop = t->len + n - TAIL_MAX;

        memmove(t->buf, t->buf + drop, t->len - drop);
        t->len -= drop;
    }
    memcpy(t->buf + t->len, p, n);
    t->len += n;
}

/* Run argv (or fn when argv is NULL) in a child of its own process group,
 * its stdout and stderr into @tail (when given), for at most @timeout_s
 * seconds, then SIGTERM and, TERM_GRACE_S later, SIGKILL; with
 * @with_progress a pipe at its descriptor PROGRESS_FD feeds the progress
 * block.  Returns the exit status, 128+N for signal N, -2 on timeout
 * (child stopped), -1 if it could not start. */
static int
run_child(char *const argv[], int (*fn)(void *), void *arg, unsigned timeout_s, struct tail *tail,
          int with_progress)
{
    int pfd[2] = { -1, -1 }, gfd[2] = { -1, -1 };
    pid_t pid;
    int status = 0, timed_out = 0;
    double deadline = since_start() + timeout_s;
    char buf[TAIL_MAX];

    if (tail && pipe2(pfd, O_CLOEXEC) < 0)
        return -1;
    if (with_progress && pipe2(gfd, O_CLOEXEC) < 0)
        gfd[0] = gfd[1] = -1;  /* the agent runs without --progress-fd's reader */
    pid = fork();
    if (pid < 0) {
        if (tail) {
            close(pfd[0]);
            close(pfd[1]);
        }
        if (gfd[0] >= 0) {
            close(gfd[0]);
            close(gfd[1]);
        }
        return -1;
    }
    if (pid == 0) {
        setpgid(0, 0);
        if (tail) {
            dup2(pfd[1], 1);
            dup2(pfd[1], 2);
        }
        if (with_progress) {
            /* --progress-fd 3 was asked for: without a pipe, /dev/null */
            if (gfd[1] < 0)
                gfd[1] = open("/dev/null", O_WRONLY);
            if (gfd[1] == PROGRESS_FD)
                fcntl(gfd[1], F_SETFD, 0);  /* dup2 onto itself keeps O_CLOEXEC */
            else if (gfd[1] >= 0)
                dup2(gfd[1], PROGRESS_FD);
        }
        if (argv) {
            execvp(argv[0], argv);
            fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
            _exit(127);
        }
        _exit(fn(arg) == 0 ? 0 : 1);
    }
    setpgid(pid, pid);
    if (tail) {
        close(pfd[1]);
        fcntl(pfd[0], F_SETFL, O_NONBLOCK);
    }
    if (gfd[0] >= 0) {
        close(gfd[1]);
        fcntl(gfd[0], F_SETFL, O_NONBLOCK);
        progress.len = 0;
    }
    for (;;) {
        pid_t w = waitpid(pid, &status, WNOHANG);

        if (tail) {
            ssize_t r;

            while ((r = read(pfd[0], buf, sizeof(buf))) > 0)
                tail_add(tail, buf, (size_t)r);
        }
        if (gfd[0] >= 0) {
            ssize_t r;

            while ((r = read(gfd[0], buf, sizeof(buf))) > 0)
                progress_feed(buf, (size_t)r);
        }
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR)
            break;
        if (timed_out == 0 && since_start() > deadline) {
            kill(-pid, SIGTERM);
            kill(pid, SIGTERM);
            timed_out = 1;
        } else if (timed_out == 1 && since_start() > deadline + TERM_GRACE_S) {
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            timed_out = 2;
        }
        progress_tick();
        usleep(50 * 1000);
    }
    if (tail)
        close(pfd[0]);
    if (gfd[0] >= 0)
        close(gfd[0]);
    if (timed_out)
        return -2;
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return -1;
}

/* ---- early setup ---------------------------------------------------------------- */
static void
ensure_mount(const char *src, const char *dir, const char *type, const char *opts)
{
    struct stat a, b;
    char parent[256];

    snprintf(parent, sizeof(parent), "%s/..", dir);
    if (stat(dir, &a) == 0 && stat(parent, &b) == 0 && a.st_dev != b.st_dev)
        return;    /* already a mount point */
    mkdir(dir, 0755);
    if (mount(src, dir, type, 0, opts) < 0 && errno != EBUSY)
        logmsg("mount %s on %s: %s", type, dir, strerror(errno));
}

static void
setup(void)
{
    ensure_mount("proc", "/proc", "proc", NULL);
    ensure_mount("sysfs", "/sys", "sysfs", NULL);
    ensure_mount("devtmpfs", "/dev", "devtmpfs", NULL);
    if (mkdir(WORKDIR, 0700) < 0 && errno != EEXIST) {
        ensure_mount("tmpfs", "/tmp", "tmpfs", "mode=1777");
        if (mkdir(WORKDIR, 0700) < 0 && errno != EEXIST)
            logmsg("mkdir %s: %s", WORKDIR, strerror(errno));
    }
    setenv("PATH", "/usr/sbin:/usr/bin:/sbin:/bin", 1);
}

/* the control disk is attached last: of the disks carrying the magic, take
 * the one named last in attachment order (shorter names first: vdz < vdaa) */
static int
later_disk(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);

    return la != lb ? la > lb : strcmp(a, b) > 0;
}

static int
find_control(char *path, size_t len)
{
    double deadline = since_start() + FIND_CONTROL_S;
    char best[256] = "", node[300];

    do {
        DIR *d = opendir("/sys/block");
        struct dirent *e;

        while (d && (e = readdir(d))) {
            int fd, r;

            if (e->d_name[0] == '.' || !strncmp(e->d_name, "loop", 4) ||
                !strncmp(e->d_name, "ram", 3))
                continue;
            if (vdc_disk_node(e->d_name, node, sizeof(node)) < 0)
                continue;
            fd = open(node, O_RDONLY | O_CLOEXEC);
            if (fd < 0)
                continue;
            r = vdc_ctl_disk_probe(fd);
            close(fd);
            if (r == 1 && (!best[0] || later_disk(e->d_name, best)))
                snprintf(best, sizeof(best), "%s", e->d_name);
        }
        if (d)
            closedir(d);
        if (best[0]) {
            snprintf(path, len, "/dev/%s", best);
            return 0;
        }
        sleep(1);
    } while (since_start() < deadline);
    return -1;
}

/* The disk the host names @vdev (vdc_disk_find), waiting up to
 * @timeout_s for a late one */
static int
wait_dev(const char *vdev, char *path, size_t len, unsigned timeout_s)
{
    double deadline = since_start() + timeout_s;

    for (;;) {
        if (vdc_disk_find(vdev, gate.ctl, path, len) == 1)
            return 0;
        if (since_start() > deadline)
            return -1;
        progress_tick();
        usleep(200 * 1000);
    }
}

/* ---- one target ------------------------------------------------------------------- */
struct mount_args {
    const char *dev, *dir, *type, *opts;
};

static int
do_mount(void *p)
{
    struct mount_args *m = p;

    if (mount(m->dev, m->dir, m->type, 0, m->opts) < 0) {
        fprintf(stderr, "mount %s on %s: %s\n", m->dev, m->dir, strerror(errno));
        return -1;
    }
    return 0;
}

static int
do_umount(void *p)
{
    struct mount_args *m = p;

    if (umount(m->dir) < 0) {
        fprintf(stderr, "umount %s: %s\n", m->dir, strerror(errno));
        return -1;
    }
    return 0;
}

static int
do_sync_drop(void *p)
{
    int fd;

    sync();
    fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
    if (fd < 0 || write(fd, "3\n", 2) != 2) {
        fprintf(stderr, "drop_caches: %s\n", strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    return 0;
}

static void
set_error(struct vdc_ctl_target_result *tr, uint32_t status, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    logmsg("%s: %s", tr->name, msg);
    if (tr->error)
        return;     /* the first failing step or pass names the target's error */
    tr->status = status;
    tr->error = xstrdup(msg);
}

static int
step_status(int r)
{
    return r == -2 ? VDC_CTL_STATUS_TIMEOUT : VDC_CTL_STATUS_FAILED;
}

/* The filesystem on @dev (mounted on @dir) and the disk it is on, as this
 * guest sees them, into @tr (fsunits.h): its block size and stripe from
 * its superblock (or statfs), the disk's I/O sizes from sysfs.  What
 * cannot be read stays 0 and is logged; the host then records no
 * filesystem layer. */
static void
read_fs_facts(const char *dev, const char *dir, struct vdc_ctl_target_result *tr)
{
    const char *name = strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev;
    struct vdc_fs_units u;
    struct vdc_disk_limits q;

    if (vdc_fs_units_read(dev, dir, &u) == 0) {
        tr->fs_block = u.block;
        tr->fs_stripe = u.stripe;
        tr->fs_source = xstrdup(u.source);
        logmsg("%s: filesystem block %llu, stripe %llu bytes (%s)", tr->name,
               (unsigned long long)u.block, (unsigned long long)u.stripe, u.source);
    } else {
        logmsg("%s: the filesystem's block size on %s could not be read", tr->name, dev);
    }
    if (vdc_disk_limits_read("/sys/block", name, &q) == 0) {
        tr->disk = xstrdup(name);
        tr->disk_physical_block_size = q.physical_block_size;
        tr->disk_minimum_io_size = q.minimum_io_size;
        tr->disk_optimal_io_size = q.optimal_io_size;
        tr->disk_alignment_offset = q.alignment_offset;
    } else {
        logmsg("%s: no /sys/block/%s/queue: the disk's I/O sizes not read", tr->name, name);
    }
}

/* the agent's JSON file @path into *@out (*@len bytes), when it wrote one
 * of at most VDC_CTL_MAX_BLOB bytes (the most the control disk carries per
 * pass); the file is removed (the guest's /tmp is its RAM).  Returns the
 * file's size: above VDC_CTL_MAX_BLOB nothing was read. */
static long long
read_json(const char *path, char **out, size_t *len)
{
    struct stat st;
    long long size = 0;
    FILE *f = fopen(path, "re");

    if (!f)
        return 0;
    if (fstat(fileno(f), &st) == 0)
        size = (long long)st.st_size;
    if (size > 0 && size <= (long long)VDC_CTL_MAX_BLOB) {
        *out = malloc((size_t)size + 1);
        if (*out) {
            *len = fread(*out, 1, (size_t)size, f);
            (*out)[*len] = 0;
        }
    }
    fclose(f);
    unlink(path);
    return size;
}

/* The job's workloads as files WORKDIR/jobs/NAME.fio; their paths in
 * @paths (job->n_workloads entries, freed by the caller).  0, or -1 after
 * a log line. */
static int
write_workloads(const struct vdc_ctl_job *job, char **paths)
{
    size_t i, len;
    FILE *f;

    if (job->n_workloads && mkdir(WORKDIR "/jobs", 0700) < 0 && errno != EEXIST) {
        logmsg("mkdir %s/jobs: %s", WORKDIR, strerror(errno));
        return -1;
    }
    for (i = 0; i < job->n_workloads; i++) {
        len = strlen(WORKDIR "/jobs/") + strlen(job->workloads[i].name) + sizeof(".fio");
        paths[i] = malloc(len);
        if (!paths[i]) {
            logmsg("out of memory");
            return -1;
        }
        snprintf(paths[i], len, WORKDIR "/jobs/%s.fio", job->workloads[i].name);
        f = fopen(paths[i], "we");
        if (!f) {
            logmsg("workload %s: cannot create %s: %s", job->workloads[i].name, paths[i],
                   strerror(errno));
            return -1;
        }
        if ((fputs(job->workloads[i].text, f) < 0) | (fclose(f) != 0)) {
            logmsg("workload %s: cannot write %s: %s", job->workloads[i].name, paths[i],
                   strerror(errno));
            return -1;
        }
    }
    return 0;
}

/* One agent pass (@cmd, named @pass in messages) of the target of @tr:
 * its exit status into *@exit_status, its wall time into *@ms, its JSON
 * file @json into *@out.  Sets @tr's status and error on its failure when
 * no earlier step failed; returns the run_child status. */
static int
agent_pass(struct vdc_jobcmd *cmd, const char *pass, unsigned agent_s, const char *json,
           struct tail *tail, struct vdc_ctl_target_result *tr, int32_t *exit_status,
           uint32_t *ms, char **out, size_t *out_len)
{
    struct timespec a, b;
    long long size;
    int r;

    unlink(json);
    if (progress.fd >= 0 && cmd->argc + 2 <= VDC_JOBCMD_MAX_WORDS) {
        cmd->argv[cmd->argc++] = (char *)"--progress-fd";
        cmd->argv[cmd->argc++] = (char *)"3";
        cmd->argv[cmd->argc] = NULL;
    }
    if (gate_pass() < 0) {
        logmsg("%s: agent %s pass not run: %s", tr->name, pass, gate.error);
        if (tr->status == VDC_CTL_STATUS_OK)
            set_error(tr, VDC_CTL_STATUS_TIMEOUT, "%s", gate.error);
        return -2;
    }
    logmsg("%s: agent %s pass start (timeout %u s)", tr->name, pass, agent_s);
    clock_gettime(CLOCK_MONOTONIC, &a);
    r = run_child(cmd->argv, NULL, NULL, agent_s, tail, progress.fd >= 0);
    clock_gettime(CLOCK_MONOTONIC, &b);
    *ms = (uint32_t)((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000);
    *exit_status = r == -2 ? 128 + SIGTERM : r;
    size = read_json(json, out, out_len);
    logmsg("%s: agent %s pass exit %d after %u ms, JSON %lld bytes", tr->name, pass, *exit_status,
           *ms, size);
    if (tr->status != VDC_CTL_STATUS_OK)
        return r;   /* the first failure names the target's error */
    if (size > (long long)VDC_CTL_MAX_BLOB)
        set_error(tr, VDC_CTL_STATUS_FAILED, "agent (%s) JSON of %lld bytes: expected at most %u "
                  "(8 MiB): not kept", pass, size, VDC_CTL_MAX_BLOB);
    else if (r == -2)
        set_error(tr, VDC_CTL_STATUS_TIMEOUT, "agent (%s) ran past %u s: stopped", pass, agent_s);
    else if (r != 0)
        set_error(tr, VDC_CTL_STATUS_FAILED, "agent (%s) exit status %d", pass, r);
    else if (!*out)
        set_error(tr, VDC_CTL_STATUS_FAILED, "agent (%s) wrote no JSON", pass);
    return r;
}

static void
run_target(const struct vdc_ctl_job *job, char *const *job_files, const struct vdc_ctl_target *t,
           struct vdc_ctl_target_result *tr)
{
    unsigned step = job->step_timeout_s ? job->step_timeout_s : DEFAULT_STEP_S;
    unsigned agent_s = job->agent_timeout_s ? job->agent_timeout_s : DEFAULT_AGENT_S;
    char dev[128], dir[256], json[300], wjson[320], rjson[320];
    int raw = (job->flags & VDC_CTL_JOB_RAW_WORKLOADS) && job->n_workloads;
    int file_wl = job->n_workloads && !(job->flags & VDC_CTL_JOB_NO_FILE_WORKLOADS);
    int need_fs = !(job->flags & VDC_CTL_JOB_NO_BONNIE) || file_wl;
    struct vdc_jobcmd *cmd = calloc(1, sizeof(*cmd));
    struct vdc_ctl_error err = { { 0 } };
    struct mount_args m;
    struct tail *tail = calloc(1, sizeof(*tail));
    int r;

    if (!tail || !cmd) {
        set_error(tr, VDC_CTL_STATUS_FAILED, "out of memory");
        free(cmd);
        free(tail);
        return;
    }
    if (wait_dev(t->vdev, dev, sizeof(dev), step) < 0) {
        if (!strncmp(t->vdev, "xvd", 3))
            set_error(tr, VDC_CTL_STATUS_FAILED, "/dev/%s did not appear within %u s", t->vdev, step);
        else
            set_error(tr, VDC_CTL_STATUS_FAILED, "/dev/%s did not appear within %u s (no disk with serial "
                      VDC_DISK_SERIAL_PREFIX "%s, nor one of that name without a serial)", t->vdev, step,
                      t->vdev);
        goto out;
    }
    snprintf(dir, sizeof(dir), WORKDIR "/%s", t->name);
    snprintf(json, sizeof(json), WORKDIR "/%s.json", t->name);
    snprintf(wjson, sizeof(wjson), WORKDIR "/%s.workloads.json", t->name);
    snprintf(rjson, sizeof(rjson), WORKDIR "/%s.raw-workloads.json", t->name);
    mkdir(dir, 0755);
    m = (struct mount_args){ dev, dir, t->mkfs_type, t->mount_options };

    /* the raw pass first: the jobs on the vdev itself, as a database on
     * the LV or the image's VBD sees it, before mkfs puts a filesystem
     * there; its arguments (consent included) are the host's */
    tr->status = VDC_CTL_STATUS_OK;
    progress_event(VDC_CTL_EV_TARGET_BEGIN, 0);
    if (raw) {
        if (job->flags & VDC_CTL_JOB_DROP_CACHES) {
            r = run_child(NULL, do_sync_drop, NULL, step, tail, 0);
            if (r != 0)
                logmsg("%s: sync/drop caches %s", t->name, r == -2 ? "timed out" : "failed");
        }
        if (vdc_jobcmd_workloads(cmd, AGENT, dev, t->name, job->seed, job->repetition, rjson,
                                 job->raw_workload_args, job->n_raw_workload_args, job_files,
                                 job->n_workloads, &err) < 0 ||
            vdc_jobcmd_add_words(cmd, t->pass_args, &err) < 0 ||
            vdc_jobcmd_add_words(cmd, t->raw_args, &err) < 0)
            set_error(tr, VDC_CTL_STATUS_FAILED, "%s", err.msg);
        else
            agent_pass(cmd, "raw workload", agent_s, rjson, tail, tr, &tr->raw_workload_exit,
                       &tr->raw_workload_elapsed_ms, &tr->raw_workload_json,
                       &tr->raw_workload_json_len);
    }
    if (!need_fs)
        goto end;

    /* exactly the mkfs the job asks for: the controller chose the options */
    if (!(job->flags & VDC_CTL_JOB_NO_MKFS)) {
        if (vdc_jobcmd_mkfs(cmd, t->mkfs_type, t->mkfs_options, dev, &err) < 0) {
            set_error(tr, VDC_CTL_STATUS_FAILED, "%s", err.msg);
            goto end;
        }
        logmsg("%s: %s on %s", t->name, cmd->argv[0], dev);
        r = run_child(cmd->argv, NULL, NULL, step, tail, 0);
        if (r != 0) {
            set_error(tr, step_status(r), "%s %s: %s", cmd->argv[0], dev,
                      r == -2 ? "timed out" : "failed (see stderr tail)");
            goto end;
        }
    }
    logmsg("%s: mount %s on %s", t->name, dev, dir);
    r = run_child(NULL, do_mount, &m, step, tail, 0);
    if (r != 0) {
        set_error(tr, step_status(r), "mount %s: %s", dev, r == -2 ? "timed out" : "failed");
        goto end;
    }
    read_fs_facts(dev, dir, tr);
    if (job->flags & VDC_CTL_JOB_DROP_CACHES) {
        r = run_child(NULL, do_sync_drop, NULL, step, tail, 0);
        if (r != 0)
            logmsg("%s: sync/drop caches %s", t->name, r == -2 ? "timed out" : "failed");
    }

    /* every pass runs even when an earlier one failed: each keeps what it
     * finished; the progress block's target window spans them all */
    if (!(job->flags & VDC_CTL_JOB_NO_BONNIE)) {
        if (vdc_jobcmd_agent(cmd, AGENT, dir, t->name, job->seed, job->repetition, json,
                             job->agent_args, job->n_agent_args, &err) < 0 ||
            vdc_jobcmd_add_words(cmd, t->pass_args, &err) < 0 ||
            vdc_jobcmd_add_words(cmd, t->fs_args, &err) < 0)
            set_error(tr, VDC_CTL_STATUS_FAILED, "%s", err.msg);
        else
            agent_pass(cmd, "bonnie", agent_s, json, tail, tr, &tr->agent_exit, &tr->elapsed_ms,
                       &tr->agent_json, &tr->agent_json_len);
    }
    if (file_wl) {
        if ((job->flags & VDC_CTL_JOB_DROP_CACHES) && !(job->flags & VDC_CTL_JOB_NO_BONNIE)) {
            r = run_child(NULL, do_sync_drop, NULL, step, tail, 0);
            if (r != 0)
                logmsg("%s: sync/drop caches %s", t->name, r == -2 ? "timed out" : "failed");
        }
        /* the target's fill goes with its first pass on the filesystem */
        if (vdc_jobcmd_workloads(cmd, AGENT, dir, t->name, job->seed, job->repetition, wjson,
                                 job->workload_args, job->n_workload_args, job_files,
                                 job->n_workloads, &err) < 0 ||
            vdc_jobcmd_add_words(cmd, t->pass_args, &err) < 0 ||
            vdc_jobcmd_add_words(cmd, (job->flags & VDC_CTL_JOB_NO_BONNIE) ? t->fs_args : NULL,
                                 &err) < 0)
            set_error(tr, VDC_CTL_STATUS_FAILED, "%s", err.msg);
        else
            agent_pass(cmd, "workload", agent_s, wjson, tail, tr, &tr->workload_exit,
                       &tr->workload_elapsed_ms, &tr->workload_json, &tr->workload_json_len);
    }
    r = run_child(NULL, do_umount, &m, step, tail, 0);
    if (r != 0)
        logmsg("%s: umount %s %s", t->name, dir, r == -2 ? "timed out" : "failed");
 end:
    progress_event(VDC_CTL_EV_TARGET_END, 0);
 out:
    if (tail->len) {
        tr->stderr_tail = malloc(tail->len);
        if (tr->stderr_tail) {
            memcpy(tr->stderr_tail, tail->buf, tail->len);
            tr->stderr_tail_len = tail->len;
        }
    }
    free(cmd);
    free(tail);
}

/* ---- result -------------------------------------------------------------------------- */
/* Target @idx's result into its slot, as soon as the target ends (a later
 * crash keeps it); then its answers are freed.  The slot holds any legal
 * answer (vdc_ctl_slot_size); should it not, the stderr tail goes, then
 * the answers, and the error says so.  0 or -1 after a log line. */
static int
write_slot(const char *ctl, size_t idx, uint64_t nonce, struct vdc_ctl_target_result *tr)
{
    struct vdc_ctl_error err = { { 0 } };
    char msg[300];
    int fd, r = -1, attempt;

    fd = open(ctl, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        logmsg("open %s for target %s's result: %s", ctl, tr->name, strerror(errno));
        return -1;
    }
    for (attempt = 0; attempt < 3; attempt++) {
        r = vdc_ctl_disk_write_target(fd, idx, nonce, tr, &err);
        if (r == 0)
            break;
        logmsg("write %s's result: %s", tr->name, err.msg);
        free(tr->stderr_tail);
        tr->stderr_tail = NULL;
        tr->stderr_tail_len = 0;
        if (attempt == 1) {
            snprintf(msg, sizeof(msg), "its result did not fit the control disk's slot: %.200s",
                     err.msg);
            free(tr->error);
            tr->error = xstrdup(msg);
            tr->status = VDC_CTL_STATUS_FAILED;
            free(tr->agent_json);
            free(tr->workload_json);
            free(tr->raw_workload_json);
            tr->agent_json = tr->workload_json = tr->raw_workload_json = NULL;
            tr->agent_json_len = tr->workload_json_len = tr->raw_workload_json_len = 0;
        }
    }
    close(fd);
    free(tr->agent_json);
    free(tr->workload_json);
    free(tr->raw_workload_json);
    free(tr->stderr_tail);
    tr->agent_json = tr->workload_json = tr->raw_workload_json = tr->stderr_tail = NULL;
    tr->agent_json_len = tr->workload_json_len = tr->raw_workload_json_len = 0;
    tr->stderr_tail_len = 0;
    return r;
}

/* the summary (status, versions, error, the log) last */
static int
write_summary(const char *ctl, struct vdc_ctl_result *res)
{
    struct vdc_ctl_error err = { { 0 } };
    int fd, r = -1, attempt;

    fd = open(ctl, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        logmsg("open %s for the result: %s", ctl, strerror(errno));
        return -1;
    }
    for (attempt = 0; attempt < 2; attempt++) {
        free(res->log);
        res->log = NULL;
        res->log_len = 0;
        if (attempt == 0 && loglen) {
            res->log = malloc(loglen);
            if (res->log) {
                memcpy(res->log, logbuf, loglen);
                res->log_len = loglen;
            }
        }
        r = vdc_ctl_disk_write_summary(fd, res, &err);
        if (r == 0)
            break;
        logmsg("write result: %s", err.msg);    /* too big: without the log */
    }
    close(fd);
    return r;
}

int
main(int argc, char **argv)
{
    struct vdc_ctl_job job;
    struct vdc_ctl_result res;
    struct vdc_ctl_error err = { { 0 } };
    struct utsname u;
    char ctl[300] = "";
    int poweroff = 1, fd, i;
    char *job_files[VDC_CTL_MAX_WORKLOADS] = { NULL };
    size_t k;

    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--version")) {
            printf("vmdiskcmp-runner %s\n%s\n", VDC_RUNNER_VERSION, VDC_LICENSE_NOTICE);
            return 0;
        } else if (!strcmp(argv[i], "--no-poweroff"))
            poweroff = 0;
        else if (!strcmp(argv[i], "--control") && i + 1 < argc)
            snprintf(ctl, sizeof(ctl), "%s", argv[++i]);
        else {
            fprintf(stderr, "vmdiskcmp-runner: unknown argument '%s': expected --no-poweroff, --control DEV or --version\n",
                    argv[i]);
            return 2;
        }
    }
    signal(SIGPIPE, SIG_IGN);
    vdc_ctl_job_init(&job);
    vdc_ctl_result_init(&res);
    logmsg("vmdiskcmp-runner %s start", VDC_RUNNER_VERSION);
    setup();
    if (!ctl[0] && find_control(ctl, sizeof(ctl)) < 0) {
        logmsg("no control disk found within %d s: nothing to do", FIND_CONTROL_S);
        goto off;
    }
    fd = open(ctl, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || vdc_ctl_disk_read_job(fd, &job, &err) < 0) {
        logmsg("control disk %s: %s", ctl, fd < 0 ? strerror(errno) : err.msg);
        if (fd >= 0)
            close(fd);
        goto off;
    }
    close(fd);
    if (job.flags & VDC_CTL_JOB_NO_POWEROFF)
        poweroff = 0;
    progress_open(ctl, job.nonce);
    gate.ctl = ctl;
    gate.nonce = job.nonce;
    gate.timeout_s = job.gate_timeout_s;
    logmsg("control disk %s: job %016llx, run %u, %zu targets", ctl,
           (unsigned long long)job.nonce, job.run_index, job.n_targets);
    res.nonce = job.nonce;
    res.runner_version = xstrdup(VDC_RUNNER_VERSION);
    if (uname(&u) == 0)
        res.kernel = xstrdup(u.release);
    res.status = VDC_CTL_STATUS_OK;
    if (write_workloads(&job, job_files) < 0) {
        res.status = VDC_CTL_STATUS_FAILED;
        res.error = xstrdup("cannot write the workloads' job files (see the log)");
        goto result;
    }
    for (k = 0; k < job.n_targets; k++) {
        struct vdc_ctl_target_result *tr =
            vdc_ctl_result_add_target(&res, job.targets[k].name, job.targets[k].vdev, &err);

        if (!tr) {
            logmsg("result: %s", err.msg);
            res.status = VDC_CTL_STATUS_FAILED;
            break;
        }
        progress.target = (uint16_t)k;
        run_target(&job, job_files, &job.targets[k], tr);
        if (write_slot(ctl, k, job.nonce, tr) < 0 && tr->status == VDC_CTL_STATUS_OK)
            tr->status = VDC_CTL_STATUS_FAILED;
        if (tr->status != VDC_CTL_STATUS_OK && res.status == VDC_CTL_STATUS_OK)
            res.status = tr->status;
    }
    if (res.status != VDC_CTL_STATUS_OK)
        res.error = xstrdup("one or more targets failed: see each target's error");
 result:
    logmsg("done: %s", vdc_ctl_status_name(res.status));
    if (progress.fd >= 0) {
        close(progress.fd);
        progress.fd = -1;
    }
    if (write_summary(ctl, &res) == 0)
        logmsg("result written to %s", ctl);
 off:
    for (k = 0; k < VDC_CTL_MAX_WORKLOADS; k++)
        free(job_files[k]);
    sync();
    vdc_ctl_result_dispose(&res);
    vdc_ctl_job_dispose(&job);
    if (poweroff) {
        logmsg("power off");
        reboot(RB_POWER_OFF);
        logmsg("power off failed: %s", strerror(errno));
        return 1;
    }
    return 0;
}
