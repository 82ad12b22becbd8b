/* kittens-live-hook.c: Exploding Kittens' commands (docs/kittens-live.md)
 * and the questions: the player a Favor, a pair or a trio is played against
 * (E7, E13), and the card a trio asks for.  Each names one candidate;
 * confirm takes it, cancel names the next (the screen answers the first). */
#include <stdio.h>
#include <string.h>

#include "kittens-live-private.h"

/* Takes the pending play's cards back (the rules refused it, or the table
 * cancelled it): they must leave the table. */
static void
take_back_pending (EngInterpreter *it, EngEvents *out)
{
  KitLiveMind *km = kit_live_mind (it);
  for (unsigned i = 0; i < km->n; i++)
    {
      char name[64];
      eng_live_face_name (it, km->cards[i], true, name, sizeof name);
      eng_live_expect_face_leaves (it, km->cards[i], ENG_N_ ("Take %s back into your hand"),
                                   name);
      if (i == 0)
        eng_live_say (out, ENG_EVENT_NEED, km->player, "",
                      ENG_N_ ("Cancelled: take %s back into your hand"), name);
    }
  memset (km, 0, sizeof *km);
}

void
kit_live_complete (EngInterpreter *it, int target, const EngLiveChange *c, EngEvents *out)
{
  KitLiveMind *km = kit_live_mind (it);
  KitLiveMind was = *km;
  EngMove mv;
  eng_move_init (&mv, was.verb, was.player);
  mv.card = was.cards[0];
  for (unsigned i = 1; i < was.n; i++)
    mv.cards[mv.n_cards++] = was.cards[i];
  const KitRules *r = kit_live_rules (it);
  if (was.verb == KIT_TRIO)
    mv.cards[mv.n_cards++] = r->cards[r->type_first[was.type]].serial;   /* the card asked for */
  mv.target[0] = (int8_t) target;
  memset (km, 0, sizeof *km);
  if (eng_live_complete_pending (it, &mv, c, out))
    return;
  /* refused: the mind is as before the call, the cards still lie there */
  *km = was;
  if (c != NULL)
    {
      km->n--;
      eng_live_take_back (it, c, out);
    }
  take_back_pending (it, out);
}

static void
say_question (EngInterpreter *it, EngEvents *out)
{
  KitLiveMind *km = kit_live_mind (it);
  int cand[KIT_MAX_PLAYERS];
  size_t n = kit_live_targets (it, km->player, cand);
  km->named = (int8_t) eng_live_ask_named (cand, n, km->named);
  eng_live_say (out, ENG_EVENT_NEED, km->player, km->verb == KIT_PLAY ? "E13" : "E7",
                ENG_N_ ("Against whom does %s play? Is it %s? Confirm, or cancel to name %s"),
                eng_live_player_name (it, km->player), eng_live_player_name (it, km->named),
                eng_live_player_name (it, eng_live_ask_next (cand, n, km->named)));
}

/* The card types a trio may ask for, in the set's order: every type but
 * the Exploding Kitten, which is never held (E8). */
static uint8_t
next_type (const KitRules *r, int from)
{
  for (int i = 1; i <= r->n_types; i++)
    {
      uint8_t t = (uint8_t) ((from + i) % r->n_types);
      if (r->cards[r->type_first[t]].kind != KIT_KIND_KITTEN)
        return t;
    }
  return 0;
}

static void
say_name (EngInterpreter *it, EngEvents *out)
{
  const KitRules *r = kit_live_rules (it);
  KitLiveMind *km = kit_live_mind (it);
  char now[64], next[64];
  eng_live_face_name (it, r->cards[r->type_first[km->type]].serial, false, now, sizeof now);
  eng_live_face_name (it, r->cards[r->type_first[next_type (r, km->type)]].serial, false, next,
                      sizeof next);
  eng_live_say (out, ENG_EVENT_NEED, km->player, "E7",
                ENG_N_ ("Which card does %s ask %s for? %s? Confirm, or cancel to name %s"),
                eng_live_player_name (it, km->player), eng_live_player_name (it, km->target),
                now, next);
}

/* The types of the discard pile's cards five different may take (not
 * its own five, E7), from the top down, each once.  The pile lies face
 * up: naming its cards reveals nothing (E16). */
static size_t
take_types (const EngInterpreter *it, uint8_t *types)
{
  const KitState *s = kit_live_state (it);
  const KitRules *r = kit_live_rules (it);
  size_t n = 0;
  for (int i = s->discard_n - 1; i >= 0; i--)
    {
      uint8_t k = s->discard[i];
      bool skip = false;
      for (int j = 0; j < s->open_n; j++)
        skip = skip || s->open_cards[j] == k;
      for (size_t j = 0; j < n; j++)
        skip = skip || types[j] == r->cards[k].type;
      if (!skip && n < KIT_MAX_TYPES)
        types[n++] = r->cards[k].type;
    }
  return n;
}

/* The topmost card of `type` five different may take (0: none). */
static uint16_t
take_card (const EngInterpreter *it, uint8_t type)
{
  const KitState *s = kit_live_state (it);
  const KitRules *r = kit_live_rules (it);
  for (int i = s->discard_n - 1; i >= 0; i--)
    {
      uint8_t k = s->discard[i];
      bool own = false;
      for (int j = 0; j < s->open_n; j++)
        own = own || s->open_cards[j] == k;
      if (!own && r->cards[k].type == type)
        return r->cards[k].serial;
    }
  return 0;
}

static void
say_take (EngInterpreter *it, EngEvents *out)
{
  KitLiveMind *km = kit_live_mind (it);
  uint8_t types[KIT_MAX_TYPES];
  size_t n = take_types (it, types);
  if (n == 0)
    return;
  size_t i = 0;
  while (i < n && types[i] != km->type)
    i++;
  if (i == n)
    i = 0;
  km->type = types[i];
  char now[64], next[64];
  eng_live_face_name (it, take_card (it, types[i]), false, now, sizeof now);
  eng_live_face_name (it, take_card (it, types[(i + 1) % n]), false, next, sizeof next);
  eng_live_say (out, ENG_EVENT_NEED, km->player, "E7",
                ENG_N_ ("Which card does %s take from the discard pile? %s? Confirm, or cancel "
                        "to name %s"), eng_live_player_name (it, km->player), now, next);
}

void
kit_live_ask_take (EngInterpreter *it, EngEvents *out)
{
  const KitState *s = kit_live_state (it);
  KitLiveMind *km = kit_live_mind (it);
  uint8_t types[KIT_MAX_TYPES];
  if (take_types (it, types) == 0)
    return;
  memset (km, 0, sizeof *km);
  km->kind = KIT_PEND_TAKE;
  km->verb = KIT_FIVE;
  km->player = (int8_t) s->give_to;
  km->named = -1;
  km->target = -1;
  km->type = types[0];
  say_take (it, out);
}

/* The card named is taken (the rules refuse it when it is not there). */
static void
take_named (EngInterpreter *it, EngEvents *out)
{
  KitLiveMind *km = kit_live_mind (it);
  KitLiveMind was = *km;
  EngMove mv;
  eng_move_init (&mv, KIT_TAKE, was.player);
  mv.card = take_card (it, was.type);
  memset (km, 0, sizeof *km);
  if (!eng_live_try_apply (it, &mv, NULL, out))
    *km = was;
}

/* The target of a pending play is known: a trio then names its card, the
 * others are applied. */
static void
target_known (EngInterpreter *it, int target, EngEvents *out)
{
  KitLiveMind *km = kit_live_mind (it);
  if (km->verb != KIT_TRIO)
    {
      kit_live_complete (it, target, NULL, out);
      return;
    }
  km->kind = KIT_PEND_NAME;
  km->target = (int8_t) target;
  km->named = -1;
  km->type = next_type (kit_live_rules (it), -1);
  say_name (it, out);
}

void
kit_live_ask_target (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  KitLiveMind *km = kit_live_mind (it);
  int cand[KIT_MAX_PLAYERS];
  size_t n = kit_live_targets (it, km->player, cand);
  if (n == 0 || (n == 1 && km->verb == KIT_PLAY))
    {
      /* one player to name (or none: the rules refuse it) */
      kit_live_complete (it, n == 1 ? cand[0] : (km->player + 1) % kit_live_state (it)->n_players,
                         c, out);
      return;
    }
  if (c != NULL)
    eng_live_accept (it, c);
  if (n == 1 && km->verb == KIT_TRIO)
    {
      target_known (it, cand[0], out);
      return;
    }
  km->named = (int8_t) cand[0];
  if (n == 1)
    {
      /* a pair against the only player to name waits: a third card makes
       * it three of a kind */
      eng_live_say (out, ENG_EVENT_NEED, km->player, "E7",
                    ENG_N_ ("%s: show the Confirm card to play the pair against %s, or lay a "
                            "third identical card"), eng_live_player_name (it, km->player),
                    eng_live_player_name (it, cand[0]));
      return;
    }
  say_question (it, out);
}

bool
kit_live_choice (const EngInterpreter *it, EngLiveChoice *out)
{
  const KitLiveMind *km = eng_live_mind_game_const (it);
  if (km->kind != KIT_PEND_TARGET || km->named < 0)
    return false;
  int cand[KIT_MAX_PLAYERS];
  size_t n = kit_live_targets (it, km->player, cand);
  return eng_live_ask_choice (cand, n, km->named, out);
}

EngStatus
kit_live_choose (EngInterpreter *it, int player, EngEvents *out)
{
  const KitLiveMind *km = kit_live_mind (it);
  if (km->kind != KIT_PEND_TARGET || km->named < 0)
    return ENG_ERR_STATE;
  if (player < 0 || player >= kit_live_state (it)->n_players)
    return ENG_ERR_INVALID_ARGUMENT;
  target_known (it, player, out);
  return ENG_OK;
}

/* ---- commands ----------------------------------------------------------------------- */

static void
apply_command_move (EngInterpreter *it, unsigned verb, int player, EngEvents *out)
{
  EngMove mv;
  eng_move_init (&mv, verb, player);
  if (verb == KIT_GIVE)
    mv.card = ENG_SERIAL_UNKNOWN;   /* handed over face down: nobody saw it (E9) */
  eng_live_try_apply (it, &mv, NULL, out);
}

/* confirm: the question's named player; the Favor's card handed over; the
 * open play resolved (its Nope window closed). */
static EngStatus
confirm (EngInterpreter *it, EngEvents *out)
{
  const KitState *s = kit_live_state (it);
  KitLiveMind *km = kit_live_mind (it);
  if (km->kind == KIT_PEND_TARGET && km->named >= 0)
    {
      target_known (it, km->named, out);
      return ENG_OK;
    }
  if (km->kind == KIT_PEND_NAME)
    {
      kit_live_complete (it, km->target, NULL, out);
      return ENG_OK;
    }
  if (km->kind == KIT_PEND_TAKE)
    {
      take_named (it, out);
      return ENG_OK;
    }
  if (km->kind == KIT_PEND_COMBO && km->verb == KIT_FIVE)
    {
      kit_live_say_five_left (it, ENG_EVENT_NOTE, km->player, KIT_COMBO_MAX - (unsigned) km->n,
                              out);
      return ENG_OK;
    }
  if (km->kind == KIT_PEND_COMBO)
    {
      eng_live_say (out, ENG_EVENT_NOTE, km->player, "E7",
                    ENG_N_ ("A pair needs its second card (or cancel)"));
      return ENG_OK;
    }
  if (s->phase == KIT_PHASE_GIVE && s->give_type == KIT_NONE)
    {
      apply_command_move (it, KIT_GIVE, s->give_from, out);
      return ENG_OK;
    }
  if (s->phase == KIT_PHASE_GIVE)
    {
      eng_live_say (out, ENG_EVENT_NOTE, s->give_from, "E7",
                    ENG_N_ ("%s: lay the card asked for in your play area, or show the Cancel "
                            "card if you have none"), eng_live_player_name (it, s->give_from));
      return ENG_OK;
    }
  if (s->phase == KIT_PHASE_TURN && s->open != KIT_OPEN_NONE)
    {
      apply_command_move (it, KIT_RESOLVE, s->open_player, out);
      return ENG_OK;
    }
  return ENG_ERR_NOT_FOUND;
}

static EngStatus
cancel (EngInterpreter *it, EngEvents *out)
{
  const KitState *s = kit_live_state (it);
  KitLiveMind *km = kit_live_mind (it);
  if (km->kind == KIT_PEND_NAME)
    {
      km->type = next_type (kit_live_rules (it), km->type);
      say_name (it, out);
      return ENG_OK;
    }
  if (km->kind == KIT_PEND_TAKE)
    {
      uint8_t types[KIT_MAX_TYPES];
      size_t n = take_types (it, types), i = 0;
      while (i < n && types[i] != km->type)
        i++;
      if (n > 0)
        km->type = types[(i + 1) % n];
      say_take (it, out);
      return ENG_OK;
    }
  if (km->kind == KIT_PEND_NONE && s->phase == KIT_PHASE_GIVE && s->give_type != KIT_NONE)
    {
      /* "I do not hold it" (the rules refuse it when the referee knows better) */
      EngMove mv;
      eng_move_init (&mv, KIT_GIVE, s->give_from);
      eng_live_try_apply (it, &mv, NULL, out);
      return ENG_OK;
    }
  if (km->kind == KIT_PEND_TARGET && km->named >= 0)
    {
      int cand[KIT_MAX_PLAYERS];
      size_t n = kit_live_targets (it, km->player, cand);
      if (n > 0)
        km->named = (int8_t) eng_live_ask_next (cand, n, km->named);
      say_question (it, out);
      return ENG_OK;
    }
  if (km->kind != KIT_PEND_NONE)
    {
      take_back_pending (it, out);
      return ENG_OK;
    }
  return ENG_ERR_NOT_FOUND;
}

/* end-turn: the active player draws (the open play resolved first, E12);
 * after an Exploding Kitten drawn, it means "no Defuse": the player is
 * out (E8, E14). */
static void
end_turn (EngInterpreter *it, EngEvents *out)
{
  const KitState *s = kit_live_state (it);
  if (kit_live_mind (it)->kind != KIT_PEND_NONE)
    {
      eng_live_say (out, ENG_EVENT_NOTE, -1, "table",
                    ENG_N_ ("First finish the card in play (or cancel it)"));
      return;
    }
  if (s->phase == KIT_PHASE_KITTEN)
    {
      apply_command_move (it, KIT_EXPLODE, s->active, out);
      return;
    }
  if (eng_live_expectations_block (it, out))
    return;
  apply_command_move (it, KIT_DRAW, s->active, out);
}

/* draw: the active player drew a card that is not a kitten, told by its
 * own card when the camera missed the draw.  A kitten drawn is in play
 * already: only a Defuse or end-turn (no Defuse) answers it. */
static void
drew (EngInterpreter *it, EngEvents *out)
{
  const KitState *s = kit_live_state (it);
  if (s->phase == KIT_PHASE_KITTEN)
    {
      eng_live_say (out, ENG_EVENT_NOTE, s->active, "E8",
                    ENG_N_ ("%s drew an Exploding Kitten. Lay a Defuse in your play area, or "
                            "show the End of turn card if you have none"),
                    eng_live_player_name (it, s->active));
      return;
    }
  end_turn (it, out);
}

/* done: "no Nope: go on": the open play's Nope window closes (E12).  With
 * nothing open it has nothing to close, and says so. */
static void
done (EngInterpreter *it, EngEvents *out)
{
  const KitState *s = kit_live_state (it);
  KitLiveMind *km = kit_live_mind (it);
  if (km->kind == KIT_PEND_NONE && s->phase == KIT_PHASE_TURN && s->open != KIT_OPEN_NONE)
    {
      apply_command_move (it, KIT_RESOLVE, s->open_player, out);
      return;
    }
  eng_live_say (out, ENG_EVENT_NOTE, -1, "E12",
                ENG_N_ ("No card waits for a Nope now: nothing to close"));
}

EngStatus
kit_live_command (EngInterpreter *it, const char *id, EngEvents *out)
{
  if (strcmp (id, "draw") == 0)
    {
      drew (it, out);
      return ENG_OK;
    }
  if (strcmp (id, "done") == 0)
    {
      done (it, out);
      return ENG_OK;
    }
  if (strcmp (id, "confirm") == 0)
    return confirm (it, out);
  if (strcmp (id, "cancel") == 0)
    return cancel (it, out);
  if (strcmp (id, "end-turn") == 0)
    {
      end_turn (it, out);
      return ENG_OK;
    }
  return ENG_ERR_NOT_FOUND;
}

const char *
kit_live_command_of_move (const EngMove *mv)
{
  switch (mv->verb)
    {
    case KIT_DRAW: return mv->show != 0 ? NULL : "end-turn";
    case KIT_EXPLODE: return "end-turn";
    case KIT_RESOLVE: return "confirm";
    case KIT_GIVE: return mv->card == ENG_SERIAL_UNKNOWN ? "confirm" : mv->card == 0 ? "cancel"
                                                                                    : NULL;
    default: return NULL;
    }
}

/* Whose answer the live referee waits for: the questions are the player's
 * who laid the cards (they name whom they play against, and what a trio
 * asks for, which card five different take). */
void
kit_live_view (const EngInterpreter *it, EngView *view)
{
  const KitLiveMind *km = eng_live_mind_game_const (it);
  if ((km->kind == KIT_PEND_TARGET && km->named >= 0) || km->kind == KIT_PEND_NAME
      || km->kind == KIT_PEND_TAKE)
    view->deciding = km->player;
}
