/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the cache truth (src/collect/cache.c): the verdict and the
 * verification of --image-cache none from made-up facts (xenstore
 * backends, live XML disks, loop devices, QEMU's open flags), the change
 * between boots, the placement record, and one boot's cache step with a
 * paused Xen domU whose loop device gets direct I/O through fake readers,
 * recorded by the recorder (collect/recorder.h). */
#include "config.h"

#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "common/util.h"
#include "hv/hv.h"
#include "collect/cache.h"
#include "collect/recorder.h"

static vdc_loop_info
loop(const char *name, const char *file, int dio)
{
    return (vdc_loop_info){ .name = (char *)name, .backing_file = (char *)file, .dio = dio };
}

static vdc_xs_vbd
vbd(const char *kind, const char *dev, const char *node, int dio_safe)
{
    return (vdc_xs_vbd){ .path = (char *)"/local/domain/0/backend/vbd/3/51728", .kind = (char *)kind,
                         .dev = (char *)dev, .node = (char *)node, .direct_io_safe = dio_safe,
                         .physical_device_path = (char *)(node ? node : "/dev/vg/lv") };
}

/* blkback over a loop device (libxl tap:aio:, auto, phy): dio decides */
static void
test_decide_loop(void **state)
{
    vdc_target_spec host = { .backing = VDC_BACKING_IMAGE, .backend = VDC_BACKEND_TAP };
    vdc_target_spec none = host;
    vdc_xs_vbd v = vbd("vbd", "xvdb", "/dev/loop3", -1);
    vdc_loop_info off = loop("loop3", "/srv/i.raw", 0), on = loop("loop3", "/srv/i.raw", 1);
    vdc_loop_info other = loop("loop3", "/srv/other.raw", 1);
    vdc_cache_facts f = { .spec = &host, .image = "/srv/i.raw", .vbd = &v, .loop = &off };
    vdc_target_cache c;

    none.cache = VDC_IMAGE_CACHE_NONE;
    vdc_target_cache_init(&c);
    assert_int_equal(vdc_cache_decide(&f, &c), 0);
    assert_string_equal(c.requested, "host");
    assert_int_equal(c.bypasses_dom0_page_cache, 0);
    assert_string_equal(c.loop_device, "/dev/loop3");
    assert_string_equal(c.loop_backing_file, "/srv/i.raw");
    assert_int_equal(c.loop_dio, 0);
    assert_int_equal(c.loop_offset, 0);
    assert_int_equal(c.direct_io_safe, VDC_BOOL_ABSENT);
    assert_string_equal(c.source, "xenstore,sysfs");
    assert_null(c.error);
    vdc_target_cache_dispose(&c);

    /* none with dio 0: refused, naming the fact */
    f.spec = &none;
    assert_int_equal(vdc_cache_decide(&f, &c), -1);
    assert_non_null(strstr(c.error, "/dev/loop3 reads back dio 0"));
    vdc_target_cache_dispose(&c);

    /* none with dio 1 on the image: verified */
    f.loop = &on;
    assert_int_equal(vdc_cache_decide(&f, &c), 0);
    assert_string_equal(c.requested, "none");
    assert_int_equal(c.bypasses_dom0_page_cache, 1);
    assert_int_equal(c.loop_dio, 1);
    vdc_target_cache_dispose(&c);

    /* a loop device over another file: refused */
    f.loop = &other;
    assert_int_equal(vdc_cache_decide(&f, &c), -1);
    assert_non_null(strstr(c.error, "serves /srv/other.raw, not the image /srv/i.raw"));
    vdc_target_cache_dispose(&c);

    /* nothing found serving it */
    f.loop = NULL;
    f.vbd = NULL;
    assert_int_equal(vdc_cache_decide(&f, &c), -1);
    assert_non_null(strstr(c.error, "neither a loop device nor a QEMU"));
    vdc_target_cache_dispose(&c);
}

/* qdisk: direct-io-safe and QEMU's O_DIRECT */
static void
test_decide_qdisk(void **state)
{
    vdc_target_spec none = { .backing = VDC_BACKING_IMAGE, .backend = VDC_BACKEND_QDISK,
                             .cache = VDC_IMAGE_CACHE_NONE };
    vdc_target_spec host = none;
    vdc_xs_vbd safe = vbd("qdisk", "xvdc", NULL, 1), unsafe = vbd("qdisk", "xvdc", NULL, -1);
    unsigned direct[] = { O_RDWR | O_DIRECT, O_RDONLY | O_DIRECT }, buffered[] = { O_RDWR, O_RDWR | O_DIRECT };
    vdc_cache_facts f = { .spec = &none, .image = "/srv/q.raw", .vbd = &safe, .qemu = 1,
                          .qemu_pid = 4242, .qemu_flags_read = 1, .qemu_flags = direct, .n_qemu_flags = 2 };
    vdc_target_cache c;

    host.cache = VDC_IMAGE_CACHE_HOST;
    vdc_target_cache_init(&c);
    assert_int_equal(vdc_cache_decide(&f, &c), 0);
    assert_int_equal(c.bypasses_dom0_page_cache, 1);
    assert_int_equal(c.direct_io_safe, 1);
    assert_int_equal(c.qemu_pid, 4242);
    assert_int_equal(c.qemu_o_direct, 1);
    assert_string_equal(c.source, "xenstore,fdinfo");
    vdc_target_cache_dispose(&c);

    /* one descriptor without O_DIRECT: not bypassing, none refused */
    f.qemu_flags = buffered;
    assert_int_equal(vdc_cache_decide(&f, &c), -1);
    assert_int_equal(c.bypasses_dom0_page_cache, 0);
    assert_int_equal(c.qemu_o_direct, 0);
    assert_non_null(strstr(c.error, "QEMU (pid 4242) holds /srv/q.raw without O_DIRECT"));
    vdc_target_cache_dispose(&c);

    /* direct-io-safe absent: named first */
    f.vbd = &unsafe;
    assert_int_equal(vdc_cache_decide(&f, &c), -1);
    assert_non_null(strstr(c.error, "direct-io-safe is absent, not 1"));
    vdc_target_cache_dispose(&c);

    /* host, QEMU's flags not read: the verdict from direct-io-safe alone */
    f.spec = &host;
    f.qemu_flags_read = 0;
    f.qemu_pid = 0;
    assert_int_equal(vdc_cache_decide(&f, &c), 0);
    assert_int_equal(c.bypasses_dom0_page_cache, 0);
    assert_int_equal(c.qemu_pid, VDC_INT_ABSENT);
    vdc_target_cache_dispose(&c);

    /* none without QEMU's pid: refused */
    f.spec = &none;
    f.vbd = &safe;
    assert_int_equal(vdc_cache_decide(&f, &c), -1);
    assert_non_null(strstr(c.error, "QEMU serving the image was not found"));
    vdc_target_cache_dispose(&c);
}

/* libvirt qemu: the live XML's cache= and QEMU's O_DIRECT; a block device
 * under blkback */
static void
test_decide_libvirt_and_block(void **state)
{
    vdc_target_spec none = { .backing = VDC_BACKING_IMAGE, .cache = VDC_IMAGE_CACHE_NONE };
    vdc_target_spec lvm = { .backing = VDC_BACKING_LVM };
    vdc_lv_disk dnone = { .vdev = (char *)"vdc", .cache = (char *)"none", .io = (char *)"native" };
    vdc_lv_disk ddefault = { .vdev = (char *)"vdc" };
    unsigned direct[] = { O_RDWR | O_DIRECT };
    vdc_xs_vbd lv = vbd("vbd", "xvdd", NULL, -1);
    vdc_cache_facts f = { .spec = &none, .image = "/i.raw", .disk = &dnone, .qemu = 1, .qemu_pid = 7,
                          .qemu_flags_read = 1, .qemu_flags = direct, .n_qemu_flags = 1 };
    vdc_target_cache c;

    vdc_target_cache_init(&c);
    assert_int_equal(vdc_cache_decide(&f, &c), 0);
    assert_string_equal(c.libvirt_cache, "none");
    assert_string_equal(c.libvirt_io, "native");
    assert_int_equal(c.qemu_o_direct, 1);
    assert_int_equal(c.bypasses_dom0_page_cache, 1);
    assert_string_equal(c.source, "libvirt-live-xml,fdinfo");
    vdc_target_cache_dispose(&c);

    f.disk = &ddefault;
    assert_int_equal(vdc_cache_decide(&f, &c), -1);
    assert_non_null(strstr(c.error, "cache='(default: writeback)', not 'none'"));
    assert_null(c.libvirt_cache);
    vdc_target_cache_dispose(&c);

    /* an LV under blkback: no page cache between */
    f = (vdc_cache_facts){ .spec = &lvm, .vbd = &lv };
    assert_int_equal(vdc_cache_decide(&f, &c), 0);
    assert_null(c.requested);
    assert_int_equal(c.bypasses_dom0_page_cache, 1);
    vdc_target_cache_dispose(&c);
}

static void
test_changed(void **state)
{
    vdc_target_cache a, b;
    char *why;

    vdc_target_cache_init(&a);
    vdc_target_cache_init(&b);
    a.bypasses_dom0_page_cache = b.bypasses_dom0_page_cache = 0;
    a.loop_dio = b.loop_dio = 0;
    vdc_set_str(&a.loop_device, "/dev/loop3");
    vdc_set_str(&b.loop_device, "/dev/loop5");    /* another boot, another loop device */
    a.qemu_pid = 10;
    assert_null(vdc_cache_changed(&a, &b));
    b.loop_dio = 1;
    b.bypasses_dom0_page_cache = 1;
    why = vdc_cache_changed(&a, &b);
    assert_string_equal(why, "bypasses_dom0_page_cache was false at the first boot, now true");
    g_free(why);
    b.bypasses_dom0_page_cache = 0;
    why = vdc_cache_changed(&a, &b);
    assert_string_equal(why, "the loop device's dio was false at the first boot, now true");
    g_free(why);
    b.loop_dio = 0;
    vdc_set_str(&b.libvirt_cache, "none");
    why = vdc_cache_changed(&a, &b);
    assert_string_equal(why, "libvirt's cache/io was -/- at the first boot, now none/-");
    g_free(why);
    vdc_target_cache_dispose(&a);
    vdc_target_cache_dispose(&b);
}

static void
test_placement_record(void **state)
{
    vdc_placement pl = { .pos = { .device = (char *)"vda1", .disk = (char *)"vda",
                                  .disk_bytes = 1u << 30, .rotational = 1 },
                         .mapped_bytes = 3 << 20, .unmapped_bytes = 4096, .extents = 3 };
    vdc_byte_range r[] = { { 1 << 20, 1 << 20 }, { 10 << 20, 2 << 20 } };
    vdc_target_placement out = { 0 };

    pl.ranges = g_array_new(FALSE, FALSE, sizeof(vdc_byte_range));
    g_array_append_vals(pl.ranges, r, 2);
    vdc_placement_record(&pl, "fiemap", &out);
    assert_string_equal(out.disk, "vda");
    assert_int_equal(out.rotational, 1);
    assert_int_equal(out.disk_bytes, 1 << 30);
    assert_int_equal(out.extents, 3);
    assert_int_equal(out.mapped_bytes, 3 << 20);
    assert_int_equal(out.unmapped_bytes, 4096);
    assert_int_equal(out.n_ranges, 2);
    assert_int_equal(out.ranges[2], 10 << 20);
    assert_int_equal(out.ranges[3], 2 << 20);
    assert_null(out.reason);
    /* byte-weighted middle: (1.5 MiB x 1 + 11 MiB x 2) / 3 */
    assert_true(out.center_bytes > 7.8 * 1048576 && out.center_bytes < 7.9 * 1048576);
    assert_string_equal(out.source, "fiemap");
    g_array_unref(pl.ranges);
    g_free(out.disk);
    g_free(out.source);
    g_free(out.ranges);
}

/* The recorder checks an alignment it is handed by the one rule
 * (host/alignment.h) and records it once: the disk's sizes (0: absent),
 * each layer with its offset and unit, a misaligned one with its numbers;
 * a reader that failed is not asked again */
static void
test_alignment_record(void **state)
{
    vdc_plan p = { 0 };
    vdc_plan_target t[2] = {
        { .name = (char *)"block", .path = (char *)"/dev/loop1",
          .spec = { .backing = VDC_BACKING_BLOCK } },
        { .name = (char *)"lvm", .spec = { .backing = VDC_BACKING_LVM } },
    };
    vdc_alignment a = { .q = { .logical_block_size = 512, .physical_block_size = 4096,
                               .minimum_io_size = 4096 },
                        .disk = (char *)"loop0", .source = (char *)"sysfs" };
    vdc_recorder *rec;
    const vdc_target *rt;

    p.targets = t;
    p.n_targets = 2;
    p.mkfs = (char *)"ext4";
    rec = vdc_recorder_new(&p);
    assert_false(vdc_recorder_wants_alignment(rec, 0));    /* no target record yet */
    vdc_recorder_target(rec, 0, NULL, NULL);
    vdc_recorder_target(rec, 1, NULL, NULL);
    assert_true(vdc_recorder_wants_alignment(rec, 0));
    vdc_alignment_add(&a, VDC_ALIGN_PARTITION, 1, 1536, 0);
    vdc_alignment_add(&a, VDC_ALIGN_FS_BLOCK, 0, 0, 4096);
    vdc_recorder_alignment(rec, 0, &a);
    assert_false(vdc_recorder_wants_alignment(rec, 0));
    rt = vdc_recorder_target_record(rec, 0);
    assert_string_equal(rt->alignment.disk, "loop0");
    assert_string_equal(rt->alignment.source, "sysfs");
    assert_int_equal(rt->alignment.physical_block_size, 4096);
    assert_int_equal(rt->alignment.optimal_io_size, VDC_INT_ABSENT);
    assert_int_equal(rt->alignment.n_layers, 2);
    assert_string_equal(rt->alignment.layers[0].layer, "partition");
    assert_int_equal(rt->alignment.layers[0].offset, 1536);
    assert_int_equal(rt->alignment.layers[0].size, VDC_INT_ABSENT);
    assert_string_equal(rt->alignment.layers[0].why,
                        "partition at 1536 bytes is 1536 bytes past a multiple of the physical block size 4096");
    assert_string_equal(rt->alignment.layers[1].layer, "fs_block");
    assert_int_equal(rt->alignment.layers[1].offset, VDC_INT_ABSENT);
    assert_int_equal(rt->alignment.layers[1].size, 4096);
    assert_null(rt->alignment.layers[1].why);
    assert_int_equal(vdc_target_misaligned(rt), 1);
    /* the first record stands */
    a.layers[0].offset = 8192;
    vdc_recorder_alignment(rec, 0, &a);
    assert_int_equal(vdc_recorder_target_record(rec, 0)->alignment.layers[0].offset, 1536);
    /* a reader that failed: nothing recorded, not asked again */
    vdc_recorder_alignment(rec, 1, NULL);
    assert_false(vdc_recorder_wants_alignment(rec, 1));
    assert_int_equal(vdc_recorder_target_record(rec, 1)->alignment.n_layers, 0);
    vdc_recorder_free(rec);
}

/* the guest filesystem's layers a runner reported: onto targets[].alignment
 * beside the host's layers, checked against the guest's disk (its name in
 * the why), once; a runner that read none adds nothing */
static void
test_guest_fs_record(void **state)
{
    vdc_plan p = { 0 };
    vdc_plan_target t[2] = {
        { .name = (char *)"image", .path = (char *)"/srv/i.raw",
          .spec = { .backing = VDC_BACKING_IMAGE } },
        { .name = (char *)"lvm", .spec = { .backing = VDC_BACKING_LVM } },
    };
    vdc_plan_step steps[2] = { { .target = 0 }, { .target = 1 } };
    vdc_alignment a = { .q = { .logical_block_size = 512, .physical_block_size = 512 },
                        .disk = (char *)"sda", .source = (char *)"sysfs,fiemap" };
    struct vdc_ctl_result res;
    struct vdc_ctl_error err;
    struct vdc_ctl_target_result *tr;
    vdc_recorder *rec;
    const vdc_target *rt;

    p.targets = t;
    p.n_targets = 2;
    p.steps = steps;
    p.n_steps = 2;
    p.mkfs = (char *)"ext4";
    p.out_dir = (char *)"/nonexistent";
    rec = vdc_recorder_new(&p);
    vdc_recorder_target(rec, 0, NULL, NULL);
    vdc_recorder_target(rec, 1, NULL, NULL);
    vdc_alignment_add(&a, VDC_ALIGN_IMAGE_CLUSTER, 1, 1 << 20, 4096);
    vdc_recorder_alignment(rec, 0, &a);
    vdc_ctl_result_init(&res);
    tr = vdc_ctl_result_add_target(&res, "image", "vdb", &err);
    tr->status = VDC_CTL_STATUS_FAILED;
    tr->error = g_strdup("agent (bonnie) exit status 1");
    tr->fs_block = 1024;
    tr->fs_stripe = 98304;
    tr->fs_source = g_strdup("ext4 superblock");
    tr->disk = g_strdup("vdb");
    tr->disk_physical_block_size = 4096;
    tr->disk_minimum_io_size = 4096;
    tr->disk_optimal_io_size = 65536;
    tr = vdc_ctl_result_add_target(&res, "lvm", "vdc", &err);
    tr->status = VDC_CTL_STATUS_FAILED;
    vdc_recorder_ctl_answer(rec, 0, 2, "boot 1", &res, NULL);
    rt = vdc_recorder_target_record(rec, 0);
    assert_string_equal(rt->alignment.disk, "sda");
    assert_string_equal(rt->alignment.guest.disk, "vdb");
    assert_string_equal(rt->alignment.guest.source, "ext4 superblock");
    assert_int_equal(rt->alignment.guest.physical_block_size, 4096);
    assert_int_equal(rt->alignment.guest.optimal_io_size, 65536);
    assert_int_equal(rt->alignment.n_layers, 3);
    assert_string_equal(rt->alignment.layers[0].layer, "image_cluster");
    assert_null(rt->alignment.layers[0].why);
    assert_string_equal(rt->alignment.layers[1].layer, "fs_block");
    assert_int_equal(rt->alignment.layers[1].offset, VDC_INT_ABSENT);
    assert_int_equal(rt->alignment.layers[1].size, 1024);
    assert_string_equal(rt->alignment.layers[1].why,
                        "fs_block of 1024 bytes is not a multiple of the physical block size 4096 "
                        "of the guest's disk vdb");
    assert_string_equal(rt->alignment.layers[2].layer, "fs_stripe");
    assert_int_equal(rt->alignment.layers[2].size, 98304);
    assert_string_equal(rt->alignment.layers[2].why,
                        "fs_stripe of 98304 bytes is not a multiple of the optimal I/O size 65536 "
                        "of the guest's disk vdb");
    assert_int_equal(vdc_target_misaligned(rt), 2);
    /* the lvm target's runner read nothing: no layer */
    assert_int_equal(vdc_recorder_target_record(rec, 1)->alignment.n_layers, 0);
    assert_null(vdc_recorder_target_record(rec, 1)->alignment.guest.disk);
    /* once: a later boot's answer does not add the layers again */
    res.targets[0].fs_block = 4096;
    vdc_recorder_ctl_answer(rec, 0, 2, "boot 2", &res, NULL);
    rt = vdc_recorder_target_record(rec, 0);
    assert_int_equal(rt->alignment.n_layers, 3);
    assert_int_equal(rt->alignment.layers[1].size, 1024);
    vdc_ctl_result_dispose(&res);
    vdc_recorder_free(rec);
}

/* ---- one boot's cache step, through fake readers ------------------------- */

static int dio_now, n_set_dio;

static int
fake_loop_info(const char *dev, vdc_loop_info *out)
{
    memset(out, 0, sizeof(*out));
    out->name = g_strdup("loop3");
    out->backing_file = g_strdup("/srv/i-nocache.raw");
    out->dio = dio_now;
    return 0;
}

static int
fake_set_dio(const char *dev, int on)
{
    assert_string_equal(dev, "/dev/loop3");
    n_set_dio++;
    dio_now = on;
    return 0;
}

static vdc_xs_vbd *
vbd_new(const char *kind, const char *dev, const char *node, int dio_safe)
{
    vdc_xs_vbd *v = g_new0(vdc_xs_vbd, 1);

    v->path = g_strdup_printf("/local/domain/0/backend/%s/3/%s", kind, dev);
    v->kind = g_strdup(kind);
    v->dev = g_strdup(dev);
    v->node = g_strdup(node);
    v->direct_io_safe = dio_safe;
    return v;
}

/* One boot's cache step as the run takes it (run/domu.c): the facts read
 * and decided, each target's handed to the recorder, which keeps the first
 * boot's record and fails a target whose record changed. */
static void
boot(vdc_recorder *rec, const vdc_plan *p, const vdc_hv_domain *dom,
     const vdc_hv_disk_facts *facts, const vdc_cache_io *io)
{
    vdc_target_cache now[2];
    int read[2] = { 0, 0 };
    char *fail[2] = { NULL, NULL };
    size_t i;

    vdc_recorder_boot_begin(rec);
    for (i = 0; i < 2; i++)
        vdc_target_cache_init(&now[i]);
    vdc_cache_boot(p, dom, facts, io, now, read, fail);
    for (i = 0; i < 2; i++) {
        vdc_recorder_cache(rec, i, read[i] ? &now[i] : NULL, fail[i]);
        vdc_target_cache_dispose(&now[i]);
        g_free(fail[i]);
    }
}

static void
test_boot_step(void **state)
{
    vdc_plan p = { 0 };
    vdc_plan_target t[2] = {
        { .name = (char *)"image", .vdev = (char *)"xvdb", .path = (char *)"/srv/i.raw",
          .spec = { .backing = VDC_BACKING_IMAGE, .backend = VDC_BACKEND_TAP } },
        { .name = (char *)"image-nocache", .vdev = (char *)"xvdc", .path = (char *)"/srv/i-nocache.raw",
          .spec = { .backing = VDC_BACKING_IMAGE, .backend = VDC_BACKEND_TAP, .cache = VDC_IMAGE_CACHE_NONE } },
    };
    vdc_hv_domain dom = { .name = "d", .type = "pv" };
    vdc_hv_disk_facts facts;
    vdc_cache_io io = { .loop_info = fake_loop_info, .loop_set_dio = fake_set_dio };
    vdc_recorder *rec;
    const vdc_target *nc;

    p.targets = t;
    p.n_targets = 2;
    p.mkfs = (char *)"ext4";
    dom.disks[dom.n_disks++] = (vdc_hv_disk){ .target = "image", .vdev = "xvdb", .path = t[0].path,
                                              .spec = t[0].spec };
    dom.disks[dom.n_disks++] = (vdc_hv_disk){ .target = "image-nocache", .vdev = "xvdc",
                                              .path = t[1].path, .spec = t[1].spec };
    dom.start_paused = vdc_hv_domain_needs_pause(&dom);
    assert_true(dom.start_paused);
    rec = vdc_recorder_new(&p);
    vdc_recorder_target(rec, 0, NULL, NULL);
    vdc_recorder_target(rec, 1, NULL, NULL);
    vdc_hv_disk_facts_init(&facts);
    facts.vbds = g_ptr_array_new_with_free_func((GDestroyNotify)vdc_xs_vbd_free);
    g_ptr_array_add(facts.vbds, vbd_new("vbd", "xvdb", "/dev/loop3", -1));
    g_ptr_array_add(facts.vbds, vbd_new("vbd", "xvdc", "/dev/loop3", -1));

    /* first boot: the host image reads dio 0; the image with none too ->
     * LOOP_SET_DIRECT_IO while paused -> verified (the fake's one loop
     * device serves both: the host image was read before the ioctl) */
    dio_now = 0;
    boot(rec, &p, &dom, &facts, &io);
    assert_int_equal(n_set_dio, 1);
    assert_null(vdc_recorder_boot_fail(rec, 0));
    assert_null(vdc_recorder_boot_fail(rec, 1));
    assert_int_equal(vdc_recorder_target_record(rec, 0)->cache.loop_dio, 0);
    nc = vdc_recorder_target_record(rec, 1);
    assert_int_equal(nc->cache.bypasses_dom0_page_cache, 1);
    assert_int_equal(nc->cache.loop_dio, 1);
    assert_string_equal(nc->cache.requested, "none");

    /* a later boot not paused whose loop device reads back dio 0: refused */
    dio_now = 0;
    dom.start_paused = 0;
    boot(rec, &p, &dom, &facts, &io);
    assert_int_equal(n_set_dio, 1);
    assert_non_null(vdc_recorder_boot_fail(rec, 1));
    assert_non_null(strstr(vdc_recorder_boot_fail(rec, 1),
                           "--image-cache none refused: /dev/loop3 reads back dio 0"));
    assert_null(vdc_recorder_boot_fail(rec, 0));    /* the host image: as at the first boot */

    /* a boot where the host image reads back dio 1: changed, its runs fail */
    dio_now = 1;
    boot(rec, &p, &dom, &facts, &io);
    assert_non_null(vdc_recorder_boot_fail(rec, 0));
    assert_string_equal(vdc_recorder_boot_fail(rec, 0),
                        "the cache state changed: bypasses_dom0_page_cache was false at "
                        "the first boot, now true");
    assert_null(vdc_recorder_boot_fail(rec, 1));
    assert_int_equal(vdc_recorder_target_record(rec, 0)->cache.loop_dio, 0);  /* first stands */
    /* the next boot forgets this one's failures */
    vdc_recorder_boot_begin(rec);
    assert_null(vdc_recorder_boot_fail(rec, 0));
    vdc_error_reset();

    vdc_hv_disk_facts_dispose(&facts);
    vdc_recorder_free(rec);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decide_loop),
        cmocka_unit_test(test_decide_qdisk),
        cmocka_unit_test(test_decide_libvirt_and_block),
        cmocka_unit_test(test_changed),
        cmocka_unit_test(test_placement_record),
        cmocka_unit_test(test_alignment_record),
        cmocka_unit_test(test_guest_fs_record),
        cmocka_unit_test(test_boot_step),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
