/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a step runs (src/run/step.h, guest-agent/jobcmd.h): the mkfs
 * options are decided once and give the same command in a domU (the job,
 * as the runner builds it) and in dom0; the agent's options of a target
 * are the same whether they travel in the control disk job or are run in
 * dom0, and both sides build the same command line from them. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "guest-agent/jobcmd.h"
#include "test_stderr.h"
#include "plan/build.h"
#include "plan/options.h"
#include "plan/workloads.h"
#include "plan/step.h"

static void
build_plan(const char *line, vdc_plan *p)
{
    const vdc_host_defaults h = { .hostname = "h", .ram_mib = 1024, .date_id = "D" };
    g_auto(GStrv) argv = NULL;
    vdc_run_opts o;
    int argc;

    assert_true(g_shell_parse_argv(line, &argc, &argv, NULL));
    vdc_run_opts_init(&o);
    vdc_plan_init(p);
    assert_int_equal(vdc_run_opts_parse(&o, argc, argv), 0);
    assert_int_equal(vdc_plan_build(&o, &h, line, p), 0);
    vdc_run_opts_dispose(&o);
}

static void
assert_argv(char *const *got, const char *const *want)
{
    size_t i;

    for (i = 0; want[i]; i++) {
        assert_non_null(got[i]);
        assert_string_equal(got[i], want[i]);
    }
    assert_null(got[i]);
}

static void
test_mkfs(void **state)
{
    static const char *const ext4[] = { "mkfs.ext4", "-F", "-q", "-E",
                                        "lazy_itable_init=0,lazy_journal_init=0,nodiscard",
                                        "/dev/xvdb", NULL };
    static const char *const xfs[] = { "mkfs.xfs", "-f", "-q", "-K", "/dev/vdc", NULL };
    vdc_plan_target thin = { .spec = { .backing = VDC_BACKING_LVM, .lv_type = VDC_LV_THIN } };
    vdc_plan_target lin = { .spec = { .backing = VDC_BACKING_LVM, .lv_type = VDC_LV_LINEAR } };
    static const char *const bare[] = { "mkfs.btrfs", "/dev/vdd", NULL };
    struct vdc_jobcmd c;
    struct vdc_ctl_error err;

    assert_string_equal(vdc_mkfs_options("ext4"),
                        "-F -q -E lazy_itable_init=0,lazy_journal_init=0,nodiscard");
    /* a thin LV's mkfs discards: its pool gets the last repetition's chunks back */
    assert_string_equal(vdc_target_mkfs_options("ext4", &thin),
                        "-F -q -E lazy_itable_init=0,lazy_journal_init=0");
    assert_string_equal(vdc_target_mkfs_options("xfs", &thin), "-f -q");
    assert_string_equal(vdc_target_mkfs_options("ext4", &lin), vdc_mkfs_options("ext4"));
    assert_string_equal(vdc_mkfs_options("ext2"), vdc_mkfs_options("ext3"));
    assert_null(vdc_mkfs_options("btrfs"));
    assert_int_equal(vdc_jobcmd_mkfs(&c, "ext4", vdc_mkfs_options("ext4"), "/dev/xvdb", &err), 0);
    assert_argv(c.argv, ext4);
    assert_int_equal(c.argc, 6);
    assert_int_equal(vdc_jobcmd_mkfs(&c, "xfs", vdc_mkfs_options("xfs"), "/dev/vdc", &err), 0);
    assert_argv(c.argv, xfs);
    /* the builder adds nothing of its own */
    assert_int_equal(vdc_jobcmd_mkfs(&c, "btrfs", NULL, "/dev/vdd", &err), 0);
    assert_argv(c.argv, bare);
    assert_int_equal(vdc_jobcmd_mkfs(&c, "", NULL, "/dev/vdd", &err), -1);
    assert_non_null(strstr(err.msg, "expected a filesystem type"));
}

/* A target's own agent arguments: a fill for its first pass on the
 * filesystem (the plan's seed), a thin LV's two passes, a precondition for
 * its raw pass; none for a plain target; and in the control disk job */
static void
test_target_args(void **state)
{
    vdc_plan p;
    vdc_plan_target t = { .spec = { .where = VDC_WHERE_DOMU, .backing = VDC_BACKING_LVM,
                                    .lv_type = VDC_LV_THIN, .fill = 51,
                                    .precondition = VDC_PRECONDITION_ON } };
    char *fs, *pass, *raw;

    vdc_plan_init(&p);
    p.seed = 42;
    p.precondition_max_s = 600;
    p.precondition_window_s = 30;
    vdc_target_agent_args(&p, &t, &fs, &pass, &raw);
    assert_string_equal(fs, "--fill 50 --aging-seed 42");
    assert_string_equal(pass, "--passes first-write,overwrite");
    assert_string_equal(raw, "--precondition=600:30");
    g_free(fs);
    g_free(pass);
    g_free(raw);
    t.spec = (vdc_target_spec){ .where = VDC_WHERE_DOMU, .backing = VDC_BACKING_IMAGE };
    vdc_target_agent_args(&p, &t, &fs, &pass, &raw);
    assert_null(fs);
    assert_null(pass);
    assert_null(raw);
    vdc_plan_dispose(&p);
}

/* The domU's job and the dom0 step of a plan whose two targets have the
 * same size and RAM: the same agent options, the same command line. */
static void
test_agent_same_both_sides(void **state)
{
    static const char *const want_opts[] = { "-s", "128", "-r", "64", "-q", "--drop-caches", "-n", "0", NULL };
    vdc_plan p;
    struct vdc_ctl_job job;
    struct vdc_jobcmd domu, dom0;
    struct vdc_ctl_error err;
    g_auto(GStrv) opts = NULL;
    size_t i;

    build_plan("run --hypervisor mock --image --dom0 --size 128M --dom0-size 128M --guest-memory 64 "
               "--dom0-memory-max 64 --agent-options '-n  0' --guest-image /g --seed 7 --runs 1 --order interleaved "
               "--image-dir /i --out /o", &p);
    assert_int_equal(p.n_boots, 2);
    assert_false(p.boots[0].dom0);
    assert_int_equal(p.targets[1].spec.where, VDC_WHERE_DOM0);

    vdc_ctl_job_init(&job);
    assert_int_equal(vdc_step_job(&p, &p.boots[0], 99, &job), 0);
    assert_int_equal(job.nonce, 99);
    assert_int_equal(job.seed, 7);
    assert_int_equal(job.n_targets, 1);
    assert_string_equal(job.targets[0].name, "image");
    assert_string_equal(job.targets[0].mkfs_type, "ext4");
    assert_string_equal(job.targets[0].mkfs_options, vdc_mkfs_options("ext4"));
    assert_int_equal(job.n_agent_args, 8);
    assert_true(job.flags & VDC_CTL_JOB_DROP_CACHES);
    for (i = 0; i < job.n_agent_args; i++)
        assert_string_equal(job.agent_args[i], want_opts[i]);

    opts = vdc_agent_options(&p, &p.targets[1]);
    assert_argv(opts, want_opts);

    /* as the runner builds it from the job, and as dom0.c builds it */
    assert_int_equal(vdc_jobcmd_agent(&domu, "/agent", "/mnt/t", "t", job.seed, job.repetition,
                                      "/t.json", job.agent_args, job.n_agent_args, &err), 0);
    assert_int_equal(vdc_jobcmd_agent(&dom0, "/agent", "/mnt/t", "t", 7, 0, "/t.json", opts,
                                      g_strv_length(opts), &err), 0);
    assert_int_equal(domu.argc, dom0.argc);
    for (i = 0; i < domu.argc; i++)
        assert_string_equal(domu.argv[i], dom0.argv[i]);
    assert_string_equal(domu.argv[0], "/agent");
    assert_string_equal(domu.argv[5], "--seed");
    assert_string_equal(domu.argv[6], "7");
    assert_string_equal(domu.argv[11], "-s");
    /* a target's own arguments go after the job's */
    assert_int_equal(vdc_jobcmd_add_words(&domu, "--passes first-write,overwrite --fill 5", &err), 0);
    assert_int_equal(domu.argc, dom0.argc + 4);
    assert_string_equal(domu.argv[dom0.argc], "--passes");
    assert_string_equal(domu.argv[dom0.argc + 3], "5");
    assert_null(domu.argv[domu.argc]);
    assert_int_equal(vdc_jobcmd_add_words(&domu, NULL, &err), 0);
    assert_int_equal(domu.argc, dom0.argc + 4);
    vdc_ctl_job_dispose(&job);
    vdc_plan_dispose(&p);
}

/* -r is the RAM of the machine the target runs in; -f when the test file
 * is under twice it; sizes round up to whole MiB */
static void
test_agent_ram_and_force(void **state)
{
    static const char *const domu[] = { "-s", "48", "-r", "64", "-f", "-q", NULL };
    static const char *const dom0[] = { "-s", "2048", "-r", "1024", "-q", NULL };
    vdc_plan p;
    g_auto(GStrv) a = NULL, b = NULL;

    build_plan("run --hypervisor mock --image --dom0 --size 48M --guest-memory 64 --guest-image /g "
               "--image-dir /i --out /o --no-drop-caches", &p);
    a = vdc_agent_options(&p, &p.targets[0]);
    b = vdc_agent_options(&p, &p.targets[1]);
    assert_argv(a, domu);
    assert_argv(b, dom0);      /* dom0: 2x the host's 1024 MiB */
    vdc_plan_dispose(&p);
}

/* The workload pass: the job carries the workloads and their options;
 * the runner's command line and dom0's are built alike ("-r MiB -q", one
 * --job per file, in order); --tests workloads sets the no-bonnie flag. */
static void
test_workload_pass(void **state)
{
    static const char *const want[] = { "/agent", "-d", "/mnt/t", "--target", "t", "--seed", "7",
                                        "--repetition", "0", "--json", "/t.w.json", "-r", "64", "-q",
                                        "--job", "/j/a.fio", "--job", "/j/b.fio", NULL };
    char dir[] = "/tmp/test_step.XXXXXX";
    g_autofree char *a = NULL, *b = NULL, *line = NULL;
    g_auto(GStrv) argv = NULL, wopts = NULL;
    char *files[] = { (char *)"/j/a.fio", (char *)"/j/b.fio" };
    const vdc_host_defaults h = { .hostname = "h", .ram_mib = 1024, .date_id = "D" };
    struct vdc_ctl_job job;
    struct vdc_jobcmd domu, dom0;
    struct vdc_ctl_error err;
    vdc_run_opts o;
    vdc_plan p;
    int argc;

    assert_non_null(g_mkdtemp(dir));
    a = g_strdup_printf("%s/a.fio", dir);
    b = g_strdup_printf("%s/b.fio", dir);
    assert_true(g_file_set_contents(a, "[a]\nrw=randread\nsize=8m\n", -1, NULL));
    assert_true(g_file_set_contents(b, "[b]\nrw=write\nbs=1m\nsize=32m\nnumjobs=2\n", -1, NULL));
    line = g_strdup_printf("run --hypervisor mock --image --dom0 --size 64M --dom0-size 64M --guest-memory 64 "
                           "--dom0-memory-max 64 --guest-image /g --seed 7 --runs 1 --order interleaved "
                           "--image-dir /i --out /o --tests workloads --workload %s,%s", a, b);
    assert_true(g_shell_parse_argv(line, &argc, &argv, NULL));
    vdc_run_opts_init(&o);
    vdc_plan_init(&p);
    assert_int_equal(vdc_run_opts_parse(&o, argc, argv), 0);
    assert_int_equal(vdc_plan_build(&o, &h, line, &p), 0);
    assert_int_equal(vdc_plan_load_workloads(&p, &o, "/nonexistent"), 0);
    assert_false(p.bonnie);
    assert_int_equal(p.n_workloads, 2);
    assert_string_equal(p.workloads[1].name, "b");
    assert_string_equal(p.workloads[1].rw, "write");
    assert_false(p.workloads[1].reads);
    assert_true(p.workloads[1].writes);
    assert_int_equal(p.workloads[1].bytes, 64ULL << 20);
    /* the disks hold the largest job: 64 MiB + 1/8 + 64 MiB */
    assert_int_equal(p.targets[0].disk_bytes, 136ULL << 20);

    vdc_ctl_job_init(&job);
    assert_int_equal(vdc_step_job(&p, &p.boots[0], 99, &job), 0);
    assert_true(job.flags & VDC_CTL_JOB_NO_BONNIE);
    assert_int_equal(job.n_workloads, 2);
    assert_string_equal(job.workloads[0].name, "a");
    assert_string_equal(job.workloads[0].text, "[a]\nrw=randread\nsize=8m\n");
    wopts = vdc_workload_agent_options(&p, &p.targets[1]);
    assert_int_equal(vdc_jobcmd_workloads(&domu, "/agent", "/mnt/t", "t", job.seed, job.repetition,
                                          "/t.w.json", job.workload_args, job.n_workload_args, files, 2,
                                          &err), 0);
    assert_int_equal(vdc_jobcmd_workloads(&dom0, "/agent", "/mnt/t", "t", 7, 0, "/t.w.json", wopts,
                                          g_strv_length(wopts), files, 2, &err), 0);
    assert_argv(domu.argv, want);
    assert_argv(dom0.argv, want);
    assert_int_equal(vdc_jobcmd_workloads(&dom0, "/agent", "/mnt/t", "t", 7, 0, "/t.w.json", wopts,
                                          g_strv_length(wopts), files, 0, &err), -1);
    assert_non_null(strstr(err.msg, "without job files"));
    vdc_ctl_job_dispose(&job);
    vdc_plan_dispose(&p);
    vdc_run_opts_dispose(&o);
    g_unlink(a);
    g_unlink(b);
    g_rmdir(dir);
}

/* --workload-on raw: the raw pass's arguments (the workload pass's and
 * the run's consent), its flags, the runner's and dom0's command line on
 * the device itself; a job without size= is taken (the region is the rest
 * of the device, at least one block past its offset), and the disks reach
 * the furthest region */
static void
test_raw_workload_pass(void **state)
{
    static const char *const want[] = { "/agent", "-d", "/dev/xvdb", "--target", "t", "--seed", "7",
                                        "--repetition", "0", "--json", "/t.r.json", "-r", "64", "-q",
                                        "--destroy-data", "--job", "/j/a.fio", "--job", "/j/b.fio", NULL };
    char dir[] = "/tmp/test_step.XXXXXX";
    g_autofree char *a = NULL, *b = NULL, *line = NULL, *text = NULL;
    g_auto(GStrv) argv = NULL, ropts = NULL;
    char *files[] = { (char *)"/j/a.fio", (char *)"/j/b.fio" };
    const vdc_host_defaults h = { .hostname = "h", .ram_mib = 1024, .date_id = "D" };
    struct vdc_ctl_job job;
    struct vdc_jobcmd domu, dom0;
    struct vdc_ctl_error err;
    vdc_run_opts o;
    vdc_plan p;
    int argc;

    assert_non_null(g_mkdtemp(dir));
    a = g_strdup_printf("%s/a.fio", dir);
    b = g_strdup_printf("%s/b.fio", dir);
    assert_true(g_file_set_contents(a, "[a]\nrw=randread\noffset=300m\n", -1, NULL));
    assert_true(g_file_set_contents(b, "[b]\nrw=write\nbs=1m\noffset=100m\nsize=200m\nnumjobs=2\n", -1, NULL));
    line = g_strdup_printf("run --hypervisor mock --image --dom0 --size 64M --dom0-size 64M --guest-memory 64 "
                           "--dom0-memory-max 64 --guest-image /g --seed 7 --runs 1 --order interleaved "
                           "--image-dir /i --out /o --tests workloads --workload-on raw --workload %s,%s", a, b);
    assert_true(g_shell_parse_argv(line, &argc, &argv, NULL));
    vdc_run_opts_init(&o);
    vdc_plan_init(&p);
    assert_int_equal(vdc_run_opts_parse(&o, argc, argv), 0);
    assert_int_equal(vdc_plan_build(&o, &h, line, &p), 0);
    assert_true(p.workload_raw);
    assert_false(p.workload_file);
    assert_int_equal(vdc_plan_load_workloads(&p, &o, "/nonexistent"), 0);
    /* no size=: the rest of the device, which must hold one block past
     * the offset (a device of exactly 300m would leave the job nothing) */
    assert_int_equal(p.workloads[0].region, (300ULL << 20) + 4096);
    assert_int_equal(p.workloads[1].region, 300ULL << 20);
    /* the disks reach the furthest region (clones share it on a device) */
    assert_int_equal(p.targets[0].disk_bytes, 301ULL << 20);
    text = vdc_plan_to_text(&p);
    assert_non_null(strstr(text, "\nworkloads on: raw (the target's block device, before mkfs)\n"));

    vdc_ctl_job_init(&job);
    assert_int_equal(vdc_step_job(&p, &p.boots[0], 99, &job), 0);
    assert_int_equal(job.flags & (VDC_CTL_JOB_NO_BONNIE | VDC_CTL_JOB_RAW_WORKLOADS |
                                  VDC_CTL_JOB_NO_FILE_WORKLOADS),
                     VDC_CTL_JOB_NO_BONNIE | VDC_CTL_JOB_RAW_WORKLOADS | VDC_CTL_JOB_NO_FILE_WORKLOADS);
    assert_int_equal(job.n_workload_args, 0);
    ropts = vdc_raw_workload_agent_options(&p, &p.targets[1]);
    assert_int_equal(vdc_jobcmd_workloads(&domu, "/agent", "/dev/xvdb", "t", job.seed, job.repetition,
                                          "/t.r.json", job.raw_workload_args, job.n_raw_workload_args,
                                          files, 2, &err), 0);
    assert_int_equal(vdc_jobcmd_workloads(&dom0, "/agent", "/dev/xvdb", "t", 7, 0, "/t.r.json", ropts,
                                          g_strv_length(ropts), files, 2, &err), 0);
    assert_argv(domu.argv, want);
    assert_argv(dom0.argv, want);
    vdc_ctl_job_dispose(&job);
    vdc_plan_dispose(&p);
    vdc_run_opts_dispose(&o);

    /* on a file, size= is required */
    g_strfreev(g_steal_pointer(&argv));
    g_free(line);
    line = g_strdup_printf("run --hypervisor mock --image --guest-image /g --image-dir /i --out /o "
                           "--workload-on raw,file --workload %s", a);
    assert_true(g_shell_parse_argv(line, &argc, &argv, NULL));
    vdc_run_opts_init(&o);
    vdc_plan_init(&p);
    assert_int_equal(vdc_run_opts_parse(&o, argc, argv), 0);
    assert_int_equal(vdc_plan_build(&o, &h, line, &p), 0);
    assert_true(p.workload_raw && p.workload_file);
    capture_stderr_begin();
    assert_int_equal(vdc_plan_load_workloads(&p, &o, "/nonexistent"), -1);
    g_free(text);
    text = capture_stderr_end();
    assert_non_null(strstr(text, "[a]: no size=: expected size= (--workload-on file runs each job"));
    vdc_plan_dispose(&p);
    vdc_run_opts_dispose(&o);
    g_unlink(a);
    g_unlink(b);
    g_rmdir(dir);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mkfs),
        cmocka_unit_test(test_target_args),
        cmocka_unit_test(test_agent_same_both_sides),
        cmocka_unit_test(test_agent_ram_and_force),
        cmocka_unit_test(test_workload_pass),
        cmocka_unit_test(test_raw_workload_pass),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
