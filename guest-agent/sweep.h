/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: the block-size sweep (--sweep), seed 004's dd
 * experiment: `dd bs=N` sequential write, then read, of the whole size at
 * each block size, with user and system CPU seconds and system
 * microseconds per call. */
#ifndef VDC_AGENT_SWEEP_H
#define VDC_AGENT_SWEEP_H

#include "sys.h"

/* For each cfg->sweep_sizes[i]: write floor(size/bs) blocks of bs bytes
 * to @path from offset 0 (a file is created and truncated; a block device
 * is overwritten), fsync(2), close(2) - all timed; drop caches when
 * --drop-caches; read them back, close.  O_DIRECT with --direct.  Appends
 * two samples (write, read) per size to ctx->run->sweep.  A block size
 * that fails (e.g. EINVAL: O_DIRECT needs sector-aligned sizes) is
 * recorded failed and the sweep goes on; an I/O error (ENOSPC, EIO) stops
 * it.  Returns 0 or -1. */
int agent_sweep(struct agent_ctx *ctx, const char *path, int is_blockdev);

#endif
