/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The run: provision -> prepare guest -> per boot (fresh control disk, boot
 * the domU with every target attached, wait with a timeout, read results,
 * destroy) and dom0 baseline steps, in plan order -> result.json -> report.
 * Everything created goes on the undo journal (run/journal.h) first and is
 * torn down in reverse order on success, failure and SIGINT/SIGTERM.
 *
 * Every external effect goes through vdc_run_env, so the flow tests
 * (tests/unit/test_flow.c) swap in mocks and inject failures at each step. */
#ifndef VDC_RUN_RUN_H
#define VDC_RUN_RUN_H

#include <signal.h>
#include <sys/types.h>

#include "guest-agent/ctldisk.h"
#include "guest/prepare.h"
#include "hv/hv.h"
#include "model/result.h"
#include "plan/plan.h"
#include "run/cache.h"
#include "run/journal.h"
#include "storage/storage.h"

typedef struct vdc_run_ctx vdc_run_ctx;

typedef struct {
    const vdc_hv_ops *hv;       /* NULL: vdc_hv_ops_for(plan->hv) */

    int (*storage_create)(const struct vdc_storage_spec *spec, struct vdc_storage *out);
    /* used by teardown and cleanup: rebuild from the journal and destroy
     * (backing image: @path; backing lvm: @vg, @lv, and @run_tag when the
     * journal recorded one: an LV without it is not this run's) */
    int (*storage_destroy_journaled)(vdc_backing backing, const char *path, const char *vg,
                                     const char *lv, const char *run_tag);
    JsonObject *(*storage_describe)(const struct vdc_storage *st);

    int (*prepare)(const struct vdc_prepare_opts *o, struct vdc_prepared *out);
    /* --prepared-image: read IMG.manifest, launch nothing */
    int (*prepared_load)(const char *image, struct vdc_prepared *out);
    /* read-only libguestfs inspection of the root image after a failure */
    int (*collect_logs)(const char *image, const char *out_dir, int launch_timeout_s);

    int (*ctl_create)(const char *path, uint64_t size, const struct vdc_ctl_job *job);
    int (*ctl_read)(const char *path, uint64_t nonce, struct vdc_ctl_result *res);
    uint64_t (*nonce)(void);

    /* One dom0 baseline step on @dev (a block device): the workload pass
     * on @dev itself over the plan's job files (vdc_run_workload_file)
     * writing @raw_json (NULL: not --workload-on raw), then mkfs, mount
     * under @mnt, drop caches, run the agent's bonnie++ pass writing
     * @json_out (NULL: --tests leaves it out), then its workload pass on a
     * file writing @workloads_json (NULL: no --workload, or not
     * --workload-on file), umount (mkfs and mount only when a pass on the
     * filesystem runs); mounts and directories are journaled through
     * @ctx.  0, or -1 (the run is then recorded failed with the message;
     * what each pass wrote is kept). */
    int (*dom0_step)(vdc_run_ctx *ctx, const char *dev, const char *mnt, unsigned rep,
                     uint64_t seed, const char *json_out, const char *workloads_json,
                     const char *raw_json);
    /* Attach @file to a free loop device (journaled by the caller). */
    char *(*loop_attach)(const char *file);
    int (*loop_detach)(const char *dev, const char *file);
    /* sync and drop dom0's page cache before each guest boot */
    int (*drop_caches)(void);
    /* The cache truth of each domU boot (run/cache.h: loop devices,
     * LOOP_SET_DIRECT_IO, QEMU's open flags); NULL members: not read. */
    vdc_cache_io cache;
    /* targets[].placement (host/placement.h), read once per target after
     * its first boot; NULL: not read */
    int (*image_placement)(const char *path, vdc_placement *out);
    int (*lv_placement)(const char *vg, const char *lv, const char *const *lvm_args,
                        vdc_placement *out);
    /* bytes free to an unprivileged writer on the filesystem of @dir
     * (statvfs f_bavail x f_frsize when NULL): the watchdog's look at the
     * image directory while a domU runs.  0 or -1 (then not judged). */
    int (*fs_free)(const char *dir, uint64_t *bytes);

    volatile sig_atomic_t *stop;    /* set by SIGINT/SIGTERM */
} vdc_run_env;

/* Settings of one run that are not part of the plan (paths of our own
 * programs, cache). */
typedef struct {
    const char *agent;          /* static vmdiskcmp-agent */
    const char *runner;         /* static vmdiskcmp-runner */
    const char *cache_dir;
    int consent;                /* --destroy-data */
    int no_report;
    int launch_timeout_s;       /* libguestfs */
    int inspect;                /* --inspect-on-failure */
} vdc_run_settings;

/* The real environment (storage ops, libguestfs prepare, control disk,
 * loop devices, local agent). */
void vdc_run_env_default(vdc_run_env *env);

/* Run @p.  Creates p->out_dir (must not exist), the journal, plan.json,
 * result.json, runs/, logs/.  Returns VDC_EXIT_OK, VDC_EXIT_FAILURE (a run
 * or a step failed; results of the others are kept) or
 * VDC_EXIT_INTERRUPTED.  Teardown has happened when it returns. */
int vdc_run_plan(vdc_plan *p, const vdc_run_settings *s, const vdc_run_env *env);

/* Before anything is created (and for --dry-run): the LVs @p would create
 * (targets "lvm" and a dom0 baseline on lvm, in provisioning order) fit
 * their VG together, as vdc_storage_lvm_check_all checks them through
 * libblockdev (bd_lvm_vginfo).  0 also when @p creates no LV; -1 after
 * the one-line message create() would give (callers exit 2). */
int vdc_run_check_lvm_room(const vdc_plan *p);

/* Likewise for image files: the images @p would create (image targets,
 * and a dom0 baseline on an image) fit the free space of their
 * filesystems (statvfs of the nearest existing directory), counted at
 * full size, since a sparse image fills up as the agent writes its test
 * file.  0, or -1 after one line naming the directory, free and needed
 * bytes (callers exit 2). */
int vdc_run_check_image_room(const vdc_plan *p);

/* mkdir @dir for journal entry @seq (a "dir" entry added just before):
 * done with the directory's identity (ino) when this call made it; when
 * it exists already (made by someone else meanwhile) the entry is marked
 * undone, since it is not ours to remove.  0, or -1 after vdc_error. */
int vdc_run_mkdir_journaled(vdc_journal *j, unsigned seq, const char *dir, mode_t mode);

/* Whether the run id of @p is taken on this host: a domain of its name
 * exists (through @env's driver, or the plan's), or one of its images, its
 * LVs (a probe: a VG LVM cannot read counts as free; the room check names
 * it), or, with @check_out, its result directory (and so its journal).
 * Called before anything is made; the caller picks another id on 1.
 * 1 taken (a progress line names what), 0 free, -1 after vdc_error (the
 * hypervisor cannot be reached). */
int vdc_run_id_taken(const vdc_plan *p, const vdc_run_env *env, int check_out);

/* Before anything is created (and for --dry-run), the input a run would
 * otherwise find wrong only after making --out (src/run/preflight.c):
 * --out does not exist; --out's and every image's directory, or the nearest existing ancestor
 * of each, is a directory we can write in (not a file, not read-only);
 * each block device of the plan (--block, --target, --dom0-on DEV) exists,
 * is a block device, not in use and without a signature
 * (vdc_storage_check with @consent), and with --workload-on raw at least
 * as large as the furthest region of a job (offset + size); the guest image's manifest loads and
 * names boot files that exist (unless --kernel/--initrd replace them), a
 * --prepared-image's with its [prepared] section.
 * 0, or -1 after one line naming the option (callers exit 2). */
int vdc_run_check_inputs(const vdc_plan *p, int consent);

/* Journal a mount/dir from a dom0 step (for env->dom0_step). */
vdc_journal *vdc_run_ctx_journal(vdc_run_ctx *ctx);
const vdc_plan *vdc_run_ctx_plan(vdc_run_ctx *ctx);
const vdc_run_settings *vdc_run_ctx_settings(vdc_run_ctx *ctx);
volatile sig_atomic_t *vdc_run_ctx_stop(vdc_run_ctx *ctx);
/* The dom0 step's host sampler (run/hostwatch.h), or NULL: the step gives
 * it the agent's pid and --progress-fd lines. */
struct vdc_hostwatch *vdc_run_ctx_hostwatch(vdc_run_ctx *ctx);
/* The run's result: a dom0 step records what it read back of its target
 * (a memory cgroup's limit). */
vdc_result_set *vdc_run_ctx_result(vdc_run_ctx *ctx);

/* Undo one journal entry with the real (or @env's) handlers: domain (via
 * the hypervisor driver named in the entry), image/lv (storage), loop,
 * mount, dir, file.  Shared by the run's teardown and `vmdiskcmp cleanup`. */
int vdc_run_undo(const vdc_journal_entry *e, void *env);

/* `vmdiskcmp cleanup DIR`: replay @dir/journal through @env's handlers
 * (vdc_run_undo), after taking the journal's lock without waiting.  A
 * journal whose lock is held belongs to a live run: nothing is touched, a
 * line names the run (id, pid, start time); with @all that is a skip
 * (0, on stdout), else an error (-1, vdc_error), and the run id is added
 * to @live_ids when not NULL.  A journal left by a dead run (its lock
 * free) is torn down, what --keep left included; a line on stdout gives
 * the objects pending before and left after.  0 when everything is gone,
 * else -1: something could not be removed (runtime), or the journal is
 * missing, malformed or names what vmdiskcmp does not create (bad input,
 * vdc_run_journal_check: nothing touched). */
int vdc_run_cleanup_dir(const char *dir, const vdc_run_env *env, int all, GPtrArray *live_ids);

/* `vmdiskcmp cleanup`: refuse a journal (read from @run_dir/journal, not
 * written by this process) any of whose entries names something
 * vmdiskcmp does not create: files, mounts and directories outside
 * @run_dir (directories of an image excepted), images not named
 * vmdiskcmp-*.raw|.qcow2, loop devices over anything but such an image of
 * the same journal, domains and LVs not named vmdiskcmp-*, relative paths.
 * 0, or -1 after one vdc_error naming the entry (bad input: nothing may
 * be touched). */
int vdc_run_journal_check(const vdc_journal *j, const char *run_dir);

/* The real dom0 pieces (src/run/dom0.c). */
int vdc_dom0_step(vdc_run_ctx *ctx, const char *dev, const char *mnt, unsigned rep,
                  uint64_t seed, const char *json_out, const char *workloads_json,
                  const char *raw_json);
/* OUT/workloads/NAME.fio of the plan's workload @i (g_free): the run
 * writes every job file there before the first step. */
char *vdc_run_workload_file(const vdc_plan *p, size_t i);
char *vdc_loop_attach(const char *file);
int vdc_loop_detach(const char *dev, const char *file);
/* The loop device (/dev/loopN, g_malloc) whose backing file is @file
 * (also once unlinked: sysfs shows "PATH (deleted)"), or NULL. */
char *vdc_loop_find(const char *file);
/* Stop what is left of a journaled child's process group (journal.h
 * "proc"): when process @pgrp still runs with start time @start (clock
 * ticks after boot) it must run @exe and lead its group, else nothing is
 * touched (-1, one message); a pid with another start time is another
 * process (0: ours ended).  With the leader gone, every running member
 * must have started at @start or later (the group's members are forked
 * after its leader), else nothing is touched (-1, one message).  Then
 * every running member of the group gets SIGKILL until none is left (at
 * most 5 s).  0 when no member runs, -1 after vdc_error. */
int vdc_proc_group_stop(pid_t pgrp, uint64_t start, const char *exe);

/* This boot of the kernel: the text of /proc/sys/kernel/random/boot_id
 * (a UUID) and the boot's wall-clock time in seconds since the epoch
 * (/proc/stat "btime").  Newly allocated / 0, or NULL / -1 when /proc
 * cannot tell (no message). */
char *vdc_boot_id(void);
int64_t vdc_boot_time(void);
/* 1 when @dir is a mount point of @source (mountinfo), 0 if not, -1 error */
int vdc_is_mounted(const char *dir, const char *source);
/* sync + echo 3 > /proc/sys/vm/drop_caches; 0 or -1 (vdc_error) */
int vdc_drop_caches(void);

/* Host facts for result.json experiment.host (src/run/facts.c): hostname,
 * uname -r, /proc/cpuinfo model name, CPU count, MemTotal, cpufreq
 * governor of cpu0 (absent when there is no cpufreq). */
void vdc_host_facts(vdc_host_info *info);
unsigned vdc_host_ram_mib(void);
int vdc_host_is_xen_dom0(void);

#endif
