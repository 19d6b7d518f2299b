/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A guest image's manifest (manifest.h). */
#include "config.h"
#include "guest/manifest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "common/escape.h"
#include "common/util.h"

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
int
vdc_manifest_load(const char *image, struct vdc_prepared *out, int *is_prepared)
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
    if (vdc_manifest_load(image, out, &prepared) < 0) {
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
    if (vdc_manifest_load(image, out, &prepared) < 0) {
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
    if (vdc_manifest_load(image, &m, &prepared) < 0)
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
int
vdc_manifest_write(const char *image, const struct vdc_prepared *p, const char *template_path,
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
