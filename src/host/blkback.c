/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blkback's module parameters (blkback.h). */
#include "config.h"
#include "host/blkback.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"

#define PARAMS_DIR "module/xen_blkback/parameters"

static const struct {
    const char *name, *option;
} params[VDC_BLKBACK_N] = {
    [VDC_BLKBACK_MAX_RING_PAGE_ORDER] = { "max_ring_page_order", "--blkback-max-ring-page-order" },
    [VDC_BLKBACK_MAX_QUEUES] = { "max_queues", "--blkback-max-queues" },
};

const char *
vdc_blkback_name(vdc_blkback_param k)
{
    return params[k].name;
}

const char *
vdc_blkback_option(vdc_blkback_param k)
{
    return params[k].option;
}

static const char *
sysfs_root(void)
{
    const char *r = getenv("VDC_TEST_SYSFS_ROOT");

    return r && *r ? r : "/sys";
}

char *
vdc_blkback_path(vdc_blkback_param k)
{
    return g_build_filename(sysfs_root(), PARAMS_DIR, params[k].name, NULL);
}

int
vdc_blkback_param_of_path(const char *path)
{
    int k;

    if (!path)
        return -1;
    for (k = 0; k < VDC_BLKBACK_N; k++) {
        g_autofree char *own = vdc_blkback_path(k);

        if (!strcmp(path, own))
            return k;
    }
    return -1;
}

int
vdc_blkback_read(const char *path, int64_t *value)
{
    g_autofree char *text = NULL;
    gint64 v;

    if (!g_file_get_contents(path, &text, NULL, NULL)) {
        vdc_error("%s: cannot read: %s", path, g_strerror(errno));
        return -1;
    }
    g_strstrip(text);
    if (!g_ascii_string_to_signed(text, 10, -1, G_MAXINT32, &v, NULL)) {
        vdc_error("%s: expected a decimal number, got '%.20s'", path, text);
        return -1;
    }
    *value = v;
    return 0;
}

int
vdc_blkback_write(const char *path, int64_t value, int64_t *read_back)
{
    g_autofree char *text = g_strdup_printf("%" G_GINT64_FORMAT "\n", (gint64)value);
    size_t len = strlen(text);
    /* a FIFO must not hang the run, nor anything but a file take the value */
    int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    struct stat sb;
    ssize_t r;

    if (fd < 0) {
        vdc_error("%s: cannot open for writing: %s", path, g_strerror(errno));
        return -1;
    }
    if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
        vdc_error("%s: expected a module parameter (a regular sysfs file): not written", path);
        close(fd);
        return -1;
    }
    r = write(fd, text, len);
    if (r != (ssize_t)len) {
        vdc_error("%s: cannot write %" G_GINT64_FORMAT ": %s", path, (gint64)value,
                  r < 0 ? g_strerror(errno) : "short write");
        close(fd);
        return -1;
    }
    if (close(fd) < 0) {
        vdc_error("%s: cannot write %" G_GINT64_FORMAT ": %s", path, (gint64)value, g_strerror(errno));
        return -1;
    }
    return vdc_blkback_read(path, read_back);
}

int
vdc_blkback_check(vdc_blkback_param k, int64_t value, int64_t *was)
{
    const char *opt = params[k].option;
    g_autofree char *type = NULL;
    g_autofree char *htype = g_build_filename(sysfs_root(), "hypervisor/type", NULL);
    g_autofree char *mod = g_build_filename(sysfs_root(), "module/xen_blkback", NULL);
    g_autofree char *path = vdc_blkback_path(k);
    struct stat sb;
    long cpus;

    if (!g_file_get_contents(htype, &type, NULL, NULL) || strcmp(g_strstrip(type), "xen")) {
        vdc_input_error("%s %" G_GINT64_FORMAT ": expected a Xen dom0 (%s does not read 'xen')", opt,
                        (gint64)value, htype);
        return -1;
    }
    if (!g_file_test(mod, G_FILE_TEST_IS_DIR)) {
        vdc_input_error("%s %" G_GINT64_FORMAT ": expected the xen_blkback module loaded (no %s; "
                        "modprobe xen-blkback)", opt, (gint64)value, mod);
        return -1;
    }
    if (lstat(path, &sb) < 0 || !S_ISREG(sb.st_mode)) {
        vdc_input_error("%s %" G_GINT64_FORMAT ": expected the parameter %s (this blkback has none)",
                        opt, (gint64)value, path);
        return -1;
    }
    if (!(sb.st_mode & 0222) || access(path, W_OK | R_OK) < 0) {
        vdc_input_error("%s %" G_GINT64_FORMAT ": expected %s writable, its mode is %04o (the "
                        "running module takes it only when it loads: xen_blkback.%s=N on dom0's "
                        "kernel command line, or options in modprobe.d)", opt, (gint64)value, path,
                        (unsigned)(sb.st_mode & 07777), params[k].name);
        return -1;
    }
    if (k == VDC_BLKBACK_MAX_RING_PAGE_ORDER && (value < 0 || value > VDC_BLKBACK_MAX_ORDER)) {
        vdc_input_error("%s %" G_GINT64_FORMAT ": expected 0 to %d (blkback's most: "
                        "XENBUS_MAX_RING_GRANT_ORDER)", opt, (gint64)value, VDC_BLKBACK_MAX_ORDER);
        return -1;
    }
    cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (k == VDC_BLKBACK_MAX_QUEUES && (value < 1 || (cpus > 0 && value > cpus))) {
        vdc_input_error("%s %" G_GINT64_FORMAT ": expected 1 to %ld (dom0's online CPUs)", opt,
                        (gint64)value, cpus > 0 ? cpus : 1);
        return -1;
    }
    {
        int64_t now;
        vdc_err_kind scope = vdc_error_scope(VDC_ERR_INPUT);
        int rc = vdc_blkback_read(path, &now);

        vdc_error_scope(scope);
        if (rc < 0)
            return -1;
        if (was)
            *was = now;
    }
    return 0;
}
