/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp store add|list|export: the result store (store/store.h,
 * store/export.h; doc/store.md).  Options and exit statuses:
 * doc/vmdiskcmp.1. */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include <glib.h>

#include "cli/commands.h"
#include "common/opts.h"
#include "common/util.h"
#include "report/report_dir.h"
#include "store/export.h"
#include "store/history.h"
#include "store/store.h"

struct store_cli {
    char *store;
    char *format;
    char *out;
    char *host;
    char *since;
    int metadata_object;
    int quiet;
};

static const char store_usage[] =
    "usage: vmdiskcmp store add [--store FILE] DIR|FILE...\n"
    "       vmdiskcmp store list [--store FILE]\n"
    "       vmdiskcmp store export [--store FILE] --format ndjson|openmetrics [-o FILE]\n"
    "                              [--host H] [--since DATE] [--metadata-object]\n"
    "The result store: every result.json recorded with its facts, samples and\n"
    "headline rows (SQLite; doc/store.md).  add records result directories (or\n"
    "result JSON files; a result already recorded, by the SHA-256 of its bytes,\n"
    "is not added twice) in one transaction; list prints what is recorded;\n"
    "export writes newline-delimited JSON samples (PerfKit Benchmarker's shape)\n"
    "or OpenMetrics text (Prometheus: promtool tsdb create-blocks-from\n"
    "openmetrics).  A file at --store that is not a vmdiskcmp store is refused\n"
    "(exit 2); vmdiskcmp never writes into a file it did not create.\n\n";

static const vdc_opt store_table[] = {
    { .name = "store", .type = VDC_OPT_STR, .off = offsetof(struct store_cli, store), .metavar = "FILE",
      .def = "results/" VDC_STORE_FILE, .help = "the store (created by add when missing)" },
    { .name = "format", .type = VDC_OPT_ENUM, .off = offsetof(struct store_cli, format),
      .choices = "ndjson|openmetrics", .scopes = "export", .help = "what export writes" },
    { .name = "out", .type = VDC_OPT_STR, .off = offsetof(struct store_cli, out), .metavar = "FILE",
      .short_name = 'o', .scopes = "export", .def = "standard output",
      .help = "write the export there (a new file, or one an earlier export wrote)" },
    { .name = "host", .type = VDC_OPT_STR, .off = offsetof(struct store_cli, host), .metavar = "H",
      .scopes = "export", .help = "only results of host H (a fleet's host label too)" },
    { .name = "since", .type = VDC_OPT_STR, .off = offsetof(struct store_cli, since), .metavar = "DATE",
      .scopes = "export", .help = "only results of DATE (YYYY-MM-DD[THH:MM[:SS]][Z], UTC) or later" },
    { .name = "metadata-object", .type = VDC_OPT_FLAG, .off = offsetof(struct store_cli, metadata_object),
      .scopes = "export", .help = "ndjson: a \"metadata\" object instead of collapsed \"labels\"" },
    { .name = "quiet", .type = VDC_OPT_FLAG, .off = offsetof(struct store_cli, quiet), .short_name = 'q',
      .help = "no progress lines" },
    { .name = "help", .type = VDC_OPT_HELP, .short_name = 'h', .help = "this text" },
};

/* The first bytes a file vmdiskcmp wrote starts with: an export or a
 * history page may be written over only when it holds one of them. */
static const char *const own_marks[] = {
    "{\"metric\": ", "# TYPE vmdiskcmp_", "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
    "<meta name=\"generator\" content=\"vmdiskcmp history\">",
};

int
vdc_cli_output_ok(const char *path)
{
    char head[256];
    struct stat st;
    ssize_t n;
    int fd;

    if (lstat(path, &st) < 0)
        return errno == ENOENT ? 0 : (vdc_input_error("%s: %s: expected a file to write", path,
                                                      g_strerror(errno)), -1);
    if (!S_ISREG(st.st_mode)) {
        vdc_input_error("%s: not a regular file: expected a new file, or one vmdiskcmp wrote", path);
        return -1;
    }
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    n = fd < 0 ? -1 : read(fd, head, sizeof(head) - 1);
    if (fd >= 0)
        close(fd);
    head[n > 0 ? n : 0] = '\0';
    for (size_t i = 0; i < G_N_ELEMENTS(own_marks); i++)
        if (g_str_has_prefix(head, own_marks[i]))
            return 0;
    if (st.st_size == 0)
        return 0;
    vdc_input_error("%s: exists and was not written by vmdiskcmp: refused (vmdiskcmp overwrites only its "
                    "own exports and pages)", path);
    return -1;
}

static int
store_add(struct store_cli *c, int argc, char **argv, int first)
{
    vdc_result_set *sets = g_new0(vdc_result_set, (size_t)(argc - first));
    struct vdc_store_item *items = g_new0(struct vdc_store_item, (size_t)(argc - first));
    char **shas = g_new0(char *, (size_t)(argc - first) + 1), **srcs = g_new0(char *, (size_t)(argc - first) + 1);
    vdc_store *s = NULL;
    size_t n = 0, added = 0;
    int rc = -1;

    if (argc - first < 1) {
        vdc_input_error("store add: expected result directories or files DIR... (see --help)");
        goto out;
    }
    for (int i = first; i < argc; i++, n++) {
        int is_merge = 0;

        vdc_result_set_init(&sets[n]);
        if (vdc_store_load_result(argv[i], &sets[n], &shas[n], &is_merge) < 0) {
            n++;
            goto out;
        }
        srcs[n] = g_canonicalize_filename(argv[i], NULL);
        items[n].rs = &sets[n];
        items[n].sha256 = shas[n];
        items[n].source = srcs[n];
        items[n].kind = is_merge ? VDC_STORE_KIND_MERGE : sets[n].has_experiment ? VDC_STORE_KIND_RUN
                                                                                 : VDC_STORE_KIND_IMPORT;
    }
    if (!(s = vdc_store_open(c->store, 1)) || vdc_store_add(s, items, n, NULL, &added) < 0)
        goto out;
    if (!c->quiet)
        printf("store %s: %zu result%s added, %zu already there\n", c->store, added, added == 1 ? "" : "s",
               n - added);
    rc = 0;
 out:
    vdc_store_close(s);
    for (size_t i = 0; i < n; i++)
        vdc_result_set_dispose(&sets[i]);
    g_strfreev(shas);
    g_strfreev(srcs);
    g_free(sets);
    g_free(items);
    return rc;
}

static int
store_list(struct store_cli *c)
{
    struct vdc_store_entry *e = NULL;
    vdc_store *s = vdc_store_open(c->store, 0);
    size_t n = 0;
    int rc = -1;

    if (!s || vdc_store_list(s, &e, &n) < 0)
        goto out;
    printf("store %s: schema version %d, %zu result%s\n", c->store, vdc_store_schema_version(s), n,
           n == 1 ? "" : "s");
    for (size_t i = 0; i < n; i++)
        printf("  %-24s %-6s %-12s %-40s %.12s %5lld samples %3lld headline rows%s  %s\n",
               e[i].date ? e[i].date : "-", e[i].kind, e[i].host ? e[i].host : "-", e[i].run_id ? e[i].run_id : "-",
               e[i].sha256, (long long)e[i].n_samples, (long long)e[i].n_headline,
               e[i].emulated == 1 ? " EMULATED" : "", e[i].source ? e[i].source : "");
    rc = 0;
 out:
    vdc_store_entries_free(e, n);
    vdc_store_close(s);
    return rc;
}

static int
store_export(struct store_cli *c)
{
    struct vdc_export_options o = {
        .format = c->format && !strcmp(c->format, "openmetrics") ? VDC_EXPORT_OPENMETRICS : VDC_EXPORT_NDJSON,
        .metadata_object = c->metadata_object, .host = c->host, .since = c->since,
    };
    GString *out = g_string_new(NULL);
    vdc_store *s = NULL;
    size_t skipped = 0;
    int rc = -1;

    if (!c->format) {
        vdc_input_error("store export: expected --format ndjson or --format openmetrics");
        goto out;
    }
    if (c->since && !vdc_history_date_ok(c->since)) {
        vdc_input_error("--since '%s': expected a date YYYY-MM-DD[THH:MM[:SS]][Z] (UTC)", c->since);
        goto out;
    }
    if (c->out && strcmp(c->out, "-") && vdc_cli_output_ok(c->out) < 0)
        goto out;
    if (!(s = vdc_store_open(c->store, 0)) || vdc_export(s, &o, out, &skipped) < 0)
        goto out;
    if (c->out && strcmp(c->out, "-")) {
        if (vdc_write_file_atomic(c->out, out->str, out->len) < 0)
            goto out;
    } else if (fwrite(out->str, 1, out->len, stdout) != out->len || fflush(stdout) != 0) {
        vdc_error("cannot write to standard output: %s", g_strerror(errno));
        goto out;
    }
    if (skipped && !c->quiet)
        fprintf(stderr, "vmdiskcmp: WARNING: store export: %zu value%s left out (no date, a unit with no "
                "OpenMetrics family, or a second value of one series at one time)\n", skipped,
                skipped == 1 ? "" : "s");
    rc = 0;
 out:
    vdc_store_close(s);
    g_string_free(out, TRUE);
    return rc;
}

int
vdc_cmd_store(int argc, char **argv)
{
    struct store_cli c = { 0 };
    const char *sub = argc > 1 ? argv[1] : NULL;
    vdc_opts_spec spec = {
        .command = "store", .prefix = "store: ", .table = store_table, .n = G_N_ELEMENTS(store_table),
        .operands = VDC_OPERANDS_ANYWHERE, .usage = store_usage,
    };
    vdc_opts_result r;
    int first = 0, rc = -1;

    if (sub && (!strcmp(sub, "--help") || !strcmp(sub, "-h"))) {
        vdc_opts_help(&spec, stdout);
        return 0;
    }
    if (!sub || (strcmp(sub, "add") && strcmp(sub, "list") && strcmp(sub, "export"))) {
        vdc_input_error("store: expected add, list or export (see vmdiskcmp store --help)%s%s",
                        sub ? ", found " : "", sub ? sub : "");
        return -1;
    }
    spec.scope = sub;
    r = vdc_opts_parse(&spec, &c, argc - 1, argv + 1, &first, NULL);
    if (r == VDC_OPTS_HELP) {
        vdc_opts_help(&spec, stdout);
        rc = 0;
        goto out;
    }
    if (r < 0)
        goto out;
    if (c.quiet)
        vdc_set_quiet(1);
    if (!c.store)
        c.store = g_strdup("results/" VDC_STORE_FILE);
    if (strcmp(sub, "add") && argc - 1 - first > 0) {
        vdc_input_error("store %s: takes no operand, found '%s' (see --help)", sub, argv[1 + first]);
        goto out;
    }
    if (!strcmp(sub, "add"))
        rc = store_add(&c, argc - 1, argv + 1, first);
    else if (!strcmp(sub, "list"))
        rc = store_list(&c);
    else
        rc = store_export(&c);
 out:
    vdc_opts_dispose(&spec, &c);
    return rc;
}
