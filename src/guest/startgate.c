/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The start gate of many guests at once, host side (startgate.h;
 * doc/control-disk.md "Start gate"). */
#include "config.h"
#include "guest/startgate.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"
#include "guest-agent/ctldisk.h"

#define POLL_US 10000           /* between two looks at the progress blocks */

static double
now_s(void)
{
    return (double)g_get_monotonic_time() / 1e6;
}

/* guest @g's progress block: 0 read, 1 nothing yet, -1 not readable now
 * (*@why says why) */
static int
read_progress(const vdc_gate_guest *g, struct vdc_ctl_progress *p, struct vdc_ctl_error *why)
{
    int fd = open(g->ctl_path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    int r;

    if (fd < 0) {
        snprintf(why->msg, sizeof(why->msg), "open: %s", g_strerror(errno));
        return -1;
    }
    r = vdc_ctl_disk_read_progress(fd, g->nonce, p, why);
    close(fd);
    return r;
}

/* the failure's one line: printed, and kept in *@why when asked */
static void G_GNUC_PRINTF(2, 3)
gate_error(char **why, const char *fmt, ...)
{
    g_autofree char *msg = NULL;
    va_list ap;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    vdc_error("%s", msg);
    if (why && !*why)
        *why = g_steal_pointer(&msg);
}

/* the go into guest @g's control disk, written and fsynced */
static int
release(vdc_gate_guest *g, char **why)
{
    struct vdc_ctl_error err = { { 0 } };
    struct vdc_ctl_gate go = { .nonce = g->nonce, .host_ns = (uint64_t)g_get_monotonic_time() * 1000u };
    int fd, r;

    fd = open(g->ctl_path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_DIRECT);
    if (fd < 0 && errno == EINVAL)      /* tmpfs and friends: through the page cache */
        fd = open(g->ctl_path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        gate_error(why, "start gate: %s: control disk %s: open: %s", g->name, g->ctl_path,
                   g_strerror(errno));
        return -1;
    }
    r = vdc_ctl_disk_write_gate(fd, &go, &err);
    if (r < 0) {
        gate_error(why, "start gate: %s: control disk %s: %s", g->name, g->ctl_path, err.msg);
        close(fd);
        return -1;
    }
    g->released_s = now_s();        /* visible to the guest's next read from here */
    r = fsync(fd);
    if (r < 0) {
        gate_error(why, "start gate: %s: control disk %s: fsync: %s", g->name, g->ctl_path,
                   g_strerror(errno));
        close(fd);
        return -1;
    }
    close(fd);
    return 0;
}

/* "guest 1 (NAME), guest 3 (NAME)" for the guests not ready */
static char *
not_ready(const vdc_gate_guest *g, size_t n)
{
    GString *s = g_string_new(NULL);
    size_t i;

    for (i = 0; i < n; i++)
        if (isnan(g[i].ready_s))
            g_string_append_printf(s, "%sguest %zu (%s)", s->len ? ", " : "", i, g[i].name);
    return g_string_free(s, FALSE);
}

int
vdc_start_gate(vdc_gate_guest *g, size_t n, unsigned timeout_s, vdc_gate_alive_fn alive,
               void *arg, volatile sig_atomic_t *stop, char **why)
{
    double deadline = now_s() + timeout_s;
    size_t i, ready = 0;

    for (i = 0; i < n; i++)
        g[i].ready_s = g[i].released_s = g[i].started_s = NAN;
    while (ready < n) {
        if (stop && *stop)
            return -1;
        for (i = 0; i < n; i++) {
            struct vdc_ctl_progress p;
            struct vdc_ctl_error torn = { { 0 } };     /* read again at the next poll */

            if (!isnan(g[i].ready_s))
                continue;
            if (read_progress(&g[i], &p, &torn) == 0 && p.ready_ns) {
                g[i].ready_s = now_s();
                ready++;
            } else if (alive && !alive(arg, i)) {
                gate_error(why, "start gate: guest %zu (%s) is gone before it was ready", i,
                           g[i].name);
                return -1;
            }
        }
        if (ready == n)
            break;
        if (now_s() > deadline) {
            g_autofree char *names = not_ready(g, n);

            gate_error(why, "start gate: not ready within %u s: %s", timeout_s, names);
            return -1;
        }
        g_usleep(POLL_US);
    }
    /* all at once: nothing but the writes between the first and the last */
    for (i = 0; i < n; i++)
        if (release(&g[i], why) < 0)
            return -1;
    return 0;
}

int
vdc_start_gate_started(vdc_gate_guest *g)
{
    struct vdc_ctl_progress p;
    struct vdc_ctl_error why = { { 0 } };
    int r;

    g->started_s = NAN;
    if (isnan(g->released_s)) {
        vdc_error("start gate: %s was not released: no start time", g->name);
        return -1;
    }
    r = read_progress(g, &p, &why);
    if (r != 0) {
        vdc_error("start gate: %s: control disk %s: %s", g->name, g->ctl_path,
                  r > 0 ? "no progress block: no start time" : why.msg);
        return -1;
    }
    if (!p.go_ns || !p.started_ns || p.started_ns < p.go_ns) {
        vdc_error("start gate: %s: control disk %s: %s", g->name, g->ctl_path,
                  !p.go_ns ? "the runner did not see the go" :
                  !p.started_ns ? "the runner started no agent after the go" :
                  "the runner's start is before its go");
        return -1;
    }
    g->started_s = g->released_s + (double)(p.started_ns - p.go_ns) / 1e9;
    return 0;
}

double
vdc_start_gate_skew(const vdc_gate_guest *g, size_t n)
{
    double lo = INFINITY, hi = -INFINITY;
    size_t i;

    if (n == 0)
        return NAN;
    for (i = 0; i < n; i++) {
        if (isnan(g[i].started_s))
            return NAN;
        lo = fmin(lo, g[i].started_s);
        hi = fmax(hi, g[i].started_s);
    }
    return hi - lo;
}
