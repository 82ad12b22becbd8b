/* hst-stats.c: a player's record (hst-stats.h). */
#include "hst-stats.h"

#include <glib/gi18n-lib.h>

#include "hst-store-private.h"

static char *
dup_column (sqlite3_stmt *stmt, int column)
{
  const char *text = (const char *) sqlite3_column_text (stmt, column);
  return g_strdup (text != NULL ? text : "");
}

static void
kind_clear (gpointer data)
{
  g_free (((HstKindStats *) data)->game);
}

static void
rival_clear (gpointer data)
{
  g_free (((HstRival *) data)->name);
}

static void
rule_clear (gpointer data)
{
  HstRuleCount *r = data;
  g_free (r->game);
  g_free (r->rule);
}

void
hst_player_stats_free (HstPlayerStats *stats)
{
  if (stats == NULL)
    return;
  g_free (stats->name);
  g_array_unref (stats->kinds);
  g_array_unref (stats->rivals);
  g_array_unref (stats->refusals);
  g_free (stats);
}

double
hst_win_rate (guint won, guint played)
{
  return played > 0 ? 100.0 * won / played : 0.0;
}

/* Steps `stmt` (bound) to its end, handing each row to `row`. */
static gboolean
each_row (HstStore *store, sqlite3_stmt *stmt, void (*row) (sqlite3_stmt *, HstPlayerStats *),
          HstPlayerStats *stats, GError **error)
{
  int rc;
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    row (stmt, stats);
  sqlite3_reset (stmt);
  return rc == SQLITE_DONE || hst_store_fail (store, rc, _ ("reading the history"), error);
}

static void
kind_row (sqlite3_stmt *stmt, HstPlayerStats *stats)
{
  HstKindStats k = {
    .game = dup_column (stmt, 0),
    .played = (guint) sqlite3_column_int64 (stmt, 1),
    .abandoned = (guint) sqlite3_column_int64 (stmt, 2),
    .won = (guint) sqlite3_column_int64 (stmt, 3),
    .scored = sqlite3_column_int (stmt, 4) != 0,
    .average = sqlite3_column_double (stmt, 5),
    .best = sqlite3_column_int (stmt, 6),
  };
  stats->played += k.played;
  stats->abandoned += k.abandoned;
  stats->won += k.won;
  g_array_append_val (stats->kinds, k);
}

static void
rival_row (sqlite3_stmt *stmt, HstPlayerStats *stats)
{
  HstRival r = {
    .name = dup_column (stmt, 0),
    .together = (guint) sqlite3_column_int64 (stmt, 1),
    .won = (guint) sqlite3_column_int64 (stmt, 2),
    .rival_won = (guint) sqlite3_column_int64 (stmt, 3),
  };
  g_array_append_val (stats->rivals, r);
}

static void
rule_row (sqlite3_stmt *stmt, HstPlayerStats *stats)
{
  HstRuleCount r = {
    .game = dup_column (stmt, 0),
    .rule = dup_column (stmt, 1),
    .count = (guint) sqlite3_column_int64 (stmt, 2),
  };
  g_array_append_val (stats->refusals, r);
}

gint64
hst_store_player_id (HstStore *store, const char *name, GError **error)
{
  gint64 id = hst_store_id_of (store, "SELECT id FROM players WHERE name = ?1", name, error);
  if (id == 0)
    g_set_error (error, HST_STORE_ERROR, HST_STORE_ERROR_NOT_FOUND, _ ("%s: nobody is called “%s”"),
                 hst_store_path (store), name);
  return MAX (id, 0);
}

HstPlayerStats *
hst_store_player_stats (HstStore *store, const char *name, guint max_refusals, GError **error)
{
  gint64 id = hst_store_player_id (store, name, error);
  if (id == 0)
    return NULL;
  g_autoptr (HstPlayerStats) stats = g_new0 (HstPlayerStats, 1);
  stats->name = g_strdup (name);
  stats->kinds = g_array_new (FALSE, TRUE, sizeof (HstKindStats));
  g_array_set_clear_func (stats->kinds, kind_clear);
  stats->rivals = g_array_new (FALSE, TRUE, sizeof (HstRival));
  g_array_set_clear_func (stats->rivals, rival_clear);
  stats->refusals = g_array_new (FALSE, TRUE, sizeof (HstRuleCount));
  g_array_set_clear_func (stats->refusals, rule_clear);

  sqlite3_stmt *kinds = hst_store_statement (
    store,
    "SELECT g.game, sum(g.finished), sum(1 - g.finished), sum(s.won * g.finished), max(g.scored),"
    " coalesce(avg(CASE WHEN g.finished AND g.scored THEN s.score END), 0),"
    " coalesce(max(CASE WHEN g.finished AND g.scored THEN s.score END), 0)"
    " FROM seats s JOIN games g ON g.id = s.game_id WHERE s.player_id = ?1"
    " GROUP BY g.game ORDER BY count(*) DESC, g.game",
    error);
  if (kinds == NULL)
    return NULL;
  sqlite3_bind_int64 (kinds, 1, id);
  if (!each_row (store, kinds, kind_row, stats, error))
    return NULL;

  sqlite3_stmt *rivals = hst_store_statement (
    store,
    "SELECT p.name, count(*), sum(mine.won), sum(theirs.won) FROM seats mine"
    " JOIN seats theirs ON theirs.game_id = mine.game_id AND theirs.position <> mine.position"
    " JOIN players p ON p.id = theirs.player_id JOIN games g ON g.id = mine.game_id"
    " WHERE mine.player_id = ?1 AND g.finished GROUP BY theirs.player_id ORDER BY count(*) DESC, p.name",
    error);
  if (rivals == NULL)
    return NULL;
  sqlite3_bind_int64 (rivals, 1, id);
  if (!each_row (store, rivals, rival_row, stats, error))
    return NULL;

  sqlite3_stmt *rules = hst_store_statement (
    store,
    "SELECT g.game, r.rule, sum(r.count) FROM refusals r"
    " JOIN seats s ON s.game_id = r.game_id AND s.position = r.position JOIN games g ON g.id = r.game_id"
    " WHERE s.player_id = ?1 GROUP BY g.game, r.rule ORDER BY sum(r.count) DESC, g.game, r.rule LIMIT ?2",
    error);
  if (rules == NULL)
    return NULL;
  sqlite3_bind_int64 (rules, 1, id);
  sqlite3_bind_int64 (rules, 2, max_refusals > 0 ? (gint64) max_refusals : -1);
  if (!each_row (store, rules, rule_row, stats, error))
    return NULL;
  return g_steal_pointer (&stats);
}
