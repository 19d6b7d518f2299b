/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Golden tests of the pure translators (src/hv/translate.h):
 *   - xl disk specs parsed by libxlutil's xlu_disk_parse, printed as
 *     libxl_device_disk JSON (Xen's tools/xl/check-xl-disk-parse as the
 *     model): tests/golden/hv/disk-specs.txt -> disk-specs.expected;
 *   - for each tests/golden/hv/NAME.args (a `vmdiskcmp run` command line):
 *     NAME.plan.json, NAME.plan.txt (the plan as --dry-run prints it), and
 *     as the hypervisor calls for NAME.xl.cfg, NAME.domain.xml,
 *     NAME.libxl.json.
 * VDC_REGENERATE=1 rewrites the expected files on purpose. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "hv/translate.h"
#include "plan/build.h"
#include "plan/options.h"
#include "plan/plan.h"

static const char *
golden_dir(void)
{
    static char dir[4096];
    const char *top = getenv("top_srcdir");

    g_snprintf(dir, sizeof(dir), "%s/tests/golden/hv", top ? top : ".");
    return dir;
}

/* Compare @got with the expected file @name (or rewrite it). */
static void
golden(const char *name, const char *got)
{
    g_autofree char *path = g_build_filename(golden_dir(), name, NULL);
    g_autofree char *want = NULL;

    if (getenv("VDC_REGENERATE") && !strcmp(getenv("VDC_REGENERATE"), "1")) {
        assert_true(g_file_set_contents(path, got, -1, NULL));
        return;
    }
    if (!g_file_get_contents(path, &want, NULL, NULL)) {
        print_error("missing expected file %s (VDC_REGENERATE=1 writes it)\n", path);
        fail();
    }
    if (strcmp(want, got) != 0) {
        g_autofree char *tmp = g_strdup_printf("%s.actual", path);
        g_file_set_contents(tmp, got, -1, NULL);
        print_error("%s differs from the output (written to %s)\n", path, tmp);
        fail();
    }
}

static void
test_disk_specs(void **state)
{
    g_autofree char *path = g_build_filename(golden_dir(), "disk-specs.txt", NULL);
    g_autofree char *data = NULL;
    g_auto(GStrv) lines = NULL;
    GString *out = g_string_new(NULL);
    size_t i, cases = 0, errors = 0;

    assert_true(g_file_get_contents(path, &data, NULL, NULL));
    lines = g_strsplit(data, "\n", -1);
    for (i = 0; lines[i]; i++) {
        g_autofree char *json = NULL;
        if (!*lines[i] || lines[i][0] == '#')
            continue;
        json = vdc_xl_disk_parse_json(lines[i]);
        g_string_append_printf(out, "spec: %s\n%s\n", lines[i], json ? json : "error\n");
        cases++;
        errors += json == NULL;
    }
    assert_true(cases >= 10);
    assert_true(errors >= 3);
    golden("disk-specs.expected", out->str);
    g_string_free(out, TRUE);
}

/* Build the plan of a NAME.args file with fixed host facts. */
static void
plan_from_args(const char *name, vdc_plan *p)
{
    g_autofree char *path = g_strdup_printf("%s/%s.args", golden_dir(), name);
    g_autofree char *data = NULL;
    g_autofree char *line = NULL;
    g_auto(GStrv) argv = NULL;
    int argc = 0;
    vdc_run_opts o;
    const vdc_host_defaults h = {
        .hostname = "host1", .ram_mib = 2048, .xen_control_d = 0,
        .date_id = "2026-11-30T101500Z",
    };

    assert_true(g_file_get_contents(path, &data, NULL, NULL));
    line = g_strdup_printf("run %s", g_strstrip(data));
    assert_true(g_shell_parse_argv(line, &argc, &argv, NULL));
    vdc_run_opts_init(&o);
    assert_int_equal(vdc_run_opts_parse(&o, argc, argv), 0);
    assert_int_equal(vdc_plan_build(&o, &h, line, p), 0);
    vdc_run_opts_dispose(&o);
    vdc_run_opts_dispose(&o);   /* twice: safe */
}

static void
check_case(const char *name)
{
    vdc_plan p;
    vdc_hv_domain d;
    g_autofree char *json = NULL, *ctl = NULL, *console = NULL, *f = NULL;
    int xen;

    vdc_plan_init(&p);
    plan_from_args(name, &p);
    json = vdc_plan_to_json(&p);
    f = g_strdup_printf("%s.plan.json", name);
    golden(f, json);
    {
        /* what --dry-run prints first */
        g_autofree char *text = vdc_plan_to_text(&p);
        g_autofree char *ft = g_strdup_printf("%s.plan.txt", name);

        golden(ft, text);
    }

    ctl = g_strdup_printf("%s/control-0.img", p.out_dir);
    console = g_strdup_printf("%s/logs/console-0.log", p.out_dir);
    vdc_hv_domain_from_plan(&p, "/var/cache/vmdiskcmp/KEY/guest.img", ctl, console, &d);
    xen = p.hv == VDC_HV_LIBXL || !strcmp(p.domain_type, "xen");
    if (xen) {
        g_autofree char *cfg = vdc_xl_cfg(&d);
        g_autofree char *fn = g_strdup_printf("%s.xl.cfg", name);
        assert_non_null(cfg);
        golden(fn, cfg);
    }
    if (p.hv == VDC_HV_LIBVIRT) {
        g_autofree char *xml = vdc_domain_xml(&d);
        g_autofree char *fn = g_strdup_printf("%s.domain.xml", name);
        assert_non_null(xml);
        golden(fn, xml);
    }
    if (p.hv == VDC_HV_LIBXL) {
#ifdef WITH_LIBXL
        g_autofree char *lj = vdc_libxl_config_json(&d);
        g_autofree char *fn = g_strdup_printf("%s.libxl.json", name);
        assert_non_null(lj);
        golden(fn, lj);
#endif
    }
    vdc_plan_dispose(&p);
    vdc_plan_dispose(&p);
}

static void test_xen_pv(void **s) { check_case("xen-pv"); }
static void test_libvirt_xen(void **s) { check_case("libvirt-xen"); }
static void test_libvirt_qemu(void **s) { check_case("libvirt-qemu"); }
static void test_libvirt_kvm(void **s) { check_case("libvirt-kvm"); }
/* --image-cache host,none x --image-backend auto,qdisk: four image targets */
static void test_xen_pv_image_cache(void **s) { check_case("xen-pv-image-cache"); }
/* libvirt qemu: host = QEMU's default (no cache=), none = cache='none' io='native' */
static void test_libvirt_qemu_image_cache(void **s) { check_case("libvirt-qemu-image-cache"); }
/* libvirt xen: a file disk's none is applied on the loop device (paused
 * start), qdisk's in its <driver cache='none'> */
static void test_libvirt_xen_image_cache(void **s) { check_case("libvirt-xen-image-cache"); }
/* the target matrix on QEMU: --disk-cache none,writeback x --disk-io
 * io_uring x --iothreads 0,1 over an image and an LV (eight disks: cache=,
 * io=, one I/O thread each with iothread= and queues=1, <iothreads> 4) */
static void test_libvirt_qemu_matrix(void **s) { check_case("libvirt-qemu-matrix"); }
/* two I/O threads per disk: queues='2' and the virtqueue mapping of
 * libvirt 10.0 (QEMU 9.0's iothread-vq-mapping) */
static void test_libvirt_kvm_iothreads(void **s) { check_case("libvirt-kvm-iothreads"); }
/* storage variants on QEMU: --image-format raw,qcow2 x --image-alloc
 * sparse,full,metadata (raw's metadata cell dropped), qcow2's cluster and
 * metadata cache (<metadata_cache>), --lv-type linear,thin (the thin LV's
 * discard='unmap' and pool), --fill 0,40: fourteen target disks */
static void test_libvirt_qemu_storage(void **s) { check_case("libvirt-qemu-storage"); }
/* the lab's storage job on Xen: raw sparse and full images, a linear and
 * a thin LV */
static void test_xen_pv_thin(void **s) { check_case("xen-pv-thin"); }

/* Which domains are created paused: a Xen domU whose image with
 * --image-cache none is served by blkback over a loop device. */
static void
test_needs_pause(void **state)
{
    vdc_hv_domain d = { .name = "d", .type = "pv" };

    d.disks[d.n_disks++] = (vdc_hv_disk){ .target = "root", .path = "/g.img", .vdev = "xvda",
                                          .spec.cache = VDC_IMAGE_CACHE_NONE, .aux = 1 };
    assert_int_equal(vdc_hv_domain_needs_pause(&d), 0);      /* not a target */
    d.disks[d.n_disks++] = (vdc_hv_disk){ .target = "image-qdisk-nocache", .path = "/q.raw",
                                          .vdev = "xvdb", .spec = { .backend = VDC_BACKEND_QDISK,
                                                                    .cache = VDC_IMAGE_CACHE_NONE } };
    assert_int_equal(vdc_hv_domain_needs_pause(&d), 0);      /* qdisk: direct-io-safe */
    d.disks[d.n_disks++] = (vdc_hv_disk){ .target = "lvm", .path = "/dev/vg/lv", .vdev = "xvdc",
                                          .spec = { .backing = VDC_BACKING_LVM,
                                                    .cache = VDC_IMAGE_CACHE_NONE } };
    assert_int_equal(vdc_hv_domain_needs_pause(&d), 0);      /* a block device: no loop */
    d.disks[d.n_disks++] = (vdc_hv_disk){ .target = "image", .path = "/i.raw", .vdev = "xvdd",
                                          .spec.backend = VDC_BACKEND_TAP };
    assert_int_equal(vdc_hv_domain_needs_pause(&d), 0);      /* host */
    d.disks[d.n_disks - 1].spec.cache = VDC_IMAGE_CACHE_NONE;
    assert_int_equal(vdc_hv_domain_needs_pause(&d), 1);
    d.type = "xen";
    assert_int_equal(vdc_hv_domain_needs_pause(&d), 1);
    d.type = "qemu";
    assert_int_equal(vdc_hv_domain_needs_pause(&d), 0);      /* cache='none' in the XML */
}

/* The specs we write for each kind of disk, exactly. */
static void
test_spec_strings(void **state)
{
    static const struct {
        vdc_hv_disk d;
        const char *want;
    } cases[] = {
        { { .target = "image", .path = "/i.raw", .vdev = "xvdb", .spec.backend = VDC_BACKEND_TAP }, "tap:aio:/i.raw,xvdb,w" },
        { { .target = "image", .path = "/i.raw", .vdev = "xvdb", .spec.backend = VDC_BACKEND_QDISK },
          "format=raw,vdev=xvdb,access=w,backendtype=qdisk,target=/i.raw" },
        { { .target = "image-qdisk-nocache", .path = "/i.raw", .vdev = "xvdb",
            .spec = { .backend = VDC_BACKEND_QDISK, .cache = VDC_IMAGE_CACHE_NONE } },
          "format=raw,vdev=xvdb,access=w,backendtype=qdisk,direct-io-safe,target=/i.raw" },
        { { .target = "image-nocache", .path = "/i.raw", .vdev = "xvdb",
            .spec = { .backend = VDC_BACKEND_TAP, .cache = VDC_IMAGE_CACHE_NONE } },
          "tap:aio:/i.raw,xvdb,w" },
        { { .target = "image-nocache", .path = "/i.qcow2", .vdev = "xvdb",
            .spec = { .format = VDC_IMAGE_QCOW2, .cache = VDC_IMAGE_CACHE_NONE } },
          "format=qcow2,vdev=xvdb,access=w,direct-io-safe,target=/i.qcow2" },
        { { .target = "image", .path = "/i.raw", .vdev = "xvdb", .spec.backend = VDC_BACKEND_PHY },
          "format=raw,vdev=xvdb,access=w,backendtype=phy,target=/i.raw" },
        { { .target = "image", .path = "/i.raw", .vdev = "xvdb", .spec.backend = VDC_BACKEND_AUTO }, "format=raw,vdev=xvdb,access=w,target=/i.raw" },
        { { .target = "lvm", .path = "/dev/vg/lv", .vdev = "xvdc", .spec.backing = VDC_BACKING_LVM }, "phy:/dev/vg/lv,xvdc,w" },
        { { .target = "root", .path = "/g.img", .vdev = "xvda",
            .readonly = 1 }, "format=raw,vdev=xvda,access=r,target=/g.img" },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *s = vdc_xl_disk_spec(&cases[i].d);
        assert_non_null(s);
        assert_string_equal(s, cases[i].want);
    }
}

/* What cannot be translated is refused, not mangled. */
static void
test_refusals(void **state)
{
    vdc_hv_disk comma = { .target = "image", .path = "/a,b.raw", .vdev = "xvdb",
                          .spec.backend = VDC_BACKEND_TAP };
    vdc_hv_disk qcow_phy = { .target = "image", .path = "/a.qcow2", .vdev = "xvdb",
                             .spec.format = VDC_IMAGE_QCOW2, .spec.backend = VDC_BACKEND_PHY };
    vdc_hv_domain d = { .name = "vmdiskcmp-x", .type = "xen", .memory_mib = 128, .vcpus = 1 };
    vdc_hv_domain bad = { .name = "vmdiskcmp-x", .type = "lxc", .memory_mib = 128, .vcpus = 1 };

    assert_null(vdc_xl_disk_spec(&comma));
    assert_null(vdc_xl_disk_spec(&qcow_phy));
    d.disks[0] = (vdc_hv_disk){ .target = "image", .path = "/i.raw", .vdev = "xvdb",
                                .spec.backend = VDC_BACKEND_TAP };
    d.n_disks = 1;
    assert_null(vdc_domain_xml(&d));        /* libvirt's libxl driver has no tap */
    assert_null(vdc_domain_xml(&bad));
    d.name = "quote\"name";
    d.n_disks = 0;
    assert_null(vdc_xl_cfg(&d));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_disk_specs),
        cmocka_unit_test(test_spec_strings),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_xen_pv),
        cmocka_unit_test(test_libvirt_xen),
        cmocka_unit_test(test_libvirt_qemu),
        cmocka_unit_test(test_libvirt_kvm),
        cmocka_unit_test(test_xen_pv_image_cache),
        cmocka_unit_test(test_libvirt_qemu_image_cache),
        cmocka_unit_test(test_libvirt_xen_image_cache),
        cmocka_unit_test(test_libvirt_qemu_matrix),
        cmocka_unit_test(test_libvirt_kvm_iothreads),
        cmocka_unit_test(test_libvirt_qemu_storage),
        cmocka_unit_test(test_xen_pv_thin),
        cmocka_unit_test(test_needs_pause),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
