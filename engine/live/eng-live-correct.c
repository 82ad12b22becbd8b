/* eng-live-correct.c: corrections of misread cards (eng_interpreter_correct_card).
 *
 * A correction says "the sticker read as X is card Y".  The moves that used
 * the misread identity are taken back and the table as it lies is read
 * again with the correction: nothing on the table has to move, only its
 * reading was wrong.
 */
#include <stdio.h>
#include <string.h>

#include "eng-i18n.h"
#include "eng-live-private.h"

static bool
move_uses (const EngMove *mv, uint16_t serial)
{
  if (mv->card == serial || mv->show == serial)
    return true;
  for (unsigned i = 0; i < mv->n_cards && i < ENG_MOVE_MAX_CARDS; i++)
    if (mv->cards[i] == serial)
      return true;
  return false;
}

/* The referee took `from` for the card that is `to`: renames it in a mind. */
static void
rename_in_mind (const EngInterpreter *it, EngLiveMind *m, uint16_t from, uint16_t to)
{
  for (int i = 0; i < m->n_view; i++)
    if (m->view[i].kind == 'F' && m->view[i].serial == from)
      m->view[i].serial = to;
  for (int i = 0; i < m->n_expect; i++)
    if (m->expect[i].serial == from && (m->expect[i].kind != ENG_EXPECT_LEAVE
                                        || m->expect[i].item_kind == 'F'))
      m->expect[i].serial = to;
  if (it->klass->mind_rename != NULL)
    it->klass->mind_rename (m, from, to);
  if (eng_live_was_discarded (m, from))
    {
      eng_live_unmark_discarded (m, from);
      eng_live_mark_discarded (m, to);
    }
}

EngStatus
live_face_of_payload (const EngInterpreter *it, const char *payload, uint16_t *serial)
{
  EngTag tag;
  EngTagMeaning meaning;
  size_t len = strnlen (payload, ENG_TAG_PAYLOAD_LEN + 1);
  if (len != ENG_TAG_PAYLOAD_LEN || eng_tag_parse (payload, len, &tag) != ENG_OK
      || eng_card_set_resolve (it->set, &tag, &meaning) != ENG_OK)
    return ENG_ERR_NOT_FOUND;
  if (tag.kind != ENG_TAG_FACE)
    return ENG_ERR_INVALID_ARGUMENT;
  if (tag.serial >= ENG_LIVE_SERIALS)
    return ENG_ERR_NOT_FOUND;
  *serial = tag.serial;
  return ENG_OK;
}

/* Keeps (or drops, when `removing`) the correction of `seen` in the table
 * of corrections at index `ci`. */
static void
store_correction (EngInterpreter *it, size_t ci, bool removing, uint16_t seen, uint16_t actual,
                  const char *seen_payload, const char *actual_payload)
{
  if (removing)
    {
      memmove (&it->corr[ci], &it->corr[ci + 1], (it->n_corr - ci - 1) * sizeof it->corr[0]);
      it->n_corr--;
      return;
    }
  if (ci == it->n_corr)
    {
      it->n_corr++;
      it->corr[ci].seen = seen;
      snprintf (it->corr[ci].seen_payload, sizeof it->corr[ci].seen_payload, "%.*s",
                ENG_TAG_PAYLOAD_LEN, seen_payload);
    }
  it->corr[ci].actual = actual;
  snprintf (it->corr[ci].actual_payload, sizeof it->corr[ci].actual_payload, "%.*s",
            ENG_TAG_PAYLOAD_LEN, actual_payload);
}

/* Takes back, from the newest, the moves from the first that used `was`
 * (only when a view was saved for each of them): how many, with the
 * command of the last one taken back (to show again) in `again`. */
static size_t
take_back_moves_using (EngInterpreter *it, uint16_t was, bool *before_restart, bool *used,
                       char *again, size_t again_size)
{
  const EngRecord *rec = it->record;
  size_t first = rec->n_moves;
  *before_restart = false;
  for (size_t j = 0; j < rec->n_moves && first == rec->n_moves; j++)
    if (move_uses (&rec->moves[j].move, was))
      {
        if (j < it->n_unsaved)
          *before_restart = true;
        else
          first = j;
      }
  for (size_t j = first; j < rec->n_moves && !*before_restart; j++)
    if (g_array_index (it->memo, EngLiveMind, j - it->n_unsaved).no_view)
      *before_restart = true;
  *used = *before_restart || first < rec->n_moves;
  size_t n_back = 0;
  if (!it->started || it->restoring || *before_restart)
    return 0;
  while (rec->n_moves > first && eng_game_undo (it->game) == ENG_OK)
    {
      const EngMove *mv = &rec->moves[rec->n_moves - 1].move;
      const char *cmd = it->klass->command_of_move != NULL ? it->klass->command_of_move (mv)
                                                           : NULL;
      if (cmd != NULL)
        snprintf (again, again_size, "%s", cmd);
      live_take_back_move (it, &it->mind);
      n_back++;
    }
  return n_back;
}

/* What the correction did, said in one NOTE. */
static void
say_corrected (EngInterpreter *it, uint16_t was, uint16_t actual, bool named, size_t n_back,
               bool used, const char *again, EngEvents *out)
{
  /* K20: the card is named only when its face is up on the table */
  char what[128];
  if (named || eng_live_face_visible (it, actual))
    {
      char now[48], before[48];
      eng_live_face_name (it, actual, true, now, sizeof now);
      eng_live_face_name (it, was, true, before, sizeof before);
      snprintf (what, sizeof what, ENG_ ("the card read as %s is %s"), before, now);
    }
  else
    snprintf (what, sizeof what, "%s", ENG_ ("a card was misread"));
  if (n_back > 0)
    {
      /* the command card to show again, by the words printed on it */
      char show[96] = "";
      if (again[0] != '\0')
        {
          char label[64];
          eng_live_command_words (it, again, label, sizeof label);
          snprintf (show, sizeof show, ENG_ ("; show the %s card again"), label);
        }
      char text[sizeof ((EngEvent *) NULL)->text];
      snprintf (text, sizeof text,
                ENG_NG_ ("Corrected: %s; %zu move taken back and the table read again%s",
                         "Corrected: %s; %zu moves taken back and the table read again%s", n_back),
                what, n_back, show);
      eng_live_say (out, ENG_EVENT_NOTE, -1, "", "%s", text);
    }
  else if (used)
    eng_live_say (out, ENG_EVENT_NOTE, -1, "",
                  ENG_N_ ("Corrected from now on: %s; the moves already made keep what was read"),
                  what);
  else
    eng_live_say (out, ENG_EVENT_NOTE, -1, "", ENG_N_ ("Corrected: %s; no move used it"), what);
}

EngStatus
eng_interpreter_correct_card (EngInterpreter *interp, const char *seen_payload,
                              const char *actual_payload, EngEvents *out)
{
  if (interp == NULL || seen_payload == NULL)
    return ENG_ERR_INVALID_ARGUMENT;
  EngInterpreter *it = interp;
  uint16_t seen, actual;
  EngStatus st = live_face_of_payload (it, seen_payload, &seen);
  if (st != ENG_OK)
    return st;
  actual = seen;
  if (actual_payload != NULL && (st = live_face_of_payload (it, actual_payload, &actual)) != ENG_OK)
    return st;
  if (eng_live_deck_of (it, seen) != eng_live_deck_of (it, actual))
    return ENG_ERR_INVALID_ARGUMENT;
  bool removing = actual == seen;
  size_t ci = 0;
  while (ci < it->n_corr && it->corr[ci].seen != seen)
    ci++;
  if (!removing && ci == it->n_corr && it->n_corr >= ENG_RECORD_MAX_CORRECTIONS)
    return ENG_ERR_LIMIT;
  /* the identity the referee gave the card so far, and the one it has */
  uint16_t was = ci < it->n_corr ? it->corr[ci].actual : seen;
  if (was == actual)
    {
      eng_live_say (out, ENG_EVENT_NOTE, -1, "",
                    ENG_N_ ("Nothing to correct: the referee already reads it so"));
      return ENG_OK;
    }
  st = eng_record_set_correction (it->record, seen_payload, removing ? NULL : actual_payload);
  if (st != ENG_OK)
    return st;
  store_correction (it, ci, removing, seen, actual, seen_payload, actual_payload);
  /* K20: the card is named only when its face is up (the referee saw it
   * so, or the table shows it) */
  bool named = eng_live_view_find (&it->mind, 'F', was, 0) >= 0;
  bool before_restart, used;
  char again[64] = "";
  size_t n_back = take_back_moves_using (it, was, &before_restart, &used, again, sizeof again);
  if (n_back > 0)
    it->pend_start_known = false;
  /* from now on the referee knows the card for what it is */
  rename_in_mind (it, &it->mind, was, actual);
  rename_in_mind (it, &it->pend_start, was, actual);
  for (guint j = 0; j < it->memo->len; j++)
    rename_in_mind (it, &g_array_index (it->memo, EngLiveMind, j), was, actual);
  it->memo_version++;
  for (int i = 0; i < it->n_cur; i++)
    if (it->cur[i].kind == 'F')
      it->cur[i].serial = live_corrected (it, it->cur_read[i]);
  it->n_complaints = 0;
  say_corrected (it, was, actual, named, n_back, used, again, out);
  if (it->started)
    live_read_table (it, out);
  live_journal_sync (it);
  return ENG_OK;
}

size_t
eng_interpreter_n_corrections (const EngInterpreter *interp)
{
  return interp ? interp->n_corr : 0;
}

bool
eng_interpreter_correction (const EngInterpreter *interp, size_t index,
                            const char **seen_payload, const char **actual_payload)
{
  if (interp == NULL || index >= interp->n_corr)
    return false;
  if (seen_payload != NULL)
    *seen_payload = interp->corr[index].seen_payload;
  if (actual_payload != NULL)
    *actual_payload = interp->corr[index].actual_payload;
  return true;
}
