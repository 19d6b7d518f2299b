/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A density level's host cost rendered (render_density.h): the CPU table
 * (per level, target and role: CPU seconds over the level's window, per
 * 1,000 I/Os and per GiB the guests' backends moved) and dom0's memory
 * table, in text, Markdown and HTML; density-host.csv; report.json's
 * statistics.density.host. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "report/hostcost.h"
#include "report/render_density.h"

const char vdc_density_host_note[] =
    "dom0's CPU over each level's window (from the start gate's release to "
    "the look that saw the last guest's domain ended; experiment.levels[].host), by role: blkback "
    "summed over the level's VBDs, QEMU over its guests (and QEMU minus its vCPUs: its threads "
    "beside the vCPU threads), dom0 busy, and dom0 other (busy + steal minus those servers: the "
    "loop devices' shared kworkers among it), per 1,000 I/Os and per GiB the guests' backends "
    "moved over the window; means over the ok repetitions (n), a role unknown in one left out of "
    "it.";

/* The legend of the mark on dom0 other's row where an image's loop device
 * did its work on shared kworkers (vdc_density_host.loop_shared): printed
 * once under a CPU table that has such a row. */
static const char loop_note[] =
    "*: an image's loop device worked on the shared kworkers: their CPU is in dom0 other, "
    "not apart.";

const char *const vdc_density_host_cols[VDC_DENSITY_HOST_COLS] = {
    "N", "target", "role", "n", "CPU s", "per 1,000 I/Os", "per GiB",
};
const char *const vdc_density_mem_cols[VDC_DENSITY_MEM_COLS] = {
    "N", "target", "n", "dom0 memory", "page cache", "dirty", "I/Os", "moved",
};

static char *
num(double v)
{
    return vdc_has(v) && isfinite(v) ? g_strdup_printf("%.4g", v) : g_strdup("-");
}

/* "1.2 GiB", "340 MiB", "12 KiB" */
static char *
bytes_text(double b)
{
    if (!vdc_has(b))
        return g_strdup("-");
    if (b >= 1073741824.0)
        return g_strdup_printf("%.2f GiB", b / 1073741824.0);
    if (b >= 1048576.0)
        return g_strdup_printf("%.1f MiB", b / 1048576.0);
    return g_strdup_printf("%.0f KiB", b / 1024.0);
}

/* "A -> B" of a [release, end] pair */
static char *
pair_text(const double v[2])
{
    g_autofree char *a = bytes_text(v[0]), *b = bytes_text(v[1]);

    if (!vdc_has(v[0]) && !vdc_has(v[1]))
        return g_strdup("-");
    return g_strdup_printf("%s -> %s", a, b);
}

/* every row of the CPU table (@mem 0) or the memory table (@mem 1), each
 * a NULL-terminated string vector, into a new array (g_strfreev each); a
 * role by its label (vdc_host_role_label), dom0 other marked "*" where
 * the loop work is in it, and then *@loop set (@loop may be NULL) */
static GPtrArray *
table_rows(const struct vdc_analysis *a, int mem, int *loop)
{
    const struct vdc_density *d = &a->density;
    GPtrArray *rows = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
    size_t li, ti, r;

    for (li = 0; li < d->n_levels; li++)
        for (ti = 0; ti < d->n_targets; ti++) {
            const struct vdc_density_host *h = vdc_density_host_at(d, li, ti);

            if (!h)
                continue;
            if (mem) {
                char **v = g_new0(char *, VDC_DENSITY_MEM_COLS + 1);

                v[0] = g_strdup_printf("%" G_GINT64_FORMAT, d->levels[li]);
                v[1] = g_strdup(d->targets[ti]);
                v[2] = g_strdup_printf("%zu", h->n);
                v[3] = pair_text(h->memory_bytes);
                v[4] = pair_text(h->cached_bytes);
                v[5] = pair_text(h->dirty_bytes);
                v[6] = vdc_has(h->ios) ? g_strdup_printf("%.0f", h->ios) : g_strdup("-");
                v[7] = bytes_text(h->bytes);
                g_ptr_array_add(rows, v);
                continue;
            }
            for (r = 0; r < VDC_DENSITY_HOST_ROLES; r++) {
                char **v;

                if (!h->n_role[r] && !(r == 4 && h->loop_shared))
                    continue;
                v = g_new0(char *, VDC_DENSITY_HOST_COLS + 1);
                v[0] = g_strdup_printf("%" G_GINT64_FORMAT, d->levels[li]);
                v[1] = g_strdup(d->targets[ti]);
                v[2] = g_strdup_printf("%s%s", vdc_host_role_label(vdc_density_host_roles[r]),
                                       r == 4 && h->loop_shared ? " *" : "");
                if (r == 4 && h->loop_shared && loop)
                    *loop = 1;
                v[3] = g_strdup_printf("%zu", h->n_role[r]);
                v[4] = num(h->cpu_s[r]);
                v[5] = num(h->per_kio[r]);
                v[6] = num(h->per_gib[r]);
                g_ptr_array_add(rows, v);
            }
        }
    return rows;
}

/* a table as text: a header and its rows, columns padded */
static void
text_table(GString *out, const char *const *cols, size_t n_cols, GPtrArray *rows)
{
    g_autofree size_t *w = g_new0(size_t, n_cols);
    size_t i, k;

    for (k = 0; k < n_cols; k++)
        w[k] = strlen(cols[k]);
    for (i = 0; i < rows->len; i++)
        for (k = 0; k < n_cols; k++)
            w[k] = MAX(w[k], (size_t)g_utf8_strlen(((char **)rows->pdata[i])[k], -1));
    for (i = 0; i <= rows->len; i++) {
        const char *const *v = i ? (const char *const *)rows->pdata[i - 1] : cols;

        g_string_append(out, "   ");
        for (k = 0; k < n_cols; k++)
            g_string_append_printf(out, " %-*s", (int)w[k], v[k]);
        while (out->str[out->len - 1] == ' ')
            g_string_truncate(out, out->len - 1);
        g_string_append_c(out, '\n');
    }
}

void
vdc_density_host_text(GString *out, const struct vdc_analysis *a)
{
    GPtrArray *rows;
    int loop = 0;

    if (!a->density.host)
        return;
    g_string_append(out, "  Host cost per level:\n");
    vdc_density_wrap(out, vdc_density_host_note, "    ", 100);
    g_string_append(out, "  Host CPU:\n");
    rows = table_rows(a, 0, &loop);
    text_table(out, vdc_density_host_cols, VDC_DENSITY_HOST_COLS, rows);
    g_ptr_array_unref(rows);
    if (loop)
        vdc_density_wrap(out, loop_note, "    ", 100);
    g_string_append(out, "  dom0's memory (MemTotal - MemAvailable), page cache (Cached) and dirty pages,\n"
                         "  release -> end:\n");
    rows = table_rows(a, 1, NULL);
    text_table(out, vdc_density_mem_cols, VDC_DENSITY_MEM_COLS, rows);
    g_ptr_array_unref(rows);
}

/* a table in Markdown or HTML: @esc escapes each cell */
static void
markup_table(GString *out, const char *const *cols, size_t n_cols, GPtrArray *rows, int html,
             const char *id)
{
    size_t i, k;

    if (html)
        g_string_append_printf(out, "<table id=\"%s\">\n<tr>", id);
    else
        g_string_append(out, "|");
    for (k = 0; k < n_cols; k++) {
        g_string_append(out, html ? "<th>" : " ");
        (html ? vdc_html_escape : vdc_md_escape)(out, cols[k]);
        g_string_append(out, html ? "</th>" : " |");
    }
    if (html) {
        g_string_append(out, "</tr>\n");
    } else {
        g_string_append(out, "\n|");
        for (k = 0; k < n_cols; k++)
            g_string_append(out, k == 0 ? "---:|" : "---|");
        g_string_append_c(out, '\n');
    }
    for (i = 0; i < rows->len; i++) {
        char **v = rows->pdata[i];

        g_string_append(out, html ? "<tr>" : "|");
        for (k = 0; k < n_cols; k++) {
            g_string_append(out, html ? "<td>" : " ");
            (html ? vdc_html_escape : vdc_md_escape)(out, v[k]);
            g_string_append(out, html ? "</td>" : " |");
        }
        g_string_append(out, html ? "</tr>\n" : "\n");
    }
    g_string_append(out, html ? "</table>\n" : "\n");
}

void
vdc_density_host_markup(GString *out, const struct vdc_analysis *a, int html)
{
    GPtrArray *rows;
    int loop = 0;

    if (!a->density.host)
        return;
    g_string_append(out, html ? "<h3 id=\"density-host-cost\">Host cost per level</h3>\n<p>"
                              : "### Host cost per level\n\n");
    (html ? vdc_html_escape : vdc_md_escape)(out, vdc_density_host_note);
    g_string_append(out, html ? "</p>\n" : "\n\n");
    rows = table_rows(a, 0, &loop);
    markup_table(out, vdc_density_host_cols, VDC_DENSITY_HOST_COLS, rows, html, "density-host");
    g_ptr_array_unref(rows);
    if (loop) {
        g_string_append(out, html ? "<p>" : "");
        (html ? vdc_html_escape : vdc_md_escape)(out, loop_note);
        g_string_append(out, html ? "</p>\n" : "\n\n");
    }
    g_string_append(out, html ? "<p>dom0's memory (MemTotal - MemAvailable), page cache (Cached) and "
                                "dirty pages, release -&gt; end:</p>\n"
                              : "dom0's memory (MemTotal - MemAvailable), page cache (Cached) and dirty "
                                "pages, release -> end:\n\n");
    rows = table_rows(a, 1, NULL);
    markup_table(out, vdc_density_mem_cols, VDC_DENSITY_MEM_COLS, rows, html, "density-host-memory");
    g_ptr_array_unref(rows);
}

char *
vdc_density_host_csv(const struct vdc_analysis *a)
{
    const struct vdc_density *d = &a->density;
    GString *out;
    size_t li, ti, r;

    if (!d->host)
        return NULL;
    out = g_string_new("level,target,role,n,cpu_s_mean,cpu_s_per_1000_ios_mean,cpu_s_per_gib_mean,"
                       "ios_mean,bytes_mean,dom0_memory_bytes_begin,dom0_memory_bytes_end,"
                       "dom0_cached_bytes_begin,dom0_cached_bytes_end,dom0_dirty_bytes_begin,"
                       "dom0_dirty_bytes_end\n");
    for (li = 0; li < d->n_levels; li++)
        for (ti = 0; ti < d->n_targets; ti++) {
            const struct vdc_density_host *h = vdc_density_host_at(d, li, ti);

            for (r = 0; h && r < VDC_DENSITY_HOST_ROLES; r++) {
                if (!h->n_role[r])
                    continue;
                g_string_append_printf(out, "%" G_GINT64_FORMAT ",", d->levels[li]);
                vdc_csv_field(out, d->targets[ti]);
                g_string_append_printf(out, ",%s,%zu", vdc_density_host_roles[r], h->n_role[r]);
                vdc_density_csv_num(out, h->cpu_s[r]);
                vdc_density_csv_num(out, h->per_kio[r]);
                vdc_density_csv_num(out, h->per_gib[r]);
                vdc_density_csv_num(out, h->ios);
                vdc_density_csv_num(out, h->bytes);
                vdc_density_csv_num(out, h->memory_bytes[0]);
                vdc_density_csv_num(out, h->memory_bytes[1]);
                vdc_density_csv_num(out, h->cached_bytes[0]);
                vdc_density_csv_num(out, h->cached_bytes[1]);
                vdc_density_csv_num(out, h->dirty_bytes[0]);
                vdc_density_csv_num(out, h->dirty_bytes[1]);
                g_string_append_c(out, '\n');
            }
        }
    return g_string_free(out, FALSE);
}

static void
json_num(JsonObject *o, const char *name, double v)
{
    if (vdc_has(v) && isfinite(v))
        json_object_set_double_member(o, name, v);
    else
        json_object_set_null_member(o, name);
}

static JsonArray *
json_pair(const double v[2])
{
    JsonArray *p = json_array_new();
    size_t i;

    for (i = 0; i < 2; i++)
        if (vdc_has(v[i]))
            json_array_add_double_element(p, v[i]);
        else
            json_array_add_null_element(p);
    return p;
}

JsonArray *
vdc_density_host_json(const struct vdc_analysis *a)
{
    const struct vdc_density *d = &a->density;
    JsonArray *arr;
    size_t li, ti, r;

    if (!d->host)
        return NULL;
    arr = json_array_new();
    for (li = 0; li < d->n_levels; li++)
        for (ti = 0; ti < d->n_targets; ti++) {
            const struct vdc_density_host *h = vdc_density_host_at(d, li, ti);
            JsonObject *o, *roles;

            if (!h)
                continue;
            o = json_object_new();
            roles = json_object_new();
            json_object_set_int_member(o, "level", d->levels[li]);
            json_object_set_string_member(o, "target", d->targets[ti]);
            json_object_set_int_member(o, "n", (gint64)h->n);
            for (r = 0; r < VDC_DENSITY_HOST_ROLES; r++) {
                JsonObject *ro;

                if (!h->n_role[r])
                    continue;
                ro = json_object_new();
                json_object_set_int_member(ro, "n", (gint64)h->n_role[r]);
                json_num(ro, "cpu_s", h->cpu_s[r]);
                json_num(ro, "cpu_s_per_1000_ios", h->per_kio[r]);
                json_num(ro, "cpu_s_per_gib", h->per_gib[r]);
                json_object_set_object_member(roles, vdc_density_host_roles[r], ro);
            }
            json_object_set_object_member(o, "roles", roles);
            json_object_set_boolean_member(o, "loop_shared", h->loop_shared);
            json_num(o, "ios", h->ios);
            json_num(o, "bytes", h->bytes);
            json_object_set_array_member(o, "dom0_memory_bytes", json_pair(h->memory_bytes));
            json_object_set_array_member(o, "dom0_cached_bytes", json_pair(h->cached_bytes));
            json_object_set_array_member(o, "dom0_dirty_bytes", json_pair(h->dirty_bytes));
            json_array_add_object_element(arr, o);
        }
    return arr;
}
