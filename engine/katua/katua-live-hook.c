/* katua-live-hook.c: Katua's commands and the Hook's questions (K12):
 * whose UFO landed on the Hook, and which came first when two landed
 * between two looks. */
#include <stdio.h>
#include <string.h>

#include "katua-live-private.h"

/* ---- the Hook ------------------------------------------------------------------- */

/* The players who may own a UFO on the Hook: the hook owner's rivals who
 * have not answered this Hook yet, in turn order from the owner's left. */
static size_t
hook_candidates (const EngInterpreter *it, int *players)
{
  const KatState *s = kat_live_state (it);
  size_t n = 0;
  for (int i = 1; i < s->n_players; i++)
    {
      int p = (s->active + i) % s->n_players;
      if (!((s->hook_answered >> p) & 1))
        players[n++] = p;
    }
  return n;
}

static void
resolve_intercept (EngInterpreter *it, int player, EngEvents *out)
{
  KatPending *pd = &kat_live_mind (it)->pend;
  EngMove mv;
  eng_move_init (&mv, KAT_INTERCEPT, player);
  mv.card = pd->queue[0];
  memmove (&pd->queue[0], &pd->queue[1], (size_t) (pd->n_queue - 1) * sizeof pd->queue[0]);
  pd->n_queue--;
  pd->asked = false;
  pd->tie = false;
  if (pd->n_queue == 0)
    pd->kind = PEND_NONE;
  if (eng_live_try_apply (it, &mv, NULL, out))
    {
      /* undo goes back to before this UFO was laid, as for any card that
       * waited for its second step: otherwise the undone view keeps it on
       * the Hook with no move to account for it.  Found by test-live-random
       * (katua-3p-undo-intercept). */
      EngLiveMind *top = eng_live_memo_top (it);
      int vi = eng_live_view_find (top, 'F', mv.card, 0);
      if (vi >= 0)
        {
          eng_live_view_remove_at (top, vi);
          eng_live_memo_changed (it);
        }
      return;
    }
  EngLiveMind *m = eng_live_mind (it);
  int vi = eng_live_view_find (m, 'F', mv.card, 0);
  if (vi < 0)
    return;
  EngLiveExpect *e = eng_live_expect_add (m, ENG_EXPECT_LEAVE, mv.card, 0, m->view[vi].zone);
  if (e != NULL)
    {
      e->item_kind = 'F';
      snprintf (e->text, sizeof e->text, "%s", ENG_ ("Take that UFO back from the Hook"));
    }
}

/* The "whose?" question names one candidate: confirm takes them, cancel
 * names the next one (wrapping), so command cards alone can answer it. */
static void
ask_whose (EngInterpreter *it, EngEvents *out)
{
  KatPending *pd = &kat_live_mind (it)->pend;
  int cand[KAT_MAX_PLAYERS];
  size_t n = hook_candidates (it, cand);
  if (n == 0)
    return;
  pd->named = (int8_t) eng_live_ask_named (cand, n, pd->named);
  if (out == NULL)
    return;
  /* only abduction UFOs stay on the Hook: the name is "blue UFO" */
  char name[48];
  kat_live_face (it, pd->queue[0], name, sizeof name);
  eng_live_say (out, ENG_EVENT_NEED, -1, "K12",
                ENG_N_ ("Whose %s is on %s's Hook? Is it %s's? Confirm, or cancel to ask about "
                        "%s"), name, kat_live_name (it, kat_live_state (it)->active),
                kat_live_name (it, pd->named),
                kat_live_name (it, eng_live_ask_next (cand, n, pd->named)));
}

static void
ask_tie (EngInterpreter *it, EngEvents *out)
{
  const KatPending *pd = &kat_live_mind (it)->pend;
  char name[48], other[48];
  kat_live_face_the (it, pd->queue[0], name, sizeof name);
  kat_live_face_the (it, pd->queue[1], other, sizeof other);
  eng_live_say (out, ENG_EVENT_NEED, -1, "K12",
                ENG_N_ ("Two UFOs landed on %s's Hook at once: was %s placed before %s? "
                        "Confirm or cancel"), kat_live_name (it, kat_live_state (it)->active),
                name, other);
}

/* The Hook's question, said again after a restart. */
bool
kat_live_ask_again (EngInterpreter *it, EngEvents *out)
{
  const KatPending *pd = &kat_live_mind (it)->pend;
  if (pd->kind != PEND_INTERCEPT || pd->n_queue == 0 || !pd->asked)
    return false;
  if (pd->tie && pd->n_queue > 1)
    ask_tie (it, out);
  else
    ask_whose (it, out);
  return true;
}

/* Intercepts waiting on the Hook: order a tie (ask: confirm / cancel), then
 * attribute each (2 players, or one rival left: theirs; otherwise ask). */
void
kat_live_settle (EngInterpreter *it, EngEvents *out)
{
  KatPending *pd = &kat_live_mind (it)->pend;
  const KatState *s = kat_live_state (it);
  while (pd->kind == PEND_INTERCEPT && pd->n_queue > 0 && !pd->asked)
    {
      if (pd->tie && pd->n_queue > 1)
        {
          pd->asked = true;
          ask_tie (it, out);
          return;
        }
      int cand[KAT_MAX_PLAYERS];
      size_t n = hook_candidates (it, cand);
      if (n <= 1)
        {
          /* no rival left to answer: the rules refuse it and it goes back */
          resolve_intercept (it, n == 1 ? cand[0] : (s->active + 1) % s->n_players, out);
          continue;
        }
      pd->asked = true;
      pd->named = (int8_t) cand[0];
      ask_whose (it, out);
    }
}

static bool
whose_asked (const KatPending *pd)
{
  return pd->kind == PEND_INTERCEPT && pd->n_queue > 0 && pd->asked && !pd->tie;
}

bool
kat_live_choice (const EngInterpreter *it, EngLiveChoice *out)
{
  const KatPending *pd = &((const KatLiveMind *) eng_live_mind_game_const (it))->pend;
  if (!whose_asked (pd))
    return false;
  int cand[KAT_MAX_PLAYERS];
  size_t n = hook_candidates (it, cand);
  return eng_live_ask_choice (cand, n, pd->named, out);
}

EngStatus
kat_live_choose (EngInterpreter *it, int player, EngEvents *out)
{
  const KatState *s = kat_live_state (it);
  KatPending *pd = &kat_live_mind (it)->pend;
  if (pd->kind != PEND_INTERCEPT || pd->n_queue == 0)
    return ENG_ERR_STATE;
  if (player < 0 || player >= s->n_players)
    return ENG_ERR_INVALID_ARGUMENT;
  if (pd->tie)
    {
      eng_live_say (out, ENG_EVENT_NOTE, -1, "K12",
                    ENG_N_ ("First say which UFO came first (confirm or cancel)"));
      return ENG_ERR_STATE;
    }
  resolve_intercept (it, player, out);
  kat_live_settle (it, out);
  return ENG_OK;
}

/* ---- commands ----------------------------------------------------------------------- */

/* confirm / cancel: the Hook's questions, then taking back a card. */
static EngStatus
confirm_or_cancel (EngInterpreter *it, bool yes, EngEvents *out)
{
  const KatState *s = kat_live_state (it);
  KatLiveMind *km = kat_live_mind (it);
  KatPending *pd = &km->pend;
  if (pd->kind == PEND_INTERCEPT && pd->tie && pd->asked)
    {
      if (!yes)
        {
          uint16_t t = pd->queue[0];
          pd->queue[0] = pd->queue[1];
          pd->queue[1] = t;
        }
      pd->tie = false;
      pd->asked = false;
      kat_live_settle (it, out);
      return ENG_OK;
    }
  if (whose_asked (pd))
    {
      if (yes)
        {
          resolve_intercept (it, pd->named, out);
          kat_live_settle (it, out);
          return ENG_OK;
        }
      int cand[KAT_MAX_PLAYERS];
      size_t n = hook_candidates (it, cand);
      if (n > 0)
        pd->named = (int8_t) eng_live_ask_next (cand, n, pd->named);
      ask_whose (it, out);
      return ENG_OK;
    }
  if (!yes && pd->kind == PEND_NONE && km->n_to_discard > 0)
    {
      /* the discard count starts again from what the pile shows next */
      EngLiveMind *m = eng_live_mind (it);
      for (int i = 0; i < km->n_to_discard; i++)
        {
          const EngLiveItem *d = &km->to_discard[i];
          if (d->kind == 'F')
            eng_live_unmark_discarded (m, d->serial);
          eng_live_view_remove_at (m, eng_live_view_find (m, d->kind, d->serial, d->track));
        }
      km->n_to_discard = 0;
      eng_live_say (out, ENG_EVENT_NEED, s->active, "K3",
                    ENG_N_ ("%s: the cards to discard are counted again from the pile. Show the "
                            "Discard card when they are all there"), kat_live_name (it, s->active));
      return ENG_OK;
    }
  if (!yes && pd->kind != PEND_NONE)
    {
      char name[48];
      kat_live_face_the (it, pd->card, name, sizeof name);
      eng_live_expect_face_leaves (it, pd->card, ENG_N_ ("Take %s back into your hand"), name);
      /* Replicators laid with a Shield go back with it (K13) */
      for (int i = 0; pd->kind == PEND_SHIELD && i < pd->n_queue; i++)
        {
          char copy[48];
          kat_live_face_the (it, pd->queue[i], copy, sizeof copy);
          eng_live_expect_face_leaves (it, pd->queue[i], ENG_N_ ("Take %s back into your hand"),
                                       copy);
        }
      pd->kind = PEND_NONE;
      eng_live_say (out, ENG_EVENT_NEED, -1, "", ENG_N_ ("Cancelled: take %s back into your hand"),
                    name);
      return ENG_OK;
    }
  return ENG_ERR_NOT_FOUND;
}

/* no-defence: the defender lets the beam hit (K6), or (K10 option
 * xray_teleporter_answerable) the answering rival lets the held X-Ray or
 * Teleporter act, whose flip or swap the table has already made.  Found
 * by test-live-random (katua-2p-answerable). */
static void
no_defence (EngInterpreter *it, EngEvents *out)
{
  const KatState *s = kat_live_state (it);
  const KatPending *pd = &kat_live_mind (it)->pend;
  EngMove mv;
  if (s->phase == KAT_PHASE_ANSWER && pd->kind == PEND_NONE)
    {
      eng_move_init (&mv, KAT_HIT, s->answer_player);
      if (s->answer_verb == KAT_XRAY && s->answer_p[0] >= 0 && s->answer_s[0] >= 0)
        {
          const EngLiveMind *m = eng_live_mind_const (it);
          int vi = eng_live_view_find_at (m, eng_live_zone (ENG_ZONE_SLOT,
                                                            eng_live_seat_of (it, s->answer_p[0]),
                                                            s->answer_s[0]));
          if (vi >= 0 && m->view[vi].kind == 'F')
            mv.show = m->view[vi].serial;
        }
      eng_live_try_apply (it, &mv, NULL, out);
      return;
    }
  if (s->phase != KAT_PHASE_ATTACK)
    {
      eng_live_say (out, ENG_EVENT_ILLEGAL, -1, "K6",
                    ENG_N_ ("There is no abduction attempt to let through"));
      return;
    }
  int d = s->att[0].player;
  if (!s->face_up[d][s->att[0].slot])
    {
      eng_live_say (out, ENG_EVENT_NEED, d, "K11", ENG_N_ ("%s: turn your cat in slot %d face up"),
                    kat_live_name (it, d), s->att[0].slot + 1);
      return;
    }
  eng_move_init (&mv, KAT_HIT, d);
  eng_live_try_apply (it, &mv, NULL, out);
}

/* end-turn, pass, discard (K3, K15). */
static void
end_turn (EngInterpreter *it, int verb, EngEvents *out)
{
  const KatState *s = kat_live_state (it);
  KatLiveMind *km = kat_live_mind (it);
  EngMove mv;
  if (eng_live_expectations_block (it, out))
    return;
  if (km->pend.kind != PEND_NONE)
    {
      eng_live_say (out, ENG_EVENT_NOTE, -1, "table",
                    ENG_N_ ("First finish the card in play (or cancel it)"));
      return;
    }
  eng_move_init (&mv, (unsigned) verb, s->active);
  if (verb == KAT_DISCARD)
    {
      if (km->n_to_discard == 0)
        {
          eng_live_say (out, ENG_EVENT_NEED, s->active, "K3",
                        ENG_N_ ("%s: put the cards to discard on the discard pile first"),
                        kat_live_name (it, s->active));
          return;
        }
      for (int i = 0; i < km->n_to_discard; i++)
        {
          uint16_t serial = km->to_discard[i].kind == 'F' ? km->to_discard[i].serial
                                                          : ENG_SERIAL_UNKNOWN;
          if (i == 0)
            mv.card = serial;
          else
            mv.cards[mv.n_cards++] = serial;
        }
    }
  else if (km->n_to_discard > 0)
    {
      eng_live_say (out, ENG_EVENT_NOTE, s->active, "K3",
                    ENG_N_ ("Cards lie on the discard pile: show the Discard card to discard "
                            "them, or take them back"));
      return;
    }
  /* the undo view keeps the cards counted for the discard; the mind
   * after the move starts counting afresh */
  if (eng_live_try_apply (it, &mv, NULL, out))
    km->n_to_discard = 0;
}

EngStatus
kat_live_command (EngInterpreter *it, const char *id, EngEvents *out)
{
  if (strcmp (id, "confirm") == 0 || strcmp (id, "cancel") == 0)
    return confirm_or_cancel (it, id[1] == 'o', out);
  if (strcmp (id, "no-defence") == 0)
    {
      no_defence (it, out);
      return ENG_OK;
    }
  if (strcmp (id, "end-turn") == 0)
    end_turn (it, KAT_END, out);
  else if (strcmp (id, "pass") == 0)
    end_turn (it, KAT_PASS, out);
  else if (strcmp (id, "discard") == 0)
    end_turn (it, KAT_DISCARD, out);
  else
    return ENG_ERR_NOT_FOUND;
  return ENG_OK;
}

const char *
kat_live_command_of_move (const EngMove *mv)
{
  switch (mv->verb)
    {
    case KAT_END: return "end-turn";
    case KAT_PASS: return "pass";
    case KAT_DISCARD: return "discard";
    default: return NULL;
    }
}

/* Whose answer the live referee waits for: the Hook's question. */
void
kat_live_view (const EngInterpreter *it, EngView *view)
{
  EngLiveChoice choice;
  if (kat_live_choice (it, &choice) && choice.n > 0)
    view->deciding = (int8_t) choice.player[0];
}
