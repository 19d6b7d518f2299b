/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: the file tests (-n): sequential and random create,
 * stat/read and delete (see filetests.c for the exact operations). */
#ifndef VDC_AGENT_FILETESTS_H
#define VDC_AGENT_FILETESTS_H

#include "sys.h"

/* Run the six file tests in DIR/Bonnie.PID.  Rates are files per second
 * (cfg->files * 1024 / elapsed).  Returns 0, or -1 after agent_fail; on
 * failure every file and directory the tests made is removed. */
int agent_file_tests(struct agent_ctx *ctx, const char *dir);

#endif
