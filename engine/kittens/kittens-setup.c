/* kittens-setup.c: the deal (E2, E15) and card conservation.
 *
 * The deal per the rulebook: Exploding Kittens and Defuses are taken out
 * first; each player gets one Defuse and 7 other cards; players - 1 kittens
 * and the spare Defuses (all, or two with spare_defuses = two) go into the
 * pile, which is shuffled; the rest is boxed.  Deal lines of a record fix
 * cards (docs/record-format.md): `hand` is a player's whole hand, `pile`
 * the top of the pile (top first), `discard` the discard pile (bottom
 * first).  With a seed every card is known; without one (a live table)
 * every position the deal lines do not fix holds an unknown token.
 */
#include "kittens-private.h"

#include "eng-i18n.h"
#include "eng-play.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* a card dealt unseen is the core's unknown token */
_Static_assert (KIT_UNKNOWN == ENG_CARD_UNKNOWN, "one unknown token");

#define setup_refuse eng_verdict_refuse

typedef struct {
  const EngDeal *hand[KIT_MAX_PLAYERS];
  const EngDeal *pile, *discard;
} Fixed;

/* Reads the deal lines: which cards they fix, each once. */
static EngStatus
read_deals (const KitRules *r, const EngSetup *su, Fixed *fx, bool *used, EngVerdict *why)
{
  memset (fx, 0, sizeof *fx);
  for (size_t i = 0; i < su->n_deals; i++)
    {
      const EngDeal *d = &su->deals[i];
      const EngDeal **slot;
      bool per_player = true, unknown_ok = true;
      if (strcmp (d->place, "hand") == 0)
        slot = &fx->hand[d->player < 0 ? 0 : d->player];
      else if (strcmp (d->place, "pile") == 0)
        slot = &fx->pile, per_player = false;
      else if (strcmp (d->place, "discard") == 0)
        slot = &fx->discard, per_player = false, unknown_ok = false;
      else
        return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "setup",
                             "unknown place '%s' (hand, pile, discard)", d->place);
      if (per_player != (d->player >= 0))
        return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "setup", "deal %s %s a player's "
                             "name", d->place, per_player ? "needs" : "takes no");
      if (d->player >= (int) su->n_players)
        return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "setup", "no such player");
      if (*slot != NULL)
        return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "setup", "place %s dealt twice",
                             d->place);
      if (d->n_cards > KIT_MAX_CARDS - 2)
        return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "setup", "too many cards in %s",
                             d->place);
      *slot = d;
      for (unsigned k = 0; k < d->n_cards; k++)
        {
          if (d->cards[k] == ENG_SERIAL_UNKNOWN)
            {
              if (!unknown_ok)
                return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "setup",
                                     "%s cards are face up: name them", d->place);
              continue;
            }
          uint8_t idx = kittens_card_index (r, d->cards[k]);
          if (idx == KIT_NONE)
            return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "set",
                                 ENG_N_ ("card %u is not in this card set"), d->cards[k]);
          if (slot != &fx->pile && r->cards[idx].kind == KIT_KIND_KITTEN)
            return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "E2",
                                 ENG_N_ ("an Exploding Kitten is dealt only into the pile"));
          if (used[idx])
            return setup_refuse (why, ENG_ERR_CONSERVATION, "setup", "card %u dealt twice",
                                 d->cards[k]);
          used[idx] = true;
        }
    }
  return ENG_OK;
}

/* Deals the hands the deal lines leave open: one Defuse and 7 others. */
static EngStatus
deal_hands (KitState *s, const Fixed *fx, EngCardPool *defuses, EngCardPool *others,
            const KitRules *r, EngVerdict *why)
{
  for (int p = 0; p < s->n_players; p++)
    {
      s->out_kitten[p] = KIT_NONE;
      if (fx->hand[p] != NULL)
        {
          for (unsigned k = 0; k < fx->hand[p]->n_cards; k++)
            {
              uint16_t c = fx->hand[p]->cards[k];
              uint8_t *at = &s->hand[p][s->hand_n[p]++];
              if (c != ENG_SERIAL_UNKNOWN)
                *at = kittens_card_index (r, c);
              /* an unseen card of a hand is one of the cards left to deal */
              else if (!eng_card_pool_take (others, s->omniscient, at)
                       && !eng_card_pool_take (defuses, s->omniscient, at))
                return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "E2",
                                     ENG_N_ ("not enough cards to deal 7 to each player"));
            }
          continue;
        }
      if (!eng_card_pool_take (defuses, s->omniscient, &s->hand[p][s->hand_n[p]++]))
        return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "E2",
                             ENG_N_ ("not enough Defuse cards: one per player"));
      for (int k = 0; k < 7; k++)
        if (!eng_card_pool_take (others, s->omniscient, &s->hand[p][s->hand_n[p]++]))
          return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "E2",
                               ENG_N_ ("not enough cards to deal 7 to each player"));
    }
  return ENG_OK;
}

/* Stacks the pile: players - 1 kittens in all (E2), counting those a deal
 * line fixed on top, the spare Defuses and the other cards shuffled below
 * the fixed top; the kittens and Defuses left over go back into the box. */
static EngStatus
stack_pile (const KitRules *r, KitState *s, const Fixed *fx, EngCardPool *kittens,
            EngCardPool *defuses, EngCardPool *others, EngVerdict *why)
{
  unsigned top_kittens = 0, top_unknown = 0;
  for (unsigned k = 0; fx->pile != NULL && k < fx->pile->n_cards; k++)
    {
      uint16_t c = fx->pile->cards[k];
      if (c == ENG_SERIAL_UNKNOWN)
        top_unknown++;
      else if (r->cards[kittens_card_index (r, c)].kind == KIT_KIND_KITTEN)
        top_kittens++;
    }
  unsigned want = s->n_players - 1u;
  if (top_kittens > want || kittens->n + top_kittens < want)
    return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "E2",
                         ENG_N_ ("the pile takes exactly %u Exploding Kittens"), want);
  EngCardPool rest = { .n = 0 };
  for (unsigned k = top_kittens; k < want; k++)
    eng_card_pool_take (kittens, true, &rest.items[rest.n++]);
  unsigned spare = r->spare_defuses == KIT_SPARE_TWO && defuses->n > 2 ? 2 : defuses->n;
  for (unsigned k = 0; k < spare; k++)
    eng_card_pool_take (defuses, true, &rest.items[rest.n++]);
  while (others->n > 0)
    eng_card_pool_take (others, true, &rest.items[rest.n++]);
  for (unsigned k = 0; k < kittens->n; k++)
    s->box[s->box_n++] = s->omniscient ? kittens->items[k] : KIT_UNKNOWN;
  for (unsigned k = 0; k < defuses->n; k++)
    s->box[s->box_n++] = s->omniscient ? defuses->items[k] : KIT_UNKNOWN;
  if (rest.n < top_unknown)
    return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "setup",
                         "the pile cannot hold that many unseen cards");
  if (s->omniscient)
    eng_rng_shuffle_u8 (&s->rng, rest.items, rest.n);
  /* the rest of the pool below the cards a deal line put on top */
  unsigned below = rest.n - top_unknown, next = below;
  for (unsigned k = 0; k < below; k++)
    s->pile[s->pile_n++] = s->omniscient ? rest.items[k] : KIT_UNKNOWN;
  for (int k = fx->pile ? fx->pile->n_cards - 1 : -1; k >= 0; k--)
    {
      uint16_t c = fx->pile->cards[k];
      s->pile[s->pile_n++] = c != ENG_SERIAL_UNKNOWN ? kittens_card_index (r, c)
                             : s->omniscient ? rest.items[next++] : KIT_UNKNOWN;
    }
  s->pile_kittens = (uint8_t) want;
  return ENG_OK;
}

EngStatus
kittens_setup (const void *rules, const EngSetup *su, const EngRng *rng, void *state,
               EngEvents *events, EngVerdict *why)
{
  const KitRules *r = rules;
  KitState *s = state;
  if (su->n_players < 2 || su->n_players > KIT_MAX_PLAYERS)
    return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "players",
                         ENG_N_ ("Exploding Kittens is for 2 to 5 players, not %u"),
                         su->n_players);
  memset (s, 0, sizeof *s);
  s->n_players = (uint8_t) su->n_players;
  for (unsigned p = 0; p < su->n_players; p++)
    snprintf (s->names[p], sizeof s->names[p], "%s", su->names[p]);
  s->rng = *rng;
  s->omniscient = su->has_seed;
  s->dir = 1;
  s->alive = (uint8_t) ((1u << su->n_players) - 1u);
  s->kitten = KIT_NONE;
  s->open_target = -1;
  int first = su->first >= 0 ? su->first : 0;
  if (first >= (int) su->n_players)
    return setup_refuse (why, ENG_ERR_INVALID_ARGUMENT, "E3", ENG_N_ ("no such first player"));

  bool used[KIT_MAX_CARDS] = { false };
  Fixed fx;
  EngStatus st = read_deals (r, su, &fx, used, why);
  if (st != ENG_OK)
    return st;
  EngCardPool kittens = { .n = 0 }, defuses = { .n = 0 }, others = { .n = 0 };
  for (unsigned i = 0; i < r->n_cards; i++)
    if (!used[i])
      {
        EngCardPool *pl = r->cards[i].kind == KIT_KIND_KITTEN ? &kittens
                          : r->cards[i].kind == KIT_KIND_DEFUSE ? &defuses : &others;
        pl->items[pl->n++] = (uint8_t) i;
      }
  if (s->omniscient)
    {
      eng_rng_shuffle_u8 (&s->rng, kittens.items, kittens.n);
      eng_rng_shuffle_u8 (&s->rng, defuses.items, defuses.n);
      eng_rng_shuffle_u8 (&s->rng, others.items, others.n);
    }
  st = deal_hands (s, &fx, &defuses, &others, r, why);
  if (st != ENG_OK)
    return st;

  st = stack_pile (r, s, &fx, &kittens, &defuses, &others, why);
  if (st != ENG_OK)
    return st;
  for (unsigned k = 0; fx.discard != NULL && k < fx.discard->n_cards; k++)
    s->discard[s->discard_n++] = kittens_card_index (r, fx.discard->cards[k]);

  s->active = (uint8_t) first;
  s->owed = 1;
  s->turn = 1;
  if (events != NULL)
    {
      EngEvent *e = eng_events_addf (events, ENG_EVENT_TURN, "E3", ENG_ ("%s's turn"),
                                     s->names[first]);
      if (e != NULL)
        e->player = (int8_t) first;
      e = eng_events_addf (events, ENG_EVENT_NEED, "",
                           ENG_ ("%s: play cards, or draw to end the turn"), s->names[first]);
      if (e != NULL)
        e->player = (int8_t) first;
    }
  return ENG_OK;
}

/* ---- conservation ----------------------------------------------------- */

static EngStatus
conservation_fail (EngVerdict *why, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));

static EngStatus
conservation_fail (EngVerdict *why, const char *fmt, ...)
{
  if (why != NULL)
    {
      snprintf (why->rule, sizeof why->rule, "E9");
      va_list ap;
      va_start (ap, fmt);
      vsnprintf (why->reason, sizeof why->reason, ENG_ (fmt), ap);
      va_end (ap);
    }
  return ENG_ERR_CONSERVATION;
}

/* Every known card in exactly one place; known cards plus unknown tokens
 * make the set; no kitten in a hand; the kittens counted in the pile fit
 * what the pile holds, and are one fewer than the living players (two
 * fewer while a drawn kitten is out). */
EngStatus
kittens_check_conservation (const void *rules, const void *state, EngVerdict *why)
{
  const KitRules *r = rules;
  const KitState *s = state;
  uint8_t seen[KIT_MAX_CARDS] = { 0 };
  unsigned unknown = 0;
  int bad = -1;
#define COUNT(idx, may_be_unknown)                                                            \
  do {                                                                                       \
    uint8_t k_ = (idx);                                                                      \
    if (k_ == KIT_UNKNOWN && (may_be_unknown))                                               \
      unknown++;                                                                             \
    else if (k_ >= r->n_cards || seen[k_]++)                                                 \
      bad = k_;                                                                              \
  } while (0)
  for (int p = 0; p < s->n_players; p++)
    {
      for (int k = 0; k < s->hand_n[p]; k++)
        {
          COUNT (s->hand[p][k], true);
          if (s->hand[p][k] < r->n_cards && r->cards[s->hand[p][k]].kind == KIT_KIND_KITTEN)
            return conservation_fail (why, "an Exploding Kitten in %s's hand", s->names[p]);
        }
      if (s->out_kitten[p] != KIT_NONE)
        COUNT (s->out_kitten[p], false);
    }
  unsigned pile_known_kittens = 0, pile_tokens = 0;
  for (int k = 0; k < s->pile_n; k++)
    {
      COUNT (s->pile[k], true);
      if (s->pile[k] == KIT_UNKNOWN)
        pile_tokens++;
      else if (s->pile[k] < r->n_cards && r->cards[s->pile[k]].kind == KIT_KIND_KITTEN)
        pile_known_kittens++;
    }
  for (int k = 0; k < s->discard_n; k++)
    COUNT (s->discard[k], false);
  for (int k = 0; k < s->box_n; k++)
    COUNT (s->box[k], true);
  bool kitten_out = s->phase == KIT_PHASE_KITTEN || s->phase == KIT_PHASE_PLACE;
  if (kitten_out)
    COUNT (s->kitten, false);
#undef COUNT
  if (bad >= 0)
    return conservation_fail (why, "card index %d is in two places", bad);
  unsigned known = 0;
  for (unsigned i = 0; i < r->n_cards; i++)
    known += seen[i] ? 1 : 0;
  if (known + unknown != r->n_cards)
    return conservation_fail (why, "cards lost or invented: %u known + %u unseen of %u", known,
                              unknown, (unsigned) r->n_cards);
  if (s->pile_kittens < pile_known_kittens || s->pile_kittens > pile_known_kittens + pile_tokens
      || (s->omniscient && s->pile_kittens != pile_known_kittens))
    return conservation_fail (why, "the pile cannot hold %u Exploding Kittens",
                              (unsigned) s->pile_kittens);
  unsigned alive = (unsigned) __builtin_popcount (s->alive);
  if (s->pile_kittens + 1u + (kitten_out ? 1u : 0u) != alive)
    return conservation_fail (why, "%u Exploding Kittens in the pile for %u players in",
                              (unsigned) s->pile_kittens, alive);
  return ENG_OK;
}
