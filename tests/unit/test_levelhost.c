/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A density level's host cost object (collect/levelhost.h
 * vdc_level_host_json) on hand-worked figures, held by the model's bounds
 * (vdc_host_check). */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "collect/levelhost.h"
#include "model/result.h"

#define GIB 1073741824.0

static double
cpu(JsonObject *o, const char *group, const char *role)
{
    return json_object_get_double_member(json_object_get_object_member(o, group), role);
}

static const char *
attribution_of(JsonObject *o, const char *role)
{
    return json_object_get_string_member(
        json_object_get_object_member(json_object_get_object_member(o, "cpu_attribution"), role),
        "attribution");
}

/* two guests' QEMUs and their vCPU threads over a 10 s window */
static vdc_level_window
window(void)
{
    vdc_level_window w = { .guests = 2, .t_s = { 100.0, 110.0 }, .busy_s = 10.0, .steal_s = 1.0,
                           .tick_s = 0.01, .have_mem = 1, .bytes = 2.0 * GIB, .ios = 4000,
                           .io_source = "virDomainBlockStats" };

    w.mem[0] = (vdc_meminfo){ .mem_total = 8000, .cached = 1000, .dirty = 10,
                              .mem_available = 6000 };
    w.mem[1] = (vdc_meminfo){ .mem_total = 8000, .cached = 3000, .dirty = 50,
                              .mem_available = 5000 };
    return w;
}

static void
test_sums(void **state)
{
    const vdc_level_server_cpu srv[] = {
        { "qemu", 0, 1, 1.5, 0 }, { "qemu_vcpu", 0, 1, 1.0, 1 },
        { "qemu", 1, 1, 2.5, 0 }, { "qemu_vcpu", 1, 1, 2.0, 1 },
    };
    vdc_level_window w = window();
    JsonObject *o = vdc_level_host_json(srv, G_N_ELEMENTS(srv), &w);
    JsonArray *a;
    char *why = vdc_host_check(o);

    assert_null(why);
    assert_int_equal(json_object_get_int_member(o, "guests"), 2);
    assert_true(fabs(json_object_get_double_member(o, "interval_s") - 10.0) < 1e-9);
    assert_true(fabs(cpu(o, "cpu_s", "qemu") - 4.0) < 1e-9);
    assert_true(fabs(cpu(o, "cpu_s", "qemu_vcpu") - 3.0) < 1e-9);
    assert_true(fabs(cpu(o, "cpu_s", "qemu_io") - 1.0) < 1e-9);
    /* busy + steal minus the processes (their threads are inside them) */
    assert_true(fabs(cpu(o, "cpu_s", "dom0_other") - 7.0) < 1e-9);
    assert_true(fabs(cpu(o, "cpu_s", "dom0_busy") - 10.0) < 1e-9);
    assert_string_equal(attribution_of(o, "qemu"), "exact");
    assert_false(json_object_has_member(json_object_get_object_member(o, "cpu_s"), "loop"));
    /* 4 s over 2 GiB, over 4 thousand I/Os */
    assert_int_equal(json_object_get_int_member(o, "bytes"), (gint64)(2.0 * GIB));
    assert_int_equal(json_object_get_int_member(o, "ios"), 4000);
    assert_string_equal(json_object_get_string_member(o, "source"), "virDomainBlockStats");
    assert_true(fabs(cpu(o, "cpu_s_per_gib", "qemu") - 2.0) < 1e-9);
    assert_true(fabs(cpu(o, "cpu_s_per_1000_ios", "qemu") - 1.0) < 1e-9);
    assert_true(fabs(cpu(o, "cpu_s_per_1000_ios", "dom0_busy") - 2.5) < 1e-9);
    /* MemTotal - MemAvailable, Cached, Dirty at the release and the end */
    a = json_object_get_array_member(o, "dom0_memory_bytes");
    assert_int_equal(json_array_get_int_element(a, 0), 2000);
    assert_int_equal(json_array_get_int_element(a, 1), 3000);
    a = json_object_get_array_member(o, "dom0_cached_bytes");
    assert_int_equal(json_array_get_int_element(a, 1), 3000);
    a = json_object_get_array_member(o, "dom0_dirty_bytes");
    assert_int_equal(json_array_get_int_element(a, 0), 10);
    json_object_unref(o);
}

/* blkback per VBD summed; a VBD whose ring threads were not found makes
 * the role unknown, never a partial sum; the loop devices' work shared */
static void
test_blkback_missing_loop(void **state)
{
    const vdc_level_server_cpu srv[] = { { "blkback", 0, 1, 0.5, 0 }, { "blkback", 1, 1, 0.7, 0 } };
    vdc_level_window w = window();
    JsonObject *o, *c;

    w.loop_reason = "shared kworkers";
    o = vdc_level_host_json(srv, G_N_ELEMENTS(srv), &w);
    assert_null(vdc_host_check(o));
    assert_true(fabs(cpu(o, "cpu_s", "blkback") - 1.2) < 1e-9);
    assert_true(fabs(cpu(o, "cpu_s", "dom0_other") - (11.0 - 1.2)) < 1e-9);
    c = json_object_get_object_member(o, "cpu_s");
    assert_true(json_object_get_null_member(c, "loop"));
    assert_string_equal(attribution_of(o, "loop"), "shared");
    json_object_unref(o);

    w.missing = "guest 2: no blkback ring thread of xvdb was found at the release";
    o = vdc_level_host_json(srv, G_N_ELEMENTS(srv), &w);
    c = json_object_get_object_member(o, "cpu_s");
    assert_true(json_object_get_null_member(c, "blkback"));
    assert_string_equal(attribution_of(o, "blkback"), "ended");
    /* dom0 other would hold the missing share: not given */
    assert_true(json_object_get_null_member(c, "dom0_other"));
    assert_false(json_object_has_member(json_object_get_object_member(o, "cpu_s_per_gib"), "blkback"));
    json_object_unref(o);

    /* no server of the role at all */
    o = vdc_level_host_json(NULL, 0, &w);
    assert_true(json_object_get_null_member(json_object_get_object_member(o, "cpu_s"), "blkback"));
    json_object_unref(o);
}

/* a server not read again while it lived: its role unknown; servers
 * beyond dom0's busy time: dom0_other inconsistent, not negative */
static void
test_uncounted_inconsistent(void **state)
{
    const vdc_level_server_cpu srv[] = { { "qemu", 0, 1, 1.0, 0 }, { "qemu", 1, 0, 0, 0 } };
    const vdc_level_server_cpu big[] = { { "qemu", 0, 1, 20.0, 0 } };
    vdc_level_window w = window();
    JsonObject *o = vdc_level_host_json(srv, G_N_ELEMENTS(srv), &w);

    assert_true(json_object_get_null_member(json_object_get_object_member(o, "cpu_s"), "qemu"));
    assert_true(json_object_get_null_member(json_object_get_object_member(o, "cpu_s"), "dom0_other"));
    json_object_unref(o);
    o = vdc_level_host_json(big, 1, &w);
    assert_true(json_object_get_null_member(json_object_get_object_member(o, "cpu_s"), "dom0_other"));
    assert_string_equal(attribution_of(o, "dom0_other"), "inconsistent");
    assert_null(vdc_host_check(o));
    json_object_unref(o);
}

/* unknown counters: no bytes, no per-unit figures; no memory read */
static void
test_unknown_io(void **state)
{
    const vdc_level_server_cpu srv[] = { { "qemu", 0, 1, 1.0, 0 } };
    vdc_level_window w = window();
    JsonObject *o;

    w.bytes = w.ios = NAN;
    w.have_mem = 0;
    o = vdc_level_host_json(srv, 1, &w);
    assert_false(json_object_has_member(o, "bytes"));
    assert_false(json_object_has_member(o, "source"));
    assert_int_equal(json_object_get_size(json_object_get_object_member(o, "cpu_s_per_gib")), 0);
    assert_false(json_object_has_member(o, "dom0_cached_bytes"));
    json_object_unref(o);
}

/* the model's bounds on a level's host object */
static void
test_bounds(void **state)
{
    static const char *const bad[] = {
        "{\"guests\": 0}",
        "{\"guests\": 2000}",
        "{\"guests\": 1.5}",
        "{\"dom0_memory_bytes\": [1, -1]}",
        "{\"dom0_memory_bytes\": [1, 1e30]}",
        "{\"interval_s\": 10, \"cpu_s\": {\"qemu\": 1e6}}",
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(bad); i++) {
        JsonParser *p = json_parser_new();
        char *why;

        assert_true(json_parser_load_from_data(p, bad[i], -1, NULL));
        why = vdc_host_check(json_node_get_object(json_parser_get_root(p)));
        assert_non_null(why);
        g_free(why);
        g_object_unref(p);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sums),
        cmocka_unit_test(test_blkback_missing_loop),
        cmocka_unit_test(test_uncounted_inconsistent),
        cmocka_unit_test(test_unknown_io),
        cmocka_unit_test(test_bounds),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
