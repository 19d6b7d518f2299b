/* A child process with a timeout, a stop flag and a grace period (child.h). */
#include "config.h"
#include "common/child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"

#define POLL_MS 100

/* In the forked child: point fd @target at what @mode says.  0 or -1. */
static int
child_io(int target, vdc_child_io mode, int logfd, int pipefd)
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
    }
    return -1;
}

/* The forked child, up to exec or fn: never returns. */
static void __attribute__((noreturn))
child_main(const vdc_child_opts *o, pid_t parent, int logfd, int pipefd)
{
    static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
    sigset_t none;
    size_t i;
    int fd;

    setpgid(0, 0);
    if (o->death_signal) {
        prctl(PR_SET_PDEATHSIG, o->death_signal);
        if (getppid() != parent)    /* we died between fork and prctl */
            _exit(127);
    }
    for (i = 0; i < G_N_ELEMENTS(stop_signals); i++)
        signal(stop_signals[i], SIG_DFL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        dup2(fd, STDIN_FILENO);
        close(fd);
    }
    if (child_io(STDOUT_FILENO, o->out, logfd, pipefd) < 0 ||
        child_io(STDERR_FILENO, o->err, logfd, pipefd) < 0)
        _exit(127);
    if (logfd >= 0)
        close(logfd);
    if (pipefd >= 0)
        close(pipefd);
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

/* Read what the child wrote so far (non-blocking) into @r, keeping at most
 * @max bytes.  Closes *@fd at end of file. */
static void
drain(int *fd, GString *buf, size_t max, vdc_child_result *r)
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
                r->out_truncated = 1;
        } else {
            r->out_truncated = 1;
        }
    }
}

/* Wait up to @ms for the output or the child; returns when either may have
 * something new. */
static void
pause_for(int fd, unsigned ms)
{
    if (fd >= 0) {
        struct pollfd p = { .fd = fd, .events = POLLIN };

        (void)poll(&p, 1, (int)ms);
    } else {
        g_usleep((gulong)ms * 1000);
    }
}

/* Has @pid exited?  (WNOWAIT: it stays a zombie, its pid stays ours.) */
static int
has_exited(pid_t pid)
{
    siginfo_t si;

    memset(&si, 0, sizeof(si));
    return waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid;
}

int
vdc_child_run(const vdc_child_opts *o, vdc_child_result *r)
{
    const char *what = o->what ? o->what : o->argv ? o->argv[0] : "child process";
    size_t max = o->capture_max ? o->capture_max : VDC_CHILD_CAPTURE_MAX;
    unsigned grace = o->grace_ms ? o->grace_ms : VDC_CHILD_GRACE_MS;
    int capture = o->out == VDC_CHILD_CAPTURE || o->err == VDC_CHILD_CAPTURE;
    int logged = o->out == VDC_CHILD_LOG || o->err == VDC_CHILD_LOG;
    int pfd[2] = { -1, -1 }, logfd = -1, status = 0;
    GString *buf = NULL;
    gint64 deadline = 0, until;
    pid_t pid, self = getpid();

    memset(r, 0, sizeof(*r));
    if (logged) {
        logfd = open(o->log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (logfd < 0) {
            vdc_error("%s: log file %s: %s", what, o->log_path, g_strerror(errno));
            return -1;
        }
    }
    if (capture && pipe2(pfd, O_CLOEXEC) < 0) {
        vdc_error("%s: pipe: %s", what, g_strerror(errno));
        if (logfd >= 0)
            close(logfd);
        return -1;
    }
    fflush(NULL);
    pid = fork();
    if (pid < 0) {
        vdc_error("%s: fork: %s", what, g_strerror(errno));
        if (logfd >= 0)
            close(logfd);
        if (capture) {
            close(pfd[0]);
            close(pfd[1]);
        }
        return -1;
    }
    if (pid == 0) {
        if (capture)
            close(pfd[0]);
        child_main(o, self, logfd, pfd[1]);
    }
    setpgid(pid, pid);   /* also here: no window before the child's own call */
    if (o->pid_out)
        *o->pid_out = (int)pid;
    if (logfd >= 0)
        close(logfd);
    if (capture) {
        close(pfd[1]);
        fcntl(pfd[0], F_SETFL, O_NONBLOCK);
        buf = g_string_new(NULL);
    }
    if (o->timeout_ms)
        deadline = g_get_monotonic_time() + (gint64)o->timeout_ms * 1000;

    for (;;) {
        if (capture)
            drain(&pfd[0], buf, max, r);
        if (has_exited(pid))
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
        pause_for(pfd[0], POLL_MS);
    }
    if (r->stopped || r->timed_out) {
        kill(-pid, SIGTERM);
        until = g_get_monotonic_time() + (gint64)grace * 1000;
        while (!has_exited(pid) && g_get_monotonic_time() < until) {
            pause_for(pfd[0], MIN(POLL_MS, grace));
            if (capture)
                drain(&pfd[0], buf, max, r);
        }
    }
    /* the child has ended but is not reaped: its /proc/PID/stat still
     * reads (the dom0 agent's last test ends here) */
    if (o->tick)
        o->tick(o->tick_arg);
    /* whatever is left in the group, also after a normal exit */
    kill(-pid, SIGKILL);
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (capture) {
        drain(&pfd[0], buf, max, r);    /* what came before the end */
        if (pfd[0] >= 0)
            close(pfd[0]);              /* a grandchild may hold the other end */
        r->out_len = buf->len;
        r->out = g_string_free(buf, FALSE);
    }
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
    r->out_len = 0;
}
