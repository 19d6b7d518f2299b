/* SPDX-License-Identifier: GPL-2.0-or-later */
/* vmdiskcmp result store: opening, creating, refusing and migrating the
 * SQLite file (store/store.h; the schema: doc/store.md). */
#include "config.h"

#include "store/store.h"
#include "store/store_priv.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib.h>
#include <sqlite3.h>

#include "common/util.h"

struct vdc_store {
    sqlite3 *db;
    char *path;
};

/* ---- The schema, one step per version --------------------------------------
 * Step N takes a store of version N - 1 to version N.  A step is never
 * changed once released: a new column or table is a new step. */
static const char schema_v1[] =
    "CREATE TABLE results ("
    "  id INTEGER PRIMARY KEY,"
    "  sha256 TEXT NOT NULL UNIQUE,"
    "  kind TEXT NOT NULL CHECK (kind IN ('run', 'import', 'merge')),"
    "  run_id TEXT, host TEXT, date TEXT, emulated INTEGER,"
    "  producer TEXT, producer_version TEXT, build TEXT, format_version INTEGER,"
    "  source TEXT, added TEXT NOT NULL, added_by TEXT NOT NULL);"
    "CREATE TABLE facts ("
    "  result INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
    "  name TEXT NOT NULL, value TEXT NOT NULL,"
    "  PRIMARY KEY (result, name)) WITHOUT ROWID;"
    "CREATE TABLE targets ("
    "  result INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
    "  name TEXT NOT NULL, kind TEXT, \"where\" TEXT,"
    "  backend_type TEXT, backend_source TEXT, physical_device TEXT,"
    "  requested_backend TEXT, requested_cache TEXT, bypasses_dom0_page_cache INTEGER,"
    "  cache_source TEXT, storage_format TEXT, storage_alloc TEXT, size_bytes INTEGER,"
    "  placement_disk TEXT, placement_center_bytes REAL,"
    "  PRIMARY KEY (result, name)) WITHOUT ROWID;"
    "CREATE TABLE samples ("
    "  result INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
    "  target TEXT NOT NULL, repetition INTEGER NOT NULL, test_key TEXT NOT NULL,"
    "  test TEXT NOT NULL, unit TEXT, value REAL, cpu_percent REAL, latency_us REAL,"
    "  elapsed_s REAL, too_fast INTEGER NOT NULL, failed INTEGER NOT NULL,"
    "  status TEXT, date TEXT, hostname TEXT);"
    "CREATE INDEX samples_by_result ON samples (result, target, test_key, repetition);"
    "CREATE TABLE headline ("
    "  result INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
    "  role TEXT NOT NULL, target TEXT NOT NULL, reference TEXT NOT NULL,"
    "  test_key TEXT NOT NULL, unit TEXT, n_pairs INTEGER, n_dropped INTEGER,"
    "  ratio REAL, ci_lo REAL, ci_hi REAL, p_value REAL, p_holm REAL, p_permutation REAL,"
    "  significant INTEGER, verdict TEXT NOT NULL, effect TEXT, not_comparable TEXT,"
    "  PRIMARY KEY (result, role, target, reference, test_key)) WITHOUT ROWID;"
    "CREATE TABLE merges ("
    "  merge INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
    "  member INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,"
    "  host TEXT NOT NULL,"
    "  PRIMARY KEY (merge, member)) WITHOUT ROWID;";

/* Version 2: the recorded stop reason of each headline row (--runs auto)
 * and the history's lookup by pair. */
static const char schema_v2[] =
    "ALTER TABLE headline ADD COLUMN stop_reason TEXT;"
    "CREATE INDEX headline_by_pair ON headline (target, reference, test_key);";

static const struct {
    int version;
    const char *sql;
} schema_steps[] = {
    { 1, schema_v1 },
    { 2, schema_v2 },
};

G_STATIC_ASSERT(G_N_ELEMENTS(schema_steps) == VDC_STORE_SCHEMA_VERSION);

/* ---- Messages ---------------------------------------------------------------- */

/* One message for SQLite error @rc while doing @what on @path: a damaged
 * or foreign file is bad input (refused), anything else a runtime failure. */
void
vdc_store_sql_error(const char *path, sqlite3 *db, int rc, const char *what)
{
    const char *msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    int prim = rc & 0xff;

    if (prim == SQLITE_CORRUPT || prim == SQLITE_NOTADB)
        vdc_input_error("store %s: %s: %s: refused (a damaged store; result directories rebuild "
                        "it: vmdiskcmp store add --store NEW DIR...)", path, what, msg);
    else if (prim == SQLITE_BUSY || prim == SQLITE_LOCKED)
        vdc_error("store %s: %s: %s (another process held the store for %d s)", path, what, msg,
                  VDC_STORE_BUSY_MS / 1000);
    else
        vdc_error("store %s: %s: %s", path, what, msg);
}

int
vdc_store_exec(vdc_store *s, const char *sql, const char *what)
{
    int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

    if (rc != SQLITE_OK) {
        vdc_store_sql_error(s->path, s->db, rc, what);
        return -1;
    }
    return 0;
}

static int
pragma_int(vdc_store *s, const char *sql, int64_t *out)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);

    if (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        *out = sqlite3_column_int64(st, 0);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    if (rc != SQLITE_OK) {
        vdc_store_sql_error(s->path, s->db, rc, sql);
        return -1;
    }
    return 0;
}

/* ---- What is at the path: the header, before SQLite touches the file -------- */

/* The SQLite header's first bytes (https://www.sqlite.org/fileformat.html). */
#define SQLITE_MAGIC "SQLite format 3"
#define HEADER_APPLICATION_ID 68
#define HEADER_USER_VERSION 60

static uint32_t
be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* 1 when @path exists as a vmdiskcmp store this build can read, 0 when it
 * does not exist; -1 after one vdc_input_error naming why it is refused. */
static int
check_file(const char *path)
{
    unsigned char h[100];
    struct stat st;
    ssize_t n;
    int fd;

    if (stat(path, &st) < 0) {
        if (errno == ENOENT)
            return 0;
        vdc_input_error("store %s: %s: expected a vmdiskcmp store (a SQLite file)", path, g_strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        vdc_input_error("store %s: not a regular file: expected a vmdiskcmp store (a SQLite file)", path);
        return -1;
    }
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        vdc_input_error("store %s: %s: expected a vmdiskcmp store this user can read", path, g_strerror(errno));
        return -1;
    }
    n = read(fd, h, sizeof(h));
    close(fd);
    if (n < (ssize_t)sizeof(h) || memcmp(h, SQLITE_MAGIC, sizeof(SQLITE_MAGIC))) {
        vdc_input_error("store %s: not a SQLite database (%s): refused, vmdiskcmp writes only into a store "
                        "it created", path, n < 0 ? g_strerror(errno) : n < (ssize_t)sizeof(h) ?
                        "shorter than a SQLite header" : "no SQLite header");
        return -1;
    }
    if (be32(h + HEADER_APPLICATION_ID) != VDC_STORE_APPLICATION_ID) {
        vdc_input_error("store %s: a SQLite database of another application (application_id 0x%08x, a "
                        "vmdiskcmp store has 0x%08x): refused", path, be32(h + HEADER_APPLICATION_ID),
                        VDC_STORE_APPLICATION_ID);
        return -1;
    }
    if (be32(h + HEADER_USER_VERSION) > VDC_STORE_SCHEMA_VERSION) {
        vdc_input_error("store %s: schema version %u, written by a newer vmdiskcmp: this one reads up "
                        "to version %d", path, be32(h + HEADER_USER_VERSION), VDC_STORE_SCHEMA_VERSION);
        return -1;
    }
    return 1;
}

int
vdc_store_check_path(const char *path)
{
    int r = check_file(path);
    g_autofree char *dir = NULL;

    if (r != 0)
        return r < 0 ? -1 : 0;
    dir = g_path_get_dirname(path);
    if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
        vdc_input_error("store %s: %s is not a directory: expected the store in an existing directory",
                        path, dir);
        return -1;
    }
    if (access(dir, W_OK | X_OK) < 0) {
        vdc_input_error("store %s: %s: %s: expected the store in a directory this user can write in",
                        path, dir, g_strerror(errno));
        return -1;
    }
    return 0;
}

char *
vdc_store_default_path(const char *result_path)
{
    g_autofree char *trimmed = g_strdup(result_path);
    g_autofree char *dir = NULL;

    for (size_t n = strlen(trimmed); n > 1 && trimmed[n - 1] == '/';)
        trimmed[--n] = '\0';
    dir = g_path_get_dirname(trimmed);
    return g_build_filename(dir, VDC_STORE_FILE, NULL);
}

/* ---- Opening and migrating ------------------------------------------------ */

static vdc_store *
open_db(const char *path, int flags)
{
    vdc_store *s = g_new0(vdc_store, 1);
    int rc;

    s->path = g_strdup(path);
    rc = sqlite3_open_v2(path, &s->db, flags | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) {
        vdc_store_sql_error(path, s->db, rc, "open");
        vdc_store_close(s);
        return NULL;
    }
    sqlite3_extended_result_codes(s->db, 1);
    sqlite3_busy_timeout(s->db, VDC_STORE_BUSY_MS);
    if (vdc_store_exec(s, "PRAGMA foreign_keys = ON", "PRAGMA foreign_keys") < 0) {
        vdc_store_close(s);
        return NULL;
    }
    return s;
}

/* Apply the steps after the store's version up to @upto, each in its own
 * write transaction that reads the version again under the lock (another
 * process may have migrated meanwhile). */
static int
migrate(vdc_store *s, int upto)
{
    for (size_t i = 0; i < G_N_ELEMENTS(schema_steps) && schema_steps[i].version <= upto; i++) {
        g_autofree char *bump = NULL, *what = NULL;
        int64_t v;

        if (pragma_int(s, "PRAGMA user_version", &v) < 0)
            return -1;
        if (v >= schema_steps[i].version)
            continue;
        if (vdc_store_exec(s, "BEGIN IMMEDIATE", "begin the schema migration") < 0)
            return -1;
        if (pragma_int(s, "PRAGMA user_version", &v) < 0) {
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            return -1;
        }
        if (v >= schema_steps[i].version) {
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            continue;
        }
        bump = g_strdup_printf("PRAGMA user_version = %d", schema_steps[i].version);
        what = g_strdup_printf("schema version %d to %d", (int)v, schema_steps[i].version);
        if (vdc_store_exec(s, schema_steps[i].sql, what) < 0 || vdc_store_exec(s, bump, what) < 0 ||
            vdc_store_exec(s, "COMMIT", what) < 0) {
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            return -1;
        }
    }
    return 0;
}

/* PRAGMA quick_check: a damaged store is refused before it is read or
 * written (SQLite finds most damage only when it reads the damaged page). */
static int
quick_check(vdc_store *s)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, "PRAGMA quick_check(1)", -1, &st, NULL);
    const char *res;

    if (rc == SQLITE_OK)
        rc = sqlite3_step(st);
    if (rc != SQLITE_ROW) {
        vdc_store_sql_error(s->path, s->db, rc, "PRAGMA quick_check");
        sqlite3_finalize(st);
        return -1;
    }
    res = (const char *)sqlite3_column_text(st, 0);
    if (!res || strcmp(res, "ok")) {
        vdc_input_error("store %s: damaged (PRAGMA quick_check: %s): refused (result directories rebuild "
                        "it: vmdiskcmp store add --store NEW DIR...)", s->path, res ? res : "no answer");
        sqlite3_finalize(st);
        return -1;
    }
    sqlite3_finalize(st);
    return 0;
}

/* Build a new store at @path: made under a temporary name in the same
 * directory, marked and given the schema up to @upto, then linked to
 * @path, never over anything.  0; 1 when another process made @path
 * first (then it is opened as an existing store); -1 after a message. */
static int
create_store(const char *path, int upto)
{
    g_autofree char *dir = g_path_get_dirname(path);
    g_autofree char *base = g_path_get_basename(path);
    g_autofree char *tmp = g_strdup_printf("%s/.%s.XXXXXX", dir, base);
    g_autofree char *journal = NULL;
    vdc_store *s;
    mode_t mask = umask(0);
    int fd, rc = -1;

    umask(mask);
    fd = g_mkstemp_full(tmp, O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) {
        vdc_error("store %s: cannot create a file in %s: %s", path, dir, g_strerror(errno));
        return -1;
    }
    if (fchmod(fd, 0666 & ~mask) < 0) {
        vdc_error("store %s: %s: %s", path, tmp, g_strerror(errno));
        close(fd);
        unlink(tmp);
        return -1;
    }
    close(fd);
    s = open_db(tmp, SQLITE_OPEN_READWRITE);
    if (s) {
        g_autofree char *mark = g_strdup_printf("PRAGMA application_id = %d", VDC_STORE_APPLICATION_ID);

        if (vdc_store_exec(s, mark, "mark the new store") == 0 && migrate(s, upto) == 0)
            rc = 0;
        vdc_store_close(s);
    }
    if (rc == 0 && link(tmp, path) < 0) {
        if (errno == EEXIST)
            rc = 1;
        else {
            vdc_error("store %s: cannot link %s into place: %s", path, tmp, g_strerror(errno));
            rc = -1;
        }
    }
    unlink(tmp);
    journal = g_strconcat(tmp, "-journal", NULL);
    unlink(journal);
    return rc;
}

static vdc_store *
open_store(const char *path, int create, int upto)
{
    vdc_store *s;
    int r = check_file(path);

    if (r < 0)
        return NULL;
    if (r == 0) {
        if (!create) {
            vdc_input_error("store %s: no such file: expected a vmdiskcmp store (vmdiskcmp store add "
                            "--store %s DIR... makes one)", path, path);
            return NULL;
        }
        if (vdc_store_check_path(path) < 0 || (r = create_store(path, upto)) < 0)
            return NULL;
        if (r == 1 && check_file(path) < 0)    /* someone else's file appeared */
            return NULL;
    }
    s = open_db(path, SQLITE_OPEN_READWRITE);
    if (!s)
        return NULL;
    if (quick_check(s) < 0 || (upto == VDC_STORE_SCHEMA_VERSION && migrate(s, upto) < 0)) {
        vdc_store_close(s);
        return NULL;
    }
    return s;
}

vdc_store *
vdc_store_open(const char *path, int create)
{
    return open_store(path, create, VDC_STORE_SCHEMA_VERSION);
}

vdc_store *
vdc_store_open_version(const char *path, int upto)
{
    if (upto < 1 || upto > VDC_STORE_SCHEMA_VERSION) {
        vdc_input_error("store %s: schema version %d: expected 1 to %d", path, upto, VDC_STORE_SCHEMA_VERSION);
        return NULL;
    }
    return open_store(path, 1, upto);
}

void
vdc_store_close(vdc_store *s)
{
    if (!s)
        return;
    if (s->db)
        sqlite3_close(s->db);
    g_free(s->path);
    g_free(s);
}

int
vdc_store_schema_version(vdc_store *s)
{
    int64_t v = -1;

    return pragma_int(s, "PRAGMA user_version", &v) < 0 ? -1 : (int)v;
}

const char *
vdc_store_path(const vdc_store *s)
{
    return s->path;
}

struct sqlite3 *
vdc_store_db(vdc_store *s)
{
    return s->db;
}

const char *
vdc_store_kind_name(enum vdc_store_kind k)
{
    switch (k) {
    case VDC_STORE_KIND_RUN: return "run";
    case VDC_STORE_KIND_IMPORT: return "import";
    case VDC_STORE_KIND_MERGE: return "merge";
    }
    return "run";
}

/* ---- Listing ------------------------------------------------------------------ */

const char *
vdc_store_col_text(sqlite3_stmt *st, int i)
{
    return (const char *)sqlite3_column_text(st, i);
}

int
vdc_store_list(vdc_store *s, struct vdc_store_entry **out, size_t *n)
{
    static const char sql[] =
        "SELECT r.id, r.sha256, r.kind, r.run_id, r.host, r.date, r.source, r.added, r.emulated,"
        " (SELECT count(*) FROM samples WHERE result = r.id),"
        " (SELECT count(*) FROM headline WHERE result = r.id)"
        " FROM results r ORDER BY r.date, r.id";
    GArray *a = g_array_new(FALSE, TRUE, sizeof(struct vdc_store_entry));
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);

    while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
        struct vdc_store_entry e = {
            .id = sqlite3_column_int64(st, 0),
            .sha256 = g_strdup(vdc_store_col_text(st, 1)),
            .kind = g_strdup(vdc_store_col_text(st, 2)),
            .run_id = g_strdup(vdc_store_col_text(st, 3)),
            .host = g_strdup(vdc_store_col_text(st, 4)),
            .date = g_strdup(vdc_store_col_text(st, 5)),
            .source = g_strdup(vdc_store_col_text(st, 6)),
            .added = g_strdup(vdc_store_col_text(st, 7)),
            .emulated = sqlite3_column_type(st, 8) == SQLITE_NULL ? VDC_BOOL_ABSENT : sqlite3_column_int(st, 8),
            .n_samples = sqlite3_column_int64(st, 9),
            .n_headline = sqlite3_column_int64(st, 10),
        };
        g_array_append_val(a, e);
        rc = SQLITE_OK;
    }
    sqlite3_finalize(st);
    *n = a->len;
    *out = (struct vdc_store_entry *)g_array_free(a, FALSE);
    if (rc != SQLITE_DONE) {
        vdc_store_sql_error(s->path, s->db, rc, "list the results");
        vdc_store_entries_free(*out, *n);
        *out = NULL;
        *n = 0;
        return -1;
    }
    return 0;
}

void
vdc_store_entries_free(struct vdc_store_entry *e, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        g_free(e[i].sha256);
        g_free(e[i].kind);
        g_free(e[i].run_id);
        g_free(e[i].host);
        g_free(e[i].date);
        g_free(e[i].source);
        g_free(e[i].added);
    }
    g_free(e);
}
