/* libFuzzer target: eng_live_script_parse (the snapshot scripts of
 * tests/live/scripts/) on arbitrary bytes; a script that parses is read
 * back statement by statement and, when short, run on its own game's card
 * set (every registered game with a live referee), `restart` lines
 * included, which resume the referee from its journal. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-util.h"
#include "eng-cardset.h"
#include "eng-game.h"
#include "eng-live-script.h"

#define FUZZ_MAX_RUN_OPS 400   /* longer scripts are only parsed: keeps each run short */

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);


int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc, (void) argv;
  fuzz_load_games ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size > FUZZ_MAX_INPUT)
    return 0;
  char *text = fuzz_text (data, size);
  if (text == NULL)
    return 0;
  EngLiveScript *script = NULL;
  EngParseError err;
  memset (&err, 0, sizeof err);
  EngStatus st = eng_live_script_parse (text, size, "fuzz", &script, &err);
  free (text);
  if (st != ENG_OK)
    {
      if (script != NULL || memchr (err.reason, '\0', sizeof err.reason) == NULL
          || (st == ENG_ERR_SYNTAX && err.reason[0] == '\0'))
        abort ();
      return 0;
    }
  if (script == NULL || eng_live_script_game (script) == NULL || eng_live_script_setup (script) == NULL
      || eng_live_script_options (script) == NULL)
    abort ();
  size_t n_ops = eng_live_script_n_ops (script);
  for (size_t i = 0; i < n_ops; i++)
    {
      EngLiveScriptOp op;
      if (!eng_live_script_op (script, i, &op) || op.n_cards > ENG_LIVE_SCRIPT_MAX_CARDS
          || op.expect == NULL || (op.kind == ENG_LIVE_OP_EXPECT && op.expect[0] == '\0'))
        abort ();
    }
  EngLiveScriptOp past;
  if (eng_live_script_op (script, n_ops, &past))
    abort ();
  size_t g = 0;
  while (g < eng_game_class_count () && eng_game_class_get (g) != eng_live_script_game (script))
    g++;
  if (n_ops <= FUZZ_MAX_RUN_OPS && g < FUZZ_MAX_GAMES && fuzz_sets[g] != NULL)
    {
      EngLiveScriptResult res;
      memset (&res, 0, sizeof res);
      memset (&err, 0, sizeof err);
      st = eng_live_script_run (script, fuzz_sets[g], NULL, NULL, NULL, &res, &err);
      if (st == ENG_ERR_SYNTAX && err.reason[0] == '\0')
        abort ();
      if (res.failures > res.expects)
        abort ();
      free (res.record);
    }
  eng_live_script_free (script);
  return 0;
}
