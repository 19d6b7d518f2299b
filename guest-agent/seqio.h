/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: sequential output and input tests on ctx->file_path
 * (a regular file the module creates): putc, put_block, rewrite, getc,
 * get_block.  Leaves the file in place for the seek test. */
#ifndef VDC_AGENT_SEQIO_H
#define VDC_AGENT_SEQIO_H

#include "sys.h"

/* Run the five tests in bonnie++ order; per-char tests move
 * min(--per-char-size, -s) bytes, block tests -s bytes in -s CHUNK units.
 * Returns 0, or -1 after agent_fail (the failed test named, earlier
 * samples kept). */
int agent_seq_tests(struct agent_ctx *ctx);

#endif
