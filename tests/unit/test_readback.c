/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The hypervisor's half of a disk read back (src/host/livexml.c,
 * qemudisk.c, xsbackend.c, src/hv/backend_json.c), on what libvirt 9.0 and
 * QEMU 7.2 answered here for a domain of three disks (tests/golden/host/:
 * virtio-blk with cache none, io native, I/O thread 1, one queue;
 * virtio-blk writeback io_uring; a virtio-scsi disk directsync threads on
 * a controller with I/O thread 2): the live XML's driver, alias, serial
 * and SCSI controller, query-block's cache per device, query-iothreads,
 * qom-get's link and its empty answer, the command line's -blockdev aio;
 * the backend objects they make; and blkback's ring as xenstore holds it,
 * the backend's offer and the frontend's choice once Connected. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>
#include <json-glib/json-glib.h>

#include "host/livexml.h"
#include "host/qemudisk.h"
#include "host/xsbackend.h"
#include "hv/backend_json.h"
#include "model/knobs.h"
#include "model/result.h"

static char *
fixture(const char *name, gsize *len)
{
    g_autofree char *path = g_build_filename(VDC_GOLDEN_DIR, name, NULL);
    char *text = NULL;

    assert_true(g_file_get_contents(path, &text, len, NULL));
    return text;
}

static const vdc_lv_disk *
disk(GPtrArray *disks, const char *vdev)
{
    guint i;

    for (i = 0; i < disks->len; i++)
        if (!strcmp(((vdc_lv_disk *)g_ptr_array_index(disks, i))->vdev, vdev))
            return g_ptr_array_index(disks, i);
    fail_msg("no disk %s", vdev);
    return NULL;
}

static void
test_livexml(void **state)
{
    g_autofree char *xml = fixture("livexml-qemu-matrix.xml", NULL);
    g_autoptr(GPtrArray) disks = vdc_livexml_disks_parse(xml, "fixture", NULL);
    const vdc_lv_disk *b, *c, *s;

    assert_non_null(disks);
    assert_int_equal(disks->len, 3);
    b = disk(disks, "vdb");
    assert_string_equal(b->cache, "none");
    assert_string_equal(b->io, "native");
    assert_int_equal(b->iothread, 1);
    assert_int_equal(b->queues, 1);
    assert_string_equal(b->alias, "virtio-disk1");
    assert_int_equal(b->controller, -1);
    c = disk(disks, "vdc");
    assert_int_equal(c->iothread, 0);
    assert_int_equal(c->queues, 0);
    assert_string_equal(c->io, "io_uring");
    s = disk(disks, "sda");
    assert_string_equal(s->bus, "scsi");
    assert_string_equal(s->serial, "vmdiskcmp-vdd");
    assert_int_equal(s->controller, 0);
    assert_string_equal(s->controller_model, "virtio-scsi");
    assert_string_equal(s->controller_alias, "scsi0");
    /* a SCSI disk's thread and queues are its controller's */
    assert_int_equal(s->iothread, 2);
    assert_int_equal(s->queues, 1);
}

/* libvirt 10's virtqueue mapping: the first I/O thread is the disk's */
static void
test_livexml_mapping(void **state)
{
    static const char xml[] =
        "<domain><devices><disk type='file' device='disk'>"
        "<driver name='qemu' type='raw' queues='2'><iothreads><iothread id='3'><queue id='0'/></iothread>"
        "<iothread id='4'><queue id='1'/></iothread></iothreads></driver>"
        "<target dev='vdb' bus='virtio'/></disk></devices></domain>";
    g_autoptr(GPtrArray) disks = vdc_livexml_disks_parse(xml, "x", NULL);

    assert_int_equal(disks->len, 1);
    assert_int_equal(disk(disks, "vdb")->iothread, 3);
    assert_int_equal(disk(disks, "vdb")->queues, 2);
}

static void
test_qmp(void **state)
{
    g_autofree char *qb = fixture("qmp-query-block-qemu-7.2.json", NULL);
    g_autofree char *qi = fixture("qmp-query-iothreads-qemu-7.2.json", NULL);
    g_autofree char *qo = fixture("qmp-qom-get-iothread.json", NULL);
    g_autofree char *qn = fixture("qmp-qom-get-iothread-none.json", NULL);
    g_autofree char *cmdline = NULL;
    g_autoptr(GPtrArray) blocks = vdc_qmp_block_parse(qb, "fixture");
    g_autoptr(GHashTable) blockdevs = NULL;
    g_auto(GStrv) ids = vdc_qmp_iothreads_parse(qi, "fixture");
    const vdc_qmp_block *b;
    g_autofree char *s1 = NULL, *s2 = NULL;
    int64_t n = -1;
    gsize len = 0;

    assert_non_null(blocks);
    assert_int_equal(blocks->len, 3);
    b = vdc_qmp_block_of_alias(blocks, "virtio-disk1");
    assert_non_null(b);
    assert_string_equal(b->node_name, "libvirt-3-format");
    assert_int_equal(b->cache_direct, 1);
    assert_int_equal(b->cache_writeback, 1);
    assert_int_equal(b->cache_no_flush, 0);
    b = vdc_qmp_block_of_alias(blocks, "virtio-disk2");
    assert_int_equal(b->cache_direct, 0);
    /* directsync: O_DIRECT and no write cache */
    b = vdc_qmp_block_of_alias(blocks, "scsi0-0-0-0");
    assert_int_equal(b->cache_direct, 1);
    assert_int_equal(b->cache_writeback, 0);
    assert_null(vdc_qmp_block_of_alias(blocks, "virtio-disk9"));

    assert_int_equal(g_strv_length(ids), 2);
    assert_true(g_strv_contains((const char *const *)ids, "iothread1"));

    assert_int_equal(vdc_qmp_qom_parse(qo, "x", &s1, NULL), 0);
    assert_string_equal(s1, "/objects/iothread1");
    assert_int_equal(vdc_qmp_qom_parse(qn, "x", &s2, NULL), 0);
    assert_string_equal(s2, "");
    assert_int_equal(vdc_qmp_qom_parse("{\"return\":2,\"id\":\"l\"}", "x", NULL, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(vdc_qmp_qom_parse("{\"id\":\"l\",\"error\":{\"class\":\"DeviceNotFound\",\"desc\":\"Device 'x' not found\"}}",
                                       "x", &s1, NULL), -1);
    assert_null(vdc_qmp_block_parse("not json", "x"));

    cmdline = fixture("qemu-7.2-cmdline.bin", &len);
    blockdevs = vdc_qemu_cmdline_blockdevs(cmdline, len);
    assert_string_equal(vdc_qemu_node_aio(blockdevs, "libvirt-3-format"), "native");
    assert_string_equal(vdc_qemu_node_aio(blockdevs, "libvirt-2-format"), "io_uring");
    assert_string_equal(vdc_qemu_node_aio(blockdevs, "libvirt-1-format"), "threads");
    assert_null(vdc_qemu_node_aio(blockdevs, "libvirt-9-format"));
    /* a protocol node without aio: QEMU's default */
    {
        static const char c[] = "qemu\0-blockdev\0{\"driver\":\"file\",\"node-name\":\"p\"}\0"
                                "-blockdev\0{\"node-name\":\"f\",\"driver\":\"raw\",\"file\":\"p\"}\0"
                                "-blockdev\0driver=file,node-name=kv\0";
        g_autoptr(GHashTable) t = vdc_qemu_cmdline_blockdevs(c, sizeof(c) - 1);

        assert_string_equal(vdc_qemu_node_aio(t, "f"), "threads");
        assert_int_equal(g_hash_table_size(t), 2);
    }
}

static JsonObject *
backend_of(GPtrArray *disks, const char *vdev, GPtrArray *blocks, GHashTable *blockdevs, char **ids,
           const char *iothread, int64_t queues)
{
    const vdc_lv_disk *d = disk(disks, vdev);
    vdc_qemu_disk_view v = { .queues = queues, .qom_read = 1, .iothread = iothread,
                             .iothreads_read = 1, .running = (const char *const *)ids };

    v.block = vdc_qmp_block_of_alias(blocks, d->alias);
    v.aio = vdc_qemu_node_aio(blockdevs, v.block->node_name);
    return vdc_lv_backend_json(d, &v);
}

static void
test_backend_json(void **state)
{
    g_autofree char *xml = fixture("livexml-qemu-matrix.xml", NULL);
    g_autofree char *qb = fixture("qmp-query-block-qemu-7.2.json", NULL);
    g_autofree char *qi = fixture("qmp-query-iothreads-qemu-7.2.json", NULL);
    g_autofree char *cmdline = NULL;
    g_autoptr(GPtrArray) disks = vdc_livexml_disks_parse(xml, "fixture", NULL);
    g_autoptr(GPtrArray) blocks = vdc_qmp_block_parse(qb, "fixture");
    g_auto(GStrv) ids = vdc_qmp_iothreads_parse(qi, "fixture");
    g_autoptr(GHashTable) blockdevs = NULL;
    g_autoptr(JsonObject) b = NULL, c = NULL, s = NULL, stale = NULL;
    JsonObject *q;
    gsize len = 0;
    const char *path_prop = NULL;
    g_autofree char *path = NULL;

    cmdline = fixture("qemu-7.2-cmdline.bin", &len);
    blockdevs = vdc_qemu_cmdline_blockdevs(cmdline, len);
    b = backend_of(disks, "vdb", blocks, blockdevs, ids, "/objects/iothread1", 1);
    assert_string_equal(json_object_get_string_member(b, "bus"), "virtio-blk");
    assert_string_equal(json_object_get_string_member(b, "cache"), "none");
    assert_string_equal(json_object_get_string_member(b, "io"), "native");
    assert_int_equal(json_object_get_int_member(b, "iothread"), 1);
    assert_int_equal(json_object_get_int_member(b, "queues"), 1);
    q = json_object_get_object_member(b, "qemu");
    assert_true(json_object_get_boolean_member(q, "cache_direct"));
    assert_true(json_object_get_boolean_member(q, "cache_writeback"));
    assert_false(json_object_get_boolean_member(q, "cache_no_flush"));
    assert_string_equal(json_object_get_string_member(q, "aio"), "native");
    assert_string_equal(json_object_get_string_member(q, "iothread"), "iothread1");
    assert_int_equal(json_object_get_int_member(q, "queues"), 1);
    assert_string_equal(json_object_get_string_member(q, "source"),
                        "qmp query-block, qemu command line, qmp qom-get, qmp query-iothreads");

    /* no I/O thread: QEMU's link is empty; the XML has no queues, QEMU's count */
    c = backend_of(disks, "vdc", blocks, blockdevs, ids, "", 1);
    assert_false(json_object_has_member(c, "iothread"));
    assert_false(json_object_has_member(json_object_get_object_member(c, "qemu"), "iothread"));
    assert_int_equal(json_object_get_int_member(c, "queues"), 1);
    assert_string_equal(json_object_get_string_member(json_object_get_object_member(c, "qemu"), "aio"), "io_uring");
    assert_false(json_object_get_boolean_member(json_object_get_object_member(c, "qemu"), "cache_direct"));

    s = backend_of(disks, "sda", blocks, blockdevs, ids, "/objects/iothread2", 1);
    assert_string_equal(json_object_get_string_member(s, "bus"), "virtio-scsi");
    assert_int_equal(json_object_get_int_member(s, "iothread"), 2);
    assert_false(json_object_get_boolean_member(json_object_get_object_member(s, "qemu"), "cache_writeback"));
    path = vdc_lv_disk_qom_path(disk(disks, "sda"), &path_prop);
    assert_string_equal(path, "/machine/peripheral/scsi0");
    assert_string_equal(path_prop, "num_queues");

    /* a thread QEMU does not run is not recorded as serving the disk */
    stale = backend_of(disks, "vdb", blocks, blockdevs, ids, "/objects/iothread7", 1);
    assert_false(json_object_has_member(json_object_get_object_member(stale, "qemu"), "iothread"));
}

/* The disk line of a target whose backend object is @o (g_free). */
static char *
knobs_of(JsonObject *o)
{
    vdc_target t;
    char *text;

    vdc_target_init(&t);
    assert_int_equal(vdc_target_backend_from_json(&t.backend, o, "backend"), 0);
    text = vdc_knobs_text(&t);
    vdc_target_dispose(&t);
    return text;
}

/* blkback's ring: a backend's offer, the frontend's choice */
static void
test_xen_ring(void **state)
{
    static const char text[] =
        "/local/domain/0/backend/vbd/3/51728/dev = \"xvdb\"\n"
        "/local/domain/0/backend/vbd/3/51728/type = \"phy\"\n"
        "/local/domain/0/backend/vbd/3/51728/frontend = \"/local/domain/3/device/vbd/51728\"\n"
        "/local/domain/0/backend/vbd/3/51728/max-ring-page-order = \"4\"\n"
        "/local/domain/0/backend/vbd/3/51728/multi-queue-max-queues = \"2\"\n"
        "/local/domain/3/device/vbd/51728/state = \"4\"\n"
        "/local/domain/3/device/vbd/51728/ring-page-order = \"2\"\n"
        "/local/domain/3/device/vbd/51728/multi-queue-num-queues = \"2\"\n"
        "/local/domain/0/backend/vbd/3/51744/dev = \"xvdc\"\n"
        "/local/domain/0/backend/vbd/3/51744/frontend = \"/local/domain/3/device/vbd/51744\"\n"
        "/local/domain/0/backend/vbd/3/51744/max-ring-page-order = \"4\"\n"
        "/local/domain/0/backend/vbd/3/51744/multi-queue-max-queues = \"1\"\n"
        "/local/domain/3/device/vbd/51744/state = \"4\"\n"
        "/local/domain/0/backend/vbd/3/51760/dev = \"xvdd\"\n"
        "/local/domain/0/backend/vbd/3/51760/frontend = \"/local/domain/3/device/vbd/51760\"\n"
        "/local/domain/3/device/vbd/51760/state = \"1\"\n";
    g_autoptr(GHashTable) tree = vdc_xs_ls_parse(text, "x");
    g_autoptr(GPtrArray) vbds = vdc_xs_vbds_from_tree(tree, 3);
    const vdc_xs_vbd *b, *c, *d;
    g_autoptr(JsonObject) jb = NULL, jd = NULL;

    assert_int_equal(vbds->len, 3);
    b = g_ptr_array_index(vbds, 0);
    c = g_ptr_array_index(vbds, 1);
    d = g_ptr_array_index(vbds, 2);
    assert_int_equal(b->max_ring_page_order, 4);
    assert_int_equal(b->max_queues, 2);
    assert_int_equal(b->ring_page_order, 2);
    assert_int_equal(b->num_queues, 2);
    /* Connected without the keys: one page, one queue */
    assert_int_equal(c->ring_page_order, 0);
    assert_int_equal(c->num_queues, 1);
    /* not connected yet: nothing chosen */
    assert_int_equal(d->frontend_state, 1);
    assert_int_equal(d->ring_page_order, -1);
    assert_int_equal(d->num_queues, -1);
    jb = vdc_xs_backend_json(b);
    assert_string_equal(json_object_get_string_member(jb, "bus"), "xen");
    assert_int_equal(json_object_get_int_member(jb, "ring_page_order"), 2);
    assert_int_equal(json_object_get_int_member(jb, "queues"), 2);
    assert_int_equal(json_object_get_int_member(jb, "max_ring_page_order"), 4);
    assert_int_equal(json_object_get_int_member(jb, "max_queues"), 2);
    assert_int_equal(json_object_get_int_member(jb, "frontend_state"), 4);
    jd = vdc_xs_backend_json(d);
    assert_false(json_object_has_member(jd, "ring_page_order"));
    assert_false(json_object_has_member(jd, "queues"));
    assert_int_equal(json_object_get_int_member(jd, "frontend_state"), 1);
    /* the disk line: negotiated, not yet, and a qdisk's offer */
    {
        vdc_target t;
        g_autofree char *tb = NULL, *td = NULL, *tq = NULL, *tl = NULL;

        tb = knobs_of(jb);
        assert_string_equal(tb, "negotiated ring order 2 (4 pages, 128 requests in flight), "
                                "2 queues; blkback offers order 4, 2 queues");
        vdc_target_init(&t);
        assert_int_equal(vdc_target_backend_from_json(&t.backend, jd, "d"), 0);
        td = vdc_knobs_text(&t);
        assert_string_equal(td, "ring not negotiated: the frontend was never seen Connected "
                                "(XenbusState 1 Initialising when last read)");
        /* QEMU's qdisk makes the offer; a result from before the
         * frontend's state was read says the ring was not read */
        t.backend.frontend_state = VDC_INT_ABSENT;
        t.backend.max_ring_page_order = 9;
        t.backend.max_queues = 4;
        vdc_set_str(&t.backend.type, "qdisk");
        tq = vdc_knobs_text(&t);
        assert_string_equal(tq, "negotiated ring not read back; qdisk offers order 9, 4 queues");
        /* a libvirt Xen disk: the live XML's knobs first, the bus left to the ring */
        vdc_set_str(&t.backend.cache, "default");
        tl = vdc_knobs_text(&t);
        assert_string_equal(tl, "cache default; negotiated ring not read back; qdisk offers "
                                "order 9, 4 queues");
        vdc_target_dispose(&t);
    }
    /* requests in flight per ring (Xen's ring.h, x86_64 blkif) */
    assert_int_equal(vdc_knob_blkif_ring_size(0), 32);
    assert_int_equal(vdc_knob_blkif_ring_size(1), 64);
    assert_int_equal(vdc_knob_blkif_ring_size(4), 512);
    assert_int_equal(vdc_knob_blkif_ring_size(-1), -1);
    assert_int_equal(vdc_knob_blkif_ring_size(17), -1);
    /* a key that is not a number is named */
    {
        g_autoptr(GHashTable) bad = vdc_xs_ls_parse("/local/domain/0/backend/vbd/3/51728/max-ring-page-order = \"four\"\n", "x");

        assert_null(vdc_xs_vbds_from_tree(bad, 3));
    }
}

/* asked against read back: the backend object of the fixture's vdb
 * (cache none, native, I/O thread 1, one queue) through the model */
static void
test_knobs(void **state)
{
    g_autofree char *xml = fixture("livexml-qemu-matrix.xml", NULL);
    g_autofree char *qb = fixture("qmp-query-block-qemu-7.2.json", NULL);
    g_autofree char *qi = fixture("qmp-query-iothreads-qemu-7.2.json", NULL);
    g_autofree char *cmdline = NULL;
    g_autoptr(GPtrArray) disks = vdc_livexml_disks_parse(xml, "fixture", NULL);
    g_autoptr(GPtrArray) blocks = vdc_qmp_block_parse(qb, "fixture");
    g_auto(GStrv) ids = vdc_qmp_iothreads_parse(qi, "fixture");
    g_autoptr(GHashTable) blockdevs = NULL;
    g_autoptr(JsonObject) b = NULL, c = NULL;
    g_autofree char *text = NULL, *none = NULL, *off = NULL, *unread = NULL, *ctext = NULL;
    vdc_target t, u;
    gsize len = 0;
    int d, nf, wb;

    assert_int_equal(vdc_knob_cache_flags("default", &d, &nf, &wb), 0);
    assert_true(!d && !nf && wb);
    assert_int_equal(vdc_knob_cache_flags("directsync", &d, &nf, &wb), 0);
    assert_true(d && !nf && !wb);
    assert_int_equal(vdc_knob_cache_flags("bogus", &d, &nf, &wb), -1);
    assert_string_equal(vdc_knob_cache_mode(1, 0, 1), "none");
    assert_string_equal(vdc_knob_cache_mode(0, 0, 0), "writethrough");
    assert_null(vdc_knob_cache_mode(1, 1, 0));

    cmdline = fixture("qemu-7.2-cmdline.bin", &len);
    blockdevs = vdc_qemu_cmdline_blockdevs(cmdline, len);
    b = backend_of(disks, "vdb", blocks, blockdevs, ids, "/objects/iothread1", 1);
    vdc_target_init(&t);
    assert_int_equal(vdc_target_backend_from_json(&t.backend, b, "vdb"), 0);
    text = vdc_knobs_text(&t);
    assert_string_equal(text, "cache none (QEMU: O_DIRECT, write cache on), aio native, "
                              "I/O thread iothread1, 1 queue, virtio-blk");
    /* asked as served: nothing to say */
    vdc_set_str(&t.requested.disk_cache, "none");
    vdc_set_str(&t.requested.disk_io, "native");
    t.requested.iothreads = 1;
    t.requested.queues = 1;
    vdc_set_str(&t.requested.disk_bus, "virtio-blk");
    none = vdc_knobs_mismatch(&t);
    assert_null(none);
    /* each knob otherwise: named, QEMU's word first */
    vdc_set_str(&t.requested.disk_cache, "writeback");
    vdc_set_str(&t.requested.disk_io, "io_uring");
    t.requested.iothreads = 0;
    t.requested.queues = 4;
    vdc_set_str(&t.requested.disk_bus, "virtio-scsi");
    off = vdc_knobs_mismatch(&t);
    assert_string_equal(off, "cache: asked writeback, QEMU has none (query-block); "
                             "aio: asked io_uring, QEMU has native (command line); "
                             "I/O threads: asked 0, QEMU's device has iothread1 (qom-get); "
                             "queues: asked 4, read back 1; bus: asked virtio-scsi, the live XML has virtio-blk");
    vdc_target_dispose(&t);

    /* asked and nothing read back: said so, never taken as served */
    vdc_target_init(&u);
    vdc_set_str(&u.requested.disk_cache, "none");
    vdc_set_str(&u.requested.disk_io, "native");
    u.requested.iothreads = 1;
    unread = vdc_knobs_mismatch(&u);
    assert_string_equal(unread, "cache: asked none, not read back; aio: asked native, not read back; "
                                "I/O threads: asked 1, not read back");
    assert_null(vdc_knobs_text(&u));
    vdc_target_dispose(&u);

    /* QEMU's default: writeback and threads, no thread of its own */
    c = backend_of(disks, "vdc", blocks, blockdevs, ids, "", 1);
    ctext = knobs_of(c);
    assert_string_equal(ctext, "cache writeback (QEMU: page cache, write cache on), aio io_uring, "
                               "no I/O thread, 1 queue, virtio-blk");
}

/* blkback's ring as the lab negotiated it: tests/golden/host/
 * xenstore-lab-vbd-rings.txt is domain 1's VBDs replayed from the
 * committed xenstored access log of the lab's main job
 * (results/2026-12-06-lab-main-job-readme-EMULATED/dom0/xen-logs/
 * xenstored-access.log, Xen 4.17, Debian 12's blkback and blkfront, up to
 * the moment every VBD was Connected on both ends): blkback offers order 4
 * and 1 queue; the 1-vCPU guest's blkfront wrote a single "ring-ref" and
 * no ring-page-order or multi-queue-num-queues (its max_ring_page_order
 * parameter defaults to 0): one page, one queue */
static void
test_xen_lab_rings(void **state)
{
    g_autofree char *text = fixture("xenstore-lab-vbd-rings.txt", NULL);
    g_autoptr(GHashTable) tree = vdc_xs_ls_parse(text, "fixture");
    g_autoptr(GPtrArray) vbds = vdc_xs_vbds_from_tree(tree, 1);
    guint i;

    assert_non_null(vbds);
    assert_int_equal(vbds->len, 5);
    for (i = 0; i < vbds->len; i++) {
        const vdc_xs_vbd *v = g_ptr_array_index(vbds, i);
        g_autoptr(JsonObject) o = vdc_xs_backend_json(v);
        vdc_target t;
        g_autofree char *knobs = NULL;

        assert_int_equal(v->frontend_state, 4);
        assert_int_equal(v->max_ring_page_order, 4);
        assert_int_equal(v->max_queues, 1);
        assert_int_equal(v->ring_page_order, 0);
        assert_int_equal(v->num_queues, 1);
        vdc_target_init(&t);
        assert_int_equal(vdc_target_backend_from_json(&t.backend, o, "vbd"), 0);
        assert_int_equal(t.backend.ring_page_order, 0);
        assert_int_equal(t.backend.queues, 1);
        knobs = vdc_knobs_text(&t);
        assert_int_equal(t.backend.frontend_state, 4);
        assert_string_equal(knobs, "negotiated ring order 0 (1 page, 32 requests in flight), 1 queue; "
                                   "blkback offers order 4, 1 queue");
        vdc_target_dispose(&t);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_livexml),
        cmocka_unit_test(test_livexml_mapping),
        cmocka_unit_test(test_qmp),
        cmocka_unit_test(test_backend_json),
        cmocka_unit_test(test_xen_ring),
        cmocka_unit_test(test_knobs),
        cmocka_unit_test(test_xen_lab_rings),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
