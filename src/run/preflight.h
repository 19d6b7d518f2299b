/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a run checks before anything is created (and --dry-run with it):
 * input it would otherwise find wrong only after making --out, room for
 * what it will create, and whether its run id is taken.  Nothing here
 * creates or changes anything. */
#ifndef VDC_RUN_PREFLIGHT_H
#define VDC_RUN_PREFLIGHT_H

#include "plan/plan.h"
#include "run/env.h"
#include "storage/storage.h"

/* What provisioning asks the storage code for target @t of @p, and what
 * the room checks check: its description, name, size, where it lives (a
 * thin LV's pool with @p's chunk size and zeroing, a qcow2 image's cluster
 * size), with @consent (--destroy-data).  The strings are @t's
 * (borrowed). */
struct vdc_storage_spec vdc_run_storage_spec(const vdc_plan *p, const vdc_plan_target *t, int consent);

/* The input a run would otherwise find wrong only after making --out:
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

/* The LVs @p would create (targets "lvm" and a dom0 baseline on lvm, in
 * provisioning order) fit their VG together, as vdc_storage_lvm_check_all
 * checks them through libblockdev (bd_lvm_vginfo).  0 also when @p creates
 * no LV; -1 after the one-line message create() would give (callers exit
 * 2). */
int vdc_run_check_lvm_room(const vdc_plan *p);

/* Likewise for image files: the images @p would create (image targets,
 * and a dom0 baseline on an image) fit the free space of their
 * filesystems (statvfs of the nearest existing directory), counted at
 * full size, since a sparse image fills up as the agent writes its test
 * file.  0, or -1 after one line naming the directory, free and needed
 * bytes (callers exit 2). */
int vdc_run_check_image_room(const vdc_plan *p);

/* --guests against the memory the level's domUs come out of, before
 * anything is made (plan/levels.h vdc_plan_check_levels: the largest
 * level's N x (--guest-memory + overhead)): under libxl (and the mock)
 * the hypervisor's free memory through the driver's free_memory
 * (libxl_get_free_memory: Xen's, which dom0's /proc/meminfo does not
 * show), asked only on a Xen dom0 (@xen_dom0; elsewhere the run fails at
 * its connection as before); on KVM/QEMU this host's MemAvailable; a Xen
 * domain through libvirt is not checked.  A figure not known is not
 * checked.  0, or -1 after one line: the refusal naming the level, what it
 * needs and the free memory, or why the driver could not say (callers
 * exit 2). */
int vdc_run_check_level_memory(const vdc_plan *p, int xen_dom0);

/* Whether the run id of @p is taken on this host: a domain of its name
 * exists (through @env's driver, or the plan's), or one of its images, its
 * LVs (a probe: a VG LVM cannot read counts as free; the room check names
 * it), or, with @check_out, its result directory (and so its journal).
 * Called before anything is made; the caller picks another id on 1.
 * 1 taken (a progress line names what), 0 free, -1 after vdc_error (the
 * hypervisor cannot be reached). */
int vdc_run_id_taken(const vdc_plan *p, const vdc_run_env *env, int check_out);

#endif
