/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: the job engine (see job.h).  Per job: check, digest,
 * lay out the files (directory target), numjobs worker threads each with
 * its own engine instance (set up in the worker thread, torn down on every
 * path), the main thread sampling per-second IOPS and checking steady
 * state, then the histograms merged into the result. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "job.h"
#include "randmap.h"

#ifndef BLKSSZGET
#define BLKSSZGET _IO(0x12, 104)
#endif
#define NS 1000000000ull
#define MAX_BUFFER_BYTES (1024ull << 20)
#define LAYOUT_CHUNK (1u << 20)

int agent_job_force_psync;

static uint64_t
now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * NS + (uint64_t)ts.tv_nsec;
}

/* Logical block size of the device holding @path (a block device itself,
 * or the disk of a file's filesystem through sysfs); 512 when unknown. */
static uint32_t
logical_block_size(const char *path, int is_blockdev)
{
    char sys[128], buf[32];
    struct stat st;
    int fd, v = 0;
    FILE *fp;

    if (is_blockdev) {
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            if (ioctl(fd, BLKSSZGET, &v) < 0)
                v = 0;
            close(fd);
        }
        return v > 0 ? (uint32_t)v : 512;
    }
    if (stat(path, &st) < 0)
        return 512;
    for (int up = 0; up < 2; up++) {
        snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/%squeue/"
                 "logical_block_size", major(st.st_dev), minor(st.st_dev),
                 up ? "../" : "");
        if ((fp = fopen(sys, "re"))) {
            if (fgets(buf, sizeof(buf), fp))
                v = atoi(buf);
            fclose(fp);
            if (v > 0)
                return (uint32_t)v;
        }
    }
    return 512;
}

int
agent_jobs_check(struct agent_job *jobs, size_t n, struct agent_job_target *t,
                 char *err, size_t errlen)
{
    uint64_t need_files = 0;

    t->logical_block_size = logical_block_size(t->path, t->is_blockdev);
    for (size_t i = 0; i < n; i++) {
        struct agent_job *j = &jobs[i];
        uint64_t lbs = t->logical_block_size, region;

        if (j->direct && j->bs % lbs)
            return agent_errf(err, errlen, "%s: [%s]: bs=%u: expected a multiple "
                        "of the logical block size of %s (%llu bytes) with "
                        "direct=1", j->source, j->name, j->bs, t->path,
                        (unsigned long long)lbs);
        if (j->direct && j->offset % lbs)
            return agent_errf(err, errlen, "%s: [%s]: offset=%llu: expected a "
                        "multiple of the logical block size of %s (%llu "
                        "bytes) with direct=1", j->source, j->name,
                        (unsigned long long)j->offset, t->path,
                        (unsigned long long)lbs);
        /* each clone's buffers are one mapping of whole huge pages */
        uint64_t clone_bytes = agent_buffers_span((uint64_t)j->bs * j->iodepth);
        if (clone_bytes * j->numjobs > MAX_BUFFER_BYTES)
            return agent_errf(err, errlen, "%s: [%s]: bs x iodepth x numjobs = "
                        "%llu MiB of buffers (each clone's rounded up to 2 MiB): "
                        "expected at most %llu MiB",
                        j->source, j->name,
                        (unsigned long long)(clone_bytes * j->numjobs >> 20),
                        (unsigned long long)(MAX_BUFFER_BYTES >> 20));
        if (t->is_blockdev) {
            if (j->offset >= t->dev_size)
                return agent_errf(err, errlen, "%s: [%s]: offset=%llu: expected "
                            "less than the size of %s (%llu bytes)", j->source,
                            j->name, (unsigned long long)j->offset, t->path,
                            (unsigned long long)t->dev_size);
            if (!j->size)
                j->size = t->dev_size - j->offset;
            if (j->size > t->dev_size - j->offset)
                return agent_errf(err, errlen, "%s: [%s]: offset=%llu + size=%llu "
                            "is past the end of %s (%llu bytes): expected at "
                            "most its size", j->source, j->name,
                            (unsigned long long)j->offset,
                            (unsigned long long)j->size, t->path,
                            (unsigned long long)t->dev_size);
        } else if (!j->size) {
            return agent_errf(err, errlen, "%s: [%s]: no size=: expected the size "
                        "of the job's file on %s", j->source, j->name,
                        t->path);
        }
        region = j->size - j->size % j->bs;
        if (region < j->bs)
            return agent_errf(err, errlen, "%s: [%s]: size=%llu: expected at least "
                        "bs=%u", j->source, j->name,
                        (unsigned long long)j->size, j->bs);
        j->size = region;
        if (!j->direct && !t->force && t->ram_mib
            && j->size * j->numjobs < (2 * t->ram_mib << 20))
            /* whole MiB as "N MiB", anything else in bytes */
            return agent_errf(err, errlen, "%s: [%s]: direct=0 with size=%llu%s "
                        "x numjobs=%u under twice the RAM (%llu MiB): the "
                        "page cache would be measured; expected direct=1, a "
                        "larger size, or -f", j->source, j->name,
                        (unsigned long long)(j->size % (1u << 20) ? j->size
                                                                 : j->size >> 20),
                        j->size % (1u << 20) ? " bytes" : " MiB", j->numjobs,
                        (unsigned long long)t->ram_mib);
        if (!t->is_blockdev
            && (j->offset + j->size) * j->numjobs > need_files)
            need_files = (j->offset + j->size) * j->numjobs;
    }
    if (!t->is_blockdev && need_files) {
        struct statvfs sv;

        if (statvfs(t->path, &sv) == 0
            && (uint64_t)sv.f_bavail * sv.f_frsize < need_files)
            return agent_errf(err, errlen, "-d %s: %llu MiB free: the largest job "
                        "needs %llu MiB of files: expected a smaller size= "
                        "or numjobs=", t->path,
                        (unsigned long long)((uint64_t)sv.f_bavail
                                             * sv.f_frsize >> 20),
                        (unsigned long long)(need_files >> 20));
    }
    return 0;
}

/* ---- the op sequence -------------------------------------------------- */

struct op_gen {
    const struct agent_job *job;
    struct agent_prng prng;
    uint64_t nblocks, cursor;
    int mapped;                     /* a random job with fio's random map */
    struct agent_randmap map;
};

static uint64_t
clone_seed(uint64_t seed, unsigned k)
{
    return seed ^ ((uint64_t)k * 0x9e3779b97f4a7c15ull);
}

/* 0, or -1 when the random map cannot be allocated (@g is then safe to
 * free). */
static int
op_gen_init(struct op_gen *g, const struct agent_job *job, uint64_t region,
            uint64_t seed, unsigned k)
{
    g->job = job;
    agent_prng_seed(&g->prng, clone_seed(seed, k));
    g->nblocks = region / job->bs;
    g->cursor = 0;
    g->mapped = agent_rw_random(job->rw) && !job->norandommap;
    if (!g->mapped) {
        memset(&g->map, 0, sizeof(g->map));
        return 0;
    }
    return agent_randmap_init(&g->map, g->nblocks);
}

/* The one line for a random map that cannot be allocated. */
static void
map_oom(const struct agent_job *job, char *err, size_t errlen)
{
    snprintf(err, errlen, "out of memory for the random map of %llu blocks: "
             "expected norandommap or a smaller size=",
             (unsigned long long)(job->size / job->bs));
}

static void
op_gen_free(struct op_gen *g)
{
    if (g->mapped)
        agent_randmap_free(&g->map);
    g->mapped = 0;
}

/* Next (direction, offset relative to the job's offset). */
static void
op_next(struct op_gen *g, int *ddir, uint64_t *off)
{
    const struct agent_job *j = g->job;
    uint64_t b;

    switch (j->rw) {
    case AGENT_RW_READ:
    case AGENT_RW_WRITE:
        *ddir = j->rw == AGENT_RW_WRITE;
        *off = g->cursor * j->bs;
        if (++g->cursor == g->nblocks)
            g->cursor = 0;
        return;
    case AGENT_RW_RANDRW:
        *ddir = agent_prng_below(&g->prng, 100) >= j->rwmixread;
        break;
    default:
        *ddir = j->rw == AGENT_RW_RANDWRITE;
    }
    b = agent_prng_below(&g->prng, g->nblocks);
    if (g->mapped)
        b = agent_randmap_take(&g->map, b);
    *off = b * j->bs;
}

int
agent_job_digest(const struct agent_job *job, uint64_t region, uint64_t seed,
                 uint64_t *digest)
{
    uint64_t h = agent_fnv1a64_str(AGENT_FNV1A64_INIT, "job");

    h = agent_fnv1a64_str(h, job->name);
    h = agent_fnv1a64_u64(h, (uint64_t)job->rw);
    h = agent_fnv1a64_u64(h, job->rwmixread);
    h = agent_fnv1a64_u64(h, job->bs);
    h = agent_fnv1a64_u64(h, job->iodepth);
    h = agent_fnv1a64_u64(h, job->numjobs);
    h = agent_fnv1a64_u64(h, (uint64_t)job->direct);
    h = agent_fnv1a64_u64(h, (uint64_t)job->norandommap);
    h = agent_fnv1a64_u64(h, region);
    h = agent_fnv1a64_u64(h, job->offset);
    for (unsigned k = 0; k < job->numjobs; k++) {
        struct op_gen g;

        if (op_gen_init(&g, job, region, seed, k) < 0) {
            op_gen_free(&g);
            return -1;
        }
        for (unsigned i = 0; i < AGENT_JOB_DIGEST_OPS; i++) {
            int d;
            uint64_t off;

            op_next(&g, &d, &off);
            h = agent_fnv1a64_u64(h, off | (uint64_t)d << 63);
        }
        op_gen_free(&g);
    }
    *digest = h;
    return 0;
}

/* ---- workers ------------------------------------------------------------ */

struct job_run;

struct worker_state {
    struct agent_worker w;
    struct job_run *run;
    struct op_gen gen;
    pthread_t thread;
    int started;
    uint64_t limit;                 /* counted I/Os to issue; 0 = no limit */
    uint64_t issued_counted;
    struct agent_hist clat[AGENT_DDIR_COUNT], slat[AGENT_DDIR_COUNT];
    uint64_t done[AGENT_DDIR_COUNT];    /* atomic: read by the sampler */
    uint64_t bytes[AGENT_DDIR_COUNT];
    uint64_t last_done_ns;
    uint64_t submit_calls, submitted;   /* commits and the I/Os they took */
    uint64_t reap_calls, reaped;        /* waits and the I/Os they reaped */
    int measured;                   /* the window started: ru0 taken */
    struct rusage ru0, ru1;         /* RUSAGE_THREAD of this worker */
    void *bufmem;                   /* the iodepth buffers, one region */
    size_t buflen;
    struct agent_io **freel;
    struct agent_io **pending;
    unsigned nfree;
    int failed;
    char error[AGENT_ERROR_LEN];
    char fallback[AGENT_ERROR_LEN];
};

struct job_run {
    const struct agent_job *job;
    uint64_t region_off;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    unsigned n_ready, n_finished;
    int go;
    int stop;                       /* atomic */
    uint64_t t0, ramp_end, end;     /* ns; end 0 = none */
};

static int
stopping(struct worker_state *ws, uint64_t now)
{
    struct job_run *run = ws->run;

    return ws->failed || agent_interrupted
           || __atomic_load_n(&run->stop, __ATOMIC_RELAXED)
           || (run->end && now >= run->end);
}

static void
worker_fail(struct worker_state *ws, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
worker_fail(struct worker_state *ws, const char *fmt, ...)
{
    va_list ap;

    if (ws->failed)
        return;
    va_start(ap, fmt);
    vsnprintf(ws->error, sizeof(ws->error), fmt, ap);
    va_end(ap);
    ws->failed = 1;
    __atomic_store_n(&ws->run->stop, 1, __ATOMIC_RELAXED);
}

static void
complete(struct worker_state *ws, struct agent_io *io, uint64_t t, int async)
{
    if (io->res != (int64_t)io->len) {
        if (io->res < 0)
            worker_fail(ws, "%s at offset %llu: %s",
                        io->ddir ? "write" : "read",
                        (unsigned long long)io->offset, strerror((int)-io->res));
        else
            worker_fail(ws, "short %s at offset %llu: %lld of %u bytes",
                        io->ddir ? "write" : "read",
                        (unsigned long long)io->offset, (long long)io->res,
                        io->len);
    } else if (io->counted) {
        int d = io->ddir;

        agent_hist_add(&ws->clat[d], t - io->issue_ns);
        if (async)
            agent_hist_add(&ws->slat[d], io->issue_ns - io->start_ns);
        ws->bytes[d] += io->len;
        __atomic_fetch_add(&ws->done[d], 1, __ATOMIC_RELAXED);
        ws->last_done_ns = t;
    }
    ws->freel[ws->nfree++] = io;
}

/* May another I/O be issued now?  Sets *measuring at the ramp's end (and
 * restarts a sequential job's cursor there). */
static int
may_issue(struct worker_state *ws, uint64_t now, int *measuring)
{
    if (!*measuring && now >= ws->run->ramp_end) {
        *measuring = 1;
        ws->gen.cursor = 0;
        ws->measured = !getrusage(RUSAGE_THREAD, &ws->ru0);
    }
    if (stopping(ws, now))
        return 0;
    return !*measuring || !ws->limit || ws->issued_counted < ws->limit;
}

/* fio's small_content_scramble (io_u.c, fio 3.33): in every 512-byte
 * block of a write, the block's byte offset at the start of one of its
 * eight 64-byte lines (chosen by start time XOR offset) and the start
 * time (seconds, nanoseconds) at the end of its first line, so no two
 * writes carry the same blocks (a deduplicating or compressing store
 * would otherwise see the few buffers the job cycles through). */
void
agent_job_scramble(struct agent_io *io)
{
    uint64_t boff = io->offset, sec = io->start_ns / NS, nsec = io->start_ns % NS;
    unsigned line = (unsigned)((nsec ^ boff) & 7);
    char *p = io->buf;

    /* memcpy: a buffer starts at index x bs, not always 8-byte aligned */
    for (uint32_t i = 0; i < io->len >> 9; i++, p += 512, boff += 512) {
        memcpy(p + (line << 6), &boff, sizeof(boff));
        memcpy(p + 64 - 2 * sizeof(uint64_t), &sec, sizeof(sec));
        memcpy(p + 64 - sizeof(uint64_t), &nsec, sizeof(nsec));
    }
}

static void
prep(struct worker_state *ws, struct agent_io *io, uint64_t now, int measuring)
{
    uint64_t off;

    op_next(&ws->gen, &io->ddir, &off);
    io->offset = ws->run->region_off + off;
    io->start_ns = now;
    if (io->ddir == AGENT_DDIR_WRITE && ws->w.job->scramble_buffers)
        agent_job_scramble(io);
    io->counted = measuring;
    io->res = 0;
    if (measuring)
        ws->issued_counted++;
}

static void
loop_sync(struct worker_state *ws)
{
    struct agent_worker *w = &ws->w;
    uint64_t now = now_ns();
    int measuring = 0;

    while (may_issue(ws, now, &measuring)) {
        struct agent_io *io = ws->freel[--ws->nfree];

        prep(ws, io, now, measuring);
        io->issue_ns = io->start_ns;
        w->ops->queue(w, io);
        now = now_ns();
        complete(ws, io, now, 0);
    }
}

/* Submit what is queued in the ring; 0, or -1 with the worker failed and
 * the units returned to the free list. */
static int
submit_queued(struct worker_state *ws, unsigned *queued, unsigned *inflight)
{
    struct agent_worker *w = &ws->w;
    uint64_t now;

    if (w->ops->commit(w) < 0) {
        worker_fail(ws, "io_uring_enter (submit): %s", strerror(errno));
        /* nothing was submitted: return the units */
        while (*queued)
            ws->freel[ws->nfree++] = ws->pending[--*queued];
        return -1;
    }
    now = now_ns();
    for (unsigned i = 0; i < *queued; i++)
        ws->pending[i]->issue_ns = now;
    ws->submit_calls++;
    ws->submitted += *queued;
    *inflight += *queued;
    *queued = 0;
    return 0;
}

/* fio's do_io for an asynchronous engine (backend.c, fio 3.33): one I/O
 * prepared and queued at a time (its start time read then, for slat);
 * the queue submitted when iodepth_batch_submit I/Os are queued or the
 * queue is full; only a full queue waits, for iodepth_batch_complete_min
 * completions (at least one), reaping at most iodepth_batch_complete_max.
 * With fio's defaults (1, 1, 1) every I/O is its own io_uring_enter and
 * each wait reaps one, as fio does. */
static void
loop_async(struct worker_state *ws)
{
    struct agent_worker *w = &ws->w;
    const struct agent_job *job = w->job;
    unsigned inflight = 0, queued = 0;
    int measuring = 0;

    for (;;) {
        uint64_t now = now_ns();
        unsigned min, max;
        int n;

        if (may_issue(ws, now, &measuring)) {
            struct agent_io *io = ws->freel[--ws->nfree];

            prep(ws, io, now, measuring);
            w->ops->queue(w, io);
            ws->pending[queued++] = io;
            if ((queued >= job->iodepth_batch_submit || inflight + queued >= w->depth)
                && submit_queued(ws, &queued, &inflight) < 0 && !inflight)
                return;
            if (inflight + queued < w->depth)
                continue;
            min = job->iodepth_batch_complete_min ? job->iodepth_batch_complete_min : 1;
            max = job->iodepth_batch_complete_max;
        } else {
            /* stopping: submit what is queued, then reap everything */
            if (queued && submit_queued(ws, &queued, &inflight) < 0 && !inflight)
                return;
            if (!inflight)
                return;
            min = max = inflight;
        }
        if (min > inflight)
            min = inflight;
        if (max > inflight)
            max = inflight;
        if (max < min)
            max = min;
        n = w->ops->getevents(w, min, max);
        if (n < 0) {
            /* the ring cannot be reaped: its units stay with the kernel
             * until cleanup closes the ring (buffers freed after that) */
            worker_fail(ws, "io_uring_enter (wait): %s", strerror(errno));
            return;
        }
        now = now_ns();
        for (int i = 0; i < n; i++)
            complete(ws, w->ops->event(w, (unsigned)i), now, 1);
        ws->reap_calls++;
        ws->reaped += (unsigned)n;
        inflight -= (unsigned)n;
    }
}

static void *
worker_main(void *arg)
{
    struct worker_state *ws = arg;
    struct agent_worker *w = &ws->w;
    struct job_run *run = ws->run;
    char err[AGENT_ERROR_LEN];
    int rc;

    w->ops = w->job->ioengine == AGENT_ENGINE_PSYNC ? &agent_engine_psync
                                                     : &agent_engine_io_uring;
    w->depth = w->ops->sync ? 1 : w->job->iodepth;
    rc = w->ops->setup(w, err, sizeof(err));
    if (rc == AGENT_ENGINE_REFUSED) {
        snprintf(ws->fallback, sizeof(ws->fallback), "%s", err);
        w->ops = &agent_engine_psync;
        w->depth = 1;
        rc = w->ops->setup(w, err, sizeof(err));
    }
    if (rc != 0)
        worker_fail(ws, "%s", err);

    pthread_mutex_lock(&run->lock);
    run->n_ready++;
    pthread_cond_broadcast(&run->cond);
    while (!run->go)
        pthread_cond_wait(&run->cond, &run->lock);
    pthread_mutex_unlock(&run->lock);

    if (!ws->failed && !__atomic_load_n(&run->stop, __ATOMIC_RELAXED)) {
        if (w->ops->sync)
            loop_sync(ws);
        else
            loop_async(ws);
        if (ws->measured && getrusage(RUSAGE_THREAD, &ws->ru1) < 0)
            ws->measured = 0;
    }
    w->ops->cleanup(w);

    pthread_mutex_lock(&run->lock);
    run->n_finished++;
    pthread_cond_broadcast(&run->cond);
    pthread_mutex_unlock(&run->lock);
    return NULL;
}

/* ---- files -------------------------------------------------------------- */

/* Write the region [0, offset + size) of a new job file, so reads find
 * data and writes overwrite allocated blocks (fio lays out files for
 * reads).  Returns 0 or -1 with @err. */
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

/* The sampler wakes at least this often to notice the workers' end (ns). */
#define SAMPLE_SLACK_NS 20000000ull

static double
tv_s(struct timeval tv)
{
    return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

/* The main thread while the workers run: CPU at the window's start, one
 * IOPS sample a second, steady state, the stop conditions. */
static void
sample(struct job_run *run, struct worker_state *ws, unsigned n,
       struct agent_job_result *r, struct rusage *ru0)
{
    uint64_t prev[2] = { 0, 0 }, prev_ns = 0, tick = 0;
    int window = 0;

    getrusage(RUSAGE_SELF, ru0);
    for (;;) {
        uint64_t now = now_ns(), target, sum[2] = { 0, 0 };
        struct timespec ts;

        pthread_mutex_lock(&run->lock);
        int all_done = run->n_finished == n;
        pthread_mutex_unlock(&run->lock);
        /* A time-based job ends on a whole second of the window: the
         * workers and the tick of that second reach the clock together,
         * so the last interval counts when it lacks less than the
         * sampler's wake granularity (SAMPLE_SLACK_NS); a shorter
         * remainder is not a sample. */
        if (all_done && !(window && now + SAMPLE_SLACK_NS >= tick + NS))
            return;
        if (agent_interrupted)
            __atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
        if (!window && now >= run->ramp_end) {
            getrusage(RUSAGE_SELF, ru0);
            window = 1;
            prev_ns = tick = run->ramp_end;
        }
        if (window && (now >= tick + NS || all_done)) {
            double iops[2];

            if (all_done && run->end && now > run->end)
                now = run->end;     /* the I/O stopped there, not at the wake */

            for (unsigned k = 0; k < n; k++)
                for (int d = 0; d < 2; d++)
                    sum[d] += __atomic_load_n(&ws[k].done[d], __ATOMIC_RELAXED);
            for (int d = 0; d < 2; d++) {
                iops[d] = (double)(sum[d] - prev[d]) * 1e9
                          / (double)(now - prev_ns);
                prev[d] = sum[d];
            }
            prev_ns = now;
            tick += NS;
            sample_series(r, iops);
            if (check_steady(r) && r->ss.from_job)
                __atomic_store_n(&run->stop, 1, __ATOMIC_RELAXED);
            if (all_done)
                return;
        }
        target = window ? tick + NS : run->ramp_end;
        if (target > now + SAMPLE_SLACK_NS)
            target = now + SAMPLE_SLACK_NS;     /* notice the workers' end */
        ts.tv_sec = (time_t)(target / NS);
        ts.tv_nsec = (long)(target % NS);
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
    }
}

int
agent_job_run(const struct agent_job *job, const struct agent_job_target *t,
              uint64_t seed, int quiet, struct agent_job_result *r)
{
    unsigned n = job->numjobs, started = 0;
    struct worker_state *ws = calloc(n, sizeof(*ws));
    char (*paths)[4200] = calloc(n, sizeof(*paths));
    struct job_run run;
    struct agent_prng fill;
    struct rusage ru0, ru1;
    char err[AGENT_ERROR_LEN] = "";
    uint64_t last = 0;
    int flags;

    memset(&run, 0, sizeof(run));
    run.job = job;
    pthread_mutex_init(&run.lock, NULL);
    pthread_cond_init(&run.cond, NULL);
    if (job->randseed_given)
        seed = job->randseed;
    r->logical_block_size = t->logical_block_size;
    /* what the job's clones use, also when it stops before they start */
    r->buffer_bytes = (uint64_t)job->bs * job->iodepth * job->numjobs;
    r->ss.from_job = job->ss_given;
    r->ss.limit = job->ss_given ? job->ss_limit : AGENT_SS_DEFAULT_LIMIT;
    r->ss.percent = job->ss_given ? job->ss_percent : 1;
    r->ss.dur_s = job->ss_given ? (double)(job->ss_dur_ms / 1000)
                                : AGENT_SS_DEFAULT_DUR_S;
    r->ss.ramp_s = job->ss_given ? (double)job->ss_ramp_ms / 1e3 : 0;
    agent_prng_seed(&fill, seed ^ 0x66696c6c62756673ull);   /* "fillbufs" */
    if (!ws || !paths) {
        snprintf(err, sizeof(err), "out of memory for %u workers", n);
        goto out;
    }
    /* a directory target's files are laid out first: always read-write */
    flags = O_CLOEXEC | (job->direct ? O_DIRECT : 0)
            | (agent_rw_writes(job->rw) || !t->is_blockdev ? O_RDWR : O_RDONLY);
    run.region_off = job->offset;
    for (unsigned k = 0; k < n; k++)
        ws[k].w.fd = -1;
    if (agent_job_digest(job, job->size, seed, &r->digest) < 0) {
        map_oom(job, err, sizeof(err));
        goto out;
    }
    for (unsigned k = 0; k < n; k++) {
        struct worker_state *s = &ws[k];

        s->w.job = job;
        s->w.index = k;
        s->run = &run;
        if (op_gen_init(&s->gen, job, job->size, seed, k) < 0) {
            map_oom(job, err, sizeof(err));
            goto out;
        }
        s->limit = job->time_based ? 0 : job->size / job->bs;
        for (int d = 0; d < AGENT_DDIR_COUNT; d++) {
            agent_hist_init(&s->clat[d]);
            agent_hist_init(&s->slat[d]);
        }
        s->w.ios = calloc(job->iodepth, sizeof(*s->w.ios));
        s->freel = calloc(job->iodepth, sizeof(*s->freel));
        s->pending = calloc(job->iodepth, sizeof(*s->pending));
        if (!s->w.ios || !s->freel || !s->pending) {
            snprintf(err, sizeof(err), "out of memory for iodepth %u",
                     job->iodepth);
            goto out;
        }
        /* The iodepth buffers: one region of iodepth x bs, cut into
         * consecutive buffers as fio's init_io_u_buffers (backend.c, fio
         * 3.33), written (random data) only when the job writes.  fio
         * mallocs it; the agent maps it in transparent huge pages where
         * the kernel has them (agent_buffers_alloc), so that how many
         * segments a large O_DIRECT request has, and whether the block
         * layer must split it (io_uring then punts it to a worker thread),
         * does not depend on how fragmented memory is (doc/agent.md,
         * Buffers). */
        s->buflen = (size_t)job->iodepth * job->bs;
        if ((size_t)job->iodepth > SIZE_MAX / job->bs
            || !(s->bufmem = agent_buffers_alloc(s->buflen))) {
            snprintf(err, sizeof(err), "out of memory for %u buffers of "
                     "%u bytes", job->iodepth, job->bs);
            goto out;
        }
        if (agent_rw_writes(job->rw)) {
            uint64_t *b = s->bufmem;

            for (size_t q = 0; q < s->buflen / 8; q++)
                b[q] = agent_prng_next(&fill);
        }
        for (unsigned i = 0; i < job->iodepth; i++) {
            struct agent_io *io = &s->w.ios[i];
            char *b = (char *)s->bufmem + (size_t)i * job->bs;

            io->buf = b;
            io->len = job->bs;
            io->index = i;
            s->freel[s->nfree++] = io;
        }
        if (t->is_blockdev) {
            snprintf(paths[k], sizeof(paths[k]), "%s", t->path);
            s->w.fd = open(t->path, flags);
        } else {
            snprintf(paths[k], sizeof(paths[k]), "%s/%s.%u.0", t->path,
                     job->name, k);
            s->w.fd = open(paths[k], flags | O_CREAT | O_EXCL, 0600);
        }
        if (s->w.fd < 0) {
            snprintf(err, sizeof(err), "open %s: %s", paths[k],
                     strerror(errno));
            if (!t->is_blockdev)
                paths[k][0] = '\0';     /* not ours: never unlink it */
            goto out;
        }
        if (!t->is_blockdev) {
            agent_progress(quiet, "%s: laying out %s ...\n", job->name,
                           paths[k]);
            if (layout(s->w.fd, paths[k], job->offset + job->size, &fill,
                       err, sizeof(err)) < 0)
                goto out;
        }
    }

    agent_progress(quiet, "%s: %s, %u job%s, iodepth %u ...", job->name,
                   agent_rw_name(job->rw), n, n > 1 ? "s" : "", job->iodepth);
    for (started = 0; started < n; started++) {
        int e = pthread_create(&ws[started].thread, NULL, worker_main,
                               &ws[started]);

        if (e != 0) {   /* pthread_create returns its error, errno untouched */
            snprintf(err, sizeof(err), "pthread_create: %s", strerror(e));
            __atomic_store_n(&run.stop, 1, __ATOMIC_RELAXED);
            break;
        }
        ws[started].started = 1;
    }
    pthread_mutex_lock(&run.lock);
    while (run.n_ready < started)
        pthread_cond_wait(&run.cond, &run.lock);
    for (unsigned k = 0; k < started; k++)
        if (ws[k].failed)
            run.stop = 1;
    run.t0 = now_ns();
    run.ramp_end = run.t0 + job->ramp_ms * 1000000ull;
    run.end = job->runtime_ms ? run.ramp_end + job->runtime_ms * 1000000ull : 0;
    run.go = 1;
    pthread_cond_broadcast(&run.cond);
    pthread_mutex_unlock(&run.lock);

    sample(&run, ws, started, r, &ru0);
    for (unsigned k = 0; k < started; k++)
        pthread_join(ws[k].thread, NULL);
    getrusage(RUSAGE_SELF, &ru1);
    agent_progress(quiet, " done\n");

    r->user_s = tv_s(ru1.ru_utime) - tv_s(ru0.ru_utime);
    r->system_s = tv_s(ru1.ru_stime) - tv_s(ru0.ru_stime);
    /* huge pages: known only when every clone's mapping was read back */
    r->buffer_huge_kib = started == n ? 0 : -1;
    for (unsigned k = 0; k < started; k++) {
        struct worker_state *s = &ws[k];

        for (int d = 0; d < AGENT_DDIR_COUNT; d++) {
            agent_hist_merge(&r->d[d].clat, &s->clat[d]);
            agent_hist_merge(&r->d[d].slat, &s->slat[d]);
            r->d[d].ios += s->done[d];
            r->d[d].bytes += s->bytes[d];
        }
        if (s->measured) {
            r->thread_user_s += tv_s(s->ru1.ru_utime) - tv_s(s->ru0.ru_utime);
            r->thread_system_s += tv_s(s->ru1.ru_stime)
                                  - tv_s(s->ru0.ru_stime);
        }
        if (s->bufmem && r->buffer_huge_kib >= 0) {
            long long h = agent_huge_kib(s->bufmem);

            r->buffer_huge_kib = h < 0 ? -1 : r->buffer_huge_kib + h;
        }
        r->submit_calls += s->submit_calls;
        r->submitted += s->submitted;
        r->reap_calls += s->reap_calls;
        r->reaped += s->reaped;
        if (s->last_done_ns > last)
            last = s->last_done_ns;
        if (s->fallback[0] && !r->fallback[0]) {
            snprintf(r->fallback, sizeof(r->fallback), "%s", s->fallback);
            r->engine = AGENT_ENGINE_PSYNC;
            r->iodepth_effective = 1;
        }
        if (s->w.ops == &agent_engine_psync)
            r->iodepth_effective = 1;
        if (!k) {
            r->uring_setup_flags = s->w.uring_setup_flags;
            r->uring_nonvectored = s->w.uring_nonvectored;
        }
        if (s->failed && !err[0])
            snprintf(err, sizeof(err), "%s", s->error);
    }
    r->elapsed_s = last > run.ramp_end ? (double)(last - run.ramp_end) / 1e9 : 0;
    if (!err[0] && agent_interrupted)
        snprintf(err, sizeof(err), "interrupted");

 out:
    if (ws) {
        for (unsigned k = 0; k < n; k++) {
            struct worker_state *s = &ws[k];

            if (s->w.fd >= 0) {
                close(s->w.fd);
                if (!t->is_blockdev && paths[k][0])
                    unlink(paths[k]);
            }
            agent_buffers_free(s->bufmem, s->buflen);
            free(s->w.ios);
            free(s->freel);
            free(s->pending);
            op_gen_free(&s->gen);
        }
    }
    free(ws);
    free(paths);
    pthread_mutex_destroy(&run.lock);
    pthread_cond_destroy(&run.cond);
    if (err[0]) {
        r->state = AGENT_FAILED;
        snprintf(r->error, sizeof(r->error), "%s", err);
        return -1;
    }
    r->state = AGENT_DONE;
    return 0;
}

/* ---- main's hooks ------------------------------------------------------- */

static void
target_of(const struct agent_config *cfg, struct agent_job_target *t)
{
    memset(t, 0, sizeof(*t));
    t->path = cfg->target_path;
    t->is_blockdev = cfg->target_is_blockdev;
    t->dev_size = cfg->target_size;
    t->ram_mib = cfg->ram_mib;
    t->force = cfg->force;
}

int
agent_jobs_load(struct agent_config *cfg, char *err, size_t errlen)
{
    if (!cfg->n_job_files)
        return 0;
    cfg->jobs = calloc(cfg->n_job_files, sizeof(*cfg->jobs));
    if (!cfg->jobs)
        return agent_errf(err, errlen, "--job: out of memory");
    for (size_t i = 0; i < cfg->n_job_files; i++)
        if (agent_jobfile_load(cfg->job_files[i], &cfg->jobs[i], err,
                               errlen) < 0)
            return -1;
    return 0;
}

int
agent_jobs_prepare(struct agent_config *cfg, char *err, size_t errlen)
{
    struct agent_job_target t;

    target_of(cfg, &t);
    return agent_jobs_check(cfg->jobs, cfg->n_job_files, &t, err, errlen);
}

int
agent_jobs_run_all(struct agent_ctx *ctx)
{
    const struct agent_config *cfg = ctx->cfg;
    struct agent_run *run = ctx->run;
    struct agent_job_target t;

    target_of(cfg, &t);
    t.logical_block_size = logical_block_size(t.path, t.is_blockdev);
    run->jobs = calloc(cfg->n_job_files, sizeof(*run->jobs));
    if (!run->jobs) {
        run->failed = 1;
        snprintf(run->error, sizeof(run->error), "--job: out of memory");
        agent_msg("%s", run->error);
        return -1;
    }
    for (size_t i = 0; i < cfg->n_job_files; i++) {
        struct agent_job_result *r = agent_job_result_new(&cfg->jobs[i]);

        if (!r) {
            run->failed = 1;
            snprintf(run->error, sizeof(run->error), "%s: out of memory",
                     cfg->jobs[i].name);
            agent_msg("%s", run->error);
            return -1;
        }
        run->jobs[run->n_jobs++] = r;
        r->on_blockdev = t.is_blockdev;
        if (agent_interrupted) {
            r->state = AGENT_FAILED;
            snprintf(r->error, sizeof(r->error), "interrupted");
        } else {
            agent_job_run(&cfg->jobs[i], &t, run->seed, cfg->quiet, r);
        }
        agent_digest_u64(ctx, r->digest);
        if (r->fallback[0])
            agent_msg("%s: io_uring not used (%s): ran psync, iodepth 1",
                      r->job.name, r->fallback);
        if (r->state == AGENT_FAILED) {
            run->failed = 1;
            snprintf(run->error, sizeof(run->error), "%.63s: %.190s",
                     r->job.name, r->error);
            agent_progress(cfg->quiet, "\n");
            agent_msg("%s", run->error);
            return -1;
        }
    }
    return 0;
}

void
agent_run_free_jobs(struct agent_run *run)
{
    for (size_t i = 0; i < run->n_jobs; i++)
        agent_job_result_free(run->jobs[i]);
    free(run->jobs);
    run->jobs = NULL;
    run->n_jobs = 0;
}
