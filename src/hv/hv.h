/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Hypervisor drivers: an ops table (libvirt's virHypervisorDriver as the
 * model, with a handful of slots).  The run only calls through the table;
 * drivers: libxl (src/hv/hv_libxl.c, #ifdef WITH_LIBXL), libvirt
 * (src/hv/hv_libvirt.c, #ifdef WITH_LIBVIRT) and mock (src/hv/hv_mock.c,
 * for tests), looked up in src/hv/hv.c.  Every slot returns 0/-1 or a
 * pointer/NULL after one vdc_error naming the domain and the cause (libxl
 * rc / virGetLastError converted here, at the module boundary). */
#ifndef VDC_HV_HV_H
#define VDC_HV_HV_H

#include <signal.h>

#include <json-glib/json-glib.h>

#include "host/livexml.h"
#include "host/qemucaps.h"
#include "host/xsbackend.h"
#include "hv/translate.h"

typedef struct vdc_hv vdc_hv;    /* a driver's connection, opaque */

/* A UUID's text form with its NUL: 8-4-4-4-12 hex digits. */
#define VDC_HV_UUID_LEN 37

/* What a wait ended with. */
typedef enum {
    VDC_HV_WAIT_SHUTOFF,        /* the domU powered off (the runner's end) */
    VDC_HV_WAIT_CRASHED,        /* crashed or rebooted (on_* = destroy) */
    VDC_HV_WAIT_TIMEOUT,        /* still running after the timeout */
    VDC_HV_WAIT_INTERRUPTED,    /* *stop became non-zero (SIGINT/SIGTERM) */
    VDC_HV_WAIT_ERROR,          /* the driver failed (message printed) */
} vdc_hv_wait_result;

/* What the hypervisor says about a running domU's cost (doc/host-cost.md):
 * the domain's own CPU time and, per disk asked for, what its backend
 * moved.  Unknown members stay at their sentinel. */
typedef struct {
    int64_t rd_req, wr_req;         /* requests; -1 unknown */
    int64_t rd_bytes, wr_bytes;     /* bytes; -1 unknown */
} vdc_hv_disk_io;

typedef struct {
    int domid;                      /* Xen domid, libvirt's id; -1 unknown */
    int vmm_pid;                    /* the QEMU serving the domU (libvirt's
                                     * <domstatus pid>; libxl: its qdisk
                                     * backend, xenstore /local/domain/DOMID/
                                     * image/device-model-pid, else a driver
                                     * domain's libxl/DOMID/qdisk-backend-pid);
                                     * 0 none or unknown */
    double cpu_time_s;              /* vCPU seconds since the domain started
                                     * (libxl_dominfo.cpu_time, virDomainInfo
                                     * cpuTime); NAN unknown */
} vdc_hv_domain_stats;

/* What a driver reads back about a running domU's disks: the facts the
 * cache truth is decided from (run/cache.h, doc/host-cost.md).  Members
 * the driver cannot know stay at their _init values. */
typedef struct {
    long domid;                 /* Xen domid; -1 not known or not Xen */
    GPtrArray *vbds;            /* vdc_xs_vbd* of the domU's backends (Xen: xenstore), or NULL */
    GPtrArray *disks;           /* vdc_lv_disk* of the live domain XML (libvirt), or NULL */
    int qemu_pid;               /* the QEMU serving the disks: libvirt qemu's <domstatus
                                 * pid>, Xen qdisk's image/device-model-pid (or a driver
                                 * domain's libxl/DOMID/qdisk-backend-pid); 0 none */
} vdc_hv_disk_facts;

void vdc_hv_disk_facts_init(vdc_hv_disk_facts *f);
void vdc_hv_disk_facts_dispose(vdc_hv_disk_facts *f);   /* safe twice */

typedef struct {
    const char *name;           /* "libxl", "libvirt", "mock" */

    /* Connect.  @uri: libvirt URI (ignored by libxl).  Returns NULL after
     * vdc_error (e.g. libxl: "cannot open libxc handle: is this a Xen dom0?"). */
    vdc_hv *(*open)(const char *uri);
    void (*close)(vdc_hv *hv);              /* NULL-safe */

    /* Versions for result.json experiment.hypervisor: members xen_version,
     * libvirt_version, qemu_version, libxl_version, uri.  Never fails. */
    void (*versions)(vdc_hv *hv, JsonObject *out);

    /* Create and start the domU (not persistent: it vanishes when
     * destroyed); with dom->start_paused it is left paused, its backends
     * connected, until resume.  Returns 0 or -1.  On -1 nothing is left
     * running, and *@repeats (g_malloc) names the cause when every later
     * create of the same domain would fail the same way (a file it needs
     * that the hypervisor cannot open, a configuration it refuses:
     * vdc_hv_failure_repeats, vdc_hv_domain_unreadable), e.g. "QEMU
     * cannot open /root/guest.img: Permission denied"; it stays NULL for
     * a failure that may pass (the hypervisor busy, out of memory for the
     * moment, a domain of the name still going away). */
    int (*create)(vdc_hv *hv, const vdc_hv_domain *dom, char **repeats);

    /* Unpause a domU created paused (libxl_domain_unpause,
     * virDomainResume).  0 or -1. */
    int (*resume)(vdc_hv *hv, const char *name);

    /* Read the disk facts of running (or paused) domU @name into an
     * initialised @out: libxl: the domid, xenstore's backends, qdisk's
     * QEMU pid; libvirt: the live XML's disks, the domid and xenstore's
     * backends (xen://), QEMU's pid from libvirt's status file (qemu://).
     * 0 or -1. */
    int (*disk_facts)(vdc_hv *hv, const char *name, vdc_hv_disk_facts *out);

    /* Record the backend actually serving each disk while the domU runs,
     * into @out: one JsonObject per vdev (doc/result-format.md
     * targets[].backend), keyed by vdev.  libxl: xenstore
     * /local/domain/0/backend/{vbd,qdisk}/DOMID/DEVID; libvirt: the live
     * domain XML.  Returns 0 or -1. */
    int (*backends)(vdc_hv *hv, const char *name, JsonObject *out);

    /* Wait until the domU is gone or shut off, at most @timeout_s seconds,
     * polling *@stop at least once per second. */
    vdc_hv_wait_result (*wait)(vdc_hv *hv, const char *name, unsigned timeout_s,
                               volatile sig_atomic_t *stop);

    /* Destroy the domU whose UUID is @uuid (@name: the name it was created
     * with, for messages).  Never looks a domain up by name: a domain of
     * that name with another UUID is not touched.  Idempotent: no domain
     * with @uuid is success (0).  Returns 0 or -1. */
    int (*destroy)(vdc_hv *hv, const char *name, const char *uuid);

    /* Optional (NULL: the driver records no run id).  The run id the
     * domain with UUID @uuid was created with (vdc_hv_domain.run_id:
     * libvirt VDC_HV_METADATA_NS's <run id=.../> in its <metadata>;
     * libxl xenstore /local/domain/DOMID/vmdiskcmp-run) into *@run_id
     * (g_malloc; NULL when it carries none).  1 found, 0 no such domain,
     * -1 after vdc_error. */
    int (*run_of)(vdc_hv *hv, const char *uuid, char **run_id);

    /* 1 if a domain of that name exists, 0 if not, -1 on error. */
    int (*exists)(vdc_hv *hv, const char *name);

    /* The UUID of the domain named @name (any state) into @out, as
     * "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx".  1 found, 0 no such domain,
     * -1 after vdc_error. */
    int (*uuid)(vdc_hv *hv, const char *name, char out[VDC_HV_UUID_LEN]);

    /* Optional (NULL: the driver cannot tell).  1 when the domU is
     * stalled by its storage: paused by the hypervisor on an I/O error
     * (QEMU stops a guest whose write to an image gets ENOSPC, werror's
     * default), with *@why (g_malloc) naming it, e.g. "paused on an I/O
     * error (disk vdb: no space left)"; 0 when not; -1 after vdc_error. */
    int (*stalled)(vdc_hv *hv, const char *name, char **why);

    /* The running domU's stats into @out and, for each of the @n guest
     * disk names @vdevs ("xvdb", "vdb"), what its backend moved into
     * @io[i] (libxl: blkback's statistics/ in sysfs; libvirt:
     * virDomainBlockStats).  Called from the host sampler's thread while
     * wait() runs in another: the drivers' connections are thread-safe.
     * 0, or -1 after vdc_error (no such domain).  NULL: the driver cannot
     * say.  (The mock answers when told a vmm_pid.) */
    int (*domain_stats)(vdc_hv *hv, const char *name, const char *const *vdevs, size_t n,
                        vdc_hv_domain_stats *out, vdc_hv_disk_io *io);

    /* Optional (NULL: the driver cannot say).  The domain capabilities of
     * domain type @virttype ("kvm", "qemu") as XML into *@xml (g_malloc;
     * virConnectGetDomainCapabilities).  0, or -1 after vdc_error. */
    int (*domain_capabilities)(vdc_hv *hv, const char *virttype, char **xml);

    /* Optional (NULL: the driver cannot say).  The hypervisor's free
     * memory now, what new domains can be given, into *@bytes (libxl:
     * libxl_get_free_memory, Xen's free pages, which dom0's /proc/meminfo
     * does not show; 0: not known).  0, or -1 after vdc_error. */
    int (*free_memory)(vdc_hv *hv, uint64_t *bytes);
} vdc_hv_ops;

/* Destroy the domU run @run_id created as @name with @uuid (journal.h: the
 * identity recorded before create), through @ops: by UUID only, and only
 * when the domain carries @run_id (vdc_hv_ops.run_of; @run_id NULL or a
 * driver without run_of: the UUID alone).  A domain with @uuid that
 * carries another run id or none was not made by that run: left alone,
 * one line says so.  When a domain named @name with another UUID exists,
 * it is left alone and one line says so.  @uuid NULL (a journal that
 * recorded none): nothing is touched; 0 when no domain has @name, else -1
 * after vdc_error.  0 when ours is gone (or was never ours), else -1. */
int vdc_hv_destroy_own(const vdc_hv_ops *ops, vdc_hv *hv, const char *name, const char *uuid,
                       const char *run_id);

/* 1 when a failed create's cause will repeat on every boot, judged from
 * what the hypervisor said: @err_no (an errno it reported, 0 none) one of
 * ENOENT, EACCES, EPERM, ENOTDIR, ELOOP, EISDIR, EROFS, or @message (its
 * text, NULL none) carrying one of their strerror texts or QEMU's "Could
 * not open" (e.g. libvirt's "process exited while connecting to monitor:
 * ... Could not open '/root/guest.img': Permission denied").  0 otherwise
 * (transient, or not known to repeat).  Pure. */
int vdc_hv_failure_repeats(int err_no, const char *message);

/* The first file @dom needs that is not there or not readable (kernel,
 * initrd, then each disk's path), as "kernel /boot/vmlinuz: No such file
 * or directory" (g_malloc), or NULL when every one can be opened by us
 * (the hypervisor may still not: its own message says). */
char *vdc_hv_domain_unreadable(const vdc_hv_domain *dom);

/* What the hypervisor's build can do for the plan's QEMU knobs, asked
 * before anything is created (host/qemucaps.h): for a libvirt QEMU/KVM
 * domain given --disk-io, --iothreads or --disk-bus, the driver is opened,
 * its domain capabilities, libvirt's and QEMU's versions read, and the
 * emulator probed; else nothing is asked (@out->known 0).  0, or -1 after
 * vdc_error (the connection failed). */
int vdc_hv_build_facts(const vdc_plan *p, vdc_hv_build *out);

/* Sentinels: domid -1, vmm_pid 0, cpu_time_s NAN, every counter -1. */
void vdc_hv_domain_stats_init(vdc_hv_domain_stats *s, vdc_hv_disk_io *io, size_t n);

/* The driver registry (src/hv/hv.c).  The driver for @kind (plan.h), or
 * NULL after vdc_error when this build lacks it (e.g. configure found no
 * libxl) or @kind is VDC_HV_NONE. */
const vdc_hv_ops *vdc_hv_ops_for(vdc_hv_kind kind);
/* By name ("libxl", "libvirt", "mock"), for the journal and cleanup. */
const vdc_hv_ops *vdc_hv_ops_by_name(const char *name);

extern const vdc_hv_ops vdc_hv_mock_ops;
#ifdef WITH_LIBVIRT
extern const vdc_hv_ops vdc_hv_libvirt_ops;
#endif
#ifdef WITH_LIBXL
extern const vdc_hv_ops vdc_hv_libxl_ops;
#endif

/* The mock's knobs (tests): which call fails, and how the domU ends. */
typedef struct {
    int fail_open, fail_create, fail_backends, fail_destroy, fail_resume;
    const char *fail_create_repeats;    /* create fails with this cause, which repeats */
    int stalled;                        /* the domU reports paused on an I/O error */
    vdc_hv_wait_result wait_result;     /* default SHUTOFF */
    /* called at create (e.g. to play the in-guest runner on the control
     * disk); a -1 return makes create fail */
    int (*on_create)(const vdc_hv_domain *dom, void *opaque);
    void *opaque;
    /* called by disk_facts (a test fills @out with made-up backends); NULL:
     * no facts */
    int (*on_disk_facts)(const char *name, vdc_hv_disk_facts *out, void *opaque);
    /* called by backends (a test fills @out with made-up backend objects
     * by vdev, e.g. a Xen VBD whose frontend connects later); NULL: none */
    int (*on_backends)(const char *name, JsonObject *out, void *opaque);
    /* called at the start of each wait (e.g. to play the runner's
     * heartbeat on the control disk, or to set wait_result) */
    void (*on_wait)(const char *name, void *opaque);
    int paused;                 /* the last create was paused and not resumed yet */
    /* domain_stats of a running domain: its vmm_pid (0: none; e.g. the
     * test's own pid, a process whose CPU time is real), domid 1; each
     * call adds one read and one write of 4 KiB to every disk asked for */
    int stats_pid;
    int64_t stats_calls;
    uint64_t free_memory_bytes;     /* free_memory's answer (0: not known) */
    int fail_free_memory;
    /* counters and the log of calls ("create NAME", "destroy NAME") */
    int n_create, n_destroy, n_running;
    GPtrArray *calls;
} vdc_hv_mock_state;

/* A domain of someone else (tests): running as @name with @uuid, carrying
 * run id @run_id (NULL: none). */
void vdc_hv_mock_add_foreign(const char *name, const char *uuid);
void vdc_hv_mock_add_foreign_run(const char *name, const char *uuid, const char *run_id);

/* The mock driver's global state (tests set it before use). */
vdc_hv_mock_state *vdc_hv_mock(void);
void vdc_hv_mock_reset(void);

#endif
