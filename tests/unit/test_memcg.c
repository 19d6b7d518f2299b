/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The memory cgroup parsers (src/host/memcg.c): where our memory controller
 * is, from /proc/self/cgroup and /proc/self/mountinfo texts as a cgroup v1
 * host (this machine kind's), a systemd cgroup v2 dom0 (the lab's Debian
 * 12) and a container whose mount's root is its own cgroup show them; the
 * controller lists and the limit files' values. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include <glib.h>

#include "host/memcg.h"

/* this machine kind: memory on a v1 hierarchy, a unified one beside it */
static const char v1_cgroup[] =
    "9:name=systemd:/\n8:pids:/\n4:memory:/process_api/4174a6\n1:cpu:/\n0::/\n";
static const char v1_mountinfo[] =
    "31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
    "35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
    "41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
/* Debian 12 with systemd: the unified hierarchy only */
static const char v2_cgroup[] = "0::/system.slice/vdc-lab-job.service\n";
static const char v2_mountinfo[] =
    "22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
    "26 21 0:23 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 "
    "rw,nsdelegate,memory_recursiveprot\n";

static void
test_where_v1(void **state)
{
    vdc_memcg_where w;

    (void)state;
    vdc_memcg_where_init(&w);
    assert_int_equal(vdc_memcg_where_parse(v1_cgroup, v1_mountinfo, &w), 0);
    assert_int_equal(w.version, 1);
    assert_string_equal(w.mount, "/sys/fs/cgroup/memory");
    assert_string_equal(w.self, "/process_api/4174a6");
    vdc_memcg_where_dispose(&w);
    vdc_memcg_where_dispose(&w);
}

static void
test_where_v2(void **state)
{
    vdc_memcg_where w;

    (void)state;
    vdc_memcg_where_init(&w);
    assert_int_equal(vdc_memcg_where_parse(v2_cgroup, v2_mountinfo, &w), 0);
    assert_int_equal(w.version, 2);
    assert_string_equal(w.mount, "/sys/fs/cgroup");
    assert_string_equal(w.self, "/system.slice/vdc-lab-job.service");
    vdc_memcg_where_dispose(&w);
}

/* a container: its cgroup namespace's root is the mount's root; a v1
 * memory line with no mounted hierarchy falls back to v2 */
static void
test_where_container(void **state)
{
    vdc_memcg_where w;
    static const char mi[] =
        "50 40 0:40 /kubepods/pod1 /sys/fs/cgroup ro,nosuid - cgroup2 cgroup2 rw\n";

    (void)state;
    vdc_memcg_where_init(&w);
    assert_int_equal(vdc_memcg_where_parse("0::/kubepods/pod1/c2\n", mi, &w), 0);
    assert_string_equal(w.self, "/c2");
    assert_int_equal(vdc_memcg_where_parse("0::/kubepods/pod1\n", mi, &w), 0);
    assert_string_equal(w.self, "/");
    assert_int_equal(vdc_memcg_where_parse("4:memory:/a\n0::/b\n", v2_mountinfo, &w), 0);
    assert_int_equal(w.version, 2);
    assert_string_equal(w.self, "/b");
    vdc_memcg_where_dispose(&w);
}

static void
test_where_none(void **state)
{
    vdc_memcg_where w;

    (void)state;
    vdc_memcg_where_init(&w);
    /* no memory line, no cgroup2 mount: refused */
    assert_int_equal(vdc_memcg_where_parse("1:cpu:/\n", v1_mountinfo, &w), -1);
    assert_int_equal(vdc_memcg_where_parse(v2_cgroup, "22 1 254:0 / / rw - ext4 /dev/vda rw\n", &w), -1);
    assert_int_equal(vdc_memcg_where_parse("", "", &w), -1);
    assert_int_equal(w.version, 0);
    vdc_memcg_where_dispose(&w);
}

static void
test_list_and_values(void **state)
{
    uint64_t v = 0;

    (void)state;
    assert_true(vdc_memcg_list_has("cpuset cpu io memory pids\n", "memory"));
    assert_false(vdc_memcg_list_has("cpuset cpu io pids\n", "memory"));
    assert_false(vdc_memcg_list_has("memoryx\n", "memory"));
    assert_true(vdc_memcg_list_has("rw,memory", "memory"));
    assert_false(vdc_memcg_list_has(NULL, "memory"));
    assert_int_equal(vdc_memcg_value_parse("33554432\n", "memory.max", &v), 0);
    assert_true(v == 33554432u);
    assert_int_equal(vdc_memcg_value_parse("max\n", "memory.max", &v), 0);
    assert_true(v == UINT64_MAX);
    assert_int_equal(vdc_memcg_value_parse("", "memory.max", &v), -1);
    assert_int_equal(vdc_memcg_value_parse("-1\n", "memory.max", &v), -1);
    assert_int_equal(vdc_memcg_value_parse("12 kB\n", "memory.max", &v), -1);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_where_v1),
        cmocka_unit_test(test_where_v2),
        cmocka_unit_test(test_where_container),
        cmocka_unit_test(test_where_none),
        cmocka_unit_test(test_list_and_values),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
