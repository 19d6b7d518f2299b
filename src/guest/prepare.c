/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp guest preparation with libguestfs (doc/guest-template.md).
 *
 * The libguestfs session runs in a child process of its own process group
 * so that a launch that hangs (TCG without force_tcg, emulation inside
 * emulation) is killed, QEMU included, after the timeout: libguestfs has no
 * launch timeout of its own. */
#include "config.h"
#include "guest/prepare.h"
#include "guest/tmpdir.h"

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
#include "common/escape.h"
#include "common/util.h"

#define DEFAULT_LAUNCH_TIMEOUT 600
#define KEY_PREFIX "vmdiskcmp-prepare-v1\n"

void
vdc_prepared_init(struct vdc_prepared *p)
{
    memset(p, 0, sizeof(*p));
}

void
vdc_prepared_dispose(struct vdc_prepared *p)
{
    if (!p)
        return;
    g_free(p->image);
    g_free(p->key);
    g_free(p->template_path);
    g_free(p->template_sha256);
    g_free(p->agent_sha256);
    g_free(p->runner_sha256);
    g_free(p->init_system);
    g_free(p->kernel);
    g_free(p->initrd);
    g_free(p->cmdline_xen);
    g_free(p->cmdline_kvm);
    memset(p, 0, sizeof(*p));
}


static int
stopped(volatile sig_atomic_t *stop)
{
    return stop && *stop;
}

/* vdc_file_sha256, giving up (NULL after vdc_error "interrupted") when
 * *@stop is set: a template of several GiB takes seconds to hash */
static char *
file_sha256(const char *path, volatile sig_atomic_t *stop)
{
    GChecksum *c;
    guchar buf[1 << 16];
    char *hex;
    ssize_t r;
    int fd = open(path, O_RDONLY | O_CLOEXEC);

    if (fd < 0) {
        vdc_error("%s: %s", path, g_strerror(errno));
        return NULL;
    }
    c = g_checksum_new(G_CHECKSUM_SHA256);
    while ((r = read(fd, buf, sizeof(buf))) != 0) {
        if (r < 0) {
            if (errno == EINTR)
                continue;
            vdc_error("%s: read: %s", path, g_strerror(errno));
            g_checksum_free(c);
            close(fd);
            return NULL;
        }
        g_checksum_update(c, buf, (gsize)r);
        if (stopped(stop)) {
            vdc_error("%s: sha256: interrupted", path);
            g_checksum_free(c);
            close(fd);
            return NULL;
        }
    }
    close(fd);
    hex = g_strdup(g_checksum_get_string(c));
    g_checksum_free(c);
    return hex;
}

char *
vdc_file_sha256(const char *path)
{
    return file_sha256(path, NULL);
}

static int
is_sha256_hex(const char *s)
{
    int i;

    if (!s)
        return 0;
    for (i = 0; i < 64; i++)
        if (!g_ascii_isxdigit(s[i]) || g_ascii_isupper(s[i]))
            return 0;
    return s[64] == 0;
}

char *
vdc_prepare_cache_key(const char *template_sha256, const char *agent_sha256,
                      const char *runner_sha256)
{
    char *text, *key;

    if (!is_sha256_hex(template_sha256) || !is_sha256_hex(agent_sha256) ||
        !is_sha256_hex(runner_sha256))
        return NULL;
    text = g_strdup_printf(KEY_PREFIX "%s\n%s\n%s\n", template_sha256, agent_sha256,
                           runner_sha256);
    key = g_compute_checksum_for_string(G_CHECKSUM_SHA256, text, -1);
    g_free(text);
    return key;
}

char *
vdc_prepare_cached(const char *template_path, const char *agent_path, const char *runner_path,
                   const char *cache_dir)
{
    g_autofree char *t = NULL, *a = NULL, *r = NULL, *key = NULL;
    char *img;

    const char *in[] = { template_path, agent_path, runner_path };
    const char *dir = cache_dir ? cache_dir : VDC_PREPARE_DEFAULT_CACHE;
    g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
    size_t i;

    /* an empty or absent cache holds nothing: no need to hash */
    if (!d || !g_dir_read_name(d))
        return NULL;
    for (i = 0; i < G_N_ELEMENTS(in); i++)
        if (!in[i] || !g_file_test(in[i], G_FILE_TEST_IS_REGULAR) || access(in[i], R_OK) < 0)
            return NULL;
    if (!(t = vdc_file_sha256(template_path)) || !(a = vdc_file_sha256(agent_path)) ||
        !(r = vdc_file_sha256(runner_path)) || !(key = vdc_prepare_cache_key(t, a, r)))
        return NULL;
    img = g_build_filename(dir, key, "guest.img", NULL);
    if (!g_file_test(img, G_FILE_TEST_IS_REGULAR))
        g_clear_pointer(&img, g_free);
    return img;
}

/* ---- manifests ---------------------------------------------------------------- */
static char *
manifest_path(const char *image)
{
    return g_strconcat(image, ".manifest", NULL);
}

/* absolute path of @rel relative to the folder of @image */
static char *
beside(const char *image, const char *rel)
{
    char *dir, *p;

    if (g_path_is_absolute(rel))
        return g_strdup(rel);
    dir = g_path_get_dirname(image);
    p = g_build_filename(dir, rel, NULL);
    g_free(dir);
    return p;
}

static char *
kf_string(GKeyFile *kf, const char *group, const char *key, const char *file, int required)
{
    GError *err = NULL;
    char *v = g_key_file_get_string(kf, group, key, &err);

    if (!v) {
        if (required)
            vdc_input_error("%s: [%s] %s: expected a value", file, group, key);
        g_clear_error(&err);
        return NULL;
    }
    return g_strstrip(v);
}

/* read IMAGE.manifest's [boot] (and [prepared] when present) into @out */
static int
manifest_load(const char *image, struct vdc_prepared *out, int *is_prepared)
{
    char *path = manifest_path(image);
    GKeyFile *kf = g_key_file_new();
    GError *err = NULL;
    char *kernel = NULL, *initrd = NULL;
    int rc = -1;

    *is_prepared = 0;
    if (!g_key_file_load_from_file(kf, path, G_KEY_FILE_NONE, &err)) {
        /* GLib quotes the line it could not read: from a garbage file,
         * binary; shown escaped and cut short */
        g_autofree char *why = vdc_escape_text(err->message, -1, 160);

        vdc_input_error("guest image %s: manifest %s: %s", image, path, why);
        g_clear_error(&err);
        goto out;
    }
    if (!(kernel = kf_string(kf, "boot", "kernel", path, 1)) ||
        !(initrd = kf_string(kf, "boot", "initrd", path, 1)) ||
        !(out->cmdline_xen = kf_string(kf, "boot", "cmdline_xen", path, 1)) ||
        !(out->cmdline_kvm = kf_string(kf, "boot", "cmdline_kvm", path, 1)))
        goto out;
    out->kernel = beside(image, kernel);
    out->initrd = beside(image, initrd);
    if (g_key_file_has_key(kf, "boot", "min_memory_mib", NULL)) {
        g_autofree char *v = kf_string(kf, "boot", "min_memory_mib", path, 1);
        char *end = NULL;
        gint64 m = v ? g_ascii_strtoll(v, &end, 10) : 0;

        if (!v || !*v || *end || m < 1 || m > 1048576) {
            vdc_input_error("%s: [boot] min_memory_mib '%s': expected MiB, a whole number 1..1048576",
                            path, v ? v : "");
            goto out;
        }
        out->min_memory_mib = m;
    }
    if (g_key_file_has_group(kf, "prepared")) {
        if (!(out->key = kf_string(kf, "prepared", "key", path, 1)) ||
            !(out->template_sha256 = kf_string(kf, "prepared", "template_sha256", path, 1)) ||
            !(out->agent_sha256 = kf_string(kf, "prepared", "agent_sha256", path, 1)) ||
            !(out->runner_sha256 = kf_string(kf, "prepared", "runner_sha256", path, 1)) ||
            !(out->init_system = kf_string(kf, "prepared", "init_system", path, 1)))
            goto out;
        out->template_path = kf_string(kf, "prepared", "template", path, 0);
        *is_prepared = 1;
    }
    rc = 0;
 out:
    g_free(kernel);
    g_free(initrd);
    g_free(path);
    g_key_file_free(kf);
    return rc;
}

int
vdc_template_load(const char *image, struct vdc_prepared *out)
{
    int prepared = 0;

    vdc_prepared_init(out);
    if (manifest_load(image, out, &prepared) < 0) {
        vdc_prepared_dispose(out);
        return -1;
    }
    out->image = g_strdup(image);
    return 0;
}

int
vdc_prepared_load(const char *image, struct vdc_prepared *out)
{
    int prepared = 0;

    vdc_prepared_init(out);
    if (manifest_load(image, out, &prepared) < 0) {
        vdc_prepared_dispose(out);
        return -1;
    }
    if (!prepared) {
        vdc_input_error("guest image %s: its manifest has no [prepared] section: not a prepared image",
                        image);
        vdc_prepared_dispose(out);
        return -1;
    }
    out->image = g_strdup(image);
    return 0;
}

/* prepare.h */
int
vdc_guest_manifest_check(const char *image, int kernel, int initrd)
{
    struct vdc_prepared m;
    const struct { int need; const char *key, *opt; char *const *path; } f[] = {
        { kernel, "kernel", "--kernel", &m.kernel },
        { initrd, "initrd", "--initrd", &m.initrd },
    };
    g_autofree char *manifest = manifest_path(image);
    int prepared = 0, rc = -1;
    size_t i;

    vdc_prepared_init(&m);
    if (!g_file_test(manifest, G_FILE_TEST_IS_REGULAR)) {
        vdc_input_error("guest image %s: manifest %s: no such file: expected the manifest beside the "
                        "image (doc/guest-template.md)", image, manifest);
        goto out;
    }
    if (manifest_load(image, &m, &prepared) < 0)
        goto out;
    for (i = 0; i < G_N_ELEMENTS(f); i++) {
        if (f[i].need && (!g_file_test(*f[i].path, G_FILE_TEST_IS_REGULAR) ||
                          access(*f[i].path, R_OK) < 0)) {
            vdc_input_error("guest image %s: manifest %s: [boot] %s %s: %s: expected a readable "
                            "file (fix the manifest, or give %s FILE)", image, manifest, f[i].key,
                            *f[i].path, g_file_test(*f[i].path, G_FILE_TEST_EXISTS)
                                ? "not a readable regular file" : "no such file", f[i].opt);
            goto out;
        }
    }
    rc = 0;
 out:
    vdc_prepared_dispose(&m);
    return rc;
}

/* write IMAGE.manifest for a prepared image whose boot files are named
 * @kernel_rel and @initrd_rel beside it */
static int
manifest_write(const char *image, const struct vdc_prepared *p, const char *template_path,
               const char *kernel_rel, const char *initrd_rel)
{
    GKeyFile *kf = g_key_file_new();
    char *path = manifest_path(image), *data;
    gsize len;
    int rc;

    g_key_file_set_comment(kf, NULL, NULL,
                           " vmdiskcmp prepared guest image (doc/guest-template.md)", NULL);
    g_key_file_set_string(kf, "prepared", "key", p->key);
    g_key_file_set_string(kf, "prepared", "template", template_path);
    g_key_file_set_string(kf, "prepared", "template_sha256", p->template_sha256);
    g_key_file_set_string(kf, "prepared", "agent_sha256", p->agent_sha256);
    g_key_file_set_string(kf, "prepared", "runner_sha256", p->runner_sha256);
    g_key_file_set_string(kf, "prepared", "init_system", p->init_system);
    g_key_file_set_string(kf, "prepared", "agent", VDC_GUEST_AGENT_PATH);
    g_key_file_set_string(kf, "prepared", "runner", VDC_GUEST_RUNNER_PATH);
    g_key_file_set_string(kf, "boot", "kernel", kernel_rel);
    g_key_file_set_string(kf, "boot", "initrd", initrd_rel);
    g_key_file_set_string(kf, "boot", "cmdline_xen", p->cmdline_xen);
    g_key_file_set_string(kf, "boot", "cmdline_kvm", p->cmdline_kvm);
    g_key_file_set_string(kf, "boot", "root_mode", "ro");
    if (p->min_memory_mib > 0)
        g_key_file_set_int64(kf, "boot", "min_memory_mib", p->min_memory_mib);
    data = g_key_file_to_data(kf, &len, NULL);
    rc = vdc_write_file_atomic(path, data, len);
    g_free(data);
    g_free(path);
    g_key_file_free(kf);
    return rc;
}

/* ---- files ---------------------------------------------------------------------- */
/* copy @src to the new file @dst (O_EXCL), keeping holes; fsync.  Gives
 * up (removing @dst) when *@stop is set. */
static int
copy_sparse(const char *src, const char *dst, volatile sig_atomic_t *stop)
{
    int in = -1, out = -1, rc = -1;
    struct stat st;
    off_t data = 0, hole, pos;
    char *buf = NULL;

    in = open(src, O_RDONLY | O_CLOEXEC);
    if (in < 0 || fstat(in, &st) < 0) {
        vdc_error("%s: %s", src, g_strerror(errno));
        goto out;
    }
    out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (out < 0) {
        vdc_error("%s: create: %s", dst, g_strerror(errno));
        goto out;
    }
    if (ftruncate(out, st.st_size) < 0) {
        vdc_error("%s: set size: %s", dst, g_strerror(errno));
        goto fail;
    }
    buf = g_malloc(1 << 20);
    for (;;) {
        data = lseek(in, data, SEEK_DATA);
        if (data < 0)
            break;          /* ENXIO: no more data */
        hole = lseek(in, data, SEEK_HOLE);
        if (hole < 0)
            hole = st.st_size;
        for (pos = data; pos < hole;) {
            size_t n = (size_t)MIN((off_t)(1 << 20), hole - pos);
            ssize_t r = pread(in, buf, n, pos);

            if (r <= 0 || pwrite(out, buf, (size_t)r, pos) != r) {
                vdc_error("copy %s to %s: %s", src, dst, r < 0 ? g_strerror(errno) : "short I/O");
                goto fail;
            }
            if (stopped(stop)) {
                vdc_error("copy %s to %s: interrupted", src, dst);
                goto fail;
            }
            pos += r;
        }
        data = hole;
    }
    if (fsync(out) < 0) {
        vdc_error("%s: fsync: %s", dst, g_strerror(errno));
        goto fail;
    }
    rc = 0;
    goto out;
 fail:
    unlink(dst);
 out:
    g_free(buf);
    if (in >= 0)
        close(in);
    if (out >= 0)
        close(out);
    return rc;
}

/* ---- the libguestfs session, in a child with a timeout -------------------------- */
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

/* ---- prepare ---------------------------------------------------------------------- */
static int
need_file(const char *what, const char *path)
{
    if (!path || !g_file_test(path, G_FILE_TEST_IS_REGULAR)) {
        vdc_input_error("%s '%s': expected an existing file", what, path ? path : "");
        return -1;
    }
    return 0;
}

/* copy the prepared image and its boot files to OUT, OUT.vmlinuz,
 * OUT.initrd, OUT.manifest; on failure (or *@stop) removes only the files it
 * created (copy_sparse creates with O_EXCL) */
static int
export_prepared(const struct vdc_prepared *p, const char *template_path, const char *out,
                volatile sig_atomic_t *stop)
{
    char *k = g_strconcat(out, ".vmlinuz", NULL), *i = g_strconcat(out, ".initrd", NULL);
    char *kb = g_path_get_basename(k), *ib = g_path_get_basename(i);
    int rc = -1, made = 0;

    if (copy_sparse(p->image, out, stop) < 0)
        goto out;
    made = 1;
    if (copy_sparse(p->kernel, k, stop) < 0)
        goto out;
    made = 2;
    if (copy_sparse(p->initrd, i, stop) < 0)
        goto out;
    made = 3;
    if (manifest_write(out, p, template_path, kb, ib) < 0)
        goto out;
    rc = 0;
 out:
    if (rc < 0) {
        if (made >= 3)
            unlink(i);
        if (made >= 2)
            unlink(k);
        if (made >= 1)
            unlink(out);
    }
    g_free(k);
    g_free(i);
    g_free(kb);
    g_free(ib);
    return rc;
}

int
vdc_prepare(const struct vdc_prepare_opts *o, struct vdc_prepared *out)
{
    const char *cache = o->cache_dir ? o->cache_dir : VDC_PREPARE_DEFAULT_CACHE;
    int timeout = o->launch_timeout_s > 0 ? o->launch_timeout_s : DEFAULT_LAUNCH_TIMEOUT;
    struct vdc_prepared tpl;
    vdc_tmpdir tmp;
    char *entry = NULL, *img = NULL, *answer = NULL, *kpath = NULL, *ipath = NULL;
    int prepared = 0, rc = -1;

    vdc_prepared_init(out);
    vdc_prepared_init(&tpl);
    vdc_tmpdir_init(&tmp);
    if (need_file("guest template", o->template_path) < 0 ||
        need_file("agent", o->agent_path) < 0 || need_file("runner", o->runner_path) < 0)
        return -1;
    if (o->out_path && g_file_test(o->out_path, G_FILE_TEST_EXISTS)) {
        vdc_input_error("--out %s: already exists: refusing to overwrite it", o->out_path);
        return -1;
    }
    if (manifest_load(o->template_path, &tpl, &prepared) < 0)
        goto out;
    if (!(out->agent_sha256 = file_sha256(o->agent_path, o->stop)) ||
        !(out->runner_sha256 = file_sha256(o->runner_path, o->stop)))
        goto out;

    /* a prepared image handed in (e.g. made on the outer host for the lab) */
    if (prepared && !strcmp(tpl.agent_sha256, out->agent_sha256) &&
        !strcmp(tpl.runner_sha256, out->runner_sha256)) {
        out->image = g_canonicalize_filename(o->template_path, NULL);
        out->key = g_strdup(tpl.key);
        out->template_sha256 = g_strdup(tpl.template_sha256);
        out->init_system = g_strdup(tpl.init_system);
        out->kernel = g_strdup(tpl.kernel);
        out->initrd = g_strdup(tpl.initrd);
        out->cmdline_xen = g_strdup(tpl.cmdline_xen);
        out->cmdline_kvm = g_strdup(tpl.cmdline_kvm);
        out->min_memory_mib = tpl.min_memory_mib;
        out->cache_hit = 1;
        vdc_progress("guest image %s is already prepared with this agent and runner", out->image);
        rc = o->out_path ? export_prepared(out, o->template_path, o->out_path, o->stop) : 0;
        goto out;
    }

    if (!(out->template_sha256 = file_sha256(o->template_path, o->stop)))
        goto out;
    /* the template's manifest states it (the builder writes it into the
     * image too, so a changed minimum changes the cache key) */
    out->min_memory_mib = tpl.min_memory_mib;
    out->key = vdc_prepare_cache_key(out->template_sha256, out->agent_sha256, out->runner_sha256);
    entry = g_build_filename(cache, out->key, NULL);
    img = g_build_filename(entry, "guest.img", NULL);

    if (!g_file_test(img, G_FILE_TEST_IS_REGULAR)) {
#ifdef WITH_GUESTFS
        struct install_args a;

        if (g_mkdir_with_parents(cache, 0755) < 0) {
            vdc_error("cache folder %s: %s", cache, g_strerror(errno));
            goto out;
        }
        /* what a prepare killed before its rename left: removed now */
        (void)vdc_tmpdir_sweep(cache, VDC_TMPDIR_CACHE_PREFIX);
        (void)vdc_tmpdir_sweep(g_get_tmp_dir(), VDC_TMPDIR_GUESTFS_PREFIX);
        /* locked while we live (guest/tmpdir.h); 0755: QEMU may run as
         * another user (libvirt-qemu) and must reach the image, the kernel
         * and the initrd */
        if (vdc_tmpdir_make(&tmp, cache, VDC_TMPDIR_CACHE_PREFIX, 0755, "guest image cache") < 0)
            goto out;
        g_free(img);
        img = g_build_filename(tmp.path, "guest.img", NULL);
        kpath = g_build_filename(tmp.path, "vmlinuz", NULL);
        ipath = g_build_filename(tmp.path, "initrd.img", NULL);
        if (copy_sparse(o->template_path, img, o->stop) < 0 ||
            copy_sparse(tpl.kernel, kpath, o->stop) < 0 ||
            copy_sparse(tpl.initrd, ipath, o->stop) < 0)
            goto out;
        vdc_progress("preparing guest image: libguestfs appliance (timeout %d s)", timeout);
        a = (struct install_args){ img, o->agent_path, o->runner_path, out->agent_sha256,
                                   out->runner_sha256 };
        if (in_child(install_child, &a, timeout, o->stop, "libguestfs (prepare)", &answer) < 0)
            goto out;
        out->init_system = g_strdup(answer);
        out->cmdline_xen = g_strdup(tpl.cmdline_xen);
        out->cmdline_kvm = g_strdup(tpl.cmdline_kvm);
        if (manifest_write(img, out, o->template_path, "vmlinuz", "initrd.img") < 0)
            goto out;
        /* the last moment to give up: after the rename the entry is whole */
        if (stopped(o->stop)) {
            vdc_error("guest image preparation: interrupted");
            goto out;
        }
        if (g_rename(tmp.path, entry) < 0 && errno != ENOTEMPTY && errno != EEXIST) {
            vdc_error("cache entry %s: %s", entry, g_strerror(errno));
            goto out;
        }
        /* a concurrent prepare may have won the rename: its entry is equal */
        g_free(img);
        img = g_build_filename(entry, "guest.img", NULL);
#else
        vdc_error("guest template %s: not prepared and vmdiskcmp was built without libguestfs",
                  o->template_path);
        goto out;
#endif
    } else {
        out->cache_hit = 1;
    }
    {
        struct vdc_prepared c;

        if (vdc_prepared_load(img, &c) < 0)
            goto out;
        g_free(out->init_system);
        out->init_system = g_strdup(c.init_system);
        out->kernel = g_strdup(c.kernel);
        out->initrd = g_strdup(c.initrd);
        g_free(out->cmdline_xen);
        g_free(out->cmdline_kvm);
        out->cmdline_xen = g_strdup(c.cmdline_xen);
        out->cmdline_kvm = g_strdup(c.cmdline_kvm);
        vdc_prepared_dispose(&c);
    }
    out->image = g_strdup(img);
    if (o->out_path && export_prepared(out, o->template_path, o->out_path, o->stop) < 0)
        goto out;
    rc = 0;
 out:
    vdc_tmpdir_dispose(&tmp);
    if (rc < 0)
        vdc_prepared_dispose(out);
    vdc_prepared_dispose(&tpl);
    g_free(entry);
    g_free(img);
    g_free(kpath);
    g_free(ipath);
    g_free(answer);
    return rc;
}

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
