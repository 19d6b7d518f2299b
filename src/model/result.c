/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp result model: construction, lookup, merge.  JSON reading is
 * in result_load.c and result_load_target.c, writing in result_save.c,
 * the host figures' bounds in result_host.c; all use the member tables
 * of result_fields.h.  See result.h and doc/result-format.md. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "model/result.h"
#include "model/result_fields.h"

/* The test-id table (doc/result-format.md, "Test ids"), expanded from
 * guest-agent/test_ids.h, the list the agent's tables come from too. */
const vdc_test_info vdc_tests[VDC_TEST_COUNT] = {
#define VDC_TEST_INFO(id_, name_, unit_, field_, cpu_, lat_, group_, label_, short_, chart_) \
    [VDC_TEST_##id_] = { .id = VDC_TEST_##id_, .name = name_, .csv_field = field_, \
                         .csv_cpu_field = cpu_, .csv_latency_field = lat_, .unit = unit_, \
                         .label = label_, .short_label = short_, .chart_label = chart_, \
                         .group = group_, .sweep = group_ == VDC_TEST_GROUP_SWEEP, \
                         .workload = group_ == VDC_TEST_GROUP_WORKLOAD },
    VDC_BONNIE_TESTS(VDC_TEST_INFO)
    VDC_SWEEP_TESTS(VDC_TEST_INFO)
    VDC_DD_TESTS(VDC_TEST_INFO)
    VDC_WORKLOAD_TESTS(VDC_TEST_INFO)
#undef VDC_TEST_INFO
};

const vdc_test_info *
vdc_test_lookup(const char *name)
{
    int i;

    if (!name)
        return NULL;
    for (i = 0; i < VDC_TEST_COUNT; i++)
        if (!strcmp(vdc_tests[i].name, name))
            return &vdc_tests[i];
    return NULL;
}

char *
vdc_test_key(const char *test, int64_t block_size)
{
    const vdc_test_info *ti = vdc_test_lookup(test);

    if (ti && ti->sweep && block_size != VDC_INT_ABSENT)
        return g_strdup_printf("%s@%" G_GINT64_FORMAT, test, (gint64)block_size);
    return g_strdup(test);
}

const char *
vdc_test_key_pass(const char *key)
{
    const char *p = key ? strchr(key, VDC_PASS_SEP) : NULL;

    return p && p[1] ? p + 1 : NULL;
}

const vdc_test_info *
vdc_test_key_parse(const char *key, int64_t *block_size)
{
    const char *at;
    const vdc_test_info *ti;
    char *name, *end = NULL;
    g_autofree char *bare = NULL;
    long long bs;

    *block_size = 0;
    if (!key)
        return NULL;
    if (strchr(key, VDC_PASS_SEP)) {
        if (!vdc_test_key_pass(key))
            return NULL;
        key = bare = g_strndup(key, (gsize)(strchr(key, VDC_PASS_SEP) - key));
    }
    at = strchr(key, '@');
    if (!at)
        return vdc_test_lookup(key);
    name = g_strndup(key, (gsize)(at - key));
    ti = vdc_test_lookup(name);
    g_free(name);
    if (ti && ti->workload)
        return at[1] ? ti : NULL;
    if (!ti || !ti->sweep || !g_ascii_isdigit(at[1]))
        return NULL;
    bs = g_ascii_strtoll(at + 1, &end, 10);
    if (*end || bs <= 0)
        return NULL;
    *block_size = bs;
    return ti;
}

const char *
vdc_test_key_job(const char *key)
{
    int64_t bs;
    const vdc_test_info *ti = vdc_test_key_parse(key, &bs);

    return ti && ti->workload ? strchr(key, '@') + 1 : NULL;
}

/* the length of @s before a pass suffix */
static size_t
before_pass(const char *s)
{
    return strcspn(s, "~");
}

int
vdc_test_key_raw(const char *key)
{
    const char *j = vdc_test_key_job(key);
    size_t n = j ? before_pass(j) : 0, r = strlen(VDC_WORKLOAD_RAW_SUFFIX);

    return j && n > r && !strncmp(j + n - r, VDC_WORKLOAD_RAW_SUFFIX, r);
}

const char *
vdc_test_key_job_label(const char *key, char *buf, size_t size)
{
    const char *j = vdc_test_key_job(key), *pass = vdc_test_key_pass(key);
    size_t n = j ? before_pass(j) : 0;

    if (!j)
        snprintf(buf, size, "%s", key);
    else if (vdc_test_key_raw(key))
        snprintf(buf, size, "%.*s (raw)%s%s", (int)(n - strlen(VDC_WORKLOAD_RAW_SUFFIX)), j,
                 pass ? " " : "", pass ? pass : "");
    else
        snprintf(buf, size, "%.*s%s%s", (int)n, j, pass ? " " : "", pass ? pass : "");
    return buf;
}

/* 1 when workload @w ran on the raw block device */
static int
workload_raw(const vdc_workload *w)
{
    return w && w->on && !strcmp(w->on, "raw");
}

char *
vdc_sample_key(const vdc_sample *s)
{
    const vdc_test_info *ti = vdc_test_lookup(s->test);
    char *key;

    if (ti && ti->workload && s->workload && s->workload->name)
        key = g_strdup_printf("%s@%s%s", s->test, s->workload->name,
                              workload_raw(s->workload) ? VDC_WORKLOAD_RAW_SUFFIX : "");
    else
        key = vdc_test_key(s->test, s->block_size);
    if (s->pass) {
        char *k = g_strdup_printf("%s%c%s", key, VDC_PASS_SEP, s->pass);

        g_free(key);
        key = k;
    }
    return key;
}

void
vdc_set_str(char **dst, const char *src)
{
    char *old = *dst;

    *dst = src ? g_strdup(src) : NULL;
    g_free(old);
}

void
vdc_sample_init(vdc_sample *s)
{
    vdc_fields_init(vdc_sample_fields, s);
    s->workload = NULL;
    s->host = NULL;
}

double
vdc_unit_max(const char *unit)
{
    static const struct { const char *unit; double max; } bounds[] = {
        { "K/sec", VDC_RATE_KIB_S_MAX },
        { "MiB/s", VDC_RATE_MIB_S_MAX },
        { "/sec", VDC_RATE_OPS_S_MAX },
        { "IO/sec", VDC_RATE_OPS_S_MAX },
    };
    size_t i;

    for (i = 0; unit && i < G_N_ELEMENTS(bounds); i++)
        if (!strcmp(unit, bounds[i].unit))
            return bounds[i].max;
    return VDC_NUMBER_MAX;
}

char *
vdc_sample_bounds_check(const vdc_sample *s)
{
    const vdc_test_info *ti = s->test ? vdc_test_lookup(s->test) : NULL;
    const char *unit = s->unit ? s->unit : ti ? ti->unit : NULL;
    const struct { const char *name; double v; double max; const char *unit; } nums[] = {
        { "value", s->value, vdc_unit_max(unit), unit ? unit : "" },
        { "cpu_percent", s->cpu_percent, VDC_PERCENT_CPU_MAX, "%" },
        { "latency_us", s->latency_us, VDC_LATENCY_US_MAX, "us" },
        { "elapsed_s", s->elapsed_s, VDC_SECONDS_MAX, "s" },
        { "user_s", s->user_s, VDC_SECONDS_MAX, "s" },
        { "system_s", s->system_s, VDC_SECONDS_MAX, "s" },
        { "system_us_per_op", s->system_us_per_op, VDC_LATENCY_US_MAX, "us" },
        { "real_s", s->real_s, VDC_SECONDS_MAX, "s" },
        { "bytes", s->bytes == VDC_INT_ABSENT ? NAN : (double)s->bytes, VDC_BYTES_MAX, "bytes" },
        { "ops", s->ops == VDC_INT_ABSENT ? NAN : (double)s->ops, VDC_COUNT_MAX, "" },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(nums); i++)
        if (vdc_has(nums[i].v) && !(fabs(nums[i].v) <= nums[i].max))
            return g_strdup_printf("%s: %g%s%s: expected at most %g%s%s (the physical bound of the unit)",
                                   nums[i].name, nums[i].v, *nums[i].unit ? " " : "", nums[i].unit,
                                   nums[i].max, *nums[i].unit ? " " : "", nums[i].unit);
    return NULL;
}

void
vdc_sample_dispose(vdc_sample *s)
{
    vdc_fields_dispose(vdc_sample_fields, s);
    g_clear_pointer(&s->workload, vdc_workload_free);
    g_clear_pointer(&s->host, json_object_unref);
}
void
vdc_target_init(vdc_target *t)
{
    vdc_fields_init(vdc_target_fields, t);
    t->placement.ranges = NULL;
    t->placement.n_ranges = 0;
    t->storage.thin.data_percent[0] = t->storage.thin.data_percent[1] = NAN;
    t->storage.thin.metadata_percent[0] = t->storage.thin.metadata_percent[1] = NAN;
    memset(t->alignment.layers, 0, sizeof(t->alignment.layers));
    t->alignment.n_layers = 0;
}

static void
align_layers_dispose(vdc_target_alignment *al)
{
    size_t i;

    for (i = 0; i < al->n_layers; i++) {
        g_clear_pointer(&al->layers[i].layer, g_free);
        g_clear_pointer(&al->layers[i].why, g_free);
    }
    al->n_layers = 0;
}

void
vdc_target_dispose(vdc_target *t)
{
    vdc_fields_dispose(vdc_target_fields, t);
    g_clear_pointer(&t->placement.ranges, g_free);
    t->placement.n_ranges = 0;
    align_layers_dispose(&t->alignment);
}

char *
vdc_target_variant_text(const vdc_target *t)
{
    GString *s = g_string_new(NULL);
    const vdc_field *f;

    /* the member table's order, which is the matrix's (plan/dims.c) */
    for (f = vdc_variant_fields; f->name; f++) {
        const char *p = (const char *)&t->variant + f->off;
        const char *sep = s->len ? ", " : "";

        switch (f->type) {
        case VDC_F_STR:
            if (*(char *const *)p)
                g_string_append_printf(s, "%s%s %s", sep, f->name, *(char *const *)p);
            break;
        case VDC_F_INT:
            if (*(const int64_t *)p != VDC_INT_ABSENT)
                g_string_append_printf(s, "%s%s %" G_GINT64_FORMAT, sep, f->name, (gint64)*(const int64_t *)p);
            break;
        case VDC_F_BOOL:
            if (*(const int *)p != VDC_BOOL_ABSENT)
                g_string_append_printf(s, "%s%s %s", sep, f->name, *(const int *)p ? "on" : "off");
            break;
        default:
            break;
        }
    }
    if (!s->len) {
        g_string_free(s, TRUE);
        return NULL;
    }
    return g_string_free(s, FALSE);
}

size_t
vdc_target_misaligned(const vdc_target *t)
{
    size_t i, n = 0;

    for (i = 0; i < t->alignment.n_layers; i++)
        n += t->alignment.layers[i].why != NULL;
    return n;
}

/* result.h */
double
vdc_target_thin_pool_full(const vdc_target *t, const char **what)
{
    const vdc_target_thin *th = &t->storage.thin;
    double d = th->data_percent[1], m = th->metadata_percent[1];
    /* a pool whose data holds every chunk of the LV cannot run out of it:
     * a fully written LV fills it without a write ever waiting */
    int holds_lv = th->pool_size > 0 && t->storage.size_bytes > 0 && th->pool_size >= t->storage.size_bytes;
    int data = !holds_lv && isfinite(d) && d > VDC_THIN_POOL_FULL_PERCENT;
    int meta = isfinite(m) && m > VDC_THIN_POOL_FULL_PERCENT;

    if (!th->pool || (!data && !meta))
        return NAN;
    if (what)
        *what = data && (!meta || d >= m) ? "data" : "metadata";
    return data && (!meta || d >= m) ? d : m;
}

void
vdc_experiment_init(vdc_experiment *e)
{
    vdc_fields_init(vdc_experiment_fields, e);
    e->runs_policy.stop = NULL;
    e->runs_policy.n_stop = 0;
    e->levels = NULL;
    e->n_levels = 0;
}

void
vdc_experiment_dispose(vdc_experiment *e)
{
    size_t i;

    for (i = 0; i < e->runs_policy.n_stop; i++)
        vdc_fields_dispose(vdc_stop_record_fields, &e->runs_policy.stop[i]);
    g_free(e->runs_policy.stop);
    vdc_experiment_levels_dispose(e);
    vdc_fields_dispose(vdc_experiment_fields, e);
    e->runs_policy.stop = NULL;
    e->runs_policy.n_stop = 0;
}

vdc_stop_record *
vdc_runs_policy_add_stop(vdc_runs_policy *p, const char *test)
{
    vdc_stop_record *r;

    p->stop = g_renew(vdc_stop_record, p->stop, p->n_stop + 1);
    r = &p->stop[p->n_stop++];
    vdc_fields_init(vdc_stop_record_fields, r);
    vdc_set_str(&r->test, test);
    return r;
}

void
vdc_experiment_copy(vdc_experiment *dst, const vdc_experiment *src)
{
    size_t i;

    if (dst == src)
        return;
    vdc_experiment_dispose(dst);
    vdc_fields_copy(vdc_experiment_fields, dst, src);
    for (i = 0; i < src->runs_policy.n_stop; i++)
        vdc_fields_copy(vdc_stop_record_fields,
                        vdc_runs_policy_add_stop(&dst->runs_policy, NULL), &src->runs_policy.stop[i]);
    vdc_experiment_levels_copy(dst, src);
}

void
vdc_target_copy(vdc_target *dst, const vdc_target *src)
{
    size_t i;

    vdc_fields_copy(vdc_target_fields, dst, src);
    g_free(dst->placement.ranges);
    dst->placement.ranges = src->placement.n_ranges
        ? g_memdup2(src->placement.ranges, 2 * src->placement.n_ranges * sizeof(int64_t)) : NULL;
    dst->placement.n_ranges = src->placement.n_ranges;
    memcpy(dst->storage.thin.data_percent, src->storage.thin.data_percent,
           sizeof(dst->storage.thin.data_percent));
    memcpy(dst->storage.thin.metadata_percent, src->storage.thin.metadata_percent,
           sizeof(dst->storage.thin.metadata_percent));
    align_layers_dispose(&dst->alignment);
    for (i = 0; i < src->alignment.n_layers; i++) {
        dst->alignment.layers[i] = src->alignment.layers[i];
        dst->alignment.layers[i].layer = g_strdup(src->alignment.layers[i].layer);
        dst->alignment.layers[i].why = g_strdup(src->alignment.layers[i].why);
    }
    dst->alignment.n_layers = src->alignment.n_layers;
}

void
vdc_run_init(vdc_run *r)
{
    vdc_fields_init(vdc_run_fields, r);
    r->samples = NULL;
    r->n_samples = 0;
    r->host = NULL;
}

void
vdc_run_dispose(vdc_run *r)
{
    size_t i;

    for (i = 0; i < r->n_samples; i++) {
        vdc_sample_dispose(r->samples[i]);
        g_free(r->samples[i]);
    }
    g_free(r->samples);
    r->samples = NULL;
    r->n_samples = 0;
    vdc_fields_dispose(vdc_run_fields, r);
    g_clear_pointer(&r->host, json_object_unref);
}

double
vdc_run_test_bytes(const vdc_run *r, const vdc_test_info *ti)
{
    double file = r->meta.file_size_bytes != VDC_INT_ABSENT ? (double)r->meta.file_size_bytes
                  : r->meta.file_size_mib != VDC_INT_ABSENT ? (double)r->meta.file_size_mib * 1048576.0
                  : NAN;
    double pc = r->meta.per_char_size != VDC_INT_ABSENT ? (double)r->meta.per_char_size : NAN;

    switch (ti ? ti->id : VDC_TEST_UNKNOWN) {
    case VDC_TEST_PUT_BLOCK:
    case VDC_TEST_GET_BLOCK:
        return file;
    case VDC_TEST_REWRITE:
        return 2 * file;
    case VDC_TEST_PUTC:
    case VDC_TEST_GETC:
        return pc;
    default:
        return NAN;
    }
}

vdc_sample *
vdc_run_add_sample(vdc_run *r, const char *test)
{
    vdc_sample *s = g_new(vdc_sample, 1);
    const vdc_test_info *ti = vdc_test_lookup(test);

    vdc_sample_init(s);
    vdc_set_str(&s->test, test);
    if (ti)
        vdc_set_str(&s->unit, ti->unit);
    r->samples = g_renew(vdc_sample *, r->samples, r->n_samples + 1);
    r->samples[r->n_samples++] = s;
    return s;
}

void
vdc_run_copy(vdc_run *dst, const vdc_run *src)
{
    size_t i;

    vdc_fields_copy(vdc_run_fields, dst, src);
    g_clear_pointer(&dst->host, json_object_unref);
    if (src->host)
        dst->host = json_object_ref(src->host);     /* never changed once loaded */
    for (i = 0; i < src->n_samples; i++) {
        vdc_sample *s = vdc_run_add_sample(dst, src->samples[i]->test);
        vdc_fields_copy(vdc_sample_fields, s, src->samples[i]);
        vdc_workload_free(s->workload);
        s->workload = vdc_workload_copy(src->samples[i]->workload);
        g_clear_pointer(&s->host, json_object_unref);
        if (src->samples[i]->host)
            s->host = json_object_ref(src->samples[i]->host);
    }
}

/* ---- The set -------------------------------------------------------------- */

void
vdc_result_set_init(vdc_result_set *rs)
{
    memset(rs, 0, sizeof(*rs));
    rs->producer_name = g_strdup("vmdiskcmp");
    rs->producer_version = g_strdup(PACKAGE_VERSION);
    vdc_experiment_init(&rs->experiment);
}

void
vdc_result_set_dispose(vdc_result_set *rs)
{
    size_t i;

    for (i = 0; i < rs->n_targets; i++) {
        vdc_target_dispose(rs->targets[i]);
        g_free(rs->targets[i]);
    }
    for (i = 0; i < rs->n_runs; i++) {
        vdc_run_dispose(rs->runs[i]);
        g_free(rs->runs[i]);
    }
    g_free(rs->targets);
    g_free(rs->runs);
    g_free(rs->producer_name);
    g_free(rs->producer_version);
    vdc_experiment_dispose(&rs->experiment);
    memset(rs, 0, sizeof(*rs));
    vdc_experiment_init(&rs->experiment);
}

vdc_target *
vdc_result_set_find_target(const vdc_result_set *rs, const char *name)
{
    size_t i;

    for (i = 0; name && i < rs->n_targets; i++)
        if (!strcmp(rs->targets[i]->name, name))
            return rs->targets[i];
    return NULL;
}

int
vdc_result_set_target_spec(const vdc_result_set *rs, const char *name, vdc_target_spec *s)
{
    const vdc_target *t = vdc_result_set_find_target(rs, name);

    *s = (vdc_target_spec){ 0 };
    return t ? vdc_target_kind_parse(t->kind, s) : -1;
}

vdc_target_role
vdc_result_set_target_role(const vdc_result_set *rs, const char *name)
{
    vdc_target_spec s;

    return vdc_result_set_target_spec(rs, name, &s) < 0 ? VDC_ROLE_OTHER : vdc_target_spec_role(&s);
}

int
vdc_target_name_ok(const char *name)
{
    const unsigned char *p;

    if (!name || !*name || strlen(name) > VDC_TARGET_NAME_MAX || !g_utf8_validate(name, -1, NULL))
        return 0;
    for (p = (const unsigned char *)name; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return 0;
    return 1;
}

vdc_target *
vdc_result_set_add_target(vdc_result_set *rs, const char *name)
{
    vdc_target *t;

    if (!name || !*name) {
        vdc_error("result set: a target needs a non-empty name");
        return NULL;
    }
    if (vdc_result_set_find_target(rs, name)) {
        vdc_error("result set: target '%s' already exists", name);
        return NULL;
    }
    t = g_new(vdc_target, 1);
    vdc_target_init(t);
    vdc_set_str(&t->name, name);
    rs->targets = g_renew(vdc_target *, rs->targets, rs->n_targets + 1);
    rs->targets[rs->n_targets++] = t;
    return t;
}

static int64_t
runs_of_target(const vdc_result_set *rs, const char *target)
{
    size_t i;
    int64_t n = 0;

    for (i = 0; i < rs->n_runs; i++)
        if (!g_strcmp0(rs->runs[i]->target, target))
            n++;
    return n;
}

/* Append an initialised run without setting anything. */
static vdc_run *
append_run(vdc_result_set *rs)
{
    vdc_run *r = g_new(vdc_run, 1);

    vdc_run_init(r);
    rs->runs = g_renew(vdc_run *, rs->runs, rs->n_runs + 1);
    rs->runs[rs->n_runs++] = r;
    return r;
}

vdc_run *
vdc_result_set_add_run(vdc_result_set *rs, const char *target)
{
    int64_t rep = runs_of_target(rs, target);
    vdc_run *r = append_run(rs);

    vdc_set_str(&r->target, target);
    r->repetition = rep;
    vdc_set_str(&r->status, "ok");
    return r;
}

/* internal (result_fields.h): used by the JSON loader */
vdc_run *
vdc_result_set_append_run(vdc_result_set *rs)
{
    return append_run(rs);
}

static void
add_unique(GPtrArray *a, const char *s)
{
    guint i;

    for (i = 0; i < a->len; i++)
        if (!strcmp(g_ptr_array_index(a, i), s))
            return;
    g_ptr_array_add(a, g_strdup(s));
}

/* The names of @rs's targets, declared or named by a run, each once: into
 * the set @seen, and (when @order is not NULL) copies of those not seen
 * before appended to @order, declared first, then in run order */
static void
add_target_names(GHashTable *seen, GPtrArray *order, const vdc_result_set *rs)
{
    size_t i;

    for (i = 0; i < rs->n_targets + rs->n_runs; i++) {
        const char *name = i < rs->n_targets ? rs->targets[i]->name : rs->runs[i - rs->n_targets]->target;

        if (name && g_hash_table_add(seen, (gpointer)name) && order)
            g_ptr_array_add(order, g_strdup(name));
    }
}

char **
vdc_result_set_target_names(const vdc_result_set *rs)
{
    GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
    GPtrArray *a = g_ptr_array_new();

    add_target_names(seen, a, rs);
    g_hash_table_destroy(seen);
    g_ptr_array_add(a, NULL);
    return (char **)g_ptr_array_free(a, FALSE);
}

static int
cmp_int64(gconstpointer a, gconstpointer b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

    return x < y ? -1 : x > y;
}

char **
vdc_result_set_test_keys(const vdc_result_set *rs, const char *target)
{
    GPtrArray *keys = g_ptr_array_new();
    GArray *sizes;
    size_t i, j;
    int t;

    for (t = 0; t < VDC_TEST_COUNT; t++) {
        const vdc_test_info *ti = &vdc_tests[t];

        if (ti->workload)
            continue;   /* below, by job */
        sizes = g_array_new(FALSE, FALSE, sizeof(int64_t));
        for (i = 0; i < rs->n_runs; i++) {
            const vdc_run *r = rs->runs[i];

            if (target && g_strcmp0(r->target, target))
                continue;
            for (j = 0; j < r->n_samples; j++) {
                const vdc_sample *s = r->samples[j];

                if (g_strcmp0(s->test, ti->name))
                    continue;
                if (!ti->sweep) {
                    /* a pass's samples have keys of their own, after the
                     * test's (vdc_sample_key: "put_block~first-write") */
                    g_autofree char *k = vdc_sample_key(s);

                    add_unique(keys, k);
                } else {
                    guint k;
                    gboolean seen = FALSE;

                    for (k = 0; k < sizes->len; k++)
                        if (g_array_index(sizes, int64_t, k) == s->block_size)
                            seen = TRUE;
                    if (!seen)
                        g_array_append_val(sizes, s->block_size);
                }
            }
        }
        g_array_sort(sizes, cmp_int64);
        for (i = 0; i < sizes->len; i++) {
            char *k = vdc_test_key(ti->name, g_array_index(sizes, int64_t, i));

            add_unique(keys, k);
            g_free(k);
        }
        g_array_free(sizes, TRUE);
    }
    /* workload keys: jobs in order of first appearance, read then write
     * (hash tables: a hostile document may hold many jobs) */
    {
        GPtrArray *jobs = g_ptr_array_new();
        GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
        GHashTable *present = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
        /* the passes seen (samples[].pass), after the samples of none */
        GPtrArray *passes = g_ptr_array_new();
        GHashTable *seen_pass = g_hash_table_new(g_str_hash, g_str_equal);
        guint k, q;

        for (i = 0; i < rs->n_runs; i++) {
            const vdc_run *r = rs->runs[i];

            if (target && g_strcmp0(r->target, target))
                continue;
            for (j = 0; j < r->n_samples; j++) {
                const vdc_sample *s = r->samples[j];
                const vdc_test_info *ti = vdc_test_lookup(s->test);

                if (!ti || !ti->workload || !s->workload || !s->workload->name)
                    continue;
                if (g_hash_table_add(seen, s->workload->name))
                    g_ptr_array_add(jobs, s->workload->name);
                if (s->pass && g_hash_table_add(seen_pass, s->pass))
                    g_ptr_array_add(passes, s->pass);
                g_hash_table_add(present, vdc_sample_key(s));
            }
        }
        /* each job on a file (or not recorded), then on the raw device */
        for (k = 0; k < jobs->len; k++)
            for (int raw = 0; raw < 2; raw++)
                for (t = 0; t < VDC_TEST_COUNT; t++) {
                    char *key;

                    if (!vdc_tests[t].workload)
                        continue;
                    for (q = 0; q <= passes->len; q++) {
                        key = g_strdup_printf("%s@%s%s%s%s", vdc_tests[t].name,
                                              (char *)g_ptr_array_index(jobs, k),
                                              raw ? VDC_WORKLOAD_RAW_SUFFIX : "", q ? "~" : "",
                                              q ? (char *)g_ptr_array_index(passes, q - 1) : "");
                        if (g_hash_table_contains(present, key))
                            g_ptr_array_add(keys, key);
                        else
                            g_free(key);
                    }
                }
        g_hash_table_destroy(present);
        g_hash_table_destroy(seen);
        g_hash_table_destroy(seen_pass);
        g_ptr_array_free(jobs, TRUE);
        g_ptr_array_free(passes, TRUE);
    }
    /* ids outside the table (only from code; the loader refuses them) */
    for (i = 0; i < rs->n_runs; i++) {
        const vdc_run *r = rs->runs[i];

        if (target && g_strcmp0(r->target, target))
            continue;
        for (j = 0; j < r->n_samples; j++)
            if (r->samples[j]->test && !vdc_test_lookup(r->samples[j]->test))
                add_unique(keys, r->samples[j]->test);
    }
    g_ptr_array_add(keys, NULL);
    return (char **)g_ptr_array_free(keys, FALSE);
}

vdc_sample_ref *
vdc_result_set_lookup(const vdc_result_set *rs, const char *target,
                      const char *test_key, size_t *n)
{
    GArray *a = g_array_new(FALSE, FALSE, sizeof(vdc_sample_ref));
    size_t i, j;

    for (i = 0; i < rs->n_runs; i++) {
        const vdc_run *r = rs->runs[i];

        if (g_strcmp0(r->target, target) || vdc_run_level(r) != 1)
            continue;
        for (j = 0; j < r->n_samples; j++) {
            char *k = vdc_sample_key(r->samples[j]);

            if (!g_strcmp0(k, test_key)) {
                vdc_sample_ref ref = { r, r->samples[j] };

                g_array_append_val(a, ref);
            }
            g_free(k);
        }
    }
    *n = a->len;
    if (!a->len) {
        g_array_free(a, TRUE);
        return NULL;
    }
    return (vdc_sample_ref *)g_array_free(a, FALSE);
}

int64_t
vdc_target_machine_memory(const vdc_result_set *rs, const vdc_target *t)
{
    if (t->memory_mib != VDC_INT_ABSENT || !t->where || !rs->has_experiment)
        return t->memory_mib;
    if (!strcmp(t->where, "domU"))
        return rs->experiment.guest.memory_mib;
    if (!strcmp(t->where, "dom0") || !strcmp(t->where, "host"))
        return rs->experiment.host.ram_mib;
    return VDC_INT_ABSENT;
}

int
vdc_result_set_merge(vdc_result_set *dst, const vdc_result_set *src)
{
    GHashTable *counts;
    size_t i;

    /* runs of two experiments (or of one and of none) are not pairs */
    if (src->mixed_experiments || (src->n_runs && dst->n_runs &&
                                   (dst->has_experiment != src->has_experiment ||
                                    (dst->has_experiment &&
                                     g_strcmp0(dst->experiment.id, src->experiment.id)))))
        dst->mixed_experiments = 1;
    if (!dst->has_experiment && src->has_experiment) {
        vdc_experiment_copy(&dst->experiment, &src->experiment);
        dst->has_experiment = 1;
    } else if (src->has_experiment && src->experiment.emulated == 1) {
        dst->experiment.emulated = 1;   /* sticky: emulated numbers stay marked */
    }
    for (i = 0; i < src->n_targets; i++) {
        vdc_target *t;

        if (vdc_result_set_find_target(dst, src->targets[i]->name))
            continue;
        t = vdc_result_set_add_target(dst, src->targets[i]->name);
        vdc_target_copy(t, src->targets[i]);
        t->memory_mib = vdc_target_machine_memory(src, src->targets[i]);
    }
    /* runs per target (level, guest), counted once: merging n runs stays
     * O(n); a guest's runs are renumbered among that guest's */
    counts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    for (i = 0; i < dst->n_runs; i++) {
        char *who = vdc_run_who(dst->runs[i]);

        g_hash_table_replace(counts, who,
                             GSIZE_TO_POINTER(GPOINTER_TO_SIZE(g_hash_table_lookup(counts, who)) + 1));
    }
    for (i = 0; i < src->n_runs; i++) {
        vdc_run *r = append_run(dst);
        char *who;
        size_t rep;

        vdc_run_copy(r, src->runs[i]);
        who = vdc_run_who(r);
        rep = GPOINTER_TO_SIZE(g_hash_table_lookup(counts, who));
        r->repetition = (int64_t)rep;
        g_hash_table_replace(counts, who, GSIZE_TO_POINTER(rep + 1));
    }
    g_hash_table_destroy(counts);
    return 0;
}

size_t
vdc_result_set_target_count(const vdc_result_set *rs)
{
    GHashTable *names = g_hash_table_new(g_str_hash, g_str_equal);
    size_t n;

    add_target_names(names, NULL, rs);
    n = g_hash_table_size(names);
    g_hash_table_destroy(names);
    return n;
}

char *
vdc_merge_totals_refusal(size_t targets, size_t runs)
{
    if (targets > VDC_RESULT_TARGETS_MAX)
        return g_strdup_printf("would make %zu targets: expected at most %d in one result set", targets,
                               VDC_RESULT_TARGETS_MAX);
    if (runs > VDC_RESULT_RUNS_MAX)
        return g_strdup_printf("would make %zu runs: expected at most %d in one result set", runs,
                               VDC_RESULT_RUNS_MAX);
    return NULL;
}

char *
vdc_result_set_merge_refusal(const vdc_result_set *dst, const vdc_result_set *src)
{
    GHashTable *names = g_hash_table_new(g_str_hash, g_str_equal);
    size_t targets;

    add_target_names(names, NULL, dst);
    add_target_names(names, NULL, src);
    targets = g_hash_table_size(names);
    g_hash_table_destroy(names);
    return vdc_merge_totals_refusal(targets, dst->n_runs + src->n_runs);
}

char *
vdc_merge_inputs_refusal(size_t n)
{
    if (n <= VDC_MERGE_INPUTS_MAX)
        return NULL;
    return g_strdup_printf("%zu inputs: expected at most %d in one result set", n, VDC_MERGE_INPUTS_MAX);
}
