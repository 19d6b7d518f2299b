/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: the random seek test (bonnie++ 2.00a bon_io.cpp
 * CFileOp::seek_test and doseek). */
#ifndef VDC_AGENT_SEEKS_H
#define VDC_AGENT_SEEKS_H

#include <stdint.h>

#include "sys.h"

/* Seek test over the first @size bytes of @path (the test file or a block
 * device): cfg->seeks tickets drawn from the run's PRNG (chunk number
 * uniform in [0, size/chunk), one in ten marked "update"), shared by
 * cfg->seek_procs forked seeker processes through a pipe.  Each seek is
 * lseek(2) + read(2) of one chunk; an update then dirties one byte and
 * writes the chunk back (lseek + write, fsync with -b).  Rate = seeks /
 * (last seeker's end - first seeker's start); CPU from getrusage
 * RUSAGE_SELF + RUSAGE_CHILDREN.  Returns 0 or -1 after agent_fail. */
int agent_seek_test(struct agent_ctx *ctx, const char *path, uint64_t size);

#endif
