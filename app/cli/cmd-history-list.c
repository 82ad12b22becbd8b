/* tablero-cli history list [--game G] [--player NAME] [--since DATE]
 * [--until DATE] [--limit N]: the games played, newest first, one JSON
 * line each, then {"total":N,"listed":M}. */
#include "cli.h"

#include <stdio.h>

#include "cli-history.h"

int
cli_history_list (int argc, char **argv)
{
  g_auto (CliHistoryOptions) o = { 0 };
  g_autofree char *limit = NULL;
  const GOptionEntry entries[] = {
    CLI_HISTORY_FILTER_ENTRIES (o),
    { "limit", 0, 0, G_OPTION_ARG_FILENAME, &limit, N_("At most N games"), "N" },
    G_OPTION_ENTRY_NULL
  };
  const char *cmd = "history list";
  int rc = cli_parse_options (cmd, NULL, N_("The games the table played, newest first, one JSON line each.\n"),
                              entries, &argc, &argv);
  if (rc >= 0)
    return rc;
  HstFilter filter;
  long max = 0;
  if (!cli_history_read_filter (cmd, argc, argv, &o, &filter)
      || (limit != NULL && !cli_parse_long (cmd, "--limit", limit, 1, G_MAXINT, &max)))
    return 2;
  filter.limit = (guint) max;
  g_autoptr (HstStore) store = cli_history_open (cmd, o.db);
  if (store == NULL)
    return 2;
  guint total = 0;
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) games = hst_store_list (store, &filter, &total, &error);
  if (games == NULL)
    return cli_history_fail (cmd, error);
  for (guint i = 0; i < games->len; i++)
    {
      g_autoptr (JsonBuilder) b = json_builder_new ();
      cli_history_add_game (b, games->pdata[i], FALSE);
      cli_history_print (b);
    }
  printf ("{\"total\":%u,\"listed\":%u}\n", total, games->len);
  return 0;
}
