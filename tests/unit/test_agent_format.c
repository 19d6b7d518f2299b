/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Golden-file tests of the agent's renderers (guest-agent/format.c): the
 * bonnie++ table, the bonnie++ 2.00a CSV (format 1.98, 50 fields) and the
 * result JSON.  Each case tests/golden/agent/NAME.in (a command line, the
 * machine facts and the measured samples, see the parser below) sits
 * beside its expected outputs NAME.table, NAME.csv and NAME.json.
 * VDC_REGENERATE=1 rewrites the expected files on purpose. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "format.h"
#include "options.h"

struct golden_case {
    struct agent_config cfg;
    struct agent_meta meta;
    struct agent_run runs[4];
    size_t n_runs;
    char args[1024];
    char *argv[64];
    char strings[16][256];
};

static const char *
golden_dir(void)
{
    static char dir[4096];
    const char *top = getenv("top_srcdir");

    snprintf(dir, sizeof(dir), "%s/tests/golden/agent", top ? top : ".");
    return dir;
}

static int
test_id(const char *id)
{
    for (int i = 0; i < AGENT_TEST_COUNT; i++)
        if (!strcmp(agent_test_id[i], id))
            return i;
    fail_msg("unknown test id %s", id);
    return -1;
}

/* Lines: "args ...", "meta KEY VALUE", "blockdev 1", "run REP DATE SEED
 * DIGEST", "error TEXT", "sample ID done AMOUNT ELAPSED CPU LATENCY",
 * "sample ID failed TEXT", "sweep write|read BS done BYTES OPS ELAPSED USER
 * SYS LATENCY", "sweep write|read BS failed TEXT"; '#' comments. */
static void
load_case(const char *name, struct golden_case *gc)
{
    char path[4200], line[1024];
    struct agent_run *run = NULL;
    int n_str = 0;
    FILE *fp;

    memset(gc, 0, sizeof(*gc));
    agent_config_init(&gc->cfg);
    snprintf(path, sizeof(path), "%s/%s.in", golden_dir(), name);
    fp = fopen(path, "r");
    if (!fp)
        fail_msg("cannot open %s", path);
    while (fgets(line, sizeof(line), fp)) {
        char key[64], rest[1024] = "";

        line[strcspn(line, "\n")] = '\0';
        if (!line[0] || line[0] == '#')
            continue;
        if (sscanf(line, "%63s %1023[^\n]", key, rest) < 1)
            continue;
        if (!strcmp(key, "args")) {
            int argc = 0;
            char err[512];

            snprintf(gc->args, sizeof(gc->args), "vmdiskcmp-agent %s", rest);
            for (char *t = strtok(gc->args, " "); t; t = strtok(NULL, " "))
                gc->argv[argc++] = t;
            if (agent_options_parse(argc, gc->argv, &gc->cfg, err,
                                    sizeof(err)) != AGENT_OPT_RUN)
                fail_msg("%s: args: %s", path, err);
        } else if (!strcmp(key, "meta")) {
            char k[64], v[256] = "";
            uint64_t num;

            sscanf(rest, "%63s %255[^\n]", k, v);
            snprintf(gc->strings[n_str], sizeof(gc->strings[n_str]), "%s", v);
            const char *s = gc->strings[n_str++];
            if (!strcmp(k, "target")) gc->meta.target = s;
            else if (!strcmp(k, "hostname")) gc->meta.hostname = s;
            else if (!strcmp(k, "kernel")) gc->meta.kernel = s;
            else if (!strcmp(k, "cpu_model")) gc->meta.cpu_model = s;
            else if (!strcmp(k, "command_line")) gc->meta.command_line = s;
            else if (!strcmp(k, "path")) gc->meta.path = s;
            else if (!strcmp(k, "fs_type")) gc->meta.fs_type = s;
            else if (!strcmp(k, "device")) gc->meta.device = s;
            else if (!strcmp(k, "ram_mib") && sscanf(v, "%llu",
                     (unsigned long long *)&num) == 1) gc->meta.ram_mib = num;
            else fail_msg("%s: bad meta line: %s", path, line);
        } else if (!strcmp(key, "blockdev")) {
            gc->cfg.target_is_blockdev = atoi(rest);
        } else if (!strcmp(key, "run")) {
            unsigned long long seed, digest;

            run = &gc->runs[gc->n_runs++];
            if (sscanf(rest, "%d %31s %llu %llx", &run->repetition, run->date,
                       &seed, &digest) != 4)
                fail_msg("%s: bad run line: %s", path, line);
            run->seed = seed;
            run->digest = digest;
        } else if (!strcmp(key, "error") && run) {
            run->failed = 1;
            snprintf(run->error, sizeof(run->error), "%s", rest);
        } else if (!strcmp(key, "sample") && run) {
            char id[32], state[16], text[512] = "";
            struct agent_sample *s;

            if (sscanf(rest, "%31s %15s %511[^\n]", id, state, text) < 2)
                fail_msg("%s: bad sample line: %s", path, line);
            s = &run->s[test_id(id)];
            if (!strcmp(state, "failed")) {
                s->state = AGENT_FAILED;
                snprintf(s->error, sizeof(s->error), "%s", text);
            } else if (sscanf(text, "%lf %lf %lf %lf", &s->amount,
                              &s->elapsed_s, &s->cpu_s, &s->latency_s) == 4) {
                s->state = AGENT_DONE;
            } else {
                fail_msg("%s: bad sample line: %s", path, line);
            }
        } else if (!strcmp(key, "sweep") && run) {
            char op[16], state[16], text[512] = "";
            unsigned bs;
            struct agent_sweep_sample *w = &run->sweep[run->n_sweep++];
            unsigned long long bytes, ops;

            if (sscanf(rest, "%15s %u %15s %511[^\n]", op, &bs, state, text) < 3)
                fail_msg("%s: bad sweep line: %s", path, line);
            w->is_write = !strcmp(op, "write");
            w->block_size = bs;
            if (!strcmp(state, "failed")) {
                w->state = AGENT_FAILED;
                snprintf(w->error, sizeof(w->error), "%s", text);
            } else if (sscanf(text, "%llu %llu %lf %lf %lf %lf", &bytes, &ops,
                              &w->elapsed_s, &w->user_s, &w->system_s,
                              &w->latency_s) == 6) {
                w->bytes = bytes;
                w->ops = ops;
                w->state = AGENT_DONE;
            } else {
                fail_msg("%s: bad sweep line: %s", path, line);
            }
        } else {
            fail_msg("%s: bad line: %s", path, line);
        }
    }
    fclose(fp);
}

static char *
read_file(const char *path)
{
    FILE *fp = fopen(path, "r");
    char *buf;
    long n;

    if (!fp)
        return NULL;
    fseek(fp, 0, SEEK_END);
    n = ftell(fp);
    rewind(fp);
    buf = calloc(1, (size_t)n + 1);
    if (fread(buf, 1, (size_t)n, fp) != (size_t)n)
        n = 0;
    fclose(fp);
    return buf;
}

/* Compare @got with NAME.EXT, or rewrite it under VDC_REGENERATE=1. */
static void
check_golden(const char *name, const char *ext, const char *got)
{
    char path[4200];
    char *want;

    snprintf(path, sizeof(path), "%s/%s.%s", golden_dir(), name, ext);
    if (getenv("VDC_REGENERATE") && !strcmp(getenv("VDC_REGENERATE"), "1")) {
        FILE *fp = fopen(path, "w");

        if (!fp || fputs(got, fp) == EOF || fclose(fp) != 0)
            fail_msg("cannot write %s", path);
        print_message("regenerated %s\n", path);
        return;
    }
    want = read_file(path);
    if (!want)
        fail_msg("cannot read %s (VDC_REGENERATE=1 creates it)", path);
    if (strcmp(want, got) != 0) {
        print_error("%s differs; got:\n%s\n", path, got);
        free(want);
        fail_msg("%s: output differs from the golden file", path);
    }
    free(want);
}

static void
render_and_check(const char *name)
{
    struct golden_case *gc = calloc(1, sizeof(*gc));
    char *buf = NULL;
    size_t len = 0;
    FILE *fp;

    load_case(name, gc);

    fp = open_memstream(&buf, &len);
    for (size_t i = 0; i < gc->n_runs; i++)
        agent_format_table(fp, &gc->cfg, &gc->meta, &gc->runs[i]);
    fclose(fp);
    check_golden(name, "table", buf);
    free(buf);

    fp = open_memstream(&buf, &len);
    if (gc->n_runs > 1)
        agent_format_csv_header(fp);
    for (size_t i = 0; i < gc->n_runs; i++)
        agent_format_csv(fp, &gc->cfg, &gc->meta, &gc->runs[i]);
    fclose(fp);
    check_golden(name, "csv", buf);
    /* every data line has exactly 50 fields and starts with "1.98," */
    for (char *l = buf; *l; ) {
        char *end = strchr(l, '\n');
        int fields = 1;

        assert_non_null(end);
        if (strncmp(l, "format_version,", 15) != 0) {
            assert_memory_equal(l, "1.98,", 5);
            for (char *c = l; c < end; c++)
                fields += *c == ',';
            assert_int_equal(fields, AGENT_CSV_FIELDS);
        }
        l = end + 1;
    }
    free(buf);

    fp = open_memstream(&buf, &len);
    agent_format_json(fp, &gc->cfg, &gc->meta, gc->runs, gc->n_runs);
    fclose(fp);
    check_golden(name, "json", buf);
    free(buf);
    free(gc);
}

static void test_full(void **state) { render_and_check("full"); }
static void test_failed(void **state) { render_and_check("failed"); }
static void test_options(void **state) { render_and_check("options"); }
static void test_nofiles(void **state) { render_and_check("nofiles"); }
static void test_sweep(void **state) { render_and_check("sweep"); }

static void
test_rate(void **state)
{
    struct agent_sample s = { .state = AGENT_DONE, .amount = 1024,
                              .elapsed_s = 2 };

    assert_true(agent_sample_rate(&s) == 512);
    s.elapsed_s = 0;
    assert_true(agent_sample_rate(&s) == 0);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_full),
        cmocka_unit_test(test_failed),
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_nofiles),
        cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_rate),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
