/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp plain reading of single imported runs (report/reading.h). */
#include "config.h"

#include "report/reading.h"
#include "report/analysis.h"
#include "report/layout.h"
#include "report/render_escape.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

/* By how many points two shares must differ to count (reading.h). */
#define ODD_POINTS 10.0
#define AGREE_POINTS 2.0

void
vdc_reading_init(struct vdc_reading *r)
{
    memset(r, 0, sizeof(*r));
}

void
vdc_reading_dispose(struct vdc_reading *r)
{
    g_free(r->share);
    g_free(r->odd);
    g_strfreev(r->lines);
    vdc_reading_init(r);
}

static double
share(const struct vdc_reading *r, const struct vdc_analysis *a, size_t ti, size_t ki)
{
    return r->share[ti * a->n_tests + ki];
}

/* Tests whose order between targets means something about the disk: the
 * sequential and seek tests, dd's, the sweep's (not the file tests:
 * metadata, and the workload jobs). */
static int
ordered_test(const struct vdc_analysis *a, size_t ki)
{
    const struct vdc_cell *c = vdc_analysis_cell(a, 0, ki);

    return c->info && (c->info->group == VDC_TEST_GROUP_IO || c->info->group == VDC_TEST_GROUP_SWEEP);
}

static int
write_test(const struct vdc_analysis *a, size_t ki)
{
    const struct vdc_cell *c = vdc_analysis_cell(a, 0, ki);
    int id = c->info ? (int)c->info->id : -1;

    return id == VDC_TEST_PUTC || id == VDC_TEST_PUT_BLOCK || id == VDC_TEST_REWRITE ||
           id == VDC_TEST_DD_WRITE || id == VDC_TEST_SWEEP_WRITE;
}

/* dom0's RAM under domU target @ti: its own dom0_memory_mib, else the dom0
 * reference's memory; VDC_INT_ABSENT unknown. */
static int64_t
dom0_ram(const struct vdc_reading *r, const struct vdc_analysis *a, const vdc_result_set *rs, size_t ti)
{
    const vdc_target *t = vdc_result_set_find_target(rs, a->targets[ti]);
    const vdc_target *d = r->reference_dom0 ? vdc_result_set_find_target(rs, a->targets[r->reference])
                          : NULL;

    if (t && t->dom0_memory_mib != VDC_INT_ABSENT)
        return t->dom0_memory_mib;
    return d ? vdc_target_machine_memory(rs, d) : VDC_INT_ABSENT;
}

/* The odd tests of the pair (@x, @y): where they swap their usual order. */
static void
find_odd(struct vdc_reading *r, GArray *odd, const struct vdc_analysis *a, const vdc_result_set *rs,
         size_t x, size_t y)
{
    size_t ki, kj, pos = 0, neg = 0;
    int sign;

    for (ki = 0; ki < a->n_tests; ki++) {
        double d = 100 * (share(r, a, x, ki) - share(r, a, y, ki));

        if (!ordered_test(a, ki) || isnan(d) || fabs(d) < AGREE_POINTS)
            continue;
        pos += d > 0;
        neg += d < 0;
    }
    if (pos == neg)
        return;               /* no usual order */
    sign = pos > neg ? 1 : -1;
    for (ki = 0; ki < a->n_tests; ki++) {
        double d = 100 * (share(r, a, x, ki) - share(r, a, y, ki));
        struct vdc_reading_odd o = { .test = ki, .gap_lo = INFINITY, .gap_hi = 0 };

        if (!ordered_test(a, ki) || isnan(d) || d * sign > -ODD_POINTS)
            continue;
        o.ahead = sign > 0 ? y : x;
        o.behind = sign > 0 ? x : y;
        o.share_ahead = share(r, a, o.ahead, ki);
        o.share_behind = share(r, a, o.behind, ki);
        for (kj = 0; kj < a->n_tests; kj++) {
            double e = 100 * (share(r, a, o.behind, kj) - share(r, a, o.ahead, kj));

            if (kj == ki || !ordered_test(a, kj) || isnan(e))
                continue;
            o.n_others++;
            if (e >= AGREE_POINTS) {
                o.n_agree++;
                o.gap_lo = MIN(o.gap_lo, e);
                o.gap_hi = MAX(o.gap_hi, e);
            }
        }
        if (write_test(a, ki) && vdc_result_set_target_role(rs, a->targets[o.ahead]) == VDC_ROLE_IMAGE) {
            o.file_mib = a->files[o.ahead].hi;
            o.dom0_mib = dom0_ram(r, a, rs, o.ahead);
            o.cache = o.dom0_mib == VDC_INT_ABSENT ? -1
                      : o.file_mib > 0 && o.file_mib <= o.dom0_mib ? 1 : 0;
        }
        g_array_append_val(odd, o);
    }
}

static char *
label(const struct vdc_analysis *a, size_t ki)
{
    char buf[VDC_TEST_LABEL_MAX];

    return g_strdup(vdc_analysis_test_label(a, ki, buf, sizeof(buf)));
}

/* "dom0 (Test 3 - Dom0 - LVM)" or the baseline's name */
static char *
reference_name(const struct vdc_reading *r, const struct vdc_analysis *a)
{
    return r->reference_dom0 ? g_strdup_printf("dom0 (%s)", a->targets[r->reference])
                             : g_strdup(a->targets[r->reference]);
}

static char *
odd_sentence(const struct vdc_reading *r, const struct vdc_analysis *a, const struct vdc_reading_odd *o)
{
    GString *s = g_string_new(NULL);
    g_autofree char *lab = label(a, o->test), *ref = reference_name(r, a);
    const char *ah = a->targets[o->ahead], *be = a->targets[o->behind];

    g_string_append_printf(s, "The odd one out, %s: %s reaches %.0f %% of %s and %s %.0f %%", lab, ah,
                           100 * o->share_ahead, ref, be, 100 * o->share_behind);
    if (o->n_agree)
        g_string_append_printf(s, "; on %zu of the other %zu such tests %s is ahead of %s, by %.0f to %.0f "
                               "points", o->n_agree, o->n_others, be, ah, o->gap_lo, o->gap_hi);
    g_string_append(s, ".");
    if (o->cache == 1)
        g_string_append_printf(s, "  Either %s's number is low here, or dom0's page cache absorbed %s's "
                               "writes: its %" G_GINT64_FORMAT " MiB test file fits in dom0's %" G_GINT64_FORMAT
                               " MiB of RAM, and nothing says its backend bypassed dom0's page cache.  A "
                               "suspicion, not a verdict: the write-up has no host evidence (what reached "
                               "the disk under the image), so the dom0-page-cache rule cannot decide; a run "
                               "of vmdiskcmp measures it.", be, ah, o->file_mib, o->dom0_mib);
    else if (o->cache == -1)
        g_string_append_printf(s, "  %s is an image: dom0's page cache may have absorbed its writes, but "
                               "dom0's RAM is not known (import --dom0-ram), so the suspicion can be "
                               "neither weighed nor ruled out.", ah);
    return g_string_free(s, FALSE);
}

static int
same_size(const struct vdc_target_files *f, const struct vdc_target_files *g)
{
    return !f->n_runs || !g->n_runs || (f->lo == g->lo && f->hi == g->hi);
}

/* Whether the reference's test file differs from every other target's
 * that has one (then it is the reference that is said, once). */
static int
reference_alone(const struct vdc_reading *r, const struct vdc_analysis *a)
{
    size_t ti, n = 0;

    for (ti = 0; ti < a->n_targets; ti++) {
        if (ti == r->reference || !a->files[ti].n_runs)
            continue;
        if (same_size(&a->files[ti], &a->files[r->reference]))
            return 0;
        n++;
    }
    return n > 0;
}

/* A target whose test file differs from the reference's (or the
 * reference, when its file differs from all the others'), or is under
 * twice its RAM: named, with its shares on the ordered tests. */
static char *
files_sentence(const struct vdc_reading *r, const struct vdc_analysis *a, size_t ti)
{
    const struct vdc_target_files *f = &a->files[ti], *g = &a->files[r->reference];
    int alone = reference_alone(r, a), differs;
    const struct vdc_target_files *other = NULL;
    GString *s;
    size_t ki, n = 0;

    if (!f->n_runs)
        return NULL;
    if (ti == r->reference) {
        for (ki = 0; ki < a->n_targets && !other; ki++)
            if (ki != ti && a->files[ki].n_runs)
                other = &a->files[ki];
        differs = alone;
    } else {
        other = g;
        differs = !alone && !same_size(f, g);
    }
    if (!differs && !f->n_small)
        return NULL;
    s = g_string_new(NULL);
    g_string_append_printf(s, "%s%s ran a %" G_GINT64_FORMAT " MiB test file", a->targets[ti],
                           ti == r->reference ? ", the reference," : "", f->hi);
    if (differs)
        g_string_append_printf(s, " where %s ran %" G_GINT64_FORMAT " MiB",
                               ti == r->reference ? "the others" : a->targets[r->reference], other->hi);
    if (f->n_small)
        g_string_append_printf(s, "%s under twice the %" G_GINT64_FORMAT " MiB of RAM that can cache it",
                               differs ? "," : "", f->small_ram);
    if (ti == r->reference) {
        g_string_append(s, ": every share mixes the size's effect with the backend's.");
        return g_string_free(s, FALSE);
    }
    g_string_append(s, ": its shares");
    for (ki = 0; ki < a->n_tests; ki++) {
        double v = share(r, a, ti, ki);
        g_autofree char *lab = NULL;

        if (!ordered_test(a, ki) || isnan(v))
            continue;
        lab = label(a, ki);
        g_string_append_printf(s, "%s %.0f %% (%s)", n++ ? "," : "", 100 * v, lab);
    }
    g_string_append(s, f->n_small ? " may be the page cache's, not the disk's."
                                   : " mix the size's effect with the backend's.");
    return g_string_free(s, FALSE);
}

void
vdc_reading_build(struct vdc_analysis *a, const vdc_result_set *rs)
{
    struct vdc_reading *r = &a->reading;
    GArray *odd = g_array_new(FALSE, TRUE, sizeof(struct vdc_reading_odd));
    GPtrArray *lines = g_ptr_array_new();
    size_t ti, tj, ki, n_dom0 = 0, dom0 = 0, most = 0, i;

    vdc_reading_dispose(r);
    for (i = 0; i < a->n_targets * a->n_tests; i++)
        most = MAX(most, a->cells[i].sum.n);
    if (rs->has_experiment || a->n_targets < 2 || most != 1)
        goto out;
    for (ti = 0; ti < a->n_targets; ti++)
        if (vdc_result_set_target_role(rs, a->targets[ti]) == VDC_ROLE_DOM0) {
            n_dom0++;
            dom0 = ti;
        }
    r->present = 1;
    r->reference_dom0 = n_dom0 == 1;
    r->reference = n_dom0 == 1 ? dom0 : a->baseline_index;
    r->share = g_new(double, a->n_targets * a->n_tests + 1);
    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);
            const struct vdc_cell *b = vdc_analysis_cell(a, r->reference, ki);

            r->share[ti * a->n_tests + ki] = c->sum.n && b->sum.n && b->sum.mean > 0
                                             ? c->sum.mean / b->sum.mean : NAN;
        }
    /* the pairs whose order is read: image against LV (the headline's),
     * else the two targets beside the reference */
    for (ti = 0; ti < a->n_targets; ti++)
        for (tj = 0; tj < a->n_targets; tj++)
            if (vdc_result_set_target_role(rs, a->targets[ti]) == VDC_ROLE_IMAGE &&
                vdc_result_set_target_role(rs, a->targets[tj]) == VDC_ROLE_LV)
                find_odd(r, odd, a, rs, ti, tj);
    if (!odd->len && a->n_targets == 3) {
        size_t x = r->reference == 0 ? 1 : 0, y = r->reference == 2 ? 1 : 2;

        find_odd(r, odd, a, rs, x, y);
    }
    r->n_odd = odd->len;
    r->odd = (struct vdc_reading_odd *)(void *)g_array_free(odd, FALSE);
    odd = NULL;
    for (i = 0; i < r->n_odd; i++)
        g_ptr_array_add(lines, odd_sentence(r, a, &r->odd[i]));
    for (ti = 0; ti < a->n_targets; ti++) {
        char *s = files_sentence(r, a, ti);

        if (s)
            g_ptr_array_add(lines, s);
    }
    if (r->reference_dom0)
        for (ti = 0; ti < a->n_targets; ti++)
            for (ki = 0; ki < a->n_tests; ki++) {
                double v = share(r, a, ti, ki);
                g_autofree char *lab = NULL;

                if (ti == r->reference || !ordered_test(a, ki) || isnan(v) || v <= 1.0)
                    continue;
                lab = label(a, ki);
                g_ptr_array_add(lines, g_strdup_printf("%s reaches %.0f %% of dom0 on %s: above the host "
                                                       "it runs on, which one run cannot tell from noise, "
                                                       "or a cache answered.", a->targets[ti], 100 * v,
                                                       lab));
            }
    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);
            const struct vdc_cell *b = vdc_analysis_cell(a, r->reference, ki);
            g_autofree char *lab = NULL;

            if (ti == r->reference || !c->n_sys_per_op || !b->n_sys_per_op)
                continue;
            lab = label(a, ki);
            g_ptr_array_add(lines, g_strdup_printf("%s, system time per operation: %s %.1f us, %s %.1f us "
                                                   "(%+.1f us per operation).", lab, a->targets[ti],
                                                   c->sys_us_per_op, a->targets[r->reference],
                                                   b->sys_us_per_op, c->sys_us_per_op - b->sys_us_per_op));
        }
 out:
    if (odd)
        g_array_free(odd, TRUE);
    g_ptr_array_add(lines, NULL);
    r->lines = (char **)g_ptr_array_free(lines, FALSE);
}

/* The title sentence. */
static char *
title(const struct vdc_analysis *a)
{
    const struct vdc_reading *r = &a->reading;
    g_autofree char *ref = reference_name(r, a);

    return g_strdup_printf("Plain reading (imported, one run a cell: no interval and no test can speak, "
                           "so this is what the numbers show, not a verdict): each target's share of %s "
                           "per test.", ref);
}

/* Whether target @ti has a column in the shares (not the reference, some share). */
static int
share_column(const struct vdc_analysis *a, size_t ti)
{
    const struct vdc_reading *r = &a->reading;
    size_t ki;

    if (ti == r->reference)
        return 0;
    for (ki = 0; ki < a->n_tests; ki++)
        if (!isnan(share(r, a, ti, ki)))
            return 1;
    return 0;
}

static int
share_row(const struct vdc_analysis *a, size_t ki)
{
    size_t ti;

    for (ti = 0; ti < a->n_targets; ti++)
        if (share_column(a, ti) && !isnan(share(&a->reading, a, ti, ki)))
            return 1;
    return 0;
}

/* reading.h */
void
vdc_append_reading_text(GString *out, const struct vdc_analysis *a, char **names, const char *indent,
                        int width)
{
    const struct vdc_reading *r = &a->reading;
    g_autofree char *t = NULL, *sub = g_strdup_printf("%s  ", indent), *cont = g_strdup_printf("%s    ", indent);
    size_t ti, ki, first = 0, i;
    int lw = 4, cw = 7;
    char buf[32];

    if (!r->present)
        return;
    t = title(a);
    vdc_layout_wrap(out, indent, sub, t, width);
    for (ki = 0; ki < a->n_tests; ki++)
        if (share_row(a, ki)) {
            char lab[VDC_TEST_LABEL_MAX];

            lw = MAX(lw, vdc_layout_width(vdc_analysis_test_label(a, ki, lab, sizeof(lab))));
        }
    for (ti = 0; ti < a->n_targets; ti++)
        if (share_column(a, ti))
            cw = MAX(cw, vdc_layout_width(names[ti]) + 1);
    /* columns in blocks that fit @width */
    while (first < a->n_targets) {
        size_t last = first;
        int used = vdc_layout_width(sub) + lw;

        for (ti = first; ti < a->n_targets; ti++) {
            if (!share_column(a, ti))
                continue;
            if (used + cw > width && last > first)
                break;
            used += cw;
            last = ti + 1;
        }
        if (last == first)
            break;
        g_string_append(out, sub);
        vdc_layout_pad(out, "test", lw, 0);
        for (ti = first; ti < last; ti++)
            if (share_column(a, ti))
                vdc_layout_pad(out, names[ti], cw, 1);
        g_string_append_c(out, '\n');
        for (ki = 0; ki < a->n_tests; ki++) {
            char lab[VDC_TEST_LABEL_MAX];

            if (!share_row(a, ki))
                continue;
            g_string_append(out, sub);
            vdc_layout_pad(out, vdc_analysis_test_label(a, ki, lab, sizeof(lab)), lw, 0);
            for (ti = first; ti < last; ti++) {
                double v = share(r, a, ti, ki);

                if (!share_column(a, ti))
                    continue;
                if (isnan(v))
                    snprintf(buf, sizeof(buf), "-");
                else
                    snprintf(buf, sizeof(buf), "%.0f %%", 100 * v);
                vdc_layout_pad(out, buf, cw, 1);
            }
            g_string_append_c(out, '\n');
        }
        first = last;
    }
    for (i = 0; r->lines[i]; i++)
        vdc_layout_wrap(out, sub, cont, r->lines[i], width);
}

/* How the share table and the lines are written in Markdown and in HTML:
 * one walk over the table (share_table), two sets of delimiters. */
struct table_dialect {
    const char *head_open, *head_cell_open, *head_cell_close, *head_close;
    const char *row_open, *label_close, *cell_open, *cell_close, *row_close;
    const char *dash;                   /* an empty cell's text */
    const char *item_open, *item_close; /* one line of the reading */
    void (*esc)(GString *out, const char *s);
};

static const struct table_dialect md_dialect = {
    .head_open = "| test |", .head_cell_open = " ", .head_cell_close = " |", .head_close = "\n",
    .row_open = "| ", .label_close = " |", .cell_open = " ", .cell_close = " |", .row_close = "\n",
    .dash = "-", .item_open = "- ", .item_close = "\n", .esc = vdc_md_escape,
};

static const struct table_dialect html_dialect = {
    .head_open = "<tr><th>test</th>", .head_cell_open = "<th>", .head_cell_close = "</th>",
    .head_close = "</tr>\n", .row_open = "<tr><td>", .label_close = "</td>", .cell_open = "<td>",
    .cell_close = "</td>", .row_close = "</tr>\n", .dash = "-", .item_open = "<li>", .item_close = "</li>\n",
    .esc = vdc_html_escape,
};

/* the share table's header row (the targets with a share) */
static void
share_header(GString *out, const struct vdc_analysis *a, const struct table_dialect *d)
{
    g_string_append(out, d->head_open);
    for (size_t ti = 0; ti < a->n_targets; ti++)
        if (share_column(a, ti)) {
            g_string_append(out, d->head_cell_open);
            d->esc(out, a->targets[ti]);
            g_string_append(out, d->head_cell_close);
        }
    g_string_append(out, d->head_close);
}

/* the share table's rows, one a test with a share */
static void
share_rows(GString *out, const struct vdc_analysis *a, const struct table_dialect *d)
{
    for (size_t ki = 0; ki < a->n_tests; ki++) {
        char lab[VDC_TEST_LABEL_MAX];

        if (!share_row(a, ki))
            continue;
        g_string_append(out, d->row_open);
        d->esc(out, vdc_analysis_test_label(a, ki, lab, sizeof(lab)));
        g_string_append(out, d->label_close);
        for (size_t ti = 0; ti < a->n_targets; ti++) {
            double v = share(&a->reading, a, ti, ki);

            if (!share_column(a, ti))
                continue;
            g_string_append(out, d->cell_open);
            if (isnan(v))
                g_string_append(out, d->dash);
            else
                g_string_append_printf(out, "%.0f %%", 100 * v);
            g_string_append(out, d->cell_close);
        }
        g_string_append(out, d->row_close);
    }
}

/* the reading's lines, one item each */
static void
reading_items(GString *out, const struct vdc_reading *r, const struct table_dialect *d)
{
    for (size_t i = 0; r->lines[i]; i++) {
        g_string_append(out, d->item_open);
        d->esc(out, r->lines[i]);
        g_string_append(out, d->item_close);
    }
}

/* reading.h */
void
vdc_append_reading_md(GString *out, const struct vdc_analysis *a)
{
    g_autofree char *t = NULL;

    if (!a->reading.present)
        return;
    t = title(a);
    vdc_md_escape(out, t);
    g_string_append(out, "\n\n");
    share_header(out, a, &md_dialect);
    g_string_append(out, "|---|");
    for (size_t ti = 0; ti < a->n_targets; ti++)
        if (share_column(a, ti))
            g_string_append(out, "---:|");
    g_string_append_c(out, '\n');
    share_rows(out, a, &md_dialect);
    g_string_append_c(out, '\n');
    reading_items(out, &a->reading, &md_dialect);
    g_string_append_c(out, '\n');
}

/* reading.h */
void
vdc_append_reading_html(GString *out, const struct vdc_analysis *a)
{
    g_autofree char *t = NULL;

    if (!a->reading.present)
        return;
    t = title(a);
    g_string_append(out, "<section id=\"reading\">\n<h2>Plain reading</h2>\n<p class=\"note\">");
    vdc_html_escape(out, t);
    g_string_append(out, "</p>\n<table class=\"reading\">\n");
    share_header(out, a, &html_dialect);
    share_rows(out, a, &html_dialect);
    g_string_append(out, "</table>\n<ul>\n");
    reading_items(out, &a->reading, &html_dialect);
    g_string_append(out, "</ul>\n</section>\n");
}

/* reading.h */
JsonObject *
vdc_reading_json(const struct vdc_analysis *a)
{
    const struct vdc_reading *r = &a->reading;
    JsonObject *o;
    JsonArray *shares, *lines;
    size_t ti, ki, i;

    if (!r->present)
        return NULL;
    o = json_object_new();
    shares = json_array_new();
    lines = json_array_new();
    json_object_set_string_member(o, "reference", a->targets[r->reference]);
    json_object_set_boolean_member(o, "reference_is_dom0", r->reference_dom0);
    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++) {
            double v = share(r, a, ti, ki);
            JsonObject *s;

            if (ti == r->reference || isnan(v))
                continue;
            s = json_object_new();
            json_object_set_string_member(s, "target", a->targets[ti]);
            json_object_set_string_member(s, "test", a->tests[ki]);
            json_object_set_double_member(s, "share", v);
            json_array_add_object_element(shares, s);
        }
    json_object_set_array_member(o, "shares", shares);
    for (i = 0; r->lines[i]; i++)
        json_array_add_string_element(lines, r->lines[i]);
    json_object_set_array_member(o, "lines", lines);
    return o;
}
