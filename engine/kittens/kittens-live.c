/* kittens-live.c: what a change on an Exploding Kittens table means
 * (docs/kittens-live.md).  Cards are played face up into the player's own
 * play area, so the camera knows who played them (a Nope may come from
 * anyone); the draw pile is not tracked, and hands are never seen (E9,
 * E16). */
#include <stdio.h>
#include <string.h>

#include "kittens-live-private.h"

const KitCard *
kit_live_card (const EngInterpreter *it, uint16_t serial)
{
  const KitRules *r = kit_live_rules (it);
  uint8_t k = kittens_card_index (r, serial);
  return k == KIT_NONE ? NULL : &r->cards[k];
}

size_t
kit_live_targets (const EngInterpreter *it, int player, int *out)
{
  const KitState *s = kit_live_state (it);
  size_t n = 0;
  for (int i = 1; i < s->n_players; i++)
    {
      int t = (player + i) % s->n_players;
      if (kittens_target_ok (s, player, t, true))
        out[n++] = t;
    }
  return n;
}

static void
apply_or_take_back (EngInterpreter *it, const EngMove *mv, const EngLiveChange *c,
                    EngEvents *out)
{
  if (!eng_live_try_apply (it, mv, c, out))
    eng_live_take_back (it, c, out);
}

static void
start_pending (EngInterpreter *it, KitPendKind kind, unsigned verb, int player,
               const EngLiveChange *c)
{
  eng_live_begin_pending (it, c);
  KitLiveMind *km = kit_live_mind (it);
  memset (km, 0, sizeof *km);
  km->kind = (uint8_t) kind;
  km->verb = (uint8_t) verb;
  km->player = (int8_t) player;
  km->named = -1;
  km->target = -1;
  km->cards[km->n++] = c->item.serial;
}

/* Whether the pending combo's cards and the face `serial` are all
 * identical (a pair or a trio, n + 1 <= 3) or all different (five
 * different so far, n + 1 <= 5), E7. */
static bool
combo_with (EngInterpreter *it, uint16_t serial, bool *identical, bool *different)
{
  const KitRules *r = kit_live_rules (it);
  const KitLiveMind *km = kit_live_mind (it);
  uint8_t ks[KIT_COMBO_MAX + 1];
  unsigned n = km->n;
  for (unsigned i = 0; i < n; i++)
    ks[i] = kittens_card_index (r, km->cards[i]);
  ks[n] = kittens_card_index (r, serial);
  *identical = km->verb != KIT_FIVE
               && ((n + 1 == 2 && kittens_pair_ok (r, ks))
                   || (n + 1 == 3 && kittens_trio_ok (r, ks)));
  *different = n + 1 <= KIT_COMBO_MAX && kittens_differ_ok (r, ks, n + 1);
  return *identical || *different;
}

/* Whether the face of `c` came with another face into the same play area
 * in this look: cards laid together are a combo, never single plays. */
static bool
laid_with_others (EngInterpreter *it, const EngLiveChange *c)
{
  const EngLiveMind *m = eng_live_mind_const (it);
  for (size_t i = 0; i < eng_live_n_table (it); i++)
    {
      const EngLiveItem *v = eng_live_table_item (it, i);
      if (v->kind == 'F' && v->serial != c->item.serial && eng_live_zone_eq (v->zone, c->item.zone)
          && eng_live_view_find (m, 'F', v->serial, 0) < 0)
        return true;
    }
  return false;
}

/* Five different cards so far: waits for the rest, or plays them. */
static void
five_laid (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  KitLiveMind *km = kit_live_mind (it);
  km->verb = KIT_FIVE;
  km->kind = KIT_PEND_COMBO;
  km->named = -1;
  if (km->n == KIT_COMBO_MAX)
    {
      kit_live_complete (it, -1, c, out);
      return;
    }
  bool more_coming = laid_with_others (it, c);
  eng_live_accept (it, c);
  if (more_coming)
    return;   /* the look's other cards follow: the need is said after them */
  kit_live_say_five_left (it, ENG_EVENT_NEED, km->player, KIT_COMBO_MAX - km->n, out);
}

void
kit_live_say_five_left (EngInterpreter *it, EngEventKind kind, int player, unsigned left,
                        EngEvents *out)
{
  /* "1 still to lay" is not what anyone says */
  if (left == 1)
    eng_live_say (out, kind, player, "E7",
                  ENG_N_ ("%s: five different cards, one more to lay, or show the Cancel card"),
                  eng_live_player_name (it, player));
  else
    eng_live_say (out, kind, player, "E7",
                  ENG_N_ ("%s: five different cards, %u still to lay, or show the Cancel card"),
                  eng_live_player_name (it, player), left);
}

/* A further card of a pending combo, laid by the player who laid the
 * first (E7): a pair's second, a trio's third, or a card of five
 * different; the refusal names what the combo cannot be. */
static void
combo_card (EngInterpreter *it, const EngLiveChange *c, const char *what, EngEvents *out)
{
  KitLiveMind *km = kit_live_mind (it);
  bool identical, different;
  if (!combo_with (it, c->item.serial, &identical, &different))
    {
      if (km->n >= 3 && km->verb == KIT_TRIO)
        eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "E7",
                         ENG_N_ ("Four cards are no combo: take back %s"), what);
      else if (km->n >= 2 && km->verb == KIT_PAIR)
        eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "E7",
                         ENG_N_ ("Not three of a kind, nor five different cards: take back %s"), what);
      else
        eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "E7",
                         ENG_N_ ("Five different cards repeat no kind: take back %s"), what);
      return;
    }
  if (identical)
    {
      km->cards[km->n++] = c->item.serial;
      km->verb = km->n == 3 ? KIT_TRIO : KIT_PAIR;
      km->kind = KIT_PEND_TARGET;
      kit_live_ask_target (it, c, out);
      return;
    }
  km->cards[km->n++] = c->item.serial;
  five_laid (it, c, out);
}

/* A card of a combo laid (E7): cats are never played alone, so a cat
 * starts a pair (or five different); any card laid together with others
 * does too.  Laid in one look or in several. */
static void
combo_laid (EngInterpreter *it, const EngLiveChange *c, int p, EngEvents *out)
{
  const KitState *s = kit_live_state (it);
  KitLiveMind *km = kit_live_mind (it);
  char what[128];
  eng_live_item_words (it, &c->item, what, sizeof what);
  if (km->kind == KIT_PEND_NONE)
    {
      if (s->phase != KIT_PHASE_TURN || p != s->active)
        {
          eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "E7",
                           ENG_N_ ("Cat cards are played in pairs by the player whose turn it "
                                   "is: take back %s"), what);
          return;
        }
      start_pending (it, KIT_PEND_COMBO, KIT_PAIR, p, c);
      if (!laid_with_others (it, c))
        eng_live_say (out, ENG_EVENT_NEED, p, "E7",
                      ENG_N_ ("%s: lay the second card of the pair, or show the Cancel card"),
                      eng_live_player_name (it, p));
      return;
    }
  bool mine = km->player == p;
  if (mine && (km->kind == KIT_PEND_COMBO
               || (km->kind == KIT_PEND_TARGET && km->verb != KIT_PLAY)))
    {
      combo_card (it, c, what, out);
      return;
    }
  eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "table",
                   ENG_N_ ("First finish the card in play (or cancel it): take back %s"), what);
}

/* A face laid in player p's play area. */
static void
card_laid (EngInterpreter *it, const EngLiveChange *c, int p, EngEvents *out)
{
  const KitState *s = kit_live_state (it);
  const KitLiveMind *km = kit_live_mind (it);
  const KitCard *card = kit_live_card (it, c->item.serial);
  char what[128];
  eng_live_item_words (it, &c->item, what, sizeof what);
  if (card == NULL)
    {
      eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "table",
                       ENG_N_ ("Unexpected card: %s; take it away"), what);
      return;
    }
  EngMove mv;
  if (s->phase == KIT_PHASE_GIVE && s->give_type != KIT_NONE && p == s->give_from)
    {
      /* a trio: the card asked for is shown as it is handed over (E7) */
      eng_move_init (&mv, KIT_GIVE, p);
      mv.card = c->item.serial;
      apply_or_take_back (it, &mv, c, out);
      return;
    }
  bool combo_open = km->kind == KIT_PEND_COMBO
                    || (km->kind == KIT_PEND_TARGET && km->verb != KIT_PLAY);
  if (card->kind == KIT_KIND_CAT || card->kind == KIT_KIND_FERAL
      || (card->kind != KIT_KIND_KITTEN && combo_open && km->player == p)
      || (card->kind != KIT_KIND_KITTEN && km->kind == KIT_PEND_NONE
          && s->phase == KIT_PHASE_TURN && s->open == KIT_OPEN_NONE && p == s->active
          && laid_with_others (it, c)))
    {
      combo_laid (it, c, p, out);
      return;
    }
  if (km->kind != KIT_PEND_NONE)
    {
      eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "table",
                       ENG_N_ ("First finish the card in play (or cancel it): take back %s"),
                       what);
      return;
    }
  switch (card->kind)
    {
    case KIT_KIND_KITTEN:
      /* the kitten drawn is shown where its drawer plays (E8) */
      eng_move_init (&mv, KIT_DRAW, p);
      mv.show = c->item.serial;
      break;
    case KIT_KIND_DEFUSE:
      eng_move_init (&mv, s->phase == KIT_PHASE_KITTEN ? KIT_DEFUSE : KIT_PLAY, p);
      mv.card = c->item.serial;
      break;
    case KIT_KIND_NOPE:
      eng_move_init (&mv, KIT_NOPE, p);
      mv.card = c->item.serial;
      break;
    default:
      if (kittens_kind_targets (card->kind) && s->phase == KIT_PHASE_TURN && p == s->active)
        {
          start_pending (it, KIT_PEND_TARGET, KIT_PLAY, p, c);
          kit_live_ask_target (it, NULL, out);
          return;
        }
      eng_move_init (&mv, KIT_PLAY, p);
      mv.card = c->item.serial;
      break;
    }
  apply_or_take_back (it, &mv, c, out);
}

/* The defused kitten leaves the table: it went back into the pile (E8). */
static bool
kitten_replaced (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  const KitState *s = kit_live_state (it);
  const KitRules *r = kit_live_rules (it);
  if (s->phase != KIT_PHASE_PLACE || c->item.kind != 'F' || s->kitten >= r->n_cards
      || r->cards[s->kitten].serial != c->item.serial)
    return false;
  EngMove mv;
  eng_move_init (&mv, KIT_REPLACE, s->active);
  eng_live_try_apply (it, &mv, c, out);
  return true;
}

/* The defused kitten gone from the table in this look: the core reads a
 * card gone after every card that arrived (a card gone has no time), so a
 * card the player lays in the same look would come before the kitten is
 * back in the pile (E8) and be refused.  The kitten's return is read
 * first; its own change then finds it out of the view. */
static void
kitten_gone_first (EngInterpreter *it, EngEvents *out)
{
  const KitState *s = kit_live_state (it);
  const KitRules *r = kit_live_rules (it);
  if (s->phase != KIT_PHASE_PLACE || s->kitten >= r->n_cards
      || eng_live_face_visible (it, r->cards[s->kitten].serial))
    return;
  const EngLiveMind *m = eng_live_mind_const (it);
  int vi = eng_live_view_find (m, 'F', r->cards[s->kitten].serial, 0);
  if (vi < 0)
    return;
  EngLiveChange gone = { .kind = ENG_LIVE_VANISH, .item = m->view[vi],
                         .from = m->view[vi].zone };
  kitten_replaced (it, &gone, out);
}

static void
kit_live_change (EngInterpreter *it, const EngLiveChange *c, EngEvents *out)
{
  if (c->kind != ENG_LIVE_VANISH)
    kitten_gone_first (it, out);
  char what[128];
  eng_live_item_words (it, &c->item, what, sizeof what);
  int p = c->item.zone.kind == ENG_ZONE_PLAY ? eng_live_player_of_seat (it, c->item.zone.seat)
                                             : -1;
  switch (c->kind)
    {
    case ENG_LIVE_APPEAR:
      if (p >= 0 && !((kit_live_state (it)->alive >> p) & 1))
        eng_live_accept (it, c);   /* an eliminated player's cards, out of play (E14) */
      else if (c->item.kind == 'F' && p >= 0)
        card_laid (it, c, p, out);
      else if (c->item.kind == 'B' && (c->item.zone.kind == ENG_ZONE_NONE
                                       || c->item.zone.kind == ENG_ZONE_DECK))
        return;  /* the draw pile, or a card on its way: nothing yet */
      else if (c->item.kind == 'B' && p >= 0)
        eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "E12",
                         ENG_N_ ("Cards are played face up: turn %s over or take it back"),
                         what);
      else if (c->item.zone.kind == ENG_ZONE_DISCARD)
        eng_live_refuse (it, c, out, ENG_EVENT_ILLEGAL, "E12",
                         ENG_N_ ("A card reached the discard pile that was not played: lay it "
                                 "in your play area, or take back %s"), what);
      else
        eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "table",
                         ENG_N_ ("Unexpected card: %s; take it away"), what);
      return;
    case ENG_LIVE_VANISH:
      if (kitten_replaced (it, c, out))
        return;
      if (eng_live_view_find (eng_live_mind_const (it), c->item.kind, c->item.serial,
                              c->item.track) < 0)
        return;   /* read already in this look (kitten_gone_first) */
      eng_live_refuse (it, c, out, ENG_EVENT_CONSERVATION, "table",
                       ENG_N_ ("A card vanished: %s; put it back"), what);
      return;
    case ENG_LIVE_MOVE:
      if (c->item.zone.kind == ENG_ZONE_DECK && kitten_replaced (it, c, out))
        return;
      {
        char from[64];
        eng_live_zone_words (it, c->from, from, sizeof from);
        eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "table",
                         ENG_N_ ("Unexpected move: %s came from %s; put it back"), what, from);
      }
      return;
    default:
      eng_live_refuse (it, c, out, ENG_EVENT_NOTE, "E16",
                       ENG_N_ ("Played cards stay face up: turn %s back"), what);
      return;
    }
}

/* A play nobody Noped goes ahead ("done", as confirm does), and a turn
 * ends with a draw (end-turn).  Questions and cancels are never guessed:
 * they undo or decide. */
static const EngLiveGapCommand kit_gap_commands[] = {
  { "done", ENG_N_ ("While the referee was away, did everyone let %s's card go on, with no "
                    "Nope? Confirm, or cancel") },
  { "end-turn", ENG_N_ ("While the referee was away, did %s draw and end the turn? Confirm, or "
                        "cancel") },
  { NULL, NULL },
};

const EngLiveClass kittens_live_class = {
  .name = "kittens",
  .data_size = 0,
  .flip_zones = 0,
  .cover_zones = 1u << ENG_ZONE_DISCARD,
  .n_slots = 0,
  .n_spots = 0,
  .n_centre = 0,
  .slot_noun = "card",
  .moved_from = 0,
  .moved_to = 0,
  .cleanup_rule = "E12",
  .gap_commands = kit_gap_commands,
  .init = NULL,
  .baseline_check = kit_live_baseline_check,
  .setup_need = kit_live_setup_need,
  .baseline_done = kit_live_baseline_done,
  .begin_look = NULL,
  .change = kit_live_change,
  .settle = NULL,
  .after_move = kit_live_after_move,
  .command = kit_live_command,
  .choice = kit_live_choice,
  .choose = kit_live_choose,
  .command_of_move = kit_live_command_of_move,
  .zone_words = NULL,
  .back_words = NULL,
  .view = kit_live_view,
  .pending = kit_live_pending,
  .mind_notes = kit_live_mind_notes,
  .mind_parse = kit_live_mind_parse,
  .mind_rename = kit_live_mind_rename,
  .mind_forget = kit_live_mind_forget,
};
