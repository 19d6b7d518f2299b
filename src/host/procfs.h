/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Samplers of dom0's /proc accounting (Linux proc(5)): memory, CPU time of
 * the whole machine, of a process and of one thread, and the open flags of
 * a process's files.  Each is a pure parser over the file's text (no I/O;
 * unit-tested on copies in tests/golden/host/) plus a thin reader.  The run
 * decides when to sample, the analysis what the figures mean.
 *
 * Errors: a parser given malformed text calls vdc_error once, naming
 * @source (e.g. "/proc/meminfo") and what was expected, and returns -1
 * with *out unspecified.  Units are bytes and clock ticks (USER_HZ,
 * sysconf(_SC_CLK_TCK), 100 on Linux/x86) as the kernel writes them. */
#ifndef VDC_HOST_PROCFS_H
#define VDC_HOST_PROCFS_H

#include <stddef.h>
#include <stdint.h>

/* ---- /proc/meminfo --------------------------------------------------------- */

/* The page-cache figures of /proc/meminfo, in bytes (the file says kB,
 * meaning KiB).  Cached is the page cache (files, block devices, tmpfs),
 * Dirty the part waiting to be written back, Writeback the part being
 * written back now. */
typedef struct {
    uint64_t mem_total;
    uint64_t cached;
    uint64_t dirty;
    uint64_t writeback;
    uint64_t mem_available;  /* MemAvailable (Linux 3.14 on): what can be given to
                              * new processes without swapping; 0 when absent */
} vdc_meminfo;

/* Parse meminfo text: lines "Name:<blanks>N kB".  MemTotal, Cached, Dirty
 * and Writeback must each appear exactly once with a decimal value and the
 * unit kB, MemAvailable at most once; other lines are ignored.  0, or -1 after vdc_error naming
 * @source, the line number and the field. */
int vdc_meminfo_parse(const char *text, const char *source, vdc_meminfo *out);
/* /proc/meminfo.  0 or -1. */
int vdc_meminfo_read(vdc_meminfo *out);

/* ---- /proc/stat: CPU time of the machine ----------------------------------- */

/* The first eight columns of a "cpu" line, in clock ticks since boot:
 * user nice system idle iowait irq softirq steal (guest and guest_nice are
 * already counted in user and nice, so they are not kept). */
enum {
    VDC_CPU_USER = 0, VDC_CPU_NICE, VDC_CPU_SYSTEM, VDC_CPU_IDLE, VDC_CPU_IOWAIT,
    VDC_CPU_IRQ, VDC_CPU_SOFTIRQ, VDC_CPU_STEAL, VDC_CPU_NFIELDS
};

typedef struct {
    int cpu;                        /* -1: the "cpu" total line; else N of "cpuN" */
    uint64_t t[VDC_CPU_NFIELDS];    /* clock ticks */
} vdc_cpu_times;

typedef struct {
    vdc_cpu_times total;
    vdc_cpu_times *cpus;            /* n_cpus entries, in file order; g_free */
    size_t n_cpus;
} vdc_proc_stat;

/* Busy ticks: user + nice + system + irq + softirq (what the CPU spent
 * running something; idle, iowait and steal are not busy: steal is time a
 * hypervisor gave to another domain). */
uint64_t vdc_cpu_times_busy(const vdc_cpu_times *t);
/* All eight columns: the time the CPU(s) existed, in ticks. */
uint64_t vdc_cpu_times_all(const vdc_cpu_times *t);

/* Parse /proc/stat text: the "cpu" line and every "cpuN" line, each with
 * at least eight decimal columns (Linux >= 2.6.11); other lines ignored.
 * The total line is required, first.  @out is filled (dispose it); 0, or
 * -1 after vdc_error naming @source and the line. */
int vdc_proc_stat_parse(const char *text, const char *source, vdc_proc_stat *out);
int vdc_proc_stat_read(vdc_proc_stat *out);   /* /proc/stat */
/* Free @st's per-CPU array; safe twice, safe on a zeroed struct. */
void vdc_proc_stat_dispose(vdc_proc_stat *st);

/* ---- /proc/PID/stat, /proc/PID/task/TID/stat ------------------------------ */

/* Task flags of field 9 (include/linux/sched.h) used to classify threads. */
#define VDC_PF_WQ_WORKER 0x00000020u   /* a workqueue worker (kworker) */
#define VDC_PF_KTHREAD   0x00200000u   /* a kernel thread */

/* The fields of proc(5)'s stat line the samplers use.  For /proc/PID/stat
 * utime and stime cover every thread of the process, alive or exited; for
 * /proc/PID/task/TID/stat the one thread.  Children are not included. */
typedef struct {
    int pid;                /* field 1 (the TID for a task's file) */
    char comm[64];          /* field 2 without the parentheses; for a kworker
                             * the kernel appends its last workqueue, e.g.
                             * "kworker/u4:2+loop0" (fs/proc/array.c, wq_worker_comm) */
    char state;             /* field 3: R, S, D, Z, I, ... */
    int ppid;               /* field 4 */
    int pgrp;               /* field 5: process group */
    uint32_t flags;         /* field 9: PF_* */
    uint64_t utime;         /* field 14: user CPU, clock ticks */
    uint64_t stime;         /* field 15: system CPU, clock ticks */
    uint64_t starttime;     /* field 22: start, clock ticks after boot; with
                             * the pid, the task's identity (pids are reused) */
} vdc_task_stat;

/* Parse one stat line.  The comm is taken between the first '(' and the
 * last ')' (a comm may hold spaces and parentheses); at least 22 fields
 * must follow.  0, or -1 after vdc_error naming @source. */
int vdc_task_stat_parse(const char *text, const char *source, vdc_task_stat *out);
/* /proc/PID/stat (@tid 0) or /proc/PID/task/TID/stat.  0; 1 when the task
 * does not exist (it exited: no message); -1 after vdc_error. */
int vdc_task_stat_read(int pid, int tid, vdc_task_stat *out);

/* ---- /proc/PID/fdinfo/N ------------------------------------------------------ */

/* Parse fdinfo text ("pos:", "flags:" in octal, "mnt_id:", ...): the
 * open(2) flags of the file description into *flags (e.g. O_DIRECT set
 * when QEMU opened an image with cache.direct=on).  0, or -1 after
 * vdc_error naming @source. */
int vdc_fdinfo_flags_parse(const char *text, const char *source, unsigned *flags);

/* The open flags of every descriptor process @pid holds on @path (compared
 * after realpath; /proc/PID/fd/N links), into the new array *flags (g_free)
 * of *n entries (0 when the process does not hold the file).  0, or -1
 * after vdc_error (no such process, no permission). */
int vdc_proc_file_flags(int pid, const char *path, unsigned **flags, size_t *n);

/* ---- this boot of the kernel ------------------------------------------------- */

/* The text of /proc/sys/kernel/random/boot_id (a UUID, stripped), newly
 * allocated, or NULL when /proc cannot tell (no message). */
char *vdc_boot_id(void);

/* The boot's wall-clock time, seconds since the epoch (/proc/stat
 * "btime"), or -1 when /proc cannot tell (no message). */
int64_t vdc_boot_time(void);

#endif
