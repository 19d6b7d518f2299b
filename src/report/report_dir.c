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
#include "report/render.h"
#include "report/render_hostcost.h"
#include "report/render_json.h"
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

struct outfile {
    const char *name;
    char *data;
};

/* Render the files of @opt->formats into @files (in the order of
 * vdc_report_dir_write's table); -1 after vdc_error when the HTML could
 * not be drawn. */
static int
render_all(struct outfile *files, const vdc_result_set *rs, const struct vdc_analysis *a,
           const struct vdc_report_options *opt)
{
    unsigned f = opt->formats;
    char *generated;
    int rc = 0;

    if (f & VDC_REPORT_TXT)
        files[0].data = vdc_render_text(rs, a);
    if (f & VDC_REPORT_CSV) {
        files[1].data = vdc_render_bonnie_csv(rs);
        files[2].data = vdc_render_summary_csv(rs, a);
        files[3].data = vdc_render_headline_csv(a);
    }
    if (f & VDC_REPORT_JSON)
        files[4].data = vdc_render_json(rs, a);
    if (f & VDC_REPORT_MD)
        files[5].data = vdc_render_markdown(rs, a);
    if (f & VDC_REPORT_CSV) {
        files[7].data = vdc_render_workloads_csv(a);   /* NULL: no workloads */
        files[8].data = vdc_host_cost_csv(a);              /* NULL: no host figures */
        files[9].data = vdc_host_cache_csv(a);             /* NULL: no page-cache figures */
    }
    if (f & VDC_REPORT_HTML) {
        generated = opt->generated ? g_strdup(opt->generated) : now_iso8601();
        if (!(files[6].data = vdc_render_html(rs, a, generated)))
            rc = -1;
        g_free(generated);
    }
    return rc;
}

/* -1 after vdc_input_error when a file to write exists (or is a symbolic
 * link, dangling or not) and @manifest does not name it. */
static int
refuse_foreign(const struct outfile *files, size_t n, char **manifest, const char *dir)
{
    size_t i;

    for (i = 0; i < n; i++) {
        char *p;
        int foreign;

        if (!files[i].data)
            continue;
        p = g_build_filename(dir, files[i].name, NULL);
        /* IS_SYMLINK too: EXISTS follows links, so a dangling one would
         * pass and be replaced */
        foreign = (g_file_test(p, G_FILE_TEST_EXISTS) || g_file_test(p, G_FILE_TEST_IS_SYMLINK)) &&
                  !g_strv_contains((const char *const *)manifest, files[i].name);
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
    struct outfile files[] = { { "report.txt", NULL }, { "report.csv", NULL }, { "summary.csv", NULL },
                               { "headline.csv", NULL }, { "report.json", NULL }, { "report.md", NULL },
                               { "report.html", NULL }, { "workloads.csv", NULL },
                               { "host-cost.csv", NULL }, { "page-cache.csv", NULL } };
    char **manifest = NULL;
    GString *newman = NULL;
    sigset_t oldmask;
    size_t i;
    int blocked = 0, rc = -1;

    /* render everything in memory first: nothing is written on error */
    if (render_all(files, rs, a, opt) < 0)
        goto out;
    manifest = read_manifest(dir);
    if (refuse_foreign(files, G_N_ELEMENTS(files), manifest, dir) < 0)
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
    for (i = 0; i < G_N_ELEMENTS(files); i++)
        if (files[i].data && !g_strv_contains((const char *const *)manifest, files[i].name))
            g_string_append_printf(newman, "%s\n", files[i].name);
    {
        char *mp = g_build_filename(dir, VDC_REPORT_MANIFEST, NULL);
        int r = vdc_write_file_atomic(mp, newman->str, newman->len);

        g_free(mp);
        if (r < 0)
            goto out;
    }
    for (i = 0; i < G_N_ELEMENTS(files); i++) {
        char *p;
        int r;

        if (!files[i].data)
            continue;
        p = g_build_filename(dir, files[i].name, NULL);
        r = vdc_write_file_atomic(p, files[i].data, strlen(files[i].data));
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
    for (i = 0; i < G_N_ELEMENTS(files); i++)
        g_free(files[i].data);
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
