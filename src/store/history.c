/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp history: series from the store and their steps (history.h). */
#include "config.h"

#include "store/history.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "common/util.h"
#include "store/facts.h"
#include "store/store_priv.h"

void
vdc_history_init(struct vdc_history *h)
{
    memset(h, 0, sizeof(*h));
    h->alpha = VDC_STATS_ALPHA;
}

static void
point_dispose(struct vdc_history_point *p)
{
    g_free(p->sha256);
    g_free(p->run_id);
    g_free(p->date);
    g_free(p->source);
    g_free(p->verdict);
    g_free(p->effect);
    g_free(p->not_comparable);
    g_free(p->rep_target);
    g_free(p->rep_reference);
    if (p->facts)
        g_array_unref(p->facts);
    g_free(p->changes);
    g_free(p->change_groups);
}

void
vdc_history_dispose(struct vdc_history *h)
{
    for (size_t i = 0; i < h->n_series; i++) {
        struct vdc_history_series *s = &h->series[i];

        for (size_t k = 0; k < s->n_points; k++)
            point_dispose(&s->points[k]);
        g_free(s->points);
        g_free(s->host);
        g_free(s->target);
        g_free(s->reference);
        g_free(s->test_key);
        g_free(s->unit);
    }
    g_free(h->series);
    g_free(h->store);
    vdc_history_init(h);
}

struct vdc_history_point *
vdc_history_add_point(struct vdc_history_series *series)
{
    struct vdc_history_point *p;

    series->points = g_renew(struct vdc_history_point, series->points, series->n_points + 1);
    p = &series->points[series->n_points++];
    memset(p, 0, sizeof(*p));
    p->emulated = VDC_BOOL_ABSENT;
    p->ratio = p->lo = p->hi = NAN;
    return p;
}

struct vdc_history_series *
vdc_history_add_series(struct vdc_history *h, const char *host, const char *target, const char *reference,
                       const char *test_key, const char *unit)
{
    struct vdc_history_series *s;

    h->series = g_renew(struct vdc_history_series, h->series, h->n_series + 1);
    s = &h->series[h->n_series++];
    memset(s, 0, sizeof(*s));
    s->host = g_strdup(host ? host : "unknown");
    s->target = g_strdup(target);
    s->reference = g_strdup(reference);
    s->test_key = g_strdup(test_key);
    s->unit = g_strdup(unit);
    return s;
}

int
vdc_history_date_ok(const char *s)
{
    static const char *const shapes[] = {
        "dddd-dd-dd", "dddd-dd-ddTdd:dd", "dddd-dd-ddTdd:dd:dd",
        "dddd-dd-ddZ", "dddd-dd-ddTdd:ddZ", "dddd-dd-ddTdd:dd:ddZ",
    };

    for (size_t i = 0; i < G_N_ELEMENTS(shapes); i++) {
        const char *p = shapes[i], *q = s;
        unsigned y, mo, d, h = 0, mi = 0, sec = 0;

        for (; *p && *q; p++, q++)
            if (*p == 'd' ? !g_ascii_isdigit(*q) : *p != *q)
                break;
        if (*p || *q)
            continue;
        /* the shape fits: the date must exist and the time be one of a day */
        if (sscanf(s, "%4u-%2u-%2u", &y, &mo, &d) != 3 ||
            (s[10] == 'T' && sscanf(s + 11, "%2u:%2u", &h, &mi) != 2))
            return 0;
        if (s[10] == 'T' && s[16] == ':' && sscanf(s + 17, "%2u", &sec) != 1)
            return 0;
        return y >= 1 && g_date_valid_dmy((GDateDay)d, (GDateMonth)mo, (GDateYear)y) && h < 24 && mi < 60 &&
               sec < 60;
    }
    return 0;
}

int
vdc_history_date_bound_len(const char *date)
{
    return (int)strcspn(date, "Z");
}

/* ---- Steps ---------------------------------------------------------------------- */

static int
tested(const char *verdict)
{
    return verdict && (!strcmp(verdict, "faster") || !strcmp(verdict, "slower") ||
                       !strcmp(verdict, "no significant difference"));
}

void
vdc_history_decide(struct vdc_history *h)
{
    for (size_t i = 0; i < h->n_series; i++) {
        struct vdc_history_series *s = &h->series[i];

        for (size_t k = 1; k < s->n_points; k++) {
            struct vdc_history_point *prev = &s->points[k - 1], *p = &s->points[k];
            GArray *empty = vdc_facts_new();

            g_free(p->changes);
            g_free(p->change_groups);
            p->changes = vdc_facts_changes(prev->facts ? prev->facts : empty, p->facts ? p->facts : empty,
                                           s->target, s->reference, &p->change_groups);
            g_array_unref(empty);
            p->verdict_changed = tested(prev->verdict) && tested(p->verdict) && strcmp(prev->verdict, p->verdict);
            vdc_stats_ratio_move(prev->rep_target, prev->rep_reference, prev->n_rep, p->rep_target,
                                 p->rep_reference, p->n_rep, &p->move);
            p->step_not_comparable = prev->not_comparable || p->not_comparable;
            p->move_significant = !p->step_not_comparable && p->move.has_test && p->move.p_value < h->alpha;
        }
    }
}

int
vdc_history_fail_parse(const char *arg, struct vdc_history_fail *f)
{
    if (!strcmp(arg, "verdict")) {
        f->verdict = 1;
        return 0;
    }
    if (g_str_has_prefix(arg, "ratio>")) {
        const char *p = arg + 6;
        char *end = NULL;
        double v = g_ascii_strtod(p, &end);

        if (*p && strspn(p, "0123456789.") && (!*end || !strcmp(end, "%")) && v > 0 && v <= 1000) {
            f->ratio_percent = v;
            return 0;
        }
    }
    vdc_input_error("--fail-if '%s': expected verdict (a verdict changed significantly at the newest "
                    "result) or ratio>P%% (its ratio moved significantly by more than P %%, e.g. ratio>10%%)",
                    arg);
    return -1;
}

char **
vdc_history_failures(const struct vdc_history *h, const struct vdc_history_fail *f)
{
    GPtrArray *out = g_ptr_array_new();

    for (size_t i = 0; i < h->n_series; i++) {
        const struct vdc_history_series *s = &h->series[i];
        const struct vdc_history_point *p, *prev;
        double moved;
        int verdict, ratio;

        if (s->n_points < 2)
            continue;
        p = &s->points[s->n_points - 1];
        prev = &s->points[s->n_points - 2];
        moved = p->move.has_ratio ? p->move.percent : NAN;
        verdict = f->verdict && p->verdict_changed && p->move_significant;
        ratio = f->ratio_percent > 0 && p->move_significant && fabs(moved) > f->ratio_percent;
        if (!verdict && !ratio)
            continue;
        g_ptr_array_add(out, g_strdup_printf(
            "history --fail-if %s: host %s, %s against %s, %s: %s (%.3f) at %s, %s (%.3f) at %s: ratio of "
            "means moved %+.1f %% [%+.1f, %+.1f] (p = %.3g from the two results' repetitions); changed: %s",
            verdict ? "verdict" : "ratio", s->host, s->target, s->reference, s->test_key, prev->verdict,
            prev->ratio, prev->date ? prev->date : "?", p->verdict, p->ratio, p->date ? p->date : "?", moved,
            p->move.ci_percent[0], p->move.ci_percent[1], p->move.p_value, p->changes && *p->changes ? p->changes : "nothing recorded"));
    }
    g_ptr_array_add(out, NULL);
    return (char **)g_ptr_array_free(out, FALSE);
}

/* ---- Reading the store ----------------------------------------------------------- */

static GArray *
load_facts(sqlite3 *db, const char *path, GHashTable *cache, int64_t id)
{
    GArray *f = g_hash_table_lookup(cache, &id);
    sqlite3_stmt *st = NULL;
    int rc;

    if (f)
        return g_array_ref(f);
    f = vdc_facts_new();
    rc = sqlite3_prepare_v2(db, "SELECT name, value FROM facts WHERE result = ?1 ORDER BY name", -1, &st, NULL);
    if (rc == SQLITE_OK)
        sqlite3_bind_int64(st, 1, id);
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        vdc_facts_add(f, vdc_store_col_text(st, 0), vdc_store_col_text(st, 1));
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        vdc_store_sql_error(path, db, rc, "read a result's facts");
        g_array_unref(f);
        return NULL;
    }
    vdc_facts_sort(f);
    g_hash_table_insert(cache, g_memdup2(&id, sizeof(id)), f);
    return g_array_ref(f);
}

static int
load_repetitions(sqlite3 *db, const char *path, struct vdc_history_point *p, const char *target,
                 const char *reference, const char *key)
{
    static const char sql[] =
        "SELECT t.value, b.value FROM samples t JOIN samples b"
        " ON b.result = t.result AND b.repetition = t.repetition AND b.test_key = t.test_key"
        " WHERE t.result = ?1 AND t.target = ?2 AND b.target = ?3 AND t.test_key = ?4"
        " AND t.value > 0 AND b.value > 0 ORDER BY t.repetition";
    GArray *vt = g_array_new(FALSE, FALSE, sizeof(double)), *vb = g_array_new(FALSE, FALSE, sizeof(double));
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, p->result);
        sqlite3_bind_text(st, 2, target, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 3, reference, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 4, key, -1, SQLITE_TRANSIENT);
    }
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        double t = sqlite3_column_double(st, 0), b = sqlite3_column_double(st, 1);

        g_array_append_val(vt, t);
        g_array_append_val(vb, b);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    p->n_rep = vt->len;
    p->rep_target = (double *)g_array_free(vt, FALSE);
    p->rep_reference = (double *)g_array_free(vb, FALSE);
    if (rc != SQLITE_DONE) {
        vdc_store_sql_error(path, db, rc, "read a result's samples");
        return -1;
    }
    return 0;
}

static double
col_real(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

int
vdc_history_load(struct vdc_history *h, vdc_store *s, const struct vdc_history_query *q, double alpha)
{
    static const char sql[] =
        "SELECT r.id, r.sha256, r.run_id, coalesce(r.host, 'unknown'), r.date, r.emulated, r.source,"
        " hl.target, hl.reference, hl.test_key, hl.unit, hl.n_pairs, hl.ratio, hl.ci_lo, hl.ci_hi,"
        " hl.verdict, hl.effect, hl.not_comparable"
        " FROM headline hl JOIN results r ON r.id = hl.result"
        " WHERE hl.role = 'choice'"
        " AND (?1 IS NULL OR r.host = ?1 OR EXISTS (SELECT 1 FROM merges m WHERE m.member = r.id AND m.host = ?1))"
        " AND (?2 IS NULL OR hl.test_key = ?2 OR hl.test_key LIKE ?2 || '@%')"
        " AND (?3 IS NULL OR r.date >= ?3)"
        " ORDER BY coalesce(r.host, 'unknown'), hl.target, hl.reference, hl.test_key, r.date, r.id";
    sqlite3 *db = vdc_store_db(s);
    const char *path = vdc_store_path(s);
    GHashTable *facts = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, (GDestroyNotify)g_array_unref);
    struct vdc_history_series *cur = NULL;
    sqlite3_stmt *st = NULL;
    int64_t n;
    int rc, ret = -1;

    h->store = g_strdup(path);
    h->alpha = alpha;
    rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM results", -1, &st, NULL);
    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        n = sqlite3_column_int64(st, 0);
        h->n_results = (size_t)n;
        rc = SQLITE_DONE;
    }
    sqlite3_finalize(st);
    st = NULL;
    if (rc != SQLITE_DONE) {
        vdc_store_sql_error(path, db, rc, "count the results");
        goto out;
    }
    rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) {
        if (q->host)
            sqlite3_bind_text(st, 1, q->host, -1, SQLITE_TRANSIENT);
        if (q->test)
            sqlite3_bind_text(st, 2, q->test, -1, SQLITE_TRANSIENT);
        if (q->since)
            sqlite3_bind_text(st, 3, q->since, vdc_history_date_bound_len(q->since), SQLITE_TRANSIENT);
    }
    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *host = vdc_store_col_text(st, 3), *target = vdc_store_col_text(st, 7);
        const char *reference = vdc_store_col_text(st, 8), *key = vdc_store_col_text(st, 9);
        struct vdc_history_point *p;

        if (!cur || strcmp(cur->host, host) || strcmp(cur->target, target) || strcmp(cur->reference, reference) ||
            strcmp(cur->test_key, key))
            cur = vdc_history_add_series(h, host, target, reference, key, vdc_store_col_text(st, 10));
        p = vdc_history_add_point(cur);
        p->result = sqlite3_column_int64(st, 0);
        p->sha256 = g_strdup(vdc_store_col_text(st, 1));
        p->run_id = g_strdup(vdc_store_col_text(st, 2));
        p->date = g_strdup(vdc_store_col_text(st, 4));
        p->emulated = sqlite3_column_type(st, 5) == SQLITE_NULL ? VDC_BOOL_ABSENT : sqlite3_column_int(st, 5);
        p->source = g_strdup(vdc_store_col_text(st, 6));
        p->n_pairs = (size_t)sqlite3_column_int64(st, 11);
        p->ratio = col_real(st, 12);
        p->lo = col_real(st, 13);
        p->hi = col_real(st, 14);
        p->verdict = g_strdup(vdc_store_col_text(st, 15));
        p->effect = g_strdup(vdc_store_col_text(st, 16));
        p->not_comparable = g_strdup(vdc_store_col_text(st, 17));
        if (!(p->facts = load_facts(db, path, facts, p->result)) ||
            load_repetitions(db, path, p, target, reference, key) < 0) {
            rc = SQLITE_ERROR;
            goto out;
        }
        rc = SQLITE_OK;
    }
    if (rc != SQLITE_DONE) {
        vdc_store_sql_error(path, db, rc, "read the headline rows");
        goto out;
    }
    vdc_history_decide(h);
    ret = 0;
 out:
    sqlite3_finalize(st);
    g_hash_table_unref(facts);
    return ret;
}
