/* tests/live: Exploding Kittens' live class (engine/kittens/kittens-live*.c)
 * through the interpreter's API with hand-built snapshots: the question
 * naming a target as the app sees it (choice, public view), and a table
 * making plausible and implausible changes at random. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-cardset.h"
#include "eng-interpreter.h"
#include "eng-replay.h"
#include "eng-tag.h"
#include "eng-view.h"
#include "kittens.h"

static EngCardSet *set;
static EngGame *game;
static EngInterpreter *interp;
static EngSnapshot snap;
static EngEvent storage[256];
static EngEvents events;

static void
setup (void)
{
  const char *dir = getenv ("TABLERO_DATADIR");
  cr_assert_not_null (dir);
  char path[1024];
  snprintf (path, sizeof path, "%s/cards/kittens.set", dir);
  EngParseError err;
  cr_assert_eq (eng_card_set_load_file (path, &set, &err), ENG_OK, "%s", err.reason);
  EngSetup su;
  eng_setup_init (&su);
  su.n_players = 3;
  snprintf (su.names[0], ENG_NAME_MAX, "Ana");
  snprintf (su.names[1], ENG_NAME_MAX, "Bea");
  snprintf (su.names[2], ENG_NAME_MAX, "Cai");
  su.first = 0;
  EngVerdict why;
  EngOptions opts = { .n = 0 };
  /* a live table: no seed, the referee knows only what it sees */
  cr_assert_eq (eng_game_new (eng_game_class_find ("kittens"), set, &opts, &su, NULL, NULL, &game,
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

/* A face-up card (the set's letter and number: data/cards/kittens.set). */
static void
add_face (unsigned serial, int zone, int seat)
{
  EngSnapshotItem *it = &snap.items[snap.n_items++];
  memset (it, 0, sizeof *it);
  EngTag tag = { 'E', "01", ENG_TAG_FACE, (uint16_t) serial };
  char payload[ENG_TAG_PAYLOAD_LEN + 1];
  cr_assert_eq (eng_tag_format (&tag, payload), ENG_OK);
  memcpy (it->payload, payload, sizeof payload);
  it->tag_kind = 'F';
  it->serial = (uint16_t) serial;
  it->track_id = 1000 + serial;
  it->zone = (EngZone) { (uint8_t) zone, (int8_t) seat, (int8_t) (zone == ENG_ZONE_PLAY ? -1 : 0) };
  it->since_ns = (int64_t) snap.seq;
}

static void
feed (void)
{
  snap.seq++;
  eng_events_init (&events, storage, 256);
  cr_assert_eq (eng_interpreter_feed (interp, &snap, &events), ENG_OK);
}

static void
last_move (char *buf, size_t size)
{
  const EngRecord *rec = eng_interpreter_record (interp);
  cr_assert_gt (rec->n_moves, 0);
  eng_record_format_move (rec->klass, &rec->setup, &rec->moves[rec->n_moves - 1].move, buf, size);
}

static bool
in_places (const uint8_t *list, unsigned n, uint8_t k)
{
  for (unsigned i = 0; i < n; i++)
    if (list[i] == k)
      return true;
  return false;
}

/* What a table that mostly listens does: played cards to the discard pile
 * once no play is open, the defused kitten back into the pile, and now and
 * then a card the referee did not take taken back. */
static void
tidy_up (EngRng *rng)
{
  const KitState *s = eng_game_state (game);
  const KitRules *r = eng_game_rules (game);
  for (size_t i = 0; i < snap.n_items; i++)
    {
      EngSnapshotItem *it = &snap.items[i];
      uint8_t k = kittens_card_index (r, it->serial);
      if (it->zone.kind != ENG_ZONE_PLAY || k == KIT_NONE)
        continue;
      bool out = !((s->alive >> it->zone.seat) & 1);
      if (in_places (s->discard, s->discard_n, k))
        {
          if (s->open == KIT_OPEN_NONE)
            it->zone = (EngZone) { ENG_ZONE_DISCARD, -1, 0 };
        }
      else if (k == s->kitten && s->phase == KIT_PHASE_PLACE)
        snap.items[i--] = snap.items[--snap.n_items];
      else if (!out && k != s->kitten && eng_rng_below (rng, 3) == 0)
        snap.items[i--] = snap.items[--snap.n_items];
    }
}

static size_t
count_accepted (void)
{
  size_t n = 0;
  for (size_t i = 0; i < events.n; i++)
    n += events.items[i].kind == ENG_EVENT_ACCEPTED;
  return n;
}

TestSuite (kittens_live, .init = setup, .fini = teardown);

Test (kittens_live, the_question_is_the_players_who_laid_the_pair)
{
  feed ();
  cr_assert (eng_interpreter_started (interp));
  add_face (41, ENG_ZONE_PLAY, 0);
  add_face (42, ENG_ZONE_PLAY, 0);
  feed ();
  int players[ENG_MAX_PLAYERS];
  cr_assert_eq (eng_interpreter_choice (interp, players, ENG_MAX_PLAYERS), 2);
  cr_assert_eq (players[0], 1);
  cr_assert_eq (players[1], 2);
  EngView *view = calloc (1, sizeof *view);
  eng_interpreter_public_view (interp, view);
  cr_assert_eq (view->deciding, 0, "Ana names whom she plays against");
  cr_assert_eq (eng_interpreter_record (interp)->n_moves, 0);
  eng_events_init (&events, storage, 256);
  cr_assert_eq (eng_interpreter_choose_player (interp, 7, &events), ENG_ERR_INVALID_ARGUMENT);
  cr_assert_eq (eng_interpreter_choose_player (interp, 2, &events), ENG_OK);
  char line[128];
  last_move (line, sizeof line);
  cr_assert_str_eq (line, "Ana pair 41 42 Cai");
  cr_assert_eq (eng_interpreter_choice (interp, players, ENG_MAX_PLAYERS), 0);
  cr_assert_eq (eng_interpreter_choose_player (interp, 1, &events), ENG_ERR_STATE);
  free (view);
}

/* The applied moves, replayed by the rules alone, are legal. */
static void
check_replay (void)
{
  const EngRecord *rec = eng_interpreter_record (interp);
  EngReplayResult replay;
  EngVerdict why;
  cr_assert_eq (eng_replay (rec, set, NULL, false, false, NULL, NULL, &replay, &why), ENG_OK, "%s",
                why.reason);
  cr_assert_eq (replay.illegal, 0, "the moves replay legally (line %u)",
                replay.first_illegal_line);
}

/* Cards laid, moved to the pile, taken away and commands shown at random,
 * game after game: the referee never breaks the rules' conservation, and
 * every move it applied replays legally by the rules alone. */
Test (kittens_live, a_random_table_never_breaks_it)
{
  EngRng rng;
  eng_rng_seed (&rng, 2026);
  size_t accepted = 0, games = 1;
  feed ();
  size_t n_set = eng_card_set_n_cards (set);
  for (int round = 0; round < 3000; round++)
    {
      if (eng_game_is_over (game))
        {
          check_replay ();
          teardown ();
          setup ();
          feed ();
          games++;
        }
      unsigned what = eng_rng_below (&rng, 10);
      if (eng_rng_below (&rng, 2) == 0)
        tidy_up (&rng);
      else if (what < 4 && snap.n_items < 12)
        {
          /* mostly the player whose turn it is, sometimes anyone */
          EngView *view = calloc (1, sizeof *view);
          eng_interpreter_public_view (interp, view);
          int seat = eng_rng_below (&rng, 3) == 0 || view->active < 0
                     ? (int) eng_rng_below (&rng, 3) : view->active;
          free (view);
          /* kittens are drawn rarely (or the game is soon over), and a
           * Defuse often follows one */
          const KitState *ks = eng_game_state (game);
          unsigned serial = 5 + eng_rng_below (&rng, 52);
          if (eng_rng_below (&rng, 25) == 0)
            serial = 1 + eng_rng_below (&rng, 4);
          else if (ks->phase == KIT_PHASE_KITTEN && eng_rng_below (&rng, 2) == 0)
            serial = 5 + eng_rng_below (&rng, 6);
          bool there = false;
          for (size_t i = 0; i < snap.n_items; i++)
            there = there || snap.items[i].serial == serial;
          if (!there && serial <= n_set)
            add_face (serial, what == 3 && eng_rng_below (&rng, 4) == 0 ? ENG_ZONE_DISCARD
                                                                         : ENG_ZONE_PLAY, seat);
        }
      else if (what < 7 && snap.n_items > 0)
        {
          size_t i = eng_rng_below (&rng, snap.n_items);
          if (what >= 5)
            snap.items[i] = snap.items[--snap.n_items];
          else
            snap.items[i].zone = (EngZone) { ENG_ZONE_DISCARD, -1, 0 };
        }
      else
        {
          /* no undo: it waits for the exact table back, which a random
           * table hardly ever makes (the scripts test undo) */
          static const char *const ids[] = { "end-turn", "end-turn", "confirm", "confirm",
                                             "confirm", "cancel", "cancel", "cancel" };
          eng_events_init (&events, storage, 256);
          eng_interpreter_command (interp, ids[eng_rng_below (&rng, 8)], &events);
          if (eng_rng_below (&rng, 4) == 0)
            eng_interpreter_choose_player (interp, (int) eng_rng_below (&rng, 3), &events);
          accepted += count_accepted ();
        }
      feed ();
      accepted += count_accepted ();
      EngVerdict why;
      cr_assert_eq (eng_game_check_conservation (game, &why), ENG_OK, "round %d: %s", round,
                    why.reason);
    }
  check_replay ();
  cr_assert_gt (accepted, 50, "the table made moves (%zu in %zu games)", accepted, games);
  cr_assert_geq (games, 2, "games were played to their end (%zu)", games);
}
