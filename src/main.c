/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp: one command to compare guest disk backends (file image, LVM
 * LV, block device) against the bare host.  This file only dispatches to a
 * subcommand ("run" is the default when the first argument is an option)
 * and turns what it returns into the exit status: the one place exit
 * statuses come from (vdc_exit_status, the error model of common/util.h). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "cli/commands.h"
#include "common/util.h"

struct vdc_command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
};

static const struct vdc_command vdc_commands[] = {
    { .name = "run",     .fn = vdc_cmd_run,     .summary = "run the comparison (default): --image --lvm --dom0 ..." },
    { .name = "report",  .fn = vdc_cmd_report,  .summary = "render a result directory (text, CSV, JSON, Markdown, HTML)" },
    { .name = "compare", .fn = vdc_cmd_compare, .summary = "compare result sets side by side with deltas and significance" },
    { .name = "merge",   .fn = vdc_cmd_merge,   .summary = "one job's results from several hosts: the host as a dimension" },
    { .name = "store",   .fn = vdc_cmd_store,   .summary = "the result store: add result directories, list, export (NDJSON, OpenMetrics)" },
    { .name = "history", .fn = vdc_cmd_history, .summary = "the image-vs-LV ratio per host over time, each step with what changed" },
    { .name = "import",  .fn = vdc_cmd_import,  .summary = "import agent JSON, bonnie++ CSV, bonnie tables, dd transcripts or fio JSON" },
    { .name = "cleanup", .fn = vdc_cmd_cleanup, .summary = "tear down what a crashed run left (from its undo journal)" },
    { .name = "prepare", .fn = vdc_cmd_prepare, .summary = "install the agent into a guest image with libguestfs" },
    { .name = "lab",     .fn = vdc_cmd_lab,     .summary = "build and run the emulated Xen lab" },
};

static void
usage(FILE *f)
{
    size_t i;

    fprintf(f, "usage: vmdiskcmp [COMMAND] [OPTIONS]\n\ncommands:\n");
    for (i = 0; i < sizeof(vdc_commands) / sizeof(vdc_commands[0]); i++)
        fprintf(f, "  %-8s %s\n", vdc_commands[i].name, vdc_commands[i].summary);
    fprintf(f, "\n'vmdiskcmp COMMAND --help' describes a command's options.\n");
}

int
main(int argc, char **argv)
{
    size_t i;

    /* GSL's default handler aborts the process on a domain error: the
     * statistics check their inputs and read a NAN result as "not
     * computable", so no number in a result can stop vmdiskcmp */
    gsl_set_error_handler_off();
    if (argc < 2 || argv[1][0] == '-') {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
            usage(stdout);
            return VDC_EXIT_OK;
        }
        if (argc >= 2 && !strcmp(argv[1], "--version")) {
            printf("vmdiskcmp %s\n%s\n", PACKAGE_VERSION, VDC_LICENSE_NOTICE);
            return VDC_EXIT_OK;
        }
        if (argc < 2) {
            usage(stderr);
            vdc_note_error(VDC_ERR_INPUT);      /* the usage is the message */
            return vdc_exit_status(-1);
        }
        /* options first: the default command, run; argv[0] stands as its name */
        return vdc_exit_status(vdc_cmd_run(argc, argv));
    }
    for (i = 0; i < sizeof(vdc_commands) / sizeof(vdc_commands[0]); i++)
        if (!strcmp(argv[1], vdc_commands[i].name))
            return vdc_exit_status(vdc_commands[i].fn(argc - 1, argv + 1));
    vdc_input_error("unknown command '%s': expected one of run, report, compare, merge, store, history, import, cleanup, prepare, lab", argv[1]);
    return vdc_exit_status(-1);
}
