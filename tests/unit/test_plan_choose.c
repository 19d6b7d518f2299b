/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the plan chooses when no option names it (vdc_plan_build, build.h):
 * `vmdiskcmp --image --lvm --dom0` with nothing else, on a Xen dom0.  The
 * host's VGs come in as facts (in the real command from libblockdev
 * through the LVM backend table, here from a mock backend or written out),
 * the guest template as a path.  Chosen: the hypervisor, the VG with the
 * most free space that holds the plan's LVs (whole extents, enough PVs for
 * --stripes), the dom0 baseline on it, the installed guest template; each
 * stated in plan.json ("chosen") and the --dry-run text.  Refused in one
 * line, exit 2: a VG off a dom0 without --hypervisor, no VG, no VG with
 * room, two VGs tied, VGs that cannot be listed, no guest template (a run;
 * a dry run states it). */
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
#define TEMPLATE "/usr/local/share/vmdiskcmp/guest/guest.img"

/* a dom0 with 1 GiB of RAM and the installed template */
static vdc_host_defaults
dom0_host(const vdc_vg_fact *vgs, size_t n)
{
    return (vdc_host_defaults){
        .hostname = "xen1", .ram_mib = 1024, .xen_control_d = 1, .date_id = "2026-12-02T040000Z",
        .vgs = vgs, .n_vgs = n, .vgs_listed = 1,
        .guest_template = TEMPLATE, .guest_template_where = TEMPLATE,
    };
}

/* Parse and build @line with host @h; the stderr text in *@err. */
static int
build(const char *line, const vdc_host_defaults *h, vdc_plan *p, char **err)
{
    g_auto(GStrv) argv = NULL;
    char tmpl[] = "/tmp/vdc-test-choose-XXXXXX";
    vdc_run_opts o;
    int argc = 0, rc, fd, saved;

    assert_true(g_shell_parse_argv(line, &argc, &argv, NULL));
    fd = mkstemp(tmpl);
    assert_true(fd >= 0);
    fflush(stderr);
    saved = dup(2);
    dup2(fd, 2);
    vdc_run_opts_init(&o);
    vdc_plan_init(p);
    rc = vdc_run_opts_parse(&o, argc, argv);
    if (rc == 0)
        rc = vdc_plan_build(&o, h, line, p);
    vdc_run_opts_dispose(&o);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    assert_true(g_file_get_contents(tmpl, err, NULL, NULL));
    unlink(tmpl);
    return rc;
}

static const vdc_plan_choice *
choice(const vdc_plan *p, const char *option)
{
    size_t i;

    for (i = 0; i < p->n_chosen; i++)
        if (!strcmp(p->chosen[i].option, option))
            return &p->chosen[i];
    return NULL;
}

static const vdc_plan_target *
target(const vdc_plan *p, const char *name)
{
    size_t i;

    for (i = 0; i < p->n_targets; i++)
        if (!strcmp(p->targets[i].name, name))
            return &p->targets[i];
    return NULL;
}

/* The command as users type it, on a dom0 with three VGs: the one with
 * the most free space; the dom0 baseline on it too; libxl; the installed
 * template; all three stated in plan.json and the text, nothing else. */
static void
test_bare_command(void **state)
{
    const vdc_vg_fact vgs[] = {
        { "small", 512 * MIB, 4 * MIB, 1 },
        { "data", 20480 * MIB, 4 * MIB, 2 },
        { "root", 8192 * MIB, 4 * MIB, 1 },
    };
    vdc_host_defaults h = dom0_host(vgs, G_N_ELEMENTS(vgs));
    g_autofree char *err = NULL, *json = NULL, *text = NULL;
    vdc_plan p;

    assert_int_equal(build("run --image --lvm --dom0", &h, &p, &err), 0);
    assert_string_equal(err, "");
    assert_int_equal(p.hv, VDC_HV_LIBXL);
    assert_string_equal(target(&p, "lvm")->vg, "data");
    assert_string_equal(target(&p, "lvm")->path, "/dev/data/vmdiskcmp-2026-12-02T040000Z-lvm");
    assert_int_equal(target(&p, "dom0")->spec.backing, VDC_BACKING_LVM);
    assert_string_equal(target(&p, "dom0")->vg, "data");
    assert_string_equal(p.guest_image, TEMPLATE);
    assert_int_equal(p.n_chosen, 3);
    assert_string_equal(choice(&p, "--hypervisor")->value, "libxl");
    assert_string_equal(choice(&p, "--vg")->value, "data");
    /* 2x 512 MiB guest RAM + 25 % + 64 MiB = 1344 MiB, and 2x 1024 + 25 % + 64 = 2624 */
    assert_non_null(strstr(choice(&p, "--vg")->why, "(3968 MiB together"));
    assert_non_null(strstr(choice(&p, "--vg")->why, "VGs: small 512 MiB free, data 20480 MiB free, root 8192 MiB free)"));
    assert_string_equal(choice(&p, "--guest-image")->value, TEMPLATE);
    assert_non_null(strstr(choice(&p, "--guest-image")->why, "on first use"));
    assert_non_null(strstr(choice(&p, "--guest-image")->why, "/var/cache/vmdiskcmp"));
    json = vdc_plan_to_json(&p);
    assert_non_null(strstr(json, "\"option\" : \"--vg\",\n      \"value\" : \"data\""));
    assert_non_null(strstr(json, "\"template\" : \"" TEMPLATE "\""));
    text = vdc_plan_to_text(&p);
    assert_non_null(strstr(text, "chosen (no option named them):\n  --vg data: the VG with the most free space"));
    assert_non_null(strstr(text, "  --hypervisor libxl: this host is a Xen dom0"));
    assert_non_null(strstr(text, "  --guest-image " TEMPLATE ": the installed guest template"));
    vdc_plan_dispose(&p);
}

/* Named options are not chosen and not stated: plan.json has no "chosen". */
static void
test_named_not_chosen(void **state)
{
    vdc_host_defaults h = dom0_host(NULL, 0);
    g_autofree char *err = NULL, *json = NULL;
    vdc_plan p;

    h.vgs_listed = 0;    /* --vg given: the VGs are not looked up */
    assert_int_equal(build("run --hypervisor libxl --image --lvm --vg vg0 --dom0 --guest-image /g.img",
                           &h, &p, &err), 0);
    assert_int_equal(p.n_chosen, 0);
    assert_string_equal(target(&p, "lvm")->vg, "vg0");
    json = vdc_plan_to_json(&p);
    assert_null(strstr(json, "\"chosen\""));
    vdc_plan_dispose(&p);
}

/* Room: the biggest VG that holds both LVs, each rounded up to whole
 * extents; a VG with fewer PVs than --stripes is passed over. */
static void
test_room_and_stripes(void **state)
{
    /* --size 100M: LV 100+25+64 = 189 MiB; dom0 2x1024+25%+64 = 2624 MiB */
    const vdc_vg_fact vgs[] = {
        { "big1pv", 40960 * MIB, 4 * MIB, 1 },
        { "two", 4096 * MIB, 4 * MIB, 2 },
        { "tight", 2813 * MIB, 4 * MIB, 2 },   /* 189 + 2624 = 2813, but extents make it 2816 */
    };
    vdc_host_defaults h = dom0_host(vgs, G_N_ELEMENTS(vgs));
    g_autofree char *err = NULL, *err2 = NULL;
    vdc_plan p;

    assert_int_equal(build("run --image --lvm --dom0 --size 100M --stripes 2", &h, &p, &err), 0);
    assert_string_equal(target(&p, "lvm")->vg, "two");
    vdc_plan_dispose(&p);
    /* without "two": "tight" misses by the extent rounding */
    h.n_vgs = 1;
    h.vgs = &vgs[2];
    assert_int_equal(build("run --image --lvm --dom0 --size 100M", &h, &p, &err2), -1);
    assert_string_equal(err2, "vmdiskcmp: --lvm: expected --vg VG: no VG holds the plan's LVs (VG tight has "
                              "the most free space, 2.7 GiB; they need 2.8 GiB, 3 MiB more): name a VG, or "
                              "give a smaller --size\n");
    vdc_plan_dispose(&p);
}

/* Choices that cannot be made safely: one line each, nothing planned. */
static void
test_refused(void **state)
{
    const vdc_vg_fact tied[] = {
        { "a", 8192 * MIB, 4 * MIB, 1 }, { "b", 8192 * MIB, 4 * MIB, 1 }, { "c", 1024 * MIB, 4 * MIB, 1 },
    };
    const vdc_vg_fact one[] = { { "only", 8192 * MIB, 4 * MIB, 1 } };
    static const struct {
        const char *line;
        int dom0, listed, n_vgs, tie, no_template;
        const char *error;
        const char *want;
    } cases[] = {
        { "run --image --lvm --dom0", 0, 1, 1, 0, 0, NULL,
          "vmdiskcmp: --lvm: expected --vg VG (a VG is chosen only in a Xen dom0 or with --hypervisor: "
          "this host is not a Xen dom0)\n" },
        { "run --image --lvm --dom0", 1, 1, 0, 0, 0, NULL,
          "vmdiskcmp: --lvm: expected --vg VG: this host has no LVM volume group\n" },
        { "run --image --lvm --dom0", 1, 1, 3, 1, 0, NULL,
          "vmdiskcmp: --lvm: expected --vg VG: VGs a and b both have the most free space (8 GiB): "
          "name one\n" },
        { "run --image --lvm --dom0", 1, 1, 1, 0, 0, "Failed to call the VgsFull method",
          "vmdiskcmp: --lvm: expected --vg VG (the host's VGs could not be listed: Failed to call the "
          "VgsFull method)\n" },
        { "run --image --dom0 --dom0-on lvm", 0, 1, 1, 0, 0, NULL,
          "vmdiskcmp: --dom0-on lvm: expected --vg VG (a VG is chosen only in a Xen dom0 or with --hypervisor: "
          "this host is not a Xen dom0)\n" },
        { "run --image --lvm --dom0 --stripes 2", 1, 1, 1, 0, 0, NULL,
          "vmdiskcmp: --lvm: expected --vg VG: no VG has the 2 PVs --stripes 2 needs (only 8192 MiB free)\n" },
        { "run --image --lvm --dom0", 1, 1, 1, 0, 1, NULL,
          "vmdiskcmp: --guest-image: expected a guest template (or --prepared-image) for the domU targets: "
          "none is installed (looked for /b/guest-template/guest.img, " TEMPLATE "; `make guest-template` "
          "builds one, `make install` installs it; doc/guest-template.md)\n" },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        vdc_host_defaults h = dom0_host(cases[i].tie ? tied : one,
                                        cases[i].tie ? G_N_ELEMENTS(tied) : (size_t)cases[i].n_vgs);
        g_autofree char *err = NULL;
        vdc_plan p;

        h.xen_control_d = cases[i].dom0;
        h.vgs_error = cases[i].error;
        if (cases[i].no_template) {
            h.guest_template = NULL;
            h.guest_template_where = "/b/guest-template/guest.img, " TEMPLATE;
        }
        assert_int_equal(build(cases[i].line, &h, &p, &err), -1);
        if (strcmp(err, cases[i].want))
            fail_msg("case %zu (%s): got\n%s\nwant\n%s", i, cases[i].line, err, cases[i].want);
        vdc_plan_dispose(&p);
    }
}

/* Off a dom0 a named hypervisor makes the VG choice; a dry run without a
 * template states that a run would refuse, and plans the rest. */
static void
test_hypervisor_named_and_dry_run(void **state)
{
    const vdc_vg_fact one[] = { { "lab", 2048 * MIB, 4 * MIB, 1 } };
    vdc_host_defaults h = dom0_host(one, 1);
    g_autofree char *err = NULL;
    vdc_plan p;

    h.xen_control_d = 0;
    h.guest_template = NULL;
    assert_int_equal(build("run --hypervisor libvirt --connect qemu:///system --image --lvm --dom0 "
                           "--size 64M --dom0-size 64M --dry-run", &h, &p, &err), 0);
    assert_string_equal(err, "");
    assert_string_equal(target(&p, "lvm")->vg, "lab");
    assert_null(p.guest_image);
    assert_null(choice(&p, "--hypervisor"));     /* named */
    assert_string_equal(choice(&p, "--guest-image")->value, "(none)");
    assert_non_null(strstr(choice(&p, "--guest-image")->why, "a run refuses"));
    vdc_plan_dispose(&p);
}

/* ---- the VGs from the LVM backend table (the injectable source) ------------- */

static int
mk_vg_list(struct vdc_lvm_vg_entry **vgs, size_t *n, char **why)
{
    *n = 2;
    *vgs = g_new0(struct vdc_lvm_vg_entry, 2);
    (*vgs)[0].name = g_strdup("lab");
    (*vgs)[0].facts = (struct vdc_lvm_vg_facts){ .size = 2048 * MIB, .free = 2040 * MIB,
                                                 .extent_size = 4 * MIB, .pv_count = 1 };
    (*vgs)[1].name = g_strdup("spare");
    (*vgs)[1].facts = (struct vdc_lvm_vg_facts){ .size = 512 * MIB, .free = 512 * MIB,
                                                 .extent_size = 4 * MIB, .pv_count = 1 };
    return 0;
}

static int
mk_vg_info(const char *vg, struct vdc_lvm_vg_facts *out, char **why)
{
    struct vdc_lvm_vg_entry *v = NULL;
    size_t n = 0;

    mk_vg_list(&v, &n, why);
    *out = v[strcmp(vg, "lab") ? 1 : 0].facts;
    vdc_storage_lvm_vgs_free(v, n);
    return 0;
}

static int
mk_lv_exists(const char *vg, const char *lv, char **why)
{
    return 0;
}

static const struct vdc_lvm_backend mock_lvm = {
    .vg_info = mk_vg_info,
    .vg_list = mk_vg_list,
    .lv_exists = mk_lv_exists,
};

/* The lab's job as the main job passes it (sizes only): the listing
 * through the backend table, the plan's choice, and the room check the run
 * makes before anything is created, agreeing. */
static void
test_backend_listing(void **state)
{
    struct vdc_lvm_vg_entry *v = NULL;
    vdc_vg_fact facts[2];
    vdc_host_defaults h;
    g_autofree char *err = NULL, *why = NULL;
    size_t n = 0, i;
    vdc_plan p;

    vdc_storage_lvm_set_backend(&mock_lvm);
    assert_int_equal(vdc_storage_lvm_vgs(&v, &n, &why), 0);
    assert_int_equal(n, 2);
    for (i = 0; i < n; i++)
        facts[i] = (vdc_vg_fact){ v[i].name, v[i].facts.free, v[i].facts.extent_size, v[i].facts.pv_count };
    h = dom0_host(facts, n);
    h.ram_mib = 1024;
    assert_int_equal(build("run --image --lvm --dom0 --runs auto --guest-memory 128 "
                           "--size 32M --dom0-memory-max 16 --dom0-size 32M", &h, &p, &err), 0);
    assert_string_equal(target(&p, "lvm")->vg, "lab");
    assert_string_equal(target(&p, "dom0")->vg, "lab");
    assert_int_equal(vdc_run_check_lvm_room(&p), 0);
    vdc_plan_dispose(&p);
    vdc_storage_lvm_vgs_free(v, n);
    vdc_storage_lvm_set_backend(NULL);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bare_command),
        cmocka_unit_test(test_named_not_chosen),
        cmocka_unit_test(test_room_and_stripes),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_hypervisor_named_and_dry_run),
        cmocka_unit_test(test_backend_listing),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
