/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finding the kernel threads that serve a disk in dom0, by their comm
 * (/proc/PID/stat field 2), and saying when the kernel does not let one be
 * attributed to a single device.
 *
 * blkback (drivers/block/xen-blkback/xenbus.c, xen_update_blkif_status):
 * one kernel thread per ring of a VBD, started when the frontend connects
 * (after the domU has booted, not when the domain is created).  Linux >=
 * 4.6 names it "%s-%d": the first part is snprintf(TASK_COMM_LEN, "%d.%s")
 * of the domid and the backend's xenstore "dev" without "/dev/" (so cut to
 * 15 characters), then the ring index: "5.xvdb-0".  /proc shows that name
 * whole on Linux >= 5.17 (a kthread's full name, up to 63 characters:
 * fs/proc/array.c proc_task_name; Debian 12's 6.1 does), cut to 15
 * characters (TASK_COMM_LEN 16) before.  Older kernels: "blkback.%d.%s",
 * e.g. "blkback.5.xvdb".  A "DOMID.DEV" of 15 characters or more may be
 * another VBD's cut the same way: then the name is ambiguous, resolved only
 * against the list of VBDs dom0 serves, never guessed.
 *
 * loop (drivers/block/loop.c): before Linux 5.13 each bound loop device had
 * its own kernel thread "loopN" (exact).  Since 5.13 (and in 6.1, Debian
 * 12's dom0 kernel) its work runs on the workqueue "loopN", WQ_UNBOUND:
 * executed by the kernel's shared unbound kworkers ("kworker/uP:W"), which
 * run other workqueues' work too.  /proc shows such a worker as
 * "kworker/u4:2+loop0" while it runs loop0's work and "-loop0" when that
 * was its last (kernel/workqueue.c, wq_worker_comm): a hint of who served
 * what, never an attribution.  The loop device's CPU is then not
 * measurable on its own; vdc_cpu_delta_unattributed_s gives what is. */
#ifndef VDC_HOST_WORKERS_H
#define VDC_HOST_WORKERS_H

#include <stddef.h>

#include <glib.h>

#include "host/cpuacct.h"
#include "host/procfs.h"

/* TASK_COMM_LEN - 1: the longest comm the kernel keeps for a task. */
#define VDC_COMM_MAX 15
/* The longest kernel thread name /proc shows (Linux >= 5.17: its full
 * name, cut to 63 characters). */
#define VDC_COMM_FULL_MAX 63

/* What a comm says about a VBD. */
typedef enum {
    VDC_COMM_NO = 0,        /* not this VBD's thread */
    VDC_COMM_YES,           /* this VBD's ring thread */
    VDC_COMM_MAYBE,         /* this VBD's or another's whose "DOMID.DEV" the
                             * kernel cut to the same 15 characters */
} vdc_comm_match;

/* Pure: does @comm name a blkback thread of VBD (@domid, @vdev)?  @vdev as
 * in the backend's xenstore "dev" ("xvdb"; a leading "/dev/" is skipped as
 * the kernel does).  *ring (may be NULL) gets the ring index, or -1 when
 * the name carries none (old kernels) or may have been cut (15 or 63
 * characters long). */
vdc_comm_match vdc_blkback_comm_match(const char *comm, unsigned domid, const char *vdev,
                                      int *ring);

/* One VBD dom0 serves (from xenstore backend/vbd/DOMID/DEVID/dev). */
typedef struct {
    unsigned domid;
    const char *vdev;
} vdc_vbd_name;

/* Pure: which of the @n VBDs @vbds owns the blkback thread @comm?  @vbds
 * must be every VBD dom0 serves now (xenstore backend/vbd/DOMID/DEVID): a ring
 * thread lives only while its backend directory does.  The index of the
 * one VBD that could have made the name (YES or MAYBE); -1 none; -2 when
 * two or more could (a name cut to 15 characters). */
int vdc_blkback_comm_owner(const char *comm, const vdc_vbd_name *vbds, size_t n);

/* Pure: the workqueue a kworker last ran work for, from its comm:
 * "kworker/u4:2+loop0" -> "loop0" with *running 1 ('+': running it now),
 * "kworker/1:0-events" -> "events" with *running 0.  NULL when @comm is not
 * a worker's name with a workqueue part (an idle new worker "kworker/u9:0",
 * a rescuer "kworker/R-name", or another thread).  Points into @comm. */
const char *vdc_kworker_workqueue(const char *comm, int *running);

/* Pure: the kernel threads among @tasks (@n stat lines, e.g. every
 * /proc/PID/stat) that serve loop device number @loop_nr:
 *   - a dedicated "loopN" kthread (PF_KTHREAD, not a workqueue worker):
 *     a server with role "loop-worker", attribution exact;
 *   - else each kworker whose comm shows workqueue "loopN": role
 *     "loop-worker", attribution shared, with the reason.
 * Appends them to @servers (vdc_server_set_new).  Returns the loop
 * device's own attribution: exact when a dedicated thread exists, else
 * shared; *reason gets the one-line why for shared (g_free; NULL when
 * exact). */
vdc_attribution vdc_loop_workers_find(const vdc_task_stat *tasks, size_t n, unsigned loop_nr,
                                      GPtrArray *servers, char **reason);

/* Pure: blkback ring threads of VBD (@domid, @vdev) among @tasks, resolved
 * against @vbds (every VBD dom0 serves; NULL/0: only this one is known, so
 * a cut name stays ambiguous).  Appends role "blkback" servers: exact when
 * the VBD owns the name, ambiguous (with the reason) when it might.
 * Returns the number of exact ring threads found. */
size_t vdc_blkback_threads_find(const vdc_task_stat *tasks, size_t n, unsigned domid,
                                const char *vdev, const vdc_vbd_name *vbds, size_t n_vbds,
                                GPtrArray *servers);

/* Reader: the stat line of every kernel thread now (/proc/PID/stat with
 * PF_KTHREAD; kernel threads have one task each).  A new GArray of
 * vdc_task_stat, or NULL after vdc_error. */
GArray *vdc_kernel_threads_scan(void);

#endif
