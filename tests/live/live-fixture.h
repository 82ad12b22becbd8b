/* live-fixture.h: the Katua card set every live test reads, loaded once per
 * test by Criterion's .init/.fini (TABLERO_DATADIR is set by meson), and the
 * set of any other game a script plays (data/cards/GAME.set). */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "eng-cardset.h"
#include "eng-game.h"
#include "eng-record.h"

/* The set loaded by live_fixture_load_set; NULL outside a test. */
extern EngCardSet *live_fixture_set;

void live_fixture_load_set (void);
void live_fixture_free_set (void);

/* The card set of game `name`: the Katua set for "katua", otherwise
 * data/cards/NAME.set loaded on first use and freed by
 * live_fixture_free_set.  Asserts it loads. */
const EngCardSet *live_fixture_set_of (const char *name);

/* Whether records `a` (the rules' moves) and `b` (the referee's) hold the
 * same moves, compared as record lines; false with the first difference
 * written into `why`. */
bool live_fixture_same_moves (const EngRecord *a, const EngRecord *b, char *why, size_t size);

/* An eng_live_script_run sink keeping the first complaint (an ILLEGAL,
 * CONSERVATION or `table` NOTE) in `user`, a char[256] that starts empty. */
void live_fixture_complaint_sink (void *user, unsigned line, const EngEvent *e);

/* A random table's script (`text`) refereed as the rules played it
 * (`want`): the referee applies exactly those moves, complains about
 * nothing, ends the game, and resumed from its journal after a kill at
 * look k (seed-chosen) writes the same record.  Returns the looks the
 * script made (asserting all of that). */
size_t live_fixture_referee (const char *text, size_t len, const EngCardSet *set,
                             const EngRecord *want, unsigned long long seed);
