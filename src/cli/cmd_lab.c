/* `vmdiskcmp lab`: build and run the emulated Xen lab (issue 5).  Parses
 * and validates the options (src/lab/lab.c), fills the defaults that need
 * this executable's path, then replaces itself with templates/lab/lab.sh,
 * which does the work and whose exit status is the command's: 0 ok, 1 a lab
 * stage failed (one line names it), 2 bad input, else the job's status. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <glib.h>

#include "cli/commands.h"
#include "common/util.h"
#include "lab/lab.h"

int
vdc_cmd_lab(int argc, char **argv)
{
    struct vdc_lab_opts o;
    g_autofree char *exe = g_file_read_link("/proc/self/exe", NULL);
    g_autofree char *script = NULL;
    char **av = NULL;
    int rc;

    vdc_lab_opts_init(&o);
    rc = vdc_lab_parse(&o, argc, argv);
    if (rc != 0) {
        vdc_lab_opts_dispose(&o);
        return rc > 0 ? VDC_EXIT_OK : VDC_EXIT_USAGE;
    }
    vdc_lab_default_paths(&o, exe);
    if (!o.vmdiskcmp)
        o.vmdiskcmp = g_strdup(exe ? exe : "vmdiskcmp");
    if (!o.out_dir) {
        char stamp[32];
        time_t now = time(NULL);

        strftime(stamp, sizeof(stamp), "lab-%Y%m%d-%H%M%S", localtime(&now));
        o.out_dir = g_strdup(stamp);
    }
    script = g_build_filename(o.script_dir, "lab.sh", NULL);
    if (access(script, R_OK) != 0) {
        vdc_error("lab: recipe %s not readable (%s): set VDC_LAB_DIR to templates/lab",
                  script, g_strerror(errno));
        vdc_lab_opts_dispose(&o);
        return VDC_EXIT_USAGE;
    }
    av = vdc_lab_argv(&o);
    vdc_lab_opts_dispose(&o);
    execv(av[0], av);
    vdc_error("lab: cannot execute %s %s: %s", av[0], av[1], g_strerror(errno));
    g_strfreev(av);
    return VDC_EXIT_FAILURE;
}
