/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The target matrix: the dimensions a run varies across its domU targets,
 * in one table (fio's options.c as the model) that drives the options'
 * parsing and --help, which kinds of target each applies to, the cross
 * product of their values, the targets' generated names, plan.json's
 * "variant" and "matrix", and the checks of a value against the
 * hypervisor.  Pure: nothing is read from the machine.
 *
 * A dimension is a member of vdc_target_spec (model/target.h: its enum,
 * its names, vdc_target_dim); a row here adds its option and its place in
 * the matrix.  Given as a comma list (--disk-cache none,writeback), each
 * value makes its own variant of every target kind the dimension applies
 * to; several dimensions make their cross product, the first row
 * outermost.  A target's name is its kind's base name ("image", "lvm",
 * "block") followed by '-' and the short name of each of its values, in
 * table order, where the value is not the dimension's default and its
 * short name is not empty: image, image-qdisk-nocache, image-none-uring,
 * lvm-wb-native (doc/controller.md, "The target matrix"). */
#ifndef VDC_PLAN_DIMS_H
#define VDC_PLAN_DIMS_H

#include <stddef.h>

#include <json-glib/json-glib.h>

#include "host/qemucaps.h"
#include "plan/plan.h"

/* One row of the table.  Kinds are bits (1u << vdc_backing). */
typedef struct vdc_dimension {
    vdc_target_dim dim;         /* the member of vdc_target_spec it fills; its key
                                   (vdc_target_dim_key) names it in plan.json and
                                   result.json variants */
    const char *option;         /* without "--": "disk-cache" */
    const char *key;            /* its member in plan.json's and result.json's variant
                                   and matrix; NULL: vdc_target_dim_key (the journal's) */
    unsigned kinds;             /* the target kinds it applies to */
    const char *choices;        /* the values accepted, "none|writeback|..." (for
                                   numbers, words: "0 to 16") */
    const char *const *short_names;   /* by value: the part of a target's name;
                                         NULL or "": none.  NULL array: the value's
                                         name */
    const char *short_prefix;   /* before a numeric value's name ("it": it0, it2) */
    int numeric;                /* values are numbers (written as numbers in JSON) */
    int boolean;                /* values off and on (written as false and true) */
    const char *def;            /* --help's default */
    const char *help;
    const char *orphan;         /* what the option needs when no target kind of it is
                                   asked for: "--image as well" */
    /* the value when the option is not given (the dimension's default) */
    int (*dflt)(const vdc_plan *p);
    /* the value's fit with the plan's hypervisor and the target's other
     * values, or NULL: 0; 1 when the combination is no cell of the matrix
     * (a value the target's other values do not allow: qcow2's metadata
     * preallocation of a raw image), dropped with the one line
     * vdc_dim_drop gave; or -1 after one vdc_input_error naming the
     * option and the value */
    int (*check)(const vdc_plan *p, const vdc_target_spec *s);
    /* value @v against what this libvirt and QEMU can do (@b known), or
     * NULL: 0, or -1 after one vdc_input_error naming the value and why */
    int (*build_check)(const vdc_plan *p, int v, const vdc_hv_build *b);
} vdc_dimension;

/* The table, in name and cross-product order. */
extern const vdc_dimension vdc_dimensions[];
extern const size_t vdc_n_dimensions;

/* The row of @dim, or NULL when @dim is not a dimension of the matrix. */
const vdc_dimension *vdc_dimension_of(vdc_target_dim dim);

/* Parse the comma list @arg of the dimension whose option is @option into
 * @out (values in the order given, each at most once).  0, or -1 after one
 * vdc_input_error: "--disk-cache 'none,bogus': expected a comma list of
 * none|writeback|directsync|writethrough", "--image-cache 'none,none':
 * 'none' given twice: expected each of host|none at most once".  Pure. */
int vdc_dim_list_parse(const char *option, const char *arg, vdc_dim_list *out);

/* The values of @l, a list of dimension @d, as given: "none,writeback",
 * "0,50" (g_free). */
char *vdc_dim_list_text(const vdc_dimension *d, const vdc_dim_list *l);

/* The values of @d in the plan @p: the list given (@given[d->dim], n > 0),
 * else the default alone.  Returns the count, at most VDC_DIM_VALUES_MAX. */
size_t vdc_dim_values(const vdc_dimension *d, const vdc_plan *p, const vdc_dim_list *given,
                      int *values);

/* The variants of a domU target of kind @backing: the cross product of the
 * values (vdc_dim_values) of every dimension that applies to @backing, the
 * first row outermost, each a copy of @base with those members set, in
 * @out[0..max).  Every value is checked (vdc_dimension.check) and so is
 * every combination (vdc_dim_check_combination); a cell a check drops is
 * left out, and when @dropped is given, "NAME: why" is appended to it (a
 * new string).  Returns the number of variants (may exceed @max: only the
 * first @max are written), or -1 after one vdc_input_error (also when
 * every cell was dropped: the first reason). */
long vdc_dim_variants(const vdc_plan *p, const vdc_dim_list *given, const vdc_target_spec *base,
                      vdc_target_spec *out, size_t max, GPtrArray *dropped);

/* For a check that drops a cell: the reason, printf-style, kept until the
 * next call (one line, no trailing period).  Returns 1 (the check's
 * result). */
int vdc_dim_drop(const char *fmt, ...) G_GNUC_PRINTF(1, 2);

/* The member naming @d in a variant (d->key, else its journal key). */
const char *vdc_dim_key(const vdc_dimension *d);

/* A variant's name: @base followed by its values' short names (above),
 * newly allocated. */
char *vdc_dim_target_name(const char *base, const vdc_plan *p, const vdc_target_spec *s);

/* Combinations of values QEMU or libvirt cannot run (aio=native without
 * O_DIRECT: --disk-io native with --disk-cache writeback or writethrough).
 * 0, or -1 after one vdc_input_error naming both values and why. */
int vdc_dim_check_combination(const vdc_plan *p, const vdc_target_spec *s);

/* 1 when dimension @d was given (an option of the run) and applies to
 * @backing: it belongs in that target's variant (plan.json, result.json). */
int vdc_dim_in_variant(const vdc_dimension *d, const vdc_plan *p, vdc_backing backing);

/* Target @t's variant: the values of the dimensions that made it, an
 * object by key (vdc_dim_key) in table order, each dimension given to the
 * run that applies to @t's kind (vdc_dim_in_variant; a domU target only):
 * a name as the option takes it ("none", "virtio-scsi"), a number for a
 * numeric one (iothreads 1, fill_percent 50), a boolean for an off/on one
 * (precondition).  plan.json and result.json targets[].variant
 * (doc/result-format.md); the model's member table (model/result.h
 * vdc_target_variant) holds every key.  A new node, or NULL when the
 * target has none.  Pure. */
JsonNode *vdc_dim_variant_json(const vdc_plan *p, const vdc_plan_target *t);

/* The option table entries of the dimensions, for the run's options table
 * (plan/options.c): type VDC_OPT_CALL, the member at @base_off +
 * dim * sizeof(vdc_dim_list) of the options struct (an array of
 * vdc_dim_list indexed by vdc_target_dim).  @out holds vdc_n_dimensions
 * entries. */
struct vdc_opt;
void vdc_dim_opts(size_t base_off, struct vdc_opt *out);

/* Every value given of every dimension against the build @b (the
 * rows' build_check; nothing when @b is not known): a value this libvirt
 * or QEMU cannot run is refused before anything is created.  0, or -1
 * after one vdc_input_error, e.g. "--iothreads 2: expected 0 or 1 with
 * this build: ...". */
int vdc_dim_check_build(const vdc_plan *p, const vdc_hv_build *b);

/* "--disk-cache 2 x --disk-io 2" for the dimensions given with more than
 * one value (g_free), or "" when none. */
char *vdc_dim_matrix_text(const vdc_plan *p);

#endif
