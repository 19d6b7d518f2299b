/* Undo handlers for journal entries (journal.h lists the kinds).  Each is
 * idempotent: a thing already gone is success.  Each checks the thing is
 * still ours before removing it (loop: same backing file; mount: same
 * source; LV: our tag, checked by the storage code; domain: our name). */
#include "config.h"
#include "run/run.h"

#include <errno.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include <glib.h>

#include "common/util.h"

/* @ops: the driver to use (tests' mock), or NULL: the one named in @e */
static int
undo_domain(const vdc_journal_entry *e, const vdc_hv_ops *ops)
{
    const char *driver = vdc_journal_get(e, "driver");
    const char *uri = vdc_journal_get(e, "uri");
    const char *name = vdc_journal_get(e, "name");
    vdc_hv *hv;
    int rc;

    if (!driver || !name || !g_str_has_prefix(name, "vmdiskcmp-")) {
        vdc_error("journal: domain entry %u lacks a driver or a vmdiskcmp- name: not touched", e->seq);
        return -1;
    }
    if (!ops)
        ops = vdc_hv_ops_by_name(driver);
    if (!ops)
        return -1;
    hv = ops->open(uri && *uri ? uri : NULL);
    if (!hv)
        return -1;
    rc = ops->destroy(hv, name);
    ops->close(hv);
    return rc;
}

static int
undo_mount(const vdc_journal_entry *e)
{
    const char *dir = vdc_journal_get(e, "dir");
    const char *source = vdc_journal_get(e, "source");
    int m;

    if (!dir)
        return -1;
    m = vdc_is_mounted(dir, source);
    if (m <= 0)
        return m;   /* not mounted (0) or error (-1) */
    if (umount2(dir, 0) < 0 && umount2(dir, MNT_DETACH) < 0) {
        vdc_error("mount %s: cannot unmount: %s", dir, g_strerror(errno));
        return -1;
    }
    return 0;
}

static int
undo_path(const vdc_journal_entry *e, int is_dir)
{
    const char *path = vdc_journal_get(e, "path");

    if (!path)
        return -1;
    if ((is_dir ? rmdir(path) : unlink(path)) < 0 && errno != ENOENT) {
        vdc_error("%s %s: cannot remove: %s", is_dir ? "directory" : "file", path, g_strerror(errno));
        return -1;
    }
    return 0;
}

int
vdc_run_undo(const vdc_journal_entry *e, void *opaque)
{
    const vdc_run_env *env = opaque;

    if (!strcmp(e->kind, "domain"))
        return undo_domain(e, env->hv);
    if (!strcmp(e->kind, "image"))
        return env->storage_destroy_journaled("image", vdc_journal_get(e, "path"), NULL, NULL);
    if (!strcmp(e->kind, "lv"))
        return env->storage_destroy_journaled("lvm", NULL, vdc_journal_get(e, "vg"),
                                              vdc_journal_get(e, "lv"));
    if (!strcmp(e->kind, "loop"))
        return env->loop_detach(vdc_journal_get(e, "dev"), vdc_journal_get(e, "file"));
    if (!strcmp(e->kind, "mount"))
        return undo_mount(e);
    if (!strcmp(e->kind, "dir"))
        return undo_path(e, 1);
    if (!strcmp(e->kind, "file"))
        return undo_path(e, 0);
    vdc_error("journal: entry %u has unknown kind '%s': not touched", e->seq, e->kind);
    return -1;
}
