/* vmdiskcmp merge DIR... -o OUT: one job's result directories from several
 * hosts (contrib/ansible fetches them to results/fleet-DATE/HOST/) into one
 * result set with the host as a dimension, and the fleet report
 * (report/fleet.h).  Options and exit statuses: doc/vmdiskcmp.1; the
 * report: doc/report.md "Fleet report". */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include <glib.h>

#include "cli/commands.h"
#include "common/opts.h"
#include "common/util.h"
#include "model/result.h"
#include "report/fleet.h"

struct merge_cli {
    char *out;
    int quiet;
};

static const char merge_usage[] =
    "usage: vmdiskcmp merge DIR... -o OUT [--quiet]\n"
    "DIR: one host's result directory of the same job (results/fleet-DATE/HOST/:\n"
    "the host is named by the directory's name).  A directory without\n"
    "result.json is a host whose run never came back; one holding\n"
    VDC_FLEET_FAILED_MARKER " (written by contrib/ansible) a host whose run failed: each\n"
    "has its row saying so.  Writes OUT (must not exist): result.json (every\n"
    "host's targets as TARGET@HOST), fleet.txt (also printed) and fleet.json:\n"
    "the headline per host, whether the storage choice is the same on every\n"
    "host and, where not, which host facts differ (kernel, Xen, disk model,\n"
    "scheduler), and the spread of each test across hosts.  Results of a\n"
    "different job (other targets or tests) are refused (exit 2).\n\n";

static const vdc_opt merge_table[] = {
    { .name = "out", .type = VDC_OPT_STR, .off = offsetof(struct merge_cli, out), .metavar = "OUT",
      .short_name = 'o', .help = "the directory to write (must not exist)" },
    { .name = "quiet", .type = VDC_OPT_FLAG, .off = offsetof(struct merge_cli, quiet), .short_name = 'q',
      .help = "do not print the fleet report" },
    { .name = "help", .type = VDC_OPT_HELP, .short_name = 'h', .help = "this text" },
};

/* The first line of @path's text (a regular file, checked by the caller;
 * only its first 4096 bytes are read), control characters made '?', at
 * most 1000 bytes; "(empty)" when there is none (g_free). */
static char *
marker_line(const char *path)
{
    char data[4097], *line, *p;
    ssize_t len;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

    if (fd < 0)
        return g_strdup("failed (marker unreadable)");
    len = read(fd, data, sizeof(data) - 1);
    close(fd);
    if (len < 0)
        return g_strdup("failed (marker unreadable)");
    data[len] = '\0';
    line = g_strndup(data, strcspn(data, "\n"));
    if (strlen(line) > 1000)
        line[1000] = '\0';
    for (p = line; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    if (!g_utf8_validate(line, -1, NULL)) {
        p = g_utf8_make_valid(line, -1);
        g_free(line);
        line = p;
    }
    if (!*line) {
        g_free(line);
        line = g_strdup("failed (the marker gives no reason)");
    }
    return line;
}

/* Add the host of directory @dir to @f: failed (marker), missing (no
 * result.json) or ok (loaded).  -1 after one bad-input message. */
static int
add_host(struct vdc_fleet *f, const char *dir)
{
    char *name = g_path_get_basename(dir), *marker, *result;
    struct vdc_fleet_host *h;
    struct stat st;
    size_t i;
    int rc = -1;

    marker = g_build_filename(dir, VDC_FLEET_FAILED_MARKER, NULL);
    result = g_build_filename(dir, "result.json", NULL);
    if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
        vdc_input_error("merge: %s: not a directory: expected a host's result directory", dir);
        goto out;
    }
    for (i = 0; i < f->n_hosts; i++) {
        struct stat other;

        if (!strcmp(f->hosts[i].name, name)) {
            vdc_input_error("merge: %s: host %s is given twice (also %s): expected one directory per host",
                            dir, name, f->hosts[i].dir);
            goto out;
        }
        if (stat(f->hosts[i].dir, &other) == 0 && other.st_dev == st.st_dev && other.st_ino == st.st_ino) {
            vdc_input_error("merge: %s: the same directory as %s (host %s): expected one directory per host",
                            dir, f->hosts[i].dir, f->hosts[i].name);
            goto out;
        }
    }
    if (lstat(marker, &st) == 0 && !S_ISREG(st.st_mode)) {
        vdc_input_error("merge: %s: not a regular file: expected the failure marker contrib/ansible writes",
                        marker);
        goto out;
    }
    h = vdc_fleet_add_host(f, name, dir);
    if (g_file_test(marker, G_FILE_TEST_EXISTS)) {
        h->status = VDC_FLEET_FAILED;
        g_free(h->reason);
        h->reason = marker_line(marker);
    } else if (g_file_test(result, G_FILE_TEST_EXISTS)) {
        vdc_err_kind scope = vdc_error_scope(VDC_ERR_INPUT);   /* a bad file we were given */
        int r = vdc_result_set_load_file(&h->rs, result);

        vdc_error_scope(scope);
        if (r < 0)
            goto out;
        if (!h->rs.n_runs) {
            vdc_input_error("merge: %s: no runs: expected a host's result set with at least one run", result);
            goto out;
        }
        h->status = VDC_FLEET_OK;
        g_free(h->reason);
        h->reason = NULL;
    }
    rc = 0;
 out:
    g_free(name);
    g_free(marker);
    g_free(result);
    return rc;
}

/* -o @out (not there yet): its parent an existing directory we can write
 * in, outside every host directory of @f (a merge never writes into what
 * it reads).  0, or -1 after one bad-input message. */
static int
check_out(const char *out, const struct vdc_fleet *f)
{
    g_autofree char *parent = g_path_get_dirname(out);
    g_autofree char *real = NULL;
    struct stat st;
    size_t i;

    if (stat(parent, &st) < 0) {
        vdc_input_error("-o %s: %s: %s: expected OUT in an existing directory", out, parent,
                        g_strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        vdc_input_error("-o %s: %s: not a directory: expected OUT in an existing directory", out, parent);
        return -1;
    }
    if (access(parent, W_OK | X_OK) < 0) {
        vdc_input_error("-o %s: %s: %s: expected OUT in a directory this user can write in", out, parent,
                        g_strerror(errno));
        return -1;
    }
    real = realpath(parent, NULL);
    for (i = 0; real && i < f->n_hosts; i++) {
        g_autofree char *in = realpath(f->hosts[i].dir, NULL);
        size_t n = in ? strlen(in) : 0;

        if (in && !strncmp(real, in, n) && (real[n] == '\0' || real[n] == '/' || n == 1)) {
            vdc_input_error("-o %s: inside the host directory %s: expected OUT outside every DIR", out,
                            f->hosts[i].dir);
            return -1;
        }
    }
    return 0;
}

static int
write_in(const char *dir, const char *file, const char *text)
{
    char *path = g_build_filename(dir, file, NULL);
    int rc = vdc_write_file_atomic(path, text, strlen(text));

    g_free(path);
    return rc;
}

int
vdc_cmd_merge(int argc, char **argv)
{
    vdc_opts_spec spec = {
        .command = "merge", .prefix = "merge: ", .table = merge_table, .n = G_N_ELEMENTS(merge_table),
        .operands = VDC_OPERANDS_ANYWHERE, .usage = merge_usage,
    };
    struct merge_cli c = { 0 };
    struct vdc_fleet f;
    vdc_result_set merged;
    char *text = NULL, *json = NULL, *result = NULL;
    vdc_opts_result r;
    int first = 0, i, rc = -1;

    vdc_fleet_init(&f);
    vdc_result_set_init(&merged);
    r = vdc_opts_parse(&spec, &c, argc, argv, &first, NULL);
    if (r == VDC_OPTS_HELP) {
        vdc_opts_help(&spec, stdout);
        rc = 0;
        goto out;
    }
    if (r < 0)
        goto out;
    if (!c.out || !*c.out) {
        vdc_input_error("merge: expected -o OUT: the directory to write (see --help)");
        goto out;
    }
    if (argc - first < 1) {
        vdc_input_error("merge: expected one result directory per host: DIR... (see --help)");
        goto out;
    }
    if (g_file_test(c.out, G_FILE_TEST_EXISTS)) {
        vdc_input_error("-o %s: exists: expected a new directory to write", c.out);
        goto out;
    }
    for (i = first; i < argc; i++)
        if (add_host(&f, argv[i]) < 0)
            goto out;
    if (check_out(c.out, &f) < 0)
        goto out;
    if (vdc_fleet_build(&f, NULL, NULL) < 0)
        goto out;
    if (!f.n_ok) {
        vdc_input_error("merge: no host has a result.json (%zu failed or missing): nothing to merge",
                        f.n_hosts);
        goto out;
    }
    vdc_fleet_merged_set(&f, &merged);
    text = vdc_fleet_render_text(&f);
    json = vdc_fleet_render_json(&f);
    if (mkdir(c.out, 0755) < 0) {
        vdc_error("-o %s: cannot create the directory: %s", c.out, g_strerror(errno));
        goto out;
    }
    result = g_build_filename(c.out, "result.json", NULL);
    if (vdc_result_set_save(&merged, result) < 0 || write_in(c.out, "fleet.txt", text) < 0 ||
        write_in(c.out, "fleet.json", json) < 0)
        goto out;
    if (!c.quiet && (fputs(text, stdout) == EOF || fflush(stdout) != 0)) {
        vdc_error("cannot write to standard output: %s", g_strerror(errno));
        goto out;
    }
    rc = 0;
 out:
    g_free(result);
    g_free(text);
    g_free(json);
    vdc_result_set_dispose(&merged);
    vdc_fleet_dispose(&f);
    vdc_opts_dispose(&spec, &c);
    return rc;
}
