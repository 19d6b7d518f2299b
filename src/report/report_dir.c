/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp report directory: render every format, write the files and
 * their manifest (report_dir.h). */
#include "config.h"

#include "report/report_dir.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "common/child.h"
#include "common/escape.h"
#include "common/util.h"
#include "report/formats.h"
#include "report/render_warnings.h"

void
vdc_report_options_init(struct vdc_report_options *o)
{
    memset(o, 0, sizeof(*o));
    o->formats = VDC_REPORT_ALL;
    vdc_stats_options_init(&o->stats);
    vdc_artefact_options_init(&o->artefacts);
}

void
vdc_print_warnings(char *const *warnings)
{
    size_t i;

    for (i = 0; warnings[i]; i++) {
        /* a warning quotes runs' errors: guest text, escaped */
        char *e = vdc_escape_text(warnings[i], -1, VDC_MESSAGE_MAX);

        fprintf(stderr, "vmdiskcmp: WARNING: %s\n", e);
        g_free(e);
    }
}

/* The report's date: now, or $SOURCE_DATE_EPOCH (reproducible builds and
 * the golden tests). */
static char *
now_iso8601(void)
{
    const char *sde = getenv("SOURCE_DATE_EPOCH");
    GDateTime *dt;
    char *s;

    if (sde && *sde)
        dt = g_date_time_new_from_unix_utc(g_ascii_strtoll(sde, NULL, 10));
    else
        dt = g_date_time_new_now_utc();
    s = g_date_time_format(dt, "%Y-%m-%dT%H:%M:%SZ");
    g_date_time_unref(dt);
    return s;
}

/* The names in DIR's manifest (files vmdiskcmp wrote there). */
static char **
read_manifest(const char *dir)
{
    char *path = g_build_filename(dir, VDC_REPORT_MANIFEST, NULL), *data = NULL;
    char **v;

    if (!g_file_get_contents(path, &data, NULL, NULL))
        data = g_strdup("");
    g_free(path);
    v = g_strsplit(data, "\n", -1);
    g_free(data);
    return v;
}

/* Render the files of @opt->formats (formats.h's table, in its order) into
 * @data (vdc_n_report_files long; NULL: not written); -1 after vdc_error
 * when one could not be rendered (the HTML's charts). */
static int
render_all(char **data, const vdc_result_set *rs, const struct vdc_analysis *a,
           const struct vdc_report_options *opt)
{
    struct vdc_render_in in = { .rs = rs, .a = a };
    char *generated = (opt->formats & VDC_REPORT_HTML)
                          ? (opt->generated ? g_strdup(opt->generated) : now_iso8601()) : NULL;
    size_t i;
    int rc = 0;

    in.generated = generated;
    for (i = 0; i < vdc_n_report_files && rc == 0; i++)
        if (opt->formats & vdc_report_files[i].format)
            rc = vdc_report_files[i].render(&in, &data[i]);
    g_free(generated);
    return rc;
}

/* -1 after vdc_input_error when a file to write exists (or is a symbolic
 * link, dangling or not) and @manifest does not name it. */
static int
refuse_foreign(char *const *data, char **manifest, const char *dir)
{
    size_t i;

    for (i = 0; i < vdc_n_report_files; i++) {
        char *p;
        int foreign;

        if (!data[i])
            continue;
        p = g_build_filename(dir, vdc_report_files[i].name, NULL);
        /* IS_SYMLINK too: EXISTS follows links, so a dangling one would
         * pass and be replaced */
        foreign = (g_file_test(p, G_FILE_TEST_EXISTS) || g_file_test(p, G_FILE_TEST_IS_SYMLINK)) &&
                  !g_strv_contains((const char *const *)manifest, vdc_report_files[i].name);
        if (foreign)
            vdc_input_error("%s exists and was not written by vmdiskcmp report: refusing to overwrite it "
                            "(move it away, or render elsewhere)", p);
        g_free(p);
        if (foreign)
            return -1;
    }
    return 0;
}

int
vdc_report_dir_write(const vdc_result_set *rs, const struct vdc_analysis *a,
                     const struct vdc_report_options *opt, const char *dir)
{
    char **data = g_new0(char *, vdc_n_report_files + 1);
    char **manifest = NULL;
    GString *newman = NULL;
    sigset_t oldmask;
    size_t i;
    int blocked = 0, rc = -1;

    /* render everything in memory first: nothing is written on error */
    if (render_all(data, rs, a, opt) < 0)
        goto out;
    manifest = read_manifest(dir);
    if (refuse_foreign(data, manifest, dir) < 0)
        goto out;
    /* SIGINT/SIGTERM/SIGHUP wait until the files are written: no
     * temporary file is left behind and the manifest matches the files
     * (a few milliseconds; the signal is delivered right after) */
    vdc_hold_stop_signals(&oldmask);
    blocked = 1;
    /* record the names before writing, so an interrupted report can be
     * rerun over its own partial output */
    newman = g_string_new(NULL);
    for (i = 0; manifest[i]; i++)
        if (*manifest[i])
            g_string_append_printf(newman, "%s\n", manifest[i]);
    for (i = 0; i < vdc_n_report_files; i++)
        if (data[i] && !g_strv_contains((const char *const *)manifest, vdc_report_files[i].name))
            g_string_append_printf(newman, "%s\n", vdc_report_files[i].name);
    {
        char *mp = g_build_filename(dir, VDC_REPORT_MANIFEST, NULL);
        int r = vdc_write_file_atomic(mp, newman->str, newman->len);

        g_free(mp);
        if (r < 0)
            goto out;
    }
    for (i = 0; i < vdc_n_report_files; i++) {
        char *p;
        int r;

        if (!data[i])
            continue;
        p = g_build_filename(dir, vdc_report_files[i].name, NULL);
        r = vdc_write_file_atomic(p, data[i], strlen(data[i]));
        if (r == 0 && !opt->quiet)
            vdc_progress("wrote %s", p);
        g_free(p);
        if (r < 0)
            goto out;
    }
    rc = 0;
 out:
    if (blocked)
        sigprocmask(SIG_SETMASK, &oldmask, NULL);
    for (i = 0; i < vdc_n_report_files; i++)
        g_free(data[i]);
    g_free(data);
    if (newman)
        g_string_free(newman, TRUE);
    g_strfreev(manifest);
    return rc;
}

int
vdc_report_write(const vdc_result_set *rs, const struct vdc_report_options *opt, const char *dir)
{
    struct vdc_analysis a;
    int rc = -1;

    vdc_analysis_init(&a);
    if (vdc_analysis_build_with(&a, rs, opt->baseline, &opt->stats, &opt->artefacts) < 0)
        goto out;
    if (vdc_report_dir_write(rs, &a, opt, dir) < 0)
        goto out;
    if (opt->headline) {
        char **lines = vdc_analysis_headline_lines(&a);
        size_t i;

        printf("Headline (%s/report.txt):\n", dir);
        for (i = 0; lines && lines[i]; i++)
            printf("  %s\n", lines[i]);
        fflush(stdout);
        g_strfreev(lines);
    }
    if (!opt->quiet) {
        char **w = vdc_report_warnings(rs, &a);

        vdc_print_warnings(w);
        g_strfreev(w);
    }
    rc = 0;
 out:
    vdc_analysis_dispose(&a);
    return rc;
}

int
vdc_report_result_dir(const char *dir, const struct vdc_report_options *opt)
{
    char *path = g_build_filename(dir, "result.json", NULL);
    vdc_result_set rs;
    int rc;

    vdc_result_set_init(&rs);
    rc = vdc_result_set_load_file(&rs, path);
    g_free(path);
    if (rc == 0)
        rc = vdc_report_write(&rs, opt, dir);
    vdc_result_set_dispose(&rs);
    return rc;
}

int
vdc_report_limits_apply(void)
{
    static const struct { int resource; const char *name; rlim_t max; } limits[] = {
        { RLIMIT_AS, "RLIMIT_AS", (rlim_t)VDC_REPORT_MEMORY_MAX },
        { RLIMIT_CPU, "RLIMIT_CPU", (rlim_t)VDC_REPORT_CPU_S_MAX },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(limits); i++) {
        struct rlimit rl;

        if (getrlimit(limits[i].resource, &rl) < 0) {
            vdc_error("getrlimit %s: %s", limits[i].name, g_strerror(errno));
            return -1;
        }
        if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur <= limits[i].max)
            continue;
        rl.rlim_cur = limits[i].max;
        if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < rl.rlim_cur)
            rl.rlim_cur = rl.rlim_max;
        if (setrlimit(limits[i].resource, &rl) < 0) {
            vdc_error("setrlimit %s: %s", limits[i].name, g_strerror(errno));
            return -1;
        }
    }
    return 0;
}

struct bounded_report {
    const char *dir;
    const struct vdc_report_options *opt;
};

static int
bounded_report_child(void *arg)
{
    const struct bounded_report *b = arg;

    if (vdc_report_limits_apply() < 0)
        return 1;
    return vdc_report_result_dir(b->dir, b->opt) < 0 ? 1 : 0;
}

int
vdc_report_result_dir_bounded(const char *dir, const struct vdc_report_options *opt,
                              volatile sig_atomic_t *stop)
{
    struct bounded_report b = { .dir = dir, .opt = opt };
    vdc_child_opts o = { .fn = bounded_report_child, .arg = &b, .what = "the report",
                         .timeout_ms = VDC_REPORT_WALL_S_MAX * 1000u, .stop = stop };
    vdc_child_result r = { 0 };
    int rc = -1;

    if (vdc_child_run(&o, &r) < 0)
        return -1;
    if (r.stopped)
        vdc_error("%s: rendering the report was interrupted", dir);
    else if (r.timed_out)
        vdc_error("%s: rendering the report took over %d s: stopped", dir, VDC_REPORT_WALL_S_MAX);
    else if (!r.exited)
        vdc_error("%s: rendering the report ended by signal %d (%s): past its bound of %llu MiB of memory "
                  "or %d s of CPU, or a fault", dir, r.status, g_strsignal(r.status),
                  VDC_REPORT_MEMORY_MAX >> 20, VDC_REPORT_CPU_S_MAX);
    else
        rc = r.status == 0 ? 0 : -1;    /* the child named the cause */
    vdc_child_result_dispose(&r);
    return rc;
}
