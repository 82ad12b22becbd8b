/* cli-watch-history.c: the history kept by `tablero-cli watch`
 * (cli-watch-history.h). */
#include "cli.h"
#include "cli-watch-history.h"

#include <stdio.h>

static void
print_history (gboolean ok, gint64 id, const char *result, const char *text)
{
  GString *line = g_string_new ("{\"kind\":\"history\",\"ok\":");
  g_string_append (line, ok ? "true" : "false");
  if (id > 0)
    g_string_append_printf (line, ",\"id\":%" G_GINT64_FORMAT, id);
  if (result != NULL)
    g_string_append_printf (line, ",\"result\":\"%s\"", result);
  g_string_append (line, ",\"text\":");
  cli_json_cstring (line, text);
  printf ("%s}\n", line->str);
  g_string_free (line, TRUE);
}

static void
say_notice (HstRecorder *recorder)
{
  g_autofree char *notice = hst_recorder_take_notice (recorder);
  if (notice != NULL)
    print_history (FALSE, 0, NULL, notice);
}

void
cli_watch_history_observe (HstRecorder *recorder, EngInterpreter *interp, const EngEvents *events)
{
  if (recorder == NULL)
    return;
  hst_recorder_observe (recorder, interp, events);
  say_notice (recorder);
}

void
cli_watch_history_finish (HstRecorder *recorder, EngInterpreter *interp)
{
  if (recorder == NULL)
    return;
  HstPut put;
  gint64 id = 0;
  g_autoptr (GError) error = NULL;
  gboolean ok = hst_recorder_finish (recorder, interp, &put, &id, &error);
  say_notice (recorder);
  if (!ok)
    {
      g_autofree char *text = g_strdup_printf ("the game could not be kept in the history: %s", error->message);
      print_history (FALSE, 0, NULL, text);
    }
  else if (id > 0)
    print_history (TRUE, id, hst_put_to_string (put), "the game is kept in the history");
  fflush (stdout);
}
