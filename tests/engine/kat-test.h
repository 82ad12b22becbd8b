/* kat-test.h: what only Katua's engine tests add to game-test.h. */
#pragma once

#include "game-test.h"
#include "katua.h"

static inline const KatState *
kt_state (const GameTest *t)
{
  return eng_game_state (t->game);
}

static inline uint16_t
kt_slot_serial (const GameTest *t, int p, int s)
{
  const KatState *st = kt_state (t);
  const KatRules *r = eng_game_rules (t->game);
  uint8_t k = st->slot[p][s];
  return k < r->n_cards ? r->cards[k].serial : 0;
}
