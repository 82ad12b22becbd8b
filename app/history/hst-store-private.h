/* hst-store-private.h: what the history's own files share. */
#pragma once

#include <sqlite3.h>

#include "hst-store.h"

struct HstStore
{
  sqlite3 *db;
  char *path;
  GHashTable *statements;   /* const char *sql (static) -> sqlite3_stmt* */
  /* test hook (TABLERO_HISTORY_TEST_KILL_AT=N): the process kills itself
   * before the Nth statement of writing a game (BEGIN is the first, COMMIT
   * the last), so the tests can prove that a kill inside the transaction
   * leaves no half game */
  long kill_at;
  long steps;               /* statements of the game being written; -1: not counting */
};

/* The prepared statement for `sql` (a static string: statements are
 * cached by its address), reset with its bindings cleared; NULL with
 * `error`. */
sqlite3_stmt *hst_store_statement (HstStore *store, const char *sql, GError **error);

/* sqlite3_step with the kill hook counted; the result code. */
int hst_store_step (HstStore *store, sqlite3_stmt *stmt);

/* Sets `error` for SQLite result `rc` on `store`'s connection, naming the
 * file and what was being done (`doing`, translated).  Returns FALSE. */
gboolean hst_store_fail (HstStore *store, int rc, const char *doing, GError **error);

/* Binds text (NULL binds NULL) as a copy. */
void hst_bind_text (sqlite3_stmt *stmt, int index, const char *text);

/* Runs one statement with no result rows; FALSE with `error`. */
gboolean hst_store_run (HstStore *store, const char *sql, GError **error);

/* BEGIN IMMEDIATE / COMMIT / ROLLBACK. */
gboolean hst_store_begin (HstStore *store, GError **error);
gboolean hst_store_commit (HstStore *store, GError **error);
void hst_store_rollback (HstStore *store);

/* The id the one-column query `sql` gives for `key` (bound to ?1): 0
 * when it gives none, -1 with `error`. */
gint64 hst_store_id_of (HstStore *store, const char *sql, const char *key, GError **error);

/* The id of the player named exactly `name`; 0 with `error`
 * (HST_STORE_ERROR_NOT_FOUND when nobody is). */
gint64 hst_store_player_id (HstStore *store, const char *name, GError **error);

/* Reads the seats of game `game->id` into `game`. */
gboolean hst_store_read_seats (HstStore *store, HstGame *game, GError **error);

/* The schema (hst-schema.c): creates or migrates `db` from its
 * user_version to `version` inside the caller's transaction. */
gboolean hst_schema_migrate (sqlite3 *db, int from, int to, const char *path, GError **error);

/* The application_id every Tablero history carries ('TBLR'). */
#define HST_APPLICATION_ID 0x54424c52
