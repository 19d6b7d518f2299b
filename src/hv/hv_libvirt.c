/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The libvirt driver: transient domains (virDomainCreateXML) through any URI
 * (xen:///system, qemu:///system, test:///default).  libvirt errors are
 * turned into one vdc_error here; libvirt's own printing is silenced. */
#include "config.h"
#include "hv/hv.h"

#ifdef WITH_LIBVIRT

#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>
#include <libvirt/libvirt.h>
#include <libvirt/libvirt-qemu.h>
#include <libvirt/virterror.h>

#include "common/util.h"
#include "host/livexml.h"
#include "host/qemudisk.h"
#include "hv/backend_json.h"
#include "hv/translate.h"

struct vdc_hv {
    virConnectPtr conn;
    char *uri;
};

static int qemu_pid(const char *name);

static void
silent(void *opaque, virErrorPtr err)
{
}

static const char *
lv_err(void)
{
    const char *m = virGetLastErrorMessage();
    return m ? m : "unknown libvirt error";
}

static vdc_hv *
lv_open(const char *uri)
{
    vdc_hv *hv;

    virSetErrorFunc(NULL, silent);
    hv = g_new0(vdc_hv, 1);
    hv->conn = virConnectOpen(uri);
    if (!hv->conn) {
        vdc_error("libvirt %s: cannot connect: %s", uri ? uri : "(default)", lv_err());
        g_free(hv);
        return NULL;
    }
    hv->uri = virConnectGetURI(hv->conn);
    return hv;
}

static void
lv_close(vdc_hv *hv)
{
    if (!hv)
        return;
    if (hv->conn)
        virConnectClose(hv->conn);
    free(hv->uri);
    g_free(hv);
}

static char *
version_string(unsigned long v)
{
    return g_strdup_printf("%lu.%lu.%lu", v / 1000000, (v / 1000) % 1000, v % 1000);
}

static void
lv_versions(vdc_hv *hv, JsonObject *out)
{
    unsigned long v = 0;
    const char *type = virConnectGetType(hv->conn);

    if (hv->uri)
        json_object_set_string_member(out, "uri", hv->uri);
    if (virConnectGetLibVersion(hv->conn, &v) == 0) {
        g_autofree char *s = version_string(v);
        json_object_set_string_member(out, "libvirt_version", s);
    }
    if (virConnectGetVersion(hv->conn, &v) == 0 && type) {
        g_autofree char *s = version_string(v);
        if (!g_ascii_strcasecmp(type, "QEMU"))
            json_object_set_string_member(out, "qemu_version", s);
        else if (!g_ascii_strcasecmp(type, "Xen"))
            json_object_set_string_member(out, "xen_version", s);
        else
            json_object_set_string_member(out, "hypervisor_version", s);
    }
}

/* 1 when the connection's URI names no host (qemu:///system, xen:///):
 * the domain's files are on this machine. */
static int
lv_local(const vdc_hv *hv)
{
    g_autoptr(GUri) u = hv->uri ? g_uri_parse(hv->uri, G_URI_FLAGS_NONE, NULL) : NULL;
    const char *host = u ? g_uri_get_host(u) : NULL;

    return !host || !*host;
}

/* Whether libvirt's last error (a failed create of @dom) will repeat on
 * every boot: a configuration libvirt refuses, a file it or QEMU cannot
 * open (vdc_hv_failure_repeats), or, on a local connection (the files are
 * ours to look at), a file of @dom missing (vdc_hv_domain_unreadable).
 * The cause (g_malloc), or NULL. */
static char *
lv_create_repeats(vdc_hv *hv, const vdc_hv_domain *dom)
{
    virErrorPtr e = virGetLastError();
    int err_no = e && e->code == VIR_ERR_SYSTEM_ERROR ? e->int1 : 0;

    if (e && (e->code == VIR_ERR_XML_ERROR || e->code == VIR_ERR_XML_DETAIL ||
              e->code == VIR_ERR_CONFIG_UNSUPPORTED || e->code == VIR_ERR_NO_SUPPORT ||
              e->code == VIR_ERR_INVALID_ARG || vdc_hv_failure_repeats(err_no, e->message)))
        return g_strdup(lv_err());
    return lv_local(hv) ? vdc_hv_domain_unreadable(dom) : NULL;
}

static int
lv_create(vdc_hv *hv, const vdc_hv_domain *dom, char **repeats)
{
    g_autofree char *xml = vdc_domain_xml(dom);
    virDomainPtr d;

    *repeats = NULL;
    if (!xml) {
        *repeats = g_strdup("the domain XML cannot be written (see the message above)");
        return -1;
    }
    d = virDomainCreateXML(hv->conn, xml, dom->start_paused ? VIR_DOMAIN_START_PAUSED : 0);
    if (!d) {
        vdc_error("domain %s: cannot create: %s", dom->name, lv_err());
        *repeats = lv_create_repeats(hv, dom);
        return -1;
    }
    virDomainFree(d);
    return 0;
}

/* QEMU's answer to QMP command @cmd for domain @d (virDomainQemuMonitorCommand
 * of libvirt-qemu), or NULL (not said: the caller records what it has) */
static char *
qmp(virDomainPtr d, const char *cmd)
{
    char *reply = NULL, *out;

    if (virDomainQemuMonitorCommand(d, cmd, &reply, 0) < 0)
        return NULL;
    out = g_strdup(reply);
    free(reply);
    return out;
}

/* What QEMU says of a domain's disks: query-block, query-iothreads, the
 * -blockdev of its command line (a local connection: /proc/PID/cmdline),
 * and per disk qom-get of its device's iothread and queues */
typedef struct {
    GPtrArray *blocks;          /* vdc_qmp_block*, or NULL */
    char **iothreads;           /* ids, or NULL */
    GHashTable *blockdevs;      /* node name -> -blockdev object, or NULL */
} qemu_said;

static void
qemu_said_dispose(qemu_said *q)
{
    g_clear_pointer(&q->blocks, g_ptr_array_unref);
    g_clear_pointer(&q->iothreads, g_strfreev);
    g_clear_pointer(&q->blockdevs, g_hash_table_unref);
}

static void
qemu_said_read(vdc_hv *hv, virDomainPtr d, const char *name, qemu_said *q)
{
    g_autofree char *blocks = qmp(d, "{\"execute\":\"query-block\"}");
    g_autofree char *threads = qmp(d, "{\"execute\":\"query-iothreads\"}");
    g_autofree char *what = g_strdup_printf("domain %s: QMP", name);
    int pid;

    q->blocks = blocks ? vdc_qmp_block_parse(blocks, what) : NULL;
    q->iothreads = threads ? vdc_qmp_iothreads_parse(threads, what) : NULL;
    pid = lv_local(hv) ? qemu_pid(name) : 0;
    if (pid > 0) {
        g_autofree char *path = g_strdup_printf("/proc/%d/cmdline", pid);
        g_autofree char *cmdline = NULL;
        gsize len = 0;

        if (g_file_get_contents(path, &cmdline, &len, NULL))
            q->blockdevs = vdc_qemu_cmdline_blockdevs(cmdline, len);
    }
}

/* qom-get @prop of @path: a string into *@str or a number into *@num;
 * 0, or -1 when QEMU did not answer so */
static int
qom_get(virDomainPtr d, const char *path, const char *prop, char **str, int64_t *num)
{
    g_autofree char *cmd = g_strdup_printf("{\"execute\":\"qom-get\",\"arguments\":"
                                           "{\"path\":\"%s\",\"property\":\"%s\"}}", path, prop);
    g_autofree char *reply = qmp(d, cmd);
    g_autofree char *what = g_strdup_printf("qom-get %s %s", path, prop);

    return reply ? vdc_qmp_qom_parse(reply, what, str, num) : -1;
}

/* A Xen domain's VBDs as xenstore holds them: each disk's ring, what
 * blkback offered and the frontend chose (host/xsbackend.h), added to its
 * object in @out */
static void
xen_rings(virDomainPtr d, JsonObject *out)
{
#ifdef WITH_LIBXL
    static const char *const ring[] = { "max_ring_page_order", "max_queues", "ring_page_order",
                                        "queues", "frontend_state" };
    unsigned id = virDomainGetID(d);
    g_autoptr(GPtrArray) vbds = id != (unsigned)-1 ? vdc_xs_vbds_read(id) : NULL;
    guint i;
    size_t k;

    for (i = 0; vbds && i < vbds->len; i++) {
        const vdc_xs_vbd *v = g_ptr_array_index(vbds, i);
        JsonObject *o = v->dev && json_object_has_member(out, v->dev)
                        ? json_object_get_object_member(out, v->dev) : NULL;
        g_autoptr(JsonObject) xs = vdc_xs_backend_json(v);

        for (k = 0; o && k < G_N_ELEMENTS(ring); k++)
            if (json_object_has_member(xs, ring[k]))
                json_object_set_int_member(o, ring[k], json_object_get_int_member(xs, ring[k]));
    }
#else
    (void)d;
    (void)out;
#endif
}

/* the backend facts of every disk of the live XML, with QEMU's own for a
 * QEMU domain (backend_json.h) */
static int
backends_json(vdc_hv *hv, virDomainPtr d, const char *name, const char *xml, JsonObject *out)
{
    const char *type = virConnectGetType(hv->conn);
    int is_qemu = type && !g_ascii_strcasecmp(type, "QEMU");
    g_autoptr(GPtrArray) disks = vdc_livexml_disks_parse(xml, "the live domain XML", NULL);
    qemu_said q = { 0 };
    guint i;

    if (!disks)
        return -1;
    if (is_qemu)
        qemu_said_read(hv, d, name, &q);
    for (i = 0; i < disks->len; i++) {
        const vdc_lv_disk *k = g_ptr_array_index(disks, i);
        vdc_qemu_disk_view v = { .queues = -1 };
        const char *queues_prop = NULL;
        g_autofree char *path = is_qemu ? vdc_lv_disk_qom_path(k, &queues_prop) : NULL;
        g_autofree char *iothread = NULL;

        if (is_qemu) {
            v.block = vdc_qmp_block_of_alias(q.blocks, k->alias);
            v.aio = v.block && q.blockdevs ? vdc_qemu_node_aio(q.blockdevs, v.block->node_name) : NULL;
            v.qom_read = path && qom_get(d, path, "iothread", &iothread, NULL) == 0 &&
                         qom_get(d, path, queues_prop, NULL, &v.queues) == 0;
            v.iothread = iothread;
            v.iothreads_read = q.iothreads != NULL;
            v.running = (const char *const *)q.iothreads;
        }
        /* a SCSI disk is named sdX by libvirt; its serial carries our vdev */
        json_object_set_object_member(out, k->serial && g_str_has_prefix(k->serial, VDC_HV_DISK_SERIAL_PREFIX)
                                           ? k->serial + strlen(VDC_HV_DISK_SERIAL_PREFIX) : k->vdev,
                                      vdc_lv_backend_json(k, is_qemu ? &v : NULL));
    }
    qemu_said_dispose(&q);
    if (type && !g_ascii_strcasecmp(type, "Xen"))
        xen_rings(d, out);
    return 0;
}

static int
lv_backends(vdc_hv *hv, const char *name, JsonObject *out)
{
    virDomainPtr d = virDomainLookupByName(hv->conn, name);
    char *xml;
    int rc;

    if (!d) {
        vdc_error("domain %s: cannot read the live XML: %s", name, lv_err());
        return -1;
    }
    xml = virDomainGetXMLDesc(d, 0);
    if (!xml) {
        vdc_error("domain %s: cannot read the live XML: %s", name, lv_err());
        virDomainFree(d);
        return -1;
    }
    rc = backends_json(hv, d, name, xml, out);
    free(xml);
    virDomainFree(d);
    return rc;
}

static int
lv_resume(vdc_hv *hv, const char *name)
{
    virDomainPtr d = virDomainLookupByName(hv->conn, name);
    int r;

    if (!d) {
        vdc_error("domain %s: cannot look it up to resume it: %s", name, lv_err());
        return -1;
    }
    r = virDomainResume(d);
    if (r < 0)
        vdc_error("domain %s: cannot resume: %s", name, lv_err());
    virDomainFree(d);
    return r < 0 ? -1 : 0;
}

/* QEMU's pid from the driver's status file (<domstatus pid=>: readable by
 * root, as the system daemon writes it), as livexml.c reads it; 0 when
 * there is no such file (not qemu:///system, no permission), -1 when it
 * cannot be parsed (livexml.c reported it) */
static int
qemu_pid(const char *name)
{
    g_autofree char *path = g_strdup_printf("/run/libvirt/qemu/%s.xml", name);
    g_autofree char *xml = NULL;
    GPtrArray *disks;
    int pid = 0;

    if (!g_file_get_contents(path, &xml, NULL, NULL))
        return 0;
    disks = vdc_livexml_disks_parse(xml, path, &pid);
    if (!disks)
        return -1;
    g_ptr_array_unref(disks);
    return pid;
}

/* hv.h: the live XML's disks; for a Xen domain its domid and xenstore's
 * backends; for QEMU its pid from libvirt's status file (root only) */
static int
lv_disk_facts(vdc_hv *hv, const char *name, vdc_hv_disk_facts *out)
{
    virDomainPtr d = virDomainLookupByName(hv->conn, name);
    const char *type = virConnectGetType(hv->conn);
    char *xml = NULL;
    unsigned id;
    int rc = -1;

    if (!d) {
        vdc_error("domain %s: cannot read the live XML: %s", name, lv_err());
        return -1;
    }
    xml = virDomainGetXMLDesc(d, 0);
    if (!xml) {
        vdc_error("domain %s: cannot read the live XML: %s", name, lv_err());
        goto out;
    }
    out->disks = vdc_livexml_disks_parse(xml, "the live domain XML", NULL);
    if (!out->disks)
        goto out;
    id = virDomainGetID(d);
    if (type && !g_ascii_strcasecmp(type, "Xen") && id != (unsigned)-1) {
        out->domid = id;
#ifdef WITH_LIBXL
        out->vbds = vdc_xs_vbds_read(id);
        if (!out->vbds)
            goto out;
#endif
    } else if (type && !g_ascii_strcasecmp(type, "QEMU")) {
        int pid = qemu_pid(name);

        if (pid < 0)
            goto out;
        out->qemu_pid = pid;
    }
    rc = 0;
out:
    free(xml);
    virDomainFree(d);
    return rc;
}

static vdc_hv_wait_result
lv_wait(vdc_hv *hv, const char *name, unsigned timeout_s, volatile sig_atomic_t *stop)
{
    gint64 deadline = g_get_monotonic_time() + (gint64)timeout_s * G_USEC_PER_SEC;

    for (;;) {
        virDomainPtr d;
        int state = 0, reason = 0, r;

        if (stop && *stop)
            return VDC_HV_WAIT_INTERRUPTED;
        d = virDomainLookupByName(hv->conn, name);
        if (!d) {
            virErrorPtr e = virGetLastError();
            if (e && e->code == VIR_ERR_NO_DOMAIN)
                return VDC_HV_WAIT_SHUTOFF;    /* transient domain gone: powered off */
            vdc_error("domain %s: cannot look it up: %s", name, lv_err());
            return VDC_HV_WAIT_ERROR;
        }
        r = virDomainGetState(d, &state, &reason, 0);
        virDomainFree(d);
        if (r < 0) {
            /* a transient domain that powers off vanishes between the
             * lookup and the state query; libvirt then reports various
             * errors (or none): look it up again to know */
            g_autofree char *why = g_strdup(lv_err());
            virDomainPtr again = virDomainLookupByName(hv->conn, name);
            if (!again)
                return VDC_HV_WAIT_SHUTOFF;
            virDomainFree(again);
            vdc_error("domain %s: cannot read its state: %s", name, why);
            return VDC_HV_WAIT_ERROR;
        }
        if (state == VIR_DOMAIN_SHUTOFF)
            return reason == VIR_DOMAIN_SHUTOFF_CRASHED ? VDC_HV_WAIT_CRASHED : VDC_HV_WAIT_SHUTOFF;
        if (state == VIR_DOMAIN_CRASHED)
            return VDC_HV_WAIT_CRASHED;
        if (g_get_monotonic_time() >= deadline)
            return VDC_HV_WAIT_TIMEOUT;
        g_usleep(G_USEC_PER_SEC / 4);
    }
}

static int
lv_domain_stats(vdc_hv *hv, const char *name, const char *const *vdevs, size_t n,
                vdc_hv_domain_stats *out, vdc_hv_disk_io *io)
{
    virDomainPtr d = virDomainLookupByName(hv->conn, name);
    virDomainInfo info;
    size_t i;

    vdc_hv_domain_stats_init(out, io, n);
    if (!d) {
        vdc_error("domain %s: cannot read its stats: %s", name, lv_err());
        return -1;
    }
    if (virDomainGetInfo(d, &info) == 0)
        out->cpu_time_s = (double)info.cpuTime / 1e9;
    out->domid = (int)virDomainGetID(d);
    for (i = 0; i < n; i++) {
        virDomainBlockStatsStruct bs;

        if (virDomainBlockStats(d, vdevs[i], &bs, sizeof(bs)) == 0)
            io[i] = (vdc_hv_disk_io){ bs.rd_req, bs.wr_req, bs.rd_bytes, bs.wr_bytes };
    }
    virDomainFree(d);
    out->vmm_pid = MAX(qemu_pid(name), 0);
    return 0;
}

static int
lv_destroy(vdc_hv *hv, const char *name, const char *uuid)
{
    virDomainPtr d = virDomainLookupByUUIDString(hv->conn, uuid);
    int rc = 0;

    if (!d) {
        virErrorPtr e = virGetLastError();
        if (e && e->code == VIR_ERR_NO_DOMAIN)
            return 0;
        vdc_error("domain %s (UUID %s): cannot look it up to destroy it: %s", name, uuid, lv_err());
        return -1;
    }
    if (virDomainIsActive(d) == 1 && virDomainDestroy(d) < 0) {
        virErrorPtr e = virGetLastError();
        if (!e || e->code != VIR_ERR_NO_DOMAIN) {
            vdc_error("domain %s (UUID %s): cannot destroy: %s", name, uuid, lv_err());
            rc = -1;
        }
    }
    /* a persistent domain of that name would be ours only if we defined it;
     * we never define, so nothing to undefine */
    virDomainFree(d);
    return rc;
}

/* The id attribute of the element libvirt hands back for our metadata
 * namespace (<run id='RUNID'/>, entities resolved), or NULL. */
static char *
metadata_run_id(const char *xml)
{
    g_autoptr(GRegex) re = g_regex_new("<[^>]*\\bid=(['\"])([^'\"<>]*)\\1", 0, 0, NULL);
    g_autoptr(GMatchInfo) m = NULL;
    g_autofree char *raw = NULL;
    GString *out;
    const char *c;

    if (!re || !g_regex_match(re, xml, 0, &m))
        return NULL;
    raw = g_match_info_fetch(m, 2);
    out = g_string_new(NULL);
    for (c = raw; *c; c++) {
        static const struct { const char *ent; char ch; } ents[] = {
            { "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&apos;", '\'' }, { "&quot;", '"' },
        };
        size_t i;

        for (i = 0; i < G_N_ELEMENTS(ents); i++)
            if (g_str_has_prefix(c, ents[i].ent))
                break;
        if (i < G_N_ELEMENTS(ents)) {
            g_string_append_c(out, ents[i].ch);
            c += strlen(ents[i].ent) - 1;
        } else {
            g_string_append_c(out, *c);
        }
    }
    return g_string_free(out, FALSE);
}

static int
lv_run_of(vdc_hv *hv, const char *uuid, char **run_id)
{
    virDomainPtr d = virDomainLookupByUUIDString(hv->conn, uuid);
    char *xml;
    virErrorPtr e;

    *run_id = NULL;
    if (!d) {
        e = virGetLastError();
        if (e && e->code == VIR_ERR_NO_DOMAIN)
            return 0;
        vdc_error("domain UUID %s: cannot look it up: %s", uuid, lv_err());
        return -1;
    }
    xml = virDomainGetMetadata(d, VIR_DOMAIN_METADATA_ELEMENT, VDC_HV_METADATA_NS,
                               VIR_DOMAIN_AFFECT_CURRENT);
    if (!xml) {
        e = virGetLastError();
        if (!e || e->code != VIR_ERR_NO_DOMAIN_METADATA) {
            int gone = e && e->code == VIR_ERR_NO_DOMAIN;

            if (!gone)
                vdc_error("domain UUID %s: cannot read its metadata: %s", uuid, lv_err());
            virDomainFree(d);
            return gone ? 0 : -1;
        }
    } else {
        *run_id = metadata_run_id(xml);
        free(xml);
    }
    virDomainFree(d);
    return 1;
}

static int
lv_uuid(vdc_hv *hv, const char *name, char out[VDC_HV_UUID_LEN])
{
    virDomainPtr d = virDomainLookupByName(hv->conn, name);
    char buf[VIR_UUID_STRING_BUFLEN];
    virErrorPtr e;
    int r;

    if (!d) {
        e = virGetLastError();
        if (e && e->code == VIR_ERR_NO_DOMAIN)
            return 0;
        vdc_error("domain %s: cannot look it up: %s", name, lv_err());
        return -1;
    }
    r = virDomainGetUUIDString(d, buf);
    virDomainFree(d);
    if (r < 0) {
        vdc_error("domain %s: cannot read its UUID: %s", name, lv_err());
        return -1;
    }
    g_strlcpy(out, buf, VDC_HV_UUID_LEN);
    return 1;
}

static int
lv_exists(vdc_hv *hv, const char *name)
{
    virDomainPtr d = virDomainLookupByName(hv->conn, name);
    virErrorPtr e;

    if (d) {
        int active = virDomainIsActive(d);
        virDomainFree(d);
        return active == 1;
    }
    e = virGetLastError();
    if (e && e->code == VIR_ERR_NO_DOMAIN)
        return 0;
    vdc_error("domain %s: cannot look it up: %s", name, lv_err());
    return -1;
}

/* libvirt's names of virDomainDiskErrorCode */
static const char *
disk_error_name(int code)
{
    switch (code) {
    case VIR_DOMAIN_DISK_ERROR_NO_SPACE:
        return "no space left";
    case VIR_DOMAIN_DISK_ERROR_UNSPEC:
        return "I/O error";
    default:
        return "error";
    }
}

static int
lv_stalled(vdc_hv *hv, const char *name, char **why)
{
    virDomainPtr d = virDomainLookupByName(hv->conn, name);
    virDomainDiskErrorPtr errs = NULL;
    int state = 0, reason = 0, n, i;
    GString *s;

    *why = NULL;
    if (!d)
        return 0;               /* gone: the wait says how */
    if (virDomainGetState(d, &state, &reason, 0) < 0 || state != VIR_DOMAIN_PAUSED ||
        reason != VIR_DOMAIN_PAUSED_IOERROR) {
        virDomainFree(d);
        return 0;
    }
    s = g_string_new("paused on an I/O error");
    n = virDomainGetDiskErrors(d, NULL, 0, 0);
    if (n > 0) {
        errs = g_new0(virDomainDiskError, n);
        n = virDomainGetDiskErrors(d, errs, (unsigned)n, 0);
        for (i = 0; i < n; i++) {
            g_string_append_printf(s, "%s disk %s: %s", i ? "," : " (", errs[i].disk,
                                   disk_error_name(errs[i].error));
            free(errs[i].disk);
        }
        if (n > 0)
            g_string_append_c(s, ')');
        g_free(errs);
    }
    virDomainFree(d);
    *why = g_string_free(s, FALSE);
    return 1;
}

static int
lv_domain_capabilities(vdc_hv *hv, const char *virttype, char **xml)
{
    char *caps = virConnectGetDomainCapabilities(hv->conn, NULL, NULL, NULL, virttype, 0);

    if (!caps) {
        vdc_error("libvirt %s: cannot read the domain capabilities of type %s: %s",
                  hv->uri ? hv->uri : "?", virttype, lv_err());
        return -1;
    }
    *xml = g_strdup(caps);
    free(caps);
    return 0;
}

const vdc_hv_ops vdc_hv_libvirt_ops = {
    .name = "libvirt",
    .open = lv_open,
    .close = lv_close,
    .versions = lv_versions,
    .create = lv_create,
    .resume = lv_resume,
    .disk_facts = lv_disk_facts,
    .backends = lv_backends,
    .wait = lv_wait,
    .domain_stats = lv_domain_stats,
    .destroy = lv_destroy,
    .exists = lv_exists,
    .uuid = lv_uuid,
    .run_of = lv_run_of,
    .stalled = lv_stalled,
    .domain_capabilities = lv_domain_capabilities,
};

#endif /* WITH_LIBVIRT */
