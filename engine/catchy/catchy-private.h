/* catchy-private.h: what Catchy!'s own files share and nothing else reads. */
#pragma once

#include "catchy.h"
#include "eng-view.h"

/* EngGameClass.card_name, .public_view and .to_move. */
void catchy_card_name (const void *rules, unsigned serial, bool definite, char *buf, size_t size);
bool catchy_card_public (const void *rules, const void *state, unsigned serial);
void catchy_public_view (const void *rules, const void *state, const EngSetup *setup,
                         EngView *view);
int catchy_to_move (const void *rules, const void *state);

/* A numbered card's colour (CatchyCard.colour) in the table's language. */
const char *catchy_colour_words (const CatchyRules *rules, unsigned colour);
