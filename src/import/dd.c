/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dd transcripts: `time dd ...` as people paste them, and dd's summary lines
 * alone, in every wording GNU dd has printed (sources: coreutils src/dd.c
 * print_stats / print_xfer_stats over its history, and the coreutils po/
 * translations; doc/importers.md "dd transcripts" has the list):
 *
 *   records    all versions (fileutils, coreutils):
 *                "%ju+%ju records in\n%ju+%ju records out\n"
 *                ["%ju truncated record(s)\n"]
 *   5.3 - 6.0  "%s bytes (%s) copied" ", %g seconds, %s/s\n" (", %g second, ..."):
 *                "1073741824 bytes (1.1 GB) copied, 1.92275 seconds, 545 MB/s"
 *   6.1 - 8.24 "%ju bytes (%s) copied" ", %g s, %s/s\n":
 *                "1073741824 bytes (1.1 GB) copied, 21.2264 s, 49.4 MB/s"
 *   8.25 on    "%jd bytes (%s, %s) copied, %s, %s" (SI, IEC), "%jd bytes (%s)
 *              copied, %s, %s" (under 1 KiB), "%jd bytes copied, %s, %s"
 *              (under 1 kB), "Infinity B/s" for a zero time:
 *                "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 2.05 s, 524 MB/s"
 *
 * Translations change the words ("Datensätze ein", "octets ... copiés",
 * "скопировано N байт", ", %g Sekunde, %s/s") and, through LC_NUMERIC, the
 * decimal point of %g and of human_readable ("1,92275 s", "1,1 GB").  The
 * parser therefore reads the shape, not the words: a records line is
 * "N+M WORDS" (the first of a pair "in", the second "out"); a summary line
 * is "... BYTES ... [(SIZE[, SIZE])] ..., TIME UNIT, RATE PREFIX B/s" split at
 * ", " outside the parentheses, with one integer outside them (the byte
 * count) and '.' or ',' as the decimal mark.  The printed sizes and rate are
 * checked against BYTES and TIME to their printed precision, so a line that
 * only looks like a summary is refused, not misread.
 *
 * The shell's `time` output follows the transcript: bash ("real 0m37.205s",
 * also with a decimal comma), POSIX -p ("real 37.20"), GNU time's default
 * line ("0.84user 3.78system 0:37.20elapsed ...") and zsh ("... 0.84s user
 * 3.78s system 12% cpu 37.205 total").  What is not printed stays absent. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "import/import_priv.h"

/* One transcript being read. */
typedef struct {
    long line;                   /* its first line */
    int has_command;
    long command_line;
    char *command;               /* as typed, prompt removed */
    int timed;                   /* `time` before dd */
    int prompted;                /* a shell prompt before the command */
    char *in_file, *out_file;    /* if=, of= */
    int64_t bs, ibs, obs, count; /* -1 absent */
    char *conv, *iflag, *oflag, *status;
    int n_records;               /* records lines seen: 0, 1 (in), 2 (out) */
    int64_t in_full, in_part, out_full, out_part;
    int64_t truncated;
    int has_summary;
    long summary_line;
    int64_t bytes;
    double secs;                 /* NAN: not printed */
    const char *wording;         /* source.format */
    double real_s, user_s, sys_s;
    char *label;
} dd_transcript;

struct vdc_dd_ctx {
    vdc_result_set *rs;
    GPtrArray *labels;           /* label of each run appended, NULL none */
    dd_transcript *cur;
    int64_t sep_bs;              /* block size of a separator line, -1 none */
    int64_t sep_count;
    int n_runs;
};

static void
transcript_free(dd_transcript *t)
{
    if (!t)
        return;
    g_free(t->command);
    g_free(t->in_file);
    g_free(t->out_file);
    g_free(t->conv);
    g_free(t->iflag);
    g_free(t->oflag);
    g_free(t->status);
    g_free(t->label);
    g_free(t);
}

static dd_transcript *
transcript_new(long line, const char *label)
{
    dd_transcript *t = g_new0(dd_transcript, 1);

    t->line = line;
    t->bs = t->ibs = t->obs = t->count = -1;
    t->in_full = t->in_part = t->out_full = t->out_part = -1;
    t->truncated = 0;
    t->bytes = -1;
    t->secs = t->real_s = t->user_s = t->sys_s = NAN;
    t->label = g_strdup(label);
    return t;
}

vdc_dd_ctx *
vdc_dd_new(vdc_result_set *rs, GPtrArray *labels)
{
    vdc_dd_ctx *d = g_new0(vdc_dd_ctx, 1);

    d->rs = rs;
    d->labels = labels;
    d->sep_bs = d->sep_count = -1;
    return d;
}

void
vdc_dd_free(vdc_dd_ctx *d)
{
    if (!d)
        return;
    transcript_free(d->cur);
    g_free(d);
}

int
vdc_dd_n_runs(const vdc_dd_ctx *d)
{
    return d->n_runs;
}

/* ---- Tokens ------------------------------------------------------------------ */

/* A decimal number as %g or human_readable print it in any locale: digits,
 * one optional '.' or ',' and fraction, an optional exponent ("1.5e-05").
 * Returns 0 or -1. */
int
vdc_import_dd_number(const char *s, double *out)
{
    char buf[48];
    size_t i = 0, n = strlen(s), digits = 0;
    char *end = NULL;
    double d;

    if (!n || n >= sizeof(buf))
        return -1;
    memcpy(buf, s, n + 1);
    while (i < n && g_ascii_isdigit(buf[i])) {
        i++;
        digits++;
    }
    if (i < n && (buf[i] == '.' || buf[i] == ',')) {
        buf[i++] = '.';
        while (i < n && g_ascii_isdigit(buf[i])) {
            i++;
            digits++;
        }
    }
    if (!digits)
        return -1;
    if (i < n && (buf[i] == 'e' || buf[i] == 'E')) {
        i++;
        if (i < n && (buf[i] == '-' || buf[i] == '+'))
            i++;
        if (i >= n || !g_ascii_isdigit(buf[i]))
            return -1;
        while (i < n && g_ascii_isdigit(buf[i]))
            i++;
    }
    if (i != n)
        return -1;
    d = g_ascii_strtod(buf, &end);
    if (*end || !isfinite(d) || d < 0)
        return -1;
    *out = d;
    return 0;
}

/* A dd size operand (coreutils dd's suffixes): N, Nc (1), Nw (2), Nb (512),
 * NkB/NK/Nk/NKiB (1000 / 1024), MB/M/MiB, GB/G/GiB, TB/T/TiB, and products
 * "2x512".  Returns 0 or -1. */
int
vdc_import_dd_size(const char *s, int64_t *out)
{
    static const struct { const char *suffix; double mult; } suffixes[] = {
        { "", 1 }, { "c", 1 }, { "w", 2 }, { "b", 512 },
        { "kB", 1e3 }, { "K", 1024 }, { "k", 1024 }, { "KiB", 1024 }, { "kiB", 1024 },
        { "MB", 1e6 }, { "M", 1048576 }, { "MiB", 1048576 },
        { "GB", 1e9 }, { "G", 1073741824.0 }, { "GiB", 1073741824.0 },
        { "TB", 1e12 }, { "T", 1099511627776.0 }, { "TiB", 1099511627776.0 },
    };
    char **parts = g_strsplit(s, "x", -1);
    double total = 1;
    guint i, k;
    int rc = -1;

    if (!*s || !parts[0])
        goto out;
    for (i = 0; parts[i]; i++) {
        const char *p = parts[i];
        size_t nd = 0;
        int64_t n;

        while (g_ascii_isdigit(p[nd]))
            nd++;
        if (vdc_import_count(p, nd, &n) < 0)
            goto out;
        for (k = 0; k < G_N_ELEMENTS(suffixes); k++)
            if (!strcmp(p + nd, suffixes[k].suffix))
                break;
        if (k == G_N_ELEMENTS(suffixes))
            goto out;
        total *= (double)n * suffixes[k].mult;
    }
    if (total < 1 || total > 1e15)
        goto out;
    *out = (int64_t)total;
    rc = 0;
 out:
    g_strfreev(parts);
    return rc;
}

/* Shell words of @line: blanks separate, quotes are dropped (sh -c "dd ...
 * && sync"), ';' '&&' '||' '|' stand alone. */
static char **
shell_words(const char *line, guint *n)
{
    GPtrArray *a = g_ptr_array_new();
    GString *w = g_string_new(NULL);
    const char *p;

    for (p = line; ; p++) {
        if (!*p || *p == ' ' || *p == '\t' || *p == ';' || *p == '|' ||
            (*p == '&' && p[1] == '&')) {
            if (w->len)
                g_ptr_array_add(a, g_strdup(w->str));
            g_string_truncate(w, 0);
            if (!*p)
                break;
            if (*p == ';')
                g_ptr_array_add(a, g_strdup(";"));
            else if (*p == '|')
                g_ptr_array_add(a, g_strdup("|"));
            else if (*p == '&') {
                g_ptr_array_add(a, g_strdup("&&"));
                p++;
            }
            continue;
        }
        if (*p == '"' || *p == '\'')
            continue;
        g_string_append_c(w, *p);
    }
    g_string_free(w, TRUE);
    *n = a->len;
    g_ptr_array_add(a, NULL);
    return (char **)g_ptr_array_free(a, FALSE);
}

static const char *const dd_operands[] = {
    "if", "of", "bs", "ibs", "obs", "cbs", "count", "skip", "seek", "iseek", "oseek",
    "conv", "iflag", "oflag", "status", NULL,
};

/* A shell prompt before the command: "#", "$", "%", "user@host:~#",
 * "[root@host ~]#", "sh-4.2#" */
static int
prompt_word(const char *w)
{
    size_t n = strlen(w);

    return n && strchr("#$%>", w[n - 1]) != NULL;
}

/* Is @line a dd command?  Returns 1 (and fills @t), 0 not one, -1 after a
 * message (a dd command with an operand dd does not have). */
static int
parse_command(const vdc_import_pos *pos, const char *line, dd_transcript *t)
{
    guint n, i, k, start = 0;
    char **w = shell_words(line, &n);
    char *cmd = NULL;
    int rc = 0, operands = 0;

    for (i = 0; i < n; i++) {
        const char *base = strrchr(w[i], '/');

        base = base ? base + 1 : w[i];
        if (!strcmp(base, "dd") && (!strchr(w[i], '/') || w[i][0] == '/'))
            break;
    }
    if (i == n)
        goto out;
    /* what stands before dd: a prompt, time, sudo, sync;, sh -c */
    for (k = 0; k < i; k++) {
        if (!strcmp(w[k], "time"))
            t->timed = 1;
        else if (k == 0 && prompt_word(w[k]))
            t->prompted = 1;
        else if (strcmp(w[k], "sudo") && strcmp(w[k], "sync") && strcmp(w[k], ";") &&
                 strcmp(w[k], "&&") && strcmp(w[k], "sh") && strcmp(w[k], "bash") &&
                 strcmp(w[k], "-c") && strcmp(w[k], "-p") && strcmp(w[k], "nice") &&
                 strcmp(w[k], "/usr/bin/time") && strcmp(w[k], "command"))
            goto out;    /* prose that names dd ("use dd if=... to") */
        if (k == 0 && prompt_word(w[k]))
            start = 1;
    }
    {
        /* the command as typed, without the prompt */
        GString *c = g_string_new(NULL);

        for (k = start; k < n; k++) {
            if (c->len)
                g_string_append_c(c, ' ');
            g_string_append(c, w[k]);
        }
        cmd = g_string_free(c, FALSE);
    }
    for (k = i + 1; k < n && strcmp(w[k], ";") && strcmp(w[k], "&&") && strcmp(w[k], "|"); k++) {
        char *eq = strchr(w[k], '=');
        const char *v;
        int64_t size;

        if (!eq) {
            /* "# dd on a VPS": prose; "dd if=a of=b junk" at a prompt: an error */
            if (!operands || (!t->timed && !t->prompted))
                goto out;
            rc = vdc_import_fail(pos, "dd operand '%.40s': expected KEY=VALUE (if=, of=, bs=, "
                                 "count=, conv=, iflag=, oflag=...)", w[k]);
            goto out;
        }
        *eq = '\0';
        v = eq + 1;
        if (!g_strv_contains(dd_operands, w[k])) {
            if (!operands && !t->timed && !t->prompted)
                goto out;
            rc = vdc_import_fail(pos, "dd operand '%.20s=': expected one of if, of, bs, ibs, obs, "
                                 "cbs, count, skip, seek, conv, iflag, oflag, status", w[k]);
            goto out;
        }
        operands++;
        if (!strcmp(w[k], "if"))
            vdc_set_str(&t->in_file, v);
        else if (!strcmp(w[k], "of"))
            vdc_set_str(&t->out_file, v);
        else if (!strcmp(w[k], "conv"))
            vdc_set_str(&t->conv, v);
        else if (!strcmp(w[k], "iflag"))
            vdc_set_str(&t->iflag, v);
        else if (!strcmp(w[k], "oflag"))
            vdc_set_str(&t->oflag, v);
        else if (!strcmp(w[k], "status"))
            vdc_set_str(&t->status, v);
        else if (!strcmp(w[k], "bs") || !strcmp(w[k], "ibs") || !strcmp(w[k], "obs") ||
                 !strcmp(w[k], "count")) {
            if (vdc_import_dd_size(v, &size) < 0) {
                rc = vdc_import_fail(pos, "dd %s=%.20s: expected a size such as 512, 8k, 1M "
                                     "or 2x512", w[k], v);
                goto out;
            }
            if (!strcmp(w[k], "bs"))
                t->bs = size;
            else if (!strcmp(w[k], "ibs"))
                t->ibs = size;
            else if (!strcmp(w[k], "obs"))
                t->obs = size;
            else
                t->count = size;
        }
    }
    if (!operands && !t->timed && !t->prompted)
        goto out;
    t->command = cmd;
    cmd = NULL;
    t->has_command = 1;
    t->command_line = pos->line;
    rc = 1;
 out:
    g_free(cmd);
    g_strfreev(w);
    return rc;
}

/* "N+M records in" (any language: N+M then words without digits) */
static int
records_line(const char *line, int64_t *full, int64_t *part)
{
    const char *plus = strchr(line, '+'), *sp, *p;

    if (!plus || !g_ascii_isdigit(line[0]))
        return 0;
    sp = strchr(plus, ' ');
    if (!sp || vdc_import_count(line, (size_t)(plus - line), full) < 0 ||
        vdc_import_count(plus + 1, (size_t)(sp - plus - 1), part) < 0)
        return 0;
    for (p = sp; *p; p++)
        if (g_ascii_isdigit(*p) || *p == ',' || *p == '=')
            return 0;
    return sp[1] != '\0';
}

/* "N truncated records" after the records lines */
static int
truncated_line(const char *line, int64_t *n)
{
    const char *sp = strchr(line, ' '), *p;

    if (!sp || vdc_import_count(line, (size_t)(sp - line), n) < 0)
        return 0;
    for (p = sp; *p; p++)
        if (g_ascii_isdigit(*p) || *p == ',' || *p == '+')
            return 0;
    return 1;
}

/* human_readable's SI/IEC prefixes with 'B' */
static double
size_unit(const char *u)
{
    static const char *const si = "kMGTPEZY";
    const char *p;
    size_t n = strlen(u);

    if (!strcmp(u, "B"))
        return 1;
    if (n == 2 && u[1] == 'B' && (u[0] == 'K' || (p = strchr(si, u[0])))) {
        p = strchr(si, u[0] == 'K' ? 'k' : u[0]);
        return pow(1000.0, (double)(p - si + 1));
    }
    if (n == 3 && u[1] == 'i' && u[2] == 'B' && (u[0] == 'K' || strchr(si, u[0]))) {
        p = strchr(si, u[0] == 'K' ? 'k' : u[0]);
        return pow(1024.0, (double)(p - si + 1));
    }
    return 0;
}

/* Does human_readable's "1.1 GB" (@num, @unit) stand for @x?  It rounds to
 * nearest with one decimal below 10 and none above: allow half a printed
 * unit, and 0.5 % more for the time's own %g rounding. */
static int
human_agrees(const char *num, double mult, double x)
{
    double v, tol;
    const char *dot = strpbrk(num, ".,");

    if (vdc_import_dd_number(num, &v) < 0)
        return 0;
    tol = (dot ? 0.05 * pow(10.0, -(double)(strlen(dot + 1) - 1)) : 0.5) * mult;
    return fabs(v * mult - x) <= tol + 0.005 * x + 1e-9;
}

/* "1,1 GB" / "1.1GB" -> number and unit */
static int
split_human(const char *s, char *num, size_t nsz, char *unit, size_t usz)
{
    size_t i = 0, n = strlen(s);

    while (i < n && (g_ascii_isdigit(s[i]) || s[i] == '.' || s[i] == ','))
        i++;
    if (!i || i >= nsz)
        return -1;
    memcpy(num, s, i);
    num[i] = '\0';
    while (i < n && s[i] == ' ')
        i++;
    if (n - i >= usz || n == i)
        return -1;
    memcpy(unit, s + i, n - i + 1);
    return 0;
}

/* The unit words of dd's time in the translations of coreutils po/ (the
 * "%g s" of 6.1 on is "s" in most, "Sekunde", "seconde", "секунда",
 * "sekunda", "sekund", "másodperc", "saniye" in some; 5.3 - 6.0 printed
 * "second(s)").  A line outside a transcript must use one of these to be
 * taken as a summary line: prose with two commas is not one. */
static const char *const time_units[] = {
    "s", "sec", "second", "seconds", "Sekunde", "Sekunden", "seconde", "secondes",
    "segundo", "segundos", "secondo", "secondi", "seconden", "sekund", "sekunda",
    "sekundy", "sekunder", "sekunnit", "sekuntia", "секунда", "секунды", "секунд",
    "másodperc", "saniye", "秒", NULL,
};

/* The summary line.  Returns 1 (fills @t), 0 not one, -1 after a message.
 * @strict: a transcript is in progress (a command or records lines): a
 * line of the right shape whose numbers disagree is an error, not prose. */
static int
summary_line(const vdc_import_pos *pos, const char *line, dd_transcript *t, int strict)
{
    const char *open = strchr(line, '('), *close = open ? strchr(open, ')') : NULL;
    char *outside = NULL, *inside = NULL, **parts = NULL, **words = NULL, **sizes = NULL;
    char num[48], unit[16];
    int64_t bytes = -1;
    double secs, rate, mult;
    guint np, i;
    int rc = 0, n_sizes = 0;
    const char *rate_s, *slash;

    if (!strstr(line, ", "))
        return 0;
    if (open && close) {
        outside = g_strdup_printf("%.*s%s", (int)(open - line), line, close + 1);
        inside = g_strndup(open + 1, (gsize)(close - open - 1));
    } else if (open || strchr(line, ')')) {
        return 0;
    } else {
        outside = g_strdup(line);
    }
    parts = g_strsplit(outside, ", ", -1);
    np = g_strv_length(parts);
    if (np != 3)
        goto out;
    /* the byte count: the one integer among the words of the first part */
    words = g_strsplit(g_strstrip(parts[0]), " ", -1);
    for (i = 0; words[i]; i++) {
        int64_t b;

        if (*words[i] && g_ascii_isdigit(words[i][0])) {
            if (bytes >= 0 || vdc_import_count(words[i], strlen(words[i]), &b) < 0)
                goto out;
            bytes = b;
        }
    }
    if (bytes < 0 || i < 2)
        goto out;
    g_strfreev(words);
    /* the time: "1.92275 seconds", "21,2264 s", "0 s" */
    words = g_strsplit(g_strstrip(parts[1]), " ", -1);
    if (g_strv_length(words) != 2 || vdc_import_dd_number(words[0], &secs) < 0 ||
        g_ascii_isdigit(words[1][0]) || (!strict && !g_strv_contains(time_units, words[1])))
        goto out;
    /* the rate: "545 MB/s", "1,1 GB/s", "Infinity B/s", "5 kB/mp" */
    rate_s = g_strstrip(parts[2]);
    slash = strrchr(rate_s, '/');
    if (!slash || !slash[1])
        goto out;
    {
        char *r = g_strndup(rate_s, (gsize)(slash - rate_s));
        const char *sp = strrchr(r, ' ');

        if (g_ascii_isdigit(r[0])) {
            if (split_human(r, num, sizeof(num), unit, sizeof(unit)) < 0 ||
                !(mult = size_unit(unit)) || vdc_import_dd_number(num, &rate) < 0) {
                g_free(r);
                goto out;
            }
            /* the rate dd printed is BYTES / TIME, rounded */
            if (secs > 0 && !human_agrees(num, mult, (double)bytes / secs)) {
                if (!strict) {
                    g_free(r);
                    goto out;
                }
                rc = vdc_import_fail(pos, "dd's rate %.*s/s disagrees with %" G_GINT64_FORMAT
                                     " bytes in %g s (%.4g B/s): expected the summary line as dd "
                                     "printed it", (int)strlen(r), r, (gint64)bytes, secs,
                                     (double)bytes / secs);
                g_free(r);
                goto out;
            }
        } else if (!sp || strcmp(sp + 1, "B") || secs != 0) {
            /* "Infinity B/s" (translated: "unendlich B/s") only for a zero time */
            g_free(r);
            goto out;
        }
        g_free(r);
    }
    /* the sizes in parentheses: "1.1 GB", "1.1 GB, 1.0 GiB" */
    if (inside) {
        sizes = g_strsplit(inside, ", ", -1);
        n_sizes = (int)g_strv_length(sizes);
        if (n_sizes < 1 || n_sizes > 2)
            goto out;
        for (i = 0; sizes[i]; i++) {
            if (split_human(g_strstrip(sizes[i]), num, sizeof(num), unit, sizeof(unit)) < 0 ||
                !(mult = size_unit(unit)))
                goto out;
            if (!human_agrees(num, mult, (double)bytes)) {
                if (!strict)
                    goto out;
                rc = vdc_import_fail(pos, "dd's size (%s) disagrees with its byte count %"
                                     G_GINT64_FORMAT ": expected the summary line as dd printed it",
                                     sizes[i], (gint64)bytes);
                goto out;
            }
        }
    }
    t->has_summary = 1;
    t->summary_line = pos->line;
    t->bytes = bytes;
    t->secs = secs;
    t->wording = n_sizes == 2 || (!inside && bytes < 1000) ? "dd-coreutils-8.25"
                 : "dd-coreutils-5.3";
    rc = 1;
 out:
    g_strfreev(sizes);
    g_strfreev(words);
    g_strfreev(parts);
    g_free(inside);
    g_free(outside);
    return rc;
}

/* "0m37.205s" (bash), "37.20" (time -p), "1:02.5" / "0:37.20" (GNU time) */
static int
shell_time(const char *s, double *out)
{
    char *m = NULL, *copy = g_strdup(s);
    size_t n = strlen(copy);
    double min = 0, sec, hours = 0;
    int64_t whole;
    int rc = -1;
    char *colon;

    if (n && copy[n - 1] == 's')
        copy[--n] = '\0';
    m = strchr(copy, 'm');
    colon = strchr(copy, ':');
    if (m) {
        *m = '\0';
        if (vdc_import_count(copy, strlen(copy), &whole) < 0 || vdc_import_dd_number(m + 1, &sec) < 0)
            goto out;
        min = (double)whole;
    } else if (colon) {
        char *colon2 = strchr(colon + 1, ':');

        *colon = '\0';
        if (vdc_import_count(copy, strlen(copy), &whole) < 0)
            goto out;
        if (colon2) {
            int64_t mm;

            *colon2 = '\0';
            hours = (double)whole;
            if (vdc_import_count(colon + 1, strlen(colon + 1), &mm) < 0 ||
                vdc_import_dd_number(colon2 + 1, &sec) < 0)
                goto out;
            min = (double)mm;
        } else {
            min = (double)whole;
            if (vdc_import_dd_number(colon + 1, &sec) < 0)
                goto out;
        }
    } else if (vdc_import_dd_number(copy, &sec) < 0) {
        goto out;
    }
    *out = hours * 3600 + min * 60 + sec;
    rc = 0;
 out:
    g_free(copy);
    return rc;
}

/* The shell's time output.  Returns 1 if @line was one (sets t's times). */
static int
time_line(const char *line, dd_transcript *t)
{
    guint n, i;
    char **w = vdc_import_tokens(line, &n);
    double v, v2, v3;
    int rc = 0;

    if (n == 2 && (!strcmp(w[0], "real") || !strcmp(w[0], "user") || !strcmp(w[0], "sys")) &&
        shell_time(w[1], &v) == 0) {
        /* bash, time -p */
        if (w[0][0] == 'r')
            t->real_s = v;
        else if (w[0][0] == 'u')
            t->user_s = v;
        else
            t->sys_s = v;
        rc = 1;
    } else if (n >= 3 && g_str_has_suffix(w[0], "user") && g_str_has_suffix(w[1], "system") &&
               g_str_has_suffix(w[2], "elapsed")) {
        /* GNU time: "0.84user 3.78system 0:37.20elapsed 12%CPU (...)" */
        w[0][strlen(w[0]) - 4] = '\0';
        w[1][strlen(w[1]) - 6] = '\0';
        w[2][strlen(w[2]) - 7] = '\0';
        if (vdc_import_dd_number(w[0], &v) == 0 && vdc_import_dd_number(w[1], &v2) == 0 &&
            shell_time(w[2], &v3) == 0) {
            t->user_s = v;
            t->sys_s = v2;
            t->real_s = v3;
            rc = 1;
        }
    } else if (n >= 8 && !strcmp(w[n - 1], "total")) {
        /* zsh: "dd ... 0.84s user 3.78s system 12% cpu 37.205 total" */
        for (i = 0; i + 7 < n; i++)
            if (!strcmp(w[i + 1], "user") && !strcmp(w[i + 3], "system") &&
                !strcmp(w[i + 5], "cpu") && shell_time(w[i], &v) == 0 &&
                shell_time(w[i + 2], &v2) == 0 && shell_time(w[n - 2], &v3) == 0) {
                t->user_s = v;
                t->sys_s = v2;
                t->real_s = v3;
                rc = 1;
                break;
            }
    } else if (n >= 1 && strstr(line, "inputs+") && strstr(line, "outputs (") &&
               strstr(line, "minor)pagefaults")) {
        rc = 1;    /* GNU time's second line: "0inputs+8outputs (0major+94minor)pagefaults 0swaps" */
    }
    g_strfreev(w);
    return rc;
}

/* "=== bs=8k ===", "--- block size 16k ---", "bs=32k:" between the
 * transcripts of a sweep.  Returns 1 and sets the block size, 0 not one. */
static int
separator_line(vdc_dd_ctx *d, const char *line)
{
    const char *p = strstr(line, "bs=");
    char buf[32];
    size_t i = 0;
    int64_t v;

    if (!p) {
        p = g_strstr_len(line, -1, "block size");
        if (!p)
            p = g_strstr_len(line, -1, "Block size");
        if (!p)
            return 0;
        p += strlen("block size");
        while (*p == ' ' || *p == ':' || *p == '=')
            p++;
    } else {
        if (p > line && g_ascii_isalpha(p[-1]))
            return 0;   /* ibs=, obs= */
        p += 3;
    }
    while (p[i] && (g_ascii_isalnum(p[i])) && i + 1 < sizeof(buf)) {
        buf[i] = p[i];
        i++;
    }
    buf[i] = '\0';
    if (vdc_import_dd_size(buf, &v) < 0)
        return 0;
    /* nothing else that looks like data on the line */
    if (strstr(line, "records") || strstr(line, " copied"))
        return 0;
    d->sep_bs = v;
    return 1;
}

static int
contains_word(const char *list, const char *word)
{
    char **w = g_strsplit(list ? list : "", ",", -1);
    int found = g_strv_contains((const char *const *)w, word);

    g_strfreev(w);
    return found;
}

static int
is_source(const char *f)
{
    return f && (!strcmp(f, "/dev/zero") || !strcmp(f, "/dev/urandom") ||
                 !strcmp(f, "/dev/random"));
}

/* The transcript is complete: append its run.  0 or -1. */
static int
finish(vdc_dd_ctx *d, const vdc_import_pos *at)
{
    dd_transcript *t = d->cur;
    vdc_import_pos pos = { at->file, t ? t->line : at->line };
    vdc_test_id test;
    int64_t bs, obs, ops = -1, bytes;
    double secs;
    vdc_run *r;
    vdc_sample *s;
    const char *device = NULL;
    int rc = -1;

    if (!t)
        return 0;
    d->cur = NULL;
    if (t->has_command && t->n_records == 0 && !t->has_summary) {
        if (!t->timed && !t->prompted) {
            rc = 0;           /* prose naming a dd command: not a transcript */
            goto out;
        }
        vdc_import_fail(&pos, "the dd command has no output: expected its 'records in' and "
                        "'records out' lines");
        goto out;
    }
    if (t->n_records == 1) {
        vdc_import_fail(&pos, "dd's 'records in' line has no 'records out' line after it: "
                        "expected both");
        goto out;
    }
    /* what was measured: of=/dev/null reads, if=/dev/zero writes */
    if (t->has_command && t->out_file && !strcmp(t->out_file, "/dev/null") &&
        !is_source(t->in_file)) {
        test = VDC_TEST_DD_READ;
        device = t->in_file;
    } else if (t->has_command && is_source(t->in_file) &&
               !(t->out_file && !strcmp(t->out_file, "/dev/null"))) {
        test = VDC_TEST_DD_WRITE;
        device = t->out_file;
    } else {
        test = VDC_TEST_DD_COPY;
        device = t->has_command ? (t->out_file ? t->out_file : t->in_file) : NULL;
    }
    /* the block size of the measured side */
    bs = t->bs > 0 ? t->bs
         : test == VDC_TEST_DD_READ ? t->ibs : test == VDC_TEST_DD_WRITE ? t->obs
         : t->obs > 0 ? t->obs : t->ibs;
    if (bs <= 0 && !t->has_command && d->sep_bs > 0)
        bs = d->sep_bs;
    if (bs <= 0 && t->has_summary && t->n_records == 2 && t->out_part == 0 && t->out_full > 0 &&
        t->bytes % t->out_full == 0)
        bs = t->bytes / t->out_full;
    if (bs <= 0 && t->has_command)
        bs = 512;   /* dd's default ibs and obs */
    if (bs <= 0) {
        vdc_import_fail(&pos, "dd's block size is not known: expected the dd command (bs=) or a "
                        "separator line such as 'bs=8k' before its output");
        goto out;
    }
    /* the bytes moved: records out are obs-sized (bs= sets both) */
    obs = t->bs > 0 ? t->bs : t->obs > 0 ? t->obs : t->has_command ? 512 : bs;
    if (t->n_records == 2 && t->out_full > (int64_t)(1e18 / (double)obs)) {
        vdc_import_fail(&pos, "dd's %" G_GINT64_FORMAT " records of %" G_GINT64_FORMAT " bytes "
                        "are more than an exabyte: expected the records lines as dd printed "
                        "them", (gint64)t->out_full, (gint64)obs);
        goto out;
    }
    if (t->has_summary) {
        bytes = t->bytes;
        if (t->n_records == 2 && t->out_part == 0 && t->bytes != t->out_full * obs) {
            vdc_import_fail(&pos, "dd's %" G_GINT64_FORMAT " bytes disagree with its %"
                            G_GINT64_FORMAT " full records of %" G_GINT64_FORMAT " bytes: expected "
                            "the transcript of one dd run", (gint64)t->bytes,
                            (gint64)t->out_full, (gint64)obs);
            goto out;
        }
    } else if (t->out_part == 0) {
        bytes = t->out_full * obs;
    } else {
        vdc_import_fail(&pos, "dd wrote %" G_GINT64_FORMAT " partial records and printed no byte "
                        "count: expected its 'bytes ... copied' line", (gint64)t->out_part);
        goto out;
    }
    if (t->n_records == 2)
        ops = test == VDC_TEST_DD_READ ? t->in_full + t->in_part : t->out_full + t->out_part;
    secs = t->has_summary ? t->secs : t->real_s;
    if (!vdc_has(secs)) {
        vdc_import_fail(&pos, "no time for this dd run: expected dd's 'bytes ... copied' line "
                        "or the shell's time output (real ...)");
        goto out;
    }
    r = vdc_result_set_add_run(d->rs, "");
    vdc_set_str(&r->meta.tool, "dd");
    vdc_set_str(&r->meta.source.file, pos.file);
    r->meta.source.line = t->has_command ? t->command_line : t->line;
    vdc_set_str(&r->meta.source.format, t->has_summary ? t->wording : "dd-records");
    if (t->has_command) {
        const char *side = test == VDC_TEST_DD_READ ? t->iflag : test == VDC_TEST_DD_WRITE ? t->oflag
                           : NULL;

        vdc_set_str(&r->meta.command_line, t->command);
        vdc_set_str(&r->meta.dd_conv, t->conv);
        vdc_set_str(&r->meta.dd_iflag, t->iflag);
        vdc_set_str(&r->meta.dd_oflag, t->oflag);
        r->meta.direct_io = side ? contains_word(side, "direct")
                            : contains_word(t->iflag, "direct") || contains_word(t->oflag, "direct");
        if (test != VDC_TEST_DD_READ)
            r->meta.fsync_every_write = contains_word(t->oflag, "dsync") ||
                                        contains_word(t->oflag, "sync");
        if (device && g_str_has_prefix(device, "/dev/"))
            vdc_set_str(&r->meta.device, device);
        else if (device)
            vdc_set_str(&r->meta.path, device);
    }
    s = vdc_run_add_sample(r, vdc_tests[test].name);
    s->block_size = bs;
    s->bytes = bytes;
    if (ops >= 0)
        s->ops = ops;
    if (t->has_summary)
        s->elapsed_s = t->secs;
    s->real_s = t->real_s;
    s->user_s = t->user_s;
    s->system_s = t->sys_s;
    if (secs > 0)
        s->value = (double)bytes / secs / 1048576.0;
    else
        s->too_fast = 1;   /* "Infinity B/s": no time to measure */
    if (vdc_has(t->sys_s) && ops > 0)
        s->system_us_per_op = t->sys_s * 1e6 / (double)ops;
    if (vdc_has(t->real_s) && t->real_s > 0 && vdc_has(t->user_s) && vdc_has(t->sys_s))
        s->cpu_percent = 100.0 * (t->user_s + t->sys_s) / t->real_s;
    g_ptr_array_add(d->labels, g_strdup(t->label));
    d->n_runs++;
    rc = 0;
 out:
    transcript_free(t);
    return rc;
}

int
vdc_dd_flush(vdc_dd_ctx *d, const vdc_import_pos *pos)
{
    return finish(d, pos);
}

int
vdc_dd_pending(const vdc_dd_ctx *d)
{
    return d->cur != NULL;
}

int
vdc_dd_line(vdc_dd_ctx *d, const vdc_import_pos *pos, const char *line, const char *label)
{
    dd_transcript probe, *t = d->cur;
    int64_t full, part, n;
    int r;

    /* the shell's time output ends a transcript ("real ...", zsh's "dd ...
     * 0.84s user 3.78s system 12% cpu 37.205 total") */
    if (t && (t->n_records == 2 || t->has_summary) && time_line(line, t))
        return 1;
    /* a new command */
    memset(&probe, 0, sizeof(probe));
    probe.bs = probe.ibs = probe.obs = probe.count = -1;
    r = parse_command(pos, line, &probe);
    if (r <= 0 || finish(d, pos) < 0) {
        /* what a failed or prose parse stored */
        g_free(probe.command); g_free(probe.in_file); g_free(probe.out_file);
        g_free(probe.conv); g_free(probe.iflag); g_free(probe.oflag); g_free(probe.status);
        memset(&probe, 0, sizeof(probe));
        if (r != 0)
            return -1;
    }
    if (r > 0) {
        dd_transcript *nt;

        nt = transcript_new(pos->line, label);
        g_free(nt->label);
        probe.line = nt->line;
        probe.in_full = probe.in_part = probe.out_full = probe.out_part = -1;
        probe.bytes = -1;
        probe.secs = probe.real_s = probe.user_s = probe.sys_s = NAN;
        probe.label = g_strdup(label);
        *nt = probe;
        d->cur = nt;
        return 1;
    }
    if (records_line(line, &full, &part)) {
        if (t && t->n_records == 2) {
            if (finish(d, pos) < 0)
                return -1;
            t = NULL;
        }
        if (t && t->has_summary && t->n_records == 0 && !t->has_command) {
            /* summary lines alone, one per run: this records line begins the next */
            if (finish(d, pos) < 0)
                return -1;
            t = NULL;
        }
        if (!t) {
            t = d->cur = transcript_new(pos->line, label);
        }
        if (t->n_records == 0) {
            if (t->has_summary)   /* status=progress lines came first */
                t->has_summary = 0;
            t->in_full = full;
            t->in_part = part;
        } else {
            t->out_full = full;
            t->out_part = part;
        }
        t->n_records++;
        return 1;
    }
    if (t && t->n_records == 2 && !t->has_summary && truncated_line(line, &n)) {
        t->truncated = n;
        return 1;
    }
    {
        dd_transcript tmp;

        memset(&tmp, 0, sizeof(tmp));
        r = summary_line(pos, line, &tmp, t && (t->has_command || t->n_records > 0));
        if (r < 0)
            return -1;
        if (r > 0) {
            if (t && t->has_summary && (t->n_records == 2 || !t->has_command)) {
                if (finish(d, pos) < 0)
                    return -1;
                t = NULL;
            }
            if (t && t->n_records == 1) {
                return vdc_import_fail(pos, "dd's summary line follows 'records in' without "
                                       "'records out': expected both records lines first");
            }
            if (!t)
                t = d->cur = transcript_new(pos->line, label);
            t->has_summary = 1;
            t->summary_line = tmp.summary_line;
            t->bytes = tmp.bytes;
            t->secs = tmp.secs;
            t->wording = tmp.wording;
            return 1;
        }
    }
    /* anything else ends the transcript */
    if (finish(d, pos) < 0)
        return -1;
    if (separator_line(d, line))
        return 1;
    return 0;
}
