/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The host figures of a run or sample (result.h, "host" objects of
 * doc/result-format.md): read by group and role, and held to their
 * physical bounds at load, import and merge (vdc_host_check). */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib.h>
#include <json-glib/json-glib.h>

#include "common/util.h"
#include "model/result.h"

/* @n as a double when it is a JSON number (integer or double), else NAN
 * (also for NULL) */
static double
json_number_or_nan(JsonNode *n)
{
    if (!n || !JSON_NODE_HOLDS_VALUE(n))
        return NAN;
    return json_node_get_value_type(n) == G_TYPE_INT64 ? (double)json_node_get_int(n)
           : json_node_get_value_type(n) == G_TYPE_DOUBLE ? json_node_get_double(n) : NAN;
}

double
vdc_sample_host_figure(const vdc_sample *s, const char *group, const char *role)
{
    JsonNode *n;

    if (!s->host || !json_object_has_member(s->host, group))
        return NAN;
    n = json_object_get_member(s->host, group);
    if (!JSON_NODE_HOLDS_OBJECT(n))
        return NAN;
    return json_number_or_nan(json_object_get_member(json_node_get_object(n), role));
}

double
vdc_sample_host_scalar(const vdc_sample *s, const char *member)
{
    return json_number_or_nan(s->host ? json_object_get_member(s->host, member) : NULL);
}

int
vdc_sample_host_pair(const vdc_sample *s, const char *member, double v[2])
{
    JsonNode *n = s->host ? json_object_get_member(s->host, member) : NULL;
    JsonArray *a;
    guint i;

    if (!n || !JSON_NODE_HOLDS_ARRAY(n) || json_array_get_length(a = json_node_get_array(n)) != 2)
        return 0;
    for (i = 0; i < 2; i++)
        if (isnan(v[i] = json_number_or_nan(json_array_get_element(a, i))))
            return 0;
    return 1;
}

/* @n is a JSON number (integer or double) */
static int
json_is_number(JsonNode *n)
{
    return JSON_NODE_HOLDS_VALUE(n) && (json_node_get_value_type(n) == G_TYPE_INT64 ||
                                        json_node_get_value_type(n) == G_TYPE_DOUBLE);
}

/* @n is a JSON number >= 0 */
static int
json_is_nonneg(JsonNode *n)
{
    return json_is_number(n) && (json_node_get_value_type(n) == G_TYPE_INT64 ? json_node_get_int(n) >= 0
                                                                              : json_node_get_double(n) >= 0);
}

/* The scalar and pair members of samples[].host the renderers read
 * (report/hostcost.c, report/artefacts.c): NULL when each present one has
 * its type, else a new message naming it (g_free). */
static char *
host_check_members(JsonObject *host)
{
    static const char *const counts[] = { "interval_s", "guest_elapsed_s", "boundary_error_s", "bytes", "ios",
                                          "disk_read_bytes", "disk_write_bytes" };
    static const char *const pairs[] = { "dom0_dirty_bytes", "dom0_writeback_bytes", "dom0_cached_bytes",
                                         "image_resident_bytes", "dom0_memory_bytes", "monotonic_s" };
    static const char *const attributions[] = { "exact", "shared", "ambiguous", "ended", "inconsistent",
                                                NULL };
    /* the physical bound of each count (result.h): seconds, bytes, I/Os */
    static const double count_max[] = { VDC_SECONDS_MAX, VDC_SECONDS_MAX, VDC_SECONDS_MAX, VDC_BYTES_MAX,
                                        VDC_COUNT_MAX, VDC_BYTES_MAX, VDC_BYTES_MAX };
    /* bytes; monotonic_s: seconds since boot (uptime of centuries passes) */
    static const double pair_max[] = { VDC_BYTES_MAX, VDC_BYTES_MAX, VDC_BYTES_MAX, VDC_BYTES_MAX,
                                       VDC_BYTES_MAX, 1e10 };
    JsonNode *n;
    size_t i;

    G_STATIC_ASSERT(G_N_ELEMENTS(count_max) == G_N_ELEMENTS(counts));
    G_STATIC_ASSERT(G_N_ELEMENTS(pair_max) == G_N_ELEMENTS(pairs));
    for (i = 0; i < G_N_ELEMENTS(counts); i++)
        if ((n = json_object_get_member(host, counts[i])) && !JSON_NODE_HOLDS_NULL(n) &&
            (!json_is_nonneg(n) || !isfinite(json_node_get_double(n))))
            return g_strdup_printf("%s: expected a number >= 0 or null", counts[i]);
    for (i = 3; i < G_N_ELEMENTS(counts); i++)
        if ((n = json_object_get_member(host, counts[i])) && !JSON_NODE_HOLDS_NULL(n) &&
            json_node_get_double(n) > count_max[i])
            return g_strdup_printf("%s: %g: expected at most %g (the physical bound of the unit)", counts[i],
                                   json_node_get_double(n), count_max[i]);
    /* the times bound cpu_s (interval_s x CPUs): no longer than cpu_s
     * itself may be without them */
    for (i = 0; i < 3; i++)
        if ((n = json_object_get_member(host, counts[i])) && !JSON_NODE_HOLDS_NULL(n) &&
            json_node_get_double(n) > VDC_HOST_CPU_S_MAX)
            return g_strdup_printf("%s: %g: expected seconds from 0 to %g", counts[i], json_node_get_double(n),
                                   VDC_HOST_CPU_S_MAX);
    for (i = 0; i < G_N_ELEMENTS(pairs); i++) {
        JsonArray *a;

        if (!(n = json_object_get_member(host, pairs[i])) || JSON_NODE_HOLDS_NULL(n))
            continue;
        if (!JSON_NODE_HOLDS_ARRAY(n) || json_array_get_length(a = json_node_get_array(n)) != 2 ||
            !json_is_nonneg(json_array_get_element(a, 0)) || !json_is_nonneg(json_array_get_element(a, 1)))
            return g_strdup_printf("%s: expected [begin, end], two numbers >= 0", pairs[i]);
        if (!(json_node_get_double(json_array_get_element(a, 0)) <= pair_max[i]) ||
            !(json_node_get_double(json_array_get_element(a, 1)) <= pair_max[i]))
            return g_strdup_printf("%s: expected [begin, end], two numbers from 0 to %g", pairs[i], pair_max[i]);
        if (!strcmp(pairs[i], "monotonic_s") &&
            json_node_get_double(json_array_get_element(a, 1)) < json_node_get_double(json_array_get_element(a, 0)))
            return g_strdup("monotonic_s: expected [begin, end] with end >= begin (CLOCK_MONOTONIC)");
    }
    /* a level's host object: the guests it sums over */
    if ((n = json_object_get_member(host, "guests")) &&
        (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_INT64 ||
         json_node_get_int(n) < 1 || json_node_get_int(n) > VDC_LEVEL_MAX))
        return g_strdup_printf("guests: expected an integer from 1 to %d", VDC_LEVEL_MAX);
    if ((n = json_object_get_member(host, "sliced")) &&
        (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_BOOLEAN))
        return g_strdup("sliced: expected true or false");
    if ((n = json_object_get_member(host, "source")) && !JSON_NODE_HOLDS_NULL(n) &&
        (!JSON_NODE_HOLDS_VALUE(n) || json_node_get_value_type(n) != G_TYPE_STRING))
        return g_strdup("source: expected a string");
    if ((n = json_object_get_member(host, "cpu_attribution"))) {
        GList *members, *l;
        char *why = NULL;

        if (!JSON_NODE_HOLDS_OBJECT(n))
            return g_strdup("cpu_attribution: expected an object of {attribution, reason} by role");
        members = json_object_get_members(json_node_get_object(n));
        for (l = members; l && !why; l = l->next) {
            JsonNode *r = json_object_get_member(json_node_get_object(n), l->data);
            JsonNode *a = JSON_NODE_HOLDS_OBJECT(r) ? json_object_get_member(json_node_get_object(r),
                                                                             "attribution") : NULL;

            if (!a || !JSON_NODE_HOLDS_VALUE(a) || json_node_get_value_type(a) != G_TYPE_STRING ||
                !g_strv_contains(attributions, json_node_get_string(a)))
                why = g_strdup_printf("cpu_attribution.%s: expected {attribution: exact|shared|ambiguous|ended|"
                                      "inconsistent, "
                                      "reason}", (const char *)l->data);
        }
        g_list_free(members);
        if (why)
            return why;
    }
    return NULL;
}

/* A role whose CPU seconds are the difference of two figures (QEMU
 * minus its vCPU threads, read one after the other; dom0 busy minus the
 * servers, which on Xen counts what dom0's /proc/stat does not): below 0
 * is what it measures (doc/result-format.md), bounded like the others. */
static int
difference_role(const char *role)
{
    return !strcmp(role, "qemu_io") || !strcmp(role, "dom0_other");
}

/* samples[].host.cpu_s.@role = @v against the sample's @interval_s (NAN:
 * not given): NULL when it can be CPU time, else the message. */
static char *
cpu_s_check(const char *role, double v, double interval_s)
{
    double ceiling = vdc_has(interval_s) && interval_s > 0
                         ? interval_s * VDC_HOST_MAX_CPUS + VDC_HOST_CPU_SLACK_S : VDC_HOST_CPU_S_MAX;
    double floor = difference_role(role) ? -ceiling : 0;

    if (!isfinite(v) || v < floor || v > ceiling)
        return g_strdup_printf("cpu_s.%s: %g: expected CPU seconds from %g to %g (%s)", role, v, floor,
                               ceiling, vdc_has(interval_s) && interval_s > 0
                                            ? "interval_s on each of " G_STRINGIFY(VDC_HOST_MAX_CPUS) " CPUs"
                                            : "no interval_s");
    return NULL;
}

char *
vdc_host_check(JsonObject *host)
{
    static const char *const groups[] = { "cpu_s", "cpu_s_per_gib", "cpu_s_per_1000_ios" };
    size_t i;
    char *bad = host_check_members(host);
    JsonNode *in;
    double interval_s = NAN;

    if (bad)
        return bad;
    if ((in = json_object_get_member(host, "interval_s")) && json_is_number(in))
        interval_s = json_node_get_double(in);

    for (i = 0; i < G_N_ELEMENTS(groups); i++) {
        JsonNode *n = json_object_get_member(host, groups[i]);
        GList *members, *l;
        char *why = NULL;

        if (!n)
            continue;
        if (!JSON_NODE_HOLDS_OBJECT(n))
            return g_strdup_printf("%s: expected an object of CPU seconds by role", groups[i]);
        members = json_object_get_members(json_node_get_object(n));
        for (l = members; l && !why; l = l->next) {
            JsonNode *v = json_object_get_member(json_node_get_object(n), l->data);

            if (JSON_NODE_HOLDS_NULL(v))
                continue;
            if (!JSON_NODE_HOLDS_VALUE(v) || (json_node_get_value_type(v) != G_TYPE_INT64 &&
                                              json_node_get_value_type(v) != G_TYPE_DOUBLE))
                why = g_strdup_printf("%s.%s: expected a number or null", groups[i],
                                      (const char *)l->data);
            else if (i == 0)
                why = cpu_s_check(l->data, json_node_get_double(v), interval_s);
            else if (!isfinite(json_node_get_double(v)) ||
                     fabs(json_node_get_double(v)) > VDC_HOST_CPU_RATIO_MAX ||
                     (json_node_get_double(v) < 0 && !difference_role(l->data)))
                /* a ratio of cpu_s: its sign, and no absurd size */
                why = g_strdup_printf("%s.%s: %g: expected a finite number from %g to %g", groups[i],
                                      (const char *)l->data, json_node_get_double(v),
                                      difference_role(l->data) ? -VDC_HOST_CPU_RATIO_MAX : 0,
                                      VDC_HOST_CPU_RATIO_MAX);
        }
        g_list_free(members);
        if (why)
            return why;
    }
    return NULL;
}

