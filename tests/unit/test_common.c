/* Unit tests for src/common: size parsing and atomic writes. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/util.h"

static void
test_parse_size_units(void **state)
{
    uint64_t v = 0;

    assert_int_equal(vdc_parse_size("1024", 1, &v), 0);
    assert_int_equal(v, 1024);
    assert_int_equal(vdc_parse_size("512", 1ULL << 20, &v), 0);
    assert_int_equal(v, 512ULL << 20);
    assert_int_equal(vdc_parse_size("4k", 1, &v), 0);
    assert_int_equal(v, 4096);
    assert_int_equal(vdc_parse_size("2G", 1, &v), 0);
    assert_int_equal(v, 2ULL << 30);
    assert_int_equal(vdc_parse_size("3MiB", 1, &v), 0);
    assert_int_equal(v, 3ULL << 20);
    assert_int_equal(vdc_parse_size("1T", 1, &v), 0);
    assert_int_equal(v, 1ULL << 40);
    assert_int_equal(vdc_parse_size("100B", 1ULL << 20, &v), 0);
    assert_int_equal(v, 100);
}

static void
test_parse_size_errors(void **state)
{
    uint64_t v = 7;

    assert_int_equal(vdc_parse_size("", 1, &v), -1);
    assert_int_equal(vdc_parse_size("-1", 1, &v), -1);
    assert_int_equal(vdc_parse_size("12X", 1, &v), -1);
    assert_int_equal(vdc_parse_size("1GX", 1, &v), -1);
    assert_int_equal(vdc_parse_size("G", 1, &v), -1);
    assert_int_equal(vdc_parse_size("99999999999999999999", 1, &v), -1);
    assert_int_equal(vdc_parse_size("17179869184T", 1, &v), -1);
    assert_int_equal(v, 7); /* untouched on error */
}

static void
test_atomic_write(void **state)
{
    char dir[] = "/tmp/vdc-test-XXXXXX";
    char path[64], buf[16] = { 0 };
    FILE *f;

    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/out.json", dir);
    assert_int_equal(vdc_write_file_atomic(path, "{\"a\":1}", 7), 0);
    f = fopen(path, "r");
    assert_non_null(f);
    assert_int_equal(fread(buf, 1, sizeof(buf) - 1, f), 7);
    fclose(f);
    assert_string_equal(buf, "{\"a\":1}");
    /* a directory that does not exist: error, nothing created */
    assert_int_equal(vdc_write_file_atomic("/nonexistent-vdc/x.json", "x", 1), -1);
    unlink(path);
    rmdir(dir);
}

/* the error model: the first error's kind decides, an interruption wins */
static void
test_error_kinds(void **state)
{
    vdc_error_reset();
    assert_int_equal(vdc_error_last_kind(), VDC_ERR_NONE);
    assert_int_equal(vdc_exit_status(0), VDC_EXIT_OK);
    assert_int_equal(vdc_exit_status(-1), VDC_EXIT_FAILURE);   /* nothing reported */

    vdc_input_error("--runs: expected a whole number, got 'x'");
    vdc_error("a runtime error after it");
    assert_int_equal(vdc_error_last_kind(), VDC_ERR_INPUT);
    assert_int_equal(vdc_exit_status(-1), VDC_EXIT_USAGE);

    vdc_error_reset();
    vdc_error("cannot open libxc handle");
    vdc_input_error("bad input found later");
    assert_int_equal(vdc_exit_status(-1), VDC_EXIT_FAILURE);

    vdc_note_interrupted();
    assert_int_equal(vdc_error_last_kind(), VDC_ERR_INTERRUPTED);
    assert_int_equal(vdc_exit_status(-1), VDC_EXIT_INTERRUPTED);
    assert_int_equal(vdc_exit_status(0), VDC_EXIT_INTERRUPTED);

    vdc_error_reset();
    vdc_error_kind(VDC_ERR_NONE, "a note that records nothing");
    assert_int_equal(vdc_error_last_kind(), VDC_ERR_NONE);
    vdc_error_kind(VDC_ERR_INPUT, "bad");
    assert_int_equal(vdc_exit_status(1), VDC_EXIT_USAGE);
    vdc_error_reset();
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_size_units),
        cmocka_unit_test(test_parse_size_errors),
        cmocka_unit_test(test_atomic_write),
        cmocka_unit_test(test_error_kinds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
