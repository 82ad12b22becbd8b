/* live-fixture.c: see live-fixture.h. */
#include "live-fixture.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

EngCardSet *live_fixture_set;

void
live_fixture_load_set (void)
{
  const char *dir = getenv ("TABLERO_DATADIR");
  cr_assert_not_null (dir, "TABLERO_DATADIR is set by meson");
  char path[1024];
  snprintf (path, sizeof path, "%s/cards/katua.set", dir);
  EngParseError err;
  cr_assert_eq (eng_card_set_load_file (path, &live_fixture_set, &err), ENG_OK, "%s", err.reason);
}

void
live_fixture_free_set (void)
{
  eng_card_set_free (live_fixture_set);
  live_fixture_set = NULL;
}
