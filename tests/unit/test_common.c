/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/common: size parsing, atomic writes, the error model,
 * options tables, child processes (real ones: sh, sleep). */
#include "config.h"
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <glib.h>

#include "common/child.h"
#include "common/opts.h"
#include "common/util.h"
#include "test_stderr.h"

static void
test_parse_size_units(void **state)
{
    uint64_t v = 0;

    assert_int_equal(vdc_parse_size("1024", 1, &v), 0);
    assert_int_equal(v, 1024);
    assert_int_equal(vdc_parse_size("512", 1ULL << 20, &v), 0);
    assert_int_equal(v, 512ULL << 20);
    assert_int_equal(vdc_parse_size("4k", 1, &v), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(vdc_parse_size("2G", 1, &v), 0);
    assert_int_equal(v, 2ULL << 30);
    assert_int_equal(vdc_parse_size("3MiB", 1, &v), 0);
    assert_int_equal(v, 3ULL << 20);
    assert_int_equal(vdc_parse_size("1T", 1, &v), 0);
    assert_int_equal(v, 1ULL << 40);
    assert_int_equal(vdc_parse_size("100B", 1ULL << 20, &v), 0);
    assert_int_equal(v, 100);
}

static void
test_parse_size_errors(void **state)
{
    uint64_t v = 7;

    assert_int_equal(vdc_parse_size("", 1, &v), -1);
    assert_int_equal(vdc_parse_size("-1", 1, &v), -1);
    assert_int_equal(vdc_parse_size("12X", 1, &v), -1);
    assert_int_equal(vdc_parse_size("1GX", 1, &v), -1);
    assert_int_equal(vdc_parse_size("G", 1, &v), -1);
    assert_int_equal(vdc_parse_size("99999999999999999999", 1, &v), -1);
    assert_int_equal(vdc_parse_size("17179869184T", 1, &v), -1);
    assert_int_equal(v, 7); /* untouched on error */
}

static void
test_atomic_write(void **state)
{
    char dir[] = "/tmp/vdc-test-XXXXXX";
    char path[64], buf[16] = { 0 };
    FILE *f;

    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/out.json", dir);
    assert_int_equal(vdc_write_file_atomic(path, "{\"a\":1}", 7), 0);
    f = fopen(path, "r");
    assert_non_null(f);
    assert_int_equal(fread(buf, 1, sizeof(buf) - 1, f), 7);
    fclose(f);
    assert_string_equal(buf, "{\"a\":1}");
    /* a directory that does not exist: error, nothing created */
    assert_int_equal(vdc_write_file_atomic("/nonexistent-vdc/x.json", "x", 1), -1);
    unlink(path);
    rmdir(dir);
}

/* the error model: the first error's kind decides, an interruption wins */
static void
test_error_kinds(void **state)
{
    vdc_error_reset();
    assert_int_equal(vdc_error_last_kind(), VDC_ERR_NONE);
    assert_int_equal(vdc_exit_status(0), VDC_EXIT_OK);
    assert_int_equal(vdc_exit_status(-1), VDC_EXIT_FAILURE);   /* nothing reported */

    vdc_input_error("--runs: expected a whole number, got 'x'");
    vdc_error("a runtime error after it");
    assert_int_equal(vdc_error_last_kind(), VDC_ERR_INPUT);
    assert_int_equal(vdc_exit_status(-1), VDC_EXIT_USAGE);

    vdc_error_reset();
    vdc_error("cannot open libxc handle");
    vdc_input_error("bad input found later");
    assert_int_equal(vdc_exit_status(-1), VDC_EXIT_FAILURE);

    vdc_note_interrupted();
    assert_int_equal(vdc_error_last_kind(), VDC_ERR_INTERRUPTED);
    assert_int_equal(vdc_exit_status(-1), VDC_EXIT_INTERRUPTED);
    assert_int_equal(vdc_exit_status(0), VDC_EXIT_INTERRUPTED);

    vdc_error_reset();
    vdc_error_kind(VDC_ERR_NONE, "a note that records nothing");
    assert_int_equal(vdc_error_last_kind(), VDC_ERR_NONE);
    vdc_error_kind(VDC_ERR_INPUT, "bad");
    assert_int_equal(vdc_exit_status(1), VDC_EXIT_USAGE);
    vdc_error_reset();

    /* a failure a child process printed: recorded without a line */
    vdc_note_error(VDC_ERR_INPUT);
    assert_int_equal(vdc_exit_status(-1), VDC_EXIT_USAGE);
    vdc_error_reset();
}

/* a scope recasts what its sites report; interruptions stay; it nests */
static void
test_error_scope(void **state)
{
    vdc_err_kind prev, inner;

    vdc_error_reset();
    prev = vdc_error_scope(VDC_ERR_INPUT);
    assert_int_equal(prev, VDC_ERR_NONE);
    vdc_error("cannot read /nonexistent/x.json: No such file or directory");
    inner = vdc_error_scope(VDC_ERR_RUNTIME);
    assert_int_equal(inner, VDC_ERR_INPUT);
    vdc_error_scope(inner);
    assert_int_equal(vdc_error_scope(prev), VDC_ERR_INPUT);
    assert_int_equal(vdc_error_last_kind(), VDC_ERR_INPUT);
    assert_int_equal(vdc_exit_status(-1), VDC_EXIT_USAGE);

    vdc_error_reset();
    prev = vdc_error_scope(VDC_ERR_RUNTIME);
    vdc_input_error("x.json:1: invalid JSON");     /* our agent's output: a runtime failure */
    vdc_error_scope(prev);
    assert_int_equal(vdc_exit_status(-1), VDC_EXIT_FAILURE);

    vdc_error_reset();
    prev = vdc_error_scope(VDC_ERR_INPUT);
    vdc_note_interrupted();
    vdc_error_scope(prev);
    assert_int_equal(vdc_exit_status(-1), VDC_EXIT_INTERRUPTED);
    /* a context names whose input it was, on every line, until put back */
    {
        const char *prev = vdc_error_context("lab run: job 2");
        char *err;

        assert_null(prev);
        capture_stderr_begin();
        vdc_input_error("--runs '0': expected an integer from 1 to 1000");
        vdc_error_context(prev);
        vdc_input_error("after");
        err = capture_stderr_end();
        assert_string_equal(err, "vmdiskcmp: lab run: job 2: --runs '0': expected an integer from 1 to 1000\n"
                                 "vmdiskcmp: after\n");
        free(err);
    }
    /* after the scope, sites decide again */
    vdc_error_reset();
    vdc_error("a runtime failure");
    assert_int_equal(vdc_exit_status(-1), VDC_EXIT_FAILURE);
    vdc_error_reset();
}



/* ---- options tables ---------------------------------------------------------- */

struct demo {
    int flag;
    char *str, *maybe, *mode, *list;
    char **many;
    unsigned n;
    uint64_t size, any_size;
    int called;
};

static int
demo_call(void *opts, const vdc_opt *d, const char *arg)
{
    struct demo *o = opts;

    if (strcmp(arg, "ok")) {
        vdc_input_error("--%s %s: expected ok", d->name, arg);
        return -1;
    }
    o->called++;
    return 0;
}

#define D(m) offsetof(struct demo, m)
static const vdc_opt demo_table[] = {
    { .name = "flag", .type = VDC_OPT_FLAG, .off = D(flag), .short_name = 'f', .help = "a flag" },
    { .name = "str", .type = VDC_OPT_STR, .off = D(str), .metavar = "S", .short_name = 's',
      .help = "a string" },
    { .name = "maybe", .type = VDC_OPT_STR, .off = D(maybe), .metavar = "M", .empty_ok = 1,
      .help = "may be empty" },
    { .name = "mode", .type = VDC_OPT_ENUM, .off = D(mode), .choices = "a|b", .def = "a",
      .help = "a or b" },
    { .name = "modes", .type = VDC_OPT_ENUM, .off = D(mode), .choices = "a|b",
      .expect = "a or b, in words", .scopes = "other", .help = "only elsewhere" },
    { .name = "list", .type = VDC_OPT_LIST, .off = D(list), .choices = "x|y|z", .help = "a list" },
    { .name = "many", .type = VDC_OPT_STRV, .off = D(many), .metavar = "V", .help = "repeatable" },
    { .name = "n", .type = VDC_OPT_UINT, .off = D(n), .metavar = "N", .min = 1, .max = 9,
      .help = "a number" },
    { .name = "mib", .type = VDC_OPT_UINT, .off = D(n), .metavar = "MiB", .min = 16, .max = 64,
      .help = "a number of MiB" },
    { .name = "wait", .type = VDC_OPT_UINT, .off = D(n), .metavar = "SECONDS", .min = 10, .max = 60,
      .help = "a number of seconds" },
    { .name = "size", .type = VDC_OPT_SIZE, .off = D(size), .metavar = "SIZE",
      .align = 1ULL << 20, .max = 1ULL << 50, .help = "whole MiB" },
    { .name = "any-size", .type = VDC_OPT_SIZE, .off = D(any_size), .metavar = "SIZE",
      .help = "any size" },
    { .name = "call", .type = VDC_OPT_CALL, .parse = demo_call, .metavar = "ok", .help = "a callback" },
    { .name = "help", .type = VDC_OPT_HELP, .short_name = 'h', .help = "this text" },
};

static vdc_opts_spec
demo_spec(vdc_operands operands)
{
    vdc_opts_spec s = { .command = "demo", .prefix = "demo: ", .table = demo_table,
                        .n = G_N_ELEMENTS(demo_table), .operands = operands, .scope = "main",
                        .usage = "usage: vmdiskcmp demo [OPTIONS]\n\n", .epilogue = "end\n" };
    return s;
}

/* parse @line (argv[0] "demo"); returns the result and, in *err, stderr */
static vdc_opts_result
demo_parse(const vdc_opts_spec *spec, struct demo *o, const char *line, int *first,
           int *dashdash, char **err)
{
    g_auto(GStrv) argv = NULL;
    int argc = 0;
    vdc_opts_result r;

    assert_true(g_shell_parse_argv(line, &argc, &argv, NULL));
    memset(o, 0, sizeof(*o));
    vdc_error_reset();
    capture_stderr_begin();
    r = vdc_opts_parse(spec, o, argc, argv, first, dashdash);
    *err = capture_stderr_end();
    return r;
}

/* sizes in messages: the largest binary unit reached, one decimal when not whole */
static void
test_fmt_bytes(void **state)
{
    char b[32];

    assert_string_equal(vdc_fmt_bytes(b, sizeof(b), 0), "0 bytes");
    assert_string_equal(vdc_fmt_bytes(b, sizeof(b), 1), "1 byte");
    assert_string_equal(vdc_fmt_bytes(b, sizeof(b), 1023), "1023 bytes");
    assert_string_equal(vdc_fmt_bytes(b, sizeof(b), 3072), "3 KiB");
    assert_string_equal(vdc_fmt_bytes(b, sizeof(b), 1536), "1.5 KiB");
    assert_string_equal(vdc_fmt_bytes(b, sizeof(b), 512ULL << 20), "512 MiB");
    assert_string_equal(vdc_fmt_bytes(b, sizeof(b), (1ULL << 30) + (7ULL << 29)), "4.5 GiB");
    assert_string_equal(vdc_fmt_bytes(b, sizeof(b), 1ULL << 50), "1 PiB");
    assert_string_equal(vdc_fmt_bytes(b, sizeof(b), UINT64_MAX), "16.0 EiB");
}

static void
test_opts_values(void **state)
{
    vdc_opts_spec spec = demo_spec(VDC_OPERANDS_ANYWHERE);
    struct demo o;
    char *err = NULL;
    int first = 0, dd = -1;

    assert_int_equal(demo_parse(&spec, &o, "demo -f op1 -s y --maybe '' --mode b "
                                "--list x,z --many 1 --many 2 --n 9 --size 2G --any-size 64K "
                                "--call ok op2", &first, &dd, &err), VDC_OPTS_OK);
    assert_string_equal(err, "");
    free(err);
    assert_int_equal(o.flag, 1);
    assert_string_equal(o.str, "y");
    assert_string_equal(o.maybe, "");
    assert_string_equal(o.mode, "b");
    assert_string_equal(o.list, "x,z");
    assert_int_equal(g_strv_length(o.many), 2);
    assert_string_equal(o.many[1], "2");
    assert_int_equal(o.n, 9);
    assert_int_equal(o.size, 2ULL << 30);
    assert_int_equal(o.any_size, 64ULL << 10);
    assert_int_equal(o.called, 1);
    assert_int_equal(dd, 0);
    /* operands anywhere: permuted after the options */
    assert_int_equal(first, 22);
    vdc_opts_dispose(&spec, &o);
    vdc_opts_dispose(&spec, &o);                /* twice is safe */
    assert_null(o.str);
    assert_null(o.many);
}

static void
test_opts_errors(void **state)
{
    static const struct {
        const char *line, *want;   /* want: the whole line */
    } cases[] = {
        { "demo --bogus", "vmdiskcmp: demo: unknown option '--bogus': expected one of the options in 'vmdiskcmp demo --help'\n" },
        { "demo -fz", "vmdiskcmp: demo: unknown option '-z': expected one of the options in 'vmdiskcmp demo --help'\n" },
        { "demo --str", "vmdiskcmp: demo: --str: expected a value (S)\n" },
        { "demo -s", "vmdiskcmp: demo: -s: expected a value (S)\n" },
        { "demo --mode", "vmdiskcmp: demo: --mode: expected a value (a|b)\n" },
        { "demo --flag=1", "vmdiskcmp: demo: --flag: takes no value (found '--flag=1'): expected --flag alone\n" },
        { "demo --str ''", "vmdiskcmp: demo: --str: expected a non-empty S\n" },
        { "demo --many ''", "vmdiskcmp: demo: --many: expected a non-empty V\n" },
        { "demo --mode c", "vmdiskcmp: demo: --mode 'c': expected one of a|b\n" },
        /* a single-valued option given twice: refused, never the last taken */
        { "demo --str=x -s y", "vmdiskcmp: demo: --str given twice ('x', then 'y'): expected one value\n" },
        { "demo --mode a --mode a", "vmdiskcmp: demo: --mode given twice ('a', then 'a'): expected one value\n" },
        { "demo --n 1 --n 2", "vmdiskcmp: demo: --n given twice ('1', then '2'): expected one value\n" },
        { "demo --size 1G --size 2G", "vmdiskcmp: demo: --size given twice ('1G', then '2G'): expected one value\n" },
        { "demo --list x --list y", "vmdiskcmp: demo: --list given twice ('x', then 'y'): expected one value\n" },
        { "demo --call ok --call ok", "vmdiskcmp: demo: --call given twice ('ok', then 'ok'): expected one value\n" },
        { "demo --list x,w", "vmdiskcmp: demo: --list 'x,w': expected a comma list of x|y|z\n" },
        { "demo --list ''", "vmdiskcmp: demo: --list '': expected a comma list of x|y|z\n" },
        { "demo --n 0", "vmdiskcmp: demo: --n '0': expected an integer from 1 to 9\n" },
        { "demo --n 1x", "vmdiskcmp: demo: --n '1x': expected an integer from 1 to 9\n" },
        { "demo --n -1", "vmdiskcmp: demo: --n '-1': expected an integer from 1 to 9\n" },
        /* the unit the metavar names, after the range */
        { "demo --mib 8", "vmdiskcmp: demo: --mib '8': expected an integer from 16 to 64 MiB\n" },
        { "demo --wait 5", "vmdiskcmp: demo: --wait '5': expected an integer from 10 to 60 seconds\n" },
        { "demo --size 0", "vmdiskcmp: demo: --size '0': expected a size such as 512M, 4G or a number of MiB, "
          "at most 1024T\n" },
        /* the input, the limit and the unit */
        { "demo --size 12Q", "vmdiskcmp: demo: --size '12Q': expected a size such as 512M, 4G or a number of MiB, "
          "at most 1024T: the unit 'Q' is not one of B, K, M, G, T (powers of 1024)\n" },
        { "demo --size 8E", "vmdiskcmp: demo: --size '8E': expected a size such as 512M, 4G or a number of MiB, "
          "at most 1024T: the unit 'E' is not one of B, K, M, G, T (powers of 1024)\n" },
        { "demo --size 99999999999999999999", "vmdiskcmp: demo: --size '99999999999999999999': expected a size "
          "such as 512M, 4G or a number of MiB, at most 1024T: too large for 64 bits\n" },
        /* a flag twice, as a value twice */
        { "demo --flag -f", "vmdiskcmp: demo: --flag given twice: expected it once\n" },
        { "demo --size 1k", "vmdiskcmp: demo: --size '1k': expected a whole number of MiB from 1M to 1024T\n" },
        { "demo --size 2048T", "vmdiskcmp: demo: --size '2048T': expected a whole number of MiB from 1M to 1024T\n" },
        { "demo --call no", "vmdiskcmp: --call no: expected ok\n" },
        { "demo --modes a", "vmdiskcmp: demo: option '--modes' applies only to other: expected one of the options "
          "in 'vmdiskcmp demo --help': did you mean --mode?\n" },
    };
    vdc_opts_spec spec = demo_spec(VDC_OPERANDS_ANYWHERE);
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(cases); i++) {
        struct demo o;
        char *err = NULL;

        if (demo_parse(&spec, &o, cases[i].line, NULL, NULL, &err) != VDC_OPTS_ERROR ||
            strcmp(err, cases[i].want) || vdc_error_last_kind() != VDC_ERR_INPUT) {
            print_error("case '%s': got '%s', wanted '%s'\n", cases[i].line, err, cases[i].want);
            fail();
        }
        free(err);
        vdc_opts_dispose(&spec, &o);
    }
    vdc_error_reset();
}

static void
test_opts_operands_and_help(void **state)
{
    vdc_opts_spec none = demo_spec(VDC_OPERANDS_NONE), after = demo_spec(VDC_OPERANDS_AFTER);
    struct demo o;
    char *err = NULL;
    int first = 0, dd = -1;

    /* options only */
    assert_int_equal(demo_parse(&none, &o, "demo -f extra", NULL, NULL, &err), VDC_OPTS_ERROR);
    assert_string_equal(err, "vmdiskcmp: demo: unexpected argument 'extra': demo takes options only\n");
    free(err);
    vdc_opts_dispose(&none, &o);
    /* stop at the first operand, or at --; a value "--" is not the end */
    assert_int_equal(demo_parse(&after, &o, "demo -f stray --str x", &first, &dd, &err), VDC_OPTS_OK);
    assert_int_equal(first, 2);
    assert_int_equal(dd, 0);
    assert_null(o.str);
    free(err);
    assert_int_equal(demo_parse(&after, &o, "demo --str -- -- --flag", &first, &dd, &err), VDC_OPTS_OK);
    assert_string_equal(o.str, "--");
    assert_int_equal(first, 4);
    assert_int_equal(dd, 1);
    assert_int_equal(o.flag, 0);
    free(err);
    vdc_opts_dispose(&after, &o);
    assert_int_equal(demo_parse(&after, &o, "demo --str --", &first, &dd, &err), VDC_OPTS_OK);
    assert_int_equal(dd, 0);
    free(err);
    vdc_opts_dispose(&after, &o);
    /* --help stops the parse, also before bad input */
    assert_int_equal(demo_parse(&none, &o, "demo -f --help --bogus", NULL, NULL, &err), VDC_OPTS_HELP);
    assert_string_equal(err, "");
    free(err);
    assert_int_equal(demo_parse(&none, &o, "demo -h", NULL, NULL, &err), VDC_OPTS_HELP);
    free(err);
    vdc_opts_dispose(&none, &o);
}

static void
test_opts_help(void **state)
{
    vdc_opts_spec spec = demo_spec(VDC_OPERANDS_NONE);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    assert_non_null(f);
    vdc_opts_help(&spec, f);
    spec.scope = NULL;              /* every scope: each option's shown */
    vdc_opts_help(&spec, f);
    fclose(f);
    assert_non_null(strstr(buf, "usage: vmdiskcmp demo [OPTIONS]\n\n  -f, --flag      a flag\n"
                                "  -s, --str S     a string\n"));
    assert_non_null(strstr(buf, "\n  --mode a|b      a or b [a]\n"));
    assert_non_null(strstr(buf, "\n  --any-size SIZE any size\n"));
    assert_non_null(strstr(buf, "\n  -h, --help      this text\nend\n"));
    /* out of scope: not listed for "main"; with every scope, with its scope */
    assert_non_null(strstr(buf, "\n  --modes a|b     only elsewhere [other]\n"));
    assert_true(strstr(buf, "--modes") > strstr(buf, "end\n"));
    free(buf);
}

/* ---- child processes ------------------------------------------------------- */

static vdc_child_result
run_argv(const char *const *argv, unsigned timeout_ms, unsigned grace_ms, vdc_child_io out)
{
    vdc_child_opts o = { .argv = (char *const *)argv, .timeout_ms = timeout_ms,
                         .grace_ms = grace_ms, .out = out, .err = VDC_CHILD_NULL };
    vdc_child_result r;

    assert_int_equal(vdc_child_run(&o, &r), 0);
    return r;
}

static double
seconds_since(gint64 t0)
{
    return (double)(g_get_monotonic_time() - t0) / G_USEC_PER_SEC;
}

static void
test_child_exit_status(void **state)
{
    static const char *const ex[] = { "sh", "-c", "exit 7", NULL };
    static const char *const missing[] = { "/nonexistent-vdc/prog", NULL };
    vdc_child_result r = run_argv(ex, 0, 0, VDC_CHILD_NULL);

    assert_int_equal(r.exited, 1);
    assert_int_equal(r.status, 7);
    assert_int_equal(vdc_child_code(&r), 7);
    assert_false(r.timed_out || r.stopped);
    assert_null(r.out);
    r = run_argv(missing, 0, 0, VDC_CHILD_NULL);
    assert_int_equal(r.exited, 1);
    assert_int_equal(r.status, 127);
}

static void
test_child_capture(void **state)
{
    static const char *const both[] = { "sh", "-c", "echo out; echo err >&2", NULL };
    static const char *const lots[] = { "sh", "-c", "head -c 100000 /dev/zero | tr '\\0' x", NULL };
    vdc_child_opts o = { .argv = (char *const *)lots, .out = VDC_CHILD_CAPTURE,
                         .err = VDC_CHILD_NULL, .capture_max = 1000 };
    vdc_child_result r = run_argv(both, 0, 0, VDC_CHILD_CAPTURE);

    assert_string_equal(r.out, "out\n");    /* stderr went to /dev/null */
    assert_int_equal(r.out_len, 4);
    assert_false(r.out_truncated);
    vdc_child_result_dispose(&r);
    vdc_child_result_dispose(&r);           /* twice is safe */
    /* bounded: the first 1000 bytes kept, the rest read and dropped (the
     * child is not blocked on a full pipe: it exits 0) */
    assert_int_equal(vdc_child_run(&o, &r), 0);
    assert_int_equal(r.out_len, 1000);
    assert_int_equal(strspn(r.out, "x"), 1000);
    assert_true(r.out_truncated);
    assert_int_equal(r.exited, 1);
    assert_int_equal(r.status, 0);
    vdc_child_result_dispose(&r);
}

/* stderr apart from stdout: a report on one, its complaints on the other */
static void
test_child_capture_apart(void **state)
{
    static const char *const both[] = { "sh", "-c", "echo out; echo err >&2; echo out2; exit 3", NULL };
    static const char *const lots[] = { "sh", "-c", "head -c 100000 /dev/zero | tr '\\0' x >&2; echo ok",
                                        NULL };
    vdc_child_opts o = { .argv = (char *const *)both, .out = VDC_CHILD_CAPTURE,
                         .err = VDC_CHILD_CAPTURE_APART };
    vdc_child_result r;

    assert_int_equal(vdc_child_run(&o, &r), 0);
    assert_string_equal(r.out, "out\nout2\n");
    assert_string_equal(r.err, "err\n");
    assert_int_equal(r.err_len, 4);
    assert_int_equal(vdc_child_code(&r), 3);
    vdc_child_result_dispose(&r);
    vdc_child_result_dispose(&r);           /* twice is safe */
    assert_null(r.err);
    /* each buffer bounded on its own; stdout to /dev/null */
    o.argv = (char *const *)lots;
    o.out = VDC_CHILD_NULL;
    o.capture_max = 1000;
    assert_int_equal(vdc_child_run(&o, &r), 0);
    assert_null(r.out);
    assert_int_equal(r.err_len, 1000);
    assert_true(r.err_truncated);
    assert_int_equal(vdc_child_code(&r), 0);
    vdc_child_result_dispose(&r);
    /* stdout has no buffer of its own: refused, nothing run */
    o.out = VDC_CHILD_CAPTURE_APART;
    capture_stderr_begin();
    assert_int_equal(vdc_child_run(&o, &r), -1);
    {
        char *err = capture_stderr_end();

        assert_non_null(strstr(err, "stdout cannot be captured apart"));
        free(err);
    }
    vdc_error_reset();
}

static void
test_child_log(void **state)
{
    static const char *const argv[] = { "sh", "-c", "echo to-out; echo to-err >&2", NULL };
    char dir[] = "/tmp/vdc-test-child-XXXXXX";
    g_autofree char *log = NULL, *text = NULL;
    vdc_child_opts o = { .argv = (char *const *)argv, .out = VDC_CHILD_LOG,
                         .err = VDC_CHILD_LOG };
    vdc_child_result r;

    assert_non_null(mkdtemp(dir));
    log = g_build_filename(dir, "child.log", NULL);
    o.log_path = log;
    assert_int_equal(vdc_child_run(&o, &r), 0);
    assert_int_equal(vdc_child_run(&o, &r), 0);     /* appended, not replaced */
    assert_true(g_file_get_contents(log, &text, NULL, NULL));
    assert_string_equal(text, "to-out\nto-err\nto-out\nto-err\n");
    unlink(log);
    /* a log that cannot be opened: an error, no child started */
    o.log_path = "/nonexistent-vdc/child.log";
    vdc_error_reset();
    assert_int_equal(vdc_child_run(&o, &r), -1);
    assert_int_equal(vdc_error_last_kind(), VDC_ERR_RUNTIME);
    vdc_error_reset();
    rmdir(dir);
}

static void
test_child_timeout(void **state)
{
    static const char *const sleeper[] = { "sleep", "30", NULL };
    /* a child that ignores SIGTERM: SIGKILL after the grace period */
    static const char *const stubborn[] = { "sh", "-c", "trap '' TERM; sleep 30", NULL };
    gint64 t0 = g_get_monotonic_time();
    vdc_child_result r = run_argv(sleeper, 200, 0, VDC_CHILD_NULL);

    assert_true(r.timed_out);
    assert_false(r.stopped);
    assert_int_equal(r.exited, 0);
    assert_int_equal(r.status, SIGTERM);
    assert_int_equal(vdc_child_code(&r), 128 + SIGTERM);
    assert_true(seconds_since(t0) < 20);      /* not the child's 30 s */

    t0 = g_get_monotonic_time();
    r = run_argv(stubborn, 200, 300, VDC_CHILD_NULL);
    assert_true(r.timed_out);
    assert_int_equal(r.exited, 0);
    assert_int_equal(r.status, SIGKILL);
    assert_true(seconds_since(t0) < 20);
}

static volatile sig_atomic_t stop_flag;

static void
on_alarm(int sig)
{
    stop_flag = sig;
}

static void
test_child_stop(void **state)
{
    static const char *const sleeper[] = { "sleep", "30", NULL };
    struct itimerval it = { .it_value = { .tv_sec = 0, .tv_usec = 200000 } };
    struct sigaction sa, old;
    vdc_child_opts o = { .argv = (char *const *)sleeper, .stop = &stop_flag };
    vdc_child_result r;
    gint64 t0 = g_get_monotonic_time();

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_alarm;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, &old);
    stop_flag = 0;
    setitimer(ITIMER_REAL, &it, NULL);      /* our "SIGINT" after 200 ms */
    assert_int_equal(vdc_child_run(&o, &r), 0);
    sigaction(SIGALRM, &old, NULL);
    assert_true(r.stopped);
    assert_false(r.timed_out);
    assert_int_equal(r.exited, 0);
    assert_int_equal(r.status, SIGTERM);
    assert_true(seconds_since(t0) < 20);
}

/* The grandchild's pid, printed by the child on its first line. */
static pid_t
first_line_pid(const vdc_child_result *r)
{
    assert_non_null(r->out);
    return (pid_t)g_ascii_strtoll(r->out, NULL, 10);
}

/* What a process we adopted (we are the subreaper) died of: its signal, or
 * 0 if it exited, -1 if it was not ours within 10 s (a process whose
 * parent, vdc_child_run's supervisor, is still alive comes to us only
 * when that one ends). */
static int
reap_signal(pid_t pid)
{
    int st = 0, i;

    for (i = 0; i < 200; i++) {
        if (waitpid(pid, &st, 0) == pid)
            return WIFSIGNALED(st) ? WTERMSIG(st) : 0;
        if (errno != ECHILD)
            return -1;
        g_usleep(50000);
    }
    return -1;
}

/* The whole group is stopped, grandchildren included: after a timeout and
 * after the child exited by itself leaving a background job behind. */
static void
test_child_group(void **state)
{
    static const char *const waits[] = { "sh", "-c", "sleep 30 & echo $!; wait", NULL };
    static const char *const leaves[] = { "sh", "-c", "sleep 30 & echo $!", NULL };
    vdc_child_result r;
    pid_t g;

    /* orphans (the grandchildren) come to us, so we can see how they ended */
    assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
    r = run_argv(waits, 300, 0, VDC_CHILD_CAPTURE);
    assert_true(r.timed_out);
    g = first_line_pid(&r);
    assert_true(g > 1);
    assert_true(reap_signal(g) > 0);         /* SIGTERM (or SIGKILL), not its 30 s */
    vdc_child_result_dispose(&r);

    r = run_argv(leaves, 0, 0, VDC_CHILD_CAPTURE);
    assert_false(r.timed_out);
    assert_int_equal(r.exited, 1);
    assert_int_equal(r.status, 0);
    g = first_line_pid(&r);
    assert_int_equal(reap_signal(g), SIGKILL);
    vdc_child_result_dispose(&r);
    assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 0), 0);
}

/* what the tick saw of the child proper: its state letter in
 * /proc/PID/stat at each call ('-' once it could not be read) */
struct tick_seen {
    int pid;
    GString *states;
};

static void
tick_state(void *arg)
{
    struct tick_seen *t = arg;
    g_autofree char *path = g_strdup_printf("/proc/%d/stat", t->pid);
    g_autofree char *text = NULL;
    const char *close;

    if (t->pid <= 0 || !g_file_get_contents(path, &text, NULL, NULL) ||
        !(close = strrchr(text, ')')) || close[1] != ' ') {
        g_string_append_c(t->states, '-');
        return;
    }
    g_string_append_c(t->states, close[2]);
}

/* The ended child is held unreaped until the tick after its end has run:
 * that tick reads its /proc/PID/stat (a zombie's, its CPU time final);
 * the tick after the reap does not.  Also after a stop within the grace. */
static void
test_child_tick_after_end(void **state)
{
    static const char *const ex[] = { "sh", "-c", "exit 5", NULL };
    static const char *const sleeper[] = { "sleep", "30", NULL };
    struct tick_seen t = { 0, g_string_new(NULL) };
    vdc_child_opts o = { .argv = (char *const *)ex, .pid_out = &t.pid, .tick = tick_state,
                         .tick_arg = &t };
    vdc_child_result r;

    assert_int_equal(vdc_child_run(&o, &r), 0);
    assert_int_equal(r.exited, 1);
    assert_int_equal(r.status, 5);
    assert_true(t.pid > 0);
    /* the last two calls: the end (a zombie) and after the reap (gone) */
    assert_true(t.states->len >= 2);
    assert_int_equal(t.states->str[t.states->len - 2], 'Z');
    assert_int_equal(t.states->str[t.states->len - 1], '-');

    g_string_truncate(t.states, 0);
    t.pid = 0;
    o.argv = (char *const *)sleeper;
    o.timeout_ms = 200;
    assert_int_equal(vdc_child_run(&o, &r), 0);
    assert_true(r.timed_out);
    assert_int_equal(r.status, SIGTERM);
    assert_true(t.states->len >= 2);
    assert_int_equal(t.states->str[t.states->len - 2], 'Z');
    assert_int_equal(t.states->str[t.states->len - 1], '-');
    g_string_free(t.states, TRUE);
}

static int
answer_fn(void *arg)
{
    const char *s = arg;

    (void)!write(STDOUT_FILENO, s, strlen(s));
    return 3;
}

static void
test_child_fn(void **state)
{
    vdc_child_opts o = { .fn = answer_fn, .arg = "the answer", .out = VDC_CHILD_CAPTURE };
    vdc_child_result r;

    assert_int_equal(vdc_child_run(&o, &r), 0);
    assert_int_equal(r.exited, 1);
    assert_int_equal(r.status, 3);
    assert_string_equal(r.out, "the answer");
    vdc_child_result_dispose(&r);
}

/* death_signal: the child is killed when we die without stopping it (here:
 * a process of ours killed by SIGALRM in the middle of vdc_child_run);
 * with @grandchild, a process the child started in its group (the
 * agent's seekers): the child's own death signal would not reach it. */
static void
child_dies_with_us(int grandchild)
{
    char dir[] = "/tmp/vdc-test-child-XXXXXX";
    g_autofree char *pidfile = NULL, *text = NULL, *script = NULL;
    pid_t mid, g = 0;
    int i;

    assert_non_null(mkdtemp(dir));
    pidfile = g_build_filename(dir, "pid", NULL);
    script = grandchild
        ? g_strdup_printf("sleep 30 & echo $! >%s.t && mv %s.t %s && wait", pidfile, pidfile, pidfile)
        : g_strdup_printf("echo $$ >%s.t && mv %s.t %s && exec sleep 30", pidfile, pidfile, pidfile);
    assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
    mid = fork();
    assert_true(mid >= 0);
    if (mid == 0) {
        const char *const argv[] = { "sh", "-c", script, NULL };
        vdc_child_opts o = { .argv = (char *const *)argv, .death_signal = SIGKILL };
        vdc_child_result r;

        signal(SIGALRM, SIG_DFL);
        alarm(1);                /* we die in the middle of the wait */
        vdc_child_run(&o, &r);
        _exit(0);
    }
    assert_int_equal(reap_signal(mid), SIGALRM);
    for (i = 0; i < 100 && !g_file_get_contents(pidfile, &text, NULL, NULL); i++)
        g_usleep(50000);
    assert_non_null(text);
    g = (pid_t)g_ascii_strtoll(text, NULL, 10);
    assert_true(g > 1);
    assert_int_equal(reap_signal(g), SIGKILL);
    assert_int_equal(prctl(PR_SET_CHILD_SUBREAPER, 0), 0);
    unlink(pidfile);
    rmdir(dir);
}

static void
test_child_death_signal(void **state)
{
    child_dies_with_us(0);
}

static void
test_child_death_grandchild(void **state)
{
    child_dies_with_us(1);
}

/* --help's lines fit VDC_OPTS_HELP_WIDTH: a long help wraps under its
 * column, an option wider than the column stands on its own line, a long
 * line of the usage wraps past its own indent */
static void
test_opts_help_width(void **state)
{
    static const vdc_opt table[] = {
        { .name = "flag", .type = VDC_OPT_FLAG, .off = D(flag), .help =
          "a flag whose help goes on and on, about what it does, why, and when not to give it, "
          "more than one line of a terminal holds, so it wraps" },
        { .name = "a-very-long-option-name-indeed", .type = VDC_OPT_STR, .off = D(str),
          .metavar = "SOMETHING", .help = "its help under it", .def = "x" },
    };
    vdc_opts_spec spec = { .command = "demo", .table = table, .n = G_N_ELEMENTS(table),
                           .usage = "usage: vmdiskcmp demo [OPTIONS]\n  A usage line that is far longer than "
                                    "a hundred columns, so that it has to be folded by the help printer.\n\n" };
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    g_auto(GStrv) lines = NULL;
    size_t i;

    (void)state;
    assert_non_null(f);
    vdc_opts_help(&spec, f);
    fclose(f);
    lines = g_strsplit(buf, "\n", -1);
    for (i = 0; lines[i]; i++)
        assert_true(g_utf8_strlen(lines[i], -1) <= VDC_OPTS_HELP_WIDTH);
    assert_non_null(strstr(buf, "\n  A usage line that is far longer than"));
    assert_non_null(strstr(buf, "\n    folded by the help printer.\n") ||
                    strstr(buf, "\n    by the help printer.\n") || strstr(buf, "\n    printer.\n"));
    assert_non_null(strstr(buf, "\n  --flag a flag whose help goes on"));
    assert_non_null(strstr(buf, "\n         so it wraps\n") || strstr(buf, "\n         wraps\n") ||
                    strstr(buf, " so it wraps\n"));
    assert_non_null(strstr(buf, "\n  --a-very-long-option-name-indeed SOMETHING\n         its help under it [x]\n"));
    free(buf);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_size_units),
        cmocka_unit_test(test_parse_size_errors),
        cmocka_unit_test(test_atomic_write),
        cmocka_unit_test(test_error_kinds),
        cmocka_unit_test(test_error_scope),
        cmocka_unit_test(test_fmt_bytes),
        cmocka_unit_test(test_opts_values),
        cmocka_unit_test(test_opts_errors),
        cmocka_unit_test(test_opts_operands_and_help),
        cmocka_unit_test(test_opts_help),
        cmocka_unit_test(test_opts_help_width),
        cmocka_unit_test(test_child_exit_status),
        cmocka_unit_test(test_child_capture),
        cmocka_unit_test(test_child_capture_apart),
        cmocka_unit_test(test_child_log),
        cmocka_unit_test(test_child_timeout),
        cmocka_unit_test(test_child_stop),
        cmocka_unit_test(test_child_group),
        cmocka_unit_test(test_child_fn),
        cmocka_unit_test(test_child_tick_after_end),
        cmocka_unit_test(test_child_death_signal),
        cmocka_unit_test(test_child_death_grandchild),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
