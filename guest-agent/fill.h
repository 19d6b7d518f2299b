/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp-agent: aging a target before the tests (aging.h has the
 * options and the record).
 *
 * Fill (--fill P, a directory target): in DIR/vmdiskcmp-fill/ (made by the
 * agent, refused if it exists), files of seeded sizes (agent_fill_size)
 * are written one after another, and one draw in AGENT_FILL_DELETE_DIV
 * deletes a seeded earlier file instead, until df's Use% of the
 * filesystem reaches P; then syncfs, and the free space's extents are read
 * with FS_IOC_GETFSMAP (linux/fsmap.h, ext4 and XFS; contiguous free
 * records merged, as one free extent split at a block group boundary is
 * one hole) into the free-extent histogram.  The files stay for the tests.
 *
 * Precondition (--precondition[=S], a block device): the job engine runs
 * two built-in jobs on the device: a sequential write of all of it (bs=1m,
 * iodepth=16, direct), then random 4 KiB writes (iodepth=32, direct,
 * norandommap, time_based) until fio's steady state ss=iops_slope:0.5%
 * (ss_dur=30, ss_ramp=10) or S seconds.
 *
 * Both return 0, or -1 with a->error holding one line (the tests then do
 * not run: the target is not in the state asked for). */
#ifndef VDC_AGENT_FILL_H
#define VDC_AGENT_FILL_H

#include <stddef.h>

#include "aging.h"
#include "agent.h"

/* The fill's folder under the target directory. */
#define AGENT_FILL_DIR "vmdiskcmp-fill"

/* Checks before anything is written (bad input, exit 2): --fill needs a
 * directory target without AGENT_FILL_DIR in it, whose filesystem is
 * under P % used and keeps, after the fill, room for the bonnie++ test
 * file (-s) and a 5 % margin; --precondition needs a block device target
 * and --job/--workload (the raw workload pass).  0, or -1 with @err. */
int agent_aging_check(const struct agent_config *cfg, char *err, size_t errlen);

/* Fill @cfg->target_path to cfg->fill_percent with seed cfg->fill_seed
 * into @a (above). */
int agent_fill_run(const struct agent_config *cfg, struct agent_aging *a);

/* Free extents of the filesystem holding @dir into @a's histogram
 * (FS_IOC_GETFSMAP): 0, or -1 with errno (EOPNOTSUPP/ENOTTY: the
 * filesystem cannot say). */
int agent_free_extents_read(const char *dir, struct agent_aging *a);

/* Precondition block device @cfg->target_path (above) into @a. */
int agent_precondition_run(const struct agent_config *cfg, struct agent_aging *a);

#endif
