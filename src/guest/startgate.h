/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The start gate of many guests at once (doc/control-disk.md "Start
 * gate"): the controller waits until every guest of a level reports ready
 * in its control disk's progress block, then releases them all, writing
 * the go record into each control disk one after the other (O_DIRECT where
 * the file allows it, then fsync), and afterwards maps each guest's start
 * onto its own clock.  Times are the controller's CLOCK_MONOTONIC in
 * seconds (g_get_monotonic_time), as runs[].release records them
 * (doc/result-format.md). */
#ifndef VDC_GUEST_STARTGATE_H
#define VDC_GUEST_STARTGATE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/* One guest of a level at the gate.  The caller fills ctl_path, nonce and
 * name; vdc_start_gate sets the times (NAN until known). */
typedef struct {
    const char *ctl_path;    /* its control disk file (borrowed) */
    uint64_t nonce;          /* its job's nonce */
    const char *name;        /* for messages: its domain, e.g. "vmdiskcmp-ID-g1" (borrowed) */
    double ready_s;          /* the controller first read its ready */
    double released_s;       /* its go record was written (before its fsync: a
                              * read of the file sees it from here) */
    double started_s;        /* its first agent pass started (vdc_start_gate_started) */
} vdc_gate_guest;

/* Is guest @i still running?  1 yes, 0 its domain is gone (the gate then
 * fails at once, naming it). */
typedef int (*vdc_gate_alive_fn)(void *arg, size_t i);

/* Poll the @n guests' progress blocks every 10 ms until each reports
 * ready, then release them all.  Fails, after one vdc_error naming the
 * guests concerned and releasing none, when a guest is not ready within
 * @timeout_s seconds of the call ("start gate: not ready within 300 s:
 * guest 1 (vmdiskcmp-ID-g1)"), when @alive (NULL: not asked) says a guest
 * is gone, or when *@stop is set (SIGINT, SIGTERM; NULL: none; no message,
 * the caller reports the interruption).  A progress block that does not
 * decode is read again at the next poll (a torn read).  A failed release
 * write names its guest; the guests released before it stay released.
 * Sets ready_s and released_s; 0 or -1 (with @why not NULL, *@why the
 * failure's line, g_malloc; NULL after an interruption). */
int vdc_start_gate(vdc_gate_guest *g, size_t n, unsigned timeout_s, vdc_gate_alive_fn alive,
                   void *arg, volatile sig_atomic_t *stop, char **why);

/* After guest @g ran (its domain gone or still running): its start on the
 * controller's clock, from its progress block's go_ns and started_ns:
 * released_s + (started_ns - go_ns) / 1e9.  The runner's go_ns is the end
 * of the read that found the go, so the mapping is late by at most one of
 * its polls (2 ms) and a read of the control disk.  0 (started_s set), or
 * -1 after vdc_error (not released, no progress block, no start reported). */
int vdc_start_gate_started(vdc_gate_guest *g);

/* The level's start skew: max - min of the guests' started_s, seconds; NAN
 * when a guest has none (or @n is 0). */
double vdc_start_gate_skew(const vdc_gate_guest *g, size_t n);

#endif
