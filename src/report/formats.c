/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp output formats: the tables (formats.h). */
#include "config.h"

#include "report/formats.h"

#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "report/render.h"
#include "report/render_density.h"
#include "report/render_hostcost.h"
#include "report/render_json.h"

const struct vdc_format vdc_formats[] = {
    { VDC_REPORT_TXT, "txt", "text", "text", vdc_render_compare_text, 1 },
    { VDC_REPORT_CSV, "csv", NULL, "csv", vdc_render_summary_csv, 0 },
    { VDC_REPORT_JSON, "json", NULL, "json", vdc_render_statistics_json, 1 },
    { VDC_REPORT_MD, "md", NULL, "md", vdc_render_compare_md, 1 },
    { VDC_REPORT_HTML, "html", NULL, NULL, NULL, 0 },
};
const size_t vdc_n_formats = G_N_ELEMENTS(vdc_formats);

/* ---- the files of a report directory ------------------------------------------ */

static int
file_text(const struct vdc_render_in *in, char **out)
{
    *out = vdc_render_text(in->rs, in->a);
    return 0;
}

static int
file_bonnie_csv(const struct vdc_render_in *in, char **out)
{
    *out = vdc_render_bonnie_csv(in->rs);
    return 0;
}

static int
file_summary_csv(const struct vdc_render_in *in, char **out)
{
    *out = vdc_render_summary_csv(in->rs, in->a);
    return 0;
}

static int
file_headline_csv(const struct vdc_render_in *in, char **out)
{
    *out = vdc_render_headline_csv(in->a);
    return 0;
}

static int
file_json(const struct vdc_render_in *in, char **out)
{
    *out = vdc_render_json(in->rs, in->a);
    return 0;
}

static int
file_md(const struct vdc_render_in *in, char **out)
{
    *out = vdc_render_markdown(in->rs, in->a);
    return 0;
}

static int
file_html(const struct vdc_render_in *in, char **out)
{
    *out = vdc_render_html(in->rs, in->a, in->generated);
    return *out ? 0 : -1;
}

static int
file_workloads_csv(const struct vdc_render_in *in, char **out)
{
    *out = vdc_render_workloads_csv(in->a);     /* NULL: no workloads */
    return 0;
}

static int
file_host_cost_csv(const struct vdc_render_in *in, char **out)
{
    *out = vdc_host_cost_csv(in->a);            /* NULL: no host figures */
    return 0;
}

static int
file_density_csv(const struct vdc_render_in *in, char **out)
{
    *out = vdc_density_csv(in->a);              /* NULL: no levels */
    return 0;
}

static int
file_density_host_csv(const struct vdc_render_in *in, char **out)
{
    *out = vdc_density_host_csv(in->a);         /* NULL: no level's host cost */
    return 0;
}

static int
file_page_cache_csv(const struct vdc_render_in *in, char **out)
{
    *out = vdc_host_cache_csv(in->a);           /* NULL: no page-cache figures */
    return 0;
}

const struct vdc_report_file vdc_report_files[] = {
    { "report.txt", VDC_REPORT_TXT, file_text },
    { "report.csv", VDC_REPORT_CSV, file_bonnie_csv },
    { "summary.csv", VDC_REPORT_CSV, file_summary_csv },
    { "headline.csv", VDC_REPORT_CSV, file_headline_csv },
    { "report.json", VDC_REPORT_JSON, file_json },
    { "report.md", VDC_REPORT_MD, file_md },
    { "report.html", VDC_REPORT_HTML, file_html },
    { "workloads.csv", VDC_REPORT_CSV, file_workloads_csv },
    { "host-cost.csv", VDC_REPORT_CSV, file_host_cost_csv },
    { "page-cache.csv", VDC_REPORT_CSV, file_page_cache_csv },
    { "density.csv", VDC_REPORT_CSV, file_density_csv },
    { "density-host.csv", VDC_REPORT_CSV, file_density_host_csv },
};
const size_t vdc_n_report_files = G_N_ELEMENTS(vdc_report_files);

/* ---- lookups ------------------------------------------------------------------ */

const struct vdc_format *
vdc_format_find(const char *name)
{
    size_t i;

    for (i = 0; name && i < vdc_n_formats; i++)
        if (!strcmp(name, vdc_formats[i].name) || (vdc_formats[i].alias && !strcmp(name, vdc_formats[i].alias)))
            return &vdc_formats[i];
    return NULL;
}

/* "txt, csv, json, md, html" (report's names), or compare's
 * "text, csv, json, md" (@compare); g_free */
static char *
names_list(int compare)
{
    GString *s = g_string_new(NULL);
    size_t i;

    for (i = 0; i < vdc_n_formats; i++) {
        const char *n = compare ? vdc_formats[i].compare_name : vdc_formats[i].name;

        if (n)
            g_string_append_printf(s, "%s%s", s->len ? ", " : "", n);
    }
    return g_string_free(s, FALSE);
}

int
vdc_formats_parse(const char *list, unsigned *bits)
{
    char **v = g_strsplit(list, ",", -1);
    g_autofree char *known = names_list(0);
    size_t i;
    int rc = 0;

    *bits = 0;
    for (i = 0; v[i]; i++) {
        const struct vdc_format *f = vdc_format_find(v[i]);

        if (f) {
            *bits |= f->bit;
        } else if (!strcmp(v[i], "all")) {
            *bits |= VDC_REPORT_ALL;
        } else {
            vdc_input_error("--formats %s: unknown format '%s': expected a comma-separated list of %s", list,
                            v[i], known);
            rc = -1;
            break;
        }
    }
    if (rc == 0 && !*bits) {
        vdc_input_error("--formats '%s': expected at least one of %s", list, known);
        rc = -1;
    }
    g_strfreev(v);
    return rc;
}

const struct vdc_format *
vdc_compare_format(const char *name)
{
    const struct vdc_format *f = vdc_format_find(name);
    g_autofree char *known = NULL;

    if (f && f->compare)
        return f;
    known = names_list(1);
    vdc_input_error("--format %s: expected one of %s", name, known);
    return NULL;
}
