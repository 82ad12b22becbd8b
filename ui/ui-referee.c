#include "ui-referee.h"

#include <glib/gi18n-lib.h>

#include <glib/gstdio.h>
#include <stdlib.h>

#include "eng-data.h"
#include "eng-i18n.h"
#include "eng-interpreter.h"
#include "eng-record.h"
#include "eng-session.h"
#include "hst-recorder.h"
#include "ui-option-docs.h"
#include "ui-report.h"

G_DEFINE_QUARK (ui-referee-error-quark, ui_referee_error)

#define EVENT_CAPACITY 128

struct _UiReferee
{
  GObject parent_instance;

  EngSession *session;
  const EngCardSet *set;      /* the session's */
  EngGame *game;              /* the session's */
  EngInterpreter *interp;     /* the session's */
  GPtrArray *rule_docs;       /* UiRuleDoc: the game's rules in the table's language */
  GHashTable *rules;          /* rule id -> UiRuleDoc in rule_docs */
  gboolean learning;          /* each rule's brief is said the first time it comes up */
  GHashTable *taught;         /* rule ids already explained in this game */
  char *journal_path;         /* NULL: not journaled */
  char *journaled;            /* the text last written there (NULL: none) */
  char *game_id;              /* the registry's name */
  GPtrArray *said;            /* everything announced, oldest first (for the report) */
  GPtrArray *said_rules;      /* the rule id of each, "" none: its details */
  GArray *said_cards;         /* of Named, parallel to said */
  GPtrArray *moves_said;      /* the accepted moves' words, oldest first */
  GArray *moves_cards;        /* of Named, parallel to moves_said */
  GPtrArray *needs;           /* the NEEDs of the last batch that moved the game */
  EngSnapshot *last_snapshot; /* the newest the camera committed */
  EngView *view;              /* the public view, refreshed by ui_referee_get_view */
  gboolean blocked;           /* a move is held until the journal can be written */
  GArray *held;               /* of EngEvent: the announcements held meanwhile */
  HstRecorder *history;       /* keeps the game in the history (docs/history.md) */
  EngEvent event_storage[EVENT_CAPACITY];
};

/* The cards an announcement or a move names by identity: what must be
 * hidden again from the log and the report when one of them goes face down
 * (K20, C11, E16). */
typedef struct {
  guint16 serials[ENG_MOVE_MAX_CARDS + 2];
  guint8 n;
  gint8 player;
} Named;

G_DEFINE_FINAL_TYPE (UiReferee, ui_referee, G_TYPE_OBJECT)

enum { SIGNAL_ANNOUNCE, SIGNAL_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* Rewrites the journal whole and atomically (g_file_set_contents renames
 * a finished temporary file), so a crash, a kill or a power cut leaves the
 * last or the new record, never half of one.  A game with no move yet is
 * journaled too (its table and players: a referee restarted before the
 * first move goes on with them); a finished game removes it: there is
 * nothing to resume.  FALSE (with the reason in *why, transfer full) when
 * it could not be written. */
static gboolean
journal (UiReferee *self, char **why)
{
  if (self->journal_path == NULL)
    return TRUE;
  if (eng_game_is_over (self->game))
    {
      g_unlink (self->journal_path);
      g_clear_pointer (&self->journaled, g_free);
      return TRUE;
    }
  char *text = eng_record_write (eng_interpreter_record (self->interp));
  /* Unchanged text (a batch of mere notes) is not written again. */
  if (text != NULL && g_strcmp0 (text, self->journaled) == 0)
    {
      free (text);
      return TRUE;
    }
  g_autoptr (GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (self->journal_path);
  g_mkdir_with_parents (dir, 0700);
  gboolean ok = text != NULL
                && g_file_set_contents_full (self->journal_path, text, -1,
                                             G_FILE_SET_CONTENTS_CONSISTENT
                                               | G_FILE_SET_CONTENTS_DURABLE,
                                             0600, &error);
  if (ok)
    {
      g_free (self->journaled);
      self->journaled = g_strdup (text);
    }
  else if (why != NULL)
    *why = g_strdup (error ? error->message : _ ("out of memory"));
  free (text);
  return ok;
}

/* Hands a batch of engine events to the views: every event with words for
 * the table is announced; the state is re-read once per batch. */
static void
named_add (Named *n, unsigned serial)
{
  if (serial != 0 && n->n < G_N_ELEMENTS (n->serials))
    n->serials[n->n++] = (guint16) serial;
}

/* The cards move `m` names: the card played, the further cards, the face
 * shown. */
static Named
named_by_move (const EngMove *m)
{
  Named n = { .player = m->player };
  named_add (&n, m->card);
  for (unsigned i = 0; i < m->n_cards && i < ENG_MOVE_MAX_CARDS; i++)
    named_add (&n, m->cards[i]);
  named_add (&n, m->show);
  return n;
}

/* What event `e` names: an accepted move its move's cards (`move`, NULL when
 * unknown), a face shown or captured its serial. */
static Named
named_by_event (const EngEvent *e, const EngMove *move)
{
  if (e->kind == ENG_EVENT_ACCEPTED && move != NULL)
    return named_by_move (move);
  Named n = { .player = e->player };
  if (e->kind == ENG_EVENT_SHOWN || e->kind == ENG_EVENT_TAKEN)
    named_add (&n, (unsigned) e->value);
  return n;
}

/* Whether every card `n` names lies open now. */
static gboolean
named_open (UiReferee *self, const Named *n)
{
  for (guint i = 0; i < n->n; i++)
    if (!eng_interpreter_card_open (self->interp, n->serials[i]))
      return FALSE;
  return TRUE;
}

/* `text` as the table may read it now: itself, or words naming no card when
 * a card it names is face down now.  Transfer full. */
static char *
dup_visible (UiReferee *self, const char *text, const Named *n)
{
  if (named_open (self, n))
    return g_strdup (text);
  const EngView *view = ui_referee_get_view (self);
  if (n->player >= 0 && (unsigned) n->player < view->n_players)
    /* Translators: an old announcement whose card is face down now (K20). */
    return g_strdup_printf (_ ("%s: a card that is face down now was named here; the referee no longer says "
                               "which"), view->players[n->player].name);
  return g_strdup (_ ("A card that is face down now was named here; the referee no longer says which"));
}

/* The move of the batch's `k`-th accepted event (0-based), of `n_accepted`
 * in the batch: the record's last moves, in order.  NULL when the record
 * does not hold them. */
static const EngMove *
batch_move (UiReferee *self, size_t k, size_t n_accepted)
{
  const EngRecord *record = eng_interpreter_record (self->interp);
  if (n_accepted > record->n_moves)
    return NULL;
  return &record->moves[record->n_moves - n_accepted + k].move;
}

static void
remember (UiReferee *self, const EngEvent *e, const EngMove *move)
{
  g_ptr_array_add (self->said, g_strdup (e->text));
  g_ptr_array_add (self->said_rules, g_strdup (e->rule));
  Named n = named_by_event (e, move);
  g_array_append_val (self->said_cards, n);
}

/* A move for the report: the accepted move's own line, then what the rules
 * said it did (the events after it in the same batch, up to the next move),
 * in words: "Ana play 7 ...: Ana lays the card ... (RULE)"; the game words it. */
static void
remember_moves (UiReferee *self, const EngEvents *events, size_t n_accepted)
{
  size_t k = 0;
  for (size_t i = 0; i < events->n; i++)
    {
      if (events->items[i].kind != ENG_EVENT_ACCEPTED)
        continue;
      const EngMove *mv = batch_move (self, k++, n_accepted);
      Named named = mv != NULL ? named_by_move (mv) : (Named){ .player = events->items[i].player };
      GString *move = g_string_new (events->items[i].text);
      const char *sep = ": ";
      for (size_t j = i + 1; j < events->n && events->items[j].kind != ENG_EVENT_ACCEPTED; j++)
        {
          const EngEvent *e = &events->items[j];
          if (e->text[0] == '\0' || e->kind == ENG_EVENT_NEED)
            continue;
          g_string_append_printf (move, "%s%s", sep, e->text);
          if (e->rule[0] != '\0')
            g_string_append_printf (move, " (%s)", e->rule);
          sep = "; ";
          Named more = named_by_event (e, NULL);
          for (guint c = 0; c < more.n; c++)
            named_add (&named, more.serials[c]);
        }
      g_ptr_array_add (self->moves_said, g_string_free (move, FALSE));
      g_array_append_val (self->moves_cards, named);
    }
}

/* Questions ("... Confirm or cancel") are NEEDs the interpreter does not
 * list as expectations: the last batch that accepted a move or asked
 * something says which are open.  A batch of mere notes keeps them. */
static void
remember_needs (UiReferee *self, const EngEvents *events)
{
  gboolean moved = FALSE;
  for (size_t i = 0; i < events->n; i++)
    moved |= events->items[i].kind == ENG_EVENT_ACCEPTED || events->items[i].kind == ENG_EVENT_NEED;
  if (!moved)
    return;
  g_ptr_array_set_size (self->needs, 0);
  for (size_t i = 0; i < events->n; i++)
    if (events->items[i].kind == ENG_EVENT_NEED && events->items[i].text[0] != '\0')
      g_ptr_array_add (self->needs, g_strdup (events->items[i].text));
}

/* Learning: the first time a rule comes up in the game (an event naming
 * it: an attack, a Nope, the mood flip), its brief is said once after the
 * batch, on screen and by voice, as a NOTE naming the rule.  A refusal's
 * rule is explained by the rule panel instead, and counts as told. */
static void
teach (UiReferee *self, const EngEvents *events)
{
  for (size_t i = 0; i < events->n; i++)
    {
      const EngEvent *e = &events->items[i];
      const UiRuleDoc *doc = ui_referee_get_rule (self, e->rule);
      if (e->kind == ENG_EVENT_ACCEPTED || doc == NULL || doc->brief[0] == '\0'
          || g_hash_table_contains (self->taught, doc->id))
        continue;
      g_hash_table_add (self->taught, g_strdup (doc->id));
      if (!self->learning || e->kind == ENG_EVENT_ILLEGAL || e->kind == ENG_EVENT_CONSERVATION)
        continue;
      EngEvent note = { .kind = ENG_EVENT_NOTE, .player = -1, .other = -1 };
      g_strlcpy (note.text, doc->brief, sizeof note.text);
      g_strlcpy (note.rule, doc->id, sizeof note.rule);
      remember (self, &note, NULL);
      g_signal_emit (self, signals[SIGNAL_ANNOUNCE], 0, (guint) ENG_EVENT_NOTE, note.text, note.rule);
    }
}

static void
emit_events_full (UiReferee *self, const EngEvents *events, gboolean journal_anyway);

static void publish (UiReferee *self, const EngEvents *events, gboolean journal_anyway);

static void
emit_events (UiReferee *self, const EngEvents *events)
{
  publish (self, events, FALSE);
}

/* `journal_anyway`: the call changed the record even if it said nothing
 * (a correction), so it is journaled all the same. */
static void
emit_events_full (UiReferee *self, const EngEvents *events, gboolean journal_anyway)
{
  size_t n_accepted = 0, k = 0;
  for (size_t i = 0; i < events->n; i++)
    n_accepted += events->items[i].kind == ENG_EVENT_ACCEPTED;
  for (size_t i = 0; i < events->n; i++)
    {
      const EngEvent *e = &events->items[i];
      const EngMove *move = e->kind == ENG_EVENT_ACCEPTED ? batch_move (self, k++, n_accepted) : NULL;
      if (e->text[0] == '\0')
        continue;
      remember (self, e, move);
      g_signal_emit (self, signals[SIGNAL_ANNOUNCE], 0, (guint) e->kind, e->text, e->rule);
    }
  teach (self, events);
  if (events->dropped > 0)
    {
      g_autofree char *text = g_strdup_printf (_ ("(%zu more messages were dropped)"), events->dropped);
      EngEvent note = { .kind = ENG_EVENT_NOTE, .player = -1, .other = -1 };
      g_strlcpy (note.text, text, sizeof note.text);
      remember (self, &note, NULL);
      g_signal_emit (self, signals[SIGNAL_ANNOUNCE], 0, (guint) ENG_EVENT_NOTE, text, "");
    }
  remember_moves (self, events, n_accepted);
  remember_needs (self, events);
  if (events->n > 0 || journal_anyway)
    g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static gboolean
accepts_a_move (const EngEvents *events)
{
  for (size_t i = 0; i < events->n; i++)
    if (events->items[i].kind == ENG_EVENT_ACCEPTED)
      return TRUE;
  return FALSE;
}

/* Journal first, announce second (the brief's "nothing is lost"): a batch
 * is announced only once the record holding it is on disk.  A move that
 * cannot be journaled is not announced as done: the table is told at once,
 * the batch is held, and play waits (ui_referee_feed reads no look) until
 * a write succeeds; then the held batches come out in order. */
static void
publish (UiReferee *self, const EngEvents *events, gboolean journal_anyway)
{
  g_autofree char *why = NULL;
  /* the game's identity is stamped before it is journaled */
  hst_recorder_observe (self->history, self->interp, events);
  g_autofree char *history_notice = hst_recorder_take_notice (self->history);
  if (history_notice != NULL)
    g_signal_emit (self, signals[SIGNAL_ANNOUNCE], 0, (guint) ENG_EVENT_NOTE, history_notice, "");
  gboolean ok = (events->n == 0 && !journal_anyway) || journal (self, &why);
  if (!ok && (self->blocked || accepts_a_move (events)))
    {
      if (!self->blocked)
        {
          g_autofree char *msg = g_strdup_printf (_ ("The game journal cannot be written (%s): the last move is not counted until it can. Play waits."),
                                                  why);
          g_signal_emit (self, signals[SIGNAL_ANNOUNCE], 0, (guint) ENG_EVENT_NOTE, msg, "");
        }
      self->blocked = TRUE;
      g_array_append_vals (self->held, events->items, events->n);
      return;
    }
  if (!ok)
    {
      /* only notes changed: the table is warned, nothing is held */
      g_autofree char *msg = g_strdup_printf (_ ("The game journal could not be written (%s): a crash now would lose moves."),
                                              why);
      g_signal_emit (self, signals[SIGNAL_ANNOUNCE], 0, (guint) ENG_EVENT_NOTE, msg, "");
    }
  if (self->blocked)
    {
      self->blocked = FALSE;
      g_signal_emit (self, signals[SIGNAL_ANNOUNCE], 0, (guint) ENG_EVENT_NOTE,
                     _ ("The game journal is written again: play on."), "");
      EngEvents held = { (EngEvent *) (void *) self->held->data, self->held->len,
                         self->held->len, 0 };
      emit_events_full (self, &held, FALSE);
      g_array_set_size (self->held, 0);
    }
  emit_events_full (self, events, journal_anyway);
}

/* While a move is held, each look first tries the journal again: TRUE
 * when play may go on. */
static gboolean
journal_unblocked (UiReferee *self)
{
  if (!self->blocked)
    return TRUE;
  EngEvents none = { NULL, 0, 0, 0 };
  publish (self, &none, TRUE);
  return !self->blocked;
}

/* The game's rules in the table's language, found by id; a missing file
 * only means no explanations. */
static void
load_rules (UiReferee *self, const char *game)
{
  self->rule_docs = ui_rule_docs_load_game (game);
  self->rules = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < self->rule_docs->len; i++)
    {
      UiRuleDoc *doc = self->rule_docs->pdata[i];
      g_hash_table_insert (self->rules, doc->id, doc);
    }
}

/* `text` with the words the language elides before a name elided
 * ("Torn d'Ana"): names are known only at run time.  Returns `text`. */
static char *
elided (char *text)
{
  eng_i18n_elide (text);
  return text;
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
  load_rules (self, game);
  self->history = hst_recorder_new (NULL);
  self->game_id = g_strdup (game);
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
  eng_session_clean_journal_leftovers (journal_path);
  return self;
}

void
ui_referee_set_journal (UiReferee *self, const char *path)
{
  g_return_if_fail (UI_IS_REFEREE (self));
  g_free (self->journal_path);
  self->journal_path = g_strdup (path);
  g_clear_pointer (&self->journaled, g_free);
  if (path == NULL)
    return;
  /* temporary files a kill during a write left behind */
  eng_session_clean_journal_leftovers (path);
  /* journal first, for the first word too: nothing is read, so nothing is
   * announced, until the journal is written */
  g_autofree char *why = NULL;
  if (!journal (self, &why))
    {
      self->blocked = TRUE;
      g_autofree char *msg = g_strdup_printf (_ ("The game journal %s cannot be written (%s): the referee waits until it can."),
                                              path, why);
      g_signal_emit (self, signals[SIGNAL_ANNOUNCE], 0, (guint) ENG_EVENT_NOTE, msg, "");
    }
}

void
ui_referee_feed (UiReferee *self, const EngSnapshot *snapshot)
{
  g_return_if_fail (UI_IS_REFEREE (self));
  EngEvents events;
  eng_events_init (&events, self->event_storage, EVENT_CAPACITY);
  *self->last_snapshot = *snapshot;
  if (!journal_unblocked (self))
    return;   /* play waits for the journal */
  /* A finished game has nothing left to referee: the cards being gathered
   * up are not plays to refuse.  Undo (a command) can still reopen it. */
  if (eng_game_is_over (self->game))
    return;
  eng_interpreter_feed (self->interp, snapshot, &events);
  /* a quiet snapshot may still change the table notes the record keeps */
  publish (self, &events, TRUE);
}

void
ui_referee_frame (UiReferee *self)
{
  g_return_if_fail (UI_IS_REFEREE (self));
  if (eng_interpreter_wants_looks (self->interp))
    ui_referee_feed (self, self->last_snapshot);
}

gboolean
ui_referee_command (UiReferee *self, const char *command_id, GError **error)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), FALSE);
  if (!journal_unblocked (self))
    {
      g_set_error (error, UI_REFEREE_ERROR, UI_REFEREE_ERROR_COMMAND,
                   _ ("The game journal cannot be written: play waits until it can"));
      return FALSE;
    }
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

const EngOptions *
ui_referee_get_options (UiReferee *self)
{
  return &eng_interpreter_record (self->interp)->options;
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
   * ("Put the ... and the ... on the discard pile"): say it once. */
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

char **
ui_referee_dup_questions (UiReferee *self)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), NULL);
  size_t n = eng_interpreter_n_expectations (self->interp);
  GPtrArray *out = g_ptr_array_new ();
  for (guint i = 0; i < self->needs->len; i++)
    {
      const char *need = self->needs->pdata[i];
      gboolean listed = FALSE;
      for (size_t j = 0; j < n && !listed; j++)
        listed = g_strcmp0 (eng_interpreter_expectation (self->interp, j), need) == 0;
      for (guint j = 0; j < out->len && !listed; j++)
        listed = g_strcmp0 (out->pdata[j], need) == 0;
      if (!listed)
        g_ptr_array_add (out, g_strdup (need));
    }
  g_ptr_array_add (out, NULL);
  return (char **) g_ptr_array_free (out, FALSE);
}

const UiRuleDoc *
ui_referee_get_rule (UiReferee *self, const char *rule_id)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), NULL);
  if (rule_id == NULL || rule_id[0] == '\0')
    return NULL;
  return g_hash_table_lookup (self->rules, rule_id);
}

const char *
ui_referee_explain_rule (UiReferee *self, const char *rule_id)
{
  const UiRuleDoc *doc = ui_referee_get_rule (self, rule_id);
  return doc != NULL ? doc->text : NULL;
}

void
ui_referee_set_learning (UiReferee *self, gboolean learning)
{
  g_return_if_fail (UI_IS_REFEREE (self));
  self->learning = learning;
}

gboolean
ui_referee_get_learning (UiReferee *self)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), FALSE);
  return self->learning;
}

const char *
ui_referee_get_said_rule (UiReferee *self, guint i)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), NULL);
  g_return_val_if_fail (i < self->said_rules->len, NULL);
  return self->said_rules->pdata[i];
}

static void
ui_referee_finalize (GObject *object)
{
  UiReferee *self = UI_REFEREE (object);
  /* a game left after its first move is kept as it stands */
  if (self->history != NULL)
    hst_recorder_finish (self->history, self->interp, NULL, NULL, NULL);
  g_clear_pointer (&self->history, hst_recorder_free);
  g_clear_pointer (&self->session, eng_session_free);
  g_clear_pointer (&self->rules, g_hash_table_unref);
  g_clear_pointer (&self->rule_docs, g_ptr_array_unref);
  g_clear_pointer (&self->taught, g_hash_table_unref);
  g_free (self->journal_path);
  g_free (self->journaled);
  g_free (self->game_id);
  g_ptr_array_unref (self->said);
  g_ptr_array_unref (self->said_rules);
  g_array_unref (self->said_cards);
  g_ptr_array_unref (self->moves_said);
  g_array_unref (self->moves_cards);
  g_ptr_array_unref (self->needs);
  g_free (self->last_snapshot);
  g_free (self->view);
  g_array_unref (self->held);
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
  self->said = g_ptr_array_new_with_free_func (g_free);
  self->said_rules = g_ptr_array_new_with_free_func (g_free);
  self->taught = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->learning = TRUE;
  self->said_cards = g_array_new (FALSE, FALSE, sizeof (Named));
  self->moves_said = g_ptr_array_new_with_free_func (g_free);
  self->moves_cards = g_array_new (FALSE, FALSE, sizeof (Named));
  self->needs = g_ptr_array_new_with_free_func (g_free);
  self->last_snapshot = g_new0 (EngSnapshot, 1);
  self->held = g_array_new (FALSE, FALSE, sizeof (EngEvent));
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

guint
ui_referee_get_choice (UiReferee *self, int *players, guint max)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), 0);
  return (guint) eng_interpreter_choice (self->interp, players, max);
}

gboolean
ui_referee_choose_player (UiReferee *self, int player, GError **error)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), FALSE);
  EngEvents events;
  eng_events_init (&events, self->event_storage, EVENT_CAPACITY);
  EngStatus status = eng_interpreter_choose_player (self->interp, player, &events);
  if (status != ENG_OK)
    {
      g_set_error (error, UI_REFEREE_ERROR, UI_REFEREE_ERROR_COMMAND,
                   status == ENG_ERR_STATE ? _ ("Nobody is being asked that question any more.")
                                           : _ ("No such player."));
      return FALSE;
    }
  emit_events (self, &events);
  return TRUE;
}

gboolean
ui_referee_correct_card (UiReferee *self, const char *seen_payload, const char *actual_payload,
                         GError **error)
{
  g_return_val_if_fail (UI_IS_REFEREE (self) && seen_payload != NULL, FALSE);
  EngEvents events;
  eng_events_init (&events, self->event_storage, EVENT_CAPACITY);
  EngStatus status = eng_interpreter_correct_card (self->interp, seen_payload, actual_payload, &events);
  if (status != ENG_OK)
    {
      g_set_error (error, UI_REFEREE_ERROR, UI_REFEREE_ERROR_CORRECTION, _ ("The correction was refused: %s"),
                   status == ENG_ERR_INVALID_ARGUMENT ? _ ("the two cards must be faces of the same deck")
                   : status == ENG_ERR_NOT_FOUND      ? _ ("that card is not in this game's set")
                   : status == ENG_ERR_LIMIT          ? _ ("too many corrections are held")
                                                      : eng_status_to_string (status));
      return FALSE;
    }
  publish (self, &events, TRUE);
  return TRUE;
}

guint
ui_referee_n_corrections (UiReferee *self)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), 0);
  return (guint) eng_interpreter_n_corrections (self->interp);
}

gboolean
ui_referee_correction (UiReferee *self, guint index, const char **seen_payload, const char **actual_payload)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), FALSE);
  return eng_interpreter_correction (self->interp, index, seen_payload, actual_payload);
}

const EngSnapshot *
ui_referee_get_last_snapshot (UiReferee *self)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), NULL);
  return self->last_snapshot;
}

char *
ui_referee_dup_card_name (UiReferee *self, const char *payload)
{
  EngTag tag;
  EngTagMeaning meaning;
  if (payload == NULL || eng_tag_parse (payload, strlen (payload), &tag) != ENG_OK
      || eng_card_set_resolve (self->set, &tag, &meaning) != ENG_OK)
    return g_strdup (payload ? payload : "");
  if (meaning.card != NULL)
    {
      const char *colour = eng_card_attr (meaning.card, "colour");
      const char *value = eng_card_attr (meaning.card, "value");
      /* Translators: the card's name, colour and value (card-set data, English), then its number. */
      return g_strdup_printf (_ ("%s%s%s%s%s (card %u)"), meaning.card->name, colour ? " " : "", colour ? colour : "",
                              value ? " " : "", value ? value : "", meaning.card->serial);
    }
  if (meaning.deck != NULL)
    return g_strdup_printf (_ ("back: %s"), meaning.deck->id);
  return g_strdup (payload);
}

const EngView *
ui_referee_get_view (UiReferee *self)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), NULL);
  if (self->view == NULL)
    self->view = g_new0 (EngView, 1);
  eng_interpreter_public_view (self->interp, self->view);
  return self->view;
}

char *
ui_referee_dup_status (UiReferee *self)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), NULL);
  const EngView *view = ui_referee_get_view (self);
  if (view->over)
    {
      GString *names = g_string_new (NULL);
      for (unsigned p = 0; p < view->n_players; p++)
        if (view->winners & (1u << p))
          g_string_append_printf (names, "%s%s", names->len ? _ (" and ") : "", view->players[p].name);
      char *text = g_strdup_printf (__builtin_popcount (view->winners) > 1 ? _ ("Game over: %s share the victory")
                                                                           : _ ("Game over: %s wins"),
                                    names->str);
      g_string_free (names, TRUE);
      return text;
    }
  int p = view->active >= 0 ? view->active : view->deciding;
  if (p < 0 || (unsigned) p >= view->n_players)
    {
      /* the phase alone starts the line: "The start card is swapped..." */
      char *alone = g_strdup (view->phase);
      eng_i18n_capitalize (alone);
      return alone;
    }
  if (view->deciding >= 0 && view->deciding != p && (unsigned) view->deciding < view->n_players)
    /* Translators: the active player, the player the table waits for, then a phase. */
    return elided (g_strdup_printf (_ ("%s's turn · %s to answer · %s"), view->players[p].name,
                                    view->players[view->deciding].name, view->phase));
  /* Translators: the active player, then what the game is doing (a phase). */
  return elided (g_strdup_printf (_ ("%s's turn · %s"), view->players[p].name, view->phase));
}

char *
ui_referee_dup_captured (UiReferee *self, unsigned player)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), NULL);
  const EngView *view = ui_referee_get_view (self);
  GString *text = g_string_new (NULL);
  if (player >= view->n_players)
    return g_string_free (text, FALSE);
  const EngViewPlayer *vp = &view->players[player];
  if (vp->status[0] != '\0')
    g_string_append (text, vp->status);
  /* a seat's first place is where it plays (the table map draws it); the
   * others (captures, arms) are listed */
  for (unsigned i = 1; i < vp->n_places; i++)
    {
      const EngViewPlace *place = &vp->places[i];
      g_string_append_printf (text, "%s%s: ", text->len ? "; " : "", place->label);
      if (place->n_cards == 0)
        g_string_append (text, place->count > 0 ? "…" : _ ("none"));
      for (unsigned k = 0; k < place->n_cards; k++)
        {
          char name[64];
          if (place->cards[k].serial == 0)
            g_strlcpy (name, _ ("face down"), sizeof name);
          else
            eng_game_card_name (self->game, place->cards[k].serial, FALSE, name, sizeof name);
          g_string_append_printf (text, "%s%s", k ? ", " : "", name);
        }
    }
  return g_string_free (text, FALSE);
}

char *
ui_referee_dup_report (UiReferee *self)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), NULL);
  const EngSetup *setup = eng_game_setup (self->game);
  const EngRecord *record = eng_interpreter_record (self->interp);
  UiReportPlayer players[ENG_MAX_PLAYERS];
  char *captured[ENG_MAX_PLAYERS] = { NULL };
  unsigned n = MIN (setup->n_players, (unsigned) ENG_MAX_PLAYERS);
  for (unsigned p = 0; p < n; p++)
    {
      captured[p] = ui_referee_dup_captured (self, p);
      players[p] = (UiReportPlayer) { .name = setup->names[p], .seat = setup->seats[p],
                                      .score = eng_game_score (self->game, p), .captured = captured[p] };
    }
  /* The switches in force: the rules file, then what the table chose. */
  EngOptions defaults = { 0 };
  g_autofree char *options_name = g_strdup_printf ("rules/%s.options", self->game_id);
  char *options_path = eng_data_path (options_name);
  if (options_path == NULL || eng_options_load_file (options_path, &defaults, NULL) != ENG_OK)
    memset (&defaults, 0, sizeof defaults);
  free (options_path);
  EngOptions options = defaults;
  for (size_t i = 0; i < record->options.n; i++)
    eng_options_set (&options, record->options.items[i].name, record->options.items[i].value);

  GPtrArray *corrections = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < ui_referee_n_corrections (self); i++)
    {
      const char *seen = NULL, *actual = NULL;
      if (!ui_referee_correction (self, i, &seen, &actual))
        break;
      g_autofree char *seen_name = ui_referee_dup_card_name (self, seen);
      g_autofree char *actual_name = ui_referee_dup_card_name (self, actual);
      /* Translators: the sticker's payload, the card it was read as, the card it is. */
      g_ptr_array_add (corrections, g_strdup_printf (_ ("the sticker %s (read as %s) is %s"), seen, seen_name,
                                                     actual_name));
    }
  g_ptr_array_add (corrections, NULL);
  /* what was said and done, with every card face down now unnamed (K20) */
  GPtrArray *moves = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < self->moves_said->len; i++)
    g_ptr_array_add (moves, dup_visible (self, self->moves_said->pdata[i],
                                         &g_array_index (self->moves_cards, Named, i)));
  g_ptr_array_add (moves, NULL);
  GPtrArray *said = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < self->said->len; i++)
    {
      /* the report is for who asks: each announcement with its rule id */
      g_autofree char *text = ui_referee_dup_said (self, i);
      const char *rule = self->said_rules->pdata[i];
      g_ptr_array_add (said, rule[0] != '\0' ? g_strdup_printf ("%s (%s)", text, rule)
                                             : g_steal_pointer (&text));
    }
  g_ptr_array_add (said, NULL);

  g_autofree char *status = ui_referee_dup_status (self);
  g_autoptr (GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *when = g_date_time_format (now, "%Y-%m-%d %H:%M");
  /* the record names every card by number: left out while one it names is
   * face down (the journal keeps it) */
  gboolean record_open = TRUE;
  for (size_t i = 0; i < record->n_moves && record_open; i++)
    {
      Named named = named_by_move (&record->moves[i].move);
      record_open = named_open (self, &named);
    }
  g_autofree char *record_text = record_open ? ui_referee_dup_record_text (self) : NULL;
  UiReportInput in = {
    .game_title = eng_card_set_game_name (self->set),
    .status = status,
    .when = when,
    .players = players,
    .n_players = n,
    .options = &options,
    .defaults = &defaults,
    .corrections = (const char *const *) corrections->pdata,
    .moves = (const char *const *) moves->pdata,
    .announcements = (const char *const *) said->pdata,
    .record = record_text,
  };
  char *report = ui_report_build (&in);
  g_ptr_array_unref (moves);
  g_ptr_array_unref (said);
  g_ptr_array_unref (corrections);
  for (unsigned p = 0; p < n; p++)
    g_free (captured[p]);
  return report;
}

guint
ui_referee_n_said (UiReferee *self)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), 0);
  return self->said->len;
}

char *
ui_referee_dup_said (UiReferee *self, guint i)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), NULL);
  g_return_val_if_fail (i < self->said->len, NULL);
  return dup_visible (self, self->said->pdata[i], &g_array_index (self->said_cards, Named, i));
}

int
ui_referee_get_waiting_for (UiReferee *self)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), -1);
  const EngView *view = ui_referee_get_view (self);
  if (view->over)
    return -1;
  int p = view->deciding >= 0 ? view->deciding : view->active;
  return p >= 0 && (unsigned) p < view->n_players ? p : -1;
}

char *
ui_referee_dup_headline (UiReferee *self)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), NULL);
  const EngView *view = ui_referee_get_view (self);
  if (view->over)
    return ui_referee_dup_status (self);
  int p = ui_referee_get_waiting_for (self);
  if (p < 0)
    return g_strdup (view->phase);
  if (view->active >= 0 && p != view->active)
    /* Translators: the player the table waits for (not the one whose turn it is). */
    return elided (g_strdup_printf (_ ("%s to answer"), view->players[p].name));
  return elided (g_strdup_printf (_ ("%s's turn"), view->players[p].name));
}

gboolean
ui_referee_awaits_turn_command (UiReferee *self)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), FALSE);
  const EngView *view = ui_referee_get_view (self);
  if (view->over || view->active < 0 || (view->deciding >= 0 && view->deciding != view->active))
    return FALSE;
  if (!eng_interpreter_started (self->interp) || eng_interpreter_restoring (self->interp))
    return FALSE;
  int players[ENG_MAX_PLAYERS];
  if (eng_interpreter_choice (self->interp, players, G_N_ELEMENTS (players)) > 0)
    return FALSE;
  /* cards to put right come before ending the turn */
  return eng_interpreter_n_expectations (self->interp) == 0;
}

gboolean
ui_referee_is_over (UiReferee *self)
{
  g_return_val_if_fail (UI_IS_REFEREE (self), FALSE);
  return eng_game_is_over (self->game);
}
