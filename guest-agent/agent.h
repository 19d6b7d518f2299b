/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: the result model and the configuration shared by the
 * agent's modules.  libc only: this header is compiled both by $(AGENT_CC)
 * (the static agent) and by $(CC) (libvdc-agentcore.a, unit tests).
 *
 * Units: sizes in bytes unless the name says otherwise; times in seconds
 * (double, CLOCK_MONOTONIC for wall time, getrusage for CPU). */
#ifndef VDC_AGENT_H
#define VDC_AGENT_H

#include <stddef.h>
#include <stdint.h>

extern const char vdc_agent_version[];

#include "test_ids.h"

/* The twelve bonnie++ tests, in bonnie++ 2.00a's order (enum tests_t in
 * bonnie.h): AGENT_PUTC .. AGENT_RAN_DEL, from the one test-id list
 * (test_ids.h, shared with the controller). */
enum agent_test {
#define AGENT_TEST_ENUM(id, ...) AGENT_##id,
    VDC_BONNIE_TESTS(AGENT_TEST_ENUM)
#undef AGENT_TEST_ENUM
    AGENT_TEST_COUNT
};

/* The sweep's two tests (AGENT_SWEEP_READ, AGENT_SWEEP_WRITE), likewise. */
enum agent_sweep_test {
#define AGENT_TEST_ENUM(id, ...) AGENT_##id,
    VDC_SWEEP_TESTS(AGENT_TEST_ENUM)
#undef AGENT_TEST_ENUM
    AGENT_SWEEP_TEST_COUNT
};

/* The job engine's two (AGENT_WORKLOAD_READ, AGENT_WORKLOAD_WRITE: the
 * order of its directions, AGENT_DDIR_READ/WRITE in jobstat.h). */
enum agent_workload_test {
#define AGENT_TEST_ENUM(id, ...) AGENT_##id,
    VDC_WORKLOAD_TESTS(AGENT_TEST_ENUM)
#undef AGENT_TEST_ENUM
    AGENT_WORKLOAD_TEST_COUNT
};

/* Test ids ("putc", "put_block", ...; doc/result-format.md) and units
 * ("K/sec", "/sec") indexed by enum agent_test; the sweep's and the job
 * engine's ids and units indexed by enum agent_sweep_test and enum
 * agent_workload_test.  Expanded from test_ids.h in format.c. */
extern const char *const agent_test_id[AGENT_TEST_COUNT];
extern const char *const agent_test_unit[AGENT_TEST_COUNT];
extern const char *const agent_sweep_test_id[AGENT_SWEEP_TEST_COUNT];
extern const char *const agent_sweep_test_unit[AGENT_SWEEP_TEST_COUNT];
extern const char *const agent_workload_test_id[AGENT_WORKLOAD_TEST_COUNT];
extern const char *const agent_workload_test_unit[AGENT_WORKLOAD_TEST_COUNT];

enum agent_state {
    AGENT_NOT_RUN = 0,  /* skipped (-s 0, -n 0, block device, interrupted) */
    AGENT_DONE,
    AGENT_FAILED,
};

#define AGENT_ERROR_LEN 256
/* A test shorter than this is "too fast" (bonnie.h MinTime, 0.5 s). */
#define AGENT_MIN_TIME 0.5

/* One measured bonnie++ test.  rate = amount / elapsed_s. */
struct agent_sample {
    enum agent_state state;
    double amount;      /* KiB moved (sequential tests), seeks, or files */
    double elapsed_s;   /* wall time, CLOCK_MONOTONIC */
    double cpu_s;       /* user+system, self and waited-for children */
    double latency_s;   /* worst single operation; 0 = unknown */
    char error[AGENT_ERROR_LEN];
};

/* One sweep measurement: sequential read or write of the whole size at
 * one block size (seed 004's dd experiment). */
struct agent_sweep_sample {
    enum agent_state state;
    int is_write;
    uint32_t block_size;  /* bytes */
    uint64_t bytes;       /* bytes moved */
    uint64_t ops;         /* read(2)/write(2) calls */
    double elapsed_s;
    double user_s;
    double system_s;
    double latency_s;     /* worst single call */
    char error[AGENT_ERROR_LEN];
};

#define AGENT_SWEEP_MAX 32
/* --passes (aging.h): labels, and bytes of one with its NUL */
#define AGENT_PASSES_MAX 4u
#define AGENT_PASS_NAME_MAX 32u
#define AGENT_JOB_FILES_MAX 32

struct agent_job;
struct agent_job_result;
struct agent_aging;

/* One agent run: one repetition of all selected tests. */
struct agent_run {
    int repetition;
    char date[32];                  /* ISO 8601 UTC start time */
    uint64_t seed;
    uint64_t digest;                /* FNV-1a 64 over the op sequence */
    int failed;                     /* some test failed: see error */
    char error[AGENT_ERROR_LEN];    /* "TEST: cause", first failure */
    struct agent_sample s[AGENT_TEST_COUNT];
    size_t n_sweep;
    struct agent_sweep_sample sweep[2 * AGENT_SWEEP_MAX];
    size_t n_jobs;                  /* --job: results, in --job order */
    struct agent_job_result **jobs; /* jobstat.h */
    const char *pass;               /* --passes: this run's label, else NULL */
};

enum agent_per_char { AGENT_PER_CHAR_SYSCALL = 0, AGENT_PER_CHAR_STDIO };

/* Everything the command line sets (options.c), plus what main resolves
 * at start (RAM, target kind).  Strings point into argv or are static. */
struct agent_config {
    const char *target_path;        /* -d DIR|DEV */
    int target_is_blockdev;         /* resolved by main */
    uint64_t target_size;           /* block device: bytes (main) */
    uint64_t file_size;             /* -s, bytes; 0 = skip seq/seek tests */
    int file_size_given;
    uint32_t chunk_size;            /* -s SIZE:CHUNK, bytes, default 8192 */
    uint32_t seeks;                 /* -s SIZE:CHUNK:SEEKS, default 8192 */
    uint32_t seek_procs;            /* -s ...:PROCS, default 5 */
    uint64_t per_char_size;         /* --per-char-size, bytes, default 3 MiB */
    uint32_t files;                 /* -n number, in units of 1024; 0 = skip */
    uint64_t file_max_size;         /* -n :max, bytes */
    uint64_t file_min_size;         /* -n ::min, bytes */
    uint32_t file_dirs;             /* -n :::dirs, default 1 */
    uint32_t file_chunk_size;       /* -n ::::chunk, default 8192 */
    uint64_t ram_mib;               /* -r, else MemTotal (resolved by main) */
    int ram_given;
    int repeats;                    /* -x, default 1 */
    uint64_t seed;                  /* --seed / -z */
    int seed_given;
    const char *machine;            /* -m, default uname nodename */
    const char *target_name;        /* --target, default basename of -d */
    int repetition0;                /* --repetition */
    int fsync_every_write;          /* -b */
    int direct_io;                  /* -D: O_DIRECT for bonnie++ block I/O */
    enum agent_per_char per_char;   /* --per-char */
    int sweep;                      /* --sweep[=LIST] */
    size_t n_sweep_sizes;
    uint32_t sweep_sizes[AGENT_SWEEP_MAX];
    int sweep_direct;               /* --direct: O_DIRECT in the sweep */
    int drop_caches;                /* --drop-caches */
    int destroy_data;               /* --destroy-data */
    int force;                      /* -f, --force */
    int csv;                        /* --csv: CSV instead of the table */
    const char *csv_file;           /* --csv-file FILE */
    const char *json_file;          /* --json FILE */
    int trace_digest;               /* --trace-digest */
    int quiet;                      /* -q */
    int progress_fd;                /* --progress-fd N, -1 none */
    size_t n_job_files;             /* --job FILE / --workload NAME */
    const char *job_files[AGENT_JOB_FILES_MAX];
    struct agent_job *jobs;         /* parsed by main (jobfile.h) */
    /* aging and passes (aging.h, fill.h) */
    uint32_t fill_percent;          /* --fill, 0: none */
    uint32_t precondition_s;        /* --precondition's most seconds, 0: none */
    uint32_t precondition_window_s; /* its steady-state window, seconds */
    uint64_t aging_seed;            /* --aging-seed, else --seed (main) */
    int aging_seed_given;
    size_t n_passes;                /* --passes: 0 (one unnamed pass) to 4 */
    char passes[AGENT_PASSES_MAX][AGENT_PASS_NAME_MAX];
};

/* Defaults as bonnie++ 2.00a (bonnie.h). */
#define AGENT_DEFAULT_CHUNK 8192u
#define AGENT_DEFAULT_SEEKS 8192u
#define AGENT_DEFAULT_SEEK_PROCS 5u
#define AGENT_DEFAULT_PER_CHAR (3ull << 20)
#define AGENT_DEFAULT_FILES 16u
#define AGENT_FILE_UNIT 1024u

/* Facts about the machine and the run that the renderers print (table,
 * CSV, JSON); filled by main, or by a test. */
struct agent_meta {
    const char *target;         /* runs[].target */
    const char *hostname;       /* -m or uname nodename */
    const char *kernel;         /* uname -r */
    const char *cpu_model;      /* /proc/cpuinfo "model name" */
    const char *command_line;
    const char *path;           /* -d */
    const char *fs_type;        /* statfs name, or "block" */
    const char *device;         /* block device behind path, or NULL */
    uint64_t ram_mib;
    const struct agent_aging *aging;    /* --fill/--precondition (aging.h), or NULL */
};

#endif
