/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What this libvirt and QEMU can do (src/host/qemucaps.c) and the
 * refusals it decides (src/plan/dims.c vdc_dim_check_build): libvirt 9.0's
 * domain capabilities and QEMU 7.2's virtio-blk-pci properties as they
 * were here (tests/golden/host/), QEMU's words for io_uring missing from
 * the build or refused by the kernel, the probe run on a stand-in QEMU (a
 * script answering as a build without io_uring, native AIO and virtio-scsi
 * would), and each QEMU knob refused in one line naming the value and why
 * when the build cannot run it, nothing when nothing was asked. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "host/qemucaps.h"
#include "plan/build.h"
#include "plan/dims.h"
#include "plan/options.h"
#include "test_stderr.h"

/* run @stmt with stderr captured into @out (g_free) */
#define VDC_CAPTURE_STDERR(out, stmt) \
    do { \
        capture_stderr_begin(); \
        stmt; \
        (out) = capture_stderr_end(); \
    } while (0)

static char *
fixture(const char *name)
{
    g_autofree char *path = g_build_filename(VDC_GOLDEN_DIR, name, NULL);
    char *text = NULL;

    assert_true(g_file_get_contents(path, &text, NULL, NULL));
    return text;
}

static void
test_domcaps(void **state)
{
    g_autofree char *xml = fixture("domcaps-qemu-7.2.xml");
    vdc_domcaps c;

    vdc_domcaps_init(&c);
    assert_int_equal(vdc_domcaps_parse(xml, "fixture", &c), 0);
    assert_string_equal(c.emulator, "/usr/bin/qemu-system-x86_64");
    assert_string_equal(c.domain, "qemu");
    assert_int_equal(c.iothreads, 1);
    assert_int_equal(vdc_domcaps_has_bus(&c, "scsi"), 1);
    assert_int_equal(vdc_domcaps_has_bus(&c, "virtio"), 1);
    assert_int_equal(vdc_domcaps_has_bus(&c, "xen"), 0);
    vdc_domcaps_dispose(&c);
    vdc_domcaps_dispose(&c);    /* twice: safe */

    /* no bus list, iothreads not supported */
    assert_int_equal(vdc_domcaps_parse("<domainCapabilities><path>/q</path>"
                                       "<iothreads supported='no'/></domainCapabilities>", "x", &c), 0);
    assert_int_equal(c.iothreads, 0);
    assert_int_equal(vdc_domcaps_has_bus(&c, "scsi"), -1);
    vdc_domcaps_dispose(&c);
    {
        g_autofree char *err = NULL;

        VDC_CAPTURE_STDERR(err, assert_int_equal(vdc_domcaps_parse("<domainCapabilities>", "caps", &c), -1));
        assert_non_null(strstr(err, "caps: not well-formed domain capabilities XML"));
    }
}

static void
test_verdicts(void **state)
{
    g_autofree char *help = fixture("qemu-7.2-virtio-blk-pci-help.txt");
    char *said = NULL;

    /* QEMU 7.2 here: the blockdev opened, the accelerator refused */
    assert_int_equal(vdc_qemu_io_uring_verdict("qemu-system-x86_64: -accel vdc-probe-none: invalid accelerator vdc-probe-none\n", &said),
                     VDC_QEMU_CAN);
    assert_null(said);
    assert_int_equal(vdc_qemu_io_uring_verdict("qemu: -blockdev driver=file,...,aio=io_uring: Parameter 'aio' does not accept value 'io_uring'\n", &said),
                     VDC_QEMU_CAN_NOT);
    assert_string_equal(said, "qemu: -blockdev driver=file,...,aio=io_uring: Parameter 'aio' does not accept value 'io_uring'");
    g_free(said);
    assert_int_equal(vdc_qemu_io_uring_verdict("x\nqemu: -blockdev ...: Unable to use io_uring: failed to init linux io_uring ring: Operation not permitted\ny", &said),
                     VDC_QEMU_CAN_NOT);
    assert_non_null(strstr(said, "Operation not permitted"));
    g_free(said);
    assert_int_equal(vdc_qemu_io_uring_verdict("Segmentation fault", NULL), VDC_QEMU_CAN_UNKNOWN);
    assert_int_equal(vdc_qemu_io_uring_verdict(NULL, NULL), VDC_QEMU_CAN_UNKNOWN);

    /* QEMU 7.2's virtio-blk-pci: an iothread, no virtqueue mapping */
    assert_int_equal(vdc_qemu_device_has_property(help, "iothread"), VDC_QEMU_CAN);
    assert_int_equal(vdc_qemu_device_has_property(help, "num-queues"), VDC_QEMU_CAN);
    assert_int_equal(vdc_qemu_device_has_property(help, "iothread-vq-mapping"), VDC_QEMU_CAN_NOT);
    assert_int_equal(vdc_qemu_device_has_property("virtio-blk-pci options:\n  iothread-vq-mapping=<IOThreadVirtQueueMappingList>\n",
                                                  "iothread-vq-mapping"), VDC_QEMU_CAN);
    assert_int_equal(vdc_qemu_device_has_property("Device 'x' not found", "iothread"), VDC_QEMU_CAN_UNKNOWN);
    assert_int_equal(vdc_qemu_has_device("name \"virtio-scsi-pci\", bus PCI, alias \"virtio-scsi\"\n", "virtio-scsi-pci"),
                     VDC_QEMU_CAN);
    assert_int_equal(vdc_qemu_has_device("name \"virtio-blk-pci\", bus PCI\n", "virtio-scsi-pci"), VDC_QEMU_CAN_NOT);
}

/* A stand-in QEMU answering as a build without io_uring, without Linux
 * AIO, without virtio-scsi and without the virtqueue mapping. */
static const char fake_qemu[] =
    "#!/bin/sh\n"
    "case \"$*\" in\n"
    "*aio=io_uring*) echo \"qemu: -blockdev $9: Parameter 'aio' does not accept value 'io_uring'\" >&2 ;;\n"
    "*aio=native*) echo \"qemu: -blockdev x: aio=native was specified, but is not supported in this build.\" >&2 ;;\n"
    "*virtio-blk-pci,help*) printf 'virtio-blk-pci options:\\n  iothread=<link<iothread>>\\n' ;;\n"
    "*'-device help'*) printf 'name \"virtio-blk-pci\", bus PCI\\n' ;;\n"
    "esac\n"
    "exit 1\n";

static void
test_probe(void **state)
{
    char dir[] = "/tmp/vdc-test-qemucaps-XXXXXX";
    g_autofree char *bin = NULL;
    vdc_qemu_build b;

    assert_non_null(g_mkdtemp(dir));
    bin = g_build_filename(dir, "qemu-system-x86_64", NULL);
    assert_true(g_file_set_contents(bin, fake_qemu, -1, NULL));
    assert_int_equal(chmod(bin, 0755), 0);
    vdc_qemu_build_init(&b);
    vdc_qemu_build_probe(bin, &b);
    assert_string_equal(b.binary, bin);
    assert_int_equal(b.io_uring, VDC_QEMU_CAN_NOT);
    assert_non_null(strstr(b.io_uring_said, "does not accept value 'io_uring'"));
    assert_int_equal(b.aio_native, VDC_QEMU_AIO_MISSING);
    assert_int_equal(b.vq_mapping, VDC_QEMU_CAN_NOT);
    assert_int_equal(b.virtio_scsi, VDC_QEMU_CAN_NOT);
    vdc_qemu_build_dispose(&b);
    vdc_qemu_build_dispose(&b);
    /* a binary that is not there: every probe unknown, nothing said */
    vdc_qemu_build_probe("/nonexistent/qemu", &b);
    assert_int_equal(b.io_uring, VDC_QEMU_CAN_UNKNOWN);
    assert_int_equal(b.vq_mapping, VDC_QEMU_CAN_UNKNOWN);
    vdc_qemu_build_dispose(&b);
    unlink(bin);
    rmdir(dir);
}

/* the plan of @args on a QEMU/KVM domain */
static void
plan_of(const char *args, vdc_plan *p)
{
    static const vdc_host_defaults host = {
        .hostname = "host1", .ram_mib = 1024, .date_id = "2026-11-30T101500Z",
    };
    g_autofree char *line = g_strdup_printf("run --hypervisor libvirt --connect qemu:///system --accel tcg "
                                            "--guest-image /g --image %s", args);
    g_auto(GStrv) argv = NULL;
    int argc = 0;
    vdc_run_opts o;

    assert_true(g_shell_parse_argv(line, &argc, &argv, NULL));
    vdc_run_opts_init(&o);
    assert_int_equal(vdc_run_opts_parse(&o, argc, argv), 0);
    vdc_plan_init(p);
    assert_int_equal(vdc_plan_build(&o, &host, line, p), 0);
    vdc_run_opts_dispose(&o);
}

/* the build of this machine (libvirt 9.0, QEMU 7.2) or a poorer one */
static void
build_of(vdc_hv_build *b, int poor)
{
    g_autofree char *xml = fixture("domcaps-qemu-7.2.xml");

    vdc_hv_build_init(b);
    b->known = 1;
    b->libvirt_version = poor ? 6002000 : 9000000;
    b->qemu_version = g_strdup("7.2.22");
    assert_int_equal(vdc_domcaps_parse(xml, "fixture", &b->caps), 0);
    b->qemu.binary = g_strdup("/usr/bin/qemu-system-x86_64");
    b->qemu.io_uring = poor ? VDC_QEMU_CAN_NOT : VDC_QEMU_CAN;
    b->qemu.io_uring_said = poor ? g_strdup("Parameter 'aio' does not accept value 'io_uring'") : NULL;
    b->qemu.aio_native = poor ? VDC_QEMU_AIO_MISSING : VDC_QEMU_AIO_NATIVE;
    b->qemu.aio_native_said = poor ? g_strdup("aio=native was specified, but is not supported in this build.") : NULL;
    b->qemu.vq_mapping = VDC_QEMU_CAN_NOT;
    b->qemu.virtio_scsi = poor ? VDC_QEMU_CAN_NOT : VDC_QEMU_CAN;
}

static void
test_refusals(void **state)
{
    static const struct {
        const char *args;
        int poor;
        const char *want;   /* NULL: accepted */
    } cases[] = {
        { "--disk-cache none --disk-io native,io_uring,threads --iothreads 0,1", 0, NULL },
        { "--iothreads 2", 0,
          "--iothreads 2: expected 0 or 1 with this build: a disk's virtqueues on 2 I/O threads need QEMU 9.0's "
          "iothread-vq-mapping and libvirt 10.0's <iothreads> in <driver>; this QEMU (/usr/bin/qemu-system-x86_64 "
          "7.2.22) has no iothread-vq-mapping (-device virtio-blk-pci,help); this libvirt (9.0.0) is older than 10.0" },
        { "--iothreads 0,4", 0, "--iothreads 4: expected 0 or 1 with this build" },
        { "--disk-io io_uring", 1, "--disk-io io_uring: this libvirt (6.2.0) has no io='io_uring' (libvirt 6.3.0 added it)" },
        { "--disk-cache none --disk-io native", 1,
          "--disk-io native: this QEMU (/usr/bin/qemu-system-x86_64 7.2.22) was built without Linux native AIO: "
          "it says \"aio=native was specified, but is not supported in this build.\"" },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *err = NULL;
        vdc_hv_build b;
        vdc_plan p;
        int rc;

        plan_of(cases[i].args, &p);
        build_of(&b, cases[i].poor);
        VDC_CAPTURE_STDERR(err, rc = vdc_dim_check_build(&p, &b));
        if (cases[i].want ? (rc != -1 || !strstr(err, cases[i].want) || strchr(err, '\n') != err + strlen(err) - 1)
                          : (rc != 0 || *err)) {
            print_error("case '%s': rc %d, got '%s', wanted '%s'\n", cases[i].args, rc, err,
                        cases[i].want ? cases[i].want : "(accepted)");
            fail();
        }
        /* nothing asked: nothing refused */
        b.known = 0;
        assert_int_equal(vdc_dim_check_build(&p, &b), 0);
        vdc_hv_build_dispose(&b);
        vdc_plan_dispose(&p);
    }
    /* io_uring refused by the build itself, in QEMU's words */
    {
        g_autofree char *err = NULL;
        vdc_hv_build b;
        vdc_plan p;

        plan_of("--disk-io io_uring", &p);
        build_of(&b, 1);
        b.libvirt_version = 9000000;
        VDC_CAPTURE_STDERR(err, assert_int_equal(vdc_dim_check_build(&p, &b), -1));
        assert_non_null(strstr(err, "--disk-io io_uring: this QEMU (/usr/bin/qemu-system-x86_64 7.2.22) cannot: "
                                    "it says \"Parameter 'aio' does not accept value 'io_uring'\""));
        vdc_hv_build_dispose(&b);
        vdc_plan_dispose(&p);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_domcaps),
        cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_probe),
        cmocka_unit_test(test_refusals),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
