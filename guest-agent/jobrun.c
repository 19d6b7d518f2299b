/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: one job run (see job.h): the digest, the job's files
 * laid out (directory target), numjobs clones started together (processes,
 * or threads with thread=1: jobclone.h), the parent sampling per-second
 * IOPS and checking steady state while they work, then the clones'
 * results merged as fio's group_reporting merges them (stat.c
 * sum_thread_stats: I/Os and histograms added, the window the longest
 * clone's). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jobclone.h"

#define NS 1000000000ull
#define LAYOUT_CHUNK (1u << 20)
/* The sampler wakes at least this often to notice the clones' end (ns). */
#define SAMPLE_SLACK_NS 20000000ull

static double
tv_s(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* ---- files -------------------------------------------------------------- */

/* Write the region [0, len) of a new job file, so reads find data and
 * writes overwrite allocated blocks (fio lays out files for reads).
 * Returns 0 or -1 with @err. */
static int
layout(int fd, const char *path, uint64_t len, struct agent_prng *fill,
       char *err, size_t errlen)
{
    uint64_t *buf = agent_aligned_alloc(LAYOUT_CHUNK);
    uint64_t done = 0;

    if (!buf)
        return agent_errf(err, errlen, "layout %s: out of memory", path);
    for (size_t i = 0; i < LAYOUT_CHUNK / 8; i++)
        buf[i] = agent_prng_next(fill);
    while (done < len && !agent_interrupted) {
        size_t n = len - done < LAYOUT_CHUNK ? (size_t)(len - done)
                                              : LAYOUT_CHUNK;
        ssize_t r = pwrite(fd, buf, n, (off_t)done);

        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            free(buf);
            return agent_errf(err, errlen, "layout %s: %s", path,
                        r < 0 ? strerror(errno) : "short write");
        }
        done += (uint64_t)r;
    }
    free(buf);
    if (agent_interrupted)
        return agent_errf(err, errlen, "interrupted");
    if (fsync(fd) < 0)
        return agent_errf(err, errlen, "fsync %s: %s", path, strerror(errno));
    return 0;
}

/* The job's files: on a block device every clone opens the device; in a
 * directory each clone creates JOB.k.0 (fio's name: subjob k) holding
 * offset + k x offset_increment + size bytes, or with filename= the
 * clones open one file of them all, created once.  A file is unlinked
 * afterwards only when this run created it (@paths[k] empty otherwise).
 * The null engine opens nothing.  0 or -1 with @err. */
static int
open_files(const struct agent_job *job, const struct agent_job_target *t,
           struct agent_clone *cl, char (*paths)[4200], uint64_t fill_seed,
           int quiet, char *err, size_t errlen)
{
    int flags = O_CLOEXEC | (job->direct ? O_DIRECT : 0)
                | (agent_rw_writes(job->rw) || !t->is_blockdev ? O_RDWR : O_RDONLY);
    struct agent_prng fill;

    agent_prng_seed(&fill, fill_seed);
    if (job->ioengine == AGENT_ENGINE_NULL)
        return 0;
    for (unsigned k = 0; k < job->numjobs; k++) {
        int shared_later = job->filename[0] && k > 0;
        const char *path = paths[k];
        uint64_t len;

        if (t->is_blockdev) {
            path = t->path;
            cl[k].fd = open(path, flags);
        } else {
            if (job->filename[0])
                snprintf(paths[k], sizeof(paths[k]), "%s/%s", t->path, job->filename);
            else
                snprintf(paths[k], sizeof(paths[k]), "%s/%s.%u.0", t->path,
                         job->name, k);
            cl[k].fd = open(path, flags | (shared_later ? 0 : O_CREAT | O_EXCL), 0600);
        }
        if (cl[k].fd < 0) {
            agent_errf(err, errlen, "open %s: %s", path, strerror(errno));
            if (!t->is_blockdev)
                paths[k][0] = '\0';     /* not ours: never unlink it */
            return -1;
        }
        if (t->is_blockdev || shared_later) {
            if (shared_later)
                paths[k][0] = '\0';     /* clone 0 unlinks it */
            continue;
        }
        len = job->filename[0] ? agent_job_region_end(job)
              : job->offset + (uint64_t)k * job->offset_increment + job->size;
        agent_progress(quiet, "%s: laying out %s ...\n", job->name, path);
        if (layout(cl[k].fd, path, len, &fill, err, errlen) < 0)
            return -1;
    }
    return 0;
}

/* ---- the sampler ---------------------------------------------------------- */

static void
sample_series(struct agent_job_result *r, const double iops[2])
{
    for (int d = 0; d < AGENT_DDIR_COUNT; d++) {
        struct agent_job_ddir *dd = &r->d[d];
        double *p = realloc(dd->series, (dd->n_series + 1) * sizeof(*p));

        if (!p)
            continue;   /* the series loses a point, the totals do not */
        dd->series = p;
        dd->series[dd->n_series++] = iops[d];
    }
}

/* fio steadystate_check(): the last dur_s samples (after ss_ramp) of both
 * directions together.  Returns 1 when attained. */
static int
check_steady(struct agent_job_result *r)
{
    size_t dur = (size_t)r->ss.dur_s, ramp = (size_t)(r->ss.ramp_s + 0.999);
    size_t n = r->d[0].n_series;
    double y[4096], slope, crit;

    if (r->ss.reached || dur < 2 || dur > sizeof(y) / sizeof(y[0])
        || r->d[1].n_series != n || n < ramp + dur)
        return 0;
    for (size_t i = 0; i < dur; i++)
        y[i] = r->d[0].series[n - dur + i] + r->d[1].series[n - dur + i];
    int hit = agent_ss_slope(y, dur, r->ss.percent, r->ss.limit, &slope, &crit);

    if (hit < 0)
        return 0;
    r->ss.slope = slope;
    r->ss.criterion = crit;
    if (hit) {
        r->ss.reached = 1;
        r->ss.at_s = (double)n;
    }
    return hit;
}

/* The started clones: threads or processes. */
struct clones {
    unsigned n;                     /* started */
    int process;
    pthread_t *threads;
    pid_t *pids;                    /* 0 once reaped */
    struct agent_job_sync *sync;
    struct agent_clone_out *out;
};

/* A process clone that ended: reaped; one that died before storing its
 * results is failed, naming how (a crash must not pass as an early end). */
static void
reaped(struct clones *cs, unsigned k, int status)
{
    struct agent_clone_out *o = &cs->out[k];

    cs->pids[k] = 0;
    if (o->finished)
        return;
    o->failed = 1;
    if (WIFSIGNALED(status))
        snprintf(o->error, sizeof(o->error), "clone %u: killed by signal %d", k,
                 WTERMSIG(status));
    else
        snprintf(o->error, sizeof(o->error), "clone %u: exited with status %d "
                 "before it ended", k, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    __atomic_store_n(&o->finished, 1, __ATOMIC_RELEASE);
    __atomic_fetch_add(&cs->sync->n_finished, 1, __ATOMIC_RELEASE);
    __atomic_store_n(&cs->sync->stop, 1, __ATOMIC_RELAXED);
}

/* Reap the process clones that ended (without waiting). */
static void
reap_ended(struct clones *cs)
{
    for (unsigned k = 0; cs->process && k < cs->n; k++) {
        int status;

        if (cs->pids[k] > 0 && waitpid(cs->pids[k], &status, WNOHANG) == cs->pids[k])
            reaped(cs, k, status);
    }
}

/* The parent while the clones work: CPU at the window's start, one IOPS
 * sample a second, steady state, the stop conditions. */
static void
sample(struct clones *cs, struct agent_job_result *r, struct rusage *ru0)
{
    struct agent_job_sync *sync = cs->sync;
    uint64_t prev[2] = { 0, 0 }, prev_ns = 0, tick = 0;
    int window = 0;

    getrusage(RUSAGE_SELF, ru0);
    for (;;) {
        uint64_t now = agent_now_ns(), target, sum[2] = { 0, 0 };
        struct timespec ts;

        reap_ended(cs);
        int all_done = __atomic_load_n(&sync->n_finished, __ATOMIC_ACQUIRE) >= cs->n;
        /* A time-based job ends on a whole second of the window: the
         * clones and the tick of that second reach the clock together,
         * so the last interval counts when it lacks less than the
         * sampler's wake granularity (SAMPLE_SLACK_NS); a shorter
         * remainder is not a sample. */
        if (all_done && !(window && now + SAMPLE_SLACK_NS >= tick + NS))
            return;
        if (agent_interrupted)
            __atomic_store_n(&sync->stop, 1, __ATOMIC_RELAXED);
        if (!window && now >= sync->ramp_end) {
            getrusage(RUSAGE_SELF, ru0);
            window = 1;
            prev_ns = tick = sync->ramp_end;
        }
        if (window && (now >= tick + NS || all_done)) {
            double iops[2];

            if (all_done && sync->end && now > sync->end)
                now = sync->end;    /* the I/O stopped there, not at the wake */
            for (unsigned k = 0; k < cs->n; k++)
                for (int d = 0; d < 2; d++)
                    sum[d] += __atomic_load_n(&cs->out[k].done[d], __ATOMIC_RELAXED);
            for (int d = 0; d < 2; d++) {
                iops[d] = (double)(sum[d] - prev[d]) * 1e9 / (double)(now - prev_ns);
                prev[d] = sum[d];
            }
            prev_ns = now;
            tick += NS;
            sample_series(r, iops);
            if (check_steady(r) && r->ss.from_job)
                __atomic_store_n(&sync->stop, 1, __ATOMIC_RELAXED);
            if (all_done)
                return;
        }
        target = window ? tick + NS : sync->ramp_end;
        if (target > now + SAMPLE_SLACK_NS)
            target = now + SAMPLE_SLACK_NS;     /* notice the clones' end */
        ts.tv_sec = (time_t)(target / NS);
        ts.tv_nsec = (long)(target % NS);
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    }
}

/* ---- starting the clones -------------------------------------------------- */

/* A process clone, as fio's (backend.c thread_main): a session of its own
 * (setsid: where the kernel groups scheduling by session, autogroup, the
 * clone is a group of its own, as each of fio's clones is); it dies with
 * the agent, runs, and exits without touching the parent's stdio or exit
 * handlers. */
static void
clone_process(struct agent_clone *c, int ready_rd, int go_wr, pid_t parent)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(1);
    setsid();
    close(ready_rd);
    close(go_wr);
    agent_clone_main(c);
    _exit(0);
}

/* Start every clone (as many as can be: cs->n); 0, or -1 with @err when
 * one could not be (those started are stopped by sync->stop). */
static int
start_clones(struct clones *cs, struct agent_clone *cl, unsigned n, int pipes[2][2],
             char *err, size_t errlen)
{
    pid_t parent = getpid();

    for (cs->n = 0; cs->n < n; cs->n++) {
        unsigned k = cs->n;
        int e;

        if (cs->process) {
            pid_t pid = fork();

            if (pid == 0)
                clone_process(&cl[k], pipes[0][0], pipes[1][1], parent);
            if (pid < 0) {
                agent_errf(err, errlen, "fork: %s", strerror(errno));
                break;
            }
            cs->pids[k] = pid;
        } else if ((e = pthread_create(&cs->threads[k], NULL, agent_clone_main, &cl[k]))) {
            /* pthread_create returns its error, errno untouched */
            agent_errf(err, errlen, "pthread_create: %s", strerror(e));
            break;
        }
    }
    if (cs->n < n) {
        __atomic_store_n(&cs->sync->stop, 1, __ATOMIC_RELAXED);
        return -1;
    }
    return 0;
}

/* Wait until every started clone is set up (or dead), then set the
 * window's times and let them go, together. */
static void
go_together(struct clones *cs, const struct agent_job *job, int ready_rd, int go_wr)
{
    unsigned ready = 0;

    while (ready < cs->n && !agent_interrupted) {
        struct pollfd p = { .fd = ready_rd, .events = POLLIN };
        char buf[64];

        if (poll(&p, 1, 20) > 0 && read(ready_rd, buf, sizeof(buf)) < 0 && errno != EINTR
            && errno != EAGAIN)
            break;
        reap_ended(cs);
        ready = 0;
        for (unsigned k = 0; k < cs->n; k++)
            if (__atomic_load_n(&cs->out[k].ready, __ATOMIC_ACQUIRE)
                || __atomic_load_n(&cs->out[k].finished, __ATOMIC_ACQUIRE))
                ready++;
    }
    for (unsigned k = 0; k < cs->n; k++)
        if (cs->out[k].failed)
            __atomic_store_n(&cs->sync->stop, 1, __ATOMIC_RELAXED);
    if (agent_interrupted)
        __atomic_store_n(&cs->sync->stop, 1, __ATOMIC_RELAXED);
    cs->sync->t0 = agent_now_ns();
    cs->sync->ramp_end = cs->sync->t0 + job->ramp_ms * 1000000ull;
    cs->sync->end = job->runtime_ms ? cs->sync->ramp_end + job->runtime_ms * 1000000ull : 0;
    for (unsigned k = 0; k < cs->n; k++) {
        char b = 'g';

        while (write(go_wr, &b, 1) < 0 && errno == EINTR)
            ;
    }
}

/* ---- one job -------------------------------------------------------------- */

/* The clones' results into @r: I/Os, bytes and histograms added, CPU
 * summed, the window from the ramp's end to the last counted completion
 * of any clone (fio's group runtime: the longest clone's). */
static void
merge(struct agent_job_result *r, const struct clones *cs, uint64_t ramp_end,
      char *err, size_t errlen)
{
    uint64_t last = 0;

    /* huge pages: known only when every clone's mapping was read back */
    r->buffer_huge_kib = cs->n == r->job.numjobs ? 0 : -1;
    for (unsigned k = 0; k < cs->n; k++) {
        const struct agent_clone_out *o = &cs->out[k];

        for (int d = 0; d < AGENT_DDIR_COUNT; d++) {
            agent_hist_merge(&r->d[d].clat, &o->clat[d]);
            agent_hist_merge(&r->d[d].slat, &o->slat[d]);
            r->d[d].ios += o->done[d];
            r->d[d].bytes += o->bytes[d];
        }
        if (o->measured) {
            r->thread_user_s += tv_s(o->thread1.ru_utime) - tv_s(o->thread0.ru_utime);
            r->thread_system_s += tv_s(o->thread1.ru_stime) - tv_s(o->thread0.ru_stime);
            if (cs->process) {  /* the process's other threads (io-wq) too */
                r->user_s += tv_s(o->self1.ru_utime) - tv_s(o->self0.ru_utime);
                r->system_s += tv_s(o->self1.ru_stime) - tv_s(o->self0.ru_stime);
            }
        }
        if (r->buffer_huge_kib >= 0)
            r->buffer_huge_kib = o->huge_kib < 0 ? -1 : r->buffer_huge_kib + o->huge_kib;
        r->submit_calls += o->submit_calls;
        r->submitted += o->submitted;
        r->reap_calls += o->reap_calls;
        r->reaped += o->reaped;
        if (o->last_done_ns > last)
            last = o->last_done_ns;
        if (o->fallback[0] && !r->fallback[0]) {
            snprintf(r->fallback, sizeof(r->fallback), "%s", o->fallback);
            r->engine = AGENT_ENGINE_PSYNC;
        }
        if (o->psync)
            r->iodepth_effective = 1;
        if (!k) {
            r->uring_setup_flags = o->uring_setup_flags;
            r->uring_nonvectored = o->uring_nonvectored;
        }
        if (o->failed && !err[0])
            snprintf(err, errlen, "%s", o->error);
    }
    r->elapsed_s = last > ramp_end ? (double)(last - ramp_end) / 1e9 : 0;
}

int
agent_job_run(const struct agent_job *job, const struct agent_job_target *t,
              uint64_t seed, int quiet, struct agent_job_result *r)
{
    unsigned n = job->numjobs;
    struct agent_clone *cl = calloc(n, sizeof(*cl));
    char (*paths)[4200] = calloc(n, sizeof(*paths));
    struct clones cs = { .process = !job->thread };
    size_t shared_len = sizeof(struct agent_job_sync) + n * sizeof(struct agent_clone_out);
    void *shared = MAP_FAILED;
    int pipes[2][2] = { { -1, -1 }, { -1, -1 } };   /* ready, go */
    uint64_t fill_seed = seed ^ 0x66696c6c62756673ull;  /* "fillbufs" */
    struct rusage ru0, ru1;
    char err[AGENT_ERROR_LEN] = "";

    r->logical_block_size = t->logical_block_size;
    /* what the job's clones use, also when it stops before they start */
    r->buffer_bytes = (uint64_t)job->bs * job->iodepth * job->numjobs;
    r->ss.from_job = job->ss_given;
    r->ss.limit = job->ss_given ? job->ss_limit : AGENT_SS_DEFAULT_LIMIT;
    r->ss.percent = job->ss_given ? job->ss_percent : 1;
    r->ss.dur_s = job->ss_given ? (double)(job->ss_dur_ms / 1000) : AGENT_SS_DEFAULT_DUR_S;
    r->ss.ramp_s = job->ss_given ? (double)job->ss_ramp_ms / 1e3 : 0;
    r->buffer_huge_kib = -1;
    for (unsigned k = 0; cl && k < n; k++)
        cl[k].fd = -1;
    if (!cl || !paths) {
        snprintf(err, sizeof(err), "out of memory for %u clones", n);
        goto out;
    }
    if (agent_job_digest(job, seed, &r->digest) < 0) {
        snprintf(err, sizeof(err), "out of memory for the random map of %llu blocks: "
                 "expected norandommap or a smaller size=",
                 (unsigned long long)(job->size / job->bs));
        goto out;
    }
    shared = mmap(NULL, shared_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    cs.pids = calloc(n, sizeof(*cs.pids));
    cs.threads = calloc(n, sizeof(*cs.threads));
    if (shared == MAP_FAILED || !cs.pids || !cs.threads) {
        snprintf(err, sizeof(err), "out of memory for %u clones' results", n);
        goto out;
    }
    cs.sync = shared;
    cs.out = (struct agent_clone_out *)(cs.sync + 1);
    if (pipe2(pipes[0], O_CLOEXEC) < 0 || pipe2(pipes[1], O_CLOEXEC) < 0) {
        snprintf(err, sizeof(err), "pipe: %s", strerror(errno));
        goto out;
    }
    cs.sync->ready_fd = pipes[0][1];
    cs.sync->go_fd = pipes[1][0];
    for (unsigned k = 0; k < n; k++) {
        struct agent_clone *c = &cl[k];

        c->job = job;
        c->index = k;
        c->process = cs.process;
        c->fill_seed = fill_seed ^ ((uint64_t)(k + 1) * 0x9e3779b97f4a7c15ull);
        c->sync = cs.sync;
        c->out = &cs.out[k];
        if (agent_jobgen_init(&c->gen, job, k, seed) < 0) {
            snprintf(err, sizeof(err), "out of memory for the random map of %llu "
                     "blocks: expected norandommap or a smaller size=",
                     (unsigned long long)(job->size / job->bs));
            goto out;
        }
    }
    if (open_files(job, t, cl, paths, fill_seed, quiet, err, sizeof(err)) < 0)
        goto out;

    agent_progress(quiet, "%s: %s, %u job%s (%s), iodepth %u ...", job->name,
                   agent_rw_name(job->rw), n, n > 1 ? "s" : "",
                   cs.process ? "processes" : "threads", job->iodepth);
    start_clones(&cs, cl, n, pipes, err, sizeof(err));
    go_together(&cs, job, pipes[0][0], pipes[1][1]);
    sample(&cs, r, &ru0);
    for (unsigned k = 0; k < cs.n; k++) {
        int status;

        if (!cs.process)
            pthread_join(cs.threads[k], NULL);
        else if (cs.pids[k] > 0) {
            while (waitpid(cs.pids[k], &status, 0) < 0 && errno == EINTR)
                ;
            reaped(&cs, k, status);
        }
    }
    getrusage(RUSAGE_SELF, &ru1);
    agent_progress(quiet, " done\n");
    /* the parent (sampler; in thread mode every clone and io_uring worker
     * too); process clones add their own below */
    r->user_s = tv_s(ru1.ru_utime) - tv_s(ru0.ru_utime);
    r->system_s = tv_s(ru1.ru_stime) - tv_s(ru0.ru_stime);
    merge(r, &cs, cs.sync->ramp_end, err, sizeof(err));
    if (!err[0] && agent_interrupted)
        snprintf(err, sizeof(err), "interrupted");

 out:
    for (unsigned k = 0; cl && k < n; k++) {
        if (cl[k].fd >= 0) {
            close(cl[k].fd);
            if (!t->is_blockdev && paths[k][0])
                unlink(paths[k]);
        }
        agent_jobgen_free(&cl[k].gen);
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            if (pipes[i][j] >= 0)
                close(pipes[i][j]);
    if (shared != MAP_FAILED)
        munmap(shared, shared_len);
    free(cs.pids);
    free(cs.threads);
    free(cl);
    free(paths);
    if (err[0]) {
        r->state = AGENT_FAILED;
        snprintf(r->error, sizeof(r->error), "%s", err);
        return -1;
    }
    r->state = AGENT_DONE;
    return 0;
}
