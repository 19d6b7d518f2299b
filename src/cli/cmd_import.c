/* vmdiskcmp import FILE... [--target NAME] [--kind K] [--where W] [-o OUT.json] [--format F]
 *                  [--group-by G]
 *
 * Reads agent JSON, bonnie++ CSV (1.03, 1.96/1.97, 1.98), bonnie /
 * bonnie++ tables and dd transcripts (src/import/import.h,
 * doc/importers.md) and writes one
 * result document (doc/result-format.md) to stdout or, atomically, to OUT.
 * All files or nothing: on the first bad file, one "FILE:LINE: ..." message,
 * exit 2, nothing written.  Exit 1 when the output cannot be written. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <glib.h>

#include "cli/commands.h"
#include "common/util.h"
#include "import/import.h"
#include "model/result.h"

static void
import_usage(FILE *f)
{
    fprintf(f,
            "usage: vmdiskcmp import FILE... [--target NAME] [--kind KIND] [--where WHERE]\n"
            "                        [-o OUT.json] [--format FORMAT] [--group-by G]\n"
            "\n"
            "Import benchmark results into one vmdiskcmp result document.\n"
            "  FILE             agent/result JSON, bonnie++ CSV lines (1.03, 1.96/1.97,\n"
            "                   1.98), bonnie++ or bonnie 1.x tables, dd transcripts,\n"
            "                   whole pasted pages, fio 3.x JSON (--output-format=json\n"
            "                   or json+); '-' = stdin\n"
            "  -t, --target NAME  target of a file of one group (e.g. image, lvm, dom0),\n"
            "                   NAME/GROUP of several, and of runs naming no group;\n"
            "                   optional for JSON (keeps the runs' own targets)\n"
            "  -k, --kind KIND  the target's kind: image, lvm, block, dom0 or imported\n"
            "                   (default imported)\n"
            "  -w, --where W    where it was measured: domU, dom0 or host\n"
            "  -o, --output OUT write OUT atomically instead of standard output\n"
            "  -f, --format F   auto (default), json, text, csv (CSV lines only),\n"
            "                   table (tables only), dd (dd transcripts only), fio\n"
            "  -g, --group-by G machine (default: the label line above a table or dd\n"
            "                   run, else its machine name or device), label, or none\n"
            "                   (everything into --target, with a warning when it\n"
            "                   mixes machines); several groups: one target each,\n"
            "                   TARGET/GROUP with --target; fio: machine = each job's\n"
            "                   filename, label = one target per job\n"
            "  -q, --quiet      no progress messages\n"
            "\n"
            "Exit status: 0 ok, 1 output not written, 2 bad input (nothing written).\n");
}

/* OUT may be written only when it is new, or a result document (what an
 * earlier import or run wrote), and not one of the inputs: never over a
 * user's file.  0, or -1 after one vdc_error (bad input, exit 2). */
static int
check_output(const char *out, char **files, int n_files)
{
    struct stat so, si;
    g_autofree char *head = NULL;
    FILE *f;
    size_t n;
    int i;

    if (!strcmp(out, "-"))
        return 0;
    if (!*out) {
        vdc_error("import: --output: expected a file name (or - for standard output)");
        return -1;
    }
    if (stat(out, &so) < 0) {
        if (errno == ENOENT)
            return 0;
        vdc_error("import: --output %s: %s", out, g_strerror(errno));
        return -1;
    }
    if (S_ISDIR(so.st_mode)) {
        vdc_error("import: --output %s: is a directory: expected a file name", out);
        return -1;
    }
    for (i = 0; i < n_files; i++)
        if (strcmp(files[i], "-") && stat(files[i], &si) == 0 &&
            si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
            vdc_error("import: --output %s: is also the input %s: expected another file", out, files[i]);
            return -1;
        }
    if (!S_ISREG(so.st_mode)) {
        vdc_error("import: --output %s: exists and is not a regular file: refusing to overwrite it", out);
        return -1;
    }
    head = g_malloc0(4097);
    f = fopen(out, "r");
    n = f ? fread(head, 1, 4096, f) : 0;
    if (f)
        fclose(f);
    if (!strstr(head, "\"vmdiskcmp-result\"") || *g_strchug(head) != '{') {
        vdc_error("import: --output %s: exists and is not a vmdiskcmp result document: "
                  "refusing to overwrite it (move it away, or choose another name)", out);
        return -1;
    }
    (void)n;
    return 0;
}

int
vdc_cmd_import(int argc, char **argv)
{
    static const struct option opts[] = {
        { "target", required_argument, NULL, 't' },
        { "output", required_argument, NULL, 'o' },
        { "format", required_argument, NULL, 'f' },
        { "kind", required_argument, NULL, 'k' },
        { "where", required_argument, NULL, 'w' },
        { "group-by", required_argument, NULL, 'g' },
        { "quiet", no_argument, NULL, 'q' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    static const char *const kinds[] = { "image", "lvm", "block", "dom0", "imported", NULL };
    static const char *const wheres[] = { "domU", "dom0", "host", NULL };
    const char *target = NULL, *output = "-", *kind = NULL, *where = NULL;
    vdc_import_format fmt = VDC_IMPORT_AUTO;
    vdc_group_by group_by = VDC_GROUP_MACHINE;
    vdc_result_set rs;
    int c, i, n, total = 0, rc = VDC_EXIT_USAGE;

    optind = 1;
    opterr = 0;    /* one line of our own, not getopt's message and the usage */
    while ((c = getopt_long(argc, argv, ":t:o:f:k:w:g:qh", opts, NULL)) != -1) {
        switch (c) {
        case 't': target = optarg; break;
        case 'k':
            if (!g_strv_contains(kinds, optarg)) {
                vdc_error("import: --kind '%s': expected image, lvm, block, dom0 or imported", optarg);
                return VDC_EXIT_USAGE;
            }
            kind = optarg;
            break;
        case 'w':
            if (!g_strv_contains(wheres, optarg)) {
                vdc_error("import: --where '%s': expected domU, dom0 or host", optarg);
                return VDC_EXIT_USAGE;
            }
            where = optarg;
            break;
        case 'o': output = optarg; break;
        case 'f':
            if (vdc_import_format_parse(optarg, &fmt) < 0) {
                vdc_error("import: --format '%s': expected auto, json, text, csv, table, dd or fio", optarg);
                return VDC_EXIT_USAGE;
            }
            break;
        case 'g':
            if (vdc_import_group_by_parse(optarg, &group_by) < 0) {
                vdc_input_error("import: --group-by '%s': expected machine, label or none", optarg);
                return VDC_EXIT_USAGE;
            }
            break;
        case 'q': vdc_set_quiet(1); break;
        case 'h': import_usage(stdout); return VDC_EXIT_OK;
        case ':':
            vdc_error("import: %s: expected a value (see vmdiskcmp import --help)", argv[optind - 1]);
            return VDC_EXIT_USAGE;
        default:
            if (optopt)
                vdc_error("import: unknown option -%c: expected one of the options of "
                          "vmdiskcmp import --help", optopt);
            else
                vdc_error("import: unknown option %s: expected one of the options of "
                          "vmdiskcmp import --help", argv[optind - 1]);
            return VDC_EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        vdc_error("import: expected at least one FILE (see vmdiskcmp import --help)");
        return VDC_EXIT_USAGE;
    }
    if (target && !*target) {
        vdc_error("import: --target: expected a non-empty name");
        return VDC_EXIT_USAGE;
    }
    if (target && !vdc_target_name_ok(target)) {
        vdc_error("import: --target: expected printable text of at most %d bytes (no control characters)",
                  VDC_TARGET_NAME_MAX);
        return VDC_EXIT_USAGE;
    }
    for (i = optind; i < argc; i++)
        if (!strcmp(argv[i], "-") && g_strv_contains((const char *const *)argv + i + 1, "-")) {
            vdc_error("import: '-' (standard input) given twice: expected it once");
            return VDC_EXIT_USAGE;
        }
    if ((kind || where) && !target) {
        vdc_error("import: --kind and --where describe the --target: expected --target NAME");
        return VDC_EXIT_USAGE;
    }
    vdc_result_set_init(&rs);
    for (i = optind; i < argc; i++) {
        n = vdc_import_file_grouped(&rs, argv[i], target, fmt, group_by);
        if (n < 0)
            goto out;
        vdc_progress("%s: %d run%s imported", argv[i], n, n == 1 ? "" : "s");
        total += n;
    }
    if (target && (kind || where)) {
        size_t k, tl = strlen(target);

        /* TARGET, and TARGET/GROUP of a file with several groups */
        for (k = 0; k < rs.n_targets; k++) {
            vdc_target *t = rs.targets[k];

            if (strcmp(t->name, target) && !(!strncmp(t->name, target, tl) && t->name[tl] == '/'))
                continue;
            if (kind)
                vdc_set_str(&t->kind, kind);
            if (where)
                vdc_set_str(&t->where, where);
        }
    }
    if (check_output(output, argv + optind, argc - optind) < 0)
        goto out;    /* rc is still VDC_EXIT_USAGE */
    {
        /* SIGINT/SIGTERM/SIGHUP wait until OUT is renamed into place (as in
         * report): an interrupt never leaves OUT.XXXXXX behind */
        sigset_t block, old;
        int r;

        sigemptyset(&block);
        sigaddset(&block, SIGINT);
        sigaddset(&block, SIGTERM);
        sigaddset(&block, SIGHUP);
        sigprocmask(SIG_BLOCK, &block, &old);
        r = vdc_result_set_save(&rs, output);
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (r < 0) {
            rc = VDC_EXIT_FAILURE;
            goto out;
        }
    }
    if (strcmp(output, "-"))
        vdc_progress("%d run%s written to %s", total, total == 1 ? "" : "s", output);
    rc = VDC_EXIT_OK;
 out:
    vdc_result_set_dispose(&rs);
    return rc;
}
