/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The density levels of a run (--guests N[,N...]): at level N, N
 * identical domUs of one domU target are booted together, each with its
 * own image or LV (guest k's copy of the target), their agents released at
 * one instant.  A level is not a variant of a target (it is recorded per
 * run: runs[].level, runs[].guest, doc/result-format.md), so it is a
 * dimension of the schedule beside the target matrix (plan/dims.h), parsed
 * the same way: a comma list, each value once.
 *
 * What a level needs at once, and whether it fits the host, is decided
 * here before anything is created (--dry-run included).  Pure: the host's
 * facts come in as arguments. */
#ifndef VDC_PLAN_LEVELS_H
#define VDC_PLAN_LEVELS_H

#include <stddef.h>
#include <stdint.h>

#include <json-glib/json-glib.h>

#include "plan/plan.h"

/* The most guests of one level on one host. */
#define VDC_GUESTS_MAX 64
/* What one domU costs the host beyond its --guest-memory, MiB: a QEMU
 * process and its page tables (KVM/TCG), or Xen's per-domain overhead and
 * shadow/p2m memory; a round figure on the safe side (a guest of 512 MiB
 * runs in QEMU at about 600 MiB of RSS). */
#define VDC_GUEST_OVERHEAD_MIB 64u

/* Parse --guests' comma list @arg into @out (values in the order given,
 * each once, 1 to VDC_GUESTS_MAX).  0, or -1 after one vdc_input_error:
 * "--guests '0,3': expected a comma list of integers from 1 to 64",
 * "--guests '3,3': '3' given twice: expected each level at most once". */
int vdc_guests_parse(const char *arg, vdc_dim_list *out);

/* The option table entry of --guests (type VDC_OPT_CALL) for the member
 * at @off (a vdc_dim_list) of the options struct. */
struct vdc_opt;
void vdc_guests_opt(size_t off, struct vdc_opt *out);

/* The largest level of @p: its largest --guests value, or 1 without. */
unsigned vdc_plan_max_guests(const vdc_plan *p);

/* What level @guests of @p needs at once: RAM, MiB, @guests x
 * (memory_mib + VDC_GUEST_OVERHEAD_MIB) (a level boots one target's N
 * guests at a time); image bytes, @guests x disk_bytes summed over every
 * domU image target (each target's copies are there at once); LV bytes
 * likewise over the LV targets.  The copies are made once for the largest
 * level and kept for the smaller ones, so the room checks count
 * vdc_plan_max_guests copies. */
typedef struct {
    unsigned guests;
    uint64_t ram_mib;
    uint64_t image_bytes;
    uint64_t lv_bytes;
} vdc_level_need;
void vdc_plan_level_need(const vdc_plan *p, unsigned guests, vdc_level_need *out);

/* Whether every level of @p fits a host with @avail_mib of memory free for
 * domUs (0: not known, not checked), that is whether its largest level
 * does: 0, or -1 after one vdc_input_error naming the largest level
 * "--guests 8: level 8 needs 4608 MiB of RAM (8 domUs x (512 MiB +
 * 64 MiB overhead)), the host has 3900 MiB available (MEMSOURCE): expected
 * --guests at most 6, or less --guest-memory" ("expected less
 * --guest-memory" when not one guest fits).  @mem_source says where
 * @avail_mib came from ("MemAvailable"). */
int vdc_plan_check_levels(const vdc_plan *p, uint64_t avail_mib, const char *mem_source);

/* The name of guest @k's domain at a level: "DOMAIN-gK" (g_free). */
char *vdc_plan_guest_domain(const vdc_plan *p, unsigned k);

/* Guest @k's copy of target @t's storage: its path with "-gK" before the
 * extension (an image "vmdiskcmp-ID-image.raw" -> "vmdiskcmp-ID-image-g1.raw",
 * an LV "/dev/vg/vmdiskcmp-ID-lvm" -> "/dev/vg/vmdiskcmp-ID-lvm-g1");
 * guest 0 keeps the target's own path.  NULL for a target without one
 * (g_free). */
char *vdc_plan_guest_path(const vdc_plan_target *t, unsigned k);

/* plan.json's "guests" (the levels as given) and "levels" ([{guests,
 * ram_mib, image_bytes, lv_bytes, domains: [names]}], vdc_plan_level_need)
 * members, written into the object @b is building; nothing without
 * --guests. */
void vdc_plan_levels_json(JsonBuilder *b, const vdc_plan *p);

/* The --dry-run lines of the levels: per level, its domains and what it
 * needs, appended to @s; nothing without --guests. */
void vdc_plan_levels_text(const vdc_plan *p, GString *s);

#endif
