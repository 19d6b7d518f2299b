/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp result model: the C form of doc/result-format.md (version 2:
 * version 1 plus the job engine's workload samples).
 *
 * A result set is targets x tests x repetitions:
 *
 *   vdc_result_set
 *     experiment      (controller only; has_experiment says if present)
 *     targets[]       vdc_target: name, kind, where, requested, backend, ...
 *     runs[]          vdc_run: one (target, repetition); metadata; samples[]
 *       samples[]     vdc_sample: test id, value, unit, %CP, flags, ...
 *
 * Absent values (JSON member missing or null) use one sentinel per C type:
 *   char *   NULL
 *   double   NAN                    (test with vdc_has(x))
 *   int64_t  VDC_INT_ABSENT         (INT64_MIN)
 *   int      VDC_BOOL_ABSENT (-1)   for tri-state booleans
 * The sample flags too_fast and failed are plain 0/1 (always written).
 *
 * All strings are owned by the structure (g_malloc'd); set them with
 * vdc_set_str() (copies, frees the old value).  Every _init/_dispose pair
 * is safe to call twice; _dispose leaves the object in its _init state.
 *
 * Errors: functions returning int give 0 or -1, functions returning a
 * pointer give NULL; the message has been printed once with vdc_error().
 */
#ifndef VDC_MODEL_RESULT_H
#define VDC_MODEL_RESULT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include <json-glib/json-glib.h>

#include "guest-agent/test_ids.h"
#include "model/target.h"

#define VDC_RESULT_FORMAT         "vmdiskcmp-result"
/* The newest version this model reads; a document is written as version 1
 * unless it holds workload samples (vdc_result_set_format_version). */
#define VDC_RESULT_FORMAT_VERSION 2

#define VDC_INT_ABSENT  INT64_MIN
#define VDC_BOOL_ABSENT (-1)
/* true when a double member holds a value (is not NAN) */
#define vdc_has(x) (!isnan(x))

/* ---- The test-id table ------------------------------------------------------
 * Expanded from the one test-id list that the agent shares
 * (guest-agent/test_ids.h: ids, units, bonnie++ CSV fields, report group,
 * labels).  Order is the bonnie++ report order (putc .. ran_del), then the
 * sweep, then dd's own tests (imported `dd` transcripts, src/import/dd.c).
 * csv_field/csv_cpu_field/csv_latency_field are the 1-based field numbers
 * of bonnie++ 2.00a CSV (format 1.98, 50 fields; bon_csv2txt's order);
 * 0 = the test has no such field (sweep and dd tests). */
typedef enum {
#define VDC_TEST_ENUM(id, ...) VDC_TEST_##id,
    VDC_BONNIE_TESTS(VDC_TEST_ENUM)
    VDC_SWEEP_TESTS(VDC_TEST_ENUM)
    VDC_DD_TESTS(VDC_TEST_ENUM)
    VDC_WORKLOAD_TESTS(VDC_TEST_ENUM)
#undef VDC_TEST_ENUM
    VDC_TEST_COUNT,
    VDC_TEST_UNKNOWN = -1,
} vdc_test_id;

typedef struct {
    vdc_test_id id;
    const char *name;        /* "putc": the JSON "test" member */
    int csv_field;           /* value field, bonnie++ 1.98 CSV, 1-based */
    int csv_cpu_field;       /* %CP field */
    int csv_latency_field;   /* latency field */
    const char *unit;        /* "K/sec", "/sec", "MiB/s" */
    const char *label;       /* "Sequential output, per-char" */
    const char *short_label; /* column header: "Per Chr" */
    const char *chart_label; /* chart axis: "Write per-char" (sweep: "Read", + block size) */
    enum vdc_test_group group;   /* the report block: io, files, sweep */
    int sweep;               /* 1: keyed ID@BLOCK_SIZE (block_size set); group sweep */
    int workload;            /* 1: keyed ID@JOB_NAME (workload->name); group workload */
} vdc_test_info;

/* The table, indexed by vdc_test_id (VDC_TEST_COUNT entries). */
extern const vdc_test_info vdc_tests[VDC_TEST_COUNT];

/* Look a test up by its id string ("putc"); NULL if unknown (no message). */
const vdc_test_info *vdc_test_lookup(const char *name);

/* Test key of a sample: the test id, or "ID@BLOCK_SIZE" for sweep tests
 * (e.g. "sweep_read@4096").  Returns a new string (g_free). */
char *vdc_test_key(const char *test, int64_t block_size);

/* Split a test key into its test info and block size (0 when none).
 * A workload key "workload_read@JOB" parses to its test (block size 0);
 * vdc_test_key_job gives JOB.  Returns the info, or NULL for a malformed
 * key (no message). */
const vdc_test_info *vdc_test_key_parse(const char *key, int64_t *block_size);

/* The job part of a workload key ("randread-4k-qd32" of
 * "workload_read@randread-4k-qd32", "randread-4k-qd32@raw" of a raw
 * job's "workload_read@randread-4k-qd32@raw"), pointing into @key; NULL
 * for any other key. */
const char *vdc_test_key_job(const char *key);

/* The suffix of a workload key whose samples ran on the raw block device
 * (workload.on "raw"): "ID@JOB" VDC_WORKLOAD_RAW_SUFFIX. */
#define VDC_WORKLOAD_RAW_SUFFIX "@raw"

/* A sample of a measurement pass (samples[].pass) has the key of its test
 * followed by this and the pass: "put_block~first-write",
 * "workload_write@randwrite-4k-qd32@raw~overwrite" (doc/result-format.md).
 * vdc_test_key_parse and the job functions read a key without it;
 * vdc_test_key_pass gives the pass (a pointer into @key), NULL when none. */
#define VDC_PASS_SEP '~'
const char *vdc_test_key_pass(const char *key);

/* 1 when @key is a workload key of a job that ran on the raw block device
 * (it ends in VDC_WORKLOAD_RAW_SUFFIX), else 0. */
int vdc_test_key_raw(const char *key);

/* The job of workload key @key as a report names it, into @buf (@size
 * bytes, returned): the job name, followed by " (raw)" for a raw key; the
 * key itself for any other key. */
const char *vdc_test_key_job_label(const char *key, char *buf, size_t size);

/* ---- Workload samples (format_version 2): model/result_workload.h ------- */
#include "model/result_workload.h"

/* ---- Samples ------------------------------------------------------------ */

typedef struct {
    char *test;              /* test id (vdc_tests[].name) */
    double value;            /* rate in `unit`; NAN = null (too fast / failed) */
    char *unit;              /* "K/sec" (KiB/s), "/sec", "MiB/s" */
    double cpu_percent;      /* %CP, user+system incl. children; NAN absent */
    double latency_us;       /* worst single-op latency, microseconds */
    double elapsed_s;        /* wall time of the test, seconds */
    int too_fast;            /* < 0.5 s: bonnie++ printed +++++ */
    int failed;              /* the test did not complete */
    char *error;             /* one line, or NULL */
    int64_t block_size;      /* bytes, sweep tests only; VDC_INT_ABSENT */
    double user_s;           /* sweep only: CPU seconds, getrusage */
    double system_s;
    double system_us_per_op; /* sweep only: system time per call, us */
    int64_t bytes;           /* sweep only (agent): bytes moved */
    int64_t ops;             /* sweep only (agent): read/write calls made; dd: records
                              * (full + partial) of the measured side */
    double real_s;           /* dd only: wall time of the whole command from the
                              * shell's `time` (real), seconds; elapsed_s is dd's own */
    vdc_workload *workload;  /* workload tests only (required there), else NULL; not
                              * in the member table: loaded, written, copied by hand */
    JsonObject *host;        /* samples[].host: what serving this test cost dom0
                              * (doc/result-format.md "Host cost"), or NULL; kept
                              * as the document holds it (the members the analysis
                              * reads are checked at load: vdc_host_check) */
    char *pass;              /* the measurement pass (the agent's --passes): NULL, or
                              * e.g. "first-write", "overwrite" (a thin LV); its
                              * test key ends in VDC_PASS_SEP and it */
} vdc_sample;

void vdc_sample_init(vdc_sample *s);

/* ---- Physical bounds ---------------------------------------------------------
 * What a measurement can physically be, by unit: a number above its bound
 * comes from a broken or hostile producer (a guest's agent, a forged or
 * damaged file), never from a disk.  The bounds are far above any host
 * (a host's memory bandwidth is under 1 TiB/s; an I/O taking a day has
 * failed) and far below where double arithmetic overflows, so sums, means,
 * variances and chart axes over any number of accepted values stay finite.
 * The loader (vdc_result_set_load_data, used for agent answers, result.json
 * and merge), the importers and vdc_workload_check apply them. */
#define VDC_RATE_KIB_S_MAX  1e10    /* K/sec (KiB/s): 9.3 TiB/s */
#define VDC_RATE_MIB_S_MAX  1e7     /* MiB/s: 9.5 TiB/s */
#define VDC_RATE_OPS_S_MAX  1e9     /* /sec, IO/sec: operations per second */
#define VDC_LATENCY_US_MAX  8.64e10 /* us: one day */
#define VDC_SECONDS_MAX     1e8     /* s: elapsed, CPU, wall times (3 years) */
/* The most CPUs a host has: Linux's NR_CPUS ceiling (CONFIG_NR_CPUS at most
 * 8192).  A literal: messages print it with G_STRINGIFY. */
#define VDC_HOST_MAX_CPUS 8192
#define VDC_PERCENT_CPU_MAX (100.0 * VDC_HOST_MAX_CPUS) /* %CP: 100 per CPU */
#define VDC_BYTES_MAX       1e18    /* bytes moved or counted: 0.87 EiB */
#define VDC_COUNT_MAX       1e15    /* operations, I/Os */
#define VDC_NUMBER_MAX      1e15    /* magnitude of any other number in the model */

/* The bound of a sample value in @unit (one of the test table's units:
 * "K/sec", "MiB/s", "/sec", "IO/sec"); VDC_NUMBER_MAX for any other. */
double vdc_unit_max(const char *unit);

/* Check the numbers of sample @s against the physical bounds above: value
 * (by its unit, or its test's when the unit is unset), cpu_percent,
 * latency_us, elapsed_s, user_s, system_s, system_us_per_op, real_s,
 * bytes, ops.  The workload object has its own check (vdc_workload_check).
 * NULL when every present number is within its bound, else a new message
 * naming the member, its value and the bound ("value: 1.7e+308 K/sec:
 * expected at most 1e+10 K/sec (9.3 TiB/s)"; g_free). */
char *vdc_sample_bounds_check(const vdc_sample *s);


/* A sample's host figure: samples[].host.@group.@role (e.g. group
 * "cpu_s_per_gib", role "qemu"), NAN when absent or null. */
double vdc_sample_host_figure(const vdc_sample *s, const char *group, const char *role);

/* A sample's host figure that is one number, samples[].host.@member
 * (e.g. "disk_read_bytes"), NAN when absent or not a number. */
double vdc_sample_host_scalar(const vdc_sample *s, const char *member);

/* A sample's host figure that is a [start, end] pair,
 * samples[].host.@member (e.g. "dom0_dirty_bytes"), into @v: 1, or 0 when
 * absent, not two elements or not two numbers (@v then unspecified). */
int vdc_sample_host_pair(const vdc_sample *s, const char *member, double v[2]);

/* The bounds of samples[].host CPU figures (vdc_host_check). */
#define VDC_HOST_CPU_SLACK_S 0.1        /* s: clock ticks read at the interval's ends */
/* and VDC_HOST_MAX_CPUS (above): cpu_s <= interval_s x it */
#define VDC_HOST_CPU_S_MAX 1e8          /* s: cpu_s with no interval_s (3 CPU-years) */
#define VDC_HOST_CPU_RATIO_MAX 1e9      /* cpu_s_per_gib, cpu_s_per_1000_ios: absolute */

/* Check a samples[].host object's members the analysis reads: each of
 * cpu_s, cpu_s_per_gib, cpu_s_per_1000_ios, when present, an object whose
 * members are numbers or null, each finite: cpu_s from 0 to interval_s x
 * VDC_HOST_MAX_CPUS (+ VDC_HOST_CPU_SLACK_S; no interval_s:
 * VDC_HOST_CPU_S_MAX), qemu_io and dom0_other (differences) of that
 * magnitude either side of 0; the ratios of magnitude at most
 * VDC_HOST_CPU_RATIO_MAX, negative only for those two roles; interval_s, guest_elapsed_s,
 * boundary_error_s, bytes, ios, disk_read_bytes, disk_write_bytes numbers
 * >= 0 or null; the dom0_*_bytes, image_resident_bytes and monotonic_s
 * pairs two numbers >= 0; sliced a boolean; source a string;
 * cpu_attribution an object of {attribution, reason} objects.  NULL when good, else a new message naming
 * the member (g_free). */
char *vdc_host_check(JsonObject *host);
void vdc_sample_dispose(vdc_sample *s);

/* Test key of a sample: vdc_test_key(test, block_size), or ID@JOB_NAME
 * for a workload sample with a workload object.  g_free(). */
char *vdc_sample_key(const vdc_sample *s);

/* ---- Runs ---------------------------------------------------------------- */
typedef struct {
    int64_t number;          /* files, in units of 1024 (bonnie++ -n) */
    int64_t max_size;        /* bytes */
    int64_t min_size;        /* bytes */
    int64_t dirs;
    int64_t chunk_size;      /* bytes */
} vdc_files_info;

typedef struct {
    char *file;              /* imported file as named on the command line */
    int64_t line;            /* 1-based line of the CSV line / table start */
    char *format;            /* "bonnie++-csv-1.98", "bonnie-1.x-table", ... */
    char *section;           /* the section or separator line the run was under
                              * ("READ (no cache bs=1M):"), NULL none */
} vdc_source_info;

typedef struct {
    char *tool;              /* "vmdiskcmp-agent 0.1.0", "bonnie++ 1.03" */
    char *hostname;
    char *kernel;
    char *cpu_model;
    int64_t ram_mib;
    char *date;              /* ISO 8601 UTC */
    char *command_line;
    char *seed;              /* decimal string */
    int64_t file_size_mib;
    int64_t chunk_size;      /* bytes */
    int64_t seeks;
    int64_t seek_processes;
    int64_t concurrency;     /* bonnie++ -c (copies run at once), CSV field 4 */
    vdc_files_info files;    /* all members absent when unknown */
    char *path;
    char *fs_type;
    char *device;
    int direct_io;           /* tri-state */
    int fsync_every_write;   /* tri-state */
    char *per_char;          /* "syscall" or "stdio" */
    char *trace_digest;      /* hex */
    int64_t file_size_bytes; /* agent: exact -s size (file_size_mib rounds down) */
    int64_t per_char_size;   /* agent: bytes moved by each per-char test */
    int sweep_direct_io;     /* agent: O_DIRECT in the sweep (tri-state) */
    int drop_caches;         /* agent: page cache dropped before each test */
    char *dd_conv;           /* dd: the conv= operand as given ("fdatasync"), NULL none */
    char *dd_iflag;          /* dd: iflag= as given ("direct") */
    char *dd_oflag;          /* dd: oflag= as given ("direct,dsync") */
    vdc_source_info source;  /* importers only */
} vdc_run_meta;

/* runs[].release: when one of a level's guests was ready, released and
 * started (doc/result-format.md "runs[].release"): monotonic seconds on
 * the controller's clock, NAN absent. */
typedef struct {
    double ready_s;          /* its agent reported ready on its control disk */
    double released_s;       /* the controller released every guest of the level */
    double started_s;        /* its agent's first I/O, as the guest reports it,
                              * mapped to the controller's clock */
} vdc_run_release;

/* The most domUs one level may boot together (runs[].level, --guests). */
#define VDC_LEVEL_MAX 1024

typedef struct {
    char *target;            /* target name */
    int64_t repetition;      /* 0-based among the target's runs (of one level
                              * and guest) */
    int64_t level;           /* domUs booted together for this run, 1 to
                              * VDC_LEVEL_MAX; VDC_INT_ABSENT: 1 (vdc_run_level) */
    int64_t guest;           /* which of them, 0 to level - 1; VDC_INT_ABSENT: 0 */
    vdc_run_release release; /* all absent: one guest, no synchronised release */
    char *status;            /* "ok", "failed", "timeout" */
    char *error;             /* one line or NULL */
    vdc_run_meta meta;
    vdc_sample **samples;
    size_t n_samples;
    JsonObject *host;        /* runs[].host: what was sampled (servers, poll
                              * interval), or NULL; as vdc_sample.host */
} vdc_run;

void vdc_run_init(vdc_run *r);
void vdc_run_dispose(vdc_run *r);

/* The level of run @r: r->level, or 1 when absent. */
int64_t vdc_run_level(const vdc_run *r);
/* The guest of run @r within its level: r->guest, or 0 when absent. */
int64_t vdc_run_guest(const vdc_run *r);

/* Append a sample for test id @test (any string; the unit is taken from
 * the test table when the id is known, else left NULL).  All optional
 * members start absent, value = NAN, too_fast = failed = 0.
 * Returns the sample (owned by the run). Never NULL. */
vdc_sample *vdc_run_add_sample(vdc_run *r, const char *test);

/* The bytes sequential test @ti moved in run @r, from the agent's sizes
 * (meta.file_size_bytes, else file_size_mib; per_char_size): the file for
 * block write and read, twice it for rewrite (read and written back), the
 * per-char size for putc and getc.  NAN when not known or not a sequential
 * test (@ti NULL included). */
double vdc_run_test_bytes(const vdc_run *r, const vdc_test_info *ti);

/* ---- Targets ------------------------------------------------------------- */
typedef struct {
    char *disk_spec;         /* xl disk spec */
    char *domain_xml_disk;   /* libvirt <disk> element */
    char *image_backend;     /* auto, phy, qdisk, tap */
    char *image_cache;       /* host, none (--image-cache) */
    /* the hypervisor's knobs the domain was given (QEMU/KVM through
     * libvirt): what the domain XML asked, "default" where it named none */
    char *disk_cache;        /* none, writeback, directsync, writethrough, default */
    char *disk_io;           /* native, io_uring, threads, default */
    int64_t iothreads;       /* I/O threads of the disk: 0 none */
    int64_t queues;          /* queues of the disk asked for; absent: QEMU's */
    char *disk_bus;          /* virtio-blk, virtio-scsi */
} vdc_target_requested;

/* What QEMU itself says of a disk (host/qemudisk.h): QMP query-block's
 * cache flags, the protocol node's aio, the device's I/O thread and queues
 * (qom-get), checked against query-iothreads. */
typedef struct {
    int cache_direct;        /* tri-state: O_DIRECT */
    int cache_no_flush;      /* tri-state: flushes ignored */
    int cache_writeback;     /* tri-state: the device's write cache */
    char *aio;               /* threads, native, io_uring */
    char *iothread;          /* QEMU's id ("iothread1"); NULL none */
    int64_t queues;
    char *source;            /* "qmp query-block, qemu command line, ..." */
} vdc_target_backend_qemu;

typedef struct {
    char *type;              /* phy, qdisk, vbd, vbd3, file, block */
    char *source;            /* xenstore, libvirt-live-xml, local */
    char *xenstore_path;
    char *physical_device;   /* /dev/loop3, /dev/vg/lv */
    char *params;            /* qdisk "aio:/path" */
    int direct_io_safe;      /* tri-state */
    char *mode;              /* w / r */
    char *vdev;              /* xvdb */
    char *driver_name;
    char *cache;
    char *io;
    char *bus;               /* virtio-blk, virtio-scsi, xen (or libvirt's word) */
    int64_t iothread;        /* libvirt's <iothread id>; absent none */
    int64_t queues;          /* the disk's queues (libvirt or QEMU; Xen: negotiated) */
    vdc_target_backend_qemu qemu;
    /* Xen blkback's ring (xenstore): what the backend offers and what the
     * frontend chose once Connected (XenbusState 4); frontend_state the
     * frontend's state when last read (4: the ring and queues above are
     * the negotiated ones; else nothing was negotiated when it was read) */
    int64_t max_ring_page_order;
    int64_t max_queues;
    int64_t ring_page_order;
    int64_t frontend_state;
} vdc_target_backend;

/* targets[].storage.thin: a thin LV's pool as lvm2 reported it right
 * after creation, and how full it was after the last boot (doc/storage.md
 * "Thin LVs"); absent members unknown. */
typedef struct {
    char *pool;              /* the pool's LV name */
    int64_t chunk_size;      /* bytes */
    int zeroing;             /* tri-state: new chunks zeroed */
    char *discards;          /* passdown, nopassdown, ignore */
    int64_t pool_size;       /* bytes: the pool's data */
    int64_t metadata_size;   /* bytes */
    double data_percent[2];  /* % of the pool's data in use: before the first boot,
                              * after the last (NAN unknown); JSON [before, after],
                              * each 0-100 or null, by hand */
    double metadata_percent[2];  /* % of the pool's metadata in use, the same way */
    char *source;            /* "lvs" */
} vdc_target_thin;

/* targets[].storage.qcow2: a qcow2 image's header read back right after
 * creation (qemu-img info and map; doc/storage.md "image"). */
typedef struct {
    int64_t cluster_size;    /* bytes */
    int64_t l2_cache_size;   /* bytes; absent: QEMU's default */
    char *preallocation;     /* off, metadata, falloc, full */
    int64_t virtual_size;    /* bytes */
    int64_t actual_size;     /* bytes on the host */
    char *compat;            /* "1.1" */
    int lazy_refcounts;      /* tri-state */
    int extended_l2;         /* tri-state */
    int64_t mapped_bytes;    /* guest bytes with a host cluster */
    int64_t mapped_zero_bytes;   /* of them reading as zeros */
    char *source;            /* "qemu-img info" */
} vdc_target_qcow2;

typedef struct {
    char *path;
    int64_t size_bytes;
    char *format;            /* raw, qcow2 */
    char *alloc;             /* sparse, falloc, full, metadata (qcow2) */
    char *vg;
    char *lv;
    int64_t stripes;
    int64_t stripe_size;     /* bytes */
    int64_t pe_start;        /* bytes */
    char *device;
    char *lv_type;           /* linear, striped, thin */
    vdc_target_thin thin;    /* lv_type thin */
    vdc_target_qcow2 qcow2;  /* format qcow2 */
} vdc_target_storage;

/* targets[].alignment: each layer of the target's storage against the I/O
 * sizes of the disk under it (src/host/alignment.h, the rule there),
 * recorded by the controller.  Layers and misaligned are by hand. */
#define VDC_ALIGN_LAYER_NAMES "partition|pv_data|lv_extent|image_cluster|fs_block|fs_stripe"
#define VDC_TARGET_ALIGN_LAYERS_MAX 8
typedef struct {
    char *layer;             /* one of VDC_ALIGN_LAYER_NAMES */
    int64_t offset;          /* bytes from the disk's first byte; absent: a unit only */
    int64_t size;            /* bytes: the layer's unit */
    char *why;               /* misaligned: the rule's numbers, one line; else NULL */
} vdc_target_align_layer;

/* targets[].alignment.guest: the disk the guest filesystem's layers
 * (fs_block, fs_stripe) are checked against, as the guest sees it (its
 * runner reads it: guest-agent/fsunits.h) */
typedef struct {
    char *disk;                  /* the guest's name: "vdb", "sda", "xvdb" */
    int64_t physical_block_size; /* bytes, the guest's sysfs */
    int64_t minimum_io_size;
    int64_t optimal_io_size;
    int64_t alignment_offset;
    char *source;                /* what the layers were read from: "ext4 superblock" */
} vdc_target_align_guest;

typedef struct {
    char *disk;                  /* the whole disk: "vda", "loop3" */
    int64_t physical_block_size; /* bytes, sysfs */
    int64_t minimum_io_size;
    int64_t optimal_io_size;
    int64_t alignment_offset;
    char *source;                /* "sysfs,lvs,fiemap,superblock" */
    vdc_target_align_guest guest;
    vdc_target_align_layer layers[VDC_TARGET_ALIGN_LAYERS_MAX];
    size_t n_layers;
} vdc_target_alignment;

typedef struct {
    char *type;              /* ext4 */
    char *mkfs_options;
} vdc_target_filesystem;

/* targets[].cache: whether dom0's page cache may serve the target, read
 * back after boot from the facts below (doc/result-format.md, "targets[]
 * cache"), never assumed.  All members optional. */
typedef struct {
    char *requested;             /* "host", "none" (--image-cache; images only) */
    int bypasses_dom0_page_cache;/* tri-state: the verdict from the facts */
    char *loop_device;           /* "/dev/loop3": xenstore node, or found by backing file */
    char *loop_backing_file;     /* /sys/block/loopN/loop/backing_file */
    int loop_dio;                /* tri-state: /sys/block/loopN/loop/dio */
    int64_t loop_offset;         /* bytes: /sys/block/loopN/loop/offset */
    int direct_io_safe;          /* tri-state: xenstore direct-io-safe (qdisk) */
    char *libvirt_cache;         /* live XML <driver cache=>; NULL absent (QEMU: writeback) */
    char *libvirt_io;            /* live XML <driver io=> */
    int64_t qemu_pid;            /* the QEMU process holding the image */
    int qemu_o_direct;           /* tri-state: it holds the image with O_DIRECT */
    char *source;                /* "sysfs,xenstore,libvirt-live-xml,fdinfo" */
    char *error;                 /* one line: why `none` was refused, or what changed */
} vdc_target_cache;

/* At most this many ranges in targets[].placement.ranges (a document with
 * more is refused; the run keeps the first ones and says how many were
 * left out in ranges_omitted). */
#define VDC_PLACEMENT_RANGES_MAX 4096

/* targets[].placement: where the target's blocks lie on the whole disk
 * under them (src/host/placement.h): byte ranges [start, length] on
 * @disk.  Two targets' ranges compare when their disk is the same. */
typedef struct {
    char *disk;                  /* "sda", "vda" (or "dm-0": not resolved) */
    int rotational;              /* tri-state */
    int64_t disk_bytes;
    int64_t extents;             /* FIEMAP extents or LV segment ranges read */
    int64_t mapped_bytes;
    int64_t unmapped_bytes;
    double center_bytes;         /* byte-weighted middle of the ranges */
    int64_t ranges_omitted;      /* ranges beyond VDC_PLACEMENT_RANGES_MAX */
    char *source;                /* "fiemap", "lvs seg_pe_ranges" */
    char *reason;                /* why the ranges are not on a disk ("dm-0") */
    int64_t *ranges;             /* 2 x n_ranges: start, length (bytes); by hand */
    size_t n_ranges;
} vdc_target_placement;

/* targets[].variant: the values of the target matrix's dimensions that
 * made this target (plan/dims.h vdc_dim_variant_json, by its keys), only
 * those the run was given that apply to the target's kind; a member absent:
 * not given (the dimension's default).  Names as the options take them. */
typedef struct {
    char *image_format;      /* raw, qcow2 */
    char *image_alloc;       /* sparse, falloc, full, metadata */
    char *image_backend;     /* auto, phy, qdisk, tap */
    char *image_cache;       /* host, none */
    char *disk_cache;        /* none, writeback, directsync, writethrough */
    char *disk_io;           /* native, io_uring, threads */
    int64_t iothreads;       /* I/O threads per disk, 0 to 16 */
    char *disk_bus;          /* virtio-blk, virtio-scsi */
    char *lv_type;           /* linear, striped, thin */
    int64_t fill_percent;    /* %, 0 to 95 */
    int precondition;        /* tri-state */
} vdc_target_variant;

/* targets[].provenance: where an imported target's description came from,
 * one line each, NULL when nothing was said (src/import/describe.c). */
typedef struct {
    char *kind;              /* "its name says 'disk image'", "--kind-map 'Test 2=lvm'" */
    char *memory_mib;        /* "seed.txt:17: memory = \"512\"", "--ram 512" */
    char *dom0_memory_mib;   /* "seed.txt:52: ...5 GB of ram available...", "--dom0-ram" */
} vdc_target_provenance;

typedef struct {
    char *name;              /* unique within the set */
    char *kind;              /* image, lvm, block, dom0, imported */
    char *where;             /* domU, dom0, host */
    vdc_target_variant variant;
    int64_t memory_mib;      /* RAM of the machine the agent ran in; VDC_INT_ABSENT:
                              * see experiment.guest/host (merge fills it) */
    int64_t dom0_memory_mib; /* imports: RAM of the dom0 beneath a domU target (what
                              * can cache an image's blocks), MiB; VDC_INT_ABSENT
                              * unknown (a dom0 target's memory_mib may say it) */
    vdc_target_provenance provenance;   /* imports: where kind and RAM came from */
    vdc_target_requested requested;
    vdc_target_backend backend;
    vdc_target_storage storage;
    vdc_target_filesystem filesystem;
    vdc_target_cache cache;
    vdc_target_placement placement;
    vdc_target_alignment alignment;
} vdc_target;

/* One line of targets[].variant, "key value" by member in the matrix's
 * order: "image_format qcow2, disk_cache none, iothreads 1, precondition
 * on"; NULL when the target has none (g_free). */
char *vdc_target_variant_text(const vdc_target *t);

/* The misaligned layers of @t (alignment.layers with a why), in order;
 * 0 when none or not recorded. */
size_t vdc_target_misaligned(const vdc_target *t);

/* A thin pool more than this full (%) after the runs is an artefact: near
 * full, writes wait for space and at 100 % they queue, then fail
 * (dm-thin's no_space_timeout, error_if_no_space); dmeventd warns from
 * 80 % */
#define VDC_THIN_POOL_FULL_PERCENT 90.0

/* How far over VDC_THIN_POOL_FULL_PERCENT @t's thin pool was after the
 * last boot: the higher of its data and metadata use then
 * (storage.thin.data_percent[1], metadata_percent[1]; %) when it is above
 * the bound, with *@what (may be NULL) "data" or "metadata"; NAN when
 * neither is above it, neither was read, or @t is not a thin LV.  The data
 * counts only when the pool may run out of it: not when its data space
 * (storage.thin.pool_size) is known to hold the whole LV
 * (storage.size_bytes), as vmdiskcmp sizes its pools, where a fully
 * written LV fills the pool without any write waiting.  Pure. */
double vdc_target_thin_pool_full(const vdc_target *t, const char **what);

void vdc_target_init(vdc_target *t);
void vdc_target_dispose(vdc_target *t);

/* ---- Experiment (controller) -------------------------------------------- */
/* The filesystem holding the image files (--image-dir) and the block
 * device behind it, as dom0 saw it; every member best-effort (absent when
 * unknown: tmpfs, overlay, no sysfs). */
typedef struct {
    char *path;                  /* the image directory */
    char *fs_type;               /* statfs / mountinfo type: "ext4" */
    char *device;                /* mountinfo source: "/dev/nvme0n1p2" */
    int rotational;              /* sysfs queue/rotational, tri-state */
    char *scheduler;             /* sysfs queue/scheduler, the [selected] one */
    char *model;                 /* sysfs device/model, trimmed */
    int64_t logical_block_size;  /* bytes, sysfs queue/logical_block_size */
    int64_t physical_block_size; /* bytes, sysfs queue/physical_block_size */
} vdc_image_dir_info;

/* experiment.host.blkback's parameters: one blkback module parameter the
 * run set (--blkback-*), read before, after its write and after the
 * run wrote it back (host/blkback.h); absent members: not done. */
typedef struct {
    int64_t was;                 /* read before the run wrote it */
    int64_t set;                 /* what the run wrote */
    int64_t read_back;           /* read after the write */
    int64_t restored;            /* read after the run wrote `was` back */
} vdc_blkback_param_info;

typedef struct {
    char *source;                /* the parameters' directory (sysfs) */
    vdc_blkback_param_info max_ring_page_order;
    vdc_blkback_param_info max_queues;
} vdc_blkback_info;

typedef struct {
    char *hostname;
    char *kernel;
    char *cpu_model;
    int64_t cpu_count;
    int64_t ram_mib;
    char *cpu_governor;
    char *cmdline;               /* /proc/cmdline of dom0 (the host) */
    char *mkfs_version;          /* first line of `mkfs.TYPE -V` on the host */
    vdc_image_dir_info image_dir;
    vdc_blkback_info blkback;    /* --blkback-*: what the run set and restored */
} vdc_host_info;

typedef struct {
    char *driver;            /* libxl, libvirt, mock, none */
    char *uri;
    char *xen_version;
    char *libvirt_version;
    char *qemu_version;
    char *libxl_version;
    char *xen_commandline;   /* Xen's own command line (libxl only) */
} vdc_hypervisor_info;

typedef struct {
    char *template_path;     /* JSON "template" */
    char *template_sha256;
    char *agent_sha256;
    char *prepared_image;
    int64_t memory_mib;
    int64_t vcpus;
    char *kernel;            /* path of the domU kernel */
    char *kernel_sha256;     /* hex */
    char *initrd;            /* path */
    char *initrd_sha256;     /* hex */
    char *cmdline;           /* the domU kernel command line used */
} vdc_guest_info;

/* Why the repetitions of one headline test stopped (one element of
 * experiment.runs_policy.stop, doc/result-format.md): for the pair
 * (@target against @reference; NULL: every pair) on test key @test. */
typedef struct {
    char *test;              /* test key, e.g. "put_block" */
    char *target;            /* the pair's target (an image variant), or NULL */
    char *reference;         /* the pair's reference (an LV/block variant), or NULL */
    char *reason;            /* vdc_stop_reason_name: "precision reached", "max runs",
                              * "not measurable"; a one-line string */
    int64_t runs;            /* repetitions when the reason was decided; VDC_INT_ABSENT */
    double half_width_percent;   /* the ratio's relative 95 % half-width then, %; NAN */
} vdc_stop_record;

/* How many repetitions the run made and why (experiment.runs_policy;
 * optional: absent in documents written before it, which ran a fixed
 * --runs N, experiment.runs_per_target). */
typedef struct {
    char *mode;              /* "fixed" (--runs N) or "auto" (--runs auto) */
    int64_t min_runs;        /* auto: repetitions before the rule may stop */
    int64_t max_runs;        /* auto: --max-runs */
    double precision_percent;    /* auto: --precision, % half-width of the ratio's 95 % CI */
    vdc_stop_record *stop;   /* auto: per headline test (n_stop; not in the member
                              * table: loaded, written, copied and freed by hand) */
    size_t n_stop;
} vdc_runs_policy;

/* Where a run's wall time went (experiment.time, seconds, optional; the
 * controller measures it with the monotonic clock).  The parts do not add
 * up to total_s: the rest is the controller's own work (facts, journal,
 * collecting, the report). */
typedef struct {
    double total_s;          /* --out created to teardown done */
    double prepare_s;        /* preparing or loading the guest image */
    double provision_s;      /* creating the images and LVs */
    double domu_s;           /* domU boots, create to power-off, summed */
    double domu_agent_s;     /* of those, the agent's own wall time (the runner's, per target) */
    double dom0_s;           /* dom0 baseline steps (mkfs, mount, agent, unmount), summed */
    double teardown_s;       /* the final teardown of everything journaled */
} vdc_time_info;

/* One element of experiment.levels[]: one level of --guests for one
 * target and repetition (doc/result-format.md "experiment.levels[]"). */
typedef struct {
    int64_t guests;          /* N: domUs booted together, 1 to VDC_LEVEL_MAX */
    int64_t repetition;      /* 0-based */
    char *target;            /* the target's name (targets[].kind: its backend) */
    double start_skew_s;     /* max - min of its guests' release.started_s, s; NAN */
    char *status;            /* "ok", "failed", "timeout" */
    char *error;             /* one line: which guest failed and why, or NULL */
    JsonObject *host;        /* the host cost of the whole level (as samples[].host,
                              * checked by vdc_host_check), or NULL; by hand */
} vdc_level_record;

typedef struct {
    char *id;
    char *build;             /* git describe --always --dirty of vmdiskcmp's source */
    char *date;
    char *command_line;
    char *seed;              /* decimal string */
    int64_t runs_per_target;
    char *order;             /* rotated, interleaved, grouped (plan/plan.h vdc_order) */
    vdc_runs_policy runs_policy;
    vdc_time_info time;
    int emulated;            /* tri-state */
    vdc_host_info host;
    vdc_hypervisor_info hypervisor;
    vdc_guest_info guest;
    vdc_level_record *levels;    /* experiment.levels[] (n_levels; not in the member
                                  * table: loaded, written, copied and freed by hand) */
    size_t n_levels;
} vdc_experiment;

void vdc_experiment_init(vdc_experiment *e);
void vdc_experiment_dispose(vdc_experiment *e);
/* Deep copy of @src into @dst (whose old members are freed). */
void vdc_experiment_copy(vdc_experiment *dst, const vdc_experiment *src);

/* Append a stop record for @test to @p (other members absent; the caller
 * sets them with vdc_set_str).  Returns it (owned by @p; valid until the
 * next append).  Never NULL. */
vdc_stop_record *vdc_runs_policy_add_stop(vdc_runs_policy *p, const char *test);

/* Append a level record to @e (every member absent); returns it (owned by
 * @e, valid until the next append).  Never NULL. */
vdc_level_record *vdc_experiment_add_level(vdc_experiment *e);
/* Free every level record of @e (n_levels 0 after; safe twice). */
void vdc_experiment_levels_dispose(vdc_experiment *e);

/* ---- The result set ------------------------------------------------------ */
typedef struct {
    char *producer_name;     /* "vmdiskcmp" or "vmdiskcmp-agent" */
    char *producer_version;
    int has_experiment;      /* write/read the experiment object */
    vdc_experiment experiment;
    int mixed_experiments;   /* 1: vdc_result_set_merge joined runs of more than one
                              * experiment (different experiment.id, or one without):
                              * repetition r of two targets is no pair; experiment
                              * holds the first one's; never saved */
    vdc_target **targets;
    size_t n_targets;
    vdc_run **runs;
    size_t n_runs;
} vdc_result_set;

/* Empty set, producer "vmdiskcmp" PACKAGE_VERSION. */
void vdc_result_set_init(vdc_result_set *rs);
void vdc_result_set_dispose(vdc_result_set *rs);

/* Replace *dst with a copy of @src (NULL allowed: *dst = NULL). */
void vdc_set_str(char **dst, const char *src);

/* Target named @name, or NULL. */
vdc_target *vdc_result_set_find_target(const vdc_result_set *rs, const char *name);

/* What targets[].kind says target @name of @rs is, as a description
 * (model/target.h: where, and backing unless the kind is dom0) into @s
 * (zeroed first).  0, or -1 when @name has no record or a kind no run's
 * target has (imported, absent). */
int vdc_result_set_target_spec(const vdc_result_set *rs, const char *name, vdc_target_spec *s);

/* The role (model/target.h) of target @name of @rs by its targets[].kind:
 * VDC_ROLE_OTHER when @name has no record or a kind no run's target has. */
vdc_target_role vdc_result_set_target_role(const vdc_result_set *rs, const char *name);

/* 1 when @name can name a target: non-empty, valid UTF-8, no control
 * characters (a newline or a tab would break every line-oriented report
 * and error message), at most VDC_TARGET_NAME_MAX bytes; else 0. */
#define VDC_TARGET_NAME_MAX 256
int vdc_target_name_ok(const char *name);

/* Add a target named @name (other members absent).  Returns it, or NULL
 * after vdc_error when the name is empty or already used.  Untrusted names
 * are checked with vdc_target_name_ok where they enter (loader, CLI). */
vdc_target *vdc_result_set_add_target(vdc_result_set *rs, const char *name);

/* Append a run for @target with repetition = number of runs of that target
 * already in the set, status "ok".  The target need not be in targets[].
 * Returns the run (owned by the set).  Never NULL. */
vdc_run *vdc_result_set_add_run(vdc_result_set *rs, const char *target);

/* Target names in order: targets[] first, then names that appear only in
 * runs, in order of first appearance.  NULL-terminated; g_strfreev(). */
char **vdc_result_set_target_names(const vdc_result_set *rs);

/* Test keys measured for @target (NULL = any target): table order, sweep
 * keys by increasing block size, workload keys by job in order of first
 * appearance (each job's read, then its write), then unknown test ids in
 * order of first appearance.  NULL-terminated; g_strfreev(). */
char **vdc_result_set_test_keys(const vdc_result_set *rs, const char *target);

/* One sample of a lookup, with the run it belongs to. */
typedef struct {
    const vdc_run *run;
    const vdc_sample *sample;
} vdc_sample_ref;

/* Every sample of (@target, @test_key), in run order (repetition order for
 * the controller's sets), of the runs of one guest at a time (level 1 or
 * absent): a run at a level of many guests is one of several at once and
 * is the density analysis's (report/density.h), never a repetition here.
 * Includes too-fast and failed samples: callers decide
 * (vdc_has(sample->value)).  Sets *n; returns a g_new array to g_free
 * (NULL when *n == 0). */
vdc_sample_ref *vdc_result_set_lookup(const vdc_result_set *rs, const char *target,
                                      const char *test_key, size_t *n);

/* ---- JSON (doc/result-format.md) ----------------------------------------- */

/* The longest string member the loader takes, in bytes (UTF-8 as decoded
 * from the JSON): VDC_RESULT_LONG_STRING_MAX for command lines (run and
 * experiment command_line, host and guest cmdline) and
 * requested.domain_xml_disk, VDC_RESULT_STRING_MAX for every other string
 * (metadata, errors, names, paths).  doc/result-format.md, "Limits". */
#define VDC_RESULT_STRING_MAX      4096
#define VDC_RESULT_LONG_STRING_MAX 65536

/* The most targets[] and runs[] entries the loader takes: far above any
 * real result (a run plans at most a few dozen targets; an import holds at
 * most VDC_IMPORT_MAX_RUNS runs per input file) and low enough that a
 * report of a document at the limit stays within seconds and a few
 * hundred MiB.  doc/result-format.md, "Limits". */
#define VDC_RESULT_TARGETS_MAX 1024
#define VDC_RESULT_RUNS_MAX    100000

/* The most inputs one command merges into one result set (compare's
 * results, merge's host directories, import's files): checked before any
 * input is read.  The merged set itself is held to the loader's limits
 * above (vdc_result_set_merge_refusal), so whatever a merge writes reads
 * back.  doc/result-format.md, "Limits". */
#define VDC_MERGE_INPUTS_MAX 256

/* Parse @len bytes of JSON into @rs (which must be freshly _init'ed; on
 * error it is left empty).  The input is untrusted: wrong types and missing
 * required members are refused with one message
 * "NAME: runs[2].samples[0].value: expected a number or null", where NAME
 * names the input (file name); syntax errors as "NAME:LINE:COL: invalid
 * JSON: ...".  Also refused: negative or non-finite numbers, unknown test
 * ids, sweep samples without block_size, workload samples without a
 * workload object, in a version-1 document or outside the limits of
 * vdc_workload_check, run status other than ok, failed,
 * timeout, duplicate (target, repetition) runs and target names, strings
 * longer than their limit above ("runs[0].metadata.hostname: expected a
 * string of at most 4096 bytes, found 104857600 bytes"), and a
 * format_version above VDC_RESULT_FORMAT_VERSION.  Unknown members are
 * ignored.  Defaults: a run without "status" is "ok", without "repetition"
 * its index among its target's runs; a sample without "unit" gets its
 * test's unit.  Returns 0 or -1. */
int vdc_result_set_load_data(vdc_result_set *rs, const char *data, size_t len,
                             const char *name);

/* 1 when @len bytes of JSON nest at most 64 arrays/objects deep (json-glib's
 * parser recurses once per level), else 0 after one message "NAME:LINE:
 * JSON nested deeper than 64 levels".  For other JSON readers (importers). */
int vdc_json_depth_ok(const char *data, size_t len, const char *name);

/* json-glib's parse error @err as one line that quotes nothing of the
 * document: "Parse error: unexpected identifier, expected value" (the
 * token json-glib quotes as `TOKEN' is left out, so the bytes of a refused
 * file, /etc/shadow behind a link, are never echoed); *@line and *@col its
 * position, 0 when json-glib gave none.  For every JSON reader.  g_free. */
char *vdc_json_error_text(const GError *err, unsigned *line, unsigned *col);

/* Same, from a file ("-" = stdin).  Errors name the path. */
int vdc_result_set_load_file(vdc_result_set *rs, const char *path);

/* Fill a target's "backend" or "storage" object, or the experiment's
 * "hypervisor" object, from a JSON object with the member names of
 * doc/result-format.md, by the loader's own member table: members absent
 * from O are left as they are; a member of the wrong type is an error
 * naming WHAT.member (e.g. "xvdb backend.mode: expected a string").  For
 * the controller, whose hypervisor and storage drivers report these facts
 * as JSON.  Returns 0, or -1 after one vdc_error. */
int vdc_target_backend_from_json(vdc_target_backend *b, JsonObject *o, const char *what);
int vdc_target_storage_from_json(vdc_target_storage *s, JsonObject *o, const char *what);
/* targets[].variant from the plan's (plan/dims.h vdc_dim_variant_json).
 * 0 or -1, as above. */
int vdc_target_variant_from_json(vdc_target_variant *v, JsonObject *o, const char *what);
/* targets[].cache and targets[].placement (without ranges) from a driver's
 * or the run's JSON object, as the loader reads them.  0 or -1. */
int vdc_target_cache_from_json(vdc_target_cache *c, JsonObject *o, const char *what);
void vdc_target_cache_init(vdc_target_cache *c);
void vdc_target_cache_dispose(vdc_target_cache *c);     /* safe twice */
void vdc_target_cache_copy(vdc_target_cache *dst, const vdc_target_cache *src);
int vdc_hypervisor_info_from_json(vdc_hypervisor_info *h, JsonObject *o, const char *what);

/* The document as a JSON tree (for writers that add members such as
 * "statistics").  Absent members are omitted, except sample "value",
 * "cpu_percent", "latency_us", "elapsed_s", "error" and run "error",
 * which are written as null.  Returns a new node (json_node_unref). */
JsonNode *vdc_result_set_to_json(const vdc_result_set *rs);

/* Any JSON tree as pretty-printed text (2-space indent, members in
 * insertion order, each double in the shortest form that reads back to the
 * same value: 135.8, not 135.80000000000001), ending in a newline.  *len
 * (optional) gets its length.  g_free() it.  Renderers that add members to
 * vdc_result_set_to_json() (e.g. "statistics") can print with this. */
char *vdc_json_to_string(JsonNode *root, size_t *len);

/* The same writer with @colon between a member's name and its value (": "
 * above) and, with @final_newline, a newline at the end.  plan.json keeps
 * " : " and no newline, the form its readers match (scripts take its
 * values with sed).  g_free() it. */
char *vdc_json_write(JsonNode *root, const char *colon, int final_newline, size_t *len);

/* @d appended to @out in the shortest decimal form that reads back to the
 * same double (135.8, not 135.80000000000001), always with a '.', an 'e'
 * or "null" (NaN or infinite): a JSON number, also one that Go's
 * ParseFloat reads (OpenMetrics). */
void vdc_append_double(GString *out, double d);

/* The format_version @rs is written with: 2 when some sample is a
 * workload sample, else 1 (so that version-1 readers go on reading every
 * document they can understand, as the agent does). */
int vdc_result_set_format_version(const vdc_result_set *rs);

/* Pretty-printed document, NUL-terminated, ending in a newline; *len
 * (optional) gets its length.  g_free() it. */
char *vdc_result_set_to_string(const vdc_result_set *rs, size_t *len);

/* Write the document to @path atomically (vdc_write_file_atomic), or to
 * stdout when @path is "-".  The text is first read back by
 * vdc_result_set_load_data, the loader every reader uses: a document it
 * would refuse is not written (its message, then "result PATH: not
 * written ...").  Returns 0 or -1. */
int vdc_result_set_save(const vdc_result_set *rs, const char *path);

/* ---- Merge ----------------------------------------------------------------- */

/* The RAM (MiB) of the machine @t's agent ran in: @t's memory_mib when
 * set (a merge fills it), else from @rs's experiment: guest.memory_mib for
 * "where": "domU", host.ram_mib for "dom0"/"host".  VDC_INT_ABSENT when
 * not recorded. */
int64_t vdc_target_machine_memory(const vdc_result_set *rs, const vdc_target *t);

/* Append copies of @src's targets and runs to @dst.  A target already in
 * @dst keeps @dst's description.  Runs keep their order; each gets
 * repetition = number of runs of its target already in @dst (so
 * (target, repetition) stays unique).  @dst takes @src's experiment only
 * if it has none, except experiment.emulated, which is sticky: merging an
 * emulated result makes @dst emulated.  Each copied target without a
 * memory_mib gets its machine's from @src's experiment (guest.memory_mib
 * for "where": "domU", host.ram_mib for "dom0"), which @dst's experiment
 * may not share.  Returns 0 (cannot fail today).  */
int vdc_result_set_merge(vdc_result_set *dst, const vdc_result_set *src);

/* Whether merging @src into @dst (vdc_result_set_merge) keeps @dst within
 * the loader's limits: NULL when it does, else why not, one line for the
 * caller to put after the input's name ("would make 1100 targets: expected
 * at most 1024 in one result set"; g_free).  Targets are counted by name,
 * declared in targets[] or named by a run. */
char *vdc_result_set_merge_refusal(const vdc_result_set *dst, const vdc_result_set *src);

/* The number of distinct target names of @rs: declared in targets[] or
 * named by a run. */
size_t vdc_result_set_target_count(const vdc_result_set *rs);

/* A merged set of @targets targets and @runs runs: NULL when within the
 * loader's limits, else why not, as vdc_result_set_merge_refusal (g_free). */
char *vdc_merge_totals_refusal(size_t targets, size_t runs);

/* @n inputs to merge: NULL when at most VDC_MERGE_INPUTS_MAX, else why
 * not, one line ("300 inputs: expected at most 256 in one result set";
 * g_free). */
char *vdc_merge_inputs_refusal(size_t n);

/* Deep copies (into a freshly _init'ed @dst). */
void vdc_run_copy(vdc_run *dst, const vdc_run *src);
void vdc_target_copy(vdc_target *dst, const vdc_target *src);

#endif
