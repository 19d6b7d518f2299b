/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The workload sample of the result model (format_version 2): what one
 * job of the agent's job engine reported, included by result.h (include
 * that); its member table and checks are result_workload.c.  Format:
 * doc/result-format.md. */
#ifndef VDC_MODEL_RESULT_WORKLOAD_H
#define VDC_MODEL_RESULT_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

/* ---- Workload samples (format_version 2) ------------------------------------
 * The `workload` object of a workload_read / workload_write sample: one job
 * of the agent's job engine (vmdiskcmp-agent --job) or of an imported fio
 * run, one direction.  doc/result-format.md "Workload samples" gives every
 * member's unit and limits; the JSON member names are the agent's. */

/* A latency summary (workload.clat_us, slat_us), microseconds. */
typedef struct {
    int64_t n;               /* latencies counted */
    double min, mean;
    double p50, p90, p99, p99_9, p99_99;   /* JSON "p50" .. "p99.99" */
    double max;
} vdc_latency_us;

/* Steady-state parameters of a job (job.ss: fio's ss=iops_slope:LIMIT[%]). */
typedef struct {
    char *metric;            /* "iops_slope" */
    double limit;            /* IOPS/s, or % of the window mean when percent */
    int percent;             /* tri-state */
    double dur_s;            /* window length, seconds (ss_dur) */
    double ramp_s;           /* ss_ramp, seconds */
} vdc_job_ss;

/* The parsed job (workload.job): fio's option names and meanings. */
typedef struct {
    char *name;              /* the job section's name */
    char *rw;                /* read, write, randread, randwrite, rw, randrw */
    int64_t rwmixread;       /* % reads of a mixed job */
    int64_t bs;              /* bytes */
    int64_t iodepth;
    /* fio's batching after its fixups: I/Os per submission, completions
     * waited for when the queue is full (0: one), reaped at most per wait;
     * absent in documents of agents before it ran them (they submitted
     * all free slots at once and reaped all that had completed) */
    int64_t iodepth_batch_submit;
    int64_t iodepth_batch_complete_min;
    int64_t iodepth_batch_complete_max;
    int scramble_buffers;    /* tri-state: writes stamped per 512-byte block (fio's default) */
    int norandommap;         /* tri-state: random offsets drawn with replacement;
                              * 0: a random map, each block once per pass (fio's
                              * default); absent in documents of agents before
                              * they kept one (they drew with replacement) */
    int64_t numjobs;
    int thread;              /* tri-state: the clones were threads (fio's thread);
                              * 0: processes (fio's default); absent in documents
                              * of agents before they ran processes (threads) */
    int group_reporting;     /* tri-state: the job asked for it (the sample is
                              * the clones together either way) */
    int64_t offset_increment;    /* bytes: clone k starts at offset + k x this */
    char *filename;          /* the file the clones shared in a directory
                              * target; NULL: each clone its own */
    int direct;              /* O_DIRECT, tri-state */
    int64_t size;            /* bytes per clone; absent: the whole target */
    int64_t offset;          /* bytes */
    double runtime_s;        /* NAN: no runtime limit */
    int time_based;          /* tri-state */
    double ramp_time_s;
    char *randseed;          /* decimal string; NULL: fio's default (0x89), or the
                              * run's seed with randrepeat 0 */
    int randrepeat;          /* tri-state: fio's randrepeat */
    char *ioengine;          /* the engine asked for (io_uring, psync, libaio, ...) */
    vdc_job_ss ss;           /* all absent: no ss= */
    char *description;
} vdc_job_params;

/* CPU of a job (workload.cpu): seconds and microseconds per I/O. */
typedef struct {
    double user_s, system_s;         /* the whole process over the window */
    double us_per_io;                /* (user_s + system_s) / I/Os of both directions */
    double thread_user_s, thread_system_s;  /* the job's own threads (fio usr_cpu/sys_cpu) */
    double thread_us_per_io;
} vdc_job_cpu;

typedef struct {
    int64_t setup_flags;     /* IORING_SETUP_* the ring got */
    int nonvectored;         /* tri-state: IORING_OP_READ/WRITE */
    double ios_per_submit;   /* I/Os per io_uring_enter submission (fio's "IO submit") */
    double ios_per_reap;     /* I/Os reaped per wait (fio's "IO complete") */
} vdc_io_uring_info;

/* The clones' I/O buffers (workload.buffers, written by the agent). */
typedef struct {
    int64_t bytes;           /* iodepth x bs x numjobs */
    int64_t huge_kib;        /* KiB of their mappings in transparent huge
                              * pages, read back after the run; absent: not
                              * known (null) */
} vdc_buffers_info;

/* Steady-state detection over the IOPS series (workload.steady_state). */
typedef struct {
    char *metric;            /* "iops_slope" */
    double limit;
    int percent;             /* tri-state */
    double dur_s, ramp_s;
    int from_job;            /* tri-state: the job set ss= (reaching it ended the job) */
    int reached;             /* tri-state */
    double at_s;             /* seconds into the window when reached; NAN */
    double slope;            /* IOPS/s (may be negative); NAN */
    double criterion;        /* the value compared with limit; NAN */
} vdc_steady_state;

typedef struct {
    char *name;              /* the job's name: the test key is ID@name (ID@name@raw
                              * when on is "raw") */
    char *source;            /* the job file as given, or the imported file */
    char *on;                /* what the job ran on: "file" (a file in a mounted
                              * filesystem) or "raw" (the block device itself);
                              * NULL: not recorded (older documents, imports) */
    vdc_job_params job;
    char *engine;            /* the engine that ran */
    char *engine_fallback;   /* why io_uring was not used although asked for */
    int64_t iodepth_effective;   /* I/Os in flight per clone the engine allowed */
    vdc_io_uring_info io_uring;  /* all absent: not io_uring */
    vdc_buffers_info buffers;    /* all absent: not recorded (fio imports,
                                  * older agents) */
    int64_t logical_block_size;  /* bytes, of the target */
    int64_t ios;             /* I/Os completed in the window, this direction */
    int64_t bytes;           /* bytes of those I/Os */
    double bandwidth_kib_s;  /* KiB/s */
    double percentile_relative_error;   /* bound of |reported - exact| / exact */
    vdc_latency_us clat_us;  /* completion latency; n absent: none recorded */
    vdc_latency_us slat_us;  /* submission latency; n absent: none (psync) */
    vdc_job_cpu cpu;
    double iops_interval_s;  /* iops_series.interval_s, seconds */
    double *iops_values;     /* iops_series.values: IOPS per interval (not in the
                              * member table: loaded, written, copied by hand) */
    size_t n_iops_values;
    vdc_steady_state steady_state;
    char *trace_digest;      /* hex */
} vdc_workload;

/* At most this many iops_series values in one sample (a week of seconds). */
#define VDC_WORKLOAD_SERIES_MAX 604800
/* Limits of job parameters the loader accepts (doc/result-format.md). */
#define VDC_WORKLOAD_DEPTH_MAX 65536      /* iodepth, iodepth_effective, numjobs */
#define VDC_WORKLOAD_BS_MAX    (1LL << 30) /* bs, bytes */
/* Longest source / description / engine_fallback string, bytes. */
#define VDC_WORKLOAD_TEXT_MAX  4096

/* A new workload with every member absent (g_free with vdc_workload_free).
 * Never NULL. */
vdc_workload *vdc_workload_new(void);
/* Free @w and everything it owns; NULL is fine. */
void vdc_workload_free(vdc_workload *w);
/* Deep copy of @w, or NULL for NULL. */
vdc_workload *vdc_workload_copy(const vdc_workload *w);
/* Replace @w's iops_series values by a copy of @values (@n of them). */
void vdc_workload_set_series(vdc_workload *w, const double *values, size_t n);

/* Check the limits of a loaded or imported workload (doc/result-format.md):
 * name one line of 1 to VDC_TARGET_NAME_MAX bytes; rw one of read, write,
 * randread, randwrite, rw, randrw; rwmixread 0-100; bs 1 to
 * VDC_WORKLOAD_BS_MAX; iodepth, iodepth_effective, numjobs 1 to
 * VDC_WORKLOAD_DEPTH_MAX; percentile_relative_error 0-1; latency minimum
 * <= maximum, percentiles non-decreasing; iops_series.interval_s > 0 and
 * values finite >= 0; strings one line.  Returns 0, or -1 with *member set
 * to the offending member's path inside the workload object ("clat_us.p90",
 * a static string) and *why to what was expected (g_free). */
int vdc_workload_check(const vdc_workload *w, const char **member, char **why);

#endif
