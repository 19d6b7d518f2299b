/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dd transcripts, the command: a `dd ...` line as typed (after a prompt,
 * `time`, `sudo`, `sh -c "..."`), its operands read with dd's own size
 * suffixes (coreutils src/dd.c: if, of, bs, ibs, obs, cbs, count, skip,
 * seek, conv, iflag, oflag, status), and the numbers of dd's output in any
 * locale.  The transcript reader is dd.c (doc/importers.md "dd
 * transcripts"). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "import/import_priv.h"

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

/* A shell redirection ("2>&1", ">log", "&>/dev/null", "<in"): the end of
 * dd's operands. */
static int
redirection_word(const char *w)
{
    while (g_ascii_isdigit(*w))
        w++;
    return *w == '>' || *w == '<' || (*w == '&' && w[1] == '>');
}

/* The operand bit of @key for vdc_dd_transcript.vars, 0 for one the
 * reader does not use */
static unsigned
operand_var(const char *key)
{
    static const struct { const char *key; unsigned bit; } bits[] = {
        { "if", VDC_DD_VAR_IF }, { "of", VDC_DD_VAR_OF }, { "bs", VDC_DD_VAR_BS },
        { "ibs", VDC_DD_VAR_IBS }, { "obs", VDC_DD_VAR_OBS }, { "count", VDC_DD_VAR_COUNT },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(bits); i++)
        if (!strcmp(key, bits[i].key))
            return bits[i].bit;
    return 0;
}

/* Is @line a dd command?  Returns 1 (and fills @t), 0 not one, -1 after a
 * message (a dd command with an operand dd does not have).  An operand
 * whose value is a shell expansion ("bs=$bs", "of=${dev}", "count=`n`": a
 * loop's command) is not read: its bit is set in t->vars (the separator
 * lines of the runs name the values). */
int
vdc_dd_parse_command(const vdc_import_pos *pos, const char *line, vdc_dd_transcript *t)
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
    /* what stands before dd: a prompt, time, sudo, sync;, sh -c, a loop
     * ("for bs in 4k 64k; do") */
    for (k = 0; k < i; k++) {
        if (!strcmp(w[k], "for")) {
            while (k + 1 < i && strcmp(w[k + 1], ";"))
                k++;
            if (k + 1 == i)
                goto out;        /* "for a quick test, dd if=..." */
            continue;
        }
        if (!strcmp(w[k], "time"))
            t->timed = 1;
        else if (k == 0 && prompt_word(w[k]))
            t->prompted = 1;
        else if (strcmp(w[k], "sudo") && strcmp(w[k], "sync") && strcmp(w[k], ";") &&
                 strcmp(w[k], "&&") && strcmp(w[k], "sh") && strcmp(w[k], "bash") &&
                 strcmp(w[k], "-c") && strcmp(w[k], "-p") && strcmp(w[k], "nice") &&
                 strcmp(w[k], "/usr/bin/time") && strcmp(w[k], "command") && strcmp(w[k], "do"))
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
    for (k = i + 1; k < n && strcmp(w[k], ";") && strcmp(w[k], "&&") && strcmp(w[k], "|") &&
                    !redirection_word(w[k]); k++) {
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
        if (operand_var(w[k]) && (strchr(v, '$') || strchr(v, '`'))) {
            t->vars |= operand_var(w[k]);
            continue;
        }
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
