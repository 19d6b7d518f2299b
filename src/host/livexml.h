/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libvirt's view of a domain's disks as cache truth: the <driver> cache=
 * and io= of each disk in the live domain XML (virDomainGetXMLDesc of a
 * running domain: what libvirt actually gave QEMU or libxl, defaults
 * filled in where the driver reports them), and the QEMU process of a
 * domain from libvirt's status file (/run/libvirt/qemu/NAME.xml,
 * <domstatus pid=...>).  Pure parsers over the XML text.
 *
 * cache='none' means QEMU opens the image with O_DIRECT (cache.direct=on):
 * it bypasses the host's page cache; absent, QEMU's default is
 * 'writeback' (through it).  Source: libvirt formatdomain "Hard drives". */
#ifndef VDC_HOST_LIVEXML_H
#define VDC_HOST_LIVEXML_H

#include <glib.h>

typedef struct {
    char *vdev;             /* <target dev=>: "vdb", "xvdb" */
    char *bus;              /* <target bus=> */
    char *disk_type;        /* <disk type=>: "file", "block", ... */
    char *device;           /* <disk device=>: "disk", "cdrom" */
    char *source;           /* <source file=> or <source dev=> */
    char *driver_name;      /* <driver name=>: "qemu", "phy", ... */
    char *driver_type;      /* <driver type=>: "raw", "qcow2" */
    char *cache;            /* <driver cache=>: "none", "writeback", ...; NULL absent */
    char *io;               /* <driver io=>: "native", "threads", "io_uring"; NULL absent */
    int readonly;           /* <readonly/> */
    char *alias;            /* <alias name=>: "virtio-disk1", "scsi0-0-0-0" (a live domain) */
    char *serial;           /* <serial> */
    int iothread;           /* <driver iothread=>, or the first <iothreads><iothread id=>;
                               for a SCSI disk its controller's; 0 none */
    int queues;             /* <driver queues=> (a SCSI disk: its controller's); 0 absent */
    int controller;         /* <address type='drive' controller=>; -1 none */
    char *controller_model; /* a SCSI disk: its controller's model ("virtio-scsi") */
    char *controller_alias; /* ... and alias ("scsi0": QEMU's device id) */
} vdc_lv_disk;

void vdc_lv_disk_free(vdc_lv_disk *d);   /* NULL-safe */

/* Pure: the disks of domain XML @xml (<domain> or a <domstatus> holding
 * one), in document order: a new array of vdc_lv_disk* (unref frees
 * them); a disk without <target dev> is skipped.  A disk on a SCSI bus
 * gets its controller's model, alias, I/O thread and queues (<controller
 * type='scsi' index=N> of its address).  *qemu_pid (may be NULL)
 * gets <domstatus pid=> or 0 when there is none.  NULL after vdc_error
 * naming @source (not well-formed XML, pid not a number). */
GPtrArray *vdc_livexml_disks_parse(const char *xml, const char *source, int *qemu_pid);

#endif
