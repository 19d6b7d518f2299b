/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: command-line options and sizes (see options.h).
 * One table drives getopt_long, validation messages and --help. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "aging.h"
#include "options.h"

enum {
    OPT_SEED = 256, OPT_TARGET, OPT_REPETITION, OPT_PER_CHAR,
    OPT_PER_CHAR_SIZE, OPT_SWEEP, OPT_DIRECT, OPT_DROP_CACHES,
    OPT_DESTROY_DATA, OPT_CSV, OPT_CSV_FILE, OPT_JSON, OPT_TRACE_DIGEST,
    OPT_HELP, OPT_VERSION, OPT_JOB, OPT_WORKLOAD, OPT_PROGRESS_FD,
    OPT_FILL, OPT_AGING_SEED, OPT_PRECONDITION, OPT_PASSES,
};

#ifndef VDC_DATADIR
#define VDC_DATADIR "/usr/local/share/vmdiskcmp"
#endif

struct agent_option {
    const char *name;   /* long name, or NULL */
    int val;            /* short option character or OPT_* */
    int has_arg;        /* no_argument, required_argument, optional_argument */
    const char *arg;    /* argument name for --help */
    const char *help;
    /* NULL: an option vmdiskcmp's --agent-options may hand on; else what
     * sets it in a run (the controller or the runner), which
     * agent_options_check_extra names when refusing it */
    const char *host;
};

static const struct agent_option options[] = {
    { "directory", 'd', required_argument, "DIR|DEV",
      "target: a directory on a mounted filesystem (all tests) or a block "
      "device (seeks and --sweep only); required",
      "vmdiskcmp gives each target its own directory or device" },
    { "size", 's', required_argument, "SIZE[:CHUNK[:SEEKS[:PROCS]]]",
      "test file size (bare number: MiB; or N[k|m|g]), default 2x RAM; "
      "CHUNK block size (default 8k, power of 2, 256..1m); SEEKS (8192) and "
      "seeker PROCS (5) as bonnie++ 2.00a; 0 skips the sequential and seek "
      "tests",
      "vmdiskcmp sets it from --size (dom0: --dom0-size)" },
    { "number", 'n', required_argument, "NUM[:MAX[:MIN[:DIRS[:CHUNK]]]]",
      "file tests: NUM*1024 files (default 16), sizes MIN..MAX bytes "
      "(default 0), in DIRS directories (1), written CHUNK at a time (8k); "
      "0 skips the file tests", NULL },
    { "ram", 'r', required_argument, "MiB",
      "RAM to size for (default MemTotal)",
      "vmdiskcmp sets it from --agent-ram (dom0: --dom0-ram)" },
    { "repeat", 'x', required_argument, "N", "run the tests N times (1)",
      "vmdiskcmp runs one repetition per boot (--runs)" },
    { "seed", OPT_SEED, required_argument, "N",
      "PRNG seed, decimal or 0x hex (default: from getrandom)",
      "vmdiskcmp sets it from --seed" },
    { NULL, 'z', required_argument, "N", "same as --seed (bonnie++ -z)",
      "vmdiskcmp sets it from --seed" },
    { "machine", 'm', required_argument, "NAME",
      "machine name in the table and CSV (default: uname nodename)", NULL },
    { "target", OPT_TARGET, required_argument, "NAME",
      "runs[].target in the JSON (default: basename of -d)",
      "vmdiskcmp names each target" },
    { "repetition", OPT_REPETITION, required_argument, "N",
      "runs[].repetition of the first run (0); -x runs count up from it",
      "vmdiskcmp sets it from --runs" },
    { "fsync", 'b', no_argument, NULL,
      "fsync after every write where bonnie++ -b does (seek updates, file "
      "creation and its directory)", NULL },
    { "direct-io", 'D', no_argument, NULL,
      "O_DIRECT for the block, rewrite, block read and seek tests", NULL },
    { "per-char", OPT_PER_CHAR, required_argument, "syscall|stdio",
      "per-char tests with one-byte write(2)/read(2) (bonnie++ >= 1.92, "
      "default) or putc/getc (bonnie++ 1.03)", NULL },
    { "per-char-size", OPT_PER_CHAR_SIZE, required_argument, "SIZE",
      "bytes moved by the per-char tests (bare number: MiB; default 3 as "
      "bonnie++ 2.00a; 0 skips them)", NULL },
    { "sweep", OPT_SWEEP, optional_argument, "LIST",
      "instead of the bonnie++ tests, read and write SIZE sequentially at "
      "each block size of LIST (default 512,4k,8k,16k,32k,64k,1m)", NULL },
    { "direct", OPT_DIRECT, no_argument, NULL, "O_DIRECT in the sweep", NULL },
    { "drop-caches", OPT_DROP_CACHES, no_argument, NULL,
      "sync and drop the page cache before each test (root)",
      "vmdiskcmp sets it (--no-drop-caches turns it off)" },
    { "destroy-data", OPT_DESTROY_DATA, no_argument, NULL,
      "allow writing to a block device that carries a filesystem, "
      "partition table or LVM signature",
      "vmdiskcmp gives it to the raw workload pass only (--workload-on raw)" },
    { "force", 'f', no_argument, NULL, "allow a size under 2x RAM", NULL },
    { "csv", OPT_CSV, no_argument, NULL,
      "print bonnie++ 2.00a CSV (format 1.98) instead of the table", NULL },
    { "csv-file", OPT_CSV_FILE, required_argument, "FILE",
      "also write the CSV to FILE (atomically)",
      "vmdiskcmp chooses where the agent writes, inside the result directory" },
    { "json", OPT_JSON, required_argument, "FILE",
      "write the result JSON (doc/result-format.md) to FILE (atomically)",
      "vmdiskcmp chooses where the agent writes, inside the result directory" },
    { "trace-digest", OPT_TRACE_DIGEST, no_argument, NULL,
      "print the op-sequence digest of each run", NULL },
    { "job", OPT_JOB, required_argument, "FILE",
      "instead of the bonnie++ tests, run the fio job file FILE with the "
      "job engine (repeatable: one after the other; vmdiskcmp-agent(1))",
      "vmdiskcmp runs the jobs of --workload" },
    { "workload", OPT_WORKLOAD, required_argument, "NAME",
      "--job with the shipped profile NAME.fio (from $VDC_WORKLOAD_DIR, "
      "else " VDC_DATADIR "/workloads)",
      "vmdiskcmp runs the jobs of --workload" },
    { "fill", OPT_FILL, required_argument, "PERCENT",
      "before the tests, fill the target's filesystem to PERCENT % used "
      "(1-95) with seeded files in DIR/vmdiskcmp-fill, some deleted again "
      "on the way; the free-extent histogram goes into the JSON",
      "vmdiskcmp sets it from --fill" },
    { "aging-seed", OPT_AGING_SEED, required_argument, "N",
      "seed of --fill's files and --precondition's offsets (default: --seed)",
      "vmdiskcmp sets it from --seed" },
    { "precondition", OPT_PRECONDITION, optional_argument, "MAX[:WINDOW]",
      "before the tests, write the block device once sequentially, then "
      "randomly (4k, iodepth 32) until fio's steady state "
      "(ss=iops_slope:0.5% over WINDOW seconds, 30, after WINDOW/3) or MAX "
      "seconds (1800)",
      "vmdiskcmp sets it from --precondition" },
    { "passes", OPT_PASSES, required_argument, "LIST",
      "run the tests once per label of LIST (comma-separated, e.g. "
      "first-write,overwrite), nothing undone between; each sample names "
      "its pass",
      "vmdiskcmp sets it for a thin LV" },
    { "quiet", 'q', no_argument, NULL, "no progress messages", NULL },
    { "progress-fd", OPT_PROGRESS_FD, required_argument, "N",
      "write 'begin ID' and 'end ID' lines to open descriptor N as each "
      "bonnie++ test starts and ends (the runner's progress block)",
      "the runner sets it" },
    { "help", OPT_HELP, no_argument, NULL, "this text",
      "the agent would print and exit without testing" },
    { "version", OPT_VERSION, no_argument, NULL, "print the version",
      "the agent would print and exit without testing" },
};
#define N_OPTIONS (sizeof(options) / sizeof(options[0]))

void
agent_config_init(struct agent_config *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->chunk_size = AGENT_DEFAULT_CHUNK;
    cfg->seeks = AGENT_DEFAULT_SEEKS;
    cfg->seek_procs = AGENT_DEFAULT_SEEK_PROCS;
    cfg->per_char_size = AGENT_DEFAULT_PER_CHAR;
    cfg->files = AGENT_DEFAULT_FILES;
    cfg->file_dirs = 1;
    cfg->file_chunk_size = AGENT_DEFAULT_CHUNK;
    cfg->repeats = 1;
    cfg->per_char = AGENT_PER_CHAR_SYSCALL;
    cfg->progress_fd = -1;
}

int
agent_parse_size(const char *s, uint64_t bare_unit, uint64_t *out)
{
    uint64_t v = 0, mult = bare_unit;
    const char *p = s;

    if (!s || !isdigit((unsigned char)*p))
        return -1;
    for (; isdigit((unsigned char)*p); p++) {
        uint64_t d = (uint64_t)(*p - '0');

        if (v > (UINT64_MAX - d) / 10)
            return -1;
        v = v * 10 + d;
    }
    if (*p) {
        switch (tolower((unsigned char)*p)) {
        case 'k': mult = 1ull << 10; break;
        case 'm': mult = 1ull << 20; break;
        case 'g': mult = 1ull << 30; break;
        case 't': mult = 1ull << 40; break;
        default: return -1;
        }
        if (p[1])
            return -1;
    }
    if (mult && v > UINT64_MAX / mult)
        return -1;
    *out = v * mult;
    return 0;
}

int
agent_parse_u64(const char *s, uint64_t *out)
{
    const char *digits = s;
    char *end;
    unsigned long long v;
    int base = 10;

    if (!s)
        return -1;
    /* fio's str_to_decimal: base 16 after 0x, else base 10 (a leading
     * zero is not octal: iodepth=010 is 10) */
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        digits = s + 2;
        base = 16;
    }
    if (!isxdigit((unsigned char)*digits))
        return -1;              /* empty, a sign or a space: strtoull takes them */
    errno = 0;
    v = strtoull(digits, &end, base);
    if (errno || *end)
        return -1;
    *out = v;
    return 0;
}

static int
fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return AGENT_OPT_ERROR;
}

static int
is_pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

/* Split @s at ':' into at most @max fields (in place in @buf). */
static int
split_colon(const char *s, char *buf, size_t buflen, char **field, int max)
{
    int n = 0;

    if (strlen(s) >= buflen)
        return -1;
    strcpy(buf, s);
    field[n++] = buf;
    for (char *p = buf; *p; p++) {
        if (*p == ':') {
            if (n == max)
                return -1;
            *p = '\0';
            field[n++] = p + 1;
        }
    }
    return n;
}

static int
parse_s(const char *arg, struct agent_config *cfg, char *err, size_t errlen)
{
    char buf[256], *f[4];
    uint64_t v;
    int n = split_colon(arg, buf, sizeof(buf), f, 4);
    const char *what = "expected SIZE[:CHUNK[:SEEKS[:PROCS]]], SIZE in MiB "
                       "or N[k|m|g]";

    if (n < 1 || agent_parse_size(f[0], 1ull << 20, &v) < 0)
        return fail(err, errlen, "-s %s: %s", arg, what);
    cfg->file_size = v;
    cfg->file_size_given = 1;
    if (n >= 2) {
        if (agent_parse_size(f[1], 1, &v) < 0 || !is_pow2(v) || v < 256
            || v > (1u << 20))
            return fail(err, errlen, "-s %s: CHUNK %s: expected a power of 2 "
                        "from 256 to 1m", arg, f[1]);
        cfg->chunk_size = (uint32_t)v;
    }
    if (n >= 3) {
        if (agent_parse_size(f[2], 1, &v) < 0 || v < 1 || v > (1u << 30))
            return fail(err, errlen, "-s %s: SEEKS %s: expected a count "
                        "from 1 to 1g", arg, f[2]);
        cfg->seeks = (uint32_t)v;
    }
    if (n >= 4) {
        if (agent_parse_size(f[3], 1, &v) < 0 || v < 1 || v > 256)
            return fail(err, errlen, "-s %s: PROCS %s: expected 1 to 256 "
                        "seeker processes", arg, f[3]);
        cfg->seek_procs = (uint32_t)v;
    }
    return 0;
}

static int
parse_n(const char *arg, struct agent_config *cfg, char *err, size_t errlen)
{
    char buf[256], *f[5];
    uint64_t v;
    int n = split_colon(arg, buf, sizeof(buf), f, 5);

    if (n < 1 || agent_parse_size(f[0], 1, &v) < 0)
        return fail(err, errlen, "-n %s: expected NUM[:MAX[:MIN[:DIRS"
                    "[:CHUNK]]]], NUM a count of 1024 files", arg);
    /* bonnie++ -n takes an 'm' suffix for millions of files: we take k/m
     * as binary multiples of the 1024-file unit, like its size_from_str. */
    if (v > (1u << 20))
        return fail(err, errlen, "-n %s: NUM %s: expected at most 1m "
                    "(units of 1024 files)", arg, f[0]);
    cfg->files = (uint32_t)v;
    if (n >= 2) {
        if (agent_parse_size(f[1], 1, &v) < 0 || v > (1ull << 31))
            return fail(err, errlen, "-n %s: MAX %s: expected a size in "
                        "bytes or N[k|m|g] up to 2g", arg, f[1]);
        cfg->file_max_size = v;
    }
    if (n >= 3) {
        if (agent_parse_size(f[2], 1, &v) < 0 || v > cfg->file_max_size)
            return fail(err, errlen, "-n %s: MIN %s: expected a size in "
                        "bytes not above MAX", arg, f[2]);
        cfg->file_min_size = v;
    }
    if (n >= 4) {
        if (agent_parse_size(f[3], 1, &v) < 0 || v < 1 || v > 99999)
            return fail(err, errlen, "-n %s: DIRS %s: expected 1 to 99999 "
                        "directories", arg, f[3]);
        cfg->file_dirs = (uint32_t)v;
    }
    if (n >= 5) {
        if (agent_parse_size(f[4], 1, &v) < 0 || !is_pow2(v) || v < 256
            || v > (1u << 20))
            return fail(err, errlen, "-n %s: CHUNK %s: expected a power of "
                        "2 from 256 to 1m", arg, f[4]);
        cfg->file_chunk_size = (uint32_t)v;
    }
    return 0;
}

static int
parse_sweep(const char *arg, struct agent_config *cfg, char *err,
            size_t errlen)
{
    static const uint32_t defaults[] = {
        512, 4096, 8192, 16384, 32768, 65536, 1048576
    };
    char buf[512];
    char *save = NULL, *tok;

    cfg->sweep = 1;
    cfg->n_sweep_sizes = 0;
    if (!arg) {
        memcpy(cfg->sweep_sizes, defaults, sizeof(defaults));
        cfg->n_sweep_sizes = sizeof(defaults) / sizeof(defaults[0]);
        return 0;
    }
    if (strlen(arg) >= sizeof(buf) || !*arg)
        return fail(err, errlen, "--sweep=%s: expected a comma-separated "
                    "list of block sizes", arg);
    strcpy(buf, arg);
    for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        uint64_t v;

        if (agent_parse_size(tok, 1, &v) < 0 || v < 1 || v > (64u << 20))
            return fail(err, errlen, "--sweep=%s: block size %s: expected "
                        "bytes or N[k|m], 1 to 64m", arg, tok);
        if (cfg->n_sweep_sizes == AGENT_SWEEP_MAX)
            return fail(err, errlen, "--sweep=%s: expected at most %d "
                        "block sizes", arg, AGENT_SWEEP_MAX);
        cfg->sweep_sizes[cfg->n_sweep_sizes++] = (uint32_t)v;
    }
    if (!cfg->n_sweep_sizes)
        return fail(err, errlen, "--sweep=%s: expected a comma-separated "
                    "list of block sizes", arg);
    return 0;
}

static int
parse_count(const char *opt, const char *arg, uint64_t min, uint64_t max,
            uint64_t *out, char *err, size_t errlen)
{
    uint64_t v;

    if (agent_parse_u64(arg, &v) < 0 || v < min || v > max)
        return fail(err, errlen, "%s %s: expected a whole number from "
                    "%llu to %llu", opt, arg, (unsigned long long)min,
                    (unsigned long long)max);
    *out = v;
    return 0;
}

/* --job FILE, or --workload NAME: DIR/NAME.fio with DIR from
 * $VDC_WORKLOAD_DIR, else the installed profiles. */
static int
add_job_file(struct agent_config *cfg, int workload, const char *arg,
             char *err, size_t errlen)
{
    static char paths[AGENT_JOB_FILES_MAX][4096];
    const char *dir = getenv("VDC_WORKLOAD_DIR");

    if (cfg->n_job_files == AGENT_JOB_FILES_MAX)
        return fail(err, errlen, "%s %s: expected at most %d job files",
                    workload ? "--workload" : "--job", arg,
                    AGENT_JOB_FILES_MAX);
    if (!*arg)
        return fail(err, errlen, "%s '': expected %s",
                    workload ? "--workload" : "--job",
                    workload ? "a profile name" : "a job file");
    if (!workload) {
        cfg->job_files[cfg->n_job_files++] = arg;
        return 0;
    }
    if (strchr(arg, '/') || arg[0] == '.')
        return fail(err, errlen, "--workload %s: expected a profile name "
                    "(e.g. randread-4k-qd32); give a file with --job", arg);
    if (!dir || !*dir)
        dir = VDC_DATADIR "/workloads";
    if ((size_t)snprintf(paths[cfg->n_job_files], sizeof(paths[0]),
                         "%s/%s.fio", dir, arg) >= sizeof(paths[0]))
        return fail(err, errlen, "--workload %s: path too long", arg);
    cfg->job_files[cfg->n_job_files] = paths[cfg->n_job_files];
    cfg->n_job_files++;
    return 0;
}

/* The table's name of the option getopt returned as @c: "-d" or
 * "--json" (the short name when it has one). */
static const struct agent_option *
option_of(int c)
{
    for (size_t i = 0; i < N_OPTIONS; i++)
        if (options[i].val == c)
            return &options[i];
    return NULL;
}

static void
option_name(const struct agent_option *o, char *buf, size_t len)
{
    if (o->val < 256)
        snprintf(buf, len, "-%c", o->val);
    else
        snprintf(buf, len, "--%s", o->name);
}

/* "-n, -b, ..., --trace-digest": the options the table leaves to
 * --agent-options, for the refusal's message. */
static const char *
extra_names(void)
{
    static char names[512];
    size_t n = 0;

    if (names[0])
        return names;
    for (size_t i = 0; i < N_OPTIONS; i++) {
        char name[32];

        if (options[i].host)
            continue;
        option_name(&options[i], name, sizeof(name));
        n += (size_t)snprintf(names + n, sizeof(names) - n, "%s%s",
                              n ? ", " : "", name);
        if (n >= sizeof(names))
            break;
    }
    return names;
}

/* agent_options_parse, or with @extra the check of --agent-options: an
 * option the table marks as set in a run (.host) is refused naming what
 * sets it, and no -d is needed. */
static int
parse_options(int argc, char *argv[], struct agent_config *cfg, int extra,
              char *err, size_t errlen)
{
    struct option longopts[N_OPTIONS + 1];
    char shortopts[3 * N_OPTIONS + 2];
    size_t nl = 0, ns = 0;
    uint64_t v = 0;
    int c;

    shortopts[ns++] = ':';
    for (size_t i = 0; i < N_OPTIONS; i++) {
        if (options[i].name) {
            longopts[nl].name = options[i].name;
            longopts[nl].has_arg = options[i].has_arg;
            longopts[nl].flag = NULL;
            longopts[nl].val = options[i].val;
            nl++;
        }
        if (options[i].val < 256) {
            shortopts[ns++] = (char)options[i].val;
            if (options[i].has_arg == required_argument)
                shortopts[ns++] = ':';
        }
    }
    memset(&longopts[nl], 0, sizeof(longopts[nl]));
    shortopts[ns] = '\0';

    optind = 0;     /* full re-initialisation (glibc and musl) */
    opterr = 0;
    while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        const struct agent_option *o = option_of(c);

        if (extra && o && o->host) {
            char name[32];

            option_name(o, name, sizeof(name));
            return fail(err, errlen, "%s: %s (expected options vmdiskcmp "
                        "does not set: %s)", name, o->host, extra_names());
        }
        switch (c) {
        case 'd':
            if (!*optarg)
                return fail(err, errlen, "-d '': expected a directory or "
                            "block device");
            cfg->target_path = optarg;
            break;
        case 's':
            if (parse_s(optarg, cfg, err, errlen) < 0)
                return AGENT_OPT_ERROR;
            break;
        case 'n':
            if (parse_n(optarg, cfg, err, errlen) < 0)
                return AGENT_OPT_ERROR;
            break;
        case 'r':
            if (parse_count("-r", optarg, 1, 1ull << 40, &v, err, errlen) < 0)
                return AGENT_OPT_ERROR;
            cfg->ram_mib = v;
            cfg->ram_given = 1;
            break;
        case 'x':
            if (parse_count("-x", optarg, 1, 100000, &v, err, errlen) < 0)
                return AGENT_OPT_ERROR;
            cfg->repeats = (int)v;
            break;
        case 'z':
        case OPT_SEED:
            if (agent_parse_u64(optarg, &cfg->seed) < 0)
                return fail(err, errlen, "%s %s: expected an unsigned 64-bit "
                            "number (decimal or 0x hex)",
                            c == 'z' ? "-z" : "--seed", optarg);
            cfg->seed_given = 1;
            break;
        case 'm':
            cfg->machine = optarg;
            break;
        case OPT_TARGET: {
            /* the rule vmdiskcmp's loader applies to target names
             * (vdc_target_name_ok, VDC_TARGET_NAME_MAX): a name it would
             * refuse is refused here, before a result is written */
            const unsigned char *q;

            if (!*optarg)
                return fail(err, errlen, "--target '': expected a name");
            for (q = (const unsigned char *)optarg; *q && *q >= 0x20 && *q != 0x7f; q++)
                ;
            if (*q || q - (const unsigned char *)optarg > 256)
                return fail(err, errlen, "--target: expected printable text of at most 256 bytes "
                            "(no control characters)");
            cfg->target_name = optarg;
            break;
        }
        case OPT_REPETITION:
            if (parse_count("--repetition", optarg, 0, 1000000000, &v, err,
                            errlen) < 0)
                return AGENT_OPT_ERROR;
            cfg->repetition0 = (int)v;
            break;
        case 'b':
            cfg->fsync_every_write = 1;
            break;
        case 'D':
            cfg->direct_io = 1;
            break;
        case OPT_PER_CHAR:
            if (!strcmp(optarg, "syscall"))
                cfg->per_char = AGENT_PER_CHAR_SYSCALL;
            else if (!strcmp(optarg, "stdio"))
                cfg->per_char = AGENT_PER_CHAR_STDIO;
            else
                return fail(err, errlen, "--per-char=%s: expected syscall "
                            "or stdio", optarg);
            break;
        case OPT_PER_CHAR_SIZE:
            if (agent_parse_size(optarg, 1ull << 20, &cfg->per_char_size) < 0)
                return fail(err, errlen, "--per-char-size %s: expected MiB "
                            "or N[k|m|g]", optarg);
            break;
        case OPT_SWEEP:
            if (parse_sweep(optarg, cfg, err, errlen) < 0)
                return AGENT_OPT_ERROR;
            break;
        case OPT_DIRECT:
            cfg->sweep_direct = 1;
            break;
        case OPT_DROP_CACHES:
            cfg->drop_caches = 1;
            break;
        case OPT_PROGRESS_FD: {
            uint64_t v;

            if (agent_parse_u64(optarg, &v) < 0 || v < 3 || v > 1023 ||
                fcntl((int)v, F_GETFD) < 0)
                return fail(err, errlen, "--progress-fd %s: expected an open descriptor "
                            "3..1023", optarg);
            cfg->progress_fd = (int)v;
            break;
        }
        case OPT_DESTROY_DATA:
            cfg->destroy_data = 1;
            break;
        case OPT_FILL:
            if (agent_fill_percent_parse(optarg, &cfg->fill_percent, err, errlen) < 0)
                return AGENT_OPT_ERROR;
            break;
        case OPT_AGING_SEED:
            if (agent_parse_u64(optarg, &cfg->aging_seed) < 0)
                return fail(err, errlen, "--aging-seed %s: expected an unsigned "
                            "64-bit number (decimal or 0x hex)", optarg);
            cfg->aging_seed_given = 1;
            break;
        case OPT_PRECONDITION:
            if (agent_precondition_parse(optarg, &cfg->precondition_s,
                                         &cfg->precondition_window_s, err, errlen) < 0)
                return AGENT_OPT_ERROR;
            break;
        case OPT_PASSES:
            if (agent_passes_parse(optarg, cfg->passes, &cfg->n_passes, err, errlen) < 0)
                return AGENT_OPT_ERROR;
            break;
        case 'f':
            cfg->force = 1;
            break;
        case OPT_CSV:
            cfg->csv = 1;
            break;
        case OPT_CSV_FILE:
            cfg->csv_file = optarg;
            break;
        case OPT_JSON:
            cfg->json_file = optarg;
            break;
        case OPT_TRACE_DIGEST:
            cfg->trace_digest = 1;
            break;
        case 'q':
            cfg->quiet = 1;
            break;
        case OPT_JOB:
        case OPT_WORKLOAD:
            if (add_job_file(cfg, c == OPT_WORKLOAD, optarg, err, errlen) < 0)
                return AGENT_OPT_ERROR;
            break;
        case OPT_HELP:
            return AGENT_OPT_HELP;
        case OPT_VERSION:
            return AGENT_OPT_VERSION;
        case ':':
            if (optopt && optopt < 256)
                return fail(err, errlen, "-%c: expected an argument", optopt);
            return fail(err, errlen, "%s: expected an argument",
                        argv[optind - 1]);
        default:
            if (optopt && optopt < 256)
                return fail(err, errlen, "-%c: unknown option (see --help)",
                            optopt);
            return fail(err, errlen, "%s: unknown option (see --help)",
                        argv[optind - 1]);
        }
    }
    if (optind < argc)
        return fail(err, errlen, "%s: unexpected argument (options only; "
                    "see --help)", argv[optind]);
    if (!cfg->target_path && !extra)
        return fail(err, errlen, "missing target: expected -d DIR|DEV");
    if (cfg->file_size && cfg->file_size % cfg->chunk_size)
        return fail(err, errlen, "-s: size %llu bytes: expected a multiple "
                    "of the chunk size %u", (unsigned long long)cfg->file_size,
                    cfg->chunk_size);
    if (cfg->n_job_files && (cfg->sweep || cfg->file_size_given))
        return fail(err, errlen, "%s: not with --job/--workload (the job "
                    "file sets rw=, bs= and size=)",
                    cfg->sweep ? "--sweep" : "-s");
    if (cfg->sweep && cfg->file_size_given && !cfg->file_size)
        return fail(err, errlen, "-s 0: expected a size above 0 for --sweep");
    return AGENT_OPT_RUN;
}

int
agent_options_parse(int argc, char *argv[], struct agent_config *cfg,
                    char *err, size_t errlen)
{
    return parse_options(argc, argv, cfg, 0, err, errlen);
}

int
agent_options_check_extra(int argc, char *argv[], char *err, size_t errlen)
{
    struct agent_config cfg;

    agent_config_init(&cfg);
    return parse_options(argc, argv, &cfg, 1, err, errlen) == AGENT_OPT_RUN
               ? 0 : -1;
}

void
agent_usage(FILE *fp)
{
    fprintf(fp, "usage: vmdiskcmp-agent -d DIR|DEV [options]\n"
            "A static, seeded, bonnie++ 2.00a-compatible disk benchmark "
            "(vmdiskcmp %s).\n\n", vdc_agent_version);
    for (size_t i = 0; i < N_OPTIONS; i++) {
        const struct agent_option *o = &options[i];
        char head[96];
        int n = 0;

        if (o->val < 256)
            n += snprintf(head + n, sizeof(head) - (size_t)n, "-%c%s",
                          o->val, o->name ? ", " : "");
        if (o->name)
            n += snprintf(head + n, sizeof(head) - (size_t)n, "--%s",
                          o->name);
        if (o->arg) {
            if (o->has_arg == optional_argument)
                snprintf(head + n, sizeof(head) - (size_t)n, "[=%s]", o->arg);
            else
                snprintf(head + n, sizeof(head) - (size_t)n, " %s", o->arg);
        }
        fprintf(fp, "  %s\n      %s\n", head, o->help);
    }
    fprintf(fp, "\nOutput: the bonnie++ table on stdout (or CSV with --csv); "
            "the seed on stderr.\nExit status: 0 ok, 1 runtime failure "
            "(the test named), 2 bad input.\nSee doc/agent.md.\n");
}
