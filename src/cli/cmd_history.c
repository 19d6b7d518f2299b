/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp history: the image-vs-LV ratio per host over time from the
 * result store (store/history.h; doc/store.md "History").  Options and
 * exit statuses: doc/vmdiskcmp.1. */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "cli/commands.h"
#include "common/opts.h"
#include "common/util.h"
#include "report/report_dir.h"
#include "store/history.h"
#include "store/store.h"

struct history_cli {
    char *store;
    char *host;
    char *test;
    char *since;
    char *html;
    struct vdc_history_fail fail;
    int quiet;
};

static const char history_usage[] =
    "usage: vmdiskcmp history [--store FILE] [--host H] [--test T] [--since DATE]\n"
    "                         [--html FILE] [--fail-if verdict|ratio>P%]...\n"
    "The image-vs-LV ratio of each host over time, from the result store: per\n"
    "host and pair (image variant against LV/block variant) the results in date\n"
    "order, each with what changed from the one before (kernel, Xen, QEMU,\n"
    "libvirt, disk, backend read back, settings), and per test each result's\n"
    "ratio with its paired 95 % interval and verdict as its report decided\n"
    "them, and how far that ratio of means moved at each step (its interval\n"
    "and p from the two results' repetitions; not tested where either result\n"
    "is not comparable).  --fail-if: exit 1 when the newest result of a\n"
    "series changed a verdict significantly (verdict), or moved its ratio\n"
    "significantly by more than P % (ratio>P%), naming each; for CI.\n\n";

static int
opt_fail_if(void *opts, const vdc_opt *d, const char *arg)
{
    (void)d;
    return vdc_history_fail_parse(arg, &((struct history_cli *)opts)->fail);
}

static const vdc_opt history_table[] = {
    { .name = "store", .type = VDC_OPT_STR, .off = offsetof(struct history_cli, store), .metavar = "FILE",
      .def = "results/" VDC_STORE_FILE, .help = "the store to read" },
    { .name = "host", .type = VDC_OPT_STR, .off = offsetof(struct history_cli, host), .metavar = "H",
      .help = "only host H (its recorded hostname, or a fleet's host label)" },
    { .name = "test", .type = VDC_OPT_STR, .off = offsetof(struct history_cli, test), .metavar = "T",
      .help = "only test T: a test key (put_block, sweep_read@4096) or a test id (sweep_read)" },
    { .name = "since", .type = VDC_OPT_STR, .off = offsetof(struct history_cli, since), .metavar = "DATE",
      .help = "only results of DATE (YYYY-MM-DD[THH:MM[:SS]][Z], UTC) or later" },
    { .name = "html", .type = VDC_OPT_STR, .off = offsetof(struct history_cli, html), .metavar = "FILE",
      .help = "also write the history as an HTML page with a chart per host and pair" },
    { .name = "fail-if", .type = VDC_OPT_CALL, .parse = opt_fail_if, .metavar = "verdict|ratio>P%",
      .repeatable = 1, .help = "exit 1 when the newest result changed a verdict significantly, or moved "
      "its ratio significantly by more than P %" },
    { .name = "quiet", .type = VDC_OPT_FLAG, .off = offsetof(struct history_cli, quiet), .short_name = 'q',
      .help = "print nothing but the --fail-if lines" },
    { .name = "help", .type = VDC_OPT_HELP, .short_name = 'h', .help = "this text" },
};

int
vdc_cmd_history(int argc, char **argv)
{
    vdc_opts_spec spec = {
        .command = "history", .prefix = "history: ", .table = history_table, .n = G_N_ELEMENTS(history_table),
        .operands = VDC_OPERANDS_NONE, .usage = history_usage,
    };
    struct history_cli c = { 0 };
    struct vdc_history h;
    struct vdc_history_query q = { 0 };
    vdc_store *s = NULL;
    char *text = NULL, *html = NULL, **fails = NULL;
    vdc_opts_result r;
    int first = 0, rc = -1;

    vdc_history_init(&h);
    r = vdc_opts_parse(&spec, &c, argc, argv, &first, NULL);
    if (r == VDC_OPTS_HELP) {
        vdc_opts_help(&spec, stdout);
        rc = 0;
        goto out;
    }
    if (r < 0)
        goto out;
    if (c.since && !vdc_history_date_ok(c.since)) {
        vdc_input_error("--since '%s': expected a date YYYY-MM-DD[THH:MM[:SS]][Z] (UTC)", c.since);
        goto out;
    }
    if (c.html && (vdc_check_path_text("--html", c.html, NULL, NULL) < 0 || vdc_cli_output_ok(c.html) < 0))
        goto out;
    if (vdc_report_limits_apply() < 0)  /* the backstop: report/report_dir.h */
        goto out;
    q.host = c.host;
    q.test = c.test;
    q.since = c.since;
    if (!(s = vdc_store_open(c.store ? c.store : "results/" VDC_STORE_FILE, 0)) ||
        vdc_history_load(&h, s, &q, VDC_STATS_ALPHA) < 0)
        goto out;
    text = vdc_history_render_text(&h);
    if (c.html) {
        if (!(html = vdc_history_render_html(&h)) || vdc_write_file_atomic(c.html, html, strlen(html)) < 0)
            goto out;
    }
    if (!c.quiet && (fputs(text, stdout) == EOF || fflush(stdout) != 0)) {
        vdc_error("cannot write to standard output: %s", g_strerror(errno));
        goto out;
    }
    rc = 0;
    fails = vdc_history_failures(&h, &c.fail);
    for (size_t i = 0; fails[i]; i++) {
        vdc_error("%s", fails[i]);
        rc = -1;
    }
 out:
    g_strfreev(fails);
    g_free(text);
    g_free(html);
    vdc_store_close(s);
    vdc_history_dispose(&h);
    vdc_opts_dispose(&spec, &c);
    return rc;
}
