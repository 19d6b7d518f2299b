/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp host side of the control disk (format: doc/control-disk.md,
 * codec: guest-agent/ctldisk.h).  The controller makes one fresh control
 * disk file per run, attaches it as the domU's last disk, and after the
 * domU is gone reads the result frame back as a plain file: untrusted
 * input, never mounted. */
#ifndef VDC_GUEST_CONTROL_H
#define VDC_GUEST_CONTROL_H

#include <stdint.h>

#include "guest-agent/ctldisk.h"

/* Create @path (must not exist; O_EXCL) as a sparse raw file of @size
 * bytes (0: vdc_ctl_disk_size(@job), a slot per target that holds every
 * answer the agent may legally give) holding the superblock and @job;
 * fsync.  On failure the file is removed.  0, or -1 after vdc_error. */
int vdc_control_disk_create(const char *path, uint64_t size, const struct vdc_ctl_job *job);

/* Read and validate the result of @path for the job with @nonce into @res
 * (initialised by the caller): the summary frame and each target's slot.
 * 0, or -1 after vdc_error naming the file and the cause ("no result
 * frame", "checksum mismatch", ...).  A slot that does not hold a valid
 * target result of this job costs only its target: 0, its cause in one
 * vdc_error ("target results not taken: slot 1: ..."), the target missing
 * from @res. */
int vdc_control_disk_read_result(const char *path, uint64_t nonce, struct vdc_ctl_result *res);

/* A random job nonce (GLib's PRNG seeded from the system; never 0). */
uint64_t vdc_control_nonce(void);

#endif
