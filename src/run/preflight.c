/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a run checks before anything is created (preflight.h). */
#include "config.h"
#include "run/preflight.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"
#include "guest/prepare.h"
#include "host/blkback.h"
#include "host/procfs.h"
#include "host/qemuprobe.h"
#include "hv/hv.h"
#include "plan/levels.h"
#include "run/runrec.h"
#include "storage/storage.h"

/* The directory that @opt's @dir will be made in: @dir itself when it
 * exists, else its nearest existing ancestor.  That one must be a
 * directory we can write in (not a file, not on a read-only filesystem).
 * 0, or -1 after one vdc_input_error naming @opt and @dir. */
static int
check_dir_writable(const char *opt, const char *dir)
{
    g_autofree char *d = g_strdup(dir);
    struct stat st;

    while (lstat(d, &st) < 0 && (errno == ENOENT || errno == ENOTDIR) && strcmp(d, "/") != 0) {
        char *up = g_path_get_dirname(d);

        g_free(d);
        d = up;
    }
    if (stat(d, &st) < 0) {
        vdc_input_error("%s %s: %s: %s: expected a directory", opt, dir, d, g_strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        vdc_input_error("%s %s: %s is not a directory: expected a directory (or a path that can be made one)",
                        opt, dir, d);
        return -1;
    }
    if (access(d, W_OK | X_OK) < 0) {
        vdc_input_error("%s %s: %s: %s: expected a directory this run can write in", opt, dir, d,
                        errno == EROFS ? "read-only filesystem" : g_strerror(errno));
        return -1;
    }
    return 0;
}

/* With --workload-on raw, block device target @t (@path) holds the
 * furthest region a job of @p uses (vdc_plan_workload.region): the raw
 * pass runs on the device itself.  0, or -1 after one line. */
static int
check_raw_region(const vdc_plan *p, const vdc_plan_target *t, const char *opt)
{
    const vdc_plan_workload *far = NULL;
    uint64_t size = 0;
    size_t i;
    int fd, r, e;

    if (!p->workload_raw)
        return 0;
    for (i = 0; i < p->n_workloads; i++)
        if (!far || p->workloads[i].region > far->region)
            far = &p->workloads[i];
    if (!far || !far->region)
        return 0;
    fd = open(t->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        vdc_input_error("%s %s (target %s): %s: expected a readable block device", opt, t->path, t->name,
                        g_strerror(errno));
        return -1;
    }
    r = ioctl(fd, BLKGETSIZE64, &size);
    e = errno;
    close(fd);
    if (r < 0) {
        vdc_input_error("%s %s (target %s): cannot read its size: %s", opt, t->path, t->name,
                        g_strerror(e));
        return -1;
    }
    if (size < far->region) {
        vdc_input_error("%s %s (target %s): %" G_GUINT64_FORMAT " bytes: expected at least %" G_GUINT64_FORMAT
                        " for --workload-on raw (job [%s] of %s reaches offset + size = %" G_GUINT64_FORMAT
                        "; offset + bs without size=)",
                        opt, t->path, t->name, (guint64)size, (guint64)far->region, far->name, far->source,
                        (guint64)far->region);
        return -1;
    }
    return 0;
}

/* A --block/--target/--dom0-on device: an existing block device, not in
 * use, without a signature (storage/block.c's check, which names what it
 * finds), large enough for the raw workload pass.  0, or -1 after one
 * line. */
static int
check_block(const vdc_plan *p, const vdc_plan_target *t, int consent)
{
    const char *opt = t->spec.where == VDC_WHERE_DOM0 ? "--dom0-on" : "--block/--target";
    struct vdc_storage_spec spec = { .target = t->spec, .name = t->name, .path = t->path,
                                     .consent = consent };
    struct stat st;

    if (stat(t->path, &st) < 0) {
        vdc_input_error("%s %s (target %s): %s: expected a block device such as /dev/sdb1", opt,
                        t->path, t->name, g_strerror(errno));
        return -1;
    }
    if (!S_ISBLK(st.st_mode)) {
        vdc_input_error("%s %s (target %s): not a block device (%s): expected a block device such as /dev/sdb1",
                        opt, t->path, t->name, S_ISREG(st.st_mode) ? "a regular file"
                                                : S_ISDIR(st.st_mode) ? "a directory" : "another kind of file");
        return -1;
    }
    if (vdc_storage_check(&spec) < 0)
        return -1;
    return check_raw_region(p, t, opt);
}

/* libxl serves @t's image with qdisk (asked, or chosen for qcow2: libxl
 * 4.17 picks qdisk for a qcow2 image whatever the tap: prefix says). */
static int
libxl_qdisk(const vdc_plan *p, const vdc_plan_target *t)
{
    return p->hv == VDC_HV_LIBXL && vdc_target_spec_domu_image(&t->spec) &&
           (t->spec.backend == VDC_BACKEND_QDISK ||
            (t->spec.format == VDC_IMAGE_QCOW2 && t->spec.backend != VDC_BACKEND_PHY));
}

/* --image-cache none on a libxl qdisk image: QEMU opens a direct-io-safe
 * disk with aio=native, which a QEMU built without Linux native AIO refuses
 * (host/qemuprobe.h): the disk would never reach the domU.  Asked of
 * libxl's QEMU before anything is created; a QEMU that is not found or
 * does not answer is left to the check after boot (run/cache.c).  0, or -1
 * after one line. */
static int
check_qdisk_direct(const vdc_plan *p)
{
    const char *qemu = NULL;
    size_t i;

    for (i = 0; i < p->n_targets; i++) {
        const vdc_plan_target *t = &p->targets[i];
        g_autofree char *said = NULL;

        if (!libxl_qdisk(p, t) || t->spec.cache != VDC_IMAGE_CACHE_NONE)
            continue;
        if (!qemu && !(qemu = vdc_xen_qemu_path()))
            return 0;
        if (vdc_qemu_aio_native(qemu, &said) != VDC_QEMU_AIO_MISSING)
            return 0;
        vdc_input_error("--image-cache none (target %s, served by qdisk): %s says \"%s\": "
                        "xen-block opens a direct-io-safe image with aio=native, so the disk "
                        "would never reach the domU: expected a QEMU built with Linux native "
                        "AIO, or %s",
                        t->name, qemu, said ? g_strstrip(said) : "aio=native ... not supported",
                        t->spec.format == VDC_IMAGE_QCOW2
                            ? "a raw image (--image-format raw) with --image-backend tap or phy "
                              "(blkback over a loop device, which gets direct I/O)"
                            : "--image-backend tap or phy (blkback over a loop device, which "
                              "gets direct I/O)");
        return -1;
    }
    return 0;
}

/* preflight.h */
/* --blkback-*: a Xen plan (libxl, libvirt xen://, or the mock of the
 * tests) on a dom0 whose blkback lets the parameter be written, the value
 * in range (host/blkback.h) */
static int
check_blkback(const vdc_plan *p)
{
    int xen = p->hv == VDC_HV_LIBXL || p->hv == VDC_HV_MOCK ||
              (p->domain_type && !strcmp(p->domain_type, "xen"));
    int k;

    for (k = 0; k < VDC_BLKBACK_N; k++) {
        if (p->blkback[k] < 0)
            continue;
        if (!xen) {
            vdc_input_error("%s %d: expected a Xen run (--hypervisor libxl, or libvirt with "
                            "--connect xen:///system): blkback serves only Xen domUs",
                            vdc_blkback_option(k), p->blkback[k]);
            return -1;
        }
        if (vdc_blkback_check(k, p->blkback[k], NULL) < 0)
            return -1;
    }
    return 0;
}

int
vdc_run_check_inputs(const vdc_plan *p, int consent)
{
    const char *guest = p->prepared_image ? p->prepared_image : p->guest_image;
    size_t i;

    /* the dom0 agent's job files are OUT/workloads/NAME.fio, their path
     * each sample's workload.source: a string the result model refuses
     * would lose the run's work at its end */
    if (vdc_check_path_text("--out", p->out_dir, NULL, NULL) < 0)
        return -1;
    if (g_file_test(p->out_dir, G_FILE_TEST_EXISTS)) {
        vdc_input_error("--out %s: exists: expected a new directory (a run never reuses one)", p->out_dir);
        return -1;
    }
    if (check_dir_writable("--out", p->out_dir) < 0)
        return -1;
    for (i = 0; i < p->n_targets; i++) {
        const vdc_plan_target *t = &p->targets[i];

        if (t->spec.backing == VDC_BACKING_IMAGE && t->path) {
            g_autofree char *dir = g_path_get_dirname(t->path);

            if (check_dir_writable("--image-dir", dir) < 0)
                return -1;
        } else if (t->spec.backing == VDC_BACKING_BLOCK && check_block(p, t, consent) < 0) {
            return -1;
        }
    }
    if (check_qdisk_direct(p) < 0 || check_blkback(p) < 0)
        return -1;
    /* the manifest, and the boot files it names unless --kernel/--initrd
     * replace them (those are checked as the files they are); a prepared
     * image's [prepared] section.  A missing image is named later, as the
     * file it is. */
    if (p->hv != VDC_HV_NONE && guest && g_file_test(guest, G_FILE_TEST_IS_REGULAR)) {
        struct vdc_prepared prep;

        if (vdc_guest_manifest_check(guest, !p->kernel, !p->initrd) < 0)
            return -1;
        if (p->prepared_image) {
            if (vdc_prepared_load(p->prepared_image, &prep) < 0)
                return -1;
            vdc_prepared_dispose(&prep);
        }
    }
    return 0;
}

/* preflight.h */
struct vdc_storage_spec
vdc_run_storage_spec(const vdc_plan *p, const vdc_plan_target *t, int consent)
{
    int qcow2 = t->spec.backing == VDC_BACKING_IMAGE && t->spec.format == VDC_IMAGE_QCOW2;

    return (struct vdc_storage_spec){
        .target = t->spec, .name = t->name, .size_bytes = t->disk_bytes, .path = t->path,
        .vg = t->vg, .lv = t->lv, .stripes = t->stripes, .stripe_size = t->stripe_size,
        .consent = consent, .thin = t->thin_pool != NULL, .thin_pool = t->thin_pool,
        .thin_chunk_size = t->thin_pool ? p->thin_chunk_size : 0,
        .thin_zero = t->thin_pool ? p->thin_zero : -1,
        .cluster_size = qcow2 ? p->qcow2_cluster_size : 0,
    };
}

/* preflight.h */
int
vdc_run_check_lvm_room(const vdc_plan *p)
{
    unsigned copies = vdc_plan_max_guests(p), k;
    struct vdc_storage_spec *specs = g_new0(struct vdc_storage_spec,
                                            p->n_targets ? p->n_targets * copies : 1);
    size_t i, n = 0;
    int rc;

    /* the specs provision_target() gives storage_create(); a domU target's
     * once per guest of the largest level (--guests) */
    for (i = 0; i < p->n_targets; i++) {
        const vdc_plan_target *t = &p->targets[i];

        if (t->spec.backing != VDC_BACKING_LVM)
            continue;
        for (k = 0; k < (t->spec.where == VDC_WHERE_DOMU ? copies : 1); k++)
            specs[n++] = vdc_run_storage_spec(p, t, 0);
    }
    rc = n ? vdc_storage_lvm_check_all(specs, n) : 0;
    g_free(specs);
    return rc;
}

/* preflight.h */
int
vdc_run_id_taken(const vdc_plan *p, const vdc_run_env *env, int check_out)
{
    const vdc_hv_ops *ops;
    size_t i;

    if (check_out && g_file_test(p->out_dir, G_FILE_TEST_EXISTS)) {
        vdc_progress("run id %s: %s exists: choosing another id", p->id, p->out_dir);
        return 1;
    }
    {
        g_autofree char *rec = g_build_filename(vdc_runrec_dir(), p->id, NULL);
        struct stat sb;

        if (lstat(rec, &sb) == 0) {
            vdc_progress("run id %s: its run record %s exists: choosing another id", p->id, rec);
            return 1;
        }
    }
    for (i = 0; i < p->n_targets; i++) {
        const vdc_plan_target *t = &p->targets[i];
        struct stat sb;

        if (t->spec.backing == VDC_BACKING_IMAGE && t->path && lstat(t->path, &sb) == 0) {
            vdc_progress("run id %s: image %s exists: choosing another id", p->id, t->path);
            return 1;
        }
        if (t->spec.backing == VDC_BACKING_LVM && t->vg && t->lv &&
            vdc_storage_lvm_probe(t->vg, t->lv) == 1) {
            vdc_progress("run id %s: LV %s/%s exists: choosing another id", p->id, t->vg, t->lv);
            return 1;
        }
    }
    if (p->hv == VDC_HV_NONE)
        return 0;
    ops = env && env->hv ? env->hv : vdc_hv_ops_for(p->hv);
    if (!ops)
        return -1;
    {
        vdc_hv *hv = ops->open(p->uri);
        char uuid[VDC_HV_UUID_LEN];
        int r;

        if (!hv)
            return -1;
        r = ops->uuid(hv, p->domain_name, uuid);
        ops->close(hv);
        if (r == 1)
            vdc_progress("run id %s: domain %s exists (UUID %s): choosing another id", p->id,
                         p->domain_name, uuid);
        return r;
    }
}

/* preflight.h */
int
vdc_run_check_image_room(const vdc_plan *p)
{
    /* per filesystem (st_dev): bytes the plan's images will take, full
     * size each (a sparse image fills up as the agent writes its file) */
    struct fsneed { dev_t dev; char *dir, *image_dir; uint64_t need; GString *what; int domu, dom0; };
    GArray *fs = g_array_new(FALSE, TRUE, sizeof(struct fsneed));
    unsigned copies;
    char size[32];
    size_t i, j;
    int rc = 0, lv = 0;

    /* --lv-size sizes the domU's images too, but only in a plan with an
     * LV (plan/options.c refuses it otherwise) */
    for (i = 0; i < p->n_targets; i++)
        lv |= p->targets[i].spec.backing == VDC_BACKING_LVM;
    for (i = 0; i < p->n_targets; i++) {
        const vdc_plan_target *t = &p->targets[i];
        struct fsneed *f;
        struct stat st;
        char *dir;

        if (!t->path || !t->disk_bytes || t->spec.backing != VDC_BACKING_IMAGE)
            continue;
        dir = vdc_existing_dir(t->path);
        if (stat(dir, &st) < 0) {
            g_free(dir);
            continue;           /* the create names what is wrong */
        }
        for (j = 0; j < fs->len && g_array_index(fs, struct fsneed, j).dev != st.st_dev; j++)
            ;
        if (j == fs->len) {
            struct fsneed n = { st.st_dev, dir, g_path_get_dirname(t->path), 0, g_string_new(NULL), 0, 0 };

            g_array_append_val(fs, n);
        } else {
            g_free(dir);
        }
        f = &g_array_index(fs, struct fsneed, j);
        /* a domU target once per guest of the largest level (--guests) */
        copies = t->spec.where == VDC_WHERE_DOMU ? vdc_plan_max_guests(p) : 1;
        f->need += copies * t->disk_bytes;
        f->domu |= t->spec.where == VDC_WHERE_DOMU;
        f->dom0 |= t->spec.where != VDC_WHERE_DOMU;
        if (copies > 1)
            g_string_append_printf(f->what, "%s%s %u x %s", f->what->len ? ", " : "", t->name, copies,
                                   vdc_fmt_bytes(size, sizeof(size), t->disk_bytes));
        else
            g_string_append_printf(f->what, "%s%s %s", f->what->len ? ", " : "", t->name,
                                   vdc_fmt_bytes(size, sizeof(size), t->disk_bytes));
    }
    for (j = 0; j < fs->len; j++) {
        struct fsneed *f = &g_array_index(fs, struct fsneed, j);
        uint64_t avail;
        struct statvfs v;

        if (rc == 0 && statvfs(f->dir, &v) == 0 && (avail = (uint64_t)v.f_bavail * v.f_frsize) < f->need) {
            char a[32], n[32], d[32];
            g_autofree char *on = strcmp(f->dir, f->image_dir)
                                      ? g_strdup_printf(" (not made yet: on the filesystem of %s)", f->dir)
                                      : NULL;

            /* the options that change it: where the images go, and their
             * sizes (each image holds its test file + 25 % + 64 MiB) */
            vdc_error("--image-dir %s%s: %s free, the images need %s (%s), %s more: expected "
                      "--image-dir on a filesystem with room, or smaller images (%s%s%s%s)",
                      f->image_dir, on ? on : "", vdc_fmt_bytes(a, sizeof(a), avail),
                      vdc_fmt_bytes(n, sizeof(n), f->need), f->what->str,
                      vdc_fmt_bytes(d, sizeof(d), f->need - avail),
                      !f->domu ? "" : lv ? "--size or --lv-size for the domU's" : "--size for the domU's",
                      f->domu && f->dom0 ? ", " : "", f->dom0 ? "--dom0-size for dom0's" : "",
                      f->domu && vdc_plan_max_guests(p) > 1 ? ", fewer --guests" : "");
            rc = -1;
        }
        g_free(f->dir);
        g_free(f->image_dir);
        g_string_free(f->what, TRUE);
    }
    g_array_free(fs, TRUE);
    return rc;
}

/* preflight.h */
int
vdc_run_check_level_memory(const vdc_plan *p, int xen_dom0)
{
    const vdc_hv_ops *ops;
    vdc_meminfo m;
    vdc_hv *hv;
    uint64_t bytes = 0;
    int r;

    if (!p->guests.n)
        return 0;
    if (p->hv == VDC_HV_LIBXL || p->hv == VDC_HV_MOCK) {
        if (p->hv == VDC_HV_LIBXL && !xen_dom0)
            return 0;
        if (!(ops = vdc_hv_ops_for(p->hv)))
            return -1;
        if (!ops->free_memory)
            return 0;
        if (!(hv = ops->open(p->uri)))
            return -1;
        r = ops->free_memory(hv, &bytes);
        ops->close(hv);
        if (r < 0)
            return -1;
        return vdc_plan_check_levels(p, bytes / (1024 * 1024),
                                     p->hv == VDC_HV_LIBXL ? "Xen's free memory, libxl_get_free_memory"
                                                           : "the mock hypervisor's free memory");
    }
    if (!g_strcmp0(p->domain_type, "xen"))
        return 0;
    if (vdc_meminfo_read(&m) < 0 || !m.mem_available)
        return 0;
    return vdc_plan_check_levels(p, m.mem_available / (1024 * 1024), "MemAvailable of /proc/meminfo");
}
