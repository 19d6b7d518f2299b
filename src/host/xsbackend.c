/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A VBD's backend facts from xenstore (xsbackend.h). */
#include "config.h"
#include "host/xsbackend.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#ifdef WITH_LIBXL
#include <xenstore.h>
#endif

#include "common/util.h"
#include "host/text.h"

#define BACKEND_ROOT "/local/domain/0/backend/"

static const char *const backend_kinds[] = { "vbd", "vbd3", "qdisk" };

/* a zeroed @v with its sentinels */
static void
vbd_reset(vdc_xs_vbd *v)
{
    memset(v, 0, sizeof(*v));
    v->direct_io_safe = -1;
    v->max_ring_page_order = v->max_queues = v->frontend_state = -1;
    v->ring_page_order = v->num_queues = -1;
}

/* a small decimal as xenstore holds it, or -1 */
static int
small_number(const char *v)
{
    uint64_t n;

    return v && vdc_parse_u64_text(v, &n) == 0 && n <= 65535 ? (int)n : -1;
}

void
vdc_xs_vbd_dispose(vdc_xs_vbd *v)
{
    if (!v)
        return;
    g_free(v->path);
    g_free(v->kind);
    g_free(v->dev);
    g_free(v->type);
    g_free(v->params);
    g_free(v->mode);
    g_free(v->node);
    g_free(v->physical_device_path);
    g_free(v->hotplug_status);
    g_free(v->frontend);
    vbd_reset(v);
}

void
vdc_xs_vbd_free(vdc_xs_vbd *v)
{
    if (!v)
        return;
    vdc_xs_vbd_dispose(v);
    g_free(v);
}

/* "KIND/DOMID/DEVID" after BACKEND_ROOT: 0 and the parts, or -1 */
static int
backend_path_parse(const char *path, char **kind, unsigned *domid, unsigned *devid)
{
    g_auto(GStrv) parts = NULL;
    uint64_t d, v;
    const char *p;
    size_t k;

    if (!path || !g_str_has_prefix(path, BACKEND_ROOT))
        return -1;
    parts = g_strsplit(path + strlen(BACKEND_ROOT), "/", -1);
    if (g_strv_length(parts) != 3)
        return -1;
    for (k = 0; k < G_N_ELEMENTS(backend_kinds); k++)
        if (!strcmp(parts[0], backend_kinds[k]))
            break;
    if (k == G_N_ELEMENTS(backend_kinds))
        return -1;
    p = parts[1];
    if (vdc_parse_u64_word(&p, &d) < 0 || *p || d > 0xffff)
        return -1;
    p = parts[2];
    if (vdc_parse_u64_word(&p, &v) < 0 || *p || v > UINT32_MAX)
        return -1;
    *kind = g_strdup(parts[0]);
    *domid = (unsigned)d;
    *devid = (unsigned)v;
    return 0;
}

/* blkback's own reading: "%x:%x" */
static int
hex_major_minor(const char *s, unsigned *maj, unsigned *min)
{
    char *end;
    unsigned long a, b;

    if (!g_ascii_isxdigit(*s))
        return -1;
    errno = 0;
    a = strtoul(s, &end, 16);
    if (*end != ':' || errno || a > 0xfff || !g_ascii_isxdigit(end[1]))
        return -1;
    b = strtoul(end + 1, &end, 16);
    if (*end || errno || b > 0xfffff)
        return -1;
    *maj = (unsigned)a;
    *min = (unsigned)b;
    return 0;
}

int
vdc_xs_vbd_from_pairs(const char *path, const char *const *keys, const char *const *values,
                      size_t n, vdc_xs_vbd *out)
{
    size_t i;

    vbd_reset(out);
    if (backend_path_parse(path, &out->kind, &out->domid, &out->devid) < 0) {
        vdc_error("xenstore %s: expected %s{vbd,vbd3,qdisk}/DOMID/DEVID", path ? path : "",
                  BACKEND_ROOT);
        return -1;
    }
    out->path = g_strdup(path);
    for (i = 0; i < n; i++) {
        const char *k = keys[i], *v = values[i] ? values[i] : "";
        char **dst = NULL;

        if (!strcmp(k, "dev"))
            dst = &out->dev;
        else if (!strcmp(k, "type"))
            dst = &out->type;
        else if (!strcmp(k, "params"))
            dst = &out->params;
        else if (!strcmp(k, "mode"))
            dst = &out->mode;
        else if (!strcmp(k, "node"))
            dst = &out->node;
        else if (!strcmp(k, "physical-device-path"))
            dst = &out->physical_device_path;
        else if (!strcmp(k, "hotplug-status"))
            dst = &out->hotplug_status;
        else if (!strcmp(k, "frontend"))
            dst = &out->frontend;
        if (dst) {
            g_free(*dst);
            *dst = *v ? g_strdup(v) : NULL;
            continue;
        }
        if (!strcmp(k, "physical-device")) {
            if (hex_major_minor(v, &out->pd_major, &out->pd_minor) < 0) {
                vdc_error("xenstore %s/physical-device: expected MAJ:MIN in hex, got '%s'", path, v);
                goto fail;
            }
            out->have_physical_device = 1;
        } else if (!strcmp(k, "max-ring-page-order") || !strcmp(k, "multi-queue-max-queues")) {
            int n = small_number(v);

            if (n < 0) {
                vdc_error("xenstore %s/%s: expected a number, got '%s'", path, k, v);
                goto fail;
            }
            if (!strcmp(k, "max-ring-page-order"))
                out->max_ring_page_order = n;
            else
                out->max_queues = n;
        } else if (!strcmp(k, "direct-io-safe")) {
            if (strcmp(v, "0") && strcmp(v, "1")) {
                vdc_error("xenstore %s/direct-io-safe: expected 0 or 1, got '%s'", path, v);
                goto fail;
            }
            out->direct_io_safe = v[0] == '1';
        }
    }
    if (!strcmp(out->kind, "qdisk") && !out->type)
        out->type = g_strdup("qdisk");
    return 0;
fail:
    vdc_xs_vbd_dispose(out);
    return -1;
}

int
vdc_xs_vbd_frontend(vdc_xs_vbd *v, const char *const *keys, const char *const *values, size_t n)
{
    int order = -1, queues = -1, state = -1;
    size_t i;

    for (i = 0; i < n; i++) {
        int *dst = !strcmp(keys[i], "state") ? &state :
                   !strcmp(keys[i], "ring-page-order") ? &order :
                   !strcmp(keys[i], "multi-queue-num-queues") ? &queues : NULL;

        if (!dst)
            continue;
        *dst = small_number(values[i]);
        if (*dst < 0) {
            vdc_error("xenstore %s/%s: expected a number, got '%s'", v->frontend ? v->frontend : "?",
                      keys[i], values[i] ? values[i] : "");
            return -1;
        }
    }
    v->frontend_state = state;
    if (state == 4) {   /* XenbusStateConnected: what it chose is final */
        v->ring_page_order = order >= 0 ? order : 0;
        v->num_queues = queues >= 0 ? queues : 1;
    }
    return 0;
}

/* the keys of directory @dir in @tree (its direct entries), into @keys
 * (new strings) and @values (borrowed) */
static void
dir_entries(GHashTable *tree, const char *dir, GPtrArray *keys, GPtrArray *values)
{
    size_t dlen = strlen(dir);
    GHashTableIter it;
    gpointer key, value;

    g_hash_table_iter_init(&it, tree);
    while (g_hash_table_iter_next(&it, &key, &value)) {
        const char *p = key;

        if (!strncmp(p, dir, dlen) && p[dlen] == '/' && !strchr(p + dlen + 1, '/')) {
            g_ptr_array_add(keys, g_strdup(p + dlen + 1));
            g_ptr_array_add(values, value);
        }
    }
}

GHashTable *
vdc_xs_ls_parse(const char *text, const char *source)
{
    GHashTable *t = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_auto(GStrv) lines = g_strsplit(text ? text : "", "\n", -1);
    size_t i;

    for (i = 0; lines[i]; i++) {
        const char *l = lines[i], *eq;
        size_t len = strlen(l);

        if (!*g_strstrip(lines[i]))
            continue;
        len = strlen(l);
        eq = strstr(l, " = \"");
        if (l[0] != '/' || !eq || len < (size_t)(eq - l) + 5 || l[len - 1] != '"' ||
            (len >= 2 && l[len - 2] == '\\' && (len < 3 || l[len - 3] != '\\'))) {
            vdc_error("%s: line %zu: expected '/PATH = \"VALUE\"' (xenstore-ls -f), got '%.60s'",
                      source, i + 1, l);
            g_hash_table_unref(t);
            return NULL;
        }
        {
            g_autofree char *raw = g_strndup(eq + 4, len - (size_t)(eq - l) - 5);

            g_hash_table_replace(t, g_strndup(l, (gsize)(eq - l)), g_strcompress(raw));
        }
    }
    return t;
}

static gint
str_ptr_cmp(gconstpointer a, gconstpointer b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

GPtrArray *
vdc_xs_vbds_from_tree(GHashTable *tree, long domid)
{
    g_autoptr(GPtrArray) dirs = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GHashTable) seen = g_hash_table_new(g_str_hash, g_str_equal);
    GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)vdc_xs_vbd_free);
    GHashTableIter it;
    gpointer k;
    guint i;

    /* the backend directories: every path with exactly KIND/DOMID/DEVID/KEY */
    g_hash_table_iter_init(&it, tree);
    while (g_hash_table_iter_next(&it, &k, NULL)) {
        const char *path = k, *slash = strrchr(path, '/');
        g_autofree char *dir = NULL, *kind = NULL;
        unsigned d, v;

        if (!slash)
            continue;
        dir = g_strndup(path, (gsize)(slash - path));
        if (g_hash_table_contains(seen, dir) || backend_path_parse(dir, &kind, &d, &v) < 0 ||
            (domid >= 0 && d != (unsigned long)domid))
            continue;
        g_hash_table_add(seen, dir);
        g_ptr_array_add(dirs, g_steal_pointer(&dir));
    }
    g_ptr_array_sort(dirs, str_ptr_cmp);
    for (i = 0; i < dirs->len; i++) {
        const char *dir = g_ptr_array_index(dirs, i);
        g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func(g_free);
        g_autoptr(GPtrArray) values = g_ptr_array_new();
        g_autoptr(GPtrArray) fkeys = g_ptr_array_new_with_free_func(g_free);
        g_autoptr(GPtrArray) fvalues = g_ptr_array_new();
        vdc_xs_vbd *v = g_new0(vdc_xs_vbd, 1);

        dir_entries(tree, dir, keys, values);
        if (vdc_xs_vbd_from_pairs(dir, (const char *const *)keys->pdata,
                                  (const char *const *)values->pdata, keys->len, v) < 0) {
            g_free(v);
            g_ptr_array_unref(out);
            return NULL;
        }
        if (v->frontend)
            dir_entries(tree, v->frontend, fkeys, fvalues);
        if (fkeys->len && vdc_xs_vbd_frontend(v, (const char *const *)fkeys->pdata,
                                              (const char *const *)fvalues->pdata, fkeys->len) < 0) {
            vdc_xs_vbd_free(v);
            g_ptr_array_unref(out);
            return NULL;
        }
        g_ptr_array_add(out, v);
    }
    return out;
}

#ifdef WITH_LIBXL
/* the negotiation keys of the frontend the backend directory @vdir names
 * (its "frontend" entry, already in @tree) */
static void
read_frontend(struct xs_handle *xs, GHashTable *tree, const char *vdir)
{
    static const char *const keys[] = { "state", "ring-page-order", "multi-queue-num-queues" };
    g_autofree char *fkey = g_strdup_printf("%s/frontend", vdir);
    const char *front = g_hash_table_lookup(tree, fkey);
    size_t k;

    for (k = 0; front && k < G_N_ELEMENTS(keys); k++) {
        char *path = g_strdup_printf("%s/%s", front, keys[k]);
        unsigned len = 0;
        char *val = xs_read(xs, XBT_NULL, path, &len);

        if (val)
            g_hash_table_replace(tree, path, g_strndup(val, len));
        else
            g_free(path);
        free(val);
    }
}

GPtrArray *
vdc_xs_vbds_read(long domid)
{
    g_autoptr(GHashTable) tree = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    struct xs_handle *xs = xs_open(XS_OPEN_READONLY);
    size_t k;

    if (!xs) {
        vdc_error("xenstore: cannot open: %s (is this a Xen dom0 with xenstored running?)",
                  g_strerror(errno));
        return NULL;
    }
    /* walk KIND/DOMID/DEVID and read each entry: the same table the pure
     * parser reads from xenstore-ls text */
    for (k = 0; k < G_N_ELEMENTS(backend_kinds); k++) {
        g_autofree char *base = g_strconcat(BACKEND_ROOT, backend_kinds[k], NULL);
        unsigned nd = 0, i;
        char **doms = xs_directory(xs, XBT_NULL, base, &nd);

        for (i = 0; doms && i < nd; i++) {
            g_autofree char *ddir = g_strdup_printf("%s/%s", base, doms[i]);
            unsigned nv = 0, j;
            char **devs;

            if (domid >= 0 && strtol(doms[i], NULL, 10) != domid)
                continue;
            devs = xs_directory(xs, XBT_NULL, ddir, &nv);
            for (j = 0; devs && j < nv; j++) {
                g_autofree char *vdir = g_strdup_printf("%s/%s", ddir, devs[j]);
                unsigned ne = 0, e;
                char **ents = xs_directory(xs, XBT_NULL, vdir, &ne);

                for (e = 0; ents && e < ne; e++) {
                    char *path = g_strdup_printf("%s/%s", vdir, ents[e]);
                    unsigned len = 0;
                    char *val = xs_read(xs, XBT_NULL, path, &len);

                    if (val)
                        g_hash_table_replace(tree, path, g_strndup(val, len));
                    else
                        g_free(path);   /* removed meanwhile */
                    free(val);
                }
                free(ents);
                read_frontend(xs, tree, vdir);
            }
            free(devs);
        }
        free(doms);
    }
    xs_close(xs);
    return vdc_xs_vbds_from_tree(tree, domid);
}
#else
GPtrArray *
vdc_xs_vbds_read(long domid)
{
    (void)domid;
    vdc_error("xenstore: this vmdiskcmp was built without libxl/libxenstore");
    return NULL;
}
#endif
