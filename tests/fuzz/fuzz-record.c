/* libFuzzer target: eng_record_parse on arbitrary bytes, then, for what
 * parses, the writer (its text must parse back to an equal record) and a
 * replay on the record's own game's set (every registered game) with every
 * line applied (--continue), checking card conservation at the end. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-util.h"
#include "eng-cardset.h"
#include "eng-game.h"
#include "eng-record.h"
#include "eng-replay.h"


int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* libFuzzer calls back with no user pointer: each registered game's set
 * and options, loaded once, live here for the process (read-only after
 * Initialize); a game whose set does not load is only parsed. */

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc;
  (void) argv;
  fuzz_load_games ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *text = fuzz_text (data, size);
  if (text == NULL)
    return 0;
  EngRecord *rec = NULL;
  EngParseError err;
  memset (&err, 0, sizeof err);
  EngStatus st = eng_record_parse (text, size, "fuzz", &rec, &err);
  free (text);
  if (st != ENG_OK)
    {
      if (rec != NULL || err.reason[0] == '\0')
        abort ();
      return 0;
    }
  char *written = eng_record_write (rec);
  if (written == NULL)
    abort ();
  EngRecord *back = NULL;
  if (eng_record_parse (written, strlen (written), "written", &back, &err) != ENG_OK
      || !eng_record_equal (rec, back))
    abort ();
  eng_record_free (back);
  free (written);
  size_t g = 0;
  while (g < eng_game_class_count () && eng_game_class_get (g) != rec->klass)
    g++;
  if (g < FUZZ_MAX_GAMES && fuzz_sets[g] != NULL && rec->n_moves <= 4000)
    {
      EngReplayResult res;
      EngVerdict why;
      if (eng_replay (rec, fuzz_sets[g], &fuzz_options[g], true, true, NULL, NULL, &res, &why)
          == ENG_OK)
        {
          EngVerdict v;
          if (eng_game_check_conservation (res.game, &v) != ENG_OK)
            abort ();
          if (res.applied + res.illegal != rec->n_moves)
            abort ();
          eng_game_free (res.game);
        }
    }
  eng_record_free (rec);
  return 0;
}
