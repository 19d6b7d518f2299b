/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: the null engine (fio 3.33 engines/null.c): every I/O
 * completes without being done, so a job measures the instrument alone
 * (its loop, clock reads, histograms, buffer stamping) against fio's
 * null engine.  As fio's: at iodepth 1 synchronous (queue completes the
 * unit); deeper, queue holds units until commit turns them into
 * completions, queue answers busy while completions are waiting, and a
 * wait returns every waiting completion, whatever its maximum.  No file
 * is opened (w->fd is -1). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "job.h"

struct null_engine {
    struct agent_io **queued_io, **events_io;
    unsigned queued, events;
};

static void
null_cleanup(struct agent_worker *w)
{
    struct null_engine *n = w->engine;

    if (!n)
        return;
    free(n->queued_io);
    free(n->events_io);
    free(n);
    w->engine = NULL;
}

static int
null_setup(struct agent_worker *w, char *err, size_t errlen)
{
    struct null_engine *n = calloc(1, sizeof(*n));

    w->engine = n;
    if (n && w->job->iodepth > 1) {
        n->queued_io = calloc(w->job->iodepth, sizeof(*n->queued_io));
        n->events_io = calloc(w->job->iodepth, sizeof(*n->events_io));
    }
    if (!n || (w->job->iodepth > 1 && (!n->queued_io || !n->events_io))) {
        snprintf(err, errlen, "null engine: out of memory");
        null_cleanup(w);
        return -1;
    }
    if (w->job->iodepth == 1)
        w->sync = 1;    /* fio: FIO_SYNCIO at iodepth 1 */
    return 0;
}

static int
null_queue(struct agent_worker *w, struct agent_io *io)
{
    struct null_engine *n = w->engine;

    if (w->sync) {
        io->res = io->len;
        return AGENT_Q_COMPLETED;
    }
    if (n->events)
        return AGENT_Q_BUSY;
    io->res = io->len;
    n->queued_io[n->queued++] = io;
    return AGENT_Q_QUEUED;
}

static int
null_commit(struct agent_worker *w)
{
    struct null_engine *n = w->engine;
    unsigned done = n->queued;

    if (n->events)
        return 0;
    for (unsigned i = 0; i < n->queued; i++)
        n->events_io[i] = n->queued_io[i];
    n->events = n->queued;
    n->queued = 0;
    return (int)done;
}

static int
null_getevents(struct agent_worker *w, unsigned min, unsigned max)
{
    struct null_engine *n = w->engine;
    unsigned got = 0;

    (void)max;
    if (min) {
        got = n->events;
        n->events = 0;
    }
    return (int)got;
}

static struct agent_io *
null_event(struct agent_worker *w, unsigned i)
{
    return ((struct null_engine *)w->engine)->events_io[i];
}

const struct agent_engine_ops agent_engine_null = {
    .name = "null",
    .sync = 0,
    .setup = null_setup,
    .queue = null_queue,
    .commit = null_commit,
    .getevents = null_getevents,
    .event = null_event,
    .cleanup = null_cleanup,
};
