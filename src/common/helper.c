/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where the helper binaries are (helper.h). */
#include "config.h"
#include "common/helper.h"

#include <glib.h>

char *
vdc_helper_beside(const char *exe, const char *name)
{
    g_autofree char *bindir = NULL, *top = NULL;
    char *built;

    if (!exe)
        return NULL;
    bindir = g_path_get_dirname(exe);
    top = g_path_get_dirname(bindir);
    built = g_build_filename(top, "guest-agent", name, NULL);
    if (g_file_test(built, G_FILE_TEST_IS_REGULAR))
        return built;
    g_free(built);
    return NULL;
}

char *
vdc_default_helper(const char *name)
{
    g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
    char *built = vdc_helper_beside(exe, name);

    return built ? built : g_build_filename(VDC_LIBEXECDIR, name, NULL);
}

/* @img and its manifest are regular files */
static int
template_there(const char *img)
{
    g_autofree char *m = g_strconcat(img, ".manifest", NULL);

    return g_file_test(img, G_FILE_TEST_IS_REGULAR) && g_file_test(m, G_FILE_TEST_IS_REGULAR);
}

char *
vdc_default_guest_template(const char *exe, char **where)
{
    g_autofree char *bindir = exe ? g_path_get_dirname(exe) : NULL;
    g_autofree char *top = bindir ? g_path_get_dirname(bindir) : NULL;
    g_autofree char *built = top ? g_build_filename(top, "guest-template", "guest.img", NULL) : NULL;

    if (where)
        *where = built ? g_strdup_printf("%s, %s", built, VDC_INSTALLED_GUEST_TEMPLATE)
                       : g_strdup(VDC_INSTALLED_GUEST_TEMPLATE);
    if (built && template_there(built))
        return g_steal_pointer(&built);
    if (template_there(VDC_INSTALLED_GUEST_TEMPLATE))
        return g_strdup(VDC_INSTALLED_GUEST_TEMPLATE);
    return NULL;
}
