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

/* The reader: the transcript in progress, the separator line in force. */
struct vdc_dd_ctx {
    vdc_result_set *rs;
    GPtrArray *labels;           /* label of each run appended, NULL none */
    vdc_dd_transcript *cur;
    int64_t sep_bs;              /* block size of a separator line, -1 none */
    int64_t sep_count;
    int n_runs;
};

static void
transcript_free(vdc_dd_transcript *t)
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

static vdc_dd_transcript *
transcript_new(long line, const char *label)
{
    vdc_dd_transcript *t = g_new0(vdc_dd_transcript, 1);

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
vdc_dd_line(vdc_dd_ctx *d, const vdc_import_pos *pos, const char *line, const char *label)
{
    vdc_dd_transcript probe, *t = d->cur;
    int64_t full, part, n;
    int r;

    /* the shell's time output ends a transcript ("real ...", zsh's "dd ...
     * 0.84s user 3.78s system 12% cpu 37.205 total") */
    if (t && (t->n_records == 2 || t->has_summary) && vdc_dd_time_line(line, t))
        return 1;
    /* a new command */
    memset(&probe, 0, sizeof(probe));
    probe.bs = probe.ibs = probe.obs = probe.count = -1;
    r = vdc_dd_parse_command(pos, line, &probe);
    if (r <= 0 || finish(d, pos) < 0) {
        /* what a failed or prose parse stored */
        g_free(probe.command); g_free(probe.in_file); g_free(probe.out_file);
        g_free(probe.conv); g_free(probe.iflag); g_free(probe.oflag); g_free(probe.status);
        memset(&probe, 0, sizeof(probe));
        if (r != 0)
            return -1;
    }
    if (r > 0) {
        vdc_dd_transcript *nt;

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
