/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of `vmdiskcmp lab`'s one parser and checker (src/lab/lab.c):
 * the options, the checks of every input, the jobs as dom0 runs them, the
 * request lab.sh reads, what came back after a failure; and the progress
 * lines `lab run` shows from the serial log (src/lab/serial.c) on a
 * fixture cut from a real lab run (tests/golden/lab/serial-progress.log).
 * Pure code over a fixture directory (a fake build tree and prepared
 * image); no lab is built or booted here. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "common/opts.h"
#include "common/util.h"
#include "guest/prepare.h"
#include "lab/lab.h"
#include "lab/serial.h"
#include "test_stderr.h"

/* the fixture: T/b/src/vmdiskcmp with guest-agent/ beside it, a file, a
 * prepared image with its siblings, made with those helpers */
static char *T;

static char *
path(const char *rel)
{
    return g_build_filename(T, rel, NULL);
}

static void
put(const char *rel, const char *text, int mode)
{
    g_autofree char *p = path(rel);
    g_autofree char *dir = g_path_get_dirname(p);

    assert_int_equal(g_mkdir_with_parents(dir, 0755), 0);
    assert_true(g_file_set_contents(p, text, -1, NULL));
    assert_int_equal(chmod(p, mode), 0);
}

/* p/g.img.manifest: prepared from t/tpl.img with the agent (or one whose
 * digest is @agent_sum) and the runner of the fake build tree */
static void
write_manifest(const char *agent_sum)
{
    g_autofree char *agent = path("b/guest-agent/vmdiskcmp-agent");
    g_autofree char *runner = path("b/guest-agent/vmdiskcmp-runner");
    g_autofree char *tpl = path("t/tpl.img");
    g_autofree char *a = vdc_file_sha256(agent), *r = vdc_file_sha256(runner);
    g_autofree char *ts = vdc_file_sha256(tpl);
    g_autofree char *m = g_strdup_printf(
        "[prepared]\nkey=%064d\ntemplate=%s\ntemplate_sha256=%s\nagent_sha256=%s\nrunner_sha256=%s\n"
        "init_system=busybox\n[boot]\nkernel=g.img.vmlinuz\ninitrd=g.img.initrd\n"
        "cmdline_xen=root=/dev/xvda\ncmdline_kvm=root=/dev/vda\n",
        0, tpl, ts, agent_sum ? agent_sum : a, r);

    put("p/g.img.manifest", m, 0644);
}

static int
setup(void **state)
{
    T = g_dir_make_tmp("vdc-test-lab-XXXXXX", NULL);
    assert_non_null(T);
    put("b/src/vmdiskcmp", "#!/bin/sh\n", 0755);
    put("b/guest-agent/vmdiskcmp-agent", "agent\n", 0755);
    put("b/guest-agent/vmdiskcmp-runner", "runner\n", 0755);
    put("f/g.qcow2", "guest\n", 0644);
    put("t/tpl.img", "template\n", 0644);
    put("t/tpl.img.manifest", "[template]\nformat=1\n[boot]\nkernel=vmlinuz\ninitrd=initrd.img\n"
        "cmdline_xen=root=/dev/xvda\ncmdline_kvm=root=/dev/vda\n", 0644);
    put("t/vmlinuz", "kernel\n", 0644);
    put("t/initrd.img", "initrd\n", 0644);
    put("p/g.img", "image\n", 0644);
    put("p/g.img.vmlinuz", "kernel\n", 0644);
    put("p/g.img.initrd", "initrd\n", 0644);
    write_manifest(NULL);
    put("notempty/x", "x\n", 0644);
    return 0;
}

static int
teardown(void **state)
{
    g_autofree char *cmd = g_strdup_printf("rm -rf '%s'", T);

    assert_int_equal(system(cmd), 0);
    g_clear_pointer(&T, g_free);
    return 0;
}

/* "@T" in @line stands for the fixture directory */
static char **
argv_of(const char *line)
{
    g_auto(GStrv) parts = g_strsplit(line, "@T", -1);
    g_autofree char *l = g_strjoinv(T, parts);
    char **av = NULL;

    assert_true(g_shell_parse_argv(l, NULL, &av, NULL));
    return av;
}

/* parse and check @line; returns -1/0 and stderr in *err */
static int
check_line(const char *line, struct vdc_lab_opts *o, struct vdc_lab_request *r, char **err)
{
    g_auto(GStrv) av = argv_of(line);
    int rc;

    vdc_lab_opts_init(o);
    vdc_lab_request_init(r);
    vdc_error_reset();
    capture_stderr_begin();
    rc = vdc_lab_parse(o, (int)g_strv_length(av), av);
    if (rc == VDC_OPTS_OK) {
        o->script_dir = g_strdup("/S");
        if (!o->cache_dir)
            o->cache_dir = g_strdup("/C");
        if (!o->vmdiskcmp)      /* `vmdiskcmp lab` says: this executable */
            o->vmdiskcmp = path("b/src/vmdiskcmp");
        rc = vdc_lab_check(o, r);
    }
    *err = capture_stderr_end();
    return rc;
}

static char *
joined(char **v)
{
    return g_strjoinv(" ", v);
}

static void
test_run_jobs(void **state)
{
    struct vdc_lab_opts o;
    struct vdc_lab_request r;
    g_autofree char *err = NULL, *j1 = NULL, *j2 = NULL, *files = NULL, *want_files = NULL;
    g_autofree char *rd1 = path("out/result"), *rd2 = path("out/mine"), *q = path("f/g.qcow2");
    g_autofree char *pimg = path("p/g.img"), *timg = path("t/tpl.img"), *tdir = path("t");
    g_autofree char *stage = NULL, *want_stage = NULL;
    size_t i;

    assert_int_equal(check_line("lab run --out @T/out --file @T/f/g.qcow2=guest.img --timeout=900 "
                                "--vmdiskcmp @T/b/src/vmdiskcmp --prepared @T/p/g.img -- "
                                "--image --runs 3 --agent-options '-n 0 -f' "
                                "--then --hypervisor libvirt --dom0 --out /lab/out/mine "
                                "--then run --dom0 --runner /r --out rel "
                                "--then --image --lvm --dom0 --dry-run",
                                &o, &r, &err), 0);
    assert_string_equal(err, "");
    assert_int_equal(r.timeout_s, 900);
    assert_int_equal(g_strv_length(r.helpers), 2);
    assert_int_equal(r.n_jobs, 4);
    /* job 1: only --emulated and --out /lab/out/result added (the agent,
     * the runner and the guest are dom0's vmdiskcmp's own defaults) */
    j1 = joined(r.jobs[0].argv);
    assert_string_equal(j1, "--image --runs 3 --agent-options -n 0 -f --emulated --out /lab/out/result");
    assert_int_equal(r.jobs[0].libvirt, 0);
    assert_string_equal(r.jobs[0].result_dir, rd1);
    /* job 2: its own --out kept; libvirt */
    j2 = joined(r.jobs[1].argv);
    assert_string_equal(j2, "--hypervisor libvirt --dom0 --out /lab/out/mine --emulated");
    assert_int_equal(r.jobs[1].libvirt, 1);
    assert_string_equal(r.jobs[1].result_dir, rd2);
    /* job 3: "run" first; its runner kept; an --out not under /lab/out does
     * not come back */
    assert_string_equal(r.jobs[2].argv[0], "run");
    assert_false(g_strv_contains((const char *const *)r.jobs[2].argv, "/lab/in/bin/vmdiskcmp-runner"));
    assert_null(r.jobs[2].result_dir);
    /* job 4: a dry run as typed: nothing added, nothing comes back */
    g_free(j2);
    j2 = joined(r.jobs[3].argv);
    assert_string_equal(j2, "--image --lvm --dom0 --dry-run");
    assert_null(r.jobs[3].result_dir);
    /* the files: --file */
    files = joined(r.files);
    want_files = g_strdup_printf("%s guest.img", q);
    assert_string_equal(files, want_files);
    for (i = 0; r.files[i]; i += 2)
        assert_true(g_path_is_absolute(r.files[i]));
    /* staged: the template as dom0's default guest, the prepared image as
     * the prepare cache's entry for it (the key of its manifest) */
    stage = joined(r.stage);
    want_stage = g_strdup_printf(
        "%s guest-template/guest.img %s.manifest guest-template/guest.img.manifest "
        "%s/vmlinuz guest-template/vmlinuz %s/initrd.img guest-template/initrd.img "
        "%s prepare-cache/%064d/guest.img %s.manifest prepare-cache/%064d/guest.img.manifest "
        "%s.vmlinuz prepare-cache/%064d/g.img.vmlinuz %s.initrd prepare-cache/%064d/g.img.initrd",
        timg, timg, tdir, tdir, pimg, 0, pimg, 0, pimg, 0, pimg, 0);
    assert_string_equal(stage, want_stage);
    vdc_lab_request_dispose(&r);
    vdc_lab_request_dispose(&r);     /* twice is safe */
    vdc_lab_opts_dispose(&o);
    vdc_lab_opts_dispose(&o);
}

/* a workload handed in with --file and named by its dom0 path: run's own
 * parser takes it (the file is read in dom0, where it exists) */
static void
test_run_workload(void **state)
{
    struct vdc_lab_opts o;
    struct vdc_lab_request r;
    g_autofree char *err = NULL, *j1 = NULL, *files = NULL, *want = NULL, *q = path("f/g.qcow2");

    assert_int_equal(check_line("lab run --out @T/out --file @T/f/g.qcow2=rr.fio -- "
                                "--dom0 --workload /lab/in/files/rr.fio --tests workloads",
                                &o, &r, &err), 0);
    assert_string_equal(err, "");
    j1 = joined(r.jobs[0].argv);
    assert_string_equal(j1, "--dom0 --workload /lab/in/files/rr.fio --tests workloads --emulated "
                        "--out /lab/out/result");
    files = joined(r.files);
    want = g_strdup_printf("%s rr.fio", q);
    assert_string_equal(files, want);
    vdc_lab_request_dispose(&r);
    vdc_lab_opts_dispose(&o);
}

/* what lab.sh reads: every value quoted; a quote in an argument survives
 * both the bash assignment and dom0's sh */
static void
test_request_text(void **state)
{
    struct vdc_lab_opts o;
    struct vdc_lab_request r;
    g_autofree char *err = NULL, *text = NULL, *want = NULL;
    g_autofree char *out = path("out2"), *bin = path("b/src/vmdiskcmp");
    g_autofree char *agent = path("b/guest-agent/vmdiskcmp-agent");
    g_autofree char *runner = path("b/guest-agent/vmdiskcmp-runner");

    assert_int_equal(check_line("lab run --cache-dir /k --out @T/out2 --vmdiskcmp @T/b/src/vmdiskcmp "
                                "-- --dom0 --cmdline \"it's\" --then --image --hypervisor libvirt",
                                &o, &r, &err), 0);
    text = vdc_lab_request_text(&r);
    want = g_strdup_printf(
        "# vmdiskcmp lab request: written by `vmdiskcmp lab` once every input\n"
        "# was checked; read by lab.sh (bash).  Every value is quoted.\n"
        "LAB_ACTION='run'\n"
        "LAB_CACHE='/k'\n"
        "LAB_OUT='%s'\n"
        "LAB_TIMEOUT=3600\n"
        "LAB_BIN='%s'\n"
        "LAB_HELPERS=('%s' '%s')\n"
        "LAB_FILES=()\n"
        "LAB_STAGE=()\n"
        "LAB_PREPARE_CACHE='/var/cache/vmdiskcmp'\n"
        "LAB_JOBS=(''\\''--dom0'\\'' '\\''--cmdline'\\'' '\\''it'\\''\\'\\'''\\''s'\\'' "
        "'\\''--emulated'\\'' '\\''--out'\\'' '\\''/lab/out/result'\\''' "
        "''\\''--image'\\'' '\\''--hypervisor'\\'' '\\''libvirt'\\'' "
        "'\\''--emulated'\\'' '\\''--out'\\'' '\\''/lab/out/result-2'\\''')\n"
        "LAB_JOB_LIBVIRT=(0 1)\n",
        out, bin, agent, runner);
    assert_string_equal(text, want);
    vdc_lab_request_dispose(&r);
    vdc_lab_opts_dispose(&o);

    /* the words come back whole through bash and sh */
    {
        g_autofree char *req = path("request"), *script = NULL, *got = NULL;
        char *argv[] = { "bash", "-c", NULL, NULL };
        int status = -1;

        assert_int_equal(check_line("lab run --out @T/out3 --vmdiskcmp @T/b/src/vmdiskcmp "
                                    "-- --dom0 --cmdline \"it's a \\\"b\\\" \\$x\"", &o, &r, &err), 0);
        g_free(text);
        text = vdc_lab_request_text(&r);
        assert_true(g_file_set_contents(req, text, -1, NULL));
        script = g_strdup_printf(". '%s'; sh -c \"printf '%%s|' ${LAB_JOBS[0]}\"", req);
        argv[2] = script;
        assert_true(g_spawn_sync(NULL, argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &got, NULL,
                                 &status, NULL));
        assert_int_equal(status, 0);
        assert_string_equal(got, "--dom0|--cmdline|it's a \"b\" $x|--emulated|--out|/lab/out/result|");
        vdc_lab_request_dispose(&r);
        vdc_lab_opts_dispose(&o);
    }

    assert_int_equal(check_line("lab build --cache-dir /k", &o, &r, &err), 0);
    g_free(text);
    text = vdc_lab_request_text(&r);
    assert_string_equal(strchr(strchr(text, '\n') + 1, '\n') + 1, "LAB_ACTION='build'\nLAB_CACHE='/k'\n");
    vdc_lab_request_dispose(&r);
    vdc_lab_opts_dispose(&o);

    assert_int_equal(check_line("lab selftest --libvirt --out @T/out4", &o, &r, &err), 0);
    g_free(text);
    text = vdc_lab_request_text(&r);
    assert_non_null(strstr(text, "LAB_ACTION='selftest'\nLAB_CACHE='/C'\nLAB_OUT='"));
    assert_non_null(strstr(text, "'\nLAB_TIMEOUT=3600\nLAB_LIBVIRT=1\n"));
    assert_null(strstr(text, "LAB_JOBS"));
    vdc_lab_request_dispose(&r);
    vdc_lab_opts_dispose(&o);
}

static void
test_bad_input(void **state)
{
    static const struct {
        const char *line, *want;      /* want: in the one error line */
    } bad[] = {
        { "lab", "lab: missing action" },
        { "lab boot", "unknown action 'boot'" },
        { "lab run --out x", "lab run: no vmdiskcmp arguments" },
        { "lab build --out x", "lab build: option '--out' applies only to lab selftest run" },
        { "lab selftest --timeout 0", "lab selftest: --timeout '0': expected whole seconds, 1..604800" },
        { "lab selftest --timeout 12s", "--timeout '12s'" },
        { "lab selftest --timeout", "lab selftest: --timeout: expected a value (S)" },
        { "lab selftest --libvirt=yes", "--libvirt: takes no value" },
        { "lab selftest --bogus", "lab selftest: unknown option '--bogus'" },
        { "lab selftest stray", "unexpected argument 'stray': vmdiskcmp arguments go after --" },
        { "lab build -- --image", "lab build: takes no arguments after --" },
        { "lab selftest --prepared /p/g.img", "option '--prepared' applies only to lab run" },
        { "lab selftest --out ''", "--out: expected a non-empty DIR" },
        /* the jobs */
        { "lab run --out @T/o -- --then", "--then: expected vmdiskcmp arguments before it" },
        { "lab run --out @T/o -- --then --image", "--then: expected vmdiskcmp arguments before it" },
        { "lab run --out @T/o -- --image --then", "--then: expected vmdiskcmp arguments after it" },
        { "lab run --out @T/o -- --image --then --then --dom0", "--then: expected vmdiskcmp arguments before it" },
        { "lab run --out @T/o -- --image --runs 0", "lab run: job 1: --runs '0': expected an integer from 1 to 1000" },
        { "lab run --out @T/o -- --dom0 --then --image --bogus", "lab run: job 2: unknown option '--bogus'" },
        { "lab run --out @T/o -- --lvm --stripe-size 64K", "lab run: job 1: --stripe-size 64 KiB: expected --stripes N" },
        { "lab run --out @T/o -- report x", "lab run: job 1: unexpected argument 'report'" },
        { "lab run --out @T/o -- --help", "lab run: job 1: --help: expected the options of a run" },
        { "lab run --out @T/o -- --dom0 --tests workloads", "lab run: job 1: --tests workloads: expected --workload" },
        /* refused before the lab boots, not in dom0 after it */
        { "lab run --out @T/o -- --dom0 --image-cache none", "lab run: job 1: --image-cache none: expected --image as well" },
        { "lab run --out @T/o -- --image --lvm --dom0 --then --dom0 --size 1G",
          "lab run: job 2: --size 1 GiB: expected a domU target as well" },
        { "lab run --out @T/o -- --dom0 --runs 2 --runs 3", "lab run: job 1: --runs given twice ('2', then '3')" },
        /* what is handed in */
        { "lab run --out @T/o --vmdiskcmp @T/f/g.qcow2 -- --dom0", "--vmdiskcmp " },
        { "lab run --out @T/o --file @T/f/g.qcow2=a/b -- --dom0", "--file @T/f/g.qcow2=a/b: expected HOST_PATH[=NAME] with a plain NAME" },
        { "lab run --out @T/o --file @T/f/g.qcow2=.. -- --dom0", "with a plain NAME" },
        { "lab run --out @T/o --file @T/nope -- --dom0", "--file @T/nope: '@T/nope' not readable" },
        { "lab run --out @T/o --file @T/f/g.qcow2=x --file @T/p/g.img=x -- --dom0", "the name 'x' is taken" },
        { "lab run --out @T/o --vmdiskcmp @T/b/src/vmdiskcmp --prepared @T/f/g.qcow2 -- --dom0", "--prepared @T/f/g.qcow2: '@T/f/g.qcow2.manifest' missing" },
        { "lab run --out @T/o --vmdiskcmp @T/b/src/vmdiskcmp --file @T/f/g.qcow2=x --file @T/p/g.img=x -- --dom0", "the name 'x' is taken" },
        { "lab run --out @T/notempty -- --dom0", "--out '@T/notempty' exists and is not empty: expected a new directory" },
        { "lab selftest --out @T/notempty", "lab selftest: --out '@T/notempty' exists and is not empty" },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(bad); i++) {
        struct vdc_lab_opts o;
        struct vdc_lab_request r;
        g_autofree char *err = NULL;
        g_auto(GStrv) parts = g_strsplit(bad[i].want, "@T", -1);
        g_autofree char *want = g_strjoinv(T, parts);
        int rc = check_line(bad[i].line, &o, &r, &err);

        if (rc != -1 || !strstr(err, want) || strchr(err, '\n') != err + strlen(err) - 1 ||
            vdc_error_last_kind() != VDC_ERR_INPUT) {
            print_error("case '%s': rc %d, got '%s', wanted one line with '%s'\n", bad[i].line, rc,
                        err, want);
            fail();
        }
        vdc_lab_request_dispose(&r);
        vdc_lab_opts_dispose(&o);
    }
    vdc_error_reset();
}

/* a prepared image made with another agent: refused before the boot (else
 * vmdiskcmp would prepare again in dom0, launching libguestfs there) */
static void
test_prepared_other_agent(void **state)
{
    struct vdc_lab_opts o;
    struct vdc_lab_request r;
    g_autofree char *err = NULL;

    write_manifest("0000000000000000000000000000000000000000000000000000000000000000");
    assert_int_equal(check_line("lab run --out @T/o5 --vmdiskcmp @T/b/src/vmdiskcmp "
                                "--prepared @T/p/g.img -- --dom0", &o, &r, &err), -1);
    assert_non_null(strstr(err, "was prepared with another vmdiskcmp-agent than"));
    assert_int_equal(vdc_error_last_kind(), VDC_ERR_INPUT);
    vdc_lab_request_dispose(&r);
    vdc_lab_opts_dispose(&o);
    write_manifest(NULL);
    vdc_error_reset();
}

/* the template a prepared image came from must be handed in unchanged
 * (dom0's vmdiskcmp hashes it to find the prepared image in its cache):
 * gone, changed, or with its kernel elsewhere, refused before the boot */
static void
test_prepared_template(void **state)
{
    static const struct { const char *rel, *text, *want; } cases[] = {
        { "t/tpl.img", "another template\n", "its template @T/t/tpl.img changed since it was prepared" },
        { "t/tpl.img.manifest", "[boot]\nkernel=/elsewhere/vmlinuz\ninitrd=initrd.img\n"
          "cmdline_xen=x\ncmdline_kvm=y\n", "@T/t/tpl.img: expected its boot file /elsewhere/vmlinuz beside it" },
    };
    g_autofree char *tpl = path("t/tpl.img"), *moved = path("t/tpl.moved");
    struct vdc_lab_opts o;
    struct vdc_lab_request r;
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *file = path(cases[i].rel), *saved = NULL, *err = NULL;
        g_auto(GStrv) parts = g_strsplit(cases[i].want, "@T", -1);
        g_autofree char *want = g_strjoinv(T, parts);

        assert_true(g_file_get_contents(file, &saved, NULL, NULL));
        put(cases[i].rel, cases[i].text, 0644);
        assert_int_equal(check_line("lab run --out @T/o6 --prepared @T/p/g.img -- --dom0", &o, &r, &err), -1);
        if (!strstr(err, want))
            fail_msg("case %zu: got '%s', wanted '%s'", i, err, want);
        put(cases[i].rel, saved, 0644);
        vdc_lab_request_dispose(&r);
        vdc_lab_opts_dispose(&o);
    }
    {
        g_autofree char *err = NULL;

        assert_int_equal(rename(tpl, moved), 0);
        assert_int_equal(check_line("lab run --out @T/o6 --prepared @T/p/g.img -- --dom0", &o, &r, &err), -1);
        assert_non_null(strstr(err, "the template it was prepared from ("));
        assert_non_null(strstr(err, "tpl.img) is gone"));
        assert_int_equal(rename(moved, tpl), 0);
        vdc_lab_request_dispose(&r);
        vdc_lab_opts_dispose(&o);
    }
    vdc_error_reset();
}

static void
test_help(void **state)
{
    struct vdc_lab_opts o;
    g_auto(GStrv) a = g_strsplit("lab --help", " ", -1);
    g_auto(GStrv) b = g_strsplit("lab run -h --bogus", " ", -1);
    char *buf = NULL;
    size_t len = 0;
    FILE *f;

    vdc_lab_opts_init(&o);
    assert_int_equal(vdc_lab_parse(&o, 2, a), VDC_OPTS_HELP);
    vdc_lab_opts_dispose(&o);
    assert_int_equal(vdc_lab_parse(&o, 4, b), VDC_OPTS_HELP);
    vdc_lab_opts_dispose(&o);
    f = open_memstream(&buf, &len);
    vdc_lab_help(f);
    fclose(f);
    assert_non_null(strstr(buf, "usage: vmdiskcmp lab build    [--cache-dir D]\n"));
    assert_non_null(strstr(buf, "\n  --cache-dir DIR "));
    assert_non_null(strstr(buf, " [build selftest run]\n"));
    assert_non_null(strstr(buf, "\n  --libvirt "));
    free(buf);
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

/* after a failure: a stage (nothing ran to its end), or which job */
static void
test_failed_job(void **state)
{
    struct vdc_lab_request r;
    size_t job = 99;
    int code = 99;

    vdc_lab_request_init(&r);
    r.out_dir = path("back");
    r.n_jobs = 3;
    assert_int_equal(vdc_lab_failed_job(&r, &job, &code), 0);      /* nothing came back */
    put("back/lab/stages.txt", "qemu-pid=1\nstage=xen seconds=3 at=3\n", 0644);
    assert_int_equal(vdc_lab_failed_job(&r, &job, &code), 0);      /* a stage failed */
    put("back/lab/stages.txt", "stage=job seconds=9 at=9\njob-exit=2\n", 0644);
    assert_int_equal(vdc_lab_failed_job(&r, &job, &code), 1);
    assert_int_equal(job, 0);                                       /* no jobs.txt: the script */
    assert_int_equal(code, 2);
    put("back/jobs.txt", "job=1 exit=0\njob=2 exit=2\njob=3 exit=1\n", 0644);
    assert_int_equal(vdc_lab_failed_job(&r, &job, &code), 1);
    assert_int_equal(job, 2);
    assert_int_equal(code, 2);
    r.n_jobs = 0;       /* no job descriptions were made */
    vdc_lab_request_dispose(&r);
}

/* ---- the serial log's progress lines ---------------------------------------- */

static void
collect(const char *text, void *arg)
{
    g_string_append_printf(arg, "%s\n", text);
}

static char *
golden_lab(const char *name)
{
    const char *top = getenv("top_srcdir");

    return g_build_filename(top ? top : ".", "tests", "golden", "lab", name, NULL);
}

/* the fixture fed in pieces of @piece bytes: what comes out */
static char *
feed_pieces(const char *data, size_t len, size_t piece, size_t *n_lines)
{
    GString *got = g_string_new(NULL);
    vdc_serial_lines s;
    size_t off;

    vdc_serial_lines_init(&s);
    *n_lines = 0;
    for (off = 0; off < len; off += piece)
        *n_lines += vdc_serial_progress_feed(&s, data + off, MIN(piece, len - off), collect, got);
    vdc_serial_lines_dispose(&s);
    vdc_serial_lines_dispose(&s);   /* twice: safe */
    return g_string_free(got, FALSE);
}

/* A real lab run's console (systemd, Xen, the job's trace, domU consoles
 * prefixed by the job's tail) plus three forged lines: only the lines that
 * start with vdc_progress's prefix come out, escaped, CRs gone, in order,
 * whatever the size of the pieces read; a line cut by the power-off (no
 * newline) is not shown. */
static void
test_serial_progress(void **state)
{
    g_autofree char *log = golden_lab("serial-progress.log");
    g_autofree char *exp_path = golden_lab("serial-progress.expected");
    g_autofree char *data = NULL, *expected = NULL;
    static const size_t pieces[] = { 1, 2, 7, 100, 4096, 1 << 20 };
    gsize len = 0;
    size_t i, n;

    assert_true(g_file_get_contents(log, &data, &len, NULL));
    assert_true(g_file_get_contents(exp_path, &expected, NULL, NULL));
    for (i = 0; i < G_N_ELEMENTS(pieces); i++) {
        g_autofree char *got = feed_pieces(data, len, pieces[i], &n);

        assert_string_equal(got, expected);
        assert_int_equal(n, 15);
    }
    assert_null(strstr(expected, "\033"));          /* the ESC arrived as text */
    assert_non_null(strstr(expected, "a \\x1b[2Jterminal escape and a \\u009bCSI"));
    assert_null(strstr(expected, "forged"));
    assert_null(strstr(expected, "indented"));
    assert_null(strstr(expected, "cut by power-off"));
}

/* A console line longer than VDC_SERIAL_LINE_MAX is dropped whole, the
 * next line is read normally. */
static void
test_serial_long_line(void **state)
{
    GString *in = g_string_new("vmdiskcmp: [progress] ");
    g_autofree char *got = NULL;
    size_t n;

    while (in->len <= VDC_SERIAL_LINE_MAX)
        g_string_append_c(in, 'x');
    g_string_append(in, "\r\nvmdiskcmp: [progress] next\r\r\n");
    got = feed_pieces(in->str, in->len, 1000, &n);
    assert_string_equal(got, "next\n");
    assert_int_equal(n, 1);
    g_string_free(in, TRUE);
}

/* Following the file: absent at first (no lines, no message), then grown
 * in pieces, a line completed across two polls, then emptied (a new boot)
 * and read from its start again. */
static void
test_serial_tail(void **state)
{
    g_autofree char *p = path("tail/serial.log");
    GString *got = g_string_new(NULL);
    vdc_serial_tail t;
    FILE *f;

    vdc_serial_tail_init(&t, p);
    assert_int_equal(vdc_serial_tail_poll(&t, collect, got), 0);     /* no file yet */
    put("tail/serial.log", "Xen 4.17\r\nvmdiskcmp: [progress] plan: 3 tar", 0644);
    assert_int_equal(vdc_serial_tail_poll(&t, collect, got), 0);     /* half a line */
    f = fopen(p, "a");
    assert_non_null(f);
    fputs("get(s)\r\r\nvmdiskcmp: [progress] boot 1/6\r\r\n", f);
    fclose(f);
    assert_int_equal(vdc_serial_tail_poll(&t, collect, got), 2);
    assert_int_equal(vdc_serial_tail_poll(&t, collect, got), 0);     /* nothing new */
    f = fopen(p, "w");                  /* emptied in place, as boot-lab.sh does */
    assert_non_null(f);
    fputs("vmdiskcmp: [progress] again\n", f);
    fclose(f);
    assert_int_equal(vdc_serial_tail_poll(&t, collect, got), 1);
    assert_string_equal(got->str, "plan: 3 target(s)\nboot 1/6\nagain\n");
    vdc_serial_tail_dispose(&t);
    vdc_serial_tail_dispose(&t);
    g_string_free(got, TRUE);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_jobs),
        cmocka_unit_test(test_run_workload),
        cmocka_unit_test(test_request_text),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_prepared_other_agent),
        cmocka_unit_test(test_prepared_template),
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_default_paths),
        cmocka_unit_test(test_failed_job),
        cmocka_unit_test(test_serial_progress),
        cmocka_unit_test(test_serial_long_line),
        cmocka_unit_test(test_serial_tail),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
