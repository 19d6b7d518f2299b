/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-runner's progress block and start gate (runner_progress.c),
 * shared with the runner's main file (runner.c).  Static, libc only. */
#ifndef VDC_RUNNER_PROGRESS_H
#define VDC_RUNNER_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include "guest-agent/ctldisk.h"

#define PROGRESS_FD 3           /* the agent's --progress-fd */

/* The progress block as the runner writes it. */
struct runner_progress {
    int fd;                     /* the control disk, O_DIRECT|O_DSYNC where it allows; -1 */
    uint64_t off;               /* the block's offset; 0: the disk has none */
    uint16_t target;            /* index of the target the agent runs for */
    struct vdc_ctl_progress p;
    char line[128];             /* a partial line from the agent */
    size_t len;
};
extern struct runner_progress progress;

/* The start gate of a job with gate_timeout_s: passed once, before the
 * boot's first agent pass. */
struct runner_gate {
    const char *ctl;            /* the control disk */
    uint64_t nonce;
    unsigned timeout_s;         /* 0: no gate */
    int state;                  /* 0 to pass, 1 passed (go), -1 failed */
    char error[200];            /* why it failed */
};
extern struct runner_gate gate;

/* One log line: the console and the result frame's log (runner.c). */
void logmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The guest's CLOCK_MONOTONIC, ns. */
uint64_t guest_ns(void);
/* Open the control disk @ctl for progress writes (a disk without the
 * block, or one that cannot be opened, gets none) and beat once. */
void progress_open(const char *ctl, uint64_t nonce);
/* An event of @kind (VDC_CTL_EV_*) for progress.target, written out. */
void progress_event(uint8_t kind, uint8_t test);
/* The heartbeat, from every loop that waits: beats when the last beat is
 * VDC_CTL_BEAT_S old. */
void progress_tick(void);
/* @n bytes of the agent's --progress-fd lines ("begin ID", "end ID"). */
void progress_feed(const char *p, size_t n);
/* Before an agent pass: the start gate, once (ready, then the host's go,
 * at most gate.timeout_s; a failed gate fails every pass), then the first
 * pass's start time.  0, or -1 with gate.error. */
int gate_pass(void);

#endif
