/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp renderers: escaping per format (render_escape.h). */
#include "config.h"

#include "report/render_escape.h"

#include <string.h>

#include <glib.h>

#include "common/escape.h"


/* render_escape.h */
void
vdc_md_escape(GString *out, const char *s)
{
    /* controls first (common/escape.h), then Markdown's own characters:
     * the backslash of "\x1b" is doubled so it shows */
    char *e = vdc_escape_text(s, -1, 0);
    const char *p;

    for (p = e; *p; p++) {
        if (strchr("|\\`*_[]<>", *p))
            g_string_append_c(out, '\\');
        g_string_append_c(out, *p);
    }
    g_free(e);
}

/* render_escape.h */
void
vdc_append_lines(GString *out, char *const *lines, const char *prefix, const char *suffix,
                 vdc_escape_fn escape)
{
    size_t i;

    for (i = 0; lines[i]; i++) {
        g_string_append(out, prefix);
        if (escape)
            escape(out, lines[i]);
        else
            g_string_append(out, lines[i]);
        g_string_append(out, suffix);
    }
}

/* render_escape.h */
void
vdc_append_pairs(GString *out, char *const *pairs, const char *before, const char *between,
                 const char *after, vdc_escape_fn escape)
{
    size_t i;

    for (i = 0; pairs[i] && pairs[i + 1]; i += 2) {
        g_string_append(out, before);
        escape(out, pairs[i]);
        g_string_append(out, between);
        escape(out, pairs[i + 1]);
        g_string_append(out, after);
    }
}

/* render_escape.h */
int
vdc_csv_is_formula(const char *s)
{
    return s && *s && strchr("=+-@\t\r", *s) != NULL;
}

/* render_escape.h */
void
vdc_csv_field(GString *out, const char *s)
{
    /* a cell a spreadsheet would take for a formula: quoted, with a '
     * before it, so it is read as text */
    int formula = vdc_csv_is_formula(s);

    if (!s)
        return;
    if (!formula && !strpbrk(s, ",\"\r\n")) {
        g_string_append(out, s);
        return;
    }
    g_string_append_c(out, '"');
    if (formula)
        g_string_append_c(out, '\'');
    for (; *s; s++) {
        if (*s == '"')
            g_string_append_c(out, '"');
        g_string_append_c(out, *s);
    }
    g_string_append_c(out, '"');
}

/* render_escape.h */
void
vdc_html_escape(GString *out, const char *s)
{
    char *e = g_markup_escape_text(s ? s : "", -1);

    g_string_append(out, e);
    g_free(e);
}
