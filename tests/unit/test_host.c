/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host samplers (src/host/): the pure parsers over copies of dom0's /proc
 * and /sys files and xenstore/libvirt/lvm2 texts (tests/golden/host/,
 * VDC_GOLDEN_DIR; README there says where each came from), malformed input
 * included: each must fail with one line naming the file and the field. */
#include "config.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "common/util.h"
#include "host/blockstat.h"
#include "host/livexml.h"
#include "host/loopdev.h"
#include "host/mounts.h"
#include "host/placement.h"
#include "host/procfs.h"
#include "host/qemuprobe.h"
#include "host/residency.h"
#include "host/xsbackend.h"
#include "test_host.h"

static char *
golden(const char *name)
{
    g_autofree char *path = g_build_filename(VDC_GOLDEN_DIR, name, NULL);
    char *text = NULL;

    if (!g_file_get_contents(path, &text, NULL, NULL))
        fail_msg("cannot read fixture %s", path);
    return text;
}

/* ---- /proc/meminfo ------------------------------------------------------------------ */

static void
test_meminfo(void **state)
{
    g_autofree char *text = golden("meminfo.txt");
    g_autofree char *nodirty = golden("meminfo-no-dirty.txt");
    g_autofree char *badunit = golden("meminfo-bad-unit.txt");
    vdc_meminfo m;

    (void)state;
    assert_int_equal(vdc_meminfo_parse(text, "meminfo.txt", &m), 0);
    assert_true(m.mem_total == 24683584ull * 1024);
    assert_true(m.cached == 3914488ull * 1024);
    assert_true(m.dirty == 91688ull * 1024);
    assert_true(m.writeback == 0);
    /* WritebackTmp, SwapCached, ... are other fields, not these */
    assert_int_equal(vdc_meminfo_parse("MemTotal: 4 kB\nCached: 1 kB\nSwapCached: 9 kB\n"
                                       "Dirty: 2 kB\nWriteback: 3 kB\nWritebackTmp: 8 kB\n",
                                       "t", &m), 0);
    assert_true(m.cached == 1024 && m.writeback == 3072);

    EXPECT_ERROR(vdc_meminfo_parse(nodirty, "meminfo-no-dirty.txt", &m) < 0,
                 "meminfo-no-dirty.txt: no Dirty line");
    EXPECT_ERROR(vdc_meminfo_parse(badunit, "meminfo-bad-unit.txt", &m) < 0,
                 "line 20: Writeback: expected a number of kB, got '0 MB'");
    EXPECT_ERROR(vdc_meminfo_parse("MemTotal: 1 kB\nMemTotal: 2 kB\n", "m", &m) < 0,
                 "m: line 2: MemTotal given twice: expected each field once");
    EXPECT_ERROR(vdc_meminfo_parse("MemTotal: -1 kB\n", "m", &m) < 0, "MemTotal: expected");
    EXPECT_ERROR(vdc_meminfo_parse("Dirty: 99999999999999999999 kB\n", "m", &m) < 0,
                 "Dirty: expected a number of kB");
    EXPECT_ERROR(vdc_meminfo_parse("Dirty: 18014398509481984 kB\n", "m", &m) < 0,
                 "Dirty: expected a number of kB");   /* 2^54 KiB: over 2^64 bytes */
    EXPECT_ERROR(vdc_meminfo_parse("", "m", &m) < 0, "m: no MemTotal line");
    EXPECT_ERROR(vdc_meminfo_parse(NULL, "m", &m) < 0, "m: no MemTotal line");
}

/* ---- /proc/stat ------------------------------------------------------------------------- */

static void
test_proc_stat(void **state)
{
    g_autofree char *text = golden("stat.txt");
    vdc_proc_stat st = { 0 };

    (void)state;
    assert_int_equal(vdc_proc_stat_parse(text, "stat.txt", &st), 0);
    /* cpu  240457 476 71007 33523 2934 0 1036 5032 0 0 */
    assert_int_equal(st.total.cpu, -1);
    assert_true(st.total.t[VDC_CPU_USER] == 240457 && st.total.t[VDC_CPU_NICE] == 476 &&
                st.total.t[VDC_CPU_SYSTEM] == 71007 && st.total.t[VDC_CPU_IDLE] == 33523 &&
                st.total.t[VDC_CPU_IOWAIT] == 2934 && st.total.t[VDC_CPU_IRQ] == 0 &&
                st.total.t[VDC_CPU_SOFTIRQ] == 1036 && st.total.t[VDC_CPU_STEAL] == 5032);
    assert_true(vdc_cpu_times_busy(&st.total) == 240457 + 476 + 71007 + 0 + 1036);
    assert_true(vdc_cpu_times_all(&st.total) == 240457 + 476 + 71007 + 33523 + 2934 + 1036 + 5032);
    assert_int_equal(st.n_cpus, 2);
    assert_int_equal(st.cpus[0].cpu, 0);
    assert_int_equal(st.cpus[1].cpu, 1);
    assert_true(st.cpus[1].t[VDC_CPU_USER] == 121109 && st.cpus[1].t[VDC_CPU_STEAL] == 2589);
    vdc_proc_stat_dispose(&st);
    vdc_proc_stat_dispose(&st);

    EXPECT_ERROR(vdc_proc_stat_parse("cpu  1 2 3 4\nintr 5\n", "s", &st) < 0,
                 "s: line 1: column 5: expected a number of clock ticks");
    EXPECT_ERROR(vdc_proc_stat_parse("cpu0 1 2 3 4 5 6 7 8\n", "s", &st) < 0,
                 "s: line 1: cpu0 before the 'cpu' total line");
    EXPECT_ERROR(vdc_proc_stat_parse("intr 1\nctxt 2\n", "s", &st) < 0, "s: no 'cpu' line");
    EXPECT_ERROR(vdc_proc_stat_parse("cpuX 1 2 3 4 5 6 7 8\n", "s", &st) < 0,
                 "s: line 1: expected 'cpu' or 'cpuN'");
    EXPECT_ERROR(vdc_proc_stat_parse("cpu 1 2 3 4 5 6 7 8\ncpu 1 2 3 4 5 6 7 8\n", "s", &st) < 0,
                 "line 2: expected one 'cpu' total line");
    EXPECT_ERROR(vdc_proc_stat_parse("cpu 1 2 3 x 5 6 7 8\n", "s", &st) < 0, "column 4");
    vdc_proc_stat_dispose(&st);
}

/* ---- /proc/PID/stat ------------------------------------------------------------------------ */

static void
test_task_stat(void **state)
{
    vdc_task_stat t;
    static const char dd[] =
        "19989 (dd) R 19985 19985 9778 0 -1 4194304 120 0 0 0 37 412 0 0 20 0 1 0 177605 "
        "3133440 362 18446744073709551615 94025859702784 94025859722665 0 0 0 0 0 0 0 0 0 17 0 "
        "0 0 0 0 0\n";

    (void)state;
    assert_int_equal(vdc_task_stat_parse(dd, "dd", &t), 0);
    assert_int_equal(t.pid, 19989);
    assert_string_equal(t.comm, "dd");
    assert_int_equal(t.state, 'R');
    assert_int_equal(t.ppid, 19985);
    assert_int_equal(t.flags, 4194304);
    assert_true(t.utime == 37 && t.stime == 412 && t.starttime == 177605);
    /* a comm with spaces and parentheses: up to the last ')' */
    assert_int_equal(vdc_task_stat_parse("7 (a) b (c)) S 1 7 7 0 -1 0 0 0 0 0 5 6 0 0 20 0 1 0 "
                                         "99 0 0\n", "x", &t), 0);
    assert_string_equal(t.comm, "a) b (c)");
    assert_true(t.utime == 5 && t.stime == 6 && t.starttime == 99);
    /* negative priority and nice are fields like others */
    assert_int_equal(vdc_task_stat_parse("8 (kworker/0:1H-kblockd) I 2 0 0 0 -1 69238880 0 0 0 0 "
                                         "0 12 0 0 0 -20 1 0 30302 0 0", "x", &t), 0);
    assert_string_equal(t.comm, "kworker/0:1H-kblockd");
    assert_true((t.flags & VDC_PF_KTHREAD) && (t.flags & VDC_PF_WQ_WORKER) && t.ppid == 2);

    EXPECT_ERROR(vdc_task_stat_parse("", "p", &t) < 0, "p: expected 'PID (COMM) STATE");
    EXPECT_ERROR(vdc_task_stat_parse("12 dd R 1", "p", &t) < 0, "p: expected 'PID (COMM)");
    EXPECT_ERROR(vdc_task_stat_parse("x (dd) R 1", "p", &t) < 0, "p: expected 'PID (COMM)");
    EXPECT_ERROR(vdc_task_stat_parse("12 (dd) RR 1", "p", &t) < 0, "one-letter state");
    EXPECT_ERROR(vdc_task_stat_parse("12 (dd) R 1 2 3 4 5 6 7 8 9 10 11\n", "p", &t) < 0,
                 "p: expected at least 22 fields, the line ends at field 14");
    EXPECT_ERROR(vdc_task_stat_parse("12 (dd) R 1 2 3 4 5 6 7 8 9 10 x 12 13 14 15 16 17 18 19 "
                                     "20", "p", &t) < 0, "p: field 14: expected a number");
    EXPECT_ERROR(vdc_task_stat_parse("12 (dd) R 1 2 3 4 5 6 7 8 9 10 -5 12 13 14 15 16 17 18 19 "
                                     "20", "p", &t) < 0, "p: field 14: value out of range");
}

static void
test_task_stat_read_self(void **state)
{
    vdc_task_stat t;

    (void)state;
    assert_int_equal(vdc_task_stat_read(getpid(), 0, &t), 0);
    assert_int_equal(t.pid, getpid());
    assert_int_equal(vdc_task_stat_read(getpid(), getpid(), &t), 0);
    assert_int_equal(t.pid, getpid());
    /* a task that does not exist is "gone", with no message */
    capture_stderr_begin();
    assert_int_equal(vdc_task_stat_read(0x7ffffff0, 0, &t), 1);
    {
        char *msg = capture_stderr_end();
        assert_string_equal(msg, "");
        free(msg);
    }
}

/* ---- /proc/PID/fdinfo -------------------------------------------------------------- */

static void
test_fdinfo(void **state)
{
    unsigned f = 0;

    (void)state;
    assert_int_equal(vdc_fdinfo_flags_parse("pos:\t0\nflags:\t0140002\nmnt_id:\t29\nino:\t12\n",
                                            "fi", &f), 0);
    assert_true(f == 0140002);
    assert_true(f & O_DIRECT);
    assert_int_equal(vdc_fdinfo_flags_parse("pos:\t0\nflags:\t02\n", "fi", &f), 0);
    assert_false(f & O_DIRECT);
    EXPECT_ERROR(vdc_fdinfo_flags_parse("pos:\t0\n", "fi", &f) < 0, "fi: no 'flags:' line");
    EXPECT_ERROR(vdc_fdinfo_flags_parse("flags:\t0189\n", "fi", &f) < 0,
                 "fi: line 1: flags: expected an octal number, got '0189'");
}

static void
test_proc_file_flags_self(void **state)
{
    g_autofree char *dir = g_dir_make_tmp("vdc-host-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "f", NULL);
    g_autofree unsigned *flags = NULL;
    size_t n = 9;
    int fd;

    (void)state;
    fd = open(path, O_CREAT | O_RDWR | O_APPEND, 0600);
    assert_true(fd >= 0);
    assert_int_equal(vdc_proc_file_flags(getpid(), path, &flags, &n), 0);
    assert_int_equal(n, 1);
    assert_true(flags[0] & O_APPEND);
    close(fd);
    g_clear_pointer(&flags, g_free);
    assert_int_equal(vdc_proc_file_flags(getpid(), path, &flags, &n), 0);
    assert_int_equal(n, 0);
    g_unlink(path);
    g_rmdir(dir);
}

/* ---- /sys/block/loopN/loop ------------------------------------------------------------- */

static void
test_loop_sysfs(void **state)
{
    vdc_loop_info li = { 0 };

    (void)state;
    assert_int_equal(vdc_loop_sysfs_parse("loop0", "/var/lib/vdclab-selftest.img\n", "0\n", "0\n",
                                          &li), 0);
    assert_string_equal(li.name, "loop0");
    assert_int_equal(li.number, 0);
    assert_string_equal(li.backing_file, "/var/lib/vdclab-selftest.img");
    assert_int_equal(li.dio, 0);
    assert_int_equal(li.backing_deleted, 0);
    vdc_loop_info_dispose(&li);
    assert_int_equal(vdc_loop_sysfs_parse("/dev/loop12", "/img with space (deleted)\n", "1\n",
                                          "1048576\n", &li), 0);
    assert_string_equal(li.name, "loop12");
    assert_int_equal(li.number, 12);
    assert_string_equal(li.backing_file, "/img with space");
    assert_int_equal(li.backing_deleted, 1);
    assert_int_equal(li.dio, 1);
    assert_true(li.offset == 1048576);
    vdc_loop_info_dispose(&li);
    vdc_loop_info_dispose(&li);

    EXPECT_ERROR(vdc_loop_sysfs_parse("sda", "/x\n", "0\n", "0\n", &li) < 0,
                 "loop device 'sda': expected loopN");
    EXPECT_ERROR(vdc_loop_sysfs_parse("loop1", "x.img\n", "0\n", "0\n", &li) < 0,
                 "/sys/block/loop1/loop/backing_file: expected an absolute path");
    EXPECT_ERROR(vdc_loop_sysfs_parse("loop1", "", "0\n", "0\n", &li) < 0, "backing_file");
    EXPECT_ERROR(vdc_loop_sysfs_parse("loop1", "/a\n/b\n", "0\n", "0\n", &li) < 0,
                 "on one line");
    EXPECT_ERROR(vdc_loop_sysfs_parse("loop1", "/x\n", "2\n", "0\n", &li) < 0,
                 "/sys/block/loop1/loop/dio: expected 0 or 1, got '2");
    EXPECT_ERROR(vdc_loop_sysfs_parse("loop1", "/x\n", "on\n", "0\n", &li) < 0, "loop/dio");
    EXPECT_ERROR(vdc_loop_sysfs_parse("loop1", "/x\n", "0\n", "-4\n", &li) < 0,
                 "/sys/block/loop1/loop/offset: expected a byte count");
    EXPECT_ERROR(vdc_loop_sysfs_parse("loop1", "/x\n", "0\n", NULL, &li) < 0, "loop/offset");
}

static void
test_loop_sysfs_fixture(void **state)
{
    g_autofree char *b = golden("sys-loop/backing_file");
    g_autofree char *d = golden("sys-loop/dio");
    g_autofree char *o = golden("sys-loop/offset");
    g_autofree char *d1 = golden("sys-loop/dio-after-set");
    vdc_loop_info li;

    (void)state;
    assert_int_equal(vdc_loop_sysfs_parse("loop7", b, d, o, &li), 0);
    assert_true(g_str_has_prefix(li.backing_file, "/var/tmp/vdc-hostcpu."));
    assert_true(g_str_has_suffix(li.backing_file, "/image.raw"));
    assert_int_equal(li.dio, 0);
    assert_true(li.offset == 0);
    vdc_loop_info_dispose(&li);
    assert_int_equal(vdc_loop_sysfs_parse("loop7", b, d1, o, &li), 0);
    assert_int_equal(li.dio, 1);
    vdc_loop_info_dispose(&li);
}

/* ---- residency ------------------------------------------------------------------------ */

static void
test_residency(void **state)
{
    static const unsigned char vec[] = { 1, 0, 3, 0x81, 2, 0xfe, 1 };
    g_autofree char *dir = g_dir_make_tmp("vdc-host-XXXXXX", NULL);
    g_autofree char *path = g_build_filename(dir, "img", NULL);
    g_autofree char *buf = NULL;
    long page = sysconf(_SC_PAGESIZE);
    size_t len = (size_t)page * 10 + 100;
    vdc_residency r, r2;

    (void)state;
    /* bit 0 only: the others are reserved */
    assert_true(vdc_mincore_resident(vec, G_N_ELEMENTS(vec)) == 4);
    assert_true(vdc_mincore_resident(vec, 0) == 0);

    /* a file just written is in the page cache, every page of it, whether
     * mapped in one chunk or in chunks of three pages */
    buf = g_malloc(len);
    memset(buf, 'v', len);
    assert_true(g_file_set_contents(path, buf, (gssize)len, NULL));
    assert_int_equal(vdc_residency_read(path, &r), 0);
    assert_int_equal(vdc_residency_read_chunked(path, (size_t)page * 3, &r2), 0);
    assert_true(r.size_bytes == len && r.pages == 11 && r.page_size == page);
    assert_true(r.resident_pages == 11 && r2.resident_pages == 11 && r2.pages == 11);
    assert_true(r.resident_bytes == len);
    EXPECT_ERROR(vdc_residency_read_chunked(path, (size_t)page + 1, &r) < 0,
                 "expected a multiple of the page size");
    EXPECT_ERROR(vdc_residency_read(dir, &r) < 0, "expected a regular file or a block device");
    g_unlink(path);
    EXPECT_ERROR(vdc_residency_read(path, &r) < 0, "No such file");
    /* an empty file: nothing to map, nothing resident */
    assert_true(g_file_set_contents(path, "", 0, NULL));
    assert_int_equal(vdc_residency_read(path, &r), 0);
    assert_true(r.pages == 0 && r.resident_pages == 0);
    g_unlink(path);
    g_rmdir(dir);
}

/* ---- placement -------------------------------------------------------------------------- */

static void
test_extents_to_ranges(void **state)
{
    /* filefrag -e of a fragmented image: two touching extents, a far one, a
     * delayed-allocation one (no place yet), an unwritten (preallocated,
     * placed) one */
    const vdc_extent ext[] = {
        { 0, 4096 * 100, 4096 * 8, 0 },
        { 4096 * 8, 4096 * 108, 4096 * 4, 0 },
        { 4096 * 12, 4096 * 5000, 4096, 0x800 /* UNWRITTEN */ },
        { 4096 * 13, 0, 4096 * 2, 0x4 | 0x1 /* DELALLOC | LAST */ },
    };
    g_autoptr(GArray) r = g_array_new(FALSE, FALSE, sizeof(vdc_byte_range));
    uint64_t unmapped = 0, mapped;
    const vdc_byte_range *a;

    (void)state;
    mapped = vdc_extents_to_ranges(ext, G_N_ELEMENTS(ext), 1048576, r, &unmapped);
    assert_true(mapped == 4096 * 13);
    assert_true(unmapped == 4096 * 2);
    assert_int_equal(r->len, 2);
    a = &g_array_index(r, vdc_byte_range, 0);
    assert_true(a[0].start == 1048576 + 4096 * 100 && a[0].length == 4096 * 12);
    assert_true(a[1].start == 1048576 + 4096 * 5000ull && a[1].length == 4096);
    /* the byte-weighted middle */
    {
        g_autoptr(GArray) two = g_array_new(FALSE, FALSE, sizeof(vdc_byte_range));
        vdc_byte_range x = { 0, 100 }, y = { 1000, 300 };

        g_array_append_val(two, x);
        g_array_append_val(two, y);
        assert_true(vdc_ranges_center(two) == (50.0 * 100 + 1150.0 * 300) / 400);
        g_array_set_size(two, 0);
        assert_true(vdc_ranges_center(two) == 0);
    }
}

static void
test_lvm_reports(void **state)
{
    g_autofree char *lvs = golden("lvs-seg.json");
    g_autofree char *pvs = golden("pvs.json");
    g_autoptr(GPtrArray) pv = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GArray) first = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    g_autoptr(GArray) last = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    uint64_t ext = 0, pe_start = 0;

    (void)state;
    /* the fixture's lv1 was made 12 MiB, lv2 8 MiB after it, then lv1
     * extended to 20 MiB: two segments of lv1 around lv2's (4 MiB PEs) */
    assert_int_equal(vdc_lvs_segments_parse(lvs, "lvs-seg.json", "vdctest", "lv1", pv, first, last,
                                            &ext), 0);
    assert_true(ext == 4194304);
    assert_int_equal(pv->len, 2);
    assert_true(g_str_has_prefix(g_ptr_array_index(pv, 0), "/dev/loop"));
    assert_true(g_array_index(first, uint64_t, 0) == 0 && g_array_index(last, uint64_t, 0) == 2);
    assert_true(g_array_index(first, uint64_t, 1) == 5 && g_array_index(last, uint64_t, 1) == 6);
    assert_int_equal(vdc_pvs_pe_start_parse(pvs, "pvs.json", g_ptr_array_index(pv, 0),
                                            &pe_start), 0);
    assert_true(pe_start == 1048576);

    /* striped: several PV ranges in one segment */
    g_ptr_array_set_size(pv, 0);
    g_array_set_size(first, 0);
    g_array_set_size(last, 0);
    assert_int_equal(vdc_pe_ranges_parse("/dev/vdb:0-31 /dev/vdc:10-41", "t", pv, first, last), 0);
    assert_int_equal(pv->len, 2);
    assert_string_equal(g_ptr_array_index(pv, 1), "/dev/vdc");
    assert_true(g_array_index(first, uint64_t, 1) == 10 && g_array_index(last, uint64_t, 1) == 41);

    EXPECT_ERROR(vdc_pe_ranges_parse("/dev/vdb:9-3", "t", pv, first, last) < 0,
                 "t: seg_pe_ranges: expected PV:FIRST-LAST, got '/dev/vdb:9-3'");
    EXPECT_ERROR(vdc_pe_ranges_parse("/dev/vdb", "t", pv, first, last) < 0, "PV:FIRST-LAST");
    EXPECT_ERROR(vdc_pe_ranges_parse("", "t", pv, first, last) < 0, "seg_pe_ranges: empty");
    EXPECT_ERROR(vdc_lvs_segments_parse(lvs, "lvs-seg.json", "vdctest", "nolv", pv, first, last,
                                        &ext) < 0, "lvs-seg.json: no segment of LV vdctest/nolv");
    EXPECT_ERROR(vdc_lvs_segments_parse("{\"report\": [", "l", "v", "l", pv, first, last, &ext) < 0,
                 "l: not JSON");
    EXPECT_ERROR(vdc_lvs_segments_parse("[1]", "l", "v", "l", pv, first, last, &ext) < 0,
                 "l: expected an lvm2 JSON report");
    EXPECT_ERROR(vdc_lvs_segments_parse("{\"report\":[{\"seg\":[{\"vg_name\":\"v\",\"lv_name\":"
                                        "\"l\",\"seg_pe_ranges\":\"/dev/x:0-1\","
                                        "\"vg_extent_size\":\"4.00m\"}]}]}", "l", "v", "l", pv,
                                        first, last, &ext) < 0,
                 "l: vg_extent_size: expected a byte count as a string (--units b --nosuffix), "
                 "got '4.00m'");
    EXPECT_ERROR(vdc_pvs_pe_start_parse(pvs, "pvs.json", "/dev/nope", &pe_start) < 0,
                 "pvs.json: no PV /dev/nope");
}

/* a thin pool as lvm2 2.03.16 reports it in the emulated lab's dom0 */
static void
test_lvs_thin(void **state)
{
    g_autofree char *lvs = golden("lvs-thin.json");
    vdc_thin_facts f;

    (void)state;
    assert_int_equal(vdc_lvs_thin_parse(lvs, "lvs-thin.json", "lab", "vdcpool", &f), 0);
    assert_true(f.chunk_size == 65536);
    assert_int_equal(f.zero, 1);
    assert_string_equal(f.discards, "passdown");
    assert_true(f.data_percent == 0.0);
    assert_true(fabs(f.metadata_percent - 10.94) < 1e-9);
    assert_true(f.pool_size == 536870912 && f.metadata_size == 4194304);
    vdc_thin_facts_dispose(&f);
    vdc_thin_facts_dispose(&f);
    /* the thin LV itself is no pool; another VG's row is not ours */
    EXPECT_ERROR(vdc_lvs_thin_parse(lvs, "lvs-thin.json", "lab", "vdcthin", &f) < 0,
                 "lvs-thin.json: LV lab/vdcthin: segtype thin: expected thin-pool");
    EXPECT_ERROR(vdc_lvs_thin_parse(lvs, "lvs-thin.json", "other", "vdcpool", &f) < 0,
                 "lvs-thin.json: no thin pool other/vdcpool");
    /* without --binary lvm2 says "zero"; a percent it does not know is "" */
    assert_int_equal(vdc_lvs_thin_parse("{\"report\":[{\"lv\":[{\"lv_name\":\"p\",\"segtype\":"
                                        "\"thin-pool\",\"chunk_size\":\"131072\",\"zero\":\"zero\","
                                        "\"data_percent\":\"\",\"lv_size\":\"1048576\","
                                        "\"lv_metadata_size\":\"4194304\"}]}]}", "l", "v", "p", &f), 0);
    assert_int_equal(f.zero, 1);
    assert_true(f.chunk_size == 131072 && isnan(f.data_percent) && !f.discards);
    vdc_thin_facts_dispose(&f);
    /* a pool read again after the runs: its use as lvm2 prints it (two
     * decimals, 100.00 at full); anything outside 0-100, or not a number,
     * unknown (the run records it null), never clamped */
    {
        static const struct { const char *data, *meta; double d, m; } use[] = {
            { "93.75", "99.99", 93.75, 99.99 },
            { "100.00", "0.00", 100.0, 0.0 },
            { "100.01", "-1.00", NAN, NAN },
            { "12.5x", "nan", NAN, NAN },
            { "inf", "1e2", NAN, 100.0 },
        };
        size_t i;

        for (i = 0; i < G_N_ELEMENTS(use); i++) {
            g_autofree char *json = g_strdup_printf(
                "{\"report\":[{\"lv\":[{\"vg_name\":\"lab\",\"lv_name\":\"p\",\"segtype\":\"thin-pool\","
                "\"chunk_size\":\"65536\",\"zero\":\"1\",\"data_percent\":\"%s\","
                "\"metadata_percent\":\"%s\",\"lv_size\":\"1048576\",\"lv_metadata_size\":\"4194304\"}]}]}",
                use[i].data, use[i].meta);

            assert_int_equal(vdc_lvs_thin_parse(json, "l", "lab", "p", &f), 0);
            if (isnan(use[i].d))
                assert_true(isnan(f.data_percent));
            else
                assert_true(fabs(f.data_percent - use[i].d) < 1e-9);
            if (isnan(use[i].m))
                assert_true(isnan(f.metadata_percent));
            else
                assert_true(fabs(f.metadata_percent - use[i].m) < 1e-9);
            vdc_thin_facts_dispose(&f);
        }
    }
    EXPECT_ERROR(vdc_lvs_thin_parse("{\"report\":[{\"lv\":[{\"lv_name\":\"p\",\"segtype\":"
                                    "\"thin-pool\",\"chunk_size\":\"0\",\"lv_size\":\"1\","
                                    "\"lv_metadata_size\":\"1\"}]}]}", "l", "v", "p", &f) < 0,
                 "l: chunk_size: expected a positive size");
}

/* ---- block counters ------------------------------------------------------------------------ */

static void
test_blockstat(void **state)
{
    g_autofree char *text = golden("diskstat-vda.txt");
    const char *vbd[7] = { "120\n", "340\n", "2\n", "0\n", "1\n", "960\n", "88000\n" };
    const char *bad[7] = { "120\n", "340\n", "2\n", "x\n", "1\n", "960\n", "88000\n" };
    vdc_disk_stat d;
    vdc_vbd_stat v;

    (void)state;
    assert_int_equal(vdc_disk_stat_parse(text, "vda/stat", &d), 0);
    assert_true(d.read_ios == 170390 && d.read_sectors == 10880922 && d.write_ios == 462402 &&
                d.write_sectors == 25744754 && d.in_flight == 0 && d.time_in_queue_ms == 1027889);
    EXPECT_ERROR(vdc_disk_stat_parse("1 2 3 4 5 6 7 8 9 10\n", "s", &d) < 0,
                 "s: field 11: expected 11 or more decimal counters");
    EXPECT_ERROR(vdc_disk_stat_parse("1 2 3 4 5 6x 7 8 9 10 11\n", "s", &d) < 0, "s: field 6");
    assert_int_equal(vdc_vbd_stat_parse(vbd, "/sys/bus/xen-backend/devices/vbd-5-51728", &v), 0);
    assert_true(v.rd_req == 120 && v.wr_req == 340 && v.f_req == 2 && v.oo_req == 1 &&
                v.rd_sect == 960 && v.wr_sect == 88000);
    EXPECT_ERROR(vdc_vbd_stat_parse(bad, "D", &v) < 0,
                 "D/statistics/ds_req: expected a decimal counter, got 'x");
}

/* ---- xenstore ------------------------------------------------------------------------------ */

static void
test_xenstore_tap(void **state)
{
    g_autofree char *text = golden("xenstore-xl-tap.txt");
    g_autoptr(GHashTable) tree = vdc_xs_ls_parse(text, "xenstore-xl-tap.txt");
    g_autoptr(GPtrArray) vbds = NULL;
    const vdc_xs_vbd *img, *lv;

    (void)state;
    assert_non_null(tree);
    assert_string_equal(g_hash_table_lookup(tree, "/local/domain/0/backend/vbd/1/51728/frontend"),
                        "/local/domain/1/device/vbd/51728");
    vbds = vdc_xs_vbds_from_tree(tree, 1);
    assert_non_null(vbds);
    assert_int_equal(vbds->len, 2);
    img = g_ptr_array_index(vbds, 0);
    lv = g_ptr_array_index(vbds, 1);
    /* tap:aio:IMG,xvdb,w on Xen 4.17: blkback over the loop device the
     * hotplug script made */
    assert_string_equal(img->kind, "vbd");
    assert_int_equal(img->domid, 1);
    assert_int_equal(img->devid, 51728);
    assert_string_equal(img->dev, "xvdb");
    assert_string_equal(img->type, "phy");
    assert_string_equal(img->params, "/var/lib/vdclab-selftest.img");
    assert_string_equal(img->node, "/dev/loop0");
    assert_true(img->have_physical_device && img->pd_major == 7 && img->pd_minor == 0);
    assert_string_equal(img->physical_device_path, "/dev/loop0");
    assert_int_equal(img->direct_io_safe, -1);
    assert_string_equal(img->mode, "w");
    assert_string_equal(img->hotplug_status, "connected");
    /* the LV: blkback on the dm device, no loop node; "fc:0" is 252:0 */
    assert_string_equal(lv->dev, "xvdc");
    assert_null(lv->node);
    assert_true(lv->pd_major == 0xfc && lv->pd_minor == 0);
    assert_string_equal(lv->physical_device_path, "/dev/dm-0");
    /* another domain: none; every domain: the same two */
    {
        g_autoptr(GPtrArray) none = vdc_xs_vbds_from_tree(tree, 2);
        g_autoptr(GPtrArray) all = vdc_xs_vbds_from_tree(tree, -1);

        assert_int_equal(none->len, 0);
        assert_int_equal(all->len, 2);
    }
}

static void
test_xenstore_qdisk(void **state)
{
    g_autofree char *text = golden("xenstore-xl-qdisk.txt");
    g_autoptr(GHashTable) tree = vdc_xs_ls_parse(text, "xenstore-xl-qdisk.txt");
    g_autoptr(GPtrArray) vbds = vdc_xs_vbds_from_tree(tree, 2);
    const vdc_xs_vbd *q = NULL;
    guint i;

    (void)state;
    assert_non_null(vbds);
    for (i = 0; i < vbds->len; i++)
        if (!strcmp(((vdc_xs_vbd *)g_ptr_array_index(vbds, i))->kind, "qdisk"))
            q = g_ptr_array_index(vbds, i);
    assert_non_null(q);
    assert_string_equal(q->type, "qdisk");
    assert_string_equal(q->params, "aio:/var/lib/vdclab-selftest.img");
    assert_string_equal(q->dev, "xvdb");
    assert_null(q->node);
    assert_false(q->have_physical_device);
    /* no direct-io-safe key: QEMU's xen-block goes through dom0's cache */
    assert_int_equal(q->direct_io_safe, -1);
}

static void
test_xenstore_malformed(void **state)
{
    const char *k1[] = { "direct-io-safe" }, *v1[] = { "yes" };
    const char *k2[] = { "physical-device" }, *v2[] = { "7-0" };
    const char *k3[] = { "direct-io-safe", "physical-device" }, *v3[] = { "1", "103:1f" };
    vdc_xs_vbd v;

    (void)state;
    EXPECT_ERROR(vdc_xs_ls_parse("/a = \"b\"\nnot a line\n", "ls") == NULL,
                 "ls: line 2: expected '/PATH = \"VALUE\"' (xenstore-ls -f), got 'not a line'");
    EXPECT_ERROR(vdc_xs_ls_parse("/a = \"unterminated\n", "ls") == NULL, "ls: line 1");
    EXPECT_ERROR(vdc_xs_ls_parse("/a = \"escaped quote\\\"\n", "ls") == NULL, "ls: line 1");
    {
        g_autoptr(GHashTable) t = vdc_xs_ls_parse("\n/a = \"x\\\\y\\012z\"\n/b = \"\"\n", "ls");

        assert_non_null(t);
        assert_string_equal(g_hash_table_lookup(t, "/a"), "x\\y\nz");
        assert_string_equal(g_hash_table_lookup(t, "/b"), "");
    }
    EXPECT_ERROR(vdc_xs_vbd_from_pairs("/local/domain/0/backend/vbd/1/51728", k1, v1, 1, &v) < 0,
                 "xenstore /local/domain/0/backend/vbd/1/51728/direct-io-safe: expected 0 or 1, "
                 "got 'yes'");
    EXPECT_ERROR(vdc_xs_vbd_from_pairs("/local/domain/0/backend/vbd/1/51728", k2, v2, 1, &v) < 0,
                 "physical-device: expected MAJ:MIN in hex, got '7-0'");
    EXPECT_ERROR(vdc_xs_vbd_from_pairs("/local/domain/0/backend/tap/1/51728", k1, v1, 0, &v) < 0,
                 "expected /local/domain/0/backend/{vbd,vbd3,qdisk}/DOMID/DEVID");
    EXPECT_ERROR(vdc_xs_vbd_from_pairs("/local/domain/0/backend/vbd/x/51728", k1, v1, 0, &v) < 0,
                 "DOMID/DEVID");
    assert_int_equal(vdc_xs_vbd_from_pairs("/local/domain/0/backend/qdisk/3/768", k3, v3, 2, &v), 0);
    assert_int_equal(v.direct_io_safe, 1);
    assert_string_equal(v.type, "qdisk");
    assert_true(v.pd_major == 0x103 && v.pd_minor == 0x1f);
    vdc_xs_vbd_dispose(&v);
    vdc_xs_vbd_dispose(&v);
}

/* ---- libvirt live XML --------------------------------------------------------------------- */

/* a qemu:///system domain's live XML as libvirt 9.0 gives it: the image
 * disk with cache='none' io='native', a qcow2 overlay whose backing file's
 * <source> must not replace the disk's own, the read-only control disk */
static const char QEMU_LIVE[] =
    "<domstatus state='running' reason='booted' pid='4242'>\n"
    "<domain type='qemu' id='7'>\n  <name>vmdiskcmp-t</name>\n  <devices>\n"
    "    <emulator>/usr/bin/qemu-system-x86_64</emulator>\n"
    "    <disk type='file' device='disk'>\n"
    "      <driver name='qemu' type='raw' cache='none' io='native'/>\n"
    "      <source file='/var/lib/vmdiskcmp/image.raw' index='2'/>\n"
    "      <backingStore/>\n      <target dev='vdb' bus='virtio'/>\n"
    "      <alias name='virtio-disk1'/>\n    </disk>\n"
    "    <disk type='file' device='disk'>\n"
    "      <driver name='qemu' type='qcow2'/>\n"
    "      <source file='/run/overlay.qcow2' index='1'/>\n"
    "      <backingStore type='file' index='3'>\n        <format type='raw'/>\n"
    "        <source file='/root/guest.img'/>\n        <backingStore/>\n"
    "      </backingStore>\n      <target dev='vda' bus='virtio'/>\n    </disk>\n"
    "    <disk type='file' device='disk'>\n      <driver name='qemu' type='raw'/>\n"
    "      <source file='/r/control-0.img'/>\n      <target dev='vdc' bus='virtio'/>\n"
    "      <readonly/>\n    </disk>\n"
    "    <disk type='file' device='cdrom'>\n      <driver name='qemu'/>\n    </disk>\n"
    "  </devices>\n</domain>\n</domstatus>\n";

static void
test_livexml(void **state)
{
    g_autofree char *xen = golden("livexml-xen-file.xml");
    g_autoptr(GPtrArray) d = NULL;
    const vdc_lv_disk *x;
    int pid = -5;

    (void)state;
    d = vdc_livexml_disks_parse(xen, "livexml-xen-file.xml", &pid);
    assert_non_null(d);
    assert_int_equal(pid, 0);
    assert_int_equal(d->len, 2);
    x = g_ptr_array_index(d, 0);
    assert_string_equal(x->vdev, "xvdb");
    assert_string_equal(x->bus, "xen");
    assert_string_equal(x->disk_type, "file");
    assert_string_equal(x->driver_name, "phy");
    assert_string_equal(x->source, "/var/lib/vdclab-selftest.img");
    assert_null(x->cache);
    assert_null(x->io);
    x = g_ptr_array_index(d, 1);
    assert_string_equal(x->disk_type, "block");
    assert_string_equal(x->source, "/dev/lab/selftest");
    g_clear_pointer(&d, g_ptr_array_unref);

    d = vdc_livexml_disks_parse(QEMU_LIVE, "live", &pid);
    assert_non_null(d);
    assert_int_equal(pid, 4242);
    assert_int_equal(d->len, 3);   /* the cdrom has no target: skipped */
    x = g_ptr_array_index(d, 0);
    assert_string_equal(x->vdev, "vdb");
    assert_string_equal(x->cache, "none");
    assert_string_equal(x->io, "native");
    assert_string_equal(x->source, "/var/lib/vmdiskcmp/image.raw");
    x = g_ptr_array_index(d, 1);
    assert_string_equal(x->vdev, "vda");
    assert_string_equal(x->driver_type, "qcow2");
    assert_string_equal(x->source, "/run/overlay.qcow2");
    assert_null(x->cache);
    x = g_ptr_array_index(d, 2);
    assert_int_equal(x->readonly, 1);
    assert_false(((vdc_lv_disk *)g_ptr_array_index(d, 0))->readonly);

    EXPECT_ERROR(vdc_livexml_disks_parse("<domain><devices><disk>", "x", NULL) == NULL,
                 "x: not well-formed domain XML");
    EXPECT_ERROR(vdc_livexml_disks_parse("", "x", NULL) == NULL, "x: not well-formed");
    EXPECT_ERROR(vdc_livexml_disks_parse("<domstatus pid='12a'><domain/></domstatus>", "x",
                                         NULL) == NULL, "x: <domstatus pid>: expected a process id");
}

/* ---- the qdisk QEMU's Linux native AIO (qemuprobe.h) -------------------------------- */

static void
test_qemu_aio_verdict(void **state)
{
    g_autofree char *xen = golden("qemu-aio-probe-xen-debian12.txt");
    g_autofree char *x86 = golden("qemu-aio-probe-x86-debian12.txt");

    assert_int_equal(vdc_qemu_aio_native_verdict(xen), VDC_QEMU_AIO_MISSING);
    assert_int_equal(vdc_qemu_aio_native_verdict(x86), VDC_QEMU_AIO_NATIVE);
    assert_int_equal(vdc_qemu_aio_native_verdict(NULL), VDC_QEMU_AIO_UNKNOWN);
    assert_int_equal(vdc_qemu_aio_native_verdict(""), VDC_QEMU_AIO_UNKNOWN);
    /* the open failed first (a QEMU that opens before it checks): no answer */
    assert_int_equal(vdc_qemu_aio_native_verdict(
                         "qemu: -blockdev ...: Could not open '/dev/null': Permission denied\n"),
                     VDC_QEMU_AIO_UNKNOWN);
    /* the option is named by the probe's own arguments: not an answer */
    assert_int_equal(vdc_qemu_aio_native_verdict(
                         "qemu: -blockdev driver=file,aio=native: invalid accelerator\n"),
                     VDC_QEMU_AIO_UNKNOWN);
}

/* A stand-in QEMU (a script printing @err on stderr and exiting 1) under
 * @dir; returns its path (g_free). */
static char *
fake_qemu(const char *dir, const char *name, const char *err)
{
    char *path = g_build_filename(dir, name, NULL);
    g_autofree char *text = g_strdup_printf("#!/bin/sh\nprintf '%%s\\n' '%s' >&2\nexit 1\n", err);

    assert_true(g_file_set_contents(path, text, -1, NULL));
    assert_int_equal(chmod(path, 0755), 0);
    return path;
}

static void
test_qemu_aio_probe(void **state)
{
    g_autofree char *dir = g_dir_make_tmp("vdc-qemuprobe-XXXXXX", NULL);
    g_autofree char *missing = fake_qemu(dir, "missing",
        "qemu: -blockdev x: aio=native was specified, but is not supported in this build.");
    g_autofree char *silent = fake_qemu(dir, "silent", "qemu: no accelerator");
    g_autofree char *absent = g_build_filename(dir, "absent", NULL);
    char *said = (char *)"unset";

    assert_non_null(dir);
    assert_int_equal(vdc_qemu_aio_native(missing, &said), VDC_QEMU_AIO_MISSING);
    assert_string_equal(said, "aio=native was specified, but is not supported in this build.");
    g_free(said);
    assert_int_equal(vdc_qemu_aio_native(silent, &said), VDC_QEMU_AIO_UNKNOWN);
    assert_null(said);
    assert_int_equal(vdc_qemu_aio_native(absent, &said), VDC_QEMU_AIO_UNKNOWN);
    assert_null(said);
    /* the real binaries where this machine has them: Debian's
     * qemu-system-x86_64 links libaio, its qemu-system-xen does not */
    if (g_file_test("/usr/bin/qemu-system-x86_64", G_FILE_TEST_IS_EXECUTABLE))
        assert_int_equal(vdc_qemu_aio_native("/usr/bin/qemu-system-x86_64", NULL),
                         VDC_QEMU_AIO_NATIVE);
    if (g_file_test("/usr/libexec/xen-qemu-system-i386", G_FILE_TEST_IS_EXECUTABLE))
        assert_int_equal(vdc_qemu_aio_native("/usr/libexec/xen-qemu-system-i386", NULL),
                         VDC_QEMU_AIO_MISSING);
    g_unlink(missing);
    g_unlink(silent);
    g_rmdir(dir);
}

/* ---- loop devices found by identity ---------------------------------------- */

/* the journal's "DEV:INO" text */
static void
test_file_id_parse(void **state)
{
    vdc_file_id id;

    assert_int_equal(vdc_file_id_parse("2049:131077", &id), 0);
    assert_true(id.dev == 2049 && id.ino == 131077);
    assert_int_equal(vdc_file_id_parse("2049:", &id), -1);
    assert_int_equal(vdc_file_id_parse(":5", &id), -1);
    assert_int_equal(vdc_file_id_parse("1:2:3", &id), -1);
    assert_int_equal(vdc_file_id_parse("-1:2", &id), -1);
    assert_int_equal(vdc_file_id_parse(NULL, &id), -1);
}

/* The test's loop device, detached by its teardown even when an assertion
 * ended the test early (the machine's loop devices are shared). */
static struct {
    char *dir, *image;
    vdc_file_id id;
    int attached;
} L;

static int
loop_teardown(void **state)
{
    if (L.attached)
        (void)vdc_loop_detach(&L.id, L.image);
    if (L.dir) {
        g_autofree char *old = g_strconcat(L.image, ".old", NULL);

        g_unlink(L.image);
        g_unlink(old);
        g_rmdir(L.dir);
    }
    g_clear_pointer(&L.dir, g_free);
    g_clear_pointer(&L.image, g_free);
    L.attached = 0;
    return 0;
}

/* The one finder matches a loop device's backing file by device and inode
 * (LOOP_GET_STATUS64), never by the text sysfs prints: an image unlinked
 * under its loop device ("PATH (deleted)") is still found by the identity
 * the journal recorded, and another file that took its path is not it (a
 * text match accepting " (deleted)" took the other file's path for ours).
 * Root and a free loop device; skipped otherwise. */
static void
test_loop_find_by_identity(void **state)
{
    g_auto(GStrv) devs = NULL;
    g_autofree char *dev = NULL, *bf = NULL, *sysfs = NULL;
    vdc_file_id other;

    if (geteuid() != 0 || !g_file_test("/dev/loop-control", G_FILE_TEST_EXISTS))
        skip();
    L.dir = g_dir_make_tmp("vdc-loopid-XXXXXX", NULL);
    assert_non_null(L.dir);
    L.image = g_build_filename(L.dir, "vmdiskcmp-t-dom0.raw", NULL);
    assert_true(g_file_set_contents(L.image, "", 0, NULL));
    assert_int_equal(truncate(L.image, 1 << 20), 0);
    assert_int_equal(vdc_file_id_of(L.image, &L.id), 0);
    dev = vdc_loop_attach(L.image);
    if (!dev) {
        vdc_error_reset();
        skip();         /* no free loop device: others use them */
    }
    L.attached = 1;

    /* found by the file as it is */
    assert_int_equal(vdc_loop_find_by_backing(L.image, &devs), 0);
    assert_non_null(devs[0]);
    assert_string_equal(devs[0], dev);
    assert_null(devs[1]);
    g_clear_pointer(&devs, g_strfreev);

    /* unlinked under its device, another file in its place */
    assert_int_equal(g_unlink(L.image), 0);
    assert_true(g_file_set_contents(L.image, "not ours", -1, NULL));
    assert_int_equal(vdc_file_id_of(L.image, &other), 0);
    assert_false(other.dev == L.id.dev && other.ino == L.id.ino);
    sysfs = g_strdup_printf("/sys/block/%s/loop/backing_file", dev + 5);
    assert_true(g_file_get_contents(sysfs, &bf, NULL, NULL));
    assert_non_null(strstr(bf, " (deleted)"));      /* what a text match saw */
    assert_int_equal(vdc_loop_find(&other, L.image, &devs), 0);
    assert_null(devs[0]);                            /* the new file is bound to nothing */
    g_clear_pointer(&devs, g_strfreev);
    assert_int_equal(vdc_loop_find_by_backing(L.image, &devs), 0);
    assert_null(devs[0]);
    g_clear_pointer(&devs, g_strfreev);
    /* detaching by the new file's name touches nothing */
    assert_int_equal(vdc_loop_detach(NULL, L.image), 0);
    assert_true(g_file_test(sysfs, G_FILE_TEST_EXISTS));
    /* the journaled identity still finds ours, and detaches it */
    assert_int_equal(vdc_loop_find(&L.id, NULL, &devs), 0);
    assert_non_null(devs[0]);
    assert_string_equal(devs[0], dev);
    g_clear_pointer(&devs, g_strfreev);
    assert_int_equal(vdc_loop_detach(&L.id, L.image), 0);
    L.attached = 0;
    assert_false(g_file_test(sysfs, G_FILE_TEST_EXISTS));
    assert_int_equal(vdc_loop_find(&L.id, NULL, &devs), 0);
    assert_null(devs[0]);
}

/* mountinfo: is a directory a mount point, and of the journaled source */
static void
test_mountinfo_has(void **state)
{
    static const char mi[] =
        "22 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw\n"
        "91 22 7:3 / /run/vdc/mnt-dom0 rw,relatime - ext4 /dev/loop3 rw\n"
        "92 22 0:5 / /srv/a\\040b rw - tmpfs tmpfs rw\n";

    assert_int_equal(vdc_mountinfo_has(mi, "/run/vdc/mnt-dom0", NULL), 1);
    assert_int_equal(vdc_mountinfo_has(mi, "/run/vdc/mnt-dom0", "/dev/loop3"), 1);
    assert_int_equal(vdc_mountinfo_has(mi, "/run/vdc", NULL), 0);
    assert_int_equal(vdc_mountinfo_has("", "/", NULL), 0);
    assert_int_equal(vdc_mountinfo_has(mi, "/run/vdc/mnt-dom0", "/dev/loop4"), -1);
    vdc_error_reset();
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_meminfo),
        cmocka_unit_test(test_proc_stat),
        cmocka_unit_test(test_task_stat),
        cmocka_unit_test(test_task_stat_read_self),
        cmocka_unit_test(test_fdinfo),
        cmocka_unit_test(test_proc_file_flags_self),
        cmocka_unit_test(test_loop_sysfs),
        cmocka_unit_test(test_loop_sysfs_fixture),
        cmocka_unit_test(test_residency),
        cmocka_unit_test(test_extents_to_ranges),
        cmocka_unit_test(test_lvm_reports),
        cmocka_unit_test(test_lvs_thin),
        cmocka_unit_test(test_blockstat),
        cmocka_unit_test(test_xenstore_tap),
        cmocka_unit_test(test_xenstore_qdisk),
        cmocka_unit_test(test_xenstore_malformed),
        cmocka_unit_test(test_livexml),
        cmocka_unit_test(test_qemu_aio_verdict),
        cmocka_unit_test(test_qemu_aio_probe),
        cmocka_unit_test(test_file_id_parse),
        cmocka_unit_test_teardown(test_loop_find_by_identity, loop_teardown),
        cmocka_unit_test(test_mountinfo_has),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
