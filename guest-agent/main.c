/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: main.  Checks the target and sizes, runs the tests -x
 * times, renders the table/CSV/JSON.  Exit status: 0 ok, 1 a test failed
 * (named on stderr; finished results still written), 2 bad input (one
 * line naming the input and what was expected).  Static, libc only. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "aging.h"
#include "blocksig.h"
#include "fill.h"
#include "filetests.h"
#include "job.h"
#include "format.h"
#include "options.h"
#include "seeks.h"
#include "seqio.h"
#include "sweep.h"
#include "sys.h"

/* <linux/fs.h> is not on musl-gcc's include path */
#ifndef BLKGETSIZE64
#define BLKGETSIZE64 _IOR(0x12, 114, size_t)
#endif

enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_USAGE = 2 };

static void
on_signal(int sig)
{
    (void)sig;
    agent_interrupted = 1;
}

static int
usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int
usage_error(const char *fmt, ...)
{
    va_list ap;

    fputs("vmdiskcmp-agent: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return EXIT_USAGE;
}

/* MemTotal from /proc/meminfo, in MiB; 0 when unknown. */
static uint64_t
meminfo_mib(void)
{
    FILE *fp = fopen("/proc/meminfo", "re");
    char line[256];
    unsigned long long kib = 0;

    if (!fp)
        return 0;
    while (fgets(line, sizeof(line), fp))
        if (sscanf(line, "MemTotal: %llu kB", &kib) == 1)
            break;
    fclose(fp);
    return kib / 1024;
}

static void
cpu_model(char *buf, size_t len)
{
    FILE *fp = fopen("/proc/cpuinfo", "re");
    char line[512];

    buf[0] = '\0';
    if (!fp)
        return;
    while (fgets(line, sizeof(line), fp)) {
        char *colon = strchr(line, ':');

        if (!strncmp(line, "model name", 10) && colon) {
            colon++;
            while (*colon == ' ' || *colon == '\t')
                colon++;
            colon[strcspn(colon, "\n")] = '\0';
            snprintf(buf, len, "%s", colon);
            break;
        }
    }
    fclose(fp);
}

/* Filesystem type and device of the mount holding @path (longest mount
 * point prefix in /proc/self/mounts). */
static void
mount_of(const char *path, char *type, size_t tlen, char *dev, size_t dlen)
{
    char real[PATH_MAX], line[4096], d[1024], m[1024], t[64];
    size_t best = 0;
    FILE *fp;

    type[0] = dev[0] = '\0';
    if (!realpath(path, real) || !(fp = fopen("/proc/self/mounts", "re")))
        return;
    while (fgets(line, sizeof(line), fp)) {
        size_t n;

        if (sscanf(line, "%1023s %1023s %63s", d, m, t) != 3)
            continue;
        n = strlen(m);
        if (strncmp(real, m, n) != 0
            || (real[n] != '/' && real[n] != '\0' && strcmp(m, "/") != 0))
            continue;
        if (n >= best) {
            best = n;
            snprintf(type, tlen, "%s", t);
            snprintf(dev, dlen, "%s", d[0] == '/' ? d : "");
        }
    }
    fclose(fp);
}

/* argv joined with spaces; arguments with spaces or quotes single-quoted. */
static char *
join_command_line(int argc, char *argv[])
{
    size_t len = 1;
    char *s, *p;

    for (int i = 0; i < argc; i++)
        len += 4 * strlen(argv[i]) + 3;
    if (!(s = malloc(len)))
        return NULL;
    p = s;
    for (int i = 0; i < argc; i++) {
        int quote = argv[i][0] == '\0' || strpbrk(argv[i], " \t'\"\\$") != NULL;

        if (i)
            *p++ = ' ';
        if (quote)
            *p++ = '\'';
        for (const char *q = argv[i]; *q; q++) {
            if (quote && *q == '\'') {
                memcpy(p, "'\\''", 4);
                p += 4;
            } else {
                *p++ = *q;
            }
        }
        if (quote)
            *p++ = '\'';
    }
    *p = '\0';
    return s;
}

static void
iso_date(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;

    gmtime_r(&now, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Read @len bytes at @off of @fd into @buf.  0, or -1 with errno (0 for
 * a device that ended early). */
static int
pread_exact(int fd, unsigned char *buf, size_t len, uint64_t off)
{
    size_t got = 0;

    while (got < len) {
        ssize_t r = pread(fd, buf + got, len - got, (off_t)(off + got));

        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            if (r == 0)
                errno = 0;
            return -1;
        }
        got += (size_t)r;
    }
    return 0;
}

/* Refuse to write over a block device that carries data, unless
 * --destroy-data: its first AGENT_BLOCKSIG_PROBE_LEN and last
 * AGENT_BLOCKSIG_TAIL_LEN bytes (or all of a shorter device) are read and
 * matched; a device that cannot be read there is refused even with
 * --destroy-data (what it holds cannot be known).  Returns 0 or an exit
 * status. */
static int
check_blockdev(const struct agent_config *cfg)
{
    uint64_t size = cfg->target_size;
    size_t head = size < AGENT_BLOCKSIG_PROBE_LEN ? (size_t)size
                                                   : AGENT_BLOCKSIG_PROBE_LEN;
    size_t tail = size < AGENT_BLOCKSIG_TAIL_LEN ? (size_t)size
                                                  : AGENT_BLOCKSIG_TAIL_LEN;
    unsigned char *buf = malloc(head > tail ? head : tail);
    const char *sig = NULL, *where = NULL;     /* where: the part unread */
    size_t where_len = 0;
    int fd, e = 0;

    if (!buf)
        return usage_error("-d %s: out of memory", cfg->target_path);
    fd = open(cfg->target_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        e = errno;
        free(buf);
        return usage_error("-d %s: cannot open: %s", cfg->target_path,
                           strerror(e));
    }
    if (pread_exact(fd, buf, head, 0) < 0) {
        e = errno;
        where = "first";
        where_len = head;
    } else if (!(sig = agent_blocksig_find(buf, head))) {
        if (pread_exact(fd, buf, tail, size - tail) < 0) {
            e = errno;
            where = "last";
            where_len = tail;
        } else {
            sig = agent_blocksig_find_end(buf, tail, size);
        }
    }
    close(fd);
    free(buf);
    if (where)
        return usage_error("-d %s: cannot read its %s %zu bytes for a "
                           "signature: %s", cfg->target_path, where, where_len,
                           e ? strerror(e) : "the device ended early");
    if (sig && !cfg->destroy_data)
        return usage_error("-d %s: the device carries a %s: refusing to write "
                           "to it without --destroy-data", cfg->target_path, sig);
    if (sig)
        agent_msg("-d %s: overwriting a %s (--destroy-data)", cfg->target_path,
                  sig);
    return 0;
}

/* An output file named by @opt (--json, --csv-file) must be new and its
 * directory writable: checked before any test runs, so a bad path is bad
 * input (exit 2) and never costs a benchmark, and the agent never replaces
 * a file or a device node it did not create.  "-" (stdout) is always fine.
 * Returns 0 or an exit status. */
static int
check_output_path(const char *opt, const char *path)
{
    char dir[PATH_MAX];
    const char *slash;
    struct stat st;

    if (!path || !strcmp(path, "-"))
        return 0;
    if (!*path)
        return usage_error("%s '': expected a file name", opt);
    if (lstat(path, &st) == 0)
        return usage_error("%s %s: exists: expected a new file (the agent "
                           "never overwrites a file it did not create)",
                           opt, path);
    slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof(dir), ".");
    else if (slash == path)
        snprintf(dir, sizeof(dir), "/");
    else if ((size_t)(slash - path) >= sizeof(dir))
        return usage_error("%s %s: path too long", opt, path);
    else
        snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
    if (stat(dir, &st) < 0)
        return usage_error("%s %s: directory %s: %s: expected an existing "
                           "directory", opt, path, dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return usage_error("%s %s: %s is not a directory", opt, path, dir);
    if (access(dir, W_OK | X_OK) < 0)
        return usage_error("%s %s: directory %s is not writable: %s", opt,
                           path, dir, strerror(errno));
    return 0;
}

/* Resolve the target, RAM and sizes; enforce the 2x RAM rule.
 * Returns 0 or an exit status. */
static int
resolve_target(struct agent_config *cfg, uint64_t *dev_size)
{
    struct stat st;
    char probe[4200];
    int fd;

    if (stat(cfg->target_path, &st) < 0)
        return usage_error("-d %s: %s: expected an existing directory or "
                           "block device", cfg->target_path, strerror(errno));
    if (S_ISBLK(st.st_mode)) {
        cfg->target_is_blockdev = 1;
        fd = open(cfg->target_path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || ioctl(fd, BLKGETSIZE64, dev_size) < 0) {
            int e = errno;

            if (fd >= 0)
                close(fd);
            return usage_error("-d %s: cannot read the device size: %s",
                               cfg->target_path, strerror(e));
        }
        close(fd);
        if (access(cfg->target_path, W_OK) < 0)
            return usage_error("-d %s: not writable: %s", cfg->target_path,
                               strerror(errno));
        cfg->files = 0;     /* file tests need a filesystem */
        cfg->target_size = *dev_size;
    } else if (S_ISDIR(st.st_mode)) {
        snprintf(probe, sizeof(probe), "%s/.vmdiskcmp-agent-probe.%ld",
                 cfg->target_path, (long)getpid());
        fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd < 0)
            return usage_error("-d %s: not writable: %s: expected a writable "
                               "directory", cfg->target_path, strerror(errno));
        close(fd);
        unlink(probe);
    } else {
        return usage_error("-d %s: expected a directory or a block device",
                           cfg->target_path);
    }

    if (!cfg->ram_given)
        cfg->ram_mib = meminfo_mib();
    if (cfg->n_job_files) {
        char err[512];

        if (agent_jobs_prepare(cfg, err, sizeof(err)) < 0)
            return usage_error("%s", err);
        return cfg->target_is_blockdev ? check_blockdev(cfg) : 0;
    }
    if (!cfg->file_size_given) {
        cfg->file_size = cfg->ram_mib ? 2 * cfg->ram_mib << 20 : 300ull << 20;
        if (cfg->target_is_blockdev && *dev_size < cfg->file_size)
            cfg->file_size = *dev_size;
        cfg->file_size -= cfg->file_size % cfg->chunk_size;
    }
    if (cfg->target_is_blockdev && cfg->file_size > *dev_size)
        return usage_error("-s: %llu MiB: expected at most the size of %s "
                           "(%llu MiB)",
                           (unsigned long long)(cfg->file_size >> 20),
                           cfg->target_path,
                           (unsigned long long)(*dev_size >> 20));
    if (cfg->target_is_blockdev && !cfg->sweep && !cfg->file_size)
        return usage_error("-s 0: a block device runs the seek test only: "
                           "expected a size above 0");
    if (!cfg->files && !cfg->file_size && !cfg->sweep)
        return usage_error("-s 0 -n 0: nothing to do: expected a test size");
    int all_direct = cfg->sweep && cfg->sweep_direct;
    if (cfg->file_size && cfg->ram_mib && !cfg->force && !all_direct
        && cfg->file_size < (2 * cfg->ram_mib << 20))
        return usage_error("-s: %llu MiB is under twice the RAM (%llu MiB): the "
                           "page cache would be measured; expected at least "
                           "%llu MiB, a smaller -r, or -f to force",
                           (unsigned long long)(cfg->file_size >> 20),
                           (unsigned long long)cfg->ram_mib,
                           (unsigned long long)(2 * cfg->ram_mib));
    if (cfg->drop_caches) {
        fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
        if (fd < 0)
            return usage_error("--drop-caches: cannot open "
                               "/proc/sys/vm/drop_caches: %s (needs root)",
                               strerror(errno));
        close(fd);
    }
    if (cfg->target_is_blockdev)
        return check_blockdev(cfg);
    return 0;
}

/* One repetition. Returns 0 or -1 (a test failed or interrupted). */
static int
run_once(const struct agent_config *cfg, struct agent_run *run)
{
    struct agent_ctx ctx;
    int rc = 0;

    memset(&ctx, 0, sizeof(ctx));
    ctx.cfg = cfg;
    ctx.run = run;
    agent_prng_seed(&ctx.prng, run->seed);
    run->digest = AGENT_FNV1A64_INIT;
    if (cfg->target_is_blockdev)
        snprintf(ctx.file_path, sizeof(ctx.file_path), "%s", cfg->target_path);
    else
        snprintf(ctx.file_path, sizeof(ctx.file_path), "%s/Bonnie.%ld",
                 cfg->target_path, (long)getpid());

    if (cfg->n_job_files) {
        rc = agent_jobs_run_all(&ctx);
    } else if (cfg->sweep) {
        rc = agent_sweep(&ctx, ctx.file_path, cfg->target_is_blockdev);
    } else if (cfg->target_is_blockdev) {
        rc = agent_seek_test(&ctx, ctx.file_path, cfg->file_size);
    } else {
        if (cfg->file_size) {
            rc = agent_seq_tests(&ctx);
            if (rc == 0)
                rc = agent_seek_test(&ctx, ctx.file_path, cfg->file_size);
            unlink(ctx.file_path);
        }
        if (rc == 0 && cfg->files)
            rc = agent_file_tests(&ctx, cfg->target_path);
    }
    if (agent_interrupted && !run->failed) {
        run->failed = 1;
        snprintf(run->error, sizeof(run->error), "interrupted");
    }
    return run->failed ? -1 : rc;
}

static int
write_outputs(const struct agent_config *cfg, const struct agent_meta *meta,
              const struct agent_run *runs, size_t n)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp;
    int rc = 0;

    if (cfg->json_file) {
        if (!(fp = open_memstream(&buf, &len)))
            return -1;
        agent_format_json(fp, cfg, meta, runs, n);
        fclose(fp);
        if (!strcmp(cfg->json_file, "-"))
            fwrite(buf, 1, len, stdout);
        else if (agent_write_file_atomic(cfg->json_file, buf, len) < 0)
            rc = -1;
        free(buf);
        buf = NULL;
    }
    if (cfg->csv_file) {
        if (!(fp = open_memstream(&buf, &len)))
            return -1;
        if (n > 1)
            agent_format_csv_header(fp);
        for (size_t i = 0; i < n; i++)
            agent_format_csv(fp, cfg, meta, &runs[i]);
        fclose(fp);
        if (agent_write_file_atomic(cfg->csv_file, buf, len) < 0)
            rc = -1;
        free(buf);
    }
    return rc;
}

int
main(int argc, char *argv[])
{
    struct agent_config cfg;
    struct agent_meta meta;
    struct agent_aging aging;
    struct agent_run *runs = NULL;
    struct utsname uts;
    struct sigaction sa;
    char err[512], cpu[256], fs_type[64], device[1024];
    uint64_t dev_size = 0;
    size_t done = 0;
    int rc;

    agent_config_init(&cfg);
    rc = agent_options_parse(argc, argv, &cfg, err, sizeof(err));
    if (rc == AGENT_OPT_HELP) {
        agent_usage(stdout);
        return EXIT_OK;
    }
    if (rc == AGENT_OPT_VERSION) {
        printf("vmdiskcmp-agent %s\n%s\n", vdc_agent_version, VDC_LICENSE_NOTICE);
        return EXIT_OK;
    }
    if (rc != AGENT_OPT_RUN)
        return usage_error("%s", err);
    if (agent_jobs_load(&cfg, err, sizeof(err)) < 0)
        return usage_error("%s", err);
    if ((rc = resolve_target(&cfg, &dev_size)) != 0)
        return rc;
    if ((rc = check_output_path("--json", cfg.json_file)) != 0 ||
        (rc = check_output_path("--csv-file", cfg.csv_file)) != 0)
        return rc;
    if (agent_aging_check(&cfg, err, sizeof(err)) < 0)
        return usage_error("%s", err);
    if (!cfg.seed_given && agent_random_seed(&cfg.seed) < 0) {
        agent_msg("getrandom: %s", strerror(errno));
        return EXIT_RUNTIME;
    }
    if (!cfg.aging_seed_given)
        cfg.aging_seed = cfg.seed;

    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGHUP, SIG_IGN);        /* as bonnie++ */
    signal(SIGPIPE, SIG_IGN);       /* a dead seeker gives EPIPE, not death */

    memset(&meta, 0, sizeof(meta));
    if (uname(&uts) < 0)
        memset(&uts, 0, sizeof(uts));
    cpu_model(cpu, sizeof(cpu));
    if (cfg.target_is_blockdev) {
        snprintf(fs_type, sizeof(fs_type), "block");
        snprintf(device, sizeof(device), "%s", cfg.target_path);
    } else {
        mount_of(cfg.target_path, fs_type, sizeof(fs_type), device,
                 sizeof(device));
    }
    const char *base = strrchr(cfg.target_path, '/');
    base = base && base[1] ? base + 1 : cfg.target_path;
    meta.target = cfg.target_name ? cfg.target_name : base;
    meta.hostname = cfg.machine ? cfg.machine : uts.nodename;
    meta.kernel = uts.release;
    meta.cpu_model = cpu[0] ? cpu : NULL;
    meta.command_line = join_command_line(argc, argv);
    meta.path = cfg.target_path;
    meta.fs_type = fs_type[0] ? fs_type : NULL;
    meta.device = device[0] ? device : NULL;
    meta.ram_mib = cfg.ram_mib;

    agent_msg("seed %llu", (unsigned long long)cfg.seed);
    size_t n_pass = cfg.n_passes ? cfg.n_passes : 1;
    if (!(runs = calloc((size_t)cfg.repeats * n_pass, sizeof(*runs)))) {
        agent_msg("out of memory for %d runs", cfg.repeats);
        return EXIT_RUNTIME;
    }
    if (cfg.csv && cfg.repeats * n_pass > 1)
        agent_format_csv_header(stdout);
    rc = EXIT_OK;
    /* aging first, once: a target not in the state asked for is not tested */
    agent_aging_init(&aging);
    if (cfg.fill_percent || cfg.precondition_s) {
        meta.aging = &aging;
        if ((cfg.fill_percent && agent_fill_run(&cfg, &aging) < 0) ||
            (cfg.precondition_s && agent_precondition_run(&cfg, &aging) < 0)) {
            runs[0].repetition = cfg.repetition0;
            runs[0].seed = cfg.seed;
            iso_date(runs[0].date, sizeof(runs[0].date));
            runs[0].failed = 1;
            snprintf(runs[0].error, sizeof(runs[0].error), "aging: %s", aging.error);
            done = 1;
            rc = EXIT_RUNTIME;
        }
    }
    for (size_t k = 0; rc == EXIT_OK && k < (size_t)cfg.repeats * n_pass; k++) {
        struct agent_run *run = &runs[k];

        run->repetition = cfg.repetition0 + (int)(k / n_pass);
        run->pass = cfg.n_passes ? cfg.passes[k % n_pass] : NULL;
        run->seed = cfg.seed;   /* bonnie++ resets its generator each run */
        iso_date(run->date, sizeof(run->date));
        done++;
        if (run->pass)
            agent_progress(cfg.quiet, "pass %s\n", run->pass);
        if (run_once(&cfg, run) < 0)
            rc = EXIT_RUNTIME;
        if (cfg.trace_digest)
            agent_msg("trace digest %016llx (run %d%s%s)",
                      (unsigned long long)run->digest, run->repetition,
                      run->pass ? ", pass " : "", run->pass ? run->pass : "");
        if (cfg.csv)
            agent_format_csv(stdout, &cfg, &meta, run);
        else
            agent_format_table(stdout, &cfg, &meta, run);
        fflush(stdout);
        if (rc != EXIT_OK)
            break;
    }
    if (write_outputs(&cfg, &meta, runs, done) < 0)
        rc = EXIT_RUNTIME;
    for (size_t i = 0; i < done; i++)
        agent_run_free_jobs(&runs[i]);
    free(runs);
    free(cfg.jobs);
    free((char *)meta.command_line);
    return rc;
}
