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
/* Path place 0-6 in words, counted from `first`'s arms ("the path space
 * next to Ana", "the middle path space", "Bea's arms"); translated. */
void catchy_place_words (int place, const char *first, const char *second, char *buf, size_t size);
/* The same as where a card lies ("on the path space next to Ana", "in
 * Ana's arms"). */
void catchy_place_at_words (int place, const char *first, const char *second, char *buf,
                            size_t size);
/* Path card 1-3 counted from `from`'s arms ("the middle path card"). */
void catchy_path_card_words (int n, const char *from, const char *other, char *buf, size_t size);
