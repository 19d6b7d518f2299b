/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Renderers print the analysis; they compute nothing from the samples.
 *
 * For each golden input: build the analysis, render every format, then
 * change every measured number of every sample in the result set (values,
 * %CP, times, sweep counters, the workload objects' latencies, CPU and
 * counts, the host objects) and render again from the same analysis.  Every
 * output must be byte-identical: a renderer that averaged, summed or
 * divided samples itself (as the latency chart and the workload block once
 * did) would print the changed numbers.  The two outputs that print the
 * runs as they are, report.csv (one bonnie++ line per run) and report.json
 * (the result document), are left out; everything else is compared. */
#include "config.h"
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <glib.h>

#include "model/result.h"
#include "report/analysis.h"
#include "report/render.h"
#include "report/render_hostcost.h"
#include "report/render_json.h"

/* Every output that must come from the analysis alone, in one string per
 * format (NULL outputs as ""). */
static char **
render_all(const vdc_result_set *rs, const struct vdc_analysis *a)
{
    static const char *const compare_formats[] = { "text", "md", "csv", "json" };
    GPtrArray *v = g_ptr_array_new();
    size_t i;
    char *s;

    g_ptr_array_add(v, vdc_render_text(rs, a));
    g_ptr_array_add(v, vdc_render_markdown(rs, a));
    g_ptr_array_add(v, vdc_render_html(rs, a, "2026-12-06T00:00:00Z"));
    g_ptr_array_add(v, vdc_render_summary_csv(rs, a));
    g_ptr_array_add(v, vdc_render_headline_csv(a));
    g_ptr_array_add(v, (s = vdc_render_workloads_csv(a)) ? s : g_strdup(""));
    g_ptr_array_add(v, (s = vdc_host_cost_csv(a)) ? s : g_strdup(""));
    g_ptr_array_add(v, (s = vdc_host_cache_csv(a)) ? s : g_strdup(""));
    g_ptr_array_add(v, vdc_render_statistics_json(rs, a));
    for (i = 0; i < G_N_ELEMENTS(compare_formats); i++)
        g_ptr_array_add(v, vdc_render_compare(rs, a, compare_formats[i]));
    for (i = 0; i < v->len; i++) {
        /* cairo numbers its surfaces per process: the second rendering's
         * ids differ from the first's whatever the data */
        g_autoptr(GRegex) re = g_regex_new("surface[0-9]+", 0, 0, NULL);

        assert_non_null(v->pdata[i]);
        s = g_regex_replace_literal(re, v->pdata[i], -1, 0, "surface", 0, NULL);
        g_free(v->pdata[i]);
        v->pdata[i] = s;
    }
    g_ptr_array_add(v, NULL);
    return (char **)g_ptr_array_free(v, FALSE);
}

/* @v changed when it is a number (absent stays absent) */
static void
change(double *v)
{
    if (vdc_has(*v))
        *v = *v * 3.0 + 7.0;
}

static void
change_int(int64_t *v)
{
    if (*v != VDC_INT_ABSENT)
        *v = *v * 3 + 7;
}

static void
change_latency(vdc_latency_us *l)
{
    change(&l->p50);
    change(&l->p90);
    change(&l->p99);
    change(&l->p99_9);
    change(&l->p99_99);
    change(&l->mean);
    change(&l->min);
    change(&l->max);
}

/* Every measured number of every sample of @rs changed; the host objects
 * taken away (kept in @hosts, to be put back before the set is freed). */
static void
change_samples(vdc_result_set *rs, GPtrArray *hosts)
{
    size_t i, j;

    for (i = 0; i < rs->n_runs; i++)
        for (j = 0; j < rs->runs[i]->n_samples; j++) {
            vdc_sample *s = rs->runs[i]->samples[j];
            vdc_workload *w = s->workload;

            change(&s->value);
            change(&s->cpu_percent);
            change(&s->latency_us);
            change(&s->elapsed_s);
            change(&s->user_s);
            change(&s->system_s);
            change(&s->system_us_per_op);
            change(&s->real_s);
            change_int(&s->bytes);
            change_int(&s->ops);
            if (w) {
                change_latency(&w->clat_us);
                change_latency(&w->slat_us);
                change(&w->cpu.us_per_io);
                change(&w->cpu.thread_us_per_io);
                change(&w->bandwidth_kib_s);
                change_int(&w->ios);
                change_int(&w->bytes);
            }
            g_ptr_array_add(hosts, s->host);
            s->host = NULL;
        }
}

static void
put_hosts_back(vdc_result_set *rs, GPtrArray *hosts)
{
    size_t i, j, k = 0;

    for (i = 0; i < rs->n_runs; i++)
        for (j = 0; j < rs->runs[i]->n_samples; j++)
            rs->runs[i]->samples[j]->host = g_ptr_array_index(hosts, k++);
}

static void
check_fixture(const char *name)
{
    const char *top = getenv("top_srcdir");
    g_autofree char *path = g_build_filename(top ? top : "..", "tests", "golden", "report", name,
                                             "result.json", NULL);
    g_autoptr(GPtrArray) hosts = g_ptr_array_new();
    struct vdc_stats_options so;
    struct vdc_analysis a;
    vdc_result_set rs;
    char **before, **after;
    size_t i;

    vdc_result_set_init(&rs);
    vdc_analysis_init(&a);
    vdc_stats_options_init(&so);
    assert_int_equal(vdc_result_set_load_file(&rs, path), 0);
    assert_int_equal(vdc_analysis_build(&a, &rs, NULL, &so), 0);
    before = render_all(&rs, &a);
    change_samples(&rs, hosts);
    after = render_all(&rs, &a);
    for (i = 0; before[i]; i++) {
        if (strcmp(before[i], after[i]))
            fail_msg("%s: output %zu changed when only the samples changed: a renderer computes "
                     "from them", name, i);
    }
    put_hosts_back(&rs, hosts);
    g_strfreev(before);
    g_strfreev(after);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
}

/* the check itself can fail: a number read from a sample by a "renderer"
 * changes with the sample */
static void
test_control(void **state)
{
    const char *top = getenv("top_srcdir");
    g_autofree char *path = g_build_filename(top ? top : "..", "tests", "golden", "report", "workload",
                                             "result.json", NULL);
    g_autoptr(GPtrArray) hosts = g_ptr_array_new();
    vdc_result_set rs;
    double before;

    (void)state;
    vdc_result_set_init(&rs);
    assert_int_equal(vdc_result_set_load_file(&rs, path), 0);
    before = rs.runs[0]->samples[0]->workload->clat_us.p99;
    assert_true(vdc_has(before));
    change_samples(&rs, hosts);
    assert_true(rs.runs[0]->samples[0]->workload->clat_us.p99 != before);
    put_hosts_back(&rs, hosts);
    vdc_result_set_dispose(&rs);
}

static void test_synthetic(void **state) { (void)state; check_fixture("synthetic"); }
static void test_workload(void **state) { (void)state; check_fixture("workload"); }
static void test_hostcost(void **state) { (void)state; check_fixture("hostcost"); }
static void test_cachetruth(void **state) { (void)state; check_fixture("cachetruth"); }
static void test_auto(void **state) { (void)state; check_fixture("auto"); }
static void test_seed004(void **state) { (void)state; check_fixture("seed004"); }

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_control),
        cmocka_unit_test(test_synthetic),
        cmocka_unit_test(test_workload),
        cmocka_unit_test(test_hostcost),
        cmocka_unit_test(test_cachetruth),
        cmocka_unit_test(test_auto),
        cmocka_unit_test(test_seed004),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
