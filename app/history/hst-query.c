/* hst-query.c: reading games back (hst-store.h). */
#include <glib/gi18n-lib.h>
#include <string.h>

#include "hst-store-private.h"

static const char *
column_text (sqlite3_stmt *stmt, int column)
{
  const char *text = (const char *) sqlite3_column_text (stmt, column);
  return text != NULL ? text : "";
}

/* An HstGame from a row of "SELECT id, uid, game, started, ended,
 * finished, scored, moves, tiebreak ...". */
static HstGame *
game_from_row (sqlite3_stmt *stmt)
{
  HstGame *game = hst_game_new ();
  game->id = sqlite3_column_int64 (stmt, 0);
  game->uid = g_strdup (column_text (stmt, 1));
  game->game = g_strdup (column_text (stmt, 2));
  game->started = sqlite3_column_int64 (stmt, 3);
  game->ended = sqlite3_column_int64 (stmt, 4);
  game->finished = sqlite3_column_int (stmt, 5) != 0;
  game->scored = sqlite3_column_int (stmt, 6) != 0;
  game->n_moves = (guint) sqlite3_column_int64 (stmt, 7);
  g_free (game->tiebreak);
  game->tiebreak = g_strdup (column_text (stmt, 8));
  return game;
}

gboolean
hst_store_read_seats (HstStore *store, HstGame *game, GError **error)
{
  sqlite3_stmt *stmt = hst_store_statement (
    store,
    "SELECT s.position, p.name, s.marker, s.first, s.score, s.won FROM seats s"
    " JOIN players p ON p.id = s.player_id WHERE s.game_id = ?1 ORDER BY s.position",
    error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, game->id);
  int rc;
  game->n_seats = 0;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW && game->n_seats < ENG_MAX_PLAYERS)
    {
      HstSeat *s = &game->seats[game->n_seats++];
      g_strlcpy (s->name, column_text (stmt, 1), sizeof s->name);
      s->marker = (guint) sqlite3_column_int (stmt, 2);
      s->first = sqlite3_column_int (stmt, 3) != 0;
      s->score = sqlite3_column_int (stmt, 4);
      s->won = sqlite3_column_int (stmt, 5) != 0;
    }
  sqlite3_reset (stmt);
  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    return hst_store_fail (store, rc, _ ("reading the history"), error);
  return TRUE;
}

/* Binds the filter to ?1-?4 of the list statements. */
static void
bind_filter (sqlite3_stmt *stmt, const HstFilter *filter)
{
  hst_bind_text (stmt, 1, filter->game);
  hst_bind_text (stmt, 2, filter->player);
  if (filter->since > 0)
    sqlite3_bind_int64 (stmt, 3, filter->since);
  if (filter->until > 0)
    sqlite3_bind_int64 (stmt, 4, filter->until);
}

#define LIST_WHERE                                                                                 \
  " WHERE (?1 IS NULL OR g.game = ?1)"                                                             \
  " AND (?2 IS NULL OR g.id IN (SELECT s.game_id FROM seats s JOIN players p ON p.id = s.player_id" \
  " WHERE p.name = ?2))"                                                                           \
  " AND (?3 IS NULL OR g.ended >= ?3) AND (?4 IS NULL OR g.ended < ?4)"

static gboolean
count_games (HstStore *store, const HstFilter *filter, guint *total, GError **error)
{
  sqlite3_stmt *stmt = hst_store_statement (store, "SELECT count(*) FROM games g" LIST_WHERE, error);
  if (stmt == NULL)
    return FALSE;
  bind_filter (stmt, filter);
  int rc = sqlite3_step (stmt);
  *total = rc == SQLITE_ROW ? (guint) sqlite3_column_int64 (stmt, 0) : 0;
  sqlite3_reset (stmt);
  if (rc != SQLITE_ROW)
    return hst_store_fail (store, rc, _ ("reading the history"), error);
  return TRUE;
}

GPtrArray *
hst_store_list (HstStore *store, const HstFilter *filter, guint *total, GError **error)
{
  HstFilter none = { 0 };
  if (filter == NULL)
    filter = &none;
  if (total != NULL && !count_games (store, filter, total, error))
    return NULL;
  sqlite3_stmt *stmt = hst_store_statement (
    store,
    "SELECT g.id, g.uid, g.game, g.started, g.ended, g.finished, g.scored, g.moves, g.tiebreak"
    " FROM games g" LIST_WHERE " ORDER BY g.ended DESC, g.id DESC LIMIT ?5 OFFSET ?6",
    error);
  if (stmt == NULL)
    return NULL;
  bind_filter (stmt, filter);
  sqlite3_bind_int64 (stmt, 5, filter->limit > 0 ? (gint64) filter->limit : -1);
  sqlite3_bind_int64 (stmt, 6, filter->offset);
  GPtrArray *games = g_ptr_array_new_with_free_func ((GDestroyNotify) hst_game_free);
  int rc;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (games, game_from_row (stmt));
  sqlite3_reset (stmt);
  if (rc != SQLITE_DONE)
    {
      g_ptr_array_unref (games);
      hst_store_fail (store, rc, _ ("reading the history"), error);
      return NULL;
    }
  for (guint i = 0; i < games->len; i++)
    if (!hst_store_read_seats (store, games->pdata[i], error))
      {
        g_ptr_array_unref (games);
        return NULL;
      }
  return games;
}

static gboolean
read_options (HstStore *store, HstGame *game, GError **error)
{
  sqlite3_stmt *stmt = hst_store_statement (store, "SELECT name, value FROM game_options WHERE game_id = ?1"
                                                   " ORDER BY rowid", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, game->id);
  int rc;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    eng_options_set (&game->options, column_text (stmt, 0), column_text (stmt, 1));
  sqlite3_reset (stmt);
  return rc == SQLITE_DONE || hst_store_fail (store, rc, _ ("reading the history"), error);
}

static gboolean
read_scores (HstStore *store, HstGame *game, GError **error)
{
  sqlite3_stmt *stmt = hst_store_statement (
    store, "SELECT checkpoint, move, position, score FROM scores WHERE game_id = ?1 ORDER BY checkpoint, position",
    error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, game->id);
  int rc, last = -1;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      int checkpoint = sqlite3_column_int (stmt, 0);
      int position = sqlite3_column_int (stmt, 2);
      if (checkpoint != last)
        {
          HstCheckpoint cp = { .move = (guint) sqlite3_column_int64 (stmt, 1) };
          g_array_append_val (game->checkpoints, cp);
          last = checkpoint;
        }
      if (position >= 0 && position < ENG_MAX_PLAYERS)
        g_array_index (game->checkpoints, HstCheckpoint, game->checkpoints->len - 1).scores[position]
          = sqlite3_column_int (stmt, 3);
    }
  sqlite3_reset (stmt);
  return rc == SQLITE_DONE || hst_store_fail (store, rc, _ ("reading the history"), error);
}

static gboolean
read_refusals (HstStore *store, HstGame *game, GError **error)
{
  sqlite3_stmt *stmt = hst_store_statement (
    store, "SELECT position, rule, count FROM refusals WHERE game_id = ?1 ORDER BY count DESC, position, rule",
    error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, game->id);
  int rc;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    hst_game_add_refusals (game, sqlite3_column_int (stmt, 0), column_text (stmt, 1),
                           (guint) sqlite3_column_int64 (stmt, 2));
  sqlite3_reset (stmt);
  return rc == SQLITE_DONE || hst_store_fail (store, rc, _ ("reading the history"), error);
}

HstGame *
hst_store_get_game (HstStore *store, gint64 id, GError **error)
{
  sqlite3_stmt *stmt = hst_store_statement (
    store,
    "SELECT id, uid, game, started, ended, finished, scored, moves, tiebreak, record FROM games WHERE id = ?1",
    error);
  if (stmt == NULL)
    return NULL;
  sqlite3_bind_int64 (stmt, 1, id);
  int rc = sqlite3_step (stmt);
  g_autoptr (HstGame) game = NULL;
  if (rc == SQLITE_ROW)
    {
      game = game_from_row (stmt);
      game->record = g_strdup (column_text (stmt, 9));
    }
  sqlite3_reset (stmt);
  if (rc == SQLITE_DONE)
    {
      g_set_error (error, HST_STORE_ERROR, HST_STORE_ERROR_NOT_FOUND, _ ("%s: there is no game %lld"),
                   store->path, (long long) id);
      return NULL;
    }
  if (rc != SQLITE_ROW)
    {
      hst_store_fail (store, rc, _ ("reading the history"), error);
      return NULL;
    }
  if (!hst_store_read_seats (store, game, error) || !read_options (store, game, error)
      || !read_scores (store, game, error) || !read_refusals (store, game, error))
    return NULL;
  return g_steal_pointer (&game);
}

gint64
hst_store_id_of (HstStore *store, const char *sql, const char *key, GError **error)
{
  sqlite3_stmt *stmt = hst_store_statement (store, sql, error);
  if (stmt == NULL)
    return -1;
  hst_bind_text (stmt, 1, key);
  int rc = sqlite3_step (stmt);
  gint64 id = rc == SQLITE_ROW ? sqlite3_column_int64 (stmt, 0) : 0;
  sqlite3_reset (stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    {
      hst_store_fail (store, rc, _ ("reading the history"), error);
      return -1;
    }
  return id;
}

gint64
hst_store_find_uid (HstStore *store, const char *uid, GError **error)
{
  return MAX (hst_store_id_of (store, "SELECT id FROM games WHERE uid = ?1", uid, error), 0);
}

/* The first column of every row of `sql`, NULL-terminated. */
static char **
strings (HstStore *store, const char *sql, GError **error)
{
  sqlite3_stmt *stmt = hst_store_statement (store, sql, error);
  if (stmt == NULL)
    return NULL;
  GPtrArray *out = g_ptr_array_new ();
  int rc;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    g_ptr_array_add (out, g_strdup (column_text (stmt, 0)));
  sqlite3_reset (stmt);
  g_ptr_array_add (out, NULL);
  char **result = (char **) g_ptr_array_free (out, FALSE);
  if (rc != SQLITE_DONE)
    {
      g_strfreev (result);
      hst_store_fail (store, rc, _ ("reading the history"), error);
      return NULL;
    }
  return result;
}

char **
hst_store_player_names (HstStore *store, GError **error)
{
  return strings (store, "SELECT name FROM players ORDER BY name", error);
}

char **
hst_store_game_names (HstStore *store, GError **error)
{
  return strings (store, "SELECT DISTINCT game FROM games ORDER BY game", error);
}
