/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp importers: format dispatch, all-or-nothing per file, target
 * naming.  The parsers are text.c (pasted text: bonnie_table.c, bonnie_claim.c,
 * bonnie_csv.c, dd*.c), fio_json.c and the model's
 * JSON loader (result documents).  See import.h. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "common/util.h"
#include "import/import.h"
#include "import/import_priv.h"

int
vdc_import_format_parse(const char *s, vdc_import_format *out)
{
    static const struct { const char *name; vdc_import_format fmt; } names[] = {
        { "auto", VDC_IMPORT_AUTO }, { "json", VDC_IMPORT_JSON },
        { "text", VDC_IMPORT_TEXT }, { "csv", VDC_IMPORT_CSV },
        { "table", VDC_IMPORT_TABLE }, { "dd", VDC_IMPORT_DD }, { "fio", VDC_IMPORT_FIO },
    };
    size_t i;

    for (i = 0; s && i < G_N_ELEMENTS(names); i++)
        if (!strcmp(s, names[i].name)) {
            *out = names[i].fmt;
            return 0;
        }
    return -1;
}

int
vdc_import_group_by_parse(const char *s, vdc_group_by *out)
{
    if (s && !strcmp(s, "machine"))
        *out = VDC_GROUP_MACHINE;
    else if (s && !strcmp(s, "label"))
        *out = VDC_GROUP_LABEL;
    else if (s && !strcmp(s, "none"))
        *out = VDC_GROUP_NONE;
    else
        return -1;
    return 0;
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
        vdc_input_error("%s: runs: expected at least one run, found none", file);
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
         * descriptions no longer apply, nor its level records (each of
         * one target and repetition of the document) */
        for (i = 0; i < tmp->n_targets; i++) {
            vdc_target_dispose(tmp->targets[i]);
            g_free(tmp->targets[i]);
        }
        g_clear_pointer(&tmp->targets, g_free);
        tmp->n_targets = 0;
        vdc_experiment_levels_dispose(&tmp->experiment);
    }
    return (int)tmp->n_runs;
}

/* The machine of a text run: bonnie's machine name, dd's device or file. */
static const char *
run_machine(const vdc_run *r)
{
    return r->meta.hostname ? r->meta.hostname : r->meta.device ? r->meta.device
           : r->meta.path;
}

/* Name the targets of the text runs of @tmp (labels[i] is run i's label
 * line or NULL) by @group_by, then number repetitions per target.  0, or -1
 * after one message. */
static int
name_groups(vdc_result_set *tmp, GPtrArray *labels, const char *file, const char *target,
            vdc_group_by group_by)
{
    GPtrArray *keys = g_ptr_array_new();
    GPtrArray *machines = g_ptr_array_new();
    GHashTable *count = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    size_t i;
    int rc = -1;

    /* a label line above runs of several machines names no group of its
     * own under --group-by machine (a page's heading over a sweep of two
     * devices): those runs go by machine */
    GHashTable *label_machine = g_hash_table_new(g_str_hash, g_str_equal);
    GHashTable *label_mixed = g_hash_table_new(g_str_hash, g_str_equal);

    for (i = 0; i < tmp->n_runs; i++) {
        const char *label = g_ptr_array_index(labels, i);
        const char *m = run_machine(tmp->runs[i]), *seen;

        if (!label || !m)
            continue;
        seen = g_hash_table_lookup(label_machine, label);
        if (!seen)
            g_hash_table_insert(label_machine, (gpointer)label, (gpointer)m);
        else if (strcmp(seen, m))
            g_hash_table_add(label_mixed, (gpointer)label);
    }
    for (i = 0; i < tmp->n_runs; i++) {
        const vdc_run *r = tmp->runs[i];
        const char *label = g_ptr_array_index(labels, i);
        int mixed = label && g_hash_table_contains(label_mixed, label);
        const char *key = group_by == VDC_GROUP_NONE ? NULL
                          : group_by == VDC_GROUP_LABEL ? label
                          : label && !(mixed && run_machine(r)) ? label : run_machine(r);
        const char *m = label && !mixed ? label : run_machine(r);
        guint k;

        if (m) {
            for (k = 0; k < machines->len && strcmp(g_ptr_array_index(machines, k), m); k++)
                ;
            if (k == machines->len)
                g_ptr_array_add(machines, (gpointer)m);
        }
        if (key && !vdc_target_name_ok(key)) {
            vdc_input_error("%s:%" G_GINT64_FORMAT ": the group name of this run is not a "
                            "target name: expected printable text of at most %d bytes",
                            file, (gint64)r->meta.source.line, VDC_TARGET_NAME_MAX);
            goto out;
        }
        if (!key && !target) {
            vdc_input_error("%s:%" G_GINT64_FORMAT ": this run names no %s: expected --target "
                            "NAME%s", file, (gint64)r->meta.source.line,
                            group_by == VDC_GROUP_NONE ? "target (--group-by none)"
                            : group_by == VDC_GROUP_LABEL ? "label line above it"
                            : "machine and no label line precedes it",
                            group_by == VDC_GROUP_NONE ? "" : " or a label line above it");
            goto out;
        }
        g_ptr_array_add(keys, (gpointer)key);
    }
    {
        /* one group (or none): --target names it; several: TARGET/GROUP */
        const char *first = NULL;
        int several = 0;

        for (i = 0; i < keys->len; i++) {
            const char *k = g_ptr_array_index(keys, i);

            if (k && !first)
                first = k;
            else if (k && strcmp(k, first))
                several = 1;
        }
        for (i = 0; i < tmp->n_runs; i++) {
            const char *k = g_ptr_array_index(keys, i);
            char *name = !k ? g_strdup(target)
                         : !target ? g_strdup(k)
                         : several ? g_strdup_printf("%s/%s", target, k) : g_strdup(target);
            gpointer n;

            if (!vdc_target_name_ok(name)) {
                vdc_input_error("%s:%" G_GINT64_FORMAT ": the target name '%.40s...' is too "
                                "long: expected at most %d bytes", file,
                                (gint64)tmp->runs[i]->meta.source.line, name,
                                VDC_TARGET_NAME_MAX);
                g_free(name);
                goto out;
            }
            vdc_set_str(&tmp->runs[i]->target, name);
            n = g_hash_table_lookup(count, name);
            tmp->runs[i]->repetition = GPOINTER_TO_INT(n);
            g_hash_table_replace(count, name, GINT_TO_POINTER(GPOINTER_TO_INT(n) + 1));
        }
    }
    if (group_by == VDC_GROUP_LABEL && g_hash_table_size(label_mixed)) {
        GHashTableIter it;
        gpointer k;

        g_hash_table_iter_init(&it, label_mixed);
        g_hash_table_iter_next(&it, &k, NULL);
        vdc_error_kind(VDC_ERR_NONE, "warning: %s: --group-by label puts several machines into "
                       "the group '%s'", file, (const char *)k);
    }
    if (group_by == VDC_GROUP_NONE && machines->len > 1) {
        GString *w = g_string_new(NULL);

        for (i = 0; i < machines->len && i < 5; i++)
            g_string_append_printf(w, "%s'%s'", i ? ", " : "",
                                   (const char *)g_ptr_array_index(machines, i));
        vdc_error_kind(VDC_ERR_NONE, "warning: %s: --group-by none puts %u machines or "
                       "configurations (%s%s) into the one target %s", file, machines->len,
                       w->str, machines->len > 5 ? ", ..." : "", target);
        g_string_free(w, TRUE);
    }
    rc = 0;
 out:
    g_hash_table_destroy(label_mixed);
    g_hash_table_destroy(label_machine);
    g_hash_table_destroy(count);
    g_ptr_array_free(machines, TRUE);
    g_ptr_array_free(keys, TRUE);
    return rc;
}

int
vdc_import_data_with(vdc_result_set *rs, const char *data, size_t len, const char *file,
                     const char *target, vdc_import_format fmt, const vdc_import_options *o)
{
    vdc_import_options defaults;
    vdc_group_by group_by;
    vdc_result_set tmp;
    GPtrArray *labels = g_ptr_array_new_with_free_func(g_free);
    GPtrArray *ram = g_ptr_array_new_with_free_func(vdc_ram_statement_free);
    int text = 0;
    /* what is imported is the user's input: whatever the shared loaders
     * (the result model's JSON) find wrong with it is bad input */
    vdc_err_kind scope = vdc_error_scope(VDC_ERR_INPUT);
    int n = -1;
    size_t i;

    if (!o) {
        vdc_import_options_init(&defaults);
        o = &defaults;
    }
    group_by = o->group_by;
    vdc_result_set_init(&tmp);
    if (target && !*target) {
        vdc_input_error("%s: the target name is empty: expected --target NAME", file);
        goto out;
    }
    if ((fmt == VDC_IMPORT_AUTO || fmt == VDC_IMPORT_JSON) && vdc_import_fio_detect(data, len))
        fmt = VDC_IMPORT_FIO;
    if (fmt == VDC_IMPORT_AUTO)
        fmt = looks_like_json(data, len) ? VDC_IMPORT_JSON : VDC_IMPORT_TEXT;
    if (fmt == VDC_IMPORT_FIO) {
        n = vdc_import_fio(&tmp, data, len, file, target, group_by);
    } else if (fmt == VDC_IMPORT_JSON) {
        n = import_json(&tmp, data, len, file, target);
    } else if (group_by == VDC_GROUP_NONE && !target) {
        vdc_input_error("%s: --group-by none puts every run into one target: expected "
                        "--target NAME", file);
    } else {
        text = 1;
        n = vdc_import_text(&tmp, data, len, file,
                            fmt == VDC_IMPORT_CSV ? 1 : fmt == VDC_IMPORT_TABLE ? 2
                            : fmt == VDC_IMPORT_DD ? 3 : 0, labels, ram);
        if (n >= 0 && name_groups(&tmp, labels, file, target, group_by) < 0)
            n = -1;
    }
    if (n < 0)
        goto out;
    /* the physical bounds of the model (result.h): a pasted 1e308 is a
     * damaged or forged file, and would overflow every sum and chart */
    for (i = 0; i < tmp.n_runs; i++) {
        const vdc_run *r = tmp.runs[i];
        size_t k;

        for (k = 0; k < r->n_samples; k++) {
            g_autofree char *why = vdc_sample_bounds_check(r->samples[k]);

            if (!why)
                continue;
            if (r->meta.source.line != VDC_INT_ABSENT)
                vdc_input_error("%s:%" G_GINT64_FORMAT ": %s: %s", file, (gint64)r->meta.source.line,
                                r->samples[k]->test, why);
            else
                vdc_input_error("%s: %s: %s", file, r->samples[k]->test, why);
            n = -1;
            goto out;
        }
    }
    /* every run's target gets a description, at least "imported" */
    for (i = 0; i < tmp.n_runs; i++) {
        const char *name = tmp.runs[i]->target;

        if (!vdc_result_set_find_target(&tmp, name) && !vdc_result_set_find_target(rs, name)) {
            vdc_target *t = vdc_result_set_add_target(&tmp, name);

            if (t)
                vdc_set_str(&t->kind, "imported");
        }
    }
    /* a pasted page says what its targets are: kinds, where, RAM */
    if (text)
        vdc_import_describe(&tmp, rs, file, ram, o);
    {
        g_autofree char *why = vdc_result_set_merge_refusal(rs, &tmp);

        if (why) {
            vdc_input_error("%s: %s", file, why);
            n = -1;
            goto out;
        }
    }
    vdc_result_set_merge(rs, &tmp);
 out:
    g_ptr_array_free(ram, TRUE);
    g_ptr_array_free(labels, TRUE);
    vdc_result_set_dispose(&tmp);
    vdc_error_scope(scope);
    return n;
}

int
vdc_import_data_grouped(vdc_result_set *rs, const char *data, size_t len,
                        const char *file, const char *target, vdc_import_format fmt,
                        vdc_group_by group_by)
{
    vdc_import_options o;

    vdc_import_options_init(&o);
    o.group_by = group_by;
    return vdc_import_data_with(rs, data, len, file, target, fmt, &o);
}

int
vdc_import_data(vdc_result_set *rs, const char *data, size_t len,
                const char *file, const char *target, vdc_import_format fmt)
{
    return vdc_import_data_grouped(rs, data, len, file, target, fmt, VDC_GROUP_MACHINE);
}

int
vdc_import_file_grouped(vdc_result_set *rs, const char *path, const char *target,
                        vdc_import_format fmt, vdc_group_by group_by)
{
    vdc_import_options o;

    vdc_import_options_init(&o);
    o.group_by = group_by;
    return vdc_import_file_with(rs, path, target, fmt, &o);
}

int
vdc_import_file_with(vdc_result_set *rs, const char *path, const char *target,
                     vdc_import_format fmt, const vdc_import_options *o)
{
    char *data = NULL;
    size_t len = 0;
    const char *name = path;
    vdc_err_kind scope;
    int n;

    scope = vdc_error_scope(VDC_ERR_INPUT);     /* a file the user named */
    n = vdc_read_input(path, &data, &len);
    vdc_error_scope(scope);
    if (n < 0)
        return -1;
    if (!strcmp(path, "-"))
        name = "(stdin)";
    n = vdc_import_data_with(rs, data, len, name, target, fmt, o);
    g_free(data);
    return n;
}

int
vdc_import_file(vdc_result_set *rs, const char *path, const char *target,
                vdc_import_format fmt)
{
    return vdc_import_file_grouped(rs, path, target, fmt, VDC_GROUP_MACHINE);
}

/* 1 when @len bytes of JSON nest deeper than json-glib's parser should
 * recurse (a hostile file would overflow its stack) */
static int
nests_deeper(const char *data, size_t len, unsigned max)
{
    size_t i;
    unsigned depth = 0;
    int in_string = 0;

    for (i = 0; i < len; i++) {
        if (in_string) {
            if (data[i] == '\\')
                i++;
            else if (data[i] == '"')
                in_string = 0;
        } else if (data[i] == '"') {
            in_string = 1;
        } else if ((data[i] == '[' || data[i] == '{') && ++depth > max) {
            return 1;
        } else if ((data[i] == ']' || data[i] == '}') && depth) {
            depth--;
        }
    }
    return 0;
}

/* member @name of @o when it is a string, else NULL (borrowed) */
static const char *
str_member(JsonObject *o, const char *name)
{
    JsonNode *n = o ? json_object_get_member(o, name) : NULL;

    return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING
               ? json_node_get_string(n) : NULL;
}

/* member @name of @o when it is an object, else NULL (borrowed) */
static JsonObject *
obj_member(JsonObject *o, const char *name)
{
    JsonNode *n = o ? json_object_get_member(o, name) : NULL;

    return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

/* import.h */
char *
vdc_import_output_refusal(const char *data, size_t len)
{
    g_autoptr(JsonParser) parser = json_parser_new_immutable();
    JsonObject *top = NULL, *exp;
    JsonNode *root, *rn;
    JsonArray *runs = NULL;
    const char *producer;
    guint i, n = 0;

    if (len <= G_MAXSSIZE && !memchr(data, '\0', len) && !nests_deeper(data, len, 64) &&
        json_parser_load_from_data(parser, data, (gssize)len, NULL) && (root = json_parser_get_root(parser)) &&
        JSON_NODE_HOLDS_OBJECT(root))
        top = json_node_get_object(root);
    if (g_strcmp0(str_member(top, "format"), VDC_RESULT_FORMAT))
        return g_strdup("not a vmdiskcmp result document");
    producer = str_member(obj_member(top, "producer"), "name");
    if (g_strcmp0(producer, "vmdiskcmp"))
        return g_strdup_printf("a result written by %s, not by an import: measured data",
                               producer ? producer : "an unnamed producer");
    if (json_object_has_member(top, "statistics"))
        return g_strdup("a report's report.json (it has \"statistics\"), not an import's output");
    if ((rn = json_object_get_member(top, "runs")) && JSON_NODE_HOLDS_ARRAY(rn))
        n = json_array_get_length(runs = json_node_get_array(rn));
    for (i = 0; i < n; i++) {
        JsonNode *r = json_array_get_element(runs, i);

        if (!JSON_NODE_HOLDS_OBJECT(r) || !obj_member(obj_member(json_node_get_object(r), "metadata"), "source"))
            break;
    }
    if (n && i == n)
        return NULL;
    if ((exp = obj_member(top, "experiment")))
        return g_strdup_printf("the result of a vmdiskcmp run (experiment %s): measured data, not an "
                               "import's output", str_member(exp, "id") ? str_member(exp, "id") : "without an id");
    if (!n)
        return g_strdup("a result without runs, not an import's output");
    return g_strdup_printf("a result whose runs[%u] was not imported (it has no metadata.source): not an "
                           "import's output", i);
}
