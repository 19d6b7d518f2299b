/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Mounts as dom0 sees them (mounts.h). */
#include "config.h"
#include "host/mounts.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"

int
vdc_mountinfo_has(const char *mountinfo, const char *real, const char *source)
{
    g_auto(GStrv) lines = g_strsplit(mountinfo ? mountinfo : "", "\n", -1);
    size_t i;

    for (i = 0; lines[i]; i++) {
        g_auto(GStrv) f = g_strsplit(lines[i], " ", -1);
        guint n = g_strv_length(f), k;

        if (n < 10 || strcmp(f[4], real) != 0)
            continue;
        for (k = 6; k < n && strcmp(f[k], "-"); k++)
            ;
        if (source && *source && k + 2 < n && strcmp(f[k + 2], source) != 0) {
            vdc_error("mount %s: mounted from %s, not %s as journaled: not touched", real, f[k + 2],
                      source);
            return -1;
        }
        return 1;
    }
    return 0;
}

int
vdc_is_mounted(const char *dir, const char *source)
{
    g_autofree char *data = NULL;
    char real[PATH_MAX];

    if (!realpath(dir, real))
        return 0;   /* gone: not mounted */
    if (!g_file_get_contents("/proc/self/mountinfo", &data, NULL, NULL)) {
        vdc_error("/proc/self/mountinfo: cannot read");
        return -1;
    }
    return vdc_mountinfo_has(data, real, source);
}
