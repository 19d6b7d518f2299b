/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a density level cost dom0 (experiment.levels[].host,
 * doc/result-format.md, doc/host-cost.md "A level's host cost (`--guests`)"): over the
 * level's measured window, from the start gate's release to the look that
 * saw every guest's domain ended, the CPU time of the level's disk servers
 * by role (blkback's ring threads of every guest's VBD summed, every
 * guest's QEMU summed, its vCPU threads apart), dom0's busy and steal time
 * (/proc/stat), what dom0 did beside the servers (dom0_other: the loop
 * devices' shared kworkers among it), what the backends moved (the
 * hypervisor's per-disk counters, summed over the guests) and dom0's
 * memory, page cache and dirty pages at the release and at the end.
 *
 * A server is read at the release and at every look while the guests run
 * (the level's wait, one look per round over its guests); its CPU time is
 * its last reading while it lived minus its first (a QEMU exits with its
 * domain, blkback's threads when the frontend goes).  Servers are found at
 * the release: every guest's frontend is connected by then (its runner
 * reported ready through its control disk).
 *
 * vdc_level_host_json is pure and unit-tested (tests/unit/test_levelhost);
 * the watch reads /proc and the hypervisor. */
#ifndef VDC_COLLECT_LEVELHOST_H
#define VDC_COLLECT_LEVELHOST_H

#include <stddef.h>

#include <json-glib/json-glib.h>

#include "host/procfs.h"
#include "hv/hv.h"

/* One server's figure over the level's window. */
typedef struct {
    const char *role;       /* JSON role: "blkback", "qemu", "qemu_vcpu" */
    unsigned guest;         /* the guest it serves, 0 to N - 1 */
    int counted;            /* read at the release and at a later look with
                             * the same identity: cpu_s holds its CPU time */
    double cpu_s;           /* CPU seconds (user + system) between them */
    int in_process;         /* a thread of a process that is a server too
                             * (counted once, in the process, in dom0_other) */
} vdc_level_server_cpu;

/* dom0's side of the window. */
typedef struct {
    unsigned guests;
    double t_s[2];          /* CLOCK_MONOTONIC seconds: the release, the end */
    double busy_s, steal_s; /* dom0's /proc/stat over the window, CPU seconds;
                             * NAN: not read */
    double tick_s;          /* one clock tick: the counters' unit */
    int have_mem;
    vdc_meminfo mem[2];     /* /proc/meminfo at the release and at the end */
    double bytes, ios;      /* what the guests' backends moved, summed; NAN unknown */
    const char *io_source;  /* what counted them ("blkback statistics", ...) */
    const char *loop_reason;    /* the guests' images are served through loop
                                 * devices whose work is not attributable: why
                                 * (the role `loop` is then null, shared); NULL:
                                 * no loop device serves the level */
    const char *missing;    /* servers expected and not found, in words (e.g.
                             * "guest 2: no blkback ring thread of xvdb"), or NULL */
} vdc_level_window;

/* Pure: the levels[].host object of the @n servers @srv over @win, in the
 * shape of samples[].host (model vdc_host_check holds it to its bounds):
 * interval_s, monotonic_s, cpu_s by role (each role summed over its
 * servers; null, attribution "ended", when one of them was not counted or
 * @win->missing names one of its kind), qemu_io (qemu minus qemu_vcpu),
 * dom0_busy, dom0_steal, dom0_other (busy + steal minus the counted
 * servers, "inconsistent" and null further below 0 than the counters'
 * resolution), loop (null, "shared", with @win->loop_reason), bytes, ios,
 * source, cpu_s_per_gib, cpu_s_per_1000_ios, dom0_memory_bytes (MemTotal -
 * MemAvailable), dom0_cached_bytes, dom0_dirty_bytes ([release, end]),
 * guests.  New object. */
JsonObject *vdc_level_host_json(const vdc_level_server_cpu *srv, size_t n,
                                const vdc_level_window *win);

typedef struct vdc_levelhost vdc_levelhost;

/* A watch over the @n guests' domains @domains (strings copied), each
 * with the level's target at @vdev, through @hvops/@hv.  @blkback: the
 * VBDs are served by blkback (libxl, backend "phy" or not known): their
 * ring threads are the servers and a QEMU is not; else each guest's QEMU
 * is.  @loop_reason: the images go through loop devices (NULL: none). */
vdc_levelhost *vdc_levelhost_new(const vdc_hv_ops *hvops, vdc_hv *hv,
                                 const char *const *domains, size_t n, const char *vdev,
                                 int blkback, const char *loop_reason);
void vdc_levelhost_free(vdc_levelhost *lh);     /* NULL-safe */

/* At the release: the servers found and read, dom0 and the backends'
 * counters read.  0, or -1 after vdc_error (/proc unreadable: the level
 * goes on without host figures). */
int vdc_levelhost_begin(vdc_levelhost *lh);
/* While the guests run: every server and every guest not ended read
 * again. */
void vdc_levelhost_look(vdc_levelhost *lh);
/* Guest @k's domain ended: its counters are not asked for again (its
 * last look's stand). */
void vdc_levelhost_ended(vdc_levelhost *lh, size_t k);
/* After every guest ended: the last look and the levels[].host object
 * (new), or NULL when begin failed or the counters ran backwards (after
 * vdc_error). */
JsonObject *vdc_levelhost_end(vdc_levelhost *lh);

#endif
