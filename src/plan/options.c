/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"
#include "plan/options.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "common/opts.h"
#include "common/util.h"
#include "guest-agent/ctldisk.h"
#include "guest-agent/options.h"
#include "plan/dims.h"
#include "plan/levels.h"
#include "stats/paired.h"

#define MIB (1ULL << 20)
/* the agent's -s and the disks are whole MiB (a 1k --dom0-size used to
 * become `-s 0`: no sequential tests at all); at most 1 PiB keeps the size
 * arithmetic (+25 %, + 64 MiB) far from overflow */
#define MAX_SIZE (1ULL << 50)

/* LVM's least stripe size: a page (lvcreate -I) */
#define STRIPE_SIZE_MIN (4ULL << 10)

#define O(m) offsetof(vdc_run_opts, m)

/* The one options table: getopt_long's table, validation and --help are
 * all generated from it (common/opts.h); the matrix's dimensions
 * (plan/dims.h) go between its head and its tail (run_table). */
static const vdc_opt opt_head[] = {
    { .name = "image", .type = VDC_OPT_FLAG, .off = O(image),
      .help = "benchmark a scratch file image attached to the domU" },
    { .name = "lvm", .type = VDC_OPT_FLAG, .off = O(lvm),
      .help = "benchmark a scratch LV (in --vg) attached to the domU" },
    { .name = "dom0", .type = VDC_OPT_FLAG, .off = O(dom0),
      .help = "run the agent in dom0 itself as the baseline" },
    { .name = "block", .type = VDC_OPT_STRV, .off = O(blocks), .metavar = "DEV",
      .help = "benchmark an existing block device (needs --destroy-data); repeatable" },
    { .name = "target", .type = VDC_OPT_STRV, .off = O(custom), .metavar = "NAME=DEV",
      .help = "a named block-device target (needs --destroy-data); repeatable" },
    { .name = "destroy-data", .type = VDC_OPT_FLAG, .off = O(consent),
      .help = "consent: --block/--target devices are overwritten (signatures still refused)" },
    { .name = "vg", .type = VDC_OPT_STR, .off = O(vg), .metavar = "VG",
      .def = "in a Xen dom0: the VG with the most free space that holds the plan's LVs",
      .help = "volume group for --lvm (and for the dom0 baseline LV)" },
    { .name = "lv-size", .type = VDC_OPT_SIZE, .off = O(lv_size), .metavar = "SIZE",
      .align = MIB, .max = MAX_SIZE, .def = "test size + 25% + 64 MiB", .help = "size of each LV we create (needs --lvm, or --dom0 on lvm); in such a plan also of each domU image" },
    { .name = "stripes", .type = VDC_OPT_UINT, .off = O(stripes), .metavar = "N", .min = 1, .max = 128,
      .def = "1", .help = "stripe the LV over N PVs (lvcreate -i N)" },
    { .name = "stripe-size", .type = VDC_OPT_SIZE, .off = O(stripe_size), .metavar = "SIZE",
      .help = "stripe size (a power of two of at least 4K, e.g. 64K; needs --stripes)" },
    { .name = "image-dir", .type = VDC_OPT_STR, .off = O(image_dir), .metavar = "DIR",
      .def = "/var/lib/vmdiskcmp", .help = "directory for scratch images" },
    { .name = "qcow2-cluster-size", .type = VDC_OPT_SIZE, .off = O(qcow2_cluster_size),
      .metavar = "SIZE", .max = 2 * MIB, .def = "64K (QEMU's)",
      .help = "cluster size of a qcow2 image (a power of two, 512 to 2M), read back from its header" },
    { .name = "qcow2-l2-cache-size", .type = VDC_OPT_SIZE, .off = O(qcow2_l2_cache_size),
      .metavar = "SIZE", .max = 1ULL << 40, .def = "QEMU's (1M, or 8M on Linux since QEMU 3.1)",
      .help = "QEMU's L2 table cache of a qcow2 image (libvirt QEMU/KVM: <driver><metadata_cache>), "
              "read back from the live domain" },
    { .name = "thin-chunk-size", .type = VDC_OPT_SIZE, .off = O(thin_chunk_size), .metavar = "SIZE",
      .max = 1ULL << 30, .def = "LVM's (64K for these sizes)",
      .help = "chunk size of a thin LV's pool (a power of two, 64K to 1G), read back" },
    { .name = "thin-zero", .type = VDC_OPT_ENUM, .off = O(thin_zero), .choices = "yes|no",
      .def = "LVM's (lvm.conf thin_pool_zero: yes)",
      .help = "does a thin LV's pool zero a chunk before its first use; read back" },
    { .name = "precondition-time", .type = VDC_OPT_STR, .off = O(precondition_time),
      .metavar = "MAX[:WINDOW]", .def = "1800:30",
      .help = "--precondition on: random writes for at most MAX seconds, until the IOPS slope over "
              "WINDOW seconds is under 0.5 % of their mean (fio's ss=iops_slope)" },
};

static const vdc_opt opt_tail[] = {
    { .name = "max-targets", .type = VDC_OPT_UINT, .off = O(max_targets), .metavar = "N", .min = 1, .max = 64,
      .def = G_STRINGIFY(VDC_MAX_TARGETS_DEFAULT),
      .help = "refuse a plan of more targets than N (the matrix's cross product, dom0 included) before anything is created" },
    { .name = "size", .type = VDC_OPT_SIZE, .off = O(size), .metavar = "SIZE",
      .align = MIB, .max = MAX_SIZE, .def = "2x guest RAM", .help = "agent test file size in the domU (bare number: MiB)" },
    { .name = "dom0-size", .type = VDC_OPT_SIZE, .off = O(dom0_size), .metavar = "SIZE",
      .align = MIB, .max = MAX_SIZE, .def = "2x dom0 RAM", .help = "agent test file size in dom0 (bare number: MiB)" },
    { .name = "dom0-on", .type = VDC_OPT_STR, .off = O(dom0_on), .metavar = "lvm|image|DEV",
      .def = "lvm with --vg or --lvm, else image", .help = "where the dom0 baseline filesystem lives" },
    { .name = "runs", .type = VDC_OPT_UINT, .off = O(runs), .metavar = "N|auto", .min = 1, .max = 1000,
      .word = "auto", .def = "5",
      .help = "repetitions per target; auto: repeat until every headline test is precise (--precision), at most --max-runs" },
    { .name = "max-runs", .type = VDC_OPT_UINT, .off = O(max_runs), .metavar = "N", .min = VDC_RUNS_AUTO_MIN,
      .max = 1000, .def = G_STRINGIFY(VDC_RUNS_AUTO_MAX_DEFAULT), .help = "--runs auto: the most repetitions" },
    { .name = "precision", .type = VDC_OPT_STR, .off = O(precision), .metavar = "P",
      .def = "3", .help = "--runs auto: stop when the image/LV ratio's 95 % CI is within +-P % (0.1 to 50)" },
    { .name = "seed", .type = VDC_OPT_STR, .off = O(seed), .metavar = "N",
      .def = "random", .help = "master seed; repetition r of every target runs with seed+r" },
    { .name = "order", .type = VDC_OPT_ENUM, .off = O(order), .choices = "rotated|interleaved|grouped",
      .def = "rotated", .help = "the order of the runs: rotated (each repetition runs every target once, the domU targets rotated and dom0 moved, seeded, against drift: A B H, H B A, B A H, H A B ...), interleaved (A B H A B H ...) or grouped (A A B B H H ...)" },
    { .name = "hypervisor", .type = VDC_OPT_ENUM, .off = O(hypervisor), .choices = "libxl|libvirt|mock",
      .def = "libxl in a Xen dom0, else libvirt", .help = "hypervisor driver (mock: tests only)" },
    { .name = "connect", .type = VDC_OPT_STR, .off = O(connect), .metavar = "URI",
      .def = "xen:///system or qemu:///system", .help = "libvirt connection URI" },
    { .name = "accel", .type = VDC_OPT_ENUM, .off = O(accel), .choices = "kvm|tcg",
      .def = "kvm", .help = "qemu:///system domain type: kvm, or tcg (software emulation)" },
    { .name = "guest-image", .type = VDC_OPT_STR, .off = O(guest_image), .metavar = "IMG",
      .def = "the installed template (" VDC_DATADIR "/guest/guest.img; in a build tree guest-template/guest.img)",
      .help = "guest template (prepared with the agent on first use, cached in --cache-dir)" },
    { .name = "prepared-image", .type = VDC_OPT_STR, .off = O(prepared_image), .metavar = "IMG",
      .help = "an image `vmdiskcmp prepare --out IMG` made (with IMG.manifest): no appliance launch, e.g. in the Xen lab" },
    { .name = "kernel", .type = VDC_OPT_STR, .off = O(kernel), .metavar = "FILE",
      .def = "from the template's manifest", .help = "domU kernel (direct boot)" },
    { .name = "initrd", .type = VDC_OPT_STR, .off = O(initrd), .metavar = "FILE",
      .def = "from the template's manifest", .help = "domU initrd" },
    { .name = "cmdline", .type = VDC_OPT_STR, .off = O(cmdline), .metavar = "STR",
      .def = "from the template's manifest", .help = "domU kernel command line" },
    { .name = "guest-memory", .type = VDC_OPT_UINT, .off = O(guest_memory), .metavar = "MiB",
      .min = 64, .max = 1048576, .def = "512", .help = "domU memory" },
    { .name = "guest-vcpus", .type = VDC_OPT_UINT, .off = O(guest_vcpus), .metavar = "N",
      .min = 1, .max = 128, .def = "1", .help = "domU vCPUs" },
    { .name = "timeout", .type = VDC_OPT_UINT, .off = O(timeout), .metavar = "SECONDS",
      .min = 10, .max = 604800, .def = "3600", .help = "per domain boot; a hung domU is destroyed" },
    { .name = "agent-timeout", .type = VDC_OPT_UINT, .off = O(agent_timeout), .metavar = "SECONDS",
      .min = 1, .max = 604800, .def = "--timeout",
      .help = "per agent pass (bonnie++, workloads) in the domU and in dom0: then SIGTERM (the agent keeps the tests and jobs that finished) and, after a grace (10 s in the domU, 3 s in dom0), SIGKILL" },
    { .name = "heartbeat-timeout", .type = VDC_OPT_UINT, .off = O(heartbeat_timeout), .metavar = "SECONDS",
      .min = 0, .max = 604800, .def = "120",
      .help = "a domU whose runner has beaten (every 5 s on the control disk) and then not for this long is destroyed, its runs failed naming the last event; 0: off, else at least 30 (before the first beat only --timeout applies)" },
    { .name = "out", .type = VDC_OPT_STR, .off = O(out), .metavar = "DIR",
      .def = "results/ID", .help = "result directory (must not exist)" },
    { .name = "cache-dir", .type = VDC_OPT_STR, .off = O(cache_dir), .metavar = "DIR",
      .def = "/var/cache/vmdiskcmp", .help = "prepared guest images" },
    { .name = "agent", .type = VDC_OPT_STR, .off = O(agent), .metavar = "FILE",
      .def = "installed vmdiskcmp-agent", .help = "static agent binary" },
    { .name = "runner", .type = VDC_OPT_STR, .off = O(runner), .metavar = "FILE",
      .def = "installed vmdiskcmp-runner", .help = "static in-guest runner binary" },
    { .name = "mkfs", .type = VDC_OPT_ENUM, .off = O(mkfs), .choices = "ext4|ext3|ext2|xfs",
      .def = "ext4", .help = "filesystem made on each target before each run" },
    { .name = "agent-options", .type = VDC_OPT_STR, .off = O(agent_options), .metavar = "OPTS",
      .help = "extra agent options, space separated (e.g. \"-n 0 -f\")" },
    { .name = "workload", .type = VDC_OPT_STRV, .off = O(workloads), .metavar = "NAME|FILE",
      .help = "run a fio job file with the agent's job engine on every target, in the domU and in dom0: "
              "a shipped profile NAME (e.g. randread-4k-qd32, from $VDC_WORKLOAD_DIR, else the installed "
              "workloads/) or a FILE (a path with a '/'); repeatable, or a comma list; checked here before "
              "anything is created" },
    { .name = "workload-on", .type = VDC_OPT_LIST, .off = O(workload_on), .choices = "file|raw",
      .def = "file",
      .help = "where the --workload jobs run on each target (domU and dom0): on a file in its fresh "
              "filesystem (file), or on the block device itself before mkfs, as a database on the LV "
              "or image VBD sees it (raw: the run's own device, a --block/--target one with "
              "--destroy-data); a comma list runs both, raw first" },
    { .name = "tests", .type = VDC_OPT_LIST, .off = O(tests), .choices = "bonnie|workloads",
      .def = "bonnie, or bonnie,workloads with --workload",
      .help = "what each step runs: the bonnie++ tests, the --workload jobs after them, or the jobs instead of them (--tests workloads)" },
    { .name = "agent-ram", .type = VDC_OPT_UINT, .off = O(agent_ram), .metavar = "MiB",
      .min = 1, .max = 1048576, .def = "--guest-memory", .help = "agent -r in the domU" },
    { .name = "dom0-ram", .type = VDC_OPT_UINT, .off = O(dom0_ram), .metavar = "MiB",
      .min = 1, .max = 16777216, .def = "dom0 MemTotal, or --dom0-memory-max", .help = "agent -r in dom0" },
    { .name = "dom0-memory-max", .type = VDC_OPT_UINT, .off = O(dom0_memory_max), .metavar = "MiB",
      .min = 16, .max = 16777216,
      .help = "run the dom0 baseline's agent in a memory cgroup of its own limited to MiB (cgroup v2 "
              "memory.max, or v1 memory.limit_in_bytes), which the page cache it fills is charged to: "
              "the agent is told the limit (-r), its default test file is twice it, and the limit read back is recorded as the target's memory" },
    { .name = "blkback-max-ring-page-order", .type = VDC_OPT_STR, .off = O(blkback_max_ring_page_order),
      .metavar = "N", .def = "the module's",
      .help = "Xen dom0: write N (0-4: up to 2^N pages per ring) to xen_blkback's max_ring_page_order "
              "parameter before any domU is created, restore it after the run (also on SIGINT and by "
              "`vmdiskcmp cleanup`); blkback reads it when a backend connects, so it applies to the "
              "domUs created after the write.  Refused when the running module does not let it be "
              "written (Linux makes it 0444: then only xen_blkback.max_ring_page_order=N at load)" },
    { .name = "blkback-max-queues", .type = VDC_OPT_STR, .off = O(blkback_max_queues),
      .metavar = "N", .def = "the module's",
      .help = "Xen dom0: write N (1 to dom0's online CPUs) to xen_blkback's max_queues parameter "
              "before any domU is created, restore it after the run (also on SIGINT and by "
              "`vmdiskcmp cleanup`); applies to the domUs created after the write" },
    { .name = "emulated", .type = VDC_OPT_FLAG, .off = O(emulated),
      .help = "the host is emulated (the Xen lab): mark results as predicting nothing about hardware" },
    { .name = "inspect-on-failure", .type = VDC_OPT_FLAG, .off = O(inspect),
      .help = "after a hung or crashed domU, copy the guest's logs out of the root image (libguestfs, read-only; one appliance launch each)" },
    { .name = "no-drop-caches", .type = VDC_OPT_FLAG, .off = O(no_drop_caches),
      .help = "keep the page cache between tests (default: the agent drops it before each test, in the domU and in dom0, and dom0's before each boot)" },
    { .name = "keep", .type = VDC_OPT_FLAG, .off = O(keep),
      .help = "leave scratch storage for inspection (domains are always destroyed)" },
    { .name = "dry-run", .type = VDC_OPT_FLAG, .off = O(dry_run),
      .help = "print the plan, disk specs / domain XML and xl.cfg; create nothing" },
    { .name = "no-report", .type = VDC_OPT_FLAG, .off = O(no_report),
      .help = "write result.json only, no rendered report" },
    { .name = "store", .type = VDC_OPT_STR, .off = O(store), .metavar = "FILE",
      .def = "the --out directory's parent's vmdiskcmp.sqlite",
      .help = "the result store the complete result is recorded in (doc/store.md); a failure to record is a warning" },
    { .name = "no-store", .type = VDC_OPT_FLAG, .off = O(no_store),
      .help = "record the result in no result store" },
    { .name = "quiet", .type = VDC_OPT_FLAG, .off = O(quiet), .short_name = 'q',
      .help = "no progress lines" },
    { .name = "help", .type = VDC_OPT_HELP, .short_name = 'h', .help = "this text" },
};

/* head, the dimensions, tail: built once, constant after */
static const vdc_opt *
run_table(size_t *n)
{
    static vdc_opt table[G_N_ELEMENTS(opt_head) + VDC_DIM_COUNT + 1 + G_N_ELEMENTS(opt_tail)];
    static size_t len;

    if (g_once_init_enter(&len)) {
        size_t k = G_N_ELEMENTS(opt_head);

        memcpy(table, opt_head, sizeof(opt_head));
        g_assert(vdc_n_dimensions <= VDC_DIM_COUNT);
        vdc_dim_opts(O(dims), table + k);
        k += vdc_n_dimensions;
        vdc_guests_opt(O(guests), table + k++);
        memcpy(table + k, opt_tail, sizeof(opt_tail));
        g_once_init_leave(&len, k + G_N_ELEMENTS(opt_tail));
    }
    *n = len;
    return table;
}

static const vdc_opts_spec run_spec_template = {
    .command = "run",
    .operands = VDC_OPERANDS_NONE,
    .usage = "usage: vmdiskcmp [run] [--image] [--lvm [--vg VG]] [--block DEV --destroy-data] [--dom0] [OPTIONS]\n\n",
    .epilogue = "\nExit status: 0 ok, 1 a run failed, 2 bad input, 3 interrupted.\n",
};

/* the spec with the whole table */
static vdc_opts_spec
run_spec(void)
{
    vdc_opts_spec spec = run_spec_template;

    spec.table = run_table(&spec.n);
    return spec;
}

/* The options that mean something only with a target the options ask
 * for, and the targets each needs: one given without them would be
 * ignored, so it is refused (here, where `vmdiskcmp lab run` checks its
 * jobs too, not only when the plan is built).  0, or -1 after one line. */
static int
check_orphans(const vdc_run_opts *o)
{
    const char *dom0_on = o->dom0_on ? o->dom0_on : o->vg || o->lvm ? "lvm" : "image";
    int dom0_image = o->dom0 && !strcmp(dom0_on, "image");
    int dom0_lvm = o->dom0 && !strcmp(dom0_on, "lvm");
    int domu = o->image || o->lvm || o->blocks || o->custom;
    char b[9][32];
    /* each option given alone is named with its value (the buffers are
     * filled as the table is, before it is read) */
    const struct {
        int given, needed;
        const char *option, *value, *expected;
    } rules[] = {
        { o->qcow2_cluster_size != 0, o->image, "--qcow2-cluster-size",
          vdc_fmt_bytes(b[0], sizeof(b[0]), o->qcow2_cluster_size), "--image --image-format qcow2 as well" },
        { o->qcow2_l2_cache_size != 0, o->image, "--qcow2-l2-cache-size",
          vdc_fmt_bytes(b[1], sizeof(b[1]), o->qcow2_l2_cache_size), "--image --image-format qcow2 as well" },
        { o->thin_chunk_size != 0, o->lvm, "--thin-chunk-size",
          vdc_fmt_bytes(b[2], sizeof(b[2]), o->thin_chunk_size), "--lvm --lv-type thin as well" },
        { o->thin_zero != NULL, o->lvm, "--thin-zero", o->thin_zero, "--lvm --lv-type thin as well" },
        { o->precondition_time != NULL, o->dims[VDC_DIM_PRECONDITION].n > 0, "--precondition-time",
          o->precondition_time, "--precondition on as well" },
        { o->vg != NULL, o->lvm || dom0_lvm, "--vg", o->vg,
          "an LV target as well (--lvm, or --dom0 on lvm)" },
        { o->stripes != 0, o->lvm || dom0_lvm, "--stripes", (g_snprintf(b[3], sizeof(b[3]), "%u", o->stripes), b[3]),
          "--lvm (or --dom0 with --vg) as well" },
        { o->lv_size != 0, o->lvm || dom0_lvm, "--lv-size", vdc_fmt_bytes(b[4], sizeof(b[4]), o->lv_size),
          "--lvm (or --dom0 with --vg) as well" },
        { o->size != 0, domu, "--size", vdc_fmt_bytes(b[5], sizeof(b[5]), o->size),
          "a domU target as well (--image, --lvm, --block, --target; the dom0 baseline's test file is --dom0-size)" },
        { o->dom0_on != NULL, o->dom0, "--dom0-on", o->dom0_on, "--dom0 as well" },
        { o->dom0_size != 0, o->dom0, "--dom0-size", vdc_fmt_bytes(b[6], sizeof(b[6]), o->dom0_size),
          "--dom0 as well" },
        { o->dom0_ram != 0, o->dom0, "--dom0-ram", (g_snprintf(b[7], sizeof(b[7]), "%u MiB", o->dom0_ram), b[7]),
          "--dom0 as well" },
        { o->dom0_memory_max != 0, o->dom0, "--dom0-memory-max",
          (g_snprintf(b[8], sizeof(b[8]), "%u MiB", o->dom0_memory_max), b[8]), "--dom0 as well" },
        { o->dom0_ram && o->dom0_memory_max, 0, "--dom0-ram", b[7],
          "no --dom0-memory-max (the agent in dom0 is told its cgroup's limit)" },
    };
    size_t i;

    /* a dimension given without a target kind it applies to */
    for (i = 0; i < vdc_n_dimensions; i++) {
        const vdc_dimension *d = &vdc_dimensions[i];
        int kinds = (o->image ? 1u << VDC_BACKING_IMAGE : 0) | (o->lvm ? 1u << VDC_BACKING_LVM : 0) |
                    (o->blocks || o->custom ? 1u << VDC_BACKING_BLOCK : 0);

        /* --image-alloc also says how the dom0 baseline's image is made */
        if (d->dim == VDC_DIM_IMAGE_ALLOC && dom0_image)
            continue;
        if (o->dims[d->dim].n && !(d->kinds & kinds)) {
            g_autofree char *given = vdc_dim_list_text(d, &o->dims[d->dim]);

            vdc_input_error("--%s %s: expected %s", d->option, given, d->orphan);
            return -1;
        }
    }
    for (i = 0; i < G_N_ELEMENTS(rules); i++)
        if (rules[i].given && !rules[i].needed) {
            vdc_input_error("%s %s: expected %s", rules[i].option, rules[i].value, rules[i].expected);
            return -1;
        }
    return 0;
}

/* The words vdc_agent_options (run/step.c) puts before --agent-options':
 * -s N -r N -f -q --drop-caches. */
#define AGENT_OWN_WORDS 7u

/* --agent-options, split on blanks as vdc_agent_options splits it, checked
 * by the agent's own parser (guest-agent/options.c) before anything is
 * made: an option vmdiskcmp sets itself (-d, --json, -s, --seed, ...) or a
 * bad value is refused in one line; the words must fit the control disk's
 * job (VDC_CTL_MAX_ARGS, each VDC_CTL_MAX_STRING bytes).  0, or -1 after
 * one vdc_input_error. */
static int
check_agent_options(const char *s)
{
    g_auto(GStrv) words = g_strsplit_set(s, " \t", -1);
    g_autoptr(GPtrArray) argv = g_ptr_array_new();
    char err[1024];
    size_t i;

    g_ptr_array_add(argv, (char *)"--agent-options");
    for (i = 0; words[i]; i++) {
        if (!*words[i])
            continue;
        if (strlen(words[i]) >= VDC_CTL_MAX_STRING) {
            vdc_input_error("--agent-options: a word of %zu bytes: expected at most %u",
                            strlen(words[i]), VDC_CTL_MAX_STRING - 1);
            return -1;
        }
        g_ptr_array_add(argv, words[i]);
    }
    if (argv->len - 1 > VDC_CTL_MAX_ARGS - AGENT_OWN_WORDS) {
        vdc_input_error("--agent-options: %u words: expected at most %u", argv->len - 1,
                        VDC_CTL_MAX_ARGS - AGENT_OWN_WORDS);
        return -1;
    }
    g_ptr_array_add(argv, NULL);
    if (agent_options_check_extra((int)argv->len - 1, (char **)argv->pdata, err, sizeof(err)) < 0) {
        vdc_input_error("--agent-options '%s': %s", s, err);
        return -1;
    }
    return 0;
}

/* The characters an xl disk spec gives a meaning to (xl-disk-configuration:
 * ',' separates, ':' and '=' name a prefix or a key), the quotes that
 * delimit an xl.cfg string and its escape character. */
#define XL_SPEC_CHARS ",:=\"'\\"
/* those of an xl.cfg string alone */
#define XL_CFG_CHARS "\"'\\"

/* vdc_check_path_text with @also (xl's characters) when @xl */
static int
check_path(const char *opt, const char *path, int xl, const char *also)
{
    return vdc_check_path_text(opt, path, xl ? also : NULL,
                               strchr(also ? also : "", ',')
                                   ? " or any of , : = \" ' \\ (an xl disk spec's or xl.cfg's own characters, "
                                     "xl-disk-configuration)"
                                   : " or any of \" ' \\ (xl.cfg's string characters)");
}

/* options.h */
int
vdc_run_opts_check_paths(const vdc_run_opts *o, int xl)
{
    /* the paths a domU's disks are made of (xl disk specs), xl.cfg's
     * quoted strings (kernel, ramdisk) and the rest (a template only read
     * here, dom0's device) */
    const struct { const char *opt, *path, *xl_also; } in[] = {
        { "--image-dir", o->image_dir, XL_SPEC_CHARS },
        { "--cache-dir", o->cache_dir, XL_SPEC_CHARS },
        { "--prepared-image", o->prepared_image, XL_SPEC_CHARS },
        { "--out", o->out, XL_SPEC_CHARS },     /* the control disk is OUT/control.img */
        { "--guest-image", o->guest_image, NULL },
        { "--kernel", o->kernel, XL_CFG_CHARS },
        { "--initrd", o->initrd, XL_CFG_CHARS },
        { "--dom0-on", o->dom0_on, NULL },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(in); i++)
        if (in[i].path && check_path(in[i].opt, in[i].path, xl, in[i].xl_also) < 0)
            return -1;
    for (i = 0; o->blocks && o->blocks[i]; i++)
        if (check_path("--block", o->blocks[i], xl, XL_SPEC_CHARS) < 0)
            return -1;
    for (i = 0; o->custom && o->custom[i]; i++) {
        const char *eq = strchr(o->custom[i], '=');

        if (check_path("--target", eq ? eq + 1 : o->custom[i], xl, XL_SPEC_CHARS) < 0)
            return -1;
    }
    return 0;
}

void
vdc_run_opts_init(vdc_run_opts *o)
{
    memset(o, 0, sizeof(*o));
    o->heartbeat_timeout = VDC_HEARTBEAT_TIMEOUT_DEFAULT;
}

void
vdc_run_opts_dispose(vdc_run_opts *o)
{
    vdc_opts_spec spec = run_spec();

    vdc_opts_dispose(&spec, o);
}

int
vdc_run_opts_parse(vdc_run_opts *o, int argc, char **argv)
{
    vdc_opts_spec spec = run_spec();
    vdc_opts_result r = vdc_opts_parse(&spec, o, argc, argv, NULL, NULL);
    size_t i;

    if (r != VDC_OPTS_OK)
        return r;
    if (vdc_run_opts_check_paths(o, o->hypervisor && !strcmp(o->hypervisor, "libxl")) < 0)
        return -1;
    if (o->heartbeat_timeout && o->heartbeat_timeout < VDC_HEARTBEAT_TIMEOUT_MIN) {
        vdc_input_error("--heartbeat-timeout '%u': expected 0 (off) or %u to 604800 seconds (the runner beats every 5 s)",
                        o->heartbeat_timeout, VDC_HEARTBEAT_TIMEOUT_MIN);
        return -1;
    }
    if (o->stripe_size && o->stripes < 2) {
        char b[32];

        vdc_input_error("--stripe-size %s: expected --stripes N with N >= 2 as well",
                        vdc_fmt_bytes(b, sizeof(b), o->stripe_size));
        return -1;
    }
    if (o->stripe_size && ((o->stripe_size & (o->stripe_size - 1)) || o->stripe_size < STRIPE_SIZE_MIN)) {
        char b[32];

        vdc_input_error("--stripe-size %s: expected a power of two of at least 4 KiB (e.g. 64K; "
                        "a bare number is MiB)", vdc_fmt_bytes(b, sizeof(b), o->stripe_size));
        return -1;
    }
    if (o->vg) {   /* LVM's own rule for VG names (lvm(8) "VALID NAMES") */
        size_t k, n = strlen(o->vg);

        for (k = 0; k < n && (g_ascii_isalnum(o->vg[k]) || strchr("+_.-", o->vg[k])); k++)
            ;
        if (!n || k < n || n > 127 || o->vg[0] == '-' || !strcmp(o->vg, ".") || !strcmp(o->vg, "..")) {
            vdc_input_error("--vg '%s': expected a VG name of 1-127 of [A-Za-z0-9+_.-], not starting with '-'",
                      o->vg);
            return -1;
        }
    }
    {
        const char *const given[] = { o->blkback_max_ring_page_order, o->blkback_max_queues };
        const char *const names[] = { "--blkback-max-ring-page-order", "--blkback-max-queues" };

        for (i = 0; i < G_N_ELEMENTS(given); i++)
            if (given[i] && !g_ascii_string_to_unsigned(given[i], 10, 0, 65535, NULL, NULL)) {
                vdc_input_error("%s '%s': expected a decimal number", names[i], given[i]);
                return -1;
            }
    }
    if ((o->blocks || o->custom) && !o->consent) {
        vdc_input_error("--block/--target: expected --destroy-data as consent to overwrite the device");
        return -1;
    }
    if (o->precision) {
        char *end = NULL;
        double v = g_ascii_strtod(o->precision, &end);

        if (!*o->precision || *end || strspn(o->precision, "0123456789.") != strlen(o->precision) ||
            !(v >= 0.1 && v <= 50)) {
            vdc_input_error("--precision '%s': expected a percentage from 0.1 to 50", o->precision);
            return -1;
        }
    }
    if ((o->max_runs || o->precision) && o->runs != VDC_OPT_WORD) {
        vdc_input_error("--%s: expected --runs auto as well", o->max_runs ? "max-runs" : "precision");
        return -1;
    }
    if (o->runs == VDC_OPT_WORD && o->order && !strcmp(o->order, "grouped")) {
        vdc_input_error("--runs auto: expected --order rotated or interleaved (a repetition of every target at a time)");
        return -1;
    }
    if (o->tests) {
        g_auto(GStrv) t = g_strsplit(o->tests, ",", -1);
        int wl = g_strv_contains((const char *const *)t, "workloads");

        for (i = 0; t[i]; i++)
            if (g_strv_contains((const char *const *)t + i + 1, t[i])) {
                vdc_input_error("--tests '%s': '%s' given twice: expected each of bonnie|workloads at most once",
                                o->tests, t[i]);
                return -1;
            }
        if (wl && !o->workloads) {
            vdc_input_error("--tests %s: expected --workload NAME|FILE as well", o->tests);
            return -1;
        }
        if (!wl && o->workloads) {
            vdc_input_error("--workload %s: expected --tests with workloads (e.g. --tests bonnie,workloads), not --tests %s",
                            o->workloads[0], o->tests);
            return -1;
        }
    }
    if (o->workload_on) {
        g_auto(GStrv) on = g_strsplit(o->workload_on, ",", -1);

        for (i = 0; on[i]; i++)
            if (g_strv_contains((const char *const *)on + i + 1, on[i])) {
                vdc_input_error("--workload-on '%s': '%s' given twice: expected each of file|raw at most once",
                                o->workload_on, on[i]);
                return -1;
            }
        if (!o->workloads) {
            vdc_input_error("--workload-on %s: expected --workload NAME|FILE as well", o->workload_on);
            return -1;
        }
    }
    for (i = 0; o->workloads && o->workloads[i]; i++) {
        g_auto(GStrv) items = g_strsplit(o->workloads[i], ",", -1);
        size_t k;

        for (k = 0; items[k] || k == 0; k++)
            if (!items[k] || !*items[k]) {
                vdc_input_error("--workload '%s': expected a profile name or a job file (a comma list: no empty entry)",
                                o->workloads[i]);
                return -1;
            }
    }
    if (o->seed) {
        const char *s = o->seed;
        if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 20 ||
            (strlen(s) == 20 && strcmp(s, "18446744073709551615") > 0)) {
            vdc_input_error("--seed '%s': expected a decimal integer from 0 to 18446744073709551615", s);
            return -1;
        }
    }
    if (o->custom)
        for (i = 0; o->custom[i]; i++) {
            const char *eq = strchr(o->custom[i], '=');
            /* the control disk carries target names of 1-64 bytes
             * (doc/control-disk.md): a longer one is refused here, not after
             * --out and a report exist */
            if (!eq || eq == o->custom[i] || eq[1] != '/' || eq - o->custom[i] > 64 ||
                strspn(o->custom[i], "abcdefghijklmnopqrstuvwxyz0123456789_-") != (size_t)(eq - o->custom[i])) {
                vdc_input_error("--target '%s': expected NAME=/dev/DEVICE with NAME of 1-64 of [a-z0-9_-]",
                          o->custom[i]);
                return -1;
            }
        }
    if (o->agent_options && check_agent_options(o->agent_options) < 0)
        return -1;
    if (o->blocks)
        for (i = 0; o->blocks[i]; i++)
            if (o->blocks[i][0] != '/') {
                vdc_input_error("--block '%s': expected an absolute device path such as /dev/sdb1",
                          o->blocks[i]);
                return -1;
            }
    return check_orphans(o);
}

void
vdc_run_opts_help(FILE *f)
{
    vdc_opts_spec spec = run_spec();

    vdc_opts_help(&spec, f);
}
