/* libFuzzer target: the journal's table notes (`@table` lines,
 * engine/live/eng-live-journal.c), read when a referee resumes from its
 * journal.  Two ways in, both every run:
 *  - the input as a whole journal: parsed as a record, replayed on its
 *    game's set and adopted by a new interpreter (what eng_session_resume
 *    does from a file), then fed one empty look;
 *  - the input as the notes alone, adopted by a fresh two-player game of
 *    every registered game with a live referee, so each game's own note
 *    lines (mind_parse) are reached whatever game the input names. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-util.h"
#include "eng-cardset.h"
#include "eng-game.h"
#include "eng-interpreter.h"
#include "eng-record.h"
#include "eng-replay.h"
#include "eng-rng.h"

#define FUZZ_MAX_MOVES 400

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static EngSnapshot *empty_look;
static EngEvent event_storage[256];

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc, (void) argv;
  fuzz_load_games ();
  empty_look = calloc (1, sizeof *empty_look);
  if (empty_look == NULL)
    abort ();
  empty_look->seq = 1;
  empty_look->calibrated = 1;
  empty_look->tracker = 7;
  return 0;
}

static size_t
game_index (const EngGameClass *klass)
{
  size_t g = 0;
  while (g < eng_game_class_count () && eng_game_class_get (g) != klass)
    g++;
  return g;
}

/* A new interpreter on `game` adopts `record` (notes and all), then sees an
 * empty table.  Takes `game`. */
static void
adopt (EngGame *game, size_t g, const EngRecord *record)
{
  EngInterpreter *interp = NULL;
  if (eng_interpreter_new (game, fuzz_sets[g], &interp) == ENG_OK)
    {
      if (eng_interpreter_adopt_record (interp, record) == ENG_OK)
        {
          EngEvents events;
          eng_events_init (&events, event_storage, 256);
          (void) eng_interpreter_feed (interp, empty_look, &events);
          if (eng_interpreter_record (interp) == NULL)
            abort ();
        }
      eng_interpreter_free (interp);
    }
  eng_game_free (game);
}

static void
as_journal (const char *text, size_t size)
{
  EngRecord *rec = NULL;
  EngParseError err;
  memset (&err, 0, sizeof err);
  if (eng_record_parse (text, size, "fuzz", &rec, &err) != ENG_OK)
    return;
  size_t g = game_index (rec->klass);
  if (g < FUZZ_MAX_GAMES && fuzz_sets[g] != NULL && rec->n_moves <= FUZZ_MAX_MOVES)
    {
      EngReplayResult res;
      EngVerdict why;
      memset (&res, 0, sizeof res);
      if (eng_replay (rec, fuzz_sets[g], &fuzz_options[g], false, true, NULL, NULL, &res, &why)
          == ENG_OK)
        {
          if (res.illegal == 0)
            adopt (res.game, g, rec);
          else
            eng_game_free (res.game);
        }
      else
        eng_game_free (res.game);
    }
  eng_record_free (rec);
}

static void
as_notes (const char *text, size_t size)
{
  for (size_t g = 0; g < eng_game_class_count () && g < FUZZ_MAX_GAMES; g++)
    {
      const EngGameClass *klass = eng_game_class_get (g);
      if (fuzz_sets[g] == NULL)
        continue;
      EngSetup setup;
      eng_setup_init (&setup);
      setup.n_players = klass->min_players > 2 ? klass->min_players : 2;
      for (unsigned p = 0; p < setup.n_players; p++)
        snprintf (setup.names[p], sizeof setup.names[p], "P%u", p + 1);
      setup.first = 0;
      EngRecord *rec = eng_record_new (klass, &setup, NULL);
      if (rec == NULL)
        continue;
      if (eng_record_set_notes (rec, text, size) == ENG_OK)
        {
          EngRng rng;
          eng_rng_seed (&rng, 1);
          EngGame *game = NULL;
          EngVerdict why;
          if (eng_game_new (klass, fuzz_sets[g], &fuzz_options[g], &setup, &rng, NULL, &game, &why)
              == ENG_OK)
            adopt (game, g, rec);
        }
      eng_record_free (rec);
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size > FUZZ_MAX_INPUT)
    return 0;
  char *text = fuzz_text (data, size);
  if (text == NULL)
    return 0;
  as_journal (text, size);
  as_notes (text, size);
  free (text);
  return 0;
}
