/* tablero-cli history show ID|--last [--record|--report]: one game in
 * full as a JSON line (its scores over the game, refusals, report and
 * record), or only its record or its report as text. */
#include "cli.h"
#include "cli-history.h"

#include <stdio.h>

int
cli_history_show (int argc, char **argv)
{
  g_autofree char *db = NULL;
  gboolean last = FALSE, record = FALSE, report = FALSE;
  const GOptionEntry entries[] = {
    CLI_HISTORY_DB_ENTRY (db),
    { "last", 0, 0, G_OPTION_ARG_NONE, &last, N_("The game that ended last"), NULL },
    { "record", 0, 0, G_OPTION_ARG_NONE, &record, N_("Print only the game record"), NULL },
    { "report", 0, 0, G_OPTION_ARG_NONE, &report, N_("Print only the report (Markdown)"), NULL },
    G_OPTION_ENTRY_NULL
  };
  const char *cmd = "history show";
  int rc = cli_parse_options (cmd, "[ID]", N_("One game of the history in full.\n"), entries, &argc, &argv);
  if (rc >= 0)
    return rc;
  if ((argc == 2) == last || argc > 2 || (record && report))
    {
      fprintf (stderr, "%s tablero-cli history show ID|--last [--record|--report]\n", _("usage:"));
      cli_try_help (cmd);
      return 2;
    }
  gint64 id = 0;
  if (!last && !cli_history_parse_id (cmd, argv[1], &id))
    return 2;
  g_autoptr (HstStore) store = cli_history_open (cmd, db);
  if (store == NULL)
    return 2;
  g_autoptr (GError) error = NULL;
  if (last)
    {
      HstFilter newest = { .limit = 1 };
      g_autoptr (GPtrArray) games = hst_store_list (store, &newest, NULL, &error);
      if (games == NULL)
        return cli_history_fail (cmd, error);
      if (games->len == 0)
        {
          cli_say (cmd, _("%s: the history holds no game yet"), hst_store_path (store));
          return 2;
        }
      id = ((HstGame *) games->pdata[0])->id;
    }
  g_autoptr (HstGame) game = hst_store_get_game (store, id, &error);
  if (game == NULL)
    return cli_history_fail (cmd, error);
  if (record)
    fputs (game->record, stdout);
  else if (report)
    {
      g_autofree char *text = hst_game_report (game);
      fputs (text, stdout);
    }
  else
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      cli_history_add_game (b, game, TRUE);
      cli_history_print (b);
    }
  return 0;
}
