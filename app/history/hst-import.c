/* hst-import.c: records, journals and play lists into the history
 * (hst-io.h).  Every value of a play list is checked before it is kept:
 * the file may come from anywhere (tests/fuzz/fuzz-history-import.c). */
#include "hst-io.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "eng-name.h"

#define MAX_IMPORT_BYTES (64u << 20)

void
hst_imported_free (HstImported *imported)
{
  if (imported == NULL)
    return;
  g_free (imported->uid);
  g_free (imported->game);
  g_free (imported);
}

static gint64
parse_utc (const char *text)
{
  if (text == NULL || *text == '\0')
    return 0;
  g_autoptr (GDateTime) t = g_date_time_new_from_iso8601 (text, NULL);
  return t != NULL ? MAX (g_date_time_to_unix (t), 0) : -1;
}

static gboolean
bad_input (GError **error, const char *source, const char *fmt, ...) G_GNUC_PRINTF (3, 4);

static gboolean
bad_input (GError **error, const char *source, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  g_autofree char *why = g_strdup_vprintf (fmt, ap);
  va_end (ap);
  g_set_error (error, HST_STORE_ERROR, HST_STORE_ERROR_INPUT, "%s: %s", source, why);
  return FALSE;
}

static gboolean
put_imported (HstStore *store, HstGame *game, GPtrArray *imported, GError **error)
{
  HstPut put;
  if (!hst_store_put_game (store, game, &put, error))
    return FALSE;
  if (imported != NULL)
    {
      HstImported *im = g_new0 (HstImported, 1);
      *im = (HstImported) { .uid = g_strdup (game->uid), .game = g_strdup (game->game), .id = game->id,
                            .put = put, .n_moves = game->n_moves, .finished = game->finished };
      g_ptr_array_add (imported, im);
    }
  return TRUE;
}

static gboolean
import_record (HstStore *store, const char *text, gsize len, const char *source, gint64 ended, GPtrArray *imported,
               GError **error)
{
  EngRecord *record = NULL;
  EngParseError perr = { "" };
  EngStatus st = eng_record_parse (text, len, source, &record, &perr);
  if (st != ENG_OK)
    {
      g_set_error (error, HST_STORE_ERROR, HST_STORE_ERROR_INPUT, "%s:%u: %s", source, perr.line,
                   perr.reason[0] ? perr.reason : eng_status_to_string (st));
      return FALSE;
    }
  gint64 end = ended;
  if (record->started > end)
    end = record->started;
  g_autoptr (GError) local = NULL;
  g_autoptr (HstGame) game = hst_game_from_record (record, end, &local);
  eng_record_free (record);
  if (game == NULL)
    return bad_input (error, source, "%s", local->message);
  return put_imported (store, game, imported, error);
}

/* Member `name` of `o` when it is a JSON value of `type`, else NULL. */
static JsonNode *
member_value (JsonObject *o, const char *name, GType type)
{
  JsonNode *node = o != NULL ? json_object_get_member (o, name) : NULL;
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != type)
    return NULL;
  return node;
}

static const char *
member_string (JsonObject *o, const char *name)
{
  JsonNode *node = member_value (o, name, G_TYPE_STRING);
  return node != NULL ? json_node_get_string (node) : NULL;
}

static gboolean
member_int (JsonObject *o, const char *name, gint64 lo, gint64 hi, gint64 *out)
{
  JsonNode *node = member_value (o, name, G_TYPE_INT64);
  if (node == NULL)
    return FALSE;
  gint64 v = json_node_get_int (node);
  if (v < lo || v > hi)
    return FALSE;
  *out = v;
  return TRUE;
}

static gboolean
member_bool (JsonObject *o, const char *name, gboolean *out)
{
  JsonNode *node = member_value (o, name, G_TYPE_BOOLEAN);
  if (node != NULL)
    *out = json_node_get_boolean (node);
  return node != NULL;
}

static JsonArray *
member_array (JsonObject *o, const char *name)
{
  JsonNode *node = o != NULL ? json_object_get_member (o, name) : NULL;
  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static JsonObject *
element_object (JsonArray *a, guint i)
{
  JsonNode *node = json_array_get_element (a, i);
  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/* The players of a play list by refId. */
static GHashTable *
player_names (JsonObject *root)
{
  GHashTable *names = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, g_free);
  JsonArray *players = member_array (root, "players");
  for (guint i = 0; players != NULL && i < json_array_get_length (players); i++)
    {
      JsonObject *p = element_object (players, i);
      gint64 id;
      const char *name = member_string (p, "name");
      if (name != NULL && member_int (p, "id", G_MININT64, G_MAXINT64, &id))
        g_hash_table_insert (names, g_memdup2 (&id, sizeof id), g_strdup (name));
    }
  return names;
}

/* The seats of a play: names from its playerScores, markers from its
 * tablero object.  NULL when fine, else why not (g_free). */
static char *
play_seats (JsonObject *play, JsonObject *t, GHashTable *names, HstGame *g)
{
  JsonArray *scores = member_array (play, "playerScores");
  JsonArray *markers = member_array (t, "markers");
  guint n = scores != NULL ? json_array_get_length (scores) : 0;
  if (n < 1 || n > ENG_MAX_PLAYERS)
    return g_strdup (_ ("its playerScores must list 1 to 6 players"));
  g->n_seats = n;
  for (guint p = 0; p < n; p++)
    {
      JsonObject *s = element_object (scores, p);
      gint64 ref, marker = 0;
      const char *name = member_int (s, "playerRefId", G_MININT64, G_MAXINT64, &ref)
                           ? g_hash_table_lookup (names, &ref) : NULL;
      const char *score = member_string (s, "score");
      char *end = NULL;
      gint64 value = score != NULL ? g_ascii_strtoll (score, &end, 10) : 0;
      if (name == NULL || eng_name_check (name, strlen (name)) != ENG_NAME_OK)
        return g_strdup_printf (_ ("player %u has no name, or not a player's name"), p + 1);
      if (score == NULL || end == score || *end != '\0' || value < G_MININT16 || value > G_MAXINT16)
        return g_strdup_printf (_ ("player %u: the score is not a whole number"), p + 1);
      HstSeat *seat = &g->seats[p];
      g_strlcpy (seat->name, name, sizeof seat->name);
      seat->score = (int) value;
      member_bool (s, "winner", &seat->won);
      member_bool (s, "startPlayer", &seat->first);
      JsonNode *m = markers != NULL && p < json_array_get_length (markers) ? json_array_get_element (markers, p) : NULL;
      if (m != NULL && JSON_NODE_HOLDS_VALUE (m) && json_node_get_value_type (m) == G_TYPE_INT64)
        marker = json_node_get_int (m);
      seat->marker = marker >= 0 && marker <= 99 ? (guint) marker : 0;
    }
  const char *names_seen[ENG_MAX_PLAYERS];
  for (guint p = 0; p < n; p++)
    names_seen[p] = g->seats[p].name;
  EngNameCheck check;
  if (eng_names_find_fault (names_seen, n, &check) >= 0)
    return g_strdup (_ ("a player is listed twice"));
  return NULL;
}

/* Scores over the game and refusals of a tablero object. */
static char *
play_details (JsonObject *t, HstGame *g)
{
  JsonArray *scores = member_array (t, "scores");
  for (guint c = 0; scores != NULL && c < json_array_get_length (scores); c++)
    {
      JsonNode *row = json_array_get_element (scores, c);
      JsonArray *a = row != NULL && JSON_NODE_HOLDS_ARRAY (row) ? json_node_get_array (row) : NULL;
      if (a == NULL || json_array_get_length (a) != g->n_seats + 1)
        return g_strdup_printf (_ ("scores row %u is not [move, one score per player]"), c + 1);
      HstCheckpoint cp = { 0 };
      for (guint i = 0; i <= g->n_seats; i++)
        {
          JsonNode *v = json_array_get_element (a, i);
          if (!JSON_NODE_HOLDS_VALUE (v) || json_node_get_value_type (v) != G_TYPE_INT64
              || json_node_get_int (v) < (i == 0 ? 0 : G_MININT16) || json_node_get_int (v) > G_MAXINT16)
            return g_strdup_printf (_ ("scores row %u is not [move, one score per player]"), c + 1);
          if (i == 0)
            cp.move = (guint) json_node_get_int (v);
          else
            cp.scores[i - 1] = (int) json_node_get_int (v);
        }
      g_array_append_val (g->checkpoints, cp);
    }
  JsonArray *refusals = member_array (t, "refusals");
  for (guint i = 0; refusals != NULL && i < json_array_get_length (refusals); i++)
    {
      JsonObject *r = element_object (refusals, i);
      gint64 seat, count;
      const char *rule = member_string (r, "rule");
      if (!member_int (r, "seat", -1, (gint64) g->n_seats - 1, &seat) || !member_int (r, "count", 1, G_MAXINT32, &count)
          || rule == NULL || *rule == '\0' || strlen (rule) >= sizeof ((HstRefusal *) NULL)->rule)
        return g_strdup_printf (_ ("refusal %u is not {seat, rule, count}"), i + 1);
      hst_game_add_refusals (g, (int) seat, rule, (guint) count);
    }
  JsonObject *options = NULL;
  JsonNode *node = json_object_get_member (t, "options");
  if (node != NULL && JSON_NODE_HOLDS_OBJECT (node))
    options = json_node_get_object (node);
  g_autoptr (GList) names = options != NULL ? json_object_get_members (options) : NULL;
  for (GList *l = names; l != NULL; l = l->next)
    {
      const char *value = member_string (options, l->data);
      if (value == NULL || eng_options_set (&g->options, l->data, value) != ENG_OK)
        return g_strdup_printf (_ ("the option “%s” is not NAME: VALUE"), (const char *) l->data);
    }
  return NULL;
}

/* One play of a play list as a game; NULL with *why (g_free). */
static HstGame *
play_game (JsonObject *play, GHashTable *names, char **why)
{
  JsonNode *node = play != NULL ? json_object_get_member (play, "tablero") : NULL;
  JsonObject *t = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  const char *uid = member_string (t, "uid"), *game = member_string (t, "game");
  const char *record = member_string (t, "record");
  gint64 moves = 0;
  if (t == NULL)
    *why = g_strdup (_ ("it is not a play Tablero refereed (no \"tablero\" object)"));
  else if (uid == NULL || *uid == '\0' || strlen (uid) >= ENG_RECORD_ID_MAX + 8)
    *why = g_strdup (_ ("it has no uid"));
  else if (game == NULL || eng_game_class_find (game) == NULL)
    *why = g_strdup (_ ("it names no game Tablero knows"));
  else if (!member_int (t, "moves", 1, G_MAXINT32, &moves))
    *why = g_strdup (_ ("it has no number of moves"));
  if (*why != NULL)
    return NULL;
  g_autoptr (HstGame) g = hst_game_new ();
  g->uid = g_strdup (uid);
  g->game = g_strdup (game);
  g->n_moves = (guint) moves;
  g->record = g_strdup (record != NULL ? record : "");
  g->started = parse_utc (member_string (t, "started"));
  g->ended = parse_utc (member_string (t, "ended"));
  const char *tiebreak = member_string (t, "tiebreak");
  g_free (g->tiebreak);
  g->tiebreak = g_strdup (tiebreak != NULL ? tiebreak : "");
  member_bool (t, "finished", &g->finished);
  member_bool (t, "scored", &g->scored);
  if (g->started < 0 || g->ended <= 0)
    *why = g_strdup (_ ("its start or end time is not a UTC time like 2026-11-28T19:05:00Z"));
  if (*why == NULL)
    *why = play_seats (play, t, names, g);
  if (*why == NULL)
    *why = play_details (t, g);
  return *why == NULL ? g_steal_pointer (&g) : NULL;
}

static gboolean
import_play_list (HstStore *store, JsonNode *root_node, const char *source, GPtrArray *imported, GError **error)
{
  JsonObject *root = JSON_NODE_HOLDS_OBJECT (root_node) ? json_node_get_object (root_node) : NULL;
  JsonArray *plays = member_array (root, "plays");
  if (plays == NULL)
    return bad_input (error, source, "%s", _ ("not a play list: no \"plays\" array"));
  g_autoptr (GHashTable) names = player_names (root);
  /* oldest first, as they were played: the history numbers them in order */
  for (guint i = json_array_get_length (plays); i-- > 0;)
    {
      g_autofree char *why = NULL;
      g_autoptr (HstGame) game = play_game (element_object (plays, i), names, &why);
      if (game == NULL)
        return bad_input (error, source, _ ("play %u: %s"), i + 1, why);
      if (!put_imported (store, game, imported, error))
        return FALSE;
    }
  return TRUE;
}

gboolean
hst_import_text (HstStore *store, const char *text, gsize len, const char *source, gint64 ended,
                 GPtrArray *imported, GError **error)
{
  gsize start = 0;
  while (start < len && g_ascii_isspace (text[start]))
    start++;
  if (start == len || text[start] != '{')
    return import_record (store, text, len, source, ended, imported, error);
  if (!g_utf8_validate_len (text, len, NULL))
    return bad_input (error, source, "%s", _ ("not UTF-8 text"));
  g_autoptr (JsonParser) parser = json_parser_new ();
  g_autoptr (GError) local = NULL;
  if (!json_parser_load_from_data (parser, text, (gssize) len, &local))
    return bad_input (error, source, "%s", local->message);
  return import_play_list (store, json_parser_get_root (parser), source, imported, error);
}

gboolean
hst_import_file (HstStore *store, const char *path, GPtrArray *imported, GError **error)
{
  GStatBuf st;
  if (g_stat (path, &st) != 0)
    {
      int saved = errno;
      return bad_input (error, path, "%s", g_strerror (saved));
    }
  if (st.st_size > MAX_IMPORT_BYTES)
    return bad_input (error, path, "%s", _ ("larger than 64 MiB"));
  g_autofree char *text = NULL;
  gsize len = 0;
  g_autoptr (GError) local = NULL;
  if (!g_file_get_contents (path, &text, &len, &local))
    return bad_input (error, path, "%s", local->message);
  return hst_import_text (store, text, len, path, (gint64) st.st_mtime, imported, error);
}
