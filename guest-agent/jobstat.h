/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: the job engine's result model and its renderers
 * (text table, result JSON), and fio's steady-state slope check.  Pure and
 * libc only (the unit tests and the controller build it with $(CC)).
 *
 * Units: latencies in nanoseconds inside (struct agent_hist), microseconds
 * in the JSON; times in seconds; IOPS in I/Os per second; bandwidth in
 * KiB/s (fio's "bw"). */
#ifndef VDC_AGENT_JOBSTAT_H
#define VDC_AGENT_JOBSTAT_H

#include <stdio.h>

#include "agent.h"
#include "hist.h"
#include "jobfile.h"

enum { AGENT_DDIR_READ = 0, AGENT_DDIR_WRITE = 1, AGENT_DDIR_COUNT = 2 };

/* One direction of one job: what was counted in the measured window
 * (after ramp_time). */
struct agent_job_ddir {
    uint64_t ios;               /* I/Os completed */
    uint64_t bytes;
    struct agent_hist clat;     /* completion latency, ns (fio clat) */
    struct agent_hist slat;     /* submission latency, ns (fio slat); empty
                                 * for psync, which has none */
    size_t n_series;
    double *series;             /* IOPS in each whole second of the window */
};

/* Steady state, fio's ss=iops_slope: over the last dur_s per-second IOPS
 * samples of both directions together, the least-squares slope (IOPS per
 * second), as a percentage of the window's mean when percent; attained
 * when |criterion| < limit. */
struct agent_job_steady {
    int from_job;       /* the job set ss=: attaining it ends the job (fio) */
    double limit;
    int percent;
    double dur_s, ramp_s;
    int reached;
    double at_s;        /* window time when reached (end of the window) */
    double slope;       /* IOPS/s of the attaining (else the last) window */
    double criterion;   /* the value compared with limit; NAN if never */
};

/* Everything one job run produced. */
struct agent_job_result {
    struct agent_job job;
    enum agent_state state;
    char error[AGENT_ERROR_LEN];    /* one line when failed */
    enum agent_ioengine engine;     /* the engine actually used */
    char fallback[AGENT_ERROR_LEN]; /* why io_uring was not used, or "" */
    uint32_t iodepth_effective;     /* psync: 1 */
    uint32_t uring_setup_flags;     /* IORING_SETUP_* the ring got */
    int uring_nonvectored;          /* IORING_OP_READ/WRITE, else READV/WRITEV */
    uint64_t submit_calls, submitted;   /* io_uring: submissions and the I/Os
                                         * they took, ramp included (fio's
                                         * "IO submit" distribution) */
    uint64_t reap_calls, reaped;        /* io_uring: waits and the I/Os they
                                         * reaped (fio's "IO complete") */
    uint64_t buffer_bytes;              /* the clones' I/O buffers */
    long long buffer_huge_kib;          /* of them in transparent huge pages,
                                         * read back from /proc/self/smaps
                                         * after the run; -1: not known */
    uint32_t logical_block_size;    /* of the target, bytes */
    int on_blockdev;                /* 1: the raw block device ("on":
                                     * "raw"), 0: a file in a directory
                                     * ("file") */
    double elapsed_s;               /* measured window, wall */
    double user_s, system_s;        /* CPU in the window, all threads of
                                     * the process (io_uring's io-wq
                                     * workers included) */
    double thread_user_s;           /* the clones' own threads only
                                     * (RUSAGE_THREAD: fio's usr_cpu) */
    double thread_system_s;         /* (fio's sys_cpu) */
    struct agent_job_ddir d[AGENT_DDIR_COUNT];
    struct agent_job_steady ss;
    uint64_t digest;                /* FNV-1a 64 of the job's op sequence */
};

/* The steady-state default when the job sets no ss=: detection only. */
#define AGENT_SS_DEFAULT_LIMIT 1.0          /* percent */
#define AGENT_SS_DEFAULT_DUR_S 10.0

/* fio steadystate.c steadystate_slope() over @n samples y[0..n-1] taken
 * one second apart: stores the slope (units of y per second) and the
 * criterion (slope, or 100*slope/mean when @percent) and returns 1 when
 * |criterion| < @limit, 0 when not, -1 when n < 2 or the mean is 0 with
 * @percent. */
int agent_ss_slope(const double *y, size_t n, int percent, double limit,
                   double *slope, double *criterion);

/* Allocate a result (calloc'd, with its histograms) / free it and its
 * series; free is safe on NULL. */
struct agent_job_result *agent_job_result_new(const struct agent_job *job);
void agent_job_result_free(struct agent_job_result *r);

/* IOPS and KiB/s of one direction over the measured window; 0 when the
 * window is empty. */
double agent_job_iops(const struct agent_job_result *r, int ddir);
double agent_job_kib_s(const struct agent_job_result *r, int ddir);

/* Human text, one block per job: engine, IOPS, bandwidth, clat
 * percentiles, slat, CPU per I/O, steady state. */
void agent_job_format_table(FILE *fp, const struct agent_job_result *r);

/* The result JSON samples of one job (doc/result-format.md, "workload
 * samples", format_version 2): one object per direction the job does,
 * each preceded by ",\n" unless *first; clears *first.  @pass (--passes'
 * label, or NULL) goes into each as "pass". */
void agent_job_format_samples(FILE *fp, const struct agent_job_result *r,
                              const char *pass, int *first);

#endif
