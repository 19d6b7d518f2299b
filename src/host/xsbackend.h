/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A VBD's backend facts as dom0's xenstore holds them: which backend serves
 * it, the loop device the hotplug script made for a file, the device
 * blkback opened, the mode, and qdisk's cache switch.
 *
 * Keys, under /local/domain/0/backend/KIND/DOMID/DEVID (KIND vbd, vbd3 or
 * qdisk): written by libxl (params, mode, type, dev, direct-io-safe: "1"
 * when the disk spec asked for direct-io-safe; QEMU's xen-block then opens
 * the image with cache.direct=on, aio=native, else cache.direct=off,
 * aio=threads, through dom0's page cache), by the hotplug script
 * /etc/xen/scripts/block (node: the loop device for a file;
 * physical-device: "MAJ:MIN" in hex; physical-device-path), and by the
 * backend (hotplug-status, state).  Pure parsers over key/value pairs and
 * over `xenstore-ls -f` text (what the lab dumps), plus a libxenstore
 * reader where vmdiskcmp is built with libxl. */
#ifndef VDC_HOST_XSBACKEND_H
#define VDC_HOST_XSBACKEND_H

#include <stddef.h>

#include <glib.h>

typedef struct {
    char *path;                 /* the backend directory */
    char *kind;                 /* "vbd", "vbd3", "qdisk": from the path */
    unsigned domid, devid;      /* from the path */
    char *dev;                  /* "xvdb" (the domU's name for it) */
    char *type;                 /* "phy", "file", "qdisk" (absent: NULL) */
    char *params;               /* the target: "/img", "/dev/vg/lv", "aio:/img" */
    char *mode;                 /* "w", "r" */
    char *node;                 /* the loop device made for a file, "/dev/loop0";
                                 * NULL for a block device or qdisk */
    int have_physical_device;   /* physical-device parsed */
    unsigned pd_major, pd_minor;/* from physical-device "7:0" (hex) */
    char *physical_device_path; /* "/dev/loop0", "/dev/dm-0" */
    int direct_io_safe;         /* 1, 0, or -1 when the key is absent */
    char *hotplug_status;       /* "connected", "error", ... */
    /* the ring (docs/misc/blkif.h in Xen: "Multi-page rings",
     * "Multi-queue"): what the backend offers, in its directory
     * (max-ring-page-order, multi-queue-max-queues; -1 absent), and what
     * the frontend chose, in its directory (frontend): ring-page-order
     * and multi-queue-num-queues, read once the frontend is Connected
     * (state 4); absent then means one page (order 0) and one queue */
    char *frontend;             /* the frontend's directory */
    int max_ring_page_order;    /* -1 absent */
    int max_queues;             /* -1 absent */
    int frontend_state;         /* XenbusState, -1 unknown */
    int ring_page_order;        /* negotiated; -1 unknown (not connected, not read) */
    int num_queues;             /* negotiated; -1 unknown */
} vdc_xs_vbd;

void vdc_xs_vbd_dispose(vdc_xs_vbd *v);      /* safe twice, on a zeroed struct */
void vdc_xs_vbd_free(vdc_xs_vbd *v);         /* dispose + g_free; NULL-safe */

/* Pure: the facts of backend directory @path (…/backend/KIND/DOMID/DEVID)
 * from @n key/value pairs of its entries (keys relative to @path, e.g.
 * "node"; unknown keys ignored).  0, or -1 after vdc_error naming the path
 * and the key (a path not of that shape, physical-device not "MAJ:MIN" in
 * hex, direct-io-safe not 0/1). */
int vdc_xs_vbd_from_pairs(const char *path, const char *const *keys, const char *const *values,
                          size_t n, vdc_xs_vbd *out);

/* Pure: the frontend's side of @v from @n key/value pairs of its
 * directory @v->frontend (state, ring-page-order, multi-queue-num-queues):
 * the negotiated ring once it is Connected.  0, or -1 after vdc_error
 * naming the key (not a number). */
int vdc_xs_vbd_frontend(vdc_xs_vbd *v, const char *const *keys, const char *const *values, size_t n);

/* Pure: `xenstore-ls -f` text ("/full/path = "value"" lines; the value in
 * C escapes as xenstore-ls writes them) into a new path -> value table
 * (g_hash_table_unref).  Blank lines are skipped.  NULL after vdc_error
 * naming @source and the line. */
GHashTable *vdc_xs_ls_parse(const char *text, const char *source);

/* Pure: every VBD backend of domain @domid (every domain when @domid is
 * -1) in @tree (path -> value, as vdc_xs_ls_parse gives), sorted by
 * path, each with its frontend's side when @tree holds it: a new array of
 * vdc_xs_vbd* (g_ptr_array_unref frees them).  NULL after vdc_error. */
GPtrArray *vdc_xs_vbds_from_tree(GHashTable *tree, long domid);

/* Reader (libxenstore, read-only): the same from the live xenstore (the
 * backends' directories and their frontends').  NULL
 * after vdc_error; without libxl in the build, says so and returns NULL. */
GPtrArray *vdc_xs_vbds_read(long domid);

#endif
