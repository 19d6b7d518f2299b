/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: the file tests (bonnie++ 2.00a bon_file.cpp COpenTest
 * and bonnie++.cpp TestDirOps): sequential create, stat/read, delete, then
 * random create, stat/read, delete of cfg->files * 1024 files in
 * DIR/Bonnie.PID (and its cfg->file_dirs subdirectories 00000, 00001...).
 *
 * Names (bonnie++ make_names): 0-12 random characters from [a-z0-9A-Z]
 * after ("sequential", "%010x%s") or before ("random", "%s%010x") the
 * file's index in hex, so sequential names sort in creation order and
 * random ones do not.  Sizes: MIN + uniform [0, MAX-MIN] bytes, drawn in
 * creation order (MAX only when MIN = MAX).  Stat/read = stat(2), then
 * read(2) the whole file CHUNK at a time; sequential stat and delete walk
 * the directory in getdents64(2) order through a glibc-sized buffer (see
 * dir_open), random ones a shuffled order.  Create and delete end
 * with sync(2) inside the timed interval, as bonnie++.  All randomness
 * comes from the run's PRNG and enters the op digest.
 *
 * No O_CLOEXEC on the opens inside the timed loops: musl's open(2) adds a
 * fcntl(F_SETFD) call for it (one more system call per file than
 * bonnie++'s O_CREAT|O_EXCL|O_WRONLY), and the agent never execs. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "filetests.h"

#define RAND_EXTRA_LEN 12
#define NAME_LEN (6 + 10 + RAND_EXTRA_LEN + 1)

static const char rand_chars[] =
    "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

struct file_set {
    uint32_t n;
    char *names;        /* n * NAME_LEN */
    uint32_t *order;    /* permutation of 0..n-1 */
    uint32_t *dir_of;   /* directory index of each file */
    int *dir_fds;       /* -b: open directories to fsync, else NULL */
    char top[4096];     /* DIR/Bonnie.PID */
    int cwd_fd;         /* where we were before chdir(top) */
    int in_top;         /* we are inside top and it exists */
    char *buf;
};

/* A directory read the way bonnie++ 2.00a reads it on Linux: its readdir(3)
 * is glibc's, which fills a buffer of st_blksize bytes clamped to
 * [32 KiB, 1 MiB] with one getdents64(2) call (glibc
 * sysdeps/unix/sysv/linux/opendir.c __alloc_dir; 32 KiB on ext4, ~830
 * entries of our names).  musl's readdir refills a 2 KiB buffer (~50
 * entries) instead, so the refill inside one stat or delete sample - and
 * with it the worst sample, the test's latency - would be ~16x smaller. */
struct dir_reader {
    int fd;
    char *buf;
    size_t size, pos, end;
};

/* The kernel's struct linux_dirent64 (getdents64(2)). */
struct kernel_dirent64 {
    uint64_t d_ino;
    int64_t d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

enum { DIR_BUF_MIN = 32768, DIR_BUF_MAX = 1048576 };

/* Open @path for dir_next: glibc opendir's flags, then fstat for the
 * buffer size.  0, or -1 with errno set. */
static int
dir_open(struct dir_reader *dr, const char *path)
{
    struct stat st;
    size_t size;

    dr->buf = NULL;
    dr->pos = dr->end = 0;
    dr->fd = open(path, O_RDONLY | O_NONBLOCK | O_DIRECTORY);
    if (dr->fd < 0)
        return -1;
    if (fstat(dr->fd, &st) < 0)
        goto fail;
    size = (size_t)st.st_blksize;
    size = size < DIR_BUF_MIN ? DIR_BUF_MIN : size > DIR_BUF_MAX ? DIR_BUF_MAX : size;
    if (!(dr->buf = malloc(size))) {
        errno = ENOMEM;
        goto fail;
    }
    dr->size = size;
    return 0;
 fail:
    {
        int e = errno;

        close(dr->fd);
        dr->fd = -1;
        errno = e;
    }
    return -1;
}

/* The next entry's name, refilling the buffer with one getdents64 call
 * when it is used up; NULL at the end (errno 0) or on an error (errno
 * set). */
static const char *
dir_next(struct dir_reader *dr)
{
    const struct kernel_dirent64 *e;

    if (dr->pos >= dr->end) {
        long r = syscall(SYS_getdents64, dr->fd, dr->buf, dr->size);

        if (r <= 0) {
            errno = r < 0 ? errno : 0;
            return NULL;
        }
        dr->pos = 0;
        dr->end = (size_t)r;
    }
    e = (const struct kernel_dirent64 *)(dr->buf + dr->pos);
    dr->pos += e->d_reclen;
    return e->d_name;
}

static void
dir_close(struct dir_reader *dr)
{
    if (dr->fd >= 0)
        close(dr->fd);
    free(dr->buf);
    dr->fd = -1;
    dr->buf = NULL;
}

static char *
name_at(struct file_set *fs, uint32_t i)
{
    return fs->names + (size_t)i * NAME_LEN;
}

/* noinline: tests/bench/agent-callgrind.sh counts it apart from the timed
 * create loop (it runs before the clock starts, as bonnie++'s). */
static void __attribute__((noinline))
make_names(struct agent_ctx *ctx, struct file_set *fs, int random_names)
{
    uint32_t dirs = ctx->cfg->file_dirs;

    agent_digest_str(ctx, random_names ? "random-names" : "seq-names");
    for (uint32_t i = 0; i < fs->n; i++) {
        char extra[RAND_EXTRA_LEN + 1];
        size_t len = (size_t)agent_prng_below(&ctx->prng, RAND_EXTRA_LEN + 1);
        char *p = name_at(fs, i);

        for (size_t j = 0; j < len; j++)
            extra[j] = rand_chars[agent_prng_below(&ctx->prng,
                                                   sizeof(rand_chars) - 1)];
        extra[len] = '\0';
        fs->dir_of[i] = (uint32_t)((uint64_t)i * dirs / fs->n);
        if (dirs > 1)
            p += sprintf(p, "%05u/", fs->dir_of[i]);
        if (random_names)
            sprintf(p, "%s%010x", extra, i);
        else
            sprintf(p, "%010x%s", i, extra);
        agent_digest_str(ctx, name_at(fs, i));
    }
}

static void
shuffle(struct agent_ctx *ctx, struct file_set *fs)
{
    for (uint32_t i = 0; i < fs->n; i++)
        fs->order[i] = i;
    /* Fisher-Yates (bonnie++ random_sort swaps each with a random index) */
    for (uint32_t i = fs->n; i > 1; i--) {
        uint32_t j = (uint32_t)agent_prng_below(&ctx->prng, i);
        uint32_t tmp = fs->order[i - 1];

        fs->order[i - 1] = fs->order[j];
        fs->order[j] = tmp;
    }
    agent_digest_str(ctx, "shuffle");
    for (uint32_t i = 0; i < fs->n; i++)
        agent_digest_u64(ctx, fs->order[i]);
}

/* Best-effort removal of whatever the tests left (after a failure). */
static void
cleanup(struct agent_ctx *ctx, struct file_set *fs)
{
    char sub[16];

    if (!fs->in_top)
        return;
    for (uint32_t i = 0; i < fs->n; i++)
        unlink(name_at(fs, i));
    if (fs->dir_fds)
        for (uint32_t d = 0; d < ctx->cfg->file_dirs; d++)
            if (fs->dir_fds[d] >= 0) {
                close(fs->dir_fds[d]);
                fs->dir_fds[d] = -1;
            }
    for (uint32_t d = 0; ctx->cfg->file_dirs > 1 && d < ctx->cfg->file_dirs; d++) {
        snprintf(sub, sizeof(sub), "%05u", d);
        rmdir(sub);
    }
    if (fchdir(fs->cwd_fd) == 0)
        rmdir(fs->top);
    fs->in_top = 0;
}

static int
make_dirs(struct agent_ctx *ctx, enum agent_test t, struct file_set *fs)
{
    uint32_t dirs = ctx->cfg->file_dirs;
    char sub[16];

    if (mkdir(fs->top, 0700) < 0)
        return agent_fail(ctx, t, "mkdir %s: %s", fs->top, strerror(errno));
    if (chdir(fs->top) < 0) {
        int e = errno;

        rmdir(fs->top);
        return agent_fail(ctx, t, "chdir %s: %s", fs->top, strerror(e));
    }
    fs->in_top = 1;
    for (uint32_t d = 0; d < dirs; d++) {
        const char *dn = ".";

        if (dirs > 1) {
            snprintf(sub, sizeof(sub), "%05u", d);
            if (mkdir(sub, 0700) < 0)
                return agent_fail(ctx, t, "mkdir %s/%s: %s", fs->top, sub,
                                  strerror(errno));
            dn = sub;
        }
        if (fs->dir_fds) {
            fs->dir_fds[d] = open(dn, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (fs->dir_fds[d] < 0)
                return agent_fail(ctx, t, "open %s/%s: %s", fs->top, dn,
                                  strerror(errno));
        }
    }
    return 0;
}

/* Close the -b directory handles, remove the (now empty) subdirectories
 * unless @subdirs_gone (a sequential delete removed each as it emptied
 * it), then the top directory. */
static int
remove_dirs(struct agent_ctx *ctx, enum agent_test t, struct file_set *fs,
            int subdirs_gone)
{
    uint32_t dirs = ctx->cfg->file_dirs;
    char sub[16];

    for (uint32_t d = 0; d < dirs; d++) {
        if (fs->dir_fds && fs->dir_fds[d] >= 0) {
            close(fs->dir_fds[d]);
            fs->dir_fds[d] = -1;
        }
        if (dirs > 1 && !subdirs_gone) {
            snprintf(sub, sizeof(sub), "%05u", d);
            if (rmdir(sub) < 0)
                return agent_fail(ctx, t, "rmdir %s/%s: %s", fs->top, sub,
                                  strerror(errno));
        }
    }
    if (fchdir(fs->cwd_fd) < 0)
        return agent_fail(ctx, t, "chdir back: %s", strerror(errno));
    fs->in_top = 0;
    if (rmdir(fs->top) < 0)
        return agent_fail(ctx, t, "rmdir %s: %s", fs->top, strerror(errno));
    return 0;
}

static int
create_files(struct agent_ctx *ctx, struct file_set *fs, int random_names)
{
    const struct agent_config *cfg = ctx->cfg;
    enum agent_test t = random_names ? AGENT_RAN_CREATE : AGENT_SEQ_CREATE;
    uint64_t range = cfg->file_max_size - cfg->file_min_size;
    struct agent_clock c;
    double worst = 0;

    if (agent_before_test(ctx, t) < 0)
        return -1;
    agent_progress(cfg->quiet, "Create files in %s order...",
                   random_names ? "random" : "sequential");
    make_names(ctx, fs, random_names);
    if (make_dirs(ctx, t, fs) < 0)
        return -1;
    agent_clock_start(&c);
    for (uint32_t i = 0; i < fs->n; i++) {
        const char *name = name_at(fs, i);
        uint64_t size = range ? cfg->file_min_size
                                + agent_prng_below(&ctx->prng, range + 1)
                              : cfg->file_max_size;
        double t0 = agent_now();
        int fd;

        agent_digest_u64(ctx, size);
        fd = open(name, O_CREAT | O_EXCL | O_WRONLY, 0600);
        if (fd < 0)
            return agent_fail(ctx, t, "create %s/%s: %s", fs->top, name,
                              strerror(errno));
        for (uint64_t off = 0; off < size; off += cfg->file_chunk_size) {
            size_t n = size - off < cfg->file_chunk_size
                       ? (size_t)(size - off) : cfg->file_chunk_size;
            ssize_t r = write(fd, fs->buf, n);

            if (r != (ssize_t)n) {
                int e = errno;

                close(fd);
                return agent_fail(ctx, t, "write %s/%s: %s", fs->top, name,
                                  r < 0 ? strerror(e) : "short write");
            }
        }
        if (fs->dir_fds) {
            if (fsync(fd) < 0 || fsync(fs->dir_fds[fs->dir_of[i]]) < 0) {
                int e = errno;

                close(fd);
                return agent_fail(ctx, t, "fsync %s/%s: %s", fs->top, name,
                                  strerror(e));
            }
        }
        if (close(fd) < 0)
            return agent_fail(ctx, t, "close %s/%s: %s", fs->top, name,
                              strerror(errno));
        double d = agent_now() - t0;
        if (d > worst)
            worst = d;
        if (agent_interrupted)
            return agent_fail(ctx, t, "interrupted");
    }
    sync();
    agent_record(ctx, t, &c, (double)fs->n, worst);
    agent_progress(cfg->quiet, "done.\n");
    return 0;
}

/* stat(2) a file and read it all (bonnie++ COpenTest::stat_file). */
static int
stat_file(struct agent_ctx *ctx, enum agent_test t, struct file_set *fs,
          const char *name)
{
    struct stat st;
    int fd;

    if (stat(name, &st) < 0)
        return agent_fail(ctx, t, "stat %s/%s: %s", fs->top, name,
                          strerror(errno));
    if (st.st_size == 0)
        return 0;
    fd = open(name, O_RDONLY);
    if (fd < 0)
        return agent_fail(ctx, t, "open %s/%s: %s", fs->top, name,
                          strerror(errno));
    for (off_t off = 0; off < st.st_size; off += ctx->cfg->file_chunk_size) {
        size_t n = st.st_size - off < (off_t)ctx->cfg->file_chunk_size
                   ? (size_t)(st.st_size - off) : ctx->cfg->file_chunk_size;
        ssize_t r = read(fd, fs->buf, n);

        if (r != (ssize_t)n) {
            int e = errno;

            close(fd);
            return agent_fail(ctx, t, "read %s/%s: %s", fs->top, name,
                              r < 0 ? strerror(e) : "short read");
        }
    }
    close(fd);
    return 0;
}

/* Unlink one file of directory @d (with -b, fsync that directory, as
 * bonnie++ -b does). */
static int
delete_file(struct agent_ctx *ctx, enum agent_test t, struct file_set *fs,
            const char *name, uint32_t d)
{
    if (unlink(name) < 0)
        return agent_fail(ctx, t, "unlink %s/%s: %s", fs->top, name,
                          strerror(errno));
    if (fs->dir_fds && fsync(fs->dir_fds[d]) < 0)
        return agent_fail(ctx, t, "fsync directory %s: %s", fs->top,
                          strerror(errno));
    return 0;
}

/* Leave subdirectory @sub of the walk (dirs > 1) and, after a sequential
 * delete, remove it (bonnie++ delete_sequential rmdirs each directory as
 * soon as it is empty, closing its -b handle first).  0 or -1. */
static int
leave_subdir(struct agent_ctx *ctx, enum agent_test t, struct file_set *fs,
             const char *sub, uint32_t d, int delete)
{
    if (chdir("..") < 0)
        return agent_fail(ctx, t, "chdir ..: %s", strerror(errno));
    if (!delete)
        return 0;
    if (fs->dir_fds && fs->dir_fds[d] >= 0) {
        close(fs->dir_fds[d]);
        fs->dir_fds[d] = -1;
    }
    if (rmdir(sub) < 0)
        return agent_fail(ctx, t, "rmdir %s/%s: %s", fs->top, sub,
                          strerror(errno));
    return 0;
}

/* Walk each directory in getdents64 order (dir_next): stat/read or unlink
 * every file.  One latency sample as bonnie++ 2.00a takes it: from before
 * the readdir to after the stat (only for our files: a "." entry's sample
 * is dropped, bon_file.cpp stat_sequential) or the unlink (every entry,
 * "." and ".." too, delete_sequential), so a sample holds the getdents64
 * refill that its readdir made. */
static int
walk_sequential(struct agent_ctx *ctx, enum agent_test t, struct file_set *fs,
                int delete, double *worst)
{
    uint32_t dirs = ctx->cfg->file_dirs, count = 0;
    char sub[16];

    for (uint32_t d = 0; d < dirs; d++) {
        struct dir_reader dr;
        const char *name;
        int rc = 0;

        if (dirs > 1) {
            snprintf(sub, sizeof(sub), "%05u", d);
            if (chdir(sub) < 0)
                return agent_fail(ctx, t, "chdir %s/%s: %s", fs->top, sub,
                                  strerror(errno));
        }
        if (dir_open(&dr, ".") < 0) {
            int err = errno;

            if (dirs > 1 && chdir("..") < 0)
                return agent_fail(ctx, t, "chdir ..: %s", strerror(errno));
            return agent_fail(ctx, t, "opendir %s: %s", fs->top, strerror(err));
        }
        for (;;) {
            double t0 = agent_now();

            if (!(name = dir_next(&dr))) {
                if (errno)
                    rc = agent_fail(ctx, t, "readdir %s: %s", fs->top,
                                    strerror(errno));
                break;
            }
            if (name[0] != '.') {
                rc = delete ? delete_file(ctx, t, fs, name, d)
                            : stat_file(ctx, t, fs, name);
                if (rc < 0)
                    break;
                if (agent_interrupted) {
                    rc = agent_fail(ctx, t, "interrupted");
                    break;
                }
                count++;
            } else if (!delete) {
                continue;
            }
            double dt = agent_now() - t0;
            if (dt > *worst)
                *worst = dt;
        }
        dir_close(&dr);
        if (rc < 0) {
            if (dirs > 1 && chdir("..") < 0)
                return agent_fail(ctx, t, "chdir ..: %s", strerror(errno));
            return -1;
        }
        if (dirs > 1 && leave_subdir(ctx, t, fs, sub, d, delete) < 0)
            return -1;
    }
    if (count != fs->n)
        return agent_fail(ctx, t, "expected %u files in %s, found %u", fs->n,
                          fs->top, count);
    return 0;
}

/* Visit the files in fs->order (after shuffle): stat/read or unlink each. */
static int
walk_random(struct agent_ctx *ctx, enum agent_test t, struct file_set *fs,
            int delete, double *worst)
{
    for (uint32_t i = 0; i < fs->n; i++) {
        uint32_t k = fs->order[i];
        double t0 = agent_now();
        int rc;

        if (delete)
            rc = delete_file(ctx, t, fs, name_at(fs, k), fs->dir_of[k]);
        else
            rc = stat_file(ctx, t, fs, name_at(fs, k));
        if (rc < 0)
            return -1;
        double d = agent_now() - t0;
        if (d > *worst)
            *worst = d;
        if (agent_interrupted)
            return agent_fail(ctx, t, "interrupted");
    }
    return 0;
}

/* The four stat and delete tests (bonnie++ 2.00a bon_file.cpp
 * COpenTest::stat_sequential/stat_random/delete_sequential/delete_random):
 * sequential tests walk the directories in getdents64 order, random ones
 * the shuffled order; deletes end with removing the directories and
 * sync(2) inside the timed interval.  Amount: files. */
static int
stat_or_delete(struct agent_ctx *ctx, struct file_set *fs, enum agent_test t)
{
    static const char *const title[2][2] = {   /* [delete][shuffled] */
        { "Stat files in sequential order...", "Stat files in random order..." },
        { "Delete files in sequential order...", "Delete files in random order..." },
    };
    const int shuffled = t == AGENT_RAN_STAT || t == AGENT_RAN_DEL;
    const int delete = t == AGENT_SEQ_DEL || t == AGENT_RAN_DEL;
    struct agent_clock c;
    double worst = 0;

    if (agent_before_test(ctx, t) < 0)
        return -1;
    agent_progress(ctx->cfg->quiet, title[delete][shuffled]);
    if (shuffled)
        shuffle(ctx, fs);
    agent_clock_start(&c);
    if ((shuffled ? walk_random : walk_sequential)(ctx, t, fs, delete, &worst) < 0)
        return -1;
    if (delete) {
        if (remove_dirs(ctx, t, fs, !shuffled) < 0)
            return -1;
        sync();
    }
    agent_record(ctx, t, &c, (double)fs->n, worst);
    agent_progress(ctx->cfg->quiet, "done.\n");
    return 0;
}

int
agent_file_tests(struct agent_ctx *ctx, const char *dir)
{
    const struct agent_config *cfg = ctx->cfg;
    struct file_set fs;
    int rc = -1;

    memset(&fs, 0, sizeof(fs));
    fs.cwd_fd = -1;
    fs.n = cfg->files * AGENT_FILE_UNIT;
    snprintf(fs.top, sizeof(fs.top), "%s/Bonnie.%ld", dir, (long)getpid());
    fs.names = calloc(fs.n, NAME_LEN);
    fs.order = calloc(fs.n, sizeof(*fs.order));
    fs.dir_of = calloc(fs.n, sizeof(*fs.dir_of));
    fs.buf = agent_aligned_alloc(cfg->file_chunk_size);
    if (cfg->fsync_every_write) {
        fs.dir_fds = calloc(cfg->file_dirs, sizeof(*fs.dir_fds));
        for (uint32_t d = 0; fs.dir_fds && d < cfg->file_dirs; d++)
            fs.dir_fds[d] = -1;
    }
    if (!fs.names || !fs.order || !fs.dir_of || !fs.buf
        || (cfg->fsync_every_write && !fs.dir_fds)) {
        agent_fail(ctx, AGENT_SEQ_CREATE, "out of memory for %u file names",
                   fs.n);
        goto out;
    }
    memset(fs.buf, 'a', cfg->file_chunk_size);
    fs.cwd_fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fs.cwd_fd < 0) {
        agent_fail(ctx, AGENT_SEQ_CREATE, "open the current directory: %s",
                   strerror(errno));
        goto out;
    }
    agent_digest_str(ctx, "files");
    agent_digest_u64(ctx, fs.n);

    if (create_files(ctx, &fs, 0) < 0
        || stat_or_delete(ctx, &fs, AGENT_SEQ_STAT) < 0
        || stat_or_delete(ctx, &fs, AGENT_SEQ_DEL) < 0)
        goto out;
    if (create_files(ctx, &fs, 1) < 0
        || stat_or_delete(ctx, &fs, AGENT_RAN_STAT) < 0
        || stat_or_delete(ctx, &fs, AGENT_RAN_DEL) < 0)
        goto out;
    rc = 0;
 out:
    if (rc < 0)
        cleanup(ctx, &fs);
    if (fs.cwd_fd >= 0) {
        if (fchdir(fs.cwd_fd) < 0)
            agent_msg("chdir back: %s", strerror(errno));
        close(fs.cwd_fd);
    }
    free(fs.names);
    free(fs.order);
    free(fs.dir_of);
    free(fs.dir_fds);
    free(fs.buf);
    return rc;
}
