/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A QEMU/KVM domain's disk as QEMU itself says it serves it, read back
 * after boot (never taken from what was asked):
 *
 *   QMP query-block      per device (qdev "/machine/peripheral/ALIAS/
 *                        virtio-backend", or a SCSI disk's "ALIAS"): the
 *                        format node and its cache: direct (O_DIRECT),
 *                        no-flush, writeback (the device's write cache:
 *                        off for directsync and writethrough);
 *   QMP query-iothreads  the I/O threads QEMU runs (id, thread-id);
 *   QMP qom-get          the device's "iothread" link ("/objects/ID") and
 *                        its queues ("num-queues" of virtio-blk,
 *                        "num_queues" of a virtio-scsi controller);
 *   the process's command line  the -blockdev JSON of the format node's
 *                        protocol node ("file": its node name): its "aio"
 *                        (absent: threads, QEMU's default).  QMP does not
 *                        report aio.
 *
 * The QMP text is what libvirt's virDomainQemuMonitorCommand returns
 * ({"return": ..., "id": ...}).  Pure parsers, tested on fixtures of QEMU
 * 7.2 under libvirt 9.0 (tests/golden/host/qmp-*). */
#ifndef VDC_HOST_QEMUDISK_H
#define VDC_HOST_QEMUDISK_H

#include <stddef.h>
#include <stdint.h>

#include <glib.h>

/* One device of query-block. */
typedef struct {
    char *qdev;                 /* "/machine/peripheral/virtio-disk1/virtio-backend", "scsi0-0-0-0" */
    char *node_name;            /* the format node: "libvirt-2-format" */
    char *file;                 /* the image or device it opened */
    int cache_direct;           /* tri-state: 1, 0, -1 unknown */
    int cache_no_flush;
    int cache_writeback;
} vdc_qmp_block;

void vdc_qmp_block_free(vdc_qmp_block *b);      /* NULL-safe */

/* Pure: query-block's reply @json into a new array of vdc_qmp_block* (in
 * its order; a device with nothing inserted is skipped).  NULL after
 * vdc_error naming @source (not JSON, no "return" array, an "error"). */
GPtrArray *vdc_qmp_block_parse(const char *json, const char *source);

/* Pure: query-iothreads' reply: the ids of the I/O threads (a new
 * NULL-terminated vector, g_strfreev), or NULL after vdc_error. */
char **vdc_qmp_iothreads_parse(const char *json, const char *source);

/* Pure: qom-get's reply: *@str (g_free) for a string value, *@num for an
 * integer.  0, or -1 after vdc_error (an error reply, another type). */
int vdc_qmp_qom_parse(const char *json, const char *source, char **str, int64_t *num);

/* Pure: the -blockdev arguments of a QEMU command line (@cmdline: NUL
 * separated, @len bytes, as /proc/PID/cmdline holds it) that are JSON
 * objects with a "node-name": a new table node name -> JsonObject
 * (g_hash_table_unref).  Never NULL; arguments that are not JSON (the
 * key=value form) are skipped. */
GHashTable *vdc_qemu_cmdline_blockdevs(const char *cmdline, size_t len);

/* The aio of format node @node: its "file" child's "aio" ("native",
 * "io_uring"), "threads" when the protocol node names none (QEMU's
 * default), NULL when @node or its child is not in @blockdevs.
 * Borrowed or static. */
const char *vdc_qemu_node_aio(GHashTable *blockdevs, const char *node);

/* The query-block device of libvirt disk alias @alias ("virtio-disk1",
 * "scsi0-0-0-0") in @blocks, or NULL. */
const vdc_qmp_block *vdc_qmp_block_of_alias(GPtrArray *blocks, const char *alias);

#endif
