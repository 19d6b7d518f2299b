/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the QEMU that serves a Xen qdisk disk can do, asked of the binary
 * itself before anything is created.
 *
 * On Xen, libxl starts QEMU as a PV domain's device model to serve its qdisk
 * disks (libxl__spawn_local_dm; the binary is libxl's QEMU_XEN_PATH).  A
 * disk whose backend says direct-io-safe = 1 (what --image-cache none asks
 * of qdisk) is opened by QEMU's xen-block with cache.direct=on and
 * aio=native (hw/block/xen-block.c, xen_block_drive_create).  A QEMU built
 * without Linux native AIO refuses that ("aio=native was specified, but is
 * not supported in this build", block/file-posix.c): the drive is never
 * created and the domU never sees the disk.  Debian 12's qemu-system-xen
 * (7.2+dfsg, /usr/libexec/xen-qemu-system-i386) is such a build: it links
 * neither libaio nor liburing.
 *
 * The probe runs the binary with one -blockdev of the file driver on
 * /dev/null with aio=native and no cache.direct, an accelerator that does
 * not exist and no machine: QEMU checks aio=native while it parses the
 * -blockdev and exits, either with "not supported in this build" (no Linux
 * AIO) or with "requires cache.direct=on" (Linux AIO built in: the check
 * after it fails instead).  Nothing is opened for writing and no file is
 * made. */
#ifndef VDC_HOST_QEMUPROBE_H
#define VDC_HOST_QEMUPROBE_H

/* What the probe's output says (vdc_qemu_aio_native_verdict). */
typedef enum {
    VDC_QEMU_AIO_UNKNOWN = -1,  /* neither answer: the probe tells nothing */
    VDC_QEMU_AIO_MISSING = 0,   /* built without Linux native AIO */
    VDC_QEMU_AIO_NATIVE = 1,    /* built with it */
} vdc_qemu_aio;

/* The QEMU libxl starts for qdisk disks: the first of libxl's
 * QEMU_XEN_PATH as Debian and Ubuntu build it
 * (/usr/libexec/xen-qemu-system-i386), upstream's default
 * (/usr/lib/xen/bin/qemu-system-i386) and the libexec layout
 * (/usr/libexec/xen/bin/qemu-system-i386) that is an executable file, or
 * NULL when none is (no message: the caller decides what unknown means).
 * Static storage. */
const char *vdc_xen_qemu_path(void);

/* Pure: the verdict from the probe's standard error @text (NULL: unknown).
 * Matches QEMU's own messages (block/file-posix.c, QEMU 2.x to 9.x). */
vdc_qemu_aio vdc_qemu_aio_native_verdict(const char *text);

/* Run the probe (above) on the QEMU binary @qemu, at most 20 s (then
 * SIGTERM, SIGKILL 3 s later: vdc_child_run).  Returns
 * the verdict; when @said is not NULL it gets QEMU's words that decided it,
 * from "aio=native was" to the end of that line (g_free; NULL when
 * unknown).  Unknown also when @qemu cannot be run (no
 * message). */
vdc_qemu_aio vdc_qemu_aio_native(const char *qemu, char **said);

#endif
