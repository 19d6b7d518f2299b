/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one JSON writer (result.h vdc_json_to_string): every JSON file
 * vmdiskcmp writes (result.json, report.json, plan.json, the fleet's)
 * goes through it, members in insertion order, each double in the
 * shortest form that reads back to itself. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "model/result.h"

/* JSON text with the shortest decimal form of each double that reads back
 * to the same value (135.8, not json-glib's 135.80000000000001). */
static void
emit_string(GString *out, const char *s)
{
    char *valid = g_utf8_make_valid(s, -1);
    const char *p;

    g_string_append_c(out, '"');
    for (p = valid; *p; p++) {
        unsigned char ch = (unsigned char)*p;

        switch (ch) {
        case '"': g_string_append(out, "\\\""); break;
        case '\\': g_string_append(out, "\\\\"); break;
        case '\n': g_string_append(out, "\\n"); break;
        case '\t': g_string_append(out, "\\t"); break;
        case '\r': g_string_append(out, "\\r"); break;
        default:
            if (ch < 0x20 || ch == 0x7f)
                g_string_append_printf(out, "\\u%04x", ch);
            else
                g_string_append_c(out, (char)ch);
        }
    }
    g_string_append_c(out, '"');
    g_free(valid);
}

static void
emit_double(GString *out, double d)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];
    int prec;

    if (!isfinite(d)) {   /* JSON has no NaN/Inf: our writers never produce them */
        g_string_append(out, "null");
        return;
    }
    for (prec = 15; prec <= 17; prec++) {
        g_ascii_formatd(buf, sizeof(buf), prec == 15 ? "%.15g" : prec == 16 ? "%.16g" : "%.17g", d);
        if (g_ascii_strtod(buf, NULL) == d)
            break;
    }
    g_string_append(out, buf);
    /* keep it a JSON number that reads back as a double */
    if (!strpbrk(buf, ".eEn"))
        g_string_append(out, ".0");
}

void
vdc_append_double(GString *out, double d)
{
    emit_double(out, d);
}

static void
emit_indent(GString *out, int level)
{
    g_string_append_c(out, '\n');
    for (; level > 0; level--)
        g_string_append(out, "  ");
}

static void
emit_node(GString *out, JsonNode *n, int level, const char *colon)
{
    switch (JSON_NODE_TYPE(n)) {
    case JSON_NODE_NULL:
        g_string_append(out, "null");
        break;
    case JSON_NODE_VALUE: {
        GType t = json_node_get_value_type(n);

        if (t == G_TYPE_INT64)
            g_string_append_printf(out, "%" G_GINT64_FORMAT, json_node_get_int(n));
        else if (t == G_TYPE_DOUBLE)
            emit_double(out, json_node_get_double(n));
        else if (t == G_TYPE_BOOLEAN)
            g_string_append(out, json_node_get_boolean(n) ? "true" : "false");
        else if (t == G_TYPE_STRING)
            emit_string(out, json_node_get_string(n));
        else
            g_string_append(out, "null");
        break;
    }
    case JSON_NODE_ARRAY: {
        JsonArray *a = json_node_get_array(n);
        guint i, len = json_array_get_length(a);

        if (!len) {
            g_string_append(out, "[]");
            break;
        }
        g_string_append_c(out, '[');
        for (i = 0; i < len; i++) {
            emit_indent(out, level + 1);
            emit_node(out, json_array_get_element(a, i), level + 1, colon);
            if (i + 1 < len)
                g_string_append_c(out, ',');
        }
        emit_indent(out, level);
        g_string_append_c(out, ']');
        break;
    }
    case JSON_NODE_OBJECT: {
        JsonObject *o = json_node_get_object(n);
        GList *names = json_object_get_members(o), *l;   /* insertion order */
        int first = 1;

        g_string_append_c(out, '{');
        for (l = names; l; l = l->next) {
            if (!first)
                g_string_append_c(out, ',');
            first = 0;
            emit_indent(out, level + 1);
            emit_string(out, l->data);
            g_string_append(out, colon);
            emit_node(out, json_object_get_member(o, l->data), level + 1, colon);
        }
        g_list_free(names);
        if (!first)
            emit_indent(out, level);
        g_string_append_c(out, '}');
        break;
    }
    }
}

char *
vdc_json_write(JsonNode *root, const char *colon, int final_newline, size_t *len)
{
    GString *out = g_string_new(NULL);

    emit_node(out, root, 0, colon);
    if (final_newline)
        g_string_append_c(out, '\n');
    if (len)
        *len = out->len;
    return g_string_free(out, FALSE);
}

char *
vdc_json_to_string(JsonNode *root, size_t *len)
{
    return vdc_json_write(root, ": ", 1, len);
}
