/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a run does to the world, as hooks: every external effect of a run
 * (storage, the guest image, the control disk, the dom0 step, loop devices,
 * the page cache, the cache truth and placement readers) goes through a
 * vdc_run_env, so the flow tests (tests/unit/test_flow.c) swap in mocks and
 * inject failures at each step.  vdc_run_env_default gives the real ones
 * (src/run/env.c). */
#ifndef VDC_RUN_ENV_H
#define VDC_RUN_ENV_H

#include <signal.h>
#include <stdint.h>

#include <json-glib/json-glib.h>

#include "guest-agent/ctldisk.h"
#include "guest/prepare.h"
#include "host/alignment.h"
#include "host/placement.h"
#include "hv/hv.h"
#include "model/target.h"
#include "collect/cache.h"
#include "run/dom0.h"
#include "storage/storage.h"

typedef struct {
    const vdc_hv_ops *hv;       /* NULL: vdc_hv_ops_for(plan->hv) */

    int (*storage_create)(const struct vdc_storage_spec *spec, struct vdc_storage *out);
    /* used by teardown and cleanup: rebuild from the journal and destroy
     * (backing image: @path; backing lvm: @vg, @lv, and @run_tag when the
     * journal recorded one: an LV without it is not this run's) */
    int (*storage_destroy_journaled)(vdc_backing backing, const char *path, const char *vg,
                                     const char *lv, const char *run_tag);
    JsonObject *(*storage_describe)(const struct vdc_storage *st);

    int (*prepare)(const struct vdc_prepare_opts *o, struct vdc_prepared *out);
    /* --prepared-image: read IMG.manifest, launch nothing */
    int (*prepared_load)(const char *image, struct vdc_prepared *out);
    /* read-only libguestfs inspection of the root image after a failure */
    int (*collect_logs)(const char *image, const char *out_dir, int launch_timeout_s);

    int (*ctl_create)(const char *path, uint64_t size, const struct vdc_ctl_job *job);
    int (*ctl_read)(const char *path, uint64_t nonce, struct vdc_ctl_result *res);
    uint64_t (*nonce)(void);

    /* One dom0 baseline step (run/dom0.h vdc_dom0_step).  0, or -1 (the
     * run is then recorded failed with the message; what each pass wrote
     * is kept). */
    int (*dom0_step)(const vdc_dom0_job *job);
    /* Attach @file to a free loop device (journaled by the caller). */
    char *(*loop_attach)(const char *file);
    /* Detach what is bound to the file @file, known by its journaled
     * identity @ino ("DEV:INO"; NULL: @file as it is now). */
    int (*loop_detach)(const char *file, const char *ino);
    /* sync and drop dom0's page cache before each guest boot */
    int (*drop_caches)(void);
    /* The cache truth of each domU boot (run/cache.h: loop devices,
     * LOOP_SET_DIRECT_IO, QEMU's open flags); NULL members: not read. */
    vdc_cache_io cache;
    /* targets[].placement (host/placement.h), read once per target after
     * its first boot; NULL: not read */
    int (*image_placement)(const char *path, vdc_placement *out);
    int (*lv_placement)(const char *vg, const char *lv, const char *const *lvm_args,
                        vdc_placement *out);
    /* targets[].alignment (host/alignment.h), read once per target with
     * its placement: the I/O sizes of whole disk @disk (an image's or an
     * LV's), and a block device's own (a --block device, dom0 on a
     * device); NULL: not read */
    int (*queue_limits)(const char *disk, vdc_queue_limits *out);
    int (*blockdev_alignment)(const char *dev, vdc_alignment *out);
    /* a thin LV's pool read again after the last boot (its data and
     * metadata use: storage/storage.h vdc_storage_thin_read); NULL: not
     * read */
    int (*thin_read)(const struct vdc_storage *st, vdc_thin_facts *out);
    /* bytes free to an unprivileged writer on the filesystem of @dir
     * (statvfs f_bavail x f_frsize when NULL): the watchdog's look at the
     * image directory while a domU runs.  0 or -1 (then not judged). */
    int (*fs_free)(const char *dir, uint64_t *bytes);

    volatile sig_atomic_t *stop;    /* set by SIGINT/SIGTERM */
} vdc_run_env;

/* The real environment (storage ops, libguestfs prepare, control disk,
 * loop devices, local agent). */
void vdc_run_env_default(vdc_run_env *env);

#endif
