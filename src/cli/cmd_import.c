/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp import FILE... [--target NAME] [--kind K] [--where W] [-o OUT.json] [--format F]
 *                  [--group-by G]
 *
 * Reads agent JSON, bonnie++ CSV (1.03, 1.96/1.97, 1.98), bonnie /
 * bonnie++ tables and dd transcripts (src/import/import.h,
 * doc/importers.md) and writes one
 * result document (doc/result-format.md) to stdout or, atomically, to OUT.
 * All files or nothing: on the first bad file, one "FILE:LINE: ..." message,
 * exit 2, nothing written; a bad OUT (a user's file, a directory, a missing
 * directory) is refused before any file is read.  Exit 1 when the output
 * cannot be written. */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <glib.h>

#include "cli/commands.h"
#include "common/opts.h"
#include "common/util.h"
#include "import/import.h"
#include "model/result.h"
#include "store/store.h"

/* The options of `vmdiskcmp import` (common/opts.h). */
struct import_cli {
    char *target, *output, *format, *kind, *where, *group_by;
    char *store;                    /* --store FILE: NULL, OUT's directory's store */
    char **kind_map;                /* --kind-map TEXT=KIND, repeatable */
    uint64_t ram, dom0_ram;         /* --ram, --dom0-ram: bytes, 0 not given */
    int quiet, no_store;
};

#define MIB 1048576u

#define I(m) offsetof(struct import_cli, m)
static const vdc_opt import_table[] = {
    { .name = "target", .type = VDC_OPT_STR, .off = I(target), .metavar = "NAME", .short_name = 't',
      .empty_ok = 1, .help = "target of a file of one group (e.g. image, lvm, dom0), NAME/GROUP of several, and of runs naming no group; optional for JSON (keeps the runs' own targets)" },
    { .name = "kind", .type = VDC_OPT_ENUM, .off = I(kind), .metavar = "KIND", .short_name = 'k',
      .choices = "image|lvm|block|dom0|imported", .expect = "image, lvm, block, dom0 or imported",
      .def = "what its name says (disk image, LVM, Dom0...), else imported", .help = "the target's kind: image, lvm, block, dom0 or imported" },
    { .name = "where", .type = VDC_OPT_ENUM, .off = I(where), .metavar = "W", .short_name = 'w',
      .choices = "domU|dom0|host", .expect = "domU, dom0 or host",
      .help = "where it was measured: domU, dom0 or host" },
    { .name = "output", .type = VDC_OPT_STR, .off = I(output), .metavar = "OUT", .short_name = 'o',
      .empty_ok = 1, .def = "standard output", .help = "write OUT atomically instead of standard output" },
    { .name = "format", .type = VDC_OPT_ENUM, .off = I(format), .metavar = "F", .short_name = 'f',
      .choices = "auto|json|text|csv|table|dd|fio", .expect = "auto, json, text, csv, table, dd or fio",
      .def = "auto", .help = "auto, json, text, csv (CSV lines only), table (tables only), dd (dd transcripts only), fio" },
    { .name = "group-by", .type = VDC_OPT_ENUM, .off = I(group_by), .metavar = "G", .short_name = 'g',
      .choices = "machine|label|none", .expect = "machine, label or none",
      .def = "machine: the label line above a table or dd run, else its machine name or device",
      .help = "machine, label, or none (everything into --target, with a warning when it mixes machines); several groups: one target each, TARGET/GROUP with --target; fio: machine = each job's filename, label = one target per job" },
    { .name = "kind-map", .type = VDC_OPT_STRV, .off = I(kind_map), .metavar = "TEXT=KIND",
      .help = "a target whose name holds TEXT (any case) is of KIND (image, lvm, block, dom0, imported); repeatable, tried before the words of the name (disk image, LVM, partition, RAID, Dom0...)" },
    { .name = "ram", .type = VDC_OPT_SIZE, .off = I(ram), .metavar = "SIZE", .align = MIB,
      .def = "what the page states", .help = "RAM of the machine the runs ran in (a domU's, or the host's own; bare number: MiB): the under-2x-RAM rule then runs" },
    { .name = "dom0-ram", .type = VDC_OPT_SIZE, .off = I(dom0_ram), .metavar = "SIZE", .align = MIB,
      .def = "what the page states", .help = "dom0's RAM (a dom0 target's, and what can cache a domU image's blocks; bare number: MiB)" },
    { .name = "store", .type = VDC_OPT_STR, .off = I(store), .metavar = "FILE",
      .def = "OUT's directory's " VDC_STORE_FILE, .help = "the result store to record OUT in (needs -o OUT)" },
    { .name = "no-store", .type = VDC_OPT_FLAG, .off = I(no_store), .help = "record nothing in a result store" },
    { .name = "quiet", .type = VDC_OPT_FLAG, .off = I(quiet), .short_name = 'q',
      .help = "no progress messages" },
    { .name = "help", .type = VDC_OPT_HELP, .short_name = 'h', .help = "this text" },
};

static const vdc_opts_spec import_spec = {
    .command = "import",
    .prefix = "import: ",
    .table = import_table,
    .n = G_N_ELEMENTS(import_table),
    .operands = VDC_OPERANDS_ANYWHERE,
    .usage =
        "usage: vmdiskcmp import FILE... [--target NAME] [--kind KIND] [--where WHERE]\n"
        "                        [-o OUT.json] [--format FORMAT] [--group-by G]\n"
        "                        [--kind-map TEXT=KIND]... [--ram SIZE] [--dom0-ram SIZE]\n"
        "                        [--store FILE | --no-store]\n"
        "\n"
        "Import benchmark results into one vmdiskcmp result document.\n"
        "  FILE  agent/result JSON, bonnie++ CSV lines (1.03, 1.96/1.97, 1.98),\n"
        "        bonnie++ or bonnie 1.x tables, dd transcripts, whole pasted pages,\n"
        "        fio 3.x JSON (--output-format=json or json+); '-' = stdin\n"
        "With -o OUT, OUT is then recorded in the result store (doc/store.md):\n"
        "OUT's directory's " VDC_STORE_FILE " unless --store or --no-store; a\n"
        "store that cannot be written is a warning, OUT stands.\n"
        "\n",
    .epilogue = "\nExit status: 0 ok, 1 output not written, 2 bad input (nothing written).\n",
};

/* OUT may be written only when it is new (in a directory that exists), or
 * an earlier import's output (vdc_import_output_refusal: never measured
 * data such as a run's result.json, the agent's answer or a report.json,
 * never a user's file), and not one of the inputs.  Checked before any
 * input is read.  0, or -1 after one vdc_input_error (exit 2). */
static int
check_output(const char *out, char **files, int n_files)
{
    struct stat so;
    g_autofree char *data = NULL, *what = NULL;
    gsize len = 0;
    int i;

    if (!strcmp(out, "-"))
        return 0;
    if (!*out) {
        vdc_input_error("import: --output: expected a file name (or - for standard output)");
        return -1;
    }
    if (stat(out, &so) < 0) {
        g_autofree char *dir = g_path_get_dirname(out);

        if (errno == ENOENT && !g_file_test(dir, G_FILE_TEST_IS_DIR)) {
            vdc_input_error("import: --output %s: no directory %s: expected a file name in an existing "
                            "directory", out, dir);
            return -1;
        }
        if (errno == ENOENT)
            return 0;
        vdc_input_error("import: --output %s: %s", out, g_strerror(errno));
        return -1;
    }
    if (S_ISDIR(so.st_mode)) {
        vdc_input_error("import: --output %s: is a directory: expected a file name", out);
        return -1;
    }
    for (i = 0; i < n_files; i++)
        if (vdc_same_file(files[i], out)) {
            vdc_input_error("import: --output %s: is also the input %s: expected another file", out, files[i]);
            return -1;
        }
    if (!S_ISREG(so.st_mode)) {
        vdc_input_error("import: --output %s: exists and is not a regular file: refusing to overwrite it", out);
        return -1;
    }
    /* larger than any result vmdiskcmp reads back: not one it can tell */
    if (so.st_size > (off_t)VDC_INPUT_MAX || !g_file_get_contents(out, &data, &len, NULL))
        what = g_strdup("not a vmdiskcmp result document");
    else
        what = vdc_import_output_refusal(data, len);
    if (!what)
        return 0;
    vdc_input_error("import: --output %s: exists and is %s: refusing to overwrite it (import replaces "
                    "only its own earlier output; move it away, or choose another name)", out, what);
    return -1;
}

/* --store and --no-store (as run's and merge's): one of them, a named
 * store one this build can write, and a file to record (not standard
 * output).  Checked before the inputs are read.  0, or -1 after one
 * vdc_input_error (exit 2). */
static int
check_store(const struct import_cli *c, const char *out)
{
    if (!c->store)
        return 0;
    if (c->no_store) {
        vdc_input_error("import: --store and --no-store: expected one of them");
        return -1;
    }
    if (!strcmp(out, "-")) {
        vdc_input_error("import: --store %s: expected -o OUT too (the store records a result file, "
                        "not standard output)", c->store);
        return -1;
    }
    return vdc_store_check_path(c->store);
}

/* --kind-map's entries into @map: each TEXT=KIND (one '='), each TEXT
 * once (any case).  0, or -1 after one vdc_input_error (exit 2). */
static int
parse_kind_map(char **args, GArray *map)
{
    guint i, k;

    for (i = 0; args && args[i]; i++) {
        vdc_kind_map_entry e;

        if (vdc_import_kind_map_parse(args[i], &e) < 0) {
            const char *eq = strchr(args[i], '=');

            vdc_input_error("import: --kind-map '%.60s': expected TEXT=KIND%s, KIND one of image, lvm, "
                            "block, dom0, imported", args[i],
                            eq && strchr(eq + 1, '=') ? " with one '=' (TEXT holds none)" : "");
            return -1;
        }
        g_array_append_val(map, e);
        for (k = 0; k + 1 < map->len; k++) {
            const vdc_kind_map_entry *a = &g_array_index(map, vdc_kind_map_entry, k);

            if (!g_ascii_strcasecmp(a->text, e.text)) {
                vdc_input_error("import: --kind-map '%s=%s' and '%s=%s': the TEXT '%s' twice: expected "
                                "each TEXT once (any case), with one KIND", a->text, a->kind, e.text,
                                e.kind, e.text);
                return -1;
            }
        }
    }
    return 0;
}

/* A warning for each --kind-map entry that decided no target's kind (its
 * TEXT in no target's name, or only in names whose kind an earlier entry
 * or the file itself gave). */
static void
warn_unused_kind_map(const GArray *map, const unsigned *used, const vdc_result_set *rs)
{
    guint i;
    size_t k;

    for (i = 0; i < map->len; i++) {
        const vdc_kind_map_entry *e = &g_array_index(map, vdc_kind_map_entry, i);
        g_autoptr(GString) names = g_string_new(NULL);
        int held = 0;

        if (used[i])
            continue;
        for (k = 0; k < rs->n_targets; k++) {
            held |= vdc_import_kind_map_matches(e, rs->targets[k]->name);
            g_string_append_printf(names, "%s'%s'", k ? ", " : "", rs->targets[k]->name);
        }
        if (held)
            vdc_error_kind(VDC_ERR_NONE, "warning: --kind-map '%s=%s': decided no target's kind (the "
                           "targets whose name holds '%s' took their kind from an earlier --kind-map "
                           "or from the file)", e->text, e->kind, e->text);
        else
            vdc_error_kind(VDC_ERR_NONE, "warning: --kind-map '%s=%s': no target's name holds '%s' "
                           "(the targets: %s)", e->text, e->kind, e->text,
                           names->len ? names->str : "none");
    }
}

int
vdc_cmd_import(int argc, char **argv)
{
    struct import_cli c = { 0 };
    const char *target, *output, *kind, *where;
    vdc_import_format fmt = VDC_IMPORT_AUTO;
    vdc_import_options io;
    GArray *map = g_array_new(FALSE, TRUE, sizeof(vdc_kind_map_entry));
    vdc_result_set rs;
    vdc_opts_result pr;
    g_autofree unsigned *kind_map_used = NULL;
    g_autofree char *why = NULL;
    int i, n, first = 0, total = 0, rc = -1;
    guint k;

    vdc_result_set_init(&rs);
    vdc_import_options_init(&io);
    pr = vdc_opts_parse(&import_spec, &c, argc, argv, &first, NULL);
    if (pr == VDC_OPTS_HELP) {
        vdc_opts_help(&import_spec, stdout);
        rc = 0;
        goto out;
    }
    if (pr < 0)
        goto out;
    target = c.target;
    output = c.output ? c.output : "-";
    if (check_store(&c, output) < 0)    /* a named store refused before anything is read */
        goto out;
    kind = c.kind;
    where = c.where;
    /* one of the table's choices */
    if (c.format)
        (void)vdc_import_format_parse(c.format, &fmt);
    if (c.group_by)
        (void)vdc_import_group_by_parse(c.group_by, &io.group_by);
    if (parse_kind_map(c.kind_map, map) < 0)
        goto out;
    io.kind_map = (const vdc_kind_map_entry *)(void *)map->data;
    io.n_kind_map = map->len;
    kind_map_used = g_new0(unsigned, map->len + 1);
    io.kind_map_used = kind_map_used;
    if (c.ram)
        io.ram_mib = (int64_t)(c.ram / MIB);
    if (c.dom0_ram)
        io.dom0_ram_mib = (int64_t)(c.dom0_ram / MIB);
    if (c.quiet)
        vdc_set_quiet(1);
    if (first >= argc) {
        vdc_input_error("import: expected at least one FILE (see vmdiskcmp import --help)");
        goto out;
    }
    if ((why = vdc_merge_inputs_refusal((size_t)(argc - first)))) {
        vdc_input_error("import: %s", why);
        goto out;
    }
    if (target && !*target) {
        vdc_input_error("import: --target: expected a non-empty name");
        goto out;
    }
    if (target && !vdc_target_name_ok(target)) {
        vdc_input_error("import: --target: expected printable text of at most %d bytes (no control characters)",
                        VDC_TARGET_NAME_MAX);
        goto out;
    }
    for (i = first; i < argc; i++) {
        int j;

        if (!strcmp(argv[i], "-") && g_strv_contains((const char *const *)argv + i + 1, "-")) {
            vdc_input_error("import: '-' (standard input) given twice: expected it once");
            goto out;
        }
        /* the same runs twice would pass for more repetitions than were made */
        for (j = i + 1; j < argc; j++)
            if (vdc_same_file(argv[i], argv[j])) {
                vdc_input_error("import: %s and %s are the same file: expected each input once",
                                argv[i], argv[j]);
                goto out;
            }
    }
    if ((kind || where) && !target) {
        vdc_input_error("import: --kind and --where describe the --target: expected --target NAME");
        goto out;
    }
    /* a foreign OUT is refused before any file is read */
    if (check_output(output, argv + first, argc - first) < 0)
        goto out;
    for (i = first; i < argc; i++) {
        n = vdc_import_file_with(&rs, argv[i], target, fmt, &io);
        if (n < 0)
            goto out;
        vdc_progress("%s: %d run%s imported", argv[i], n, n == 1 ? "" : "s");
        total += n;
    }
    vdc_import_settle_where(&rs, &io);
    warn_unused_kind_map(map, kind_map_used, &rs);
    if (target && (kind || where)) {
        size_t k, tl = strlen(target);

        /* TARGET, and TARGET/GROUP of a file with several groups */
        for (k = 0; k < rs.n_targets; k++) {
            vdc_target *t = rs.targets[k];

            if (strcmp(t->name, target) && !(!strncmp(t->name, target, tl) && t->name[tl] == '/'))
                continue;
            if (kind) {
                vdc_set_str(&t->kind, kind);
                g_clear_pointer(&t->provenance.kind, g_free);    /* the user's word */
            }
            if (where)
                vdc_set_str(&t->where, where);
        }
    }
    {
        /* SIGINT/SIGTERM/SIGHUP wait until OUT is renamed into place (as in
         * report): an interrupt never leaves OUT.XXXXXX behind */
        sigset_t old;
        int r;

        vdc_hold_stop_signals(&old);
        r = vdc_result_set_save(&rs, output);
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (r < 0)
            goto out;                   /* a runtime failure: exit 1 */
    }
    if (strcmp(output, "-")) {
        vdc_progress("%d run%s written to %s", total, total == 1 ? "" : "s", output);
        /* OUT is complete: recorded in the store, or a warning */
        if (!c.no_store) {
            g_autofree char *store = c.store ? g_strdup(c.store) : vdc_store_default_path(output);

            vdc_store_record(store, output, VDC_STORE_KIND_IMPORT);
        }
    }
    rc = 0;
 out:
    for (k = 0; k < map->len; k++) {
        g_free(g_array_index(map, vdc_kind_map_entry, k).text);
        g_free(g_array_index(map, vdc_kind_map_entry, k).kind);
    }
    g_array_free(map, TRUE);
    vdc_result_set_dispose(&rs);
    vdc_opts_dispose(&import_spec, &c);
    return rc;
}
