/* hst-export.c: the history as CSV and as a BG Stats-style play list
 * (hst-io.h). */
#include "hst-io.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "hst-json.h"

/* The full games `filter` selects, newest first. */
static GPtrArray *
full_games (HstStore *store, const HstFilter *filter, GError **error)
{
  g_autoptr (GPtrArray) listed = hst_store_list (store, filter, NULL, error);
  if (listed == NULL)
    return NULL;
  GPtrArray *games = g_ptr_array_new_with_free_func ((GDestroyNotify) hst_game_free);
  for (guint i = 0; i < listed->len; i++)
    {
      HstGame *game = hst_store_get_game (store, ((HstGame *) listed->pdata[i])->id, error);
      if (game == NULL)
        {
          g_ptr_array_unref (games);
          return NULL;
        }
      g_ptr_array_add (games, game);
    }
  return games;
}

/* ---- CSV --------------------------------------------------------------- */

/* A CSV field: quoted when it holds a comma, a quote or a line break. */
static void
csv_field (GString *out, const char *text, gboolean last)
{
  if (strpbrk (text, ",\"\r\n") != NULL)
    {
      g_string_append_c (out, '"');
      for (const char *c = text; *c; c++)
        {
          if (*c == '"')
            g_string_append_c (out, '"');
          g_string_append_c (out, *c);
        }
      g_string_append_c (out, '"');
    }
  else
    g_string_append (out, text);
  g_string_append (out, last ? "\r\n" : ",");
}

char *
hst_export_csv (HstStore *store, const HstFilter *filter, GError **error)
{
  g_autoptr (GPtrArray) games = hst_store_list (store, filter, NULL, error);
  if (games == NULL)
    return NULL;
  GString *out = g_string_new ("uid,game,title,started,ended,finished,moves,seat,player,marker,first,score,won\r\n");
  for (guint i = 0; i < games->len; i++)
    {
      const HstGame *g = games->pdata[i];
      g_autofree char *started = hst_format_utc (g->started);
      g_autofree char *ended = hst_format_utc (g->ended);
      g_autofree char *moves = g_strdup_printf ("%u", g->n_moves);
      for (guint p = 0; p < g->n_seats; p++)
        {
          const HstSeat *s = &g->seats[p];
          g_autofree char *seat = g_strdup_printf ("%u", p + 1);
          g_autofree char *marker = g_strdup_printf ("%u", s->marker);
          g_autofree char *score = g_strdup_printf ("%d", s->score);
          const char *fields[] = { g->uid, g->game, hst_game_title (g), started, ended,
                                   g->finished ? "yes" : "no", moves, seat, s->name, marker,
                                   s->first ? "yes" : "no", score, s->won ? "yes" : "no" };
          for (size_t f = 0; f < G_N_ELEMENTS (fields); f++)
            csv_field (out, fields[f], f + 1 == G_N_ELEMENTS (fields));
        }
    }
  return g_string_free (out, FALSE);
}

/* ---- play lists (JSON) ------------------------------------------------ */

/* The refId of `key` in `ids` (1-based, in order of first use). */
static gint64
ref_id (GHashTable *ids, GPtrArray *order, const char *key)
{
  gpointer found = g_hash_table_lookup (ids, key);
  if (found != NULL)
    return GPOINTER_TO_INT (found);
  g_ptr_array_add (order, g_strdup (key));
  g_hash_table_insert (ids, g_strdup (key), GINT_TO_POINTER (order->len));
  return order->len;
}

static void
add_tablero (JsonBuilder *b, const HstGame *g)
{
  g_autofree char *started = hst_format_utc (g->started);
  g_autofree char *ended = hst_format_utc (g->ended);
  json_builder_set_member_name (b, "tablero");
  json_builder_begin_object (b);
  hst_json_string (b, "uid", g->uid);
  hst_json_string (b, "game", g->game);
  hst_json_string (b, "started", started);
  hst_json_string (b, "ended", ended);
  hst_json_bool (b, "finished", g->finished);
  hst_json_bool (b, "scored", g->scored);
  hst_json_int (b, "moves", g->n_moves);
  hst_json_string (b, "tiebreak", g->tiebreak);
  json_builder_set_member_name (b, "options");
  json_builder_begin_object (b);
  for (size_t i = 0; i < g->options.n; i++)
    {
      hst_json_string (b, g->options.items[i].name, g->options.items[i].value);
    }
  json_builder_end_object (b);
  json_builder_set_member_name (b, "markers");
  json_builder_begin_array (b);
  for (guint p = 0; p < g->n_seats; p++)
    json_builder_add_int_value (b, g->seats[p].marker);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "scores");
  json_builder_begin_array (b);
  for (guint c = 0; c < g->checkpoints->len; c++)
    {
      const HstCheckpoint *cp = &g_array_index (g->checkpoints, HstCheckpoint, c);
      json_builder_begin_array (b);
      json_builder_add_int_value (b, cp->move);
      for (guint p = 0; p < g->n_seats; p++)
        json_builder_add_int_value (b, cp->scores[p]);
      json_builder_end_array (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "refusals");
  json_builder_begin_array (b);
  for (guint i = 0; i < g->refusals->len; i++)
    {
      const HstRefusal *r = &g_array_index (g->refusals, HstRefusal, i);
      json_builder_begin_object (b);
      hst_json_int (b, "seat", r->position);
      hst_json_string (b, "rule", r->rule);
      hst_json_int (b, "count", r->count);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  hst_json_string (b, "record", g->record != NULL ? g->record : "");
  json_builder_end_object (b);
}

static void
add_play (JsonBuilder *b, const HstGame *g, GHashTable *game_ids, GPtrArray *game_order, GHashTable *player_ids,
          GPtrArray *player_order)
{
  gint64 when = g->started > 0 ? g->started : g->ended;
  g_autoptr (GDateTime) utc = g_date_time_new_from_unix_utc (when);
  g_autoptr (GDateTime) local = utc != NULL ? g_date_time_to_local (utc) : NULL;
  g_autofree char *date = local != NULL ? g_date_time_format (local, "%Y-%m-%d %H:%M:%S") : g_strdup ("");
  json_builder_begin_object (b);
  hst_json_string (b, "uuid", g->uid);
  hst_json_int (b, "gameRefId", ref_id (game_ids, game_order, g->game));
  hst_json_string (b, "playDate", date);
  hst_json_int (b, "durationMin", g->started > 0 && g->ended > g->started ? (g->ended - g->started + 30) / 60 : 0);
  hst_json_bool (b, "ignored", !g->finished);
  hst_json_bool (b, "manualWinner", FALSE);
  json_builder_set_member_name (b, "playerScores");
  json_builder_begin_array (b);
  for (guint p = 0; p < g->n_seats; p++)
    {
      g_autofree char *score = g_strdup_printf ("%d", g->seats[p].score);
      json_builder_begin_object (b);
      hst_json_int (b, "playerRefId", ref_id (player_ids, player_order, g->seats[p].name));
      hst_json_string (b, "score", score);
      hst_json_bool (b, "winner", g->seats[p].won);
      hst_json_bool (b, "startPlayer", g->seats[p].first);
      hst_json_int (b, "seatOrder", p + 1);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  add_tablero (b, g);
  json_builder_end_object (b);
}

char *
hst_export_json (HstStore *store, const HstFilter *filter, GError **error)
{
  g_autoptr (GPtrArray) games = full_games (store, filter, error);
  if (games == NULL)
    return NULL;
  g_autoptr (GHashTable) game_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GHashTable) player_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr (GPtrArray) game_order = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (GPtrArray) player_order = g_ptr_array_new_with_free_func (g_free);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  hst_json_string (b, "about", "Tablero game history, BG Stats-style play list (docs/history.md)");
  json_builder_set_member_name (b, "plays");
  json_builder_begin_array (b);
  for (guint i = 0; i < games->len; i++)
    add_play (b, games->pdata[i], game_ids, game_order, player_ids, player_order);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "games");
  json_builder_begin_array (b);
  for (guint i = 0; i < game_order->len; i++)
    {
      const EngGameClass *klass = eng_game_class_find (game_order->pdata[i]);
      json_builder_begin_object (b);
      hst_json_int (b, "id", i + 1);
      hst_json_string (b, "name", klass != NULL && klass->title ? klass->title : game_order->pdata[i]);
      hst_json_string (b, "tableroGame", game_order->pdata[i]);
      hst_json_bool (b, "cooperative", FALSE);
      hst_json_bool (b, "highestWins", TRUE);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "players");
  json_builder_begin_array (b);
  for (guint i = 0; i < player_order->len; i++)
    {
      json_builder_begin_object (b);
      hst_json_int (b, "id", i + 1);
      hst_json_string (b, "name", player_order->pdata[i]);
      hst_json_bool (b, "isAnonymous", FALSE);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  char *text = json_generator_to_data (gen, NULL);
  char *with_newline = g_strconcat (text, "\n", NULL);
  g_free (text);
  return with_newline;
}

