/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What this libvirt and this QEMU can do for a domU disk, asked before
 * anything is created: libvirt's domain capabilities
 * (virConnectGetDomainCapabilities: the emulator, <iothreads
 * supported=>, <devices><disk><enum name='bus'>) and the emulator binary
 * itself, run with a probe that opens nothing for writing:
 *
 *   aio=io_uring   -blockdev driver=file,filename=BINARY,read-only=on,
 *                  aio=io_uring and an accelerator that does not exist:
 *                  QEMU opens the file with io_uring (file-posix sets the
 *                  ring up at open, so the host kernel is asked too) and then
 *                  stops at "invalid accelerator"; a build without io_uring
 *                  refuses the value ("Parameter 'aio' does not accept value
 *                  'io_uring'"), a kernel without it fails the open ("Unable
 *                  to use io_uring").
 *   aio=native     qemuprobe.h's probe (Linux AIO built in or not).
 *   devices        -device help (virtio-scsi-pci) and -device
 *                  virtio-blk-pci,help (iothread-vq-mapping: QEMU 9.0's
 *                  virtqueues on several I/O threads).
 *
 * Pure parsers over the text, plus the probe runner (src/common/child.h,
 * 20 s each). */
#ifndef VDC_HOST_QEMUCAPS_H
#define VDC_HOST_QEMUCAPS_H

#include <glib.h>

#include "host/qemuprobe.h"

/* libvirt's domain capabilities, the members asked for.  Unknown: NULL,
 * -1. */
typedef struct {
    char *emulator;             /* <path>: "/usr/bin/qemu-system-x86_64" */
    char *domain;               /* <domain>: "qemu", "kvm" */
    int iothreads;              /* <iothreads supported='yes|no'>: 1, 0, -1 */
    char **disk_buses;          /* <devices><disk><enum name='bus'> values, NULL-terminated */
} vdc_domcaps;

void vdc_domcaps_init(vdc_domcaps *c);
void vdc_domcaps_dispose(vdc_domcaps *c);    /* safe twice */

/* Pure: @xml (virConnectGetDomainCapabilities) into an initialised @out.
 * 0, or -1 after vdc_error naming @source (not well-formed XML). */
int vdc_domcaps_parse(const char *xml, const char *source, vdc_domcaps *out);

/* 1 when @c lists bus @bus ("scsi", "virtio"), 0 when its list lacks it,
 * -1 when there is no list. */
int vdc_domcaps_has_bus(const vdc_domcaps *c, const char *bus);

/* What a probe says: usable, missing (with QEMU's words), or unknown. */
typedef enum {
    VDC_QEMU_CAN_UNKNOWN = -1,
    VDC_QEMU_CAN_NOT = 0,
    VDC_QEMU_CAN = 1,
} vdc_qemu_can;

/* What the emulator binary can do (vdc_qemu_build_probe). */
typedef struct {
    char *binary;
    vdc_qemu_aio aio_native;    /* qemuprobe.h */
    char *aio_native_said;
    vdc_qemu_can io_uring;
    char *io_uring_said;        /* QEMU's words that decided it, or NULL */
    vdc_qemu_can vq_mapping;    /* virtio-blk-pci iothread-vq-mapping */
    vdc_qemu_can virtio_scsi;   /* -device virtio-scsi-pci */
} vdc_qemu_build;

void vdc_qemu_build_init(vdc_qemu_build *b);
void vdc_qemu_build_dispose(vdc_qemu_build *b);   /* safe twice */

/* Pure: the io_uring probe's standard error @text (NULL: unknown); *@said
 * (may be NULL) gets QEMU's line that decided a NOT (g_free). */
vdc_qemu_can vdc_qemu_io_uring_verdict(const char *text, char **said);

/* Pure: whether `-device DEV,help` text @text lists property @prop
 * ("  iothread-vq-mapping=<...>"): CAN, NOT (a property list without it),
 * UNKNOWN (no property list: the device is missing or the text is not
 * QEMU's). */
vdc_qemu_can vdc_qemu_device_has_property(const char *text, const char *prop);

/* Pure: whether `-device help` text @text lists device @name ("name
 * \"virtio-scsi-pci\""). */
vdc_qemu_can vdc_qemu_has_device(const char *text, const char *name);

/* Run the probes on @binary into an initialised @out (each unknown when
 * @binary cannot be run; no message). */
void vdc_qemu_build_probe(const char *binary, vdc_qemu_build *out);

/* Everything asked of the hypervisor's build before a run (hv.h
 * vdc_hv_build_facts). */
typedef struct {
    int known;                  /* 0: nothing asked (no QEMU knob, Xen, the mock,
                                   the test driver): nothing is refused */
    unsigned long libvirt_version;  /* major * 1000000 + minor * 1000 + micro; 0 unknown */
    char *qemu_version;         /* "7.2.22" (virConnectGetVersion), or NULL */
    vdc_domcaps caps;
    vdc_qemu_build qemu;
} vdc_hv_build;

void vdc_hv_build_init(vdc_hv_build *b);
void vdc_hv_build_dispose(vdc_hv_build *b);       /* safe twice */

#endif
