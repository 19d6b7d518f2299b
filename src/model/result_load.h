/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal to src/model: the loader's state and helpers shared by
 * result_load.c (the document, runs and samples, the experiment) and
 * result_load_target.c (targets[] and the target facts the controller
 * reads from its drivers).  Every error names its JSON path. */
#ifndef VDC_MODEL_RESULT_LOAD_H
#define VDC_MODEL_RESULT_LOAD_H

#include <glib.h>
#include <json-glib/json-glib.h>

#include "model/result.h"
#include "model/result_fields.h"

typedef struct {
    const char *name;   /* input name for messages */
    GString *path;      /* current JSON path */
    GHashTable *reps;   /* "target\nlevel\nguest" -> runs seen (GINT_TO_POINTER count) */
    GHashTable *seen;   /* "target\nrepetition\nlevel\nguest" -> runs[] index + 1 */
    int64_t version;    /* the document's format_version */
    int has_targets;    /* 1: the document has targets[], which every run's target must name */
} vdc_load_ctx;

/* One line "NAME: PATH: message" through vdc_error; returns -1. */
int vdc_load_fail(vdc_load_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The JSON path: push ".member" or "[i]" (the length before in *@saved),
 * pop back to @saved. */
void vdc_load_path_push(vdc_load_ctx *c, const char *member, gsize *saved);
void vdc_load_path_push_index(vdc_load_ctx *c, guint i, gsize *saved);
void vdc_load_path_pop(vdc_load_ctx *c, gsize saved);
/* 1 when @n holds an integer or a double, else 0. */
int vdc_load_is_number(JsonNode *n);
/* A string of at most @max bytes into *@dst (0), or -1 after vdc_load_fail. */
int vdc_load_string(vdc_load_ctx *c, const char *s, size_t max, char **dst);
/* The members of @o that @fields names into @obj (0), or -1 after
 * vdc_load_fail; members not in the table are ignored. */
int vdc_load_fields(vdc_load_ctx *c, const vdc_field *fields, JsonObject *o, void *obj);
/* Member @name of @o when it is an object, else NULL.  Borrowed. */
JsonObject *vdc_load_object_member(JsonObject *o, const char *name);
/* One element of "targets": checked and added to @rs (0), or -1 after
 * vdc_load_fail (a duplicate name, a bad member). */
int vdc_load_target(vdc_load_ctx *c, JsonNode *n, vdc_result_set *rs);
/* experiment.levels[] against the rest of the document, once its targets
 * and runs are loaded (result_levels.c): each level's target one of the
 * targets[] names (without targets[]: one a run names), its host.guests
 * (when present) its guests, and each (target, repetition, guests) once.
 * 0, or -1 after one vdc_load_fail naming the level
 * ("experiment.levels[3]: duplicate level: ..."). */
int vdc_load_levels_check(vdc_load_ctx *c, const vdc_result_set *rs);

#endif
