/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What serving each test cost dom0 (doc/host-cost.md, doc/result-format.md
 * "Host cost"): while a domU boot or a dom0 baseline runs, the test
 * boundaries the guest reports (the control disk's progress block, polled
 * every ~100 ms by a thread; the dom0 agent's --progress-fd lines) trigger
 * one snapshot set each: the CPU time of the disk's servers (QEMU and its
 * vCPU threads, blkback ring threads, the loop device's own thread, the
 * dom0 agent) and of dom0 (/proc/stat), the domU's own CPU time (hv
 * domain_stats), /proc/meminfo, the image's page-cache residency, what
 * the backend moved (virDomainBlockStats, blkback statistics/, the loop
 * device's /sys/block stat) and what reached the disk under the image.
 * After the boot the events are paired per target and test and each pair
 * becomes one samples[].host object; runs[].host says what was sampled.
 *
 * The slicing (vdc_host_slice) and the per-GiB arithmetic
 * (vdc_host_per_unit) are pure and unit-tested (tests/unit/test_hostwatch);
 * the rest reads /proc, /sys and the hypervisor. */
#ifndef VDC_COLLECT_HOSTWATCH_H
#define VDC_COLLECT_HOSTWATCH_H

#include <stddef.h>
#include <stdint.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "guest-agent/ctldisk.h"
#include "host/cpuacct.h"
#include "host/procfs.h"
#include "hv/hv.h"
#include "model/result.h"

#define VDC_HOST_POLL_S 0.1      /* seconds between two reads of the progress block */
/* Events kept per boot: 16 targets x (12 tests x 2 + 2) is 416; a guest
 * that writes more (the block is the guest's to write) gets no more
 * snapshots taken for it. */
#define VDC_HOST_MAX_EVENTS 4096u

/* One disk whose tests are sliced. */
typedef struct {
    const char *name;       /* target name (runs[].target) */
    const char *vdev;       /* the guest's disk name for domain_stats; NULL in dom0 */
    const char *image;      /* the image file (page-cache residency), or NULL */
    const char *loop_dev;   /* "/dev/loopN" serving it (dom0 baseline, blkback
                             * over loop), or NULL: its worker, and in dom0 its
                             * /sys/block stat as what the backend moved */
    const char *backend;    /* the backend's type as read back after create
                             * ("phy": blkback, "qdisk", ...), or NULL: unknown */
} vdc_host_target;

/* One snapshot set.  Unknown figures: NAN (doubles), -1 (counters). */
typedef struct {
    vdc_cpu_snapshot cpu;       /* t_s: CLOCK_MONOTONIC seconds */
    int have_mem;
    vdc_meminfo mem;
    double domu_cpu_s;
    int64_t *resident;          /* per target: image bytes in dom0's page cache */
    vdc_hv_disk_io *io;         /* per target: what its backend moved, since boot */
    int64_t *disk_rd, *disk_wr; /* per target: bytes read/written by the disk under it */
} vdc_host_snap;

/* One event with the snapshot set taken when the host saw it. */
typedef struct {
    struct vdc_ctl_event ev;
    size_t snap;                /* index in the watch's snapshot sets */
    int gap_before;             /* events before it were lost (ring overrun) */
} vdc_host_event;

/* A server's place: which target it serves (-1: all of them, e.g. QEMU,
 * the agent; another negative value: none). */
typedef struct {
    int target;
    const char *found_at;       /* when it was found, in words (an interned
                                 * string); NULL: when the watch started */
} vdc_host_owner;

/* Pure: does a server with owner @o serve target @k? */
int vdc_host_serves(const vdc_host_owner *o, size_t k);

/* Pure: for every role of @cpu_s with a number, that figure per GiB of
 * @bytes into @per_gib and per 1,000 of @ios into @per_kio (NULL: none;
 * members set only where the divisor is known and > 0). */
void vdc_host_per_unit(JsonObject *cpu_s, double bytes, double ios, JsonObject *per_gib,
                       JsonObject *per_kio);

/* samples[].host `source` when `bytes` is the agent's test size */
#define VDC_HOST_AGENT_BYTES "the agent's test size (the backend's own counters were not readable)"

/* Pure: where the backend's own counters gave no `bytes` (qdisk: QEMU
 * keeps no counters dom0 can read), the test's size @bytes
 * (vdc_run_test_bytes; NAN or <= 0: nothing done) becomes the host
 * object @h's `bytes`, `source` VDC_HOST_AGENT_BYTES, and `cpu_s_per_gib`
 * is recomputed from `cpu_s`.  @h with `bytes` already is left alone. */
void vdc_host_bytes_from_agent(JsonObject *h, double bytes);

/* Pure: the samples[].host object of target @k's test from event @begin
 * to event @end, with snapshot sets @a (at @begin) and @b (at @end), the
 * servers @servers with their @owners, @loop_reason (why the loop worker
 * is not attributable, or NULL), @io_source (what bytes/ios count),
 * @poll_s and @ticks_per_s.  NULL after vdc_error when the CPU deltas do
 * not compute (counters running backwards). */
JsonObject *vdc_host_slice(const GPtrArray *servers, const vdc_host_owner *owners, size_t k,
                           const vdc_host_snap *a, const vdc_host_snap *b,
                           const vdc_host_event *begin, const vdc_host_event *end,
                           const char *loop_reason, const char *io_source, double poll_s,
                           long ticks_per_s);

/* Pure: the bonnie++ test id of a progress event's test index (the
 * agent's order), or NULL when out of range. */
const char *vdc_host_test_name(unsigned idx);

/* Pure: a progress event in words, for messages: "test rewrite of
 * target img began", "test rewrite of target img ended", "target img
 * began", "target img ended" (@target_name NULL: "#N", the event's
 * index).  @ev NULL: "none".  g_malloc'd. */
char *vdc_host_event_text(const struct vdc_ctl_event *ev, const char *target_name);

typedef struct vdc_hostwatch vdc_hostwatch;

/* A watch over the @n targets @t (the strings are copied). */
vdc_hostwatch *vdc_hostwatch_new(const vdc_host_target *t, size_t n);
void vdc_hostwatch_free(vdc_hostwatch *w);      /* NULL-safe; stops the thread */

/* domU: find the servers (hv domain_stats' QEMU pid and its vCPU threads;
 * blkback threads of each target's VBD; loop workers), then poll @ctl's
 * progress block (job @nonce) in a thread until vdc_hostwatch_stop.
 * blkback starts a VBD's ring threads only when the domU's frontend
 * connects, after the domain was created: a libxl target served by blkback
 * (backend "phy", or unknown) whose threads were not found yet is looked
 * for again before each snapshot set, until found; runs[].host says when
 * (`found_at`) or that they never were (`blkback_reason`).
 * @hvops/@hv/@domain are used from the thread.  0, or -1 after vdc_error
 * (the boot goes on without host figures). */
int vdc_hostwatch_start_domu(vdc_hostwatch *w, const char *ctl, uint64_t nonce,
                             const vdc_hv_ops *hvops, vdc_hv *hv, const char *domain);
void vdc_hostwatch_stop(vdc_hostwatch *w);

/* domU, from the caller's thread: read the progress block now (its new
 * events taken as the thread takes them) and return the runner's
 * heartbeat count seen so far (doc/control-disk.md "Progress block"): 0
 * until the runner first beats (or when it never does: an older runner,
 * a disk without the block).  A block that does not read (torn, stale)
 * leaves the count as it was.  With @last, also the newest event seen, in
 * words (vdc_host_event_text; g_malloc). */
uint64_t vdc_hostwatch_heartbeat(vdc_hostwatch *w, char **last);

/* dom0 baseline: the agent runs as @pid (call once, before any line; it
 * becomes a server when it first writes); then feed what it wrote on its
 * --progress-fd (any split).  Target 0. */
void vdc_hostwatch_dom0_agent(vdc_hostwatch *w, int pid);
void vdc_hostwatch_dom0_feed(vdc_hostwatch *w, const char *buf, size_t n);

/* Put target @k's figures on @run: runs[].host and each bonnie++
 * sample's samples[].host (by test id, in order).  Returns the number of
 * samples given a host object. */
size_t vdc_hostwatch_attach(vdc_hostwatch *w, size_t k, vdc_run *run);

#endif
