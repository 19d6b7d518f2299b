/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Process groups a run starts (common/child.h: each child leads a group of
 * its own) as the undo journal records them (run/journal.h "proc"): a
 * group's identity when it starts, and stopping what is left of it later,
 * only while it is provably the same group.  Source: /proc/PID/stat (field
 * 22, start time in clock ticks after boot; field 5, the group),
 * /proc/PID/exe, /proc/sys/kernel/random/boot_id (host/procfs.h). */
#ifndef VDC_HOST_PROCGROUP_H
#define VDC_HOST_PROCGROUP_H

#include <stdint.h>
#include <sys/types.h>

/* The identity of process @pid: its executable (readlink /proc/PID/exe,
 * g_free) and start time (clock ticks after boot).  0, or -1 (no message:
 * gone, a zombie, a kernel thread). */
int vdc_proc_identity(pid_t pid, char **exe, uint64_t *start);

/* Stop what is left of a journaled process group: when process @pgrp
 * still runs with start time @start it must run @exe and lead its group,
 * else nothing is touched (-1, one message); a pid with another start time
 * is another process (0: ours ended).  With the leader gone, every running
 * member must have started at @start or later (the group's members are
 * forked after its leader), else nothing is touched (-1, one message).
 * Then every running member of the group gets SIGKILL until none is left
 * (at most 5 s).  0 when no member runs, -1 after vdc_error. */
int vdc_proc_group_stop(pid_t pgrp, uint64_t start, const char *exe);

#endif
