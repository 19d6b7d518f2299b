/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The VG room check of a plan (vdc_run_check_lvm_room, used by `run` and
 * --dry-run before anything is created) against a mock LVM backend
 * (vdc_storage_lvm_set_backend): the LVs of one plan are checked together,
 * in provisioning order, each rounded up to whole extents (x stripes) as
 * LVM does, and a shortfall gives the create's own one-line message.  The
 * mock records that nothing is created.  The same check against a real VG
 * on a loop device: tests/integration/run-dryrun-vg.sh. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "plan/build.h"
#include "plan/options.h"
#include "plan/plan.h"
#include "run/preflight.h"
#include "storage/storage.h"

#define MIB (1ULL << 20)

static struct {
    uint64_t free;           /* bytes free in vg0 */
    unsigned pvs;
    unsigned vg_queries, creates;
} m;

static int
mk_vg_info(const char *vg, struct vdc_lvm_vg_facts *out, char **why)
{
    m.vg_queries++;
    if (strcmp(vg, "vg0")) {
        *why = g_strdup_printf("Volume group \"%s\" not found", vg);
        return -1;
    }
    out->size = 1024 * MIB;
    out->free = m.free;
    out->extent_size = 4 * MIB;
    out->pv_count = m.pvs;
    return 0;
}

static int
mk_lv_exists(const char *vg, const char *lv, char **why)
{
    return 0;
}

static int
mk_lv_create(const char *vg, const char *lv, uint64_t size, unsigned stripes,
             uint64_t stripe_size, const char *const *tags, char **why)
{
    m.creates++;
    return 0;
}

static const struct vdc_lvm_backend mock_lvm = {
    .vg_info = mk_vg_info,
    .lv_exists = mk_lv_exists,
    .lv_create = mk_lv_create,
};

static const vdc_host_defaults host = {
    .hostname = "host1", .ram_mib = 1024, .xen_control_d = 0, .date_id = "2026-11-30T101500Z",
};

/* build the plan of @line, run the room check with vg0 holding @free_mib;
 * return its result and the stderr text */
static int
check_line(const char *line, uint64_t free_mib, unsigned pvs, char **err_out)
{
    g_auto(GStrv) argv = g_strsplit(line, " ", -1);
    char tmpl[] = "/tmp/vdc-test-vgroom-XXXXXX";
    vdc_run_opts o;
    vdc_plan p;
    int rc, fd, saved;

    memset(&m, 0, sizeof(m));
    m.free = free_mib * MIB;
    m.pvs = pvs;
    vdc_run_opts_init(&o);
    vdc_plan_init(&p);
    assert_int_equal(vdc_run_opts_parse(&o, (int)g_strv_length(argv), argv), 0);
    assert_int_equal(vdc_plan_build(&o, &host, line, &p), 0);
    fd = mkstemp(tmpl);
    assert_true(fd >= 0);
    fflush(stderr);
    saved = dup(2);
    dup2(fd, 2);
    rc = vdc_run_check_lvm_room(&p);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    assert_true(g_file_get_contents(tmpl, err_out, NULL, NULL));
    unlink(tmpl);
    assert_int_equal(m.creates, 0);    /* a check never creates */
    vdc_plan_dispose(&p);
    vdc_run_opts_dispose(&o);
    return rc;
}

static int
setup(void **state)
{
    vdc_storage_lvm_set_backend(&mock_lvm);
    return 0;
}

static int
teardown(void **state)
{
    vdc_storage_lvm_set_backend(NULL);
    return 0;
}

#define GUEST "--guest-image /g --hypervisor libvirt --connect qemu:///system "

/* lvm 32M + 25% + 64M = 104 MiB, dom0 104 MiB: 208 MiB fits exactly */
static void
test_fits(void **state)
{
    g_autofree char *e1 = NULL, *e2 = NULL, *e3 = NULL;

    assert_int_equal(check_line("run " GUEST "--lvm --vg vg0 --dom0 --size 32M --dom0-size 32M",
                                208, 1, &e1), 0);
    assert_string_equal(e1, "");
    assert_int_equal(m.vg_queries, 2);
    /* no LV in the plan: no VG query at all */
    assert_int_equal(check_line("run " GUEST "--image --dom0 --dom0-on image", 0, 1, &e2), 0);
    assert_int_equal(m.vg_queries, 0);
    /* whole extents: 250M is 63 extents = 252 MiB */
    assert_int_equal(check_line("run " GUEST "--lvm --vg vg0 --size 32M --lv-size 250M", 252, 1, &e3), 0);
}

/* each LV fits alone, not both: the second gets the create's message with
 * the free space the real run would then see */
static void
test_together_short(void **state)
{
    g_autofree char *err = NULL;

    assert_int_equal(check_line("run " GUEST "--lvm --vg vg0 --dom0 --size 32M --dom0-size 32M",
                                207, 1, &err), -1);
    assert_string_equal(err, "vmdiskcmp: storage dom0: VG vg0 has 103 MiB free, "
                             "the LV needs 104 MiB (1 MiB more)\n");
}

static void
test_one_short(void **state)
{
    g_autofree char *e1 = NULL, *e2 = NULL;

    assert_int_equal(check_line("run " GUEST "--lvm --vg vg0 --size 32M --lv-size 253M", 252, 1, &e1), -1);
    assert_string_equal(e1, "vmdiskcmp: storage lvm: VG vg0 has 252 MiB free, "
                            "the LV needs 256 MiB (4 MiB more)\n");
    /* stripes: rounded to extent x stripes (2 x 4 MiB): 102M -> 104 MiB */
    assert_int_equal(check_line("run " GUEST "--lvm --vg vg0 --size 16M --lv-size 102M --stripes 2",
                                103, 2, &e2), -1);
    assert_non_null(strstr(e2, "the LV needs 104 MiB ("));
}

static void
test_vg_problems(void **state)
{
    g_autofree char *e1 = NULL, *e2 = NULL;

    assert_int_equal(check_line("run " GUEST "--lvm --vg vg9 --size 32M", 1000, 1, &e1), -1);
    assert_string_equal(e1, "vmdiskcmp: storage lvm: VG vg9: Volume group \"vg9\" not found\n");
    assert_int_equal(check_line("run " GUEST "--lvm --vg vg0 --size 32M --stripes 3", 1000, 2, &e2), -1);
    assert_string_equal(e2, "vmdiskcmp: storage lvm: 3 stripes but VG vg0 has 2 PVs\n");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_together_short, setup, teardown),
        cmocka_unit_test_setup_teardown(test_one_short, setup, teardown),
        cmocka_unit_test_setup_teardown(test_vg_problems, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
