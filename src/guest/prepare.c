/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp guest preparation (prepare.h, doc/guest-template.md): the
 * digests and the cache key, copying the template into a cache entry, the
 * appliance's session (appliance.c) and the manifest (manifest.c), the
 * entry renamed into place whole. */
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

#include "common/util.h"

#define DEFAULT_LAUNCH_TIMEOUT 600
#define KEY_PREFIX "vmdiskcmp-prepare-v1\n"

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
    if (vdc_manifest_write(out, p, template_path, kb, ib) < 0)
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
    if (vdc_manifest_load(o->template_path, &tpl, &prepared) < 0)
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
        if (vdc_appliance_install(img, o->agent_path, o->runner_path, out->agent_sha256,
                                  out->runner_sha256, timeout, o->stop, &answer) < 0)
            goto out;
        out->init_system = g_strdup(answer);
        out->cmdline_xen = g_strdup(tpl.cmdline_xen);
        out->cmdline_kvm = g_strdup(tpl.cmdline_kvm);
        if (vdc_manifest_write(img, out, o->template_path, "vmlinuz", "initrd.img") < 0)
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
