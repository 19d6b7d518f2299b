/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp SVG canvas: a figure of report.html drawn by cairo into an SVG
 * document in memory (cairo_svg_surface_create_for_stream), its text as
 * SVG <text> elements rather than cairo's glyph outlines: searchable,
 * selectable, a fraction of the bytes.  Shapes go through cairo as usual;
 * text goes through vdc_svg_text, which measures it with cairo (the same
 * font family the page asks for: DejaVu Sans) and writes the element into a
 * text layer that vdc_svg_finish puts over the drawing. */
#ifndef VDC_REPORT_RENDER_SVG_H
#define VDC_REPORT_RENDER_SVG_H

#include <stddef.h>

#include <cairo.h>

/* A canvas of @w x @h points: its cairo context, ready to draw (a white
 * page); NULL never (cairo reports errors at vdc_svg_finish). */
cairo_t *vdc_svg_begin(double w, double h);

/* Finish the canvas @cr of vdc_svg_begin: the <svg> document without its
 * XML declaration, the text layer inside it (g_free); NULL after vdc_error
 * naming @what when cairo failed.  @cr is destroyed either way. */
char *vdc_svg_finish(cairo_t *cr, const char *what);

/* @s at (@x, @y) in user space (its baseline), aligned by @align (0 left,
 * 0.5 centre, 1 right), in the current font size and weight of @cr (set
 * with cairo_set_font_size and cairo_select_font_face, family sans-serif)
 * and the current source colour, turned as the current transformation
 * turns (a y-axis label); an SVG <text> element in @cr's text layer.
 * Returns the text's width in user units (cairo's measure). */
double vdc_svg_text(cairo_t *cr, double x, double y, const char *s, double align);

/* The class of the texts @cr draws from now on (an SVG class attribute
 * saying what a text is: "title", "xlabel", "value", "panel", "legend"),
 * for a reader's tools and the layout test (tests/integration/
 * report-layout.js); NULL for none.  @cls must outlive the canvas (a
 * string literal). */
void vdc_svg_set_class(cairo_t *cr, const char *cls);

/* The width @s takes in @cr's current font, user units. */
double vdc_svg_text_width(cairo_t *cr, const char *s);

/* The width of @s at @size points (@bold), as vdc_svg_text measures it,
 * without a canvas: for laying a figure out before it is drawn. */
double vdc_svg_measure(const char *s, double size, int bold);

/* One key of a legend: its label and colour. */
struct vdc_svg_key {
    const char *label;
    double rgb[3];
};

/* How a legend marks its keys. */
enum vdc_svg_marker { VDC_SVG_SQUARE, VDC_SVG_DOT, VDC_SVG_LINE };

/* The rows a legend of @n keys takes in @width at @size points: keys are
 * never cut, a row holds what fits (at least one key). */
size_t vdc_svg_legend_rows(const struct vdc_svg_key *keys, size_t n, double width, double size);

/* Draw that legend on @cr: each row centred in [@x0, @x0 + @width], the
 * first row's baseline at @y, rows @line apart; returns the rows drawn. */
size_t vdc_svg_legend(cairo_t *cr, const struct vdc_svg_key *keys, size_t n, double x0, double width, double y,
                      double size, double line, enum vdc_svg_marker marker);

/* How a label fits a width (vdc_svg_fit_plan, vdc_svg_text_fit). */
struct vdc_svg_fit {
    double size;                 /* points */
    int lines;                   /* 1 or 2 */
    size_t split;                /* 2 lines: the byte offset of the space between them */
};

/* How @s fits in @max_w user units from @size points down (@bold): one
 * line when it fits at 85 % of @size or more, else two lines split at the
 * space nearest its middle at the largest size from @size down to
 * @min_size at which both fit (@min_size when none does; one line at
 * @min_size for a single word).  vdc_svg_text_fit draws what this plans,
 * so that a figure can be laid out before it is drawn. */
void vdc_svg_fit_plan(const char *s, double size, double max_w, double min_size, int bold, struct vdc_svg_fit *fit);

/* @s at (@x, @y) aligned by @align, in at most @max_w user units, as
 * vdc_svg_fit_plan plans it from the current font size (a second line
 * @line below, in the same <text> element as a <tspan>).  Returns the
 * lines used (1 or 2). */
int vdc_svg_text_fit(cairo_t *cr, double x, double y, const char *s, double align, double max_w, double min_size,
                     double line);

/* @svg with every id (id="X", href="#X", url(#X)) prefixed "@prefix-", so
 * that two SVG documents inlined in one page never share an id (cairo
 * names its surfaces and clips alike in every document).  g_free. */
char *vdc_svg_prefix_ids(const char *svg, const char *prefix);

#endif
