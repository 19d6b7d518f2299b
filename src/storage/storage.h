/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp storage: the scratch objects the benchmark targets live on.
 *
 * Three kinds behind one ops table (designated initialisers, chosen by the
 * target description's backing, model/target.h): image (a file: raw
 * sparse, raw preallocated, raw fully written, or qcow2), lvm (a new LV
 * through libblockdev's LVM plugin, tagged "vmdiskcmp"), block (an
 * existing block device the user names, used only with explicit consent
 * and after a signature check).  Documented in
 * doc/storage.md.
 *
 * Safety: create() never overwrites or reuses anything (an existing file,
 * an existing LV name, a VG without room all fail before anything is
 * made); destroy() removes only what create() made (st->created), is
 * idempotent, and for an LV re-checks our tag before lvremove. */
#ifndef VDC_STORAGE_H
#define VDC_STORAGE_H

#include <stdint.h>

#include <json-glib/json-glib.h>

#include "host/placement.h"
#include "model/target.h"

#define VDC_STORAGE_TAG "vmdiskcmp"   /* LVM tag on every LV we create */
/* and the run's own tag: this prefix and the run id (plan.h id) */
#define VDC_STORAGE_RUN_TAG_PREFIX "vmdiskcmp-run-"

/* What to create (input; the caller owns the strings). */
struct vdc_storage_spec {
    vdc_target_spec target;      /* the target description (model/target.h): its
                                    backing chooses the kind; image format and
                                    allocation (raw only; qcow2 is always sparse) */
    const char *name;            /* target name, e.g. "image", "lvm", "block" */
    uint64_t size_bytes;         /* image, lvm: size; block: 0 (whole device) */
    /* image */
    const char *path;            /* image: file to create (must not exist);
                                    block: the device, e.g. /dev/loop3 */
    /* lvm */
    const char *vg;              /* volume group, must exist */
    const char *lv;              /* LV name to create, must not exist */
    unsigned stripes;            /* 0 or 1: linear */
    uint64_t stripe_size;        /* bytes, power of two >= 4 KiB; 0: LVM default */
    const char *run_tag;         /* lvm: a second tag (the run's), or NULL */
    /* lvm, a thin LV (doc/storage.md "Thin LVs"): the pool @thin_pool is
     * made first, then @lv in it, both tagged; stripes do not apply */
    int thin;
    const char *thin_pool;       /* the pool's LV name (must not exist) */
    uint64_t thin_chunk_size;    /* bytes, a power of two, 64 KiB-1 GiB; 0: LVM's choice */
    int thin_zero;               /* zero new chunks: 1 --zero y, 0 --zero n, -1 LVM's
                                    default (lvm.conf allocation/thin_pool_zero) */
    /* qcow2 */
    uint64_t cluster_size;       /* bytes, a power of two 512..2 MiB; 0: QEMU's 64 KiB */
    /* block */
    int consent;                 /* the user named this device for destruction */
    int force;                   /* proceed even though a signature was found */
};

/* ---- qcow2 (qcow2.c) ---------------------------------------------------------
 * A qcow2 image is made by `qemu-img create -f qcow2 -o
 * cluster_size=C,preallocation=P` (QEMU 7.2 here); its allocation maps to
 * preallocation= as sparse off, metadata metadata, falloc falloc, full
 * full.  Read back from the image itself with `qemu-img info
 * --output=json` (the header: cluster size, virtual size, compat,
 * lazy refcounts) and `qemu-img map --output=json` (which guest ranges
 * have host clusters, and of them which read as zeros). */
#define VDC_QCOW2_CLUSTER_DEFAULT 65536u

typedef struct {
    int read;                   /* 1: filled by vdc_qcow2_read */
    uint64_t virtual_size;      /* bytes the guest sees */
    uint64_t actual_size;       /* bytes the file holds on the host (its blocks) */
    uint64_t cluster_size;      /* bytes (the header's cluster_bits) */
    char *compat;               /* "0.10", "1.1" */
    int lazy_refcounts, extended_l2, corrupt;   /* tri-state: -1 not said */
    int64_t refcount_bits;      /* -1: not said */
    int mapped_read;            /* 1: mapped_* below were read (qemu-img map) */
    uint64_t mapped_bytes;      /* guest bytes with a host cluster (map "data": true) */
    uint64_t mapped_zero_bytes; /* of them allocated as zero clusters ("zero": true) */
} vdc_qcow2_info;

void vdc_qcow2_info_dispose(vdc_qcow2_info *q);   /* safe twice */

/* QEMU's preallocation= for @alloc ("off", "metadata", "falloc", "full"),
 * NULL when out of range.  Static. */
const char *vdc_qcow2_preallocation(vdc_image_alloc alloc);

/* 1 when @bytes is a cluster size qcow2 takes (a power of two, 512 to 2 MiB). */
int vdc_qcow2_cluster_size_ok(uint64_t bytes);

/* Pure: `qemu-img info --output=json` of a qcow2 image (QEMU 2.x-9.x:
 * "format", "virtual-size", "actual-size", "cluster-size",
 * "format-specific": {"type": "qcow2", "data": {"compat", "lazy-refcounts",
 * "refcount-bits", "corrupt", "extended-l2"}}) into @out; a format other
 * than qcow2 is refused.  0, or -1 after vdc_error naming @source. */
int vdc_qemu_img_info_parse(const char *json, const char *source, vdc_qcow2_info *out);

/* Pure: `qemu-img map --output=json` (an array of {"start", "length",
 * "depth", "present", "zero", "data"[, "offset"]}) into @out's mapped_*.
 * 0, or -1 after vdc_error naming @source. */
int vdc_qemu_img_map_parse(const char *json, const char *source, vdc_qcow2_info *out);

/* Pure: NULL when what qemu-img read back (@q, info and map) is what
 * preallocation @alloc makes (off: no cluster; metadata: every cluster
 * allocated, all reading as zeros; falloc and full: every cluster
 * allocated with data and the file at least the virtual size), else a
 * new one-line description of the difference (g_free).  falloc and full
 * differ only in the host file's extents (unwritten or written), which
 * qemu-img does not say. */
char *vdc_qcow2_alloc_disagrees(vdc_image_alloc alloc, const vdc_qcow2_info *q);

/* Create qcow2 image @path (which the caller claimed: it exists, empty) of
 * @size bytes with @alloc's preallocation and @cluster_size (0: 64 KiB),
 * through qemu-img (its stderr in the message).  0, or -1 after
 * vdc_error naming storage @name. */
int vdc_qcow2_create(const char *path, uint64_t size, vdc_image_alloc alloc,
                     uint64_t cluster_size, const char *name);

/* qemu-img info and map of @path into @out (read = 1).  0, or -1 after
 * vdc_error. */
int vdc_qcow2_read(const char *path, vdc_qcow2_info *out);

/* What was created (output).  Strings are owned (g_malloc). */
struct vdc_storage {
    vdc_target_spec target;      /* the spec's, as created (qcow2: alloc sparse) */
    char *name;
    char *path;                  /* image file, /dev/VG/LV, or the block device */
    char *device;                /* block device node (lvm, block); NULL for image */
    uint64_t size_bytes;         /* actual size */
    char *vg;
    char *lv;
    unsigned stripes;
    uint64_t stripe_size;        /* bytes, 0 when linear */
    uint64_t pe_start;           /* bytes: first PE of the (first) PV, 0 if unknown */
    char *signature;             /* block: what blkid found ("ext4", "dos", ...), or NULL */
    char *run_tag;               /* lvm: the run's tag it carries; destroy() requires it */
    char *thin_pool;             /* lvm thin: the pool, NULL for a linear/striped LV */
    int pool_created;            /* 1: create() made the pool and destroy() removes it
                                    (after the LV) */
    int thin_zero_asked;         /* the spec's thin_zero */
    uint64_t thin_chunk_asked;   /* the spec's thin_chunk_size */
    int thin_read;               /* 1: thin below was read back after create */
    vdc_thin_facts thin;         /* the pool's facts (host/placement.h) */
    double data_percent[2];      /* the pool's data use (%) before the first boot (read
                                    with thin) and after the last (NAN here: the run
                                    reads it, run/provision.h vdc_provision_thin_after,
                                    and records it); NAN unknown */
    double metadata_percent[2];  /* its metadata use (%), the same way */
    int created;                 /* 1: create() made it and destroy() removes it */
    uint64_t cluster_size;       /* qcow2: the cluster size asked for (bytes) */
    vdc_qcow2_info qcow2;        /* qcow2: read back after create */
};

struct vdc_storage_ops {
    const char *name;            /* "image", "lvm", "block" */
    /* Check @spec without creating anything (also used by --dry-run):
     * names, sizes, room in the VG, file absence, consent and signatures.
     * 0, or -1 after vdc_error. */
    int (*check)(const struct vdc_storage_spec *spec);
    /* check(), then create; fills @out (initialised by the caller).  On
     * failure nothing is left behind and @out stays empty. */
    int (*create)(const struct vdc_storage_spec *spec, struct vdc_storage *out);
    /* Remove what create() made; a second call, or a call on an object
     * already gone, returns 0.  Never touches a block device's data. */
    int (*destroy)(struct vdc_storage *st);
};

void vdc_storage_init(struct vdc_storage *st);
void vdc_storage_dispose(struct vdc_storage *st);   /* frees; does not destroy */

/* ops for @backing, or NULL for an out-of-range value */
const struct vdc_storage_ops *vdc_storage_ops_get(vdc_backing backing);

/* Convenience: ops_get(spec->target.backing)->check / create; and destroy
 * by st->target.backing. */
int vdc_storage_check(const struct vdc_storage_spec *spec);
int vdc_storage_create(const struct vdc_storage_spec *spec, struct vdc_storage *out);
int vdc_storage_destroy(struct vdc_storage *st);

/* Facts for result.json targets[].storage (doc/result-format.md): a new
 * JsonObject with path, size_bytes; format, alloc (image); vg, lv,
 * stripes, stripe_size, pe_start, device, lv_type (lvm) and a thin LV's
 * thin {pool, chunk_size, zeroing, discards, pool_size, metadata_size,
 * data_percent, metadata_percent ([before, after], %, null unknown),
 * source}; device, signature (block).  Caller unrefs. */
JsonObject *vdc_storage_describe(const struct vdc_storage *st);

/* For `vmdiskcmp cleanup`: rebuild a destroyable object from what the undo
 * journal recorded (backing image: @path; backing lvm: @vg and @lv).
 * destroy() of an LV still refuses one that lacks our tag. */
int vdc_storage_from_journal(vdc_backing backing, const char *path,
                             const char *vg, const char *lv, struct vdc_storage *out);

/* A thin LV's pool: what it needs of its VG and what to ask LVM for.
 * Pure.  The pool holds all of the thin LV (@size bytes rounded up to
 * whole extents and chunks: never overcommitted, the benchmark writes it
 * all); its metadata is twice 64 bytes per chunk (@chunk, 0: 64 KiB,
 * LVM's smallest), at least 4 MiB, in whole extents; the VG gives that
 * once more for the pool metadata spare LVM keeps.  *@need: the VG's
 * bytes the pool takes. */
void vdc_thin_pool_size(uint64_t size, uint64_t extent, uint64_t chunk, uint64_t *pool,
                        uint64_t *md, uint64_t *need);
#define VDC_THIN_CHUNK_MIN (64ull << 10)    /* lvm2's bounds of a pool's chunk size */
#define VDC_THIN_CHUNK_MAX (1ull << 30)
#define VDC_THIN_METADATA_MIN (4ull << 20)

/* Thin LV @st's pool read again from lvm2's report (the LVM backend's
 * thin_facts: `lvs --reportformat json ... VG/POOL`,
 * host/placement.h vdc_thin_facts_read) into @out (initialised here;
 * vdc_thin_facts_dispose): its data and metadata use (%) now, with its
 * chunk size, zeroing, discards and sizes.  The run reads it after the
 * last boot.  0, or -1 after vdc_error naming the storage (not a thin LV,
 * no report). */
int vdc_storage_thin_read(const struct vdc_storage *st, vdc_thin_facts *out);

/* For `vmdiskcmp cleanup --all`: the LVs of @vg that carry our tag, as a
 * NULL-terminated g_strv of LV names (g_strfreev).  NULL after vdc_error. */
char **vdc_storage_lvm_list_tagged(const char *vg);

/* 1 when LV @vg/@lv exists and carries @tag, 0 when it does not (or the
 * LV does not exist), -1 after vdc_error. */
int vdc_storage_lvm_has_tag(const char *vg, const char *lv, const char *tag);

/* 1 when LV @vg/@lv exists, 0 when not, -1 when LVM cannot tell (no such
 * VG, no LVM): nothing printed, a probe (run ids are checked against it). */
int vdc_storage_lvm_probe(const char *vg, const char *lv);

/* Check, creating nothing, that the LVs @specs[0..@n) (kind lvm, in the
 * order a run creates them) can all be made: each as the lvm check() does
 * (names, stripes vs PVs, LV absent, room), with the VG's free space (from
 * bd_lvm_vginfo) reduced by the LVs before it in the same VG, each rounded
 * up to whole extents x stripes as LVM rounds it.  A shortfall gives the
 * very message create() would give at that LV ("storage NAME: VG VG has F
 * bytes free, the LV needs N").  Used by `run` before anything is created,
 * --dry-run included.  0, or -1 after one vdc_error. */
int vdc_storage_lvm_check_all(const struct vdc_storage_spec *specs, size_t n);

/* ---- LVM backend (internal seam, for unit tests) -------------------------
 * The lvm kind talks to LVM only through this table.  The real one uses
 * libblockdev's LVM plugin (bd_lvm_*); tests install a mock.  Each function
 * returns 0 or -1 and on failure stores a g_malloc'd message in *why (the
 * caller reports it once, naming the object). */
struct vdc_lvm_vg_facts {
    uint64_t size;               /* bytes */
    uint64_t free;               /* bytes */
    uint64_t extent_size;        /* bytes */
    unsigned pv_count;
};

/* One VG of the host (vg_list). */
struct vdc_lvm_vg_entry {
    char *name;
    struct vdc_lvm_vg_facts facts;
};

struct vdc_lvm_backend {
    int (*vg_info)(const char *vg, struct vdc_lvm_vg_facts *out, char **why);
    /* every VG of the host: *vgs a g_new array of *n entries (names g_malloc'd) */
    int (*vg_list)(struct vdc_lvm_vg_entry **vgs, size_t *n, char **why);
    /* 1 exists, 0 absent, -1 error */
    int (*lv_exists)(const char *vg, const char *lv, char **why);
    /* tags of an existing LV as a g_strv (g_strfreev), or -1 */
    int (*lv_tags)(const char *vg, const char *lv, char ***tags, char **why);
    /* @tags: NULL-terminated, each added with --addtag */
    int (*lv_create)(const char *vg, const char *lv, uint64_t size, unsigned stripes,
                     uint64_t stripe_size, const char *const *tags, char **why);
    int (*lv_remove)(const char *vg, const char *lv, char **why);
    /* LV names of @vg as a g_strv */
    int (*lv_list)(const char *vg, char ***lvs, char **why);
    /* pe_start (bytes) of the first PV of @vg */
    int (*pe_start)(const char *vg, uint64_t *out, char **why);
    /* thin pool @pool of @size data bytes and @md_size metadata bytes,
     * chunk @chunk (0: LVM's), zeroing @zero (-1: LVM's), with @tags */
    int (*pool_create)(const char *vg, const char *pool, uint64_t size, uint64_t md_size,
                       uint64_t chunk, int zero, const char *const *tags, char **why);
    /* thin LV @lv of @size (virtual) bytes in pool @pool, with @tags */
    int (*thin_create)(const char *vg, const char *pool, const char *lv, uint64_t size,
                       const char *const *tags, char **why);
    /* the facts of thin pool @pool (host/placement.h vdc_thin_facts_read) */
    int (*thin_facts)(const char *vg, const char *pool, vdc_thin_facts *out, char **why);
};

/* The host's VGs with their free space, extent size and PV count, for
 * choosing a VG when no --vg names one (plan/build.h).  Returns 0 with
 * *@vgs (free with vdc_storage_lvm_vgs_free) and *@n (0: no VG), or -1
 * with a g_malloc'd one-line cause in *@why (no message printed: the plan
 * says it once, naming the option). */
int vdc_storage_lvm_vgs(struct vdc_lvm_vg_entry **vgs, size_t *n, char **why);
void vdc_storage_lvm_vgs_free(struct vdc_lvm_vg_entry *vgs, size_t n);

/* Install @b (NULL: back to the default libblockdev backend, or a backend
 * that fails with "built without libblockdev").  Tests only. */
void vdc_storage_lvm_set_backend(const struct vdc_lvm_backend *b);

/* ---- block signature probe (internal seam, for unit tests) ---------------
 * Probe @dev for a partition table, a filesystem, RAID or LVM PV signature
 * (libblkid).  Returns 1 and stores a g_malloc'd description ("ext4",
 * "LVM2_member", "partition table dos") in *what when one is found, 0 when
 * the device is blank, -1 on error (message in *what). */
typedef int (*vdc_block_probe_fn)(const char *dev, char **what);
void vdc_storage_block_set_probe(vdc_block_probe_fn fn);   /* NULL: libblkid */

#endif
