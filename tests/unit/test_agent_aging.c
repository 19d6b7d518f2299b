/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests of the agent's aging and passes, the pure part
 * (guest-agent/aging.c): the option values and their refusals, the fill's
 * size draw (bounds, 4 KiB multiples, every power of two drawn, the same
 * seed the same sizes), df's Use%, the free-extent histogram's buckets and
 * the "aging" JSON object. */
#include "config.h"
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "aging.h"

static void
test_fill_percent(void **state)
{
    char err[256];
    uint32_t v = 0;

    assert_int_equal(agent_fill_percent_parse("50", &v, err, sizeof(err)), 0);
    assert_int_equal(v, 50);
    assert_int_equal(agent_fill_percent_parse("95", &v, err, sizeof(err)), 0);
    assert_int_equal(agent_fill_percent_parse("96", &v, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "--fill 96: expected a percentage from 1 to 95"));
    assert_int_equal(agent_fill_percent_parse("0", &v, err, sizeof(err)), -1);
    assert_int_equal(agent_fill_percent_parse("5%", &v, err, sizeof(err)), -1);
    assert_int_equal(agent_fill_percent_parse("", &v, err, sizeof(err)), -1);
}

static void
test_precondition(void **state)
{
    char err[256];
    uint32_t m = 0, w = 0;

    assert_int_equal(agent_precondition_parse(NULL, &m, &w, err, sizeof(err)), 0);
    assert_int_equal(m, AGENT_PRECONDITION_DEFAULT_S);
    assert_int_equal(w, AGENT_PRECONDITION_SS_DUR_S);
    assert_int_equal(agent_precondition_parse("600", &m, &w, err, sizeof(err)), 0);
    assert_int_equal(m, 600);
    assert_int_equal(w, 30);
    assert_int_equal(agent_precondition_parse("4:3", &m, &w, err, sizeof(err)), 0);
    assert_int_equal(m, 4);
    assert_int_equal(w, 3);
    /* the window and its ramp (w/3) must fit */
    assert_int_equal(agent_precondition_parse("39", &m, &w, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "expected at least 40 seconds"));
    assert_int_equal(agent_precondition_parse("100:2", &m, &w, err, sizeof(err)), -1);
    assert_int_equal(agent_precondition_parse("100:", &m, &w, err, sizeof(err)), -1);
    assert_int_equal(agent_precondition_parse("x", &m, &w, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "expected MAX[:WINDOW]"));
}

static void
test_passes(void **state)
{
    char names[AGENT_PASSES_MAX][AGENT_PASS_NAME_MAX], err[256];
    size_t n = 9;

    assert_int_equal(agent_passes_parse("first-write,overwrite", names, &n, err, sizeof(err)), 0);
    assert_int_equal(n, 2);
    assert_string_equal(names[0], "first-write");
    assert_string_equal(names[1], "overwrite");
    assert_int_equal(agent_passes_parse("a", names, &n, err, sizeof(err)), 0);
    assert_int_equal(n, 1);
    assert_int_equal(agent_passes_parse("a,b,c,d", names, &n, err, sizeof(err)), 0);
    assert_int_equal(agent_passes_parse("a,b,c,d,e", names, &n, err, sizeof(err)), -1);
    assert_int_equal(agent_passes_parse("a,,b", names, &n, err, sizeof(err)), -1);
    assert_int_equal(agent_passes_parse("a,", names, &n, err, sizeof(err)), -1);
    assert_int_equal(agent_passes_parse("First", names, &n, err, sizeof(err)), -1);
    assert_int_equal(agent_passes_parse("a b", names, &n, err, sizeof(err)), -1);
    assert_int_equal(agent_passes_parse("0123456789012345678901234567890123", names, &n, err,
                                        sizeof(err)), -1);
    assert_int_equal(agent_passes_parse("x,y,x", names, &n, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "'x' given twice"));
}

static void
test_fill_size(void **state)
{
    struct agent_prng a, b;
    unsigned seen[AGENT_FILL_MAX_SHIFT + 2] = { 0 };

    agent_prng_seed(&a, 42);
    agent_prng_seed(&b, 42);
    for (int i = 0; i < 20000; i++) {
        uint64_t s = agent_fill_size(&a, 1ull << 30);
        unsigned k = 0;

        assert_true(s == agent_fill_size(&b, 1ull << 30));
        assert_true(s % 4096 == 0);
        assert_true(s >= 1ull << AGENT_FILL_MIN_SHIFT);
        assert_true(s < 1ull << (AGENT_FILL_MAX_SHIFT + 1));
        while ((2ull << k) <= s)
            k++;
        seen[k]++;
    }
    /* log-uniform: each power of two from 4 KiB to 16 MiB starts about
     * 1/13 of the time (20000/13 = 1538; 4 sigma is ~150) */
    for (unsigned k = AGENT_FILL_MIN_SHIFT; k <= AGENT_FILL_MAX_SHIFT; k++)
        assert_true(seen[k] > 1300 && seen[k] < 1800);
    /* a small cap bounds every size, still 4 KiB multiples */
    for (int i = 0; i < 1000; i++) {
        uint64_t s = agent_fill_size(&a, 10000);

        assert_true(s == 4096 || s == 8192);
    }
}

static void
test_used_percent(void **state)
{
    /* df: used = blocks - bfree; Use% = used / (used + avail) */
    assert_true(fabs(agent_used_percent(1000, 600, 550) - 400.0 * 100 / 950) < 1e-9);
    assert_true(agent_used_percent(1000, 1000, 950) == 0.0);
    assert_true(agent_used_percent(0, 0, 0) == 0.0);
    assert_true(agent_used_percent(100, 0, 0) == 100.0);
}

static void
test_histogram(void **state)
{
    struct agent_aging a;

    agent_aging_init(&a);
    agent_free_extent_add(&a, 4096);         /* under 8 KiB: bucket 0 */
    agent_free_extent_add(&a, 8191);
    agent_free_extent_add(&a, 8192);         /* [8 KiB, 16 KiB): bucket 1 */
    agent_free_extent_add(&a, 16383);
    agent_free_extent_add(&a, 1ull << 30);   /* [1 GiB, 2 GiB): bucket 30 - 13 + 1 */
    assert_int_equal(a.free_count[0], 2);
    assert_int_equal(a.free_count[1], 2);
    assert_int_equal(a.free_count[30 - AGENT_FREE_FIRST_SHIFT + 1], 1);
    assert_int_equal(a.free_extents, 5);
    assert_true(a.free_bytes == 4096 + 8191 + 8192 + 16383 + (1ull << 30));
    assert_true(a.largest_free == 1ull << 30);
    agent_free_extent_add(&a, UINT64_MAX);   /* the last bucket holds the rest */
    assert_int_equal(a.free_count[AGENT_FREE_BUCKETS - 1], 1);
}

static char *
render(const struct agent_aging *a)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);

    assert_non_null(fp);
    agent_aging_format_json(fp, a);
    fclose(fp);
    return buf;
}

static void
test_json(void **state)
{
    struct agent_aging a;
    char *s;

    agent_aging_init(&a);
    a.fill_percent = 50;
    a.seed = 7;
    a.files_written = 10;
    a.files_deleted = 3;
    a.used_percent = 50.04;
    agent_free_extent_add(&a, 4096);
    agent_free_extent_add(&a, 20000);
    a.free_known = 1;
    a.free_source = "GETFSMAP";
    s = render(&a);
    assert_non_null(strstr(s, "\"fill_percent\": 50, \"seed\": 7, \"files_written\": 10, "
                              "\"files_deleted\": 3"));
    assert_non_null(strstr(s, "\"free_extents\": [[8192, 1], [32768, 1]]"));
    assert_non_null(strstr(s, "\"free_extents_source\": \"GETFSMAP\""));
    assert_non_null(strstr(s, "\"precondition\": null, \"error\": null}"));
    free(s);

    /* the free extents unread: null, not an empty histogram */
    a.free_known = 0;
    s = render(&a);
    assert_non_null(strstr(s, "\"free_extents\": null, \"free_extents_source\": null"));
    free(s);

    /* a precondition alone: no fill members */
    agent_aging_init(&a);
    a.precondition_max_s = 60;
    a.window_s = 30;
    a.ramp_s = 10;
    a.seq_bytes = 1 << 20;
    s = render(&a);
    assert_null(strstr(s, "fill_percent"));
    assert_non_null(strstr(s, "\"sequential_bytes\": 1048576"));
    assert_non_null(strstr(s, "\"reached\": false, \"at_s\": null, \"criterion\": null"));
    assert_non_null(strstr(s, "\"window_s\": 30, \"ramp_s\": 10, \"max_s\": 60"));
    free(s);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fill_percent),
        cmocka_unit_test(test_precondition),
        cmocka_unit_test(test_passes),
        cmocka_unit_test(test_fill_size),
        cmocka_unit_test(test_used_percent),
        cmocka_unit_test(test_histogram),
        cmocka_unit_test(test_json),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
