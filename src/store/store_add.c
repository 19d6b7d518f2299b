/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp result store: recording results (store/store.h). */
#include "config.h"

#include "store/store.h"
#include "store/store_priv.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <glib.h>
#include <sqlite3.h>

#include "common/util.h"
#include "report/analysis.h"
#include "store/facts.h"

/* Statements of one recording, prepared once per transaction. */
enum {
    ST_FIND, ST_RESULT, ST_FACT, ST_TARGET, ST_SAMPLE, ST_HEADLINE, ST_MERGE, ST_COUNT
};

static const char *const st_sql[ST_COUNT] = {
    [ST_FIND] = "SELECT id FROM results WHERE sha256 = ?1",
    [ST_RESULT] = "INSERT INTO results (sha256, kind, run_id, host, date, emulated, producer,"
                  " producer_version, build, format_version, source, added, added_by)"
                  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    [ST_FACT] = "INSERT INTO facts (result, name, value) VALUES (?1, ?2, ?3)",
    [ST_TARGET] = "INSERT INTO targets (result, name, kind, \"where\", backend_type, backend_source,"
                  " physical_device, requested_backend, requested_cache, bypasses_dom0_page_cache,"
                  " cache_source, storage_format, storage_alloc, size_bytes, placement_disk,"
                  " placement_center_bytes)"
                  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
    [ST_SAMPLE] = "INSERT INTO samples (result, target, repetition, test_key, test, unit, value,"
                  " cpu_percent, latency_us, elapsed_s, too_fast, failed, status, date, hostname)"
                  " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
    [ST_HEADLINE] = "INSERT INTO headline (result, role, target, reference, test_key, unit, n_pairs,"
                    " n_dropped, ratio, ci_lo, ci_hi, p_value, p_holm, p_permutation, significant,"
                    " verdict, effect, not_comparable, stop_reason)"
                    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,"
                    " ?17, ?18, ?19)",
    [ST_MERGE] = "INSERT OR IGNORE INTO merges (merge, member, host) VALUES (?1, ?2, ?3)",
};

struct recorder {
    vdc_store *s;
    sqlite3 *db;
    sqlite3_stmt *st[ST_COUNT];
    char *now;
};

static void
bind_text(sqlite3_stmt *st, int i, const char *v)
{
    if (v)
        sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

static void
bind_real(sqlite3_stmt *st, int i, double v)
{
    if (isfinite(v))
        sqlite3_bind_double(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

static void
bind_int(sqlite3_stmt *st, int i, int64_t v)
{
    if (v == VDC_INT_ABSENT)
        sqlite3_bind_null(st, i);
    else
        sqlite3_bind_int64(st, i, v);
}

static void
bind_bool(sqlite3_stmt *st, int i, int v)
{
    bind_int(st, i, v == VDC_BOOL_ABSENT ? VDC_INT_ABSENT : v);
}

/* Step statement @k (bound) to its end and reset it; 0 or -1 */
static int
run_st(struct recorder *r, int k, const char *what)
{
    int rc = sqlite3_step(r->st[k]);

    sqlite3_reset(r->st[k]);
    sqlite3_clear_bindings(r->st[k]);
    if (rc != SQLITE_DONE) {
        vdc_store_sql_error(vdc_store_path(r->s), r->db, rc, what);
        return -1;
    }
    return 0;
}

static const char *
result_host(const struct vdc_store_item *it)
{
    const vdc_result_set *rs = it->rs;

    if (it->host)
        return it->host;
    if (rs->has_experiment && rs->experiment.host.hostname)
        return rs->experiment.host.hostname;
    return rs->n_runs ? rs->runs[0]->meta.hostname : NULL;
}

static const char *
result_date(const vdc_result_set *rs)
{
    if (rs->has_experiment && rs->experiment.date)
        return rs->experiment.date;
    return rs->n_runs ? rs->runs[0]->meta.date : NULL;
}

static int
add_facts(struct recorder *r, int64_t id, const vdc_result_set *rs)
{
    GArray *facts = vdc_facts_of(rs);
    int rc = 0;

    for (guint i = 0; i < facts->len && rc == 0; i++) {
        const struct vdc_fact *f = &g_array_index(facts, struct vdc_fact, i);

        sqlite3_bind_int64(r->st[ST_FACT], 1, id);
        bind_text(r->st[ST_FACT], 2, f->name);
        bind_text(r->st[ST_FACT], 3, f->value);
        rc = run_st(r, ST_FACT, "record a fact");
    }
    g_array_unref(facts);
    return rc;
}

static int
add_targets(struct recorder *r, int64_t id, const vdc_result_set *rs)
{
    for (size_t i = 0; i < rs->n_targets; i++) {
        const vdc_target *t = rs->targets[i];
        sqlite3_stmt *st = r->st[ST_TARGET];

        sqlite3_bind_int64(st, 1, id);
        bind_text(st, 2, t->name);
        bind_text(st, 3, t->kind);
        bind_text(st, 4, t->where);
        bind_text(st, 5, t->backend.type);
        bind_text(st, 6, t->backend.source);
        bind_text(st, 7, t->backend.physical_device);
        bind_text(st, 8, t->requested.image_backend);
        bind_text(st, 9, t->requested.image_cache);
        bind_bool(st, 10, t->cache.bypasses_dom0_page_cache);
        bind_text(st, 11, t->cache.source);
        bind_text(st, 12, t->storage.format);
        bind_text(st, 13, t->storage.alloc);
        bind_int(st, 14, t->storage.size_bytes);
        bind_text(st, 15, t->placement.disk);
        bind_real(st, 16, t->placement.center_bytes);
        if (run_st(r, ST_TARGET, "record a target") < 0)
            return -1;
    }
    return 0;
}

static int
add_samples(struct recorder *r, int64_t id, const vdc_result_set *rs)
{
    for (size_t i = 0; i < rs->n_runs; i++) {
        const vdc_run *run = rs->runs[i];

        for (size_t k = 0; k < run->n_samples; k++) {
            const vdc_sample *s = run->samples[k];
            sqlite3_stmt *st = r->st[ST_SAMPLE];
            g_autofree char *key = vdc_sample_key(s);

            sqlite3_bind_int64(st, 1, id);
            bind_text(st, 2, run->target ? run->target : "");
            sqlite3_bind_int64(st, 3, run->repetition == VDC_INT_ABSENT ? 0 : run->repetition);
            bind_text(st, 4, key);
            bind_text(st, 5, s->test);
            bind_text(st, 6, s->unit);
            bind_real(st, 7, s->value);
            bind_real(st, 8, s->cpu_percent);
            bind_real(st, 9, s->latency_us);
            bind_real(st, 10, s->elapsed_s);
            sqlite3_bind_int(st, 11, s->too_fast ? 1 : 0);
            sqlite3_bind_int(st, 12, s->failed ? 1 : 0);
            bind_text(st, 13, run->status);
            bind_text(st, 14, run->meta.date);
            bind_text(st, 15, run->meta.hostname);
            if (run_st(r, ST_SAMPLE, "record a sample") < 0)
                return -1;
        }
    }
    return 0;
}

/* The headline rows of @rs as `vmdiskcmp report` decides them with its
 * defaults (report/headline.h); nothing for a set without runs. */
static int
add_headline(struct recorder *r, int64_t id, const vdc_result_set *rs)
{
    struct vdc_stats_options opt;
    struct vdc_analysis a;
    char **names = vdc_result_set_target_names(rs);
    int rc = 0;

    if (!names[0]) {
        g_strfreev(names);
        return 0;
    }
    g_strfreev(names);
    vdc_stats_options_init(&opt);
    vdc_analysis_init(&a);
    if (vdc_analysis_build_with(&a, rs, NULL, &opt, NULL) < 0) {
        vdc_analysis_dispose(&a);
        return -1;
    }
    for (size_t p = 0; p < a.headline.n_pairs && rc == 0; p++) {
        const struct vdc_headline_pair *pair = &a.headline.pairs[p];

        for (size_t k = 0; k < pair->n_rows && rc == 0; k++) {
            const struct vdc_headline_row *row = &pair->rows[k];
            const struct vdc_cell *cell = vdc_analysis_cell(&a, pair->target, row->test);
            sqlite3_stmt *st = r->st[ST_HEADLINE];
            g_autofree char *reason = vdc_headline_reason(&a, pair, row);

            sqlite3_bind_int64(st, 1, id);
            bind_text(st, 2, vdc_headline_role_name(pair->role));
            bind_text(st, 3, a.targets[pair->target]);
            bind_text(st, 4, a.targets[pair->reference]);
            bind_text(st, 5, a.tests[row->test]);
            bind_text(st, 6, cell->unit);
            sqlite3_bind_int64(st, 7, (int64_t)row->p.n);
            sqlite3_bind_int64(st, 8, (int64_t)row->n_dropped);
            bind_real(st, 9, row->p.has_ratio ? row->p.ratio : NAN);
            bind_real(st, 10, row->p.has_ci ? row->p.ci_ratio[0] : NAN);
            bind_real(st, 11, row->p.has_ci ? row->p.ci_ratio[1] : NAN);
            bind_real(st, 12, row->p.has_test ? row->p.p_value : NAN);
            bind_real(st, 13, row->p_holm);
            bind_real(st, 14, row->p.p_perm);
            sqlite3_bind_int(st, 15, row->significant ? 1 : 0);
            bind_text(st, 16, vdc_headline_verdict_name(row->verdict));
            bind_text(st, 17, vdc_effect_class_name(row->effect));
            bind_text(st, 18, reason);
            bind_text(st, 19, row->stop ? row->stop->reason : NULL);
            rc = run_st(r, ST_HEADLINE, "record a headline row");
        }
    }
    vdc_analysis_dispose(&a);
    return rc;
}

/* The id of the result with @sha256, 0 when not there, -1 on error */
static int64_t
find_result(struct recorder *r, const char *sha256)
{
    sqlite3_stmt *st = r->st[ST_FIND];
    int64_t id = 0;
    int rc;

    bind_text(st, 1, sha256);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW)
        id = sqlite3_column_int64(st, 0);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        vdc_store_sql_error(vdc_store_path(r->s), r->db, rc, "look a result up");
        return -1;
    }
    return id;
}

/* Record @it unless there; its id into *@id.  1 added, 0 there, -1 error */
static int
add_one(struct recorder *r, const struct vdc_store_item *it, int64_t *id)
{
    const vdc_result_set *rs = it->rs;
    sqlite3_stmt *st = r->st[ST_RESULT];
    g_autofree char *by = g_strdup_printf("vmdiskcmp %s", PACKAGE_VERSION);

    *id = find_result(r, it->sha256);
    if (*id != 0)
        return *id < 0 ? -1 : 0;
    bind_text(st, 1, it->sha256);
    bind_text(st, 2, vdc_store_kind_name(it->kind));
    bind_text(st, 3, rs->has_experiment ? rs->experiment.id : NULL);
    bind_text(st, 4, result_host(it));
    bind_text(st, 5, result_date(rs));
    bind_bool(st, 6, rs->has_experiment ? rs->experiment.emulated : VDC_BOOL_ABSENT);
    bind_text(st, 7, rs->producer_name);
    bind_text(st, 8, rs->producer_version);
    bind_text(st, 9, rs->has_experiment ? rs->experiment.build : NULL);
    sqlite3_bind_int(st, 10, vdc_result_set_format_version(rs));
    bind_text(st, 11, it->source);
    bind_text(st, 12, r->now);
    bind_text(st, 13, by);
    if (run_st(r, ST_RESULT, "record a result") < 0)
        return -1;
    *id = sqlite3_last_insert_rowid(r->db);
    if (add_facts(r, *id, rs) < 0 || add_targets(r, *id, rs) < 0 || add_samples(r, *id, rs) < 0 ||
        add_headline(r, *id, rs) < 0)
        return -1;
    return 1;
}

int
vdc_store_add(vdc_store *s, const struct vdc_store_item *items, size_t n, const struct vdc_store_item *merge,
              size_t *added)
{
    struct recorder r = { .s = s, .db = vdc_store_db(s) };
    g_autoptr(GDateTime) now = g_date_time_new_now_utc();
    int64_t merge_id = 0, *ids = g_new0(int64_t, n + 1);
    size_t n_added = 0;
    sigset_t old;
    int rc = -1;

    if (added)
        *added = 0;
    r.now = g_date_time_format_iso8601(now);
    for (int k = 0; k < ST_COUNT; k++) {
        int e = sqlite3_prepare_v2(r.db, st_sql[k], -1, &r.st[k], NULL);

        if (e != SQLITE_OK) {
            vdc_store_sql_error(vdc_store_path(s), r.db, e, "prepare a statement");
            goto out;
        }
    }
    /* an interrupt waits for the transaction's end (a few ms): never a
     * rollback journal left behind by a half-written transaction */
    vdc_hold_stop_signals(&old);
    if (vdc_store_exec(s, "BEGIN IMMEDIATE", "take the write lock") < 0) {
        sigprocmask(SIG_SETMASK, &old, NULL);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        int a = add_one(&r, &items[i], &ids[i]);

        if (a < 0)
            goto rollback;
        n_added += (size_t)a;
    }
    if (merge) {
        int a = add_one(&r, merge, &merge_id);

        if (a < 0)
            goto rollback;
        n_added += (size_t)a;
        for (size_t i = 0; i < n; i++) {
            sqlite3_bind_int64(r.st[ST_MERGE], 1, merge_id);
            sqlite3_bind_int64(r.st[ST_MERGE], 2, ids[i]);
            bind_text(r.st[ST_MERGE], 3, result_host(&items[i]) ? result_host(&items[i]) : "");
            if (run_st(&r, ST_MERGE, "record a merge's member") < 0)
                goto rollback;
        }
    }
    if (vdc_store_exec(s, "COMMIT", "commit") < 0)
        goto rollback;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (added)
        *added = n_added;
    rc = 0;
    goto out;
 rollback:
    sqlite3_exec(r.db, "ROLLBACK", NULL, NULL, NULL);
    sigprocmask(SIG_SETMASK, &old, NULL);
 out:
    for (int k = 0; k < ST_COUNT; k++)
        sqlite3_finalize(r.st[k]);
    g_free(r.now);
    g_free(ids);
    return rc;
}

/* ---- Loading a result to record ------------------------------------------- */

int
vdc_store_load_result(const char *path, vdc_result_set *rs, char **sha256, int *is_merge)
{
    g_autofree char *file = NULL, *data = NULL, *fleet = NULL;
    struct stat st;
    size_t len;
    vdc_err_kind scope;
    int rc;

    *sha256 = NULL;
    if (is_merge)
        *is_merge = 0;
    if (stat(path, &st) < 0) {
        vdc_input_error("%s: %s: expected a result directory or a result JSON file", path, g_strerror(errno));
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        file = g_build_filename(path, "result.json", NULL);
        fleet = g_build_filename(path, "fleet.json", NULL);
        if (!g_file_test(file, G_FILE_TEST_EXISTS)) {
            vdc_input_error("%s: no result.json in this directory: expected a result directory", path);
            return -1;
        }
        if (is_merge)
            *is_merge = g_file_test(fleet, G_FILE_TEST_IS_REGULAR);
    } else
        file = g_strdup(path);
    scope = vdc_error_scope(VDC_ERR_INPUT);    /* a file we were given: bad input */
    rc = vdc_read_input(file, &data, &len);
    if (rc == 0)
        rc = vdc_result_set_load_data(rs, data, len, file);
    vdc_error_scope(scope);
    if (rc < 0)
        return -1;
    *sha256 = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)data, len);
    return 0;
}

int
vdc_store_record(const char *store_path, const char *dir, enum vdc_store_kind kind)
{
    vdc_result_set rs;
    g_autofree char *sha = NULL, *abs = NULL;
    struct vdc_store_item it = { .kind = kind };
    vdc_store *s = NULL;
    int rc = -1;

    vdc_result_set_init(&rs);
    if (vdc_store_load_result(dir, &rs, &sha, NULL) < 0)
        goto out;
    abs = g_canonicalize_filename(dir, NULL);
    it.rs = &rs;
    it.sha256 = sha;
    it.source = abs;
    s = vdc_store_open(store_path, 1);
    if (s && vdc_store_add(s, &it, 1, NULL, NULL) == 0)
        rc = 0;
 out:
    if (rc < 0)
        vdc_progress("warning: the result was not recorded in the store %s; %s%s is complete "
                     "('vmdiskcmp store add --store %s %s' records it)", store_path, dir,
                     g_file_test(dir, G_FILE_TEST_IS_DIR) ? "/result.json" : "", store_path, dir);
    vdc_store_close(s);
    vdc_result_set_dispose(&rs);
    return rc;
}
