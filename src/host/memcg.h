/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A memory cgroup for the dom0 baseline's agent (--dom0-memory-max): a real,
 * enforced bound on the memory the agent and the page cache it fills may
 * take, so a test file twice that bound is out of cache reach as a domU's
 * file twice the domU's RAM is.  The kernel charges a page-cache page to
 * the memory cgroup of the task that brought it in (Documentation/admin-
 * guide/cgroup-v2.rst "Memory Ownership"; cgroup-v1/memory.rst 2.2), and
 * reclaims the cgroup's own pages when it reaches its limit.
 *
 * Both hierarchies: cgroup v2 (memory.max, memory.peak, cgroup.procs) and,
 * where the memory controller is bound to a v1 hierarchy, cgroup v1
 * (memory.limit_in_bytes, memory.max_usage_in_bytes, cgroup.procs).  The
 * new cgroup is a child of our own (v1), or of our nearest ancestor whose
 * cgroup.subtree_control enables memory (v2: a cgroup with processes in it
 * cannot give its children controllers), named vmdiskcmp-*.
 *
 * Pure parsers over the texts of /proc/self/cgroup, /proc/self/mountinfo
 * and the limit files (unit-tested), plus thin readers and writers.
 * Errors: one vdc_error naming the file and the cause; callers return -1. */
#ifndef VDC_HOST_MEMCG_H
#define VDC_HOST_MEMCG_H

#include <stdint.h>
#include <sys/types.h>

/* Where our memory controller is: the hierarchy's version, its mount point
 * and our cgroup's path in it ("/" for the root). */
typedef struct {
    int version;        /* 2 or 1; 0: no memory controller found */
    char *mount;        /* "/sys/fs/cgroup" (v2), "/sys/fs/cgroup/memory" (v1) */
    char *self;         /* "/system.slice/x.service" */
} vdc_memcg_where;

void vdc_memcg_where_init(vdc_memcg_where *w);
void vdc_memcg_where_dispose(vdc_memcg_where *w);   /* safe twice */

/* From the texts of /proc/self/cgroup (@cgroup) and /proc/self/mountinfo
 * (@mountinfo): the v1 hierarchy whose controllers include memory when
 * there is one (mounted, and our line names it), else the unified (v2)
 * one.  Whether v2's root offers memory (cgroup.controllers) is the
 * caller's to read.  0 with @w filled; -1 after vdc_error when neither is
 * there (no memory cgroup on this kernel). */
int vdc_memcg_where_parse(const char *cgroup, const char *mountinfo, vdc_memcg_where *w);

/* Is @word one of the blank-separated words of @list (cgroup.controllers,
 * cgroup.subtree_control)?  1 or 0. */
int vdc_memcg_list_has(const char *list, const char *word);

/* A limit file's text (memory.max, memory.limit_in_bytes, memory.peak,
 * memory.max_usage_in_bytes): decimal bytes, or "max" (UINT64_MAX), one
 * line.  0, or -1 after vdc_error naming @source. */
int vdc_memcg_value_parse(const char *text, const char *source, uint64_t *bytes);

/* A memory cgroup we made. */
typedef struct {
    int version;            /* 2 or 1 */
    char *path;             /* its directory */
    uint64_t limit_bytes;   /* the limit read back after writing it (the
                             * kernel rounds down to whole pages) */
} vdc_memcg;

void vdc_memcg_init(vdc_memcg *cg);
void vdc_memcg_dispose(vdc_memcg *cg);              /* frees; removes nothing; safe twice */

/* The directory a cgroup named @name (vmdiskcmp-*) would get on this
 * machine, and its hierarchy's version: reads /proc/self/cgroup,
 * /proc/self/mountinfo and (v2) the cgroup.subtree_control files up from
 * ours.  Makes nothing.  The path (g_free), or NULL after vdc_error. */
char *vdc_memcg_path_for(const char *name, int *version);

/* Make the cgroup @path (from vdc_memcg_path_for, @version), set its limit
 * to @limit_bytes (v2 also memory.swap.max 0 where swap is accounted: the
 * agent's own pages are not swapped out instead) and read it back into
 * @cg.  When the limit cannot be set or read back, the directory is
 * removed again.  0, or -1 after vdc_error (EEXIST included: never ours). */
int vdc_memcg_create(const char *path, int version, uint64_t limit_bytes, vdc_memcg *cg);

/* Move process @pid into @cg (cgroup.procs): what it forks after that is
 * in @cg too.  0 or -1 after vdc_error. */
int vdc_memcg_enter(const vdc_memcg *cg, pid_t pid);

/* The most @cg's memory use reached (memory.peak, v2 on Linux >= 5.19;
 * memory.max_usage_in_bytes, v1), bytes.  0; 1 when the kernel has no such
 * file (nothing reported); -1 after vdc_error. */
int vdc_memcg_peak(const vdc_memcg *cg, uint64_t *bytes);

/* Remove the cgroup directory @path: only a directory named vmdiskcmp-* on
 * a cgroup file system (statfs: CGROUP2_SUPER_MAGIC or CGROUP_SUPER_MAGIC);
 * gone already is success; busy (its last task still exiting) is retried
 * for up to 5 s.  0, or -1 after vdc_error. */
int vdc_memcg_remove(const char *path);

#endif
