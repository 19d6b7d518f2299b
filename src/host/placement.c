/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Placement of an image's blocks and an LV's extents on their disk
 * (placement.h). */
#include "config.h"
#include "host/placement.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <json-glib/json-glib.h>

#include "common/child.h"
#include "common/util.h"
#include "host/text.h"

#define FIEMAP_BATCH 512u
/* extents whose physical offset says nothing about where the data is */
#define NO_PLACE (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC | FIEMAP_EXTENT_DATA_INLINE | \
                  FIEMAP_EXTENT_DATA_TAIL)

void
vdc_blockdev_pos_dispose(vdc_blockdev_pos *p)
{
    if (!p)
        return;
    g_clear_pointer(&p->device, g_free);
    g_clear_pointer(&p->disk, g_free);
}

void
vdc_placement_dispose(vdc_placement *p)
{
    if (!p)
        return;
    vdc_blockdev_pos_dispose(&p->pos);
    if (p->ranges)
        g_array_unref(p->ranges);
    p->ranges = NULL;
}

static gint
range_cmp(gconstpointer a, gconstpointer b)
{
    const vdc_byte_range *x = a, *y = b;

    return x->start < y->start ? -1 : x->start > y->start;
}

/* sort @r and merge overlapping or touching ranges, in place */
static void
ranges_merge(GArray *r)
{
    guint i, w = 0;

    if (r->len < 2)
        return;
    g_array_sort(r, range_cmp);
    for (i = 1; i < r->len; i++) {
        vdc_byte_range *cur = &g_array_index(r, vdc_byte_range, w);
        const vdc_byte_range *nx = &g_array_index(r, vdc_byte_range, i);

        if (nx->start <= cur->start + cur->length) {
            uint64_t end = MAX(cur->start + cur->length, nx->start + nx->length);
            cur->length = end - cur->start;
        } else {
            g_array_index(r, vdc_byte_range, ++w) = *nx;
        }
    }
    g_array_set_size(r, w + 1);
}

uint64_t
vdc_extents_to_ranges(const vdc_extent *ext, size_t n, uint64_t dev_start, GArray *ranges,
                      uint64_t *unmapped)
{
    uint64_t mapped = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        vdc_byte_range r = { dev_start + ext[i].physical, ext[i].length };

        if (ext[i].flags & NO_PLACE) {
            *unmapped += ext[i].length;
            continue;
        }
        g_array_append_val(ranges, r);
        mapped += ext[i].length;
    }
    ranges_merge(ranges);
    return mapped;
}

double
vdc_ranges_center(const GArray *ranges)
{
    double sum = 0, w = 0;
    guint i;

    for (i = 0; ranges && i < ranges->len; i++) {
        const vdc_byte_range *r = &g_array_index(ranges, vdc_byte_range, i);

        sum += ((double)r->start + (double)r->length / 2) * (double)r->length;
        w += (double)r->length;
    }
    return w > 0 ? sum / w : 0;
}

/* ---- lvm2 reports ------------------------------------------------------------------ */

int
vdc_pe_ranges_parse(const char *text, const char *source, GPtrArray *pvs, GArray *first,
                    GArray *last)
{
    g_auto(GStrv) words = g_strsplit(text ? text : "", " ", -1);
    size_t i, n = 0;

    for (i = 0; words[i]; i++) {
        const char *colon, *p;
        uint64_t a, b;

        if (!*words[i])
            continue;
        colon = strrchr(words[i], ':');
        p = colon ? colon + 1 : NULL;
        if (!colon || colon == words[i] || vdc_parse_u64_word(&p, &a) < 0 || *p++ != '-' ||
            vdc_parse_u64_word(&p, &b) < 0 || *p || b < a) {
            vdc_error("%s: seg_pe_ranges: expected PV:FIRST-LAST, got '%s'", source, words[i]);
            return -1;
        }
        g_ptr_array_add(pvs, g_strndup(words[i], (gsize)(colon - words[i])));
        g_array_append_val(first, a);
        g_array_append_val(last, b);
        n++;
    }
    if (!n) {
        vdc_error("%s: seg_pe_ranges: empty (a segment without PVs, e.g. a thin or virtual LV)",
                  source);
        return -1;
    }
    return 0;
}

/* Every row object of an lvm2 JSON report ({"report": [{"KIND": [ROW...]}]}),
 * whatever KIND the command used ("lv", "seg", "pv"); NULL after vdc_error. */
static GPtrArray *
lvm_report_rows(JsonParser *parser, const char *json, const char *source)
{
    g_autoptr(GError) err = NULL;
    GPtrArray *rows;
    JsonNode *root;
    JsonArray *report;
    guint i;

    if (!json_parser_load_from_data(parser, json ? json : "", -1, &err)) {
        vdc_error("%s: not JSON: %s", source, err->message);
        return NULL;
    }
    root = json_parser_get_root(parser);
    if (!root || !JSON_NODE_HOLDS_OBJECT(root) ||
        !json_object_has_member(json_node_get_object(root), "report") ||
        !JSON_NODE_HOLDS_ARRAY(json_object_get_member(json_node_get_object(root), "report"))) {
        vdc_error("%s: expected an lvm2 JSON report {\"report\": [...]}", source);
        return NULL;
    }
    report = json_object_get_array_member(json_node_get_object(root), "report");
    rows = g_ptr_array_new();
    for (i = 0; i < json_array_get_length(report); i++) {
        JsonNode *e = json_array_get_element(report, i);
        g_autoptr(GList) members = NULL;
        GList *m;

        if (!JSON_NODE_HOLDS_OBJECT(e))
            continue;
        members = json_object_get_members(json_node_get_object(e));
        for (m = members; m; m = m->next) {
            JsonNode *a = json_object_get_member(json_node_get_object(e), m->data);
            guint k;

            if (!JSON_NODE_HOLDS_ARRAY(a))
                continue;
            for (k = 0; k < json_array_get_length(json_node_get_array(a)); k++) {
                JsonNode *row = json_array_get_element(json_node_get_array(a), k);

                if (JSON_NODE_HOLDS_OBJECT(row))
                    g_ptr_array_add(rows, json_node_get_object(row));
            }
        }
    }
    return rows;
}

/* a row's string member, or NULL */
static const char *
row_str(JsonObject *row, const char *name)
{
    JsonNode *n = json_object_get_member(row, name);

    return n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING
               ? json_node_get_string(n) : NULL;
}

static int
row_u64(JsonObject *row, const char *name, const char *source, uint64_t *v)
{
    const char *s = row_str(row, name);

    if (!s || vdc_parse_u64_text(s, v) < 0) {
        vdc_error("%s: %s: expected a byte count as a string (--units b --nosuffix), got %s%s%s",
                  source, name, s ? "'" : "", s ? s : "none", s ? "'" : "");
        return -1;
    }
    return 0;
}

int
vdc_lvs_segments_parse(const char *json, const char *source, const char *vg, const char *lv,
                       GPtrArray *pvs, GArray *first, GArray *last, uint64_t *extent_size)
{
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autoptr(GPtrArray) rows = lvm_report_rows(parser, json, source);
    size_t i, segs = 0;

    if (!rows)
        return -1;
    for (i = 0; i < rows->len; i++) {
        JsonObject *row = g_ptr_array_index(rows, i);
        const char *v = row_str(row, "vg_name"), *l = row_str(row, "lv_name");

        if (!v || !l || strcmp(v, vg) || strcmp(l, lv))
            continue;
        if (row_u64(row, "vg_extent_size", source, extent_size) < 0 ||
            vdc_pe_ranges_parse(row_str(row, "seg_pe_ranges"), source, pvs, first, last) < 0)
            return -1;
        if (*extent_size == 0) {
            vdc_error("%s: vg_extent_size: expected a positive size", source);
            return -1;
        }
        segs++;
    }
    if (!segs) {
        vdc_error("%s: no segment of LV %s/%s", source, vg, lv);
        return -1;
    }
    return 0;
}

int
vdc_pvs_pe_start_parse(const char *json, const char *source, const char *pv, uint64_t *pe_start)
{
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autoptr(GPtrArray) rows = lvm_report_rows(parser, json, source);
    size_t i;

    if (!rows)
        return -1;
    for (i = 0; i < rows->len; i++) {
        JsonObject *row = g_ptr_array_index(rows, i);
        const char *name = row_str(row, "pv_name");

        if (name && !strcmp(name, pv))
            return row_u64(row, "pe_start", source, pe_start);
    }
    vdc_error("%s: no PV %s", source, pv);
    return -1;
}

void
vdc_thin_facts_dispose(vdc_thin_facts *f)
{
    if (!f)
        return;
    g_clear_pointer(&f->discards, g_free);
}

/* a percentage member ("12.34"; "" when lvm2 has none), NAN when absent */
static double
row_percent(JsonObject *row, const char *name)
{
    const char *s = row_str(row, name);
    char *end = NULL;
    double v;

    if (!s || !*s)
        return NAN;
    v = g_ascii_strtod(s, &end);
    return end && !*end && v >= 0 && v <= 100 ? v : NAN;
}

int
vdc_lvs_thin_parse(const char *json, const char *source, const char *vg, const char *pool,
                   vdc_thin_facts *out)
{
    g_autoptr(JsonParser) parser = json_parser_new();
    g_autoptr(GPtrArray) rows = lvm_report_rows(parser, json, source);
    size_t i;

    memset(out, 0, sizeof(*out));
    out->zero = -1;
    out->data_percent = out->metadata_percent = NAN;
    if (!rows)
        return -1;
    for (i = 0; i < rows->len; i++) {
        JsonObject *row = g_ptr_array_index(rows, i);
        const char *v = row_str(row, "vg_name"), *l = row_str(row, "lv_name");
        const char *seg = row_str(row, "segtype"), *zero = row_str(row, "zero");
        const char *discards = row_str(row, "discards");

        if ((v && strcmp(v, vg)) || !l || strcmp(l, pool))
            continue;
        if (!seg || strcmp(seg, "thin-pool")) {
            vdc_error("%s: LV %s/%s: segtype %s: expected thin-pool", source, vg, pool,
                      seg ? seg : "none");
            return -1;
        }
        if (row_u64(row, "chunk_size", source, &out->chunk_size) < 0 ||
            row_u64(row, "lv_size", source, &out->pool_size) < 0 ||
            row_u64(row, "lv_metadata_size", source, &out->metadata_size) < 0)
            return -1;
        if (!out->chunk_size) {
            vdc_error("%s: chunk_size: expected a positive size", source);
            return -1;
        }
        /* --binary: "1"/"0"; without it "zero"/"" */
        if (zero)
            out->zero = !strcmp(zero, "1") || !strcmp(zero, "zero") ? 1
                      : !strcmp(zero, "0") || !*zero ? 0 : -1;
        out->discards = discards && *discards ? g_strdup(discards) : NULL;
        out->data_percent = row_percent(row, "data_percent");
        out->metadata_percent = row_percent(row, "metadata_percent");
        return 0;
    }
    vdc_error("%s: no thin pool %s/%s", source, vg, pool);
    return -1;
}

/* ---- readers ------------------------------------------------------------------------ */

static char *
sysfs_line(const char *dir, const char *name)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    char *text = NULL;

    if (!g_file_get_contents(path, &text, NULL, NULL))
        return NULL;
    return g_strchomp(text);
}

int
vdc_blockdev_pos_read(unsigned major, unsigned minor, vdc_blockdev_pos *out)
{
    g_autofree char *link = g_strdup_printf("/sys/dev/block/%u:%u", major, minor);
    g_autofree char *part = NULL, *diskdir = NULL, *start = NULL, *size = NULL, *rot = NULL;
    g_autofree char *dm = NULL, *queue = NULL;
    char real[PATH_MAX];
    uint64_t v;

    memset(out, 0, sizeof(*out));
    out->rotational = -1;
    if (!realpath(link, real)) {
        vdc_error("block device %u:%u: %s: %s", major, minor, link, g_strerror(errno));
        return -1;
    }
    out->device = g_path_get_basename(real);
    part = g_build_filename(real, "partition", NULL);
    dm = g_build_filename(real, "dm", NULL);
    out->is_dm = g_file_test(dm, G_FILE_TEST_IS_DIR);
    if (g_file_test(part, G_FILE_TEST_EXISTS)) {
        diskdir = g_path_get_dirname(real);
        start = sysfs_line(real, "start");
        if (!start || vdc_parse_u64_text(start, &v) < 0 || v > UINT64_MAX / 512) {
            vdc_error("block device %s: %s/start: expected a sector count", out->device, real);
            vdc_blockdev_pos_dispose(out);
            return -1;
        }
        out->start = v * 512;
    } else {
        diskdir = g_strdup(real);
    }
    out->disk = g_path_get_basename(diskdir);
    size = sysfs_line(diskdir, "size");
    if (size && vdc_parse_u64_text(size, &v) == 0 && v <= UINT64_MAX / 512)
        out->disk_bytes = v * 512;
    queue = g_build_filename(diskdir, "queue", NULL);
    rot = sysfs_line(queue, "rotational");
    if (rot && vdc_parse_u64_text(rot, &v) == 0)
        out->rotational = v != 0;
    return 0;
}

/* FIEMAP of @fd, every extent, into @ext (vdc_extent).  0 or -1 (errno). */
static int
fiemap_all(int fd, GArray *ext)
{
    size_t sz = sizeof(struct fiemap) + FIEMAP_BATCH * sizeof(struct fiemap_extent);
    g_autofree struct fiemap *fm = g_malloc0(sz);
    uint64_t start = 0;

    for (;;) {
        unsigned i;
        int last = 0;

        memset(fm, 0, sz);
        fm->fm_start = start;
        fm->fm_length = FIEMAP_MAX_OFFSET - start;
        fm->fm_extent_count = FIEMAP_BATCH;
        if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0)
            return -1;
        if (fm->fm_mapped_extents == 0)
            return 0;
        for (i = 0; i < fm->fm_mapped_extents; i++) {
            const struct fiemap_extent *fe = &fm->fm_extents[i];
            vdc_extent e = { fe->fe_logical, fe->fe_physical, fe->fe_length, fe->fe_flags };

            g_array_append_val(ext, e);
            start = fe->fe_logical + fe->fe_length;
            if (fe->fe_flags & FIEMAP_EXTENT_LAST)
                last = 1;
        }
        if (last)
            return 0;
    }
}

int
vdc_image_placement_read(const char *path, vdc_placement *out)
{
    g_autoptr(GArray) ext = g_array_new(FALSE, FALSE, sizeof(vdc_extent));
    struct stat sb;
    int fd, r;

    memset(out, 0, sizeof(*out));
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        vdc_error("placement of %s: %s", path, g_strerror(errno));
        return -1;
    }
    r = fstat(fd, &sb);
    if (r == 0 && !S_ISREG(sb.st_mode)) {
        close(fd);
        vdc_error("placement of %s: expected a regular file", path);
        return -1;
    }
    if (r < 0 || fiemap_all(fd, ext) < 0) {
        int e = errno;

        close(fd);
        vdc_error("placement of %s: FIEMAP: %s%s", path, g_strerror(e),
                  e == EOPNOTSUPP ? " (the filesystem cannot say where a file's blocks are)" : "");
        return -1;
    }
    close(fd);
    if (vdc_blockdev_pos_read(major(sb.st_dev), minor(sb.st_dev), &out->pos) < 0)
        return -1;
    out->ranges = g_array_new(FALSE, FALSE, sizeof(vdc_byte_range));
    out->extents = ext->len;
    out->mapped_bytes = vdc_extents_to_ranges((vdc_extent *)(void *)ext->data, ext->len,
                                              out->pos.start, out->ranges, &out->unmapped_bytes);
    return 0;
}

/* lvm2's report commands get this long (a hung VG must not hang the run),
 * and their JSON this many bytes (a host with thousands of PVs and LV
 * segments stays far below it). */
#define LVM_REPORT_TIMEOUT_MS 60000u
#define LVM_REPORT_MAX (16u << 20)

/* Run an lvm2 report command; its stdout, or NULL after vdc_error. */
static char *
lvm_report(const char *cmd, const char *fields, const char *what, const char *const *extra)
{
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    vdc_child_opts o = { .timeout_ms = LVM_REPORT_TIMEOUT_MS, .out = VDC_CHILD_CAPTURE,
                         .err = VDC_CHILD_CAPTURE_APART, .capture_max = LVM_REPORT_MAX };
    vdc_child_result r;
    char *out = NULL;
    size_t i;

    g_ptr_array_add(argv, (char *)cmd);
    for (i = 0; extra && extra[i]; i++)
        g_ptr_array_add(argv, (char *)extra[i]);
    g_ptr_array_add(argv, (char *)"--reportformat");
    g_ptr_array_add(argv, (char *)"json");
    g_ptr_array_add(argv, (char *)"--units");
    g_ptr_array_add(argv, (char *)"b");
    g_ptr_array_add(argv, (char *)"--nosuffix");
    g_ptr_array_add(argv, (char *)"-o");
    g_ptr_array_add(argv, (char *)fields);
    if (what)
        g_ptr_array_add(argv, (char *)what);
    g_ptr_array_add(argv, NULL);
    o.argv = (char *const *)argv->pdata;
    if (vdc_child_run(&o, &r) < 0)
        return NULL;
    if (r.timed_out)
        vdc_error("%s %s: no answer in %u s", cmd, what ? what : "", LVM_REPORT_TIMEOUT_MS / 1000);
    else if (vdc_child_code(&r) != 0 || r.out_truncated)
        vdc_error("%s %s failed: %s", cmd, what ? what : "",
                  r.out_truncated ? "its report is larger than we read"
                  : *g_strstrip(r.err) ? r.err : "no message");
    else
        out = g_steal_pointer(&r.out);
    vdc_child_result_dispose(&r);
    return out;
}

int
vdc_thin_facts_read(const char *vg, const char *pool, const char *const *lvm_args,
                    vdc_thin_facts *out)
{
    g_autofree char *what = g_strdup_printf("%s/%s", vg, pool);
    g_autoptr(GPtrArray) args = g_ptr_array_new();
    g_autofree char *json = NULL;
    size_t i;

    for (i = 0; lvm_args && lvm_args[i]; i++)
        g_ptr_array_add(args, (char *)lvm_args[i]);
    g_ptr_array_add(args, (char *)"--binary");
    g_ptr_array_add(args, NULL);
    json = lvm_report("lvs", "vg_name,lv_name,segtype,chunk_size,zero,discards,data_percent,"
                             "metadata_percent,lv_size,lv_metadata_size", what,
                      (const char *const *)args->pdata);
    return json ? vdc_lvs_thin_parse(json, "lvs", vg, pool, out) : -1;
}

int
vdc_lv_placement_read(const char *vg, const char *lv, const char *const *lvm_args,
                      vdc_placement *out)
{
    g_autofree char *what = g_strdup_printf("%s/%s", vg, lv);
    g_autofree char *lvs = NULL, *pvs = NULL;
    g_autoptr(GPtrArray) pv = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GArray) first = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    g_autoptr(GArray) last = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    uint64_t extent = 0;
    guint i;

    memset(out, 0, sizeof(*out));
    lvs = lvm_report("lvs", "vg_name,lv_name,seg_pe_ranges,vg_extent_size", what, lvm_args);
    if (!lvs || vdc_lvs_segments_parse(lvs, "lvs", vg, lv, pv, first, last, &extent) < 0)
        return -1;
    pvs = lvm_report("pvs", "pv_name,pe_start", NULL, lvm_args);
    if (!pvs)
        return -1;
    out->ranges = g_array_new(FALSE, FALSE, sizeof(vdc_byte_range));
    for (i = 0; i < pv->len; i++) {
        const char *name = g_ptr_array_index(pv, i);
        vdc_blockdev_pos pos;
        uint64_t pe_start, a = g_array_index(first, uint64_t, i), b = g_array_index(last, uint64_t, i);
        vdc_byte_range r;
        struct stat sb;

        if (vdc_pvs_pe_start_parse(pvs, "pvs", name, &pe_start) < 0)
            goto fail;
        if (stat(name, &sb) < 0 || !S_ISBLK(sb.st_mode)) {
            vdc_error("LV %s: PV %s: expected a block device", what, name);
            goto fail;
        }
        if (vdc_blockdev_pos_read(major(sb.st_rdev), minor(sb.st_rdev), &pos) < 0)
            goto fail;
        r.start = pos.start + pe_start + a * extent;
        r.length = (b - a + 1) * extent;
        if (i == 0) {
            out->pos = pos;
            out->pe_start = pe_start;
            out->extent_size = extent;
        } else {
            int same = !strcmp(pos.disk, out->pos.disk);

            vdc_blockdev_pos_dispose(&pos);
            if (!same) {
                vdc_error("LV %s: segments on PVs of different disks (%s and %s): no one "
                          "disk to place it on", what, out->pos.disk, name);
                goto fail;
            }
        }
        g_array_append_val(out->ranges, r);
        out->mapped_bytes += r.length;
    }
    out->extents = pv->len;
    ranges_merge(out->ranges);
    return 0;
fail:
    vdc_placement_dispose(out);
    return -1;
}
