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
/* the result store: add result directories, list, export (src/store/) */
int vdc_cmd_store(int argc, char **argv);
/* the image-vs-LV ratio per host over time, from the store (src/store/) */
int vdc_cmd_history(int argc, char **argv);

/* Whether @path may receive a file a command writes (an export, a history
 * page): 0 when it does not exist, is empty, or begins as a file
 * vmdiskcmp writes there; -1 after one vdc_input_error otherwise (never
 * overwrite what vmdiskcmp did not write). */
int vdc_cli_output_ok(const char *path);

#endif
