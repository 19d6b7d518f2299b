/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp report DIR and vmdiskcmp compare A B [C...]: load result
 * sets, analyse them (report/analysis.h), render (report/render.h).
 * Options and exit statuses: doc/vmdiskcmp.1; formats: doc/report.md. */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "cli/commands.h"
#include "common/opts.h"
#include "common/util.h"
#include "model/result.h"
#include "report/analysis.h"
#include "report/formats.h"
#include "report/render_warnings.h"
#include "report/report_dir.h"

/* The most --rate-ceiling options of one command. */
#define MAX_CEILINGS 64

struct cli {
    const char *baseline;
    struct vdc_stats_options stats;
    vdc_artefact_ceiling ceilings[MAX_CEILINGS];   /* --rate-ceiling NAME=MIB_S; names in argv */
    vdc_artefact_options artefacts;                /* .ceilings: the array above */
    unsigned formats;        /* report */
    const char *format;      /* compare */
    double fail_slower;      /* compare --fail-if slower>P%: P; 0: not given */
    char *out;               /* report --out DIR: render there; NULL: into the result directory */
    int quiet;               /* --quiet: no progress, no warnings on stderr */
    int help;                /* --help: print the usage, nothing else */
};

static const char report_usage[] =
    "usage: vmdiskcmp report DIR [--out OUT] [--formats txt,csv,json,md,html] [--baseline NAME]\n"
    "                        [--outliers keep|flag|drop] [--outlier-threshold Z]\n"
    "                        [--bootstrap-resamples N] [--bootstrap-seed S]\n"
    "                        [--rate-ceiling NAME=MIB_S]... [--quiet]\n"
    "Render DIR/result.json into DIR (or into OUT, created if missing, DIR untouched): report.txt (bonnie++ layout), report.csv\n"
    "(bonnie++ 1.98 CSV, one line per run), summary.csv, headline.csv, report.json\n"
    "(result + statistics), report.md, report.html (SVG charts, dot plots); each\n"
    "opens with the image/LV headline (paired, Holm).  Default: all formats;\n"
    "baseline: dom0 if present, else the first LV/block target beside an image, else the first; outliers: flag, Z 3.5;\n"
    "bootstrap: 10000 resamples, seed 20261130.  --rate-ceiling: no rate of the\n"
    "device, link or target NAME can be above MIB_S MiB/s (flag above-ceiling).\n"
    "Warnings go to stderr too (\"vmdiskcmp: WARNING: ...\"; not with --quiet).\n\n";

static const char compare_usage[] =
    "usage: vmdiskcmp compare A [B C...] [--baseline NAME] [--format text|csv|json|md]\n"
    "                         [--outliers keep|flag|drop] [--outlier-threshold Z]\n"
    "                         [--bootstrap-resamples N] [--bootstrap-seed S]\n"
    "                         [--rate-ceiling NAME=MIB_S]... [--fail-if slower>P%]\n"
    "A, B...: result directories (holding result.json) or result JSON files\n"
    "(vmdiskcmp run, the agent, vmdiskcmp import).  Prints one row per test:\n"
    "each target's mean (n), and each target's % delta against the baseline\n"
    "with ** p<0.01, * p<0.05, ~ no significant difference (Welch t-test).\n"
    "A target name used by two inputs is renamed NAME@INPUT.  The warnings of\n"
    "`report` (few runs, too-fast cells, test file sizes, artefacts) go after\n"
    "the table (csv: the flags column) and to stderr, unless stderr is where\n"
    "the table went (a terminal, 2>&1: once); --quiet silences stderr.\n"
    "--fail-if slower>P%: exit 1 (after printing) when a target is significantly\n"
    "slower than the baseline (Welch, p < 0.05) by more than P %, naming each.\n\n";

static int
parse_unsigned(const char *opt, const char *s, unsigned long max, unsigned long *out)
{
    char *end = NULL;
    unsigned long long v;

    errno = 0;
    v = strtoull(s, &end, 10);
    if (!*s || *s == '-' || *end || errno || v > max) {
        vdc_input_error("%s %s: expected an integer from 0 to %lu", opt, s, max);
        return -1;
    }
    *out = (unsigned long)v;
    return 0;
}

/* --rate-ceiling NAME=MIB_S into c->ceilings (NAME borrowed from @arg).  -1
 * after the message (bad input). */
static int
parse_ceiling(struct cli *c, char *arg)
{
    char *eq = strrchr(arg, '='), *end = NULL;
    double v = eq ? g_ascii_strtod(eq + 1, &end) : 0;

    if (!eq || eq == arg || !eq[1] || *end || !(v > 0) || v > 1e9) {
        vdc_input_error("--rate-ceiling %s: expected NAME=MIB_S: a device, link or target name and the "
                        "highest plausible rate in MiB/s (e.g. /dev/sdb=550; 1 Gbit/s is 119.2)", arg);
        return -1;
    }
    if (c->artefacts.n_ceilings == MAX_CEILINGS) {
        vdc_input_error("--rate-ceiling %s: expected at most %d --rate-ceiling options", arg,
                        MAX_CEILINGS);
        return -1;
    }
    *eq = '\0';
    c->ceilings[c->artefacts.n_ceilings].name = arg;
    c->ceilings[c->artefacts.n_ceilings].mib_s = v;
    c->artefacts.n_ceilings++;
    return 0;
}

/* ---- the options table (common/opts.h): each value its own grammar ---------- */

static int
opt_baseline(void *opts, const vdc_opt *d, const char *arg)
{
    ((struct cli *)opts)->baseline = arg;   /* in argv: nothing to free */
    return 0;
}

static int
opt_outliers(void *opts, const vdc_opt *d, const char *arg)
{
    if (vdc_outlier_policy_parse(arg, &((struct cli *)opts)->stats.policy) < 0) {
        vdc_input_error("--outliers %s: expected keep, flag or drop", arg);
        return -1;
    }
    return 0;
}

static int
opt_threshold(void *opts, const vdc_opt *d, const char *arg)
{
    char *end = NULL;
    double z = g_ascii_strtod(arg, &end);

    if (!*arg || *end || !(z > 0) || z > 1e6) {
        vdc_input_error("--outlier-threshold %s: expected a positive number (default 3.5)", arg);
        return -1;
    }
    ((struct cli *)opts)->stats.outlier_threshold = z;
    return 0;
}

/* --bootstrap-resamples, --bootstrap-seed: 0 to .max */
static int
opt_bootstrap(void *opts, const vdc_opt *d, const char *arg)
{
    struct cli *c = opts;
    g_autofree char *name = g_strdup_printf("--%s", d->name);
    unsigned long ul;

    if (parse_unsigned(name, arg, (unsigned long)d->max, &ul) < 0)
        return -1;
    if (!strcmp(d->name, "bootstrap-seed"))
        c->stats.bootstrap_seed = ul;
    else
        c->stats.bootstrap_resamples = (unsigned)ul;
    return 0;
}

/* the value is optarg, in argv: the name is cut out of it in place */
static int
opt_rate_ceiling(void *opts, const vdc_opt *d, const char *arg)
{
    return parse_ceiling(opts, (char *)arg);
}

static int
opt_formats(void *opts, const vdc_opt *d, const char *arg)
{
    return vdc_formats_parse(arg, &((struct cli *)opts)->formats);
}

static int
opt_format(void *opts, const vdc_opt *d, const char *arg)
{
    if (!vdc_compare_format(arg))
        return -1;
    ((struct cli *)opts)->format = arg;
    return 0;
}

/* --fail-if slower>P% (the % may be left out), P from 0 to 1000 */
static int
opt_fail_if(void *opts, const vdc_opt *d, const char *arg)
{
    const char *p = g_str_has_prefix(arg, "slower>") ? arg + 7 : NULL;
    char *end = NULL;
    double v = p ? g_ascii_strtod(p, &end) : NAN;

    (void)d;
    if (!p || !*p || strspn(p, "0123456789.") == 0 || (*end && strcmp(end, "%")) || !(v > 0 && v <= 1000)) {
        vdc_input_error("--fail-if '%s': expected slower>P%% with P a percentage above 0, e.g. slower>5%%", arg);
        return -1;
    }
    ((struct cli *)opts)->fail_slower = v;
    return 0;
}

/* One table for report and compare; --formats is report's, --format compare's. */
static const vdc_opt report_table[] = {
    { .name = "formats", .type = VDC_OPT_CALL, .parse = opt_formats, .metavar = "txt,csv,json,md,html",
      .scopes = "report", .def = "all", .help = "the formats to write, a comma list (all: every one)" },
    { .name = "format", .type = VDC_OPT_CALL, .parse = opt_format, .metavar = "text|csv|json|md",
      .scopes = "compare", .def = "text", .help = "what to print" },
    { .name = "out", .type = VDC_OPT_STR, .off = offsetof(struct cli, out), .metavar = "OUT",
      .scopes = "report", .help = "render into OUT (created if missing) instead of the result directory, which stays untouched" },
    { .name = "fail-if", .type = VDC_OPT_CALL, .parse = opt_fail_if, .metavar = "slower>P%",
      .scopes = "compare", .help = "exit 1 when a target is significantly slower than the baseline by more than P %" },
    { .name = "baseline", .type = VDC_OPT_CALL, .parse = opt_baseline, .metavar = "NAME",
      .def = "dom0 if present, else the first LV/block target beside an image, else the first target", .help = "the target the others are compared with" },
    { .name = "outliers", .type = VDC_OPT_CALL, .parse = opt_outliers, .metavar = "keep|flag|drop",
      .def = "flag", .help = "what to do with outliers (modified z-score)" },
    { .name = "outlier-threshold", .type = VDC_OPT_CALL, .parse = opt_threshold, .metavar = "Z",
      .def = "3.5", .help = "modified z-score above which a sample is an outlier" },
    { .name = "bootstrap-resamples", .type = VDC_OPT_CALL, .parse = opt_bootstrap, .metavar = "N",
      .max = 10000000, .def = "10000", .help = "resamples of the median's confidence interval" },
    { .name = "bootstrap-seed", .type = VDC_OPT_CALL, .parse = opt_bootstrap, .metavar = "S",
      .max = 0xffffffffUL, .def = "20261130", .help = "seed of the bootstrap" },
    { .name = "rate-ceiling", .type = VDC_OPT_CALL, .parse = opt_rate_ceiling, .metavar = "NAME=MIB_S", .repeatable = 1,
      .help = "no rate of the device, link or target NAME can be above MIB_S MiB/s (flag above-ceiling; repeatable)" },
    { .name = "quiet", .type = VDC_OPT_FLAG, .off = offsetof(struct cli, quiet), .short_name = 'q',
      .help = "no progress lines, no warnings on stderr" },
    { .name = "help", .type = VDC_OPT_HELP, .short_name = 'h', .help = "this text" },
};

static vdc_opts_spec
report_spec(int is_report)
{
    vdc_opts_spec spec = {
        .command = is_report ? "report" : "compare",
        .prefix = is_report ? "report: " : "compare: ",
        .table = report_table,
        .n = G_N_ELEMENTS(report_table),
        .operands = VDC_OPERANDS_ANYWHERE,
        .scope = is_report ? "report" : "compare",
        .usage = is_report ? report_usage : compare_usage,
    };
    return spec;
}

/* Parse the options shared by report and compare.  Returns the index of
 * the first operand, or -1 after one vdc_input_error (exit 2).  --help sets
 * c->help and prints the usage. */
static int
parse_cli(int argc, char **argv, struct cli *c, int is_report)
{
    vdc_opts_spec spec = report_spec(is_report);
    vdc_opts_result r;
    int first = 0;

    memset(c, 0, sizeof(*c));
    vdc_stats_options_init(&c->stats);
    vdc_artefact_options_init(&c->artefacts);
    c->artefacts.ceilings = c->ceilings;
    c->formats = VDC_REPORT_ALL;
    c->format = "text";
    r = vdc_opts_parse(&spec, c, argc, argv, &first, NULL);
    if (r == VDC_OPTS_HELP) {
        c->help = 1;
        vdc_opts_help(&spec, stdout);
        return first;
    }
    if (r < 0)
        return -1;
    if (c->quiet)
        vdc_set_quiet(1);
    return first;
}

/* 1 when file descriptors @a and @b are open on the same file (one
 * terminal, one pipe, one file). */
static int
same_file(int a, int b)
{
    struct stat sa, sb;

    return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* Load a result set from a directory (its result.json) or a file.
 * Errors name the path; all are bad input (exit 2). */
static int
load_input(vdc_result_set *rs, const char *arg)
{
    struct stat st;
    char *path;
    vdc_err_kind scope;
    int rc;

    if (stat(arg, &st) < 0) {
        vdc_input_error("%s: %s: expected a result directory or a result JSON file", arg, g_strerror(errno));
        return -1;
    }
    path = S_ISDIR(st.st_mode) ? g_build_filename(arg, "result.json", NULL) : g_strdup(arg);
    if (S_ISDIR(st.st_mode) && !g_file_test(path, G_FILE_TEST_EXISTS)) {
        vdc_input_error("%s: no result.json in this directory: expected a result directory", arg);
        g_free(path);
        return -1;
    }
    scope = vdc_error_scope(VDC_ERR_INPUT);    /* the loader's errors: bad input */
    rc = vdc_result_set_load_file(rs, path);
    vdc_error_scope(scope);
    g_free(path);
    return rc;
}

int
vdc_cmd_report(int argc, char **argv)
{
    struct cli c;
    vdc_result_set rs;
    struct vdc_report_options ro;
    const char *dir;
    int first, rc = -1;

    vdc_result_set_init(&rs);
    first = parse_cli(argc, argv, &c, 1);
    if (c.help) {             /* parse_cli printed the usage */
        rc = 0;
        goto out;    /* dispose what _init allocated (ASan: a leak on --help) */
    }
    if (first < 0)
        goto out;
    if (argc - first != 1) {
        vdc_input_error("report: expected one result directory, got %d operands (see --help)", argc - first);
        goto out;
    }
    if (vdc_report_limits_apply() < 0)  /* the backstop: report_dir.h */
        goto out;
    dir = argv[first];
    if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
        if (g_file_test(dir, G_FILE_TEST_IS_REGULAR))
            vdc_input_error("%s: a file, not a directory: expected a result directory holding result.json "
                            "(for a result file: mkdir D && cp FILE D/result.json && vmdiskcmp report D)", dir);
        else
            vdc_input_error("%s: not a directory: expected a result directory holding result.json", dir);
        goto out;
    }
    if (load_input(&rs, dir) < 0)
        goto out;
    /* analyse, render, write (src/report/report_dir.c): a refusal, an
     * unknown baseline are bad input (2), a failed write is runtime (1) */
    vdc_report_options_init(&ro);
    ro.formats = c.formats;
    ro.baseline = c.baseline;
    ro.stats = c.stats;
    ro.artefacts = c.artefacts;
    ro.quiet = c.quiet;
    if (c.out) {
        /* the report names the files it writes */
        if (vdc_check_path_text("--out", c.out, NULL, NULL) < 0)
            goto out;
        if (mkdir(c.out, 0755) < 0 && errno != EEXIST) {
            vdc_input_error("--out %s: %s: expected a directory to render into", c.out, g_strerror(errno));
            goto out;
        }
        if (!g_file_test(c.out, G_FILE_TEST_IS_DIR)) {
            vdc_input_error("--out %s: not a directory: expected a directory to render into", c.out);
            goto out;
        }
    }
    rc = vdc_report_write(&rs, &ro, c.out ? c.out : dir) < 0 ? -1 : 0;
 out:
    g_free(c.out);
    vdc_result_set_dispose(&rs);
    return rc;
}

/* Rename, in @rs, target @old to @new (runs and targets). */
static void
rename_target(vdc_result_set *rs, const char *old, const char *new)
{
    size_t i;

    for (i = 0; i < rs->n_targets; i++)
        if (!strcmp(rs->targets[i]->name, old))
            vdc_set_str(&rs->targets[i]->name, new);
    for (i = 0; i < rs->n_runs; i++)
        if (rs->runs[i]->target && !strcmp(rs->runs[i]->target, old))
            vdc_set_str(&rs->runs[i]->target, new);
}

/* The label of input @arg (loaded as @rs), appended to a target name that
 * another input already has: the experiment's id (vmdiskcmp's own runs:
 * "2026-11-30T101500Z-host1"), else the host and date of its first run,
 * else the file or directory name without ".json". */
static char *
input_label(const char *arg, const vdc_result_set *rs)
{
    char *b;
    size_t n, i;

    if (rs->has_experiment && rs->experiment.id && *rs->experiment.id)
        b = g_strdup(rs->experiment.id);
    else if (rs->n_runs && rs->runs[0]->meta.hostname && rs->runs[0]->meta.date)
        b = g_strdup_printf("%s-%s", rs->runs[0]->meta.hostname, rs->runs[0]->meta.date);
    else
        b = g_path_get_basename(arg);
    n = strlen(b);
    if (n > 5 && !strcmp(b + n - 5, ".json"))
        b[n - 5] = '\0';
    /* the label becomes part of a target name: no control characters (a
     * newline in a directory name broke the table), valid UTF-8 */
    for (i = 0; b[i]; i++)
        if ((unsigned char)b[i] < 0x20 || b[i] == 0x7f)
            b[i] = '?';
    if (!g_utf8_validate(b, -1, NULL)) {
        char *v = g_utf8_make_valid(b, -1);

        g_free(b);
        b = v;
    }
    return b;
}

/* Whether @a and @b name the same result file (a directory stands for
 * its result.json): same device and inode. */
static int
same_input(const char *a, const char *b)
{
    char *pa = g_file_test(a, G_FILE_TEST_IS_DIR) ? g_build_filename(a, "result.json", NULL) : g_strdup(a);
    char *pb = g_file_test(b, G_FILE_TEST_IS_DIR) ? g_build_filename(b, "result.json", NULL) : g_strdup(b);
    int same = vdc_same_file(pa, pb);

    g_free(pa);
    g_free(pb);
    return same;
}

int
vdc_cmd_compare(int argc, char **argv)
{
    struct cli c;
    vdc_result_set all;
    struct vdc_analysis a;
    const struct vdc_format *fmt = NULL;
    char *out = NULL, *why = NULL;
    size_t n_targets = 0, n_runs = 0;
    int first, i, rc = -1;

    vdc_result_set_init(&all);
    vdc_analysis_init(&a);
    first = parse_cli(argc, argv, &c, 0);
    if (c.help) {             /* parse_cli printed the usage */
        rc = 0;
        goto out;    /* dispose what _init allocated (ASan: a leak on --help) */
    }
    if (first < 0)
        goto out;
    if (argc - first < 1) {
        vdc_input_error("compare: expected result directories or files A B [C...] (see --help)");
        goto out;
    }
    if ((why = vdc_merge_inputs_refusal((size_t)(argc - first)))) {
        vdc_input_error("compare: %s", why);
        goto out;
    }
    if (vdc_report_limits_apply() < 0)  /* the backstop: report_dir.h */
        goto out;
    for (i = first; i < argc; i++) {
        vdc_result_set one;
        char **names, *label;
        size_t k;

        vdc_result_set_init(&one);
        if (load_input(&one, argv[i]) < 0) {
            vdc_result_set_dispose(&one);
            goto out;
        }
        names = vdc_result_set_target_names(&one);
        if (!names[0]) {
            vdc_input_error("%s: no runs: expected a result set with at least one run", argv[i]);
            g_strfreev(names);
            vdc_result_set_dispose(&one);
            goto out;
        }
        /* every input's targets stay apart (a name taken is renamed below):
         * the merged set has the sum of their targets */
        n_targets += vdc_result_set_target_count(&one);
        n_runs += one.n_runs;
        if ((why = vdc_merge_totals_refusal(n_targets, n_runs))) {
            vdc_input_error("compare: %s: %s", argv[i], why);
            g_strfreev(names);
            vdc_result_set_dispose(&one);
            goto out;
        }
        label = input_label(argv[i], &one);
        for (k = first; k < (size_t)i; k++)
            if (same_input(argv[k], argv[i]) && !c.quiet)
                fprintf(stderr, "vmdiskcmp: WARNING: compare: %s and %s are the same input: its "
                        "targets are shown twice, the second time as NAME@%s\n", argv[k], argv[i], label);
        for (k = 0; names[k]; k++) {
            char **have = vdc_result_set_target_names(&all);

            if (g_strv_contains((const char *const *)have, names[k])) {
                char *n = g_strdup_printf("%s@%s", names[k], label);
                unsigned dup = 1;

                /* the same input twice, or a name already taken: never pool
                 * two inputs under one name ("compare A A A" did) */
                while (g_strv_contains((const char *const *)have, n) ||
                       g_strv_contains((const char *const *)names, n)) {
                    g_free(n);
                    n = g_strdup_printf("%s@%s#%u", names[k], label, ++dup);
                }
                rename_target(&one, names[k], n);
                g_free(n);
            }
            g_strfreev(have);
        }
        g_free(label);
        g_strfreev(names);
        vdc_result_set_merge(&all, &one);
        vdc_result_set_dispose(&one);
    }
    if (vdc_analysis_build_with(&a, &all, c.baseline, &c.stats, &c.artefacts) < 0)
        goto out;
    if (!(fmt = vdc_compare_format(c.format)))
        goto out;
    out = fmt->compare(&all, &a);
    if (fputs(out, stdout) == EOF || fflush(stdout) != 0) {
        vdc_error("cannot write to standard output: %s", g_strerror(errno));
        goto out;
    }
    /* the warnings go to stderr, once: not when stderr is where the
     * output carrying them went (a terminal, `2>&1`); csv has only flags */
    if (!c.quiet && !(fmt->compare_warnings && same_file(STDOUT_FILENO, STDERR_FILENO))) {
        char **w = vdc_compare_warnings(&all, &a);

        vdc_print_warnings(w);
        g_strfreev(w);
    }
    rc = 0;
    if (c.fail_slower > 0) {
        size_t ti, ki, n_fail = 0;

        /* significant (Welch) and slower by more than P %: only tested
         * cells count; too few runs or too-fast cells never fail */
        for (ti = 0; ti < a.n_targets; ti++)
            for (ki = 0; ti != a.baseline_index && ki < a.n_tests; ki++) {
                const struct vdc_stats_comparison *s = &vdc_analysis_cmp(&a, ti, ki)->c;

                if (s->verdict == VDC_VERDICT_SLOWER && s->delta_percent < -c.fail_slower) {
                    vdc_error("compare --fail-if slower>%g%%: %s is %.1f %% slower than %s on %s (p = %.3g)",
                              c.fail_slower, a.targets[ti], -s->delta_percent, a.baseline, a.tests[ki],
                              s->p_value);
                    n_fail++;
                }
            }
        if (n_fail)
            rc = -1;
    }
 out:
    g_free(why);
    g_free(out);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&all);
    return rc;
}
