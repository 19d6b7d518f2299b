/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: the job engine's checks against the target (before
 * anything is created) and main's hooks: load every job file, check the
 * jobs, run them in order (see job.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "job.h"

#ifndef BLKSSZGET
#define BLKSSZGET _IO(0x12, 104)
#endif
#define MAX_BUFFER_BYTES (1024ull << 20)

/* Logical block size of the device holding @path (a block device itself,
 * or the disk of a file's filesystem through sysfs); 512 when unknown. */
static uint32_t
logical_block_size(const char *path, int is_blockdev)
{
    char sys[128], buf[32];
    struct stat st;
    int fd, v = 0;
    FILE *fp;

    if (is_blockdev) {
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            if (ioctl(fd, BLKSSZGET, &v) < 0)
                v = 0;
            close(fd);
        }
        return v > 0 ? (uint32_t)v : 512;
    }
    if (stat(path, &st) < 0)
        return 512;
    for (int up = 0; up < 2; up++) {
        snprintf(sys, sizeof(sys), "/sys/dev/block/%u:%u/%squeue/"
                 "logical_block_size", major(st.st_dev), minor(st.st_dev),
                 up ? "../" : "");
        if ((fp = fopen(sys, "re"))) {
            if (fgets(buf, sizeof(buf), fp))
                v = atoi(buf);
            fclose(fp);
            if (v > 0)
                return (uint32_t)v;
        }
    }
    return 512;
}

int
agent_jobs_check(struct agent_job *jobs, size_t n, struct agent_job_target *t,
                 char *err, size_t errlen)
{
    uint64_t need_files = 0;

    t->logical_block_size = logical_block_size(t->path, t->is_blockdev);
    for (size_t i = 0; i < n; i++) {
        struct agent_job *j = &jobs[i];
        uint64_t lbs = t->logical_block_size, region, end;
        int io = j->ioengine != AGENT_ENGINE_NULL;   /* null: no file at all */

        if (io && j->direct && j->bs % lbs)
            return agent_errf(err, errlen, "%s: [%s]: bs=%u: expected a multiple "
                        "of the logical block size of %s (%llu bytes) with "
                        "direct=1", j->source, j->name, j->bs, t->path,
                        (unsigned long long)lbs);
        if (io && j->direct && (j->offset % lbs || j->offset_increment % lbs))
            return agent_errf(err, errlen, "%s: [%s]: offset=%llu, "
                        "offset_increment=%llu: expected multiples of the "
                        "logical block size of %s (%llu bytes) with direct=1",
                        j->source, j->name, (unsigned long long)j->offset,
                        (unsigned long long)j->offset_increment, t->path,
                        (unsigned long long)lbs);
        /* each clone's buffers are one mapping of whole huge pages */
        uint64_t clone_bytes = agent_buffers_span((uint64_t)j->bs * j->iodepth);
        if (clone_bytes * j->numjobs > MAX_BUFFER_BYTES)
            return agent_errf(err, errlen, "%s: [%s]: bs x iodepth x numjobs = "
                        "%llu MiB of buffers (each clone's rounded up to 2 MiB): "
                        "expected at most %llu MiB",
                        j->source, j->name,
                        (unsigned long long)(clone_bytes * j->numjobs >> 20),
                        (unsigned long long)(MAX_BUFFER_BYTES >> 20));
        if (t->is_blockdev && j->filename[0])
            return agent_errf(err, errlen, "%s: [%s]: filename=%s on the block "
                        "device %s: expected no filename= (the device is the "
                        "clones' file; filename= names a file they share in a "
                        "directory target)", j->source, j->name, j->filename,
                        t->path);
        if (t->is_blockdev) {
            if (j->offset >= t->dev_size)
                return agent_errf(err, errlen, "%s: [%s]: offset=%llu: expected "
                            "less than the size of %s (%llu bytes)", j->source,
                            j->name, (unsigned long long)j->offset, t->path,
                            (unsigned long long)t->dev_size);
            if (!j->size && j->offset_increment && j->numjobs > 1)
                return agent_errf(err, errlen, "%s: [%s]: offset_increment "
                            "without size= on the device %s: expected size= "
                            "(each clone's region)", j->source, j->name, t->path);
            if (!j->size)
                j->size = t->dev_size - j->offset;
            end = agent_job_region_end(j);
            if (end > t->dev_size && (!j->offset_increment || j->numjobs == 1))
                return agent_errf(err, errlen, "%s: [%s]: offset=%llu + size=%llu "
                            "is past the end of %s (%llu bytes): expected at "
                            "most its size", j->source, j->name,
                            (unsigned long long)j->offset,
                            (unsigned long long)j->size, t->path,
                            (unsigned long long)t->dev_size);
            if (end > t->dev_size)
                return agent_errf(err, errlen, "%s: [%s]: offset=%llu + "
                            "(numjobs - 1) x offset_increment=%llu + size=%llu "
                            "= %llu is past the end of %s (%llu bytes): "
                            "expected at most its size", j->source, j->name,
                            (unsigned long long)j->offset,
                            (unsigned long long)j->offset_increment,
                            (unsigned long long)j->size, (unsigned long long)end,
                            t->path, (unsigned long long)t->dev_size);
        } else if (!j->size) {
            return agent_errf(err, errlen, "%s: [%s]: no size=: expected the size "
                        "of the job's file on %s", j->source, j->name,
                        t->path);
        }
        region = j->size - j->size % j->bs;
        if (region < j->bs)
            return agent_errf(err, errlen, "%s: [%s]: size=%llu: expected at least "
                        "bs=%u", j->source, j->name,
                        (unsigned long long)j->size, j->bs);
        j->size = region;
        /* fio's tausworthe draws 32 bits: past 2^32 - 1 blocks fio 3.33
         * switches to tausworthe64 (filesetup.c check_rand_gen_limits),
         * which the agent does not reproduce */
        if (agent_rw_random(j->rw) && j->size / j->bs > 0xffffffffull)
            return agent_errf(err, errlen, "%s: [%s]: size=%llu is %llu blocks of "
                        "bs=%u: expected at most 4294967295 (fio 3.33 switches "
                        "to another generator past that; a larger bs= or a "
                        "smaller size=)", j->source, j->name,
                        (unsigned long long)j->size,
                        (unsigned long long)(j->size / j->bs), j->bs);
        if (io && !j->direct && !t->force && t->ram_mib
            && j->size * j->numjobs < (2 * t->ram_mib << 20))
            /* whole MiB as "N MiB", anything else in bytes */
            return agent_errf(err, errlen, "%s: [%s]: direct=0 with size=%llu%s "
                        "x numjobs=%u under twice the RAM (%llu MiB): the "
                        "page cache would be measured; expected direct=1, a "
                        "larger size, or -f", j->source, j->name,
                        (unsigned long long)(j->size % (1u << 20) ? j->size
                                                                 : j->size >> 20),
                        j->size % (1u << 20) ? " bytes" : " MiB", j->numjobs,
                        (unsigned long long)t->ram_mib);
        if (io && !t->is_blockdev && agent_job_file_bytes(j) > need_files)
            need_files = agent_job_file_bytes(j);
    }
    if (!t->is_blockdev && need_files) {
        struct statvfs sv;

        if (statvfs(t->path, &sv) == 0
            && (uint64_t)sv.f_bavail * sv.f_frsize < need_files)
            return agent_errf(err, errlen, "-d %s: %llu MiB free: the largest job "
                        "needs %llu MiB of files: expected a smaller size= "
                        "or numjobs=", t->path,
                        (unsigned long long)((uint64_t)sv.f_bavail
                                             * sv.f_frsize >> 20),
                        (unsigned long long)(need_files >> 20));
    }
    return 0;
}

/* ---- main's hooks ------------------------------------------------------- */

static void
target_of(const struct agent_config *cfg, struct agent_job_target *t)
{
    memset(t, 0, sizeof(*t));
    t->path = cfg->target_path;
    t->is_blockdev = cfg->target_is_blockdev;
    t->dev_size = cfg->target_size;
    t->ram_mib = cfg->ram_mib;
    t->force = cfg->force;
}

int
agent_jobs_load(struct agent_config *cfg, char *err, size_t errlen)
{
    if (!cfg->n_job_files)
        return 0;
    cfg->jobs = calloc(cfg->n_job_files, sizeof(*cfg->jobs));
    if (!cfg->jobs)
        return agent_errf(err, errlen, "--job: out of memory");
    for (size_t i = 0; i < cfg->n_job_files; i++)
        if (agent_jobfile_load(cfg->job_files[i], &cfg->jobs[i], err,
                               errlen) < 0)
            return -1;
    return 0;
}

int
agent_jobs_prepare(struct agent_config *cfg, char *err, size_t errlen)
{
    struct agent_job_target t;

    target_of(cfg, &t);
    return agent_jobs_check(cfg->jobs, cfg->n_job_files, &t, err, errlen);
}

int
agent_jobs_run_all(struct agent_ctx *ctx)
{
    const struct agent_config *cfg = ctx->cfg;
    struct agent_run *run = ctx->run;
    struct agent_job_target t;

    target_of(cfg, &t);
    t.logical_block_size = logical_block_size(t.path, t.is_blockdev);
    run->jobs = calloc(cfg->n_job_files, sizeof(*run->jobs));
    if (!run->jobs) {
        run->failed = 1;
        snprintf(run->error, sizeof(run->error), "--job: out of memory");
        agent_msg("%s", run->error);
        return -1;
    }
    for (size_t i = 0; i < cfg->n_job_files; i++) {
        struct agent_job_result *r = agent_job_result_new(&cfg->jobs[i]);

        if (!r) {
            run->failed = 1;
            snprintf(run->error, sizeof(run->error), "%s: out of memory",
                     cfg->jobs[i].name);
            agent_msg("%s", run->error);
            return -1;
        }
        run->jobs[run->n_jobs++] = r;
        r->on_blockdev = t.is_blockdev;
        if (agent_interrupted) {
            r->state = AGENT_FAILED;
            snprintf(r->error, sizeof(r->error), "interrupted");
        } else {
            agent_job_run(&cfg->jobs[i], &t, run->seed, cfg->quiet, r);
        }
        agent_digest_u64(ctx, r->digest);
        if (r->fallback[0])
            agent_msg("%s: io_uring not used (%s): ran psync, iodepth 1",
                      r->job.name, r->fallback);
        if (r->state == AGENT_FAILED) {
            run->failed = 1;
            snprintf(run->error, sizeof(run->error), "%.63s: %.190s",
                     r->job.name, r->error);
            agent_progress(cfg->quiet, "\n");
            agent_msg("%s", run->error);
            return -1;
        }
    }
    return 0;
}

void
agent_run_free_jobs(struct agent_run *run)
{
    for (size_t i = 0; i < run->n_jobs; i++)
        agent_job_result_free(run->jobs[i]);
    free(run->jobs);
    run->jobs = NULL;
    run->n_jobs = 0;
}
