/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The agent's result as the controller takes it: untrusted input (a guest
 * wrote it on the control disk, or the dom0 agent into its --json file),
 * bounded and checked against the job before anything of it is merged.
 * Rules: doc/controller.md, "What a guest may hand back". */
#ifndef VDC_COLLECT_AGENT_RESULT_H
#define VDC_COLLECT_AGENT_RESULT_H

#include <stddef.h>

#include "guest-agent/ctldisk.h"
#include "model/result.h"
#include "plan/plan.h"

/* The most one agent result may hold: bytes of JSON, what the control
 * disk carries (VDC_CTL_MAX_BLOB, 8 MiB; a bonnie-style result is 2-20
 * KiB, a workload's iops_series of a week at 1 s about 5 MiB), the same
 * for the dom0 agent's file; and samples in its run (the bonnie++ tests,
 * the sweep's block sizes, dd, workloads: a few dozen).  Strings are
 * bounded by the model's loader (VDC_RESULT_STRING_MAX,
 * VDC_RESULT_LONG_STRING_MAX). */
#define VDC_AGENT_RESULT_MAX  VDC_CTL_MAX_BLOB
#define VDC_AGENT_SAMPLES_MAX 256u

/* Check @len bytes of @json, the agent's result for the job step
 * (@target, @rep), and load it into @one (freshly _init'ed): at most
 * VDC_AGENT_RESULT_MAX bytes; a result document vdc_result_set_load_data
 * accepts (types, string limits, test ids); exactly one run, naming
 * @target and repetition @rep (what the agent was told: --target,
 * --repetition); at most VDC_AGENT_SAMPLES_MAX samples in it.
 * Returns 0, or -1 after one vdc_error naming @what and the cause, with
 * @one left empty and *@why set to that cause as one line for the run's
 * error (g_free). */
int vdc_agent_result_check(const char *json, size_t len, const char *target, unsigned rep,
                           const char *what, vdc_result_set *one, char **why);

/* Check the samples of @r, the run of one agent pass, against the pass
 * the job asked for.  The bonnie++ pass (@w NULL): no workload sample.
 * A workload pass (the job's @n workloads @w, run on @on: "file" or
 * "raw"): only workload samples, each naming one of the jobs in a
 * direction it runs (workload_read for a job that reads, workload_write
 * for one that writes; the loader has refused a direction twice) and
 * saying it ran on @on (workload.on: a raw pass's samples say "raw", a
 * file pass's "file"); and when @r's status is "ok" every direction of every
 * job present (an interrupted or failed pass keeps the finished jobs and
 * the failed one's samples; the jobs after it are missing).  Returns 0, or
 * -1 after one vdc_error naming @what and the cause, *@why set to that
 * cause (g_free). */
int vdc_agent_result_check_pass(const vdc_run *r, const vdc_plan_workload *w, size_t n,
                                const char *on, const char *what, char **why);

/* Join the run @src of an agent pass into @dst, the step's run: its
 * samples are moved after @dst's (@src keeps none), the worse status
 * ("ok" < "failed" < "timeout" as run.c records them: any but "ok" wins
 * over "ok", the first non-"ok" stays) and the first error are kept. */
void vdc_agent_result_join(vdc_run *dst, vdc_run *src);

/* What one agent pass of a step handed back: its JSON (@len bytes;
 * NULL: the pass wrote nothing). */
typedef struct {
    const char *json;
    size_t len;
} vdc_agent_pass;

/* The three passes of a step, in the order they are merged. */
enum { VDC_PASS_BONNIE, VDC_PASS_FILE, VDC_PASS_RAW, VDC_PASS_COUNT };

/* Merge the agent's answer of step @step of @p (its target, repetition
 * and, at a density level, its level and guest) into @rs as one
 * run: @pass[VDC_PASS_BONNIE] from the bonnie++ pass, [VDC_PASS_FILE] from
 * the workload pass on a file, [VDC_PASS_RAW] from the workload pass on
 * the raw device.  Each is untrusted: bounded and checked against the job
 * (vdc_agent_result_check, then vdc_agent_result_check_pass: the workload
 * samples the job asked for, on what the pass ran on), kept verbatim in
 * p->out_dir/runs/STEM.json, .workloads.json and .raw-workloads.json
 * (vdc_step_stem),
 * and joined into the run (vdc_agent_result_join); host figures the guest
 * gave are dropped (the host's to measure).  A pass the plan asks for that
 * gave nothing or was refused fails the run, with @runner_error (the
 * runner's or the dom0 step's own account, may be NULL) or the refusal as
 * its error; what the other pass gave stays.  @what names the answer in
 * messages.  Returns the run, or NULL when no pass gave a result: nothing
 * is added, and *@why is the first reason (g_free; NULL: none known) for
 * the caller's failed run. */
vdc_run *vdc_agent_result_merge(vdc_result_set *rs, const vdc_plan *p, size_t step,
                                const vdc_agent_pass pass[VDC_PASS_COUNT], const char *what,
                                const char *runner_error, char **why);

/* The entry of the result frame @res for @target, the job's target:
 * NULL with *@why = NULL when the frame has none; NULL after vdc_error
 * with *@why set (g_free) when it has more than one (a frame may not
 * answer twice for one target).  Entries naming targets the job did not
 * ask for are never looked at (vdc_agent_frame_extra tells them). */
const struct vdc_ctl_target_result *vdc_agent_frame_target(const struct vdc_ctl_result *res,
                                                          const char *target, const char *what,
                                                          char **why);

/* The number of entries of @res whose target is not one of @targets
 * (@n names): each named once by vdc_progress as ignored. */
size_t vdc_agent_frame_extra(const struct vdc_ctl_result *res, const char *const *targets, size_t n,
                             const char *what);

#endif
