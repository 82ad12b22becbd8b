/* tests/live: the interpreter's API driven with hand-built snapshots, and
 * the snapshot-script parser on malformed input. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-cardset.h"
#include "eng-interpreter.h"
#include "eng-live-script.h"
#include "eng-replay.h"
#include "katua.h"

static EngCardSet *set;
static EngGame *game;
static EngInterpreter *interp;
static EngSnapshot snap;
static EngEvent storage[128];
static EngEvents events;

static void
setup (void)
{
  const char *dir = getenv ("TABLERO_DATADIR");
  cr_assert_not_null (dir);
  char path[1024];
  snprintf (path, sizeof path, "%s/cards/katua.set", dir);
  EngParseError err;
  cr_assert_eq (eng_card_set_load_file (path, &set, &err), ENG_OK, "%s", err.reason);
  EngSetup su;
  eng_setup_init (&su);
  su.n_players = 2;
  snprintf (su.names[0], ENG_NAME_MAX, "Ana");
  snprintf (su.names[1], ENG_NAME_MAX, "Bea");
  su.first = 0;
  EngRng rng;
  eng_rng_seed (&rng, 7);
  EngVerdict why;
  EngOptions opts = { .n = 0 };
  cr_assert_eq (eng_game_new (eng_game_class_find ("katua"), set, &opts, &su, &rng, NULL, &game,
                              &why), ENG_OK, "%s", why.reason);
  cr_assert_eq (eng_interpreter_new (game, set, &interp), ENG_OK);
  memset (&snap, 0, sizeof snap);
  snap.calibrated = 1;
}

static void
teardown (void)
{
  eng_interpreter_free (interp);
  eng_game_free (game);
  eng_card_set_free (set);
}

static void
add (char kind, unsigned serial, unsigned track, int zone, int seat, int index)
{
  EngSnapshotItem *it = &snap.items[snap.n_items++];
  memset (it, 0, sizeof *it);
  EngTag tag = { 'K', "01", (EngTagKind) kind, (uint16_t) serial };
  char payload[ENG_TAG_PAYLOAD_LEN + 1];
  cr_assert_eq (eng_tag_format (&tag, payload), ENG_OK);
  memcpy (it->payload, payload, sizeof payload);
  it->tag_kind = kind;
  it->serial = (uint16_t) serial;
  it->track_id = track;
  it->zone = (EngZone) { (uint8_t) zone, (int8_t) seat, (int8_t) index };
  it->since_ns = (int64_t) snap.seq;
}

/* Every player's three face-down cats (tracks 100 + seat * 10 + slot). */
static void
table_dealt (void)
{
  snap.n_items = 0;
  for (int p = 0; p < 2; p++)
    for (int k = 0; k < 3; k++)
      add ('B', 1, (unsigned) (100 + p * 10 + k), ENG_ZONE_SLOT, p, k);
}

static void
feed (void)
{
  snap.seq++;
  eng_events_init (&events, storage, 128);
  cr_assert_eq (eng_interpreter_feed (interp, &snap, &events), ENG_OK);
}

static size_t
count (EngEventKind kind, const char *rule)
{
  size_t n = 0;
  for (size_t i = 0; i < events.n; i++)
    if (events.items[i].kind == kind && (rule == NULL || strcmp (events.items[i].rule, rule) == 0))
      n++;
  return n;
}

static void
last_move (char *buf, size_t size)
{
  const EngRecord *rec = eng_interpreter_record (interp);
  cr_assert_gt (rec->n_moves, 0);
  eng_record_format_move (rec->klass, &rec->setup, &rec->moves[rec->n_moves - 1].move, buf, size);
}

TestSuite (interpreter, .init = setup, .fini = teardown);

Test (interpreter, bad_arguments)
{
  EngInterpreter *none = (EngInterpreter *) 1;
  cr_assert_eq (eng_interpreter_new (NULL, set, &none), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_null (none);
  cr_assert_eq (eng_interpreter_new (game, set, NULL), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (eng_interpreter_feed (NULL, &snap, NULL), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (eng_interpreter_feed (interp, NULL, NULL), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (eng_interpreter_command (interp, NULL, NULL), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (eng_interpreter_command (interp, "fly-away", NULL), ENG_ERR_NOT_FOUND);
  cr_assert_eq (eng_interpreter_command (interp, "new-game", NULL), ENG_ERR_NOT_SUPPORTED);
  cr_assert_eq (eng_interpreter_choose_player (interp, 1, NULL), ENG_ERR_STATE);
  cr_assert_null (eng_interpreter_expectation (interp, 0));
  eng_interpreter_free (NULL);
}

Test (interpreter, baseline_needs_a_dealt_table)
{
  /* uncalibrated: nothing read */
  table_dealt ();
  snap.calibrated = 0;
  feed ();
  cr_assert_not (eng_interpreter_started (interp));
  /* one cat missing: the table is told how to set up */
  snap.calibrated = 1;
  snap.n_items = 5;
  feed ();
  cr_assert_not (eng_interpreter_started (interp));
  cr_assert_eq (count (ENG_EVENT_NEED, "K2"), 1);
  /* commands wait for the table */
  eng_events_init (&events, storage, 128);
  cr_assert_eq (eng_interpreter_command (interp, "end-turn", &events), ENG_OK);
  cr_assert_eq (eng_interpreter_record (interp)->n_moves, 0);
  table_dealt ();
  feed ();
  cr_assert (eng_interpreter_started (interp));
}

Test (interpreter, command_card_and_key_reach_the_same_move)
{
  table_dealt ();
  feed ();
  /* the end-turn command card shown to the camera (serial 1 in the set) */
  add ('X', 1, 900, ENG_ZONE_COMMAND, -1, -1);
  feed ();
  char line[128];
  last_move (line, sizeof line);
  cr_assert_str_eq (line, "Ana end");
  cr_assert_eq (count (ENG_EVENT_TURN, NULL), 1);
  /* still shown in the next snapshot: it does not fire twice */
  feed ();
  cr_assert_eq (eng_interpreter_record (interp)->n_moves, 1);
  /* the same command from a key */
  eng_events_init (&events, storage, 128);
  cr_assert_eq (eng_interpreter_command (interp, "end-turn", &events), ENG_OK);
  last_move (line, sizeof line);
  cr_assert_str_eq (line, "Bea end");
  cr_assert_eq (eng_interpreter_record (interp)->n_moves, 2);
  /* taken away and shown again: fires again */
  snap.n_items--;
  feed ();
  add ('X', 5, 901, ENG_ZONE_COMMAND, -1, -1);   /* pass */
  feed ();
  last_move (line, sizeof line);
  cr_assert_str_eq (line, "Ana pass");
  /* undo from a key, then the table agrees at once (a pass moved nothing) */
  eng_events_init (&events, storage, 128);
  cr_assert_eq (eng_interpreter_command (interp, "undo", &events), ENG_OK);
  cr_assert_eq (eng_interpreter_record (interp)->n_moves, 2);
  cr_assert (eng_interpreter_restoring (interp));
  snap.n_items--;
  feed ();
  cr_assert_not (eng_interpreter_restoring (interp));
  cr_assert_eq (eng_game_to_move (game), 0);
}

Test (interpreter, foreign_and_duplicate_stickers_reported_once)
{
  table_dealt ();
  feed ();
  /* a sticker of another set */
  EngSnapshotItem *it = &snap.items[snap.n_items++];
  memset (it, 0, sizeof *it);
  EngTag tag = { 'C', "01", ENG_TAG_FACE, 3 };
  char payload[ENG_TAG_PAYLOAD_LEN + 1];
  eng_tag_format (&tag, payload);
  memcpy (it->payload, payload, sizeof payload);
  it->track_id = 500;
  it->zone = (EngZone) { ENG_ZONE_ATTACK, 1, 0 };
  feed ();
  cr_assert_eq (count (ENG_EVENT_NOTE, "set"), 1);
  feed ();
  cr_assert_eq (count (ENG_EVENT_NOTE, "set"), 0, "said once");
  /* a duplicated unique sticker */
  add ('F', 40, 501, ENG_ZONE_ATTACK, 1, 1);
  snap.items[snap.n_items - 1].flags = ENG_SNAP_DUPLICATE;
  feed ();
  cr_assert_eq (count (ENG_EVENT_CONSERVATION, "table"), 1);
  cr_assert_eq (eng_interpreter_record (interp)->n_moves, 0, "nothing applied");
  /* a card still moving is not read */
  snap.n_items = 6;
  add ('F', 41, 502, ENG_ZONE_ATTACK, 1, 1);
  snap.items[snap.n_items - 1].flags = ENG_SNAP_MOVING;
  feed ();
  cr_assert_eq (eng_interpreter_record (interp)->n_moves, 0);
  /* at rest: an attempt */
  snap.items[snap.n_items - 1].flags = 0;
  feed ();
  char line[128];
  last_move (line, sizeof line);
  cr_assert_str_eq (line, "Ana attack 41 Bea 2");
}

Test (interpreter, pause_ignores_the_table)
{
  table_dealt ();
  feed ();
  eng_events_init (&events, storage, 128);
  eng_interpreter_command (interp, "pause", &events);
  add ('F', 41, 502, ENG_ZONE_ATTACK, 1, 1);
  feed ();
  cr_assert_eq (eng_interpreter_record (interp)->n_moves, 0);
  eng_interpreter_command (interp, "pause", &events);
  feed ();
  cr_assert_eq (eng_interpreter_record (interp)->n_moves, 1);
}

Test (interpreter, face_down_cats_never_named)
{
  /* K20: backs carry only the deck number, so no text can name them; the
   * texts for a face-down cat say where it is, never what it is */
  table_dealt ();
  feed ();
  snap.n_items--;          /* Bea's slot 3 cat vanishes */
  feed ();
  cr_assert_eq (count (ENG_EVENT_CONSERVATION, "table"), 1);
  for (size_t i = 0; i < events.n; i++)
    {
      cr_assert_null (strstr (events.items[i].text, "Cat,"), "%s", events.items[i].text);
      cr_assert_not_null (strstr (events.items[i].text, "face-down"), "%s",
                          events.items[i].text);
    }
}

/* ---- the script parser -------------------------------------------------- */

typedef struct {
  const char *text;
  unsigned line;
  const char *reason;   /* a piece of the expected reason */
} BadScript;

static const BadScript bad_scripts[] = {
  { "snap\n", 1, "must start with 'players'" },
  { "players Ana\n", 1, "2 to 4 names" },
  { "players Ana Bea\nplayers Cid Dan\n", 2, "twice" },
  { "players Ana Ana\n", 1, "named twice" },
  { "players Ana Bea\n\n# c\nfly 3\n", 4, "unknown keyword" },
  { "players Ana Bea\nput 3 sideways slot 0 0\n", 2, "face or back" },
  { "players Ana Bea\nput 3 face slot 0 7\n", 2, "slot index" },
  { "players Ana Bea\nput 3 face slot Cid 0\n", 2, "not a seat" },
  { "players Ana Bea\nput 3 face moon\n", 2, "unknown zone" },
  { "players Ana Bea\nput 1000 face discard\n", 2, "serial" },
  { "players Ana Bea\nput 3 face discard extra\n", 2, "unexpected" },
  { "players Ana Bea\nmove 3\n", 2, "CARD ZONE" },
  { "players Ana Bea\nflip\n", 2, "one CARD" },
  { "players Ana Bea\ndeal Ana 1 2\n", 2, "3 cat serials" },
  { "players Ana Bea\ncommand\n", 2, "one command id" },
  { "players Ana Bea\nchoose Zoe\n", 2, "player's name" },
  { "players Ana Bea\nsnap now\n", 2, "takes nothing" },
  { "players Ana Bea\nexpect\n", 2, "what to check" },
  { "players Ana Bea\nexpect weather\n", 2, "unknown expectation" },
  { "players Ana Bea\nexpect score Ana lots\n", 2, "PLAYER POINTS" },
  { "players Ana Bea\nexpect say shout hi\n", 2, "unknown event kind" },
  { "players Ana Bea\nexpect illegal K123456789\n", 2, "RULE" },
  { "players Ana Bea\nseats 1 1\n", 2, "twice" },
  { "players Ana Bea\nseats 1 9\n", 2, "seat marker" },
  { "players Ana Bea\nfirst Zoe\n", 2, "player's name" },
  { "players Ana Bea\nput 3 face slot 0 0\n\x01\x02 \x7f\n", 3, "unknown keyword" },
  { "players Ana Bea\nput 3 face\0 slot 0 0\n", 2, "NUL" },
};

Test (interpreter, malformed_scripts_name_line_and_reason)
{
  for (size_t i = 0; i < sizeof bad_scripts / sizeof bad_scripts[0]; i++)
    {
      const BadScript *b = &bad_scripts[i];
      size_t len = strlen (b->text);
      if (strstr (b->reason, "NUL") != NULL)
        len = sizeof "players Ana Bea\nput 3 face\0 slot 0 0\n" - 1;
      EngLiveScript *sc = (EngLiveScript *) 1;
      EngParseError err = { .line = 0 };
      EngStatus st = eng_live_script_parse (b->text, len, "bad", &sc, &err);
      cr_assert_eq (st, ENG_ERR_SYNTAX, "script %zu refused", i);
      cr_assert_null (sc);
      cr_assert_eq (err.line, b->line, "script %zu: line %u, want %u (%s)", i, err.line, b->line,
                    err.reason);
      cr_assert_not_null (strstr (err.reason, b->reason), "script %zu: '%s' says '%s'", i,
                          err.reason, b->reason);
    }
  EngLiveScript *sc;
  cr_assert_eq (eng_live_script_parse (NULL, 0, "x", &sc, NULL), ENG_ERR_SYNTAX, "empty");
  cr_assert_eq (eng_live_script_load_file ("/nonexistent/x.script", &sc, NULL), ENG_ERR_IO);
}

static const BadScript bad_runs[] = {
  { "players Ana Bea\nput 500 face discard\n", 2, "not in the set" },
  { "players Ana Bea\nflip 3\n", 2, "not on the table" },
  { "players Ana Bea\nput 3 back slot 0 0\nput 3 back slot 0 1\n", 3, "already on the table" },
  { "players Ana Bea\nkey fly-away\n", 2, "no command" },
};

Test (interpreter, scripts_asking_the_impossible_stop_with_a_line)
{
  for (size_t i = 0; i < sizeof bad_runs / sizeof bad_runs[0]; i++)
    {
      EngLiveScript *sc;
      EngParseError err = { .line = 0 };
      cr_assert_eq (eng_live_script_parse (bad_runs[i].text, strlen (bad_runs[i].text), "run", &sc,
                                           &err), ENG_OK, "%s", err.reason);
      EngLiveScriptResult res;
      cr_assert_eq (eng_live_script_run (sc, set, NULL, NULL, NULL, &res, &err), ENG_ERR_SYNTAX);
      cr_assert_eq (err.line, bad_runs[i].line, "run %zu: %s", i, err.reason);
      cr_assert_not_null (strstr (err.reason, bad_runs[i].reason), "%s", err.reason);
      cr_assert_null (res.record);
      eng_live_script_free (sc);
    }
}

Test (interpreter, failing_expectations_are_counted_with_their_line)
{
  const char *text = "players Ana Bea\ndeal Ana 1 2 3\ndeal Bea 4 5 6\nsnap\n"
                     "expect turn Bea\nexpect score Ana 5\nexpect move Ana end\n";
  EngLiveScript *sc;
  EngParseError err;
  cr_assert_eq (eng_live_script_parse (text, strlen (text), "f", &sc, &err), ENG_OK);
  EngLiveScriptResult res;
  cr_assert_eq (eng_live_script_run (sc, set, NULL, NULL, NULL, &res, &err), ENG_OK);
  cr_assert_eq (res.failures, 3);
  cr_assert_eq (res.expects, 3);
  cr_assert_eq (res.first_failure_line, 5);
  cr_assert_not_null (strstr (res.first_failure, "not Bea's turn"), "%s", res.first_failure);
  free (res.record);
  eng_live_script_free (sc);
}

Test (interpreter, random_bytes_never_crash_the_parser)
{
  EngRng rng;
  eng_rng_seed (&rng, 42);
  static const char *const words[] = { "players", "Ana", "Bea", "put", "3", "face", "back",
                                       "slot", "0", "1", "attack", "snap", "expect", "move",
                                       "\n", "#", "flip", "deal", "999", "-1", "\x80" };
  char text[512];
  for (int round = 0; round < 300; round++)
    {
      size_t len = 0;
      while (len < sizeof text - 16)
        {
          const char *w = words[eng_rng_below (&rng, sizeof words / sizeof words[0])];
          size_t l = strlen (w);
          memcpy (text + len, w, l);
          len += l;
          text[len++] = eng_rng_below (&rng, 4) == 0 ? '\n' : ' ';
          if (eng_rng_below (&rng, 40) == 0)
            break;
        }
      EngLiveScript *sc = NULL;
      EngParseError err;
      if (eng_live_script_parse (text, len, "random", &sc, &err) == ENG_OK)
        {
          EngLiveScriptResult res;
          eng_live_script_run (sc, set, NULL, NULL, NULL, &res, &err);
          free (res.record);
          eng_live_script_free (sc);
        }
    }
}

static void
set_item (size_t i, char kind, unsigned serial, unsigned track, int zone, int seat, int index)
{
  size_t keep = snap.n_items;
  snap.n_items = (uint16_t) i;
  add (kind, serial, track, zone, seat, index);
  snap.n_items = (uint16_t) keep;
}

Test (interpreter, refusals_never_name_a_card_the_table_hides)
{
  table_dealt ();
  feed ();
  /* Ana's red beam at Bea's slot 2; the blue cat (10) escapes and is
   * turned face down again: the referee remembers it is there */
  add ('F', 35, 600, ENG_ZONE_ATTACK, 1, 1);
  feed ();
  set_item (4, 'F', 10, 601, ENG_ZONE_SLOT, 1, 1);
  feed ();
  char line[128];
  last_move (line, sizeof line);
  cr_assert_str_eq (line, "Bea hit show 10");
  set_item (4, 'B', 1, 602, ENG_ZONE_SLOT, 1, 1);
  set_item (6, 'F', 35, 600, ENG_ZONE_DISCARD, -1, 1);
  feed ();
  cr_assert_eq (eng_interpreter_n_expectations (interp), 0);
  /* Bea swaps slots 2 and 3 by hand while the tracker loses both: it finds
   * two backs at the same places and cannot tell */
  set_item (4, 'B', 1, 777, ENG_ZONE_SLOT, 1, 1);
  set_item (5, 'B', 1, 778, ENG_ZONE_SLOT, 1, 2);
  feed ();
  eng_interpreter_command (interp, "end-turn", &events);
  eng_interpreter_command (interp, "pass", &events);
  cr_assert_eq (eng_game_to_move (game), 0);
  /* Ana attacks slot 2 again: the table now shows the fake (29) there */
  set_item (6, 'F', 36, 603, ENG_ZONE_ATTACK, 1, 1);
  feed ();
  set_item (4, 'F', 29, 604, ENG_ZONE_SLOT, 1, 1);
  feed ();
  cr_assert_eq (count (ENG_EVENT_CONSERVATION, NULL), 1, "the contradiction is reported");
  for (size_t i = 0; i < events.n; i++)
    {
      cr_assert_null (strstr (events.items[i].text, "card 10"), "K20: %s", events.items[i].text);
      cr_assert_null (strstr (events.items[i].text, "2 points"), "K20: %s", events.items[i].text);
    }
  last_move (line, sizeof line);
  cr_assert_str_eq (line, "Ana attack 36 Bea 2", "the hit was not applied");
}

Test (interpreter, random_snapshots_never_break_it)
{
  /* nonsense from a confused tracker: any tag, zone, seat, flag; the
   * interpreter must stay consistent (conservation holds) and not crash */
  EngRng rng;
  eng_rng_seed (&rng, 99);
  table_dealt ();
  feed ();
  for (int round = 0; round < 1500; round++)
    {
      snap.n_items = (uint16_t) eng_rng_below (&rng, 12);
      for (size_t i = 0; i < snap.n_items; i++)
        {
          static const char kinds[] = { 'F', 'F', 'F', 'B', 'X', 'S' };
          char kind = kinds[eng_rng_below (&rng, sizeof kinds)];
          unsigned serial = 1 + eng_rng_below (&rng, kind == 'F' ? 108 : kind == 'X' ? 9 : 2);
          size_t keep = snap.n_items;
          snap.n_items = (uint16_t) i;
          add (kind, serial, eng_rng_below (&rng, 20), (int) eng_rng_below (&rng, ENG_ZONE_KIND_COUNT + 1),
               (int) eng_rng_below (&rng, 5) - 1, (int) eng_rng_below (&rng, 5) - 1);
          snap.n_items = (uint16_t) keep;
          snap.items[i].flags = (uint8_t) eng_rng_below (&rng, 8);
        }
      feed ();
      if (eng_rng_below (&rng, 10) == 0)
        {
          static const char *const ids[] = { "end-turn", "undo", "confirm", "cancel", "pass",
                                             "discard", "no-defence", "pause" };
          eng_interpreter_command (interp, ids[eng_rng_below (&rng, 8)], &events);
        }
      if (eng_rng_below (&rng, 20) == 0)
        eng_interpreter_choose_player (interp, (int) eng_rng_below (&rng, 3), &events);
      EngVerdict why;
      cr_assert_eq (eng_game_check_conservation (game, &why), ENG_OK, "%s", why.reason);
    }
}

/* Kills the referee: rebuilds the game and a new interpreter from the text
 * of its record, as eng_session_resume does; `keep_notes` false drops the
 * table notes (a journal written before they existed). */
static void
restart (bool keep_notes)
{
  EngRecord *rec = NULL;
  char *text = eng_record_write (eng_interpreter_record (interp));
  EngParseError err;
  cr_assert_eq (eng_record_parse (text, strlen (text), "journal", &rec, &err), ENG_OK, "%s",
                err.reason);
  free (text);
  if (!keep_notes)
    cr_assert_eq (eng_record_set_notes (rec, "", 0), ENG_OK);
  EngReplayResult rr;
  EngVerdict why;
  cr_assert_eq (eng_replay (rec, set, NULL, false, true, NULL, NULL, &rr, &why), ENG_OK);
  eng_interpreter_free (interp);
  eng_game_free (game);
  game = rr.game;
  cr_assert_eq (eng_interpreter_new (game, set, &interp), ENG_OK);
  cr_assert_eq (eng_interpreter_adopt_record (interp, rec), ENG_OK);
  cr_assert_eq (eng_interpreter_record (interp)->n_moves, rec->n_moves);
  cr_assert_eq (eng_interpreter_adopt_record (interp, rec), ENG_ERR_STATE, "adopted once");
  eng_record_free (rec);
}

/* Ana's red beam at Bea's slot 2; the blue cat escapes and lies face up. */
static void
escape_then_restart (bool keep_notes)
{
  table_dealt ();
  feed ();
  add ('F', 35, 600, ENG_ZONE_ATTACK, 1, 1);
  feed ();
  set_item (4, 'F', 10, 601, ENG_ZONE_SLOT, 1, 1);   /* a blue cat escapes a red beam */
  feed ();
  cr_assert_eq (eng_interpreter_n_expectations (interp), 2);
  restart (keep_notes);
}

static void
play_on_after_restart (void)
{
  set_item (6, 'F', 35, 600, ENG_ZONE_DISCARD, -1, 1);
  feed ();
  cr_assert_eq (eng_interpreter_n_expectations (interp), 0);
  cr_assert_eq (count (ENG_EVENT_CONSERVATION, NULL) + count (ENG_EVENT_ILLEGAL, NULL), 0);
  eng_events_init (&events, storage, 128);
  eng_interpreter_command (interp, "end-turn", &events);
  char line[128];
  last_move (line, sizeof line);
  cr_assert_str_eq (line, "Ana end");
  cr_assert_eq (eng_interpreter_record (interp)->n_moves, 3, "the journal goes on");
  cr_assert_eq (eng_interpreter_adopt_record (interp, eng_interpreter_record (interp)),
                ENG_ERR_STATE);
  cr_assert_eq (eng_game_to_move (game), 1);
}

Test (interpreter, resumes_a_game_rebuilt_from_its_record)
{
  escape_then_restart (true);
  /* the journal kept what the table still had to do */
  cr_assert_eq (eng_interpreter_n_expectations (interp), 2);
  feed ();
  cr_assert (eng_interpreter_started (interp));
  cr_assert_eq (count (ENG_EVENT_NEED, "table"), 0, "nothing to put back");
  cr_assert_eq (eng_interpreter_n_expectations (interp), 2);
  set_item (4, 'B', 1, 602, ENG_ZONE_SLOT, 1, 1);
  feed ();
  cr_assert_eq (eng_interpreter_n_expectations (interp), 1);
  cr_assert_str_eq (eng_interpreter_expectation (interp, 0), "Put the red UFO on the discard pile");
  play_on_after_restart ();
}

Test (interpreter, resumes_an_old_journal_from_the_state)
{
  escape_then_restart (false);
  /* no notes: the cat is still face up, the state has it face down again */
  feed ();
  cr_assert_not (eng_interpreter_started (interp));
  cr_assert_eq (count (ENG_EVENT_NEED, "table"), 1);
  set_item (4, 'B', 1, 602, ENG_ZONE_SLOT, 1, 1);
  feed ();
  cr_assert (eng_interpreter_started (interp));
  /* the UFO the state discarded still lies in the attack zone */
  cr_assert_eq (eng_interpreter_n_expectations (interp), 1);
  cr_assert_str_eq (eng_interpreter_expectation (interp, 0), "Put the red UFO on the discard pile");
  play_on_after_restart ();
}

Test (interpreter, undoes_a_move_made_before_the_restart)
{
  escape_then_restart (true);
  set_item (4, 'B', 1, 602, ENG_ZONE_SLOT, 1, 1);
  set_item (6, 'F', 35, 600, ENG_ZONE_DISCARD, -1, 1);
  feed ();
  cr_assert_eq (eng_interpreter_n_expectations (interp), 0);
  /* the journal kept the view saved before the hit: undo it as if the
   * referee had never stopped */
  eng_events_init (&events, storage, 128);
  cr_assert_eq (eng_interpreter_command (interp, "undo", &events), ENG_OK);
  cr_assert_eq (eng_interpreter_record (interp)->n_moves, 1);
  cr_assert_eq (count (ENG_EVENT_NEED, ""), 1, "says to put the table back");
  cr_assert (eng_interpreter_restoring (interp));
  feed ();
  cr_assert (eng_interpreter_restoring (interp), "the UFO is still on the pile");
  set_item (6, 'F', 35, 600, ENG_ZONE_ATTACK, 1, 1);
  feed ();
  cr_assert_not (eng_interpreter_restoring (interp));
  /* play on: this time the cat is shown and the red beam still misses */
  set_item (4, 'F', 10, 601, ENG_ZONE_SLOT, 1, 1);
  feed ();
  char line[128];
  last_move (line, sizeof line);
  cr_assert_str_eq (line, "Bea hit show 10");
  cr_assert_eq (count (ENG_EVENT_CONSERVATION, NULL) + count (ENG_EVENT_ILLEGAL, NULL), 0);
}

Test (interpreter, undoes_a_move_of_an_old_journal_against_the_state)
{
  escape_then_restart (false);
  set_item (4, 'B', 1, 602, ENG_ZONE_SLOT, 1, 1);
  set_item (6, 'F', 35, 600, ENG_ZONE_DISCARD, -1, 1);
  feed ();
  cr_assert (eng_interpreter_started (interp));
  cr_assert_eq (eng_interpreter_n_expectations (interp), 0);
  /* undo the hit (made before the restart): no saved view, the table must
   * show the state's: the beam waiting in front of the hidden cat */
  eng_events_init (&events, storage, 128);
  cr_assert_eq (eng_interpreter_command (interp, "undo", &events), ENG_OK);
  cr_assert_eq (eng_interpreter_record (interp)->n_moves, 1);
  cr_assert_eq (count (ENG_EVENT_NEED, "table"), 1, "says what to put back");
  cr_assert_not (eng_interpreter_started (interp));
  feed ();
  cr_assert_not (eng_interpreter_started (interp), "the UFO is still on the pile");
  set_item (6, 'F', 35, 600, ENG_ZONE_ATTACK, 1, 1);
  feed ();
  cr_assert (eng_interpreter_started (interp));
  /* and the attack too: back to the dealt table */
  eng_events_init (&events, storage, 128);
  eng_interpreter_command (interp, "undo", &events);
  cr_assert_eq (eng_interpreter_record (interp)->n_moves, 0);
  eng_events_init (&events, storage, 128);
  eng_interpreter_command (interp, "undo", &events);
  cr_assert_eq (count (ENG_EVENT_NOTE, ""), 1, "nothing more to undo");
  snap.n_items = 6;
  feed ();
  cr_assert (eng_interpreter_started (interp));
  /* play on: the same attack, then the cat is hit this time */
  add ('F', 35, 600, ENG_ZONE_ATTACK, 1, 1);
  feed ();
  char line[128];
  last_move (line, sizeof line);
  cr_assert_str_eq (line, "Ana attack 35 Bea 2");
  set_item (4, 'F', 10, 601, ENG_ZONE_SLOT, 1, 1);
  feed ();
  last_move (line, sizeof line);
  cr_assert_str_eq (line, "Bea hit show 10");
  cr_assert_eq (count (ENG_EVENT_CONSERVATION, NULL) + count (ENG_EVENT_ILLEGAL, NULL), 0);
}

Test (interpreter, corrections_refuse_bad_arguments_and_lose_nothing)
{
  table_dealt ();
  feed ();
  add ('F', 35, 600, ENG_ZONE_ATTACK, 1, 1);
  feed ();
  char red[ENG_TAG_PAYLOAD_LEN + 1], blue[ENG_TAG_PAYLOAD_LEN + 1],
       cat[ENG_TAG_PAYLOAD_LEN + 1], back[ENG_TAG_PAYLOAD_LEN + 1],
       foreign[ENG_TAG_PAYLOAD_LEN + 1];
  EngTag t = { 'K', "01", ENG_TAG_FACE, 35 };
  eng_tag_format (&t, red);
  t.serial = 47;
  eng_tag_format (&t, blue);
  t.serial = 10;
  eng_tag_format (&t, cat);
  t = (EngTag) { 'K', "01", ENG_TAG_BACK, 2 };
  eng_tag_format (&t, back);
  t = (EngTag) { 'K', "01", ENG_TAG_FACE, 500 };   /* no such card */
  eng_tag_format (&t, foreign);
  eng_events_init (&events, storage, 128);
  cr_assert_eq (eng_interpreter_correct_card (NULL, red, blue, &events), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (eng_interpreter_correct_card (interp, NULL, blue, &events),
                ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (eng_interpreter_correct_card (interp, red, cat, &events),
                ENG_ERR_INVALID_ARGUMENT, "a UFO is never a cat (other deck)");
  cr_assert_eq (eng_interpreter_correct_card (interp, red, back, &events),
                ENG_ERR_INVALID_ARGUMENT, "a back tag names no card");
  cr_assert_eq (eng_interpreter_correct_card (interp, back, red, &events),
                ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (eng_interpreter_correct_card (interp, red, foreign, &events), ENG_ERR_NOT_FOUND);
  cr_assert_eq (eng_interpreter_correct_card (interp, "TB1K01F035", blue, &events),
                ENG_ERR_NOT_FOUND, "a payload must be whole");
  cr_assert_eq (eng_interpreter_correct_card (interp, "hello world", blue, &events),
                ENG_ERR_NOT_FOUND);
  cr_assert_eq (events.n, 0, "nothing said");
  cr_assert_eq (eng_interpreter_n_corrections (interp), 0);
  char line[128];
  last_move (line, sizeof line);
  cr_assert_str_eq (line, "Ana attack 35 Bea 2", "nothing lost");
  /* a good one: the attack is read again as blue */
  cr_assert_eq (eng_interpreter_correct_card (interp, red, blue, &events), ENG_OK);
  last_move (line, sizeof line);
  cr_assert_str_eq (line, "Ana attack 47 Bea 2");
  cr_assert_eq (eng_interpreter_record (interp)->n_moves, 1);
  cr_assert_eq (eng_interpreter_n_corrections (interp), 1);
  const char *seen = NULL, *actual = NULL;
  cr_assert (eng_interpreter_correction (interp, 0, &seen, &actual));
  cr_assert_str_eq (seen, red);
  cr_assert_str_eq (actual, blue);
  cr_assert_not (eng_interpreter_correction (interp, 1, &seen, &actual));
  cr_assert_eq (eng_interpreter_record (interp)->n_corrections, 1, "journaled");
  /* removed: read as red again */
  cr_assert_eq (eng_interpreter_correct_card (interp, red, NULL, &events), ENG_OK);
  cr_assert_eq (eng_interpreter_n_corrections (interp), 0);
  last_move (line, sizeof line);
  cr_assert_str_eq (line, "Ana attack 35 Bea 2");
  cr_assert_eq (eng_interpreter_record (interp)->n_corrections, 0);
}

/* The journal lines of the record (docs/record-format.md): read, written
 * back alike, refused clearly; an old record still reads. */
Test (interpreter, journal_lines_in_the_record)
{
  static const char text[] =
    "game katua\nplayer Ana\nplayer Bea\n"
    "@correct TB1K01F035L TB1K01F047G\n"
    "Ana attack 47 Bea 2\n"
    "@correct TB1K01F008I TB1K01F001W   # after a move too\n"
    "@table s 0 0\n@table v F 47 100 2 1 1\n";
  EngRecord *rec = NULL, *back = NULL;
  EngParseError err;
  cr_assert_eq (eng_record_parse (text, strlen (text), "t", &rec, &err), ENG_OK, "%s", err.reason);
  cr_assert_eq (rec->n_moves, 1);
  cr_assert_eq (rec->n_corrections, 2);
  cr_assert_str_eq (rec->corrections[1].actual, "TB1K01F001W");
  cr_assert_str_eq (rec->notes, "s 0 0\nv F 47 100 2 1 1\n");
  char *written = eng_record_write (rec);
  cr_assert_eq (eng_record_parse (written, strlen (written), "w", &back, &err), ENG_OK);
  cr_assert (eng_record_equal (rec, back));
  cr_assert_str_eq (back->notes, rec->notes);
  free (written);
  /* corrections count in equality, notes do not */
  cr_assert_eq (eng_record_set_notes (back, "", 0), ENG_OK);
  cr_assert (eng_record_equal (rec, back));
  cr_assert_eq (eng_record_set_correction (back, "TB1K01F008I", NULL), ENG_OK);
  cr_assert_not (eng_record_equal (rec, back));
  eng_record_free (back);
  /* bad notes and bad corrections change nothing */
  const char *bad_notes[] = { "no newline", "a  b\n", "a # b\n", " a\n", "a \n", "\n" };
  for (size_t i = 0; i < sizeof bad_notes / sizeof bad_notes[0]; i++)
    cr_assert_eq (eng_record_set_notes (rec, bad_notes[i], strlen (bad_notes[i])),
                  ENG_ERR_INVALID_ARGUMENT, "%s", bad_notes[i]);
  cr_assert_str_eq (rec->notes, "s 0 0\nv F 47 100 2 1 1\n");
  cr_assert_eq (eng_record_set_correction (rec, "TB1K01F035", "TB1K01F047G"),
                ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (eng_record_set_correction (rec, "tb1k01f035l", "TB1K01F047G"),
                ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (rec->n_corrections, 2);
  char seen[32];
  for (size_t i = rec->n_corrections; i < ENG_RECORD_MAX_CORRECTIONS; i++)
    {
      snprintf (seen, sizeof seen, "TB1K01F%03zuA", 200 + i);
      cr_assert_eq (eng_record_set_correction (rec, seen, "TB1K01F047G"), ENG_OK);
    }
  cr_assert_eq (eng_record_set_correction (rec, "TB1K01F999A", "TB1K01F047G"), ENG_ERR_LIMIT);
  cr_assert_eq (rec->n_corrections, ENG_RECORD_MAX_CORRECTIONS);
  eng_record_free (rec);
  /* malformed journal lines: the line and the reason */
  static const struct { const char *text; unsigned line; } bad[] = {
    { "game katua\nplayer Ana\nplayer Bea\n@correct TB1K01F035L\n", 4 },
    { "game katua\nplayer Ana\nplayer Bea\n@correct TB1K01F035L TB1K01F035L\n", 4 },
    { "game katua\nplayer Ana\nplayer Bea\n@correct TB1K01F035L TB1K01F047G\n"
      "@correct TB1K01F035L TB1K01F048G\n", 5 },
    { "game katua\nplayer Ana\nplayer Bea\n@correct tb1k01f035l TB1K01F047G\n", 4 },
    { "game katua\nplayer Ana\nplayer Bea\n@table\n", 4 },
    { "game katua\nplayer Ana\nplayer Bea\n@fly away\n", 4 },
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    {
      EngRecord *none = (EngRecord *) 1;
      cr_assert_eq (eng_record_parse (bad[i].text, strlen (bad[i].text), "b", &none, &err),
                    ENG_ERR_SYNTAX, "%s", bad[i].text);
      cr_assert_null (none);
      cr_assert_eq (err.line, bad[i].line, "%s: %s", bad[i].text, err.reason);
    }
  /* an old record: no journal lines */
  static const char old[] = "game katua\nplayer Ana\nplayer Bea\nAna pass\n";
  cr_assert_eq (eng_record_parse (old, strlen (old), "old", &rec, &err), ENG_OK);
  cr_assert_eq (rec->n_corrections, 0);
  cr_assert_null (rec->notes);
  eng_record_free (rec);
}

/* A journal whose table notes were tampered with is resumed from the state
 * (baseline), never trusted half-way. */
Test (interpreter, tampered_table_notes_are_ignored)
{
  static const char *const tamper[] = {
    "s 0 0\nv F 2000 1 2 1 1\n", "s 0 0\nv Q 1 1 2 1 1\n", "s 0 0\nv F 35 1 99 1 1\n",
    "s 0 0\ne 9 - 0 0 0 0 0 x\n", "s 0 0\np 1 2\n", "v F 35 1 2 1 1\n", "s 0 0\nu 7 0\n",
    "s 0 0\nzz\n", "s 0 0\nk 1 70 35 1 2 1\n", "s 0 0\nr F 35 1 2 1 1 x\n",
  };
  table_dealt ();
  feed ();
  for (size_t i = 0; i < sizeof tamper / sizeof tamper[0]; i++)
    {
      EngRecord *rec = eng_record_new (eng_game_class (game), eng_game_setup (game), NULL);
      cr_assert_eq (eng_record_set_notes (rec, tamper[i], strlen (tamper[i])), ENG_OK);
      EngInterpreter *fresh = NULL;
      cr_assert_eq (eng_interpreter_new (game, set, &fresh), ENG_OK);
      cr_assert_eq (eng_interpreter_adopt_record (fresh, rec), ENG_OK);
      cr_assert_not (eng_interpreter_started (fresh), "%s", tamper[i]);
      cr_assert_eq (eng_interpreter_n_expectations (fresh), 0);
      eng_interpreter_free (fresh);
      eng_record_free (rec);
    }
}

/* After a real restart the camera's tracker starts afresh: new track ids,
 * and the cards found a few at a time.  Nothing is said until the table is
 * found again; then play goes on from the journal. */
Test (interpreter, resumes_with_a_fresh_tracker)
{
  escape_then_restart (true);
  /* the first look finds only Ana's cats, under new ids */
  snap.n_items = 0;
  for (int k = 0; k < 3; k++)
    add ('B', 1, (unsigned) (5 + k), ENG_ZONE_SLOT, 0, k);
  feed ();
  cr_assert_eq (events.n, 0, "nothing said while the table is being found");
  /* then everything, Bea's face-up cat and the UFO included, under new ids */
  for (int k = 0; k < 3; k++)
    if (k == 1)
      add ('F', 10, 9, ENG_ZONE_SLOT, 1, 1);
    else
      add ('B', 1, (unsigned) (1 + k), ENG_ZONE_SLOT, 1, k);
  add ('F', 35, 3, ENG_ZONE_ATTACK, 1, 1);
  feed ();
  cr_assert_eq (count (ENG_EVENT_CONSERVATION, NULL) + count (ENG_EVENT_ILLEGAL, NULL)
                + count (ENG_EVENT_NOTE, "table"), 0);
  cr_assert_eq (eng_interpreter_n_expectations (interp), 2);
  /* Bea's back in slot 3 now carries the id Ana's slot 1 back had before:
   * still no move */
  set_item (5, 'B', 1, 100, ENG_ZONE_SLOT, 1, 2);
  feed ();
  cr_assert_eq (count (ENG_EVENT_NOTE, "table") + count (ENG_EVENT_CONSERVATION, NULL), 0);
  /* the table does what it was told */
  set_item (4, 'B', 1, 11, ENG_ZONE_SLOT, 1, 1);
  set_item (6, 'F', 35, 3, ENG_ZONE_DISCARD, -1, 1);
  feed ();
  cr_assert_eq (eng_interpreter_n_expectations (interp), 0);
  eng_events_init (&events, storage, 128);
  eng_interpreter_command (interp, "end-turn", &events);
  char line[128];
  last_move (line, sizeof line);
  cr_assert_str_eq (line, "Ana end");
}
