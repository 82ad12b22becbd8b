/* hst-recorder.c: the live referee's memory (hst-recorder.h). */
#include "hst-recorder.h"

#include <glib/gi18n-lib.h>
#include <string.h>

struct HstRecorder
{
  char *path;               /* NULL: the default */
  HstStore *store;          /* opened when first needed */
  gboolean unavailable;     /* the last open failed: tried again only to write a game */
  GString *notice;          /* what the table should read, "" nothing */
  GArray *written;          /* EngMove: the moves of the last game written */
  gboolean written_over;
  char written_id[ENG_RECORD_ID_MAX];
  gint64 written_game;      /* its id in the history */
  HstPut written_put;       /* and what the history did with it */
};

HstRecorder *
hst_recorder_new (const char *path)
{
  HstRecorder *recorder = g_new0 (HstRecorder, 1);
  recorder->path = g_strdup (path);
  recorder->notice = g_string_new (NULL);
  recorder->written = g_array_new (FALSE, FALSE, sizeof (EngMove));
  return recorder;
}

void
hst_recorder_free (HstRecorder *recorder)
{
  if (recorder == NULL)
    return;
  hst_store_free (recorder->store);
  g_free (recorder->path);
  g_string_free (recorder->notice, TRUE);
  g_array_unref (recorder->written);
  g_free (recorder);
}

static void
add_notice (HstRecorder *recorder, const char *text)
{
  if (recorder->notice->len > 0)
    g_string_append_c (recorder->notice, '\n');
  g_string_append (recorder->notice, text);
}

char *
hst_recorder_take_notice (HstRecorder *recorder)
{
  if (recorder->notice->len == 0)
    return NULL;
  char *text = g_strdup (recorder->notice->str);
  g_string_truncate (recorder->notice, 0);
  return text;
}

/* The store, opened now when it is not yet; NULL (said once) when it
 * cannot be. */
static HstStore *
store (HstRecorder *recorder, gboolean retry, GError **error)
{
  if (recorder->store != NULL || (recorder->unavailable && !retry))
    return recorder->store;
  g_autofree char *set_aside = NULL;
  g_autoptr (GError) local = NULL;
  recorder->store = hst_store_open (recorder->path, &set_aside, &local);
  if (set_aside != NULL)
    add_notice (recorder, set_aside);
  if (recorder->store == NULL)
    {
      if (!recorder->unavailable)
        {
          g_autofree char *text = g_strdup_printf (_ ("The game history cannot be used: %s"), local->message);
          add_notice (recorder, text);
        }
      recorder->unavailable = TRUE;
      g_propagate_error (error, g_steal_pointer (&local));
      return NULL;
    }
  recorder->unavailable = FALSE;
  return recorder->store;
}

/* The record's identity: an id for a journal made before there were ids,
 * and the time of the first move once there is one. */
static void
stamp (EngInterpreter *interp)
{
  const EngRecord *record = eng_interpreter_record (interp);
  if (record->id[0] != '\0' && (record->started > 0 || record->n_moves == 0))
    return;
  g_autofree char *fresh = record->id[0] == '\0' ? g_uuid_string_random () : NULL;
  gint64 started = record->n_moves > 0 ? g_get_real_time () / G_USEC_PER_SEC : 0;
  eng_interpreter_set_record_id (interp, fresh != NULL ? fresh : record->id, started);
}

static gboolean finish_game (HstRecorder *recorder, EngInterpreter *interp, HstPut *put, gint64 *id,
                             GError **error);

void
hst_recorder_observe (HstRecorder *recorder, EngInterpreter *interp, const EngEvents *events)
{
  stamp (interp);
  const EngRecord *record = eng_interpreter_record (interp);
  gboolean over = FALSE;
  for (size_t i = 0; events != NULL && i < events->n; i++)
    {
      const EngEvent *e = &events->items[i];
      over = over || e->kind == ENG_EVENT_GAME_OVER;
      if (e->kind != ENG_EVENT_ILLEGAL || e->rule[0] == '\0')
        continue;
      /* a refused command names nobody: it was the table's answer for
       * whoever the table waited for */
      int player = e->player;
      if (player < 0)
        {
          EngView view;
          eng_interpreter_public_view (interp, &view);
          player = view.deciding >= 0 ? view.deciding : view.active;
        }
      HstStore *s = store (recorder, FALSE, NULL);
      g_autoptr (GError) error = NULL;
      if (s != NULL && !hst_store_note_refusal (s, record->id, player, e->rule, &error))
        {
          g_autofree char *text = g_strdup_printf (_ ("A refused move could not be kept in the game history: %s"),
                                                   error->message);
          add_notice (recorder, text);
        }
    }
  g_autoptr (GError) error = NULL;
  if (over && !finish_game (recorder, interp, NULL, NULL, &error))
    {
      g_autofree char *text = g_strdup_printf (_ ("The game could not be kept in the history: %s"), error->message);
      add_notice (recorder, text);
    }
}

/* Whether the game as it stands is the one written last. */
static gboolean
already_written (HstRecorder *recorder, const EngRecord *record, gboolean over)
{
  if (recorder->written->len != record->n_moves || recorder->written_over != over
      || strcmp (recorder->written_id, record->id) != 0)
    return FALSE;
  for (size_t i = 0; i < record->n_moves; i++)
    if (memcmp (&g_array_index (recorder->written, EngMove, i), &record->moves[i].move, sizeof (EngMove)) != 0)
      return FALSE;
  return TRUE;
}

static void
remember_written (HstRecorder *recorder, const EngRecord *record, gboolean over)
{
  g_array_set_size (recorder->written, 0);
  for (size_t i = 0; i < record->n_moves; i++)
    g_array_append_val (recorder->written, record->moves[i].move);
  recorder->written_over = over;
  g_strlcpy (recorder->written_id, record->id, sizeof recorder->written_id);
}

static gboolean
finish_game (HstRecorder *recorder, EngInterpreter *interp, HstPut *put, gint64 *id, GError **error)
{
  if (id != NULL)
    *id = 0;
  stamp (interp);
  const EngRecord *record = eng_interpreter_record (interp);
  HstPut result = HST_PUT_KEPT;
  if (record->n_moves == 0)
    {
      if (put != NULL)
        *put = result;
      return TRUE;
    }
  EngView view;
  eng_interpreter_public_view (interp, &view);
  if (already_written (recorder, record, view.over))
    {
      if (put != NULL)
        *put = recorder->written_put;
      if (id != NULL)
        *id = recorder->written_game;
      return TRUE;
    }
  g_autoptr (HstGame) game = hst_game_from_record (record, g_get_real_time () / G_USEC_PER_SEC, error);
  if (game == NULL)
    return FALSE;
  HstStore *s = store (recorder, TRUE, error);
  if (s == NULL)
    return FALSE;
  g_autoptr (GError) local = NULL;
  if (!hst_store_put_game (s, game, &result, &local))
    {
      /* a file damaged since it was opened is set aside by the next open */
      if (!g_error_matches (local, HST_STORE_ERROR, HST_STORE_ERROR_DAMAGED))
        {
          g_propagate_error (error, g_steal_pointer (&local));
          return FALSE;
        }
      g_clear_pointer (&recorder->store, hst_store_free);
      g_clear_error (&local);
      s = store (recorder, TRUE, error);
      if (s == NULL || !hst_store_put_game (s, game, &result, error))
        return FALSE;
    }
  remember_written (recorder, record, view.over);
  recorder->written_game = game->id;
  recorder->written_put = result;
  if (put != NULL)
    *put = result;
  if (id != NULL)
    *id = game->id;
  return TRUE;
}

gboolean
hst_recorder_finish (HstRecorder *recorder, EngInterpreter *interp, HstPut *put, gint64 *id, GError **error)
{
  return finish_game (recorder, interp, put, id, error);
}
