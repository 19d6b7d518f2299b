/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "hv/translate.h"

#include <string.h>

#include <glib.h>

#include "common/util.h"

void
vdc_hv_domain_from_plan(const vdc_plan *p, const char *root, const char *ctl,
                        const char *console_log, vdc_hv_domain *d)
{
    size_t i;

    memset(d, 0, sizeof(*d));
    d->name = p->domain_name;
    d->run_id = p->id;
    d->type = p->domain_type;
    d->memory_mib = p->memory_mib;
    d->vcpus = p->vcpus;
    d->kernel = p->kernel;
    d->initrd = p->initrd;
    d->cmdline = p->cmdline;
    d->console_log = console_log;
    d->cache = "none";
    d->io = "native";

    d->disks[d->n_disks++] = (vdc_hv_disk){
        .target = "root", .path = root, .vdev = p->root_vdev,
        .spec = root && g_str_has_suffix(root, ".qcow2")
                ? (vdc_target_spec){ .format = VDC_IMAGE_QCOW2, .backend = VDC_BACKEND_QDISK }
                : (vdc_target_spec){ .format = VDC_IMAGE_RAW, .backend = VDC_BACKEND_AUTO },
        /* the prepared image is shared by every run (src/guest/prepare.h) */
        .readonly = 1, .aux = 1,
    };
    for (i = 0; i < p->n_targets && d->n_disks < VDC_HV_MAX_DISKS - 1; i++) {
        const vdc_plan_target *t = &p->targets[i];
        if (t->spec.where != VDC_WHERE_DOMU)
            continue;
        d->disks[d->n_disks++] = (vdc_hv_disk){
            .target = t->name, .path = t->path, .vdev = t->vdev, .spec = t->spec,
            .qcow2_cache_size = vdc_target_spec_domu_image(&t->spec) &&
                                t->spec.format == VDC_IMAGE_QCOW2 ? p->qcow2_l2_cache_size : 0,
            .discard = t->spec.backing == VDC_BACKING_LVM && t->spec.lv_type == VDC_LV_THIN,
        };
    }
    d->disks[d->n_disks++] = (vdc_hv_disk){
        .target = "control", .path = ctl, .vdev = p->ctl_vdev,
        .spec = { .format = VDC_IMAGE_RAW, .backend = VDC_BACKEND_AUTO }, .aux = 1,
    };
    d->start_paused = vdc_hv_domain_needs_pause(d);
}

/* A block device (an LV, a given device): served by blkback, 'phy:'. */
static int
is_block(const vdc_hv_disk *disk)
{
    return disk->spec.backing != VDC_BACKING_IMAGE;
}

/* A target image that asks to bypass the host's page cache. */
static int
cache_none(const vdc_hv_disk *disk)
{
    return !disk->aux && !is_block(disk) && disk->spec.cache == VDC_IMAGE_CACHE_NONE;
}

int
vdc_hv_domain_needs_pause(const vdc_hv_domain *d)
{
    size_t i;

    if (strcmp(d->type, "pv") && strcmp(d->type, "xen"))
        return 0;
    for (i = 0; i < d->n_disks; i++)
        if (cache_none(&d->disks[i]) && d->disks[i].spec.backend != VDC_BACKEND_QDISK)
            return 1;
    return 0;
}

static const char *
format_name(const vdc_hv_disk *disk)
{
    return vdc_target_name(VDC_DIM_IMAGE_FORMAT, disk->spec.format);
}

char *
vdc_xl_disk_spec(const vdc_hv_disk *disk)
{
    const char *access = disk->readonly ? "r" : "w";
    const char *path = disk->path ? disk->path : "";
    const char *format = format_name(disk);

    if (is_block(disk) || disk->spec.backend == VDC_BACKEND_TAP) {
        if (strpbrk(path, ",:")) {
            vdc_error("disk %s: path '%s' contains ',' or ':', which a positional xl disk spec cannot carry",
                      disk->target, path);
            return NULL;
        }
        if (is_block(disk))
            return g_strdup_printf("phy:%s,%s,%s", path, disk->vdev, access);
        if (disk->spec.format != VDC_IMAGE_RAW) {
            vdc_error("disk %s: tap:aio: serves raw images only, not %s", disk->target, format);
            return NULL;
        }
        return g_strdup_printf("tap:aio:%s,%s,%s", path, disk->vdev, access);
    }
    switch (disk->spec.backend) {
    case VDC_BACKEND_PHY:
        if (disk->spec.format != VDC_IMAGE_RAW) {
            vdc_error("disk %s: blkback (phy) serves raw images only, not %s", disk->target, format);
            return NULL;
        }
        return g_strdup_printf("format=raw,vdev=%s,access=%s,backendtype=phy,target=%s",
                               disk->vdev, access, path);
    case VDC_BACKEND_QDISK:
        return g_strdup_printf("format=%s,vdev=%s,access=%s,backendtype=qdisk,%starget=%s",
                               format, disk->vdev, access,
                               cache_none(disk) ? "direct-io-safe," : "", path);
    default:
        /* auto: libxl picks the backend (qdisk for qcow2); direct-io-safe
         * reaches a qdisk, blkback ignores it (its loop device gets direct
         * I/O from the run) */
        return g_strdup_printf("format=%s,vdev=%s,access=%s,%starget=%s",
                               format, disk->vdev, access,
                               cache_none(disk) ? "direct-io-safe," : "", path);
    }
}

/* xl.cfg strings are double-quoted; refuse what cannot be quoted simply. */
static int
cfg_quotable(const char *what, const char *s)
{
    if (s && strpbrk(s, "\"\\\n")) {
        vdc_error("xl.cfg: %s '%s' contains a quote, backslash or newline", what, s);
        return 0;
    }
    return 1;
}

char *
vdc_xl_cfg(const vdc_hv_domain *d)
{
    GString *s = g_string_new(NULL);
    size_t i;

    if (!cfg_quotable("name", d->name) || !cfg_quotable("kernel", d->kernel) ||
        !cfg_quotable("ramdisk", d->initrd) || !cfg_quotable("cmdline", d->cmdline))
        goto error;
    g_string_append_printf(s, "# xl.cfg(5) written by vmdiskcmp: `xl create THIS-FILE` boots the same domU.\n"
                              "# Disks: root, targets in vdev order, control disk last.\n");
    g_string_append_printf(s, "name = \"%s\"\n", d->name);
    if (d->uuid && !cfg_quotable("uuid", d->uuid))
        goto error;
    if (d->uuid)
        g_string_append_printf(s, "uuid = \"%s\"\n", d->uuid);
    g_string_append(s, "type = \"pv\"\n");
    if (d->kernel)
        g_string_append_printf(s, "kernel = \"%s\"\n", d->kernel);
    if (d->initrd)
        g_string_append_printf(s, "ramdisk = \"%s\"\n", d->initrd);
    if (d->cmdline)
        g_string_append_printf(s, "cmdline = \"%s\"\n", d->cmdline);
    g_string_append_printf(s, "memory = %u\nmaxmem = %u\nvcpus = %u\n", d->memory_mib,
                           d->memory_mib, d->vcpus);
    g_string_append(s, "on_poweroff = \"destroy\"\non_reboot = \"destroy\"\non_crash = \"destroy\"\n");
    g_string_append(s, "disk = [\n");
    for (i = 0; i < d->n_disks; i++) {
        g_autofree char *spec = vdc_xl_disk_spec(&d->disks[i]);
        if (!spec || !cfg_quotable("disk spec", spec))
            goto error;
        g_string_append_printf(s, "    '%s',   # %s%s\n", spec, d->disks[i].target,
                               cache_none(&d->disks[i]) && d->disks[i].spec.backend != VDC_BACKEND_QDISK
                               ? ": --image-cache none is direct I/O on its loop device, set by "
                                 "vmdiskcmp while the domU is paused (xl create alone does not)" : "");
    }
    g_string_append(s, "]\n");
    return g_string_free(s, FALSE);

error:
    g_string_free(s, TRUE);
    return NULL;
}

static void
xml_elem(GString *s, int indent, const char *name, const char *text)
{
    g_autofree char *esc = g_markup_escape_text(text, -1);
    g_string_append_printf(s, "%*s<%s>%s</%s>\n", indent, "", name, esc, name);
}

/* The I/O threads disk @i of @d is given, numbered from @first_id (0:
 * none), as libvirt's <iothreads> ids count them: each target disk with
 * --iothreads N gets N ids of its own, in disk order. */
static int
disk_iothread_first(const vdc_hv_domain *d, size_t i)
{
    int id = 1;
    size_t k;

    if (vdc_target_iothreads(&d->disks[i].spec) <= 0 || d->disks[i].aux)
        return 0;
    for (k = 0; k < i; k++)
        if (!d->disks[k].aux && vdc_target_iothreads(&d->disks[k].spec) > 0)
            id += vdc_target_iothreads(&d->disks[k].spec);
    return id;
}

int
vdc_hv_domain_iothreads(const vdc_hv_domain *d)
{
    int n = 0;
    size_t i;

    for (i = 0; i < d->n_disks; i++)
        if (!d->disks[i].aux && vdc_target_iothreads(&d->disks[i].spec) > 0)
            n += vdc_target_iothreads(&d->disks[i].spec);
    return n;
}

/* The end of a QEMU/KVM disk's <driver>: discard='unmap' when asked, then
 * "/>", or its <metadata_cache> (libvirt 7.0: QEMU's qcow2 cache-size)
 * and "</driver>" */
static void
driver_end(GString *s, const vdc_hv_disk *k)
{
    if (k->discard)
        g_string_append(s, " discard='unmap'");
    if (!k->qcow2_cache_size) {
        g_string_append(s, "/>\n");
        return;
    }
    g_string_append_printf(s, ">\n        <metadata_cache>\n          <max_size unit='bytes'>%"
                              G_GUINT64_FORMAT "</max_size>\n        </metadata_cache>\n"
                              "      </driver>\n", (guint64)k->qcow2_cache_size);
}

/* <driver> of a QEMU/KVM target disk given --disk-cache, --disk-io or
 * --iothreads (model/target.h vdc_target_qemu_cache/io): cache= and io=
 * as asked or their defaults, iothread= and queues= for one thread, the
 * virtqueue-to-thread mapping for more (libvirt 10.0) */
static void
xml_qemu_driver(GString *s, const vdc_hv_disk *k, int first_iothread)
{
    vdc_disk_io io = vdc_target_qemu_io(&k->spec);
    int threads = vdc_target_iothreads(&k->spec), q;

    g_string_append_printf(s, "      <driver name='qemu' type='%s' cache='%s'", format_name(k),
                           vdc_target_name(VDC_DIM_DISK_CACHE, vdc_target_qemu_cache(&k->spec)));
    if (io != VDC_DISK_IO_DEFAULT)
        g_string_append_printf(s, " io='%s'", vdc_target_name(VDC_DIM_DISK_IO, io));
    if (threads == 1 && k->spec.disk_bus != VDC_DISK_BUS_VIRTIO_SCSI)
        g_string_append_printf(s, " iothread='%d'", first_iothread);
    if (threads >= 1 && k->spec.disk_bus != VDC_DISK_BUS_VIRTIO_SCSI)
        g_string_append_printf(s, " queues='%d'", threads);
    if (threads < 2 || k->spec.disk_bus == VDC_DISK_BUS_VIRTIO_SCSI) {
        driver_end(s, k);
        return;
    }
    if (k->discard)
        g_string_append(s, " discard='unmap'");
    g_string_append(s, ">\n        <iothreads>\n");
    for (q = 0; q < threads; q++)
        g_string_append_printf(s, "          <iothread id='%d'>\n            <queue id='%d'/>\n"
                                  "          </iothread>\n", first_iothread + q, q);
    g_string_append(s, "        </iothreads>\n");
    if (k->qcow2_cache_size)
        g_string_append_printf(s, "        <metadata_cache>\n          <max_size unit='bytes'>%"
                                  G_GUINT64_FORMAT "</max_size>\n        </metadata_cache>\n",
                               (guint64)k->qcow2_cache_size);
    g_string_append(s, "      </driver>\n");
}

/* 1 when a target disk of QEMU/KVM is given a setting of the matrix's
 * (the legacy <driver> otherwise, byte for byte) */
int
vdc_hv_disk_qemu_knobs(const vdc_target_spec *s)
{
    return s->disk_cache || s->disk_io || s->iothreads || s->disk_bus;
}

static int
qemu_knobs(const vdc_hv_disk *k)
{
    return !k->aux && vdc_hv_disk_qemu_knobs(&k->spec);
}

static int
xml_disk(GString *s, const vdc_hv_disk *k, int xen, const vdc_hv_domain *d, size_t i)
{
    g_autofree char *path = g_markup_escape_text(k->path ? k->path : "", -1);
    const char *bus = xen ? "xen" : "virtio";
    int scsi = !xen && !k->aux && k->spec.disk_bus == VDC_DISK_BUS_VIRTIO_SCSI;

    g_string_append_printf(s, "    <disk type='%s' device='disk'>\n", is_block(k) ? "block" : "file");
    if (xen) {
        if (is_block(k) || k->spec.backend == VDC_BACKEND_PHY)
            g_string_append(s, "      <driver name='phy'/>\n");
        else if (k->spec.backend == VDC_BACKEND_QDISK)
            g_string_append_printf(s, "      <driver name='qemu' type='%s'%s/>\n", format_name(k),
                                   cache_none(k) ? " cache='none'" : "");
        else if (k->spec.backend == VDC_BACKEND_TAP) {
            vdc_error("disk %s: --image-backend tap: libvirt's libxl driver has no tap backend "
                      "(it fails with \"no suitable backend\"); use --hypervisor libxl", k->target);
            return -1;
        }
    } else if (qemu_knobs(k)) {
        xml_qemu_driver(s, k, disk_iothread_first(d, i));
    } else if (!k->aux && !is_block(k)) {
        /* an image target: QEMU's default (host) or past the host's cache */
        if (cache_none(k))
            g_string_append_printf(s, "      <driver name='qemu' type='%s' cache='none' io='native'",
                                   format_name(k));
        else
            g_string_append_printf(s, "      <driver name='qemu' type='%s'", format_name(k));
        driver_end(s, k);
    } else {
        g_string_append_printf(s, "      <driver name='qemu' type='%s' cache='%s' io='%s'",
                               format_name(k), d->cache ? d->cache : "none", d->io ? d->io : "native");
        driver_end(s, k);
    }
    g_string_append_printf(s, "      <source %s='%s'/>\n", is_block(k) ? "dev" : "file", path);
    if (scsi) {
        /* a controller of its own (vdc_domain_xml), index = the disk's
         * number; the guest finds it by its serial, the vdev's */
        g_string_append_printf(s, "      <target dev='sd%c' bus='scsi'/>\n", 'a' + (int)i);
        g_string_append_printf(s, "      <serial>%s%s</serial>\n", VDC_HV_DISK_SERIAL_PREFIX, k->vdev);
        g_string_append_printf(s, "      <address type='drive' controller='%zu' bus='0' target='0' unit='0'/>\n",
                               i);
    } else {
        g_string_append_printf(s, "      <target dev='%s' bus='%s'/>\n", k->vdev, bus);
        /* the guest names its virtio-blk disks in the order it finds them */
        if (!xen && !k->aux)
            g_string_append_printf(s, "      <serial>%s%s</serial>\n", VDC_HV_DISK_SERIAL_PREFIX, k->vdev);
    }
    if (k->readonly)
        g_string_append(s, "      <readonly/>\n");
    g_string_append(s, "    </disk>\n");
    return 0;
}

/* the virtio-scsi controller of each disk on that bus, its I/O thread and
 * queues (one thread: a controller serves its disk from it) */
static void
xml_scsi_controllers(GString *s, const vdc_hv_domain *d)
{
    size_t i;

    for (i = 0; i < d->n_disks; i++) {
        const vdc_hv_disk *k = &d->disks[i];
        int threads = vdc_target_iothreads(&k->spec);

        if (k->aux || k->spec.disk_bus != VDC_DISK_BUS_VIRTIO_SCSI)
            continue;
        g_string_append_printf(s, "    <controller type='scsi' index='%zu' model='virtio-scsi'", i);
        if (threads >= 1)
            g_string_append_printf(s, ">\n      <driver iothread='%d' queues='%d'/>\n    </controller>\n",
                                   disk_iothread_first(d, i), threads);
        else
            g_string_append(s, "/>\n");
    }
}

char *
vdc_domain_xml(const vdc_hv_domain *d)
{
    GString *s = g_string_new(NULL);
    int xen = !strcmp(d->type, "xen");
    size_t i;

    if (strcmp(d->type, "xen") && strcmp(d->type, "qemu") && strcmp(d->type, "kvm") &&
        strcmp(d->type, "test")) {
        vdc_error("domain %s: type '%s': expected xen, qemu, kvm or test", d->name, d->type);
        goto error;
    }
    g_string_append_printf(s, "<domain type='%s'>\n", d->type);
    xml_elem(s, 2, "name", d->name);
    if (d->uuid)
        xml_elem(s, 2, "uuid", d->uuid);
    if (d->run_id) {
        g_autofree char *id = g_markup_escape_text(d->run_id, -1);

        g_string_append_printf(s, "  <metadata>\n    <%s:run xmlns:%s='%s' id='%s'/>\n  </metadata>\n",
                               VDC_HV_METADATA_PREFIX, VDC_HV_METADATA_PREFIX, VDC_HV_METADATA_NS, id);
    }
    g_string_append_printf(s, "  <memory unit='MiB'>%u</memory>\n", d->memory_mib);
    g_string_append_printf(s, "  <vcpu>%u</vcpu>\n", d->vcpus);
    if (!xen && vdc_hv_domain_iothreads(d) > 0)
        g_string_append_printf(s, "  <iothreads>%d</iothreads>\n", vdc_hv_domain_iothreads(d));
    g_string_append(s, "  <os>\n");
    if (xen)
        g_string_append(s, "    <type arch='x86_64' machine='xenpv'>linux</type>\n");
    else
        g_string_append(s, "    <type arch='x86_64'>hvm</type>\n");
    if (d->kernel)
        xml_elem(s, 4, "kernel", d->kernel);
    if (d->initrd)
        xml_elem(s, 4, "initrd", d->initrd);
    if (d->cmdline)
        xml_elem(s, 4, "cmdline", d->cmdline);
    g_string_append(s, "  </os>\n");
    if (!xen)
        g_string_append(s, "  <features>\n    <acpi/>\n  </features>\n");
    g_string_append(s, "  <on_poweroff>destroy</on_poweroff>\n"
                       "  <on_reboot>destroy</on_reboot>\n"
                       "  <on_crash>destroy</on_crash>\n");
    g_string_append(s, "  <devices>\n");
    for (i = 0; i < d->n_disks; i++)
        if (xml_disk(s, &d->disks[i], xen, d, i) < 0)
            goto error;
    if (!xen)
        xml_scsi_controllers(s, d);
    if (xen) {
        g_string_append(s, "    <console type='pty'>\n      <target type='xen' port='0'/>\n    </console>\n");
    } else {
        if (d->console_log) {
            g_autofree char *log = g_markup_escape_text(d->console_log, -1);
            g_string_append_printf(s, "    <serial type='file'>\n      <source path='%s'/>\n"
                                      "      <target port='0'/>\n    </serial>\n", log);
        }
        g_string_append(s, "    <memballoon model='none'/>\n");
    }
    g_string_append(s, "  </devices>\n</domain>\n");
    return g_string_free(s, FALSE);

error:
    g_string_free(s, TRUE);
    return NULL;
}

char *
vdc_domain_xml_disk(const vdc_hv_domain *d, size_t i)
{
    GString *s = g_string_new(NULL);

    if (i >= d->n_disks || xml_disk(s, &d->disks[i], !strcmp(d->type, "xen"), d, i) < 0) {
        g_string_free(s, TRUE);
        return NULL;
    }
    return g_string_free(s, FALSE);
}
