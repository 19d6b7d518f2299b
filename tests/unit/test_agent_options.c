/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the agent's size parsing and option errors
 * (guest-agent/options.c), and its block-device signatures
 * (guest-agent/blocksig.c). */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "blocksig.h"
#include "options.h"
#include "sys.h"

#include <unistd.h>

static void
test_parse_size(void **state)
{
    uint64_t v = 0;

    assert_int_equal(agent_parse_size("512", 1ull << 20, &v), 0);
    assert_true(v == 512ull << 20);
    assert_int_equal(agent_parse_size("4k", 1, &v), 0);
    assert_true(v == 4096);
    assert_int_equal(agent_parse_size("4K", 1ull << 20, &v), 0);
    assert_true(v == 4096);
    assert_int_equal(agent_parse_size("2g", 1, &v), 0);
    assert_true(v == 2ull << 30);
    assert_int_equal(agent_parse_size("3m", 1, &v), 0);
    assert_true(v == 3ull << 20);
    assert_int_equal(agent_parse_size("1t", 1, &v), 0);
    assert_true(v == 1ull << 40);
    assert_int_equal(agent_parse_size("0", 1ull << 20, &v), 0);
    assert_true(v == 0);
    assert_int_equal(agent_parse_size("18446744073709551615", 1, &v), 0);
    assert_true(v == UINT64_MAX);
}

static void
test_parse_size_errors(void **state)
{
    const char *bad[] = {
        "", "k", "-1", "+1", " 1", "1 ", "12x", "1kk", "1kb", "1.5m", "0x10",
        "99999999999999999999", "17179869184g", NULL
    };
    uint64_t v = 77;

    for (int i = 0; bad[i]; i++) {
        assert_int_equal(agent_parse_size(bad[i], 1, &v), -1);
        assert_true(v == 77);
    }
    assert_int_equal(agent_parse_size(NULL, 1, &v), -1);
}

/* decimal or 0x hex, as fio reads numbers: a leading 0 is not octal */
static void
test_parse_u64(void **state)
{
    const char *bad[] = {
        "", "-1", "+1", " 1", "1 ", "0x", "0x-1", "0x 1", "08x", "1e3", "a",
        "18446744073709551616", "0x10000000000000000", NULL
    };
    uint64_t v = 0;

    assert_int_equal(agent_parse_u64("010", &v), 0);
    assert_true(v == 10);
    assert_int_equal(agent_parse_u64("08", &v), 0);
    assert_true(v == 8);
    assert_int_equal(agent_parse_u64("0x10", &v), 0);
    assert_true(v == 16);
    assert_int_equal(agent_parse_u64("0XfF", &v), 0);
    assert_true(v == 255);
    assert_int_equal(agent_parse_u64("18446744073709551615", &v), 0);
    assert_true(v == UINT64_MAX);
    v = 77;
    for (int i = 0; bad[i]; i++) {
        assert_int_equal(agent_parse_u64(bad[i], &v), -1);
        assert_true(v == 77);
    }
    assert_int_equal(agent_parse_u64(NULL, &v), -1);
}

/* Parse a command line given as one string (space-separated). */
static int
parse(const char *line, struct agent_config *cfg, char *err, size_t errlen)
{
    static char buf[1024];
    char *argv[64];
    int argc = 0;

    snprintf(buf, sizeof(buf), "vmdiskcmp-agent %s", line);
    for (char *tok = strtok(buf, " "); tok && argc < 63; tok = strtok(NULL, " "))
        argv[argc++] = tok;
    argv[argc] = NULL;
    agent_config_init(cfg);
    err[0] = '\0';
    return agent_options_parse(argc, argv, cfg, err, errlen);
}

static void
test_defaults_and_full_line(void **state)
{
    struct agent_config cfg;
    char err[512];

    assert_int_equal(parse("-d /mnt", &cfg, err, sizeof(err)), AGENT_OPT_RUN);
    assert_string_equal(cfg.target_path, "/mnt");
    assert_int_equal(cfg.chunk_size, 8192);
    assert_int_equal(cfg.seeks, 8192);
    assert_int_equal(cfg.seek_procs, 5);
    assert_int_equal(cfg.files, 16);
    assert_int_equal(cfg.file_dirs, 1);
    assert_int_equal(cfg.repeats, 1);
    assert_false(cfg.file_size_given);
    assert_false(cfg.seed_given);
    assert_true(cfg.per_char_size == 3ull << 20);

    assert_int_equal(parse("-d /mnt/t -s 1g:4k:1000:3 -n 4:100k:1k:8:16k -r 256 "
                           "-x 3 --seed 0x2a -m dom0 --target lvm "
                           "--repetition 5 -b -D --per-char=stdio "
                           "--per-char-size 1 --drop-caches --destroy-data "
                           "-f --csv --csv-file r.csv --json r.json "
                           "--trace-digest -q", &cfg, err, sizeof(err)),
                     AGENT_OPT_RUN);
    assert_true(cfg.file_size == 1ull << 30);
    assert_int_equal(cfg.chunk_size, 4096);
    assert_int_equal(cfg.seeks, 1000);
    assert_int_equal(cfg.seek_procs, 3);
    assert_int_equal(cfg.files, 4);
    assert_true(cfg.file_max_size == 100 * 1024);
    assert_true(cfg.file_min_size == 1024);
    assert_int_equal(cfg.file_dirs, 8);
    assert_int_equal(cfg.file_chunk_size, 16384);
    assert_true(cfg.ram_mib == 256);
    assert_int_equal(cfg.repeats, 3);
    assert_true(cfg.seed == 42 && cfg.seed_given);
    assert_string_equal(cfg.machine, "dom0");
    assert_string_equal(cfg.target_name, "lvm");
    assert_int_equal(cfg.repetition0, 5);
    assert_true(cfg.fsync_every_write && cfg.direct_io && cfg.drop_caches
                && cfg.destroy_data && cfg.force && cfg.csv && cfg.trace_digest
                && cfg.quiet);
    assert_int_equal(cfg.per_char, AGENT_PER_CHAR_STDIO);
    assert_true(cfg.per_char_size == 1ull << 20);
    assert_string_equal(cfg.csv_file, "r.csv");
    assert_string_equal(cfg.json_file, "r.json");

    assert_int_equal(parse("-d /dev/xvdb -z 7 --sweep", &cfg, err, sizeof(err)),
                     AGENT_OPT_RUN);
    assert_true(cfg.seed == 7);
    assert_int_equal(cfg.n_sweep_sizes, 7);
    assert_int_equal(cfg.sweep_sizes[0], 512);
    assert_int_equal(cfg.sweep_sizes[6], 1 << 20);
    assert_int_equal(parse("-d /dev/xvdb --sweep=4k,1m --direct", &cfg, err,
                           sizeof(err)), AGENT_OPT_RUN);
    assert_int_equal(cfg.n_sweep_sizes, 2);
    assert_int_equal(cfg.sweep_sizes[1], 1 << 20);
    assert_true(cfg.sweep_direct);
    assert_int_equal(parse("-d /mnt -s 0 -n 0", &cfg, err, sizeof(err)),
                     AGENT_OPT_RUN);
    assert_true(cfg.file_size == 0 && cfg.files == 0 && cfg.file_size_given);
}

static void
test_help_version(void **state)
{
    struct agent_config cfg;
    char err[512];

    assert_int_equal(parse("--help", &cfg, err, sizeof(err)), AGENT_OPT_HELP);
    assert_int_equal(parse("--version", &cfg, err, sizeof(err)),
                     AGENT_OPT_VERSION);
}

/* Each bad input gives AGENT_OPT_ERROR and one line naming it. */
static void
test_option_errors(void **state)
{
    static const struct { const char *line, *must_name; } cases[] = {
        { "-d /mnt --bogus", "--bogus" },
        { "-d /mnt -Y", "-Y" },
        { "-d /mnt -s 12x", "-s 12x" },
        { "-d /mnt -s 512:3000", "CHUNK 3000" },
        { "-d /mnt -s 512:128", "CHUNK 128" },
        { "-d /mnt -s 512:4k:0", "SEEKS 0" },
        { "-d /mnt -s 512:4k:10:0", "PROCS 0" },
        { "-d /mnt -s 1:2:3:4:5", "-s 1:2:3:4:5" },
        { "-d /mnt -s 5001k", "multiple of the chunk size" },
        { "-d /mnt -n abc", "-n abc" },
        { "-d /mnt -n 1:10:20", "MIN 20" },
        { "-d /mnt -n 1:10:0:0", "DIRS 0" },
        { "-d /mnt -n 1:10:0:1:100", "CHUNK 100" },
        { "-d /mnt -r 0", "-r 0" },
        { "-d /mnt -r lots", "-r lots" },
        { "-d /mnt -x -1", "-x -1" },
        { "-d /mnt --seed -5", "--seed -5" },
        { "-d /mnt -z 1e3", "-z 1e3" },
        { "-d /mnt --per-char=fast", "--per-char=fast" },
        { "-d /mnt --per-char-size 1q", "--per-char-size 1q" },
        { "-d /mnt --sweep=4k,,x", "block size x" },
        { "-d /mnt --sweep=0", "block size 0" },
        { "-d /mnt --repetition x", "--repetition x" },
        { "-d /mnt --target a\tb", "--target: expected printable text" },
        { "-d /mnt --target "
          "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
          "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
          "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "at most 256 bytes" },  /* 257 */
        { "-d /mnt -s", "-s" },
        { "-d /mnt --json", "--json" },
        { "-d /mnt extra", "extra" },
        { "-s 512", "missing target" },
        { "", "missing target" },
        { "-d /mnt --sweep -s 0", "--sweep" },
        { "-d /mnt --progress-fd 2", "--progress-fd 2" },
        { "-d /mnt --progress-fd 1000", "--progress-fd 1000" },
        { "-d /mnt --progress-fd 1023", "--progress-fd 1023" },   /* not open */
        { "-d /mnt --progress-fd x", "--progress-fd x" },
    };
    struct agent_config cfg;
    char err[512];

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        int rc = parse(cases[i].line, &cfg, err, sizeof(err));

        if (rc != AGENT_OPT_ERROR || !strstr(err, cases[i].must_name)
            || strchr(err, '\n'))
            fail_msg("'%s': rc %d, message '%s' (expected one line naming "
                     "'%s')", cases[i].line, rc, err, cases[i].must_name);
    }
}

/* agent_options_check_extra, what the host checks --agent-options with:
 * every option the controller or the runner sets is refused naming what
 * sets it, the others pass when their values are good and fail naming
 * the value when not; no -d is needed. */
static int
check_extra(const char *line, char *err, size_t errlen)
{
    static char buf[1024];
    char *argv[64];
    int argc = 0;

    snprintf(buf, sizeof(buf), "--agent-options %s", line);
    for (char *tok = strtok(buf, " "); tok && argc < 63; tok = strtok(NULL, " "))
        argv[argc++] = tok;
    argv[argc] = NULL;
    err[0] = '\0';
    return agent_options_check_extra(argc, argv, err, errlen);
}

static void
test_check_extra(void **state)
{
    static const struct { const char *line, *must_name; } owned[] = {
        { "-d /", "-d: vmdiskcmp gives each target its own directory" },
        { "--directory=/", "-d: vmdiskcmp gives each target" },
        { "-qd/", "-d: " },
        { "-s 512:4k", "-s: vmdiskcmp sets it from --size" },
        { "--size 1", "-s: " },
        { "-r 64", "-r: vmdiskcmp sets it from --agent-ram" },
        { "-x 2", "-x: vmdiskcmp runs one repetition per boot" },
        { "--seed 1", "--seed: vmdiskcmp sets it from --seed" },
        { "-z 1", "-z: vmdiskcmp sets it from --seed" },
        { "--target t", "--target: vmdiskcmp names each target" },
        { "--repetition 3", "--repetition: vmdiskcmp sets it from --runs" },
        { "--drop-caches", "--drop-caches: vmdiskcmp sets it" },
        { "--destroy-data", "--destroy-data: vmdiskcmp gives it to the raw workload pass only" },
        { "--json /etc/x", "--json: vmdiskcmp chooses where the agent writes" },
        { "--csv-file /etc/x", "--csv-file: vmdiskcmp chooses where the agent writes" },
        { "--job /j.fio", "--job: vmdiskcmp runs the jobs of --workload" },
        { "--workload w", "--workload: " },
        { "--progress-fd 3", "--progress-fd: the runner sets it" },
        { "--fill 50", "--fill: vmdiskcmp sets it from --fill" },
        { "--aging-seed 1", "--aging-seed: vmdiskcmp sets it from --seed" },
        { "--precondition", "--precondition: vmdiskcmp sets it from --precondition" },
        { "--passes a,b", "--passes: vmdiskcmp sets it for a thin LV" },
        { "--help", "--help: the agent would print and exit" },
        { "--version", "--version: " },
    };
    static const struct { const char *line, *must_name; } bad[] = {
        { "-z", "-z: expected an argument" },
        { "-n abc", "-n abc" },
        { "-n 1:10:20", "MIN 20" },
        { "--per-char=fast", "--per-char=fast" },
        { "--per-char-size 1q", "--per-char-size 1q" },
        { "--sweep=4k,,x", "block size x" },
        { "--bogus", "--bogus: unknown option" },
        { "-Y", "-Y: unknown option" },
        { "-n 0 extra", "extra: unexpected argument" },
    };
    static const char *const good[] = {
        "-n 0", "-n 0 -f --per-char-size 0", "-n 0 --per-char=stdio", "-b -D",
        "--sweep=4k,1m --direct", "-m host1 -q --csv --trace-digest", "",
    };
    char err[1024];

    for (size_t i = 0; i < sizeof(owned) / sizeof(owned[0]); i++)
        if (check_extra(owned[i].line, err, sizeof(err)) != -1 ||
            !strstr(err, owned[i].must_name) || !strstr(err, "(expected options vmdiskcmp does not set: -n, ")
            || strchr(err, '\n'))
            fail_msg("'%s': message '%s' (expected one line naming '%s' and the options left)",
                     owned[i].line, err, owned[i].must_name);
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        if (check_extra(bad[i].line, err, sizeof(err)) != -1 ||
            !strstr(err, bad[i].must_name) || strchr(err, '\n'))
            fail_msg("'%s': message '%s' (expected one line naming '%s')",
                     bad[i].line, err, bad[i].must_name);
    for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
        if (check_extra(good[i], err, sizeof(err)) != 0)
            fail_msg("'%s' refused: %s", good[i], err);
    /* the options left to --agent-options are the table's: none of the
     * refused ones among them */
    check_extra("-d /", err, sizeof(err));
    assert_non_null(strstr(err, "-n, -m, -b, -D, --per-char, --per-char-size, --sweep, "
                                "--direct, -f, --csv, --trace-digest, -q)"));
}

static void
test_usage_lists_every_option(void **state)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    const char *opts[] = {
        "-d", "-s", "-n", "-r", "-x", "--seed", "-z", "-m", "--target",
        "--repetition", "-b", "-D", "--per-char", "--sweep", "--direct",
        "--drop-caches", "--destroy-data", "--force", "--csv", "--json",
        "--trace-digest", "-q", "--progress-fd", NULL
    };

    agent_usage(fp);
    fclose(fp);
    for (int i = 0; opts[i]; i++)
        if (!strstr(buf, opts[i]))
            fail_msg("--help does not mention %s", opts[i]);
    free(buf);
}

/* --progress-fd N: the descriptor is taken; begin/end lines are written
 * around a test (agent_before_test, agent_record, agent_fail) */
static void
test_progress_fd(void **state)
{
    struct agent_config cfg;
    struct agent_run run;
    struct agent_ctx ctx;
    struct agent_clock c;
    char err[512], line[64], buf[256];
    int pfd[2];
    ssize_t n;

    assert_int_equal(pipe(pfd), 0);
    assert_true(pfd[1] >= 3);
    snprintf(line, sizeof(line), "-d /mnt --progress-fd %d", pfd[1]);
    assert_int_equal(parse(line, &cfg, err, sizeof(err)), AGENT_OPT_RUN);
    assert_int_equal(cfg.progress_fd, pfd[1]);
    assert_int_equal(parse("-d /mnt", &cfg, err, sizeof(err)), AGENT_OPT_RUN);
    assert_int_equal(cfg.progress_fd, -1);

    cfg.progress_fd = pfd[1];
    cfg.quiet = 1;
    memset(&run, 0, sizeof(run));
    memset(&ctx, 0, sizeof(ctx));
    ctx.cfg = &cfg;
    ctx.run = &run;
    assert_int_equal(agent_before_test(&ctx, AGENT_PUT_BLOCK), 0);
    agent_clock_start(&c);
    agent_record(&ctx, AGENT_PUT_BLOCK, &c, 1.0, 0.0);
    assert_int_equal(agent_before_test(&ctx, AGENT_GETC), 0);
    assert_int_equal(agent_fail(&ctx, AGENT_GETC, "test"), -1);
    close(pfd[1]);
    n = read(pfd[0], buf, sizeof(buf) - 1);
    assert_true(n > 0);
    buf[n] = 0;
    assert_string_equal(buf, "begin put_block\nend put_block\nbegin getc\nend getc\n");
    close(pfd[0]);
}

static void
test_blocksig(void **state)
{
    static unsigned char buf[AGENT_BLOCKSIG_PROBE_LEN];

    memset(buf, 0, sizeof(buf));
    assert_null(agent_blocksig_find(buf, sizeof(buf)));
    assert_null(agent_blocksig_find(buf, 0));

    buf[1080] = 0x53;
    buf[1081] = 0xef;
    assert_non_null(strstr(agent_blocksig_find(buf, sizeof(buf)), "ext"));
    /* a short device cannot hold the magic */
    assert_null(agent_blocksig_find(buf, 1081));
    memset(buf, 0, sizeof(buf));

    memcpy(buf + 512, "LABELONE", 8);
    memcpy(buf + 512 + 24, "LVM2 001", 8);
    assert_non_null(strstr(agent_blocksig_find(buf, sizeof(buf)), "LVM2"));
    memset(buf, 0, sizeof(buf));

    buf[510] = 0x55;
    buf[511] = 0xaa;
    assert_non_null(strstr(agent_blocksig_find(buf, sizeof(buf)), "MBR"));
    memcpy(buf + 512, "EFI PART", 8);
    assert_non_null(strstr(agent_blocksig_find(buf, sizeof(buf)), "GPT"));
    memset(buf, 0, sizeof(buf));

    memcpy(buf, "XFSB", 4);
    assert_non_null(strstr(agent_blocksig_find(buf, sizeof(buf)), "XFS"));
    memset(buf, 0, sizeof(buf));
    memcpy(buf + 65600, "_BHRfS_M", 8);
    assert_non_null(strstr(agent_blocksig_find(buf, sizeof(buf)), "btrfs"));
    memset(buf, 0, sizeof(buf));
    memcpy(buf + 4086, "SWAPSPACE2", 10);
    assert_non_null(strstr(agent_blocksig_find(buf, sizeof(buf)), "swap"));
    memset(buf, 0, sizeof(buf));
    /* mkswap -p 65536: the signature ends the first 64 KiB page */
    memcpy(buf + 65526, "SWAPSPACE2", 10);
    assert_non_null(strstr(agent_blocksig_find(buf, sizeof(buf)), "swap"));
    memset(buf + 65526, 0, 10);
    memcpy(buf + 16374, "SWAP-SPACE", 10);
    assert_non_null(strstr(agent_blocksig_find(buf, sizeof(buf)), "swap"));
}

/* MD RAID superblocks at a device's end: 0.90 and 1.0 (mdadm's offsets) */
static void
test_blocksig_end(void **state)
{
    static unsigned char tail[AGENT_BLOCKSIG_TAIL_LEN];
    static const unsigned char le[4] = { 0xfc, 0x4e, 0x2b, 0xa9 };
    static const unsigned char be[4] = { 0xa9, 0x2b, 0x4e, 0xfc };
    const uint64_t size = (32ull << 20) + 12345;    /* not a 64 KiB multiple */
    const uint64_t start = size - sizeof(tail);
    uint64_t off;

    (void)state;
    memset(tail, 0, sizeof(tail));
    assert_null(agent_blocksig_find_end(tail, sizeof(tail), size));

    /* 0.90: (size & ~64 KiB) - 64 KiB, either byte order */
    off = (size & ~(uint64_t)65535) - 65536;
    memcpy(tail + (off - start), le, 4);
    assert_non_null(strstr(agent_blocksig_find_end(tail, sizeof(tail), size), "0.90"));
    memcpy(tail + (off - start), be, 4);
    assert_non_null(strstr(agent_blocksig_find_end(tail, sizeof(tail), size), "0.90"));
    memset(tail, 0, sizeof(tail));

    /* 1.0: ((sectors - 16) & ~7) sectors */
    off = ((size / 512 - 16) & ~(uint64_t)7) * 512;
    memcpy(tail + (off - start), le, 4);
    assert_non_null(strstr(agent_blocksig_find_end(tail, sizeof(tail), size), "1.0"));
    /* one sector off: not a superblock */
    memset(tail, 0, sizeof(tail));
    memcpy(tail + (off - start) + 512, le, 4);
    assert_null(agent_blocksig_find_end(tail, sizeof(tail), size));

    /* the backup GPT header in the last sector, 512 bytes or 4 KiB */
    memset(tail, 0, sizeof(tail));
    memcpy(tail + sizeof(tail) - 512, "EFI PART", 8);
    assert_non_null(strstr(agent_blocksig_find_end(tail, sizeof(tail), size), "GPT partition table (backup header"));
    memset(tail, 0, sizeof(tail));
    memcpy(tail + sizeof(tail) - 4096, "EFI PART", 8);
    assert_non_null(strstr(agent_blocksig_find_end(tail, sizeof(tail), size), "GPT"));
    memset(tail, 0, sizeof(tail));
    memcpy(tail + sizeof(tail) - 1024, "EFI PART", 8);      /* not a last sector */
    assert_null(agent_blocksig_find_end(tail, sizeof(tail), size));

    /* a tail longer than the device is no device */
    memset(tail, 0, sizeof(tail));
    assert_null(agent_blocksig_find_end(tail, sizeof(tail), 4096));
    /* a small device read whole: 1.0 needs 12 KiB, 0.90 128 KiB */
    memset(tail, 0, sizeof(tail));
    off = ((16384 / 512 - 16) & ~(uint64_t)7) * 512;
    memcpy(tail + off, le, 4);
    assert_non_null(strstr(agent_blocksig_find_end(tail, 16384, 16384), "1.0"));
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_size),
        cmocka_unit_test(test_parse_size_errors),
        cmocka_unit_test(test_parse_u64),
        cmocka_unit_test(test_defaults_and_full_line),
        cmocka_unit_test(test_help_version),
        cmocka_unit_test(test_option_errors),
        cmocka_unit_test(test_check_extra),
        cmocka_unit_test(test_usage_lists_every_option),
        cmocka_unit_test(test_progress_fd),
        cmocka_unit_test(test_blocksig),
        cmocka_unit_test(test_blocksig_end),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
