/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The qdisk QEMU's Linux native AIO, asked of the binary (qemuprobe.h). */
#include "config.h"
#include "host/qemuprobe.h"

#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "common/child.h"

/* qemuprobe.h */
const char *
vdc_xen_qemu_path(void)
{
    static const char *const paths[] = {
        "/usr/libexec/xen-qemu-system-i386",    /* Debian, Ubuntu */
        "/usr/lib/xen/bin/qemu-system-i386",    /* upstream's LIBEXEC_BIN */
        "/usr/libexec/xen/bin/qemu-system-i386",
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(paths); i++)
        if (g_file_test(paths[i], G_FILE_TEST_IS_REGULAR) && access(paths[i], X_OK) == 0)
            return paths[i];
    return NULL;
}

/* @text from @needle to the end of its line, newly allocated, or NULL. */
static char *
from_needle(const char *text, const char *needle)
{
    const char *at = strstr(text, needle), *end;

    if (!at)
        return NULL;
    end = strchr(at, '\n');
    return g_strndup(at, end ? (size_t)(end - at) : strlen(at));
}

/* qemuprobe.h */
vdc_qemu_aio
vdc_qemu_aio_native_verdict(const char *text)
{
    if (!text)
        return VDC_QEMU_AIO_UNKNOWN;
    if (strstr(text, "aio=native") && strstr(text, "not supported in this build"))
        return VDC_QEMU_AIO_MISSING;
    if (strstr(text, "aio=native") && strstr(text, "requires cache.direct=on"))
        return VDC_QEMU_AIO_NATIVE;
    return VDC_QEMU_AIO_UNKNOWN;
}

/* qemuprobe.h */
vdc_qemu_aio
vdc_qemu_aio_native(const char *qemu, char **said)
{
    char *const argv[] = {
        (char *)qemu, "-machine", "none", "-nodefaults", "-display", "none",
        "-accel", "vdc-probe-none", "-blockdev",
        "driver=file,node-name=vdc-probe,filename=/dev/null,read-only=on,aio=native", NULL,
    };
    vdc_child_opts o = { .argv = argv, .what = qemu, .timeout_ms = 20000,
                         .out = VDC_CHILD_NULL, .err = VDC_CHILD_CAPTURE };
    vdc_child_result r = { 0 };
    vdc_qemu_aio v = VDC_QEMU_AIO_UNKNOWN;

    if (said)
        *said = NULL;
    if (vdc_child_run(&o, &r) < 0)
        return VDC_QEMU_AIO_UNKNOWN;
    if (!r.timed_out)
        v = vdc_qemu_aio_native_verdict(r.out);
    if (said && v != VDC_QEMU_AIO_UNKNOWN)
        *said = from_needle(r.out, "aio=native was");
    vdc_child_result_dispose(&r);
    return v;
}
