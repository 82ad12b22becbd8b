/* tablero-cli history stats [--player NAME]: each player's record, one
 * JSON line a player: games played, abandoned and won (and the win rate)
 * in all and per game with the average and best score, head-to-head
 * against every other player, and the rules they were refused by most. */
#include "cli.h"
#include "cli-history.h"
#include "hst-json.h"
#include "hst-stats.h"

static void
add_kinds (JsonBuilder *b, const HstPlayerStats *s)
{
  json_builder_set_member_name (b, "games");
  json_builder_begin_array (b);
  for (guint i = 0; i < s->kinds->len; i++)
    {
      const HstKindStats *k = &g_array_index (s->kinds, HstKindStats, i);
      json_builder_begin_object (b);
      hst_json_string (b, "game", k->game);
      hst_json_int (b, "played", k->played);
      hst_json_int (b, "abandoned", k->abandoned);
      hst_json_int (b, "won", k->won);
      hst_json_double (b, "win_rate", hst_win_rate (k->won, k->played));
      if (k->scored && k->played > 0)
        {
          hst_json_double (b, "average", k->average);
          hst_json_int (b, "best", k->best);
        }
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static void
add_rivals (JsonBuilder *b, const HstPlayerStats *s)
{
  json_builder_set_member_name (b, "rivals");
  json_builder_begin_array (b);
  for (guint i = 0; i < s->rivals->len; i++)
    {
      const HstRival *r = &g_array_index (s->rivals, HstRival, i);
      json_builder_begin_object (b);
      hst_json_string (b, "name", r->name);
      hst_json_int (b, "together", r->together);
      hst_json_int (b, "won", r->won);
      hst_json_int (b, "rival_won", r->rival_won);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "refusals");
  json_builder_begin_array (b);
  for (guint i = 0; i < s->refusals->len; i++)
    {
      const HstRuleCount *r = &g_array_index (s->refusals, HstRuleCount, i);
      json_builder_begin_object (b);
      hst_json_string (b, "game", r->game);
      hst_json_string (b, "rule", r->rule);
      hst_json_int (b, "count", r->count);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

static gboolean
print_player (HstStore *store, const char *name, GError **error)
{
  g_autoptr (HstPlayerStats) s = hst_store_player_stats (store, name, 0, error);
  if (s == NULL)
    return FALSE;
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  hst_json_string (b, "player", s->name);
  hst_json_int (b, "played", s->played);
  hst_json_int (b, "abandoned", s->abandoned);
  hst_json_int (b, "won", s->won);
  hst_json_double (b, "win_rate", hst_win_rate (s->won, s->played));
  add_kinds (b, s);
  add_rivals (b, s);
  json_builder_end_object (b);
  cli_history_print (b);
  return TRUE;
}

int
cli_history_stats (int argc, char **argv)
{
  g_autofree char *db = NULL, *player = NULL;
  const GOptionEntry entries[] = {
    CLI_HISTORY_DB_ENTRY (db),
    { "player", 0, 0, G_OPTION_ARG_FILENAME, &player, N_("Only NAME's record"), N_("NAME") },
    G_OPTION_ENTRY_NULL
  };
  const char *cmd = "history stats";
  int rc = cli_parse_options (cmd, NULL, N_("Each player's record across the history, one JSON line a player.\n"),
                              entries, &argc, &argv);
  if (rc >= 0)
    return rc;
  if (!cli_history_no_arguments (cmd, argc, argv))
    return 2;
  g_autoptr (HstStore) store = cli_history_open (cmd, db);
  if (store == NULL)
    return 2;
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) names = player != NULL ? g_strdupv ((char *[]) { player, NULL }) : hst_store_player_names (store, &error);
  if (names == NULL)
    return cli_history_fail (cmd, error);
  for (char **n = names; *n != NULL; n++)
    if (!print_player (store, *n, &error))
      return cli_history_fail (cmd, error);
  return 0;
}
