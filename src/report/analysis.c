/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp analysis: result set -> cells with statistics -> comparisons. */
#include "config.h"

#include "report/analysis.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "model/knobs.h"

void
vdc_analysis_init(struct vdc_analysis *a)
{
    memset(a, 0, sizeof(*a));
    vdc_stats_options_init(&a->opt);
    vdc_headline_init(&a->headline);
    vdc_answer_init(&a->answer);
    vdc_reading_init(&a->reading);
    a->alpha = VDC_STATS_ALPHA;
}

void
vdc_analysis_dispose(struct vdc_analysis *a)
{
    size_t i;

    if (a->cells) {
        for (i = 0; i < a->n_targets * a->n_tests; i++) {
            size_t k;

            g_free(a->cells[i].samples);
            g_free(a->cells[i].gaps);
            for (k = 0; k < VDC_CELL_FLAG_COUNT; k++)
                g_free(a->cells[i].why[k]);
        }
    }
    g_free(a->cells);
    g_free(a->cmp);
    if (a->files) {
        for (i = 0; i < a->n_targets; i++)
            g_free(a->files[i].sizes);
    }
    g_free(a->files);
    g_free(a->warnings);
    g_strfreev(a->targets);
    g_strfreev(a->tests);
    g_free(a->baseline);
    g_free(a->on_file);
    vdc_headline_dispose(&a->headline);
    vdc_answer_dispose(&a->answer);
    vdc_reading_dispose(&a->reading);
    vdc_host_cost_dispose(a);
    vdc_density_dispose(&a->density);
    vdc_analysis_init(a);
}

const struct vdc_cell *
vdc_analysis_cell(const struct vdc_analysis *a, size_t ti, size_t ki)
{
    return &a->cells[ti * a->n_tests + ki];
}

const struct vdc_cell_comparison *
vdc_analysis_cmp(const struct vdc_analysis *a, size_t ti, size_t ki)
{
    if (ti == a->baseline_index)
        return NULL;
    return &a->cmp[ti * a->n_tests + ki];
}

long
vdc_analysis_test_index(const struct vdc_analysis *a, const char *key)
{
    size_t i;

    for (i = 0; key && i < a->n_tests; i++)
        if (!strcmp(a->tests[i], key))
            return (long)i;
    return -1;
}

/* analysis.h */
long
vdc_analysis_bare_key(const struct vdc_analysis *a, size_t ki)
{
    const char *key = a->tests[ki], *sep = strchr(key, VDC_PASS_SEP);
    g_autofree char *bare = NULL;

    if (!sep || !vdc_test_key_pass(key))
        return -1;
    bare = g_strndup(key, (gsize)(sep - key));
    return vdc_analysis_test_index(a, bare);
}

char **
vdc_analysis_verdict_lines(const struct vdc_analysis *a)
{
    GPtrArray *v = g_ptr_array_new();
    size_t ti, ki;

    for (ti = 0; ti < a->n_targets; ti++) {
        static const struct { enum vdc_verdict v; const char *what; } parts[] = {
            { VDC_VERDICT_FASTER, "faster" }, { VDC_VERDICT_SLOWER, "slower" },
            { VDC_VERDICT_NO_DIFFERENCE, "no significant difference" },
            { VDC_VERDICT_NOT_TESTED, "not tested" }, { VDC_VERDICT_NOT_COMPARABLE, "not comparable" },
        };
        size_t count[5] = { 0 }, total = 0, marked = 0, k, n_passes = 0;
        GPtrArray *bare = g_ptr_array_new_with_free_func(g_free);
        GString *line;

        if (ti == a->baseline_index)
            continue;
        for (ki = 0; ki < a->n_tests; ki++) {
            const struct vdc_cell_comparison *cc = vdc_analysis_cmp(a, ti, ki);

            if (!cc->target->n_samples || !cc->baseline->n_samples)
                continue;
            count[cc->c.verdict]++;
            total++;
            marked += (cc->target->flags & VDC_CELL_ARTEFACT_MARKED) ? 1 : 0;
            /* the tests apart from their passes ("put_block~overwrite" is put_block) */
            {
                const char *key = a->tests[ki], *sep = strchr(key, VDC_PASS_SEP);
                char *t = sep && vdc_test_key_pass(key) ? g_strndup(key, (gsize)(sep - key)) : g_strdup(key);

                n_passes += sep && vdc_test_key_pass(key) ? 1 : 0;
                for (k = 0; k < bare->len && strcmp(bare->pdata[k], t); k++)
                    ;
                if (k < bare->len)
                    g_free(t);
                else
                    g_ptr_array_add(bare, t);
            }
        }
        /* the counts that are not 0, in this order: "2 faster, 3 not
         * comparable"; every test one of them */
        line = g_string_new(NULL);
        g_string_append_printf(line, "%s relative to %s: ", a->targets[ti], a->baseline);
        for (k = 0; k < G_N_ELEMENTS(parts); k++)
            if (count[parts[k].v])
                g_string_append_printf(line, "%s%zu %s", g_str_has_suffix(line->str, ": ") ? "" : ", ",
                                       count[parts[k].v], parts[k].what);
        if (!total)
            g_string_append(line, "no test both ran");
        if (n_passes)       /* "of 8: 4 tests, a thin LV's passes apart" */
            g_string_append_printf(line, " (of %zu: %u test%s, each pass apart", total, bare->len,
                                   bare->len == 1 ? "" : "s");
        else
            g_string_append_printf(line, " (of %zu test%s", total, total == 1 ? "" : "s");
        g_ptr_array_free(bare, TRUE);
        if (marked)
            g_string_append_printf(line, "; %zu marked " VDC_ARTEFACT_MARK ", may be artefacts", marked);
        g_string_append_c(line, ')');
        g_ptr_array_add(v, g_string_free(line, FALSE));
    }
    g_ptr_array_add(v, NULL);
    return (char **)g_ptr_array_free(v, FALSE);
}

size_t
vdc_analysis_min_n(const struct vdc_analysis *a)
{
    size_t i, m = SIZE_MAX;

    for (i = 0; i < a->n_targets * a->n_tests; i++)
        if (a->cells[i].n_values && a->cells[i].sum.n < m)
            m = a->cells[i].sum.n;
    return m == SIZE_MAX ? 0 : m;
}

size_t
vdc_analysis_n_artefact_cells(const struct vdc_analysis *a)
{
    size_t i, n = 0;

    for (i = 0; i < a->n_targets * a->n_tests; i++)
        if (a->cells[i].flags & VDC_CELL_ARTEFACTS)
            n++;
    return n;
}

size_t
vdc_analysis_n_too_fast_cells(const struct vdc_analysis *a)
{
    size_t i, n = 0;

    /* the cells printed with the mark: a mean of the measured runs; a cell
     * whose every run was too fast prints +++++ */
    for (i = 0; i < a->n_targets * a->n_tests; i++)
        if (a->cells[i].n_too_fast_excluded && a->cells[i].sum.n)
            n++;
    return n;
}

const char *
vdc_significance_mark(const struct vdc_stats_comparison *c)
{
    if (c->verdict == VDC_VERDICT_NOT_COMPARABLE)
        return VDC_NOT_COMPARABLE_MARK;
    if (!c->has_test)
        return "";
    if (c->p_value < 0.01)
        return "**";
    if (c->p_value < 0.05)
        return "*";
    return "~";
}

const char *
vdc_test_key_label(const char *key, char *buf, size_t size)
{
    int64_t bs = 0;
    const vdc_test_info *info = vdc_test_key_parse(key, &bs);

    if (!info)
        snprintf(buf, size, "%s", key);
    else if (info->workload) {
        char job[VDC_TEST_LABEL_MAX];

        snprintf(buf, size, "%s, %s IOPS", vdc_test_key_job_label(key, job, sizeof(job)),
                 info->id == VDC_TEST_WORKLOAD_WRITE ? "write" : "read");
    }
    else if (!info->sweep || bs <= 0)
        snprintf(buf, size, "%s", info->label);
    else if (bs % 1048576 == 0)
        snprintf(buf, size, "%s %" G_GINT64_FORMAT " MiB", info->label, (gint64)(bs / 1048576));
    else if (bs % 1024 == 0)
        snprintf(buf, size, "%s %" G_GINT64_FORMAT " KiB", info->label, (gint64)(bs / 1024));
    else
        snprintf(buf, size, "%s %" G_GINT64_FORMAT " B", info->label, (gint64)bs);
    /* a pass's key: its pass after the test's label (a workload's job
     * label has it already) */
    if (info && !info->workload && vdc_test_key_pass(key)) {
        size_t n = strlen(buf);

        snprintf(buf + n, size > n ? size - n : 0, " (%s)", vdc_test_key_pass(key));
    }
    return buf;
}

const char *
vdc_analysis_job_label(const struct vdc_analysis *a, size_t ki, char *buf, size_t size)
{
    const char *key = a->tests[ki];

    if (!vdc_test_key_job(key))
        return NULL;
    vdc_test_key_job_label(key, buf, size);
    if (a->on_file && a->on_file[ki] && !vdc_test_key_raw(key))
        g_strlcat(buf, " (file)", size);
    return buf;
}

const char *
vdc_analysis_test_label(const struct vdc_analysis *a, size_t ki, char *buf, size_t size)
{
    int64_t bs = 0;
    const vdc_test_info *info = vdc_test_key_parse(a->tests[ki], &bs);
    char job[VDC_TEST_LABEL_MAX];

    if (!info || !info->workload)
        return vdc_test_key_label(a->tests[ki], buf, size);
    snprintf(buf, size, "%s, %s IOPS", vdc_analysis_job_label(a, ki, job, sizeof(job)),
             info->id == VDC_TEST_WORKLOAD_WRITE ? "write" : "read");
    return buf;
}

const vdc_workload *
vdc_analysis_key_workload(const struct vdc_analysis *a, size_t ki)
{
    size_t ti;

    for (ti = 0; ti < a->n_targets; ti++)
        if (vdc_analysis_cell(a, ti, ki)->wl.first)
            return vdc_analysis_cell(a, ti, ki)->wl.first;
    return NULL;
}

/* Values of @cell kept by the policy, into @out (n_values long). */
static size_t
kept_values(const struct vdc_cell *cell, enum vdc_outlier_policy policy, double *out)
{
    size_t i, n = 0;

    for (i = 0; i < cell->n_values; i++) {
        if (policy == VDC_OUTLIERS_DROP && cell->samples[i].outlier)
            continue;
        out[n++] = cell->samples[i].value;
    }
    return n;
}

/* The system time per operation of @cell's samples that record it. */
static void
fill_sys_per_op(struct vdc_cell *cell, const vdc_sample_ref *refs, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        const vdc_sample *s = refs[i].sample;

        if (!vdc_has(s->system_us_per_op))
            continue;
        cell->sys_us_per_op += s->system_us_per_op;
        if (vdc_has(s->system_s))
            cell->sys_s += s->system_s;
        if (s->ops != VDC_INT_ABSENT)
            cell->sys_ops += s->ops;
        cell->n_sys_per_op++;
    }
    if (cell->n_sys_per_op)
        cell->sys_us_per_op /= (double)cell->n_sys_per_op;
}

/* The workload figures of @cell's samples (vdc_cell_workload). */
static void
fill_workload(struct vdc_cell *cell, const vdc_sample_ref *refs, size_t n)
{
    struct vdc_cell_workload *m = &cell->wl;
    size_t i, k, nc[VDC_CLAT_N] = { 0 }, ncpu = 0;
    double sum[VDC_CLAT_N] = { 0 }, cpu_sum = 0;

    for (i = 0; i < n; i++) {
        const vdc_sample *s = refs[i].sample;
        const vdc_workload *w = s->workload;
        double p[VDC_CLAT_N], cpu;

        if (!w)
            continue;
        if (!m->first)
            m->first = w;
        if (!vdc_has(s->value))
            continue;
        m->n++;
        p[VDC_CLAT_P50] = w->clat_us.p50;
        p[VDC_CLAT_P90] = w->clat_us.p90;
        p[VDC_CLAT_P99] = w->clat_us.p99;
        p[VDC_CLAT_P99_9] = w->clat_us.p99_9;
        p[VDC_CLAT_P99_99] = w->clat_us.p99_99;
        for (k = 0; k < VDC_CLAT_N; k++)
            if (vdc_has(p[k])) {
                sum[k] += p[k];
                nc[k]++;
            }
        /* the whole process's CPU per I/O; an imported fio run has only its
         * job threads' */
        cpu = vdc_has(w->cpu.us_per_io) ? w->cpu.us_per_io : w->cpu.thread_us_per_io;
        if (!vdc_has(w->cpu.us_per_io) && vdc_has(cpu))
            m->cpu_thread = 1;
        if (vdc_has(cpu)) {
            cpu_sum += cpu;
            ncpu++;
        }
    }
    for (k = 0; k < VDC_CLAT_N; k++)
        m->clat_us[k] = nc[k] ? sum[k] / (double)nc[k] : NAN;
    m->cpu_us_per_io = ncpu ? cpu_sum / (double)ncpu : NAN;
}

static int
fill_cell(struct vdc_cell *cell, const vdc_result_set *rs, const struct vdc_stats_options *opt)
{
    vdc_sample_ref *refs;
    double *v = NULL, *z = NULL, cpu = 0;
    int *flag = NULL;
    size_t n, i, nv = 0, ncpu = 0;
    int64_t bs = 0;
    int rc = -1;

    cell->info = vdc_test_key_parse(cell->test_key, &bs);
    cell->unit = cell->info ? cell->info->unit : NULL;
    cell->cpu_mean = NAN;
    for (i = 0; i < VDC_CLAT_N; i++)
        cell->wl.clat_us[i] = NAN;
    cell->wl.cpu_us_per_io = NAN;
    refs = vdc_result_set_lookup(rs, cell->target, cell->test_key, &n);
    cell->n_samples = n;
    cell->samples = g_new0(struct vdc_cell_sample, n ? n : 1);
    cell->gaps = g_new0(struct vdc_cell_gap, n ? n : 1);
    for (i = 0; i < n; i++) {
        const vdc_sample *s = refs[i].sample;

        if (s->unit)
            cell->unit = s->unit;
        if (!vdc_has(s->value)) {
            cell->gaps[cell->n_no_value].repetition = refs[i].run->repetition;
            cell->gaps[cell->n_no_value].too_fast = s->too_fast ? 1 : 0;
            cell->n_no_value++;
            if (s->failed)
                cell->n_failed++;
            else if (s->too_fast) {
                cell->n_too_fast++;
                cell->n_too_fast_excluded++;
            }
            continue;
        }
        /* a too-fast sample with a value counts as valued but is still
         * reported as too fast (doc/result-format.md) */
        if (s->too_fast)
            cell->n_too_fast++;
        cell->samples[nv].repetition = refs[i].run->repetition;
        cell->samples[nv].value = s->value;
        cell->samples[nv].cpu_percent = s->cpu_percent;
        if (vdc_has(s->cpu_percent)) {
            cpu += s->cpu_percent;
            ncpu++;
        }
        nv++;
    }
    fill_sys_per_op(cell, refs, n);
    if (cell->info && cell->info->workload)
        fill_workload(cell, refs, n);
    g_free(refs);
    cell->n_values = nv;
    if (ncpu)
        cell->cpu_mean = cpu / (double)ncpu;
    v = g_new(double, nv ? nv : 1);
    z = g_new(double, nv ? nv : 1);
    flag = g_new(int, nv ? nv : 1);
    for (i = 0; i < nv; i++)
        v[i] = cell->samples[i].value;
    if (vdc_stats_outliers(v, nv, opt->outlier_threshold, z, flag) < 0)
        goto out;
    for (i = 0; i < nv; i++) {
        cell->samples[i].modified_z = z[i];
        cell->samples[i].outlier = flag[i];
        cell->n_outliers += flag[i] ? 1 : 0;
    }
    n = kept_values(cell, opt->policy, v);
    if (vdc_stats_summarize(v, n, opt, &cell->sum) < 0)
        goto out;
    /* sample values are >= 0 (the loader refuses others): the floor rule
     * (stats.h, doc/statistics.md) */
    vdc_stats_summary_floor(&cell->sum);
    cell->sum.n_outliers = cell->n_outliers;
    rc = 0;
 out:
    g_free(v);
    g_free(z);
    g_free(flag);
    return rc;
}

/* ---- flags and warnings ----------------------------------------------- */

static const char *const cell_flag_names[VDC_CELL_FLAG_COUNT] = {
    "too-fast", "failed", "few-runs", "outliers-flagged", "outliers-dropped",
    "under-2x-ram", "sizes-differ", "not-comparable",
    "page-cache-write", "dd-time-short", "above-ceiling", "cached-reread", "guest-faster",
    "rounded-identical", "baseline-artefact", "dom0-page-cache", "misaligned",
    "no-io-in-window", "thin-pool-full",
};

int
vdc_cell_flag_index(unsigned flag)
{
    int i;

    for (i = 0; i < VDC_CELL_FLAG_COUNT; i++)
        if (flag == 1u << i)
            return i;
    return -1;
}

const char *
vdc_cell_flag_name(unsigned flag)
{
    int i = vdc_cell_flag_index(flag);

    return i < 0 ? NULL : cell_flag_names[i];
}

/* The test file sizes of @target's runs into @f. */
static void
fill_target_files(struct vdc_target_files *f, const vdc_result_set *rs, const char *target)
{
    const vdc_target *t = vdc_result_set_find_target(rs, target);
    GArray *seen = g_array_new(FALSE, FALSE, sizeof(int64_t));
    size_t i, j;

    memset(f, 0, sizeof(*f));
    if (t)
        f->where = t->where;
    for (i = 0; i < rs->n_runs; i++) {
        const vdc_run *r = rs->runs[i];
        int64_t fs = r->meta.file_size_mib, ram;
        int dup = 0;

        /* 0: no test file (agent -s 0, a --job run): nothing to cache */
        if (!r->target || strcmp(r->target, target) || fs == VDC_INT_ABSENT || fs == 0)
            continue;
        if (!f->n_runs++) {
            f->lo = f->hi = fs;
        } else {
            f->lo = MIN(f->lo, fs);
            f->hi = MAX(f->hi, fs);
        }
        for (j = 0; j < seen->len; j++)
            dup |= g_array_index(seen, int64_t, j) == fs;
        if (!dup)
            g_array_append_val(seen, fs);
        ram = vdc_cache_ram_mib(rs, r);
        if (ram > 0 && fs < 2 * ram) {
            if (!f->n_small++) {
                f->small_size = fs;
                f->small_ram = ram;
                f->small_told = r->meta.ram_mib != VDC_INT_ABSENT ? r->meta.ram_mib : 0;
            }
        }
    }
    f->n_sizes = seen->len;
    f->sizes = (int64_t *)(void *)g_array_free(seen, FALSE);
}

static unsigned
cell_flags(const struct vdc_analysis *a, size_t ti, size_t ki)
{
    const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);
    const struct vdc_target_files *f = &a->files[ti], *b = &a->files[a->baseline_index];
    unsigned flags = 0;

    if (c->n_too_fast)
        flags |= VDC_CELL_TOO_FAST;
    if (c->n_failed)
        flags |= VDC_CELL_FAILED;
    if (c->n_samples && c->sum.n < 2)
        flags |= VDC_CELL_FEW_RUNS;
    if (c->n_outliers)
        flags |= a->opt.policy == VDC_OUTLIERS_DROP ? VDC_CELL_OUTLIERS_DROPPED : VDC_CELL_OUTLIERS_FLAGGED;
    if (f->n_small)
        flags |= VDC_CELL_UNDER_2X_RAM;
    if (f->n_runs && (f->lo != f->hi || (b->n_runs && (f->lo != b->lo || f->hi != b->hi))))
        flags |= VDC_CELL_SIZES_DIFFER;
    return flags;
}

/* ---- artefacts (report/artefacts.h) ----------------------------------- */

/* analysis.h */
int
vdc_guest_faster_than_host(const struct vdc_analysis *a, const vdc_result_set *rs, size_t ti,
                           size_t hi, size_t ki, double margin, struct vdc_stats_comparison *out)
{
    const vdc_target *t = vdc_result_set_find_target(rs, a->targets[ti]);
    const struct vdc_cell *g = vdc_analysis_cell(a, ti, ki), *h = vdc_analysis_cell(a, hi, ki);
    struct vdc_stats_comparison c;
    double *gv, *hv;
    size_t ng, nh;

    memset(&c, 0, sizeof(c));
    if (out)
        *out = c;
    if (ti == hi || !t || !t->where || strcmp(t->where, "domU") || h->n_too_fast_excluded)
        return 0;
    gv = g_new(double, g->n_values + 1);
    hv = g_new(double, h->n_values + 1);
    ng = kept_values(g, a->opt.policy, gv);
    nh = kept_values(h, a->opt.policy, hv);
    vdc_stats_compare(gv, ng, hv, nh, a->alpha, &c);
    vdc_stats_comparison_floor(&c);
    g_free(gv);
    g_free(hv);
    if (out)
        *out = c;
    return c.has_ratio && c.has_ci && c.delta_percent > 100.0 * margin && c.ci_delta_percent[0] > 0;
}

/* The artefact flags of every cell, with their explanations; then
 * baseline-artefact on the cells compared with a flagged baseline cell. */
static void
decide_artefacts(struct vdc_analysis *a, const vdc_result_set *rs, const vdc_artefact_options *art)
{
    vdc_artefact_options defaults;
    const char *host_name;
    long host = -1;
    size_t ti, ki;

    if (!art) {
        vdc_artefact_options_init(&defaults);
        art = &defaults;
    }
    host_name = vdc_artefact_host_target(rs, art);
    for (ti = 0; host_name && ti < a->n_targets; ti++)
        if (!strcmp(a->targets[ti], host_name))
            host = (long)ti;
    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++) {
            struct vdc_cell *c = &a->cells[ti * a->n_tests + ki];
            struct vdc_stats_comparison gc;

            if (!c->n_samples)
                continue;
            c->flags |= vdc_artefacts_of_cell_counted(rs, c->target, c->test_key, art, c->why,
                                                      c->runs_flagged, c->runs_judged);
            if (host >= 0 &&
                vdc_guest_faster_than_host(a, rs, ti, (size_t)host, ki, art->guest_margin, &gc)) {
                const struct vdc_cell *h = vdc_analysis_cell(a, (size_t)host, ki);
                int b = vdc_cell_flag_index(VDC_CELL_GUEST_FASTER);
                int id = c->info ? (int)c->info->id : -1;
                /* kata-containers runtime #2138; longhorn kbench's rules */
                const char *note =
                    id == VDC_TEST_GETC || id == VDC_TEST_GET_BLOCK || id == VDC_TEST_DD_READ ||
                    id == VDC_TEST_SWEEP_READ
                    ? " (a read faster than the host's means a cache is involved)"
                    : id == VDC_TEST_PUTC || id == VDC_TEST_PUT_BLOCK || id == VDC_TEST_REWRITE ||
                      id == VDC_TEST_DD_WRITE || id == VDC_TEST_DD_COPY
                    ? " (a write faster than the host's means the stack acknowledged before the "
                      "disk did: not crash-consistent)" : "";

                c->flags |= VDC_CELL_GUEST_FASTER;
                c->runs_flagged[b] = c->runs_judged[b] = c->sum.n;
                c->why[b] =
                    g_strdup_printf("the guest's mean %.6g is %+.1f%% [95%% CI %+.1f%%, %+.1f%%] "
                                    "above its host %s (%.6g), more than the %g%% margin: a guest "
                                    "cannot outrun the disk beneath it; the host's page cache or "
                                    "the backend's cache answered%s", c->sum.mean, gc.delta_percent,
                                    gc.ci_delta_percent[0], gc.ci_delta_percent[1], h->target,
                                    h->sum.mean, 100.0 * art->guest_margin, note);
            }
        }
    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++)
            if (ti != a->baseline_index && a->cmp[ti * a->n_tests + ki].target->n_samples &&
                (a->cmp[ti * a->n_tests + ki].baseline->flags & VDC_CELL_ARTEFACTS))
                a->cells[a->cmp[ti * a->n_tests + ki].target - a->cells].flags |= VDC_CELL_BASELINE_ARTEFACT;
}

/* analysis.h */
int
vdc_analysis_sizes_differ(const struct vdc_analysis *a, size_t t, size_t r, size_t ki)
{
    const struct vdc_target_files *f = &a->files[t], *g = &a->files[r];
    const struct vdc_cell *c = vdc_analysis_cell(a, t, ki);

    /* the file size matters to the sequential and seek tests only */
    return c->info && c->info->group == VDC_TEST_GROUP_IO && f->n_runs && g->n_runs &&
           (f->lo != g->lo || f->hi != g->hi);
}

/* One truth: a comparison against the baseline has no verdict where the
 * headline would give it none (a flag of VDC_HEADLINE_NO_VERDICT_FLAGS on
 * either cell: too-fast runs, a file under twice the RAM, an artefact; or
 * file sizes that differ), and both cells say so (not-comparable). */
static void
decide_comparable(struct vdc_analysis *a)
{
    size_t ti, ki;

    for (ti = 0; ti < a->n_targets; ti++) {
        if (ti == a->baseline_index)
            continue;
        for (ki = 0; ki < a->n_tests; ki++) {
            struct vdc_cell_comparison *cc = &a->cmp[ti * a->n_tests + ki];

            if (!cc->target->n_samples || !cc->baseline->n_samples)
                continue;
            cc->bar_target = cc->target->flags & VDC_HEADLINE_NO_VERDICT_FLAGS;
            cc->bar_baseline = cc->baseline->flags & VDC_HEADLINE_NO_VERDICT_FLAGS;
            cc->sizes_differ = vdc_analysis_sizes_differ(a, ti, a->baseline_index, ki);
            if (!cc->bar_target && !cc->bar_baseline && !cc->sizes_differ)
                continue;
            cc->c.verdict = VDC_VERDICT_NOT_COMPARABLE;
            cc->c.significant = 0;
            /* the target's cell (a bare key's when the baseline ran passes) */
            a->cells[cc->target - a->cells].flags |= VDC_CELL_NOT_COMPARABLE;
        }
    }
}

static void
add_warning(struct vdc_analysis *a, enum vdc_warning_kind kind, size_t target)
{
    a->warnings = g_renew(struct vdc_warning, a->warnings, a->n_warnings + 1);
    a->warnings[a->n_warnings++] = (struct vdc_warning){ .kind = kind, .target = target };
}

/* The warnings of @rs, in enum vdc_warning_kind order. */
static void
decide_warnings(struct vdc_analysis *a, const vdc_result_set *rs)
{
    size_t i, n_failed = 0;
    int imported = 0, sizes_differ = 0;
    int64_t first = VDC_INT_ABSENT;

    if (rs->has_experiment && rs->experiment.emulated == 1)
        add_warning(a, VDC_WARNING_EMULATED, 0);
    if (vdc_analysis_min_n(a) < 2) {
        for (i = 0; i < rs->n_runs; i++) {
            if (rs->runs[i]->status && strcmp(rs->runs[i]->status, "ok"))
                n_failed++;
            if (rs->runs[i]->meta.source.file)
                imported = 1;
        }
        for (i = 0; i < rs->n_targets; i++)
            if (rs->targets[i]->kind && !strcmp(rs->targets[i]->kind, "imported"))
                imported = 1;
        add_warning(a, rs->n_runs && n_failed == rs->n_runs ? VDC_WARNING_ALL_FAILED :
                    imported ? VDC_WARNING_FEW_VALUES : VDC_WARNING_FEW_RUNS, 0);
    }
    if (vdc_analysis_n_too_fast_cells(a))
        add_warning(a, VDC_WARNING_TOO_FAST, 0);
    for (i = 0; i < a->n_targets; i++) {
        const struct vdc_target_files *f = &a->files[i];

        if (!f->n_runs)
            continue;
        if (first == VDC_INT_ABSENT)
            first = f->lo;
        if (f->lo != first || f->hi != first)
            sizes_differ = 1;
    }
    if (sizes_differ)
        add_warning(a, VDC_WARNING_SIZES_DIFFER, 0);
    for (i = 0; i < a->n_targets; i++)
        if (a->files[i].n_small)
            add_warning(a, VDC_WARNING_UNDER_2X_RAM, i);
    if (vdc_analysis_n_artefact_cells(a))
        add_warning(a, VDC_WARNING_ARTEFACTS, 0);
    for (i = 0; i < a->n_targets * a->n_tests; i++) {
        unsigned b;

        for (b = 0; b < VDC_CELL_FLAG_COUNT; b++)
            if (a->cells[i].flags & VDC_CELL_ARTEFACTS & (1u << b)) {
                add_warning(a, VDC_WARNING_ARTEFACT, i / a->n_tests);
                a->warnings[a->n_warnings - 1].test = i % a->n_tests;
                a->warnings[a->n_warnings - 1].flag = 1u << b;
            }
    }
    for (i = 0; i < a->n_targets; i++) {
        const vdc_target *t = vdc_result_set_find_target(rs, a->targets[i]);
        g_autofree char *m = t ? vdc_knobs_mismatch(t) : NULL;

        if (m)
            add_warning(a, VDC_WARNING_NOT_AS_ASKED, i);
    }
}

/* The whole disk @t's blocks lie on (targets[].placement.disk), or NULL
 * when not known: no placement, or its ranges not resolved to a whole disk
 * (placement.reason says why, the disk then names a dm device). */
static const char *
placement_disk(const vdc_target *t)
{
    if (!t || !t->placement.disk || !*t->placement.disk || t->placement.reason)
        return NULL;
    return t->placement.disk;
}

/* VDC_WARNING_DIFFERENT_DISKS: each image/LV pair of the headline
 * (VDC_HEADLINE_CHOICE, after vdc_headline_build) whose two targets'
 * placements name different whole disks.  An unknown placement on either
 * side decides nothing. */
static void
decide_disk_warnings(struct vdc_analysis *a, const vdc_result_set *rs)
{
    size_t i;

    for (i = 0; i < a->headline.n_pairs; i++) {
        const struct vdc_headline_pair *p = &a->headline.pairs[i];
        const char *dt, *dr;

        if (p->role != VDC_HEADLINE_CHOICE)
            continue;
        dt = placement_disk(vdc_result_set_find_target(rs, a->targets[p->target]));
        dr = placement_disk(vdc_result_set_find_target(rs, a->targets[p->reference]));
        if (!dt || !dr || !strcmp(dt, dr))
            continue;
        add_warning(a, VDC_WARNING_DIFFERENT_DISKS, p->target);
        a->warnings[a->n_warnings - 1].reference = p->reference;
    }
}

/* The default baseline: bare dom0 when the run has it (the ceiling every
 * target is held against); else, when the run holds an image and an LV or
 * block device, the first LV or block target, so that the tables' deltas
 * run in the answer's direction (image relative to the LV); else the first
 * target. */
static char *
default_baseline(char **targets, const vdc_result_set *rs)
{
    size_t i;
    int image = 0;
    const char *lv = NULL;

    for (i = 0; targets[i]; i++)
        if (!strcmp(targets[i], "dom0"))
            return g_strdup("dom0");
    for (i = 0; targets[i]; i++) {
        const vdc_target *t = vdc_result_set_find_target(rs, targets[i]);
        const char *k = t ? t->kind : NULL;

        image |= k && !strcmp(k, "image");
        if (!lv && k && (!strcmp(k, "lvm") || !strcmp(k, "block")))
            lv = targets[i];
    }
    return g_strdup(image && lv ? lv : targets[0]);
}

int
vdc_analysis_build(struct vdc_analysis *a, const vdc_result_set *rs,
                   const char *baseline, const struct vdc_stats_options *opt)
{
    return vdc_analysis_build_with(a, rs, baseline, opt, NULL);
}

/* a->on_file: the workload keys whose samples say they ran on a file */
static void
mark_on_file(struct vdc_analysis *a, const vdc_result_set *rs)
{
    size_t i, j, ki;

    a->on_file = g_new0(unsigned char, a->n_tests + 1);
    for (i = 0; i < rs->n_runs; i++)
        for (j = 0; j < rs->runs[i]->n_samples; j++) {
            const vdc_sample *s = rs->runs[i]->samples[j];
            g_autofree char *key = NULL;

            if (!s->workload || g_strcmp0(s->workload->on, "file"))
                continue;
            key = vdc_sample_key(s);
            for (ki = 0; ki < a->n_tests; ki++)
                if (!strcmp(a->tests[ki], key))
                    a->on_file[ki] = 1;
        }
}

int
vdc_analysis_build_with(struct vdc_analysis *a, const vdc_result_set *rs, const char *baseline,
                        const struct vdc_stats_options *opt, const vdc_artefact_options *art)
{
    size_t ti, ki;
    double *tv = NULL, *bv = NULL;

    vdc_analysis_dispose(a);
    a->opt = *opt;
    a->targets = vdc_result_set_target_names(rs);
    a->tests = vdc_result_set_test_keys(rs, NULL);
    a->n_targets = g_strv_length(a->targets);
    a->n_tests = g_strv_length(a->tests);
    mark_on_file(a, rs);
    if (a->n_targets == 0) {
        vdc_input_error("result set has no targets: no runs to report");
        goto fail;
    }
    if (baseline) {
        if (!g_strv_contains((const char *const *)a->targets, baseline)) {
            char *list = g_strjoinv(", ", a->targets);

            vdc_input_error("--baseline %s: no such target (targets: %s)", baseline, list);
            g_free(list);
            goto fail;
        }
        a->baseline = g_strdup(baseline);
    } else {
        a->baseline = default_baseline(a->targets, rs);
    }
    for (ti = 0; ti < a->n_targets; ti++)
        if (!strcmp(a->targets[ti], a->baseline))
            a->baseline_index = ti;

    a->cells = g_new0(struct vdc_cell, a->n_targets * a->n_tests + 1);
    a->cmp = g_new0(struct vdc_cell_comparison, a->n_targets * a->n_tests + 1);
    for (ti = 0; ti < a->n_targets; ti++) {
        for (ki = 0; ki < a->n_tests; ki++) {
            struct vdc_cell *c = &a->cells[ti * a->n_tests + ki];

            c->target = a->targets[ti];
            c->test_key = a->tests[ki];
            if (fill_cell(c, rs, opt) < 0)
                goto fail;
        }
    }
    for (ki = 0; ki < a->n_tests; ki++) {
        long kb = vdc_analysis_bare_key(a, ki);

        for (ti = 0; ti < a->n_targets; ti++) {
            struct vdc_cell_comparison *cc = &a->cmp[ti * a->n_tests + ki];
            const struct vdc_cell *t = vdc_analysis_cell(a, ti, ki);
            const struct vdc_cell *b = vdc_analysis_cell(a, a->baseline_index, ki);
            size_t nt, nb;

            if (ti == a->baseline_index)
                continue;
            /* one side ran passes, the other the test once: each pass
             * against the one (vdc_cell_comparison) */
            if (kb >= 0 && t->n_samples && !b->n_samples)
                b = vdc_analysis_cell(a, a->baseline_index, (size_t)kb);
            else if (kb >= 0 && !t->n_samples && b->n_samples)
                t = vdc_analysis_cell(a, ti, (size_t)kb);
            cc->target = t;
            cc->baseline = b;
            bv = g_new(double, b->n_values + 1);
            nb = kept_values(b, opt->policy, bv);
            tv = g_new(double, t->n_values + 1);
            nt = kept_values(t, opt->policy, tv);
            vdc_stats_compare(tv, nt, bv, nb, a->alpha, &cc->c);
            /* a ratio of means of values >= 0 is >= 0: the floor rule */
            vdc_stats_comparison_floor(&cc->c);
            cc->has_sys_per_op = t->n_sys_per_op && b->n_sys_per_op;
            if (cc->has_sys_per_op)
                cc->sys_us_per_op_delta = t->sys_us_per_op - b->sys_us_per_op;
            g_free(tv);
            tv = NULL;
            g_free(bv);
            bv = NULL;
        }
    }
    a->files = g_new0(struct vdc_target_files, a->n_targets);
    for (ti = 0; ti < a->n_targets; ti++)
        fill_target_files(&a->files[ti], rs, a->targets[ti]);
    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++)
            a->cells[ti * a->n_tests + ki].flags = cell_flags(a, ti, ki);
    decide_artefacts(a, rs, art);
    decide_comparable(a);
    decide_warnings(a, rs);
    vdc_headline_build(a, rs);
    decide_disk_warnings(a, rs);
    vdc_reading_build(a, rs);
    if (vdc_host_cost_build(a, rs) < 0 || vdc_density_build(&a->density, rs, opt) < 0)
        goto fail;
    vdc_answer_build(a, rs);
    return 0;
 fail:
    g_free(tv);
    g_free(bv);
    vdc_analysis_dispose(a);
    return -1;
}
