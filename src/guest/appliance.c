/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The libguestfs appliance in a child with a timeout (appliance.h). */
#include "config.h"
#include "guest/appliance.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>
#ifdef WITH_GUESTFS
#include <guestfs.h>
#endif

#include "common/child.h"
#include "common/util.h"
#include "guest/manifest.h"
#include "guest/tmpdir.h"

#define DEFAULT_LAUNCH_TIMEOUT 600

/* In the child only: set by the parent's SIGTERM (stop or timeout). */
static volatile sig_atomic_t child_stop;

/* async-signal-safe: the flag, and stderr to /dev/null, since the parent
 * reports the stop in one line and what fails here after it is noise */
static void
on_child_term(int sig)
{
    int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

    child_stop = sig;
    if (fd >= 0) {
        dup2(fd, STDERR_FILENO);
        close(fd);
    }
}

/* The libguestfs session, in the forked child (common/child.h puts it in
 * a process group of its own; its stdout is the answer pipe). */
struct session {
    int (*fn)(void *arg, int wfd);
    void *arg;
    const char *tmp;
};

static int
session_main(void *p)
{
    const struct session *s = p;

    /* the parent decides when to stop: its SIGTERM to our group ends QEMU
     * (exec'd: default disposition), our pending libguestfs call then
     * fails, and we close the handle (libguestfs removes its temporary and
     * socket folders) and exit; SIGKILL after the grace */
    child_stop = 0;
    vdc_error_reset();          /* what the parent reported is not ours */
    vdc_on_stop_signals(on_child_term);
    signal(SIGINT, SIG_IGN);    /* the parent's SIGTERM stops us, not ^C */
    if (!g_getenv("LIBGUESTFS_CACHEDIR")) {
        const char *t = g_getenv("TMPDIR");

        g_setenv("LIBGUESTFS_CACHEDIR", t && *t ? t : "/var/tmp", TRUE);
    }
    g_setenv("TMPDIR", s->tmp, TRUE);
    g_setenv("XDG_RUNTIME_DIR", s->tmp, TRUE);
    /* 2 tells the parent the template was bad input (the error model) */
    return vdc_exit_status(s->fn(s->arg, STDOUT_FILENO));
}

/* Run @fn(@arg, wfd) in a child process group; its one-line answer (written
 * to wfd) is returned in *answer.  The child gets a private TMPDIR and
 * XDG_RUNTIME_DIR (libguestfs's temporary and socket folders), removed
 * here whatever happens, so a killed session leaves no /tmp/libguestfsXXXXXX
 * behind; the appliance cache stays where libguestfs keeps it
 * (LIBGUESTFS_CACHEDIR, else the caller's TMPDIR, else /var/tmp).  When
 * *@stop is set (polled every 100 ms) or after @timeout_s, the group gets
 * SIGTERM (QEMU exits, the child closes its handle and dies), then SIGKILL
 * after 3 s (vdc_child_run).  0, or -1 after vdc_error. */
static int
in_child(int (*fn)(void *arg, int wfd), void *arg, int timeout_s, volatile sig_atomic_t *stop,
         const char *what, char **answer)
{
    vdc_tmpdir tmp;
    struct session s = { fn, arg, NULL };
    vdc_child_opts o = { .fn = session_main, .arg = &s, .what = what,
                         .timeout_ms = (unsigned)timeout_s * 1000u, .stop = stop,
                         .out = VDC_CHILD_CAPTURE, .capture_max = 4096,
                         .death_signal = SIGTERM };
    vdc_child_result r;
    int rc;

    /* made locked (guest/tmpdir.h): if we die, the next prepare or cleanup
     * finds it unlocked and removes it */
    if (vdc_tmpdir_make(&tmp, g_get_tmp_dir(), VDC_TMPDIR_GUESTFS_PREFIX, 0700, what) < 0)
        return -1;
    s.tmp = tmp.path;
    rc = vdc_child_run(&o, &r);
    vdc_tmpdir_dispose(&tmp);
    if (rc < 0)
        return -1;
    if (r.stopped) {
        vdc_error_kind(VDC_ERR_INTERRUPTED, "%s: interrupted: appliance stopped", what);
        rc = -1;
    } else if (r.timed_out) {
        vdc_error("%s: no answer within %d s: killed (libguestfs under TCG needs "
                  "LIBGUESTFS_BACKEND_SETTINGS=force_tcg)", what, timeout_s);
        rc = -1;
    } else if (!r.exited || r.status != 0) {
        /* the child reported its error on stderr */
        vdc_note_error(r.exited && r.status == VDC_EXIT_USAGE ? VDC_ERR_INPUT : VDC_ERR_RUNTIME);
        rc = -1;
    } else {
        *answer = g_strstrip(g_steal_pointer(&r.out));
    }
    vdc_child_result_dispose(&r);
    return rc;
}

#ifdef WITH_GUESTFS
struct install_args {
    const char *image, *agent, *runner, *agent_sha256, *runner_sha256;
};

/* libguestfs's last error, first line only: some messages carry a
 * multi-line hint (the FAQ about launch failures); ours are one line.
 * Not reentrant (the libguestfs work runs in one single-threaded child). */
static const char *
gerr(guestfs_h *g)
{
    static char buf[1024];
    const char *e = guestfs_last_error(g);
    size_t n;

    if (!e)
        return "unknown libguestfs error";
    n = strcspn(e, "\n");
    if (n >= sizeof(buf))
        n = sizeof(buf) - 1;
    memcpy(buf, e, n);
    buf[n] = '\0';
    return buf;
}

/* mount the filesystem that holds /sbin/init (or /etc); 0 or -1 */
static int
mount_root(guestfs_h *g, const char *image, int ro)
{
    char **fs = guestfs_list_filesystems(g);
    int rc = -1;
    size_t i;

    if (!fs) {
        vdc_error("guest image %s: list filesystems: %s", image, gerr(g));
        return -1;
    }
    for (i = 0; fs[i] && fs[i + 1]; i += 2) {
        if (!strcmp(fs[i + 1], "swap") || !strcmp(fs[i + 1], "unknown"))
            continue;
        if ((ro ? guestfs_mount_ro(g, fs[i], "/") : guestfs_mount(g, fs[i], "/")) < 0)
            continue;
        if (guestfs_is_dir(g, "/etc") > 0 &&
            (guestfs_exists(g, "/sbin/init") > 0 || guestfs_exists(g, "/lib/systemd/systemd") > 0)) {
            rc = 0;
            break;
        }
        guestfs_umount_all(g);
    }
    if (rc < 0)
        vdc_input_error("guest image %s: no filesystem with /etc and /sbin/init", image);
    for (i = 0; fs[i]; i++)
        free(fs[i]);
    free(fs);
    return rc;
}

static const char *
detect_init(guestfs_h *g)
{
    char *link = NULL;
    const char *kind;

    if (guestfs_is_symlink(g, "/sbin/init") > 0)
        link = guestfs_readlink(g, "/sbin/init");
    if (link && strstr(link, "systemd"))
        kind = "systemd";
    else if (link && strstr(link, "busybox"))
        kind = "busybox";
    else if (guestfs_exists(g, "/sbin/init") <= 0 && guestfs_exists(g, "/lib/systemd/systemd") > 0)
        kind = "systemd";
    else if (guestfs_is_file(g, "/etc/inittab") > 0)
        kind = "sysvinit";
    else if (guestfs_exists(g, "/lib/systemd/systemd") > 0)
        kind = "systemd";
    else
        kind = NULL;
    free(link);
    return kind;
}

static const char runner_unit[] =
    "# installed by vmdiskcmp prepare: run the benchmark job from the control disk\n"
    "[Unit]\n"
    "Description=vmdiskcmp benchmark runner\n"
    "After=local-fs.target\n"
    "DefaultDependencies=no\n"
    "\n"
    "[Service]\n"
    "Type=oneshot\n"
    "ExecStart=" VDC_GUEST_RUNNER_PATH "\n"
    "StandardOutput=journal+console\n"
    "StandardError=journal+console\n"
    "\n"
    "[Install]\n"
    "WantedBy=multi-user.target\n";

/* an active (not commented) inittab line already starts the runner */
static int
inittab_has_runner(const char *tab)
{
    char **lines, **l;
    int found = 0;

    if (!tab)
        return 0;
    lines = g_strsplit(tab, "\n", -1);
    for (l = lines; *l && !found; l++) {
        const char *p = *l;

        while (*p == ' ' || *p == '\t')
            p++;
        found = *p != '#' && strstr(p, VDC_GUEST_RUNNER_PATH) != NULL;
    }
    g_strfreev(lines);
    return found;
}

static int
install_hook(guestfs_h *g, const char *kind, const char *image)
{
    char *tab = NULL;
    const char *line;
    int r = 0;

    if (!strcmp(kind, "systemd")) {
        if (guestfs_mkdir_p(g, "/etc/systemd/system/multi-user.target.wants") < 0 ||
            guestfs_write(g, "/etc/systemd/system/vmdiskcmp-runner.service", runner_unit,
                          sizeof(runner_unit) - 1) < 0 ||
            guestfs_ln_sf(g, "/etc/systemd/system/vmdiskcmp-runner.service",
                          "/etc/systemd/system/multi-user.target.wants/vmdiskcmp-runner.service") < 0)
            r = -1;
    } else {
        line = !strcmp(kind, "busybox") ? "::once:" VDC_GUEST_RUNNER_PATH "\n"
                                        : "vdcr:2345:once:" VDC_GUEST_RUNNER_PATH "\n";
        if (guestfs_is_file(g, "/etc/inittab") > 0)
            tab = guestfs_cat(g, "/etc/inittab");
        if (!inittab_has_runner(tab))
            r = guestfs_write_append(g, "/etc/inittab", line, strlen(line));
        free(tab);
    }
    if (r < 0)
        vdc_error("guest image %s: install the runner for %s: %s", image, kind,
                  gerr(g));
    return r;
}

static guestfs_h *
open_handle(const char *image, int readonly)
{
    guestfs_h *g = guestfs_create();

    if (!g) {
        vdc_error("guest image %s: cannot create a libguestfs handle", image);
        return NULL;
    }
    guestfs_set_error_handler(g, NULL, NULL);
    if (guestfs_add_drive_opts(g, image, GUESTFS_ADD_DRIVE_OPTS_FORMAT, "raw",
                               GUESTFS_ADD_DRIVE_OPTS_READONLY, readonly, -1) < 0 ||
        guestfs_launch(g) < 0) {
        vdc_error("guest image %s: libguestfs: %s", image, gerr(g));
        guestfs_close(g);
        return NULL;
    }
    return g;
}

static int
install_child(void *p, int wfd)
{
    struct install_args *a = p;
    guestfs_h *g = open_handle(a->image, 0);
    const char *kind;
    char *note = NULL;
    int rc = -1;

    /* between the steps: a stop that came while a call succeeded */
#define STOPPED() (child_stop != 0)
    if (!g)
        return -1;
    if (STOPPED() || mount_root(g, a->image, 0) < 0)
        goto out;
    kind = detect_init(g);
    if (!kind) {
        vdc_input_error("guest image %s: unknown init system (expected systemd, sysvinit or busybox init)",
                        a->image);
        goto out;
    }
    if (STOPPED())
        goto out;
    if (guestfs_mkdir_p(g, "/usr/lib/vmdiskcmp") < 0 ||
        guestfs_mkdir_p(g, "/var/log/vmdiskcmp") < 0 ||
        guestfs_upload(g, a->agent, VDC_GUEST_AGENT_PATH) < 0 ||
        guestfs_upload(g, a->runner, VDC_GUEST_RUNNER_PATH) < 0 ||
        guestfs_chmod(g, 0755, VDC_GUEST_AGENT_PATH) < 0 ||
        guestfs_chmod(g, 0755, VDC_GUEST_RUNNER_PATH) < 0) {
        vdc_error("guest image %s: upload agent and runner: %s", a->image, gerr(g));
        goto out;
    }
    if (STOPPED() || install_hook(g, kind, a->image) < 0)
        goto out;
    note = g_strdup_printf("vmdiskcmp prepare: agent sha256 %s, runner sha256 %s, init %s\n",
                           a->agent_sha256, a->runner_sha256, kind);
    if (guestfs_write(g, "/var/log/vmdiskcmp/prepared.txt", note, strlen(note)) < 0) {
        vdc_error("guest image %s: write the preparation note: %s", a->image,
                  gerr(g));
        goto out;
    }
    if (STOPPED())
        goto out;
    if (guestfs_umount_all(g) < 0 || guestfs_shutdown(g) < 0) {
        vdc_error("guest image %s: flush and close: %s", a->image, gerr(g));
        goto out;
    }
    if (STOPPED() || write(wfd, kind, strlen(kind)) < 0)
        goto out;
    rc = 0;
 out:
#undef STOPPED
    g_free(note);
    guestfs_close(g);   /* kills QEMU, removes libguestfs's temporary folders */
    return rc;
}

struct logs_args {
    const char *image, *out_dir;
};

static int
logs_child(void *p, int wfd)
{
    static const char *const paths[] = { "/var/log/vmdiskcmp", "/var/log/messages",
                                         "/var/log/syslog", "/var/log/kern.log",
                                         "/var/log/journal", NULL };
    struct logs_args *a = p;
    guestfs_h *g = open_handle(a->image, 1);
    int i, n = 0;
    char count[16];

    if (!g)
        return -1;
    if (mount_root(g, a->image, 1) < 0) {
        guestfs_close(g);
        return -1;
    }
    for (i = 0; paths[i]; i++) {
        if (guestfs_exists(g, paths[i]) <= 0)
            continue;
        if (guestfs_copy_out(g, paths[i], a->out_dir) < 0)
            fprintf(stderr, "vmdiskcmp: guest image %s: copy out %s: %s\n", a->image, paths[i],
                    gerr(g));
        else
            n++;
    }
    guestfs_close(g);
    snprintf(count, sizeof(count), "%d", n);
    return write(wfd, count, strlen(count)) < 0 ? -1 : 0;
}
#endif

/* appliance.h */
int
vdc_appliance_install(const char *image, const char *agent, const char *runner,
                      const char *agent_sha256, const char *runner_sha256, int timeout_s,
                      volatile sig_atomic_t *stop, char **init_system)
{
#ifdef WITH_GUESTFS
    struct install_args a = { image, agent, runner, agent_sha256, runner_sha256 };

    return in_child(install_child, &a, timeout_s, stop, "libguestfs (prepare)", init_system);
#else
    vdc_error("guest image %s: not prepared and vmdiskcmp was built without libguestfs", image);
    return -1;
#endif
}

/* appliance.h */
int
vdc_collect_logs(const char *image, const char *out_dir, int launch_timeout_s)
{
#ifdef WITH_GUESTFS
    struct logs_args a = { image, out_dir };
    char *answer = NULL;
    int timeout = launch_timeout_s > 0 ? launch_timeout_s : DEFAULT_LAUNCH_TIMEOUT;

    if (g_mkdir_with_parents(out_dir, 0755) < 0) {
        vdc_error("log folder %s: %s", out_dir, g_strerror(errno));
        return -1;
    }
    if (in_child(logs_child, &a, timeout, NULL, "libguestfs (collect logs)", &answer) < 0)
        return -1;
    vdc_progress("collected %s log path(s) from %s into %s", answer, image, out_dir);
    g_free(answer);
    return 0;
#else
    vdc_error("guest image %s: collect logs: vmdiskcmp was built without libguestfs", image);
    return -1;
#endif
}
