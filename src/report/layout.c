/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp text layout: short names with a key, prose wrapped to a width
 * (report/layout.h). */
#include "config.h"

#include "report/layout.h"
#include "common/escape.h"

#include <stdio.h>
#include <string.h>

#include <glib.h>

/* layout.h */
int
vdc_layout_width(const char *s)
{
    return s ? (int)g_utf8_strlen(s, -1) : 0;
}

/* layout.h */
void
vdc_layout_pad(GString *out, const char *s, int width, int right)
{
    int w = vdc_layout_width(s), i;

    if (!right)
        g_string_append(out, s ? s : "");
    for (i = w; i < width; i++)
        g_string_append_c(out, ' ');
    if (right)
        g_string_append(out, s ? s : "");
}

/* layout.h */
char **
vdc_layout_aliases(const struct vdc_analysis *a, int max, int *keyed)
{
    char **v = g_new0(char *, a->n_targets + 1);
    size_t i;

    *keyed = 0;
    for (i = 0; i < a->n_targets; i++)
        if (vdc_layout_width(a->targets[i]) > max)
            *keyed = 1;
    for (i = 0; i < a->n_targets; i++)
        v[i] = *keyed ? g_strdup_printf("T%zu", i + 1) : g_strdup(a->targets[i]);
    return v;
}

/* layout.h */
void
vdc_layout_append_key(GString *out, const vdc_result_set *rs, const struct vdc_analysis *a,
                      char **aliases, int keyed, const char *indent, int width)
{
    size_t i;
    int aw = 0;

    if (!keyed)
        return;
    for (i = 0; aliases[i]; i++)
        aw = MAX(aw, vdc_layout_width(aliases[i]));
    for (i = 0; i < a->n_targets; i++) {
        const vdc_target *t = vdc_result_set_find_target(rs, a->targets[i]);
        GString *line = g_string_new(NULL), *rest = g_string_new(indent);
        int k;

        vdc_layout_pad(line, aliases[i], aw, 0);
        g_string_append_printf(line, "  %s", a->targets[i]);
        if (t && t->kind && strcmp(t->kind, "imported")) {
            const char *w = !t->where || !strcmp(t->kind, "dom0") ? ""
                            : !strcmp(t->where, "domU") ? " in a domU"
                            : !strcmp(t->where, "host") ? " on the host" : "";

            g_string_append_printf(line, " (%s%s%s%s)", t->kind, w, t->provenance.kind ? "; " : "",
                                   t->provenance.kind ? t->provenance.kind : "");
        }
        if (i == a->baseline_index)
            g_string_append(line, " [baseline]");
        for (k = 0; k < aw + 2; k++)
            g_string_append_c(rest, ' ');
        vdc_layout_wrap(out, indent, rest->str, line->str, width);
        g_string_free(line, TRUE);
        g_string_free(rest, TRUE);
    }
}

/* layout.h */
void
vdc_layout_wrap(GString *out, const char *first, const char *rest, const char *text, int width)
{
    const char *p = text;
    const char *lead = first;

    while (*p == ' ')
        p++;
    do {
        int room = MAX(width - vdc_layout_width(lead), 20), used = 0;
        const char *end = p, *brk = NULL;

        /* the longest run of words that fits @room */
        while (*end) {
            gunichar c = g_utf8_get_char(end);

            /* a blank before '%' keeps "115 %" on one line */
            if (c == ' ' && used <= room && end[1] != '%')
                brk = end;
            if (used > room)
                break;
            used++;
            end = g_utf8_next_char(end);
        }
        if (!*end && used <= room)
            brk = end;
        else if (!brk) {
            /* one word longer than the line (a path): cut at the line's end */
            int k;

            brk = p;
            for (k = 0; k < room && *brk && *brk != ' '; k++)
                brk = g_utf8_next_char(brk);
        }
        g_string_append(out, lead);
        {
            const char *e = brk;

            while (e > p && e[-1] == ' ')
                e--;            /* "points.  Either": no blank at the end of a line */
            g_string_append_len(out, p, e - p);
        }
        g_string_append_c(out, '\n');
        p = brk;
        while (*p == ' ')
            p++;
        lead = rest;
    } while (*p);
}

/* layout.h */
void
vdc_layout_fold(GString *out, const char *text, int width)
{
    const char *p = text;

    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        g_autofree char *line = g_strndup(p, len);

        if (vdc_layout_width(line) <= width) {
            g_string_append(out, line);
            g_string_append_c(out, '\n');
        } else {
            size_t lead = strspn(line, " ");
            g_autofree char *first = g_strndup(line, lead);
            g_autofree char *rest = g_strdup_printf("%s  ", first);

            vdc_layout_wrap(out, first, rest, line + lead, width);
        }
        p += len;
        if (*p == '\n')
            p++;
    }
}

void
vdc_layout_wrap_escaped(GString *out, const char *first, const char *rest, const char *text, int width)
{
    GString *e = g_string_new(NULL);

    vdc_escape_line(e, text);
    vdc_layout_wrap(out, first, rest, e->str, width);
    g_string_free(e, TRUE);
}
