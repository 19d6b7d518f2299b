/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dd transcripts, what dd and the shell print: the records lines, the
 * summary line in every wording GNU dd has printed and its translations,
 * and the shell's `time` output.  The transcript reader is dd.c, which
 * says what each shape is (doc/importers.md "dd transcripts"). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "import/import_priv.h"

/* "N+M records in" (any language: N+M then words without digits) */
int
vdc_dd_records_line(const char *line, int64_t *full, int64_t *part)
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
int
vdc_dd_truncated_line(const char *line, int64_t *n)
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
int
vdc_dd_summary_line(const vdc_import_pos *pos, const char *line, vdc_dd_transcript *t, int strict)
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
int
vdc_dd_time_line(const char *line, vdc_dd_transcript *t)
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
