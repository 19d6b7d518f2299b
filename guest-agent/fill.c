/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: filling and preconditioning a target (fill.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "fill.h"
#include "job.h"
#include "jobfile.h"
#include "sys.h"

/* <linux/fs.h> and <linux/fsmap.h> are not on musl-gcc's include path:
 * the kernel's ABI, as linux/fsmap.h (4.12) defines it */
#ifndef BLKSSZGET
#define BLKSSZGET _IO(0x12, 104)
#endif
struct agent_fsmap {
    uint32_t fmr_device, fmr_flags;
    uint64_t fmr_physical, fmr_owner, fmr_offset, fmr_length;
    uint64_t fmr_reserved[3];
};
struct agent_fsmap_head {
    uint32_t fmh_iflags, fmh_oflags, fmh_count, fmh_entries;
    uint64_t fmh_reserved[6];
    struct agent_fsmap fmh_keys[2];
    struct agent_fsmap fmh_recs[];
};
#define AGENT_FMR_OF_LAST 0x20u
#define AGENT_FMR_OWN_FREE 1ull                 /* FMR_OWNER(0, 1) */
#define AGENT_FS_IOC_GETFSMAP _IOWR('X', 59, struct agent_fsmap_head)
#define FSMAP_BATCH 1024u

#define FILL_SUBDIRS 16u
#define FILL_CHUNK (1u << 20)

static int
errf(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

int
agent_aging_check(const struct agent_config *cfg, char *err, size_t errlen)
{
    char path[4200];
    struct statvfs vfs;
    struct stat st;

    if (cfg->precondition_s && !cfg->target_is_blockdev)
        return errf(err, errlen, "--precondition: -d %s: expected a block device "
                    "(a raw target is preconditioned; a filesystem is aged with --fill)",
                    cfg->target_path);
    if (!cfg->fill_percent)
        return 0;
    if (cfg->target_is_blockdev)
        return errf(err, errlen, "--fill: -d %s: expected a directory on a mounted "
                    "filesystem (a block device is aged with --precondition)",
                    cfg->target_path);
    snprintf(path, sizeof(path), "%s/%s", cfg->target_path, AGENT_FILL_DIR);
    if (lstat(path, &st) == 0 || errno != ENOENT)
        return errf(err, errlen, "--fill: %s exists: expected a target without it "
                    "(the agent never fills over what it did not write)", path);
    if (statvfs(cfg->target_path, &vfs) < 0)
        return errf(err, errlen, "--fill: -d %s: statvfs: %s", cfg->target_path,
                    strerror(errno));
    double used = agent_used_percent(vfs.f_blocks, vfs.f_bfree, vfs.f_bavail);
    if (used >= cfg->fill_percent)
        return errf(err, errlen, "--fill %u: %s is already %.1f %% used: expected "
                    "less than the fill", cfg->fill_percent, cfg->target_path, used);
    /* what the tests need beside the fill (the bonnie++ file, or the
     * jobs' files) and a 5 % margin */
    double total = (double)(vfs.f_blocks - vfs.f_bfree + vfs.f_bavail) * vfs.f_frsize;
    double left = total * (100.0 - cfg->fill_percent - 5.0) / 100.0;
    double need = (double)cfg->file_size;
    const char *what = "-s";

    if (cfg->n_job_files) {
        need = 0;
        what = "the jobs' files";
        for (size_t i = 0; i < cfg->n_job_files; i++)
            need = fmax(need, (double)cfg->jobs[i].size * cfg->jobs[i].numjobs);
    }
    if (need > left)
        return errf(err, errlen, "--fill %u: %s (%.0f MiB) does not fit beside it: %s "
                    "keeps %.0f MiB after the fill and a 5 %% margin", cfg->fill_percent,
                    what, need / 1048576.0, cfg->target_path, left > 0 ? left / 1048576.0 : 0.0);
    return 0;
}

/* ---- fill ---------------------------------------------------------------- */

struct fill_file {
    uint32_t id;
    uint64_t size;
};

static void
fill_path(char *buf, size_t len, const char *dir, uint32_t id)
{
    snprintf(buf, len, "%s/%s/d%02u/f%07u", dir, AGENT_FILL_DIR, id % FILL_SUBDIRS, id);
}

/* Write @size bytes of @buf (FILL_CHUNK, its 4 KiB blocks stamped with
 * @stamp so no two files' blocks are alike) to new file @path. */
static int
fill_write(const char *path, unsigned char *buf, uint64_t size, uint64_t stamp)
{
    uint64_t done = 0;
    int fd;

    for (size_t b = 0; b < FILL_CHUNK; b += 4096)
        memcpy(buf + b, &stamp, sizeof(stamp));
    fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    while (done < size) {
        size_t n = size - done < FILL_CHUNK ? (size_t)(size - done) : FILL_CHUNK;
        ssize_t r = pwrite(fd, buf, n, (off_t)done);

        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            int e = r < 0 ? errno : EIO;

            close(fd);
            errno = e;
            return -1;
        }
        done += (uint64_t)r;
    }
    return close(fd);
}

static int
fill_fail(struct agent_aging *a, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(a->error, sizeof(a->error), fmt, ap);
    va_end(ap);
    agent_msg("%s", a->error);
    return -1;
}

int
agent_fill_run(const struct agent_config *cfg, struct agent_aging *a)
{
    char path[4200];
    struct statvfs vfs;
    struct agent_prng prng;
    struct fill_file *live = NULL;
    size_t n_live = 0;
    unsigned char *buf = NULL;
    uint64_t cap;
    double t0 = agent_now();
    int dfd = -1, rc = -1;

    a->fill_percent = cfg->fill_percent;
    a->seed = cfg->aging_seed;
    agent_prng_seed(&prng, cfg->aging_seed);
    if (statvfs(cfg->target_path, &vfs) < 0)
        return fill_fail(a, "--fill: statvfs %s: %s", cfg->target_path, strerror(errno));
    cap = (uint64_t)vfs.f_blocks * vfs.f_frsize / 256;
    if (cap < 4096)
        cap = 4096;
    snprintf(path, sizeof(path), "%s/%s", cfg->target_path, AGENT_FILL_DIR);
    if (mkdir(path, 0700) < 0)
        return fill_fail(a, "--fill: mkdir %s: %s", path, strerror(errno));
    for (unsigned d = 0; d < FILL_SUBDIRS; d++) {
        snprintf(path, sizeof(path), "%s/%s/d%02u", cfg->target_path, AGENT_FILL_DIR, d);
        if (mkdir(path, 0700) < 0)
            return fill_fail(a, "--fill: mkdir %s: %s", path, strerror(errno));
    }
    buf = agent_aligned_alloc(FILL_CHUNK);
    live = calloc(AGENT_FILL_FILES_MAX, sizeof(*live));
    if (!buf || !live) {
        fill_fail(a, "--fill: out of memory");
        goto out;
    }
    for (size_t i = 0; i < FILL_CHUNK; i += 8) {
        uint64_t v = agent_prng_next(&prng);

        memcpy(buf + i, &v, 8);
    }
    agent_progress(cfg->quiet, "filling %s to %u %% ...", cfg->target_path, cfg->fill_percent);
    for (;;) {
        if (agent_interrupted) {
            fill_fail(a, "--fill: interrupted");
            goto out;
        }
        if (statvfs(cfg->target_path, &vfs) < 0) {
            fill_fail(a, "--fill: statvfs %s: %s", cfg->target_path, strerror(errno));
            goto out;
        }
        if (agent_used_percent(vfs.f_blocks, vfs.f_bfree, vfs.f_bavail) >= cfg->fill_percent)
            break;
        if (n_live && agent_prng_below(&prng, AGENT_FILL_DELETE_DIV) == 0) {
            size_t k = (size_t)agent_prng_below(&prng, n_live);

            fill_path(path, sizeof(path), cfg->target_path, live[k].id);
            if (unlink(path) < 0) {
                fill_fail(a, "--fill: unlink %s: %s", path, strerror(errno));
                goto out;
            }
            a->files_deleted++;
            a->bytes_deleted += live[k].size;
            live[k] = live[--n_live];
            continue;
        }
        if (a->files_written == AGENT_FILL_FILES_MAX) {
            fill_fail(a, "--fill: %u files written and %s is still under %u %%",
                      AGENT_FILL_FILES_MAX, cfg->target_path, cfg->fill_percent);
            goto out;
        }
        uint64_t size = agent_fill_size(&prng, cap);
        uint32_t id = (uint32_t)a->files_written;

        fill_path(path, sizeof(path), cfg->target_path, id);
        if (fill_write(path, buf, size, agent_prng_next(&prng)) < 0) {
            fill_fail(a, "--fill: write %s (%llu bytes): %s", path, (unsigned long long)size,
                      strerror(errno));
            goto out;
        }
        live[n_live].id = id;
        live[n_live++].size = size;
        a->files_written++;
        a->bytes_written += size;
    }
    snprintf(path, sizeof(path), "%s/%s", cfg->target_path, AGENT_FILL_DIR);
    dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0 || syncfs(dfd) < 0) {
        fill_fail(a, "--fill: syncfs %s: %s", path, strerror(errno));
        goto out;
    }
    if (statvfs(cfg->target_path, &vfs) == 0)
        a->used_percent = agent_used_percent(vfs.f_blocks, vfs.f_bfree, vfs.f_bavail);
    a->fill_s = agent_now() - t0;
    agent_progress(cfg->quiet, " %llu files written, %llu deleted, %.1f %% used\n",
                   (unsigned long long)a->files_written, (unsigned long long)a->files_deleted,
                   a->used_percent);
    if (agent_free_extents_read(cfg->target_path, a) < 0)
        agent_msg("--fill: free extents of %s not read: %s", cfg->target_path,
                  errno == EOPNOTSUPP || errno == ENOTTY
                      ? "the filesystem has no GETFSMAP" : strerror(errno));
    rc = 0;
out:
    if (dfd >= 0)
        close(dfd);
    free(live);
    free(buf);
    return rc;
}

int
agent_free_extents_read(const char *dir, struct agent_aging *a)
{
    size_t sz = sizeof(struct agent_fsmap_head) + FSMAP_BATCH * sizeof(struct agent_fsmap);
    struct agent_fsmap_head *h = calloc(1, sz);
    uint64_t run_start = 0, run_len = 0;
    uint32_t run_dev = 0;
    int fd, e;

    if (!h) {
        errno = ENOMEM;
        return -1;
    }
    fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        e = errno;
        free(h);
        errno = e;
        return -1;
    }
    h->fmh_count = FSMAP_BATCH;
    memset(&h->fmh_keys[1], 0xff, sizeof(h->fmh_keys[1]));
    memset(h->fmh_keys[1].fmr_reserved, 0, sizeof(h->fmh_keys[1].fmr_reserved));
    memset(a->free_count, 0, sizeof(a->free_count));
    a->free_extents = a->free_bytes = a->largest_free = 0;
    for (;;) {
        int last = 0;

        if (ioctl(fd, AGENT_FS_IOC_GETFSMAP, h) < 0) {
            e = errno;
            close(fd);
            free(h);
            errno = e;
            return -1;
        }
        for (uint32_t i = 0; i < h->fmh_entries; i++) {
            const struct agent_fsmap *r = &h->fmh_recs[i];

            if (r->fmr_flags & AGENT_FMR_OF_LAST)
                last = 1;
            if (r->fmr_owner != AGENT_FMR_OWN_FREE || !r->fmr_length)
                continue;
            if (run_len && r->fmr_device == run_dev && r->fmr_physical == run_start + run_len) {
                run_len += r->fmr_length;      /* split at a group boundary */
                continue;
            }
            if (run_len)
                agent_free_extent_add(a, run_len);
            run_dev = r->fmr_device;
            run_start = r->fmr_physical;
            run_len = r->fmr_length;
        }
        if (last || h->fmh_entries == 0)
            break;
        h->fmh_keys[0] = h->fmh_recs[h->fmh_entries - 1];
    }
    if (run_len)
        agent_free_extent_add(a, run_len);
    close(fd);
    free(h);
    a->free_known = 1;
    a->free_source = "GETFSMAP";
    return 0;
}

/* ---- precondition ---------------------------------------------------------- */

/* Run job @text (named @name) on the target of @cfg into a new result
 * (*@out, agent_job_result_free).  0, or -1 with a->error. */
static int
precondition_job(const struct agent_config *cfg, const char *name, const char *text,
                 struct agent_aging *a, struct agent_job_result **out)
{
    struct agent_job job;
    struct agent_job_target t;
    char err[256];
    unsigned lbs = 512;
    int fd;

    *out = NULL;
    if (agent_jobfile_parse(text, name, &job, err, sizeof(err)) < 0)
        return fill_fail(a, "--precondition: %s", err);
    memset(&t, 0, sizeof(t));
    t.path = cfg->target_path;
    t.is_blockdev = 1;
    t.dev_size = cfg->target_size;
    t.ram_mib = cfg->ram_mib;
    t.force = 1;
    fd = open(cfg->target_path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        int v = 0;

        if (ioctl(fd, BLKSSZGET, &v) == 0 && v > 0)
            lbs = (unsigned)v;
        close(fd);
    }
    t.logical_block_size = lbs;
    if (agent_jobs_check(&job, 1, &t, err, sizeof(err)) < 0)
        return fill_fail(a, "--precondition: %s", err);
    *out = agent_job_result_new(&job);
    if (!*out)
        return fill_fail(a, "--precondition: out of memory");
    (*out)->on_blockdev = 1;
    if (agent_job_run(&job, &t, cfg->aging_seed, cfg->quiet, *out) < 0)
        return fill_fail(a, "--precondition: %s: %s", name, (*out)->error);
    return 0;
}

int
agent_precondition_run(const struct agent_config *cfg, struct agent_aging *a)
{
    char text[512];
    struct agent_job_result *r = NULL;
    int rc;

    a->precondition_max_s = cfg->precondition_s;
    a->window_s = cfg->precondition_window_s;
    a->ramp_s = cfg->precondition_window_s / 3;
    rc = precondition_job(cfg, "precondition-sequential",
                          "[precondition-sequential]\nrw=write\nbs=1m\niodepth=16\n"
                          "direct=1\n", a, &r);
    if (r) {
        a->seq_bytes = r->d[AGENT_DDIR_WRITE].bytes;
        a->seq_s = r->elapsed_s;
    }
    agent_job_result_free(r);
    r = NULL;
    if (rc < 0)
        return -1;
    snprintf(text, sizeof(text),
             "[precondition-random]\nrw=randwrite\nbs=4k\niodepth=32\ndirect=1\n"
             /* randrepeat=0: the offsets from --aging-seed (jobgen.h) */
             "norandommap\nrandrepeat=0\ntime_based\nruntime=%us\nss=iops_slope:%g%%\nss_dur=%us\n"
             "ss_ramp=%us\n", cfg->precondition_s, AGENT_PRECONDITION_SS_LIMIT,
             a->window_s, a->ramp_s);
    rc = precondition_job(cfg, "precondition-random", text, a, &r);
    if (r) {
        a->random_bytes = r->d[AGENT_DDIR_WRITE].bytes;
        a->random_s = r->elapsed_s;
        a->ss_reached = r->ss.reached;
        a->ss_at_s = r->ss.at_s;
        a->ss_criterion = r->ss.criterion;
    }
    agent_job_result_free(r);
    return rc;
}
