/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: one clone of a job (see jobclone.h): fio 3.33's
 * thread_main and do_io (backend.c) for the agent's engines. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jobclone.h"

#define NS 1000000000ull

int agent_job_force_psync;

/* One clone's private state while it runs. */
struct clone_run {
    struct agent_clone *c;
    struct agent_worker w;
    struct agent_job_sync *sync;
    struct agent_clone_out *out;
    uint64_t limit;                 /* I/Os to issue in all (not time-based:
                                     * size / bs, the ramp's included, as
                                     * fio's do_io bytes_issued); 0 = none */
    uint64_t issued;                /* all, the ramp's included */
    int measuring;                  /* the window started */
    int region_done;                /* the generator has no more I/Os */
    void *bufmem;
    size_t buflen;
    struct agent_io **freel, **pending;
    unsigned nfree;
};

static void
clone_fail(struct clone_run *cr, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
clone_fail(struct clone_run *cr, const char *fmt, ...)
{
    va_list ap;

    if (cr->out->failed)
        return;
    va_start(ap, fmt);
    vsnprintf(cr->out->error, sizeof(cr->out->error), fmt, ap);
    va_end(ap);
    cr->out->failed = 1;
    __atomic_store_n(&cr->sync->stop, 1, __ATOMIC_RELAXED);
}

static int
stopping(struct clone_run *cr, uint64_t now)
{
    return cr->out->failed || agent_interrupted
           || __atomic_load_n(&cr->sync->stop, __ATOMIC_RELAXED)
           || (cr->sync->end && now >= cr->sync->end);
}

/* One completed unit: counted when issued in the window (fio's
 * total_io_u counts what was issued after the ramp). */
static void
complete(struct clone_run *cr, struct agent_io *io, uint64_t t, int async)
{
    struct agent_clone_out *o = cr->out;

    if (io->res != (int64_t)io->len) {
        if (io->res < 0)
            clone_fail(cr, "%s at offset %llu: %s", io->ddir ? "write" : "read",
                       (unsigned long long)io->offset, strerror((int)-io->res));
        else
            clone_fail(cr, "short %s at offset %llu: %lld of %u bytes",
                       io->ddir ? "write" : "read", (unsigned long long)io->offset,
                       (long long)io->res, io->len);
    } else if (io->counted) {
        int d = io->ddir;

        agent_hist_add(&o->clat[d], t - io->issue_ns);
        if (async)
            agent_hist_add(&o->slat[d], io->issue_ns - io->start_ns);
        o->bytes[d] += io->len;
        __atomic_fetch_add(&o->done[d], 1, __ATOMIC_RELAXED);
        o->last_done_ns = t;
    }
    cr->freel[cr->nfree++] = io;
}

/* May another I/O be issued now?  Opens the window at the ramp's end: the
 * clone's CPU taken, the generator's issue counts zeroed as fio's
 * reset_all_stats (offsets carry on). */
static int
may_issue(struct clone_run *cr, uint64_t now)
{
    if (!cr->measuring && now >= cr->sync->ramp_end) {
        cr->measuring = 1;
        agent_jobgen_ramp_end(&cr->c->gen);
        cr->out->measured = !getrusage(RUSAGE_THREAD, &cr->out->thread0)
                            && !getrusage(RUSAGE_SELF, &cr->out->self0);
    }
    if (cr->region_done || stopping(cr, now))
        return 0;
    return !cr->limit || cr->issued < cr->limit;
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

/* Take a unit and give it the next I/O (fio's get_io_u): NULL when the
 * region is done. */
static struct agent_io *
prep(struct clone_run *cr, uint64_t now)
{
    struct agent_io *io = cr->freel[cr->nfree - 1];

    if (agent_jobgen_next(&cr->c->gen, &io->ddir, &io->offset) < 0) {
        cr->region_done = 1;
        return NULL;
    }
    cr->nfree--;
    io->start_ns = now;
    if (io->ddir == AGENT_DDIR_WRITE && cr->c->job->scramble_buffers)
        agent_job_scramble(io);     /* also for the null engine, as fio */
    io->counted = cr->measuring;
    io->res = 0;
    cr->issued++;
    return io;
}

/* A synchronous engine: each I/O done in queue(); clat from the clock
 * read just before it (fio's issue_time for FIO_SYNCIO engines). */
static void
loop_sync(struct clone_run *cr)
{
    struct agent_worker *w = &cr->w;
    uint64_t now = agent_now_ns();

    while (may_issue(cr, now)) {
        struct agent_io *io = prep(cr, now);

        if (!io)
            break;
        io->issue_ns = agent_now_ns();
        if (w->ops->queue(w, io) != AGENT_Q_COMPLETED) {
            clone_fail(cr, "%s: queue: %s", w->ops->name, strerror(errno));
            cr->freel[cr->nfree++] = io;
            return;
        }
        now = agent_now_ns();
        complete(cr, io, now, 0);
    }
}

/* Submit what is queued; 0, or -1 with the clone failed and the units
 * returned to the free list. */
static int
submit_queued(struct clone_run *cr, unsigned *queued, unsigned *inflight)
{
    struct agent_worker *w = &cr->w;
    uint64_t now;

    if (w->ops->commit(w) < 0) {
        clone_fail(cr, "%s: submit: %s", w->ops->name, strerror(errno));
        while (*queued)
            cr->freel[cr->nfree++] = cr->pending[--*queued];
        return -1;
    }
    now = agent_now_ns();
    for (unsigned i = 0; i < *queued; i++)
        cr->pending[i]->issue_ns = now;
    cr->out->submit_calls++;
    cr->out->submitted += *queued;
    *inflight += *queued;
    *queued = 0;
    return 0;
}

/* fio's do_io for an asynchronous engine (backend.c, fio 3.33): one I/O
 * prepared and queued at a time (its start time read then, for slat);
 * the queue submitted when iodepth_batch_submit I/Os are queued or the
 * queue is full; only a full queue waits, for iodepth_batch_complete_min
 * completions (at least one), reaping at most iodepth_batch_complete_max.
 * An engine answering busy (the null engine with completions pending) has
 * what is queued submitted and one completion at least reaped, then the
 * same unit queued again (fio's requeue_io_u).  With fio's defaults (1, 1,
 * 1) every I/O is its own io_uring_enter and each wait reaps one, as fio
 * does. */
static void
loop_async(struct clone_run *cr)
{
    struct agent_worker *w = &cr->w;
    const struct agent_job *job = w->job;
    unsigned inflight = 0, queued = 0;
    struct agent_io *held = NULL;       /* prepared, not yet taken */

    for (;;) {
        uint64_t now = agent_now_ns();
        unsigned min, max;
        int n;

        if (!held && may_issue(cr, now))
            held = prep(cr, now);
        if (held) {
            int q = w->ops->queue(w, held);

            if (q == AGENT_Q_QUEUED) {
                cr->pending[queued++] = held;
                held = NULL;
                if ((queued >= job->iodepth_batch_submit || inflight + queued >= w->depth)
                    && submit_queued(cr, &queued, &inflight) < 0 && !inflight)
                    return;
                if (inflight + queued < w->depth)
                    continue;
                min = job->iodepth_batch_complete_min ? job->iodepth_batch_complete_min : 1;
                max = job->iodepth_batch_complete_max;
            } else if (q == AGENT_Q_BUSY) {
                if (queued && submit_queued(cr, &queued, &inflight) < 0 && !inflight) {
                    cr->freel[cr->nfree++] = held;
                    return;
                }
                if (!inflight) {
                    clone_fail(cr, "%s: busy with nothing in flight", w->ops->name);
                    cr->freel[cr->nfree++] = held;
                    return;
                }
                min = 1;
                max = job->iodepth_batch_complete_max;
            } else {
                clone_fail(cr, "%s: queue: %s", w->ops->name, strerror(errno));
                cr->freel[cr->nfree++] = held;
                held = NULL;
                if (!inflight)
                    return;
                min = max = inflight;
            }
        } else {
            /* stopping: submit what is queued, then reap everything */
            if (queued && submit_queued(cr, &queued, &inflight) < 0 && !inflight)
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
            /* the engine cannot be reaped: its units stay with the kernel
             * until cleanup closes the ring (buffers freed after that) */
            clone_fail(cr, "%s: wait: %s", w->ops->name, strerror(errno));
            if (held)
                cr->freel[cr->nfree++] = held;
            return;
        }
        now = agent_now_ns();
        for (int i = 0; i < n; i++)
            complete(cr, w->ops->event(w, (unsigned)i), now, 1);
        cr->out->reap_calls++;
        cr->out->reaped += (unsigned)n;
        inflight -= (unsigned)n;
    }
}

/* The clone's units and buffers: one region of iodepth x bs cut into
 * consecutive buffers as fio's init_io_u_buffers (backend.c, fio 3.33),
 * in transparent huge pages where the kernel has them
 * (agent_buffers_alloc: doc/agent.md, Buffers), written (random data)
 * only when the job writes.  0 or -1 (out of memory, failed). */
static int
clone_buffers(struct clone_run *cr)
{
    const struct agent_job *job = cr->c->job;
    struct agent_prng fill;

    cr->w.ios = calloc(job->iodepth, sizeof(*cr->w.ios));
    cr->freel = calloc(job->iodepth, sizeof(*cr->freel));
    cr->pending = calloc(job->iodepth, sizeof(*cr->pending));
    cr->buflen = (size_t)job->iodepth * job->bs;
    if (!cr->w.ios || !cr->freel || !cr->pending) {
        clone_fail(cr, "out of memory for iodepth %u", job->iodepth);
        return -1;
    }
    if (!(cr->bufmem = agent_buffers_alloc(cr->buflen))) {
        clone_fail(cr, "out of memory for %u buffers of %u bytes", job->iodepth,
                   job->bs);
        return -1;
    }
    if (agent_rw_writes(job->rw)) {
        uint64_t *b = cr->bufmem;

        agent_prng_seed(&fill, cr->c->fill_seed);
        for (size_t q = 0; q < cr->buflen / 8; q++)
            b[q] = agent_prng_next(&fill);
    }
    for (unsigned i = 0; i < job->iodepth; i++) {
        struct agent_io *io = &cr->w.ios[i];

        io->buf = (char *)cr->bufmem + (size_t)i * job->bs;
        io->len = job->bs;
        io->index = i;
        cr->freel[cr->nfree++] = io;
    }
    return 0;
}

static const struct agent_engine_ops *
engine_of(enum agent_ioengine e)
{
    switch (e) {
    case AGENT_ENGINE_PSYNC: return &agent_engine_psync;
    case AGENT_ENGINE_NULL: return &agent_engine_null;
    default: return &agent_engine_io_uring;
    }
}

/* Engine setup, with the psync fallback when the kernel refuses
 * io_uring. */
static void
clone_engine(struct clone_run *cr)
{
    struct agent_worker *w = &cr->w;
    char err[AGENT_ERROR_LEN];
    int rc;

    w->ops = engine_of(cr->c->job->ioengine);
    w->sync = w->ops->sync;
    w->depth = w->sync ? 1 : cr->c->job->iodepth;
    rc = w->ops->setup(w, err, sizeof(err));
    if (rc == AGENT_ENGINE_REFUSED) {
        snprintf(cr->out->fallback, sizeof(cr->out->fallback), "%s", err);
        w->ops = &agent_engine_psync;
        w->sync = 1;
        w->depth = 1;
        rc = w->ops->setup(w, err, sizeof(err));
    }
    if (rc != 0)
        clone_fail(cr, "%s", err);
    if (w->sync)
        w->depth = 1;
    cr->out->psync = w->ops == &agent_engine_psync;
    cr->out->uring_setup_flags = w->uring_setup_flags;
    cr->out->uring_nonvectored = w->uring_nonvectored;
}

/* Tell the parent the clone is set up (one byte: 'r' ready, 'f' failed)
 * and wait for its go; 0 to run, -1 not to. */
static int
barrier(struct clone_run *cr)
{
    char b = cr->out->failed ? 'f' : 'r';

    __atomic_store_n(&cr->out->ready, 1, __ATOMIC_RELEASE);
    while (write(cr->sync->ready_fd, &b, 1) < 0 && errno == EINTR)
        ;
    for (;;) {
        ssize_t r = read(cr->sync->go_fd, &b, 1);

        if (r == 1)
            break;
        if (r < 0 && errno == EINTR)
            continue;
        return -1;      /* the parent went away */
    }
    return cr->out->failed || __atomic_load_n(&cr->sync->stop, __ATOMIC_RELAXED)
           ? -1 : 0;
}

void *
agent_clone_main(void *arg)
{
    struct agent_clone *c = arg;
    struct clone_run cr;
    struct agent_worker *w = &cr.w;

    memset(&cr, 0, sizeof(cr));
    cr.c = c;
    cr.sync = c->sync;
    cr.out = c->out;
    cr.out->huge_kib = -1;
    w->job = c->job;
    w->index = c->index;
    w->fd = c->fd;
    cr.limit = c->job->time_based ? 0 : c->job->size / c->job->bs;
    for (int d = 0; d < AGENT_DDIR_COUNT; d++) {
        agent_hist_init(&cr.out->clat[d]);
        agent_hist_init(&cr.out->slat[d]);
    }
    if (clone_buffers(&cr) == 0)
        clone_engine(&cr);
    if (barrier(&cr) == 0) {
        if (w->sync)
            loop_sync(&cr);
        else
            loop_async(&cr);
        if (cr.out->measured && (getrusage(RUSAGE_THREAD, &cr.out->thread1) < 0
                                 || getrusage(RUSAGE_SELF, &cr.out->self1) < 0))
            cr.out->measured = 0;
    }
    if (w->ops)
        w->ops->cleanup(w);
    if (cr.bufmem)
        cr.out->huge_kib = agent_huge_kib(cr.bufmem);
    agent_buffers_free(cr.bufmem, cr.buflen);
    free(w->ios);
    free(cr.freel);
    free(cr.pending);
    __atomic_store_n(&cr.out->finished, 1, __ATOMIC_RELEASE);
    __atomic_fetch_add(&cr.sync->n_finished, 1, __ATOMIC_RELEASE);
    return NULL;
}
