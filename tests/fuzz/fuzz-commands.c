/* libFuzzer target: the `--commands` input of `tablero-cli watch`
 * (app/cli/cli-commands.c).  The first byte sets how many bytes each read
 * of standard input brings (1-256), the rest is the input: it is cut into
 * lines as watch cuts it, each line read against every registered game's
 * set and a two-player table, and what reads as a command is run on a new
 * live referee of that game. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-util.h"
#include "cli-commands.h"
#include "eng-cardset.h"
#include "eng-game.h"
#include "eng-interpreter.h"
#include "eng-rng.h"

#define FUZZ_MAX_LINES 200   /* lines run on a referee per game and input */

int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

static EngEvent event_storage[256];

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  (void) argc, (void) argv;
  fuzz_load_games ();
  return 0;
}

static void
check_line (const char *line)
{
  size_t n = strlen (line);
  if (n == 0 || line[0] == '#' || strchr (line, '\n') != NULL || g_ascii_isspace (line[0])
      || g_ascii_isspace (line[n - 1]))
    abort ();
}

/* Reads and runs `line` on `interp` (may be NULL: only read). */
static void
run_line (EngInterpreter *interp, const EngCardSet *set, const EngSetup *setup, const char *line)
{
  CliCommand cmd;
  char *why = NULL;
  if (!cli_command_parse (line, set, setup, &cmd, &why))
    {
      if (why == NULL || why[0] == '\0')
        abort ();
      g_free (why);
      return;
    }
  if (why != NULL)
    abort ();
  EngEvents events;
  eng_events_init (&events, event_storage, 256);
  switch (cmd.kind)
    {
    case CLI_COMMAND_CORRECT:
      if (strlen (cmd.seen) != ENG_TAG_PAYLOAD_LEN
          || (cmd.actual[0] != '\0' && strlen (cmd.actual) != ENG_TAG_PAYLOAD_LEN))
        abort ();
      if (interp != NULL)
        (void) eng_interpreter_correct_card (interp, cmd.seen, cmd.actual[0] ? cmd.actual : NULL,
                                             &events);
      break;
    case CLI_COMMAND_CHOOSE:
      if (cmd.player < 0 || (unsigned) cmd.player >= setup->n_players)
        abort ();
      if (interp != NULL)
        (void) eng_interpreter_choose_player (interp, cmd.player, &events);
      break;
    case CLI_COMMAND_RUN:
      if (cmd.id != line)
        abort ();
      if (interp != NULL)
        (void) eng_interpreter_command (interp, cmd.id, &events);
      break;
    default:
      abort ();
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size == 0 || size > FUZZ_MAX_INPUT)
    return 0;
  size_t chunk = (size_t) data[0] + 1;
  data++, size--;
  for (size_t g = 0; g < eng_game_class_count () && g < FUZZ_MAX_GAMES; g++)
    {
      const EngGameClass *klass = eng_game_class_get (g);
      if (fuzz_sets[g] == NULL)
        continue;
      EngSetup setup;
      eng_setup_init (&setup);
      setup.n_players = klass->min_players > 2 ? klass->min_players : 2;
      for (unsigned p = 0; p < setup.n_players; p++)
        snprintf (setup.names[p], sizeof setup.names[p], "%s", p == 0 ? "Ana" : p == 1 ? "Bea" : "Cai");
      setup.first = 0;
      EngRng rng;
      eng_rng_seed (&rng, 1);
      EngGame *game = NULL;
      EngVerdict verdict;
      EngInterpreter *interp = NULL;
      if (eng_game_new (klass, fuzz_sets[g], &fuzz_options[g], &setup, &rng, NULL, &game, &verdict)
          == ENG_OK
          && eng_interpreter_new (game, fuzz_sets[g], &interp) != ENG_OK)
        interp = NULL;
      GString *pending = g_string_new (NULL);
      size_t at = 0, n_lines = 0;
      for (;;)
        {
          bool at_end = at == size;
          long frame = 0;
          char *line = cli_commands_take_line (pending, at_end, &frame);
          if (line == NULL)
            {
              if (at_end)
                break;
              size_t n = size - at < chunk ? size - at : chunk;
              g_string_append_len (pending, (const char *) data + at, (gssize) n);
              at += n;
              continue;
            }
          check_line (line);
          run_line (n_lines++ < FUZZ_MAX_LINES ? interp : NULL, fuzz_sets[g], &setup, line);
          g_free (line);
        }
      if (pending->len != 0)
        abort ();
      g_string_free (pending, TRUE);
      eng_interpreter_free (interp);
      eng_game_free (game);
    }
  return 0;
}
