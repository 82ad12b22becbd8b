/* fuzz-util.c: see fuzz-util.h. */
#include "fuzz-util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

EngCardSet *fuzz_sets[FUZZ_MAX_GAMES];
EngOptions fuzz_options[FUZZ_MAX_GAMES];

void
fuzz_load_games (void)
{
  const char *dir = getenv ("TABLERO_DATADIR");
  for (size_t g = 0; g < eng_game_class_count () && g < FUZZ_MAX_GAMES; g++)
    {
      const char *name = eng_game_class_get (g)->name;
      char path[4096];
      EngParseError err;
      snprintf (path, sizeof path, "%s/cards/%s.set", dir ? dir : "data", name);
      if (eng_card_set_load_file (path, &fuzz_sets[g], &err) != ENG_OK)
        fuzz_sets[g] = NULL;
      snprintf (path, sizeof path, "%s/rules/%s.options", dir ? dir : "data", name);
      if (eng_options_load_file (path, &fuzz_options[g], &err) != ENG_OK)
        memset (&fuzz_options[g], 0, sizeof fuzz_options[g]);
    }
}

char *
fuzz_text (const uint8_t *data, size_t size)
{
  char *text = malloc (size ? size : 1);
  if (text != NULL && size > 0)
    memcpy (text, data, size);
  return text;
}

void
fuzz_check_refusal (bool made, const EngParseError *err)
{
  if (made || err->reason[0] == '\0' || memchr (err->reason, '\0', sizeof err->reason) == NULL)
    abort ();
}
