/* SPDX-License-Identifier: GPL-2.0-or-later */
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
#include <signal.h>
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
#include "report/report_dir.h"
#include "store/store.h"

struct merge_cli {
    char *out;
    char *store;
    int no_store;
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
    "different job (other targets or tests) are refused (exit 2).  Each host's\n"
    "result and the merge are recorded in the result store, the host as a\n"
    "dimension (doc/store.md): OUT's directory's " VDC_STORE_FILE " unless --store or\n"
    "--no-store; a store that cannot be written is a warning, OUT stands.\n\n";

static const vdc_opt merge_table[] = {
    { .name = "out", .type = VDC_OPT_STR, .off = offsetof(struct merge_cli, out), .metavar = "OUT",
      .short_name = 'o', .help = "the directory to write (must not exist)" },
    { .name = "store", .type = VDC_OPT_STR, .off = offsetof(struct merge_cli, store), .metavar = "FILE",
      .def = "OUT's directory's " VDC_STORE_FILE, .help = "the result store to record the hosts and the merge in" },
    { .name = "no-store", .type = VDC_OPT_FLAG, .off = offsetof(struct merge_cli, no_store),
      .help = "record nothing in a result store" },
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

/* 1 when @path is a symbolic link that leads out of directory @dir (or
 * nowhere): a host's result directory comes from another machine, and a
 * result.json linked to /etc/shadow must not be read as root (its first
 * token was once echoed in the parse error) */
static int
link_out_of(const char *dir, const char *path)
{
    g_autofree char *rdir = NULL, *rpath = NULL;
    struct stat st;
    size_t n;

    if (lstat(path, &st) < 0 || !S_ISLNK(st.st_mode))
        return 0;
    rdir = realpath(dir, NULL);
    rpath = realpath(path, NULL);
    if (!rdir || !rpath)
        return 1;
    n = strlen(rdir);
    return strncmp(rpath, rdir, n) != 0 || (rpath[n] != '/' && strcmp(rdir, "/") != 0);
}

/* Add the host of directory @dir to @f: failed (marker), missing (no
 * result.json) or ok (loaded).  *@targets and *@runs count the merged
 * set's targets (TARGET@HOST: each host's its own) and runs so far; a
 * host that would take them past the loader's limits is refused.  -1
 * after one bad-input message. */
static int
add_host(struct vdc_fleet *f, const char *dir, size_t *targets, size_t *runs)
{
    char *name = g_path_get_basename(dir), *marker, *result, *why = NULL;
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
    /* the directory's name is the host's label in every output */
    if (!vdc_target_name_ok(name)) {
        vdc_input_error("merge: %s: host name '%s': expected printable UTF-8 of at most %d bytes "
                        "(no control characters)", dir, name, VDC_TARGET_NAME_MAX);
        goto out;
    }
    if (link_out_of(dir, result)) {
        vdc_input_error("merge: %s: a symbolic link out of the host directory: expected the host's own "
                        "result.json (not read)", result);
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
        *targets += vdc_result_set_target_count(&h->rs);
        *runs += h->rs.n_runs;
        if ((why = vdc_merge_totals_refusal(*targets, *runs))) {
            vdc_input_error("merge: %s: %s", result, why);
            goto out;
        }
        h->status = VDC_FLEET_OK;
        g_free(h->reason);
        h->reason = NULL;
    }
    rc = 0;
 out:
    g_free(why);
    g_free(name);
    g_free(marker);
    g_free(result);
    return rc;
}

/* The host directory of @f that directory @fd or any directory above it
 * is (device and inode, walking ".." up to the root: no path length limit,
 * and a bind mount of a host directory is that directory), "" when none,
 * NULL with errno when the walk fails.  Closes @fd. */
static const char *
host_above(int fd, const struct vdc_fleet *f)
{
    const char *hit = "";
    struct stat st, up_st;

    while (fd >= 0 && fstat(fd, &st) == 0) {
        int up;

        for (size_t i = 0; i < f->n_hosts; i++) {
            struct stat h;

            if (stat(f->hosts[i].dir, &h) == 0 && h.st_dev == st.st_dev && h.st_ino == st.st_ino) {
                close(fd);
                return f->hosts[i].dir;
            }
        }
        up = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);    /* search, not read, needed */
        if (up < 0)
            break;
        if (fstat(up, &up_st) == 0 && up_st.st_dev == st.st_dev && up_st.st_ino == st.st_ino) {
            close(up);          /* the root: its ".." is itself */
            close(fd);
            return hit;
        }
        close(fd);
        fd = up;
    }
    if (fd >= 0) {
        int e = errno;

        close(fd);
        errno = e;
    }
    return NULL;
}

/* -o @out (not there yet, not even as a dangling link; no trailing
 * slash): its parent an existing directory we can write in, outside every
 * host directory of @f (a merge never writes into what it reads).
 * @parent receives the parent.  0, or -1 after one bad-input message. */
static int
check_out(const char *out, const struct vdc_fleet *f, char **parent)
{
    const char *host;
    struct stat st;

    *parent = g_path_get_dirname(out);
    if (lstat(out, &st) == 0) {
        vdc_input_error("-o %s: exists: expected a new directory to write", out);
        return -1;
    }
    if (errno != ENOENT && errno != ENOTDIR) {   /* ENOTDIR: the parent, below */
        vdc_input_error("-o %s: %s: expected a new directory to write", out, g_strerror(errno));
        return -1;
    }
    if (stat(*parent, &st) < 0) {
        vdc_input_error("-o %s: %s: %s: expected OUT in an existing directory", out, *parent,
                        g_strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        vdc_input_error("-o %s: %s: not a directory: expected OUT in an existing directory", out, *parent);
        return -1;
    }
    if (access(*parent, W_OK | X_OK) < 0) {
        vdc_input_error("-o %s: %s: %s: expected OUT in a directory this user can write in", out, *parent,
                        g_strerror(errno));
        return -1;
    }
    host = host_above(open(*parent, O_PATH | O_DIRECTORY | O_CLOEXEC), f);
    if (!host) {
        vdc_input_error("-o %s: %s: %s: expected OUT where the host directories can be told apart from it",
                        out, *parent, g_strerror(errno));
        return -1;
    }
    if (*host) {
        vdc_input_error("-o %s: inside the host directory %s: expected OUT outside every DIR", out, host);
        return -1;
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

static const char *const merge_files[] = { "result.json", "fleet.txt", "fleet.json" };

/* Write the merge's files into a new directory beside @out in @parent and
 * rename it to @out, never over anything (RENAME_NOREPLACE): @out appears
 * whole or not at all, with the mode mkdir(@out, 0755) would give it.
 * SIGINT/SIGTERM/SIGHUP wait until that is done or undone (a few
 * milliseconds), so no temporary directory is left.  0, or -1 after one
 * message (nothing left). */
static int
write_out(const char *out, const char *parent, const vdc_result_set *merged, const char *text,
          const char *json)
{
    g_autofree char *tmp = g_build_filename(parent, ".vdc-merge-XXXXXX", NULL);
    g_autofree char *result = NULL;
    sigset_t old;
    mode_t mask = umask(0);
    int rc = -1;

    umask(mask);
    vdc_hold_stop_signals(&old);
    if (!g_mkdtemp(tmp)) {
        vdc_error("-o %s: cannot create a directory in %s: %s", out, parent, g_strerror(errno));
        goto out;
    }
    result = g_build_filename(tmp, "result.json", NULL);
    if (chmod(tmp, 0755 & ~mask) < 0)
        vdc_error("-o %s: %s: %s", out, tmp, g_strerror(errno));
    else if (vdc_result_set_save(merged, result) == 0 && write_in(tmp, "fleet.txt", text) == 0 &&
             write_in(tmp, "fleet.json", json) == 0) {
        int r = renameat2(AT_FDCWD, tmp, AT_FDCWD, out, RENAME_NOREPLACE);

        if (r < 0 && errno == EINVAL) {     /* a filesystem without RENAME_NOREPLACE */
            if (lstat(out, &(struct stat){ 0 }) == 0)
                errno = EEXIST;
            else if (errno == ENOENT)
                r = rename(tmp, out);
        }
        if (r == 0) {
            rc = 0;
            goto out;
        }
        vdc_error("-o %s: cannot create the directory: %s", out, g_strerror(errno));
    }
    for (size_t i = 0; i < G_N_ELEMENTS(merge_files); i++) {
        g_autofree char *path = g_build_filename(tmp, merge_files[i], NULL);

        unlink(path);
    }
    rmdir(tmp);
 out:
    sigprocmask(SIG_SETMASK, &old, NULL);
    return rc;
}

/* Record every ok host's result (its host label the dimension) and the
 * merge (@out's result.json, its members the hosts) in the store at
 * @store, in one transaction, after OUT is complete: a failure is a
 * warning, OUT stands. */
static void
record_merge(const char *store, const struct vdc_fleet *f, const vdc_result_set *merged, const char *out)
{
    struct vdc_store_item *items = g_new0(struct vdc_store_item, f->n_hosts);
    char **shas = g_new0(char *, f->n_hosts + 1), **srcs = g_new0(char *, f->n_hosts + 1);
    g_autofree char *out_json = g_build_filename(out, "result.json", NULL), *out_abs = NULL, *data = NULL;
    struct vdc_store_item m = { .rs = merged, .kind = VDC_STORE_KIND_MERGE };
    vdc_store *s = NULL;
    size_t n = 0, len;
    int ok = 0;

    for (size_t h = 0; h < f->n_hosts; h++) {
        g_autofree char *path = g_build_filename(f->hosts[h].dir, "result.json", NULL), *bytes = NULL;

        if (f->hosts[h].status != VDC_FLEET_OK)
            continue;
        if (!g_file_get_contents(path, &bytes, &len, NULL))
            goto out;
        shas[n] = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)bytes, len);
        srcs[n] = g_canonicalize_filename(f->hosts[h].dir, NULL);
        items[n] = (struct vdc_store_item){ .rs = &f->hosts[h].rs, .sha256 = shas[n], .source = srcs[n],
                                            .host = f->hosts[h].name, .kind = VDC_STORE_KIND_RUN };
        n++;
    }
    if (!g_file_get_contents(out_json, &data, &len, NULL))
        goto out;
    m.sha256 = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)data, len);
    out_abs = g_canonicalize_filename(out, NULL);
    m.source = out_abs;
    if ((s = vdc_store_open(store, 1)) && vdc_store_add(s, items, n, &m, NULL) == 0)
        ok = 1;
    g_free((char *)m.sha256);
 out:
    if (!ok)
        vdc_progress("warning: the merge was not recorded in the store %s; %s is complete ('vmdiskcmp store "
                     "add --store %s HOSTDIR...' records the hosts)", store, out, store);
    vdc_store_close(s);
    g_strfreev(shas);
    g_strfreev(srcs);
    g_free(items);
}

int
vdc_cmd_merge(int argc, char **argv)
{
    vdc_opts_spec spec = {
        .command = "merge", .prefix = "merge: ", .table = merge_table, .n = G_N_ELEMENTS(merge_table),
        .operands = VDC_OPERANDS_ANYWHERE, .usage = merge_usage,
    };
    struct merge_cli c = { 0 };
    g_autofree char *store = NULL;
    struct vdc_fleet f;
    vdc_result_set merged;
    char *text = NULL, *json = NULL, *parent = NULL, *why = NULL;
    size_t n_targets = 0, n_runs = 0;
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
    if ((why = vdc_merge_inputs_refusal((size_t)(argc - first)))) {
        vdc_input_error("merge: %s", why);
        goto out;
    }
    if (vdc_report_limits_apply() < 0)  /* the backstop: report/report_dir.h */
        goto out;
    for (size_t n = strlen(c.out); n > 1 && c.out[n - 1] == '/';)
        c.out[--n] = '\0';     /* OUT/ names OUT */
    for (i = first; i < argc; i++)
        if (add_host(&f, argv[i], &n_targets, &n_runs) < 0)
            goto out;
    if (check_out(c.out, &f, &parent) < 0)
        goto out;
    if (c.store && c.no_store) {
        vdc_input_error("merge: --store and --no-store: expected one of them");
        goto out;
    }
    store = c.store ? g_strdup(c.store) : vdc_store_default_path(c.out);
    if (c.store && vdc_store_check_path(store) < 0)     /* named: refused before anything is written */
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
    if (write_out(c.out, parent, &merged, text, json) < 0)
        goto out;
    if (!c.no_store)
        record_merge(store, &f, &merged, c.out);
    if (!c.quiet && (fputs(text, stdout) == EOF || fflush(stdout) != 0)) {
        vdc_error("cannot write to standard output: %s", g_strerror(errno));
        goto out;
    }
    rc = 0;
 out:
    g_free(why);
    g_free(parent);
    g_free(text);
    g_free(json);
    vdc_result_set_dispose(&merged);
    vdc_fleet_dispose(&f);
    vdc_opts_dispose(&spec, &c);
    return rc;
}
