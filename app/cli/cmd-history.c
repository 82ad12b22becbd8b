/* tablero-cli history list|show|stats|export|import|forget: the games the
 * table played (docs/history.md).  This file holds what the subcommands
 * share; each lives in its own cmd-history-*.c. */
#include "cli.h"
#include "cli-history.h"
#include "hst-json.h"

#include <stdio.h>

int
cli_cmd_history (int argc, char **argv)
{
  static const struct {
    const char *name;
    int (*run) (int argc, char **argv);
  } subcommands[] = {
    { "list", cli_history_list },     { "show", cli_history_show },     { "stats", cli_history_stats },
    { "export", cli_history_export }, { "import", cli_history_import }, { "forget", cli_history_forget },
  };
  for (size_t i = 0; argc >= 2 && i < G_N_ELEMENTS (subcommands); i++)
    if (strcmp (argv[1], subcommands[i].name) == 0)
      return subcommands[i].run (argc - 1, argv + 1);
  gboolean help = argc >= 2 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0);
  fprintf (help ? stdout : stderr, "%s tablero-cli history list|show|stats|export|import|forget [OPTIONS]\n",
           _("usage:"));
  return help ? 0 : 2;
}

HstStore *
cli_history_open (const char *cmd, const char *db)
{
  g_autofree char *notice = NULL;
  g_autoptr (GError) error = NULL;
  HstStore *store = hst_store_open (db, &notice, &error);
  if (notice != NULL)
    cli_say (cmd, "%s", notice);
  if (store == NULL)
    cli_history_fail (cmd, error);
  return store;
}

void
cli_history_options_clear (CliHistoryOptions *o)
{
  char **strings[] = { &o->db, &o->game, &o->player, &o->since, &o->until };
  for (size_t i = 0; i < G_N_ELEMENTS (strings); i++)
    g_clear_pointer (strings[i], g_free);
}

gboolean
cli_history_no_arguments (const char *cmd, int argc, char **argv)
{
  if (argc <= 1)
    return TRUE;
  cli_say (cmd, _("unexpected argument '%s'"), argv[1]);
  cli_try_help (cmd);
  return FALSE;
}

gboolean
cli_history_read_filter (const char *cmd, int argc, char **argv, const CliHistoryOptions *o, HstFilter *filter)
{
  *filter = (HstFilter) { .game = o->game, .player = o->player };
  return cli_history_no_arguments (cmd, argc, argv) && (o->game == NULL || cli_game_class (o->game) != NULL)
         && (o->since == NULL || cli_history_parse_date (cmd, "--since", o->since, FALSE, &filter->since))
         && (o->until == NULL || cli_history_parse_date (cmd, "--until", o->until, TRUE, &filter->until));
}

int
cli_history_fail (const char *cmd, const GError *error)
{
  cli_say (cmd, "%s", error->message);
  return 2;
}


static void
add_players (JsonBuilder *b, const HstGame *g)
{
  json_builder_set_member_name (b, "players");
  json_builder_begin_array (b);
  for (guint p = 0; p < g->n_seats; p++)
    {
      const HstSeat *s = &g->seats[p];
      json_builder_begin_object (b);
      hst_json_string (b, "name", s->name);
      hst_json_int (b, "seat", p + 1);
      hst_json_int (b, "marker", s->marker);
      hst_json_int (b, "score", s->score);
      hst_json_bool (b, "won", s->won);
      hst_json_bool (b, "first", s->first);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "winners");
  json_builder_begin_array (b);
  for (guint p = 0; p < g->n_seats; p++)
    if (g->seats[p].won)
      json_builder_add_string_value (b, g->seats[p].name);
  json_builder_end_array (b);
}

static void
add_details (JsonBuilder *b, const HstGame *g)
{
  json_builder_set_member_name (b, "options");
  json_builder_begin_object (b);
  for (size_t i = 0; i < g->options.n; i++)
    hst_json_string (b, g->options.items[i].name, g->options.items[i].value);
  json_builder_end_object (b);
  json_builder_set_member_name (b, "scores");
  json_builder_begin_array (b);
  for (guint c = 0; c < g->checkpoints->len; c++)
    {
      const HstCheckpoint *cp = &g_array_index (g->checkpoints, HstCheckpoint, c);
      json_builder_begin_object (b);
      hst_json_int (b, "move", cp->move);
      json_builder_set_member_name (b, "scores");
      json_builder_begin_array (b);
      for (guint p = 0; p < g->n_seats; p++)
        json_builder_add_int_value (b, cp->scores[p]);
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "refusals");
  json_builder_begin_array (b);
  for (guint i = 0; i < g->refusals->len; i++)
    {
      const HstRefusal *r = &g_array_index (g->refusals, HstRefusal, i);
      json_builder_begin_object (b);
      if (r->position >= 0 && (guint) r->position < g->n_seats)
        hst_json_string (b, "player", g->seats[r->position].name);
      hst_json_string (b, "rule", r->rule);
      hst_json_int (b, "count", r->count);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  g_autofree char *report = hst_game_report (g);
  hst_json_string (b, "report", report);
  hst_json_string (b, "record", g->record != NULL ? g->record : "");
}

void
cli_history_add_game (JsonBuilder *b, const HstGame *g, gboolean full)
{
  g_autofree char *started = hst_format_utc (g->started);
  g_autofree char *ended = hst_format_utc (g->ended);
  json_builder_begin_object (b);
  hst_json_int (b, "id", g->id);
  hst_json_string (b, "uid", g->uid);
  hst_json_string (b, "game", g->game);
  hst_json_string (b, "title", hst_game_title (g));
  hst_json_string (b, "started", started);
  hst_json_string (b, "ended", ended);
  hst_json_bool (b, "finished", g->finished);
  hst_json_bool (b, "scored", g->scored);
  hst_json_int (b, "moves", g->n_moves);
  add_players (b, g);
  if (full)
    add_details (b, g);
  json_builder_end_object (b);
}

void
cli_history_print (JsonBuilder *b)
{
  g_autoptr (JsonGenerator) gen = json_generator_new ();
  g_autoptr (JsonNode) root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  g_autofree char *text = json_generator_to_data (gen, NULL);
  printf ("%s\n", text);
}

gboolean
cli_history_parse_date (const char *cmd, const char *name, const char *text, gboolean end_of_day, gint64 *out)
{
  int y, m, d;
  char tail;
  if (sscanf (text, "%4d-%2d-%2d%c", &y, &m, &d, &tail) == 3 && g_date_valid_dmy (d, m, y))
    {
      g_autoptr (GTimeZone) local = g_time_zone_new_local ();
      g_autoptr (GDateTime) day = g_date_time_new (local, y, m, d, 0, 0, 0);
      g_autoptr (GDateTime) next = day != NULL && end_of_day ? g_date_time_add_days (day, 1) : NULL;
      if (day != NULL)
        {
          *out = g_date_time_to_unix (next != NULL ? next : day);
          return TRUE;
        }
    }
  g_autoptr (GDateTime) when = g_date_time_new_from_iso8601 (text, NULL);
  if (when != NULL)
    {
      *out = g_date_time_to_unix (when);
      return TRUE;
    }
  cli_say (cmd, _("%s takes a date (2026-11-28) or a time (2026-11-28T19:05:00Z), not '%s'"), name, text);
  return FALSE;
}

gboolean
cli_history_parse_id (const char *cmd, const char *text, gint64 *out)
{
  long value;
  if (!cli_parse_long (cmd, _("the game's id"), text, 1, G_MAXLONG, &value))
    return FALSE;
  *out = value;
  return TRUE;
}
