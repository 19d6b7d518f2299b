/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: random seeks with seeker processes (see seeks.h).
 *
 * Protocol (as bonnie++ 2.00a, with a start barrier instead of its
 * sleep(3)): the parent opens the file (bon_io.cpp seek_test reopens it
 * before starting the seekers) and forks the seekers; each opens the file
 * and writes one byte to the ready pipe; the parent then writes all
 * tickets (int64: chunk+1, negated for an update; 0 ends a seeker) to the
 * ticket pipe in PIPE_BUF-sized batches, so 8-byte tickets are never
 * split, and then fsyncs and closes its own descriptor while the seekers
 * are still working (bonnie++'s Close() after its ticket write: with more
 * tickets than the pipe holds, this fsync runs inside the timed part and
 * writes back the updates made so far); whichever seeker reads a ticket
 * performs it.  Each seeker reports its start and end time
 * (CLOCK_MONOTONIC, system-wide) and worst seek on the report pipe. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "seeks.h"

struct seeker_report {
    double start, end, worst;
    uint64_t done;
    int failed;
    char error[200];
};

static int
read_full(int fd, void *buf, size_t len)
{
    size_t got = 0;

    while (got < len) {
        ssize_t r = read(fd, (char *)buf + got, len - got);

        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

static int
write_full(int fd, const void *buf, size_t len)
{
    size_t done = 0;

    while (done < len) {
        ssize_t r = write(fd, (const char *)buf + done, len - done);

        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        done += (size_t)r;
    }
    return 0;
}

/* One seek: bonnie++ CFileOp::doseek. */
static int
do_seek(int fd, char *buf, size_t chunk, uint64_t where, int update, int sync,
        char *err, size_t errlen)
{
    off_t off = (off_t)(where * chunk);
    size_t total = 0;

    if (lseek(fd, off, SEEK_SET) < 0) {
        snprintf(err, errlen, "lseek to chunk %llu: %s",
                 (unsigned long long)where, strerror(errno));
        return -1;
    }
    while (total < chunk) {
        ssize_t r = read(fd, buf + total, chunk - total);

        if (r <= 0) {
            if (r < 0 && errno == EINTR)
                continue;
            snprintf(err, errlen, "read chunk %llu: %s",
                     (unsigned long long)where,
                     r < 0 ? strerror(errno) : "unexpected end of file");
            return -1;
        }
        total += (size_t)r;
    }
    if (!update)
        return 0;
    buf[where % chunk]--;
    if (lseek(fd, off, SEEK_SET) < 0) {
        snprintf(err, errlen, "lseek to chunk %llu: %s",
                 (unsigned long long)where, strerror(errno));
        return -1;
    }
    ssize_t r = write(fd, buf, chunk);
    if (r != (ssize_t)chunk) {
        snprintf(err, errlen, "write chunk %llu: %s", (unsigned long long)where,
                 r < 0 ? strerror(errno) : "short write");
        return -1;
    }
    if (sync && fsync(fd) < 0) {
        snprintf(err, errlen, "fsync: %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* fsync that tolerates a file that cannot be synced (EINVAL); 0 or -1. */
static int
sync_fd(int fd)
{
    return fsync(fd) < 0 && errno != EINVAL ? -1 : 0;
}

static void
seeker(const struct agent_config *cfg, const char *path, int ticket_fd,
       int ready_fd, int report_fd)
{
    struct seeker_report rep;
    size_t chunk = cfg->chunk_size;
    char *buf = agent_aligned_alloc(chunk);
    int64_t ticket;
    int fd;

    memset(&rep, 0, sizeof(rep));
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    fd = open(path, O_RDWR | (cfg->direct_io ? O_DIRECT : 0));
    if (fd < 0 || !buf) {
        rep.failed = 1;
        snprintf(rep.error, sizeof(rep.error), "open %s: %s", path,
                 buf ? strerror(errno) : "out of memory");
    }
    if (write_full(ready_fd, "r", 1) < 0)
        _exit(1);
    while (!rep.failed) {
        if (read_full(ticket_fd, &ticket, sizeof(ticket)) < 0) {
            rep.failed = 1;
            snprintf(rep.error, sizeof(rep.error), "cannot read a ticket");
            break;
        }
        if (ticket == 0)
            break;
        double t0 = agent_now();
        if (rep.done == 0)
            rep.start = t0;
        uint64_t where = (uint64_t)(ticket < 0 ? -ticket : ticket) - 1;
        if (do_seek(fd, buf, chunk, where, ticket < 0, cfg->fsync_every_write,
                    rep.error, sizeof(rep.error)) < 0) {
            rep.failed = 1;
            break;
        }
        rep.end = agent_now();
        if (rep.end - t0 > rep.worst)
            rep.worst = rep.end - t0;
        rep.done++;
    }
    /* bonnie++ closes (fsync + close, bon_io.cpp CFileOp::action) before
     * taking the end time */
    if (fd >= 0 && !rep.failed) {
        if (sync_fd(fd) < 0) {
            rep.failed = 1;
            snprintf(rep.error, sizeof(rep.error), "fsync %s: %s", path,
                     strerror(errno));
        }
        close(fd);
        fd = -1;
        rep.end = agent_now();
    }
    if (fd >= 0)
        close(fd);
    if (rep.done == 0)
        rep.start = rep.end = agent_now();
    write_full(report_fd, &rep, sizeof(rep));
    _exit(rep.failed ? 1 : 0);
}

int
agent_seek_test(struct agent_ctx *ctx, const char *path, uint64_t size)
{
    const struct agent_config *cfg = ctx->cfg;
    const enum agent_test t = AGENT_SEEKS;
    uint64_t total_chunks = size / cfg->chunk_size;
    uint32_t procs = cfg->seek_procs, started = 0;
    size_t n_tickets = (size_t)cfg->seeks + procs;
    int64_t *tickets = NULL;
    pid_t *pids = NULL;
    int ticket_pipe[2] = { -1, -1 }, ready_pipe[2] = { -1, -1 };
    int report_pipe[2] = { -1, -1 };
    int fd = -1;
    struct agent_clock c;
    double first = 0, last = 0, worst = 0;
    uint64_t done = 0;
    int rc = -1;
    char err[AGENT_ERROR_LEN] = "";

    if (agent_before_test(ctx, t) < 0)
        return -1;
    if (total_chunks == 0)
        return agent_fail(ctx, t, "%s: size %llu is under one chunk", path,
                          (unsigned long long)size);
    agent_progress(cfg->quiet, "Random seeks (%u processes)...", procs);

    /* the whole op sequence comes from the seed, before any I/O */
    tickets = calloc(n_tickets, sizeof(*tickets));
    pids = calloc(procs, sizeof(*pids));
    if (!tickets || !pids) {
        agent_fail(ctx, t, "out of memory for %zu tickets", n_tickets);
        goto out;
    }
    agent_digest_str(ctx, "seeks");
    agent_digest_u64(ctx, total_chunks);
    for (uint32_t i = 0; i < cfg->seeks; i++) {
        uint64_t where = agent_prng_below(&ctx->prng, total_chunks);
        int update = agent_prng_below(&ctx->prng, 10) == 0;

        tickets[i] = update ? -(int64_t)(where + 1) : (int64_t)(where + 1);
        agent_digest_u64(ctx, (uint64_t)tickets[i]);
    }

    if (pipe2(ticket_pipe, O_CLOEXEC) < 0 || pipe2(ready_pipe, O_CLOEXEC) < 0
        || pipe2(report_pipe, O_CLOEXEC) < 0) {
        agent_fail(ctx, t, "pipe: %s", strerror(errno));
        goto out;
    }
    fd = open(path, O_RDWR | O_CLOEXEC | (cfg->direct_io ? O_DIRECT : 0));
    if (fd < 0) {
        agent_fail(ctx, t, "open %s: %s", path, strerror(errno));
        goto out;
    }
    fflush(NULL);
    for (; started < procs; started++) {
        pid_t pid = fork();

        if (pid < 0) {
            agent_fail(ctx, t, "fork seeker %u: %s", started, strerror(errno));
            goto out;
        }
        if (pid == 0) {
            close(fd);
            close(ticket_pipe[1]);
            close(ready_pipe[0]);
            close(report_pipe[0]);
            seeker(cfg, path, ticket_pipe[0], ready_pipe[1], report_pipe[1]);
        }
        pids[started] = pid;
    }
    close(ticket_pipe[0]);
    close(ready_pipe[1]);
    close(report_pipe[1]);
    ticket_pipe[0] = ready_pipe[1] = report_pipe[1] = -1;

    for (uint32_t i = 0; i < procs; i++) {
        char ch;

        if (read_full(ready_pipe[0], &ch, 1) < 0) {
            agent_fail(ctx, t, "seeker %u did not start", i);
            goto out;
        }
    }
    agent_clock_start(&c);
    {
        const size_t batch = PIPE_BUF / sizeof(int64_t);

        for (size_t i = 0; i < n_tickets; i += batch) {
            size_t n = n_tickets - i < batch ? n_tickets - i : batch;

            if (write_full(ticket_pipe[1], tickets + i, n * sizeof(int64_t)) < 0) {
                snprintf(err, sizeof(err), "write tickets: %s",
                         strerror(errno));
                break;
            }
            if (agent_interrupted)
                break;
        }
    }
    close(ticket_pipe[1]);
    ticket_pipe[1] = -1;
    if (sync_fd(fd) < 0 && !err[0])
        snprintf(err, sizeof(err), "fsync %s: %s", path, strerror(errno));
    close(fd);
    fd = -1;
    if (agent_interrupted) {
        for (uint32_t i = 0; i < started; i++)
            kill(pids[i], SIGTERM);
    }
    for (uint32_t i = 0; i < procs; i++) {
        struct seeker_report rep;

        if (read_full(report_pipe[0], &rep, sizeof(rep)) < 0) {
            if (!err[0])
                snprintf(err, sizeof(err), "a seeker died without a report");
            break;
        }
        if (rep.failed && !err[0])
            snprintf(err, sizeof(err), "%s", rep.error);
        if (rep.done) {
            if (done == 0 || rep.start < first)
                first = rep.start;
            if (done == 0 || rep.end > last)
                last = rep.end;
        }
        done += rep.done;
        if (rep.worst > worst)
            worst = rep.worst;
    }
    for (uint32_t i = 0; i < started; i++)
        waitpid(pids[i], NULL, 0);
    started = 0;
    if (agent_interrupted) {
        agent_fail(ctx, t, "interrupted");
        goto out;
    }
    if (err[0]) {
        agent_fail(ctx, t, "%s", err);
        goto out;
    }
    if (done != cfg->seeks) {
        agent_fail(ctx, t, "%llu of %u seeks done", (unsigned long long)done,
                   cfg->seeks);
        goto out;
    }
    agent_record(ctx, t, &c, (double)cfg->seeks, worst);
    /* bonnie++: elapsed from the first seeker's start to the last's end */
    ctx->run->s[t].elapsed_s = last - first;
    agent_progress(cfg->quiet, "done\n");
    rc = 0;

 out:
    for (uint32_t i = 0; i < started; i++) {
        kill(pids[i], SIGTERM);
        waitpid(pids[i], NULL, 0);
    }
    if (fd >= 0)
        close(fd);
    for (int i = 0; i < 2; i++) {
        if (ticket_pipe[i] >= 0)
            close(ticket_pipe[i]);
        if (ready_pipe[i] >= 0)
            close(ready_pipe[i]);
        if (report_pipe[i] >= 0)
            close(report_pipe[i]);
    }
    free(tickets);
    free(pids);
    return rc;
}
