/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Page-cache residency of a file in dom0, and emptying the page cache: how much of an image (or a block
 * device node, e.g. an LV) dom0's page cache holds, as util-linux fincore
 * counts it: mincore(2) over a read-only shared mapping of the file, which
 * maps address space only and reads nothing (no page is faulted in, the
 * cache is not disturbed).  The mapping is made in chunks of at most
 * VDC_RESIDENCY_CHUNK bytes, so an image of any size needs that much
 * address space and a vector of CHUNK/page-size bytes, never more. */
#ifndef VDC_HOST_RESIDENCY_H
#define VDC_HOST_RESIDENCY_H

#include <stddef.h>
#include <stdint.h>

#define VDC_RESIDENCY_CHUNK (256u * 1024u * 1024u)   /* bytes mapped at a time */

typedef struct {
    uint64_t size_bytes;        /* file size (a block device: its size) */
    uint64_t pages;             /* pages covering it (the last may be partial) */
    uint64_t resident_pages;    /* of those, in the page cache now */
    uint64_t resident_bytes;    /* resident_pages x page size, at most size_bytes */
    long page_size;             /* bytes, sysconf(_SC_PAGESIZE) */
} vdc_residency;

/* Pure: the pages of a mincore(2) vector @vec of @n entries that are
 * resident (bit 0 set; the other bits are reserved). */
uint64_t vdc_mincore_resident(const unsigned char *vec, size_t n);

/* Reader: @path's residency now (a regular file or a block device; opened
 * O_RDONLY, never written).  0, or -1 after vdc_error naming the path. */
int vdc_residency_read(const char *path, vdc_residency *out);
/* The same, mapping @chunk bytes at a time (a positive multiple of the page
 * size; tests use a few pages to cross chunk boundaries). */
int vdc_residency_read_chunked(const char *path, size_t chunk, vdc_residency *out);

/* Empty dom0's page cache of clean pages: sync(2), then "3" into
 * /proc/sys/vm/drop_caches (page cache, dentries and inodes), as before
 * each domU boot and each dom0 test.  0, or -1 after vdc_error. */
int vdc_drop_caches(void);

#endif
