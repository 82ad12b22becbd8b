/* live-fixture.h: the Katua card set every live test reads, loaded once per
 * test by Criterion's .init/.fini (TABLERO_DATADIR is set by meson), and the
 * set of any other game a script plays (data/cards/GAME.set). */
#pragma once

#include "eng-cardset.h"

/* The set loaded by live_fixture_load_set; NULL outside a test. */
extern EngCardSet *live_fixture_set;

void live_fixture_load_set (void);
void live_fixture_free_set (void);

/* The card set of game `name`: the Katua set for "katua", otherwise
 * data/cards/NAME.set loaded on first use and freed by
 * live_fixture_free_set.  Asserts it loads. */
const EngCardSet *live_fixture_set_of (const char *name);
