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
