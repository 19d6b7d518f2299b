/* SPDX-License-Identifier: GPL-2.0-or-later */
/* blkback's module parameters in dom0's sysfs: what a run may set before
 * its domUs are created (--blkback-max-ring-page-order,
 * --blkback-max-queues) and restores after.  Linux
 * drivers/block/xen-blkback/blkback.c: max_ring_page_order (int, the most
 * pages a ring may have, as an order; mode 0444 in Linux: set only when
 * the module loads, so a running module refuses the write) and max_queues
 * (uint, queues per VBD, mode 0644; 0 at load means the number of online
 * CPUs).  blkback reads both when a backend connects: a new value applies
 * to the VBDs of domUs created after it, never to connected ones.
 *
 * Paths: ROOT/module/xen_blkback/parameters/NAME, ROOT /sys, or the
 * directory $VDC_TEST_SYSFS_ROOT names (tests only: a scratch tree);
 * whether dom0 runs under Xen: ROOT/hypervisor/type reads "xen". */
#ifndef VDC_HOST_BLKBACK_H
#define VDC_HOST_BLKBACK_H

#include <stdint.h>

typedef enum {
    VDC_BLKBACK_MAX_RING_PAGE_ORDER,    /* "max_ring_page_order" */
    VDC_BLKBACK_MAX_QUEUES,             /* "max_queues" */
    VDC_BLKBACK_N,
} vdc_blkback_param;

/* The most a ring's page order may be: XENBUS_MAX_RING_GRANT_ORDER of
 * Linux include/xen/xenbus.h (blkback clamps a larger one to it at load). */
#define VDC_BLKBACK_MAX_ORDER 4

/* The parameter's sysfs name ("max_queues") and its option
 * ("--blkback-max-queues").  Static. */
const char *vdc_blkback_name(vdc_blkback_param k);
const char *vdc_blkback_option(vdc_blkback_param k);

/* ROOT/module/xen_blkback/parameters/NAME (g_free). */
char *vdc_blkback_path(vdc_blkback_param k);

/* The parameter @path names when @path is exactly one of
 * vdc_blkback_path()'s (what a journal may ask to restore: no other file,
 * whatever its name ends in); -1 otherwise. */
int vdc_blkback_param_of_path(const char *path);

/* Whether @value may be written to @k on this dom0, checked before
 * anything is created: dom0 runs under Xen, the module is loaded, the
 * parameter exists, is writable (its mode has a write bit: root may open
 * a 0444 file but the kernel refuses the write) and readable, and @value
 * is in range (order 0..VDC_BLKBACK_MAX_ORDER, queues 1..the online
 * CPUs).  0 with the value now in *@was, or -1 after one vdc_input_error
 * naming the option and what was expected (callers exit 2). */
int vdc_blkback_check(vdc_blkback_param k, int64_t value, int64_t *was);

/* The value of parameter file @path (a decimal integer).  0, or -1 after
 * vdc_error naming the path. */
int vdc_blkback_read(const char *path, int64_t *value);

/* Write @value to parameter file @path and read it back into *@read_back.
 * 0 when the write went through (the value read back may still differ:
 * the caller records it), -1 after vdc_error naming the path. */
int vdc_blkback_write(const char *path, int64_t value, int64_t *read_back);

#endif
