/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: the sequential tests (bonnie++ 2.00a bonnie++.cpp
 * TestFileOps and bon_io.cpp CFileOp), in bonnie++'s order: per-char
 * write, block write, rewrite, per-char read, block read.  Every test
 * ends with fsync(2) + close(2) inside the timed interval, as bonnie++'s
 * CFileOp::Close.  Latency = the worst chunk (per-char: a chunk of
 * one-byte calls), as bonnie++'s Duration::getMax. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "seqio.h"

/* --per-char=stdio: the stream buffer bonnie++ 1.03's putc/getc had, as
 * glibc sizes it on the first access (libio/filedoalloc.c
 * _IO_file_doallocate: BUFSIZ = 8192, or st_blksize when smaller - 4096
 * on ext4), so read(2)/write(2) move as many bytes at a time as there.
 * musl's own buffer is 1024 bytes, and musl's setvbuf keeps UNGET = 8
 * bytes of a given buffer for ungetc (src/stdio/setvbuf.c), so they are
 * added.  One stream is open at a time: one static buffer. */
#define GLIBC_BUFSIZ 8192
#ifdef __GLIBC__
#define STDIO_UNGET 0
#else
#define STDIO_UNGET 8
#endif
static char stdio_buf[GLIBC_BUFSIZ + STDIO_UNGET];

/* Open the test file; @create unlinks it first and uses O_EXCL. */
static int
open_file(struct agent_ctx *ctx, enum agent_test t, int create, int direct)
{
    int flags = O_RDWR | O_CLOEXEC;
    int fd;

    if (create) {
        if (unlink(ctx->file_path) < 0 && errno != ENOENT)
            return agent_fail(ctx, t, "unlink %s: %s", ctx->file_path,
                              strerror(errno));
        flags |= O_CREAT | O_EXCL;
    }
    if (direct)
        flags |= O_DIRECT;
    fd = open(ctx->file_path, flags, 0600);
    if (fd < 0)
        return agent_fail(ctx, t, "open %s: %s", ctx->file_path,
                          strerror(errno));
    return fd;
}

/* fsync + close, as bonnie++ CFileOp::Close (inside the timed interval). */
static int
close_file(struct agent_ctx *ctx, enum agent_test t, int fd)
{
    if (fsync(fd) < 0) {
        int e = errno;

        close(fd);
        return agent_fail(ctx, t, "fsync %s: %s", ctx->file_path, strerror(e));
    }
    if (close(fd) < 0)
        return agent_fail(ctx, t, "close %s: %s", ctx->file_path,
                          strerror(errno));
    return 0;
}

static int
io_error(struct agent_ctx *ctx, enum agent_test t, const char *op, ssize_t r,
         size_t want)
{
    if (r < 0)
        return agent_fail(ctx, t, "%s %s: %s", op, ctx->file_path,
                          strerror(errno));
    return agent_fail(ctx, t, "%s %s: short transfer (%zd of %zu bytes)", op,
                      ctx->file_path, r, want);
}

/* Read one whole chunk (bonnie++ CFileOp::read_block loops on short
 * reads); end of file is an error. */
static int
read_chunk(struct agent_ctx *ctx, enum agent_test t, int fd, char *buf,
           size_t chunk, const char *op)
{
    size_t total = 0;

    while (total < chunk) {
        ssize_t r = read(fd, buf + total, chunk - total);

        if (r <= 0) {
            if (r < 0 && errno == EINTR)
                continue;
            return io_error(ctx, t, op, r < 0 ? r : (ssize_t)total, chunk);
        }
        total += (size_t)r;
    }
    return 0;
}

/* Open the test file for a per-char test; with --per-char stdio also a
 * stdio stream over it (@mode "w" or "r") in *fp, else *fp = NULL.
 * Returns the fd or -1. */
static int
per_char_open(struct agent_ctx *ctx, enum agent_test t, int create,
              const char *mode, FILE **fp)
{
    int fd;

    *fp = NULL;
    if ((fd = open_file(ctx, t, create, 0)) < 0)
        return -1;
    if (ctx->cfg->per_char == AGENT_PER_CHAR_STDIO) {
        struct stat st;
        size_t size = GLIBC_BUFSIZ;

        if (fstat(fd, &st) == 0 && st.st_blksize > 0
            && st.st_blksize < GLIBC_BUFSIZ)
            size = (size_t)st.st_blksize;
        if (!(*fp = fdopen(fd, mode))) {
            close(fd);
            return agent_fail(ctx, t, "fdopen %s: %s", ctx->file_path,
                              strerror(errno));
        }
        setvbuf(*fp, stdio_buf, _IOFBF, size + STDIO_UNGET);
    }
    return fd;
}

/* Close a per-char test's file after a failure: the stream if any (which
 * closes the fd), else the fd. */
static void
per_char_drop(int fd, FILE *fp)
{
    if (fp)
        fclose(fp);
    else
        close(fd);
}

/* End a per-char test inside the timed interval: @flush (write side)
 * flushes the stream first (a failure is reported as putc's), then fsync +
 * close (close_file on a dup of the stream's fd), then the record over
 * @bytes.  0 or -1. */
static int
per_char_finish(struct agent_ctx *ctx, enum agent_test t, int fd, FILE *fp,
                int flush, struct agent_clock *c, uint64_t bytes, double worst)
{
    if (flush && fp && fflush(fp) == EOF) {
        int e = errno;

        fclose(fp);
        return agent_fail(ctx, t, "putc %s: %s", ctx->file_path, strerror(e));
    }
    if (close_file(ctx, t, fp ? dup(fd) : fd) < 0) {
        if (fp)
            fclose(fp);
        return -1;
    }
    if (fp)
        fclose(fp);
    agent_record(ctx, t, c, (double)bytes / 1024.0, worst);
    agent_progress(ctx->cfg->quiet, "done\n");
    return 0;
}

static int
per_char_write(struct agent_ctx *ctx, uint64_t bytes, size_t chunk)
{
    const enum agent_test t = AGENT_PUTC;
    struct agent_clock c;
    double worst = 0;
    FILE *fp;
    int fd;

    if (agent_before_test(ctx, t) < 0)
        return -1;
    agent_progress(ctx->cfg->quiet, "Writing a byte at a time...");
    if ((fd = per_char_open(ctx, t, 1, "w", &fp)) < 0)
        return -1;
    agent_clock_start(&c);
    for (uint64_t done = 0; done < bytes;) {
        uint64_t n = bytes - done < chunk ? bytes - done : chunk;
        double t0 = agent_now();

        for (uint64_t i = 0; i < n; i++) {
            char ch = (char)(i & 0x7f);

            if (fp) {
                if (putc(ch, fp) == EOF) {
                    int e = errno;

                    fclose(fp);
                    return agent_fail(ctx, t, "putc %s: %s", ctx->file_path,
                                      strerror(e));
                }
            } else {
                ssize_t r = write(fd, &ch, 1);

                if (r != 1) {
                    io_error(ctx, t, "write", r, 1);
                    close(fd);
                    return -1;
                }
            }
        }
        double d = agent_now() - t0;
        if (d > worst)
            worst = d;
        done += n;
        if (agent_interrupted) {
            per_char_drop(fd, fp);
            return agent_fail(ctx, t, "interrupted");
        }
    }
    return per_char_finish(ctx, t, fd, fp, 1, &c, bytes, worst);
}

static int
block_write(struct agent_ctx *ctx, char *buf, uint64_t chunks, size_t chunk)
{
    const enum agent_test t = AGENT_PUT_BLOCK;
    struct agent_clock c;
    double worst = 0;
    size_t idx = 0;
    int fd;

    if (agent_before_test(ctx, t) < 0)
        return -1;
    agent_progress(ctx->cfg->quiet, "Writing intelligently...");
    if ((fd = open_file(ctx, t, 1, ctx->cfg->direct_io)) < 0)
        return -1;
    memset(buf, 0, chunk);
    agent_clock_start(&c);
    for (uint64_t i = 0; i < chunks; i++) {
        buf[idx]++;
        idx = (idx + 1) % chunk;
        double t0 = agent_now();
        ssize_t r = write(fd, buf, chunk);
        double d = agent_now() - t0;

        if (r != (ssize_t)chunk) {
            io_error(ctx, t, "write", r, chunk);
            close(fd);
            return -1;
        }
        if (d > worst)
            worst = d;
        if (agent_interrupted) {
            close(fd);
            return agent_fail(ctx, t, "interrupted");
        }
    }
    if (close_file(ctx, t, fd) < 0)
        return -1;
    agent_record(ctx, t, &c, (double)chunks * (double)chunk / 1024.0, worst);
    agent_progress(ctx->cfg->quiet, "done\n");
    return 0;
}

static int
rewrite(struct agent_ctx *ctx, char *buf, uint64_t chunks, size_t chunk)
{
    const enum agent_test t = AGENT_REWRITE;
    struct agent_clock c;
    double worst = 0;
    size_t idx = 0;
    int fd;

    if (agent_before_test(ctx, t) < 0)
        return -1;
    agent_progress(ctx->cfg->quiet, "Rewriting...");
    if ((fd = open_file(ctx, t, 0, ctx->cfg->direct_io)) < 0)
        return -1;
    agent_clock_start(&c);
    for (uint64_t i = 0; i < chunks; i++) {
        double t0 = agent_now();

        if (read_chunk(ctx, t, fd, buf, chunk, "read") < 0) {
            close(fd);
            return -1;
        }
        idx %= chunk;
        buf[idx++]++;
        if (lseek(fd, -(off_t)chunk, SEEK_CUR) < 0) {
            io_error(ctx, t, "lseek", -1, 0);
            close(fd);
            return -1;
        }
        ssize_t r = write(fd, buf, chunk);
        if (r != (ssize_t)chunk) {
            io_error(ctx, t, "write", r, chunk);
            close(fd);
            return -1;
        }
        double d = agent_now() - t0;
        if (d > worst)
            worst = d;
        if (agent_interrupted) {
            close(fd);
            return agent_fail(ctx, t, "interrupted");
        }
    }
    if (close_file(ctx, t, fd) < 0)
        return -1;
    agent_record(ctx, t, &c, (double)chunks * (double)chunk / 1024.0, worst);
    agent_progress(ctx->cfg->quiet, "done\n");
    return 0;
}

static int
per_char_read(struct agent_ctx *ctx, char *buf, uint64_t bytes, size_t chunk)
{
    const enum agent_test t = AGENT_GETC;
    struct agent_clock c;
    double worst = 0;
    FILE *fp;
    int fd;

    if (agent_before_test(ctx, t) < 0)
        return -1;
    agent_progress(ctx->cfg->quiet, "Reading a byte at a time...");
    if ((fd = per_char_open(ctx, t, 0, "r", &fp)) < 0)
        return -1;
    agent_clock_start(&c);
    for (uint64_t done = 0; done < bytes;) {
        uint64_t n = bytes - done < chunk ? bytes - done : chunk;
        double t0 = agent_now();

        for (uint64_t i = 0; i < n; i++) {
            unsigned char ch;

            if (fp) {
                int v = getc(fp);

                if (v == EOF) {
                    int e = ferror(fp) ? errno : 0;

                    fclose(fp);
                    return agent_fail(ctx, t, "getc %s: %s", ctx->file_path,
                                      e ? strerror(e) : "unexpected end of file");
                }
                ch = (unsigned char)v;
            } else {
                ssize_t r = read(fd, &ch, 1);

                if (r != 1) {
                    io_error(ctx, t, "read", r, 1);
                    close(fd);
                    return -1;
                }
            }
            buf[ch & 0x7f]++;   /* use the byte, as bonnie++ does */
        }
        double d = agent_now() - t0;
        if (d > worst)
            worst = d;
        done += n;
        if (agent_interrupted) {
            per_char_drop(fd, fp);
            return agent_fail(ctx, t, "interrupted");
        }
    }
    return per_char_finish(ctx, t, fd, fp, 0, &c, bytes, worst);
}

static int
block_read(struct agent_ctx *ctx, char *buf, uint64_t chunks, size_t chunk)
{
    const enum agent_test t = AGENT_GET_BLOCK;
    struct agent_clock c;
    double worst = 0;
    int fd;

    if (agent_before_test(ctx, t) < 0)
        return -1;
    agent_progress(ctx->cfg->quiet, "Reading intelligently...");
    if ((fd = open_file(ctx, t, 0, ctx->cfg->direct_io)) < 0)
        return -1;
    agent_clock_start(&c);
    for (uint64_t i = 0; i < chunks; i++) {
        double t0 = agent_now();

        if (read_chunk(ctx, t, fd, buf, chunk, "read") < 0) {
            close(fd);
            return -1;
        }
        double d = agent_now() - t0;
        if (d > worst)
            worst = d;
        if (agent_interrupted) {
            close(fd);
            return agent_fail(ctx, t, "interrupted");
        }
    }
    if (close_file(ctx, t, fd) < 0)
        return -1;
    agent_record(ctx, t, &c, (double)chunks * (double)chunk / 1024.0, worst);
    agent_progress(ctx->cfg->quiet, "done\n");
    return 0;
}

int
agent_seq_tests(struct agent_ctx *ctx)
{
    const struct agent_config *cfg = ctx->cfg;
    size_t chunk = cfg->chunk_size;
    uint64_t chunks = cfg->file_size / chunk;
    uint64_t per_char = cfg->per_char_size < cfg->file_size
                        ? cfg->per_char_size : cfg->file_size;
    char *buf = agent_aligned_alloc(chunk);
    int rc = -1;

    if (!buf)
        return agent_fail(ctx, AGENT_PUT_BLOCK, "out of memory for a %zu-byte "
                          "buffer", chunk);
    agent_digest_str(ctx, "seq");
    agent_digest_u64(ctx, cfg->file_size);
    agent_digest_u64(ctx, chunk);
    agent_digest_u64(ctx, per_char);

    if (per_char && per_char_write(ctx, per_char, chunk) < 0)
        goto out;
    if (block_write(ctx, buf, chunks, chunk) < 0)
        goto out;
    if (rewrite(ctx, buf, chunks, chunk) < 0)
        goto out;
    if (per_char && per_char_read(ctx, buf, per_char, chunk) < 0)
        goto out;
    if (block_read(ctx, buf, chunks, chunk) < 0)
        goto out;
    rc = 0;
 out:
    free(buf);
    return rc;
}
