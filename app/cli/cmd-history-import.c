/* tablero-cli history import FILE...: game records, journals and play
 * lists (docs/history.md) join the history; one JSON line a game says
 * whether it was added, replaced (the same game further on) or kept
 * (already there).  A file that cannot be imported is said with where and
 * why, and the command exits 2 (the files before it stay imported). */
#include "cli.h"

#include <stdio.h>

#include "cli-history.h"
#include "hst-io.h"

static void
print_imported (const char *file, const HstImported *im)
{
  GString *line = g_string_new ("{\"file\":");
  cli_json_cstring (line, file);
  g_string_append_printf (line, ",\"id\":%" G_GINT64_FORMAT ",\"uid\":", im->id);
  cli_json_cstring (line, im->uid);
  g_string_append (line, ",\"game\":");
  cli_json_cstring (line, im->game);
  g_string_append_printf (line, ",\"moves\":%u,\"finished\":%s,\"result\":\"%s\"}", im->n_moves,
                          im->finished ? "true" : "false", hst_put_to_string (im->put));
  printf ("%s\n", line->str);
  g_string_free (line, TRUE);
}

int
cli_history_import (int argc, char **argv)
{
  g_autofree char *db = NULL;
  const GOptionEntry entries[] = { CLI_HISTORY_DB_ENTRY (db), G_OPTION_ENTRY_NULL };
  const char *cmd = "history import";
  int rc = cli_parse_options (cmd, N_("FILE..."),
                              N_("Game records (.rec), journals and play lists made by `history export\n"
                                 "--format bgstats` join the history.  A record is refereed again, so\n"
                                 "scores and winners are the rules'.\n"),
                              entries, &argc, &argv);
  if (rc >= 0)
    return rc;
  if (argc < 2)
    {
      fprintf (stderr, "%s tablero-cli history import FILE...\n", _("usage:"));
      cli_try_help (cmd);
      return 2;
    }
  g_autoptr (HstStore) store = cli_history_open (cmd, db);
  if (store == NULL)
    return 2;
  for (int i = 1; i < argc; i++)
    {
      g_autoptr (GPtrArray) imported = g_ptr_array_new_with_free_func ((GDestroyNotify) hst_imported_free);
      g_autoptr (GError) error = NULL;
      gboolean ok = hst_import_file (store, argv[i], imported, &error);
      for (guint k = 0; k < imported->len; k++)
        print_imported (argv[i], imported->pdata[k]);
      fflush (stdout);
      if (!ok)
        return cli_history_fail (cmd, error);
    }
  return 0;
}
