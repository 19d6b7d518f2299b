/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Running a child process and waiting for it, with a timeout and a stop
 * flag: the one way vmdiskcmp runs the programs it waits for (mkfs and the
 * agent in dom0, the libguestfs session of prepare, the lab's lab.sh).
 *
 * The behaviour, the same for every caller:
 *  - the child runs in a process group of its own (setpgid in the child and
 *    in the parent, so there is no window), with stdin on /dev/null and
 *    SIGINT/SIGTERM/SIGHUP at their defaults: a terminal's ^C reaches only
 *    us, and we decide;
 *  - every 100 ms the child, *stop (set by the caller's SIGINT/SIGTERM
 *    handler) and the deadline are looked at;
 *  - on a stop or at the deadline SIGTERM goes to the child's whole group;
 *    when the child has exited, or the grace period is over, SIGKILL goes to
 *    the group; then the child is reaped.  Until then the child is only
 *    looked at with WNOWAIT, so its pid (the group's id) cannot be taken by
 *    another process while we signal the group;
 *  - the SIGKILL to the group is sent after every run, also when the child
 *    exited by itself: nothing the child started in its group (QEMU under
 *    libguestfs, a background job of a script) outlives it;
 *  - the group dies with us, also when we are killed by SIGKILL and have
 *    no time to stop it: the group's leader is a supervisor (a fork of
 *    ours, no exec) that forks the child proper into the group and stays
 *    until it has ended, ending as it ended (same exit status or signal).
 *    It holds a pipe whose other end only we hold: at its end of file
 *    (we died) the supervisor sends @death_signal (default SIGKILL) to the
 *    group, waits for the child, then SIGKILL to the group, grandchildren
 *    included (the agent's seekers, QEMU under libguestfs).  The child
 *    proper has PR_SET_PDEATHSIG SIGKILL against its supervisor;
 *  - the supervisor does not reap the child proper when it ends: it says
 *    so on a pipe to us and waits for our word, so the ended child's
 *    /proc/PID/stat (its final CPU time) reads until @tick has been called
 *    once after its end; then the supervisor reaps it and ends as it did;
 *  - @started, when set, is called with the group's id (the supervisor's
 *    pid) before the child proper exists, so a caller can journal it
 *    (run/journal.h "proc") and a later `vmdiskcmp cleanup` can find and
 *    stop a group that outlived everything.
 * stdout and stderr each go to ours, to /dev/null, appended to a log file,
 * or into a bounded buffer (both into one, interleaved as written, or
 * stderr into a buffer of its own: a report on stdout, its complaints on
 * stderr). */
#ifndef VDC_COMMON_CHILD_H
#define VDC_COMMON_CHILD_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>

/* Grace between SIGTERM and SIGKILL when vdc_child_opts.grace_ms is 0. */
#define VDC_CHILD_GRACE_MS 3000
/* Bytes kept of captured output when vdc_child_opts.capture_max is 0. */
#define VDC_CHILD_CAPTURE_MAX 65536

typedef enum {
    VDC_CHILD_INHERIT = 0,   /* our own stdout / stderr */
    VDC_CHILD_NULL,          /* /dev/null */
    VDC_CHILD_LOG,           /* appended to .log_path (created 0644 if missing) */
    VDC_CHILD_CAPTURE,       /* into vdc_child_result.out (both streams: interleaved) */
    VDC_CHILD_CAPTURE_APART, /* stderr only: into vdc_child_result.err, apart from .out */
} vdc_child_io;

typedef struct {
    char *const *argv;           /* program and arguments (execvp: PATH is searched) */
    int (*fn)(void *arg);        /* or, when argv is NULL: run in the forked child; its
                                  * return value (0-255) is the exit status */
    void *arg;
    const char *what;            /* names the child in messages; default argv[0] */
    unsigned timeout_ms;         /* 0: no deadline */
    unsigned grace_ms;           /* SIGTERM -> SIGKILL; 0: VDC_CHILD_GRACE_MS */
    volatile sig_atomic_t *stop; /* polled; NULL: none */
    vdc_child_io out, err;
    const char *log_path;        /* for VDC_CHILD_LOG */
    size_t capture_max;          /* for VDC_CHILD_CAPTURE and _APART, each buffer;
                                  * 0: VDC_CHILD_CAPTURE_MAX */
    int death_signal;            /* sent to the group when we die; 0: SIGKILL */
    int pass_fd;                 /* > 2: becomes the child's descriptor 3 (e.g. the
                                  * write end of a pipe, opened O_CLOEXEC); 0: none */
    int *pid_out;                /* set to the child proper's pid (not its
                                  * supervisor's, the group's id) once it started,
                                  * before the first tick; NULL: not wanted */
    /* called at every look (about every 100 ms) while the child runs, once
     * when it has ended (not yet reaped: its /proc/PID/stat still reads,
     * its CPU time final; also after a stop or a timeout when it ended
     * within the grace) and once after it was reaped, e.g. to follow a log
     * the child writes; NULL: none */
    void (*tick)(void *tick_arg);
    void *tick_arg;
    /* called with the group's id before the child proper starts; -1: the
     * group is killed and vdc_child_run returns -1 (the callee reported) */
    int (*started)(pid_t group, void *arg);
    void *started_arg;
} vdc_child_opts;

typedef struct {
    int exited;                  /* 1: exited with .status; 0: killed by signal .status */
    int status;
    int timed_out;               /* the deadline passed: the group was stopped */
    int stopped;                 /* *stop was set: the group was stopped */
    char *out;                   /* VDC_CHILD_CAPTURE: NUL-terminated (g_free); else NULL */
    size_t out_len;
    int out_truncated;           /* more than capture_max bytes came: the rest was dropped */
    char *err;                   /* VDC_CHILD_CAPTURE_APART: stderr, NUL-terminated
                                  * (g_free); else NULL */
    size_t err_len;
    int err_truncated;
} vdc_child_result;

/* Run the child described by @o to its end (see above) and fill @r.
 * Returns 0 once the child is reaped, whatever its status (see @r), or -1
 * after vdc_error when it could not be started (log file, pipe, fork).  A
 * program that cannot be executed exits 127 after one line on its stderr.
 * Prints nothing on a stop or a timeout: the caller names what stopped. */
int vdc_child_run(const vdc_child_opts *o, vdc_child_result *r);

/* A descriptor that must not outlive its owner in a supervisor (a fork
 * that does not exec, so O_CLOEXEC does not close it there): e.g. the
 * run's journal, whose flock(2) lock every fork would share and so keep
 * the run looking alive after it died.  Each supervisor closes the
 * descriptors registered when it starts.  At most 8 at once; a 9th is
 * ignored with a warning.  vdc_child_forget_fd removes @fd again (call it
 * before closing @fd).  Not thread-safe: call from the main thread. */
void vdc_child_close_in_forks(int fd);
void vdc_child_forget_fd(int fd);

/* The status as a shell reports it: the exit status, or 128 + signal. */
int vdc_child_code(const vdc_child_result *r);

/* Free the captured outputs; safe to call twice. */
void vdc_child_result_dispose(vdc_child_result *r);

#endif
