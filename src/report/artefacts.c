/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp artefact rules (artefacts.h): a pure function of a result set.
 * Each rule reads what the runs record (dd's operands, dd's own time and the
 * shell's real time, file size and RAM, where a target ran) and decides per
 * (target, test key); the explanation names the numbers. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "model/result.h"
#include "report/analysis.h"
#include "report/artefacts.h"

/* What the rules found for one cell: its bits and their explanations
 * (indexed by bit, as vdc_cell.why). */
typedef struct {
    const char *target;
    const char *test_key;
    unsigned flags;
    char **why;
    size_t *runs_flagged, *runs_judged;     /* by bit index, or NULL */
} found;

void
vdc_artefact_options_init(vdc_artefact_options *o)
{
    memset(o, 0, sizeof(*o));
    o->dd_time_ratio = 0.5;
    o->dd_time_min_s = 0.5;
    o->guest_margin = 0.05;
}

static void
flag(found *c, unsigned bit, char *reason)
{
    int i;

    for (i = 0; i < VDC_CELL_FLAG_COUNT && bit != (1u << i); i++)
        ;
    if (i == VDC_CELL_FLAG_COUNT || (c->flags & bit)) {
        g_free(reason);
        return;
    }
    c->flags |= bit;
    c->why[i] = reason;
}

static int
is_dd_write(const vdc_test_info *ti)
{
    return ti && (ti->id == VDC_TEST_DD_WRITE || ti->id == VDC_TEST_DD_COPY);
}

static int
has_word(const char *list, const char *word)
{
    char **w;
    int found;

    if (!list)
        return 0;
    w = g_strsplit(list, ",", -1);
    found = g_strv_contains((const char *const *)w, word);
    g_strfreev(w);
    return found;
}

/* A dd write that flushed before dd stopped its clock, or bypassed the
 * page cache: conv=fdatasync/fsync, oflag=direct/dsync/sync. */
static int
dd_write_flushed(const vdc_run *r)
{
    return r->meta.direct_io == 1 || r->meta.fsync_every_write == 1 ||
           has_word(r->meta.dd_conv, "fdatasync") || has_word(r->meta.dd_conv, "fsync") ||
           has_word(r->meta.dd_oflag, "direct") || has_word(r->meta.dd_oflag, "dsync") ||
           has_word(r->meta.dd_oflag, "sync");
}

/* @s cut to @max characters ("..." at the end when cut), valid UTF-8
 * (g_free). */
static char *
short_text(const char *s, glong max)
{
    char *v = g_utf8_make_valid(s, -1), *cut;

    if (g_utf8_strlen(v, -1) <= max)
        return v;
    cut = g_utf8_substring(v, 0, max - 3);
    g_free(v);
    v = g_strconcat(cut, "...", NULL);
    g_free(cut);
    return v;
}

static void
rule_page_cache_write(found *c, const vdc_sample_ref *refs, size_t n,
                      const vdc_test_info *ti)
{
    size_t i, k = 0, known = 0;
    const char *example = NULL;

    if (!is_dd_write(ti))
        return;
    for (i = 0; i < n; i++) {
        const vdc_run *r = refs[i].run;

        if (!r->meta.command_line)
            continue;    /* dd's operands not known: no decision */
        known++;
        if (!dd_write_flushed(r)) {
            k++;
            example = example ? example : r->meta.command_line;
        }
    }
    if (k) {
        char *ex = short_text(example, 100);

        flag(c, VDC_CELL_PAGE_CACHE_WRITE,
             g_strdup_printf("%zu of %zu dd writes without conv=fdatasync, conv=fsync or "
                             "oflag=direct/dsync (\"%s\"): dd timed the page cache, not the "
                             "disk", k, known, ex));
        g_free(ex);
    }
}

static void
rule_dd_time_short(found *c, const vdc_sample_ref *refs, size_t n,
                   const vdc_artefact_options *o)
{
    size_t i, k = 0, both = 0;
    double e = 0, real = 0;

    for (i = 0; i < n; i++) {
        const vdc_sample *s = refs[i].sample;

        if (!vdc_has(s->elapsed_s) || !vdc_has(s->real_s))
            continue;
        both++;
        if (s->elapsed_s < o->dd_time_ratio * s->real_s &&
            s->real_s - s->elapsed_s >= o->dd_time_min_s) {
            if (!k) {
                e = s->elapsed_s;
                real = s->real_s;
            }
            k++;
        }
    }
    if (k)
        flag(c, VDC_CELL_DD_TIME_SHORT,
             g_strdup_printf("dd's own time %.3g s against %.3g s real (%zu of %zu runs): the "
                             "command went on after dd stopped its clock (writeback, sync, "
                             "close), so dd's rate is not the disk's", e, real, k, both));
}

/* The rate of a sample in MiB/s, NAN for a rate of operations (/sec). */
static double
mib_per_s(const vdc_sample *s)
{
    if (!vdc_has(s->value) || !s->unit)
        return NAN;
    if (!strcmp(s->unit, "MiB/s"))
        return s->value;
    if (!strcmp(s->unit, "K/sec"))
        return s->value / 1024.0;
    return NAN;
}

static const vdc_artefact_ceiling *
ceiling_of(const vdc_result_set *rs, const char *target, const vdc_sample_ref *refs, size_t n,
           const vdc_artefact_options *o)
{
    const vdc_target *t = vdc_result_set_find_target(rs, target);
    size_t i, j;

    for (i = 0; i < o->n_ceilings; i++) {
        const char *name = o->ceilings[i].name;

        if (!name)
            continue;
        if (!strcmp(name, target) ||
            (t && t->storage.device && !strcmp(name, t->storage.device)) ||
            (t && t->backend.physical_device && !strcmp(name, t->backend.physical_device)))
            return &o->ceilings[i];
        for (j = 0; j < n; j++)
            if (refs[j].run->meta.device && !strcmp(refs[j].run->meta.device, name))
                return &o->ceilings[i];
    }
    return NULL;
}

static void
rule_above_ceiling(found *c, const vdc_result_set *rs, const vdc_sample_ref *refs,
                   size_t n, const vdc_artefact_options *o)
{
    const vdc_artefact_ceiling *ce = ceiling_of(rs, c->target, refs, n, o);
    size_t i, k = 0;
    double max = 0;

    if (!ce)
        return;
    for (i = 0; i < n; i++) {
        double v = mib_per_s(refs[i].sample);

        if (vdc_has(v) && v > ce->mib_s) {
            k++;
            max = MAX(max, v);
        }
    }
    if (k)
        flag(c, VDC_CELL_ABOVE_CEILING,
             g_strdup_printf("%zu of %zu runs above the stated ceiling of %s, %.1f MiB/s "
                             "(highest %.1f MiB/s): the number cannot be the device's or the "
                             "link's; a cache answered", k, n, ce->name, ce->mib_s, max));
}

/* artefacts.h */
int64_t
vdc_cache_ram_mib(const vdc_result_set *rs, const vdc_run *r)
{
    const vdc_target *t = r->target ? vdc_result_set_find_target(rs, r->target) : NULL;
    int64_t m = t ? vdc_target_machine_memory(rs, t) : VDC_INT_ABSENT;
    int64_t told = r->meta.ram_mib != VDC_INT_ABSENT && r->meta.ram_mib > 0 ? r->meta.ram_mib : 0;

    return MAX(told, m == VDC_INT_ABSENT || m < 0 ? 0 : m);
}

/* Where dd read from or wrote to. */
static const char *
dd_file(const vdc_run *r)
{
    return r->meta.device ? r->meta.device : r->meta.path;
}

static void
rule_cached_reread(found *c, const vdc_result_set *rs, const vdc_sample_ref *refs,
                   size_t n, const vdc_test_info *ti)
{
    size_t i, j, k = 0;
    char *why = NULL;

    if (!ti)
        return;
    for (i = 0; i < n; i++) {
        const vdc_run *r = refs[i].run;
        int64_t ram = vdc_cache_ram_mib(rs, r);

        if (!ram || r->meta.direct_io == 1 || r->meta.drop_caches == 1)
            continue;
        if ((ti->id == VDC_TEST_GET_BLOCK || ti->id == VDC_TEST_GETC) &&
            r->meta.file_size_mib != VDC_INT_ABSENT && r->meta.file_size_mib < ram) {
            /* bonnie's reads read back the file its writes just wrote */
            if (!why)
                why = g_strdup_printf("the %" G_GINT64_FORMAT " MiB file is smaller than the "
                                      "%" G_GINT64_FORMAT " MiB of RAM and was read right after "
                                      "it was written", (gint64)r->meta.file_size_mib,
                                      (gint64)ram);
            k++;
        } else if (ti->id == VDC_TEST_DD_READ && dd_file(r) &&
                   refs[i].sample->bytes != VDC_INT_ABSENT &&
                   (double)refs[i].sample->bytes < (double)ram * 1048576.0) {
            /* a dd read of what an earlier dd run (in the set's order) wrote */
            for (j = 0; j < rs->n_runs && rs->runs[j] != r; j++) {
                const vdc_run *w = rs->runs[j];

                if (w->n_samples && is_dd_write(vdc_test_lookup(w->samples[0]->test)) &&
                    dd_file(w) && !strcmp(dd_file(w), dd_file(r)))
                    break;
            }
            if (j < rs->n_runs && rs->runs[j] != r) {
                if (!why)
                    why = g_strdup_printf("dd read %s (%.1f MiB) right after a dd write of it, "
                                          "less than the %" G_GINT64_FORMAT " MiB of RAM, "
                                          "without iflag=direct", dd_file(r),
                                          (double)refs[i].sample->bytes / 1048576.0, (gint64)ram);
                k++;
            }
        }
    }
    if (k)
        flag(c, VDC_CELL_CACHED_REREAD,
             g_strdup_printf("%s (%zu of %zu runs): served from the page cache, not the disk",
                             why, k, n));
    g_free(why);
}

/* artefacts.h */
const char *
vdc_artefact_host_target(const vdc_result_set *rs, const vdc_artefact_options *o)
{
    const char *found_name = NULL, *where[] = { "dom0", "host" };
    size_t i, w;

    if (o && o->host_target)
        return o->host_target;
    for (w = 0; w < G_N_ELEMENTS(where); w++) {
        for (i = 0; i < rs->n_targets; i++)
            if (rs->targets[i]->where && !strcmp(rs->targets[i]->where, where[w])) {
                if (found_name)
                    return NULL;   /* two hosts: no single baseline */
                found_name = rs->targets[i]->name;
            }
        if (found_name)
            return found_name;
    }
    return NULL;
}

static void
rule_rounded_identical(found *c, const vdc_sample_ref *refs, size_t n)
{
    size_t i, k = 0;
    double first = NAN;

    for (i = 0; i < n; i++) {
        double v = refs[i].sample->value;

        if (!vdc_has(v))
            continue;
        if (!k)
            first = v;
        else if (v != first)
            return;
        k++;
    }
    if (k >= 2)
        flag(c, VDC_CELL_ROUNDED_IDENTICAL,
             g_strdup_printf("all %zu runs give exactly %.6g %s: the 95%% CI is zero-width from "
                             "the printed rounding (dd's %%g seconds, bonnie++ 2.00a's 1.4g), "
                             "not from a steady disk", k, first, refs[0].sample->unit ? refs[0].sample->unit
                             : ""));
}

/* ---- dom0-page-cache: samples[].host evidence (doc/host-cost.md) ---------- */

/* One sample's verdict: 1 flagged, 0 not, -1 no evidence; *@why (first
 * call that flags) gets the figures. */
static int
page_cache_sample(const vdc_test_info *ti, const vdc_sample *s, double b, char **why)
{
    int write = ti->id == VDC_TEST_PUTC || ti->id == VDC_TEST_PUT_BLOCK || ti->id == VDC_TEST_REWRITE;
    double disk = vdc_sample_host_scalar(s, write ? "disk_write_bytes" : "disk_read_bytes");
    double d[2], w[2], res[2];
    int hit;

    if (vdc_has(disk)) {
        hit = disk < 0.5 * b;
        if (hit && !*why)
            *why = g_strdup_printf("%.1f MiB reached the disk under the image while the test %s "
                                   "%.1f MiB", disk / 1048576.0, write ? "wrote" : "read",
                                   b / 1048576.0);
        return hit;
    }
    if (write && vdc_sample_host_pair(s, "dom0_dirty_bytes", d) &&
        vdc_sample_host_pair(s, "dom0_writeback_bytes", w)) {
        double grew = (d[1] + w[1]) - (d[0] + w[0]);

        hit = grew >= 0.5 * b;
        if (hit && !*why)
            *why = g_strdup_printf("dom0's Dirty + Writeback grew by %.1f MiB while the test wrote "
                                   "%.1f MiB: at least half was still in dom0's memory at its end",
                                   grew / 1048576.0, b / 1048576.0);
        return hit;
    }
    if (!write && vdc_sample_host_pair(s, "image_resident_bytes", res)) {
        hit = res[0] >= 0.5 * b;
        if (hit && !*why)
            *why = g_strdup_printf("%.1f MiB of the image were in dom0's page cache before the "
                                   "test read %.1f MiB", res[0] / 1048576.0, b / 1048576.0);
        return hit;
    }
    return -1;
}

static void
rule_dom0_page_cache(found *c, const vdc_result_set *rs, const vdc_sample_ref *refs, size_t n,
                     const vdc_test_info *ti)
{
    const vdc_target *t = vdc_result_set_find_target(rs, c->target);
    size_t i, k = 0, known = 0;
    char *why = NULL;

    /* a domU target whose backend was not read back as bypassing dom0's
     * page cache; seeks and the file tests move bytes not known per test */
    if (!t || !t->where || strcmp(t->where, "domU") || t->cache.bypasses_dom0_page_cache == 1)
        return;
    for (i = 0; i < n; i++) {
        double b = vdc_run_test_bytes(refs[i].run, ti);
        int v;

        if (!vdc_has(b) || b <= 0 || !refs[i].sample->host)
            continue;
        v = page_cache_sample(ti, refs[i].sample, b, &why);
        if (v < 0)
            continue;
        known++;
        k += v;
    }
    if (k && 2 * k >= known && c->runs_flagged) {
        int b = vdc_cell_flag_index(VDC_CELL_DOM0_PAGE_CACHE);

        c->runs_flagged[b] = k;
        c->runs_judged[b] = known;
    }
    if (k && 2 * k >= known)
        flag(c, VDC_CELL_DOM0_PAGE_CACHE,
             g_strdup_printf("served from dom0's page cache in %zu of %zu runs (%s)%s", k, known, why,
                             t->cache.bypasses_dom0_page_cache == 0
                             ? ": the backend was read back as going through dom0's page cache" : ""));
    g_free(why);
}

/* ---- misaligned: targets[].alignment ---------------------------------------- */

static void
rule_misaligned(found *c, const vdc_result_set *rs)
{
    const vdc_target *t = vdc_result_set_find_target(rs, c->target);
    GString *why;
    size_t i;

    if (!t || !vdc_target_misaligned(t))
        return;
    why = g_string_new(NULL);
    for (i = 0; i < t->alignment.n_layers; i++)
        if (t->alignment.layers[i].why)
            g_string_append_printf(why, "%s%s", why->len ? "; " : "", t->alignment.layers[i].why);
    flag(c, VDC_CELL_MISALIGNED,
         g_strdup_printf("the target's storage is misaligned on %s (%s): every write may be a "
                         "read-modify-write of the disk's physical blocks",
                         t->alignment.disk ? t->alignment.disk : "its disk", why->str));
    g_string_free(why, TRUE);
}

/* ---- thin-pool-full: targets[].storage.thin ---------------------------------- */

static void
rule_thin_pool_full(found *c, const vdc_result_set *rs)
{
    const vdc_target *t = vdc_result_set_find_target(rs, c->target);
    const char *what = NULL;
    double pct = t ? vdc_target_thin_pool_full(t, &what) : NAN;

    if (isnan(pct))
        return;
    flag(c, VDC_CELL_THIN_POOL_FULL,
         g_strdup_printf("the target's thin pool %s was %.2f %% full (%s) after the runs, over %.0f %%: "
                         "a write that needs a new chunk may have waited for room or failed",
                         t->storage.thin.pool, pct, what, VDC_THIN_POOL_FULL_PERCENT));
}

/* A job run whose measured window closed before any of its I/Os completed:
 * every I/O took longer than the window (runtime=), so its rate of 0 is the
 * window's, not the disk's.  Flagged, never ranked. */
static void
rule_no_io_in_window(found *c, const vdc_sample_ref *refs, size_t n)
{
    size_t i, k = 0, judged = 0;
    double runtime = NAN;

    for (i = 0; i < n; i++) {
        const vdc_workload *w = refs[i].sample->workload;

        if (!w || w->ios == VDC_INT_ABSENT)
            continue;
        judged++;
        if (w->ios == 0) {
            if (!k)
                runtime = w->job.runtime_s;
            k++;
        }
    }
    if (!k)
        return;
    if (c->runs_flagged) {
        int bit = vdc_cell_flag_index(VDC_CELL_NO_IO_IN_WINDOW);

        c->runs_flagged[bit] = k;
        c->runs_judged[bit] = judged;
    }
    flag(c, VDC_CELL_NO_IO_IN_WINDOW,
         vdc_has(runtime)
         ? g_strdup_printf("%zu of %zu runs completed no I/O in the job's measured window "
                           "(runtime=%.3g s): its I/Os took longer than the window, so their "
                           "rate of 0 is the window's, not the disk's; a longer runtime= "
                           "measures it", k, judged, runtime)
         : g_strdup_printf("%zu of %zu runs completed no I/O in the job's measured window: "
                           "its I/Os took longer than the window, so their rate of 0 is the "
                           "window's, not the disk's", k, judged));
}

/* artefacts.h */
unsigned
vdc_artefacts_of_cell(const vdc_result_set *rs, const char *target, const char *test_key,
                      const vdc_artefact_options *opt, char **why)
{
    return vdc_artefacts_of_cell_counted(rs, target, test_key, opt, why, NULL, NULL);
}

/* artefacts.h */
unsigned
vdc_artefacts_of_cell_counted(const vdc_result_set *rs, const char *target, const char *test_key,
                              const vdc_artefact_options *opt, char **why, size_t *runs_flagged,
                              size_t *runs_judged)
{
    vdc_artefact_options defaults;
    found c = { .target = target, .test_key = test_key, .why = why,
                .runs_flagged = runs_flagged && runs_judged ? runs_flagged : NULL,
                .runs_judged = runs_flagged && runs_judged ? runs_judged : NULL };
    size_t nr = 0;
    int64_t bs;
    vdc_sample_ref *refs = vdc_result_set_lookup(rs, target, test_key, &nr);
    const vdc_test_info *info = vdc_test_key_parse(test_key, &bs);

    if (!opt) {
        vdc_artefact_options_init(&defaults);
        opt = &defaults;
    }
    if (nr) {
        rule_page_cache_write(&c, refs, nr, info);
        rule_dd_time_short(&c, refs, nr, opt);
        rule_above_ceiling(&c, rs, refs, nr, opt);
        rule_cached_reread(&c, rs, refs, nr, info);
        rule_rounded_identical(&c, refs, nr);
        rule_dom0_page_cache(&c, rs, refs, nr, info);
        rule_misaligned(&c, rs);
        rule_no_io_in_window(&c, refs, nr);
        rule_thin_pool_full(&c, rs);
    }
    g_free(refs);
    return c.flags;
}
