/* tablero-cli history forget --game ID | --player NAME: deletes one game,
 * or a player and every game they played, and says what it deleted (one
 * JSON line, with the sentence in the table's language). */
#include "cli.h"
#include "cli-history.h"
#include "hst-json.h"

#include <stdio.h>

static int
forget_game (const char *cmd, HstStore *store, gint64 id)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (HstGame) game = NULL;
  if (!hst_store_forget_game (store, id, &game, &error))
    return cli_history_fail (cmd, error);
  GString *names = g_string_new (NULL);
  for (guint p = 0; p < game->n_seats; p++)
    g_string_append_printf (names, "%s%s", p ? ", " : "", game->seats[p].name);
  g_autofree char *when = hst_format_time (game->ended);
  g_autofree char *text = g_strdup_printf (_ ("Forgot game %lld: %s played by %s, ended %s"), (long long) id,
                                           hst_game_title (game), names->str, when);
  g_string_free (names, TRUE);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  hst_json_string (b, "forgot", "game");
  hst_json_string (b, "text", text);
  json_builder_set_member_name (b, "game");
  cli_history_add_game (b, game, FALSE);
  json_builder_end_object (b);
  cli_history_print (b);
  return 0;
}

static int
forget_player (const char *cmd, HstStore *store, const char *name)
{
  g_autoptr (GError) error = NULL;
  guint games = 0;
  if (!hst_store_forget_player (store, name, &games, &error))
    return cli_history_fail (cmd, error);
  g_autofree char *text = g_strdup_printf (
    ENG_NG_ ("Forgot %s and the %u game they played", "Forgot %s and the %u games they played", games), name,
    games);
  g_autoptr (JsonBuilder) b = json_builder_new ();
  json_builder_begin_object (b);
  hst_json_string (b, "forgot", "player");
  hst_json_string (b, "text", text);
  hst_json_string (b, "name", name);
  hst_json_int (b, "games", games);
  json_builder_end_object (b);
  cli_history_print (b);
  return 0;
}

int
cli_history_forget (int argc, char **argv)
{
  g_autofree char *db = NULL, *game = NULL, *player = NULL;
  const GOptionEntry entries[] = {
    CLI_HISTORY_DB_ENTRY (db),
    { "game", 0, 0, G_OPTION_ARG_FILENAME, &game, N_("Forget the game ID"), "ID" },
    { "player", 0, 0, G_OPTION_ARG_FILENAME, &player, N_("Forget NAME and every game they played"), N_("NAME") },
    G_OPTION_ENTRY_NULL
  };
  const char *cmd = "history forget";
  int rc = cli_parse_options (cmd, NULL, N_("Deletes a game, or a player and their games, from the history.\n"),
                              entries, &argc, &argv);
  if (rc >= 0)
    return rc;
  if (argc > 1 || (game == NULL) == (player == NULL))
    {
      fprintf (stderr, "%s tablero-cli history forget --game ID | --player NAME\n", _("usage:"));
      cli_try_help (cmd);
      return 2;
    }
  gint64 id = 0;
  if (game != NULL && !cli_history_parse_id (cmd, game, &id))
    return 2;
  g_autoptr (HstStore) store = cli_history_open (cmd, db);
  if (store == NULL)
    return 2;
  return game != NULL ? forget_game (cmd, store, id) : forget_player (cmd, store, player);
}
