/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The workloads of `vmdiskcmp run --workload`: fio job files read and
 * checked on the host, before anything is created, by the agent's own
 * parser (guest-agent/jobfile.h: one parser for the agent and the
 * controller), then carried into the plan as text. */
#ifndef VDC_PLAN_WORKLOADS_H
#define VDC_PLAN_WORKLOADS_H

#include "plan/options.h"
#include "plan/plan.h"

/* Where a profile NAME is looked up: $VDC_WORKLOAD_DIR when set, else the
 * installed profiles (VDC_DATADIR/workloads).  Static or environment
 * string. */
const char *vdc_workload_profile_dir(void);

/* Read and check every entry of @o->workloads (comma lists split) into
 * @p->workloads, in order (@p built by vdc_plan_build).  An entry
 * with a '/' is a job file; any other is a profile NAME, read from
 * @profile_dir/NAME.fio.  Each file: a regular file of at most
 * VDC_CTL_MAX_JOBFILE bytes (what the control disk carries) without NUL
 * bytes, accepted by agent_jobfile_parse (an unknown or unsupported option,
 * a bad value: "FILE:LINE: OPTION: what was expected"), a job name not
 * used by an earlier entry, size= given when the plan runs the jobs on a
 * file in the target's filesystem (p->workload_file); at most
 * VDC_CTL_MAX_WORKLOADS of them.  Then every disk the plan creates is made
 * large enough for the largest job: on a file (offset + size) x numjobs +
 * 1/8 + 64 MiB of filesystem room, on the raw device (p->workload_raw)
 * offset + size, unless --lv-size fixed the size (a smaller one is
 * refused).  Reads files;
 * creates nothing.  Returns 0, or -1 after one vdc_input_error (exit 2). */
int vdc_plan_load_workloads(vdc_plan *p, const vdc_run_opts *o, const char *profile_dir);

#endif
