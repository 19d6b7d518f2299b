/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp renderers: report.json's "statistics" and compare's JSON
 * (render_json.h): the cells, comparisons, flags, the headline and the
 * host figures of the analysis, written by the one JSON writer
 * (vdc_json_to_string). */
#include "config.h"

#include "report/render_json.h"
#include "report/ranking.h"
#include "report/reading.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "report/render_density.h"
#include "report/render_warnings.h"

static void host_cost_json(JsonBuilder *b, const struct vdc_analysis *a, size_t ti, size_t ki);
static JsonNode *answer_to_json(const struct vdc_analysis *a);

/* ---- statistics JSON ------------------------------------------------------ */

static void
num(JsonBuilder *b, const char *name, double v, int has)
{
    json_builder_set_member_name(b, name);
    if (has && isfinite(v))
        json_builder_add_double_value(b, v);
    else
        json_builder_add_null_value(b);
}

static void
pair(JsonBuilder *b, const char *name, const double v[2], int has)
{
    json_builder_set_member_name(b, name);
    if (!has || !isfinite(v[0]) || !isfinite(v[1])) {
        json_builder_add_null_value(b);
        return;
    }
    json_builder_begin_array(b);
    json_builder_add_double_value(b, v[0]);
    json_builder_add_double_value(b, v[1]);
    json_builder_end_array(b);
}

static void
cell_json(JsonBuilder *b, const struct vdc_analysis *a, const struct vdc_cell *c)
{
    const struct vdc_stats_summary *s = &c->sum;
    char seed[32];
    size_t i;

    json_builder_begin_object(b);
    json_builder_set_member_name(b, "target");
    json_builder_add_string_value(b, c->target);
    json_builder_set_member_name(b, "test");
    json_builder_add_string_value(b, c->test_key);
    json_builder_set_member_name(b, "unit");
    if (c->unit)
        json_builder_add_string_value(b, c->unit);
    else
        json_builder_add_null_value(b);
    json_builder_set_member_name(b, "n");
    json_builder_add_int_value(b, (gint64)s->n);
    json_builder_set_member_name(b, "n_samples");
    json_builder_add_int_value(b, (gint64)c->n_samples);
    json_builder_set_member_name(b, "n_too_fast");
    json_builder_add_int_value(b, (gint64)c->n_too_fast);
    json_builder_set_member_name(b, "n_failed");
    json_builder_add_int_value(b, (gint64)c->n_failed);
    num(b, "mean", s->mean, s->n > 0);
    num(b, "median", s->median, s->n > 0);
    num(b, "stddev", s->stddev, s->has_stddev);
    num(b, "cv_percent", s->cv_percent, s->has_cv);
    num(b, "cpu_percent_mean", c->cpu_mean, 1);
    pair(b, "ci95_mean", s->ci_mean, s->has_ci_mean);
    pair(b, "ci95_median_bootstrap", s->ci_median, s->has_ci_median);
    json_builder_set_member_name(b, "bootstrap_resamples");
    json_builder_add_int_value(b, a->opt.bootstrap_resamples);
    json_builder_set_member_name(b, "bootstrap_seed");
    snprintf(seed, sizeof(seed), "%lu", a->opt.bootstrap_seed);
    json_builder_add_string_value(b, seed);
    json_builder_set_member_name(b, "outliers");
    json_builder_begin_array(b);
    for (i = 0; i < c->n_values; i++) {
        if (!c->samples[i].outlier)
            continue;
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "repetition");
        json_builder_add_int_value(b, c->samples[i].repetition);
        num(b, "value", c->samples[i].value, 1);
        num(b, "modified_z", c->samples[i].modified_z, 1);
        json_builder_end_object(b);
    }
    json_builder_end_array(b);
    json_builder_set_member_name(b, "outlier_rule");
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "method");
    json_builder_add_string_value(b, "modified-z-mad");
    num(b, "threshold", a->opt.outlier_threshold, 1);
    json_builder_set_member_name(b, "min_n");
    json_builder_add_int_value(b, VDC_STATS_OUTLIER_MIN_N);
    json_builder_set_member_name(b, "policy");
    json_builder_add_string_value(b, vdc_outlier_policy_name(a->opt.policy));
    json_builder_end_object(b);
    if (c->flags & VDC_CELL_ARTEFACTS) {
        unsigned k;

        json_builder_set_member_name(b, "artefacts");
        json_builder_begin_array(b);
        for (k = 0; k < VDC_CELL_FLAG_COUNT; k++)
            if (c->flags & VDC_CELL_ARTEFACTS & (1u << k)) {
                json_builder_begin_object(b);
                json_builder_set_member_name(b, "flag");
                json_builder_add_string_value(b, vdc_cell_flag_name(1u << k));
                json_builder_set_member_name(b, "reason");
                json_builder_add_string_value(b, c->why[k] ? c->why[k] : "");
                json_builder_end_object(b);
            }
        json_builder_end_array(b);
    }
    host_cost_json(b, a, (size_t)(c - a->cells) / a->n_tests, (size_t)(c - a->cells) % a->n_tests);
    json_builder_end_object(b);
}

static void
cmp_json(JsonBuilder *b, const struct vdc_analysis *a, const struct vdc_cell_comparison *cc)
{
    const struct vdc_stats_comparison *c = &cc->c;

    json_builder_begin_object(b);
    json_builder_set_member_name(b, "baseline");
    json_builder_add_string_value(b, a->baseline);
    json_builder_set_member_name(b, "target");
    json_builder_add_string_value(b, cc->target->target);
    json_builder_set_member_name(b, "test");
    json_builder_add_string_value(b, cc->target->test_key);
    if (strcmp(cc->baseline->test_key, cc->target->test_key)) {
        /* one side ran passes: a pass against the other side's one run */
        json_builder_set_member_name(b, "baseline_test");
        json_builder_add_string_value(b, cc->baseline->test_key);
    }
    num(b, "ratio", c->ratio, c->has_ratio);
    num(b, "delta_percent", c->delta_percent, c->has_ratio);
    pair(b, "ci95_delta_percent", c->ci_delta_percent, c->has_ci);
    json_builder_set_member_name(b, "ci_method");
    json_builder_add_string_value(b, "fieller-welch");
    num(b, "welch_t", c->welch_t, c->has_test);
    num(b, "welch_df", c->welch_df, c->has_test);
    num(b, "p_value", c->p_value, c->has_test);
    json_builder_set_member_name(b, "significant");
    json_builder_add_boolean_value(b, c->significant);
    json_builder_set_member_name(b, "verdict");
    json_builder_add_string_value(b, vdc_headline_verdict_name(c->verdict));
    if (c->verdict == VDC_VERDICT_NOT_COMPARABLE) {
        g_autofree char *why = vdc_analysis_cmp_reason(a, (size_t)(cc->target - a->cells) / a->n_tests,
                                                       (size_t)(cc->target - a->cells) % a->n_tests);

        json_builder_set_member_name(b, "not_comparable");
        json_builder_add_string_value(b, why ? why : "");
    }
    if (cc->target->flags & VDC_CELL_ARTEFACT_MARKED) {
        unsigned k;

        json_builder_set_member_name(b, "artefacts");
        json_builder_begin_array(b);
        for (k = 0; k < VDC_CELL_FLAG_COUNT; k++)
            if (cc->target->flags & VDC_CELL_ARTEFACT_MARKED & (1u << k))
                json_builder_add_string_value(b, vdc_cell_flag_name(1u << k));
        json_builder_end_array(b);
    }
    json_builder_end_object(b);
}

/* The flags a cell's runs rest on (doc/host-cost.md): dom0-page-cache and
 * guest-faster, one object each, in cell order. */
#define VDC_RUN_FLAGS (VDC_CELL_DOM0_PAGE_CACHE | VDC_CELL_GUEST_FASTER)

/* statistics.flags: {target, test, flag, runs_flagged, runs, evidence}
 * per flagged cell, only when there is one (additive). */
static void
flags_json(JsonBuilder *b, const struct vdc_analysis *a)
{
    size_t ti, ki;
    unsigned k;
    int any = 0;

    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++) {
            const struct vdc_cell *c = vdc_analysis_cell(a, ti, ki);

            for (k = 0; k < VDC_CELL_FLAG_COUNT; k++) {
                if (!(c->flags & VDC_RUN_FLAGS & (1u << k)))
                    continue;
                if (!any++) {
                    json_builder_set_member_name(b, "flags");
                    json_builder_begin_array(b);
                }
                json_builder_begin_object(b);
                json_builder_set_member_name(b, "target");
                json_builder_add_string_value(b, c->target);
                json_builder_set_member_name(b, "test");
                json_builder_add_string_value(b, c->test_key);
                json_builder_set_member_name(b, "flag");
                json_builder_add_string_value(b, vdc_cell_flag_name(1u << k));
                json_builder_set_member_name(b, "runs_flagged");
                json_builder_add_int_value(b, (gint64)c->runs_flagged[k]);
                json_builder_set_member_name(b, "runs");
                json_builder_add_int_value(b, (gint64)c->runs_judged[k]);
                json_builder_set_member_name(b, "evidence");
                json_builder_add_string_value(b, c->why[k] ? c->why[k] : "");
                json_builder_end_object(b);
            }
        }
    if (any)
        json_builder_end_array(b);
}

JsonNode *
vdc_statistics_to_json(const struct vdc_analysis *a)
{
    JsonBuilder *b = json_builder_new();
    JsonNode *root;
    size_t ti, ki;

    json_builder_begin_object(b);
    json_builder_set_member_name(b, "baseline");
    json_builder_add_string_value(b, a->baseline);
    json_builder_set_member_name(b, "alpha");
    json_builder_add_double_value(b, a->alpha);
    json_builder_set_member_name(b, "per_target");
    json_builder_begin_array(b);
    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++)
            if (vdc_analysis_cell(a, ti, ki)->n_samples)
                cell_json(b, a, vdc_analysis_cell(a, ti, ki));
    json_builder_end_array(b);
    json_builder_set_member_name(b, "comparisons");
    json_builder_begin_array(b);
    for (ti = 0; ti < a->n_targets; ti++)
        for (ki = 0; ki < a->n_tests; ki++) {
            const struct vdc_cell_comparison *cc = vdc_analysis_cmp(a, ti, ki);

            if (cc && cc->target->n_samples && cc->baseline->n_samples)
                cmp_json(b, a, cc);
        }
    json_builder_end_array(b);
    flags_json(b, a);
    json_builder_end_object(b);
    root = json_builder_get_root(b);
    g_object_unref(b);
    return root;
}

/* statistics.warnings: every warning line of @w (taken: freed here), only
 * when there is one (additive). */
static void
add_warnings(JsonNode *st, char **w)
{
    if (w[0]) {
        JsonArray *arr = json_array_new();
        size_t i;

        for (i = 0; w[i]; i++)
            json_array_add_string_element(arr, w[i]);
        json_object_set_array_member(json_node_get_object(st), "warnings", arr);
    }
    g_strfreev(w);
}

char *
vdc_render_statistics_json(const vdc_result_set *rs, const struct vdc_analysis *a)
{
    JsonNode *n = vdc_statistics_to_json(a);
    char *s;

    add_warnings(n, vdc_compare_warnings(rs, a));   /* compare's JSON */
    s = vdc_json_to_string(n, NULL);
    json_node_unref(n);
    return s;
}

char *
vdc_render_json(const vdc_result_set *rs, const struct vdc_analysis *a)
{
    JsonNode *root = vdc_result_set_to_json(rs);
    JsonNode *st = vdc_statistics_to_json(a);
    char *s;

    add_warnings(st, vdc_report_warnings(rs, a));
    json_object_set_member(json_node_get_object(st), "headline", vdc_headline_to_json(a));
    json_object_set_member(json_node_get_object(st), "answer", answer_to_json(a));
    {
        /* single imported runs read plainly (report/reading.h), when made */
        JsonObject *reading = vdc_reading_json(a);

        if (reading)
            json_object_set_object_member(json_node_get_object(st), "reading", reading);
    }
    if (a->density.n_levels)
        json_object_set_member(json_node_get_object(st), "density", vdc_density_to_json(a));
    json_object_set_member(json_node_get_object(root), "statistics", st);
    s = vdc_json_to_string(root, NULL);
    json_node_unref(root);
    return s;
}

/* ---- statistics.headline ------------------------------------------------------ */

static void
set_str(JsonObject *o, const char *name, const char *v)
{
    if (v)
        json_object_set_string_member(o, name, v);
    else
        json_object_set_null_member(o, name);
}

static void
set_num(JsonObject *o, const char *name, double v, int has)
{
    if (has && isfinite(v))
        json_object_set_double_member(o, name, v);
    else
        json_object_set_null_member(o, name);
}

static void
set_int(JsonObject *o, const char *name, int64_t v)
{
    if (v != VDC_INT_ABSENT)
        json_object_set_int_member(o, name, v);
    else
        json_object_set_null_member(o, name);
}

static void
set_range(JsonObject *o, const char *name, const double v[2], int has)
{
    JsonArray *r;

    if (!has || !isfinite(v[0]) || !isfinite(v[1])) {
        json_object_set_null_member(o, name);
        return;
    }
    r = json_array_new();
    json_array_add_double_element(r, v[0]);
    json_array_add_double_element(r, v[1]);
    json_object_set_array_member(o, name, r);
}

/* Takes @s (g_free). */
static void
set_str_take(JsonObject *o, const char *name, char *s)
{
    set_str(o, name, s);
    g_free(s);
}

/* @o as a node (taken) */
static JsonNode *
node_of(JsonObject *o)
{
    JsonNode *n = json_node_new(JSON_NODE_OBJECT);

    json_node_take_object(n, o);
    return n;
}

static JsonObject *
row_json(const struct vdc_analysis *a, const struct vdc_headline_pair *hp, const struct vdc_headline_row *row)
{
    const struct vdc_stats_paired *p = &row->p;
    JsonObject *o = json_object_new();

    set_str(o, "test", a->tests[row->test]);
    set_str(o, "unit", vdc_analysis_cell(a, hp->target, row->t_test)->unit);
    set_int(o, "n_pairs", (int64_t)p->n);
    set_int(o, "n_dropped", (int64_t)row->n_dropped);
    set_num(o, "mean_target", p->mean_t, 1);
    set_num(o, "mean_reference", p->mean_b, 1);
    set_num(o, "ratio", p->ratio, p->has_ratio);
    set_num(o, "delta_percent", p->delta_percent, p->has_ratio);
    set_range(o, "ci95_ratio", p->ci_ratio, p->has_ci);
    set_range(o, "ci95_delta_percent", p->ci_delta_percent, p->has_ci);
    set_num(o, "half_width_percent", 100 * p->half_width, p->has_ci);
    set_num(o, "t", p->t, p->has_test);
    set_num(o, "df", p->df, p->has_test);
    set_num(o, "p_value", p->p_value, p->has_test);
    set_num(o, "p_holm", row->p_holm, 1);
    set_num(o, "p_permutation", p->p_perm, p->has_test);
    if (p->has_test)
        json_object_set_boolean_member(o, "permutation_exact", p->perm_exact);
    else
        json_object_set_null_member(o, "permutation_exact");
    json_object_set_boolean_member(o, "significant", row->significant);
    set_str(o, "verdict", vdc_headline_verdict_name(row->verdict));
    set_str(o, "class", vdc_effect_class_name(row->effect));
    set_str_take(o, "not_comparable", vdc_headline_reason(a, hp, row));
    set_str(o, "stop_reason", row->stop ? row->stop->reason : NULL);
    set_str_take(o, "text", vdc_headline_row_text(a, hp, row, 1));
    return o;
}

static JsonObject *
method_json(const struct vdc_analysis *a)
{
    JsonObject *o = json_object_new();
    JsonArray *flags = json_array_new();
    char seed[32];
    unsigned i;

    /* imported runs: not paired, Welch (report/headline.h) */
    set_str(o, "pairing", a->headline.unpaired ? "none" : "repetition");
    set_str(o, "ci_method", a->headline.unpaired ? "fieller" : "fieller-paired");
    set_str(o, "test", a->headline.unpaired ? "welch-t" : "paired-t");
    set_str(o, "correction", "holm");
    set_str(o, "permutation", a->headline.unpaired ? "none" : "sign-flip");
    set_int(o, "permutation_exact_max_n", VDC_STATS_PERM_EXACT_MAX_N);
    set_int(o, "permutation_resamples", VDC_STATS_PERM_RESAMPLES);
    snprintf(seed, sizeof(seed), "%u", VDC_STATS_PERM_SEED);
    set_str(o, "permutation_seed", seed);
    set_num(o, "alpha", a->alpha, 1);
    set_num(o, "negligible_percent", VDC_EFFECT_NEGLIGIBLE_PERCENT, 1);
    set_num(o, "large_percent", VDC_EFFECT_LARGE_PERCENT, 1);
    for (i = 0; i < VDC_CELL_FLAG_COUNT; i++)
        if (VDC_HEADLINE_NO_VERDICT_FLAGS & (1u << i))
            json_array_add_string_element(flags, vdc_cell_flag_name(1u << i));
    json_array_add_string_element(flags, "sizes-differ");
    json_object_set_array_member(o, "no_verdict_flags", flags);
    return o;
}

static JsonNode *
runs_json(const struct vdc_headline *h)
{
    JsonObject *o;

    if (h->runs_mode == VDC_RUNS_UNKNOWN)
        return json_node_new(JSON_NODE_NULL);
    o = json_object_new();
    set_str(o, "mode", h->runs_mode == VDC_RUNS_AUTO ? "auto" : "fixed");
    set_int(o, "runs", h->runs);
    if (h->runs_mode == VDC_RUNS_AUTO) {
        set_int(o, "min_runs", h->min_runs);
        set_int(o, "max_runs", h->max_runs);
        set_num(o, "precision_percent", h->precision_percent, 1);
    }
    set_str_take(o, "text", vdc_headline_runs_text(h));
    return node_of(o);
}

/* render_json.h */
JsonNode *
vdc_headline_to_json(const struct vdc_analysis *a)
{
    const struct vdc_headline *h = &a->headline;
    JsonObject *o = json_object_new(), *absent;
    JsonArray *summary = json_array_new(), *pairs = json_array_new();
    char **lines;
    size_t i, j;

    if (h->absent == VDC_HEADLINE_PRESENT) {
        json_object_set_null_member(o, "absent");
    } else {
        absent = json_object_new();
        set_str(absent, "reason", vdc_headline_absent_key(h->absent));
        set_str_take(absent, "text", vdc_headline_absent_text(a));
        json_object_set_object_member(o, "absent", absent);
    }
    /* the pairs of a role not built (more than VDC_HEADLINE_PAIRS_MAX):
     * only when some were */
    for (i = 0; i < G_N_ELEMENTS(h->left_out); i++)
        if (h->left_out[i].n) {
            JsonObject *lo = json_object_new();

            for (j = 0; j < G_N_ELEMENTS(h->left_out); j++)
                if (h->left_out[j].n)
                    set_int(lo, vdc_headline_role_name((enum vdc_headline_role)j), (int64_t)h->left_out[j].n);
            set_int(lo, "max_pairs", VDC_HEADLINE_PAIRS_MAX);
            set_str_take(lo, "text", vdc_headline_left_out_text(a));
            json_object_set_object_member(o, "left_out", lo);
            break;
        }
    json_object_set_object_member(o, "method", method_json(a));
    json_object_set_member(o, "runs", runs_json(h));
    lines = vdc_analysis_headline_lines(a);
    for (i = 0; lines[i]; i++)
        json_array_add_string_element(summary, lines[i]);
    g_strfreev(lines);
    json_object_set_array_member(o, "summary", summary);
    for (i = 0; i < h->n_pairs; i++) {
        const struct vdc_headline_pair *hp = &h->pairs[i];
        JsonObject *po = json_object_new();
        JsonArray *tests = json_array_new();

        set_str(po, "role", vdc_headline_role_name(hp->role));
        set_str(po, "target", a->targets[hp->target]);
        set_str(po, "reference", a->targets[hp->reference]);
        set_int(po, "n_family", (int64_t)hp->n_family);
        for (j = 0; j < hp->n_rows; j++)
            json_array_add_object_element(tests, row_json(a, hp, &hp->rows[j]));
        json_object_set_array_member(po, "tests", tests);
        json_array_add_object_element(pairs, po);
    }
    json_object_set_array_member(o, "pairs", pairs);
    /* a matrix: the ranking per test (report/ranking.h), only when made */
    if (h->n_rankings) {
        JsonArray *rankings = json_array_new();

        for (i = 0; i < h->n_rankings; i++) {
            const struct vdc_ranking *r = &h->rankings[i];
            JsonObject *ro = json_object_new();
            JsonArray *entries = json_array_new();

            set_str(ro, "test", a->tests[r->test]);
            set_int(ro, "n_family", (int64_t)r->n_family);
            set_int(ro, "n_differ", (int64_t)r->n_differ);
            set_int(ro, "groups", (int64_t)r->n_groups);
            for (j = 0; j < r->n_entries; j++) {
                const struct vdc_rank_entry *e = &r->entries[j];
                JsonObject *eo = json_object_new();
                JsonArray *flags = json_array_new();
                unsigned bit;

                set_str(eo, "target", a->targets[e->target]);
                if (e->test != r->test)     /* a pass of the test (a thin LV's) */
                    set_str(eo, "pass", vdc_test_key_pass(a->tests[e->test]));
                if (e->provisioning)
                    set_str(eo, "apart", VDC_RANK_PROVISIONING);
                set_str(eo, "letters", e->letters[0] ? e->letters : NULL);
                set_num(eo, "mean", e->mean, e->n > 0);
                set_int(eo, "n", (int64_t)e->n);
                for (bit = 0; bit < VDC_CELL_FLAG_COUNT; bit++)
                    if (e->bar & (1u << bit))
                        json_array_add_string_element(flags, vdc_cell_flag_name(1u << bit));
                json_object_set_array_member(eo, "not_ranked", flags);
                json_array_add_object_element(entries, eo);
            }
            json_object_set_array_member(ro, "targets", entries);
            json_array_add_object_element(rankings, ro);
        }
        json_object_set_array_member(o, "rankings", rankings);
    }
    return node_of(o);
}

/* ---- host_cpu and dom0_page_cache of a cell ---------------------------------- */

static void
json_summary(JsonBuilder *b, const char *name, const struct vdc_stats_summary *s)
{
    if (!s->n)
        return;
    json_builder_set_member_name(b, name);
    json_builder_begin_object(b);
    json_builder_set_member_name(b, "n");
    json_builder_add_int_value(b, (gint64)s->n);
    json_builder_set_member_name(b, "mean");
    json_builder_add_double_value(b, s->mean);
    if (s->has_ci_mean) {
        json_builder_set_member_name(b, "ci95_mean");
        json_builder_begin_array(b);
        json_builder_add_double_value(b, s->ci_mean[0]);
        json_builder_add_double_value(b, s->ci_mean[1]);
        json_builder_end_array(b);
    }
    json_builder_end_object(b);
}

static void
host_cost_json(JsonBuilder *b, const struct vdc_analysis *a, size_t ti, size_t ki)
{
    size_t i;
    int open = 0;

    for (i = 0; i < a->n_host; i++) {
        const struct vdc_host_cost *c = &a->host[i];

        if (c->target != ti || c->test != ki)
            continue;
        if (!open) {
            json_builder_set_member_name(b, "host_cpu");
            json_builder_begin_object(b);
            open = 1;
        }
        json_builder_set_member_name(b, c->role);
        json_builder_begin_object(b);
        json_builder_set_member_name(b, "runs");
        json_builder_add_int_value(b, (gint64)c->n_runs);
        json_builder_set_member_name(b, "attribution");
        json_builder_add_string_value(b, c->attribution);
        if (c->reason) {
            json_builder_set_member_name(b, "reason");
            json_builder_add_string_value(b, c->reason);
        }
        json_summary(b, "cpu_s_per_gib", &c->per_gib);
        json_summary(b, "cpu_s_per_1000_ios", &c->per_kio);
        if (c->per_gib.n && c->per_gib_cut) {
            json_builder_set_member_name(b, "cpu_s_per_gib_ci95_cut_at_0");
            json_builder_add_boolean_value(b, TRUE);
        }
        if (c->per_kio.n && c->per_kio_cut) {
            json_builder_set_member_name(b, "cpu_s_per_1000_ios_ci95_cut_at_0");
            json_builder_add_boolean_value(b, TRUE);
        }
        json_builder_end_object(b);
    }
    if (open)
        json_builder_end_object(b);
    for (i = 0; i < a->n_cache; i++) {
        const struct vdc_host_cache *c = &a->cache[i];

        if (c->target != ti || c->test != ki)
            continue;
        json_builder_set_member_name(b, "dom0_page_cache");
        json_builder_begin_object(b);
        json_summary(b, "moved_bytes", &c->moved);
        json_summary(b, "disk_read_bytes", &c->disk_read);
        json_summary(b, "disk_write_bytes", &c->disk_write);
        json_summary(b, "image_resident_start_bytes", &c->resident[0]);
        json_summary(b, "image_resident_end_bytes", &c->resident[1]);
        json_summary(b, "dom0_dirty_writeback_start_bytes", &c->dirty[0]);
        json_summary(b, "dom0_dirty_writeback_end_bytes", &c->dirty[1]);
        json_summary(b, "dom0_cached_growth_bytes", &c->cached_growth);
        json_builder_end_object(b);
    }
}

/* ---- statistics.answer ------------------------------------------------------------ */

/* {title, lines: [{kind, label, text}], fixes: [{state, option, why,
 * comparisons}]} (doc/result-format.md) */
static JsonNode *
answer_to_json(const struct vdc_analysis *a)
{
    const struct vdc_answer *ans = &a->answer;
    JsonObject *o = json_object_new();
    JsonArray *lines = json_array_new(), *fixes = json_array_new();
    size_t i;

    set_str(o, "title", ans->title);
    set_str(o, "legend", ans->legend);
    for (i = 0; i < ans->n_lines; i++) {
        JsonObject *l = json_object_new();

        set_str(l, "kind", vdc_answer_kind_name(ans->lines[i].kind));
        set_str(l, "label", ans->lines[i].label);
        set_str(l, "text", ans->lines[i].text);
        json_array_add_object_element(lines, l);
    }
    json_object_set_array_member(o, "lines", lines);
    for (i = 0; i < ans->n_fixes; i++) {
        JsonObject *f = json_object_new();

        set_str(f, "state", ans->fixes[i].state);
        set_str(f, "option", ans->fixes[i].option);
        set_str(f, "why", ans->fixes[i].why);
        set_str(f, "targets", ans->fixes[i].targets);
        set_int(f, "comparisons", (int64_t)ans->fixes[i].n_tests);
        set_int(f, "of_comparisons", (int64_t)ans->fixes[i].n_total);
        json_array_add_object_element(fixes, f);
    }
    json_object_set_array_member(o, "fixes", fixes);
    return node_of(o);
}
