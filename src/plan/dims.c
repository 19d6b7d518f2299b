/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The target matrix's table and what it drives (dims.h). */
#include "config.h"
#include "plan/dims.h"

#include <stdarg.h>
#include <string.h>

#include <glib.h>

#include "common/opts.h"
#include "common/util.h"

#define KIND(b) (1u << (b))
#define DOMU_KINDS (KIND(VDC_BACKING_IMAGE) | KIND(VDC_BACKING_LVM) | KIND(VDC_BACKING_BLOCK))

/* ---- the rows' hooks ------------------------------------------------------ */

static int
dflt_zero(const vdc_plan *p)
{
    return 0;
}

/* libxl: the spec people write in xl.cfg (seed 003), tap:aio:PATH,VDEV,w,
 * which libxl 4.17 serves as it serves a format=raw spec (phy over a loop
 * device: targets[].backend reads back what it chose); libvirt: auto */
static int
dflt_image_backend(const vdc_plan *p)
{
    return p->hv == VDC_HV_LIBXL ? VDC_BACKEND_TAP : VDC_BACKEND_AUTO;
}

static int
domain_is_xen(const vdc_plan *p)
{
    return p->hv == VDC_HV_LIBXL || (p->domain_type && !strcmp(p->domain_type, "xen"));
}

static int
check_image_backend(const vdc_plan *p, const vdc_target_spec *s)
{
    const char *name = vdc_target_name(VDC_DIM_IMAGE_BACKEND, s->backend);

    if (s->backend == VDC_BACKEND_TAP && p->hv == VDC_HV_LIBVIRT) {
        /* translate.c refuses it too, but only once a domain is built */
        vdc_input_error("--image-backend tap: expected --hypervisor libxl (libvirt's libxl driver has no tap backend)");
        return -1;
    }
    if (s->backend != VDC_BACKEND_AUTO && p->hv == VDC_HV_LIBVIRT && !domain_is_xen(p)) {
        vdc_input_error("--image-backend %s: expected auto with a QEMU/KVM domain (phy, qdisk and tap are Xen backends)",
                        name);
        return -1;
    }
    if (s->format == VDC_IMAGE_QCOW2 && s->backend != VDC_BACKEND_QDISK &&
        s->backend != VDC_BACKEND_AUTO && p->hv != VDC_HV_MOCK) {
        vdc_input_error("--image-format qcow2: expected --image-backend qdisk or auto (blkback serves raw only)");
        return -1;
    }
    return 0;
}

/* QEMU's knobs: a QEMU/KVM domain of libvirt (the test driver and the mock
 * describe one too) */
static int
check_qemu(const vdc_plan *p, const char *option, int value, const char *name)
{
    if (value && domain_is_xen(p)) {
        vdc_input_error("--%s %s: expected a QEMU/KVM domain (--hypervisor libvirt --connect qemu:///system): "
                        "it is a setting of QEMU's virtio disks, which a Xen PV domU does not have "
                        "(there --image-backend and --image-cache choose how an image is served)",
                        option, name);
        return -1;
    }
    return 0;
}

static int
check_disk_cache(const vdc_plan *p, const vdc_target_spec *s)
{
    return check_qemu(p, "disk-cache", s->disk_cache, vdc_target_name(VDC_DIM_DISK_CACHE, s->disk_cache));
}

static int
check_disk_io(const vdc_plan *p, const vdc_target_spec *s)
{
    return check_qemu(p, "disk-io", s->disk_io, vdc_target_name(VDC_DIM_DISK_IO, s->disk_io));
}

static int
check_iothreads(const vdc_plan *p, const vdc_target_spec *s)
{
    return check_qemu(p, "iothreads", s->iothreads, vdc_target_name(VDC_DIM_IOTHREADS, s->iothreads));
}

static int
check_disk_bus(const vdc_plan *p, const vdc_target_spec *s)
{
    return check_qemu(p, "disk-bus", s->disk_bus, vdc_target_name(VDC_DIM_DISK_BUS, s->disk_bus));
}

/* "this QEMU (/usr/bin/qemu-system-x86_64 7.2.22)" */
static char *
qemu_name(const vdc_hv_build *b)
{
    return g_strdup_printf("this QEMU (%s%s%s)", b->qemu.binary ? b->qemu.binary : "?",
                           b->qemu_version ? " " : "", b->qemu_version ? b->qemu_version : "");
}

static char *
libvirt_name(const vdc_hv_build *b)
{
    unsigned long v = b->libvirt_version;

    return g_strdup_printf("this libvirt (%lu.%lu.%lu)", v / 1000000, v / 1000 % 1000, v % 1000);
}

static int
build_disk_io(const vdc_plan *p, int v, const vdc_hv_build *b)
{
    g_autofree char *q = qemu_name(b);

    if (v == VDC_DISK_IO_IO_URING && b->libvirt_version && b->libvirt_version < 6003000) {
        g_autofree char *l = libvirt_name(b);

        vdc_input_error("--disk-io io_uring: %s has no io='io_uring' (libvirt 6.3.0 added it)", l);
        return -1;
    }
    if (v == VDC_DISK_IO_IO_URING && b->qemu.io_uring == VDC_QEMU_CAN_NOT) {
        vdc_input_error("--disk-io io_uring: %s cannot: it says \"%s\"", q,
                        b->qemu.io_uring_said ? b->qemu.io_uring_said : "no io_uring");
        return -1;
    }
    if (v == VDC_DISK_IO_NATIVE && b->qemu.aio_native == VDC_QEMU_AIO_MISSING) {
        vdc_input_error("--disk-io native: %s was built without Linux native AIO: it says \"%s\"", q,
                        b->qemu.aio_native_said ? b->qemu.aio_native_said : "not supported");
        return -1;
    }
    return 0;
}

static int
build_iothreads(const vdc_plan *p, int v, const vdc_hv_build *b)
{
    int n = v - 1;

    if (n >= 1 && b->caps.iothreads == 0) {
        vdc_input_error("--iothreads %d: expected 0: libvirt's domain capabilities for %s say "
                        "<iothreads supported='no'>", n, b->caps.emulator ? b->caps.emulator : "QEMU");
        return -1;
    }
    if (n >= 2 && ((b->libvirt_version && b->libvirt_version < 10000000) ||
                   b->qemu.vq_mapping == VDC_QEMU_CAN_NOT)) {
        g_autofree char *q = qemu_name(b);
        g_autofree char *l = libvirt_name(b);
        GString *why = g_string_new(NULL);

        if (b->qemu.vq_mapping == VDC_QEMU_CAN_NOT)
            g_string_append_printf(why, "; %s has no iothread-vq-mapping (-device virtio-blk-pci,help)", q);
        if (b->libvirt_version && b->libvirt_version < 10000000)
            g_string_append_printf(why, "; %s is older than 10.0", l);
        vdc_input_error("--iothreads %d: expected 0 or 1 with this build: a disk's virtqueues on %d I/O "
                        "threads need QEMU 9.0's iothread-vq-mapping and libvirt 10.0's <iothreads> in "
                        "<driver>%s", n, n, why->str);
        g_string_free(why, TRUE);
        return -1;
    }
    return 0;
}

static int
build_disk_bus(const vdc_plan *p, int v, const vdc_hv_build *b)
{
    if (v != VDC_DISK_BUS_VIRTIO_SCSI)
        return 0;
    if (vdc_domcaps_has_bus(&b->caps, "scsi") == 0 || b->qemu.virtio_scsi == VDC_QEMU_CAN_NOT) {
        g_autofree char *q = qemu_name(b);

        vdc_input_error("--disk-bus virtio-scsi: %s: %s", q,
                        b->qemu.virtio_scsi == VDC_QEMU_CAN_NOT ? "-device help lists no virtio-scsi-pci"
                                                                : "libvirt's domain capabilities list no scsi bus");
        return -1;
    }
    return 0;
}

/* ---- storage variants and aging --------------------------------------------- */

static char drop_why[256];

int
vdc_dim_drop(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    g_vsnprintf(drop_why, sizeof(drop_why), fmt, ap);
    va_end(ap);
    return 1;
}

/* qcow2's metadata preallocation has no raw counterpart: that cell is no
 * target (--image-format raw,qcow2 --image-alloc sparse,metadata makes
 * three) */
static int
check_image_alloc(const vdc_plan *p, const vdc_target_spec *s)
{
    if (s->alloc == VDC_IMAGE_METADATA && s->format != VDC_IMAGE_QCOW2)
        return vdc_dim_drop("metadata is qcow2's preallocation; a raw image has none");
    return 0;
}

/* the LV's type: striped when --stripes 2 or more was given (as before
 * --lv-type), else linear */
static int
dflt_lv_type(const vdc_plan *p)
{
    return p->stripes > 1 ? VDC_LV_STRIPED : VDC_LV_LINEAR;
}

static int
check_lv_type(const vdc_plan *p, const vdc_target_spec *s)
{
    if (s->lv_type == VDC_LV_STRIPED && p->stripes < 2) {
        vdc_input_error("--lv-type striped: expected --stripes N with N >= 2 as well");
        return -1;
    }
    if (s->lv_type == VDC_LV_THIN && s->precondition == VDC_PRECONDITION_ON)
        return vdc_dim_drop("a preconditioned thin LV has every chunk allocated: its first-write "
                            "pass would measure overwrites");
    return 0;
}

/* not given: 0 % (the value 1), which names no target */
static int
dflt_fill(const vdc_plan *p)
{
    return 1;
}

/* a fill needs a pass on the filesystem; a precondition the raw pass */
static int
check_fill(const vdc_plan *p, const vdc_target_spec *s)
{
    if (vdc_target_fill_percent(s) && !p->bonnie && !p->workload_file) {
        vdc_input_error("--fill %d: expected a pass on the filesystem (the bonnie++ tests, or "
                        "--workload-on file): a fill ages the filesystem the tests run on",
                        vdc_target_fill_percent(s));
        return -1;
    }
    return 0;
}

static int
check_precondition(const vdc_plan *p, const vdc_target_spec *s)
{
    if (s->precondition == VDC_PRECONDITION_ON && !p->workload_raw) {
        vdc_input_error("--precondition on: expected --workload-on raw as well (the target's "
                        "device is preconditioned before its raw workload pass)");
        return -1;
    }
    return 0;
}

/* short names (target names), by value; value 0 is each one's "not given" */
static const char *const image_cache_short[] = { "", "nocache" };
static const char *const disk_cache_short[] = { "", "none", "wb", "ds", "wt" };
static const char *const disk_io_short[] = { "", "native", "uring", "threads" };
static const char *const disk_bus_short[] = { "", "blk", "scsi" };
static const char *const image_format_short[] = { "", "qcow2" };
static const char *const image_alloc_short[] = { "", "falloc", "full", "meta" };
static const char *const lv_type_short[] = { "", "striped", "thin" };
static const char *const precondition_short[] = { "", "pre" };

/* ---- the table ------------------------------------------------------------ */

const vdc_dimension vdc_dimensions[] = {
    { .dim = VDC_DIM_IMAGE_FORMAT, .option = "image-format", .key = "image_format",
      .kinds = KIND(VDC_BACKING_IMAGE), .choices = "raw|qcow2", .short_names = image_format_short,
      .def = "raw",
      .help = "format of the domU's scratch image, read back from the image (qemu-img info); "
              "a comma list runs each as its own target",
      .orphan = "--image as well (the dom0 baseline's image is always raw)", .dflt = dflt_zero },
    { .dim = VDC_DIM_IMAGE_ALLOC, .option = "image-alloc", .key = "image_alloc",
      .kinds = KIND(VDC_BACKING_IMAGE), .choices = "sparse|falloc|full|metadata",
      .short_names = image_alloc_short, .def = "sparse",
      .help = "allocation of the scratch image: sparse, falloc (blocks reserved), full (written), "
              "metadata (qcow2 only: preallocation=metadata); read back (qemu-img map, FIEMAP); "
              "a comma list runs each as its own target where the format allows it",
      .orphan = "an image target as well (--image, or --dom0 on an image)",
      .dflt = dflt_zero, .check = check_image_alloc },
    { .dim = VDC_DIM_IMAGE_BACKEND, .option = "image-backend", .kinds = KIND(VDC_BACKING_IMAGE),
      .choices = "auto|phy|qdisk|tap", .def = "tap with libxl, auto with libvirt",
      .help = "how the domU's image disk is served; a comma list runs each as its own target",
      .orphan = "--image as well", .dflt = dflt_image_backend, .check = check_image_backend },
    { .dim = VDC_DIM_IMAGE_CACHE, .option = "image-cache", .kinds = KIND(VDC_BACKING_IMAGE),
      .choices = "host|none", .short_names = image_cache_short, .def = "host",
      .help = "may dom0's page cache serve the domU's image (host: the backend's default) or not (none: direct I/O on its loop device, direct-io-safe, cache='none'), verified after boot; a comma list runs each as its own target",
      .orphan = "--image as well (the dom0 baseline's image always has its own loop device with direct I/O)",
      .dflt = dflt_zero },
    { .dim = VDC_DIM_DISK_CACHE, .option = "disk-cache", .kinds = DOMU_KINDS,
      .choices = "none|writeback|directsync|writethrough", .short_names = disk_cache_short,
      .def = "image: by --image-cache; LV, block: none",
      .help = "QEMU's cache mode of every domU target disk (image and LV alike; libvirt <driver cache=>), "
              "read back from the live XML and QEMU (query-block); QEMU/KVM only; a comma list runs each as its own target",
      .orphan = "a domU target as well (--image, --lvm, --block, --target)",
      .dflt = dflt_zero, .check = check_disk_cache },
    { .dim = VDC_DIM_DISK_IO, .option = "disk-io", .kinds = DOMU_KINDS,
      .choices = "native|io_uring|threads", .short_names = disk_io_short,
      .def = "image: by --image-cache; LV, block: native",
      .help = "QEMU's I/O mode of every domU target disk (<driver io=>, QEMU aio=; native needs --disk-cache none or directsync), "
              "read back from the live XML and QEMU's own command line, refused when this QEMU cannot do it; a comma list runs each as its own target",
      .orphan = "a domU target as well (--image, --lvm, --block, --target)",
      .dflt = dflt_zero, .check = check_disk_io, .build_check = build_disk_io },
    { .dim = VDC_DIM_IOTHREADS, .option = "iothreads", .kinds = DOMU_KINDS,
      .choices = "0 to 16", .short_prefix = "it", .numeric = 1, .def = "0 (QEMU's main loop)",
      .help = "I/O threads per domU target disk: 0 (QEMU's main loop), 1 (one of its own), N (its N queues mapped onto N threads: "
              "needs QEMU 9.0 and libvirt 10.0), read back (query-iothreads, qom-get); QEMU/KVM only; a comma list runs each as its own target",
      .orphan = "a domU target as well (--image, --lvm, --block, --target)",
      .dflt = dflt_zero, .check = check_iothreads, .build_check = build_iothreads },
    { .dim = VDC_DIM_DISK_BUS, .option = "disk-bus", .kinds = DOMU_KINDS,
      .choices = "virtio-blk|virtio-scsi", .short_names = disk_bus_short, .def = "virtio-blk",
      .help = "the bus of every domU target disk: virtio-blk, or virtio-scsi (a controller per disk, with the disk's I/O thread), "
              "read back; QEMU/KVM only; a comma list runs each as its own target",
      .orphan = "a domU target as well (--image, --lvm, --block, --target)",
      .dflt = dflt_zero, .check = check_disk_bus, .build_check = build_disk_bus },
    { .dim = VDC_DIM_LV_TYPE, .option = "lv-type", .kinds = KIND(VDC_BACKING_LVM),
      .choices = "linear|striped|thin", .short_names = lv_type_short,
      .def = "linear (striped with --stripes 2 or more)",
      .help = "the kind of the domU's LV: linear, striped (over --stripes PVs) or thin (a thin LV in a "
              "pool of its own, measured twice: first write and overwrite); read back (lvs); "
              "a comma list runs each as its own target",
      .orphan = "--lvm as well", .dflt = dflt_lv_type, .check = check_lv_type },
    { .dim = VDC_DIM_FILL, .option = "fill", .kinds = DOMU_KINDS,
      .choices = "0 to 95", .short_prefix = "fill", .numeric = 1, .def = "0 (a fresh filesystem)",
      .help = "age each domU target's filesystem before its tests: filled to P % with seeded files, "
              "some deleted again (the free-extent histogram recorded); a comma list (0,50) runs each "
              "as its own target",
      .orphan = "a domU target as well (--image, --lvm, --block, --target)",
      .dflt = dflt_fill, .check = check_fill },
    { .dim = VDC_DIM_PRECONDITION, .option = "precondition", .kinds = DOMU_KINDS,
      .choices = "off|on", .short_names = precondition_short, .boolean = 1, .def = "off",
      .help = "before the raw workload pass, write each domU target's device once sequentially, then "
              "randomly until fio's steady state (--precondition-time); a comma list (off,on) runs each "
              "as its own target",
      .orphan = "a domU target as well (--image, --lvm, --block, --target)",
      .dflt = dflt_zero, .check = check_precondition },
};

const size_t vdc_n_dimensions = G_N_ELEMENTS(vdc_dimensions);

const vdc_dimension *
vdc_dimension_of(vdc_target_dim dim)
{
    size_t i;

    for (i = 0; i < vdc_n_dimensions; i++)
        if (vdc_dimensions[i].dim == dim)
            return &vdc_dimensions[i];
    return NULL;
}

static const vdc_dimension *
by_option(const char *option)
{
    size_t i;

    for (i = 0; i < vdc_n_dimensions; i++)
        if (!strcmp(vdc_dimensions[i].option, option))
            return &vdc_dimensions[i];
    return NULL;
}

/* ---- parsing -------------------------------------------------------------- */

int
vdc_dim_list_parse(const char *option, const char *arg, vdc_dim_list *out)
{
    const vdc_dimension *d = by_option(option);
    g_auto(GStrv) items = NULL;
    size_t i;

    memset(out, 0, sizeof(*out));
    if (!d)
        return -1;
    items = g_strsplit(arg, ",", -1);
    if (g_strv_length(items) > VDC_DIM_VALUES_MAX) {
        vdc_input_error("--%s '%s': %u values: expected at most %d values", d->option, arg,
                        g_strv_length(items), VDC_DIM_VALUES_MAX);
        return -1;
    }
    for (i = 0; items[i]; i++) {
        /* "default" names no value a user asks for */
        int v = strcmp(items[i], "default") ? vdc_target_parse(d->dim, items[i]) : -1;

        if (v < 0) {
            vdc_input_error("--%s '%s': expected a comma list of %s%s", d->option, arg,
                            d->numeric ? "integers from " : "", d->choices);
            return -1;
        }
        out->v[i] = v;
    }
    if (i == 0) {
        vdc_input_error("--%s '%s': expected a comma list of %s%s", d->option, arg,
                        d->numeric ? "integers from " : "", d->choices);
        return -1;
    }
    out->n = i;
    for (i = 0; i < out->n; i++) {
        size_t k;

        for (k = i + 1; k < out->n; k++)
            if (out->v[k] == out->v[i]) {
                vdc_input_error("--%s '%s': '%s' given twice: expected each of %s at most once",
                                d->option, arg, vdc_target_name(d->dim, out->v[i]), d->choices);
                memset(out, 0, sizeof(*out));
                return -1;
            }
    }
    return 0;
}

char *
vdc_dim_list_text(const vdc_dimension *d, const vdc_dim_list *l)
{
    GString *s = g_string_new(NULL);
    size_t i;

    for (i = 0; i < l->n; i++)
        g_string_append_printf(s, "%s%s", i ? "," : "", vdc_target_name(d->dim, l->v[i]));
    return g_string_free(s, FALSE);
}

/* the options table's hook (VDC_OPT_CALL) */
static int
opt_parse(void *opts, const vdc_opt *o, const char *arg)
{
    return vdc_dim_list_parse(o->name, arg, (vdc_dim_list *)((char *)opts + o->off));
}

void
vdc_dim_opts(size_t base_off, struct vdc_opt *out)
{
    size_t i;

    for (i = 0; i < vdc_n_dimensions; i++) {
        const vdc_dimension *d = &vdc_dimensions[i];

        out[i] = (vdc_opt){
            .name = d->option, .type = VDC_OPT_CALL,
            .off = base_off + (size_t)d->dim * sizeof(vdc_dim_list),
            .metavar = d->numeric ? "N,..." : d->choices, .def = d->def, .help = d->help,
            .parse = opt_parse,
        };
    }
}

/* ---- the matrix ----------------------------------------------------------- */

size_t
vdc_dim_values(const vdc_dimension *d, const vdc_plan *p, const vdc_dim_list *given, int *values)
{
    const vdc_dim_list *l = &given[d->dim];
    size_t i;

    if (!l->n) {
        values[0] = d->dflt(p);
        return 1;
    }
    for (i = 0; i < l->n && i < VDC_DIM_VALUES_MAX; i++)
        values[i] = l->v[i];
    return i;
}

int
vdc_dim_in_variant(const vdc_dimension *d, const vdc_plan *p, vdc_backing backing)
{
    return (d->kinds & KIND(backing)) && p->dims[d->dim].n > 0;
}

JsonNode *
vdc_dim_variant_json(const vdc_plan *p, const vdc_plan_target *t)
{
    JsonObject *o = NULL;
    JsonNode *n;
    size_t i;

    for (i = 0; i < vdc_n_dimensions; i++) {
        const vdc_dimension *d = &vdc_dimensions[i];
        int v = vdc_target_spec_get(&t->spec, d->dim);

        if (t->spec.where != VDC_WHERE_DOMU || !vdc_dim_in_variant(d, p, t->spec.backing))
            continue;
        if (!o)
            o = json_object_new();
        if (d->numeric)
            json_object_set_int_member(o, vdc_dim_key(d), v - 1);   /* stored as the number + 1 */
        else if (d->boolean)
            json_object_set_boolean_member(o, vdc_dim_key(d), v != 0);
        else
            json_object_set_string_member(o, vdc_dim_key(d), vdc_target_name(d->dim, v));
    }
    if (!o)
        return NULL;
    n = json_node_new(JSON_NODE_OBJECT);
    json_node_take_object(n, o);
    return n;
}

int
vdc_dim_check_combination(const vdc_plan *p, const vdc_target_spec *s)
{
    vdc_disk_cache cache = vdc_target_qemu_cache(s);

    if (p->dims[VDC_DIM_IMAGE_CACHE].n && p->dims[VDC_DIM_DISK_CACHE].n) {
        vdc_input_error("--image-cache with --disk-cache: expected one of them (with a QEMU/KVM domain "
                        "--image-cache none is --disk-cache none --disk-io native)");
        return -1;
    }
    if (s->disk_bus == VDC_DISK_BUS_VIRTIO_SCSI && vdc_target_iothreads(s) >= 2) {
        vdc_input_error("--iothreads %d with --disk-bus virtio-scsi: expected 0 or 1 (a virtio-scsi "
                        "controller serves its disk from one I/O thread)", vdc_target_iothreads(s));
        return -1;
    }
    if (vdc_target_qemu_io(s) == VDC_DISK_IO_NATIVE &&
        (cache == VDC_DISK_CACHE_WRITEBACK || cache == VDC_DISK_CACHE_WRITETHROUGH) && !s->disk_cache) {
        /* the cache no option named: an image through the host's page cache */
        vdc_input_error("--disk-io native: expected --disk-cache none or directsync as well (or "
                        "--image-cache none): without them an image target is served through the "
                        "host's page cache (--image-cache host, the default: QEMU's cache=%s), and "
                        "aio=native needs O_DIRECT (libvirt refuses it: \"io='native' needs either no "
                        "disk cache or directsync cache mode\")", vdc_target_name(VDC_DIM_DISK_CACHE, cache));
        return -1;
    }
    if (vdc_target_qemu_io(s) == VDC_DISK_IO_NATIVE &&
        (cache == VDC_DISK_CACHE_WRITEBACK || cache == VDC_DISK_CACHE_WRITETHROUGH)) {
        vdc_input_error("--disk-io native with --disk-cache %s: expected --disk-cache none or directsync "
                        "(QEMU's aio=native needs O_DIRECT, cache.direct=on; libvirt refuses it: "
                        "\"io='native' needs either no disk cache or directsync cache mode\")",
                        vdc_target_name(VDC_DIM_DISK_CACHE, cache));
        return -1;
    }
    return 0;
}

long
vdc_dim_variants(const vdc_plan *p, const vdc_dim_list *given, const vdc_target_spec *base,
                 vdc_target_spec *out, size_t max, GPtrArray *dropped)
{
    const vdc_dimension *dims[VDC_DIM_COUNT];
    int values[VDC_DIM_COUNT][VDC_DIM_VALUES_MAX];
    size_t n[VDC_DIM_COUNT], idx[VDC_DIM_COUNT] = { 0 }, nd = 0, i;
    long count = 0;
    g_autofree char *first_drop = NULL;

    for (i = 0; i < vdc_n_dimensions; i++)
        if (vdc_dimensions[i].kinds & KIND(base->backing)) {
            dims[nd] = &vdc_dimensions[i];
            n[nd] = vdc_dim_values(dims[nd], p, given, values[nd]);
            nd++;
        }
    for (;;) {
        vdc_target_spec s = *base;
        size_t k;
        int r = 0;

        for (k = 0; k < nd; k++)
            vdc_target_spec_set(&s, dims[k]->dim, values[k][idx[k]]);
        for (k = 0; k < nd && r == 0; k++)
            if (dims[k]->check && (r = dims[k]->check(p, &s)) < 0)
                return -1;
        if (r == 0 && vdc_dim_check_combination(p, &s) < 0)
            return -1;
        if (r > 0) {
            /* no cell of the matrix: named, with its reason */
            g_autofree char *name = vdc_dim_target_name(vdc_target_name(VDC_DIM_BACKING, s.backing),
                                                        p, &s);

            if (!first_drop)
                first_drop = g_strdup_printf("%s: %s", name, drop_why);
            if (dropped)
                g_ptr_array_add(dropped, g_strdup_printf("%s: %s", name, drop_why));
        } else {
            if ((size_t)count < max)
                out[count] = s;
            count++;
        }
        /* the next cell: the last dimension fastest */
        for (k = nd; k-- > 0;) {
            if (++idx[k] < n[k])
                break;
            idx[k] = 0;
        }
        if (k == (size_t)-1)
            break;
    }
    if (!count && first_drop) {
        vdc_input_error("the matrix has no %s target left: %s", vdc_target_name(VDC_DIM_BACKING,
                                                                                 base->backing),
                        first_drop);
        return -1;
    }
    return count;
}

const char *
vdc_dim_key(const vdc_dimension *d)
{
    return d->key ? d->key : vdc_target_dim_key(d->dim);
}

char *
vdc_dim_target_name(const char *base, const vdc_plan *p, const vdc_target_spec *s)
{
    GString *name = g_string_new(base);
    size_t i;

    for (i = 0; i < vdc_n_dimensions; i++) {
        const vdc_dimension *d = &vdc_dimensions[i];
        int v = vdc_target_spec_get(s, d->dim);
        const char *part;

        if (!(d->kinds & KIND(s->backing)) || v == d->dflt(p))
            continue;
        if (d->numeric) {
            g_string_append_printf(name, "-%s%s", d->short_prefix ? d->short_prefix : "",
                                   vdc_target_name(d->dim, v));
            continue;
        }
        part = d->short_names ? d->short_names[v] : vdc_target_name(d->dim, v);
        if (part && *part)
            g_string_append_printf(name, "-%s", part);
    }
    return g_string_free(name, FALSE);
}

int
vdc_dim_check_build(const vdc_plan *p, const vdc_hv_build *b)
{
    size_t i, k;

    if (!b->known)
        return 0;
    for (i = 0; i < vdc_n_dimensions; i++) {
        const vdc_dimension *d = &vdc_dimensions[i];

        for (k = 0; d->build_check && k < p->dims[d->dim].n; k++)
            if (d->build_check(p, p->dims[d->dim].v[k], b) < 0)
                return -1;
    }
    return 0;
}

char *
vdc_dim_matrix_text(const vdc_plan *p)
{
    GString *s = g_string_new(NULL);
    size_t i;

    for (i = 0; i < vdc_n_dimensions; i++) {
        const vdc_dimension *d = &vdc_dimensions[i];

        if (p->dims[d->dim].n > 1)
            g_string_append_printf(s, "%s--%s %zu", s->len ? " x " : "", d->option, p->dims[d->dim].n);
    }
    return g_string_free(s, FALSE);
}
