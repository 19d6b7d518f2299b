/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a benchmark step runs, decided once from the plan for the domU (a
 * boot's control disk job, which the in-guest runner executes as it says)
 * and for dom0 (the baseline step) alike: the mkfs options and the agent's
 * options.  The command lines are built from them by guest-agent/jobcmd.h,
 * in the runner and in dom0.c, the same way. */
#ifndef VDC_PLAN_STEP_H
#define VDC_PLAN_STEP_H

#include <stdint.h>

#include "guest-agent/ctldisk.h"
#include "plan/plan.h"

/* The options of `mkfs.@type` for a fresh filesystem on a device that is
 * ours to overwrite: ext2/3/4 "-F -q -E
 * lazy_itable_init=0,lazy_journal_init=0,nodiscard" (inode tables and
 * journal written now: ext4lazyinit would write them in the background
 * while the agent measures; no discard: it would punch holes into a full
 * image behind Xen's blkback over a loop device, and the allocation the
 * run made is what it measures), xfs "-f -q -K" (no discard); NULL for any
 * other type.  Static string.  Passed in the job, run in dom0, and
 * recorded as result.json targets[].filesystem.mkfs_options. */
const char *vdc_mkfs_options(const char *type);

/* Target @t's mkfs options: vdc_mkfs_options, but for a thin LV with
 * mkfs's discard (ext: no nodiscard; xfs: no -K): the discard gives the
 * pool back the chunks the last repetition wrote, so each repetition's
 * first pass writes fresh chunks (doc/storage.md "Thin LVs").  Static. */
const char *vdc_target_mkfs_options(const char *type, const vdc_plan_target *t);

/* The agent passes of a thin LV (guest-agent --passes). */
#define VDC_THIN_PASSES "first-write,overwrite"

/* Target @t's own agent arguments (the control disk's per-target fs_args,
 * pass_args, raw_args; NULL each when none, else g_free): an aged target's
 * "--fill P --aging-seed SEED" for its first pass on the filesystem (the
 * plan's seed: every target and repetition gets the same files), a thin
 * LV's "--passes first-write,overwrite" for every pass, a preconditioned
 * target's "--precondition=MAX:WINDOW" for its raw pass. */
void vdc_target_agent_args(const vdc_plan *p, const vdc_plan_target *t, char **fs_args,
                           char **pass_args, char **raw_args);

/* The agent's options for target @t of @p (doc/agent.md): "-s MiB" (the
 * test file size, rounded up to whole MiB), "-r MiB" (agent_ram_mib for a
 * domU target, dom0_ram_mib for dom0), "-f" when the test file is under
 * twice that RAM, "-q", "--drop-caches" unless --no-drop-caches, then
 * --agent-options split on blanks.  A new
 * NULL-terminated string vector (g_strfreev). */
char **vdc_agent_options(const vdc_plan *p, const vdc_plan_target *t);

/* The agent's options of the workload pass for target @t of @p (the
 * --job files are added by guest-agent/jobcmd.h): "-r MiB" as for the
 * bonnie++ pass and "-q".  A new NULL-terminated string vector
 * (g_strfreev). */
char **vdc_workload_agent_options(const vdc_plan *p, const vdc_plan_target *t);

/* The agent's options of the raw workload pass for target @t of @p (the
 * jobs on the target's block device itself, before mkfs): those of
 * vdc_workload_agent_options, then "--destroy-data".  The consent is the
 * run's: the device is one the run made (an image, an LV: after the first
 * repetition it carries the filesystem the run's own mkfs wrote) or a
 * --block/--target/--dom0-on DEV, which the run accepts only with
 * --destroy-data and only without a signature (storage/block.c, checked
 * before anything is created).  A new NULL-terminated string vector
 * (g_strfreev). */
char **vdc_raw_workload_agent_options(const vdc_plan *p, const vdc_plan_target *t);

/* Fill the (initialised) control disk @job of boot @b of @p: @nonce, run
 * index @b - p->boots, the repetition and seed of its first step, drop
 * caches, the step and agent timeouts, the agent options of its first
 * target (every domU target of a boot has the same size and RAM), and each
 * target with its vdev, --mkfs and vdc_mkfs_options; the plan's workloads
 * (name and text) with vdc_workload_agent_options (when they run on a
 * file) and vdc_raw_workload_agent_options with the raw-workloads flag
 * (when they run on the raw device), the no-file-workloads flag when
 * --workload-on leaves the file out, and the no-bonnie flag when --tests
 * leaves the bonnie++ pass out.  0, or -1 after vdc_error. */
int vdc_step_job(const vdc_plan *p, const vdc_plan_boot *b, uint64_t nonce, struct vdc_ctl_job *job);

/* Guest @k's job of level boot @b (b->guests > 0): vdc_step_job over its
 * one step (its target, repetition and seed), with the start gate of
 * @gate_s seconds (0: none; doc/control-disk.md "Start gate").  0, or -1
 * after vdc_error. */
int vdc_step_guest_job(const vdc_plan *p, const vdc_plan_boot *b, unsigned k, uint64_t nonce,
                       unsigned gate_s, struct vdc_ctl_job *job);

/* The stem of step @step's files (runs/STEM.json, logs/STEM.stderr):
 * "TARGET-REP", at a density level "TARGET-REP-lN-gK" (g_free). */
char *vdc_step_stem(const vdc_plan *p, size_t step);

#endif
