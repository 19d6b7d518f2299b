/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Options tables: parsing, validation and --help (opts.h). */
#include "config.h"
#include "common/opts.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"

/* getopt_long's val for table entry i (above every letter) */
#define LONG_VAL(i) (0x100 + (int)(i))

int
vdc_opts_in_choices(const char *choices, const char *v)
{
    g_auto(GStrv) c = g_strsplit(choices, "|", -1);

    return g_strv_contains((const char *const *)c, v);
}

static const char *
prefix_of(const vdc_opts_spec *spec)
{
    return spec->prefix ? spec->prefix : "";
}

/* does the space-separated @list hold the word @w? */
static int
word_in(const char *list, const char *w)
{
    g_auto(GStrv) words = g_strsplit(list, " ", -1);

    return g_strv_contains((const char *const *)words, w);
}

static int
in_scope(const vdc_opts_spec *spec, const vdc_opt *d)
{
    return !spec->scope || !d->scopes || word_in(d->scopes, spec->scope);
}

static int
takes_value(const vdc_opt *d)
{
    return d->type != VDC_OPT_FLAG && d->type != VDC_OPT_HELP;
}

/* "1024T", "1M", "64K": @b in the largest unit that divides it */
static char *
size_text(uint64_t b)
{
    static const char units[] = "TGMK";
    int i;

    for (i = 0; units[i]; i++) {
        uint64_t u = 1ULL << (10 * (4 - i));

        if (b >= u && b % u == 0)
            return g_strdup_printf("%" G_GUINT64_FORMAT "%c", (guint64)(b / u), units[i]);
    }
    return g_strdup_printf("%" G_GUINT64_FORMAT "B", (guint64)b);
}

/* The unit of a UINT option whose metavar names one ("MiB"; "SECONDS",
 * "SEC", "S": seconds), else "". */
static const char *
uint_unit(const vdc_opt *d)
{
    static const char *const seconds[] = { "SECONDS", "SEC", "S", NULL };

    if (!d->metavar)
        return "";
    if (!strcmp(d->metavar, "MiB"))
        return " MiB";
    return g_strv_contains(seconds, d->metavar) ? " seconds" : "";
}

/* What a bad value of @d should have been, in words. */
static char *
expected(const vdc_opt *d)
{
    if (d->expect)
        return g_strdup(d->expect);
    switch (d->type) {
    case VDC_OPT_ENUM:
        return g_strdup_printf("one of %s", d->choices);
    case VDC_OPT_LIST:
        return g_strdup_printf("a comma list of %s", d->choices);
    case VDC_OPT_UINT:
        return g_strdup_printf("an integer from %" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT "%s%s%s",
                               (guint64)d->min, (guint64)d->max, uint_unit(d), d->word ? " or " : "",
                               d->word ? d->word : "");
    case VDC_OPT_SIZE:
        return g_strdup("a size such as 512M, 4G or a number of MiB");
    default:
        return g_strdup_printf("a non-empty %s", d->metavar ? d->metavar : "value");
    }
}

/* the SIZE bounds, in words: "a whole number of MiB from 1M to 1024T" */
static char *
size_bounds(const vdc_opt *d)
{
    g_autofree char *lo = size_text(d->align ? d->align : 1);
    g_autofree char *hi = d->max ? size_text(d->max) : NULL;
    const char *unit = d->align == 1ULL << 10 ? "KiB" : d->align == 1ULL << 20 ? "MiB" :
                       d->align == 1ULL << 30 ? "GiB" : NULL;

    if (d->align && unit)
        return hi ? g_strdup_printf("a whole number of %s from %s to %s", unit, lo, hi)
                  : g_strdup_printf("a whole number of %s", unit);
    if (d->align)
        return hi ? g_strdup_printf("a multiple of %s up to %s", lo, hi)
                  : g_strdup_printf("a multiple of %s", lo);
    return g_strdup_printf("a size of at most %s", hi);
}

/* Why @s is no size, when it has digits and something after them: "the
 * unit 'E' is not one of B, K, M, G, T (powers of 1024)", "too large for
 * 64 bits"; NULL otherwise (g_free). */
static char *
size_why(const char *s)
{
    const char *u = s;
    uint64_t v;

    while (g_ascii_isdigit(*u))
        u++;
    if (u == s)
        return NULL;
    if (*u && !strchr("BbKkMmGgTt", *u))
        return g_strdup_printf("the unit '%.*s' is not one of B, K, M, G, T (powers of 1024)",
                               g_utf8_skip[*(const guchar *)u], u);
    if (*u)
        return NULL;
    return vdc_parse_size(s, 1ULL << 20, &v) < 0 ? g_strdup("too large for 64 bits") : NULL;
}

/* Store @arg into the member of @d: 0, or -1 after one vdc_input_error. */
static int
set_value(const vdc_opts_spec *spec, void *opts, const vdc_opt *d, const char *arg)
{
    void *p = (char *)opts + d->off;
    const char *pre = prefix_of(spec);
    g_autofree char *want = NULL;

    switch (d->type) {
    case VDC_OPT_FLAG:
        *(int *)p = 1;
        return 0;
    case VDC_OPT_HELP:
        return 0;
    case VDC_OPT_CALL:
        return d->parse(opts, d, arg);
    case VDC_OPT_STR:
    case VDC_OPT_STRV:
        if (!*arg && !(d->type == VDC_OPT_STR && d->empty_ok)) {
            want = expected(d);
            vdc_input_error("%s--%s: expected %s", pre, d->name, want);
            return -1;
        }
        if (d->type == VDC_OPT_STR) {
            g_free(*(char **)p);
            *(char **)p = g_strdup(arg);
        } else {
            char ***v = p;
            guint n = *v ? g_strv_length(*v) : 0;

            *v = g_renew(char *, *v, n + 2);
            (*v)[n] = g_strdup(arg);
            (*v)[n + 1] = NULL;
        }
        return 0;
    case VDC_OPT_ENUM:
    case VDC_OPT_LIST: {
        g_auto(GStrv) items = d->type == VDC_OPT_LIST ? g_strsplit(arg, ",", -1) : NULL;
        int ok = d->type == VDC_OPT_ENUM ? vdc_opts_in_choices(d->choices, arg) : items[0] != NULL;
        size_t i;

        for (i = 0; ok && items && items[i]; i++)
            ok = vdc_opts_in_choices(d->choices, items[i]);
        if (!ok) {
            want = expected(d);
            vdc_input_error("%s--%s '%s': expected %s", pre, d->name, arg, want);
            return -1;
        }
        g_free(*(char **)p);
        *(char **)p = g_strdup(arg);
        return 0;
    }
    case VDC_OPT_UINT: {
        char *end = NULL;
        unsigned long long v;

        if (d->word && !strcmp(arg, d->word)) {
            *(unsigned *)p = VDC_OPT_WORD;
            return 0;
        }
        errno = 0;
        v = strtoull(arg, &end, 10);
        if (!g_ascii_isdigit(arg[0]) || *end || errno || v < d->min || v > d->max) {
            want = expected(d);
            vdc_input_error("%s--%s '%s': expected %s", pre, d->name, arg, want);
            return -1;
        }
        *(unsigned *)p = (unsigned)v;
        return 0;
    }
    case VDC_OPT_SIZE: {
        uint64_t v = 0;

        if (vdc_parse_size(arg, 1ULL << 20, &v) < 0 || v == 0) {
            g_autofree char *why = size_why(arg);
            g_autofree char *hi = d->max ? size_text(d->max) : NULL;

            want = expected(d);
            vdc_input_error("%s--%s '%s': expected %s%s%s%s%s", pre, d->name, arg, want, hi ? ", at most " : "",
                            hi ? hi : "", why ? ": " : "", why ? why : "");
            return -1;
        }
        if ((d->align && v % d->align) || (d->max && v > d->max)) {
            want = size_bounds(d);
            vdc_input_error("%s--%s '%s': expected %s", pre, d->name, arg, want);
            return -1;
        }
        *(uint64_t *)p = v;
        return 0;
    }
    }
    return -1;
}

/* the in-scope option whose name is a prefix of @d's, or has it as one */
static const vdc_opt *
similar_in_scope(const vdc_opts_spec *spec, const vdc_opt *d)
{
    size_t i;

    for (i = 0; i < spec->n; i++) {
        const vdc_opt *o = &spec->table[i];

        if (o != d && in_scope(spec, o) &&
            (g_str_has_prefix(o->name, d->name) || g_str_has_prefix(d->name, o->name)))
            return o;
    }
    return NULL;
}

static void
scope_error(const vdc_opts_spec *spec, const vdc_opt *d)
{
    const vdc_opt *like = similar_in_scope(spec, d);
    g_autofree char *hint = like ? g_strdup_printf(": did you mean --%s?", like->name) : g_strdup("");

    vdc_input_error("%soption '--%s' applies only to %s%s: expected one of the options in 'vmdiskcmp %s --help'%s",
                    prefix_of(spec), d->name, spec->scope_label ? spec->scope_label : "", d->scopes,
                    spec->command, hint);
}

/* getopt's complaint ('?' or ':') about argv[optind - 1], as one line */
static void
getopt_error(const vdc_opts_spec *spec, int c, char **argv)
{
    const char *bad = optind > 0 && argv[optind - 1] ? argv[optind - 1] : "?";
    const char *pre = prefix_of(spec);
    const vdc_opt *d = NULL;
    size_t i;

    if (optopt >= 0x100 && (size_t)(optopt - 0x100) < spec->n)
        d = &spec->table[optopt - 0x100];
    for (i = 0; !d && optopt > 0 && optopt < 0x100 && c == ':' && i < spec->n; i++)
        if (spec->table[i].short_name == optopt)
            d = &spec->table[i];
    if (d && c == ':') {
        g_autofree char *dash = optopt < 0x100 ? g_strdup_printf("-%c", optopt)
                                               : g_strdup_printf("--%s", d->name);

        vdc_input_error("%s%s: expected a value (%s)", pre, dash,
                        d->metavar ? d->metavar : d->choices ? d->choices : "see --help");
    } else if (d) {                         /* --dry-run=1 */
        vdc_input_error("%s--%s: takes no value (found '%s'): expected --%s alone", pre, d->name, bad, d->name);
    } else if (optopt > 0 && optopt < 0x100) {
        /* a letter of a short cluster (-zq, -q=1): argv[optind - 1] may
         * still be the argument before it */
        vdc_input_error("%sunknown option '-%c': expected one of the options in "
                        "'vmdiskcmp %s --help'", pre, optopt, spec->command);
    } else {
        vdc_input_error("%sunknown option '%s': expected one of the options in "
                        "'vmdiskcmp %s --help'", pre, bad, spec->command);
    }
}

vdc_opts_result
vdc_opts_parse(const vdc_opts_spec *spec, void *opts, int argc, char **argv, int *first,
               int *dashdash)
{
    g_autofree struct option *lo = g_new0(struct option, spec->n + 1);
    /* "+" stops at the first operand; ":" tells a missing value from an
     * unknown option; then the one-letter aliases */
    g_autofree char *shorts = g_malloc0(2 + 2 * spec->n + 1);
    /* the value each single-valued option was given first (in argv) */
    g_autofree const char **given = g_new0(const char *, spec->n + 1);
    size_t i, ns = 0;
    int c, last_value = -1;

    if (spec->operands != VDC_OPERANDS_ANYWHERE)
        shorts[ns++] = '+';
    shorts[ns++] = ':';
    for (i = 0; i < spec->n; i++) {
        lo[i].name = spec->table[i].name;
        lo[i].has_arg = takes_value(&spec->table[i]) ? required_argument : no_argument;
        lo[i].val = LONG_VAL(i);
        if (spec->table[i].short_name) {
            shorts[ns++] = spec->table[i].short_name;
            if (takes_value(&spec->table[i]))
                shorts[ns++] = ':';
        }
    }
    optind = 0;     /* full reinitialisation (glibc): parse as often as we like */
    opterr = 0;     /* our one line, not getopt's */
    while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
        const vdc_opt *d = NULL;

        if (c == '?' || c == ':') {
            getopt_error(spec, c, argv);
            return VDC_OPTS_ERROR;
        }
        if (c >= 0x100)
            d = &spec->table[c - 0x100];
        for (i = 0; !d && i < spec->n; i++)
            if (spec->table[i].short_name == c)
                d = &spec->table[i];
        if (!d)
            return VDC_OPTS_ERROR;      /* not reached: getopt knows only the table */
        if (!in_scope(spec, d)) {
            scope_error(spec, d);
            return VDC_OPTS_ERROR;
        }
        if (d->type == VDC_OPT_HELP)
            return VDC_OPTS_HELP;
        if (optarg && optind > 0 && optarg == argv[optind - 1])
            last_value = optind - 1;
        if (d->type == VDC_OPT_FLAG) {
            /* a flag twice is refused as a value twice is: a typo for
             * another option, or a line pasted together */
            size_t k = (size_t)(d - spec->table);

            if (given[k]) {
                vdc_input_error("%s--%s given twice: expected it once", prefix_of(spec), d->name);
                return VDC_OPTS_ERROR;
            }
            given[k] = d->name;
        } else if (takes_value(d) && d->type != VDC_OPT_STRV && !(d->type == VDC_OPT_CALL && d->repeatable)) {
            size_t k = (size_t)(d - spec->table);

            if (given[k]) {
                vdc_input_error("%s--%s given twice ('%s', then '%s'): expected one value", prefix_of(spec),
                                d->name, given[k], optarg);
                return VDC_OPTS_ERROR;
            }
            given[k] = optarg;
        }
        if (set_value(spec, opts, d, optarg) < 0)
            return VDC_OPTS_ERROR;
    }
    if (first)
        *first = optind;
    if (dashdash)
        *dashdash = optind > 0 && optind - 1 != last_value && argv[optind - 1] &&
                    !strcmp(argv[optind - 1], "--");
    if (spec->operands == VDC_OPERANDS_NONE && optind < argc) {
        vdc_input_error("%sunexpected argument '%s': %s takes options only", prefix_of(spec),
                        argv[optind], spec->command);
        return VDC_OPTS_ERROR;
    }
    return VDC_OPTS_OK;
}

/* @text after @first on its first line and @rest on the others, broken at
 * blanks so that no line is wider than VDC_OPTS_HELP_WIDTH characters
 * (UTF-8); a word wider than the room is cut. */
static void
help_wrap(FILE *f, const char *first, const char *rest, const char *text)
{
    const char *lead = first, *p = text;

    do {
        long room = MAX(VDC_OPTS_HELP_WIDTH - g_utf8_strlen(lead, -1), 20), used = 0;
        const char *q = p, *brk = NULL;

        while (*q && used <= room) {
            if (*q == ' ')
                brk = q;
            used++;
            q = g_utf8_next_char(q);
        }
        if (!*q && used <= room)
            brk = q;
        else if (!brk || brk == p) {
            long k;

            for (brk = p, k = 0; k < room && *brk; k++)
                brk = g_utf8_next_char(brk);
        }
        fputs(lead, f);
        fwrite(p, 1, (size_t)(brk - p), f);
        fputc('\n', f);
        for (p = brk; *p == ' '; p++)
            ;
        lead = rest;
    } while (*p);
}

/* Each line of @text as it is when it fits VDC_OPTS_HELP_WIDTH, else
 * wrapped, its continuation indented two blanks past its own. */
static void
help_fold(FILE *f, const char *text)
{
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    size_t i;

    for (i = 0; lines[i]; i++) {
        size_t lead = strspn(lines[i], " ");
        g_autofree char *first = g_strndup(lines[i], lead);
        g_autofree char *rest = g_strdup_printf("%s  ", first);

        if (!lines[i + 1] && !*lines[i])
            break;      /* the text's last newline */
        if (g_utf8_strlen(lines[i], -1) <= VDC_OPTS_HELP_WIDTH || !lines[i][lead])
            fprintf(f, "%s\n", lines[i]);
        else
            help_wrap(f, first, rest, lines[i] + lead);
    }
}

/* The option column of --help: as wide as the widest option it holds, up
 * to this; a wider option stands on a line of its own, its help under it. */
#define HELP_OPTION_MAX 32

void
vdc_opts_help(const vdc_opts_spec *spec, FILE *f)
{
    g_autoptr(GPtrArray) lhs = g_ptr_array_new_with_free_func(g_free);
    size_t i, width = 0;
    g_autofree char *rest = NULL;

    for (i = 0; i < spec->n; i++) {
        const vdc_opt *d = &spec->table[i];
        g_autofree char *name = d->short_name ? g_strdup_printf("-%c, --%s", d->short_name, d->name)
                                              : g_strdup_printf("--%s", d->name);
        char *s = takes_value(d) ? g_strdup_printf("%s %s", name, d->metavar ? d->metavar : d->choices)
                                 : g_strdup(name);
        size_t w = (size_t)g_utf8_strlen(s, -1);

        if (in_scope(spec, d) && w <= HELP_OPTION_MAX)
            width = MAX(width, w);
        g_ptr_array_add(lhs, s);
    }
    rest = g_strnfill(width + 3, ' ');
    if (spec->usage)
        help_fold(f, spec->usage);
    for (i = 0; i < spec->n; i++) {
        const vdc_opt *d = &spec->table[i];
        const char *o = lhs->pdata[i];
        g_autoptr(GString) text = g_string_new(d->help);
        g_autofree char *first = NULL;

        if (!in_scope(spec, d))
            continue;
        if (d->def)
            g_string_append_printf(text, " [%s]", d->def);
        if (!spec->scope && d->scopes)
            g_string_append_printf(text, " [%s]", d->scopes);
        if ((size_t)g_utf8_strlen(o, -1) > width) {
            fprintf(f, "  %s\n", o);
            first = g_strdup(rest);
        } else {
            first = g_strdup_printf("  %s%*s ", o, (int)(width - (size_t)g_utf8_strlen(o, -1)), "");
        }
        help_wrap(f, first, rest, text->str);
    }
    if (spec->epilogue)
        help_fold(f, spec->epilogue);
}

void
vdc_opts_dispose(const vdc_opts_spec *spec, void *opts)
{
    size_t i;

    for (i = 0; i < spec->n; i++) {
        void *p = (char *)opts + spec->table[i].off;

        switch (spec->table[i].type) {
        case VDC_OPT_STR:
        case VDC_OPT_ENUM:
        case VDC_OPT_LIST:
            g_clear_pointer((char **)p, g_free);
            break;
        case VDC_OPT_STRV:
            g_clear_pointer((char ***)p, g_strfreev);
            break;
        default:
            break;
        }
    }
}
