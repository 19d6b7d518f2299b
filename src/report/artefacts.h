/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp artefact rules: what makes a published or measured number say
 * more about the measurement than about the disk.  One rule set for
 * imported and measured results alike, read by the analysis
 * (vdc_analysis_build, report/analysis.h), which turns each rule into a
 * flag bit of its cells (enum vdc_cell_flag, keywords in the one table of
 * vdc_cell_flag_name) with a one-line explanation naming the numbers; the
 * renderers only show them.  Pure functions of a result set: no I/O, no
 * rendering.
 *
 *   page-cache-write   a buffered dd write without conv=fdatasync/fsync,
 *                      oflag=direct/dsync/sync: dd timed the page cache
 *   dd-time-short      dd's own time much shorter than the command's real
 *                      time (the data was still being written, or waited for)
 *   above-ceiling      a rate above the stated plausible ceiling of the
 *                      device or link recorded for the target
 *   cached-reread      a read of a file smaller than the machine's RAM right
 *                      after writing it (bonnie's block read, a dd read of
 *                      the file a dd write just wrote)
 *   rounded-identical  identical values in every run of a cell: a zero-width
 *                      CI from rounding (bonnie++ 2.00a prints 1.4g), not a
 *                      steady disk
 *   dom0-page-cache    a domU test whose bytes were absorbed by dom0's page
 *                      cache, from the per-sample host evidence
 *                      (samples[].host: what reached the disk, dom0's Dirty
 *                      and Writeback, the image's residency)
 *   misaligned         a layer of the target's storage (partition, PV data,
 *                      LV extent, image cluster, filesystem block or stripe)
 *                      misaligned on the disk under it, as the controller
 *                      read it back and checked it (targets[].alignment,
 *                      src/host/alignment.h): every test of that target
 *   no-io-in-window    a job run that completed no I/O in its measured window
 *   thin-pool-full     the target's thin pool more than 90 % full (data or
 *                      metadata) after the runs, as the controller read it
 *                      back (targets[].storage.thin, vdc_target_thin_pool_full):
 *                      every test of that target
 *   guest-faster       a guest (domU) result faster than its host's
 *                      baseline (dom0 or the host) on the same test: it
 *                      needs the statistics, so the analysis decides it
 *                      (vdc_guest_faster_than_host); the host is
 *                      vdc_artefact_host_target.
 *
 * The exact conditions are in doc/report.md ("Artefacts"). */
#ifndef VDC_REPORT_ARTEFACTS_H
#define VDC_REPORT_ARTEFACTS_H

#include <stddef.h>
#include <stdint.h>

#include "model/result.h"

/* A stated plausible ceiling: no rate of @name (a target name, or a device
 * path recorded in a run's metadata.device / a target's storage.device or
 * backend.physical_device) can be above @mib_s MiB/s (a disk's datasheet
 * rate, a link's rate: 1 Gbit/s = 119.2 MiB/s). */
typedef struct {
    const char *name;
    double mib_s;
} vdc_artefact_ceiling;

typedef struct vdc_artefact_options {
    const vdc_artefact_ceiling *ceilings;  /* may be NULL; borrowed */
    size_t n_ceilings;
    double dd_time_ratio;    /* dd-time-short when dd's time < this x real (0.5) */
    double dd_time_min_s;    /* ... and real - dd's time >= this (0.5 s) */
    double guest_margin;     /* guest-faster when the guest's mean is more than this
                              * fraction above the host's (0.05), outside the CI */
    const char *host_target; /* the host baseline's target; NULL: the one target whose
                              * where is dom0 (else host) */
} vdc_artefact_options;

/* The defaults above.  Safe to call twice. */
void vdc_artefact_options_init(vdc_artefact_options *o);

/* The rules that read the runs of one (@target, @test_key) of @rs:
 * page-cache-write, dd-time-short, above-ceiling, cached-reread,
 * rounded-identical, dom0-page-cache, misaligned, no-io-in-window,
 * thin-pool-full.  Returns their VDC_CELL_* bits (report/analysis.h);
 * for each bit set, why[its bit index] gets the explanation (g_free), the
 * other entries are left as they are.  @o NULL: the defaults.  Never
 * fails. */
unsigned vdc_artefacts_of_cell(const vdc_result_set *rs, const char *target, const char *test_key,
                               const vdc_artefact_options *o, char **why);
/* The same; for the rules that judge each run (dom0-page-cache), the runs
 * flagged and the runs judged go to runs_flagged[bit index] and
 * runs_judged[bit index] (arrays of VDC_CELL_FLAG_COUNT; may be NULL). */
unsigned vdc_artefacts_of_cell_counted(const vdc_result_set *rs, const char *target,
                                       const char *test_key, const vdc_artefact_options *o,
                                       char **why, size_t *runs_flagged, size_t *runs_judged);

/* The host baseline of the guest-faster rule: @o->host_target, else the
 * one target of @rs whose where is "dom0", else the one whose where is
 * "host"; NULL when there is none or two (no single baseline).  Borrowed
 * from @o or @rs. */
const char *vdc_artefact_host_target(const vdc_result_set *rs, const vdc_artefact_options *o);

/* The RAM that can cache run @r's test file, MiB: the larger of what the
 * tool was told (metadata.ram_mib, bonnie++'s -r) and the memory of the
 * machine it ran in (vdc_target_machine_memory of its target); 0 when
 * neither is known.  The one rule of the under-2x-ram flag and warning and
 * of cached-reread. */
int64_t vdc_cache_ram_mib(const vdc_result_set *rs, const vdc_run *r);

#endif
