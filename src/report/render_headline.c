/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp renderers: the headline section (report/headline.h) of text,
 * Markdown and HTML, and its JSON object (headline.csv is in
 * render_csv.c).  The sentences come
 * from headline.c; one walk over the headline lays them out, a table per
 * format (struct layout) saying how. */
#include "config.h"

#include "report/render.h"
#include "report/layout.h"
#include "report/ranking.h"
#include "report/render_escape.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#define HEADLINE_TITLE "Headline: image or LV?"
#define CEILING_TITLE "Ceiling: the share of bare %s each target reaches (ratio of the means, %s 95 %% CI)"

/* The headline label of test @ki of @a (a compound literal buffer: valid
 * to the end of the enclosing block) */
#define LABEL(ki) \
    vdc_analysis_test_label(a, ki, (char[VDC_TEST_LABEL_MAX]){ 0 }, VDC_TEST_LABEL_MAX)

/* A row worth its own line: anything but "not tested" for want of pairs
 * (those are named together, untested_text); every row of an unpaired
 * headline (imported runs: its delta is what the write-up says). */
static int
row_listed(const struct vdc_analysis *a, const struct vdc_headline_row *row)
{
    return a->headline.unpaired || !(row->verdict == VDC_VERDICT_NOT_TESTED && row->p.n < 2);
}

/* "Not tested (fewer than 2 pairs with a value): Sequential output,
 * per-char; ... (3 tests)." or NULL */
static char *
untested_text(const struct vdc_analysis *a, const struct vdc_headline_pair *hp)
{
    GString *s = NULL;
    size_t i, n = 0;

    for (i = 0; i < hp->n_rows; i++) {
        if (row_listed(a, &hp->rows[i]))
            continue;
        if (!s)
            s = g_string_new("Not tested (fewer than 2 pairs with a value): ");
        g_string_append_printf(s, "%s%s", n++ ? "; " : "", LABEL(hp->rows[i].test));
    }
    if (!s)
        return NULL;
    g_string_append_printf(s, " (%zu test%s).", n, n == 1 ? "" : "s");
    return g_string_free(s, FALSE);
}

/* The ceiling cell of @row: "62.0 % [55.1, 70.4]", "62.0 % [unbounded]"
 * (tested, no bounded interval: ceiling_note says why), "62.0 % (1 pair)"
 * (not tested), "not comparable", "" (no row) */
static void
ceiling_cell(char *buf, size_t size, const struct vdc_headline_row *row)
{
    if (row && row->verdict == VDC_VERDICT_NOT_COMPARABLE)
        snprintf(buf, size, "not comparable");
    else if (!row || !row->p.has_ratio)
        buf[0] = '\0';
    else if (row->p.has_ci)
        snprintf(buf, size, "%.1f %% [%.1f, %.1f]", 100 * row->p.ratio, 100 * row->p.ci_ratio[0],
                 100 * row->p.ci_ratio[1]);
    else if (row->p.has_test)
        snprintf(buf, size, "%.1f %% [unbounded]", 100 * row->p.ratio);
    else
        snprintf(buf, size, "%.1f %% (%zu pair%s)", 100 * row->p.ratio, row->p.n, row->p.n == 1 ? "" : "s");
}

/* The row of test @ki in @hp, or NULL. */
static const struct vdc_headline_row *
row_of(const struct vdc_headline_pair *hp, size_t ki)
{
    size_t i;

    for (i = 0; i < hp->n_rows; i++)
        if (hp->rows[i].test == ki)
            return &hp->rows[i];
    return NULL;
}

static int
is_ceiling_of(const struct vdc_headline_pair *hp, size_t ref)
{
    return hp->role == VDC_HEADLINE_CEILING && hp->reference == ref;
}

/* Whether test @ki has a row in a ceiling pair against @ref. */
static int
ceiling_has_test(const struct vdc_headline *h, size_t ref, size_t ki)
{
    size_t i;

    for (i = 0; i < h->n_pairs; i++)
        if (is_ceiling_of(&h->pairs[i], ref) && row_of(&h->pairs[i], ki))
            return 1;
    return 0;
}

/* The distinct references of the ceiling pairs, in pair order, into @refs
 * (n_targets long); returns how many. */
static size_t
ceiling_refs(const struct vdc_analysis *a, size_t *refs)
{
    const struct vdc_headline *h = &a->headline;
    size_t i, j, n = 0;

    for (i = 0; i < h->n_pairs; i++) {
        int seen = 0;

        if (h->pairs[i].role != VDC_HEADLINE_CEILING)
            continue;
        for (j = 0; j < n; j++)
            seen |= refs[j] == h->pairs[i].reference;
        if (!seen)
            refs[n++] = h->pairs[i].reference;
    }
    return n;
}

/* Under the ceiling table against @ref: how its interval is made (the
 * delta tables' differs), and which cells have no bounded one and why
 * (g_free). */
static char *
ceiling_note(const struct vdc_analysis *a, size_t ref)
{
    const struct vdc_headline *h = &a->headline;
    GString *s = g_string_new(NULL), *tests = g_string_new(NULL);
    size_t i, ki;

    g_string_append_printf(s, "[95 %% CI]: %s; the delta tables below hold each side's runs as independent "
                           "samples, so their interval for the same ratio differs.",
                           h->unpaired ? "Fieller's interval of the ratio of the means, each side's runs as "
                           "independent samples (unequal variances)" : "paired Fieller interval of the ratio "
                           "of the means, repetition r of the target with repetition r of bare dom0 (same "
                           "seed, same boot)");
    for (ki = 0; ki < a->n_tests; ki++)
        for (i = 0; i < h->n_pairs; i++) {
            const struct vdc_headline_row *row = is_ceiling_of(&h->pairs[i], ref) ? row_of(&h->pairs[i], ki)
                                                                                 : NULL;

            if (row && row->verdict != VDC_VERDICT_NOT_COMPARABLE && row->p.has_ratio && row->p.has_test &&
                !row->p.has_ci) {
                g_string_append_printf(tests, "%s%s", tests->len ? "; " : "", LABEL(ki));
                break;
            }
        }
    if (tests->len)
        g_string_append_printf(s, "  [unbounded] (%s): %s's mean is not clear of 0 in the pairs, so the "
                               "ratio's interval has no bound.", tests->str, a->targets[ref]);
    g_string_free(tests, TRUE);
    return g_string_free(s, FALSE);
}

static void
gstring_free(gpointer s)
{
    g_string_free(s, TRUE);
}

/* For each ceiling target against @ref, its reasons for no verdict, each
 * with the tests it applies to: "not comparable: image, too-fast on image
 * and dom0: Sequential stat/read; Random stat/read" (g_strfreev) */
static char **
ceiling_reasons(const struct vdc_analysis *a, size_t ref)
{
    const struct vdc_headline *h = &a->headline;
    GPtrArray *v = g_ptr_array_new();
    size_t i, j, k;

    for (i = 0; i < h->n_pairs; i++) {
        const struct vdc_headline_pair *hp = &h->pairs[i];
        GPtrArray *why, *tests;

        if (!is_ceiling_of(hp, ref))
            continue;
        why = g_ptr_array_new_with_free_func(g_free);
        tests = g_ptr_array_new_with_free_func(gstring_free);
        for (j = 0; j < hp->n_rows; j++) {
            char *w = vdc_headline_reason(a, hp, &hp->rows[j]);
            const char *label = LABEL(hp->rows[j].test);

            if (w)
                vdc_reason_group_add(why, tests, w, label);
        }
        for (k = 0; k < why->len; k++)
            g_ptr_array_add(v, g_strdup_printf("not comparable: %s, %s: %s", a->targets[hp->target],
                                               (char *)why->pdata[k], ((GString *)tests->pdata[k])->str));
        g_ptr_array_free(why, TRUE);
        g_ptr_array_free(tests, TRUE);
    }
    g_ptr_array_add(v, NULL);
    return (char **)g_ptr_array_free(v, FALSE);
}

/* @text wrapped at @width columns, the first line starting with @first,
 * the others with @indent; a number stays on the line of its unit and of
 * its "=" ("279.2 %", "p = 0.0219") */
static void
append_wrapped(GString *out, const char *text, const char *first, const char *indent, size_t width)
{
    g_autofree char *glued = g_strdup(text);
    char *c, **words;
    size_t i, col = 0, lines = 0;

    for (c = glued; *c; c++)    /* \1: a space no line breaks at */
        if (*c == ' ' && (c[1] == '%' || c[1] == '=' || (c > glued && c[-1] == '=')))
            *c = '\1';
    words = g_strsplit(glued, " ", -1);
    for (i = 0; words[i]; i++)
        g_strdelimit(words[i], "\1", ' ');

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

/* ---- one walk, three layouts --------------------------------------------- */

static void
html_esc(GString *out, const char *s)
{
    char *e = g_markup_escape_text(s ? s : "", -1);

    g_string_append(out, e);
    g_free(e);
}

/* Before and after a piece; text wraps paragraphs between them at 100
 * columns (the first indent, the next ones) where wrap is set. */
struct piece {
    const char *before, *after;
};

/* How one format lays the headline out.  Every piece of text it is given
 * goes through escape (NULL: as it is). */
struct layout {
    vdc_escape_fn escape;
    int wrap;                      /* text: paragraphs wrapped, before/after are the indents */
    struct piece section, title, runs, para, pair, note, reason, method;
    struct piece row;              /* text: a headline row as a wrapped paragraph */
    const char *rows_open, *rows_open_stop, *rows_close;   /* around a pair's rows */
    const char *row_open, *row_answer, *row_stop, *row_close;
    int answer_class;              /* HTML: row_answer ends inside a class attribute */
    int stop_column;               /* a stop column in every row (when some row has one);
                                    * else "row_stop REASON" where there is one */
    struct piece ceiling;          /* around the ceiling's title (a format with %s) */
    const char *ceiling_open, *ceiling_close, *reasons_open, *reasons_close;
    /* one cell of the ceiling table: column 0 is the test, @head the head row */
    void (*ceiling_cell)(GString *out, const char *s, size_t col, int head);
    void (*ceiling_row_end)(GString *out, size_t n_cols, int head);
    size_t ceiling_cols;           /* text: at most this many targets a block of the ceiling
                                    * table, the test repeated (0: one block) */
    /* one cell of a ranking table (group, target, mean, note) */
    void (*rank_cell)(GString *out, const char *s, size_t col, int head);
};

/* a cell of the text ceiling table: 22 (a target) and 34 (a test) columns
 * wide, wider for a longer name or label: never cut; as many targets a
 * block as fit report.txt's 100 columns */
#define TEXT_CEILING_COLS ((100 - 4 - 34) / (1 + 22))
static void
text_cell(GString *out, const char *s, size_t col, int head)
{
    (void)head;
    g_string_append(out, col ? " " : "    ");
    vdc_layout_pad(out, s, col ? 22 : 34, 0);
}

/* a cell of the text ranking table: the group 6 columns wide, the target
 * 34, the mean 18, the note as long as it is (never cut) */
static void
text_rank_cell(GString *out, const char *s, size_t col, int head)
{
    static const int width[] = { 6, 34, 18, 0 };

    (void)head;
    g_string_append(out, col ? " " : "    ");
    vdc_layout_pad(out, s, col < G_N_ELEMENTS(width) ? width[col] : 0, 0);
}

static void
text_row_end(GString *out, size_t n_cols, int head)
{
    (void)n_cols;
    (void)head;
    g_string_truncate(out, strlen(g_strchomp(out->str)));
    g_string_append_c(out, '\n');
}

static void
md_cell(GString *out, const char *s, size_t col, int head)
{
    (void)head;
    g_string_append(out, col ? " " : "| ");
    vdc_md_escape(out, s);
    g_string_append(out, " |");
}

static void
md_row_end(GString *out, size_t n_cols, int head)
{
    size_t i;

    g_string_append_c(out, '\n');
    if (!head)
        return;
    g_string_append(out, "|---|");
    for (i = 1; i < n_cols; i++)
        g_string_append(out, "---:|");
    g_string_append_c(out, '\n');
}

static void
html_cell(GString *out, const char *s, size_t col, int head)
{
    g_string_append_printf(out, "%s<%s%s>", col ? "" : "<tr>", head ? "th" : "td", col ? "" : " class=\"l\"");
    html_esc(out, s);
    g_string_append_printf(out, "</%s>", head ? "th" : "td");
}

static void
html_row_end(GString *out, size_t n_cols, int head)
{
    (void)n_cols;
    g_string_append(out, head ? "</tr></thead><tbody>\n" : "</tr>\n");
}

static const struct layout text_layout = {
    .escape = NULL, .wrap = 1,
    .section = { "", "\n" }, .title = { "", "\n" }, .runs = { "  Runs: ", ".\n" },
    .para = { "  ", "  " }, .pair = { "  ", ":\n" }, .note = { "    ", "    " },
    .reason = { "    ", "      " }, .method = { "  ", "  " }, .row = { "    ", "      " },
    .rows_open = "", .rows_open_stop = "", .rows_close = "",
    .row_open = "    ", .row_answer = ": ", .row_stop = "; stop: ", .row_close = "\n",
    .ceiling = { "  ", "\n" }, .ceiling_open = "", .ceiling_close = "", .reasons_open = "", .reasons_close = "",
    .ceiling_cell = text_cell, .ceiling_row_end = text_row_end, .rank_cell = text_rank_cell,
    .ceiling_cols = TEXT_CEILING_COLS,
};

static const struct layout md_layout = {
    .escape = vdc_md_escape,
    .section = { "", "" }, .title = { "## ", "\n\n" }, .runs = { "Runs: ", ".\n\n" },
    .para = { "", "\n\n" }, .pair = { "**", "**\n\n" }, .note = { "", "\n\n" },
    .reason = { "- ", "\n" }, .method = { "> ", "\n\n" },
    .rows_open = "| test | answer |\n|---|---|\n",
    .rows_open_stop = "| test | answer | stop |\n|---|---|---|\n",
    .rows_close = "\n",
    .row_open = "| ", .row_answer = " | ", .row_stop = " | ", .row_close = " |\n", .stop_column = 1,
    .ceiling = { "**", "**\n\n" }, .ceiling_open = "", .ceiling_close = "\n", .reasons_open = "",
    .reasons_close = "\n",
    .ceiling_cell = md_cell, .ceiling_row_end = md_row_end, .rank_cell = md_cell,
};

static const struct layout html_layout = {
    .escape = html_esc,
    .section = { "<section id=\"headline\">\n", "</section>\n" }, .title = { "<h2>", "</h2>\n" },
    .runs = { "<p class=\"runs\" id=\"runs-policy\">Runs: ", ".</p>\n" },
    .para = { "<p class=\"note\" id=\"headline-absent\">", "</p>\n" }, .pair = { "<h3>", "</h3>\n" },
    .note = { "<p class=\"note\">", "</p>\n" }, .reason = { "<li>", "</li>\n" },
    .method = { "<p class=\"note\" id=\"headline-method\">", "</p>\n" },
    .rows_open = "<div class=\"tablewrap\"><table class=\"headline\"><thead><tr><th class=\"l\">test</th>"
                 "<th class=\"l\">answer</th></tr></thead><tbody>\n",
    .rows_open_stop = "<div class=\"tablewrap\"><table class=\"headline\"><thead><tr><th class=\"l\">test</th>"
                      "<th class=\"l\">answer</th><th class=\"l\">stop</th></tr></thead><tbody>\n",
    .rows_close = "</tbody></table></div>\n",
    .row_open = "<tr><td class=\"l\">", .row_answer = "</td><td class=\"l ", .answer_class = 1,
    .row_stop = "</td><td class=\"l\">", .row_close = "</td></tr>\n", .stop_column = 1,
    .ceiling = { "<h3>", "</h3>\n" },
    .ceiling_open = "<div class=\"tablewrap\"><table class=\"ceiling\"><thead>",
    .ceiling_close = "</tbody></table></div>\n",
    .reasons_open = "<ul class=\"plain\">", .reasons_close = "</ul>\n",
    .ceiling_cell = html_cell, .ceiling_row_end = html_row_end, .rank_cell = html_cell,
};

static void
put(GString *out, const struct layout *l, const char *s)
{
    if (l->escape)
        l->escape(out, s ? s : "");
    else
        g_string_append(out, s ? s : "");
}

/* A paragraph @s (taken: freed here; NULL: nothing) in @p. */
static void
put_para(GString *out, const struct layout *l, const struct piece *p, char *s)
{
    if (!s)
        return;
    if (l->wrap) {
        append_wrapped(out, s, p->before, p->after, 100);
    } else {
        g_string_append(out, p->before);
        put(out, l, s);
        g_string_append(out, p->after);
    }
    g_free(s);
}

/* The answer cell's class: faster and slower by a difference that
 * matters (moderate, large) in colour; negligible and no difference grey */
static const char *
verdict_class(const struct vdc_headline_row *row)
{
    if (row->effect == VDC_EFFECT_NEGLIGIBLE)
        return "same";
    switch (row->verdict) {
    case VDC_VERDICT_FASTER: return "faster";
    case VDC_VERDICT_SLOWER: return "slower";
    case VDC_VERDICT_NO_DIFFERENCE: return "same";
    case VDC_VERDICT_UNDECIDED: return "same";
    default: return "untested";
    }
}

/* The rows of a choice or baseline pair, then its notes. */
static void
put_pair(GString *out, const struct layout *l, const struct vdc_analysis *a, const struct vdc_headline_pair *hp)
{
    int stop_column = 0, any = 0;
    size_t j;
    char *s;

    for (j = 0; j < hp->n_rows; j++)
        stop_column |= l->stop_column && hp->rows[j].stop && hp->rows[j].stop->reason && row_listed(a, &hp->rows[j]);

    g_string_append(out, l->pair.before);
    s = vdc_headline_pair_title(a, hp);
    put(out, l, s);
    g_free(s);
    g_string_append(out, l->pair.after);
    for (j = 0; j < hp->n_rows; j++) {
        const struct vdc_headline_row *row = &hp->rows[j];
        char *stop;

        if (!row_listed(a, row))
            continue;
        if (!any++)
            g_string_append(out, stop_column ? l->rows_open_stop : l->rows_open);
        s = vdc_headline_row_text(a, hp, row, 0);
        stop = vdc_headline_stop_text(row);
        if (l->wrap) {
            /* text: the row as one paragraph, wrapped */
            put_para(out, l, &l->row, g_strdup_printf("%s%s%s%s%s", LABEL(row->test), l->row_answer, s,
                                                      stop ? l->row_stop : "", stop ? stop : ""));
            g_free(s);
            g_free(stop);
            continue;
        }
        g_string_append(out, l->row_open);
        put(out, l, LABEL(row->test));
        g_string_append(out, l->row_answer);
        if (l->answer_class)
            g_string_append_printf(out, "%s\">", verdict_class(row));
        put(out, l, s);
        if (stop_column || stop) {
            g_string_append(out, l->row_stop);
            put(out, l, stop);
        }
        g_string_append(out, l->row_close);
        g_free(s);
        g_free(stop);
    }
    if (any)
        g_string_append(out, l->rows_close);
    put_para(out, l, &l->note, untested_text(a, hp));
    put_para(out, l, &l->note, hp->n_rows ? NULL : g_strdup("No test that both targets ran."));
    put_para(out, l, &l->note, vdc_headline_perm_note(hp));
}

/* The ceiling table against @ref: a row per test, a column per target. */
static void
put_ceiling(GString *out, const struct layout *l, const struct vdc_analysis *a, size_t ref)
{
    const struct vdc_headline *h = &a->headline;
    size_t i, ki, col;
    char buf[96], **why, *title = g_strdup_printf(CEILING_TITLE, a->targets[ref],
                                                  h->unpaired ? "not paired, Welch" : "paired");

    g_string_append(out, l->ceiling.before);
    put(out, l, title);
    g_string_append(out, l->ceiling.after);
    g_free(title);
    g_string_append(out, l->ceiling_open);
    {
        size_t n_cols = 0, first, per;

        for (i = 0; i < h->n_pairs; i++)
            n_cols += is_ceiling_of(&h->pairs[i], ref);
        per = l->ceiling_cols ? l->ceiling_cols : MAX(n_cols, 1);
        /* the target columns [first, first + per), the test's repeated */
        for (first = 0; first < MAX(n_cols, 1); first += per) {
            size_t k;

            if (first)
                g_string_append_c(out, '\n');
            l->ceiling_cell(out, "test", 0, 1);
            for (i = 0, col = 1, k = 0; i < h->n_pairs; i++)
                if (is_ceiling_of(&h->pairs[i], ref) && k++ >= first && k <= first + per)
                    l->ceiling_cell(out, a->targets[h->pairs[i].target], col++, 1);
            l->ceiling_row_end(out, col, 1);
            for (ki = 0; ki < a->n_tests; ki++) {
                if (!ceiling_has_test(h, ref, ki))
                    continue;
                l->ceiling_cell(out, LABEL(ki), 0, 0);
                for (i = 0, col = 1, k = 0; i < h->n_pairs; i++)
                    if (is_ceiling_of(&h->pairs[i], ref) && k++ >= first && k <= first + per) {
                        ceiling_cell(buf, sizeof(buf), row_of(&h->pairs[i], ki));
                        l->ceiling_cell(out, buf, col++, 0);
                    }
                l->ceiling_row_end(out, col, 0);
            }
        }
    }
    g_string_append(out, l->ceiling_close);
    put_para(out, l, &l->note, ceiling_note(a, ref));
    why = ceiling_reasons(a, ref);
    if (why[0])
        g_string_append(out, l->reasons_open);
    for (i = 0; why[i]; i++)
        put_para(out, l, &l->reason, g_strdup(why[i]));
    if (why[0])
        g_string_append(out, l->reasons_close);
    g_strfreev(why);
}

/* One test's ranking as a table (the ceiling table's cells): a row per
 * target, best first: its letters, its name, its mean, why not ranked. */
static void
put_ranking(GString *out, const struct layout *l, const struct vdc_analysis *a, const struct vdc_ranking *r)
{
    char *title = vdc_ranking_title(a, r), letters[64], mean[64], note[64];
    size_t i;

    g_string_append(out, l->ceiling.before);
    put(out, l, title);
    g_string_append(out, l->ceiling.after);
    g_free(title);
    g_string_append(out, l->ceiling_open);
    l->rank_cell(out, "group", 0, 1);
    l->rank_cell(out, "target", 1, 1);
    l->rank_cell(out, "mean", 2, 1);
    l->rank_cell(out, "", 3, 1);
    l->ceiling_row_end(out, 4, 1);
    for (i = 0; i < r->n_entries; i++) {
        g_autofree char *name = vdc_rank_entry_name(a, &r->entries[i]);

        vdc_ranking_cells(r, i, letters, mean, note, sizeof(mean));
        l->rank_cell(out, letters, 0, 0);
        l->rank_cell(out, name, 1, 0);
        l->rank_cell(out, mean, 2, 0);
        l->rank_cell(out, note, 3, 0);
        l->ceiling_row_end(out, 4, 0);
    }
    g_string_append(out, l->ceiling_close);
}

static void
put_headline(GString *out, const struct layout *l, const struct vdc_analysis *a)
{
    const struct vdc_headline *h = &a->headline;
    size_t i, n_refs, *refs = g_new(size_t, a->n_targets + 1);
    char *s;

    g_string_append(out, l->section.before);
    g_string_append(out, l->title.before);
    if (a->answer.lv_word && strcmp(a->answer.lv_word, "LV")) {
        g_autofree char *title = g_strdup_printf("Headline: image or %s?", a->answer.lv_word);

        put(out, l, title);
    } else {
        put(out, l, HEADLINE_TITLE);
    }
    g_string_append(out, l->title.after);
    if ((s = vdc_headline_runs_text(h)) && l->wrap) {
        g_autofree char *runs = g_strdup_printf("Runs: %s.", s);

        append_wrapped(out, runs, "  ", "    ", 100);
        g_free(s);
    } else if (s) {
        g_string_append(out, l->runs.before);
        put(out, l, s);
        g_string_append(out, l->runs.after);
        g_free(s);
    }
    put_para(out, l, &l->para, vdc_headline_absent_text(a));
    put_para(out, l, &l->para, vdc_headline_left_out_text(a));
    if (h->n_rankings)
        put_para(out, l, &l->para, vdc_ranking_method_text(a));
    for (i = 0; i < h->n_rankings; i++)
        put_ranking(out, l, a, &h->rankings[i]);
    for (i = 0; i < h->n_pairs; i++)
        if (h->pairs[i].role != VDC_HEADLINE_CEILING &&
            !(h->n_rankings && h->pairs[i].role == VDC_HEADLINE_CHOICE))
            put_pair(out, l, a, &h->pairs[i]);
    n_refs = ceiling_refs(a, refs);
    for (i = 0; i < n_refs; i++)
        put_ceiling(out, l, a, refs[i]);
    put_para(out, l, &l->method, !h->n_pairs ? NULL : h->unpaired ? vdc_headline_method_text_unpaired()
             : vdc_headline_method_text());
    g_string_append(out, l->section.after);
    g_free(refs);
}

/* render_util.h */
void
vdc_append_headline_text(GString *out, const struct vdc_analysis *a)
{
    put_headline(out, &text_layout, a);
}

/* render_util.h */
void
vdc_append_headline_md(GString *out, const struct vdc_analysis *a)
{
    put_headline(out, &md_layout, a);
}

/* render_util.h */
void
vdc_append_headline_html(GString *out, const struct vdc_analysis *a)
{
    put_headline(out, &html_layout, a);
}
