/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of src/store: the facts and what changed between two results,
 * a history step's decision (verdict changed, the ratio's shift by Welch)
 * and --fail-if, dates, the exporters' escaping, and on a store in a
 * temporary directory: recording twice adds nothing, a merge's members,
 * the migration of a version-1 store to version 2 (its rows kept), and the
 * refusal of a file that is not a vmdiskcmp store. */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "store/export.h"
#include "store/facts.h"
#include "store/history.h"
#include "store/store.h"
#include "tests/unit/test_stderr.h"

/* ---- facts ------------------------------------------------------------------ */

static void
test_facts_changes(void **state)
{
    GArray *a = vdc_facts_new(), *b = vdc_facts_new();
    char *groups = NULL, *ch;

    (void)state;
    vdc_facts_add(a, "host.kernel", "6.1.0-27-amd64");
    vdc_facts_add(a, "xen.version", "4.17.0");
    vdc_facts_add(a, "target.image.backend", "phy");
    vdc_facts_add(a, "target.other.backend", "qdisk");
    vdc_facts_add(a, "host.hostname", "h1");
    vdc_facts_add(b, "host.kernel", "6.1.0-28-amd64");
    vdc_facts_add(b, "xen.version", "4.17.0");
    vdc_facts_add(b, "target.image.backend", "file");
    vdc_facts_add(b, "target.other.backend", "phy");
    vdc_facts_add(b, "qemu.version", "7.2.0");
    vdc_facts_add(b, "host.hostname", "h2");
    vdc_facts_sort(a);
    vdc_facts_sort(b);
    ch = vdc_facts_changes(a, b, "image", "lvm", &groups);
    /* group order; the other target's and the hostname left out; absent "-" */
    assert_string_equal(ch, "kernel 6.1.0-27-amd64 \u2192 6.1.0-28-amd64; QEMU - \u2192 7.2.0; "
                            "image backend phy \u2192 file");
    assert_string_equal(groups, "kernel,QEMU,backend");
    g_free(ch);
    g_free(groups);
    ch = vdc_facts_changes(a, a, NULL, NULL, NULL);
    assert_string_equal(ch, "");
    g_free(ch);
    assert_string_equal(vdc_fact_group("target.x.dom0_page_cache"), "backend");
    assert_string_equal(vdc_fact_group("target.x.file_size_mib"), "settings");
    assert_string_equal(vdc_fact_group("disk.model"), "disk");
    g_array_unref(a);
    g_array_unref(b);
}

static void
test_facts_of(void **state)
{
    vdc_result_set rs;
    vdc_target *t;
    vdc_run *r;
    GArray *f;
    int found = 0;

    (void)state;
    vdc_result_set_init(&rs);
    rs.has_experiment = 1;
    vdc_set_str(&rs.experiment.host.kernel, "6.1.0-57-amd64");
    vdc_set_str(&rs.experiment.hypervisor.xen_version, "4.17.7");
    t = vdc_result_set_add_target(&rs, "image");
    vdc_set_str(&t->backend.type, "phy");
    t->cache.bypasses_dom0_page_cache = 0;
    r = vdc_result_set_add_run(&rs, "image");
    r->meta.file_size_mib = 256;
    f = vdc_facts_of(&rs);
    for (guint i = 0; i < f->len; i++) {
        const struct vdc_fact *x = &g_array_index(f, struct vdc_fact, i);

        if (i)
            assert_true(strcmp(g_array_index(f, struct vdc_fact, i - 1).name, x->name) < 0);
        if (!strcmp(x->name, "host.kernel"))
            found += !strcmp(x->value, "6.1.0-57-amd64");
        if (!strcmp(x->name, "xen.version"))
            found += !strcmp(x->value, "4.17.7");
        if (!strcmp(x->name, "target.image.backend"))
            found += !strcmp(x->value, "phy");
        if (!strcmp(x->name, "target.image.dom0_page_cache"))
            found += !strcmp(x->value, "used");
        if (!strcmp(x->name, "target.image.file_size_mib"))
            found += !strcmp(x->value, "256");
        assert_true(strcmp(x->name, "qemu.version"));   /* absent: no fact */
    }
    assert_int_equal(found, 5);
    g_array_unref(f);
    vdc_result_set_dispose(&rs);
}

/* ---- history steps ------------------------------------------------------------ */

static struct vdc_history_point *
add_point(struct vdc_history_series *s, const char *verdict, const double *reps, size_t n, const char *kernel)
{
    struct vdc_history_point *p = vdc_history_add_point(s);

    p->result = (int64_t)s->n_points;
    p->date = g_strdup_printf("2026-12-0%zuT00:00:00Z", s->n_points);
    p->verdict = g_strdup(verdict);
    p->rep_target = g_new(double, n);
    p->rep_reference = g_new(double, n);
    p->n_rep = n;
    p->ratio = 0;
    for (size_t i = 0; i < n; i++) {
        p->rep_target[i] = 1000 * reps[i];   /* the reference at 1000 K/sec every repetition */
        p->rep_reference[i] = 1000;
        p->ratio += reps[i] / (double)n;
    }
    p->facts = vdc_facts_new();
    vdc_facts_add(p->facts, "host.kernel", kernel);
    return p;
}

static void
test_history_decide(void **state)
{
    static const double faster[] = { 1.20, 1.22, 1.19, 1.21, 1.20 };
    static const double faster2[] = { 1.21, 1.19, 1.20, 1.22, 1.20 };
    static const double even[] = { 1.00, 1.01, 0.99, 1.00, 1.01 };
    static const double noisy[] = { 0.7, 1.4, 0.9, 1.3, 1.1 };
    struct vdc_history h;
    struct vdc_history_series *s;
    struct vdc_history_fail f = { 0 };
    char **fails;

    (void)state;
    vdc_history_init(&h);
    s = vdc_history_add_series(&h, "h1", "image", "lvm", "put_block", "K/sec");
    add_point(s, "faster", faster, 5, "6.1.0-27-amd64");
    add_point(s, "faster", faster2, 5, "6.1.0-27-amd64");
    add_point(s, "no significant difference", even, 5, "6.1.0-28-amd64");
    s = vdc_history_add_series(&h, "h1", "image", "lvm", "get_block", "K/sec");
    add_point(s, "faster", faster, 5, "6.1.0-27-amd64");
    add_point(s, "no significant difference", noisy, 5, "6.1.0-28-amd64");
    vdc_history_decide(&h);

    s = &h.series[0];
    assert_null(s->points[0].changes);
    assert_string_equal(s->points[1].changes, "");      /* nothing recorded changed */
    assert_false(s->points[1].verdict_changed);
    assert_false(s->points[1].move_significant);
    assert_string_equal(s->points[2].changes, "kernel 6.1.0-27-amd64 \u2192 6.1.0-28-amd64");
    assert_true(s->points[2].verdict_changed);
    assert_true(s->points[2].move_significant);        /* 1.20 -> 1.00, tight */
    assert_true(s->points[2].move.percent < -15);
    /* the move is the quotient of the two ratios of means the rows print */
    assert_true(fabs(s->points[2].move.ratio - s->points[2].ratio / s->points[1].ratio) < 1e-12);
    /* the verdict changed but the move is noise: not significant */
    assert_true(h.series[1].points[1].verdict_changed);
    assert_false(h.series[1].points[1].move_significant);

    f.verdict = 1;
    fails = vdc_history_failures(&h, &f);
    assert_non_null(fails[0]);
    assert_non_null(strstr(fails[0], "put_block"));
    assert_non_null(strstr(fails[0], "kernel 6.1.0-27-amd64"));
    assert_null(fails[1]);
    g_strfreev(fails);
    f.verdict = 0;
    f.ratio_percent = 25;            /* moved about 17 %: under 25 */
    fails = vdc_history_failures(&h, &f);
    assert_null(fails[0]);
    g_strfreev(fails);
    f.ratio_percent = 10;
    fails = vdc_history_failures(&h, &f);
    assert_non_null(fails[0]);
    assert_null(fails[1]);
    g_strfreev(fails);
    vdc_history_dispose(&h);
}

/* A step where either result is not comparable is shown, never tested,
 * never significant, never a --fail-if failure. */
static void
test_history_not_comparable(void **state)
{
    static const double low[] = { 0.70, 0.71, 0.69, 0.70, 0.71 };
    static const double high[] = { 1.40, 1.41, 1.39, 1.40, 1.41 };
    struct vdc_history h;
    struct vdc_history_series *s;
    struct vdc_history_fail f = { .verdict = 1, .ratio_percent = 10 };
    char **fails;

    (void)state;
    vdc_history_init(&h);
    s = vdc_history_add_series(&h, "h1", "image", "lvm", "put_block", "K/sec");
    add_point(s, "not comparable", low, 5, "6.1.0-27-amd64")->not_comparable = g_strdup("under-2x-ram on image");
    add_point(s, "faster", high, 5, "6.1.0-28-amd64");
    add_point(s, "slower", low, 5, "6.1.0-28-amd64")->not_comparable = g_strdup("dom0-page-cache on image");
    vdc_history_decide(&h);
    s = &h.series[0];
    for (size_t k = 1; k < 3; k++) {
        assert_true(s->points[k].step_not_comparable);
        assert_true(s->points[k].move.has_test);         /* it could be tested: it is not */
        assert_true(s->points[k].move.p_value < 1e-6);
        assert_false(s->points[k].move_significant);
    }
    assert_true(s->points[1].move.percent > 99);
    fails = vdc_history_failures(&h, &f);
    assert_null(fails[0]);
    g_strfreev(fails);
    vdc_history_dispose(&h);
}

static void
test_fail_parse_and_dates(void **state)
{
    struct vdc_history_fail f = { 0 };
    char *err;

    (void)state;
    assert_int_equal(vdc_history_fail_parse("verdict", &f), 0);
    assert_true(f.verdict);
    assert_int_equal(vdc_history_fail_parse("ratio>7.5%", &f), 0);
    assert_true(fabs(f.ratio_percent - 7.5) < 1e-12);
    capture_stderr_begin();
    assert_int_equal(vdc_history_fail_parse("ratio>0", &f), -1);
    assert_int_equal(vdc_history_fail_parse("slower>5%", &f), -1);
    err = capture_stderr_end();
    assert_non_null(strstr(err, "--fail-if 'slower>5%': expected verdict"));
    free(err);
    assert_true(vdc_history_date_ok("2026-12-01"));
    assert_true(vdc_history_date_ok("2026-12-01T10:15"));
    assert_true(vdc_history_date_ok("2026-12-01T10:15:30Z"));
    assert_true(vdc_history_date_ok("2024-02-29"));
    assert_true(vdc_history_date_ok("2026-12-06Z"));
    assert_true(vdc_history_date_ok("2026-12-06T10:15Z"));
    assert_false(vdc_history_date_ok("2026-12-06ZZ"));
    assert_false(vdc_history_date_ok("2026-12-06T10Z"));
    /* a bound compares without its Z */
    assert_int_equal(vdc_history_date_bound_len("2026-12-06Z"), 10);
    assert_int_equal(vdc_history_date_bound_len("2026-12-06T10:15Z"), 16);
    assert_int_equal(vdc_history_date_bound_len("2026-12-06T10:15:30"), 19);
    assert_false(vdc_history_date_ok("2026-13-45"));
    assert_false(vdc_history_date_ok("2026-02-30"));
    assert_false(vdc_history_date_ok("2025-02-29"));
    assert_false(vdc_history_date_ok("2026-00-10"));
    assert_false(vdc_history_date_ok("2026-12-06T25:00"));
    assert_false(vdc_history_date_ok("2026-12-06T12:60"));
    assert_false(vdc_history_date_ok("2026-12-06T12:00:61"));
    assert_false(vdc_history_date_ok("2026-12-1"));
    assert_false(vdc_history_date_ok("yesterday"));
    assert_false(vdc_history_date_ok("2026-12-01; DROP TABLE results"));
}

static void
test_export_escaping(void **state)
{
    GString *s = g_string_new(NULL);
    char *v;

    (void)state;
    vdc_openmetrics_escape(s, "a\"b\\c\nd");
    assert_string_equal(s->str, "a\\\"b\\\\c\\nd");
    g_string_free(s, TRUE);
    v = vdc_pkb_label_value("x|y,z:w");
    assert_string_equal(v, "x/y;z:w");
    g_free(v);
    assert_true(fabs(vdc_export_timestamp("2026-11-30T02:18:24Z") - 1796005104.0) < 1e-6);
    assert_true(fabs(vdc_export_timestamp("2026-11-30T03:18:24.5+01:00") - 1796005104.5) < 1e-6);
    assert_true(isnan(vdc_export_timestamp("result")));
    assert_true(isnan(vdc_export_timestamp(NULL)));
}

/* ---- on a store ----------------------------------------------------------------- */

static char *tmpdir;

static int
setup_dir(void **state)
{
    (void)state;
    tmpdir = g_dir_make_tmp("vdc-store-XXXXXX", NULL);
    return tmpdir ? 0 : -1;
}

static int
teardown_dir(void **state)
{
    g_autoptr(GDir) d = g_dir_open(tmpdir, 0, NULL);
    const char *n;

    (void)state;
    while (d && (n = g_dir_read_name(d))) {
        g_autofree char *p = g_build_filename(tmpdir, n, NULL);

        g_unlink(p);
    }
    g_rmdir(tmpdir);
    g_free(tmpdir);
    return 0;
}

/* a run of image and lvm, 3 repetitions, put_block at @ratio */
static void
make_set(vdc_result_set *rs, const char *host, double ratio)
{
    vdc_result_set_init(rs);
    rs->has_experiment = 1;
    vdc_set_str(&rs->experiment.id, "2026-12-01T000000.000Z-x-000001");
    vdc_set_str(&rs->experiment.date, "2026-12-01T00:00:00Z");
    vdc_set_str(&rs->experiment.host.hostname, host);
    vdc_set_str(&vdc_result_set_add_target(rs, "image")->kind, "image");
    vdc_set_str(&vdc_result_set_add_target(rs, "lvm")->kind, "lvm");
    for (int rep = 0; rep < 3; rep++)
        for (int t = 0; t < 2; t++) {
            vdc_run *r = vdc_result_set_add_run(rs, t ? "lvm" : "image");
            vdc_sample *s = vdc_run_add_sample(r, "put_block");

            s->value = 1000.0 * (1 + 0.01 * rep) * (t ? 1 : ratio);
        }
}

static int64_t
count(vdc_store *s, const char *sql)
{
    sqlite3_stmt *st = NULL;
    int64_t n = -1;

    assert_int_equal(sqlite3_prepare_v2(vdc_store_db(s), sql, -1, &st, NULL), SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

static void
test_add_twice_and_merge(void **state)
{
    g_autofree char *path = g_build_filename(tmpdir, "s.sqlite", NULL);
    vdc_result_set a, b, m;
    struct vdc_store_item items[2] = {
        { .rs = &a, .sha256 = "aaaa", .source = "/r/a", .host = "h1", .kind = VDC_STORE_KIND_RUN },
        { .rs = &b, .sha256 = "bbbb", .source = "/r/b", .host = "h2", .kind = VDC_STORE_KIND_RUN },
    };
    struct vdc_store_item merge = { .rs = &m, .sha256 = "mmmm", .source = "/r/m", .kind = VDC_STORE_KIND_MERGE };
    vdc_store *s;
    size_t added = 99;

    (void)state;
    make_set(&a, "x", 1.2);
    make_set(&b, "x", 0.9);
    vdc_result_set_init(&m);
    s = vdc_store_open(path, 1);
    assert_non_null(s);
    assert_int_equal(vdc_store_schema_version(s), VDC_STORE_SCHEMA_VERSION);
    assert_int_equal(vdc_store_add(s, items, 1, NULL, &added), 0);
    assert_int_equal(added, 1);
    assert_int_equal(count(s, "SELECT count(*) FROM samples"), 6);
    assert_int_equal(count(s, "SELECT count(*) FROM headline WHERE role = 'choice' AND test_key = 'put_block'"), 1);
    assert_int_equal(count(s, "SELECT count(*) FROM facts WHERE name = 'host.hostname' AND value = 'x'"), 1);
    /* the same again, with the other and a merge: only the new ones */
    assert_int_equal(vdc_store_add(s, items, 2, &merge, &added), 0);
    assert_int_equal(added, 2);
    assert_int_equal(count(s, "SELECT count(*) FROM results"), 3);
    assert_int_equal(count(s, "SELECT count(*) FROM samples"), 12);
    assert_int_equal(count(s, "SELECT count(*) FROM merges WHERE host IN ('h1', 'h2')"), 2);
    assert_int_equal(count(s, "SELECT count(*) FROM results WHERE host = 'h2' AND kind = 'run'"), 1);
    assert_int_equal(vdc_store_add(s, items, 2, &merge, &added), 0);
    assert_int_equal(added, 0);
    assert_int_equal(count(s, "SELECT count(*) FROM samples"), 12);
    vdc_store_close(s);
    vdc_result_set_dispose(&a);
    vdc_result_set_dispose(&b);
    vdc_result_set_dispose(&m);
}

static void
test_migrate_1_to_2(void **state)
{
    g_autofree char *path = g_build_filename(tmpdir, "v1.sqlite", NULL);
    vdc_store *s;
    sqlite3_stmt *st = NULL;

    (void)state;
    s = vdc_store_open_version(path, 1);
    assert_non_null(s);
    assert_int_equal(vdc_store_schema_version(s), 1);
    /* a version-1 row, written as a version-1 build wrote it */
    assert_int_equal(sqlite3_exec(vdc_store_db(s),
        "INSERT INTO results (sha256, kind, host, date, added, added_by) VALUES "
        "('v1', 'run', 'old', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'vmdiskcmp 0.0');"
        "INSERT INTO headline (result, role, target, reference, test_key, verdict) VALUES "
        "(1, 'choice', 'image', 'lvm', 'put_block', 'faster');", NULL, NULL, NULL), SQLITE_OK);
    assert_int_not_equal(sqlite3_prepare_v2(vdc_store_db(s), "SELECT stop_reason FROM headline", -1, &st, NULL),
                         SQLITE_OK);
    vdc_store_close(s);
    s = vdc_store_open(path, 0);        /* opening migrates */
    assert_non_null(s);
    assert_int_equal(vdc_store_schema_version(s), 2);
    assert_int_equal(count(s, "SELECT count(*) FROM headline WHERE verdict = 'faster' AND stop_reason IS NULL"), 1);
    assert_int_equal(count(s, "SELECT count(*) FROM sqlite_master WHERE name = 'headline_by_pair'"), 1);
    assert_int_equal(count(s, "SELECT count(*) FROM results WHERE host = 'old'"), 1);
    vdc_store_close(s);
}

static void
test_refusals(void **state)
{
    g_autofree char *text = g_build_filename(tmpdir, "notes.txt", NULL);
    g_autofree char *foreign = g_build_filename(tmpdir, "other.sqlite", NULL);
    g_autofree char *missing = g_build_filename(tmpdir, "none.sqlite", NULL);
    g_autofree char *got = NULL;
    sqlite3 *db = NULL;
    char *err;
    gsize len;

    (void)state;
    g_file_set_contents(text, "my notes\n", -1, NULL);
    assert_int_equal(sqlite3_open(foreign, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "CREATE TABLE t (x); INSERT INTO t VALUES (1);", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    capture_stderr_begin();
    assert_null(vdc_store_open(text, 1));
    assert_null(vdc_store_open(foreign, 1));
    assert_null(vdc_store_open(missing, 0));
    assert_int_equal(vdc_store_check_path(text), -1);
    err = capture_stderr_end();
    assert_non_null(strstr(err, "notes.txt: not a SQLite database"));
    assert_non_null(strstr(err, "other.sqlite: a SQLite database of another application (application_id 0x00000000"));
    assert_non_null(strstr(err, "none.sqlite: no such file"));
    free(err);
    assert_true(g_file_get_contents(text, &got, &len, NULL));
    assert_string_equal(got, "my notes\n");           /* untouched */
    assert_false(g_file_test(missing, G_FILE_TEST_EXISTS));
    assert_int_equal(vdc_store_check_path(missing), 0);
    assert_false(g_file_test(missing, G_FILE_TEST_EXISTS));
    g_unlink(foreign);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_facts_changes),
        cmocka_unit_test(test_facts_of),
        cmocka_unit_test(test_history_decide),
        cmocka_unit_test(test_history_not_comparable),
        cmocka_unit_test(test_fail_parse_and_dates),
        cmocka_unit_test(test_export_escaping),
        cmocka_unit_test(test_add_twice_and_merge),
        cmocka_unit_test(test_migrate_1_to_2),
        cmocka_unit_test(test_refusals),
    };

    return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
