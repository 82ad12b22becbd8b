/* kittens-apply.c: applying an Exploding Kittens move.  Rule ids in
 * verdicts and events are the rulings of RULINGS.md (E1-E16); "set" marks a
 * card the set does not know, "turn" a move by the wrong player.
 *
 * The core's transaction (eng-play.h) applies every move to a scratch copy
 * of the state, which replaces the real one only when the whole move is
 * legal: a refused move changes nothing.
 *
 * Hidden information (E9, E16): events name a card only while its face is
 * up (played, on the discard pile, a kitten drawn); a card passing between
 * hands, the pile's order, what See the Future showed and where a kitten
 * went back are never written anywhere.
 */
#include "kittens-private.h"

#include "eng-i18n.h"
#include "eng-play.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* ---- small helpers ---------------------------------------------------- */

typedef struct {
  const KitRules *r;
  KitState *s;
  EngEvents *ev;     /* NULL: no text at all (fast path) */
  EngVerdict *why;
} Ctx;

typedef struct {
  char s[96];
} Words;

static const char *
pname (const KitState *s, int p)
{
  return (p >= 0 && p < s->n_players) ? s->names[p] : "?";
}

/* A face-up card as the table says it: its printed name with the
 * indefinite article ("an Attack"), never its serial (the record has it). */
static Words
card_words (const KitRules *r, uint8_t k)
{
  Words w;
  if (k >= r->n_cards)
    snprintf (w.s, sizeof w.s, "%s", ENG_ ("a card"));
  else
    snprintf (w.s, sizeof w.s, "%s",
              kittens_kind_a (r->cards[k].kind, r->cards[k].cat, r->cards[k].depth));
  return w;
}

/* Refusals and events through the core (eng-play.h): English formats
 * marked ENG_N_ at the call, translated only when text is formatted. */
#define refuse(c, st, rule, ...) eng_verdict_refuse ((c)->why, (st), (rule), __VA_ARGS__)
#define ILLEGAL(c, rule, ...) refuse ((c), ENG_ERR_ILLEGAL, (rule), __VA_ARGS__)
#define ev_add(c, ...) eng_events_say ((c)->ev, __VA_ARGS__)

/* Events are formatted only when someone reads them: the simulation path
 * evaluates no arguments at all. */
#define EV(c, ...) do { if ((c)->ev != NULL) ev_add ((c), __VA_ARGS__); } while (0)

static unsigned
n_alive (const KitState *s)
{
  return (unsigned) __builtin_popcount (s->alive);
}

static int
next_alive (const KitState *s, int p)
{
  for (int i = 1; i <= s->n_players; i++)
    {
      int q = ((p + s->dir * i) % s->n_players + s->n_players) % s->n_players;
      if ((s->alive >> q) & 1)
        return q;
    }
  return p;
}

/* Whether known card k lies somewhere other than p's hand. */
static bool
known_elsewhere (const KitState *s, int p, uint8_t k)
{
  for (int q = 0; q < s->n_players; q++)
    {
      if (q != p)
        for (int i = 0; i < s->hand_n[q]; i++)
          if (s->hand[q][i] == k)
            return true;
      if (s->out_kitten[q] == k)
        return true;
    }
  for (int i = 0; i < s->pile_n; i++)
    if (s->pile[i] == k)
      return true;
  for (int i = 0; i < s->discard_n; i++)
    if (s->discard[i] == k)
      return true;
  for (int i = 0; i < s->box_n; i++)
    if (s->box[i] == k)
      return true;
  return (s->phase == KIT_PHASE_KITTEN || s->phase == KIT_PHASE_PLACE) && s->kitten == k;
}

/* Removes `serial` (or '?') from p's hand; the card index removed goes to
 * *idx (KIT_UNKNOWN for a '?').  A card the referee knows to be elsewhere
 * cannot come out of a hand (conservation); an unseen one takes the place
 * of one of the hand's unknown tokens. */
static EngStatus
hand_take (Ctx *c, int p, uint16_t serial, uint8_t *idx)
{
  KitState *s = c->s;
  if (serial == ENG_SERIAL_UNKNOWN)
    {
      for (int i = s->hand_n[p] - 1; i >= 0; i--)
        if (s->hand[p][i] == KIT_UNKNOWN)
          {
            s->hand[p][i] = s->hand[p][--s->hand_n[p]];
            *idx = KIT_UNKNOWN;
            return ENG_OK;
          }
      if (s->hand_n[p] == 0)
        return ILLEGAL (c, "E13", ENG_N_ ("%s has no card in hand"), pname (s, p));
      return ILLEGAL (c, "E9", ENG_N_ ("the referee knows %s's hand: name the card"),
                      pname (s, p));
    }
  uint8_t k = kittens_card_index (c->r, serial);
  if (k == KIT_NONE)
    return ILLEGAL (c, "set", ENG_N_ ("card %u is not in this card set"), serial);
  if (c->r->cards[k].kind == KIT_KIND_KITTEN)
    return ILLEGAL (c, "E8", ENG_N_ ("an Exploding Kitten is never held"));
  for (int i = 0; i < s->hand_n[p]; i++)
    if (s->hand[p][i] == k)
      {
        s->hand[p][i] = s->hand[p][--s->hand_n[p]];
        *idx = k;
        return ENG_OK;
      }
  if (!known_elsewhere (s, p, k))
    for (int i = s->hand_n[p] - 1; i >= 0; i--)
      if (s->hand[p][i] == KIT_UNKNOWN)
        {
          s->hand[p][i] = s->hand[p][--s->hand_n[p]];
          *idx = k;
          return ENG_OK;
        }
  return refuse (c, ENG_ERR_CONSERVATION, "E9", ENG_N_ ("card %u is not in %s's hand"),
                 serial, pname (s, p));
}

/* Takes a played card of kind `kind` (KIT_KIND_COUNT: any) from p's hand. */
static EngStatus
hand_take_kind (Ctx *c, int p, uint16_t serial, int kind, const char *rule, uint8_t *idx)
{
  if (serial == 0 || serial == ENG_SERIAL_UNKNOWN)
    return ILLEGAL (c, rule, ENG_N_ ("a card played is face up: name it"));
  uint8_t k = kittens_card_index (c->r, serial);
  if (k == KIT_NONE)
    return ILLEGAL (c, "set", ENG_N_ ("card %u is not in this card set"), serial);
  if (kind != KIT_KIND_COUNT && c->r->cards[k].kind != kind)
    return ILLEGAL (c, rule, ENG_N_ ("%s is not a card of kind %s"),
                    kittens_kind_words (c->r->cards[k].kind, c->r->cards[k].cat, c->r->cards[k].depth),
                    kittens_kind_words ((unsigned) kind, 0, 3));
  return hand_take (c, p, serial, idx);
}

/* A live table forgets what it knew of a place whose order or content
 * changed unseen (a shuffle, a hand robbed at random). */
static void
forget (const KitState *s, uint8_t *items, unsigned n)
{
  if (s->omniscient)
    return;
  for (unsigned i = 0; i < n; i++)
    items[i] = KIT_UNKNOWN;
}

static void
to_hand (KitState *s, int p, uint8_t k)
{
  s->hand[p][s->hand_n[p]++] = k;
}

/* ---- turns (E3, E5, E10, E11) ----------------------------------------- */

static void
start_turn (Ctx *c, int p, unsigned owed, bool under_attack)
{
  KitState *s = c->s;
  s->active = (uint8_t) p;
  s->owed = (uint8_t) (owed > 250 ? 250 : owed);
  s->under_attack = under_attack;
  s->draw_bottom = 0;
  s->turn++;
  if (c->ev != NULL)
    {
      if (owed > 1)
        ev_add (c, ENG_EVENT_TURN, p, "E10", ENG_N_ ("%s's turn: %u turns to take"),
                pname (s, p), owed);
      else
        ev_add (c, ENG_EVENT_TURN, p, "E3", ENG_N_ ("%s's turn"), pname (s, p));
    }
}

/* The active player completes one turn (a draw, a Skip, a Defuse). */
static void
end_one_turn (Ctx *c)
{
  KitState *s = c->s;
  s->draw_bottom = 0;
  if (s->owed > 1)
    {
      s->owed--;
      s->turn++;
      if (s->owed == 1)
        EV (c, ENG_EVENT_NOTE, s->active, "E10", ENG_N_ ("%s has one more turn to take"),
            pname (s, s->active));
      else
        EV (c, ENG_EVENT_NOTE, s->active, "E10", ENG_N_ ("%s still has %u turns to take"),
            pname (s, s->active), s->owed);
      return;
    }
  start_turn (c, next_alive (s, s->active), 1, false);
}

/* An attack card's turns go to `to` (E10): from an ordinary turn exactly
 * the card's number; under attack, with stacking, every turn not completed
 * (the current one included) plus the card's number. */
static void
attack (Ctx *c, int to, unsigned turns)
{
  KitState *s = c->s;
  unsigned owed = turns;
  if (s->under_attack && c->r->attack_stacking == KIT_STACK_STACK)
    owed += s->owed;
  start_turn (c, to, owed, true);
}

/* ---- the open card and Nopes (E6, E12) --------------------------------- */

static void
swap_u8 (uint8_t *a, uint8_t *b)
{
  uint8_t t = *a;
  *a = *b;
  *b = t;
}

static void
effect_card (Ctx *c, uint8_t k, int player, int target)
{
  KitState *s = c->s;
  const KitCard *card = &c->r->cards[k];
  switch (card->kind)
    {
    case KIT_KIND_ATTACK:
    case KIT_KIND_TRIPLE:
      attack (c, next_alive (s, player), card->turns);
      break;
    case KIT_KIND_TARGETED:
      if (kittens_target_ok (s, player, target, false))
        attack (c, target, card->turns);
      break;
    case KIT_KIND_PERSONAL:
      s->owed = (uint8_t) (s->owed + card->turns);
      EV (c, ENG_EVENT_NOTE, player, "E5", ENG_N_ ("%s now has %u turns to take"),
          pname (s, player), s->owed);
      break;
    case KIT_KIND_SKIP:
      end_one_turn (c);
      break;
    case KIT_KIND_SUPER_SKIP:
      start_turn (c, next_alive (s, player), s->owed, s->under_attack);
      break;
    case KIT_KIND_REVERSE:
      if (n_alive (s) > 2)
        s->dir = (int8_t) -s->dir;
      end_one_turn (c);
      break;
    case KIT_KIND_FAVOR:
      if (!kittens_target_ok (s, player, target, true))
        {
          EV (c, ENG_EVENT_NOTE, target, "E13", ENG_N_ ("%s has no card to give"),
              pname (s, target));
          break;
        }
      s->phase = KIT_PHASE_GIVE;
      s->give_from = (uint8_t) target;
      s->give_to = (uint8_t) player;
      s->give_type = KIT_NONE;
      break;
    case KIT_KIND_SHUFFLE:
      if (s->omniscient)
        eng_rng_shuffle_u8 (&s->rng, s->pile, s->pile_n);
      forget (s, s->pile, s->pile_n);
      EV (c, ENG_EVENT_NOTE, player, "E1", ENG_N_ ("the draw pile is shuffled"));
      break;
    case KIT_KIND_SEE:
      EV (c, ENG_EVENT_NOTE, player, "E16",
          ENG_N_ ("%s looks at the top %u cards of the pile and puts them back in order"),
          pname (s, player), (unsigned) (card->depth < s->pile_n ? card->depth : s->pile_n));
      break;
    case KIT_KIND_ALTER:
      {
        unsigned d = card->depth < s->pile_n ? card->depth : s->pile_n;
        /* the player's new order is theirs alone: a simulation draws one */
        if (s->omniscient)
          eng_rng_shuffle_u8 (&s->rng, s->pile + s->pile_n - d, d);
        forget (s, s->pile + s->pile_n - d, d);
        EV (c, ENG_EVENT_NOTE, player, "E16",
            ENG_N_ ("%s looks at the top %u cards of the pile and puts them back in any order"),
            pname (s, player), d);
      }
      break;
    case KIT_KIND_BOTTOM:
      s->draw_bottom = 1;
      EV (c, ENG_EVENT_NOTE, player, "E5", ENG_N_ ("%s ends the turn drawing the bottom card"),
          pname (s, player));
      break;
    case KIT_KIND_SWAP:
      if (s->pile_n > 1)
        swap_u8 (&s->pile[0], &s->pile[s->pile_n - 1]);
      EV (c, ENG_EVENT_NOTE, player, "E1", ENG_N_ ("the top and bottom cards of the pile "
                                                   "swap places"));
      break;
    case KIT_KIND_BURY:
      if (s->pile_n > 1)
        {
          uint8_t top = s->pile[s->pile_n - 1];
          memmove (s->pile + 1, s->pile, s->pile_n - 1u);
          s->pile[0] = top;
        }
      EV (c, ENG_EVENT_NOTE, player, "E5",
          ENG_N_ ("%s draws the top card unseen and buries it at the bottom of the pile"),
          pname (s, player));
      end_one_turn (c);
      break;
    default:
      break;
    }
}

/* A pair: a card at random from the target's hand (E7).  A live table
 * cannot tell which card was taken, so the target's hand is forgotten. */
static void
effect_pair (Ctx *c, int player, int target)
{
  KitState *s = c->s;
  if (!kittens_target_ok (s, player, target, true))
    {
      EV (c, ENG_EVENT_NOTE, target, "E13", ENG_N_ ("%s has no card to take"),
          pname (s, target));
      return;
    }
  forget (s, s->hand[target], s->hand_n[target]);
  unsigned i = eng_rng_below (&s->rng, s->hand_n[target]);
  uint8_t k = s->hand[target][i];
  s->hand[target][i] = s->hand[target][--s->hand_n[target]];
  to_hand (s, player, k);
  EV (c, ENG_EVENT_NOTE, player, "E7", ENG_N_ ("%s takes a card at random from %s"),
      pname (s, player), pname (s, target));
}

static void
effect_five (Ctx *c, int player)
{
  KitState *s = c->s;
  for (int i = 0; i < s->discard_n; i++)
    {
      bool own = false;
      for (int j = 0; j < s->open_n; j++)
        own = own || s->discard[i] == s->open_cards[j];
      if (!own)
        {
          s->phase = KIT_PHASE_TAKE;
          s->give_to = (uint8_t) player;
          return;
        }
    }
  EV (c, ENG_EVENT_NOTE, player, "E7", ENG_N_ ("there is no other card on the discard pile"));
}

/* Closes the open card or combo: stopped when an odd number of Nopes lies
 * on it, carried out otherwise. */
static void
resolve_open (Ctx *c)
{
  KitState *s = c->s;
  if (s->open == KIT_OPEN_NONE)
    return;
  unsigned open = s->open;
  int player = s->open_player, target = s->open_target;
  bool stopped = s->nopes & 1;
  s->open = KIT_OPEN_NONE;
  if (stopped)
    {
      EV (c, ENG_EVENT_NOTE, player, "E6", ENG_N_ ("Noped: %s's play has no effect"),
          pname (s, player));
      return;
    }
  switch (open)
    {
    case KIT_OPEN_CARD:
      effect_card (c, s->open_cards[0], player, target);
      break;
    case KIT_OPEN_PAIR:
      effect_pair (c, player, target);
      break;
    case KIT_OPEN_TRIO:
      if (!kittens_target_ok (s, player, target, true))
        {
          EV (c, ENG_EVENT_NOTE, target, "E13", ENG_N_ ("%s has no card to give"),
              pname (s, target));
          break;
        }
      s->phase = KIT_PHASE_GIVE;
      s->give_from = (uint8_t) target;
      s->give_to = (uint8_t) player;
      s->give_type = s->open_type;
      break;
    case KIT_OPEN_FIVE:
      effect_five (c, player);
      break;
    default:
      break;
    }
}

/* ---- moves ------------------------------------------------------------ */

static void
to_discard (KitState *s, uint8_t k)
{
  s->discard[s->discard_n++] = k;
}

static void
open_play (Ctx *c, unsigned what, int player, int target, const uint8_t *cards, unsigned n)
{
  KitState *s = c->s;
  s->open = (uint8_t) what;
  s->open_player = (uint8_t) player;
  s->open_target = (int8_t) target;
  s->open_n = (uint8_t) n;
  s->nopes = 0;
  for (unsigned i = 0; i < n; i++)
    s->open_cards[i] = cards[i];
}

static EngStatus
apply_play (Ctx *c, const EngMove *m)
{
  KitState *s = c->s;
  uint8_t k;
  uint8_t peek = kittens_card_index (c->r, m->card);
  if (peek != KIT_NONE)
    {
      unsigned kind = c->r->cards[peek].kind;
      if (kind == KIT_KIND_DEFUSE)
        return ILLEGAL (c, "E8", ENG_N_ ("a Defuse is played only on an Exploding Kitten"));
      if (kind == KIT_KIND_NOPE)
        return ILLEGAL (c, "E12", ENG_N_ ("a Nope answers an open card: use 'nope'"));
      if (kind == KIT_KIND_CAT || kind == KIT_KIND_FERAL)
        return ILLEGAL (c, "E7", ENG_N_ ("cat cards are played only in combos"));
      if (!kittens_kind_playable (kind))
        return ILLEGAL (c, "E8", ENG_N_ ("an Exploding Kitten is never held"));
      bool targets = kittens_kind_targets (kind);
      if (targets && !kittens_target_ok (s, m->player, m->target[0], kind == KIT_KIND_FAVOR))
        return ILLEGAL (c, "E13", ENG_N_ ("name another living player with a card in hand"));
      if (!targets && m->target[0] >= 0)
        return ILLEGAL (c, "E5", ENG_N_ ("this card names no player"));
    }
  EngStatus st = hand_take_kind (c, m->player, m->card, KIT_KIND_COUNT, "E3", &k);
  if (st != ENG_OK)
    return st;
  to_discard (s, k);
  open_play (c, KIT_OPEN_CARD, m->player, m->target[0], &k, 1);
  if (c->ev != NULL)
    {
      if (m->target[0] >= 0)
        ev_add (c, ENG_EVENT_NOTE, m->player, "E12", ENG_N_ ("%s plays %s on %s"),
                pname (s, m->player), card_words (c->r, k).s, pname (s, m->target[0]));
      else
        ev_add (c, ENG_EVENT_NOTE, m->player, "E12", ENG_N_ ("%s plays %s"),
                pname (s, m->player), card_words (c->r, k).s);
    }
  return ENG_OK;
}

static EngStatus
apply_combo (Ctx *c, const EngMove *m)
{
  KitState *s = c->s;
  unsigned n = m->verb == KIT_PAIR ? 2 : m->verb == KIT_TRIO ? 3 : 5;
  uint16_t serials[KIT_COMBO_MAX] = { m->card, m->cards[0], m->cards[1], m->cards[2],
                                      m->cards[3] };
  uint8_t ks[KIT_COMBO_MAX];
  for (unsigned i = 0; i < n; i++)
    {
      ks[i] = kittens_card_index (c->r, serials[i]);
      if (ks[i] == KIT_NONE)
        return ILLEGAL (c, "set", ENG_N_ ("card %u is not in this card set"), serials[i]);
      for (unsigned j = 0; j < i; j++)
        if (ks[j] == ks[i])
          return ILLEGAL (c, "E7", ENG_N_ ("card %u is named twice"), serials[i]);
      if (c->r->cards[ks[i]].kind == KIT_KIND_KITTEN)
        return ILLEGAL (c, "E8", ENG_N_ ("an Exploding Kitten is never held"));
    }
  uint8_t named = KIT_NONE;
  if (m->verb == KIT_TRIO)
    {
      named = kittens_card_index (c->r, m->cards[2]);
      if (named == KIT_NONE)
        return ILLEGAL (c, "E7", ENG_N_ ("a trio names a card: give any serial of its kind"));
    }
  bool ok = m->verb == KIT_PAIR ? kittens_pair_ok (c->r, ks)
            : m->verb == KIT_TRIO ? kittens_trio_ok (c->r, ks) : kittens_five_ok (c->r, ks);
  if (!ok)
    return ILLEGAL (c, "E7", m->verb == KIT_FIVE ? ENG_N_ ("five cards must all differ")
                                                 : ENG_N_ ("the cards of a combo must be "
                                                           "identical"));
  if (m->verb != KIT_FIVE && !kittens_target_ok (s, m->player, m->target[0], true))
    return ILLEGAL (c, "E13", ENG_N_ ("name another living player with a card in hand"));
  for (unsigned i = 0; i < n; i++)
    {
      uint8_t k;
      EngStatus st = hand_take (c, m->player, serials[i], &k);
      if (st != ENG_OK)
        return st;
      to_discard (s, k);
    }
  open_play (c, m->verb == KIT_PAIR ? KIT_OPEN_PAIR : m->verb == KIT_TRIO ? KIT_OPEN_TRIO
                                                                          : KIT_OPEN_FIVE,
             m->player, m->verb == KIT_FIVE ? -1 : m->target[0], ks, n);
  if (named != KIT_NONE)
    s->open_type = c->r->cards[named].type;
  if (c->ev != NULL)
    {
      if (m->verb == KIT_PAIR)
        ev_add (c, ENG_EVENT_NOTE, m->player, "E7", ENG_N_ ("%s plays a pair against %s"),
                pname (s, m->player), pname (s, m->target[0]));
      else if (m->verb == KIT_TRIO)
        ev_add (c, ENG_EVENT_NOTE, m->player, "E7",
                ENG_N_ ("%s plays three of a kind and asks %s for this card: %s"),
                pname (s, m->player), pname (s, m->target[0]),
                kittens_kind_words (c->r->cards[named].kind, c->r->cards[named].cat,
                                    c->r->cards[named].depth));
      else
        ev_add (c, ENG_EVENT_NOTE, m->player, "E7",
                ENG_N_ ("%s plays five different cards to take one from the discard pile"),
                pname (s, m->player));
    }
  return ENG_OK;
}

static EngStatus
apply_nope (Ctx *c, const EngMove *m)
{
  KitState *s = c->s;
  if (s->phase == KIT_PHASE_KITTEN || s->phase == KIT_PHASE_PLACE)
    return ILLEGAL (c, "E12", ENG_N_ ("nothing stops an Exploding Kitten or a Defuse"));
  if (s->phase != KIT_PHASE_TURN || s->open == KIT_OPEN_NONE)
    return ILLEGAL (c, "E12", ENG_N_ ("there is no open card to Nope: the Nope goes back to "
                                      "hand"));
  if (s->open != KIT_OPEN_CARD && !c->r->nope_on_combo)
    return ILLEGAL (c, "E6", ENG_N_ ("a combo cannot be Noped (option nope_on_combo)"));
  uint8_t k;
  EngStatus st = hand_take_kind (c, m->player, m->card, KIT_KIND_NOPE, "E12", &k);
  if (st != ENG_OK)
    return st;
  to_discard (s, k);
  s->nopes++;
  EV (c, ENG_EVENT_NOTE, m->player, "E12",
      (s->nopes & 1) ? ENG_N_ ("%s plays %s: %s's play is stopped, unless Noped again")
                     : ENG_N_ ("%s plays %s: %s's play goes ahead again, unless Noped"),
      pname (s, m->player), card_words (c->r, k).s, pname (s, s->open_player));
  return ENG_OK;
}

/* The kitten on top (or bottom) is drawn.  A live table tells the referee
 * with `show` when it is an Exploding Kitten (E8: it is shown). */
static EngStatus
apply_draw (Ctx *c, const EngMove *m)
{
  KitState *s = c->s;
  if (s->pile_n == 0)
    return ILLEGAL (c, "E3", ENG_N_ ("the draw pile is empty"));
  unsigned pos = s->draw_bottom ? 0u : s->pile_n - 1u;
  uint8_t card = s->pile[pos];
  uint8_t shown = KIT_NONE;
  if (m->show != 0)
    {
      shown = kittens_card_index (c->r, m->show);
      if (shown == KIT_NONE)
        return ILLEGAL (c, "set", ENG_N_ ("card %u is not in this card set"), m->show);
      if (c->r->cards[shown].kind != KIT_KIND_KITTEN)
        return ILLEGAL (c, "E16", ENG_N_ ("only an Exploding Kitten drawn is shown"));
    }
  unsigned known_kittens = 0, tokens = 0;
  for (unsigned i = 0; i < s->pile_n; i++)
    {
      if (s->pile[i] == KIT_UNKNOWN)
        tokens++;
      else if (c->r->cards[s->pile[i]].kind == KIT_KIND_KITTEN)
        known_kittens++;
    }
  if (card != KIT_UNKNOWN)
    {
      if (shown != KIT_NONE && shown != card)
        return refuse (c, ENG_ERR_CONSERVATION, "E9",
                       ENG_N_ ("the referee knows that card is not card %u"), m->show);
    }
  else if (shown != KIT_NONE)
    {
      if (known_elsewhere (s, -1, shown) || s->pile_kittens <= known_kittens)
        return refuse (c, ENG_ERR_CONSERVATION, "E9",
                       ENG_N_ ("card %u cannot be in the draw pile"), m->show);
      card = shown;
    }
  else if (s->pile_kittens - known_kittens >= tokens)
    return refuse (c, ENG_ERR_CONSERVATION, "E8",
                   ENG_N_ ("only kittens are left unseen in the pile: show the kitten drawn"));
  memmove (s->pile + pos, s->pile + pos + 1, s->pile_n - pos - 1u);
  s->pile_n--;
  if (card != KIT_UNKNOWN && c->r->cards[card].kind == KIT_KIND_KITTEN)
    {
      s->pile_kittens--;
      s->kitten = card;
      s->phase = KIT_PHASE_KITTEN;
      EngEvent *e = c->ev ? ev_add (c, ENG_EVENT_SHOWN, m->player, "E8",
                                    ENG_N_ ("%s draws %s!"), pname (s, m->player),
                                    card_words (c->r, card).s)
                          : NULL;
      if (e != NULL)
        e->value = (int16_t) c->r->cards[card].serial;
      return ENG_OK;
    }
  to_hand (s, m->player, card);
  EV (c, ENG_EVENT_NOTE, m->player, "E3", ENG_N_ ("%s draws a card"), pname (s, m->player));
  end_one_turn (c);
  return ENG_OK;
}

static EngStatus
apply_give (Ctx *c, const EngMove *m)
{
  KitState *s = c->s;
  int from = s->give_from, to = s->give_to;
  if (s->give_type == KIT_NONE && m->card == 0)
    return ILLEGAL (c, "E13", ENG_N_ ("a Favor: give one card (its serial, or '?')"));
  if (s->give_type != KIT_NONE && m->card == 0)
    {
      /* "I have none": refused when the referee knows otherwise */
      for (int i = 0; i < s->hand_n[from]; i++)
        if (s->hand[from][i] != KIT_UNKNOWN && c->r->cards[s->hand[from][i]].type == s->give_type)
          return ILLEGAL (c, "E7", ENG_N_ ("%s holds the card asked for and must give it"),
                          pname (s, from));
      s->phase = KIT_PHASE_TURN;
      EV (c, ENG_EVENT_NOTE, from, "E7", ENG_N_ ("%s does not hold the card asked for"),
          pname (s, from));
      return ENG_OK;
    }
  uint8_t k;
  if (s->give_type != KIT_NONE)
    {
      uint8_t want = kittens_card_index (c->r, m->card);
      if (m->card == ENG_SERIAL_UNKNOWN || want == KIT_NONE
          || c->r->cards[want].type != s->give_type)
        return ILLEGAL (c, "E7", ENG_N_ ("give a card of the kind asked for, by its serial"));
    }
  /* a card passed face down on a live table: the referee can no longer
   * tell which of the giver's cards left */
  if (m->card == ENG_SERIAL_UNKNOWN)
    forget (s, s->hand[from], s->hand_n[from]);
  EngStatus st = hand_take (c, from, m->card, &k);
  if (st != ENG_OK)
    return st;
  to_hand (s, to, k);
  s->phase = KIT_PHASE_TURN;
  EV (c, ENG_EVENT_NOTE, from, s->give_type == KIT_NONE ? "E13" : "E7",
      ENG_N_ ("%s gives %s a card, face down"), pname (s, from), pname (s, to));
  return ENG_OK;
}

static EngStatus
apply_take (Ctx *c, const EngMove *m)
{
  KitState *s = c->s;
  uint8_t k = kittens_card_index (c->r, m->card);
  int at = -1;
  for (int i = 0; k != KIT_NONE && i < s->discard_n; i++)
    if (s->discard[i] == k)
      at = i;
  for (int j = 0; j < s->open_n; j++)
    if (s->open_cards[j] == k)
      at = -1;
  if (at < 0)
    return ILLEGAL (c, "E7", ENG_N_ ("take a card of the discard pile other than the five "
                                     "just played"));
  memmove (s->discard + at, s->discard + at + 1, s->discard_n - (unsigned) at - 1u);
  s->discard_n--;
  to_hand (s, m->player, k);
  s->phase = KIT_PHASE_TURN;
  EV (c, ENG_EVENT_NOTE, m->player, "E7", ENG_N_ ("%s takes a card from the discard pile"),
      pname (s, m->player));
  return ENG_OK;
}

static EngStatus
apply_kitten (Ctx *c, const EngMove *m)
{
  KitState *s = c->s;
  int p = s->active;
  if (m->verb == KIT_DEFUSE)
    {
      uint8_t k;
      EngStatus st = hand_take_kind (c, p, m->card, KIT_KIND_DEFUSE, "E8", &k);
      if (st != ENG_OK)
        return st;
      to_discard (s, k);
      s->phase = KIT_PHASE_PLACE;
      EV (c, ENG_EVENT_NOTE, p, "E8", ENG_N_ ("%s plays %s and is saved"), pname (s, p),
          card_words (c->r, k).s);
      return ENG_OK;
    }
  if (m->verb != KIT_EXPLODE)
    return ILLEGAL (c, "E8", ENG_N_ ("%s must play a Defuse or explode"), pname (s, p));
  s->alive &= (uint8_t) ~(1u << p);
  s->out_kitten[p] = s->kitten;
  s->kitten = KIT_NONE;
  EV (c, ENG_EVENT_NOTE, p, "E14", ENG_N_ ("%s explodes and is out; their cards leave play"),
      pname (s, p));
  if (n_alive (s) <= 1)
    {
      s->phase = KIT_PHASE_OVER;
      s->winner = (uint8_t) __builtin_ctz (s->alive);
      EngEvent *e = c->ev ? ev_add (c, ENG_EVENT_GAME_OVER, s->winner, "E8",
                                    ENG_N_ ("%s is the last player in and wins"),
                                    pname (s, s->winner))
                          : NULL;
      if (e != NULL)
        {
          e->winners = (uint16_t) (1u << s->winner);
          snprintf (e->tiebreak, sizeof e->tiebreak, "last-alive");
        }
      return ENG_OK;
    }
  s->phase = KIT_PHASE_TURN;
  start_turn (c, next_alive (s, p), 1, false);
  return ENG_OK;
}

/* The defused kitten goes back into the pile unseen (E8, E16): a seeded
 * game keeps the place it drew for it; a live table cannot know the
 * place, so the pile's order is forgotten. */
static EngStatus
apply_replace (Ctx *c)
{
  KitState *s = c->s;
  unsigned at = eng_rng_below (&s->rng, s->pile_n + 1u);
  memmove (s->pile + at + 1, s->pile + at, s->pile_n - at);
  s->pile[at] = s->kitten;
  s->pile_n++;
  s->pile_kittens++;
  forget (s, s->pile, s->pile_n);
  s->kitten = KIT_NONE;
  s->phase = KIT_PHASE_TURN;
  EV (c, ENG_EVENT_NOTE, s->active, "E8",
      ENG_N_ ("%s puts the Exploding Kitten back into the pile, unseen"),
      pname (s, s->active));
  end_one_turn (c);
  return ENG_OK;
}

static bool
alive_player (const KitState *s, int p)
{
  return p >= 0 && p < s->n_players && ((s->alive >> p) & 1);
}

static EngStatus
dispatch_turn (Ctx *c, const EngMove *m)
{
  KitState *s = c->s;
  switch (m->verb)
    {
    case KIT_RESOLVE:
      if (s->open == KIT_OPEN_NONE)
        return ILLEGAL (c, "E12", ENG_N_ ("there is no open card to resolve"));
      resolve_open (c);
      return ENG_OK;
    case KIT_GIVE:
      return ILLEGAL (c, "E13", ENG_N_ ("nobody is asked for a card"));
    case KIT_TAKE:
      return ILLEGAL (c, "E7", ENG_N_ ("nobody takes from the discard pile now"));
    case KIT_DEFUSE:
    case KIT_EXPLODE:
    case KIT_REPLACE:
      return ILLEGAL (c, "E8", ENG_N_ ("no Exploding Kitten was drawn"));
    default:
      break;
    }
  if (m->player != s->active)
    return ILLEGAL (c, "turn", ENG_N_ ("it is %s's turn"), pname (s, s->active));
  switch (m->verb)
    {
    case KIT_DRAW: return apply_draw (c, m);
    case KIT_PLAY: return apply_play (c, m);
    default: return apply_combo (c, m);
    }
}

static EngStatus
dispatch (Ctx *c, const EngMove *m)
{
  KitState *s = c->s;
  if (m->player < 0 || m->player >= s->n_players)
    return ILLEGAL (c, "turn", ENG_N_ ("no such player"));
  if (m->verb >= KIT_VERB_COUNT || m->n_cards > ENG_MOVE_MAX_CARDS)
    return ILLEGAL (c, "turn", ENG_N_ ("unknown move"));
  for (int i = 0; i < 2; i++)
    if (m->target[i] >= s->n_players)
      return ILLEGAL (c, "turn", ENG_N_ ("no such player"));
  if (s->phase == KIT_PHASE_OVER)
    return refuse (c, ENG_ERR_STATE, "E8", ENG_N_ ("the game is over"));
  if (!alive_player (s, m->player))
    return ILLEGAL (c, "E13", ENG_N_ ("%s is out of the game"), pname (s, m->player));
  if (m->verb == KIT_NOPE)
    return apply_nope (c, m);
  /* any other move closes the open card first (E12) */
  if (s->phase == KIT_PHASE_TURN && m->verb != KIT_RESOLVE)
    resolve_open (c);
  switch (s->phase)
    {
    case KIT_PHASE_GIVE:
      if (m->verb != KIT_GIVE || m->player != s->give_from)
        return ILLEGAL (c, "E13", ENG_N_ ("%s must first give %s a card"),
                        pname (s, s->give_from), pname (s, s->give_to));
      return apply_give (c, m);
    case KIT_PHASE_TAKE:
      if (m->verb != KIT_TAKE || m->player != s->give_to)
        return ILLEGAL (c, "E7", ENG_N_ ("%s must first take a card from the discard pile"),
                        pname (s, s->give_to));
      return apply_take (c, m);
    case KIT_PHASE_KITTEN:
      if (m->player != s->active)
        return ILLEGAL (c, "E8", ENG_N_ ("%s must first defuse or explode"),
                        pname (s, s->active));
      return apply_kitten (c, m);
    case KIT_PHASE_PLACE:
      if (m->player != s->active || m->verb != KIT_REPLACE)
        return ILLEGAL (c, "E8", ENG_N_ ("%s must first put the kitten back into the pile"),
                        pname (s, s->active));
      return apply_replace (c);
    default:
      return dispatch_turn (c, m);
    }
}

static void
need_for_phase (Ctx *c)
{
  const KitState *s = c->s;
  if (c->ev == NULL || s->phase == KIT_PHASE_OVER)
    return;
  int who = kittens_game_class.to_move (c->r, s);
  const char *n = pname (s, who);
  switch (s->phase)
    {
    case KIT_PHASE_GIVE:
      ev_add (c, ENG_EVENT_NEED, who, "", ENG_N_ ("%s: give %s a card"), n,
              pname (s, s->give_to));
      break;
    case KIT_PHASE_TAKE:
      ev_add (c, ENG_EVENT_NEED, who, "", ENG_N_ ("%s: take a card from the discard pile"), n);
      break;
    case KIT_PHASE_KITTEN:
      ev_add (c, ENG_EVENT_NEED, who, "", ENG_N_ ("%s: play a Defuse or explode"), n);
      break;
    case KIT_PHASE_PLACE:
      ev_add (c, ENG_EVENT_NEED, who, "",
              ENG_N_ ("%s: put the kitten back into the pile, unseen"), n);
      break;
    default:
      if (s->open != KIT_OPEN_NONE)
        ev_add (c, ENG_EVENT_NEED, -1, "", ENG_N_ ("anyone may Nope %s's play; then go on"),
                pname (s, s->open_player));
      else
        ev_add (c, ENG_EVENT_NEED, who, "", ENG_N_ ("%s: play cards, or draw to end the turn"),
                n);
    }
}

/* EngGameClass.play: the core's transaction (eng-play.h) hands over the
 * scratch copy; dispatch words its own refusal of a move outside the table
 * (play_checks_shape). */
EngStatus
kittens_play (EngPlay *play, const EngMove *move)
{
  Ctx c = { play->rules, play->state, play->events, play->why };
  EngStatus st = dispatch (&c, move);
  if (st == ENG_OK)
    need_for_phase (&c);
  return st;
}
