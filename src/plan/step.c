/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a benchmark step runs (step.h). */
#include "config.h"
#include "plan/step.h"

#include <string.h>

#include <glib.h>

#include "common/util.h"

const char *
vdc_mkfs_options(const char *type)
{
    if (g_str_has_prefix(type, "ext"))
        return "-F -q -E lazy_itable_init=0,lazy_journal_init=0,nodiscard";
    if (!strcmp(type, "xfs"))
        return "-f -q -K";
    return NULL;
}

const char *
vdc_target_mkfs_options(const char *type, const vdc_plan_target *t)
{
    if (t->spec.backing != VDC_BACKING_LVM || t->spec.lv_type != VDC_LV_THIN)
        return vdc_mkfs_options(type);
    if (g_str_has_prefix(type, "ext"))
        return "-F -q -E lazy_itable_init=0,lazy_journal_init=0";
    if (!strcmp(type, "xfs"))
        return "-f -q";
    return NULL;
}

void
vdc_target_agent_args(const vdc_plan *p, const vdc_plan_target *t, char **fs_args,
                      char **pass_args, char **raw_args)
{
    int fill = vdc_target_fill_percent(&t->spec);

    *fs_args = fill ? g_strdup_printf("--fill %d --aging-seed %" G_GUINT64_FORMAT, fill,
                                      (guint64)p->seed)
                    : NULL;
    *pass_args = t->spec.backing == VDC_BACKING_LVM && t->spec.lv_type == VDC_LV_THIN
                 ? g_strdup("--passes " VDC_THIN_PASSES) : NULL;
    *raw_args = t->spec.precondition == VDC_PRECONDITION_ON
                ? g_strdup_printf("--precondition=%u:%u", p->precondition_max_s,
                                  p->precondition_window_s)
                : NULL;
}

char **
vdc_agent_options(const vdc_plan *p, const vdc_plan_target *t)
{
    GPtrArray *a = g_ptr_array_new();
    unsigned ram = t->spec.where == VDC_WHERE_DOM0 ? p->dom0_ram_mib : p->agent_ram_mib;

    g_ptr_array_add(a, g_strdup("-s"));
    g_ptr_array_add(a, g_strdup_printf("%" G_GUINT64_FORMAT,
                                       (guint64)((t->test_bytes + (1u << 20) - 1) >> 20)));
    g_ptr_array_add(a, g_strdup("-r"));
    g_ptr_array_add(a, g_strdup_printf("%u", ram));
    if (t->test_bytes < 2ULL * ram * (1ULL << 20))
        g_ptr_array_add(a, g_strdup("-f"));
    g_ptr_array_add(a, g_strdup("-q"));
    if (p->drop_caches)
        g_ptr_array_add(a, g_strdup("--drop-caches"));
    if (p->agent_options) {
        g_auto(GStrv) extra = g_strsplit_set(p->agent_options, " \t", -1);
        size_t k;

        for (k = 0; extra[k]; k++)
            if (*extra[k])
                g_ptr_array_add(a, g_strdup(extra[k]));
    }
    g_ptr_array_add(a, NULL);
    return (char **)g_ptr_array_free(a, FALSE);
}

char **
vdc_workload_agent_options(const vdc_plan *p, const vdc_plan_target *t)
{
    unsigned ram = t->spec.where == VDC_WHERE_DOM0 ? p->dom0_ram_mib : p->agent_ram_mib;
    char **v = g_new0(char *, 4);

    v[0] = g_strdup("-r");
    v[1] = g_strdup_printf("%u", ram);
    v[2] = g_strdup("-q");
    return v;
}

char **
vdc_raw_workload_agent_options(const vdc_plan *p, const vdc_plan_target *t)
{
    char **w = vdc_workload_agent_options(p, t);
    guint n = g_strv_length(w);

    w = g_renew(char *, w, n + 2);
    w[n] = g_strdup("--destroy-data");
    w[n + 1] = NULL;
    return w;
}

/* The job of steps [@first, @first + @n) of boot @bi (vdc_step_job). */
static int
steps_job(const vdc_plan *p, size_t bi, size_t first_step, size_t n, uint64_t nonce,
          struct vdc_ctl_job *job)
{
    const vdc_plan_step *first = &p->steps[first_step];
    struct vdc_ctl_error err = { { 0 } };
    g_auto(GStrv) args = vdc_agent_options(p, &p->targets[first->target]);
    g_auto(GStrv) wargs = vdc_workload_agent_options(p, &p->targets[first->target]);
    g_auto(GStrv) rargs = vdc_raw_workload_agent_options(p, &p->targets[first->target]);
    size_t k;

    job->nonce = nonce;
    job->run_index = (uint32_t)bi;
    job->repetition = first->rep;
    job->seed = first->seed;
    job->flags = (p->drop_caches ? VDC_CTL_JOB_DROP_CACHES : 0) |
                 (p->bonnie ? 0 : VDC_CTL_JOB_NO_BONNIE) |
                 (p->n_workloads && p->workload_raw ? VDC_CTL_JOB_RAW_WORKLOADS : 0) |
                 (p->n_workloads && !p->workload_file ? VDC_CTL_JOB_NO_FILE_WORKLOADS : 0);
    job->step_timeout_s = 600;
    job->agent_timeout_s = p->agent_timeout_s;
    for (k = 0; args[k]; k++)
        if (vdc_ctl_job_add_arg(job, args[k], &err) < 0)
            goto error;
    for (k = 0; k < n; k++) {
        const vdc_plan_target *t = &p->targets[p->steps[first_step + k].target];
        g_autofree char *fs = NULL, *pass = NULL, *raw = NULL;

        vdc_target_agent_args(p, t, &fs, &pass, &raw);
        if (vdc_ctl_job_add_target(job, t->name, t->vdev, p->mkfs,
                                   vdc_target_mkfs_options(p->mkfs, t), NULL, &err) < 0 ||
            ((fs || pass || raw) && vdc_ctl_job_target_args(job, fs, pass, raw, &err) < 0))
            goto error;
    }
    for (k = 0; k < p->n_workloads; k++)
        if (vdc_ctl_job_add_workload(job, p->workloads[k].name, p->workloads[k].text, &err) < 0)
            goto error;
    for (k = 0; p->n_workloads && p->workload_file && wargs[k]; k++)
        if (vdc_ctl_job_add_workload_arg(job, wargs[k], &err) < 0)
            goto error;
    for (k = 0; p->n_workloads && p->workload_raw && rargs[k]; k++)
        if (vdc_ctl_job_add_raw_workload_arg(job, rargs[k], &err) < 0)
            goto error;
    return 0;
error:
    vdc_error("control disk job: %s", err.msg);
    return -1;
}

int
vdc_step_job(const vdc_plan *p, const vdc_plan_boot *b, uint64_t nonce, struct vdc_ctl_job *job)
{
    return steps_job(p, (size_t)(b - p->boots), b->first, b->n, nonce, job);
}

int
vdc_step_guest_job(const vdc_plan *p, const vdc_plan_boot *b, unsigned k, uint64_t nonce,
                   unsigned gate_s, struct vdc_ctl_job *job)
{
    if (steps_job(p, (size_t)(b - p->boots), b->first + k, 1, nonce, job) < 0)
        return -1;
    job->gate_timeout_s = gate_s;
    return 0;
}

char *
vdc_step_stem(const vdc_plan *p, size_t step)
{
    const vdc_plan_step *st = &p->steps[step];
    const char *name = p->targets[st->target].name;

    if (!st->level)
        return g_strdup_printf("%s-%u", name, st->rep);
    return g_strdup_printf("%s-%u-l%u-g%u", name, st->rep, st->level, st->guest);
}
