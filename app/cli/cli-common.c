#include "cli.h"

#include "eng-data.h"
#include "eng-game.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *
cli_data_path (const char *relative)
{
  char *path = eng_data_path (relative);
  char *copy = g_strdup (path);   /* callers g_free() */
  free (path);
  return copy;
}

char *
cli_card_set_path (const char *game)
{
  static const char *const games[] = { "katua", "catchy", "kittens" };
  for (size_t i = 0; i < G_N_ELEMENTS (games); i++)
    if (g_strcmp0 (game, games[i]) == 0)
      {
        g_autofree char *name = g_strdup_printf ("%s.set", game);
        g_autofree char *rel = g_build_filename ("cards", name, NULL);
        return cli_data_path (rel);
      }
  fprintf (stderr, "tablero-cli: unknown game '%s' (known: katua, catchy, kittens)\n",
           game ? game : "");
  return NULL;
}

const EngGameClass *
cli_game_class (const char *game)
{
  const EngGameClass *klass = eng_game_class_find (game);
  if (klass != NULL)
    return klass;
  GString *known = g_string_new (NULL);
  for (size_t i = 0; i < eng_game_class_count (); i++)
    g_string_append_printf (known, "%s%s", i ? ", " : "", eng_game_class_get (i)->name);
  fprintf (stderr, "tablero-cli: no rules for the game '%s' (known: %s)\n", game ? game : "",
           known->str);
  g_string_free (known, TRUE);
  return NULL;
}

const char *
cli_game_for_letter (char letter)
{
  switch (letter)
    {
    case 'K':
      return "katua";
    case 'C':
      return "catchy";
    case 'E':
      return "kittens";
    default:
      return NULL;
    }
}

void
cli_json_string (GString *out, const char *s, size_t len)
{
  g_string_append_c (out, '"');
  for (size_t i = 0; i < len; i++)
    {
      unsigned char c = (unsigned char) s[i];
      switch (c)
        {
        case '"':
          g_string_append (out, "\\\"");
          break;
        case '\\':
          g_string_append (out, "\\\\");
          break;
        case '\n':
          g_string_append (out, "\\n");
          break;
        case '\t':
          g_string_append (out, "\\t");
          break;
        case '\r':
          g_string_append (out, "\\r");
          break;
        default:
          if (c < 0x20 || c == 0x7f)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char) c);
        }
    }
  g_string_append_c (out, '"');
}
