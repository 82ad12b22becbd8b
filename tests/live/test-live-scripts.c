/* tests/live: Katua turns driven from snapshot scripts through the
 * interpreter.  Each script checks itself with its `expect` lines; a test
 * fails when a script does not run to its end or any expectation fails (the
 * whole event log is printed then, to see what the referee said). */
#include "live-fixture.h"
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-cardset.h"
#include "eng-live-script.h"
#include "eng-record.h"
#include "eng-replay.h"

#include <glib.h>


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

/* The events of the last script run (run_script). */
static Log script_log;

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
  const EngCardSet *set = live_fixture_set_of (eng_live_script_game (sc)->name);
  Log *log = &script_log;
  log->len = 0;
  log->log[0] = '\0';
  EngLiveScriptResult res;
  EngStatus st = eng_live_script_run (sc, set, NULL, sink, log, &res, &err);
  eng_live_script_free (sc);
  if (st != ENG_OK || res.failures > 0 || getenv ("LIVE_VERBOSE"))
    fprintf (stderr, "%s:\n%s", name, log->log);
  cr_assert_eq (st, ENG_OK, "%s:%u: %s", name, err.line, err.reason);
  cr_assert_eq (res.failures, 0, "%s: %zu failed expectations; first: %s", name, res.failures,
                res.first_failure);
  cr_assert_gt (res.expects, 0, "%s checks something", name);
  cr_assert_not_null (res.record);
  if (getenv ("LIVE_VERBOSE"))
    fprintf (stderr, "%s", res.record);
  /* the moves applied are exactly the game record written next to it */
  char rec_path[1024];
  snprintf (rec_path, sizeof rec_path, "%s/scripts/%.*s.rec", TESTS_LIVE_DIR,
            (int) (strlen (name) - strlen (".script")), name);
  EngRecord *want = NULL, *got = NULL;
  cr_assert_eq (eng_record_load_file (rec_path, &want, &err), ENG_OK, "%s:%u: %s", rec_path,
                err.line, err.reason);
  cr_assert_eq (eng_record_parse (res.record, strlen (res.record), "applied", &got, &err), ENG_OK,
                "%s", err.reason);
  /* and that record, replayed by the rules alone, is legal and scores the same */
  EngReplayResult replay;
  EngVerdict why;
  cr_assert_eq (eng_replay (want, set, NULL, false, true, NULL, NULL, &replay, &why), ENG_OK,
                "%s", why.reason);
  cr_assert_eq (replay.illegal, 0, "%s replays legally (line %u)", rec_path,
                replay.first_illegal_line);
  for (unsigned p = 0; p < eng_game_setup (replay.game)->n_players; p++)
    cr_assert_eq (eng_game_score (replay.game, p), res.scores[p], "same score for player %u", p);
  cr_assert_eq (replay.over, res.over);
  eng_game_free (replay.game);
  bool same = eng_record_equal (want, got);
  if (!same)
    fprintf (stderr, "%s: applied moves differ from %s:\n%s", name, rec_path, res.record);
  cr_assert (same, "%s: the applied moves equal %s", name, rec_path);
  eng_record_free (want);
  eng_record_free (got);
  free (res.record);
  res.record = NULL;
  return res;
}

TestSuite (live_scripts, .init = live_fixture_load_set, .fini = live_fixture_free_set);

Test (live_scripts, two_players_defences)
{
  EngLiveScriptResult r = run_script ("katua-2p-defences.script");
  cr_assert_eq (r.scores[0], -1);
  cr_assert_eq (r.moves, 14);
}

Test (live_scripts, two_players_ufos_stacked_on_the_discard_pile)
{
  EngLiveScriptResult r = run_script ("katua-2p-stacked-discard.script");
  cr_assert_eq (r.moves, 2);
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

Test (live_scripts, two_players_quick_start_replicated_xray_cancel)
{
  EngLiveScriptResult r = run_script ("katua-2p-variants.script");
  cr_assert_eq (r.moves, 11);
  cr_assert_eq (r.scores[1], 1);
}

Test (live_scripts, two_players_shield_chain_defences_and_replicated_neutralise)
{
  EngLiveScriptResult r = run_script ("katua-2p-shield-chain.script");
  cr_assert_eq (r.moves, 12);
  cr_assert_eq (r.scores[0], 2);
}

/* K13 + K7: a Shield and a Replicator copying it answer a double attack,
 * the Replicator laid after the Shield's beam moved, then with the Shield. */
Test (live_scripts, two_players_shield_and_replicated_shield_against_a_double_attack)
{
  EngLiveScriptResult r = run_script ("katua-2p-shield-replicated.script");
  cr_assert_eq (r.moves, 14);
  cr_assert_eq (r.scores[0], 2 - 1, "Ana: Bea's blue-2 and her fake, by the turned beams");
  cr_assert_eq (r.scores[1], 1, "Bea: Ana's red-1, by the turned beam");
}

Test (live_scripts, two_players_corrections_of_misreads)
{
  EngLiveScriptResult r = run_script ("katua-2p-corrections.script");
  cr_assert_eq (r.moves, 6);
  cr_assert_eq (r.scores[0], 2);
  cr_assert_eq (r.scores[1], 1);
}

Test (live_scripts, two_players_restarts_then_undo)
{
  EngLiveScriptResult r = run_script ("katua-2p-restart.script");
  cr_assert_eq (r.moves, 4);
}

/* ---- exact resume: a kill after any snapshot loses nothing ------------- */

typedef struct {
  GHashTable *said;     /* complaints of the unkilled run: "KIND [RULE] TEXT" */
  GHashTable *extra;    /* complaints a killed run made that the unkilled did not */
  bool collect;
} Complaints;

static void
complaint_sink (void *user, unsigned line, const EngEvent *e)
{
  (void) line;
  Complaints *c = user;
  bool complaint = e->kind == ENG_EVENT_ILLEGAL || e->kind == ENG_EVENT_CONSERVATION
                   || (e->kind == ENG_EVENT_NOTE && e->rule[0] != '\0');
  if (!complaint)
    return;
  char *key = g_strdup_printf ("%s [%s] %s", eng_event_kind_to_string (e->kind), e->rule, e->text);
  if (c->collect)
    g_hash_table_add (c->said, key);
  else if (!g_hash_table_contains (c->said, key))
    g_hash_table_add (c->extra, key);
  else
    g_free (key);
}

static EngRecord *
parse_result (const char *what, const EngLiveScriptResult *res)
{
  cr_assert_not_null (res->record, "%s: a record", what);
  EngRecord *rec = NULL;
  EngParseError err;
  cr_assert_eq (eng_record_parse (res->record, strlen (res->record), what, &rec, &err), ENG_OK,
                "%s: %s", what, err.reason);
  return rec;
}

/* Runs `path` once whole, then once killed after each snapshot k and
 * resumed from the journal: same final record (moves and corrections),
 * every expect line still holds, and no complaint the unkilled run did not
 * make.  Returns the number of kills tried. */
static size_t
check_every_kill (const char *path)
{
  EngLiveScript *sc = NULL;
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_live_script_load_file (path, &sc, &err), ENG_OK, "%s:%u: %s", path, err.line,
                err.reason);
  const EngCardSet *set = live_fixture_set_of (eng_live_script_game (sc)->name);
  Complaints c = { g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL),
                   g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL), true };
  EngLiveScriptResult whole;
  cr_assert_eq (eng_live_script_run (sc, set, NULL, complaint_sink, &c, &whole, &err), ENG_OK,
                "%s:%u: %s", path, err.line, err.reason);
  cr_assert_eq (whole.failures, 0, "%s: %s", path, whole.first_failure);
  EngRecord *want = parse_result (path, &whole);
  c.collect = false;
  for (size_t k = 1; k <= whole.snapshots; k++)
    {
      EngLiveScriptResult killed;
      EngStatus st = eng_live_script_run_killed (sc, set, NULL, k, complaint_sink, &c, &killed,
                                                 &err);
      cr_assert_eq (st, ENG_OK, "%s killed after snapshot %zu: %s:%u: %s", path, k, err.source,
                    err.line, err.reason);
      cr_assert_eq (killed.failures, 0, "%s killed after snapshot %zu: %s", path, k,
                    killed.first_failure);
      EngRecord *got = parse_result (path, &killed);
      cr_assert (eng_record_equal (want, got), "%s killed after snapshot %zu: the record "
                 "differs:\n%s\nversus unkilled:\n%s", path, k, killed.record, whole.record);
      if (g_hash_table_size (c.extra) > 0)
        {
          GHashTableIter iter;
          gpointer key;
          g_hash_table_iter_init (&iter, c.extra);
          g_hash_table_iter_next (&iter, &key, NULL);
          cr_assert_fail ("%s killed after snapshot %zu: a complaint the unkilled run did not "
                          "make: %s", path, k, (const char *) key);
        }
      eng_record_free (got);
      free (killed.record);
    }
  eng_record_free (want);
  free (whole.record);
  g_hash_table_destroy (c.said);
  g_hash_table_destroy (c.extra);
  eng_live_script_free (sc);
  return whole.snapshots;
}

static size_t
check_dir (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  cr_assert_not_null (d, "%s", dir);
  size_t scripts = 0;
  for (const char *name; (name = g_dir_read_name (d)) != NULL;)
    if (g_str_has_suffix (name, ".script"))
      {
        char *path = g_build_filename (dir, name, NULL);
        cr_assert_gt (check_every_kill (path), 0, "%s has snapshots", path);
        g_free (path);
        scripts++;
      }
  g_dir_close (d);
  return scripts;
}

Test (live_scripts, a_kill_after_any_snapshot_resumes_exactly)
{
  char *mine = g_build_filename (TESTS_LIVE_DIR, "scripts", NULL);
  char *games = g_build_filename (getenv ("TABLERO_DATADIR"), "games", NULL);
  cr_assert_geq (check_dir (mine), 7);
  cr_assert_geq (check_dir (games), 2);
  g_free (mine);
  g_free (games);
}

/* ---- Exploding Kittens (data/cards/kittens.set) ------------------------ */

Test (live_scripts, kittens_play_nope_of_nope_attack_and_trio)
{
  EngLiveScriptResult r = run_script ("kittens-2p-play-nope.script");
  cr_assert_eq (r.moves, 14);
  cr_assert_not (r.over);
}

Test (live_scripts, kittens_defused_undo_restart_and_explosion)
{
  EngLiveScriptResult r = run_script ("kittens-2p-kittens.script");
  cr_assert_eq (r.moves, 5);
  cr_assert (r.over);
  cr_assert_eq (r.winners, 1u, "Ana wins");
}

Test (live_scripts, kittens_draw_and_done_command_cards)
{
  EngLiveScriptResult r = run_script ("kittens-2p-draw-done.script");
  cr_assert_eq (r.moves, 6);
  cr_assert_not (r.over);
}

/* The rules' own words for what comes next ("Ana: play a Defuse or
 * explode") give way to the live referee's words for the table: one
 * instruction, read and heard once. */
Test (live_scripts, kittens_one_instruction_for_a_kitten_drawn)
{
  run_script ("kittens-2p-kittens.script");
  cr_expect_not_null (strstr (script_log.log, "Ana: lay a Defuse in your play area"), "%s",
                      script_log.log);
  cr_expect_null (strstr (script_log.log, "play a Defuse or explode"), "%s", script_log.log);
  cr_expect_null (strstr (script_log.log, "put the kitten back into the pile, unseen"), "%s",
                  script_log.log);
}

Test (live_scripts, kittens_four_players_attack_skip_and_three_out)
{
  EngLiveScriptResult r = run_script ("kittens-4p-attack-to-winner.script");
  cr_assert (r.over);
  cr_assert_eq (r.winners, 1u << 1, "Bea wins");
}

Test (live_scripts, kittens_trio_and_favor_name_their_target_and_card)
{
  EngLiveScriptResult r = run_script ("kittens-3p-pair-favor.script");
  cr_assert_eq (r.moves, 9);
  cr_assert_not (r.over);
}

Test (live_scripts, kittens_kitten_put_back_and_a_card_laid_in_one_look)
{
  EngLiveScriptResult r = run_script ("kittens-2p-replace-and-play.script");
  cr_assert_eq (r.moves, 11);
  cr_assert_not (r.over);
}

Test (live_scripts, kittens_attack_defuse_player_out_and_undo_of_a_pair)
{
  EngLiveScriptResult r = run_script ("kittens-3p-attack-out.script");
  cr_assert_eq (r.moves, 11);
  cr_assert_not (r.over);
}

Test (live_scripts, kittens_cards_laid_together_are_a_combo)
{
  EngLiveScriptResult r = run_script ("kittens-2p-five-one-look.script");
  cr_assert_eq (r.moves, 3);
  cr_assert_not (r.over);
}

Test (live_scripts, kittens_five_players_to_a_winner)
{
  EngLiveScriptResult r = run_script ("kittens-5p-game.script");
  cr_assert_eq (r.moves, 19);
  cr_assert (r.over);
  cr_assert_eq (r.winners, 1u << 3, "Dan wins");
}

Test (live_scripts, kittens_five_different_in_several_looks_and_in_one)
{
  EngLiveScriptResult r = run_script ("kittens-2p-five.script");
  cr_assert_eq (r.moves, 13);
  cr_assert_not (r.over);
}

/* ---- Catchy! (data/cards/catchy.set) ------------------------------------ */

/* A Catchy! script's events, with the face-down cards of the table at the
 * line that made each (C11: none may be named). */
#define CATCHY_LINES 1024

typedef struct {
  uint32_t down[CATCHY_LINES];   /* bit per serial 1-16 face down after that line */
  unsigned c8_notes, c8_line;
  unsigned named_hidden, named_line;
  char named_text[256];
} CatchyWatch;

/* A numbered card's or the wild's words as the engine names it in English
 * (serials: green 1-5 are 1-5, orange 6-10, purple 11-15, the wild 16). */
static void
catchy_words (unsigned serial, char *buf, size_t size)
{
  static const char *const colours[] = { "green", "orange", "purple" };
  if (serial == 16)
    snprintf (buf, size, "wild");
  else
    snprintf (buf, size, "%s %u", colours[(serial - 1) / 5], (serial - 1) % 5 + 1);
}

static void
catchy_sink (void *user, unsigned line, const EngEvent *e)
{
  CatchyWatch *w = user;
  if (e->kind == ENG_EVENT_NOTE && strcmp (e->rule, "C8") == 0)
    {
      w->c8_notes++;
      w->c8_line = line;
    }
  uint32_t down = line < CATCHY_LINES ? w->down[line] : 0;
  for (unsigned serial = 1; serial <= 16; serial++)
    {
      char words[32];
      catchy_words (serial, words, sizeof words);
      if ((down >> serial) & 1u && strstr (e->text, words) != NULL && w->named_hidden++ == 0)
        {
          w->named_line = line;
          snprintf (w->named_text, sizeof w->named_text, "%s", e->text);
        }
    }
}

/* Runs a Catchy! script (after run_script's checks) with catchy_sink. */
static EngLiveScriptResult
run_catchy (const char *name, CatchyWatch *w)
{
  EngLiveScriptResult res = run_script (name);
  char path[1024];
  snprintf (path, sizeof path, "%s/scripts/%s", TESTS_LIVE_DIR, name);
  EngLiveScript *sc = NULL;
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_live_script_load_file (path, &sc, &err), ENG_OK, "%s", err.reason);
  /* the cards lying face down after each line, as the script lays them */
  uint32_t down = 0;
  unsigned last = 0;
  EngLiveScriptOp op;
  for (size_t i = 0; eng_live_script_op (sc, i, &op); i++)
    {
      cr_assert_lt (op.line, CATCHY_LINES);
      for (unsigned l = last + 1; l < op.line; l++)
        w->down[l] = down;
      uint32_t bit = op.n_cards > 0 && op.cards[0] <= 16 ? 1u << op.cards[0] : 0;
      if (op.kind == ENG_LIVE_OP_PUT)
        down = op.face ? down & ~bit : down | bit;
      else if (op.kind == ENG_LIVE_OP_FLIP)
        down ^= bit;
      else if (op.kind == ENG_LIVE_OP_REMOVE)
        down &= ~bit;
      w->down[op.line] = down;
      last = op.line;
    }
  cr_assert_gt (last, 0);
  EngLiveScriptResult again;
  cr_assert_eq (eng_live_script_run (sc, live_fixture_set_of ("catchy"), NULL, catchy_sink, w,
                                     &again, &err), ENG_OK, "%s", err.reason);
  cr_assert_eq (again.failures, 0);
  cr_expect_eq (w->named_hidden, 0, "%s:%u names a face-down card (C11): %s", name,
                w->named_line, w->named_text);
  free (again.record);
  eng_live_script_free (sc);
  return res;
}

Test (live_scripts, catchy_game_of_three_hands_wild_and_three_and_mistakes)
{
  static CatchyWatch w;
  memset (&w, 0, sizeof w);
  EngLiveScriptResult r = run_catchy ("catchy-2p-game.script", &w);
  cr_assert_eq (r.moves, 23);
  cr_assert (r.over);
  cr_assert_eq (r.winners, 1u, "Ana wins");
  cr_assert_eq (r.scores[0], 9);
  cr_assert_eq (r.scores[1], 0);
  cr_assert_eq (w.c8_notes, 0, "no revoke in this game");
}

Test (live_scripts, catchy_revoke_flagged_later_and_a_tie_at_the_winning_score)
{
  static CatchyWatch w;
  memset (&w, 0, sizeof w);
  EngLiveScriptResult r = run_catchy ("catchy-2p-tie.script", &w);
  cr_assert_eq (r.moves, 22);
  /* one revoke, flagged once, at the card that proves it (C8) */
  cr_assert_eq (w.c8_notes, 1);
  cr_assert_eq (w.c8_line, 71, "flagged when Ana leads orange 4 (line %u)", w.c8_line);
  /* 1-1 at the winning score played another hand, which Ana won (C7) */
  cr_assert (r.over);
  cr_assert_eq (r.winners, 1u, "Ana wins");
  cr_assert_eq (r.scores[0], 4);
  cr_assert_eq (r.scores[1], 1);
}

/* ---- moves made while the referee was away (eng-live-catchup.c) -------- */

/* Runs NAME with its `restart after S` made a restart that took no time:
 * the same look then holds nothing the table can have done meanwhile, so
 * its differences are read as they come and refused.  Returns the moves
 * applied and sets *failures to the expect lines that failed. */
static size_t
run_without_gap (const char *name, size_t *failures)
{
  char path[1024];
  snprintf (path, sizeof path, "%s/scripts/%s", TESTS_LIVE_DIR, name);
  char *text = NULL;
  gsize len = 0;
  cr_assert (g_file_get_contents (path, &text, &len, NULL), "%s", path);
  char *at = strstr (text, "\nrestart after 4\n");
  cr_assert_not_null (at, "%s restarts after 4 s", name);
  memcpy (at + 1, "restart        ", strlen ("restart after 4"));
  EngLiveScript *sc = NULL;
  EngParseError err = { .reason = "" };
  cr_assert_eq (eng_live_script_parse (text, len, name, &sc, &err), ENG_OK, "%s", err.reason);
  g_free (text);
  Log *log = &script_log;
  log->len = 0;
  log->log[0] = '\0';
  EngLiveScriptResult res;
  cr_assert_eq (eng_live_script_run (sc, live_fixture_set_of (eng_live_script_game (sc)->name),
                                     NULL, sink, log, &res, &err), ENG_OK, "%s", err.reason);
  eng_live_script_free (sc);
  *failures = res.failures;
  free (res.record);
  return res.moves;
}

/* The first look after a restart shows where the cards ended up after
 * several moves (a card laid and already discarded, a cat turned up and
 * already captured, a turn ended with no card shown): the referee tells
 * them in order, the script's expect lines hold and its record is the
 * .rec beside it.  With no time away, the same look is refused. */
static void
check_gap (const char *name, size_t moves, size_t moves_in_gap)
{
  EngLiveScriptResult r = run_script (name);
  cr_assert_eq (r.moves, moves, "%s: %zu moves", name, r.moves);
  size_t failures = 0;
  size_t without = run_without_gap (name, &failures);
  cr_assert_leq (without + moves_in_gap, moves, "%s with no time away: %zu moves", name, without);
  cr_assert_gt (failures, 0, "%s with no time away: the look is refused:\n%s", name,
                script_log.log);
}

Test (live_scripts, katua_an_attack_a_hit_and_a_turn_made_while_away)
{
  check_gap ("katua-2p-gap.script", 5, 3);
}

Test (live_scripts, catchy_a_trick_played_while_away)
{
  check_gap ("catchy-2p-gap.script", 7, 2);
}

/* Restarted before it saw the table: the setup is read from the look
 * without the card laid since. */
Test (live_scripts, katua_the_setup_and_an_attack_made_before_the_first_look)
{
  check_gap ("katua-2p-setup-gap.script", 3, 1);
}

/* The question out when the referee went away is answered by the look:
 * only the start card's swapper leads the first trick (C2). */
Test (live_scripts, catchy_the_swap_answered_by_the_lead_made_while_away)
{
  check_gap ("catchy-2p-swap-gap.script", 3, 2);
}

Test (live_scripts, kittens_a_play_and_a_draw_made_while_away)
{
  check_gap ("kittens-2p-gap.script", 5, 3);
}

/* The end-turn card still up after the restart is part of the story told:
 * made once, not again as a card newly shown (a made-up "Bea end"). */
Test (live_scripts, katua_a_command_card_up_after_the_gap_is_made_once)
{
  EngLiveScriptResult r = run_script ("katua-2p-command-gap.script");
  cr_assert_eq (r.moves, 4, "%zu moves", r.moves);
}

/* An end of turn nothing on the table proves is asked, not announced; the
 * look waits for the answer. */
Test (live_scripts, katua_an_end_of_turn_the_table_does_not_show_is_asked)
{
  check_gap ("katua-2p-ask-gap.script", 4, 1);
}

/* Restarted before it saw the table, and the attacked cat captured before
 * the first look: the setup has a face-down cat where it was taken. */
Test (live_scripts, katua_the_setup_with_a_cat_captured_before_the_first_look)
{
  check_gap ("katua-2p-setup-capture-gap.script", 4, 2);
}

/* An attack covered at once by the UFO that neutralised it: read as an
 * attack from the first look, then read again when the next look shows
 * the covered UFO on the pile (not as a discard before an attack, K3). */
Test (live_scripts, katua_an_attack_covered_by_its_neutralisation_is_read_again)
{
  EngLiveScriptResult r = run_script ("katua-2p-covered-gap.script");
  cr_assert_eq (r.moves, 3, "%zu moves", r.moves);
}

/* An answer and the card that follows from it in one look: the answer
 * first (a kill sweep's Catchy! runs lost the game to this order). */
Test (live_scripts, catchy_an_answer_shown_with_the_lead_is_taken_first)
{
  EngLiveScriptResult r = run_script ("catchy-2p-answer-and-lead.script");
  cr_assert_eq (r.moves, 3, "%zu moves", r.moves);
}

/* A confirm up after the restart, meant for a question the table went on
 * answering unseen, is held; the look answers the question. */
Test (live_scripts, catchy_an_answer_card_up_after_the_gap_is_held)
{
  EngLiveScriptResult r = run_script ("catchy-2p-answer-gap.script");
  cr_assert_eq (r.moves, 3, "%zu moves", r.moves);
}

/* A card laid just before the gap and taken back during it: an undo, not
 * the card played and buried under a pile's top card that lay there
 * before it. */
Test (live_scripts, kittens_a_play_undone_while_away)
{
  EngLiveScriptResult r = run_script ("kittens-2p-undo-gap.script");
  cr_assert_eq (r.moves, 5, "%zu moves", r.moves);
}

/* ---- the bundled demos ----------------------------------------------------------- */

/* A family's first minute with the referee is a demo: each bundled demo
 * (data/games/demo-*.script, which the window and `watch --source demo`
 * play) shows a clean game, with no refusal, contradiction or complaint
 * about the table.  A demo made to show a mistake says so in its header
 * ("# demonstrates a mistake"), and is then allowed its complaints. */
Test (live_scripts, every_bundled_demo_is_a_clean_game)
{
  g_autofree char *games = g_build_filename (getenv ("TABLERO_DATADIR"), "games", NULL);
  GDir *d = g_dir_open (games, 0, NULL);
  cr_assert_not_null (d, "%s", games);
  size_t demos = 0;
  for (const char *name; (name = g_dir_read_name (d)) != NULL;)
    {
      if (!g_str_has_prefix (name, "demo-") || !g_str_has_suffix (name, ".script"))
        continue;
      g_autofree char *path = g_build_filename (games, name, NULL);
      g_autofree char *text = NULL;
      cr_assert (g_file_get_contents (path, &text, NULL, NULL), "%s", path);
      demos++;
      if (strstr (text, "# demonstrates a mistake") != NULL)
        continue;
      EngLiveScript *sc = NULL;
      EngParseError err = { .reason = "" };
      cr_assert_eq (eng_live_script_parse (text, strlen (text), name, &sc, &err), ENG_OK, "%s:%u: %s",
                    name, err.line, err.reason);
      char complaint[256] = "";
      EngLiveScriptResult r;
      cr_assert_eq (eng_live_script_run (sc, live_fixture_set_of (eng_live_script_game (sc)->name),
                                         NULL, live_fixture_complaint_sink, complaint, &r, &err),
                    ENG_OK, "%s: %s", name, err.reason);
      cr_expect_str_empty (complaint, "%s opens a family's evening with a complaint: %s", name,
                           complaint);
      free (r.record);
      eng_live_script_free (sc);
    }
  g_dir_close (d);
  cr_assert_geq (demos, 3, "the three games' demos are found");
}

/* ---- Escoba (data/cards/escoba.set) ----------------------------------- */

Test (live_scripts, escoba_turns_captures_slips_and_new_hands)
{
  EngLiveScriptResult r = run_script ("escoba-2p-turns.script");
  cr_assert_eq (r.moves, 8);
  cr_assert_not (r.over);
}

/* Four rounds to 21, each counted from what the referee saw taken. */
Test (live_scripts, escoba_a_whole_game_to_21)
{
  EngLiveScriptResult r = run_script ("escoba-2p-game.script");
  cr_assert_eq (r.moves, 148);
  cr_assert (r.over);
  cr_assert_eq (r.winners, 1u, "Ana wins");
  cr_assert_geq (r.scores[0], 21);
}

/* Pairs: the dealer's double escoba, partners counted together. */
Test (live_scripts, escoba_a_round_in_pairs_with_a_dealers_escoba)
{
  EngLiveScriptResult r = run_script ("escoba-4p-pairs-round.script");
  cr_assert_eq (r.scores[0], r.scores[2], "partners score together");
  cr_assert_eq (r.scores[1], r.scores[3]);
  cr_assert_eq (r.scores[0], 6);
  cr_assert_eq (r.scores[1], 4);
  cr_assert_not (r.over);
}

/* The slips of S12, one physical change a look, as a camera sees them. */
Test (live_scripts, escoba_slips_named_and_put_right)
{
  EngLiveScriptResult r = run_script ("escoba-2p-mistakes.script");
  cr_assert_eq (r.moves, 6);
}
