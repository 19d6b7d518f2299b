/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp result model: the workload object of a workload sample
 * (format_version 2): its member table, construction, copy and limits.
 * Loading and writing go through result_json.c with the table below; the
 * members and limits are doc/result-format.md "Workload samples". */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib.h>

#include "model/result.h"
#include "model/result_fields.h"

static const vdc_field latency_fields[] = {
    F(VDC_F_INT, vdc_latency_us, n, "n", NN),
    F(VDC_F_NUM, vdc_latency_us, min, "min", NN),
    F(VDC_F_NUM, vdc_latency_us, mean, "mean", NN),
    F(VDC_F_NUM, vdc_latency_us, p50, "p50", NN),
    F(VDC_F_NUM, vdc_latency_us, p90, "p90", NN),
    F(VDC_F_NUM, vdc_latency_us, p99, "p99", NN),
    F(VDC_F_NUM, vdc_latency_us, p99_9, "p99.9", NN),
    F(VDC_F_NUM, vdc_latency_us, p99_99, "p99.99", NN),
    F(VDC_F_NUM, vdc_latency_us, max, "max", NN),
    END
};

static const vdc_field job_ss_fields[] = {
    F(VDC_F_STR, vdc_job_ss, metric, "metric", 0),
    F(VDC_F_NUM, vdc_job_ss, limit, "limit", NN),
    F(VDC_F_BOOL, vdc_job_ss, percent, "percent", 0),
    F(VDC_F_NUM, vdc_job_ss, dur_s, "dur_s", NN),
    F(VDC_F_NUM, vdc_job_ss, ramp_s, "ramp_s", NN),
    END
};

static const vdc_field job_fields[] = {
    F(VDC_F_STR, vdc_job_params, name, "name", 0),
    F(VDC_F_STR, vdc_job_params, rw, "rw", 0),
    F(VDC_F_INT, vdc_job_params, rwmixread, "rwmixread", NN),
    F(VDC_F_INT, vdc_job_params, bs, "bs", NN),
    F(VDC_F_INT, vdc_job_params, iodepth, "iodepth", NN),
    F(VDC_F_INT, vdc_job_params, iodepth_batch_submit, "iodepth_batch_submit", NN),
    F(VDC_F_INT, vdc_job_params, iodepth_batch_complete_min, "iodepth_batch_complete_min", NN),
    F(VDC_F_INT, vdc_job_params, iodepth_batch_complete_max, "iodepth_batch_complete_max", NN),
    F(VDC_F_BOOL, vdc_job_params, scramble_buffers, "scramble_buffers", 0),
    F(VDC_F_BOOL, vdc_job_params, norandommap, "norandommap", 0),
    F(VDC_F_INT, vdc_job_params, numjobs, "numjobs", NN),
    F(VDC_F_BOOL, vdc_job_params, thread, "thread", 0),
    F(VDC_F_BOOL, vdc_job_params, group_reporting, "group_reporting", 0),
    F(VDC_F_INT, vdc_job_params, offset_increment, "offset_increment", NN),
    F(VDC_F_STR, vdc_job_params, filename, "filename", VDC_FF_NULLABLE),
    F(VDC_F_BOOL, vdc_job_params, direct, "direct", 0),
    F(VDC_F_INT, vdc_job_params, size, "size", NN | NUL),
    F(VDC_F_INT, vdc_job_params, offset, "offset", NN),
    F(VDC_F_NUM, vdc_job_params, runtime_s, "runtime_s", NN | NUL),
    F(VDC_F_BOOL, vdc_job_params, time_based, "time_based", 0),
    F(VDC_F_NUM, vdc_job_params, ramp_time_s, "ramp_time_s", NN),
    F(VDC_F_STR, vdc_job_params, randseed, "randseed", NUL),
    F(VDC_F_BOOL, vdc_job_params, randrepeat, "randrepeat", 0),
    F(VDC_F_STR, vdc_job_params, ioengine, "ioengine", 0),
    { .name = "ss", .type = VDC_F_OBJ, .off = offsetof(vdc_job_params, ss), .sub = job_ss_fields,
      .flags = VDC_FF_NULLABLE },
    F(VDC_F_STR, vdc_job_params, description, "description", VDC_FF_NULLABLE),
    END
};

static const vdc_field cpu_fields[] = {
    F(VDC_F_NUM, vdc_job_cpu, user_s, "user_s", NN),
    F(VDC_F_NUM, vdc_job_cpu, system_s, "system_s", NN),
    F(VDC_F_NUM, vdc_job_cpu, us_per_io, "us_per_io", NN),
    F(VDC_F_NUM, vdc_job_cpu, thread_user_s, "thread_user_s", NN),
    F(VDC_F_NUM, vdc_job_cpu, thread_system_s, "thread_system_s", NN),
    F(VDC_F_NUM, vdc_job_cpu, thread_us_per_io, "thread_us_per_io", NN),
    END
};

static const vdc_field io_uring_fields[] = {
    F(VDC_F_INT, vdc_io_uring_info, setup_flags, "setup_flags", NN),
    F(VDC_F_BOOL, vdc_io_uring_info, nonvectored, "nonvectored", 0),
    /* null: no call counted (a clone that submitted nothing in its window) */
    F(VDC_F_NUM, vdc_io_uring_info, ios_per_submit, "ios_per_submit", NN | VDC_FF_NULLABLE),
    F(VDC_F_NUM, vdc_io_uring_info, ios_per_reap, "ios_per_reap", NN | VDC_FF_NULLABLE),
    END
};

static const vdc_field buffers_fields[] = {
    F(VDC_F_INT, vdc_buffers_info, bytes, "bytes", NN),
    F(VDC_F_INT, vdc_buffers_info, huge_kib, "huge_kib", NN | VDC_FF_NULLABLE),
    END
};

/* iops_series: its "values" array is loaded and written by hand */
static const vdc_field series_fields[] = {
    F(VDC_F_NUM, vdc_workload, iops_interval_s, "interval_s", NN),
    END
};

static const vdc_field steady_state_fields[] = {
    F(VDC_F_STR, vdc_steady_state, metric, "metric", 0),
    F(VDC_F_NUM, vdc_steady_state, limit, "limit", NN),
    F(VDC_F_BOOL, vdc_steady_state, percent, "percent", 0),
    F(VDC_F_NUM, vdc_steady_state, dur_s, "dur_s", NN),
    F(VDC_F_NUM, vdc_steady_state, ramp_s, "ramp_s", NN),
    F(VDC_F_BOOL, vdc_steady_state, from_job, "from_job", 0),
    F(VDC_F_BOOL, vdc_steady_state, reached, "reached", 0),
    F(VDC_F_NUM, vdc_steady_state, at_s, "at_s", NN | NUL),
    F(VDC_F_NUM, vdc_steady_state, slope, "slope", NUL),
    F(VDC_F_NUM, vdc_steady_state, criterion, "criterion", NUL),
    END
};

#define NULLABLE_OBJ(struct_, member_, json_, sub_) \
    { .name = json_, .type = VDC_F_OBJ, .off = offsetof(struct_, member_), .sub = sub_, \
      .flags = VDC_FF_NULLABLE }

/* The series' interval sits in the workload struct itself: iops_series is
 * an object of the JSON, not of the C struct (offset 0 + member offset). */
const vdc_field vdc_workload_fields[] = {
    F(VDC_F_STR, vdc_workload, name, "name", VDC_FF_REQUIRED),
    F(VDC_F_STR, vdc_workload, source, "source", VDC_FF_NULLABLE),
    F(VDC_F_STR, vdc_workload, on, "on", 0),
    O(vdc_workload, job, "job", job_fields),
    F(VDC_F_STR, vdc_workload, engine, "engine", 0),
    F(VDC_F_STR, vdc_workload, engine_fallback, "engine_fallback", NUL),
    F(VDC_F_INT, vdc_workload, iodepth_effective, "iodepth_effective", NN),
    NULLABLE_OBJ(vdc_workload, io_uring, "io_uring", io_uring_fields),
    NULLABLE_OBJ(vdc_workload, buffers, "buffers", buffers_fields),
    F(VDC_F_INT, vdc_workload, logical_block_size, "logical_block_size", NN),
    F(VDC_F_INT, vdc_workload, ios, "ios", NN),
    F(VDC_F_INT, vdc_workload, bytes, "bytes", NN),
    F(VDC_F_NUM, vdc_workload, bandwidth_kib_s, "bandwidth_kib_s", NN),
    F(VDC_F_NUM, vdc_workload, percentile_relative_error, "percentile_relative_error", NN),
    NULLABLE_OBJ(vdc_workload, clat_us, "clat_us", latency_fields),
    NULLABLE_OBJ(vdc_workload, slat_us, "slat_us", latency_fields),
    O(vdc_workload, cpu, "cpu", cpu_fields),
    { .name = "iops_series", .type = VDC_F_OBJ, .off = 0, .sub = series_fields },
    O(vdc_workload, steady_state, "steady_state", steady_state_fields),
    F(VDC_F_STR, vdc_workload, trace_digest, "trace_digest", 0),
    END
};

vdc_workload *
vdc_workload_new(void)
{
    vdc_workload *w = g_new0(vdc_workload, 1);

    vdc_fields_init(vdc_workload_fields, w);
    w->iops_values = NULL;
    w->n_iops_values = 0;
    return w;
}

void
vdc_workload_free(vdc_workload *w)
{
    if (!w)
        return;
    vdc_fields_dispose(vdc_workload_fields, w);
    g_free(w->iops_values);
    g_free(w);
}

void
vdc_workload_set_series(vdc_workload *w, const double *values, size_t n)
{
    g_free(w->iops_values);
    w->iops_values = n ? g_memdup2(values, n * sizeof(double)) : NULL;
    w->n_iops_values = n;
}

vdc_workload *
vdc_workload_copy(const vdc_workload *w)
{
    vdc_workload *c;

    if (!w)
        return NULL;
    c = vdc_workload_new();
    vdc_fields_copy(vdc_workload_fields, c, w);
    vdc_workload_set_series(c, w->iops_values, w->n_iops_values);
    return c;
}

/* ---- Limits ----------------------------------------------------------------- */

/* NULL, or one line of at most @max bytes of valid UTF-8 (no control
 * characters): every string of a workload is printed in reports. */
static int
text_ok(const char *s, size_t max)
{
    const unsigned char *p;

    if (!s)
        return 1;
    if (strlen(s) > max || !g_utf8_validate(s, -1, NULL))
        return 0;
    for (p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return 0;
    return 1;
}

static int
int_in(int64_t v, int64_t lo, int64_t hi)
{
    return v == VDC_INT_ABSENT || (v >= lo && v <= hi);
}

static int
fail(const char **member, char **why, const char *m, char *msg)
{
    *member = m;
    *why = msg;
    return -1;
}

/* latency members of @l (JSON names: min, p50 .. p99.99, max, mean), each
 * at most VDC_LATENCY_US_MAX; minimum <= percentiles <= maximum is
 * not required (a histogram's percentile may exceed the exact maximum by
 * its relative error), but percentiles must not decrease */
static int
check_latency(const vdc_latency_us *l, const char *const names[], const char **member,
              char **why)
{
    const double p[] = { l->p50, l->p90, l->p99, l->p99_9, l->p99_99 };
    const double all[] = { l->min, l->p50, l->p90, l->p99, l->p99_9, l->p99_99, l->max, l->mean };
    double prev = NAN;
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(all); i++)
        if (vdc_has(all[i]) && !(fabs(all[i]) <= VDC_LATENCY_US_MAX))
            return fail(member, why, names[i],
                        g_strdup_printf("expected at most %g us (a day), found %g", VDC_LATENCY_US_MAX,
                                        all[i]));
    if (vdc_has(l->min) && vdc_has(l->max) && l->min > l->max)
        return fail(member, why, names[0],
                    g_strdup_printf("expected a number <= max (%g), found %g", l->max, l->min));
    for (i = 0; i < G_N_ELEMENTS(p); i++) {
        if (!vdc_has(p[i]))
            continue;
        if (vdc_has(prev) && p[i] < prev)
            return fail(member, why, names[i + 1],
                        g_strdup_printf("expected a number >= the lower percentile (%g), "
                                        "found %g", prev, p[i]));
        prev = p[i];
    }
    return 0;
}

int
vdc_workload_check(const vdc_workload *w, const char **member, char **why)
{
    static const char *const clat[] = { "clat_us.min", "clat_us.p50", "clat_us.p90", "clat_us.p99",
                                        "clat_us.p99.9", "clat_us.p99.99", "clat_us.max", "clat_us.mean" };
    static const char *const slat[] = { "slat_us.min", "slat_us.p50", "slat_us.p90", "slat_us.p99",
                                        "slat_us.p99.9", "slat_us.p99.99", "slat_us.max", "slat_us.mean" };
    static const char *const rws[] = { "read", "write", "randread", "randwrite", "rw", "randrw" };
    static const struct { const char *name; size_t off; size_t max; } texts[] = {
        { "source", offsetof(vdc_workload, source), VDC_WORKLOAD_TEXT_MAX },
        { "job.name", offsetof(vdc_workload, job.name), VDC_TARGET_NAME_MAX },
        { "job.randseed", offsetof(vdc_workload, job.randseed), 32 },
        { "job.filename", offsetof(vdc_workload, job.filename), 64 },
        { "job.ioengine", offsetof(vdc_workload, job.ioengine), 64 },
        { "job.ss.metric", offsetof(vdc_workload, job.ss.metric), 64 },
        { "job.description", offsetof(vdc_workload, job.description), VDC_WORKLOAD_TEXT_MAX },
        { "engine", offsetof(vdc_workload, engine), 64 },
        { "engine_fallback", offsetof(vdc_workload, engine_fallback), VDC_WORKLOAD_TEXT_MAX },
        { "steady_state.metric", offsetof(vdc_workload, steady_state.metric), 64 },
        { "trace_digest", offsetof(vdc_workload, trace_digest), 64 },
    };
    static const struct { const char *name; size_t off; int64_t lo, hi; } ints[] = {
        { "job.rwmixread", offsetof(vdc_workload, job.rwmixread), 0, 100 },
        { "job.bs", offsetof(vdc_workload, job.bs), 1, VDC_WORKLOAD_BS_MAX },
        { "job.iodepth", offsetof(vdc_workload, job.iodepth), 1, VDC_WORKLOAD_DEPTH_MAX },
        { "job.numjobs", offsetof(vdc_workload, job.numjobs), 1, VDC_WORKLOAD_DEPTH_MAX },
        { "job.iodepth_batch_submit", offsetof(vdc_workload, job.iodepth_batch_submit), 1,
          VDC_WORKLOAD_DEPTH_MAX },
        { "job.iodepth_batch_complete_min", offsetof(vdc_workload, job.iodepth_batch_complete_min),
          0, VDC_WORKLOAD_DEPTH_MAX },
        { "job.iodepth_batch_complete_max", offsetof(vdc_workload, job.iodepth_batch_complete_max),
          1, VDC_WORKLOAD_DEPTH_MAX },
        { "iodepth_effective", offsetof(vdc_workload, iodepth_effective), 1, VDC_WORKLOAD_DEPTH_MAX },
        { "logical_block_size", offsetof(vdc_workload, logical_block_size), 1, VDC_WORKLOAD_BS_MAX },
    };
    size_t i;
    int ok;

    if (!w->name || !*w->name || !text_ok(w->name, VDC_TARGET_NAME_MAX))
        return fail(member, why, "name",
                    g_strdup_printf("expected a one-line job name of 1 to %d bytes (no control "
                                    "characters)", VDC_TARGET_NAME_MAX));
    for (i = 0; i < G_N_ELEMENTS(texts); i++)
        if (!text_ok(*(char *const *)((const char *)w + texts[i].off), texts[i].max))
            return fail(member, why, texts[i].name,
                        g_strdup_printf("expected a one-line string of at most %zu bytes "
                                        "(no control characters)", texts[i].max));
    if (w->on && strcmp(w->on, "file") && strcmp(w->on, "raw"))
        return fail(member, why, "on", g_strdup("expected file or raw"));
    if (w->job.rw) {
        for (i = 0, ok = 0; i < G_N_ELEMENTS(rws); i++)
            ok |= !strcmp(w->job.rw, rws[i]);
        if (!ok)
            return fail(member, why, "job.rw",
                        g_strdup("expected read, write, randread, randwrite, rw or randrw"));
    }
    for (i = 0; i < G_N_ELEMENTS(ints); i++) {
        int64_t v = *(const int64_t *)((const char *)w + ints[i].off);

        if (!int_in(v, ints[i].lo, ints[i].hi))
            return fail(member, why, ints[i].name,
                        g_strdup_printf("expected an integer from %" G_GINT64_FORMAT " to %"
                                        G_GINT64_FORMAT ", found %" G_GINT64_FORMAT,
                                        (gint64)ints[i].lo, (gint64)ints[i].hi, (gint64)v));
    }
    /* what fio's fixups leave (agent and importer write no other): a submit
     * batch within the queue, a reap batch not below its minimum; one
     * io_uring_enter submits or reaps at most the ring's depth */
    if (w->job.iodepth_batch_submit != VDC_INT_ABSENT && w->job.iodepth != VDC_INT_ABSENT &&
        w->job.iodepth_batch_submit > w->job.iodepth)
        return fail(member, why, "job.iodepth_batch_submit",
                    g_strdup_printf("expected at most job.iodepth (%" G_GINT64_FORMAT "), found %" G_GINT64_FORMAT,
                                    (gint64)w->job.iodepth, (gint64)w->job.iodepth_batch_submit));
    if (w->job.iodepth_batch_complete_min != VDC_INT_ABSENT && w->job.iodepth_batch_complete_max != VDC_INT_ABSENT &&
        w->job.iodepth_batch_complete_min > w->job.iodepth_batch_complete_max)
        return fail(member, why, "job.iodepth_batch_complete_min",
                    g_strdup_printf("expected at most job.iodepth_batch_complete_max (%" G_GINT64_FORMAT
                                    "), found %" G_GINT64_FORMAT, (gint64)w->job.iodepth_batch_complete_max,
                                    (gint64)w->job.iodepth_batch_complete_min));
    if (w->iodepth_effective != VDC_INT_ABSENT) {
        static const struct { const char *name; size_t off; } per_call[] = {
            { "io_uring.ios_per_submit", offsetof(vdc_workload, io_uring.ios_per_submit) },
            { "io_uring.ios_per_reap", offsetof(vdc_workload, io_uring.ios_per_reap) },
        };

        for (i = 0; i < G_N_ELEMENTS(per_call); i++) {
            double v = *(const double *)((const char *)w + per_call[i].off);

            if (vdc_has(v) && v > (double)w->iodepth_effective)
                return fail(member, why, per_call[i].name,
                            g_strdup_printf("expected at most iodepth_effective (%" G_GINT64_FORMAT
                                            ", the ring's depth), found %g",
                                            (gint64)w->iodepth_effective, v));
        }
    }
    if (vdc_has(w->percentile_relative_error) && w->percentile_relative_error > 1)
        return fail(member, why, "percentile_relative_error",
                    g_strdup_printf("expected a number from 0 to 1, found %g",
                                    w->percentile_relative_error));
    if (check_latency(&w->clat_us, clat, member, why) < 0 ||
        check_latency(&w->slat_us, slat, member, why) < 0)
        return -1;
    if (vdc_has(w->iops_interval_s) && w->iops_interval_s <= 0)
        return fail(member, why, "iops_series.interval_s", g_strdup("expected a number > 0"));
    if (w->n_iops_values > VDC_WORKLOAD_SERIES_MAX)
        return fail(member, why, "iops_series.values",
                    g_strdup_printf("expected at most %d values, found %zu",
                                    VDC_WORKLOAD_SERIES_MAX, w->n_iops_values));
    {
        /* the physical bounds of the rest (result.h) */
        const struct { const char *name; double v; double max; } nums[] = {
            { "bandwidth_kib_s", w->bandwidth_kib_s, VDC_RATE_KIB_S_MAX },
            { "ios", w->ios == VDC_INT_ABSENT ? NAN : (double)w->ios, VDC_COUNT_MAX },
            { "bytes", w->bytes == VDC_INT_ABSENT ? NAN : (double)w->bytes, VDC_BYTES_MAX },
            { "cpu.user_s", w->cpu.user_s, VDC_SECONDS_MAX },
            { "cpu.system_s", w->cpu.system_s, VDC_SECONDS_MAX },
            { "cpu.us_per_io", w->cpu.us_per_io, VDC_LATENCY_US_MAX },
            { "cpu.thread_user_s", w->cpu.thread_user_s, VDC_SECONDS_MAX },
            { "cpu.thread_system_s", w->cpu.thread_system_s, VDC_SECONDS_MAX },
            { "cpu.thread_us_per_io", w->cpu.thread_us_per_io, VDC_LATENCY_US_MAX },
            { "iops_series.interval_s", w->iops_interval_s, VDC_SECONDS_MAX },
            { "job.runtime_s", w->job.runtime_s, VDC_SECONDS_MAX },
            { "job.ramp_time_s", w->job.ramp_time_s, VDC_SECONDS_MAX },
        };

        for (i = 0; i < G_N_ELEMENTS(nums); i++)
            if (vdc_has(nums[i].v) && !(fabs(nums[i].v) <= nums[i].max))
                return fail(member, why, nums[i].name,
                            g_strdup_printf("expected at most %g (the physical bound of the unit), found %g",
                                            nums[i].max, nums[i].v));
    }
    for (i = 0; i < w->n_iops_values; i++)
        if (!isfinite(w->iops_values[i]) || w->iops_values[i] < 0 || w->iops_values[i] > VDC_RATE_OPS_S_MAX)
            return fail(member, why, "iops_series.values",
                        g_strdup_printf("expected numbers from 0 to %g IOPS (value %zu is %g)", VDC_RATE_OPS_S_MAX, i,
                                        w->iops_values[i]));
    return 0;
}
