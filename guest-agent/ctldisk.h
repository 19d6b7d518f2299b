/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp control disk codec: the job goes into the domU and the results
 * come back out through a raw disk attached as the domU's last disk, sized
 * from the job (vdc_ctl_disk_size: 2 MiB plus one result slot per target
 * that holds every answer the agent may legally give).  Format:
 * doc/control-disk.md, format version 2.
 *
 * libc only: this file is compiled into the static in-guest runner
 * (guest-agent/runner.c, $(AGENT_CC) -static) and, with $(CC), into
 * libvdc-agentcore.a for the host controller.  It never prints and never
 * exits; every failing function fills a struct vdc_ctl_error with one line
 * naming the field and the cause, and returns -1.
 *
 * Layout (all integers little-endian):
 *   offset 0         superblock, 512 bytes  (written by the host)
 *   VDC_CTL_PROGRESS_OFF progress block, 4096 bytes (written by the runner
 *                    while it works, read by the host while the domU runs)
 *   VDC_CTL_JOB_OFF  job frame              (written by the host)
 *   VDC_CTL_RES_OFF  result frame: the summary (written by the runner last)
 *   VDC_CTL_SLOT_OFF one target result frame per job target, each in a slot
 *                    of the superblock's slot size (written by the runner as
 *                    each target ends)
 * A frame is a 32-byte frame header (magic, version, kind, payload length,
 * CRC-32C of the payload, CRC-32C of the header) followed by a payload of
 * TLV records (u16 tag, u16 zero, u32 length, value).  The decoders treat
 * everything as untrusted: sizes are bounded, checksums and the version are
 * checked, strings must be free of NUL bytes, unknown tags are skipped,
 * required tags are enforced. */
#ifndef VDC_CTLDISK_H
#define VDC_CTLDISK_H

#include <stddef.h>
#include <stdint.h>

/* 2: the result split into a summary frame and one slot per target (1: one
 * result frame for every target, in a disk of 4-64 MiB; refused) */
#define VDC_CTL_FORMAT_VERSION 2u

/* 8-byte magics (not NUL-terminated on disk) */
#define VDC_CTL_SB_MAGIC  "VDCCTLSB"   /* superblock */
#define VDC_CTL_JOB_MAGIC "VDCCTLJB"   /* job frame */
#define VDC_CTL_PROGRESS_MAGIC "VDCCTLPG" /* progress block */
#define VDC_CTL_RES_MAGIC "VDCCTLRS"   /* result frame (the summary) */
#define VDC_CTL_TRES_MAGIC "VDCCTLTR"  /* target result frame (one per slot) */

#define VDC_CTL_SB_SIZE       512u
#define VDC_CTL_FRAME_HDR     32u
#define VDC_CTL_PROGRESS_OFF  4096u               /* bytes (superblock offset 64) */
#define VDC_CTL_PROGRESS_SIZE 4096u               /* bytes (superblock offset 72) */
#define VDC_CTL_PROGRESS_RING 64u                 /* events kept in the block */
#define VDC_CTL_PROGRESS_VERSION 1u               /* the progress block's own layout */
#define VDC_CTL_BEAT_S 5u                         /* seconds between two runner heartbeats */
#define VDC_CTL_JOB_OFF       8192u               /* bytes */
#define VDC_CTL_JOB_MAX       (1020u * 1024u)      /* job frame incl. header */
#define VDC_CTL_RES_OFF       (1024u * 1024u)      /* bytes: the summary frame's area */
#define VDC_CTL_SLOT_OFF      (2u * 1024u * 1024u) /* bytes: the first target slot */
#define VDC_CTL_DISK_MIN      (4u * 1024u * 1024u) /* smallest control disk */

/* bounds enforced by the decoders */
#define VDC_CTL_MAX_TARGETS    16u
#define VDC_CTL_MAX_ARGS       64u
#define VDC_CTL_MAX_STRING     4096u               /* names, options, errors */
#define VDC_CTL_MAX_BLOB       (8u * 1024u * 1024u) /* agent JSON, logs */
#define VDC_CTL_MAX_WORKLOADS  16u                 /* fio job files in one job */
#define VDC_CTL_MAX_JOBFILE    16384u              /* bytes of one job file's text */
#define VDC_CTL_TAIL_MAX       8192u               /* stderr tail the runner keeps */
/* the largest slot: three agent passes of VDC_CTL_MAX_BLOB and the rest
 * (vdc_ctl_slot_size); the largest disk: 16 of them after the summary */
#define VDC_CTL_SLOT_MAX       (3u * VDC_CTL_MAX_BLOB + 65536u)
#define VDC_CTL_DISK_MAX       (VDC_CTL_SLOT_OFF + VDC_CTL_MAX_TARGETS * VDC_CTL_SLOT_MAX)

/* one failure message, filled by every failing function below */
struct vdc_ctl_error {
    char msg[256];
};

/* run status (result frame and per target) */
enum vdc_ctl_status {
    VDC_CTL_STATUS_OK = 0,        /* every step succeeded */
    VDC_CTL_STATUS_FAILED = 1,    /* a step failed: see error */
    VDC_CTL_STATUS_TIMEOUT = 2,   /* a step ran past its timeout and was killed */
    VDC_CTL_STATUS_SKIPPED = 3,   /* not attempted (an earlier fatal failure) */
};

/* job flags */
#define VDC_CTL_JOB_DROP_CACHES  0x1u  /* sync + drop_caches before each agent run */
#define VDC_CTL_JOB_NO_POWEROFF  0x2u  /* debugging: leave the guest running */
#define VDC_CTL_JOB_NO_MKFS      0x4u  /* reuse the filesystem already on the vdev */
#define VDC_CTL_JOB_NO_BONNIE    0x8u  /* no bonnie++ pass: the workload pass only */
#define VDC_CTL_JOB_RAW_WORKLOADS 0x10u /* a workload pass on the raw vdev, before mkfs,
                                           with raw_workload_args (refused without workloads) */
#define VDC_CTL_JOB_NO_FILE_WORKLOADS 0x20u /* no workload pass on the filesystem: the raw
                                               pass only (refused without RAW_WORKLOADS) */

/* One target in the guest. */
struct vdc_ctl_target {
    char *name;           /* target name, e.g. "image", "lvm" (runs[].target) */
    char *vdev;           /* guest disk name, e.g. "xvdb", "vdb" (no /dev/) */
    char *mkfs_type;      /* e.g. "ext4": the runner execs mkfs.TYPE */
    char *mkfs_options;   /* extra mkfs arguments, space-separated, may be NULL */
    char *mount_options;  /* mount(2) data string, may be NULL */
    /* this target's own agent arguments, space-separated, may be NULL
     * (vdc_ctl_check_target: agent options only): added to its first pass
     * on the filesystem (fs_args: --fill), to every pass (pass_args:
     * --passes) and to its raw pass (raw_args: --precondition) */
    char *fs_args;
    char *pass_args;
    char *raw_args;
};

/* One fio job file (the agent's --job FILE) carried to the guest. */
struct vdc_ctl_workload {
    char *name;           /* the job's section name, 1-64 of [A-Za-z0-9._-]: the
                             runner writes the text to WORKDIR/jobs/NAME.fio */
    char *text;           /* the job file as the host read and checked it, at most
                             VDC_CTL_MAX_JOBFILE bytes, no NUL */
};

/* The job: written by the host, read by the runner. */
struct vdc_ctl_job {
    uint64_t nonce;           /* random; echoed in the result (stale results rejected) */
    uint32_t run_index;       /* 0-based run index in the plan */
    uint32_t repetition;      /* agent --repetition */
    uint64_t seed;            /* agent --seed */
    uint32_t flags;           /* VDC_CTL_JOB_* */
    uint32_t step_timeout_s;  /* mkfs, mount, umount, sync: each */
    uint32_t agent_timeout_s; /* one agent run */
    /* the start gate (many guests at once): nonzero, the runner reports
     * ready in its progress block before its first agent pass and waits up
     * to this many seconds for the host's go (VDC_CTL_GATE_OFF); 0: no
     * gate, the runner starts at once (the tag is not written) */
    uint32_t gate_timeout_s;
    char **agent_args;        /* extra agent arguments (e.g. "-s", "64", "-r", "32", "-f") */
    size_t n_agent_args;
    struct vdc_ctl_target *targets;
    size_t n_targets;
    /* the workload pass (after the bonnie++ pass, unless VDC_CTL_JOB_NO_BONNIE):
     * the agent with workload_args and one --job per workload, in order */
    struct vdc_ctl_workload *workloads;
    size_t n_workloads;
    char **workload_args;     /* the workload pass's agent arguments (e.g. "-r", "512", "-q") */
    size_t n_workload_args;
    /* with VDC_CTL_JOB_RAW_WORKLOADS, the raw pass: the agent on /dev/VDEV
     * itself (no filesystem) before mkfs, with these arguments (the host
     * decides them: e.g. "-r", "512", "-q", "--destroy-data") */
    char **raw_workload_args;
    size_t n_raw_workload_args;
};

/* One target's outcome: written by the runner. */
struct vdc_ctl_target_result {
    char *name;
    char *vdev;
    uint32_t status;          /* enum vdc_ctl_status */
    int32_t agent_exit;       /* exit status, 128+N for signal N, -1 not run */
    uint32_t elapsed_ms;      /* agent wall time */
    char *error;              /* one line or NULL */
    char *agent_json;         /* the agent's --json output, verbatim, or NULL */
    size_t agent_json_len;
    char *stderr_tail;        /* last bytes of agent and mkfs stderr, or NULL */
    size_t stderr_tail_len;
    /* the workload pass: agent exit (-1 not run), wall time, its --json output */
    int32_t workload_exit;
    uint32_t workload_elapsed_ms;
    char *workload_json;
    size_t workload_json_len;
    /* the raw workload pass (on the vdev, before mkfs): the same three */
    int32_t raw_workload_exit;
    uint32_t raw_workload_elapsed_ms;
    char *raw_workload_json;
    size_t raw_workload_json_len;
    /* the filesystem the runner made on the target and the disk it is on,
     * as the guest sees them (guest-agent/fsunits.h), read after mkfs:
     * fs_block, fs_stripe bytes (fs_block 0: not read, the rest absent;
     * fs_stripe 0: none), fs_source what said so ("ext4 superblock",
     * "xfs superblock", "statfs"); disk the guest's name of the disk
     * ("sda"), and its I/O sizes in bytes (0: not reported) */
    uint64_t fs_block;
    uint64_t fs_stripe;
    char *fs_source;
    char *disk;
    uint64_t disk_physical_block_size;
    uint64_t disk_minimum_io_size;
    uint64_t disk_optimal_io_size;
    uint64_t disk_alignment_offset;
};

/* The result: written by the runner, read by the host (untrusted).  On
 * the disk the summary (nonce to error, log) is the result frame and each
 * target its own frame in its slot (job order). */
struct vdc_ctl_result {
    uint64_t nonce;           /* the job's nonce */
    uint32_t status;          /* enum vdc_ctl_status: worst of the targets */
    char *runner_version;     /* e.g. "0.1.0" */
    char *kernel;             /* guest uname -r */
    char *error;              /* one line or NULL */
    struct vdc_ctl_target_result *targets;
    size_t n_targets;
    char *log;                /* runner log (timestamps, steps), may be NULL */
    size_t log_len;
    /* host side, not on the disk: the slots vdc_ctl_disk_read_result could
     * not take, "slot N: CAUSE" joined by "; ", or NULL (their targets are
     * missing from targets[]; the other slots are kept) */
    char *lost_slots;
};

/* CRC-32C (Castagnoli, reflected polynomial 0x82F63B78, init and final xor
 * 0xFFFFFFFF; RFC 3720 B.4).  vdc_ctl_crc32c("123456789", 9) == 0xE3069283. */
uint32_t vdc_ctl_crc32c(const void *buf, size_t len);

/* _init zeroes; _dispose frees every member and zeroes; both are safe to
 * call twice.  Strings are heap copies owned by the struct. */
void vdc_ctl_job_init(struct vdc_ctl_job *job);
void vdc_ctl_job_dispose(struct vdc_ctl_job *job);
void vdc_ctl_result_init(struct vdc_ctl_result *res);
void vdc_ctl_result_dispose(struct vdc_ctl_result *res);

/* Add a target / agent argument / target result (copies the strings; NULL
 * allowed for optional ones).  Return 0, or -1 on ENOMEM or a bound.
 * vdc_ctl_job_target_args sets the last added target's own agent
 * arguments (struct vdc_ctl_target: fs_args, pass_args, raw_args; NULL
 * none). */
int vdc_ctl_job_add_target(struct vdc_ctl_job *job, const char *name, const char *vdev,
                           const char *mkfs_type, const char *mkfs_options,
                           const char *mount_options, struct vdc_ctl_error *err);
int vdc_ctl_job_target_args(struct vdc_ctl_job *job, const char *fs_args, const char *pass_args,
                            const char *raw_args, struct vdc_ctl_error *err);
int vdc_ctl_job_add_arg(struct vdc_ctl_job *job, const char *arg, struct vdc_ctl_error *err);
/* A workload (job file @text, section name @name) and a workload-pass
 * agent argument; 0, or -1 on ENOMEM, a bound or a malformed name/text. */
int vdc_ctl_job_add_workload(struct vdc_ctl_job *job, const char *name, const char *text,
                             struct vdc_ctl_error *err);
int vdc_ctl_job_add_workload_arg(struct vdc_ctl_job *job, const char *arg,
                                 struct vdc_ctl_error *err);
/* An argument of the raw workload pass (VDC_CTL_JOB_RAW_WORKLOADS); 0, or
 * -1 on ENOMEM or a bound. */
int vdc_ctl_job_add_raw_workload_arg(struct vdc_ctl_job *job, const char *arg,
                                     struct vdc_ctl_error *err);
struct vdc_ctl_target_result *vdc_ctl_result_add_target(struct vdc_ctl_result *res,
                                                         const char *name, const char *vdev,
                                                         struct vdc_ctl_error *err);

/* Frame encoders: a complete frame (header + payload) in a malloc'd buffer
 * (*out, *out_len), at most VDC_CTL_JOB_MAX (job) or @max (result, target
 * result) bytes.  Return 0 or -1.  The result frame is the summary: it
 * carries no targets (each is a target result frame of its own, with the
 * job's @nonce).  The encoders truncate nothing: a frame larger than @max
 * fails (the runner then drops the stderr tails and the log, and retries). */
int vdc_ctl_job_encode(const struct vdc_ctl_job *job, uint8_t **out, size_t *out_len,
                       struct vdc_ctl_error *err);
int vdc_ctl_result_encode(const struct vdc_ctl_result *res, size_t max, uint8_t **out,
                          size_t *out_len, struct vdc_ctl_error *err);
int vdc_ctl_target_result_encode(uint64_t nonce, const struct vdc_ctl_target_result *t,
                                 size_t max, uint8_t **out, size_t *out_len,
                                 struct vdc_ctl_error *err);

/* Frame decoders over @len untrusted bytes starting at a frame header
 * (extra bytes after the frame are ignored).  Fill the (initialised)
 * struct; on failure it is left disposed.  Return 0 or -1.  A result
 * frame holding target records is refused (format 2 keeps them in slots);
 * a target result frame holds the nonce (*@nonce) and exactly one target. */
int vdc_ctl_job_decode(const uint8_t *buf, size_t len, struct vdc_ctl_job *job,
                       struct vdc_ctl_error *err);
int vdc_ctl_result_decode(const uint8_t *buf, size_t len, struct vdc_ctl_result *res,
                          struct vdc_ctl_error *err);
int vdc_ctl_target_result_decode(const uint8_t *buf, size_t len, uint64_t *nonce,
                                 struct vdc_ctl_target_result *t, struct vdc_ctl_error *err);

/* The bytes one target's slot reserves for @job: the frame with every
 * agent pass the job runs (bonnie++ unless VDC_CTL_JOB_NO_BONNIE, the raw
 * workloads with VDC_CTL_JOB_RAW_WORKLOADS, the workloads on the
 * filesystem unless VDC_CTL_JOB_NO_FILE_WORKLOADS) answering the most a
 * blob may hold (VDC_CTL_MAX_BLOB, the documented 8 MiB), the stderr tail
 * (VDC_CTL_TAIL_MAX) and every string at its limit, rounded up to 4096:
 * no legal answer overflows it.  At most VDC_CTL_SLOT_MAX. */
uint64_t vdc_ctl_slot_size(const struct vdc_ctl_job *job);
/* The control disk's size for @job: VDC_CTL_SLOT_OFF + one slot per
 * target (8 MiB + 2 MiB + 16 KiB for one target and the bonnie++ pass;
 * a sparse file: only what is written takes room). */
uint64_t vdc_ctl_disk_size(const struct vdc_ctl_job *job);

/* Whole-disk operations on an open file or block device of @disk_size
 * bytes (at least vdc_ctl_disk_size(job), at most VDC_CTL_DISK_MAX).
 *   _format: writes the superblock (a slot per job target, each
 *            vdc_ctl_slot_size(job) bytes) and the job frame, and zeroes
 *            the result and slot frame headers (host; the caller fsyncs).
 *   _read_job: validates the superblock, reads the job (runner); a job
 *            whose targets do not match the superblock's slots is refused.
 *   _write_target: writes target result @t as the frame of slot @idx (the
 *            job target's index) and fsyncs (runner, as each target ends).
 *   _write_summary: writes the result frame (@res without its targets)
 *            and fsyncs (runner, last).
 *   _write_result: _write_target for each of @res's targets, in order,
 *            then _write_summary.
 *   _read_result: validates the superblock and the result frame, and that
 *            the result's nonce equals @nonce (host); then each slot: a
 *            slot that does not hold a target result frame of this nonce
 *            is left out of res->targets and named in res->lost_slots, the
 *            others are kept.  A disk whose result frame was never written
 *            fails with "no result frame".
 *   _probe: 1 when the first bytes carry the superblock magic, 0 if not,
 *            -1 on a read error (runner, scanning /sys/block). */
int vdc_ctl_disk_format(int fd, uint64_t disk_size, const struct vdc_ctl_job *job,
                        struct vdc_ctl_error *err);
int vdc_ctl_disk_read_job(int fd, struct vdc_ctl_job *job, struct vdc_ctl_error *err);
int vdc_ctl_disk_write_target(int fd, size_t idx, uint64_t nonce,
                              const struct vdc_ctl_target_result *t, struct vdc_ctl_error *err);
int vdc_ctl_disk_write_summary(int fd, const struct vdc_ctl_result *res,
                               struct vdc_ctl_error *err);
int vdc_ctl_disk_write_result(int fd, const struct vdc_ctl_result *res,
                              struct vdc_ctl_error *err);
int vdc_ctl_disk_read_result(int fd, uint64_t nonce, struct vdc_ctl_result *res,
                             struct vdc_ctl_error *err);
int vdc_ctl_disk_probe(int fd);

/* The same checks over a whole disk image already in memory (fuzzing,
 * unit tests).  @nonce as above. */
int vdc_ctl_image_read_job(const uint8_t *img, size_t len, struct vdc_ctl_job *job,
                           struct vdc_ctl_error *err);
int vdc_ctl_image_read_result(const uint8_t *img, size_t len, uint64_t nonce,
                              struct vdc_ctl_result *res, struct vdc_ctl_error *err);

/* ---- progress block ------------------------------------------------------
 * The runner's test boundaries, for the host to slice its CPU and cache
 * samples per test while the domU runs (doc/control-disk.md "Progress
 * block", doc/host-cost.md).  4096 bytes at the superblock's progress_off
 * (0: the disk has none; an older host writes none and an older runner
 * ignores it), rewritten whole by the runner after each event with
 * O_DIRECT|O_DSYNC; the host preads it every ~100 ms.  Layout:
 *   0    8 bytes  magic VDCCTLPG
 *   8    u32      version 1
 *   12   u32      events in the ring (0..64)
 *   16   u64      nonce (the job's)
 *   24   u64      seq of the newest event (0: none yet)
 *   32   64 x 20  ring, oldest first: u64 seq, u64 guest CLOCK_MONOTONIC
 *                 ns, u16 target index (job order), u8 kind, u8 test id
 *                 (the agent's enum agent_test, test_ids.h order)
 *   1312 u64      heartbeat: beats so far (0: none, e.g. an older runner)
 *   1320 u64      heartbeat: guest CLOCK_MONOTONIC ns of the last beat
 *   1328 u64      start gate: ready_ns (0: not ready, or no gate)
 *   1336 u64      start gate: go_ns (0: no go seen yet)
 *   1344 u64      start gate: started_ns (0: no agent started after go)
 *   4092 u32      CRC-32C of bytes 0..4091
 * The events' seqs are consecutive and end at the newest: events older
 * than the last 64 are dropped (the host notices the gap in seq).  The
 * runner beats (and rewrites the block) when it starts, at each event and
 * every VDC_CTL_BEAT_S seconds while it works, so a host sees a runner
 * that stopped making progress; an older host ignores the heartbeat,
 * bytes it never read. */
enum vdc_ctl_event_kind {
    VDC_CTL_EV_TEST_BEGIN = 1,
    VDC_CTL_EV_TEST_END = 2,
    VDC_CTL_EV_TARGET_BEGIN = 3,    /* the agent is about to start on a target */
    VDC_CTL_EV_TARGET_END = 4,      /* the agent of a target exited */
};

struct vdc_ctl_event {
    uint64_t seq;           /* 1, 2, ... per control disk */
    uint64_t guest_ns;      /* the guest's CLOCK_MONOTONIC, nanoseconds */
    uint16_t target;        /* index of the job target */
    uint8_t kind;           /* enum vdc_ctl_event_kind */
    uint8_t test;           /* test id for TEST_*; 0 for TARGET_* */
};

struct vdc_ctl_progress {
    uint64_t nonce;
    uint64_t newest_seq;    /* 0: no event yet */
    uint32_t n_events;      /* valid entries of ev[], oldest first */
    struct vdc_ctl_event ev[VDC_CTL_PROGRESS_RING];
    uint64_t beats;         /* heartbeats so far; 0: the runner does not beat */
    uint64_t beat_ns;       /* the guest's CLOCK_MONOTONIC at the last beat, ns */
    /* the start gate (a job with gate_timeout_s), the guest's CLOCK_MONOTONIC
     * in ns, 0: not yet (or no gate) */
    uint64_t ready_ns;      /* set up (target found, mkfs, mount): waits for go */
    uint64_t go_ns;         /* the end of the gate read that found the host's go */
    uint64_t started_ns;    /* its first agent pass started (after go) */
};

/* Zero @p and set its nonce. */
void vdc_ctl_progress_init(struct vdc_ctl_progress *p, uint64_t nonce);
/* Append an event with seq newest_seq + 1, dropping the oldest beyond the
 * ring.  Returns the new event's seq. */
uint64_t vdc_ctl_progress_add(struct vdc_ctl_progress *p, uint64_t guest_ns, uint16_t target,
                              uint8_t kind, uint8_t test);
/* One heartbeat at @guest_ns: beats + 1, beat_ns = @guest_ns.  Returns
 * the new count. */
uint64_t vdc_ctl_progress_beat(struct vdc_ctl_progress *p, uint64_t guest_ns);
/* The 4096-byte block of @p into @out. */
void vdc_ctl_progress_encode(const struct vdc_ctl_progress *p, uint8_t *out);
/* Decode @len (>= 4096) untrusted bytes.  0; 1 when the area is blank (all
 * zero magic: the runner wrote nothing yet); -1 with @err on a bad magic,
 * checksum (a torn read: read again), version, count, a kind out of 1..4
 * or seqs that are not consecutive up to the newest. */
int vdc_ctl_progress_decode(const uint8_t *buf, size_t len, struct vdc_ctl_progress *p,
                            struct vdc_ctl_error *err);
/* The progress area the superblock of the disk on @fd announces: *off 0
 * when it has none.  0 or -1 (superblock unreadable or invalid). */
int vdc_ctl_disk_progress_area(int fd, uint64_t *off, struct vdc_ctl_error *err);
/* Write @p at @off (from vdc_ctl_disk_progress_area) on @fd, from a
 * 4096-aligned buffer (so @fd may be opened O_DIRECT).  0 or -1 (runner). */
int vdc_ctl_disk_write_progress(int fd, uint64_t off, const struct vdc_ctl_progress *p,
                                struct vdc_ctl_error *err);
/* Read the progress block (host): 0 filled; 1 nothing to read yet (no
 * progress area, or blank); -1 with @err when it does not decode or its
 * nonce is not @nonce (a torn read: the caller reads again later). */
int vdc_ctl_disk_read_progress(int fd, uint64_t nonce, struct vdc_ctl_progress *p,
                               struct vdc_ctl_error *err);
/* The same over a whole disk image in memory (fuzzing, unit tests). */
int vdc_ctl_image_read_progress(const uint8_t *img, size_t len, uint64_t nonce,
                                struct vdc_ctl_progress *p, struct vdc_ctl_error *err);

/* ---- start gate ----------------------------------------------------------
 * Many guests at once start their agents together: each runner, set up,
 * writes ready_ns into its progress block and polls the gate record; the
 * host, once every guest of the level is ready, writes the go record into
 * each control disk (doc/control-disk.md "Start gate").  The gate record
 * (host-written, 512 bytes at VDC_CTL_GATE_OFF, inside the superblock's
 * 4096-byte block, bytes a host without the gate leaves zero):
 *   0    8 bytes  magic VDCCTLGO (all zero: no go yet)
 *   8    u32      version 1
 *   12   u32      reserved, 0
 *   16   u64      nonce (the job's: another job's go is not taken)
 *   24   u64      host_ns: the controller's CLOCK_MONOTONIC at the release
 *   508  u32      CRC-32C of bytes 0..507
 * The runner reads the whole first 4096 bytes with O_DIRECT (any logical
 * block size up to 4096 allows it); the host rewrites them whole (the
 * superblock as it is, the gate record in place), with O_DIRECT where the
 * file allows it, and fsyncs. */
#define VDC_CTL_GATE_MAGIC   "VDCCTLGO"
#define VDC_CTL_GATE_OFF     2048u
#define VDC_CTL_GATE_SIZE    512u
#define VDC_CTL_GATE_VERSION 1u
#define VDC_CTL_GATE_BLOCK   4096u      /* the block the gate record lives in */
#define VDC_CTL_GATE_MAX_S   86400u     /* the longest gate_timeout_s a job may ask */

struct vdc_ctl_gate {
    uint64_t nonce;
    uint64_t host_ns;       /* the controller's CLOCK_MONOTONIC at the release, ns */
};

/* The 512-byte gate record of @g into @out. */
void vdc_ctl_gate_encode(const struct vdc_ctl_gate *g, uint8_t *out);
/* Decode @len (>= VDC_CTL_GATE_SIZE) untrusted bytes: 0 a go for @nonce
 * (*@g filled); 1 no go yet (blank); -1 with @err on a bad magic, checksum
 * (a torn read: read again), version or another job's nonce. */
int vdc_ctl_gate_decode(const uint8_t *buf, size_t len, uint64_t nonce, struct vdc_ctl_gate *g,
                        struct vdc_ctl_error *err);
/* Host: the go @g into the control disk on @fd (opened O_RDWR, maybe
 * O_DIRECT): the first VDC_CTL_GATE_BLOCK bytes read, the gate record put
 * in, written back whole from an aligned buffer; the caller fsyncs.  The
 * superblock must be valid.  0 or -1. */
int vdc_ctl_disk_write_gate(int fd, const struct vdc_ctl_gate *g, struct vdc_ctl_error *err);
/* Runner: read the gate record on @fd (maybe O_DIRECT) from an aligned
 * buffer; returns as vdc_ctl_gate_decode (-1 also on a read error). */
int vdc_ctl_disk_read_gate(int fd, uint64_t nonce, struct vdc_ctl_gate *g,
                           struct vdc_ctl_error *err);

/* "ok", "failed", "timeout", "skipped", or "unknown" */
const char *vdc_ctl_status_name(uint32_t status);

#endif
