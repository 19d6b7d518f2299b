/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal to src/model: member tables that map the JSON members of
 * doc/result-format.md onto the C structs of result.h.  One table per JSON
 * object drives init, dispose, copy (result_fields.c), load
 * (result_load.c) and save (result_save.c), so a member is named once. */
#ifndef VDC_MODEL_RESULT_FIELDS_H
#define VDC_MODEL_RESULT_FIELDS_H

#include <stddef.h>

#include "model/result.h"

typedef enum {
    VDC_F_STR,   /* char *, NULL absent */
    VDC_F_INT,   /* int64_t, VDC_INT_ABSENT absent */
    VDC_F_NUM,   /* double, NAN absent */
    VDC_F_BOOL,  /* int tri-state, VDC_BOOL_ABSENT absent */
    VDC_F_FLAG,  /* int 0/1, absent reads as 0, always written */
    VDC_F_OBJ,   /* embedded struct described by sub */
} vdc_field_type;

enum {
    VDC_FF_REQUIRED = 1 << 0,  /* loading fails when missing */
    VDC_FF_NULLABLE = 1 << 1,  /* JSON null accepted (= absent) */
    VDC_FF_WRITE_NULL = 1 << 2, /* written as null when absent */
    VDC_FF_NONNEG = 1 << 3,    /* numbers must be >= 0 */
    VDC_FF_LONG = 1 << 4,      /* strings up to VDC_RESULT_LONG_STRING_MAX bytes
                                * (command lines, XML), not VDC_RESULT_STRING_MAX */
};

typedef struct vdc_field {
    const char *name;
    vdc_field_type type;
    size_t off;
    const struct vdc_field *sub;  /* VDC_F_OBJ */
    unsigned flags;
    double max;                   /* VDC_F_NUM: largest magnitude accepted at load;
                                   * 0: VDC_NUMBER_MAX (result.h, physical bounds) */
} vdc_field;

/* Table entries: a member, an embedded object, the end. */
#define F(type_, struct_, member_, json_, flags_) \
    { .name = json_, .type = type_, .off = offsetof(struct_, member_), .flags = flags_ }
/* A number with its own bound (a unit whose physical bound is above
 * VDC_NUMBER_MAX, e.g. bytes) */
#define FMAX(type_, struct_, member_, json_, flags_, max_) \
    { .name = json_, .type = type_, .off = offsetof(struct_, member_), .flags = flags_, .max = max_ }
#define O(struct_, member_, json_, sub_) \
    { .name = json_, .type = VDC_F_OBJ, .off = offsetof(struct_, member_), .sub = sub_ }
#define END { .name = NULL }

#define NN VDC_FF_NONNEG
#define NUL (VDC_FF_NULLABLE | VDC_FF_WRITE_NULL)

/* Tables end with an entry whose name is NULL. */
extern const vdc_field vdc_sample_fields[];
extern const vdc_field vdc_run_fields[];      /* without "samples" */
extern const vdc_field vdc_target_fields[];
extern const vdc_field vdc_experiment_fields[];   /* without runs_policy.stop */
extern const vdc_field vdc_stop_record_fields[];  /* one of experiment.runs_policy.stop */
extern const vdc_field vdc_level_record_fields[]; /* one of experiment.levels, without host */
extern const vdc_field vdc_workload_fields[];     /* a sample's workload, without
                                                    * iops_series.values */
/* the objects the controller also fills from its drivers' JSON */
extern const vdc_field vdc_backend_fields[];      /* targets[].backend */
extern const vdc_field vdc_storage_fields[];      /* targets[].storage */
extern const vdc_field vdc_cache_fields[];        /* targets[].cache */
extern const vdc_field vdc_variant_fields[];      /* targets[].variant */
extern const vdc_field vdc_hypervisor_fields[];   /* experiment.hypervisor */

void vdc_fields_init(const vdc_field *fields, void *obj);
void vdc_fields_dispose(const vdc_field *fields, void *obj);
void vdc_fields_copy(const vdc_field *fields, void *dst, const void *src);

/* experiment.levels[] copied from @src onto @dst's (result_levels.c; freed
 * by vdc_experiment_levels_dispose, result.h). */
void vdc_experiment_levels_copy(vdc_experiment *dst, const vdc_experiment *src);

/* "target\nlevel\nguest" of @r: the runs whose repetitions are numbered
 * together (loader, merge; g_free). */
char *vdc_run_who(const vdc_run *r);

/* Append an initialised, empty run (no target, repetition absent). */
vdc_run *vdc_result_set_append_run(vdc_result_set *rs);

#endif
