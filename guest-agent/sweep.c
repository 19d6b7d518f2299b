/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: the block-size sweep (see sweep.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep.h"

static int
sweep_fail(struct agent_ctx *ctx, struct agent_sweep_sample *w,
           const char *fmt, const char *path, int err)
{
    char msg[AGENT_ERROR_LEN];
    const char *id = agent_sweep_test_id[w->is_write ? AGENT_SWEEP_WRITE : AGENT_SWEEP_READ];

    snprintf(msg, sizeof(msg), fmt, path, strerror(err));
    snprintf(w->error, sizeof(w->error), "%s", msg);
    w->state = AGENT_FAILED;
    if (!ctx->run->failed) {
        ctx->run->failed = 1;
        snprintf(ctx->run->error, sizeof(ctx->run->error), "%s@%u: %s",
                 id, w->block_size, msg);
    }
    agent_progress(ctx->cfg->quiet, "\n");
    agent_msg("%s@%u: %s", id, w->block_size, msg);
    /* EINVAL (alignment) concerns this block size only */
    return err == EINVAL ? 0 : -1;
}

/* One pass: write (or read) @w->bytes in @w->block_size calls. */
static int
pass(struct agent_ctx *ctx, struct agent_sweep_sample *w, const char *path,
     int is_blockdev, char *buf)
{
    const struct agent_config *cfg = ctx->cfg;
    int flags = (w->is_write ? O_WRONLY : O_RDONLY) | O_CLOEXEC;
    uint64_t ops = cfg->file_size / w->block_size;
    struct agent_clock c;
    double worst = 0;
    int fd;

    if (w->is_write && !is_blockdev)
        flags |= O_CREAT | O_TRUNC;
    if (cfg->sweep_direct)
        flags |= O_DIRECT;
    if (cfg->drop_caches && agent_drop_caches() < 0)
        return sweep_fail(ctx, w, "%s: drop caches: %s", path, errno);
    if ((fd = open(path, flags, 0600)) < 0)
        return sweep_fail(ctx, w, "open %s: %s", path, errno);
    agent_clock_start(&c);
    for (uint64_t i = 0; i < ops; i++) {
        double t0 = agent_now();
        ssize_t r = w->is_write ? write(fd, buf, w->block_size)
                                : read(fd, buf, w->block_size);
        double d = agent_now() - t0;

        if (r != (ssize_t)w->block_size) {
            int e = r < 0 ? errno : EIO;

            close(fd);
            return sweep_fail(ctx, w, w->is_write ? "write %s: %s"
                                                  : "read %s: %s", path, e);
        }
        if (d > worst)
            worst = d;
        if (agent_interrupted) {
            close(fd);
            return sweep_fail(ctx, w, "%s: %s", path, EINTR);
        }
    }
    if (w->is_write && fsync(fd) < 0) {
        int e = errno;

        close(fd);
        return sweep_fail(ctx, w, "fsync %s: %s", path, e);
    }
    if (close(fd) < 0)
        return sweep_fail(ctx, w, "close %s: %s", path, errno);
    agent_clock_read(&c, &w->elapsed_s, &w->user_s, &w->system_s);
    w->ops = ops;
    w->bytes = ops * w->block_size;
    w->latency_s = worst;
    w->state = AGENT_DONE;
    return 0;
}

int
agent_sweep(struct agent_ctx *ctx, const char *path, int is_blockdev)
{
    const struct agent_config *cfg = ctx->cfg;
    uint32_t max_bs = 0;
    char *buf;
    int rc = 0;

    for (size_t i = 0; i < cfg->n_sweep_sizes; i++)
        if (cfg->sweep_sizes[i] > max_bs)
            max_bs = cfg->sweep_sizes[i];
    if (!(buf = agent_aligned_alloc(max_bs))) {
        agent_msg("sweep: out of memory for a %u-byte buffer", max_bs);
        ctx->run->failed = 1;
        snprintf(ctx->run->error, sizeof(ctx->run->error),
                 "sweep: out of memory");
        return -1;
    }
    memset(buf, 0x5a, max_bs);
    agent_digest_str(ctx, "sweep");
    agent_digest_u64(ctx, cfg->file_size);
    for (size_t i = 0; i < cfg->n_sweep_sizes && rc == 0; i++) {
        for (int is_write = 1; is_write >= 0 && rc == 0; is_write--) {
            struct agent_sweep_sample *w = &ctx->run->sweep[ctx->run->n_sweep++];

            memset(w, 0, sizeof(*w));
            w->is_write = is_write;
            w->block_size = cfg->sweep_sizes[i];
            agent_digest_u64(ctx, (uint64_t)w->block_size << 1 | (unsigned)is_write);
            agent_progress(cfg->quiet, "Sweep %s at %u bytes...",
                           is_write ? "write" : "read", w->block_size);
            rc = pass(ctx, w, path, is_blockdev, buf);
            if (w->state == AGENT_FAILED && is_write)
                break;  /* nothing to read back at this size */
            agent_progress(cfg->quiet, w->state == AGENT_DONE ? "done\n" : "");
        }
    }
    if (!is_blockdev)
        unlink(path);
    free(buf);
    return rc;
}
