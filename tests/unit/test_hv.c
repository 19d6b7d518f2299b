/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The hypervisor drivers without a hypervisor:
 *   - libvirt through test:///default (libvirt's own test driver, no
 *     daemon): create from our domain XML, backend facts parsed from the
 *     live XML, wait, destroy twice (idempotent), lookups of absent domains;
 *   - libxl: with no Xen, open() fails with one clean line (on a real dom0
 *     this case is skipped);
 *   - the mock's injected failures. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "common/util.h"
#include "hv/hv.h"

/* Run @fn with stderr captured; returns what it printed. */
static char *
capture_stderr(void (*fn)(void *), void *arg)
{
    char tmpl[] = "/tmp/vdc-test-hv-XXXXXX";
    int fd = mkstemp(tmpl), saved;
    char *out = NULL;

    assert_true(fd >= 0);
    fflush(stderr);
    saved = dup(2);
    dup2(fd, 2);
    fn(arg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    assert_true(g_file_get_contents(tmpl, &out, NULL, NULL));
    unlink(tmpl);
    return out;
}

#ifdef WITH_LIBVIRT
static void
fill_domain(vdc_hv_domain *d)
{
    memset(d, 0, sizeof(*d));
    d->name = "vmdiskcmp-test-hv";
    d->type = "test";
    d->memory_mib = 128;
    d->vcpus = 1;
    d->kernel = "/boot/vmlinuz";
    d->cmdline = "root=/dev/vda ro";
    d->cache = "none";
    d->io = "native";
    d->disks[0] = (vdc_hv_disk){ .target = "root", .path = "/r.img", .vdev = "vda",
                                 .readonly = 1 };
    d->disks[1] = (vdc_hv_disk){ .target = "image", .path = "/i.raw", .vdev = "vdb",
                                 .spec.cache = VDC_IMAGE_CACHE_NONE };
    d->disks[2] = (vdc_hv_disk){ .target = "block", .path = "/dev/loop7", .vdev = "vdc",
                                 .spec.backing = VDC_BACKING_BLOCK };
    d->n_disks = 3;
}

static void
test_libvirt_test_driver(void **state)
{
    const vdc_hv_ops *ops = vdc_hv_ops_for(VDC_HV_LIBVIRT);
    vdc_hv *hv;
    vdc_hv_domain d;
    JsonObject *b, *v = json_object_new();
    volatile sig_atomic_t stop = 0;
    char uuid[VDC_HV_UUID_LEN];
    g_autofree char *repeats = NULL;

    assert_non_null(ops);
    hv = ops->open("test:///default");
    assert_non_null(hv);
    ops->versions(hv, v);
    assert_true(json_object_has_member(v, "libvirt_version"));
    json_object_unref(v);

    fill_domain(&d);
    d.uuid = "3d7f2a9c-51e0-4b8e-a6c2-0f4b1e9d7c35";
    assert_int_equal(ops->exists(hv, d.name), 0);
    assert_int_equal(ops->create(hv, &d, &repeats), 0);
    assert_int_equal(ops->exists(hv, d.name), 1);

    /* the cache truth's facts: the live XML's disks (the test driver has
     * no QEMU and no xenstore) */
    {
        vdc_hv_disk_facts f;
        const vdc_lv_disk *vdb = NULL;
        guint i;

        vdc_hv_disk_facts_init(&f);
        assert_int_equal(ops->disk_facts(hv, d.name, &f), 0);
        assert_non_null(f.disks);
        assert_null(f.vbds);
        for (i = 0; i < f.disks->len; i++)
            if (!strcmp(((vdc_lv_disk *)g_ptr_array_index(f.disks, i))->vdev, "vdb"))
                vdb = g_ptr_array_index(f.disks, i);
        assert_non_null(vdb);
        assert_string_equal(vdb->cache, "none");
        assert_string_equal(vdb->io, "native");
        vdc_hv_disk_facts_dispose(&f);
        vdc_hv_disk_facts_dispose(&f);
    }
    /* not paused (the test driver has no VIR_DOMAIN_START_PAUSED): refused */
    assert_int_equal(ops->resume(hv, d.name), -1);
    vdc_error_reset();

    b = json_object_new();
    assert_int_equal(ops->backends(hv, d.name, b), 0);
    assert_true(json_object_has_member(b, "vdb"));
    assert_string_equal(json_object_get_string_member(json_object_get_object_member(b, "vdb"), "type"), "file");
    assert_string_equal(json_object_get_string_member(json_object_get_object_member(b, "vdb"), "source"),
                        "libvirt-live-xml");
    assert_string_equal(json_object_get_string_member(json_object_get_object_member(b, "vdb"),
                                                      "physical_device"), "/i.raw");
    assert_string_equal(json_object_get_string_member(json_object_get_object_member(b, "vdb"), "cache"), "none");
    assert_string_equal(json_object_get_string_member(json_object_get_object_member(b, "vdc"), "type"), "block");
    assert_string_equal(json_object_get_string_member(json_object_get_object_member(b, "vda"), "mode"), "r");
    assert_string_equal(json_object_get_string_member(json_object_get_object_member(b, "vdb"), "mode"), "w");
    json_object_unref(b);

    /* the test driver's domains never power off: a short wait times out */
    assert_int_equal(ops->wait(hv, d.name, 0, &stop), VDC_HV_WAIT_TIMEOUT);
    stop = 1;
    assert_int_equal(ops->wait(hv, d.name, 60, &stop), VDC_HV_WAIT_INTERRUPTED);

    assert_int_equal(ops->uuid(hv, d.name, uuid), 1);
    assert_string_equal(uuid, d.uuid);                       /* created with ours */
    assert_int_equal(ops->destroy(hv, d.name, "00000000-0000-0000-0000-000000000001"), 0);
    assert_int_equal(ops->exists(hv, d.name), 1);            /* another UUID: not touched */
    assert_int_equal(ops->destroy(hv, d.name, d.uuid), 0);
    assert_int_equal(ops->exists(hv, d.name), 0);
    assert_int_equal(ops->uuid(hv, d.name, uuid), 0);
    assert_int_equal(ops->destroy(hv, d.name, d.uuid), 0);   /* idempotent */
    stop = 0;
    assert_int_equal(ops->wait(hv, d.name, 60, &stop), VDC_HV_WAIT_SHUTOFF);
    ops->close(hv);
    ops->close(NULL);
}

static void
open_bad_uri(void *arg)
{
    const vdc_hv_ops *ops = arg;
    assert_null(ops->open("nosuchdriver:///x"));
}

static void
test_libvirt_bad_uri(void **state)
{
    g_autofree char *err = capture_stderr(open_bad_uri, (void *)vdc_hv_ops_for(VDC_HV_LIBVIRT));

    assert_non_null(strstr(err, "libvirt nosuchdriver:///x: cannot connect"));
    assert_true(strchr(err, '\n') == err + strlen(err) - 1);   /* one line */
}
#endif

#ifdef WITH_LIBXL
static void
open_libxl(void *arg)
{
    const vdc_hv_ops *ops = arg;
    assert_null(ops->open(NULL));
}

static void
test_libxl_no_xen(void **state)
{
    g_autofree char *caps = NULL;
    g_autofree char *err = NULL;

    if (g_file_get_contents("/proc/xen/capabilities", &caps, NULL, NULL) && strstr(caps, "control_d")) {
        print_message("a Xen dom0: libxl_ctx_alloc works here, nothing to check\n");
        skip();
    }
    err = capture_stderr(open_libxl, (void *)vdc_hv_ops_for(VDC_HV_LIBXL));
    assert_non_null(strstr(err, "libxl: cannot open a libxl context"));
    assert_true(strchr(err, '\n') == err + strlen(err) - 1);   /* one line, libxl's own logs silenced */
}
#endif

static void
test_mock_failures(void **state)
{
    const vdc_hv_ops *ops = vdc_hv_ops_by_name("mock");
    vdc_hv_domain d = { .name = "vmdiskcmp-m", .uuid = "6b1c0d52-7a4e-4d43-9a50-1f7f3c2b9e01",
                        .type = "mock" };
    vdc_hv *hv;
    char *repeats = NULL;

    vdc_hv_mock_reset();
    vdc_hv_mock()->fail_open = 1;
    assert_null(ops->open(NULL));
    vdc_hv_mock_reset();
    hv = ops->open(NULL);
    assert_non_null(hv);
    vdc_hv_mock()->fail_create = 1;
    assert_int_equal(ops->create(hv, &d, &repeats), -1);
    assert_null(repeats);                       /* may pass */
    assert_int_equal(ops->exists(hv, d.name), 0);
    vdc_hv_mock()->fail_create = 0;
    vdc_hv_mock()->fail_create_repeats = "kernel /k: No such file or directory";
    assert_int_equal(ops->create(hv, &d, &repeats), -1);
    assert_string_equal(repeats, "kernel /k: No such file or directory");
    g_clear_pointer(&repeats, g_free);
    vdc_hv_mock()->fail_create_repeats = NULL;
    assert_int_equal(ops->create(hv, &d, &repeats), 0);
    assert_null(repeats);
    assert_int_equal(ops->exists(hv, d.name), 1);
    assert_int_equal(ops->destroy(hv, d.name, d.uuid), 0);
    assert_int_equal(vdc_hv_mock()->n_running, 0);
    ops->close(hv);
    assert_null(vdc_hv_ops_by_name("xend"));
    vdc_hv_mock_reset();
}

/* Which failed creates repeat on every boot: libvirt's and QEMU's words
 * for a file that cannot be opened (the first three as libvirt 9.0 +
 * QEMU 7.2 print them here for an image in a 0700 directory, a missing
 * image and a missing kernel), an errno; not a busy or racing
 * hypervisor. */
static void
test_failure_repeats(void **state)
{
    static const char *const repeats[] = {
        "internal error: process exited while connecting to monitor: 2026-12-02T07:22:14.675127Z "
        "qemu-system-x86_64: -blockdev {\"driver\":\"file\",\"filename\":\"/d/priv/disk.img\","
        "\"node-name\":\"libvirt-1-storage\",\"auto-read-only\":true,\"discard\":\"unmap\"}: "
        "Could not open '/d/priv/disk.img': Permission denied",
        "Cannot access storage file '/d/missing.img': No such file or directory",
        "unable to stat: /d/nokernel: No such file or directory",
        "internal error: qemu unexpectedly closed the monitor: qemu-system-x86_64: could not load "
        "kernel '/k/vmlinuz'",
        "unable to set user and group to '64055:64055' on '/k/vmlinuz': Operation not permitted",
    };
    static const char *const transient[] = {
        "operation failed: domain 'vmdiskcmp-x' already exists with uuid 6b1c0d52-7a4e-4d43-9a50-1f7f3c2b9e01",
        "Timed out during operation: cannot acquire state change lock",
        "internal error: client socket is closed",
        "Failed to allocate memory: Cannot allocate memory",
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(repeats); i++)
        assert_int_equal(vdc_hv_failure_repeats(0, repeats[i]), 1);
    for (i = 0; i < G_N_ELEMENTS(transient); i++)
        assert_int_equal(vdc_hv_failure_repeats(0, transient[i]), 0);
    assert_int_equal(vdc_hv_failure_repeats(EACCES, NULL), 1);
    assert_int_equal(vdc_hv_failure_repeats(ENOENT, "x"), 1);
    assert_int_equal(vdc_hv_failure_repeats(EAGAIN, NULL), 0);
    assert_int_equal(vdc_hv_failure_repeats(0, NULL), 0);
}

/* The first file a domain needs that is missing, named with what it is. */
static void
test_domain_unreadable(void **state)
{
    vdc_hv_domain d = { .name = "vmdiskcmp-u", .kernel = "/proc/self/stat", .initrd = NULL };
    g_autofree char *dir = g_dir_make_tmp("vdc-test-hv-XXXXXX", NULL);
    g_autofree char *img = g_build_filename(dir, "i.raw", NULL);
    g_autofree char *gone = g_build_filename(dir, "gone.raw", NULL);
    g_autofree char *want = g_strdup_printf("disk vdc (image) %s: No such file or directory", gone);
    char *why;

    assert_true(g_file_set_contents(img, "", 0, NULL));
    d.disks[0] = (vdc_hv_disk){ .target = "root", .path = img, .vdev = "vda", .readonly = 1 };
    d.n_disks = 1;
    assert_null(vdc_hv_domain_unreadable(&d));
    d.disks[1] = (vdc_hv_disk){ .target = "image", .path = gone, .vdev = "vdc" };
    d.n_disks = 2;
    why = vdc_hv_domain_unreadable(&d);
    assert_string_equal(why, want);
    g_free(why);
    d.kernel = "/nonexistent/vmlinuz";
    why = vdc_hv_domain_unreadable(&d);
    assert_string_equal(why, "kernel /nonexistent/vmlinuz: No such file or directory");
    g_free(why);
    (void)unlink(img);
    (void)rmdir(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
#ifdef WITH_LIBVIRT
        cmocka_unit_test(test_libvirt_test_driver),
        cmocka_unit_test(test_libvirt_bad_uri),
#endif
#ifdef WITH_LIBXL
        cmocka_unit_test(test_libxl_no_xen),
#endif
        cmocka_unit_test(test_mock_failures),
        cmocka_unit_test(test_failure_repeats),
        cmocka_unit_test(test_domain_unreadable),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
