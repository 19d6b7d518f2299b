/* SPDX-License-Identifier: GPL-2.0-or-later */
/* I/O counters of the devices under a target, to put host CPU per GiB and
 * per 1,000 I/Os on the backend's own counts and to see what reached the
 * disk: the block layer's /sys/block/DEV/stat (Documentation/block/stat.rst:
 * counts since boot, sectors of 512 bytes whatever the device's block
 * size) and blkback's per-VBD counters
 * /sys/bus/xen-backend/devices/vbd-DOMID-DEVID/statistics/ (rd_req wr_req
 * f_req ds_req oo_req rd_sect wr_sect; drivers/block/xen-blkback/xenbus.c,
 * summed over the rings).  Pure parsers plus thin readers. */
#ifndef VDC_HOST_BLOCKSTAT_H
#define VDC_HOST_BLOCKSTAT_H

#include <stdint.h>

typedef struct {
    uint64_t read_ios, read_merges, read_sectors, read_ticks_ms;
    uint64_t write_ios, write_merges, write_sectors, write_ticks_ms;
    uint64_t in_flight, io_ticks_ms, time_in_queue_ms;
} vdc_disk_stat;

/* Pure: the text of /sys/block/DEV/stat (at least the 11 classic fields;
 * discard and flush fields of newer kernels are ignored).  0, or -1 after
 * vdc_error naming @source. */
int vdc_disk_stat_parse(const char *text, const char *source, vdc_disk_stat *out);
/* /sys/block/@dev/stat (@dev "vda", "loop3", "dm-0"; "/dev/" skipped); for
 * a partition /sys/class/block/@dev/stat.  0 or -1. */
int vdc_disk_stat_read(const char *dev, vdc_disk_stat *out);

/* blkback's counters of one VBD (requests and 512-byte sectors). */
typedef struct {
    uint64_t rd_req, wr_req, f_req, ds_req, oo_req, rd_sect, wr_sect;
} vdc_vbd_stat;

/* Names of the statistics files in the order of vdc_vbd_stat's members. */
extern const char *const vdc_vbd_stat_files[7];

/* Pure: the seven files' texts (each one decimal number and a newline), in
 * vdc_vbd_stat_files order.  0, or -1 after vdc_error naming
 * @dir/statistics/FILE. */
int vdc_vbd_stat_parse(const char *const texts[7], const char *dir, vdc_vbd_stat *out);
/* /sys/bus/xen-backend/devices/vbd-@domid-@devid/statistics/.  0; 1 when
 * there is no such VBD (no message); -1 after vdc_error. */
int vdc_vbd_stat_read(unsigned domid, unsigned devid, vdc_vbd_stat *out);

#endif
