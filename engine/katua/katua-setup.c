/* katua-setup.c: a new Katua game from its setup (EngGameClass.setup):
 * the deal a record or a seed gives, every card accounted for.
 */
#include "katua-private.h"

#include "eng-i18n.h"
#include "eng-play.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- setup ------------------------------------------------------------ */

/* a card dealt unseen is the core's unknown token */
_Static_assert (KAT_UNKNOWN == ENG_CARD_UNKNOWN, "one unknown token");

#define setup_refuse(why, rule, ...) \
  eng_verdict_refuse ((why), ENG_ERR_INVALID_ARGUMENT, (rule), __VA_ARGS__)

/* What the deal lines of a record fix, each place once. */
typedef struct {
  const EngDeal *slots_of[KAT_MAX_PLAYERS], *hand_of[KAT_MAX_PLAYERS];
  const EngDeal *captured_of[KAT_MAX_PLAYERS];
  const EngDeal *cat_top, *ufo_top, *discard;
} Fixed;

/* Reads the deal lines into `fx`, marking in `used` each card they name. */
static EngStatus
read_deals (const KatRules *r, const EngSetup *su, Fixed *fx, bool *used, EngVerdict *why)
{
  memset (fx, 0, sizeof *fx);
  for (size_t i = 0; i < su->n_deals; i++)
    {
      const EngDeal *d = &su->deals[i];
      const EngDeal **slotp = NULL;
      int deck = KAT_DECK_CAT, cap = KAT_SLOTS;
      bool per_player = true, unknown_ok = true;
      if (strcmp (d->place, "slots") == 0)
        slotp = &fx->slots_of[d->player < 0 ? 0 : d->player];
      else if (strcmp (d->place, "hand") == 0)
        slotp = &fx->hand_of[d->player < 0 ? 0 : d->player], deck = KAT_DECK_UFO, cap = KAT_HAND;
      else if (strcmp (d->place, "captured") == 0)
        slotp = &fx->captured_of[d->player < 0 ? 0 : d->player], cap = KAT_MAX_CATS,
        unknown_ok = false;
      else if (strcmp (d->place, "cat-deck") == 0)
        slotp = &fx->cat_top, per_player = false, cap = KAT_MAX_CATS;
      else if (strcmp (d->place, "ufo-deck") == 0)
        slotp = &fx->ufo_top, per_player = false, cap = KAT_MAX_UFOS, deck = KAT_DECK_UFO;
      else if (strcmp (d->place, "discard") == 0)
        slotp = &fx->discard, per_player = false, cap = KAT_MAX_UFOS, deck = KAT_DECK_UFO,
        unknown_ok = false;
      else
        return setup_refuse (why, "setup", "unknown place '%s' (slots, hand, captured, "
                             "cat-deck, ufo-deck, discard)", d->place);
      if (per_player != (d->player >= 0))
        return setup_refuse (why, "setup", "deal %s %s a player's name", d->place,
                             per_player ? "needs" : "takes no");
      if (d->player >= (int) su->n_players)
        return setup_refuse (why, "setup", "no such player");
      if (*slotp != NULL)
        return setup_refuse (why, "setup", "place %s dealt twice", d->place);
      if (d->n_cards > cap)
        return setup_refuse (why, "setup", "%s holds at most %d cards", d->place, cap);
      *slotp = d;
      for (unsigned k = 0; k < d->n_cards; k++)
        {
          if (d->cards[k] == ENG_SERIAL_UNKNOWN)
            {
              if (!unknown_ok)
                return setup_refuse (why, "setup", "%s cards are face up: name them", d->place);
              continue;
            }
          uint8_t idx = katua_card_index (r, d->cards[k]);
          if (idx == KAT_NONE)
            return setup_refuse (why, "set", ENG_N_ ("card %u is not in this card set"),
                                 d->cards[k]);
          if (r->cards[idx].deck != deck)
            return setup_refuse (why, "setup", "card %u does not belong in %s", d->cards[k],
                                 d->place);
          if (used[idx])
            {
              if (why != NULL)
                {
                  snprintf (why->rule, sizeof why->rule, "setup");
                  snprintf (why->reason, sizeof why->reason, "card %u dealt twice",
                            d->cards[k]);
                }
              return ENG_ERR_CONSERVATION;
            }
          used[idx] = true;
        }
    }
  return ENG_OK;
}

/* Deals the captured areas (scenarios), the slots, the hands and the
 * discard pile: what a deal line fixes, the rest from the pools. */
static EngStatus
deal_places (const KatRules *r, KatState *s, const Fixed *fx, EngCardPool *cats,
             EngCardPool *ufos, EngVerdict *why)
{
  /* captured areas first (scenarios), then slots and hands as dealt */
  for (int p = 0; p < s->n_players; p++)
    if (fx->captured_of[p] != NULL)
      for (unsigned k = 0; k < fx->captured_of[p]->n_cards; k++)
        {
          uint8_t idx = katua_card_index (r, fx->captured_of[p]->cards[k]);
          s->captured[p][s->captured_n[p]++] = idx;
          s->score[p] = (int8_t) (s->score[p] + r->cards[idx].value);
        }
  for (int p = 0; p < s->n_players; p++)
    for (int k = 0; k < KAT_SLOTS; k++)
      {
        const EngDeal *dl = fx->slots_of[p];
        uint16_t fixed = dl != NULL && k < dl->n_cards ? dl->cards[k] : 0;
        if (fixed != 0 && fixed != ENG_SERIAL_UNKNOWN)
          s->slot[p][k] = katua_card_index (r, fixed);
        else if (!eng_card_pool_take (cats, s->omniscient, &s->slot[p][k]))
          return setup_refuse (why, "K16", ENG_N_ ("not enough cats to deal"));
      }
  for (int p = 0; p < s->n_players; p++)
    {
      for (int k = 0; k < KAT_HAND; k++)
        {
          const EngDeal *dl = fx->hand_of[p];
          uint16_t fixed = dl != NULL && k < dl->n_cards ? dl->cards[k] : 0;
          if (fixed != 0 && fixed != ENG_SERIAL_UNKNOWN)
            s->hand[p][k] = katua_card_index (r, fixed);
          else if (!eng_card_pool_take (ufos, s->omniscient, &s->hand[p][k]))
            return setup_refuse (why, "K2", ENG_N_ ("not enough UFO cards to deal"));
        }
      s->hand_n[p] = KAT_HAND;
    }
  if (fx->discard != NULL)
    for (unsigned k = 0; k < fx->discard->n_cards; k++)
      s->discard[s->discard_n++] = katua_card_index (r, fx->discard->cards[k]);
  return ENG_OK;
}

/* Stacks the decks: the rest of each pool below the cards a deal line put
 * on top. */
static EngStatus
stack_decks (const KatRules *r, KatState *s, const Fixed *fx, EngCardPool *cats,
             EngCardPool *ufos, EngVerdict *why)
{
  /* a deal line lists a deck top first */
  const EngDeal *tops[2] = { fx->cat_top, fx->ufo_top };
  EngCardPool *pools[2] = { cats, ufos };
  uint8_t *decks[2] = { s->cat_deck, s->ufo_deck };
  uint8_t *ns[2] = { &s->cat_deck_n, &s->ufo_deck_n };
  for (int d = 0; d < 2; d++)
    {
      int n_top = tops[d] ? tops[d]->n_cards : 0;
      int n_unknown_top = 0;
      for (int k = 0; k < n_top; k++)
        n_unknown_top += tops[d]->cards[k] == ENG_SERIAL_UNKNOWN;
      if ((int) pools[d]->n < n_unknown_top)
        return setup_refuse (why, "setup", "the deck cannot hold that many unseen cards");
      int n = 0;
      int below = (int) pools[d]->n - n_unknown_top;
      for (int k = 0; k < below; k++)
        decks[d][n++] = s->omniscient ? pools[d]->items[k] : KAT_UNKNOWN;
      int next = below;
      for (int k = n_top - 1; k >= 0; k--)
        {
          uint16_t c = tops[d]->cards[k];
          if (c == ENG_SERIAL_UNKNOWN)
            decks[d][n++] = s->omniscient ? pools[d]->items[next++] : KAT_UNKNOWN;
          else
            decks[d][n++] = katua_card_index (r, c);
        }
      *ns[d] = (uint8_t) n;
    }
  return ENG_OK;
}

EngStatus
katua_setup (const void *rules, const EngSetup *su, const EngRng *rng, void *state,
             EngEvents *events, EngVerdict *why)
{
  const KatRules *r = rules;
  KatState *s = state;
  if (su->n_players < 2 || su->n_players > KAT_MAX_PLAYERS)
    return setup_refuse (why, "players", ENG_N_ ("Katua is for 2 to 4 players, not %u"),
                         su->n_players);
  memset (s, 0, sizeof *s);
  s->n_players = (uint8_t) su->n_players;
  for (unsigned p = 0; p < su->n_players; p++)
    snprintf (s->names[p], sizeof s->names[p], "%s", su->names[p]);
  s->rng = *rng;
  s->omniscient = su->has_seed;
  s->hook_rival = -1;
  katua_set_rep (s, KAT_VERB_COUNT, 0, 0, 0, false);
  if (su->first >= 0 && su->last_winner >= 0 && su->first != su->last_winner)
    return setup_refuse (why, "K21", ENG_N_ ("in later games the last winner, %s, starts"),
                         su->names[su->last_winner]);
  int first = su->first >= 0 ? su->first : su->last_winner >= 0 ? su->last_winner : 0;
  if (first >= (int) su->n_players)
    return setup_refuse (why, "K21", ENG_N_ ("no such first player"));
  s->first = (uint8_t) first;

  bool used[KAT_MAX_CARDS] = { false };
  Fixed fx;
  EngStatus st = read_deals (r, su, &fx, used, why);
  if (st != ENG_OK)
    return st;
  EngCardPool cats = { .n = 0 }, ufos = { .n = 0 };
  for (int i = 0; i < r->n_cards; i++)
    if (!used[i])
      {
        if (r->cards[i].deck == KAT_DECK_CAT)
          cats.items[cats.n++] = (uint8_t) i;
        else
          ufos.items[ufos.n++] = (uint8_t) i;
      }
  if (s->omniscient)
    {
      eng_rng_shuffle_u8 (&s->rng, cats.items, (size_t) cats.n);
      eng_rng_shuffle_u8 (&s->rng, ufos.items, (size_t) ufos.n);
    }
  st = deal_places (r, s, &fx, &cats, &ufos, why);
  if (st == ENG_OK)
    st = stack_decks (r, s, &fx, &cats, &ufos, why);
  if (st != ENG_OK)
    return st;
  KatCtx c = { r, s, events, why };
  if (r->total_memory)
    ev_add (&c, ENG_EVENT_NOTE, -1, "K19",
            ENG_N_ ("Total Memory: look at your cats once now; afterwards only a card's effect "
                    "lets you look again"));
  if (r->quick_start)
    s->phase = KAT_PHASE_QUICK_START;
  else
    katua_begin_turn (&c, first);
  katua_need_for_phase (&c);
  return ENG_OK;
}
