/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-runner: the control disk's progress block (the agent's test
 * boundaries and the runner's heartbeat) and the start gate of many guests
 * at once (runner_progress.h; doc/control-disk.md "Progress block", "Start
 * gate").  Static, libc only, part of the runner. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "guest-agent/runner_progress.h"
#include "guest-agent/test_ids.h"

/* ---- progress block ------------------------------------------------------------ */

/* the test ids in the agent's order (enum agent_test) */
#define TEST_NAME(id, name, ...) name,
static const char *const test_names[] = { VDC_BONNIE_TESTS(TEST_NAME) };
#undef TEST_NAME

struct runner_progress progress = { .fd = -1 };

uint64_t
guest_ns(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* one beat, with the events so far, written out */
static void
progress_write(uint64_t now)
{
    struct vdc_ctl_error err = { { 0 } };

    vdc_ctl_progress_beat(&progress.p, now);
    if (vdc_ctl_disk_write_progress(progress.fd, progress.off, &progress.p, &err) < 0) {
        logmsg("%s: progress block writes stop", err.msg);
        close(progress.fd);
        progress.fd = -1;
    }
}

void
progress_event(uint8_t kind, uint8_t test)
{
    uint64_t now = guest_ns();

    if (progress.fd < 0)
        return;
    vdc_ctl_progress_add(&progress.p, now, progress.target, kind, test);
    progress_write(now);
}

/* the heartbeat: called from every loop that waits; beats when the last
 * one is VDC_CTL_BEAT_S old */
void
progress_tick(void)
{
    uint64_t now = guest_ns();

    if (progress.fd >= 0 && now - progress.p.beat_ns >= VDC_CTL_BEAT_S * 1000000000ull)
        progress_write(now);
}

/* open the control disk for progress writes (a disk without the block, or
 * one that cannot be opened, just gets none: the host then slices nothing) */
void
progress_open(const char *ctl, uint64_t nonce)
{
    struct vdc_ctl_error err = { { 0 } };
    int fd;

    vdc_ctl_progress_init(&progress.p, nonce);
    /* the superblock through the page cache (its buffer is not aligned),
     * the block's writes around it */
    fd = open(ctl, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || vdc_ctl_disk_progress_area(fd, &progress.off, &err) < 0 || !progress.off) {
        if (fd < 0)
            logmsg("control disk %s: no progress block: %s", ctl, strerror(errno));
        else if (err.msg[0])
            logmsg("control disk %s: no progress block: %s", ctl, err.msg);
        else
            logmsg("control disk %s: the host asked for no progress block", ctl);
        if (fd >= 0)
            close(fd);
        return;
    }
    close(fd);
    fd = open(ctl, O_RDWR | O_CLOEXEC | O_DIRECT | O_DSYNC);
    if (fd < 0)
        fd = open(ctl, O_RDWR | O_CLOEXEC | O_DSYNC);
    if (fd < 0) {
        logmsg("control disk %s: no progress block: %s", ctl, strerror(errno));
        return;
    }
    progress.fd = fd;
    progress_write(guest_ns());     /* the first beat: the host's watchdog starts */
}

/* ---- start gate ------------------------------------------------------------ */
#define GATE_POLL_US 2000       /* between two reads of the gate record */

/* the start gate of a job with gate_timeout_s (doc/control-disk.md "Start
 * gate"): passed once, before the boot's first agent pass */
struct runner_gate gate;

/* Report ready in the progress block, then read the gate record every
 * GATE_POLL_US until the host's go, at most gate.timeout_s seconds.  The
 * go's guest time is the end of the read that found it (the host wrote it
 * after the previous read ended).  0 (go) or -1 with gate.error. */
static int
gate_wait(void)
{
    struct vdc_ctl_error err = { { 0 } };
    struct vdc_ctl_gate g;
    uint64_t deadline;
    int fd, r, bad = 0;

    if (progress.fd < 0) {
        snprintf(gate.error, sizeof(gate.error), "the job asks for a start gate but the control "
                 "disk's progress block cannot be written: not started");
        return -1;
    }
    fd = open(gate.ctl, O_RDONLY | O_CLOEXEC | O_DIRECT);
    if (fd < 0)
        fd = open(gate.ctl, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(gate.error, sizeof(gate.error), "start gate: open %.100s: %s", gate.ctl,
                 strerror(errno));
        return -1;
    }
    progress.p.ready_ns = guest_ns();
    progress_write(progress.p.ready_ns);
    logmsg("start gate: ready, waiting for the host's go (at most %u s)", gate.timeout_s);
    deadline = progress.p.ready_ns + (uint64_t)gate.timeout_s * 1000000000ull;
    for (;;) {
        r = vdc_ctl_disk_read_gate(fd, gate.nonce, &g, &err);
        if (r == 0)
            break;
        if (r < 0 && ++bad == 1)
            logmsg("start gate: %s (read again)", err.msg);   /* a torn read, or worse */
        if (guest_ns() > deadline || progress.fd < 0) {
            close(fd);
            snprintf(gate.error, sizeof(gate.error), "start gate: no go from the host within "
                     "%u s: not started", gate.timeout_s);
            return -1;
        }
        progress_tick();
        usleep(GATE_POLL_US);
    }
    close(fd);
    progress.p.go_ns = guest_ns();
    progress_write(progress.p.go_ns);
    logmsg("start gate: go after %.3f s", (double)(progress.p.go_ns - progress.p.ready_ns) / 1e9);
    return 0;
}

/* Before an agent pass: the gate, once (a failed gate fails every pass);
 * then, for the first pass after the go, its start time.  0 or -1. */
int
gate_pass(void)
{
    if (!gate.timeout_s || gate.state == 1) {
        if (gate.state == 1 && !progress.p.started_ns && progress.fd >= 0) {
            progress.p.started_ns = guest_ns();
            progress_write(progress.p.started_ns);
        }
        return 0;
    }
    if (gate.state == 0)
        gate.state = gate_wait() == 0 ? 1 : -1;
    if (gate.state < 0)
        return -1;
    return gate_pass();
}

/* one agent line: "begin ID" or "end ID"; anything else is ignored */
static void
progress_line(const char *l)
{
    uint8_t kind;
    size_t i;

    if (!strncmp(l, "begin ", 6)) {
        kind = VDC_CTL_EV_TEST_BEGIN;
        l += 6;
    } else if (!strncmp(l, "end ", 4)) {
        kind = VDC_CTL_EV_TEST_END;
        l += 4;
    } else {
        return;
    }
    for (i = 0; i < sizeof(test_names) / sizeof(test_names[0]); i++)
        if (!strcmp(l, test_names[i])) {
            progress_event(kind, (uint8_t)i);
            return;
        }
}

void
progress_feed(const char *p, size_t n)
{
    for (; n; p++, n--) {
        if (*p == '\n') {
            progress.line[progress.len] = 0;
            progress_line(progress.line);
            progress.len = 0;
        } else if (progress.len + 1 < sizeof(progress.line)) {
            progress.line[progress.len++] = *p;
        }
    }
}

