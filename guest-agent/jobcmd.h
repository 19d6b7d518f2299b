/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The command lines a benchmark step runs, built in one place for the
 * domU and dom0 alike: the in-guest runner (guest-agent/runner.c) builds
 * them from the control disk job, the host's dom0 baseline
 * (src/run/dom0.c) from the same values the job would carry.  What goes
 * into them (the mkfs options, the agent's options) is decided once, by
 * the controller (src/run/step.h); these builders add nothing of their own.
 *
 * libc only (compiled into the static runner and into libvdc-agentcore.a);
 * never prints, never allocates: the words made here (mkfs.TYPE, the split
 * mkfs options, the seed and repetition) live in the struct; every string
 * passed in is pointed to, not copied, and must outlive the command. */
#ifndef VDC_JOBCMD_H
#define VDC_JOBCMD_H

#include <stddef.h>
#include <stdint.h>

#include "guest-agent/ctldisk.h"

#define VDC_JOBCMD_MAX_WORDS (VDC_CTL_MAX_ARGS + 2u * VDC_CTL_MAX_WORKLOADS + 16u)

/* One command line: argv[0..argc) and a NULL after them. */
struct vdc_jobcmd {
    char *argv[VDC_JOBCMD_MAX_WORDS + 1];
    size_t argc;
    char words[VDC_CTL_MAX_STRING + 128u];  /* storage of the words made here */
    size_t used;
};

/* "mkfs.@type @options... @dev": @options (may be NULL) split on spaces,
 * no quoting (doc/control-disk.md, mkfs_options).  0, or -1 with @err
 * filled when @type or @dev is empty or the command does not fit. */
int vdc_jobcmd_mkfs(struct vdc_jobcmd *c, const char *type, const char *options, const char *dev,
                    struct vdc_ctl_error *err);

/* "@agent -d @dir --target @target --seed @seed --repetition @rep --json
 * @json @args[0..@n_args)": the agent run of one target (doc/agent.md
 * options; @args are the job's agent_args).  0, or -1 with @err filled when a string is empty or there
 * are too many args. */
int vdc_jobcmd_agent(struct vdc_jobcmd *c, const char *agent, const char *dir, const char *target,
                     uint64_t seed, uint32_t rep, const char *json, char *const *args,
                     size_t n_args, struct vdc_ctl_error *err);

/* Append @words (may be NULL: nothing), split on spaces, to command @c
 * (a target's own agent arguments, struct vdc_ctl_target).  0, or -1
 * with @err filled when the command does not fit. */
int vdc_jobcmd_add_words(struct vdc_jobcmd *c, const char *words, struct vdc_ctl_error *err);

/* The workload pass of one target: vdc_jobcmd_agent with the job's
 * workload_args, then "--job @files[i]" for each of the @n_files job files
 * (doc/agent.md "Job engine"; the runner's WORKDIR/jobs/NAME.fio, dom0's
 * OUT/workloads/NAME.fio).  0, or -1 with @err filled. */
int vdc_jobcmd_workloads(struct vdc_jobcmd *c, const char *agent, const char *dir,
                         const char *target, uint64_t seed, uint32_t rep, const char *json,
                         char *const *args, size_t n_args, char *const *files, size_t n_files,
                         struct vdc_ctl_error *err);

#endif
