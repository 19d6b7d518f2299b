/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The plan from the options and the host's facts (build.h).  Every refusal
 * here is bad input (vdc_input_error: exit 2). */
#include "config.h"
#include "plan/build.h"

#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "guest/prepare.h"
#include "model/result.h"
#include "plan/dims.h"
#include "storage/storage.h"
#include "plan/levels.h"
#include "stats/paired.h"

/* vdevs: Xen PV guests see xvdX, virtio guests vdX. */
static char *
vdev_name(const char *prefix, unsigned index)
{
    return g_strdup_printf("%s%c", prefix, 'a' + index);
}

static uint64_t
round_up_mib(uint64_t b)
{
    return (b + (1ULL << 20) - 1) & ~((1ULL << 20) - 1);
}

/* @bytes rounded up to whole extents (x @stripes) of a VG with @extent */
static uint64_t
round_up_extents(uint64_t bytes, uint64_t extent, unsigned stripes)
{
    uint64_t unit = extent * (stripes > 1 ? stripes : 1);

    return unit ? (bytes + unit - 1) / unit * unit : bytes;
}

/* The VG for the plan's LVs (@lv[0..@n_lv) bytes, @stripes each) when no
 * --vg names one (build.h): *@vg points into @h->vgs.  @opt names the
 * option that needs it.  0, or -1 after one vdc_input_error. */
static int
choose_vg(const vdc_run_opts *o, const vdc_host_defaults *h, const char *opt,
          const uint64_t *lv, size_t n_lv, vdc_plan *p, const char **vg)
{
    unsigned stripes = o->stripes > 1 ? o->stripes : 1;
    const vdc_vg_fact *best = NULL, *roomiest = NULL, *tie = NULL;
    uint64_t best_need = 0, roomiest_need = 0;
    g_autoptr(GString) all = g_string_new(NULL);
    size_t i, k;

    if (!h->xen_control_d && !o->hypervisor && !o->connect) {
        vdc_input_error("%s: expected --vg VG (a VG is chosen only in a Xen dom0 or with --hypervisor: "
                        "this host is not a Xen dom0)", opt);
        return -1;
    }
    if (!h->vgs_listed || h->vgs_error) {
        vdc_input_error("%s: expected --vg VG (the host's VGs could not be listed: %s)", opt,
                        h->vgs_error ? h->vgs_error : "not looked up");
        return -1;
    }
    if (h->n_vgs == 0) {
        vdc_input_error("%s: expected --vg VG: this host has no LVM volume group", opt);
        return -1;
    }
    for (i = 0; i < h->n_vgs; i++) {
        const vdc_vg_fact *v = &h->vgs[i];
        uint64_t need = 0;

        for (k = 0; k < n_lv; k++)
            need += round_up_extents(lv[k], v->extent_size, stripes);
        g_string_append_printf(all, "%s%s %" G_GUINT64_FORMAT " MiB free", i ? ", " : "", v->name,
                               (guint64)(v->free >> 20));
        if (stripes > v->pv_count)
            continue;
        if (!roomiest || v->free > roomiest->free) {
            roomiest = v;
            roomiest_need = need;
        }
        if (need > v->free)
            continue;
        if (!best || v->free > best->free) {
            best = v;
            best_need = need;
            tie = NULL;
        } else if (v->free == best->free) {
            tie = v;
        }
    }
    if (!best) {
        if (!roomiest)
            vdc_input_error("%s: expected --vg VG: no VG has the %u PVs --stripes %u needs (%s)", opt,
                            stripes, stripes, all->str);
        else {
            char f[32], n[32], d[32];

            vdc_input_error("%s: expected --vg VG: no VG holds the plan's LVs (VG %s has the most "
                            "free space, %s; they need %s, %s more): name a VG, or give a smaller --size",
                            opt, roomiest->name, vdc_fmt_bytes(f, sizeof(f), roomiest->free),
                            vdc_fmt_bytes(n, sizeof(n), roomiest_need),
                            vdc_fmt_bytes(d, sizeof(d), roomiest_need - roomiest->free));
        }
        return -1;
    }
    if (tie) {
        char f[32];

        vdc_input_error("%s: expected --vg VG: VGs %s and %s both have the most free space "
                        "(%s): name one", opt, best->name, tie->name, vdc_fmt_bytes(f, sizeof(f), best->free));
        return -1;
    }
    vdc_plan_add_choice(p, "--vg", best->name,
                        "the VG with the most free space that holds the plan's LVs (%" G_GUINT64_FORMAT
                        " MiB together; VGs: %s)", (guint64)((best_need + (1ULL << 20) - 1) >> 20), all->str);
    *vg = best->name;
    return 0;
}

/* --connect: a libvirt URI of a driver whose domains the run can describe
 * (DRIVER[+TRANSPORT]://[HOST]/PATH, DRIVER xen, qemu or test): a bogus one
 * is bad input here, not a connection failure after --out exists.
 * 0, or -1 after one line. */
/* the paths each driver takes (libvirt's qemu driver: /system, /session,
 * /embed; libxl's: /system or /; test: /default or a file): a URI with
 * another ("qemu:///nosuch") is refused by libvirt at connect time, which
 * would be a runtime failure after --out exists */
static int
uri_path_ok(const char *driver, const char *path, size_t len)
{
    static const struct { const char *driver, *path; } ok[] = {
        { "qemu", "/system" }, { "qemu", "/session" }, { "qemu", "/embed" },
        { "xen", "/system" }, { "xen", "/" }, { "xen", "" }, { "test", "/default" },
    };
    size_t i;

    if (!strcmp(driver, "test") && len > 1 && path[0] == '/')
        return 1;       /* test:///PATH/TO/FILE.xml */
    for (i = 0; i < G_N_ELEMENTS(ok); i++)
        if (!strcmp(ok[i].driver, driver) && strlen(ok[i].path) == len && !strncmp(ok[i].path, path, len))
            return 1;
    return 0;
}

static int
uri_check(const char *uri)
{
    static const char *const drivers[] = { "xen", "qemu", "test" };
    const char *sep = strstr(uri, "://");
    size_t n = sep ? strcspn(uri, "+:") : 0, i;

    for (i = 0; sep && i < G_N_ELEMENTS(drivers); i++)
        if (strlen(drivers[i]) == n && !strncmp(uri, drivers[i], n) && sep[3] != '\0' &&
            !strpbrk(uri, " \t\n")) {
            const char *path = sep + 3 + strcspn(sep + 3, "/?");  /* after [HOST] */

            if (uri_path_ok(drivers[i], path, strcspn(path, "?")))
                return 0;
            break;
        }
    vdc_input_error("--connect '%s': expected a libvirt URI of the xen, qemu or test driver "
                    "(xen:///system, qemu:///system, qemu+ssh://HOST/system, test:///default)", uri);
    return -1;
}

/* --guest-memory against the guest's stated minimum, its manifest's [boot]
 * min_memory_mib: a domU given less does not boot (its kernel does not fit
 * or its initramfs runs out of memory).  With --kernel the manifest's kernel
 * is not the one booted: nothing to check.  A manifest that is missing or
 * unreadable is named by the run's input checks. */
static int
check_guest_memory(const vdc_plan *p)
{
    const char *img = p->prepared_image ? p->prepared_image : p->guest_image;
    g_autofree char *manifest = img ? g_strconcat(img, ".manifest", NULL) : NULL;
    struct vdc_prepared m;
    int rc = 0;

    if (!img || p->kernel || !g_file_test(manifest, G_FILE_TEST_IS_REGULAR))
        return 0;
    if (vdc_template_load(img, &m) < 0)
        return -1;
    if (m.min_memory_mib > 0 && (int64_t)p->memory_mib < m.min_memory_mib) {
        vdc_input_error("--guest-memory %u: the guest %s needs at least %" G_GINT64_FORMAT " MiB "
                        "(its manifest's [boot] min_memory_mib): expected --guest-memory %" G_GINT64_FORMAT
                        " or more", p->memory_mib, img, m.min_memory_mib, m.min_memory_mib);
        rc = -1;
    }
    vdc_prepared_dispose(&m);
    return rc;
}

/* The most variants of one target kind a matrix may make (more is refused
 * by --max-targets long before: it is at most 24). */
#define VDC_MAX_VARIANTS 64

/* Append generated target @t to @p, refusing a name over
 * VDC_PLAN_TARGET_NAME_MAX bytes.  0, or -1 after one line (@t disposed). */
static int
add_generated(vdc_plan *p, vdc_plan_target *t)
{
    if (strlen(t->name) > VDC_PLAN_TARGET_NAME_MAX) {
        vdc_input_error("target %s: expected a name of at most %d bytes: give fewer dimensions",
                        t->name, VDC_PLAN_TARGET_NAME_MAX);
        vdc_plan_target_dispose(t);
        return -1;
    }
    vdc_plan_add_target(p, t);
    return 0;
}

/* The targets the options make, counted before any is made: @n_kind[b]
 * the variants of the domU target of backing b (the image's, the LV's, a
 * block device's), *@n_block_variants those of one block device.  A
 * matrix over block targets needs one --block device per variant (an
 * existing device serves one), and none of --target's named devices;
 * more targets than --max-targets are refused here, before anything is
 * made, with the matrix that made them.  0, or -1 after one line. */
static int
count_targets(const vdc_run_opts *o, const vdc_plan *p, const vdc_target_spec *image_base,
              size_t *n_kind, size_t *n_block_variants)
{
    vdc_target_spec lvm = { .where = VDC_WHERE_DOMU, .backing = VDC_BACKING_LVM };
    vdc_target_spec block = { .where = VDC_WHERE_DOMU, .backing = VDC_BACKING_BLOCK };
    size_t nb = o->blocks ? g_strv_length(o->blocks) : 0;
    size_t nc = o->custom ? g_strv_length(o->custom) : 0, total;
    long n;

    if (o->image) {
        if ((n = vdc_dim_variants(p, p->dims, image_base, NULL, 0, NULL)) < 0)
            return -1;
        n_kind[VDC_BACKING_IMAGE] = (size_t)n;
    }
    if (o->lvm) {
        if ((n = vdc_dim_variants(p, p->dims, &lvm, NULL, 0, NULL)) < 0)
            return -1;
        n_kind[VDC_BACKING_LVM] = (size_t)n;
    }
    if (nb || nc) {
        if ((n = vdc_dim_variants(p, p->dims, &block, NULL, 0, NULL)) < 0)
            return -1;
        *n_block_variants = (size_t)n;
        if (n > 1 && nc) {
            vdc_input_error("--target %s: expected no --target with a matrix over block devices "
                            "(%ld variants: give --block DEV once per variant)", o->custom[0], n);
            return -1;
        }
        if (n > 1 && (size_t)n != nb) {
            g_autofree char *m = vdc_dim_matrix_text(p);

            vdc_input_error("--block: expected %ld --block devices, one per variant of the block target "
                            "(%s; a device serves one variant), got %zu", n, m, nb);
            return -1;
        }
        n_kind[VDC_BACKING_BLOCK] = n > 1 ? (size_t)n : nb + nc;
    }
    total = n_kind[VDC_BACKING_IMAGE] + n_kind[VDC_BACKING_LVM] + n_kind[VDC_BACKING_BLOCK] +
            (o->dom0 ? 1 : 0);
    if (total > p->max_targets || n_kind[VDC_BACKING_IMAGE] > VDC_MAX_VARIANTS ||
        n_kind[VDC_BACKING_LVM] > VDC_MAX_VARIANTS || *n_block_variants > VDC_MAX_VARIANTS) {
        g_autofree char *m = vdc_dim_matrix_text(p);

        vdc_input_error("the plan makes %zu targets (%zu image, %zu LV, %zu block, %s dom0%s%s): "
                        "expected at most --max-targets %u (a larger N runs them all; each is a "
                        "disk of every boot)", total, n_kind[VDC_BACKING_IMAGE],
                        n_kind[VDC_BACKING_LVM], n_kind[VDC_BACKING_BLOCK], o->dom0 ? "1" : "no",
                        *m ? "; the matrix " : "", m, p->max_targets);
        return -1;
    }
    return 0;
}

/* The disk a domU target gets for a test file of @test bytes: the file,
 * a quarter more and 64 MiB for the filesystem; with a fill, so much more
 * that the file fits beside it (the agent wants it in the (95 - P) % the
 * fill leaves, of a filesystem a little smaller than its disk). */
static uint64_t
domu_disk_bytes(uint64_t test, const vdc_target_spec *s)
{
    uint64_t base = test + test / 4 + (64ULL << 20);
    int fill = vdc_target_fill_percent(s);

    return round_up_mib(fill ? base * 100 / (uint64_t)(90 - MIN(fill, 80)) : base);
}

/* What LV variant @s of @size bytes takes of its VG (a thin LV: its pool,
 * its metadata and the spare; storage/storage.h). */
static uint64_t
lv_need(const vdc_target_spec *s, const vdc_plan *p, uint64_t size)
{
    uint64_t need = size;

    if (s->lv_type == VDC_LV_THIN)
        vdc_thin_pool_size(size, 0, p->thin_chunk_size, NULL, NULL, &need);
    return need;
}

/* 1 when dimension @dim's values in @p (given, else its default) include @v */
static int
dim_has(const vdc_plan *p, vdc_target_dim dim, int v)
{
    const vdc_dimension *d = vdc_dimension_of(dim);
    int values[VDC_DIM_VALUES_MAX];
    size_t i, n = vdc_dim_values(d, p, p->dims, values);

    for (i = 0; i < n; i++)
        if (values[i] == v)
            return 1;
    return 0;
}

/* The storage variants' own options (doc/storage.md) and aging's time:
 * each refused, one line, when no target of the plan takes it. */
static int
storage_options(const vdc_run_opts *o, vdc_plan *p)
{
    int xen = p->hv == VDC_HV_LIBXL || (p->domain_type && !strcmp(p->domain_type, "xen"));

    p->stripes = o->stripes;
    p->qcow2_cluster_size = o->qcow2_cluster_size;
    p->qcow2_l2_cache_size = o->qcow2_l2_cache_size;
    p->thin_chunk_size = o->thin_chunk_size;
    p->thin_zero = !o->thin_zero ? -1 : !strcmp(o->thin_zero, "yes");
    p->precondition_max_s = 1800;
    p->precondition_window_s = 30;
    if (o->precondition_time) {
        unsigned long long m = 0, w = 30;
        char *end = NULL;

        m = g_ascii_strtoull(o->precondition_time, &end, 10);
        if (end && *end == ':')
            w = g_ascii_strtoull(end + 1, &end, 10);
        if (!g_ascii_isdigit(o->precondition_time[0]) || !end || *end || w < 3 || w > 3600 ||
            m > 604800 || m < w + w / 3) {
            vdc_input_error("--precondition-time '%s': expected MAX[:WINDOW] seconds, WINDOW 3 to 3600 "
                            "(default 30) and MAX at least WINDOW and its ramp (WINDOW / 3), at most 604800",
                            o->precondition_time);
            return -1;
        }
        p->precondition_max_s = (unsigned)m;
        p->precondition_window_s = (unsigned)w;
    }
    if ((o->qcow2_cluster_size || o->qcow2_l2_cache_size) &&
        !dim_has(p, VDC_DIM_IMAGE_FORMAT, VDC_IMAGE_QCOW2)) {
        char b[32];

        vdc_input_error("--qcow2-%s %s: expected --image-format qcow2 (among its values)",
                        o->qcow2_cluster_size ? "cluster-size" : "l2-cache-size",
                        vdc_fmt_bytes(b, sizeof(b), o->qcow2_cluster_size ? o->qcow2_cluster_size
                                                                          : o->qcow2_l2_cache_size));
        return -1;
    }
    if (o->qcow2_cluster_size && !vdc_qcow2_cluster_size_ok(o->qcow2_cluster_size)) {
        char b[32];

        vdc_input_error("--qcow2-cluster-size %s: expected a power of two from 512 bytes to 2 MiB",
                        vdc_fmt_bytes(b, sizeof(b), o->qcow2_cluster_size));
        return -1;
    }
    if (o->qcow2_l2_cache_size && xen) {
        char b[32];

        vdc_input_error("--qcow2-l2-cache-size %s: expected a QEMU/KVM domain (libvirt qemu:///system): "
                        "Xen's qdisk takes no qcow2 options from libxl",
                        vdc_fmt_bytes(b, sizeof(b), o->qcow2_l2_cache_size));
        return -1;
    }
    if ((o->thin_chunk_size || o->thin_zero) && !dim_has(p, VDC_DIM_LV_TYPE, VDC_LV_THIN)) {
        char b[32];

        vdc_input_error("--thin-%s %s: expected --lv-type thin (among its values)",
                        o->thin_chunk_size ? "chunk-size" : "zero",
                        o->thin_chunk_size ? vdc_fmt_bytes(b, sizeof(b), o->thin_chunk_size) : o->thin_zero);
        return -1;
    }
    if (o->thin_chunk_size && (o->thin_chunk_size < VDC_THIN_CHUNK_MIN ||
                               (o->thin_chunk_size & (o->thin_chunk_size - 1)))) {
        char b[32];

        vdc_input_error("--thin-chunk-size %s: expected a power of two from 64 KiB to 1 GiB",
                        vdc_fmt_bytes(b, sizeof(b), o->thin_chunk_size));
        return -1;
    }
    if (o->stripes > 1 && p->dims[VDC_DIM_LV_TYPE].n &&
        !dim_has(p, VDC_DIM_LV_TYPE, VDC_LV_STRIPED)) {
        vdc_input_error("--stripes %u: expected --lv-type striped (among its values): the other "
                        "types are not striped", o->stripes);
        return -1;
    }
    return 0;
}

/* --guests against the plan's targets: a level boots copies of a domU
 * target (an image or an LV per guest); a --block device is one device and
 * cannot be copied; --runs auto pairs one guest's runs.  0, or -1 after
 * one vdc_input_error. */
static int
check_guests(const vdc_plan *p)
{
    unsigned max = vdc_plan_max_guests(p);
    size_t i, domu = 0;

    if (!p->guests.n)
        return 0;
    if (p->runs_auto) {
        vdc_input_error("--guests: expected a fixed --runs N (--runs auto decides on one guest's runs)");
        return -1;
    }
    for (i = 0; i < p->n_targets; i++) {
        const vdc_plan_target *t = &p->targets[i];

        if (t->spec.where != VDC_WHERE_DOMU)
            continue;
        domu++;
        if (max > 1 && t->spec.backing == VDC_BACKING_BLOCK) {
            vdc_input_error("--guests %u: target %s is one block device (%s): expected --image or "
                            "--lvm targets (each guest gets its own copy)", max, t->name,
                            t->path ? t->path : "?");
            return -1;
        }
    }
    if (!domu) {
        vdc_input_error("--guests: expected a domU target as well (--image, --lvm)");
        return -1;
    }
    return 0;
}

/* The runs the plan would record, at most: every target's repetitions,
 * a density level's once per guest (plan/levels.h), held to what one
 * result may hold (VDC_RESULT_RUNS_MAX, the loader's limit), so that a
 * run never ends in a result.json it cannot write.  0, or -1 after one
 * vdc_input_error. */
static int
check_run_count(const vdc_plan *p)
{
    uint64_t per_rep = 0, total;
    size_t i, k;

    for (i = 0; i < p->n_targets; i++) {
        uint64_t guests = 0;

        if (p->guests.n && p->targets[i].spec.where == VDC_WHERE_DOMU)
            for (k = 0; k < p->guests.n; k++)
                guests += (uint64_t)p->guests.v[k];
        per_rep += guests ? guests : 1;
    }
    total = per_rep * (uint64_t)p->runs;
    if (total > VDC_RESULT_RUNS_MAX) {
        vdc_input_error("--runs %u: %u target(s)%s make %" G_GUINT64_FORMAT " runs: expected at most %d "
                        "in one result (fewer repetitions, targets or levels)", p->runs,
                        (unsigned)p->n_targets, p->guests.n ? " at their --guests levels" : "",
                        total, VDC_RESULT_RUNS_MAX);
        return -1;
    }
    return 0;
}

int
vdc_plan_build(const vdc_run_opts *o, const vdc_host_defaults *h,
               const char *command_line, vdc_plan *p)
{
    const char *vprefix;
    unsigned vindex = 1;   /* vda/xvda is the root disk */
    uint64_t guest_test, dom0_test, lv_size;
    const char *image_dir = o->image_dir ? o->image_dir : "/var/lib/vmdiskcmp";
    /* the dom0 baseline goes on an LV when a VG is named or the domU has one */
    const char *dom0_on_s = o->dom0_on ? o->dom0_on : o->vg || o->lvm ? "lvm" : "image";
    int dom0_lvm = o->dom0 && vdc_target_parse(VDC_DIM_BACKING, dom0_on_s) == VDC_BACKING_LVM;
    const char *vg = o->vg;
    g_autofree char *lv_id = h->suffix ? g_strdup_printf("%s-%s", h->date_id, h->suffix)
                                       : g_strdup(h->date_id);
    vdc_target_spec image_base = { .where = VDC_WHERE_DOMU, .backing = VDC_BACKING_IMAGE };
    vdc_target_spec block_variants[VDC_MAX_VARIANTS] = {
        { .where = VDC_WHERE_DOMU, .backing = VDC_BACKING_BLOCK } };
    size_t n_kind[VDC_BACKING_BLOCK + 1] = { 0 }, n_block_variants = 1;
    g_autoptr(GPtrArray) dropped = g_ptr_array_new_with_free_func(g_free);
    size_t i;

    p->id = h->suffix ? g_strdup_printf("%s-%s-%s", h->date_id, h->hostname, h->suffix)
                      : g_strdup_printf("%s-%s", h->date_id, h->hostname);
    p->out_dir = o->out ? g_strdup(o->out) : g_strdup_printf("results/%s", p->id);
    if (command_line && strlen(command_line) > VDC_RESULT_LONG_STRING_MAX) {
        /* experiment.command_line: what a result may hold */
        vdc_input_error("the command line: %zu bytes: expected at most %d (the result records it whole)",
                        strlen(command_line), VDC_RESULT_LONG_STRING_MAX);
        return -1;
    }
    p->command_line = g_strdup(command_line);

    /* hypervisor and domain type */
    if (o->hypervisor)
        p->hv = !strcmp(o->hypervisor, "libxl") ? VDC_HV_LIBXL :
                !strcmp(o->hypervisor, "mock") ? VDC_HV_MOCK : VDC_HV_LIBVIRT;
    else
        p->hv = h->xen_control_d ? VDC_HV_LIBXL : VDC_HV_LIBVIRT;
    if (p->hv == VDC_HV_LIBXL && !o->hypervisor && vdc_run_opts_check_paths(o, 1) < 0)
        return -1;
    if (p->hv == VDC_HV_LIBVIRT) {
        p->uri = g_strdup(o->connect ? o->connect :
                          h->xen_control_d ? "xen:///system" : "qemu:///system");
        if (uri_check(p->uri) < 0)
            return -1;
        if (g_str_has_prefix(p->uri, "xen:"))
            p->domain_type = g_strdup("xen");
        else if (o->accel && !strcmp(o->accel, "tcg"))
            p->domain_type = g_strdup("qemu");
        else
            p->domain_type = g_strdup(g_str_has_prefix(p->uri, "test:") ? "test" : "kvm");
    } else if (p->hv == VDC_HV_LIBXL) {
        if (o->connect) {
            vdc_input_error("--connect %s: expected only with --hypervisor libvirt", o->connect);
            return -1;
        }
        p->domain_type = g_strdup("pv");
    } else {
        p->domain_type = g_strdup("mock");
    }
    /* --accel chooses between QEMU's kvm and tcg: it means nothing to a
     * Xen domain (it used to be ignored there, silently) */
    if (o->accel && (p->hv == VDC_HV_LIBXL || !strcmp(p->domain_type, "xen"))) {
        vdc_input_error("--accel %s: expected only with a QEMU/KVM domain (--connect qemu:///system), "
                        "not with Xen", o->accel);
        return -1;
    }
    vprefix = (p->hv == VDC_HV_LIBXL || (p->domain_type && !strcmp(p->domain_type, "xen")))
              ? "xvd" : "vd";
    p->domain_name = g_strdup_printf("vmdiskcmp-%s", p->id);

    p->guest_image = g_strdup(o->guest_image);
    p->prepared_image = g_strdup(o->prepared_image);
    p->kernel = g_strdup(o->kernel);
    p->initrd = g_strdup(o->initrd);
    p->cmdline = g_strdup(o->cmdline);
    p->memory_mib = o->guest_memory ? o->guest_memory : 512;
    p->vcpus = o->guest_vcpus ? o->guest_vcpus : 1;
    p->root_vdev = vdev_name(vprefix, 0);
    p->mkfs = g_strdup(o->mkfs ? o->mkfs : "ext4");
    p->agent_options = g_strdup(o->agent_options);
    p->agent_ram_mib = o->agent_ram ? o->agent_ram : p->memory_mib;
    if (o->tests) {
        g_auto(GStrv) tests = g_strsplit(o->tests, ",", -1);

        p->bonnie = g_strv_contains((const char *const *)tests, "bonnie");
    } else {
        p->bonnie = 1;
    }
    if (o->workload_on) {
        g_auto(GStrv) on = g_strsplit(o->workload_on, ",", -1);

        p->workload_file = g_strv_contains((const char *const *)on, "file");
        p->workload_raw = g_strv_contains((const char *const *)on, "raw");
    } else {
        p->workload_file = 1;
    }
    /* in a memory cgroup the agent is told its limit: the RAM its page
     * cache may take (the limit read back at the step is recorded) */
    p->dom0_memory_max_mib = o->dom0_memory_max;
    p->blkback[0] = o->blkback_max_ring_page_order ? (int)g_ascii_strtoull(o->blkback_max_ring_page_order, NULL, 10) : -1;
    p->blkback[1] = o->blkback_max_queues ? (int)g_ascii_strtoull(o->blkback_max_queues, NULL, 10) : -1;
    p->dom0_ram_mib = o->dom0_ram ? o->dom0_ram : o->dom0_memory_max ? o->dom0_memory_max : h->ram_mib;
    p->dom0_ram_from = o->dom0_ram ? "--dom0-ram" : o->dom0_memory_max ? "--dom0-memory-max" : "the host's MemTotal";
    p->order = !o->order || !strcmp(o->order, "rotated") ? VDC_ORDER_ROTATED
             : !strcmp(o->order, "grouped") ? VDC_ORDER_GROUPED : VDC_ORDER_INTERLEAVED;
    p->runs_auto = o->runs == VDC_OPT_WORD;
    if (p->runs_auto) {
        p->runs = o->max_runs ? o->max_runs : VDC_RUNS_AUTO_MAX_DEFAULT;
        p->min_runs = VDC_RUNS_AUTO_MIN;
        p->precision_percent = o->precision ? g_ascii_strtod(o->precision, NULL)
                                            : VDC_RUNS_AUTO_PRECISION_DEFAULT;
    } else {
        p->runs = o->runs ? o->runs : 5;
    }
    p->timeout_s = o->timeout ? o->timeout : 3600;
    p->agent_timeout_s = o->agent_timeout ? o->agent_timeout : p->timeout_s;
    p->heartbeat_timeout_s = o->heartbeat_timeout;
    p->keep = o->keep;
    p->drop_caches = !o->no_drop_caches;
    /* TCG guests are emulated too */
    p->emulated = o->emulated || (p->domain_type && !strcmp(p->domain_type, "qemu"));
    if (o->seed)
        p->seed = g_ascii_strtoull(o->seed, NULL, 10);
    else
        p->seed = ((uint64_t)g_random_int() << 32) | g_random_int();

    /* bonnie++ sizing: 2x the RAM the agent is told about */
    guest_test = o->size ? o->size : 2ULL * p->agent_ram_mib << 20;
    dom0_test = o->dom0_size ? o->dom0_size : 2ULL * p->dom0_ram_mib << 20;
    lv_size = o->lv_size;

    memcpy(p->dims, o->dims, sizeof(p->dims));
    p->guests = o->guests;
    p->max_targets = o->max_targets ? o->max_targets : VDC_MAX_TARGETS_DEFAULT;
    if (storage_options(o, p) < 0)
        return -1;
    if (count_targets(o, p, &image_base, n_kind, &n_block_variants) < 0)
        return -1;

    if (!vg && (o->lvm || dom0_lvm)) {
        /* the LVs of the plan, in provisioning order (run.c): one per
         * variant of the lvm target, then the dom0 baseline's */
        g_autofree uint64_t *lv = g_new0(uint64_t, n_kind[VDC_BACKING_LVM] + 1);
        size_t n_lv = 0;

        g_autofree vdc_target_spec *v = g_new0(vdc_target_spec, n_kind[VDC_BACKING_LVM] + 1);
        vdc_target_spec base = { .where = VDC_WHERE_DOMU, .backing = VDC_BACKING_LVM };

        if (o->lvm && vdc_dim_variants(p, p->dims, &base, v, n_kind[VDC_BACKING_LVM], NULL) < 0)
            return -1;
        for (i = 0; o->lvm && i < n_kind[VDC_BACKING_LVM]; i++)
            lv[n_lv++] = lv_need(&v[i], p, lv_size ? lv_size : domu_disk_bytes(guest_test, &v[i]));
        if (dom0_lvm)
            lv[n_lv++] = round_up_mib(dom0_test + dom0_test / 4 + (64ULL << 20));
        if (choose_vg(o, h, o->lvm ? "--lvm" : "--dom0-on lvm", lv, n_lv, p, &vg) < 0)
            return -1;
    }

    if (o->image) {
        g_autofree vdc_target_spec *v = g_new0(vdc_target_spec, n_kind[VDC_BACKING_IMAGE]);
        size_t n = (size_t)vdc_dim_variants(p, p->dims, &image_base, v, n_kind[VDC_BACKING_IMAGE], dropped);

        /* one target per variant: image (the default backend and cache),
         * image-qdisk, image-nocache, image-qdisk-nocache, image-none-uring */
        for (i = 0; i < n; i++) {
            vdc_plan_target t = { .spec = v[i] };

            t.name = vdc_dim_target_name("image", p, &t.spec);
            t.vdev = vdev_name(vprefix, vindex++);
            t.test_bytes = guest_test;
            t.disk_bytes = lv_size ? lv_size : domu_disk_bytes(guest_test, &t.spec);
            t.path = g_strdup_printf("%s/%s-%s.%s", image_dir, p->domain_name, t.name,
                                     vdc_target_name(VDC_DIM_IMAGE_FORMAT, t.spec.format));
            if (add_generated(p, &t) < 0)
                return -1;
        }
    }
    if (o->lvm) {
        vdc_target_spec base = { .where = VDC_WHERE_DOMU, .backing = VDC_BACKING_LVM };
        g_autofree vdc_target_spec *v = g_new0(vdc_target_spec, n_kind[VDC_BACKING_LVM]);
        size_t n = (size_t)vdc_dim_variants(p, p->dims, &base, v, n_kind[VDC_BACKING_LVM], dropped);

        for (i = 0; i < n; i++) {
            vdc_plan_target t = { .spec = v[i] };

            t.name = vdc_dim_target_name("lvm", p, &t.spec);
            t.vdev = vdev_name(vprefix, vindex++);
            t.vg = g_strdup(vg);
            t.lv = g_strdup_printf("vmdiskcmp-%s-%s", lv_id, t.name);
            if (t.spec.lv_type == VDC_LV_STRIPED) {
                t.stripes = o->stripes;
                t.stripe_size = o->stripe_size;
            }
            if (t.spec.lv_type == VDC_LV_THIN)
                t.thin_pool = g_strdup_printf("%s-pool", t.lv);
            t.test_bytes = guest_test;
            t.disk_bytes = lv_size ? lv_size : domu_disk_bytes(guest_test, &t.spec);
            t.path = g_strdup_printf("/dev/%s/%s", t.vg, t.lv);
            if (add_generated(p, &t) < 0)
                return -1;
        }
    }
    if (o->blocks || o->custom) {
        /* an existing device serves one variant: a matrix over block
         * targets takes one --block device per variant (count_targets) */
        vdc_target_spec base = { .where = VDC_WHERE_DOMU, .backing = VDC_BACKING_BLOCK };
        size_t nb = o->blocks ? g_strv_length(o->blocks) : 0;

        if (vdc_dim_variants(p, p->dims, &base, block_variants, G_N_ELEMENTS(block_variants), dropped) < 0)
            return -1;
        for (i = 0; i < nb; i++) {
            vdc_plan_target t = { .spec = block_variants[n_block_variants > 1 ? i : 0] };
            g_autofree char *base_name = i == 0 || n_block_variants > 1
                                         ? g_strdup("block") : g_strdup_printf("block%zu", i + 1);

            t.name = vdc_dim_target_name(base_name, p, &t.spec);
            t.vdev = vdev_name(vprefix, vindex++);
            t.path = g_strdup(o->blocks[i]);
            t.test_bytes = guest_test;
            if (add_generated(p, &t) < 0)
                return -1;
        }
    }
    for (i = 0; o->custom && o->custom[i]; i++) {
        vdc_plan_target t = { .spec = block_variants[0] };
        const char *eq = strchr(o->custom[i], '=');
        size_t k;

        t.name = g_strndup(o->custom[i], (gsize)(eq - o->custom[i]));
        for (k = 0; k < p->n_targets; k++)
            if (!strcmp(p->targets[k].name, t.name) || !strcmp(t.name, "dom0")) {
                vdc_input_error("--target '%s': expected a name not already used", o->custom[i]);
                vdc_plan_target_dispose(&t);
                return -1;
            }
        t.vdev = vdev_name(vprefix, vindex++);
        t.path = g_strdup(eq + 1);
        t.test_bytes = guest_test;
        vdc_plan_add_target(p, &t);
    }
    /* vdevs a..z: root, the targets, the control disk */
    if (vindex > 25) {
        vdc_input_error("too many targets: expected at most 24 domU disks");
        return -1;
    }
    if (o->dom0) {
        vdc_plan_target t = { .spec = { .where = VDC_WHERE_DOM0 } };
        const char *on = dom0_on_s;

        t.name = g_strdup("dom0");
        t.test_bytes = dom0_test;
        if (dom0_lvm) {
            t.spec.backing = VDC_BACKING_LVM;
            t.vg = g_strdup(vg);
            t.lv = g_strdup_printf("vmdiskcmp-%s-dom0", lv_id);
            t.stripes = o->stripes;
            t.stripe_size = o->stripe_size;
            t.path = g_strdup_printf("/dev/%s/%s", t.vg, t.lv);
            t.disk_bytes = round_up_mib(dom0_test + dom0_test / 4 + (64ULL << 20));
        } else if (vdc_target_parse(VDC_DIM_BACKING, on) == VDC_BACKING_IMAGE) {
            /* --image-alloc's first value */
            int alloc = p->dims[VDC_DIM_IMAGE_ALLOC].n ? p->dims[VDC_DIM_IMAGE_ALLOC].v[0]
                                                        : VDC_IMAGE_SPARSE;

            if (alloc == VDC_IMAGE_METADATA) {
                vdc_input_error("--image-alloc metadata: the dom0 baseline's image is raw: expected "
                                "sparse, falloc or full as --image-alloc's first value");
                vdc_plan_target_dispose(&t);
                return -1;
            }
            t.spec.backing = VDC_BACKING_IMAGE;
            t.spec.format = VDC_IMAGE_RAW;
            t.spec.alloc = alloc;
            t.path = g_strdup_printf("%s/%s-dom0.raw", image_dir, p->domain_name);
            t.disk_bytes = round_up_mib(dom0_test + dom0_test / 4 + (64ULL << 20));
        } else if (on[0] == '/') {
            if (!o->consent) {
                vdc_input_error("--dom0-on %s: expected --destroy-data as consent to overwrite the device", on);
                vdc_plan_target_dispose(&t);
                return -1;
            }
            t.spec.backing = VDC_BACKING_BLOCK;
            t.path = g_strdup(on);
        } else {
            vdc_input_error("--dom0-on '%s': expected lvm, image or an absolute device path", on);
            vdc_plan_target_dispose(&t);
            return -1;
        }
        vdc_plan_add_target(p, &t);
    }

    if (vindex > 1) {
        if (p->hv == VDC_HV_NONE) {
            vdc_input_error("domU targets need a hypervisor");
            return -1;
        }
        p->ctl_vdev = vdev_name(vprefix, vindex);
        if (!o->hypervisor && !o->connect)
            vdc_plan_add_choice(p, "--hypervisor", vdc_hv_name(p->hv), "%s",
                                h->xen_control_d ? "this host is a Xen dom0 (/proc/xen/capabilities: control_d)"
                                                 : "this host is not a Xen dom0: libvirt, qemu:///system");
        if (!o->guest_image && !o->prepared_image) {
            const char *where = h->guest_template_where ? h->guest_template_where : "(nowhere)";

            if (h->guest_template) {
                p->guest_image = g_strdup(h->guest_template);
                vdc_plan_add_choice(p, "--guest-image", h->guest_template,
                                    "the installed guest template: the run puts the agent and the runner in "
                                    "with libguestfs on first use and keeps the result in %s (doc/guest-template.md)",
                                    o->cache_dir ? o->cache_dir : VDC_PREPARE_DEFAULT_CACHE);
            } else if (o->dry_run) {
                vdc_plan_add_choice(p, "--guest-image", "(none)",
                                    "no guest template is installed (looked for %s): a run refuses", where);
            } else {
                vdc_input_error("--guest-image: expected a guest template (or --prepared-image) for the domU "
                                "targets: none is installed (looked for %s; `make guest-template` builds one, "
                                "`make install` installs it; doc/guest-template.md)", where);
                return -1;
            }
        }
        if (o->guest_image && o->prepared_image) {
            vdc_input_error("--prepared-image: expected either --guest-image or --prepared-image, not both");
            return -1;
        }
        if (check_guest_memory(p) < 0)
            return -1;
    } else {
        p->hv = VDC_HV_NONE;   /* only dom0: nothing to boot */
        g_clear_pointer(&p->uri, g_free);
    }
    if (dropped->len) {
        g_ptr_array_add(dropped, NULL);
        p->dropped = (char **)g_ptr_array_steal(dropped, NULL);
    }
    p->ctl_disk = g_strdup_printf("%s/control.img", p->out_dir);
    if (p->runs_auto && p->n_targets < 2) {
        /* the rule decides on the headline's pairs: one target has none */
        vdc_input_error("--runs auto: expected two targets or more (with one there is no headline ratio to make precise)");
        return -1;
    }
    if (check_guests(p) < 0 || check_run_count(p) < 0)
        return -1;
    return vdc_plan_schedule(p);
}
