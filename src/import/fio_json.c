/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp importers: fio 3.x JSON output (`fio --output-format=json`
 * and `json+`), as fio's stat.c show_thread_status_json writes it, into
 * workload samples (doc/importers.md "fio JSON", doc/result-format.md
 * "Workload samples").
 *
 * One fio file is one run (repetition) of each target it names.  Every job
 * entry of "jobs" gives a workload_read sample when it read and a
 * workload_write sample when it wrote (total_ios > 0), keyed by its job
 * name; its parameters come from its "job options" over the top level's
 * "global options".  Targets (--group-by): machine (default) = the job's
 * `filename` (the device or file fio measured, as a dd run's device), else
 * --target; label = the job's name (each job its own target; the
 * workload is then named by its parameters, RW-BS-qdDEPTH, so that equal
 * jobs on different targets compare); none = everything into --target.
 *
 * The input is untrusted: every member read is type- and range-checked,
 * errors name the JSON path ("FILE: jobs[1].read.clat_ns.N: expected an
 * integer >= 0"), and the file is imported whole or not at all. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "common/util.h"
#include "import/import_priv.h"

/* fio's latency percentiles are bucket midpoints of a log-linear
 * histogram with 64 buckets per power of two (FIO_IO_U_PLAT_BITS 6):
 * within half a bucket, 1/128, of the exact value */
#define FIO_PERCENTILE_REL_ERROR 0.0078125

typedef struct {
    const char *file;
    GString *path;
} fio_ctx;

static int __attribute__((format(printf, 2, 3)))
fio_fail(fio_ctx *c, const char *fmt, ...)
{
    va_list ap;
    char *msg;

    va_start(ap, fmt);
    msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    vdc_input_error("%s: %s: %s", c->file, c->path->len ? c->path->str : "(top level)", msg);
    g_free(msg);
    return -1;
}

static gsize
push(fio_ctx *c, const char *member)
{
    gsize saved = c->path->len;

    if (c->path->len)
        g_string_append_c(c->path, '.');
    g_string_append(c->path, member);
    return saved;
}

static void
pop(fio_ctx *c, gsize saved)
{
    g_string_truncate(c->path, saved);
}

/* A number member of @o (fio writes integers and doubles): 0 absent (left
 * alone), 1 found, -1 after a message (wrong type, negative, not finite). */
static int
get_num(fio_ctx *c, JsonObject *o, const char *member, double *out)
{
    JsonNode *n = json_object_get_member(o, member);
    gsize saved;
    GType t;
    double d;

    if (!n)
        return 0;
    saved = push(c, member);
    t = JSON_NODE_HOLDS_VALUE(n) ? json_node_get_value_type(n) : G_TYPE_INVALID;
    if (t != G_TYPE_INT64 && t != G_TYPE_DOUBLE)
        return fio_fail(c, "expected a number");
    d = t == G_TYPE_INT64 ? (double)json_node_get_int(n) : json_node_get_double(n);
    if (!isfinite(d) || d < 0)
        return fio_fail(c, "expected a number >= 0");
    pop(c, saved);
    *out = d;
    return 1;
}

static int
get_count(fio_ctx *c, JsonObject *o, const char *member, int64_t *out)
{
    double d = 0;
    int rc = get_num(c, o, member, &d);

    if (rc <= 0)
        return rc;
    if (d != floor(d) || d > 9.0e15) {
        gsize saved = push(c, member);

        rc = fio_fail(c, "expected an integer >= 0");
        pop(c, saved);
        return rc;
    }
    *out = (int64_t)d;
    return 1;
}

/* An object member: NULL absent, else the object; -1 in *rc for a wrong type. */
static JsonObject *
get_obj(fio_ctx *c, JsonObject *o, const char *member, int *rc)
{
    JsonNode *n = json_object_get_member(o, member);
    gsize saved;

    *rc = 0;
    if (!n)
        return NULL;
    if (!JSON_NODE_HOLDS_OBJECT(n)) {
        saved = push(c, member);
        *rc = fio_fail(c, "expected an object");
        pop(c, saved);
        return NULL;
    }
    return json_node_get_object(n);
}

/* ---- fio option values ("4k", "15s", "1") ------------------------------------- */

/* An option of the job's "job options" over the "global options" (fio
 * writes every value as a string); NULL when neither sets it.  A value of
 * another type is an error (*rc = -1). */
static const char *
option(fio_ctx *c, JsonObject *job, JsonObject *global, const char *name, int *rc)
{
    JsonObject *sets[2] = { job, global };
    const char *where[2] = { "job options", "global options" };
    int i;

    *rc = 0;
    for (i = 0; i < 2; i++) {
        JsonNode *n = sets[i] ? json_object_get_member(sets[i], name) : NULL;

        if (!n)
            continue;
        if (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING) {
            GString *keep = g_string_new(c->path->str);
            gsize saved;

            if (i == 1)   /* the top level's */
                g_string_truncate(c->path, 0);
            saved = push(c, where[i]);
            push(c, name);
            *rc = fio_fail(c, "expected a string");
            pop(c, saved);
            g_string_assign(c->path, keep->str);
            g_string_free(keep, TRUE);
            return NULL;
        }
        return json_node_get_string(n);
    }
    return NULL;
}

/* fio's size syntax (parse.c str_to_decimal, kb_base 1024): digits, an
 * optional k/m/g/t (KiB.., any case, optional "iB"/"B"); for bs= the
 * @ddir-th of a comma list "read,write" (a missing one repeats the first).
 * 0 or -1. */
static int
fio_size(const char *s, int ddir, int64_t *out)
{
    char **parts = g_strsplit(s, ",", 3);
    const char *p = parts[0];
    char *end = NULL;
    guint64 v, mul = 1;
    int rc = -1;

    if (ddir == 1 && parts[0] && parts[1] && *parts[1])
        p = parts[1];
    if (!p || !g_ascii_isdigit(*p))
        goto out;
    v = g_ascii_strtoull(p, &end, 10);
    switch (g_ascii_tolower(*end)) {
    case 'k': mul = 1ULL << 10; end++; break;
    case 'm': mul = 1ULL << 20; end++; break;
    case 'g': mul = 1ULL << 30; end++; break;
    case 't': mul = 1ULL << 40; end++; break;
    default: break;
    }
    if (mul > 1 && (!g_ascii_strcasecmp(end, "ib") || !g_ascii_strcasecmp(end, "b")))
        end += strlen(end);
    if (*end || v > G_MAXINT64 / mul)
        goto out;
    *out = (int64_t)(v * mul);
    rc = 0;
 out:
    g_strfreev(parts);
    return rc;
}

/* fio's time syntax: a number with an optional unit (default seconds):
 * us, ms, s, m, h, d.  Seconds; 0 or -1. */
static int
fio_time(const char *s, double *out)
{
    static const struct { const char *unit; double s; } units[] = {
        { "", 1 }, { "s", 1 }, { "us", 1e-6 }, { "ms", 1e-3 }, { "m", 60 }, { "h", 3600 },
        { "d", 86400 },
    };
    char *end = NULL;
    double v;
    size_t i;

    if (!g_ascii_isdigit(*s))
        return -1;
    v = g_ascii_strtod(s, &end);
    for (i = 0; i < G_N_ELEMENTS(units); i++)
        if (!g_ascii_strcasecmp(end, units[i].unit)) {
            *out = v * units[i].s;
            return isfinite(*out) ? 0 : -1;
        }
    return -1;
}

/* fio's integers (parse.c str_to_decimal): decimal (a leading 0 too), or
 * hex after 0x; 0 or -1 */
static int
fio_int(const char *s, int64_t *out)
{
    size_t n;

    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
        return vdc_import_count(s, strlen(s), out);
    n = strlen(s + 2);
    if (!n || n > 15 || strspn(s + 2, "0123456789abcdefABCDEF") != n)
        return -1;
    *out = (int64_t)g_ascii_strtoull(s + 2, NULL, 16);
    return 0;
}

/* a boolean option: "1"/"0", "true"/"false" (a bare flag is "1") */
static int
fio_bool(const char *s, int *out)
{
    if (!strcmp(s, "1") || !g_ascii_strcasecmp(s, "true") || !*s)
        *out = 1;
    else if (!strcmp(s, "0") || !g_ascii_strcasecmp(s, "false"))
        *out = 0;
    else
        return -1;
    return 0;
}

/* fio's batch options (and their aliases) with fio's defaults and
 * fixups (init.c fixup_options): submit 1 (0 or over iodepth: iodepth),
 * complete_min 1, complete_max at least complete_min; both completion
 * counts at most iodepth, as fio's loop uses them and the agent records
 * them.  0, or -1 after a
 * message naming the option. */
static int
batch_params(fio_ctx *c, JsonObject *jo, JsonObject *go, vdc_job_params *p)
{
    static const char *const names[][2] = {
        { "iodepth_batch", "iodepth_batch_submit" },
        { "iodepth_batch_complete_min", "iodepth_batch_complete" },
        { "iodepth_batch_complete_max", NULL },
    };
    int64_t *dst[] = { &p->iodepth_batch_submit, &p->iodepth_batch_complete_min,
                       &p->iodepth_batch_complete_max };
    static const int64_t defaults[] = { 1, 1, 0 };
    size_t i, k;

    for (i = 0; i < G_N_ELEMENTS(names); i++) {
        *dst[i] = defaults[i];
        for (k = 0; k < 2 && names[i][k]; k++) {
            int rc;
            const char *v = option(c, jo, go, names[i][k], &rc);

            if (rc < 0)
                return -1;
            if (!v)
                continue;
            if (fio_int(v, dst[i]) < 0 || *dst[i] > VDC_WORKLOAD_DEPTH_MAX) {
                gsize s = push(c, "job options");

                fio_fail(c, "%s=%s: expected a whole number from 0 to %d", names[i][k], v,
                         VDC_WORKLOAD_DEPTH_MAX);
                pop(c, s);
                return -1;
            }
            break;
        }
    }
    if (!p->iodepth_batch_submit || p->iodepth_batch_submit > p->iodepth)
        p->iodepth_batch_submit = p->iodepth;
    /* what fio's loop can use: never more than are in flight (io.c
     * td_io_getevents caps both at cur_depth), as the agent records it */
    if (p->iodepth_batch_complete_min > p->iodepth)
        p->iodepth_batch_complete_min = p->iodepth;
    if (p->iodepth_batch_complete_max < p->iodepth_batch_complete_min)
        p->iodepth_batch_complete_max = p->iodepth_batch_complete_min;
    if (!p->iodepth_batch_complete_max)
        p->iodepth_batch_complete_max = 1;
    if (p->iodepth_batch_complete_max > p->iodepth)
        p->iodepth_batch_complete_max = p->iodepth;
    return 0;
}

/* The job parameters from the options.  0, or -1 after a message naming
 * the option. */
static int
job_params(fio_ctx *c, JsonObject *jo, JsonObject *go, int ddir, vdc_job_params *p)
{
    static const char *const size_opts[] = { "bs", "size", "offset" };
    int64_t *size_dst[] = { &p->bs, &p->size, &p->offset };
    static const char *const int_opts[] = { "rwmixread", "iodepth", "numjobs" };
    int64_t *int_dst[] = { &p->rwmixread, &p->iodepth, &p->numjobs };
    static const char *const time_opts[] = { "runtime", "ramp_time" };
    double *time_dst[] = { &p->runtime_s, &p->ramp_time_s };
    const char *v;
    size_t i;
    int rc;

#define OPT(name_) (v = option(c, jo, go, name_, &rc), rc < 0 ? -1 : v != NULL)
#define BAD(name_, what_) \
    do { \
        gsize s_ = push(c, "job options"); \
        fio_fail(c, "%s=%s: expected %s", name_, v, what_); \
        pop(c, s_); \
        return -1; \
    } while (0)

    if ((rc = OPT("rw")) < 0 || (rc == 0 && (rc = OPT("readwrite")) < 0))
        return -1;
    if (rc) {
        static const char *const rws[][2] = {
            { "read", "read" }, { "write", "write" }, { "randread", "randread" },
            { "randwrite", "randwrite" }, { "rw", "rw" }, { "readwrite", "rw" },
            { "randrw", "randrw" },
        };
        for (i = 0; i < G_N_ELEMENTS(rws) && strcmp(v, rws[i][0]); i++)
            ;
        if (i == G_N_ELEMENTS(rws))
            BAD("rw", "read, write, randread, randwrite, rw, readwrite or randrw");
        vdc_set_str(&p->rw, rws[i][1]);
    } else {
        vdc_set_str(&p->rw, "read");   /* fio's default */
    }
    for (i = 0; i < G_N_ELEMENTS(size_opts); i++) {
        if ((rc = OPT(size_opts[i])) < 0)
            return -1;
        if (rc && strchr(v, '%'))
            continue;   /* a share of the file: not a size */
        if (rc && fio_size(v, ddir, size_dst[i]) < 0)
            BAD(size_opts[i], "a size (4k, 1m, 1g)");
    }
    if (p->bs == VDC_INT_ABSENT)
        p->bs = 4096;   /* fio's default */
    for (i = 0; i < G_N_ELEMENTS(int_opts); i++) {
        if ((rc = OPT(int_opts[i])) < 0)
            return -1;
        if (rc && fio_int(v, int_dst[i]) < 0)
            BAD(int_opts[i], "a whole number");
    }
    if (p->rwmixread == VDC_INT_ABSENT) {
        int64_t w;

        if ((rc = OPT("rwmixwrite")) < 0)
            return -1;
        if (rc && (fio_int(v, &w) < 0 || w > 100))
            BAD("rwmixwrite", "a whole number from 0 to 100");
        if (!strcmp(p->rw, "rw") || !strcmp(p->rw, "randrw"))
            p->rwmixread = rc ? 100 - w : 50;
    }
    if (p->iodepth == VDC_INT_ABSENT)
        p->iodepth = 1;
    if (p->numjobs == VDC_INT_ABSENT)
        p->numjobs = 1;
    if (batch_params(c, jo, go, p) < 0)
        return -1;
    for (i = 0; i < G_N_ELEMENTS(time_opts); i++) {
        if ((rc = OPT(time_opts[i])) < 0)
            return -1;
        if (rc && fio_time(v, time_dst[i]) < 0)
            BAD(time_opts[i], "a time (15, 15s, 500ms, 1m)");
    }
    if ((rc = OPT("direct")) < 0)
        return -1;
    if (rc && fio_bool(v, &p->direct) < 0)
        BAD("direct", "0 or 1");
    if (!rc)
        p->direct = 0;
    if ((rc = OPT("time_based")) < 0)
        return -1;
    if (rc && fio_bool(v, &p->time_based) < 0)
        BAD("time_based", "0 or 1");
    /* fio scrambles write buffers unless told not to or to zero them */
    p->scramble_buffers = 1;
    if ((rc = OPT("scramble_buffers")) < 0)
        return -1;
    if (rc && fio_bool(v, &p->scramble_buffers) < 0)
        BAD("scramble_buffers", "0 or 1");
    if (!rc) {
        int zero = 1;   /* a flag given without a value is on */

        if ((rc = OPT("zero_buffers")) < 0)
            return -1;
        if (rc && *v && fio_bool(v, &zero) < 0)
            BAD("zero_buffers", "0 or 1");
        if (rc && zero)
            p->scramble_buffers = 0;
    }
    /* norandommap only when the job options say it (a flag: on without a
     * value); fio 3.33's JSON leaves a flag given without a value out of
     * "job options", so its absence is not a random map: unknown */
    if ((rc = OPT("norandommap")) < 0)
        return -1;
    if (rc) {
        int on = 1;     /* a flag given without a value is on */

        if (*v && fio_bool(v, &on) < 0) {
            int64_t n;  /* fio takes any number for a flag: not 0 is on */

            if (vdc_import_count(v, strlen(v), &n) < 0)
                BAD("norandommap", "0, 1 or a number");
            on = n != 0;
        }
        p->norandommap = on;
    }
    if ((rc = OPT("randseed")) < 0)
        return -1;
    if (rc) {
        int64_t seed;

        if (vdc_import_count(v, strlen(v), &seed) < 0)
            BAD("randseed", "a whole number");
        vdc_set_str(&p->randseed, v);
    }
    if ((rc = OPT("ioengine")) < 0)
        return -1;
    if (rc)
        vdc_set_str(&p->ioengine, v);
    if ((rc = OPT("description")) < 0)
        return -1;
    if (rc)
        vdc_set_str(&p->description, v);
#undef OPT
#undef BAD
    return 0;
}

/* ---- latency ------------------------------------------------------------------ */

/* fio's nanoseconds as microseconds, in the shortest decimal form of the
 * quotient (133850.501661 ns -> 133.850501661, not 133.85050166099998) */
static double
ns_to_us(double ns)
{
    char buf[G_ASCII_DTOSTR_BUF_SIZE];

    g_ascii_formatd(buf, sizeof(buf), "%.15g", ns / 1e3);
    return g_ascii_strtod(buf, NULL);
}

/* clat_ns / slat_ns / lat_ns of one direction into microseconds.  An
 * object with N 0 leaves @l absent. */
static int
latency(fio_ctx *c, JsonObject *dir, const char *member, vdc_latency_us *l)
{
    static const struct { const char *key; size_t off; } pct[] = {
        { "50.000000", offsetof(vdc_latency_us, p50) },
        { "90.000000", offsetof(vdc_latency_us, p90) },
        { "99.000000", offsetof(vdc_latency_us, p99) },
        { "99.900000", offsetof(vdc_latency_us, p99_9) },
        { "99.990000", offsetof(vdc_latency_us, p99_99) },
    };
    JsonObject *o, *po;
    double min = NAN, max = NAN, mean = NAN, d;
    int64_t n = 0;
    gsize saved;
    size_t i;
    int rc;

    o = get_obj(c, dir, member, &rc);
    if (!o)
        return rc;
    saved = push(c, member);
    if (get_count(c, o, "N", &n) < 0 || get_num(c, o, "min", &min) < 0 ||
        get_num(c, o, "max", &max) < 0 || get_num(c, o, "mean", &mean) < 0)
        return -1;
    if (n > 0) {
        l->n = n;
        l->min = ns_to_us(min);
        l->max = ns_to_us(max);
        l->mean = ns_to_us(mean);
        po = get_obj(c, o, "percentile", &rc);
        if (rc < 0)
            return -1;
        if (po) {
            gsize s2 = push(c, "percentile");

            for (i = 0; i < G_N_ELEMENTS(pct); i++) {
                d = NAN;
                if (get_num(c, po, pct[i].key, &d) < 0)
                    return -1;
                *(double *)((char *)l + pct[i].off) = vdc_has(d) ? ns_to_us(d) : NAN;
            }
            pop(c, s2);
        }
    }
    pop(c, saved);
    return 0;
}

/* ---- jobs ------------------------------------------------------------------------- */

/* A name for the workload from its parameters, as the shipped profiles
 * are named: randread-4k-qd32, randrw-70-30-8k-qd16, read-1m-qd8. */
static char *
param_name(const vdc_job_params *p)
{
    char bs[32];
    GString *s = g_string_new(p->rw);

    if (p->rwmixread != VDC_INT_ABSENT)
        g_string_append_printf(s, "-%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT,
                               (gint64)p->rwmixread, (gint64)(100 - p->rwmixread));
    if (p->bs % (1 << 20) == 0)
        snprintf(bs, sizeof(bs), "%" G_GINT64_FORMAT "m", (gint64)(p->bs >> 20));
    else if (p->bs % 1024 == 0)
        snprintf(bs, sizeof(bs), "%" G_GINT64_FORMAT "k", (gint64)(p->bs >> 10));
    else
        snprintf(bs, sizeof(bs), "%" G_GINT64_FORMAT, (gint64)p->bs);
    g_string_append_printf(s, "-%s-qd%" G_GINT64_FORMAT, bs, (gint64)p->iodepth);
    if (p->numjobs > 1)
        g_string_append_printf(s, "-j%" G_GINT64_FORMAT, (gint64)p->numjobs);
    return g_string_free(s, FALSE);
}

/* One direction of job @jo (jobs[i]) into a sample of @run, when it moved
 * any I/O.  0, or -1 after a message. */
static int
job_direction(fio_ctx *c, JsonObject *jo, JsonObject *go, int ddir, const char *wname,
              double usr_cpu, double sys_cpu, double job_runtime_ms, int64_t all_ios,
              int64_t error, vdc_run *run)
{
    const char *dname = ddir ? "write" : "read";
    JsonObject *d, *opts;
    vdc_sample *s;
    vdc_workload *w;
    double iops = NAN, runtime_ms = NAN, bw_bytes = NAN;
    int64_t ios = 0, bytes = 0;
    const char *member = NULL;
    char *why = NULL;
    gsize saved;
    int rc;

    d = get_obj(c, jo, dname, &rc);
    if (!d)
        return rc;
    saved = push(c, dname);
    if (get_count(c, d, "total_ios", &ios) < 0 || get_count(c, d, "io_bytes", &bytes) < 0 ||
        get_num(c, d, "iops", &iops) < 0 || get_num(c, d, "runtime", &runtime_ms) < 0 ||
        get_num(c, d, "bw_bytes", &bw_bytes) < 0)
        return -1;
    if (ios == 0 && error) {
        /* a failed job moved nothing: its failure belongs to the
         * directions its rw asks for (fio's default: read) */
        const char *rw = option(c, jo, go, "rw", &rc);

        if (rc < 0 || (!rw && (rw = option(c, jo, go, "readwrite", &rc), rc < 0)))
            return -1;
        rw = rw ? rw : "read";
        if (!(strstr(rw, ddir ? "write" : "read") || !strcmp(rw, "rw") || !strcmp(rw, "randrw"))) {
            pop(c, saved);
            return 0;
        }
    } else if (ios == 0) {
        pop(c, saved);
        return 0;   /* this direction did nothing */
    }
    if (ios > 0 && !vdc_has(iops))
        return fio_fail(c, "iops: missing");
    s = vdc_run_add_sample(run, ddir ? "workload_write" : "workload_read");
    w = s->workload = vdc_workload_new();
    vdc_set_str(&w->name, wname);
    vdc_set_str(&w->source, c->file);
    if (error) {
        s->failed = 1;
        s->error = g_strdup_printf("fio reported error %" G_GINT64_FORMAT " for this job",
                                   (gint64)error);
    } else {
        s->value = iops;
    }
    if (vdc_has(runtime_ms)) {
        s->elapsed_s = runtime_ms / 1e3;
        s->too_fast = s->elapsed_s < 0.5;
    }
    if (vdc_has(usr_cpu) && vdc_has(sys_cpu))
        s->cpu_percent = usr_cpu + sys_cpu;
    w->ios = ios;
    w->bytes = bytes;
    if (vdc_has(bw_bytes))
        w->bandwidth_kib_s = bw_bytes / 1024.0;
    if (latency(c, d, "clat_ns", &w->clat_us) < 0 || latency(c, d, "slat_ns", &w->slat_us) < 0)
        return -1;
    {
        vdc_latency_us lat;

        memset(&lat, 0, sizeof(lat));
        lat.n = VDC_INT_ABSENT;
        lat.max = NAN;
        if (latency(c, d, "lat_ns", &lat) < 0)
            return -1;
        /* the worst single I/O, submission and completion */
        s->latency_us = vdc_has(lat.max) ? lat.max : w->clat_us.max;
    }
    if (vdc_has(w->clat_us.p50))
        w->percentile_relative_error = FIO_PERCENTILE_REL_ERROR;
    pop(c, saved);
    opts = get_obj(c, jo, "job options", &rc);
    if (rc < 0 || job_params(c, opts, go, ddir, &w->job) < 0)
        return -1;
    vdc_set_str(&w->job.name, json_object_get_string_member(jo, "jobname"));   /* checked */
    if (w->job.ioengine)
        vdc_set_str(&w->engine, w->job.ioengine);
    if (vdc_has(usr_cpu) && vdc_has(sys_cpu) && vdc_has(job_runtime_ms)) {
        w->cpu.thread_user_s = usr_cpu / 100.0 * job_runtime_ms / 1e3;
        w->cpu.thread_system_s = sys_cpu / 100.0 * job_runtime_ms / 1e3;
        if (all_ios > 0)
            w->cpu.thread_us_per_io = (w->cpu.thread_user_s + w->cpu.thread_system_s) * 1e6
                                      / (double)all_ios;
    }
    if (vdc_workload_check(w, &member, &why) < 0) {
        rc = fio_fail(c, "%s (the workload's %s)", why, member);
        g_free(why);
        return rc;
    }
    return 0;
}

/* The group key of job @jo by @group_by (NULL: none), borrowed from @jo. */
static const char *
job_group(JsonObject *jo, JsonObject *go, const char *jobname, vdc_group_by group_by)
{
    JsonObject *opts;
    JsonNode *n = NULL;

    if (group_by == VDC_GROUP_NONE)
        return NULL;
    if (group_by == VDC_GROUP_LABEL)
        return jobname;
    opts = json_object_has_member(jo, "job options") &&
           JSON_NODE_HOLDS_OBJECT(json_object_get_member(jo, "job options"))
           ? json_object_get_object_member(jo, "job options") : NULL;
    if (opts)
        n = json_object_get_member(opts, "filename");
    if (!n && go)
        n = json_object_get_member(go, "filename");
    if (n && JSON_NODE_HOLDS_VALUE(n) && json_node_get_value_type(n) == G_TYPE_STRING &&
        *json_node_get_string(n))
        return json_node_get_string(n);
    return NULL;
}

/* Where fio's JSON starts in @data: at a '{' whose first member is "fio
 * version", at the start or at the start of a line after lines fio printed
 * on standard output before it ("note: both iodepth >= 1 and synchronous
 * I/O engine are selected, ...").  Sets *off and *line (1-based line of
 * the '{'); 1 found, 0 not fio's. */
static int
fio_start(const char *data, size_t len, size_t *off, unsigned *line)
{
    static const char key[] = "\"fio version\"";
    size_t i = 0, j;
    unsigned l = 1;

    if (len >= 3 && !memcmp(data, "\xef\xbb\xbf", 3))
        i = 3;
    for (; i < len && l <= 100; l++) {
        for (j = i; j < len && (data[j] == ' ' || data[j] == '\t' || data[j] == '\r'); j++)
            ;
        if (j < len && data[j] == '{') {
            size_t k = j + 1;

            while (k < len && g_ascii_isspace(data[k]))
                k++;
            if (len - k >= sizeof(key) - 1 && !memcmp(data + k, key, sizeof(key) - 1)) {
                *off = j;
                *line = l;
                return 1;
            }
            return 0;
        }
        while (i < len && data[i] != '\n')
            i++;
        i++;
    }
    return 0;
}

int
vdc_import_fio_detect(const char *data, size_t len)
{
    size_t off;
    unsigned line;

    return fio_start(data, len, &off, &line);
}

/* "time" of the document's top level: fio's "timestamp" (seconds since
 * the epoch) as ISO 8601 UTC */
static char *
fio_date(JsonObject *top)
{
    JsonNode *n = json_object_get_member(top, "timestamp");
    time_t t;
    struct tm tm;
    char buf[32];

    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64)
        return NULL;
    t = (time_t)json_node_get_int(n);
    if (json_node_get_int(n) < 0 || !gmtime_r(&t, &tm) ||
        !strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm))
        return NULL;
    return g_strdup(buf);
}

int
vdc_import_fio(vdc_result_set *rs, const char *data, size_t len, const char *file,
               const char *target, vdc_group_by group_by)
{
    JsonParser *parser = json_parser_new_immutable();
    GError *err = NULL;
    fio_ctx c = { .file = file, .path = g_string_new(NULL) };
    GHashTable *runs = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    GHashTable *keys = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    JsonObject *top, *go;
    JsonNode *n;
    JsonArray *jobs;
    const char *version = NULL;
    char *date = NULL;
    int rc = -1, jsonplus = 0, several = 0;
    size_t start = 0;
    unsigned first_line = 1;
    const char *first_group = NULL;
    guint i;

    if (len > G_MAXSSIZE || memchr(data, '\0', len)) {
        vdc_input_error("%s: expected fio JSON output, found a NUL byte (binary data?)", file);
        goto out;
    }
    if (fio_start(data, len, &start, &first_line)) {
        data += start;   /* fio's notes before its JSON */
        len -= start;
    }
    if (!vdc_json_depth_ok(data, len, file))
        goto out;
    if (!json_parser_load_from_data(parser, data, (gssize)len, &err)) {
        unsigned line = 0, col = 0;
        g_autofree char *why = vdc_json_error_text(err, &line, &col);

        if (line)
            vdc_input_error("%s:%u:%u: invalid JSON: %s", file, line + first_line - 1, col, why);
        else
            vdc_input_error("%s: invalid JSON: %s", file, why);
        g_error_free(err);
        goto out;
    }
    n = json_parser_get_root(parser);
    if (!n || !JSON_NODE_HOLDS_OBJECT(n)) {
        fio_fail(&c, "expected an object (fio --output-format=json)");
        goto out;
    }
    top = json_node_get_object(n);
    n = json_object_get_member(top, "fio version");
    if (!n || !JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING) {
        g_string_assign(c.path, "fio version");
        fio_fail(&c, "expected a string such as \"fio-3.33\" (fio --output-format=json)");
        goto out;
    }
    version = json_node_get_string(n);
    if (!g_str_has_prefix(version, "fio-3.")) {
        g_string_assign(c.path, "fio version");
        fio_fail(&c, "expected fio 3.x (\"fio-3.33\"), found \"%.40s\"", version);
        goto out;
    }
    go = get_obj(&c, top, "global options", &rc);
    if (rc < 0)
        goto out;
    rc = -1;
    n = json_object_get_member(top, "jobs");
    if (!n || !JSON_NODE_HOLDS_ARRAY(n) || !json_array_get_length(json_node_get_array(n))) {
        g_string_assign(c.path, "jobs");
        fio_fail(&c, n ? "expected a non-empty array of jobs" : "missing");
        goto out;
    }
    jobs = json_node_get_array(n);
    date = fio_date(top);
    /* the groups first: one group, or none, goes by --target's name */
    for (i = 0; i < json_array_get_length(jobs); i++) {
        JsonNode *e = json_array_get_element(jobs, i);
        JsonNode *jn;
        const char *g;

        g_string_printf(c.path, "jobs[%u]", i);
        if (!JSON_NODE_HOLDS_OBJECT(e)) {
            fio_fail(&c, "expected an object");
            goto out;
        }
        jn = json_object_get_member(json_node_get_object(e), "jobname");
        if (!jn || !JSON_NODE_HOLDS_VALUE(jn) || json_node_get_value_type(jn) != G_TYPE_STRING ||
            !vdc_target_name_ok(json_node_get_string(jn))) {
            g_string_append(c.path, ".jobname");
            fio_fail(&c, "expected a one-line job name of 1 to %d bytes", VDC_TARGET_NAME_MAX);
            goto out;
        }
        g = job_group(json_node_get_object(e), go, json_node_get_string(jn), group_by);
        if (!g && !target) {
            fio_fail(&c, "job '%s' names no %s: expected --target NAME", json_node_get_string(jn),
                     group_by == VDC_GROUP_NONE ? "target (--group-by none)"
                     : "filename (the device or file it measured)");
            goto out;
        }
        if (g && !first_group)
            first_group = g;
        else if (g && strcmp(g, first_group))
            several = 1;
    }
    for (i = 0; i < json_array_get_length(jobs); i++) {
        JsonObject *jo = json_array_get_object_element(jobs, i);
        const char *jobname = json_object_get_string_member(jo, "jobname");
        const char *g = job_group(jo, go, jobname, group_by);
        char *tname = !g ? g_strdup(target) : !target ? g_strdup(g)
                      : several ? g_strdup_printf("%s/%s", target, g) : g_strdup(target);
        double usr = NAN, sys = NAN, jrt = NAN;
        int64_t error = 0, rios = 0, wios = 0;
        JsonObject *rd, *wr;
        char *wname = NULL, *key;
        vdc_run *run;
        size_t before;
        int d, r2;

        g_string_printf(c.path, "jobs[%u]", i);
        if (!vdc_target_name_ok(tname)) {
            fio_fail(&c, "the target name '%.40s...' is too long: expected at most %d bytes",
                     tname, VDC_TARGET_NAME_MAX);
            g_free(tname);
            goto out;
        }
        run = g_hash_table_lookup(runs, tname);
        if (!run) {
            run = vdc_result_set_add_run(rs, tname);
            g_hash_table_insert(runs, g_strdup(tname), run);
            vdc_set_str(&run->meta.tool, version);
            vdc_set_str(&run->meta.date, date);
            vdc_set_str(&run->meta.source.file, file);
        }
        if (get_count(&c, jo, "error", &error) < 0 || get_num(&c, jo, "usr_cpu", &usr) < 0 ||
            get_num(&c, jo, "sys_cpu", &sys) < 0 || get_num(&c, jo, "job_runtime", &jrt) < 0) {
            g_free(tname);
            goto out;
        }
        rd = get_obj(&c, jo, "read", &r2);
        if (r2 < 0 || (rd && (push(&c, "read"), get_count(&c, rd, "total_ios", &rios) < 0))) {
            g_free(tname);
            goto out;
        }
        g_string_printf(c.path, "jobs[%u]", i);
        wr = get_obj(&c, jo, "write", &r2);
        if (r2 < 0 || (wr && (push(&c, "write"), get_count(&c, wr, "total_ios", &wios) < 0))) {
            g_free(tname);
            goto out;
        }
        g_string_printf(c.path, "jobs[%u]", i);
        if (group_by == VDC_GROUP_LABEL) {
            /* each job is its own target: name the workload by its parameters */
            JsonObject *opts = get_obj(&c, jo, "job options", &r2);
            vdc_workload *scratch = vdc_workload_new();

            if (r2 < 0 || job_params(&c, opts, go, 0, &scratch->job) < 0) {
                vdc_workload_free(scratch);
                g_free(tname);
                goto out;
            }
            wname = param_name(&scratch->job);
            vdc_workload_free(scratch);
        } else {
            wname = g_strdup(jobname);
        }
        key = g_strdup_printf("%s\n%s", tname, wname);
        if (g_hash_table_contains(keys, key)) {
            fio_fail(&c, "job '%s' of target '%s' appears twice (numjobs without group_reporting, "
                     "or two jobs of one name): expected one entry per job (fio --group_reporting)",
                     wname, tname);
            g_free(key);
            g_free(wname);
            g_free(tname);
            goto out;
        }
        g_hash_table_add(keys, key);
        before = run->n_samples;
        for (d = 0; d < 2; d++)
            if (job_direction(&c, jo, go, d, wname, usr, sys, jrt, rios + wios, error, run) < 0) {
                g_free(wname);
                g_free(tname);
                goto out;
            }
        if (run->n_samples == before) {
            fio_fail(&c, "job '%s' did no read or write I/O (total_ios 0): expected a read, write "
                     "or mixed job", jobname);
            g_free(wname);
            g_free(tname);
            goto out;
        }
        g_free(wname);
        g_free(tname);
    }
    {
        GHashTableIter it;
        gpointer k, v;

        /* json+ adds the histogram's bins to each latency object */
        for (i = 0; i < json_array_get_length(jobs); i++) {
            static const char *const dirs[] = { "read", "write" };
            int d;

            for (d = 0; d < 2; d++) {
                JsonNode *dn = json_object_get_member(json_array_get_object_element(jobs, i), dirs[d]);
                JsonNode *cn = dn && JSON_NODE_HOLDS_OBJECT(dn)
                               ? json_object_get_member(json_node_get_object(dn), "clat_ns") : NULL;

                if (cn && JSON_NODE_HOLDS_OBJECT(cn) &&
                    json_object_has_member(json_node_get_object(cn), "bins"))
                    jsonplus = 1;
            }
        }
        g_hash_table_iter_init(&it, runs);
        while (g_hash_table_iter_next(&it, &k, &v))
            vdc_set_str(&((vdc_run *)v)->meta.source.format, jsonplus ? "fio-json+" : "fio-json");
    }
    rc = (int)g_hash_table_size(runs);
 out:
    g_free(date);
    g_hash_table_destroy(keys);
    g_hash_table_destroy(runs);
    g_string_free(c.path, TRUE);
    g_object_unref(parser);
    return rc;
}
