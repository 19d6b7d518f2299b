/* vmdiskcmp importers: format dispatch, all-or-nothing per file, target
 * naming.  The parsers are bonnie_text.c (tables and CSV) and the model's
 * JSON loader (result documents).  See import.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "import/import.h"
#include "import/import_priv.h"

int
vdc_import_format_parse(const char *s, vdc_import_format *out)
{
    static const struct { const char *name; vdc_import_format fmt; } names[] = {
        { "auto", VDC_IMPORT_AUTO }, { "json", VDC_IMPORT_JSON },
        { "text", VDC_IMPORT_TEXT }, { "csv", VDC_IMPORT_CSV },
        { "table", VDC_IMPORT_TABLE },
    };
    size_t i;

    for (i = 0; s && i < G_N_ELEMENTS(names); i++)
        if (!strcmp(s, names[i].name)) {
            *out = names[i].fmt;
            return 0;
        }
    return -1;
}

/* a JSON document starts with '{' after blanks (and an optional BOM) */
static int
looks_like_json(const char *data, size_t len)
{
    size_t i = 0;

    if (len >= 3 && !memcmp(data, "\xef\xbb\xbf", 3))
        i = 3;
    for (; i < len; i++) {
        if (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n')
            continue;
        return data[i] == '{';
    }
    return 0;
}

static int
import_json(vdc_result_set *tmp, const char *data, size_t len, const char *file,
            const char *target)
{
    size_t i;

    if (vdc_result_set_load_data(tmp, data, len, file) < 0)
        return -1;
    if (!tmp->n_runs) {
        vdc_error("%s: runs: expected at least one run, found none", file);
        return -1;
    }
    for (i = 0; i < tmp->n_runs; i++) {
        vdc_run *r = tmp->runs[i];

        if (target)
            vdc_set_str(&r->target, target);
        if (!r->meta.source.file)
            vdc_set_str(&r->meta.source.file, file);
        if (!r->meta.source.format)
            vdc_set_str(&r->meta.source.format, "vmdiskcmp-agent-json");
    }
    if (target) {
        /* the runs now all belong to @target: the document's own target
         * descriptions no longer apply */
        for (i = 0; i < tmp->n_targets; i++) {
            vdc_target_dispose(tmp->targets[i]);
            g_free(tmp->targets[i]);
        }
        g_clear_pointer(&tmp->targets, g_free);
        tmp->n_targets = 0;
    }
    return (int)tmp->n_runs;
}

int
vdc_import_data(vdc_result_set *rs, const char *data, size_t len,
                const char *file, const char *target, vdc_import_format fmt)
{
    vdc_result_set tmp;
    int n = -1;
    size_t i;

    vdc_result_set_init(&tmp);
    if (target && !*target) {
        vdc_error("%s: the target name is empty: expected --target NAME", file);
        goto out;
    }
    if (fmt == VDC_IMPORT_AUTO)
        fmt = looks_like_json(data, len) ? VDC_IMPORT_JSON : VDC_IMPORT_TEXT;
    if (fmt == VDC_IMPORT_JSON) {
        n = import_json(&tmp, data, len, file, target);
    } else if (!target) {
        vdc_error("%s: bonnie/bonnie++ output names no target: expected --target NAME", file);
    } else {
        n = vdc_import_text(&tmp, data, len, file, target,
                            fmt == VDC_IMPORT_CSV ? 1 : fmt == VDC_IMPORT_TABLE ? 2 : 0);
    }
    if (n < 0)
        goto out;
    /* every run's target gets a description, at least "imported" */
    for (i = 0; i < tmp.n_runs; i++) {
        const char *name = tmp.runs[i]->target;

        if (!vdc_result_set_find_target(&tmp, name) && !vdc_result_set_find_target(rs, name)) {
            vdc_target *t = vdc_result_set_add_target(&tmp, name);

            if (t)
                vdc_set_str(&t->kind, "imported");
        }
    }
    vdc_result_set_merge(rs, &tmp);
 out:
    vdc_result_set_dispose(&tmp);
    return n;
}

int
vdc_import_file(vdc_result_set *rs, const char *path, const char *target,
                vdc_import_format fmt)
{
    char *data = NULL;
    size_t len = 0;
    const char *name = path;
    int n;

    if (vdc_read_input(path, &data, &len) < 0)
        return -1;
    if (!strcmp(path, "-"))
        name = "(stdin)";
    n = vdc_import_data(rs, data, len, name, target, fmt);
    g_free(data);
    return n;
}
