/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Loop devices: attaching one over an image (the dom0 baseline), finding
 * and detaching those bound to a file by its identity, and as dom0's
 * cache truth: which loop device serves an image
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

/* The identity of a file as a loop device knows its backing file: the
 * device and inode numbers LOOP_GET_STATUS64 gives (lo_device, lo_inode),
 * which are stat(2)'s st_dev and st_ino of the file the device holds,
 * also once that file is unlinked. */
typedef struct {
    uint64_t dev, ino;
} vdc_file_id;

/* @path's identity (stat(2): a symlink is followed, as the kernel follows
 * it when a loop device is set up).  0, or -1 with errno set (no message). */
int vdc_file_id_of(const char *path, vdc_file_id *id);

/* Pure: the identity in the undo journal's "DEV:INO" text (two decimal
 * numbers: st_dev, st_ino; run/journal.h).  0, or -1 (no message). */
int vdc_file_id_parse(const char *text, vdc_file_id *id);

/* Reader: the one way a loop device is found: every bound loop device
 * whose backing file is the file @id (by LOOP_GET_STATUS64's lo_device and
 * lo_inode, so an unlinked file is still found, and another file that has
 * taken its name never is), into the new NULL-terminated *devs
 * ("/dev/loopN"; g_strfreev; empty when none).  A device whose node cannot
 * be opened (no permission) is matched by its sysfs backing_file against
 * @path instead (NULL: not matched): the name, not " (deleted)".  0, or -1
 * after vdc_error. */
int vdc_loop_find(const vdc_file_id *id, const char *path, char ***devs);

/* Reader: vdc_loop_find for the file @file is now (its real path and its
 * identity).  0, or -1 after vdc_error (@file cannot be stat'ed). */
int vdc_loop_find_by_backing(const char *file, char ***devs);

/* Attach @file (read-write) to a free loop device with direct I/O on the
 * backing file (LO_FLAGS_DIRECT_IO; without it where the filesystem has
 * no O_DIRECT), through /dev/loop-control and LOOP_CONFIGURE; a device
 * taken by someone else between LOOP_CTL_GET_FREE and LOOP_CONFIGURE is
 * skipped (10 tries).  "/dev/loopN" (g_free), or NULL after vdc_error. */
char *vdc_loop_attach(const char *file);

/* Detach every loop device bound to the file @id (NULL: the file @path is
 * now): LOOP_CLR_FD, then up to 2 s for the device to let go (a device in
 * use, mounted or held open, only detaches when its last user goes: an
 * error, the image's space is not freed).  @path names the file in
 * messages.  0 when none is bound any more (also: none was, or @id is NULL
 * and @path is gone: nothing to know it by), -1 after vdc_error. */
int vdc_loop_detach(const vdc_file_id *id, const char *path);

/* Turn direct I/O on (@on 1) or off on bound loop device @dev
 * (LOOP_SET_DIRECT_IO; the kernel flushes the device first), then read
 * /sys/block/loopN/loop/dio back.  0 when the read-back state is @on; -1
 * after vdc_error naming the device: the ioctl failed (e.g. EINVAL: the
 * backing file's filesystem has no O_DIRECT, or the loop device's block
 * size is below the backing device's logical block size), or the kernel
 * accepted it and still reports the other state. */
int vdc_loop_set_direct_io(const char *dev, int on);

#endif
