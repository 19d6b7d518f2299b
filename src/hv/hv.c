/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The hypervisor driver registry (hv.h): which drivers this build has, and
 * the one place a driver is looked up, by plan kind or by journaled name. */
#include "config.h"
#include "hv/hv.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "common/escape.h"
#include "common/util.h"
#include "plan/dims.h"

/* Every driver vmdiskcmp knows; ops NULL when configure left it out. */
static const struct {
    vdc_hv_kind kind;           /* its name is vdc_hv_name(kind) */
    const vdc_hv_ops *ops;
} drivers[] = {
#ifdef WITH_LIBXL
    { VDC_HV_LIBXL, &vdc_hv_libxl_ops },
#else
    { VDC_HV_LIBXL, NULL },
#endif
#ifdef WITH_LIBVIRT
    { VDC_HV_LIBVIRT, &vdc_hv_libvirt_ops },
#else
    { VDC_HV_LIBVIRT, NULL },
#endif
    { VDC_HV_MOCK, &vdc_hv_mock_ops },
};

void
vdc_hv_domain_stats_init(vdc_hv_domain_stats *s, vdc_hv_disk_io *io, size_t n)
{
    size_t i;

    s->domid = -1;
    s->vmm_pid = 0;
    s->cpu_time_s = NAN;
    for (i = 0; i < n; i++)
        io[i] = (vdc_hv_disk_io){ -1, -1, -1, -1 };
}

/* The errors of a file the domain needs that no retry mends. */
static const int repeat_errnos[] = { ENOENT, EACCES, EPERM, ENOTDIR, ELOOP, EISDIR, EROFS };

int
vdc_hv_failure_repeats(int err_no, const char *message)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(repeat_errnos); i++) {
        if (err_no == repeat_errnos[i])
            return 1;
        if (message && strstr(message, g_strerror(repeat_errnos[i])))
            return 1;
    }
    /* QEMU's own words for an image or kernel it cannot open */
    return message && (strstr(message, "Could not open") || strstr(message, "could not load kernel") ||
                       strstr(message, "could not load initrd"));
}

char *
vdc_hv_domain_unreadable(const vdc_hv_domain *dom)
{
    const struct { const char *what, *path; } need[] = {
        { "kernel", dom->kernel }, { "initrd", dom->initrd },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(need); i++)
        if (need[i].path && *need[i].path && access(need[i].path, R_OK) < 0)
            return g_strdup_printf("%s %s: %s", need[i].what, need[i].path, g_strerror(errno));
    for (i = 0; i < dom->n_disks; i++)
        if (dom->disks[i].path && access(dom->disks[i].path, dom->disks[i].readonly ? R_OK : R_OK | W_OK) < 0)
            return g_strdup_printf("disk %s (%s) %s: %s", dom->disks[i].vdev, dom->disks[i].target,
                                   dom->disks[i].path, g_strerror(errno));
    return NULL;
}

const vdc_hv_ops *
vdc_hv_ops_for(vdc_hv_kind kind)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(drivers); i++) {
        const char *name = vdc_hv_name(kind);

        if (drivers[i].kind != kind)
            continue;
        if (!drivers[i].ops)
            vdc_error("hypervisor %s: vmdiskcmp was built without %s (configure --with-%s)",
                      name, name, name);
        return drivers[i].ops;
    }
    vdc_error("no hypervisor driver for this plan");
    return NULL;
}

const vdc_hv_ops *
vdc_hv_ops_by_name(const char *name)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(drivers); i++)
        if (!strcmp(name, vdc_hv_name(drivers[i].kind)))
            return vdc_hv_ops_for(drivers[i].kind);
    vdc_error("hypervisor driver '%s': expected libxl, libvirt or mock", name);
    return NULL;
}

void
vdc_hv_disk_facts_init(vdc_hv_disk_facts *f)
{
    f->domid = -1;
    f->vbds = NULL;
    f->disks = NULL;
    f->qemu_pid = 0;
}

void
vdc_hv_disk_facts_dispose(vdc_hv_disk_facts *f)
{
    g_clear_pointer(&f->vbds, g_ptr_array_unref);
    g_clear_pointer(&f->disks, g_ptr_array_unref);
    vdc_hv_disk_facts_init(f);
}

int
vdc_hv_destroy_own(const vdc_hv_ops *ops, vdc_hv *hv, const char *name, const char *uuid,
                   const char *run_id)
{
    char found[VDC_HV_UUID_LEN];

    if (!uuid || !*uuid) {
        /* a version 1 journal: gone is gone, but what has the name now may
         * be anyone's */
        int r = ops->uuid(hv, name, found);

        if (r == 1)
            vdc_error("domain %s: the journal records no UUID, so it may not be this run's: not "
                      "touched (destroy it by hand if it is)", name);
        return r == 0 ? 0 : -1;
    }
    if (run_id && ops->run_of) {
        g_autofree char *theirs = NULL;
        int r = ops->run_of(hv, uuid, &theirs);

        if (r < 0)
            return -1;
        if (r == 1 && (!theirs || strcmp(theirs, run_id))) {
            g_autofree char *shown = theirs ? vdc_escape_text(theirs, -1, 256) : NULL;

            vdc_error_kind(VDC_ERR_NONE, "domain %s (UUID %s): its metadata names %s%s, not run %s: "
                           "not made by that run, left alone", name, uuid, shown ? "run " : "no run",
                           shown ? shown : "", run_id);
            return 0;
        }
        if (r == 1 && ops->destroy(hv, name, uuid) < 0)
            return -1;
    } else if (ops->destroy(hv, name, uuid) < 0) {
        return -1;
    }
    if (ops->uuid(hv, name, found) == 1 && g_ascii_strcasecmp(found, uuid))
        vdc_error_kind(VDC_ERR_NONE, "domain %s: UUID %s is not this run's (%s): left alone",
                       name, found, uuid);
    return 0;
}

/* "9.0.0" -> 9000000; 0 when not of that shape */
static unsigned long
version_number(const char *s)
{
    unsigned a = 0, b = 0, c = 0;

    return s && sscanf(s, "%u.%u.%u", &a, &b, &c) == 3 ? a * 1000000ul + b * 1000ul + c : 0;
}

int
vdc_hv_build_facts(const vdc_plan *p, vdc_hv_build *out)
{
    const vdc_hv_ops *ops;
    g_autoptr(JsonObject) v = NULL;
    g_autofree char *xml = NULL;
    vdc_hv *hv;
    size_t i;
    int wanted = 0, rc = -1;

    vdc_hv_build_init(out);
    for (i = 0; i < vdc_n_dimensions; i++)
        if (vdc_dimensions[i].build_check && p->dims[vdc_dimensions[i].dim].n)
            wanted = 1;
    if (!wanted || p->hv != VDC_HV_LIBVIRT || !p->domain_type ||
        (strcmp(p->domain_type, "kvm") && strcmp(p->domain_type, "qemu")))
        return 0;
    ops = vdc_hv_ops_for(p->hv);
    if (!ops || !ops->domain_capabilities)
        return ops ? 0 : -1;
    hv = ops->open(p->uri);
    if (!hv)
        return -1;
    v = json_object_new();
    ops->versions(hv, v);
    if (ops->domain_capabilities(hv, p->domain_type, &xml) < 0 ||
        vdc_domcaps_parse(xml, "libvirt's domain capabilities", &out->caps) < 0)
        goto out;
    out->libvirt_version = version_number(json_object_get_string_member_with_default(v, "libvirt_version", NULL));
    out->qemu_version = g_strdup(json_object_get_string_member_with_default(v, "qemu_version", NULL));
    if (out->caps.emulator)
        vdc_qemu_build_probe(out->caps.emulator, &out->qemu);
    out->known = 1;
    rc = 0;
out:
    ops->close(hv);
    return rc;
}
