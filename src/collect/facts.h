/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Host and reproduction facts of a run (src/run/facts.c): what a reader
 * needs to rebuild the setup, recorded in result.json experiment.build,
 * .host and .guest (doc/result-format.md), and the host facts the plan's
 * defaults depend on (RAM, Xen dom0 or not).  Every fact is best-effort: a file that
 * is missing or unreadable leaves its member absent, never an error. */
#ifndef VDC_COLLECT_FACTS_H
#define VDC_COLLECT_FACTS_H

#include "model/result.h"

/* Pure parsers (unit-tested; no I/O). */

/* The selected scheduler of a sysfs queue/scheduler text: "none
 * [mq-deadline] kyber\n" -> "mq-deadline"; a lone name without brackets
 * ("none\n", older kernels) -> that name.  NULL when nothing is selected
 * or the text is empty.  g_free(). */
char *vdc_sysfs_scheduler_selected(const char *text);

/* Find in /proc/self/mountinfo text @mountinfo the mount holding @real_path
 * (an absolute path with no symlinks) on device @major:@minor: the line
 * with that "MAJ:MIN" (field 3) whose mount point (field 5, octal escapes
 * undone) is the longest prefix of @real_path.  Sets *fs_type (field after
 * "-") and *source (the one after it, e.g. "/dev/sda2"; g_free both).
 * Returns 0, or -1 when no line matches (outputs untouched, no message). */
int vdc_mountinfo_lookup(const char *mountinfo, unsigned major, unsigned minor,
                         const char *real_path, char **fs_type, char **source);

/* Gatherers (read /proc, /sys, run mkfs -V). */

/* Host facts for result.json experiment.host: hostname, uname -r,
 * /proc/cpuinfo model name, CPU count, MemTotal, cpufreq governor of cpu0
 * (absent when there is no cpufreq). */
void vdc_host_facts(vdc_host_info *info);
/* MemTotal in MiB (0 when /proc/meminfo cannot tell) */
unsigned vdc_host_ram_mib(void);
/* 1 when this host is a Xen dom0 (/proc/xen/capabilities says control_d) */
int vdc_host_is_xen_dom0(void);

/* /proc/cmdline into @info->cmdline; the image directory @dir (NULL: none)
 * into @info->image_dir (see vdc_image_dir_facts); `mkfs.@mkfs -V` first
 * line into @info->mkfs_version (@mkfs NULL: not run). */
void vdc_host_repro_facts(vdc_host_info *info, const char *dir, const char *mkfs);

/* Filesystem type and block device of @dir (mountinfo), and that device's
 * queue facts from /sys/dev/block/MAJ:MIN (the whole disk's queue for a
 * partition): rotational, scheduler, device/model, logical and physical
 * block size in bytes. */
void vdc_image_dir_facts(vdc_image_dir_info *d, const char *dir);

/* The guest's boot facts: kernel and initrd paths with their sha256 (hex;
 * absent when the file cannot be read) and the kernel command line. */
void vdc_guest_boot_facts(vdc_guest_info *g, const char *kernel, const char *initrd,
                          const char *cmdline);

/* VDC_BUILD_ID (configure: git describe --always --dirty), or NULL when
 * vmdiskcmp was not built from a git checkout. */
const char *vdc_build_id(void);

#endif
