/* katua-live.c: Katua's physical protocol (docs/interpreter.md): what a
 * change on the table means.  A UFO face laid in a rival's attack zone is
 * an attempt, a cat turned face up there is the impact, a cat moved to a
 * capture area completes a capture, and so on.  The interpreter core
 * (engine/live/) hands over each change no expectation took. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "katua-live-private.h"

/* ---- cards and words ---------------------------------------------------------- */

const KatCard *
kat_live_card (const EngInterpreter *it, uint16_t serial)
{
  static const KatCard none = { .deck = 0xFF, .kind = KAT_LIVE_NO_KIND };
  const KatRules *r = kat_live_rules (it);
  uint8_t k = katua_card_index (r, serial);
  return k < r->n_cards ? &r->cards[k] : &none;
}

void
kat_live_face (const EngInterpreter *it, uint16_t serial, char *buf, size_t size)
{
  eng_live_face_name (it, serial, false, buf, size);
}

void
kat_live_face_the (const EngInterpreter *it, uint16_t serial, char *buf, size_t size)
{
  eng_live_face_name (it, serial, true, buf, size);
}

static void
move_for (EngMove *mv, int verb, int player)
{
  eng_move_init (mv, (unsigned) verb, player);
}

void
kat_live_start_pending (EngInterpreter *it, KatPendKind kind, const EngMove *mv,
                        const EngLiveChange *c)
{
  eng_live_begin_pending (it, c);
  KatPending *pd = &kat_live_mind (it)->pend;
  memset (pd, 0, sizeof *pd);
  pd->kind = (uint8_t) kind;
  pd->move = *mv;
  pd->card = c ? c->item.serial : 0;
  pd->zone = c ? c->item.zone : eng_live_zone (ENG_ZONE_NONE, -1, -1);
}

/* Applies `mv` for change `c`; a refusal tells the table to take it back. */
static void
apply_or_take_back (EngInterpreter *it, const EngMove *mv, const EngLiveChange *c,
                    EngEvents *out)
{
  if (!eng_live_try_apply (it, mv, c, out))
    eng_live_take_back (it, c, out);
}

/* K5: "a red UFO against a tricolor beam: turn your cat face up". */
static void
ask_show (EngInterpreter *it, const EngMove *mv, const EngLiveChange *c, int d, int slot,
          unsigned colour, EngEvents *out)
{
  kat_live_start_pending (it, PEND_SHOW, mv, c);
  eng_live_say (out, ENG_EVENT_NEED, d, "K5",
                ENG_N_ ("%s: a %s UFO against a tricolor beam: turn your cat in slot %d face "
                        "up for all to see"), kat_live_name (it, d),
                out != NULL ? katua_colour_words (colour, false) : "", slot + 1);
}

static void
ask_swap (EngInterpreter *it, const EngMove *mv, const EngLiveChange *c, int p, EngEvents *out)
{
  kat_live_start_pending (it, PEND_TELEPORT, mv, c);
  eng_live_say (out, ENG_EVENT_NEED, p, "K8",
                ENG_N_ ("%s: swap two cats in slots (faces unchanged)"), kat_live_name (it, p));
}

/* K7: a Shield (or a Replicator copying it, K13) waits for the beam it
 * answers to be moved in front of the attacker's cat the defender chooses. */
static void
ask_turn_beam (EngInterpreter *it, const EngMove *mv, const EngLiveChange *c, int d,
               int attacker, EngEvents *out)
{
  kat_live_start_pending (it, PEND_SHIELD, mv, c);
  eng_live_say (out, ENG_EVENT_NEED, d, "K7",
                ENG_N_ ("%s: move %s's UFO in front of the cat of %s's you choose"),
                kat_live_name (it, d), kat_live_name (it, attacker), kat_live_name (it, attacker));
}

/* The serial of the card carrying the beam a waiting Shield (verb shield)
 * or copied Shield (verb replicate) turns; 0 when there is none. */
static uint16_t
shield_beam_serial (const EngInterpreter *it, const KatPending *pd)
{
  const KatState *s = kat_live_state (it);
  if (s->phase != KAT_PHASE_ATTACK)
    return 0;
  int i = pd->move.verb == KAT_SHIELD ? 0 : katua_shield_copy_attempt (s, pd->move.player);
  return i >= 0 ? kat_live_rules (it)->cards[s->att[i].card].serial : 0;
}

/* K13: a Replicator laid, while the defender's Shield waits for its beam,
 * on the spot of the next attempt aimed at the same defender copies that
 * Shield ("laid with the Shield"); it waits in the queue and takes its turn
 * once the Shield's beam has moved.  The k-th Replicator queued answers
 * the k-th attempt after the first. */
static bool
laid_with_shield (EngInterpreter *it, const EngLiveChange *c, int at, int slot)
{
  const KatState *s = kat_live_state (it);
  KatPending *pd = &kat_live_mind (it)->pend;
  const KatCard *ci = kat_live_card (it, c->item.serial);
  if (pd->kind != PEND_SHIELD || pd->move.verb != KAT_SHIELD || s->phase != KAT_PHASE_ATTACK
      || ci->kind != KAT_KIND_ACTION || ci->action != KAT_ACT_REPLICATOR
      || c->item.zone.kind != ENG_ZONE_ATTACK || at != pd->move.player
      || pd->n_queue >= KAT_LIVE_QUEUE)
    return false;
  int seen = 0;
  for (int j = 1; j < s->n_att; j++)
    if (s->att[j].player == at && seen++ == pd->n_queue)
      {
        if (s->att[j].slot != slot)
          return false;
        pd->queue[pd->n_queue++] = c->item.serial;
        eng_live_accept (it, c);
        return true;
      }
  return false;
}

/* After a Shield's (or a copy's) beam has moved: the next Replicator laid
 * with it now waits for its own beam. */
static void
next_copied_shield (EngInterpreter *it, const KatPending *done, EngEvents *out)
{
  const KatState *s = kat_live_state (it);
  if (done->n_queue == 0)
    return;
  int d = done->move.player;
  int i = katua_shield_copy_attempt (s, d);
  char name[48];
  if (i < 0)
    {
      /* nothing left for the copies to answer: they go back */
      for (int k = 0; k < done->n_queue; k++)
        {
          kat_live_face_the (it, done->queue[k], name, sizeof name);
          eng_live_expect_face_leaves (it, done->queue[k], ENG_N_ ("Take %s back into your hand"),
                                       name);
        }
      return;
    }
  EngMove mv;
  move_for (&mv, KAT_REPLICATE, d);
  mv.card = done->queue[0];
  ask_turn_beam (it, &mv, NULL, d, s->att[i].launcher, out);
  KatPending *pd = &kat_live_mind (it)->pend;
  pd->card = done->queue[0];
  pd->zone = eng_live_zone (ENG_ZONE_ATTACK, eng_live_seat_of (it, d), s->att[i].slot);
  for (int k = 1; k < done->n_queue; k++)
    pd->queue[pd->n_queue++] = done->queue[k];
}

/* ---- a UFO laid ------------------------------------------------------------------ */

/* An abduction UFO laid on the Hook waits for whose it is (K12). */
static void
laid_on_hook (EngInterpreter *it, const EngLiveChange *c)
{
  KatLive *d = eng_live_data (it);
  KatPending *pd = &kat_live_mind (it)->pend;
  if (pd->kind != PEND_INTERCEPT)
    {
      memset (pd, 0, sizeof *pd);
      pd->kind = PEND_INTERCEPT;
    }
  if (pd->n_queue < KAT_LIVE_QUEUE)
    pd->queue[pd->n_queue++] = c->item.serial;
  /* two landing between the same two looks: the camera cannot order them,
   * so the question names them in serial order, not in the order the
   * detector happened to list them (which a sharper frame may change) */
  if (d->intercepts_this_look++ > 0 && pd->n_queue == 2)
    {
      pd->tie = true;
      pd->asked = false;
      if (pd->queue[0] > pd->queue[1])
        {
          uint16_t t = pd->queue[0];
          pd->queue[0] = pd->queue[1];
          pd->queue[1] = t;
        }
    }
  eng_live_accept (it, c);
}

/* The Replicator as a defence copies the defence it copies (K13): a
 * Teleporter's swap is still to come, a Stampede renews the defender's own
 * cats, a colour neutraliser on a tricolor beam needs the cat shown (K5).
 * Found by test-live-random (katua-2p-replicate-defence,
 * katua-4p-replicate-forced-show). */
static void
replicated_defence (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  const KatState *s = kat_live_state (it);
  const KatAttempt *a = &s->att[0];
  int d = a->player;
  EngMove mv;
  move_for (&mv, KAT_REPLICATE, d);
  mv.card = c->item.serial;
  if (s->rep_effect == KAT_TELEPORT && s->rep_player == d)
    {
      ask_swap (it, &mv, c, d, out);
      return;
    }
  if (s->rep_effect == KAT_STAMPEDE)
    mv.target[0] = (int8_t) d;
  if (s->rep_effect == KAT_NEUTRALISE && a->colour == KAT_TRICOLOR
      && s->rep_colour != KAT_TRICOLOR && !s->face_up[d][a->slot])
    {
      ask_show (it, &mv, c, d, a->slot, s->rep_colour, out);
      return;
    }
  apply_or_take_back (it, &mv, c, out);
}

/* A card laid on the attempt's spot while a rival defends (K6). */
static void
laid_in_defence (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  const KatState *s = kat_live_state (it);
  const KatCard *ci = kat_live_card (it, c->item.serial);
  const KatAttempt *a = &s->att[0];
  int d = a->player;
  EngMove mv;
  char name[48];
  if (ci->kind == KAT_KIND_ABDUCTION)
    {
      move_for (&mv, KAT_NEUTRALISE, d);
      mv.card = c->item.serial;
      /* K5: a colour UFO against a tricolor beam needs the hidden cat shown */
      if (a->colour == KAT_TRICOLOR && ci->colour != KAT_TRICOLOR && !s->face_up[d][a->slot])
        ask_show (it, &mv, c, d, a->slot, ci->colour, out);
      else
        apply_or_take_back (it, &mv, c, out);
      return;
    }
  if (ci->kind == KAT_KIND_ACTION)
    switch (ci->action)
      {
      case KAT_ACT_SHIELD:
        move_for (&mv, KAT_SHIELD, d);
        mv.card = c->item.serial;
        ask_turn_beam (it, &mv, c, d, a->launcher, out);
        return;
      case KAT_ACT_TELEPORTER:
        move_for (&mv, KAT_TELEPORT, d);
        mv.card = c->item.serial;
        ask_swap (it, &mv, c, d, out);
        return;
      case KAT_ACT_STAMPEDE:
        move_for (&mv, KAT_STAMPEDE, d);
        mv.card = c->item.serial;
        mv.target[0] = (int8_t) d;
        apply_or_take_back (it, &mv, c, out);
        return;
      case KAT_ACT_REPLICATOR:
        replicated_defence (it, c, out);
        return;
      default:
        break;
      }
  kat_live_face (it, c->item.serial, name, sizeof name);
  eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "K6",
                   ENG_N_ ("The %s does not answer an abduction attempt: take it back"), name);
}

/* A card laid while an abduction attempt waits for its answer. */
static void
laid_during_attempt (EngInterpreter *it, const EngLiveChange *c, int at, int slot,
                     EngEvents *out)
{
  const KatState *s = kat_live_state (it);
  const KatCard *ci = kat_live_card (it, c->item.serial);
  const KatAttempt *a = &s->att[0];
  bool on_attempt = c->item.zone.kind == ENG_ZONE_ATTACK && at == a->player && slot == a->slot;
  bool replicator = ci->kind == KAT_KIND_ACTION && ci->action == KAT_ACT_REPLICATOR;
  /* K13: after the defender's Shield turned the first beam, a Replicator
   * on the spot of the next attempt still aimed at them copies the Shield */
  int copy = replicator && c->item.zone.kind == ENG_ZONE_ATTACK && at >= 0
             ? katua_shield_copy_attempt (s, at) : -1;
  if (copy >= 0 && s->att[copy].slot == slot)
    {
      EngMove mv;
      move_for (&mv, KAT_REPLICATE, at);
      mv.card = c->item.serial;
      ask_turn_beam (it, &mv, c, at, s->att[copy].launcher, out);
      return;
    }
  if (ci->kind == KAT_KIND_ACTION && ci->action == KAT_ACT_REPLICATOR && !on_attempt
      && s->rep_open && c->item.zone.kind == ENG_ZONE_ATTACK)
    {
      EngMove mv;
      move_for (&mv, KAT_REPLICATE, s->rep_player);
      mv.card = c->item.serial;
      mv.target[0] = (int8_t) at;
      mv.slot[0] = (int8_t) slot;
      apply_or_take_back (it, &mv, c, out);
      return;
    }
  if (!on_attempt)
    {
      char name[48];
      kat_live_face_the (it, c->item.serial, name, sizeof name);
      eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "K6",
                       ENG_N_ ("%s must first defend the cat in slot %d or let the beam hit: "
                               "take back %s"), kat_live_name (it, a->player), a->slot + 1, name);
      return;
    }
  laid_in_defence (it, c, out);
}

/* An action card (or a Replicator copying one) played on the active
 * player's turn. */
static void
laid_action (EngInterpreter *it, const EngLiveChange *c, int at, int slot, EngEvents *out)
{
  const KatState *s = kat_live_state (it);
  const KatCard *ci = kat_live_card (it, c->item.serial);
  int active = s->active;
  bool replicate = ci->kind == KAT_KIND_ACTION && ci->action == KAT_ACT_REPLICATOR;
  int effect = replicate ? (s->rep_effect < KAT_VERB_COUNT ? s->rep_effect : -1) : -1;
  int action = replicate ? -1 : ci->action;
  EngMove mv;
  if (action == KAT_ACT_XRAY || effect == KAT_XRAY)
    {
      move_for (&mv, replicate ? KAT_REPLICATE : KAT_XRAY, active);
      mv.card = c->item.serial;
      mv.target[0] = (int8_t) at;
      mv.slot[0] = (int8_t) slot;
      if (slot < 0 || at == active || s->face_up[at][slot] || s->slot[at][slot] == KAT_NONE)
        {
          char name[48];
          kat_live_face_the (it, c->item.serial, name, sizeof name);
          eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "K14",
                           ENG_N_ ("An X-Ray goes in front of a rival's face-down cat: take "
                                   "back %s"), name);
          return;
        }
      kat_live_start_pending (it, PEND_XRAY, &mv, c);
      eng_live_say (out, ENG_EVENT_NEED, at, "K14", ENG_N_ ("%s: turn your cat in slot %d face up"),
                    kat_live_name (it, at), slot + 1);
      return;
    }
  if (action == KAT_ACT_TELEPORTER || effect == KAT_TELEPORT)
    {
      move_for (&mv, replicate ? KAT_REPLICATE : KAT_TELEPORT, active);
      mv.card = c->item.serial;
      ask_swap (it, &mv, c, active, out);
      return;
    }
  if (action == KAT_ACT_STAMPEDE || effect == KAT_STAMPEDE || replicate)
    {
      move_for (&mv, replicate ? KAT_REPLICATE : KAT_STAMPEDE, active);
      mv.card = c->item.serial;
      mv.target[0] = (int8_t) at;
      if (replicate && !(effect == KAT_STAMPEDE))
        mv.slot[0] = (int8_t) slot;
      apply_or_take_back (it, &mv, c, out);
      return;
    }
  /* a Shield with no attempt: the rules give the reason */
  move_for (&mv, KAT_SHIELD, active);
  mv.card = c->item.serial;
  mv.target[0] = (int8_t) (at >= 0 ? at : active);
  mv.slot[0] = (int8_t) (slot >= 0 ? slot : 0);
  apply_or_take_back (it, &mv, c, out);
}

/* A UFO face laid in an attack zone (or a play area: seat's slot -1). */
static void
card_laid (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  const KatState *s = kat_live_state (it);
  const KatCard *ci = kat_live_card (it, c->item.serial);
  const KatPending *pd = &kat_live_mind (it)->pend;
  int at = eng_live_player_of_seat (it, c->item.zone.seat);
  int slot = c->item.zone.kind == ENG_ZONE_ATTACK ? c->item.zone.index : -1;
  int active = s->active;
  EngMove mv;
  /* the card's name, written only for a refusal ("the red UFO") */
  char name[48];
  if (s->phase == KAT_PHASE_OVER)
    {
      kat_live_face_the (it, c->item.serial, name, sizeof name);
      eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "K15",
                       ENG_N_ ("The game is over: take back %s"), name);
      return;
    }
  if (laid_with_shield (it, c, at, slot))
    return;
  /* a turn is a discard or plays (K3): cards laid to discard are taken
   * back before a card is played */
  if (kat_live_mind (it)->n_to_discard > 0 && s->phase == KAT_PHASE_TURN)
    {
      kat_live_face_the (it, c->item.serial, name, sizeof name);
      eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "K3",
                       ENG_N_ ("A discard is the whole turn: show discard, or take the cards back "
                               "from the discard pile before playing; take back %s for now"),
                       name);
      return;
    }
  if (pd->kind != PEND_NONE && pd->kind != PEND_INTERCEPT)
    {
      kat_live_face_the (it, c->item.serial, name, sizeof name);
      eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "table",
                       ENG_N_ ("Finish the card in play first, or show the Cancel card. Take "
                               "back %s for now"), name);
      return;
    }
  if (s->phase == KAT_PHASE_HOOK)
    {
      bool on_hook = c->item.zone.kind == ENG_ZONE_ATTACK && at == active && slot == s->hook_slot;
      if (!on_hook || ci->kind != KAT_KIND_ABDUCTION)
        {
          kat_live_face_the (it, c->item.serial, name, sizeof name);
          eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "K12",
                           ENG_N_ ("Nothing else is played until %s's Hook resolves; rivals "
                                   "answer only with an abduction UFO on it: take back %s"),
                           kat_live_name (it, active), name);
          return;
        }
      laid_on_hook (it, c);
      return;
    }
  if (s->phase == KAT_PHASE_ATTACK)
    {
      laid_during_attempt (it, c, at, slot, out);
      return;
    }
  /* the active player's turn */
  if (ci->kind == KAT_KIND_ABDUCTION && at == active)
    {
      kat_live_face_the (it, c->item.serial, name, sizeof name);
      eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "K21",
                       ENG_N_ ("It is %s's turn: nobody else plays now, and %s aims no UFO at "
                               "their own cat. Take back %s"),
                       kat_live_name (it, active), kat_live_name (it, active), name);
      return;
    }
  if (ci->kind == KAT_KIND_ABDUCTION || ci->kind == KAT_KIND_HOOK)
    {
      move_for (&mv, ci->kind == KAT_KIND_ABDUCTION ? KAT_ATTACK : KAT_HOOK, active);
      mv.card = c->item.serial;
      mv.target[0] = (int8_t) at;
      mv.slot[0] = (int8_t) slot;
      apply_or_take_back (it, &mv, c, out);
      return;
    }
  laid_action (it, c, at, slot, out);
}

/* ---- a cat turned face up ------------------------------------------------------ */

static void
cat_flipped_up (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  const KatState *s = kat_live_state (it);
  int p = eng_live_player_of_seat (it, c->item.zone.seat);
  int k = c->item.zone.index;
  KatPending *pd = &kat_live_mind (it)->pend;
  EngMove mv;
  uint8_t kind = kat_live_card (it, c->item.serial)->kind;
  if (kind != KAT_KIND_CAT && kind != KAT_KIND_FAKE)
    {
      eng_live_refuse (it, c, out, ENG_EVENT_CONSERVATION, "table",
                       ENG_N_ ("A face-down card in %s's slot %d turned out not to be a cat: put "
                               "it back where it belongs"), kat_live_name (it, p), k + 1);
      return;
    }
  bool xray_here = pd->kind == PEND_XRAY && pd->move.target[0] == p && pd->move.slot[0] == k;
  bool show_here = pd->kind == PEND_SHOW && s->phase == KAT_PHASE_ATTACK
                   && s->att[0].player == p && s->att[0].slot == k;
  if (xray_here || show_here)
    {
      mv = pd->move;
      mv.show = c->item.serial;
      KatPending keep = *pd;
      pd->kind = PEND_NONE;
      if (eng_live_complete_pending (it, &mv, c, out))
        return;
      /* refused (the rules said why): the card goes back, the cat down */
      pd = &kat_live_mind (it)->pend;
      char name[48];
      kat_live_face_the (it, keep.card, name, sizeof name);
      eng_live_expect_face_leaves (it, keep.card, ENG_N_ ("Take back %s"), name);
      pd->kind = PEND_NONE;
      eng_live_complaint_add (it, c);
      eng_live_say (out, ENG_EVENT_NEED, p, "table",
                    ENG_N_ ("%s: turn your cat in slot %d face down again; take back %s"),
                    kat_live_name (it, p), k + 1, name);
      return;
    }
  if (s->phase == KAT_PHASE_QUICK_START)
    {
      /* K19: each player shows one of their own cats before the first turn */
      move_for (&mv, KAT_REVEAL, p);
      mv.target[0] = (int8_t) p;
      mv.slot[0] = (int8_t) k;
      mv.show = c->item.serial;
      apply_or_take_back (it, &mv, c, out);
      return;
    }
  if (pd->kind != PEND_NONE && pd->kind != PEND_INTERCEPT)
    {
      eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "table",
                       ENG_N_ ("Not that cat: finish the card in play first; %s, turn your cat "
                               "in slot %d face down again"), kat_live_name (it, p), k + 1);
      return;
    }
  if (s->phase == KAT_PHASE_ATTACK && s->att[0].player == p && s->att[0].slot == k)
    {
      move_for (&mv, KAT_HIT, p);
      mv.show = c->item.serial;
      apply_or_take_back (it, &mv, c, out);
      return;
    }
  if (s->phase == KAT_PHASE_HOOK && p == s->active && k == s->hook_slot)
    {
      if (pd->kind == PEND_INTERCEPT && pd->n_queue > 0)
        {
          eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "K12",
                           ENG_N_ ("First say whose UFO is on the Hook; %s, turn the cat face "
                                   "down until then"), kat_live_name (it, p));
          return;
        }
      move_for (&mv, KAT_FLIP, p);
      mv.show = c->item.serial;
      apply_or_take_back (it, &mv, c, out);
      return;
    }
  eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "K20",
                   ENG_N_ ("%s's cat in slot %d was turned face up, but no card allows it. %s, "
                           "turn it face down again"), kat_live_name (it, p), k + 1,
                   kat_live_name (it, p));
}

/* ---- a card moved ------------------------------------------------------------------ */

/* A face-up cat carried from its slot to a capture area is the move that
 * was waiting for it, `verb` by `player`: the impact on a face-up target,
 * or the turn of a hooked cat that was already face up. */
static void
apply_carried_off (EngInterpreter *it, const EngLiveChange *c, int verb, int player,
                   EngEvents *out)
{
  EngMove mv;
  move_for (&mv, verb, player);
  if (eng_live_try_apply (it, &mv, NULL, out))
    eng_live_match_expectation (it, c, out);
  else
    eng_live_take_back (it, c, out);
}

/* A card moved between slots while a Teleporter waits: a swap, in one
 * look or in two halves. */
static bool
teleport_move (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  KatPending *pd = &kat_live_mind (it)->pend;
  if (pd->kind != PEND_TELEPORT || c->from.kind != ENG_ZONE_SLOT
      || c->item.zone.kind != ENG_ZONE_SLOT)
    return false;
  if (!pd->half)
    {
      pd->half = true;
      pd->half_from = c->from;
      pd->half_to = c->item.zone;
      eng_live_accept (it, c);
      return true;
    }
  if (!eng_live_zone_eq (c->from, pd->half_to) || !eng_live_zone_eq (c->item.zone, pd->half_from))
    return false;
  EngMove mv = pd->move;
  mv.target[0] = (int8_t) eng_live_player_of_seat (it, pd->half_from.seat);
  mv.slot[0] = pd->half_from.index;
  mv.target[1] = (int8_t) eng_live_player_of_seat (it, pd->half_to.seat);
  mv.slot[1] = pd->half_to.index;
  pd->kind = PEND_NONE;
  if (!eng_live_complete_pending (it, &mv, c, out))
    {
      pd->kind = PEND_TELEPORT;   /* the card still waits for its swap */
      eng_live_say (out, ENG_EVENT_NEED, -1, "K8", ENG_N_ ("Put both cats back in their slots"));
      eng_live_complaint_add (it, c);
    }
  return true;
}

static void
card_moved (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  const KatState *s = kat_live_state (it);
  KatPending *pd = &kat_live_mind (it)->pend;
  if (teleport_move (it, c, out))
    return;
  if (c->item.kind == 'F' && pd->kind == PEND_SHIELD && c->item.zone.kind == ENG_ZONE_ATTACK
      && c->item.serial == shield_beam_serial (it, pd))
    {
      EngMove mv = pd->move;
      mv.target[0] = (int8_t) eng_live_player_of_seat (it, c->item.zone.seat);
      mv.slot[0] = c->item.zone.index;
      KatPending done = *pd;
      pd->kind = PEND_NONE;
      if (!eng_live_complete_pending (it, &mv, c, out))
        {
          pd = &kat_live_mind (it)->pend;
          *pd = done;   /* the Shield still waits for the move */
          eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "K7", ENG_N_ ("Put the UFO back where it was"));
          return;
        }
      next_copied_shield (it, &done, out);
      return;
    }
  bool cat_off = c->item.kind == 'F' && c->from.kind == ENG_ZONE_SLOT
                 && c->item.zone.kind == ENG_ZONE_CAPTURE;
  int from_p = eng_live_player_of_seat (it, c->from.seat);
  /* a face-up cat under attack taken straight to the attacker: the impact */
  if (cat_off && s->phase == KAT_PHASE_ATTACK && pd->kind == PEND_NONE)
    {
      const KatAttempt *a = &s->att[0];
      if (from_p == a->player && c->from.index == a->slot && s->face_up[a->player][a->slot])
        {
          apply_carried_off (it, c, KAT_HIT, a->player, out);
          return;
        }
    }
  /* A Hook on a cat that is already face up (K12): nothing to turn over, so
   * the table resolves it by carrying the cat off.  Found by
   * test-live-random (katua-3p-hook-face-up). */
  if (cat_off && s->phase == KAT_PHASE_HOOK
      && (pd->kind == PEND_NONE || (pd->kind == PEND_INTERCEPT && pd->n_queue == 0))
      && from_p == s->active && c->from.index == s->hook_slot
      && s->face_up[s->active][s->hook_slot])
    {
      apply_carried_off (it, c, KAT_FLIP, s->active, out);
      return;
    }
  char what[128], from[64];
  eng_live_item_words (it, &c->item, what, sizeof what);
  eng_live_zone_words (it, c->from, from, sizeof from);
  eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "table",
                   ENG_N_ ("Unexpected move: %s came from %s; put it back"), what, from);
}

/* ---- one change -------------------------------------------------------------------- */

/* A card reaching the discard pile: only UFOs laid for a `discard` turn. */
static void
card_discarded (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  const KatState *s = kat_live_state (it);
  const KatLive *d = eng_live_data (it);
  KatLiveMind *km = kat_live_mind (it);
  bool ufo = c->item.kind == 'B' ? c->item.serial == d->ufo_deck + 1
                                 : kat_live_card (it, c->item.serial)->deck == KAT_DECK_UFO;
  char what[128];
  if (ufo && s->phase == KAT_PHASE_TURN && !s->played_any && km->n_to_discard < 3)
    {
      km->to_discard[km->n_to_discard++] = c->item;
      eng_live_accept (it, c);
      if (km->n_to_discard == 1)
        eng_live_say (out, ENG_EVENT_NEED, s->active, "K3",
                      ENG_N_ ("%s: when every card to discard is on the pile, show the Discard card"), kat_live_name (it, s->active));
      return;
    }
  eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "K3",
                   ENG_N_ ("A card reached the discard pile that was not played: take back %s"),
                   eng_live_item_words (it, &c->item, what, sizeof what));
}

static void
card_appeared (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  char what[128];
  if (c->item.zone.kind == ENG_ZONE_DISCARD)
    {
      card_discarded (it, c, out);
      return;
    }
  if (c->item.kind == 'F' && kat_live_card (it, c->item.serial)->deck == KAT_DECK_UFO
      && (c->item.zone.kind == ENG_ZONE_ATTACK || c->item.zone.kind == ENG_ZONE_PLAY))
    {
      card_laid (it, c, out);
      return;
    }
  if (c->item.kind == 'B' && c->item.zone.kind == ENG_ZONE_SLOT)
    {
      eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "K15",
                       ENG_N_ ("A new cat appeared in %s's slot %d. Cats come only at the end of "
                               "a turn or with a Stampede: take it away"),
                       kat_live_name (it, eng_live_player_of_seat (it, c->item.zone.seat)),
                       c->item.zone.index + 1);
      return;
    }
  if (c->item.zone.kind == ENG_ZONE_NONE && c->item.kind == 'B')
    return;  /* a face-down card lying outside every zone is nothing yet */
  eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "table", ENG_N_ ("Unexpected card: %s; take it away"),
                   eng_live_item_words (it, &c->item, what, sizeof what));
}

void
kat_live_change (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  char what[128];
  switch (c->kind)
    {
    case ENG_LIVE_APPEAR:
      card_appeared (it, c, out);
      return;
    case ENG_LIVE_FLIP_UP:
      cat_flipped_up (it, c, out);
      return;
    case ENG_LIVE_FLIP_DOWN:
      eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "K14",
                       ENG_N_ ("%s's cat in slot %d was turned face down but must stay face up: "
                               "turn it back up"),
                       kat_live_name (it, eng_live_player_of_seat (it, c->item.zone.seat)),
                       c->item.zone.index + 1);
      return;
    case ENG_LIVE_MOVE:
      card_moved (it, c, out);
      return;
    case ENG_LIVE_VANISH:
      eng_live_refuse (it, c, out, ENG_EVENT_CONSERVATION, "table",
                       ENG_N_ ("A card vanished: %s; put it back"),
                       eng_live_item_words (it, &c->item, what, sizeof what));
      return;
    default:
      return;
    }
}

/* ---- the class ------------------------------------------------------------------------ */

static EngStatus
kat_live_init (EngInterpreter *it, void *data)
{
  KatLive *d = data;
  const EngCardSet *set = eng_live_set (it);
  size_t di;
  d->cat_deck = eng_card_set_find_deck (set, "cat", &di) == ENG_OK ? (int) di : 0;
  d->ufo_deck = eng_card_set_find_deck (set, "ufo", &di) == ENG_OK ? (int) di : 1;
  return ENG_OK;
}

static void
kat_live_begin_look (EngInterpreter *it)
{
  KatLive *d = eng_live_data (it);
  d->intercepts_this_look = 0;
}

/* "the face-down cat card in Ana's slot 1" */
static void
kat_live_back_words (const EngInterpreter *it, unsigned deck, const char *where, char *buf,
                     size_t size)
{
  const KatLive *d = eng_live_data (it);
  if ((int) deck == d->cat_deck)
    snprintf (buf, size, ENG_ ("the face-down cat card %s"), where);
  else
    snprintf (buf, size, ENG_ ("the face-down UFO card %s"), where);
}

/* A turn that left nothing on the table was most likely passed (K3), or
 * ended.  Questions and cancels are never guessed: they undo or decide. */
static const EngLiveGapCommand kat_gap_commands[] = {
  { "pass", ENG_N_ ("While the referee was away, did %s pass? Confirm, or cancel") },
  { "end-turn", ENG_N_ ("While the referee was away, did %s end the turn? Confirm, or cancel") },
  { NULL, NULL },
};

const EngLiveClass katua_live_class = {
  .name = "katua",
  .data_size = sizeof (KatLive),
  .flip_zones = 1u << ENG_ZONE_SLOT,
  .cover_zones = (1u << ENG_ZONE_DISCARD) | (1u << ENG_ZONE_CAPTURE),
  .n_slots = KAT_SLOTS,
  .n_spots = KAT_SLOTS,
  .n_centre = 0,
  .slot_noun = "cat",
  .moved_from = ENG_ZONE_SLOT,
  .moved_to = ENG_ZONE_CAPTURE,
  .cleanup_rule = "K11",
  .gap_commands = kat_gap_commands,
  .init = kat_live_init,
  .baseline_check = kat_live_baseline_check,
  .setup_need = kat_live_setup_need,
  .baseline_done = kat_live_baseline_done,
  .begin_look = kat_live_begin_look,
  .change = kat_live_change,
  .settle = kat_live_settle,
  .after_move = kat_live_after_move,
  .command = kat_live_command,
  .choice = kat_live_choice,
  .choose = kat_live_choose,
  .ask_again = kat_live_ask_again,
  .command_of_move = kat_live_command_of_move,
  .zone_words = NULL,
  .back_words = kat_live_back_words,
  .view = kat_live_view,
  .pending = kat_live_pending,
  .mind_notes = kat_live_mind_notes,
  .mind_parse = kat_live_mind_parse,
  .mind_rename = kat_live_mind_rename,
  .mind_forget = kat_live_mind_forget,
};
