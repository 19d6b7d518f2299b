/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp renderers: the answer section (render_answer.h).  The
 * sentences are answer.c's; this file only lays them out. */
#include "config.h"

#include "report/render_answer.h"

#include <string.h>

#include <glib.h>

#include "common/escape.h"
#include "report/render_escape.h"

/* @text made one safe line (common/escape.h vdc_escape_line: the answer
 * quotes strings read back from hosts and guests, a backend's type, a
 * device, an error) and wrapped at @width columns, the first line
 * starting with @first, the others with @indent; ends with a newline */
static void
wrap(GString *out, const char *text, const char *first, const char *indent, size_t width)
{
    GString *safe = g_string_new(NULL);
    char **words;
    size_t i, col = 0, lines = 0;

    vdc_escape_line(safe, text);
    words = g_strsplit(safe->str, " ", -1);
    g_string_free(safe, TRUE);

    for (i = 0; words[i]; i++) {
        size_t len = (size_t)g_utf8_strlen(words[i], -1);

        if (!*words[i])
            continue;
        if (col && col + 1 + len > width) {
            g_string_append_c(out, '\n');
            col = 0;
        }
        if (!col) {
            const char *in = lines++ ? indent : first;

            g_string_append(out, in);
            col = strlen(in);
        } else {
            g_string_append_c(out, ' ');
            col++;
        }
        g_string_append(out, words[i]);
        col += len;
    }
    if (col)
        g_string_append_c(out, '\n');
    g_strfreev(words);
}

/* render_answer.h */
void
vdc_append_answer_text(GString *out, const struct vdc_analysis *a)
{
    const struct vdc_answer *ans = &a->answer;
    size_t i;

    {
        g_autofree char *t = g_strdup_printf("%s. %s.", ans->title, ans->legend);

        wrap(out, t, "", "  ", 100);
    }
    for (i = 0; i < ans->n_lines; i++) {
        const struct vdc_answer_line *l = &ans->lines[i];
        GString *s = g_string_new(NULL);
        size_t n_groups = 0;

        if (l->label)
            g_string_append_printf(s, "%s: ", l->label);
        g_string_append(s, l->text);
        /* a pair's test groups in its paragraph: the first screen stays
         * short */
        while (l->kind != VDC_ANSWER_GROUP && i + 1 < ans->n_lines && ans->lines[i + 1].kind == VDC_ANSWER_GROUP) {
            i++;
            g_string_append_printf(s, ". %s", ans->lines[i].text);
            n_groups++;
        }
        if (n_groups)
            g_string_append_c(s, '.');
        /* many guests at once: a line per level and test under its heading */
        if (l->kind == VDC_ANSWER_LEVEL)
            wrap(out, s->str, "    ", "      ", 100);
        else
            wrap(out, s->str, "  ", "    ", 100);
        g_string_free(s, TRUE);
    }
    g_string_append_c(out, '\n');
}

/* render_answer.h */
void
vdc_append_answer_md(GString *out, const struct vdc_analysis *a)
{
    const struct vdc_answer *ans = &a->answer;
    size_t i;
    int in_list = 0;    /* the kind of the list open, 0: none */

    g_string_append(out, "## ");
    vdc_md_escape(out, ans->title);
    g_string_append(out, "\n\n");
    vdc_md_escape(out, ans->legend);
    g_string_append(out, ".\n\n");
    for (i = 0; i < ans->n_lines; i++) {
        const struct vdc_answer_line *l = &ans->lines[i];
        int item = l->kind == VDC_ANSWER_GROUP || l->kind == VDC_ANSWER_FIX || l->kind == VDC_ANSWER_LEVEL;

        if (in_list && (!item || (int)l->kind != in_list))
            g_string_append_c(out, '\n');
        in_list = item ? (int)l->kind : 0;
        g_string_append(out, item ? "- " : "");
        if (l->label) {
            g_string_append(out, "**");
            vdc_md_escape(out, l->label);
            g_string_append(out, "**: ");
        }
        vdc_md_escape(out, l->text);
        g_string_append(out, item ? "\n" : "\n\n");
    }
    g_string_append(out, in_list ? "\n" : "");
}

/* the class of a group by its tone (the CSS colours it) */
static const char *
tone_class(enum vdc_answer_tone t)
{
    switch (t) {
    case VDC_TONE_FASTER: return "faster";
    case VDC_TONE_SLOWER: return "slower";
    case VDC_TONE_MIXED: return "mixed";
    case VDC_TONE_NONE: return "none";
    case VDC_TONE_PLAIN: break;
    }
    return "plain";
}

/* render_answer.h */
void
vdc_append_answer_html(GString *out, const struct vdc_analysis *a)
{
    const struct vdc_answer *ans = &a->answer;
    size_t i;
    int in_list = 0;    /* the kind of the list open, 0: none */

    g_string_append(out, "<section id=\"answer\">\n<h2>");
    vdc_html_escape(out, ans->title);
    g_string_append(out, "</h2>\n<p class=\"legend\">");
    vdc_html_escape(out, ans->legend);
    g_string_append(out, ".</p>\n");
    for (i = 0; i < ans->n_lines; i++) {
        const struct vdc_answer_line *l = &ans->lines[i];
        int item = l->kind == VDC_ANSWER_GROUP || l->kind == VDC_ANSWER_FIX || l->kind == VDC_ANSWER_LEVEL;

        if (in_list && (!item || (int)l->kind != in_list))
            g_string_append(out, "</ul>\n");
        if (item && (int)l->kind != in_list)
            g_string_append_printf(out, "<ul class=\"%s\">\n", l->kind == VDC_ANSWER_FIX ? "fixes"
                                   : l->kind == VDC_ANSWER_LEVEL ? "groups levels" : "groups");
        in_list = item ? (int)l->kind : 0;
        if (item)
            g_string_append_printf(out, "<li class=\"%s\">", tone_class(l->tone));
        else
            g_string_append_printf(out, "<p class=\"%s\">", vdc_answer_kind_name(l->kind));
        if (l->label) {
            g_string_append(out, "<b>");
            vdc_html_escape(out, l->label);
            g_string_append(out, "</b>: ");
        }
        vdc_html_escape(out, l->text);
        g_string_append(out, item ? "</li>\n" : "</p>\n");
    }
    if (in_list)
        g_string_append(out, "</ul>\n");
    g_string_append(out, "</section>\n");
}
