/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Loop devices as dom0's cache truth: which loop device serves an image
 * (xl's hotplug script made it: `losetup $roflag $loopdev $file`, no
 * direct I/O, on a stock Debian Xen 4.17 dom0), whether it bypasses dom0's
 * page cache (direct I/O), and turning direct I/O on or off on a bound
 * device (LOOP_SET_DIRECT_IO, what `losetup --direct-io=on` does).
 *
 * Source: /sys/block/loopN/loop/{backing_file,dio,offset} (Linux
 * drivers/block/loop.c, present only while the device is bound). */
#ifndef VDC_HOST_LOOPDEV_H
#define VDC_HOST_LOOPDEV_H

#include <stdint.h>

typedef struct {
    char *name;             /* "loop3" */
    unsigned number;        /* 3 */
    char *backing_file;     /* the file's path as the kernel prints it now */
    int backing_deleted;    /* the kernel appended " (deleted)": unlinked */
    int dio;                /* 1: direct I/O on the backing file (bypasses dom0's
                             * page cache), 0: buffered (through it) */
    uint64_t offset;        /* bytes into the backing file */
} vdc_loop_info;

/* Pure: the loop facts from the three sysfs attributes' texts of device
 * @name ("loopN"; "/dev/loopN" accepted).  backing_file: a path then one
 * newline; dio: "0" or "1"; offset: a decimal byte count.  Fills @out
 * (dispose it); 0, or -1 after vdc_error naming /sys/block/NAME/loop/ATTR. */
int vdc_loop_sysfs_parse(const char *name, const char *backing_text, const char *dio_text,
                         const char *offset_text, vdc_loop_info *out);
void vdc_loop_info_dispose(vdc_loop_info *li);   /* safe twice, on a zeroed struct */

/* Reader: the facts of @dev ("/dev/loopN" or "loopN").  0; 1 when the
 * device is not bound to a file (no loop/ directory: no message); -1
 * after vdc_error. */
int vdc_loop_info_read(const char *dev, vdc_loop_info *out);

/* Reader: every bound loop device whose backing file is @file (compared by
 * real path, then confirmed by device and inode with LOOP_GET_STATUS64
 * where the node opens), into the new NULL-terminated *devs
 * ("/dev/loopN"; g_strfreev; empty when none).  0, or -1 after vdc_error. */
int vdc_loop_find_by_backing(const char *file, char ***devs);

/* Turn direct I/O on (@on 1) or off on bound loop device @dev
 * (LOOP_SET_DIRECT_IO; the kernel flushes the device first), then read
 * /sys/block/loopN/loop/dio back.  0 when the read-back state is @on; -1
 * after vdc_error naming the device: the ioctl failed (e.g. EINVAL: the
 * backing file's filesystem has no O_DIRECT, or the loop device's block
 * size is below the backing device's logical block size), or the kernel
 * accepted it and still reports the other state. */
int vdc_loop_set_direct_io(const char *dev, int on);

#endif
