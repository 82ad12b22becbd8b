/* escoba-private.h: what Escoba's own files share and nothing else reads. */
#pragma once

#include "escoba.h"
#include "eng-play.h"
#include "eng-view.h"

#include <stdlib.h>

/* EngGameClass.card_name, .card_public, .public_view (escoba-view.c). */
void escoba_card_name (const void *rules, unsigned serial, bool definite, char *buf, size_t size);
bool escoba_card_public (const void *rules, const void *state, unsigned serial);
void escoba_public_view (const void *rules, const void *state, const EngSetup *setup,
                         EngView *view);

/* The words of side `side`'s points in the round last counted, as the
 * table counts them ("2 escobas, most cards (22), siete de oros"); "" when
 * it scored nothing (escoba.c). */
void escoba_count_words (const EscRules *rules, const EscState *s, unsigned side, char *line,
                         size_t size);
