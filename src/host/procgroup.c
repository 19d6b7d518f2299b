/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Journaled process groups: identity and stopping (procgroup.h). */
#include "config.h"
#include "host/procgroup.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "host/procfs.h"

/* /proc/@pid/exe, or NULL (gone, a zombie, a kernel thread) */
static char *
proc_exe(pid_t pid)
{
    g_autofree char *link = g_strdup_printf("/proc/%d/exe", (int)pid);

    return g_file_read_link(link, NULL);
}

int
vdc_proc_identity(pid_t pid, char **exe, uint64_t *start)
{
    vdc_task_stat ts;

    *exe = proc_exe(pid);
    if (!*exe || vdc_task_stat_read(pid, 0, &ts) != 0) {
        g_clear_pointer(exe, g_free);
        return -1;
    }
    *start = ts.starttime;
    return 0;
}

/* The members of process group @pgrp that are still running (not
 * zombies), counted from /proc. */
static unsigned
group_running(pid_t pgrp)
{
    g_autoptr(GDir) d = g_dir_open("/proc", 0, NULL);
    const char *name;
    unsigned n = 0;

    while (d && (name = g_dir_read_name(d))) {
        vdc_task_stat ts;
        int pid = atoi(name);

        if (pid <= 0 || vdc_task_stat_read(pid, 0, &ts) != 0)
            continue;
        n += ts.pgrp == pgrp && ts.state != 'Z' && ts.state != 'X';
    }
    return n;
}

/* A running member of group @pgrp that started before @start (clock ticks
 * after boot), or 0: none */
static pid_t
group_member_before(pid_t pgrp, uint64_t start)
{
    g_autoptr(GDir) d = g_dir_open("/proc", 0, NULL);
    const char *name;

    while (d && (name = g_dir_read_name(d))) {
        vdc_task_stat ts;
        int pid = atoi(name);

        if (pid > 0 && vdc_task_stat_read(pid, 0, &ts) == 0 && ts.pgrp == pgrp &&
            ts.state != 'Z' && ts.state != 'X' && ts.starttime < start)
            return pid;
    }
    return 0;
}

int
vdc_proc_group_stop(pid_t pgrp, uint64_t start, const char *exe)
{
    vdc_task_stat ts;
    int r, i;

    r = vdc_task_stat_read(pgrp, 0, &ts);
    if (r < 0)
        return -1;
    if (r == 0 && ts.starttime != start)
        return 0;       /* the pid is another process's now: ours ended */
    if (r == 0 && ts.state != 'Z') {
        g_autofree char *now = proc_exe(pgrp);

        if (!now || strcmp(now, exe) != 0) {
            vdc_error("process %d: started when the journal says, but runs %s, not %s: not touched",
                      (int)pgrp, now ? now : "(unknown)", exe);
            return -1;
        }
        if (ts.pgrp != pgrp) {
            vdc_error("process %d (%s): leads no process group of its own: not touched", (int)pgrp, exe);
            return -1;
        }
    }
    /* the leader is ours, or gone (a group id is not reused while a
     * member lives): what runs in the group is ours when it started after
     * the leader did */
    if (!group_running(pgrp))
        return 0;
    if (r != 0 || ts.state == 'Z') {
        pid_t early = group_member_before(pgrp, start);

        if (early > 0) {
            vdc_error("process group %d: its leader is gone and member %d started before the "
                      "journaled leader: not ours, not touched", (int)pgrp, (int)early);
            return -1;
        }
    }
    vdc_progress("process group %d (%s) outlived its run: killing it", (int)pgrp, exe);
    for (i = 0; i < 100; i++) {
        if (kill(-pgrp, SIGKILL) < 0 && errno != ESRCH) {
            vdc_error("process group %d: kill: %s", (int)pgrp, g_strerror(errno));
            return -1;
        }
        if (!group_running(pgrp))
            return 0;
        g_usleep(50000);
    }
    vdc_error("process group %d (%s): still running 5 s after SIGKILL", (int)pgrp, exe);
    return -1;
}
