/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: one clone of a job (fio's numjobs), as fio 3.33's
 * thread_main and do_io run it: its I/O units and buffers, its engine,
 * the loop that prepares, submits and reaps I/Os, and what it counts.
 *
 * A clone runs as a process of its own (fio's default) or, with thread=1,
 * as a thread of the agent; the same code either way.  What the run and
 * the sampler read while it works or after it ended lives in memory shared
 * with the parent (struct agent_clone_out, struct agent_job_sync, mapped
 * MAP_SHARED before the clones start); what only the clone uses (its
 * units, buffers, engine, generator copy) is its own.
 *
 * Start: each clone sets its engine up, then writes one byte to the ready
 * pipe and blocks on the go pipe; the parent reads every clone's byte (or
 * finds it dead), sets the window's times and writes one byte per clone
 * to the go pipe.  End: the clone stores its results and increments
 * sync->n_finished. */
#ifndef VDC_AGENT_JOBCLONE_H
#define VDC_AGENT_JOBCLONE_H

#include <stdint.h>
#include <sys/resource.h>

#include "job.h"
#include "jobgen.h"
#include "jobstat.h"

/* The run's shared state (MAP_SHARED).  Times: CLOCK_MONOTONIC ns. */
struct agent_job_sync {
    int stop;                       /* atomic: stop issuing (failure, ss,
                                     * interruption) */
    unsigned n_finished;            /* atomic: clones done */
    uint64_t t0, ramp_end, end;     /* set before go; end 0 = none */
    int ready_fd, go_fd;            /* the clone's ends of the pipes */
};

/* What one clone reports (MAP_SHARED). */
struct agent_clone_out {
    struct agent_hist clat[AGENT_DDIR_COUNT], slat[AGENT_DDIR_COUNT];
    uint64_t done[AGENT_DDIR_COUNT];    /* atomic: read by the sampler */
    uint64_t bytes[AGENT_DDIR_COUNT];
    uint64_t last_done_ns;              /* last counted completion */
    uint64_t submit_calls, submitted;   /* commits and the I/Os they took */
    uint64_t reap_calls, reaped;        /* waits and the I/Os they reaped */
    int measured;                       /* the window started: CPU valid */
    struct rusage thread0, thread1;     /* RUSAGE_THREAD of the clone */
    struct rusage self0, self1;         /* RUSAGE_SELF (a process clone:
                                         * with its io_uring workers) */
    long long huge_kib;                 /* its buffers in huge pages; -1 */
    uint32_t uring_setup_flags;
    int uring_nonvectored;
    int psync;                          /* ran the psync engine */
    int ready;                          /* atomic: set up, at the barrier */
    int finished;                       /* atomic: stored its results */
    int failed;
    char error[AGENT_ERROR_LEN];
    char fallback[AGENT_ERROR_LEN];     /* why io_uring was not used */
};

/* One clone: what the parent sets before starting it. */
struct agent_clone {
    const struct agent_job *job;
    unsigned index;                 /* fio's subjob_number */
    int fd;                         /* its file (-1: the null engine) */
    int process;                    /* runs as a process (else a thread) */
    uint64_t fill_seed;             /* its write buffers' contents */
    struct agent_jobgen gen;        /* set up by the parent (the map's
                                     * allocation failing is caught before
                                     * any clone starts) */
    struct agent_job_sync *sync;
    struct agent_clone_out *out;
};

/* The clone's body: engine setup, the start barrier, the I/O loop, the
 * results into clone->out, cleanup of everything it allocated.  A thread's
 * start routine (returns NULL); a process calls it and _exits. */
void *agent_clone_main(void *clone);

#endif
