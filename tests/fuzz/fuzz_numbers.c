/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libFuzzer target for the numbers a result carries, from the loader to
 * every renderer.  The input is not JSON: its bytes choose the numbers of a
 * fixed, well-formed result document (three targets, image, lvm and dom0,
 * three repetitions, bonnie++ block and seek samples with %CP, latency and
 * host CPU figures, and a workload sample with its latency percentiles,
 * bandwidth and IOPS series).  Each number is drawn by a selector byte:
 * the raw bit pattern of the next 8 bytes as a double (anything from
 * denormals to DBL_MAX), a value at a physical bound times (1 +- tiny)
 * (model/result.h), or a small ordinary number.  NaN and infinities, which
 * JSON cannot carry, are written as 0.
 *
 * What must hold: the loader either refuses the document (one message) or
 * accepts it; an accepted document is analysed and rendered in every
 * format (text, Markdown, JSON, CSV, HTML with its cairo charts) within
 * libFuzzer's -timeout and -rss_limit_mb, with ASan and UBSan quiet.  A
 * value near DBL_MAX once passed the loader and made the HTML axis loop
 * forever (a guest could grow dom0's controller without bound). */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <gsl/gsl_errno.h>

#include "model/result.h"
#include "report/analysis.h"
#include "report/render.h"
#include "report/render_json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct reader {
    const uint8_t *p;
    size_t n;
};

static uint8_t
next_byte(struct reader *r)
{
    uint8_t b = 0;

    if (r->n) {
        b = *r->p++;
        r->n--;
    }
    return b;
}

/* the next number: see the file's comment; @bound is the member's own */
static double
next_num(struct reader *r, double bound)
{
    static const double bounds[] = { VDC_RATE_KIB_S_MAX, VDC_RATE_MIB_S_MAX, VDC_RATE_OPS_S_MAX,
                                     VDC_LATENCY_US_MAX, VDC_SECONDS_MAX, VDC_PERCENT_CPU_MAX,
                                     VDC_BYTES_MAX, VDC_COUNT_MAX, VDC_NUMBER_MAX, DBL_MAX, 1.5e308 };
    uint8_t sel = next_byte(r);
    double v;
    uint64_t bits = 0;
    size_t i;

    switch (sel % 4) {
    case 0:
        for (i = 0; i < 8; i++)
            bits = bits << 8 | next_byte(r);
        memcpy(&v, &bits, sizeof(v));
        break;
    case 1:
        v = bounds[next_byte(r) % G_N_ELEMENTS(bounds)] * (1 + ((int)next_byte(r) - 128) * 1e-9);
        break;
    case 2:
        v = bound * (1 + ((int)next_byte(r) - 128) * 1e-9);
        break;
    default:
        v = (double)(next_byte(r) | next_byte(r) << 8) / 16.0;
        break;
    }
    if (!isfinite(v))
        v = 0;
    return (sel & 0x80) ? -v : v;
}

static void
num(GString *s, const char *name, double v, int comma)
{
    g_string_append_printf(s, "\"%s\":%.17g%s", name, v, comma ? "," : "");
}

static void
add_samples(GString *s, struct reader *r)
{
    static const struct { const char *test, *unit; double bound; } tests[] = {
        { "put_block", "K/sec", VDC_RATE_KIB_S_MAX },
        { "get_block", "K/sec", VDC_RATE_KIB_S_MAX },
        { "seeks", "/sec", VDC_RATE_OPS_S_MAX },
    };
    size_t i;

    for (i = 0; i < G_N_ELEMENTS(tests); i++) {
        double bytes = next_num(r, VDC_BYTES_MAX), ios = next_num(r, VDC_COUNT_MAX);

        g_string_append_printf(s, "{\"test\":\"%s\",\"unit\":\"%s\",", tests[i].test, tests[i].unit);
        num(s, "value", next_num(r, tests[i].bound), 1);
        num(s, "cpu_percent", next_num(r, VDC_PERCENT_CPU_MAX), 1);
        num(s, "latency_us", next_num(r, VDC_LATENCY_US_MAX), 1);
        num(s, "elapsed_s", next_num(r, VDC_SECONDS_MAX), 1);
        g_string_append(s, "\"host\":{");
        num(s, "interval_s", next_num(r, VDC_SECONDS_MAX), 1);
        num(s, "bytes", bytes, 1);
        num(s, "ios", ios, 1);
        g_string_append(s, "\"cpu_s\":{");
        num(s, "qemu", next_num(r, VDC_SECONDS_MAX), 1);
        num(s, "dom0_busy", next_num(r, VDC_SECONDS_MAX), 1);
        num(s, "dom0_other", next_num(r, VDC_SECONDS_MAX), 0);
        g_string_append(s, "},\"cpu_s_per_gib\":{");
        num(s, "qemu", next_num(r, VDC_HOST_CPU_RATIO_MAX), 1);
        num(s, "dom0_busy", next_num(r, VDC_HOST_CPU_RATIO_MAX), 1);
        num(s, "dom0_other", next_num(r, VDC_HOST_CPU_RATIO_MAX), 0);
        g_string_append_printf(s, "},\"dom0_dirty_bytes\":[%.17g,%.17g]}},", next_num(r, VDC_BYTES_MAX),
                               next_num(r, VDC_BYTES_MAX));
    }
    g_string_append(s, "{\"test\":\"workload_read\",\"unit\":\"IO/sec\",");
    num(s, "value", next_num(r, VDC_RATE_OPS_S_MAX), 1);
    g_string_append(s, "\"workload\":{\"name\":\"rr4k\",\"on\":\"file\",\"job\":{\"name\":\"rr4k\","
                       "\"rw\":\"randread\",\"bs\":4096,\"iodepth\":8,\"numjobs\":1},\"ios\":1000,");
    num(s, "bandwidth_kib_s", next_num(r, VDC_RATE_KIB_S_MAX), 1);
    g_string_append(s, "\"clat_us\":{\"n\":1000,");
    {
        /* non-decreasing percentiles, as the loader asks: a base and steps */
        double v = fabs(next_num(r, VDC_LATENCY_US_MAX));
        static const char *const names[] = { "min", "p50", "p90", "p99", "p99.9", "p99.99", "max" };
        size_t k;

        for (k = 0; k < G_N_ELEMENTS(names); k++) {
            num(s, names[k], v, 1);
            v += fabs(next_num(r, VDC_LATENCY_US_MAX));
        }
        num(s, "mean", next_num(r, VDC_LATENCY_US_MAX), 0);
    }
    g_string_append(s, "},\"cpu\":{");
    num(s, "user_s", next_num(r, VDC_SECONDS_MAX), 1);
    num(s, "system_s", next_num(r, VDC_SECONDS_MAX), 1);
    num(s, "us_per_io", next_num(r, VDC_LATENCY_US_MAX), 0);
    g_string_append_printf(s, "},\"iops_series\":{\"interval_s\":1,\"values\":[%.17g,%.17g]}}}",
                           next_num(r, VDC_RATE_OPS_S_MAX), next_num(r, VDC_RATE_OPS_S_MAX));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const targets[][3] = { { "image", "image", "domU" }, { "lvm", "lvm", "domU" },
                                              { "dom0", "lvm", "dom0" } };
    struct reader r = { data, size };
    GString *s = g_string_new("{\"format\":\"vmdiskcmp-result\",\"format_version\":2,"
                              "\"producer\":{\"name\":\"vmdiskcmp\",\"version\":\"0.1.0\"},\"targets\":[");
    vdc_result_set rs;
    struct vdc_analysis a;
    struct vdc_stats_options so;
    size_t t, rep;
    char *out[8] = { NULL };
    size_t i;

    if (size > 4096)
        return 0;
    gsl_set_error_handler_off();     /* as src/main.c: NAN, never an abort */
    for (t = 0; t < G_N_ELEMENTS(targets); t++)
        g_string_append_printf(s, "%s{\"name\":\"%s\",\"kind\":\"%s\",\"where\":\"%s\"}", t ? "," : "",
                               targets[t][0], targets[t][1], targets[t][2]);
    g_string_append(s, "],\"runs\":[");
    for (rep = 0; rep < 3; rep++)
        for (t = 0; t < G_N_ELEMENTS(targets); t++) {
            g_string_append_printf(s, "%s{\"target\":\"%s\",\"repetition\":%zu,\"metadata\":{",
                                   rep || t ? "," : "", targets[t][0], rep);
            num(s, "ram_mib", 256, 1);
            num(s, "file_size_mib", 512, 0);
            g_string_append(s, "},\"samples\":[");
            add_samples(s, &r);
            g_string_append(s, "]}");
        }
    g_string_append(s, "]}");

    vdc_result_set_init(&rs);
    vdc_analysis_init(&a);
    vdc_stats_options_init(&so);
    so.bootstrap_resamples = 200;    /* the statistics' cost is not what is fuzzed */
    if (vdc_result_set_load_data(&rs, s->str, s->len, "fuzz") == 0 &&
        vdc_analysis_build_with(&a, &rs, NULL, &so, NULL) == 0) {
        out[0] = vdc_render_text(&rs, &a);
        out[1] = vdc_render_markdown(&rs, &a);
        out[2] = vdc_render_json(&rs, &a);
        out[3] = vdc_render_summary_csv(&rs, &a);
        out[4] = vdc_render_headline_csv(&a);
        out[5] = vdc_render_bonnie_csv(&rs);
        out[6] = vdc_render_workloads_csv(&a);
        out[7] = vdc_render_html(&rs, &a, "2026-12-06");
        if (!out[0] || !out[1] || !out[2] || !out[7])
            abort();   /* an accepted document always renders */
    }
    for (i = 0; i < G_N_ELEMENTS(out); i++)
        g_free(out[i]);
    vdc_analysis_dispose(&a);
    vdc_result_set_dispose(&rs);
    g_string_free(s, TRUE);
    return 0;
}
