/* libFuzzer target: eng_record_parse on arbitrary bytes, then, for what
 * parses, the writer (its text must parse back to an equal record) and a
 * replay on the Katua set with every line applied (--continue), checking card
 * conservation at the end. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "eng-cardset.h"
#include "eng-game.h"
#include "eng-record.h"
#include "eng-replay.h"

/* As in fuzz-cardset.c: compile the code under test here so it is
 * instrumented (the library is not). */
#ifndef TABLERO_FUZZ_INSTRUMENTED_ENGINE
#include "eng-rng.c"
#include "eng-game.c"
#include "eng-record.c"
#include "eng-replay.c"
#include "katua.c"
#endif

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* libFuzzer calls back with no user pointer: the set and options, loaded
 * once, live here for the process (read-only after Initialize). */
static EngCardSet *fuzz_set;
static EngOptions fuzz_options;

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc;
  (void) argv;
  const char *dir = getenv ("TABLERO_DATADIR");
  char path[4096];
  EngParseError err;
  snprintf (path, sizeof path, "%s/cards/katua.set", dir ? dir : "data");
  if (eng_card_set_load_file (path, &fuzz_set, &err) != ENG_OK)
    fuzz_set = NULL;   /* parser-only fuzzing */
  snprintf (path, sizeof path, "%s/rules/katua.options", dir ? dir : "data");
  if (eng_options_load_file (path, &fuzz_options, &err) != ENG_OK)
    memset (&fuzz_options, 0, sizeof fuzz_options);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  char *text = malloc (size ? size : 1);
  if (text == NULL)
    return 0;
  if (size > 0)
    memcpy (text, data, size);
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
  if (fuzz_set != NULL && rec->n_moves <= 4000)
    {
      EngReplayResult res;
      EngVerdict why;
      if (eng_replay (rec, fuzz_set, &fuzz_options, true, true, NULL, NULL, &res, &why) == ENG_OK)
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
