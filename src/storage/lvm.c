/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp storage kind "lvm": a new LV in an existing VG, through
 * libblockdev's LVM plugin (libbd_lvm 2.28: bd_lvm_vginfo, bd_lvm_lvs,
 * bd_lvm_lvcreate with --addtag/--stripes/--stripesize, bd_lvm_lvremove,
 * bd_lvm_pvs for pe_start).  libblockdev 2.28 reports no LV tags, so the
 * tag check before lvremove reads them with `lvs -o lv_tags`.
 *
 * The decisions (names, sizes, room, existing names, tags) are made here
 * against the backend table below, which unit tests replace with a mock:
 * LVM runs for real only inside the emulated Xen lab (no device-mapper on
 * the build host). */
#include "config.h"

#include <math.h>
#include <string.h>

#include <glib.h>
#ifdef WITH_BLOCKDEV
#include <blockdev/blockdev.h>
#include <blockdev/lvm.h>
#endif

#include "common/child.h"
#include "common/util.h"
#include "storage/storage_kinds.h"

/* ---- the real backend --------------------------------------------------------- */

/* lvm2's own report of the pool (libblockdev 2.28 has neither the chunk
 * size nor zeroing, and data_percent only in whole percent) */
static int
thin_facts(const char *vg, const char *pool, vdc_thin_facts *out, char **why)
{
    if (vdc_thin_facts_read(vg, pool, NULL, out) < 0) {
        *why = g_strdup("lvs did not say (see the message above)");
        return -1;
    }
    return 0;
}

#ifdef WITH_BLOCKDEV
static int
bd_ready(char **why)
{
    static int done;
    BDPluginSpec lvm = { .name = BD_PLUGIN_LVM, .so_name = NULL };
    BDPluginSpec *plugins[] = { &lvm, NULL };
    GError *err = NULL;

    if (done)
        return 0;
    if (!bd_ensure_init(plugins, NULL, &err)) {
        *why = g_strdup_printf("libblockdev LVM plugin: %s", err ? err->message : "init failed");
        g_clear_error(&err);
        return -1;
    }
    done = 1;
    return 0;
}

/* libblockdev messages carry the LVM tools' multi-line output: one line,
 * lines joined with "; ", runs of blanks squeezed */
static char *
one_line(const char *msg)
{
    GString *s = g_string_new(NULL);
    char **lines = g_strsplit(msg, "\n", -1), **l;

    for (l = lines; *l; l++) {
        char *t = g_strstrip(*l);

        if (!*t)
            continue;
        if (s->len)
            g_string_append(s, "; ");
        for (; *t; t++)
            if (!(g_ascii_isspace(*t) && g_ascii_isspace(t[1])))
                g_string_append_c(s, g_ascii_isspace(*t) ? ' ' : *t);
    }
    g_strfreev(lines);
    return g_string_free(s, FALSE);
}

static int
why_from(GError **err, char **why)
{
    *why = one_line(*err ? (*err)->message : "unknown libblockdev error");
    g_clear_error(err);
    return -1;
}

static int
bd_vg_info(const char *vg, struct vdc_lvm_vg_facts *out, char **why)
{
    GError *err = NULL;
    BDLVMVGdata *d;

    if (bd_ready(why) < 0)
        return -1;
    d = bd_lvm_vginfo(vg, &err);
    if (!d)
        return why_from(&err, why);
    out->size = d->size;
    out->free = d->free;
    out->extent_size = d->extent_size;
    out->pv_count = (unsigned)d->pv_count;
    bd_lvm_vgdata_free(d);
    return 0;
}

static int
bd_vg_list(struct vdc_lvm_vg_entry **vgs, size_t *n, char **why)
{
    GError *err = NULL;
    BDLVMVGdata **d, **p;
    size_t k = 0;

    if (bd_ready(why) < 0)
        return -1;
    d = bd_lvm_vgs(&err);
    if (!d && err)
        return why_from(&err, why);
    for (p = d; p && *p; p++)
        k++;
    *vgs = g_new0(struct vdc_lvm_vg_entry, k ? k : 1);
    *n = k;
    for (k = 0, p = d; p && *p; p++, k++) {
        (*vgs)[k].name = g_strdup((*p)->name);
        (*vgs)[k].facts.size = (*p)->size;
        (*vgs)[k].facts.free = (*p)->free;
        (*vgs)[k].facts.extent_size = (*p)->extent_size;
        (*vgs)[k].facts.pv_count = (unsigned)(*p)->pv_count;
        bd_lvm_vgdata_free(*p);
    }
    g_free(d);
    return 0;
}

static int
bd_lv_list(const char *vg, char ***lvs, char **why)
{
    GError *err = NULL;
    BDLVMLVdata **d, **p;
    GPtrArray *a;

    if (bd_ready(why) < 0)
        return -1;
    d = bd_lvm_lvs(vg, &err);
    if (!d && err)
        return why_from(&err, why);
    a = g_ptr_array_new();
    for (p = d; p && *p; p++) {
        g_ptr_array_add(a, g_strdup((*p)->lv_name));
        bd_lvm_lvdata_free(*p);
    }
    g_free(d);
    g_ptr_array_add(a, NULL);
    *lvs = (char **)g_ptr_array_free(a, FALSE);
    return 0;
}

static int
bd_lv_exists(const char *vg, const char *lv, char **why)
{
    char **lvs = NULL;
    int found;

    if (bd_lv_list(vg, &lvs, why) < 0)
        return -1;
    found = g_strv_contains((const char *const *)lvs, lv);
    g_strfreev(lvs);
    return found;
}

/* lvm2's tools get this long (a VG on a slow or busy disk answers in
 * seconds; a hung one must not hang the run). */
#define LVM_TOOL_TIMEOUT_MS 60000u

static int
bd_lv_tags(const char *vg, const char *lv, char ***tags, char **why)
{
    g_autofree char *full = g_strdup_printf("%s/%s", vg, lv);
    char *const argv[] = { (char *)"lvs", (char *)"--noheadings", (char *)"-o", (char *)"lv_tags",
                           full, NULL };
    vdc_child_opts o = { .argv = argv, .timeout_ms = LVM_TOOL_TIMEOUT_MS,
                         .out = VDC_CHILD_CAPTURE, .err = VDC_CHILD_CAPTURE_APART };
    vdc_child_result r;
    int rc = -1;

    if (vdc_child_run(&o, &r) < 0) {
        *why = g_strdup("cannot run lvs (see the message above)");
        return -1;
    }
    if (r.timed_out) {
        *why = g_strdup_printf("lvs %s: no answer in %u s", full, LVM_TOOL_TIMEOUT_MS / 1000);
    } else if (vdc_child_code(&r) != 0) {
        g_autofree char *l = one_line(r.err);

        *why = g_strdup_printf("lvs %s: %s", full, l);
    } else {
        *tags = g_strsplit(g_strstrip(r.out), ",", -1);
        rc = 0;
    }
    vdc_child_result_dispose(&r);
    return rc;
}

/* the extra arguments every LV we make gets: its tags (at most 4) */
static size_t
tag_args(BDExtraArg **extra, const char *const *tags)
{
    size_t i = 0;

    for (; *tags && i < 4; tags++)
        extra[i++] = bd_extra_arg_new("--addtag", *tags);
    return i;
}

static void
extra_free(BDExtraArg **extra)
{
    size_t i;

    for (i = 0; extra[i]; i++)
        bd_extra_arg_free(extra[i]);
}

static int
bd_lv_create(const char *vg, const char *lv, uint64_t size, unsigned stripes,
             uint64_t stripe_size, const char *const *tags, char **why)
{
    GError *err = NULL;
    BDExtraArg *extra[8] = { NULL };
    char *n = NULL, *sz = NULL;
    int i = 0, ok;

    if (bd_ready(why) < 0)
        return -1;
    i = (int)tag_args(extra, tags);
    if (stripes > 1) {
        n = g_strdup_printf("%u", stripes);
        extra[i++] = bd_extra_arg_new("--stripes", n);
        if (stripe_size) {
            sz = g_strdup_printf("%lluk", (unsigned long long)(stripe_size / 1024));
            extra[i++] = bd_extra_arg_new("--stripesize", sz);
        }
    }
    ok = bd_lvm_lvcreate(vg, lv, size, stripes > 1 ? "striped" : NULL, NULL,
                         (const BDExtraArg **)extra, &err);
    extra_free(extra);
    g_free(n);
    g_free(sz);
    return ok ? 0 : why_from(&err, why);
}

static int
bd_lv_remove(const char *vg, const char *lv, char **why)
{
    GError *err = NULL;

    if (bd_ready(why) < 0)
        return -1;
    return bd_lvm_lvremove(vg, lv, TRUE, NULL, &err) ? 0 : why_from(&err, why);
}

static int
bd_pe_start(const char *vg, uint64_t *out, char **why)
{
    GError *err = NULL;
    BDLVMPVdata **d, **p;

    if (bd_ready(why) < 0)
        return -1;
    d = bd_lvm_pvs(&err);
    if (!d && err)
        return why_from(&err, why);
    *out = 0;
    for (p = d; p && *p; p++) {
        if (!*out && (*p)->vg_name && !strcmp((*p)->vg_name, vg))
            *out = (*p)->pe_start;
        bd_lvm_pvdata_free(*p);
    }
    g_free(d);
    if (!*out) {
        *why = g_strdup_printf("no PV of VG %s found", vg);
        return -1;
    }
    return 0;
}

static int
bd_pool_create(const char *vg, const char *pool, uint64_t size, uint64_t md_size, uint64_t chunk,
               int zero, const char *const *tags, char **why)
{
    GError *err = NULL;
    BDExtraArg *extra[8] = { NULL };
    size_t i;
    int ok;

    if (bd_ready(why) < 0)
        return -1;
    i = tag_args(extra, tags);
    if (zero >= 0)
        extra[i++] = bd_extra_arg_new("--zero", zero ? "y" : "n");
    /* lvcreate -T VG/POOL -L SIZE --poolmetadatasize MD [--chunksize C] */
    ok = bd_lvm_thpoolcreate(vg, pool, size, md_size, chunk, NULL, (const BDExtraArg **)extra,
                             &err);
    extra_free(extra);
    return ok ? 0 : why_from(&err, why);
}

static int
bd_thin_create(const char *vg, const char *pool, const char *lv, uint64_t size,
               const char *const *tags, char **why)
{
    GError *err = NULL;
    BDExtraArg *extra[8] = { NULL };
    int ok;

    if (bd_ready(why) < 0)
        return -1;
    tag_args(extra, tags);
    /* lvcreate -T VG/POOL -V SIZE -n LV */
    ok = bd_lvm_thlvcreate(vg, pool, lv, size, (const BDExtraArg **)extra, &err);
    extra_free(extra);
    return ok ? 0 : why_from(&err, why);
}

static const struct vdc_lvm_backend lvm_default = {
    .vg_info = bd_vg_info,
    .vg_list = bd_vg_list,
    .lv_exists = bd_lv_exists,
    .lv_tags = bd_lv_tags,
    .lv_create = bd_lv_create,
    .lv_remove = bd_lv_remove,
    .lv_list = bd_lv_list,
    .pe_start = bd_pe_start,
    .pool_create = bd_pool_create,
    .thin_create = bd_thin_create,
    .thin_facts = thin_facts,
};
#else
static int
no_vg_info(const char *vg, struct vdc_lvm_vg_facts *out, char **why)
{
    *why = g_strdup("built without libblockdev (LVM plugin): LVM targets are unavailable");
    return -1;
}

static int
no_lv_list(const char *vg, char ***lvs, char **why)
{
    return no_vg_info(vg, NULL, why);
}

static int
no_vg_list(struct vdc_lvm_vg_entry **vgs, size_t *n, char **why)
{
    return no_vg_info(NULL, NULL, why);
}

static int
no_lv_exists(const char *vg, const char *lv, char **why)
{
    return no_vg_info(vg, NULL, why);
}

static const struct vdc_lvm_backend lvm_default = {
    .vg_info = no_vg_info,
    .vg_list = no_vg_list,
    .lv_exists = no_lv_exists,
    .lv_list = no_lv_list,
    .thin_facts = thin_facts,
};
#endif

static const struct vdc_lvm_backend *lvm = &lvm_default;

void
vdc_storage_lvm_set_backend(const struct vdc_lvm_backend *b)
{
    lvm = b ? b : &lvm_default;
}

/* ---- decisions ------------------------------------------------------------------- */
int
vdc_lvm_name_check(const char *what, const char *name)
{
    static const char *const reserved[] = { "_cdata", "_cmeta", "_corig", "_mlog", "_mimage",
                                            "_pmspare", "_rimage", "_rmeta", "_tdata",
                                            "_tmeta", "_vorigin", "_vdata", NULL };
    size_t i, n;

    if (!name || !*name) {
        vdc_error("%s name: empty", what);
        return -1;
    }
    n = strlen(name);
    if (n > 127 || name[0] == '-' || !strcmp(name, ".") || !strcmp(name, "..")) {
        vdc_error("%s name '%s': expected 1-127 of [A-Za-z0-9+_.-], not starting with '-'",
                  what, name);
        return -1;
    }
    for (i = 0; i < n; i++)
        if (!g_ascii_isalnum(name[i]) && !strchr("+_.-", name[i])) {
            vdc_error("%s name '%s': character '%c' not allowed (expected [A-Za-z0-9+_.-])",
                      what, name, name[i]);
            return -1;
        }
    if (!strcmp(what, "LV")) {
        if (g_str_has_prefix(name, "snapshot") || g_str_has_prefix(name, "pvmove")) {
            vdc_error("LV name '%s': prefix reserved by LVM", name);
            return -1;
        }
        for (i = 0; reserved[i]; i++)
            if (strstr(name, reserved[i])) {
                vdc_error("LV name '%s': '%s' is reserved by LVM", name, reserved[i]);
                return -1;
            }
    }
    return 0;
}

/* The checks of create(), against @vgf (filled here from the backend) with
 * @reserved bytes of the VG's free space already promised to LVs planned
 * before this one (0 for a single create). */
static int
lvm_check_reserved(const struct vdc_storage_spec *spec, struct vdc_lvm_vg_facts *vgf,
                   uint64_t reserved, uint64_t *need_out)
{
    const char *name = spec->name ? spec->name : "lvm";
    char *why = NULL;
    uint64_t need;
    int r;

    if (vdc_lvm_name_check("VG", spec->vg) < 0 || vdc_lvm_name_check("LV", spec->lv) < 0 ||
        (spec->thin && vdc_lvm_name_check("LV", spec->thin_pool) < 0))
        return -1;
    if (spec->thin && (spec->stripes > 1 || spec->stripe_size)) {
        vdc_error("storage %s: a thin LV has no stripes of its own (its pool's data LV is "
                  "linear here): expected no --stripes", name);
        return -1;
    }
    if (spec->thin && spec->thin_chunk_size &&
        (spec->thin_chunk_size < VDC_THIN_CHUNK_MIN || spec->thin_chunk_size > VDC_THIN_CHUNK_MAX ||
         (spec->thin_chunk_size & (spec->thin_chunk_size - 1)))) {
        vdc_error("storage %s: thin chunk size %" G_GUINT64_FORMAT " bytes: expected a power of "
                  "two from 64 KiB to 1 GiB", name, (guint64)spec->thin_chunk_size);
        return -1;
    }
    if (spec->thin && !strcmp(spec->thin_pool, spec->lv)) {
        vdc_error("storage %s: the thin pool and the LV are both named %s: expected two names",
                  name, spec->lv);
        return -1;
    }
    if (spec->size_bytes == 0) {
        vdc_error("storage %s: LV size 0: expected a positive size", name);
        return -1;
    }
    if (spec->stripes > 128) {
        vdc_error("storage %s: %u stripes: expected 1 to 128", name, spec->stripes);
        return -1;
    }
    if (spec->stripe_size && spec->stripes < 2) {
        vdc_error("storage %s: a stripe size needs --stripes 2 or more", name);
        return -1;
    }
    if (spec->stripe_size && (spec->stripe_size < 4096 ||
                              (spec->stripe_size & (spec->stripe_size - 1)))) {
        vdc_error("storage %s: stripe size %llu bytes: expected a power of two, at least 4 KiB",
                  name, (unsigned long long)spec->stripe_size);
        return -1;
    }
    if (lvm->vg_info(spec->vg, vgf, &why) < 0) {
        vdc_error("storage %s: VG %s: %s", name, spec->vg, why);
        g_free(why);
        return -1;
    }
    if (spec->stripes > 1 && spec->stripes > vgf->pv_count) {
        vdc_error("storage %s: %u stripes but VG %s has %u PVs", name, spec->stripes, spec->vg,
                  vgf->pv_count);
        return -1;
    }
    r = lvm->lv_exists(spec->vg, spec->lv, &why);
    if (r < 0) {
        vdc_error("storage %s: list LVs of VG %s: %s", name, spec->vg, why);
        g_free(why);
        return -1;
    }
    if (r > 0) {
        vdc_error("storage %s: LV %s/%s already exists: refusing to reuse it", name, spec->vg,
                  spec->lv);
        return -1;
    }
    if (spec->thin) {
        r = lvm->lv_exists(spec->vg, spec->thin_pool, &why);
        if (r != 0) {
            if (r < 0) {
                vdc_error("storage %s: list LVs of VG %s: %s", name, spec->vg, why);
                g_free(why);
            } else {
                vdc_error("storage %s: LV %s/%s (the thin pool) already exists: refusing to "
                          "reuse it", name, spec->vg, spec->thin_pool);
            }
            return -1;
        }
        vdc_thin_pool_size(spec->size_bytes, vgf->extent_size, spec->thin_chunk_size, NULL,
                           NULL, &need);
    } else {
        /* LVM rounds the size up to whole extents (times stripes) */
        need = spec->size_bytes;
        if (vgf->extent_size) {
            uint64_t unit = vgf->extent_size * (spec->stripes > 1 ? spec->stripes : 1);

            need = (need + unit - 1) / unit * unit;
        }
    }
    /* what a real run meets when it comes to this LV: the VG's free space
     * less the LVs it created before */
    vgf->free = vgf->free > reserved ? vgf->free - reserved : 0;
    if (need > vgf->free) {
        char f[32], n[32], d[32];

        vdc_error("storage %s: VG %s has %s free, the LV needs %s (%s more)", name, spec->vg,
                  vdc_fmt_bytes(f, sizeof(f), vgf->free), vdc_fmt_bytes(n, sizeof(n), need),
                  vdc_fmt_bytes(d, sizeof(d), need - vgf->free));
        return -1;
    }
    if (need_out)
        *need_out = need;
    return 0;
}

static uint64_t
round_up(uint64_t v, uint64_t unit)
{
    return unit ? (v + unit - 1) / unit * unit : v;
}

void
vdc_thin_pool_size(uint64_t size, uint64_t extent, uint64_t chunk, uint64_t *pool, uint64_t *md,
                   uint64_t *need)
{
    uint64_t c = chunk ? chunk : VDC_THIN_CHUNK_MIN;
    uint64_t data = round_up(round_up(size, c), extent);
    uint64_t meta = round_up(MAX(VDC_THIN_METADATA_MIN, data / c * 128), extent);

    if (pool)
        *pool = data;
    if (md)
        *md = meta;
    if (need)
        *need = data + 2 * meta;    /* the pool's metadata and LVM's spare of it */
}

static int
lvm_check_facts(const struct vdc_storage_spec *spec, struct vdc_lvm_vg_facts *vgf)
{
    return lvm_check_reserved(spec, vgf, 0, NULL);
}

/* bytes promised so far to LVs of one VG */
struct vg_use {
    const char *vg;
    uint64_t used;
};

int
vdc_storage_lvm_check_all(const struct vdc_storage_spec *specs, size_t n)
{
    struct vg_use *vgs = g_new0(struct vg_use, n ? n : 1);   /* at most @n VGs */
    size_t i, k, nvg = 0;
    int rc = 0;

    for (i = 0; i < n && rc == 0; i++) {
        struct vdc_lvm_vg_facts vgf = { 0 };
        uint64_t need = 0;

        if (specs[i].target.backing != VDC_BACKING_LVM || !specs[i].vg) {
            vdc_error("storage %s: expected an LV spec with a VG",
                      specs[i].name ? specs[i].name : "lvm");
            rc = -1;
            break;
        }
        for (k = 0; k < nvg && strcmp(vgs[k].vg, specs[i].vg); k++)
            ;
        if (k == nvg) {
            vgs[nvg].vg = specs[i].vg;
            vgs[nvg++].used = 0;
        }
        if (lvm_check_reserved(&specs[i], &vgf, vgs[k].used, &need) < 0)
            rc = -1;
        else
            vgs[k].used += need;
    }
    g_free(vgs);
    return rc;
}

static int
lvm_check(const struct vdc_storage_spec *spec)
{
    struct vdc_lvm_vg_facts vgf = { 0 };

    return lvm_check_facts(spec, &vgf);
}

/* Make the thin pool and the thin LV of @spec (checked); on failure the
 * pool goes again.  0, or -1 after vdc_error. */
static int
thin_make(const struct vdc_storage_spec *spec, const struct vdc_lvm_vg_facts *vgf,
          const char *const *tags, const char *name)
{
    uint64_t pool = 0, md = 0;
    char *why = NULL;

    vdc_thin_pool_size(spec->size_bytes, vgf->extent_size, spec->thin_chunk_size, &pool, &md,
                       NULL);
    if (!lvm->pool_create || !lvm->thin_create) {
        vdc_error("storage %s: this LVM backend cannot make thin pools", name);
        return -1;
    }
    if (lvm->pool_create(spec->vg, spec->thin_pool, pool, md, spec->thin_chunk_size,
                         spec->thin_zero, tags, &why) < 0) {
        vdc_error("storage %s: lvcreate --thinpool %s/%s: %s", name, spec->vg, spec->thin_pool, why);
        g_free(why);
        return -1;
    }
    if (lvm->thin_create(spec->vg, spec->thin_pool, spec->lv, spec->size_bytes, tags, &why) < 0) {
        vdc_error("storage %s: lvcreate --thin %s/%s in %s: %s", name, spec->vg, spec->lv,
                  spec->thin_pool, why);
        g_free(why);
        if (lvm->lv_remove(spec->vg, spec->thin_pool, &why) < 0) {
            vdc_error("storage %s: lvremove %s/%s (the pool just made): %s", name, spec->vg,
                      spec->thin_pool, why);
            g_free(why);
        }
        return -1;
    }
    return 0;
}

static int
lvm_create(const struct vdc_storage_spec *spec, struct vdc_storage *out)
{
    const char *name = spec->name ? spec->name : "lvm";
    struct vdc_lvm_vg_facts vgf = { 0 };
    char *why = NULL;
    uint64_t pe = 0;

    if (lvm_check_facts(spec, &vgf) < 0)
        return -1;
    const char *tags[] = { VDC_STORAGE_TAG, spec->run_tag, NULL };

    if (spec->run_tag && vdc_lvm_name_check("tag", spec->run_tag) < 0)
        return -1;
    if (spec->thin) {
        if (thin_make(spec, &vgf, tags, name) < 0)
            return -1;
    } else if (lvm->lv_create(spec->vg, spec->lv, spec->size_bytes, spec->stripes,
                              spec->stripe_size, tags, &why) < 0) {
        vdc_error("storage %s: lvcreate %s/%s: %s", name, spec->vg, spec->lv, why);
        g_free(why);
        return -1;
    }
    if (lvm->pe_start(spec->vg, &pe, &why) < 0) {
        /* a missing fact, not a failure: recorded as null */
        vdc_progress("storage %s: pe_start of VG %s unknown: %s", name, spec->vg, why);
        g_free(why);
        why = NULL;
        pe = 0;
    }
    vdc_storage_init(out);
    out->target = spec->target;
    out->name = g_strdup(name);
    out->vg = g_strdup(spec->vg);
    out->lv = g_strdup(spec->lv);
    out->path = g_strdup_printf("/dev/%s/%s", spec->vg, spec->lv);
    out->device = g_strdup(out->path);
    if (vgf.extent_size) {
        uint64_t unit = vgf.extent_size * (spec->stripes > 1 && !spec->thin ? spec->stripes : 1);

        out->size_bytes = (spec->size_bytes + unit - 1) / unit * unit;
    } else {
        out->size_bytes = spec->size_bytes;
    }
    out->stripes = spec->stripes > 1 && !spec->thin ? spec->stripes : 1;
    out->stripe_size = spec->stripes > 1 && !spec->thin ? spec->stripe_size : 0;
    out->pe_start = pe;
    out->run_tag = g_strdup(spec->run_tag);
    out->created = 1;
    if (spec->thin) {
        out->thin_pool = g_strdup(spec->thin_pool);
        out->pool_created = 1;
        out->thin_zero_asked = spec->thin_zero;
        out->thin_chunk_asked = spec->thin_chunk_size;
        /* read back, never assumed: missing facts are recorded as unknown */
        if (lvm->thin_facts && lvm->thin_facts(spec->vg, spec->thin_pool, &out->thin, &why) == 0) {
            out->thin_read = 1;
            out->data_percent[0] = out->thin.data_percent;
            out->metadata_percent[0] = out->thin.metadata_percent;
        } else {
            vdc_progress("storage %s: thin pool %s/%s: chunk size and zeroing unknown: %s", name,
                         spec->vg, spec->thin_pool, why ? why : "no report");
            g_free(why);
        }
    }
    return 0;
}

/* Remove LV @lv of @st when it carries our tag (and the run's, when @st has
 * one); *@created cleared when it is gone.  0, or -1 after vdc_error. */
static int
destroy_one(struct vdc_storage *st, const char *lv, int *created)
{
    const char *name = st->name ? st->name : "lvm";
    char **tags = NULL;
    char *why = NULL;
    int r;

    if (!*created)
        return 0;
    r = lvm->lv_exists(st->vg, lv, &why);
    if (r < 0) {
        vdc_error("storage %s: list LVs of VG %s: %s", name, st->vg, why);
        g_free(why);
        return -1;
    }
    if (r == 0) {
        *created = 0;    /* already gone */
        return 0;
    }
    if (lvm->lv_tags(st->vg, lv, &tags, &why) < 0) {
        vdc_error("storage %s: tags of LV %s/%s: %s", name, st->vg, lv, why);
        g_free(why);
        return -1;
    }
    r = g_strv_contains((const char *const *)tags, VDC_STORAGE_TAG);
    if (r && st->run_tag && !g_strv_contains((const char *const *)tags, st->run_tag)) {
        /* ours is gone; this one of the same name is another run's */
        g_strfreev(tags);
        vdc_error_kind(VDC_ERR_NONE, "storage %s: LV %s/%s lacks this run's tag '%s': not this run's, "
                       "left alone", name, st->vg, lv, st->run_tag);
        *created = 0;
        return 0;
    }
    g_strfreev(tags);
    if (!r) {
        vdc_error("storage %s: LV %s/%s lacks the tag '%s': not ours, left alone", name, st->vg,
                  lv, VDC_STORAGE_TAG);
        return -1;
    }
    if (lvm->lv_remove(st->vg, lv, &why) < 0) {
        vdc_error("storage %s: lvremove %s/%s: %s", name, st->vg, lv, why);
        g_free(why);
        return -1;
    }
    *created = 0;
    return 0;
}

/* the LV, then its thin pool (lvremove of a pool would take its thin LVs
 * with it: ours goes first, by name, after its tag check) */
static int
lvm_destroy(struct vdc_storage *st)
{
    int rc = destroy_one(st, st->lv, &st->created);

    if (rc == 0 && st->thin_pool)
        rc = destroy_one(st, st->thin_pool, &st->pool_created);
    return rc;
}

/* storage.h */
int
vdc_storage_thin_read(const struct vdc_storage *st, vdc_thin_facts *out)
{
    char *why = NULL;

    memset(out, 0, sizeof(*out));
    out->zero = -1;
    out->data_percent = out->metadata_percent = NAN;
    if (!st->thin_pool || !st->vg) {
        vdc_error("storage %s: not a thin LV: no pool to read", st->name ? st->name : "?");
        return -1;
    }
    if (!lvm->thin_facts) {
        vdc_error("storage %s: this LVM backend cannot read thin pools", st->name ? st->name : "?");
        return -1;
    }
    if (lvm->thin_facts(st->vg, st->thin_pool, out, &why) < 0) {
        vdc_error("storage %s: thin pool %s/%s: %s", st->name ? st->name : "?", st->vg, st->thin_pool,
                  why ? why : "no report");
        g_free(why);
        vdc_thin_facts_dispose(out);
        out->zero = -1;
        out->data_percent = out->metadata_percent = NAN;
        return -1;
    }
    return 0;
}

int
vdc_storage_lvm_vgs(struct vdc_lvm_vg_entry **vgs, size_t *n, char **why)
{
    *vgs = NULL;
    *n = 0;
    if (!lvm->vg_list) {
        *why = g_strdup("this LVM backend cannot list VGs");
        return -1;
    }
    return lvm->vg_list(vgs, n, why);
}

void
vdc_storage_lvm_vgs_free(struct vdc_lvm_vg_entry *vgs, size_t n)
{
    size_t i;

    for (i = 0; vgs && i < n; i++)
        g_free(vgs[i].name);
    g_free(vgs);
}

char **
vdc_storage_lvm_list_tagged(const char *vg)
{
    GPtrArray *a;
    char **lvs = NULL, **tags, **p;
    char *why = NULL;

    if (vdc_lvm_name_check("VG", vg) < 0)
        return NULL;
    if (lvm->lv_list(vg, &lvs, &why) < 0) {
        vdc_error("list LVs of VG %s: %s", vg, why);
        g_free(why);
        return NULL;
    }
    a = g_ptr_array_new();
    for (p = lvs; *p; p++) {
        tags = NULL;
        if (lvm->lv_tags(vg, *p, &tags, &why) < 0) {
            vdc_error("tags of LV %s/%s: %s", vg, *p, why);
            g_free(why);
            g_strfreev(lvs);
            g_ptr_array_add(a, NULL);
            g_strfreev((char **)g_ptr_array_free(a, FALSE));
            return NULL;
        }
        if (g_strv_contains((const char *const *)tags, VDC_STORAGE_TAG))
            g_ptr_array_add(a, g_strdup(*p));
        g_strfreev(tags);
    }
    g_strfreev(lvs);
    g_ptr_array_add(a, NULL);
    return (char **)g_ptr_array_free(a, FALSE);
}

int
vdc_storage_lvm_has_tag(const char *vg, const char *lv, const char *tag)
{
    char **tags = NULL, *why = NULL;
    int r = lvm->lv_exists(vg, lv, &why);

    if (r < 0 || (r == 1 && lvm->lv_tags(vg, lv, &tags, &why) < 0)) {
        vdc_error("tags of LV %s/%s: %s", vg, lv, why);
        g_free(why);
        return -1;
    }
    r = r == 1 && g_strv_contains((const char *const *)tags, tag);
    g_strfreev(tags);
    return r;
}

int
vdc_storage_lvm_probe(const char *vg, const char *lv)
{
    char *why = NULL;
    int r = lvm->lv_exists(vg, lv, &why);

    g_free(why);
    return r;
}

const struct vdc_storage_ops vdc_storage_lvm_ops = {
    .name = "lvm",
    .check = lvm_check,
    .create = lvm_create,
    .destroy = lvm_destroy,
};
