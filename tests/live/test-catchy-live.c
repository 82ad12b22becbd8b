/* tests/live: Catchy! refereed at a live table through the same
 * interpreter core as every game: snapshot scripts (docs/snapshot-script-
 * format.md) with every `expect` holding, no face-down card named, and the
 * same record when the referee is killed after any snapshot and resumed
 * from its journal. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-live-script.h"

static EngCardSet *set;

static void
load_set (void)
{
  const char *dir = getenv ("TABLERO_DATADIR");
  cr_assert_not_null (dir, "TABLERO_DATADIR is set by meson");
  char path[1024];
  snprintf (path, sizeof path, "%s/cards/catchy.set", dir);
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_card_set_load_file (path, &set, &err), ENG_OK, "%s", err.reason);
}

static void
free_set (void)
{
  eng_card_set_free (set);
  set = NULL;
}

static EngLiveScript *
load_script (const char *name)
{
  char path[1024];
  snprintf (path, sizeof path, "%s/scripts/%s", TESTS_LIVE_DIR, name);
  EngLiveScript *sc = NULL;
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_live_script_load_file (path, &sc, &err), ENG_OK, "%s:%u: %s", name, err.line,
                err.reason);
  return sc;
}

TestSuite (catchy_live, .init = load_set, .fini = free_set);

Test (catchy_live, a_hand_to_the_arms_and_the_next_deal)
{
  EngLiveScript *sc = load_script ("catchy-2p-hand.script");
  EngParseError err = { .reason = "" };
  EngLiveScriptResult r;
  cr_assert_eq (eng_live_script_run (sc, set, NULL, NULL, NULL, &r, &err), ENG_OK, "line %u: %s",
                err.line, err.reason);
  cr_expect_eq (r.failures, 0, "%zu failures; first: %s", r.failures, r.first_failure);
  cr_expect_gt (r.expects, 40, "the script checks what it claims (%zu)", r.expects);
  free (r.record);
  eng_live_script_free (sc);
}

/* Killed after each snapshot and resumed from the journal: the record at
 * the end is the one of the run that was never killed. */
Test (catchy_live, killed_after_any_snapshot_the_game_goes_on_the_same)
{
  EngLiveScript *sc = load_script ("catchy-2p-hand.script");
  EngParseError err = { .reason = "" };
  EngLiveScriptResult whole;
  cr_assert_eq (eng_live_script_run (sc, set, NULL, NULL, NULL, &whole, &err), ENG_OK, "%s",
                err.reason);
  for (size_t k = 1; k < whole.snapshots; k++)
    {
      EngLiveScriptResult killed;
      cr_assert_eq (eng_live_script_run_killed (sc, set, NULL, k, NULL, NULL, &killed, &err),
                    ENG_OK, "killed after %zu: %s", k, err.reason);
      cr_expect_str_eq (killed.record, whole.record, "killed after snapshot %zu", k);
      free (killed.record);
    }
  free (whole.record);
  eng_live_script_free (sc);
}
