/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: aged targets and passes, the pure part (aging.h). */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "aging.h"
#include "format.h"
#include "options.h"

void
agent_aging_init(struct agent_aging *a)
{
    memset(a, 0, sizeof(*a));
    a->ss_criterion = NAN;
}

static int
fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

int
agent_fill_percent_parse(const char *arg, uint32_t *out, char *err, size_t errlen)
{
    uint64_t v;

    if (agent_parse_u64(arg, &v) < 0 || v < 1 || v > AGENT_FILL_PERCENT_MAX)
        return fail(err, errlen, "--fill %s: expected a percentage from 1 to %u "
                    "(of the target's filesystem)", arg, AGENT_FILL_PERCENT_MAX);
    *out = (uint32_t)v;
    return 0;
}

int
agent_precondition_parse(const char *arg, uint32_t *max, uint32_t *window, char *err,
                         size_t errlen)
{
    char buf[64];
    char *colon;
    uint64_t m = AGENT_PRECONDITION_DEFAULT_S, w = AGENT_PRECONDITION_SS_DUR_S;

    if (arg) {
        if (strlen(arg) >= sizeof(buf))
            return fail(err, errlen, "--precondition=%.32s...: too long", arg);
        strcpy(buf, arg);
        colon = strchr(buf, ':');
        if (colon)
            *colon++ = '\0';
        if (agent_parse_u64(buf, &m) < 0 || m > 7 * 24 * 3600 ||
            (colon && (agent_parse_u64(colon, &w) < 0 || w < AGENT_PRECONDITION_SS_DUR_MIN_S ||
                       w > 3600)))
            return fail(err, errlen, "--precondition=%s: expected MAX[:WINDOW]: the most "
                        "seconds of random writes (up to 604800) and the steady state's "
                        "window (%u to 3600 s, default %u)", arg,
                        AGENT_PRECONDITION_SS_DUR_MIN_S, AGENT_PRECONDITION_SS_DUR_S);
    }
    if (m < w + w / 3)
        return fail(err, errlen, "--precondition=%s: expected at least %llu seconds (the "
                    "steady state's window of %llu s and its ramp of %llu s)", arg,
                    (unsigned long long)(w + w / 3), (unsigned long long)w,
                    (unsigned long long)(w / 3));
    *max = (uint32_t)m;
    *window = (uint32_t)w;
    return 0;
}

int
agent_passes_parse(const char *arg, char names[][AGENT_PASS_NAME_MAX], size_t *n,
                   char *err, size_t errlen)
{
    const char *p = arg;

    *n = 0;
    for (;;) {
        size_t len = strcspn(p, ","), i;

        if (*n == AGENT_PASSES_MAX || len == 0 || len >= AGENT_PASS_NAME_MAX ||
            strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789-") < len)
            return fail(err, errlen, "--passes %s: expected 1 to %u comma-separated labels "
                        "of 1-%u of [a-z0-9-] (e.g. first-write,overwrite)", arg,
                        AGENT_PASSES_MAX, AGENT_PASS_NAME_MAX - 1);
        memcpy(names[*n], p, len);
        names[*n][len] = '\0';
        for (i = 0; i < *n; i++)
            if (!strcmp(names[i], names[*n]))
                return fail(err, errlen, "--passes %s: '%s' given twice: expected each "
                            "label once", arg, names[i]);
        (*n)++;
        if (!p[len])
            return 0;
        p += len + 1;
    }
}

uint64_t
agent_fill_size(struct agent_prng *r, uint64_t cap)
{
    unsigned shift = AGENT_FILL_MIN_SHIFT +
                     (unsigned)agent_prng_below(r, AGENT_FILL_MAX_SHIFT - AGENT_FILL_MIN_SHIFT + 1);
    uint64_t lo = 1ull << shift;
    uint64_t size = lo + agent_prng_below(r, lo);

    size &= ~4095ull;               /* lo >= 4 KiB: never 0 */
    if (size > cap)
        size = cap & ~4095ull;
    return size ? size : 4096;
}

double
agent_used_percent(uint64_t blocks, uint64_t bfree, uint64_t bavail)
{
    uint64_t used = blocks > bfree ? blocks - bfree : 0;

    return used + bavail ? (double)used * 100.0 / (double)(used + bavail) : 0.0;
}

void
agent_free_extent_add(struct agent_aging *a, uint64_t len)
{
    unsigned k = 0;

    while (k + 1 < AGENT_FREE_BUCKETS && len >= (1ull << (AGENT_FREE_FIRST_SHIFT + k)))
        k++;
    a->free_count[k]++;
    a->free_extents++;
    a->free_bytes += len;
    if (len > a->largest_free)
        a->largest_free = len;
}

static void
json_u64(FILE *fp, const char *name, uint64_t v)
{
    fprintf(fp, "\"%s\": %llu", name, (unsigned long long)v);
}

void
agent_aging_format_json(FILE *fp, const struct agent_aging *a)
{
    int first = 1;

    fputs("{", fp);
    if (a->fill_percent) {
        fprintf(fp, "\"fill_percent\": %u, ", a->fill_percent);
        json_u64(fp, "seed", a->seed);
        fputs(", ", fp);
        json_u64(fp, "files_written", a->files_written);
        fputs(", ", fp);
        json_u64(fp, "files_deleted", a->files_deleted);
        fputs(",\n          ", fp);
        json_u64(fp, "bytes_written", a->bytes_written);
        fputs(", ", fp);
        json_u64(fp, "bytes_deleted", a->bytes_deleted);
        fputs(", \"used_percent\": ", fp);
        agent_json_num(fp, a->used_percent, 2);
        fputs(", \"fill_s\": ", fp);
        agent_json_num(fp, a->fill_s, 3);
        fputs(",\n          \"free_extents\": ", fp);
        if (a->free_known) {
            fputs("[", fp);
            for (unsigned k = 0; k < AGENT_FREE_BUCKETS; k++) {
                if (!a->free_count[k])
                    continue;
                fprintf(fp, "%s[%llu, %llu]", first ? "" : ", ",
                        (unsigned long long)(1ull << (AGENT_FREE_FIRST_SHIFT + k)),
                        (unsigned long long)a->free_count[k]);
                first = 0;
            }
            fputs("],\n          ", fp);
            json_u64(fp, "free_extent_count", a->free_extents);
            fputs(", ", fp);
            json_u64(fp, "free_bytes", a->free_bytes);
            fputs(", ", fp);
            json_u64(fp, "largest_free_extent", a->largest_free);
            fputs(", \"free_extents_source\": ", fp);
            agent_json_str(fp, a->free_source);
        } else {
            fputs("null, \"free_extents_source\": null", fp);
        }
        fputs(",\n          ", fp);
    }
    fputs("\"precondition\": ", fp);
    if (a->precondition_max_s) {
        fputs("{\"sequential_passes\": 1, ", fp);
        json_u64(fp, "sequential_bytes", a->seq_bytes);
        fputs(", \"sequential_s\": ", fp);
        agent_json_num(fp, a->seq_s, 3);
        fputs(", ", fp);
        json_u64(fp, "random_bytes", a->random_bytes);
        fputs(", \"random_s\": ", fp);
        agent_json_num(fp, a->random_s, 3);
        fprintf(fp, ",\n            \"steady_state\": {\"reached\": %s, \"at_s\": ",
                a->ss_reached ? "true" : "false");
        if (a->ss_reached)
            agent_json_num(fp, a->ss_at_s, 0);
        else
            fputs("null", fp);
        fputs(", \"criterion\": ", fp);
        agent_json_num(fp, a->ss_criterion, 4);
        fputs(", \"limit_percent\": ", fp);
        agent_json_num(fp, AGENT_PRECONDITION_SS_LIMIT, 2);
        fprintf(fp, ", \"window_s\": %u, \"ramp_s\": %u, \"max_s\": %u, "
                "\"rule\": \"fio ss=iops_slope\"}}", a->window_s, a->ramp_s,
                a->precondition_max_s);
    } else {
        fputs("null", fp);
    }
    fputs(", \"error\": ", fp);
    agent_json_str(fp, a->error[0] ? a->error : NULL);
    fputs("}", fp);
}
