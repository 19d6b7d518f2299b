/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The libxl driver: libxl_domain_create_new from the libxl_domain_config
 * that translate_libxl.c builds (disks parsed by xlu_disk_parse), PV
 * guests, backend truth read from xenstore.  Runs for real only in a Xen
 * dom0 (the emulated lab); here libxl_ctx_alloc fails and open()
 * says so in one line.  libxl rc values are turned into vdc_error here. */
#include "config.h"
#include "hv/hv.h"

#ifdef WITH_LIBXL

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <libxl.h>
#include <libxl_utils.h>
#include <xenstore.h>
#include <xentoollog.h>

#include "common/util.h"
#include "host/blockstat.h"
#include "hv/backend_json.h"

struct vdc_hv {
    libxl_ctx *ctx;
    xentoollog_logger_stdiostream *log;
};

static void
xl_close(vdc_hv *hv)
{
    if (!hv)
        return;
    if (hv->ctx)
        libxl_ctx_free(hv->ctx);
    if (hv->log)
        xtl_logger_destroy((xentoollog_logger *)hv->log);
    g_free(hv);
}

static vdc_hv *
xl_open(const char *uri)
{
    vdc_hv *hv = g_new0(vdc_hv, 1);
    int rc;

    /* quiet while probing: without Xen libxl logs several lines; we print one */
    hv->log = xtl_createlogger_stdiostream(stderr, XTL_CRITICAL, 0);
    if (!hv->log) {
        vdc_error("libxl: cannot create a logger");
        g_free(hv);
        return NULL;
    }
    rc = libxl_ctx_alloc(&hv->ctx, LIBXL_VERSION, 0, (xentoollog_logger *)hv->log);
    if (rc) {
        vdc_error("libxl: cannot open a libxl context (rc %d): this is not a Xen dom0, "
                  "or xenstored is not running (try --hypervisor libvirt)", rc);
        hv->ctx = NULL;
        xl_close(hv);
        return NULL;
    }
    xtl_stdiostream_set_minlevel(hv->log, XTL_ERROR);
    return hv;
}

static void
xl_versions(vdc_hv *hv, JsonObject *out)
{
    const libxl_version_info *v = libxl_get_version_info(hv->ctx);

    if (v) {
        g_autofree char *s = g_strdup_printf("%d.%d%s", v->xen_version_major,
                                             v->xen_version_minor,
                                             v->xen_version_extra ? v->xen_version_extra : "");
        json_object_set_string_member(out, "xen_version", s);
    }
    /* libxl is versioned with Xen: the library we link is this release's */
    if (v) {
        g_autofree char *s = g_strdup_printf("%d.%d", v->xen_version_major, v->xen_version_minor);
        json_object_set_string_member(out, "libxl_version", s);
    }
    /* the hypervisor's own command line (dom0_mem=, sched=, ...): a fact
     * of the run as much as dom0's /proc/cmdline */
    if (v && v->commandline && *v->commandline)
        json_object_set_string_member(out, "xen_commandline", v->commandline);
}

static int
xl_create(vdc_hv *hv, const vdc_hv_domain *dom, char **repeats)
{
    libxl_domain_config cfg;
    uint32_t domid = (uint32_t)INVALID_DOMID;
    int rc, ret = -1;

    *repeats = NULL;
    libxl_domain_config_init(&cfg);
    if (vdc_libxl_config_build(dom, &cfg) < 0) {
        *repeats = g_strdup("the libxl configuration cannot be built (see the message above)");
        goto out;
    }
    rc = libxl_domain_create_new(hv->ctx, &cfg, &domid, NULL, NULL);
    if (rc) {
        vdc_error("domain %s: libxl_domain_create_new failed (rc %d)", dom->name, rc);
        /* libxl's rc says little: a file of the domain that is not there
         * repeats, a configuration libxl refuses too */
        *repeats = vdc_hv_domain_unreadable(dom);
        if (!*repeats && rc == ERROR_INVAL)
            *repeats = g_strdup_printf("libxl refuses the domain's configuration (rc %d)", rc);
        if (domid != (uint32_t)INVALID_DOMID)
            libxl_domain_destroy(hv->ctx, domid, NULL);
        goto out;
    }
    if (dom->start_paused) {
        /* libxl_domain_create_new leaves the domain paused, its backends
         * connected (hotplug scripts done): the run sets the loop devices'
         * direct I/O, then calls resume */
        ret = 0;
        goto out;
    }
    rc = libxl_domain_unpause(hv->ctx, domid, NULL);
    if (rc) {
        vdc_error("domain %s (domid %u): libxl_domain_unpause failed (rc %d)", dom->name, domid, rc);
        libxl_domain_destroy(hv->ctx, domid, NULL);
        goto out;
    }
    ret = 0;
out:
    libxl_domain_config_dispose(&cfg);
    return ret;
}

static int
xl_resume(vdc_hv *hv, const char *name)
{
    uint32_t domid;
    int rc;

    if (libxl_name_to_domid(hv->ctx, name, &domid)) {
        vdc_error("domain %s: not found in libxl", name);
        return -1;
    }
    rc = libxl_domain_unpause(hv->ctx, domid, NULL);
    if (rc) {
        vdc_error("domain %s (domid %u): libxl_domain_unpause failed (rc %d)", name, domid, rc);
        return -1;
    }
    return 0;
}

/* Read one xenstore key under @dir into @obj as @member (string), if set. */
static char *
xs_get(struct xs_handle *xs, const char *dir, const char *key)
{
    g_autofree char *path = g_strdup_printf("%s/%s", dir, key);
    unsigned int len = 0;
    char *v = xs_read(xs, XBT_NULL, path, &len);
    char *out = v ? g_strndup(v, len) : NULL;

    free(v);
    return out;
}

/* /local/domain/0/backend/{vbd,vbd3,qdisk}/DOMID/DEVID and each one's
 * frontend (host/xsbackend.h) -> @out[vdev] = the backend object
 * (hv/backend_json.h, doc/result-format.md). */
static int
xl_backends(vdc_hv *hv, const char *name, JsonObject *out)
{
    g_autoptr(GPtrArray) vbds = NULL;
    uint32_t domid;
    guint i;

    if (libxl_name_to_domid(hv->ctx, name, &domid)) {
        vdc_error("domain %s: not found in libxl", name);
        return -1;
    }
    vbds = vdc_xs_vbds_read(domid);
    if (!vbds)
        return -1;
    for (i = 0; i < vbds->len; i++) {
        const vdc_xs_vbd *v = g_ptr_array_index(vbds, i);
        g_autofree char *devid = g_strdup_printf("%u", v->devid);

        json_object_set_object_member(out, v->dev ? v->dev : devid, vdc_xs_backend_json(v));
    }
    return 0;
}

/* The pid of the QEMU libxl spawned for @domid's qdisks, or 0: none, or
 * xenstore cannot be read.  A toolstack in dom0 starts it as the PV
 * domain's device model (libxl_dm.c libxl__spawn_local_dm, qemu-xen with
 * -M xenpv) and records it at /local/domain/DOMID/image/device-model-pid;
 * xl devd in a driver domain starts it as a qdisk backend
 * (libxl__spawn_qdisk_backend) and records it in its own
 * ~/libxl/DOMID/qdisk-backend-pid (docs/misc/xenstore-paths.pandoc). */
static int
qdisk_backend_pid(uint32_t domid)
{
    struct xs_handle *xs = xs_open(XS_OPEN_READONLY);
    g_autofree char *image = g_strdup_printf("/local/domain/%u/image", domid);
    g_autofree char *devd = g_strdup_printf("/local/domain/0/libxl/%u", domid);
    g_autofree char *pid = NULL;

    if (!xs)
        return 0;
    pid = xs_get(xs, image, "device-model-pid");
    if (!pid)
        pid = xs_get(xs, devd, "qdisk-backend-pid");
    xs_close(xs);
    return pid ? atoi(pid) : 0;
}

/* hv.h: the domid, xenstore's backends of it, and qdisk's QEMU
 * (qdisk_backend_pid) */
static int
xl_disk_facts(vdc_hv *hv, const char *name, vdc_hv_disk_facts *out)
{
    uint32_t domid;

    if (libxl_name_to_domid(hv->ctx, name, &domid)) {
        vdc_error("domain %s: not found in libxl", name);
        return -1;
    }
    out->domid = domid;
    out->vbds = vdc_xs_vbds_read(domid);
    if (!out->vbds)
        return -1;
    out->qemu_pid = qdisk_backend_pid(domid);
    return 0;
}

static vdc_hv_wait_result
xl_wait(vdc_hv *hv, const char *name, unsigned timeout_s, volatile sig_atomic_t *stop)
{
    gint64 deadline = g_get_monotonic_time() + (gint64)timeout_s * G_USEC_PER_SEC;
    uint32_t domid;

    if (libxl_name_to_domid(hv->ctx, name, &domid))
        return VDC_HV_WAIT_SHUTOFF;
    for (;;) {
        libxl_dominfo info;
        int rc;

        if (stop && *stop)
            return VDC_HV_WAIT_INTERRUPTED;
        libxl_dominfo_init(&info);
        rc = libxl_domain_info(hv->ctx, &info, domid);
        if (rc == ERROR_DOMAIN_NOTFOUND) {
            libxl_dominfo_dispose(&info);
            return VDC_HV_WAIT_SHUTOFF;
        }
        if (rc) {
            libxl_dominfo_dispose(&info);
            vdc_error("domain %s (domid %u): libxl_domain_info failed (rc %d)", name, domid, rc);
            return VDC_HV_WAIT_ERROR;
        }
        /* with no xl daemon, on_poweroff is ours to carry out: the domain
         * stays "shutdown" until destroyed */
        if (info.shutdown || info.dying) {
            libxl_shutdown_reason r = info.shutdown_reason;
            libxl_dominfo_dispose(&info);
            return r == LIBXL_SHUTDOWN_REASON_POWEROFF ? VDC_HV_WAIT_SHUTOFF : VDC_HV_WAIT_CRASHED;
        }
        libxl_dominfo_dispose(&info);
        if (g_get_monotonic_time() >= deadline)
            return VDC_HV_WAIT_TIMEOUT;
        g_usleep(G_USEC_PER_SEC / 2);
    }
}

/* xenstore's device id of a PV disk name: xvdX (X = a..p) is 202 << 8 |
 * index << 4 (docs/misc/vbd-interface.txt); -1 for anything else */
static int
xvd_devid(const char *vdev)
{
    if (strncmp(vdev, "xvd", 3) != 0 || vdev[3] < 'a' || vdev[3] > 'p' || vdev[4])
        return -1;
    return (202 << 8) | ((vdev[3] - 'a') << 4);
}

static int
xl_domain_stats(vdc_hv *hv, const char *name, const char *const *vdevs, size_t n,
                vdc_hv_domain_stats *out, vdc_hv_disk_io *io)
{
    libxl_dominfo info;
    uint32_t domid;
    size_t i;
    int rc;

    vdc_hv_domain_stats_init(out, io, n);
    if (libxl_name_to_domid(hv->ctx, name, &domid)) {
        vdc_error("domain %s: no such domain", name);
        return -1;
    }
    out->domid = (int)domid;
    out->vmm_pid = qdisk_backend_pid(domid);   /* 0: no qdisk QEMU */
    libxl_dominfo_init(&info);
    rc = libxl_domain_info(hv->ctx, &info, domid);
    if (rc == 0)
        out->cpu_time_s = (double)info.cpu_time / 1e9;
    libxl_dominfo_dispose(&info);
    for (i = 0; i < n; i++) {
        int devid = xvd_devid(vdevs[i]);
        vdc_vbd_stat st;

        if (devid >= 0 && vdc_vbd_stat_read(domid, (unsigned)devid, &st) == 0)
            io[i] = (vdc_hv_disk_io){ (int64_t)st.rd_req, (int64_t)st.wr_req,
                                      (int64_t)st.rd_sect * 512, (int64_t)st.wr_sect * 512 };
    }
    return 0;
}

/* The domid of the domain whose UUID is @uuid: 1 found, 0 none, -1 error. */
static int
domid_by_uuid(vdc_hv *hv, const char *name, const char *uuid, uint32_t *domid)
{
    libxl_uuid want;
    libxl_dominfo *info;
    int n = 0, i, found = 0;

    if (libxl_uuid_from_string(&want, uuid)) {
        vdc_error("domain %s: UUID '%s': expected 8-4-4-4-12 hex digits", name, uuid);
        return -1;
    }
    info = libxl_list_domain(hv->ctx, &n);
    if (!info) {
        vdc_error("domain %s: libxl_list_domain failed", name);
        return -1;
    }
    for (i = 0; i < n && !found; i++)
        if (libxl_uuid_compare(&info[i].uuid, &want) == 0) {
            *domid = info[i].domid;
            found = 1;
        }
    libxl_dominfo_list_free(info, n);
    return found;
}

static int
xl_destroy(vdc_hv *hv, const char *name, const char *uuid)
{
    uint32_t domid;
    int rc = domid_by_uuid(hv, name, uuid, &domid);

    if (rc <= 0)
        return rc;   /* gone already (0), or the error */
    rc = libxl_domain_destroy(hv->ctx, domid, NULL);
    if (rc && rc != ERROR_DOMAIN_NOTFOUND) {
        vdc_error("domain %s (domid %u): libxl_domain_destroy failed (rc %d)", name, domid, rc);
        return -1;
    }
    return 0;
}

static int
xl_run_of(vdc_hv *hv, const char *uuid, char **run_id)
{
    g_autofree char *dom = NULL;
    struct xs_handle *xs;
    uint32_t domid;
    int rc = domid_by_uuid(hv, uuid, uuid, &domid);

    *run_id = NULL;
    if (rc <= 0)
        return rc;
    xs = xs_open(XS_OPEN_READONLY);
    if (!xs) {
        vdc_error("domain %s: cannot open xenstore: %s", uuid, g_strerror(errno));
        return -1;
    }
    dom = g_strdup_printf("/local/domain/%u", domid);
    *run_id = xs_get(xs, dom, VDC_HV_XS_RUN_KEY);
    xs_close(xs);
    return 1;
}

static int
xl_uuid(vdc_hv *hv, const char *name, char out[VDC_HV_UUID_LEN])
{
    libxl_dominfo info;
    uint32_t domid;
    int rc;

    if (libxl_name_to_domid(hv->ctx, name, &domid))
        return 0;
    libxl_dominfo_init(&info);
    rc = libxl_domain_info(hv->ctx, &info, domid);
    if (rc == ERROR_DOMAIN_NOTFOUND) {
        libxl_dominfo_dispose(&info);
        return 0;
    }
    if (rc) {
        libxl_dominfo_dispose(&info);
        vdc_error("domain %s (domid %u): libxl_domain_info failed (rc %d)", name, domid, rc);
        return -1;
    }
    g_snprintf(out, VDC_HV_UUID_LEN, LIBXL_UUID_FMT, LIBXL_UUID_BYTES(info.uuid));
    libxl_dominfo_dispose(&info);
    return 1;
}

static int
xl_exists(vdc_hv *hv, const char *name)
{
    uint32_t domid;

    return libxl_name_to_domid(hv->ctx, name, &domid) == 0;
}

static int
xl_free_memory(vdc_hv *hv, uint64_t *bytes)
{
#ifdef LIBXL_HAVE_MEMKB_64BITS
    uint64_t kib = 0;
#else
    uint32_t kib = 0;
#endif
    int rc = libxl_get_free_memory(hv->ctx, &kib);

    if (rc) {
        vdc_error("libxl: cannot read Xen's free memory (libxl_get_free_memory rc %d)", rc);
        return -1;
    }
    *bytes = (uint64_t)kib * 1024;
    return 0;
}

const vdc_hv_ops vdc_hv_libxl_ops = {
    .name = "libxl",
    .open = xl_open,
    .close = xl_close,
    .versions = xl_versions,
    .create = xl_create,
    .resume = xl_resume,
    .disk_facts = xl_disk_facts,
    .backends = xl_backends,
    .wait = xl_wait,
    .domain_stats = xl_domain_stats,
    .destroy = xl_destroy,
    .exists = xl_exists,
    .uuid = xl_uuid,
    .run_of = xl_run_of,
    .free_memory = xl_free_memory,
};

#endif /* WITH_LIBXL */
