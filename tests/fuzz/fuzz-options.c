/* libFuzzer target: eng_options_parse (data/rules/GAME.options) on
 * arbitrary bytes.  What loads must hold together: at most ENG_MAX_OPTIONS
 * distinct names, each answered by eng_options_get with its own value. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-util.h"
#include "eng-game.h"


int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  if (size > FUZZ_MAX_INPUT)
    return 0;
  char *text = fuzz_text (data, size);
  if (text == NULL)
    return 0;
  EngOptions opts;
  EngParseError err;
  memset (&err, 0, sizeof err);
  EngStatus st = eng_options_parse (text, size, "fuzz", &opts, &err);
  free (text);
  if (st != ENG_OK)
    {
      if (st == ENG_ERR_SYNTAX && (err.reason[0] == '\0'
                                   || memchr (err.reason, '\0', sizeof err.reason) == NULL))
        abort ();
      return 0;
    }
  if (opts.n > ENG_MAX_OPTIONS)
    abort ();
  for (size_t i = 0; i < opts.n; i++)
    {
      const EngOption *o = &opts.items[i];
      if (memchr (o->name, '\0', sizeof o->name) == NULL
          || memchr (o->value, '\0', sizeof o->value) == NULL || o->name[0] == '\0')
        abort ();
      const char *v = eng_options_get (&opts, o->name);
      if (v == NULL || strcmp (v, o->value) != 0)
        abort ();
      for (size_t j = i + 1; j < opts.n; j++)
        if (strcmp (o->name, opts.items[j].name) == 0)
          abort ();
    }
  /* Setting what was read changes nothing. */
  EngOptions again = opts;
  for (size_t i = 0; i < opts.n; i++)
    if (eng_options_set (&again, opts.items[i].name, opts.items[i].value) != ENG_OK)
      abort ();
  if (again.n != opts.n)
    abort ();
  return 0;
}
