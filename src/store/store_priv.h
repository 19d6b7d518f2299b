/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal to src/store: the helpers its files share (SQLite messages,
 * statement shortcuts) and the facts a result is recorded with. */
#ifndef VDC_STORE_STORE_PRIV_H
#define VDC_STORE_STORE_PRIV_H

#include <glib.h>
#include <sqlite3.h>

#include "model/result.h"
#include "store/store.h"

/* One message for SQLite result @rc of @what on store @path (a damaged
 * file: bad input; anything else: runtime). */
void vdc_store_sql_error(const char *path, sqlite3 *db, int rc, const char *what);

/* sqlite3_exec of @sql; 0, or -1 after one message naming @what. */
int vdc_store_exec(vdc_store *s, const char *sql, const char *what);

/* Column @i of the current row as text (NULL for SQL NULL; valid until the
 * next step). */
const char *vdc_store_col_text(sqlite3_stmt *st, int i);

#endif
