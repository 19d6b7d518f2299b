/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: job results, steady state and renderers (see
 * jobstat.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "jobstat.h"

/* a direction's test id and unit: agent_workload_test_id[d] (test_ids.h) */
_Static_assert((int)AGENT_DDIR_READ == (int)AGENT_WORKLOAD_READ &&
               (int)AGENT_DDIR_WRITE == (int)AGENT_WORKLOAD_WRITE &&
               (int)AGENT_DDIR_COUNT == (int)AGENT_WORKLOAD_TEST_COUNT, "directions in test_ids.h order");

int
agent_ss_slope(const double *y, size_t n, int percent, double limit,
               double *slope, double *criterion)
{
    double sx = 0, sxx = 0, sy = 0, sxy = 0, mean;

    if (n < 2)
        return -1;
    for (size_t i = 0; i < n; i++) {
        sx += (double)i;
        sxx += (double)i * (double)i;
        sy += y[i];
        sxy += (double)i * y[i];
    }
    *slope = (sxy - sx * sy / (double)n) / (sxx - sx * sx / (double)n);
    mean = sy / (double)n;
    if (percent) {
        if (mean <= 0)
            return -1;
        *criterion = 100.0 * *slope / mean;
    } else {
        *criterion = *slope;
    }
    return fabs(*criterion) < limit;
}

struct agent_job_result *
agent_job_result_new(const struct agent_job *job)
{
    struct agent_job_result *r = calloc(1, sizeof(*r));

    if (!r)
        return NULL;
    r->job = *job;
    r->engine = job->ioengine;
    r->iodepth_effective = job->iodepth;
    r->buffer_huge_kib = -1;            /* not known until the run's end */
    r->ss.criterion = NAN;
    r->ss.slope = NAN;
    for (int d = 0; d < AGENT_DDIR_COUNT; d++) {
        agent_hist_init(&r->d[d].clat);
        agent_hist_init(&r->d[d].slat);
    }
    return r;
}

void
agent_job_result_free(struct agent_job_result *r)
{
    if (!r)
        return;
    for (int d = 0; d < AGENT_DDIR_COUNT; d++)
        free(r->d[d].series);
    free(r);
}

double
agent_job_iops(const struct agent_job_result *r, int ddir)
{
    return r->elapsed_s > 0 ? (double)r->d[ddir].ios / r->elapsed_s : 0;
}

double
agent_job_kib_s(const struct agent_job_result *r, int ddir)
{
    return r->elapsed_s > 0
           ? (double)r->d[ddir].bytes / 1024.0 / r->elapsed_s : 0;
}

static int
ddir_active(const struct agent_job_result *r, int d)
{
    return d == AGENT_DDIR_READ ? agent_rw_reads(r->job.rw)
                                : agent_rw_writes(r->job.rw);
}

static double
us_per_io(const struct agent_job_result *r, double cpu_s)
{
    uint64_t n = r->d[0].ios + r->d[1].ios;

    return n ? cpu_s * 1e6 / (double)n : 0;
}

static void
table_lat(FILE *fp, const char *what, const struct agent_hist *h)
{
    fprintf(fp, "    %s us: min %.1f mean %.1f p50 %.1f p90 %.1f p99 %.1f "
            "p99.9 %.1f p99.99 %.1f max %.1f\n", what, (double)h->min / 1e3,
            agent_hist_mean(h) / 1e3,
            (double)agent_hist_percentile(h, 50) / 1e3,
            (double)agent_hist_percentile(h, 90) / 1e3,
            (double)agent_hist_percentile(h, 99) / 1e3,
            (double)agent_hist_percentile(h, 99.9) / 1e3,
            (double)agent_hist_percentile(h, 99.99) / 1e3,
            (double)h->max / 1e3);
}

void
agent_job_format_table(FILE *fp, const struct agent_job_result *r)
{
    const struct agent_job *j = &r->job;

    fprintf(fp, "%s: rw=%s", j->name, agent_rw_name(j->rw));
    if (j->rw == AGENT_RW_RANDRW)
        fprintf(fp, " rwmixread=%u", j->rwmixread);
    fprintf(fp, " bs=%u iodepth=%u numjobs=%u%s direct=%d ioengine=%s",
            j->bs, j->iodepth, j->numjobs,
            j->numjobs < 2 ? "" : j->thread ? " (threads)" : " (processes)",
            j->direct, agent_ioengine_name(r->engine));
    if (r->fallback[0])
        fprintf(fp, " (io_uring not used: %s)", r->fallback);
    fputc('\n', fp);
    if (r->state == AGENT_FAILED) {
        fprintf(fp, "  failed: %s\n", r->error);
        return;
    }
    if (r->state != AGENT_DONE) {
        fputs("  not run\n", fp);
        return;
    }
    for (int d = 0; d < AGENT_DDIR_COUNT; d++) {
        if (!ddir_active(r, d))
            continue;
        fprintf(fp, "  %-5s: IOPS %.0f, BW %.1f MiB/s, %llu I/Os in %.2f s\n",
                d ? "write" : "read", agent_job_iops(r, d),
                agent_job_kib_s(r, d) / 1024.0,
                (unsigned long long)r->d[d].ios, r->elapsed_s);
        if (r->d[d].clat.n)
            table_lat(fp, "clat", &r->d[d].clat);
        if (r->d[d].slat.n)
            table_lat(fp, "slat", &r->d[d].slat);
    }
    fprintf(fp, "  cpu  : usr %.2f s, sys %.2f s, %.2f us per I/O (the "
            "clones' own threads: %.2f us, as fio counts)\n", r->user_s,
            r->system_s, us_per_io(r, r->user_s + r->system_s),
            us_per_io(r, r->thread_user_s + r->thread_system_s));
    fprintf(fp, "  steady state (iops_slope:%g%s over %.0f s): ",
            r->ss.limit, r->ss.percent ? "%" : "", r->ss.dur_s);
    if (r->ss.reached)
        fprintf(fp, "reached at %.0f s (criterion %.3f)\n", r->ss.at_s,
                r->ss.criterion);
    else if (isfinite(r->ss.criterion))
        fprintf(fp, "not reached (last criterion %.3f)\n", r->ss.criterion);
    else
        fputs("not reached (window longer than the run)\n", fp);
}

static void
json_lat(FILE *fp, const struct agent_hist *h)
{
    static const struct { const char *key; double p; } pct[] = {
        { "p50", 50 }, { "p90", 90 }, { "p99", 99 }, { "p99.9", 99.9 },
        { "p99.99", 99.99 },
    };

    if (!h->n) {
        fputs("null", fp);
        return;
    }
    fprintf(fp, "{\"n\": %llu, \"min\": %.3f, \"mean\": %.3f",
            (unsigned long long)h->n, (double)h->min / 1e3,
            agent_hist_mean(h) / 1e3);
    for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++)
        fprintf(fp, ", \"%s\": %.3f", pct[i].key,
                (double)agent_hist_percentile(h, pct[i].p) / 1e3);
    fprintf(fp, ", \"max\": %.3f}", (double)h->max / 1e3);
}

static void
json_workload(FILE *fp, const struct agent_job_result *r, int d)
{
    const struct agent_job_ddir *dd = &r->d[d];

    fputs("         \"workload\": {\"name\": ", fp);
    agent_json_str(fp, r->job.name);
    fputs(", \"source\": ", fp);
    agent_json_str(fp, r->job.source);
    fprintf(fp, ", \"on\": \"%s\"", r->on_blockdev ? "raw" : "file");
    fputs(",\n          \"job\": ", fp);
    agent_job_format_json(fp, &r->job);
    fprintf(fp, ",\n          \"engine\": \"%s\", \"engine_fallback\": ",
            agent_ioengine_name(r->engine));
    agent_json_str(fp, r->fallback[0] ? r->fallback : NULL);
    fprintf(fp, ", \"iodepth_effective\": %u, \"io_uring\": ",
            r->iodepth_effective);
    if (r->engine == AGENT_ENGINE_IO_URING) {
        fprintf(fp, "{\"setup_flags\": %u, \"nonvectored\": %s, \"ios_per_submit\": ",
                r->uring_setup_flags, r->uring_nonvectored ? "true" : "false");
        agent_json_num(fp, r->submit_calls ? (double)r->submitted / r->submit_calls : NAN, 3);
        fputs(", \"ios_per_reap\": ", fp);
        agent_json_num(fp, r->reap_calls ? (double)r->reaped / r->reap_calls : NAN, 3);
        fputs("}", fp);
    }
    else
        fputs("null", fp);
    fprintf(fp, ", \"buffers\": {\"bytes\": %llu, \"huge_kib\": ",
            (unsigned long long)r->buffer_bytes);
    if (r->buffer_huge_kib >= 0)
        fprintf(fp, "%lld}", r->buffer_huge_kib);
    else
        fputs("null}", fp);
    fprintf(fp, ", \"logical_block_size\": %u,\n          \"ios\": %llu, "
            "\"bytes\": %llu, \"bandwidth_kib_s\": ", r->logical_block_size,
            (unsigned long long)dd->ios, (unsigned long long)dd->bytes);
    agent_json_num(fp, agent_job_kib_s(r, d), 3);
    fprintf(fp, ", \"percentile_relative_error\": %.8f,\n          "
            "\"clat_us\": ", AGENT_HIST_REL_ERROR);
    json_lat(fp, &dd->clat);
    fputs(",\n          \"slat_us\": ", fp);
    json_lat(fp, &dd->slat);
    fputs(",\n          \"cpu\": {\"user_s\": ", fp);
    agent_json_num(fp, r->user_s, 6);
    fputs(", \"system_s\": ", fp);
    agent_json_num(fp, r->system_s, 6);
    fputs(", \"us_per_io\": ", fp);
    agent_json_num(fp, us_per_io(r, r->user_s + r->system_s), 4);
    fputs(",\n                  \"thread_user_s\": ", fp);
    agent_json_num(fp, r->thread_user_s, 6);
    fputs(", \"thread_system_s\": ", fp);
    agent_json_num(fp, r->thread_system_s, 6);
    fputs(", \"thread_us_per_io\": ", fp);
    agent_json_num(fp, us_per_io(r, r->thread_user_s + r->thread_system_s), 4);
    fputs("},\n          \"iops_series\": {\"interval_s\": 1, \"values\": [", fp);
    for (size_t i = 0; i < dd->n_series; i++) {
        if (i)
            fputs(", ", fp);
        agent_json_num(fp, dd->series[i], 1);
    }
    fprintf(fp, "]},\n          \"steady_state\": {\"metric\": \"iops_slope\", "
            "\"limit\": %g, \"percent\": %s, \"dur_s\": %g, \"ramp_s\": %g, "
            "\"from_job\": %s, \"reached\": %s, \"at_s\": ", r->ss.limit,
            r->ss.percent ? "true" : "false", r->ss.dur_s, r->ss.ramp_s,
            r->ss.from_job ? "true" : "false", r->ss.reached ? "true" : "false");
    if (r->ss.reached)
        agent_json_num(fp, r->ss.at_s, 3);
    else
        fputs("null", fp);
    fputs(", \"slope\": ", fp);
    agent_json_num(fp, r->ss.slope, 3);
    fputs(", \"criterion\": ", fp);
    agent_json_num(fp, r->ss.criterion, 4);
    fprintf(fp, "},\n          \"trace_digest\": \"%016llx\"}}",
            (unsigned long long)r->digest);
}

void
agent_job_format_samples(FILE *fp, const struct agent_job_result *r,
                         const char *pass, int *first)
{
    int ok = r->state == AGENT_DONE && r->elapsed_s > 0;

    for (int d = 0; d < AGENT_DDIR_COUNT; d++) {
        if (!ddir_active(r, d) || r->state == AGENT_NOT_RUN)
            continue;
        fprintf(fp, "%s        {\"test\": \"%s\", ",
                *first ? "" : ",\n", agent_workload_test_id[d]);
        if (pass)
            fprintf(fp, "\"pass\": \"%s\", ", pass);
        fputs("\"value\": ", fp);
        *first = 0;
        if (ok)
            agent_json_num(fp, agent_job_iops(r, d), 3);
        else
            fputs("null", fp);
        fprintf(fp, ", \"unit\": \"%s\", \"cpu_percent\": ", agent_workload_test_unit[d]);
        if (ok)
            agent_json_num(fp, (r->user_s + r->system_s) / r->elapsed_s * 100.0, 1);
        else
            fputs("null", fp);
        fputs(", \"latency_us\": ", fp);
        if (ok && r->d[d].clat.n)
            agent_json_num(fp, (double)r->d[d].clat.max / 1e3, 0);
        else
            fputs("null", fp);
        fputs(",\n         \"elapsed_s\": ", fp);
        if (ok)
            agent_json_num(fp, r->elapsed_s, 6);
        else
            fputs("null", fp);
        fprintf(fp, ", \"too_fast\": %s, \"failed\": %s, \"error\": ",
                ok && r->elapsed_s < AGENT_MIN_TIME ? "true" : "false",
                r->state == AGENT_FAILED ? "true" : "false");
        agent_json_str(fp, r->state == AGENT_FAILED ? r->error : NULL);
        fputs(",\n", fp);
        json_workload(fp, r, d);
    }
}
