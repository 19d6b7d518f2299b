/* The agent's result as the controller takes it: untrusted input (a guest
 * wrote it on the control disk, or the dom0 agent into its --json file),
 * bounded and checked against the job before anything of it is merged.
 * Rules: doc/controller.md, "What a guest may hand back". */
#ifndef VDC_RUN_AGENT_RESULT_H
#define VDC_RUN_AGENT_RESULT_H

#include <stddef.h>

#include "guest-agent/ctldisk.h"
#include "model/result.h"

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
