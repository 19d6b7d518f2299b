/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reproduction facts (src/run/facts.c): the pure parsers of sysfs
 * queue/scheduler and /proc/self/mountinfo, and the gatherers' contract
 * (best-effort: a missing directory or file leaves members absent). */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "collect/facts.h"

static void
expect_scheduler(const char *text, const char *want)
{
    g_autofree char *got = vdc_sysfs_scheduler_selected(text);

    if (want)
        assert_string_equal(got, want);
    else
        assert_null(got);
}

static void
test_scheduler(void **state)
{
    (void)state;
    expect_scheduler("[mq-deadline] none\n", "mq-deadline");
    expect_scheduler("none [mq-deadline] kyber bfq\n", "mq-deadline");
    expect_scheduler("[none] mq-deadline\n", "none");
    expect_scheduler("none\n", "none");            /* a lone name, no brackets */
    expect_scheduler("noop deadline cfq\n", NULL); /* several, none selected */
    expect_scheduler("", NULL);
    expect_scheduler("\n", NULL);
    expect_scheduler("[]\n", NULL);
    expect_scheduler(NULL, NULL);
}

/* mountinfo(5) lines: ID PARENT MAJ:MIN ROOT MOUNT-POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER */
static const char MOUNTINFO[] =
    "22 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
    "23 22 0:21 / /proc rw,nosuid shared:12 - proc proc rw\n"
    "30 22 259:2 / /var rw,relatime shared:1 master:2 - xfs /dev/nvme0n1p2 rw,attr2\n"
    "31 30 259:2 /images /var/lib/my\\040images rw - xfs /dev/nvme0n1p2 rw\n"
    "40 22 0:35 / /tmp rw - tmpfs tmpfs rw\n"
    "short line\n";

static void
expect_mount(unsigned maj, unsigned min, const char *path, const char *type, const char *source)
{
    char *t = NULL, *s = NULL;
    int rc = vdc_mountinfo_lookup(MOUNTINFO, maj, min, path, &t, &s);

    if (!type) {
        assert_int_equal(rc, -1);
        assert_null(t);
        assert_null(s);
        return;
    }
    assert_int_equal(rc, 0);
    assert_string_equal(t, type);
    assert_string_equal(s, source);
    g_free(t);
    g_free(s);
}

static void
test_mountinfo(void **state)
{
    (void)state;
    expect_mount(254, 0, "/srv/vm", "ext4", "/dev/vda");
    expect_mount(259, 2, "/var/lib/vmdiskcmp", "xfs", "/dev/nvme0n1p2");
    /* a bind mount with an escaped space: the longest mount point wins */
    expect_mount(259, 2, "/var/lib/my images/x", "xfs", "/dev/nvme0n1p2");
    expect_mount(0, 35, "/tmp/a", "tmpfs", "tmpfs");
    /* "/tmpx" is not under "/tmp"; a device no line has */
    expect_mount(0, 35, "/tmpx", NULL, NULL);
    expect_mount(8, 1, "/", NULL, NULL);
    {
        char *t = NULL, *s = NULL;
        assert_int_equal(vdc_mountinfo_lookup("", 254, 0, "/", &t, &s), -1);
        assert_int_equal(vdc_mountinfo_lookup(NULL, 254, 0, "/", &t, &s), -1);
    }
}

/* Best effort: nothing there, nothing recorded, no error. */
static void
test_absent(void **state)
{
    vdc_image_dir_info d;
    vdc_guest_info g;

    (void)state;
    memset(&d, 0, sizeof(d));
    d.rotational = -1;
    d.logical_block_size = d.physical_block_size = INT64_MIN;
    vdc_image_dir_facts(&d, "/nonexistent/vmdiskcmp-facts-test");
    assert_null(d.path);
    assert_null(d.fs_type);
    assert_null(d.device);
    assert_int_equal(d.rotational, -1);
    vdc_image_dir_facts(&d, NULL);
    assert_null(d.path);

    memset(&g, 0, sizeof(g));
    vdc_guest_boot_facts(&g, "/nonexistent/vmlinuz", NULL, "root=/dev/xvda ro");
    assert_string_equal(g.kernel, "/nonexistent/vmlinuz");
    assert_null(g.kernel_sha256);
    assert_null(g.initrd);
    assert_null(g.initrd_sha256);
    assert_string_equal(g.cmdline, "root=/dev/xvda ro");
    g_free(g.kernel);
    g_free(g.cmdline);
}

/* The digest is the file's: sha256 of "abc" is the FIPS 180-2 example. */
static void
test_guest_digest(void **state)
{
    g_autofree char *dir = g_dir_make_tmp("vdc-facts-XXXXXX", NULL);
    g_autofree char *k = g_build_filename(dir, "vmlinuz", NULL);
    vdc_guest_info g;

    (void)state;
    assert_non_null(dir);
    assert_true(g_file_set_contents(k, "abc", 3, NULL));
    memset(&g, 0, sizeof(g));
    vdc_guest_boot_facts(&g, k, k, NULL);
    assert_string_equal(g.kernel_sha256,
                        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assert_string_equal(g.initrd_sha256, g.kernel_sha256);
    assert_null(g.cmdline);
    g_free(g.kernel);
    g_free(g.kernel_sha256);
    g_free(g.initrd);
    g_free(g.initrd_sha256);
    g_remove(k);
    g_rmdir(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scheduler),
        cmocka_unit_test(test_mountinfo),
        cmocka_unit_test(test_absent),
        cmocka_unit_test(test_guest_digest),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
