/* catchy-test.h: what only the Catchy! engine tests add to game-test.h. */
#pragma once

#include "catchy.h"
#include "eng-view.h"
#include "game-test.h"

static inline const CatchyState *
ct_state (const GameTest *t)
{
  return eng_game_state (t->game);
}
