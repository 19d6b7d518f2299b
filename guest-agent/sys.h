/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: system helpers shared by the test modules: messages,
 * timing and CPU accounting, page-cache dropping, aligned buffers, atomic
 * file writes, and the per-run context.  libc only. */
#ifndef VDC_AGENT_SYS_H
#define VDC_AGENT_SYS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <time.h>

#include "agent.h"
#include "prng.h"

/* Set by the SIGINT/SIGTERM handler; every test loop polls it. */
extern volatile sig_atomic_t agent_interrupted;

/* One line "vmdiskcmp-agent: MESSAGE" on stderr. */
void agent_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Progress text on stderr (no newline added) unless quiet. */
void agent_progress(int quiet, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Wall time (CLOCK_MONOTONIC) and CPU time (getrusage RUSAGE_SELF plus
 * RUSAGE_CHILDREN, so seeker processes count once they are waited for). */
struct agent_clock {
    double t0;
    struct rusage self0, child0;
};

double agent_now(void);     /* CLOCK_MONOTONIC, seconds */
uint64_t agent_now_ns(void); /* CLOCK_MONOTONIC, nanoseconds */
void agent_clock_start(struct agent_clock *c);
/* Seconds since start: wall, user and system CPU (self + children). */
void agent_clock_read(const struct agent_clock *c, double *elapsed,
                      double *user_s, double *system_s);

/* sync(2), then write "3" to /proc/sys/vm/drop_caches.  Returns 0 or -1
 * (errno set). */
int agent_drop_caches(void);

/* @len bytes aligned to 4096 (O_DIRECT), zeroed; NULL on ENOMEM. */
void *agent_aligned_alloc(size_t len);
/* A job's I/O buffers: one anonymous mapping of @len bytes rounded up to
 * whole huge pages (AGENT_HUGE_PAGE, 2 MiB), aligned to one, zero, not yet
 * touched, the kernel asked for transparent huge pages (MADV_HUGEPAGE): an
 * O_DIRECT request then lies in physically contiguous memory (a 1 MiB one
 * in 16 segments of 64 KiB, not up to 256 of 4 KiB), however fragmented
 * memory is, and is not split by the block layer for its segment limit.
 * Without THP, or with no huge page free, the kernel uses 4 KiB pages:
 * agent_huge_kib() tells which it did.  NULL
 * with errno when the memory cannot be mapped.  Freed by
 * agent_buffers_free(p, len). */
#define AGENT_HUGE_PAGE (2u << 20)
/* Bytes of the mapping agent_buffers_alloc(@len) makes: @len rounded up to
 * whole huge pages (the guard pages not counted). */
uint64_t agent_buffers_span(uint64_t len);
void *agent_buffers_alloc(size_t len);
void agent_buffers_free(void *p, size_t len);
/* KiB of the mapping that starts at @p in transparent huge pages
 * (AnonHugePages of /proc/self/smaps), or -1 when it cannot be read. */
long long agent_huge_kib(const void *p);

/* Write @len bytes to @path atomically: PATH.tmp.PID in the same
 * directory, fsync, rename.  Returns 0, or -1 after a message naming the
 * path and the cause. */
int agent_write_file_atomic(const char *path, const char *buf, size_t len);

/* The state one run's tests share. */
struct agent_ctx {
    const struct agent_config *cfg;
    struct agent_run *run;
    struct agent_prng prng;
    char file_path[4096];       /* DIR/Bonnie.PID, or the block device */
};

/* Mark test @t of ctx->run failed with a one-line cause (printf format);
 * print "vmdiskcmp-agent: ID: cause" on stderr; the run's first failure
 * becomes run->error.  Returns -1. */
int agent_fail(struct agent_ctx *ctx, enum agent_test t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Record a finished test: amount in its unit, times from @c, latency. */
void agent_record(struct agent_ctx *ctx, enum agent_test t,
                  const struct agent_clock *c, double amount,
                  double latency_s);

/* Drop caches before a test when --drop-caches, then tell --progress-fd
 * "begin ID" (the test starts now); returns 0 or fails @t.  agent_record
 * and agent_fail write "end ID" there (doc/control-disk.md "Progress
 * block": the runner and the dom0 baseline read these lines). */
int agent_before_test(struct agent_ctx *ctx, enum agent_test t);

/* Fold into the run's op digest. */
void agent_digest_u64(struct agent_ctx *ctx, uint64_t v);
void agent_digest_str(struct agent_ctx *ctx, const char *s);

#endif
