/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A libvirt disk's backend facts as result.json's targets[].backend object
 * (doc/result-format.md), from the live domain XML (host/livexml.h) and,
 * for a QEMU/KVM domain, what QEMU itself says of the disk
 * (host/qemudisk.h).  Pure: the driver reads, this writes. */
#ifndef VDC_HV_BACKEND_JSON_H
#define VDC_HV_BACKEND_JSON_H

#include <stdint.h>

#include <json-glib/json-glib.h>

#include "host/livexml.h"
#include "host/qemudisk.h"
#include "host/xsbackend.h"

/* What QEMU said of one disk. */
typedef struct {
    const vdc_qmp_block *block; /* its query-block device, or NULL (not read, not found) */
    const char *aio;            /* its protocol node's aio (command line), or NULL */
    int qom_read;               /* 1: the qom-gets of its device were answered */
    const char *iothread;       /* qom-get iothread ("iothread1"; "" none) */
    int64_t queues;             /* qom-get num-queues / num_queues; -1 unknown */
    int iothreads_read;         /* 1: query-iothreads was answered */
    const char *const *running; /* ... its ids (NULL-terminated) */
} vdc_qemu_disk_view;

/* The backend object of disk @d: source "libvirt-live-xml", type (the
 * disk's type), driver_name, format, cache, io, physical_device, vdev,
 * mode, bus (virtio-blk, virtio-scsi: a SCSI disk on a virtio-scsi
 * controller, xen, or libvirt's word), iothread and queues (the live
 * XML's, a SCSI disk's controller's; queues QEMU's when the XML has none),
 * and with @q the "qemu" object: cache_direct, cache_no_flush,
 * cache_writeback, aio, iothread (when QEMU runs it: query-iothreads
 * lists it), queues and source (what was read, comma-separated).  New
 * object. */
JsonObject *vdc_lv_backend_json(const vdc_lv_disk *d, const vdc_qemu_disk_view *q);

/* The backend object of Xen VBD @v as xenstore holds it: type (blkback's
 * "phy"/"file", "qdisk" for QEMU's), backend_kind, source "xenstore",
 * xenstore_path, physical_device (physical-device-path, else params when
 * a /dev path of blkback), physical_device_major_minor, params,
 * direct_io_safe, mode, vdev, bus "xen", and the ring: max_ring_page_order
 * and max_queues (what the backend offers), ring_page_order and queues
 * (what the frontend chose, once Connected), frontend_state (the
 * frontend's XenbusState as read; absent when its directory was not
 * read).  New object. */
JsonObject *vdc_xs_backend_json(const vdc_xs_vbd *v);

/* The QOM path of @d's device, whose "iothread" and queues QEMU answers
 * for (qom-get): "/machine/peripheral/ALIAS" for a virtio disk, the
 * controller's for a SCSI disk; *@queues_prop its queues property
 * ("num-queues", "num_queues").  NULL when @d has no alias (g_free). */
char *vdc_lv_disk_qom_path(const vdc_lv_disk *d, const char **queues_prop);

#endif
