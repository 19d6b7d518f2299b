/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp subcommands.  Each takes the argv that follows the subcommand
 * name (argv[0] is the subcommand name itself, as getopt expects) and
 * returns 0 on success, -1 (any non-zero) after the failure was reported
 * with its kind (vdc_error, vdc_input_error, vdc_note_interrupted: the error
 * model of common/util.h).  main() turns that into the exit status with
 * vdc_exit_status(): 0, 1 runtime failure, 2 bad input, 3 interrupted.
 * --help prints the options and returns 0.  Only main() exits. */
#ifndef VDC_CLI_COMMANDS_H
#define VDC_CLI_COMMANDS_H

/* the main job: provision, boot, benchmark, baseline, report (src/run/) */
int vdc_cmd_run(int argc, char **argv);
/* remove what a crashed run left, from its undo journal (src/run/) */
int vdc_cmd_cleanup(int argc, char **argv);
/* prepare a guest image with the agent, through libguestfs (src/guest/) */
int vdc_cmd_prepare(int argc, char **argv);
/* the emulated Xen lab (templates/lab/, src/lab/) */
int vdc_cmd_lab(int argc, char **argv);
/* import agent JSON / bonnie++ CSV / bonnie tables into a result file */
int vdc_cmd_import(int argc, char **argv);
/* side-by-side comparison of result sets */
int vdc_cmd_compare(int argc, char **argv);
/* render a result directory: text, CSV, JSON, Markdown, HTML+SVG */
int vdc_cmd_report(int argc, char **argv);
/* one job's result directories from several hosts: the fleet report */
int vdc_cmd_merge(int argc, char **argv);

#endif
