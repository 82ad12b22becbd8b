/* tablero-cli history stats [--player NAME]: each player's record, one
 * JSON line a player: games played, abandoned and won (and the win rate)
 * in all and per game with the average and best score, head-to-head
 * against every other player, and the rules they were refused by most. */
#include "cli.h"
#include "cli-history.h"
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
      json_builder_set_member_name (b, "game");
      json_builder_add_string_value (b, k->game);
      json_builder_set_member_name (b, "played");
      json_builder_add_int_value (b, k->played);
      json_builder_set_member_name (b, "abandoned");
      json_builder_add_int_value (b, k->abandoned);
      json_builder_set_member_name (b, "won");
      json_builder_add_int_value (b, k->won);
      json_builder_set_member_name (b, "win_rate");
      json_builder_add_double_value (b, hst_win_rate (k->won, k->played));
      if (k->scored && k->played > 0)
        {
          json_builder_set_member_name (b, "average");
          json_builder_add_double_value (b, k->average);
          json_builder_set_member_name (b, "best");
          json_builder_add_int_value (b, k->best);
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
      json_builder_set_member_name (b, "name");
      json_builder_add_string_value (b, r->name);
      json_builder_set_member_name (b, "together");
      json_builder_add_int_value (b, r->together);
      json_builder_set_member_name (b, "won");
      json_builder_add_int_value (b, r->won);
      json_builder_set_member_name (b, "rival_won");
      json_builder_add_int_value (b, r->rival_won);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_set_member_name (b, "refusals");
  json_builder_begin_array (b);
  for (guint i = 0; i < s->refusals->len; i++)
    {
      const HstRuleCount *r = &g_array_index (s->refusals, HstRuleCount, i);
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "game");
      json_builder_add_string_value (b, r->game);
      json_builder_set_member_name (b, "rule");
      json_builder_add_string_value (b, r->rule);
      json_builder_set_member_name (b, "count");
      json_builder_add_int_value (b, r->count);
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
  json_builder_set_member_name (b, "player");
  json_builder_add_string_value (b, s->name);
  json_builder_set_member_name (b, "played");
  json_builder_add_int_value (b, s->played);
  json_builder_set_member_name (b, "abandoned");
  json_builder_add_int_value (b, s->abandoned);
  json_builder_set_member_name (b, "won");
  json_builder_add_int_value (b, s->won);
  json_builder_set_member_name (b, "win_rate");
  json_builder_add_double_value (b, hst_win_rate (s->won, s->played));
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
  if (argc > 1)
    {
      cli_say (cmd, _("unexpected argument '%s'"), argv[1]);
      cli_try_help (cmd);
      return 2;
    }
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
