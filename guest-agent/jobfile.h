/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: fio job files (the subset the agent's job engine runs).
 *
 * Syntax as fio's (HOWTO "Job file format"): an INI-style file, lines
 * "[section]", "option=value" or "option" (a flag), blank lines and lines
 * starting with ';' or '#' ignored; "[global]" holds defaults for the job
 * after it.  The agent runs one job per file (a second job section is
 * refused: fio would run both at once); several files run one after the
 * other (--job FILE repeated).  Option names, values and units are fio
 * 3.33's (sizes with binary k/m/g/t suffixes, times in seconds unless
 * suffixed ms/s/m/h); the target is not part of the job (the agent's -d).
 *
 * Pure and libc only: parsing touches no device; main checks the job
 * against the target (size, logical block size) afterwards. */
#ifndef VDC_AGENT_JOBFILE_H
#define VDC_AGENT_JOBFILE_H

#include <stdint.h>
#include <stdio.h>

enum agent_rw {
    AGENT_RW_READ = 0,      /* sequential read */
    AGENT_RW_WRITE,         /* sequential write */
    AGENT_RW_RANDREAD,
    AGENT_RW_RANDWRITE,
    AGENT_RW_RANDRW,        /* random, rwmixread % reads */
};

enum agent_ioengine {
    AGENT_ENGINE_IO_URING = 0,  /* raw io_uring syscalls, iodepth in flight */
    AGENT_ENGINE_PSYNC,         /* pread(2)/pwrite(2), one I/O at a time */
    AGENT_ENGINE_NULL,          /* completes every I/O without doing it (fio's
                                 * engines/null.c): the instrument's own cost */
};

#define AGENT_JOB_NAME_MAX 64
#define AGENT_JOB_TEXT_MAX 256
#define AGENT_JOB_FILE_MAX (64u * 1024u)    /* bytes of one job file */
#define AGENT_JOB_MAX_IODEPTH 1024u
#define AGENT_JOB_MAX_NUMJOBS 64u
#define AGENT_JOB_MAX_BS (64u << 20)
#define AGENT_JOB_MAX_TIME_MS (7ull * 24 * 3600 * 1000)  /* a week */

/* One parsed job; every field holds fio's default when the file does not
 * set it, except direct (the agent's default is 1, fio's 0). */
struct agent_job {
    char name[AGENT_JOB_NAME_MAX];          /* job section name */
    char source[AGENT_JOB_TEXT_MAX];        /* the file it came from */
    char description[AGENT_JOB_TEXT_MAX];   /* description=, or "" */
    enum agent_rw rw;                       /* rw= (default read) */
    uint32_t rwmixread;                     /* % reads of randrw (50) */
    uint32_t bs;                            /* bytes (4096) */
    uint32_t iodepth;                       /* I/Os in flight per job (1) */
    /* fio's batching, after fio's fixups: I/Os queued per io_uring_enter
     * (iodepth_batch_submit, alias iodepth_batch; default 1: each I/O
     * submitted as soon as it is queued; 0 or over iodepth: iodepth);
     * completions waited for once the queue is full
     * (iodepth_batch_complete_min, alias iodepth_batch_complete; default
     * 1; 0 waits for one all the same, as fio does on a full queue);
     * completions reaped at most per wait (iodepth_batch_complete_max;
     * default complete_min, 1 to iodepth) */
    uint32_t iodepth_batch_submit;
    uint32_t iodepth_batch_complete_min;
    uint32_t iodepth_batch_complete_max;
    int scramble_buffers;                   /* stamp each write's 512-byte
                                             * blocks with its offset and start
                                             * time, as fio does (1) */
    int norandommap;                        /* random offsets drawn with
                                             * replacement; 0 (fio's
                                             * default): a random map, each
                                             * block once per pass */
    uint32_t numjobs;                       /* clones of the job (1) */
    int thread;                             /* clones as threads of one
                                             * process (fio's thread); 0:
                                             * one process each (fio's
                                             * default) */
    int group_reporting;                    /* fio's group_reporting: the
                                             * agent's result is always the
                                             * clones together; recorded */
    uint64_t offset_increment;              /* clone k starts at offset + k x
                                             * this (bytes, 0) */
    char filename[AGENT_JOB_NAME_MAX];      /* one file the clones share in a
                                             * directory target; "": each
                                             * clone its own JOB.k.0 */
    int direct;                             /* O_DIRECT (agent default 1) */
    uint64_t size;                          /* bytes per clone; 0 = target size */
    uint64_t offset;                        /* bytes (0) */
    uint64_t runtime_ms;                    /* 0 = until size is done */
    int time_based;                         /* loop over the region until runtime */
    uint64_t ramp_ms;                       /* ramp_time: run, do not count */
    uint64_t randseed;                      /* randseed= */
    int randseed_given;                     /* else fio's 0x89 (jobgen.h) */
    int randrepeat;                         /* fio's randrepeat (1) */
    enum agent_ioengine ioengine;           /* default io_uring */
    /* steady state (ss=iops_slope:LIMIT[%], ss_dur, ss_ramp) */
    int ss_given;
    double ss_limit;                        /* IOPS/s, or % of the mean */
    int ss_percent;
    uint64_t ss_dur_ms;
    uint64_t ss_ramp_ms;
};

/* fio's names: "read", "randrw", ...; "io_uring", "psync", "null". */
const char *agent_rw_name(enum agent_rw rw);
const char *agent_ioengine_name(enum agent_ioengine e);
/* Does the job read / write at all? */
int agent_rw_reads(enum agent_rw rw);
int agent_rw_writes(enum agent_rw rw);
int agent_rw_random(enum agent_rw rw);

/* Bytes of the files @job lays out in a directory target: each clone's
 * file JOB.k.0 holds offset + k x offset_increment + size, a shared
 * filename= the largest of them; 0 without size=. */
uint64_t agent_job_file_bytes(const struct agent_job *job);
/* One past the last byte a clone of @job reaches: offset + (numjobs - 1)
 * x offset_increment + size (size 0: offset + bs, the least a device must
 * hold). */
uint64_t agent_job_region_end(const struct agent_job *job);

/* Format one line into @err (size @errlen); returns -1 (for "return
 * agent_errf(...)" at a failure site). */
int agent_errf(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Parse job-file text @text (NUL-terminated) read from @fname (used in
 * messages only) into @job.  Returns 0, or -1 with @err holding one line
 * "FNAME:LINE: OPTION: what was expected" (an unknown option, an option
 * fio has but the agent does not run, a malformed or out-of-range value,
 * a second job section, no job section). */
int agent_jobfile_parse(const char *text, const char *fname,
                        struct agent_job *job, char *err, size_t errlen);

/* Read @path (at most AGENT_JOB_FILE_MAX bytes) and parse it.  Returns 0,
 * or -1 with @err holding one line naming the file (and line). */
int agent_jobfile_load(const char *path, struct agent_job *job, char *err,
                       size_t errlen);

/* The parsed job as one JSON object (doc/result-format.md
 * "workload.job"): sizes in bytes, times in seconds. */
void agent_job_format_json(FILE *fp, const struct agent_job *job);

#endif
