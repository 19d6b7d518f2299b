/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host facts recorded in result.json (experiment.host) and the defaults
 * that depend on the host (RAM, Xen dom0 or not). */
#include "config.h"
#include "collect/facts.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <glib.h>

#include "common/child.h"
#include "common/util.h"
#include "guest/prepare.h"

static char *
cpuinfo_field(const char *field)
{
    g_autofree char *data = NULL;
    g_auto(GStrv) lines = NULL;
    size_t i;

    if (!g_file_get_contents("/proc/cpuinfo", &data, NULL, NULL))
        return NULL;
    lines = g_strsplit(data, "\n", -1);
    for (i = 0; lines[i]; i++) {
        char *colon = strchr(lines[i], ':');
        if (colon && g_str_has_prefix(lines[i], field)) {
            char *v = g_strstrip(g_strdup(colon + 1));
            return v;
        }
    }
    return NULL;
}

unsigned
vdc_host_ram_mib(void)
{
    g_autofree char *data = NULL;
    char *p;

    if (!g_file_get_contents("/proc/meminfo", &data, NULL, NULL))
        return 0;
    p = strstr(data, "MemTotal:");
    return p ? (unsigned)(g_ascii_strtoull(p + 9, NULL, 10) / 1024) : 0;
}

int
vdc_host_is_xen_dom0(void)
{
    g_autofree char *caps = NULL;

    return g_file_get_contents("/proc/xen/capabilities", &caps, NULL, NULL) &&
           strstr(caps, "control_d") != NULL;
}

void
vdc_host_facts(vdc_host_info *info)
{
    struct utsname u;
    g_autofree char *model = cpuinfo_field("model name");
    g_autofree char *gov = NULL;

    vdc_set_str(&info->hostname, g_get_host_name());
    if (uname(&u) == 0)
        vdc_set_str(&info->kernel, u.release);
    vdc_set_str(&info->cpu_model, model);
    info->cpu_count = sysconf(_SC_NPROCESSORS_ONLN);
    info->ram_mib = vdc_host_ram_mib();
    if (g_file_get_contents("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", &gov, NULL, NULL))
        vdc_set_str(&info->cpu_governor, g_strstrip(gov));
}

/* ---- reproduction facts (facts.h) ------------------------------------------- */

const char *
vdc_build_id(void)
{
#ifdef VDC_BUILD_ID
    return VDC_BUILD_ID;
#else
    return NULL;
#endif
}

char *
vdc_sysfs_scheduler_selected(const char *text)
{
    const char *open, *close;
    g_auto(GStrv) words = NULL;
    const char *one = NULL;
    size_t i, n = 0;

    if (!text)
        return NULL;
    open = strchr(text, '[');
    if (open) {
        close = strchr(open, ']');
        return close && close > open + 1 ? g_strndup(open + 1, close - open - 1) : NULL;
    }
    words = g_strsplit_set(text, " \t\n", -1);
    for (i = 0; words[i]; i++)
        if (*words[i]) {
            n++;
            one = words[i];
        }
    return n == 1 ? g_strdup(one) : NULL;
}

/* 1 when mount point @mnt holds @path (equal, or a prefix at a '/') */
static int
mount_point_holds(const char *mnt, const char *path)
{
    size_t n = strlen(mnt);

    if (!strcmp(mnt, "/"))
        return path[0] == '/';
    return !strncmp(mnt, path, n) && (path[n] == 0 || path[n] == '/');
}

int
vdc_mountinfo_lookup(const char *mountinfo, unsigned major, unsigned minor,
                     const char *real_path, char **fs_type, char **source)
{
    g_auto(GStrv) lines = g_strsplit(mountinfo ? mountinfo : "", "\n", -1);
    g_autofree char *want = g_strdup_printf("%u:%u", major, minor);
    size_t i, best_len = 0;
    int found = 0;

    for (i = 0; lines[i]; i++) {
        g_auto(GStrv) f = g_strsplit(lines[i], " ", -1);
        guint n = g_strv_length(f), k;
        g_autofree char *mnt = NULL;

        if (n < 10 || strcmp(f[2], want) != 0)
            continue;
        mnt = g_strcompress(f[4]);   /* "\040" -> " " */
        if (!mount_point_holds(mnt, real_path) || (found && strlen(mnt) < best_len))
            continue;
        for (k = 6; k < n && strcmp(f[k], "-"); k++)
            ;
        if (k + 2 >= n)
            continue;
        g_free(*fs_type);
        g_free(*source);
        *fs_type = g_strcompress(f[k + 1]);
        *source = g_strcompress(f[k + 2]);
        best_len = strlen(mnt);
        found = 1;
    }
    return found ? 0 : -1;
}

/* The first line of @path, stripped; NULL when unreadable or empty. */
static char *
read_first_line(const char *path)
{
    g_autofree char *data = NULL;
    char *nl;

    if (!g_file_get_contents(path, &data, NULL, NULL))
        return NULL;
    nl = strchr(data, '\n');
    if (nl)
        *nl = 0;
    g_strstrip(data);
    return *data ? g_steal_pointer(&data) : NULL;
}

static int64_t
sysfs_int(const char *queue_dir, const char *name)
{
    g_autofree char *path = g_build_filename(queue_dir, name, NULL);
    g_autofree char *line = read_first_line(path);
    char *end;
    gint64 v;

    if (!line)
        return VDC_INT_ABSENT;
    v = g_ascii_strtoll(line, &end, 10);
    return *end == 0 && v >= 0 ? v : VDC_INT_ABSENT;
}

/* /sys/dev/block/MAJ:MIN resolved; a partition's parent disk (its queue/
 * and device/ are the disk's).  NULL when sysfs has no such device
 * (tmpfs, overlay, btrfs' anonymous devices). */
static char *
sysfs_disk_dir(unsigned major, unsigned minor)
{
    g_autofree char *link = g_strdup_printf("/sys/dev/block/%u:%u", major, minor);
    g_autofree char *part = NULL;
    char real[PATH_MAX];

    if (!realpath(link, real))
        return NULL;
    part = g_build_filename(real, "partition", NULL);
    if (g_file_test(part, G_FILE_TEST_EXISTS))
        return g_path_get_dirname(real);
    return g_strdup(real);
}

static void
block_queue_facts(vdc_image_dir_info *d, unsigned major, unsigned minor)
{
    g_autofree char *disk = sysfs_disk_dir(major, minor);
    g_autofree char *queue = NULL, *sched_path = NULL, *sched = NULL, *model_path = NULL;
    g_autofree char *model = NULL, *sched_text = NULL;
    int64_t rot;

    if (!disk)
        return;
    queue = g_build_filename(disk, "queue", NULL);
    rot = sysfs_int(queue, "rotational");
    if (rot != VDC_INT_ABSENT)
        d->rotational = rot != 0;
    sched_path = g_build_filename(queue, "scheduler", NULL);
    if (g_file_get_contents(sched_path, &sched_text, NULL, NULL))
        sched = vdc_sysfs_scheduler_selected(sched_text);
    vdc_set_str(&d->scheduler, sched);
    model_path = g_build_filename(disk, "device", "model", NULL);
    model = read_first_line(model_path);
    vdc_set_str(&d->model, model);
    d->logical_block_size = sysfs_int(queue, "logical_block_size");
    d->physical_block_size = sysfs_int(queue, "physical_block_size");
}

void
vdc_image_dir_facts(vdc_image_dir_info *d, const char *dir)
{
    g_autofree char *mountinfo = NULL, *fs_type = NULL, *source = NULL;
    char real[PATH_MAX];
    struct stat sb;

    if (!dir || !realpath(dir, real) || stat(real, &sb) < 0)
        return;
    vdc_set_str(&d->path, real);
    if (g_file_get_contents("/proc/self/mountinfo", &mountinfo, NULL, NULL) &&
        vdc_mountinfo_lookup(mountinfo, major(sb.st_dev), minor(sb.st_dev), real, &fs_type,
                             &source) == 0) {
        vdc_set_str(&d->fs_type, fs_type);
        if (source[0] == '/')   /* "tmpfs", "overlay", "none": no device */
            vdc_set_str(&d->device, source);
    }
    block_queue_facts(d, major(sb.st_dev), minor(sb.st_dev));
}

/* First non-empty line `mkfs.TYPE -V` prints (e2fsprogs prints it on
 * stderr: "mke2fs 1.47.0 (5-Feb-2023)"); NULL when it cannot run or does
 * not answer within 10 s. */
static char *
mkfs_version(const char *type)
{
    g_autofree char *tool = g_strdup_printf("mkfs.%s", type);
    char *const argv[] = { tool, (char *)"-V", NULL };
    vdc_child_opts o = { .argv = argv, .timeout_ms = 10000, .out = VDC_CHILD_CAPTURE,
                         .err = VDC_CHILD_CAPTURE_APART };
    vdc_child_result r;
    g_auto(GStrv) lines = NULL;
    g_autofree char *all = NULL;
    size_t i;

    if (vdc_child_run(&o, &r) < 0)
        return NULL;
    if (!r.timed_out && !(r.exited && r.status == 127)) {
        all = g_strconcat(r.out, "\n", r.err, NULL);
        lines = g_strsplit(all, "\n", -1);
    }
    vdc_child_result_dispose(&r);
    for (i = 0; lines && lines[i]; i++)
        if (*g_strstrip(lines[i]))
            return g_strdup(lines[i]);
    return NULL;
}

void
vdc_host_repro_facts(vdc_host_info *info, const char *dir, const char *mkfs)
{
    g_autofree char *cmdline = read_first_line("/proc/cmdline");

    vdc_set_str(&info->cmdline, cmdline);
    vdc_image_dir_facts(&info->image_dir, dir);
    if (mkfs) {
        g_autofree char *v = mkfs_version(mkfs);
        vdc_set_str(&info->mkfs_version, v);
    }
}

/* sha256 of @path, or NULL (no message) when it is not a readable file */
static char *
file_sha256_if_readable(const char *path)
{
    if (!path || !g_file_test(path, G_FILE_TEST_IS_REGULAR) || access(path, R_OK) < 0)
        return NULL;
    return vdc_file_sha256(path);
}

void
vdc_guest_boot_facts(vdc_guest_info *g, const char *kernel, const char *initrd,
                     const char *cmdline)
{
    g_autofree char *k = file_sha256_if_readable(kernel);
    g_autofree char *i = file_sha256_if_readable(initrd);

    vdc_set_str(&g->kernel, kernel);
    vdc_set_str(&g->kernel_sha256, k);
    vdc_set_str(&g->initrd, initrd);
    vdc_set_str(&g->initrd_sha256, i);
    vdc_set_str(&g->cmdline, cmdline);
}
