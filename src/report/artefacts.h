/* vmdiskcmp artefact rules: what makes a published or measured number say
 * more about the measurement than about the disk.  One rule set for
 * imported and measured results alike; a pure function of a result set
 * (runs, samples, metadata, targets): no I/O, no rendering.  Each rule
 * gives a flag bit, a keyword (for summary.csv's flags column) and a
 * one-line explanation with the numbers that triggered it.
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
 *   guest-faster       a guest (domU) result faster than its host's
 *                      baseline (dom0 or the host) on the same test
 *   rounded-identical  identical values in every run of a cell: a zero-width
 *                      CI from rounding (bonnie++ 2.00a prints 1.4g), not a
 *                      steady disk
 *
 * The report's flag mechanism (src/report/analysis.c) is where these are
 * meant to be attached to cells; this module only decides. */
#ifndef VDC_REPORT_ARTEFACTS_H
#define VDC_REPORT_ARTEFACTS_H

#include <stddef.h>

#include "model/result.h"

typedef enum {
    VDC_ARTEFACT_PAGE_CACHE_WRITE = 1u << 0,
    VDC_ARTEFACT_DD_TIME_SHORT = 1u << 1,
    VDC_ARTEFACT_ABOVE_CEILING = 1u << 2,
    VDC_ARTEFACT_CACHED_REREAD = 1u << 3,
    VDC_ARTEFACT_GUEST_FASTER = 1u << 4,
    VDC_ARTEFACT_ROUNDED_IDENTICAL = 1u << 5,
} vdc_artefact;

#define VDC_ARTEFACT_COUNT 6

/* A stated plausible ceiling: no rate of @name (a target name, or a device
 * path recorded in a run's metadata.device / a target's storage.device or
 * backend.physical_device) can be above @mib_s MiB/s (a disk's datasheet
 * rate, a link's rate: 1 Gbit/s = 119.2 MiB/s). */
typedef struct {
    const char *name;
    double mib_s;
} vdc_artefact_ceiling;

typedef struct {
    const vdc_artefact_ceiling *ceilings;  /* may be NULL */
    size_t n_ceilings;
    double dd_time_ratio;    /* dd-time-short when dd's time < this x real (0.5) */
    double dd_time_min_s;    /* ... and real - dd's time >= this (0.5 s) */
    double guest_margin;     /* guest-faster when guest mean > (1 + this) x host mean (0.05) */
    const char *host_target; /* the host baseline's target; NULL: the one target whose
                              * where is dom0 (else host) */
} vdc_artefact_options;

/* The defaults above. */
void vdc_artefact_options_init(vdc_artefact_options *o);

/* The flags of one (target, test key). */
typedef struct {
    char *target;
    char *test_key;          /* "get_block", "dd_write@65536" */
    unsigned flags;          /* vdc_artefact bits */
    char *reason[VDC_ARTEFACT_COUNT];   /* by bit index; NULL where not flagged */
} vdc_artefact_cell;

/* Keyword of one flag bit ("page-cache-write"); NULL for an unknown bit. */
const char *vdc_artefact_keyword(vdc_artefact a);

/* Decide every rule for @rs.  Returns a g_new array of *n cells, only the
 * flagged ones, in target then test-key order (vdc_result_set_target_names,
 * vdc_result_set_test_keys); NULL when *n == 0.  Never fails. */
vdc_artefact_cell *vdc_artefacts_find(const vdc_result_set *rs, const vdc_artefact_options *opt,
                                      size_t *n);

/* Free what vdc_artefacts_find returned. */
void vdc_artefacts_free(vdc_artefact_cell *cells, size_t n);

#endif
