/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Provisioning a run's targets (provision.h). */
#include "config.h"
#include "run/provision.h"

#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include <glib.h>

#include "common/util.h"
#include "host/alignment.h"
#include "plan/levels.h"
#include "run/preflight.h"

/* Make @dir and any missing parents, each journaled ("dir": removed at
 * teardown when empty), outermost first.  0 or -1 (vdc_error). */
static int
ensure_dir(vdc_run_state *st, const char *dir)
{
    g_autofree char *parent = NULL;
    unsigned seq;

    if (g_file_test(dir, G_FILE_TEST_IS_DIR))
        return 0;
    parent = g_path_get_dirname(dir);
    if (strcmp(parent, dir) != 0 && ensure_dir(st, parent) < 0)
        return -1;
    seq = vdc_journal_add(&st->journal, &(vdc_journal_entry){ .kind = VDC_JOURNAL_DIR, .path = dir });
    if (!seq)
        return -1;
    return vdc_journal_mkdir(&st->journal, seq, dir, 0755);
}

/* Make target @t (a plan target, or a guest's copy of one) into @out:
 * its directory, the image or LV (and a thin LV's pool), each journaled
 * first.  0, or -1 after vdc_error. */
static int
make_storage(vdc_run_state *st, const vdc_plan_target *t, struct vdc_storage *out)
{
    struct vdc_storage_spec spec = vdc_run_storage_spec(st->p, t, st->s->consent);
    unsigned seq = 0, pool_seq = 0;
    int r;

    spec.run_tag = st->run_tag;     /* an LV carries the run id */
    /* what we create (an image, an LV) is journaled before it exists */
    if (t->spec.backing == VDC_BACKING_IMAGE) {
        g_autofree char *dir = g_path_get_dirname(t->path);

        if (ensure_dir(st, dir) < 0)
            return -1;
        seq = vdc_journal_add(&st->journal, &(vdc_journal_entry){
            .kind = VDC_JOURNAL_IMAGE, .path = t->path, .image = t->spec });
    } else if (t->spec.backing == VDC_BACKING_LVM) {
        /* a thin LV's pool first: the teardown, newest first, removes the
         * LV before its pool */
        if (t->thin_pool) {
            pool_seq = vdc_journal_add(&st->journal, &(vdc_journal_entry){
                .kind = VDC_JOURNAL_LV, .vg = t->vg, .lv = t->thin_pool, .tag = spec.run_tag });
            if (!pool_seq)
                return -1;
        }
        seq = vdc_journal_add(&st->journal, &(vdc_journal_entry){
            .kind = VDC_JOURNAL_LV, .vg = t->vg, .lv = t->lv, .tag = spec.run_tag });
    }
    if (t->spec.backing != VDC_BACKING_BLOCK && !seq)
        return -1;
    vdc_progress("provisioning %s: %s %s", t->name,
                 vdc_target_name(VDC_DIM_BACKING, t->spec.backing), t->path);
    r = st->env->storage_create(&spec, out);
    if (r < 0) {
        if (seq)
            (void)vdc_journal_undone(&st->journal, seq);   /* create leaves nothing */
        if (pool_seq)
            (void)vdc_journal_undone(&st->journal, pool_seq);
        return -1;
    }
    if (pool_seq && vdc_journal_done(&st->journal, pool_seq) < 0)
        return -1;
    if (seq && (t->spec.backing == VDC_BACKING_IMAGE ? vdc_journal_done_ino(&st->journal, seq, t->path)
                                                      : vdc_journal_done(&st->journal, seq)) < 0)
        return -1;
    return 0;
}

/* provision.h */
int
vdc_provision_target(vdc_run_state *st, size_t i)
{
    vdc_plan_target *t = &st->p->targets[i];
    unsigned seq;

    if (make_storage(st, t, &st->st[i]) < 0)
        return -1;
    st->dev[i] = g_strdup(st->st[i].device ? st->st[i].device : st->st[i].path);

    /* the dom0 baseline on an image: a loop device over it */
    if (t->spec.where == VDC_WHERE_DOM0 && t->spec.backing == VDC_BACKING_IMAGE) {
        char *loop;

        seq = vdc_journal_add(&st->journal,
                              &(vdc_journal_entry){ .kind = VDC_JOURNAL_LOOP, .file = t->path });
        if (!seq)
            return -1;
        loop = st->env->loop_attach(t->path);
        if (!loop)
            return -1;
        g_free(st->dev[i]);
        st->dev[i] = loop;
        /* the device is found again by its backing file's identity */
        if (vdc_journal_done_ino(&st->journal, seq, t->path) < 0)
            return -1;
    }
    return 0;
}

/* The unit target @i's data is laid out in on the disk: an LV's extent
 * (@pl's extent size) or its thin pool's chunk, an image's qcow2 cluster
 * or its host filesystem's block (st_blksize); 0 unknown. */
static uint64_t
layout_unit(vdc_run_state *st, size_t i, const vdc_placement *pl)
{
    const vdc_plan_target *pt = &st->p->targets[i];
    const vdc_target *t = vdc_recorder_target_record(st->rec, i);
    struct stat sb;

    if (pt->spec.backing == VDC_BACKING_LVM)
        return t && t->storage.thin.chunk_size > 0 ? (uint64_t)t->storage.thin.chunk_size : pl->extent_size;
    if (t && t->storage.qcow2.cluster_size > 0)
        return (uint64_t)t->storage.qcow2.cluster_size;
    return stat(pt->path, &sb) == 0 && sb.st_blksize > 0 ? (uint64_t)sb.st_blksize : 0;
}

/* Target @i's alignment from its placement @pl (an image or an LV: the
 * layers on the disk the ranges are on, against that disk's sizes), or
 * from its device (a block device: where its data starts on its disk). */
static void
read_alignment(vdc_run_state *st, size_t i, const vdc_placement *pl)
{
    const vdc_plan_target *pt = &st->p->targets[i];
    vdc_alignment a;
    vdc_queue_limits q;

    if (!vdc_recorder_wants_alignment(st->rec, i))
        return;
    memset(&a, 0, sizeof(a));
    if (pt->spec.backing == VDC_BACKING_BLOCK) {
        if (!st->env->blockdev_alignment || !st->dev[i])
            return;
        vdc_recorder_alignment(st->rec, i, st->env->blockdev_alignment(st->dev[i], &a) == 0 ? &a : NULL);
    } else {
        if (!pl || !st->env->queue_limits || !pl->pos.disk)
            return;
        if (st->env->queue_limits(pl->pos.disk, &q) < 0) {
            vdc_recorder_alignment(st->rec, i, NULL);
            return;
        }
        vdc_alignment_from_placement(pl, pt->spec.backing == VDC_BACKING_LVM, pl->pe_start,
                                     layout_unit(st, i, pl), &q, &a);
        vdc_recorder_alignment(st->rec, i, &a);
    }
    vdc_alignment_dispose(&a);
}

/* provision.h */
int
vdc_provision_guest_copy(vdc_run_state *st, size_t i, unsigned k, struct vdc_storage *out)
{
    const vdc_plan_target *t = &st->p->targets[i];
    vdc_plan_target c = *t;
    g_autofree char *path = vdc_plan_guest_path(t, k);
    g_autofree char *lv = NULL, *pool = NULL;

    c.path = path;
    if (t->spec.backing == VDC_BACKING_LVM) {
        lv = g_strdup_printf("%s-g%u", t->lv, k);
        c.lv = lv;
        /* each guest's thin LV in a pool of its own: no guest's writes
         * allocate from another's */
        if (t->thin_pool) {
            pool = g_strdup_printf("%s-g%u", t->thin_pool, k);
            c.thin_pool = pool;
        }
    }
    return make_storage(st, &c, out);
}

/* provision.h */
void
vdc_provision_placement(vdc_run_state *st, size_t i)
{
    const vdc_plan_target *pt = &st->p->targets[i];
    vdc_placement pl;
    const char *source;
    int r;

    if (pt->spec.backing == VDC_BACKING_BLOCK)
        read_alignment(st, i, NULL);
    if (!vdc_recorder_wants_placement(st->rec, i))
        return;
    memset(&pl, 0, sizeof(pl));
    if (pt->spec.backing == VDC_BACKING_IMAGE && st->env->image_placement) {
        source = "fiemap";
        r = st->env->image_placement(pt->path, &pl);
    } else if (pt->spec.backing == VDC_BACKING_LVM && st->env->lv_placement) {
        source = "lvs seg_pe_ranges";
        r = st->env->lv_placement(pt->vg, pt->lv, NULL, &pl);
    } else {
        return;
    }
    vdc_recorder_placement(st->rec, i, r == 0 ? &pl : NULL, source);
    if (r == 0)
        read_alignment(st, i, &pl);
    vdc_placement_dispose(&pl);
}

/* @v over @acc (the higher; NAN: unknown on both) */
static double
higher(double acc, double v)
{
    if (isnan(v))
        return acc;
    return isnan(acc) || v > acc ? v : acc;
}

/* "12.34 %", or "?" when unknown */
static const char *
pct_text(char *buf, size_t len, double v)
{
    if (isnan(v))
        g_strlcpy(buf, "?", len);
    else
        g_snprintf(buf, len, "%.2f %%", v);
    return buf;
}

/* provision.h */
void
vdc_provision_thin_after(vdc_run_state *st, size_t i)
{
    const struct vdc_storage *own = &st->st[i];
    const char *name = st->p->targets[i].name;
    vdc_thin_facts most = { .zero = -1, .data_percent = NAN, .metadata_percent = NAN };
    unsigned k, n_read = 0, n = st->copies ? st->n_guests : 1;
    char a[32], b[32];

    if (!own->thin_pool || !st->env->thin_read)
        return;
    for (k = 0; k < n; k++) {
        const struct vdc_storage *s = k ? &st->copies[i * st->n_guests + k] : own;
        vdc_thin_facts f;

        if (!s->thin_pool || st->env->thin_read(s, &f) < 0)
            continue;       /* it said why */
        n_read++;
        most.data_percent = higher(most.data_percent, f.data_percent);
        most.metadata_percent = higher(most.metadata_percent, f.metadata_percent);
        /* NAN compares false: an unknown use warns of nothing */
        if (f.data_percent > VDC_THIN_POOL_FULL_PERCENT || f.metadata_percent > VDC_THIN_POOL_FULL_PERCENT)
            vdc_progress("warning: %s: thin pool %s/%s is over %.0f %% full after the runs (data %s, "
                         "metadata %s): a write that needed a new chunk may have waited for room or "
                         "failed; its tests are flagged thin-pool-full", name, s->vg, s->thin_pool,
                         VDC_THIN_POOL_FULL_PERCENT, pct_text(a, sizeof(a), f.data_percent),
                         pct_text(b, sizeof(b), f.metadata_percent));
        vdc_thin_facts_dispose(&f);
    }
    vdc_recorder_thin_after(st->rec, i, n_read ? &most : NULL);
    if (n_read)
        vdc_progress("%s: thin pool%s after the runs: data %s, metadata %s in use (lvs)", name,
                     n > 1 ? "s (the fullest)" : "", pct_text(a, sizeof(a), most.data_percent),
                     pct_text(b, sizeof(b), most.metadata_percent));
}
