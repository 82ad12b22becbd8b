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

typedef struct {
  uint8_t items[KAT_MAX_CARDS];
  int n;
} Pool;

/* Takes a card for a position the setup did not fix: a real card when the
 * game is dealt from a seed, an unknown token otherwise.  false when the
 * pool is empty. */
static bool
pool_take (Pool *pool, bool omniscient, uint8_t *out)
{
  if (pool->n == 0)
    return false;
  pool->n--;
  *out = omniscient ? pool->items[pool->n] : KAT_UNKNOWN;
  return true;
}

#define setup_refuse(why, rule, ...) \
  eng_verdict_refuse ((why), ENG_ERR_INVALID_ARGUMENT, (rule), __VA_ARGS__)

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

  /* which cards the deal lines fix */
  bool used[KAT_MAX_CARDS] = { false };
  const EngDeal *slots_of[KAT_MAX_PLAYERS] = { NULL }, *hand_of[KAT_MAX_PLAYERS] = { NULL };
  const EngDeal *captured_of[KAT_MAX_PLAYERS] = { NULL };
  const EngDeal *cat_top = NULL, *ufo_top = NULL, *discard = NULL;
  for (size_t i = 0; i < su->n_deals; i++)
    {
      const EngDeal *d = &su->deals[i];
      const EngDeal **slotp = NULL;
      int deck = KAT_DECK_CAT, cap = KAT_SLOTS;
      bool per_player = true, unknown_ok = true;
      if (strcmp (d->place, "slots") == 0)
        slotp = &slots_of[d->player < 0 ? 0 : d->player];
      else if (strcmp (d->place, "hand") == 0)
        slotp = &hand_of[d->player < 0 ? 0 : d->player], deck = KAT_DECK_UFO, cap = KAT_HAND;
      else if (strcmp (d->place, "captured") == 0)
        slotp = &captured_of[d->player < 0 ? 0 : d->player], cap = KAT_MAX_CATS,
        unknown_ok = false;
      else if (strcmp (d->place, "cat-deck") == 0)
        slotp = &cat_top, per_player = false, cap = KAT_MAX_CATS;
      else if (strcmp (d->place, "ufo-deck") == 0)
        slotp = &ufo_top, per_player = false, cap = KAT_MAX_UFOS, deck = KAT_DECK_UFO;
      else if (strcmp (d->place, "discard") == 0)
        slotp = &discard, per_player = false, cap = KAT_MAX_UFOS, deck = KAT_DECK_UFO,
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
  Pool cats = { .n = 0 }, ufos = { .n = 0 };
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
  /* captured areas first (scenarios), then slots and hands as dealt */
  for (int p = 0; p < s->n_players; p++)
    if (captured_of[p] != NULL)
      for (unsigned k = 0; k < captured_of[p]->n_cards; k++)
        {
          uint8_t idx = katua_card_index (r, captured_of[p]->cards[k]);
          s->captured[p][s->captured_n[p]++] = idx;
          s->score[p] = (int8_t) (s->score[p] + r->cards[idx].value);
        }
  for (int p = 0; p < s->n_players; p++)
    for (int k = 0; k < KAT_SLOTS; k++)
      {
        uint16_t fixed = slots_of[p] && k < slots_of[p]->n_cards ? slots_of[p]->cards[k] : 0;
        if (fixed != 0 && fixed != ENG_SERIAL_UNKNOWN)
          s->slot[p][k] = katua_card_index (r, fixed);
        else if (!pool_take (&cats, s->omniscient, &s->slot[p][k]))
          return setup_refuse (why, "K16", ENG_N_ ("not enough cats to deal"));
      }
  for (int p = 0; p < s->n_players; p++)
    {
      for (int k = 0; k < KAT_HAND; k++)
        {
          uint16_t fixed = hand_of[p] && k < hand_of[p]->n_cards ? hand_of[p]->cards[k] : 0;
          if (fixed != 0 && fixed != ENG_SERIAL_UNKNOWN)
            s->hand[p][k] = katua_card_index (r, fixed);
          else if (!pool_take (&ufos, s->omniscient, &s->hand[p][k]))
            return setup_refuse (why, "K2", ENG_N_ ("not enough UFO cards to deal"));
        }
      s->hand_n[p] = KAT_HAND;
    }
  if (discard != NULL)
    for (unsigned k = 0; k < discard->n_cards; k++)
      s->discard[s->discard_n++] = katua_card_index (r, discard->cards[k]);
  /* decks: the rest of the pool below the cards a deal line put on top
   * (listed top first) */
  const EngDeal *tops[2] = { cat_top, ufo_top };
  Pool *pools[2] = { &cats, &ufos };
  uint8_t *decks[2] = { s->cat_deck, s->ufo_deck };
  uint8_t *ns[2] = { &s->cat_deck_n, &s->ufo_deck_n };
  for (int d = 0; d < 2; d++)
    {
      int n_top = tops[d] ? tops[d]->n_cards : 0;
      int n_unknown_top = 0;
      for (int k = 0; k < n_top; k++)
        n_unknown_top += tops[d]->cards[k] == ENG_SERIAL_UNKNOWN;
      if (pools[d]->n < n_unknown_top)
        return setup_refuse (why, "setup", "the deck cannot hold that many unseen cards");
      int n = 0;
      int below = pools[d]->n - n_unknown_top;
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
