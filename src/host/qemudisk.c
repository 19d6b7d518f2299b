/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A QEMU disk as QEMU says it serves it (qemudisk.h). */
#include "config.h"
#include "host/qemudisk.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "common/util.h"

void
vdc_qmp_block_free(vdc_qmp_block *b)
{
    if (!b)
        return;
    g_free(b->qdev);
    g_free(b->node_name);
    g_free(b->file);
    g_free(b);
}

/* The "return" member of QMP reply @json (borrowed from @parser), or NULL
 * after vdc_error naming @source. */
static JsonNode *
qmp_return(JsonParser *parser, const char *json, const char *source)
{
    g_autoptr(GError) err = NULL;
    JsonNode *root;
    JsonObject *o;

    if (!json_parser_load_from_data(parser, json ? json : "", -1, &err)) {
        vdc_error("%s: not a QMP reply: %s", source, err->message);
        return NULL;
    }
    root = json_parser_get_root(parser);
    if (!root || !JSON_NODE_HOLDS_OBJECT(root)) {
        vdc_error("%s: not a QMP reply: expected an object", source);
        return NULL;
    }
    o = json_node_get_object(root);
    if (json_object_has_member(o, "error")) {
        JsonNode *e = json_object_get_member(o, "error");
        const char *desc = JSON_NODE_HOLDS_OBJECT(e)
                           ? json_object_get_string_member_with_default(json_node_get_object(e), "desc", "?")
                           : "?";

        vdc_error("%s: QEMU answered an error: %s", source, desc);
        return NULL;
    }
    if (!json_object_has_member(o, "return")) {
        vdc_error("%s: not a QMP reply: no \"return\"", source);
        return NULL;
    }
    return json_object_get_member(o, "return");
}

/* a boolean member as a tri-state */
static int
tri(JsonObject *o, const char *name)
{
    JsonNode *n = o ? json_object_get_member(o, name) : NULL;

    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_BOOLEAN)
        return -1;
    return json_node_get_boolean(n) ? 1 : 0;
}

static char *
str_member(JsonObject *o, const char *name)
{
    JsonNode *n = o ? json_object_get_member(o, name) : NULL;

    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING)
        return NULL;
    return g_strdup(json_node_get_string(n));
}

static JsonObject *
obj_member(JsonObject *o, const char *name)
{
    JsonNode *n = o ? json_object_get_member(o, name) : NULL;

    return n && JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
}

GPtrArray *
vdc_qmp_block_parse(const char *json, const char *source)
{
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonNode *ret = qmp_return(parser, json, source);
    GPtrArray *out;
    JsonArray *a;
    guint i;

    if (!ret)
        return NULL;
    if (!JSON_NODE_HOLDS_ARRAY(ret)) {
        vdc_error("%s: query-block: expected an array of devices", source);
        return NULL;
    }
    a = json_node_get_array(ret);
    out = g_ptr_array_new_with_free_func((GDestroyNotify)vdc_qmp_block_free);
    for (i = 0; i < json_array_get_length(a); i++) {
        JsonNode *n = json_array_get_element(a, i);
        JsonObject *dev = JSON_NODE_HOLDS_OBJECT(n) ? json_node_get_object(n) : NULL;
        JsonObject *ins = obj_member(dev, "inserted");
        JsonObject *cache = obj_member(ins, "cache");
        vdc_qmp_block *b;

        if (!ins)
            continue;
        b = g_new0(vdc_qmp_block, 1);
        b->qdev = str_member(dev, "qdev");
        b->node_name = str_member(ins, "node-name");
        b->file = str_member(ins, "file");
        b->cache_direct = tri(cache, "direct");
        b->cache_no_flush = tri(cache, "no-flush");
        b->cache_writeback = tri(cache, "writeback");
        g_ptr_array_add(out, b);
    }
    return out;
}

char **
vdc_qmp_iothreads_parse(const char *json, const char *source)
{
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonNode *ret = qmp_return(parser, json, source);
    GPtrArray *ids;
    JsonArray *a;
    guint i;

    if (!ret)
        return NULL;
    if (!JSON_NODE_HOLDS_ARRAY(ret)) {
        vdc_error("%s: query-iothreads: expected an array of I/O threads", source);
        return NULL;
    }
    a = json_node_get_array(ret);
    ids = g_ptr_array_new();
    for (i = 0; i < json_array_get_length(a); i++) {
        JsonNode *n = json_array_get_element(a, i);
        char *id = JSON_NODE_HOLDS_OBJECT(n) ? str_member(json_node_get_object(n), "id") : NULL;

        if (id)
            g_ptr_array_add(ids, id);
    }
    g_ptr_array_add(ids, NULL);
    return (char **)g_ptr_array_free(ids, FALSE);
}

int
vdc_qmp_qom_parse(const char *json, const char *source, char **str, int64_t *num)
{
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonNode *ret = qmp_return(parser, json, source);

    if (!ret)
        return -1;
    if (JSON_NODE_HOLDS_VALUE(ret) && json_node_get_value_type(ret) == G_TYPE_STRING && str) {
        *str = g_strdup(json_node_get_string(ret));
        return 0;
    }
    if (JSON_NODE_HOLDS_VALUE(ret) && json_node_get_value_type(ret) == G_TYPE_INT64 && num) {
        *num = json_node_get_int(ret);
        return 0;
    }
    vdc_error("%s: qom-get: expected a %s", source, str ? "string" : "number");
    return -1;
}

GHashTable *
vdc_qemu_cmdline_blockdevs(const char *cmdline, size_t len)
{
    GHashTable *t = g_hash_table_new_full(g_str_hash, g_str_equal, g_free,
                                          (GDestroyNotify)json_object_unref);
    const char *p = cmdline, *end = cmdline + len;
    int next_is_blockdev = 0;

    while (p && p < end) {
        size_t n = strnlen(p, (size_t)(end - p));
        g_autofree char *arg = g_strndup(p, n);

        if (next_is_blockdev && arg[0] == '{') {
            g_autoptr(JsonParser) parser = json_parser_new();
            JsonNode *root;

            if (json_parser_load_from_data(parser, arg, -1, NULL) &&
                (root = json_parser_get_root(parser)) && JSON_NODE_HOLDS_OBJECT(root)) {
                JsonObject *o = json_node_get_object(root);
                char *node = str_member(o, "node-name");

                if (node)
                    g_hash_table_replace(t, node, json_object_ref(o));
            }
        }
        next_is_blockdev = !strcmp(arg, "-blockdev");
        p += n + 1;
    }
    return t;
}

const char *
vdc_qemu_node_aio(GHashTable *blockdevs, const char *node)
{
    JsonObject *fmt = node ? g_hash_table_lookup(blockdevs, node) : NULL;
    JsonNode *file = fmt ? json_object_get_member(fmt, "file") : NULL;
    JsonObject *proto;

    if (!file || !JSON_NODE_HOLDS_VALUE(file) || json_node_get_value_type(file) != G_TYPE_STRING)
        return NULL;
    proto = g_hash_table_lookup(blockdevs, json_node_get_string(file));
    if (!proto)
        return NULL;
    return json_object_get_string_member_with_default(proto, "aio", "threads");
}

const vdc_qmp_block *
vdc_qmp_block_of_alias(GPtrArray *blocks, const char *alias)
{
    g_autofree char *virtio = g_strdup_printf("/machine/peripheral/%s/virtio-backend", alias);
    guint i;

    for (i = 0; alias && blocks && i < blocks->len; i++) {
        const vdc_qmp_block *b = g_ptr_array_index(blocks, i);

        if (b->qdev && (!strcmp(b->qdev, virtio) || !strcmp(b->qdev, alias)))
            return b;
    }
    return NULL;
}
