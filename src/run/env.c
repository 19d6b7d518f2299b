/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The real run environment (env.h vdc_run_env_default): the storage ops,
 * libguestfs prepare, the control disk codec, loop devices and the local
 * dom0 agent step that a run uses outside the tests. */
#include "config.h"
#include "run/env.h"

#include <string.h>

#include <glib.h>

#include "common/util.h"
#include "guest/control.h"
#include "guest/prepare.h"
#include "host/loopdev.h"
#include "host/procfs.h"
#include "host/residency.h"
#include "run/dom0.h"

static int
storage_destroy_journaled(vdc_backing backing, const char *path, const char *vg, const char *lv,
                          const char *run_tag)
{
    struct vdc_storage st;
    int rc;

    vdc_storage_init(&st);
    rc = vdc_storage_from_journal(backing, path, vg, lv, &st);
    if (rc == 0 && run_tag)
        st.run_tag = g_strdup(run_tag);
    if (rc == 0)
        rc = vdc_storage_destroy(&st);
    vdc_storage_dispose(&st);
    return rc;
}

/* The loop devices bound to @file, by the identity the journal recorded
 * (@ino), else by @file as it is now. */
static int
loop_detach(const char *file, const char *ino)
{
    vdc_file_id id;

    if (ino && vdc_file_id_parse(ino, &id) == 0)
        return vdc_loop_detach(&id, file);
    return vdc_loop_detach(NULL, file);
}

/* the I/O sizes of whole disk @disk */
static int
queue_limits(const char *disk, vdc_queue_limits *out)
{
    return vdc_queue_limits_read(disk, 0, 0, out);
}

void
vdc_run_env_default(vdc_run_env *env)
{
    memset(env, 0, sizeof(*env));
    env->storage_create = vdc_storage_create;
    env->storage_destroy_journaled = storage_destroy_journaled;
    env->storage_describe = vdc_storage_describe;
    env->prepare = vdc_prepare;
    env->prepared_load = vdc_prepared_load;
    env->collect_logs = vdc_collect_logs;
    env->ctl_create = vdc_control_disk_create;
    env->ctl_read = vdc_control_disk_read_result;
    env->nonce = vdc_control_nonce;
    env->dom0_step = vdc_dom0_step;
    env->loop_attach = vdc_loop_attach;
    env->loop_detach = loop_detach;
    env->drop_caches = vdc_drop_caches;
    env->cache.loop_info = vdc_loop_info_read;
    env->cache.loop_find = vdc_loop_find_by_backing;
    env->cache.loop_set_dio = vdc_loop_set_direct_io;
    env->cache.file_flags = vdc_proc_file_flags;
    env->image_placement = vdc_image_placement_read;
    env->lv_placement = vdc_lv_placement_read;
    env->queue_limits = queue_limits;
    env->blockdev_alignment = vdc_blockdev_alignment_read;
    env->thin_read = vdc_storage_thin_read;
}
