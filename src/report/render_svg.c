/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp SVG canvas (render_svg.h). */
#include "config.h"

#include "report/render_svg.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cairo-svg.h>
#include <glib.h>

#include "common/util.h"

/* What a canvas keeps beside its cairo context (cairo user data). */
struct canvas {
    GString *svg;                /* cairo's document */
    GString *text;               /* the <text> elements */
    const char *cls;             /* the class of the next texts, or NULL */
};

static const cairo_user_data_key_t canvas_key;

static cairo_status_t
svg_write(void *closure, const unsigned char *data, unsigned int length)
{
    g_string_append_len(closure, (const char *)data, length);
    return CAIRO_STATUS_SUCCESS;
}

static void
canvas_free(void *p)
{
    struct canvas *c = p;

    g_string_free(c->svg, TRUE);
    g_string_free(c->text, TRUE);
    g_free(c);
}

cairo_t *
vdc_svg_begin(double w, double h)
{
    struct canvas *c = g_new0(struct canvas, 1);
    cairo_surface_t *s;
    cairo_t *cr;

    c->svg = g_string_new(NULL);
    c->text = g_string_new(NULL);
    s = cairo_svg_surface_create_for_stream(svg_write, c->svg, w, h);
    cr = cairo_create(s);
    cairo_surface_destroy(s);    /* cr holds it */
    cairo_set_user_data(cr, &canvas_key, c, canvas_free);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    return cr;
}

char *
vdc_svg_finish(cairo_t *cr, const char *what)
{
    struct canvas *c = cairo_get_user_data(cr, &canvas_key);
    cairo_surface_t *s = cairo_get_target(cr);
    cairo_status_t st;
    const char *start, *end;
    GString *out;

    cairo_surface_finish(s);
    st = cairo_surface_status(s);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_status(cr);
    if (st != CAIRO_STATUS_SUCCESS || !c) {
        vdc_error("chart '%s': cairo SVG surface: %s", what, cairo_status_to_string(st));
        cairo_destroy(cr);
        return NULL;
    }
    start = strstr(c->svg->str, "<svg");
    start = start ? start : c->svg->str;
    end = g_strrstr(start, "</svg>");
    out = g_string_new_len(start, end ? end - start : (gssize)strlen(start));
    g_string_append_printf(out, "<g font-family=\"DejaVu Sans, Verdana, sans-serif\">\n%s</g>\n</svg>",
                           c->text->str);
    cairo_destroy(cr);
    return g_string_free(out, FALSE);
}

double
vdc_svg_text_width(cairo_t *cr, const char *s)
{
    cairo_text_extents_t e;

    cairo_text_extents(cr, s, &e);
    return e.x_advance;
}

/* "#1a1a1a" of @cr's source (black when it is not a solid colour) */
static void
source_colour(cairo_t *cr, char *buf, size_t size, double *alpha)
{
    double r = 0, g = 0, b = 0, a = 1;

    if (cairo_pattern_get_rgba(cairo_get_source(cr), &r, &g, &b, &a) != CAIRO_STATUS_SUCCESS)
        r = g = b = 0, a = 1;
    snprintf(buf, size, "#%02x%02x%02x", (unsigned)lround(r * 255), (unsigned)lround(g * 255),
             (unsigned)lround(b * 255));
    *alpha = a;
}

void
vdc_svg_set_class(cairo_t *cr, const char *cls)
{
    struct canvas *c = cairo_get_user_data(cr, &canvas_key);

    if (c)
        c->cls = cls;
}

/* One <text> of @n lines (@lines[0] at (@x, @y), each next @line lower as
 * a <tspan>), aligned by @align, in @cr's font, colour and turn; returns
 * the widest line's width. */
static double
svg_text_lines(cairo_t *cr, double x, double y, const char *const *lines, size_t n, double line, double align)
{
    struct canvas *c = cairo_get_user_data(cr, &canvas_key);
    double w = 0, dx = x, dy = y, ux = 1, uy = 0, lx = 0, ly = line, alpha;
    cairo_matrix_t fm;
    cairo_font_face_t *face = cairo_get_font_face(cr);
    char colour[16];
    int bold = cairo_font_face_get_type(face) == CAIRO_FONT_TYPE_TOY &&
               cairo_toy_font_face_get_weight(face) == CAIRO_FONT_WEIGHT_BOLD;
    size_t i;

    for (i = 0; i < n; i++)
        w = fmax(w, vdc_svg_text_width(cr, lines[i]));
    if (!c)
        return w;
    cairo_get_font_matrix(cr, &fm);
    /* where the text starts and which way it runs, in device space */
    cairo_user_to_device(cr, &dx, &dy);
    cairo_user_to_device_distance(cr, &ux, &uy);
    cairo_user_to_device_distance(cr, &lx, &ly);
    source_colour(cr, colour, sizeof(colour), &alpha);
    g_string_append_printf(c->text, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%.1f\"%s fill=\"%s\"", dx, dy,
                           fm.xx, bold ? " font-weight=\"bold\"" : "", colour);
    if (c->cls)
        g_string_append_printf(c->text, " class=\"%s\"", c->cls);
    if (alpha < 1)
        g_string_append_printf(c->text, " fill-opacity=\"%.2f\"", alpha);
    if (align > 0.75)
        g_string_append(c->text, " text-anchor=\"end\"");
    else if (align > 0.25)
        g_string_append(c->text, " text-anchor=\"middle\"");
    if (fabs(uy) > 1e-9)    /* turned: a rotated label */
        g_string_append_printf(c->text, " transform=\"rotate(%.1f %.1f %.1f)\"", atan2(uy, ux) * 180 / M_PI,
                               dx, dy);
    g_string_append_c(c->text, '>');
    for (i = 0; i < n; i++) {
        char *e = g_markup_escape_text(lines[i], -1);

        if (n == 1)
            g_string_append(c->text, e);
        else    /* each line from the text's x, @line below the last (in the text's own turn) */
            g_string_append_printf(c->text, "<tspan x=\"%.1f\" dy=\"%.1f\">%s</tspan>", dx,
                                   i ? hypot(lx, ly) : 0.0, e);
        g_free(e);
    }
    g_string_append(c->text, "</text>\n");
    return w;
}

double
vdc_svg_text(cairo_t *cr, double x, double y, const char *s, double align)
{
    return svg_text_lines(cr, x, y, &s, 1, 0, align);
}

double
vdc_svg_measure(const char *s, double size, int bold)
{
    cairo_surface_t *sf = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
    cairo_t *cr = cairo_create(sf);
    double w;

    cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                           bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
    cairo_set_font_size(cr, size);
    w = vdc_svg_text_width(cr, s);
    cairo_destroy(cr);
    cairo_surface_destroy(sf);
    return w;
}

/* a key's width: marker, gap, label, space after */
static double
key_width(const struct vdc_svg_key *k, double size)
{
    return size * 1.4 + vdc_svg_measure(k->label, size, 0) + size * 1.6;
}

size_t
vdc_svg_legend_rows(const struct vdc_svg_key *keys, size_t n, double width, double size)
{
    size_t i, rows = n ? 1 : 0;
    double x = 0;

    for (i = 0; i < n; i++) {
        double w = key_width(&keys[i], size);

        if (x > 0 && x + w > width) {
            rows++;
            x = 0;
        }
        x += w;
    }
    return rows;
}

size_t
vdc_svg_legend(cairo_t *cr, const struct vdc_svg_key *keys, size_t n, double x0, double width, double y,
               double size, double line, enum vdc_svg_marker marker)
{
    struct canvas *cv = cairo_get_user_data(cr, &canvas_key);
    const char *was = cv ? cv->cls : NULL;
    size_t i = 0, rows = 0;

    vdc_svg_set_class(cr, "legend");
    cairo_set_font_size(cr, size);
    while (i < n) {
        size_t j = i, k;
        double row = 0, x;

        /* the keys of this row */
        while (j < n && (j == i || row + key_width(&keys[j], size) <= width))
            row += key_width(&keys[j++], size);
        x = x0 + (width - row + size * 1.6) / 2;
        for (k = i; k < j; k++) {
            const double *c = keys[k].rgb;
            double my = y - size * 0.35;

            cairo_set_source_rgb(cr, c[0], c[1], c[2]);
            if (marker == VDC_SVG_DOT) {
                cairo_arc(cr, x + size * 0.45, my, size * 0.38, 0, 2 * M_PI);
                cairo_fill(cr);
            } else if (marker == VDC_SVG_LINE) {
                cairo_set_line_width(cr, 2);
                cairo_move_to(cr, x, my);
                cairo_line_to(cr, x + size, my);
                cairo_stroke(cr);
            } else {
                cairo_rectangle(cr, x, my - size * 0.45, size * 0.9, size * 0.9);
                cairo_fill(cr);
            }
            cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
            vdc_svg_text(cr, x + size * 1.4, y, keys[k].label, 0);
            x += key_width(&keys[k], size);
        }
        rows++;
        y += line;
        i = j;
    }
    vdc_svg_set_class(cr, was);
    return rows;
}

void
vdc_svg_fit_plan(const char *s, double size, double max_w, double min_size, int bold, struct vdc_svg_fit *fit)
{
    const char *mid, *best = NULL;
    double sz, floor1 = fmax(min_size, size * 0.85);
    size_t len = strlen(s);
    char *first;

    fit->size = size;
    fit->lines = 1;
    fit->split = 0;
    /* one line, at most a little smaller */
    for (sz = size; sz >= floor1 - 1e-9; sz -= 0.5)
        if (vdc_svg_measure(s, sz, bold) <= max_w) {
            fit->size = sz;
            return;
        }
    for (mid = s; (mid = strchr(mid, ' ')); mid++)
        if (!best || labs((long)(mid - s) - (long)len / 2) < labs((long)(best - s) - (long)len / 2))
            best = mid;
    if (!best) {
        /* one word: as small as allowed */
        for (sz = size; sz > min_size && vdc_svg_measure(s, sz, bold) > max_w; sz -= 0.5)
            ;
        fit->size = fmax(sz, min_size);
        return;
    }
    /* two lines, split at the space nearest the middle, as large as fits */
    fit->lines = 2;
    fit->split = (size_t)(best - s);
    first = g_strndup(s, fit->split);
    for (sz = size; sz > min_size; sz -= 0.5)
        if (vdc_svg_measure(first, sz, bold) <= max_w && vdc_svg_measure(best + 1, sz, bold) <= max_w)
            break;
    g_free(first);
    fit->size = fmax(sz, min_size);
}

int
vdc_svg_text_fit(cairo_t *cr, double x, double y, const char *s, double align, double max_w, double min_size,
                 double line)
{
    cairo_matrix_t fm;
    cairo_font_face_t *face = cairo_get_font_face(cr);
    int bold = cairo_font_face_get_type(face) == CAIRO_FONT_TYPE_TOY &&
               cairo_toy_font_face_get_weight(face) == CAIRO_FONT_WEIGHT_BOLD;
    struct vdc_svg_fit fit;

    cairo_get_font_matrix(cr, &fm);
    vdc_svg_fit_plan(s, fm.xx, max_w, min_size, bold, &fit);
    cairo_set_font_size(cr, fit.size);
    if (fit.lines == 1) {
        vdc_svg_text(cr, x, y, s, align);
    } else {
        g_autofree char *first = g_strndup(s, fit.split);
        const char *lines[2] = { first, s + fit.split + 1 };

        svg_text_lines(cr, x, y, lines, 2, line, align);
    }
    cairo_set_font_size(cr, fm.xx);
    return fit.lines;
}

char *
vdc_svg_prefix_ids(const char *svg, const char *prefix)
{
    static const char *const refs[] = { "id=\"", "href=\"#", "url(#" };
    char *cur = g_strdup(svg);
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(refs); i++) {
        g_autofree char *pat = g_strdup_printf("%s%s-", refs[i], prefix);
        char **parts = g_strsplit(cur, refs[i], -1);

        g_free(cur);
        cur = g_strjoinv(pat, parts);
        g_strfreev(parts);
    }
    return cur;
}
