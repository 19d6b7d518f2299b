/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Pure translators: one domU boot of the plan -> what a hypervisor is
 * given.  Nothing here opens a hypervisor, a device or a file; every
 * function is golden-file tested (tests/golden/hv/, VDC_REGENERATE=1
 * rewrites the expected files).  The models: libvirt's
 * tests/libxlxml2domconfigtest.c and Xen's tools/xl/check-xl-disk-parse. */
#ifndef VDC_HV_TRANSLATE_H
#define VDC_HV_TRANSLATE_H

#include <stddef.h>

#include "guest-agent/diskid.h"
#include "plan/plan.h"

#define VDC_HV_MAX_DISKS 26

/* One disk of a domU.  @spec says what it is: backing image (a file:
 * format, image backend) or lvm/block (a block device, always served by
 * blkback/phy); the root and control disks are described as images. */
typedef struct {
    const char *target;         /* target name ("root", "control", "image", ...) */
    const char *path;           /* file or block device in dom0 */
    const char *vdev;           /* xvdb / vdb */
    vdc_target_spec spec;       /* the target description (model/target.h) */
    int readonly;
    int aux;                    /* the root or the control disk, not a target: it gets
                                 * the domain's cache/io (libvirt qemu/kvm), and
                                 * --image-cache does not apply to it */
    uint64_t qcow2_cache_size;  /* libvirt qemu/kvm, a qcow2 image: its metadata cache
                                 * (--qcow2-l2-cache-size: <metadata_cache><max_size>,
                                 * QEMU's cache-size, L2 tables first), bytes; 0 QEMU's */
    int discard;                /* libvirt qemu/kvm: discard='unmap' (a thin LV: the
                                 * guest's discards give its pool the chunks back) */
} vdc_hv_disk;

/* The namespace of the run id vmdiskcmp writes into a libvirt domain's
 * <metadata> (libvirt's custom metadata: one element per namespace). */
#define VDC_HV_METADATA_NS "https://vmdiskcmp.org/xmlns/run/1"
#define VDC_HV_METADATA_PREFIX "vmdiskcmp"
/* The xenstore key (below the domain's path) libxl domains carry it in. */
#define VDC_HV_XS_RUN_KEY "vmdiskcmp-run"

/* One domU as every driver sees it. */
typedef struct {
    const char *name;
    const char *uuid;           /* the UUID to create it with (the run's identity
                                   for it, journal.h), or NULL: the hypervisor's */
    const char *run_id;         /* the run it belongs to, written into the domain
                                 * (libvirt: <metadata><vmdiskcmp:run id=.../>;
                                 * libxl: xenstore DOMPATH/vmdiskcmp-run) so that
                                 * cleanup can tell its own from another run's;
                                 * NULL: none */
    const char *type;           /* "pv" (libxl), "xen", "qemu", "kvm", "test" (libvirt), "mock" */
    unsigned memory_mib, vcpus;
    const char *kernel, *initrd, *cmdline;
    const char *console_log;    /* file for the guest console (libvirt qemu/kvm), or NULL */
    const char *cache, *io;     /* libvirt qemu/kvm: cache and io modes of the root and
                                 * control disks and of block targets (image targets:
                                 * from their --image-cache) */
    int start_paused;           /* create leaves the domU paused (for hv resume): set
                                 * when an image's loop device gets direct I/O first
                                 * (vdc_hv_domain_needs_pause) */
    vdc_hv_disk disks[VDC_HV_MAX_DISKS];
    size_t n_disks;
} vdc_hv_domain;

/* Fill @d for one boot of @p: the root disk @root (prepared image), every
 * domU target in vdev order, and the control disk @ctl last.  Strings point
 * into @p and the arguments (no copies): keep them alive while @d is used. */
void vdc_hv_domain_from_plan(const vdc_plan *p, const char *root, const char *ctl,
                             const char *console_log, vdc_hv_domain *d);

/* 1 when some target disk of @d has --image-cache none and is served by
 * blkback over a loop device (Xen: image backend auto, phy or tap): its
 * direct I/O is set on the loop device between a paused create and the
 * resume (doc/host-cost.md).  qdisk and libvirt qemu/kvm take it in their
 * configuration instead. */
int vdc_hv_domain_needs_pause(const vdc_hv_domain *d);

/* The xl disk spec of @disk (xl-disk-configuration(5)):
 *   file, backend tap:    "tap:aio:PATH,VDEV,w"           (as seed 003 wrote it)
 *   file, backend auto:   "format=raw,vdev=VDEV,access=w,target=PATH"
 *                         (--image-cache none: "...,direct-io-safe,target=PATH", for the
 *                         qdisk libxl may pick; blkback ignores it)
 *   file, backend phy:    "format=raw,vdev=VDEV,access=w,backendtype=phy,target=PATH"
 *   file, backend qdisk:  "format=FMT,vdev=VDEV,access=w,backendtype=qdisk,target=PATH"
 *                         (--image-cache none: "...,backendtype=qdisk,direct-io-safe,target=PATH":
 *                         libxl_device_disk.direct_io_safe, QEMU opens it cache.direct=on)
 *   block device:         "phy:PATH,VDEV,w"
 * access is "r" for read-only disks.  Returns a new string, or NULL after
 * vdc_error when the path cannot be written in a positional spec (a comma or
 * colon in a tap:/phy: path) or qcow2 is asked of blkback. */
char *vdc_xl_disk_spec(const vdc_hv_disk *disk);

/* An xl.cfg(5) a human can reuse with `xl create`: name, type = "pv",
 * kernel/ramdisk/cmdline, memory, vcpus, disk = [ specs ], on_* = destroy.
 * Returns a new string or NULL (vdc_error). */
char *vdc_xl_cfg(const vdc_hv_domain *d);

/* The serial of a QEMU/KVM target disk (virtio-blk and virtio-scsi) is
 * this prefix and its vdev ("vmdiskcmp-vdb"): the guest's runner finds the
 * disk by it (guest-agent/diskid.h: SCSI names sdX and virtio-blk names
 * vdX follow the guest's probe order, not the domain XML). */
#define VDC_HV_DISK_SERIAL_PREFIX VDC_DISK_SERIAL_PREFIX

/* 1 when a QEMU/KVM domU disk of @s is given a knob of the matrix
 * (--disk-cache, --disk-io, --iothreads, --disk-bus): the translator
 * writes its <driver> from them (model/target.h vdc_target_qemu_cache,
 * vdc_target_qemu_io, vdc_target_iothreads), else the legacy one. */
int vdc_hv_disk_qemu_knobs(const vdc_target_spec *s);

/* The I/O threads of @d's QEMU (libvirt <iothreads>): the sum of its
 * target disks' --iothreads. */
int vdc_hv_domain_iothreads(const vdc_hv_domain *d);

/* libvirt domain XML (https://libvirt.org/formatdomain.html):
 *   type xen:      <os><type arch='x86_64' machine='xenpv'>linux</type>,
 *                  disks bus='xen'; file disks get no <driver> (auto),
 *                  <driver name='phy'/> (phy) or <driver name='qemu'
 *                  type='raw|qcow2'/> (qdisk); block disks <driver name='phy'/>.
 *                  tap is refused (libvirt's libxl driver has no tap backend).
 *                  qdisk with --image-cache none: cache='none' in its <driver>.
 *   type qemu/kvm: hvm with direct kernel boot, ACPI (for power-off),
 *                  virtio disks: an image target <driver name='qemu'
 *                  type='FMT'/> (--image-cache host: QEMU's default,
 *                  writeback through the host's page cache) or with
 *                  cache='none' io='native' (none); root, control and block
 *                  disks with the domain's cache/io; serial console to a file,
 *                  no graphics element, no network.  A target disk given
 *                  --disk-cache, --disk-io, --iothreads or --disk-bus:
 *                  <driver cache='C' [io='IO']> (vdc_target_qemu_cache/io),
 *                  one I/O thread as iothread='K' queues='1', N as queues='N'
 *                  and <iothreads><iothread id='K'><queue id='q'/>... (libvirt
 *                  10.0), <iothreads> in the domain; virtio-scsi: the disk
 *                  on a <controller model='virtio-scsi'> of its own (index =
 *                  the disk's number, the thread and queues in its <driver>),
 *                  <target dev='sdX' bus='scsi'/>, <serial> the prefix above
 *                  and the vdev.
 * Returns a new string or NULL (vdc_error). */
char *vdc_domain_xml(const vdc_hv_domain *d);

/* The <disk> element of disk @i alone (for result.json
 * targets[].requested.domain_xml_disk), or NULL. */
char *vdc_domain_xml_disk(const vdc_hv_domain *d, size_t i);

#ifdef WITH_LIBXL
#include <libxl.h>
/* Fill an initialised @cfg: PV guest (c_info.type PV, b_info kernel,
 * ramdisk, cmdline, max_memkb/target_memkb, max_vcpus), disks parsed from
 * vdc_xl_disk_spec strings by libxlutil's xlu_disk_parse, on_poweroff,
 * on_reboot, on_crash = destroy.  Returns 0 or -1 (vdc_error). */
int vdc_libxl_config_build(const vdc_hv_domain *d, libxl_domain_config *cfg);
#endif

/* The libxl_domain_config above as libxl_domain_config_to_json prints it
 * (libxl's own JSON of libxl_types.idl), or NULL (vdc_error; also when built
 * without libxl). */
char *vdc_libxl_config_json(const vdc_hv_domain *d);

/* Parse one xl disk spec with xlu_disk_parse and print the parsed
 * libxl_device_disk as JSON (as `xl -N block-attach` does; the format of
 * tools/xl/check-xl-disk-parse), or NULL on a parse error (message from
 * libxlutil on stderr is suppressed; vdc_error is not called: the caller
 * expects errors).  Test and debugging aid. */
char *vdc_xl_disk_parse_json(const char *spec);

#endif
