/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp renderers: number formatting (render_fmt.h). */
#include "config.h"

#include "report/render_fmt.h"

#include <math.h>
#include <stdio.h>

#include <glib.h>

#include "common/util.h"

const char *
vdc_fmt_num_s(double v)
{
    static char ring[8][48];
    static unsigned next;
    char *b = ring[next++ % 8];

    if (!vdc_has(v))
        b[0] = '\0';
    else if (fabs(v) >= 1000)
        snprintf(b, sizeof(ring[0]), "%.0f", v);
    else if (fabs(v) < 10)
        snprintf(b, sizeof(ring[0]), "%.2f", v);
    else
        snprintf(b, sizeof(ring[0]), "%.1f", v);
    return b;
}

const char *
vdc_fmt_num_like(double v, double like)
{
    static char ring[8][48];
    static unsigned next;
    char *b = ring[next++ % 8];
    int decimals = !vdc_has(like) ? 1 : fabs(like) >= 1000 ? 0 : fabs(like) < 10 ? 2 : 1;

    if (!vdc_has(v))
        b[0] = '\0';
    else
        snprintf(b, sizeof(ring[0]), "%.*f", decimals, v);
    return b;
}

void
vdc_fmt_cell_mean(char *buf, size_t size, const struct vdc_cell *c)
{
    if (c->sum.n && c->n_too_fast_excluded)
        snprintf(buf, size, "%s" VDC_TOO_FAST_MARK, vdc_fmt_num_s(c->sum.mean));
    else if (c->sum.n)
        snprintf(buf, size, "%s", vdc_fmt_num_s(c->sum.mean));
    else if (c->n_too_fast)
        snprintf(buf, size, "+++++ (too fast)");
    else if (c->n_failed)
        snprintf(buf, size, "failed");
    else
        buf[0] = '\0';
    if (c->sum.n && (c->flags & VDC_CELL_ARTEFACTS))
        g_strlcat(buf, VDC_ARTEFACT_MARK, size);
}

void
vdc_fmt_delta(char *buf, size_t size, const struct vdc_stats_comparison *c, int with_mark)
{
    if (!c->has_ratio) {
        buf[0] = '\0';
        return;
    }
    /* a word, not a sign: "-46.5% n/c" */
    snprintf(buf, size, "%+.1f%%%s%s", c->delta_percent,
             with_mark && c->verdict == VDC_VERDICT_NOT_COMPARABLE ? " " : "",
             with_mark ? vdc_significance_mark(c) : "");
}

void
vdc_fmt_cell_delta(char *buf, size_t size, const struct vdc_cell_comparison *cc, int with_mark)
{
    vdc_fmt_delta(buf, size, &cc->c, with_mark);
    if (buf[0] && (cc->target->flags & VDC_CELL_ARTEFACT_MARKED))
        g_strlcat(buf, VDC_ARTEFACT_MARK, size);
}

/* render_fmt.h */
const char *
vdc_fmt_no_delta(const struct vdc_cell_comparison *cc)
{
    const struct vdc_cell *t = cc->target, *b = cc->baseline;

    if (cc->c.has_ratio)
        return NULL;
    if (!t->n_samples && !b->n_samples)
        return "neither ran it";
    if (!t->n_samples)
        return "not run";
    if (!b->n_samples)
        return "baseline not run";
    if (!t->sum.n)
        return t->n_too_fast ? "too fast" : "failed";
    if (!b->sum.n)
        return b->n_too_fast ? "baseline too fast" : "baseline failed";
    return "baseline mean 0";
}

/* render_fmt.h */
void
vdc_fmt_cell_ci(char *buf, size_t size, const struct vdc_cell *c, const char *pm)
{
    if (!c->sum.has_ci_mean)
        snprintf(buf, size, "%s", "");
    else if (c->sum.ci_mean_cut)
        snprintf(buf, size, "[0, %s]", vdc_fmt_num_s(c->sum.ci_mean[1]));
    else
        snprintf(buf, size, "%s%s", pm, vdc_fmt_num_s(c->sum.ci_mean[1] - c->sum.mean));
}

/* render_fmt.h */
char *
vdc_cell_flags_text(unsigned flags)
{
    GString *s = g_string_new(NULL);
    unsigned i;

    for (i = 0; i < VDC_CELL_FLAG_COUNT; i++)
        if (flags & (1u << i))
            g_string_append_printf(s, "%s%s", s->len ? ";" : "", vdc_cell_flag_name(1u << i));
    return g_string_free(s, FALSE);
}
