/* eng-interpreter.c: the live referee's core, the same for every game
 * (docs/interpreter.md).
 *
 * A look (snapshot) is read into the table (eng-live-table.c), compared
 * with the view, and each change no expectation or complaint accounts for
 * goes to the game's live class.  This file holds the life of an
 * interpreter: the first look (baseline), each look after it, commands,
 * undo, applying moves, and the public accessors.  The journal is
 * eng-live-journal.c; corrections of misreads eng-live-correct.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-i18n.h"
#include "eng-live-private.h"

/* ---- life ------------------------------------------------------------------- */

EngStatus
eng_interpreter_new (EngGame *game, const EngCardSet *set, EngInterpreter **out)
{
  if (out == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  *out = NULL;
  if (game == NULL || set == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  const EngLiveClass *klass = eng_live_class_find (eng_game_class (game)->name);
  if (klass == NULL)
    return ENG_ERR_NOT_SUPPORTED;
  EngInterpreter *it = calloc (1, sizeof *it);
  if (it == NULL)
    return ENG_ERR_NO_MEMORY;
  it->game = game;
  it->set = set;
  it->klass = klass;
  for (size_t i = 0; i < eng_card_set_n_cards (set); i++)
    {
      const EngCard *card = eng_card_set_card (set, i);
      if (card->serial < ENG_LIVE_SERIALS)
        it->deck_of[card->serial] = (uint8_t) card->deck;
    }
  it->memo = g_array_new (FALSE, FALSE, sizeof (EngLiveMind));
  it->record = eng_record_new (eng_game_class (game), eng_game_setup (game), NULL);
  it->before = malloc (eng_game_class (game)->state_size);
  it->data = klass->data_size > 0 ? calloc (1, klass->data_size) : NULL;
  if (it->record == NULL || it->before == NULL || (klass->data_size > 0 && it->data == NULL))
    {
      eng_interpreter_free (it);
      return ENG_ERR_NO_MEMORY;
    }
  EngStatus st = klass->init != NULL ? klass->init (it, it->data) : ENG_OK;
  if (st != ENG_OK)
    {
      eng_interpreter_free (it);
      return st;
    }
  *out = it;
  return ENG_OK;
}

void
eng_interpreter_free (EngInterpreter *interp)
{
  if (interp == NULL)
    return;
  if (interp->memo != NULL)
    g_array_free (interp->memo, TRUE);
  eng_record_free (interp->record);
  free (interp->before);
  free (interp->data);
  free (interp);
}

EngStatus
eng_interpreter_adopt_record (EngInterpreter *interp, const EngRecord *record)
{
  if (interp == NULL || record == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  if (interp->record->n_moves > 0 || interp->memo->len > 0)
    return ENG_ERR_STATE;
  interp->record->options = record->options;
  memcpy (interp->record->id, record->id, sizeof record->id);
  interp->record->started = record->started;
  for (size_t i = 0; i < record->n_moves; i++)
    if (eng_record_append (interp->record, &record->moves[i].move, 0) != ENG_OK)
      {
        interp->record->n_moves = 0;
        return ENG_ERR_NO_MEMORY;
      }
  interp->n_unsaved = record->n_moves;
  /* corrections naming cards this set does not have are dropped */
  for (size_t i = 0; i < record->n_corrections; i++)
    {
      uint16_t seen, actual;
      const EngRecordCorrection *c = &record->corrections[i];
      if (live_face_of_payload (interp, c->seen, &seen) != ENG_OK
          || live_face_of_payload (interp, c->actual, &actual) != ENG_OK
          || interp->n_corr >= ENG_RECORD_MAX_CORRECTIONS
          || eng_record_set_correction (interp->record, c->seen, c->actual) != ENG_OK)
        continue;
      interp->corr[interp->n_corr].seen = seen;
      interp->corr[interp->n_corr].actual = actual;
      snprintf (interp->corr[interp->n_corr].seen_payload, ENG_SNAPSHOT_PAYLOAD, "%s", c->seen);
      snprintf (interp->corr[interp->n_corr].actual_payload, ENG_SNAPSHOT_PAYLOAD, "%s",
                c->actual);
      interp->n_corr++;
    }
  /* the table notes: the mind to go on from; unreadable ones are ignored
   * (the first look is then a baseline against the state) */
  EngLiveMind *m = calloc (1, sizeof *m);
  size_t first_memo = 0;
  bool pend_known = false;
  if (m == NULL)
    return ENG_ERR_NO_MEMORY;
  if (record->notes != NULL && record->notes_len > 0 && !interp->started
      && live_notes_parse (interp, record->notes, m, interp->memo, &first_memo,
                           &interp->pend_start, &pend_known)
      && (interp->memo->len == 0 || first_memo + interp->memo->len == record->n_moves))
    {
      interp->mind = *m;
      for (int i = 0; i < interp->n_cur; i++)
        if (interp->cur[i].kind == 'F')
          interp->cur[i].serial = live_corrected (interp, interp->cur_read[i]);
      /* the last look, to tell whether the tracker is the same one */
      memcpy (interp->journaled_cur, interp->cur, interp->n_cur * sizeof interp->cur[0]);
      interp->journaled_n_cur = interp->n_cur;
      interp->started = true;
      interp->resume_journal = true;
      interp->restoring_journaled = interp->restoring;
      interp->resume_first_ns = -1;
      memcpy (interp->resume_cmds, interp->commands_seen, sizeof interp->commands_seen);
      interp->n_resume_cmds = interp->n_commands_seen;
      interp->pend_start_known = pend_known;
      interp->n_unsaved = record->n_moves - interp->memo->len;
      if (eng_record_set_notes (interp->record, record->notes, record->notes_len) != ENG_OK)
        eng_record_set_notes (interp->record, "", 0);
    }
  else
    {
      g_array_set_size (interp->memo, 0);
      memset (&interp->pend_start, 0, sizeof interp->pend_start);
      interp->pend_start_known = false;
      interp->restoring = false;
      interp->paused = false;
      interp->n_commands_seen = 0;
      interp->n_complaints = 0;
      interp->n_cur = 0;
    }
  free (m);
  return ENG_OK;
}

void
eng_interpreter_set_away (EngInterpreter *interp, int64_t away_ns)
{
  if (interp != NULL && away_ns >= 0)
    interp->away_ns = away_ns;
}

EngStatus
eng_interpreter_set_record_options (EngInterpreter *interp, const EngOptions *overrides)
{
  if (interp == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  if (interp->record->n_moves > 0)
    return ENG_ERR_STATE;
  if (overrides != NULL)
    interp->record->options = *overrides;
  else
    memset (&interp->record->options, 0, sizeof interp->record->options);
  return ENG_OK;
}

EngStatus
eng_interpreter_set_record_id (EngInterpreter *interp, const char *id, int64_t started)
{
  if (interp == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  return eng_record_set_id (interp->record, id, started);
}

const EngRecord *
eng_interpreter_record (const EngInterpreter *interp)
{
  return interp ? interp->record : NULL;
}

size_t
eng_interpreter_n_expectations (const EngInterpreter *interp)
{
  return interp ? interp->mind.n_expect : 0;
}

const char *
eng_interpreter_expectation (const EngInterpreter *interp, size_t index)
{
  if (interp == NULL || index >= interp->mind.n_expect)
    return NULL;
  return interp->mind.expect[index].text;
}

bool
eng_interpreter_started (const EngInterpreter *interp)
{
  return interp != NULL && interp->started;
}

bool
eng_interpreter_wants_looks (const EngInterpreter *interp)
{
  return interp != NULL && interp->resume_journal && interp->resume_first_ns >= 0;
}

bool
eng_interpreter_restoring (const EngInterpreter *interp)
{
  return interp != NULL && interp->restoring;
}

const EngGameClass *
eng_interpreter_game_class (const EngInterpreter *interp)
{
  return interp != NULL ? eng_game_class (interp->game) : NULL;
}

void
eng_interpreter_public_view (const EngInterpreter *interp, EngView *view)
{
  eng_game_public_view (interp->game, view);
  if (interp->klass->view != NULL)
    interp->klass->view (interp, view);
  if (interp->gap_asked != NULL)
    view->deciding = (int8_t) interp->gap_player;
}

/* ---- applying moves (for game modules) ------------------------------------------ */

static void
push_memo (EngInterpreter *it, const EngLiveMind *before)
{
  g_array_append_vals (it->memo, before, 1);
  g_array_index (it->memo, EngLiveMind, it->memo->len - 1).no_view = 0;
  it->memo_version++;
}

/* The rules say what a player must do next in general words (a NEED with
 * no rule id: "Ana: play a Defuse or explode"), for a replay; the live
 * class says it for the table ("Ana: lay a Defuse in your play area, or
 * show end-turn ...").  Told both, a table reads and hears the same thing
 * twice, so the rules' one goes when the live class addressed the same
 * player.  Rules events are [from, rules_end), the live class's follow;
 * returns where the live class's start once the rules' are dropped. */
static size_t
drop_superseded_needs (EngEvents *out, size_t from, size_t rules_end)
{
  if (out == NULL)
    return 0;
  size_t kept = from, live_from = rules_end;
  for (size_t i = from; i < out->n; i++)
    {
      const EngEvent *e = &out->items[i];
      bool superseded = false;
      /* player -1: said to everyone ("anyone may Nope"), as the live
       * class's own words to everyone are */
      if (i < rules_end && e->kind == ENG_EVENT_NEED && e->rule[0] == '\0')
        for (size_t j = rules_end; j < out->n && !superseded; j++)
          superseded = out->items[j].kind == ENG_EVENT_NEED && out->items[j].rule[0] != '\0'
                       && out->items[j].player == e->player;
      if (superseded)
        {
          live_from--;
          continue;
        }
      if (kept != i)
        out->items[kept] = out->items[i];
      kept++;
    }
  out->n = kept;
  return live_from;
}

/* What the table must do about the move just made (the live class's
 * NEEDs: cards to the pile, a card to a capture area, a refill) is said
 * before what comes next (the next turn, the rules' "play more cards or
 * end your turn"), so a table hears "... put the blue 2 on the discard
 * pile. Bea's turn. Bea: play..." in the order it acts.
 * The live class's events, from `live_from` on, move up to the rules'
 * first TURN or NEED of the move, [from, live_from). */
static void
tidy_before_the_turn (EngEvents *out, size_t from, size_t live_from)
{
  if (out == NULL || live_from == 0 || live_from >= out->n)
    return;
  size_t turn = live_from;
  for (size_t i = from; i < live_from && turn == live_from; i++)
    if (out->items[i].kind == ENG_EVENT_TURN || out->items[i].kind == ENG_EVENT_NEED)
      turn = i;
  if (turn == live_from)
    return;
  /* rotate [turn, n) so that [live_from, n) comes first: three reversals */
  size_t n = out->n;
  for (size_t a = turn, b = live_from - 1; a < b; a++, b--)
    {
      EngEvent t = out->items[a];
      out->items[a] = out->items[b];
      out->items[b] = t;
    }
  for (size_t a = live_from, b = n - 1; a < b; a++, b--)
    {
      EngEvent t = out->items[a];
      out->items[a] = out->items[b];
      out->items[b] = t;
    }
  for (size_t a = turn, b = n - 1; a < b; a++, b--)
    {
      EngEvent t = out->items[a];
      out->items[a] = out->items[b];
      out->items[b] = t;
    }
}

bool
eng_live_try_apply (EngInterpreter *live, const EngMove *move, const EngLiveChange *c,
                    EngEvents *out)
{
  EngInterpreter *it = live;
  size_t state_size = eng_game_class (it->game)->state_size;
  /* after_move may apply no move itself, so one buffer serves */
  memcpy (it->before, eng_game_state (it->game), state_size);
  EngVerdict why;
  size_t mark = out != NULL ? out->n : 0;
  EngStatus st = eng_game_apply (it->game, move, out, &why);
  live_hide_unseen (it, out, mark);
  if (st != ENG_OK)
    return false;   /* nothing changed: the mind is as it was */
  /* the undo view: the mind before the move, which the rules left alone */
  push_memo (it, &it->mind);
  eng_record_append (it->record, move, 0);
  if (c != NULL)
    eng_live_accept (it, c);
  size_t rules_end = out != NULL ? out->n : 0;
  if (it->klass->after_move != NULL)
    it->klass->after_move (it, it->before, move, out);
  size_t live_from = drop_superseded_needs (out, mark, rules_end);
  tidy_before_the_turn (out, mark, live_from);
  return true;
}

void
eng_live_begin_pending (EngInterpreter *live, const EngLiveChange *c)
{
  live->pend_start = live->mind;
  live->pend_start_known = true;
  live->memo_version++;
  if (c != NULL)
    eng_live_accept (live, c);
}

bool
eng_live_complete_pending (EngInterpreter *live, const EngMove *move, const EngLiveChange *c,
                           EngEvents *out)
{
  if (!eng_live_try_apply (live, move, c, out))
    return false;
  EngLiveMind *top = eng_live_memo_top (live);
  *top = live->pend_start;
  top->no_view = live->pend_start_known ? 0 : 1;
  live->memo_version++;
  return true;
}

void
eng_live_new_deal (EngInterpreter *live)
{
  memset (&live->mind, 0, sizeof live->mind);
  live->started = false;
  live->new_deal = true;
  live->setup_need[0] = '\0';
  live->n_complaints = 0;
}

EngLiveMind *
eng_live_memo_top (EngInterpreter *live)
{
  if (live->memo->len == 0)
    return NULL;
  return &g_array_index (live->memo, EngLiveMind, live->memo->len - 1);
}

void
eng_live_memo_changed (EngInterpreter *live)
{
  live->memo_version++;
}

/* ---- the first look ------------------------------------------------------------- */

/* Says "The referee sees the table ..." once a baseline is taken. */
static void
say_baseline (EngInterpreter *it, EngEvents *out)
{
  if (it->undo_baseline)
    {
      it->undo_baseline = false;
      eng_live_say (out, ENG_EVENT_NOTE, -1, "", ENG_N_ ("The table is as it was: play on"));
      return;
    }
  if (eng_game_is_over (it->game))
    {
      eng_live_say (out, ENG_EVENT_NOTE, -1, "",
                    ENG_N_ ("The referee sees the table: the game is over"));
      return;
    }
  if (out == NULL)
    return;
  EngView *view = g_new (EngView, 1);
  eng_interpreter_public_view (it, view);
  bool fresh = eng_game_history_depth (it->game) == 0 && it->record->n_moves == 0;
  if (view->active < 0)   /* who starts is not known yet (a hidden start card) */
    eng_live_say (out, ENG_EVENT_NOTE, -1, "",
                  ENG_N_ ("The referee sees the table: the game can start"));
  else
    eng_live_say (out, ENG_EVENT_NOTE, -1, "",
                  fresh ? ENG_N_ ("The referee sees the table: %s starts")
                        : ENG_N_ ("The referee sees the table: %s is to play"),
                  eng_live_player_name (it, view->active));
  g_free (view);
}

/* The first look (or the first after an undo with no saved view) must
 * agree with the game's state, as the game checks it.  Returns false (and
 * says what to fix, once per wording) when the table disagrees. */
bool
live_take_baseline (EngInterpreter *it, EngEvents *out)
{
  char why[160] = "";
  if (!it->klass->baseline_check (it, why, sizeof why))
    {
      bool fresh = it->new_deal
                   || (!it->undo_baseline
                       && ((eng_game_history_depth (it->game) == 0 && it->record->n_moves == 0)
                           || (it->klass->deal_start != NULL && it->klass->deal_start (it))));
      char text[sizeof it->setup_need];
      const char *rule = "table";
      if (fresh)
        it->klass->setup_need (it, why, text, sizeof text, &rule);
      else if (it->undo_baseline)
        snprintf (text, sizeof text, ENG_ ("Put the table back as it was before that move: %s"),
                  why);
      else
        snprintf (text, sizeof text, ENG_ ("Put the table as the game left it: %s"), why);
      if (strcmp (text, it->setup_need) != 0)
        {
          eng_live_say (out, ENG_EVENT_NEED, -1, rule, "%s", text);
          memcpy (it->setup_need, text, sizeof text);
        }
      return false;
    }
  it->setup_need[0] = '\0';
  it->mind.n_view = 0;
  for (int i = 0; i < it->n_cur; i++)
    {
      const EngLiveItem *c = &it->cur[i];
      if (c->zone.kind == ENG_ZONE_NONE)
        continue;
      eng_live_view_add (&it->mind, c);
      if (c->zone.kind == ENG_ZONE_DISCARD && c->kind == 'F')
        eng_live_mark_discarded (&it->mind, c->serial);
    }
  if (it->klass->baseline_done != NULL)
    it->klass->baseline_done (it);
  it->started = true;
  it->new_deal = false;
  say_baseline (it, out);
  const char *rule = it->klass->cleanup_rule != NULL ? it->klass->cleanup_rule : "table";
  for (int i = 0; i < it->mind.n_expect; i++)
    eng_live_say (out, ENG_EVENT_NEED, -1, rule, "%s", it->mind.expect[i].text);
  /* a question the table starts with (who swapped the start card) */
  if (it->klass->settle != NULL)
    it->klass->settle (it, out);
  return true;
}

/* ---- each look -------------------------------------------------------------------- */

/* Compares the table with the view and interprets the changes (or, while
 * restoring, waits for the table to match). */
void
live_read_table (EngInterpreter *it, EngEvents *out)
{
  if (it->restoring)
    {
      live_diff (it);
      if (it->n_changes == 0)
        {
          it->restoring = false;
          eng_live_say (out, ENG_EVENT_NOTE, -1, "", ENG_N_ ("The table is as it was: play on"));
        }
      return;
    }
  if (it->paused)
    return;
  live_diff (it);
  if (it->klass->begin_look != NULL)
    it->klass->begin_look (it);
  for (size_t i = 0; i < it->n_changes; i++)
    live_handle_change (it, &it->changes[i], out);
  if (it->klass->settle != NULL)
    it->klass->settle (it, out);
}

/* After an undo that leaves nothing for the table to do, a still table
 * sends no new look (the pipeline feeds only changes): the last look
 * settles it before the next look or command is read, or the referee
 * would wait for ever.  Found by test-live-random (a 2-player undo and pass). */
static void
restored_by_last_look (EngInterpreter *it, EngEvents *out)
{
  if (!it->restoring || !it->started)
    return;
  live_diff (it);
  if (it->n_changes == 0)
    {
      it->restoring = false;
      eng_live_say (out, ENG_EVENT_NOTE, -1, "", ENG_N_ ("The table is as it was: play on"));
    }
}


/* After a resume, the first full look is read against the journal's mind.
 * A tracker started afresh finds the cards a few at a time: until every
 * card the view has where cards turn over is found again (or for a few
 * looks, or LIVE_RESUME_WAIT_NS of frame time: a card buried under others
 * is never found again) its looks are not read, so a card not found yet is
 * no "vanished" card.  Returns true while waiting. */
static bool
resume_wait (EngInterpreter *it, const EngSnapshot *snap, EngEvents *out)
{
  bool same = live_same_tracker (it);
  int64_t now_ns = snap->time_ns;
  /* the limits count new looks (the tracker found more); the same look fed
   * again ends the wait only once the table has been still a while */
  bool new_look = it->resume_first_ns < 0 || snap->seq != it->resume_seq;
  if (it->resume_first_ns < 0)
    it->resume_first_ns = now_ns;
  if (new_look)
    {
      it->resume_seq = snap->seq;
      it->resume_change_ns = now_ns;
    }
  bool over = new_look ? ++it->resume_looks >= LIVE_RESUME_LOOKS
                           || now_ns - it->resume_first_ns >= LIVE_RESUME_WAIT_NS
                       : now_ns - it->resume_change_ns >= LIVE_RESUME_WAIT_NS;
  if (!same && !live_resume_look_complete (it) && !over)
    return true;
  if (!same)
    live_forget_old_tracks (it);
  it->resume_journal = false;
  if (out != NULL)
    {
      /* a command card shown and taken away meanwhile left no trace: the
       * table is asked to show it again */
      EngView *view = g_new (EngView, 1);
      eng_interpreter_public_view (it, view);
      if (view->active >= 0)
        eng_live_say (out, ENG_EVENT_NOTE, -1, "",
                      ENG_N_ ("The referee goes on where the game was: %s is to play; show again "
                              "any command card shown meanwhile"),
                      eng_live_player_name (it, view->active));
      else   /* nobody's turn yet (who holds the start card is hidden) */
        eng_live_say (out, ENG_EVENT_NOTE, -1, "",
                      ENG_N_ ("The referee goes on where the game was; show again any command "
                              "card shown meanwhile"));
      g_free (view);
    }
  return false;
}

/* ---- answer cards ------------------------------------------------------------ */

static bool
is_answer (const EngInterpreter *it, uint16_t serial)
{
  const EngCommand *cmd = eng_card_set_command (it->set, (size_t) serial - 1);
  return cmd != NULL && (strcmp (cmd->id, "confirm") == 0 || strcmp (cmd->id, "cancel") == 0);
}

/* Whether the table is asked a question now: a gap's command card, or one
 * naming players. */
static bool
question_asked (const EngInterpreter *it)
{
  EngLiveChoice choice;
  return it->gap_asked != NULL || (it->klass->choice != NULL && it->klass->choice (it, &choice));
}

/* While a question is asked, runs the confirm and cancel cards of
 * cmds[0..n) in order (an answer can name the next candidate, and the
 * next card answer that); returns how many cards are left. */
static size_t
answer_first (EngInterpreter *it, uint16_t *cmds, size_t n, EngEvents *out)
{
  size_t kept = 0;
  for (size_t i = 0; i < n; i++)
    {
      if (question_asked (it) && is_answer (it, cmds[i]))
        live_run_command (it, eng_card_set_command (it->set, (size_t) cmds[i] - 1)->id, out);
      else
        cmds[kept++] = cmds[i];
    }
  return kept;
}

/* Moves the confirm and cancel cards of cmds[0..n) to the held answers;
 * returns how many cards are left. */
static size_t
hold_answers (EngInterpreter *it, uint16_t *cmds, size_t n)
{
  size_t kept = 0;
  for (size_t i = 0; i < n; i++)
    {
      bool answer = is_answer (it, cmds[i]);
      if (!answer)
        cmds[kept++] = cmds[i];
      else if (it->n_held_answers < LIVE_MAX_COMMANDS)
        it->held_answers[it->n_held_answers++] = cmds[i];
    }
  return kept;
}

/* The confirm and cancel cards among the look's new command cards
 * cmds[0..n); returns how many cards are left for the look's end.  In the
 * looks just after a restart, such a card may answer the question as the
 * table went on answering it unseen (a cancel shown and taken away
 * meanwhile names another player): it is held while the look itself may
 * answer the question (a lead names the swapper), and made, in order,
 * only if the question is still asked after.  When the look is `reading`,
 * the answer to a question asked is taken before its cards, which may
 * follow from it (the lead after "who swapped?"). */
static size_t
answer_cards (EngInterpreter *it, uint16_t *cmds, size_t n, bool reading, EngEvents *out)
{
  if (it->asked_again && it->catch_up)
    return hold_answers (it, cmds, n);
  if (it->asked_again)
    {
      it->asked_again = false;
      size_t n_held = question_asked (it) ? MIN (it->n_held_answers, LIVE_MAX_COMMANDS - n) : 0;
      memmove (cmds + n_held, cmds, n * sizeof cmds[0]);
      memcpy (cmds, it->held_answers, n_held * sizeof cmds[0]);
      n += n_held;
      it->n_held_answers = 0;
    }
  return reading ? answer_first (it, cmds, n, out) : n;
}

bool
eng_interpreter_card_open (const EngInterpreter *interp, unsigned serial)
{
  return interp != NULL && (eng_game_card_public (interp->game, serial) || eng_live_face_visible (interp, serial));
}

EngStatus
eng_interpreter_feed (EngInterpreter *interp, const EngSnapshot *snap, EngEvents *out)
{
  if (interp == NULL || snap == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  EngInterpreter *it = interp;
  uint16_t new_cmds[LIVE_MAX_COMMANDS];
  size_t n_new_cmds = 0;
  restored_by_last_look (it, out);
  live_complaints_unseen (it);
  /* until the first full look after a resume, a command card counts as
   * new only against those up when the journal was written */
  if (it->resume_journal)
    {
      memcpy (it->commands_seen, it->resume_cmds, sizeof it->resume_cmds);
      it->n_commands_seen = it->n_resume_cmds;
    }
  live_read_snapshot (it, snap, new_cmds, &n_new_cmds, out);
  if (!snap->calibrated)
    {
      live_journal_sync (it);
      return ENG_OK;
    }
  bool baseline = false;
  bool resuming = it->resume_journal;
  bool waiting = resuming && resume_wait (it, snap, out);
  if (resuming && !waiting && (it->away_ns > 0 || it->resume_catch_up))
    {
      it->catch_up = true;
      it->catch_up_until_ns = snap->time_ns + LIVE_CATCH_UP_NS;
      /* what the table answered while the referee was away is not known
       * (a cancel shown and taken away names another player): the
       * question is asked again */
      if (it->away_ns > 0)
        it->asked_again = it->klass->ask_again != NULL && it->klass->ask_again (it, out);
      it->resume_catch_up = false;
    }
  else if (!it->started && it->catch_up_until_ns == 0 && it->away_ns > 0)
    {
      /* resumed from a journal written before the referee saw the table:
       * the table may have set up and played on meanwhile (armed once) */
      it->catch_up = true;
      it->catch_up_until_ns = snap->time_ns + LIVE_CATCH_UP_NS;
    }
  else if (it->catch_up && snap->time_ns > it->catch_up_until_ns)
    it->catch_up = false;
  if (waiting)
    n_new_cmds = 0;
  n_new_cmds = answer_cards (it, new_cmds, n_new_cmds,
                             it->started && !waiting && !it->restoring && !it->paused, out);
  /* a story may start with the table's setup (live_catch_up) */
  bool told = !it->started && it->catch_up && !it->undo_baseline
              && live_catch_up (it, new_cmds, &n_new_cmds, out);
  if (!it->started)
    {
      bool undoing = it->undo_baseline;
      if (!live_take_baseline (it, out) && !undoing)
        {
          live_journal_sync (it);
          return ENG_OK;
        }
      baseline = true;
    }
  /* while the table is asked about a command card of a gap, the looks
   * wait for its answer */
  if (waiting || it->gap_asked != NULL)
    for (size_t i = 0; i < it->n_complaints; i++)
      it->complaints[i].seen = true;
  else if (!baseline)
    {
      /* the table played on while the referee was away */
      if (it->catch_up && !told)
        live_catch_up (it, new_cmds, &n_new_cmds, out);
      if (it->gap_asked == NULL)
        live_read_table (it, out);
    }
  live_complaints_fixed (it);
  for (size_t i = 0; i < n_new_cmds; i++)
    {
      const EngCommand *cmd = eng_card_set_command (it->set, (size_t) new_cmds[i] - 1);
      if (cmd != NULL)
        live_run_command (it, cmd->id, out);
    }
  live_journal_sync (it);
  return ENG_OK;
}

/* ---- commands ------------------------------------------------------------------ */

/* Takes back the last move in the game, the record and the undo stack.
 * *view gets the mind saved before it; false when no view was saved (a
 * move made before a restart, or completing a card laid before one). */
bool
live_take_back_move (EngInterpreter *it, EngLiveMind *view)
{
  bool saved = false;
  it->memo_version++;
  if (it->memo->len > 0)
    {
      *view = g_array_index (it->memo, EngLiveMind, it->memo->len - 1);
      g_array_set_size (it->memo, it->memo->len - 1);
      saved = !view->no_view;
    }
  else if (it->n_unsaved > 0)
    it->n_unsaved--;
  if (it->record->n_moves > 0)
    it->record->n_moves--;
  return saved;
}

static void
undo (EngInterpreter *it, EngEvents *out)
{
  if (it->record->n_moves == 0 || eng_game_undo (it->game) != ENG_OK)
    {
      eng_live_say (out, ENG_EVENT_NOTE, -1, "", ENG_N_ ("Nothing to undo"));
      return;
    }
  EngLiveMind *view = g_new (EngLiveMind, 1);
  bool saved = live_take_back_move (it, view);
  it->restoring_journaled = false;
  it->n_complaints = 0;
  eng_live_say (out, ENG_EVENT_NOTE, -1, "", ENG_N_ ("Undone: the last move is forgotten"));
  if (saved)
    {
      it->mind = *view;
      g_free (view);
      it->restoring = true;
      it->started = true;     /* undoing the move that asked for a new deal */
      it->new_deal = false;
      eng_live_say (out, ENG_EVENT_NEED, -1, "",
                    ENG_N_ ("Put the table back as it was before that move"));
      return;
    }
  g_free (view);
  /* no view saved for it: the table must show what the rules' state says,
   * checked like the baseline of a resumed game */
  memset (&it->mind, 0, sizeof it->mind);
  it->started = false;
  it->restoring = false;
  it->undo_baseline = true;
  it->setup_need[0] = '\0';
  eng_live_say (out, ENG_EVENT_NEED, -1, "", ENG_N_ ("Put the table back as it was before that move"));
  live_take_baseline (it, out);
}

EngStatus
live_run_command (EngInterpreter *it, const char *id, EngEvents *out)
{
  if (strcmp (id, "undo") == 0)
    {
      it->gap_asked = NULL;
      undo (it, out);
      return ENG_OK;
    }
  if (strcmp (id, "pause") != 0 && live_gap_answer (it, id, out))
    return ENG_OK;
  if (strcmp (id, "pause") == 0)
    {
      it->paused = !it->paused;
      eng_live_say (out, ENG_EVENT_NOTE, -1, "",
                    it->paused ? ENG_N_ ("Referee paused") : ENG_N_ ("Referee resumed"));
      return ENG_OK;
    }
  if (strcmp (id, "new-game") == 0)
    return ENG_ERR_NOT_SUPPORTED;
  if (!it->started)
    {
      eng_live_say (out, ENG_EVENT_NOTE, -1, "table",
                    ENG_N_ ("The referee has not seen the table yet"));
      return ENG_OK;
    }
  restored_by_last_look (it, out);
  if (it->restoring)
    {
      eng_live_say (out, ENG_EVENT_NOTE, -1, "table",
                    ENG_N_ ("First put the table back as it was"));
      return ENG_OK;
    }
  EngStatus st = it->klass->command != NULL ? it->klass->command (it, id, out)
                                            : ENG_ERR_NOT_FOUND;
  if (st != ENG_ERR_NOT_FOUND)
    return st;
  if (strcmp (id, "confirm") == 0 || strcmp (id, "cancel") == 0)
    {
      eng_live_say (out, ENG_EVENT_NOTE, -1, "",
                    strcmp (id, "confirm") == 0 ? ENG_N_ ("Nothing to confirm")
                                                : ENG_N_ ("Nothing to cancel"));
      return ENG_OK;
    }
  return ENG_ERR_NOT_FOUND;
}

EngStatus
eng_interpreter_command (EngInterpreter *interp, const char *command_id, EngEvents *out)
{
  if (interp == NULL || command_id == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  if (eng_card_set_find_command (interp->set, command_id) == NULL)
    return ENG_ERR_NOT_FOUND;
  EngStatus st = live_run_command (interp, command_id, out);
  live_journal_sync (interp);
  return st;
}

/* ---- questions ---------------------------------------------------------------- */

EngStatus
eng_interpreter_choose_player (EngInterpreter *interp, int player, EngEvents *out)
{
  if (interp == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  if (interp->klass->choose == NULL)
    return ENG_ERR_STATE;
  EngStatus st = interp->klass->choose (interp, player, out);
  if (st == ENG_OK)
    live_journal_sync (interp);
  return st;
}

size_t
eng_interpreter_choice (const EngInterpreter *interp, int *players, size_t max)
{
  EngLiveChoice choice;
  if (interp == NULL || players == NULL || interp->klass->choice == NULL
      || !interp->klass->choice (interp, &choice))
    return 0;
  size_t k = 0;
  for (unsigned i = 0; i < choice.n && k < max; i++)
    players[k++] = choice.player[i];
  return k;
}
