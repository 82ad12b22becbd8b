/* tablero-cli history export --format csv|bgstats [-o FILE] [filters]:
 * the games as CSV (one row per player per game) or as a BG Stats-style
 * JSON play list that `history import` reads back. */
#include "cli.h"
#include "cli-history.h"
#include "hst-io.h"

#include <stdio.h>

int
cli_history_export (int argc, char **argv)
{
  g_auto (CliHistoryOptions) o = { 0 };
  g_autofree char *format = NULL, *output = NULL;
  const GOptionEntry entries[] = {
    CLI_HISTORY_FILTER_ENTRIES (o),
    { "format", 0, 0, G_OPTION_ARG_FILENAME, &format, N_("csv or bgstats (default csv)"), "csv|bgstats" },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Write to FILE (default: standard output)"), N_("FILE") },
    G_OPTION_ENTRY_NULL
  };
  const char *cmd = "history export";
  int rc = cli_parse_options (cmd, NULL,
                              N_("The history as CSV (a row per player per game) or as a BG Stats-style JSON\n"
                                 "play list, which `tablero-cli history import` reads back.\n"),
                              entries, &argc, &argv);
  if (rc >= 0)
    return rc;
  HstFilter filter;
  if (!cli_history_read_filter (cmd, argc, argv, &o, &filter))
    return 2;
  gboolean csv = format == NULL || strcmp (format, "csv") == 0;
  if (!csv && strcmp (format, "bgstats") != 0)
    {
      cli_say (cmd, _("--format takes csv or bgstats, not '%s'"), format);
      return 2;
    }
  g_autoptr (HstStore) store = cli_history_open (cmd, o.db);
  if (store == NULL)
    return 2;
  g_autoptr (GError) error = NULL;
  g_autofree char *text = csv ? hst_export_csv (store, &filter, &error) : hst_export_json (store, &filter, &error);
  if (text == NULL)
    return cli_history_fail (cmd, error);
  if (output == NULL)
    {
      fputs (text, stdout);
      return 0;
    }
  if (!g_file_set_contents_full (output, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644, &error))
    {
      cli_say (cmd, _("cannot write %s: %s"), output, error->message);
      return 2;
    }
  guint total = 0;
  g_autoptr (GPtrArray) games = hst_store_list (store, &filter, &total, &error);
  GString *line = g_string_new ("{\"exported\":");
  g_string_append_printf (line, "%u,\"format\":\"%s\",\"file\":", total, csv ? "csv" : "bgstats");
  cli_json_cstring (line, output);
  printf ("%s}\n", line->str);
  g_string_free (line, TRUE);
  return 0;
}
