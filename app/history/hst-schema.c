/* hst-schema.c: the history's schema, one step per version
 * (docs/history.md, "Schema").  A step is fixed SQL, run once inside the
 * opening transaction; user_version says how far a file has come.  Steps
 * are never edited once shipped: a change is a new step. */
#include <glib/gi18n-lib.h>

#include "hst-store-private.h"

/* Version 1: games, the people who played them, seats, options, the
 * scores over each game, refusals by rule. */
static const char schema_v1[] =
  "CREATE TABLE players ("
  "  id INTEGER PRIMARY KEY,"
  "  name TEXT NOT NULL UNIQUE,"
  "  created INTEGER NOT NULL);"
  "CREATE TABLE games ("
  "  id INTEGER PRIMARY KEY,"
  "  uid TEXT NOT NULL UNIQUE,"
  "  game TEXT NOT NULL,"
  "  started INTEGER NOT NULL,"
  "  ended INTEGER NOT NULL,"
  "  finished INTEGER NOT NULL,"
  "  scored INTEGER NOT NULL,"
  "  moves INTEGER NOT NULL,"
  "  tiebreak TEXT NOT NULL,"
  "  record TEXT NOT NULL);"
  "CREATE TABLE game_options ("
  "  game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,"
  "  name TEXT NOT NULL,"
  "  value TEXT NOT NULL,"
  "  PRIMARY KEY (game_id, name));"
  "CREATE TABLE seats ("
  "  game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,"
  "  position INTEGER NOT NULL,"
  "  player_id INTEGER NOT NULL REFERENCES players (id),"
  "  marker INTEGER NOT NULL,"
  "  first INTEGER NOT NULL,"
  "  score INTEGER NOT NULL,"
  "  won INTEGER NOT NULL,"
  "  PRIMARY KEY (game_id, position));"
  "CREATE TABLE scores ("
  "  game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,"
  "  checkpoint INTEGER NOT NULL,"
  "  move INTEGER NOT NULL,"
  "  position INTEGER NOT NULL,"
  "  score INTEGER NOT NULL,"
  "  PRIMARY KEY (game_id, checkpoint, position));"
  "CREATE TABLE refusals ("
  "  game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,"
  "  position INTEGER NOT NULL,"
  "  rule TEXT NOT NULL,"
  "  count INTEGER NOT NULL,"
  "  PRIMARY KEY (game_id, position, rule));";

/* Version 2: refusals of a game still on the table are kept as they
 * happen (a game resumed after a crash keeps them), and the History
 * page's queries (newest first, a player's games) are indexed. */
static const char schema_v2[] =
  "CREATE TABLE live_refusals ("
  "  uid TEXT NOT NULL,"
  "  position INTEGER NOT NULL,"
  "  rule TEXT NOT NULL,"
  "  count INTEGER NOT NULL,"
  "  noted INTEGER NOT NULL,"
  "  PRIMARY KEY (uid, position, rule));"
  "CREATE INDEX games_by_end ON games (ended DESC, id DESC);"
  "CREATE INDEX games_by_kind ON games (game, ended DESC);"
  "CREATE INDEX seats_by_player ON seats (player_id, game_id);";

static const char *const steps[] = { schema_v1, schema_v2 };
G_STATIC_ASSERT (G_N_ELEMENTS (steps) == HST_SCHEMA_VERSION);

/* PRAGMAs take no bound values: each version's is written out. */
static const char *const mark_version[] = {
  "PRAGMA user_version = 0", "PRAGMA user_version = 1", "PRAGMA user_version = 2",
};
G_STATIC_ASSERT (G_N_ELEMENTS (mark_version) == HST_SCHEMA_VERSION + 1);
/* HST_APPLICATION_ID in decimal */
static const char mark_application[] = "PRAGMA application_id = 1413631058";

gboolean
hst_schema_migrate (sqlite3 *db, int from, int to, const char *path, GError **error)
{
  for (int v = from; v < to; v++)
    {
      char *message = NULL;
      int rc = sqlite3_exec (db, steps[v], NULL, NULL, &message);
      if (rc != SQLITE_OK)
        {
          g_set_error (error, HST_STORE_ERROR, HST_STORE_ERROR_FAILED,
                       _ ("%s: cannot bring the history to version %d: %s"), path, v + 1,
                       message ? message : sqlite3_errstr (rc));
          sqlite3_free (message);
          return FALSE;
        }
    }
  int rc = sqlite3_exec (db, mark_version[to], NULL, NULL, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_exec (db, mark_application, NULL, NULL, NULL);
  if (rc != SQLITE_OK)
    {
      g_set_error (error, HST_STORE_ERROR, HST_STORE_ERROR_FAILED, _ ("%s: cannot mark the history's version: %s"),
                   path, sqlite3_errmsg (db));
      return FALSE;
    }
  return TRUE;
}
