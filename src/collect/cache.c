/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Cache truth and placement of a run's targets (cache.h). */
#include "config.h"
#include "collect/cache.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"

/* Append @what to the comma list *@src once. */
static void
add_source(char **src, const char *what)
{
    g_auto(GStrv) have = *src ? g_strsplit(*src, ",", -1) : NULL;
    char *n;

    if (have && g_strv_contains((const char *const *)have, what))
        return;
    n = *src ? g_strconcat(*src, ",", what, NULL) : g_strdup(what);
    g_free(*src);
    *src = n;
}

/* "none"/"directsync": QEMU opens the image with cache.direct=on */
static int
libvirt_cache_direct(const char *cache)
{
    return cache && (!strcmp(cache, "none") || !strcmp(cache, "directsync"));
}

/* Two paths name the same file as the kernel prints it (backing_file is the
 * path the loop device was given, made absolute; symlinks not resolved). */
static int
same_path(const char *a, const char *b)
{
    g_autofree char *ca = NULL, *cb = NULL;

    if (!a || !b)
        return 0;
    ca = g_canonicalize_filename(a, "/");
    cb = g_canonicalize_filename(b, "/");
    return !strcmp(ca, cb);
}

/* cache.h */
int
vdc_cache_decide(const vdc_cache_facts *f, vdc_target_cache *out)
{
    int image = f->spec->backing == VDC_BACKING_IMAGE;
    int domu_image = vdc_target_spec_domu_image(f->spec);
    int none = domu_image && f->spec->cache == VDC_IMAGE_CACHE_NONE;
    g_autofree char *why = NULL;
    int o_direct = VDC_BOOL_ABSENT;
    size_t i;

    if (domu_image)
        vdc_set_str(&out->requested, vdc_target_name(VDC_DIM_IMAGE_CACHE, f->spec->cache));
    if (f->vbd) {
        add_source(&out->source, "xenstore");
        out->direct_io_safe = f->vbd->direct_io_safe < 0 ? VDC_BOOL_ABSENT : f->vbd->direct_io_safe;
    }
    if (f->disk) {
        add_source(&out->source, "libvirt-live-xml");
        vdc_set_str(&out->libvirt_cache, f->disk->cache);
        vdc_set_str(&out->libvirt_io, f->disk->io);
    }
    if (f->loop) {
        add_source(&out->source, "sysfs");
        vdc_set_str(&out->loop_device, g_str_has_prefix(f->loop->name, "/dev/") ? f->loop->name : NULL);
        if (!out->loop_device) {
            g_autofree char *dev = g_strconcat("/dev/", f->loop->name, NULL);
            vdc_set_str(&out->loop_device, dev);
        }
        vdc_set_str(&out->loop_backing_file, f->loop->backing_file);
        out->loop_dio = f->loop->dio ? 1 : 0;
        out->loop_offset = (int64_t)f->loop->offset;
    }
    if (f->qemu && f->qemu_pid > 0) {
        out->qemu_pid = f->qemu_pid;
        if (f->qemu_flags_read && f->n_qemu_flags) {
            add_source(&out->source, "fdinfo");
            o_direct = 1;
            for (i = 0; i < f->n_qemu_flags; i++)
                if (!(f->qemu_flags[i] & O_DIRECT))
                    o_direct = 0;
            out->qemu_o_direct = o_direct;
        }
    }

    /* the verdict, from the most direct fact there is */
    if (f->loop) {
        out->bypasses_dom0_page_cache = out->loop_dio;
    } else if (f->qemu) {
        if (o_direct != VDC_BOOL_ABSENT)
            out->bypasses_dom0_page_cache = o_direct;
        else if (f->disk)
            out->bypasses_dom0_page_cache = libvirt_cache_direct(f->disk->cache);
        else if (f->vbd)
            out->bypasses_dom0_page_cache = f->vbd->direct_io_safe == 1;
    } else if (f->vbd && !image && f->vbd->physical_device_path) {
        out->bypasses_dom0_page_cache = 1;     /* blkback on a block device */
    } else if (f->disk && !image) {
        out->bypasses_dom0_page_cache = libvirt_cache_direct(f->disk->cache);
    }

    if (!none)
        return 0;
    /* none: verified from the same facts, the first that disagrees named */
    if (f->loop) {
        if (!same_path(f->loop->backing_file, f->image))
            why = g_strdup_printf("%s serves %s, not the image %s", out->loop_device,
                                  f->loop->backing_file ? f->loop->backing_file : "nothing",
                                  f->image ? f->image : "?");
        else if (!f->loop->dio)
            why = g_strdup_printf("%s reads back dio 0 (/sys/block/%s/loop/dio): the image "
                                  "goes through dom0's page cache", out->loop_device,
                                  out->loop_device + 5);
    } else if (f->qemu) {
        if (f->vbd && f->vbd->direct_io_safe != 1)
            why = g_strdup_printf("xenstore %s/direct-io-safe is %s, not 1", f->vbd->path,
                                  f->vbd->direct_io_safe < 0 ? "absent" : "0");
        else if (f->disk && !libvirt_cache_direct(f->disk->cache))
            why = g_strdup_printf("the live domain XML gives disk %s cache='%s', not 'none'",
                                  f->disk->vdev, f->disk->cache ? f->disk->cache : "(default: writeback)");
        else if (f->qemu_pid <= 0)
            why = g_strdup("the QEMU serving the image was not found (no pid to read "
                           "/proc/PID/fdinfo from)");
        else if (!f->qemu_flags_read || !f->n_qemu_flags)
            why = g_strdup_printf("QEMU (pid %d) holds no descriptor on %s", f->qemu_pid,
                                  f->image ? f->image : "the image");
        else if (o_direct != 1)
            why = g_strdup_printf("QEMU (pid %d) holds %s without O_DIRECT (/proc/%d/fdinfo)",
                                  f->qemu_pid, f->image ? f->image : "the image", f->qemu_pid);
    } else {
        why = g_strdup("neither a loop device nor a QEMU was found serving the image: nothing "
                       "to read back");
    }
    if (why) {
        vdc_set_str(&out->error, why);
        return -1;
    }
    return 0;
}

static const char *
bool_name(int b)
{
    return b == VDC_BOOL_ABSENT ? "unknown" : b ? "true" : "false";
}

static int
str_differ(const char *a, const char *b)
{
    return (a || b) && (!a || !b || strcmp(a, b));
}

/* cache.h */
char *
vdc_cache_changed(const vdc_target_cache *a, const vdc_target_cache *b)
{
    if (a->bypasses_dom0_page_cache != b->bypasses_dom0_page_cache)
        return g_strdup_printf("bypasses_dom0_page_cache was %s at the first boot, now %s",
                               bool_name(a->bypasses_dom0_page_cache),
                               bool_name(b->bypasses_dom0_page_cache));
    if (a->loop_dio != b->loop_dio)
        return g_strdup_printf("the loop device's dio was %s at the first boot, now %s",
                               bool_name(a->loop_dio), bool_name(b->loop_dio));
    if (a->loop_offset != b->loop_offset)
        return g_strdup("the loop device's offset changed since the first boot");
    if (a->direct_io_safe != b->direct_io_safe)
        return g_strdup_printf("direct-io-safe was %s at the first boot, now %s",
                               bool_name(a->direct_io_safe), bool_name(b->direct_io_safe));
    if (str_differ(a->libvirt_cache, b->libvirt_cache) || str_differ(a->libvirt_io, b->libvirt_io))
        return g_strdup_printf("libvirt's cache/io was %s/%s at the first boot, now %s/%s",
                               a->libvirt_cache ? a->libvirt_cache : "-", a->libvirt_io ? a->libvirt_io : "-",
                               b->libvirt_cache ? b->libvirt_cache : "-", b->libvirt_io ? b->libvirt_io : "-");
    if (a->qemu_o_direct != b->qemu_o_direct)
        return g_strdup_printf("QEMU's O_DIRECT on the image was %s at the first boot, now %s",
                               bool_name(a->qemu_o_direct), bool_name(b->qemu_o_direct));
    return NULL;
}

/* cache.h */
void
vdc_placement_record(const vdc_placement *pl, const char *source, vdc_target_placement *out)
{
    size_t i, n = pl->ranges ? pl->ranges->len : 0, keep = MIN(n, (size_t)VDC_PLACEMENT_RANGES_MAX);

    vdc_set_str(&out->disk, pl->pos.disk);
    out->rotational = pl->pos.rotational < 0 ? VDC_BOOL_ABSENT : pl->pos.rotational;
    out->disk_bytes = pl->pos.disk_bytes ? (int64_t)pl->pos.disk_bytes : VDC_INT_ABSENT;
    out->extents = (int64_t)pl->extents;
    out->mapped_bytes = (int64_t)pl->mapped_bytes;
    out->unmapped_bytes = (int64_t)pl->unmapped_bytes;
    out->center_bytes = n ? vdc_ranges_center(pl->ranges) : NAN;
    out->ranges_omitted = n > keep ? (int64_t)(n - keep) : VDC_INT_ABSENT;
    vdc_set_str(&out->source, source);
    if (pl->pos.is_dm)
        vdc_set_str(&out->reason, "the filesystem is on device-mapper: the ranges are on it, "
                                  "not on a disk");
    g_free(out->ranges);
    out->ranges = keep ? g_new(int64_t, 2 * keep) : NULL;
    for (i = 0; i < keep; i++) {
        const vdc_byte_range *r = &g_array_index(pl->ranges, vdc_byte_range, i);

        out->ranges[2 * i] = (int64_t)r->start;
        out->ranges[2 * i + 1] = (int64_t)r->length;
    }
    out->n_ranges = keep;
}

/* ---- one boot ------------------------------------------------------------- */

static const vdc_hv_disk *
disk_of(const vdc_hv_domain *dom, const char *target)
{
    size_t k;

    for (k = 0; k < dom->n_disks; k++)
        if (!dom->disks[k].aux && !strcmp(dom->disks[k].target, target))
            return &dom->disks[k];
    return NULL;
}

static const vdc_xs_vbd *
vbd_of(const vdc_hv_disk_facts *facts, const char *vdev)
{
    guint i;

    for (i = 0; facts->vbds && i < facts->vbds->len; i++) {
        const vdc_xs_vbd *v = g_ptr_array_index(facts->vbds, i);

        if (v->dev && !strcmp(v->dev, vdev))
            return v;
    }
    return NULL;
}

static const vdc_lv_disk *
lvdisk_of(const vdc_hv_disk_facts *facts, const char *vdev)
{
    guint i;

    for (i = 0; facts->disks && i < facts->disks->len; i++) {
        const vdc_lv_disk *d = g_ptr_array_index(facts->disks, i);

        if (d->vdev && !strcmp(d->vdev, vdev))
            return d;
    }
    return NULL;
}

/* The loop device serving image @k: xenstore's node, else (a Xen domU
 * whose backends were not read: libvirt built without libxenstore) the one
 * loop device bound to the image.  A new string, or NULL. */
static char *
loop_of(const vdc_hv_domain *dom, const vdc_hv_disk *k, const vdc_xs_vbd *vbd,
        const vdc_cache_io *io)
{
    g_auto(GStrv) devs = NULL;

    if (k->spec.backing != VDC_BACKING_IMAGE)
        return NULL;
    if (vbd)
        return vbd->node ? g_strdup(vbd->node) : NULL;
    if (strcmp(dom->type, "pv") && strcmp(dom->type, "xen"))
        return NULL;
    if (k->spec.backend == VDC_BACKEND_QDISK || !io->loop_find || io->loop_find(k->path, &devs) < 0)
        return NULL;
    return devs && devs[0] && !devs[1] ? g_strdup(devs[0]) : NULL;
}

/* cache.h */
void
vdc_cache_boot(const vdc_plan *p, const vdc_hv_domain *dom, const vdc_hv_disk_facts *facts,
               const vdc_cache_io *io, vdc_target_cache *now, int *read, char **fail)
{
    size_t i;

    if (!facts->vbds && !facts->disks) {
        /* the driver read nothing: no truth to record, and none cannot be
         * verified */
        for (i = 0; i < p->n_targets; i++)
            if (vdc_target_spec_domu_image(&p->targets[i].spec) &&
                p->targets[i].spec.cache == VDC_IMAGE_CACHE_NONE && !fail[i]) {
                vdc_error("target %s: --image-cache none refused: the %s driver read back no "
                          "backend facts to verify it (no numbers are reported for it)",
                          p->targets[i].name, dom->type);
                fail[i] = g_strdup("--image-cache none refused: no backend facts to verify it");
            }
        return;
    }
    for (i = 0; i < p->n_targets; i++) {
        const vdc_plan_target *pt = &p->targets[i];
        const vdc_hv_disk *k = pt->spec.where == VDC_WHERE_DOMU ? disk_of(dom, pt->name) : NULL;
        /* the kernel prints a loop device's backing file with symlinks
         * resolved: compare it with the image's real path */
        g_autofree char *real = pt->path ? realpath(pt->path, NULL) : NULL;
        vdc_cache_facts f = { .spec = &pt->spec, .image = real ? real : pt->path };
        vdc_loop_info li = { 0 };
        g_autofree char *loop = NULL;
        g_autofree unsigned *flags = NULL;
        int have_loop = 0;

        if (!k)
            continue;
        f.vbd = vbd_of(facts, k->vdev);
        f.disk = lvdisk_of(facts, k->vdev);
        loop = loop_of(dom, k, f.vbd, io);
        if (loop && io->loop_info && io->loop_info(loop, &li) == 0)
            have_loop = 1;
        /* none, where it is the loop device's: set while the domU is paused */
        if (have_loop && dom->start_paused && pt->spec.cache == VDC_IMAGE_CACHE_NONE && !li.dio &&
            io->loop_set_dio) {
            vdc_progress("%s: direct I/O on %s (LOOP_SET_DIRECT_IO) before the domU runs",
                         pt->name, loop);
            if (io->loop_set_dio(loop, 1) == 0) {
                vdc_loop_info_dispose(&li);
                have_loop = io->loop_info(loop, &li) == 0;
            }
        }
        f.loop = have_loop ? &li : NULL;
        f.qemu = k->spec.backing == VDC_BACKING_IMAGE &&
                 ((f.vbd && !strcmp(f.vbd->kind, "qdisk")) ||
                  (!f.vbd && k->spec.backend == VDC_BACKEND_QDISK) ||
                  (strcmp(dom->type, "pv") && strcmp(dom->type, "xen")));
        if (f.qemu && facts->qemu_pid > 0 && io->file_flags) {
            f.qemu_pid = facts->qemu_pid;
            f.qemu_flags_read = io->file_flags(facts->qemu_pid, pt->path, &flags, &f.n_qemu_flags) == 0;
            f.qemu_flags = flags;
        }
        if (vdc_cache_decide(&f, &now[i]) < 0) {
            vdc_error("target %s: --image-cache none refused: %s (no numbers are reported "
                      "for it)", pt->name, now[i].error);
            g_free(fail[i]);
            fail[i] = g_strdup_printf("--image-cache none refused: %s", now[i].error);
        }
        read[i] = 1;
        vdc_loop_info_dispose(&li);
    }
}

/* cache.h */
int
vdc_cache_dom0(const vdc_plan_target *t, const char *dev, const vdc_cache_io *io,
               vdc_target_cache *out)
{
    vdc_loop_info li = { 0 };
    int rc = -1;

    if (t->spec.backing != VDC_BACKING_IMAGE || !io->loop_info || !dev)
        return -1;
    if (io->loop_info(dev, &li) == 0) {
        vdc_cache_facts f = { .spec = &t->spec, .image = t->path, .loop = &li };

        (void)vdc_cache_decide(&f, out);
        rc = 0;
    }
    vdc_loop_info_dispose(&li);
    return rc;
}
