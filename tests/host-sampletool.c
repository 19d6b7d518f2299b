/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Test helper: the host samplers (src/host/) from the command line, one
 * "key=value ..." line per fact, for tests/integration/host-cpu-crosscheck.sh
 * to compare with independent readings (/proc read by the script, fincore,
 * filefrag, sysfs).
 *
 *   host-sampletool meminfo
 *   host-sampletool loop-info DEV
 *   host-sampletool loop-find FILE
 *   host-sampletool loop-dio DEV on|off
 *   host-sampletool residency FILE
 *   host-sampletool placement FILE
 *   host-sampletool lv-placement VG LV [LVM-ARG...]
 *   host-sampletool alignment DEV
 *   host-sampletool lv-alignment VG LV [LVM-ARG...]
 *   host-sampletool cpu --pid PID [--loop N] [--seconds S]
 *
 * Exit status: 0, 1 on a sampler failure (its message on stderr), 2 on bad
 * arguments. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"
#include "host/alignment.h"
#include "host/cpuacct.h"
#include "host/loopdev.h"
#include "host/placement.h"
#include "host/procfs.h"
#include "host/residency.h"
#include "host/workers.h"

static int
usage(void)
{
    fprintf(stderr, "usage: host-sampletool meminfo | loop-info DEV | loop-find FILE | "
                    "loop-dio DEV on|off | residency FILE | placement FILE | "
                    "lv-placement VG LV [LVM-ARG...] | alignment DEV | "
                    "lv-alignment VG LV [LVM-ARG...] | "
                    "cpu --pid PID [--loop N] [--seconds S]\n");
    return 2;
}

static void
print_placement(const vdc_placement *pl)
{
    guint i;

    printf("device=%s disk=%s device_start=%llu extents=%zu ranges=%u mapped_bytes=%llu "
           "unmapped_bytes=%llu center=%.0f rotational=%d\n",
           pl->pos.device, pl->pos.disk, (unsigned long long)pl->pos.start, pl->extents,
           pl->ranges->len, (unsigned long long)pl->mapped_bytes,
           (unsigned long long)pl->unmapped_bytes, vdc_ranges_center(pl->ranges),
           pl->pos.rotational);
    for (i = 0; i < pl->ranges->len; i++) {
        const vdc_byte_range *r = &g_array_index(pl->ranges, vdc_byte_range, i);

        printf("range start=%llu length=%llu\n", (unsigned long long)r->start,
               (unsigned long long)r->length);
    }
}

static void
print_alignment(const vdc_alignment *a)
{
    size_t i;

    printf("disk=%s physical=%llu minimum=%llu optimal=%llu alignment_offset=%llu source=%s\n",
           a->disk, (unsigned long long)a->q.physical_block_size,
           (unsigned long long)a->q.minimum_io_size, (unsigned long long)a->q.optimal_io_size,
           (unsigned long long)a->q.alignment_offset, a->source);
    for (i = 0; i < a->n; i++) {
        g_autofree char *why = vdc_alignment_why(a, &a->layers[i]);

        printf("layer=%s offset=%llu size=%llu misaligned=%d%s%s\n",
               vdc_align_layer_name(a->layers[i].layer), (unsigned long long)a->layers[i].offset,
               (unsigned long long)a->layers[i].size, a->layers[i].misaligned,
               why ? " why=" : "", why ? why : "");
    }
}

static int
cmd_cpu(int argc, char **argv)
{
    g_autoptr(GPtrArray) set = vdc_server_set_new();
    g_autofree char *reason = NULL;
    vdc_attribution loop_attr = VDC_ATTR_EXACT;
    vdc_cpu_snapshot a = { 0 }, b = { 0 };
    vdc_cpu_delta d = { 0 };
    long pid = 0, loop_nr = -1;
    double seconds = 2, left;
    vdc_server *p;
    int i, complete, rc = 1;
    guint k;

    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--pid") && i + 1 < argc)
            pid = strtol(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--loop") && i + 1 < argc)
            loop_nr = strtol(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
            seconds = g_ascii_strtod(argv[++i], NULL);
        else
            return usage();
    }
    if (pid <= 0 || seconds <= 0 || seconds > 600)
        return usage();
    p = vdc_server_for_task("process", (int)pid, 0, VDC_ATTR_EXACT, NULL);
    if (!p)
        return 1;
    g_ptr_array_add(set, p);
    if (loop_nr >= 0) {
        g_autoptr(GArray) kt = vdc_kernel_threads_scan();

        if (!kt)
            return 1;
        loop_attr = vdc_loop_workers_find((const vdc_task_stat *)(void *)kt->data, kt->len,
                                          (unsigned)loop_nr, set, &reason);
    }
    if (vdc_cpu_snapshot_take(set, &a) < 0)
        goto out;
    g_usleep((gulong)(seconds * G_USEC_PER_SEC));
    if (vdc_cpu_snapshot_take(set, &b) < 0 ||
        vdc_cpu_delta_compute(&a, &b, sysconf(_SC_CLK_TCK), &d) < 0)
        goto out;
    for (k = 0; k < set->len; k++) {
        const vdc_server *s = g_ptr_array_index(set, k);
        static const char *const st[] = { "ok", "ended", "absent" };

        printf("server role=%s pid=%d name=%s attribution=%s state=%s user_s=%.2f system_s=%.2f\n",
               s->role, s->pid, s->name, vdc_attribution_name(s->attribution),
               st[d.srv[k].state], d.srv[k].user_s, d.srv[k].system_s);
    }
    if (loop_nr >= 0)
        printf("loop device=loop%ld attribution=%s reason=%s\n", loop_nr,
               vdc_attribution_name(loop_attr), reason ? reason : "-");
    printf("dom0 interval_s=%.3f busy_s=%.2f all_s=%.2f idle_s=%.2f iowait_s=%.2f steal_s=%.2f\n",
           d.interval_s, d.busy_s, d.all_s, d.idle_s, d.iowait_s, d.steal_s);
    left = vdc_cpu_delta_unattributed_s(&d, set, &complete, NULL);
    printf("unattributed busy_minus_exact_s=%.2f complete=%d\n", left, complete);
    rc = 0;
out:
    vdc_cpu_delta_dispose(&d);
    vdc_cpu_snapshot_dispose(&a);
    vdc_cpu_snapshot_dispose(&b);
    return rc;
}

int
main(int argc, char **argv)
{
    const char *cmd = argc > 1 ? argv[1] : "";

    if (!strcmp(cmd, "meminfo") && argc == 2) {
        vdc_meminfo m;

        if (vdc_meminfo_read(&m) < 0)
            return 1;
        printf("mem_total=%llu cached=%llu dirty=%llu writeback=%llu\n",
               (unsigned long long)m.mem_total, (unsigned long long)m.cached,
               (unsigned long long)m.dirty, (unsigned long long)m.writeback);
        return 0;
    }
    if (!strcmp(cmd, "loop-info") && argc == 3) {
        vdc_loop_info li;
        int r = vdc_loop_info_read(argv[2], &li);

        if (r == 1)
            printf("name=%s bound=0\n", argv[2]);
        if (r != 0)
            return r < 0;
        printf("name=%s bound=1 dio=%d offset=%llu deleted=%d backing_file=%s\n", li.name, li.dio,
               (unsigned long long)li.offset, li.backing_deleted, li.backing_file);
        vdc_loop_info_dispose(&li);
        return 0;
    }
    if (!strcmp(cmd, "loop-find") && argc == 3) {
        g_auto(GStrv) devs = NULL;
        size_t i;

        if (vdc_loop_find_by_backing(argv[2], &devs) < 0)
            return 1;
        for (i = 0; devs[i]; i++)
            printf("%s\n", devs[i]);
        return 0;
    }
    if (!strcmp(cmd, "loop-dio") && argc == 4 && (!strcmp(argv[3], "on") || !strcmp(argv[3], "off")))
        return vdc_loop_set_direct_io(argv[2], !strcmp(argv[3], "on")) < 0;
    if (!strcmp(cmd, "residency") && argc == 3) {
        vdc_residency r;

        if (vdc_residency_read(argv[2], &r) < 0)
            return 1;
        printf("size_bytes=%llu pages=%llu resident_pages=%llu page_size=%ld\n",
               (unsigned long long)r.size_bytes, (unsigned long long)r.pages,
               (unsigned long long)r.resident_pages, r.page_size);
        return 0;
    }
    if (!strcmp(cmd, "placement") && argc == 3) {
        vdc_placement pl;

        if (vdc_image_placement_read(argv[2], &pl) < 0)
            return 1;
        print_placement(&pl);
        vdc_placement_dispose(&pl);
        return 0;
    }
    if (!strcmp(cmd, "lv-placement") && argc >= 4) {
        vdc_placement pl;

        if (vdc_lv_placement_read(argv[2], argv[3], (const char *const *)argv + 4, &pl) < 0)
            return 1;
        print_placement(&pl);
        vdc_placement_dispose(&pl);
        return 0;
    }
    if (!strcmp(cmd, "alignment") && argc == 3) {
        vdc_alignment a;

        if (vdc_blockdev_alignment_read(argv[2], &a) < 0)
            return 1;
        print_alignment(&a);
        vdc_alignment_dispose(&a);
        return 0;
    }
    if (!strcmp(cmd, "lv-alignment") && argc >= 4) {
        vdc_placement pl;
        vdc_queue_limits q;
        vdc_alignment a;
        g_autofree char *disk = NULL;

        if (vdc_lv_placement_read(argv[2], argv[3], (const char *const *)argv + 4, &pl) < 0)
            return 1;
        if (vdc_queue_limits_read(pl.pos.disk, 0, 0, &q) < 0) {
            vdc_placement_dispose(&pl);
            return 1;
        }
        vdc_alignment_from_placement(&pl, 1, pl.pe_start, pl.extent_size, &q, &a);
        print_alignment(&a);
        vdc_alignment_dispose(&a);
        vdc_placement_dispose(&pl);
        return 0;
    }
    if (!strcmp(cmd, "cpu"))
        return cmd_cpu(argc - 2, argv + 2);
    return usage();
}
