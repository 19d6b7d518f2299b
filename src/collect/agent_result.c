/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Checking the agent's result before it is merged (agent_result.h). */
#include "config.h"
#include "collect/agent_result.h"

#include <string.h>

#include <glib.h>

#include "common/escape.h"
#include "common/util.h"
#include "plan/step.h"

/* vdc_error "WHAT: agent result refused: CAUSE" and *why = the same
 * cause for the run's error */
static int __attribute__((format(printf, 3, 4)))
refuse(const char *what, char **why, const char *fmt, ...)
{
    va_list ap;
    char *cause;

    va_start(ap, fmt);
    cause = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    vdc_error("%s: agent result refused: %s", what, cause);
    *why = g_strdup_printf("agent result refused: %s", cause);
    g_free(cause);
    return -1;
}

/* agent_result.h */
int
vdc_agent_result_check(const char *json, size_t len, const char *target, unsigned rep,
                       const char *what, vdc_result_set *one, char **why)
{
    const vdc_run *r;
    int rc = -1;

    *why = NULL;
    if (len > VDC_AGENT_RESULT_MAX) {
        refuse(what, why, "%zu bytes, expected at most %u", len, VDC_AGENT_RESULT_MAX);
        goto out;
    }
    /* the model's loader, the one every reader of result.json uses */
    if (vdc_result_set_load_data(one, json, len, what) < 0) {
        *why = g_strdup_printf("agent result refused: %s", vdc_escape_last_message());
        goto out;
    }
    if (one->n_runs != 1) {
        refuse(what, why, "%zu runs, expected exactly 1 (target %s, repetition %u)", one->n_runs,
               target, rep);
        goto out;
    }
    r = one->runs[0];
    if (strcmp(r->target, target) != 0 || r->repetition != (int64_t)rep) {
        char *t = vdc_escape_text(r->target, -1, 64);

        refuse(what, why, "a run of target %s repetition %" G_GINT64_FORMAT
               ", expected target %s repetition %u", t, (gint64)r->repetition, target, rep);
        g_free(t);
        goto out;
    }
    if (r->n_samples > VDC_AGENT_SAMPLES_MAX) {
        refuse(what, why, "%zu samples, expected at most %u", r->n_samples, VDC_AGENT_SAMPLES_MAX);
        goto out;
    }
    rc = 0;
out:
    if (rc < 0) {
        vdc_result_set_dispose(one);
        vdc_result_set_init(one);
    }
    return rc;
}

/* agent_result.h */
int
vdc_agent_result_check_pass(const vdc_run *r, const vdc_plan_workload *w, size_t n,
                            const char *on, const char *what, char **why)
{
    /* per job: the directions seen (1 read, 2 write) */
    g_autofree unsigned *seen = g_new0(unsigned, n ? n : 1);
    size_t i, k;

    *why = NULL;
    for (i = 0; i < r->n_samples; i++) {
        const vdc_sample *s = r->samples[i];
        const vdc_test_info *ti = vdc_test_lookup(s->test);
        int is_read = ti && ti->id == VDC_TEST_WORKLOAD_READ;
        g_autofree char *name = NULL;

        if (!ti || !ti->workload) {
            if (!w)
                continue;
            g_autofree char *t = vdc_escape_text(s->test, -1, 64);
            return refuse(what, why, "the workload pass gave a %s sample, expected workload samples only", t);
        }
        name = vdc_escape_text(s->workload && s->workload->name ? s->workload->name : "", -1, 64);
        if (!w)
            return refuse(what, why, "a %s sample of job %s, expected no workload (the job asked for none)",
                          ti->name, name);
        for (k = 0; k < n && strcmp(w[k].name, s->workload->name); k++)
            ;
        if (k == n)
            return refuse(what, why, "a %s sample of job %s, which the job did not ask for", ti->name, name);
        if (is_read ? !w[k].reads : !w[k].writes)
            return refuse(what, why, "a %s sample of job %s, whose rw=%s %s", ti->name, name, w[k].rw,
                          is_read ? "does not read" : "does not write");
        if (on && g_strcmp0(s->workload->on, on)) {
            g_autofree char *said = s->workload->on ? vdc_escape_text(s->workload->on, -1, 16)
                                                    : g_strdup("nothing");
            return refuse(what, why, "a %s sample of job %s says it ran on %s, expected %s (the %s pass)",
                          ti->name, name, said, on, on);
        }
        seen[k] |= is_read ? 1u : 2u;
    }
    if (!w || !r->status || strcmp(r->status, "ok") != 0)
        return 0;
    for (k = 0; k < n; k++) {
        if (w[k].reads && !(seen[k] & 1u))
            return refuse(what, why, "job %s: no workload_read sample (rw=%s)", w[k].name, w[k].rw);
        if (w[k].writes && !(seen[k] & 2u))
            return refuse(what, why, "job %s: no workload_write sample (rw=%s)", w[k].name, w[k].rw);
    }
    return 0;
}

/* agent_result.h */
void
vdc_agent_result_join(vdc_run *dst, vdc_run *src)
{
    dst->samples = g_renew(vdc_sample *, dst->samples, dst->n_samples + src->n_samples);
    memcpy(dst->samples + dst->n_samples, src->samples, src->n_samples * sizeof(*src->samples));
    dst->n_samples += src->n_samples;
    g_clear_pointer(&src->samples, g_free);
    src->n_samples = 0;
    if ((!dst->status || !strcmp(dst->status, "ok")) && src->status && strcmp(src->status, "ok"))
        vdc_set_str(&dst->status, src->status);
    if (!dst->error && src->error)
        vdc_set_str(&dst->error, src->error);
}

/* agent_result.h */
const struct vdc_ctl_target_result *
vdc_agent_frame_target(const struct vdc_ctl_result *res, const char *target, const char *what,
                       char **why)
{
    const struct vdc_ctl_target_result *found = NULL;
    size_t m, n = 0;

    *why = NULL;
    for (m = 0; m < res->n_targets; m++)
        if (res->targets[m].name && !strcmp(res->targets[m].name, target)) {
            found = &res->targets[m];
            n++;
        }
    if (n > 1) {
        refuse(what, why, "the result frame answers %zu times for this target, expected once", n);
        return NULL;
    }
    return found;
}

/* agent_result.h */
size_t
vdc_agent_frame_extra(const struct vdc_ctl_result *res, const char *const *targets, size_t n,
                      const char *what)
{
    size_t m, k, extra = 0;

    for (m = 0; m < res->n_targets; m++) {
        const char *name = res->targets[m].name ? res->targets[m].name : "";

        for (k = 0; k < n && strcmp(targets[k], name); k++)
            ;
        if (k == n) {
            vdc_progress("warning: %s: the result frame answers for target \"%s\", which this boot "
                         "did not run: ignored", what, name);
            extra++;
        }
    }
    return extra;
}

/* agent_result.h */
vdc_run *
vdc_agent_result_merge(vdc_result_set *rs, const vdc_plan *p, size_t step,
                       const vdc_agent_pass pass[VDC_PASS_COUNT], const char *what,
                       const char *runner_error, char **why)
{
    const vdc_plan_step *st = &p->steps[step];
    const char *target = p->targets[st->target].name;
    unsigned rep = st->rep;
    g_autofree char *stem = vdc_step_stem(p, step);
    const struct { int wanted; const char *suffix, *name, *on; } passes[VDC_PASS_COUNT] = {
        [VDC_PASS_BONNIE] = { p->bonnie, "", "bonnie++", NULL },
        [VDC_PASS_FILE] = { p->n_workloads > 0 && p->workload_file, ".workloads", "workload", "file" },
        [VDC_PASS_RAW] = { p->n_workloads > 0 && p->workload_raw, ".raw-workloads", "raw workload", "raw" },
    };
    vdc_run *merged = NULL;
    size_t k;

    *why = NULL;
    for (k = 0; k < VDC_PASS_COUNT; k++) {
        g_autofree char *raw = NULL, *refused = NULL;
        vdc_result_set one;

        if (!passes[k].wanted)
            continue;
        if (!pass[k].json) {
            if (!*why)
                *why = runner_error ? g_strdup(runner_error)
                                    : g_strdup_printf("the agent's %s pass wrote no result", passes[k].name);
            continue;
        }
        vdc_result_set_init(&one);
        if (vdc_agent_result_check(pass[k].json, pass[k].len, target, rep, what, &one, &refused) < 0 ||
            vdc_agent_result_check_pass(one.runs[0], k ? p->workloads : NULL, k ? p->n_workloads : 0,
                                        passes[k].on, what, &refused) < 0) {
            if (!*why)
                *why = g_steal_pointer(&refused);
            vdc_result_set_dispose(&one);
            continue;
        }
        raw = g_strdup_printf("%s/runs/%s%s.json", p->out_dir, stem, passes[k].suffix);
        (void)vdc_write_file_atomic(raw, pass[k].json, pass[k].len);
        if (!merged) {
            merged = vdc_result_set_add_run(rs, target);
            vdc_run_dispose(merged);
            vdc_run_copy(merged, one.runs[0]);
            vdc_set_str(&merged->target, target);
            merged->repetition = rep;
            if (st->level) {
                merged->level = st->level;
                merged->guest = st->guest;
            }
        } else {
            vdc_agent_result_join(merged, one.runs[0]);
        }
        vdc_result_set_dispose(&one);
    }
    if (!merged)
        return NULL;
    /* host figures are the host's to measure, never the guest's to say;
     * metadata.source is an importer's (it marks an import's output, which
     * import -o may replace): never the guest's to claim */
    g_clear_pointer(&merged->host, json_object_unref);
    g_clear_pointer(&merged->meta.source.file, g_free);
    g_clear_pointer(&merged->meta.source.format, g_free);
    g_clear_pointer(&merged->meta.source.section, g_free);
    merged->meta.source.line = VDC_INT_ABSENT;
    for (k = 0; k < merged->n_samples; k++)
        g_clear_pointer(&merged->samples[k]->host, json_object_unref);
    if (*why) {
        if (!merged->status || !strcmp(merged->status, "ok"))
            vdc_set_str(&merged->status, "failed");
        if (!merged->error)
            vdc_set_str(&merged->error, *why);
    }
    g_clear_pointer(why, g_free);
    return merged;
}
