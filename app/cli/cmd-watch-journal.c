/* tablero-cli watch: the journal comes before the table is told anything.
 * Every batch of events is journaled, then printed as JSON lines (and said
 * by the voice); a move that cannot be journaled is held, not announced. */
#include "cmd-watch-private.h"
#include "cli-watch-history.h"
#include "eng-record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef TABLERO_HAVE_SPEECH
#include "spk-sentence.h"
#endif

void
journal_clear (Journal *journal)
{
  g_clear_pointer (&journal->written, free);
  g_clear_pointer (&journal->error, g_free);
  g_clear_pointer (&journal->history, hst_recorder_free);
  if (journal->held != NULL)
    g_string_free (g_steal_pointer (&journal->held), TRUE);
}

bool
journal_sync (Journal *journal, const EngInterpreter *interp)
{
  if (journal->path == NULL)
    return true;
  char *text = eng_record_write (eng_interpreter_record (interp));
  bool was_failing = journal->error != NULL;
  g_clear_pointer (&journal->error, g_free);
  if (text == NULL)
    {
      journal->error = g_strdup ("out of memory");
      return false;
    }
  if (journal->written != NULL && strcmp (text, journal->written) == 0)
    {
      free (text);
      return true;
    }
  GError *error = NULL;
  gboolean ok = g_file_set_contents_full (journal->path, text, -1,
                                          G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                          0644, &error);
  if (!ok)
    {
      if (!was_failing)   /* said once, not at every retry */
        cli_say ("watch", _("cannot write %s: %s"), journal->path, error->message);
      journal->error = g_strdup (error->message);
      g_error_free (error);
      free (text);
      return false;
    }
  free (journal->written);
  journal->written = text;
  return true;
}

static bool
accepts_a_move (const EngEvents *events)
{
  for (size_t i = 0; i < events->n; i++)
    if (events->items[i].kind == ENG_EVENT_ACCEPTED)
      return true;
  return false;
}

static void
print_journal_status (bool ok, const char *text)
{
  GString *line = g_string_new ("{\"kind\":\"journal\",\"ok\":");
  g_string_append (line, ok ? "true,\"text\":" : "false,\"text\":");
  cli_json_string (line, text, strlen (text));
  printf ("%s}\n", line->str);
  g_string_free (line, TRUE);
}

/* Journal first, announce second: whatever the table has been told is
 * already on disk when a kill or a power cut comes.  A move that cannot be
 * journaled is not announced: the table is told the journal fails, the
 * announcements are held and play waits (the caller feeds no look) until
 * a write succeeds, then they come out in order.  false when the journal
 * could not be written. */
bool
watch_publish (EngInterpreter *interp, const EngEvents *events, const EngSetup *setup,
               const EngRuleDocs *details, Journal *journal, SpkVoice *voice, long frame, int64_t time_ns)
{
  cli_watch_history_observe (journal->history, interp, events);
  bool ok = journal_sync (journal, interp);
  GString *lines = g_string_new (NULL);
  if (events->n > 0)
    g_string_append_printf (lines, "{\"kind\":\"frame\",\"frame\":%ld,\"time\":%.3f}\n", frame,
                            time_ns / 1e9);
  for (size_t i = 0; i < events->n; i++)
    {
      cli_event_json (lines, &events->items[i], setup, 0, details);
      g_string_append_c (lines, '\n');
    }
  if (!ok && (journal->blocked || accepts_a_move (events)))
    {
      if (!journal->blocked)
        {
          g_autofree char *text = g_strdup_printf ("The game journal %s cannot be written (%s): "
                                                   "the last move is not counted until it can; "
                                                   "play waits", journal->path,
                                                   journal->error ? journal->error : "?");
          print_journal_status (false, text);
        }
      journal->blocked = true;
      if (journal->held == NULL)
        journal->held = g_string_new (NULL);
      g_string_append (journal->held, lines->str);
    }
  else
    {
      if (journal->blocked && ok)
        {
          print_journal_status (true, "The game journal is written again: play on");
          fputs (journal->held->str, stdout);
          g_string_truncate (journal->held, 0);
          journal->blocked = false;
        }
      fputs (lines->str, stdout);
#ifdef TABLERO_HAVE_SPEECH
      /* the same texts as the JSON lines, said as one utterance; held
       * announcements that come out late are out of date and not said */
      if (voice != NULL)
        {
          SpkPriority priority;
          g_autofree char *utterance = spk_events_utterance (events, &priority);
          spk_voice_say (voice, utterance, priority);
        }
#endif
    }
  g_string_free (lines, TRUE);
  fflush (stdout);
  return ok;
}
