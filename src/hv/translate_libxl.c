/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan -> libxl_domain_config, and xl disk specs through libxlutil.  Pure:
 * libxl's *_to_json and xlu_disk_parse need no libxl_ctx and no Xen. */
#include "config.h"
#include "hv/translate.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"

#ifdef WITH_LIBXL
#include <libxl.h>
#include <libxl_utils.h>
#include <libxlutil.h>

/* Parse @spec into an initialised @disk.  libxlutil reports its own message
 * on @report (NULL: /dev/null).  Returns 0 or the errno value. */
static int
disk_parse(const char *spec, libxl_device_disk *disk, FILE *report)
{
    XLU_Config *cfg = NULL;
    FILE *devnull = NULL;
    int r;

    if (!report)
        report = devnull = fopen("/dev/null", "w");
    cfg = xlu_cfg_init(report ? report : stderr, "vmdiskcmp");
    if (!cfg) {
        if (devnull)
            fclose(devnull);
        return ENOMEM;
    }
    r = xlu_disk_parse(cfg, 1, &spec, disk);
    xlu_cfg_destroy(cfg);
    if (devnull)
        fclose(devnull);
    return r;
}

int
vdc_libxl_config_build(const vdc_hv_domain *d, libxl_domain_config *cfg)
{
    size_t i;

    libxl_domain_create_info_init(&cfg->c_info);
    cfg->c_info.type = LIBXL_DOMAIN_TYPE_PV;
    cfg->c_info.name = g_strdup(d->name);
    if (d->uuid && libxl_uuid_from_string(&cfg->c_info.uuid, d->uuid)) {
        vdc_error("domain %s: UUID '%s': expected 8-4-4-4-12 hex digits", d->name, d->uuid);
        return -1;
    }
    if (d->run_id) {
        /* libxl writes c_info.xsdata's pairs below the domain's xenstore
         * path, writable by dom0 only: the run the domain belongs to */
        cfg->c_info.xsdata = calloc(3, sizeof(char *));
        if (!cfg->c_info.xsdata) {
            vdc_error("domain %s: cannot allocate its xenstore data", d->name);
            return -1;
        }
        cfg->c_info.xsdata[0] = g_strdup(VDC_HV_XS_RUN_KEY);
        cfg->c_info.xsdata[1] = g_strdup(d->run_id);
    }
    libxl_domain_build_info_init(&cfg->b_info);
    libxl_domain_build_info_init_type(&cfg->b_info, LIBXL_DOMAIN_TYPE_PV);
    cfg->b_info.max_vcpus = (int)d->vcpus;
    /* libxl_cpu_bitmap_alloc needs a libxl_ctx: fill the bitmap (size in
     * bytes, map freed by libxl_bitmap_dispose) ourselves */
    cfg->b_info.avail_vcpus.size = (d->vcpus + 7) / 8;
    cfg->b_info.avail_vcpus.map = calloc(cfg->b_info.avail_vcpus.size, 1);
    if (!cfg->b_info.avail_vcpus.map) {
        vdc_error("domain %s: cannot allocate the vCPU bitmap", d->name);
        return -1;
    }
    for (i = 0; i < d->vcpus; i++)
        libxl_bitmap_set(&cfg->b_info.avail_vcpus, (int)i);
    cfg->b_info.max_memkb = (uint64_t)d->memory_mib * 1024;
    cfg->b_info.target_memkb = cfg->b_info.max_memkb;
    cfg->b_info.kernel = g_strdup(d->kernel);
    cfg->b_info.ramdisk = g_strdup(d->initrd);
    cfg->b_info.cmdline = g_strdup(d->cmdline);
    cfg->on_poweroff = LIBXL_ACTION_ON_SHUTDOWN_DESTROY;
    cfg->on_reboot = LIBXL_ACTION_ON_SHUTDOWN_DESTROY;
    cfg->on_watchdog = LIBXL_ACTION_ON_SHUTDOWN_DESTROY;
    cfg->on_crash = LIBXL_ACTION_ON_SHUTDOWN_DESTROY;

    cfg->disks = calloc(d->n_disks, sizeof(*cfg->disks));
    if (!cfg->disks) {
        vdc_error("domain %s: out of memory", d->name);
        return -1;
    }
    for (i = 0; i < d->n_disks; i++) {
        g_autofree char *spec = vdc_xl_disk_spec(&d->disks[i]);
        int r;

        libxl_device_disk_init(&cfg->disks[i]);
        cfg->num_disks = (int)i + 1;
        if (!spec)
            return -1;
        r = disk_parse(spec, &cfg->disks[i], stderr);
        if (r) {
            vdc_error("domain %s: xl disk spec '%s': %s", d->name, spec, g_strerror(r));
            return -1;
        }
    }
    return 0;
}

char *
vdc_libxl_config_json(const vdc_hv_domain *d)
{
    libxl_domain_config cfg;
    char *json = NULL, *out = NULL;

    libxl_domain_config_init(&cfg);
    if (vdc_libxl_config_build(d, &cfg) == 0) {
        json = libxl_domain_config_to_json(NULL, &cfg);
        if (!json)
            vdc_error("domain %s: libxl_domain_config_to_json failed", d->name);
    }
    libxl_domain_config_dispose(&cfg);
    if (json) {
        out = g_strdup(json);
        free(json);
    }
    return out;
}

char *
vdc_xl_disk_parse_json(const char *spec)
{
    libxl_device_disk disk;
    char *json, *out = NULL;

    libxl_device_disk_init(&disk);
    if (disk_parse(spec, &disk, NULL) == 0) {
        json = libxl_device_disk_to_json(NULL, &disk);
        if (json) {
            out = g_strdup(json);
            free(json);
        }
    }
    libxl_device_disk_dispose(&disk);
    return out;
}

#else /* !WITH_LIBXL */

char *
vdc_libxl_config_json(const vdc_hv_domain *d)
{
    vdc_error("domain %s: vmdiskcmp was built without libxl (configure --with-libxl)", d->name);
    return NULL;
}

char *
vdc_xl_disk_parse_json(const char *spec)
{
    return NULL;
}

#endif
