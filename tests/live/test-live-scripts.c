/* tests/live: Katua turns driven from snapshot scripts through the
 * interpreter.  Each script checks itself with its `expect` lines; a test
 * fails when a script does not run to its end or any expectation fails (the
 * whole event log is printed then, to see what the referee said). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-cardset.h"
#include "eng-live-script.h"

static EngCardSet *set;

static void
load_set (void)
{
  const char *dir = getenv ("TABLERO_DATADIR");
  cr_assert_not_null (dir, "TABLERO_DATADIR is set by meson");
  char path[1024];
  snprintf (path, sizeof path, "%s/cards/katua.set", dir);
  EngParseError err;
  cr_assert_eq (eng_card_set_load_file (path, &set, &err), ENG_OK, "%s", err.reason);
}

static void
free_set (void)
{
  eng_card_set_free (set);
}

typedef struct {
  char log[65536];
  size_t len;
} Log;

static void
sink (void *user, unsigned line, const EngEvent *e)
{
  Log *log = user;
  if (log->len < sizeof log->log)
    log->len += (size_t) snprintf (log->log + log->len, sizeof log->log - log->len,
                                   "  %4u %-12s [%s] %s\n", line,
                                   eng_event_kind_to_string (e->kind), e->rule, e->text);
  if (log->len > sizeof log->log)
    log->len = sizeof log->log;
}

/* Runs tests/live/scripts/NAME and returns the result (asserting it ran). */
static EngLiveScriptResult
run_script (const char *name)
{
  char path[1024];
  snprintf (path, sizeof path, "%s/scripts/%s", TESTS_LIVE_DIR, name);
  EngLiveScript *sc = NULL;
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_live_script_load_file (path, &sc, &err), ENG_OK, "%s:%u: %s", name, err.line,
                err.reason);
  static Log log;
  log.len = 0;
  log.log[0] = '\0';
  EngLiveScriptResult res;
  EngStatus st = eng_live_script_run (sc, set, NULL, sink, &log, &res, &err);
  eng_live_script_free (sc);
  if (st != ENG_OK || res.failures > 0 || getenv ("LIVE_VERBOSE"))
    fprintf (stderr, "%s:\n%s", name, log.log);
  cr_assert_eq (st, ENG_OK, "%s:%u: %s", name, err.line, err.reason);
  cr_assert_eq (res.failures, 0, "%s: %zu failed expectations; first: %s", name, res.failures,
                res.first_failure);
  cr_assert_gt (res.expects, 0, "%s checks something", name);
  return res;
}

TestSuite (live_scripts, .init = load_set, .fini = free_set);

Test (live_scripts, two_players_defences)
{
  EngLiveScriptResult r = run_script ("katua-2p-defences.script");
  cr_assert_eq (r.scores[0], -1);
  cr_assert_eq (r.moves, 14);
}

Test (live_scripts, two_players_capture_and_refill)
{
  EngLiveScriptResult r = run_script ("katua-2p-basic.script");
  cr_assert_eq (r.scores[0], 3);
}

Test (live_scripts, two_players_mistakes)
{
  EngLiveScriptResult r = run_script ("katua-2p-mistakes.script");
  cr_assert_eq (r.moves, 7);
  cr_assert_eq (r.scores[0], 2);
}

Test (live_scripts, three_players_hook_tie_discard_pass)
{
  EngLiveScriptResult r = run_script ("katua-3p-hook.script");
  cr_assert_eq (r.moves, 11);
  cr_assert_eq (r.scores[2], 3);
}

Test (live_scripts, four_players_to_the_winner)
{
  EngLiveScriptResult r = run_script ("katua-4p-game.script");
  cr_assert (r.over);
  cr_assert_eq (r.winners, 1u, "Ana wins alone");
  cr_assert_eq (r.scores[0], 9);
}
