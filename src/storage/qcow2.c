/* SPDX-License-Identifier: GPL-2.0-or-later */
/* qcow2 images: creation with QEMU's options and what the image itself
 * says afterwards (storage.h, "qcow2").  qemu-img runs through the child
 * helper (common/child.h); its JSON is parsed by pure functions that the
 * unit tests feed with qemu-img 7.2's own output. */
#include "config.h"

#include <string.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "common/child.h"
#include "common/util.h"
#include "storage/storage.h"

/* metadata only, or a whole image written at full: minutes on a slow disk */
#define QEMU_IMG_TIMEOUT_MS (30u * 60u * 1000u)
#define QEMU_IMG_INFO_TIMEOUT_MS 60000u

static const char *const prealloc_names[] = {
    [VDC_IMAGE_SPARSE] = "off",
    [VDC_IMAGE_FALLOC] = "falloc",
    [VDC_IMAGE_FULL] = "full",
    [VDC_IMAGE_METADATA] = "metadata",
};

const char *
vdc_qcow2_preallocation(vdc_image_alloc alloc)
{
    return (unsigned)alloc < G_N_ELEMENTS(prealloc_names) ? prealloc_names[alloc] : NULL;
}

int
vdc_qcow2_cluster_size_ok(uint64_t bytes)
{
    /* QEMU's qcow2: a power of two from 512 bytes to 2 MiB */
    return bytes >= 512 && bytes <= (2u << 20) && !(bytes & (bytes - 1));
}

void
vdc_qcow2_info_dispose(vdc_qcow2_info *q)
{
    if (!q)
        return;
    g_free(q->compat);
    memset(q, 0, sizeof(*q));
}

/* @o's member @name as a non-negative integer, or -1 after vdc_error */
static int
member_u64(JsonObject *o, const char *name, const char *source, uint64_t *v)
{
    JsonNode *n = json_object_get_member(o, name);

    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64 ||
        json_node_get_int(n) < 0) {
        vdc_error("%s: %s: expected a non-negative integer", source, name);
        return -1;
    }
    *v = (uint64_t)json_node_get_int(n);
    return 0;
}

/* @o's boolean member @name: 1, 0, or -1 when absent or not a boolean */
static int
member_bool(JsonObject *o, const char *name)
{
    JsonNode *n = o ? json_object_get_member(o, name) : NULL;

    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_BOOLEAN)
        return -1;
    return json_node_get_boolean(n) ? 1 : 0;
}

static JsonNode *
parse_root(JsonParser *parser, const char *json, const char *source, JsonNodeType want)
{
    g_autoptr(GError) err = NULL;
    JsonNode *root;

    if (!json_parser_load_from_data(parser, json ? json : "", -1, &err)) {
        vdc_error("%s: not JSON: %s", source, err->message);
        return NULL;
    }
    root = json_parser_get_root(parser);
    if (!root || JSON_NODE_TYPE(root) != want) {
        vdc_error("%s: expected a JSON %s", source, want == JSON_NODE_OBJECT ? "object" : "array");
        return NULL;
    }
    return root;
}

int
vdc_qemu_img_info_parse(const char *json, const char *source, vdc_qcow2_info *out)
{
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonNode *root = parse_root(parser, json, source, JSON_NODE_OBJECT);
    JsonObject *o, *fs = NULL, *data = NULL;
    const char *format;

    if (!root)
        return -1;
    o = json_node_get_object(root);
    format = json_object_get_string_member_with_default(o, "format", NULL);
    if (!format || strcmp(format, "qcow2") != 0) {
        vdc_error("%s: format: expected \"qcow2\", found %s%s%s", source, format ? "\"" : "",
                  format ? format : "none", format ? "\"" : "");
        return -1;
    }
    if (member_u64(o, "virtual-size", source, &out->virtual_size) < 0 ||
        member_u64(o, "actual-size", source, &out->actual_size) < 0 ||
        member_u64(o, "cluster-size", source, &out->cluster_size) < 0)
        return -1;
    if (!vdc_qcow2_cluster_size_ok(out->cluster_size)) {
        vdc_error("%s: cluster-size %" G_GUINT64_FORMAT ": expected a power of two from 512 to 2097152",
                  source, (guint64)out->cluster_size);
        return -1;
    }
    if (json_object_has_member(o, "format-specific") &&
        JSON_NODE_HOLDS_OBJECT(json_object_get_member(o, "format-specific")))
        fs = json_object_get_object_member(o, "format-specific");
    if (fs && json_object_has_member(fs, "data") &&
        JSON_NODE_HOLDS_OBJECT(json_object_get_member(fs, "data")))
        data = json_object_get_object_member(fs, "data");
    g_free(out->compat);
    out->compat = g_strdup(data ? json_object_get_string_member_with_default(data, "compat", NULL)
                                : NULL);
    out->lazy_refcounts = member_bool(data, "lazy-refcounts");
    out->extended_l2 = member_bool(data, "extended-l2");
    out->corrupt = member_bool(data, "corrupt");
    out->refcount_bits = data ? json_object_get_int_member_with_default(data, "refcount-bits", -1)
                              : -1;
    return 0;
}

int
vdc_qemu_img_map_parse(const char *json, const char *source, vdc_qcow2_info *out)
{
    g_autoptr(JsonParser) parser = json_parser_new();
    JsonNode *root = parse_root(parser, json, source, JSON_NODE_ARRAY);
    JsonArray *a;
    guint i;

    if (!root)
        return -1;
    a = json_node_get_array(root);
    out->mapped_bytes = out->mapped_zero_bytes = 0;
    for (i = 0; i < json_array_get_length(a); i++) {
        JsonNode *e = json_array_get_element(a, i);
        uint64_t len;
        int data, zero;

        if (!JSON_NODE_HOLDS_OBJECT(e)) {
            vdc_error("%s: [%u]: expected an object", source, i);
            return -1;
        }
        if (member_u64(json_node_get_object(e), "length", source, &len) < 0)
            return -1;
        data = member_bool(json_node_get_object(e), "data");
        zero = member_bool(json_node_get_object(e), "zero");
        if (data < 0 || zero < 0) {
            vdc_error("%s: [%u]: expected the booleans data and zero", source, i);
            return -1;
        }
        if (data) {
            out->mapped_bytes += len;
            if (zero)
                out->mapped_zero_bytes += len;
        }
    }
    out->mapped_read = 1;
    return 0;
}

char *
vdc_qcow2_alloc_disagrees(vdc_image_alloc alloc, const vdc_qcow2_info *q)
{
    switch (alloc) {
    case VDC_IMAGE_SPARSE:
        if (q->mapped_bytes)
            return g_strdup_printf("preallocation off, but qemu-img map finds %" G_GUINT64_FORMAT
                                   " bytes with data", (guint64)q->mapped_bytes);
        return NULL;
    case VDC_IMAGE_METADATA:
        if (q->mapped_bytes != q->virtual_size || q->mapped_zero_bytes != q->mapped_bytes)
            return g_strdup_printf("preallocation metadata, but qemu-img map finds %" G_GUINT64_FORMAT
                                   " of %" G_GUINT64_FORMAT " bytes allocated, %" G_GUINT64_FORMAT
                                   " of them reading as zeros", (guint64)q->mapped_bytes,
                                   (guint64)q->virtual_size, (guint64)q->mapped_zero_bytes);
        return NULL;
    case VDC_IMAGE_FALLOC:
    case VDC_IMAGE_FULL:
        if (q->mapped_bytes != q->virtual_size || q->mapped_zero_bytes ||
            q->actual_size < q->virtual_size)
            return g_strdup_printf("preallocation %s, but qemu-img finds %" G_GUINT64_FORMAT " of %"
                                   G_GUINT64_FORMAT " bytes with data (%" G_GUINT64_FORMAT
                                   " as zero clusters) and %" G_GUINT64_FORMAT " bytes in the file",
                                   vdc_qcow2_preallocation(alloc), (guint64)q->mapped_bytes,
                                   (guint64)q->virtual_size, (guint64)q->mapped_zero_bytes,
                                   (guint64)q->actual_size);
        return NULL;
    }
    return g_strdup("unknown preallocation");
}

/* Run qemu-img with @argv, its stdout into *@out (g_free).  0, or -1
 * after vdc_error naming @what. */
static int
qemu_img(char *const *argv, unsigned timeout_ms, const char *what, char **out)
{
    vdc_child_opts o = { .argv = argv, .timeout_ms = timeout_ms,
                         .out = out ? VDC_CHILD_CAPTURE : VDC_CHILD_NULL,
                         .err = out ? VDC_CHILD_INHERIT : VDC_CHILD_CAPTURE,
                         .capture_max = 1u << 24 };
    vdc_child_result r;
    int rc = -1;

    if (vdc_child_run(&o, &r) < 0)
        return -1;
    if (r.timed_out)
        vdc_error("%s: no answer in %u s", what, timeout_ms / 1000);
    else if (vdc_child_code(&r) != 0)
        vdc_error("%s failed (exit status %d)%s%.*s", what, vdc_child_code(&r),
                  !out && r.out ? ": " : "",
                  !out && r.out ? (int)strcspn(g_strstrip(r.out), "\n") : 0,
                  !out && r.out ? r.out : "");
    else if (out && r.out_truncated)
        vdc_error("%s: more than 16 MiB of output", what);
    else
        rc = 0;
    if (rc == 0 && out) {
        *out = r.out;
        r.out = NULL;
    }
    vdc_child_result_dispose(&r);
    return rc;
}

int
vdc_qcow2_create(const char *path, uint64_t size, vdc_image_alloc alloc, uint64_t cluster_size,
                 const char *name)
{
    g_autofree char *sz = g_strdup_printf("%" G_GUINT64_FORMAT, (guint64)size);
    g_autofree char *o = g_strdup_printf("cluster_size=%" G_GUINT64_FORMAT ",preallocation=%s",
                                         (guint64)(cluster_size ? cluster_size : VDC_QCOW2_CLUSTER_DEFAULT),
                                         vdc_qcow2_preallocation(alloc));
    g_autofree char *what = g_strdup_printf("storage %s: qemu-img create %s", name, path);
    char *const argv[] = { (char *)"qemu-img", (char *)"create", (char *)"-q", (char *)"-f",
                           (char *)"qcow2", (char *)"-o", o, (char *)path, sz, NULL };

    return qemu_img(argv, QEMU_IMG_TIMEOUT_MS, what, NULL);
}

int
vdc_qcow2_read(const char *path, vdc_qcow2_info *out)
{
    char *const info[] = { (char *)"qemu-img", (char *)"info", (char *)"--output=json",
                           (char *)"-f", (char *)"qcow2", (char *)path, NULL };
    char *const map[] = { (char *)"qemu-img", (char *)"map", (char *)"--output=json",
                          (char *)"-f", (char *)"qcow2", (char *)path, NULL };
    g_autofree char *what = g_strdup_printf("qemu-img info %s", path);
    g_autofree char *what_map = g_strdup_printf("qemu-img map %s", path);
    g_autofree char *text = NULL, *text_map = NULL;

    if (qemu_img(info, QEMU_IMG_INFO_TIMEOUT_MS, what, &text) < 0 ||
        vdc_qemu_img_info_parse(text, what, out) < 0)
        return -1;
    if (qemu_img(map, QEMU_IMG_INFO_TIMEOUT_MS, what_map, &text_map) < 0 ||
        vdc_qemu_img_map_parse(text_map, what_map, out) < 0)
        return -1;
    out->read = 1;
    return 0;
}
