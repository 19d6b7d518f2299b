/* Unit tests of `vmdiskcmp lab` option parsing and the lab.sh argv
 * (src/lab/lab.c): pure code, no lab is built or booted here. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>

#include "lab/lab.h"

static int
parse(struct vdc_lab_opts *o, const char *line)
{
    g_auto(GStrv) av = g_strsplit(line, " ", -1);

    vdc_lab_opts_init(o);
    return vdc_lab_parse(o, (int)g_strv_length(av), av);
}

static char *
joined_argv(struct vdc_lab_opts *o)
{
    g_auto(GStrv) av = NULL;

    o->script_dir = g_strdup("/S");
    o->cache_dir = o->cache_dir ? o->cache_dir : g_strdup("/C");
    av = vdc_lab_argv(o);
    return g_strjoinv(" ", av);
}

static void
test_run_argv(void **state)
{
    struct vdc_lab_opts o;
    g_autofree char *s = NULL;

    assert_int_equal(parse(&o, "lab run --out /r --file /x/g.qcow2=guest.img --timeout=900 "
                               "--vmdiskcmp /b/vmdiskcmp --prepared /p/g.img -- --image --lvm --dom0 --vg lab --runs 3"), 0);
    s = joined_argv(&o);
    assert_string_equal(s, "/bin/bash /S/lab.sh run --cache-dir /C --out /r --timeout 900 "
                           "--vmdiskcmp /b/vmdiskcmp --prepared /p/g.img --file /x/g.qcow2=guest.img -- "
                           "--image --lvm --dom0 --vg lab --runs 3");
    vdc_lab_opts_dispose(&o);
    vdc_lab_opts_dispose(&o); /* twice is safe */
}

static void
test_build_and_selftest_argv(void **state)
{
    struct vdc_lab_opts o;
    g_autofree char *b = NULL;
    g_autofree char *t = NULL;

    assert_int_equal(parse(&o, "lab build --cache-dir /k"), 0);
    b = joined_argv(&o);
    assert_string_equal(b, "/bin/bash /S/lab.sh build --cache-dir /k");
    vdc_lab_opts_dispose(&o);

    assert_int_equal(parse(&o, "lab selftest --libvirt --out o"), 0);
    t = joined_argv(&o);
    assert_string_equal(t, "/bin/bash /S/lab.sh selftest --cache-dir /C --out o --timeout 3600 --libvirt");
    vdc_lab_opts_dispose(&o);
}

static void
test_bad_input(void **state)
{
    static const char *const bad[] = {
        "lab",                               /* no action */
        "lab boot",                          /* unknown action */
        "lab run --out x",                   /* run without -- ARGS */
        "lab build --out x",                 /* option not for this action */
        "lab selftest --timeout 0",          /* timeout range */
        "lab selftest --timeout 12s",        /* timeout not seconds */
        "lab selftest --timeout",            /* missing value */
        "lab selftest --libvirt=yes",        /* flag with a value */
        "lab selftest --bogus",              /* unknown option */
        "lab selftest stray",                /* argument before -- */
        "lab build -- --image",              /* args only for run */
        "lab selftest --prepared /p/g.img",  /* run only */
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(bad); i++) {
        struct vdc_lab_opts o;

        assert_int_equal(parse(&o, bad[i]), -1);
        vdc_lab_opts_dispose(&o);
    }
}

static void
test_help(void **state)
{
    struct vdc_lab_opts o;

    assert_int_equal(parse(&o, "lab --help"), 1);
    vdc_lab_opts_dispose(&o);
}

static void
test_default_paths(void **state)
{
    struct vdc_lab_opts o;

    unsetenv("VDC_LAB_DIR");
    unsetenv("VDC_LAB_CACHE");
    vdc_lab_opts_init(&o);
    vdc_lab_default_paths(&o, "/usr/bin/vmdiskcmp");
    assert_string_equal(o.script_dir, VDC_DATADIR "/lab");
    assert_string_equal(o.cache_dir, "/var/cache/vmdiskcmp-lab");
    vdc_lab_opts_dispose(&o);

    setenv("VDC_LAB_DIR", "/L", 1);
    setenv("VDC_LAB_CACHE", "/K", 1);
    vdc_lab_opts_init(&o);
    vdc_lab_default_paths(&o, NULL);
    assert_string_equal(o.script_dir, "/L");
    assert_string_equal(o.cache_dir, "/K");
    vdc_lab_opts_dispose(&o);
    unsetenv("VDC_LAB_DIR");
    unsetenv("VDC_LAB_CACHE");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_argv),
        cmocka_unit_test(test_build_and_selftest_argv),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_default_paths),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
