#include "ui-referee.h"

#include <glib/gstdio.h>
#include <stdlib.h>

#include "eng-data.h"
#include "eng-interpreter.h"
#include "eng-record.h"
#include "eng-session.h"

G_DEFINE_QUARK (ui-referee-error-quark, ui_referee_error)

#define EVENT_CAPACITY 128

struct _UiReferee
{
  GObject parent_instance;

  EngSession *session;
  const EngCardSet *set;      /* the session's */
  EngGame *game;              /* the session's */
  EngInterpreter *interp;     /* the session's */
  GHashTable *explanations;   /* rule id -> text */
  char *journal_path;         /* NULL: not journaled */
  EngEvent event_storage[EVENT_CAPACITY];
};

G_DEFINE_FINAL_TYPE (UiReferee, ui_referee, G_TYPE_OBJECT)

enum { SIGNAL_ANNOUNCE, SIGNAL_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* Rewrites the journal whole and atomically (g_file_set_contents renames
 * a finished temporary file), so a crash, a kill or a power cut leaves the
 * last or the new record, never half of one.  A finished game, or one with
 * no move yet, removes it: there is nothing to resume. */
static void
journal (UiReferee *self)
{
  if (self->journal_path == NULL)
    return;
  if (eng_game_is_over (self->game) || eng_interpreter_record (self->interp)->n_moves == 0)
    {
      g_unlink (self->journal_path);
      return;
    }
  char *text = eng_record_write (eng_interpreter_record (self->interp));
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (self->journal_path);
  g_mkdir_with_parents (dir, 0700);
  if (text == NULL
      || !g_file_set_contents_full (self->journal_path, text, -1,
                                    G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                    0600, &error))
    {
      g_autofree char *msg = g_strdup_printf ("The game journal could not be written (%s): a crash now would lose moves.",
                                              error ? error->message : "out of memory");
      g_signal_emit (self, signals[SIGNAL_ANNOUNCE], 0, (guint) ENG_EVENT_NOTE, msg, "");
    }
  free (text);
}

/* Hands a batch of engine events to the views: every event with words for
 * the table is announced; the state is re-read once per batch. */
static void
emit_events (UiReferee *self, const EngEvents *events)
{
  for (size_t i = 0; i < events->n; i++)
    {
      const EngEvent *e = &events->items[i];
      if (e->text[0] != '\0')
        g_signal_emit (self, signals[SIGNAL_ANNOUNCE], 0, (guint) e->kind, e->text, e->rule);
    }
  if (events->dropped > 0)
    {
      g_autofree char *text = g_strdup_printf ("(%zu more messages were dropped)", events->dropped);
      g_signal_emit (self, signals[SIGNAL_ANNOUNCE], 0, (guint) ENG_EVENT_NOTE, text, "");
    }
  gboolean accepted = FALSE;
  for (size_t i = 0; i < events->n; i++)
    accepted |= events->items[i].kind == ENG_EVENT_ACCEPTED;
  if (accepted)
    journal (self);
  if (events->n > 0)
    g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

/* Reads "ID: text" lines; a missing file only means no explanations. */
static GHashTable *
load_explanations (const char *game)
{
  GHashTable *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autofree char *name = g_strdup_printf ("rules/%s.rules", game);
  char *path = eng_data_path (name);
  g_autofree char *text = NULL;
  if (path != NULL && g_file_get_contents (path, &text, NULL, NULL))
    {
      g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
      for (char **l = lines; *l; l++)
        {
          const char *colon = strchr (*l, ':');
          if (**l == '#' || colon == NULL)
            continue;
          g_hash_table_insert (table, g_strstrip (g_strndup (*l, (gsize) (colon - *l))),
                               g_strstrip (g_strdup (colon + 1)));
        }
    }
  free (path);
  return table;
}

/* Finishes a referee around a session (taken) for `game`. */
static UiReferee *
referee_from_session (EngSession *session, const char *game)
{
  UiReferee *self = g_object_new (UI_TYPE_REFEREE, NULL);
  self->session = session;
  self->set = eng_session_card_set (session);
  self->game = eng_session_game (session);
  self->interp = eng_session_interpreter (session);
  self->explanations = load_explanations (game);
  return self;
}

static void
set_session_error (GError **error, EngStatus status, const char *why)
{
  g_set_error (error, UI_REFEREE_ERROR,
               status == ENG_ERR_IO || status == ENG_ERR_SYNTAX ? UI_REFEREE_ERROR_DATA
                                                                : UI_REFEREE_ERROR_SETUP,
               "%s", why[0] ? why : eng_status_to_string (status));
}

UiReferee *
ui_referee_new (const char *game, const EngSetup *setup, const EngOptions *options,
                GError **error)
{
  g_return_val_if_fail (game != NULL && setup != NULL, NULL);
  EngSession *session = NULL;
  char why[512] = "";
  EngStatus status = eng_session_new (game, setup, options, (uint64_t) g_get_real_time (),
                                      &session, why, sizeof why);
  if (status != ENG_OK)
    {
      set_session_error (error, status, why);
      return NULL;
    }
  return referee_from_session (session, game);
}

UiReferee *
ui_referee_resume (const char *journal_path, GError **error)
{
  g_return_val_if_fail (journal_path != NULL, NULL);
  EngSession *session = NULL;
  char why[512] = "";
  EngStatus status = eng_session_resume (journal_path, &session, why, sizeof why);
  if (status != ENG_OK)
    {
      set_session_error (error, status, why);
      return NULL;
    }
  UiReferee *self = referee_from_session (session, eng_game_class (eng_session_game (session))->name);
  self->journal_path = g_strdup (journal_path);
  return self;
}

void
ui_referee_set_journal (UiReferee *self, const char *path)
{
  g_return_if_fail (UI_IS_REFEREE (self));
  g_free (self->journal_path);
  self->journal_path = g_strdup (path);
  if (path != NULL)
    journal (self);
}

void
ui_referee_feed (UiReferee *self, const EngSnapshot *snapshot)
{
  g_return_if_fail (UI_IS_REFEREE (self));
  EngEvents events;
  eng_events_init (&events, self->event_storage, EVENT_CAPACITY);
  eng_interpreter_feed (self->interp, snapshot, &events);
  emit_events (self, &events);
}

gboolean
ui_referee_command (UiReferee *self, const char *command_id, GError **error)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), FALSE);
  EngEvents events;
  eng_events_init (&events, self->event_storage, EVENT_CAPACITY);
  EngStatus status = eng_interpreter_command (self->interp, command_id, &events);
  if (status == ENG_ERR_NOT_FOUND || status == ENG_ERR_NOT_SUPPORTED)
    {
      g_set_error (error, UI_REFEREE_ERROR, UI_REFEREE_ERROR_COMMAND,
                   "unknown command '%s'", command_id);
      return FALSE;
    }
  emit_events (self, &events);
  return TRUE;
}

const EngCardSet *
ui_referee_get_card_set (UiReferee *self)
{
  return self->set;
}

const EngGame *
ui_referee_get_game (UiReferee *self)
{
  return self->game;
}

const EngSetup *
ui_referee_get_setup (UiReferee *self)
{
  return eng_game_setup (self->game);
}

char *
ui_referee_dup_record_text (UiReferee *self)
{
  char *text = eng_record_write (eng_interpreter_record (self->interp));
  char *copy = g_strdup (text);
  free (text);
  return copy;
}

char **
ui_referee_dup_expectations (UiReferee *self)
{
  /* One card each, but cards cleared together share one instruction
   * ("Put the blue UFO and the tricolor UFO on the discard pile"): say it once. */
  size_t n = eng_interpreter_n_expectations (self->interp);
  GPtrArray *out = g_ptr_array_new ();
  for (size_t i = 0; i < n; i++)
    {
      const char *text = eng_interpreter_expectation (self->interp, i);
      gboolean seen = FALSE;
      for (guint j = 0; j < out->len && !seen; j++)
        seen = g_strcmp0 (out->pdata[j], text) == 0;
      if (!seen)
        g_ptr_array_add (out, g_strdup (text));
    }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

const char *
ui_referee_explain_rule (UiReferee *self, const char *rule_id)
{
  if (rule_id == NULL || rule_id[0] == '\0')
    return NULL;
  return g_hash_table_lookup (self->explanations, rule_id);
}

static void
ui_referee_finalize (GObject *object)
{
  UiReferee *self = UI_REFEREE (object);
  g_clear_pointer (&self->session, eng_session_free);
  g_clear_pointer (&self->explanations, g_hash_table_unref);
  g_free (self->journal_path);
  G_OBJECT_CLASS (ui_referee_parent_class)->finalize (object);
}

static void
ui_referee_class_init (UiRefereeClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = ui_referee_finalize;
  signals[SIGNAL_ANNOUNCE] = g_signal_new ("announce", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 3,
                                           G_TYPE_UINT, G_TYPE_STRING, G_TYPE_STRING);
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                          0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
ui_referee_init (UiReferee *self)
{
}

guint
ui_referee_get_card_in_play (UiReferee *self)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), 0);
  const EngRecord *record = eng_interpreter_record (self->interp);
  if (record->n_moves == 0 || eng_game_is_over (self->game))
    return 0;
  const EngMove *last = &record->moves[record->n_moves - 1].move;
  return last->card != 0 ? last->card : last->show;
}
