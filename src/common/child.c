/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A child process with a timeout, a stop flag and a grace period (child.h). */
#include "config.h"
#include "common/child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"

#define POLL_MS 100

/* vdc_child_close_in_forks: what a supervisor closes when it starts */
static int fork_close[8];
static size_t n_fork_close;

void
vdc_child_close_in_forks(int fd)
{
    if (fd < 0)
        return;
    if (n_fork_close == G_N_ELEMENTS(fork_close)) {
        vdc_error_kind(VDC_ERR_NONE, "child: descriptor %d stays open in supervisors (at most %zu are closed)", fd,
                    G_N_ELEMENTS(fork_close));
        return;
    }
    fork_close[n_fork_close++] = fd;
}

void
vdc_child_forget_fd(int fd)
{
    size_t i;

    for (i = 0; i < n_fork_close; i++)
        if (fork_close[i] == fd) {
            fork_close[i] = fork_close[--n_fork_close];
            return;
        }
}

/* In the forked child: point fd @target at what @mode says (@pipefd: the
 * capture pipe, @errfd: stderr's own).  0 or -1. */
static int
child_io(int target, vdc_child_io mode, int logfd, int pipefd, int errfd)
{
    int fd;

    switch (mode) {
    case VDC_CHILD_INHERIT:
        return 0;
    case VDC_CHILD_NULL:
        fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (fd < 0 || dup2(fd, target) < 0)
            return -1;
        close(fd);
        return 0;
    case VDC_CHILD_LOG:
        return dup2(logfd, target) < 0 ? -1 : 0;
    case VDC_CHILD_CAPTURE:
        return dup2(pipefd, target) < 0 ? -1 : 0;
    case VDC_CHILD_CAPTURE_APART:
        return dup2(errfd, target) < 0 ? -1 : 0;
    }
    return -1;
}

/* In the supervised child, up to exec or fn: never returns. */
static void __attribute__((noreturn))
child_exec(const vdc_child_opts *o, int logfd, int pipefd, int errfd)
{
    int fd;

    fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        dup2(fd, STDIN_FILENO);
        close(fd);
    }
    if (child_io(STDOUT_FILENO, o->out, logfd, pipefd, errfd) < 0 ||
        child_io(STDERR_FILENO, o->err, logfd, pipefd, errfd) < 0)
        _exit(127);
    if (logfd >= 0)
        close(logfd);
    if (pipefd >= 0)
        close(pipefd);
    if (errfd >= 0)
        close(errfd);
    if (o->pass_fd > 2) {
        if (o->pass_fd == 3 ? fcntl(3, F_SETFD, 0) < 0 : dup2(o->pass_fd, 3) < 0)
            _exit(127);
    }
    if (!o->argv) {
        int rc = o->fn(o->arg);

        fflush(NULL);
        _exit(rc & 0xff);
    }
    execvp(o->argv[0], o->argv);
    fprintf(stderr, "vmdiskcmp: %s: cannot execute: %s\n", o->argv[0], g_strerror(errno));
    _exit(127);
}

/* End the supervisor as the child ended (@status from waitpid): the same
 * exit status, or the same signal (no core: the child may have dumped). */
static void __attribute__((noreturn))
supervisor_exit(int status)
{
    struct rlimit none = { 0, 0 };
    sigset_t all;

    if (WIFEXITED(status))
        _exit(WEXITSTATUS(status));
    setrlimit(RLIMIT_CORE, &none);
    signal(WTERMSIG(status), SIG_DFL);
    sigemptyset(&all);
    sigprocmask(SIG_SETMASK, &all, NULL);
    kill(getpid(), WTERMSIG(status));
    _exit(128 + WTERMSIG(status));
}

/* In the supervisor: the child proper has ended and is not reaped, so its
 * /proc/PID/stat still reads, its CPU time final.  Say so on @tell (one
 * byte) and reap it only at the parent's word on @life ('r'), or at end of
 * file there (the parent died: what the child started in the group goes
 * too, nobody else is left to stop it).  Ends as the child ended. */
static void __attribute__((noreturn))
reap_when_told(pid_t child, int life, int tell)
{
    int status = 0, orphan;
    ssize_t n;
    char c = 0;

    while (write(tell, "e", 1) < 0 && errno == EINTR)
        ;
    while ((n = read(life, &c, 1)) < 0 && errno == EINTR)
        ;
    orphan = n <= 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR)
        ;
    if (orphan)
        kill(0, SIGKILL);
    supervisor_exit(status);
}

/* The forked supervisor (the group's leader): waits for the go from
 * @life (a byte; end of file: our parent died first), forks the child
 * proper in the same group, says its pid on @tell, and stays until the
 * child has ended and the parent let it be reaped (reap_when_told).  When
 * @life reaches end of file, the parent died (even by SIGKILL): the group
 * gets @death_signal, and SIGKILL once the child is gone.  The
 * supervisor ignores SIGINT/SIGTERM/SIGHUP: a stop signal to the group is
 * for the child; and SIGPIPE: a parent that died is noticed on @life.
 * Never returns. */
static void __attribute__((noreturn))
supervisor_main(const vdc_child_opts *o, pid_t parent, int life, int tell, int logfd, int pipefd,
                int errfd)
{
    static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
    int death = o->death_signal ? o->death_signal : SIGKILL;
    sigset_t none;
    pid_t child, self;
    size_t i;
    char go = 0;

    setpgid(0, 0);
    for (i = 0; i < n_fork_close; i++)
        close(fork_close[i]);
    /* the parent's own end of file, should the pipe have leaked */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
    for (i = 0; i < G_N_ELEMENTS(stop_signals); i++)
        signal(stop_signals[i], SIG_DFL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    while (read(life, &go, 1) < 0 && errno == EINTR)
        ;
    if (go != 'g')
        _exit(127);                 /* the parent died before the go */
    /* the parent may die now: we stay to stop the group */
    prctl(PR_SET_PDEATHSIG, 0);
    if (getppid() != parent)
        _exit(127);
    self = getpid();
    child = fork();
    if (child < 0)
        _exit(127);
    if (child == 0) {
        close(life);
        close(tell);
        prctl(PR_SET_PDEATHSIG, SIGKILL);   /* the supervisor killed: the child too */
        if (getppid() != self)
            _exit(127);
        child_exec(o, logfd, pipefd, errfd);
    }
    /* the child proper's pid, for vdc_child_opts.pid_out */
    while (write(tell, &child, sizeof(child)) < 0 && errno == EINTR)
        ;
    if (logfd >= 0)
        close(logfd);
    if (pipefd >= 0)
        close(pipefd);
    if (errfd >= 0)
        close(errfd);
    for (i = 0; i < G_N_ELEMENTS(stop_signals); i++)
        signal(stop_signals[i], SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    for (;;) {
        struct pollfd p = { .fd = life, .events = POLLIN };
        siginfo_t si;
        int status = 0;

        memset(&si, 0, sizeof(si));
        if (waitid(P_PID, (id_t)child, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
            si.si_pid == child)
            reap_when_told(child, life, tell);
        if (poll(&p, 1, POLL_MS) > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR))) {
            char c;

            if (read(life, &c, 1) == 0) {
                /* the parent is gone: the group goes too */
                kill(0, death);
                while (waitpid(child, &status, 0) < 0 && errno == EINTR)
                    ;
                kill(0, SIGKILL);
                _exit(128 + death);
            }
        }
    }
}

/* Read what the child wrote so far on *@fd (non-blocking) into @buf,
 * keeping at most @max bytes (*@truncated set when more came).  Closes
 * *@fd at end of file; -1 is nothing to read. */
static void
drain(int *fd, GString *buf, size_t max, int *truncated)
{
    char chunk[4096];
    ssize_t n;

    while (*fd >= 0) {
        n = read(*fd, chunk, sizeof(chunk));
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && errno == EAGAIN)
            return;
        if (n <= 0) {
            close(*fd);
            *fd = -1;
            return;
        }
        if (buf->len < max) {
            size_t keep = MIN((size_t)n, max - buf->len);

            g_string_append_len(buf, chunk, (gssize)keep);
            if (keep < (size_t)n)
                *truncated = 1;
        } else {
            *truncated = 1;
        }
    }
}

/* The last of *@fd read into @buf as drain() does, *@fd closed; @buf's
 * text is returned (g_free) and its length put in *@len. */
static char *
drain_last(int *fd, GString *buf, size_t max, int *truncated, size_t *len)
{
    drain(fd, buf, max, truncated);
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
    *len = buf->len;
    return g_string_free(buf, FALSE);
}

/* Wait up to @ms for the outputs (@fd, @efd) or the supervisor's word
 * (@tell); returns when any may have something new.  -1: not watched. */
static void
pause_for(int fd, int efd, int tell, unsigned ms)
{
    struct pollfd p[3];
    nfds_t n = 0;

    if (fd >= 0)
        p[n++] = (struct pollfd){ .fd = fd, .events = POLLIN };
    if (efd >= 0)
        p[n++] = (struct pollfd){ .fd = efd, .events = POLLIN };
    if (tell >= 0)
        p[n++] = (struct pollfd){ .fd = tell, .events = POLLIN };
    if (n)
        (void)poll(p, n, (int)ms);
    else
        g_usleep((gulong)ms * 1000);
}

/* Has @pid exited?  (WNOWAIT: it stays a zombie, its pid stays ours.) */
static int
has_exited(pid_t pid)
{
    siginfo_t si;

    memset(&si, 0, sizeof(si));
    return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid;
}

/* Has the child proper ended?  Its supervisor says so on *@tell (one byte;
 * the child is then held unreaped until we write 'r' on the life pipe:
 * *@held = 1).  End of file there, or no word: the supervisor itself may
 * have ended (it could not fork, or it was killed). */
static int
child_ended(int *tell, pid_t supervisor, int *held)
{
    ssize_t n = -1;
    char c;

    if (*held)
        return 1;
    if (*tell >= 0) {
        while ((n = read(*tell, &c, 1)) < 0 && errno == EINTR)
            ;
        if (n == 1) {
            *held = 1;
            return 1;
        }
        if (n == 0) {
            close(*tell);
            *tell = -1;
        }
    }
    return has_exited(supervisor);
}

/* Let the supervisor reap the child it holds ('r' on @life), then wait
 * until the supervisor has ended (not reaped: its pid stays ours).  A
 * supervisor that died meanwhile makes the write fail (EPIPE): the
 * SIGPIPE that comes with it is blocked and taken back here. */
static void
release_child(int life, pid_t supervisor)
{
    sigset_t pipe_set, old;
    siginfo_t si;
    ssize_t n;

    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    while ((n = write(life, "r", 1)) < 0 && errno == EINTR)
        ;
    if (n < 0 && errno == EPIPE) {
        struct timespec zero = { 0, 0 };

        while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR)
            ;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    memset(&si, 0, sizeof(si));
    while (waitid(P_PID, (id_t)supervisor, &si, WEXITED | WNOWAIT) < 0 && errno == EINTR)
        ;
}

/* Close both ends of @p that are open. */
static void
close_pair(int p[2])
{
    if (p[0] >= 0)
        close(p[0]);
    if (p[1] >= 0)
        close(p[1]);
    p[0] = p[1] = -1;
}

int
vdc_child_run(const vdc_child_opts *o, vdc_child_result *r)
{
    const char *what = o->what ? o->what : o->argv ? o->argv[0] : "child process";
    size_t max = o->capture_max ? o->capture_max : VDC_CHILD_CAPTURE_MAX;
    unsigned grace = o->grace_ms ? o->grace_ms : VDC_CHILD_GRACE_MS;
    int capture = o->out == VDC_CHILD_CAPTURE || o->err == VDC_CHILD_CAPTURE;
    int apart = o->err == VDC_CHILD_CAPTURE_APART;
    int logged = o->out == VDC_CHILD_LOG || o->err == VDC_CHILD_LOG;
    int pfd[2] = { -1, -1 }, efd[2] = { -1, -1 }, life[2] = { -1, -1 }, tell[2] = { -1, -1 };
    int logfd = -1, status = 0, held = 0;
    GString *buf = NULL, *ebuf = NULL;
    gint64 deadline = 0, until;
    pid_t pid, self = getpid();

    memset(r, 0, sizeof(*r));
    if (o->out == VDC_CHILD_CAPTURE_APART) {
        vdc_error("%s: stdout cannot be captured apart (that is stderr's)", what);
        return -1;
    }
    if (logged) {
        logfd = open(o->log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (logfd < 0) {
            vdc_error("%s: log file %s: %s", what, o->log_path, g_strerror(errno));
            return -1;
        }
    }
    if ((capture && pipe2(pfd, O_CLOEXEC) < 0) || (apart && pipe2(efd, O_CLOEXEC) < 0) ||
        pipe2(life, O_CLOEXEC) < 0 || pipe2(tell, O_CLOEXEC) < 0) {
        vdc_error("%s: pipe: %s", what, g_strerror(errno));
        goto fail;
    }
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        vdc_error("%s: fork: %s", what, g_strerror(errno));
        goto fail;
    }
    if (pid == 0) {
        if (capture)
            close(pfd[0]);
        if (apart)
            close(efd[0]);
        close(life[1]);
        close(tell[0]);
        supervisor_main(o, self, life[0], tell[1], logfd, pfd[1], efd[1]);
    }
    setpgid(pid, pid);   /* also here: no window before the child's own call */
    close(life[0]);
    close(tell[1]);
    life[0] = tell[1] = -1;
    if (logfd >= 0)
        close(logfd);
    logfd = -1;
    /* the caller records the group (a journal) before the child proper
     * exists; the go starts it */
    if (o->started && o->started(pid, o->started_arg) < 0) {
        close_pair(life);           /* no go: the supervisor exits */
        close_pair(tell);
        kill(-pid, SIGKILL);
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
            ;
        close_pair(pfd);
        close_pair(efd);
        return -1;
    }
    while (write(life[1], "g", 1) < 0 && errno == EINTR)
        ;
    {
        pid_t child = 0;
        ssize_t n;

        /* the supervisor forks at the go and says the pid at once (end of
         * file: it could not fork; the group's id stands in); later, one
         * byte when the child has ended (child_ended) */
        while ((n = read(tell[0], &child, sizeof(child))) < 0 && errno == EINTR)
            ;
        if (o->pid_out)
            *o->pid_out = n == (ssize_t)sizeof(child) && child > 0 ? (int)child : (int)pid;
        fcntl(tell[0], F_SETFL, O_NONBLOCK);
    }
    if (capture) {
        close(pfd[1]);
        pfd[1] = -1;
        fcntl(pfd[0], F_SETFL, O_NONBLOCK);
        buf = g_string_new(NULL);
    }
    if (apart) {
        close(efd[1]);
        efd[1] = -1;
        fcntl(efd[0], F_SETFL, O_NONBLOCK);
        ebuf = g_string_new(NULL);
    }
    if (o->timeout_ms)
        deadline = g_get_monotonic_time() + (gint64)o->timeout_ms * 1000;

    for (;;) {
        if (capture)
            drain(&pfd[0], buf, max, &r->out_truncated);
        if (apart)
            drain(&efd[0], ebuf, max, &r->err_truncated);
        if (child_ended(&tell[0], pid, &held))
            break;
        if (o->stop && *o->stop) {
            r->stopped = 1;
            break;
        }
        if (deadline && g_get_monotonic_time() >= deadline) {
            r->timed_out = 1;
            break;
        }
        if (o->tick)
            o->tick(o->tick_arg);
        pause_for(pfd[0], efd[0], tell[0], POLL_MS);
    }
    if (r->stopped || r->timed_out) {
        kill(-pid, SIGTERM);
        until = g_get_monotonic_time() + (gint64)grace * 1000;
        while (!child_ended(&tell[0], pid, &held) && g_get_monotonic_time() < until) {
            pause_for(pfd[0], efd[0], tell[0], MIN(POLL_MS, grace));
            if (capture)
                drain(&pfd[0], buf, max, &r->out_truncated);
            if (apart)
                drain(&efd[0], ebuf, max, &r->err_truncated);
        }
    }
    /* the child has ended but is not reaped (its supervisor holds it until
     * told): its /proc/PID/stat still reads (the dom0 agent's last test
     * ends here) */
    if (o->tick)
        o->tick(o->tick_arg);
    if (held)
        release_child(life[1], pid);
    if (tell[0] >= 0)
        close(tell[0]);
    /* whatever is left in the group, also after a normal exit */
    kill(-pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    close(life[1]);
    /* what came before the end; a grandchild may hold the other ends */
    if (capture)
        r->out = drain_last(&pfd[0], buf, max, &r->out_truncated, &r->out_len);
    if (apart)
        r->err = drain_last(&efd[0], ebuf, max, &r->err_truncated, &r->err_len);
    if (o->tick)
        o->tick(o->tick_arg);   /* what came before the end */
    if (WIFEXITED(status)) {
        r->exited = 1;
        r->status = WEXITSTATUS(status);
    } else {
        r->exited = 0;
        r->status = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    }
    return 0;

fail:
    if (logfd >= 0)
        close(logfd);
    close_pair(pfd);
    close_pair(efd);
    close_pair(life);
    close_pair(tell);
    return -1;
}

int
vdc_child_code(const vdc_child_result *r)
{
    return r->exited ? r->status : 128 + r->status;
}

void
vdc_child_result_dispose(vdc_child_result *r)
{
    g_clear_pointer(&r->out, g_free);
    g_clear_pointer(&r->err, g_free);
    r->out_len = r->err_len = 0;
}
