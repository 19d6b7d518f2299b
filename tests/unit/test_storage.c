/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Storage logic (src/storage): the LVM kind's decisions against a mock LVM
 * backend (names, sizes, room, existing names, stripes, tag on create, tag
 * check and idempotence on destroy, cleanup listing), the image kind on
 * files in a temporary folder (refusal to overwrite, allocations,
 * idempotent destroy), the block kind's refusal paths with a mock
 * signature probe, and describe(). */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <glib.h>

#include "storage/storage.h"

/* ---- mock LVM: one VG "vg0", 1 GiB, 4 MiB extents, 2 PVs ------------------- */
#define MIB (1024ULL * 1024ULL)

struct mock_lv {
    char name[64];
    char tags[128];
};

static struct {
    int vg_exists;
    uint64_t free;
    struct mock_lv lvs[8];
    int n;
    int fail_create, fail_remove;
    int fail_pool, fail_thin, fail_facts;
    /* what pool_create and thin_create were called with */
    uint64_t p_size, p_md, p_chunk, t_size;
    int p_zero;
    char t_pool[64];
    int pools, thins;
    /* the pool's use from here on (the runs wrote to it): data, metadata % */
    int used;
    double use_data, use_meta;
    /* what lv_create was called with */
    uint64_t c_size;
    unsigned c_stripes;
    uint64_t c_stripe_size;
    char c_tag[64];
    int creates, removes;
} m;

static void
mock_reset(void)
{
    memset(&m, 0, sizeof(m));
    m.vg_exists = 1;
    m.free = 1024 * MIB;
}

static struct mock_lv *
mock_find(const char *lv)
{
    int i;

    for (i = 0; i < m.n; i++)
        if (!strcmp(m.lvs[i].name, lv))
            return &m.lvs[i];
    return NULL;
}

static int
mk_vg_info(const char *vg, struct vdc_lvm_vg_facts *out, char **why)
{
    if (!m.vg_exists || strcmp(vg, "vg0")) {
        *why = g_strdup_printf("Volume group \"%s\" not found", vg);
        return -1;
    }
    out->size = 1024 * MIB;
    out->free = m.free;
    out->extent_size = 4 * MIB;
    out->pv_count = 2;
    return 0;
}

static int
mk_lv_exists(const char *vg, const char *lv, char **why)
{
    return mock_find(lv) != NULL;
}

static int
mk_lv_tags(const char *vg, const char *lv, char ***tags, char **why)
{
    struct mock_lv *l = mock_find(lv);

    if (!l) {
        *why = g_strdup("no such LV");
        return -1;
    }
    *tags = g_strsplit(l->tags, ",", -1);
    return 0;
}

static int
mk_lv_create(const char *vg, const char *lv, uint64_t size, unsigned stripes,
             uint64_t stripe_size, const char *const *tags, char **why)
{
    g_autofree char *tag = g_strjoinv(",", (char **)tags);

    m.creates++;
    if (m.fail_create) {
        *why = g_strdup("Insufficient free space (mock)");
        return -1;
    }
    snprintf(m.lvs[m.n].name, sizeof(m.lvs[m.n].name), "%s", lv);
    snprintf(m.lvs[m.n].tags, sizeof(m.lvs[m.n].tags), "%s", tag);
    m.n++;
    m.c_size = size;
    m.c_stripes = stripes;
    m.c_stripe_size = stripe_size;
    snprintf(m.c_tag, sizeof(m.c_tag), "%s", tag);
    return 0;
}

static int
mk_lv_remove(const char *vg, const char *lv, char **why)
{
    struct mock_lv *l = mock_find(lv);

    m.removes++;
    if (m.fail_remove || !l) {
        *why = g_strdup("remove failed (mock)");
        return -1;
    }
    *l = m.lvs[--m.n];
    return 0;
}

static int
mk_lv_list(const char *vg, char ***lvs, char **why)
{
    GPtrArray *a = g_ptr_array_new();
    int i;

    for (i = 0; i < m.n; i++)
        g_ptr_array_add(a, g_strdup(m.lvs[i].name));
    g_ptr_array_add(a, NULL);
    *lvs = (char **)g_ptr_array_free(a, FALSE);
    return 0;
}

static int
mk_pe_start(const char *vg, uint64_t *out, char **why)
{
    *out = 1 * MIB;
    return 0;
}

static int
mk_pool_create(const char *vg, const char *pool, uint64_t size, uint64_t md_size, uint64_t chunk,
               int zero, const char *const *tags, char **why)
{
    m.pools++;
    if (m.fail_pool) {
        *why = g_strdup("thin_check missing (mock)");
        return -1;
    }
    m.p_size = size;
    m.p_md = md_size;
    m.p_chunk = chunk;
    m.p_zero = zero;
    return mk_lv_create(vg, pool, size, 1, 0, tags, why);
}

static int
mk_thin_create(const char *vg, const char *pool, const char *lv, uint64_t size,
               const char *const *tags, char **why)
{
    m.thins++;
    if (m.fail_thin || !mock_find(pool)) {
        *why = g_strdup("thin create failed (mock)");
        return -1;
    }
    snprintf(m.t_pool, sizeof(m.t_pool), "%s", pool);
    m.t_size = size;
    return mk_lv_create(vg, lv, size, 1, 0, tags, why);
}

static int
mk_thin_facts(const char *vg, const char *pool, vdc_thin_facts *out, char **why)
{
    if (m.fail_facts || !mock_find(pool)) {
        *why = g_strdup("no report (mock)");
        return -1;
    }
    out->chunk_size = m.p_chunk ? m.p_chunk : 64 * 1024;
    out->zero = m.p_zero >= 0 ? m.p_zero : 1;
    out->discards = g_strdup("passdown");
    out->data_percent = m.used ? m.use_data : 0.0;
    out->metadata_percent = m.used ? m.use_meta : 10.5;
    out->pool_size = m.p_size;
    out->metadata_size = m.p_md;
    return 0;
}

static const struct vdc_lvm_backend mock_lvm = {
    .pool_create = mk_pool_create,
    .thin_create = mk_thin_create,
    .thin_facts = mk_thin_facts,
    .vg_info = mk_vg_info,
    .lv_exists = mk_lv_exists,
    .lv_tags = mk_lv_tags,
    .lv_create = mk_lv_create,
    .lv_remove = mk_lv_remove,
    .lv_list = mk_lv_list,
    .pe_start = mk_pe_start,
};

static int
setup_lvm(void **state)
{
    mock_reset();
    vdc_storage_lvm_set_backend(&mock_lvm);
    return 0;
}

static int
teardown_lvm(void **state)
{
    vdc_storage_lvm_set_backend(NULL);
    return 0;
}

static struct vdc_storage_spec
lvm_spec(const char *lv, uint64_t size)
{
    struct vdc_storage_spec s = { 0 };

    s.target.backing = VDC_BACKING_LVM;
    s.name = "lvm";
    s.vg = "vg0";
    s.lv = lv;
    s.size_bytes = size;
    return s;
}

static void
test_lvm_create_destroy(void **state)
{
    struct vdc_storage_spec s = lvm_spec("vdc_scratch", 100 * MIB + 1);
    struct vdc_storage st;
    JsonObject *o;

    vdc_storage_init(&st);
    assert_int_equal(vdc_storage_create(&s, &st), 0);
    assert_int_equal(m.creates, 1);
    assert_string_equal(m.c_tag, VDC_STORAGE_TAG);
    assert_true(m.c_size == 100 * MIB + 1);
    assert_string_equal(st.path, "/dev/vg0/vdc_scratch");
    assert_true(st.size_bytes == 104 * MIB);      /* rounded up to 4 MiB extents */
    assert_true(st.pe_start == 1 * MIB);
    assert_int_equal(st.created, 1);
    o = vdc_storage_describe(&st);
    assert_string_equal(json_object_get_string_member(o, "vg"), "vg0");
    assert_string_equal(json_object_get_string_member(o, "lv"), "vdc_scratch");
    assert_int_equal(json_object_get_int_member(o, "stripes"), 1);
    assert_int_equal(json_object_get_int_member(o, "pe_start"), 1 * MIB);
    json_object_unref(o);
    /* a linear LV has no pool to read again */
    {
        vdc_thin_facts f;

        assert_int_equal(vdc_storage_thin_read(&st, &f), -1);
        assert_true(isnan(f.data_percent));
    }
    assert_int_equal(vdc_storage_destroy(&st), 0);
    assert_int_equal(m.removes, 1);
    assert_int_equal(m.n, 0);
    /* idempotent: a second destroy does nothing */
    assert_int_equal(vdc_storage_destroy(&st), 0);
    assert_int_equal(m.removes, 1);
    vdc_storage_dispose(&st);
    vdc_storage_dispose(&st);
}

static void
test_lvm_refusals(void **state)
{
    struct vdc_storage_spec s;
    struct vdc_storage st;

    vdc_storage_init(&st);
    /* the name exists already */
    snprintf(m.lvs[0].name, sizeof(m.lvs[0].name), "taken");
    m.n = 1;
    s = lvm_spec("taken", 8 * MIB);
    assert_int_equal(vdc_storage_create(&s, &st), -1);
    /* no room: 1020 MiB rounds to 1020, fits; 1021 MiB rounds to 1024 > free */
    m.free = 1020 * MIB;
    s = lvm_spec("big", 1020 * MIB);
    assert_int_equal(vdc_storage_check(&s), 0);
    s = lvm_spec("big", 1021 * MIB);
    assert_int_equal(vdc_storage_check(&s), -1);
    /* VG missing */
    s = lvm_spec("x", 8 * MIB);
    s.vg = "nosuchvg";
    assert_int_equal(vdc_storage_check(&s), -1);
    /* bad names */
    s = lvm_spec("-x", 8 * MIB);
    assert_int_equal(vdc_storage_check(&s), -1);
    s = lvm_spec("a/b", 8 * MIB);
    assert_int_equal(vdc_storage_check(&s), -1);
    s = lvm_spec("snapshot1", 8 * MIB);
    assert_int_equal(vdc_storage_check(&s), -1);
    s = lvm_spec("x_rimage_0", 8 * MIB);
    assert_int_equal(vdc_storage_check(&s), -1);
    s = lvm_spec("", 8 * MIB);
    assert_int_equal(vdc_storage_check(&s), -1);
    /* zero size */
    s = lvm_spec("x", 0);
    assert_int_equal(vdc_storage_check(&s), -1);
    /* stripes: more than PVs, bad stripe size, stripe size without stripes */
    s = lvm_spec("x", 8 * MIB);
    s.stripes = 3;
    assert_int_equal(vdc_storage_check(&s), -1);
    s.stripes = 2;
    s.stripe_size = 3000;
    assert_int_equal(vdc_storage_check(&s), -1);
    s.stripe_size = 2048;
    assert_int_equal(vdc_storage_check(&s), -1);
    s.stripes = 1;
    s.stripe_size = 65536;
    assert_int_equal(vdc_storage_check(&s), -1);
    /* lvcreate itself fails: nothing recorded as created */
    m.fail_create = 1;
    s = lvm_spec("x", 8 * MIB);
    assert_int_equal(vdc_storage_create(&s, &st), -1);
    assert_int_equal(st.created, 0);
    assert_null(st.path);
    /* none of the refusals reached lvcreate except the last */
    assert_int_equal(m.creates, 1);
    vdc_storage_dispose(&st);
}

static void
test_lvm_stripes(void **state)
{
    struct vdc_storage_spec s = lvm_spec("striped", 10 * MIB);
    struct vdc_storage st;

    s.stripes = 2;
    s.stripe_size = 64 * 1024;
    vdc_storage_init(&st);
    assert_int_equal(vdc_storage_create(&s, &st), 0);
    assert_int_equal(m.c_stripes, 2);
    assert_true(m.c_stripe_size == 64 * 1024);
    assert_int_equal(st.stripes, 2);
    assert_true(st.stripe_size == 64 * 1024);
    assert_true(st.size_bytes == 16 * MIB);       /* 2 stripes x 4 MiB extents */
    assert_int_equal(vdc_storage_destroy(&st), 0);
    vdc_storage_dispose(&st);
}

static struct vdc_storage_spec
thin_spec(const char *lv, const char *pool, uint64_t size)
{
    struct vdc_storage_spec s = lvm_spec(lv, size);

    s.thin = 1;
    s.thin_pool = pool;
    s.thin_zero = -1;
    s.run_tag = "vmdiskcmp-run-T";
    return s;
}

/* A thin LV: its pool first (sized to hold all of the LV, metadata of 2 x
 * 64 bytes a chunk, at least 4 MiB), then the LV in it, both tagged with
 * ours and the run's; the pool's facts read back into describe(); destroy
 * removes the LV, then the pool, once. */
static void
test_lvm_thin(void **state)
{
    struct vdc_storage_spec s = thin_spec("vdc-thin", "vdc-thin-pool", 100 * MIB + 1);
    struct vdc_storage st;
    JsonObject *o, *t;
    JsonArray *pct;

    vdc_storage_init(&st);
    assert_int_equal(vdc_storage_create(&s, &st), 0);
    assert_int_equal(m.pools, 1);
    assert_int_equal(m.thins, 1);
    assert_true(m.p_size == 104 * MIB);           /* 100 MiB + 1 in 4 MiB extents */
    assert_true(m.p_md == 4 * MIB);               /* 1664 chunks x 128 bytes: the minimum */
    assert_true(m.p_chunk == 0);                  /* LVM's choice */
    assert_int_equal(m.p_zero, -1);
    assert_true(m.t_size == 100 * MIB + 1);
    assert_string_equal(m.t_pool, "vdc-thin-pool");
    assert_string_equal(m.lvs[0].name, "vdc-thin-pool");
    assert_string_equal(m.lvs[0].tags, VDC_STORAGE_TAG ",vmdiskcmp-run-T");
    assert_string_equal(m.lvs[1].name, "vdc-thin");
    assert_string_equal(m.lvs[1].tags, VDC_STORAGE_TAG ",vmdiskcmp-run-T");
    assert_string_equal(st.path, "/dev/vg0/vdc-thin");
    assert_string_equal(st.thin_pool, "vdc-thin-pool");
    o = vdc_storage_describe(&st);
    assert_string_equal(json_object_get_string_member(o, "lv_type"), "thin");
    t = json_object_get_object_member(o, "thin");
    assert_string_equal(json_object_get_string_member(t, "pool"), "vdc-thin-pool");
    assert_int_equal(json_object_get_int_member(t, "chunk_size"), 64 * 1024);
    assert_true(json_object_get_boolean_member(t, "zeroing"));
    assert_string_equal(json_object_get_string_member(t, "discards"), "passdown");
    assert_string_equal(json_object_get_string_member(t, "source"), "lvs");
    pct = json_object_get_array_member(t, "data_percent");
    assert_int_equal(json_array_get_length(pct), 2);
    assert_true(json_array_get_double_element(pct, 0) == 0.0);
    assert_true(JSON_NODE_HOLDS_NULL(json_array_get_element(pct, 1)));   /* the run reads it */
    pct = json_object_get_array_member(t, "metadata_percent");
    assert_int_equal(json_array_get_length(pct), 2);
    assert_true(json_array_get_double_element(pct, 0) == 10.5);
    assert_true(JSON_NODE_HOLDS_NULL(json_array_get_element(pct, 1)));
    json_object_unref(o);
    /* read again after the runs: the pool's use then, from the backend */
    {
        vdc_thin_facts f;

        m.used = 1;
        m.use_data = 93.75;
        m.use_meta = 11.52;
        assert_int_equal(vdc_storage_thin_read(&st, &f), 0);
        assert_true(f.data_percent == 93.75 && f.metadata_percent == 11.52);
        assert_true(f.chunk_size == 64 * 1024);
        vdc_thin_facts_dispose(&f);
        /* no report: an error, the use unknown, nothing left to free */
        m.fail_facts = 1;
        assert_int_equal(vdc_storage_thin_read(&st, &f), -1);
        assert_true(isnan(f.data_percent) && isnan(f.metadata_percent) && !f.discards);
        m.fail_facts = 0;
    }
    assert_int_equal(vdc_storage_destroy(&st), 0);
    assert_int_equal(m.removes, 2);
    assert_int_equal(m.n, 0);
    assert_int_equal(vdc_storage_destroy(&st), 0);
    assert_int_equal(m.removes, 2);
    vdc_storage_dispose(&st);
}

static void
test_lvm_thin_options_and_failures(void **state)
{
    struct vdc_storage_spec s = thin_spec("t", "t-pool", 1024 * MIB);
    struct vdc_storage st;
    uint64_t pool, md, need;
    JsonObject *o;

    /* 1 GiB in 64 KiB chunks: 16384 x 128 bytes = 2 MiB -> the 4 MiB minimum;
     * in 16 KiB units it would be 8 MiB; the VG gives the metadata twice */
    vdc_thin_pool_size(1024 * MIB, 4 * MIB, 0, &pool, &md, &need);
    assert_true(pool == 1024 * MIB && md == 4 * MIB && need == 1032 * MIB);
    vdc_thin_pool_size(10 * MIB, 4 * MIB, 8 * MIB, &pool, &md, &need);
    assert_true(pool == 16 * MIB && md == 4 * MIB);     /* whole chunks, whole extents */
    /* the pool and its metadata must fit: 1 GiB free holds no 1 GiB thin LV */
    assert_int_equal(vdc_storage_check(&s), -1);
    s = thin_spec("t", "t-pool", 1000 * MIB);
    assert_int_equal(vdc_storage_check(&s), 0);
    /* chunk size and zeroing go to LVM as asked */
    s = thin_spec("t", "t-pool", 64 * MIB);
    s.thin_chunk_size = 256 * 1024;
    s.thin_zero = 0;
    vdc_storage_init(&st);
    assert_int_equal(vdc_storage_create(&s, &st), 0);
    assert_true(m.p_chunk == 256 * 1024);
    assert_int_equal(m.p_zero, 0);
    o = vdc_storage_describe(&st);
    assert_false(json_object_get_boolean_member(json_object_get_object_member(o, "thin"), "zeroing"));
    json_object_unref(o);
    assert_int_equal(vdc_storage_destroy(&st), 0);
    vdc_storage_dispose(&st);
    /* refusals before anything is made */
    m.pools = 0;
    s.thin_chunk_size = 32 * 1024;                      /* under 64 KiB */
    assert_int_equal(vdc_storage_check(&s), -1);
    s.thin_chunk_size = 3 * 64 * 1024;                  /* not a power of two */
    assert_int_equal(vdc_storage_check(&s), -1);
    s = thin_spec("t", "t", 64 * MIB);                  /* pool and LV of one name */
    assert_int_equal(vdc_storage_check(&s), -1);
    s = thin_spec("t", "bad/pool", 64 * MIB);
    assert_int_equal(vdc_storage_check(&s), -1);
    s = thin_spec("t", "t-pool", 64 * MIB);
    s.stripes = 2;
    assert_int_equal(vdc_storage_check(&s), -1);
    snprintf(m.lvs[0].name, sizeof(m.lvs[0].name), "t-pool");   /* the pool's name taken */
    m.n = 1;
    s = thin_spec("t", "t-pool", 64 * MIB);
    assert_int_equal(vdc_storage_check(&s), -1);
    m.n = 0;
    assert_int_equal(m.pools, 0);
    /* the pool cannot be made: nothing made */
    m.fail_pool = 1;
    vdc_storage_init(&st);
    assert_int_equal(vdc_storage_create(&s, &st), -1);
    assert_int_equal(m.n, 0);
    assert_int_equal(st.created, 0);
    /* the thin LV cannot be made: the pool goes again */
    m.fail_pool = 0;
    m.fail_thin = 1;
    assert_int_equal(vdc_storage_create(&s, &st), -1);
    assert_int_equal(m.n, 0);
    assert_int_equal(st.created, 0);
    /* the facts cannot be read: made, facts unknown (null), never assumed */
    m.fail_thin = 0;
    m.fail_facts = 1;
    assert_int_equal(vdc_storage_create(&s, &st), 0);
    o = vdc_storage_describe(&st);
    assert_true(JSON_NODE_HOLDS_NULL(json_object_get_member(json_object_get_object_member(o, "thin"),
                                                            "chunk_size")));
    assert_true(JSON_NODE_HOLDS_NULL(json_object_get_member(json_object_get_object_member(o, "thin"),
                                                            "zeroing")));
    json_object_unref(o);
    /* the pool lost our tag meanwhile: the LV goes, the pool is left alone */
    snprintf(mock_find("t-pool")->tags, sizeof(m.lvs[0].tags), "someone-else");
    assert_int_equal(vdc_storage_destroy(&st), -1);
    assert_null(mock_find("t"));
    assert_non_null(mock_find("t-pool"));
    vdc_storage_dispose(&st);
}

/* An LV carries the vmdiskcmp tag and its run's tag; destroy from a journal
 * that recorded the run tag removes only an LV with that tag: another
 * run's LV of the same name is left alone (ours is gone: success). */
static void
test_lvm_run_tag_mismatch_left_alone(void **state)
{
    struct vdc_storage_spec spec = { .target = { .backing = VDC_BACKING_LVM }, .name = "lvm",
                                     .size_bytes = 64 * MIB, .vg = "vg0", .lv = "vmdiskcmp-R-lvm",
                                     .run_tag = "vmdiskcmp-run-R" };
    struct vdc_storage st;

    vdc_storage_init(&st);
    assert_int_equal(vdc_storage_create(&spec, &st), 0);
    assert_string_equal(m.lvs[0].tags, VDC_STORAGE_TAG ",vmdiskcmp-run-R");
    assert_int_equal(vdc_storage_lvm_has_tag("vg0", "vmdiskcmp-R-lvm", "vmdiskcmp-run-R"), 1);
    assert_int_equal(vdc_storage_lvm_has_tag("vg0", "vmdiskcmp-R-lvm", "vmdiskcmp-run-S"), 0);
    vdc_storage_dispose(&st);
    /* a journal of run S names the same LV: not S's, left alone */
    assert_int_equal(vdc_storage_from_journal(VDC_BACKING_LVM, NULL, "vg0", "vmdiskcmp-R-lvm", &st), 0);
    st.run_tag = g_strdup("vmdiskcmp-run-S");
    assert_int_equal(vdc_storage_destroy(&st), 0);
    assert_int_equal(m.removes, 0);
    assert_int_equal(m.n, 1);
    vdc_storage_dispose(&st);
    /* run R's journal: removed */
    assert_int_equal(vdc_storage_from_journal(VDC_BACKING_LVM, NULL, "vg0", "vmdiskcmp-R-lvm", &st), 0);
    st.run_tag = g_strdup("vmdiskcmp-run-R");
    assert_int_equal(vdc_storage_destroy(&st), 0);
    assert_int_equal(m.removes, 1);
    vdc_storage_dispose(&st);
}

static void
test_lvm_destroy_safety(void **state)
{
    struct vdc_storage st;
    char **tagged;

    /* an LV without our tag (a journal pointing at someone else's LV) */
    snprintf(m.lvs[0].name, sizeof(m.lvs[0].name), "theirs");
    snprintf(m.lvs[0].tags, sizeof(m.lvs[0].tags), "backup,prod");
    snprintf(m.lvs[1].name, sizeof(m.lvs[1].name), "ours");
    snprintf(m.lvs[1].tags, sizeof(m.lvs[1].tags), "x," VDC_STORAGE_TAG);
    m.n = 2;
    assert_int_equal(vdc_storage_from_journal(VDC_BACKING_LVM, NULL, "vg0", "theirs", &st), 0);
    assert_int_equal(vdc_storage_destroy(&st), -1);
    assert_int_equal(m.removes, 0);
    assert_int_equal(m.n, 2);
    vdc_storage_dispose(&st);
    /* cleanup --all lists only ours */
    tagged = vdc_storage_lvm_list_tagged("vg0");
    assert_non_null(tagged);
    assert_int_equal(g_strv_length(tagged), 1);
    assert_string_equal(tagged[0], "ours");
    g_strfreev(tagged);
    /* ours from the journal: removed; gone already: fine */
    assert_int_equal(vdc_storage_from_journal(VDC_BACKING_LVM, NULL, "vg0", "ours", &st), 0);
    assert_int_equal(vdc_storage_destroy(&st), 0);
    assert_int_equal(m.n, 1);
    vdc_storage_dispose(&st);
    assert_int_equal(vdc_storage_from_journal(VDC_BACKING_LVM, NULL, "vg0", "ours", &st), 0);
    assert_int_equal(vdc_storage_destroy(&st), 0);
    assert_int_equal(m.removes, 1);
    vdc_storage_dispose(&st);
    /* lvremove fails: reported, still marked created so a retry can happen */
    snprintf(m.lvs[1].name, sizeof(m.lvs[1].name), "ours2");
    snprintf(m.lvs[1].tags, sizeof(m.lvs[1].tags), VDC_STORAGE_TAG);
    m.n = 2;
    m.fail_remove = 1;
    assert_int_equal(vdc_storage_from_journal(VDC_BACKING_LVM, NULL, "vg0", "ours2", &st), 0);
    assert_int_equal(vdc_storage_destroy(&st), -1);
    assert_int_equal(st.created, 1);
    vdc_storage_dispose(&st);
    /* journal entries with bad names are refused */
    assert_int_equal(vdc_storage_from_journal(VDC_BACKING_LVM, NULL, "vg0", "../x", &st), -1);
    vdc_storage_dispose(&st);
    assert_int_equal(vdc_storage_from_journal(VDC_BACKING_BLOCK, "/dev/sda", NULL, NULL, &st), -1);
    vdc_storage_dispose(&st);
}

/* ---- image kind on real files ---------------------------------------------------- */
static char *
tmpdir(void)
{
    char *d = g_strdup("/tmp/test_storage.XXXXXX");

    assert_non_null(g_mkdtemp(d));
    return d;
}

static struct vdc_storage_spec
image_spec(const char *path, uint64_t size, enum vdc_image_alloc alloc)
{
    struct vdc_storage_spec s = { 0 };

    s.target.backing = VDC_BACKING_IMAGE;
    s.name = "image";
    s.path = path;
    s.size_bytes = size;
    s.target.format = VDC_IMAGE_RAW;
    s.target.alloc = alloc;
    return s;
}

static void
test_image_raw(void **state)
{
    char *d = tmpdir(), *p = g_build_filename(d, "a.img", NULL);
    struct vdc_storage_spec s = image_spec(p, 8 * MIB, VDC_IMAGE_SPARSE);
    struct vdc_storage st, st2;
    struct stat sb;
    JsonObject *o;

    vdc_storage_init(&st);
    vdc_storage_init(&st2);
    assert_int_equal(vdc_storage_create(&s, &st), 0);
    assert_int_equal(stat(p, &sb), 0);
    assert_true((uint64_t)sb.st_size == 8 * MIB);
    assert_true((uint64_t)sb.st_blocks * 512 < 1 * MIB);   /* sparse */
    /* never overwrite: a second create on the same path fails, file intact */
    assert_int_equal(vdc_storage_create(&s, &st2), -1);
    assert_int_equal(st2.created, 0);
    assert_int_equal(stat(p, &sb), 0);
    o = vdc_storage_describe(&st);
    assert_string_equal(json_object_get_string_member(o, "format"), "raw");
    assert_string_equal(json_object_get_string_member(o, "alloc"), "sparse");
    assert_int_equal(json_object_get_int_member(o, "size_bytes"), 8 * MIB);
    json_object_unref(o);
    assert_int_equal(vdc_storage_destroy(&st), 0);
    assert_int_equal(stat(p, &sb), -1);
    assert_int_equal(vdc_storage_destroy(&st), 0);      /* idempotent */
    vdc_storage_dispose(&st);
    vdc_storage_dispose(&st2);

    /* full: every block written */
    s = image_spec(p, 4 * MIB, VDC_IMAGE_FULL);
    assert_int_equal(vdc_storage_create(&s, &st), 0);
    assert_int_equal(stat(p, &sb), 0);
    assert_true((uint64_t)sb.st_blocks * 512 >= 4 * MIB);
    assert_int_equal(vdc_storage_destroy(&st), 0);
    vdc_storage_dispose(&st);
    /* falloc: blocks reserved */
    s = image_spec(p, 4 * MIB, VDC_IMAGE_FALLOC);
    assert_int_equal(vdc_storage_create(&s, &st), 0);
    assert_int_equal(stat(p, &sb), 0);
    assert_true((uint64_t)sb.st_blocks * 512 >= 4 * MIB);
    /* destroy() of a file someone already removed: fine */
    unlink(p);
    assert_int_equal(vdc_storage_destroy(&st), 0);
    vdc_storage_dispose(&st);
    rmdir(d);
    g_free(p);
    g_free(d);
}

static void
test_image_refusals(void **state)
{
    char *d = tmpdir(), *p = g_build_filename(d, "b.img", NULL);
    struct vdc_storage_spec s;

    s = image_spec("relative.img", 8 * MIB, VDC_IMAGE_SPARSE);
    assert_int_equal(vdc_storage_check(&s), -1);
    s = image_spec(p, 1000, VDC_IMAGE_SPARSE);                 /* not 512-aligned */
    assert_int_equal(vdc_storage_check(&s), -1);
    s = image_spec(p, 0, VDC_IMAGE_SPARSE);
    assert_int_equal(vdc_storage_check(&s), -1);
    s = image_spec(p, 1ULL << 60, VDC_IMAGE_SPARSE);           /* no room for 1 EiB */
    assert_int_equal(vdc_storage_check(&s), -1);
    s = image_spec(p, 8 * MIB, VDC_IMAGE_FULL);
    s.target.format = VDC_IMAGE_QCOW2;                         /* qcow2 takes every allocation */
    assert_int_equal(vdc_storage_check(&s), 0);
    s = image_spec(p, 8 * MIB, VDC_IMAGE_METADATA);            /* metadata: qcow2's only */
    assert_int_equal(vdc_storage_check(&s), -1);
    s.target.format = VDC_IMAGE_QCOW2;
    assert_int_equal(vdc_storage_check(&s), 0);
    s.cluster_size = 65536 + 512;                              /* not a power of two */
    assert_int_equal(vdc_storage_check(&s), -1);
    s.cluster_size = 4u << 20;                                 /* over 2 MiB */
    assert_int_equal(vdc_storage_check(&s), -1);
    s.cluster_size = 2u << 20;
    assert_int_equal(vdc_storage_check(&s), 0);
    s = image_spec(p, 8 * MIB, VDC_IMAGE_SPARSE);              /* a cluster size for raw */
    s.cluster_size = 65536;
    assert_int_equal(vdc_storage_check(&s), -1);
    s = image_spec("/nonexistent-dir-vdc/x.img", 8 * MIB, VDC_IMAGE_SPARSE);
    assert_int_equal(vdc_storage_check(&s), -1);
    /* a symlink at the path is "exists" too */
    assert_int_equal(symlink("/etc/passwd", p), 0);
    s = image_spec(p, 8 * MIB, VDC_IMAGE_SPARSE);
    assert_int_equal(vdc_storage_check(&s), -1);
    unlink(p);
    rmdir(d);
    g_free(p);
    g_free(d);
}

/* ---- block kind: refusal paths ------------------------------------------------------ */
static int probe_calls;

static int
probe_ext4(const char *dev, char **what)
{
    probe_calls++;
    *what = g_strdup("ext4");
    return 1;
}

static void
test_block_refusals(void **state)
{
    struct vdc_storage_spec s = { 0 };
    struct vdc_storage st;
    char *d = tmpdir(), *p = g_build_filename(d, "notblock", NULL);

    vdc_storage_block_set_probe(probe_ext4);
    vdc_storage_init(&st);
    s.target.backing = VDC_BACKING_BLOCK;
    s.name = "block";
    s.path = "/dev/null-not-there";
    /* no consent: refused before anything is opened */
    assert_int_equal(vdc_storage_create(&s, &st), -1);
    s.consent = 1;
    assert_int_equal(vdc_storage_create(&s, &st), -1);       /* missing */
    g_file_set_contents(p, "x", 1, NULL);
    s.path = p;
    assert_int_equal(vdc_storage_create(&s, &st), -1);       /* not a block device */
    s.path = "relative";
    assert_int_equal(vdc_storage_check(&s), -1);
    assert_int_equal(probe_calls, 0);
    assert_int_equal(st.created, 0);
    /* destroy never touches a block device */
    st.target.backing = VDC_BACKING_BLOCK;
    st.path = g_strdup("/dev/sda");
    st.created = 1;
    assert_int_equal(vdc_storage_destroy(&st), 0);
    vdc_storage_dispose(&st);
    vdc_storage_block_set_probe(NULL);
    unlink(p);
    rmdir(d);
    g_free(p);
    g_free(d);
}

/* the storage kinds are chosen by the target description's backing (its
 * names: tests/unit/test_target.c) */
static void
test_names(void **state)
{
    assert_null(vdc_storage_ops_get((vdc_backing)3));
    assert_string_equal(vdc_storage_ops_get(VDC_BACKING_IMAGE)->name, "image");
    assert_string_equal(vdc_storage_ops_get(VDC_BACKING_LVM)->name, "lvm");
    assert_string_equal(vdc_storage_ops_get(VDC_BACKING_BLOCK)->name, "block");
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_lvm_create_destroy, setup_lvm, teardown_lvm),
        cmocka_unit_test_setup_teardown(test_lvm_refusals, setup_lvm, teardown_lvm),
        cmocka_unit_test_setup_teardown(test_lvm_stripes, setup_lvm, teardown_lvm),
        cmocka_unit_test_setup_teardown(test_lvm_thin, setup_lvm, teardown_lvm),
        cmocka_unit_test_setup_teardown(test_lvm_thin_options_and_failures, setup_lvm, teardown_lvm),
        cmocka_unit_test_setup_teardown(test_lvm_destroy_safety, setup_lvm, teardown_lvm),
        cmocka_unit_test_setup_teardown(test_lvm_run_tag_mismatch_left_alone, setup_lvm, teardown_lvm),
        cmocka_unit_test(test_image_raw),
        cmocka_unit_test(test_image_refusals),
        cmocka_unit_test(test_block_refusals),
        cmocka_unit_test(test_names),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
