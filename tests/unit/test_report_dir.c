/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for src/report/report_dir.c: the report directory library
 * (what `vmdiskcmp report`, the run and the lab write).  It writes the
 * manifest and the files asked for; it refuses a file it did not write (a
 * dangling symbolic link too) and then writes nothing; each file is
 * replaced atomically (a reader of the old file keeps the whole old file,
 * no temporary file is left, also when a write fails); the warnings go to
 * stderr unless quiet.  Each test works in its own mkdtemp directory. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "common/util.h"
#include "model/result.h"
#include "report/report_dir.h"
#include "test_stderr.h"

static const char *const all_files[] = {
    "report.txt", "report.csv", "summary.csv", "headline.csv", "report.json", "report.md", "report.html",
    NULL,
};

/* image and dom0, 3 runs each of putc and seq_create (512 MiB file). */
static void
build(vdc_result_set *rs)
{
    int i;

    vdc_result_set_init(rs);
    for (i = 0; i < 3; i++) {
        vdc_run *r = vdc_result_set_add_run(rs, "image");

        vdc_run_add_sample(r, "putc")->value = 100 + i;
        vdc_run_add_sample(r, "seq_create")->value = 1000 + i;
        r->meta.file_size_mib = 512;
        r = vdc_result_set_add_run(rs, "dom0");
        vdc_run_add_sample(r, "putc")->value = 110 + i;
        vdc_run_add_sample(r, "seq_create")->value = 1100 + i;
        r->meta.file_size_mib = 512;
    }
}

static void
options(struct vdc_report_options *o)
{
    vdc_report_options_init(o);
    o->generated = "2026-12-01T00:00:00Z";
    o->quiet = 1;
}

static char *
path_in(const char *dir, const char *name)
{
    return g_build_filename(dir, name, NULL);
}

static char *
read_text(const char *dir, const char *name)
{
    char *p = path_in(dir, name), *data = NULL;

    if (!g_file_get_contents(p, &data, NULL, NULL))
        data = NULL;
    g_free(p);
    return data;
}

static int
cmp_names(gconstpointer x, gconstpointer y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The names in @dir, sorted, joined with spaces. */
static char *
listing(const char *dir)
{
    GDir *d = g_dir_open(dir, 0, NULL);
    GPtrArray *v = g_ptr_array_new_with_free_func(g_free);
    const char *n;
    char *s;

    assert_non_null(d);
    while ((n = g_dir_read_name(d)))
        g_ptr_array_add(v, g_strdup(n));
    g_dir_close(d);
    g_ptr_array_sort(v, cmp_names);
    g_ptr_array_add(v, NULL);
    s = g_strjoinv(" ", (char **)v->pdata);
    g_ptr_array_free(v, TRUE);
    return s;
}

static void
rm_rf(const char *dir)
{
    char *cmd = g_strdup_printf("rm -rf '%s'", dir);

    assert_int_equal(system(cmd), 0);
    g_free(cmd);
}

/* Each test: a scratch directory, the result set of build() and quiet
 * options with a fixed date. */
struct fixture {
    char *dir;
    vdc_result_set rs;
    struct vdc_report_options o;
};

static int
setup(void **state)
{
    struct fixture *f = g_new0(struct fixture, 1);

    f->dir = g_strdup("/tmp/vdc-test-report-dir.XXXXXX");
    if (!g_mkdtemp(f->dir))
        return -1;
    build(&f->rs);
    options(&f->o);
    vdc_error_reset();
    *state = f;
    return 0;
}

static int
teardown(void **state)
{
    struct fixture *f = *state;

    rm_rf(f->dir);
    g_free(f->dir);
    vdc_result_set_dispose(&f->rs);
    vdc_error_reset();
    g_free(f);
    return 0;
}

/* vdc_report_write fails with one message of @kind holding @what. */
static void
expect_failure(struct fixture *f, vdc_err_kind kind, const char *what)
{
    char *err;

    vdc_error_reset();
    capture_stderr_begin();
    assert_int_equal(vdc_report_write(&f->rs, &f->o, f->dir), -1);
    err = capture_stderr_end();
    assert_int_equal(vdc_error_last_kind(), kind);
    assert_non_null(strstr(err, what));
    assert_int_equal(strchr(err, '\n') + 1 - err, (long)strlen(err));   /* one line */
    free(err);
}

/* Every format: the seven files and a manifest naming exactly them; the set
 * reads back from report.json; a second write over its own output is
 * allowed and gives the same files. */
static void
test_writes_files_and_manifest(void **state)
{
    struct fixture *f = *state;
    vdc_result_set back;
    char *man, *ls, *first, *again, *p;
    size_t i;

    assert_int_equal(vdc_report_write(&f->rs, &f->o, f->dir), 0);
    ls = listing(f->dir);
    assert_string_equal(ls, ".vmdiskcmp-report headline.csv report.csv report.html report.json report.md "
                            "report.txt summary.csv");
    g_free(ls);
    man = read_text(f->dir, VDC_REPORT_MANIFEST);
    assert_string_equal(man, "report.txt\nreport.csv\nsummary.csv\nheadline.csv\nreport.json\nreport.md\n"
                             "report.html\n");
    g_free(man);
    for (i = 0; all_files[i]; i++) {
        char *t = read_text(f->dir, all_files[i]);

        assert_non_null(t);
        assert_true(strlen(t) > 0);
        g_free(t);
    }
    /* report.json is a result document plus statistics */
    p = path_in(f->dir, "report.json");
    vdc_result_set_init(&back);
    assert_int_equal(vdc_result_set_load_file(&back, p), 0);
    assert_int_equal(back.n_runs, f->rs.n_runs);
    vdc_result_set_dispose(&back);
    g_free(p);
    first = read_text(f->dir, "summary.csv");
    assert_int_equal(vdc_report_write(&f->rs, &f->o, f->dir), 0);
    again = read_text(f->dir, "summary.csv");
    assert_string_equal(first, again);
    man = read_text(f->dir, VDC_REPORT_MANIFEST);
    assert_string_equal(man, "report.txt\nreport.csv\nsummary.csv\nheadline.csv\nreport.json\nreport.md\n"
                             "report.html\n");
    g_free(man);
    g_free(first);
    g_free(again);
}

/* Only the formats asked for; a later write adds its names to the
 * manifest and keeps the earlier ones. */
static void
test_formats_and_manifest_grows(void **state)
{
    struct fixture *f = *state;
    char *ls, *man;

    f->o.formats = VDC_REPORT_CSV;
    assert_int_equal(vdc_report_write(&f->rs, &f->o, f->dir), 0);
    ls = listing(f->dir);
    assert_string_equal(ls, ".vmdiskcmp-report headline.csv report.csv summary.csv");
    g_free(ls);
    f->o.formats = VDC_REPORT_MD | VDC_REPORT_TXT;
    assert_int_equal(vdc_report_write(&f->rs, &f->o, f->dir), 0);
    man = read_text(f->dir, VDC_REPORT_MANIFEST);
    assert_string_equal(man, "report.csv\nsummary.csv\nheadline.csv\nreport.txt\nreport.md\n");
    g_free(man);
    ls = listing(f->dir);
    assert_string_equal(ls, ".vmdiskcmp-report headline.csv report.csv report.md report.txt summary.csv");
    g_free(ls);
}

/* A file of a report name that vmdiskcmp did not write: refused as bad
 * input with one line naming it, left as it was, and nothing else written
 * (no manifest, no other file).  Then the same with a dangling symbolic
 * link (g_file_test EXISTS follows links: one would pass the check). */
static void
test_refuses_foreign_file(void **state)
{
    struct fixture *f = *state;
    char *p, *t, *ls, *target, *l;

    p = path_in(f->dir, "report.md");
    assert_true(g_file_set_contents(p, "mine\n", -1, NULL));
    expect_failure(f, VDC_ERR_INPUT, "report.md exists and was not written by vmdiskcmp report: refusing to "
                                     "overwrite it");
    t = read_text(f->dir, "report.md");
    assert_string_equal(t, "mine\n");
    g_free(t);
    ls = listing(f->dir);
    assert_string_equal(ls, "report.md");
    g_free(ls);
    /* the same name left out of the formats: no conflict */
    f->o.formats = VDC_REPORT_TXT;
    assert_int_equal(vdc_report_write(&f->rs, &f->o, f->dir), 0);
    t = read_text(f->dir, "report.md");
    assert_string_equal(t, "mine\n");
    g_free(t);
    g_unlink(p);
    g_free(p);

    /* a dangling symbolic link named like an output */
    f->o.formats = VDC_REPORT_ALL;
    p = path_in(f->dir, "report.html");
    target = path_in(f->dir, "not-there/mine.html");
    assert_int_equal(symlink(target, p), 0);
    expect_failure(f, VDC_ERR_INPUT, "report.html exists and was not written by vmdiskcmp report");
    assert_true(g_file_test(p, G_FILE_TEST_IS_SYMLINK));
    l = g_file_read_link(p, NULL);
    assert_string_equal(l, target);
    g_free(l);
    /* report.txt (its own, from above) was not rewritten either: the
     * manifest still lists only it */
    t = read_text(f->dir, VDC_REPORT_MANIFEST);
    assert_string_equal(t, "report.txt\n");
    g_free(t);
    g_free(target);
    g_free(p);
}

/* Atomic replacement: a reader holding the old report.txt open keeps the
 * whole old file while the name gets the whole new one (rename, not
 * rewrite in place); no temporary file is left.  A write that fails
 * (summary.csv is a directory here) is a runtime error, leaves no
 * temporary file, and the files written before it are whole. */
static void
test_atomic_writes(void **state)
{
    struct fixture *f = *state;
    char *p, *s, *old, *now, *ls;
    char buf[256];
    ssize_t n;
    int fd;

    f->o.formats = VDC_REPORT_TXT | VDC_REPORT_CSV;
    assert_int_equal(vdc_report_write(&f->rs, &f->o, f->dir), 0);
    old = read_text(f->dir, "report.txt");
    p = path_in(f->dir, "report.txt");
    fd = open(p, O_RDONLY);
    assert_true(fd >= 0);
    f->o.baseline = "image";   /* another baseline: another report.txt */
    assert_int_equal(vdc_report_write(&f->rs, &f->o, f->dir), 0);
    now = read_text(f->dir, "report.txt");
    assert_string_not_equal(old, now);
    n = pread(fd, buf, sizeof(buf) - 1, 0);
    assert_true(n > 0);
    buf[n] = '\0';
    assert_true(strncmp(buf, old, (size_t)n) == 0);   /* the old inode, untouched */
    close(fd);
    ls = listing(f->dir);
    assert_string_equal(ls, ".vmdiskcmp-report headline.csv report.csv report.txt summary.csv");
    g_free(ls);
    g_free(now);

    /* a write that fails half-way */
    s = path_in(f->dir, "summary.csv");
    assert_int_equal(g_unlink(s), 0);
    assert_int_equal(g_mkdir(s, 0755), 0);
    g_free(s);
    f->o.baseline = NULL;
    expect_failure(f, VDC_ERR_RUNTIME, "summary.csv");
    ls = listing(f->dir);
    assert_string_equal(ls, ".vmdiskcmp-report headline.csv report.csv report.txt summary.csv");
    g_free(ls);
    now = read_text(f->dir, "report.txt");
    assert_string_equal(now, old);   /* baseline dom0 again: the first file, whole */
    g_free(now);
    g_free(old);
    g_free(p);
}

/* Bad analysis input (an unknown baseline) writes nothing; warnings go to
 * stderr unless quiet, as `report` prints them. */
static void
test_baseline_and_warnings(void **state)
{
    struct fixture *f = *state;
    char *err, *ls;
    size_t i;

    f->o.baseline = "lvm";
    expect_failure(f, VDC_ERR_INPUT, "--baseline lvm: no such target (targets: image, dom0)");
    ls = listing(f->dir);
    assert_string_equal(ls, "");
    g_free(ls);

    /* 3 runs of 512 MiB under -r 1024: the under-2x-ram warning */
    for (i = 0; i < f->rs.n_runs; i++)
        f->rs.runs[i]->meta.ram_mib = 1024;
    f->o.baseline = NULL;
    f->o.formats = VDC_REPORT_TXT;
    capture_stderr_begin();
    assert_int_equal(vdc_report_write(&f->rs, &f->o, f->dir), 0);
    err = capture_stderr_end();
    assert_string_equal(err, "");   /* quiet */
    free(err);
    f->o.quiet = 0;
    capture_stderr_begin();
    assert_int_equal(vdc_report_write(&f->rs, &f->o, f->dir), 0);
    err = capture_stderr_end();
    assert_non_null(strstr(err, "vmdiskcmp: [progress] wrote "));
    assert_non_null(strstr(err, "vmdiskcmp: WARNING: target image: test file 512 MiB is under twice the RAM "
                                "(1024 MiB) in 3 of 3 runs"));
    assert_non_null(strstr(err, "vmdiskcmp: WARNING: target dom0: test file 512 MiB"));
    free(err);
}

/* vdc_report_result_dir: DIR/result.json loaded and reported into DIR;
 * a missing result.json is an error naming it. */
static void
test_result_dir(void **state)
{
    struct fixture *f = *state;
    char *p, *err, *ls;

    capture_stderr_begin();
    assert_int_equal(vdc_report_result_dir(f->dir, &f->o), -1);
    err = capture_stderr_end();
    assert_non_null(strstr(err, "result.json"));
    free(err);
    p = path_in(f->dir, "result.json");
    assert_int_equal(vdc_result_set_save(&f->rs, p), 0);
    assert_int_equal(vdc_report_result_dir(f->dir, &f->o), 0);
    ls = listing(f->dir);
    assert_string_equal(ls, ".vmdiskcmp-report headline.csv report.csv report.html report.json report.md "
                            "report.txt result.json summary.csv");
    g_free(ls);
    g_free(p);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_writes_files_and_manifest, setup, teardown),
        cmocka_unit_test_setup_teardown(test_formats_and_manifest_grows, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refuses_foreign_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_atomic_writes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_baseline_and_warnings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_result_dir, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
