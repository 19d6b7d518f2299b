/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `vmdiskcmp lab`: build and run the emulated Xen lab.  Parses and checks
 * every option and job (src/lab/lab.c: the lab's one parser), fills the
 * defaults that need this executable's path, hands templates/lab/lab.sh the
 * checked request (lab.sh stages, boots and collects) and waits for it;
 * meanwhile (lab run) it shows the inner vmdiskcmp's progress lines as
 * they reach the serial log (src/lab/serial.h).
 * After `lab run`, each job's result (DIR/result/result.json, DIR/result-K)
 * is marked experiment.emulated = true — the lab knows it is emulated
 * hardware, the controller inside it cannot — and its report written again
 * (src/report/report_dir.c).
 * Exit status (main, vdc_exit_status): 0 ok; 1 a lab stage or a job failed
 * (one line names it); 2 bad input, also a job that refused its arguments
 * in dom0; 3 interrupted. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "cli/commands.h"
#include "common/child.h"
#include "common/opts.h"
#include "common/util.h"
#include "lab/lab.h"
#include "lab/serial.h"
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

/* Mark DIR/result.json as measured on emulated hardware (the lab's jobs
 * run with --emulated: a result already marked is left byte for byte as
 * the run wrote and recorded it in its store) and re-render the report.
 * 0, or -1 after vdc_error. */
static int
lab_mark_emulated(const char *dir)
{
    g_autofree char *path = g_build_filename(dir, "result.json", NULL);
    vdc_result_set rs;
    int rc = -1;

    vdc_result_set_init(&rs);
    if (vdc_result_set_load_file(&rs, path) < 0)
        goto out;
    if (!rs.has_experiment || rs.experiment.emulated != 1) {
        rs.has_experiment = 1;
        rs.experiment.emulated = 1;
        if (vdc_result_set_save(&rs, path) < 0)
            goto out;
    }
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

/* the inner vmdiskcmp's progress line @text (escaped), on our stderr */
static void
show_job_progress(const char *text, void *arg)
{
    vdc_progress("lab job: %s", text);
}

/* child tick: what the serial log got since the last look */
static void
follow_serial(void *arg)
{
    (void)vdc_serial_tail_poll(arg, show_job_progress, NULL);
}

/* lab.sh exited @status != 0: name what failed, with its kind */
static void
lab_failed(const struct vdc_lab_request *r, int status)
{
    size_t job = 0;
    int code = 0;

    if (!vdc_lab_failed_job(r, &job, &code)) {
        /* a stage failed: lab.sh printed the line */
        vdc_note_error(status == VDC_EXIT_USAGE ? VDC_ERR_INPUT : VDC_ERR_RUNTIME);
    } else if (job) {
        /* a job that refused its arguments: the user's bad input */
        vdc_error_kind(code == VDC_EXIT_USAGE ? VDC_ERR_INPUT : VDC_ERR_RUNTIME,
                       "lab run: job %zu of %zu exited %d (see %s/job.log)", job, r->n_jobs,
                       code, r->out_dir);
    } else {
        vdc_error("lab %s: the job exited %d in dom0 (see %s/job.log)", r->action, code,
                  r->out_dir);
    }
}

int
vdc_cmd_lab(int argc, char **argv)
{
    struct vdc_lab_opts o;
    struct vdc_lab_request req;
    g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
    g_autofree char *script = NULL, *text = NULL, *request = NULL;
    GError *err = NULL;
    vdc_child_result res;
    size_t k;
    int fd = -1, r, rc = -1;

    vdc_lab_opts_init(&o);
    vdc_lab_request_init(&req);
    r = vdc_lab_parse(&o, argc, argv);
    if (r == VDC_OPTS_HELP) {
        vdc_lab_help(stdout);
        rc = 0;
        goto out;
    }
    if (r < 0)
        goto out;
    vdc_lab_default_paths(&o, exe);
    if (!o.vmdiskcmp)
        o.vmdiskcmp = g_strdup(exe ? exe : "vmdiskcmp");
    if (!o.out_dir && strcmp(o.action, "build")) {
        char stamp[32];
        time_t now = time(NULL);

        strftime(stamp, sizeof(stamp), "lab-%Y%m%d-%H%M%S", localtime(&now));
        o.out_dir = g_strdup(stamp);
    }
    script = g_build_filename(o.script_dir, "lab.sh", NULL);
    if (access(script, R_OK) != 0) {
        vdc_input_error("lab: recipe %s not readable (%s): set VDC_LAB_DIR to templates/lab",
                        script, g_strerror(errno));
        goto out;
    }
    if (vdc_lab_check(&o, &req) < 0)
        goto out;
    if (req.out_dir && g_mkdir_with_parents(req.out_dir, 0755) < 0) {
        vdc_input_error("lab %s: cannot create --out %s: %s", req.action, req.out_dir,
                        g_strerror(errno));
        goto out;
    }
    /* the request, for lab.sh only: removed when it is done */
    text = vdc_lab_request_text(&req);
    fd = g_file_open_tmp("vmdiskcmp-lab-XXXXXX.request", &request, &err);
    if (fd < 0 || !g_file_set_contents(request, text, -1, &err)) {
        vdc_error("lab: the request for lab.sh: %s", err->message);
        g_clear_error(&err);
        goto out;
    }
    vdc_on_stop_signals(on_lab_signal);
    {
        char *av[] = { (char *)"/bin/bash", script, request, NULL };
        g_autofree char *serial = req.out_dir && !strcmp(req.action, "run")
                                  ? g_build_filename(req.out_dir, "lab", "serial.log", NULL) : NULL;
        vdc_serial_tail tail;
        vdc_child_opts co = { .argv = av, .what = script, .stop = &lab_stop,
                              .grace_ms = LAB_GRACE_MS, .death_signal = SIGTERM };

        /* lab run: the job's progress lines, live, from dom0's console */
        vdc_serial_tail_init(&tail, serial ? serial : "");
        if (serial) {
            co.tick = follow_serial;
            co.tick_arg = &tail;
        }
        r = vdc_child_run(&co, &res);
        vdc_serial_tail_dispose(&tail);
    }
    g_unlink(request);
    if (r < 0)
        goto out;
    if (res.stopped || !res.exited || res.status == 130) {
        vdc_note_interrupted();
        goto out;
    }
    rc = res.status == 0 ? 0 : -1;
    if (rc < 0)
        lab_failed(&req, res.status);
    for (k = 0; k < req.n_jobs; k++) {
        const char *dir = req.jobs[k].result_dir;
        g_autofree char *json = dir ? g_build_filename(dir, "result.json", NULL) : NULL;

        if (!json || !g_file_test(json, G_FILE_TEST_EXISTS))
            continue;
        if (lab_mark_emulated(dir) < 0)
            rc = -1;
        fprintf(stderr, "vmdiskcmp: lab: results in %s (emulated hardware)\n", dir);
    }
out:
    if (fd >= 0)
        close(fd);
    vdc_lab_request_dispose(&req);
    vdc_lab_opts_dispose(&o);
    return rc;
}
