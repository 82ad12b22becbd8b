/* katua-private.h: what Katua's own files share and nothing else reads. */
#pragma once

#include "eng-view.h"
#include "katua.h"

/* EngGameClass.card_name, .public_view and .random_move (katua-view.c). */
void katua_card_name (const void *rules, unsigned serial, bool definite, char *buf, size_t size);
bool katua_card_public (const void *rules, const void *state, unsigned serial);
void katua_public_view (const void *rules, const void *state, const EngSetup *setup,
                        EngView *view);
bool katua_class_random_move (const void *rules, const void *state, EngRng *rng, EngMove *out);

/* A colour value (KAT_RED...) in words, agreeing with a cat (`cat`) or a
 * UFO, in the table's language. */
const char *katua_colour_words (unsigned colour, bool cat);
