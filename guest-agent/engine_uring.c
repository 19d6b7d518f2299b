/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: the io_uring engine through raw syscalls (no liburing:
 * the agent stays static and libc only).  ABI: include/uapi/linux/io_uring.h
 * of Linux 5.1+ (structures below, copied field for field: musl's include
 * path has no kernel headers); setup as fio 3.33's engines/io_uring.c
 * (CQSIZE, COOP_TASKRUN, SINGLE_ISSUER|DEFER_TASKRUN, each dropped when the
 * kernel refuses it with EINVAL; IORING_OP_READ/WRITE when the probe says
 * the kernel has them, else READV/WRITEV).  One ring per worker thread, set
 * up once and torn down on every path. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "job.h"

#ifndef __NR_io_uring_setup
#define __NR_io_uring_setup 425
#endif
#ifndef __NR_io_uring_enter
#define __NR_io_uring_enter 426
#endif
#ifndef __NR_io_uring_register
#define __NR_io_uring_register 427
#endif

struct uring_sqe {
    uint8_t opcode, flags;
    uint16_t ioprio;
    int32_t fd;
    uint64_t off;
    uint64_t addr;
    uint32_t len;
    uint32_t rw_flags;
    uint64_t user_data;
    uint16_t buf_index, personality;
    int32_t splice_fd_in;
    uint64_t pad2[2];
};

struct uring_cqe {
    uint64_t user_data;
    int32_t res;
    uint32_t flags;
};

struct uring_sqring_offsets {
    uint32_t head, tail, ring_mask, ring_entries, flags, dropped, array, resv1;
    uint64_t resv2;
};

struct uring_cqring_offsets {
    uint32_t head, tail, ring_mask, ring_entries, overflow, cqes, flags, resv1;
    uint64_t resv2;
};

struct uring_params {
    uint32_t sq_entries, cq_entries, flags, sq_thread_cpu, sq_thread_idle;
    uint32_t features, wq_fd, resv[3];
    struct uring_sqring_offsets sq_off;
    struct uring_cqring_offsets cq_off;
};

struct uring_probe_op {
    uint8_t op, resv;
    uint16_t flags;
    uint32_t resv2;
};

struct uring_probe {
    uint8_t last_op, ops_len;
    uint16_t resv;
    uint32_t resv2[3];
    struct uring_probe_op ops[256];
};

_Static_assert(sizeof(struct uring_sqe) == 64, "io_uring_sqe is 64 bytes");
_Static_assert(sizeof(struct uring_cqe) == 16, "io_uring_cqe is 16 bytes");
_Static_assert(sizeof(struct uring_params) == 120, "io_uring_params");

#define OP_READV 1
#define OP_WRITEV 2
#define OP_READ 22
#define OP_WRITE 23
#define SETUP_CQSIZE (1u << 3)
#define SETUP_COOP_TASKRUN (1u << 8)
#define SETUP_SINGLE_ISSUER (1u << 12)
#define SETUP_DEFER_TASKRUN (1u << 13)
#define FEAT_SINGLE_MMAP (1u << 0)
#define ENTER_GETEVENTS (1u << 0)
#define REGISTER_PROBE 8
#define OP_SUPPORTED (1u << 0)
#define OFF_SQ_RING 0ull
#define OFF_CQ_RING 0x8000000ull
#define OFF_SQES 0x10000000ull

struct uring {
    int ring_fd;
    void *sq_ptr, *cq_ptr;
    size_t sq_len, cq_len;
    struct uring_sqe *sqes;
    size_t sqes_len;
    unsigned *sq_head, *sq_tail, *sq_mask, *sq_array;
    unsigned *cq_head, *cq_tail, *cq_mask;
    struct uring_cqe *cqes;
    unsigned queued;            /* in the SQ ring, not yet submitted */
    struct iovec *iov;          /* READV/WRITEV: one per unit */
    struct agent_io **events;   /* reaped by the last getevents */
};

static int
sys_setup(unsigned entries, struct uring_params *p)
{
    return (int)syscall(__NR_io_uring_setup, entries, p);
}

static int
sys_enter(int fd, unsigned submit, unsigned min, unsigned flags)
{
    return (int)syscall(__NR_io_uring_enter, fd, submit, min, flags, NULL, 0);
}

static void
uring_cleanup(struct agent_worker *w)
{
    struct uring *u = w->engine;

    if (!u)
        return;
    if (u->sqes && u->sqes != MAP_FAILED)
        munmap(u->sqes, u->sqes_len);
    if (u->cq_ptr && u->cq_ptr != MAP_FAILED && u->cq_ptr != u->sq_ptr)
        munmap(u->cq_ptr, u->cq_len);
    if (u->sq_ptr && u->sq_ptr != MAP_FAILED)
        munmap(u->sq_ptr, u->sq_len);
    if (u->ring_fd >= 0)
        close(u->ring_fd);
    free(u->iov);
    free(u->events);
    free(u);
    w->engine = NULL;
}

static void
probe_nonvectored(struct agent_worker *w, struct uring *u)
{
    struct uring_probe *p = calloc(1, sizeof(*p));

    w->uring_nonvectored = 0;
    if (!p)
        return;
    if (syscall(__NR_io_uring_register, u->ring_fd, REGISTER_PROBE, p, 256) >= 0
        && p->ops_len > OP_WRITE
        && (p->ops[OP_READ].flags & OP_SUPPORTED)
        && (p->ops[OP_WRITE].flags & OP_SUPPORTED))
        w->uring_nonvectored = 1;
    free(p);
}

static int
uring_setup(struct agent_worker *w, char *err, size_t errlen)
{
    struct uring_params p;
    struct uring *u;
    int fd, e;

    if (agent_job_force_psync) {
        snprintf(err, errlen, "io_uring_setup: %s (forced)", strerror(ENOSYS));
        return AGENT_ENGINE_REFUSED;
    }
    if (!(u = calloc(1, sizeof(*u)))) {
        snprintf(err, errlen, "io_uring: out of memory");
        return -1;
    }
    u->ring_fd = -1;
    w->engine = u;
    memset(&p, 0, sizeof(p));
    p.flags = SETUP_CQSIZE | SETUP_COOP_TASKRUN | SETUP_SINGLE_ISSUER
              | SETUP_DEFER_TASKRUN;
    p.cq_entries = w->depth;
    for (;;) {
        fd = sys_setup(w->depth, &p);
        if (fd >= 0)
            break;
        e = errno;
        if (e == EINVAL && (p.flags & SETUP_DEFER_TASKRUN))
            p.flags &= ~(SETUP_DEFER_TASKRUN | SETUP_SINGLE_ISSUER);
        else if (e == EINVAL && (p.flags & SETUP_COOP_TASKRUN))
            p.flags &= ~SETUP_COOP_TASKRUN;
        else if (e == EINVAL && (p.flags & SETUP_CQSIZE))
            p.flags &= ~SETUP_CQSIZE;
        else {
            snprintf(err, errlen, "io_uring_setup(%u): %s", w->depth,
                     strerror(e));
            uring_cleanup(w);
            return e == ENOSYS || e == EPERM || e == EACCES
                   ? AGENT_ENGINE_REFUSED : -1;
        }
        memset(&p.sq_off, 0, sizeof(p.sq_off) + sizeof(p.cq_off));
        p.cq_entries = w->depth;
    }
    u->ring_fd = fd;
    w->uring_setup_flags = p.flags;

    u->sq_len = p.sq_off.array + p.sq_entries * sizeof(unsigned);
    u->cq_len = p.cq_off.cqes + p.cq_entries * sizeof(struct uring_cqe);
    if ((p.features & FEAT_SINGLE_MMAP) && u->cq_len > u->sq_len)
        u->sq_len = u->cq_len;
    u->sq_ptr = mmap(NULL, u->sq_len, PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_POPULATE, fd, OFF_SQ_RING);
    if (u->sq_ptr == MAP_FAILED)
        goto mmap_fail;
    if (p.features & FEAT_SINGLE_MMAP) {
        u->cq_ptr = u->sq_ptr;
    } else {
        u->cq_ptr = mmap(NULL, u->cq_len, PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_POPULATE, fd, OFF_CQ_RING);
        if (u->cq_ptr == MAP_FAILED)
            goto mmap_fail;
    }
    u->sqes_len = p.sq_entries * sizeof(struct uring_sqe);
    u->sqes = mmap(NULL, u->sqes_len, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_POPULATE, fd, OFF_SQES);
    if (u->sqes == MAP_FAILED)
        goto mmap_fail;
    u->sq_head = (unsigned *)((char *)u->sq_ptr + p.sq_off.head);
    u->sq_tail = (unsigned *)((char *)u->sq_ptr + p.sq_off.tail);
    u->sq_mask = (unsigned *)((char *)u->sq_ptr + p.sq_off.ring_mask);
    u->sq_array = (unsigned *)((char *)u->sq_ptr + p.sq_off.array);
    u->cq_head = (unsigned *)((char *)u->cq_ptr + p.cq_off.head);
    u->cq_tail = (unsigned *)((char *)u->cq_ptr + p.cq_off.tail);
    u->cq_mask = (unsigned *)((char *)u->cq_ptr + p.cq_off.ring_mask);
    u->cqes = (struct uring_cqe *)((char *)u->cq_ptr + p.cq_off.cqes);
    u->iov = calloc(w->depth, sizeof(*u->iov));
    u->events = calloc(w->depth, sizeof(*u->events));
    if (!u->iov || !u->events) {
        snprintf(err, errlen, "io_uring: out of memory");
        uring_cleanup(w);
        return -1;
    }
    probe_nonvectored(w, u);
    return 0;

 mmap_fail:
    snprintf(err, errlen, "io_uring mmap: %s", strerror(errno));
    uring_cleanup(w);
    return -1;
}

static int
uring_queue(struct agent_worker *w, struct agent_io *io)
{
    struct uring *u = w->engine;
    unsigned tail = *u->sq_tail, idx = tail & *u->sq_mask;
    struct uring_sqe *sqe = &u->sqes[idx];
    int write = io->ddir == AGENT_DDIR_WRITE;

    memset(sqe, 0, sizeof(*sqe));
    sqe->fd = w->fd;
    sqe->off = io->offset;
    sqe->user_data = (uint64_t)(uintptr_t)io;
    if (w->uring_nonvectored) {
        sqe->opcode = write ? OP_WRITE : OP_READ;
        sqe->addr = (uint64_t)(uintptr_t)io->buf;
        sqe->len = io->len;
    } else {
        u->iov[io->index].iov_base = io->buf;
        u->iov[io->index].iov_len = io->len;
        sqe->opcode = write ? OP_WRITEV : OP_READV;
        sqe->addr = (uint64_t)(uintptr_t)&u->iov[io->index];
        sqe->len = 1;
    }
    u->sq_array[idx] = idx;
    __atomic_store_n(u->sq_tail, tail + 1, __ATOMIC_RELEASE);
    u->queued++;
    return AGENT_Q_QUEUED;
}

static int
uring_commit(struct agent_worker *w)
{
    struct uring *u = w->engine;
    unsigned done = 0;

    while (u->queued) {
        int r = sys_enter(u->ring_fd, u->queued, 0, ENTER_GETEVENTS);

        if (r < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            return -1;
        }
        u->queued -= (unsigned)r;
        done += (unsigned)r;
    }
    return (int)done;
}

static unsigned
reap(struct uring *u, unsigned have, unsigned max)
{
    unsigned head = *u->cq_head;

    while (have < max) {
        struct uring_cqe *cqe;
        struct agent_io *io;

        if (head == __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE))
            break;
        cqe = &u->cqes[head & *u->cq_mask];
        io = (struct agent_io *)(uintptr_t)cqe->user_data;
        io->res = cqe->res;
        u->events[have++] = io;
        head++;
    }
    __atomic_store_n(u->cq_head, head, __ATOMIC_RELEASE);
    return have;
}

static int
uring_getevents(struct agent_worker *w, unsigned min, unsigned max)
{
    struct uring *u = w->engine;
    unsigned got = reap(u, 0, max);

    while (got < min) {
        int r = sys_enter(u->ring_fd, 0, min - got, ENTER_GETEVENTS);

        if (r < 0 && errno != EINTR && errno != EAGAIN)
            return -1;
        got = reap(u, got, max);
        if (r < 0 && errno == EINTR && agent_interrupted && got)
            break;
    }
    return (int)got;
}

static struct agent_io *
uring_event(struct agent_worker *w, unsigned i)
{
    return ((struct uring *)w->engine)->events[i];
}

const struct agent_engine_ops agent_engine_io_uring = {
    .name = "io_uring",
    .sync = 0,
    .setup = uring_setup,
    .queue = uring_queue,
    .commit = uring_commit,
    .getevents = uring_getevents,
    .event = uring_event,
    .cleanup = uring_cleanup,
};
