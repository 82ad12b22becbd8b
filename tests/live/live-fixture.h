/* live-fixture.h: the Katua card set every live test reads, loaded once per
 * test by Criterion's .init/.fini (TABLERO_DATADIR is set by meson). */
#pragma once

#include "eng-cardset.h"

/* The set loaded by live_fixture_load_set; NULL outside a test. */
extern EngCardSet *live_fixture_set;

void live_fixture_load_set (void);
void live_fixture_free_set (void);
