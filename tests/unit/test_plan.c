/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The options table and the plan (src/plan/): bad input is refused with
 * one line naming the option and what was expected; defaults; targets,
 * vdevs, sizes; the schedule (interleaved / grouped, boots, seeds). */
#include "config.h"

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

#include "plan/build.h"
#include "plan/options.h"
#include "plan/plan.h"

static const vdc_host_defaults host = {
    .hostname = "host1", .ram_mib = 1024, .xen_control_d = 0, .date_id = "2026-11-30T101500Z",
};

/* Parse and build @line ("run ..."); return -1/0 and the stderr text. */
static int
try_line(const char *line, char **err_out, vdc_plan *p)
{
    g_auto(GStrv) argv = NULL;
    int argc = 0, rc, saved, fd;
    char tmpl[] = "/tmp/vdc-test-plan-XXXXXX";
    vdc_run_opts o;

    assert_true(g_shell_parse_argv(line, &argc, &argv, NULL));
    fd = mkstemp(tmpl);
    assert_true(fd >= 0);
    fflush(stderr);
    saved = dup(2);
    dup2(fd, 2);
    vdc_run_opts_init(&o);
    rc = vdc_run_opts_parse(&o, argc, argv);
    if (rc == 0)
        rc = vdc_plan_build(&o, &host, line, p);
    vdc_run_opts_dispose(&o);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    close(fd);
    assert_true(g_file_get_contents(tmpl, err_out, NULL, NULL));
    unlink(tmpl);
    return rc;
}

static void
test_bad_input(void **state)
{
    static const struct {
        const char *line, *want;   /* want: in the one error line */
    } cases[] = {
        { "run --image --bogus", "unknown option '--bogus'" },
        { "run --image --runs", "--runs: expected a value" },
        { "run --image --runs 0", "--runs '0': expected an integer from 1 to 1000" },
        { "run --image --runs x", "--runs 'x': expected an integer" },
        { "run --image --size 12Q", "--size '12Q': expected a size" },
        { "run --image --size 0", "--size '0': expected a size" },
        { "run --image --order random", "--order 'random': expected one of rotated|interleaved|grouped" },
        { "run --image --image-backend auto,vhd", "--image-backend 'auto,vhd': expected a comma list" },
        { "run --image --image-format vmdk", "--image-format 'vmdk': expected a comma list of raw|qcow2" },
        { "run --image --image-format raw --image-alloc metadata",
          "the matrix has no image target left: image-meta: metadata is qcow2's preallocation" },
        { "run --image --qcow2-cluster-size 64K", "--qcow2-cluster-size 64 KiB: expected --image-format qcow2" },
        { "run --image --image-format qcow2 --qcow2-cluster-size 3K",
          "--qcow2-cluster-size 3 KiB: expected a power of two from 512 bytes to 2 MiB" },
        { "run --hypervisor libxl --image --image-format qcow2 --qcow2-l2-cache-size 4M",
          "--qcow2-l2-cache-size 4 MiB: expected a QEMU/KVM domain" },
        { "run --lvm --vg vg0 --thin-zero no", "--thin-zero no: expected --lv-type thin" },
        { "run --lvm --vg vg0 --lv-type thin --thin-chunk-size 32K",
          "--thin-chunk-size 32 KiB: expected a power of two from 64 KiB to 1 GiB" },
        { "run --lvm --vg vg0 --lv-type striped", "--lv-type striped: expected --stripes N" },
        { "run --lvm --vg vg0 --lv-type linear,thin --stripes 2", "--stripes 2: expected --lv-type striped" },
        { "run --image --lv-type thin", "--lv-type thin: expected --lvm as well" },
        { "run --image --fill 96", "--fill '96': expected a comma list of integers from 0 to 95" },
        { "run --image --precondition on", "--precondition on: expected --workload-on raw" },
        { "run --image --precondition-time 60", "--precondition-time 60: expected --precondition on" },
        { "run --image --tests workloads --workload randread-4k-qd1 --workload-on raw --fill 50",
          "--fill 50: expected a pass on the filesystem" },
        { "run --image --workload randread-4k-qd1 --workload-on raw --precondition on --precondition-time 30:30",
          "--precondition-time '30:30': expected MAX[:WINDOW]" },
        { "run --image --hypervisor xend", "--hypervisor 'xend': expected one of" },
        { "run --lvm", "--lvm: expected --vg VG" },
        { "run --lvm --vg vg0 --stripe-size 64K", "--stripe-size 64 KiB: expected --stripes N with N >= 2 as well" },
        { "run --lvm --vg vg0 --stripes 2 --stripe-size 48K",
          "--stripe-size 48 KiB: expected a power of two of at least 4 KiB (e.g. 64K; a bare number is MiB)" },
        { "run --lvm --vg vg0 --stripes 2 --stripe-size 3K", "--stripe-size 3 KiB: expected a power of two of at least 4 KiB" },
        { "run --lvm --vg vg0 --stripes 2 --stripe-size 2K", "--stripe-size 2 KiB: expected a power of two of at least 4 KiB" },
        /* a number's unit in the message: MiB, seconds */
        { "run --dom0 --dom0-memory-max 8", "--dom0-memory-max '8': expected an integer from 16 to 16777216 MiB" },
        { "run --image --guest-memory 32", "--guest-memory '32': expected an integer from 64 to 1048576 MiB" },
        { "run --image --timeout 5", "--timeout '5': expected an integer from 10 to 604800 seconds" },
        { "run --block /dev/sdb", "--block/--target: expected --destroy-data" },
        { "run --block sdb --destroy-data", "--block 'sdb': expected an absolute device path" },
        { "run --target Bad=/dev/sdb --destroy-data", "--target 'Bad=/dev/sdb': expected NAME=/dev/DEVICE" },
        /* the control disk carries names of at most 64 bytes: refused when given */
        { "run --target aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=/dev/sdb --destroy-data",
          "--target 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa=/dev/sdb': expected "
          "NAME=/dev/DEVICE with NAME of 1-64 of [a-z0-9_-]" },
        { "run --image --seed -1", "--seed '-1': expected a decimal integer" },
        { "run --image --seed 18446744073709551616", "--seed '18446744073709551616': expected" },
        { "run --image extra", "unexpected argument 'extra'" },
        { "run --image --image-backend qdisk --connect qemu:///system --hypervisor libvirt --guest-image /g",
          "--image-backend qdisk: expected auto with a QEMU/KVM domain" },
        { "run --image --image-backend tap,tap --hypervisor libxl --guest-image /g",
          "--image-backend 'tap,tap': 'tap' given twice: expected each of auto|phy|qdisk|tap at most once" },
        { "run --image --hypervisor libxl --connect xen:///system --guest-image /g",
          "--connect xen:///system: expected only with --hypervisor libvirt" },
        { "run --image --hypervisor libvirt", "--guest-image: expected a guest template" },
        { "run --dom0 --dom0-on lvm", "--dom0-on lvm: expected --vg VG" },
        { "run --dom0 --dom0-on /dev/sdc", "--dom0-on /dev/sdc: expected --destroy-data" },
        { "run --dom0-size 1G", "--dom0-size 1 GiB: expected --dom0 as well" },
        { "run --dom0-memory-max 64", "--dom0-memory-max 64 MiB: expected --dom0 as well" },
        { "run --dom0-on image", "--dom0-on image: expected --dom0 as well" },
        { "run --dom0-ram 512", "--dom0-ram 512 MiB: expected --dom0 as well" },
        { "run --dom0 --dom0-ram 16 --dom0-memory-max 64",
          "--dom0-ram 16 MiB: expected no --dom0-memory-max (the agent in dom0 is told its cgroup's limit)" },
        { "run", "nothing to run" },
        { "run --image --image-cache bogus", "--image-cache 'bogus': expected a comma list of host|none" },
        { "run --image --image-cache none,none --guest-image /g",
          "--image-cache 'none,none': 'none' given twice: expected each of host|none at most once" },
        { "run --image --image-cache host,none,host --guest-image /g",
          "--image-cache 'host,none,host': 'host' given twice: expected each of host|none at most once" },
        { "run --image --tests bonnie,bonnie", "--tests 'bonnie,bonnie': 'bonnie' given twice: expected each of" },
        { "run --lvm --vg vg0 --image-cache none", "--image-cache none: expected --image as well" },
        /* an option whose target is absent: refused, never ignored */
        { "run --dom0 --image-cache none", "--image-cache none: expected --image as well" },
        { "run --dom0 --image-backend qdisk", "--image-backend qdisk: expected --image as well" },
        { "run --dom0 --image-format qcow2", "--image-format qcow2: expected --image as well" },
        { "run --dom0 --vg vg0 --image-alloc full", "--image-alloc full: expected an image target as well" },
        { "run --dom0 --image-alloc full --dom0-on /dev/sdc --destroy-data",
          "--image-alloc full: expected an image target as well" },
        { "run --image --vg vg0 --guest-image /g", "--vg vg0: expected an LV target as well" },
        { "run --dom0 --dom0-on image --vg vg0", "--vg vg0: expected an LV target as well" },
        { "run --dom0 --size 1G", "--size 1 GiB: expected a domU target as well" },
        { "run --dom0 --stripes 2", "--stripes 2: expected --lvm (or --dom0 with --vg) as well" },
        { "run --dom0 --lv-size 2G", "--lv-size 2 GiB: expected --lvm (or --dom0 with --vg) as well" },
        { "run --image --runs 2 --runs 3", "--runs given twice ('2', then '3'): expected one value" },
        { "run --image --image --runs 2", "--image given twice: expected it once" },
        { "run --image --guests 63,64 --runs 1000 --guest-image /g", "--runs 1000: 1 target(s) at their --guests levels make 127000 runs: expected at most 100000 in one result" },
        { "run --image --out a --out b", "--out given twice ('a', then 'b'): expected one value" },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        vdc_plan p;
        g_autofree char *err = NULL;
        vdc_plan_init(&p);
        if (try_line(cases[i].line, &err, &p) != -1 || !strstr(err, cases[i].want) ||
            strchr(err, '\n') != err + strlen(err) - 1) {
            print_error("case '%s': got '%s', wanted one line with '%s'\n", cases[i].line,
                        err, cases[i].want);
            fail();
        }
        vdc_plan_dispose(&p);
    }
    {
        /* a command line longer than a result records whole */
        GString *line = g_string_new("run --image --guest-image /g --cmdline ");
        g_autofree char *err = NULL;
        vdc_plan p;

        while (line->len <= 65536)
            g_string_append_c(line, 'A');
        vdc_plan_init(&p);
        assert_int_equal(try_line(line->str, &err, &p), -1);
        assert_non_null(strstr(err, "the command line: 65537 bytes: expected at most 65536"));
        vdc_plan_dispose(&p);
        g_string_free(line, TRUE);
    }
}

/* vdevs run out at z: root + 24 targets + control disk (with a
 * --max-targets that lets that many through) */
static void
test_too_many_disks(void **state)
{
    GString *line = g_string_new("run --destroy-data --guest-image /g --max-targets 30");
    g_autofree char *err = NULL, *err2 = NULL;
    vdc_plan p;
    int i;

    for (i = 0; i < 24; i++)
        g_string_append_printf(line, " --block /dev/b%d", i);
    vdc_plan_init(&p);
    assert_int_equal(try_line(line->str, &err, &p), 0);
    assert_string_equal(p.ctl_vdev, "vdz");
    vdc_plan_dispose(&p);
    g_string_append(line, " --block /dev/b24");
    vdc_plan_init(&p);
    assert_int_equal(try_line(line->str, &err2, &p), -1);
    assert_non_null(strstr(err2, "too many targets"));
    vdc_plan_dispose(&p);
    g_string_free(line, TRUE);
}

static void
test_defaults(void **state)
{
    vdc_plan p;
    g_autofree char *err = NULL;

    vdc_plan_init(&p);
    assert_int_equal(try_line("run --image --dom0 --guest-image /g.img --seed 5", &err, &p), 0);
    assert_int_equal(p.hv, VDC_HV_LIBVIRT);            /* not a Xen dom0 */
    assert_string_equal(p.uri, "qemu:///system");
    assert_string_equal(p.domain_type, "kvm");         /* TCG only when asked */
    assert_string_equal(p.out_dir, "results/2026-11-30T101500Z-host1");
    assert_int_equal(p.runs, 5);
    assert_int_equal(p.n_targets, 2);
    assert_string_equal(p.targets[0].name, "image");
    assert_string_equal(p.targets[0].vdev, "vdb");
    assert_string_equal(p.ctl_vdev, "vdc");
    /* 2x guest RAM in the guest, 2x dom0 RAM in dom0 */
    assert_int_equal(p.targets[0].test_bytes, 2ULL * 512 << 20);
    assert_int_equal(p.targets[1].test_bytes, 2ULL * 1024 << 20);
    assert_int_equal(p.targets[1].spec.where, VDC_WHERE_DOM0);
    assert_int_equal(p.targets[1].spec.backing, VDC_BACKING_IMAGE);
    assert_int_equal(p.dom0_memory_max_mib, 0);
    vdc_plan_dispose(&p);
    /* in a memory cgroup: the agent told its limit, the file twice it */
    vdc_plan_init(&p);
    assert_int_equal(try_line("run --image --dom0 --dom0-memory-max 96 --guest-image /g.img --seed 5", &err, &p), 0);
    assert_int_equal(p.dom0_memory_max_mib, 96);
    assert_int_equal(p.dom0_ram_mib, 96);
    assert_int_equal(p.targets[1].test_bytes, 2ULL * 96 << 20);
    vdc_plan_dispose(&p);
    vdc_plan_dispose(&p);
}

/* A dom0 test file under twice the RAM dom0's agent is told: one warning
 * line naming --dom0-size, the RAM and where it came from, and what is
 * expected; none at twice the RAM or without a dom0 target */
static void
test_dom0_size_warning(void **state)
{
    static const struct {
        const char *line, *want;   /* want: NULL no warning */
    } cases[] = {
        { "run --image --dom0 --dom0-size 64M --guest-image /g.img --seed 5",
          "--dom0-size 64 MiB is under twice dom0's RAM (1024 MiB, the host's MemTotal): expected at least "
          "2048 MiB, or dom0's page cache flatters the baseline (bonnie++'s rule; the report marks it "
          "under-2x-ram)" },
        { "run --image --dom0 --dom0-size 64M --dom0-ram 4096 --guest-image /g.img --seed 5",
          "(4096 MiB, --dom0-ram): expected at least 8192 MiB" },
        { "run --image --dom0 --dom0-size 100M --dom0-memory-max 64 --guest-image /g.img --seed 5",
          "--dom0-size 100 MiB is under twice dom0's RAM (64 MiB, --dom0-memory-max): expected at least 128 MiB" },
        { "run --image --dom0 --dom0-size 2G --guest-image /g.img --seed 5", NULL },
        { "run --image --dom0 --guest-image /g.img --seed 5", NULL },
        { "run --image --size 64M --guest-image /g.img --seed 5", NULL },
    };
    size_t i;

    (void)state;
    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        vdc_plan p;
        g_autofree char *err = NULL, *w = NULL;

        vdc_plan_init(&p);
        assert_int_equal(try_line(cases[i].line, &err, &p), 0);
        w = vdc_plan_dom0_size_warning(&p);
        if (!cases[i].want) {
            if (w)
                fail_msg("%s: unexpected warning '%s'", cases[i].line, w);
        } else if (!w || !strstr(w, cases[i].want) || strchr(w, '\n')) {
            fail_msg("%s: warning '%s', expected '%s' in one line", cases[i].line, w ? w : "(none)",
                     cases[i].want);
        }
        vdc_plan_dispose(&p);
    }
}

/* The run id with its random suffix names everything the run creates: the
 * result directory, the domain, images, LVs (those without the host). */
static void
test_run_id_suffix_names_every_object(void **state)
{
    vdc_plan p;
    vdc_host_defaults h = host;
    g_auto(GStrv) argv = g_strsplit("run --image --lvm --vg vg0 --dom0 --dom0-on image "
                                    "--image-dir /i --guest-image /g", " ", -1);
    vdc_run_opts o;

    h.date_id = "2026-11-30T101500.123Z";
    h.suffix = "3fa9c2";
    vdc_plan_init(&p);
    vdc_run_opts_init(&o);
    assert_int_equal(vdc_run_opts_parse(&o, (int)g_strv_length(argv), argv), 0);
    assert_int_equal(vdc_plan_build(&o, &h, "x", &p), 0);
    assert_string_equal(p.id, "2026-11-30T101500.123Z-host1-3fa9c2");
    assert_string_equal(p.out_dir, "results/2026-11-30T101500.123Z-host1-3fa9c2");
    assert_string_equal(p.domain_name, "vmdiskcmp-2026-11-30T101500.123Z-host1-3fa9c2");
    assert_string_equal(p.targets[0].path, "/i/vmdiskcmp-2026-11-30T101500.123Z-host1-3fa9c2-image.raw");
    assert_string_equal(p.targets[1].lv, "vmdiskcmp-2026-11-30T101500.123Z-3fa9c2-lvm");
    assert_string_equal(p.targets[2].path, "/i/vmdiskcmp-2026-11-30T101500.123Z-host1-3fa9c2-dom0.raw");
    vdc_run_opts_dispose(&o);
    vdc_plan_dispose(&p);
}

static void
test_xen_default(void **state)
{
    vdc_plan p;
    g_autofree char *err = NULL;
    vdc_host_defaults xen = host;
    g_auto(GStrv) argv = g_strsplit("run --image --image-backend phy,qdisk --lvm --vg vg0 --guest-image /g", " ", -1);
    vdc_run_opts o;

    xen.xen_control_d = 1;
    vdc_plan_init(&p);
    vdc_run_opts_init(&o);
    assert_int_equal(vdc_run_opts_parse(&o, (int)g_strv_length(argv), argv), 0);
    assert_int_equal(vdc_plan_build(&o, &xen, "x", &p), 0);
    assert_int_equal(p.hv, VDC_HV_LIBXL);
    assert_int_equal(p.n_targets, 3);
    assert_string_equal(p.targets[0].name, "image-phy");
    assert_string_equal(p.targets[0].vdev, "xvdb");
    assert_string_equal(p.targets[1].name, "image-qdisk");
    assert_string_equal(p.targets[2].name, "lvm");
    assert_string_equal(p.targets[2].vdev, "xvdd");
    assert_string_equal(p.ctl_vdev, "xvde");
    vdc_run_opts_dispose(&o);
    vdc_plan_dispose(&p);
}

/* --image-cache: one target per backend and cache mode, named after both;
 * plan.json and the --dry-run text carry the mode */
static void
test_image_cache(void **state)
{
    static const struct { const char *name; vdc_image_backend backend; vdc_image_cache cache; } want[] = {
        { "image", VDC_BACKEND_TAP, VDC_IMAGE_CACHE_HOST },       /* libxl's default */
        { "image-nocache", VDC_BACKEND_TAP, VDC_IMAGE_CACHE_NONE },
        { "image-qdisk", VDC_BACKEND_QDISK, VDC_IMAGE_CACHE_HOST },
        { "image-qdisk-nocache", VDC_BACKEND_QDISK, VDC_IMAGE_CACHE_NONE },
    };
    vdc_plan p;
    g_autofree char *err = NULL, *json = NULL, *text = NULL;
    size_t i;

    vdc_plan_init(&p);
    assert_int_equal(try_line("run --hypervisor libxl --image --image-backend tap,qdisk "
                              "--image-cache host,none --guest-image /g --image-dir /i", &err, &p), 0);
    assert_int_equal(p.n_targets, G_N_ELEMENTS(want));
    for (i = 0; i < G_N_ELEMENTS(want); i++) {
        g_autofree char *path = g_strdup_printf("/i/vmdiskcmp-2026-11-30T101500Z-host1-%s.raw",
                                                want[i].name);

        assert_string_equal(p.targets[i].name, want[i].name);
        assert_int_equal(p.targets[i].spec.backend, want[i].backend);
        assert_int_equal(p.targets[i].spec.cache, want[i].cache);
        assert_string_equal(p.targets[i].path, path);
    }
    assert_string_equal(p.targets[3].vdev, "xvde");
    json = vdc_plan_to_json(&p);
    assert_non_null(strstr(json, "\"image_cache\" : \"none\""));
    text = vdc_plan_to_text(&p);
    assert_non_null(strstr(text, "image-qdisk-nocache image domU  xvde"));
    assert_non_null(strstr(text, "(raw sparse, backend qdisk, cache none)"));
    vdc_plan_dispose(&p);
}

static void
test_schedule(void **state)
{
    vdc_plan p;
    g_autofree char *e1 = NULL, *e2 = NULL;
    size_t i;

    vdc_plan_init(&p);
    assert_int_equal(try_line("run --image --block /dev/x --destroy-data --dom0 --runs 2 --seed 100 "
                              "--order interleaved --guest-image /g", &e1, &p), 0);
    /* interleaved: image#0 block#0 dom0#0 image#1 block#1 dom0#1 */
    assert_int_equal(p.n_steps, 6);
    assert_int_equal(p.steps[0].target, 0);
    assert_int_equal(p.steps[1].target, 1);
    assert_int_equal(p.steps[2].target, 2);
    assert_int_equal(p.steps[3].rep, 1);
    /* boots: [image#0 block#0] [dom0#0] [image#1 block#1] [dom0#1] */
    assert_int_equal(p.n_boots, 4);
    assert_int_equal(p.boots[0].n, 2);
    assert_int_equal(p.boots[1].dom0, 1);
    assert_int_equal(p.boots[2].first, 3);
    /* repetition r of every target gets seed + r: same op sequence on each */
    for (i = 0; i < p.n_steps; i++)
        assert_int_equal(p.steps[i].seed, 100 + p.steps[i].rep);
    vdc_plan_dispose(&p);

    vdc_plan_init(&p);
    assert_int_equal(try_line("run --image --block /dev/x --destroy-data --runs 3 --order grouped "
                              "--guest-image /g", &e2, &p), 0);
    /* grouped: image#0 image#1 image#2 block#0 ...: one boot per step */
    assert_int_equal(p.n_boots, 6);
    assert_int_equal(p.steps[2].target, 0);
    assert_int_equal(p.steps[2].rep, 2);
    assert_int_equal(p.steps[3].target, 1);
    for (i = 0; i < p.n_boots; i++)
        assert_int_equal(p.boots[i].n, 1);
    vdc_plan_dispose(&p);
}

/* The default order, rotated: per repetition every target once; over 4
 * repetitions of 2 domU targets each runs first twice, dom0 runs before
 * the domU boot twice, and the four combinations of (first domU target,
 * dom0 side) each once; the same seed gives the same schedule. */
static void
test_schedule_rotated(void **state)
{
    static const char line[] = "run --image --block /dev/x --destroy-data --dom0 --runs 4 --seed %u "
                               "--guest-image /g";
    unsigned seed;

    for (seed = 0; seed < 8; seed++) {
        g_autofree char *l = g_strdup_printf(line, seed);
        g_autofree char *e = NULL, *e2 = NULL;
        vdc_plan p, q;
        unsigned r, combos = 0, first_image = 0, dom0_first = 0;
        size_t i;

        vdc_plan_init(&p);
        vdc_plan_init(&q);
        assert_int_equal(try_line(l, &e, &p), 0);
        assert_int_equal(try_line(l, &e2, &q), 0);
        assert_string_equal(vdc_order_name(p.order), "rotated");
        assert_int_equal(p.n_steps, 12);
        for (r = 0; r < 4; r++) {
            const vdc_plan_step *s = &p.steps[3 * r];
            unsigned seen = 0;
            int d0 = p.targets[s[0].target].spec.where == VDC_WHERE_DOM0;
            size_t first = d0 ? s[1].target : s[0].target;

            for (i = 0; i < 3; i++) {
                assert_int_equal(s[i].rep, r);
                seen |= 1u << s[i].target;
            }
            assert_int_equal(seen, 7);         /* each target once */
            assert_true(d0 || p.targets[s[2].target].spec.where == VDC_WHERE_DOM0);
            first_image += first == 0;
            dom0_first += d0;
            combos |= 1u << (2 * (first == 0) + d0);
        }
        assert_int_equal(first_image, 2);
        assert_int_equal(dom0_first, 2);
        assert_int_equal(combos, 15);
        for (i = 0; i < p.n_steps; i++)
            assert_int_equal(p.steps[i].target, q.steps[i].target);
        /* one domU boot and one dom0 step per repetition */
        assert_int_equal(p.n_boots, 8);
        vdc_plan_dispose(&p);
        vdc_plan_dispose(&q);
    }
}

/* -q is --quiet (as in report and import); an unknown short option is one
 * line naming it; --help lists "-q, --quiet" */
static void
test_quiet_short(void **state)
{
    static const char *const lines[] = { "run -q --image --guest-image /g",
                                         "run --image -q --guest-image /g",
                                         "run --quiet --image --guest-image /g" };
    vdc_run_opts o;
    size_t i;
    char *buf = NULL;
    size_t len = 0;
    FILE *f;

    for (i = 0; i < G_N_ELEMENTS(lines); i++) {
        g_auto(GStrv) argv = g_strsplit(lines[i], " ", -1);

        vdc_run_opts_init(&o);
        assert_int_equal(vdc_run_opts_parse(&o, (int)g_strv_length(argv), argv), 0);
        assert_int_equal(o.quiet, 1);
        assert_int_equal(o.image, 1);
        vdc_run_opts_dispose(&o);
    }
    {
        g_auto(GStrv) argv = g_strsplit("run --image --guest-image /g", " ", -1);

        vdc_run_opts_init(&o);
        assert_int_equal(vdc_run_opts_parse(&o, (int)g_strv_length(argv), argv), 0);
        assert_int_equal(o.quiet, 0);
        vdc_run_opts_dispose(&o);
    }
    {
        vdc_plan p;
        g_autofree char *err = NULL;

        vdc_plan_init(&p);
        assert_int_equal(try_line("run -x --image", &err, &p), -1);
        assert_non_null(strstr(err, "unknown option '-x'"));
        assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);
        vdc_plan_dispose(&p);
    }
    f = open_memstream(&buf, &len);
    assert_non_null(f);
    vdc_run_opts_help(f);
    fclose(f);
    assert_non_null(strstr(buf, "\n  -q, --quiet "));
    free(buf);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_dom0_size_warning),
        cmocka_unit_test(test_too_many_disks),
        cmocka_unit_test(test_xen_default),
        cmocka_unit_test(test_run_id_suffix_names_every_object),
        cmocka_unit_test(test_image_cache),
        cmocka_unit_test(test_schedule),
        cmocka_unit_test(test_schedule_rotated),
        cmocka_unit_test(test_quiet_short),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
