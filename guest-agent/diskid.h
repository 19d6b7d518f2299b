/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Finding a target disk in the guest by its serial (libc only: the static
 * runner and the host's unit tests).  A QEMU/KVM domain's target disks
 * carry the serial VDC_DISK_SERIAL_PREFIX + the plan's vdev
 * ("vmdiskcmp-vdb", src/hv/translate.c): the guest's own names do not
 * follow the host's (a virtio-scsi disk is sdX, and the virtio-blk disks
 * are named in the order the guest finds them, so with a SCSI target the
 * control disk is vdb), the serial does.  A Xen PV disk has no serial; its
 * name is the vdev (xvdb).
 *
 * Where the guest's kernel says a disk's serial (Documentation/ABI):
 *   virtio-blk  /sys/block/NAME/serial (the VIRTIO_BLK_ID string, at most
 *               20 bytes)
 *   SCSI        /sys/block/NAME/device/vpd_pg80: the unit serial number
 *               VPD page (SPC-4 7.8.16) as the disk returned it: byte 1 the
 *               page code 0x80, bytes 2-3 the length of the serial
 *               (big-endian), then the serial (ASCII, may be space-padded) */
#ifndef VDC_GUEST_AGENT_DISKID_H
#define VDC_GUEST_AGENT_DISKID_H

#include <stddef.h>

#define VDC_DISK_SERIAL_PREFIX "vmdiskcmp-"

/* Pure: the serial in the unit serial number VPD page @buf (@len bytes, as
 * vpd_pg80 holds it; see above), leading and trailing spaces dropped, into
 * @out (@outlen bytes).  0, or -1 when @buf is no such page or the serial
 * does not fit. */
int vdc_vpd_pg80_serial(const unsigned char *buf, size_t len, char *out, size_t outlen);

/* Reader: the serial of disk @name under @sysblock ("/sys/block"): its
 * serial file, else its SCSI unit serial number page, trailing newline and
 * spaces dropped, into @out.  0, or -1 when it reports none. */
int vdc_disk_serial(const char *sysblock, const char *name, char *out, size_t outlen);

/* Reader: the disk under @sysblock whose serial is @serial, its name
 * ("sda", "vdc") into @out.  1 found, 0 none (yet). */
int vdc_disk_by_serial(const char *sysblock, const char *serial, char *out, size_t outlen);

/* /dev/NAME for the /sys/block entry @name into @path, the node made from
 * its dev file when devtmpfs did not make it.  0, or -1. */
int vdc_disk_node(const char *name, char *path, size_t len);

/* The disk the host names @vdev, as /dev/NAME in @path: the one whose
 * serial is VDC_DISK_SERIAL_PREFIX + @vdev (a QEMU/KVM domain's), a Xen PV
 * disk (xvdX: no serial) by its name, or /dev/@vdev by its name when that
 * disk carries no serial (a domain made without serials) and is not the
 * control disk @control (may be NULL).  1 found, 0 not (yet). */
int vdc_disk_find(const char *vdev, const char *control, char *path, size_t len);

#endif
