/* `vmdiskcmp lab`: build and run the emulated Xen lab (issue 5).  Parses
 * and validates the options (src/lab/lab.c), fills the defaults that need
 * this executable's path, runs templates/lab/lab.sh (which does the work)
 * and waits for it.  After `lab run`, the result the job brought back
 * (DIR/result/result.json) is marked experiment.emulated = true — the lab
 * knows it is emulated hardware, the controller inside it cannot — and
 * re-rendered with `vmdiskcmp report`.
 * Exit status: lab.sh's: 0 ok, 1 a lab stage failed (one line names it),
 * 2 bad input, 3 interrupted, else the job's status. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

#include "cli/commands.h"
#include "common/child.h"
#include "common/util.h"
#include "lab/lab.h"
#include "model/result.h"
#include "report/report_dir.h"

static volatile sig_atomic_t lab_stop;

/* SIGINT/SIGTERM/SIGHUP only set the flag: vdc_child_run then sends SIGTERM
 * to lab.sh's whole process group (lab.sh, the boot script, QEMU): bash
 * runs a trap only after its foreground child returns, so signalling lab.sh
 * alone would leave the lab running; each script's trap tears down what it
 * created, within LAB_GRACE_MS, before the group gets SIGKILL */
static void
on_lab_signal(int sig)
{
    lab_stop = sig;
}

/* boot-lab.sh's teardown waits up to 10 s for QEMU before its SIGKILL */
#define LAB_GRACE_MS 60000

/* Mark DIR/result.json as measured on emulated hardware and re-render the
 * report.  0, or -1 after vdc_error. */
static int
lab_mark_emulated(const char *dir)
{
    g_autofree char *path = g_build_filename(dir, "result.json", NULL);
    vdc_result_set rs;
    int rc = -1;

    vdc_result_set_init(&rs);
    if (vdc_result_set_load_file(&rs, path) < 0)
        goto out;
    rs.has_experiment = 1;
    rs.experiment.emulated = 1;
    if (vdc_result_set_save(&rs, path) < 0)
        goto out;
    {
        struct vdc_report_options ro;

        vdc_report_options_init(&ro);
        ro.quiet = 1;
        ro.headline = 1;     /* the job's answer, on the host's terminal */
        if (vdc_report_write(&rs, &ro, dir) < 0) {
            vdc_error("lab: %s: marked emulated, but re-rendering the report failed", path);
            goto out;
        }
    }
    rc = 0;
out:
    vdc_result_set_dispose(&rs);
    return rc;
}

int
vdc_cmd_lab(int argc, char **argv)
{
    struct vdc_lab_opts o;
    g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
    g_autofree char *script = NULL;
    g_autofree char *out_dir = NULL;
    char **av = NULL;
    unsigned njobs = 0, k;
    int r, rc;

    vdc_lab_opts_init(&o);
    rc = vdc_lab_parse(&o, argc, argv);
    if (rc != 0) {
        vdc_lab_opts_dispose(&o);
        return rc > 0 ? 0 : -1;
    }
    vdc_lab_default_paths(&o, exe);
    if (!o.vmdiskcmp)
        o.vmdiskcmp = g_strdup(exe ? exe : "vmdiskcmp");
    if (!o.out_dir) {
        char stamp[32];
        time_t now = time(NULL);

        strftime(stamp, sizeof(stamp), "lab-%Y%m%d-%H%M%S", localtime(&now));
        o.out_dir = g_strdup(stamp);
    }
    script = g_build_filename(o.script_dir, "lab.sh", NULL);
    if (access(script, R_OK) != 0) {
        vdc_input_error("lab: recipe %s not readable (%s): set VDC_LAB_DIR to templates/lab",
                        script, g_strerror(errno));
        vdc_lab_opts_dispose(&o);
        return -1;
    }
    if (!strcmp(o.action, "run")) {
        /* job 1 writes OUT/result, each `--then ARGS` job K OUT/result-K */
        size_t i;

        njobs = 1;
        for (i = 0; o.args && o.args[i]; i++)
            njobs += !strcmp(o.args[i], "--then");
        out_dir = g_strdup(o.out_dir);
    }
    av = vdc_lab_argv(&o);
    vdc_lab_opts_dispose(&o);

    vdc_on_stop_signals(on_lab_signal);
    {
        vdc_child_opts co = { .argv = av, .what = av[1], .stop = &lab_stop,
                              .grace_ms = LAB_GRACE_MS, .death_signal = SIGTERM };
        vdc_child_result res;

        r = vdc_child_run(&co, &res);
        g_strfreev(av);
        if (r < 0)
            return -1;
        if (res.stopped || !res.exited || res.status == 130) {
            vdc_note_interrupted();
            return -1;
        }
        rc = res.status;
    }
    /* lab.sh printed what failed: its status tells the kind */
    if (rc != 0)
        vdc_note_error(rc == VDC_EXIT_USAGE ? VDC_ERR_INPUT : VDC_ERR_RUNTIME);
    for (k = 1; k <= njobs; k++) {
        g_autofree char *result_dir = k == 1 ? g_build_filename(out_dir, "result", NULL) :
                                               g_strdup_printf("%s/result-%u", out_dir, k);
        g_autofree char *json = g_build_filename(result_dir, "result.json", NULL);

        if (g_file_test(json, G_FILE_TEST_EXISTS) && lab_mark_emulated(result_dir) < 0 &&
            rc == 0)
            rc = -1;
        if (rc == 0 || g_file_test(json, G_FILE_TEST_EXISTS))
            fprintf(stderr, "vmdiskcmp: lab: results in %s (emulated hardware)\n", result_dir);
    }
    return rc == 0 ? 0 : -1;
}
