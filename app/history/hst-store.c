/* hst-store.c: opening the history, setting a damaged file aside, and the
 * statements every part shares (hst-store.h). */
#include "hst-store-private.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

G_DEFINE_QUARK (tablero-history-error-quark, hst_store_error)

/* How long a writer waits for another one (the window and tablero-cli at
 * once) before it gives up: a game is written in milliseconds. */
#define BUSY_TIMEOUT_MS 10000

char *
hst_store_default_path (void)
{
  const char *env = g_getenv ("TABLERO_HISTORY");
  if (env != NULL && *env != '\0')
    return g_strdup (env);
  return g_build_filename (g_get_user_data_dir (), "tablero", "history.db", NULL);
}

const char *
hst_put_to_string (HstPut put)
{
  switch (put)
    {
    case HST_PUT_ADDED: return "added";
    case HST_PUT_REPLACED: return "replaced";
    case HST_PUT_KEPT: return "kept";
    }
  return "unknown";
}

gboolean
hst_store_fail (HstStore *store, int rc, const char *doing, GError **error)
{
  int code = HST_STORE_ERROR_FAILED;
  int primary = rc & 0xff;
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
    code = HST_STORE_ERROR_BUSY;
  else if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB)
    code = HST_STORE_ERROR_DAMAGED;
  else if (primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN || primary == SQLITE_FULL
           || primary == SQLITE_READONLY || primary == SQLITE_PERM)
    code = HST_STORE_ERROR_IO;
  const char *why = store->db != NULL && sqlite3_errcode (store->db) == rc ? sqlite3_errmsg (store->db)
                                                                          : sqlite3_errstr (rc);
  /* Translators: the history file, what was being done, SQLite's reason */
  g_set_error (error, HST_STORE_ERROR, code, _ ("%s: %s: %s"), store->path, doing, why);
  return FALSE;
}

void
hst_bind_text (sqlite3_stmt *stmt, int index, const char *text)
{
  if (text == NULL)
    sqlite3_bind_null (stmt, index);
  else
    sqlite3_bind_text (stmt, index, text, -1, SQLITE_TRANSIENT);
}

sqlite3_stmt *
hst_store_statement (HstStore *store, const char *sql, GError **error)
{
  sqlite3_stmt *stmt = g_hash_table_lookup (store->statements, sql);
  if (stmt == NULL)
    {
      int rc = sqlite3_prepare_v3 (store->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt, NULL);
      if (rc != SQLITE_OK)
        {
          hst_store_fail (store, rc, _ ("reading the history"), error);
          return NULL;
        }
      g_hash_table_insert (store->statements, (gpointer) sql, stmt);
    }
  sqlite3_reset (stmt);
  sqlite3_clear_bindings (stmt);
  return stmt;
}

int
hst_store_step (HstStore *store, sqlite3_stmt *stmt)
{
  if (store->kill_at > 0 && store->steps >= 0 && ++store->steps >= store->kill_at)
    kill (getpid (), SIGKILL);
  return sqlite3_step (stmt);
}

gboolean
hst_store_run (HstStore *store, const char *sql, GError **error)
{
  sqlite3_stmt *stmt = hst_store_statement (store, sql, error);
  if (stmt == NULL)
    return FALSE;
  int rc = hst_store_step (store, stmt);
  sqlite3_reset (stmt);
  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    return hst_store_fail (store, rc, _ ("writing the history"), error);
  return TRUE;
}

gboolean
hst_store_begin (HstStore *store, GError **error)
{
  return hst_store_run (store, "BEGIN IMMEDIATE", error);
}

gboolean
hst_store_commit (HstStore *store, GError **error)
{
  return hst_store_run (store, "COMMIT", error);
}

void
hst_store_rollback (HstStore *store)
{
  if (!sqlite3_get_autocommit (store->db))
    sqlite3_exec (store->db, "ROLLBACK", NULL, NULL, NULL);
}

void
hst_store_free (HstStore *store)
{
  if (store == NULL)
    return;
  g_clear_pointer (&store->statements, g_hash_table_destroy);
  sqlite3_close_v2 (store->db);
  g_free (store->path);
  g_free (store);
}

void
hst_store_set_durable (HstStore *store, gboolean durable)
{
  sqlite3_exec (store->db, durable ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = OFF", NULL, NULL, NULL);
}

const char *
hst_store_path (const HstStore *store)
{
  return store->path;
}

/* One integer a statement (a PRAGMA, a count) gives; -1 with `rc` set
 * when it fails. */
static gint64
query_int (sqlite3 *db, const char *sql, int *rc)
{
  sqlite3_stmt *stmt = NULL;
  gint64 value = -1;
  *rc = sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL);
  if (*rc == SQLITE_OK)
    {
      *rc = sqlite3_step (stmt);
      if (*rc == SQLITE_ROW)
        {
          value = sqlite3_column_int64 (stmt, 0);
          *rc = SQLITE_OK;
        }
    }
  sqlite3_finalize (stmt);
  return value;
}

int
hst_store_schema_version (HstStore *store)
{
  int rc;
  return (int) query_int (store->db, "PRAGMA user_version", &rc);
}

typedef enum { FILE_OURS, FILE_DAMAGED, FILE_FAILED } FileCheck;

/* Whether the file is a Tablero history in good order (or a new empty
 * one).  FILE_DAMAGED with `why` for a file to set aside; FILE_FAILED with
 * `error` for what setting aside would not mend (busy, newer, I/O). */
static FileCheck
check_file (HstStore *store, char **why, GError **error)
{
  int rc;
  gint64 app = query_int (store->db, "PRAGMA application_id", &rc);
  gint64 version = rc == SQLITE_OK ? query_int (store->db, "PRAGMA user_version", &rc) : -1;
  gint64 objects = rc == SQLITE_OK ? query_int (store->db, "SELECT count(*) FROM sqlite_schema", &rc) : -1;
  if ((rc & 0xff) == SQLITE_NOTADB || (rc & 0xff) == SQLITE_CORRUPT)
    {
      *why = g_strdup (_ ("it is not a database"));
      return FILE_DAMAGED;
    }
  if (rc != SQLITE_OK)
    {
      hst_store_fail (store, rc, _ ("opening the history"), error);
      return FILE_FAILED;
    }
  if (app == 0 && objects == 0 && version == 0)
    return FILE_OURS;   /* new, or empty: made here */
  if (app != HST_APPLICATION_ID)
    {
      *why = g_strdup (_ ("it is another program's database"));
      return FILE_DAMAGED;
    }
  if (version > HST_SCHEMA_VERSION)
    {
      g_set_error (error, HST_STORE_ERROR, HST_STORE_ERROR_NEWER,
                   _ ("%s was written by a newer Tablero (history version %d; this one knows up to %d): "
                      "update Tablero to use it"),
                   store->path, (int) version, HST_SCHEMA_VERSION);
      return FILE_FAILED;
    }
  sqlite3_stmt *stmt = NULL;
  rc = sqlite3_prepare_v2 (store->db, "PRAGMA quick_check(1)", -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_step (stmt);
  g_autofree char *verdict = rc == SQLITE_ROW ? g_strdup ((const char *) sqlite3_column_text (stmt, 0)) : NULL;
  sqlite3_finalize (stmt);
  if ((rc & 0xff) == SQLITE_BUSY)
    {
      hst_store_fail (store, rc, _ ("opening the history"), error);
      return FILE_FAILED;
    }
  if (rc != SQLITE_ROW || g_strcmp0 (verdict, "ok") != 0)
    {
      *why = g_strdup_printf (_ ("it is damaged (%s)"), verdict != NULL ? verdict : sqlite3_errstr (rc));
      return FILE_DAMAGED;
    }
  return FILE_OURS;
}

/* Renames the file (and its write-ahead log) to "PATH.damaged-DATE" so a
 * fresh history can start; *notice says what was moved where. */
static gboolean
set_aside (const char *path, const char *why, char **notice, GError **error)
{
  g_autoptr (GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *aside = g_strdup_printf ("%s.damaged-%s", path, stamp);
  for (int n = 2; g_file_test (aside, G_FILE_TEST_EXISTS); n++)
    {
      g_free (aside);
      aside = g_strdup_printf ("%s.damaged-%s-%d", path, stamp, n);
    }
  if (g_rename (path, aside) != 0)
    {
      int saved = errno;
      g_set_error (error, HST_STORE_ERROR, HST_STORE_ERROR_IO, _ ("%s cannot be set aside (%s): %s"), path,
                   why, g_strerror (saved));
      return FALSE;
    }
  g_autofree char *wal = g_strconcat (path, "-wal", NULL);
  g_autofree char *wal_aside = g_strconcat (aside, "-wal", NULL);
  g_autofree char *shm = g_strconcat (path, "-shm", NULL);
  if (g_file_test (wal, G_FILE_TEST_EXISTS))
    g_rename (wal, wal_aside);
  g_unlink (shm);
  if (notice != NULL)
    {
      g_free (*notice);
      *notice = g_strdup_printf (_ ("The game history %s could not be used (%s): it was moved to %s and a new "
                                    "history starts"),
                                 path, why, aside);
    }
  return TRUE;
}

static void
finalize_statement (gpointer stmt)
{
  sqlite3_finalize (stmt);
}

static HstStore *
connect_file (const char *path, GError **error)
{
  HstStore *store = g_new0 (HstStore, 1);
  store->path = g_strdup (path);
  store->statements = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL,
                                             finalize_statement);
  const char *kill_at = g_getenv ("TABLERO_HISTORY_TEST_KILL_AT");
  store->kill_at = kill_at != NULL ? strtol (kill_at, NULL, 10) : 0;
  store->steps = -1;
  int rc = sqlite3_open_v2 (path, &store->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
  if (rc != SQLITE_OK)
    {
      hst_store_fail (store, rc, _ ("opening the history"), error);
      hst_store_free (store);
      return NULL;
    }
  sqlite3_extended_result_codes (store->db, 1);
  sqlite3_busy_timeout (store->db, BUSY_TIMEOUT_MS);
  return store;
}

/* WAL (readers and one writer at once), foreign keys, and a commit that
 * is on disk before it returns (a power cut loses no finished game). */
static gboolean
configure (HstStore *store, GError **error)
{
  static const char *const pragmas[] = {
    "PRAGMA journal_mode = WAL", "PRAGMA foreign_keys = ON", "PRAGMA synchronous = FULL",
  };
  for (size_t i = 0; i < G_N_ELEMENTS (pragmas); i++)
    {
      int rc = sqlite3_exec (store->db, pragmas[i], NULL, NULL, NULL);
      if (rc != SQLITE_OK)
        return hst_store_fail (store, rc, _ ("opening the history"), error);
    }
  return TRUE;
}

/* Brings the schema to `version` in one transaction; another process
 * doing the same at once finds it done. */
static gboolean
migrate (HstStore *store, int version, GError **error)
{
  if (!hst_store_begin (store, error))
    return FALSE;
  int from = hst_store_schema_version (store);
  if (from < version && !hst_schema_migrate (store->db, from, version, store->path, error))
    {
      hst_store_rollback (store);
      return FALSE;
    }
  return hst_store_commit (store, error);
}

HstStore *
hst_store_open_version (const char *path, int version, char **notice, GError **error)
{
  g_return_val_if_fail (version >= 1 && version <= HST_SCHEMA_VERSION, NULL);
  g_autofree char *file = path != NULL ? g_strdup (path) : hst_store_default_path ();
  if (notice != NULL)
    *notice = NULL;
  g_autofree char *dir = g_path_get_dirname (file);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved = errno;
      g_set_error (error, HST_STORE_ERROR, HST_STORE_ERROR_IO, _ ("cannot make the folder %s: %s"), dir,
                   g_strerror (saved));
      return NULL;
    }
  for (int attempt = 0; attempt < 2; attempt++)
    {
      HstStore *store = connect_file (file, error);
      if (store == NULL)
        return NULL;
      g_autofree char *why = NULL;
      FileCheck check = check_file (store, &why, error);
      if (check == FILE_DAMAGED && attempt == 0)
        {
          hst_store_free (store);
          if (!set_aside (file, why, notice, error))
            return NULL;
          continue;
        }
      if (check == FILE_DAMAGED)
        g_set_error (error, HST_STORE_ERROR, HST_STORE_ERROR_DAMAGED, "%s: %s", file, why);
      if (check != FILE_OURS || !configure (store, error) || !migrate (store, version, error))
        {
          hst_store_free (store);
          return NULL;
        }
      return store;
    }
  return NULL;
}

HstStore *
hst_store_open (const char *path, char **notice, GError **error)
{
  return hst_store_open_version (path, HST_SCHEMA_VERSION, notice, error);
}
