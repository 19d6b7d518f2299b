#include "config.h"
#include "plan/options.h"

#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "stats/paired.h"

typedef enum {
    OPT_FLAG,       /* int, set to 1 */
    OPT_STR,        /* char *, replaced */
    OPT_STRV,       /* char **, appended (repeatable) */
    OPT_ENUM,       /* char *, one of .choices */
    OPT_LIST,       /* char *, comma list of .choices */
    OPT_UINT,       /* unsigned, decimal, within [.min, .max] */
    OPT_SIZE,       /* uint64_t bytes, N[KMGT], bare N in MiB */
} opt_type;

typedef struct {
    const char *name;
    opt_type type;
    size_t off;                 /* offsetof(vdc_run_opts, member) */
    const char *metavar;
    const char *choices;        /* "a|b|c" for ENUM and LIST */
    unsigned min, max;          /* UINT */
    const char *word;           /* UINT: a word accepted instead, stored as VDC_OPT_WORD */
    const char *def;            /* default, for --help */
    const char *help;
    char short_name;            /* one-letter alias (e.g. 'q'), or 0 */
} opt_def;

#define O(m) offsetof(vdc_run_opts, m)

/* The one options table: getopt_long's table, validation and --help are
 * all generated from it. */
static const opt_def opt_table[] = {
    { .name = "image", .type = OPT_FLAG, .off = O(image),
      .help = "benchmark a scratch file image attached to the domU" },
    { .name = "lvm", .type = OPT_FLAG, .off = O(lvm),
      .help = "benchmark a scratch LV (in --vg) attached to the domU" },
    { .name = "dom0", .type = OPT_FLAG, .off = O(dom0),
      .help = "run the agent in dom0 itself as the baseline" },
    { .name = "block", .type = OPT_STRV, .off = O(blocks), .metavar = "DEV",
      .help = "benchmark an existing block device (needs --destroy-data); repeatable" },
    { .name = "target", .type = OPT_STRV, .off = O(custom), .metavar = "NAME=DEV",
      .help = "a named block-device target (needs --destroy-data); repeatable" },
    { .name = "destroy-data", .type = OPT_FLAG, .off = O(consent),
      .help = "consent: --block/--target devices are overwritten (signatures still refused)" },
    { .name = "vg", .type = OPT_STR, .off = O(vg), .metavar = "VG",
      .help = "volume group for --lvm (and for the dom0 baseline LV)" },
    { .name = "lv-size", .type = OPT_SIZE, .off = O(lv_size), .metavar = "SIZE",
      .def = "test size + 25% + 64 MiB", .help = "size of each LV (and image) we create" },
    { .name = "stripes", .type = OPT_UINT, .off = O(stripes), .metavar = "N", .min = 1, .max = 128,
      .def = "1", .help = "stripe the LV over N PVs (seed 002)" },
    { .name = "stripe-size", .type = OPT_SIZE, .off = O(stripe_size), .metavar = "SIZE",
      .help = "stripe size (power of two, e.g. 64K; needs --stripes)" },
    { .name = "image-dir", .type = OPT_STR, .off = O(image_dir), .metavar = "DIR",
      .def = "/var/lib/vmdiskcmp", .help = "directory for scratch images" },
    { .name = "image-format", .type = OPT_ENUM, .off = O(image_format), .choices = "raw|qcow2",
      .def = "raw", .help = "format of the scratch image" },
    { .name = "image-alloc", .type = OPT_ENUM, .off = O(image_alloc), .choices = "sparse|full",
      .def = "sparse", .help = "allocation of the scratch image" },
    { .name = "image-backend", .type = OPT_LIST, .off = O(image_backend),
      .choices = "auto|phy|qdisk|tap", .def = "auto",
      .help = "how the domU's image disk is served; a comma list runs each as its own target" },
    { .name = "image-cache", .type = OPT_LIST, .off = O(image_cache),
      .choices = "host|none", .def = "host",
      .help = "may dom0's page cache serve the domU's image (host) or not (none): requested and recorded; a comma list runs each as its own target" },
    { .name = "size", .type = OPT_SIZE, .off = O(size), .metavar = "SIZE",
      .def = "2x guest RAM", .help = "agent test file size in the domU (bare number: MiB)" },
    { .name = "dom0-size", .type = OPT_SIZE, .off = O(dom0_size), .metavar = "SIZE",
      .def = "2x dom0 RAM", .help = "agent test file size in dom0 (bare number: MiB)" },
    { .name = "dom0-on", .type = OPT_STR, .off = O(dom0_on), .metavar = "lvm|image|DEV",
      .def = "lvm with --vg, else image", .help = "where the dom0 baseline filesystem lives" },
    { .name = "runs", .type = OPT_UINT, .off = O(runs), .metavar = "N|auto", .min = 1, .max = 1000,
      .word = "auto", .def = "5",
      .help = "repetitions per target; auto: repeat until every headline test is precise (--precision), at most --max-runs" },
    { .name = "max-runs", .type = OPT_UINT, .off = O(max_runs), .metavar = "N", .min = VDC_RUNS_AUTO_MIN,
      .max = 1000, .def = G_STRINGIFY(VDC_RUNS_AUTO_MAX_DEFAULT), .help = "--runs auto: the most repetitions" },
    { .name = "precision", .type = OPT_STR, .off = O(precision), .metavar = "P",
      .def = "3", .help = "--runs auto: stop when the image/LV ratio's 95 % CI is within +-P % (0.1 to 50)" },
    { .name = "seed", .type = OPT_STR, .off = O(seed), .metavar = "N",
      .def = "random", .help = "master seed; repetition r of every target runs with seed+r" },
    { .name = "order", .type = OPT_ENUM, .off = O(order), .choices = "rotated|interleaved|grouped",
      .def = "rotated", .help = "A B H, H B A, B A H, H A B ... (seeded rotation against drift), A B H A B H ..., or A A B B ..." },
    { .name = "hypervisor", .type = OPT_ENUM, .off = O(hypervisor), .choices = "libxl|libvirt|mock",
      .def = "libxl in a Xen dom0, else libvirt", .help = "hypervisor driver (mock: tests only)" },
    { .name = "connect", .type = OPT_STR, .off = O(connect), .metavar = "URI",
      .def = "xen:///system or qemu:///system", .help = "libvirt connection URI" },
    { .name = "accel", .type = OPT_ENUM, .off = O(accel), .choices = "kvm|tcg",
      .def = "kvm", .help = "qemu:///system domain type: kvm, or tcg (software emulation)" },
    { .name = "guest-image", .type = OPT_STR, .off = O(guest_image), .metavar = "IMG",
      .help = "guest template (prepared with the agent by `vmdiskcmp prepare`)" },
    { .name = "prepared-image", .type = OPT_STR, .off = O(prepared_image), .metavar = "IMG",
      .help = "an image `vmdiskcmp prepare --out IMG` made (with IMG.manifest): no appliance launch, e.g. in the Xen lab" },
    { .name = "kernel", .type = OPT_STR, .off = O(kernel), .metavar = "FILE",
      .def = "from the template's manifest", .help = "domU kernel (direct boot)" },
    { .name = "initrd", .type = OPT_STR, .off = O(initrd), .metavar = "FILE",
      .def = "from the template's manifest", .help = "domU initrd" },
    { .name = "cmdline", .type = OPT_STR, .off = O(cmdline), .metavar = "STR",
      .def = "from the template's manifest", .help = "domU kernel command line" },
    { .name = "guest-memory", .type = OPT_UINT, .off = O(guest_memory), .metavar = "MiB",
      .min = 64, .max = 1048576, .def = "512", .help = "domU memory" },
    { .name = "guest-vcpus", .type = OPT_UINT, .off = O(guest_vcpus), .metavar = "N",
      .min = 1, .max = 128, .def = "1", .help = "domU vCPUs" },
    { .name = "timeout", .type = OPT_UINT, .off = O(timeout), .metavar = "SECONDS",
      .min = 10, .max = 604800, .def = "3600", .help = "per domain boot; a hung domU is destroyed" },
    { .name = "out", .type = OPT_STR, .off = O(out), .metavar = "DIR",
      .def = "results/DATE-HOST", .help = "result directory (must not exist)" },
    { .name = "cache-dir", .type = OPT_STR, .off = O(cache_dir), .metavar = "DIR",
      .def = "/var/cache/vmdiskcmp", .help = "prepared guest images" },
    { .name = "agent", .type = OPT_STR, .off = O(agent), .metavar = "FILE",
      .def = "installed vmdiskcmp-agent", .help = "static agent binary" },
    { .name = "runner", .type = OPT_STR, .off = O(runner), .metavar = "FILE",
      .def = "installed vmdiskcmp-runner", .help = "static in-guest runner binary" },
    { .name = "mkfs", .type = OPT_ENUM, .off = O(mkfs), .choices = "ext4|ext3|ext2|xfs",
      .def = "ext4", .help = "filesystem made on each target before each run" },
    { .name = "agent-options", .type = OPT_STR, .off = O(agent_options), .metavar = "OPTS",
      .help = "extra agent options, space separated (e.g. \"-n 0 -f\")" },
    { .name = "agent-ram", .type = OPT_UINT, .off = O(agent_ram), .metavar = "MiB",
      .min = 1, .max = 1048576, .def = "--guest-memory", .help = "agent -r in the domU" },
    { .name = "dom0-ram", .type = OPT_UINT, .off = O(dom0_ram), .metavar = "MiB",
      .min = 1, .max = 16777216, .def = "dom0 MemTotal", .help = "agent -r in dom0" },
    { .name = "emulated", .type = OPT_FLAG, .off = O(emulated),
      .help = "the host is emulated (the Xen lab): mark results as predicting nothing about hardware" },
    { .name = "inspect-on-failure", .type = OPT_FLAG, .off = O(inspect),
      .help = "after a hung or crashed domU, copy the guest's logs out of the root image (libguestfs, read-only; one appliance launch each)" },
    { .name = "no-drop-caches", .type = OPT_FLAG, .off = O(no_drop_caches),
      .help = "keep the page cache between tests (default: the agent drops it before each test, in the domU and in dom0, and dom0's before each boot)" },
    { .name = "keep", .type = OPT_FLAG, .off = O(keep),
      .help = "leave scratch storage for inspection (domains are always destroyed)" },
    { .name = "dry-run", .type = OPT_FLAG, .off = O(dry_run),
      .help = "print the plan, disk specs / domain XML and xl.cfg; create nothing" },
    { .name = "no-report", .type = OPT_FLAG, .off = O(no_report),
      .help = "write result.json only, no rendered report" },
    { .name = "quiet", .type = OPT_FLAG, .off = O(quiet), .short_name = 'q',
      .help = "no progress lines" },
    { .name = "help", .type = OPT_FLAG, .off = O(help), .help = "this text" },
};

void
vdc_run_opts_init(vdc_run_opts *o)
{
    memset(o, 0, sizeof(*o));
}

void
vdc_run_opts_dispose(vdc_run_opts *o)
{
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(opt_table); i++) {
        void *p = (char *)o + opt_table[i].off;
        if (opt_table[i].type == OPT_STR || opt_table[i].type == OPT_ENUM ||
            opt_table[i].type == OPT_LIST)
            g_clear_pointer((char **)p, g_free);
        else if (opt_table[i].type == OPT_STRV)
            g_clear_pointer((char ***)p, g_strfreev);
    }
}

static int
in_choices(const char *choices, const char *v)
{
    g_auto(GStrv) c = g_strsplit(choices, "|", -1);
    return g_strv_contains((const char *const *)c, v);
}

static int
set_option(vdc_run_opts *o, const opt_def *d, const char *arg)
{
    void *p = (char *)o + d->off;
    char *end = NULL;
    unsigned long v;

    switch (d->type) {
    case OPT_FLAG:
        *(int *)p = 1;
        return 0;
    case OPT_STR:
        if (!*arg) {
            vdc_error("--%s: expected a non-empty %s", d->name, d->metavar);
            return -1;
        }
        g_free(*(char **)p);
        *(char **)p = g_strdup(arg);
        return 0;
    case OPT_STRV: {
        char ***v = p;
        guint n = *v ? g_strv_length(*v) : 0;
        if (!*arg) {
            vdc_error("--%s: expected %s", d->name, d->metavar);
            return -1;
        }
        *v = g_renew(char *, *v, n + 2);
        (*v)[n] = g_strdup(arg);
        (*v)[n + 1] = NULL;
        return 0;
    }
    case OPT_ENUM:
        if (!in_choices(d->choices, arg)) {
            vdc_error("--%s '%s': expected one of %s", d->name, arg, d->choices);
            return -1;
        }
        g_free(*(char **)p);
        *(char **)p = g_strdup(arg);
        return 0;
    case OPT_LIST: {
        g_auto(GStrv) items = g_strsplit(arg, ",", -1);
        size_t i;
        if (!items[0]) {
            vdc_error("--%s '%s': expected a comma list of %s", d->name, arg, d->choices);
            return -1;
        }
        for (i = 0; items[i]; i++)
            if (!in_choices(d->choices, items[i])) {
                vdc_error("--%s '%s': expected a comma list of %s", d->name, arg, d->choices);
                return -1;
            }
        g_free(*(char **)p);
        *(char **)p = g_strdup(arg);
        return 0;
    }
    case OPT_UINT:
        errno = 0;
        if (d->word && !strcmp(arg, d->word)) {
            *(unsigned *)p = VDC_OPT_WORD;
            return 0;
        }
        v = strtoul(arg, &end, 10);
        if (!g_ascii_isdigit(arg[0]) || *end || errno || v < d->min || v > d->max) {
            vdc_error("--%s '%s': expected an integer from %u to %u%s%s", d->name, arg, d->min, d->max,
                      d->word ? " or " : "", d->word ? d->word : "");
            return -1;
        }
        *(unsigned *)p = (unsigned)v;
        return 0;
    case OPT_SIZE:
        if (vdc_parse_size(arg, 1ULL << 20, (uint64_t *)p) < 0 || *(uint64_t *)p == 0) {
            vdc_error("--%s '%s': expected a size such as 512M, 4G or a number of MiB", d->name, arg);
            return -1;
        }
        /* the agent's -s and the disks are whole MiB (a 1k --dom0-size used
         * to become `-s 0`: no sequential tests at all); at most 1 PiB keeps
         * the size arithmetic (+25 %, + 64 MiB) far from overflow */
        if (strcmp(d->name, "stripe-size") &&
            ((*(uint64_t *)p & ((1ULL << 20) - 1)) || *(uint64_t *)p > (1ULL << 50))) {
            vdc_error("--%s '%s': expected a whole number of MiB from 1M to 1024T", d->name, arg);
            return -1;
        }
        return 0;
    }
    return -1;
}

int
vdc_run_opts_parse(vdc_run_opts *o, int argc, char **argv)
{
    struct option lo[G_N_ELEMENTS(opt_table) + 1];
    /* "+" (stop at the first non-option) then the one-letter aliases */
    char shorts[1 + 2 * G_N_ELEMENTS(opt_table) + 1];
    size_t i, ns = 0;
    int c, idx;

    memset(lo, 0, sizeof(lo));
    shorts[ns++] = '+';
    for (i = 0; i < G_N_ELEMENTS(opt_table); i++) {
        lo[i].name = opt_table[i].name;
        lo[i].has_arg = opt_table[i].type == OPT_FLAG ? no_argument : required_argument;
        lo[i].val = 0x100 + (int)i;
        if (opt_table[i].short_name) {
            shorts[ns++] = opt_table[i].short_name;
            if (opt_table[i].type != OPT_FLAG)
                shorts[ns++] = ':';
        }
    }
    shorts[ns] = '\0';
    optind = 0;     /* full reinitialisation (glibc), so tests may parse twice */
    opterr = 0;
    for (;;) {
        idx = -1;
        c = getopt_long(argc, argv, shorts, lo, &idx);
        if (c == -1)
            break;
        for (i = 0; c > 0 && c < 0x100 && c != '?' && c != ':' && i < G_N_ELEMENTS(opt_table); i++)
            if (opt_table[i].short_name == c)
                c = 0x100 + (int)i;
        if (c == '?' || c == ':') {
            const char *bad = optind > 0 && argv[optind - 1] ? argv[optind - 1] : "?";

            if (optopt >= 0x100 && (size_t)(optopt - 0x100) < G_N_ELEMENTS(opt_table)) {
                const opt_def *d = &opt_table[optopt - 0x100];

                if (d->type == OPT_FLAG)        /* --dry-run=1 */
                    vdc_error("--%s: takes no value (found '%s')", d->name, bad);
                else
                    vdc_error("--%s: expected a value (%s)", d->name,
                              d->metavar ? d->metavar : d->choices ? d->choices : "see --help");
            } else if (optopt > 0 && optopt < 0x100) {
                /* a letter of a short cluster (-zq, -q=1): argv[optind - 1]
                 * may still be the argument before it */
                vdc_error("unknown option '-%c': expected one of the options in "
                          "'vmdiskcmp run --help'", optopt);
            } else {
                vdc_error("unknown option '%s': expected one of the options in "
                          "'vmdiskcmp run --help'", bad);
            }
            return -1;
        }
        if (set_option(o, &opt_table[c - 0x100], optarg) < 0)
            return -1;
    }
    if (optind < argc) {
        vdc_error("unexpected argument '%s': run takes options only", argv[optind]);
        return -1;
    }
    if (o->stripe_size && o->stripes < 2) {
        vdc_error("--stripe-size: expected --stripes N with N >= 2 as well");
        return -1;
    }
    if (o->stripe_size && (o->stripe_size & (o->stripe_size - 1))) {
        vdc_error("--stripe-size: expected a power of two");
        return -1;
    }
    if (o->lvm && !o->vg) {
        vdc_error("--lvm: expected --vg VG as well");
        return -1;
    }
    if (o->vg) {   /* LVM's own rule for VG names (lvm(8) "VALID NAMES") */
        size_t k, n = strlen(o->vg);

        for (k = 0; k < n && (g_ascii_isalnum(o->vg[k]) || strchr("+_.-", o->vg[k])); k++)
            ;
        if (!n || k < n || n > 127 || o->vg[0] == '-' || !strcmp(o->vg, ".") || !strcmp(o->vg, "..")) {
            vdc_error("--vg '%s': expected a VG name of 1-127 of [A-Za-z0-9+_.-], not starting with '-'",
                      o->vg);
            return -1;
        }
    }
    if ((o->blocks || o->custom) && !o->consent) {
        vdc_error("--block/--target: expected --destroy-data as consent to overwrite the device");
        return -1;
    }
    if (o->precision) {
        char *end = NULL;
        double v = g_ascii_strtod(o->precision, &end);

        if (!*o->precision || *end || strspn(o->precision, "0123456789.") != strlen(o->precision) ||
            !(v >= 0.1 && v <= 50)) {
            vdc_error("--precision '%s': expected a percentage from 0.1 to 50", o->precision);
            return -1;
        }
    }
    if ((o->max_runs || o->precision) && o->runs != VDC_OPT_WORD) {
        vdc_error("--%s: expected --runs auto as well", o->max_runs ? "max-runs" : "precision");
        return -1;
    }
    if (o->runs == VDC_OPT_WORD && o->order && !strcmp(o->order, "grouped")) {
        vdc_error("--runs auto: expected --order rotated or interleaved (a repetition of every target at a time)");
        return -1;
    }
    if (o->seed) {
        const char *s = o->seed;
        if (!*s || strspn(s, "0123456789") != strlen(s) || strlen(s) > 20 ||
            (strlen(s) == 20 && strcmp(s, "18446744073709551615") > 0)) {
            vdc_error("--seed '%s': expected a decimal integer from 0 to 18446744073709551615", s);
            return -1;
        }
    }
    if (o->custom)
        for (i = 0; o->custom[i]; i++) {
            const char *eq = strchr(o->custom[i], '=');
            if (!eq || eq == o->custom[i] || eq[1] != '/' ||
                strspn(o->custom[i], "abcdefghijklmnopqrstuvwxyz0123456789_-") != (size_t)(eq - o->custom[i])) {
                vdc_error("--target '%s': expected NAME=/dev/DEVICE with NAME of [a-z0-9_-]",
                          o->custom[i]);
                return -1;
            }
        }
    if (o->blocks)
        for (i = 0; o->blocks[i]; i++)
            if (o->blocks[i][0] != '/') {
                vdc_error("--block '%s': expected an absolute device path such as /dev/sdb1",
                          o->blocks[i]);
                return -1;
            }
    return 0;
}

void
vdc_run_opts_help(FILE *f)
{
    size_t i;

    fprintf(f, "usage: vmdiskcmp [run] [--image] [--lvm --vg VG] [--block DEV --destroy-data] [--dom0] [OPTIONS]\n\n");
    for (i = 0; i < G_N_ELEMENTS(opt_table); i++) {
        const opt_def *d = &opt_table[i];
        g_autofree char *lhs = NULL;
        if (d->type == OPT_FLAG && d->short_name)
            lhs = g_strdup_printf("-%c, --%s", d->short_name, d->name);
        else if (d->type == OPT_FLAG)
            lhs = g_strdup_printf("--%s", d->name);
        else
            lhs = g_strdup_printf("--%s %s", d->name, d->metavar ? d->metavar : d->choices);
        fprintf(f, "  %-34s %s", lhs, d->help);
        if (d->def)
            fprintf(f, " [%s]", d->def);
        fputc('\n', f);
    }
    fprintf(f, "\nExit status: 0 ok, 1 a run failed, 2 bad input, 3 interrupted.\n");
}
