/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp renderers: the metadata of a report, what is needed to rerun
 * the experiment ("How to reproduce"), and the text of what was read back
 * about each target's backend, cache and placement. */
#ifndef VDC_REPORT_RENDER_META_H
#define VDC_REPORT_RENDER_META_H

#include <glib.h>

#include "model/result.h"
#include "report/analysis.h"

/* experiment.emulated is true */
int vdc_experiment_emulated(const vdc_result_set *rs);

/* What is needed to rerun the experiment, as label/value pairs in one
 * NULL-terminated vector (g_strfreev): experiment, host, hypervisor,
 * guest, per-target backend and storage, per-run tool and sizes, the
 * statistics settings.  Absent members are left out. */
char **vdc_metadata_lines(const vdc_result_set *rs, const struct vdc_analysis *a);

/* One line of targets[].placement: "3 ranges, 256.0 MiB on vda
 * (rotational), centre at 12.5 % of the disk (fiemap)"; NULL when none
 * (g_free). */
char *vdc_placement_text(const vdc_target *t);

/* One line of targets[].storage as read back: "qcow2 full: preallocation
 * full, cluster 64 KiB, L2 cache QEMU's default, 256.0 of 256.0 MiB mapped
 * at creation, 256.4 MiB on the host (read from qemu-img info)", "thin LV
 * lab/LV, PE start 1 MiB; pool P, chunk 64 KiB, zeroing on, discards
 * passdown, data 0.00 % before -> 93.75 % after, metadata 10.94 % before
 * -> 11.52 % after; OVER 90 % FULL after the runs (data 93.75 %) (read
 * from lvs)" (metadata only when some was read; the OVER clause when
 * vdc_target_thin_pool_full says so); NULL when neither a format nor an LV
 * type was recorded (g_free). */
char *vdc_storage_text(const vdc_target *t);
/* One line of targets[].alignment: the disk's sizes, each layer's offset
 * and unit; then, when the guest's filesystem layers were recorded, "in
 * the guest on DISK (its sizes):" and those layers; then "all aligned" or
 * "MISALIGNED: " and each misaligned layer's numbers; NULL when no layer
 * was recorded (g_free). */
char *vdc_alignment_text(const vdc_target *t);

/* The text report's block "Backend, cache and placement, read back after
 * boot": per target, its variant as planned (the matrix's values that made
 * it), what served it in the answer's words (vdc_knobs_served_text,
 * model/knobs.h; then the requested backend when another), the cache
 * (vdc_knobs_cache_text) and the placement lines it has (nothing when no
 * target has any).  Whose page cache: vdc_answer_host_word. */
void vdc_append_cache_text(GString *out, const vdc_result_set *rs);

#endif
