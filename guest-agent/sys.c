/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: system helpers (see sys.h). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "sys.h"

volatile sig_atomic_t agent_interrupted;

void
agent_msg(const char *fmt, ...)
{
    va_list ap;

    fflush(stdout);
    fputs("vmdiskcmp-agent: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void
agent_progress(int quiet, const char *fmt, ...)
{
    va_list ap;

    if (quiet)
        return;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fflush(stderr);
}

double
agent_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

uint64_t
agent_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void
agent_clock_start(struct agent_clock *c)
{
    getrusage(RUSAGE_SELF, &c->self0);
    getrusage(RUSAGE_CHILDREN, &c->child0);
    c->t0 = agent_now();
}

static double
tv_diff(struct timeval a, struct timeval b)
{
    return (double)(a.tv_sec - b.tv_sec) + (double)(a.tv_usec - b.tv_usec) / 1e6;
}

void
agent_clock_read(const struct agent_clock *c, double *elapsed, double *user_s,
                 double *system_s)
{
    struct rusage self, child;
    double now = agent_now();

    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &child);
    *elapsed = now - c->t0;
    *user_s = tv_diff(self.ru_utime, c->self0.ru_utime)
              + tv_diff(child.ru_utime, c->child0.ru_utime);
    *system_s = tv_diff(self.ru_stime, c->self0.ru_stime)
                + tv_diff(child.ru_stime, c->child0.ru_stime);
}

int
agent_drop_caches(void)
{
    int fd, saved;

    sync();
    fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    if (write(fd, "3\n", 2) != 2) {
        saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return close(fd);
}

void *
agent_aligned_alloc(size_t len)
{
    void *p = NULL;

    if (posix_memalign(&p, 4096, len ? len : 1))
        return NULL;
    memset(p, 0, len);
    return p;
}

int
agent_write_file_atomic(const char *path, const char *buf, size_t len)
{
    char tmp[4200];
    int fd = -1;
    size_t done = 0;

    if (snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", path, (long)getpid())
        >= (int)sizeof(tmp)) {
        agent_msg("%s: path too long", path);
        return -1;
    }
    fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) {
        agent_msg("write %s: %s", tmp, strerror(errno));
        return -1;
    }
    while (done < len) {
        ssize_t r = write(fd, buf + done, len - done);

        if (r < 0) {
            if (errno == EINTR)
                continue;
            goto error;
        }
        done += (size_t)r;
    }
    if (fsync(fd) < 0)
        goto error;
    if (close(fd) < 0) {
        fd = -1;
        goto error;
    }
    fd = -1;
    if (rename(tmp, path) < 0)
        goto error;
    return 0;

 error:
    agent_msg("write %s: %s", path, strerror(errno));
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    return -1;
}

/* one "begin ID" / "end ID" line on --progress-fd; a reader that went away
 * costs the test nothing (the write's error is ignored) */
static void
progress_event(const struct agent_ctx *ctx, const char *what, enum agent_test t)
{
    char line[64];
    int n;

    if (ctx->cfg->progress_fd < 0)
        return;
    n = snprintf(line, sizeof(line), "%s %s\n", what, agent_test_id[t]);
    if (n > 0 && (size_t)n < sizeof(line) && write(ctx->cfg->progress_fd, line, (size_t)n) < 0)
        return;
}

int
agent_fail(struct agent_ctx *ctx, enum agent_test t, const char *fmt, ...)
{
    struct agent_sample *s = &ctx->run->s[t];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(s->error, sizeof(s->error), fmt, ap);
    va_end(ap);
    s->state = AGENT_FAILED;
    if (!ctx->run->failed) {
        ctx->run->failed = 1;
        snprintf(ctx->run->error, sizeof(ctx->run->error), "%s: %s",
                 agent_test_id[t], s->error);
    }
    agent_progress(ctx->cfg->quiet, "\n");
    agent_msg("%s: %s", agent_test_id[t], s->error);
    progress_event(ctx, "end", t);
    return -1;
}

void
agent_record(struct agent_ctx *ctx, enum agent_test t,
             const struct agent_clock *c, double amount, double latency_s)
{
    struct agent_sample *s = &ctx->run->s[t];
    double user_s, system_s;

    agent_clock_read(c, &s->elapsed_s, &user_s, &system_s);
    s->cpu_s = user_s + system_s;
    s->amount = amount;
    s->latency_s = latency_s;
    s->state = AGENT_DONE;
    progress_event(ctx, "end", t);
}

int
agent_before_test(struct agent_ctx *ctx, enum agent_test t)
{
    if (agent_interrupted)
        return agent_fail(ctx, t, "interrupted");
    if (ctx->cfg->drop_caches && agent_drop_caches() < 0)
        return agent_fail(ctx, t, "drop caches: %s", strerror(errno));
    progress_event(ctx, "begin", t);
    return 0;
}

void
agent_digest_u64(struct agent_ctx *ctx, uint64_t v)
{
    ctx->run->digest = agent_fnv1a64_u64(ctx->run->digest, v);
}

void
agent_digest_str(struct agent_ctx *ctx, const char *s)
{
    ctx->run->digest = agent_fnv1a64_str(ctx->run->digest, s);
}

/* One PROT_NONE page on each side keeps the mapping from merging with a
 * neighbour of the same flags (another clone's buffers), so a VMA of its
 * own starts at the buffers and agent_huge_kib() finds it. */
#define GUARD 4096u

uint64_t
agent_buffers_span(uint64_t len)
{
    return (len + AGENT_HUGE_PAGE - 1) / AGENT_HUGE_PAGE * AGENT_HUGE_PAGE;
}

void *
agent_buffers_alloc(size_t len)
{
    size_t span = (size_t)agent_buffers_span(len);
    size_t map = span + AGENT_HUGE_PAGE + 2 * GUARD;
    char *p, *a;

    if (!len || span < len || map < span) {
        errno = ENOMEM;
        return NULL;
    }
    p = mmap(NULL, map, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    a = (char *)(((uintptr_t)p + GUARD + AGENT_HUGE_PAGE - 1)
                 & ~(uintptr_t)(AGENT_HUGE_PAGE - 1));
    if (a - GUARD > p)
        munmap(p, (size_t)(a - GUARD - p));
    if (a + span + GUARD < p + map)
        munmap(a + span + GUARD, (size_t)(p + map - (a + span + GUARD)));
    if (mprotect(a, span, PROT_READ | PROT_WRITE) < 0) {
        int e = errno;

        munmap(a - GUARD, span + 2 * GUARD);
        errno = e;
        return NULL;
    }
#ifdef MADV_HUGEPAGE
    (void)madvise(a, span, MADV_HUGEPAGE);  /* EINVAL: no THP; 4 KiB pages */
#endif
    return a;
}

void
agent_buffers_free(void *p, size_t len)
{
    if (p)
        munmap((char *)p - GUARD, (size_t)agent_buffers_span(len) + 2 * GUARD);
}

long long
agent_huge_kib(const void *p)
{
    FILE *f = fopen("/proc/self/smaps", "re");
    char line[512];
    int in = 0;
    long long kib = -1;

    if (!f)
        return -1;
    while (fgets(line, sizeof(line), f)) {
        unsigned long long lo, hi, v;
        char perms[5];

        /* a mapping's header: "lo-hi perms offset dev inode [path]" */
        if (sscanf(line, "%llx-%llx %4s ", &lo, &hi, perms) == 3)
            in = lo == (unsigned long long)(uintptr_t)p;
        else if (in && sscanf(line, "AnonHugePages: %llu kB", &v) == 1) {
            kib = (long long)v;
            break;
        }
    }
    fclose(f);
    return kib;
}
