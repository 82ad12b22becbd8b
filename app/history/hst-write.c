/* hst-write.c: writing a game, a refusal on the table, forgetting
 * (hst-store.h).  Each write is one IMMEDIATE transaction of prepared
 * statements: a kill between any two leaves the history as it was. */
#include <glib/gi18n-lib.h>
#include <string.h>

#include "hst-store-private.h"

/* Live refusals of games nobody came back to are dropped after this long. */
#define LIVE_REFUSALS_KEPT_S (90 * 24 * 3600)

/* Steps a statement that returns no rows; FALSE with `error`. */
static gboolean
done (HstStore *store, sqlite3_stmt *stmt, GError **error)
{
  int rc = hst_store_step (store, stmt);
  sqlite3_reset (stmt);
  if (rc != SQLITE_DONE)
    return hst_store_fail (store, rc, _ ("writing the history"), error);
  return TRUE;
}

/* The id of the player named `name`, added when new; 0 with `error`. */
static gint64
player_id (HstStore *store, const char *name, gint64 now, GError **error)
{
  sqlite3_stmt *add = hst_store_statement (
    store, "INSERT INTO players (name, created) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING", error);
  if (add == NULL)
    return 0;
  hst_bind_text (add, 1, name);
  sqlite3_bind_int64 (add, 2, now);
  if (!done (store, add, error))
    return 0;
  sqlite3_stmt *find = hst_store_statement (store, "SELECT id FROM players WHERE name = ?1", error);
  if (find == NULL)
    return 0;
  hst_bind_text (find, 1, name);
  int rc = hst_store_step (store, find);
  gint64 id = rc == SQLITE_ROW ? sqlite3_column_int64 (find, 0) : 0;
  sqlite3_reset (find);
  if (id == 0)
    hst_store_fail (store, rc, _ ("writing the history"), error);
  return id;
}

/* What the history holds under game->uid: *id (0 none), finished and
 * moves.  FALSE with `error`. */
static gboolean
stored_as (HstStore *store, const HstGame *game, gint64 *id, gboolean *finished, guint *moves,
           gint64 *ended, GError **error)
{
  sqlite3_stmt *stmt = hst_store_statement (store, "SELECT id, finished, moves, ended FROM games WHERE uid = ?1",
                                            error);
  if (stmt == NULL)
    return FALSE;
  hst_bind_text (stmt, 1, game->uid);
  int rc = hst_store_step (store, stmt);
  *id = 0;
  if (rc == SQLITE_ROW)
    {
      *id = sqlite3_column_int64 (stmt, 0);
      *finished = sqlite3_column_int (stmt, 1) != 0;
      *moves = (guint) sqlite3_column_int64 (stmt, 2);
      *ended = sqlite3_column_int64 (stmt, 3);
    }
  sqlite3_reset (stmt);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return hst_store_fail (store, rc, _ ("reading the history"), error);
  return TRUE;
}

static gboolean
insert_game_row (HstStore *store, HstGame *game, gint64 id, GError **error)
{
  sqlite3_stmt *stmt = hst_store_statement (
    store,
    "INSERT INTO games (id, uid, game, started, ended, finished, scored, moves, tiebreak, record)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    error);
  if (stmt == NULL)
    return FALSE;
  if (id > 0)
    sqlite3_bind_int64 (stmt, 1, id);
  hst_bind_text (stmt, 2, game->uid);
  hst_bind_text (stmt, 3, game->game);
  sqlite3_bind_int64 (stmt, 4, game->started);
  sqlite3_bind_int64 (stmt, 5, game->ended);
  sqlite3_bind_int (stmt, 6, game->finished);
  sqlite3_bind_int (stmt, 7, game->scored);
  sqlite3_bind_int64 (stmt, 8, game->n_moves);
  hst_bind_text (stmt, 9, game->tiebreak != NULL ? game->tiebreak : "");
  hst_bind_text (stmt, 10, game->record != NULL ? game->record : "");
  if (!done (store, stmt, error))
    return FALSE;
  game->id = sqlite3_last_insert_rowid (store->db);
  return TRUE;
}

static gboolean
insert_options (HstStore *store, const HstGame *game, GError **error)
{
  for (size_t i = 0; i < game->options.n; i++)
    {
      sqlite3_stmt *stmt = hst_store_statement (
        store, "INSERT OR REPLACE INTO game_options (game_id, name, value) VALUES (?1, ?2, ?3)", error);
      if (stmt == NULL)
        return FALSE;
      sqlite3_bind_int64 (stmt, 1, game->id);
      hst_bind_text (stmt, 2, game->options.items[i].name);
      hst_bind_text (stmt, 3, game->options.items[i].value);
      if (!done (store, stmt, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
insert_seats (HstStore *store, const HstGame *game, gint64 now, GError **error)
{
  for (guint p = 0; p < game->n_seats; p++)
    {
      const HstSeat *s = &game->seats[p];
      gint64 who = player_id (store, s->name, now, error);
      if (who == 0)
        return FALSE;
      sqlite3_stmt *stmt = hst_store_statement (
        store,
        "INSERT INTO seats (game_id, position, player_id, marker, first, score, won)"
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        error);
      if (stmt == NULL)
        return FALSE;
      sqlite3_bind_int64 (stmt, 1, game->id);
      sqlite3_bind_int (stmt, 2, (int) p);
      sqlite3_bind_int64 (stmt, 3, who);
      sqlite3_bind_int (stmt, 4, (int) s->marker);
      sqlite3_bind_int (stmt, 5, s->first);
      sqlite3_bind_int (stmt, 6, s->score);
      sqlite3_bind_int (stmt, 7, s->won);
      if (!done (store, stmt, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
insert_scores (HstStore *store, const HstGame *game, GError **error)
{
  for (guint c = 0; c < game->checkpoints->len; c++)
    {
      const HstCheckpoint *cp = &g_array_index (game->checkpoints, HstCheckpoint, c);
      for (guint p = 0; p < game->n_seats; p++)
        {
          sqlite3_stmt *stmt = hst_store_statement (
            store, "INSERT INTO scores (game_id, checkpoint, move, position, score) VALUES (?1, ?2, ?3, ?4, ?5)",
            error);
          if (stmt == NULL)
            return FALSE;
          sqlite3_bind_int64 (stmt, 1, game->id);
          sqlite3_bind_int (stmt, 2, (int) c);
          sqlite3_bind_int64 (stmt, 3, cp->move);
          sqlite3_bind_int (stmt, 4, (int) p);
          sqlite3_bind_int (stmt, 5, cp->scores[p]);
          if (!done (store, stmt, error))
            return FALSE;
        }
    }
  return TRUE;
}

/* The refusals noted while the game was on the table join the game's. */
static gboolean
gather_live_refusals (HstStore *store, HstGame *game, GError **error)
{
  sqlite3_stmt *stmt = hst_store_statement (
    store, "SELECT position, rule, count FROM live_refusals WHERE uid = ?1 ORDER BY position, rule", error);
  if (stmt == NULL)
    return FALSE;
  hst_bind_text (stmt, 1, game->uid);
  int rc;
  while ((rc = hst_store_step (store, stmt)) == SQLITE_ROW)
    {
      int position = sqlite3_column_int (stmt, 0);
      const char *rule = (const char *) sqlite3_column_text (stmt, 1);
      if (position >= -1 && position < (int) game->n_seats && rule != NULL)
        hst_game_add_refusals (game, position, rule, (guint) sqlite3_column_int (stmt, 2));
    }
  sqlite3_reset (stmt);
  if (rc != SQLITE_DONE)
    return hst_store_fail (store, rc, _ ("reading the history"), error);
  return TRUE;
}

static gboolean
insert_refusals (HstStore *store, const HstGame *game, GError **error)
{
  for (guint i = 0; i < game->refusals->len; i++)
    {
      const HstRefusal *r = &g_array_index (game->refusals, HstRefusal, i);
      sqlite3_stmt *stmt = hst_store_statement (
        store, "INSERT INTO refusals (game_id, position, rule, count) VALUES (?1, ?2, ?3, ?4)", error);
      if (stmt == NULL)
        return FALSE;
      sqlite3_bind_int64 (stmt, 1, game->id);
      sqlite3_bind_int (stmt, 2, r->position);
      hst_bind_text (stmt, 3, r->rule);
      sqlite3_bind_int64 (stmt, 4, r->count);
      if (!done (store, stmt, error))
        return FALSE;
    }
  return TRUE;
}

static gboolean
delete_game_row (HstStore *store, gint64 id, GError **error)
{
  sqlite3_stmt *stmt = hst_store_statement (store, "DELETE FROM games WHERE id = ?1", error);
  if (stmt == NULL)
    return FALSE;
  sqlite3_bind_int64 (stmt, 1, id);
  return done (store, stmt, error);
}

/* The body of hst_store_put_game, inside its transaction. */
static gboolean
put_game (HstStore *store, HstGame *game, HstPut *put, GError **error)
{
  gint64 old_id, old_ended = 0;
  gboolean old_finished = FALSE;
  guint old_moves = 0;
  if (!stored_as (store, game, &old_id, &old_finished, &old_moves, &old_ended, error))
    return FALSE;
  /* an earlier copy of the game (a journal read before its game went on)
   * never replaces what the history already knows */
  gboolean same_end = old_finished == game->finished;
  if (old_id != 0 && ((old_finished && !game->finished) || (same_end && game->n_moves < old_moves)
                      || (same_end && old_moves == game->n_moves && old_ended >= game->ended)))
    {
      game->id = old_id;
      *put = HST_PUT_KEPT;
      return TRUE;
    }
  *put = old_id != 0 ? HST_PUT_REPLACED : HST_PUT_ADDED;
  gint64 now = g_get_real_time () / G_USEC_PER_SEC;
  sqlite3_stmt *purge = hst_store_statement (store, "DELETE FROM live_refusals WHERE noted < ?1", error);
  if (purge == NULL)
    return FALSE;
  sqlite3_bind_int64 (purge, 1, now - LIVE_REFUSALS_KEPT_S);
  return done (store, purge, error) && (old_id == 0 || delete_game_row (store, old_id, error))
         && insert_game_row (store, game, old_id, error) && insert_options (store, game, error)
         && insert_seats (store, game, now, error) && insert_scores (store, game, error)
         && gather_live_refusals (store, game, error) && insert_refusals (store, game, error);
}

gboolean
hst_store_put_game (HstStore *store, HstGame *game, HstPut *put, GError **error)
{
  g_return_val_if_fail (store != NULL && game != NULL && game->uid != NULL && game->game != NULL, FALSE);
  HstPut result = HST_PUT_KEPT;
  store->steps = 0;
  gboolean ok = hst_store_begin (store, error) && put_game (store, game, &result, error)
                && hst_store_commit (store, error);
  store->steps = -1;
  if (!ok)
    {
      hst_store_rollback (store);
      return FALSE;
    }
  if (put != NULL)
    *put = result;
  return TRUE;
}

gboolean
hst_store_note_refusal (HstStore *store, const char *uid, int position, const char *rule, GError **error)
{
  g_return_val_if_fail (store != NULL && uid != NULL && rule != NULL, FALSE);
  sqlite3_stmt *stmt = hst_store_statement (
    store,
    "INSERT INTO live_refusals (uid, position, rule, count, noted) VALUES (?1, ?2, ?3, 1, ?4)"
    " ON CONFLICT (uid, position, rule) DO UPDATE SET count = count + 1, noted = excluded.noted",
    error);
  if (stmt == NULL)
    return FALSE;
  hst_bind_text (stmt, 1, uid);
  sqlite3_bind_int (stmt, 2, position < 0 ? -1 : position);
  hst_bind_text (stmt, 3, rule);
  sqlite3_bind_int64 (stmt, 4, g_get_real_time () / G_USEC_PER_SEC);
  return done (store, stmt, error);
}

gboolean
hst_store_forget_game (HstStore *store, gint64 id, HstGame **forgotten, GError **error)
{
  g_autoptr (HstGame) game = hst_store_get_game (store, id, error);
  if (game == NULL)
    return FALSE;
  if (!hst_store_begin (store, error))
    return FALSE;
  sqlite3_stmt *live = hst_store_statement (store, "DELETE FROM live_refusals WHERE uid = ?1", error);
  gboolean ok = live != NULL;
  if (ok)
    hst_bind_text (live, 1, game->uid);
  ok = ok && done (store, live, error) && delete_game_row (store, id, error) && hst_store_commit (store, error);
  if (!ok)
    {
      hst_store_rollback (store);
      return FALSE;
    }
  if (forgotten != NULL)
    *forgotten = g_steal_pointer (&game);
  return TRUE;
}

/* The body of hst_store_forget_player, inside its transaction. */
static gboolean
forget_player (HstStore *store, const char *name, guint *n_games, GError **error)
{
  gint64 id = hst_store_player_id (store, name, error);
  if (id == 0)
    return FALSE;
  sqlite3_stmt *drop_games = hst_store_statement (
    store, "DELETE FROM games WHERE id IN (SELECT game_id FROM seats WHERE player_id = ?1)", error);
  if (drop_games == NULL)
    return FALSE;
  sqlite3_bind_int64 (drop_games, 1, id);
  if (!done (store, drop_games, error))
    return FALSE;
  if (n_games != NULL)
    *n_games = (guint) sqlite3_changes (store->db);
  sqlite3_stmt *drop_player = hst_store_statement (store, "DELETE FROM players WHERE id = ?1", error);
  if (drop_player == NULL)
    return FALSE;
  sqlite3_bind_int64 (drop_player, 1, id);
  return done (store, drop_player, error);
}

gboolean
hst_store_forget_player (HstStore *store, const char *name, guint *n_games, GError **error)
{
  g_return_val_if_fail (store != NULL && name != NULL, FALSE);
  if (!hst_store_begin (store, error))
    return FALSE;
  if (!forget_player (store, name, n_games, error) || !hst_store_commit (store, error))
    {
      hst_store_rollback (store);
      return FALSE;
    }
  return TRUE;
}
