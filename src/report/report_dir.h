/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp report directory: analyse a result set, render it in every
 * format asked for (report/render.h) and write the files into a directory.
 *
 * The files (doc/report.md; report/formats.h's table): report.txt,
 * report.csv, summary.csv, headline.csv, workloads.csv, host-cost.csv and
 * page-cache.csv (the "csv" format), report.json, report.md, report.html.  The directory's
 * manifest, DIR/.vmdiskcmp-report, lists the names vmdiskcmp wrote there,
 * one a line: a file of one of those names that exists (a dangling symbolic
 * link included) and is not in the manifest was not written by vmdiskcmp
 * and is never replaced.  Everything is rendered in memory first, so that
 * nothing is written on an error; then the manifest, then each file, each
 * atomically (vdc_write_file_atomic), with SIGINT/SIGTERM/SIGHUP held off
 * meanwhile (a few milliseconds) so that no temporary file is left and the
 * manifest matches the files.
 *
 * Used by `vmdiskcmp report`, by `vmdiskcmp run` after the last run
 * (src/run/run.c) and by `vmdiskcmp lab` when it marks a result emulated. */
#ifndef VDC_REPORT_REPORT_DIR_H
#define VDC_REPORT_REPORT_DIR_H

#include <signal.h>

#include "model/result.h"
#include "report/analysis.h"
#include "report/formats.h"
#include "stats/stats.h"

/* The name of the manifest in a report directory. */
#define VDC_REPORT_MANIFEST ".vmdiskcmp-report"

struct vdc_report_options {
    unsigned formats;                /* VDC_REPORT_* bits; default VDC_REPORT_ALL */
    const char *baseline;            /* target name; NULL: dom0 if present, else the first LV/block target beside an image, else the first */
    struct vdc_stats_options stats;  /* default vdc_stats_options_init */
    vdc_artefact_options artefacts;  /* the artefact rules' settings (stated ceilings;
                                      * borrowed); default vdc_artefact_options_init */
    const char *generated;           /* ISO 8601 date the HTML gives as its own; NULL: now,
                                      * or $SOURCE_DATE_EPOCH when set */
    int quiet;                       /* no progress lines, no warnings on stderr */
    int headline;                    /* vdc_report_write: print the headline in short
                                      * (vdc_analysis_headline_lines) on stdout after
                                      * writing; the run and the lab set it */
};

/* Defaults: every format, the default baseline and statistics, not quiet. */
void vdc_report_options_init(struct vdc_report_options *o);

/* Write the files of @opt->formats for @rs analysed as @a into the
 * existing directory @dir (see above; @opt->generated and @opt->quiet as
 * described there; baseline and stats are @a's).  A progress line "wrote
 * DIR/FILE" for each unless quiet.  Returns 0, or -1 after one message: a
 * file vmdiskcmp did not write is in the way (bad input, vdc_input_error:
 * "DIR/report.txt exists and was not written by vmdiskcmp report: refusing
 * to overwrite it ..."), rendering (cairo) or writing failed (runtime,
 * vdc_error).  On a refusal or a rendering error nothing was written. */
int vdc_report_dir_write(const vdc_result_set *rs, const struct vdc_analysis *a,
                         const struct vdc_report_options *opt, const char *dir);

/* Analyse @rs with @opt (vdc_analysis_build_with), write its report into @dir
 * (vdc_report_dir_write), then print the warnings (vdc_report_warnings) on
 * stderr unless @opt->quiet.  @rs is a loaded result set (e.g.
 * vdc_result_set_load_file).  Returns 0, or -1 after one message: an
 * unknown baseline or a set without targets (bad input), or as
 * vdc_report_dir_write. */
int vdc_report_write(const vdc_result_set *rs, const struct vdc_report_options *opt, const char *dir);

/* Load DIR/result.json and vdc_report_write it into DIR: what `vmdiskcmp
 * report DIR` does with its defaults, for the run and the lab.  Returns 0,
 * or -1 after one message (the loader's, naming the file, or as
 * vdc_report_write). */
int vdc_report_result_dir(const char *dir, const struct vdc_report_options *opt);

/* The backstop bounds of rendering a report: the loader bounds every
 * number physically (model/result.h), and these bound what any input can
 * still cost: address space (bytes), CPU time (s) and, for the run's
 * report, wall time (s).  A report of a few hundred runs takes well under
 * 100 MiB and a second. */
#define VDC_REPORT_MEMORY_MAX (4096ull << 20)
#define VDC_REPORT_CPU_S_MAX  600
#define VDC_REPORT_WALL_S_MAX 900

/* Lower this process's RLIMIT_AS to VDC_REPORT_MEMORY_MAX and RLIMIT_CPU
 * to VDC_REPORT_CPU_S_MAX (never raising a lower limit already set):
 * `report`, `compare` and `merge` call it before reading their input.
 * Past the bound an allocation fails (the process aborts) or SIGXCPU
 * ends it.  Returns 0, or -1 after vdc_error when setrlimit fails. */
int vdc_report_limits_apply(void);

/* vdc_report_result_dir in a child process (src/common/child.h) bounded by
 * vdc_report_limits_apply and VDC_REPORT_WALL_S_MAX of wall time, stopped
 * when *@stop is set: what the run does after its teardown, so that no
 * result a guest handed back can make the controller itself grow or hang.
 * Returns 0, or -1 after one message: the child's own (load, render,
 * write), or that it was stopped, timed out or killed (naming the bound). */
int vdc_report_result_dir_bounded(const char *dir, const struct vdc_report_options *opt,
                                  volatile sig_atomic_t *stop);

/* Print @warnings (NULL-terminated: vdc_report_warnings,
 * vdc_compare_warnings) on stderr, one line each, "vmdiskcmp: WARNING:
 * LINE".  The one printer of `report` and `compare`. */
void vdc_print_warnings(char *const *warnings);

#endif
