/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host cost per test (src/run/hostwatch.c): the per-GiB and per-1,000-I/O
 * arithmetic, and the slicing of two snapshot sets into one samples[].host
 * object (roles summed per target, QEMU minus its vCPU threads, a shared
 * loop worker said so and never summed, an ended server unknown, dom0
 * other, the domU's own CPU, the cache and disk figures). */
#include "config.h"
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "model/result.h"
#include "collect/hostwatch.h"

#define GIB 1073741824.0

static void
assert_near(double got, double want)
{
    if (!(fabs(got - want) <= 1e-9 * (fabs(want) > 1 ? fabs(want) : 1)))
        fail_msg("got %.12g, expected %.12g", got, want);
}

static void
test_per_unit(void **state)
{
    JsonObject *cpu = json_object_new(), *gib = json_object_new(), *kio = json_object_new();

    json_object_set_double_member(cpu, "qemu", 1.5);
    json_object_set_null_member(cpu, "blkback");            /* unknown: no figure */
    json_object_set_double_member(cpu, "dom0_busy", 6.0);
    vdc_host_per_unit(cpu, 3 * GIB, 1500, gib, kio);
    assert_near(json_object_get_double_member(gib, "qemu"), 0.5);
    assert_near(json_object_get_double_member(gib, "dom0_busy"), 2.0);
    assert_near(json_object_get_double_member(kio, "qemu"), 1.0);
    assert_near(json_object_get_double_member(kio, "dom0_busy"), 4.0);
    assert_false(json_object_has_member(gib, "blkback"));
    assert_int_equal(json_object_get_size(gib), 2);
    json_object_unref(gib);
    json_object_unref(kio);

    /* nothing moved, or not known: no ratio at all (never a division by 0) */
    gib = json_object_new();
    kio = json_object_new();
    vdc_host_per_unit(cpu, 0, NAN, gib, kio);
    assert_int_equal(json_object_get_size(gib), 0);
    assert_int_equal(json_object_get_size(kio), 0);
    json_object_unref(gib);
    json_object_unref(kio);
    json_object_unref(cpu);
}

/* a snapshot: dom0 busy/idle ticks, per-server (utime, stime) ticks; a
 * server with utime UINT64_MAX is gone */
static void
make_snap(vdc_host_snap *s, double t, uint64_t busy, uint64_t idle, const uint64_t (*srv)[2],
          size_t n, double domu, int64_t rd, int64_t wr, int64_t rq, uint64_t dirty,
          int64_t resident, int64_t disk_wr)
{
    size_t i;

    memset(s, 0, sizeof(*s));
    s->cpu.t_s = t;
    s->cpu.stat.total.cpu = -1;
    s->cpu.stat.total.t[VDC_CPU_USER] = busy;
    s->cpu.stat.total.t[VDC_CPU_IDLE] = idle;
    s->cpu.srv = g_new0(vdc_server_sample, n);
    s->cpu.n_srv = n;
    for (i = 0; i < n; i++) {
        if (srv[i][0] == UINT64_MAX) {
            s->cpu.srv[i].state = VDC_SRV_GONE;
            continue;
        }
        s->cpu.srv[i].state = VDC_SRV_OK;
        s->cpu.srv[i].utime = srv[i][0];
        s->cpu.srv[i].stime = srv[i][1];
    }
    s->domu_cpu_s = domu;
    s->have_mem = 1;
    s->mem.dirty = dirty;
    s->mem.cached = 1000 * 4096;
    s->io = g_new0(vdc_hv_disk_io, 2);
    s->io[0] = (vdc_hv_disk_io){ rq, 0, rd, wr };
    s->io[1] = (vdc_hv_disk_io){ -1, -1, -1, -1 };
    s->resident = g_new0(int64_t, 2);
    s->resident[0] = resident;
    s->resident[1] = -1;
    s->disk_rd = g_new0(int64_t, 2);
    s->disk_wr = g_new0(int64_t, 2);
    s->disk_rd[0] = 0;
    s->disk_wr[0] = disk_wr;
    s->disk_rd[1] = s->disk_wr[1] = -1;
}

static void
snap_free(vdc_host_snap *s)
{
    vdc_cpu_snapshot_dispose(&s->cpu);
    g_free(s->io);
    g_free(s->resident);
    g_free(s->disk_rd);
    g_free(s->disk_wr);
}

static double
member(JsonObject *o, const char *group, const char *role)
{
    JsonObject *g = json_object_get_object_member(o, group);

    assert_non_null(g);
    if (!json_object_has_member(g, role))
        fail_msg("%s has no %s", group, role);
    return json_object_get_double_member(g, role);
}

static const char *
attribution(JsonObject *o, const char *role)
{
    JsonObject *a = json_object_get_object_member(o, "cpu_attribution");

    assert_true(json_object_has_member(a, role));
    return json_object_get_string_member(json_object_get_object_member(a, role), "attribution");
}

static void
test_slice(void **state)
{
    GPtrArray *servers = vdc_server_set_new();
    /* QEMU (all targets), its vCPU thread, target 0's and target 1's blkback
     * ring threads, a shared kworker that ran target 0's loop device */
    vdc_host_owner owners[] = { { -1 }, { -1 }, { 0 }, { 1 }, { 0 } };
    static const uint64_t a_srv[5][2] = { { 1000, 500 }, { 900, 100 }, { 0, 10 }, { 0, 0 }, { 0, 0 } };
    static const uint64_t b_srv[5][2] = { { 1400, 700 }, { 1150, 150 }, { 0, 60 }, { 0, 30 }, { 0, 999 } };
    vdc_host_snap a, b;
    vdc_host_event begin = { .ev = { 5, 1000000000ull, 0, VDC_CTL_EV_TEST_BEGIN, 1 }, .snap = 0 };
    vdc_host_event end = { .ev = { 6, 3500000000ull, 0, VDC_CTL_EV_TEST_END, 1 }, .snap = 1 };
    JsonObject *o;
    JsonArray *arr;

    g_ptr_array_add(servers, vdc_server_new("qemu", "qemu-system-x86", 100, 0, 7, VDC_ATTR_EXACT, NULL));
    g_ptr_array_add(servers, vdc_server_new("qemu-vcpu", "CPU 0/TCG", 100, 101, 8, VDC_ATTR_EXACT, NULL));
    g_ptr_array_add(servers, vdc_server_new("blkback", "5.xvdb-0", 200, 0, 9, VDC_ATTR_EXACT, NULL));
    g_ptr_array_add(servers, vdc_server_new("blkback", "5.xvdc-0", 201, 0, 9, VDC_ATTR_EXACT, NULL));
    g_ptr_array_add(servers, vdc_server_new("loop-worker", "kworker/u4:2+loop0", 300, 0, 9,
                                            VDC_ATTR_SHARED, "shared kworkers"));
    /* 2.5 s; dom0 busy 1000 ticks; 2 GiB and 2,000 requests moved */
    make_snap(&a, 10.0, 5000, 100, a_srv, 5, 40.0, 0, 0, 0, 4096, 0, 0);
    make_snap(&b, 12.5, 6000, 200, b_srv, 5, 42.25, (int64_t)GIB, (int64_t)GIB, 2000,
              512 * 4096, 8192, 4096);
    o = vdc_host_slice(servers, owners, 0, &a, &b, &begin, &end, "loop0 runs on shared kworkers",
                       "virDomainBlockStats", 0.1, 100);
    assert_non_null(o);
    assert_near(json_object_get_double_member(o, "interval_s"), 2.5);
    arr = json_object_get_array_member(o, "monotonic_s");
    assert_near(json_array_get_double_element(arr, 0), 10.0);
    assert_near(json_array_get_double_element(arr, 1), 12.5);
    assert_near(json_object_get_double_member(o, "guest_elapsed_s"), 2.5);
    assert_true(json_object_get_boolean_member(o, "sliced"));
    /* QEMU 6 s, of which the vCPU thread 3 s; target 0's ring thread 0.5 s;
     * target 1's thread and the shared kworker are not target 0's */
    assert_near(member(o, "cpu_s", "qemu"), 6.0);
    assert_near(member(o, "cpu_s", "qemu_vcpu"), 3.0);
    assert_near(member(o, "cpu_s", "qemu_io"), 3.0);
    assert_near(member(o, "cpu_s", "blkback"), 0.5);
    assert_false(json_object_has_member(json_object_get_object_member(o, "cpu_s"), "loop_worker"));
    assert_string_equal(attribution(o, "loop_worker"), "shared");
    assert_string_equal(attribution(o, "qemu"), "exact");
    assert_near(member(o, "cpu_s", "dom0_busy"), 10.0);
    /* dom0 busy minus the exact servers: QEMU 6 (its thread counted in it),
     * both blkback threads 0.5 + 0.3 */
    assert_near(member(o, "cpu_s", "dom0_other"), 10.0 - 6.0 - 0.8);
    assert_near(member(o, "cpu_s", "domu"), 2.25);
    assert_int_equal(json_object_get_int_member(o, "bytes"), 2 * (gint64)GIB);
    assert_int_equal(json_object_get_int_member(o, "ios"), 2000);
    assert_string_equal(json_object_get_string_member(o, "source"), "virDomainBlockStats");
    assert_near(member(o, "cpu_s_per_gib", "qemu"), 3.0);
    assert_near(member(o, "cpu_s_per_gib", "blkback"), 0.25);
    assert_near(member(o, "cpu_s_per_1000_ios", "qemu"), 3.0);
    arr = json_object_get_array_member(o, "dom0_dirty_bytes");
    assert_int_equal(json_array_get_int_element(arr, 0), 4096);
    assert_int_equal(json_array_get_int_element(arr, 1), 512 * 4096);
    arr = json_object_get_array_member(o, "image_resident_bytes");
    assert_int_equal(json_array_get_int_element(arr, 1), 8192);
    assert_int_equal(json_object_get_int_member(o, "disk_write_bytes"), 4096);
    assert_int_equal(json_object_get_int_member(o, "disk_read_bytes"), 0);
    json_object_unref(o);

    /* target 1: no image figures, no I/O counters: none given */
    o = vdc_host_slice(servers, owners, 1, &a, &b, &begin, &end, NULL, NULL, 0.1, 100);
    assert_near(member(o, "cpu_s", "blkback"), 0.3);
    assert_false(json_object_has_member(o, "bytes"));
    assert_false(json_object_has_member(o, "image_resident_bytes"));
    assert_int_equal(json_object_get_size(json_object_get_object_member(o, "cpu_s_per_gib")), 0);
    json_object_unref(o);
    snap_free(&b);

    /* target 0's ring thread exits inside the interval: unknown, not zero;
     * dom0 other then holds its unknown share: not given */
    {
        static const uint64_t gone[5][2] = { { 1400, 700 }, { 1150, 150 }, { UINT64_MAX, 0 },
                                            { 0, 30 }, { 0, 999 } };

        make_snap(&b, 12.5, 6000, 200, gone, 5, NAN, 0, 0, 0, 0, 0, 0);
        end.gap_before = 1;
        o = vdc_host_slice(servers, owners, 0, &a, &b, &begin, &end, NULL, NULL, 0.1, 100);
        assert_true(json_object_get_null_member(json_object_get_object_member(o, "cpu_s"), "blkback"));
        assert_string_equal(attribution(o, "blkback"), "ended");
        assert_true(json_object_get_null_member(json_object_get_object_member(o, "cpu_s"),
                                                "dom0_other"));
        assert_false(json_object_has_member(json_object_get_object_member(o, "cpu_s"), "domu"));
        assert_false(json_object_get_boolean_member(o, "sliced"));   /* events were lost */
        json_object_unref(o);
        snap_free(&b);
    }
    snap_free(&a);

    /* target 1's ring thread found after the begin's snapshot (blkback
     * starts it when the frontend connects): the begin has 3 servers, the
     * end 4; its figure is unknown for this interval, never zero, and the
     * other servers' stand */
    {
        vdc_host_owner late_owners[] = { { -1 }, { -1 }, { 0 }, { 1, "test putc of target t1 began" } };

        end.gap_before = 0;
        make_snap(&a, 10.0, 5000, 100, a_srv, 3, NAN, 0, 0, 0, 0, 0, 0);
        make_snap(&b, 12.5, 6000, 200, b_srv, 4, NAN, 0, 0, 0, 0, 0, 0);
        g_ptr_array_set_size(servers, 4);
        o = vdc_host_slice(servers, late_owners, 1, &a, &b, &begin, &end, NULL, NULL, 0.1, 100);
        assert_non_null(o);
        assert_true(json_object_get_null_member(json_object_get_object_member(o, "cpu_s"), "blkback"));
        assert_string_equal(attribution(o, "blkback"), "ended");
        assert_non_null(strstr(json_object_get_string_member(json_object_get_object_member(
            json_object_get_object_member(o, "cpu_attribution"), "blkback"), "reason"),
            "found when the interval began"));
        assert_near(member(o, "cpu_s", "qemu"), 6.0);
        json_object_unref(o);
        o = vdc_host_slice(servers, late_owners, 0, &a, &b, &begin, &end, NULL, NULL, 0.1, 100);
        assert_near(member(o, "cpu_s", "blkback"), 0.5);
        json_object_unref(o);
        snap_free(&a);
        snap_free(&b);
    }
    g_ptr_array_unref(servers);
}

/* dom0 other and QEMU minus its vCPUs are differences: never below 0.
 * busy + steal minus the servers (a stolen tick is steal in /proc/stat but
 * run time in the thread's own clock); within the ticks' rounding 0;
 * further below null, "inconsistent", the numbers in the reason */
static void
test_slice_differences(void **state)
{
    GPtrArray *servers = vdc_server_set_new();
    vdc_host_owner owners[] = { { -1, NULL }, { -1, NULL }, { 0, NULL } };
    /* QEMU 0.8 s of which its vCPU thread 0.83 s (read after the process:
     * 3 ticks ahead); blkback 12.23 s */
    static const uint64_t a_srv[3][2] = { { 0, 0 }, { 0, 0 }, { 0, 0 } };
    static const uint64_t b_srv[3][2] = { { 50, 30 }, { 53, 30 }, { 0, 1223 } };
    vdc_host_snap a, b;
    vdc_host_event begin = { .ev = { 5, 0, 0, VDC_CTL_EV_TEST_BEGIN, 1 }, .snap = 0 };
    vdc_host_event end = { .ev = { 6, 37000000000ull, 0, VDC_CTL_EV_TEST_END, 1 }, .snap = 1 };
    JsonObject *o, *at;

    (void)state;
    g_ptr_array_add(servers, vdc_server_new("qemu", "qemu-system-x86", 100, 0, 7, VDC_ATTR_EXACT, NULL));
    g_ptr_array_add(servers, vdc_server_new("qemu-vcpu", "CPU 0/TCG", 100, 101, 8, VDC_ATTR_EXACT, NULL));
    g_ptr_array_add(servers, vdc_server_new("blkback", "5.xvdb-0", 200, 0, 9, VDC_ATTR_EXACT, NULL));
    /* busy 1207 ticks, steal 300: busy alone is below QEMU + blkback */
    make_snap(&a, 0.0, 0, 0, a_srv, 3, NAN, 0, 0, 0, 0, 0, 0);
    make_snap(&b, 37.0, 1207, 2000, b_srv, 3, NAN, 0, 0, 0, 0, 0, 0);
    b.cpu.stat.total.t[VDC_CPU_STEAL] = 300;
    o = vdc_host_slice(servers, owners, 0, &a, &b, &begin, &end, NULL, NULL, 0.1, 100);
    assert_non_null(o);
    assert_near(member(o, "cpu_s", "dom0_busy"), 12.07);
    assert_near(member(o, "cpu_s", "dom0_steal"), 3.0);
    assert_near(member(o, "cpu_s", "dom0_other"), 12.07 + 3.0 - 0.8 - 12.23);
    assert_string_equal(attribution(o, "dom0_other"), "exact");
    /* -0.03 s is within QEMU's two readings' 4 ticks: 0 */
    assert_near(member(o, "cpu_s", "qemu_io"), 0.0);
    assert_string_equal(attribution(o, "qemu_io"), "exact");
    at = json_object_get_object_member(json_object_get_object_member(o, "cpu_attribution"), "qemu_io");
    assert_non_null(strstr(json_object_get_string_member(at, "reason"), "-0.030 s, within the counters' "
                                                                       "resolution (0.040 s): 0"));
    json_object_unref(o);

    /* no steal recorded: busy + steal is 0.96 s below the servers, more
     * than the 0.10 s the ticks can explain (6 + 2 x 2 servers) */
    b.cpu.stat.total.t[VDC_CPU_STEAL] = 0;
    o = vdc_host_slice(servers, owners, 0, &a, &b, &begin, &end, NULL, NULL, 0.1, 100);
    assert_true(json_object_get_null_member(json_object_get_object_member(o, "cpu_s"), "dom0_other"));
    assert_string_equal(attribution(o, "dom0_other"), "inconsistent");
    at = json_object_get_object_member(json_object_get_object_member(o, "cpu_attribution"), "dom0_other");
    assert_non_null(strstr(json_object_get_string_member(at, "reason"),
                           "dom0 busy + steal minus the exact servers: -0.960 s, below 0 by more than "
                           "the counters' resolution (0.100 s)"));
    /* the loader takes the new attribution */
    {
        g_autofree char *why = vdc_host_check(o);

        assert_null(why);
    }
    json_object_unref(o);
    snap_free(&a);
    snap_free(&b);
    g_ptr_array_unref(servers);
}

/* who a server serves: -1 every target, N one, any other negative none */
static void
test_serves(void **state)
{
    const vdc_host_owner all = { -1, NULL }, one = { 2, NULL }, none = { -2, NULL };

    assert_true(vdc_host_serves(&all, 0));
    assert_true(vdc_host_serves(&all, 5));
    assert_true(vdc_host_serves(&one, 2));
    assert_false(vdc_host_serves(&one, 1));
    assert_false(vdc_host_serves(&none, 0));
}

/* qdisk: no backend counters, the agent's test size stands in */
static void
test_bytes_from_agent(void **state)
{
    JsonObject *h = json_object_new(), *cpu = json_object_new();

    json_object_set_double_member(cpu, "qemu", 2.0);
    json_object_set_null_member(cpu, "blkback");
    json_object_set_object_member(h, "cpu_s", cpu);
    json_object_set_object_member(h, "cpu_s_per_gib", json_object_new());
    vdc_host_bytes_from_agent(h, NAN);           /* not known: nothing */
    assert_false(json_object_has_member(h, "bytes"));
    vdc_host_bytes_from_agent(h, 0);
    assert_false(json_object_has_member(h, "bytes"));
    vdc_host_bytes_from_agent(h, 512.0 * 1048576);
    assert_int_equal(json_object_get_int_member(h, "bytes"), 512 * 1048576);
    assert_string_equal(json_object_get_string_member(h, "source"), VDC_HOST_AGENT_BYTES);
    assert_near(member(h, "cpu_s_per_gib", "qemu"), 4.0);
    assert_false(json_object_has_member(json_object_get_object_member(h, "cpu_s_per_gib"),
                                        "blkback"));
    /* the backend's own counters win */
    vdc_host_bytes_from_agent(h, 1073741824.0);
    assert_int_equal(json_object_get_int_member(h, "bytes"), 512 * 1048576);
    assert_near(member(h, "cpu_s_per_gib", "qemu"), 4.0);
    json_object_unref(h);
}

static void
test_test_names(void **state)
{
    assert_string_equal(vdc_host_test_name(0), "putc");
    assert_string_equal(vdc_host_test_name(1), "put_block");
    assert_string_equal(vdc_host_test_name(4), "get_block");
    assert_null(vdc_host_test_name(12));
    assert_null(vdc_host_test_name(255));
}

/* the last event named in the heartbeat watchdog's message */
static void
test_event_text(void **state)
{
    struct vdc_ctl_event e = { .seq = 5, .guest_ns = 1, .target = 1,
                               .kind = VDC_CTL_EV_TEST_BEGIN, .test = 2 };
    char *t;

    t = vdc_host_event_text(&e, "img");
    assert_string_equal(t, "test rewrite of target img began");
    g_free(t);
    e.kind = VDC_CTL_EV_TEST_END;
    t = vdc_host_event_text(&e, NULL);
    assert_string_equal(t, "test rewrite of target #1 ended");
    g_free(t);
    e.test = 200;       /* the guest's to write: out of range */
    e.kind = VDC_CTL_EV_TEST_BEGIN;
    t = vdc_host_event_text(&e, "img");
    assert_string_equal(t, "test #200 of target img began");
    g_free(t);
    e.kind = VDC_CTL_EV_TARGET_BEGIN;
    t = vdc_host_event_text(&e, "img");
    assert_string_equal(t, "target img began");
    g_free(t);
    e.kind = VDC_CTL_EV_TARGET_END;
    t = vdc_host_event_text(&e, "img");
    assert_string_equal(t, "target img ended");
    g_free(t);
    t = vdc_host_event_text(NULL, "img");
    assert_string_equal(t, "none");
    g_free(t);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_per_unit),
        cmocka_unit_test(test_slice),
        cmocka_unit_test(test_slice_differences),
        cmocka_unit_test(test_bytes_from_agent),
        cmocka_unit_test(test_serves),
        cmocka_unit_test(test_test_names),
        cmocka_unit_test(test_event_text),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
