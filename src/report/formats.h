/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp output formats: one table of the formats (name, alias, what
 * `compare` prints in it) and one of the files a report directory holds
 * (name, format, renderer), used by `report --formats`, `compare
 * --format` and the report directory writer (report_dir.c).  The files
 * and formats themselves: doc/report.md. */
#ifndef VDC_REPORT_FORMATS_H
#define VDC_REPORT_FORMATS_H

#include <stddef.h>

#include "model/result.h"
#include "report/analysis.h"

/* The formats (bits of vdc_report_options.formats). */
enum {
    VDC_REPORT_TXT = 1,      /* report.txt */
    VDC_REPORT_CSV = 2,      /* report.csv, summary.csv, headline.csv, workloads.csv,
                              * host-cost.csv, page-cache.csv */
    VDC_REPORT_JSON = 4,     /* report.json */
    VDC_REPORT_MD = 8,       /* report.md */
    VDC_REPORT_HTML = 16,    /* report.html */
    VDC_REPORT_ALL = 31,
};

/* What a renderer of the tables below is given. */
struct vdc_render_in {
    const vdc_result_set *rs;
    const struct vdc_analysis *a;
    const char *generated;   /* the HTML's date (ISO 8601), or NULL */
};

/* One format. */
struct vdc_format {
    unsigned bit;            /* VDC_REPORT_* */
    const char *name;        /* `report --formats` name: "txt" */
    const char *alias;       /* another name both commands take ("text"), or NULL */
    const char *compare_name;    /* the name `compare --format` lists, NULL: compare has no
                                  * table in this format */
    /* compare's table in this format (new string), NULL for an HTML */
    char *(*compare)(const vdc_result_set *rs, const struct vdc_analysis *a);
    int compare_warnings;    /* compare's table carries the warnings (csv: the flags column only) */
};

/* The formats, in --formats order; vdc_n_formats of them. */
extern const struct vdc_format vdc_formats[];
extern const size_t vdc_n_formats;

/* One file of a report directory. */
struct vdc_report_file {
    const char *name;        /* "report.txt" */
    unsigned format;         /* the VDC_REPORT_* bit that writes it */
    /* Render it into *@out (new string): 0, with *@out NULL when there is
     * nothing to write (no workloads, no host figures), or -1 after
     * vdc_error (cairo failed). */
    int (*render)(const struct vdc_render_in *in, char **out);
};

/* The files, in the order a report directory writes them (and lists them in
 * its manifest); vdc_n_report_files of them. */
extern const struct vdc_report_file vdc_report_files[];
extern const size_t vdc_n_report_files;

/* The format named @name (its name or alias), or NULL. */
const struct vdc_format *vdc_format_find(const char *name);

/* A --formats list ("txt,html", "all") into VDC_REPORT_* bits: 0, or -1
 * after vdc_input_error naming the unknown format and the known ones
 * ("--formats x: unknown format 'x': expected a comma-separated list of
 * txt, csv, json, md, html"), or that the list was empty. */
int vdc_formats_parse(const char *list, unsigned *bits);

/* compare --format @name: the format, or NULL after vdc_input_error
 * ("--format x: expected one of text, csv, json, md"). */
const struct vdc_format *vdc_compare_format(const char *name);

#endif
