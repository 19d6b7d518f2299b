/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Guest preparation, pure parts (src/guest/prepare.c): the cache key, file
 * digests, and prepared-image manifests.  Expected keys were computed
 * independently with coreutils:
 *   printf 'vmdiskcmp-prepare-v1\n%s\n%s\n%s\n' T A R | sha256sum */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "guest/prepare.h"
#include "guest/tmpdir.h"
#include "test_stderr.h"

#define T "0000000000000000000000000000000000000000000000000000000000000000"
#define A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define R "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static void
test_cache_key(void **state)
{
    char *k = vdc_prepare_cache_key(T, A, R);

    assert_non_null(k);
    assert_string_equal(k, "3e65545e65a7aff9d8cbf6ab3ae7d1f7dc2e4eff9c3d62ee064ee62267fa4a75");
    g_free(k);
    /* order matters: agent and runner swapped give another key */
    k = vdc_prepare_cache_key(T, R, A);
    assert_string_equal(k, "b3244a767c13edaa4abbad17e6e1d3e1bac7625d01e3b7fa502ba50e36d7da41");
    g_free(k);
}

static void
test_cache_key_rejects(void **state)
{
    assert_null(vdc_prepare_cache_key(NULL, A, R));
    assert_null(vdc_prepare_cache_key(T, A, "0123"));                  /* short */
    assert_null(vdc_prepare_cache_key(T, A, R "0"));                   /* long */
    assert_null(vdc_prepare_cache_key(T, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", R));
    assert_null(vdc_prepare_cache_key(T, A, "g123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"));
    assert_null(vdc_prepare_cache_key(T, A, "../../../../etc/passwd0123456789abcdef0123456789abcdef0123456789"));
}

static void
test_file_sha256(void **state)
{
    char path[] = "/tmp/test_prepare.XXXXXX";
    int fd = mkstemp(path);
    char *h;

    assert_true(fd >= 0);
    assert_int_equal(write(fd, "abc", 3), 3);
    close(fd);
    h = vdc_file_sha256(path);
    /* FIPS 180-2 example "abc" */
    assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    g_free(h);
    unlink(path);
    assert_null(vdc_file_sha256(path));
}

static void
test_manifest_load(void **state)
{
    char *d = g_strdup("/tmp/test_prepare.XXXXXX"), *img, *man, *k;
    struct vdc_prepared p;

    assert_non_null(g_mkdtemp(d));
    img = g_build_filename(d, "guest.img", NULL);
    man = g_strconcat(img, ".manifest", NULL);
    g_file_set_contents(img, "", 0, NULL);
    /* a template: boot section only -> not a prepared image */
    g_file_set_contents(man, "[boot]\nkernel=vmlinuz\ninitrd=/abs/initrd.img\n"
                             "cmdline_xen=console=hvc0 root=/dev/xvda ro\n"
                             "cmdline_kvm=console=ttyS0 root=/dev/vda ro\n", -1, NULL);
    assert_int_equal(vdc_prepared_load(img, &p), -1);
    /* a prepared image */
    g_file_set_contents(man, "[prepared]\nkey=" R "\ntemplate_sha256=" T "\nagent_sha256=" A
                             "\nrunner_sha256=" R "\ninit_system=busybox\n"
                             "[boot]\nkernel=vmlinuz\ninitrd=/abs/initrd.img\n"
                             "cmdline_xen=console=hvc0 root=/dev/xvda ro\n"
                             "cmdline_kvm=console=ttyS0 root=/dev/vda ro\n", -1, NULL);
    assert_int_equal(vdc_prepared_load(img, &p), 0);
    k = g_build_filename(d, "vmlinuz", NULL);
    assert_string_equal(p.kernel, k);               /* relative to the manifest */
    assert_string_equal(p.initrd, "/abs/initrd.img");
    assert_string_equal(p.cmdline_kvm, "console=ttyS0 root=/dev/vda ro");
    assert_string_equal(p.init_system, "busybox");
    assert_string_equal(p.agent_sha256, A);
    vdc_prepared_dispose(&p);
    vdc_prepared_dispose(&p);
    /* a boot key missing */
    g_file_set_contents(man, "[prepared]\nkey=x\n[boot]\nkernel=vmlinuz\n", -1, NULL);
    assert_int_equal(vdc_prepared_load(img, &p), -1);
    g_unlink(man);
    assert_int_equal(vdc_prepared_load(img, &p), -1);   /* no manifest */
    g_unlink(img);
    g_rmdir(d);
    g_free(k);
    g_free(man);
    g_free(img);
    g_free(d);
}

/* a garbage manifest beside a prepared image: one short line, nothing raw */
static void
test_manifest_garbage(void **state)
{
    char *d = g_strdup("/tmp/test_prepare.XXXXXX"), *img, *man, *err;
    unsigned char junk[3000];
    struct vdc_prepared p;
    size_t i;

    assert_non_null(g_mkdtemp(d));
    img = g_build_filename(d, "guest.img", NULL);
    man = g_strconcat(img, ".manifest", NULL);
    g_file_set_contents(img, "", 0, NULL);
    for (i = 0; i < sizeof(junk); i++)          /* binary, no newline, ESC and C1 among it */
        junk[i] = (unsigned char)(i % 7 == 0 ? 0x1b : i % 5 == 0 ? 0x9b : 1 + (i * 37) % 250);
    for (i = 0; i < sizeof(junk); i++)
        if (junk[i] == '\n')
            junk[i] = 0x07;
    g_file_set_contents(man, (const char *)junk, sizeof(junk), NULL);
    capture_stderr_begin();
    assert_int_equal(vdc_prepared_load(img, &p), -1);
    err = capture_stderr_end();
    assert_non_null(strstr(err, "guest.img.manifest: "));
    assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);   /* one line */
    assert_true(strlen(err) < 400);                               /* cut short */
    assert_non_null(strstr(err, " more bytes)"));
    for (i = 0; err[i]; i++)
        assert_false((unsigned char)err[i] < 0x20 && err[i] != '\n');
    assert_null(strstr(err, "\xc2\x9b"));
    free(err);
    g_unlink(man);
    g_unlink(img);
    g_rmdir(d);
    g_free(man);
    g_free(img);
    g_free(d);
}

static void
test_prepare_bad_input(void **state)
{
    struct vdc_prepare_opts o = { 0 };
    struct vdc_prepared p;

    o.template_path = "/nonexistent/guest.img";
    o.agent_path = "/nonexistent/agent";
    o.runner_path = "/nonexistent/runner";
    o.cache_dir = "/nonexistent/cache";
    assert_int_equal(vdc_prepare(&o, &p), -1);
    assert_null(p.image);
}

/* 1 when another open file description cannot lock @path (it is held). */
static int
held(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY), r;

    assert_true(fd >= 0);
    r = flock(fd, LOCK_EX | LOCK_NB) < 0;
    close(fd);
    return r;
}

/* Prepare's temporary directories: made locked (mode as asked); a sweep
 * leaves a held one alone and removes one whose maker died (its lock
 * free), without following a symlink inside it; a symlink or a file of
 * the prefix is not touched, nor anything while a maker holds the parent;
 * dispose removes the directory, but not once it was renamed into place. */
static void
test_tmpdir_sweep(void **state)
{
    char tmpl[] = "/tmp/vdc-test-tmpdir-XXXXXX";
    const char *dir = g_mkdtemp(tmpl);
    g_autofree char *stale = g_strdup_printf("%s/.tmp-dead01", dir);
    g_autofree char *victim = g_strdup_printf("%s/victim", dir);
    g_autofree char *inside = g_strdup_printf("%s/.tmp-dead01/link", dir);
    g_autofree char *link = g_strdup_printf("%s/.tmp-link01", dir);
    g_autofree char *file = g_strdup_printf("%s/.tmp-file01", dir);
    g_autofree char *keep = g_strdup_printf("%s/victim/keep", dir);
    g_autofree char *moved = g_strdup_printf("%s/entry", dir);
    g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", dir);
    vdc_tmpdir t;
    struct stat sb;
    int pfd;

    assert_non_null(dir);
    assert_int_equal(vdc_tmpdir_make(&t, dir, ".tmp-", 0755, "test"), 0);
    assert_true(g_str_has_prefix(t.path + strlen(dir), "/.tmp-"));
    assert_int_equal(stat(t.path, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0755);
    assert_true(held(t.path));
    /* the leftovers of a prepare that died, and what is not ours */
    assert_int_equal(g_mkdir(stale, 0700), 0);
    assert_int_equal(g_mkdir(victim, 0700), 0);
    assert_true(g_file_set_contents(keep, "keep", -1, NULL));
    assert_int_equal(symlink(victim, inside), 0);
    assert_int_equal(symlink(victim, link), 0);
    assert_true(g_file_set_contents(file, "", -1, NULL));
    /* a maker between mkdtemp and its lock: nothing is swept */
    pfd = open(dir, O_RDONLY | O_DIRECTORY);
    assert_int_equal(flock(pfd, LOCK_SH), 0);
    assert_int_equal(vdc_tmpdir_sweep(dir, ".tmp-"), 0);
    close(pfd);
    assert_true(g_file_test(stale, G_FILE_TEST_IS_DIR));
    assert_int_equal(vdc_tmpdir_sweep(dir, ".tmp-"), 1);
    assert_false(g_file_test(stale, G_FILE_TEST_EXISTS));
    assert_true(g_file_test(t.path, G_FILE_TEST_IS_DIR));        /* held: a live prepare's */
    assert_true(g_file_test(keep, G_FILE_TEST_IS_REGULAR));      /* not followed */
    assert_true(g_file_test(link, G_FILE_TEST_IS_SYMLINK));
    assert_true(g_file_test(file, G_FILE_TEST_IS_REGULAR));
    vdc_tmpdir_dispose(&t);
    assert_int_equal(vdc_tmpdir_sweep(dir, ".tmp-"), 0);
    /* renamed into place (the cache entry): dispose leaves it */
    assert_int_equal(vdc_tmpdir_make(&t, dir, ".tmp-", 0755, "test"), 0);
    assert_int_equal(g_rename(t.path, moved), 0);
    vdc_tmpdir_dispose(&t);
    assert_true(g_file_test(moved, G_FILE_TEST_IS_DIR));
    /* made and disposed: gone */
    assert_int_equal(vdc_tmpdir_make(&t, dir, "vmdiskcmp-guestfs-", 0700, "test"), 0);
    g_free(cmd);
    cmd = g_strdup(t.path);
    vdc_tmpdir_dispose(&t);
    assert_false(g_file_test(cmd, G_FILE_TEST_EXISTS));
    vdc_tmpdir_dispose(&t);                                      /* safe twice */
    g_free(cmd);
    cmd = g_strdup_printf("rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_key),
        cmocka_unit_test(test_tmpdir_sweep),
        cmocka_unit_test(test_cache_key_rejects),
        cmocka_unit_test(test_file_sha256),
        cmocka_unit_test(test_manifest_load),
        cmocka_unit_test(test_manifest_garbage),
        cmocka_unit_test(test_prepare_bad_input),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
