/* kittens-moves.c: the legal moves of an Exploding Kittens state.
 *
 * Moves that play a card need its identity, so they are listed only for
 * cards the referee knows (a seeded game knows them all; on a live table
 * the players' own moves are read from the cards they lay down).  Combos
 * are listed once per kind of card (the first copies in hand), not once per
 * choice of copies: every listed move is legal, not every legal move is
 * listed.
 */
#include "kittens-private.h"

#include "eng-play.h"

#include <string.h>

static uint16_t
serial (const KitRules *r, uint8_t k)
{
  return r->cards[k].serial;
}

static void
list_give (const KitRules *r, const KitState *s, EngMoveList *l)
{
  EngMove m;
  int p = s->give_from;
  eng_move_init (&m, KIT_GIVE, p);
  bool has = false, tokens = false;
  for (int i = 0; i < s->hand_n[p]; i++)
    {
      uint8_t k = s->hand[p][i];
      if (k == KIT_UNKNOWN)
        {
          tokens = true;
          continue;
        }
      if (s->give_type != KIT_NONE && r->cards[k].type != s->give_type)
        continue;
      has = true;
      m.card = serial (r, k);
      eng_move_list_push (l, &m);
    }
  if (s->give_type == KIT_NONE && tokens)
    {
      m.card = ENG_SERIAL_UNKNOWN;
      eng_move_list_push (l, &m);
    }
  if (s->give_type != KIT_NONE && !has)
    {
      m.card = 0;
      eng_move_list_push (l, &m);
    }
}

static void
list_plays (const KitRules *r, const KitState *s, EngMoveList *l)
{
  int p = s->active;
  EngMove m;
  for (int i = 0; i < s->hand_n[p]; i++)
    {
      uint8_t k = s->hand[p][i];
      if (k == KIT_UNKNOWN || !kittens_kind_playable (r->cards[k].kind))
        continue;
      eng_move_init (&m, KIT_PLAY, p);
      m.card = serial (r, k);
      if (!kittens_kind_targets (r->cards[k].kind))
        {
          eng_move_list_push (l, &m);
          continue;
        }
      for (int t = 0; t < s->n_players; t++)
        if (kittens_target_ok (s, p, t, r->cards[k].kind == KIT_KIND_FAVOR))
          {
            m.target[0] = (int8_t) t;
            eng_move_list_push (l, &m);
          }
    }
}

/* Pairs and trios of the first copies of each kind, against each target;
 * a trio asks for each kind of the set in turn. */
static void
list_combos (const KitRules *r, const KitState *s, EngMoveList *l)
{
  int p = s->active;
  uint8_t by_type[KIT_MAX_TYPES][3];
  uint8_t n_type[KIT_MAX_TYPES] = { 0 };
  uint8_t distinct[5];
  unsigned n_distinct = 0;
  for (int i = 0; i < s->hand_n[p]; i++)
    {
      uint8_t k = s->hand[p][i];
      if (k == KIT_UNKNOWN)
        continue;
      unsigned t = r->cards[k].type;
      if (n_type[t] == 0 && n_distinct < 5)
        distinct[n_distinct++] = k;
      if (n_type[t] < 3)
        by_type[t][n_type[t]++] = k;
    }
  EngMove m;
  for (unsigned t = 0; t < r->n_types; t++)
    for (int target = 0; target < s->n_players; target++)
      {
        if (!kittens_target_ok (s, p, target, true))
          continue;
        if (n_type[t] >= 2 && kittens_pair_ok (r, by_type[t]))
          {
            eng_move_init (&m, KIT_PAIR, p);
            m.card = serial (r, by_type[t][0]);
            m.cards[0] = serial (r, by_type[t][1]);
            m.n_cards = 1;
            m.target[0] = (int8_t) target;
            eng_move_list_push (l, &m);
          }
        if (n_type[t] >= 3 && kittens_trio_ok (r, by_type[t]))
          for (unsigned asked = 0; asked < r->n_types; asked++)
            {
              eng_move_init (&m, KIT_TRIO, p);
              m.card = serial (r, by_type[t][0]);
              m.cards[0] = serial (r, by_type[t][1]);
              m.cards[1] = serial (r, by_type[t][2]);
              m.cards[2] = serial (r, r->type_first[asked]);
              m.n_cards = 3;
              m.target[0] = (int8_t) target;
              eng_move_list_push (l, &m);
            }
      }
  if (n_distinct == 5 && kittens_five_ok (r, distinct))
    {
      eng_move_init (&m, KIT_FIVE, p);
      m.card = serial (r, distinct[0]);
      for (int i = 0; i < 4; i++)
        m.cards[i] = serial (r, distinct[i + 1]);
      m.n_cards = 4;
      eng_move_list_push (l, &m);
    }
}

/* While a card is open: every living player's first known Nope, and the
 * table's confirmation. */
static void
list_open (const KitRules *r, const KitState *s, EngMoveList *l)
{
  EngMove m;
  if (s->open == KIT_OPEN_CARD || r->nope_on_combo)
    for (int p = 0; p < s->n_players; p++)
      {
        if (!((s->alive >> p) & 1))
          continue;
        for (int i = 0; i < s->hand_n[p]; i++)
          {
            uint8_t k = s->hand[p][i];
            if (k != KIT_UNKNOWN && r->cards[k].kind == KIT_KIND_NOPE)
              {
                eng_move_init (&m, KIT_NOPE, p);
                m.card = serial (r, k);
                eng_move_list_push (l, &m);
                break;
              }
          }
      }
  eng_move_init (&m, KIT_RESOLVE, s->open_player);
  eng_move_list_push (l, &m);
}

size_t
kittens_legal_moves (const void *rules, const void *state, EngMove *out, size_t max)
{
  const KitRules *r = rules;
  const KitState *s = state;
  EngMoveList l = eng_move_list (out, max);
  EngMove m;
  switch (s->phase)
    {
    case KIT_PHASE_TURN:
      if (s->open != KIT_OPEN_NONE)
        {
          list_open (r, s, &l);
          break;
        }
      eng_move_init (&m, KIT_DRAW, s->active);
      eng_move_list_push (&l, &m);
      list_plays (r, s, &l);
      list_combos (r, s, &l);
      break;
    case KIT_PHASE_GIVE:
      list_give (r, s, &l);
      break;
    case KIT_PHASE_TAKE:
      for (int i = 0; i < s->discard_n; i++)
        {
          bool own = false;
          for (int j = 0; j < s->open_n; j++)
            own = own || s->discard[i] == s->open_cards[j];
          if (own)
            continue;
          eng_move_init (&m, KIT_TAKE, s->give_to);
          m.card = serial (r, s->discard[i]);
          eng_move_list_push (&l, &m);
        }
      break;
    case KIT_PHASE_KITTEN:
      for (int i = 0; i < s->hand_n[s->active]; i++)
        {
          uint8_t k = s->hand[s->active][i];
          if (k != KIT_UNKNOWN && r->cards[k].kind == KIT_KIND_DEFUSE)
            {
              eng_move_init (&m, KIT_DEFUSE, s->active);
              m.card = serial (r, k);
              eng_move_list_push (&l, &m);
              break;
            }
        }
      eng_move_init (&m, KIT_EXPLODE, s->active);
      eng_move_list_push (&l, &m);
      break;
    case KIT_PHASE_PLACE:
      eng_move_init (&m, KIT_REPLACE, s->active);
      eng_move_list_push (&l, &m);
      break;
    default:
      break;
    }
  return l.n;
}

bool
kittens_random_move (const KitRules *rules, const KitState *state, EngRng *rng, EngMove *out)
{
  EngMove moves[512];
  size_t n = kittens_legal_moves (rules, state, moves, 512);
  /* moves[0] of an ordinary turn is the draw: favour it so games end */
  if (n > 0 && state->phase == KIT_PHASE_TURN && state->open == KIT_OPEN_NONE
      && eng_rng_below (rng, 3) == 0)
    {
      *out = moves[0];
      return true;
    }
  return eng_move_list_draw (moves, n, 512, rng, out);
}
