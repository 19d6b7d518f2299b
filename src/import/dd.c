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
 * 3.78s system 12% cpu 37.205 total").  What is not printed stays absent.
 *
 * This file reads transcripts line by line and turns each into a run; the
 * command is read by dd_command.c, dd's and the shell's output lines by
 * dd_output.c. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "import/import_priv.h"

/* The reader: the transcript in progress, and what is in force for the
 * output that follows: a loop's command (a template), the section or
 * separator line, a dd error line waiting for its output. */
struct vdc_dd_ctx {
    vdc_result_set *rs;
    GPtrArray *labels;           /* label of each run appended, NULL none */
    vdc_dd_transcript *cur;
    vdc_dd_transcript *tmpl;     /* a command with shell-expanded operands, NULL none */
    int64_t sep_bs;              /* block size of the section or separator line, -1 none */
    int64_t sep_count;           /* its count=, -1 none */
    char *section;               /* the section or separator line in force */
    long section_line;
    vdc_test_id section_test;    /* READ: dd_read, WRITE: dd_write, else VDC_TEST_UNKNOWN */
    char *error;                 /* a dd error line not yet followed by output */
    long error_line;
    int n_runs;
};

static void
command_clear(vdc_dd_transcript *t)
{
    g_free(t->command);
    g_free(t->in_file);
    g_free(t->out_file);
    g_free(t->conv);
    g_free(t->iflag);
    g_free(t->oflag);
    g_free(t->status);
}

static void
transcript_free(vdc_dd_transcript *t)
{
    if (!t)
        return;
    command_clear(t);
    g_free(t->label);
    g_free(t->section);
    g_free(t->error);
    g_free(t);
}

/* A transcript's members before anything is read (@t zeroed). */
static void
transcript_reset(vdc_dd_transcript *t)
{
    t->bs = t->ibs = t->obs = t->count = -1;
    t->in_full = t->in_part = t->out_full = t->out_part = -1;
    t->truncated = 0;
    t->bytes = -1;
    t->secs = t->real_s = t->user_s = t->sys_s = NAN;
    t->section_test = VDC_TEST_UNKNOWN;
}

/* A transcript of dd's output beginning at @line: the template, the
 * section and the error line in force are its. */
static vdc_dd_transcript *
transcript_new(vdc_dd_ctx *d, long line, const char *label)
{
    vdc_dd_transcript *t = g_new0(vdc_dd_transcript, 1), *c = d->tmpl;

    transcript_reset(t);
    t->line = line;
    t->label = g_strdup(label);
    if (c) {
        t->has_command = 1;
        t->command_line = c->command_line;
        t->command = g_strdup(c->command);
        t->timed = c->timed;
        t->prompted = c->prompted;
        t->in_file = g_strdup(c->in_file);
        t->out_file = g_strdup(c->out_file);
        t->bs = c->bs;
        t->ibs = c->ibs;
        t->obs = c->obs;
        t->count = c->count;
        t->conv = g_strdup(c->conv);
        t->iflag = g_strdup(c->iflag);
        t->oflag = g_strdup(c->oflag);
        t->status = g_strdup(c->status);
        t->vars = c->vars;
    }
    t->section = g_strdup(d->section);
    t->section_line = d->section_line;
    t->section_test = d->section_test;
    t->error = d->error;
    t->error_line = d->error_line;
    d->error = NULL;
    return t;
}

vdc_dd_ctx *
vdc_dd_new(vdc_result_set *rs, GPtrArray *labels)
{
    vdc_dd_ctx *d = g_new0(vdc_dd_ctx, 1);

    d->rs = rs;
    d->labels = labels;
    d->sep_bs = d->sep_count = -1;
    d->section_test = VDC_TEST_UNKNOWN;
    return d;
}

void
vdc_dd_free(vdc_dd_ctx *d)
{
    if (!d)
        return;
    transcript_free(d->cur);
    transcript_free(d->tmpl);
    g_free(d->section);
    g_free(d->error);
    g_free(d);
}

int
vdc_dd_n_runs(const vdc_dd_ctx *d)
{
    return d->n_runs;
}

/* The size after "@key=" in @line (a word of its own: "bs=" not "ibs="),
 * into *@out.  1 found, 0 not. */
static int
named_size(const char *line, const char *key, int64_t *out)
{
    const char *p = line;
    size_t kl = strlen(key), i = 0;
    char buf[32];

    while ((p = strstr(p, key))) {
        if ((p == line || !g_ascii_isalpha(p[-1])) && p[kl] == '=')
            break;
        p += kl;
    }
    if (!p)
        return 0;
    p += kl + 1;
    while (p[i] && g_ascii_isalnum(p[i]) && i + 1 < sizeof(buf)) {
        buf[i] = p[i];
        i++;
    }
    buf[i] = '\0';
    return vdc_import_dd_size(buf, out) == 0;
}

/* A new section begins at @line: what it says replaces what was in force. */
static void
set_section(vdc_dd_ctx *d, const vdc_import_pos *pos, const char *line, int64_t bs,
            vdc_test_id test)
{
    g_free(d->section);
    d->section = g_strndup(line, 200);
    d->section_line = pos->line;
    d->section_test = test;
    d->sep_bs = bs;
    if (!named_size(line, "count", &d->sep_count))
        d->sep_count = -1;
}

/* "=== bs=8k ===", "--- block size 16k ---", "bs=32k:", "--- bs=8K /
 * count=256K / 1 ---" between the transcripts of a sweep: the block size it
 * names, 0 when @line is not one. */
static int64_t
separator_line(const char *line)
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
    return v;
}

/* What a tool's section title says was measured: "READ (no cache
 * bs=1M):", "=== WRITE ===", "LATENCY" (its first word, upper case as such
 * logs print it: READ, READING, WRITE, WRITING, LATENCY, COPY).  Returns 1
 * (and *@test: dd_read, dd_write or VDC_TEST_UNKNOWN), 0 not a title. */
static int
section_title(const char *line, vdc_test_id *test)
{
    static const struct { const char *word; vdc_test_id test; } words[] = {
        { "READ", VDC_TEST_DD_READ }, { "READING", VDC_TEST_DD_READ },
        { "WRITE", VDC_TEST_DD_WRITE }, { "WRITING", VDC_TEST_DD_WRITE },
        { "LATENCY", VDC_TEST_UNKNOWN }, { "COPY", VDC_TEST_UNKNOWN },
    };
    const char *p = line;
    size_t n = 0, i;

    while (*p && !g_ascii_isalnum(*p) && strchr("=-*#[ ", *p))
        p++;
    while (g_ascii_isupper(p[n]))
        n++;
    if (!n || g_ascii_isalnum(p[n]) || strlen(line) > 80 || strstr(line, "records") ||
        strstr(line, " copied"))
        return 0;
    for (i = 0; i < G_N_ELEMENTS(words); i++)
        if (strlen(words[i].word) == n && !strncmp(p, words[i].word, n)) {
            *test = words[i].test;
            return 1;
        }
    return 0;
}

/* dd's own diagnostic: "dd: error writing '/f': No space left on device",
 * "dd: failed to open '/dev/sdz': ..." (translated after "dd: "); not
 * "dd: warning: ..." (1), other lines 0. */
static int
error_line(const char *line)
{
    return g_str_has_prefix(line, "dd: ") && line[4] && !g_str_has_prefix(line, "dd: warning:");
}

/* A dd error line that no output followed: said on stderr, no run. */
static void
error_without_run(const vdc_import_pos *pos, long line, const char *error)
{
    vdc_error_kind(VDC_ERR_NONE, "warning: %s:%ld: dd printed an error and no records after it: "
                   "no run imported (%.120s)", pos->file, line, error);
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

/* What @t measured (of=/dev/null reads, if=/dev/zero writes, a section
 * saying READ or WRITE when no command is known), and where. */
static vdc_test_id
measured(const vdc_dd_transcript *t, const char **device)
{
    int to_null = t->out_file && !strcmp(t->out_file, "/dev/null");

    *device = NULL;
    if (t->has_command && to_null && !is_source(t->in_file)) {
        *device = t->in_file;
        return VDC_TEST_DD_READ;
    }
    if (t->has_command && is_source(t->in_file) && !to_null) {
        *device = t->out_file;
        return VDC_TEST_DD_WRITE;
    }
    if (t->has_command) {
        *device = t->out_file ? t->out_file : t->in_file;
        return VDC_TEST_DD_COPY;
    }
    return t->section_test != VDC_TEST_UNKNOWN ? t->section_test : VDC_TEST_DD_COPY;
}

/* The sizes of a loop's command that the separator line names (bs=$bs,
 * count=$count).  0, or -1 after a message. */
static int
template_sizes(vdc_dd_transcript *t, const vdc_import_pos *pos, int64_t sep_bs,
               int64_t sep_count)
{
    if (t->vars & (VDC_DD_VAR_BS | VDC_DD_VAR_IBS | VDC_DD_VAR_OBS)) {
        if (sep_bs <= 0)
            return vdc_import_fail(pos, "the dd command at line %ld gives its block size as a "
                                   "shell variable and no separator line above this output "
                                   "names it: expected a line such as '--- bs=8K ---' before "
                                   "each run", t->command_line);
        if (t->vars & VDC_DD_VAR_BS)
            t->bs = sep_bs;
        if (t->vars & VDC_DD_VAR_IBS)
            t->ibs = sep_bs;
        if (t->vars & VDC_DD_VAR_OBS)
            t->obs = sep_bs;
    }
    if ((t->vars & VDC_DD_VAR_COUNT) && sep_count > 0)
        t->count = sep_count;
    if (t->count > 0 && t->n_records == 2 && t->in_full + t->in_part > t->count)
        return vdc_import_fail(pos, "dd read %" G_GINT64_FORMAT " records where count=%"
                               G_GINT64_FORMAT ": expected the output of the command at "
                               "line %ld with the values its separator line names",
                               (gint64)(t->in_full + t->in_part), (gint64)t->count,
                               t->command_line);
    return 0;
}

/* The block size of the measured side of @t (bs=, ibs= of a read, obs= of
 * a write, the separator's, bytes / records, dd's default 512), 0 unknown. */
static int64_t
block_size(const vdc_dd_transcript *t, vdc_test_id test, int64_t sep_bs)
{
    int64_t bs = t->bs > 0 ? t->bs
                 : test == VDC_TEST_DD_READ ? t->ibs : test == VDC_TEST_DD_WRITE ? t->obs
                 : t->obs > 0 ? t->obs : t->ibs;

    if (bs <= 0 && !t->has_command && sep_bs > 0)
        bs = sep_bs;
    if (bs <= 0 && t->has_summary && t->n_records == 2 && t->out_part == 0 && t->out_full > 0 &&
        t->bytes % t->out_full == 0)
        bs = t->bytes / t->out_full;
    if (bs <= 0 && t->has_command)
        bs = 512;   /* dd's default ibs and obs */
    return bs > 0 ? bs : 0;
}

/* The run's command members (@t has a command of its own or a loop's). */
static void
command_meta(vdc_run *r, const vdc_dd_transcript *t, vdc_test_id test, const char *device)
{
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

/* The transcript is complete: append its run.  0 or -1. */
static int
finish(vdc_dd_ctx *d, const vdc_import_pos *at)
{
    vdc_dd_transcript *t = d->cur;
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
        if (t->error) {
            error_without_run(&pos, t->error_line, t->error);   /* "failed to open" */
            rc = 0;
        } else if (!t->timed && !t->prompted) {
            rc = 0;           /* prose naming a dd command: not a transcript */
        } else {
            vdc_import_fail(&pos, "the dd command has no output: expected its 'records in' and "
                            "'records out' lines");
        }
        goto out;
    }
    if (t->n_records == 1) {
        vdc_import_fail(&pos, "dd's 'records in' line has no 'records out' line after it: "
                        "expected both");
        goto out;
    }
    if (template_sizes(t, &pos, d->sep_bs, d->sep_count) < 0)
        goto out;
    test = measured(t, &device);
    bs = block_size(t, test, d->sep_bs);
    if (!bs) {
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
    r->meta.source.line = t->has_command && !t->vars ? t->command_line : t->line;
    vdc_set_str(&r->meta.source.format, t->has_summary ? t->wording : "dd-records");
    vdc_set_str(&r->meta.source.section, t->section);
    if (t->has_command)
        command_meta(r, t, test, device);
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
    if (t->error) {
        /* dd stopped on an error: what it moved is not the test's rate */
        vdc_set_str(&r->status, "failed");
        vdc_set_str(&r->error, t->error);
        vdc_set_str(&s->error, t->error);
        s->failed = 1;
    } else if (secs > 0) {
        s->value = (double)bytes / secs / 1048576.0;
    } else {
        s->too_fast = 1;   /* "Infinity B/s": no time to measure */
    }
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

/* A dd error line waits for output; anything else drops it with a warning. */
static void
drop_error(vdc_dd_ctx *d, const vdc_import_pos *pos)
{
    if (!d->error)
        return;
    error_without_run(pos, d->error_line, d->error);
    g_clear_pointer(&d->error, g_free);
}

int
vdc_dd_flush(vdc_dd_ctx *d, const vdc_import_pos *pos)
{
    int rc = finish(d, pos);

    drop_error(d, pos);
    return rc;
}

/* A dd command (@probe, parsed): the transcript in progress is complete;
 * a loop's command (shell-expanded operands) becomes the template of the
 * output that follows (2), any other begins a transcript (1); -1 after a
 * message. */
static int
command(vdc_dd_ctx *d, const vdc_import_pos *pos, vdc_dd_transcript *probe, const char *label)
{
    vdc_dd_transcript *nt;

    if (finish(d, pos) < 0) {
        command_clear(probe);
        return -1;
    }
    drop_error(d, pos);
    nt = g_new0(vdc_dd_transcript, 1);
    *nt = *probe;
    nt->line = pos->line;
    nt->label = g_strdup(label);
    transcript_reset(nt);
    nt->bs = probe->bs;
    nt->ibs = probe->ibs;
    nt->obs = probe->obs;
    nt->count = probe->count;
    if (nt->vars) {
        nt->is_template = 1;
        transcript_free(d->tmpl);
        d->tmpl = nt;
        return 2;
    }
    d->cur = nt;
    return 1;
}

int
vdc_dd_line(vdc_dd_ctx *d, const vdc_import_pos *pos, const char *line, const char *label)
{
    vdc_dd_transcript probe, *t = d->cur;
    int64_t full, part, n, bs;
    vdc_test_id test;
    int r;

    /* the shell's time output ends a transcript ("real ...", zsh's "dd ...
     * 0.84s user 3.78s system 12% cpu 37.205 total") */
    if (t && (t->n_records == 2 || t->has_summary) && vdc_dd_time_line(line, t))
        return 1;
    /* a new command */
    memset(&probe, 0, sizeof(probe));
    transcript_reset(&probe);
    r = vdc_dd_parse_command(pos, line, &probe);
    if (r > 0)
        return command(d, pos, &probe, label);
    command_clear(&probe);
    if (r < 0)
        return -1;
    if (vdc_dd_records_line(line, &full, &part)) {
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
        if (!t)
            t = d->cur = transcript_new(d, pos->line, label);
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
    if (t && t->n_records == 2 && !t->has_summary && vdc_dd_truncated_line(line, &n)) {
        t->truncated = n;
        return 1;
    }
    {
        vdc_dd_transcript tmp;

        memset(&tmp, 0, sizeof(tmp));
        r = vdc_dd_summary_line(pos, line, &tmp, t && (t->has_command || t->n_records > 0));
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
                t = d->cur = transcript_new(d, pos->line, label);
            t->has_summary = 1;
            t->summary_line = tmp.summary_line;
            t->bytes = tmp.bytes;
            t->secs = tmp.secs;
            t->wording = tmp.wording;
            return 1;
        }
    }
    if (error_line(line)) {
        /* dd prints its error before its records: a command without
         * output yet keeps it, else it waits for the output that follows */
        if (t && t->n_records == 0 && !t->has_summary && !t->error) {
            t->error = g_strndup(line, 200);
            t->error_line = pos->line;
            return 1;
        }
        if (finish(d, pos) < 0)
            return -1;
        drop_error(d, pos);
        d->error = g_strndup(line, 200);
        d->error_line = pos->line;
        return 1;
    }
    if (g_str_has_prefix(line, "dd: warning:"))
        return 1;
    /* anything else ends the transcript */
    if (finish(d, pos) < 0)
        return -1;
    drop_error(d, pos);
    if ((bs = separator_line(line)) > 0) {
        if (!section_title(line, &test))
            test = VDC_TEST_UNKNOWN;
        set_section(d, pos, line, bs, test);
        return 1;
    }
    if (section_title(line, &test)) {
        set_section(d, pos, line, -1, test);
        return 1;
    }
    return 0;
}
