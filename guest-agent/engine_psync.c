/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: the psync engine (fio engines/sync.c "psync"):
 * pread(2)/pwrite(2) at the unit's offset, one I/O at a time per worker;
 * the job's numjobs workers give the parallelism.  The fallback where
 * io_uring is missing or refused. */
#include "config.h"

#include <errno.h>
#include <unistd.h>

#include "job.h"

static int
psync_setup(struct agent_worker *w, char *err, size_t errlen)
{
    w->engine = NULL;
    return 0;
}

static int
psync_queue(struct agent_worker *w, struct agent_io *io)
{
    ssize_t r;

    do {
        if (io->ddir == AGENT_DDIR_WRITE)
            r = pwrite(w->fd, io->buf, io->len, (off_t)io->offset);
        else
            r = pread(w->fd, io->buf, io->len, (off_t)io->offset);
    } while (r < 0 && errno == EINTR && !agent_interrupted);
    io->res = r < 0 ? -(int64_t)errno : (int64_t)r;
    return AGENT_Q_COMPLETED;
}

static void
psync_cleanup(struct agent_worker *w)
{
    w->engine = NULL;
}

const struct agent_engine_ops agent_engine_psync = {
    .name = "psync",
    .sync = 1,
    .setup = psync_setup,
    .queue = psync_queue,
    .commit = NULL,
    .getevents = NULL,
    .event = NULL,
    .cleanup = psync_cleanup,
};
