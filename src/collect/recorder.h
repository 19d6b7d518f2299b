/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The recorder: the one object that owns a run's result set
 * (model/result.h, written as result.json).  The run (src/run/) keeps the
 * order of the steps and hands the recorder whole facts, a few calls per
 * boot; the recorder checks each fact and records it, and answers whether
 * the repetitions are precise enough to stop.  Nothing else writes the
 * result set while a run lives.
 *
 * What it takes:
 *   the experiment   the plan and the host (vdc_recorder_experiment),
 *                    the hypervisor's versions, the prepared guest, where
 *                    the run's time went;
 *   a target         as planned and provisioned (the plan's typed
 *                    description, the storage code's account of what it
 *                    made, the device a dom0 agent ran on), as the
 *                    hypervisor was asked for it and attached it (the
 *                    domain's disks, the backends it read back), its cache
 *                    truth per boot (collect/cache.h decides it; the first
 *                    boot's record stands, a later one that differs fails
 *                    that boot's runs of the target), its placement and
 *                    its alignment;
 *   a step's answer  by plan step (vdc_plan_step: target, repetition): the
 *                    result frame a domU's runner wrote on its control
 *                    disk, or the files a dom0 step's agent wrote, each
 *                    checked as untrusted input (collect/agent_result.h),
 *                    or the reason the step has none (a boot that failed);
 *   the host's samples  a boot's host watch (collect/hostwatch.h), put on
 *                    the runs of its steps.
 * Steps are named by their index in the plan's steps[], a boot's as the
 * range [first, first + n): one call records every step of a domain, so a
 * run with several domains per boot or several targets per domain records
 * through the same calls (one per domain), and a new kind of target is a
 * new description in the plan, recorded by vdc_recorder_target as it is.
 *
 * Errors: a fact that fails its check is recorded as a failed run with the
 * cause (one vdc_error at the check); the recorder itself does not fail,
 * except writing result.json (vdc_recorder_save). */
#ifndef VDC_COLLECT_RECORDER_H
#define VDC_COLLECT_RECORDER_H

#include <stddef.h>

#include <json-glib/json-glib.h>

#include "collect/hostwatch.h"
#include "guest-agent/ctldisk.h"
#include "guest/prepare.h"
#include "host/alignment.h"
#include "host/placement.h"
#include "hv/hv.h"
#include "model/result.h"
#include "plan/plan.h"

typedef struct vdc_recorder vdc_recorder;

/* A recorder for the run of @p (borrowed: it outlives the recorder; its
 * out_dir holds runs/ and logs/, where the answers' raw text goes), with
 * an empty result set.  The plan's targets join it as vdc_recorder_target
 * describes them.  Never NULL. */
vdc_recorder *vdc_recorder_new(const vdc_plan *p);
void vdc_recorder_free(vdc_recorder *rec);       /* NULL-safe */

/* The result set as recorded so far (borrowed; valid until the next call). */
const vdc_result_set *vdc_recorder_result(const vdc_recorder *rec);

/* ---- the experiment ---------------------------------------------------- */

/* The experiment: from the plan its id, date (now, UTC), command line,
 * seed, repetitions and their policy, order, build, emulated, the
 * hypervisor driver and URI, the guest's RAM, vCPUs and template; and the
 * host the run runs on (collect/facts.h: hostname, kernel, CPU, RAM,
 * governor, /proc/cmdline, the image directory's filesystem and disk, the
 * mkfs version). */
void vdc_recorder_experiment(vdc_recorder *rec);

/* The hypervisor's versions as its driver read them (@versions: member
 * names of doc/result-format.md experiment.hypervisor; borrowed).  A
 * malformed member is named and left out. */
void vdc_recorder_hypervisor(vdc_recorder *rec, JsonObject *versions);

/* A blkback module parameter the run wrote (@k: host/blkback.h
 * vdc_blkback_param), in directory @dir (its sysfs parameters): the value
 * it held before (@was), the one written (@set) and the one read back
 * after (@read_back); experiment.host.blkback.NAME. */
void vdc_recorder_blkback_set(vdc_recorder *rec, int k, const char *dir, int64_t was, int64_t set,
                              int64_t read_back);

/* ... and the value read back after the run wrote @was back (@restored). */
void vdc_recorder_blkback_restored(vdc_recorder *rec, int k, int64_t restored);

/* The guest the domUs boot: @prep's template and agent digests and image,
 * and the boot files (@kernel, @initrd with their sha256, @cmdline). */
void vdc_recorder_guest(vdc_recorder *rec, const struct vdc_prepared *prep, const char *kernel,
                        const char *initrd, const char *cmdline);

/* The parts of experiment.time (doc/result-format.md). */
typedef enum {
    VDC_TIME_TOTAL,          /* total_s */
    VDC_TIME_PREPARE,        /* prepare_s */
    VDC_TIME_PROVISION,      /* provision_s */
    VDC_TIME_DOMU,           /* domu_s */
    VDC_TIME_DOM0,           /* dom0_s */
    VDC_TIME_TEARDOWN,       /* teardown_s */
} vdc_time_part;

/* @seconds more of @part (the runner's own time, domu_agent_s, comes with
 * its answers). */
void vdc_recorder_time(vdc_recorder *rec, vdc_time_part part, double seconds);

/* ---- targets ----------------------------------------------------------- */

/* Target @i of the plan as planned and provisioned: its kind and where
 * (from the plan's description), its variant (the matrix's values that
 * made it: plan/dims.h vdc_dim_variant_json), the filesystem the step
 * makes, the image backend and cache requested (a domU image), @storage
 * (the storage code's account of what it made: storage/storage.h
 * vdc_storage_describe's object, borrowed; NULL: none), and for a dom0
 * target @dev, the block device its agent runs on (recorded as its
 * backend: block, local). */
void vdc_recorder_target(vdc_recorder *rec, size_t i, JsonObject *storage, const char *dev);

/* The targets as the hypervisor was asked for them, from the domain @dom
 * (its disks by target name: the xl disk spec with libxl or a Xen domain,
 * the <disk> element with libvirt), and as it attached them: @backends
 * (vdev -> the backend facts the driver read back after create,
 * vdc_hv_ops.backends; borrowed; NULL: not read).  The backend truth is
 * what the hypervisor reported, never what was asked; a driver's malformed
 * member is named and left out. */
void vdc_recorder_attached(vdc_recorder *rec, const vdc_hv_domain *dom, JsonObject *backends);

/* 1 while a target's disk is a Xen VBD whose negotiated ring was not yet
 * read: its frontend (blkfront in the guest) was never read Connected. */
int vdc_recorder_wants_rings(const vdc_recorder *rec);

/* The backends read again while the domain runs (@backends as
 * vdc_recorder_attached takes them; borrowed): a target with no backend
 * recorded yet (a density level's guest) takes the whole object; a Xen
 * VBD whose ring is still wanted takes its frontend's state as read
 * (backend.frontend_state) and, once the frontend is Connected, the
 * negotiated ring (ring_page_order, queues) with the backend's offer
 * (max_ring_page_order, max_queues) as read at that moment.  The first
 * negotiated ring stands.  A malformed member is named and left out. */
void vdc_recorder_rings(vdc_recorder *rec, JsonObject *backends);

/* 1 once backends were recorded (vdc_recorder_attached with @backends). */
int vdc_recorder_has_backends(const vdc_recorder *rec);

/* Target @i's record as it stands (borrowed): e.g. the backend found. */
const vdc_target *vdc_recorder_target_record(const vdc_recorder *rec, size_t i);

/* Target @i's cache truth this boot: @now, the record decided from what
 * was read back (collect/cache.h; NULL: none read), and @fail, why its
 * runs of this boot fail (`none` refused; NULL: they need not).  The first
 * record stands; a later one that differs (vdc_cache_changed) fails the
 * target's runs of this boot, with one message. */
void vdc_recorder_cache(vdc_recorder *rec, size_t i, const vdc_target_cache *now, const char *fail);

/* 1 when target @i has a cache record (a verdict or a refusal). */
int vdc_recorder_has_cache(const vdc_recorder *rec, size_t i);

/* 1 when target @i's placement is still to be read (once, after its first
 * boot, when its image or LV holds the test file). */
int vdc_recorder_wants_placement(const vdc_recorder *rec, size_t i);

/* Target @i's placement as @source ("fiemap", "lvs seg_pe_ranges") read
 * it: @pl (at most VDC_PLACEMENT_RANGES_MAX ranges kept, the rest
 * counted), or NULL when the reader failed (it said why; recorded as not
 * read, and not tried again). */
void vdc_recorder_placement(vdc_recorder *rec, size_t i, const vdc_placement *pl, const char *source);

/* Target @i's thin pool as read again after the last boot (@f: lvm2's
 * report, host/placement.h; a density run's target, whose guests each had
 * a pool of their own, gives the highest use of its pools; NULL: not read,
 * the reader said why): its data and metadata use (%) become
 * storage.thin.data_percent[1] and metadata_percent[1], a use outside 0 to
 * 100 unknown (null).  A target that is not a thin LV is left as it is.
 * Whether the pool ran too full is the report's to say
 * (model/result.h vdc_target_thin_pool_full). */
void vdc_recorder_thin_after(vdc_recorder *rec, size_t i, const vdc_thin_facts *f);

/* 1 when target @i's alignment is still to be read (once). */
int vdc_recorder_wants_alignment(const vdc_recorder *rec, size_t i);

/* Target @i's alignment as read (host/alignment.h: the disk, its I/O
 * sizes, each layer's offset and unit), each layer checked here against
 * the disk's sizes (vdc_alignment_check; a misaligned one keeps the rule's
 * numbers, vdc_alignment_why, and flags the target's tests: the report's
 * artefact rule "misaligned"); @a NULL when the reader failed (it said
 * why; not tried again).  The first record stands. */
void vdc_recorder_alignment(vdc_recorder *rec, size_t i, const vdc_alignment *a);

/* The memory of the machine target @i's agent ran in, as read back: a
 * dom0 target's memory cgroup limit (--dom0-memory-max), @limit_mib MiB,
 * and @provenance, where that number came from (copied): targets[].memory_mib
 * and provenance.memory_mib.  The last record stands (each step's cgroup
 * has the same limit; its peak is the step's). */
void vdc_recorder_memory(vdc_recorder *rec, size_t i, int64_t limit_mib, const char *provenance);

/* ---- steps ------------------------------------------------------------- */

/* A boot begins: what failed a target's runs in the last boot is
 * forgotten, and vdc_recorder_boot_ok counts from here. */
void vdc_recorder_boot_begin(vdc_recorder *rec);

/* Steps [@first, @first + @n) have no answer: each is recorded as a run
 * with @status ("failed", "timeout") and the one-line @why. */
void vdc_recorder_steps_failed(vdc_recorder *rec, size_t first, size_t n, const char *status,
                               const char *why);

/* The answer a domU's runner wrote on its control disk for steps [@first,
 * @first + @n) (@res, read and checked by guest/control.h; @what names the
 * disk in messages): the runner's log kept as @runner_log (NULL: not
 * kept), then per step its target's entry of the frame (none, or two, is a
 * failed run), its stderr tail kept as logs/TARGET-REP.stderr, its passes
 * merged (vdc_agent_result_merge), the runner's status over the agent's
 * (a pass stopped at its timeout: "timeout" with the runner's account); a
 * target whose cache truth failed this boot gets a failed run instead.
 * Entries for targets the job did not name are reported and ignored. */
void vdc_recorder_ctl_answer(vdc_recorder *rec, size_t first, size_t n, const char *what,
                             const struct vdc_ctl_result *res, const char *runner_log);

/* A density level's boot, steps [@first, @first + @n): its n guests, their
 * runs recorded before (vdc_recorder_ctl_answer, _steps_failed).  Each
 * guest's start gate times @rel[k] go onto its run (runs[].release; @rel
 * NULL: the level never reached its release), and the level is recorded in
 * experiment.levels[]: N, the repetition, the target, the start skew (max
 * - min of the guests' started_s; absent unless every guest has one),
 * @status ("ok", "failed", "timeout") and @error (one line naming the
 * guest that failed the level, or NULL).  Its host cost is given by
 * vdc_recorder_level_host. */
void vdc_recorder_level(vdc_recorder *rec, size_t first, size_t n, const vdc_run_release *rel,
                        const char *status, const char *error);

/* The host cost @host (collect/levelhost.h; taken) of the level recorded
 * last by vdc_recorder_level, as its levels[].host, when the model's
 * bounds hold it (vdc_host_check); else one line says why and the level
 * has none.  @host NULL: none. */
void vdc_recorder_level_host(vdc_recorder *rec, JsonObject *host);

/* The answer of dom0 step @step: what its agent's passes wrote (@json,
 * @wjson, @rjson: the bonnie++, file workload and raw workload files the
 * step was told to write; NULL: the pass did not run; a file that is not
 * there: the pass wrote nothing), merged as a domU's, and @why, the step's
 * own failure (NULL: it succeeded), which fails the run.  Returns 1 when
 * the run holds what the agent answered, 0 when it records only a
 * failure. */
int vdc_recorder_dom0_answer(vdc_recorder *rec, size_t step, const char *json, const char *wjson,
                             const char *rjson, const char *why);

/* The host's samples of steps [@first, @first + @n): @hw's targets are
 * the steps' in order (target k of @hw is step @first + k); each step's
 * run gets its runs[].host and samples[].host. */
void vdc_recorder_host_samples(vdc_recorder *rec, size_t first, size_t n, vdc_hostwatch *hw);

/* Why target @i's runs of this boot fail (its cache truth), or NULL. */
const char *vdc_recorder_boot_fail(const vdc_recorder *rec, size_t i);

/* 1 when a run recorded since vdc_recorder_boot_begin is ok. */
int vdc_recorder_boot_ok(const vdc_recorder *rec);

/* 1 when a recorded run is not ok. */
int vdc_recorder_failed(const vdc_recorder *rec);

/* Runs recorded so far. */
size_t vdc_recorder_n_runs(const vdc_recorder *rec);

/* ---- when to stop ------------------------------------------------------ */

/* After @reps complete repetitions of a --runs auto plan: whether every
 * headline test is precise enough (collect/stoprule.h: the rule of
 * stats/paired.h over the pairs the report's headline holds), or the plan's
 * most repetitions are done.  On 1 (stop) the reasons are recorded in
 * experiment.runs_policy.stop (one record per pair and test; a test still
 * open when the last repetition stopped the run: max runs) and
 * runs_per_target is @reps.  A progress line says which.  1 to stop, 0 to
 * run the next repetition. */
int vdc_recorder_precise_enough(vdc_recorder *rec, unsigned reps);

/* ---- the record -------------------------------------------------------- */

/* Write result.json at @path (vdc_result_set_save: read back by the
 * loader first, atomic).  0, or -1 after vdc_error. */
int vdc_recorder_save(const vdc_recorder *rec, const char *path);

#endif
