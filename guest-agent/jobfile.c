/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: fio job files (see jobfile.h).  One table of options
 * drives parsing, range checks and the messages. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "format.h"
#include "jobfile.h"
#include "options.h"

static const char *const rw_names[] = {
    "read", "write", "randread", "randwrite", "randrw",
};
static const char *const engine_names[] = { "io_uring", "psync", "null" };

const char *
agent_rw_name(enum agent_rw rw)
{
    return rw_names[rw];
}

const char *
agent_ioengine_name(enum agent_ioengine e)
{
    return engine_names[e];
}

int
agent_rw_reads(enum agent_rw rw)
{
    return rw == AGENT_RW_READ || rw == AGENT_RW_RANDREAD
           || rw == AGENT_RW_RANDRW;
}

int
agent_rw_writes(enum agent_rw rw)
{
    return rw == AGENT_RW_WRITE || rw == AGENT_RW_RANDWRITE
           || rw == AGENT_RW_RANDRW;
}

int
agent_rw_random(enum agent_rw rw)
{
    return rw >= AGENT_RW_RANDREAD;
}

enum opt_kind { K_SIZE, K_TIME, K_INT, K_BOOL, K_SEED, K_RW, K_ENGINE, K_SS,
                K_TEXT, K_NAME };
enum opt_id {
    JO_RW, JO_RWMIXREAD, JO_RWMIXWRITE, JO_BS, JO_IODEPTH, JO_NUMJOBS, JO_DIRECT,
    JO_BUFFERED, JO_SIZE, JO_OFFSET, JO_RUNTIME, JO_TIME_BASED, JO_RAMP_TIME,
    JO_RANDSEED, JO_IOENGINE, JO_BATCH_SUBMIT, JO_BATCH_CMIN, JO_BATCH_CMAX, JO_SCRAMBLE, JO_NORANDOMMAP, JO_SS, JO_SS_DUR, JO_SS_RAMP, JO_DESCRIPTION,
    JO_THREAD, JO_GROUP_REPORTING, JO_OFFSET_INCREMENT, JO_RANDREPEAT, JO_FILENAME,
};

/* The options the agent runs, with fio's aliases; min/max bound K_INT and
 * K_SIZE values (bytes) and K_TIME values (ms). */
static const struct job_option {
    const char *name;
    enum opt_id id;
    enum opt_kind kind;
    uint64_t min, max;
} job_options[] = {
    { "rw", JO_RW, K_RW, 0, 0 },
    { "readwrite", JO_RW, K_RW, 0, 0 },
    { "rwmixread", JO_RWMIXREAD, K_INT, 0, 100 },
    { "rwmixwrite", JO_RWMIXWRITE, K_INT, 0, 100 },
    { "bs", JO_BS, K_SIZE, 1, AGENT_JOB_MAX_BS },
    { "blocksize", JO_BS, K_SIZE, 1, AGENT_JOB_MAX_BS },
    { "iodepth", JO_IODEPTH, K_INT, 1, AGENT_JOB_MAX_IODEPTH },
    { "iodepth_batch", JO_BATCH_SUBMIT, K_INT, 0, AGENT_JOB_MAX_IODEPTH },
    { "iodepth_batch_submit", JO_BATCH_SUBMIT, K_INT, 0, AGENT_JOB_MAX_IODEPTH },
    { "iodepth_batch_complete", JO_BATCH_CMIN, K_INT, 0, AGENT_JOB_MAX_IODEPTH },
    { "iodepth_batch_complete_min", JO_BATCH_CMIN, K_INT, 0, AGENT_JOB_MAX_IODEPTH },
    { "iodepth_batch_complete_max", JO_BATCH_CMAX, K_INT, 0, AGENT_JOB_MAX_IODEPTH },
    { "scramble_buffers", JO_SCRAMBLE, K_BOOL, 0, 1 },
    { "norandommap", JO_NORANDOMMAP, K_BOOL, 0, 1 },
    { "numjobs", JO_NUMJOBS, K_INT, 1, AGENT_JOB_MAX_NUMJOBS },
    { "thread", JO_THREAD, K_BOOL, 0, 1 },
    { "group_reporting", JO_GROUP_REPORTING, K_BOOL, 0, 1 },
    { "offset_increment", JO_OFFSET_INCREMENT, K_SIZE, 0, UINT64_MAX },
    { "filename", JO_FILENAME, K_NAME, 0, 0 },
    { "direct", JO_DIRECT, K_BOOL, 0, 1 },
    { "buffered", JO_BUFFERED, K_BOOL, 0, 1 },
    { "size", JO_SIZE, K_SIZE, 1, UINT64_MAX },
    { "offset", JO_OFFSET, K_SIZE, 0, UINT64_MAX },
    { "runtime", JO_RUNTIME, K_TIME, 1, AGENT_JOB_MAX_TIME_MS },
    { "time_based", JO_TIME_BASED, K_BOOL, 0, 1 },
    { "ramp_time", JO_RAMP_TIME, K_TIME, 0, AGENT_JOB_MAX_TIME_MS },
    { "randseed", JO_RANDSEED, K_SEED, 0, 0 },
    { "randrepeat", JO_RANDREPEAT, K_BOOL, 0, 1 },
    { "ioengine", JO_IOENGINE, K_ENGINE, 0, 0 },
    { "ss", JO_SS, K_SS, 0, 0 },
    { "steadystate", JO_SS, K_SS, 0, 0 },
    { "ss_dur", JO_SS_DUR, K_TIME, 1000, AGENT_JOB_MAX_TIME_MS },
    { "steadystate_duration", JO_SS_DUR, K_TIME, 1000, AGENT_JOB_MAX_TIME_MS },
    { "ss_ramp", JO_SS_RAMP, K_TIME, 0, AGENT_JOB_MAX_TIME_MS },
    { "steadystate_ramp_time", JO_SS_RAMP, K_TIME, 0, AGENT_JOB_MAX_TIME_MS },
    { "description", JO_DESCRIPTION, K_TEXT, 0, 0 },
};
#define N_JOB_OPTIONS (sizeof(job_options) / sizeof(job_options[0]))

/* fio 3.33 options people put in job files that the agent does not run:
 * named as such ("not supported"), not as unknown. */
static const char *const fio_only[] = {
    "directory", "name", "random_generator", "softrandommap",
    "iodepth_low", "fsync", "fdatasync",
    "end_fsync", "fsync_on_close", "sync", "verify", "rate", "rate_iops",
    "rate_process", "bsrange", "bssplit", "blocksize_range", "io_size",
    "io_limit", "loops", "startdelay", "stonewall", "wait_for", "nrfiles",
    "filesize", "file_service_type", "percentage_random", "random_distribution",
    "zero_buffers", "refill_buffers", "buffer_pattern",
    "buffer_compress_percentage", "dedupe_percentage", "fallocate",
    "fadvise_hint", "invalidate", "create_only", "overwrite", "unlink",
    "hipri", "fixedbufs", "registerfiles", "sqthread_poll", "nonvectored",
    "cpus_allowed", "cpumask", "nice", "prio", "prioclass", "ioscheduler",
    "write_lat_log", "write_bw_log", "write_iops_log", "log_avg_msec",
    "lat_percentiles", "clat_percentiles", "percentile_list", "gtod_reduce",
    "disable_lat", "disable_clat", "disable_slat", "disable_bw_measurement",
    "exitall", "kb_base", "unit_base", "allrandrepeat",
    "thinktime", "thinktime_blocks", "rw_sequencer", "zonemode", "zonesize",
    "ss_interval", "steadystate_check_interval",
    "number_ios", "experimental_verify", "bs_unaligned", "ba", "blockalign",
    "mem", "iomem", "iomem_align", "atomic", "pre_read",
};

int
agent_errf(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* agent_parse_size()'s digits and binary k/m/g/t suffix, the suffix
 * optionally followed by "i", "ib" or "b" (fio's kb_base=1024 default:
 * 4k = 4KiB = 4KB = 4096) */
static int
parse_size(const char *s, uint64_t *out)
{
    char buf[64];
    size_t n = strlen(s), unit = strspn(s, "0123456789");

    if (n >= sizeof(buf) || !unit)
        return -1;
    memcpy(buf, s, n + 1);
    if (n > unit + 1 && (!strcasecmp(buf + unit + 1, "i")
                         || !strcasecmp(buf + unit + 1, "ib")
                         || !strcasecmp(buf + unit + 1, "b")))
        buf[unit + 1] = '\0';
    return agent_parse_size(buf, 1, out);
}

/* @s is one line of UTF-8 text without control characters (what the
 * result model takes as a printable string, doc/result-format.md): 1 or 0 */
static int
printable_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;

    while (*p) {
        unsigned c = *p, n, cp;

        if (c < 0x20 || c == 0x7f)
            return 0;
        if (c < 0x80) {
            p++;
            continue;
        }
        n = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc2 ? 1 : 0;
        if (!n || c > 0xf4)
            return 0;           /* a continuation byte, an overlong lead, past U+10FFFF */
        cp = c & (0x3f >> n);
        for (unsigned i = 1; i <= n; i++) {
            if ((p[i] & 0xc0) != 0x80)
                return 0;
            cp = cp << 6 | (p[i] & 0x3f);
        }
        if ((n == 2 && cp < 0x800) || (n == 3 && (cp < 0x10000 || cp > 0x10ffff))
            || (cp >= 0xd800 && cp <= 0xdfff))
            return 0;           /* overlong, out of range, a surrogate */
        p += n + 1;
    }
    return 1;
}

/* seconds unless suffixed ms, s, m, h, d; stored in ms */
static int
parse_time(const char *s, uint64_t *out_ms)
{
    uint64_t v = 0, mult = 1000;
    size_t unit = strspn(s, "0123456789");
    const char *p = s + unit;
    char buf[32];

    if (!unit || unit >= sizeof(buf))
        return -1;
    memcpy(buf, s, unit);
    buf[unit] = '\0';
    if (agent_parse_u64(buf, &v) < 0)
        return -1;
    if (!strcasecmp(p, "ms"))
        mult = 1;
    else if (!*p || !strcasecmp(p, "s"))
        mult = 1000;
    else if (!strcasecmp(p, "m"))
        mult = 60000;
    else if (!strcasecmp(p, "h"))
        mult = 3600000;
    else if (!strcasecmp(p, "d"))
        mult = 86400000;
    else
        return -1;
    if (v > UINT64_MAX / mult)
        return -1;
    *out_ms = v * mult;
    return 0;
}

/* ss=iops_slope:LIMIT[%] */
static int
parse_ss(const char *s, struct agent_job *job)
{
    const char *colon = strchr(s, ':');
    char *end;
    double v;

    if (!colon || (size_t)(colon - s) != strlen("iops_slope")
        || strncasecmp(s, "iops_slope", strlen("iops_slope")) != 0)
        return -1;
    errno = 0;
    v = strtod(colon + 1, &end);
    if (errno || end == colon + 1 || v < 0 || !(v < 1e12))
        return -1;
    job->ss_percent = 0;
    if (*end == '%') {
        job->ss_percent = 1;
        end++;
    }
    if (*end)
        return -1;
    job->ss_given = 1;
    job->ss_limit = v;
    return 0;
}

static void
job_defaults(struct agent_job *job)
{
    memset(job, 0, sizeof(*job));
    job->rw = AGENT_RW_READ;
    job->rwmixread = 50;
    job->bs = 4096;
    job->iodepth = 1;
    job->iodepth_batch_submit = 1;
    job->iodepth_batch_complete_min = 1;
    job->scramble_buffers = 1;
    job->numjobs = 1;
    job->direct = 1;
    job->randrepeat = 1;
    job->ioengine = AGENT_ENGINE_IO_URING;
}

/* fio's fixups of the batch options (init.c fixup_options, io.c
 * td_io_getevents; fio 3.33): a submit batch of 0 or over iodepth is
 * iodepth; complete_min over iodepth is iodepth (fio waits for at most
 * what is in flight); complete_max below complete_min is complete_min (so 1 by
 * default: each wait reaps one), at least 1 (a full queue waits for one)
 * and at most iodepth (never more are in flight). */
static void
batch_fixup(struct agent_job *job)
{
    if (!job->iodepth_batch_submit || job->iodepth_batch_submit > job->iodepth)
        job->iodepth_batch_submit = job->iodepth;
    if (job->iodepth_batch_complete_min > job->iodepth)
        job->iodepth_batch_complete_min = job->iodepth;
    if (job->iodepth_batch_complete_max < job->iodepth_batch_complete_min)
        job->iodepth_batch_complete_max = job->iodepth_batch_complete_min;
    if (!job->iodepth_batch_complete_max)
        job->iodepth_batch_complete_max = 1;
    if (job->iodepth_batch_complete_max > job->iodepth)
        job->iodepth_batch_complete_max = job->iodepth;
}

static char *
trim(char *s)
{
    char *e;

    while (isspace((unsigned char)*s))
        s++;
    e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = '\0';
    return s;
}

/* Set one option on @job.  Returns 0 or -1 with @err ("what expected",
 * without the FILE:LINE prefix). */
static int
set_option(struct agent_job *job, const char *key, const char *val,
           char *err, size_t errlen)
{
    const struct job_option *o = NULL;
    uint64_t v = 0;

    for (size_t i = 0; i < N_JOB_OPTIONS; i++)
        if (!strcasecmp(key, job_options[i].name))
            o = &job_options[i];
    if (!o) {
        for (size_t i = 0; i < sizeof(fio_only) / sizeof(fio_only[0]); i++)
            if (!strcasecmp(key, fio_only[i]))
                return agent_errf(err, errlen, "%s: a fio option the agent does "
                            "not run (doc/agent.md lists the job options)",
                            key);
        return agent_errf(err, errlen, "%s: unknown option (doc/agent.md lists "
                    "the job options)", key);
    }
    if (!val && o->kind != K_BOOL)
        return agent_errf(err, errlen, "%s: expected %s=VALUE", key, key);
    switch (o->kind) {
    case K_SIZE:
        if (strchr(val, '%'))
            return agent_errf(err, errlen, "%s=%s: expected a size in bytes (with "
                        "k, m, g, t); percentages are not supported", key, val);
        if (o->id == JO_BS && (strchr(val, ',') || strchr(val, ':')))
            return agent_errf(err, errlen, "%s=%s: expected one block size for "
                        "reads and writes", key, val);
        if (parse_size(val, &v) < 0 || v < o->min || v > o->max)
            return agent_errf(err, errlen, "%s=%s: expected a size in bytes (with "
                        "k, m, g, t) from %llu to %llu", key, val,
                        (unsigned long long)o->min, (unsigned long long)o->max);
        break;
    case K_TIME:
        if (parse_time(val, &v) < 0 || v < o->min || v > o->max)
            return agent_errf(err, errlen, "%s=%s: expected a time (seconds, or "
                        "with ms, s, m, h, d) from %llu ms to 7d", key, val,
                        (unsigned long long)o->min);
        break;
    case K_INT:
        if (agent_parse_u64(val, &v) < 0 || v < o->min || v > o->max)
            return agent_errf(err, errlen, "%s=%s: expected a whole number from "
                        "%llu to %llu", key, val, (unsigned long long)o->min,
                        (unsigned long long)o->max);
        break;
    case K_BOOL:
        if (!val || !strcmp(val, "1"))
            v = 1;
        else if (!strcmp(val, "0"))
            v = 0;
        else
            return agent_errf(err, errlen, "%s=%s: expected 0 or 1", key, val);
        break;
    case K_SEED:
        if (agent_parse_u64(val, &v) < 0)
            return agent_errf(err, errlen, "%s=%s: expected an unsigned 64-bit "
                        "decimal number", key, val);
        break;
    case K_RW: {
        size_t i;

        for (i = 0; i < sizeof(rw_names) / sizeof(rw_names[0]); i++)
            if (!strcmp(val, rw_names[i]))
                break;
        if (i == sizeof(rw_names) / sizeof(rw_names[0]))
            return agent_errf(err, errlen, "%s=%s: expected read, write, randread, "
                        "randwrite or randrw", key, val);
        job->rw = (enum agent_rw)i;
        return 0;
    }
    case K_ENGINE:
        if (!strcmp(val, "io_uring"))
            job->ioengine = AGENT_ENGINE_IO_URING;
        else if (!strcmp(val, "psync"))
            job->ioengine = AGENT_ENGINE_PSYNC;
        else if (!strcmp(val, "null"))
            job->ioengine = AGENT_ENGINE_NULL;
        else
            return agent_errf(err, errlen, "%s=%s: expected io_uring, psync or "
                        "null", key, val);
        return 0;
    case K_SS:
        if (parse_ss(val, job) < 0)
            return agent_errf(err, errlen, "%s=%s: expected iops_slope:LIMIT or "
                        "iops_slope:LIMIT%%", key, val);
        return 0;
    case K_TEXT:
        if (!printable_utf8(val))
            return agent_errf(err, errlen, "%s: expected UTF-8 text without "
                        "control characters (a tab, a byte below 0x20)", key);
        if (strlen(val) >= sizeof(job->description))
            return agent_errf(err, errlen, "%s: expected at most %zu characters",
                        key, sizeof(job->description) - 1);
        snprintf(job->description, sizeof(job->description), "%s", val);
        return 0;
    case K_NAME:
        /* one file in the target directory: fio's filename= may name
         * several (':') or a path, which the agent's -d decides */
        if (!*val || strchr(val, '/') || strchr(val, ':') || !strcmp(val, ".")
            || !strcmp(val, "..") || !printable_utf8(val)
            || strlen(val) >= sizeof(job->filename))
            return agent_errf(err, errlen, "%s=%s: expected one file name of 1 "
                        "to %zu characters without '/' or ':' (a file the clones "
                        "share in the target directory, -d)", key, val,
                        sizeof(job->filename) - 1);
        snprintf(job->filename, sizeof(job->filename), "%s", val);
        return 0;
    }
    switch (o->id) {
    case JO_RWMIXREAD: job->rwmixread = (uint32_t)v; break;
    case JO_RWMIXWRITE: job->rwmixread = 100u - (uint32_t)v; break;
    case JO_BS: job->bs = (uint32_t)v; break;
    case JO_IODEPTH: job->iodepth = (uint32_t)v; break;
    case JO_BATCH_SUBMIT: job->iodepth_batch_submit = (uint32_t)v; break;
    case JO_BATCH_CMIN: job->iodepth_batch_complete_min = (uint32_t)v; break;
    case JO_BATCH_CMAX: job->iodepth_batch_complete_max = (uint32_t)v; break;
    case JO_SCRAMBLE: job->scramble_buffers = (int)v; break;
    case JO_NORANDOMMAP: job->norandommap = (int)v; break;
    case JO_NUMJOBS: job->numjobs = (uint32_t)v; break;
    case JO_THREAD: job->thread = (int)v; break;
    case JO_GROUP_REPORTING: job->group_reporting = (int)v; break;
    case JO_OFFSET_INCREMENT: job->offset_increment = v; break;
    case JO_RANDREPEAT: job->randrepeat = (int)v; break;
    case JO_DIRECT: job->direct = (int)v; break;
    case JO_BUFFERED: job->direct = !v; break;
    case JO_SIZE: job->size = v; break;
    case JO_OFFSET: job->offset = v; break;
    case JO_RUNTIME: job->runtime_ms = v; break;
    case JO_TIME_BASED: job->time_based = (int)v; break;
    case JO_RAMP_TIME: job->ramp_ms = v; break;
    case JO_RANDSEED: job->randseed = v; job->randseed_given = 1; break;
    case JO_SS_DUR: job->ss_dur_ms = v; break;
    case JO_SS_RAMP: job->ss_ramp_ms = v; break;
    default: break;
    }
    return 0;
}

int
agent_jobfile_parse(const char *text, const char *fname,
                    struct agent_job *job, char *err, size_t errlen)
{
    enum { NONE, GLOBAL, JOB } where = NONE;
    char line[4096], msg[512];
    int lineno = 0, job_line = 0;
    const char *p = text;

    job_defaults(job);
    snprintf(job->source, sizeof(job->source), "%s", fname);
    while (*p) {
        size_t n = strcspn(p, "\n");
        char *s;

        lineno++;
        if (n >= sizeof(line))
            return agent_errf(err, errlen, "%s:%d: line too long (expected at "
                        "most %zu characters)", fname, lineno,
                        sizeof(line) - 1);
        memcpy(line, p, n);
        line[n] = '\0';
        p += n + (p[n] == '\n');
        s = trim(line);
        if (!*s || *s == ';' || *s == '#')
            continue;
        if (*s == '[') {
            char *name = s + 1, *close = strchr(name, ']');

            if (!close || trim(close + 1)[0])
                return agent_errf(err, errlen, "%s:%d: %s: expected [SECTION]",
                            fname, lineno, s);
            *close = '\0';
            name = trim(name);
            if (!strcmp(name, "global")) {
                if (where == JOB)
                    return agent_errf(err, errlen, "%s:%d: [global] after the job "
                                "section: expected [global] first", fname,
                                lineno);
                where = GLOBAL;
                continue;
            }
            if (where == JOB)
                return agent_errf(err, errlen, "%s:%d: [%s]: a second job section "
                            "(fio would run both at once): expected one job "
                            "per file (give --job once per file)", fname,
                            lineno, name);
            if (!*name || strlen(name) >= sizeof(job->name)
                || strspn(name, "abcdefghijklmnopqrstuvwxyz"
                          "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
                   != strlen(name))
                return agent_errf(err, errlen, "%s:%d: [%s]: expected a job name "
                            "of 1 to %zu letters, digits, '.', '_' or '-'",
                            fname, lineno, name, sizeof(job->name) - 1);
            snprintf(job->name, sizeof(job->name), "%s", name);
            where = JOB;
            job_line = lineno;
            continue;
        }
        if (where == NONE)
            return agent_errf(err, errlen, "%s:%d: %s: an option before any "
                        "section: expected [global] or [JOBNAME] first",
                        fname, lineno, s);
        char *eq = strchr(s, '='), *key = s, *val = NULL;

        if (eq) {
            *eq = '\0';
            key = trim(s);
            val = trim(eq + 1);
        }
        if (set_option(job, key, val, msg, sizeof(msg)) < 0)
            return agent_errf(err, errlen, "%s:%d: %s", fname, lineno, msg);
    }
    if (where != JOB)
        return agent_errf(err, errlen, "%s: no job section: expected [JOBNAME] "
                    "and its options", fname);
    if (job->time_based && !job->runtime_ms)
        return agent_errf(err, errlen, "%s:%d: [%s]: time_based without runtime: "
                    "expected runtime=", fname, job_line, job->name);
    if (job->ss_given && !job->ss_dur_ms)
        return agent_errf(err, errlen, "%s:%d: [%s]: ss without ss_dur: expected "
                    "ss_dur= (the window of the steady-state check)", fname,
                    job_line, job->name);
    /* the furthest byte a clone reaches, and the files' sum the host sizes
     * disks from: off_t values.  Each term is bounded first, so the sums
     * below cannot wrap. */
    {
        uint64_t n = job->numjobs, lim = (uint64_t)INT64_MAX;

        if (!job->offset_increment
            && (job->offset > lim - job->size || job->offset + job->size > lim / n))
            return agent_errf(err, errlen, "%s:%d: [%s]: offset=%llu + size=%llu "
                        "(x numjobs=%u): expected at most %lld bytes (the largest "
                        "file offset)", fname, job_line, job->name,
                        (unsigned long long)job->offset,
                        (unsigned long long)job->size, job->numjobs,
                        (long long)INT64_MAX);
        if (job->offset > lim - job->size
            || (n > 1 && job->offset_increment > (lim - job->offset - job->size) / (n - 1))
            || agent_job_file_bytes(job) > lim)
            return agent_errf(err, errlen, "%s:%d: [%s]: offset=%llu + (numjobs=%u - 1) "
                        "x offset_increment=%llu + size=%llu (and the clones' files "
                        "together): expected at most %lld bytes (the largest file "
                        "offset)", fname, job_line, job->name,
                        (unsigned long long)job->offset, job->numjobs,
                        (unsigned long long)job->offset_increment,
                        (unsigned long long)job->size, (long long)INT64_MAX);
    }
    if (job->size && job->size < job->bs)
        return agent_errf(err, errlen, "%s:%d: [%s]: size=%llu is smaller than "
                    "bs=%u: expected at least one block", fname, job_line,
                    job->name, (unsigned long long)job->size, job->bs);
    batch_fixup(job);
    return 0;
}

uint64_t
agent_job_region_end(const struct agent_job *job)
{
    return job->offset + (uint64_t)(job->numjobs - 1) * job->offset_increment
           + (job->size ? job->size : job->bs);
}

uint64_t
agent_job_file_bytes(const struct agent_job *job)
{
    uint64_t n = job->numjobs, end = job->offset + job->size, sum, inc;

    if (!job->size)
        return 0;
    if (job->filename[0])
        return agent_job_region_end(job);
    /* n x (offset + size) + offset_increment x n(n-1)/2, saturating */
    if (end > UINT64_MAX / n)
        return UINT64_MAX;
    sum = end * n;
    if (job->offset_increment && n > 1) {
        if (job->offset_increment > UINT64_MAX / (n * (n - 1) / 2))
            return UINT64_MAX;
        inc = job->offset_increment * (n * (n - 1) / 2);
        if (inc > UINT64_MAX - sum)
            return UINT64_MAX;
        sum += inc;
    }
    return sum;
}

int
agent_jobfile_load(const char *path, struct agent_job *job, char *err,
                   size_t errlen)
{
    char *buf;
    size_t got = 0;
    int fd, rc;

    if (!printable_utf8(path))  /* workload.source: the result model refuses it */
        return agent_errf(err, errlen, "--job: a path with a control character "
                    "or not UTF-8: expected a path of UTF-8 text without control "
                    "characters (the results name it)");
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return agent_errf(err, errlen, "--job %s: %s: expected a readable fio job "
                    "file", path, strerror(errno));
    if (!(buf = malloc(AGENT_JOB_FILE_MAX + 1))) {
        close(fd);
        return agent_errf(err, errlen, "--job %s: out of memory", path);
    }
    for (;;) {
        ssize_t r = read(fd, buf + got, AGENT_JOB_FILE_MAX + 1 - got);

        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            rc = agent_errf(err, errlen, "--job %s: read: %s", path, strerror(errno));
            goto out;
        }
        if (r == 0)
            break;
        got += (size_t)r;
        if (got > AGENT_JOB_FILE_MAX) {
            rc = agent_errf(err, errlen, "--job %s: expected at most %u bytes",
                      path, AGENT_JOB_FILE_MAX);
            goto out;
        }
    }
    buf[got] = '\0';
    if (memchr(buf, '\0', got)) {
        rc = agent_errf(err, errlen, "--job %s: a NUL byte: expected a text file",
                  path);
        goto out;
    }
    rc = agent_jobfile_parse(buf, path, job, err, errlen);
 out:
    free(buf);
    close(fd);
    return rc;
}

void
agent_job_format_json(FILE *fp, const struct agent_job *job)
{
    fputs("{\"name\": ", fp);
    agent_json_str(fp, job->name);
    fprintf(fp, ", \"rw\": \"%s\", \"rwmixread\": %u, \"bs\": %u, "
            "\"iodepth\": %u, \"iodepth_batch_submit\": %u, "
            "\"iodepth_batch_complete_min\": %u, \"iodepth_batch_complete_max\": %u, "
            "\"scramble_buffers\": %s, \"norandommap\": %s, "
            "\"numjobs\": %u, \"thread\": %s, \"group_reporting\": %s, "
            "\"offset_increment\": %llu, \"filename\": ",
            agent_rw_name(job->rw), job->rwmixread, job->bs, job->iodepth,
            job->iodepth_batch_submit, job->iodepth_batch_complete_min,
            job->iodepth_batch_complete_max,
            job->scramble_buffers ? "true" : "false",
            job->norandommap ? "true" : "false", job->numjobs,
            job->thread ? "true" : "false",
            job->group_reporting ? "true" : "false",
            (unsigned long long)job->offset_increment);
    if (job->filename[0])
        agent_json_str(fp, job->filename);
    else
        fputs("null", fp);
    fprintf(fp, ", \"direct\": %s, ", job->direct ? "true" : "false");
    if (job->size)
        fprintf(fp, "\"size\": %llu, ", (unsigned long long)job->size);
    else
        fputs("\"size\": null, ", fp);
    fprintf(fp, "\"offset\": %llu, ", (unsigned long long)job->offset);
    if (job->runtime_ms)
        fprintf(fp, "\"runtime_s\": %.3f, ", (double)job->runtime_ms / 1e3);
    else
        fputs("\"runtime_s\": null, ", fp);
    fprintf(fp, "\"time_based\": %s, \"ramp_time_s\": %.3f, \"randseed\": ",
            job->time_based ? "true" : "false", (double)job->ramp_ms / 1e3);
    if (job->randseed_given)
        fprintf(fp, "\"%llu\"", (unsigned long long)job->randseed);
    else
        fputs("null", fp);
    fprintf(fp, ", \"randrepeat\": %s", job->randrepeat ? "true" : "false");
    fprintf(fp, ", \"ioengine\": \"%s\", \"ss\": ",
            agent_ioengine_name(job->ioengine));
    if (job->ss_given)
        fprintf(fp, "{\"metric\": \"iops_slope\", \"limit\": %g, "
                "\"percent\": %s, \"dur_s\": %.3f, \"ramp_s\": %.3f}",
                job->ss_limit, job->ss_percent ? "true" : "false",
                (double)job->ss_dur_ms / 1e3, (double)job->ss_ramp_ms / 1e3);
    else
        fputs("null", fp);
    fputs(", \"description\": ", fp);
    agent_json_str(fp, job->description);
    fputs("}", fp);
}
