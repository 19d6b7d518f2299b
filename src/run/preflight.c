/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Bad input a run would otherwise find only after creating --out
 * (run.h: vdc_run_check_inputs). */
#include "config.h"
#include "run/run.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"
#include "guest/prepare.h"
#include "host/qemuprobe.h"
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

/* run.h */
int
vdc_run_check_inputs(const vdc_plan *p, int consent)
{
    const char *guest = p->prepared_image ? p->prepared_image : p->guest_image;
    size_t i;

    /* the dom0 agent's job files are OUT/workloads/NAME.fio, their path
     * each sample's workload.source: a string the result model refuses
     * would lose the run's work at its end */
    for (i = 0; p->out_dir[i]; i++)
        if ((unsigned char)p->out_dir[i] < 0x20 || p->out_dir[i] == 0x7f ||
            !g_utf8_validate(p->out_dir, -1, NULL)) {
            g_autofree char *shown = g_strescape(p->out_dir, NULL);

            vdc_input_error("--out %s: expected a path of UTF-8 text without control characters (results name it)",
                            shown);
            return -1;
        }
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
    if (check_qdisk_direct(p) < 0)
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
