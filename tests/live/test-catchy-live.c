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

/* Runs script `text` (named `name` in messages), every expect line
 * holding; `sink` (may be NULL) hears each event.  Returns the moves
 * applied. */
static size_t
run_text (const char *text, const char *name, EngLiveScriptSink sink, void *user)
{
  EngLiveScript *sc = NULL;
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_live_script_parse (text, strlen (text), name, &sc, &err), ENG_OK,
                "line %u: %s", err.line, err.reason);
  EngLiveScriptResult r;
  cr_assert_eq (eng_live_script_run (sc, set, NULL, sink, user, &r, &err), ENG_OK,
                "line %u: %s", err.line, err.reason);
  cr_expect_eq (r.failures, 0, "%s: %zu failures; first: %s", name, r.failures, r.first_failure);
  free (r.record);
  eng_live_script_free (sc);
  return r.moves;
}

/* A hand dealt (path cards on spaces 1, 3 and 5, the mood card on 3) and
 * the start card swapped for the path card on space 1; the table has not
 * said who swapped it yet. */
#define CATCHY_DEALT_AND_SWAPPED \
  "game catchy\nplayers Ana Bea\n" \
  "put 13 back centre 1\nput 14 back centre 3\nput 15 back centre 5\nput 18 face centre 3\n" \
  "snap\nremove 13\nsnap\nput 17 back centre 1\nsnap\n"

/* Counts refusals of a face-down card on the path (C2 stray backs, C11). */
static void
count_path_refusals (void *user, unsigned line, const EngEvent *e)
{
  (void) line;
  if ((e->kind == ENG_EVENT_NOTE && strcmp (e->rule, "C2") == 0 && strstr (e->text, "path spaces"))
      || strcmp (e->rule, "C11") == 0)
    ++*(unsigned *) user;
}

/* The mood card hides the path card it stands on and any it is carried
 * across: the card found again as the cat moves off, or lost from sight
 * under it on the way, is neither refused as a stray back (C2) nor as a
 * path card taken (C11). */
Test (catchy_live, c02_the_cat_covers_and_uncovers_path_cards)
{
  static const char text[] =
    "game catchy\nplayers Ana Bea\n"
    /* the deal: the path card on space 3 lies under the cat */
    "put 13 back centre 1\nput 15 back centre 5\nput 18 face centre 3\n"
    "snap\nremove 13\nsnap\nput 17 back centre 1\nsnap\nkey confirm\n"
    "put 4 face play Ana\nsnap\nput 3 face play Bea\nsnap\n"   /* Ana wins: red, toward her */
    "move 18 centre 2\nmove 4 discard\nmove 3 discard\nput 14 back centre 3\nsnap\n"
    "expect quiet\nexpect todo 0\n"
    "put 9 face play Ana\nsnap\nput 7 face play Bea\nsnap\n"  /* Ana again: toward her */
    "move 9 discard\nmove 7 discard\nsnap\n"
    /* carried over space 3 on its way to space 1 */
    "move 18 centre 3\nremove 14\nsnap\nexpect quiet\n"
    "move 18 centre 1\nput 14 back centre 3\nsnap\nexpect quiet\nexpect todo 0\n"
    "put 2 face play Ana\nsnap\nexpect turn Bea\nexpect todo 0\n";
  unsigned refusals = 0;
  cr_expect_eq (run_text (text, "c02", count_path_refusals, &refusals), 6);
  cr_expect_eq (refusals, 0, "%u path cards refused", refusals);
}

/* The referee away when the swap question was out, and back to find both
 * cards of the first trick down: either player may have swapped and led,
 * so the look does not answer the question and the table is asked (as
 * catchy-2p-swap-gap, where only the lead is down, is answered). */
Test (catchy_live, c02_a_swap_the_look_cannot_tell_is_asked)
{
  static const char text[] =
    CATCHY_DEALT_AND_SWAPPED "expect choice Ana Bea\n"
    "restart after 4\nput 2 face play Bea\nput 4 face play Ana\nsnap\n"
    "expect moves 0\nexpect choice Ana Bea\n";
  cr_expect_eq (run_text (text, "c02-ask", NULL, NULL), 0);
}

/* C5: the cat moved the wrong way, or turned when it should not, is named
 * by the rule that moves and turns it (not the played pile's, C12). */
Test (catchy_live, c05_a_cat_moved_the_wrong_way_is_named_by_c5)
{
  static const char text[] =
    CATCHY_DEALT_AND_SWAPPED "key confirm\n"
    "put 4 face play Ana\nsnap\nput 3 face play Bea\nsnap\n"   /* Ana wins: red, toward her */
    "move 18 centre 4\nsnap\n"
    "expect note C5\nexpect say note Not there: move the cat one space toward Ana\n"
    "expect todo 3\n"
    "move 18 centre 2\nmove 4 discard\nmove 3 discard\nsnap\nexpect quiet\nexpect todo 0\n"
    /* turned over with no odd pair: put back as it was */
    "put 9 face play Ana\nsnap\nput 7 face play Bea\nsnap\n"
    "flip 18\nsnap\nexpect note C5\n"
    "expect say note Put the mood card back on the path space next to Ana, red side up\n";
  cr_expect_eq (run_text (text, "c05", NULL, NULL), 5);
}
