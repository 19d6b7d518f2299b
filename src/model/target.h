/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One target description: what a benchmark target is, as the plan decides
 * it and as everything after the plan consumes it (storage create/destroy,
 * the undo journal, the hypervisor translators' vdc_hv_disk, result.json
 * targets[], the agent's and mkfs's command lines).  Typed here; spelled
 * only through the one table of names in target.c, which plan.json, the
 * journal, result.json and messages all use.
 *
 * A zeroed vdc_target_spec is a domU target on a raw sparse image, image
 * backend auto, image cache host, and the hypervisor's own disk cache, I/O
 * mode, I/O threads and bus: every enum's first value is its default. */
#ifndef VDC_MODEL_TARGET_H
#define VDC_MODEL_TARGET_H

/* Where the agent runs: in the guest, or on the host itself (the baseline). */
typedef enum vdc_where {
    VDC_WHERE_DOMU,             /* "domU": a disk of the guest */
    VDC_WHERE_DOM0,             /* "dom0": the agent run in dom0 (the host) */
} vdc_where;

/* What backs the target's disk (doc/storage.md). */
typedef enum vdc_backing {
    VDC_BACKING_IMAGE,          /* "image": a file image we create */
    VDC_BACKING_LVM,            /* "lvm": an LV we create in the VG, tagged vmdiskcmp */
    VDC_BACKING_BLOCK,          /* "block": an existing block device, given with consent */
} vdc_backing;

/* Image file format. */
typedef enum vdc_image_format {
    VDC_IMAGE_RAW,              /* "raw" */
    VDC_IMAGE_QCOW2,            /* "qcow2" (always created sparse) */
} vdc_image_format;

/* How the image's blocks are allocated when it is created (raw; qcow2's
 * preallocation= in brackets, storage/qcow2.c). */
typedef enum vdc_image_alloc {
    VDC_IMAGE_SPARSE,           /* "sparse": ftruncate, no blocks allocated (off) */
    VDC_IMAGE_FALLOC,           /* "falloc": posix_fallocate, unwritten extents (falloc) */
    VDC_IMAGE_FULL,             /* "full": every block written with zeros (full) */
    VDC_IMAGE_METADATA,         /* "metadata": qcow2 only, its L2 tables made, the
                                   data clusters allocated as zero clusters (metadata) */
} vdc_image_alloc;

/* How a domU's image disk is served:
 *   auto  - no preference; libxl/libvirt choose (Xen 4.17: blkback over loop)
 *   phy   - 'phy:PATH' / libvirt <driver name='phy'>: blkback over a loop
 *   qdisk - 'backendtype=qdisk' / libvirt <driver name='qemu'>: QEMU's qdisk
 *   tap   - 'tap:aio:PATH' as the seeds wrote it (Xen 4.17 ignores the prefix) */
typedef enum vdc_image_backend {
    VDC_BACKEND_AUTO,
    VDC_BACKEND_PHY,
    VDC_BACKEND_QDISK,
    VDC_BACKEND_TAP,
} vdc_image_backend;

/* Whether dom0's page cache may hold a domU image's blocks, as requested
 * (--image-cache):
 *   host - the host's page cache may serve the image (what the backends do
 *          by default: blkback over a loop device without direct I/O, qdisk)
 *   none - the image is to be read and written past the host's page cache
 * Planned, journaled and recorded (doc/result-format.md
 * targets[].requested.image_cache); applied by the translators
 * (src/hv/translate.c) and the run (src/run/cache.c: direct I/O on the
 * loop device), verified after boot into targets[].cache. */
typedef enum vdc_image_cache {
    VDC_IMAGE_CACHE_HOST,
    VDC_IMAGE_CACHE_NONE,
} vdc_image_cache;

/* QEMU's cache mode of a domU disk (--disk-cache; libvirt <driver cache=>,
 * https://libvirt.org/formatdomain.html "Hard drives"), on image and block
 * targets alike; QEMU's terms in (cache.direct, cache.no-flush, and the
 * device's write cache):
 *   default      - not given: what the run did before (image targets by
 *                  --image-cache, block targets cache='none' io='native')
 *   none         - O_DIRECT, flushes passed on (direct on, write cache on)
 *   writeback    - through the host's page cache, flushes passed on
 *   directsync   - O_DIRECT and every write synchronous (write cache off)
 *   writethrough - the page cache, every write synchronous */
typedef enum vdc_disk_cache {
    VDC_DISK_CACHE_DEFAULT,
    VDC_DISK_CACHE_NONE,
    VDC_DISK_CACHE_WRITEBACK,
    VDC_DISK_CACHE_DIRECTSYNC,
    VDC_DISK_CACHE_WRITETHROUGH,
} vdc_disk_cache;

/* QEMU's asynchronous I/O for a domU disk (--disk-io; <driver io=>, QEMU's
 * aio=): default (not given, as vdc_disk_cache), native (Linux AIO, needs
 * O_DIRECT: cache none or directsync), io_uring, threads (a thread pool). */
typedef enum vdc_disk_io {
    VDC_DISK_IO_DEFAULT,
    VDC_DISK_IO_NATIVE,
    VDC_DISK_IO_IO_URING,
    VDC_DISK_IO_THREADS,
} vdc_disk_io;

/* I/O threads serving one domU disk (--iothreads), stored as the count + 1
 * so that 0 is "not given" (vdc_target_iothreads gives the count):
 *   not given, 0 - QEMU's main loop serves the disk
 *   1            - one I/O thread of its own (<driver iothread=>)
 *   N >= 2       - its virtqueues mapped onto N I/O threads (QEMU 9.0
 *                  iothread-vq-mapping, libvirt 10.0 <iothreads><iothread
 *                  id=/> in <driver>); the disk gets N queues.
 * At most VDC_IOTHREADS_MAX. */
#define VDC_IOTHREADS_MAX 16

/* The bus a domU disk is on (--disk-bus): default (not given: virtio-blk
 * for QEMU/KVM, xen for Xen PV), virtio-blk (a virtio-blk-pci device per
 * disk), virtio-scsi (a virtio-scsi-pci controller per disk, the disk a
 * SCSI LUN on it). */
typedef enum vdc_disk_bus {
    VDC_DISK_BUS_DEFAULT,
    VDC_DISK_BUS_VIRTIO_BLK,
    VDC_DISK_BUS_VIRTIO_SCSI,
} vdc_disk_bus;

/* The kind of LV a domU's LV target is (--lv-type; doc/storage.md):
 *   linear  - extents one after another (lvcreate's default)
 *   striped - over --stripes PVs (lvcreate --stripes)
 *   thin    - a thin LV in a thin pool of its own, its chunks allocated
 *             as they are first written; measured in two passes
 *             (first-write, overwrite) */
typedef enum vdc_lv_type {
    VDC_LV_LINEAR,
    VDC_LV_STRIPED,
    VDC_LV_THIN,
} vdc_lv_type;

/* Aging of a domU target before its tests (doc/agent.md "Aging and
 * passes"): the filesystem filled to a percentage (--fill; stored as the
 * percent + 1 so that 0 is "not given", vdc_target_fill_percent gives
 * it), and the raw device preconditioned (--precondition). */
#define VDC_FILL_PERCENT_MAX 95
typedef enum vdc_precondition {
    VDC_PRECONDITION_OFF,
    VDC_PRECONDITION_ON,
} vdc_precondition;

typedef struct {
    vdc_where where;
    vdc_backing backing;
    vdc_image_format format;    /* backing image */
    vdc_image_alloc alloc;      /* backing image (qcow2: sparse) */
    vdc_image_backend backend;  /* backing image, where domU */
    vdc_image_cache cache;      /* backing image, where domU */
    vdc_disk_cache disk_cache;  /* where domU (QEMU/KVM) */
    vdc_disk_io disk_io;        /* where domU (QEMU/KVM) */
    int iothreads;              /* where domU (QEMU/KVM): count + 1, 0 not given */
    vdc_disk_bus disk_bus;      /* where domU (QEMU/KVM) */
    vdc_lv_type lv_type;        /* backing lvm, where domU */
    int fill;                   /* where domU: fill percent + 1, 0 not given */
    vdc_precondition precondition;  /* where domU */
} vdc_target_spec;

/* The dimensions of a target (the members of vdc_target_spec), for the
 * name table and for writing a description as KEY=NAME pairs. */
typedef enum vdc_target_dim {
    VDC_DIM_WHERE,              /* key "where" */
    VDC_DIM_BACKING,            /* key "backing" */
    VDC_DIM_IMAGE_FORMAT,       /* key "format" */
    VDC_DIM_IMAGE_ALLOC,        /* key "alloc" */
    VDC_DIM_IMAGE_BACKEND,      /* key "image_backend" */
    VDC_DIM_IMAGE_CACHE,        /* key "image_cache" */
    VDC_DIM_DISK_CACHE,         /* key "disk_cache" */
    VDC_DIM_DISK_IO,            /* key "disk_io" */
    VDC_DIM_IOTHREADS,          /* key "iothreads": names "0" to "16" (value: count + 1) */
    VDC_DIM_DISK_BUS,           /* key "disk_bus" */
    VDC_DIM_LV_TYPE,            /* key "lv_type" */
    VDC_DIM_FILL,               /* key "fill_percent": names "0" to "95" (value: percent + 1) */
    VDC_DIM_PRECONDITION,       /* key "precondition" */
    VDC_DIM_COUNT               /* the number of dimensions, not one of them */
} vdc_target_dim;

/* The name of @value of @dim ("domU", "lvm", "qcow2", "qdisk"...),
 * or NULL when @value is not one of @dim's (no message).  A dimension's
 * "not given" value (0 of disk_cache, disk_io, iothreads, disk_bus) is
 * named "default". */
const char *vdc_target_name(vdc_target_dim dim, int value);

/* The value named @name in @dim (exact, case-sensitive), or -1 when @name
 * is NULL or not one of @dim's names (no message: the caller names the
 * input). */
int vdc_target_parse(vdc_target_dim dim, const char *name);

/* @dim's names in table order joined with @sep, e.g. "raw|qcow2" (for
 * "expected ..." messages).  Newly allocated (g_free). */
char *vdc_target_choices(vdc_target_dim dim, const char *sep);

/* 1 when @dim describes the storage object itself (format, allocation,
 * image backend and cache: what the undo journal records with an image),
 * 0 for the hypervisor's dimensions and where/backing. */
int vdc_target_dim_storage(vdc_target_dim dim);

/* The key of @dim (above) where a description is written as KEY=NAME
 * pairs (the undo journal's image entries; the same as plan.json's
 * members), or NULL for VDC_DIM_COUNT and beyond. */
const char *vdc_target_dim_key(vdc_target_dim dim);

/* The member of @s that is dimension @dim, read or written as an int (the
 * value of its enum); out-of-range dimensions read as -1 and are not
 * written.  For code that walks every dimension (the journal). */
int vdc_target_spec_get(const vdc_target_spec *s, vdc_target_dim dim);
void vdc_target_spec_set(vdc_target_spec *s, vdc_target_dim dim, int value);

/* result.json and plan.json targets[].kind: "dom0" for the baseline (where
 * dom0, whatever backs it), else the backing's name. */
const char *vdc_target_spec_kind(const vdc_target_spec *s);

/* The inverse of vdc_target_spec_kind, for readers of result.json and
 * plan.json: "dom0" sets @s's where to dom0 (the kind does not say what
 * backs it: @s's backing is left as it was), a backing's name sets where
 * domU and that backing.  0, or -1 with @s untouched when @kind is NULL or
 * not a target's kind (e.g. an importer's "imported"; no message). */
int vdc_target_kind_parse(const char *kind, vdc_target_spec *s);

/* 1 when @s is a domU image: the image backend and image cache apply. */
int vdc_target_spec_domu_image(const vdc_target_spec *s);

/* A target's side in the comparisons the report and the stopping rule
 * make (the headline's pairs: an image against an LV, a domU against the
 * dom0 baseline). */
typedef enum vdc_target_role {
    VDC_ROLE_OTHER,             /* no target's kind (an import's "imported", none) */
    VDC_ROLE_IMAGE,             /* a domU image */
    VDC_ROLE_LV,                /* a domU LV or block device the user gave: the "LV" side */
    VDC_ROLE_DOM0,              /* the dom0 baseline, whatever backs it */
} vdc_target_role;

/* The role of the target @s describes (never VDC_ROLE_OTHER). */
vdc_target_role vdc_target_spec_role(const vdc_target_spec *s);

/* The QEMU cache and I/O modes a domU disk described by @s gets (libvirt
 * qemu/kvm): --disk-cache and --disk-io when given; else, for an image,
 * by its --image-cache (host: writeback, QEMU's default, and QEMU's
 * default I/O; none: none and native), for an LV or a block device none
 * and native (what the run has always given them); with --disk-cache
 * given and no --disk-io, QEMU's default I/O (VDC_DISK_IO_DEFAULT:
 * threads). */
vdc_disk_cache vdc_target_qemu_cache(const vdc_target_spec *s);
vdc_disk_io vdc_target_qemu_io(const vdc_target_spec *s);

/* The I/O threads @s asks for: -1 when not given, else 0 to
 * VDC_IOTHREADS_MAX. */
int vdc_target_iothreads(const vdc_target_spec *s);

/* The fill @s asks for, percent (0: none). */
int vdc_target_fill_percent(const vdc_target_spec *s);

#endif
