/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the agent's PRNG and op digest (guest-agent/prng.c).
 *
 * Known values were computed independently of this C code, with a
 * 20-line Python transcription of the reference algorithms
 * (https://prng.di.unimi.it/splitmix64.c and xoshiro256starstar.c: 64-bit
 * masking of every product and shift); splitmix64's first output from
 * state 0 (0xe220a8397b1dcdaf) and FNV-1a 64 of "", "a" and "foobar" are
 * also the published test vectors. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "prng.h"

static void
test_splitmix64_vector(void **state)
{
    uint64_t st = 0;

    assert_true(agent_splitmix64(&st) == 0xe220a8397b1dcdafull);
}

static void
test_xoshiro_known_values(void **state)
{
    static const uint64_t seed0[4] = {
        0x99ec5f36cb75f2b4ull, 0xbf6e1f784956452aull,
        0x1a5f849d4933e6e0ull, 0x6aa594f1262d2d2cull,
    };
    static const uint64_t seed42[4] = {
        0x15780b2e0c2ec716ull, 0x6104d9866d113a7eull,
        0xae17533239e499a1ull, 0xecb8ad4703b360a1ull,
    };
    struct agent_prng r;

    agent_prng_seed(&r, 0);
    for (int i = 0; i < 4; i++)
        assert_true(agent_prng_next(&r) == seed0[i]);
    agent_prng_seed(&r, 42);
    for (int i = 0; i < 4; i++)
        assert_true(agent_prng_next(&r) == seed42[i]);
}

static void
test_same_seed_same_sequence(void **state)
{
    struct agent_prng a, b, c;
    int differ = 0;

    agent_prng_seed(&a, 12345);
    agent_prng_seed(&b, 12345);
    agent_prng_seed(&c, 12346);
    for (int i = 0; i < 10000; i++) {
        uint64_t va = agent_prng_next(&a);

        assert_true(va == agent_prng_next(&b));
        differ += va != agent_prng_next(&c);
    }
    assert_true(differ > 9990);
}

static void
test_below_range_and_spread(void **state)
{
    struct agent_prng r;
    unsigned hist[10] = { 0 };

    agent_prng_seed(&r, 7);
    assert_true(agent_prng_below(&r, 0) == 0);
    assert_true(agent_prng_below(&r, 1) == 0);
    for (int i = 0; i < 100000; i++) {
        uint64_t v = agent_prng_below(&r, 10);

        assert_true(v < 10);
        hist[v]++;
    }
    /* each bucket within 5 % of 10000 (about 5 standard deviations) */
    for (int i = 0; i < 10; i++) {
        assert_true(hist[i] > 9500);
        assert_true(hist[i] < 10500);
    }
    /* a huge bound still works */
    assert_true(agent_prng_below(&r, UINT64_MAX) < UINT64_MAX);
}

static void
test_fnv1a64_vectors(void **state)
{
    uint64_t h = AGENT_FNV1A64_INIT;

    assert_true(agent_fnv1a64(h, "", 0) == 0xcbf29ce484222325ull);
    assert_true(agent_fnv1a64(h, "a", 1) == 0xaf63dc4c8601ec8cull);
    assert_true(agent_fnv1a64(h, "foobar", 6) == 0x85944171f73967e8ull);
    /* u64 folding is little-endian bytes, whatever the host */
    const unsigned char le[8] = { 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01 };
    assert_true(agent_fnv1a64_u64(h, 0x0102030405060708ull)
                == agent_fnv1a64(h, le, 8));
    /* strings fold their NUL, so "ab","c" differs from "a","bc" */
    assert_true(agent_fnv1a64_str(agent_fnv1a64_str(h, "ab"), "c")
                != agent_fnv1a64_str(agent_fnv1a64_str(h, "a"), "bc"));
}

static void
test_random_seed(void **state)
{
    uint64_t a = 0, b = 0;

    assert_int_equal(agent_random_seed(&a), 0);
    assert_int_equal(agent_random_seed(&b), 0);
    assert_true(a != b);    /* 2^-64 chance of a false failure */
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_splitmix64_vector),
        cmocka_unit_test(test_xoshiro_known_values),
        cmocka_unit_test(test_same_seed_same_sequence),
        cmocka_unit_test(test_below_range_and_spread),
        cmocka_unit_test(test_fnv1a64_vectors),
        cmocka_unit_test(test_random_seed),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
