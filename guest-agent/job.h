/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: the job engine.  Runs one parsed fio job
 * (jobfile.h) on the target with numjobs clones (processes, or threads
 * with thread=1: jobclone.h), each with its own I/O engine instance and
 * fio's op sequence (jobgen.h), and fills a struct agent_job_result
 * (jobstat.h).  Files: jobcheck.c (the checks against the target, main's
 * hooks), jobrun.c (one job: files, clones, sampler, result), jobclone.c
 * (a clone's loop), engine_*.c (the engines).
 *
 * An engine is an ops table in the shape of fio's ioengines.h: setup
 * (once per worker, e.g. the io_uring ring), queue (prepare one I/O, or do
 * it for a synchronous engine), commit (submit what was queued), getevents
 * (reap completions), event (the i-th reaped I/O), cleanup (idempotent,
 * called on every path).  libc only (threads, raw syscalls). */
#ifndef VDC_AGENT_JOB_H
#define VDC_AGENT_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "jobstat.h"
#include "sys.h"

/* One I/O unit (fio's io_u). */
struct agent_io {
    uint64_t offset;        /* bytes */
    uint32_t len;
    int ddir;               /* AGENT_DDIR_READ / WRITE */
    void *buf;              /* aligned to 4096 */
    uint64_t start_ns;      /* prepared (CLOCK_MONOTONIC) */
    uint64_t issue_ns;      /* submit call returned */
    int counted;            /* issued inside the measured window */
    int64_t res;            /* bytes moved, or -errno */
    unsigned index;
};

struct agent_worker;

/* Stamp a write's buffer as fio's scramble_buffers does: in each 512-byte
 * block of @io->buf (@io->len bytes), the block's byte offset (from
 * @io->offset) at the start of 64-byte line (start_ns XOR offset) & 7 and
 * start_ns as seconds, nanoseconds in the last 16 bytes of its first line. */
void agent_job_scramble(struct agent_io *io);

/* queue()'s answers (fio's FIO_Q_QUEUED, FIO_Q_COMPLETED, FIO_Q_BUSY: the
 * engine cannot take it now; the loop reaps and queues it again) */
enum { AGENT_Q_QUEUED = 0, AGENT_Q_COMPLETED = 1, AGENT_Q_BUSY = 2 };
/* setup's result when the kernel refuses the engine (ENOSYS, EPERM,
 * EACCES): the caller falls back and records why */
#define AGENT_ENGINE_REFUSED 1

struct agent_engine_ops {
    const char *name;
    int sync;   /* queue() performs the I/O (AGENT_Q_COMPLETED); setup may
                 * also set the worker's sync (null at iodepth 1) */
    /* 0, AGENT_ENGINE_REFUSED, or -1; @err holds one line on both */
    int (*setup)(struct agent_worker *w, char *err, size_t errlen);
    /* AGENT_Q_QUEUED, AGENT_Q_COMPLETED (io->res set), AGENT_Q_BUSY, or
     * -1 (errno) */
    int (*queue)(struct agent_worker *w, struct agent_io *io);
    /* submit everything queued: number submitted, or -1 (errno) */
    int (*commit)(struct agent_worker *w);
    /* wait for at least @min completions: number reaped, or -1 (errno) */
    int (*getevents)(struct agent_worker *w, unsigned min, unsigned max);
    struct agent_io *(*event)(struct agent_worker *w, unsigned i);
    /* safe to call twice, and after a failed setup */
    void (*cleanup)(struct agent_worker *w);
};

extern const struct agent_engine_ops agent_engine_io_uring;
extern const struct agent_engine_ops agent_engine_psync;
extern const struct agent_engine_ops agent_engine_null;

/* One of numjobs clones, as its engine sees it. */
struct agent_worker {
    const struct agent_job *job;
    unsigned index;
    int fd;
    int sync;                   /* the synchronous loop (ops->sync, or set
                                 * by setup) */
    uint32_t depth;
    const struct agent_engine_ops *ops;
    void *engine;               /* the engine's own state */
    struct agent_io *ios;       /* depth units */
    uint32_t uring_setup_flags; /* filled by the io_uring engine */
    int uring_nonvectored;
};

/* Facts about the target the jobs run on, resolved once by
 * agent_jobs_check(). */
struct agent_job_target {
    const char *path;           /* -d */
    int is_blockdev;
    uint64_t dev_size;          /* block device: bytes */
    uint32_t logical_block_size;
    uint64_t ram_mib;
    int force;                  /* -f: buffered jobs under 2x RAM allowed */
};

/* Check every job against the target before anything is created: size
 * (default: the device size minus offset; required on a directory),
 * offset + size within a block device, bs and offset multiples of the
 * logical block size with direct=1, the filesystem's free space for the
 * job files, 2x RAM for buffered jobs (unless force).  Returns 0, or -1
 * with @err holding one line naming the job's file and what was expected
 * (bad input: exit 2). */
int agent_jobs_check(struct agent_job *jobs, size_t n,
                     struct agent_job_target *t, char *err, size_t errlen);

/* Run @job (checked) on @t with seed @seed (what stands for fio's
 * system-drawn seeds with randrepeat=0 and no randseed, jobgen.h; and the
 * write buffers' contents): fills @r.  Creates the job's files in a
 * directory target (laid out before the measured window) and removes them
 * on every path; the null engine touches no file.  Returns 0,
 * or -1 when the job failed (r->state AGENT_FAILED, r->error one line; an
 * interruption is a failure "interrupted").  @force_psync makes the
 * io_uring engine unavailable (the fallback path, for tests). */
int agent_job_run(const struct agent_job *job, const struct agent_job_target *t,
                  uint64_t seed, int quiet, struct agent_job_result *r);

/* main's hooks.  agent_jobs_load: parse every --job file into cfg->jobs
 * (before anything is created); agent_jobs_prepare: check them against
 * the resolved target (cfg->target_path, target_is_blockdev, target_size,
 * ram_mib, force); both return 0 or -1 with @err one line (bad input).
 * agent_jobs_run_all: run them in order into ctx->run->jobs, folding each
 * job's digest into the run's; 0, or -1 when a job failed (the run's
 * error names it; the jobs after it are not run).  agent_run_free_jobs
 * frees run->jobs (safe twice). */
int agent_jobs_load(struct agent_config *cfg, char *err, size_t errlen);
int agent_jobs_prepare(struct agent_config *cfg, char *err, size_t errlen);
int agent_jobs_run_all(struct agent_ctx *ctx);
void agent_run_free_jobs(struct agent_run *run);

/* When set (tests), io_uring_setup is treated as refused with ENOSYS. */
extern int agent_job_force_psync;

#endif
